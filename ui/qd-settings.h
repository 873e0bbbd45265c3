/* qd-settings.h: the application's GSettings, when they can be had
 *
 * GSettings aborts the process when asked for a schema that is not
 * installed; a build tree run without GSETTINGS_SCHEMA_DIR, or a test,
 * has none. Everything that reads or writes a preference asks here and
 * keeps the schema's defaults when the answer is NULL.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* A new GSettings of the application's schema, or NULL when the schema
 * is not installed. */
GSettings *qd_settings_new_if_installed (void);

G_END_DECLS

/* qd-settings.h: the application's GSettings, when they can be had
 *
 * GSettings aborts the process when asked for a schema it cannot find.
 * Everything that reads or writes a preference asks here: the installed
 * schema, else (a program run from the build tree, as the README starts
 * the editor, and the tests) the one compiled into the build tree; when
 * neither is there the answer is NULL and the schema's defaults apply.
 */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* A new GSettings of the application's schema, or NULL when it is
 * neither installed nor in the build tree the program runs from. */
GSettings *qd_settings_new_if_installed (void);

G_END_DECLS

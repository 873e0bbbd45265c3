/* qd-export-chooser.h: the save dialog of an export (a table, a plot)
 *
 * A GtkFileChooserNative to save a CSV file, or an image whose format
 * follows the name's extension (PNG, SVG, PDF), with the matching
 * filters and a name proposed. The caller connects "response".
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

GtkNativeDialog *qd_export_chooser_new (GtkWindow  *parent,
                                        const char *title,
                                        gboolean    csv,
                                        const char *name);

G_END_DECLS

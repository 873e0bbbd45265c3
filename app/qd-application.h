/* qd-application.h: the QDevs editor as a GtkApplication
 *
 * Owns the application-wide actions (new window, open, open example,
 * shortcuts, about, quit) and their accelerators, and opens the files
 * given on the command line or by the file manager, one window each.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define QD_TYPE_APPLICATION (qd_application_get_type ())
G_DECLARE_FINAL_TYPE (QdApplication, qd_application, QD, APPLICATION, GtkApplication)

QdApplication *qd_application_new              (GApplicationFlags  extra_flags);
/* Where "Open Example…" starts: $QD_EXAMPLES_DIR if set, else the
 * installed examples, or, when they are not installed and the editor
 * runs from a Meson build tree, those of its source tree. */
char          *qd_application_get_examples_dir (void);

G_END_DECLS

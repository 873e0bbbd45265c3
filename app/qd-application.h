/* qd-application.h: the QDevs editor as a GtkApplication
 *
 * Owns the application-wide actions (new window, open, open example,
 * shortcuts, help, about, quit) and their accelerators, and opens the files
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
/* Where the example browser finds its thumbnails (NULL when nowhere). */
char          *qd_application_get_thumbnails_dir (const char *examples_dir);
/* The URI that F1 opens: Yelp's help:qdevs (help:qdevs/PAGE) when Yelp
 * is installed and finds the guide, else the HTML guide in the first of
 * @html_dirs that holds one (the installed one, then the build tree's),
 * as a file:// URI of PAGE.html or index.html; NULL when there is none. */
char          *qd_application_pick_help_uri    (gboolean           have_yelp,
                                                gboolean           mallard_installed,
                                                const char *const *html_dirs,
                                                const char        *page);

G_END_DECLS

/* qd-example-browser.h: a dialog that lists the examples that come with QDevs
 *
 * Each .qdevs file of a folder is shown with its title and description;
 * choosing one emits "example-activated" with its file. The window opens
 * it as a new, unsaved diagram, so that Save asks where to put the copy
 * and the installed example stays as it is.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define QD_TYPE_EXAMPLE_BROWSER (qd_example_browser_get_type ())
G_DECLARE_FINAL_TYPE (QdExampleBrowser, qd_example_browser, QD, EXAMPLE_BROWSER, GtkWindow)

/* Lists the examples of @folder in the groups of @folder/gallery.json,
 * sorted by title within a group, with the thumbnails NAME.png of
 * @thumbnails (may be NULL). */
QdExampleBrowser *qd_example_browser_new         (GtkWindow        *parent,
                                                  const char       *folder,
                                                  const char       *thumbnails);
guint             qd_example_browser_get_n_examples (QdExampleBrowser *self);
/* The title shown for example @index. */
const char       *qd_example_browser_get_title   (QdExampleBrowser *self,
                                                  guint             index);
/* The file of example @index. */
const char       *qd_example_browser_get_path    (QdExampleBrowser *self,
                                                  guint             index);
/* The (translated) name of example @index's group. */
const char       *qd_example_browser_get_group   (QdExampleBrowser *self,
                                                  guint             index);
/* Whether the search leaves row @index in the list. */
gboolean          qd_example_browser_is_shown    (QdExampleBrowser *self,
                                                  guint             index);
/* Whether row @index shows a thumbnail. */
gboolean          qd_example_browser_has_thumbnail (QdExampleBrowser *self,
                                                  guint             index);
GtkEditable      *qd_example_browser_get_search_entry (QdExampleBrowser *self);
/* Chooses example @index: emits "example-activated" and closes. */
void              qd_example_browser_activate    (QdExampleBrowser *self,
                                                  guint             index);

G_END_DECLS

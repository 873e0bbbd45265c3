/* qd-test-gui.h: helpers shared by the tests of the editor's widgets */
#pragma once

#include <gtk/gtk.h>

#include "qd-plot.h"

G_BEGIN_DECLS

/* Whether @model, its sections or its submenus have an item labelled
 * @label. */
gboolean qd_test_menu_has_label (GMenuModel *model,
                                 const char *label);
/* The first item of @model (its sections and submenus included)
 * labelled @text_or_prefix, or whose label starts with it when @prefix:
 * its label, action and target (each optional, to free). */
gboolean qd_test_menu_find      (GMenuModel *model,
                                 const char *text_or_prefix,
                                 gboolean    prefix,
                                 char      **label,
                                 char      **action,
                                 GVariant  **target);
/* The button labelled @label under @widget (itself included), or NULL. */
GtkWidget *qd_test_find_button  (GtkWidget  *widget,
                                 const char *label);
/* The widget point of data (@x, @y) on @plot (its map is linear). */
void     qd_test_plot_to_widget (QdPlot     *plot,
                                 double      x,
                                 double      y,
                                 double     *wx,
                                 double     *wy);

G_END_DECLS

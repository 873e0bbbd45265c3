/* qd-test-gui.c: helpers shared by the tests of the editor's widgets */
#include "qd-test-gui.h"

gboolean
qd_test_menu_find (GMenuModel  *model,
                   const char  *text_or_prefix,
                   gboolean     prefix,
                   char       **label,
                   char       **action,
                   GVariant   **target)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autofree char *text = NULL;
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (model, i, G_MENU_LINK_SECTION);
      g_autoptr(GMenuModel) sub = g_menu_model_get_item_link (model, i, G_MENU_LINK_SUBMENU);

      if ((section != NULL
           && qd_test_menu_find (section, text_or_prefix, prefix, label, action, target))
          || (sub != NULL
              && qd_test_menu_find (sub, text_or_prefix, prefix, label, action, target)))
        return TRUE;
      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_LABEL, "s", &text)
          && (prefix ? g_str_has_prefix (text, text_or_prefix)
                     : g_str_equal (text, text_or_prefix)))
        {
          if (action != NULL)
            g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", action);
          if (target != NULL)
            *target = g_menu_model_get_item_attribute_value (model, i, G_MENU_ATTRIBUTE_TARGET,
                                                             NULL);
          if (label != NULL)
            *label = g_steal_pointer (&text);
          return TRUE;
        }
    }
  return FALSE;
}

gboolean
qd_test_menu_has_label (GMenuModel *model,
                        const char *label)
{
  return qd_test_menu_find (model, label, FALSE, NULL, NULL, NULL);
}

void
qd_test_plot_to_widget (QdPlot *plot,
                        double  x,
                        double  y,
                        double *wx,
                        double *wy)
{
  double x0, y0, x1, y1;

  qd_plot_widget_to_data (plot, 0.0, 0.0, &x0, &y0);
  qd_plot_widget_to_data (plot, 100.0, 100.0, &x1, &y1);
  *wx = (x - x0) / (x1 - x0) * 100.0;
  *wy = (y - y0) / (y1 - y0) * 100.0;
}

GtkWidget *
qd_test_find_button (GtkWidget  *widget,
                     const char *label)
{
  if (GTK_IS_BUTTON (widget)
      && g_strcmp0 (gtk_button_get_label (GTK_BUTTON (widget)), label) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = qd_test_find_button (child, label);

      if (found != NULL)
        return found;
    }
  return NULL;
}

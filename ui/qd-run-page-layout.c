/* qd-run-page-layout.c: a plot page's axes, from its Scope's parameters
 *
 * At each run the page reads the arrangement of its sink's signals
 * from the block's parameters "layout", "groups", "labels" and
 * "time_label" (when its type has them: a plotting sink that does not
 * keeps one axis). Choosing a layout in the page's toolbar or the
 * plot's context menu writes it back to the block's "layout", as an
 * edit of the diagram that Undo takes back, so that the file keeps the
 * choice; choosing the default again removes the parameter, so that a
 * file that never had it is saved as it was.
 */
#include <glib/gi18n-lib.h>

#include "qd-run-session-private.h"

/* The block of @page in the session's document. */
static QdBlock *
page_block (ScopePage *page)
{
  QdDocument *document = page->session->document;

  return document != NULL ? qd_document_find_block_by_path (document, page->path) : NULL;
}

static void
on_layout_changed (QdPlot     *plot,
                   GParamSpec *pspec,
                   ScopePage  *page)
{
  QdBlock *block = page_block (page);
  const char *shown = qd_plot_layout_kind_to_string (qd_plot_get_layout (plot));
  const QdBlockType *type;
  const char *fallback;
  g_autoptr(GError) error = NULL;

  if (block == NULL || (type = qd_block_get_type_info (block)) == NULL
      || qd_block_type_find_param (type, "layout") < 0
      || g_strcmp0 (qd_block_get_param_or_default (block, "layout"), shown) == 0)
    return;
  fallback = type->params[qd_block_type_find_param (type, "layout")].default_value;
  if (!qd_document_set_param (page->session->document, block, "layout",
                              g_strcmp0 (shown, fallback) == 0 ? NULL : shown, &error))
    g_warning ("%s: %s", page->path, error->message);
}

void
qd_run_page_layout_apply (ScopePage *page,
                          GPtrArray *names)
{
  QdBlock *block = page_block (page);
  g_autoptr(QdPlotArrangement) arrangement = NULL;
  g_autoptr(GError) error = NULL;

  if (block != NULL)
    arrangement = qd_plot_arrangement_from_block (block, (const char *const *) names->pdata,
                                                  names->len, &error);
  /* Check refuses a bad arrangement before a run; a plotting sink of
   * another type may still have one: its plot keeps one axis. */
  if (error != NULL)
    g_debug ("%s: %s", page->path, error->message);
  /* What the block says is not a choice to write back. */
  g_signal_handlers_block_by_func (page->plot, on_layout_changed, page);
  qd_plot_set_arrangement (page->plot, arrangement);
  g_signal_handlers_unblock_by_func (page->plot, on_layout_changed, page);
}

void
qd_run_page_layout_add_controls (ScopePage *page,
                                 GtkWidget *bar)
{
  g_autoptr(GSimpleActionGroup) group = g_simple_action_group_new ();
  g_autoptr(GPropertyAction) action = g_property_action_new ("layout", page->plot, "layout");
  g_autoptr(GMenu) menu = g_menu_new ();
  GtkWidget *button = gtk_menu_button_new ();
  GtkWidget *reset = gtk_button_new_from_icon_name ("zoom-fit-best-symbolic");

  g_action_map_add_action (G_ACTION_MAP (group), G_ACTION (action));
  gtk_widget_insert_action_group (bar, "scope", G_ACTION_GROUP (group));
  g_menu_append (menu, _("_One Axis"), "scope.layout::single");
  g_menu_append (menu, _("_Subplots"), "scope.layout::subplots");
  g_menu_append (menu, _("Several _Y Axes"), "scope.layout::axes");
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (button), G_MENU_MODEL (menu));
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "view-paged-symbolic");
  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_tooltip_text (button, _("Axes: one, a subplot per signal or group, or several y axes"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Axes layout"), -1);
  gtk_box_append (GTK_BOX (bar), button);

  /* Shown while zoomed, like the plot's zoom indicator. */
  gtk_widget_add_css_class (reset, "flat");
  gtk_widget_set_tooltip_text (reset, _("Show everything (Home)"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (reset), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Reset zoom"), -1);
  g_signal_connect_swapped (reset, "clicked", G_CALLBACK (qd_plot_reset_view), page->plot);
  g_object_bind_property (page->plot, "autoscale", reset, "visible",
                          G_BINDING_SYNC_CREATE | G_BINDING_INVERT_BOOLEAN);
  gtk_box_append (GTK_BOX (bar), reset);

  g_signal_connect (page->plot, "notify::layout", G_CALLBACK (on_layout_changed), page);
}

/* qd-run-page-layout.c: a plot page's axes, from its Scope's parameters
 *
 * At each run the page reads the arrangement of its sink's signals
 * from the block's parameters "layout", "groups", "labels" and
 * "time_label" (when its type has them: a plotting sink that does not
 * keeps one axis), and again whenever an edit changes them. Choosing a layout in the page's toolbar or the
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

/* What a plot was arranged from: its Scope in a document, the signals'
 * names, and the parameters' texts then. Kept on the plot, so that an
 * edit of those parameters (in the inspector, or Undo) rearranges it at
 * once; the handler goes with the plot. */
typedef struct
{
  QdDocument *document;   /* weak */
  gulong      handler;
  char       *path;
  GStrv       names;
  char       *texts;
} LayoutWatch;

static void
layout_watch_free (gpointer data)
{
  LayoutWatch *w = data;

  if (w->document != NULL)
    {
      g_clear_signal_handler (&w->handler, w->document);
      g_object_remove_weak_pointer (G_OBJECT (w->document), (gpointer *) &w->document);
    }
  g_free (w->path);
  g_strfreev (w->names);
  g_free (w->texts);
  g_free (w);
}

static void
layout_watch_apply (QdPlot      *plot,
                    LayoutWatch *w,
                    gboolean     force)
{
  static const char *const params[] = { "layout", "groups", "labels", "time_label" };
  QdBlock *block = w->document != NULL ? qd_document_find_block_by_path (w->document, w->path)
                                       : NULL;
  g_autoptr(QdPlotArrangement) arrangement = NULL;
  g_autoptr(GString) texts = g_string_new (NULL);
  g_autoptr(GError) error = NULL;

  for (guint i = 0; block != NULL && i < G_N_ELEMENTS (params); i++)
    g_string_append_printf (texts, "%s\n", qd_block_get_param_or_default (block, params[i]));
  if (!force && g_strcmp0 (texts->str, w->texts) == 0)
    return;
  g_free (w->texts);
  w->texts = g_strdup (texts->str);
  if (block != NULL)
    arrangement = qd_plot_arrangement_from_block (block, (const char *const *) w->names,
                                                  g_strv_length (w->names), &error);
  /* Check refuses a bad arrangement before a run; a plotting sink of
   * another type may still have one: its plot keeps one axis. */
  if (error != NULL)
    g_debug ("%s: %s", w->path, error->message);
  /* What the block says is not a choice to write back. */
  g_signal_handlers_block_matched (plot, G_SIGNAL_MATCH_FUNC, 0, 0, NULL,
                                   on_layout_changed, NULL);
  qd_plot_set_arrangement (plot, arrangement);
  g_signal_handlers_unblock_matched (plot, G_SIGNAL_MATCH_FUNC, 0, 0, NULL,
                                     on_layout_changed, NULL);
}

static void
on_document_changed (QdDocument *document,
                     QdPlot     *plot)
{
  layout_watch_apply (plot, g_object_get_data (G_OBJECT (plot), "qd-layout-watch"), FALSE);
}

void
qd_run_page_layout_apply (ScopePage *page,
                          GPtrArray *names)
{
  LayoutWatch *w = g_new0 (LayoutWatch, 1);

  w->path = g_strdup (page->path);
  w->names = g_new0 (char *, names->len + 1);
  for (guint i = 0; i < names->len; i++)
    w->names[i] = g_strdup (g_ptr_array_index (names, i));
  w->document = page->session->document;
  if (w->document != NULL)
    {
      g_object_add_weak_pointer (G_OBJECT (w->document), (gpointer *) &w->document);
      w->handler = g_signal_connect (w->document, "changed",
                                     G_CALLBACK (on_document_changed), page->plot);
    }
  /* Replaces (and disconnects) the watch of the previous run. */
  g_object_set_data_full (G_OBJECT (page->plot), "qd-layout-watch", w, layout_watch_free);
  layout_watch_apply (page->plot, w, TRUE);
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

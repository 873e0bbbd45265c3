/* qd-run-page.c: the plot pages of a run session
 *
 * One page per plotting sink: the plot, a row of its own controls over
 * it (mode, X-Y, clear, export), its tab, and a window of its own when
 * it is detached from the notebook.
 */
#include <glib/gi18n-lib.h>
#include <string.h>

#include "qd-export-chooser.h"
#include "qd-run-session-private.h"
#include "qd-window.h"

static void page_attach (ScopePage *page);

void
qd_run_page_free (gpointer data)
{
  ScopePage *page = data;

  if (page->window != NULL)
    {
      /* The window must not put the plot back while it goes. */
      g_signal_handlers_disconnect_by_data (page->window, page);
      gtk_window_destroy (page->window);
    }
  else if (page->session->notebook != NULL)
    {
      int num = gtk_notebook_page_num (page->session->notebook, page->page);

      if (num >= 0)
        gtk_notebook_remove_page (page->session->notebook, num);
    }
  if (page->chooser != NULL)
    {
      g_signal_handlers_disconnect_by_data (page->chooser, page);
      gtk_native_dialog_destroy (page->chooser);
      g_clear_object (&page->chooser);
    }
  g_clear_object (&page->tab);
  g_object_unref (page->page);
  g_object_unref (page->plot);
  g_free (page->path);
  g_free (page->name);
  g_free (page);
}

static gboolean
on_detached_close_request (GtkWindow *window,
                           ScopePage *page)
{
  /* Closing the window puts the plot back where it came from. */
  gtk_window_set_child (window, NULL);
  page->window = NULL;
  page_attach (page);
  return FALSE;
}

void
qd_run_page_detach (ScopePage *page)
{
  GtkNotebook *notebook = page->session->notebook;
  GtkRoot *root;
  int num;

  if (page->window != NULL || notebook == NULL)
    return;
  num = gtk_notebook_page_num (notebook, page->page);
  if (num >= 0)
    gtk_notebook_remove_page (notebook, num);

  page->window = GTK_WINDOW (gtk_window_new ());
  gtk_window_set_title (page->window, page->name);
  gtk_window_set_default_size (page->window, 640, 420);
  root = gtk_widget_get_root (GTK_WIDGET (notebook));
  if (GTK_IS_WINDOW (root))
    {
      /* Not transient: a detached plot is a window to arrange next to
       * the diagram, not a dialog over it. It belongs to the same
       * application, so it does not keep a closed editor alive. */
      GtkApplication *app = gtk_window_get_application (GTK_WINDOW (root));

      if (app != NULL)
        gtk_window_set_application (page->window, app);
    }
  gtk_window_set_child (page->window, page->page);
  g_signal_connect (page->window, "close-request",
                    G_CALLBACK (on_detached_close_request), page);
  gtk_window_present (page->window);
}

static void
on_detach_clicked (GtkButton *button,
                   ScopePage *page)
{
  qd_run_page_detach (page);
}

/* The plot's toolbar */

static void
show_error (ScopePage    *page,
            const GError *error)
{
  GtkRoot *root = gtk_widget_get_root (page->page);

  /* A detached plot reports in the editor it belongs to. */
  if (!QD_IS_WINDOW (root) && page->session->notebook != NULL)
    root = gtk_widget_get_root (GTK_WIDGET (page->session->notebook));
  if (QD_IS_WINDOW (root))
    qd_window_show_message (QD_WINDOW (root), GTK_MESSAGE_ERROR, error->message);
  else
    g_warning ("%s", error->message);
}

static void
on_mode_selected (GtkDropDown *dropdown,
                  GParamSpec  *pspec,
                  ScopePage   *page)
{
  /* The drop-down lists the modes in their enumeration order. */
  qd_plot_set_mode (page->plot, (QdPlotMode) gtk_drop_down_get_selected (dropdown));
}

static void
on_xy_toggled (GtkToggleButton *button,
               ScopePage       *page)
{
  if (gtk_toggle_button_get_active (button) && qd_plot_get_n_traces (page->plot) >= 2)
    qd_plot_set_xy (page->plot, 0, 1);
  else
    qd_plot_set_xy (page->plot, -1, -1);
}

void
qd_run_page_update_dropped_label (ScopePage *page)
{
  g_autofree char *text = NULL;

  gtk_widget_set_visible (GTK_WIDGET (page->dropped_label), page->n_dropped > 0);
  if (page->n_dropped == 0)
    return;
  text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%u earlier run dropped (trace memory)",
                                       "%u earlier runs dropped (trace memory)",
                                       page->n_dropped),
                          page->n_dropped);
  gtk_label_set_text (page->dropped_label, text);
}

void
qd_run_page_clear_runs (ScopePage *page)
{
  qd_plot_clear_runs (page->plot);
  page->n_dropped = 0;
  qd_run_page_update_dropped_label (page);
}

static void
on_clear_runs_clicked (GtkButton *button,
                       ScopePage *page)
{
  qd_run_page_clear_runs (page);
}

/* The chooser offers PNG, SVG and PDF; a name without one of their
 * extensions is written as PNG. */
static QdImageFormat
format_for_path (const char *path)
{
  QdImageFormat format = qd_image_format_for_path (path);

  return format != QD_IMAGE_FORMAT_UNKNOWN ? format : QD_IMAGE_FORMAT_PNG;
}

static void
on_chooser_response (GtkNativeDialog *dialog,
                     int              response,
                     ScopePage       *page)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
      g_autoptr(GError) error = NULL;
      gboolean ok = TRUE;

      if (path != NULL && page->chooser_csv)
        ok = qd_plot_export_csv (page->plot, path, 0.0, &error);
      else if (path != NULL)
        {
          /* What is on the screen, at the size it has there. */
          int w = gtk_widget_get_width (GTK_WIDGET (page->plot));
          int h = gtk_widget_get_height (GTK_WIDGET (page->plot));

          ok = qd_plot_export (page->plot, path, format_for_path (path),
                               w > 0 ? w : 800, h > 0 ? h : 500, &error);
        }
      if (!ok)
        show_error (page, error);
    }
  gtk_native_dialog_destroy (dialog);
  g_clear_object (&page->chooser);
}

static void
open_chooser (ScopePage *page,
              gboolean   csv)
{
  GtkRoot *root = gtk_widget_get_root (page->page);
  g_autofree char *name = NULL;

  if (page->chooser != NULL)
    {
      gtk_native_dialog_show (page->chooser);
      return;
    }
  page->chooser_csv = csv;
  name = g_strconcat (page->name, csv ? ".csv" : ".png", NULL);
  page->chooser = qd_export_chooser_new (GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                         csv ? _("Export Results as CSV") : _("Export Plot as Image"),
                                         csv, name);
  g_signal_connect (page->chooser, "response", G_CALLBACK (on_chooser_response), page);
  gtk_native_dialog_show (page->chooser);
}

static void
on_export_image_clicked (GtkButton *button,
                         ScopePage *page)
{
  open_chooser (page, FALSE);
}

static void
on_export_csv_clicked (GtkButton *button,
                       ScopePage *page)
{
  open_chooser (page, TRUE);
}

static GtkWidget *
toolbar_button (GtkWidget  *box,
                const char *icon,
                const char *label,
                const char *tooltip,
                GCallback   callback,
                ScopePage  *page)
{
  GtkWidget *button = icon != NULL ? gtk_button_new_from_icon_name (icon)
                                   : gtk_button_new_with_mnemonic (label);

  gtk_widget_add_css_class (button, "flat");
  gtk_widget_set_tooltip_text (button, tooltip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, tooltip, -1);
  g_signal_connect (button, "clicked", callback, page);
  gtk_box_append (GTK_BOX (box), button);
  return button;
}

/* The page of a plot: a row of the plot's own controls over it (what
 * the mouse cannot say: how to draw, XY, forgetting earlier runs,
 * saving). */
static GtkWidget *
create_page (ScopePage *page)
{
  static const char *const modes[] = {
    /* TRANSLATORS: plot display modes: the exact polynomials, straight
     * lines between events, held values, markers at the events; in a
     * context of their own, as "Steps" is also a count of solver steps */
    NC_("plot mode", "Exact"), NC_("plot mode", "Lines"),
    NC_("plot mode", "Steps"), NC_("plot mode", "Events"), NULL
  };
  const char *translated[G_N_ELEMENTS (modes)];
  GtkWidget *vbox = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *dropdown, *spacer;

  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    translated[i] = modes[i] != NULL
                    ? g_dpgettext2 (GETTEXT_PACKAGE, "plot mode", modes[i]) : NULL;
  gtk_widget_add_css_class (bar, "toolbar");
  gtk_widget_set_margin_start (bar, 4);
  gtk_widget_set_margin_end (bar, 4);

  dropdown = gtk_drop_down_new_from_strings (translated);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), qd_plot_get_mode (page->plot));
  gtk_widget_set_tooltip_text (dropdown, _("How the curves are drawn"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (dropdown), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Display mode"), -1);
  g_signal_connect (dropdown, "notify::selected", G_CALLBACK (on_mode_selected), page);
  gtk_box_append (GTK_BOX (bar), dropdown);

  page->xy_button = gtk_toggle_button_new_with_label (_("XY"));
  gtk_widget_add_css_class (page->xy_button, "flat");
  gtk_widget_set_tooltip_text (page->xy_button, _("Plot the second trace against the first"));
  g_signal_connect (page->xy_button, "toggled", G_CALLBACK (on_xy_toggled), page);
  gtk_widget_set_visible (page->xy_button, FALSE);
  gtk_box_append (GTK_BOX (bar), page->xy_button);

  spacer = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);
  gtk_widget_set_hexpand (spacer, TRUE);
  gtk_box_append (GTK_BOX (bar), spacer);

  page->dropped_label = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (page->dropped_label), "dim-label");
  gtk_widget_set_tooltip_text (GTK_WIDGET (page->dropped_label),
                               _("All runs share the trace memory of the "
                                 "preferences: the oldest earlier runs are "
                                 "decimated, then dropped, to leave room "
                                 "for new ones."));
  gtk_widget_set_visible (GTK_WIDGET (page->dropped_label), FALSE);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (page->dropped_label));

  qd_run_page_layout_add_controls (page, bar);
  toolbar_button (bar, "edit-clear-all-symbolic", NULL, _("Clear earlier runs"),
                  G_CALLBACK (on_clear_runs_clicked), page);
  toolbar_button (bar, "image-x-generic-symbolic", NULL, _("Export image…"),
                  G_CALLBACK (on_export_image_clicked), page);
  toolbar_button (bar, "document-save-as-symbolic", NULL, _("Export CSV…"),
                  G_CALLBACK (on_export_csv_clicked), page);

  gtk_box_append (GTK_BOX (vbox), bar);
  gtk_box_append (GTK_BOX (vbox), GTK_WIDGET (page->plot));
  return vbox;
}

static GtkWidget *
create_tab (ScopePage *page)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *label = gtk_label_new (page->name);
  GtkWidget *button = gtk_button_new_from_icon_name ("window-new-symbolic");
  g_autofree char *tip = NULL;

  gtk_widget_add_css_class (button, "flat");
  gtk_widget_add_css_class (button, "circular");
  gtk_widget_set_focus_on_click (button, FALSE);
  /* TRANSLATORS: the tooltip of a button on a plot's tab */
  tip = g_strdup_printf (_("Show %s in a window of its own"), page->name);
  gtk_widget_set_tooltip_text (button, tip);
  gtk_accessible_update_property (GTK_ACCESSIBLE (button),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, tip, -1);
  g_signal_connect (button, "clicked", G_CALLBACK (on_detach_clicked), page);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), button);
  gtk_widget_set_tooltip_text (label, page->path);
  page->tab_label = GTK_LABEL (label);
  return box;
}

static void
page_attach (ScopePage *page)
{
  GtkNotebook *notebook = page->session->notebook;
  int num;

  if (notebook == NULL || page->window != NULL)
    return;
  if (gtk_notebook_page_num (notebook, page->page) >= 0)
    return;
  /* The tab widget is reused: the notebook takes a reference of its own. */
  num = gtk_notebook_append_page (notebook, page->page, page->tab);
  gtk_notebook_set_tab_reorderable (notebook, page->page, TRUE);
  gtk_notebook_set_current_page (notebook, num);
}

ScopePage *
qd_run_page_find (QdRunSession *self,
           const char   *path)
{
  for (guint i = 0; i < self->pages->len; i++)
    {
      ScopePage *page = g_ptr_array_index (self->pages, i);

      if (g_strcmp0 (page->path, path) == 0)
        return page;
    }
  return NULL;
}

/* A plot squeezed into a message-sized pane shows nothing: the first
 * time a plot appears, the pane grows to a useful height (the user may
 * drag it back; later runs leave it alone). */
void
qd_run_page_make_room (QdRunSession *self)
{
  GtkWidget *parent;
  int height, available;

  if (self->notebook == NULL)
    return;
  parent = gtk_widget_get_parent (GTK_WIDGET (self->notebook));
  if (!GTK_IS_PANED (parent)
      || gtk_orientable_get_orientation (GTK_ORIENTABLE (parent)) != GTK_ORIENTATION_VERTICAL
      || gtk_paned_get_end_child (GTK_PANED (parent)) != GTK_WIDGET (self->notebook))
    return;
  height = gtk_widget_get_height (GTK_WIDGET (self->notebook));
  available = gtk_widget_get_height (parent);
  if (available <= 0 || height >= 240)
    return;
  gtk_paned_set_position (GTK_PANED (parent), MAX (available / 2, available - 320));
}

ScopePage *
qd_run_page_new (QdRunSession *self,
          const char   *path)
{
  ScopePage *page = g_new0 (ScopePage, 1);
  const char *slash = strrchr (path, '/');

  page->session = self;
  page->path = g_strdup (path);
  page->name = g_strdup (slash != NULL ? slash + 1 : path);
  page->plot = QD_PLOT (g_object_ref_sink (qd_plot_new ()));
  gtk_widget_set_hexpand (GTK_WIDGET (page->plot), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (page->plot), TRUE);
  page->page = g_object_ref_sink (create_page (page));
  page->tab = g_object_ref_sink (create_tab (page));
  page_attach (page);
  return page;
}

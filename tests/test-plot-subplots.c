/* test-plot-subplots.c: the plot widget's subplots and y axes
 *
 * The widget keeps one time range for all its axes and a value range
 * per axis, switches layout through its property and its context
 * menu's action, and a run's plot takes its layout from the Scope's
 * parameters, follows their edits, and writes a choice made on the
 * plot back into them.
 * Needs a display (run under xvfb-run); skipped without one.
 */
#include <math.h>
#include <string.h>

#include "qd-plot.h"
#include "qd-plot-menu.h"
#include "qd-messages-view.h"
#include "qd-run-session.h"
#include "qd-test-gtk-util.h"
#include "qd-test-gui.h"
#include "qd-test-util.h"

static gboolean have_display;


/* A ramp from 0 to @top over [0, 10]. */
static QdTrace *
ramp_trace (const char *name,
            double      top)
{
  QdTrace *trace = qd_trace_new (name);
  QdSignal s = { 0.0, { 0.0, top / 10.0, 0.0, 0.0 }, 1, 0 };

  qd_trace_append (trace, &s);
  qd_trace_close (trace, 10.0);
  return trace;
}

/* A window with a plot of @v and @i, shown and laid out. */
static GtkWidget *
show_plot (QdTrace  *v,
           QdTrace  *i,
           QdPlot  **plot)
{
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 600, 400);
  *plot = QD_PLOT (qd_plot_new ());
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (*plot));
  gtk_window_present (GTK_WINDOW (window));
  qd_plot_add_trace (*plot, v, "v", NULL);
  qd_plot_add_trace (*plot, i, "i", NULL);
  for (guint k = 0; k < 100 && gtk_widget_get_width (GTK_WIDGET (*plot)) <= 0; k++)
    qd_test_run_frames (20);
  qd_test_run_frames (100);
  return window;
}

static void
test_widget_axes (void)
{
  g_autoptr(QdTrace) v = ramp_trace ("v", 1.0);
  g_autoptr(QdTrace) i = ramp_trace ("i", 100.0);
  const char *names[] = { "v", "i" };
  g_autoptr(QdPlotArrangement) one_group = NULL;
  GtkWidget *window;
  QdPlot *plot;
  double x0, x1, y0, y1, a0, a1;
  g_autofree char *layout = NULL;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  window = show_plot (v, i, &plot);

  /* One axis: both on it, so its range reaches 100. */
  g_assert_cmpint (qd_plot_get_layout (plot), ==, QD_PLOT_LAYOUT_SINGLE);
  g_assert_cmpuint (qd_plot_get_n_axes (plot), ==, 1);
  qd_plot_get_view (plot, NULL, NULL, &y0, &y1);
  g_assert_cmpfloat (y1, >=, 100.0);

  /* The context menu's action: a subplot each, each fitted to its own. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (plot), "plot.layout", "s", "subplots"));
  g_assert_cmpint (qd_plot_get_layout (plot), ==, QD_PLOT_LAYOUT_SUBPLOTS);
  g_object_get (plot, "layout", &layout, NULL);
  g_assert_cmpstr (layout, ==, "subplots");
  g_assert_cmpuint (qd_plot_get_n_axes (plot), ==, 2);
  qd_plot_get_axis_range (plot, 0, &y0, &y1);
  g_assert_cmpfloat (y0, <=, 0.0);
  g_assert_cmpfloat (y1, >=, 1.0);
  g_assert_cmpfloat (y1, <, 2.0);
  qd_plot_get_axis_range (plot, 1, &a0, &a1);
  g_assert_cmpfloat (a0, <=, 0.0);
  g_assert_cmpfloat (a1, >=, 100.0);
  g_assert_cmpfloat (a1, <, 120.0);

  /* A zoom in time: one time range for both; the other plot's values
   * stay as they were. */
  qd_plot_set_view (plot, 2.0, 4.0, 0.2, 0.4);
  qd_test_run_frames (50);
  qd_plot_get_view (plot, &x0, &x1, &y0, &y1);
  g_assert_cmpfloat (x0, ==, 2.0);
  g_assert_cmpfloat (x1, ==, 4.0);
  g_assert_cmpfloat (y0, ==, 0.2);
  {
    double b0, b1;

    qd_plot_get_axis_range (plot, 1, &b0, &b1);
    g_assert_cmpfloat (b0, ==, a0);
    g_assert_cmpfloat (b1, ==, a1);
  }
  g_assert_false (qd_plot_get_autoscale (plot));
  /* Home again: everything. */
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (plot), "plot.reset-view", NULL));
  g_assert_true (qd_plot_get_autoscale (plot));
  qd_plot_get_view (plot, &x0, &x1, NULL, NULL);
  g_assert_cmpfloat (x0, ==, 0.0);
  g_assert_cmpfloat (x1, ==, 10.0);

  /* Several y axes: two; XY: one. */
  g_object_set (plot, "layout", "axes", NULL);
  g_assert_cmpint (qd_plot_get_layout (plot), ==, QD_PLOT_LAYOUT_AXES);
  g_assert_cmpuint (qd_plot_get_n_axes (plot), ==, 2);
  qd_plot_set_xy (plot, 0, 1);
  g_assert_cmpuint (qd_plot_get_n_axes (plot), ==, 1);
  qd_plot_set_xy (plot, -1, -1);

  /* Both in one group: one axis, whatever the layout. */
  one_group = qd_plot_arrangement_parse ("subplots", "v, i", NULL, NULL, names, 2, NULL);
  qd_plot_set_arrangement (plot, one_group);
  g_assert_cmpint (qd_plot_get_layout (plot), ==, QD_PLOT_LAYOUT_SUBPLOTS);
  g_assert_cmpuint (qd_plot_get_n_axes (plot), ==, 1);
  qd_test_run_frames (50);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Chooses the item labelled @label of the menu a right click at (@x,
 * @y) would open, as a person would. */
static void
choose_menu_item (QdPlot     *plot,
                  double      x,
                  double      y,
                  const char *label)
{
  GMenuModel *model = qd_plot_menu_prepare (plot, x, y);
  g_autofree char *action = NULL;
  g_autoptr(GVariant) target = NULL;

  g_assert_true (qd_test_menu_find (model, label, FALSE, NULL, &action, &target));
  g_assert_true (gtk_widget_activate_action_variant (GTK_WIDGET (plot), action, target));
}

static void
on_break (QdPlot      *plot,
          QdBreakKind  kind,
          QdTrace     *trace,
          double       value,
          gpointer     data)
{
  QdTrace **out = data;

  if (kind == QD_BREAK_CROSSING)
    *out = trace;
}

/* One context menu on a plot: a single right-click gesture, whose menu
 * has the layouts, Reset Zoom, XY and the breakpoints; its layout items
 * switch the layout; in subplots, a breakpoint from a click in the lower
 * plot is about that plot's signal, at a value on its axis. */
static void
test_context_menu (void)
{
  g_autoptr(QdTrace) v = ramp_trace ("v", 1.0);
  g_autoptr(QdTrace) i = ramp_trace ("i", 100.0);
  static const char *const labels[] = {
    "_One Axis", "_Subplots", "Several _Y Axes", "_Reset Zoom",
    "_X Signal", "_Y Signal", "v", "i",
  };
  g_autoptr(GListModel) controllers = NULL;
  QdTrace *crossing = NULL;
  GtkWidget *window;
  QdPlot *plot;
  GMenuModel *model;
  guint n_secondary = 0;
  double width, height, lo, hi;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  window = show_plot (v, i, &plot);
  qd_plot_menu_set_break_func (plot, on_break, &crossing);
  width = gtk_widget_get_width (GTK_WIDGET (plot));
  height = gtk_widget_get_height (GTK_WIDGET (plot));

  controllers = gtk_widget_observe_controllers (GTK_WIDGET (plot));
  for (guint k = 0; k < g_list_model_get_n_items (controllers); k++)
    {
      g_autoptr(GObject) c = g_list_model_get_item (controllers, k);

      if (GTK_IS_GESTURE_CLICK (c)
          && gtk_gesture_single_get_button (GTK_GESTURE_SINGLE (c)) == GDK_BUTTON_SECONDARY)
        n_secondary++;
    }
  g_assert_cmpuint (n_secondary, ==, 1);

  model = qd_plot_menu_prepare (plot, width / 2, height / 2);
  for (guint k = 0; k < G_N_ELEMENTS (labels); k++)
    {
      g_test_message ("menu item %s", labels[k]);
      g_assert_true (qd_test_menu_has_label (model, labels[k]));
    }
  g_assert_true (qd_test_menu_find (model, "Break at t = ", TRUE, NULL, NULL, NULL));
  g_assert_true (qd_test_menu_find (model, "Break when ", TRUE, NULL, NULL, NULL));

  choose_menu_item (plot, width / 2, height / 2, "_Subplots");
  g_assert_cmpint (qd_plot_get_layout (plot), ==, QD_PLOT_LAYOUT_SUBPLOTS);
  qd_test_run_frames (50);
  g_assert_cmpuint (qd_plot_get_n_axes (plot), ==, 2);

  /* Three quarters down: the lower plot, i's (its axis 0 to 100+). */
  model = qd_plot_menu_prepare (plot, width / 2, 0.75 * height);
  g_assert_false (qd_test_menu_find (model, "Break when v crosses", TRUE, NULL, NULL, NULL));
  qd_plot_get_axis_range (plot, 1, &lo, &hi);
  {
    g_autofree char *label = NULL;
    double value;

    /* The value clicked on i's axis, three quarters of the way down the
     * whole plot: in the upper part of the lower plot, far above what
     * v's axis (0 to 1) would give. */
    g_assert_true (qd_test_menu_find (model, "Break when i crosses ", TRUE, &label, NULL, NULL));
    g_test_message ("%s (i's axis %g to %g)", label, lo, hi);
    value = g_ascii_strtod (label + strlen ("Break when i crosses "), NULL);
    g_assert_cmpfloat (value, >, lo + 0.3 * (hi - lo));
    g_assert_cmpfloat (value, <, hi);
    choose_menu_item (plot, width / 2, 0.75 * height, label);
    g_assert_true (crossing == i);
  }

  choose_menu_item (plot, width / 2, height / 2, "Several _Y Axes");
  g_assert_cmpint (qd_plot_get_layout (plot), ==, QD_PLOT_LAYOUT_AXES);
  choose_menu_item (plot, width / 2, height / 2, "_One Axis");
  g_assert_cmpint (qd_plot_get_layout (plot), ==, QD_PLOT_LAYOUT_SINGLE);
  qd_plot_set_view (plot, 2.0, 4.0, 0.2, 0.4);
  g_assert_false (qd_plot_get_autoscale (plot));
  choose_menu_item (plot, width / 2, height / 2, "_Reset Zoom");
  g_assert_true (qd_plot_get_autoscale (plot));

  /* XY: no layouts (one pair of axes), and back to time. */
  choose_menu_item (plot, width / 2, height / 2, "i");
  model = qd_plot_menu_prepare (plot, width / 2, height / 2);
  g_assert_false (qd_test_menu_has_label (model, "_Subplots"));
  g_assert_true (qd_test_menu_has_label (model, "_Reset Zoom"));
  choose_menu_item (plot, width / 2, height / 2, "_Time Plot");
  model = qd_plot_menu_prepare (plot, width / 2, height / 2);
  g_assert_true (qd_test_menu_has_label (model, "_Subplots"));

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
on_finished (QdRunSession  *session,
             QdRunnerState  state,
             const GError  *error,
             gpointer       data)
{
  *(gboolean *) data = TRUE;
}

/* A run's plot takes the Scope's layout; a layout chosen on the plot
 * goes back into the Scope (undoably), and the default leaves the
 * file. */
static void
test_session_layout (void)
{
  g_autofree char *path = NULL;
  g_autoptr(QdDocument) document = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *original = NULL;
  GtkWidget *window, *notebook, *messages;
  QdRunSession *session;
  QdBlock *scope;
  QdPlot *plot;
  gboolean finished = FALSE;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  path = qd_test_source_path ("data", "examples", "lotka-volterra.qdevs", NULL);
  document = qd_document_load (path, &error);
  g_assert_no_error (error);
  original = qd_document_to_data (document, NULL);
  scope = qd_document_find_block_by_path (document, "/Scope");
  g_assert_nonnull (scope);
  g_assert_true (qd_document_set_param (document, scope, "layout", "subplots", &error));
  g_assert_true (qd_document_set_param (document, scope, "labels", "prey [1/km²]", &error));

  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 800, 500);
  notebook = gtk_notebook_new ();
  messages = qd_messages_view_new ();
  gtk_window_set_child (GTK_WINDOW (window), notebook);
  gtk_window_present (GTK_WINDOW (window));
  session = qd_run_session_new (GTK_NOTEBOOK (notebook), QD_MESSAGES_VIEW (messages), NULL);
  g_object_ref_sink (messages);
  qd_run_session_set_document (session, document);
  g_signal_connect (session, "finished", G_CALLBACK (on_finished), &finished);
  g_assert_true (qd_run_session_run (session));
  while (!finished)
    g_main_context_iteration (NULL, TRUE);

  plot = qd_run_session_find_plot (session, "/Scope");
  g_assert_nonnull (plot);
  g_assert_cmpint (qd_plot_get_layout (plot), ==, QD_PLOT_LAYOUT_SUBPLOTS);
  g_assert_cmpuint (qd_plot_get_n_axes (plot), ==, 2);
  /* Reading the layout did not edit the diagram. */
  g_assert_cmpstr (qd_block_get_param (scope, "layout"), ==, "subplots");

  /* Edited in the Scope (the inspector does this): the plot follows at
   * once, and back on Undo. */
  g_assert_true (qd_document_set_param (document, scope, "groups", "1, 2", &error));
  g_assert_cmpuint (qd_plot_get_n_axes (plot), ==, 1);
  g_assert_true (qd_document_undo (document));
  g_assert_cmpuint (qd_plot_get_n_axes (plot), ==, 2);
  g_assert_true (qd_document_set_param (document, scope, "layout", "axes", &error));
  g_assert_cmpint (qd_plot_get_layout (plot), ==, QD_PLOT_LAYOUT_AXES);
  g_assert_true (qd_document_undo (document));
  g_assert_cmpint (qd_plot_get_layout (plot), ==, QD_PLOT_LAYOUT_SUBPLOTS);

  /* Chosen on the plot: into the Scope, undoably. */
  g_object_set (plot, "layout", "axes", NULL);
  g_assert_cmpstr (qd_block_get_param (scope, "layout"), ==, "axes");
  g_assert_true (qd_document_undo (document));
  g_assert_cmpstr (qd_block_get_param (scope, "layout"), ==, "subplots");
  g_assert_cmpint (qd_plot_get_layout (plot), ==, QD_PLOT_LAYOUT_SUBPLOTS);
  /* The default leaves the file as it was. */
  g_assert_true (qd_document_set_param (document, scope, "labels", NULL, &error));
  g_object_set (plot, "layout", "single", NULL);
  g_assert_null (qd_block_get_param (scope, "layout"));
  {
    g_autofree char *text = qd_document_to_data (document, NULL);

    g_assert_cmpstr (text, ==, original);
  }

  g_signal_handlers_disconnect_by_data (session, &finished);
  qd_run_session_set_document (session, NULL);
  g_object_unref (session);
  g_object_unref (messages);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();
  have_display = gtk_init_check ();

  g_test_add_func ("/plot-subplots/widget-axes", test_widget_axes);
  g_test_add_func ("/plot-subplots/session-layout", test_session_layout);
  g_test_add_func ("/plot-subplots/context-menu", test_context_menu);
  return g_test_run ();
}

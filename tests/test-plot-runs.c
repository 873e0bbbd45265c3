/* test-plot-runs.c: earlier runs, XY and breakpoints in the editor's plots
 *
 * Runs real diagrams in a real window (under xvfb-run; skipped without a
 * display) and checks what the plots say about them: each earlier run in
 * a colour of its own with a legend row that says what was different in
 * it, toggled per run, decimated and dropped runs said in the legend; XY
 * of any two signals of any Scopes with the exact polynomials' points;
 * the methods of a comparison overlaid in the window's Scopes; and
 * breakpoints made from a click on a plot, which stop at the analytic
 * crossing time.
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qd-application.h"
#include "qd-compare-dialog.h"
#include "qd-debugger.h"
#include "qd-plot-menu.h"
#include "qd-plot-render.h"
#include "qd-plot-subplots.h"
#include "qd-run-bar.h"
#include "qd-run-notes.h"
#include "qd-run-session.h"
#include "qd-test-gui.h"
#include "qd-test-gtk-util.h"
#include "qd-test-util.h"
#include "qd-window.h"

static QdApplication *app;

typedef struct
{
  QdWindow     *window;
  QdRunBar     *bar;
  QdRunSession *session;
  QdDocument   *document;
  guint         n_finished;
} Fixture;

static void
on_finished (QdRunSession  *session,
             QdRunnerState  state,
             const GError  *error,
             Fixture       *f)
{
  g_assert_cmpint (state, ==, QD_RUNNER_FINISHED);
  f->n_finished++;
}

static void
fixture_setup (Fixture    *f,
               const char *example)
{
  g_autofree char *path = qd_test_source_path ("data", "examples", example, NULL);
  g_autoptr(GError) error = NULL;

  memset (f, 0, sizeof *f);
  f->document = qd_document_load (path, &error);
  g_assert_no_error (error);
  f->window = qd_window_new (GTK_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1000, 700);
  gtk_window_present (GTK_WINDOW (f->window));
  qd_window_set_document (f->window, f->document, NULL);
  f->bar = QD_RUN_BAR (gtk_widget_get_template_child (GTK_WIDGET (f->window),
                                                      QD_TYPE_WINDOW, "run_bar"));
  f->session = qd_run_bar_get_session (f->bar);
  g_signal_connect (f->session, "finished", G_CALLBACK (on_finished), f);
}

static void
fixture_teardown (Fixture *f)
{
  g_signal_handlers_disconnect_by_data (f->session, f);
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_clear_object (&f->document);
}

static gboolean
is_finished (gpointer data)
{
  return ((Fixture *) data)->n_finished > 0;
}

/* Runs the diagram to its end, failing after 60 s. */
static void
run_to_end (Fixture *f)
{
  f->n_finished = 0;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->bar), "run.start", NULL));
  g_assert_true (qd_test_iterate_until (is_finished, f, 60));
}

/* Lets the plot draw what it has (a few frames of its clock). */
static gboolean
count_down (GtkWidget     *widget,
            GdkFrameClock *clock,
            gpointer       data)
{
  return --*(guint *) data > 0 ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

static void
wait_frames (GtkWidget *widget,
             guint      n)
{
  gtk_widget_add_tick_callback (widget, count_down, &n, NULL);
  while (n > 0)
    g_main_context_iteration (NULL, TRUE);
}

static void
save_shot (QdPlot     *plot,
           const char *name)
{
  const char *dir = g_getenv ("QD_TEST_SHOTS");
  g_autofree char *path = NULL;
  g_autoptr(GError) error = NULL;

  /* Pictures to look at, when asked for. */
  if (dir == NULL)
    return;
  path = g_build_filename (dir, name, NULL);
  g_assert_true (qd_plot_export (plot, path, QD_IMAGE_FORMAT_PNG, 760, 380, &error));
}

static gboolean
same_color (const GdkRGBA *a,
            const GdkRGBA *b)
{
  return gdk_rgba_equal (a, b);
}

/* Three runs of Lotka–Volterra with the prey's growth eps = 0.1, 0.2,
 * 0.3: runs 1 and 2 are earlier runs in colours of their own, their
 * legend rows say their eps, and a row toggles its run. */
static void
test_run_colours_and_legend (void)
{
  Fixture f;
  QdPlot *plot;
  GdkRGBA c0, c1;
  g_autoptr(GError) error = NULL;
  const char *eps[] = { "0.1", "0.2", "0.3" };

  fixture_setup (&f, "lotka-volterra.qdevs");
  for (guint run = 0; run < 3; run++)
    {
      g_assert_true (qd_document_set_variable (f.document, "eps", eps[run], &error));
      g_assert_no_error (error);
      run_to_end (&f);
    }
  plot = qd_run_session_get_plot (f.session, 0);
  g_assert_cmpuint (qd_plot_get_n_runs (plot), ==, 2);
  qd_plot_get_run_color (plot, 0, &c0);
  qd_plot_get_run_color (plot, 1, &c1);
  g_assert_false (same_color (&c0, &c1));
  {
    g_autofree char *l0 = qd_plot_dup_run_legend (plot, 0);
    g_autofree char *l1 = qd_plot_dup_run_legend (plot, 1);

    g_assert_cmpstr (l0, ==, "Run 1 · eps = 0.1");
    g_assert_cmpstr (l1, ==, "Run 2 · eps = 0.2");
  }
  /* Each earlier run keeps both its traces, neither in a current
   * trace's colour. */
  g_assert_cmpuint (qd_plot_get_n_earlier_traces (plot), ==, 4);

  /* Toggling a run hides its curves. */
  g_assert_true (qd_plot_get_run_visible (plot, 0));
  qd_plot_set_run_visible (plot, 0, FALSE);
  g_assert_false (qd_plot_get_run_visible (plot, 0));
  qd_plot_set_run_visible (plot, 0, TRUE);
  wait_frames (GTK_WIDGET (plot), 3);
  save_shot (plot, "runs-legend.png");
  /* The earlier runs' phase curves under the current one. */
  qd_plot_set_xy_traces (plot, qd_plot_get_trace (plot, 0), "prey",
                         qd_plot_get_trace (plot, 1), "predator");
  wait_frames (GTK_WIDGET (plot), 3);
  save_shot (plot, "runs-xy.png");
  fixture_teardown (&f);
}

/* The trace memory's decisions in the legend: with 2 MiB, the third
 * run of a long Lotka–Volterra decimates run 2 and drops run 1. */
static void
test_decimated_and_dropped (void)
{
  g_autoptr(GSettings) settings = g_settings_new (QD_APPLICATION_ID);
  Fixture f;
  QdPlot *plot;
  g_autofree char *legend = NULL;

  g_assert_true (g_settings_set_uint (settings, "trace-memory-budget", 2));
  fixture_setup (&f, "lotka-volterra.qdevs");
  qd_test_set_final_time (f.document, 100000);
  for (guint run = 0; run < 3; run++)
    run_to_end (&f);
  plot = qd_run_session_get_plot (f.session, 0);
  g_assert_cmpuint (qd_plot_get_n_runs (plot), ==, 1);
  g_assert_cmpuint (qd_plot_get_n_dropped_runs (plot), ==, 1);
  legend = qd_plot_dup_run_legend (plot, 0);
  /* Nothing changed between the runs: no note. */
  g_assert_cmpstr (legend, ==, "Run 2 (decimated)");
  g_settings_reset (settings, "trace-memory-budget");
  fixture_teardown (&f);
}

typedef struct
{
  QdTrace *x, *y;
  guint    n_points;
  guint    n_events;
  double   max_error;
  double   t_last;
  gboolean ordered;
} XyCheck;

static void
check_xy_point (double   t,
                double   x,
                double   y,
                gboolean event,
                gpointer data)
{
  XyCheck *c = data;

  /* Each point is both polynomials at its time, to the last bit. */
  c->max_error = MAX (c->max_error, fabs (x - qd_trace_eval (c->x, t)));
  c->max_error = MAX (c->max_error, fabs (y - qd_trace_eval (c->y, t)));
  if (t < c->t_last)
    c->ordered = FALSE;
  c->t_last = t;
  c->n_points++;
  c->n_events += event;
}

/* XY from the plot's menu: predator against prey of Lotka–Volterra, the
 * curve through points that are the polynomials' exact values, sampled
 * finely between events; it holds for the next run's traces, and "Time
 * Plot" goes back. */
static void
test_xy_from_menu (void)
{
  Fixture f;
  QdPlot *plot;
  GMenuModel *model;
  QdTrace *tx = NULL, *ty = NULL;
  XyCheck check = { 0 };
  QdSettings settings;

  fixture_setup (&f, "lotka-volterra.qdevs");
  /* QSS3: parabolas, which the curve samples between events. */
  settings = *qd_document_get_settings (f.document);
  settings.method = (char *) "QSS3";
  g_assert_true (qd_document_set_settings (f.document, &settings, NULL));
  run_to_end (&f);
  plot = qd_run_session_get_plot (f.session, 0);
  wait_frames (GTK_WIDGET (plot), 3);
  model = qd_plot_menu_prepare (plot, 200, 100);
  g_assert_true (qd_test_menu_has_label (model, "_X Signal"));
  g_assert_true (qd_test_menu_has_label (model, "prey"));
  g_assert_true (qd_test_menu_has_label (model, "predator"));
  g_assert_false (qd_test_menu_has_label (model, "_Time Plot"));
  /* X: prey (the first); Y becomes the other signal. */
  g_assert_true (qd_plot_menu_activate (plot, "xy-x", g_variant_new_int32 (0)));
  g_assert_true (qd_plot_get_xy_traces (plot, &tx, &ty));
  g_assert_true (tx == qd_plot_get_trace (plot, 0));
  g_assert_true (ty == qd_plot_get_trace (plot, 1));
  wait_frames (GTK_WIDGET (plot), 3);

  check.x = tx;
  check.y = ty;
  check.ordered = TRUE;
  check.t_last = -INFINITY;
  qd_plot_foreach_xy_point (plot, check_xy_point, &check);
  g_test_message ("%u points, %u at events, largest difference %g",
                  check.n_points, check.n_events, check.max_error);
  g_assert_true (check.ordered);
  g_assert_cmpfloat (check.max_error, ==, 0.0);
  /* Every event of either trace, and more points between them: at
   * least one more per event on a curve a few hundred pixels long. */
  g_assert_cmpuint (check.n_events, >=, qd_trace_get_length (tx));
  g_assert_cmpuint (check.n_points, >, 2 * check.n_events);
  save_shot (plot, "xy-lotka-volterra.png");

  /* The next run: the same XY, of its traces. */
  run_to_end (&f);
  g_assert_true (qd_plot_get_xy_traces (plot, &tx, &ty));
  g_assert_true (tx == qd_plot_get_trace (plot, 0));
  g_assert_true (ty == qd_plot_get_trace (plot, 1));

  model = qd_plot_menu_prepare (plot, 200, 100);
  g_assert_true (qd_test_menu_has_label (model, "_Time Plot"));
  g_assert_true (qd_plot_menu_activate (plot, "time", NULL));
  g_assert_false (qd_plot_get_xy_traces (plot, &tx, &ty));
  fixture_teardown (&f);
}

/* "Break at…" on the run bar adds a time breakpoint to the diagram; a
 * text that is no time says so. */
static void
test_run_bar_break (void)
{
  Fixture f;
  g_autoptr(GError) error = NULL;
  GPtrArray *bps;

  fixture_setup (&f, "lotka-volterra.qdevs");
  g_assert_false (qd_run_bar_break_at (f.bar, "soon", &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==, "“soon” is not a time: type a number such as 12.5");
  g_assert_cmpuint (qd_document_get_breakpoints (f.document)->len, ==, 0);
  g_assert_true (qd_run_bar_break_at (f.bar, "12.5", NULL));
  bps = qd_document_get_breakpoints (f.document);
  g_assert_cmpuint (bps->len, ==, 1);
  g_assert_cmpint (((QdBreakpoint *) g_ptr_array_index (bps, 0))->kind, ==, QD_BREAK_TIME);
  g_assert_cmpfloat (((QdBreakpoint *) g_ptr_array_index (bps, 0))->value, ==, 12.5);
  fixture_teardown (&f);
}

static void
on_compare_finished (QdCompareDialog *dialog,
                     gboolean        *done)
{
  *done = TRUE;
}

/* Compare Methods… (main menu) overlays its methods in the window's Scope: one
 * run per method and the reference, each named after its method in the
 * legend, each in a colour of its own; a second comparison replaces the
 * first, and a run of the window goes on top of them. */
static void
test_compare_overlay (void)
{
  const char *methods[] = { "QSS2", "QSS3", "euler:h=0.25", NULL };
  Fixture f;
  QdCompareDialog *dialog = NULL;
  GList *toplevels;
  gboolean done = FALSE;
  QdPlot *plot;

  fixture_setup (&f, "lotka-volterra.qdevs");
  qd_test_set_final_time (f.document, 100);
  g_assert_cmpuint (qd_run_session_get_n_plots (f.session), ==, 0);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f.window), "win.compare-methods", NULL));
  toplevels = gtk_window_list_toplevels ();
  for (GList *l = toplevels; l != NULL; l = l->next)
    if (QD_IS_COMPARE_DIALOG (l->data))
      dialog = l->data;
  g_list_free (toplevels);
  g_assert_nonnull (dialog);
  g_assert_true (qd_compare_dialog_set_methods (dialog, methods));
  g_signal_connect (dialog, "finished", G_CALLBACK (on_compare_finished), &done);
  qd_compare_dialog_run (dialog);
  g_assert_true (qd_test_iterate_until (qd_test_is_true, &done, 120));

  /* No run of the window yet: the Scope got its plot for the overlay. */
  g_assert_cmpuint (qd_run_session_get_n_plots (f.session), ==, 1);
  plot = qd_run_session_get_plot (f.session, 0);
  g_assert_cmpuint (qd_plot_get_n_runs (plot), ==, G_N_ELEMENTS (methods) - 1 + 1);
  {
    const char *expected[] = { "cvode-bdf (reference) · rtol=1e-10,atol=1e-12",
                               "QSS2", "QSS3", "euler · h=0.25" };

    for (guint i = 0; i < qd_plot_get_n_runs (plot); i++)
      {
        g_autofree char *legend = qd_plot_dup_run_legend (plot, i);
        GdkRGBA ci;

        g_assert_cmpstr (legend, ==, expected[i]);
        qd_plot_get_run_color (plot, i, &ci);
        for (guint j = 0; j < i; j++)
          {
            GdkRGBA cj;

            qd_plot_get_run_color (plot, j, &cj);
            g_assert_false (same_color (&ci, &cj));
          }
      }
  }
  /* Both signals of every method. */
  g_assert_cmpuint (qd_plot_get_n_earlier_traces (plot), ==, 2 * 4);

  /* The window's own run goes over them; they stay. */
  run_to_end (&f);
  g_assert_cmpuint (qd_plot_get_n_runs (plot), ==, 4);
  g_assert_cmpuint (qd_plot_get_n_traces (plot), ==, 2);
  wait_frames (GTK_WIDGET (plot), 3);
  save_shot (plot, "compare-overlay.png");

  /* Again: replaced, not added. */
  done = FALSE;
  qd_compare_dialog_run (dialog);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (qd_plot_get_n_runs (plot), ==, 4);
  gtk_window_destroy (GTK_WINDOW (dialog));
  fixture_teardown (&f);
}

static QdTrace *
constant_trace (const char *name,
                double      value)
{
  QdTrace *trace = qd_trace_new (name);
  QdSignal seg;

  qd_signal_set_constant (&seg, 0.0, value);
  qd_trace_append (trace, &seg);
  qd_trace_close (trace, 10.0);
  return trace;
}

/* The renderer's side: an earlier run's curve is dashed in its run's
 * (lighter) colour, the current one solid in its own; the legend has the
 * title, the current trace, one row for the run (not one per trace) and
 * the dropped note, and a click on the run's row hits the run. */
static void
test_render_runs (void)
{
  g_autoptr(QdTrace) now = constant_trace ("now", 1.0);
  g_autoptr(QdTrace) then = constant_trace ("then", 3.0);
  QdPlotColor blue = { 0.0, 0.0, 1.0, 1.0 };
  QdPlotSeries series[2] = {
    { then, "x (run 1)", blue, TRUE, TRUE, NULL, 0, 1 },
    { now, "x", blue, TRUE, FALSE, NULL, 0, 0 },
  };
  QdPlotRun run = { 1, NULL, (char *) "k = 2", { 0 }, TRUE, FALSE, NULL, 0 };
  QdPlotRenderOptions o;
  QdPlotLayout layout;
  cairo_surface_t *surface;
  cairo_t *cr;
  const guint8 *data;
  int stride, y_now, y_then, n_then_on = 0, n_then_off = 0, n_now_on = 0;
  const int w = 400, h = 200;

  qd_plot_run_palette_color (0, &run.color);
  series[0].color.red = run.color.red;
  series[0].color.green = run.color.green;
  series[0].color.blue = run.color.blue;
  qd_plot_render_options_init (&o);
  o.series = series;
  o.n_series = 2;
  o.x_min = 0.0;
  o.x_max = 10.0;
  o.y_min = 0.0;
  o.y_max = 4.0;
  o.runs = &run;
  o.n_runs = 1;
  o.n_dropped = 2;
  o.current_title = "Run 2 (current)";

  g_assert_true (qd_plot_render_get_layout (&o, w, h, &layout));
  g_assert_cmpuint (layout.n_legend_rows, ==, 4);
  g_assert_cmpuint (layout.legend_rows[0], ==, QD_PLOT_LEGEND_TITLE_ROW (&o));
  g_assert_cmpuint (layout.legend_rows[1], ==, 1);
  g_assert_cmpuint (layout.legend_rows[2], ==, o.n_series + 0);
  g_assert_cmpuint (layout.legend_rows[3], ==, QD_PLOT_LEGEND_DROPPED_ROW (&o));
  {
    g_autofree char *text = qd_plot_run_legend_text (&run);
    g_autofree char *dropped = qd_plot_run_dropped_text (2);

    g_assert_cmpstr (text, ==, "Run 1 · k = 2");
    g_assert_cmpstr (dropped, ==, "2 earlier runs dropped (trace memory)");
    run.decimated = TRUE;
    g_free (text);
    text = qd_plot_run_legend_text (&run);
    g_assert_cmpstr (text, ==, "Run 1 (decimated) · k = 2");
    run.decimated = FALSE;
  }
  /* The middle of the run's row. */
  g_assert_cmpint (qd_plot_render_legend_hit (&o, w, h, layout.legend.x + 30,
                                              layout.legend.y + 6.0 + 17.0 * 2.5),
                   ==, (int) o.n_series + 0);

  /* The curves alone. */
  o.draw_axes = o.draw_grid = o.draw_legend = FALSE;
  o.line_width = 2.0;
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, w, h);
  cr = cairo_create (surface);
  qd_plot_render (cr, &o, w, h);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  /* The rows inside each 2-pixel line (at y = 150 and 50). */
  y_now = (int) (h - 1.0 / 4.0 * h) - 1;
  y_then = (int) (h - 3.0 / 4.0 * h) - 1;
  for (int x = 10; x < w - 10; x++)
    {
      guint32 p_now = *(const guint32 *) (data + y_now * stride + 4 * x) & 0xffffff;
      guint32 p_then = *(const guint32 *) (data + y_then * stride + 4 * x) & 0xffffff;

      n_now_on += p_now == 0x0000ff;
      if (p_then == 0xffffff)
        n_then_off++;
      else
        {
          /* Lighter than the run's colour, not the current trace's blue. */
          g_assert_cmpuint (p_then & 0xff, !=, 0xff);
          n_then_on++;
        }
    }
  cairo_surface_destroy (surface);
  g_test_message ("current: %d of %d pixels; earlier: %d on, %d off",
                  n_now_on, w - 20, n_then_on, n_then_off);
  g_assert_cmpint (n_now_on, ==, w - 20);
  /* Dashed: both dashes and gaps, mostly dashes. */
  g_assert_cmpint (n_then_off, >, 20);
  g_assert_cmpint (n_then_on, >, n_then_off);
}

/* Subplots with an earlier run: each plot's legend lists its own
 * current traces, the run's row is in the highest plot's only, and a
 * click on it there hits the run (its index past all the series). */
static void
test_subplots_run_rows (void)
{
  g_autoptr(QdTrace) v_then = constant_trace ("v", 3.0);
  g_autoptr(QdTrace) i_then = constant_trace ("i", 30.0);
  g_autoptr(QdTrace) v_now = constant_trace ("v", 1.0);
  g_autoptr(QdTrace) i_now = constant_trace ("i", 10.0);
  QdPlotColor blue = { 0.0, 0.0, 1.0, 1.0 };
  QdPlotSeries series[4] = {
    { v_then, "v", blue, TRUE, TRUE, NULL, 1, 0 },
    { i_then, "i", blue, TRUE, TRUE, NULL, 1, 1 },
    { v_now, "v", blue, TRUE, FALSE, NULL, 0, 0 },
    { i_now, "i", blue, TRUE, FALSE, NULL, 0, 0 },
  };
  const guint series_axis[4] = { 0, 1, 0, 1 };
  const double ranges[4] = { 0.0, 4.0, 0.0, 40.0 };
  const char *labels[2] = { "v [V]", "i [A]" };
  QdPlotRun run = { 1, NULL, (char *) "k = 2", { 0 }, TRUE, FALSE, NULL, 0 };
  QdPlotAxes axes = { 0 };
  QdPlotRenderOptions o;
  QdPlotRect areas[QD_PLOT_MAX_PANELS];
  const int w = 500, h = 400;
  guint n_run_hits[2] = { 0, 0 }, n_i_hits = 0;

  qd_plot_run_palette_color (0, &run.color);
  qd_plot_render_options_init (&o);
  o.series = series;
  o.n_series = 4;
  o.x_min = 0.0;
  o.x_max = 10.0;
  o.y_min = 0.0;
  o.y_max = 4.0;
  o.runs = &run;
  o.n_runs = 1;
  axes.kind = QD_PLOT_LAYOUT_SUBPLOTS;
  axes.n_axes = 2;
  axes.series_axis = series_axis;
  axes.axis_labels = labels;
  axes.y_ranges = ranges;
  o.axes = &axes;

  g_assert_true (qd_plot_subplots_is_stacked (&o));
  g_assert_cmpuint (qd_plot_subplots_get_areas (&o, w, h, areas), ==, 2);
  for (int y = 0; y < h; y += 2)
    for (int x = 0; x < w; x += 4)
      {
        int hit = qd_plot_render_legend_hit (&o, w, h, x, y);

        /* Only the current traces' rows and the run's. */
        g_assert_true (hit < 0 || hit == 2 || hit == 3 || hit == (int) o.n_series);
        if (hit == (int) o.n_series)
          n_run_hits[y < areas[1].y ? 0 : 1]++;
        if (hit == 3)
          {
            /* The current i's row is in the lower plot. */
            g_assert_cmpfloat (y, >=, areas[1].y);
            n_i_hits++;
          }
      }
  g_test_message ("run row: %u points in the upper plot, %u in the lower",
                  n_run_hits[0], n_run_hits[1]);
  g_assert_cmpuint (n_run_hits[0], >, 0);
  g_assert_cmpuint (n_run_hits[1], ==, 0);
  g_assert_cmpuint (n_i_hits, >, 0);
}

/* What differs between runs, and only that. */
static void
test_run_notes (void)
{
  g_autofree char *path = qd_test_source_path ("data", "examples", "lotka-volterra.qdevs", NULL);
  g_autoptr(QdDocument) doc = qd_document_load (path, NULL);
  g_autoptr(QdRunNotes) notes = qd_run_notes_new ();
  QdSettings settings = *qd_document_get_settings (doc);
  g_autofree char *n1 = NULL, *n2 = NULL, *n3 = NULL, *n4 = NULL;

  g_assert_cmpuint (qd_run_notes_add (notes, doc), ==, 1);
  g_assert_null (qd_run_notes_describe (notes, 1));
  g_assert_true (qd_document_set_variable (doc, "beta", "0.2", NULL));
  settings.method = (char *) "QSS3";
  g_assert_true (qd_document_set_settings (doc, &settings, NULL));
  g_assert_cmpuint (qd_run_notes_add (notes, doc), ==, 2);
  qd_test_set_param (doc, qd_document_find_block_by_path (doc, "/Predator rate"),
                     "weights", "-m, 2*beta");
  g_assert_cmpuint (qd_run_notes_add (notes, doc), ==, 3);
  n1 = qd_run_notes_describe (notes, 1);
  n2 = qd_run_notes_describe (notes, 2);
  n3 = qd_run_notes_describe (notes, 3);
  g_assert_cmpstr (n1, ==, "beta = 0.1, method = QSS2, Predator rate.weights = -m, beta");
  g_assert_cmpstr (n2, ==, "beta = 0.2, method = QSS3, Predator rate.weights = -m, beta");
  g_assert_cmpstr (n3, ==, "beta = 0.2, method = QSS3, Predator rate.weights = -m, 2*beta");
  /* Cleared: only the last is remembered, the numbers go on. */
  qd_run_notes_forget_earlier (notes);
  g_assert_null (qd_run_notes_describe (notes, 2));
  g_assert_cmpuint (qd_run_notes_add (notes, doc), ==, 4);
  n4 = qd_run_notes_describe (notes, 4);
  g_assert_null (n4);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;

  if (!qd_test_gtk_init (&argc, &argv, TRUE))
    return 0;
  app = qd_application_new (G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  g_test_add_func ("/plot-runs/colours-and-legend", test_run_colours_and_legend);
  g_test_add_func ("/plot-runs/decimated-and-dropped", test_decimated_and_dropped);
  g_test_add_func ("/plot-runs/run-notes", test_run_notes);
  g_test_add_func ("/plot-runs/render-runs", test_render_runs);
  g_test_add_func ("/plot-runs/subplots-run-rows", test_subplots_run_rows);
  g_test_add_func ("/plot-runs/xy-from-menu", test_xy_from_menu);
  g_test_add_func ("/plot-runs/run-bar-break", test_run_bar_break);
  g_test_add_func ("/plot-runs/compare-overlay", test_compare_overlay);
  return g_test_run ();
}

/* test-run-view.c: what a run shows in the editor
 *
 * Runs diagrams in a real window (under the display the CI provides with
 * xvfb-run; without one the test is skipped) and checks what the window
 * shows of them against a headless run: the statistics table and the
 * integrators' badges, the block tooltips, what blocks report
 * themselves, the Transitions page, a Display's value, the solver's
 * statistics under a classic method; and how often a live plot redraws
 * while a run goes on, and what the window costs the run.
 */
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "qd-test-gtk-util.h"
#include "qd-test-run-ui.h"
#include "qd-test-util.h"

typedef QdTestRunFixture Fixture;

static gboolean
ends_at_120 (double x0,
             double x1)
{
  return x1 == 120.0;
}

/* A Display shows the value of its input on the canvas, next to the
 * integrators' badges: at the end, the value at the final time of the
 * trace a headless run of the same model ends with. */
static void
test_display_value (void)
{
  Fixture f;
  QdCanvas *canvas;
  QdSimulation *ref;
  QdBlock *display;
  GHashTable *badges;
  QdTrace *trace;
  g_autofree char *expected = NULL;

  qd_test_run_fixture_setup (&f, qd_test_load_example ("delay-logistic.qdevs"));
  canvas = QD_CANVAS (gtk_widget_get_template_child (GTK_WIDGET (f.window),
                                                     QD_TYPE_WINDOW, "canvas"));
  qd_test_run_activate (&f, "run.start");
  qd_test_run_wait_until (qd_test_run_is_finished, &f);

  ref = qd_test_run_headless (f.document);
  trace = qd_test_find_trace (ref, "/Display/value");
  /* The last segment at the final time, where the run ended. */
  expected = g_strdup_printf ("%.6g", qd_signal_eval (qd_trace_get (trace, qd_trace_get_length (trace) - 1),
                                                      qd_simulation_get_final_time (ref)));
  display = qd_document_find_block_by_path (f.document, "/Display");
  badges = qd_canvas_get_block_badges (canvas);
  g_assert_nonnull (badges);
  g_assert_cmpstr (g_hash_table_lookup (badges, display->id), ==, expected);
  /* The integrator keeps its step count. */
  g_assert_nonnull (g_hash_table_lookup (badges, qd_document_find_block_by_path (f.document, "/y")->id));
  qd_simulation_free (ref);

  qd_test_run_fixture_teardown (&f);
}

static void
test_stats_and_badges (void)
{
  Fixture f;
  QdStatsView *stats;
  QdSimulation *ref;
  GListModel *sorted;
  g_autoptr(GHashTable) badges = NULL;
  guint n;
  guint64 max_internal = 0;

  qd_test_run_fixture_setup (&f, qd_test_load_example ("lotka-volterra.qdevs"));
  stats = qd_run_session_get_stats_view (f.session);
  g_assert_cmpuint (qd_stats_view_get_n_rows (stats), ==, 0);

  qd_test_run_activate (&f, "run.start");
  qd_test_run_wait_until (qd_test_run_is_finished, &f);

  /* Every row equals the counts of a headless run of the same model. */
  ref = qd_test_run_headless (f.document);
  n = qd_simulation_get_n_atomics (ref);
  g_assert_cmpuint (qd_stats_view_get_n_rows (stats), ==, n);
  for (guint i = 0; i < n; i++)
    {
      const QdAtomic *atomic = qd_simulation_get_atomic (ref, i);
      const char *path, *type_name;
      guint64 internal, external, ref_internal, ref_external;

      qd_stats_view_get_row (stats, i, &path, &type_name, &internal, &external);
      qd_simulation_get_block_stats (ref, i, &ref_internal, &ref_external);
      g_assert_cmpstr (path, ==, atomic->path);
      g_assert_cmpstr (type_name, ==, _(atomic->type->name));
      g_assert_cmpuint (internal, ==, ref_internal);
      g_assert_cmpuint (external, ==, ref_external);
      max_internal = MAX (max_internal, internal);
    }
  g_assert_cmpuint (max_internal, >, 100);

  /* Sorting by internal transitions, descending, puts the busiest first. */
  qd_stats_view_sort (stats, 2, GTK_SORT_DESCENDING);
  sorted = qd_stats_view_get_sorted_model (stats);
  g_assert_cmpuint (g_list_model_get_n_items (sorted), ==, n);
  {
    g_autoptr(GObject) first = g_list_model_get_item (sorted, 0);
    g_autoptr(GObject) last = g_list_model_get_item (sorted, n - 1);
    guint64 a = 0, b = 0;

    g_object_get (first, "internal", &a, NULL);
    g_object_get (last, "internal", &b, NULL);
    g_assert_cmpuint (a, ==, max_internal);
    g_assert_cmpuint (a, >=, b);
  }

  /* The badges: the two integrators (b5 Prey, b6 Predator), nothing else. */
  badges = qd_stats_view_dup_badges (stats, f.document);
  g_assert_cmpuint (g_hash_table_size (badges), ==, 2);
  for (guint i = 0; i < n; i++)
    {
      const QdAtomic *atomic = qd_simulation_get_atomic (ref, i);
      QdBlock *block = qd_document_find_block_by_path (f.document, atomic->path);
      guint64 internal;

      qd_simulation_get_block_stats (ref, i, &internal, NULL);
      if (g_strcmp0 (atomic->path, "/Prey") == 0 || g_strcmp0 (atomic->path, "/Predator") == 0)
        {
          g_autofree char *expected = g_strdup_printf ("%" G_GUINT64_FORMAT, internal);

          g_assert_cmpstr (g_hash_table_lookup (badges, block->id), ==, expected);
        }
      else
        g_assert_false (g_hash_table_contains (badges, block->id));
    }
  qd_simulation_free (ref);

  qd_test_run_fixture_teardown (&f);
}

/* The tooltip of the block at @path, as text. */
static char *
dup_block_tooltip (Fixture    *f,
                   const char *path)
{
  QdCanvas *canvas = QD_CANVAS (gtk_widget_get_template_child (GTK_WIDGET (f->window),
                                                               QD_TYPE_WINDOW, "canvas"));
  QdBlock *block = qd_document_find_block_by_path (qd_window_get_document (f->window), path);
  GtkWidget *label;
  double x, y;
  char *text;

  g_assert_nonnull (block);
  qd_canvas_canvas_to_widget (canvas, block->x + block->width / 2,
                              block->y + block->height / 2, &x, &y);
  label = qd_canvas_create_tooltip (canvas, x, y);
  g_assert_nonnull (label);
  g_object_ref_sink (label);
  text = g_strdup (gtk_label_get_text (GTK_LABEL (label)));
  g_object_unref (label);
  return text;
}

/* What blocks report themselves (a Queue's mean length, a Server's
 * utilisation, a Statistics sink's mean) shows in the Statistics page,
 * each block's on its row as qdevs-cli --stats prints it, and in the
 * block's tooltip; a new run takes it away until it has its own. */
static void
test_reported_stats (void)
{
  Fixture f;
  QdStatsView *stats;
  QdSimulation *ref;
  GPtrArray *ref_stats;
  g_autofree char *before = NULL;
  guint n, n_reporting = 0;

  qd_test_run_fixture_setup (&f, qd_test_load_example ("queue-server.qdevs"));
  stats = qd_run_session_get_stats_view (f.session);
  before = dup_block_tooltip (&f, "/Server");
  g_assert_null (strstr (before, "Last run"));
  g_assert_null (strstr (before, "utilisation = "));

  qd_test_run_activate (&f, "run.start");
  qd_test_run_wait_until (qd_test_run_is_finished, &f);

  ref = qd_test_run_headless (f.document);
  ref_stats = qd_simulation_get_stats (ref);
  n = qd_simulation_get_n_atomics (ref);
  g_assert_cmpuint (qd_stats_view_get_n_rows (stats), ==, n);
  for (guint i = 0; i < n; i++)
    {
      const QdAtomic *atomic = qd_simulation_get_atomic (ref, i);
      g_autoptr(GString) expected = g_string_new (NULL);

      for (guint k = 0; k < ref_stats->len; k++)
        {
          const QdStat *stat = g_ptr_array_index (ref_stats, k);

          if (strcmp (stat->path, atomic->path) != 0)
            continue;
          if (expected->len > 0)
            g_string_append_c (expected, '\n');
          g_string_append_printf (expected, "%s = %.10g", stat->name, stat->value);
        }
      g_assert_cmpstr (qd_stats_view_get_reported (stats, i), ==, expected->str);
      if (expected->len > 0)
        n_reporting++;
    }
  /* Queue, Server and the Statistics sink at least. */
  g_assert_cmpuint (n_reporting, >=, 3);

  for (guint i = 0; i < n; i++)
    {
      const char *path, *doc, *reported = qd_stats_view_get_reported (stats, i);
      g_autofree char *tooltip = NULL;

      qd_stats_view_get_row (stats, i, &path, NULL, NULL, NULL);
      tooltip = dup_block_tooltip (&f, path);
      /* Added to what the tooltip says before a run, not instead. */
      doc = qd_simulation_get_atomic (ref, i)->type->doc;
      g_assert_nonnull (doc);
      g_assert_nonnull (strstr (tooltip, _(doc)));
      if (reported[0] != '\0')
        {
          g_assert_nonnull (strstr (tooltip, "Last run"));
          g_assert_nonnull (strstr (tooltip, reported));
        }
      else
        g_assert_null (strstr (tooltip, "Last run"));
    }
  {
    g_autofree char *queue = dup_block_tooltip (&f, "/Queue");
    g_autofree char *server = dup_block_tooltip (&f, "/Server");
    g_autofree char *sink = dup_block_tooltip (&f, "/Statistics");

    g_assert_nonnull (strstr (queue, "mean_length = "));
    g_assert_nonnull (strstr (server, "utilisation = "));
    g_assert_nonnull (strstr (sink, "mean = "));
  }
  qd_simulation_free (ref);

  /* Another document (the same diagram again): nothing reported. */
  {
    g_autoptr(QdDocument) again = qd_test_load_example ("queue-server.qdevs");
    g_autofree char *after = NULL;

    qd_window_set_document (f.window, again, NULL);
    after = dup_block_tooltip (&f, "/Server");

    g_assert_cmpstr (after, ==, before);
  }
  qd_test_run_fixture_teardown (&f);
}

static void
count_entry (const QdLogEntry *entry,
             gpointer          user_data)
{
  (*(guint64 *) user_data)++;
}

/* The cells of row @row of the Transitions page, joined by '|'. */
static char *
event_row (QdEventView *view,
           guint        row)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) cells = NULL;

  for (guint c = 0; c < 8; c++)
    {
      g_autofree char *cell = qd_event_view_dup_cell (view, row, c);

      g_strv_builder_add (builder, cell);
    }
  cells = g_strv_builder_end (builder);
  return g_strjoinv ("|", cells);
}

#define assert_event_row(view, row, text) \
  G_STMT_START { \
    g_autofree char *got_ = event_row (view, row); \
    g_assert_cmpstr (got_, ==, text); \
  } G_STMT_END

/* The Transitions page: a step shows that step's transitions, in the
 * order DEVS ran them; a whole run shows all of them (as many as a
 * headless run's log has), or the first QD_EVENT_VIEW_LIMIT of a longer
 * one, whose results are still those of a run without a log. */
static void
test_transitions (void)
{
  Fixture f;
  QdEventView *view;
  QdSimulation *ref;
  g_autoptr(GError) error = NULL;
  guint64 n_ref = 0;

  qd_test_run_fixture_setup (&f, qd_test_load_example ("exp-decay.qdevs"));
  view = qd_run_session_get_event_view (f.session);
  g_assert_cmpuint (qd_event_view_get_n_rows (view), ==, 0);

  qd_run_bar_set_step_count (f.bar, 2);
  qd_test_run_activate (&f, "run.step");
  qd_test_run_wait_until (qd_test_run_is_paused, &f);
  /* Event 1, the Integrator's: its first segment, no derivative yet;
   * event 2, the Gain's answer, gives it one. */
  g_assert_cmpuint (qd_event_view_get_n_rows (view), ==, 7);
  assert_event_row (view, 0, "1|0|/Integrator|output λ|1|||1 + 0·Δt");
  assert_event_row (view, 1, "1|0|/Integrator|internal δint||0|∞|");
  assert_event_row (view, 2, "1|0|/Gain|external δext|1|0|0|1 + 0·Δt");
  assert_event_row (view, 3, "1|0|/Scope|external δext|1|0|∞|1 + 0·Δt");
  assert_event_row (view, 4, "2|0|/Gain|output λ|1|||−1 − 0·Δt");
  assert_event_row (view, 5, "2|0|/Gain|internal δint||0|∞|");
  assert_event_row (view, 6, "2|0|/Integrator|external δext|1|0|0.0001|−1 − 0·Δt");

  /* A row leads to its block: the Gain's row selects the Gain. */
  {
    QdCanvas *canvas = QD_CANVAS (gtk_widget_get_template_child (GTK_WIDGET (f.window),
                                                                 QD_TYPE_WINDOW, "canvas"));
    g_autoptr(GPtrArray) selected = NULL;

    qd_event_view_activate (view, 2);
    selected = qd_canvas_controller_get_selected_blocks (qd_canvas_get_controller (canvas));
    g_assert_nonnull (selected);
    g_assert_cmpuint (selected->len, ==, 1);
    g_assert_cmpstr (((QdBlock *) g_ptr_array_index (selected, 0))->name, ==, "Gain");
  }

  qd_run_bar_set_step_count (f.bar, 1);
  qd_test_run_activate (&f, "run.step");
  qd_test_run_wait_until (qd_test_run_is_paused, &f);
  g_assert_cmpuint (qd_event_view_get_n_rows (view), ==, 11);
  assert_event_row (view, 7, "3|0.0001|/Integrator|output λ|1|||0.9999 − 1·Δt");
  assert_event_row (view, 8, "3|0.0001|/Integrator|internal δint||0.0001|∞|");

  /* Exported, the rows are the file qdevs-cli run --events writes for
   * the same three events, byte for byte. */
  {
    g_autofree char *dir = g_dir_make_tmp ("qd-run-ui-XXXXXX", NULL);
    g_autofree char *ours = g_build_filename (dir, "ours.csv", NULL);
    g_autofree char *theirs = g_build_filename (dir, "theirs.csv", NULL);
    g_autofree char *a = NULL, *b = NULL;
    QdSimulation *headless = qd_simulation_new (f.document, NULL, NULL, &error);
    QdEventLogCsv *log;

    g_assert_no_error (error);
    g_assert_true (qd_event_view_write_csv (view, ours, &error));
    g_assert_no_error (error);
    log = qd_event_log_csv_new (headless, theirs, 0, &error);
    g_assert_no_error (error);
    g_assert_cmpint (qd_simulation_step (headless, 3, &error), ==, QD_RUN_STEPPED);
    g_assert_true (qd_event_log_csv_close (log, &error));
    g_assert_no_error (error);
    qd_simulation_free (headless);
    g_file_get_contents (ours, &a, NULL, &error);
    g_assert_no_error (error);
    g_file_get_contents (theirs, &b, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (a, ==, b);
    {
      guint lines = 0;

      for (const char *c = a; *c != '\0'; c++)
        lines += *c == '\n';
      /* The header and the 11 rows of three events. */
      g_assert_cmpuint (lines, ==, 1 + 11);
    }
    g_unlink (ours);
    g_unlink (theirs);
    g_rmdir (dir);
  }

  qd_test_run_activate (&f, "run.resume");
  qd_test_run_wait_until (qd_test_run_is_finished, &f);
  ref = qd_simulation_new (f.document, NULL, NULL, &error);
  g_assert_no_error (error);
  qd_simulation_set_event_log (ref, count_entry, &n_ref);
  g_assert_cmpint (qd_simulation_run (ref, &error), ==, QD_RUN_DONE);
  g_assert_cmpuint (n_ref, <, QD_EVENT_VIEW_LIMIT);
  g_assert_cmpuint (qd_event_view_get_n_rows (view), ==, n_ref);
  qd_simulation_free (ref);
  qd_test_run_fixture_teardown (&f);

  /* A discrete-event model: the Generator's first entity is tag 1. */
  qd_test_run_fixture_setup (&f, qd_test_load_example ("queue-server.qdevs"));
  view = qd_run_session_get_event_view (f.session);
  qd_run_bar_set_step_count (f.bar, 6);
  qd_test_run_activate (&f, "run.step");
  qd_test_run_wait_until (qd_test_run_is_paused, &f);
  {
    gboolean found = FALSE;

    for (guint k = 0; k < qd_event_view_get_n_rows (view) && !found; k++)
      {
        g_autofree char *block = qd_event_view_dup_cell (view, k, 2);
        g_autofree char *kind = qd_event_view_dup_cell (view, k, 3);
        g_autofree char *segment = qd_event_view_dup_cell (view, k, 7);

        found = g_str_equal (block, "/Generator") && g_str_equal (kind, "output λ");
        if (found)
          g_assert_cmpstr (segment, ==, "1 (tag 1)");
      }
    g_assert_true (found);
  }
  qd_test_run_fixture_teardown (&f);

  /* Longer than the limit: the first rows, and the same run. */
  qd_test_run_fixture_setup (&f, qd_test_load_example ("lotka-volterra.qdevs"));
  view = qd_run_session_get_event_view (f.session);
  qd_test_run_activate (&f, "run.start");
  qd_test_run_wait_until (qd_test_run_is_finished, &f);
  g_assert_cmpuint (qd_event_view_get_n_rows (view), ==, QD_EVENT_VIEW_LIMIT);
  qd_test_run_assert_equals_headless (&f);
  qd_test_run_fixture_teardown (&f);
}

/* What the plot shows, as pixels: its render node drawn into an image
 * of its size. A widget with a redraw pending has no node until its
 * frame clock draws it, which on a loaded machine takes a while: the
 * frames are let tick until it has one, for at most 60 s. */
static cairo_surface_t *
plot_pixels (QdPlot *plot)
{
  int w = gtk_widget_get_width (GTK_WIDGET (plot));
  int h = gtk_widget_get_height (GTK_WIDGET (plot));
  GdkPaintable *paintable = gtk_widget_paintable_new (GTK_WIDGET (plot));
  cairo_surface_t *image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;
  GskRenderNode *node;
  cairo_t *cr;

  for (;;)
    {
      GtkSnapshot *snapshot = gtk_snapshot_new ();

      gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), w, h);
      node = gtk_snapshot_free_to_node (snapshot);
      if (node != NULL || g_get_monotonic_time () > end)
        break;
      qd_test_wait_frames (GTK_WIDGET (plot), 1);
    }
  g_assert_nonnull (node);
  cr = cairo_create (image);
  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  cairo_surface_flush (image);
  gsk_render_node_unref (node);
  g_object_unref (paintable);
  return image;
}

/* Without the cursor line, which follows Xvfb's pointer in the middle
 * of the screen: as if the pointer had left the plot. */
static void
pointer_leaves (QdPlot *plot)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (plot));

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_MOTION (controller))
        g_signal_emit_by_name (controller, "leave");
    }
}

/* Pixels that differ between two images of the same size. */
static guint
count_differences (cairo_surface_t *a,
                   cairo_surface_t *b)
{
  int w = cairo_image_surface_get_width (a), h = cairo_image_surface_get_height (a);
  guint n = 0;

  g_assert_cmpint (cairo_image_surface_get_width (b), ==, w);
  g_assert_cmpint (cairo_image_surface_get_height (b), ==, h);
  for (int y = 0; y < h; y++)
    {
      const guint32 *ra = (const guint32 *) (cairo_image_surface_get_data (a)
                                             + y * cairo_image_surface_get_stride (a));
      const guint32 *rb = (const guint32 *) (cairo_image_surface_get_data (b)
                                             + y * cairo_image_surface_get_stride (b));

      for (int x = 0; x < w; x++)
        n += ra[x] != rb[x];
    }
  return n;
}

/* A live run costs the simulation as little drawing as will do: while
 * the traces grow steadily (120 time units in real time at 100x, so
 * that they grow at every frame for 1.2 s) the plot redraws at most once
 * in each 100 ms of its frame clock, not at every frame, yet it keeps
 * drawing; and once the run is over it shows all of it: exactly what a
 * fresh drawing of the finished traces (the export) shows, up to the
 * final time. */
static void
test_live_redraw_rate (void)
{
  g_autofree char *dir = g_dir_make_tmp ("qd-run-ui-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "plot.png", NULL);
  g_autoptr(GError) error = NULL;
  cairo_surface_t *shown, *fresh;
  guint64 draws0, draws;
  gint64 first, last;
  guint bins;
  QdRunnerProgress p;
  GdkFrameClock *clock;
  QdPlot *plot;
  Fixture f;

  qd_test_run_fixture_setup (&f, qd_test_load_example ("lotka-volterra.qdevs"));
  qd_test_set_final_time (f.document, 120.0);
  qd_test_wait_frames (GTK_WIDGET (f.window), 1);
  qd_run_session_set_realtime (f.session, TRUE, 100.0);
  qd_test_run_activate (&f, "run.start");
  plot = qd_run_session_get_plot (f.session, 0);
  g_assert_nonnull (plot);
  draws0 = qd_plot_get_n_draws (plot);
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (plot));
  g_assert_nonnull (clock);
  first = gdk_frame_clock_get_frame_time (clock);
  qd_test_run_wait_until (qd_test_run_is_finished, &f);
  last = gdk_frame_clock_get_frame_time (clock);
  draws = qd_plot_get_n_draws (plot) - draws0;
  /* The 100 ms bins of the frame clock the run spanned. */
  bins = (guint) (last / 100000 - first / 100000) + 1;
  g_test_message ("%" G_GUINT64_FORMAT " draws in %u tenths of a second of "
                  "the frame clock", draws, bins);
  g_assert_cmpint (f.last_state, ==, QD_RUNNER_FINISHED);
  /* One in each bin, and a few for the start (the new page's size, new
   * traces, the time range) and the end; at the frame rate it would be
   * six in each. */
  g_assert_cmpuint (draws, <=, 10 + bins);
  g_assert_cmpuint (draws, >=, 3);

  /* The last growth and the closing of the traces are drawn too. */
  qd_test_wait_view (plot, ends_at_120);
  qd_run_session_get_progress (f.session, &p);
  g_assert_cmpfloat (p.time, ==, 120.0);
  qd_test_run_assert_equals_headless (&f);

  /* The screen catches up with the export: the live redraw is paced
   * (one in each tenth of a second), so on a loaded machine the last
   * frame can come some frames later. It must come, and then match. */
  {
    guint differences = G_MAXUINT;

    for (guint attempt = 0; attempt < 60 && differences != 0; attempt++)
      {
        /* Each time: a relayout can send the plot a new crossing event
         * from Xvfb's pointer, which stays in the middle of the screen. */
        pointer_leaves (plot);
        qd_test_wait_frames (GTK_WIDGET (plot), 7);
        shown = plot_pixels (plot);
        g_assert_true (qd_plot_export (plot, png, QD_IMAGE_FORMAT_PNG,
                                       cairo_image_surface_get_width (shown),
                                       cairo_image_surface_get_height (shown),
                                       &error));
        g_assert_no_error (error);
        fresh = cairo_image_surface_create_from_png (png);
        g_assert_cmpint (cairo_surface_status (fresh), ==, CAIRO_STATUS_SUCCESS);
        differences = count_differences (shown, fresh);
        if (differences != 0)
          g_test_message ("attempt %u: %u pixels differ", attempt, differences);
        cairo_surface_destroy (shown);
        cairo_surface_destroy (fresh);
      }
    g_assert_cmpuint (differences, ==, 0);
  }

  g_unlink (png);
  g_rmdir (dir);
  qd_test_run_fixture_teardown (&f);
}

/* Speed: the same long run headless and in the window with its live
 * plot, as events per second. Printed, never asserted on time; run with
 * -m perf. */

typedef struct
{
  QdRunner *runner;
  gboolean  done;
} RunnerWait;

static void
on_runner_finished (QdRunner      *runner,
                    QdRunnerState  state,
                    const GError  *error,
                    RunnerWait    *w)
{
  w->done = TRUE;
}

/* Processor time of this process's threads so far, in seconds: the
 * runner's worker, the main (GTK) thread, and all the others together
 * (the GL driver's rasterizer threads among them). */
typedef struct
{
  double worker;
  double main;
  double other;
} ThreadTimes;

/* utime + stime of a /proc stat file, in seconds; -1 when unreadable. */
static double
stat_cpu_seconds (const char *stat_path,
                  char      **comm)
{
  g_autofree char *stat = NULL;
  g_auto(GStrv) fields = NULL;
  const char *open_paren, *rest;

  if (!g_file_get_contents (stat_path, &stat, NULL, NULL)
      || (open_paren = strchr (stat, '(')) == NULL
      || (rest = strrchr (stat, ')')) == NULL)
    return -1;
  if (comm != NULL)
    *comm = g_strndup (open_paren + 1, rest - open_paren - 1);
  /* After "(comm)": state is field 3; utime and stime are 14 and 15. */
  fields = g_strsplit (rest + 2, " ", -1);
  if (g_strv_length (fields) <= 13)
    return -1;
  return (g_ascii_strtod (fields[11], NULL) + g_ascii_strtod (fields[12], NULL))
         / sysconf (_SC_CLK_TCK);
}

static void
thread_times (ThreadTimes *times)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc/self/task", 0, NULL);
  g_autofree char *self_tid = g_strdup_printf ("%d", (int) getpid ());
  const char *tid;

  memset (times, 0, sizeof *times);
  while (dir != NULL && (tid = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *stat_path = g_build_filename ("/proc/self/task", tid, "stat", NULL);
      g_autofree char *comm = NULL;
      double seconds = stat_cpu_seconds (stat_path, &comm);

      if (seconds < 0)
        continue;
      if (g_str_has_prefix (comm, "qd-runner"))
        times->worker += seconds;
      else if (strcmp (tid, self_tid) == 0)
        times->main += seconds;
      else
        times->other += seconds;
    }
}

/* The processor time of the X server that shows our display (Xvfb under
 * xvfb-run), in seconds, or -1 when it cannot be found: drawing costs
 * the server too, and on two cores it competes with the worker. */
static double
x_server_cpu_seconds (void)
{
  const char *display = g_getenv ("DISPLAY");
  g_autoptr(GDir) dir = NULL;
  const char *name;

  if (display == NULL || (dir = g_dir_open ("/proc", 0, NULL)) == NULL)
    return -1;
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *cmdline_path = NULL;
      g_autofree char *cmdline = NULL;
      gsize length;

      if (!g_ascii_isdigit (name[0]))
        continue;
      cmdline_path = g_build_filename ("/proc", name, "cmdline", NULL);
      if (!g_file_get_contents (cmdline_path, &cmdline, &length, NULL))
        continue;
      if (!g_str_has_suffix (cmdline, "Xvfb") && strstr (cmdline, "Xorg") == NULL)
        continue;
      /* Arguments are NUL-separated: look for the display's own. */
      for (gsize i = strlen (cmdline) + 1; i < length; i += strlen (cmdline + i) + 1)
        if (strcmp (cmdline + i, display) == 0)
          {
            g_autofree char *stat_path = g_build_filename ("/proc", name, "stat", NULL);

            return stat_cpu_seconds (stat_path, NULL);
          }
    }
  return -1;
}

static gboolean
count_frame (GtkWidget     *widget,
             GdkFrameClock *clock,
             gpointer       user_data)
{
  (*(guint *) user_data)++;
  return G_SOURCE_CONTINUE;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

#define SPEED_ROUNDS 3

static double
median (double *values)
{
  qsort (values, SPEED_ROUNDS, sizeof *values, compare_doubles);
  return values[SPEED_ROUNDS / 2];
}

/* Headless and in the window, SPEED_ROUNDS times each, interleaved;
 * prints the medians. Processor times are per second of the run on the
 * clock: 1.0 is one core kept busy. */
static void
measure (const char *label,
         QdDocument *document)
{
  double runner_eps[SPEED_ROUNDS], window_eps[SPEED_ROUNDS], ratio[SPEED_ROUNDS];
  double runner_cpu[SPEED_ROUNDS], window_cpu[SPEED_ROUNDS];
  double main_load[SPEED_ROUNDS], other_load[SPEED_ROUNDS], x_load[SPEED_ROUNDS];
  double fps[SPEED_ROUNDS], dps[SPEED_ROUNDS], main_cpu[SPEED_ROUNDS], walls[SPEED_ROUNDS];
  guint64 events = 0;
  double loadavg = -1;

  for (int round = 0; round < SPEED_ROUNDS; round++)
    {
      g_autoptr(GError) error = NULL;
      QdSimulation *sim;
      RunnerWait w = { NULL, FALSE };
      QdRunnerProgress p;
      ThreadTimes t0, t1;
      double x0, x1;
      guint64 draws0;
      QdPlot *plot;
      Fixture f;
      guint frames = 0, tick;

      /* The runner's worker without a window. */
      sim = qd_simulation_new (document, NULL, NULL, &error);
      g_assert_no_error (error);
      w.runner = qd_runner_new (sim);
      g_signal_connect (w.runner, "finished", G_CALLBACK (on_runner_finished), &w);
      thread_times (&t0);
      qd_runner_run (w.runner);
      while (!w.done)
        g_main_context_iteration (NULL, TRUE);
      qd_runner_get_progress (w.runner, &p);
      events = p.events;
      runner_eps[round] = p.events / p.wall_time;
      /* Before the worker thread goes with its runner. */
      thread_times (&t1);
      runner_cpu[round] = events / (t1.worker - t0.worker);
      g_object_unref (w.runner);

      /* The editor: Run, with the plot drawing as the traces grow. */
      qd_test_run_fixture_setup (&f, g_object_ref (document));
      qd_test_wait_frames (GTK_WIDGET (f.window), 1);
      thread_times (&t0);
      x0 = x_server_cpu_seconds ();
      qd_test_run_activate (&f, "run.start");
      plot = qd_run_session_get_plot (f.session, 0);
      draws0 = qd_plot_get_n_draws (plot);
      tick = gtk_widget_add_tick_callback (GTK_WIDGET (plot), count_frame, &frames, NULL);
      qd_test_run_wait_until (qd_test_run_is_finished, &f);
      thread_times (&t1);
      x1 = x_server_cpu_seconds ();
      qd_runner_get_progress (qd_run_session_get_runner (f.session), &p);
      gtk_widget_remove_tick_callback (GTK_WIDGET (plot), tick);
      g_assert_cmpuint (p.events, ==, events);
      window_eps[round] = p.events / p.wall_time;
      ratio[round] = window_eps[round] / runner_eps[round];
      /* The worker thread of this run is a new one: its time is all
       * this run's. */
      window_cpu[round] = events / (t1.worker - t0.worker);
      main_load[round] = (t1.main - t0.main) / p.wall_time;
      main_cpu[round] = t1.main - t0.main;
      walls[round] = p.wall_time;
      other_load[round] = (t1.other - t0.other) / p.wall_time;
      x_load[round] = x0 >= 0 && x1 >= 0 ? (x1 - x0) / p.wall_time : -1;
      fps[round] = frames / p.wall_time;
      dps[round] = (qd_plot_get_n_draws (plot) - draws0) / p.wall_time;
      qd_test_run_fixture_teardown (&f);
    }
  {
    g_autofree char *text = NULL;

    if (g_file_get_contents ("/proc/loadavg", &text, NULL, NULL))
      loadavg = g_ascii_strtod (text, NULL);
  }
  g_test_message ("%s: %" G_GUINT64_FORMAT " events, renderer %s, load average %.2f; "
                  "medians of %d: events/s on the clock: runner without window %.3g, "
                  "window with live plot %.3g (%.1f%%); events per worker CPU second: "
                  "%.3g without window, %.3g with; frames/s %.1f, plot draws/s %.1f; "
                  "cores busy besides the worker: GTK main thread %.3f, other threads "
                  "(GL rasterizer) %.3f, X server %.3f; main thread %.3f s of processor "
                  "time in %.3f s of run",
                  label, events, g_getenv ("GSK_RENDERER") ? g_getenv ("GSK_RENDERER") : "default",
                  loadavg, SPEED_ROUNDS, median (runner_eps), median (window_eps),
                  100 * median (ratio), median (runner_cpu), median (window_cpu),
                  median (fps), median (dps), median (main_load), median (other_load),
                  median (x_load), median (main_cpu), median (walls));
}

static void
test_speed (void)
{
  g_autoptr(GError) error = NULL;
  QdDocument *document;
  QdSettings settings;

  if (!g_test_perf ())
    {
      g_test_skip ("a measurement: run with -m perf");
      return;
    }

  /* Lotka-Volterra for 580,000 time units: about 10 million events. */
  document = qd_test_load_example ("lotka-volterra.qdevs");
  /* A shallow copy: the document copies what it keeps. */
  settings = *qd_document_get_settings (document);
  settings.final_time = 5.8e5;
  g_assert_true (qd_document_set_settings (document, &settings, &error));
  g_assert_no_error (error);
  measure ("lotka-volterra to t = 5.8e5", document);
  g_object_unref (document);

  /* The RLC transmission line with quanta 1000 times smaller: about 4.3
   * million events over ten states. */
  document = qd_test_load_example ("transmission-line.qdevs");
  g_assert_true (qd_document_set_variable (document, "dv", "4e-9", &error));
  g_assert_true (qd_document_set_variable (document, "di", "1e-11", &error));
  g_assert_no_error (error);
  measure ("transmission-line, dv = 4e-9", document);
  g_object_unref (document);
}

/* Under a classic solver the Statistics tab shows the solver's own
 * figures under the block counts. */
static void
test_stats_classic (void)
{
  g_autoptr(QdDocument) document = qd_test_load_example ("exp-decay.qdevs");
  QdSettings settings = *qd_document_get_settings (document);
  QdStatsView *stats = QD_STATS_VIEW (g_object_ref_sink (qd_stats_view_new ()));
  g_autoptr(GError) error = NULL;
  QdSimulation *sim;

  settings.solver = (char *) "rk4";
  settings.h = 0.05;
  g_assert_true (qd_document_set_settings (document, &settings, &error));
  sim = qd_test_run_headless (document);
  qd_stats_view_set_simulation (stats, sim);
  g_assert_nonnull (strstr (qd_stats_view_get_status (stats),
                            "\nSolver rk4: 100 steps, 0 failed, 502 "
                            "right-hand sides, 0 Jacobians, 0 root stops "
                            "(0 root function evaluations), 0 time "
                            "events."));
  qd_simulation_free (sim);
  /* Under QSS, one line. */
  settings = *qd_document_get_settings (document);
  settings.solver = (char *) "qss";
  g_assert_true (qd_document_set_settings (document, &settings, &error));
  sim = qd_test_run_headless (document);
  qd_stats_view_set_simulation (stats, sim);
  g_assert_null (strchr (qd_stats_view_get_status (stats), '\n'));
  qd_simulation_free (sim);
  g_object_unref (stats);
}

int
main (int    argc,
      char **argv)
{
  int status;

  if (!qd_test_run_init (&argc, &argv))
    return 0;

  g_test_add_func ("/run-view/stats-and-badges", test_stats_and_badges);
  g_test_add_func ("/run-view/reported-stats", test_reported_stats);
  g_test_add_func ("/run-view/display-value", test_display_value);
  g_test_add_func ("/run-view/transitions", test_transitions);
  g_test_add_func ("/run-view/live-redraw-rate", test_live_redraw_rate);
  g_test_add_func ("/run-view/speed", test_speed);
  g_test_add_func ("/run-view/stats-classic", test_stats_classic);

  status = g_test_run ();
  qd_test_run_finish ();
  return status;
}

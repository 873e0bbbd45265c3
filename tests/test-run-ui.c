/* test-run-ui.c: running a diagram in the editor
 *
 * Drives the run bar's actions in a real window (under the display the
 * CI provides with xvfb-run; without one the test is skipped) and checks
 * that what the editor shows is exactly what a headless run computes:
 * the plots' traces bit for bit, however the run was paused or stepped,
 * the statistics table and the integrators' badges, the problems of a
 * model that cannot run, detaching a plot, overlaying runs and the CSV
 * export, and how often a live plot redraws while a run goes on.
 */
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "qd-application.h"
#include "qd-run-bar.h"
#include "qd-run-session.h"
#include "qd-test-gtk-util.h"
#include "qd-test-util.h"
#include "qd-window.h"

static QdApplication *app;
static char *renderer_set;      /* GSK_RENDERER before the application started */

typedef struct
{
  QdWindow     *window;
  QdRunBar     *bar;
  QdRunSession *session;
  QdDocument   *document;
  guint         n_finished;
  QdRunnerState last_state;
  guint         n_paused;       /* "progress" heard in the PAUSED state */
  guint         n_running;      /* "progress" heard in the RUNNING state */
} Fixture;

static void
on_progress (QdRunSession *session,
             Fixture      *f)
{
  QdRunnerProgress p;

  qd_run_session_get_progress (session, &p);
  if (p.state == QD_RUNNER_PAUSED)
    f->n_paused++;
  else if (p.state == QD_RUNNER_RUNNING)
    f->n_running++;
}

static void
on_finished (QdRunSession  *session,
             QdRunnerState  state,
             const GError  *error,
             Fixture       *f)
{
  f->n_finished++;
  f->last_state = state;
}

static void
fixture_setup (Fixture    *f,
               QdDocument *document)
{
  memset (f, 0, sizeof *f);
  f->window = qd_window_new (GTK_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1000, 700);
  gtk_window_present (GTK_WINDOW (f->window));
  f->document = document;
  qd_window_set_document (f->window, document, NULL);
  f->bar = QD_RUN_BAR (gtk_widget_get_template_child (GTK_WIDGET (f->window),
                                                      QD_TYPE_WINDOW, "run_bar"));
  g_assert_nonnull (f->bar);
  f->session = qd_run_bar_get_session (f->bar);
  g_assert_nonnull (f->session);
  g_assert_true (qd_run_session_get_document (f->session) == document);
  g_signal_connect (f->session, "finished", G_CALLBACK (on_finished), f);
  g_signal_connect (f->session, "progress", G_CALLBACK (on_progress), f);
}

static void
fixture_teardown (Fixture *f)
{
  g_signal_handlers_disconnect_by_data (f->session, f);
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_clear_object (&f->document);
}

/* Iterates the main context until @done says so, failing after 60 s. */
#define wait_until(done, f) wait_until_at (done, f, __LINE__)

static void
wait_until_at (gboolean (*done) (gpointer f),
               Fixture   *f,
               int        line)
{
  if (!qd_test_iterate_until (done, f, 60))
    g_error ("line %d: the run did not get there within 60 s", line);
}

static gboolean
is_finished (gpointer data)
{
  Fixture *f = data;

  return f->n_finished > 0;
}

static gboolean
is_paused (gpointer data)
{
  Fixture *f = data;

  return f->n_paused > 0 || f->n_finished > 0;
}

static gboolean
is_running (gpointer data)
{
  Fixture *f = data;

  return f->n_running > 0 || f->n_finished > 0;
}

static gboolean
on_tick (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       data)
{
  guint *left = data;

  if (*left > 0)
    --*left;
  return *left > 0 ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

/* Lets @widget's frame clock tick @n times: a plot redraws while its
 * traces grow at most once in 100 ms of that clock, so 7 frames (at most
 * 60 a second) let a pending redraw happen however slowly they come. */
static void
wait_frames (GtkWidget *widget,
             guint      n)
{
  guint left = n;

  gtk_widget_add_tick_callback (widget, on_tick, &left, NULL);
  while (left > 0)
    g_main_context_iteration (NULL, TRUE);
}

/* Dispatches what is pending, without waiting. */
static void
flush_events (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* Lets the frame clock tick until @plot's view satisfies @cond (for its
 * x range), failing after 60 s: on a loaded machine a redraw can take
 * longer than any fixed wait. */
#define wait_view(plot, cond) wait_view_at (plot, cond, #cond, __LINE__)

static void
wait_view_at (QdPlot      *plot,
              gboolean   (*cond) (double x0, double x1),
              const char  *what,
              int          line)
{
  gint64 end = g_get_monotonic_time () + 60 * G_USEC_PER_SEC;

  for (;;)
    {
      double x0, x1;

      qd_plot_get_view (plot, &x0, &x1, NULL, NULL);
      if (cond (x0, x1))
        return;
      if (g_get_monotonic_time () > end)
        g_error ("line %d: the plot's view [%g, %g] never met %s", line, x0, x1, what);
      wait_frames (GTK_WIDGET (plot), 1);
    }
}

static gboolean
starts_above_zero (double x0,
                   double x1)
{
  return x0 > 0.0;
}

static gboolean
starts_at_zero (double x0,
                double x1)
{
  return x0 == 0.0;
}

static gboolean
ends_at_120 (double x0,
             double x1)
{
  return x1 == 120.0;
}

static void
activate (Fixture    *f,
          const char *action)
{
  /* Before: a short step may be over within the call. */
  f->n_paused = 0;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->bar), action, NULL));
}

static GtkWidget *
bar_child (Fixture    *f,
           const char *name)
{
  GObject *child = gtk_widget_get_template_child (GTK_WIDGET (f->bar), QD_TYPE_RUN_BAR, name);

  g_assert_nonnull (child);
  return GTK_WIDGET (child);
}

static const char *
bar_label (Fixture    *f,
           const char *name)
{
  return gtk_label_get_text (GTK_LABEL (bar_child (f, name)));
}

/* A headless run of the same document. */
static QdSimulation *
run_headless (QdDocument *document)
{
  g_autoptr(GError) error = NULL;
  QdSimulation *sim = qd_simulation_new (document, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
  g_assert_no_error (error);
  return sim;
}

static void
assert_traces_equal (QdTrace *a,
                     QdTrace *b)
{
  gsize n = qd_trace_get_length (a);
  double end_a = 0, end_b = 0;

  g_assert_cmpstr (qd_trace_get_name (a), ==, qd_trace_get_name (b));
  g_assert_cmpuint (n, ==, qd_trace_get_length (b));
  g_assert_cmpuint (n, >, 100);
  for (gsize i = 0; i < n; i++)
    {
      const QdSignal *sa = qd_trace_get (a, i);
      const QdSignal *sb = qd_trace_get (b, i);

      /* Bit for bit: the same doubles, not close ones. */
      if (memcmp (sa, sb, sizeof *sa) != 0)
        g_error ("%s: segment %" G_GSIZE_FORMAT " differs: t = %.17g / %.17g, c0 = %.17g / %.17g",
                 qd_trace_get_name (a), i, sa->t, sb->t, sa->c[0], sb->c[0]);
    }
  g_assert_true (qd_trace_is_closed (a, &end_a));
  g_assert_true (qd_trace_is_closed (b, &end_b));
  g_assert_cmpfloat (end_a, ==, end_b);
}

/* The session's run against a headless one: same traces, and the plot
 * of the Scope shows exactly those. */
static void
assert_run_equals_headless (Fixture *f)
{
  QdRunner *runner = qd_run_session_get_runner (f->session);
  QdSimulation *sim = qd_runner_get_simulation (runner);
  QdSimulation *ref = run_headless (f->document);
  GPtrArray *traces = qd_simulation_get_traces (sim);
  GPtrArray *ref_traces = qd_simulation_get_traces (ref);

  g_assert_cmpint (qd_runner_get_state (runner), ==, QD_RUNNER_FINISHED);
  g_assert_cmpuint (traces->len, ==, ref_traces->len);
  for (guint i = 0; i < traces->len; i++)
    assert_traces_equal (g_ptr_array_index (traces, i), g_ptr_array_index (ref_traces, i));
  g_assert_cmpuint (qd_simulation_get_events (sim), ==, qd_simulation_get_events (ref));
  qd_simulation_free (ref);
}

/* The toolbar over a plot: the display mode drop-down sets the plot's
 * mode, and the XY toggle (shown for two traces) plots the second
 * trace against the first. Leaves the plot as it found it. */
static void
assert_toolbar (GtkWidget *page,
                QdPlot    *plot)
{
  GtkWidget *bar = gtk_widget_get_first_child (page);
  GtkWidget *dropdown = gtk_widget_get_first_child (bar);
  GtkWidget *xy = gtk_widget_get_next_sibling (dropdown);
  double x0, x1, y0, y1;

  g_assert_true (GTK_IS_DROP_DOWN (dropdown));
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (dropdown)), ==, QD_PLOT_MODE_EXACT);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), QD_PLOT_MODE_STEPS);
  g_assert_cmpint (qd_plot_get_mode (plot), ==, QD_PLOT_MODE_STEPS);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), QD_PLOT_MODE_EXACT);
  g_assert_cmpint (qd_plot_get_mode (plot), ==, QD_PLOT_MODE_EXACT);

  g_assert_true (GTK_IS_TOGGLE_BUTTON (xy));
  g_assert_true (gtk_widget_get_visible (xy));
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (xy), TRUE);
  /* Prey against predators: both positive, so the x axis is a value
   * range, not the time axis from 0. */
  wait_view (plot, starts_above_zero);
  qd_plot_get_view (plot, &x0, &x1, &y0, &y1);
  g_assert_cmpfloat (x0, >, 0.0);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (xy), FALSE);
  wait_view (plot, starts_at_zero);
}

/* Software OpenGL: the application chose GTK's Cairo renderer before
 * its first window; a renderer the user set stays. */
static void
test_renderer (void)
{
  if (renderer_set != NULL)
    g_assert_cmpstr (g_getenv ("GSK_RENDERER"), ==, renderer_set);
  else
    g_assert_cmpstr (g_getenv ("GSK_RENDERER"), ==, "cairo");
}

static void
test_run_lotka_volterra (void)
{
  Fixture f;
  QdPlot *plot;
  GtkNotebook *notebook;
  GtkWidget *tab, *child;
  int page;

  fixture_setup (&f, qd_test_load_example ("lotka-volterra.qdevs"));
  g_assert_cmpuint (qd_run_session_get_n_plots (f.session), ==, 0);

  activate (&f, "run.start");
  /* One plot per Scope block, at once: the run is watched as it grows. */
  g_assert_cmpuint (qd_run_session_get_n_plots (f.session), ==, 1);
  plot = qd_run_session_get_plot (f.session, 0);
  g_assert_true (qd_run_session_find_plot (f.session, "/Scope") == plot);
  g_assert_cmpuint (qd_plot_get_n_traces (plot), ==, 2);

  /* It is a page of the bottom notebook (under the plot's toolbar),
   * shown, titled with the name. */
  notebook = GTK_NOTEBOOK (gtk_widget_get_ancestor (GTK_WIDGET (plot), GTK_TYPE_NOTEBOOK));
  g_assert_nonnull (notebook);
  child = gtk_widget_get_parent (GTK_WIDGET (plot));
  page = gtk_notebook_page_num (notebook, child);
  g_assert_cmpint (page, >=, 0);
  g_assert_cmpint (gtk_notebook_get_current_page (notebook), ==, page);
  g_assert_true (qd_run_session_get_current_plot (f.session) == plot);
  tab = gtk_notebook_get_tab_label (notebook, child);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_widget_get_first_child (tab))), ==, "Scope");

  /* While it runs, the time axis never goes past the final time. */
  while (!is_finished (&f))
    {
      double x0, x1;

      g_main_context_iteration (NULL, TRUE);
      qd_plot_get_view (plot, &x0, &x1, NULL, NULL);
      g_assert_cmpfloat (x1, <=, 300.0);
    }

  wait_until (is_finished, &f);
  g_assert_cmpuint (f.n_finished, ==, 1);
  g_assert_cmpint (f.last_state, ==, QD_RUNNER_FINISHED);
  wait_frames (GTK_WIDGET (plot), 7);
  assert_run_equals_headless (&f);
  assert_toolbar (child, plot);

  /* The bar says so. */
  g_assert_cmpstr (bar_label (&f, "state_label"), ==, "Finished");
  g_assert_cmpstr (bar_label (&f, "rate_label"), ==, "4845 events");
  g_assert_cmpstr (gtk_progress_bar_get_text (GTK_PROGRESS_BAR (bar_child (&f, "progress_bar"))),
                   ==, "t = 300 of 300");
  g_assert_cmpfloat (gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (bar_child (&f, "progress_bar"))),
                     ==, 1.0);

  fixture_teardown (&f);
}

static gboolean
plot_shows_whole_run (gpointer data)
{
  Fixture *f = data;
  QdSimulation *sim = qd_runner_get_simulation (qd_run_session_get_runner (f->session));
  double x0, x1;

  qd_plot_get_view (qd_run_session_get_plot (f->session, 0), &x0, &x1, NULL, NULL);
  return x0 == qd_simulation_get_start_time (sim) && x1 == qd_simulation_get_final_time (sim);
}

/* The preference trace-memory-budget bounds the traces of a run in the
 * window: a run far larger than the budget keeps its traces within it,
 * the oldest part as history, and the plot still spans the whole run. */
/* Paused after a single event, the bar counts it in the singular. */
static void
test_one_event (void)
{
  Fixture f;

  fixture_setup (&f, qd_test_load_example ("lotka-volterra.qdevs"));
  qd_run_bar_set_step_count (f.bar, 1);
  activate (&f, "run.step");
  wait_until (is_paused, &f);
  wait_frames (GTK_WIDGET (f.window), 7);
  g_assert_cmpstr (bar_label (&f, "rate_label"), ==, "1 event");
  fixture_teardown (&f);
}

static void
test_trace_budget (void)
{
  g_autoptr(GSettings) settings = g_settings_new (QD_APPLICATION_ID);
  Fixture f;
  QdSimulation *sim;
  GPtrArray *traces;
  gsize total = 0;
  double from, to, x0, x1;

  g_assert_true (g_settings_set_uint (settings, "trace-memory-budget", 2));
  fixture_setup (&f, qd_test_load_example ("lotka-volterra.qdevs"));
  /* About 1.6 million events: some 13 MB of segments without a budget. */
  qd_test_set_final_time (f.document, 100000);
  activate (&f, "run.start");
  wait_until (is_finished, &f);
  g_assert_cmpint (f.last_state, ==, QD_RUNNER_FINISHED);
  wait_frames (GTK_WIDGET (f.window), 7);

  sim = qd_runner_get_simulation (qd_run_session_get_runner (f.session));
  traces = qd_simulation_get_traces (sim);
  g_assert_cmpuint (traces->len, ==, 2);
  for (guint i = 0; i < traces->len; i++)
    {
      QdTrace *trace = g_ptr_array_index (traces, i);

      total += qd_trace_get_bytes (trace);
      g_assert_true (qd_trace_get_dropped (trace, &from, &to));
      g_assert_cmpfloat (from, ==, 0.0);
      g_assert_cmpfloat (to, >, 60000.0);
    }
  g_test_message ("traces hold %" G_GSIZE_FORMAT " bytes of a 2 MiB budget",
                  total);
  g_assert_cmpuint (total, <=, 2 << 20);

  /* The plot still shows the run from its start to its end, once its
   * frame clock has caught up (late on a loaded machine). */
  wait_until (plot_shows_whole_run, &f);
  qd_plot_get_view (qd_run_session_get_plot (f.session, 0), &x0, &x1, NULL, NULL);
  g_assert_cmpfloat (x0, ==, 0.0);
  g_assert_cmpfloat (x1, ==, 100000.0);

  fixture_teardown (&f);
  g_settings_reset (settings, "trace-memory-budget");
}

/* The earlier runs a plot keeps share the budget with the current run:
 * with 2 MiB, the second run decimates the first, the third decimates
 * the second and drops the first; the legend and the plot's note say
 * so, and all the runs together stay within the budget. */
static void
test_earlier_runs_budget (void)
{
  g_autoptr(GSettings) settings = g_settings_new (QD_APPLICATION_ID);
  Fixture f;
  QdPlot *plot;
  QdRunMemory *memory;
  gboolean decimated_label = FALSE;

  g_assert_true (g_settings_set_uint (settings, "trace-memory-budget", 2));
  fixture_setup (&f, qd_test_load_example ("lotka-volterra.qdevs"));
  /* Each run alone fills its budget (see test_trace_budget). */
  qd_test_set_final_time (f.document, 100000);
  memory = qd_run_session_get_run_memory (f.session);
  for (guint run = 1; run <= 3; run++)
    {
      f.n_finished = 0;
      activate (&f, "run.start");
      wait_until (is_finished, &f);
      g_assert_cmpint (f.last_state, ==, QD_RUNNER_FINISHED);
      g_test_message ("after run %u: %u runs kept, %" G_GSIZE_FORMAT " bytes "
                      "of a %" G_GSIZE_FORMAT "-byte budget", run,
                      qd_run_memory_get_n_runs (memory), qd_run_memory_get_used (memory),
                      qd_run_memory_get_limit (memory));
      g_assert_cmpuint (qd_run_memory_get_used (memory), <=, 2 << 20);
    }
  plot = qd_run_session_get_plot (f.session, 0);
  g_assert_cmpuint (qd_run_memory_get_n_runs (memory), ==, 2);
  g_assert_cmpint (qd_run_memory_get_state (memory, 0), ==, QD_RUN_MEMORY_DECIMATED);
  g_assert_cmpint (qd_run_memory_get_state (memory, 1), ==, QD_RUN_MEMORY_EXACT);

  /* The plot shows run 2 (decimated) under run 3; run 1 is gone. */
  g_assert_cmpuint (qd_plot_get_n_earlier_traces (plot), ==, 2);
  for (guint i = 0; i < qd_plot_get_n_earlier_traces (plot); i++)
    {
      const char *label = qd_plot_get_earlier_label (plot, i);

      g_assert_null (strstr (label, "run 1"));
      if (strstr (label, "(run 2, decimated)") != NULL)
        decimated_label = TRUE;
    }
  g_assert_true (decimated_label);
  g_assert_cmpstr (qd_run_session_get_dropped_note (f.session, 0), ==,
                   "1 earlier run dropped (trace memory)");

  /* Clearing the earlier runs clears the note too. */
  activate (&f, "run.clear-runs");
  g_assert_null (qd_run_session_get_dropped_note (f.session, 0));

  fixture_teardown (&f);
  g_settings_reset (settings, "trace-memory-budget");
}

static void
test_pause_resume_step (void)
{
  Fixture f;
  QdRunnerProgress p;
  guint64 events;

  fixture_setup (&f, qd_test_load_example ("lotka-volterra.qdevs"));

  /* Step 100 events, twice: paused after exactly 100 and 200. */
  qd_run_bar_set_step_count (f.bar, 100);
  activate (&f, "run.step");
  wait_until (is_paused, &f);
  qd_run_session_get_progress (f.session, &p);
  g_assert_cmpint (p.state, ==, QD_RUNNER_PAUSED);
  g_assert_cmpuint (p.events, ==, 100);
  /* Statistics are read while paused, up to the pause. */
  g_assert_cmpuint (qd_stats_view_get_n_rows (qd_run_session_get_stats_view (f.session)), ==,
                    qd_simulation_get_n_atomics (qd_runner_get_simulation (qd_run_session_get_runner (f.session))));

  activate (&f, "run.step");
  /* The state goes RUNNING, then PAUSED again. */
  wait_until (is_paused, &f);
  qd_run_session_get_progress (f.session, &p);
  g_assert_cmpuint (p.events, ==, 200);

  /* Resume runs to the end; pause it on the way, resume again. */
  activate (&f, "run.resume");
  activate (&f, "run.pause");
  wait_until (is_paused, &f);
  qd_run_session_get_progress (f.session, &p);
  events = p.events;
  g_assert_cmpuint (events, >=, 200);
  if (f.n_finished == 0)
    {
      activate (&f, "run.toggle-pause");
      wait_until (is_finished, &f);
    }
  g_assert_cmpint (f.last_state, ==, QD_RUNNER_FINISHED);
  assert_run_equals_headless (&f);

  fixture_teardown (&f);
}

static void
test_unconnected_input (void)
{
  Fixture f;
  QdDocument *document = qd_document_new ();
  QdSystem *root = qd_document_get_root (document);
  g_autoptr(GError) error = NULL;
  QdBlock *integrator, *scope;
  GtkWidget *messages;
  GtkNotebook *notebook;
  const QdProblem *problem;

  integrator = qd_document_add_block (document, root, "integrator", NULL, 0, 0, &error);
  g_assert_no_error (error);
  scope = qd_document_add_block (document, root, "scope", NULL, 100, 0, &error);
  g_assert_no_error (error);
  qd_document_connect (document, root, integrator->id, 0, scope->id, 0, &error);
  g_assert_no_error (error);

  fixture_setup (&f, document);
  messages = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (f.window), QD_TYPE_WINDOW,
                                                        "messages_view"));
  notebook = GTK_NOTEBOOK (gtk_widget_get_template_child (GTK_WIDGET (f.window), QD_TYPE_WINDOW,
                                                          "bottom_notebook"));
  /* Another page in front, so that switching back is seen. */
  gtk_notebook_set_current_page (notebook, -1);

  activate (&f, "run.start");
  /* Nothing runs: no runner, no plot, no "finished". */
  g_assert_null (qd_run_session_get_runner (f.session));
  g_assert_cmpuint (qd_run_session_get_n_plots (f.session), ==, 0);
  /* The problem is listed and linked to its block; its page is shown. */
  g_assert_cmpuint (qd_messages_view_get_n_problems (QD_MESSAGES_VIEW (messages)), ==, 1);
  problem = qd_messages_view_get_problem (QD_MESSAGES_VIEW (messages), 0);
  g_assert_cmpint (problem->code, ==, QD_ERROR_UNCONNECTED);
  g_assert_cmpstr (problem->path, ==, "/Integrator");
  g_assert_cmpstr (problem->block_id, ==, integrator->id);
  g_assert_cmpstr (problem->message, ==,
                   "input 1 is not connected; connect it or delete the block");
  g_assert_cmpint (gtk_notebook_get_current_page (notebook), ==,
                   gtk_notebook_page_num (notebook, messages));
  flush_events ();
  g_assert_cmpuint (f.n_finished, ==, 0);

  fixture_teardown (&f);
}

/* A run that fails: the error goes to the messages panel, linked to the
 * block its message names. */
static void
test_run_error (void)
{
  Fixture f;
  QdDocument *document = qd_document_new ();
  QdSystem *root = qd_document_get_root (document);
  g_autoptr(GError) error = NULL;
  QdBlock *one, *zero, *division, *scope;
  QdMessagesView *messages;
  const QdProblem *problem;

  one = qd_document_add_block (document, root, "constant", NULL, 0, 0, &error);
  g_assert_no_error (error);
  zero = qd_document_add_block (document, root, "constant", NULL, 0, 100, &error);
  g_assert_no_error (error);
  g_assert_true (qd_document_set_param (document, zero, "value", "0", &error));
  g_assert_no_error (error);
  division = qd_document_add_block (document, root, "division", NULL, 100, 50, &error);
  g_assert_no_error (error);
  scope = qd_document_add_block (document, root, "scope", NULL, 200, 50, &error);
  g_assert_no_error (error);
  qd_document_connect (document, root, one->id, 0, division->id, 0, &error);
  g_assert_no_error (error);
  qd_document_connect (document, root, zero->id, 0, division->id, 1, &error);
  g_assert_no_error (error);
  qd_document_connect (document, root, division->id, 0, scope->id, 0, &error);
  g_assert_no_error (error);

  fixture_setup (&f, document);
  messages = QD_MESSAGES_VIEW (gtk_widget_get_template_child (GTK_WIDGET (f.window),
                                                              QD_TYPE_WINDOW, "messages_view"));
  activate (&f, "run.start");
  wait_until (is_finished, &f);
  g_assert_cmpint (f.last_state, ==, QD_RUNNER_FAILED);
  g_assert_cmpuint (qd_messages_view_get_n_problems (messages), ==, 1);
  problem = qd_messages_view_get_problem (messages, 0);
  g_assert_cmpint (problem->code, ==, QD_ERROR_NUMERIC);
  g_assert_cmpstr (problem->path, ==, "/Division");
  g_assert_cmpstr (problem->block_id, ==, division->id);
  g_assert_cmpstr (problem->message, ==,
                   "at t = 0 the input is 0: the divisor u1 is zero; keep it away from zero");

  fixture_teardown (&f);
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

  fixture_setup (&f, qd_test_load_example ("delay-logistic.qdevs"));
  canvas = QD_CANVAS (gtk_widget_get_template_child (GTK_WIDGET (f.window),
                                                     QD_TYPE_WINDOW, "canvas"));
  activate (&f, "run.start");
  wait_until (is_finished, &f);

  ref = run_headless (f.document);
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

  fixture_teardown (&f);
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

  fixture_setup (&f, qd_test_load_example ("lotka-volterra.qdevs"));
  stats = qd_run_session_get_stats_view (f.session);
  g_assert_cmpuint (qd_stats_view_get_n_rows (stats), ==, 0);

  activate (&f, "run.start");
  wait_until (is_finished, &f);

  /* Every row equals the counts of a headless run of the same model. */
  ref = run_headless (f.document);
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

  fixture_teardown (&f);
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

  fixture_setup (&f, qd_test_load_example ("queue-server.qdevs"));
  stats = qd_run_session_get_stats_view (f.session);
  before = dup_block_tooltip (&f, "/Server");
  g_assert_null (strstr (before, "Last run"));
  g_assert_null (strstr (before, "utilisation = "));

  activate (&f, "run.start");
  wait_until (is_finished, &f);

  ref = run_headless (f.document);
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
  fixture_teardown (&f);
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

  fixture_setup (&f, qd_test_load_example ("exp-decay.qdevs"));
  view = qd_run_session_get_event_view (f.session);
  g_assert_cmpuint (qd_event_view_get_n_rows (view), ==, 0);

  qd_run_bar_set_step_count (f.bar, 2);
  activate (&f, "run.step");
  wait_until (is_paused, &f);
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
  activate (&f, "run.step");
  wait_until (is_paused, &f);
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

  activate (&f, "run.resume");
  wait_until (is_finished, &f);
  ref = qd_simulation_new (f.document, NULL, NULL, &error);
  g_assert_no_error (error);
  qd_simulation_set_event_log (ref, count_entry, &n_ref);
  g_assert_cmpint (qd_simulation_run (ref, &error), ==, QD_RUN_DONE);
  g_assert_cmpuint (n_ref, <, QD_EVENT_VIEW_LIMIT);
  g_assert_cmpuint (qd_event_view_get_n_rows (view), ==, n_ref);
  qd_simulation_free (ref);
  fixture_teardown (&f);

  /* A discrete-event model: the Generator's first entity is tag 1. */
  fixture_setup (&f, qd_test_load_example ("queue-server.qdevs"));
  view = qd_run_session_get_event_view (f.session);
  qd_run_bar_set_step_count (f.bar, 6);
  activate (&f, "run.step");
  wait_until (is_paused, &f);
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
  fixture_teardown (&f);

  /* Longer than the limit: the first rows, and the same run. */
  fixture_setup (&f, qd_test_load_example ("lotka-volterra.qdevs"));
  view = qd_run_session_get_event_view (f.session);
  activate (&f, "run.start");
  wait_until (is_finished, &f);
  g_assert_cmpuint (qd_event_view_get_n_rows (view), ==, QD_EVENT_VIEW_LIMIT);
  assert_run_equals_headless (&f);
  fixture_teardown (&f);
}

static void
test_overlay_and_detach (void)
{
  Fixture f;
  QdPlot *plot;
  GtkWidget *notebook;
  GtkRoot *root;

  fixture_setup (&f, qd_test_load_example ("lotka-volterra.qdevs"));
  activate (&f, "run.start");
  wait_until (is_finished, &f);
  plot = qd_run_session_get_plot (f.session, 0);
  g_assert_cmpuint (qd_plot_get_n_earlier_runs (plot), ==, 0);

  /* A second run draws over the first, on the same plot. */
  f.n_finished = 0;
  activate (&f, "run.start");
  wait_until (is_finished, &f);
  g_assert_true (qd_run_session_get_plot (f.session, 0) == plot);
  g_assert_cmpuint (qd_run_session_get_n_plots (f.session), ==, 1);
  g_assert_cmpuint (qd_plot_get_n_earlier_runs (plot), ==, 1);
  g_assert_cmpuint (qd_plot_get_n_traces (plot), ==, 2);
  activate (&f, "run.clear-runs");
  g_assert_cmpuint (qd_plot_get_n_earlier_runs (plot), ==, 0);

  /* Detach: the plot goes into a window of its own ... */
  notebook = gtk_widget_get_parent (GTK_WIDGET (plot));
  qd_run_session_set_detached (f.session, 0, TRUE);
  g_assert_true (qd_run_session_get_detached (f.session, 0));
  root = gtk_widget_get_root (GTK_WIDGET (plot));
  g_assert_true (GTK_IS_WINDOW (root));
  g_assert_false (GTK_WIDGET (root) == GTK_WIDGET (f.window));
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (root)), ==, "Scope");
  /* ... and closing that window puts it back. */
  gtk_window_close (GTK_WINDOW (root));
  g_assert_false (qd_run_session_get_detached (f.session, 0));
  g_assert_true (gtk_widget_get_root (GTK_WIDGET (plot)) == GTK_ROOT (f.window));
  g_assert_true (gtk_widget_get_parent (GTK_WIDGET (plot)) == notebook);

  fixture_teardown (&f);
}

/* The final time entry edits the model (undoably); real time paces the
 * run at the speed of the scale; Stop ends it where it is. */

/* Counts the run bar's refused-edit messages (about_edit TRUE). */
static void
count_bar_message (QdRunBar       *bar,
                   GtkMessageType  type,
                   const char     *text,
                   gboolean        about_edit,
                   guint          *count)
{
  g_assert_cmpint (type, ==, GTK_MESSAGE_ERROR);
  g_assert_true (g_str_has_prefix (text, "Final time: "));
  g_assert_true (about_edit);
  (*count)++;
}

static void
count_bar_hidden (QdRunBar *bar,
                  guint    *count)
{
  (*count)++;
}
static void
test_final_time_and_realtime (void)
{
  guint bar_messages = 0, bar_hidden = 0;
  Fixture f;
  GtkEditable *entry;
  GtkRevealer *revealer;
  QdRunnerProgress p;
  QdRunner *runner;
  double speed = 0;

  fixture_setup (&f, qd_test_load_example ("lotka-volterra.qdevs"));
  entry = GTK_EDITABLE (bar_child (&f, "final_entry"));
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "300");
  /* The bar reports to the window through its signals, never by a call. */
  g_signal_connect (f.bar, "message", G_CALLBACK (count_bar_message), &bar_messages);
  g_signal_connect (f.bar, "edit-message-hidden", G_CALLBACK (count_bar_hidden),
                    &bar_hidden);

  /* Typed as a person types there: with the focus in the field, which
   * keeps the model's value from overwriting the text. */
  gtk_widget_grab_focus (GTK_WIDGET (entry));
  g_assert_true (gtk_widget_is_focus (gtk_widget_get_first_child (GTK_WIDGET (entry))));

  /* Not a number after the start: refused with a message, nothing changes. */
  gtk_editable_set_text (entry, "-5");
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpfloat (qd_document_get_settings (f.document)->final_time, ==, 300);
  revealer = GTK_REVEALER (gtk_widget_get_template_child (GTK_WIDGET (f.window), QD_TYPE_WINDOW,
                                                          "message_revealer"));
  g_assert_true (gtk_revealer_get_reveal_child (revealer));
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (f.window),
                                                                                 QD_TYPE_WINDOW,
                                                                                 "message_label"))),
                   ==, "Final time: -5 is not after the start time 0; type a larger number");
  /* Marked until it is right (left, it shows the model's value again). */
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));

  gtk_editable_set_text (entry, "abc");
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (gtk_widget_get_template_child (GTK_WIDGET (f.window),
                                                                                 QD_TYPE_WINDOW,
                                                                                 "message_label"))),
                   ==, "Final time: “abc” is not a number; type a time after the start time 0, "
                       "such as 300");
  gtk_editable_set_text (entry, "150");
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpfloat (qd_document_get_settings (f.document)->final_time, ==, 150);
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));
  /* Nor does the refusal stay to contradict it. */
  g_assert_false (gtk_revealer_get_reveal_child (revealer));
  g_assert_cmpuint (bar_messages, ==, 2);
  g_assert_cmpuint (bar_hidden, ==, 1);

  /* Refused and left: the model's value again, unmarked. */
  gtk_editable_set_text (entry, "-5");
  g_signal_emit_by_name (entry, "activate");
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));
  gtk_window_set_focus (GTK_WINDOW (f.window), NULL);
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "150");
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));

  /* Refused, then the model's own value typed again: no change of the
   * document to hide the refusal, which goes all the same. */
  gtk_widget_grab_focus (GTK_WIDGET (entry));
  gtk_editable_set_text (entry, "-5");
  g_signal_emit_by_name (entry, "activate");
  g_assert_true (gtk_revealer_get_reveal_child (revealer));
  gtk_editable_set_text (entry, "150");
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpfloat (qd_document_get_settings (f.document)->final_time, ==, 150);
  g_assert_false (gtk_widget_has_css_class (GTK_WIDGET (entry), "error"));
  g_assert_false (gtk_revealer_get_reveal_child (revealer));
  gtk_window_set_focus (GTK_WINDOW (f.window), NULL);

  activate (&f, "run.start");
  wait_until (is_finished, &f);
  qd_run_session_get_progress (f.session, &p);
  g_assert_cmpfloat (p.time, ==, 150);
  g_assert_cmpstr (gtk_progress_bar_get_text (GTK_PROGRESS_BAR (bar_child (&f, "progress_bar"))),
                   ==, "t = 150 of 150");

  /* Undo takes the edit back, and the entry follows. */
  g_assert_true (qd_document_undo (f.document));
  g_assert_cmpfloat (qd_document_get_settings (f.document)->final_time, ==, 300);
  g_assert_cmpstr (gtk_editable_get_text (entry), ==, "300");

  /* Real time at 10x (10^1 on the log scale): 300 s would take 30 s. */
  gtk_range_set_value (GTK_RANGE (bar_child (&f, "speed_scale")), 1.0);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (bar_child (&f, "realtime_toggle")), TRUE);
  g_assert_cmpstr (bar_label (&f, "speed_label"), ==, "10×");
  f.n_finished = 0;
  f.n_running = 0;
  activate (&f, "run.start");
  runner = qd_run_session_get_runner (f.session);
  g_assert_true (qd_runner_get_realtime (runner, &speed));
  g_assert_cmpfloat (speed, ==, 10.0);
  wait_until (is_running, &f);
  activate (&f, "run.stop");
  wait_until (is_finished, &f);
  g_assert_cmpint (f.last_state, ==, QD_RUNNER_STOPPED);
  qd_run_session_get_progress (f.session, &p);
  g_assert_cmpfloat (p.time, <, 300);
  g_assert_cmpstr (bar_label (&f, "state_label"), ==, "Stopped");

  fixture_teardown (&f);
}

static void
test_export_csv (void)
{
  Fixture f;
  QdSimulation *ref;
  g_autofree char *dir = NULL;
  g_autofree char *ours = NULL;
  g_autofree char *theirs = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;
  g_autoptr(GError) error = NULL;
  gsize la, lb;

  fixture_setup (&f, qd_test_load_example ("lotka-volterra.qdevs"));

  /* Nothing to export before a run: the error says what to do. */
  dir = g_dir_make_tmp ("qd-run-ui-XXXXXX", &error);
  g_assert_no_error (error);
  ours = g_build_filename (dir, "editor.csv", NULL);
  theirs = g_build_filename (dir, "headless.csv", NULL);
  g_assert_false (qd_run_bar_export_csv (f.bar, ours, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_INVALID);
  g_assert_true (g_str_has_prefix (error->message, ours));
  g_clear_error (&error);

  activate (&f, "run.start");
  wait_until (is_finished, &f);
  g_assert_true (qd_run_bar_export_csv (f.bar, ours, &error));
  g_assert_no_error (error);

  /* The same bytes as the command line's --csv of a headless run. */
  ref = run_headless (f.document);
  g_assert_true (qd_traces_write_csv (qd_simulation_get_traces (ref),
                                      qd_simulation_get_start_time (ref),
                                      qd_simulation_get_time (ref), 0.0, theirs, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (ours, &a, &la, NULL));
  g_assert_true (g_file_get_contents (theirs, &b, &lb, NULL));
  g_assert_cmpuint (la, >, 1000);
  g_assert_cmpmem (a, la, b, lb);
  qd_simulation_free (ref);

  g_unlink (ours);
  g_unlink (theirs);
  g_rmdir (dir);
  fixture_teardown (&f);
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
      wait_frames (GTK_WIDGET (plot), 1);
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

  fixture_setup (&f, qd_test_load_example ("lotka-volterra.qdevs"));
  qd_test_set_final_time (f.document, 120.0);
  wait_frames (GTK_WIDGET (f.window), 1);
  qd_run_session_set_realtime (f.session, TRUE, 100.0);
  activate (&f, "run.start");
  plot = qd_run_session_get_plot (f.session, 0);
  g_assert_nonnull (plot);
  draws0 = qd_plot_get_n_draws (plot);
  clock = gtk_widget_get_frame_clock (GTK_WIDGET (plot));
  g_assert_nonnull (clock);
  first = gdk_frame_clock_get_frame_time (clock);
  wait_until (is_finished, &f);
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
  wait_view (plot, ends_at_120);
  qd_run_session_get_progress (f.session, &p);
  g_assert_cmpfloat (p.time, ==, 120.0);
  assert_run_equals_headless (&f);

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
        wait_frames (GTK_WIDGET (plot), 7);
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
  fixture_teardown (&f);
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
      fixture_setup (&f, g_object_ref (document));
      wait_frames (GTK_WIDGET (f.window), 1);
      thread_times (&t0);
      x0 = x_server_cpu_seconds ();
      activate (&f, "run.start");
      plot = qd_run_session_get_plot (f.session, 0);
      draws0 = qd_plot_get_n_draws (plot);
      tick = gtk_widget_add_tick_callback (GTK_WIDGET (plot), count_frame, &frames, NULL);
      wait_until (is_finished, &f);
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
      fixture_teardown (&f);
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
  sim = run_headless (document);
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
  sim = run_headless (document);
  qd_stats_view_set_simulation (stats, sim);
  g_assert_null (strchr (qd_stats_view_get_status (stats), '\n'));
  qd_simulation_free (sim);
  g_object_unref (stats);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int status;

  /* The renderer the application picks: Cairo where OpenGL is software,
   * which LIBGL_ALWAYS_SOFTWARE declares (Xvfb's is software anyway),
   * unless GSK_RENDERER says otherwise. */
  renderer_set = g_strdup (g_getenv ("GSK_RENDERER"));
  if (!qd_test_gtk_init (&argc, &argv, TRUE))
    return 0;

  app = qd_application_new (G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  g_test_add_func ("/run-ui/renderer", test_renderer);
  g_test_add_func ("/run-ui/lotka-volterra", test_run_lotka_volterra);
  g_test_add_func ("/run-ui/pause-resume-step", test_pause_resume_step);
  g_test_add_func ("/run-ui/one-event", test_one_event);
  g_test_add_func ("/run-ui/trace-budget", test_trace_budget);
  g_test_add_func ("/run-ui/earlier-runs-budget", test_earlier_runs_budget);
  g_test_add_func ("/run-ui/unconnected-input", test_unconnected_input);
  g_test_add_func ("/run-ui/run-error", test_run_error);
  g_test_add_func ("/run-ui/stats-and-badges", test_stats_and_badges);
  g_test_add_func ("/run-ui/reported-stats", test_reported_stats);
  g_test_add_func ("/run-ui/display-value", test_display_value);
  g_test_add_func ("/run-ui/transitions", test_transitions);
  g_test_add_func ("/run-ui/overlay-and-detach", test_overlay_and_detach);
  g_test_add_func ("/run-ui/final-time-and-realtime", test_final_time_and_realtime);
  g_test_add_func ("/run-ui/export-csv", test_export_csv);
  g_test_add_func ("/run-ui/live-redraw-rate", test_live_redraw_rate);
  g_test_add_func ("/run-ui/speed", test_speed);
  g_test_add_func ("/run-ui/stats-classic", test_stats_classic);

  status = g_test_run ();
  g_clear_object (&app);
  g_free (renderer_set);
  return status;
}

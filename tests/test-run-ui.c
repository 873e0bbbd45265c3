/* test-run-ui.c: running a diagram in the editor
 *
 * Drives the run bar's actions in a real window (under the display the
 * CI provides with xvfb-run; without one the test is skipped) and checks
 * that what the editor computes is exactly what a headless run computes:
 * the plots' traces bit for bit, however the run was paused or stepped,
 * within the trace budget shared with earlier runs; the problems of a
 * model that cannot run, the final time and real time, detaching a plot,
 * overlaying runs and the CSV export. What a run shows (statistics,
 * transitions, Display values, live redraws) is tested in
 * test-run-view.c.
 */
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "qd-test-gtk-util.h"
#include "qd-test-run-ui.h"
#include "qd-test-util.h"

static char *renderer_set;      /* GSK_RENDERER before the application started */

typedef QdTestRunFixture Fixture;

static gboolean
is_running (gpointer data)
{
  Fixture *f = data;

  return f->n_running > 0 || f->n_finished > 0;
}

/* Dispatches what is pending, without waiting. */
static void
flush_events (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
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
  qd_test_wait_view (plot, starts_above_zero);
  qd_plot_get_view (plot, &x0, &x1, &y0, &y1);
  g_assert_cmpfloat (x0, >, 0.0);
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (xy), FALSE);
  qd_test_wait_view (plot, starts_at_zero);
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

  qd_test_run_fixture_setup (&f, qd_test_load_example ("lotka-volterra.qdevs"));
  g_assert_cmpuint (qd_run_session_get_n_plots (f.session), ==, 0);

  qd_test_run_activate (&f, "run.start");
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
  while (!qd_test_run_is_finished (&f))
    {
      double x0, x1;

      g_main_context_iteration (NULL, TRUE);
      qd_plot_get_view (plot, &x0, &x1, NULL, NULL);
      g_assert_cmpfloat (x1, <=, 300.0);
    }

  qd_test_run_wait_until (qd_test_run_is_finished, &f);
  g_assert_cmpuint (f.n_finished, ==, 1);
  g_assert_cmpint (f.last_state, ==, QD_RUNNER_FINISHED);
  qd_test_wait_frames (GTK_WIDGET (plot), 7);
  qd_test_run_assert_equals_headless (&f);
  assert_toolbar (child, plot);

  /* The bar says so. */
  g_assert_cmpstr (bar_label (&f, "state_label"), ==, "Finished");
  g_assert_cmpstr (bar_label (&f, "rate_label"), ==, "4845 events");
  g_assert_cmpstr (gtk_progress_bar_get_text (GTK_PROGRESS_BAR (bar_child (&f, "progress_bar"))),
                   ==, "t = 300 of 300");
  g_assert_cmpfloat (gtk_progress_bar_get_fraction (GTK_PROGRESS_BAR (bar_child (&f, "progress_bar"))),
                     ==, 1.0);

  qd_test_run_fixture_teardown (&f);
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

  qd_test_run_fixture_setup (&f, qd_test_load_example ("lotka-volterra.qdevs"));
  qd_run_bar_set_step_count (f.bar, 1);
  qd_test_run_activate (&f, "run.step");
  qd_test_run_wait_until (qd_test_run_is_paused, &f);
  qd_test_wait_frames (GTK_WIDGET (f.window), 7);
  g_assert_cmpstr (bar_label (&f, "rate_label"), ==, "1 event");
  qd_test_run_fixture_teardown (&f);
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
  qd_test_run_fixture_setup (&f, qd_test_load_example ("lotka-volterra.qdevs"));
  /* About 1.6 million events: some 13 MB of segments without a budget. */
  qd_test_set_final_time (f.document, 100000);
  qd_test_run_activate (&f, "run.start");
  qd_test_run_wait_until (qd_test_run_is_finished, &f);
  g_assert_cmpint (f.last_state, ==, QD_RUNNER_FINISHED);
  qd_test_wait_frames (GTK_WIDGET (f.window), 7);

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
  qd_test_run_wait_until (plot_shows_whole_run, &f);
  qd_plot_get_view (qd_run_session_get_plot (f.session, 0), &x0, &x1, NULL, NULL);
  g_assert_cmpfloat (x0, ==, 0.0);
  g_assert_cmpfloat (x1, ==, 100000.0);

  qd_test_run_fixture_teardown (&f);
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
  qd_test_run_fixture_setup (&f, qd_test_load_example ("lotka-volterra.qdevs"));
  /* Each run alone fills its budget (see test_trace_budget). */
  qd_test_set_final_time (f.document, 100000);
  memory = qd_run_session_get_run_memory (f.session);
  for (guint run = 1; run <= 3; run++)
    {
      f.n_finished = 0;
      qd_test_run_activate (&f, "run.start");
      qd_test_run_wait_until (qd_test_run_is_finished, &f);
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
  qd_test_run_activate (&f, "run.clear-runs");
  g_assert_null (qd_run_session_get_dropped_note (f.session, 0));

  qd_test_run_fixture_teardown (&f);
  g_settings_reset (settings, "trace-memory-budget");
}

static void
test_pause_resume_step (void)
{
  Fixture f;
  QdRunnerProgress p;
  guint64 events;

  qd_test_run_fixture_setup (&f, qd_test_load_example ("lotka-volterra.qdevs"));

  /* Step 100 events, twice: paused after exactly 100 and 200. */
  qd_run_bar_set_step_count (f.bar, 100);
  qd_test_run_activate (&f, "run.step");
  qd_test_run_wait_until (qd_test_run_is_paused, &f);
  qd_run_session_get_progress (f.session, &p);
  g_assert_cmpint (p.state, ==, QD_RUNNER_PAUSED);
  g_assert_cmpuint (p.events, ==, 100);
  /* Statistics are read while paused, up to the pause. */
  g_assert_cmpuint (qd_stats_view_get_n_rows (qd_run_session_get_stats_view (f.session)), ==,
                    qd_simulation_get_n_atomics (qd_runner_get_simulation (qd_run_session_get_runner (f.session))));

  qd_test_run_activate (&f, "run.step");
  /* The state goes RUNNING, then PAUSED again. */
  qd_test_run_wait_until (qd_test_run_is_paused, &f);
  qd_run_session_get_progress (f.session, &p);
  g_assert_cmpuint (p.events, ==, 200);

  /* Resume runs to the end; pause it on the way, resume again. */
  qd_test_run_activate (&f, "run.resume");
  qd_test_run_activate (&f, "run.pause");
  qd_test_run_wait_until (qd_test_run_is_paused, &f);
  qd_run_session_get_progress (f.session, &p);
  events = p.events;
  g_assert_cmpuint (events, >=, 200);
  if (f.n_finished == 0)
    {
      qd_test_run_activate (&f, "run.toggle-pause");
      qd_test_run_wait_until (qd_test_run_is_finished, &f);
    }
  g_assert_cmpint (f.last_state, ==, QD_RUNNER_FINISHED);
  qd_test_run_assert_equals_headless (&f);

  qd_test_run_fixture_teardown (&f);
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

  qd_test_run_fixture_setup (&f, document);
  messages = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (f.window), QD_TYPE_WINDOW,
                                                        "messages_view"));
  notebook = GTK_NOTEBOOK (gtk_widget_get_template_child (GTK_WIDGET (f.window), QD_TYPE_WINDOW,
                                                          "bottom_notebook"));
  /* Another page in front, so that switching back is seen. */
  gtk_notebook_set_current_page (notebook, -1);

  qd_test_run_activate (&f, "run.start");
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

  qd_test_run_fixture_teardown (&f);
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

  qd_test_run_fixture_setup (&f, document);
  messages = QD_MESSAGES_VIEW (gtk_widget_get_template_child (GTK_WIDGET (f.window),
                                                              QD_TYPE_WINDOW, "messages_view"));
  qd_test_run_activate (&f, "run.start");
  qd_test_run_wait_until (qd_test_run_is_finished, &f);
  g_assert_cmpint (f.last_state, ==, QD_RUNNER_FAILED);
  g_assert_cmpuint (qd_messages_view_get_n_problems (messages), ==, 1);
  problem = qd_messages_view_get_problem (messages, 0);
  g_assert_cmpint (problem->code, ==, QD_ERROR_NUMERIC);
  g_assert_cmpstr (problem->path, ==, "/Division");
  g_assert_cmpstr (problem->block_id, ==, division->id);
  g_assert_cmpstr (problem->message, ==,
                   "at t = 0 the input is 0: the divisor u1 is zero; keep it away from zero");

  qd_test_run_fixture_teardown (&f);
}

static void
test_overlay_and_detach (void)
{
  Fixture f;
  QdPlot *plot;
  GtkWidget *notebook;
  GtkRoot *root;

  qd_test_run_fixture_setup (&f, qd_test_load_example ("lotka-volterra.qdevs"));
  qd_test_run_activate (&f, "run.start");
  qd_test_run_wait_until (qd_test_run_is_finished, &f);
  plot = qd_run_session_get_plot (f.session, 0);
  g_assert_cmpuint (qd_plot_get_n_earlier_runs (plot), ==, 0);

  /* A second run draws over the first, on the same plot. */
  f.n_finished = 0;
  qd_test_run_activate (&f, "run.start");
  qd_test_run_wait_until (qd_test_run_is_finished, &f);
  g_assert_true (qd_run_session_get_plot (f.session, 0) == plot);
  g_assert_cmpuint (qd_run_session_get_n_plots (f.session), ==, 1);
  g_assert_cmpuint (qd_plot_get_n_earlier_runs (plot), ==, 1);
  g_assert_cmpuint (qd_plot_get_n_traces (plot), ==, 2);
  qd_test_run_activate (&f, "run.clear-runs");
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

  qd_test_run_fixture_teardown (&f);
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

  qd_test_run_fixture_setup (&f, qd_test_load_example ("lotka-volterra.qdevs"));
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

  qd_test_run_activate (&f, "run.start");
  qd_test_run_wait_until (qd_test_run_is_finished, &f);
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
  qd_test_run_activate (&f, "run.start");
  runner = qd_run_session_get_runner (f.session);
  g_assert_true (qd_runner_get_realtime (runner, &speed));
  g_assert_cmpfloat (speed, ==, 10.0);
  qd_test_run_wait_until (is_running, &f);
  qd_test_run_activate (&f, "run.stop");
  qd_test_run_wait_until (qd_test_run_is_finished, &f);
  g_assert_cmpint (f.last_state, ==, QD_RUNNER_STOPPED);
  qd_run_session_get_progress (f.session, &p);
  g_assert_cmpfloat (p.time, <, 300);
  g_assert_cmpstr (bar_label (&f, "state_label"), ==, "Stopped");

  qd_test_run_fixture_teardown (&f);
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

  qd_test_run_fixture_setup (&f, qd_test_load_example ("lotka-volterra.qdevs"));

  /* Nothing to export before a run: the error says what to do. */
  dir = g_dir_make_tmp ("qd-run-ui-XXXXXX", &error);
  g_assert_no_error (error);
  ours = g_build_filename (dir, "editor.csv", NULL);
  theirs = g_build_filename (dir, "headless.csv", NULL);
  g_assert_false (qd_run_bar_export_csv (f.bar, ours, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_INVALID);
  g_assert_true (g_str_has_prefix (error->message, ours));
  g_clear_error (&error);

  qd_test_run_activate (&f, "run.start");
  qd_test_run_wait_until (qd_test_run_is_finished, &f);
  g_assert_true (qd_run_bar_export_csv (f.bar, ours, &error));
  g_assert_no_error (error);

  /* The same bytes as the command line's --csv of a headless run. */
  ref = qd_test_run_headless (f.document);
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
  qd_test_run_fixture_teardown (&f);
}

int
main (int    argc,
      char **argv)
{
  int status;

  /* The renderer the application picks: Cairo where OpenGL is software,
   * which LIBGL_ALWAYS_SOFTWARE declares (Xvfb's is software anyway),
   * unless GSK_RENDERER says otherwise. */
  renderer_set = g_strdup (g_getenv ("GSK_RENDERER"));
  if (!qd_test_run_init (&argc, &argv))
    return 0;

  g_test_add_func ("/run-ui/renderer", test_renderer);
  g_test_add_func ("/run-ui/lotka-volterra", test_run_lotka_volterra);
  g_test_add_func ("/run-ui/pause-resume-step", test_pause_resume_step);
  g_test_add_func ("/run-ui/one-event", test_one_event);
  g_test_add_func ("/run-ui/trace-budget", test_trace_budget);
  g_test_add_func ("/run-ui/earlier-runs-budget", test_earlier_runs_budget);
  g_test_add_func ("/run-ui/unconnected-input", test_unconnected_input);
  g_test_add_func ("/run-ui/run-error", test_run_error);
  g_test_add_func ("/run-ui/overlay-and-detach", test_overlay_and_detach);
  g_test_add_func ("/run-ui/final-time-and-realtime", test_final_time_and_realtime);
  g_test_add_func ("/run-ui/export-csv", test_export_csv);

  status = g_test_run ();
  qd_test_run_finish ();
  g_free (renderer_set);
  return status;
}

/* qd-test-run-ui.c: a window running a diagram, for the run tests */
#include "qd-test-run-ui.h"

#include <string.h>

#include "qd-test-gtk-util.h"
#include "qd-test-util.h"

QdApplication *qd_test_run_app;

gboolean
qd_test_run_init (int    *argc,
                  char ***argv)
{
  g_autoptr(GError) error = NULL;

  if (!qd_test_gtk_init (argc, argv, TRUE))
    return FALSE;
  qd_test_run_app = qd_application_new (G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (qd_test_run_app), NULL, &error);
  g_assert_no_error (error);
  return TRUE;
}

void
qd_test_run_finish (void)
{
  g_clear_object (&qd_test_run_app);
}

static void
on_progress (QdRunSession     *session,
             QdTestRunFixture *f)
{
  QdRunnerProgress p;

  qd_run_session_get_progress (session, &p);
  if (p.state == QD_RUNNER_PAUSED)
    f->n_paused++;
  else if (p.state == QD_RUNNER_RUNNING)
    f->n_running++;
}

static void
on_finished (QdRunSession     *session,
             QdRunnerState     state,
             const GError     *error,
             QdTestRunFixture *f)
{
  f->n_finished++;
  f->last_state = state;
}

void
qd_test_run_fixture_setup (QdTestRunFixture *f,
                           QdDocument       *document)
{
  memset (f, 0, sizeof *f);
  f->window = qd_window_new (GTK_APPLICATION (qd_test_run_app));
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

void
qd_test_run_fixture_teardown (QdTestRunFixture *f)
{
  g_signal_handlers_disconnect_by_data (f->session, f);
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_clear_object (&f->document);
}

void
qd_test_run_wait_until_at (gboolean        (*done) (gpointer f),
                           QdTestRunFixture *f,
                           int               line)
{
  if (!qd_test_iterate_until (done, f, 60))
    g_error ("line %d: the run did not get there within 60 s", line);
}

gboolean
qd_test_run_is_finished (gpointer data)
{
  QdTestRunFixture *f = data;

  return f->n_finished > 0;
}

gboolean
qd_test_run_is_paused (gpointer data)
{
  QdTestRunFixture *f = data;

  return f->n_paused > 0 || f->n_finished > 0;
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

void
qd_test_wait_frames (GtkWidget *widget,
                     guint      n)
{
  guint left = n;

  gtk_widget_add_tick_callback (widget, on_tick, &left, NULL);
  while (left > 0)
    g_main_context_iteration (NULL, TRUE);
}

void
qd_test_wait_view_at (QdPlot      *plot,
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
      qd_test_wait_frames (GTK_WIDGET (plot), 1);
    }
}

void
qd_test_run_activate (QdTestRunFixture *f,
                      const char       *action)
{
  /* Before: a short step may be over within the call. */
  f->n_paused = 0;
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (f->bar), action, NULL));
}

QdSimulation *
qd_test_run_headless (QdDocument *document)
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

void
qd_test_run_assert_equals_headless (QdTestRunFixture *f)
{
  QdRunner *runner = qd_run_session_get_runner (f->session);
  QdSimulation *sim = qd_runner_get_simulation (runner);
  QdSimulation *ref = qd_test_run_headless (f->document);
  GPtrArray *traces = qd_simulation_get_traces (sim);
  GPtrArray *ref_traces = qd_simulation_get_traces (ref);

  g_assert_cmpint (qd_runner_get_state (runner), ==, QD_RUNNER_FINISHED);
  g_assert_cmpuint (traces->len, ==, ref_traces->len);
  for (guint i = 0; i < traces->len; i++)
    assert_traces_equal (g_ptr_array_index (traces, i), g_ptr_array_index (ref_traces, i));
  g_assert_cmpuint (qd_simulation_get_events (sim), ==, qd_simulation_get_events (ref));
  qd_simulation_free (ref);
}

/* test-runner.c: the worker-thread runner
 *
 * Every command sequence (pause and resume, steps, run-until, real-time
 * pacing, stop) must leave traces identical, segment by segment and bit
 * for bit, to one uninterrupted qd_simulation_run() of the same model; a
 * stop must take effect; real time must never run ahead of the wall
 * clock; a failing model must report its block through "finished". The
 * tests run a GMainLoop: the runner's signals arrive on this thread's
 * context, and the tests wait for them, not for fixed times. How fast a
 * stop lands and how closely real time tracks the clock depend on the
 * machine's load: those figures are printed, not asserted.
 */
#include "qd-test-util.h"

#include <math.h>
#include <string.h>
#include <time.h>

/* -------------------------------------------------------------------- */
/* Models */

static QdBlock *
add (QdDocument *doc,
     const char *type,
     const char *name,
     ...)
{
  g_autoptr(GError) error = NULL;
  QdBlock *block = qd_document_add_block (doc, qd_document_get_root (doc),
                                          type, name, 0, 0, &error);
  va_list args;

  g_assert_no_error (error);
  va_start (args, name);
  for (const char *param = va_arg (args, const char *); param != NULL;
       param = va_arg (args, const char *))
    {
      const char *value = va_arg (args, const char *);

      g_assert_true (qd_document_set_param (doc, block, param, value, &error));
      g_assert_no_error (error);
    }
  va_end (args);
  return block;
}

static void
connect (QdDocument *doc,
         QdBlock    *src,
         QdBlock    *dst,
         guint       dst_port)
{
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (qd_document_connect (doc, qd_document_get_root (doc),
                                         src->id, 0, dst->id, dst_port,
                                         &error));
  g_assert_no_error (error);
}

/* The harmonic oscillator x1' = x2, x2' = -x1, x1(0) = 1: two integrators
 * and a gain. @n_scoped (0, 1 or 2) of the states go to a scope. */
static QdDocument *
oscillator (const char *method,
            double      dq,
            double      final_time,
            guint       n_scoped)
{
  QdDocument *doc = qd_document_new ();
  QdSettings settings = *qd_document_get_settings (doc);
  g_autoptr(GError) error = NULL;
  QdBlock *x1, *x2, *gain;

  settings.method = (char *) method;
  settings.dqmin = dq;
  settings.dqrel = 0;
  settings.final_time = final_time;
  g_assert_true (qd_document_set_settings (doc, &settings, &error));
  g_assert_no_error (error);

  x1 = add (doc, "integrator", "x1", "x0", "1", NULL);
  x2 = add (doc, "integrator", "x2", NULL);
  gain = add (doc, "gain", "Gain", "k", "-1", NULL);
  connect (doc, x1, gain, 0);
  connect (doc, gain, x2, 0);
  connect (doc, x2, x1, 0);
  if (n_scoped > 0)
    {
      QdBlock *scope = add (doc, "scope", "Scope",
                            "n", n_scoped == 2 ? "2" : "1",
                            "names", "x1, x2", NULL);

      connect (doc, x1, scope, 0);
      if (n_scoped == 2)
        connect (doc, x2, scope, 1);
    }
  return doc;
}

/* The shipped Lotka-Volterra example when it is there, else a short
 * oscillator. */
static QdDocument *
example_document (void)
{
  g_autofree char *path = qd_test_source_path ("data", "examples",
                                               "lotka-volterra.qdevs", NULL);
  g_autoptr(GError) error = NULL;
  QdDocument *doc;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return oscillator ("QSS2", 1e-4, 20, 2);
  doc = qd_document_load (path, &error);
  g_assert_no_error (error);
  return doc;
}

static QdSimulation *
compile (QdDocument *doc)
{
  g_autoptr(GError) error = NULL;
  QdSimulation *sim = qd_simulation_new (doc, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (sim);
  return sim;
}

/* One uninterrupted headless run. */
static QdSimulation *
reference_run (QdDocument *doc)
{
  QdSimulation *sim = compile (doc);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
  g_assert_no_error (error);
  return sim;
}

static gboolean
same_bits (double a,
           double b)
{
  return memcmp (&a, &b, sizeof a) == 0;
}

/* Same traces, segment by segment, bit for bit, closed at the same time. */
static void
assert_traces_identical (QdSimulation *expected,
                         QdSimulation *actual)
{
  GPtrArray *te = qd_simulation_get_traces (expected);
  GPtrArray *ta = qd_simulation_get_traces (actual);

  g_assert_cmpuint (te->len, >, 0);
  g_assert_cmpuint (ta->len, ==, te->len);
  for (guint k = 0; k < te->len; k++)
    {
      QdTrace *e = g_ptr_array_index (te, k);
      QdTrace *a = g_ptr_array_index (ta, k);
      gsize n = qd_trace_get_length (e);
      double end_e = NAN, end_a = NAN;

      g_assert_cmpstr (qd_trace_get_name (a), ==, qd_trace_get_name (e));
      g_assert_cmpuint (n, >, 1);
      g_assert_cmpuint (qd_trace_get_length (a), ==, n);
      for (gsize i = 0; i < n; i++)
        {
          const QdSignal *se = qd_trace_get (e, i);
          const QdSignal *sa = qd_trace_get (a, i);
          gboolean same = same_bits (se->t, sa->t) && se->order == sa->order
                          && se->tag == sa->tag;

          for (guint c = 0; c <= QD_MAX_ORDER; c++)
            same = same && same_bits (se->c[c], sa->c[c]);
          if (!same)
            g_error ("%s: segment %" G_GSIZE_FORMAT " differs: t %.17g / %.17g, "
                     "c0 %.17g / %.17g", qd_trace_get_name (e), i, se->t, sa->t,
                     se->c[0], sa->c[0]);
        }
      g_assert_true (qd_trace_is_closed (e, &end_e));
      g_assert_true (qd_trace_is_closed (a, &end_a));
      g_assert_true (same_bits (end_e, end_a));
    }
}

/* -------------------------------------------------------------------- */
/* Driving the runner from a main loop */

typedef struct
{
  GMainLoop     *loop;
  QdRunner      *runner;
  GArray        *states;         /* QdRunnerState, every notification */
  QdRunnerState  want;
  gboolean       waiting;
  guint          n_finished;
  QdRunnerState  finished_state;
  GError        *error;
  gint64         finished_at;
  guint          n_progress;
  double         last_time;
  double         max_eps;
  gboolean       monotonic;
  guint          want_progress;  /* quit the loop at this many progress */
  /* Pause at the first progress past this many events (G_MAXUINT64:
   * do not). */
  guint64        pause_after;
  /* Real time: the wall clock when the pace began and the simulated
   * time it began from, the worst lag behind the clock and the most
   * it ever ran ahead of it (simulated seconds). */
  gint64         rt_start;
  double         rt_from;
  double         rt_speed;
  double         rt_max_lag;
  double         rt_max_ahead;
} Ctx;

static gboolean
is_terminal (QdRunnerState state)
{
  return state == QD_RUNNER_FINISHED || state == QD_RUNNER_STOPPED
         || state == QD_RUNNER_FAILED;
}

static void
on_notify_state (QdRunner   *runner,
                 GParamSpec *pspec,
                 Ctx        *ctx)
{
  QdRunnerState state;

  (void) pspec;
  g_object_get (runner, "state", &state, NULL);
  g_array_append_val (ctx->states, state);
  if (ctx->waiting && (state == ctx->want || is_terminal (state)))
    g_main_loop_quit (ctx->loop);
}

static void
on_finished (QdRunner      *runner,
             QdRunnerState  state,
             const GError  *error,
             Ctx           *ctx)
{
  (void) runner;
  ctx->n_finished++;
  ctx->finished_state = state;
  ctx->finished_at = g_get_monotonic_time ();
  g_clear_error (&ctx->error);
  if (error != NULL)
    ctx->error = g_error_copy (error);
  if (ctx->waiting)
    g_main_loop_quit (ctx->loop);
}

static void
on_progress (QdRunner *runner,
             Ctx      *ctx)
{
  QdRunnerProgress p;

  qd_runner_get_progress (runner, &p);
  ctx->n_progress++;
  if (p.time < ctx->last_time || p.fraction < 0 || p.fraction > 1)
    ctx->monotonic = FALSE;
  ctx->last_time = p.time;
  ctx->max_eps = MAX (ctx->max_eps, p.events_per_second);
  if (ctx->rt_start != 0 && p.state == QD_RUNNER_RUNNING)
    {
      /* Read after the worker published p: the clock has only moved on
       * since, so p can never be ahead of it. */
      double wall = (double) (g_get_monotonic_time () - ctx->rt_start)
                    / G_USEC_PER_SEC;
      double paced = ctx->rt_from + wall * ctx->rt_speed;

      ctx->rt_max_ahead = MAX (ctx->rt_max_ahead, p.time - paced);
      /* The first frame is the thread starting. */
      if (wall > 0.1)
        ctx->rt_max_lag = MAX (ctx->rt_max_lag, (paced - p.time) / ctx->rt_speed);
    }
  if (p.state == QD_RUNNER_RUNNING && p.events > ctx->pause_after)
    {
      ctx->pause_after = G_MAXUINT64;
      qd_runner_pause (runner);
    }
  if (ctx->want_progress != 0 && ctx->n_progress >= ctx->want_progress)
    {
      ctx->want_progress = 0;
      g_main_loop_quit (ctx->loop);
    }
}

static void
ctx_init (Ctx          *ctx,
          QdSimulation *sim)
{
  memset (ctx, 0, sizeof *ctx);
  ctx->loop = g_main_loop_new (NULL, FALSE);
  ctx->states = g_array_new (FALSE, FALSE, sizeof (QdRunnerState));
  ctx->monotonic = TRUE;
  ctx->pause_after = G_MAXUINT64;
  ctx->rt_max_ahead = -G_MAXDOUBLE;
  ctx->runner = qd_runner_new (sim);
  g_signal_connect (ctx->runner, "notify::state",
                    G_CALLBACK (on_notify_state), ctx);
  g_signal_connect (ctx->runner, "finished", G_CALLBACK (on_finished), ctx);
  g_signal_connect (ctx->runner, "progress", G_CALLBACK (on_progress), ctx);
  g_assert_cmpint (qd_runner_get_state (ctx->runner), ==, QD_RUNNER_IDLE);
}

static void
ctx_clear (Ctx *ctx)
{
  g_clear_object (&ctx->runner);
  g_array_unref (ctx->states);
  g_clear_error (&ctx->error);
  g_main_loop_unref (ctx->loop);
}

static gboolean
on_timeout_fail (gpointer data)
{
  (void) data;
  g_error ("the runner did not reach the expected state within 60 s");
  return G_SOURCE_REMOVE;
}

static QdRunnerState
last_notified (Ctx *ctx)
{
  if (ctx->states->len == 0)
    return QD_RUNNER_IDLE;
  return g_array_index (ctx->states, QdRunnerState, ctx->states->len - 1);
}

/* Runs the main loop until @want (or a terminal state) is notified. */
static QdRunnerState
wait_for (Ctx           *ctx,
          QdRunnerState  want)
{
  guint guard;

  if (last_notified (ctx) != want && !is_terminal (last_notified (ctx)))
    {
      ctx->want = want;
      ctx->waiting = TRUE;
      guard = g_timeout_add_seconds (60, on_timeout_fail, NULL);
      g_main_loop_run (ctx->loop);
      g_source_remove (guard);
      ctx->waiting = FALSE;
    }
  return last_notified (ctx);
}

static void
wait_finished (Ctx *ctx)
{
  guint guard;

  if (ctx->n_finished > 0)
    return;
  ctx->want = QD_RUNNER_FINISHED;
  ctx->waiting = TRUE;
  guard = g_timeout_add_seconds (60, on_timeout_fail, NULL);
  while (ctx->n_finished == 0)
    g_main_loop_run (ctx->loop);
  g_source_remove (guard);
  ctx->waiting = FALSE;
}

/* Runs the main loop until @n more progress signals have come (about
 * 30 a second while the worker runs): the run has moved on. */
static void
wait_progress (Ctx  *ctx,
               guint n)
{
  guint guard = g_timeout_add_seconds (60, on_timeout_fail, NULL);

  ctx->want_progress = ctx->n_progress + n;
  g_main_loop_run (ctx->loop);
  g_source_remove (guard);
}

/* Dispatches whatever the runner has sent, without waiting. */
static void
flush (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static double
cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

/* -------------------------------------------------------------------- */
/* Identity with one uninterrupted run */

static void
test_run (void)
{
  g_autoptr(QdDocument) doc = example_document ();
  QdSimulation *reference = reference_run (doc);
  QdSimulation *sim = compile (doc);
  QdRunnerProgress p;
  Ctx ctx;

  ctx_init (&ctx, sim);
  g_assert_true (qd_runner_get_simulation (ctx.runner) == sim);
  qd_runner_run (ctx.runner);
  wait_finished (&ctx);

  g_assert_cmpint (ctx.finished_state, ==, QD_RUNNER_FINISHED);
  g_assert_null (ctx.error);
  g_assert_cmpint (qd_runner_get_state (ctx.runner), ==, QD_RUNNER_FINISHED);
  g_assert_cmpuint (ctx.states->len, ==, 2);
  g_assert_cmpint (g_array_index (ctx.states, QdRunnerState, 0), ==,
                   QD_RUNNER_RUNNING);
  g_assert_cmpint (g_array_index (ctx.states, QdRunnerState, 1), ==,
                   QD_RUNNER_FINISHED);
  assert_traces_identical (reference, sim);

  qd_runner_get_progress (ctx.runner, &p);
  g_assert_cmpint (p.state, ==, QD_RUNNER_FINISHED);
  g_assert_cmpfloat (p.time, ==, qd_simulation_get_final_time (sim));
  g_assert_cmpfloat (p.fraction, ==, 1.0);
  g_assert_cmpuint (p.events, ==, qd_simulation_get_events (reference));
  g_assert_cmpfloat (p.events_per_second, ==, 0);
  g_assert_cmpfloat (p.wall_time, >, 0);
  g_assert_true (ctx.monotonic);

  /* Terminal: every command is ignored, "finished" came once. */
  qd_runner_run (ctx.runner);
  qd_runner_step (ctx.runner, 10);
  qd_runner_resume (ctx.runner);
  qd_runner_stop (ctx.runner);
  flush ();
  g_assert_cmpint (qd_runner_get_state (ctx.runner), ==, QD_RUNNER_FINISHED);
  g_assert_cmpuint (ctx.n_finished, ==, 1);
  g_assert_cmpuint (ctx.states->len, ==, 2);

  ctx_clear (&ctx);
  qd_simulation_free (reference);
}

/* Steps of assorted sizes: each executes exactly its number of events,
 * then pauses; the last one reaches the end. */
static void
test_step (void)
{
  static const guint64 sizes[] = { 1, 2, 3, 10, 1, 97, 500, 7 };
  g_autoptr(QdDocument) doc = example_document ();
  QdSimulation *reference = reference_run (doc);
  QdSimulation *sim = compile (doc);
  guint64 total = qd_simulation_get_events (reference);
  guint n_steps = 0;
  Ctx ctx;

  ctx_init (&ctx, sim);
  for (guint k = 0; ; k++)
    {
      guint64 n = sizes[k % G_N_ELEMENTS (sizes)];
      guint64 before = qd_simulation_get_events (sim);
      QdRunnerState state;

      qd_runner_step (ctx.runner, n);
      state = wait_for (&ctx, QD_RUNNER_PAUSED);
      if (state == QD_RUNNER_FINISHED)
        {
          g_assert_cmpuint (qd_simulation_get_events (sim) - before, <=, n);
          break;
        }
      g_assert_cmpint (state, ==, QD_RUNNER_PAUSED);
      g_assert_cmpuint (qd_simulation_get_events (sim) - before, ==, n);
      n_steps++;
    }
  wait_finished (&ctx);
  g_assert_cmpint (ctx.finished_state, ==, QD_RUNNER_FINISHED);
  g_assert_cmpuint (n_steps, >, 10);
  g_assert_cmpuint (qd_simulation_get_events (sim), ==, total);
  /* RUNNING and PAUSED alternate: a notification for every step. */
  g_assert_cmpuint (ctx.states->len, ==, 2 * n_steps + 2);
  assert_traces_identical (reference, sim);

  ctx_clear (&ctx);
  qd_simulation_free (reference);
}

/* Run-until stops with the clock exactly at the time asked; then a step
 * and a run to the end. */
static void
test_run_until (void)
{
  g_autoptr(QdDocument) doc = example_document ();
  QdSimulation *reference = reference_run (doc);
  QdSimulation *sim = compile (doc);
  double final_time = qd_simulation_get_final_time (sim);
  guint64 previous = 0;
  Ctx ctx;

  ctx_init (&ctx, sim);
  for (int k = 1; k <= 6; k++)
    {
      double t = final_time * k / 7.0;
      QdRunnerProgress p;

      qd_runner_run_until (ctx.runner, t);
      g_assert_cmpint (wait_for (&ctx, QD_RUNNER_PAUSED), ==, QD_RUNNER_PAUSED);
      qd_runner_get_progress (ctx.runner, &p);
      g_assert_cmpfloat (p.time, ==, t);
      g_assert_cmpfloat_with_epsilon (p.fraction, k / 7.0, 1e-12);
      g_assert_cmpuint (p.events, >, previous);
      previous = p.events;
      g_assert_cmpfloat (qd_simulation_get_next_time (sim), >=, t);
    }
  /* Asking for a time already passed does nothing but pause again. */
  qd_runner_run_until (ctx.runner, final_time / 7.0);
  g_assert_cmpint (wait_for (&ctx, QD_RUNNER_PAUSED), ==, QD_RUNNER_PAUSED);
  g_assert_cmpuint (qd_simulation_get_events (sim), ==, previous);

  qd_runner_step (ctx.runner, 3);
  g_assert_cmpint (wait_for (&ctx, QD_RUNNER_PAUSED), ==, QD_RUNNER_PAUSED);
  g_assert_cmpuint (qd_simulation_get_events (sim), ==, previous + 3);
  /* Resuming with nothing to resume runs to the end. */
  qd_runner_resume (ctx.runner);
  wait_finished (&ctx);
  g_assert_cmpint (ctx.finished_state, ==, QD_RUNNER_FINISHED);
  assert_traces_identical (reference, sim);

  ctx_clear (&ctx);
  qd_simulation_free (reference);
}

/* Pauses in the middle of a long run, at whatever event the worker is at
 * when a progress signal comes, then resumes; while paused nothing
 * moves. */
static void
test_pause_resume (void)
{
  g_autoptr(QdDocument) doc = oscillator ("QSS1", 1e-4, 300, 1);
  QdSimulation *reference;
  QdSimulation *sim = compile (doc);
  double final_time = qd_simulation_get_final_time (sim);
  guint n_pauses = 0;
  gint64 start;
  Ctx ctx;

  start = g_get_monotonic_time ();
  reference = reference_run (doc);
  g_test_message ("uninterrupted: %" G_GUINT64_FORMAT " events in %.3f s",
                  qd_simulation_get_events (reference),
                  (double) (g_get_monotonic_time () - start) / G_USEC_PER_SEC);

  ctx_init (&ctx, sim);
  ctx.pause_after = 0;
  qd_runner_run (ctx.runner);
  for (;;)
    {
      QdRunnerProgress p, q;

      if (wait_for (&ctx, QD_RUNNER_PAUSED) != QD_RUNNER_PAUSED)
        break;
      n_pauses++;
      qd_runner_get_progress (ctx.runner, &p);
      g_assert_cmpint (p.state, ==, QD_RUNNER_PAUSED);
      g_assert_cmpfloat (p.time, <, final_time);
      /* A worker that went on would have moved by now: give it the
       * processor for a moment (a pause that holds cannot fail this). */
      g_thread_yield ();
      flush ();
      qd_runner_get_progress (ctx.runner, &q);
      g_assert_cmpint (q.state, ==, QD_RUNNER_PAUSED);
      g_assert_cmpuint (q.events, ==, p.events);
      g_assert_true (same_bits (q.time, p.time));
      g_assert_cmpfloat (q.wall_time, ==, p.wall_time);
      /* The next pause comes at a progress signal past this point. */
      ctx.pause_after = p.events;
      g_array_set_size (ctx.states, 0);
      qd_runner_resume (ctx.runner);
    }
  wait_finished (&ctx);
  g_test_message ("%u pauses", n_pauses);
  g_assert_cmpint (ctx.finished_state, ==, QD_RUNNER_FINISHED);
  g_assert_cmpuint (n_pauses, >=, 2);
  assert_traces_identical (reference, sim);

  ctx_clear (&ctx);
  qd_simulation_free (reference);
}

/* A stop ends the run where it is: the traces are exactly those of a
 * headless run of the same number of events, closed there. */
static void
test_stop_identical (void)
{
  g_autoptr(QdDocument) doc = oscillator ("QSS1", 2e-5, 1e6, 2);
  QdSimulation *sim = compile (doc);
  QdSimulation *reference = compile (doc);
  g_autoptr(GError) error = NULL;
  QdRunnerProgress p;
  Ctx ctx;

  ctx_init (&ctx, sim);
  qd_runner_run (ctx.runner);
  wait_progress (&ctx, 1);
  qd_runner_stop (ctx.runner);
  wait_finished (&ctx);
  g_assert_cmpint (ctx.finished_state, ==, QD_RUNNER_STOPPED);
  g_assert_null (ctx.error);
  qd_runner_get_progress (ctx.runner, &p);
  g_assert_cmpint (p.state, ==, QD_RUNNER_STOPPED);
  g_assert_cmpuint (p.events, >, 0);
  g_assert_cmpfloat (p.time, <, 1e6);

  g_assert_cmpint (qd_simulation_step (reference, p.events, &error), ==,
                   QD_RUN_STEPPED);
  g_assert_no_error (error);
  qd_simulation_finish (reference);
  assert_traces_identical (reference, sim);

  /* Stopped for good. */
  qd_runner_resume (ctx.runner);
  flush ();
  g_assert_cmpint (qd_runner_get_state (ctx.runner), ==, QD_RUNNER_STOPPED);
  g_assert_cmpuint (qd_simulation_get_events (sim), ==, p.events);

  ctx_clear (&ctx);
  qd_simulation_free (reference);
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

/* A stop in the middle of a long run, over several trials, at a later
 * progress signal each time: "finished" comes, stopped, short of the
 * final time. The worker sees the stop within 1024 events (well under a
 * millisecond here); what remains is the scheduling of two threads, which
 * depends on the machine's load: the time from stop to "finished" is
 * printed, not asserted. */
static void
test_stop_latency (void)
{
  g_autoptr(QdDocument) doc = oscillator ("QSS1", 1e-6, 1e9, 0);
  enum { N_TRIALS = 9 };
  double latencies[N_TRIALS];
  double sum = 0;

  for (int k = 0; k < N_TRIALS; k++)
    {
      Ctx ctx;
      gint64 asked;

      ctx_init (&ctx, compile (doc));
      qd_runner_run (ctx.runner);
      wait_progress (&ctx, 1 + k);
      g_assert_cmpint (qd_runner_get_state (ctx.runner), ==, QD_RUNNER_RUNNING);
      asked = g_get_monotonic_time ();
      qd_runner_stop (ctx.runner);
      wait_finished (&ctx);
      latencies[k] = (double) (ctx.finished_at - asked) / 1000.0;
      g_assert_cmpint (ctx.finished_state, ==, QD_RUNNER_STOPPED);
      g_assert_cmpuint (qd_simulation_get_events (qd_runner_get_simulation (ctx.runner)),
                        >, 0);
      g_assert_cmpfloat (qd_simulation_get_time (qd_runner_get_simulation (ctx.runner)),
                         <, 1e9);
      sum += latencies[k];
      ctx_clear (&ctx);
    }
  qsort (latencies, N_TRIALS, sizeof (double), compare_double);
  g_test_message ("stop latency over %d trials: median %.3f ms, mean %.3f ms, "
                  "worst %.3f ms", N_TRIALS, latencies[N_TRIALS / 2],
                  sum / N_TRIALS, latencies[N_TRIALS - 1]);
  if (g_test_verbose ())
    g_printerr ("# stop latency: median %.3f ms, mean %.3f ms, worst %.3f ms\n",
                latencies[N_TRIALS / 2], sum / N_TRIALS,
                latencies[N_TRIALS - 1]);
}

/* -------------------------------------------------------------------- */
/* Real time */

static void
check_realtime (double speed,
                double final_time)
{
  g_autoptr(QdDocument) doc = oscillator ("QSS2", 1e-5, final_time, 2);
  QdSimulation *reference = reference_run (doc);
  QdSimulation *sim = compile (doc);
  double expected = final_time / speed;
  double rate, wall, cpu0, cpu;
  gint64 start;
  Ctx ctx;

  ctx_init (&ctx, sim);
  qd_runner_set_realtime (ctx.runner, TRUE, speed);
  g_assert_true (qd_runner_get_realtime (ctx.runner, &rate));
  g_assert_cmpfloat (rate, ==, speed);
  ctx.rt_speed = speed;
  ctx.rt_from = 0;
  cpu0 = cpu_seconds ();
  start = ctx.rt_start = g_get_monotonic_time ();
  qd_runner_run (ctx.runner);
  wait_finished (&ctx);
  wall = (double) (ctx.finished_at - start) / G_USEC_PER_SEC;
  cpu = cpu_seconds () - cpu0;

  g_test_message ("real time at %gx: %g s simulated (%" G_GUINT64_FORMAT
                  " events) in %.4f s of wall time (expected %g s, %+.2f %%); "
                  "worst lag %.4f s; %.4f s of CPU; %u progress signals",
                  speed, final_time, qd_simulation_get_events (sim), wall,
                  expected, 100 * (wall - expected) / expected, ctx.rt_max_lag,
                  cpu, ctx.n_progress);
  /* How closely it follows the clock depends on the load; that it never
   * runs ahead of it does not: the worker runs no event before its time
   * on the clock, which started after ctx.rt_start. */
  if (g_test_verbose ())
    g_printerr ("# real time %gx: wall %.4f s for %g s expected (%+.2f %%), "
                "worst lag %.4f s, CPU %.4f s\n", speed, wall, expected,
                100 * (wall - expected) / expected, ctx.rt_max_lag, cpu);
  g_assert_cmpint (ctx.finished_state, ==, QD_RUNNER_FINISHED);
  g_assert_cmpuint (ctx.n_progress, >, 2);
  g_assert_cmpfloat (ctx.rt_max_ahead, <=, 1e-9 * final_time);
  g_assert_cmpfloat (wall, >=, expected * (1 - 1e-9));
  /* It sleeps: a busy wait would use a whole core for the whole time (a
   * loaded machine gives it less, never more). */
  g_assert_cmpfloat (cpu, <, 0.5 * wall);
  /* Pacing changes nothing in the result. */
  assert_traces_identical (reference, sim);

  ctx_clear (&ctx);
  qd_simulation_free (reference);
}

static void
test_realtime_1x (void)
{
  check_realtime (1.0, 2.0);
}

static void
test_realtime_5x (void)
{
  check_realtime (5.0, 10.0);
}

/* Switching real time on in the middle of a fast run paces it from
 * there: from a pause (the point it starts from is then known exactly)
 * it moves on, never ahead of 100x on the clock. Switching it off lets
 * it run out: 10^5 time units, which at 100x would take 1000 s. */
static void
test_realtime_switch (void)
{
  g_autoptr(QdDocument) doc = oscillator ("QSS2", 1e-3, 1e5, 0);
  QdRunnerProgress p, q;
  double speed = 0;
  Ctx ctx;

  ctx_init (&ctx, compile (doc));
  qd_runner_run (ctx.runner);
  wait_progress (&ctx, 1);
  qd_runner_pause (ctx.runner);
  g_assert_cmpint (wait_for (&ctx, QD_RUNNER_PAUSED), ==, QD_RUNNER_PAUSED);
  qd_runner_get_progress (ctx.runner, &p);

  qd_runner_set_realtime (ctx.runner, TRUE, 1000);
  g_assert_true (qd_runner_get_realtime (ctx.runner, &speed));
  g_assert_cmpfloat (speed, ==, 100);
  ctx.rt_speed = speed;
  ctx.rt_from = p.time;
  ctx.rt_start = g_get_monotonic_time ();
  qd_runner_resume (ctx.runner);
  /* Paced, it moves on (a few frames of the clock are enough). */
  do
    {
      wait_progress (&ctx, 1);
      qd_runner_get_progress (ctx.runner, &q);
    }
  while (q.time <= p.time);
  g_test_message ("paced at 100x from t = %g: t = %g after %u progress "
                  "signals, at most %g ahead of the clock", p.time, q.time,
                  ctx.n_progress, ctx.rt_max_ahead);
  g_assert_cmpfloat (ctx.rt_max_ahead, <=, 1e-9 * 1e5);
  g_assert_cmpint (qd_runner_get_state (ctx.runner), ==, QD_RUNNER_RUNNING);

  ctx.rt_start = 0;
  qd_runner_set_realtime (ctx.runner, FALSE, 1);
  g_assert_false (qd_runner_get_realtime (ctx.runner, NULL));
  wait_finished (&ctx);
  g_assert_cmpint (ctx.finished_state, ==, QD_RUNNER_FINISHED);
  qd_runner_get_progress (ctx.runner, &q);
  g_assert_cmpfloat (q.time, ==, 1e5);
  ctx_clear (&ctx);
}

/* -------------------------------------------------------------------- */
/* Progress and life cycle */

static void
test_progress (void)
{
  g_autoptr(QdDocument) doc = oscillator ("QSS1", 1e-6, 1e9, 0);
  QdRunnerProgress p;
  Ctx ctx;

  ctx_init (&ctx, compile (doc));
  qd_runner_run (ctx.runner);
  wait_progress (&ctx, 20);
  qd_runner_get_progress (ctx.runner, &p);
  qd_runner_stop (ctx.runner);
  wait_finished (&ctx);
  g_test_message ("%u progress signals in %.3f s; %.3g events per second",
                  ctx.n_progress, p.wall_time, ctx.max_eps);
  g_assert_cmpint (p.state, ==, QD_RUNNER_RUNNING);
  g_assert_cmpfloat (p.wall_time, >, 0);
  g_assert_cmpfloat (p.fraction, >, 0);
  g_assert_cmpfloat (p.fraction, <, 1e-3);
  g_assert_true (ctx.monotonic);
  /* About 30 a second, plus one per change of state: never more (a
   * loaded machine may dispatch fewer). */
  g_assert_cmpuint (ctx.n_progress, >=, 20);
  g_assert_cmpuint (ctx.n_progress, <=, (guint) (p.wall_time * 33) + 4);
  /* The rate over the last second agrees with the whole run's: 20
   * signals are fewer than the samples the rate is taken over, so both
   * span the whole run. */
  g_assert_cmpfloat (p.events_per_second, >, 0.5 * p.events / p.wall_time);
  g_assert_cmpfloat (p.events_per_second, <, 2.0 * p.events / p.wall_time);
  ctx_clear (&ctx);
}

/* Dropping the runner in the middle of a run stops the worker (its
 * thread is joined when the last reference goes) and sends nothing more.
 * How long that takes is printed. */
static void
test_dispose_running (void)
{
  g_autoptr(QdDocument) doc = oscillator ("QSS1", 1e-6, 1e9, 1);

  for (int realtime = 0; realtime <= 1; realtime++)
    {
      Ctx ctx;
      gint64 start;

      ctx_init (&ctx, compile (doc));
      qd_runner_set_realtime (ctx.runner, realtime, 0.1);
      qd_runner_run (ctx.runner);
      wait_progress (&ctx, 1);
      start = g_get_monotonic_time ();
      g_clear_object (&ctx.runner);
      g_test_message ("%s run dropped in %.3f ms", realtime ? "a real-time" : "a",
                      (g_get_monotonic_time () - start) / 1000.0);
      flush ();
      g_assert_cmpuint (ctx.n_finished, ==, 0);
      ctx_clear (&ctx);
    }
}

/* -------------------------------------------------------------------- */
/* Failures */

/* A constant through a chain of 12 gains makes 13 transitions at t = 0,
 * and the model allows 10. */
static QdDocument *
illegitimate_document (void)
{
  g_autofree char *text = qd_test_illegitimate_chain ();
  g_autoptr(GError) error = NULL;
  QdDocument *doc;

  doc = qd_document_load_data (text, strlen (text), "illegitimate.qdevs",
                               &error);
  g_assert_no_error (error);
  return doc;
}

static void
test_illegitimate (void)
{
  g_autoptr(QdDocument) doc = illegitimate_document ();
  Ctx ctx;

  ctx_init (&ctx, compile (doc));
  qd_runner_run (ctx.runner);
  wait_finished (&ctx);
  g_assert_cmpint (ctx.finished_state, ==, QD_RUNNER_FAILED);
  g_assert_cmpint (qd_runner_get_state (ctx.runner), ==, QD_RUNNER_FAILED);
  g_assert_error (ctx.error, QD_ERROR, QD_ERROR_ILLEGITIMATE);
  g_assert_cmpstr (ctx.error->message, ==,
                   "illegitimate model: more than 10 transitions at t = 0 "
                   "without time advancing, among /Constant, /Gain 1, "
                   "/Gain 2, /Gain 3, /Gain 4, /Gain 5, /Gain 6, /Gain 7, "
                   "/Gain 8, /Gain 9; look for a zero-time loop, or raise "
                   "the limit in the simulation settings");
  g_assert_nonnull (qd_runner_get_error (ctx.runner));
  g_assert_cmpstr (qd_runner_get_error (ctx.runner)->message, ==,
                   ctx.error->message);
  g_assert_cmpint (last_notified (&ctx), ==, QD_RUNNER_FAILED);
  ctx_clear (&ctx);
}

/* A block producing infinity: the error names it. */
static void
test_numeric (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) doc = qd_document_load_data (qd_test_model_division,
                                                     strlen (qd_test_model_division),
                                                     "division.qdevs", &error);
  Ctx ctx;

  g_assert_no_error (error);
  ctx_init (&ctx, compile (doc));
  qd_runner_run (ctx.runner);
  wait_finished (&ctx);
  g_assert_cmpint (ctx.finished_state, ==, QD_RUNNER_FAILED);
  g_assert_error (ctx.error, QD_ERROR, QD_ERROR_NUMERIC);
  g_assert_true (g_str_has_prefix (ctx.error->message, "/Division: "));
  ctx_clear (&ctx);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  g_test_add_func ("/runner/run", test_run);
  g_test_add_func ("/runner/step", test_step);
  g_test_add_func ("/runner/run-until", test_run_until);
  g_test_add_func ("/runner/pause-resume", test_pause_resume);
  g_test_add_func ("/runner/stop/identical", test_stop_identical);
  g_test_add_func ("/runner/stop/latency", test_stop_latency);
  g_test_add_func ("/runner/realtime/1x", test_realtime_1x);
  g_test_add_func ("/runner/realtime/5x", test_realtime_5x);
  g_test_add_func ("/runner/realtime/switch", test_realtime_switch);
  g_test_add_func ("/runner/progress", test_progress);
  g_test_add_func ("/runner/dispose-running", test_dispose_running);
  g_test_add_func ("/runner/illegitimate", test_illegitimate);
  g_test_add_func ("/runner/numeric", test_numeric);

  return g_test_run ();
}

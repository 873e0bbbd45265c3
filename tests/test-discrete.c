/* test-discrete.c: the Discrete and Sinks blocks and the run statistics
 *
 * Whole models run through the engine, since the blocks report through
 * the simulation's statistics. The queue–server example is held against
 * M/M/1 theory over a long run, and against itself: the Statistics sink
 * measures the number in the system from the two Counters, which must
 * equal the queue's mean length plus the server's utilisation. Models
 * with deterministic times give exact waits, drops and firings worked out
 * by hand; invalid parameters give messages naming the block and the
 * parameter; `qdevs-cli run --stats(-json)` prints what the library
 * reports.
 */
#include <json-c/json.h>
#include <math.h>
#include <string.h>
#include <sys/wait.h>

#include "qd-test-util.h"

/* -------------------------------------------------------------------- */
/* Building and running models */

static QdBlock *
add (QdDocument *doc,
     const char *type,
     const char *name,
     ...)
{
  QdBlock *block = qd_test_add_block (doc, type, name);
  va_list args;

  va_start (args, name);
  for (const char *key = va_arg (args, const char *); key != NULL;
       key = va_arg (args, const char *))
    qd_test_set_param (doc, block, key, va_arg (args, const char *));
  va_end (args);
  return block;
}

static QdSimulation *
run (QdDocument *doc)
{
  GError *error = NULL;
  QdSimulation *sim = qd_simulation_new (doc, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (sim);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
  g_assert_no_error (error);
  return sim;
}

/* The statistic @name of block @path; fails the test when it is absent. */
static double
stat (QdSimulation *sim,
      const char   *path,
      const char   *name)
{
  GPtrArray *stats = qd_simulation_get_stats (sim);

  for (guint k = 0; k < stats->len; k++)
    {
      const QdStat *s = g_ptr_array_index (stats, k);

      if (g_str_equal (s->path, path) && g_str_equal (s->name, name))
        return s->value;
    }
  g_error ("no statistic %s of %s", name, path);
  return NAN;
}

/* The segments the n-th trace (in block order) recorded. */
static GArray *
trace_segments (QdSimulation *sim,
                guint         n)
{
  QdTrace *trace = g_ptr_array_index (qd_simulation_get_traces (sim), n);
  GArray *segs = g_array_new (FALSE, FALSE, sizeof (QdSignal));

  for (gsize i = 0; i < qd_trace_get_length (trace); i++)
    g_array_append_val (segs, *qd_trace_get (trace, i));
  return segs;
}

#define SEG(a, i) (&g_array_index ((a), QdSignal, (i)))

static void
assert_rel (double      got,
            double      want,
            double      rel,
            const char *what)
{
  g_test_message ("%s: %.10g (expected %.10g)", what, got, want);
  if (!(fabs (got - want) <= rel * fabs (want)))
    g_error ("%s: %.17g, expected %.17g within %g", what, got, want, rel);
}

/* -------------------------------------------------------------------- */
/* The M/M/1 example */

static void
test_mm1 (void)
{
  g_autoptr(QdDocument) doc = qd_test_load_example ("queue-server.qdevs");
  QdSimulation *sim;
  double rho, lq, l, measured_l;

  /* A million time units, about 800 000 jobs: the estimates' standard
   * errors are about 1 % (the queue length is strongly correlated). */
  qd_test_set_final_time (doc, 1e6);
  sim = run (doc);

  rho = stat (sim, "/Server", "utilisation");
  lq = stat (sim, "/Queue", "mean_length");
  l = lq + rho;
  assert_rel (rho, 0.8, 0.05, "utilisation");
  assert_rel (l, 4.0, 0.05, "mean number in the system");
  assert_rel (lq, 3.2, 0.05, "mean number waiting");
  assert_rel (stat (sim, "/Queue", "mean_wait"), 4.0, 0.05, "mean wait");
  assert_rel (stat (sim, "/Server", "throughput"), 0.8, 0.02, "throughput");
  assert_rel (stat (sim, "/Server", "mean_service"), 1.0, 0.02, "service");
  g_assert_cmpfloat (stat (sim, "/Queue", "drops"), ==, 0.0);
  g_assert_cmpfloat (stat (sim, "/Server", "lost"), ==, 0.0);

  /* Little's law ties the queue's two views: Lq = throughput · Wq. */
  assert_rel (lq, stat (sim, "/Queue", "throughput")
                  * stat (sim, "/Queue", "mean_wait"), 0.01, "Little's law");

  /* The number in the system, arrivals − departures, integrated exactly
   * by the Statistics sink, is the same L computed another way. */
  measured_l = stat (sim, "/Statistics", "mean");
  assert_rel (measured_l, l, 1e-9, "Statistics mean vs queue + server");
  g_assert_cmpfloat (stat (sim, "/Statistics", "min"), ==, 0.0);
  g_assert_cmpfloat (stat (sim, "/Statistics", "max"), ==,
                     stat (sim, "/Queue", "max_length") + 1.0);
  /* Jobs are conserved: generated = departed from the queue + waiting. */
  g_assert_cmpfloat (stat (sim, "/Generator", "entities"), ==,
                     stat (sim, "/Queue", "arrivals"));
  g_assert_cmpfloat (stat (sim, "/Statistics", "final"), ==,
                     stat (sim, "/Generator", "entities")
                     - stat (sim, "/Server", "served"));
  qd_simulation_free (sim);
}

/* Every statistic and every block's transition counts. */
static GArray *
run_fingerprint (QdDocument *doc)
{
  QdSimulation *sim = run (doc);
  GArray *values = g_array_new (FALSE, FALSE, sizeof (double));
  GPtrArray *stats = qd_simulation_get_stats (sim);

  g_assert_cmpuint (stats->len, >, 10);
  for (guint k = 0; k < stats->len; k++)
    g_array_append_val (values, ((QdStat *) g_ptr_array_index (stats, k))->value);
  for (guint i = 0; i < qd_simulation_get_n_atomics (sim); i++)
    {
      guint64 n_int, n_ext;
      double v;

      qd_simulation_get_block_stats (sim, i, &n_int, &n_ext);
      v = (double) n_int;
      g_array_append_val (values, v);
      v = (double) n_ext;
      g_array_append_val (values, v);
    }
  qd_simulation_free (sim);
  return values;
}

static gboolean
same_bits (GArray *a,
           GArray *b)
{
  return a->len == b->len
         && memcmp (a->data, b->data, a->len * sizeof (double)) == 0;
}

static void
test_reproducible (void)
{
  g_autoptr(QdDocument) doc = qd_test_load_example ("queue-server.qdevs");
  g_autoptr(GArray) first = NULL, second = NULL, other = NULL;
  g_autoptr(GArray) other_server = NULL;
  GError *error = NULL;

  qd_test_set_final_time (doc, 2e4);
  first = run_fingerprint (doc);
  second = run_fingerprint (doc);
  g_assert_true (same_bits (first, second));

  g_assert_true (qd_document_set_param (doc, qd_document_find_block_by_path (doc, "/Generator"),
                                        "seed", "12345", &error));
  g_assert_no_error (error);
  other = run_fingerprint (doc);
  g_assert_false (same_bits (first, other));

  g_assert_true (qd_document_set_param (doc, qd_document_find_block_by_path (doc, "/Generator"),
                                        "seed", "11", &error));
  g_assert_true (qd_document_set_param (doc, qd_document_find_block_by_path (doc, "/Server"),
                                        "seed", "99", &error));
  g_assert_no_error (error);
  other_server = run_fingerprint (doc);
  g_assert_false (same_bits (first, other_server));
}

/* -------------------------------------------------------------------- */
/* Deterministic queueing */

/* Jobs every second from t = 1, each taking 1.5 s: job k arrives at k and
 * starts at 1 + 1.5 (k − 1), so it waits 0.5 (k − 1). Up to 10.5 the
 * queue releases jobs 1..7 (at 1, 2.5, ..., 10) and the server finishes
 * jobs 1..6 (at 2.5, 4, ..., 10). */
static void
test_deterministic_waits (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *gen = add (doc, "generator", "Generator", "distribution", "deterministic",
                      "period", "1", NULL);
  QdBlock *queue = add (doc, "queue", "Queue", NULL);
  QdBlock *server = add (doc, "server", "Server", "distribution", "deterministic",
                         "mean", "1.5", NULL);
  QdBlock *scope = add (doc, "scope", "Scope", NULL);
  g_autoptr(GArray) out = NULL;
  QdSimulation *sim;

  qd_test_connect (doc, gen, 0, queue, 0);
  qd_test_connect (doc, queue, 0, server, 0);
  qd_test_connect (doc, server, 1, queue, 1);
  qd_test_connect (doc, server, 0, scope, 0);
  qd_test_set_final_time (doc, 10.5);
  sim = run (doc);

  g_assert_cmpfloat (stat (sim, "/Generator", "entities"), ==, 10);
  g_assert_cmpfloat (stat (sim, "/Queue", "arrivals"), ==, 10);
  g_assert_cmpfloat (stat (sim, "/Queue", "departures"), ==, 7);
  /* (0 + 0.5 + ... + 3) / 7 */
  g_assert_cmpfloat (stat (sim, "/Queue", "mean_wait"), ==, 1.5);
  g_assert_cmpfloat (stat (sim, "/Server", "served"), ==, 6);
  g_assert_cmpfloat (stat (sim, "/Server", "mean_service"), ==, 1.5);
  g_assert_cmpfloat (fabs (stat (sim, "/Server", "utilisation") - 9.5 / 10.5), <, 1e-15);
  g_assert_cmpfloat (fabs (stat (sim, "/Server", "throughput") - 6 / 10.5), <, 1e-15);

  /* The served jobs leave in order, with their ids. */
  out = trace_segments (sim, 0);
  g_assert_cmpuint (out->len, ==, 6);
  for (guint k = 0; k < 6; k++)
    {
      g_assert_cmpfloat (SEG (out, k)->t, ==, 2.5 + 1.5 * k);
      g_assert_cmpuint (SEG (out, k)->tag, ==, k + 1);
      g_assert_cmpfloat (SEG (out, k)->c[0], ==, k + 1);
    }
  qd_simulation_free (sim);
}

/* A queue of capacity 2 in front of a 10.5 s server, a job every second:
 * job 1 is served at once (1 to 11.5), jobs 2 and 3 wait, 4..11 are
 * dropped; at 11.5 job 2 goes in, 12 waits, 13..20 are dropped. */
static void
test_queue_drops (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *gen = add (doc, "generator", "Generator", "distribution", "deterministic",
                      "period", "1", NULL);
  QdBlock *queue = add (doc, "queue", "Queue", "capacity", "2", NULL);
  QdBlock *server = add (doc, "server", "Server", "distribution", "deterministic",
                         "mean", "10.5", NULL);
  QdBlock *end = add (doc, "terminator", "Terminator", NULL);
  QdSimulation *sim;

  qd_test_connect (doc, gen, 0, queue, 0);
  qd_test_connect (doc, queue, 0, server, 0);
  qd_test_connect (doc, server, 1, queue, 1);
  qd_test_connect (doc, server, 0, end, 0);
  qd_test_set_final_time (doc, 20.5);
  sim = run (doc);

  g_assert_cmpfloat (stat (sim, "/Queue", "arrivals"), ==, 20);
  g_assert_cmpfloat (stat (sim, "/Queue", "drops"), ==, 16);
  g_assert_cmpfloat (stat (sim, "/Queue", "departures"), ==, 2);
  g_assert_cmpfloat (stat (sim, "/Queue", "max_length"), ==, 2);
  /* Waiting: 2 over [2, 3), then 2 until 11.5, 1 until 12, 2 to 20.5. */
  g_assert_cmpfloat (fabs (stat (sim, "/Queue", "mean_length")
                           - (1 * 1 + 2 * 8.5 + 1 * 0.5 + 2 * 8.5) / 20.5), <, 1e-14);
  /* Job 2 waited 2 → 11.5. */
  g_assert_cmpfloat (stat (sim, "/Queue", "mean_wait"), ==, (0 + 9.5) / 2);
  g_assert_cmpfloat (stat (sim, "/Server", "served"), ==, 1);
  g_assert_cmpfloat (stat (sim, "/Server", "lost"), ==, 0);
  /* The Terminator reports nothing. */
  for (guint k = 0; k < qd_simulation_get_stats (sim)->len; k++)
    g_assert_cmpstr (((QdStat *) g_ptr_array_index (qd_simulation_get_stats (sim), k))->path,
                     !=, "/Terminator");
  qd_simulation_free (sim);
}

/* A Generator wired straight to a Server is a loss system. */
static void
test_server_loss (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *gen = add (doc, "generator", "Generator", "distribution", "deterministic",
                      "period", "1", NULL);
  QdBlock *server = add (doc, "server", "Server", "distribution", "deterministic",
                         "mean", "2.5", NULL);
  QdBlock *count = add (doc, "event_counter", "Events", "n", "2", NULL);
  QdSimulation *sim;

  qd_test_connect (doc, gen, 0, server, 0);
  qd_test_connect (doc, server, 0, count, 0);
  qd_test_connect (doc, server, 1, count, 1);
  qd_test_set_final_time (doc, 10.5);
  sim = run (doc);
  /* Served: 1 (1–3.5), 4 (4–6.5), 7 (7–9.5); 2, 3, 5, 6, 8, 9 lost;
   * 10 in service at the end. */
  g_assert_cmpfloat (stat (sim, "/Server", "served"), ==, 3);
  g_assert_cmpfloat (stat (sim, "/Server", "lost"), ==, 6);
  g_assert_cmpfloat (stat (sim, "/Server", "utilisation"), ==, (7.5 + 0.5) / 10.5);
  g_assert_cmpfloat (stat (sim, "/Events", "events_u0"), ==, 3);
  /* ready at the start and after each served job */
  g_assert_cmpfloat (stat (sim, "/Events", "events_u1"), ==, 4);
  g_assert_cmpfloat (stat (sim, "/Events", "events"), ==, 7);
  qd_simulation_free (sim);
}

/* -------------------------------------------------------------------- */
/* Delay, Unit Delay, Counter */

static void
test_delay (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *gen = add (doc, "generator", "Generator", "distribution", "deterministic",
                      "period", "0.25", NULL);
  QdBlock *delay = add (doc, "delay", "Delay", "delay", "0.5", "capacity", "3", NULL);
  QdBlock *scope = add (doc, "scope", "Scope", NULL);
  g_autoptr(GArray) out = NULL;
  GError *error = NULL;
  QdSimulation *sim;

  qd_test_connect (doc, gen, 0, delay, 0);
  qd_test_connect (doc, delay, 0, scope, 0);
  qd_test_set_final_time (doc, 3);
  sim = run (doc);
  /* Entity k leaves at 0.25 k + 0.5 < 3: k = 1..9. Three are pending at
   * once: two, and the one arriving at the instant the oldest leaves
   * (the Generator comes first in the priority order). */
  out = trace_segments (sim, 0);
  g_assert_cmpuint (out->len, ==, 9);
  for (guint k = 1; k <= 9; k++)
    {
      g_assert_cmpfloat (SEG (out, k - 1)->t, ==, 0.25 * k + 0.5);
      g_assert_cmpfloat (SEG (out, k - 1)->c[0], ==, k);
      g_assert_cmpuint (SEG (out, k - 1)->tag, ==, k);
    }
  qd_simulation_free (sim);

  /* Capacity 1: the second arrival (t = 0.5) finds the first waiting,
   * unless it has just left: it leaves at 0.75, so 0.5 overflows. */
  g_assert_true (qd_document_set_param (doc, delay, "capacity", "1", &error));
  sim = qd_simulation_new (doc, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_ERROR);
  g_assert_error (error, QD_ERROR, QD_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==,
                   "/Delay: an event arrived at t = 0.5 while 1 were already "
                   "waiting, its capacity; raise parameter 'capacity' (or "
                   "shorten 'delay')");
  g_clear_error (&error);
  qd_simulation_free (sim);
}

/* A polynomial signal comes out shifted, not resampled. */
static void
test_delay_polynomial (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *c = add (doc, "constant", "Constant", "value", "2", NULL);
  QdBlock *integ = add (doc, "integrator", "Integrator", "x0", "1", "method", "QSS2", NULL);
  QdBlock *delay = add (doc, "delay", "Delay", "delay", "0.75", NULL);
  QdBlock *scope = add (doc, "scope", "Scope", NULL);
  g_autoptr(GArray) out = NULL;
  QdSimulation *sim;

  qd_test_connect (doc, c, 0, integ, 0);
  qd_test_connect (doc, integ, 0, delay, 0);
  qd_test_connect (doc, delay, 0, scope, 0);
  qd_test_set_final_time (doc, 4);
  sim = run (doc);
  out = trace_segments (sim, 0);
  g_assert_cmpuint (out->len, >=, 1);
  /* y(t) = x(t − 0.75) = 1 + 2 (t − 0.75) from 0.75 on: each segment
   * checked until the next one starts. */
  for (guint i = 0; i < out->len; i++)
    {
      const QdSignal *s = SEG (out, i);
      double end = i + 1 < out->len ? SEG (out, i + 1)->t : 4.0;

      g_assert_cmpfloat (s->t, >=, 0.75);
      for (double t = s->t; t < end; t += 0.125)
        g_assert_cmpfloat (fabs (qd_signal_eval (s, t) - (1 + 2 * (t - 0.75))), <, 1e-12);
    }
  g_assert_cmpfloat (SEG (out, 0)->t, ==, 0.75);
  qd_simulation_free (sim);
}

/* Input events fall on the sampling instants: the sample is the value
 * from that instant on, whichever block has the higher priority. */
static void
test_unit_delay (void)
{
  for (int unit_first = 0; unit_first < 2; unit_first++)
    {
      g_autoptr(QdDocument) doc = qd_document_new ();
      QdBlock *unit = NULL, *gen, *scope;
      g_autoptr(GArray) out = NULL;
      QdSimulation *sim;

      if (unit_first)
        unit = add (doc, "unit_delay", "Unit Delay", "period", "1", "initial", "-1", NULL);
      gen = add (doc, "generator", "Generator", "distribution", "deterministic",
                 "period", "1", NULL);
      if (!unit_first)
        unit = add (doc, "unit_delay", "Unit Delay", "period", "1", "initial", "-1", NULL);
      scope = add (doc, "scope", "Scope", NULL);
      qd_test_connect (doc, gen, 0, unit, 0);
      qd_test_connect (doc, unit, 0, scope, 0);
      qd_test_set_final_time (doc, 5.5);
      sim = run (doc);

      /* t = 0: the initial output; t = k: the sample of k − 1, which is
       * k − 1 (the Generator's k-th entity has value k, 0 before). */
      out = trace_segments (sim, 0);
      g_assert_cmpuint (out->len, ==, 6);
      g_assert_cmpfloat (SEG (out, 0)->t, ==, 0.0);
      g_assert_cmpfloat (SEG (out, 0)->c[0], ==, -1.0);
      for (guint k = 1; k < 6; k++)
        {
          g_assert_cmpfloat (SEG (out, k)->t, ==, k);
          g_assert_cmpfloat (SEG (out, k)->c[0], ==, k - 1.0);
          g_assert_cmpint (SEG (out, k)->order, ==, 0);
        }
      qd_simulation_free (sim);
    }
}

/* A Unit Delay fed back through a Gain with a period of 1e-300: every
 * sampling instant moves the clock, but by so little that 10^6 of them
 * (from 0) stay below the clock's resolution at the final time, and a
 * run to t = 10 would need 10^301 events. The guard stops it as it stops
 * a zero-time loop, naming the delay and the loop's blocks, after the
 * limit's transitions; a period of 1e-3 runs to the end. */
static void
test_unit_delay_tiny_period (void)
{
  static const char *const periods[] = { "1e-300", "1e-3" };

  for (guint p = 0; p < G_N_ELEMENTS (periods); p++)
    {
      g_autoptr(QdDocument) doc = qd_document_new ();
      QdBlock *unit = add (doc, "unit_delay", "UD", "period", periods[p],
                           "initial", "1", NULL);
      QdBlock *gain = add (doc, "gain", "G", "k", "0.5", NULL);
      QdSettings settings = *qd_document_get_settings (doc);
      g_autoptr(GError) error = NULL;
      QdSimulation *sim;
      QdRunStatus status;

      qd_test_connect (doc, unit, 0, gain, 0);
      qd_test_connect (doc, gain, 0, unit, 0);
      settings.final_time = 10;
      settings.illegitimacy_limit = 1000;
      g_assert_true (qd_document_set_settings (doc, &settings, &error));
      sim = qd_simulation_new (doc, NULL, NULL, &error);
      g_assert_no_error (error);
      /* Bounded, so that a guard that does not trip fails the test
       * instead of running for ever. */
      status = qd_simulation_step (sim, 100000, &error);
      if (p == 0)
        {
          g_assert_cmpint (status, ==, QD_RUN_ERROR);
          g_assert_error (error, QD_ERROR, QD_ERROR_ILLEGITIMATE);
          g_test_message ("%s", error->message);
          g_assert_true (g_str_has_prefix (error->message,
                                           "/UD: its time advance has shrunk "
                                           "to 1e-300 at t = "));
          g_assert_nonnull (strstr (error->message,
                                    "so the run cannot reach its final "
                                    "time (more than 1000 transitions "
                                    "since t = 0, among /UD, /G)"));
          g_assert_nonnull (strstr (error->message, "a sample period or a "
                                    "delay that short"));
          g_assert_cmpuint (qd_simulation_get_events (sim), ==, 1000);
          g_assert_cmpfloat (qd_simulation_get_time (sim), <, 1e-290);
        }
      else
        {
          g_assert_cmpint (status, !=, QD_RUN_ERROR);
          g_assert_no_error (error);
          g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
          g_assert_no_error (error);
          /* 10^4 samples, each an event of the delay and of the gain. */
          g_assert_cmpuint (qd_simulation_get_events (sim), >=, 20000);
        }
      qd_simulation_free (sim);
    }
}

static void
test_counter (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *gen = add (doc, "generator", "Generator", "distribution", "deterministic",
                      "period", "0.5", NULL);
  QdBlock *counter = add (doc, "counter", "Counter", NULL);
  QdBlock *scope = add (doc, "scope", "Scope", NULL);
  g_autoptr(GArray) out = NULL;
  QdSimulation *sim;

  qd_test_connect (doc, gen, 0, counter, 0);
  qd_test_connect (doc, counter, 0, scope, 0);
  qd_test_set_final_time (doc, 3.25);
  sim = run (doc);
  out = trace_segments (sim, 0);
  /* 0 at the start, then 1..6 at 0.5, 1, ..., 3. */
  g_assert_cmpuint (out->len, ==, 7);
  for (guint k = 0; k < 7; k++)
    {
      g_assert_cmpfloat (SEG (out, k)->t, ==, 0.5 * k);
      g_assert_cmpfloat (SEG (out, k)->c[0], ==, k);
      g_assert_cmpuint (SEG (out, k)->tag, ==, k);
    }
  qd_simulation_free (sim);
}

/* -------------------------------------------------------------------- */
/* Petri nets */

/* P1 (3 tokens) → T1 (delay 1) → P2; P2 and P3 (1 token) → T2 (delay
 * 0.5) → P4. T1 fires at 1, 2, 3; T2 is enabled at 1 and fires at 1.5,
 * emptying P3, so it never fires again. */
static void
test_petri (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *p1 = add (doc, "place", "P1", "tokens", "3", NULL);
  QdBlock *p2 = add (doc, "place", "P2", NULL);
  QdBlock *p3 = add (doc, "place", "P3", "tokens", "1", NULL);
  QdBlock *p4 = add (doc, "place", "P4", NULL);
  QdBlock *t1 = add (doc, "transition", "T1", "delay", "1", NULL);
  QdBlock *t2 = add (doc, "transition", "T2", "n", "2", "delay", "0.5", NULL);
  QdBlock *scope = add (doc, "scope", "Scope", NULL);
  g_autoptr(GArray) p4_out = NULL;
  QdSimulation *sim;

  qd_test_connect (doc, p1, 0, t1, 0);
  qd_test_connect (doc, t1, 1, p1, 0);
  qd_test_connect (doc, t1, 0, p2, 0);
  qd_test_connect (doc, p2, 0, t2, 0);
  qd_test_connect (doc, p3, 0, t2, 1);
  qd_test_connect (doc, t2, 1, p2, 1);
  qd_test_connect (doc, t2, 1, p3, 0);
  qd_test_connect (doc, t2, 0, p4, 0);
  qd_test_connect (doc, p4, 0, scope, 0);
  qd_test_set_final_time (doc, 5);
  sim = run (doc);

  g_assert_cmpfloat (stat (sim, "/T1", "firings"), ==, 3);
  g_assert_cmpfloat (stat (sim, "/T2", "firings"), ==, 1);
  g_assert_cmpfloat (stat (sim, "/P1", "tokens"), ==, 0);
  g_assert_cmpfloat (stat (sim, "/P2", "tokens"), ==, 2);
  g_assert_cmpfloat (stat (sim, "/P3", "tokens"), ==, 0);
  g_assert_cmpfloat (stat (sim, "/P4", "tokens"), ==, 1);
  /* P1: 3, 2, 1 for a second each, then 0: 6 / 5. P2: 0 to 1, 1 to 1.5,
   * 0 to 2, 1 to 3, 2 to 5: 5.5 / 5. */
  g_assert_cmpfloat (stat (sim, "/P1", "mean_tokens"), ==, 6.0 / 5.0);
  g_assert_cmpfloat (stat (sim, "/P2", "mean_tokens"), ==, 5.5 / 5.0);
  p4_out = trace_segments (sim, 0);
  g_assert_cmpuint (p4_out->len, ==, 2);
  g_assert_cmpfloat (SEG (p4_out, 0)->c[0], ==, 0.0);
  g_assert_cmpfloat (SEG (p4_out, 1)->t, ==, 1.5);
  g_assert_cmpfloat (SEG (p4_out, 1)->c[0], ==, 1.0);
  qd_simulation_free (sim);
}

/* Two transitions compete for one token. With the place first in the
 * priority order the first transition takes it; with the place last the
 * run stops and says what to change. */
static void
test_petri_conflict (void)
{
  for (int place_first = 1; place_first >= 0; place_first--)
    {
      g_autoptr(QdDocument) doc = qd_document_new ();
      QdBlock *p = NULL, *ta, *tb, *pa, *pb;
      GError *error = NULL;
      QdSimulation *sim;

      if (place_first)
        p = add (doc, "place", "P", "tokens", "1", NULL);
      ta = add (doc, "transition", "Ta", "delay", "1", NULL);
      tb = add (doc, "transition", "Tb", "delay", "1", NULL);
      if (!place_first)
        p = add (doc, "place", "P", "tokens", "1", NULL);
      pa = add (doc, "place", "Pa", NULL);
      pb = add (doc, "place", "Pb", NULL);
      qd_test_connect (doc, p, 0, ta, 0);
      qd_test_connect (doc, p, 0, tb, 0);
      qd_test_connect (doc, ta, 1, p, 0);
      qd_test_connect (doc, tb, 1, p, 1);
      qd_test_connect (doc, ta, 0, pa, 0);
      qd_test_connect (doc, tb, 0, pb, 0);
      qd_test_set_final_time (doc, 3);

      sim = qd_simulation_new (doc, NULL, NULL, &error);
      g_assert_no_error (error);
      if (place_first)
        {
          g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
          g_assert_cmpfloat (stat (sim, "/Pa", "tokens"), ==, 1);
          g_assert_cmpfloat (stat (sim, "/Pb", "tokens"), ==, 0);
          g_assert_cmpfloat (stat (sim, "/P", "tokens"), ==, 0);
          g_assert_cmpfloat (stat (sim, "/Tb", "firings"), ==, 0);
        }
      else
        {
          g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_ERROR);
          g_assert_cmpstr (error->message, ==,
                           "/P: a transition took a token from an empty place "
                           "at t = 1: two transitions compete for its tokens; "
                           "move this place before the transitions in the "
                           "priority order so that they see its count in time");
          g_clear_error (&error);
        }
      qd_simulation_free (sim);
    }
}

/* A place holds at most 10^15 tokens, the top of its initial tokens'
 * range: an event that would take it past (or a value too large to be a
 * count at all) stops the run with an error naming the place, where the
 * 64-bit count used to overflow. Reaching 10^15 exactly is allowed. */
static void
test_petri_overflow (void)
{
  const struct
  {
    const char *value;
    const char *error;
  } cases[] = {
    { "1", NULL },
    { "2", "/P: an event of 2 tokens at t = 0 would take the count past "
           "1e+15, the most a place holds; check what feeds this place "
           "(its inputs should be transitions' token changes, +1 or -1)" },
    { "1e300", "/P: an event of 1e+300 tokens at t = 0 would take the "
               "count past 1e+15, the most a place holds; check what feeds "
               "this place (its inputs should be transitions' token "
               "changes, +1 or -1)" },
  };

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_autoptr(QdDocument) doc = qd_document_new ();
      QdBlock *c = add (doc, "constant", "C", "value", cases[k].value, NULL);
      QdBlock *p = add (doc, "place", "P", "tokens", "999999999999999",
                        "n", "1", NULL);
      QdSimulation *sim;
      GError *error = NULL;

      qd_test_connect (doc, c, 0, p, 0);
      qd_test_set_final_time (doc, 1);
      sim = qd_simulation_new (doc, NULL, NULL, &error);
      g_assert_no_error (error);
      if (cases[k].error == NULL)
        {
          g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
          g_assert_no_error (error);
          g_assert_cmpfloat (stat (sim, "/P", "tokens"), ==, 1e15);
        }
      else
        {
          g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_ERROR);
          g_assert_cmpstr (error->message, ==, cases[k].error);
          g_clear_error (&error);
        }
      qd_simulation_free (sim);
    }
}

/* -------------------------------------------------------------------- */
/* Statistics */

/* Two QSS3 integrators from a constant: the first makes the line
 * −1 + 2t, the second the parabola x = 1 − t + t², which QSS3's parabolic
 * segments follow exactly. Its minimum 0.75 is inside the run, at
 * t = 0.5; over [0, 2] the maximum is 3, at the end, and the time
 * average (2 − 2 + 8/3) / 2 = 4/3. */
static void
test_statistics (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *c = add (doc, "constant", "Constant", "value", "2", NULL);
  QdBlock *i1 = add (doc, "integrator", "I1", "x0", "-1", "method", "QSS3", NULL);
  QdBlock *i2 = add (doc, "integrator", "I2", "x0", "1", "method", "QSS3", NULL);
  QdBlock *s = add (doc, "statistics", "Statistics", NULL);
  QdSimulation *sim;

  qd_test_connect (doc, c, 0, i1, 0);
  qd_test_connect (doc, i1, 0, i2, 0);
  qd_test_connect (doc, i2, 0, s, 0);
  qd_test_set_final_time (doc, 2);
  sim = run (doc);
  assert_rel (stat (sim, "/Statistics", "min"), 0.75, 1e-12, "min");
  assert_rel (stat (sim, "/Statistics", "max"), 3.0, 1e-12, "max");
  assert_rel (stat (sim, "/Statistics", "mean"), 4.0 / 3.0, 1e-12, "mean");
  assert_rel (stat (sim, "/Statistics", "final"), 3.0, 1e-12, "final");
  qd_simulation_free (sim);
}

/* A step: 0 until 1, 5 after; the extremes of a piecewise constant
 * signal, and the mean of the zero before the first event. */
static void
test_statistics_step (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *step = add (doc, "step", "Step", "time", "1", "initial", "-2", "final", "5", NULL);
  QdBlock *s = add (doc, "statistics", "Statistics", NULL);
  QdSimulation *sim;

  qd_test_connect (doc, step, 0, s, 0);
  qd_test_set_final_time (doc, 4);
  sim = run (doc);
  g_assert_cmpfloat (stat (sim, "/Statistics", "min"), ==, -2);
  g_assert_cmpfloat (stat (sim, "/Statistics", "max"), ==, 5);
  g_assert_cmpfloat (stat (sim, "/Statistics", "mean"), ==, (-2.0 + 15.0) / 4.0);
  g_assert_cmpfloat (stat (sim, "/Statistics", "final"), ==, 5);
  qd_simulation_free (sim);
}

/* -------------------------------------------------------------------- */
/* The statistics API */

static void
test_stats_order (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *c = add (doc, "constant", "C", NULL);
  QdBlock *s1 = add (doc, "statistics", "S1", NULL);
  QdBlock *s2 = add (doc, "statistics", "S2", NULL);
  GError *error = NULL;
  QdSimulation *sim;
  GPtrArray *stats;
  QdAtomic *a1, *a2;

  qd_test_connect (doc, c, 0, s1, 0);
  qd_test_connect (doc, c, 0, s2, 0);
  qd_test_set_final_time (doc, 1);
  sim = qd_simulation_new (doc, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (qd_simulation_get_stats (sim)->len, ==, 0);

  /* Set out of block order, and again: block order, last value wins. */
  a1 = (QdAtomic *) qd_simulation_get_atomic (sim, 1);
  a2 = (QdAtomic *) qd_simulation_get_atomic (sim, 2);
  qd_atomic_set_stat (a2, "b", 1.0);
  qd_atomic_set_stat (a1, "z", 2.0);
  qd_atomic_set_stat (a2, "a", 3.0);
  qd_atomic_set_stat (a1, "z", 4.0);
  stats = qd_simulation_get_stats (sim);
  g_assert_cmpuint (stats->len, ==, 3);
  g_assert_cmpstr (((QdStat *) stats->pdata[0])->path, ==, "/S1");
  g_assert_cmpstr (((QdStat *) stats->pdata[0])->name, ==, "z");
  g_assert_cmpfloat (((QdStat *) stats->pdata[0])->value, ==, 4.0);
  g_assert_cmpstr (((QdStat *) stats->pdata[1])->name, ==, "b");
  g_assert_cmpstr (((QdStat *) stats->pdata[2])->name, ==, "a");
  g_assert_cmpstr (((QdStat *) stats->pdata[2])->path, ==, "/S2");

  /* The run's own reports join in, in block order. */
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
  g_assert_cmpuint (stats->len, ==, 3 + 8);
  g_assert_cmpstr (((QdStat *) stats->pdata[0])->name, ==, "z");
  g_assert_cmpstr (((QdStat *) stats->pdata[1])->name, ==, "min");
  g_assert_cmpstr (((QdStat *) stats->pdata[4])->name, ==, "final");
  g_assert_cmpstr (((QdStat *) stats->pdata[4])->path, ==, "/S1");
  g_assert_cmpstr (((QdStat *) stats->pdata[5])->path, ==, "/S2");
  g_assert_cmpfloat (stat (sim, "/S2", "mean"), ==, 1.0);
  qd_simulation_free (sim);
}

/* -------------------------------------------------------------------- */
/* Parameter validation */

static void
test_params (void)
{
  static const struct
  {
    const char *type, *name, *param, *value, *message;
  } cases[] = {
    { "generator", "G1", "period", "0",
      "/G1: parameter 'period' must be greater than 0 (it is 0)" },
    { "generator", "G3", "seed", "-1",
      "/G3: parameter 'seed' must be at least 0 (it is -1)" },
    { "queue", "Q1", "capacity", "-1",
      "/Q1: parameter 'capacity' must be at least 0 (it is -1)" },
    { "queue", "Q2", "capacity", "2.5",
      "/Q2: parameter 'capacity' must be a whole number (it is 2.5)" },
    { "server", "S1", "mean", "0",
      "/S1: parameter 'mean' must be greater than 0 (it is 0)" },
    { "delay", "D1", "delay", "-1",
      "/D1: parameter 'delay' must be at least 0 (it is -1)" },
    { "delay", "D2", "capacity", "0",
      "/D2: parameter 'capacity' must be at least 1 (it is 0)" },
    { "unit_delay", "U1", "period", "0",
      "/U1: parameter 'period' must be greater than 0 (it is 0)" },
    { "place", "P1", "tokens", "-3",
      "/P1: parameter 'tokens' must be at least 0 (it is -3)" },
    { "place", "P2", "tokens", "1.5",
      "/P2: parameter 'tokens' must be a whole number (it is 1.5)" },
    { "transition", "T1", "delay", "-0.5",
      "/T1: parameter 'delay' must be at least 0 (it is -0.5)" },
  };
  /* Values the file loader refuses already. */
  static const struct
  {
    const char *type, *param, *value, *message;
  } refused[] = {
    { "server", "distribution", "normal",
      "params.qdevs: /B: parameter 'distribution': 'normal' is not one of "
      "deterministic, exponential" },
    { "generator", "distribution", "uniform",
      "params.qdevs: /B: parameter 'distribution': 'uniform' is not one of "
      "deterministic, exponential" },
    { "event_counter", "n", "65",
      "params.qdevs: /B: parameter 'n': '65' is not a port count; write a "
      "whole number from 1 to 64" },
    { "terminator", "n", "0",
      "params.qdevs: /B: parameter 'n': '0' is not a port count; write a "
      "whole number from 1 to 64" },
    { "place", "n", "100",
      "params.qdevs: /B: parameter 'n': '100' is not a port count; write a "
      "whole number from 1 to 64" },
  };
  g_autoptr(QdDocument) doc = NULL;
  g_autoptr(GPtrArray) problems =
    g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  g_autoptr(GString) json = g_string_new ("{ \"format\": \"qdevs\", \"version\": 1, \"blocks\": [");
  GError *error = NULL;

  /* Written as a file would be, the way a hand-edited file reaches the
   * compiler. */
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_string_append_printf (json, "%s{ \"id\": \"b%u\", \"type\": \"%s\", "
                            "\"name\": \"%s\", \"position\": [0, %u], "
                            "\"size\": [60, 40], \"params\": { \"%s\": \"%s\" } }",
                            i > 0 ? ", " : "", i + 1, cases[i].type,
                            cases[i].name, 60 * i, cases[i].param,
                            cases[i].value);
  g_string_append (json, "], \"links\": [] }");
  doc = qd_document_load_data (json->str, json->len, "params.qdevs", &error);
  g_assert_no_error (error);
  g_assert_null (qd_simulation_new (doc, NULL, problems, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      gboolean found = FALSE;

      for (guint k = 0; k < problems->len && !found; k++)
        {
          g_autofree char *text = qd_problem_to_string (problems->pdata[k]);

          found = g_str_equal (text, cases[i].message);
        }
      if (!found)
        {
          for (guint k = 0; k < problems->len; k++)
            {
              g_autofree char *text = qd_problem_to_string (problems->pdata[k]);
              g_test_message ("problem: %s", text);
            }
          g_error ("missing problem: %s", cases[i].message);
        }
    }

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_string_printf (json, "{ \"format\": \"qdevs\", \"version\": 1, \"blocks\": ["
                       "{ \"id\": \"b1\", \"type\": \"%s\", \"name\": \"B\", "
                       "\"position\": [0, 0], \"size\": [60, 40], "
                       "\"params\": { \"%s\": \"%s\" } }], \"links\": [] }",
                       refused[i].type, refused[i].param, refused[i].value);
      g_assert_null (qd_document_load_data (json->str, json->len, "params.qdevs", &error));
      g_assert_nonnull (error);
      g_assert_cmpstr (error->message, ==, refused[i].message);
      g_clear_error (&error);
    }
}

/* -------------------------------------------------------------------- */
/* The command line */

#define run_cli(r, ...) qd_test_run_cli ((r), NULL, __VA_ARGS__)

static void
test_cli (void)
{
  g_autofree char *path = qd_test_source_path ("data", "examples",
                                               "queue-server.qdevs", NULL);
  static const char *const ids[] = {
    "generator", "queue", "server", "delay", "unit_delay", "counter",
    "place", "transition", "event_counter", "statistics", "terminator",
  };
  g_autoptr(QdDocument) doc = qd_test_load_example ("queue-server.qdevs");
  QdCliResult r = { 0 };
  json_object *root, *stats;
  QdSimulation *sim;
  GPtrArray *lib;

  sim = run (doc);
  lib = qd_simulation_get_stats (sim);

  run_cli (&r, "run", path, "--stats-json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  root = json_tokener_parse (r.out);
  g_assert_nonnull (root);
  g_assert_true (json_object_object_get_ex (root, "stats", &stats));
  g_assert_cmpuint (json_object_array_length (stats), ==, lib->len);
  for (guint k = 0; k < lib->len; k++)
    {
      const QdStat *want = lib->pdata[k];
      json_object *entry = json_object_array_get_idx (stats, k), *v;

      g_assert_cmpint (json_object_object_length (entry), ==, 3);
      g_assert_true (json_object_object_get_ex (entry, "path", &v));
      g_assert_cmpstr (json_object_get_string (v), ==, want->path);
      g_assert_true (json_object_object_get_ex (entry, "name", &v));
      g_assert_cmpstr (json_object_get_string (v), ==, want->name);
      g_assert_true (json_object_object_get_ex (entry, "value", &v));
      g_assert_cmpfloat (json_object_get_double (v), ==, want->value);
    }
  json_object_put (root);
  g_free (r.out);
  g_free (r.err);

  run_cli (&r, "run", path, "--stats", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "Statistic"));
  {
    g_auto(GStrv) lines = g_strsplit (r.out, "\n", -1);
    g_autofree char *value = g_strdup_printf ("  %.10g", stat (sim, "/Server", "utilisation"));
    gboolean found = FALSE;

    /* "/Server  utilisation  0.80...", aligned in columns */
    for (guint k = 0; lines[k] != NULL; k++)
      found |= g_str_has_prefix (lines[k], "/Server ")
               && strstr (lines[k], " utilisation ") != NULL
               && g_str_has_suffix (lines[k], value);
    g_assert_true (found);
  }
  g_free (r.out);
  g_free (r.err);
  qd_simulation_free (sim);

  /* Every block is documented in the block list. */
  run_cli (&r, "blocks", NULL);
  g_assert_cmpint (r.status, ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      const QdBlockType *type = qd_registry_lookup (ids[i]);
      g_autofree char *tag = g_strdup_printf ("(%s)", ids[i]);
      g_autofree char *first_words = NULL;

      g_assert_nonnull (type);
      g_assert_nonnull (strstr (r.out, tag));
      g_assert_cmpuint (strlen (type->doc), >, 80);
      /* The doc's opening words, before the line is wrapped. */
      first_words = g_strndup (type->doc, 30);
      g_assert_nonnull (strstr (r.out, first_words));
      for (guint p = 0; p < type->n_params; p++)
        g_assert_nonnull (type->params[p].doc);
    }
  g_free (r.out);
  g_free (r.err);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  g_test_add_func ("/discrete/mm1", test_mm1);
  g_test_add_func ("/discrete/reproducible", test_reproducible);
  g_test_add_func ("/discrete/deterministic-waits", test_deterministic_waits);
  g_test_add_func ("/discrete/queue-drops", test_queue_drops);
  g_test_add_func ("/discrete/server-loss", test_server_loss);
  g_test_add_func ("/discrete/delay", test_delay);
  g_test_add_func ("/discrete/delay-polynomial", test_delay_polynomial);
  g_test_add_func ("/discrete/unit-delay", test_unit_delay);
  g_test_add_func ("/discrete/unit-delay-tiny-period",
                   test_unit_delay_tiny_period);
  g_test_add_func ("/discrete/counter", test_counter);
  g_test_add_func ("/discrete/petri", test_petri);
  g_test_add_func ("/discrete/petri-conflict", test_petri_conflict);
  g_test_add_func ("/discrete/petri-overflow", test_petri_overflow);
  g_test_add_func ("/discrete/statistics", test_statistics);
  g_test_add_func ("/discrete/statistics-step", test_statistics_step);
  g_test_add_func ("/discrete/stats-order", test_stats_order);
  g_test_add_func ("/discrete/params", test_params);
  g_test_add_func ("/discrete/cli", test_cli);
  return g_test_run ();
}

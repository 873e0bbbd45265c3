/* test-cascade.c: the event loop's fused cascades (run_cascade() in
 * qd-simulation.c) and their cascade kernels (run_kernel(), WSum's
 * kernel in qd-block-wsum.c) change nothing but speed, and neither does
 * an event log (qd-event-log.h).
 *
 * Each model is compiled four times: once as it runs by default, once
 * with qd_simulation_set_fused_cascades (FALSE), which sends every
 * zero-time cascade through the now queue (and so turns the kernels off
 * too), and once with an event log, which runs the loop compiled for it.
 * A fourth time with a log that takes itself off after its first rows,
 * so that the run goes on in the fast loops from the middle of a run.
 * The runs must agree on everything observable: how the run ended (the
 * error message, when it fails), event, transition and step totals,
 * every block's internal and external counts, and every trace segment
 * bit for bit. The log itself must follow DEVS (each event's outputs,
 * then its internal transition, then the external transitions it
 * causes; elapsed times from each block's previous transition) and must
 * count what the statistics count.
 */
#include "qd-test-util.h"
#include "qd-simulation-private.h"

#include <string.h>

static void
assert_traces_equal (QdTrace *a,
                     QdTrace *b)
{
  gsize n = qd_trace_get_length (a);

  g_assert_cmpstr (qd_trace_get_name (a), ==, qd_trace_get_name (b));
  g_assert_cmpuint (n, ==, qd_trace_get_length (b));
  for (gsize k = 0; k < n; k++)
    {
      const QdSignal *x = qd_trace_get (a, k);
      const QdSignal *y = qd_trace_get (b, k);

      /* The segments' bytes, padding included, are written whole. */
      if (memcmp (x, y, sizeof *x) != 0)
        g_error ("%s: segment %" G_GSIZE_FORMAT " differs: t %.17g / %.17g, "
                 "c0 %.17g / %.17g", qd_trace_get_name (a), k, x->t, y->t,
                 x->c[0], y->c[0]);
    }
}

/* What the event log reported, checked entry by entry as it comes. */
typedef struct
{
  guint64 *internal;   /* per block */
  guint64 *external;
  double  *last;       /* per block: its previous transition's time */
  guint64  event;      /* the last INTERNAL entry's event */
  guint64  outputs;    /* OUTPUT entries of the coming event so far */
  guint    out_block;
  double   t;
} LogCheck;

static void
check_entry (const QdLogEntry *entry,
             gpointer          user_data)
{
  LogCheck *c = user_data;
  guint i = entry->block;

  g_assert_cmpfloat (entry->t, >=, c->t);
  c->t = entry->t;
  switch (entry->kind)
    {
    case QD_LOG_OUTPUT:
      /* lambda first: the outputs of the next event, of one block. */
      g_assert_cmpuint (entry->event, ==, c->event + 1);
      g_assert_true (c->outputs == 0 || c->out_block == i);
      g_assert_nonnull (entry->segment);
      g_assert_cmpfloat (entry->segment->t, ==, entry->t);
      g_assert_true (isnan (entry->elapsed) && isnan (entry->ta));
      c->outputs++;
      c->out_block = i;
      return;
    case QD_LOG_INTERNAL:
      g_assert_cmpuint (entry->event, ==, c->event + 1);
      g_assert_true (c->outputs == 0 || c->out_block == i);
      g_assert_null (entry->segment);
      c->event = entry->event;
      c->outputs = 0;
      c->internal[i]++;
      break;
    case QD_LOG_EXTERNAL:
      /* Caused by the event just run. */
      g_assert_cmpuint (entry->event, ==, c->event);
      g_assert_cmpuint (c->outputs, ==, 0);
      g_assert_nonnull (entry->segment);
      c->external[i]++;
      break;
    default:
      g_assert_not_reached ();
    }
  g_assert_cmpfloat (entry->elapsed, ==, entry->t - c->last[i]);
  g_assert_false (entry->ta < 0.0);
  c->last[i] = entry->t;
}

/* A log that takes itself off the simulation @user_data after 100
 * entries. */
typedef struct
{
  QdSimulation *sim;
  guint         n;
} LogDetach;

static void
detach_entry (const QdLogEntry *entry,
              gpointer          user_data)
{
  LogDetach *d = user_data;

  if (++d->n == 100)
    qd_simulation_set_event_log (d->sim, NULL, NULL);
  g_assert_cmpuint (d->n, <=, 100);
}

/* The blocks whose output 0 has a cascade kernel. */
static guint
count_kernels (QdSimulation *sim)
{
  guint n = 0;

  for (guint i = 0; i < sim->n_atomics; i++)
    n += sim->hot[i].pairs != QD_NO_PAIRS;
  return n;
}

/* Runs @doc both ways (to its final time, or by @chunk events at a time
 * when @chunk is not 0) and compares everything. The run must end with
 * an error of code @error_code when it is not 0, the same both ways;
 * otherwise it must not fail. Returns how many blocks have a cascade
 * kernel. */
static guint
assert_same_both_ways_full (QdDocument *doc,
                            guint64     chunk,
                            gint        error_code)
{
  QdSimulation *sim[4];
  GPtrArray *traces[4];
  GError *errors[4] = { NULL, NULL, NULL, NULL };
  LogCheck log = { 0 };
  LogDetach detach = { 0 };
  guint n_kernels;

  for (int way = 0; way < 4; way++)
    {
      QdRunStatus status;

      sim[way] = qd_test_compile (doc);
      if (way == 1)
        qd_simulation_set_fused_cascades (sim[way], FALSE);
      if (way == 2)
        {
          guint n = qd_simulation_get_n_atomics (sim[way]);

          log.internal = g_new0 (guint64, n);
          log.external = g_new0 (guint64, n);
          log.last = g_new (double, n);
          log.t = qd_simulation_get_start_time (sim[way]);
          for (guint i = 0; i < n; i++)
            log.last[i] = log.t;
          qd_simulation_set_event_log (sim[way], check_entry, &log);
        }
      if (way == 3)
        {
          detach.sim = sim[way];
          qd_simulation_set_event_log (sim[way], detach_entry, &detach);
        }
      if (chunk == 0)
        status = qd_simulation_run (sim[way], &errors[way]);
      else
        {
          /* A step executes exactly @chunk events unless the run ends:
           * a cascade never carries it past its limit. */
          do
            {
              guint64 before = qd_simulation_get_events (sim[way]);

              status = qd_simulation_step (sim[way], chunk, &errors[way]);
              if (status == QD_RUN_STEPPED)
                g_assert_cmpuint (qd_simulation_get_events (sim[way]), ==,
                                  before + chunk);
            }
          while (status == QD_RUN_STEPPED);
          qd_simulation_finish (sim[way]);
        }
      if (error_code == 0)
        {
          g_assert_no_error (errors[way]);
          g_assert_cmpint (status, ==, QD_RUN_DONE);
        }
      else
        {
          g_assert_error (errors[way], QD_ERROR, error_code);
          g_assert_cmpint (status, ==, QD_RUN_ERROR);
        }
      traces[way] = qd_simulation_get_traces (sim[way]);
    }
  for (int way = 1; way < 4; way++)
    {
      if (error_code != 0)
        g_assert_cmpstr (errors[0]->message, ==, errors[way]->message);
      g_assert_cmpuint (qd_simulation_get_events (sim[0]), ==,
                        qd_simulation_get_events (sim[way]));
      g_assert_cmpuint (qd_simulation_get_transitions (sim[0]), ==,
                        qd_simulation_get_transitions (sim[way]));
      g_assert_cmpuint (qd_simulation_get_integrator_steps (sim[0]), ==,
                        qd_simulation_get_integrator_steps (sim[way]));
      g_assert_cmpuint (qd_simulation_get_n_atomics (sim[0]), ==,
                        qd_simulation_get_n_atomics (sim[way]));
      for (guint i = 0; i < qd_simulation_get_n_atomics (sim[0]); i++)
        {
          guint64 int0, ext0, int1, ext1;

          qd_simulation_get_block_stats (sim[0], i, &int0, &ext0);
          qd_simulation_get_block_stats (sim[way], i, &int1, &ext1);
          g_assert_cmpuint (int0, ==, int1);
          g_assert_cmpuint (ext0, ==, ext1);
          /* The log counts what the statistics count. */
          if (way == 2)
            {
              g_assert_cmpuint (log.internal[i], ==, int1);
              g_assert_cmpuint (log.external[i], ==, ext1);
            }
        }
      g_assert_cmpuint (traces[0]->len, ==, traces[way]->len);
      for (guint k = 0; k < traces[0]->len; k++)
        assert_traces_equal (traces[0]->pdata[k], traces[way]->pdata[k]);
    }
  g_assert_cmpuint (log.event, ==, qd_simulation_get_events (sim[2]));
  g_assert_cmpuint (qd_simulation_get_events (sim[0]), >, 0);

  /* Turning the fused cascades off turns the kernels' path off too (it
   * is taken from run_cascade() only); they are still there. */
  n_kernels = count_kernels (sim[0]);
  g_assert_cmpuint (count_kernels (sim[1]), ==, n_kernels);
  for (guint i = 0; i < sim[1]->n_atomics; i++)
    g_assert_cmpuint (sim[1]->hot[i].fused_out0, ==, 0);

  for (int way = 0; way < 4; way++)
    {
      g_clear_error (&errors[way]);
      qd_simulation_free (sim[way]);
    }
  g_free (log.internal);
  g_free (log.external);
  g_free (log.last);
  return n_kernels;
}

static guint
assert_same_both_ways (QdDocument *doc,
                       guint64     chunk)
{
  return assert_same_both_ways_full (doc, chunk, 0);
}

/* Every shipped example: QSS, LIQSS, hybrid and discrete-event models,
 * cascades through WSum, Gain, Product and NLFunction blocks. */
static void
test_examples (void)
{
  g_autofree char *dir_path = qd_test_source_path ("data", "examples", NULL);
  g_autoptr(GError) error = NULL;
  GDir *dir = g_dir_open (dir_path, 0, &error);
  const char *name;
  guint n = 0;

  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autoptr(QdDocument) doc = NULL;

      if (!g_str_has_suffix (name, QD_FILE_EXTENSION))
        continue;
      path = g_build_filename (dir_path, name, NULL);
      doc = qd_document_load (path, &error);
      g_assert_no_error (error);
      g_test_message ("%s", name);
      assert_same_both_ways (doc, 0);
      n++;
    }
  g_dir_close (dir);
  g_assert_cmpuint (n, >=, 13);
}

/* Derivatives above the receiving method's order (qd-block-integrator.c,
 * "Inputs above the method's order"): the stiff spring's LIQSS2 position
 * reaches first-order speeds through the sum, whose kernel then hands the
 * speed to its general dext; the refreshes are internal transitions
 * without output. */
static void
test_above_order (void)
{
  static const char *const methods[] = { "QSS1", "LIQSS1", "BQSS", "CQSS" };
  g_autofree char *path = qd_test_source_path ("data", "examples",
                                               "stiff-spring.qdevs", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(QdDocument) doc = qd_document_load (path, &error);
      QdBlock *speed;

      g_assert_no_error (error);
      speed = (QdBlock *) qd_document_find_block_by_path (doc, "/Speed z2");
      qd_test_set_param (doc, speed, "method", methods[i]);
      g_test_message ("stiff-spring, speed %s", methods[i]);
      assert_same_both_ways (doc, 0);
    }

  /* A Ramp into QSS1, x = t²/2: refreshes while x is slow. */
  {
    g_autoptr(QdDocument) doc = qd_document_new ();
    QdBlock *ramp = qd_test_add_block (doc, "ramp", "Ramp");
    QdBlock *integ = qd_test_add_block (doc, "integrator", "x");
    QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");

    qd_test_set_param (doc, integ, "method", "QSS1");
    qd_test_set_param (doc, integ, "dqmin", "1e-2");
    qd_test_connect (doc, ramp, 0, integ, 0);
    qd_test_connect (doc, integ, 0, scope, 0);
    qd_test_set_final_time (doc, 10.0);
    g_test_message ("ramp into QSS1");
    assert_same_both_ways (doc, 0);
  }
}

/* An LC line of @n sections (x1' = d - x2, xi' = x(i-1) - x(i+1),
 * xn' = x(n-1)) driven by a unit pulse: every integrator feeds two WSum
 * blocks that feed one integrator each, the pattern the fused cascade is
 * for, and WSum's cascade kernel (of two inputs of order 1 into a QSS2
 * integrator in the fast case, the others through the general one). */
static QdDocument *
build_lc_line (guint        n,
               const char  *method)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *pulse = qd_test_add_block (doc, "pulse", "Pulse");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  g_autofree QdBlock **x = g_new0 (QdBlock *, n);
  g_autofree QdBlock **w = g_new0 (QdBlock *, n);

  qd_test_set_param (doc, scope, "n", "2");
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *xn = g_strdup_printf ("x%u", i + 1);
      g_autofree char *wn = g_strdup_printf ("w%u", i + 1);

      w[i] = qd_test_add_block (doc, "wsum", wn);
      x[i] = qd_test_add_block (doc, "integrator", xn);
      qd_test_set_param (doc, x[i], "method", method);
      qd_test_set_param (doc, w[i], "n", i == n - 1 ? "1" : "2");
      qd_test_set_param (doc, w[i], "weights", i == n - 1 ? "1" : "1, -1");
      qd_test_connect (doc, w[i], 0, x[i], 0);
    }
  qd_test_connect (doc, pulse, 0, w[0], 0);
  for (guint i = 0; i < n; i++)
    {
      if (i + 1 < n)
        qd_test_connect (doc, x[i + 1], 0, w[i], 1);
      if (i > 0)
        qd_test_connect (doc, x[i - 1], 0, w[i], 0);
    }
  qd_test_connect (doc, x[0], 0, scope, 0);
  qd_test_connect (doc, x[n - 1], 0, scope, 1);
  qd_test_set_final_time (doc, 30.0);
  return doc;
}

static void
test_lc_line (void)
{
  const char *methods[] = { "QSS1", "QSS2", "QSS3", "LIQSS2" };

  for (guint m = 0; m < G_N_ELEMENTS (methods); m++)
    {
      g_autoptr(QdDocument) doc = build_lc_line (40, methods[m]);

      g_test_message ("%s", methods[m]);
      /* The output of every integrator but the first and the last
       * (which the Scope reads too) goes to a kernel, and so does the
       * pulse's (to the first WSum alone). */
      g_assert_cmpuint (assert_same_both_ways (doc, 0), ==, 40 - 2 + 1);
    }
}

static guint atomic_index (QdSimulation *sim,
                           const char   *path);

/* A QSS integrator's record holds only the part of the state its method
 * uses (four cache lines, not the six of LIQSS2's), its sum's record
 * following it; under a classic solver, which may copy a block's state
 * whole, every record has the whole state. The runs above are the same
 * either way. */
static void
test_record_sizes (void)
{
  gsize span[3];

  for (guint m = 0; m < 3; m++)
    {
      g_autoptr(QdDocument) doc = build_lc_line (4, m == 1 ? "LIQSS2" : "QSS2");
      QdSimulation *sim;

      if (m == 2)
        {
          QdSettings s = *qd_document_get_settings (doc);

          s.solver = (char *) "rkf45";
          g_assert_true (qd_document_set_settings (doc, &s, NULL));
        }
      sim = qd_simulation_new (doc, NULL, NULL, NULL);
      g_assert_nonnull (sim);
      span[m] = (gsize) ((const char *) sim->atomics[atomic_index (sim, "/x3")].state
                         - (const char *) sim->atomics[atomic_index (sim, "/x2")].state);
      qd_simulation_free (sim);
    }
  g_test_message ("integrator + sum: QSS2 %zu, LIQSS2 %zu, RKF45 %zu bytes",
                  span[0], span[1], span[2]);
  g_assert_cmpuint (span[0], <=, 320);
  g_assert_cmpuint (span[1], >=, span[0] + 128);
  g_assert_cmpuint (span[2], ==, span[1]);
}

/* Lines large enough for the loop's deeper prefetch of the next event:
 * from a line of addresses per block (1024 to 4095 blocks) and from the
 * wiring's arrays (4096 and more). Prefetching changes no result: the
 * run is the same both ways, and under the sanitizers every address the
 * lines hold is computed without a read out of bounds. */
static void
test_large_lines (void)
{
  const guint sizes[] = { 600, 2100 };

  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      g_autoptr(QdDocument) doc = build_lc_line (sizes[k], "QSS2");

      g_test_message ("N = %u", sizes[k]);
      g_assert_cmpuint (assert_same_both_ways (doc, 0), ==, sizes[k] - 2 + 1);
    }
}

/* Stepping by a few events at a time: a cascade that would carry the run
 * past the step's last event goes through the queue instead, so each
 * step ends exactly where it should, and the run is the same. */
static void
test_steps (void)
{
  const char *methods[] = { "QSS2", "QSS1" };

  /* With a kernel a cascade is one call, and it is never begun when the
   * step's last event would fall inside it: steps of 1, 2 and 7 events
   * end inside the cascades of two WSum blocks (three events with the
   * integrator's) in every possible place. */
  for (guint m = 0; m < G_N_ELEMENTS (methods); m++)
    {
      g_autoptr(QdDocument) doc = build_lc_line (12, methods[m]);

      g_assert_cmpuint (assert_same_both_ways (doc, 1), >, 0);
      assert_same_both_ways (doc, 2);
      assert_same_both_ways (doc, 7);
    }
}

/* A cascade interrupted: the integrator x feeds two WSum blocks. The
 * first, a, feeds a Saturation, which is not a static block and emits at
 * once after its input changes (a time advance of 0): from then on
 * something is due now, so the second WSum, b, must wait in the queue
 * behind the Saturation when the Saturation has the lower index, as the
 * general loop orders them. b closes the loop x' = -x. x feeds nothing
 * else (a direct receiver that is not static rules the fused cascade
 * out), and the Scope sees x through a and the Saturation. */
static void
test_interrupted (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *a = qd_test_add_block (doc, "wsum", "a");
  QdBlock *sat = qd_test_add_block (doc, "saturation", "Saturation");
  QdBlock *b = qd_test_add_block (doc, "wsum", "b");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");

  qd_test_set_param (doc, x, "x0", "1");
  qd_test_set_param (doc, a, "n", "1");
  qd_test_set_param (doc, a, "weights", "2");
  qd_test_set_param (doc, b, "n", "1");
  qd_test_set_param (doc, b, "weights", "-1");
  qd_test_connect (doc, x, 0, a, 0);
  qd_test_connect (doc, x, 0, b, 0);
  qd_test_connect (doc, b, 0, x, 0);
  qd_test_connect (doc, a, 0, sat, 0);
  qd_test_connect (doc, sat, 0, scope, 0);
  qd_test_set_final_time (doc, 5.0);
  assert_same_both_ways (doc, 0);
  assert_same_both_ways (doc, 3);
}

/* A kernel's cascade interrupted: x' = x grows as e^t and feeds three
 * WSum blocks, each feeding an integrator: a (x + 0 y) closes the loop,
 * b (1e300 x + 0 y) drives z, c (0 x) holds y still. Near t = 19, x is
 * still finite when b's output is not: the kernel stops at b, having run a
 * and its receiver x; b's transition is counted, the run fails naming b,
 * and c is left in the queue, as the general loop does.
 * @n_in is the number of inputs of a and b: 2 takes the kernel's fast
 * case, 1 its general one. The Scope sees z, which nothing else reads
 * (a direct receiver of x that is not static would rule the kernel
 * out). */
static QdDocument *
build_overflow (guint n_in)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *a = qd_test_add_block (doc, "wsum", "a");
  QdBlock *b = qd_test_add_block (doc, "wsum", "b");
  QdBlock *c = qd_test_add_block (doc, "wsum", "c");
  QdBlock *y = qd_test_add_block (doc, "integrator", "y");
  QdBlock *z = qd_test_add_block (doc, "integrator", "z");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");

  qd_test_set_param (doc, x, "x0", "1");
  qd_test_set_param (doc, x, "method", "QSS2");
  qd_test_set_param (doc, y, "x0", "1");
  qd_test_set_param (doc, y, "method", "QSS2");
  qd_test_set_param (doc, z, "method", "QSS2");
  /* A quantum of 1e306 for z = ∫ b ≈ 1e300 x: with a relative one, z's
   * own output (its value and slope near 1e308) overflows a few events
   * before b's. */
  qd_test_set_param (doc, z, "dqmin", "1e306");
  qd_test_set_param (doc, z, "dqrel", "0");
  qd_test_set_param (doc, a, "n", n_in == 2 ? "2" : "1");
  qd_test_set_param (doc, a, "weights", n_in == 2 ? "1, 0" : "1");
  qd_test_set_param (doc, b, "n", n_in == 2 ? "2" : "1");
  qd_test_set_param (doc, b, "weights", n_in == 2 ? "1e300, 0" : "1e300");
  qd_test_set_param (doc, c, "n", "1");
  qd_test_set_param (doc, c, "weights", "0");
  qd_test_set_param (doc, scope, "n", "1");
  qd_test_connect (doc, x, 0, a, 0);
  qd_test_connect (doc, x, 0, b, 0);
  qd_test_connect (doc, x, 0, c, 0);
  if (n_in == 2)
    {
      qd_test_connect (doc, y, 0, a, 1);
      qd_test_connect (doc, y, 0, b, 1);
    }
  qd_test_connect (doc, a, 0, x, 0);
  qd_test_connect (doc, b, 0, z, 0);
  qd_test_connect (doc, c, 0, y, 0);
  qd_test_connect (doc, z, 0, scope, 0);
  qd_test_set_final_time (doc, 40.0);
  return doc;
}

static void
test_kernel_error (void)
{
  for (guint n_in = 1; n_in <= 2; n_in++)
    {
      g_autoptr(QdDocument) doc = build_overflow (n_in);
      QdSimulation *sim = qd_test_compile (doc);
      g_autoptr(GError) error = NULL;
      guint64 n_int, n_ext;

      g_test_message ("%u inputs", n_in);
      /* x (index 0) has a kernel (and y, when it feeds a and b); b
       * (index 2) fails. */
      g_assert_cmpuint (count_kernels (sim), ==, n_in);
      g_assert_cmpuint (sim->hot[0].pairs, !=, QD_NO_PAIRS);
      g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_ERROR);
      g_assert_error (error, QD_ERROR, QD_ERROR_NUMERIC);
      g_assert_nonnull (strstr (error->message, "/b: produced infinity"));
      /* b ran its last output (an internal transition for each external
       * one); c, left in the queue, did not. */
      qd_simulation_get_block_stats (sim, 2, &n_int, &n_ext);
      g_assert_cmpuint (n_int, ==, n_ext);
      qd_simulation_get_block_stats (sim, 3, &n_int, &n_ext);
      g_assert_cmpuint (n_int + 1, ==, n_ext);
      qd_simulation_free (sim);

      assert_same_both_ways_full (doc, 0, QD_ERROR_NUMERIC);
      assert_same_both_ways_full (doc, 5, QD_ERROR_NUMERIC);
    }
}

/* The index of the block at @path in @sim. */
static guint
atomic_index (QdSimulation *sim,
              const char   *path)
{
  for (guint i = 0; i < sim->n_atomics; i++)
    if (g_strcmp0 (sim->atomics[i].path, path) == 0)
      return i;
  g_error ("no block %s", path);
  return 0;
}

/* Block @i's static chain is the paths @expected, in that order. */
static void
assert_chain (QdSimulation       *sim,
              guint               i,
              const char *const  *expected)
{
  guint n = g_strv_length ((char **) expected);

  g_assert_cmpuint (sim->hot[i].fused_out0 == QD_FUSED_CHAIN, ==, n > 0);
  g_assert_cmpuint (sim->chain_start[i + 1] - sim->chain_start[i], ==, n);
  for (guint k = 0; k < n; k++)
    g_assert_cmpstr (sim->atomics[sim->chain[sim->chain_start[i] + k]].path,
                     ==, expected[k]);
}

/* Static chains (run_chain(), qd-simulation-chain.c): Lotka–Volterra's
 * integrators feed Products, which feed WSums, which feed the
 * integrators, and the Scope beside them; the chain is the order in
 * which the now queue runs them (lowest index first, a block reached
 * twice run once), and the run is the same run, also when stepped a few
 * events at a time (a chain never passes the event limit). */
static void
test_chains (void)
{
  static const char *const prey[] = { "/x1 x2", "/x1 x1", "/Prey rate",
                                      "/Predator rate", NULL };
  static const char *const predator[] = { "/x1 x2", "/Prey rate",
                                          "/Predator rate", NULL };
  static const char *const none[] = { NULL };
  static const guint64 chunks[] = { 0, 1, 2, 3, 5, 7 };
  g_autofree char *path = qd_test_source_path ("data", "examples",
                                               "lotka-volterra.qdevs", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) doc = qd_document_load (path, &error);
  QdSimulation *sim;
  guint32 pending[QD_CHAIN_MAX];
  guint n, x1x1, prey_rate, predator_rate;

  g_assert_no_error (error);
  sim = qd_test_compile (doc);
  assert_chain (sim, atomic_index (sim, "/Prey"), prey);
  assert_chain (sim, atomic_index (sim, "/Predator"), predator);
  /* Static blocks go on from the queue; the Scope has no output. */
  assert_chain (sim, atomic_index (sim, "/x1 x2"), none);
  assert_chain (sim, atomic_index (sim, "/Scope"), none);

  /* What the queue holds when the prey's chain is left after its first
   * block: the second, and the WSums (the first reached again). */
  x1x1 = atomic_index (sim, "/x1 x1");
  prey_rate = atomic_index (sim, "/Prey rate");
  predator_rate = atomic_index (sim, "/Predator rate");
  n = qd_simulation_chain_pending (sim, atomic_index (sim, "/Prey"), 1,
                                   FALSE, pending);
  g_assert_cmpuint (n, ==, 3);
  g_assert_cmpuint (pending[0], ==, x1x1);
  g_assert_cmpuint (pending[1], ==, prey_rate);
  g_assert_cmpuint (pending[2], ==, predator_rate);
  n = qd_simulation_chain_pending (sim, atomic_index (sim, "/Prey"), 1,
                                   TRUE, pending);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpuint (pending[0], ==, prey_rate);

  /* The WSums, each into its integrator alone, run with their type's
   * cascade kernel: the prey's program is its header and Scope, the two
   * Products, and each WSum with its integrator. */
  {
    guint i = atomic_index (sim, "/Prey");
    const QdChainOp *op = &sim->chain_ops[sim->chain_op_start[i]];
    guint kernels = 0;

    g_assert_cmpuint (sim->chain_op_start[i + 1] - sim->chain_op_start[i],
                      ==, 8);
    for (guint k = sim->chain_op_start[i]; k < sim->chain_op_start[i + 1];
         k++)
      kernels += sim->chain_ops[k].pair != QD_NO_PAIRS;
    g_assert_cmpuint (kernels, ==, 2);
    g_assert_cmpuint (op[0].arg, ==, 1);
    g_assert_cmpuint (op[1].block, ==, atomic_index (sim, "/Scope"));
    g_assert_cmpuint (op[4].block, ==, prey_rate);
    g_assert_cmpuint (op[4].pair, !=, QD_NO_PAIRS);
    g_assert_cmpuint (op[5].block, ==, i);
  }

  /* Turned off with the fused cascades, back with them. */
  qd_simulation_set_fused_cascades (sim, FALSE);
  g_assert_cmpuint (sim->hot[atomic_index (sim, "/Prey")].fused_out0, ==, 0);
  qd_simulation_set_fused_cascades (sim, TRUE);
  assert_chain (sim, atomic_index (sim, "/Prey"), prey);
  qd_simulation_free (sim);

  for (guint k = 0; k < G_N_ELEMENTS (chunks); k++)
    {
      g_test_message ("chunks of %" G_GUINT64_FORMAT, chunks[k]);
      assert_same_both_ways (doc, chunks[k]);
    }
}

/* A chain's whole runs are counted once each (QdSimulation.chain_runs),
 * not transition by transition: Lotka–Volterra stepped a few events at a
 * time, fused and through the queue, gives every block the same counts
 * after each step, and the Product x1 x1, which only the prey's chain
 * runs, has its counters in the blocks' arrays only for the runs that
 * were not whole. */
static void
test_chain_counts (void)
{
  g_autofree char *path = qd_test_source_path ("data", "examples",
                                               "lotka-volterra.qdevs", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) doc = qd_document_load (path, &error);
  QdSimulation *fused, *queued;
  QdRunStatus status;
  guint prey, x1x1, n;
  guint64 steps = 0;

  g_assert_no_error (error);
  fused = qd_test_compile (doc);
  queued = qd_test_compile (doc);
  qd_simulation_set_fused_cascades (queued, FALSE);
  n = qd_simulation_get_n_atomics (fused);
  prey = atomic_index (fused, "/Prey");
  x1x1 = atomic_index (fused, "/x1 x1");
  do
    {
      status = qd_simulation_step (fused, 5, &error);
      g_assert_no_error (error);
      g_assert_cmpint (qd_simulation_step (queued, 5, &error), ==, status);
      g_assert_no_error (error);
      for (guint i = 0; i < n; i++)
        {
          guint64 a[2], b[2];

          qd_simulation_get_block_stats (fused, i, &a[0], &a[1]);
          qd_simulation_get_block_stats (queued, i, &b[0], &b[1]);
          g_assert_cmpuint (a[0], ==, b[0]);
          g_assert_cmpuint (a[1], ==, b[1]);
        }
      steps++;
    }
  while (status == QD_RUN_STEPPED && steps < 20000);
  g_assert_cmpint (status, ==, QD_RUN_DONE);
  g_assert_cmpuint (fused->chain_runs[prey], >, 0);
  {
    guint64 internal, external;

    qd_simulation_get_block_stats (fused, x1x1, &internal, &external);
    g_assert_cmpuint (internal, ==, fused->hot[x1x1].n_internal
                                    + fused->chain_runs[prey]);
    /* Two ports, both from the prey. */
    g_assert_cmpuint (external, ==, fused->hot[x1x1].n_external
                                    + 2 * fused->chain_runs[prey]);
  }
  qd_simulation_free (fused);
  qd_simulation_free (queued);
}

/* A WSum of three inputs into an integrator, through its cascade kernel
 * (the kernel's general path, which hands the integrator the sum's
 * coefficients when its order is 2 or less): x' = -x + 0.5 y + 0.25 x,
 * y' = x - y, under each method, the same run as through the queue; the
 * integrators start apart so that x and y move. */
static void
test_wsum_three (void)
{
  static const char *const methods[] = { "QSS1", "QSS2", "QSS3", "LIQSS1",
                                         "LIQSS2", "LIQSS3" };

  for (guint m = 0; m < G_N_ELEMENTS (methods); m++)
    {
      g_autoptr(QdDocument) doc = qd_document_new ();
      QdBlock *x = qd_test_add_block (doc, "integrator", "x");
      QdBlock *y = qd_test_add_block (doc, "integrator", "y");
      QdBlock *a = qd_test_add_block (doc, "wsum", "a");
      QdBlock *b = qd_test_add_block (doc, "wsum", "b");
      QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
      QdSimulation *sim;

      g_test_message ("%s", methods[m]);
      qd_test_set_param (doc, x, "x0", "1");
      qd_test_set_param (doc, y, "x0", "-0.5");
      qd_test_set_param (doc, x, "method", methods[m]);
      qd_test_set_param (doc, y, "method", methods[m]);
      qd_test_set_param (doc, a, "n", "3");
      qd_test_set_param (doc, a, "weights", "-1, 0.5, 0.25");
      qd_test_set_param (doc, b, "weights", "1, -1");
      qd_test_set_param (doc, scope, "n", "2");
      qd_test_connect (doc, x, 0, a, 0);
      qd_test_connect (doc, y, 0, a, 1);
      qd_test_connect (doc, x, 0, a, 2);
      qd_test_connect (doc, x, 0, b, 0);
      qd_test_connect (doc, y, 0, b, 1);
      qd_test_connect (doc, a, 0, x, 0);
      qd_test_connect (doc, b, 0, y, 0);
      qd_test_connect (doc, x, 0, scope, 0);
      qd_test_connect (doc, y, 0, scope, 1);
      qd_test_set_final_time (doc, 20.0);

      /* The sums are a's kernel's: its three inputs take the general
       * path. */
      sim = qd_test_compile (doc);
      g_assert_cmpuint (sim->n_kernels, >, 0);
      qd_simulation_free (sim);
      assert_same_both_ways (doc, 0);
      assert_same_both_ways (doc, 7);
    }
}

/* A chain left early more than one run in four goes back to the queue:
 * the buck converter's two chains (from the PWM gate and the inductor
 * current) reach blocks that are often due at once, and go back;
 * Lotka–Volterra's are never left, and stay. Both runs are the same either way
 * (test_examples()). */
static void
test_chain_misses (void)
{
  static const char *const models[] = { "buck-converter.qdevs",
                                        "lotka-volterra.qdevs" };

  for (guint m = 0; m < G_N_ELEMENTS (models); m++)
    {
      g_autofree char *path = qd_test_source_path ("data", "examples",
                                                   models[m], NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(QdDocument) doc = qd_document_load (path, &error);
      QdSimulation *sim;
      guint before = 0, after = 0;

      g_assert_no_error (error);
      sim = qd_test_compile (doc);
      for (guint i = 0; i < sim->n_atomics; i++)
        before += sim->hot[i].fused_out0 == QD_FUSED_CHAIN;
      g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
      for (guint i = 0; i < sim->n_atomics; i++)
        after += sim->hot[i].fused_out0 == QD_FUSED_CHAIN;
      g_test_message ("%s: %u chains, %u left", models[m], before, after);
      g_assert_cmpuint (before, ==, 2);
      if (m == 0)
        g_assert_cmpuint (after, <, before);
      else
        g_assert_cmpuint (after, ==, before);
      qd_simulation_free (sim);
    }
}

/* A chain left on an error: x' = x grows as e^t and feeds a (x, back
 * into x), g (1e300 x) and c (0 x, into y), and the Scope; g feeds the
 * Product p = g·g, into z. Near t = 18, p's output is infinite while
 * everything before it is finite: the chain has run a and g, p's
 * transition is counted, the run fails naming p, and c, still due, is
 * left queued, as the general loop leaves it. */
static void
test_chain_error (void)
{
  static const char *const chain[] = { "/a", "/g", "/p", "/c", NULL };
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *a = qd_test_add_block (doc, "wsum", "a");
  QdBlock *g = qd_test_add_block (doc, "gain", "g");
  QdBlock *p = qd_test_add_block (doc, "product", "p");
  QdBlock *c = qd_test_add_block (doc, "wsum", "c");
  QdBlock *y = qd_test_add_block (doc, "integrator", "y");
  QdBlock *z = qd_test_add_block (doc, "integrator", "z");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;
  g_autoptr(GError) error = NULL;
  guint64 n_int, n_ext;

  qd_test_set_param (doc, x, "x0", "1");
  qd_test_set_param (doc, x, "method", "QSS2");
  qd_test_set_param (doc, y, "method", "QSS2");
  qd_test_set_param (doc, z, "method", "QSS2");
  qd_test_set_param (doc, z, "dqmin", "1e306");
  qd_test_set_param (doc, z, "dqrel", "0");
  qd_test_set_param (doc, a, "n", "1");
  qd_test_set_param (doc, a, "weights", "1");
  qd_test_set_param (doc, c, "n", "1");
  qd_test_set_param (doc, c, "weights", "0");
  qd_test_set_param (doc, g, "k", "1e300");
  qd_test_set_param (doc, scope, "n", "1");
  qd_test_connect (doc, x, 0, scope, 0);
  qd_test_connect (doc, x, 0, a, 0);
  qd_test_connect (doc, x, 0, g, 0);
  qd_test_connect (doc, x, 0, c, 0);
  qd_test_connect (doc, a, 0, x, 0);
  qd_test_connect (doc, g, 0, p, 0);
  qd_test_connect (doc, g, 0, p, 1);
  qd_test_connect (doc, p, 0, z, 0);
  qd_test_connect (doc, c, 0, y, 0);
  qd_test_set_final_time (doc, 40.0);

  sim = qd_test_compile (doc);
  assert_chain (sim, atomic_index (sim, "/x"), chain);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_ERROR);
  g_assert_error (error, QD_ERROR, QD_ERROR_NUMERIC);
  g_assert_nonnull (strstr (error->message, "/p: produced infinity"));
  qd_simulation_get_block_stats (sim, atomic_index (sim, "/p"), &n_int,
                                 &n_ext);
  g_assert_cmpuint (n_int * 2, ==, n_ext);
  qd_simulation_get_block_stats (sim, atomic_index (sim, "/c"), &n_int,
                                 &n_ext);
  g_assert_cmpuint (n_int + 1, ==, n_ext);
  qd_simulation_free (sim);

  assert_same_both_ways_full (doc, 0, QD_ERROR_NUMERIC);
  assert_same_both_ways_full (doc, 3, QD_ERROR_NUMERIC);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  g_test_add_func ("/cascade/examples", test_examples);
  g_test_add_func ("/cascade/above-order", test_above_order);
  g_test_add_func ("/cascade/lc-line", test_lc_line);
  g_test_add_func ("/cascade/record-sizes", test_record_sizes);
  g_test_add_func ("/cascade/large-lines", test_large_lines);
  g_test_add_func ("/cascade/steps", test_steps);
  g_test_add_func ("/cascade/interrupted", test_interrupted);
  g_test_add_func ("/cascade/kernel-error", test_kernel_error);
  g_test_add_func ("/cascade/chains", test_chains);
  g_test_add_func ("/cascade/chain-error", test_chain_error);
  g_test_add_func ("/cascade/chain-counts", test_chain_counts);
  g_test_add_func ("/cascade/wsum-three", test_wsum_three);
  g_test_add_func ("/cascade/chain-misses", test_chain_misses);

  return g_test_run ();
}

/* test-cascade.c: the event loop's fused cascades (run_cascade() in
 * qd-simulation.c) change nothing but speed.
 *
 * Each model is compiled twice, once as it runs by default and once with
 * qd_simulation_set_fused_cascades (FALSE), which sends every zero-time
 * cascade through the now queue. The two runs must agree on everything
 * observable: event, transition and step totals, every block's internal
 * and external counts, and every trace segment bit for bit.
 */
#include "qd-test-util.h"

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

/* Runs @doc both ways (to its final time, or by @chunk events at a time
 * when @chunk is not 0) and compares everything. */
static void
assert_same_both_ways (QdDocument *doc,
                       guint64     chunk)
{
  QdSimulation *sim[2];
  GPtrArray *traces[2];

  for (int way = 0; way < 2; way++)
    {
      sim[way] = qd_test_compile (doc);
      if (way == 1)
        qd_simulation_set_fused_cascades (sim[way], FALSE);
      if (chunk == 0)
        qd_test_run (sim[way]);
      else
        {
          g_autoptr(GError) error = NULL;
          QdRunStatus status;

          /* A step executes exactly @chunk events unless the run ends:
           * a cascade never carries it past its limit. */
          do
            {
              guint64 before = qd_simulation_get_events (sim[way]);

              status = qd_simulation_step (sim[way], chunk, &error);
              g_assert_no_error (error);
              if (status == QD_RUN_STEPPED)
                g_assert_cmpuint (qd_simulation_get_events (sim[way]), ==,
                                  before + chunk);
            }
          while (status == QD_RUN_STEPPED);
          qd_simulation_finish (sim[way]);
        }
      traces[way] = qd_simulation_get_traces (sim[way]);
    }

  g_assert_cmpuint (qd_simulation_get_events (sim[0]), ==,
                    qd_simulation_get_events (sim[1]));
  g_assert_cmpuint (qd_simulation_get_transitions (sim[0]), ==,
                    qd_simulation_get_transitions (sim[1]));
  g_assert_cmpuint (qd_simulation_get_integrator_steps (sim[0]), ==,
                    qd_simulation_get_integrator_steps (sim[1]));
  g_assert_cmpuint (qd_simulation_get_n_atomics (sim[0]), ==,
                    qd_simulation_get_n_atomics (sim[1]));
  for (guint i = 0; i < qd_simulation_get_n_atomics (sim[0]); i++)
    {
      guint64 int0, ext0, int1, ext1;

      qd_simulation_get_block_stats (sim[0], i, &int0, &ext0);
      qd_simulation_get_block_stats (sim[1], i, &int1, &ext1);
      g_assert_cmpuint (int0, ==, int1);
      g_assert_cmpuint (ext0, ==, ext1);
    }
  g_assert_cmpuint (traces[0]->len, ==, traces[1]->len);
  for (guint k = 0; k < traces[0]->len; k++)
    assert_traces_equal (traces[0]->pdata[k], traces[1]->pdata[k]);
  g_assert_cmpuint (qd_simulation_get_events (sim[0]), >, 0);

  qd_simulation_free (sim[0]);
  qd_simulation_free (sim[1]);
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

/* An LC line of @n sections (x1' = d - x2, xi' = x(i-1) - x(i+1),
 * xn' = x(n-1)) driven by a unit pulse: every integrator feeds two WSum
 * blocks that feed one integrator each, the pattern the fused cascade is
 * for. */
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
      assert_same_both_ways (doc, 0);
    }
}

/* Stepping by a few events at a time: a cascade that would carry the run
 * past the step's last event goes through the queue instead, so each
 * step ends exactly where it should, and the run is the same. */
static void
test_steps (void)
{
  g_autoptr(QdDocument) doc = build_lc_line (12, "QSS2");

  assert_same_both_ways (doc, 1);
  assert_same_both_ways (doc, 2);
  assert_same_both_ways (doc, 7);
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

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  g_test_add_func ("/cascade/examples", test_examples);
  g_test_add_func ("/cascade/lc-line", test_lc_line);
  g_test_add_func ("/cascade/steps", test_steps);
  g_test_add_func ("/cascade/interrupted", test_interrupted);

  return g_test_run ();
}

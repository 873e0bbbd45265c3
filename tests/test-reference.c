/* test-reference.c: the engine's QSS2, QSS3 and LIQSS2 against the
 * hand-written reference solvers of the LC line
 * (bench/qd-reference-lcline-solver.c, qd-reference-lcline3-solver.c,
 * qd-reference-lcline-liqss2-solver.c)
 *
 * The reference computes what the benchmark's diagram computes (WSum +
 * Integrator per state, a Pulse as d) with the engine's operations in the
 * engine's order of simultaneous events, written out for that one model.
 * So the two must take the same integrator steps to the same final
 * states. Measured when this test was written: lcline N = 50 to t = 30,
 * 37686 steps each, and lcline-random N = 200 to t = 1, 8439 steps each,
 * every final state equal to the bit; under QSS3, 9985 and 2334 steps,
 * and under LIQSS2, 37582 and 8419, likewise. The counts are therefore asserted
 * equal (any tolerance would be looser than the data), the states within
 * two quanta of each other (a rounding change on either side moves a
 * state by far less than a quantum; a wrong quantum, crossing or event
 * order by far more, and it changes the counts). The model is built as
 * `qdevs-cli bench` builds it (app/qd-cli-bench.c's build_lcline()), in
 * the same block order, which is the order of simultaneous events.
 */
#include "qd-test-util.h"
#include "qd-integrator-private.h"
#include "qd-reference-lcline-solver.h"
#include "qd-reference-lcline3-solver.h"
#include "qd-reference-lcline-liqss2-solver.h"

#include <math.h>
#include <string.h>

#define SEED 20240601   /* qd-cli-bench.c's BENCH_SEED */

static QdDocument *
make_lcline (guint       n,
             gboolean    random_start,
             double      until,
             const char *method)
{
  QdDocument *doc = qd_document_new ();
  g_autofree QdBlock **x = g_new0 (QdBlock *, n);
  g_autofree QdBlock **dx = g_new0 (QdBlock *, n);
  g_autoptr(GRand) rand = g_rand_new_with_seed (SEED);
  g_autoptr(GError) error = NULL;
  QdSettings settings;
  QdBlock *pulse;

  qd_document_init_settings (&settings);
  settings.start_time = 0.0;
  settings.final_time = until;
  g_free (settings.method);
  settings.method = g_strdup (method);
  settings.dqmin = 1e-6;
  settings.dqrel = 1e-3;
  g_assert_true (qd_document_set_settings (doc, &settings, &error));
  g_assert_no_error (error);
  qd_settings_clear (&settings);

  pulse = qd_test_add_block (doc, "pulse", "Pulse");
  qd_test_set_param (doc, pulse, "amplitude", "1");
  qd_test_set_param (doc, pulse, "start", "0");
  qd_test_set_param (doc, pulse, "width", "1");
  qd_test_set_param (doc, pulse, "base", "0");
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *x_name = g_strdup_printf ("x%u", i + 1);
      g_autofree char *dx_name = g_strdup_printf ("dx%u", i + 1);

      dx[i] = qd_test_add_block (doc, "wsum", dx_name);
      if (i + 1 < n)
        qd_test_set_param (doc, dx[i], "weights", "1, -1");
      else
        {
          qd_test_set_param (doc, dx[i], "n", "1");
          qd_test_set_param (doc, dx[i], "weights", "1");
        }
      x[i] = qd_test_add_block (doc, "integrator", x_name);
      if (random_start)
        {
          char x0[G_ASCII_DTOSTR_BUF_SIZE];

          qd_test_set_param (doc, x[i], "x0",
                             g_ascii_formatd (x0, sizeof x0, "%.17g",
                                              g_rand_double_range (rand, -1.0, 1.0)));
        }
      qd_test_connect (doc, dx[i], 0, x[i], 0);
    }
  for (guint i = 0; i < n; i++)
    {
      qd_test_connect (doc, i == 0 ? pulse : x[i - 1], 0, dx[i], 0);
      if (i + 1 < n)
        qd_test_connect (doc, x[i + 1], 0, dx[i], 1);
    }
  return doc;
}

/* The engine's state @st at @t, by the same shift as its integrator's. */
static double
engine_state_at (const Integrator *st,
                 double            t)
{
  double e = t - st->core.tl;

  if (st->core.n == 3)
    return st->core.x[0] + e * (st->core.x[1] + e * (st->core.x[2] + e * st->core.x[3]));
  return st->core.x[0] + e * (st->core.x[1] + e * st->core.x[2]);
}

static void
compare (guint       n,
         gboolean    random_start,
         double      until,
         const char *method)
{
  g_autoptr(QdDocument) doc = make_lcline (n, random_start, until, method);
  QdSimulation *sim = qd_test_compile (doc);
  gboolean qss3 = strcmp (method, "QSS3") == 0, liqss2 = strcmp (method, "LIQSS2") == 0;
  QdRefLcline *ref = !qss3 && !liqss2 ? qd_ref_lcline_new (n, random_start) : NULL;
  QdRefLcline3 *ref3 = qss3 ? qd_ref_lcline3_new (n, random_start) : NULL;
  QdRefLclineLiqss2 *refl = liqss2 ? qd_ref_lcline_liqss2_new (n, random_start) : NULL;
  guint64 ref_steps, engine_steps;
  guint n_states = 0, n_equal = 0;
  double worst = 0.0;

  qd_test_run (sim);
  engine_steps = qd_simulation_get_integrator_steps (sim);
  if (qss3)
    {
      qd_ref_lcline3_reset (ref3);
      ref_steps = qd_ref_lcline3_start (ref3) + qd_ref_lcline3_advance (ref3, until);
    }
  else if (liqss2)
    {
      qd_ref_lcline_liqss2_reset (refl);
      ref_steps = qd_ref_lcline_liqss2_start (refl) + qd_ref_lcline_liqss2_advance (refl, until);
    }
  else
    {
      qd_ref_lcline_reset (ref);
      ref_steps = qd_ref_lcline_run (ref, until);
    }
  g_test_message ("%s N = %u to t = %g, %s: engine %" G_GUINT64_FORMAT
                  " steps, reference %" G_GUINT64_FORMAT,
                  random_start ? "lcline-random" : "lcline", n, until,
                  method, engine_steps, ref_steps);
  g_assert_cmpuint (engine_steps, ==, ref_steps);

  /* The Integrators in block order are x1..xN. */
  for (guint k = 0; k < qd_simulation_get_n_atomics (sim); k++)
    {
      const QdAtomic *a = qd_simulation_get_atomic (sim, k);
      double xe, xr, dq;

      if (strcmp (a->type->id, "integrator") != 0)
        continue;
      g_assert_cmpuint (n_states, <, n);
      xe = engine_state_at (a->state, until);
      xr = qss3 ? qd_ref_lcline3_state_at (ref3, n_states, until)
           : liqss2 ? qd_ref_lcline_liqss2_state_at (refl, n_states, until)
           : qd_ref_lcline_state_at (ref, n_states, until);
      dq = MAX (1e-3 * fabs (xr), 1e-6);
      n_equal += xe == xr;
      worst = MAX (worst, fabs (xe - xr) / dq);
      if (!(fabs (xe - xr) <= 2.0 * dq))
        g_error ("x%u at t = %g: engine %.17g, reference %.17g (%.3g quanta apart)",
                 n_states + 1, until, xe, xr, fabs (xe - xr) / dq);
      n_states++;
    }
  g_assert_cmpuint (n_states, ==, n);
  g_test_message ("%u of %u final states equal to the bit; the farthest %.3g quanta apart",
                  n_equal, n, worst);

  qd_ref_lcline_free (ref);
  qd_ref_lcline3_free (ref3);
  qd_ref_lcline_liqss2_free (refl);
  qd_simulation_free (sim);
}

/* The pulse enters, runs down the line and back: every kind of event of
 * the model (the fall at t = 1, states at rest reached by the wave). */
static void
test_lcline (void)
{
  compare (50, FALSE, 30.0, "QSS2");
}

/* Every state active from the start, most of them requantizing at the
 * t = 0 of their initial outputs' order. */
static void
test_lcline_random (void)
{
  compare (200, TRUE, 1.0, "QSS2");
}

/* The same two runs under QSS3 and LIQSS2. */
static void
test_lcline_qss3 (void)
{
  compare (50, FALSE, 30.0, "QSS3");
}

static void
test_lcline_random_qss3 (void)
{
  compare (200, TRUE, 1.0, "QSS3");
}

static void
test_lcline_liqss2 (void)
{
  compare (50, FALSE, 30.0, "LIQSS2");
}

static void
test_lcline_random_liqss2 (void)
{
  compare (200, TRUE, 1.0, "LIQSS2");
}

/* The run in parts, as --from times it: the start, then the events to
 * times on either side of the pulse's fall, give the steps and the
 * states of the run in one call, to the bit. */
static void
test_parts (void)
{
  static const double stops[][3] = {
    { 0.5, 30.0, -1.0 }, { 1.0, 30.0, -1.0 }, { 2.0, 30.0, -1.0 }, { 0.25, 1.0, 30.0 },
  };
  const guint n = 50;
  QdRefLcline *whole = qd_ref_lcline_new (n, FALSE), *parts = qd_ref_lcline_new (n, FALSE);
  guint64 whole_steps;

  qd_ref_lcline_reset (whole);
  whole_steps = qd_ref_lcline_run (whole, 30.0);
  for (guint c = 0; c < G_N_ELEMENTS (stops); c++)
    {
      guint64 steps;

      qd_ref_lcline_reset (parts);
      steps = qd_ref_lcline_start (parts);
      g_assert_cmpuint (steps, ==, n);
      for (guint k = 0; k < 3 && stops[c][k] > 0.0; k++)
        steps += qd_ref_lcline_advance (parts, stops[c][k]);
      g_assert_cmpuint (steps, ==, whole_steps);
      for (guint i = 0; i < n; i++)
        g_assert_cmpfloat (qd_ref_lcline_state_at (parts, i, 30.0), ==,
                           qd_ref_lcline_state_at (whole, i, 30.0));
    }
  qd_ref_lcline_free (whole);
  qd_ref_lcline_free (parts);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();
  g_test_add_func ("/reference/lcline", test_lcline);
  g_test_add_func ("/reference/lcline-random", test_lcline_random);
  g_test_add_func ("/reference/lcline-qss3", test_lcline_qss3);
  g_test_add_func ("/reference/lcline-random-qss3", test_lcline_random_qss3);
  g_test_add_func ("/reference/lcline-liqss2", test_lcline_liqss2);
  g_test_add_func ("/reference/lcline-random-liqss2", test_lcline_random_liqss2);
  g_test_add_func ("/reference/parts", test_parts);
  return g_test_run ();
}

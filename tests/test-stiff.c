/* test-stiff.c: the stiff methods of the Integrator (LIQSS1-3, BQSS, CQSS)
 *
 * The shipped example stiff-spring.qdevs (z1' = z2, z2' = 1 - z1 -
 * 100.01 z2, at rest at t = 0; eigenvalues -0.01 and -100; the textbook's
 * section 3.2.10) is run with each method and two quanta and checked
 * against its analytic solution: the error of q in quanta, and the
 * integrator steps against the activity estimate k = sum_i A_i /
 * dQ^(1/n), A_i = integral over [0, 500] of |x_i^(n)(t) / n!|^(1/n),
 * computed here by quadrature of the exact derivatives. The explicit QSS1
 * and QSS2 must show their spurious oscillations (ten times the
 * estimate); the stiff methods must not. The position z1 follows its
 * estimate; the speed z2 follows the drift law derived at test_liqss()
 * (the published methods step the fast state at each move of its
 * quasi-steady value), which is why the LIQSS totals are 1.2 to 2.1
 * times the estimate rather than within 50% of it; that bound is
 * checked where it holds and the gap measured where it does not. BQSS
 * and CQSS show their spurious-equilibrium error on z1; on the same
 * spring without damping (marginally stable), CQSS keeps the amplitude
 * that BQSS damps and QSS1 lets grow. A single stiff
 * equation x' = 1 - 100 x checks the end states that define the methods:
 * LIQSS2 and LIQSS3 put q exactly on the equilibrium and stop, BQSS and
 * CQSS hold x within a quantum of it and stop (every method on the
 * non-stiff decay x' = -x is in test-qss.c).
 * When a Switch cuts a state's feedback to itself, the LIQSS methods
 * must drop the self-dependence they measured and step as QSS does.
 * LIQSS3's step count must not jump when dQ moves by half a percent (the
 * boundary of its choice of q), and LIQSS2-QSSolver must not oscillate.
 *
 * No step counts for this model were found in the stored texts of the
 * LIQSS and BQSS papers; the figures asserted are this implementation's,
 * explained by the laws in the comments.
 */
#include "qd-test-util.h"

#include <math.h>
#include <string.h>

#define FINAL_TIME 500.0

/* The eigenvalues and the modal coefficients of z1 = 1 + C1 e^(L1 t) +
 * C2 e^(L2 t) with z1(0) = z1'(0) = 0. */
#define L1 (-0.01)
#define L2 (-100.0)
#define C1 (-L2 / (L2 - L1))
#define C2 (L1 / (L2 - L1))

/* The k-th derivative of z1 (k >= 1); z2 = z1'. */
static double
z1_derivative (int    k,
               double t)
{
  return C1 * pow (L1, k) * exp (L1 * t) + C2 * pow (L2, k) * exp (L2 * t);
}

static double
z1_exact (double t)
{
  return 1.0 + C1 * exp (L1 * t) + C2 * exp (L2 * t);
}

static double
z2_exact (double t)
{
  return z1_derivative (1, t);
}

/* A for state i (0: z1, 1: z2) and order n, by the midpoint rule: fine
 * steps over the fast transient, coarser ones after it. */
static double
activity (int i,
          int n)
{
  static const struct { double a, b; int steps; } pieces[] = {
    { 0.0, 0.2, 200000 },
    { 0.2, FINAL_TIME, 500000 },
  };
  double factorial = n == 3 ? 6.0 : n;
  double sum = 0.0;

  for (guint p = 0; p < G_N_ELEMENTS (pieces); p++)
    {
      double h = (pieces[p].b - pieces[p].a) / pieces[p].steps;

      for (int j = 0; j < pieces[p].steps; j++)
        {
          double t = pieces[p].a + (j + 0.5) * h;

          sum += h * pow (fabs (z1_derivative (n + i, t) / factorial),
                          1.0 / n);
        }
    }
  return sum;
}

typedef struct
{
  guint64 steps;          /* all integrator steps */
  guint64 z1, z2;         /* steps of each integrator */
  double  err1, err2;     /* max |q - exact| of each state */
} Result;

static guint64
block_steps (QdSimulation *sim,
             const char   *path)
{
  for (guint i = 0; i < qd_simulation_get_n_atomics (sim); i++)
    if (g_str_equal (qd_simulation_get_atomic (sim, i)->path, path))
      {
        guint64 n_int, n_ext;

        qd_simulation_get_block_stats (sim, i, &n_int, &n_ext);
        return n_int;
      }
  g_error ("no block %s", path);
  return 0;
}

static void
set_method (QdDocument *doc,
            const char *method,
            double      dq)
{
  QdSettings settings = *qd_document_get_settings (doc);
  GError *error = NULL;

  settings.method = (char *) method;
  settings.dqmin = dq;
  settings.dqrel = 0.0;
  g_assert_true (qd_document_set_settings (doc, &settings, &error));
  g_assert_no_error (error);
}

/* Runs the example with @method. The position's quantum is the model's
 * default dqmin, the speed's the dqmin of its own Integrator; @dq1 and
 * @dq2 replace them (dqrel 0), or 0 keeps the example's own. */
static Result
run_spring_quanta (const char *method,
                   double      dq1,
                   double      dq2)
{
  g_autofree char *path = qd_test_source_path ("data", "examples",
                                               "stiff-spring.qdevs", NULL);
  GError *error = NULL;
  QdDocument *doc = qd_document_load (path, &error);
  QdSimulation *sim;
  Result r;

  g_assert_no_error (error);
  g_assert_cmpfloat (qd_document_get_settings (doc)->final_time, ==,
                     FINAL_TIME);
  set_method (doc, method,
              dq1 > 0.0 ? dq1 : qd_document_get_settings (doc)->dqmin);
  if (dq2 > 0.0)
    {
      g_autofree char *text = g_strdup_printf ("%.17g", dq2);

      qd_test_set_param (doc,
                         qd_document_find_block_by_path (doc, "/Speed z2"),
                         "dqmin", text);
    }
  sim = qd_simulation_new (doc, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
  g_assert_no_error (error);

  r.steps = qd_simulation_get_integrator_steps (sim);
  r.z1 = block_steps (sim, "/Position z1");
  r.z2 = block_steps (sim, "/Speed z2");
  r.err1 = qd_test_max_error (qd_test_find_trace (sim, "/Scope/z1"), z1_exact, FINAL_TIME);
  r.err2 = qd_test_max_error (qd_test_find_trace (sim, "/Speed/z2"), z2_exact, FINAL_TIME);
  g_test_message ("%s dQ1=%g dQ2=%g: %" G_GUINT64_FORMAT " steps (z1 %"
                  G_GUINT64_FORMAT ", z2 %" G_GUINT64_FORMAT "); "
                  "max error z1 %.3g, z2 %.3g",
                  method, dq1, dq2, r.steps, r.z1, r.z2, r.err1, r.err2);

  qd_simulation_free (sim);
  g_object_unref (doc);
  return r;
}

/* One quantum @dq for both states. */
static Result
run_spring (const char *method,
            double      dq)
{
  return run_spring_quanta (method, dq, dq);
}

/* The predicted steps for each state at order n and quantum dq. */
static void
estimate (int     n,
          double  dq,
          double *k1,
          double *k2)
{
  *k1 = activity (0, n) / pow (dq, 1.0 / n);
  *k2 = activity (1, n) / pow (dq, 1.0 / n);
}

static const double quanta[] = { 1e-3, 1e-4 };

/* The steps of the speed z2 under LIQSS1, predicted from the exact
 * solution. After the transient z2 sits on its quasi-steady value
 * qhat = (1 - q1) / 100.01 with x2 within a quantum of it and dx2/dt = 0
 * (the third case). Each step of z1 changes q1 by dQ, so qhat moves by
 * dQ / 100.01 and dx2/dt by dQ: with q2 held, x2 runs off at |a| times
 * the (tiny) shift of qhat, and after k steps of z1 (one every
 * dQ / |z2|) it has drifted dQ k^2 dQ / (2 |z2|). It reaches the edge of
 * its band, a quantum further, after T = sqrt (2 dQ / |z1'|); then two
 * steps (q2 to the level a quantum towards qhat, x2 runs to it, q2 back
 * on qhat) start the next cycle. So z2 steps at the rate
 * sqrt (2 |z1'| / dQ), at most twice per step of z1 (2 |z1'| / dQ) once
 * z1 steps less often than T. This is the method, not the
 * implementation: a step-by-step model of the three-case rule with the
 * exact a22 gives the same counts (993 and 772 steps at dQ = 1e-3). */
static double
liqss1_z2_steps (double dq)
{
  static const struct { double a, b; int steps; } pieces[] = {
    { 0.0, 0.2, 20000 },
    { 0.2, FINAL_TIME, 200000 },
  };
  double sum = 0.0;

  for (guint p = 0; p < G_N_ELEMENTS (pieces); p++)
    {
      double h = (pieces[p].b - pieces[p].a) / pieces[p].steps;

      for (int j = 0; j < pieces[p].steps; j++)
        {
          double v = fabs (z1_derivative (1, pieces[p].a + (j + 0.5) * h));

          sum += h * fmin (sqrt (2.0 * v / dq), 2.0 * v / dq);
        }
    }
  return sum;
}

/* LIQSS1, LIQSS2, LIQSS3 as the papers define them. The slow state z1
 * follows the activity law closely. The stiff state z2 takes no steps
 * at its own fast scale (no oscillation), but it does not step only as
 * its smooth solution would (its estimate, about 20 steps at dQ = 1e-3):
 * each step of z1 moves z2's quasi-steady value and, q2 being held, x2
 * drifts at |a22| times that shift until it leaves its band. For LIQSS1
 * the drift law above predicts z2's steps within a few percent; for
 * LIQSS2 and LIQSS3 q1 jumps by up to a quantum at each step of z1
 * (which steps every few seconds), x2 leaves its band within about a
 * second, so z2 answers every step of z1: once (LIQSS2) or twice
 * (LIQSS3, first to a level, then to the quasi-steady curve).
 *
 * With one quantum for both states the totals are therefore 1.2 to 2.1
 * times the activity estimate of the exact solution, not within 50% of
 * it: that bound holds only for LIQSS1 at dQ = 1e-4 (where the drift law
 * grows as dQ^(-1/2) against dQ^(-1) for z1).
 * /stiff/spring/activity-bound checks and reports it; with each state's
 * quantum its share of the state's range, as the example ships, the
 * bound holds (/stiff/spring/example). */
static void
test_liqss (gconstpointer data)
{
  int n = GPOINTER_TO_INT (data);
  const char *methods[] = { NULL, "LIQSS1", "LIQSS2", "LIQSS3" };

  for (guint i = 0; i < G_N_ELEMENTS (quanta); i++)
    {
      double dq = quanta[i];
      Result r = run_spring (methods[n], dq);
      double k1, k2;

      estimate (n, dq, &k1, &k2);
      g_test_message ("  estimate %.1f (z1 %.1f, z2 %.1f): ratio %.2f",
                      k1 + k2, k1, k2, r.steps / (k1 + k2));

      g_assert_cmpfloat (fabs (r.z1 / k1 - 1.0), <=, 0.15);
      if (n == 1)
        {
          double predicted = liqss1_z2_steps (dq);

          g_test_message ("  z2 drift law: %.1f steps (ratio %.3f)",
                          predicted, r.z2 / predicted);
          g_assert_cmpfloat (fabs (r.z2 / predicted - 1.0), <=, 0.08);
        }
      else
        {
          /* At least one answer per step of z1, at most n - 1, plus the
           * transient. */
          g_assert_cmpuint (r.z2, >=, r.z1);
          g_assert_cmpfloat (r.z2, <=, (n - 1) * r.z1 + 2.0 * k2);
        }
      g_assert_cmpfloat (r.err1, <=, 4.0 * dq);
      g_assert_cmpfloat (r.err2, <=, 4.0 * dq);
    }
}

/* The bound LIQSS1-3 within 50% of the activity estimate of the
 * exact solution with one quantum dQ = 1e-3 or 1e-4 for both states,
 * checked as far as the methods of the papers meet it: LIQSS1 at dQ = 1e-4 does (ratio 1.23); the other
 * five runs do not (1.74 to 2.14, explained at test_liqss()), and the
 * test asserts that they stay where the drift explains them, so that a
 * change of the methods that moves them either way is seen. */
static void
test_activity_bound (void)
{
  static const struct { const char *method; int n; double dq, low, high; }
  cases[] = {
    { "LIQSS1", 1, 1e-4, 1.0, 1.5 },
    { "LIQSS1", 1, 1e-3, 1.5, 2.0 },
    { "LIQSS2", 2, 1e-3, 1.5, 2.0 },
    { "LIQSS2", 2, 1e-4, 1.5, 2.0 },
    { "LIQSS3", 3, 1e-3, 1.8, 2.4 },
    { "LIQSS3", 3, 1e-4, 1.8, 2.4 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      Result r = run_spring (cases[i].method, cases[i].dq);
      double k1, k2, ratio;

      estimate (cases[i].n, cases[i].dq, &k1, &k2);
      ratio = r.steps / (k1 + k2);
      g_test_message ("  %s dQ=%g: %.2f times the estimate (%s 1.5)",
                      cases[i].method, cases[i].dq, ratio,
                      ratio <= 1.5 ? "within" : "over");
      g_assert_cmpfloat (ratio, >=, cases[i].low);
      g_assert_cmpfloat (ratio, <=, cases[i].high);
    }
}

/* The same spring with the speed's quantum scaled to its size: z2 is
 * about a hundredth of z1, so its Integrator is given dqmin = dQ / 100
 * (the model's default stays dQ, for z1). Each step of z1 then moves z2's
 * quasi-steady value by one of z2's quanta, and the LIQSS counts meet the
 * activity estimate computed with each state's own quantum, the bound
 * /stiff/spring/activity-bound shows missed with one quantum for both.
 * QSS2 still oscillates (over ten times LIQSS2 and the estimate). QSS1
 * does not at these two quanta, by a coincidence of round numbers: F / dQ
 * is a whole number and dQ / 100 is within 0.01 % of dQ / b, so the
 * quasi-steady value (F - q1) / b lies within a tenth of a quantum of a
 * level of q2 (whose levels are whole quanta from z2(0) = 0); q2 sits
 * there and x2 barely moves, and QSS1 takes what LIQSS1 takes. With a
 * position quantum that does not divide F the level is missed and QSS1
 * oscillates again: /stiff/spring/example. */
static guint64
run_spring_scaled (const char *method,
                   double      dq)
{
  return run_spring_quanta (method, dq, dq / 100.0).steps;
}

static void
test_scaled_quanta (void)
{
  const char *liqss[] = { NULL, "LIQSS1", "LIQSS2", "LIQSS3" };

  for (guint i = 0; i < G_N_ELEMENTS (quanta); i++)
    {
      double dq = quanta[i];
      guint64 counts[4];

      for (int n = 1; n <= 3; n++)
        {
          double k1, k2, unused, ratio;

          estimate (n, dq, &k1, &unused);
          estimate (n, dq / 100.0, &unused, &k2);
          counts[n] = run_spring_scaled (liqss[n], dq);
          ratio = counts[n] / (k1 + k2);
          g_test_message ("  %s dQ=%g, speed dQ/100: %" G_GUINT64_FORMAT
                          " steps, %.2f times the estimate %.1f",
                          liqss[n], dq, counts[n], ratio, k1 + k2);
          g_assert_cmpfloat (ratio, >=, 0.5);
          g_assert_cmpfloat (ratio, <=, 1.5);
        }
      {
        guint64 qss1 = run_spring_scaled ("QSS1", dq);
        guint64 qss2 = run_spring_scaled ("QSS2", dq);

        g_test_message ("  QSS1 %" G_GUINT64_FORMAT " (%.2f times LIQSS1), "
                        "QSS2 %" G_GUINT64_FORMAT " (%.0f times LIQSS2)",
                        qss1, (double) qss1 / counts[1], qss2,
                        (double) qss2 / counts[2]);
        g_assert_cmpuint (qss2, >=, 10 * counts[2]);
        g_assert_cmpfloat ((double) qss1 / counts[1], <=, 1.5);
      }
    }
}

/* The bound on the example as shipped: each state's quantum is
 * 0.3 % of its range (the position ends at 1, the speed peaks at 0.0099),
 * as the QSS2 paper's RLC circuit gives its two states quanta a hundred
 * times apart. The three LIQSS methods stay within 50 % of the activity
 * estimate computed with each state's quantum, and QSS1 and QSS2, whose
 * speed oscillates around its quasi-steady value, take over ten times
 * the estimate and ten times their linearly implicit counterparts. The
 * errors stay within the methods' bounds (a few quanta of each state). */
#define EXAMPLE_DQ1 3e-3
#define EXAMPLE_DQ2 3e-5

typedef struct
{
  double dq1, dq2;
} Quanta;

static void
check_spring_bound (double dq1,
                    double dq2)
{
  const char *liqss[] = { NULL, "LIQSS1", "LIQSS2", "LIQSS3" };
  Result li[4], qss[3];

  for (int n = 1; n <= 3; n++)
    {
      double k1, k2, unused, ratio;

      estimate (n, dq1, &k1, &unused);
      estimate (n, dq2, &unused, &k2);
      li[n] = run_spring_quanta (liqss[n], dq1, dq2);
      ratio = li[n].steps / (k1 + k2);
      g_test_message ("  %s: %.2f times the estimate %.1f (%.1f + %.1f)",
                      liqss[n], ratio, k1 + k2, k1, k2);
      g_assert_cmpfloat (ratio, >=, 0.5);
      g_assert_cmpfloat (ratio, <=, 1.5);
      g_assert_cmpfloat (li[n].err1, <=, 4.0 * dq1);
      g_assert_cmpfloat (li[n].err2, <=, 4.0 * dq2);
    }
  for (int n = 1; n <= 2; n++)
    {
      double k1, k2, unused;

      estimate (n, dq1, &k1, &unused);
      estimate (n, dq2, &unused, &k2);
      qss[n] = run_spring_quanta (n == 1 ? "QSS1" : "QSS2", dq1, dq2);
      g_test_message ("  QSS%d: %.1f times the estimate, %.1f times LIQSS%d",
                      n, qss[n].steps / (k1 + k2),
                      (double) qss[n].steps / li[n].steps, n);
      g_assert_cmpfloat (qss[n].steps, >=, 10.0 * (k1 + k2));
      g_assert_cmpuint (qss[n].steps, >=, 10 * li[n].steps);
      /* The oscillation is the speed's. */
      g_assert_cmpuint (qss[n].z2, >=, 10 * qss[n].z1);
      g_assert_cmpfloat (qss[n].err1, <=, 3.0 * dq1);
      g_assert_cmpfloat (qss[n].err2, <=, 3.0 * dq2);
    }
}

static void
test_example_bound (void)
{
  g_autofree char *path = qd_test_source_path ("data", "examples",
                                               "stiff-spring.qdevs", NULL);
  GError *error = NULL;
  QdDocument *doc = qd_document_load (path, &error);
  const QdBlock *speed;

  /* The example's own quanta, which the runs below keep. */
  g_assert_no_error (error);
  g_assert_cmpfloat (qd_document_get_settings (doc)->dqmin, ==, EXAMPLE_DQ1);
  g_assert_cmpfloat (qd_document_get_settings (doc)->dqrel, ==, 0.0);
  speed = qd_document_find_block_by_path (doc, "/Speed z2");
  g_assert_cmpfloat (g_ascii_strtod (qd_block_get_param (speed, "dqmin"),
                                     NULL), ==, EXAMPLE_DQ2);
  g_object_unref (doc);

  check_spring_bound (EXAMPLE_DQ1, EXAMPLE_DQ2);
}

/* Methods of different orders in one model: the position keeps the
 * example's LIQSS2, whose lines reach the speed's first-order integrator
 * through the sum (order 1 into a method of order 1). The speed must
 * integrate them whole (qd-block-integrator.c, "Inputs above the
 * method's order"): dropping their slope, as an earlier version did, took
 * z1 to 1.217 with QSS1 and 0.751 with CQSS instead of about 0.993. With
 * each of them, as with the example's own LIQSS2, the position's q stays
 * within 2.5 of its quanta of the solution (its LIQSS band is 2; the runs
 * give 1.994 to 1.999). */
static void
test_mixed_orders (void)
{
  static const char *const methods[] = { "LIQSS2", "QSS1", "CQSS", "LIQSS1" };
  g_autofree char *path = qd_test_source_path ("data", "examples",
                                               "stiff-spring.qdevs", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    {
      GError *error = NULL;
      QdDocument *doc = qd_document_load (path, &error);
      QdBlock *speed;
      QdSimulation *sim;
      double err;

      g_assert_no_error (error);
      speed = (QdBlock *) qd_document_find_block_by_path (doc, "/Speed z2");
      qd_test_set_param (doc, speed, "method", methods[i]);
      sim = qd_test_compile (doc);
      qd_test_run (sim);
      err = qd_test_max_error (qd_test_find_trace (sim, "/Scope/z1"),
                               z1_exact, FINAL_TIME);
      g_test_message ("position LIQSS2, speed %s: max error of z1 %.3g "
                      "(%.3f of its quanta)", methods[i], err,
                      err / EXAMPLE_DQ1);
      g_assert_cmpfloat (err, <=, 2.5 * EXAMPLE_DQ1);
      qd_simulation_free (sim);
      g_object_unref (doc);
    }
}

/* The trace of the stiff spring's position with @position_method for it
 * and @speed_method for the speed. */
static GArray *
spring_position_segments (const char *position_method,
                          const char *speed_method)
{
  g_autofree char *path = qd_test_source_path ("data", "examples",
                                               "stiff-spring.qdevs", NULL);
  GError *error = NULL;
  QdDocument *doc = qd_document_load (path, &error);
  GArray *segments = g_array_new (FALSE, FALSE, sizeof (QdSignal));
  QdSimulation *sim;
  QdTrace *trace;

  g_assert_no_error (error);
  qd_test_set_param (doc, qd_document_find_block_by_path (doc, "/Position z1"),
                     "method", position_method);
  qd_test_set_param (doc, qd_document_find_block_by_path (doc, "/Speed z2"),
                     "method", speed_method);
  sim = qd_test_compile (doc);
  qd_test_run (sim);
  trace = qd_test_find_trace (sim, "/Scope/z1");
  for (gsize i = 0; i < qd_trace_get_length (trace); i++)
    g_array_append_vals (segments, qd_trace_get (trace, i), 1);
  qd_simulation_free (sim);
  g_object_unref (doc);
  return segments;
}

/* mLIQSS updates a pair of states together only when both run it; with
 * a coupled QSS integrator, which keeps no record of its outputs (its
 * state ends with its 128-byte core: the mLIQSS side reads them as never
 * made), the position under mLIQSS runs as under LIQSS of its order,
 * segment for segment. Also when the QSS1 speed gets mLIQSS2's lines, a
 * derivative above its order, and is marked (its table then leads to its
 * QdIntegratorExcess, where the method is: qd_integrator_method()). */
static void
test_mliqss_qss_partner (void)
{
  static const char *const cases[][3] = {
    { "mLIQSS1", "LIQSS1", "QSS1" },
    { "mLIQSS2", "LIQSS2", "QSS2" },
    { "mLIQSS2", "LIQSS2", "QSS3" },
    { "mLIQSS2", "LIQSS2", "QSS1" },
  };

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_autoptr(GArray) paired = spring_position_segments (cases[k][0], cases[k][2]);
      g_autoptr(GArray) alone = spring_position_segments (cases[k][1], cases[k][2]);

      g_test_message ("%s with a %s speed: %u segments", cases[k][0],
                      cases[k][2], paired->len);
      g_assert_cmpuint (paired->len, >, 10);
      g_assert_cmpuint (paired->len, ==, alone->len);
      g_assert_cmpmem (paired->data, paired->len * sizeof (QdSignal),
                       alone->data, alone->len * sizeof (QdSignal));
    }
}

/* The bound is not a knife edge: it holds for position quanta from
 * 2.5e-3 to 3e-3 with speed quanta 1/75 to 1/100 of them. Where it fails
 * (docs/methods.md): with one quantum for both, the speed answers each
 * step of the position and the LIQSS counts reach 1.7 to 2.2 times the
 * estimate (/stiff/spring/activity-bound); below a position quantum of
 * about 2.5e-3, LIQSS1 takes more than a tenth of QSS1's roughly constant
 * 15 000 to 22 000 oscillating steps; above about 3.2e-3, LIQSS3's
 * estimate falls to a few dozen steps and the transient's steps take it
 * past 1.5. */
static void
test_quanta_window (void)
{
  static const Quanta window[] = {
    { 2.5e-3, 3e-5 }, { 2.7e-3, 3e-5 }, { 3e-3, 3.5e-5 }, { 3e-3, 4e-5 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (window); i++)
    {
      g_test_message ("dQ1 = %g, dQ2 = %g:", window[i].dq1, window[i].dq2);
      check_spring_bound (window[i].dq1, window[i].dq2);
    }
}

/* QSS1 and QSS2 oscillate around the speed's quasi-steady value: with
 * dQ = 1e-3 they take over ten times the estimate, nearly all in z2, and
 * far more than their linearly implicit counterparts at the same quantum
 * (QSS2 65697 against 87 for LIQSS2; QSS1 17313 against 1765 for LIQSS1,
 * whose own count the drift of z2 inflates, see test_liqss()). */
static void
test_explicit_oscillates (gconstpointer data)
{
  int n = GPOINTER_TO_INT (data);
  const char *methods[] = { NULL, "QSS1", "QSS2" };
  const char *implicit[] = { NULL, "LIQSS1", "LIQSS2" };
  double dq = 1e-3, k1, k2;
  Result r = run_spring (methods[n], dq);
  Result li = run_spring (implicit[n], dq);

  estimate (n, dq, &k1, &k2);
  g_test_message ("  estimate %.1f: ratio %.1f; %.1f times %s",
                  k1 + k2, r.steps / (k1 + k2),
                  (double) r.steps / li.steps, implicit[n]);
  g_assert_cmpfloat (r.steps, >=, 10.0 * (k1 + k2));
  g_assert_cmpuint (r.z2, >=, 10 * r.z1);
  g_assert_cmpuint (r.steps, >=, (n == 1 ? 5 : 100) * li.steps);
  /* Oscillating, but still accurate: QSS keeps its error bound. */
  g_assert_cmpfloat (r.err1, <=, 3.0 * dq);
  g_assert_cmpfloat (r.err2, <=, 3.0 * dq);
}

/* BQSS and CQSS: first-order, so z1 follows the law with n = 1; z2 does
 * not oscillate at the fast scale (at most three steps per step of z1:
 * each change of q1 may need both levels tried) and stays within a few
 * quanta. While z2 is held at its quasi-equilibrium, q2 sits on a level
 * a quantum (BQSS) or half a quantum (CQSS) away from x2, always on the
 * same side here; z1 integrates that bias, and the slow mode (1 / 0.01)
 * turns it into an error of about 100 quanta for BQSS and half that for
 * CQSS: the spurious-equilibrium error that LIQSS removes. */
static void
test_backward (gconstpointer data)
{
  const char *method = data;
  double bias_bound = g_str_equal (method, "BQSS") ? 200.0 : 100.0;

  for (guint i = 0; i < G_N_ELEMENTS (quanta); i++)
    {
      double dq = quanta[i];
      Result r = run_spring (method, dq);
      double k1, k2;

      estimate (1, dq, &k1, &k2);
      g_test_message ("  estimate %.1f (z1 %.1f, z2 %.1f): ratio %.2f",
                      k1 + k2, k1, k2, r.steps / (k1 + k2));
      g_assert_cmpfloat (fabs (r.z1 / k1 - 1.0), <=, 0.15);
      g_assert_cmpuint (r.z2, <=, 3 * r.z1);
      g_assert_cmpfloat (r.err1, <=, bias_bound * dq);
      g_assert_cmpfloat (r.err2, <=, 3.0 * dq);
    }
}

/* ---- one stiff equation: x' = 1 - 100 x, x(0) = 0 ------------------ */

/* Runs x' = 1 - 100 x over [0, 1] with @method and dQ = 1e-4; returns the
 * integrator steps and the last q emitted. */
static guint64
run_single (const char *method,
            double     *q_last)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *one = qd_test_add_block (doc, "constant", "One");
  QdBlock *sum = qd_test_add_block (doc, "wsum", "Sum");
  QdBlock *integ = qd_test_add_block (doc, "integrator", "Integrator");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSettings settings = *qd_document_get_settings (doc);
  GError *error = NULL;
  QdSimulation *sim;
  QdTrace *trace;
  guint64 steps;

  qd_test_set_param (doc, one, "value", "1");
  qd_test_set_param (doc, sum, "weights", "1, -100");
  qd_test_set_param (doc, scope, "names", "x");
  qd_test_connect (doc, one, 0, sum, 0);
  qd_test_connect (doc, sum, 0, integ, 0);
  qd_test_connect (doc, integ, 0, sum, 1);
  qd_test_connect (doc, integ, 0, scope, 0);
  settings.final_time = 1.0;
  settings.method = (char *) method;
  settings.dqmin = 1e-4;
  settings.dqrel = 0.0;
  g_assert_true (qd_document_set_settings (doc, &settings, &error));
  g_assert_no_error (error);

  sim = qd_simulation_new (doc, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
  g_assert_no_error (error);
  steps = qd_simulation_get_integrator_steps (sim);
  trace = qd_test_find_trace (sim, "/Scope/x");
  *q_last = qd_signal_eval (qd_trace_get (trace,
                                          qd_trace_get_length (trace) - 1),
                            1.0);
  g_test_message ("%s: %" G_GUINT64_FORMAT " steps, q(1) = %.17g",
                  method, steps, *q_last);

  qd_simulation_free (sim);
  g_object_unref (doc);
  return steps;
}

/* LIQSS2 and LIQSS3 reach the third case, q on the equilibrium 0.01 with
 * a zero slope, in a few steps and then stay there without stepping. */
static void
test_single_liqss (void)
{
  const char *methods[] = { "LIQSS2", "LIQSS3" };

  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    {
      double q;
      guint64 steps = run_single (methods[i], &q);

      g_assert_cmpuint (steps, <=, 30);
      g_assert_cmpfloat (fabs (q - 0.01), <=, 1e-12);
    }
}

/* BQSS and CQSS climb the 100 quanta to the equilibrium, one step each,
 * and are then held within a quantum of it (both levels point away). */
static void
test_single_backward (void)
{
  const char *methods[] = { "BQSS", "CQSS" };

  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    {
      double q;
      guint64 steps = run_single (methods[i], &q);

      g_assert_cmpuint (steps, >=, 95);
      g_assert_cmpuint (steps, <=, 110);
      g_assert_cmpfloat (fabs (q - 0.01), <=, 1e-4);
    }
}

/* ---- a self-coupling that ends: v' = -9.81 + s --------------------- */

/* s = -30 v, passed by a Switch until a Step on its control flips at
 * t = 0.1; then the Switch passes a constant 0 and v falls at 9.81. The
 * shape of the bouncing ball's speed leaving a contact. */
#define CUT_TIME 0.1
#define CUT_FINAL 0.2

static double
cut_exact (double t)
{
  double c = 9.81 / 30.0;
  double v = -c + (5.0 + c) * exp (-30.0 * fmin (t, CUT_TIME));

  return t > CUT_TIME ? v - 9.81 * (t - CUT_TIME) : v;
}

/* Runs the model over [0, CUT_FINAL] with @method; returns the integrator
 * steps and the largest error of q. */
static guint64
run_cut (const char *method,
         double      dqmin,
         double      dqrel,
         double     *err)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *g = qd_test_add_block (doc, "constant", "G");
  QdBlock *acc = qd_test_add_block (doc, "wsum", "Acc");
  QdBlock *integ = qd_test_add_block (doc, "integrator", "V");
  QdBlock *damper = qd_test_add_block (doc, "gain", "Damper");
  QdBlock *zero = qd_test_add_block (doc, "constant", "Zero");
  QdBlock *control = qd_test_add_block (doc, "step", "Control");
  QdBlock *contact = qd_test_add_block (doc, "switch", "Contact");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSettings settings = *qd_document_get_settings (doc);
  GError *error = NULL;
  QdSimulation *sim;
  guint64 steps;

  qd_test_set_param (doc, g, "value", "-9.81");
  qd_test_set_param (doc, acc, "weights", "1, 1");
  qd_test_set_param (doc, integ, "x0", "5");
  qd_test_set_param (doc, damper, "k", "-30");
  qd_test_set_param (doc, zero, "value", "0");
  qd_test_set_param (doc, control, "time", "0.1");
  qd_test_set_param (doc, control, "initial", "-1");
  qd_test_set_param (doc, control, "final", "1");
  qd_test_set_param (doc, scope, "names", "v");
  qd_test_connect (doc, g, 0, acc, 0);
  qd_test_connect (doc, acc, 0, integ, 0);
  qd_test_connect (doc, integ, 0, damper, 0);
  qd_test_connect (doc, integ, 0, scope, 0);
  /* u1 > 0 passes u0 (the zero), else u2 (the damper). */
  qd_test_connect (doc, zero, 0, contact, 0);
  qd_test_connect (doc, control, 0, contact, 1);
  qd_test_connect (doc, damper, 0, contact, 2);
  qd_test_connect (doc, contact, 0, acc, 1);
  settings.final_time = CUT_FINAL;
  settings.method = (char *) method;
  settings.dqmin = dqmin;
  settings.dqrel = dqrel;
  g_assert_true (qd_document_set_settings (doc, &settings, &error));
  g_assert_no_error (error);

  sim = qd_simulation_new (doc, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
  g_assert_no_error (error);
  steps = qd_simulation_get_integrator_steps (sim);
  *err = qd_test_max_error (qd_test_find_trace (sim, "/Scope/v"), cut_exact, CUT_FINAL);
  g_test_message ("%s: %" G_GUINT64_FORMAT " steps, max error %.3g",
                  method, steps, *err);

  qd_simulation_free (sim);
  g_object_unref (doc);
  return steps;
}

/* The LIQSS methods estimate the self-dependence a from the derivative
 * that answers their own output at the same instant. Once the Switch
 * has cut the loop nothing answers; that must read as a = 0 (the
 * derivative did not move with q), not as the last a measured (-30),
 * with which q's slope drifts from x's and the steps shrink to zero
 * time. After the cut v is exactly linear, so each LIQSS method must
 * take about the steps of its explicit counterpart. */
static void
test_cut (void)
{
  static const struct {
    const char *method, *reference;
    double dqmin, dqrel;
  } cases[] = {
    { "LIQSS1", "QSS1", 1e-5, 1e-4 },
    { "LIQSS2", "QSS2", 1e-7, 1e-6 },
    { "LIQSS3", "QSS3", 1e-7, 1e-6 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      double err, err_ref;
      guint64 steps = run_cut (cases[i].method, cases[i].dqmin,
                               cases[i].dqrel, &err);
      guint64 ref = run_cut (cases[i].reference, cases[i].dqmin,
                             cases[i].dqrel, &err_ref);
      /* The quantum is largest at the start, where |v| = 5. */
      double dq = fmax (5.0 * cases[i].dqrel, cases[i].dqmin);

      g_assert_cmpuint (steps, <=, 3 * ref);
      g_assert_cmpfloat (err, <=, 3.0 * dq);
    }
}

/* ---- a marginally stable system: the same model with b = 0 ---------- */

/* z1'' = 1 - z1 from rest: z1 = 1 - cos t, z2 = sin t, a circle of
 * radius 1 around (1, 0) in the phase plane. Runs it over [0, 200] (about
 * 32 periods) with @method and dQ = 0.01 and returns the smallest and
 * largest radius |(z1 - 1, z2)| of q over [from, 200]. */
static void
run_oscillator (const char *method,
                double      from,
                double     *rmin,
                double     *rmax)
{
  g_autofree char *path = qd_test_source_path ("data", "examples",
                                               "stiff-spring.qdevs", NULL);
  GError *error = NULL;
  QdDocument *doc = qd_document_load (path, &error);
  QdSettings settings;
  QdSimulation *sim;
  QdTrace *t1, *t2;

  g_assert_no_error (error);
  g_assert_true (qd_document_set_variable (doc, "b", "0", &error));
  g_assert_no_error (error);
  set_method (doc, method, 0.01);
  /* One quantum for both: the speed's own dqmin goes back to inheriting
   * the model's. */
  qd_test_set_param (doc, qd_document_find_block_by_path (doc, "/Speed z2"),
                     "dqmin", NULL);
  settings = *qd_document_get_settings (doc);
  settings.final_time = 200.0;
  g_assert_true (qd_document_set_settings (doc, &settings, &error));
  g_assert_no_error (error);
  sim = qd_simulation_new (doc, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
  g_assert_no_error (error);

  t1 = qd_test_find_trace (sim, "/Scope/z1");
  t2 = qd_test_find_trace (sim, "/Speed/z2");
  *rmin = G_MAXDOUBLE;
  *rmax = 0.0;
  for (int k = 0; k <= 20000; k++)
    {
      double t = from + (200.0 - from) * k / 20000.0;
      double r = hypot (qd_trace_eval (t1, t) - 1.0, qd_trace_eval (t2, t));

      *rmin = fmin (*rmin, r);
      *rmax = fmax (*rmax, r);
    }
  g_test_message ("%s: radius over [%g, 200] in [%.4f, %.4f]", method,
                  from, *rmin, *rmax);

  qd_simulation_free (sim);
  g_object_unref (doc);
}

/* The 2012 paper's reason for CQSS: BQSS, like Backward Euler, damps the
 * oscillation of a marginally stable system, and QSS1, like Forward
 * Euler, lets it grow (the textbook's Fig. 3.27 for the classic pair);
 * CQSS, centered like the trapezoidal rule, keeps its amplitude. Over 32
 * periods the CQSS radius stays within a quantum of 1 all along; in the
 * last 20 s the BQSS one is below 0.1 and the QSS1 one above 1.5. */
static void
test_marginal (void)
{
  double rmin, rmax;

  run_oscillator ("CQSS", 0.0, &rmin, &rmax);
  g_assert_cmpfloat (rmin, >=, 1.0 - 0.01);
  g_assert_cmpfloat (rmax, <=, 1.0 + 0.01);
  run_oscillator ("BQSS", 180.0, &rmin, &rmax);
  g_assert_cmpfloat (rmax, <=, 0.1);
  run_oscillator ("QSS1", 180.0, &rmin, &rmax);
  g_assert_cmpfloat (rmin, >=, 1.5);
}

/* The rescaled spring z1' = 0.01 z2, z2' = 2020 - 100 z1 - 100 z2,
 * z(0) = (0, 20) (eigenvalues -0.01 and -99.99, a constant input), one
 * quantum @dq for both states, over [0, 500]; the steps of the fast
 * state z2. */
static guint64
run_rescaled (const char *method,
              double      dq)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *input = qd_test_add_block (doc, "constant", "Input");
  QdBlock *sum = qd_test_add_block (doc, "wsum", "Sum");
  QdBlock *z2 = qd_test_add_block (doc, "integrator", "z2");
  QdBlock *gain = qd_test_add_block (doc, "gain", "Gain");
  QdBlock *z1 = qd_test_add_block (doc, "integrator", "z1");
  QdSimulation *sim;
  guint64 steps;

  qd_test_set_param (doc, input, "value", "2020");
  qd_test_set_param (doc, sum, "n", "3");
  qd_test_set_param (doc, sum, "weights", "1, -100, -100");
  qd_test_set_param (doc, gain, "k", "0.01");
  qd_test_set_param (doc, z2, "x0", "20");
  qd_test_connect (doc, input, 0, sum, 0);
  qd_test_connect (doc, z1, 0, sum, 1);
  qd_test_connect (doc, z2, 0, sum, 2);
  qd_test_connect (doc, sum, 0, z2, 0);
  qd_test_connect (doc, z2, 0, gain, 0);
  qd_test_connect (doc, gain, 0, z1, 0);
  set_method (doc, method, dq);
  qd_test_set_final_time (doc, FINAL_TIME);
  sim = qd_test_compile (doc);
  qd_test_run (sim);
  steps = block_steps (sim, "/z2");
  g_test_message ("%s dQ=%.6g: z1 %" G_GUINT64_FORMAT ", z2 %"
                  G_GUINT64_FORMAT, method, dq, block_steps (sim, "/z1"),
                  steps);
  qd_simulation_free (sim);
  g_object_unref (doc);
  return steps;
}

/* LIQSS3 near the boundary of its choice of q0 (qd-integrator-stiff.c,
 * liqss3_boundary_target()): on the rescaled spring, dQ swept from 5e-6
 * to 1e-5 in steps of 0.5 %. The fast state's count follows the smooth
 * law of its drift, so neighbouring quanta give counts within a few
 * percent; with the level taken whenever it qualified by a hair, the
 * count jumped by a quarter (262 to 331 at 5.45e-6, 290 to 228 at
 * 8.5e-6) between quanta half a percent apart. */
static void
test_liqss3_boundary (void)
{
  guint64 last = 0;

  for (int k = 0; k <= 140; k++)
    {
      guint64 steps = run_rescaled ("LIQSS3", 5e-6 * pow (1.005, k));

      if (k > 0)
        g_assert_cmpfloat (fabs ((double) steps - (double) last), <=,
                           0.03 * last);
      last = steps;
    }
}

/* LIQSS2-QSSolver on the stiff spring, one quantum for both states: no
 * oscillation of the speed (QSS2 takes over 65 000 steps there), a count
 * of the order of LIQSS2's (87 at 1e-3, 275 at 1e-4), and q within the
 * method's 3 dQ of the solution. */
static void
test_liqss2_qssolver (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (quanta); i++)
    {
      Result r = run_spring ("LIQSS2-QSSolver", quanta[i]);
      Result l = run_spring ("LIQSS2", quanta[i]);

      g_assert_cmpuint (r.steps, <=, 2 * l.steps);
      g_assert_cmpfloat (r.err1, <=, 3.0 * quanta[i]);
      g_assert_cmpfloat (r.err2, <=, 3.0 * quanta[i]);
    }
}

/* ---- mLIQSS1: two states coupled off the diagonal ------------------
 *
 * x1' = a11 x1 + a12 x2 + u1, x2' = a21 x1 + a22 x2 + u2, from x = 0,
 * each state an Integrator fed by a WSum of both. */
typedef struct
{
  double a11, a12, a21, a22, u1, u2;
} Pair;

/* Strong coupling both ways, weak self-dependence on x1: eigenvalues
 * -51 ± 86.6i. LIQSS1 places each q by its own a_ii alone; near the
 * equilibrium each step of one state turns the other's derivative round
 * and the two step each other without end (QSS1 the same): their steps
 * grow with the final time and do not fall with dQ. */
static const Pair spiral = { -1.0, -100.0, 100.0, -101.0, 1.0, 0.0 };

/* Symmetric: eigenvalues -1 and -100 along (1, 1) and (1, -1). */
static const Pair symmetric = { -50.5, 49.5, 49.5, -50.5, 1.0, 0.0 };

static const Pair *pair_now;

/* The x1 Integrator of the last pair_document(). */
static QdBlock *pair_x1;

/* Component @i of the exact solution at t: x = xe + e^(At) (x0 - xe),
 * x0 = 0, with e^(At) = e^(at) (C I + S (A - a I)), a the half trace
 * and, for the discriminant g2 of the eigenvalues' spread, C, S =
 * cosh, sinh(g t)/g or cos, sin(g t)/g. */
static double
pair_exact (int    i,
            double t)
{
  const Pair *p = pair_now;
  double det = p->a11 * p->a22 - p->a12 * p->a21;
  double xe1 = (p->a12 * p->u2 - p->a22 * p->u1) / det;
  double xe2 = (p->a21 * p->u1 - p->a11 * p->u2) / det;
  double a = 0.5 * (p->a11 + p->a22), h = 0.5 * (p->a11 - p->a22);
  double g2 = h * h + p->a12 * p->a21, g = sqrt (fabs (g2));
  double c = g2 >= 0.0 ? cosh (g * t) : cos (g * t);
  double sn = g2 >= 0.0 ? sinh (g * t) / g : sin (g * t) / g;
  double d1 = -xe1, d2 = -xe2;
  double e1 = c * d1 + sn * (h * d1 + p->a12 * d2);
  double e2 = c * d2 + sn * (p->a21 * d1 - h * d2);

  return i == 0 ? xe1 + exp (a * t) * e1 : xe2 + exp (a * t) * e2;
}

static double
pair_exact1 (double t)
{
  return pair_exact (0, t);
}

static double
pair_exact2 (double t)
{
  return pair_exact (1, t);
}

static QdDocument *
pair_document (const Pair *p,
               const char *method,
               double      dq,
               double      final_time)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *in1 = qd_test_add_block (doc, "constant", "u1");
  QdBlock *in2 = qd_test_add_block (doc, "constant", "u2");
  QdBlock *f1 = qd_test_add_block (doc, "wsum", "f1");
  QdBlock *f2 = qd_test_add_block (doc, "wsum", "f2");
  QdBlock *x1 = qd_test_add_block (doc, "integrator", "x1");
  QdBlock *x2 = qd_test_add_block (doc, "integrator", "x2");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  g_autofree char *u1 = g_strdup_printf ("%.17g", p->u1);
  g_autofree char *u2 = g_strdup_printf ("%.17g", p->u2);
  g_autofree char *w1 = g_strdup_printf ("%.17g, %.17g, 1", p->a11, p->a12);
  g_autofree char *w2 = g_strdup_printf ("%.17g, %.17g, 1", p->a21, p->a22);

  qd_test_set_param (doc, in1, "value", u1);
  qd_test_set_param (doc, in2, "value", u2);
  qd_test_set_param (doc, f1, "n", "3");
  qd_test_set_param (doc, f2, "n", "3");
  qd_test_set_param (doc, f1, "weights", w1);
  qd_test_set_param (doc, f2, "weights", w2);
  qd_test_set_param (doc, scope, "n", "2");
  qd_test_set_param (doc, scope, "names", "x1, x2");
  qd_test_connect (doc, in1, 0, f1, 2);
  qd_test_connect (doc, in2, 0, f2, 2);
  qd_test_connect (doc, f1, 0, x1, 0);
  qd_test_connect (doc, f2, 0, x2, 0);
  qd_test_connect (doc, x1, 0, f1, 0);
  qd_test_connect (doc, x1, 0, f2, 0);
  qd_test_connect (doc, x2, 0, f1, 1);
  qd_test_connect (doc, x2, 0, f2, 1);
  qd_test_connect (doc, x1, 0, scope, 0);
  qd_test_connect (doc, x2, 0, scope, 1);
  qd_test_set_final_time (doc, final_time);
  set_method (doc, method, dq);
  pair_x1 = x1;
  return doc;
}

typedef struct
{
  guint64 steps;
  double  err;      /* max |q - exact| of both states */
  double  end1;     /* the last q of each */
  double  end2;
} PairResult;

static PairResult
run_pair (const Pair *p,
          const char *method,
          double      dq,
          double      final_time)
{
  QdDocument *doc = pair_document (p, method, dq, final_time);
  QdSimulation *sim = qd_test_compile (doc);
  QdTrace *t1, *t2;
  PairResult r;

  qd_test_run (sim);
  t1 = qd_test_find_trace (sim, "/Scope/x1");
  t2 = qd_test_find_trace (sim, "/Scope/x2");
  pair_now = p;
  r.steps = qd_simulation_get_integrator_steps (sim);
  r.err = MAX (qd_test_max_error (t1, pair_exact1, final_time),
               qd_test_max_error (t2, pair_exact2, final_time));
  r.end1 = qd_trace_eval (t1, final_time);
  r.end2 = qd_trace_eval (t2, final_time);
  g_test_message ("%s dQ=%g until %g: %" G_GUINT64_FORMAT " steps, "
                  "|q - x| <= %.3f dQ", method, dq, final_time, r.steps,
                  r.err / dq);
  qd_simulation_free (sim);
  g_object_unref (doc);
  return r;
}

/* The spiral: LIQSS1 and LIQSS2 cycle until the end (their steps grow
 * tenfold from t = 10 to t = 100); mLIQSS1 and mLIQSS2 update the pair
 * together and park both states on the equilibrium, where nothing moves
 * any more: the same count for both final times, and a small fraction of
 * the LIQSS count. Both stay within the error bound of the quantization
 * (a few quanta for this A: Theorem 3's factor). Measured: dQ = 1e-3,
 * t = 100: QSS1 11,594, LIQSS1 13,219, mLIQSS1 27; LIQSS2 19,633,
 * mLIQSS2 13. */
static void
test_pair_spiral (gconstpointer data)
{
  static const double pair_quanta[] = { 1e-2, 1e-3 };
  int order = GPOINTER_TO_INT (data);
  const char *plain = order == 1 ? "LIQSS1" : "LIQSS2";
  const char *modified = order == 1 ? "mLIQSS1" : "mLIQSS2";

  for (guint i = 0; i < G_N_ELEMENTS (pair_quanta); i++)
    {
      double dq = pair_quanta[i];
      PairResult l10 = run_pair (&spiral, plain, dq, 10.0);
      PairResult l100 = run_pair (&spiral, plain, dq, 100.0);
      PairResult m10 = run_pair (&spiral, modified, dq, 10.0);
      PairResult m100 = run_pair (&spiral, modified, dq, 100.0);
      double xe1, xe2;

      pair_now = &spiral;
      xe1 = pair_exact1 (1e3);
      xe2 = pair_exact2 (1e3);
      g_assert_cmpuint (l100.steps, >=, 8 * l10.steps);
      g_assert_cmpuint (m100.steps, ==, m10.steps);
      g_assert_cmpuint (20 * m10.steps, <=, l10.steps);
      g_assert_cmpfloat (m100.err, <=, 3.0 * dq);
      g_assert_cmpfloat (l100.err, <=, 3.0 * dq);
      /* Parked on the equilibrium of the pair's model: exact for a
       * linear system. */
      g_assert_cmpfloat (fabs (m100.end1 - xe1), <=, 1e-11);
      g_assert_cmpfloat (fabs (m100.end2 - xe2), <=, 1e-11);
    }
}

/* On the symmetric pair the cycles are fewer; the modified methods save
 * steps at the larger quanta (measured at dQ = 1e-2: LIQSS1 501,
 * mLIQSS1 299; LIQSS2 524, mLIQSS2 401) and stay within the same error
 * bound. */
static void
test_pair_symmetric (gconstpointer data)
{
  int order = GPOINTER_TO_INT (data);
  PairResult l = run_pair (&symmetric, order == 1 ? "LIQSS1" : "LIQSS2",
                           1e-2, 10.0);
  PairResult m = run_pair (&symmetric, order == 1 ? "mLIQSS1" : "mLIQSS2",
                           1e-2, 10.0);

  g_assert_cmpuint (m.steps, <, l.steps);
  g_assert_cmpfloat (m.err, <=, 3.0 * 1e-2);
  g_assert_cmpfloat (l.err, <=, 3.0 * 1e-2);
}

/* The engine's coupling (qd_atomic_get_coupled()): x1 and x2 reach each
 * other through the WSums; a third integrator fed by x1 alone, whose
 * output goes only to the Scope, is coupled with nobody. */
static void
test_coupled (void)
{
  QdDocument *doc = pair_document (&spiral, "mLIQSS1", 1e-2, 1.0);
  QdBlock *x3 = qd_test_add_block (doc, "integrator", "x3");
  QdSimulation *sim;
  guint n;

  qd_test_connect (doc, pair_x1, 0, x3, 0);
  sim = qd_test_compile (doc);
  for (guint i = 0; i < qd_simulation_get_n_atomics (sim); i++)
    {
      const QdAtomic *a = qd_simulation_get_atomic (sim, i);
      QdAtomic *const *c = qd_atomic_get_coupled (a, &n);

      if (g_str_equal (a->path, "/x1") || g_str_equal (a->path, "/x2"))
        {
          g_assert_cmpuint (n, ==, 1);
          g_assert_cmpstr (c[0]->path, ==,
                           g_str_equal (a->path, "/x1") ? "/x2" : "/x1");
        }
      else
        g_assert_cmpuint (n, ==, 0);
    }
  qd_simulation_free (sim);
  g_object_unref (doc);
}

/* All states summed and fed back to all (two partial sums of at most 35
 * inputs, a port count's limit being 64, then their sum): with 3 states
 * each has the other two as partners; with 70 (more than the engine's
 * 64) none has any, rather than lists that grow with the square of the
 * model. */
static void
test_coupled_dense (void)
{
  static const guint sizes[] = { 3, 70 };

  for (guint z = 0; z < G_N_ELEMENTS (sizes); z++)
    {
      guint n_states = sizes[z], half = (n_states + 1) / 2;
      QdDocument *doc = qd_document_new ();
      QdBlock *total = qd_test_add_block (doc, "wsum", "Sum");
      QdBlock *part[2];
      QdSimulation *sim;

      qd_test_set_param (doc, total, "n", "2");
      qd_test_set_param (doc, total, "weights", "-1, -1");
      for (guint h = 0; h < 2; h++)
        {
          g_autofree char *name = g_strdup_printf ("Part %u", h);
          guint n_in = h == 0 ? half : n_states - half;
          g_autofree char *n_text = g_strdup_printf ("%u", n_in);
          GString *weights = g_string_new ("1");

          for (guint i = 1; i < n_in; i++)
            g_string_append (weights, ", 1");
          part[h] = qd_test_add_block (doc, "wsum", name);
          qd_test_set_param (doc, part[h], "n", n_text);
          qd_test_set_param (doc, part[h], "weights", weights->str);
          qd_test_connect (doc, part[h], 0, total, h);
          g_string_free (weights, TRUE);
        }
      for (guint i = 0; i < n_states; i++)
        {
          g_autofree char *name = g_strdup_printf ("x%u", i);
          QdBlock *x = qd_test_add_block (doc, "integrator", name);

          qd_test_set_param (doc, x, "x0", "1");
          qd_test_connect (doc, total, 0, x, 0);
          qd_test_connect (doc, x, 0, part[i < half ? 0 : 1],
                           i < half ? i : i - half);
        }
      set_method (doc, "mLIQSS1", 1e-2);
      qd_test_set_final_time (doc, 1.0);
      sim = qd_test_compile (doc);
      for (guint i = 0; i < qd_simulation_get_n_atomics (sim); i++)
        {
          const QdAtomic *a = qd_simulation_get_atomic (sim, i);
          guint n;

          qd_atomic_get_coupled (a, &n);
          if (a->type->flags & QD_BLOCK_INTEGRATOR)
            g_assert_cmpuint (n, ==, n_states <= 64 ? n_states - 1 : 0);
        }
      qd_test_run (sim);
      qd_simulation_free (sim);
      g_object_unref (doc);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  g_test_add_data_func ("/stiff/spring/liqss1", GINT_TO_POINTER (1),
                        test_liqss);
  g_test_add_data_func ("/stiff/spring/liqss2", GINT_TO_POINTER (2),
                        test_liqss);
  g_test_add_data_func ("/stiff/spring/liqss3", GINT_TO_POINTER (3),
                        test_liqss);
  g_test_add_func ("/stiff/spring/activity-bound", test_activity_bound);
  g_test_add_func ("/stiff/spring/scaled-quanta", test_scaled_quanta);
  g_test_add_func ("/stiff/spring/example", test_example_bound);
  g_test_add_func ("/stiff/spring/quanta-window", test_quanta_window);
  g_test_add_func ("/stiff/spring/mixed-orders", test_mixed_orders);
  g_test_add_data_func ("/stiff/spring/qss1-oscillates", GINT_TO_POINTER (1),
                        test_explicit_oscillates);
  g_test_add_data_func ("/stiff/spring/qss2-oscillates", GINT_TO_POINTER (2),
                        test_explicit_oscillates);
  g_test_add_data_func ("/stiff/spring/bqss", "BQSS", test_backward);
  g_test_add_data_func ("/stiff/spring/cqss", "CQSS", test_backward);
  g_test_add_func ("/stiff/marginal/cqss", test_marginal);
  g_test_add_func ("/stiff/single/liqss", test_single_liqss);
  g_test_add_func ("/stiff/single/backward", test_single_backward);
  g_test_add_func ("/stiff/cut/liqss", test_cut);
  g_test_add_func ("/stiff/spring/liqss2-qssolver", test_liqss2_qssolver);
  g_test_add_func ("/stiff/liqss3/boundary", test_liqss3_boundary);
  g_test_add_data_func ("/stiff/pair/mliqss1-spiral", GINT_TO_POINTER (1),
                        test_pair_spiral);
  g_test_add_data_func ("/stiff/pair/mliqss2-spiral", GINT_TO_POINTER (2),
                        test_pair_spiral);
  g_test_add_data_func ("/stiff/pair/mliqss1-symmetric", GINT_TO_POINTER (1),
                        test_pair_symmetric);
  g_test_add_data_func ("/stiff/pair/mliqss2-symmetric", GINT_TO_POINTER (2),
                        test_pair_symmetric);
  g_test_add_func ("/stiff/pair/coupled", test_coupled);
  g_test_add_func ("/stiff/pair/qss-partner", test_mliqss_qss_partner);
  g_test_add_func ("/stiff/pair/coupled-dense", test_coupled_dense);

  return g_test_run ();
}

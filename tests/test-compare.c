/* test-compare.c: one diagram under several methods (qd-compare.h)
 *
 * The exact error of two piecewise polynomials against hand-computed
 * values; compare's error column for RK4 on exponential decay against an
 * independent computation of |x_rk4(t) - e^-t| (RK4's step values and
 * their cubic Hermite interpolant, sampled finely); the method names and
 * options; a QSS method reaching every Integrator; the caller's document
 * untouched; and `qdevs-cli compare` as a user runs it.
 */
#include "qd-test-util.h"

#include <json-c/json.h>
#include <math.h>
#include <string.h>

static void
append (QdTrace *trace,
        double   t,
        double   c0,
        double   c1)
{
  QdSignal s = { 0 };

  s.t = t;
  s.c[0] = c0;
  s.c[1] = c1;
  s.order = c1 != 0.0 ? 1 : 0;
  qd_trace_append (trace, &s);
}

/* x = 1 on [0, 0.5), 3 on [0.5, 2]; r = t on [0, 1), then 1 - (t - 1)
 * on [1, 2]. Pieces [0, .5): 1 - t; [.5, 1): 3 - t; [1, 2]: 1 + t. */
static void
test_exact_error (void)
{
  g_autoptr(QdTrace) x = qd_trace_new ("/Scope/x");
  g_autoptr(QdTrace) r = qd_trace_new ("/Scope/x");
  QdCompareError e;
  double integral;

  append (x, 0.0, 1.0, 0.0);
  append (x, 0.5, 3.0, 0.0);
  qd_trace_close (x, 2.0);
  append (r, 0.0, 0.0, 1.0);
  append (r, 1.0, 1.0, -1.0);
  qd_trace_close (r, 2.0);

  e = qd_compare_traces (x, r);
  /* The largest difference is where x - r = 1 + t ends, at t = 2. */
  g_assert_cmpfloat_with_epsilon (e.max, 3.0, 1e-12);
  /* ∫ (1-t)² over [0,.5] + ∫ (3-t)² over [.5,1] + ∫ (1+t)² over [1,2]. */
  integral = (1.0 - 0.125) / 3.0 + (15.625 - 8.0) / 3.0 + (27.0 - 8.0) / 3.0;
  g_assert_cmpfloat_with_epsilon (e.rms, sqrt (integral / 2.0), 1e-12);

  /* Symmetric, and zero against itself. */
  e = qd_compare_traces (r, x);
  g_assert_cmpfloat_with_epsilon (e.max, 3.0, 1e-12);
  e = qd_compare_traces (x, x);
  g_assert_cmpfloat (e.max, ==, 0.0);
  g_assert_cmpfloat (e.rms, ==, 0.0);
}

/* A cubic's turning point inside a piece: max of |s³ - s| on [0, 2] is
 * at the end (6), on [0, 1] at s = 1/sqrt(3). */
static void
test_exact_error_turning_point (void)
{
  g_autoptr(QdTrace) x = qd_trace_new ("x");
  g_autoptr(QdTrace) r = qd_trace_new ("x");
  QdSignal s = { 0 };
  QdCompareError e;

  s.order = 3;
  s.c[1] = -1.0;
  s.c[3] = 1.0;
  qd_trace_append (x, &s);
  qd_trace_close (x, 1.0);
  append (r, 0.0, 0.0, 0.0);
  qd_trace_close (r, 1.0);
  e = qd_compare_traces (x, r);
  g_assert_cmpfloat_with_epsilon (e.max, 2.0 / (3.0 * sqrt (3.0)), 1e-14);
  /* ∫0^1 (s³ - s)² ds = 1/7 - 2/5 + 1/3. */
  g_assert_cmpfloat_with_epsilon (e.rms, sqrt (1.0 / 7 - 2.0 / 5 + 1.0 / 3), 1e-14);
}

/* RK4's value after one step of h on x' = -x. */
static double
rk4_factor (double h)
{
  double z = -h;

  return 1.0 + z + z * z / 2.0 + z * z * z / 6.0 + z * z * z * z / 24.0;
}

/* The error of RK4 (h = 0.1) on x' = -x over [0, 5], computed without
 * the engine: RK4's step values, the cubic Hermite segment through
 * them and their slopes -x, and e^-t, sampled 2000 times per step for
 * the largest error and integrated by Simpson's rule for the RMS. */
static void
independent_rk4_error (double  h,
                       double  final,
                       double *max,
                       double *rms)
{
  const int samples = 2000;
  int n = (int) lround (final / h);
  double x0 = 1.0, sum = 0.0;

  *max = 0.0;
  for (int k = 0; k < n; k++)
    {
      double x1 = x0 * rk4_factor (h);
      double m0 = -x0, m1 = -x1;
      double t0 = k * h;

      for (int i = 0; i <= samples; i++)
        {
          double u = (double) i / samples;
          double h00 = 2 * u * u * u - 3 * u * u + 1, h10 = u * u * u - 2 * u * u + u;
          double h01 = -2 * u * u * u + 3 * u * u, h11 = u * u * u - u * u;
          double x = h00 * x0 + h10 * h * m0 + h01 * x1 + h11 * h * m1;
          double err = x - exp (-(t0 + u * h));
          double w = (i == 0 || i == samples) ? 1.0 : (i % 2 == 1 ? 4.0 : 2.0);

          *max = MAX (*max, fabs (err));
          sum += w * err * err * (h / samples) / 3.0;
        }
      x0 = x1;
    }
  *rms = sqrt (sum / final);
}

static void
test_rk4_error_column (void)
{
  g_autoptr(QdDocument) doc = qd_test_decay_document (5.0);
  const char *methods[] = { "RK4:h=0.1", NULL };
  g_autoptr(GError) error = NULL;
  QdComparison *cmp;
  const QdCompareRun *run;
  const QdCompareError *e;
  double max, rms;

  cmp = qd_comparison_new (doc, methods, "BDF:rtol=1e-12,atol=1e-14", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (qd_comparison_run (cmp, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (qd_comparison_get_signals (cmp)[0], ==, "/Scope/x");
  g_assert_null (qd_comparison_get_signals (cmp)[1]);

  run = qd_comparison_get_run (cmp, 0);
  g_assert_cmpstr (run->name, ==, "rk4:h=0.1");
  g_assert_false (run->qss);
  g_assert_null (run->error);
  g_assert_cmpuint (run->steps, ==, 50);
  g_assert_null (run->integrators);
  e = &g_array_index (run->errors, QdCompareError, 0);

  independent_rk4_error (0.1, 5.0, &max, &rms);
  /* RK4's own error is some 1e-6 here; the reference's and the
   * sampling's are below 1e-9. */
  g_assert_cmpfloat (max, >, 1e-7);
  g_assert_cmpfloat (fabs (e->max - max), <, 1e-3 * max);
  g_assert_cmpfloat (fabs (e->rms - rms), <, 1e-3 * rms);
  qd_comparison_free (cmp);
}

static void
test_spec_names (void)
{
  QdSettings settings;
  g_autoptr(GError) error = NULL;
  struct { const char *spec, *name; gboolean qss; } ok[] = {
    { "bdf", "cvode-bdf", FALSE },
    { "BDF:rtol=1e-10,atol=1e-12", "cvode-bdf:rtol=1e-10,atol=1e-12", FALSE },
    { "Adams", "cvode-adams", FALSE },
    { "RK4:h=0.01", "rk4:h=0.01", FALSE },
    { "RKF45", "rkf45", FALSE },
    { "DOPRI", "dormand-prince", FALSE },
    { "backward-euler:h=0.5", "backward-euler:h=0.5", FALSE },
    { "qss2", "QSS2", TRUE },
    { "LIQSS2:dqrel=1e-4", "LIQSS2:dqrel=1e-4", TRUE },
  };
  const char *bad[][2] = {
    { "RK5", "unknown method 'RK5'" },
    { "rkf45:tol=1", "solver option 'tol'" },
    { "QSS3:rtol=1", "QSS option 'rtol'" },
    { "rk4", "" },      /* no fixed step: the model's h is 0 */
  };

  for (guint i = 0; i < G_N_ELEMENTS (ok); i++)
    {
      g_autofree char *qss = NULL;
      g_autofree char *name = NULL;

      qd_document_init_settings (&settings);
      name = qd_compare_parse_spec (ok[i].spec, &settings, &qss, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (name, ==, ok[i].name);
      g_assert_cmpint (qss != NULL, ==, ok[i].qss);
      if (ok[i].qss)
        {
          g_assert_cmpstr (settings.solver, ==, "qss");
          g_assert_cmpstr (settings.method, ==, qss);
        }
      else
        g_assert_cmpstr (settings.solver, !=, "qss");
      qd_settings_clear (&settings);
    }
  qd_document_init_settings (&settings);
  {
    g_autofree char *qss = NULL;
    g_autofree char *name = qd_compare_parse_spec ("LIQSS2:dqrel=1e-4,dqmin=1e-7", &settings, &qss, &error);

    g_assert_nonnull (name);
    g_assert_cmpfloat (settings.dqrel, ==, 1e-4);
    g_assert_cmpfloat (settings.dqmin, ==, 1e-7);
  }
  qd_settings_clear (&settings);

  /* A model with a fixed step: an adaptive-only method ignores it, a
   * method that can take it keeps it. */
  qd_document_init_settings (&settings);
  settings.h = 0.21;
  {
    g_autofree char *qss = NULL;
    g_autofree char *name = qd_compare_parse_spec ("BDF", &settings, &qss, &error);

    g_assert_no_error (error);
    g_assert_cmpfloat (settings.h, ==, 0.0);
    g_free (name);
    settings.h = 0.21;
    name = qd_compare_parse_spec ("rk4", &settings, &qss, &error);
    g_assert_no_error (error);
    g_assert_cmpfloat (settings.h, ==, 0.21);
  }
  qd_settings_clear (&settings);

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *qss = NULL;
      g_autofree char *name = NULL;

      qd_document_init_settings (&settings);
      name = qd_compare_parse_spec (bad[i][0], &settings, &qss, &error);
      g_assert_null (name);
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, bad[i][1]));
      g_clear_error (&error);
      qd_settings_clear (&settings);
    }
}

/* An Integrator with its own method takes the compared one, and the
 * caller's document is left as it was. */
static void
test_qss_method_everywhere (void)
{
  g_autoptr(QdDocument) doc = qd_test_decay_document (5.0);
  QdBlock *integ = qd_document_find_block_by_path (doc, "/Integrator");
  const char *methods[] = { "QSS1", "QSS3", "bogus-method", NULL };
  const char *good[] = { "QSS1", "QSS3", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  QdComparison *cmp;
  const QdCompareRun *q1, *q3;

  qd_test_set_param (doc, integ, "method", "QSS2");
  before = qd_document_to_data (doc, NULL);

  /* A bad name fails before any run, naming it. */
  cmp = qd_comparison_new (doc, methods, NULL, NULL, &error);
  g_assert_null (cmp);
  g_assert_nonnull (strstr (error->message, "bogus-method"));
  g_clear_error (&error);

  cmp = qd_comparison_new (doc, good, "QSS3:dqrel=1e-7,dqmin=1e-9", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (qd_comparison_run (cmp, &error));
  q1 = qd_comparison_get_run (cmp, 0);
  q3 = qd_comparison_get_run (cmp, 1);
  g_assert_true (q1->qss);
  g_assert_cmpuint (q1->integrators->len, ==, 1);
  g_assert_cmpstr (g_array_index (q1->integrators, QdCompareIntegrator, 0).path, ==, "/Integrator");
  g_assert_cmpuint (g_array_index (q1->integrators, QdCompareIntegrator, 0).steps, ==, q1->steps);
  /* QSS1 with dqrel 1e-3 on e^-t over [0, 5]: about ln(e^5)/1e-3 steps
   * (each step a relative change of dqrel), far more than QSS3's. */
  g_assert_cmpuint (q1->steps, >, 4000);
  g_assert_cmpuint (q3->steps, <, q1->steps / 20);
  /* The Scope shows q, within a quantum (dqrel |x| <= 1e-3) of x. */
  g_assert_cmpfloat (g_array_index (q1->errors, QdCompareError, 0).max, <, 1.01e-3);
  g_assert_cmpfloat (g_array_index (q3->errors, QdCompareError, 0).max, <, 1.01e-3);
  g_assert_cmpfloat (g_array_index (q3->errors, QdCompareError, 0).max, >, 1e-4);
  g_assert_cmpuint (qd_comparison_get_progress (cmp), ==, 3);
  qd_comparison_free (cmp);

  after = qd_document_to_data (doc, NULL);
  g_assert_cmpstr (after, ==, before);
}

static QdComparison *
compare_example (const char  *name,
                 const char **methods)
{
  g_autofree char *path = qd_test_source_path ("data", "examples", name, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) doc = qd_document_load (path, &error);
  QdComparison *cmp;

  g_assert_no_error (error);
  cmp = qd_comparison_new (doc, methods, NULL, NULL, &error);
  g_assert_no_error (error);
  qd_comparison_set_keep_traces (cmp, TRUE);
  g_assert_true (qd_comparison_run (cmp, &error));
  g_assert_no_error (error);
  for (guint i = 0; i < qd_comparison_get_n_runs (cmp); i++)
    g_assert_null (qd_comparison_get_run (cmp, i)->error);
  return cmp;
}

/* planet-moon's lesson: Euler's orbit gains energy, RK4 and QSS3 lose
 * a hundred times less. Signal 2 is the relative energy drift. */
static void
test_planet_moon (void)
{
  const char *methods[] = { "euler:h=0.01", "rk4:h=1", "QSS3", NULL };
  QdComparison *cmp = compare_example ("planet-moon.qdevs", methods);
  const char *const *signals = qd_comparison_get_signals (cmp);
  double drift[3];

  g_assert_cmpstr (signals[2], ==, "/Energy/relative energy drift");
  for (guint i = 0; i < 3; i++)
    {
      const QdCompareRun *run = qd_comparison_get_run (cmp, i);
      QdTrace *energy = g_ptr_array_index (run->traces, 2);

      g_assert_cmpstr (qd_trace_get_name (energy), ==, signals[2]);
      drift[i] = qd_trace_eval (energy, 599.0);
      /* The reference keeps the energy: the error is the drift. */
      g_assert_cmpfloat (fabs (g_array_index (run->errors, QdCompareError, 2).max), >=, fabs (drift[i]) * 0.99);
    }
  g_assert_cmpfloat (drift[0], >, 0.2);
  g_assert_cmpfloat (drift[1], <, 0.0);
  g_assert_cmpfloat (drift[1], >, -2e-3);
  g_assert_cmpfloat (drift[2], <, 0.0);
  g_assert_cmpfloat (drift[2], >, -2e-3);
  qd_comparison_free (cmp);
}

/* stiff-spring's lesson: the explicit RKF45 takes ten times the steps
 * of BDF, and LIQSS2 fewer than BDF. */
static void
test_stiff_spring (void)
{
  const char *methods[] = { "RKF45", "BDF", "LIQSS2", NULL };
  QdComparison *cmp = compare_example ("stiff-spring.qdevs", methods);
  const QdCompareRun *rkf = qd_comparison_get_run (cmp, 0);
  const QdCompareRun *bdf = qd_comparison_get_run (cmp, 1);
  const QdCompareRun *liqss = qd_comparison_get_run (cmp, 2);

  g_assert_cmpuint (rkf->steps, >, 1000);
  g_assert_cmpuint (rkf->steps, >, 10 * bdf->steps);
  g_assert_cmpuint (rkf->rhs_evals, >, 10 * bdf->rhs_evals);
  g_assert_cmpuint (liqss->steps, <, bdf->steps);
  g_assert_cmpuint (liqss->integrators->len, ==, 2);
  qd_comparison_free (cmp);
}

static void
test_cli (void)
{
  g_auto(QdCliResult) r1 = { 0 };
  g_auto(QdCliResult) r2 = { 0 };
  g_auto(QdCliResult) r3 = { 0 };
  g_auto(QdCliResult) r4 = { 0 };
  g_autofree char *model = qd_test_source_path ("data", "examples", "exp-decay.qdevs", NULL);
  json_object *root, *methods, *m, *errors;

  qd_test_run_cli (&r1, NULL, "compare", model, "--methods", "QSS2,RK4:h=0.01,BDF:rtol=1e-8,atol=1e-10",
                   "--json", NULL);
  g_assert_cmpint (r1.status, ==, 0);
  root = json_tokener_parse (r1.out);
  g_assert_nonnull (root);
  g_assert_true (json_object_object_get_ex (root, "methods", &methods));
  g_assert_cmpuint (json_object_array_length (methods), ==, 3);
  m = json_object_array_get_idx (methods, 0);
  g_assert_cmpstr (json_object_get_string (json_object_object_get (m, "method")), ==, "QSS2");
  g_assert_cmpstr (json_object_get_string (json_object_object_get (m, "family")), ==, "qss");
  g_assert_cmpuint (json_object_array_length (json_object_object_get (m, "integrators")), ==, 1);
  m = json_object_array_get_idx (methods, 2);
  g_assert_cmpstr (json_object_get_string (json_object_object_get (m, "method")), ==,
                   "cvode-bdf:rtol=1e-8,atol=1e-10");
  errors = json_object_object_get (m, "errors");
  g_assert_cmpstr (json_object_get_string (json_object_object_get (json_object_array_get_idx (errors, 0), "signal")),
                   ==, "/Scope/x");
  g_assert_cmpfloat (json_object_get_double (json_object_object_get (json_object_array_get_idx (errors, 0), "max")),
                     <, 1e-6);
  json_object_put (root);

  /* The table: one row per method, in order. */
  qd_test_run_cli (&r2, NULL, "compare", model, "--methods", "qss3", "--methods", "rkf45", NULL);
  g_assert_cmpint (r2.status, ==, 0);
  g_assert_nonnull (strstr (r2.out, "\nQSS3 "));
  g_assert_nonnull (strstr (r2.out, "\nrkf45 "));
  g_assert_true (strstr (r2.out, "\nQSS3 ") < strstr (r2.out, "\nrkf45 "));
  g_assert_nonnull (strstr (r2.out, "/Integrator"));

  qd_test_run_cli (&r3, NULL, "compare", model, "--methods", "RK9", NULL);
  g_assert_cmpint (r3.status, ==, 2);
  g_assert_nonnull (strstr (r3.err, "unknown method 'RK9'"));

  qd_test_run_cli (&r4, NULL, "compare", model, NULL);
  g_assert_cmpint (r4.status, ==, 2);
  g_assert_nonnull (strstr (r4.err, "missing --methods"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  g_test_add_func ("/compare/exact-error", test_exact_error);
  g_test_add_func ("/compare/exact-error-turning-point", test_exact_error_turning_point);
  g_test_add_func ("/compare/rk4-error-column", test_rk4_error_column);
  g_test_add_func ("/compare/spec-names", test_spec_names);
  g_test_add_func ("/compare/qss-method-everywhere", test_qss_method_everywhere);
  g_test_add_func ("/compare/planet-moon", test_planet_moon);
  g_test_add_func ("/compare/stiff-spring", test_stiff_spring);
  g_test_add_func ("/compare/cli", test_cli);
  return g_test_run ();
}

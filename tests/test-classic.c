/* test-classic.c: the classic ODE solvers (SUNDIALS CVODE and ARKODE)
 * against analytic solutions
 *
 * Every method on exponential decay and on the harmonic oscillator,
 * within a small multiple of the asked tolerance; the orders of the
 * fixed-step methods (halving h divides RK4's error by 16, Euler's by 2);
 * forward Euler's stability limit h = 2/λ, exactly; a Step's time hit
 * exactly; the same diagram under QSS3 and BDF; the settings in the file
 * and the errors a user sees. The crossings: test-classic-roots.c.
 */
#include "qd-test-util.h"

#include <math.h>
#include <string.h>

/* ---- building and running ---------------------------------------------- */

static void
set_solver (QdDocument *doc,
            const char *solver,
            double      rtol,
            double      atol,
            double      h,
            double      final_time)
{
  QdSettings settings = *qd_document_get_settings (doc);
  g_autoptr(GError) error = NULL;

  settings.solver = (char *) solver;
  settings.rtol = rtol;
  settings.atol = atol;
  settings.h = h;
  settings.final_time = final_time;
  g_assert_true (qd_document_set_settings (doc, &settings, &error));
  g_assert_no_error (error);
}

/* dx/dt = -lambda x, x(0) = 1, into a Scope "x". */
static QdDocument *
decay_document (const char *lambda)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *integ = qd_test_add_block (doc, "integrator", "Integrator");
  QdBlock *gain = qd_test_add_block (doc, "gain", "Gain");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  g_autofree char *k = g_strdup_printf ("-(%s)", lambda);

  qd_test_set_param (doc, integ, "x0", "1");
  qd_test_set_param (doc, gain, "k", k);
  qd_test_set_param (doc, scope, "names", "x");
  qd_test_connect (doc, integ, 0, gain, 0);
  qd_test_connect (doc, gain, 0, integ, 0);
  qd_test_connect (doc, integ, 0, scope, 0);
  return doc;
}

/* x'' = -x, x(0) = 1, x'(0) = 0: x = cos t, into a Scope "x". */
static QdDocument *
oscillator_document (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *v = qd_test_add_block (doc, "integrator", "v");
  QdBlock *gain = qd_test_add_block (doc, "gain", "Gain");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");

  qd_test_set_param (doc, x, "x0", "1");
  qd_test_set_param (doc, v, "x0", "0");
  qd_test_set_param (doc, gain, "k", "-1");
  qd_test_set_param (doc, scope, "names", "x");
  qd_test_connect (doc, x, 0, gain, 0);
  qd_test_connect (doc, gain, 0, v, 0);
  qd_test_connect (doc, v, 0, x, 0);
  qd_test_connect (doc, x, 0, scope, 0);
  return doc;
}

static QdSimulation *
run_ok (QdDocument *doc)
{
  QdSimulation *sim = qd_test_compile (doc);

  qd_test_run (sim);
  return sim;
}

/* The bundled example @name (data/examples). */
static QdDocument *
example_document (const char *name)
{
  g_autofree char *path = qd_test_source_path ("data", "examples", name, NULL);
  g_autoptr(GError) error = NULL;
  QdDocument *doc = qd_document_load (path, &error);

  g_assert_no_error (error);
  return doc;
}

/* The value of the trace at @t (the segment holding it). */
static double
trace_value (QdTrace *trace,
             double   t)
{
  gsize n = qd_trace_get_length (trace);
  const QdSignal *seg = NULL;

  for (gsize i = 0; i < n && qd_trace_get (trace, i)->t <= t; i++)
    seg = qd_trace_get (trace, i);
  g_assert_nonnull (seg);
  return qd_signal_eval (seg, t);
}

/* The largest error at the segments' starts: the solver's own steps. */
static double
error_at_steps (QdTrace  *trace,
                double  (*exact) (double))
{
  double worst = 0.0;

  for (gsize i = 0; i < qd_trace_get_length (trace); i++)
    {
      const QdSignal *seg = qd_trace_get (trace, i);

      worst = MAX (worst, fabs (seg->c[0] - exact (seg->t)));
    }
  return worst;
}

static double
exp_minus (double t)
{
  return exp (-t);
}

/* ---- every method, within its tolerance -------------------------------- */

/* Adaptive methods run with rtol = 1e-8 and atol = 1e-10, RK4 with the
 * fixed step it needs. The bound is on the global error over the whole
 * run (the solution's scale is 1): at the steps (the segments' starts),
 * and, twice as loose, sampled along the cubic Hermite segments between
 * them, whose own error grows as h^4 (CVODE Adams takes steps of 0.08
 * on the oscillator). The tolerance controls each step's local error;
 * for a method of order 2 or more the global error stays within a small
 * multiple of it. The first-order methods need about 10^5 steps at this
 * tolerance, whose local errors add up: their bound is the order of that
 * sum. */
typedef struct
{
  const char *name;
  double      h;       /* 0: adaptive */
  double      bound;   /* the largest global error allowed */
} MethodCase;

#define RTOL 1e-8

static const MethodCase cases[] = {
  { "cvode-bdf", 0, 50 * RTOL },
  { "cvode-adams", 0, 50 * RTOL },
  { "euler", 0, 1e-3 },
  { "heun", 0, 50 * RTOL },
  { "rk4", 0.01, 1e-9 },     /* about h^4 / 10 */
  { "bogacki-shampine", 0, 50 * RTOL },
  { "rkf45", 0, 50 * RTOL },
  { "cash-karp", 0, 50 * RTOL },
  { "dormand-prince", 0, 50 * RTOL },
  { "backward-euler", 0, 1e-3 },
  { "trapezoidal", 0, 50 * RTOL },
  { "implicit-midpoint", 0, 50 * RTOL },
};

static double
allowed_error (const MethodCase *c)
{
  return c->bound;
}

static void
test_decay (gconstpointer data)
{
  const MethodCase *c = data;
  g_autoptr(QdDocument) doc = decay_document ("1");
  QdSimulation *sim;
  QdClassicStats stats;
  double err;

  set_solver (doc, c->name, RTOL, RTOL * 1e-2, c->h, 5.0);
  sim = run_ok (doc);
  g_assert_cmpfloat (error_at_steps (qd_test_find_trace (sim, "/Scope/x"),
                                     exp_minus), <=, allowed_error (c));
  err = qd_test_max_error (qd_test_find_trace (sim, "/Scope/x"), exp_minus,
                           5.0);
  g_assert_true (qd_simulation_get_classic_stats (sim, &stats));
  g_test_message ("%s: max error %.3g (%.1f x rtol), %" G_GUINT64_FORMAT
                  " steps, %" G_GUINT64_FORMAT " evaluations", c->name, err,
                  err / RTOL, stats.steps, stats.rhs_evals);
  g_assert_cmpfloat (err, <=, 2.0 * allowed_error (c));
  g_assert_cmpstr (stats.method, ==, c->name);
  g_assert_cmpuint (stats.n_states, ==, 1);
  g_assert_cmpuint (stats.steps, >, 0);
  g_assert_cmpuint (stats.rhs_evals, >=, stats.steps);
  g_assert_cmpuint (stats.root_stops, ==, 0);
  g_assert_cmpuint (stats.time_events, ==, 0);
  g_assert_cmpfloat (qd_simulation_get_time (sim), ==, 5.0);
  qd_simulation_free (sim);
}

static void
test_oscillator (gconstpointer data)
{
  const MethodCase *c = data;
  g_autoptr(QdDocument) doc = oscillator_document ();
  QdSimulation *sim;
  QdClassicStats stats;
  double err;

  set_solver (doc, c->name, RTOL, RTOL * 1e-2, c->h, 10.0);
  sim = run_ok (doc);
  g_assert_cmpfloat (error_at_steps (qd_test_find_trace (sim, "/Scope/x"),
                                     cos), <=, allowed_error (c));
  err = qd_test_max_error (qd_test_find_trace (sim, "/Scope/x"), cos, 10.0);
  g_assert_true (qd_simulation_get_classic_stats (sim, &stats));
  g_test_message ("%s: max error %.3g (%.1f x rtol), %" G_GUINT64_FORMAT
                  " steps", c->name, err, err / RTOL, stats.steps);
  g_assert_cmpfloat (err, <=, 2.0 * allowed_error (c));
  g_assert_cmpuint (stats.n_states, ==, 2);
  /* The implicit methods solve with a Jacobian; the explicit ones
   * never form one. */
  if (g_str_has_prefix (c->name, "cvode-bdf") || strcmp (c->name, "trapezoidal") == 0)
    g_assert_cmpuint (stats.jac_evals, >, 0);
  if (strcmp (c->name, "dormand-prince") == 0 || strcmp (c->name, "rk4") == 0)
    g_assert_cmpuint (stats.jac_evals, ==, 0);
  qd_simulation_free (sim);
}

/* ---- orders and stability ---------------------------------------------- */

/* The error at t = 1 of decay with rate 1 under a fixed step @h. */
static double
fixed_step_error (const char *method,
                  double      h)
{
  g_autoptr(QdDocument) doc = decay_document ("1");
  QdSimulation *sim;
  double x;

  set_solver (doc, method, 1e-6, 1e-8, h, 1.0);
  sim = run_ok (doc);
  x = trace_value (qd_test_find_trace (sim, "/Scope/x"), 1.0);
  qd_simulation_free (sim);
  return fabs (x - exp (-1.0));
}

static void
test_order (void)
{
  static const struct { const char *name; double ratio; } orders[] = {
    { "rk4", 16.0 }, { "euler", 2.0 }, { "heun", 4.0 },
    { "backward-euler", 2.0 }, { "trapezoidal", 4.0 },
    { "implicit-midpoint", 4.0 }, { "bogacki-shampine", 8.0 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (orders); i++)
    {
      double e1 = fixed_step_error (orders[i].name, 0.05);
      double e2 = fixed_step_error (orders[i].name, 0.025);

      g_test_message ("%s: error %.4g at h = 0.05, %.4g at h = 0.025: "
                      "ratio %.3f", orders[i].name, e1, e2, e1 / e2);
      g_assert_cmpfloat (e1 / e2, >=, 0.9 * orders[i].ratio);
      g_assert_cmpfloat (e1 / e2, <=, 1.1 * orders[i].ratio);
    }
}

/* Forward Euler on x' = -λ x is x_n = (1 - hλ)^n: it grows exactly when
 * h > 2/λ. */
static void
test_euler_stability (void)
{
  const double lambda = 10.0;
  static const double factors[] = { 0.9, 0.99, 1.01, 1.1 };

  for (guint i = 0; i < G_N_ELEMENTS (factors); i++)
    {
      double h = factors[i] * 2.0 / lambda;
      g_autoptr(QdDocument) doc = decay_document ("10");
      QdSimulation *sim;
      QdTrace *x;
      int n = 40;
      double value, expected = pow (1.0 - h * lambda, n);

      set_solver (doc, "euler", 1e-6, 1e-8, h, n * h);
      sim = run_ok (doc);
      x = qd_test_find_trace (sim, "/Scope/x");
      value = trace_value (x, (n - 1) * h) * (1.0 - h * lambda);
      g_test_message ("h = %.3f (%.2f x 2/lambda): x(%d h) = %.6g, (1 - h lambda)^n = "
                      "%.6g", h, factors[i], n, value, expected);
      g_assert_cmpfloat (fabs (value - expected), <=, 1e-9 * fabs (expected));
      if (factors[i] > 1.0)
        g_assert_cmpfloat (fabs (value), >, 1.0);
      else
        g_assert_cmpfloat (fabs (value), <, 1.0);
      qd_simulation_free (sim);
    }
}


/* ---- time events ------------------------------------------------------- */

/* x' = pulse(t) - x, the pulse 1 on [0.7, 2): x = 0, then
 * 1 - e^-(t - 0.7), then x(2) e^-(t - 2). */
static double
pulse_response (double t)
{
  if (t < 0.7)
    return 0.0;
  if (t < 2.0)
    return 1.0 - exp (-(t - 0.7));
  return (1.0 - exp (-1.3)) * exp (-(t - 2.0));
}

static void
test_time_events (gconstpointer data)
{
  const MethodCase *c = data;
  QdDocument *doc = qd_document_new ();
  QdBlock *pulse = qd_test_add_block (doc, "pulse", "Pulse");
  QdBlock *sum = qd_test_add_block (doc, "wsum", "Sum");
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdBlock *other = qd_test_add_block (doc, "pulse", "Other");
  QdBlock *monitor = qd_test_add_block (doc, "scope", "Monitor");
  QdSimulation *sim;
  QdClassicStats stats;
  QdTrace *trace;
  gboolean at_start = FALSE, at_end = FALSE;
  double err;

  qd_test_set_param (doc, pulse, "start", "0.7");
  qd_test_set_param (doc, pulse, "width", "1.3");
  qd_test_set_param (doc, sum, "weights", "1, -1");
  qd_test_set_param (doc, scope, "names", "x");
  qd_test_connect (doc, pulse, 0, sum, 0);
  qd_test_connect (doc, x, 0, sum, 1);
  qd_test_connect (doc, sum, 0, x, 0);
  qd_test_connect (doc, x, 0, scope, 0);
  /* A source that reaches no Integrator does not stop the solver. */
  qd_test_set_param (doc, other, "start", "1.5");
  qd_test_set_param (doc, other, "width", "0.3");
  qd_test_connect (doc, other, 0, monitor, 0);
  set_solver (doc, c->name, RTOL, RTOL * 1e-2, c->h, 4.0);
  sim = run_ok (doc);
  trace = qd_test_find_trace (sim, "/Scope/x");
  err = qd_test_max_error (trace, pulse_response, 4.0);
  g_assert_true (qd_simulation_get_classic_stats (sim, &stats));
  for (gsize i = 0; i < qd_trace_get_length (trace); i++)
    {
      at_start |= qd_trace_get (trace, i)->t == 0.7;
      at_end |= qd_trace_get (trace, i)->t == 2.0;
    }
  g_test_message ("%s: max error %.3g, %" G_GUINT64_FORMAT " time events, %"
                  G_GUINT64_FORMAT " restarts", c->name, err,
                  stats.time_events, stats.restarts);
  /* The solver stopped at both edges of the pulse it integrates,
   * exactly, and restarted there; the other pulse's edges are events
   * inside steps. */
  g_assert_cmpfloat (trace_value (qd_test_find_trace (sim, "/Monitor/x1"), 1.6),
                     ==, 1.0);
  g_assert_true (at_start);
  g_assert_true (at_end);
  g_assert_cmpuint (stats.time_events, ==, 2);
  g_assert_cmpuint (stats.restarts, ==, 2);
  g_assert_cmpuint (stats.root_stops, ==, 0);
  g_assert_cmpfloat (err, <=, 2.0 * allowed_error (c));
  qd_simulation_free (sim);
  g_object_unref (doc);
}

/* ---- QSS and a classic solver agree ----------------------------------- */

static void
test_qss_vs_bdf (void)
{
  g_autoptr(QdDocument) doc = example_document ("lotka-volterra.qdevs");
  g_autoptr(GError) error = NULL;
  QdSettings settings;
  QdSimulation *qss, *bdf;
  GPtrArray *qss_traces, *bdf_traces;
  double worst = 0.0, final_time;

  settings = *qd_document_get_settings (doc);
  final_time = settings.final_time;
  settings.method = (char *) "QSS3";
  settings.dqmin = 1e-7;
  settings.dqrel = 0.0;
  g_assert_true (qd_document_set_settings (doc, &settings, &error));
  g_assert_no_error (error);
  qss = run_ok (doc);
  set_solver (doc, "cvode-bdf", 1e-9, 1e-11, 0.0, final_time);
  bdf = run_ok (doc);
  qss_traces = qd_simulation_get_traces (qss);
  bdf_traces = qd_simulation_get_traces (bdf);
  g_assert_cmpuint (qss_traces->len, ==, bdf_traces->len);
  g_assert_cmpuint (qss_traces->len, >, 0);
  for (guint k = 0; k < qss_traces->len; k++)
    for (int i = 0; i <= 500; i++)
      {
        double t = final_time * i / 500.0;
        double a = trace_value (g_ptr_array_index (qss_traces, k), t);
        double b = trace_value (g_ptr_array_index (bdf_traces, k), t);

        worst = MAX (worst, fabs (a - b) / MAX (1.0, fabs (b)));
      }
  g_test_message ("Lotka-Volterra, QSS3 (dQ = 1e-7) against CVODE BDF "
                  "(rtol 1e-9): largest difference %.3g", worst);
  g_assert_cmpfloat (worst, <=, 1e-4);
  qd_simulation_free (qss);
  qd_simulation_free (bdf);
}

/* ---- the settings in the file, and errors ------------------------------ */

static void
test_file_round_trip (void)
{
  g_autoptr(QdDocument) doc = decay_document ("1");
  g_autoptr(QdDocument) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *qss_text = qd_document_to_data (doc, NULL);
  g_autofree char *text = NULL, *again = NULL;
  const QdSettings *s;

  /* A QSS model's file has no solver keys: files stay as they were. */
  g_assert_null (strstr (qss_text, "\"solver\""));
  set_solver (doc, "rk4", 1e-7, 1e-9, 0.025, 3.0);
  text = qd_document_to_data (doc, NULL);
  g_assert_nonnull (strstr (text, "\"solver\": \"rk4\""));
  back = qd_document_load_data (text, strlen (text), "round-trip", &error);
  g_assert_no_error (error);
  s = qd_document_get_settings (back);
  g_assert_cmpstr (s->solver, ==, "rk4");
  g_assert_cmpfloat (s->rtol, ==, 1e-7);
  g_assert_cmpfloat (s->atol, ==, 1e-9);
  g_assert_cmpfloat (s->h, ==, 0.025);
  g_assert_cmpfloat (s->max_step, ==, 0.0);
  again = qd_document_to_data (back, NULL);
  g_assert_cmpstr (again, ==, text);
}

static void
test_settings_errors (void)
{
  static const struct { const char *solver; double h; const char *words; } bad[] = {
    { "rk45", 0, "solver 'rk45' is not one of qss, cvode-bdf" },
    { "rk4", 0, "has no error estimate, so it needs a fixed step" },
    { "cvode-bdf", 0.1, "is always adaptive" },
    { "euler", -1, "must be 0 (adaptive) or positive" },
  };
  g_autoptr(QdDocument) doc = decay_document ("1");

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      QdSettings settings = *qd_document_get_settings (doc);
      g_autoptr(GError) error = NULL;
      g_autofree char *text = NULL;
      g_autoptr(QdDocument) loaded = NULL;

      settings.solver = (char *) bad[i].solver;
      settings.h = bad[i].h;
      g_assert_false (qd_document_set_settings (doc, &settings, &error));
      g_assert_error (error, QD_ERROR, QD_ERROR_INVALID);
      g_assert_nonnull (strstr (error->message, bad[i].words));
      g_assert_true (g_str_has_prefix (error->message, "settings: "));
      /* The same from a file: the load fails and says why. */
      text = g_strdup_printf ("{\"format\": \"qdevs\", \"version\": 1, "
                              "\"simulation\": {\"solver\": \"%s\", "
                              "\"h\": %g}}", bad[i].solver, bad[i].h);
      g_clear_error (&error);
      loaded = qd_document_load_data (text, strlen (text), "bad.qdevs",
                                      &error);
      g_assert_null (loaded);
      g_assert_nonnull (error);
      g_assert_nonnull (strstr (error->message, bad[i].words));
    }
}

/* The run stops with the solver's reason in words and where. */
static void
test_solver_failure (void)
{
  g_autoptr(QdDocument) doc = decay_document ("1");
  g_autoptr(GError) error = NULL;
  QdSimulation *sim;

  /* Tolerances below the precision of doubles. */
  set_solver (doc, "cvode-bdf", 1e-30, 1e-40, 0.0, 2.0);
  sim = qd_test_compile (doc);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_ERROR);
  g_assert_error (error, QD_ERROR, QD_ERROR_NUMERIC);
  g_assert_cmpstr (error->message, ==,
                   "the solver cvode-bdf failed at t = 0: the tolerances are "
                   "too small for the precision of the computer; raise rtol "
                   "or atol");
  /* The error is sticky, as every run error. */
  g_clear_error (&error);
  g_assert_cmpint (qd_simulation_run_until (sim, 2.0, &error), ==,
                   QD_RUN_ERROR);
  g_assert_error (error, QD_ERROR, QD_ERROR_NUMERIC);
  qd_simulation_free (sim);
}

/* x' = x^2, x(0) = 1: x = 1 / (1 - t) has no solution past t = 1. The
 * run stops there, naming the time. */
static void
test_blow_up (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *square = qd_test_add_block (doc, "product", "Square");
  g_autoptr(GError) error = NULL;
  QdSimulation *sim;
  const char *at;

  qd_test_set_param (doc, x, "x0", "1");
  qd_test_connect (doc, x, 0, square, 0);
  qd_test_connect (doc, x, 0, square, 1);
  qd_test_connect (doc, square, 0, x, 0);
  set_solver (doc, "cvode-bdf", 1e-6, 1e-8, 0.0, 2.0);
  sim = qd_test_compile (doc);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_ERROR);
  g_assert_error (error, QD_ERROR, QD_ERROR_NUMERIC);
  g_test_message ("%s", error->message);
  at = strstr (error->message, "at t = ");
  g_assert_nonnull (at);
  g_assert_cmpfloat (fabs (g_ascii_strtod (at + strlen ("at t = "), NULL)
                           - 1.0), <, 1e-3);
  g_assert_cmpfloat (qd_simulation_get_time (sim), <, 1.0);
  qd_simulation_free (sim);
}

/* x' = a sample of -x, held: a Commanded Sampler between the Integrator's
 * output and its input, commanded once, at t = 1, by a Cross Detect on a
 * Pulse. The right-hand side runs the sampler on the inputs it computes,
 * never on its command input, so the sample is taken once: x = 1 until
 * t = 1 (the sampler holds 0), then x = 1 - (t - 1). */
static void
test_held_sample (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *minus = qd_test_add_block (doc, "gain", "Minus");
  QdBlock *sampler = qd_test_add_block (doc, "commanded_sampler", "Sampler");
  QdBlock *pulse = qd_test_add_block (doc, "pulse", "Pulse");
  QdBlock *cross = qd_test_add_block (doc, "cross_detect", "Command");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;
  QdTrace *trace;

  qd_test_set_param (doc, x, "x0", "1");
  qd_test_set_param (doc, minus, "k", "-1");
  qd_test_set_param (doc, pulse, "start", "1");
  qd_test_set_param (doc, pulse, "width", "10");
  qd_test_set_param (doc, cross, "level", "0.5");
  qd_test_set_param (doc, scope, "names", "x");
  qd_test_connect (doc, x, 0, minus, 0);
  qd_test_connect (doc, minus, 0, sampler, 0);
  qd_test_connect (doc, pulse, 0, cross, 0);
  qd_test_connect (doc, cross, 0, sampler, 1);
  qd_test_connect (doc, sampler, 0, x, 0);
  qd_test_connect (doc, x, 0, scope, 0);
  set_solver (doc, "cvode-bdf", 1e-8, 1e-10, 0.0, 3.0);
  sim = run_ok (doc);
  trace = qd_test_find_trace (sim, "/Scope/x");
  g_assert_cmpfloat (fabs (trace_value (trace, 0.9) - 1.0), <=, 1e-9);
  g_assert_cmpfloat (fabs (trace_value (trace, 2.0) - 0.0), <=, 1e-7);
  g_assert_cmpfloat (fabs (trace_value (trace, 3.0) + 1.0), <=, 1e-7);
  qd_simulation_free (sim);
}

/* x' = 1 / x, x(0) = 1: x = sqrt(2t + 1), through a Division, a block
 * with a state (it watches its divisor's zeros) in the right-hand side. */
static double
sqrt_response (double t)
{
  return sqrt (2.0 * t + 1.0);
}

static void
test_division (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  /* The Integrator first: at the start, the Division must not see the
   * divisor before the Integrator's first output (as under QSS). */
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *one = qd_test_add_block (doc, "constant", "One");
  QdBlock *div = qd_test_add_block (doc, "division", "Division");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;
  double err;

  qd_test_set_param (doc, x, "x0", "1");
  qd_test_set_param (doc, scope, "names", "x");
  qd_test_connect (doc, one, 0, div, 0);
  qd_test_connect (doc, x, 0, div, 1);
  qd_test_connect (doc, div, 0, x, 0);
  qd_test_connect (doc, x, 0, scope, 0);
  set_solver (doc, "dormand-prince", RTOL, RTOL * 1e-2, 0.0, 4.0);
  sim = run_ok (doc);
  err = error_at_steps (qd_test_find_trace (sim, "/Scope/x"), sqrt_response);
  g_test_message ("x' = 1/x: error %.3g", err);
  g_assert_cmpfloat (err, <=, 50 * RTOL);
  qd_simulation_free (sim);
}

/* The example: forward Euler just above its limit grows as (-1.1)^n;
 * backward Euler with 2.5 times that step decays without oscillating. */
static void
test_stability_example (void)
{
  g_autoptr(QdDocument) doc = example_document ("euler-stability.qdevs");
  QdSimulation *sim;
  QdTrace *x;
  double previous = 1.0;

  g_assert_cmpstr (qd_document_get_settings (doc)->solver, ==, "euler");
  g_assert_cmpfloat (qd_document_get_settings (doc)->h, ==, 0.21);
  sim = run_ok (doc);
  x = qd_test_find_trace (sim, "/Scope/x");
  g_assert_cmpfloat (fabs (trace_value (x, 23 * 0.21) - pow (-1.1, 23)), <=,
                     1e-9);
  qd_simulation_free (sim);

  set_solver (doc, "backward-euler", 1e-6, 1e-8, 0.5, 5.0);
  sim = run_ok (doc);
  x = qd_test_find_trace (sim, "/Scope/x");
  for (int n = 1; n <= 10; n++)
    {
      double value = trace_value (x, n * 0.5);

      /* x_n = x_(n-1) / (1 + h lambda) */
      g_assert_cmpfloat (fabs (value - previous / 6.0), <=, 1e-12);
      previous = value;
    }
  qd_simulation_free (sim);
}

/* Stepping under a classic solver goes one solver step at a time, and
 * the steps and a run to the end give the same trace. */
static void
test_stepping (void)
{
  g_autoptr(QdDocument) doc = decay_document ("1");
  g_autoptr(GError) error = NULL;
  QdSimulation *stepped, *whole;
  QdTrace *a, *b;

  set_solver (doc, "rk4", 1e-6, 1e-8, 0.05, 1.0);
  stepped = qd_test_compile (doc);
  for (int i = 1; i <= 3; i++)
    {
      g_assert_cmpint (qd_simulation_step (stepped, 1, &error), ==,
                       QD_RUN_STEPPED);
      g_assert_no_error (error);
      g_assert_cmpfloat (fabs (qd_simulation_get_time (stepped) - 0.05 * i),
                         <=, 1e-15);
    }
  g_assert_cmpint (qd_simulation_step (stepped, 5, &error), ==,
                   QD_RUN_STEPPED);
  g_assert_cmpfloat (fabs (qd_simulation_get_time (stepped) - 0.4), <=, 1e-15);
  g_assert_cmpint (qd_simulation_run (stepped, &error), ==, QD_RUN_DONE);
  whole = run_ok (doc);
  a = qd_test_find_trace (stepped, "/Scope/x");
  b = qd_test_find_trace (whole, "/Scope/x");
  g_assert_cmpuint (qd_trace_get_length (a), ==, qd_trace_get_length (b));
  for (gsize i = 0; i < qd_trace_get_length (a); i++)
    g_assert_true (memcmp (qd_trace_get (a, i), qd_trace_get (b, i),
                           sizeof (QdSignal)) == 0);
  qd_simulation_free (stepped);
  qd_simulation_free (whole);
}

/* The implicit methods with a fixed step on the transmission line
 * example (h = 1e-11, 320 steps): its first step, from states of 0, used
 * to end the run with Newton's iteration failing, at any h from 1e-11 to
 * 1e-9. Against Dormand-Prince at rtol 1e-10: backward Euler within 7 %
 * at t = 1.6 ns, the trapezoidal and midpoint rules within 3 %, and the
 * trapezoidal rule within 0.1 % at h = 1e-12 (second order). */
static void
test_fixed_implicit (void)
{
  static const char *const methods[] = { "backward-euler", "trapezoidal",
                                         "implicit-midpoint" };
  static const double within[] = { 0.07, 0.03, 0.03 };
  g_autoptr(QdDocument) doc = example_document ("transmission-line.qdevs");
  double final_time = qd_document_get_settings (doc)->final_time;
  double reference, value;
  QdClassicStats stats;
  QdSimulation *sim;

  set_solver (doc, "dormand-prince", 1e-10, 1e-12, 0.0, final_time);
  sim = run_ok (doc);
  reference = trace_value (qd_test_find_trace (sim, "/Scope/Vout"), 1.6e-9);
  qd_simulation_free (sim);
  g_assert_cmpfloat (fabs (reference + 0.1819), <=, 1e-3);

  for (guint m = 0; m < G_N_ELEMENTS (methods); m++)
    {
      set_solver (doc, methods[m], 1e-6, 1e-8, 1e-11, final_time);
      sim = run_ok (doc);
      g_assert_true (qd_simulation_get_classic_stats (sim, &stats));
      g_assert_cmpuint (stats.steps, ==, 320);
      value = trace_value (qd_test_find_trace (sim, "/Scope/Vout"), 1.6e-9);
      g_test_message ("%s, h = 1e-11: Vout(1.6 ns) = %.6f (%.6f)", methods[m],
                      value, reference);
      g_assert_cmpfloat (fabs (value - reference), <=, within[m] * fabs (reference));
      qd_simulation_free (sim);
    }
  set_solver (doc, "trapezoidal", 1e-6, 1e-8, 1e-12, final_time);
  sim = run_ok (doc);
  value = trace_value (qd_test_find_trace (sim, "/Scope/Vout"), 1.6e-9);
  g_assert_cmpfloat (fabs (value - reference), <=, 1e-3 * fabs (reference));
  qd_simulation_free (sim);
}

/* Stiffness: on the stiff-spring example an explicit method's steps are
 * bounded by stability, not accuracy; BDF's are not. */
static void
test_stiff (void)
{
  g_autoptr(QdDocument) doc = example_document ("stiff-spring.qdevs");
  double final_time = qd_document_get_settings (doc)->final_time;
  QdClassicStats bdf, dp;
  QdSimulation *sim;

  set_solver (doc, "cvode-bdf", 1e-6, 1e-8, 0.0, final_time);
  sim = run_ok (doc);
  g_assert_true (qd_simulation_get_classic_stats (sim, &bdf));
  qd_simulation_free (sim);
  set_solver (doc, "dormand-prince", 1e-6, 1e-8, 0.0, final_time);
  sim = run_ok (doc);
  g_assert_true (qd_simulation_get_classic_stats (sim, &dp));
  qd_simulation_free (sim);
  g_test_message ("stiff spring: BDF %" G_GUINT64_FORMAT " steps (%"
                  G_GUINT64_FORMAT " Jacobians), Dormand-Prince %"
                  G_GUINT64_FORMAT " steps (%" G_GUINT64_FORMAT " failed)",
                  bdf.steps, bdf.jac_evals, dp.steps, dp.failed_steps);
  g_assert_cmpuint (bdf.jac_evals, >, 0);
  g_assert_cmpuint (dp.jac_evals, ==, 0);
  g_assert_cmpuint (20 * bdf.steps, <, dp.steps);
  g_assert_cmpuint (dp.failed_steps, >, bdf.steps);
}

/* Check refuses a model that an implicit method's dense Jacobian cannot
 * hold, and lets an explicit method run it. */
static void
test_too_large (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  QdBlock *one = qd_test_add_block (doc, "constant", "One");
  const QdProblem *problem;

  qd_document_begin (doc, "many");
  for (int i = 0; i < 10001; i++)
    {
      g_autofree char *name = g_strdup_printf ("x%d", i);

      qd_test_connect (doc, one, 0, qd_test_add_block (doc, "integrator", name), 0);
    }
  qd_document_end (doc);
  set_solver (doc, "cvode-bdf", 1e-6, 1e-8, 0.0, 1.0);
  g_assert_false (qd_document_check (doc, NULL, problems));
  g_assert_cmpuint (problems->len, ==, 1);
  problem = g_ptr_array_index (problems, 0);
  g_assert_cmpstr (problem->path, ==, "");
  g_assert_true (g_str_has_prefix (problem->message,
                                   "the solver cvode-bdf would need a dense "
                                   "Jacobian of 10001 states (0.7 GiB)"));
  g_ptr_array_set_size (problems, 0);
  set_solver (doc, "dormand-prince", 1e-6, 1e-8, 0.0, 1.0);
  g_assert_true (qd_document_check (doc, NULL, problems));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *d = g_strdup_printf ("/classic/decay/%s", cases[i].name);
      g_autofree char *o = g_strdup_printf ("/classic/oscillator/%s",
                                            cases[i].name);

      g_test_add_data_func (d, &cases[i], test_decay);
      g_test_add_data_func (o, &cases[i], test_oscillator);
    }
  g_test_add_data_func ("/classic/time-events/cvode-bdf", &cases[0],
                        test_time_events);
  g_test_add_data_func ("/classic/time-events/dormand-prince", &cases[8],
                        test_time_events);
  g_test_add_data_func ("/classic/time-events/rk4", &cases[4],
                        test_time_events);
  g_test_add_func ("/classic/qss-vs-bdf", test_qss_vs_bdf);
  g_test_add_func ("/classic/held-sample", test_held_sample);
  g_test_add_func ("/classic/division", test_division);
  g_test_add_func ("/classic/order", test_order);
  g_test_add_func ("/classic/stepping", test_stepping);
  g_test_add_func ("/classic/stiff", test_stiff);
  g_test_add_func ("/classic/fixed-implicit", test_fixed_implicit);
  g_test_add_func ("/classic/too-large", test_too_large);
  g_test_add_func ("/classic/file-round-trip", test_file_round_trip);
  g_test_add_func ("/classic/settings-errors", test_settings_errors);
  g_test_add_func ("/classic/solver-failure", test_solver_failure);
  g_test_add_func ("/classic/blow-up", test_blow_up);
  g_test_add_func ("/classic/euler-stability", test_euler_stability);
  g_test_add_func ("/classic/stability-example", test_stability_example);
  return g_test_run ();
}

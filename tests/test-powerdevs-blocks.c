/* test-powerdevs-blocks.c: the blocks that complete PowerDEVS's library and
 * what Simulink users expect (delays, implicit function, linear systems,
 * PID, lookup table, counters, normal random source)
 *
 * Each block runs in a whole model through the engine and is compared with
 * an analytic result: the delay of a sine sample by sample, the delay
 * equation x′(t) = −x(t − 1) against its method-of-steps solution, the
 * step response of 1/(s + 1), a harmonic oscillator, the cubic solved by
 * the implicit function, the lookup table's crossing times. Errors must
 * name the block and the parameter.
 */
#include <math.h>
#include <string.h>

#include "qd-test-util.h"

/* Simulation of @doc to its final time, asserting success. */
static QdSimulation *
run_doc (QdDocument *doc)
{
  QdSimulation *sim = qd_test_compile (doc);
  GError *error = NULL;

  qd_simulation_run (sim, &error);
  g_assert_no_error (error);
  return sim;
}

/* The message of the error compiling or running @doc gives. */
static char *
run_error (QdDocument *doc)
{
  GError *error = NULL;
  QdSimulation *sim = qd_simulation_new (doc, NULL, NULL, &error);
  char *message;

  if (sim != NULL)
    {
      g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_ERROR);
      qd_simulation_free (sim);
    }
  g_assert_nonnull (error);
  message = g_strdup (error->message);
  g_error_free (error);
  return message;
}

/* A uniform quantum @dqmin for @block, and its @method unless NULL. */
static void
set_quantum (QdDocument *doc,
             QdBlock    *block,
             const char *method,
             const char *dqmin)
{
  if (method != NULL)
    qd_test_set_param (doc, block, "method", method);
  qd_test_set_param (doc, block, "dqmin", dqmin);
  qd_test_set_param (doc, block, "dqrel", "0");
}

static void
assert_contains (const char *text,
                 const char *part)
{
  if (strstr (text, part) == NULL)
    g_error ("\"%s\" does not contain \"%s\"", text, part);
}

/* -------------------------------------------------------------------- */
/* Transport Delay */

/* A Sine source delayed by 0.3: the delayed trace is the source's trace
 * shifted by 0.3, to rounding, and the initial history before. */
static void
test_transport_delay_sine (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *sine = qd_test_add_block (doc, "sine", "Sine");
  QdBlock *delay = qd_test_add_block (doc, "transport_delay", "Delay");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;
  QdTrace *u, *y;
  double worst = 0.0;

  qd_test_set_param (doc, sine, "order", "3");
  set_quantum (doc, sine, NULL, "1e-3");
  qd_test_set_param (doc, delay, "delay", "0.3");
  qd_test_set_param (doc, delay, "initial", "0.25");
  qd_test_set_param (doc, scope, "n", "2");
  qd_test_set_param (doc, scope, "names", "u, y");
  qd_test_connect (doc, sine, 0, delay, 0);
  qd_test_connect (doc, sine, 0, scope, 0);
  qd_test_connect (doc, delay, 0, scope, 1);
  qd_test_set_final_time (doc, 2.0);
  sim = run_doc (doc);
  u = qd_test_find_trace (sim, "/Scope/u");
  y = qd_test_find_trace (sim, "/Scope/y");
  /* One segment out per segment in, plus the initial history. */
  g_assert_cmpuint (qd_trace_get_length (y), >, 10);
  for (double t = 0.0; t < 0.3 - 1e-9; t += 0.01)
    g_assert_cmpfloat (qd_trace_eval (y, t), ==, 0.25);
  for (double t = 0.3 + 1e-9; t <= 2.0; t += 0.001)
    worst = MAX (worst, fabs (qd_trace_eval (y, t)
                              - qd_trace_eval (u, t - 0.3)));
  g_assert_cmpfloat (worst, <, 1e-12);
  qd_simulation_free (sim);
  g_object_unref (doc);
}

/* x(t) = 1 for t ≤ 0, x′(t) = −x(t − 1), by the method of steps. */
static double
dde_exact (double t)
{
  double x = 1.0 - t;

  if (t > 1.0)
    x += (t - 1.0) * (t - 1.0) / 2.0;
  if (t > 2.0)
    x -= pow (t - 2.0, 3.0) / 6.0;
  return x;
}

static void
test_transport_delay_dde (gconstpointer data)
{
  const char *method = data;
  QdDocument *doc = qd_document_new ();
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *delay = qd_test_add_block (doc, "transport_delay", "Delay");
  QdBlock *gain = qd_test_add_block (doc, "gain", "Gain");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;
  QdTrace *trace;
  double err;

  qd_test_set_param (doc, x, "x0", "1");
  set_quantum (doc, x, method, "1e-6");
  qd_test_set_param (doc, delay, "delay", "1");
  qd_test_set_param (doc, delay, "initial", "1");
  qd_test_set_param (doc, gain, "k", "-1");
  qd_test_set_param (doc, scope, "names", "x");
  qd_test_connect (doc, x, 0, delay, 0);
  qd_test_connect (doc, delay, 0, gain, 0);
  qd_test_connect (doc, gain, 0, x, 0);
  qd_test_connect (doc, x, 0, scope, 0);
  qd_test_set_final_time (doc, 3.0);
  sim = run_doc (doc);
  trace = qd_test_find_trace (sim, "/Scope/x");
  err = qd_test_max_error (trace, dde_exact, 3.0);
  /* q within dQ of x, and x's error a few quanta over three delays. */
  g_assert_cmpfloat (err, <, 1e-5);
  g_assert_cmpfloat (fabs (qd_trace_eval (trace, 3.0) - dde_exact (3.0)),
                     <, 1e-5);
  qd_simulation_free (sim);
  g_object_unref (doc);
}

/* -------------------------------------------------------------------- */
/* Variable Transport Delay */

/* u = t (a ramp) delayed by τ = t/2: y = t/2 exactly (a composition of
 * lines); and delayed by τ = 1: the initial history, then t − 1 from the
 * breakpoint t = 1 on, found exactly. */
static void
test_variable_delay_exact (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *ramp = qd_test_add_block (doc, "ramp", "Ramp");
  QdBlock *one = qd_test_add_block (doc, "constant", "One");
  QdBlock *half = qd_test_add_block (doc, "gain", "Half");
  QdBlock *d1 = qd_test_add_block (doc, "variable_transport_delay", "D1");
  QdBlock *d2 = qd_test_add_block (doc, "variable_transport_delay", "D2");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;
  QdTrace *y1, *y2;

  qd_test_set_param (doc, ramp, "start", "0");
  qd_test_set_param (doc, half, "k", "0.5");
  qd_test_set_param (doc, d1, "initial", "-7");
  qd_test_set_param (doc, d2, "initial", "-7");
  qd_test_set_param (doc, one, "value", "1");
  qd_test_set_param (doc, scope, "n", "2");
  qd_test_set_param (doc, scope, "names", "y1, y2");
  qd_test_connect (doc, ramp, 0, half, 0);
  qd_test_connect (doc, ramp, 0, d1, 0);
  qd_test_connect (doc, half, 0, d1, 1);
  qd_test_connect (doc, ramp, 0, d2, 0);
  qd_test_connect (doc, one, 0, d2, 1);
  qd_test_connect (doc, d1, 0, scope, 0);
  qd_test_connect (doc, d2, 0, scope, 1);
  qd_test_set_final_time (doc, 4.0);
  sim = run_doc (doc);
  y1 = qd_test_find_trace (sim, "/Scope/y1");
  y2 = qd_test_find_trace (sim, "/Scope/y2");
  for (double t = 0.01; t <= 4.0; t += 0.01)
    {
      g_assert_cmpfloat (fabs (qd_trace_eval (y1, t) - t / 2), <, 1e-12);
      g_assert_cmpfloat (fabs (qd_trace_eval (y2, t)
                               - (t < 1.0 ? -7.0 : t - 1.0)), <, 1e-12);
    }
  /* The breakpoint of the history at t = 1, to the bit. */
  g_assert_cmpuint (qd_trace_get_length (y2), ==, 2);
  g_assert_cmpfloat (qd_trace_get (y2, 1)->t, ==, 1.0);
  /* Exact compositions need no event after the start. */
  g_assert_cmpuint (qd_trace_get_length (y1), <=, 3);
  qd_simulation_free (sim);
  g_object_unref (doc);
}

/* A sine (QSS3 segments) delayed by τ(t) = 1 + 0.5 sin(2πt/3): the output
 * follows the input's own trace at t − τ(t) within the tolerance, and the
 * initial history until t − τ(t) reaches 0. */
static void
test_variable_delay_sine (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *sine = qd_test_add_block (doc, "sine", "Sine");
  QdBlock *tau = qd_test_add_block (doc, "sine", "Tau");
  QdBlock *delay = qd_test_add_block (doc, "variable_transport_delay",
                                      "Delay");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;
  QdTrace *u, *t_tau, *y;
  double worst = 0.0;

  qd_test_set_param (doc, sine, "order", "3");
  set_quantum (doc, sine, NULL, "1e-4");
  qd_test_set_param (doc, tau, "order", "3");
  qd_test_set_param (doc, tau, "amplitude", "0.5");
  qd_test_set_param (doc, tau, "frequency", "1/3");
  qd_test_set_param (doc, tau, "offset", "1");
  set_quantum (doc, tau, NULL, "1e-4");
  qd_test_set_param (doc, delay, "max_delay", "2");
  qd_test_set_param (doc, delay, "initial", "3");
  qd_test_set_param (doc, delay, "tolerance", "1e-7");
  qd_test_set_param (doc, scope, "n", "3");
  qd_test_set_param (doc, scope, "names", "u, tau, y");
  qd_test_connect (doc, sine, 0, delay, 0);
  qd_test_connect (doc, tau, 0, delay, 1);
  qd_test_connect (doc, sine, 0, scope, 0);
  qd_test_connect (doc, tau, 0, scope, 1);
  qd_test_connect (doc, delay, 0, scope, 2);
  qd_test_set_final_time (doc, 6.0);
  sim = run_doc (doc);
  u = qd_test_find_trace (sim, "/Scope/u");
  t_tau = qd_test_find_trace (sim, "/Scope/tau");
  y = qd_test_find_trace (sim, "/Scope/y");
  for (double t = 0.0; t <= 6.0; t += 0.0013)
    {
      double phi = t - qd_trace_eval (t_tau, t);
      double want = phi < 0.0 ? 3.0 : qd_trace_eval (u, phi);

      /* Away from the jump from the history to the signal. */
      if (fabs (phi) > 1e-6)
        worst = MAX (worst, fabs (qd_trace_eval (y, t) - want));
    }
  g_assert_cmpfloat (worst, <, 1e-6);
  qd_simulation_free (sim);
  g_object_unref (doc);
}

static void
test_variable_delay_errors (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *ramp = qd_test_add_block (doc, "ramp", "Ramp");
  QdBlock *delay = qd_test_add_block (doc, "variable_transport_delay",
                                      "Delay");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  char *message;

  qd_test_set_param (doc, ramp, "start", "0");
  qd_test_set_param (doc, delay, "max_delay", "2");
  qd_test_connect (doc, ramp, 0, delay, 0);
  qd_test_connect (doc, ramp, 0, delay, 1);
  qd_test_connect (doc, delay, 0, scope, 0);
  qd_test_set_final_time (doc, 5.0);
  message = run_error (doc);
  assert_contains (message, "/Delay");
  assert_contains (message, "max_delay");
  g_free (message);

  qd_test_set_param (doc, delay, "tolerance", "0");
  message = run_error (doc);
  assert_contains (message, "/Delay");
  assert_contains (message, "tolerance");
  g_free (message);
  g_object_unref (doc);
}

/* -------------------------------------------------------------------- */
/* Transfer Function, State Space, PID */

static double
one_minus_exp (double t)
{
  return 1.0 - exp (-t);
}

/* 1/(s + 1) driven by a unit step at 0: y = 1 − e^{−t}, within a few
 * quanta, for each explicit method; the state is quantized inside the
 * block, so its steps count as integrator steps. */
static void
test_transfer_function_step (gconstpointer data)
{
  const char *method = data;
  QdDocument *doc = qd_document_new ();
  QdBlock *step = qd_test_add_block (doc, "step", "Step");
  QdBlock *tf = qd_test_add_block (doc, "transfer_function", "TF");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;
  double err;

  qd_test_set_param (doc, step, "time", "0");
  qd_test_set_param (doc, tf, "num", "1");
  qd_test_set_param (doc, tf, "den", "1, 1");
  set_quantum (doc, tf, method, "1e-5");
  qd_test_set_param (doc, scope, "names", "y");
  qd_test_connect (doc, step, 0, tf, 0);
  qd_test_connect (doc, tf, 0, scope, 0);
  qd_test_set_final_time (doc, 5.0);
  sim = run_doc (doc);
  err = qd_test_max_error (qd_test_find_trace (sim, "/Scope/y"),
                           one_minus_exp, 5.0);
  g_assert_cmpfloat (err, <, 3e-5);
  g_assert_cmpuint (qd_simulation_get_integrator_steps (sim), >, 10);
  qd_simulation_free (sim);
  g_object_unref (doc);
}

/* (2s + 3)/(s² + 3s + 2) = 1/(s + 1) + 1/(s + 2): the step response is
 * 3/2 − e^{−t} − e^{−2t}/2 (a second order realisation, and a
 * numerator that is not a constant); and s/(s + 1), proper with a
 * feedthrough: e^{−t}. */
static double
tf2_exact (double t)
{
  return 1.5 - exp (-t) - exp (-2.0 * t) / 2.0;
}

static double
exp_minus (double t)
{
  return exp (-t);
}

static void
test_transfer_function_orders (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *step = qd_test_add_block (doc, "step", "Step");
  QdBlock *tf2 = qd_test_add_block (doc, "transfer_function", "TF2");
  QdBlock *hp = qd_test_add_block (doc, "transfer_function", "HP");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;

  qd_test_set_param (doc, step, "time", "0");
  qd_test_set_param (doc, tf2, "num", "2, 3");
  qd_test_set_param (doc, tf2, "den", "1, 3, 2");
  qd_test_set_param (doc, hp, "num", "2, 0");
  qd_test_set_param (doc, hp, "den", "2, 2");
  set_quantum (doc, tf2, "QSS3", "1e-6");
  set_quantum (doc, hp, "QSS3", "1e-6");
  qd_test_set_param (doc, scope, "n", "2");
  qd_test_set_param (doc, scope, "names", "y2, hp");
  qd_test_connect (doc, step, 0, tf2, 0);
  qd_test_connect (doc, step, 0, hp, 0);
  qd_test_connect (doc, tf2, 0, scope, 0);
  qd_test_connect (doc, hp, 0, scope, 1);
  qd_test_set_final_time (doc, 5.0);
  sim = run_doc (doc);
  g_assert_cmpfloat (qd_test_max_error (qd_test_find_trace (sim, "/Scope/y2"),
                                        tf2_exact, 5.0), <, 1e-5);
  g_assert_cmpfloat (qd_test_max_error (qd_test_find_trace (sim, "/Scope/hp"),
                                        exp_minus, 5.0), <, 1e-5);
  qd_simulation_free (sim);
  g_object_unref (doc);
}

/* The harmonic oscillator x1' = x2, x2' = −x1 from (1, 0): y = (cos t,
 * −sin t), two outputs through C = I. */
static double
minus_sin (double t)
{
  return -sin (t);
}

static void
test_state_space_oscillator (gconstpointer data)
{
  const char *method = data;
  QdDocument *doc = qd_document_new ();
  QdBlock *zero = qd_test_add_block (doc, "constant", "Zero");
  QdBlock *ss = qd_test_add_block (doc, "state_space", "SS");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;

  qd_test_set_param (doc, zero, "value", "0");
  qd_test_set_param (doc, ss, "outputs", "2");
  qd_test_set_param (doc, ss, "A", "0, 1, -1, 0");
  qd_test_set_param (doc, ss, "B", "0, 0");
  qd_test_set_param (doc, ss, "C", "1, 0, 0, 1");
  qd_test_set_param (doc, ss, "D", "0");
  qd_test_set_param (doc, ss, "x0", "1, 0");
  set_quantum (doc, ss, method, "1e-6");
  qd_test_set_param (doc, scope, "n", "2");
  qd_test_set_param (doc, scope, "names", "x1, x2");
  qd_test_connect (doc, zero, 0, ss, 0);
  qd_test_connect (doc, ss, 0, scope, 0);
  qd_test_connect (doc, ss, 1, scope, 1);
  qd_test_set_final_time (doc, 2.0 * G_PI);
  sim = run_doc (doc);
  g_assert_cmpfloat (qd_test_max_error (qd_test_find_trace (sim, "/Scope/x1"),
                                        cos, 2.0 * G_PI), <, 2e-5);
  g_assert_cmpfloat (qd_test_max_error (qd_test_find_trace (sim, "/Scope/x2"),
                                        minus_sin, 2.0 * G_PI), <, 2e-5);
  qd_simulation_free (sim);
  g_object_unref (doc);
}

/* PI control of the plant x' = −x + u towards a unit setpoint: with
 * u = 2e + ∫e, e = 1 − x, the loop is x'' + 3x' + x = 1 from x(0) = 0,
 * x'(0) = 2: x = 1 + c1 e^{λ1 t} + c2 e^{λ2 t}, λ = (−3 ± √5)/2. */
static double
pi_loop_exact (double t)
{
  double l1 = (-3.0 + sqrt (5.0)) / 2.0, l2 = (-3.0 - sqrt (5.0)) / 2.0;
  /* c1 + c2 = −1, l1 c1 + l2 c2 = 2 */
  double c1 = (2.0 + l2) / (l1 - l2), c2 = -1.0 - c1;

  return 1.0 + c1 * exp (l1 * t) + c2 * exp (l2 * t);
}

static void
test_pid_loop (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *ref = qd_test_add_block (doc, "constant", "Setpoint");
  QdBlock *err = qd_test_add_block (doc, "wsum", "Error");
  QdBlock *pid = qd_test_add_block (doc, "pid", "PID");
  QdBlock *sum = qd_test_add_block (doc, "wsum", "Plant sum");
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;

  qd_test_set_param (doc, err, "weights", "1, -1");
  qd_test_set_param (doc, sum, "weights", "-1, 1");
  qd_test_set_param (doc, pid, "kp", "2");
  qd_test_set_param (doc, pid, "ki", "1");
  set_quantum (doc, pid, "QSS3", "1e-7");
  set_quantum (doc, x, "QSS3", "1e-7");
  qd_test_set_param (doc, scope, "names", "x");
  qd_test_connect (doc, ref, 0, err, 0);
  qd_test_connect (doc, x, 0, err, 1);
  qd_test_connect (doc, err, 0, pid, 0);
  qd_test_connect (doc, x, 0, sum, 0);
  qd_test_connect (doc, pid, 0, sum, 1);
  qd_test_connect (doc, sum, 0, x, 0);
  qd_test_connect (doc, x, 0, scope, 0);
  qd_test_set_final_time (doc, 10.0);
  sim = run_doc (doc);
  g_assert_cmpfloat (qd_test_max_error (qd_test_find_trace (sim, "/Scope/x"),
                                        pi_loop_exact, 10.0), <, 1e-5);
  qd_simulation_free (sim);
  g_object_unref (doc);
}

/* The PID of a ramp e = t: y = kp t + ki t²/2 + kd (1 − e^{−N t}); and
 * with kp = 1 alone, limited to 0.5: min(t, 0.5), the limit reached at
 * t = 0.5 exactly. */
static double
pid_ramp_exact (double t)
{
  return t + t * t + 0.5 * (1.0 - exp (-10.0 * t));
}

static void
test_pid_ramp_and_limit (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *ramp = qd_test_add_block (doc, "ramp", "Ramp");
  QdBlock *pid = qd_test_add_block (doc, "pid", "PID");
  QdBlock *lim = qd_test_add_block (doc, "pid", "Limited");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;
  QdTrace *y;
  gboolean found = FALSE;

  qd_test_set_param (doc, ramp, "start", "0");
  qd_test_set_param (doc, pid, "kp", "1");
  qd_test_set_param (doc, pid, "ki", "2");
  qd_test_set_param (doc, pid, "kd", "0.5");
  qd_test_set_param (doc, pid, "n", "10");
  qd_test_set_param (doc, lim, "limit", "true");
  qd_test_set_param (doc, lim, "lower", "-0.5");
  qd_test_set_param (doc, lim, "upper", "0.5");
  set_quantum (doc, pid, "QSS3", "1e-7");
  set_quantum (doc, lim, "QSS3", "1e-7");
  qd_test_set_param (doc, scope, "n", "2");
  qd_test_set_param (doc, scope, "names", "y, lim");
  qd_test_connect (doc, ramp, 0, pid, 0);
  qd_test_connect (doc, ramp, 0, lim, 0);
  qd_test_connect (doc, pid, 0, scope, 0);
  qd_test_connect (doc, lim, 0, scope, 1);
  qd_test_set_final_time (doc, 2.0);
  sim = run_doc (doc);
  g_assert_cmpfloat (qd_test_max_error (qd_test_find_trace (sim, "/Scope/y"),
                                        pid_ramp_exact, 2.0), <, 1e-5);
  y = qd_test_find_trace (sim, "/Scope/lim");
  for (gsize i = 0; i < qd_trace_get_length (y); i++)
    {
      const QdSignal *seg = qd_trace_get (y, i);

      if (seg->order == 0 && seg->c[0] == 0.5 && !found)
        {
          g_assert_cmpfloat (fabs (seg->t - 0.5), <, 1e-12);
          found = TRUE;
        }
    }
  g_assert_true (found);
  g_assert_cmpfloat (qd_trace_eval (y, 0.25), ==, 0.25);
  g_assert_cmpfloat (qd_trace_eval (y, 1.5), ==, 0.5);
  qd_simulation_free (sim);
  g_object_unref (doc);
}

static void
test_linear_errors (void)
{
  static const struct
  {
    const char *type, *param, *value, *words;
  } cases[] = {
    { "state_space", "A", "1, 2, 3", "parameter 'A'" },
    { "state_space", "B", "1, 2", "parameter 'B'" },
    { "state_space", "x0", "1, 2", "parameter 'x0'" },
    { "transfer_function", "num", "1, 2, 3", "parameter 'num'" },
    { "transfer_function", "den", "0, 0", "parameter 'den'" },
    { "pid", "upper", "-2", "parameter 'lower'" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      QdDocument *doc = qd_document_new ();
      QdBlock *one = qd_test_add_block (doc, "constant", "One");
      QdBlock *b = qd_test_add_block (doc, cases[i].type, "Plant");
      QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
      char *message;

      qd_test_set_param (doc, b, cases[i].param, cases[i].value);
      if (g_str_equal (cases[i].type, "pid"))
        qd_test_set_param (doc, b, "limit", "true");
      qd_test_connect (doc, one, 0, b, 0);
      qd_test_connect (doc, b, 0, scope, 0);
      message = run_error (doc);
      assert_contains (message, "/Plant");
      assert_contains (message, cases[i].words);
      g_free (message);
      g_object_unref (doc);
    }
}

/* -------------------------------------------------------------------- */
/* Implicit Function */

/* The real root of y³ + y − u (Cardano). */
static double
cubic_root (double u)
{
  double r = sqrt (u * u / 4.0 + 1.0 / 27.0);

  return cbrt (u / 2.0 + r) + cbrt (u / 2.0 - r);
}

/* y³ + y = u for u a QSS3 sine: at every event the value is Cardano's
 * root and the next two coefficients are those of the implicit function
 * theorem, y′ = u′/(3y² + 1) and y″ = (u″ − 6 y y′²)/(3y² + 1). */
static void
test_implicit_cubic (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *sine = qd_test_add_block (doc, "sine", "Sine");
  QdBlock *imp = qd_test_add_block (doc, "implicit_function", "Implicit");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;
  QdTrace *u, *y;

  qd_test_set_param (doc, sine, "order", "3");
  qd_test_set_param (doc, sine, "amplitude", "3");
  set_quantum (doc, sine, NULL, "1e-3");
  qd_test_set_param (doc, imp, "expression", "y^3 + y - u0");
  qd_test_set_param (doc, imp, "y0", "0.5");
  qd_test_set_param (doc, scope, "n", "2");
  qd_test_set_param (doc, scope, "names", "u, y");
  qd_test_connect (doc, sine, 0, imp, 0);
  qd_test_connect (doc, sine, 0, scope, 0);
  qd_test_connect (doc, imp, 0, scope, 1);
  qd_test_set_final_time (doc, 1.0);
  sim = run_doc (doc);
  u = qd_test_find_trace (sim, "/Scope/u");
  y = qd_test_find_trace (sim, "/Scope/y");
  g_assert_cmpuint (qd_trace_get_length (y), ==, qd_trace_get_length (u));
  g_assert_cmpuint (qd_trace_get_length (y), >, 20);
  for (gsize i = 0; i < qd_trace_get_length (y); i++)
    {
      const QdSignal *us = qd_trace_get (u, i), *ys = qd_trace_get (y, i);
      double y0 = cubic_root (us->c[0]), d = 3.0 * y0 * y0 + 1.0;
      double y1 = us->c[1] / d;
      double y2 = (2.0 * us->c[2] - 6.0 * y0 * y1 * y1) / d;

      g_assert_cmpint (ys->order, ==, us->order);
      g_assert_cmpfloat (fabs (ys->c[0] - y0), <, 1e-13 * (1.0 + fabs (y0)));
      g_assert_cmpfloat (fabs (ys->c[1] - y1), <, 1e-11 * (1.0 + fabs (y1)));
      g_assert_cmpfloat (fabs (ys->c[2] - y2 / 2.0), <,
                         1e-10 * (1.0 + fabs (y2)));
    }
  qd_simulation_free (sim);
  g_object_unref (doc);
}

static void
test_implicit_errors (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *one = qd_test_add_block (doc, "constant", "One");
  QdBlock *imp = qd_test_add_block (doc, "implicit_function", "Implicit");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  char *message;

  qd_test_connect (doc, one, 0, imp, 0);
  qd_test_connect (doc, imp, 0, scope, 0);
  /* No real root: Newton wanders. */
  qd_test_set_param (doc, imp, "expression", "y^2 + u0");
  message = run_error (doc);
  assert_contains (message, "/Implicit");
  assert_contains (message, "'expression'");
  assert_contains (message, "'y0'");
  g_free (message);
  /* Without y there is nothing to solve for. */
  qd_test_set_param (doc, imp, "expression", "u0 - 1");
  message = run_error (doc);
  assert_contains (message, "/Implicit");
  assert_contains (message, "does not use y");
  g_free (message);
  g_object_unref (doc);
}

static const char *const explicit_methods[] = {
  "QSS2", "QSS3", "LIQSS2"
};

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();
  g_test_add_func ("/transport-delay/sine", test_transport_delay_sine);
  g_test_add_data_func ("/transport-delay/dde/QSS2", "QSS2",
                        test_transport_delay_dde);
  g_test_add_data_func ("/transport-delay/dde/QSS3", "QSS3",
                        test_transport_delay_dde);
  g_test_add_func ("/variable-delay/exact", test_variable_delay_exact);
  g_test_add_func ("/variable-delay/sine", test_variable_delay_sine);
  g_test_add_func ("/variable-delay/errors", test_variable_delay_errors);
  for (guint i = 0; i < G_N_ELEMENTS (explicit_methods); i++)
    {
      char *path = g_strdup_printf ("/transfer-function/step/%s",
                                    explicit_methods[i]);

      g_test_add_data_func (path, explicit_methods[i],
                            test_transfer_function_step);
      g_free (path);
      path = g_strdup_printf ("/state-space/oscillator/%s",
                              explicit_methods[i]);
      g_test_add_data_func (path, explicit_methods[i],
                            test_state_space_oscillator);
      g_free (path);
    }
  g_test_add_func ("/transfer-function/orders",
                   test_transfer_function_orders);
  g_test_add_func ("/pid/loop", test_pid_loop);
  g_test_add_func ("/pid/ramp-and-limit", test_pid_ramp_and_limit);
  g_test_add_func ("/linear/errors", test_linear_errors);
  g_test_add_func ("/implicit/cubic", test_implicit_cubic);
  g_test_add_func ("/implicit/errors", test_implicit_errors);
  return g_test_run ();
}

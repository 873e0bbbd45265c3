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
#include <json-c/json.h>
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

/* A block of @type named "Under test" between a Constant and a Scope,
 * with its parameters set from @settings ("name", "value", ..., NULL):
 * the model is refused, or stops, naming the block and @words. */
static void
assert_refused (const char        *type,
                const char *const *settings,
                const char        *words)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *one = qd_test_add_block (doc, "constant", "One");
  QdBlock *b = qd_test_add_block (doc, type, "Under test");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  char *message;

  for (guint i = 0; settings[i] != NULL; i += 2)
    qd_test_set_param (doc, b, settings[i], settings[i + 1]);
  qd_test_connect (doc, one, 0, b, 0);
  qd_test_connect (doc, b, 0, scope, 0);
  message = run_error (doc);
  assert_contains (message, "/Under test");
  assert_contains (message, words);
  g_free (message);
  g_object_unref (doc);
}

#define REFUSED(TYPE, WORDS, ...) \
  assert_refused (TYPE, (const char *const[]) { __VA_ARGS__, NULL }, WORDS)

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
  g_test_message ("%s: error %.3g, %" G_GUINT64_FORMAT " steps", method, err,
                  qd_simulation_get_integrator_steps (sim));
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
  g_test_message ("largest difference from u(t - tau(t)): %.3g", worst);
  g_assert_cmpfloat (worst, <, 1e-6);
  qd_simulation_free (sim);
  g_object_unref (doc);
}

/* A state-dependent delay: x′(t) = −x(t − x(t)), x = 1 for t ≤ 0. While
 * t − x(t) < 0 the history gives x = 1 − t, until t = 1/2; then
 * x′ = −(1 − (t − x)), so x = t − 2 + 2 e^{1/2 − t}, while t − x(t) ≤ 1/2,
 * that is until t = 1/2 + ln(4/3). */
static double
state_delay_exact (double t)
{
  return t <= 0.5 ? 1.0 - t : t - 2.0 + 2.0 * exp (0.5 - t);
}

static void
test_variable_delay_state_dependent (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *delay = qd_test_add_block (doc, "variable_transport_delay",
                                      "Delay");
  QdBlock *gain = qd_test_add_block (doc, "gain", "Gain");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;

  qd_test_set_param (doc, x, "x0", "1");
  set_quantum (doc, x, "QSS3", "1e-7");
  qd_test_set_param (doc, delay, "initial", "1");
  qd_test_set_param (doc, delay, "tolerance", "1e-9");
  qd_test_set_param (doc, gain, "k", "-1");
  qd_test_set_param (doc, scope, "names", "x");
  qd_test_connect (doc, x, 0, delay, 0);
  qd_test_connect (doc, x, 0, delay, 1);
  qd_test_connect (doc, delay, 0, gain, 0);
  qd_test_connect (doc, gain, 0, x, 0);
  qd_test_connect (doc, x, 0, scope, 0);
  qd_test_set_final_time (doc, 0.5 + log (4.0 / 3.0));
  sim = run_doc (doc);
  g_assert_cmpfloat (qd_test_max_error (qd_test_find_trace (sim, "/Scope/x"),
                                        state_delay_exact,
                                        0.5 + log (4.0 / 3.0)), <, 1e-6);
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
  g_test_message ("%s: error %.3g, %" G_GUINT64_FORMAT " steps", method, err,
                  qd_simulation_get_integrator_steps (sim));
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

/* 1/(s + 1) in a unit negative feedback loop of its own, driven by a
 * unit step: the loop is 1/(s + 2), y = (1 − e^{−2t})/2. The loop goes
 * through the block alone (no feedthrough: D = 0). */
static double
closed_loop_exact (double t)
{
  return (1.0 - exp (-2.0 * t)) / 2.0;
}

static void
test_transfer_function_feedback (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *step = qd_test_add_block (doc, "step", "Step");
  QdBlock *err = qd_test_add_block (doc, "wsum", "Error");
  QdBlock *tf = qd_test_add_block (doc, "transfer_function", "TF");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;

  qd_test_set_param (doc, step, "time", "0");
  qd_test_set_param (doc, err, "weights", "1, -1");
  set_quantum (doc, tf, "QSS3", "1e-7");
  qd_test_set_param (doc, scope, "names", "y");
  qd_test_connect (doc, step, 0, err, 0);
  qd_test_connect (doc, tf, 0, err, 1);
  qd_test_connect (doc, err, 0, tf, 0);
  qd_test_connect (doc, tf, 0, scope, 0);
  qd_test_set_final_time (doc, 4.0);
  sim = run_doc (doc);
  g_assert_cmpfloat (qd_test_max_error (qd_test_find_trace (sim, "/Scope/y"),
                                        closed_loop_exact, 4.0), <, 1e-6);
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
  REFUSED ("state_space", "parameter 'A'", "A", "1, 2, 3");
  REFUSED ("state_space", "parameter 'B'", "B", "1, 2");
  REFUSED ("state_space", "parameter 'x0'", "x0", "1, 2");
  REFUSED ("transfer_function", "parameter 'num'", "num", "1, 2, 3");
  REFUSED ("transfer_function", "parameter 'den'", "den", "0, 0");
  REFUSED ("pid", "parameter 'lower'", "limit", "true", "upper", "-2");
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

/* -------------------------------------------------------------------- */
/* Power n */

/* PowerDEVS's x^n with its default n = 3, on a QSS3 sine: at every event
 * the coefficients of u³ (u0³, 3 u0² u1, 3 u0 u1² + 3 u0² u2); and with a
 * fractional n, an error naming the block when the input reaches 0. */
static void
test_power_n (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *sine = qd_test_add_block (doc, "sine", "Sine");
  QdBlock *pw = qd_test_add_block (doc, "power_n", "Power");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;
  QdTrace *u, *y;
  char *message;

  qd_test_set_param (doc, sine, "order", "3");
  set_quantum (doc, sine, NULL, "1e-3");
  qd_test_set_param (doc, scope, "n", "2");
  qd_test_set_param (doc, scope, "names", "u, y");
  qd_test_connect (doc, sine, 0, pw, 0);
  qd_test_connect (doc, sine, 0, scope, 0);
  qd_test_connect (doc, pw, 0, scope, 1);
  qd_test_set_final_time (doc, 1.0);
  sim = run_doc (doc);
  u = qd_test_find_trace (sim, "/Scope/u");
  y = qd_test_find_trace (sim, "/Scope/y");
  g_assert_cmpuint (qd_trace_get_length (y), ==, qd_trace_get_length (u));
  for (gsize i = 0; i < qd_trace_get_length (y); i++)
    {
      const double *a = qd_trace_get (u, i)->c, *b = qd_trace_get (y, i)->c;

      g_assert_cmpfloat (fabs (b[0] - a[0] * a[0] * a[0]), <, 1e-15);
      g_assert_cmpfloat (fabs (b[1] - 3 * a[0] * a[0] * a[1]), <, 1e-13);
      g_assert_cmpfloat (fabs (b[2] - (3 * a[0] * a[1] * a[1]
                                       + 3 * a[0] * a[0] * a[2])), <, 1e-12);
    }
  qd_simulation_free (sim);

  qd_test_set_param (doc, pw, "n", "0.5");
  message = run_error (doc);
  assert_contains (message, "/Power");
  g_free (message);
  g_object_unref (doc);
}

/* -------------------------------------------------------------------- */
/* 1-D Lookup Table */

/* The table (0.5, 0), (1.25, 3), (2, −1) of a ramp u = t: the output
 * changes piece exactly at the breakpoints' times, and its value is the
 * interpolation (or the extrapolation) everywhere. */
static double
lookup_exact (double u,
              gboolean clip)
{
  if (u < 0.5)
    return clip ? 0.0 : 4.0 * (u - 0.5);
  if (u < 1.25)
    return 4.0 * (u - 0.5);
  if (u < 2.0)
    return 3.0 - 16.0 / 3.0 * (u - 1.25);
  return clip ? -1.0 : 3.0 - 16.0 / 3.0 * (u - 1.25);
}

static void
test_lookup_ramp (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *ramp = qd_test_add_block (doc, "ramp", "Ramp");
  QdBlock *lin = qd_test_add_block (doc, "lookup_1d", "Linear");
  QdBlock *clip = qd_test_add_block (doc, "lookup_1d", "Clip");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  static const double crossings[] = { 0.5, 1.25, 2.0 };
  QdSimulation *sim;
  QdTrace *yl, *yc;

  qd_test_set_param (doc, ramp, "start", "0");
  qd_test_set_param (doc, lin, "breakpoints", "0.5, 1.25, 2");
  qd_test_set_param (doc, lin, "values", "0, 3, -1");
  qd_test_set_param (doc, clip, "breakpoints", "0.5, 1.25, 2");
  qd_test_set_param (doc, clip, "values", "0, 3, -1");
  qd_test_set_param (doc, clip, "extrapolation", "clip");
  qd_test_set_param (doc, scope, "n", "2");
  qd_test_set_param (doc, scope, "names", "lin, clip");
  qd_test_connect (doc, ramp, 0, lin, 0);
  qd_test_connect (doc, ramp, 0, clip, 0);
  qd_test_connect (doc, lin, 0, scope, 0);
  qd_test_connect (doc, clip, 0, scope, 1);
  qd_test_set_final_time (doc, 3.0);
  sim = run_doc (doc);
  yl = qd_test_find_trace (sim, "/Scope/lin");
  yc = qd_test_find_trace (sim, "/Scope/clip");
  /* The start, then one segment per breakpoint, at its time exactly. */
  g_assert_cmpuint (qd_trace_get_length (yl), ==, 4);
  g_assert_cmpuint (qd_trace_get_length (yc), ==, 4);
  for (guint i = 0; i < 3; i++)
    {
      g_assert_cmpfloat (qd_trace_get (yl, i + 1)->t, ==, crossings[i]);
      g_assert_cmpfloat (qd_trace_get (yc, i + 1)->t, ==, crossings[i]);
    }
  /* The table's own values at the breakpoints, to the bit. */
  g_assert_cmpfloat (qd_trace_get (yl, 2)->c[0], ==, 3.0);
  g_assert_cmpfloat (qd_trace_get (yc, 3)->c[0], ==, -1.0);
  for (double t = 0.0; t <= 3.0; t += 0.01)
    {
      g_assert_cmpfloat (fabs (qd_trace_eval (yl, t)
                               - lookup_exact (t, FALSE)), <, 1e-12);
      g_assert_cmpfloat (fabs (qd_trace_eval (yc, t)
                               - lookup_exact (t, TRUE)), <, 1e-12);
    }
  qd_simulation_free (sim);
  g_object_unref (doc);
}

/* A QSS3 sine through a table with a breakpoint at 0.5: the piece changes
 * where the sine's own polynomial reaches 0.5, t = 1/12 and 5/12 (to the
 * source's quantum), not at a step of time. */
static void
test_lookup_sine_crossings (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *sine = qd_test_add_block (doc, "sine", "Sine");
  QdBlock *lut = qd_test_add_block (doc, "lookup_1d", "Table");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;
  QdTrace *y;
  guint found = 0;

  qd_test_set_param (doc, sine, "order", "3");
  set_quantum (doc, sine, NULL, "1e-12");
  qd_test_set_param (doc, lut, "breakpoints", "-1, 0.5, 1");
  qd_test_set_param (doc, lut, "values", "0, 0, 2");
  qd_test_set_param (doc, scope, "names", "y");
  qd_test_connect (doc, sine, 0, lut, 0);
  qd_test_connect (doc, lut, 0, scope, 0);
  qd_test_set_final_time (doc, 0.5);
  sim = run_doc (doc);
  y = qd_test_find_trace (sim, "/Scope/y");
  for (gsize i = 1; i < qd_trace_get_length (y); i++)
    {
      const QdSignal *a = qd_trace_get (y, i - 1), *b = qd_trace_get (y, i);

      /* Zero below 0.5, 4 (u − 0.5) above. */
      if ((a->order == 0) != (b->order == 0))
        {
          double want = found == 0 ? 1.0 / 12.0 : 5.0 / 12.0;

          g_assert_cmpfloat (fabs (b->t - want), <, 1e-9);
          g_assert_cmpfloat (b->c[0], ==, 0.0);
          found++;
        }
    }
  g_assert_cmpuint (found, ==, 2);
  qd_simulation_free (sim);
  g_object_unref (doc);
}

static void
test_lookup_errors (void)
{
  REFUSED ("lookup_1d", "parameter 'breakpoints'", "breakpoints", "1, 1");
  REFUSED ("lookup_1d", "parameter 'breakpoints'", "breakpoints", "3");
  REFUSED ("lookup_1d", "parameter 'values'", "values", "1, 2, 3");
}

/* -------------------------------------------------------------------- */
/* Normal Random, Time Counter, Event Counter */

/* The samples of a Normal Random of @seed over 200 s every 0.01 s. */
static GArray *
normal_samples (guint seed)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *src = qd_test_add_block (doc, "normal_random", "Noise");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  GArray *values = g_array_new (FALSE, FALSE, sizeof (double));
  QdSimulation *sim;
  QdTrace *y;
  char text[16];

  g_snprintf (text, sizeof text, "%u", seed);
  qd_test_set_param (doc, src, "mean", "2");
  qd_test_set_param (doc, src, "variance", "9");
  qd_test_set_param (doc, src, "period", "0.01");
  qd_test_set_param (doc, src, "seed", text);
  qd_test_set_param (doc, scope, "names", "y");
  qd_test_connect (doc, src, 0, scope, 0);
  qd_test_set_final_time (doc, 200.0 - 0.005);
  sim = run_doc (doc);
  y = qd_test_find_trace (sim, "/Scope/y");
  for (gsize i = 0; i < qd_trace_get_length (y); i++)
    g_array_append_val (values, qd_trace_get (y, i)->c[0]);
  qd_simulation_free (sim);
  g_object_unref (doc);
  return values;
}

static void
test_normal_random (void)
{
  GArray *a = normal_samples (7), *b = normal_samples (7);
  GArray *c = normal_samples (8);
  double sum = 0.0, sq = 0.0, mean, var;
  guint n = a->len;

  g_assert_cmpuint (n, ==, 20000);
  /* The same seed, the same samples; another seed, others. */
  g_assert_cmpuint (b->len, ==, n);
  g_assert_cmpmem (a->data, n * sizeof (double), b->data,
                   n * sizeof (double));
  g_assert_cmpfloat (g_array_index (a, double, 0), !=,
                     g_array_index (c, double, 0));
  for (guint i = 0; i < n; i++)
    {
      double v = g_array_index (a, double, i);

      sum += v;
      sq += v * v;
    }
  mean = sum / n;
  var = (sq - n * mean * mean) / (n - 1);
  /* Four standard errors: σ/√n = 0.021 for the mean, σ²√(2/n) = 0.09
   * for the variance. */
  g_assert_cmpfloat (fabs (mean - 2.0), <, 4 * 3.0 / sqrt (n));
  g_assert_cmpfloat (fabs (var - 9.0), <, 4 * 9.0 * sqrt (2.0 / n));
  g_array_unref (a);
  g_array_unref (b);
  g_array_unref (c);
}

static double
find_stat (QdSimulation *sim,
           const char   *path,
           const char   *name)
{
  GPtrArray *stats = qd_simulation_get_stats (sim);

  for (guint i = 0; i < stats->len; i++)
    {
      const QdStat *st = g_ptr_array_index (stats, i);

      if (g_str_equal (st->path, path) && g_str_equal (st->name, name))
        return st->value;
    }
  g_error ("no statistic %s of %s", name, path);
  return NAN;
}

/* A Time Counter reads the clock once, at start + until, or at the end;
 * an Event Counter counts each input's events (a Pulse's two edges a
 * period, and the Time block's one event). */
static void
test_counters (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *tc = qd_test_add_block (doc, "time_counter", "Clock");
  QdBlock *sq = qd_test_add_block (doc, "square_wave", "Square");
  QdBlock *ramp = qd_test_add_block (doc, "ramp", "Ramp");
  QdBlock *ec = qd_test_add_block (doc, "event_counter", "Counter");
  QdSimulation *sim;
  guint64 internal, external;

  /* A second one, left to read the clock at the end. */
  qd_test_add_block (doc, "time_counter", "Clock end");
  qd_test_set_param (doc, tc, "until", "2.5");
  qd_test_set_param (doc, ec, "n", "2");
  qd_test_connect (doc, sq, 0, ec, 0);
  qd_test_connect (doc, ramp, 0, ec, 1);
  qd_test_set_final_time (doc, 4.2);
  sim = run_doc (doc);
  qd_simulation_finish (sim);
  g_assert_cmpfloat (find_stat (sim, "/Clock", "simulated_s"), ==, 2.5);
  g_assert_cmpfloat (find_stat (sim, "/Clock", "wall_s"), >=, 0.0);
  g_assert_cmpfloat (find_stat (sim, "/Clock end", "simulated_s"), ==, 4.2);
  /* Square wave of 1 Hz: edges at 0, 0.5, 1, ... 4.0: 9 events. */
  g_assert_cmpfloat (find_stat (sim, "/Counter", "events_u0"), ==, 9.0);
  g_assert_cmpfloat (find_stat (sim, "/Counter", "events"), ==,
                     9.0 + find_stat (sim, "/Counter", "events_u1"));
  qd_simulation_get_block_stats (sim, 0, &internal, &external);
  g_assert_cmpuint (internal, ==, 1);
  qd_simulation_free (sim);
  g_object_unref (doc);
}

/* -------------------------------------------------------------------- */
/* Goto and From */

/* x′ = −x with the loop closed through a Goto and a From, and a second
 * From of the same tag into the Scope: x = e^{−t}, the same trace as a
 * wire would give. */
static void
test_goto_from (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *go = qd_test_add_block (doc, "goto", "Goto");
  QdBlock *f1 = qd_test_add_block (doc, "from", "From 1");
  QdBlock *f2 = qd_test_add_block (doc, "from", "From 2");
  QdBlock *gain = qd_test_add_block (doc, "gain", "Gain");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;

  qd_test_set_param (doc, x, "x0", "1");
  set_quantum (doc, x, "QSS3", "1e-7");
  qd_test_set_param (doc, gain, "k", "-1");
  for (QdBlock **b = (QdBlock *[]) { go, f1, f2, NULL }; *b != NULL; b++)
    qd_test_set_param (doc, *b, "tag", "state x");
  qd_test_set_param (doc, scope, "names", "x");
  qd_test_connect (doc, x, 0, go, 0);
  qd_test_connect (doc, f1, 0, gain, 0);
  qd_test_connect (doc, gain, 0, x, 0);
  qd_test_connect (doc, f2, 0, scope, 0);
  qd_test_set_final_time (doc, 3.0);
  sim = run_doc (doc);
  g_assert_cmpfloat (qd_test_max_error (qd_test_find_trace (sim, "/Scope/x"),
                                        exp_minus, 3.0), <, 1e-6);
  /* Virtual: only the three atomic blocks and the Scope run. */
  g_assert_cmpuint (qd_simulation_get_n_atomics (sim), ==, 3);
  qd_simulation_free (sim);
  g_object_unref (doc);
}

static void
test_goto_from_errors (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *one = qd_test_add_block (doc, "constant", "One");
  QdBlock *go = qd_test_add_block (doc, "goto", "Goto");
  QdBlock *go2 = qd_test_add_block (doc, "goto", "Goto 2");
  QdBlock *from = qd_test_add_block (doc, "from", "From");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  char *message;

  qd_test_connect (doc, one, 0, go, 0);
  qd_test_connect (doc, one, 0, go2, 0);
  qd_test_connect (doc, from, 0, scope, 0);
  qd_test_set_param (doc, go, "tag", "a");
  qd_test_set_param (doc, go2, "tag", "b");
  qd_test_set_param (doc, from, "tag", "c");
  message = run_error (doc);
  assert_contains (message, "/From");
  assert_contains (message, "'tag'");
  assert_contains (message, "'c'");
  g_free (message);
  qd_test_set_param (doc, go2, "tag", "a");
  qd_test_set_param (doc, from, "tag", "a");
  message = run_error (doc);
  assert_contains (message, "/Goto 2");
  assert_contains (message, "/Goto;");
  g_free (message);
  g_object_unref (doc);
}

/* A tag is local to its system: a From in a subsystem does not see the
 * Goto of the level above, and reads the one of its own level. */
static void
test_goto_from_levels (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *one = qd_test_add_block (doc, "constant", "One");
  QdBlock *go = qd_test_add_block (doc, "goto", "Goto");
  QdBlock *from = qd_test_add_block (doc, "from", "From");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdBlock *selection[2] = { from, scope };
  QdBlock *sub, *two, *inner_go;
  QdSimulation *sim;
  GError *error = NULL;
  char *message;

  qd_test_set_param (doc, one, "value", "1");
  qd_test_set_param (doc, go, "tag", "a");
  qd_test_set_param (doc, from, "tag", "a");
  qd_test_set_param (doc, scope, "names", "y");
  qd_test_connect (doc, one, 0, go, 0);
  qd_test_connect (doc, from, 0, scope, 0);
  sub = qd_document_group (doc, selection, 2, "Inside", &error);
  g_assert_no_error (error);
  message = run_error (doc);
  assert_contains (message, "/Inside/From");
  assert_contains (message, "'tag'");
  g_free (message);

  two = qd_document_add_block (doc, sub->inner, "constant", "Two", 0, 0,
                               &error);
  g_assert_no_error (error);
  qd_test_set_param (doc, two, "value", "2");
  inner_go = qd_document_add_block (doc, sub->inner, "goto", "Goto", 100, 0,
                                    &error);
  g_assert_no_error (error);
  qd_test_set_param (doc, inner_go, "tag", "a");
  qd_document_connect (doc, sub->inner, two->id, 0, inner_go->id, 0, &error);
  g_assert_no_error (error);
  sim = run_doc (doc);
  g_assert_cmpfloat (qd_trace_eval (qd_test_find_trace (sim,
                                                        "/Inside/Scope/y"),
                                    0.5), ==, 2.0);
  qd_simulation_free (sim);
  g_object_unref (doc);
}

/* `qdevs-cli blocks --json` names the flags the editor and an importer go
 * by: Display's displayable value, Goto's and From's tags. */
static void
test_cli_flags (void)
{
  static const struct
  {
    const char *id, *flag;
  } cases[] = {
    { "display", "display" },
    { "goto", "tag-sink" },
    { "from", "tag-source" },
    { "state_space", "integrator" },
  };
  g_auto(QdCliResult) r = { 0 };
  json_object *root;

  qd_test_run_cli (&r, NULL, "blocks", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  root = json_tokener_parse (r.out);
  g_assert_nonnull (root);
  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      gboolean found = FALSE;

      for (size_t k = 0; k < json_object_array_length (root); k++)
        {
          json_object *type = json_object_array_get_idx (root, k), *id, *flags;

          if (!json_object_object_get_ex (type, "id", &id)
              || !g_str_equal (json_object_get_string (id), cases[c].id))
            continue;
          g_assert_true (json_object_object_get_ex (type, "flags", &flags));
          for (size_t f = 0; f < json_object_array_length (flags); f++)
            found = found || g_str_equal (json_object_get_string (
                               json_object_array_get_idx (flags, f)),
                                          cases[c].flag);
        }
      if (!found)
        g_error ("%s has no flag %s", cases[c].id, cases[c].flag);
    }
  json_object_put (root);
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
  g_test_add_func ("/variable-delay/state-dependent",
                   test_variable_delay_state_dependent);
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
  g_test_add_func ("/transfer-function/feedback",
                   test_transfer_function_feedback);
  g_test_add_func ("/pid/loop", test_pid_loop);
  g_test_add_func ("/pid/ramp-and-limit", test_pid_ramp_and_limit);
  g_test_add_func ("/linear/errors", test_linear_errors);
  g_test_add_func ("/implicit/cubic", test_implicit_cubic);
  g_test_add_func ("/implicit/errors", test_implicit_errors);
  g_test_add_func ("/power-n", test_power_n);
  g_test_add_func ("/lookup/ramp", test_lookup_ramp);
  g_test_add_func ("/lookup/sine-crossings", test_lookup_sine_crossings);
  g_test_add_func ("/lookup/errors", test_lookup_errors);
  g_test_add_func ("/normal-random/moments-and-seed", test_normal_random);
  g_test_add_func ("/counters", test_counters);
  g_test_add_func ("/goto-from/loop", test_goto_from);
  g_test_add_func ("/goto-from/errors", test_goto_from_errors);
  g_test_add_func ("/goto-from/levels", test_goto_from_levels);
  g_test_add_func ("/cli/flags", test_cli_flags);
  return g_test_run ();
}

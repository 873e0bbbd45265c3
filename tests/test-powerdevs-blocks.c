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
  qd_test_set_param (doc, sine, "dqmin", "1e-3");
  qd_test_set_param (doc, sine, "dqrel", "0");
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
  qd_test_set_param (doc, x, "method", method);
  qd_test_set_param (doc, x, "dqmin", "1e-6");
  qd_test_set_param (doc, x, "dqrel", "0");
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
  qd_test_set_param (doc, sine, "dqmin", "1e-4");
  qd_test_set_param (doc, sine, "dqrel", "0");
  qd_test_set_param (doc, tau, "order", "3");
  qd_test_set_param (doc, tau, "amplitude", "0.5");
  qd_test_set_param (doc, tau, "frequency", "1/3");
  qd_test_set_param (doc, tau, "offset", "1");
  qd_test_set_param (doc, tau, "dqmin", "1e-4");
  qd_test_set_param (doc, tau, "dqrel", "0");
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
  return g_test_run ();
}

/* test-classic-roots.c: hybrid blocks' crossings as root functions of the
 * classic solvers (CVODE, ARKODE)
 *
 * The bouncing ball's landings under BDF and the Runge-Kutta methods at
 * the analytic times, one root stop per bounce (and under the low-order
 * tables, which keep the segments' crossings); a Comparator, a Switch
 * and a Hysteresis watching x = sin t (two Integrators) switching at the
 * analytic times, in the right directions only; a crossing inside a
 * step of a large maximum step, located by the solver's own root
 * finding far more accurately than on the step's cubic Hermite segment;
 * and every block with crossings giving the same result under QSS3, BDF
 * and RKF45, with one root stop per crossing that changes the ODE.
 */
#include "qd-test-util.h"

#include <math.h>
#include <string.h>

/* Sets the solver from a specification "NAME:rtol=...,max_step=...". */
static void
use_solver (QdDocument *doc,
            const char *spec,
            double      final_time)
{
  QdSettings settings = *qd_document_get_settings (doc);
  g_autoptr(GError) error = NULL;

  settings.solver = g_strdup (settings.solver);
  g_assert_true (qd_classic_parse_spec (spec, &settings, &error));
  g_assert_no_error (error);
  settings.final_time = final_time;
  g_assert_true (qd_document_set_settings (doc, &settings, &error));
  g_assert_no_error (error);
  g_free (settings.solver);
}

/* ---- the bouncing ball ------------------------------------------------- */

typedef struct
{
  const char *spec;
  double      bound;     /* the largest error of a landing time */
  gboolean    fallback;  /* the crossings found on the segments */
} BallCase;

/* The Runge-Kutta methods of order 4 and 5 integrate the ball's parabola
 * (a polynomial of degree 2) exactly, so their landings are off by the
 * root tolerance alone (CVODE and ARKODE stop within 100 ulps of t of
 * the sign change) and rounding; BDF starts at order 1 after each
 * bounce, whose global error on z at rtol = 1e-10 moves the landing by
 * a few times that. */
static const BallCase ball_cases[] = {
  { "cvode-bdf:rtol=1e-10,atol=1e-12", 2e-9 },
  { "rkf45:rtol=1e-10,atol=1e-12", 1e-12 },
  { "dormand-prince:rtol=1e-10,atol=1e-12", 1e-12 },
  { "rk4:h=0.01", 1e-12 },
  /* The tables of order below 4 keep the interpolant path (qd-classic.c,
   * qd_classic_prepare()): the crossing on the step's cubic Hermite
   * segment, exact on Heun's parabolas, of forward Euler's accuracy. */
  { "heun:rtol=1e-6,atol=1e-8", 1e-12, TRUE },
  { "euler:rtol=1e-6,atol=1e-8", 1e-2, TRUE },
};

/* z'' = -g from z = 1 at rest; each landing (a falling crossing of 0,
 * Cross Detect) samples the speed v (Commanded Sampler), and -e v resets
 * it (Integrator with Reset). Landing k is at t1 (1 + 2 e + ... + 2 e^k)
 * with t1 = sqrt(2 / g). */
static void
test_ball (gconstpointer data)
{
  const BallCase *c = data;
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *gravity = qd_test_add_block (doc, "constant", "Gravity");
  QdBlock *v = qd_test_add_block (doc, "integrator_reset", "v");
  QdBlock *z = qd_test_add_block (doc, "integrator", "z");
  QdBlock *cross = qd_test_add_block (doc, "cross_detect", "Ground");
  QdBlock *sampler = qd_test_add_block (doc, "commanded_sampler", "Sampler");
  QdBlock *bounce = qd_test_add_block (doc, "gain", "Bounce");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  const double g = 9.81, e = 0.8, t1 = sqrt (2.0 / g);
  double landing = t1, worst = 0.0;
  QdSimulation *sim;
  QdClassicStats stats;
  QdTrace *hits;
  guint n = 0;

  qd_test_set_param (doc, gravity, "value", "-9.81");
  qd_test_set_param (doc, z, "x0", "1");
  qd_test_set_param (doc, cross, "direction", "falling");
  qd_test_set_param (doc, bounce, "k", "-0.8");
  qd_test_set_param (doc, scope, "names", "hits");
  qd_test_connect (doc, gravity, 0, v, 0);
  qd_test_connect (doc, v, 0, z, 0);
  qd_test_connect (doc, z, 0, cross, 0);
  qd_test_connect (doc, cross, 0, sampler, 1);
  qd_test_connect (doc, v, 0, sampler, 0);
  qd_test_connect (doc, sampler, 0, bounce, 0);
  qd_test_connect (doc, bounce, 0, v, 1);
  qd_test_connect (doc, bounce, 0, scope, 0);
  use_solver (doc, c->spec, 3.5);
  sim = qd_test_compile (doc);
  hits = qd_test_run_and_find (sim, "/Scope/hits");
  g_assert_true (qd_simulation_get_classic_stats (sim, &stats));
  for (gsize i = 0; i < qd_trace_get_length (hits); i++)
    {
      const QdSignal *seg = qd_trace_get (hits, i);

      /* The start: the sampler's initial output. */
      if (seg->t == 0.0)
        continue;
      n++;
      worst = MAX (worst, fabs (seg->t - landing));
      landing += 2.0 * t1 * pow (e, n);
    }
  g_test_message ("%s: %u landings, worst time error %.3g s, %"
                  G_GUINT64_FORMAT " steps, %" G_GUINT64_FORMAT
                  " root stops, %" G_GUINT64_FORMAT " restarts", c->spec, n,
                  worst, stats.steps, stats.root_stops, stats.restarts);
  g_assert_cmpfloat (worst, <=, c->bound);
  /* Every landing before the end (the ball comes to rest at 9 t1, 4.06
   * s, after infinitely many), and no other. */
  g_assert_cmpfloat (landing, >, 3.5);
  g_assert_cmpfloat (landing - 2.0 * t1 * pow (e, n), <, 3.5);
  g_assert_cmpuint (n, ==, 9);
  g_assert_cmpuint (stats.root_stops, ==, n);
  /* The solver evaluates the root functions at least at each step's
   * end; the fallback never. */
  if (c->fallback)
    g_assert_cmpuint (stats.root_evals, ==, 0);
  else
    g_assert_cmpuint (stats.root_evals, >=, stats.steps);
  qd_simulation_free (sim);
}

/* ---- switching on x = sin t -------------------------------------------- */

/* x' = v, v' = -x from x = 0, v = 1: x = sin t. */
static QdBlock *
add_sine (QdDocument *doc)
{
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *v = qd_test_add_block (doc, "integrator", "v");
  QdBlock *gain = qd_test_add_block (doc, "gain", "Gain");

  qd_test_set_param (doc, x, "x0", "0");
  qd_test_set_param (doc, v, "x0", "1");
  qd_test_set_param (doc, gain, "k", "-1");
  qd_test_connect (doc, x, 0, gain, 0);
  qd_test_connect (doc, gain, 0, v, 0);
  qd_test_connect (doc, v, 0, x, 0);
  return x;
}

/* Four Integrators from a Constant 24, from rest: x = t^4, which a
 * method of order 4 or more integrates exactly, so that its steps grow
 * as large as allowed. */
static QdBlock *
add_quartic (QdDocument *doc)
{
  QdBlock *from = qd_test_add_block (doc, "constant", "24");

  qd_test_set_param (doc, from, "value", "24");
  for (int k = 3; k >= 0; k--)
    {
      g_autofree char *name = g_strdup_printf ("x%d", k);
      QdBlock *x = qd_test_add_block (doc, "integrator", name);

      qd_test_connect (doc, from, 0, x, 0);
      from = x;
    }
  return from;
}

/* The signal @quartic ? t^4 : sin t into input @port of a block of
 * @type named "H", whose output goes to a Scope "y" and to an Integrator
 * "I" (so that the switching changes the ODE), itself into a Scope
 * "Total" ("i"). Other inputs of "H" are
 * Constants @others (NULL: none); @block receives "H". */
static QdDocument *
signal_document (gboolean            quartic,
                 const char         *type,
                 guint               port,
                 const char *const  *others,
                 guint               n_inputs,
                 QdBlock           **block)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *x = quartic ? add_quartic (doc) : add_sine (doc);
  QdBlock *h = qd_test_add_block (doc, type, "H");
  QdBlock *acc = qd_test_add_block (doc, "integrator", "I");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdBlock *total = qd_test_add_block (doc, "scope", "Total");
  guint k = 0;

  qd_test_set_param (doc, scope, "names", "y");
  qd_test_set_param (doc, total, "names", "i");
  qd_test_connect (doc, acc, 0, total, 0);
  qd_test_connect (doc, x, 0, h, port);
  for (guint p = 0; p < n_inputs; p++)
    {
      g_autofree char *name = g_strdup_printf ("C%u", p);
      QdBlock *c;

      if (p == port)
        continue;
      c = qd_test_add_block (doc, "constant", name);
      qd_test_set_param (doc, c, "value", others[k++]);
      qd_test_connect (doc, c, 0, h, p);
    }
  qd_test_connect (doc, h, 0, acc, 0);
  qd_test_connect (doc, h, 0, scope, 0);
  *block = h;
  return doc;
}

/* The buck converter example with its switch always open (the PWM gate
 * between 5 and 6): its diode's Relay, whose switch-on and switch-off
 * points are both 0, switches back and forth at one level, and the solver
 * finds the crossing again at once (SUNDIALS's ILL_INPUT). The run stops
 * with the Relay named and what to do (it used to say only "the solver
 * stopped"). */
static void
test_chattering (gconstpointer data)
{
  const char *solver = data;
  g_autofree char *path = qd_test_source_path ("data", "examples",
                                               "buck-converter.qdevs", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) doc = qd_document_load (path, &error);
  QdSettings settings;
  QdSimulation *sim;

  g_assert_no_error (error);
  qd_test_set_param (doc, qd_document_find_block_by_path (doc, "/PWM gate"), "offset",
                     "5.5");
  settings = *qd_document_get_settings (doc);
  settings.solver = (char *) solver;
  g_assert_true (qd_document_set_settings (doc, &settings, &error));
  g_assert_no_error (error);

  sim = qd_test_compile (doc);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_ERROR);
  g_assert_error (error, QD_ERROR, QD_ERROR_NUMERIC);
  g_test_message ("%s", error->message);
  g_assert_true (g_str_has_prefix (error->message,
                                   "/Diode resistance Rd switches back and forth"));
  g_assert_nonnull (strstr (error->message, solver));
  qd_simulation_free (sim);
}

/* A sliding mode: x' = Relay(x), the Relay giving -1 above 0 and +1
 * below it with no band between, from x = 1. Under QSS x chatters a
 * quantum around 0 to the end; under RKF45 the solver stops at the
 * crossing again and again with the clock at 1 (the run went on for
 * ever): it ends there with the Relay named. */
static void
test_sliding (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *relay = qd_test_add_block (doc, "relay", "Relay");
  QdSettings settings = *qd_document_get_settings (doc);
  g_autoptr(GError) error = NULL;
  QdClassicStats stats;
  QdSimulation *sim;

  qd_test_set_param (doc, x, "x0", "1");
  qd_test_set_param (doc, relay, "on_point", "0");
  qd_test_set_param (doc, relay, "off_point", "0");
  qd_test_set_param (doc, relay, "on_value", "-1");
  qd_test_set_param (doc, relay, "off_value", "1");
  qd_test_connect (doc, x, 0, relay, 0);
  qd_test_connect (doc, relay, 0, x, 0);
  settings.final_time = 3.0;
  settings.solver = (char *) "rkf45";
  g_assert_true (qd_document_set_settings (doc, &settings, &error));
  g_assert_no_error (error);

  sim = qd_test_compile (doc);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_ERROR);
  g_assert_error (error, QD_ERROR, QD_ERROR_NUMERIC);
  g_assert_true (g_str_has_prefix (error->message, "/Relay switches back and forth"));
  g_assert_true (qd_simulation_get_classic_stats (sim, &stats));
  g_assert_cmpuint (stats.root_stops, ==, 200000);
  g_assert_cmpfloat (fabs (qd_simulation_get_time (sim) - 1.0), <=, 1e-6);
  qd_simulation_free (sim);
  g_clear_error (&error);

  settings = *qd_document_get_settings (doc);
  settings.solver = (char *) "qss";
  g_assert_true (qd_document_set_settings (doc, &settings, &error));
  g_assert_no_error (error);
  sim = qd_test_compile (doc);
  qd_test_run (sim);
  g_assert_cmpfloat (qd_simulation_get_time (sim), ==, 3.0);
  qd_simulation_free (sim);
}

/* The times the output "y" changes value after the start, into @times;
 * returns their number. */
static guint
switching_times (QdSimulation *sim,
                 double       *times,
                 guint         max)
{
  QdTrace *y = qd_test_find_trace (sim, "/Scope/y");
  double last = NAN;
  guint n = 0;

  for (gsize i = 0; i < qd_trace_get_length (y); i++)
    {
      const QdSignal *seg = qd_trace_get (y, i);

      if (seg->t > 0.0 && seg->c[0] != last)
        {
          g_assert_cmpuint (n, <, max);
          times[n++] = seg->t;
        }
      last = seg->c[0];
    }
  return n;
}

typedef struct
{
  const char        *name;
  gboolean           quartic;     /* x = t^4, else sin t */
  const char        *type;
  guint              port;        /* where x goes */
  guint              n_inputs;
  const char *const *others;      /* the other inputs' constants */
  const char *const *params;      /* name, value, ... NULL */
  const double      *times;       /* the switching times (sin t: in units
                                     of pi) */
  guint              n_times;
  const char        *spec;
  double             bound;       /* the largest error of a switching time */
} SwitchCase;

static const char *const half[] = { "0.5", NULL };
static const char *const switch_others[] = { "1", "-1", NULL };
static const char *const switch_params[] = { "level", "0.5", NULL };
static const char *const hyst_params[] = { "xl", "-0.5", "xu", "0.5", NULL };
/* sin t = 0.5 at pi/6 (rising) and 5pi/6 (falling), 2 pi apart; sin t =
 * -0.5 at 7pi/6 (falling) and 11pi/6 (rising). Hysteresis switches on
 * rising through 0.5 and off falling through -0.5, never at the other
 * two. */
static const double above_half[] = { 1.0 / 6, 5.0 / 6, 13.0 / 6, 17.0 / 6 };
static const double hysteresis[] = { 1.0 / 6, 7.0 / 6, 13.0 / 6, 19.0 / 6 };
static const char *const ten[] = { "10", NULL };
/* t^4 = 10 */
static const double quartic_root[] = { 1.7782794100389228 };

/* At rtol = 1e-10 the solution's own error moves the crossings by a few
 * times that; the root location adds 100 ulps of t. */
static const SwitchCase switch_cases[] = {
  { "comparator/cvode-bdf", FALSE, "comparator", 0, 2, half, NULL, above_half, 4,
    "cvode-bdf:rtol=1e-10,atol=1e-12", 2e-8 },
  { "comparator/rkf45", FALSE, "comparator", 0, 2, half, NULL, above_half, 4,
    "rkf45:rtol=1e-10,atol=1e-12", 1e-8 },
  { "switch/rkf45", FALSE, "switch", 1, 3, switch_others, switch_params,
    above_half, 4, "rkf45:rtol=1e-10,atol=1e-12", 1e-8 },
  { "hysteresis/cvode-bdf", FALSE, "hysteresis", 0, 1, NULL, hyst_params,
    hysteresis, 4, "cvode-bdf:rtol=1e-10,atol=1e-12", 2e-8 },
  { "hysteresis/rkf45", FALSE, "hysteresis", 0, 1, NULL, hyst_params, hysteresis,
    4, "rkf45:rtol=1e-10,atol=1e-12", 1e-8 },
  /* A large maximum step on a smooth signal: the crossing lies inside a
   * step of about a second, on which the cubic Hermite segment through
   * the step's ends is off by up to h^4 / 16; the solver's root finding
   * works on its own interpolant, of its method's order. RKF45
   * integrates t^4 exactly: its crossing is off by the root tolerance
   * (the segments' path put it 1.1 s late, and switched three times).
   * BDF climbs from order 1, and its own error on x moves the crossing
   * by about 1e-7 (the segments' path: 3e-6). */
  { "large-step/rkf45", TRUE, "comparator", 0, 2, ten, NULL, quartic_root,
    1, "rkf45:rtol=1e-6,atol=1e-8,max_step=100", 1e-12 },
  { "large-step/cvode-bdf", TRUE, "comparator", 0, 2, ten, NULL,
    quartic_root, 1, "cvode-bdf:rtol=1e-6,atol=1e-8,max_step=100", 1e-6 },
};

static void
test_switching (gconstpointer data)
{
  const SwitchCase *c = data;
  QdBlock *h;
  g_autoptr(QdDocument) doc = signal_document (c->quartic, c->type,
                                               c->port, c->others,
                                               c->n_inputs, &h);
  double unit = c->quartic ? 1.0 : G_PI;
  QdSimulation *sim;
  QdClassicStats stats;
  double times[16], worst = 0.0;
  guint n;

  for (guint i = 0; c->params != NULL && c->params[i] != NULL; i += 2)
    qd_test_set_param (doc, h, c->params[i], c->params[i + 1]);
  use_solver (doc, c->spec, 10.0);
  sim = qd_test_compile (doc);
  qd_test_run (sim);
  g_assert_true (qd_simulation_get_classic_stats (sim, &stats));
  n = switching_times (sim, times, G_N_ELEMENTS (times));
  for (guint i = 0; i < MIN (n, c->n_times); i++)
    worst = MAX (worst, fabs (times[i] - c->times[i] * unit));
  g_test_message ("%s: %u switchings, worst time error %.3g s, %"
                  G_GUINT64_FORMAT " steps, %" G_GUINT64_FORMAT
                  " root stops", c->name, n, worst, stats.steps,
                  stats.root_stops);
  g_assert_cmpuint (n, ==, c->n_times);
  g_assert_cmpfloat (worst, <=, c->bound);
  /* Each switching changes the Integrator's derivative: a restart. */
  g_assert_cmpuint (stats.root_stops, ==, n);
  qd_simulation_free (sim);
}

/* ---- every hybrid block, under QSS3 and under the classic solvers ---- */

typedef struct
{
  const char        *type;
  guint              port;
  guint              n_inputs;
  const char *const *others;
  const char *const *params;
  guint              n_stops;     /* the crossings that change the ODE
                                     (0: not counted) */
} BlockCase;

static const char *const sat_params[] = { "lower", "-0.5", "upper", "0.5",
                                          NULL };
static const char *const quant_params[] = { "quantum", "0.25", NULL };
static const char *const lookup_params[] = { "breakpoints", "-1, 0, 0.5, 1",
                                             "values", "0, 1, 0, 2", NULL };
static const char *const cross_params[] = { "level", "0.5", NULL };

/* sin t crosses 0 at pi, 2 pi, 3 pi and +-0.5 seven times before 10. */
static const BlockCase block_cases[] = {
  { "comparator", 0, 2, half, NULL, 4 },
  { "switch", 1, 3, switch_others, switch_params, 4 },
  { "sign", 0, 1, NULL, NULL, 3 },
  { "hysteresis", 0, 1, NULL, hyst_params, 4 },
  { "relay", 0, 1, NULL, NULL, 4 },
  { "saturation", 0, 1, NULL, sat_params, 7 },
  { "quantizer", 0, 1, NULL, quant_params, 26 },
  { "lookup_1d", 0, 1, NULL, lookup_params, 7 },
  { "cross_detect", 0, 1, NULL, cross_params, 4 },
  { "abs", 0, 1, NULL, NULL, 3 },
};

/* The integral of the block's output over [0, 10] (the Integrator "I")
 * under @spec, or QSS3 with small quanta when @spec is NULL; asserts the
 * number of root stops of a classic solver. */
static double
block_integral (const BlockCase *c,
                const char      *spec)
{
  QdClassicStats stats;
  QdBlock *h;
  g_autoptr(QdDocument) doc = signal_document (FALSE, c->type, c->port,
                                               c->others, c->n_inputs, &h);
  QdSimulation *sim;
  QdTrace *total;
  double value;

  for (guint i = 0; c->params != NULL && c->params[i] != NULL; i += 2)
    qd_test_set_param (doc, h, c->params[i], c->params[i + 1]);
  if (spec != NULL)
    use_solver (doc, spec, 10.0);
  else
    {
      QdSettings settings = *qd_document_get_settings (doc);
      g_autoptr(GError) error = NULL;

      settings.method = (char *) "QSS3";
      settings.dqmin = 1e-10;
      settings.dqrel = 1e-8;
      settings.final_time = 10.0;
      g_assert_true (qd_document_set_settings (doc, &settings, &error));
    }
  sim = qd_test_compile (doc);
  total = qd_test_run_and_find (sim, "/Total/i");
  value = qd_signal_eval (qd_trace_get (total, qd_trace_get_length (total) - 1),
                          10.0);
  if (qd_simulation_get_classic_stats (sim, &stats))
    {
      g_test_message ("%s under %s: %" G_GUINT64_FORMAT " root stops",
                      c->type, spec, stats.root_stops);
      if (c->n_stops > 0)
        g_assert_cmpuint (stats.root_stops, ==, c->n_stops);
    }
  qd_simulation_free (sim);
  return value;
}

/* The same diagram gives the same result under QSS3 (dQ 1e-8 relative)
 * and under BDF and RKF45 (rtol 1e-10), for every hybrid block with
 * crossing levels: the root functions watch the levels the block's own
 * modes watch. */
static void
test_block (gconstpointer data)
{
  const BlockCase *c = data;
  double qss = block_integral (c, NULL);
  double bdf = block_integral (c, "cvode-bdf:rtol=1e-10,atol=1e-12");
  double rkf = block_integral (c, "rkf45:rtol=1e-10,atol=1e-12");

  g_test_message ("%s: integral %.12f (QSS3), %.12f (BDF), %.12f (RKF45)",
                  c->type, qss, bdf, rkf);
  g_assert_cmpfloat (fabs (bdf - qss), <=, 1e-6);
  g_assert_cmpfloat (fabs (rkf - qss), <=, 1e-6);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  for (guint i = 0; i < G_N_ELEMENTS (ball_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/classic-roots/ball/%.*s",
                                               (int) strcspn (ball_cases[i].spec, ":"),
                                               ball_cases[i].spec);

      g_test_add_data_func (path, &ball_cases[i], test_ball);
    }
  for (guint i = 0; i < G_N_ELEMENTS (switch_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/classic-roots/%s",
                                               switch_cases[i].name);

      g_test_add_data_func (path, &switch_cases[i], test_switching);
    }
  for (guint i = 0; i < G_N_ELEMENTS (block_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/classic-roots/block/%s",
                                               block_cases[i].type);

      g_test_add_data_func (path, &block_cases[i], test_block);
    }
  g_test_add_data_func ("/classic-roots/chattering/rkf45", "rkf45", test_chattering);
  g_test_add_func ("/classic-roots/chattering/sliding", test_sliding);
  return g_test_run ();
}


/* test-hybrid-examples.c: the hybrid example diagrams against independent
 * solutions
 *
 * Each shipped hybrid example is loaded from data/examples and run as it
 * is, and its traces are compared with a solution computed here without
 * the engine: the bouncing ball against the closed forms of free flight
 * (a parabola) and contact (a damped linear oscillator), the staircase
 * against the closed form of the horizontal motion, the buck converter
 * against itself with a hundred times smaller quantum, and the Izhikevich
 * neuron against a fine Runge-Kutta integration with event location.
 * Step counts are reported with g_test_message() (visible with -v).
 */
#include "qd-test-util.h"

#include <math.h>
#include <string.h>

/* ---- running an example ------------------------------------------------ */

/* Replaces the model's method and quanta (NULL or a negative quantum keeps
 * the file's value). */
static void
change_settings (QdDocument *document,
                 const char *method,
                 double      dqmin,
                 double      dqrel,
                 double      final_time)
{
  QdSettings settings = *qd_document_get_settings (document);
  g_autoptr(GError) error = NULL;

  if (method != NULL)
    settings.method = (char *) method;
  if (dqmin >= 0.0)
    settings.dqmin = dqmin;
  if (dqrel >= 0.0)
    settings.dqrel = dqrel;
  if (final_time > 0.0)
    settings.final_time = final_time;
  g_assert_true (qd_document_set_settings (document, &settings, &error));
  g_assert_no_error (error);
}

static QdSimulation *
run (QdDocument *document)
{
  g_autoptr(GError) error = NULL;
  QdSimulation *sim = qd_simulation_new (document, NULL, NULL, &error);
  QdRunStatus status;

  g_assert_no_error (error);
  g_assert_nonnull (sim);
  status = qd_simulation_run (sim, &error);
  g_assert_no_error (error);
  g_assert_cmpint (status, ==, QD_RUN_DONE);
  g_assert_cmpfloat (qd_simulation_get_time (sim), ==,
                     qd_document_get_settings (document)->final_time);
  return sim;
}

/* Where segment @i of @trace ends: the start of the next one, or the end
 * of the run. */
static double
segment_end (QdTrace *trace,
             gsize    i,
             double   end_time)
{
  if (i + 1 < qd_trace_get_length (trace))
    return qd_trace_get (trace, i + 1)->t;
  return end_time;
}

/* Every coefficient of every segment is a finite number. */
static void
assert_trace_finite (QdTrace *trace)
{
  for (gsize i = 0; i < qd_trace_get_length (trace); i++)
    {
      const QdSignal *seg = qd_trace_get (trace, i);

      g_assert_true (isfinite (seg->t));
      for (int k = 0; k <= QD_MAX_ORDER; k++)
        if (!isfinite (seg->c[k]))
          g_error ("%s: segment %" G_GSIZE_FORMAT " at t = %g is not finite",
                   qd_trace_get_name (trace), i, seg->t);
    }
}

/* The exact integral of the trace's piecewise polynomial over [a, b]. */
static double
trace_integral (QdTrace *trace,
                double   a,
                double   b)
{
  double sum = 0.0;

  for (gsize i = 0; i < qd_trace_get_length (trace); i++)
    {
      const QdSignal *seg = qd_trace_get (trace, i);
      double lo = MAX (seg->t, a), hi = MIN (segment_end (trace, i, b), b);
      double s0, s1, p0 = 0.0, p1 = 0.0;

      if (hi <= lo)
        continue;
      s0 = lo - seg->t;
      s1 = hi - seg->t;
      /* The antiderivative s (c0 + s (c1/2 + s (c2/3 + s c3/4))). */
      for (int k = QD_MAX_ORDER; k >= 0; k--)
        {
          p0 = p0 * s0 + seg->c[k] / (k + 1);
          p1 = p1 * s1 + seg->c[k] / (k + 1);
        }
      p0 *= s0;
      p1 *= s1;
      sum += p1 - p0;
    }
  return sum;
}

typedef struct
{
  double   t;
  gboolean rising;
} Crossing;

/* The times the trace crosses @level, in order: inside a segment (located
 * by bisection on its polynomial, sampled finely enough to see both roots
 * of a parabola) or at a jump between two segments. */
static GArray *
trace_crossings (QdTrace *trace,
                 double   level,
                 double   end_time)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (Crossing));
  gsize n = qd_trace_get_length (trace);
  double prev = NAN;

  for (gsize i = 0; i < n; i++)
    {
      const QdSignal *seg = qd_trace_get (trace, i);
      double t0 = seg->t, t1 = segment_end (trace, i, end_time);
      double f0 = qd_signal_eval (seg, t0) - level;
      const int n_sub = seg->order > 1 ? 16 : 1;

      /* A jump across the level where the segment starts. */
      if (!isnan (prev) && (prev < 0.0) != (f0 < 0.0))
        {
          Crossing c = { t0, f0 >= 0.0 };

          g_array_append_val (out, c);
        }
      for (int j = 0; j < n_sub && t1 > t0; j++)
        {
          double a = t0 + (t1 - t0) * j / n_sub;
          double b = t0 + (t1 - t0) * (j + 1) / n_sub;
          double fa = qd_signal_eval (seg, a) - level;
          double fb = qd_signal_eval (seg, b) - level;
          Crossing c = { 0.0, fb >= 0.0 };

          if ((fa < 0.0) == (fb < 0.0))
            continue;
          for (int it = 0; it < 200; it++)
            {
              double m = 0.5 * (a + b), fm = qd_signal_eval (seg, m) - level;

              if (m == a || m == b)
                break;
              if ((fm < 0.0) == (fa < 0.0))
                {
                  a = m;
                  fa = fm;
                }
              else
                b = m;
            }
          c.t = 0.5 * (a + b);
          g_array_append_val (out, c);
        }
      prev = qd_signal_eval (seg, t1) - level;
    }
  return out;
}

/* ---- the bouncing ball ------------------------------------------------- */

/* z'' = -g in the air; z'' = -g - k z - b z' (m = 1) while z < 0. The
 * contact from z = 0 with speed v_in is a damped oscillation about the
 * static sag -g/k:
 *
 *   z(s) = -g/k + e^(-σ s) (A cos ω s + B sin ω s),
 *   σ = b/2, ω = sqrt(k - σ²), A = g/k, B = (v_in + σ A)/ω,
 *
 * and it ends where z comes back to 0, half a period later, which a
 * bisection finds between a quarter and three quarters of the period. */
typedef struct
{
  double g, k, b, sigma, omega, A, B;
} Contact;

static void
contact_init (Contact *c,
              double   g,
              double   k,
              double   b,
              double   v_in)
{
  c->g = g;
  c->k = k;
  c->b = b;
  c->sigma = b / 2.0;
  c->omega = sqrt (k - c->sigma * c->sigma);
  c->A = g / k;
  c->B = (v_in + c->sigma * c->A) / c->omega;
}

static double
contact_z (const Contact *c,
           double         s)
{
  return -c->g / c->k + exp (-c->sigma * s) * (c->A * cos (c->omega * s)
                                               + c->B * sin (c->omega * s));
}

static double
contact_v (const Contact *c,
           double         s)
{
  double e = exp (-c->sigma * s), co = cos (c->omega * s), si = sin (c->omega * s);

  return e * (-c->sigma * (c->A * co + c->B * si)
              + c->omega * (-c->A * si + c->B * co));
}

static double
contact_exit (const Contact *c)
{
  double a = 0.5 * G_PI / c->omega, b = 1.5 * G_PI / c->omega;

  g_assert_cmpfloat (contact_z (c, a), <, 0.0);
  g_assert_cmpfloat (contact_z (c, b), >, 0.0);
  for (int i = 0; i < 200; i++)
    {
      double m = 0.5 * (a + b);

      if (m == a || m == b)
        break;
      if (contact_z (c, m) < 0.0)
        a = m;
      else
        b = m;
    }
  return 0.5 * (a + b);
}

/* The landing times of the ball from rest at @h0 by fixed-step RK4 on the
 * discontinuous right-hand side, without event location (the crossing
 * inside a step is interpolated linearly, which is generous): the
 * textbook's experiment (Fig. 3.29). */
static GArray *
rk4_landings (double g,
              double k,
              double b,
              double h0,
              double step,
              double final_time)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (double));
  double z[2] = { h0, 0.0 };
  long n_steps = lround (final_time / step);

  for (long i = 0; i < n_steps; i++)
    {
      double kz[4][2], tmp[2], next[2];
      static const double stage[4] = { 0.0, 0.5, 0.5, 1.0 };

      for (int s = 0; s < 4; s++)
        {
          for (int j = 0; j < 2; j++)
            tmp[j] = z[j] + (s > 0 ? stage[s] * step * kz[s - 1][j] : 0.0);
          kz[s][0] = tmp[1];
          kz[s][1] = -g - (tmp[0] <= 0.0 ? k * tmp[0] + b * tmp[1] : 0.0);
        }
      for (int j = 0; j < 2; j++)
        next[j] = z[j] + step / 6.0 * (kz[0][j] + 2.0 * kz[1][j]
                                       + 2.0 * kz[2][j] + kz[3][j]);
      if (z[0] > 0.0 && next[0] <= 0.0)
        {
          double t = (i + z[0] / (z[0] - next[0])) * step;
          g_array_append_val (out, t);
        }
      z[0] = next[0];
      z[1] = next[1];
    }
  return out;
}

/* @data: the method to run the example with, or NULL for its own. */
static void
test_bouncing_ball (gconstpointer data)
{
  const char *method = data;
  g_autoptr(QdDocument) document = qd_test_load_example ("bouncing-ball.qdevs");
  QdSimulation *sim;
  double g, k, b, h, final_time, t, v, worst = 0.0;
  QdTrace *z1;
  g_autoptr(GArray) crossings = NULL;
  g_autoptr(GArray) landings = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GError) error = NULL;
  guint n = 0;

  if (method != NULL && qd_classic_find_method (method) != NULL)
    {
      /* A classic solver: the Switch's crossings are root functions
       * of the solver. */
      QdSettings settings = *qd_document_get_settings (document);

      settings.solver = (char *) method;
      settings.rtol = 1e-8;
      settings.atol = 1e-10;
      g_assert_true (qd_document_set_settings (document, &settings, &error));
    }
  else if (method != NULL)
    change_settings (document, method, -1.0, -1.0, -1.0);
  sim = qd_simulation_new (document, NULL, NULL, &error);
  g_assert_no_error (error);
  /* With LIQSS2 the speed's self-dependence (a = -b, measured during a
   * contact) must be forgotten once the Switch stops passing the contact
   * force: otherwise q drifts from x in free flight and the steps shrink
   * to zero time. */
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
  g_assert_no_error (error);
  g = qd_simulation_get_variable (sim, "g");
  k = qd_simulation_get_variable (sim, "k");
  b = qd_simulation_get_variable (sim, "b");
  h = qd_simulation_get_variable (sim, "z1_0");
  final_time = qd_simulation_get_final_time (sim);
  t = sqrt (2.0 * h / g);
  v = -g * t;
  z1 = qd_test_find_trace (sim, "/Scope/z1");

  g_assert_cmpfloat (qd_simulation_get_variable (sim, "m"), ==, 1.0);
  g_assert_cmpfloat (qd_simulation_get_variable (sim, "z2_0"), ==, 0.0);
  assert_trace_finite (z1);
  assert_trace_finite (qd_test_find_trace (sim, "/Velocity/z2"));
  crossings = trace_crossings (z1, 0.0, final_time);

  /* The first contact: free fall from rest at height h. */
  g_assert_cmpuint (crossings->len, >, 0);
  g_assert_false (g_array_index (crossings, Crossing, 0).rising);
  g_assert_cmpfloat_with_epsilon (g_array_index (crossings, Crossing, 0).t,
                                  sqrt (2.0 * 2.0 / 9.81), 1e-4);

  /* Then, alternately, the end of each contact and the next landing. */
  while (t < final_time)
    {
      Contact c;
      double s_exit, t_out, v_out;
      const Crossing *in, *out;

      g_assert_cmpuint (n, <, crossings->len);
      in = &g_array_index (crossings, Crossing, n);
      g_assert_false (in->rising);
      g_test_message ("contact %u: lands at %.9f (analytic %.9f, speed %.6f)",
                      n / 2 + 1, in->t, t, v);
      g_assert_cmpfloat (fabs (in->t - t), <=, 1e-4);
      worst = MAX (worst, fabs (in->t - t));
      g_array_append_val (landings, t);
      n++;

      contact_init (&c, g, k, b, v);
      s_exit = contact_exit (&c);
      t_out = t + s_exit;
      v_out = contact_v (&c, s_exit);
      g_assert_cmpfloat (v_out, >, 0.0);
      if (t_out >= final_time)
        break;
      g_assert_cmpuint (n, <, crossings->len);
      out = &g_array_index (crossings, Crossing, n);
      g_assert_true (out->rising);
      g_test_message ("contact %u: leaves at %.9f (analytic %.9f, speed %.6f)",
                      n / 2 + 1, out->t, t_out, v_out);
      g_assert_cmpfloat (fabs (out->t - t_out), <=, 1e-4);
      worst = MAX (worst, fabs (out->t - t_out));
      n++;

      /* Free flight up and down again: back at 0 after 2 v_out/g. */
      t = t_out + 2.0 * v_out / g;
      v = -v_out;
    }
  g_assert_cmpuint (crossings->len, ==, n);
  /* Four landings within the five seconds. */
  g_assert_cmpuint (landings->len, ==, 4);
  g_test_message ("bouncing ball (%s): %u crossings, worst error %.3g s, %"
                  G_GUINT64_FORMAT " integrator steps, %" G_GUINT64_FORMAT
                  " events", method != NULL ? method : "as saved", n, worst,
                  qd_simulation_get_integrator_steps (sim),
                  qd_simulation_get_events (sim));

  /* What the example is there to show: fixed-step RK4 with the
   * textbook's steps, a few thousand to ten thousand steps, misses the
   * landings by orders of magnitude more. */
  for (int i = 0; i < 3; i++)
    {
      static const double steps[] = { 0.002, 0.001, 0.0005 };
      g_autoptr(GArray) rk = rk4_landings (g, k, b, h, steps[i], final_time);
      double rk_worst = 0.0;

      g_assert_cmpuint (rk->len, >=, 2);
      for (guint j = 0; j < MIN (rk->len, landings->len); j++)
        rk_worst = MAX (rk_worst, fabs (g_array_index (rk, double, j)
                                        - g_array_index (landings, double, j)));
      g_test_message ("RK4, h = %g (%.0f steps): worst landing error %.3g s",
                      steps[i], final_time / steps[i], rk_worst);
      g_assert_cmpfloat (rk_worst, >, 100.0 * worst);
    }
  qd_simulation_free (sim);
}

/* ---- the bouncing ball on a staircase ---------------------------------- */

static void
test_stairs (void)
{
  g_autoptr(QdDocument) document = qd_test_load_example ("bouncing-ball-stairs.qdevs");
  const QdSettings *settings = qd_document_get_settings (document);
  QdSimulation *sim;
  QdTrace *y, *x, *stair, *vy;
  const double x0 = 0.575, vx0 = 0.5, drag = 0.1;
  double last_stair, deepest = 0.0;
  guint drops = 0;
  gboolean *landed;

  g_assert_cmpstr (settings->method, ==, "QSS2");
  g_assert_cmpfloat (settings->dqrel, ==, 1e-6);
  g_assert_cmpfloat (settings->dqmin, ==, 1e-9);
  g_assert_cmpfloat (settings->final_time, ==, 30.0);
  sim = run (document);
  y = qd_test_find_trace (sim, "/Scope/y");
  x = qd_test_find_trace (sim, "/Motion/x");
  stair = qd_test_find_trace (sim, "/Scope/stair");
  vy = qd_test_find_trace (sim, "/Motion/vy");
  assert_trace_finite (y);
  assert_trace_finite (x);
  assert_trace_finite (stair);
  assert_trace_finite (vy);

  /* The stair starts at 10 and drops by exactly one, once each time x
   * passes 11 - stair. x does not depend on the ball's height:
   * x(t) = x0 + vx0/drag (1 - e^(-drag t)), so x = n at
   * t = -ln(1 - (n - x0) drag / vx0) / drag, for n = 1..5 (x tends to
   * 5.575 and never reaches 6). */
  g_assert_cmpuint (qd_trace_get_length (stair), >, 0);
  last_stair = qd_trace_get (stair, 0)->c[0];
  g_assert_cmpfloat (last_stair, ==, 10.0);
  for (gsize i = 1; i < qd_trace_get_length (stair); i++)
    {
      const QdSignal *seg = qd_trace_get (stair, i);
      double n_passed, want;

      if (seg->c[0] == last_stair)
        continue;
      g_assert_cmpfloat (seg->c[0], ==, last_stair - 1.0);
      n_passed = 11.0 - last_stair;
      want = -log (1.0 - (n_passed - x0) * drag / vx0) / drag;
      g_test_message ("stair %g at t = %.9f (x = %g at %.9f analytic)",
                      seg->c[0], seg->t, n_passed, want);
      g_assert_cmpfloat (fabs (seg->t - want), <=, 1e-4);
      last_stair = seg->c[0];
      drops++;
    }
  g_assert_cmpuint (drops, ==, 5);
  g_assert_cmpfloat (last_stair, ==, 5.0);
  g_assert_cmpfloat (fabs (qd_trace_eval (x, 30.0)
                           - (x0 + vx0 / drag * (1.0 - exp (-3.0)))), <=, 1e-4);

  /* The ball never sinks into a stair by more than the contact's few
   * millimetres, and it lands on every stair in turn: for each level
   * there is a time when the ball is below it while the stair is there. */
  landed = g_new0 (gboolean, 11);
  for (gsize i = 0; i < qd_trace_get_length (y); i++)
    {
      const QdSignal *seg = qd_trace_get (y, i);
      double level = qd_trace_eval (stair, seg->t);
      double gap = seg->c[0] - level;

      deepest = MIN (deepest, gap);
      if (gap < 0.0)
        landed[(int) level] = TRUE;
    }
  g_test_message ("deepest contact: %.3g", deepest);
  g_assert_cmpfloat (deepest, >, -0.01);
  g_assert_cmpfloat (deepest, <, -1e-4);
  for (int level = 5; level <= 10; level++)
    {
      g_test_message ("stair %d: %s", level, landed[level] ? "landed" : "missed");
      g_assert_true (landed[level]);
    }
  g_free (landed);

  g_test_message ("staircase: %" G_GUINT64_FORMAT " integrator steps, %"
                  G_GUINT64_FORMAT " events, %" G_GSIZE_FORMAT
                  " segments of y", qd_simulation_get_integrator_steps (sim),
                  qd_simulation_get_events (sim), qd_trace_get_length (y));
  qd_simulation_free (sim);
}

/* ---- the buck converter ------------------------------------------------ */

static double
buck_mean_output (QdSimulation *sim)
{
  QdTrace *uc = qd_test_find_trace (sim, "/Scope/uC");
  double tf = qd_simulation_get_final_time (sim);

  assert_trace_finite (uc);
  assert_trace_finite (qd_test_find_trace (sim, "/Scope/iL"));
  return trace_integral (uc, tf - 1e-3, tf) / 1e-3;
}

static void
test_buck (void)
{
  g_autoptr(QdDocument) document = qd_test_load_example ("buck-converter.qdevs");
  const QdSettings *settings = qd_document_get_settings (document);
  const double dqmin = settings->dqmin, dqrel = settings->dqrel;
  QdSimulation *sim;
  double mean, mean_fine, mean_qss2;
  guint64 steps, steps_fine, steps_qss2;

  g_assert_cmpstr (settings->method, ==, "LIQSS2");
  g_assert_cmpfloat (settings->final_time, ==, 0.01);

  sim = run (document);
  mean = buck_mean_output (sim);
  steps = qd_simulation_get_integrator_steps (sim);
  qd_simulation_free (sim);

  change_settings (document, NULL, dqmin / 100.0, dqrel / 100.0, -1.0);
  sim = run (document);
  mean_fine = buck_mean_output (sim);
  steps_fine = qd_simulation_get_integrator_steps (sim);
  qd_simulation_free (sim);

  /* Explicit QSS2 with the example's quanta: while both the switch and
   * the diode are open (discontinuous conduction) the inductor current
   * has the pole -Roff/(2L) = -5e8 /s, and its quantized state
   * oscillates about the quasi-steady value at that rate. */
  change_settings (document, "QSS2", dqmin, dqrel, -1.0);
  sim = run (document);
  mean_qss2 = buck_mean_output (sim);
  steps_qss2 = qd_simulation_get_integrator_steps (sim);
  qd_simulation_free (sim);

  g_test_message ("buck: mean uC over the last ms: LIQSS2 %.6f V (%"
                  G_GUINT64_FORMAT " steps), LIQSS2 with quanta / 100 %.6f V (%"
                  G_GUINT64_FORMAT " steps), QSS2 %.6f V (%" G_GUINT64_FORMAT
                  " steps)", mean, steps, mean_fine, steps_fine, mean_qss2,
                  steps_qss2);
  /* The converter settles well above Vs/2: with these values it runs in
   * discontinuous conduction (the ripple of iL is larger than twice the
   * load current), where the output is higher than duty · Vs. */
  g_assert_cmpfloat (mean, >, 12.0);
  g_assert_cmpfloat (mean, <, 24.0);
  g_assert_cmpfloat (fabs (mean - mean_fine), <=, 0.01 * fabs (mean_fine));
  g_assert_cmpfloat (fabs (mean_qss2 - mean_fine), <=, 0.01 * fabs (mean_fine));
  g_assert_cmpuint (steps * 100, <, steps_qss2);
}

/* ---- the spiking neuron ------------------------------------------------ */

typedef struct
{
  double a, b, c, d, I, vpeak;
} Izhikevich;

static void
izhikevich_f (const Izhikevich *p,
              const double      y[2],
              double            dy[2])
{
  dy[0] = 0.04 * y[0] * y[0] + 5.0 * y[0] + 140.0 - y[1] + p->I;
  dy[1] = p->a * (p->b * y[0] - y[1]);
}

static void
rk4_step (const Izhikevich *p,
          const double      y[2],
          double            h,
          double            out[2])
{
  double k1[2], k2[2], k3[2], k4[2], tmp[2];

  izhikevich_f (p, y, k1);
  for (int i = 0; i < 2; i++)
    tmp[i] = y[i] + 0.5 * h * k1[i];
  izhikevich_f (p, tmp, k2);
  for (int i = 0; i < 2; i++)
    tmp[i] = y[i] + 0.5 * h * k2[i];
  izhikevich_f (p, tmp, k3);
  for (int i = 0; i < 2; i++)
    tmp[i] = y[i] + h * k3[i];
  izhikevich_f (p, tmp, k4);
  for (int i = 0; i < 2; i++)
    out[i] = y[i] + h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
}

/* The spike times from (v0, u0) until @final_time by RK4 with a fixed
 * small step; a step that takes v past the peak is bisected on its length
 * (each trial a single RK4 step from the step's start), which locates the
 * crossing to rounding, and the state is reset there. */
static GArray *
izhikevich_reference (const Izhikevich *p,
                      double            v0,
                      double            u0,
                      double            final_time,
                      double            h)
{
  GArray *spikes = g_array_new (FALSE, FALSE, sizeof (double));
  double y[2] = { v0, u0 }, t = 0.0;

  while (t < final_time)
    {
      double next[2];

      rk4_step (p, y, h, next);
      if (next[0] >= p->vpeak)
        {
          double lo = 0.0, hi = h, ts;

          for (int i = 0; i < 100; i++)
            {
              double mid = 0.5 * (lo + hi), trial[2];

              rk4_step (p, y, mid, trial);
              if (trial[0] >= p->vpeak)
                hi = mid;
              else
                lo = mid;
            }
          rk4_step (p, y, hi, next);
          ts = t + hi;
          if (ts < final_time)
            g_array_append_val (spikes, ts);
          next[0] = p->c;
          next[1] += p->d;
          t = ts;
        }
      else
        t += h;
      y[0] = next[0];
      y[1] = next[1];
    }
  return spikes;
}

static void
test_neuron (void)
{
  g_autoptr(QdDocument) document = qd_test_load_example ("spiking-neuron.qdevs");
  QdSimulation *sim = run (document);
  Izhikevich p;
  QdTrace *spike_trace = qd_test_find_trace (sim, "/Spikes/spikes");
  g_autoptr(GArray) spikes = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) reference = NULL;
  double v0, u0, isi_ref, isi_last;
  guint n;

  p.a = qd_simulation_get_variable (sim, "a");
  p.b = qd_simulation_get_variable (sim, "b");
  p.c = qd_simulation_get_variable (sim, "c");
  p.d = qd_simulation_get_variable (sim, "d");
  p.I = qd_simulation_get_variable (sim, "I");
  p.vpeak = qd_simulation_get_variable (sim, "vpeak");
  g_assert_cmpfloat (p.a, ==, 0.02);
  g_assert_cmpfloat (p.b, ==, 0.2);
  g_assert_cmpfloat (p.c, ==, -65.0);
  g_assert_cmpfloat (p.d, ==, 8.0);
  g_assert_cmpfloat (p.I, ==, 10.0);
  g_assert_cmpfloat (p.vpeak, ==, 30.0);
  v0 = qd_trace_get (qd_test_find_trace (sim, "/Scope/v"), 0)->c[0];
  u0 = qd_trace_get (qd_test_find_trace (sim, "/Scope/u"), 0)->c[0];
  g_assert_cmpfloat (v0, ==, -65.0);
  g_assert_cmpfloat (u0, ==, -13.0);
  assert_trace_finite (qd_test_find_trace (sim, "/Scope/v"));
  assert_trace_finite (qd_test_find_trace (sim, "/Scope/u"));

  /* The Scope 'Spikes' shows the count of the Cross Detect's events:
   * 0 from the start, then one more at each time v crossed the peak. */
  g_assert_cmpfloat (qd_trace_get (spike_trace, 0)->c[0], ==, 0.0);
  for (gsize i = 1; i < qd_trace_get_length (spike_trace); i++)
    {
      const QdSignal *seg = qd_trace_get (spike_trace, i);

      g_assert_cmpfloat (seg->c[0], ==, spikes->len + 1);
      g_array_append_val (spikes, seg->t);
    }

  reference = izhikevich_reference (&p, v0, u0,
                                    qd_simulation_get_final_time (sim), 1e-3);
  g_assert_cmpuint (reference->len, >=, 5);
  g_assert_cmpuint (spikes->len, ==, reference->len);
  n = spikes->len;
  for (guint i = 0; i < n; i++)
    {
      double got = g_array_index (spikes, double, i);
      double want = g_array_index (reference, double, i);

      g_test_message ("spike %u at %.6f ms (reference %.6f)", i + 1, got, want);
      if (i > 0)
        {
          double isi = got - g_array_index (spikes, double, i - 1);
          double isi_want = want - g_array_index (reference, double, i - 1);

          g_assert_cmpfloat (fabs (isi - isi_want), <=, 0.01 * isi_want);
        }
      else
        g_assert_cmpfloat (fabs (got - want), <=, 0.01 * want);
    }
  /* Tonic spiking: after the first interval the orbit is periodic, and
   * the last intervals are the reference's steady interval. */
  isi_ref = g_array_index (reference, double, n - 1)
            - g_array_index (reference, double, n - 2);
  for (guint i = 2; i < n; i++)
    {
      double isi = g_array_index (spikes, double, i)
                   - g_array_index (spikes, double, i - 1);

      g_assert_cmpfloat (fabs (isi - isi_ref), <=, 0.01 * isi_ref);
    }
  isi_last = g_array_index (spikes, double, n - 1)
             - g_array_index (spikes, double, n - 2);
  g_test_message ("neuron: %u spikes, steady interval %.6f ms (reference "
                  "%.6f ms, %.2e relative), %" G_GUINT64_FORMAT
                  " integrator steps", n, isi_last, isi_ref,
                  fabs (isi_last - isi_ref) / isi_ref,
                  qd_simulation_get_integrator_steps (sim));
  qd_simulation_free (sim);
}

/* ---- the helpers themselves -------------------------------------------- */

/* The crossing finder and the integral on a hand-made trace: a ramp down
 * through 0, a parabola touching below and back, a jump across. */
static void
test_helpers (void)
{
  g_autoptr(QdTrace) trace = qd_trace_new ("/Test/y");
  QdSignal seg = { 0 };
  g_autoptr(GArray) crossings = NULL;

  seg.t = 0.0;
  seg.c[0] = 1.0;
  seg.c[1] = -1.0;
  seg.order = 1;
  qd_trace_append (trace, &seg);            /* 1 - t: 0 at t = 1 */
  seg.t = 2.0;
  seg.c[0] = -1.0;
  seg.c[1] = 0.0;
  seg.c[2] = 0.0;
  seg.order = 0;
  qd_trace_append (trace, &seg);            /* -1 on [2, 3) */
  seg.t = 3.0;
  seg.c[0] = 0.25;
  seg.c[1] = -1.0;
  seg.c[2] = 1.0;
  seg.order = 2;
  qd_trace_append (trace, &seg);            /* (s - 0.5)² on [3, 4) */
  seg.t = 4.0;
  seg.c[0] = -0.25;
  seg.c[1] = -1.0;
  seg.c[2] = 1.0;
  qd_trace_append (trace, &seg);            /* s² - s - 1/4: 0 at s = (1 + √2)/2 */
  qd_trace_close (trace, 6.0);

  crossings = trace_crossings (trace, 0.0, 6.0);
  g_assert_cmpuint (crossings->len, ==, 4);
  g_assert_cmpfloat_with_epsilon (g_array_index (crossings, Crossing, 0).t, 1.0, 1e-12);
  g_assert_false (g_array_index (crossings, Crossing, 0).rising);
  /* -1 (end of the ramp at t = 2) to -1: no crossing; the jump to 0.25 at
   * t = 3 crosses up, and the double root at 3.5 touches without
   * crossing; the jump at 4 goes from 0.25 down to -0.25. */
  g_assert_cmpfloat (g_array_index (crossings, Crossing, 1).t, ==, 3.0);
  g_assert_true (g_array_index (crossings, Crossing, 1).rising);
  g_assert_cmpfloat (g_array_index (crossings, Crossing, 2).t, ==, 4.0);
  g_assert_false (g_array_index (crossings, Crossing, 2).rising);
  g_assert_cmpfloat_with_epsilon (g_array_index (crossings, Crossing, 3).t,
                                  4.0 + (1.0 + sqrt (2.0)) / 2.0, 1e-12);
  g_assert_true (g_array_index (crossings, Crossing, 3).rising);

  /* ∫0^2 (1 - t) = 0, ∫2^3 -1 = -1, ∫3^4 (s - 1/2)² = 1/12. */
  g_assert_cmpfloat_with_epsilon (trace_integral (trace, 0.0, 2.0), 0.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (trace_integral (trace, 0.0, 3.0), -1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (trace_integral (trace, 3.0, 4.0), 1.0 / 12.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (trace_integral (trace, 0.5, 1.0), 0.125, 1e-12);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  g_test_add_func ("/hybrid-examples/helpers", test_helpers);
  g_test_add_data_func ("/hybrid-examples/bouncing-ball", NULL,
                        test_bouncing_ball);
  g_test_add_data_func ("/hybrid-examples/bouncing-ball/cvode-bdf",
                        "cvode-bdf", test_bouncing_ball);
  g_test_add_data_func ("/hybrid-examples/bouncing-ball/LIQSS2", "LIQSS2",
                        test_bouncing_ball);
  g_test_add_func ("/hybrid-examples/bouncing-ball-stairs", test_stairs);
  g_test_add_func ("/hybrid-examples/buck-converter", test_buck);
  g_test_add_func ("/hybrid-examples/spiking-neuron", test_neuron);

  return g_test_run ();
}

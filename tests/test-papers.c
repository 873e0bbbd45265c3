/* test-papers.c: the continuous reference examples against the published
 * results of Kofman's QSS2 paper ("A Second Order Approximation for DEVS
 * Simulation of Continuous Systems", section 6 and system (33)).
 *
 * Every reference solution is computed here, independently of the engine:
 * closed forms through the eigen-decomposition of 2 x 2 systems, a matrix
 * exponential for the tenth-order transmission line, and a classic
 * Runge-Kutta at a tiny step for Lotka-Volterra. The assertions are the
 * paper's: the error bound of its Theorem 5, the square-root law of QSS2's
 * step count, and its step counts within a margin.
 */
#include "qd-test-util.h"

#include <complex.h>
#include <math.h>
#include <string.h>

static const char *const paper_examples[] = {
  "lotka-volterra.qdevs",
  "rlc.qdevs",
  "transmission-line.qdevs",
  "qss-vs-qss2.qdevs",
  "exp-decay.qdevs",
};

/* Helpers: loading, running, reading the results */

/* Changes the model's default method and quanta, as the settings dialog
 * does. */
static void
set_simulation (QdDocument *document,
                const char *method,
                double      dqmin,
                double      dqrel)
{
  QdSettings settings = *qd_document_get_settings (document);
  g_autoptr(GError) error = NULL;

  settings.method = (char *) method;
  settings.dqmin = dqmin;
  settings.dqrel = dqrel;
  g_assert_true (qd_document_set_settings (document, &settings, &error));
  g_assert_no_error (error);
}

static QdSimulation *
run_document (QdDocument        *document,
              const char *const *overrides)
{
  g_autoptr(GError) error = NULL;
  QdSimulation *sim;

  sim = qd_simulation_new (document, overrides, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (sim);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
  g_assert_no_error (error);
  qd_simulation_finish (sim);
  return sim;
}

/* The internal transitions of the block at @path. */
static guint64
block_steps (QdSimulation *sim,
             const char   *path)
{
  for (guint i = 0; i < qd_simulation_get_n_atomics (sim); i++)
    if (strcmp (qd_simulation_get_atomic (sim, i)->path, path) == 0)
      {
        guint64 n_internal, n_external;

        qd_simulation_get_block_stats (sim, i, &n_internal, &n_external);
        return n_internal;
      }
  g_error ("no block %s", path);
  return 0;
}

/* The fewest and most internal transitions of any integrator. */
static void
integrator_step_range (QdSimulation *sim,
                       guint64      *min_steps,
                       guint64      *max_steps)
{
  *min_steps = G_MAXUINT64;
  *max_steps = 0;
  for (guint i = 0; i < qd_simulation_get_n_atomics (sim); i++)
    if (strcmp (qd_simulation_get_atomic (sim, i)->type->id, "integrator") == 0)
      {
        guint64 n_internal, n_external;

        qd_simulation_get_block_stats (sim, i, &n_internal, &n_external);
        *min_steps = MIN (*min_steps, n_internal);
        *max_steps = MAX (*max_steps, n_internal);
      }
}

typedef double (*ExactFunc) (double t, gpointer data);

/* The largest |trace - exact| over [0, @t_end]: at both ends of every
 * segment (where a quantized trajectory is farthest from the one it
 * follows), at three points inside it, and on a uniform grid of @n_grid
 * intervals. */
static double
max_trace_error (QdTrace   *trace,
                 double     t_end,
                 ExactFunc  exact,
                 gpointer   data,
                 guint      n_grid)
{
  gsize n = qd_trace_get_length (trace);
  double worst = 0.0;

  for (gsize i = 0; i < n; i++)
    {
      const QdSignal *seg = qd_trace_get (trace, i);
      double t0 = seg->t;
      double t1 = i + 1 < n ? qd_trace_get (trace, i + 1)->t : t_end;

      if (t0 > t_end)
        break;
      t1 = MIN (t1, t_end);
      for (int k = 0; k <= 4; k++)
        {
          double t = t0 + (t1 - t0) * k / 4.0;

          worst = MAX (worst, fabs (qd_signal_eval (seg, t) - exact (t, data)));
        }
    }
  for (guint k = 0; k <= n_grid; k++)
    {
      double t = t_end * k / n_grid;

      worst = MAX (worst, fabs (qd_trace_eval (trace, t) - exact (t, data)));
    }
  return worst;
}

/* Linear systems of order 2 in closed form: dx/dt = A x + b, from x0. With
 * A = V diag(lambda) V^-1 (complex when the eigenvalues are), the solution
 * is x(t) = x_eq + V exp(lambda t) V^-1 (x0 - x_eq), x_eq = -A^-1 b. */
typedef struct
{
  double complex lambda[2];
  double complex v[2][2];       /* columns are eigenvectors */
  double complex vinv[2][2];
  double         x_eq[2];
  double complex w[2];          /* V^-1 (x0 - x_eq) */
} Lti2;

static void
lti2_init (Lti2         *sys,
           const double  a[2][2],
           const double  b[2],
           const double  x0[2])
{
  double tr = a[0][0] + a[1][1];
  double det = a[0][0] * a[1][1] - a[0][1] * a[1][0];
  double complex root = csqrt ((double complex) (tr * tr / 4.0 - det));
  double complex vdet;

  g_assert_cmpfloat (fabs (det), >, 0.0);
  g_assert_cmpfloat (a[0][1], !=, 0.0);
  sys->lambda[0] = tr / 2.0 + root;
  sys->lambda[1] = tr / 2.0 - root;
  g_assert_cmpfloat (cabs (sys->lambda[0] - sys->lambda[1]), >, 0.0);

  /* (A - lambda) v = 0 with v = (a01, lambda - a00). */
  for (int k = 0; k < 2; k++)
    {
      double complex scale;

      sys->v[0][k] = a[0][1];
      sys->v[1][k] = sys->lambda[k] - a[0][0];
      scale = csqrt (sys->v[0][k] * conj (sys->v[0][k])
                     + sys->v[1][k] * conj (sys->v[1][k]));
      sys->v[0][k] /= scale;
      sys->v[1][k] /= scale;
    }
  vdet = sys->v[0][0] * sys->v[1][1] - sys->v[0][1] * sys->v[1][0];
  sys->vinv[0][0] = sys->v[1][1] / vdet;
  sys->vinv[0][1] = -sys->v[0][1] / vdet;
  sys->vinv[1][0] = -sys->v[1][0] / vdet;
  sys->vinv[1][1] = sys->v[0][0] / vdet;

  sys->x_eq[0] = -(a[1][1] * b[0] - a[0][1] * b[1]) / det;
  sys->x_eq[1] = -(-a[1][0] * b[0] + a[0][0] * b[1]) / det;
  for (int i = 0; i < 2; i++)
    sys->w[i] = sys->vinv[i][0] * (x0[0] - sys->x_eq[0])
                + sys->vinv[i][1] * (x0[1] - sys->x_eq[1]);
}

static double
lti2_eval (const Lti2 *sys,
           int         component,
           double      t)
{
  double complex sum = 0.0;

  for (int k = 0; k < 2; k++)
    sum += sys->v[component][k] * cexp (sys->lambda[k] * t) * sys->w[k];
  return sys->x_eq[component] + creal (sum);
}

/* Theorem 5 of the paper: for a Hurwitz A, |x(t) - x_exact(t)| <=
 * |V| diag(|lambda_i| / |Re lambda_i|) |V^-1| dq componentwise, for any
 * input, any initial state and every t. */
static void
lti2_error_bound (const Lti2   *sys,
                  const double  dq[2],
                  double        bound[2])
{
  for (int i = 0; i < 2; i++)
    {
      bound[i] = 0.0;
      for (int k = 0; k < 2; k++)
        for (int j = 0; j < 2; j++)
          bound[i] += cabs (sys->v[i][k])
                      * cabs (sys->lambda[k]) / fabs (creal (sys->lambda[k]))
                      * cabs (sys->vinv[k][j]) * dq[j];
    }
}

/* The canonical form: each example reads back and writes out as exactly
 * the bytes it is stored with, and is a complete model. */
static void
test_papers_canonical (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (paper_examples); i++)
    {
      g_autofree char *path = qd_test_source_path ("data", "examples", paper_examples[i], NULL);
      g_autoptr(QdDocument) document = qd_test_load_example (paper_examples[i]);
      g_autoptr(GError) error = NULL;
      g_autofree char *stored = NULL;
      g_autofree char *written = NULL;
      gsize stored_length, written_length;

      g_test_message ("%s", paper_examples[i]);
      g_assert_true (g_file_get_contents (path, &stored, &stored_length, &error));
      g_assert_no_error (error);
      written = qd_document_to_data (document, &written_length);
      g_assert_cmpstr (written, ==, stored);
      g_assert_cmpuint (written_length, ==, stored_length);
      g_assert_true (qd_document_check (document, NULL, NULL));
    }
}

/* Section 6.1: the series RLC circuit under QSS1 */

typedef struct
{
  Lti2   sys;
  double inv_l;
} RlcExact;

static double
rlc_exact_y (double   t,
             gpointer data)
{
  RlcExact *rlc = data;

  return rlc->inv_l * lti2_eval (&rlc->sys, 1, t);
}

static double
rlc_exact_x1 (double   t,
              gpointer data)
{
  RlcExact *rlc = data;

  return lti2_eval (&rlc->sys, 0, t);
}

static void
test_papers_rlc (void)
{
  g_autoptr(QdDocument) document = qd_test_load_example ("rlc.qdevs");
  QdSimulation *sim = run_document (document, NULL);
  double r = qd_simulation_get_variable (sim, "R");
  double l = qd_simulation_get_variable (sim, "L");
  double c = qd_simulation_get_variable (sim, "C");
  double u = qd_simulation_get_variable (sim, "U");
  const double dq[2] = { qd_simulation_get_variable (sim, "dq1"),
                         qd_simulation_get_variable (sim, "dq2") };
  const double a[2][2] = { { 0.0, 1.0 / l }, { -1.0 / c, -r / l } };
  const double b[2] = { 0.0, u };
  const double x0[2] = { 0.0, 0.0 };
  double t_end = qd_simulation_get_final_time (sim);
  double bound[2], err_y, err_x1;
  RlcExact rlc;

  g_assert_cmpfloat (dq[0], ==, 1e-2);
  g_assert_cmpfloat (dq[1], ==, 1e-4);
  lti2_init (&rlc.sys, a, b, x0);
  rlc.inv_l = 1.0 / l;

  /* The paper's eigenvalues, -1 and -10000, and its bound: 0.0003 on x2,
   * so 0.03 on y = 100 x2. */
  g_assert_cmpfloat_with_epsilon (creal (rlc.sys.lambda[0]), -1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (creal (rlc.sys.lambda[1]), -10000.0, 1e-6);
  lti2_error_bound (&rlc.sys, dq, bound);
  g_assert_cmpfloat_with_epsilon (bound[0], 0.01, 1e-5);
  g_assert_cmpfloat_with_epsilon (bound[1], 0.0003, 1e-6);

  err_y = max_trace_error (qd_test_find_trace (sim, "/Scope/y"), t_end, rlc_exact_y, &rlc, 200000);
  err_x1 = max_trace_error (qd_test_find_trace (sim, "/Scope/x1"), t_end, rlc_exact_x1, &rlc, 200000);
  g_test_message ("RLC, QSS1, dq = (1e-2, 1e-4): max |y error| %.3g (Theorem 5 "
                  "bound %.3g; the paper saw < 6e-3), max |x1 error| %.3g "
                  "(bound %.3g); %" G_GUINT64_FORMAT " + %" G_GUINT64_FORMAT
                  " integrator steps", err_y, bound[1] / l, err_x1, bound[0],
                  block_steps (sim, "/x1"), block_steps (sim, "/x2"));
  /* The Scope shows q, which is within a quantum of x, and x is within
   * Theorem 5's bound of the exact solution. */
  g_assert_cmpfloat (err_y, <, 0.03);
  g_assert_cmpfloat (err_x1, <, bound[0] + dq[0]);
  qd_simulation_free (sim);
}

/* Section 6.3: the transmission line */

#define LINE_SECTIONS 5
#define LINE_ORDER    (2 * LINE_SECTIONS)
#define LINE_AUG      (LINE_ORDER + 2)

/* exp(M) of a small dense matrix (row-major, n x n): the Taylor series of
 * M / 2^s, with s making its norm at most 1/2, squared s times. */
static void
matrix_exp (const double *m,
            int           n,
            double       *result)
{
  g_autofree double *term = g_new (double, n * n);
  g_autofree double *next = g_new (double, n * n);
  g_autofree double *scaled = g_new (double, n * n);
  double norm = 0.0;
  int s = 0;

  for (int i = 0; i < n; i++)
    {
      double row = 0.0;

      for (int j = 0; j < n; j++)
        row += fabs (m[i * n + j]);
      norm = MAX (norm, row);
    }
  while (norm > 0.5)
    {
      norm /= 2.0;
      s++;
    }
  for (int i = 0; i < n * n; i++)
    scaled[i] = ldexp (m[i], -s);

  for (int i = 0; i < n * n; i++)
    result[i] = term[i] = (i / n == i % n) ? 1.0 : 0.0;
  for (int k = 1; k <= 30; k++)
    {
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
          {
            double sum = 0.0;

            for (int p = 0; p < n; p++)
              sum += term[i * n + p] * scaled[p * n + j];
            next[i * n + j] = sum / k;
          }
      memcpy (term, next, sizeof (double) * n * n);
      for (int i = 0; i < n * n; i++)
        result[i] += term[i];
    }
  for (; s > 0; s--)
    {
      for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
          {
            double sum = 0.0;

            for (int p = 0; p < n; p++)
              sum += result[i * n + p] * result[p * n + j];
            next[i * n + j] = sum;
          }
      memcpy (result, next, sizeof (double) * n * n);
    }
}

/* The exact Vout of the line at t = k h, k = 0..n_steps, for the
 * trapezoidal input 0 -> 1 over @rise, held @high, back over @fall. The
 * state is augmented with the input u and its slope s (du/dt = s,
 * ds/dt = 0), so each step is one product with exp(M h); the input's
 * corners fall on the grid, where s is switched. */
static double *
line_exact_vout (double r,
                 double l,
                 double c,
                 double rise,
                 double high,
                 double fall,
                 double h,
                 guint  n_steps)
{
  double m[LINE_AUG * LINE_AUG] = { 0.0, };
  double phi[LINE_AUG * LINE_AUG];
  double z[LINE_AUG] = { 0.0, }, next[LINE_AUG];
  double *vout = g_new (double, n_steps + 1);
  guint k_rise = (guint) lround (rise / h);
  guint k_high = (guint) lround ((rise + high) / h);
  guint k_fall = (guint) lround ((rise + high + fall) / h);
  const int u = LINE_ORDER, s = LINE_ORDER + 1;

  g_assert_cmpfloat (fabs (k_rise * h - rise), <, 1e-6 * h);
  g_assert_cmpfloat (fabs (k_fall * h - (rise + high + fall)), <, 1e-6 * h);

  /* State order as in the paper's matrix (32): i1, v1, i2, v2, ... */
  for (int k = 0; k < LINE_SECTIONS; k++)
    {
      int i_k = 2 * k, v_k = 2 * k + 1;
      int v_prev = k == 0 ? u : v_k - 2;

      m[i_k * LINE_AUG + v_prev] = 1.0 / l;
      m[i_k * LINE_AUG + i_k] = -r / l;
      m[i_k * LINE_AUG + v_k] = -1.0 / l;
      m[v_k * LINE_AUG + i_k] = 1.0 / c;
      if (k + 1 < LINE_SECTIONS)
        m[v_k * LINE_AUG + i_k + 2] = -1.0 / c;
    }
  m[u * LINE_AUG + s] = 1.0;
  for (int i = 0; i < LINE_AUG * LINE_AUG; i++)
    m[i] *= h;
  matrix_exp (m, LINE_AUG, phi);

  z[s] = 1.0 / rise;
  for (guint k = 0; k <= n_steps; k++)
    {
      /* Pin the input at its corners, so that rounding never drifts it. */
      if (k == k_rise)
        {
          z[u] = 1.0;
          z[s] = 0.0;
        }
      else if (k == k_high)
        z[s] = -1.0 / fall;
      else if (k == k_fall)
        {
          z[u] = 0.0;
          z[s] = 0.0;
        }
      vout[k] = z[LINE_ORDER - 1];
      for (int i = 0; i < LINE_AUG; i++)
        {
          double sum = 0.0;

          for (int j = 0; j < LINE_AUG; j++)
            sum += phi[i * LINE_AUG + j] * z[j];
          next[i] = sum;
        }
      memcpy (z, next, sizeof z);
    }
  return vout;
}

/* The largest |a(t) - b(t)| at every segment end of both traces and on
 * the grid t = k h. */
static double
max_trace_difference (QdTrace *a,
                      QdTrace *b,
                      double   t_end,
                      double   h)
{
  QdTrace *both[2] = { a, b };
  double worst = 0.0;

  for (int w = 0; w < 2; w++)
    for (gsize i = 1; i < qd_trace_get_length (both[w]); i++)
      {
        double t = qd_trace_get (both[w], i)->t;

        if (t > t_end)
          break;
        /* Just before and at the event. */
        worst = MAX (worst, fabs (qd_signal_eval (qd_trace_get (both[w], i - 1), t)
                                  - qd_trace_eval (both[1 - w], t)));
        worst = MAX (worst, fabs (qd_trace_eval (a, t) - qd_trace_eval (b, t)));
      }
  for (double t = 0.0; t <= t_end; t += h)
    worst = MAX (worst, fabs (qd_trace_eval (a, t) - qd_trace_eval (b, t)));
  return worst;
}

static void
test_papers_transmission_line (void)
{
  g_autoptr(QdDocument) document = qd_test_load_example ("transmission-line.qdevs");
  const char *const fine[] = { "dv=4e-5", "di=1e-7", NULL };
  QdSimulation *coarse_sim = run_document (document, NULL);
  QdSimulation *fine_sim = run_document (document, fine);
  QdTrace *vout_coarse = qd_test_find_trace (coarse_sim, "/Scope/Vout");
  QdTrace *vout_fine = qd_test_find_trace (fine_sim, "/Scope/Vout");
  double t_end = qd_simulation_get_final_time (coarse_sim);
  const double h = 1e-13;
  guint n_steps = (guint) lround (t_end / h);
  g_autofree double *exact = NULL;
  guint64 steps_coarse = qd_simulation_get_integrator_steps (coarse_sim);
  guint64 steps_fine = qd_simulation_get_integrator_steps (fine_sim);
  guint64 min_coarse, max_coarse, min_fine, max_fine;
  double ratio, diff, err_coarse = 0.0, err_fine = 0.0, vout_max = 0.0;

  g_assert_cmpfloat (t_end, ==, 3.2e-9);
  g_assert_cmpfloat (qd_simulation_get_variable (coarse_sim, "dv"), ==, 4e-3);
  g_assert_cmpfloat (qd_simulation_get_variable (coarse_sim, "di"), ==, 1e-5);
  g_assert_cmpfloat (qd_simulation_get_variable (fine_sim, "dv"), ==, 4e-5);

  exact = line_exact_vout (qd_simulation_get_variable (coarse_sim, "R"),
                           qd_simulation_get_variable (coarse_sim, "L"),
                           qd_simulation_get_variable (coarse_sim, "C"),
                           10e-12, 1e-9, 10e-12, h, n_steps);
  for (guint k = 0; k <= n_steps; k++)
    {
      double t = k * h;

      vout_max = MAX (vout_max, exact[k]);
      err_coarse = MAX (err_coarse, fabs (qd_trace_eval (vout_coarse, t) - exact[k]));
      err_fine = MAX (err_fine, fabs (qd_trace_eval (vout_fine, t) - exact[k]));
    }

  integrator_step_range (coarse_sim, &min_coarse, &max_coarse);
  integrator_step_range (fine_sim, &min_fine, &max_fine);
  ratio = (double) steps_fine / steps_coarse;
  diff = max_trace_difference (vout_coarse, vout_fine, t_end, h);
  g_test_message ("transmission line, QSS2: %" G_GUINT64_FORMAT " steps (%"
                  G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT " per integrator; "
                  "the paper: 2536, 198 to 319) with 4 mV / 10 uA, %"
                  G_GUINT64_FORMAT " (%" G_GUINT64_FORMAT " to %" G_GUINT64_FORMAT
                  ") with quanta 100 times smaller (the paper: 26883); ratio "
                  "%.2f (the paper: 10.6)", steps_coarse, min_coarse, max_coarse,
                  steps_fine, min_fine, max_fine, ratio);
  g_test_message ("transmission line: max |Vout coarse - Vout fine| %.2f mV "
                  "(the paper: 14.5 mV, bound 250 mV); max |Vout - exact| %.2f mV "
                  "coarse, %.3f mV fine (bounds 250 and 2.5 mV); exact Vout peaks "
                  "at %.3f V", diff * 1e3, err_coarse * 1e3, err_fine * 1e3, vout_max);

  /* The exact response overshoots: the line rings. */
  g_assert_cmpfloat (vout_max, >, 1.05);
  /* QSS2's steps grow as 1/sqrt(dq): 100 times smaller, 10 times more. */
  g_assert_cmpfloat (ratio, >=, 7.0);
  g_assert_cmpfloat (ratio, <=, 14.0);
  /* Far inside the bound that Theorem 5 gives for the coarse quanta. */
  g_assert_cmpfloat (diff, <, 0.05);
  g_assert_cmpfloat (err_coarse, <, 0.05);
  /* The fine run within its own bound, 2.5 mV, plus one quantum of q. */
  g_assert_cmpfloat (err_fine, <, 2.5e-3 + 4e-5);
  qd_simulation_free (coarse_sim);
  qd_simulation_free (fine_sim);
}

/* Section 6.2: Lotka-Volterra */

typedef struct
{
  double eps, alpha, sigma, m, beta;
} LvParams;

static void
lv_rhs (const LvParams *p,
        const double    x[2],
        double          dx[2])
{
  dx[0] = x[0] * (p->eps + p->alpha * x[1] - p->sigma * x[0]);
  dx[1] = x[1] * (p->beta * x[0] - p->m);
}

/* The reference: classic RK4 with step @h (local error O(h^5)), the state
 * kept every @every steps: out[2 k + i] = x_i(k every h). */
static double *
lv_reference (const LvParams *p,
              const double    x0[2],
              double          t_end,
              double          h,
              guint           every,
              guint          *n_out)
{
  guint n_steps = (guint) lround (t_end / h);
  double *out = g_new (double, 2 * (n_steps / every + 1));
  double x[2] = { x0[0], x0[1] };

  *n_out = 0;
  for (guint k = 0; k <= n_steps; k++)
    {
      double k1[2], k2[2], k3[2], k4[2], y[2];

      if (k % every == 0)
        {
          out[2 * *n_out] = x[0];
          out[2 * *n_out + 1] = x[1];
          (*n_out)++;
        }
      lv_rhs (p, x, k1);
      for (int i = 0; i < 2; i++)
        y[i] = x[i] + 0.5 * h * k1[i];
      lv_rhs (p, y, k2);
      for (int i = 0; i < 2; i++)
        y[i] = x[i] + 0.5 * h * k2[i];
      lv_rhs (p, y, k3);
      for (int i = 0; i < 2; i++)
        y[i] = x[i] + h * k3[i];
      lv_rhs (p, y, k4);
      for (int i = 0; i < 2; i++)
        x[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i]);
    }
  return out;
}

/* The largest error of the prey and predator traces against the
 * reference, on its grid of spacing @dt. */
static void
lv_errors (QdSimulation *sim,
           const double *reference,
           guint         n,
           double        dt,
           double        err[2])
{
  QdTrace *traces[2] = { qd_test_find_trace (sim, "/Scope/prey"),
                         qd_test_find_trace (sim, "/Scope/predator") };

  err[0] = err[1] = 0.0;
  for (guint k = 0; k < n; k++)
    for (int i = 0; i < 2; i++)
      err[i] = MAX (err[i], fabs (qd_trace_eval (traces[i], k * dt)
                                  - reference[2 * k + i]));
}

static void
test_papers_lotka_volterra (void)
{
  g_autoptr(QdDocument) document = qd_test_load_example ("lotka-volterra.qdevs");
  const LvParams classic = { 0.1, -0.1, 0.0, 0.1, 0.1 };
  const double classic_x0[2] = { 0.5, 0.5 };
  QdSimulation *sim = run_document (document, NULL);
  double t_end = qd_simulation_get_final_time (sim);
  const double dt = 0.01;
  g_autofree double *reference = NULL;
  double err[2], x_max = 0.0, dq_max;
  guint n;

  g_assert_cmpfloat (t_end, ==, 300.0);
  reference = lv_reference (&classic, classic_x0, t_end, 1e-3, 10, &n);
  for (guint k = 0; k < 2 * n; k++)
    x_max = MAX (x_max, reference[k]);
  /* The largest quantum of the run: dqrel |x| at the peak. */
  dq_max = MAX (1e-3 * x_max, 1e-6);
  lv_errors (sim, reference, n, dt, err);
  g_test_message ("Lotka-Volterra (classic), QSS2, dqrel 1e-3: %" G_GUINT64_FORMAT
                  " + %" G_GUINT64_FORMAT " steps; max error prey %.3g, predator "
                  "%.3g (largest quantum %.3g)", block_steps (sim, "/Prey"),
                  block_steps (sim, "/Predator"), err[0], err[1], dq_max);
  /* The classic model is conservative: every orbit is a cycle, so the
   * quantization shifts the phase a little each cycle and the error grows
   * slowly over the five cycles; still it stays a few quanta. */
  g_assert_cmpfloat (err[0], <, 10.0 * dq_max);
  g_assert_cmpfloat (err[1], <, 10.0 * dq_max);
  qd_simulation_free (sim);
}

/* The paper's own model of section 6.2. Its text prints beta = 0.5 and a
 * plus sign before alpha; with those the predators explode at once and
 * the prey never come back (no positive equilibrium, or with alpha < 0 a
 * prey population down to 1e-4 and predators up to 376, unreachable for a
 * quantum of 0.001 and a fixed-step Heun at h = 0.63). With alpha = -0.01
 * and beta = 0.05 the model settles at (m/beta, (eps - sigma m/beta)/-alpha)
 * = (8, 2) in damped oscillations, and QSS2 reproduces the paper's step
 * counts, 211 + 264. */
static void
test_papers_lotka_volterra_paper (void)
{
  g_autoptr(QdDocument) document = qd_test_load_example ("lotka-volterra.qdevs");
  const char *const overrides[] = {
    "eps=0.1", "alpha=-0.01", "sigma=0.01", "m=0.4", "beta=0.05",
    "x1_0=10", "x2_0=10", NULL
  };
  const LvParams paper = { 0.1, -0.01, 0.01, 0.4, 0.05 };
  const double x0[2] = { 10.0, 10.0 };
  const double dq = 1e-3;
  g_autofree double *reference = NULL;
  QdSimulation *sim;
  guint64 prey_steps, predator_steps, total;
  double err[2];
  guint n;

  set_simulation (document, "QSS2", dq, 0.0);
  sim = run_document (document, overrides);
  prey_steps = block_steps (sim, "/Prey");
  predator_steps = block_steps (sim, "/Predator");
  total = prey_steps + predator_steps;
  g_assert_cmpuint (total, ==, qd_simulation_get_integrator_steps (sim));

  reference = lv_reference (&paper, x0, 300.0, 1e-3, 10, &n);
  /* It settles where the paper says. */
  g_assert_cmpfloat_with_epsilon (reference[2 * (n - 1)], 8.0, 1e-3);
  g_assert_cmpfloat_with_epsilon (reference[2 * (n - 1) + 1], 2.0, 1e-3);
  lv_errors (sim, reference, n, 0.01, err);
  g_test_message ("Lotka-Volterra (the paper's, section 6.2), QSS2, dq = 1e-3: "
                  "%" G_GUINT64_FORMAT " + %" G_GUINT64_FORMAT " = %"
                  G_GUINT64_FORMAT " steps (the paper: 211 + 264 = 475); max "
                  "error prey %.3g, predator %.3g", prey_steps, predator_steps,
                  total, err[0], err[1]);
  g_assert_cmpfloat (total, >=, 475.0 / 1.5);
  g_assert_cmpfloat (total, <=, 475.0 * 1.5);
  /* Stable, so the error stays bounded by a few quanta (the paper's
   * Figure 13 shows it under 0.01 throughout). */
  g_assert_cmpfloat (err[0], <, 10.0 * dq);
  g_assert_cmpfloat (err[1], <, 10.0 * dq);
  qd_simulation_free (sim);
}

/* Section 7.1: QSS1 against QSS2 on system (33) */

static double
system33_x1 (double   t,
             gpointer data G_GNUC_UNUSED)
{
  const double w = sqrt (3.0) / 2.0;

  return 1.0 - exp (-t / 2.0) * (cos (w * t) + sin (w * t) / sqrt (3.0));
}

static double
system33_x2 (double   t,
             gpointer data G_GNUC_UNUSED)
{
  const double w = sqrt (3.0) / 2.0;

  return exp (-t / 2.0) * sin (w * t) / w;
}

static void
test_papers_qss_vs_qss2 (void)
{
  g_autoptr(QdDocument) document = qd_test_load_example ("qss-vs-qss2.qdevs");
  const char *const methods[] = { "QSS1", "QSS2", "QSS3" };
  const double quanta[] = { 1e-2, 1e-3, 1e-4 };
  const double a[2][2] = { { 0.0, 1.0 }, { -1.0, -1.0 } };
  const double b[2] = { 0.0, 1.0 };
  const double x0[2] = { 0.0, 0.0 };
  guint64 steps[3][3];
  double t_end = qd_document_get_settings (document)->final_time;
  Lti2 sys;

  /* The closed form through the eigen-decomposition agrees with the
   * textbook one. */
  lti2_init (&sys, a, b, x0);
  for (double t = 0.0; t <= 20.0; t += 0.25)
    {
      g_assert_cmpfloat_with_epsilon (lti2_eval (&sys, 0, t), system33_x1 (t, NULL), 1e-12);
      g_assert_cmpfloat_with_epsilon (lti2_eval (&sys, 1, t), system33_x2 (t, NULL), 1e-12);
    }

  for (guint m = 0; m < G_N_ELEMENTS (methods); m++)
    for (guint d = 0; d < G_N_ELEMENTS (quanta); d++)
      {
        const double dq[2] = { quanta[d], quanta[d] };
        double bound[2], err1, err2;
        QdSimulation *sim;

        set_simulation (document, methods[m], quanta[d], 0.0);
        sim = run_document (document, NULL);
        steps[m][d] = qd_simulation_get_integrator_steps (sim);
        lti2_error_bound (&sys, dq, bound);
        err1 = max_trace_error (qd_test_find_trace (sim, "/Scope/x1"), t_end, system33_x1, NULL, 20000);
        err2 = max_trace_error (qd_test_find_trace (sim, "/Scope/x2"), t_end, system33_x2, NULL, 20000);
        g_test_message ("system (33), %s, dq = %g: %" G_GUINT64_FORMAT
                        " steps; max error x1 %.3g, x2 %.3g (Theorem 5 bound "
                        "%.3g, %.3g, plus one quantum for q)", methods[m],
                        quanta[d], steps[m][d], err1, err2, bound[0], bound[1]);
        /* The Scope shows q: within a quantum of x, itself within the
         * bound of the exact solution. */
        g_assert_cmpfloat (err1, <=, bound[0] + quanta[d]);
        g_assert_cmpfloat (err2, <=, bound[1] + quanta[d]);
        qd_simulation_free (sim);
      }

  /* The same error bound for far fewer steps, and the gap widens as the
   * quantum shrinks: QSS1 steps go as 1/dq, QSS2 as 1/sqrt(dq). */
  g_assert_cmpuint (5 * steps[1][1], <=, steps[0][1]);
  g_assert_cmpuint (steps[0][2] / steps[1][2], >, steps[0][1] / steps[1][1]);
  g_assert_cmpfloat ((double) steps[0][2] / steps[0][1], >, 7.0);
  g_assert_cmpfloat ((double) steps[1][2] / steps[1][1], <, 5.0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  g_test_add_func ("/papers/canonical", test_papers_canonical);
  g_test_add_func ("/papers/rlc", test_papers_rlc);
  g_test_add_func ("/papers/transmission-line", test_papers_transmission_line);
  g_test_add_func ("/papers/lotka-volterra", test_papers_lotka_volterra);
  g_test_add_func ("/papers/lotka-volterra-paper", test_papers_lotka_volterra_paper);
  g_test_add_func ("/papers/qss-vs-qss2", test_papers_qss_vs_qss2);

  return g_test_run ();
}

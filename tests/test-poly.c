/* test-poly.c: the polynomial root finder behind quantized integrators
 *
 * Random polynomials are checked against a brute-force reference (a fine
 * scan for the first sign change, refined by bisection); adversarial cases
 * (double roots, tangency, vanishing leading coefficients, roots at zero,
 * extreme time scales) against their known answers.
 */
#include "qd-test-util.h"

#include <float.h>
#include <math.h>
#include <string.h>
#include <time.h>

static double
eval (const double *a,
      int           n,
      double        s)
{
  double v = 0.0;

  for (int k = n; k >= 0; k--)
    v = v * s + a[k];
  return v;
}

static double
scale (const double *a,
       int           n,
       double        s)
{
  double v = 0.0;

  for (int k = n; k >= 0; k--)
    v = v * fabs (s) + fabs (a[k]);
  return v;
}

/* The first s in (0, horizon] where f(s) = p(s) - level changes sign, by
 * scanning @steps points then bisecting; QD_INF when none. */
static double
reference_root (const double *a,
                int           n,
                double        level,
                double        horizon,
                int           steps)
{
  double prev_s = 0.0, prev_f = eval (a, n, 0.0) - level;

  for (int i = 1; i <= steps; i++)
    {
      double s = horizon * i / steps;
      double f = eval (a, n, s) - level;

      if (f == 0.0)
        return s;
      if (prev_f != 0.0 && (f > 0.0) != (prev_f > 0.0))
        {
          double lo = prev_s, hi = s;

          for (int k = 0; k < 200 && hi - lo > 0; k++)
            {
              double mid = 0.5 * (lo + hi);
              double fm = eval (a, n, mid) - level;

              if (fm == 0.0)
                return mid;
              if ((fm > 0.0) == (prev_f > 0.0))
                lo = mid;
              else
                hi = mid;
              if (mid == lo && mid == hi)
                break;
            }
          return 0.5 * (lo + hi);
        }
      prev_s = s;
      prev_f = f;
    }
  return QD_INF;
}

static void
assert_sane (double s)
{
  g_assert_false (isnan (s));
  g_assert_cmpfloat (s, >=, 0.0);
}

/* The solver's root s against the reference r: equal, or s is a root that
 * the scan could not see (a touch between two samples). */
static void
check_against_reference (const double *a,
                         int           n,
                         double        level,
                         double        s,
                         double        r,
                         double        horizon)
{
  assert_sane (s);
  if (isfinite (r))
    {
      if (fabs (s - r) <= 1e-8 * (1.0 + r))
        return;
      /* Earlier than the reference: must be a genuine touch. */
      g_assert_cmpfloat (s, <, r);
      g_assert_cmpfloat (fabs (eval (a, n, s) - level), <=,
                         1e-9 * (scale (a, n, s) + fabs (level)));
    }
  else if (s <= horizon)
    {
      g_assert_cmpfloat (fabs (eval (a, n, s) - level), <=,
                         1e-9 * (scale (a, n, s) + fabs (level)));
    }
}

static void
test_random_roots (void)
{
  GRand *rand = g_rand_new_with_seed (20261122);

  for (int trial = 0; trial < 3000; trial++)
    {
      int n = 1 + trial % 3;
      double a[4] = { 0, };
      double s, r;

      for (int k = 0; k <= n; k++)
        a[k] = g_rand_double_range (rand, -1.0, 1.0);
      s = qd_poly_first_root (a, n);
      r = reference_root (a, n, 0.0, 10.0, 20000);
      check_against_reference (a, n, 0.0, s, r, 10.0);
    }
  g_rand_free (rand);
}

static void
test_random_crossings (void)
{
  GRand *rand = g_rand_new_with_seed (7);

  for (int trial = 0; trial < 3000; trial++)
    {
      int n = 1 + trial % 3;
      double a[4] = { 0, };
      double dq = g_rand_double_range (rand, 0.01, 1.0);
      double s, r_up, r_down, r;

      a[0] = g_rand_double_range (rand, -dq, dq);
      for (int k = 1; k <= n; k++)
        a[k] = g_rand_double_range (rand, -1.0, 1.0);
      s = qd_poly_first_crossing (a, n, dq);
      r_up = reference_root (a, n, dq, 10.0, 20000);
      r_down = reference_root (a, n, -dq, 10.0, 20000);
      r = fmin (r_up, r_down);
      assert_sane (s);
      if (isfinite (r))
        {
          /* Never later than the first crossing: that one is not missed. */
          g_assert_cmpfloat (s, <=, r * (1.0 + 1e-8) + 1e-12);
          /* And when earlier, it is a real touch of the band's edge. */
          if (s < r * (1.0 - 1e-8))
            g_assert_cmpfloat (fabs (fabs (eval (a, n, s)) - dq), <=, 1e-9);
        }
      else if (s <= 10.0)
        g_assert_cmpfloat (fabs (fabs (eval (a, n, s)) - dq), <=, 1e-9);
      /* Inside the band until then. */
      for (int i = 1; i < 50 && isfinite (s); i++)
        g_assert_cmpfloat (fabs (eval (a, n, s * i / 50.0)), <=,
                           dq * (1.0 + 1e-9));
    }
  g_rand_free (rand);
}

static void
test_double_roots (void)
{
  /* (s - 1)^2 */
  double q[] = { 1.0, -2.0, 1.0 };
  /* (s - 1)^2 (s + 2) = s^3 - 3s + 2 */
  double c[] = { 2.0, -3.0, 0.0, 1.0 };
  /* (s - 0.3)^3: a triple root */
  double t[] = { -0.027, 0.27, -0.9, 1.0 };
  /* (s - 2)^2 (s - 3): double then simple */
  double d[] = { -12.0, 16.0, -7.0, 1.0 };

  g_assert_cmpfloat_with_epsilon (qd_poly_first_root (q, 2), 1.0, 1e-7);
  g_assert_cmpfloat_with_epsilon (qd_poly_first_root (c, 3), 1.0, 1e-7);
  g_assert_cmpfloat_with_epsilon (qd_poly_first_root (t, 3), 0.3, 1e-5);
  g_assert_cmpfloat_with_epsilon (qd_poly_first_root (d, 3), 2.0, 1e-7);
}

static void
test_tangency (void)
{
  /* p(s) = 1 - (s - 1)^2 touches dq = 1 at s = 1 (and reaches -1 only at
   * 1 + sqrt 2): the touch is the first crossing. */
  double q[] = { 0.0, 2.0, -1.0 };
  /* p(s) = 0.5 - 0.5 (s - 1)^2 (s + 1) touches dq = 0.5 at s = 1. */
  double c[] = { 0.0, 0.5, 0.5, -0.5 };
  /* A near miss: stays at 0.999 * dq at most, then comes back and goes
   * through -dq at 1 + sqrt(1.999). */
  double m[] = { 0.0, 2.0 * 0.999, -0.999 };

  g_assert_cmpfloat_with_epsilon (qd_poly_first_crossing (q, 2, 1.0), 1.0, 1e-7);
  g_assert_cmpfloat_with_epsilon (qd_poly_first_crossing (c, 3, 0.5), 1.0, 1e-7);
  g_assert_cmpfloat_with_epsilon (qd_poly_first_crossing (m, 2, 1.0),
                                  1.0 + sqrt (1.0 + 1.0 / 0.999), 1e-9);
}

static void
test_vanishing_leading (void)
{
  /* Leading coefficients of zero, 1e-300 and 1e-20 (relative) must give the
   * root of the lower-degree polynomial, 1 + tiny. */
  double z3[] = { -1.0, 1.0, 0.0, 0.0 };
  double t3[] = { -1.0, 1.0, 0.0, 1e-300 };
  double r3[] = { -1.0, 1.0, 0.0, 1e-20 };
  double t2[] = { -1.0, 1.0, 1e-300 };
  double r2[] = { -1.0, 1.0, -1e-20 };
  /* A quadratic with a tiny cubic term: (s - 1)(s - 2) + 1e-18 s^3 */
  double qc[] = { 2.0, -3.0, 1.0, 1e-18 };
  /* Zero linear and quadratic, tiny cubic: s^3 = 1e-300 * ... big root */
  double big[] = { -1.0, 0.0, 0.0, 1e-30 };

  g_assert_cmpfloat (qd_poly_first_root (z3, 3), ==, 1.0);
  g_assert_cmpfloat_with_epsilon (qd_poly_first_root (t3, 3), 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (qd_poly_first_root (r3, 3), 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (qd_poly_first_root (t2, 2), 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (qd_poly_first_root (r2, 2), 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (qd_poly_first_root (qc, 3), 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (qd_poly_first_root (big, 3) / 1e10, 1.0, 1e-12);
  /* With a crossing band: x - q = 1e-300 s^3 + s, dq = 1 */
  {
    double band[] = { 0.0, 1.0, 0.0, 1e-300 };
    g_assert_cmpfloat_with_epsilon (qd_poly_first_crossing (band, 3, 1.0), 1.0, 1e-12);
  }
}

static void
test_roots_at_zero (void)
{
  double a[] = { 0.0, -1.0, 1.0 };         /* roots 0 and 1 */
  double b[] = { 0.0, 1.0, 1.0 };          /* roots 0 and -1 */
  double c[] = { 0.0, 0.0, 0.0, 1.0 };     /* triple root at 0 */
  double d[] = { 0.0, 0.0, -1.0, 1.0 };    /* double root at 0, then 1 */
  double e[] = { 0.0, 2.0, -3.0, 1.0 };    /* s (s - 1)(s - 2) */
  double edge_in[] = { 1.0, -1.0 };        /* on the edge, moving inward */
  double edge_out[] = { 1.0, 1.0 };        /* on the edge, moving outward */
  double edge_out2[] = { -1.0, 0.0, -1.0 };/* outward through curvature */
  double edge_still[] = { 1.0, 0.0, 0.0 }; /* on the edge, not moving */
  double beyond[] = { 1.5, -1.0 };         /* already out */

  g_assert_cmpfloat (qd_poly_first_root (a, 2), ==, 1.0);
  g_assert_cmpfloat (qd_poly_first_root (b, 2), ==, QD_INF);
  g_assert_cmpfloat (qd_poly_first_root (c, 3), ==, QD_INF);
  g_assert_cmpfloat_with_epsilon (qd_poly_first_root (d, 3), 1.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (qd_poly_first_root (e, 3), 1.0, 1e-12);

  /* The documented rule: 0 only when the state truly leaves the band. */
  g_assert_cmpfloat_with_epsilon (qd_poly_first_crossing (edge_in, 1, 1.0), 2.0, 1e-12);
  g_assert_cmpfloat (qd_poly_first_crossing (edge_out, 1, 1.0), ==, 0.0);
  g_assert_cmpfloat (qd_poly_first_crossing (edge_out2, 2, 1.0), ==, 0.0);
  g_assert_cmpfloat (qd_poly_first_crossing (edge_still, 2, 1.0), ==, QD_INF);
  g_assert_cmpfloat (qd_poly_first_crossing (beyond, 1, 1.0), ==, 0.0);
}

static void
test_constants (void)
{
  double zero[] = { 0.0, 0.0, 0.0, 0.0 };
  double one[] = { 1.0, 0.0, 0.0, 0.0 };
  double half[] = { 0.5 };

  for (int n = 0; n <= 3; n++)
    {
      g_assert_cmpfloat (qd_poly_first_root (zero, n), ==, QD_INF);
      g_assert_cmpfloat (qd_poly_first_root (one, n), ==, QD_INF);
      g_assert_cmpfloat (qd_poly_first_crossing (zero, n, 1.0), ==, QD_INF);
    }
  g_assert_cmpfloat (qd_poly_first_crossing (half, 0, 1.0), ==, QD_INF);
}

static void
test_scales (void)
{
  /* QSS1 with a fast slope: x - q = 1e12 s, dq = 1 */
  double fast[] = { 0.0, 1e12 };
  /* (s - 1e-12)(s + 1)(s + 2) */
  double r = 1e-12;
  double small[] = { -2.0 * r, 2.0 - 3.0 * r, 3.0 - r, 1.0 };
  /* (s - 1e6)(s - 2e6)(s + 1) */
  double big[] = { 2e12, 2e12 - 3e6, 1.0 - 3e6, 1.0 };
  /* QSS3 step shapes: x - q = c s^3 with c from 1e-12 to 1e12 */
  for (int e = -12; e <= 12; e += 3)
    {
      double c3[] = { 0.0, 0.0, 0.0, pow (10.0, e) };
      double c2[] = { 0.0, 0.0, pow (10.0, e) };
      double dq = 1e-6;

      g_assert_cmpfloat_with_epsilon (qd_poly_first_crossing (c3, 3, dq)
                                      / cbrt (dq / c3[3]), 1.0, 1e-12);
      g_assert_cmpfloat_with_epsilon (qd_poly_first_crossing (c2, 2, dq)
                                      / sqrt (dq / c2[2]), 1.0, 1e-12);
    }

  g_assert_cmpfloat_with_epsilon (qd_poly_first_crossing (fast, 1, 1.0) / 1e-12,
                                  1.0, 1e-14);
  g_assert_cmpfloat_with_epsilon (qd_poly_first_root (small, 3) / r, 1.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (qd_poly_first_root (big, 3) / 1e6, 1.0, 1e-9);
}

/* Values scaled by a power of 2 (time unchanged): states of 2^±700
 * (10^±210), whose squares overflow or underflow a double, must get the
 * answers of the same polynomials at scale 1: to the bit from the
 * solvers the integrators call on every step, within a few ulps from the
 * general search (which brings the largest coefficient to [1/2, 1), a
 * scale other than the one it is compared with). */
static void
assert_same_time (double s,
                  double expected)
{
  if (expected == QD_INF)
    g_assert_cmpfloat (s, ==, QD_INF);
  else
    g_assert_cmpfloat (fabs (s - expected), <=, 8.0 * DBL_EPSILON * expected);
}

static void
test_value_scales (void)
{
  static const int exponents[] = { -700, -300, -200, 200, 300, 700 };
  GRand *rand = g_rand_new_with_seed (7);

  for (int trial = 0; trial < 500; trial++)
    {
      double dq = g_rand_double_range (rand, 0.5, 2.0);
      double a[4] = {
        g_rand_double_range (rand, -0.99, 0.99) * dq,
        g_rand_double_range (rand, -3.0, 3.0),
        g_rand_double_range (rand, -3.0, 3.0),
        g_rand_double_range (rand, -3.0, 3.0),
      };
      double cross2 = qd_poly_first_crossing (a, 2, dq);
      double cross3 = qd_poly_first_crossing (a, 3, dq);
      double fast2 = qd_poly_crossing_quadratic (a[0], a[1], a[2], dq);
      double fast3 = qd_poly_crossing_cubic (a[0], a[1], a[2], a[3], dq);
      double flat3 = qd_poly_crossing_cubic_flat (a[0], a[1], a[2], a[3], dq);
      double root2 = qd_poly_first_root (a, 2);
      double root3 = qd_poly_first_root (a, 3);
      double quad = qd_poly_first_root_quadratic (a[0], a[1], a[2]);
      double cubic = qd_poly_first_root_cubic (a[0], a[1], a[2], a[3]);

      for (guint i = 0; i < G_N_ELEMENTS (exponents); i++)
        {
          int e = exponents[i];
          double b[4], bdq = ldexp (dq, e);

          for (int k = 0; k < 4; k++)
            b[k] = ldexp (a[k], e);
          assert_same_time (qd_poly_first_crossing (b, 2, bdq), cross2);
          assert_same_time (qd_poly_first_crossing (b, 3, bdq), cross3);
          /* The inline quadratic takes quanta in scale only (its callers
           * leave the others to the general search). */
          if (QD_POLY_IN_SCALE (bdq))
            g_assert_true (memcmp (&(double) { qd_poly_crossing_quadratic (b[0], b[1], b[2], bdq) },
                                   &fast2, sizeof fast2) == 0);
          g_assert_true (memcmp (&(double) { qd_poly_crossing_cubic (b[0], b[1], b[2], b[3], bdq) },
                                 &fast3, sizeof fast3) == 0);
          g_assert_true (memcmp (&(double) { qd_poly_crossing_cubic_flat (b[0], b[1], b[2], b[3], bdq) },
                                 &flat3, sizeof flat3) == 0);
          assert_same_time (qd_poly_first_root (b, 2), root2);
          assert_same_time (qd_poly_first_root (b, 3), root3);
          g_assert_cmpfloat (qd_poly_first_root_quadratic (b[0], b[1], b[2]), ==, quad);
          g_assert_cmpfloat (qd_poly_first_root_cubic (b[0], b[1], b[2], b[3]), ==, cubic);
        }
    }
  g_rand_free (rand);
}

static void
test_random_scaled (void)
{
  /* Random cubics with roots placed at scale T: after rescaling time by T
   * the answer must scale exactly. */
  GRand *rand = g_rand_new_with_seed (99);

  for (int trial = 0; trial < 2000; trial++)
    {
      double T = pow (10.0, g_rand_double_range (rand, -12.0, 6.0));
      double r1 = g_rand_double_range (rand, -2.0, 2.0);
      double r2 = g_rand_double_range (rand, -2.0, 2.0);
      double r3 = g_rand_double_range (rand, -2.0, 2.0);
      double k = g_rand_double_range (rand, 0.1, 10.0);
      /* k (s/T - r1)(s/T - r2)(s/T - r3) */
      double a[4];
      double expect = QD_INF, s;

      a[3] = k / (T * T * T);
      a[2] = -k * (r1 + r2 + r3) / (T * T);
      a[1] = k * (r1 * r2 + r1 * r3 + r2 * r3) / T;
      a[0] = -k * r1 * r2 * r3;
      if (r1 > 0) expect = fmin (expect, r1 * T);
      if (r2 > 0) expect = fmin (expect, r2 * T);
      if (r3 > 0) expect = fmin (expect, r3 * T);
      s = qd_poly_first_root (a, 3);
      assert_sane (s);
      if (isfinite (expect))
        {
          /* Close roots are ill-conditioned: allow the sqrt(eps) of a
           * near-double root. */
          double sep = fmin (fmin (fabs (r1 - r2), fabs (r1 - r3)), fabs (r2 - r3));
          double tol = sep < 1e-3 ? 1e-5 : 1e-9;

          g_assert_cmpfloat (fabs (s - expect), <=, tol * T * (1.0 + fabs (expect / T)));
        }
      else
        g_assert_cmpfloat (s, ==, QD_INF);
    }
  g_rand_free (rand);
}

/* Band crossings of quadratics and cubics (the QSS2 and QSS3 paths) over
 * many orders of magnitude of time and quantum, with terms dropped and a
 * nearly vanishing leading one: at the answer d is on the edge of the
 * band, and before it d stays inside. */
static void
test_crossings_scaled (void)
{
  GRand *rand = g_rand_new_with_seed (31337);

  for (int trial = 0; trial < 40000; trial++)
    {
      int n = 2 + trial % 2;
      double a[4] = { 0, };
      double dq = pow (10.0, g_rand_double_range (rand, -12.0, 2.0));
      double T = pow (10.0, g_rand_double_range (rand, -6.0, 6.0));
      double s;

      a[0] = trial % 7 == 0 ? 0.0 : g_rand_double_range (rand, -dq, dq);
      for (int k = 1; k <= n; k++)
        if (trial % 5 != k)
          a[k] = dq * g_rand_double_range (rand, -1.0, 1.0) / pow (T, k);
      if (trial % 11 == 0)
        a[n] *= 1e-10;
      s = qd_poly_first_crossing (a, n, dq);
      assert_sane (s);
      if (!isfinite (s))
        {
          /* Only a polynomial with no motion at all stays in the band. */
          for (int k = 1; k <= n; k++)
            g_assert_cmpfloat (a[k], ==, 0.0);
          continue;
        }
      g_assert_cmpfloat (fabs (fabs (eval (a, n, s)) - dq), <=,
                         1e-9 * (scale (a, n, s) + dq));
      for (int i = 1; i < 64; i++)
        g_assert_cmpfloat (fabs (eval (a, n, s * i / 64.0)), <=,
                           dq + 1e-9 * (scale (a, n, s) + dq));
    }
  g_rand_free (rand);
}

/* The entry points the integrators call directly, without the general
 * functions' checks: qd_poly_first_root_quadratic() on exact cases (two
 * roots, a double root, a tangency within rounding, none, a root at 0
 * skipped) and against the reference scan; qd_poly_crossing_cubic(),
 * whenever it answers (it may give up with NaN), on the edge of the band
 * at its answer and inside before it, and never later than the general
 * search's answer. */
static void
test_direct_entry_points (void)
{
  GRand *rand = g_rand_new_with_seed (1256);
  int answered = 0;

  /* (s - 1)(s - 2), (s - 1)^2, s^2 + 1, -(s - 3)(s + 1), s (s - 4). */
  g_assert_cmpfloat (qd_poly_first_root_quadratic (2.0, -3.0, 1.0), ==, 1.0);
  g_assert_cmpfloat (qd_poly_first_root_quadratic (1.0, -2.0, 1.0), ==, 1.0);
  g_assert_cmpfloat (qd_poly_first_root_quadratic (1.0, 0.0, 1.0), ==,
                     QD_INF);
  g_assert_cmpfloat (qd_poly_first_root_quadratic (3.0, 2.0, -1.0), ==, 3.0);
  g_assert_cmpfloat (qd_poly_first_root_quadratic (0.0, -4.0, 1.0), ==, 4.0);
  /* (s - 0.1)^2 rounded: the discriminant may come out a hair below 0;
   * the touch is still found. */
  g_assert_cmpfloat_with_epsilon (qd_poly_first_root_quadratic (0.01, -0.2,
                                                                1.0),
                                  0.1, 1e-7);

  for (int trial = 0; trial < 20000; trial++)
    {
      double a[4], dq = pow (10.0, g_rand_double_range (rand, -9.0, 1.0));
      double T = pow (10.0, g_rand_double_range (rand, -4.0, 4.0));
      double s, general;

      for (int k = 0; k < 3; k++)
        a[k] = g_rand_double_range (rand, -1.0, 1.0);
      if (trial % 4 == 0)
        {
          s = qd_poly_first_root_quadratic (a[0], a[1], a[2]);
          check_against_reference (a, 2, 0.0, s,
                                   reference_root (a, 2, 0.0, 10.0, 20000),
                                   10.0);
          continue;
        }
      a[0] = g_rand_double_range (rand, -dq, dq);
      for (int k = 1; k <= 3; k++)
        a[k] = trial % 5 == k ? 0.0
               : dq * g_rand_double_range (rand, -1.0, 1.0) / pow (T, k);
      if (a[3] == 0.0)
        a[3] = dq / pow (T, 3);
      s = qd_poly_crossing_cubic (a[0], a[1], a[2], a[3], dq);
      if (!(s > 0.0 && s < QD_INF))
        continue;
      answered++;
      general = qd_poly_first_crossing (a, 3, dq);
      g_assert_cmpfloat (s, ==, general);
      /* The start for nearly pure cubics moves the answer by ulps at
       * most. */
      g_assert_cmpfloat (fabs (qd_poly_crossing_cubic_flat (a[0], a[1], a[2],
                                                            a[3], dq) - s),
                         <=, 1e-13 * s);
      g_assert_cmpfloat (fabs (fabs (eval (a, 3, s)) - dq), <=,
                         1e-9 * (scale (a, 3, s) + dq));
      for (int i = 1; i < 64; i++)
        g_assert_cmpfloat (fabs (eval (a, 3, s * i / 64.0)), <=,
                           dq + 1e-9 * (scale (a, 3, s) + dq));
    }
  /* It gives up only on rounding trouble, not in the usual case. */
  g_assert_cmpint (answered, >, 14000);

  /* qd_poly_first_root_cubic() against the general search, on x - q as
   * the stiff methods leave it (d0 on a level, the lower terms nearly
   * nil or not): the same roots to within ulps, and the same "none". */
  for (int trial = 0; trial < 20000; trial++)
    {
      double a[4], dq = pow (10.0, g_rand_double_range (rand, -6.0, 0.0));
      double T = pow (10.0, g_rand_double_range (rand, 0.0, 4.0));
      double s, general;

      a[0] = trial % 2 ? dq : -dq;
      for (int k = 1; k <= 3; k++)
        a[k] = dq * g_rand_double_range (rand, -1.0, 1.0) / pow (T, k);
      if (trial % 3 == 1)
        {
          a[1] *= 1e-12;
          a[2] *= 1e-12;
        }
      s = qd_poly_first_root_cubic (a[0], a[1], a[2], a[3]);
      general = qd_poly_first_root (a, 3);
      assert_sane (s);
      if (!isfinite (general))
        g_assert_cmpfloat (s, ==, QD_INF);
      else
        g_assert_cmpfloat (fabs (s - general), <=, 1e-13 * general);
    }
  g_assert_cmpfloat (qd_poly_first_root_cubic (-1.0, 0.0, 0.0, 1.0), ==, 1.0);
  g_assert_cmpfloat (qd_poly_first_root_cubic (1.0, 0.0, 0.0, 1.0), ==,
                     QD_INF);
  g_rand_free (rand);
}

/* QSS3's crossing on cubics whose root is known exactly: d - dq =
 * d3 (s - r) (s^2 + b s + c) with b >= r and c >= r b, so that d rises
 * and bends upward from 0 (no cut: the last piece, where the crossing
 * starts Newton from a Halley step), and dyadic r, b, c, d3, so that
 * every coefficient is exact. The answer must be r to within 2 ulps, the
 * same as the general search's, and never NaN. */
static void
test_exact_cubic_crossings (void)
{
  GRand *rand = g_rand_new_with_seed (90210);
  int within_half_ulp = 0, trials = 20000;

  for (int trial = 0; trial < trials; trial++)
    {
      int e = g_rand_int_range (rand, -20, 20);
      /* Few enough bits that r c is exact. */
      double r = ldexp (g_rand_int_range (rand, 1, 1 << 8), e - 8);
      double b = r + ldexp (g_rand_int_range (rand, 0, 1 << 8), e - 8);
      double c = r * b + ldexp (g_rand_int_range (rand, 0, 1 << 16),
                                2 * e - 16);
      double d3 = ldexp (1.0, g_rand_int_range (rand, -10, 10));
      double a[4], dq, s, ulp;

      /* d3 (s^3 + (b - r) s^2 + (c - r b) s - r c), shifted so that d(0)
       * lies in the band: a0 - dq = -d3 r c with a0 = d3 r c / 2. */
      a[3] = d3;
      a[2] = d3 * (b - r);
      a[1] = d3 * (c - r * b);
      dq = 1.5 * d3 * r * c;
      a[0] = 0.5 * d3 * r * c;
      g_assert_cmpfloat (a[0] - dq, ==, -d3 * r * c);
      s = qd_poly_crossing_cubic (a[0], a[1], a[2], a[3], dq);
      ulp = nextafter (r, QD_INF) - r;
      g_assert_cmpfloat (fabs (s - r), <=, 2.0 * ulp);
      g_assert_cmpfloat (s, ==, qd_poly_first_crossing (a, 3, dq));
      if (fabs (s - r) <= 0.5 * ulp)
        within_half_ulp++;
    }
  /* Newton's last step is a correction, not a guess: nearly every answer
   * is r rounded. */
  g_assert_cmpint (within_half_ulp, >, trials * 9 / 10);
  g_rand_free (rand);
}

/* A micro-benchmark of the calls a quantized integrator makes (run with
 * -m perf): ns per call of qd_poly_first_crossing() on QSS2-like
 * quadratics and QSS3-like cubics, and of qd_poly_first_root(), in
 * processor time. Prints figures; never fails on time. */
#define PERF_SETS 4096

static void
perf_case (const char *label,
           int         n,
           gboolean    crossing,
           double      d1_scale)
{
  GRand *rand = g_rand_new_with_seed (4242);
  double (*a)[4] = g_malloc0 (sizeof (double[4]) * PERF_SETS);
  double *dq = g_new (double, PERF_SETS);
  double sink = 0.0, elapsed, per_call;
  guint reps = 0;
  clock_t start;

  for (int i = 0; i < PERF_SETS; i++)
    {
      dq[i] = g_rand_double_range (rand, 1e-4, 1e-2);
      a[i][0] = crossing ? g_rand_double_range (rand, -dq[i], dq[i])
                         : g_rand_double_range (rand, -1.0, 1.0);
      a[i][1] = d1_scale * g_rand_double_range (rand, -1.0, 1.0);
      for (int k = 2; k <= n; k++)
        a[i][k] = g_rand_double_range (rand, -1.0, 1.0);
    }
  /* Processor time, not wall time: a busy machine shares the cores. */
  start = clock ();
  do
    {
      for (int i = 0; i < PERF_SETS; i++)
        {
          double s = crossing ? qd_poly_first_crossing (a[i], n, dq[i])
                              : qd_poly_first_root (a[i], n);

          sink += isfinite (s) ? s : 0.0;
        }
      reps++;
    }
  while ((elapsed = (double) (clock () - start) / CLOCKS_PER_SEC) < 0.5);
  per_call = elapsed * 1e9 / ((double) reps * PERF_SETS);
  g_test_minimized_result (per_call, "%s: %.1f ns per call", label, per_call);
  g_test_message ("%s: %.1f ns per call (checksum %g)", label, per_call,
                  sink);
  g_free (a);
  g_free (dq);
  g_rand_free (rand);
}

static void
test_perf (void)
{
  if (!g_test_perf ())
    {
      g_test_skip ("a benchmark: run with -m perf");
      return;
    }
  perf_case ("crossing, quadratic (QSS2 after an input)", 2, TRUE, 1.0);
  perf_case ("crossing, quadratic with no linear term", 2, TRUE, 0.0);
  perf_case ("crossing, cubic (QSS3 after an input)", 3, TRUE, 1.0);
  perf_case ("crossing, cubic with no linear term", 3, TRUE, 0.0);
  perf_case ("first root, quadratic", 2, FALSE, 1.0);
  perf_case ("first root, cubic", 3, FALSE, 1.0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/poly/random-roots", test_random_roots);
  g_test_add_func ("/poly/random-crossings", test_random_crossings);
  g_test_add_func ("/poly/random-scaled", test_random_scaled);
  g_test_add_func ("/poly/crossings-scaled", test_crossings_scaled);
  g_test_add_func ("/poly/direct-entry-points", test_direct_entry_points);
  g_test_add_func ("/poly/exact-cubic-crossings",
                   test_exact_cubic_crossings);
  g_test_add_func ("/poly/double-roots", test_double_roots);
  g_test_add_func ("/poly/tangency", test_tangency);
  g_test_add_func ("/poly/vanishing-leading", test_vanishing_leading);
  g_test_add_func ("/poly/roots-at-zero", test_roots_at_zero);
  g_test_add_func ("/poly/constants", test_constants);
  g_test_add_func ("/poly/scales", test_scales);
  g_test_add_func ("/poly/value-scales", test_value_scales);
  g_test_add_func ("/poly/perf", test_perf);

  return g_test_run ();
}

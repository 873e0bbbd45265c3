/* qd-integrator-quartic.c: the crossings of QSS4's state
 *
 * QSS4's x is a quartic, one degree above what the engine's root finders
 * (qd-poly.h, degree 3 at most) take: a signal has at most four Taylor
 * coefficients, and only the state of a fourth-order integrator has a
 * fifth. After its own requantization x - q = x4 s^4 and the crossing is
 * in closed form (qd-block-integrator.c); after a new derivative the
 * whole quartic x - q is solved here for the first s > 0 with
 * |x - q| = dQ.
 *
 * The method is the one qd-poly.c describes for cubics, made recursive:
 * the half-line is cut at the real roots of p' (found the same way from
 * p'', down to a line), so that p is monotone on each piece and holds at
 * most one root there, present when p changes sign over it; the pieces
 * are taken in order. The last piece ends at Cauchy's bound on the
 * moduli of the roots, 1 + max |p_k / p_n|. Inside a piece, Newton kept
 * inside the bracket, with bisection where it strays or stalls, to the
 * last bits. A value
 * at a cut within the rounding of evaluating p there counts as a root
 * (a touch), so that a tangency is not lost to rounding. Scaling all
 * coefficients and dQ by a power of 2 changes no step of this, so states
 * of any size take the same steps.
 */
#include <float.h>
#include <math.h>

#include "qd-integrator-private.h"

#define QUARTIC_DEGREE 4

/* p(s) and the rounding error bound of computing it. */
static double
evaluate (const double *p,
          int           n,
          double        s,
          double       *error)
{
  double v = p[n], size = fabs (p[n]);

  for (int k = n - 1; k >= 0; k--)
    {
      v = v * s + p[k];
      size = size * fabs (s) + fabs (p[k]);
    }
  if (error != NULL)
    *error = 8.0 * DBL_EPSILON * size;
  return v;
}

/* The root of p in (a, b), where p(a) and p(b) have opposite signs, to
 * the last bits: Newton from the middle, kept inside the bracket, which
 * each evaluation narrows; a bisection whenever a Newton step would leave
 * it or does not halve the last step. */
static double
refine_root (const double *p,
             int           n,
             double        a,
             double        b)
{
  gboolean a_negative = evaluate (p, n, a, NULL) < 0.0;
  double s = 0.5 * (a + b), last = b - a;

  for (int i = 0; i < 2200; i++)
    {
      double v = evaluate (p, n, s, NULL), slope = p[n] * n, next, step;

      if (v == 0.0)
        return s;
      if ((v < 0.0) == a_negative)
        a = s;
      else
        b = s;
      for (int k = n - 1; k >= 1; k--)
        slope = slope * s + k * p[k];
      next = s - v / slope;
      step = fabs (next - s);
      if (!(next > a && next < b) || !(2.0 * step < last))
        {
          next = 0.5 * (a + b);
          step = 0.5 * (b - a);
        }
      if (!(next > a && next < b) || step <= 2.0 * DBL_EPSILON * fabs (next))
        return next > a && next < b ? next : s;
      last = step;
      s = next;
    }
  return s;
}

/* The real roots of p (degree n at most QUARTIC_DEGREE) in (lo, hi), in
 * ascending order, in @roots; returns how many. */
static int
roots_between (const double *p,
               int           n,
               double        lo,
               double        hi,
               double       *roots)
{
  double dp[QUARTIC_DEGREE], cuts[QUARTIC_DEGREE + 1];
  int n_cuts, count = 0;

  while (n > 0 && p[n] == 0.0)
    n--;
  if (n == 0)
    return 0;
  if (n == 1)
    {
      double s = -p[0] / p[1];

      if (s > lo && s < hi)
        roots[count++] = s;
      return count;
    }
  for (int k = 0; k < n; k++)
    dp[k] = (k + 1) * p[k + 1];
  cuts[0] = lo;
  n_cuts = 1 + roots_between (dp, n - 1, lo, hi, cuts + 1);
  cuts[n_cuts] = hi;
  for (int i = 0; i < n_cuts; i++)
    {
      double a = cuts[i], b = cuts[i + 1], error;
      double fa = evaluate (p, n, a, &error), fb = evaluate (p, n, b, NULL);

      if (i > 0 && fabs (fa) <= error)
        {
          /* At a critical point, zero within rounding: a touch. */
          roots[count++] = a;
          continue;
        }
      if (fa != 0.0 && fb != 0.0 && (fa < 0.0) != (fb < 0.0))
        roots[count++] = refine_root (p, n, a, b);
    }
  return count;
}

/* The smallest s > 0 with p(s) = 0, for p of degree n. */
static double
first_root (const double *p,
            int           n)
{
  double roots[QUARTIC_DEGREE], bound = 0.0;

  while (n > 0 && p[n] == 0.0)
    n--;
  if (n == 0)
    return QD_INF;
  for (int k = 0; k < n; k++)
    bound = fmax (bound, fabs (p[k] / p[n]));
  bound = 1.0 + bound;
  if (!isfinite (bound))
    bound = DBL_MAX;
  /* A root at the bound itself is a root of modulus equal to it, which
   * Cauchy's bound excludes; the open interval loses nothing. */
  if (roots_between (p, n, 0.0, bound, roots) > 0)
    return roots[0];
  return QD_INF;
}

double
qd_integrator_quartic_crossing (const double *d,
                                double        dq)
{
  double p[QUARTIC_DEGREE + 1], up, down;

  for (int k = 0; k <= QUARTIC_DEGREE; k++)
    if (!isfinite (d[k]))
      return QD_INF;
  if (fabs (d[0]) > dq)
    return 0.0;
  if (fabs (d[0]) == dq)
    {
      /* On the edge: at once if moving outward (the first non-zero
       * derivative has the sign of d), else the next crossing. */
      for (int k = 1; k <= QUARTIC_DEGREE; k++)
        if (d[k] != 0.0)
          {
            if ((d[k] > 0.0) == (d[0] > 0.0))
              return 0.0;
            break;
          }
    }
  for (int k = 0; k <= QUARTIC_DEGREE; k++)
    p[k] = d[k];
  p[0] = d[0] - dq;
  up = first_root (p, QUARTIC_DEGREE);
  p[0] = d[0] + dq;
  down = first_root (p, QUARTIC_DEGREE);
  return up < down ? up : down;
}

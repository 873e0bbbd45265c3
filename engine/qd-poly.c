/* qd-poly.c: polynomial root finding for quantized integrators and
 * crossing detectors
 *
 * The numerical approach.
 *
 * Degree 1 and 2 are solved in closed form. The quadratic uses the stable
 * formula: with q = -(b + sign(b) sqrt(b^2 - 4ac)) / 2 the roots are q/a
 * and c/q, so the small root never suffers cancellation and a vanishing
 * leading coefficient a only pushes the other root (q/a) out towards
 * infinity instead of destroying the small one; the degree therefore
 * degrades smoothly and a == 0 is the linear case. A discriminant that is
 * negative by no more than its own rounding error is a tangency (a double
 * root), reported as a touch.
 *
 * Cubics are not solved by Cardano's formula: dividing by a tiny leading
 * coefficient loses every digit of the small roots, which are the only ones
 * a quantized integrator cares about. Instead the half-line [0, inf) is cut
 * at the positive roots of p' (a quadratic, solved as above) and at the
 * inflection point -a2 / (3 a3). On each piece p is monotone with a fixed
 * convexity, so a piece holds at most one root, present exactly when p
 * changes sign over it; the pieces are searched in order and the first
 * root found is the answer. A tiny leading coefficient only places some
 * cut points far away, beyond the root that matters: that is how the
 * degree degrades, without a threshold. The last piece is bounded by
 * Fujiwara's bound on the moduli of the roots, 2 max |a_k / a_n|^(1/(n-k)),
 * computed with logarithms so that it cannot overflow.
 *
 * Inside a piece, a safeguarded local-quadratic Newton: from the lower end,
 * the step solves the second-order Taylor model of p (cubic convergence,
 * and it works from a critical point where p' = 0 and Newton cannot
 * start); when a step falls outside the bracket or does not shrink fast
 * enough, the bracket is bisected instead, geometrically when its ends
 * differ by orders of magnitude (so a root at 1e-12 s inside a bracket
 * reaching 1e6 s is found in a few dozen steps) and arithmetically
 * otherwise. The iteration count is capped, so the cost is bounded
 * whatever the coefficients.
 *
 * Touches: a value of p at a critical point within the rounding error of
 * evaluating p there (a few ulps of the sum of |a_k s^k|) counts as zero,
 * so a tangency that rounding would turn into a near miss is still found.
 *
 * qd_poly_first_crossing() is the earlier of the first roots of p - dq
 * and p + dq; the second search stops at the first one's answer, so a
 * far crossing of the other edge costs nothing. That general search is
 * the fallback: the quadratics and cubics of QSS2 and QSS3, starting
 * inside the band, take the specialised paths described with their code
 * below (a closed form for the quadratic, monotone Newton on the cubic's
 * pieces), several times cheaper.
 *
 * Scale: the solvers square and multiply coefficients, which overflows
 * for states beyond about 10^154 and underflows below about 10^-154. A
 * quantum (for the crossings) or a largest coefficient (for the roots)
 * outside 2^-256 .. 2^256 therefore has every coefficient, and the
 * quantum, multiplied by the power of 2 that brings it to [1/2, 1) first:
 * the roots do not move, and since a power of 2 changes no rounding
 * within the range, a model inside it gets the same answers to the bit
 * as before this step existed. Each solver rescales on entry, except
 * the inline quadratic crossing, whose callers test the quantum and
 * leave it to their fallback, the general search, which rescales (and
 * then calls it).
 *
 * Roots at zero: qd_poly_first_root() returns roots s > 0 only; a root at
 * s = 0 is skipped. qd_poly_first_crossing() decides at s = 0 itself: when
 * |p(0)| > dq the state has already left the band and the answer is 0;
 * when |p(0)| = dq exactly the answer is 0 only if p moves outward (the
 * first non-zero derivative at 0 has the sign of p(0)), otherwise the next
 * crossing s > 0. So a state sitting on the edge of its band and moving
 * inward never returns 0 forever.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "qd-poly.h"

/* The power of 2 that takes the positive, finite @v to [1/2, 1). */
static double
unit_scale (double v)
{
  int e;

  frexp (v, &e);
  return ldexp (1.0, -e);
}

/* The largest |a[k]|, k <= n. */
static double
largest_coefficient (const double *a,
                     int           n)
{
  double m = 0.0;

  for (int k = 0; k <= n; k++)
    m = fmax (m, fabs (a[k]));
  return m;
}

/* Enough for geometric then arithmetic bisection across the whole range
 * of doubles; Newton usually ends the search in a handful. */
#define MAX_ITERATIONS 300

static inline double
poly_eval (const double *a,
           int           n,
           double        s)
{
  double v = a[n];

  for (int k = n - 1; k >= 0; k--)
    v = v * s + a[k];
  return v;
}

/* A bound on the rounding error of evaluating p at s. */
static inline double
poly_eval_error (const double *a,
                 int           n,
                 double        s)
{
  double sum = 0.0, sk = 1.0;

  for (int k = 0; k <= n; k++)
    {
      sum += fabs (a[k]) * sk;
      sk *= s;
    }
  return 4.0 * (n + 1) * DBL_EPSILON * sum;
}

static inline int
sign_of (double v)
{
  return (v > 0.0) - (v < 0.0);
}

/* The two roots of c + b s + a s^2 (a != 0, @disc = b^2 - 4ac > 0),
 * @lo <= @hi: q / a and c / q with q = -(b + sign(b) sqrt(disc)) / 2,
 * which adds no two terms of opposite sign, so neither root loses its
 * digits to cancellation. */
static inline void
distinct_roots (double  a,
                double  b,
                double  c,
                double  disc,
                double *lo,
                double *hi)
{
  double q = -0.5 * (b + copysign (sqrt (disc), b));
  double r1 = q / a;
  double r2 = q != 0.0 ? c / q : 0.0;

  /* A swap when out of order (not MIN and MAX, which would treat a NaN
   * differently). */
  *lo = r1 > r2 ? r2 : r1;
  *hi = r1 > r2 ? r1 : r2;
}

/* Roots of c + b s + a s^2 (a may be 0), sorted; returns how many (0-2).
 * A double root is returned once. */
static int
quadratic_roots (double  a,
                 double  b,
                 double  c,
                 double *roots)
{
  double disc, r1, r2;

  if (a == 0.0)
    {
      if (b == 0.0)
        return 0;
      roots[0] = -c / b;
      return 1;
    }

  disc = b * b - 4.0 * a * c;
  if (disc < 0.0)
    {
      /* Within rounding of zero: a tangency, a double root. */
      if (-disc <= 8.0 * DBL_EPSILON * (b * b + fabs (4.0 * a * c)))
        {
          roots[0] = -b / (2.0 * a);
          return 1;
        }
      return 0;
    }
  if (disc == 0.0)
    {
      roots[0] = -b / (2.0 * a);
      return 1;
    }

  distinct_roots (a, b, c, disc, &r1, &r2);
  roots[0] = r1;
  if (r2 == r1)
    return 1;
  roots[1] = r2;
  return 2;
}

/* The one root of p in (lo, hi], where p is monotone with constant
 * convexity, p(lo) and p(hi) have opposite signs or p(hi) == 0. */
static double
solve_bracket (const double *a,
               int           n,
               double        lo,
               double        hi,
               double        plo,
               double        phi)
{
  double x = lo, fx = plo;
  double step = 2.0 * (hi - lo), step_old = 2.0 * (hi - lo);
  int slo = sign_of (plo);

  if (phi == 0.0)
    return hi;

  for (int i = 0; i < MAX_ITERATIONS; i++)
    {
      double d1 = 0.0, d2 = 0.0, xn = 0.0, h[2];
      gboolean ok = FALSE;
      int m;

      /* p, p' and p''/2 at x. */
      for (int k = n; k >= 0; k--)
        {
          if (k >= 2)
            d2 = d2 * x + a[k] * k * (k - 1) / 2.0;
          if (k >= 1)
            d1 = d1 * x + a[k] * k;
        }

      /* The root of the local quadratic model f + f' h + (f''/2) h^2
       * (exact for a quadratic, cubically convergent for a cubic); it
       * copes with f' = 0 at a critical point, where Newton cannot. */
      m = quadratic_roots (d2, d1, fx, h);
      for (int j = 0; j < m && !ok; j++)
        {
          double c = x + h[j];

          /* x is within rounding of the root (which may sit an ulp from
           * the end of the bracket, where no step can land inside). */
          if (x > 0.0 && fabs (h[j]) <= 4.0 * DBL_EPSILON * x)
            return c > lo ? c : x;
          if (c > lo && c < hi)
            {
              xn = c;
              ok = TRUE;
            }
        }
      if (!ok && d1 != 0.0)
        {
          xn = x - fx / d1;
          ok = xn > lo && xn < hi;
        }
      /* Safeguard: the steps must at least halve every other iteration. */
      if (ok && fabs (xn - x) > 0.5 * step_old)
        ok = FALSE;

      if (ok)
        {
          if (fabs (xn - x) <= 2.0 * DBL_EPSILON * fabs (xn))
            return xn;
          step_old = step;
          step = fabs (xn - x);
        }
      else
        {
          /* Bisection: geometric when the ends are orders of magnitude
           * apart, so a tiny root inside a huge bracket is reached in few
           * steps. */
          if (lo <= 0.0)
            xn = hi > 1.0 ? fmin (1.0, 0.5 * hi) : hi * 0x1p-20;
          else if (hi > 16.0 * lo)
            xn = sqrt (lo) * sqrt (hi);
          else
            xn = 0.5 * (lo + hi);
          if (!(xn > lo && xn < hi))
            xn = 0.5 * (lo + hi);
          step_old = step;
          step = hi - lo;
        }

      x = xn;
      fx = poly_eval (a, n, x);
      if (fx == 0.0)
        return x;
      if (sign_of (fx) == slo)
        lo = x;
      else
        hi = x;

      /* Converged: the bracket is down to a couple of ulps. */
      if (hi - lo <= 4.0 * DBL_EPSILON * hi)
        break;
    }

  /* Return the end that is past the root, so a caller scheduling an event
   * there sees the condition already met. */
  return hi;
}

/* Fujiwara's bound on the moduli of the roots of p (a[n] != 0). */
static double
root_bound (const double *a,
            int           n)
{
  double lan = log (fabs (a[n]));
  double best = -HUGE_VAL;

  for (int k = 0; k < n; k++)
    {
      double l;

      if (a[k] == 0.0)
        continue;
      l = (log (fabs (a[k])) - lan) / (n - k);
      if (k == 0)
        l -= log (2.0) / n;
      if (l > best)
        best = l;
    }
  if (best == -HUGE_VAL)
    return 0.0;
  return 2.0 * exp (fmin (best, 700.0));
}

/* quadratic_roots() for a != 0 with the first positive, finite root
 * taken at once: the same operations, without the array and the loop
 * (the stiff integrators call it on every transition). */
double
qd_poly_first_root_quadratic (double a0,
                              double a1,
                              double a2)
{
  double disc, r1, r2;
  double m = fmax (fmax (fabs (a0), fabs (a1)), fabs (a2));

  if (G_UNLIKELY (!QD_POLY_IN_SCALE (m)) && isfinite (m) && m > 0.0)
    {
      double scale = unit_scale (m);

      return qd_poly_first_root_quadratic (a0 * scale, a1 * scale,
                                           a2 * scale);
    }
  disc = a1 * a1 - 4.0 * a2 * a0;

  if (disc < 0.0)
    {
      if (!(-disc <= 8.0 * DBL_EPSILON * (a1 * a1 + fabs (4.0 * a2 * a0))))
        return QD_INF;
      disc = 0.0;
    }
  if (disc == 0.0)
    {
      /* A double root (or a tangency within rounding). */
      r1 = -a1 / (2.0 * a2);
      return r1 > 0.0 && isfinite (r1) ? r1 : QD_INF;
    }
  distinct_roots (a2, a1, a0, disc, &r1, &r2);
  if (r1 > 0.0 && isfinite (r1))
    return r1;
  return r2 > 0.0 && isfinite (r2) ? r2 : QD_INF;
}

/* The smallest root s > 0 of p, or QD_INF; roots beyond @limit may be
 * reported as QD_INF (a caller taking a minimum needs no more). */
static double
first_root_below (const double *a,
                  int           degree,
                  double        limit)
{
  double cuts[4];
  int n = degree, n_cuts = 0;
  double lo, plo;

  if (n > QD_MAX_ORDER)
    n = QD_MAX_ORDER;
  while (n > 0 && a[n] == 0.0)
    n--;
  for (int k = 0; k <= n; k++)
    if (!isfinite (a[k]))
      return QD_INF;
  if (n == 0)
    return QD_INF;
  {
    double m = largest_coefficient (a, n);

    if (!QD_POLY_IN_SCALE (m))
      {
        double scale = unit_scale (m), b[QD_MAX_ORDER + 1];

        for (int k = 0; k <= n; k++)
          b[k] = a[k] * scale;
        return first_root_below (b, n, limit);
      }
  }

  if (n == 1)
    {
      double s = -a[0] / a[1];
      return s > 0.0 && isfinite (s) ? s : QD_INF;
    }

  if (n == 2)
    return qd_poly_first_root_quadratic (a[0], a[1], a[2]);

  /* Cubic: cut [0, inf) where p' vanishes or p'' changes sign. */
  {
    double croots[2];
    int m = quadratic_roots (3.0 * a[3], 2.0 * a[2], a[1], croots);
    double infl = -a[2] / (3.0 * a[3]);

    for (int i = 0; i < m; i++)
      if (croots[i] > 0.0 && isfinite (croots[i]))
        cuts[n_cuts++] = croots[i];
    if (infl > 0.0 && isfinite (infl))
      {
        int j = n_cuts;

        while (j > 0 && cuts[j - 1] > infl)
          {
            cuts[j] = cuts[j - 1];
            j--;
          }
        cuts[j] = infl;
        n_cuts++;
      }
  }

  lo = 0.0;
  plo = a[0];
  for (int i = 0; i < n_cuts; i++)
    {
      double c = cuts[i];
      double pc;

      if (c <= lo)
        continue;
      if (c > limit)
        break;
      pc = poly_eval (a, n, c);
      /* Zero within the rounding error of evaluating p: a touch (at a
       * critical point) or a root within rounding of the cut. */
      if (fabs (pc) <= poly_eval_error (a, n, c))
        pc = 0.0;
      if (pc == 0.0)
        return c;
      if (plo != 0.0 && sign_of (pc) != sign_of (plo))
        return solve_bracket (a, n, lo, c, plo, pc);
      lo = c;
      plo = pc;
    }

  /* The last piece is monotone up to infinity (or the next cut, when the
   * search stopped at @limit): a root there exactly when p(lo) is on the
   * other side of zero from p at the end. A root at lo == 0 (p(0) == 0)
   * is skipped: the piece is monotone, so no other root lies in it. */
  if (plo == 0.0)
    return QD_INF;
  {
    double hi, phi;

    if (isfinite (limit))
      {
        hi = limit;
        phi = poly_eval (a, n, hi);
        if (phi != 0.0 && sign_of (phi) == sign_of (plo))
          return QD_INF;
      }
    else
      {
        if (sign_of (plo) == sign_of (a[n]))
          return QD_INF;
        hi = fmax (root_bound (a, n), 2.0 * lo);
        phi = poly_eval (a, n, hi);
        for (int i = 0; i < 64 && sign_of (phi) == sign_of (plo); i++)
          {
            hi *= 2.0;
            phi = poly_eval (a, n, hi);
          }
        if (sign_of (phi) == sign_of (plo) || !isfinite (hi))
          return QD_INF;
      }
    return solve_bracket (a, n, lo, hi, plo, phi);
  }
}

double
qd_poly_first_root (const double *a,
                    int           degree)
{
  return first_root_below (a, degree, QD_INF);
}

/* ---- fast paths for the band crossings of QSS2 and QSS3 ---------------
 *
 * A quantized integrator asks, after every input event, for the first
 * s > 0 with |d(s)| = dq, d = x - q, starting inside the band (|d(0)| <
 * dq). That is the hot path of a simulation, so degrees 2 and 3 have
 * specialised solvers; they return NaN for anything unusual (non-finite
 * values, a stalled iteration), and the general search above answers
 * instead.
 *
 * The band is symmetric, so d may be negated: the leading coefficient is
 * made positive.
 *
 * Quadratic (QSS2), a2 > 0: d is convex. The upper edge is always
 * reached; the lower edge first exactly when d falls to it, which is
 * possible only while decreasing (a1 < 0) and happens at the smaller root
 * of d + dq. Each case is one stable closed form (no cancellation: the
 * square root is added to a number of the same sign), so one square root
 * answers, two at most.
 *
 * Cubic (QSS3), a3 > 0: the critical points c1 < c2 (local maximum and
 * minimum, when real) and the inflection point si cut [0, inf) into
 * pieces where d is monotone with a fixed convexity. The pieces are walked
 * in order; d at each cut says whether the band is left in that piece
 * (through the upper edge while increasing, the lower one while
 * decreasing). There the root is unique, and Newton's iteration started
 * from the end where (d - edge) d'' >= 0 (Fourier's condition) converges
 * monotonically, without leaving the piece, and quadratically. That end
 * is never a critical point, where Newton could not start: at a critical
 * end the condition fails whenever the piece holds the root. The last
 * piece is unbounded; there the positive root of the quadratic Taylor
 * model of d at the piece's start lies past the root, because the third
 * derivative 6 a3 > 0 makes the model fall short of d, and one Halley
 * step from it (with d's value there known without evaluating d) gives
 * Newton a start a few digits closer; the model's root still bounds the
 * bracket of the fallback. */

/* Newton on a piece [lo, hi] of monotone, fixed convexity, from x; NaN
 * when rounding stalls it (the caller falls back). The coefficients come
 * as four numbers rather than an array, so that they stay in registers
 * across the iterations; 3 f3 and 2 f2 are the same products in every
 * iteration and are formed once.
 *
 * Each iteration is on the hot path of QSS3 (several per crossing), so it
 * does only what decides the result: v == 0 needs no test of its own,
 * as the step is then exactly 0 and the stopping test returns x (only
 * dv == 0 has to be told apart from it); and lo >= 0 (the pieces lie in
 * [0, inf)) with xn >= lo makes fabs (xn) plain xn. The iterates and the
 * answer are those of the textbook loop, to the bit. */
static inline double
cubic_newton (double f0,
              double f1,
              double f2,
              double f3,
              double lo,
              double hi,
              double x)
{
  double f3x3 = 3.0 * f3, f2x2 = 2.0 * f2;

  for (int i = 0; i < 64; i++)
    {
      double v = ((f3 * x + f2) * x + f1) * x + f0;
      double dv = (f3x3 * x + f2x2) * x + f1;
      double xn;

      if (dv == 0.0)
        return v == 0.0 ? x : NAN;
      xn = x - v / dv;
      if (!(xn >= lo && xn <= hi))
        return v == 0.0 ? x : NAN;      /* v == 0 with dv NaN */
      if (fabs (xn - x) <= 4.0 * DBL_EPSILON * xn)
        return xn;
      x = xn;
    }
  return NAN;
}

/* Where Newton starts on the last piece, given h, the root of the
 * quadratic Taylor model there, and c = -f(lo) / f3 > 0; asked only when
 * the cubic term at h outweighs the whole drop the model covers, the sign
 * that the model is far off (so the usual case costs one test). Both h and the
 * root of the cubic term alone, c^(1/3), lie past the root (each model
 * leaves out terms that are >= 0 there). When the linear and quadratic
 * terms are almost nil, as for x - q right after a stiff method's
 * requantization, h lies far beyond the root, and Newton approaches a
 * cubic's root by only a third of the distance per step: dozens of
 * steps. The nearer start is taken. The cube root needs few digits: the
 * exponent divided by three on the bit pattern, then one Newton step of
 * t^3 = c. */
static inline double
cubic_start (double h,
             double c)
{
  guint64 bits;
  double t;

  if (!(c > DBL_MIN && c < DBL_MAX))
    return h;
  memcpy (&bits, &c, sizeof bits);
  bits = bits / 3 + G_GUINT64_CONSTANT (0x2a9f7893782da1ce);
  memcpy (&t, &bits, sizeof t);
  t = (2.0 * t + c / (t * t)) * (1.0 / 3.0);
  return t < h ? t : h;
}

/* The root of f = d - edge in (lo, hi], where f(lo) = flo and f(hi) = fhi
 * have opposite signs (or fhi == 0). */
static double
cubic_piece (const double *f,
             double        lo,
             double        hi,
             double        flo,
             double        fhi)
{
  double mid = 0.5 * (lo + hi);
  double curvature = 3.0 * f[3] * mid + f[2];
  double s;

  double g1 = (3.0 * f[3] * lo + 2.0 * f[2]) * lo + f[1];
  double g2 = 3.0 * f[3] * lo + f[2];
  double h[2];
  int m;

  if (fhi == 0.0)
    return hi;
  /* The good end may be far from a root near lo (the common case of a
   * quantum crossed soon): first from the root of the quadratic Taylor
   * model at lo, usually a few ulps from the answer. Started on the wrong
   * side, Newton's first step crosses the root and the rest is monotone;
   * if it leaves the piece instead, the good end takes over. */
  m = quadratic_roots (g2, g1, flo, h);
  s = NAN;
  for (int i = 0; i < m; i++)
    if (h[i] > 0.0)
      {
        if (lo + h[i] < hi)
          s = cubic_newton (f[0], f[1], f[2], f[3], lo, hi, lo + h[i]);
        break;
      }
  if (isnan (s))
    s = cubic_newton (f[0], f[1], f[2], f[3], lo, hi,
                      flo * curvature >= 0.0 ? lo : hi);
  if (isnan (s))
    s = solve_bracket (f, 3, lo, hi, flo, fhi);
  return s;
}

/* Written on four numbers (not an array, which made every coefficient a
 * load and a store through memory) because QSS3 calls it after every
 * input; the operations are those of the description above, in that
 * order, so the result does not depend on the way in. @flat: the start
 * on the last piece may be cubic_start()'s (for the stiff methods). */
/* The places in (0, inf) that cut the cubic d0 + d1 s + d2 s^2 + d3 s^3
 * (d3 > 0) into monotone pieces of one curvature: its critical points
 * (by the stable formula) and its inflection point @inflection, in
 * increasing order, into @cuts; returns how many. Shared by the crossing
 * and the root of a cubic, which then search piece by piece. */
static inline int
cubic_cuts (double  d1,
            double  d2,
            double  d3,
            double  cuts[3],
            double *inflection)
{
  double disc = d2 * d2 - 3.0 * d3 * d1;
  double inv3, si;
  int n = 0;

  /* Most crossings of QSS3 have no cut at all (d increasing and convex
   * from 0): with d3 > 0 the inflection point is positive only when d2 <
   * 0, so that case is told without the division. The callers compare
   * @inflection with the cuts only, and there are none. */
  if (!(disc > 0.0) && !(d2 < 0.0) && d3 > 0.0)
    {
      *inflection = NAN;
      return 0;
    }
  inv3 = 1.0 / (3.0 * d3);
  si = -d2 * inv3;
  *inflection = si;
  if (disc > 0.0)
    {
      double q = -(d2 + copysign (sqrt (disc), d2));
      double r1 = q * inv3, r2 = d1 / q;
      /* fmin() and fmax() without the library calls: the same values,
       * NaN included (a NaN operand gives the other one). */
      double c1 = r1 < r2 || isnan (r2) ? r1 : r2;
      double c2 = r1 > r2 || isnan (r2) ? r1 : r2;

      if (c1 > 0.0)
        cuts[n++] = c1;
      if (si > 0.0)
        cuts[n++] = si;
      if (c2 > 0.0)
        cuts[n++] = c2;
    }
  else if (si > 0.0)
    cuts[n++] = si;
  return n;
}

/* The first step of the search on the last piece of a cubic (from @lo,
 * where it is increasing and convex, to infinity), whose value at @lo is
 * @v < 0: the positive root of its quadratic expansion at @lo, or of the
 * cubic term alone where that has none. */
static inline double
last_piece_step (double d1,
                 double d2,
                 double d3,
                 double lo,
                 double v)
{
  double g1 = (3.0 * d3 * lo + 2.0 * d2) * lo + d1;
  double g2 = 3.0 * d3 * lo + d2;

  if (g2 > 0.0)
    return -2.0 * v / (g1 + sqrt (g1 * g1 - 4.0 * g2 * v));
  if (g1 > 0.0)
    return -v / g1;
  return cbrt (-v / d3);
}

/* A better start for Newton on the last piece: one Halley step from lo +
 * @h, where @h is last_piece_step()'s root of the quadratic expansion at
 * lo (so g2 > 0 here). That root lies past the root of the cubic by
 * some 9 % (median) on QSS3's crossings, and Newton needs five
 * iterations from there; Halley's step (third order) leaves some 1e-4
 * and saves one or two of them for one division. It costs no evaluation
 * of the cubic: the expansion at lo is exact, f (lo + h) = g0 + g1 h +
 * g2 h^2 + d3 h^3, and h zeroes the first three terms, so f (lo + h) is
 * d3 h^3, without the cancellation an evaluation would suffer. Newton
 * then decides the answer with its usual stopping rule (so the result's
 * guarantees are Newton's: the piece holds one root, and the answer is
 * on the edge within rounding); the step is kept only when it moves
 * towards lo and stays past it, otherwise @h is returned unchanged.
 * (Stopping Newton one iteration earlier, when the last step predicts
 * convergence, was tried: the answers came out slightly less accurate,
 * the confirming step being a genuine correction.) */
static inline double
last_piece_halley (double d1,
                   double d2,
                   double d3,
                   double lo,
                   double h)
{
  double g1 = (3.0 * d3 * lo + 2.0 * d2) * lo + d1;
  double g2 = 3.0 * d3 * lo + d2;
  double v, c2, dv, t;

  if (!(g2 > 0.0))
    return h;
  v = d3 * h * h * h;
  c2 = g2 + 3.0 * d3 * h;               /* f'' / 2 at lo + h */
  dv = g1 + (g2 + c2) * h;              /* f' at lo + h */
  t = h - v * dv / (dv * dv - v * c2);
  return t > 0.0 && t <= h ? t : h;
}

static inline double
crossing_cubic (double   a0,
                double   a1,
                double   a2,
                double   a3,
                double   dq,
                gboolean flat)
{
  double cuts[3];
  double lo = 0.0, vlo, si, sign;
  double d0, d1, d2, d3;
  int n_cuts;

  if (!QD_POLY_IN_SCALE (dq))
    {
      double scale;

      if (!(dq > 0.0 && dq < QD_INF))
        return NAN;
      scale = unit_scale (dq);
      return crossing_cubic (a0 * scale, a1 * scale, a2 * scale, a3 * scale,
                             dq * scale, flat);
    }
  /* The leading coefficient made positive: multiplying by -1 is the
   * same negation, without a branch that is a coin toss. */
  sign = a3 > 0.0 ? 1.0 : -1.0;
  d0 = a0 * sign;
  d1 = a1 * sign;
  d2 = a2 * sign;
  d3 = a3 * sign;

  n_cuts = cubic_cuts (d1, d2, d3, cuts, &si);
  vlo = d0;
  for (int i = 0; i < n_cuts; i++)
    {
      double d[4] = { d0, d1, d2, d3 };
      double f[4];
      double c = cuts[i];
      double vc = ((d3 * c + d2) * c + d1) * c + d0;
      double edge;

      if (!isfinite (vc))
        return NAN;
      if (c <= lo)
        continue;
      /* A touch of an edge at a critical point, within the rounding of
       * evaluating d there, is a crossing (as in the general search). */
      if (c != si && fabs (fabs (vc) - dq) <= poly_eval_error (d, 3, c))
        return c;
      if (vc >= dq)
        edge = dq;
      else if (vc <= -dq)
        edge = -dq;
      else
        {
          lo = c;
          vlo = vc;
          continue;
        }
      f[0] = d0 - edge;
      f[1] = d1;
      f[2] = d2;
      f[3] = d3;
      return cubic_piece (f, lo, c, vlo - edge, vc - edge);
    }

  /* The last piece: increasing and convex to infinity; the upper edge. */
  {
    double flo = vlo - dq;
    double f0 = d0 - dq;
    double h = last_piece_step (d1, d2, d3, lo, flo), s;

    /* h > 0 and finite (NaN fails both comparisons). */
    if (!(h > 0.0 && h < QD_INF))
      return NAN;
    if (flat && d3 * h * h * h > -flo)
      h = cubic_start (h, -flo / d3);
    /* Halley's start may fall short of the root, so the fallback below
     * keeps h, which is past it. */
    s = cubic_newton (f0, d1, d2, d3, lo, QD_INF,
                      lo + (flat ? h : last_piece_halley (d1, d2, d3, lo, h)));
    if (isnan (s))
      {
        double f[4] = { f0, d1, d2, d3 };
        double hi = lo + h;
        double fhi = ((f[3] * hi + f[2]) * hi + f[1]) * hi + f[0];

        if (!(fhi >= 0.0) || !isfinite (fhi))
          return NAN;
        s = solve_bracket (f, 3, lo, hi, flo, fhi);
      }
    return s;
  }
}

double
qd_poly_crossing_cubic (double a0,
                        double a1,
                        double a2,
                        double a3,
                        double dq)
{
  return crossing_cubic (a0, a1, a2, a3, dq, FALSE);
}

double
qd_poly_crossing_cubic_flat (double a0,
                             double a1,
                             double a2,
                             double a3,
                             double dq)
{
  return crossing_cubic (a0, a1, a2, a3, dq, TRUE);
}

/* The first root s > 0 of a cubic, by the same pieces and the same
 * Newton search as the crossing above, with the edge at 0: the stiff
 * integrators ask for it on every transition, and the general search's
 * root bound (logarithms) and bracketing iteration cost several times
 * as much. Both stop within a few ulps of the root. */
double
qd_poly_first_root_cubic (double a0,
                          double a1,
                          double a2,
                          double a3)
{
  double cuts[3];
  double d[4];
  double lo = 0.0, vlo, si, sign;
  int n_cuts;

  if (!(a3 != 0.0 && isfinite (a0 + a1 + a2 + a3)))
    {
      double a[4] = { a0, a1, a2, a3 };

      return first_root_below (a, 3, QD_INF);
    }
  {
    double m = fmax (fmax (fabs (a0), fabs (a1)), fmax (fabs (a2), fabs (a3)));

    if (!QD_POLY_IN_SCALE (m))
      {
        double scale = unit_scale (m);

        return qd_poly_first_root_cubic (a0 * scale, a1 * scale, a2 * scale,
                                         a3 * scale);
      }
  }
  /* The sign does not move the roots; a positive leading coefficient
   * makes the last piece increasing. */
  sign = a3 > 0.0 ? 1.0 : -1.0;
  d[0] = a0 * sign;
  d[1] = a1 * sign;
  d[2] = a2 * sign;
  d[3] = a3 * sign;

  n_cuts = cubic_cuts (d[1], d[2], d[3], cuts, &si);
  vlo = d[0];
  for (int i = 0; i < n_cuts; i++)
    {
      double c = cuts[i];
      double vc = ((d[3] * c + d[2]) * c + d[1]) * c + d[0];

      if (!isfinite (vc))
        return first_root_below (d, 3, QD_INF);
      if (!(c > lo))
        continue;
      /* Zero within the rounding error of evaluating d: a touch (as in
       * the general search). */
      if (fabs (vc) <= poly_eval_error (d, 3, c))
        return c;
      if (vlo != 0.0 && (vc > 0.0) != (vlo > 0.0))
        return cubic_piece (d, lo, c, vlo, vc);
      lo = c;
      vlo = vc;
    }

  /* The last piece: increasing and convex to infinity; a root there only
   * when d starts it below zero (a root at s = 0 is not counted). */
  if (!(vlo < 0.0))
    return QD_INF;
  {
    double h = last_piece_step (d[1], d[2], d[3], lo, vlo), s;

    if (h > 0.0 && isfinite (h) && d[3] * h * h * h > -vlo)
      h = cubic_start (h, -vlo / d[3]);
    s = NAN;
    if (h > 0.0 && isfinite (h))
      s = cubic_newton (d[0], d[1], d[2], d[3], lo, QD_INF, lo + h);
    if (isnan (s))
      return first_root_below (d, 3, QD_INF);
    return s;
  }
}

double
qd_poly_first_crossing (const double *a,
                        int           degree,
                        double        dq)
{
  double b[QD_MAX_ORDER + 1] = { 0.0, };
  double s_up, s_down;
  int n = degree;

  if (n > QD_MAX_ORDER)
    n = QD_MAX_ORDER;
  if (n < 0)
    return QD_INF;
  if (!(dq >= 0.0))
    return 0.0;
  if (dq > 0.0 && dq < QD_INF && !QD_POLY_IN_SCALE (dq))
    {
      double scale = unit_scale (dq), c[QD_MAX_ORDER + 1];

      for (int k = 0; k <= n; k++)
        c[k] = a[k] * scale;
      return qd_poly_first_crossing (c, n, dq * scale);
    }

  if (fabs (a[0]) >= dq)
    {
      int dir = 0;

      if (fabs (a[0]) > dq)
        return 0.0;
      /* On the edge: leaving now if the first non-zero derivative points
       * outward. */
      for (int k = 1; k <= n && dir == 0; k++)
        dir = sign_of (a[k]);
      if (dir == 0)
        return QD_INF;
      if (dir == sign_of (a[0]) || a[0] == 0.0)
        return 0.0;
    }
  else
    {
      /* Strictly inside the band: the fast paths. */
      double s = NAN;

      while (n > 0 && a[n] == 0.0)
        n--;
      if (n == 3)
        s = qd_poly_crossing_cubic (a[0], a[1], a[2], a[3], dq);
      else if (n == 2)
        s = qd_poly_crossing_quadratic (a[0], a[1], a[2], dq);
      else if (n == 1)
        s = (copysign (dq, a[1]) - a[0]) / a[1];
      else
        return QD_INF;
      if (s > 0.0 && s < QD_INF)
        return s;
      /* NaN, or a time that rounding pushed to 0 or infinity: the general
       * search decides. */
    }

  for (int k = 1; k <= n; k++)
    b[k] = a[k];
  b[0] = a[0] - dq;
  s_up = first_root_below (b, n, QD_INF);
  b[0] = a[0] + dq;
  s_down = first_root_below (b, n, s_up);

  return fmin (s_up, s_down);
}

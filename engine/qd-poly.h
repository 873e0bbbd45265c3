/* qd-poly.h: polynomial root finding for quantized integrators and
 * crossing detectors
 *
 * Polynomials are given by their coefficients a[0] + a[1] s + ... +
 * a[degree] s^degree, degree at most 3. The functions return the smallest
 * s > 0 that satisfies the condition, or QD_INF when there is none; they
 * never return a negative time or NaN, and cost a bounded number of
 * operations. The numerical approach is described in qd-poly.c.
 */
#pragma once

#include <float.h>
#include <math.h>

#include <glib.h>

#include "qd-version-macros.h"
#include "qd-types.h"

G_BEGIN_DECLS

/* Whether a positive scale (a quantum, the largest coefficient) is one
 * the solvers take as it is: their squares and products of coefficients
 * neither overflow nor underflow. Beyond it (states of 10^150 or
 * 10^-150) they first multiply the coefficients by a power of 2, which
 * moves no root, and within it changes no rounding either (qd-poly.c). */
#define QD_POLY_IN_SCALE(v) ((v) > 0x1p-256 && (v) < 0x1p256)

/* Smallest s > 0 with p(s) = 0 (a sign change or a touch). */
QD_API double qd_poly_first_root     (const double *a,
                                      int           degree);
/* Smallest s > 0 with |p(s)| = dq, given |p(0)| <= dq: when a quantized
 * state x - q first drifts a quantum away. */
QD_API double qd_poly_first_crossing (const double *a,
                                      int           degree,
                                      double        dq);

/* qd_poly_first_root() of a0 + a1 s + a2 s^2 with a2 != 0 and all three
 * finite, to the bit, without its checks (qd_poly_first_root() uses it
 * for that case). */
QD_API double qd_poly_first_root_quadratic (double a0,
                                            double a1,
                                            double a2);

/* The same, for a d whose linear and quadratic terms may be nearly nil
 * (x - q right after a stiff method's requantization): Newton may start
 * from the root of the cubic term alone when the quadratic model's root
 * lies far beyond, which saves dozens of iterations there. The answer
 * is the same to within an ulp or two (not always to the bit). */
QD_API double qd_poly_crossing_cubic_flat (double a0,
                                           double a1,
                                           double a2,
                                           double a3,
                                           double dq);

/* The smallest s > 0 with p(s) = 0 for the cubic a0 + a1 s + a2 s^2 +
 * a3 s^3, by monotone Newton on the pieces between the critical and
 * inflection points (as qd_poly_crossing_cubic()); within a few ulps of
 * qd_poly_first_root()'s answer, several times cheaper. Any input
 * (a3 == 0, non-finite) is accepted: the general search answers then. */
QD_API double qd_poly_first_root_cubic (double a0,
                                        double a1,
                                        double a2,
                                        double a3);

/* The first s > 0 with |d(s)| = dq for d = a0 + a1 s + a2 s^2, given
 * |a0| < dq and a2 != 0, in closed form (the numerically stable root of
 * each candidate quadratic). Inline because the QSS2 integrator calls it
 * on every step; qd_poly_first_crossing() uses it for its quadratic case,
 * so both give the same answer to the bit. May return NaN or a
 * non-positive value when rounding defeats the formula; callers then fall
 * back to qd_poly_first_crossing(). @dq must be QD_POLY_IN_SCALE (the
 * callers test it, where they test that d starts inside the band):
 * beyond, the squares may overflow, and the general search rescales. */
static inline double
qd_poly_crossing_quadratic (double a0,
                            double a1,
                            double a2,
                            double dq)
{
  double c, disc;

  if (a2 < 0.0)
    {
      a0 = -a0;
      a1 = -a1;
      a2 = -a2;
    }
  if (a1 < 0.0)
    {
      /* The smaller root of d + dq = 0, if d gets down there. */
      c = a0 + dq;
      disc = a1 * a1 - 4.0 * a2 * c;
      if (disc < 0.0 && -disc <= 8.0 * DBL_EPSILON * (a1 * a1 + 4.0 * a2 * c))
        disc = 0.0;
      if (disc >= 0.0)
        return 2.0 * c / (-a1 + sqrt (disc));
      /* Otherwise the larger root of d - dq = 0 (c < 0: one positive). */
      c = a0 - dq;
      return (-a1 + sqrt (a1 * a1 - 4.0 * a2 * c)) / (2.0 * a2);
    }
  /* Increasing from the start: the positive root of d - dq = 0. */
  c = a0 - dq;
  return -2.0 * c / (a1 + sqrt (a1 * a1 - 4.0 * a2 * c));
}

/* The same for the cubic d = a0 + a1 s + a2 s^2 + a3 s^3, given |a0| < dq
 * and a3 != 0 (the QSS3 integrator after an input), by the monotone
 * Newton search described in qd-poly.c; qd_poly_first_crossing() uses it
 * for its cubic case, so both give the same answer to the bit. NaN (or a
 * non-positive value) when rounding defeats it; callers then fall back
 * to qd_poly_first_crossing(). */
QD_API double qd_poly_crossing_cubic (double a0,
                                      double a1,
                                      double a2,
                                      double a3,
                                      double dq);

G_END_DECLS

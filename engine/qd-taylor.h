/* qd-taylor.h: truncated Taylor series arithmetic
 *
 * Operations on QdTaylor series v(t0 + s) = c[0] + c[1] s + c[2] s^2 +
 * c[3] s^3 truncated at order @n (0..3). Each result holds the exact Taylor
 * coefficients, up to @n, of the operation applied to the operands;
 * coefficients above @n are set to zero. They are computed with the
 * recurrences of automatic differentiation, not finite differences, so a
 * static block keeps the order of QSS2 and QSS3 signals through any smooth
 * function.
 *
 * The result may be the same object as an operand. Domain errors give NaN
 * or infinity, as the C library does.
 *
 * Piecewise functions (abs, sign, min, max, floor, ceil) pick the branch that
 * holds just to the right of t0: the sign of a series is the sign of its
 * first nonzero coefficient.
 */
#pragma once

#include <glib.h>

#include "qd-version-macros.h"
#include "qd-types.h"
#include "qd-expr.h"

G_BEGIN_DECLS

QD_API void qd_taylor_constant  (QdTaylor *r, double value);
/* Copies @a, clearing the coefficients above @n. */
QD_API void qd_taylor_truncate  (QdTaylor *r, const QdTaylor *a, int n);

QD_API void qd_taylor_add   (QdTaylor *r, const QdTaylor *a, const QdTaylor *b, int n);
QD_API void qd_taylor_sub   (QdTaylor *r, const QdTaylor *a, const QdTaylor *b, int n);
QD_API void qd_taylor_neg   (QdTaylor *r, const QdTaylor *a, int n);
QD_API void qd_taylor_scale (QdTaylor *r, const QdTaylor *a, double k, int n);
QD_API void qd_taylor_mul   (QdTaylor *r, const QdTaylor *a, const QdTaylor *b, int n);
QD_API void qd_taylor_div   (QdTaylor *r, const QdTaylor *a, const QdTaylor *b, int n);

/* qd_taylor_mul() for callers on a hot path that want it inlined (the
 * Product). Cauchy product: r_k = sum_{j=0..k} a_j b_(k-j), each sum
 * from 0.0 in the order of j. Written out per order rather than as two
 * loops: with the loops' bound a variable, the copy from the local (r may
 * be a or b) became a call of memcpy, and the product of two
 * Lotka-Volterra signals spent more in the loops' control and that call
 * than in the arithmetic. */
static inline void
qd_taylor_mul_inline (QdTaylor       *r,
                      const QdTaylor *a,
                      const QdTaylor *b,
                      int             n)
{
  const double a0 = a->c[0], a1 = a->c[1], a2 = a->c[2], a3 = a->c[3];
  const double b0 = b->c[0], b1 = b->c[1], b2 = b->c[2], b3 = b->c[3];
  double r0, r1 = 0.0, r2 = 0.0, r3 = 0.0;

  r0 = 0.0 + a0 * b0;
  if (n >= 1)
    r1 = 0.0 + a0 * b1 + a1 * b0;
  if (n >= 2)
    r2 = 0.0 + a0 * b2 + a1 * b1 + a2 * b0;
  if (n >= 3)
    r3 = 0.0 + a0 * b3 + a1 * b2 + a2 * b1 + a3 * b0;
  r->c[0] = r0;
  r->c[1] = r1;
  r->c[2] = r2;
  r->c[3] = r3;
}

/* a^alpha for a constant alpha: repeated multiplication for whole
 * exponents (exact at a(t0) = 0 too), the power recurrence otherwise. */
QD_API void qd_taylor_pow_const (QdTaylor *r, const QdTaylor *a, double alpha, int n);
/* a^b: as pow_const when b is constant to order @n, else exp (b log a). */
QD_API void qd_taylor_pow   (QdTaylor *r, const QdTaylor *a, const QdTaylor *b, int n);

QD_API void qd_taylor_sqrt  (QdTaylor *r, const QdTaylor *a, int n);
QD_API void qd_taylor_exp   (QdTaylor *r, const QdTaylor *a, int n);
QD_API void qd_taylor_log   (QdTaylor *r, const QdTaylor *a, int n);
QD_API void qd_taylor_log10 (QdTaylor *r, const QdTaylor *a, int n);
/* Sine and cosine together (their recurrences need each other); either
 * result may be NULL. */
QD_API void qd_taylor_sincos (QdTaylor *rs, QdTaylor *rc, const QdTaylor *a, int n);
QD_API void qd_taylor_sin   (QdTaylor *r, const QdTaylor *a, int n);
QD_API void qd_taylor_cos   (QdTaylor *r, const QdTaylor *a, int n);
QD_API void qd_taylor_tan   (QdTaylor *r, const QdTaylor *a, int n);
QD_API void qd_taylor_asin  (QdTaylor *r, const QdTaylor *a, int n);
QD_API void qd_taylor_acos  (QdTaylor *r, const QdTaylor *a, int n);
QD_API void qd_taylor_atan  (QdTaylor *r, const QdTaylor *a, int n);
QD_API void qd_taylor_atan2 (QdTaylor *r, const QdTaylor *y, const QdTaylor *x, int n);
QD_API void qd_taylor_sinhcosh (QdTaylor *rs, QdTaylor *rc, const QdTaylor *a, int n);
QD_API void qd_taylor_sinh  (QdTaylor *r, const QdTaylor *a, int n);
QD_API void qd_taylor_cosh  (QdTaylor *r, const QdTaylor *a, int n);
QD_API void qd_taylor_tanh  (QdTaylor *r, const QdTaylor *a, int n);

/* The sign (-1, 0 or 1) of @a just to the right of t0. */
QD_API int  qd_taylor_sign_of (const QdTaylor *a, int n);
QD_API void qd_taylor_abs   (QdTaylor *r, const QdTaylor *a, int n);
QD_API void qd_taylor_sign  (QdTaylor *r, const QdTaylor *a, int n);
QD_API void qd_taylor_min   (QdTaylor *r, const QdTaylor *a, const QdTaylor *b, int n);
QD_API void qd_taylor_max   (QdTaylor *r, const QdTaylor *a, const QdTaylor *b, int n);
QD_API void qd_taylor_floor (QdTaylor *r, const QdTaylor *a, int n);
QD_API void qd_taylor_ceil  (QdTaylor *r, const QdTaylor *a, int n);

G_END_DECLS

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

#include <glib.h>

#include "qd-version-macros.h"
#include "qd-types.h"

G_BEGIN_DECLS

/* Smallest s > 0 with p(s) = 0 (a sign change or a touch). */
QD_API double qd_poly_first_root     (const double *a,
                                      int           degree);
/* Smallest s > 0 with |p(s)| = dq, given |p(0)| <= dq: when a quantized
 * state x - q first drifts a quantum away. */
QD_API double qd_poly_first_crossing (const double *a,
                                      int           degree,
                                      double        dq);

G_END_DECLS

/* qd-types.h: the value an event carries, a piecewise polynomial segment
 *
 * Signals in QDevs are piecewise polynomials. An event carries one segment:
 * its start time, its order (0 to 3) and its Taylor coefficients there,
 *
 *   x(t + s) = c[0] + c[1] s + c[2] s^2 + c[3] s^3,   s >= 0.
 *
 * QSS1 integrators emit order 0, QSS2 order 1, QSS3 order 2; states are one
 * order higher. Coefficients above `order` are always zero, so a segment can
 * be evaluated without looking at its order. Discrete-event blocks use order
 * 0 and may put a small tag in `tag` (an entity id, a token kind).
 */
#pragma once

#include <glib.h>
#include <math.h>

#include "qd-version-macros.h"

G_BEGIN_DECLS

#define QD_MAX_ORDER 3
#define QD_INF HUGE_VAL

typedef struct _QdSignal QdSignal;

struct _QdSignal
{
  double  t;       /* the time the coefficients refer to */
  double  c[QD_MAX_ORDER + 1];
  gint32  order;   /* 0..3; c[k] == 0 for k > order */
  guint32 tag;     /* payload of discrete-event blocks, 0 otherwise */
};

/* The value of the segment at time @t (Horner). */
static inline double
qd_signal_eval (const QdSignal *sig,
                double          t)
{
  double s = t - sig->t;
  return sig->c[0] + s * (sig->c[1] + s * (sig->c[2] + s * sig->c[3]));
}

/* Re-expands @sig around @t into @out (which may be @sig): the same
 * polynomial, coefficients taken at the new origin. */
static inline void
qd_signal_advance (const QdSignal *sig,
                   double          t,
                   QdSignal       *out)
{
  double s = t - sig->t;
  double c0 = sig->c[0], c1 = sig->c[1], c2 = sig->c[2], c3 = sig->c[3];

  out->c[0] = c0 + s * (c1 + s * (c2 + s * c3));
  out->c[1] = c1 + s * (2.0 * c2 + 3.0 * s * c3);
  out->c[2] = c2 + 3.0 * s * c3;
  out->c[3] = c3;
  out->order = sig->order;
  out->tag = sig->tag;
  out->t = t;
}

/* A constant (order 0) segment starting at @t. */
static inline void
qd_signal_set_constant (QdSignal *sig,
                        double    t,
                        double    value)
{
  sig->t = t;
  sig->c[0] = value;
  sig->c[1] = sig->c[2] = sig->c[3] = 0.0;
  sig->order = 0;
  sig->tag = 0;
}

G_END_DECLS

/* qd-gain-apply.h: the Gain's arithmetic, for the scalar block
 * (qd-block-gain.c) and the vector one's elements
 * (qd-block-vector-wsum.c), so that both give the same products to the
 * last bit. Not installed.
 */
#pragma once

#include "qd-blocks-private.h"

G_BEGIN_DECLS

/* y = k u, taken at @t, of u's order. */
static inline void
qd_gain_apply (double          k,
               const QdSignal *u,
               double          t,
               QdSignal       *y)
{
  double s = t - u->t;

  switch (u->order)
    {
    case 0:
      y->c[0] = k * u->c[0];
      y->c[1] = y->c[2] = y->c[3] = 0.0;
      break;
    case 1:
      y->c[0] = k * (u->c[0] + s * u->c[1]);
      y->c[1] = k * u->c[1];
      y->c[2] = y->c[3] = 0.0;
      break;
    default:
      qd_signal_advance (u, t, y);
      for (int i = 0; i <= QD_MAX_ORDER; i++)
        y->c[i] *= k;
      break;
    }
  y->t = t;
  y->order = u->order;
  y->tag = 0;
}

G_END_DECLS

/* qd-wsum-sum.h: the Weighted Sum's arithmetic, for the scalar block
 * (qd-block-wsum.c) and the vector one's elements
 * (qd-block-vector-wsum.c), so that both give the same sums to the last
 * bit. Not installed.
 */
#pragma once

#include "qd-blocks-private.h"

G_BEGIN_DECLS

/* The output segment: the sum at @t, of order @order. */
static inline void
qd_wsum_write (QdSignal *y,
               double    t,
               int       order,
               double    c0,
               double    c1,
               double    c2,
               double    c3)
{
  y->t = t;
  y->tag = 0;
  y->order = order;
  y->c[0] = c0;
  y->c[1] = c1;
  y->c[2] = c2;
  y->c[3] = c3;
}

/* y = sum of @w[i] @in[i] taken at @t, i < @n, of the highest input
 * order. Why the work goes by the input's order: in QSS1 and QSS2 models
 * nearly every input is of order 0 or 1, and re-expanding it as a cubic
 * would spend most of the block's time on coefficients that are zero.
 * The terms kept are the same operations, in the same order, as in
 * qd_signal_advance() with the zero terms dropped, so the sums are the
 * same to the last bit. */
static inline void
qd_wsum_sum (const QdSignal *const *in,
             guint                  n,
             const double          *w,
             double                 t,
             QdSignal              *y)
{
  double c0 = 0.0, c1 = 0.0, c2 = 0.0, c3 = 0.0;
  int order = 0;

  for (guint i = 0; i < n; i++)
    {
      const QdSignal *u = in[i];
      double wi = w[i];
      double s = t - u->t;

      /* Tests rather than a switch: the orders of a model's signals are
       * few, and a chain of well-predicted tests beats an indirect jump. */
      if (u->order == 1)
        {
          c0 += wi * (u->c[0] + s * u->c[1]);
          c1 += wi * u->c[1];
        }
      else if (u->order == 0)
        c0 += wi * u->c[0];
      else if (u->order == 2)
        {
          c0 += wi * (u->c[0] + s * (u->c[1] + s * u->c[2]));
          c1 += wi * (u->c[1] + s * (2.0 * u->c[2]));
          c2 += wi * u->c[2];
        }
      else
        {
          QdSignal v;

          qd_signal_advance (u, t, &v);
          c0 += wi * v.c[0];
          c1 += wi * v.c[1];
          c2 += wi * v.c[2];
          c3 += wi * v.c[3];
        }
      if (u->order > order)
        order = u->order;
    }
  qd_wsum_write (y, t, order, c0, c1, c2, c3);
}

G_END_DECLS

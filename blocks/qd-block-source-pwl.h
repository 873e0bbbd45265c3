/* qd-block-source-pwl.h: the piecewise linear engine of the sources
 *
 * Shared by the waveform sources (qd-block-sources.c) and From CSV
 * (qd-block-source-csv.c). A block's state begins with a QdPwl; its init
 * fills in the pieces and calls qd_pwl_locate(), then the qd_pwl_* DEVS
 * functions do the rest. See qd-block-sources.c for the model.
 */
#pragma once

#include "qd-block-type.h"

G_BEGIN_DECLS

#define QD_PWL_INLINE 4

typedef struct
{
  /* Piece i starts at t0 + k·period + start[i] (start[] non-decreasing,
   * start[0] = 0 when periodic) with value[i] and slope slope[i]. */
  const double *start;
  const double *value;
  const double *slope;
  guint         n;
  double        t0;
  double        period;      /* 0: not periodic; the last piece never ends */
  gboolean      has_pre;     /* before the first piece: pre_value */
  double        pre_value;

  /* The piece to emit at the next event: i = -1 is the "pre" phase. */
  double        k;
  int           i;
  double        sigma;

  /* Storage for waveforms of a few pieces. */
  double        inline_start[QD_PWL_INLINE];
  double        inline_value[QD_PWL_INLINE];
  double        inline_slope[QD_PWL_INLINE];
} QdPwl;

/* Finds the piece that holds at @t. */
void     qd_pwl_locate (QdPwl          *p,
                        double          t);
/* Writes the current piece, taken at @t, into @y. */
void     qd_pwl_emit   (const QdPwl    *p,
                        double          t,
                        QdSignal       *y);
/* Moves to the next piece; returns the time from @t to its start. */
double   qd_pwl_next   (QdPwl          *p,
                        double          t);

double   qd_pwl_ta     (QdAtomic       *self);
guint64  qd_pwl_lambda (QdAtomic       *self,
                        double          t);
void     qd_pwl_dint   (QdAtomic       *self,
                        double          t);

G_END_DECLS

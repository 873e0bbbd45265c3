/* qd-integrator-private.h: the state and method table of the Integrator
 * block, shared by the files that implement its methods
 *
 * qd-block-integrator.c holds the block (its DEVS functions, parameters
 * and the explicit methods QSS1-3 and LIQSS1); qd-integrator-stiff.c holds
 * the stiff methods LIQSS2, LIQSS3, BQSS and CQSS. Both write against the
 * state struct and the table of operations declared here. Not installed.
 */
#pragma once

#include <math.h>

#include "qd-blocks-private.h"

G_BEGIN_DECLS

/* In the order of the "method" parameter's choices. */
typedef enum
{
  METHOD_QSS1,
  METHOD_QSS2,
  METHOD_QSS3,
  METHOD_LIQSS1,
  METHOD_LIQSS2,
  METHOD_LIQSS3,
  METHOD_BQSS,
  METHOD_CQSS,
} Method;

typedef struct _Integrator Integrator;

typedef struct
{
  /* Writes the new q (coefficients 0..n-1) for a requantization of the
   * state x (already advanced to now). */
  void   (*requantize)  (const Integrator *st,
                         const double     *x,
                         double            dq,
                         double           *q);
  /* The time advance after x, q or the derivative changed. */
  double (*reschedule)  (Integrator       *st);
  /* Called by dext after the new derivative is in x. */
  void   (*derivative)  (Integrator       *st,
                         double            t);
  /* Optional (may be NULL): called by dint once the new q is in st->q and
   * before reschedule, while st->initial still tells whether that q was
   * the initial one; for methods whose state follows their own outputs. */
  void   (*requantized) (Integrator       *st,
                         double            t);
  /* Optional (may be NULL): called at the first transition (or output)
   * at a time t later than the block's last output when no derivative
   * answered that output at its own instant, before anything else of
   * that transition; x, q and tl are still those of the last transition.
   * For the methods that estimate the self-dependence a from the answer:
   * no answer means the derivative did not change with q, so a = 0. */
  void   (*unanswered)  (Integrator       *st,
                         double            t);
} Ops;

struct _Integrator
{
  /* What every transition of QSS1-3 reads or writes comes first, in the
   * first 128 bytes: two cache lines (the engine puts states of 64 bytes
   * or more on a line of their own). In large models whose events spread
   * over all blocks each line is a cache miss. */
  const Ops *ops;
  double  tl;                    /* time of the last transition */
  double  x[QD_MAX_ORDER + 1];   /* x(tl + s) = sum x[k] s^k, k <= n */
  double  q[QD_MAX_ORDER + 1];   /* q(tl + s), k <= n - 1 */
  double  sigma;                 /* time to the next requantization */
  double  dq;                    /* the current quantum */
  double  dqmin, dqrel;
  int     n;                     /* order of x: 1, 2 or 3 */
  gboolean awaiting;             /* the next derivative answers the last
                                    output (not kept by the fused QSS
                                    paths: the QSS methods never read it) */
  gboolean initial;              /* the initial q is still to be emitted */
  gboolean cache_valid;          /* see cache_x below */

  double  t_out;                 /* time of the last output (the methods
                                    that follow their own outputs) */

  /* LIQSS1: dx/dt = u0 + a q, a estimated as qd-block-integrator.c
   * describes (LIQSS2 and LIQSS3 estimate a the same way). */
  double  a, u0;
  double  q_old, dx_old;         /* q and dx/dt just before the last output */

  /* QSS1-3: x advanced to cache_t (from the x of tl = cache_tl) and its
   * quantum, as lambda computed them; dint at the same instant takes them
   * instead of computing them again. Anything that changes x clears
   * cache_valid. */
  double  cache_x[QD_MAX_ORDER + 1];
  double  cache_dq;
  double  cache_t, cache_tl;

  /* LIQSS2, LIQSS3 (qd-integrator-stiff.c): the affine term as a
   * polynomial, u(tu + s) = sum u[k] s^k, and its value at the next
   * scheduled requantization, where lambda needs it. */
  double  u[QD_MAX_ORDER];
  double  tu;
  double  u_next[QD_MAX_ORDER];

  /* BQSS, CQSS (qd-integrator-stiff.c): the level x is heading for, how
   * many of the two levels were offered in the current decision, and
   * whether x is held still between them. */
  double  level;
  int     tries;
  gboolean retry;
  gboolean redecide;
  gboolean frozen;
};

/* The block emitted at t_out and is still waiting for the derivative
 * that answers it, but time has moved on to t: the answer will not come.
 * Lets the method draw its conclusion (Ops.unanswered) and stops
 * waiting. */
static inline void
settle_unanswered (Integrator *st,
                   double      t)
{
  if (st->awaiting && t > st->t_out)
    {
      if (st->ops->unanswered != NULL)
        st->ops->unanswered (st, t);
      st->awaiting = FALSE;
    }
}

/* Re-expands the polynomial c (degree n) around s: c(s + r) in r. */
static inline void
shift (double *c,
       int     n,
       double  s)
{
  if (s == 0.0)
    return;
  /* Repeated synthetic division (Horner's shift), exact in the same sense
   * as qd_signal_advance(). The orders the methods use are unrolled, on
   * the hot path of every transition, with the operations in the order of
   * the general loop below so that the results stay bit-identical. */
  switch (n)
    {
    case 0:
      return;
    case 1:
      c[0] += s * c[1];
      return;
    case 2:
      c[1] += s * c[2];
      c[0] += s * c[1];
      c[1] += s * c[2];
      return;
    case 3:
      c[2] += s * c[3];
      c[1] += s * c[2];
      c[0] += s * c[1];
      c[2] += s * c[3];
      c[1] += s * c[2];
      c[2] += s * c[3];
      return;
    default:
      for (int i = 0; i < n; i++)
        for (int k = n - 1; k >= i; k--)
          c[k] += s * c[k + 1];
      return;
    }
}

/* The quantum for a state of value x. A state sitting exactly at 0 with
 * dqmin = 0 would get a zero quantum and requantize endlessly; it gets
 * the quantum of a state of 1e-6 instead (a documented floor). */
static inline double
quantum (const Integrator *st,
         double            x)
{
  /* Not fmax(): a library call per transition; the same value for the
   * non-NaN quantum parameters that check accepts. */
  double rel = st->dqrel * fabs (x);
  double dq = rel > st->dqmin ? rel : st->dqmin;

  if (dq <= 0.0)
    dq = st->dqrel * 1e-6;
  return dq;
}

/* The stiff methods' tables (qd-integrator-stiff.c). */
extern const Ops qd_integrator_liqss2_ops;
extern const Ops qd_integrator_liqss3_ops;
extern const Ops qd_integrator_bqss_ops;
extern const Ops qd_integrator_cqss_ops;

G_END_DECLS

/* qd-integrator-input.h: an Integrator's derivative input, for WSum
 *
 * WSum's cascade kernel (qd-block-wsum.c) computes a sum and hands it at
 * once, as the new derivative, to the Integrator the sum feeds. This is
 * all the kernel knows of the Integrator: whether a receiver is an
 * Integrator's derivative input; the part of its state a new derivative
 * of the QSS methods reads and writes (QdIntegratorCore, the first member
 * of the state, whose first bytes the kernel prefetches), with those
 * derivatives inline, so that the sum's coefficients reach them in
 * registers; and one call for every other method. The rest of the state
 * and the methods stay with the Integrator's own files
 * (qd-integrator-private.h). Not installed.
 */
#pragma once

#include <float.h>
#include <math.h>

#include "qd-blocks-private.h"
#include "qd-poly.h"

G_BEGIN_DECLS

struct _Integrator;
struct _QdIntegratorOps;

/* What every transition of QSS1-3 reads or writes, at the start of the
 * Integrator's state, in its first QD_INTEGRATOR_INPUT_BYTES: two cache
 * lines (the engine puts states of 64 bytes or more on a line of their
 * own); in large models whose events spread over all blocks each line is
 * a cache miss. x holds one coefficient more than a signal, for QSS4; the
 * flags are bytes so that the whole still fits (checked in
 * qd-integrator-private.h). */
typedef struct
{
  const struct _QdIntegratorOps *ops;   /* the method */
  double  tl;                    /* time of the last transition */
  double  x[QD_MAX_ORDER + 2];   /* x(tl + s) = sum x[k] s^k, k <= n */
  double  q[QD_MAX_ORDER + 1];   /* q(tl + s), k <= n - 1 */
  double  sigma;                 /* time to the next requantization */
  double  dq;                    /* the current quantum */
  double  dqmin, dqrel;          /* with quantum()'s floors */
  int     n;                     /* order of x: 1 to 4 */
  guint8  awaiting;              /* the next derivative answers the last
                                    output (not kept by the fused QSS
                                    paths: the QSS methods never read it) */
  guint8  initial;               /* the initial q is still to be emitted */
  guint8  cache_valid;           /* lambda left x for dint (IntegratorCache,
                                    qd-block-integrator.c) */
} QdIntegratorCore;

#define QD_INTEGRATOR_INPUT_BYTES 128

/* QSS1, QSS2, QSS3 and QSS4 (qd-block-integrator.c). */
extern const struct _QdIntegratorOps qd_integrator_qss_ops;

/* Whether input @port of @receiver is an Integrator's derivative: its
 * state then starts with a QdIntegratorCore. */
gboolean qd_integrator_is_derivative_input (const QdAtomic *receiver,
                                            guint           port);

/* Whether the Integrator of @core runs the QSS method of order @n, whose
 * new derivative is one of the inline functions below. */
static inline gboolean
qd_integrator_is_qss (const QdIntegratorCore *core,
                      int                     n)
{
  return core->ops == &qd_integrator_qss_ops && core->n == n;
}

/* The external transition and time advance of @receiver, an Integrator
 * whose state starts with @core (given so that the caller need not load
 * receiver->state), when the segment @y of order @order arrives on its
 * derivative input at @t, its own time. c0, c1 and c2 are y's first
 * coefficients, which the caller has just computed; for @order 0 to 2
 * the higher ones are 0. @order -1 takes @y as it is stored. The same,
 * to the bit, as the Integrator's dext_ta with @y. */
double   qd_integrator_take_sum            (QdIntegratorCore *core,
                                            QdAtomic         *receiver,
                                            double            t,
                                            int               order,
                                            double            c0,
                                            double            c1,
                                            double            c2,
                                            const QdSignal   *y);

double qd_integrator_qss_reschedule_general (struct _Integrator *st);

/* Sets @core to the start of an Integrator with the parameters @params
 * (the Integrator's, in schema order) and the initial state @x0 at @t:
 * the method, the quanta with their floors, x = q = x0, and the initial
 * q due at once (qd-block-integrator.c). The Integrator's init and the
 * vector Integrator's elements (qd-block-vector-integrator.c) both
 * start so. */
void   qd_integrator_core_init (QdIntegratorCore   *core,
                                const QdParamValue *params,
                                double              x0,
                                double              t);

/* The quantum for a state of value @x, max(dqrel |x|, dqmin) with the
 * floors that qd_integrator_core_init() built into dqmin and dqrel
 * (qd-integrator-private.h, quantum()). Not fmax(): a library call per
 * transition; the same value for the non-NaN quantum parameters that
 * check accepts. */
static inline double
qd_integrator_core_quantum (const QdIntegratorCore *core,
                            double                  x)
{
  double rel = core->dqrel * fabs (x);

  return rel > core->dqmin ? rel : core->dqmin;
}

/* The end of qd_integrator_qss_fire()'s paths, once x is shifted and
 * q = (q0, q1, q2) chosen (q takes x's value and first n - 1
 * derivatives; the terms above the order are 0): the state's
 * bookkeeping, the output segment and the time advance @sigma. Inlined
 * with the order a constant, it is the same stores the paths wrote out. */
G_ALWAYS_INLINE static inline double
qd_integrator_qss_fire_finish (QdIntegratorCore *st,
                               QdSignal         *y,
                               double            t,
                               double            dq,
                               int               order,
                               double            q0,
                               double            q1,
                               double            q2,
                               double            sigma)
{
  st->q[0] = q0;
  st->q[1] = q1;
  st->q[2] = q2;
  st->q[3] = 0.0;
  st->dq = dq;
  st->tl = t;
  st->initial = FALSE;
  st->cache_valid = FALSE;
  y->t = t;
  y->order = order;
  y->tag = 0;
  y->c[0] = q0;
  y->c[1] = q1;
  y->c[2] = q2;
  y->c[3] = 0.0;
  st->sigma = sigma;
  return sigma;
}

/* lambda, dint and ta of QSS1, QSS2 and QSS3 (st->ops is
 * qd_integrator_qss_ops, st->n 1 to 3) in one: the output written into
 * @y, and the time advance returned (also left in st->sigma). x follows
 * its trajectory to @t, q takes its value and derivatives, and the next
 * requantization is the closed form after a requantization. The values
 * are those of the Integrator's lambda and dint to the bit: the same
 * operations on the same operands (qd-block-integrator.c,
 * integrator_fire(); the vector Integrator's elements fire through it
 * too). */
static inline double
qd_integrator_qss_fire (QdIntegratorCore *st,
                        QdSignal         *y,
                        double            t)
{
  double s = t - st->tl;
  int n = st->n;

  if (n == 2)
    {
      /* QSS2 in locals (see qd_integrator_qss2_derivative()): shift(),
       * quantum(), qss_requantize() and sigma_after_requantization()
       * written out for n = 2. */
      double x0 = st->x[0], x1 = st->x[1], x2 = st->x[2];
      double c = fabs (x2), dq;

      if (s != 0.0)
        {
          x1 += s * x2;
          x0 += s * x1;
          x1 += s * x2;
        }
      dq = qd_integrator_core_quantum (st, x0);
      st->x[0] = x0;
      st->x[1] = x1;
      return qd_integrator_qss_fire_finish (st, y, t, dq, 1, x0, x1, 0.0,
                                            c == 0.0 ? QD_INF : sqrt (dq / c));
    }
  if (n == 3)
    {
      /* QSS3 the same way: shift() for n = 3 in its order, then q takes
       * x's value and first two derivatives (snap_to_edge() is QSS1's
       * only). */
      double x0 = st->x[0], x1 = st->x[1], x2 = st->x[2], x3 = st->x[3];
      double c = fabs (x3), dq;

      if (s != 0.0)
        {
          x2 += s * x3;
          x1 += s * x2;
          x0 += s * x1;
          x2 += s * x3;
          x1 += s * x2;
          x2 += s * x3;
        }
      dq = qd_integrator_core_quantum (st, x0);
      st->x[0] = x0;
      st->x[1] = x1;
      st->x[2] = x2;
      return qd_integrator_qss_fire_finish (st, y, t, dq, 2, x0, x1, x2,
                                            c == 0.0 ? QD_INF : cbrt (dq / c));
    }
  {
    /* QSS1: shift(), snap_to_edge() (against the old q and quantum),
     * then q := x and sigma = dQ / |dx/dt|. */
    double x0 = st->x[0], x1 = st->x[1], q0 = st->q[0];
    double c = fabs (x1), d, edge, dq;

    if (s != 0.0)
      x0 += s * x1;
    d = x0 - q0;
    edge = copysign (st->dq, d);
    if (fabs (d - edge) <= 8.0 * DBL_EPSILON * (fabs (x0) + fabs (q0) + st->dq))
      x0 = q0 + edge;
    dq = qd_integrator_core_quantum (st, x0);
    st->x[0] = x0;
    return qd_integrator_qss_fire_finish (st, y, t, dq, 0, x0, 0.0, 0.0,
                                          c == 0.0 ? QD_INF : dq / c);
  }
}

/* The end of the QSS derivatives below, x and q being stored: the time
 * advance is @s, the crossing the caller found (or anything not in
 * (0, QD_INF) when it found none, which the general search then
 * settles), or 0 while the initial q is still to be emitted. */
static inline double
qd_integrator_qss_settle (QdIntegratorCore *st,
                          double      t,
                          double      s)
{
  st->tl = t;
  st->cache_valid = FALSE;
  if (st->initial)
    s = 0.0;
  else if (!(s > 0.0 && s < QD_INF))
    s = qd_integrator_qss_reschedule_general ((struct _Integrator *) st);
  st->sigma = s;
  return s;
}

/* QSS2's new derivative (st->ops is qd_integrator_qss_ops, st->n is 2):
 * the input segment c0 + c1 s + c2 s^2 + c3 s^3, taken @us after its own
 * time, arrives at @t; returns the time advance, also left in st->sigma.
 * Inline, for qd_integrator_dext_ta() and for WSum's cascade kernel,
 * which gives the coefficients it has just computed without storing and
 * loading them again (qd-block-wsum.c).
 *
 * In locals: through pointers the compiler would have to assume that the
 * input and the state overlap, and reload after each store. The
 * operations are shift()'s, qd_signal_advance()'s (its first two
 * coefficients; the division by 1 and by 2 are exact, so x[1] = u and
 * x[2] = u' / 2 bit for bit) and qss_reschedule()'s. */
static inline double
qd_integrator_qss2_derivative (QdIntegratorCore *st,
                               double      t,
                               double      us,
                               double      c0,
                               double      c1,
                               double      c2,
                               double      c3)
{
  double s = t - st->tl;
  double x0 = st->x[0], x1 = st->x[1], x2 = st->x[2];
  double q0 = st->q[0], q1 = st->q[1];

  if (s != 0.0)
    {
      x1 += s * x2;
      x0 += s * x1;
      x1 += s * x2;
      q0 += s * q1;
    }
  x1 = c0 + us * (c1 + us * (c2 + us * c3));
  x2 = (c1 + us * (2.0 * c2 + 3.0 * us * c3)) * 0.5;
  st->x[0] = x0;
  st->x[1] = x1;
  st->x[2] = x2;
  st->q[0] = q0;
  s = -1.0;
  if (!st->initial)
    {
      double a0 = x0 - q0, dq = st->dq;

      if (fabs (a0) < dq && x2 != 0.0 && QD_POLY_IN_SCALE (dq))
        {
          /* The crossing first makes x2 positive by negating all three
           * coefficients; its sign is random from step to step, so that
           * branch mispredicts half of the time. Multiplying by ±1 here
           * is the same negation (exact) without a branch, and the
           * function's own test is then always false. */
          double sign = copysign (1.0, x2);

          s = qd_poly_crossing_quadratic (a0 * sign, (x1 - q1) * sign,
                                          x2 * sign, dq);
        }
    }
  return qd_integrator_qss_settle (st, t, s);
}

/* QSS1's new derivative, the same way (st->n is 1): x is a line, q a
 * constant, and the crossing is qd_poly_first_crossing()'s linear case. */
static inline double
qd_integrator_qss1_derivative (QdIntegratorCore *st,
                               double      t,
                               double      us,
                               double      c0,
                               double      c1,
                               double      c2,
                               double      c3)
{
  double s = t - st->tl;
  double x0 = st->x[0], x1 = st->x[1];

  if (s != 0.0)
    x0 += s * x1;
  x1 = c0 + us * (c1 + us * (c2 + us * c3));
  st->x[0] = x0;
  st->x[1] = x1;
  s = -1.0;
  if (!st->initial)
    {
      double a0 = x0 - st->q[0], dq = st->dq;

      if (fabs (a0) < dq && x1 != 0.0 && dq >= 0.0)
        s = (copysign (dq, x1) - a0) / x1;
    }
  return qd_integrator_qss_settle (st, t, s);
}

/* QSS3's new derivative, the same way (st->n is 3): shift() of x and q,
 * qd_signal_advance() and the division of its coefficients by k + 1 (by
 * 1 and 2 exact, by 3 kept a division), then the cubic crossing directly
 * when x - q is strictly inside the band. The awaited answer is not kept:
 * the QSS methods never read it. */
static inline double
qd_integrator_qss3_derivative (QdIntegratorCore *st,
                               double      t,
                               double      us,
                               double      c0,
                               double      c1,
                               double      c2,
                               double      c3)
{
  double s = t - st->tl;
  double x0 = st->x[0], x1 = st->x[1], x2 = st->x[2], x3 = st->x[3];
  double q0 = st->q[0], q1 = st->q[1], q2 = st->q[2];

  if (s != 0.0)
    {
      x2 += s * x3;
      x1 += s * x2;
      x0 += s * x1;
      x2 += s * x3;
      x1 += s * x2;
      x2 += s * x3;
      q1 += s * q2;
      q0 += s * q1;
      q1 += s * q2;
    }
  x1 = c0 + us * (c1 + us * (c2 + us * c3));
  x2 = (c1 + us * (2.0 * c2 + 3.0 * us * c3)) * 0.5;
  x3 = (c2 + 3.0 * us * c3) / 3.0;
  st->x[0] = x0;
  st->x[1] = x1;
  st->x[2] = x2;
  st->x[3] = x3;
  st->q[0] = q0;
  st->q[1] = q1;
  s = -1.0;
  if (!st->initial)
    {
      double a0 = x0 - q0, dq = st->dq;

      if (fabs (a0) < dq && x3 != 0.0 && dq >= 0.0)
        s = qd_poly_crossing_cubic (a0, x1 - q1, x2 - q2, x3, dq);
    }
  return qd_integrator_qss_settle (st, t, s);
}

/* The new derivative of the QSS method of order @order + 1
 * (qd_integrator_is_qss()) when a segment of order @order (0 to 2) with
 * the coefficients @c0, @c1, @c2 arrives at its own time @t: for a
 * constant @order, one of the functions above inlined. */
G_ALWAYS_INLINE static inline double
qd_integrator_qss_sum (QdIntegratorCore *core,
                       double            t,
                       int               order,
                       double            c0,
                       double            c1,
                       double            c2)
{
  if (order == 1)
    return qd_integrator_qss2_derivative (core, t, 0.0, c0, c1, c2, 0.0);
  if (order == 0)
    return qd_integrator_qss1_derivative (core, t, 0.0, c0, c1, c2, 0.0);
  return qd_integrator_qss3_derivative (core, t, 0.0, c0, c1, c2, 0.0);
}

G_END_DECLS

/* qd-block-integrator.c: the quantized-state integrator (QSS1, QSS2, QSS3,
 * QSS4, LIQSS1), with or without a reset input
 *
 * The integrator of a quantized state system: it integrates its input (the
 * derivative) exactly as a polynomial, and emits the quantized state q, a
 * polynomial one order lower than the state x, each time x drifts a
 * quantum away from q.
 *
 *   QSS1 (Kofman and Junco 2001; Cellier's slides): q piecewise constant,
 *     the quantization with hysteresis of width equal to the quantum. At
 *     each requantization q := x; the next one is when |x - q| = dQ.
 *   QSS2 (Kofman 2002, the first order quantized integrator): the input is
 *     piecewise linear, x piecewise parabolic, q piecewise linear taking
 *     x's value and slope at each requantization; the next one is the
 *     least s > 0 with |x(t+s) - q(t+s)| = dQ. After an internal
 *     transition x - q = (mu/2) s^2, so sigma = sqrt(2 dQ / |mu|) (the
 *     paper's sigma'); after an input event the full polynomial x - q is
 *     solved (the paper's sigma-hat, equation 19).
 *   QSS3 (Kofman 2006): the same one order higher: input order 2, x order
 *     3, q order 2.
 *   QSS3-PowerDEVS: QSS3 as PowerDEVS computes it, for imported models
 *     (see qss3_powerdevs_reschedule() and output_order()).
 *   QSS4 (as PowerDEVS and the QSS Solver offer it): once more: input
 *     order 3, x order 4 (one coefficient more than a signal carries, kept
 *     in the state alone), q order 3. After its own step x - q = x4 s^4;
 *     after an input the quartic is solved by qd-integrator-quartic.c.
 *
 *   LIQSS1 (Migoni, Bortolotto, Kofman and Cellier 2013): the linearly
 *     implicit QSS1 for stiff systems. At a requantization q is placed
 *     where x is heading instead of where x is: x + dQ when the derivative
 *     evaluated there is >= 0, else x - dQ when it is <= 0 there,
 *     otherwise at the point between where the derivative vanishes, the
 *     equilibrium of the affine model dx/dt = u0 + a q. Then the next
 *     event is when x reaches q (it moves towards it) or, when the
 *     derivative turned away, when x is 2 dQ past q.
 *     The self-dependence a = d(dx/dt)/dq cannot be seen by one block of a
 *     diagram; as PowerDEVS (and QSS Solver) do, it is estimated from the
 *     integrator's own requantizations: when a new derivative arrives at
 *     the very time of the block's last output, the change of derivative
 *     divided by the change of q is taken as a, and u0 = dx/dt - a q.
 *     When no derivative arrives at that time, the derivative did not
 *     change with q (say a Switch downstream has stopped passing q), so
 *     a = 0 and u0 = dx/dt; this is concluded at the first transition
 *     (or output) at a later time, before q is placed again. Its
 *     limits: it is exact for linear loops through static blocks; when
 *     another input of the derivative changes at that same instant, a is
 *     polluted until the next requantization, and a loop through a delay
 *     is seen as a = 0 (the method stays correct, only less implicit);
 *     nonlinear feedback makes a the secant slope over one quantum.
 *   LIQSS2, LIQSS3, BQSS and CQSS, the other stiff methods, are in
 *     qd-integrator-stiff.c, on the state and method table of
 *     qd-integrator-private.h; mLIQSS1 and mLIQSS2, LIQSS1 and LIQSS2
 *     with pairs of coupled states updated together, in
 *     qd-integrator-mliqss.c.
 *
 * Integrator with Reset is the same block with a second input: an event
 * there sets x to the value it carries and requantizes at once (ta = 0),
 * as at the start; the derivative is left as it was.
 *
 * A derivative of a higher order than the method's (a Ramp into QSS1, a
 * QSS3 signal into QSS2) is integrated exactly: see "Inputs above the
 * method's order" below.
 *
 * The quantum is dQ = max(dqrel |x|, dqmin), recomputed at each
 * requantization as PowerDEVS does.
 *
 * State: x and q are both kept as Taylor coefficients around the time of
 * the last transition, so every transition is a shift of two short
 * polynomials and no time is accumulated twice. The method is picked once
 * at init (a table of functions in the state); the event path does no
 * allocation and no string work.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "qd-integrator-input.h"
#include "qd-integrator-private.h"
#include "qd-poly.h"

enum
{
  PORT_DERIVATIVE,
  PORT_RESET,
};

enum
{
  PARAM_X0,
  PARAM_METHOD,
  PARAM_DQMIN,
  PARAM_DQREL,
};

/* sigma after a requantization, where x - q = x[n] s^n exactly. */
static inline double
sigma_after_requantization (const Integrator *st)
{
  double c = fabs (st->core.x[st->core.n]);

  if (c == 0.0)
    return QD_INF;
  switch (st->core.n)
    {
    case 1:
      return st->core.dq / c;
    case 2:
      return sqrt (st->core.dq / c);
    case 3:
      return cbrt (st->core.dq / c);
    default:
      return sqrt (sqrt (st->core.dq / c));
    }
}

/* QSS1, QSS2, QSS3: q takes x's value and first n - 1 derivatives. */
static void
qss_requantize (const Integrator *st,
                const double     *x,
                double            dq,
                double           *q)
{
  for (int k = 0; k <= QD_MAX_ORDER; k++)
    q[k] = k < st->core.n ? x[k] : 0.0;
}

/* The least s > 0 with |x - q| = dQ (the paper's sigma-hat), for any
 * order. */
double
qd_integrator_qss_reschedule_general (Integrator *st)
{
  double d[QD_MAX_ORDER + 2];

  for (int k = 0; k < st->core.n; k++)
    d[k] = st->core.x[k] - st->core.q[k];
  d[st->core.n] = st->core.x[st->core.n];
  if (st->core.n > QD_MAX_ORDER)
    return qd_integrator_quartic_crossing (d, st->core.dq);
  return qd_poly_first_crossing (d, st->core.n, st->core.dq);
}

/* The same; for QSS2 strictly inside the band with a true parabola, the
 * closed form, without the general function's checks and copies. */
static double
qss_reschedule (Integrator *st)
{
  if (st->core.n == 2)
    {
      double a0 = st->core.x[0] - st->core.q[0], a1 = st->core.x[1] - st->core.q[1];

      if (fabs (a0) < st->core.dq && st->core.x[2] != 0.0 && QD_POLY_IN_SCALE (st->core.dq))
        {
          double s = qd_poly_crossing_quadratic (a0, a1, st->core.x[2], st->core.dq);

          if (s > 0.0 && s < QD_INF)
            return s;
        }
    }
  return qd_integrator_qss_reschedule_general (st);
}

static void
qss_derivative (Integrator *st,
                double      t)
{
}

const Ops qd_integrator_qss_ops = {
  qss_requantize,
  qss_reschedule,
  qss_derivative,
  NULL,
  NULL,
  NULL,
};

/* QSS3 as PowerDEVS's qss_integrator computes it ("QSS3-PowerDEVS"):
 * the same quantum, requantization and output, but the crossing after a
 * new derivative is sought on a truncated polynomial. PowerDEVS drops
 * the cubic term of x - q when it is under a thousandth of the quadratic
 * one, and then the quadratic term when it is under a thousandth of the
 * linear one, and finds where that polynomial reaches the band's edge.
 * The time found differs from the exact crossing of x - q by the terms
 * dropped, so a run takes PowerDEVS's steps: an imported PowerDEVS model
 * gives PowerDEVS's own step counts. After a requantization x - q is x's
 * cubic term alone and both rules give cbrt (dQ / |x3|). */
static double
qss3_powerdevs_reschedule (Integrator *st)
{
  double d[4];
  int degree = 3;

  for (int k = 0; k < 3; k++)
    d[k] = st->core.x[k] - st->core.q[k];
  d[3] = st->core.x[3];
  if (fabs (d[0]) > st->core.dq)
    return 0.0;
  if (d[3] == 0.0 || 1000.0 * fabs (d[3]) < fabs (d[2]))
    {
      degree = 2;
      if (d[2] == 0.0 || 1000.0 * fabs (d[2]) < fabs (d[1]))
        degree = 1;
    }
  if (degree == 1 && d[1] == 0.0)
    return QD_INF;
  return qd_poly_first_crossing (d, degree, st->core.dq);
}

static const Ops qss3_powerdevs_ops = {
  qss_requantize,
  qss3_powerdevs_reschedule,
  qss_derivative,
  NULL,
  NULL,
  NULL,
};

/* The order of the output q: the method's, except for QSS3-PowerDEVS.
 * PowerDEVS's signals carry no order: its static blocks (Multiplier,
 * WSum) start at order 1 and raise theirs on the first non-zero
 * coefficient of a higher order that arrives. So until an integrator's
 * q has a non-zero quadratic term, a product of two QSS3 states is
 * computed as a product of lines, without the square of their slopes.
 * QSS3-PowerDEVS gives q the order of its highest non-zero coefficient,
 * and QDevs's blocks, which compute to the highest order of their
 * inputs, then compute as PowerDEVS's do. */
static int
output_order (const Integrator *st,
              const double     *c)
{
  int order = st->core.n - 1;

  if (st->core.ops != &qss3_powerdevs_ops)
    return order;
  while (order > 0 && c[order] == 0.0)
    order--;
  return order;
}

/* LIQSS1: q where x is heading (see the top of the file), in the order
 * of the method's definition: x + dQ if the derivative there is >= 0,
 * else x - dQ if the derivative there is <= 0, else the point between
 * them where the affine model's derivative vanishes. The initial q is x
 * itself: no derivative is known yet. */
static void
liqss1_requantize (const Integrator *st,
                   const double     *x,
                   double            dq,
                   double           *q)
{
  double target;

  if (st->core.initial)
    target = x[0];
  else if (st->u0 + st->a * (x[0] + dq) >= 0.0)
    target = x[0] + dq;
  else if (st->u0 + st->a * (x[0] - dq) <= 0.0)
    target = x[0] - dq;
  else
    {
      /* The derivative changes sign between x - dQ and x + dQ, so a != 0
       * and the equilibrium lies between; the clamp only guards rounding. */
      target = CLAMP (-st->u0 / st->a, x[0] - dq, x[0] + dq);
    }
  q[0] = target;
  q[1] = q[2] = q[3] = 0.0;
}

static double
liqss1_reschedule (Integrator *st)
{
  double dx = st->core.x[1], s;

  if (dx == 0.0)
    return QD_INF;
  /* Heading for q: the event is when x gets there. */
  s = (st->core.q[0] - st->core.x[0]) / dx;
  if (s > 0.0)
    return s;
  /* Moving away: when x is 2 dQ past q. */
  s = (st->core.q[0] + (dx > 0.0 ? 2.0 : -2.0) * st->core.dq - st->core.x[0]) / dx;
  return s > 0.0 ? s : 0.0;
}

static void
liqss1_derivative (Integrator *st,
                   double      t)
{
  /* The first derivative after our own output, at the same instant: its
   * change is the answer of the loop to the change of q. */
  if (st->core.awaiting && t == st->t_out)
    {
      double dq = st->core.q[0] - st->q_old;

      if (dq != 0.0)
        st->a = (st->core.x[1] - st->dx_old) / dq;
    }
  st->core.awaiting = FALSE;
  st->u0 = st->core.x[1] - st->a * st->core.q[0];
}

/* Our last output changed q and no derivative changed at that instant:
 * the secant slope over that change is 0, and the affine model becomes
 * the derivative as it is. Keeping the old a instead (say the loop has
 * been cut by a Switch) would place each q by a self-dependence that no
 * longer exists. */
static void
liqss1_unanswered (Integrator *st,
                   double      t)
{
  if (st->core.q[0] == st->q_old)
    return;
  st->a = 0.0;
  st->u0 = st->core.x[1];
}

const Ops qd_integrator_liqss1_ops = {
  liqss1_requantize,
  liqss1_reschedule,
  liqss1_derivative,
  NULL,
  liqss1_unanswered,
  NULL,
};

/* QSS1 reaches the edge of its band exactly at the scheduled time, where
 * x = q ± dQ by definition; only rounding of t = tl + sigma and of
 * x + s·dx separates the computed x from it. Snapping x to the edge then
 * keeps the levels exact (x0 = 10, dQ = 1 gives q = 9, 8, ... exactly, as
 * in Cellier's example) instead of drifting by ulps at each step. Only a
 * difference within rounding of the edge is snapped; a state already past
 * it is left alone. */
static inline void
snap_to_edge (const Integrator *st,
              double           *x)
{
  double d, edge;

  if (st->core.ops != &qd_integrator_qss_ops || st->core.n != 1)
    return;
  d = x[0] - st->core.q[0];
  edge = copysign (st->core.dq, d);
  if (fabs (d - edge) <= 8.0 * DBL_EPSILON * (fabs (x[0]) + fabs (st->core.q[0])
                                                + st->core.dq))
    x[0] = st->core.q[0] + edge;
}

/* The methods, one line each: the name (the "method" parameter's
 * choice), the order of x and the table of operations. Adding a method
 * is adding its line; the choices and the table below are both made from
 * this list, so they cannot disagree. */
#define INTEGRATOR_METHODS(METHOD)                                  \
  METHOD ("QSS1", 1, qd_integrator_qss_ops)                         \
  METHOD ("QSS2", 2, qd_integrator_qss_ops)                         \
  METHOD ("QSS3", 3, qd_integrator_qss_ops)                         \
  METHOD ("QSS4", 4, qd_integrator_qss_ops)                         \
  METHOD ("LIQSS1", 1, qd_integrator_liqss1_ops)                    \
  METHOD ("LIQSS2", 2, qd_integrator_liqss2_ops)                    \
  METHOD ("LIQSS3", 3, qd_integrator_liqss3_ops)                    \
  METHOD ("BQSS", 1, qd_integrator_bqss_ops)                        \
  METHOD ("CQSS", 1, qd_integrator_cqss_ops)                        \
  METHOD ("LIQSS2-QSSolver", 2, qd_integrator_liqss2_qssolver_ops)  \
  METHOD ("mLIQSS1", 1, qd_integrator_mliqss1_ops)                  \
  METHOD ("mLIQSS2", 2, qd_integrator_mliqss2_ops)                  \
  METHOD ("QSS3-PowerDEVS", 3, qss3_powerdevs_ops)

typedef struct
{
  int        order;
  const Ops *ops;
} MethodDescriptor;

#define METHOD_DESCRIPTOR(name, order, ops) { order, &ops },
#define METHOD_NAME(name, order, ops) name,

static const MethodDescriptor methods[] = {
  INTEGRATOR_METHODS (METHOD_DESCRIPTOR)
};

static const char *const method_choices[] = {
  INTEGRATOR_METHODS (METHOD_NAME) NULL
};

/* The bytes of the state a block of method @ops uses: the QSS methods
 * none of what the other methods keep (qd-integrator-private.h). */
static gsize
integrator_state_size (const Ops *ops)
{
  return ops == &qd_integrator_qss_ops ? QD_INTEGRATOR_QSS_BYTES
                                       : sizeof (Integrator);
}

/* QdBlockFastPaths.state_size: a QSS block's record takes four cache
 * lines instead of six (a third of a large model's records). */
static gsize
integrator_instance_state_size (const QdParamValue *params)
{
  guint method = (guint) params[PARAM_METHOD].number;

  return integrator_state_size (method < G_N_ELEMENTS (methods)
                                ? methods[method].ops : NULL);
}

void
qd_integrator_core_init (QdIntegratorCore   *core,
                         const QdParamValue *p,
                         double              x0,
                         double              t)
{
  guint method = (guint) p[PARAM_METHOD].number;

  /* The compiler accepts only the choices' names, so the index is valid;
   * the guard is for a state initialised by other means. */
  if (method >= G_N_ELEMENTS (methods))
    method = 0;
  core->ops = methods[method].ops;
  core->n = methods[method].order;
  core->awaiting = FALSE;
  core->dqmin = p[PARAM_DQMIN].number;
  /* The floors of quantum(), computed once: dqmin 0 as dqrel 10^-6, and
   * dqrel at least 8 ulps (of 1), which keeps dQ from going below 8 ulps
   * of x and changes nothing for any dqrel above 1.8e-15. Below both,
   * the smallest normal double: a subnormal quantum (dqrel 1e-320 with
   * dqmin 0 and x near 1e-300) has too few bits for the crossing of
   * x - q to be found, and the state would never requantize. */
  if (!(core->dqmin > 0.0))
    core->dqmin = p[PARAM_DQREL].number * 1e-6;
  core->dqmin = MAX (core->dqmin, DBL_MIN);
  core->dqrel = MAX (p[PARAM_DQREL].number, 8.0 * DBL_EPSILON);
  core->tl = t;
  memset (core->x, 0, sizeof core->x);
  memset (core->q, 0, sizeof core->q);
  core->x[0] = x0;
  core->q[0] = x0;
  core->dq = qd_integrator_core_quantum (core, x0);
  /* Emit the initial q at once, so the blocks downstream know it; a
   * derivative arriving before that (a block of higher priority firing at
   * the start time) must not cancel it. */
  core->sigma = 0.0;
  core->initial = TRUE;
  core->cache_valid = FALSE;
}

static void
integrator_init (QdAtomic *self,
                 double    t)
{
  Integrator *st = self->state;

  qd_integrator_core_init (&st->core, self->params,
                           self->params[PARAM_X0].number, t);
  /* A QSS method's record ends with the core
   * (integrator_state_size()). */
  if (st->core.ops != &qd_integrator_qss_ops)
    {
      st->a = st->u0 = 0.0;
      st->pair = NULL;
    }
  if (st->core.ops->attach != NULL)
    st->core.ops->attach (st, self);
}

static guint64 excess_lambda (QdAtomic *self,
                              double    t);
static void    excess_dint   (QdAtomic *self,
                              double    t);
static void    excess_dext   (QdAtomic       *self,
                              double          t,
                              double          e,
                              guint           port,
                              const QdSignal *u);
static guint64 excess_fire   (QdAtomic *self,
                              double    t,
                              double   *ta);

/* Whether the derivative @c has terms of order n or above, which the
 * method does not integrate itself. */
static inline gboolean
has_excess (const Integrator *st,
            const double     *c)
{
  for (int k = st->core.n; k <= QD_MAX_ORDER; k++)
    if (c[k] != 0.0)
      return TRUE;
  return FALSE;
}

static double
integrator_ta (QdAtomic *self)
{
  Integrator *st = self->state;

  return st->core.sigma;
}

/* QSS1-3: x advanced to t (from the x of tl) and its quantum, as
 * integrator_lambda() computed them for the block whose state is @owner;
 * integrator_dint() at the same instant takes them instead of computing
 * them again, with the same values. One block is imminent at a time, so
 * one per thread (a simulation runs on one) does, and the state's 128
 * bytes stay the QSS methods' whole record: only the unfused calls (the
 * event loop fires an integrator through integrator_fire()) use it.
 * Valid while the owner's core.cache_valid is set (anything that changes
 * x clears it) and t and tl are the same. */
typedef struct
{
  gconstpointer owner;
  double        x[QD_MAX_ORDER + 2];
  double        dq;
  double        t, tl;
} IntegratorCache;

static __thread IntegratorCache integrator_cache;

static guint64
integrator_lambda (QdAtomic *self,
                   double    t)
{
  Integrator *self_st = self->state;
  const Integrator *st = self_st;
  QdSignal *y = &self->out[0];
  double x[QD_MAX_ORDER + 2];
  Integrator settled;

  if (G_UNLIKELY (qd_integrator_marked (st)))
    return excess_lambda (self, t);
  if (st->core.ops != &qd_integrator_qss_ops && self_st->pair != NULL)
    self_st->pair->req_t = t;
  /* The q emitted must be the one dint will compute, which first draws
   * the conclusion of an unanswered output; lambda must not change the
   * state, so that is done on a copy. */
  if (st->core.ops->unanswered != NULL && st->core.awaiting && t > st->t_out)
    {
      settled = *st;
      settle_unanswered (&settled, t);
      st = &settled;
    }
  memcpy (x, st->core.x, sizeof x);
  shift (x, st->core.n, t - st->core.tl);
  snap_to_edge (st, x);

  y->t = t;
  y->order = st->core.n - 1;
  y->tag = 0;
  if (st->core.ops == &qd_integrator_qss_ops)
    {
      /* The only change to the state: dint at this t finds x and its
       * quantum ready (QSS1-3, whose requantization reads nothing else). */
      IntegratorCache *cache = &integrator_cache;

      memcpy (cache->x, x, sizeof x);
      cache->dq = quantum (st, x[0]);
      cache->t = t;
      cache->tl = st->core.tl;
      cache->owner = st;
      self_st->core.cache_valid = TRUE;
      qss_requantize (st, x, cache->dq, y->c);
      return 1;
    }
  st->core.ops->requantize (st, x, quantum (st, x[0]), y->c);
  y->order = output_order (st, y->c);
  return 1;
}

static void
integrator_dint (QdAtomic *self,
                 double    t)
{
  Integrator *st = self->state;

  if (G_UNLIKELY (qd_integrator_marked (st)))
    {
      excess_dint (self, t);
      return;
    }
  if (st->core.ops == &qd_integrator_qss_ops)
    {
      /* QSS1-3: no unanswered outputs to settle, q taken from x, and x
       * and its quantum usually already computed by lambda at this t. */
      const IntegratorCache *cache = &integrator_cache;
      gboolean cached = st->core.cache_valid && cache->owner == st
                        && cache->t == t && cache->tl == st->core.tl;

      st->core.cache_valid = FALSE;
      shift (st->core.q, st->core.n - 1, t - st->core.tl);
      if (cached)
        {
          memcpy (st->core.x, cache->x, sizeof st->core.x);
          st->core.dq = cache->dq;
        }
      else
        {
          shift (st->core.x, st->core.n, t - st->core.tl);
          snap_to_edge (st, st->core.x);
          st->core.dq = quantum (st, st->core.x[0]);
        }
      /* Nothing kept of the output (q_old, dx_old, t_out, awaiting):
       * the QSS methods never read it, and their records end before
       * it (integrator_state_size()); integrator_fire() keeps none
       * either. */
      st->core.tl = t;
      qss_requantize (st, st->core.x, st->core.dq, st->core.q);
      st->core.initial = FALSE;
      st->core.sigma = sigma_after_requantization (st);
      return;
    }
  settle_unanswered (st, t);
  shift (st->core.x, st->core.n, t - st->core.tl);
  shift (st->core.q, st->core.n - 1, t - st->core.tl);
  snap_to_edge (st, st->core.x);
  st->core.tl = t;
  st->q_old = st->core.q[0];
  if (st->pair != NULL)
    st->pair->q1_old = st->core.q[1];
  st->dx_old = st->core.x[1];
  st->t_out = t;
  st->core.awaiting = TRUE;
  /* The quantum of the new x, then the same q lambda just emitted. */
  st->core.dq = quantum (st, st->core.x[0]);
  if (st->pair != NULL)
    st->pair->req_t = t;
  st->core.ops->requantize (st, st->core.x, st->core.dq, st->core.q);
  if (st->core.ops->requantized != NULL)
    st->core.ops->requantized (st, t);
  st->core.initial = FALSE;
  st->core.sigma = st->core.ops->reschedule (st);
}

/* dext for the method's own order: what integrator_dext() does when the
 * derivative is not above the method's order. */
static void
integrator_dext_plain (QdAtomic       *self,
                       double          t,
                       guint           port,
                       const QdSignal *u)
{
  Integrator *st = self->state;
  double s = t - st->core.tl;
  QdSignal v;

  st->core.cache_valid = FALSE;
  settle_unanswered (st, t);
  /* Both x (with the old derivative) and q follow their trajectories up to
   * now; then the new derivative replaces x's higher coefficients. */
  shift (st->core.x, st->core.n, s);
  shift (st->core.q, st->core.n - 1, s);
  st->core.tl = t;
  if (st->core.ops != &qd_integrator_qss_ops && st->pair != NULL)
    st->pair->dx_before = st->core.x[1];

  qd_signal_advance (u, t, &v);
  if (port == PORT_RESET)
    {
      /* The state jumps; the derivative goes on. q follows at once, as
       * at the start: without waiting a quantum, and (LIQSS1) placed on
       * x itself, since the jump says nothing of where x is heading. */
      st->core.x[0] = v.c[0];
      st->core.initial = TRUE;
      st->core.sigma = 0.0;
      return;
    }
  for (int k = 0; k < st->core.n; k++)
    st->core.x[k + 1] = v.c[k] / (k + 1);

  if (st->core.ops == &qd_integrator_qss_ops)
    {
      /* Direct calls on the commonest path (qss_derivative does nothing). */
      st->core.sigma = st->core.initial ? 0.0 : qss_reschedule (st);
      return;
    }
  st->core.ops->derivative (st, t);
  st->core.sigma = st->core.initial ? 0.0 : st->core.ops->reschedule (st);
}

static void
integrator_dext (QdAtomic       *self,
                 double          t,
                 double          e,
                 guint           port,
                 const QdSignal *u)
{
  Integrator *st = self->state;

  if (G_UNLIKELY (qd_integrator_marked (st)
                  || (port == PORT_DERIVATIVE && has_excess (st, u->c))))
    excess_dext (self, t, e, port, u);
  else
    integrator_dext_plain (self, t, port, u);
}

/* integrator_fire() for the methods other than QSS1-4: dint alone, then
 * its new q is the output. integrator_lambda() would compute the same q
 * from the same x, dQ and settled estimate (requantize reads none of what
 * dint sets before calling it, and nothing after it changes q), so doing
 * both computed the requantization twice. Out of line, as a tail call:
 * inlined, its registers cost the QSS steps an instruction each. */
G_NO_INLINE static guint64
other_fire (QdAtomic *self,
            double    t,
            double   *ta)
{
  Integrator *st = self->state;
  QdSignal *y = &self->out[0];

  if (G_UNLIKELY (qd_integrator_marked (st)))
    return excess_fire (self, t, ta);
  if (st->core.ops == &qd_integrator_liqss2_ops)
    qd_integrator_liqss2_dint (st, t);
  else
    integrator_dint (self, t);
  y->t = t;
  y->tag = 0;
  memcpy (y->c, st->core.q, sizeof y->c);
  y->order = output_order (st, y->c);
  *ta = st->core.sigma;
  return 1;
}

/* lambda, dint and ta in one call (QdBlockFastPaths.fire). For QSS1-3 the
 * output and the new state are the same x and q, computed once: x
 * follows its trajectory to t, q takes its value and derivatives, and the
 * next requantization is the closed form after a requantization. The
 * values are those of integrator_lambda() and integrator_dint() to the
 * bit: the same operations on the same operands. What dint keeps only for
 * the methods that follow their own outputs (q and dx/dt just before the
 * output, its time, whether an answer is awaited) is not kept for these
 * methods, which never read it. */
static guint64
integrator_fire (QdAtomic *self,
                 double    t,
                 double   *ta)
{
  Integrator *st = self->state;
  QdSignal *y;
  double s;
  int n;

  if (st->core.ops != &qd_integrator_qss_ops)
    return other_fire (self, t, ta);

  y = &self->out[0];
  n = st->core.n;
  if (n >= 1 && n <= 3)
    {
      *ta = qd_integrator_qss_fire (&st->core, y, t);
      return 1;
    }
  s = t - st->core.tl;
  shift (st->core.x, n, s);
  snap_to_edge (st, st->core.x);
  st->core.dq = quantum (st, st->core.x[0]);
  st->core.tl = t;
  st->core.initial = FALSE;
  st->core.cache_valid = FALSE;
  qss_requantize (st, st->core.x, st->core.dq, st->core.q);
  y->t = t;
  y->order = n - 1;
  y->tag = 0;
  memcpy (y->c, st->core.q, sizeof y->c);
  st->core.sigma = sigma_after_requantization (st);
  *ta = st->core.sigma;
  return 1;
}

/* qd_integrator_dext_ta() for every case but QSS2's derivative: QSS1's
 * and QSS3's as QSS2's (qd_integrator_qss1_derivative() and
 * qd_integrator_qss3_derivative()), the others below. Out of line: as a
 * branch of qd_integrator_dext_ta() it made GCC compile the QSS2 path with
 * 40 more instructions per step. */
G_NO_INLINE static double
other_dext_ta (QdAtomic       *self,
               double          t,
               double          e,
               guint           port,
               const QdSignal *u)
{
  Integrator *st = self->state;

  /* The paths written out take derivatives of the method's order; a
   * marked integrator (qd_integrator_marked()) or a derivative above the
   * order goes through integrator_dext(). */
  if (port == PORT_DERIVATIVE && u->c[3] == 0.0)
    {
      if (st->core.ops == &qd_integrator_qss_ops && st->core.n == 3)
        return qd_integrator_qss3_derivative (&st->core, t, t - u->t, u->c[0],
                                              u->c[1], u->c[2], u->c[3]);
      if (st->core.ops == &qd_integrator_liqss2_ops && u->c[2] == 0.0)
        return qd_integrator_liqss2_input (st, t, t - u->t, u->c[0],
                                           u->c[1], u->c[2], u->c[3]);
      if (st->core.ops == &qd_integrator_qss_ops && st->core.n == 1
          && u->c[1] == 0.0 && u->c[2] == 0.0)
        return qd_integrator_qss1_derivative (&st->core, t, t - u->t, u->c[0],
                                              u->c[1], u->c[2], u->c[3]);
    }
  integrator_dext (self, t, e, port, u);
  return st->core.sigma;
}

/* dext and ta in one call (QdBlockFastPaths.dext_ta); QSS2's derivative is
 * qd_integrator_qss2_derivative(), the rest other_dext_ta(). Not static:
 * WSum's cascade kernel calls it for the receivers it does not take
 * inline (qd-block-wsum.c). */
double
qd_integrator_dext_ta (QdAtomic       *self,
                       double          t,
                       double          e,
                       guint           port,
                       const QdSignal *u)
{
  Integrator *st = self->state;

  /* The hint keeps GCC from compiling the inlined QSS2 path as a cold
   * one, where it calls sqrt() from libm instead of the instruction. */
  if (G_LIKELY (st->core.ops == &qd_integrator_qss_ops && st->core.n == 2
                && port == PORT_DERIVATIVE
                && u->c[2] == 0.0 && u->c[3] == 0.0))
    return qd_integrator_qss2_derivative (&st->core, t, t - u->t, u->c[0], u->c[1],
                                          u->c[2], u->c[3]);
  return other_dext_ta (self, t, e, port, u);
}

/* WSum's cascade kernel hands its sums here (qd-integrator-input.h),
 * having prefetched what the QSS methods' fields, the core, fill
 * (checked in qd-integrator-private.h). */

gboolean
qd_integrator_is_derivative_input (const QdAtomic *receiver,
                                   guint           port)
{
  return (receiver->type == &qd_block_integrator
          || receiver->type == &qd_block_integrator_reset)
         && port == PORT_DERIVATIVE;
}

/* The sum's derivative inlined when the method is the QSS one of its
 * order plus one (where the crossing of x - q is solved without the
 * general search; WSum's kernel calls those itself) or LIQSS2 under a sum
 * of order 1; otherwise dext_ta.
 * The segment arrives at its own time t, so the time since its start is
 * t - t, +0 for the finite times of a run; with it and the coefficients
 * above the order, +0, the derivative is computed by the same operations
 * on the same values as qd_integrator_dext_ta() on the stored segment,
 * and so to the bit. */
double
qd_integrator_take_sum (QdIntegratorCore *core,
                        QdAtomic         *receiver,
                        double            t,
                        int               order,
                        double            c0,
                        double            c1,
                        double            c2,
                        const QdSignal   *y)
{
  Integrator *st = (Integrator *) core;

  if (qd_integrator_is_qss (core, order + 1))
    return qd_integrator_qss_sum (core, t, order, c0, c1, c2);
  if (order == 1 && core->ops == &qd_integrator_liqss2_ops)
    return qd_integrator_liqss2_input (st, t, 0.0, c0, c1, c2, 0.0);
  return qd_integrator_dext_ta (receiver, t, t - core->tl, PORT_DERIVATIVE, y);
}

/* ---- Inputs above the method's order --------------------------------
 *
 * A method of order n integrates a derivative of order n - 1: QSS1 a
 * constant, QSS2 a line. A derivative of higher order arrives from a
 * source exact to a higher order (a Ramp, a Trapezoid, Time, a Sine of
 * order 1 or more into QSS1), or from integrators of a higher-order
 * method (LIQSS2's lines into a QSS1 integrator, QSS3's parabolas into
 * QSS2). The quantized state system is dx/dt = f(q, u) with x its exact
 * solution, so those terms must not be dropped: dropped, a Ramp from 0
 * into QSS1 would leave x at 0 for good.
 *
 * The method still works on the derivative truncated to its order, as
 * if it were the input; what the terms it does not see add to x over the
 * time h since the derivative's expansion point ex_t,
 *     D(h) = sum over k >= n of c_k h^(k+1) / (k + 1),
 * is added to x at the integrator's next transition, which also gives
 * the method the derivative's value and derivatives at that time, as a
 * new input segment would. So x is exact at every transition. Between
 * them |D| is held below EXCESS_TOLERANCE quanta by a refresh: an
 * internal transition without output, scheduled where |D| could reach
 * it, that does just that. The method's band (|x - q| <= dQ for QSS)
 * then holds for the exact x within (1 + EXCESS_TOLERANCE) dQ. Each
 * refresh counts as an internal transition (and an integrator step);
 * after a requantization |D| starts again from 0.
 *
 * Why not raise x's degree instead: a cubic derivative would need a
 * quartic x and its crossings, and each method's rules (LIQSS's affine
 * model, BQSS's levels) are written for x of degree n; this way they all
 * see what they were written for.
 *
 * The derivative and the method's table are kept in a QdIntegratorExcess
 * (qd-integrator-private.h), allocated the first time a block gets such a
 * derivative and kept for the run (excess_of()): the records of the many
 * blocks that never do stay their methods' size. The integrator marks
 * the case by pointing st->core.ops at the QdIntegratorExcess's marker, a
 * table nothing calls through: every fast path tests st->core.ops for the
 * method it writes out, so a marked integrator reaches the general
 * functions, which hand it to the functions below; they put the method's
 * table (method_ops) back while the method works. A run without such
 * derivatives never comes here. */

#define EXCESS_TOLERANCE 0.125

/* The key of the simulation's table of QdIntegratorExcess by state
 * (qd_atomic_get_shared()). */
#define EXCESS_TABLE "qd-integrator-excess"

static gpointer
excess_table_new (QdAtomic *self)
{
  return g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
}

/* The QdIntegratorExcess of the integrator @self, whose table is the
 * method's (not marked): the one it had, or a new one. An allocation in
 * the run, once per block that gets a derivative above its method's
 * order, and a look-up each time such a derivative follows one of the
 * method's own order; while marked, st->core.ops leads to it. */
static QdIntegratorExcess *
excess_of (QdAtomic *self)
{
  GHashTable *table = qd_atomic_get_shared (self, EXCESS_TABLE,
                                            excess_table_new,
                                            (GDestroyNotify) g_hash_table_unref);
  QdIntegratorExcess *ex = g_hash_table_lookup (table, self->state);

  if (ex == NULL)
    {
      ex = g_new0 (QdIntegratorExcess, 1);
      g_hash_table_insert (table, self->state, ex);
    }
  return ex;
}

/* The QdIntegratorExcess of the marked integrator @st. */
static inline QdIntegratorExcess *
excess_marked (const Integrator *st)
{
  return (QdIntegratorExcess *) st->core.ops;
}

/* D(h), from the derivative around ex_t. */
static double
excess_integral (const Integrator         *st,
                 const QdIntegratorExcess *ex,
                 double                    h)
{
  double d = 0.0, power = h;

  for (int k = 0; k <= QD_MAX_ORDER; k++, power *= h)
    if (k >= st->core.n)
      d += ex->ex_c[k] * power / (k + 1);
  return d;
}

/* The longest h with |D(h)| <= EXCESS_TOLERANCE dQ: each of the m terms
 * is given an m-th of it. */
static double
excess_interval (const Integrator         *st,
                 const QdIntegratorExcess *ex)
{
  double tol = EXCESS_TOLERANCE * st->core.dq, h = QD_INF;
  int m = 0;

  for (int k = st->core.n; k <= QD_MAX_ORDER; k++)
    m += ex->ex_c[k] != 0.0;
  for (int k = st->core.n; k <= QD_MAX_ORDER; k++)
    if (ex->ex_c[k] != 0.0)
      h = fmin (h, pow ((k + 1) * tol / (m * fabs (ex->ex_c[k])),
                        1.0 / (k + 1)));
  /* A NaN coefficient fails the run elsewhere; no refresh for it. */
  return h > 0.0 ? h : QD_INF;
}

/* Makes x exact at @t (the terms the method did not integrate since
 * ex_t added) and puts the method's table back; returns the
 * QdIntegratorExcess, which stays the block's. */
static QdIntegratorExcess *
excess_settle (Integrator *st,
               double      t)
{
  QdIntegratorExcess *ex = excess_marked (st);

  st->core.x[0] += excess_integral (st, ex, t - ex->ex_t);
  st->core.ops = ex->method_ops;
  return ex;
}

/* After a transition at @t with the method's table in place and ex_c
 * the derivative around @t: marks the integrator when that derivative is
 * above the method's order, keeping the method's next event and
 * scheduling the refresh if it comes first. */
static void
excess_arm (Integrator         *st,
            QdIntegratorExcess *ex,
            double              t)
{
  double h;

  if (!has_excess (st, ex->ex_c))
    return;
  ex->ex_t = t;
  ex->method_ops = st->core.ops;
  st->core.ops = &ex->marker;
  ex->ex_due = t + st->core.sigma;
  h = excess_interval (st, ex);
  if (h < st->core.sigma)
    st->core.sigma = h;
}

/* dext of a marked integrator, or of a derivative above the order. */
static void
excess_dext (QdAtomic       *self,
             double          t,
             double          e,
             guint           port,
             const QdSignal *u)
{
  Integrator *st = self->state;
  QdIntegratorExcess *ex = NULL;
  QdSignal v;

  if (qd_integrator_marked (st))
    ex = excess_settle (st, t);
  integrator_dext_plain (self, t, port, u);
  if (port == PORT_DERIVATIVE)
    {
      if (ex == NULL)
        ex = excess_of (self);
      qd_signal_advance (u, t, &v);
      memcpy (ex->ex_c, v.c, sizeof ex->ex_c);
    }
  else if (ex != NULL)
    /* A reset: x jumps, the derivative goes on. */
    shift (ex->ex_c, QD_MAX_ORDER, t - ex->ex_t);
  else
    return;
  excess_arm (st, ex, t);
}

/* A marked integrator at @t: x made exact and the derivative's value and
 * derivatives at @t given to the method, as by a new input segment (the
 * method's time advance is then in st->core.sigma). Leaves the method's
 * table in place, unmarked, for a requantization to follow, and returns
 * the QdIntegratorExcess; excess_arm() marks it again. */
static QdIntegratorExcess *
excess_resync (QdAtomic *self,
               double    t)
{
  Integrator *st = self->state;
  QdIntegratorExcess *ex = excess_marked (st);
  QdSignal seg = { .t = ex->ex_t, .order = QD_MAX_ORDER };

  memcpy (seg.c, ex->ex_c, sizeof seg.c);
  excess_settle (st, t);
  integrator_dext_plain (self, t, PORT_DERIVATIVE, &seg);
  shift (ex->ex_c, QD_MAX_ORDER, t - ex->ex_t);
  ex->ex_t = t;
  return ex;
}

/* lambda of a marked integrator: nothing at a refresh; at the method's
 * own event, the q that excess_dint() will compute (on copies of the
 * record and of the QdIntegratorExcess: lambda leaves the state as it
 * is). */
static guint64
excess_lambda (QdAtomic *self,
               double    t)
{
  const Integrator *st = self->state;
  QdIntegratorExcess ex = *excess_marked (st);
  Integrator copy;
  QdAtomic view = *self;

  if (t < ex.ex_due)
    return 0;
  /* Only what the record holds: a QSS method's ends early. */
  memcpy (&copy, st, integrator_state_size (ex.method_ops));
  copy.core.ops = &ex.marker;
  view.state = &copy;
  excess_resync (&view, t);
  return integrator_lambda (&view, t);
}

/* dint of a marked integrator: a refresh, or the method's own event. */
static void
excess_dint (QdAtomic *self,
             double    t)
{
  Integrator *st = self->state;
  gboolean refresh = t < excess_marked (st)->ex_due;
  QdIntegratorExcess *ex = excess_resync (self, t);

  if (!refresh)
    integrator_dint (self, t);
  excess_arm (st, ex, t);
}

/* fire of a marked integrator: excess_lambda(), then excess_dint(). Out
 * of line: inlined into integrator_fire(), the QdIntegratorExcess kept
 * across the call took one more saved register on every QSS step. */
G_NO_INLINE static guint64
excess_fire (QdAtomic *self,
             double    t,
             double   *ta)
{
  Integrator *st = self->state;
  gboolean refresh = t < excess_marked (st)->ex_due;
  QdIntegratorExcess *ex = excess_resync (self, t);
  guint64 mask = 0;

  if (!refresh)
    mask = integrator_fire (self, t, ta);
  excess_arm (st, ex, t);
  *ta = st->core.sigma;
  return mask;
}

static gboolean
integrator_check (const QdBlockType  *type,
                  const QdParamValue *params,
                  guint               n_inputs,
                  guint               n_outputs,
                  GError            **error)
{
  if (params[PARAM_DQMIN].number == 0.0 && params[PARAM_DQREL].number == 0.0)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("dqmin and dqrel are both 0: set one of them"));
      return FALSE;
    }
  return TRUE;
}

static const QdParamSpec integrator_params[] = {
  { "x0", N_("Initial state"), QD_PARAM_NUMBER, "0", -QD_INF, QD_INF, NULL,
    N_("The value of the state x at the start time."), NULL, 0 },
  { "method", N_("Method"), QD_PARAM_CHOICE, "", -QD_INF, QD_INF, NULL,
    N_("The quantized-state method: QSS1, QSS2, QSS3 or QSS4 emit a "
       "piecewise constant, linear, parabolic or cubic q; LIQSS1, LIQSS2 and LIQSS3 are "
       "their linearly implicit versions for stiff systems; BQSS (backward) "
       "and CQSS (centered) are first-order stiff methods; LIQSS2-QSSolver "
       "is LIQSS2 as the QSS Solver defines it (q a quantum behind x, with "
       "the slope that makes x touch it); mLIQSS1 and mLIQSS2 are LIQSS1 "
       "and LIQSS2 that place the q of two coupled states together when "
       "their steps would cycle; QSS3-PowerDEVS is QSS3 as PowerDEVS "
       "computes it (the order of q is that of its highest non-zero "
       "coefficient, and the next time is sought with the terms under a "
       "thousandth of the next lower one dropped), for imported PowerDEVS "
       "models. Empty uses the model's setting."),
    method_choices, QD_PARAM_INHERIT },
  { "dqmin", N_("Absolute quantum"), QD_PARAM_NUMBER, "", 0, QD_INF, NULL,
    N_("The smallest quantum: q is updated when x drifts max(dqrel·|x|, "
       "dqmin) away from it. Empty uses the model's setting."),
    NULL, QD_PARAM_INHERIT },
  { "dqrel", N_("Relative quantum"), QD_PARAM_NUMBER, "", 0, QD_INF, NULL,
    N_("The quantum relative to |x|. Empty uses the model's setting."),
    NULL, QD_PARAM_INHERIT },
  { "size", N_("Size"), QD_PARAM_INTEGER, "1", 1, QD_INF, NULL,
    N_("The number of states: above 1, the block is a vector of that many "
       "integrators, each with its own quantum and events, and x0 is one "
       "value for all or a list with one per state."), NULL, QD_PARAM_COMPILE_ONLY },
};

/* For the debugger (qd-debug.h): what the block waits for, and its state
 * at @t, x and q evaluated from their polynomials. */
static const char *
integrator_describe_phase (QdAtomic *self)
{
  Integrator *st = self->state;

  if (st->core.initial)
    return N_("initial output due");
  if (st->core.sigma >= QD_INF)
    return N_("passive: x stays within ΔQ of q");
  return N_("waiting for ΔQ crossing");
}

static void
integrator_describe_state (QdAtomic   *self,
                           double      t,
                           QdStateFunc add,
                           gpointer    user_data)
{
  Integrator *st = self->state;
  double s = t - st->core.tl;
  double x = 0, dx = 0, q = 0;

  for (int k = st->core.n; k >= 0; k--)
    x = x * s + st->core.x[k];
  for (int k = st->core.n; k >= 1; k--)
    dx = dx * s + k * st->core.x[k];
  for (int k = st->core.n - 1; k >= 0; k--)
    q = q * s + st->core.q[k];
  add (N_("x"), x, NULL, user_data);
  add (N_("q"), q, NULL, user_data);
  add (N_("ΔQ"), st->core.dq, NULL, user_data);
  add (N_("derivative"), dx, NULL, user_data);
  add (N_("σ (time to next step)"), st->core.tl + st->core.sigma - t, NULL, user_data);
}

/* The fused forms the event loop calls for each integrator. */
/* The vector Integrator (qd-block-vector-integrator.c) takes QSS1 to
 * QSS3 without a reset input. */
static gboolean
integrator_vector_accepts (const QdBlockType *type,
                           const char *const *texts)
{
  return type == &qd_block_integrator
         && qd_vector_integrator_accepts (texts[PARAM_METHOD]);
}

static const QdBlockFastPaths integrator_fast = {
  .fire = integrator_fire,
  .dext_ta = qd_integrator_dext_ta,
  .state_size = integrator_instance_state_size,
  .vector_type = &qd_block_vector_integrator,
  .vector_accepts = integrator_vector_accepts,
};

/* On the canvas: the method, which decides how the block behaves. */
static char *
integrator_describe_params (const QdBlockType *type,
                            const char *const *texts,
                            guint              n_inputs,
                            char            ***input_labels)
{
  if (texts[1][0] == '\0')
    return g_strdup (_("model's method"));
  return g_strdup (texts[1]);
}

const QdBlockType qd_block_integrator = {
  .id = "integrator",
  .category = N_("Continuous"),
  .name = N_("Integrator"),
  .glyph = "∫",
  .doc = N_("A quantized-state integrator: x is the integral of the input, "
            "computed exactly as a polynomial, and the output q follows x "
            "within a quantum dQ = max(dqrel·|x|, dqmin). QSS1 outputs a "
            "piecewise constant q (Kofman's quantization with hysteresis), "
            "QSS2 a piecewise linear and QSS3 a piecewise parabolic one; a "
            "new output is emitted each time |x − q| reaches dQ. LIQSS1 "
            "places q where x is heading, which keeps stiff systems from "
            "oscillating between quantization levels. The error of a "
            "stable linear system stays bounded by a multiple of dQ."),
  .inputs = { .count = 1, .name_prefix = "derivative",
              .doc = N_("The derivative of the state, dx/dt.") },
  .outputs = { .count = 1, .name_prefix = "q",
               .doc = N_("The quantized state q.") },
  .params = integrator_params,
  .n_params = G_N_ELEMENTS (integrator_params),
  .describe_params = integrator_describe_params,
  .flags = QD_BLOCK_INTEGRATOR,
  .state_size = sizeof (Integrator),
  .check = integrator_check,
  .init = integrator_init,
  .ta = integrator_ta,
  .dint = integrator_dint,
  .dext = integrator_dext,
  .lambda = integrator_lambda,
  .fast = &integrator_fast,
  .describe_phase = integrator_describe_phase,
  .describe_state = integrator_describe_state,
};

/* The same integrator with a reset input: one method table, one set of
 * parameters; only the ports and the documentation differ. */
const QdBlockType qd_block_integrator_reset = {
  .id = "integrator_reset",
  .category = N_("Continuous"),
  .name = N_("Integrator with Reset"),
  .glyph = "∫↺",
  .doc = N_("A quantized-state integrator (see Integrator) whose state can "
            "be set from outside: an event on the reset input sets x to the "
            "value it carries, at that time, and the new q is emitted at "
            "once. The derivative input is integrated as before. Use it "
            "for hybrid models, e.g. a bouncing ball (a Cross Detect on the "
            "height commands a sampler of the speed, whose value times the "
            "restitution coefficient resets the speed) or a spiking neuron "
            "(reset of the potential after each spike)."),
  .inputs = { .count = 2, .name_prefix = "u",
              .doc = N_("u0 is the derivative dx/dt; an event on u1 (the "
                        "reset) sets x to its value.") },
  .outputs = { .count = 1, .name_prefix = "q",
               .doc = N_("The quantized state q.") },
  .params = integrator_params,
  .n_params = G_N_ELEMENTS (integrator_params),
  .describe_params = integrator_describe_params,
  .flags = QD_BLOCK_INTEGRATOR,
  .state_size = sizeof (Integrator),
  .check = integrator_check,
  .init = integrator_init,
  .ta = integrator_ta,
  .dint = integrator_dint,
  .dext = integrator_dext,
  .lambda = integrator_lambda,
  .fast = &integrator_fast,
  .describe_phase = integrator_describe_phase,
  .describe_state = integrator_describe_state,
};

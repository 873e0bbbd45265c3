/* qd-integrator-private.h: the state and method table of the Integrator
 * block, shared by the files that implement its methods
 *
 * qd-block-integrator.c holds the block (its DEVS functions, parameters,
 * the list of methods and the explicit methods QSS1-4 and LIQSS1);
 * qd-integrator-stiff.c holds the stiff methods LIQSS2, LIQSS3,
 * LIQSS2-QSSolver, BQSS and CQSS; qd-integrator-mliqss.c mLIQSS1 and
 * mLIQSS2; qd-integrator-quartic.c QSS4's crossing. All write against the state struct and the table of
 * operations declared here. Not installed.
 */
#pragma once

#include <math.h>

#include "qd-blocks-private.h"
#include "qd-block-fast-private.h"
#include "qd-integrator-input.h"
#include "qd-poly.h"

G_BEGIN_DECLS

typedef struct _Integrator Integrator;

/* What mLIQSS1 and mLIQSS2 keep besides LIQSS's state
 * (qd-integrator-mliqss.c): the time the q being chosen is for (set by
 * lambda and dint before requantize), q's slope just before the last
 * output (with Integrator.q_old), the derivative just before the last
 * new one (set by dext), the coupled integrators of the same kind
 * (qd_atomic_get_coupled()) with the estimated cross-dependences
 * a_ik = d(dx_i/dt)/dq_k and the output time of each that the estimate
 * last saw, and the q a partner chose for this block at forced_t (the
 * simultaneous update of a pair). */
typedef struct
{
  double       req_t;
  double       q1_old;
  double       dx_before;
  Integrator **partner;
  double      *a_cross;
  double      *seen_out;
  guint        n_partners;
  gboolean     forced;
  double       forced_t;
  double       forced_q[2];
} MliqssPair;

typedef struct _QdIntegratorOps
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
  /* Optional (may be NULL): called by dint once the new q is in st->core.q and
   * before reschedule, while st->core.initial still tells whether that q was
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
  /* Optional (may be NULL): called by init once the state is set, for
   * the methods that need the simulation's services (mLIQSS's coupled
   * integrators). */
  void   (*attach)      (Integrator       *st,
                         QdAtomic         *self);
} Ops;

struct _Integrator
{
  /* What every transition of QSS1-3 reads or writes comes first, in the
   * first 128 bytes (qd-integrator-input.h): ops, tl, x, q, sigma, dq,
   * dqmin, dqrel, n, awaiting, initial, cache_valid. The QSS methods
   * (qd_integrator_qss_ops) use nothing else: their blocks' records end
   * here (QD_INTEGRATOR_QSS_BYTES, two cache lines;
   * integrator_state_size()). What they rarely need is kept out of line:
   * x and its quantum as lambda computed them for a dint at the same
   * instant (one per thread, keyed by the state: qd-block-integrator.c,
   * IntegratorCache), and a derivative above the method's order
   * (QdIntegratorExcess, allocated for the blocks that get one). */
  QdIntegratorCore core;

  double  t_out;                 /* time of the last output (the methods
                                    that follow their own outputs) */

  /* LIQSS1: dx/dt = u0 + a q, a estimated as qd-block-integrator.c
   * describes (LIQSS2 and LIQSS3 estimate a the same way). */
  double  a, u0;
  double  q_old, dx_old;         /* q and dx/dt just before the last output */

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

  /* LIQSS2-QSSolver (qd-integrator-stiff.c): whether the next reschedule
   * follows the block's own requantization (not a new derivative), and
   * whether the last derivative answered the block's own output. */
  gboolean own_step;
  gboolean answered;

  /* mLIQSS1, mLIQSS2 (qd-integrator-mliqss.c): their pair state, or
   * NULL for the other methods (never read for the QSS ones, whose
   * records end before it). */
  MliqssPair *pair;
};

/* The part of the state the QSS methods use: the core alone, so that a
 * large model's QSS Integrator takes two cache lines of record, not
 * four (docs/performance.md, "Large models"). */
#define QD_INTEGRATOR_QSS_BYTES 128
G_STATIC_ASSERT (sizeof (QdIntegratorCore) <= QD_INTEGRATOR_INPUT_BYTES);
G_STATIC_ASSERT (G_STRUCT_OFFSET (Integrator, t_out) == QD_INTEGRATOR_QSS_BYTES);

/* A derivative above the method's order (qd-block-integrator.c, "Inputs
 * above the method's order"), out of line: most blocks never get one.
 * While the integrator is marked, st->core.ops points at @marker (a table
 * of NULLs that nothing calls through), which is how the functions find
 * this; @method_ops is then the method's own table. The derivative is a
 * polynomial around ex_t (where x was last made exact), ex_due the
 * absolute time of the method's own next event. */
typedef struct
{
  Ops         marker;
  const Ops  *method_ops;
  double      ex_t;
  double      ex_due;
  double      ex_c[QD_MAX_ORDER + 1];
} QdIntegratorExcess;

/* Whether @st is marked (an excess in progress): its table is a
 * QdIntegratorExcess's marker, whose functions are all NULL. */
static inline gboolean
qd_integrator_marked (const Integrator *st)
{
  return st->core.ops->requantize == NULL;
}

/* The method of @st, marked or not. */
static inline const Ops *
qd_integrator_method (const Integrator *st)
{
  return qd_integrator_marked (st)
         ? ((const QdIntegratorExcess *) st->core.ops)->method_ops
         : st->core.ops;
}


/* The block emitted at t_out and is still waiting for the derivative
 * that answers it, but time has moved on to t: the answer will not come.
 * Lets the method draw its conclusion (Ops.unanswered) and stops
 * waiting. */
static inline void
settle_unanswered (Integrator *st,
                   double      t)
{
  if (st->core.awaiting && t > st->t_out)
    {
      if (st->core.ops->unanswered != NULL)
        st->core.ops->unanswered (st, t);
      st->core.awaiting = FALSE;
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

/* The quantum for a state of value x, max(dqrel |x|, dqmin), with two
 * floors (methods.md, "The quantized integrator") that init builds into
 * st->core.dqmin and st->core.dqrel, and that models whose quanta suit their states
 * never reach:
 *  - dqrel 10^-6 when dqmin is 0: a state going to 0 would otherwise get
 *    ever smaller quanta and time advances, and one sitting at 0 a zero
 *    quantum; below |x| = 10^-6 the quantum is that of 10^-6;
 *  - 8 ulps of x (st->core.dqrel at least 8 DBL_EPSILON): a quantum of less
 *    than x's own resolution would leave x where it is (x + dQ rounds to
 *    x), or step without end. */
static inline double
quantum (const Integrator *st,
         double            x)
{
  return qd_integrator_core_quantum (&st->core, x);
}

/* QSS1, QSS2, QSS3 and QSS4 (qd-block-integrator.c); their new
 * derivatives are in qd-integrator-input.h. */
extern const Ops qd_integrator_qss_ops;


/* The first s > 0 with |d(s)| = dq for the quartic d (five
 * coefficients): QSS4's crossing (qd-integrator-quartic.c). */
double qd_integrator_quartic_crossing (const double *d,
                                       double        dq);

/* The integrator's dext_ta (QdBlockFastPaths.dext_ta). */
double qd_integrator_dext_ta (QdAtomic       *self,
                              double          t,
                              double          e,
                              guint           port,
                              const QdSignal *u);

/* LIQSS2's dext once x and q are at @t and x's new derivative is in
 * x[1] and x[2]: the method's derivative (its estimate of a and u) and
 * the time advance, as ops->derivative and ops->reschedule would give it,
 * in one direct call (qd-integrator-stiff.c). */
double qd_integrator_liqss2_derivative_ta (Integrator *st,
                                           double      t);

/* LIQSS2's internal transition (integrator_dint() with st->core.ops
 * qd_integrator_liqss2_ops), written out; returns the time advance, also
 * left in st->core.sigma, with the new q in st->core.q (qd-integrator-stiff.c). */
double qd_integrator_liqss2_dint (Integrator *st,
                                  double      t);

/* LIQSS2's new derivative (st->core.ops is qd_integrator_liqss2_ops): the
 * input segment c0 + c1 s + c2 s^2 + c3 s^3, taken @us after its own
 * time, arrives at @t; returns the time advance, also left in
 * st->core.sigma. integrator_dext() for LIQSS2 with its loops written out, in
 * locals, for other_dext_ta() and for WSum's cascade kernel, which gives
 * the sum's coefficients in registers (qd-block-wsum.c). */
static inline double
qd_integrator_liqss2_input (Integrator *st,
                            double      t,
                            double      us,
                            double      c0,
                            double      c1,
                            double      c2,
                            double      c3)
{
  double s, x0, x1, x2, q0;

  st->core.cache_valid = FALSE;
  settle_unanswered (st, t);
  s = t - st->core.tl;
  x0 = st->core.x[0];
  x1 = st->core.x[1];
  x2 = st->core.x[2];
  q0 = st->core.q[0];
  if (s != 0.0)
    {
      x1 += s * x2;
      x0 += s * x1;
      q0 += s * st->core.q[1];
    }
  st->core.x[0] = x0;
  st->core.q[0] = q0;
  st->core.tl = t;
  st->core.x[1] = c0 + us * (c1 + us * (c2 + us * c3));
  st->core.x[2] = (c1 + us * (2.0 * c2 + 3.0 * us * c3)) * 0.5;
  st->core.sigma = qd_integrator_liqss2_derivative_ta (st, t);
  return st->core.sigma;
}

/* LIQSS1 (qd-block-integrator.c), which mLIQSS1 extends. */
extern const Ops qd_integrator_liqss1_ops;

/* mLIQSS1 and mLIQSS2 (qd-integrator-mliqss.c). */
extern const Ops qd_integrator_mliqss1_ops;
extern const Ops qd_integrator_mliqss2_ops;

/* The stiff methods' tables (qd-integrator-stiff.c). */
extern const Ops qd_integrator_liqss2_ops;
extern const Ops qd_integrator_liqss3_ops;
extern const Ops qd_integrator_bqss_ops;
extern const Ops qd_integrator_cqss_ops;
extern const Ops qd_integrator_liqss2_qssolver_ops;

G_END_DECLS

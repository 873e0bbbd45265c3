/* qd-integrator-stiff.c: the stiff methods of the Integrator block
 * (LIQSS2, LIQSS3, LIQSS2-QSSolver, BQSS, CQSS)
 *
 * These are method tables (Ops, qd-integrator-private.h) that
 * qd-block-integrator.c picks at init; the block's DEVS functions, its
 * parameters and the explicit methods live there. Notation: x(s) and q(s)
 * are the state and the quantized state as polynomials in the time s since
 * the current instant, dQ the quantum, n the order of x.
 *
 * LIQSS2 and LIQSS3 (Migoni and Kofman 2009, "Linearly implicit discrete
 * event methods for stiff ODEs", Lat. Am. Appl. Res. 39(3), for LIQSS2;
 * Migoni, Bortolotto, Kofman and Cellier 2013, "Linearly implicit
 * quantization-based integration methods for stiff ordinary differential
 * equations", Simul. Model. Pract. Theory 35, for both). Near its own
 * state the derivative is taken as affine in q, dx/dt = a q + u(s), with u
 * a polynomial of degree n - 1 (u0, and its slope u1 for LIQSS2; also u2
 * for LIQSS3). At a requantization q0 is chosen first; the higher
 * coefficients of q are then those the affine model gives from q0 (the
 * "linearly implicit" step: q has the slope x will have once the loop has
 * answered the new q, so x - q has no terms below s^n):
 *     q1 = a q0 + u0,            q2 = (a q1 + u1) / 2      (LIQSS3),
 * and the n-th derivative of x, affine in q0, is then d(q0) with
 *     LIQSS2: d = a (a q0 + u0) + u1,
 *     LIQSS3: d = a (a q1 + u1) + 2 u2.
 * q0 is x0 + dQ or x0 - dQ, the one x is heading to: after the loop
 * has answered, x - q = -/+dQ + d s^n / n!, so x0 + dQ qualifies when
 * d(x0 + dQ) > 0 and x0 - dQ when d(x0 - dQ) < 0 (the n-th order form
 * of LIQSS1's rule on dx/dt). When exactly one qualifies it is q0.
 * Otherwise (the papers' third case) q0 is the point q^ between them
 * where d vanishes, so that x and q run parallel at the quasi-steady
 * state instead of oscillating around it. d is affine in q0 with slope
 * a^n / (n - 1)!; for a stable self-dependence (a < 0) both levels
 * qualify when q^ is within dQ of x0 for LIQSS2 (a^2 > 0), and neither
 * does for LIQSS3 (a^3 < 0), as for LIQSS1.
 * The next requantization is, as for LIQSS1, the first s > 0 where x
 * meets q or |x - q| = 2 dQ.
 *     a and u are estimated as LIQSS1 does (qd-block-integrator.c): a from
 * the change of the derivative that answers the block's own output at
 * the same instant, a = (dx/dt after - dx/dt before) / (q0 after - q0
 * before), or a = 0 when no derivative answers the output at its
 * instant; then u = dx/dt - a q coefficient by coefficient, whenever a
 * new derivative arrives (or, with a = 0, when the answer is found
 * missing). u is kept as a polynomial and evaluated at the
 * scheduled requantization (u_next) so that lambda and dint see it.
 *     Choices: the initial q (and the q after a reset) takes x's own
 * Taylor coefficients, as QSS2 and QSS3 do, since no a is known yet. a
 * is not clipped to a < 0. A level that qualifies together with the
 * other one is not taken (read as an ordered if/else, the conditions
 * would take x0 + dQ): for LIQSS2 near the quasi-steady state that makes
 * x circle around q^ with one step every 1/|a| or so, which is what the
 * third case is there to prevent.
 *     Checked against: the three cases (upper level, lower level, the
 * point q^ where the affine model's derivative of order n vanishes),
 * the band of 2 dQ and the event when x meets q, as the papers'
 * abstracts and the published restatements of their rules give them (the
 * method sections themselves were not at hand); and, for the formulas,
 * the QSS Solver of the papers' group (CIFASIS qss-solver,
 * src/engine/qss/methods/liqss.c, liqss2.c and liqss3.c), whose third
 * case is taken when |d(x0)| < |a|^n dQ (our "both or neither") and puts
 * q on q0 = -u1/a^2 - u0/a, q1 = -u1/a (LIQSS2) and q2 = -u2/a,
 * q1 = (2 q2 - u1)/a, q0 = (q1 - u0)/a (LIQSS3): affine_q() with d = 0
 * gives the same. Its later versions bend the slope of q at a level by
 * a correction of their own (not among the rules above; not taken), and
 * clip a measured a > 0 to 0 (not taken: a positive
 * self-dependence only makes the levels qualify differently).
 * For LIQSS1, the three cases read in order (upper if the derivative
 * there is >= 0, else lower if <= 0, else q^) and the reading by the sign
 * of the current derivative (the level on that side if the derivative
 * there keeps its sign, else q^ clamped to the band of one quantum) pick
 * the same q whenever a < 0; qd-block-integrator.c uses the first. The
 * QSS Solver's liqss.c instead clamps q^ to 2 dQ from x, so it may put q
 * beyond the opposite level; on the stiff spring (dQ = 1e-3, a step-by-
 * step model of both rules with the exact a) that makes the speed step
 * 997 times instead of 772, so the band of one quantum is kept.
 *     What this means on a stiff state driven by a slow one (the stiff
 * spring's speed): its q sits on q^ with dx/dt = 0, each step of the
 * slow state moves q^ a little, and, q being held, x runs off at |a|
 * times that shift until it leaves its band, after which two steps (a
 * level, then q^) start again. So the stiff state does not oscillate,
 * but it steps about sqrt (2 |x_slow'| / dQ) times per unit time
 * (LIQSS1), or once or twice per step of the slow state (LIQSS2,
 * LIQSS3) rather than as its own smooth solution would;
 * tests/test-stiff.c checks that law.
 *
 * LIQSS2-QSSolver: LIQSS2 as the QSS Solver of the papers' group defines
 * it (CIFASIS qss-solver, src/engine/qss/methods/liqss2.c, read for its
 * rules; its method sections are not in the stored papers). The same
 * affine model and estimate of a, but a measured a > 0 is taken as 0,
 * and q is placed differently. With d the second derivative of x for
 * q0 = x0 once the loop answers, d = a^2 x0 + a u0 + u1: when
 * |d| < a^2 dQ, q is on the quasi-steady curve as in LIQSS2's third
 * case; otherwise q0 = x0 - sign(d) dQ, a quantum *behind* x, and its
 * slope is bent towards x so that x, curving towards q, touches it at
 * s = tm: x - q = sign(d) dQ (1 - s/tm)^2, which gives
 *     q1 = a q0 + u0 + sign(d) dQ 2/tm,  2/tm = a + sqrt(a^2 + 2 c),
 *     c = |d| / dQ - a^2,
 * (for a = 0, tm = sqrt(2 dQ / |d|), the solver's own expression). The
 * next step after the block's own is at sqrt(dQ / |x2|), where x touches
 * q when a = 0. After a new derivative it is the first of: |x - q|
 * reaching 2 dQ; for the derivative that answers the block's own output
 * with a < 0, the time |(x1 - q1) / x2| (x - q back at a quantum on the
 * same side when the model holds); for a q heading for 0 from more than
 * 10 dQ away, 2 dQ / |q1| before it gets there; and at once if |x - q|
 * half way to that time would exceed 3 dQ. Left out: the solver's
 * a < 0 placement of q0 by an implicit step over the rest of the run
 * (it needs the final time, which a block does not know; for a < 0 the
 * touching construction above is the rule of another version of its
 * liqss2.c, and for a = 0 it is the rule of the version followed here,
 * which is also the limit a -> 0 of the former), and its restart of q at state events
 * (QDevs's crossings are exact and the integrators simply receive a
 * new derivative). On the benchmark's LC line (N = 1000, t = 0..200) it
 * takes 796,454 steps where the solver reports 795,129 and LIQSS2 takes
 * 1,417,434: x sweeps from a quantum on one side of q, through it, to
 * two quanta on the other, as a neighbour's step restarts the schedule.
 *
 * BQSS and CQSS (Migoni, Kofman and Cellier 2012, "Quantization-based
 * new integration methods for stiff ordinary differential equations",
 * Simulation 88(4)). BQSS, the backward QSS: q is one of the two levels
 * x0 - dQ and x0 + dQ, the one that the derivative evaluated there points
 * to (dx/dt(q) > 0 for the upper, < 0 for the lower), so x moves towards
 * q; x then requantizes when it reaches q. When neither level qualifies,
 * the equilibrium lies between them and x is held still (dx/dt := 0): the
 * method's quasi-equilibrium, a spurious equilibrium within dQ of the true
 * one. CQSS, the centered QSS: the same choice of level, but the q
 * emitted is the midpoint of x0 and the level, x0 +/- dQ/2, the average
 * of the explicit (QSS) and backward (BQSS) values; x still runs to the
 * level, so |x - q| <= dQ/2 around the requantization.
 *     Choices: a block cannot evaluate the derivative at a point it has
 * not emitted, so the levels are tried through the loop, the way a DEVS
 * model can: the level in the direction of the current derivative
 * is emitted; if the derivative that answers it at the same instant
 * points away from it, the other level is emitted at once (a second
 * requantization at the same time, counted as a step); if that one is
 * answered pointing away too, x is held. A later change of the derivative
 * that points away from the level restarts the choice. The two levels
 * are centred on x at each choice (x0 +/- dQ, dQ recomputed there)
 * rather than kept on a fixed grid. While x is held, q stays on the last
 * level offered, so the other states see a bias of up to dQ (dQ/2 for
 * CQSS); on the stiff spring-mass-damper the slow mode integrates it into
 * an error of about 100 quanta on the position, the spurious-equilibrium
 * effect that LIQSS was made to remove (tests/test-stiff.c).
 *     Checked against the QSS Solver's cqss.c: the same levels (its
 * upper and lower values move by dQ with x, which is re-centring them on
 * x) and the same q, the midpoint of x and the level; where both levels
 * are refused it emits q = x for the next step instead of holding x.
 * On the undamped spring (tests/test-stiff.c) this CQSS keeps the
 * amplitude within a quantum over 32 periods, the property the 2012
 * paper introduces CQSS for, while BQSS damps it.
 */
#include <math.h>
#include <string.h>

#include "qd-integrator-private.h"
#include "qd-poly.h"

/* ---- LIQSS2 and LIQSS3 --------------------------------------------- */

/* The coefficients of q from q0 under the affine model (see the top). */
static void
affine_q (const Integrator *st,
          const double     *u,
          double            q0,
          double           *q)
{
  /* Written out for the two orders (the divisions by 1 and 2 are exact,
   * so they are left out or made a multiplication: the same values). */
  q[0] = q0;
  q[1] = st->a * q0 + u[0];
  q[2] = st->core.n == 3 ? (st->a * q[1] + u[1]) * 0.5 : 0.0;
  q[3] = 0.0;
}

/* a q_{n-1} + u_{n-1}: the n-th derivative of x over (n - 1)!, whose
 * sign and root are those of d(q0). */
static inline double
nth_derivative (const Integrator *st,
                const double     *u,
                double            q0)
{
  double q1 = st->a * q0 + u[0];

  if (st->core.n == 2)
    return st->a * q1 + u[1];
  return st->a * ((st->a * q1 + u[1]) * 0.5) + u[2];
}

/* How far past a level, in quanta, LIQSS3 still takes the point q^
 * where the affine model's third derivative vanishes (see below). */
#define LIQSS3_BOUNDARY_TOLERANCE 1e-3

/* LIQSS3 near the boundary of its three-way choice. When q^ lies just
 * beyond x0 + dQ (or x0 - dQ), by rounding or by a drift of the slow
 * states, the level qualifies by a hair and is taken: q0 then misses q^
 * by an offset d of a few 10^-5 dQ, which the affine model turns into a
 * third derivative a^3 d / 2 of x - q, 10^6 d for a = -100: x curves
 * away from q and forces a step that q^ itself would not, and the step
 * count of a stiff state flips with changes of dQ of a fraction of a
 * percent. Within a tolerance scaled to the quantum, q^ is taken as it
 * is (x and q then run parallel, |x - q| <= (1 + tolerance) dQ, inside
 * the band of 2 dQ). Sets @target and returns TRUE in that case. */
static gboolean
liqss3_boundary_target (const Integrator *st,
                        const double     *x,
                        double            dq,
                        double           *target)
{
  double slope = st->a * st->a * st->a / 2.0, qhat;

  if (slope == 0.0)
    return FALSE;
  qhat = x[0] - nth_derivative (st, st->u_next, x[0]) / slope;
  if (!(fabs (qhat - x[0]) <= (1.0 + LIQSS3_BOUNDARY_TOLERANCE) * dq))
    return FALSE;
  *target = qhat;
  return TRUE;
}

static void
liqss_requantize (const Integrator *st,
                  const double     *x,
                  double            dq,
                  double           *q)
{
  double target;
  gboolean up, down;

  if (st->core.initial)
    {
      for (int k = 0; k <= QD_MAX_ORDER; k++)
        q[k] = k < st->core.n ? x[k] : 0.0;
      return;
    }

  if (st->core.n == 3 && liqss3_boundary_target (st, x, dq, &target))
    {
      affine_q (st, st->u_next, target, q);
      return;
    }
  up = nth_derivative (st, st->u_next, x[0] + dq) > 0.0;
  down = nth_derivative (st, st->u_next, x[0] - dq) < 0.0;
  if (up && !down)
    target = x[0] + dq;
  else if (down && !up)
    target = x[0] - dq;
  else
    {
      /* Both or neither: d(q0) changes sign between x0 - dQ and
       * x0 + dQ (so a != 0), at q^; nth_derivative() is affine in q0 with
       * slope a^n / (n - 1)!, and is taken at x0 for a well-conditioned
       * root. The clamp only guards rounding; a d that vanishes
       * everywhere leaves q at x. */
      double slope = pow (st->a, st->core.n) / (st->core.n == 3 ? 2.0 : 1.0);
      double qhat = slope != 0.0
                    ? x[0] - nth_derivative (st, st->u_next, x[0]) / slope
                    : x[0];

      target = isfinite (qhat) ? CLAMP (qhat, x[0] - dq, x[0] + dq) : x[0];
    }
  affine_q (st, st->u_next, target, q);
}

/* liqss_reschedule() for LIQSS2, in locals (the array, the loop and
 * shift() of a general form cost a third of the method's own
 * instructions per step on the LC line): the closed forms that
 * qd_poly_first_root() and qd_poly_first_crossing() use themselves for a
 * true parabola strictly inside the band, called directly, so the same
 * values without their checks and copies (the sum is finite only if all
 * three terms are; one that overflows merely takes the general way). */
static inline double
liqss2_reschedule (Integrator *st)
{
  double d0 = st->core.x[0] - st->core.q[0], d1 = st->core.x[1] - st->core.q[1], d2 = st->core.x[2];
  double band = 2.0 * st->core.dq, root, cross, sigma;

  if (d2 != 0.0 && isfinite (d0 + d1 + d2))
    root = qd_poly_first_root_quadratic (d0, d1, d2);
  else
    {
      double d[3] = { d0, d1, d2 };

      root = qd_poly_first_root (d, 2);
    }
  cross = -1.0;
  if (fabs (d0) < band && d2 != 0.0 && QD_POLY_IN_SCALE (band))
    cross = qd_poly_crossing_quadratic (d0, d1, d2, band);
  if (!(cross > 0.0 && cross < QD_INF))
    {
      double d[3] = { d0, d1, d2 };

      cross = qd_poly_first_crossing (d, 2, band);
    }
  sigma = root < cross ? root : cross;
  if (sigma < QD_INF)
    {
      double e = st->core.tl + sigma - st->tu;

      st->u_next[0] = st->u[0];
      st->u_next[1] = st->u[1];
      st->u_next[2] = st->u[2];
      if (e != 0.0)
        st->u_next[0] += e * st->u_next[1];
    }
  return sigma;
}

/* The next event of LIQSS2 and LIQSS3: the first s > 0 where x meets q
 * or |x - q| reaches the band of 2 dQ, and u there. LIQSS2 has its own
 * written-out form; LIQSS3 calls the cubic solvers that start Newton
 * well on the nearly pure cubic x - q is after a requantization (the
 * same roots to an ulp or two; the general search cost several times as
 * much there), and the general search where they give up. */
static double
liqss_reschedule (Integrator *st)
{
  double d[QD_MAX_ORDER + 1];
  double sigma, root, cross, band = 2.0 * st->core.dq;

  if (st->core.n == 2)
    return liqss2_reschedule (st);

  for (int k = 0; k < 3; k++)
    d[k] = st->core.x[k] - st->core.q[k];
  d[3] = st->core.x[3];
  root = qd_poly_first_root_cubic (d[0], d[1], d[2], d[3]);
  cross = -1.0;
  if (fabs (d[0]) < band && d[3] != 0.0 && band >= 0.0)
    cross = qd_poly_crossing_cubic_flat (d[0], d[1], d[2], d[3], band);
  if (!(cross > 0.0 && cross < QD_INF))
    cross = qd_poly_first_crossing (d, 3, band);
  /* fmin() without the library call: neither is NaN. */
  sigma = root < cross ? root : cross;

  /* The affine term where the next requantization will need it. */
  if (sigma < QD_INF)
    {
      memcpy (st->u_next, st->u, sizeof st->u_next);
      shift (st->u_next, 2, st->core.tl + sigma - st->tu);
    }
  return sigma;
}

/* The derivative of LIQSS2 and LIQSS3 (and, with @clip, of
 * LIQSS2-QSSolver, which takes a measured a > 0 as 0): a and u. */
static inline void
liqss_take_derivative (Integrator *st,
                       double      t,
                       gboolean    clip)
{
  /* The derivative's coefficients, (k + 1) x[k + 1] (the products by 1
   * and 2 are exact), written out: this runs on every input. */
  double v0 = st->core.x[1], v1 = 2.0 * st->core.x[2];

  /* As LIQSS1: the derivative that answers our own output at the same
   * instant measures the self-dependence. */
  if (st->core.awaiting && t == st->t_out)
    {
      double dq = st->core.q[0] - st->q_old;

      if (dq != 0.0)
        st->a = (v0 - st->dx_old) / dq;
      if (clip && st->a > 0.0)
        st->a = 0.0;
    }
  st->core.awaiting = FALSE;

  st->u[0] = v0 - st->a * st->core.q[0];
  st->u[1] = v1 - st->a * st->core.q[1];
  st->u[2] = st->core.n == 3 ? 3.0 * st->core.x[3] - st->a * st->core.q[2] : 0.0;
  st->u0 = st->u[0];
  st->tu = t;
}

static void
liqss_derivative (Integrator *st,
                  double      t)
{
  liqss_take_derivative (st, t, FALSE);
}

double
qd_integrator_liqss2_derivative_ta (Integrator *st,
                                    double      t)
{
  liqss_derivative (st, t);
  return st->core.initial ? 0.0 : liqss2_reschedule (st);
}

double
qd_integrator_liqss2_dint (Integrator *st,
                           double      t)
{
  double s, x0, x1, x2;

  /* integrator_dint() for LIQSS2, its loops and method calls written
   * out: the same operations in the same order. */
  settle_unanswered (st, t);
  s = t - st->core.tl;
  x0 = st->core.x[0];
  x1 = st->core.x[1];
  x2 = st->core.x[2];
  if (s != 0.0)
    {
      x1 += s * x2;
      x0 += s * x1;
      x1 += s * x2;
      st->core.q[0] += s * st->core.q[1];
    }
  st->core.x[0] = x0;
  st->core.x[1] = x1;
  st->core.tl = t;
  st->q_old = st->core.q[0];
  st->dx_old = x1;
  st->t_out = t;
  st->core.awaiting = TRUE;
  st->core.dq = quantum (st, x0);
  liqss_requantize (st, st->core.x, st->core.dq, st->core.q);
  st->core.initial = FALSE;
  st->core.sigma = liqss2_reschedule (st);
  return st->core.sigma;
}

/* As LIQSS1: our last output changed q0 and the derivative did not
 * change at that instant, so the secant estimate is a = 0 and u is the
 * derivative itself. x still holds the derivative at tl, so u is taken
 * there; u_next is then moved to t, where the requantization that may
 * follow (dint) needs it, and any new derivative (dext) recomputes u. */
static void
liqss_unanswered (Integrator *st,
                  double      t)
{
  if (st->core.q[0] == st->q_old)
    return;
  st->a = 0.0;
  for (int k = 0; k < QD_MAX_ORDER; k++)
    st->u[k] = k < st->core.n ? (k + 1) * st->core.x[k + 1] : 0.0;
  st->u0 = st->u[0];
  st->tu = st->core.tl;
  memcpy (st->u_next, st->u, sizeof st->u_next);
  shift (st->u_next, st->core.n - 1, t - st->tu);
}

const Ops qd_integrator_liqss2_ops = {
  liqss_requantize,
  liqss_reschedule,
  liqss_derivative,
  NULL,
  liqss_unanswered,
  NULL,
};

/* The same functions: the order comes from st->core.n. */
const Ops qd_integrator_liqss3_ops = {
  liqss_requantize,
  liqss_reschedule,
  liqss_derivative,
  NULL,
  liqss_unanswered,
  NULL,
};

/* ---- LIQSS2-QSSolver ------------------------------------------------ */

/* The band of LIQSS2-QSSolver after a new derivative, in quanta (x may
 * drift that far from q on either side), and the largest |x - q| half way
 * to the step so scheduled (see the top of the file). */
#define QSSOLVER_BAND   2.0
#define QSSOLVER_MIDDLE 3.0

/* q a quantum behind x with the slope that makes x touch q, or on the
 * quasi-steady curve (see the top of the file). */
static void
liqss2_qssolver_requantize (const Integrator *st,
                            const double     *x,
                            double            dq,
                            double           *q)
{
  const double *u = st->u_next;
  double a = st->a, d, side, bend;

  if (st->core.initial)
    {
      for (int k = 0; k <= QD_MAX_ORDER; k++)
        q[k] = k < st->core.n ? x[k] : 0.0;
      return;
    }
  q[2] = q[3] = 0.0;
  /* The second derivative of x with q0 = x0, once the loop answers. */
  d = a * a * x[0] + a * u[0] + u[1];
  if (fabs (d) < a * a * dq)
    {
      /* q^ within a quantum of x (so a != 0): q on the curve where the
       * affine model's second derivative vanishes. */
      q[0] = -u[1] / (a * a) - u[0] / a;
      q[1] = -u[1] / a;
      return;
    }
  side = d > 0.0 ? 1.0 : d < 0.0 ? -1.0 : 0.0;
  /* bend = 2 / tm, tm the time at which x, curving towards the line q
   * from a quantum away, touches it: x - q = side dQ (1 - s / tm)^2 once
   * the loop has answered. a + sqrt (a^2 + 2 c) is 2 / tm without the
   * cancellation of (sqrt (a^2 + 2 c) - a) / c; for a = 0 it is
   * sqrt (2 |d| / dQ). */
  bend = a + sqrt (a * a + 2.0 * (fabs (d) / dq - a * a));
  q[0] = x[0] - side * dq;
  q[1] = a * q[0] + u[0] + bend * side * dq;
}

static void
liqss2_qssolver_requantized (Integrator *st,
                             double      t)
{
  st->own_step = TRUE;
}

static double
liqss2_qssolver_reschedule (Integrator *st)
{
  double d[3] = { st->core.x[0] - st->core.q[0], st->core.x[1] - st->core.q[1], st->core.x[2] };
  double dq = st->core.dq, sigma;

  if (st->own_step)
    {
      /* After its own step: where x touches q when a = 0 (the step of
       * QSS2 with x's curvature). */
      st->own_step = FALSE;
      sigma = d[2] != 0.0 ? sqrt (dq / fabs (d[2])) : QD_INF;
    }
  else
    {
      double band, h, middle;

      /* The derivative answering the block's own step, with a < 0: when
       * the slopes of x and q have grown a part as far again as they
       * were apart. */
      sigma = QD_INF;
      if (st->answered && st->a < 0.0 && d[2] != 0.0)
        sigma = fabs (d[1] / d[2]);
      band = qd_poly_first_crossing (d, 2, QSSOLVER_BAND * dq);
      if (band < sigma)
        sigma = band;
      /* q heading for 0 from afar: the step a little before it gets
       * there, where a relative quantum shrinks. */
      if (st->core.q[0] * st->core.q[1] < 0.0 && fabs (st->core.q[0]) > 10.0 * dq)
        {
          h = -st->core.q[0] / st->core.q[1] - 2.0 * fabs (dq / st->core.q[1]);
          if (h < sigma)
            sigma = h > 0.0 ? h : 0.0;
        }
      /* Half way there, x must be within MIDDLE quanta of q; else the
       * step is now. */
      h = sigma < QD_INF ? 0.5 * sigma : 0.0;
      middle = d[0] + h * (d[1] + h * d[2]);
      if (fabs (middle) > QSSOLVER_MIDDLE * dq)
        sigma = 0.0;
    }
  if (sigma < QD_INF)
    {
      memcpy (st->u_next, st->u, sizeof st->u_next);
      shift (st->u_next, 1, st->core.tl + sigma - st->tu);
    }
  return sigma;
}

static void
liqss2_qssolver_derivative (Integrator *st,
                            double      t)
{
  st->answered = st->core.awaiting && t == st->t_out;
  liqss_take_derivative (st, t, TRUE);
}

const Ops qd_integrator_liqss2_qssolver_ops = {
  liqss2_qssolver_requantize,
  liqss2_qssolver_reschedule,
  liqss2_qssolver_derivative,
  liqss2_qssolver_requantized,
  liqss_unanswered,
  NULL,
};

/* ---- BQSS and CQSS ------------------------------------------------- */

/* +1 or -1: the side of x the next level is offered on. After a level is
 * reached x moves on the same way; after a derivative pointing away from
 * the level, it points to the other side; both are the sign of dx/dt. */
static inline double
bqss_side (const double *x)
{
  return x[1] >= 0.0 ? 1.0 : -1.0;
}

static void
bqss_requantize (const Integrator *st,
                 const double     *x,
                 double            dq,
                 double           *q)
{
  q[0] = st->core.initial ? x[0] : x[0] + bqss_side (x) * dq;
  q[1] = q[2] = q[3] = 0.0;
}

static void
cqss_requantize (const Integrator *st,
                 const double     *x,
                 double            dq,
                 double           *q)
{
  q[0] = st->core.initial ? x[0] : x[0] + bqss_side (x) * 0.5 * dq;
  q[1] = q[2] = q[3] = 0.0;
}

static void
bqss_requantized (Integrator *st,
                  double      t)
{
  if (st->core.initial)
    {
      st->level = st->core.x[0];
      st->tries = 0;
    }
  else
    {
      st->level = st->core.x[0] + copysign (st->core.dq, st->core.q[0] - st->core.x[0]);
      st->tries = st->retry ? 2 : 1;
    }
  st->retry = FALSE;
  st->redecide = FALSE;
  st->frozen = FALSE;
}

static double
bqss_reschedule (Integrator *st)
{
  double s;

  if (st->redecide)
    return 0.0;
  if (st->core.x[1] == 0.0)
    return QD_INF;
  s = (st->level - st->core.x[0]) / st->core.x[1];
  return s > 0.0 ? s : 0.0;
}

static void
bqss_derivative (Integrator *st,
                 double      t)
{
  gboolean answer = t == st->t_out;

  st->core.awaiting = FALSE;
  st->retry = FALSE;
  st->redecide = FALSE;
  st->frozen = FALSE;
  /* Signs compared, not their product: for states near 10^-200 the
   * product underflows to 0. */
  if (st->core.initial || st->core.x[1] == 0.0
      || (st->level > st->core.x[0] && st->core.x[1] > 0.0)
      || (st->level < st->core.x[0] && st->core.x[1] < 0.0))
    return;

  /* The derivative at q points away from the level. */
  if (answer && st->tries == 1)
    {
      /* The first level offered is wrong: offer the other one now. */
      st->retry = TRUE;
      st->redecide = TRUE;
    }
  else if (answer && st->tries == 2)
    {
      /* Both are wrong: the equilibrium is between them; hold x. */
      st->frozen = TRUE;
      st->core.x[1] = 0.0;
    }
  else
    {
      /* Something else moved the derivative: choose again. */
      st->redecide = TRUE;
    }
}

const Ops qd_integrator_bqss_ops = {
  bqss_requantize,
  bqss_reschedule,
  bqss_derivative,
  bqss_requantized,
  NULL,
  NULL,
};

const Ops qd_integrator_cqss_ops = {
  cqss_requantize,
  bqss_reschedule,
  bqss_derivative,
  bqss_requantized,
  NULL,
  NULL,
};

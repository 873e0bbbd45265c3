/* qd-integrator-mliqss.c: mLIQSS1 and mLIQSS2, the modified LIQSS1 and
 * LIQSS2 of the Integrator block, which update two coupled states
 * together (mLIQSS2: the section "mLIQSS2" below)
 *
 * Di Pietro, Migoni and Kofman, "Improving linearly implicit quantized
 * state system methods", Simulation 95(2), 2019. LIQSS1 (qd-block-
 * integrator.c) places q_i where x_i is heading, judged by the affine
 * model dx_i/dt = a_ii q_i + u_i, which sees only the state's own
 * dependence. When two states depend strongly on each other (a_ij and
 * a_ji large against a_ii and a_jj: the stiffness is off the diagonal),
 * the new q_i turns x_j's derivative round, x_j requantizes, its new q_j
 * turns x_i's derivative round, and the two states step each other in a
 * cycle of tiny steps. mLIQSS1 sees the cycle coming at the step of x_i
 * and places both quantized states at once:
 *   1. q_i by LIQSS1's rule;
 *   2. for each coupled state j (a_ij a_ji != 0): the derivative x_j
 *      would have with the new q_i, dx_j + a_ji (q_i' - q_i); if its
 *      sign differs from dx_j's (x_j turns round), the q_j LIQSS1 would
 *      then give, x_j ± dQ_j on the new side, and the derivative x_i
 *      would have with it, dx_i' + a_ij (q_j' - q_j); if that also turns
 *      x_i round, the cycle is there;
 *   3. then q_i and q_j are chosen together on the 2x2 affine model
 *          dx_i/dt = a_ii q_i + a_ij q_j + u_i,
 *          dx_j/dt = a_ji q_i + a_jj q_j + u_j
 *      (u from the current derivatives): the first pair of levels
 *      x_i ± dQ_i, x_j ± dQ_j towards which both derivatives head there;
 *      when no pair does, the pair's equilibrium (both derivatives 0),
 *      held within a quantum of each x.
 * The paper's rule (its cycle condition: both derivatives predicted
 * with the other's new q change sign) as restated by its authors' group
 * (QuantizedSystemSolver.jl's documentation of mLIQSS1); the method
 * section of the paper itself was not at hand.
 *
 * In a block diagram no Integrator knows a_ij. The engine gives each
 * one its coupled integrators (qd_atomic_get_coupled(): those whose
 * outputs reach its derivative through static blocks and that its own
 * output reaches the same way), and a_ik is estimated as LIQSS1
 * estimates a_ii: when a new derivative arrives and exactly one coupled
 * integrator k has emitted since the last derivative, the change of the
 * derivative divided by the change of q_k is a_ik. Exact for linear
 * couplings through static blocks, a secant slope otherwise; polluted
 * when another input changes at the same instant, until the next one.
 *
 * The pair is updated in DEVS terms: x_i emits its q_i and leaves q_j
 * with x_j (forced_q, for this instant); q_i's change reaches x_j's
 * derivative in the same cascade, whose new derivative makes x_j due at
 * once (ta = 0); x_j then emits the q_j chosen for it instead of its
 * own. A partner that is not an mLIQSS1 Integrator, or is still to emit
 * its initial q, is left alone.
 */
#include "qd-integrator-private.h"

/* LIQSS1's q for x, on LIQSS1's own affine model. */
static double
liqss1_level (const Integrator *st,
              double            x0,
              double            dq)
{
  double q[QD_MAX_ORDER + 1];
  double x[QD_MAX_ORDER + 2] = { x0 };

  qd_integrator_liqss1_ops.requantize (st, x, dq, q);
  return q[0];
}

/* Where @st is among @p's partners, or -1. */
static int
partner_index (const Integrator *p,
               const Integrator *st)
{
  for (guint k = 0; k < p->pair->n_partners; k++)
    if (p->pair->partner[k] == st)
      return (int) k;
  return -1;
}

/* The pairs of levels x ± dQ tried for a pair of states, in order. */
static const double side[4][2] = { { 1, 1 }, { 1, -1 }, { -1, 1 },
                                   { -1, -1 } };

/* The pair's q on the 2x2 model (step 3 above). */
static void
pair_levels (double  aii,
             double  aij,
             double  aji,
             double  ajj,
             double  ui,
             double  uj,
             double  xi,
             double  dqi,
             double  xj,
             double  dqj,
             double *qi,
             double *qj)
{
  double det;

  for (int c = 0; c < 4; c++)
    {
      double vi = xi + side[c][0] * dqi, vj = xj + side[c][1] * dqj;
      double di = aii * vi + aij * vj + ui, dj = aji * vi + ajj * vj + uj;

      if (side[c][0] * di >= 0.0 && side[c][1] * dj >= 0.0)
        {
          *qi = vi;
          *qj = vj;
          return;
        }
    }
  det = aii * ajj - aij * aji;
  if (det != 0.0)
    {
      *qi = CLAMP ((aij * uj - ajj * ui) / det, xi - dqi, xi + dqi);
      *qj = CLAMP ((aji * ui - aii * uj) / det, xj - dqj, xj + dqj);
    }
}

/* The pair's update, in DEVS terms (see the top): partner @k of @st is
 * to emit (@q0, @q1) at @t. */
static void
hand_over (Integrator *st,
           int         k,
           double      t,
           double      q0,
           double      q1)
{
  Integrator *p = st->pair->partner[k];

  p->pair->forced = TRUE;
  p->pair->forced_t = t;
  p->pair->forced_q[0] = q0;
  p->pair->forced_q[1] = q1;
}

/* After dint: whether the q just placed was handed over for @t (then
 * that is done). */
static gboolean
handed_taken (Integrator *st,
              double      t)
{
  if (st->pair->forced && st->pair->forced_t == t)
    {
      st->pair->forced = FALSE;
      return TRUE;
    }
  return FALSE;
}

/* In reschedule: whether a q handed over for this instant is still to
 * be emitted (at once); one handed over for another instant is void. */
static gboolean
handed_due (Integrator *st)
{
  if (st->pair->forced && st->pair->forced_t == st->core.tl)
    return TRUE;
  st->pair->forced = FALSE;
  return FALSE;
}

/* mLIQSS1's q_i at t for x_i = @x0 with quantum @dq, q_i being @qi_now
 * until now; when the pair is updated, *@k is the partner's index and
 * *@qj its new q, else *@k is -1. */
static double
mliqss1_choose (const Integrator *st,
                double            t,
                double            x0,
                double            dq,
                double            qi_now,
                int              *k,
                double           *qj)
{
  double qi = liqss1_level (st, x0, dq);

  *k = -1;
  if (st->pair->forced && st->pair->forced_t == t)
    return st->pair->forced_q[0];
  for (guint m = 0; m < st->pair->n_partners; m++)
    {
      const Integrator *p = st->pair->partner[m];
      double aij = st->pair->a_cross[m], aji, xj, dxj, dxj_new, dqj, qj_new;
      double dxi_new, dxi_after, ui, uj, pi, pj;
      int back;

      if (aij == 0.0 || p->core.ops != st->core.ops || p->core.initial)
        continue;
      back = partner_index (p, st);
      if (back < 0 || p->pair->a_cross[back] == 0.0)
        continue;
      aji = p->pair->a_cross[back];
      dxj = p->core.x[1];
      dxj_new = dxj + aji * (qi - qi_now);
      if (!(dxj * dxj_new < 0.0))
        continue;
      xj = p->core.x[0] + dxj * (t - p->core.tl);
      dqj = quantum (p, xj);
      qj_new = xj + copysign (dqj, dxj_new);
      dxi_new = st->u0 + st->a * qi;
      dxi_after = dxi_new + aij * (qj_new - p->core.q[0]);
      if (!(dxi_new * dxi_after < 0.0))
        continue;
      /* The cycle: both states chosen on the pair's model. */
      ui = st->u0 - aij * p->core.q[0];
      uj = dxj - p->a * p->core.q[0] - aji * qi_now;
      pi = qi;
      pj = qj_new;
      pair_levels (st->a, aij, aji, p->a, ui, uj, x0, dq, xj, dqj, &pi, &pj);
      *k = (int) m;
      *qj = pj;
      return pi;
    }
  return qi;
}

static void
mliqss1_requantize (const Integrator *st,
                    const double     *x,
                    double            dq,
                    double           *q)
{
  int k;
  double qj;

  if (st->core.initial)
    {
      qd_integrator_liqss1_ops.requantize (st, x, dq, q);
      return;
    }
  q[0] = mliqss1_choose (st, st->pair->req_t, x[0], dq, st->core.q[0], &k, &qj);
  q[1] = q[2] = q[3] = 0.0;
}

/* After dint placed q: hand the partner its q (the same choice as
 * requantize made, from the q before the step), or, when this q was
 * handed over, take note that it is done. */
static void
mliqss1_requantized (Integrator *st,
                     double      t)
{
  int k;
  double qj;

  if (handed_taken (st, t) || st->core.initial)
    return;
  mliqss1_choose (st, t, st->core.x[0], st->core.dq, st->q_old, &k, &qj);
  if (k >= 0)
    hand_over (st, k, t, qj, 0.0);
}

static double
mliqss1_reschedule (Integrator *st)
{
  return handed_due (st) ? 0.0 : qd_integrator_liqss1_ops.reschedule (st);
}

/* A partner's last output time and its q just before it. A QSS partner
 * keeps neither: its record ends before them (qd-integrator-private.h),
 * and its transitions never wrote them, so they are the 0 of a new
 * state. */
static inline double
partner_t_out (const Integrator *p)
{
  return qd_integrator_method (p) == &qd_integrator_qss_ops ? 0.0 : p->t_out;
}

static inline double
partner_q_old (const Integrator *p)
{
  return qd_integrator_method (p) == &qd_integrator_qss_ops ? 0.0 : p->q_old;
}

/* The cross-dependence on the one coupled integrator that emitted since
 * the last derivative, if only one did and the derivative is not the
 * answer to this block's own output (which measures a_ii). */
static void
estimate_cross (Integrator *st,
                double      t)
{
  gboolean own = st->core.awaiting && t == st->t_out;
  int changed = -1, n_changed = 0;

  for (guint m = 0; m < st->pair->n_partners; m++)
    {
      double t_out = partner_t_out (st->pair->partner[m]);

      if (t_out != st->pair->seen_out[m])
        {
          changed = (int) m;
          n_changed++;
          st->pair->seen_out[m] = t_out;
        }
    }
  if (!own && n_changed == 1)
    {
      const Integrator *p = st->pair->partner[changed];
      double dqk = p->core.q[0] - partner_q_old (p);

      /* The partner emitted at t, so its q[0] is its value at t. */
      if (dqk != 0.0 && partner_t_out (p) == t)
        st->pair->a_cross[changed] = (st->core.x[1] - st->pair->dx_before) / dqk;
    }
}

static void
mliqss1_derivative (Integrator *st,
                    double      t)
{
  estimate_cross (st, t);
  qd_integrator_liqss1_ops.derivative (st, t);
}

static void
mliqss1_unanswered (Integrator *st,
                    double      t)
{
  qd_integrator_liqss1_ops.unanswered (st, t);
}

static void
mliqss_attach (Integrator *st,
               QdAtomic   *self)
{
  guint n, m = 0;
  QdAtomic *const *coupled = qd_atomic_get_coupled (self, &n);
  MliqssPair *pair = qd_atomic_alloc (self, sizeof *pair);

  pair->partner = qd_atomic_alloc (self, MAX (n, 1) * sizeof *pair->partner);
  pair->a_cross = qd_atomic_alloc (self, MAX (n, 1) * sizeof *pair->a_cross);
  pair->seen_out = qd_atomic_alloc (self,
                                    MAX (n, 1) * sizeof *pair->seen_out);
  /* Only integrators of this library share this state layout; the
   * method is checked at each step (they may not be initialised yet). */
  for (guint k = 0; k < n; k++)
    if (coupled[k]->type == &qd_block_integrator
        || coupled[k]->type == &qd_block_integrator_reset)
      {
        pair->partner[m] = coupled[k]->state;
        pair->seen_out[m] = -QD_INF;
        m++;
      }
  pair->n_partners = m;
  st->pair = pair;
}

const Ops qd_integrator_mliqss1_ops = {
  mliqss1_requantize,
  mliqss1_reschedule,
  mliqss1_derivative,
  mliqss1_requantized,
  mliqss1_unanswered,
  mliqss_attach,
};

/* ---- mLIQSS2 --------------------------------------------------------
 *
 * The same steps on LIQSS2 (qd-integrator-stiff.c), whose q is a line
 * q0 + q1 s with q1 = the slope the affine model gives, and whose level
 * is chosen by the sign of x's second derivative once the loop has
 * answered, d = a q1 + u1. A partner j turns round when the new q_i
 * changes the sign of x_j's second derivative (by a_ji times the change
 * of q_i's slope); the cycle is there when the q_j LIQSS2 would then
 * give turns x_i's second derivative round too. The pair is then placed
 * on the 2x2 model with both slopes from it,
 *     q1 = A q0 + U0,   d = A q1 + U1,
 * (U the parts of the affine terms that do not come from the pair): the
 * pair's quasi-steady point, d = 0: q1 = -A^-1 U1, q0 = A^-1 (q1 - U0),
 * when it lies within a quantum of each x, or else the first pair of
 * levels x ± dQ towards which both d head (none: LIQSS2's own choice
 * for q_i, and q_j as LIQSS2 would give it). This extension of the
 * paper's first-order rule to LIQSS2's second-derivative test is this
 * implementation's reading; the paper's mLIQSS2 section was not at
 * hand. */

/* A 2x2 solve, A v = r; FALSE when A is singular. */
static gboolean
solve2 (double  a11,
        double  a12,
        double  a21,
        double  a22,
        double  r1,
        double  r2,
        double *v1,
        double *v2)
{
  double det = a11 * a22 - a12 * a21;

  if (det == 0.0)
    return FALSE;
  *v1 = (a22 * r1 - a12 * r2) / det;
  *v2 = (a11 * r2 - a21 * r1) / det;
  return isfinite (*v1) && isfinite (*v2);
}

typedef struct
{
  double aii, aij, aji, ajj;
  double ui0, ui1, uj0, uj1;    /* U0 and U1 of both */
} Pair2;

/* The pair's q (value and slope of both) on the 2x2 model. */
static void
pair2_levels (const Pair2 *m,
              double       xi,
              double       dqi,
              double       xj,
              double       dqj,
              double      *qi,
              double      *qj)
{
  double w1, w2, v1, v2;

  /* The quasi-steady point first, when it lies within a quantum of both
   * states: as LIQSS2's third case, x and q then run parallel instead of
   * circling it (for a stable pair both levels of each qualify there,
   * and taking one would give q a slope of |A| dQ). */
  if (solve2 (m->aii, m->aij, m->aji, m->ajj, -m->ui1, -m->uj1, &w1, &w2)
      && solve2 (m->aii, m->aij, m->aji, m->ajj, w1 - m->ui0, w2 - m->uj0,
                 &v1, &v2)
      && fabs (v1 - xi) <= dqi && fabs (v2 - xj) <= dqj)
    {
      qi[0] = v1;
      qj[0] = v2;
      qi[1] = w1;
      qj[1] = w2;
      return;
    }
  for (int c = 0; c < 4; c++)
    {
      double vi = xi + side[c][0] * dqi, vj = xj + side[c][1] * dqj;
      double si = m->aii * vi + m->aij * vj + m->ui0;
      double sj = m->aji * vi + m->ajj * vj + m->uj0;
      double di = m->aii * si + m->aij * sj + m->ui1;
      double dj = m->aji * si + m->ajj * sj + m->uj1;

      if (side[c][0] * di > 0.0 && side[c][1] * dj > 0.0)
        {
          qi[0] = vi;
          qj[0] = vj;
          qi[1] = si;
          qj[1] = sj;
          return;
        }
    }
}

/* mLIQSS2's q (value and slope, in @q) at t for x (at t) with quantum
 * @dq, q_i being (@qi0, @qi1) until now; *@k and @qj as
 * mliqss1_choose(). */
static void
mliqss2_choose (const Integrator *st,
                double            t,
                const double     *x,
                double            dq,
                double            qi0,
                double            qi1,
                double           *q,
                int              *k,
                double           *qj)
{
  *k = -1;
  if (st->pair->forced && st->pair->forced_t == t)
    {
      q[0] = st->pair->forced_q[0];
      q[1] = st->pair->forced_q[1];
      q[2] = q[3] = 0.0;
      return;
    }
  qd_integrator_liqss2_ops.requantize (st, x, dq, q);
  for (guint m = 0; m < st->pair->n_partners; m++)
    {
      const Integrator *p = st->pair->partner[m];
      double aij = st->pair->a_cross[m], aji, s, xj0, xj1, ddj, ddj_new;
      double qj0, qj1, dqj, d_up, d_down, lj, lj1, di, di_after;
      double pi[2], pj[2];
      Pair2 pm;
      int back;

      if (aij == 0.0 || p->core.ops != st->core.ops || p->core.initial)
        continue;
      back = partner_index (p, st);
      if (back < 0 || p->pair->a_cross[back] == 0.0)
        continue;
      aji = p->pair->a_cross[back];
      s = t - p->core.tl;
      xj1 = p->core.x[1] + 2.0 * s * p->core.x[2];
      xj0 = p->core.x[0] + s * (p->core.x[1] + s * p->core.x[2]);
      qj0 = p->core.q[0] + s * p->core.q[1];
      qj1 = p->core.q[1];
      ddj = 2.0 * p->core.x[2];
      ddj_new = ddj + aji * (q[1] - qi1);
      if (!(ddj * ddj_new < 0.0))
        continue;
      /* x_j's affine terms with the new q_i, and the level LIQSS2 would
       * give it: the one its second derivative heads to. */
      pm.ajj = p->a;
      pm.uj0 = xj1 - p->a * qj0 - aji * qi0;
      pm.uj1 = ddj - p->a * qj1 - aji * qi1;
      dqj = quantum (p, xj0);
      d_up = p->a * (p->a * (xj0 + dqj) + pm.uj0 + aji * q[0])
             + pm.uj1 + aji * q[1];
      d_down = p->a * (p->a * (xj0 - dqj) + pm.uj0 + aji * q[0])
               + pm.uj1 + aji * q[1];
      if (d_up > 0.0 && !(d_down < 0.0))
        lj = xj0 + dqj;
      else if (d_down < 0.0 && !(d_up > 0.0))
        lj = xj0 - dqj;
      else
        continue;
      /* Only a turn that moves x_j's q to the other side of x_j makes
       * it step back. */
      if (!((lj - xj0) * (qj0 - xj0) < 0.0))
        continue;
      lj1 = p->a * lj + pm.uj0 + aji * q[0];
      di = st->a * q[1] + st->u_next[1];
      di_after = di + aij * (lj1 - qj1);
      if (!(di * di_after < 0.0))
        continue;
      pm.aii = st->a;
      pm.aij = aij;
      pm.aji = aji;
      pm.ui0 = st->u_next[0] - aij * qj0;
      pm.ui1 = st->u_next[1] - aij * qj1;
      pi[0] = q[0];
      pi[1] = q[1];
      pj[0] = lj;
      pj[1] = lj1;
      pair2_levels (&pm, x[0], dq, xj0, dqj, pi, pj);
      q[0] = pi[0];
      q[1] = pi[1];
      *k = (int) m;
      qj[0] = pj[0];
      qj[1] = pj[1];
      return;
    }
}

static void
mliqss2_requantize (const Integrator *st,
                    const double     *x,
                    double            dq,
                    double           *q)
{
  double s = st->pair->req_t - st->core.tl, qj[2], out[QD_MAX_ORDER + 1];
  int k;

  if (st->core.initial)
    {
      qd_integrator_liqss2_ops.requantize (st, x, dq, q);
      return;
    }
  /* q may be st->core.q itself (dint): the old q is read first. */
  mliqss2_choose (st, st->pair->req_t, x, dq, st->core.q[0] + s * st->core.q[1], st->core.q[1],
                  out, &k, qj);
  memcpy (q, out, sizeof out);
}

static void
mliqss2_requantized (Integrator *st,
                     double      t)
{
  double q[QD_MAX_ORDER + 1], qj[2];
  int k;

  if (handed_taken (st, t) || st->core.initial)
    return;
  mliqss2_choose (st, t, st->core.x, st->core.dq, st->q_old, st->pair->q1_old, q, &k, qj);
  if (k >= 0)
    hand_over (st, k, t, qj[0], qj[1]);
}

static double
mliqss2_reschedule (Integrator *st)
{
  return handed_due (st) ? 0.0 : qd_integrator_liqss2_ops.reschedule (st);
}

static void
mliqss2_derivative (Integrator *st,
                    double      t)
{
  estimate_cross (st, t);
  qd_integrator_liqss2_ops.derivative (st, t);
}

static void
mliqss2_unanswered (Integrator *st,
                    double      t)
{
  qd_integrator_liqss2_ops.unanswered (st, t);
}

const Ops qd_integrator_mliqss2_ops = {
  mliqss2_requantize,
  mliqss2_reschedule,
  mliqss2_derivative,
  mliqss2_requantized,
  mliqss2_unanswered,
  mliqss_attach,
};

/* qd-integrator-mliqss.c: mLIQSS1, the modified LIQSS1 of the Integrator
 * block, which updates two coupled states together
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
  for (guint k = 0; k < p->n_partners; k++)
    if (p->partner[k] == st)
      return (int) k;
  return -1;
}

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
  static const double side[4][2] = { { 1, 1 }, { 1, -1 }, { -1, 1 },
                                     { -1, -1 } };
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
  if (st->forced && st->forced_t == t)
    return st->forced_q;
  for (guint m = 0; m < st->n_partners; m++)
    {
      const Integrator *p = st->partner[m];
      double aij = st->a_cross[m], aji, xj, dxj, dxj_new, dqj, qj_new;
      double dxi_new, dxi_after, ui, uj, pi, pj;
      int back;

      if (aij == 0.0 || p->ops != st->ops || p->initial)
        continue;
      back = partner_index (p, st);
      if (back < 0 || p->a_cross[back] == 0.0)
        continue;
      aji = p->a_cross[back];
      dxj = p->x[1];
      dxj_new = dxj + aji * (qi - qi_now);
      if (!(dxj * dxj_new < 0.0))
        continue;
      xj = p->x[0] + dxj * (t - p->tl);
      dqj = quantum (p, xj);
      qj_new = xj + copysign (dqj, dxj_new);
      dxi_new = st->u0 + st->a * qi;
      dxi_after = dxi_new + aij * (qj_new - p->q[0]);
      if (!(dxi_new * dxi_after < 0.0))
        continue;
      /* The cycle: both states chosen on the pair's model. */
      ui = st->u0 - aij * p->q[0];
      uj = dxj - p->a * p->q[0] - aji * qi_now;
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

  if (st->initial)
    {
      qd_integrator_liqss1_ops.requantize (st, x, dq, q);
      return;
    }
  q[0] = mliqss1_choose (st, st->req_t, x[0], dq, st->q[0], &k, &qj);
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

  if (st->forced && st->forced_t == t)
    {
      st->forced = FALSE;
      return;
    }
  if (st->initial)
    return;
  mliqss1_choose (st, t, st->x[0], st->dq, st->q_old, &k, &qj);
  if (k >= 0)
    {
      Integrator *p = st->partner[k];

      p->forced = TRUE;
      p->forced_t = t;
      p->forced_q = qj;
    }
}

static double
mliqss1_reschedule (Integrator *st)
{
  /* A q handed over for this instant is emitted at once. */
  if (st->forced && st->forced_t == st->tl)
    return 0.0;
  st->forced = FALSE;
  return qd_integrator_liqss1_ops.reschedule (st);
}

/* LIQSS1's estimate of a_ii, and the cross-dependence on the one coupled
 * integrator that emitted since the last derivative, if only one did. */
static void
mliqss1_derivative (Integrator *st,
                    double      t)
{
  gboolean own = st->awaiting && t == st->t_out;
  int changed = -1, n_changed = 0;

  for (guint m = 0; m < st->n_partners; m++)
    {
      const Integrator *p = st->partner[m];

      if (p->t_out != st->seen_out[m])
        {
          changed = (int) m;
          n_changed++;
          st->seen_out[m] = p->t_out;
        }
    }
  if (!own && n_changed == 1)
    {
      const Integrator *p = st->partner[changed];
      double dqk = p->q[0] - p->q_old;

      if (dqk != 0.0 && p->t_out == t)
        st->a_cross[changed] = (st->x[1] - st->dx_before) / dqk;
    }
  qd_integrator_liqss1_ops.derivative (st, t);
}

static void
mliqss1_unanswered (Integrator *st,
                    double      t)
{
  qd_integrator_liqss1_ops.unanswered (st, t);
}

static void
mliqss1_attach (Integrator *st,
                QdAtomic   *self)
{
  guint n, m = 0;
  QdAtomic *const *coupled = qd_atomic_get_coupled (self, &n);

  st->partner = qd_atomic_alloc (self, MAX (n, 1) * sizeof *st->partner);
  st->a_cross = qd_atomic_alloc (self, MAX (n, 1) * sizeof *st->a_cross);
  st->seen_out = qd_atomic_alloc (self, MAX (n, 1) * sizeof *st->seen_out);
  /* Only integrators of this library share this state layout; the
   * method is checked at each step (they may not be initialised yet). */
  for (guint k = 0; k < n; k++)
    if (coupled[k]->type == &qd_block_integrator
        || coupled[k]->type == &qd_block_integrator_reset)
      {
        st->partner[m] = coupled[k]->state;
        st->seen_out[m] = -QD_INF;
        m++;
      }
  st->n_partners = m;
  st->forced = FALSE;
}

const Ops qd_integrator_mliqss1_ops = {
  mliqss1_requantize,
  mliqss1_reschedule,
  mliqss1_derivative,
  mliqss1_requantized,
  mliqss1_unanswered,
  mliqss1_attach,
};

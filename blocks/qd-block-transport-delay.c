/* qd-block-transport-delay.c: Transport Delay and Variable Transport Delay,
 * the blocks of delay differential equations
 *
 * Transport Delay is the QSS delay of PowerDEVS: y(t) = u(t − T). Its input
 * is a sequence of polynomial segments, so the delayed signal is the same
 * segments, each emitted T after it arrived with the same coefficients:
 * exact, with no quantization of its own. Before the first delayed segment
 * (t < start + T) the output is the initial history value. The segments in
 * flight wait in a ring that doubles when full (log2 of the longest
 * backlog allocations in a run).
 *
 * Variable Transport Delay gives y(t) = u(t − τ(t)), τ an input. The
 * block keeps the history of u as its segments, and at each event
 * composes the segment in force at φ(t) = t − τ(t) with the polynomial
 * φ(t + s) − φ(t): y(t + s) = useg(φ(t) + δ(s)), computed to degree 9 (the
 * exact composition of two cubics) and emitted to order 3. The next event
 * is the earlier of
 *  - φ leaving the history segment it is in (the point where u's
 *    trajectory changes polynomial), located as a polynomial crossing, so
 *    the breakpoints of the delayed signal are exact;
 *  - the time when the terms above order 3 could reach the tolerance
 *    (never, when τ is constant or linear and u of order 1: the
 *    composition is then exact);
 *  - a new τ segment (at once).
 * History older than the maximum delay is dropped; a τ below 0 or above
 * the maximum delay stops the run with an error naming the block.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "qd-blocks-private.h"
#include "qd-poly.h"

#define HISTORY_INITIAL_SLOTS 64

/* A ring of input segments in arrival order, addressed by absolute
 * sequence numbers in [lo, hi) so that an index survives drops and
 * growth. */
typedef struct
{
  QdSignal *slots;
  guint64   n_slots;     /* a power of 2 */
  guint64   lo, hi;
} History;

static void
history_init (History *h)
{
  g_free (h->slots);
  h->n_slots = HISTORY_INITIAL_SLOTS;
  h->slots = g_new (QdSignal, h->n_slots);
  h->lo = h->hi = 0;
}

static void
history_clear (History *h)
{
  g_clear_pointer (&h->slots, g_free);
  h->n_slots = 0;
  h->lo = h->hi = 0;
}

static inline QdSignal *
history_at (const History *h,
            guint64        i)
{
  return &h->slots[i & (h->n_slots - 1)];
}

/* Appends @x, taken at @t; a second segment at the same time replaces the
 * first (only the last value at an instant is the signal after it). */
static void
history_push (History        *h,
              double          t,
              const QdSignal *x)
{
  QdSignal *slot;

  if (h->hi > h->lo && history_at (h, h->hi - 1)->t == t)
    slot = history_at (h, h->hi - 1);
  else
    {
      if (h->hi - h->lo == h->n_slots)
        {
          guint64 n = h->n_slots * 2;
          QdSignal *slots = g_new (QdSignal, n);

          for (guint64 i = h->lo; i < h->hi; i++)
            slots[i & (n - 1)] = *history_at (h, i);
          g_free (h->slots);
          h->slots = slots;
          h->n_slots = n;
        }
      slot = history_at (h, h->hi);
      h->hi++;
    }
  qd_signal_advance (x, t, slot);
}

/* -------------------------------------------------------------------- */
/* Transport Delay */

enum
{
  TD_DELAY,
  TD_INITIAL,
};

typedef struct
{
  History   history;
  double    tl;
  gboolean  initial_due;
} TransportDelay;

static void
transport_delay_init (QdAtomic *self,
                      double    t)
{
  TransportDelay *st = self->state;

  history_init (&st->history);
  st->tl = t;
  st->initial_due = TRUE;
}

static double
transport_delay_ta (QdAtomic *self)
{
  TransportDelay *st = self->state;
  const History *h = &st->history;

  if (st->initial_due)
    return 0.0;
  if (h->hi == h->lo)
    return QD_INF;
  return MAX (0.0, history_at (h, h->lo)->t
                   + self->params[TD_DELAY].number - st->tl);
}

static guint64
transport_delay_lambda (QdAtomic *self,
                        double    t)
{
  TransportDelay *st = self->state;
  QdSignal *y = &self->out[0];

  if (st->initial_due)
    {
      qd_signal_set_constant (y, t, self->params[TD_INITIAL].number);
      return 1;
    }
  /* The same coefficients, now about t (= arrival + T up to rounding). */
  *y = *history_at (&st->history, st->history.lo);
  y->t = t;
  return 1;
}

static void
transport_delay_dint (QdAtomic *self,
                      double    t)
{
  TransportDelay *st = self->state;

  st->tl = t;
  if (st->initial_due)
    st->initial_due = FALSE;
  else
    st->history.lo++;
}

static void
transport_delay_dext (QdAtomic       *self,
                      double          t,
                      double          e,
                      guint           port,
                      const QdSignal *x)
{
  TransportDelay *st = self->state;

  st->tl = t;
  /* A segment at the start time supersedes the initial history when the
   * delay is 0; otherwise the history shows until start + T. */
  history_push (&st->history, t, x);
}

static void
transport_delay_exit (QdAtomic *self,
                      double    t)
{
  TransportDelay *st = self->state;

  history_clear (&st->history);
}

static const QdParamSpec transport_delay_params[] = {
  { "delay", N_("Delay"), QD_PARAM_NUMBER, "1", 0, QD_INF, "s",
    N_("The time T by which the input is delayed: y(t) = u(t − T)."),
    NULL, 0 },
  { "initial", N_("Initial history"), QD_PARAM_NUMBER, "0", -QD_INF, QD_INF,
    NULL,
    N_("The output before the first delayed segment, while t < start + T "
       "(the history u(t) for t < start)."), NULL, 0 },
};

const QdBlockType qd_block_transport_delay = {
  .id = "transport_delay",
  .category = N_("Continuous"),
  .name = N_("Transport Delay"),
  .glyph = "e⁻ˢᵀ",
  .doc = N_("Delays its input by a constant time: y(t) = u(t − T). Each "
            "input segment is emitted T after it arrived, with the same "
            "polynomial, so the delayed signal is exact whatever the "
            "order. Before start + T the output is the initial history "
            "value. With an Integrator it solves delay differential "
            "equations such as x′(t) = −x(t − 1)."),
  .inputs = { .count = 1, .name_prefix = "u",
              .doc = N_("The signal to delay.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The delayed signal u(t − T).") },
  .params = transport_delay_params,
  .n_params = G_N_ELEMENTS (transport_delay_params),
  .state_size = sizeof (TransportDelay),
  .init = transport_delay_init,
  .ta = transport_delay_ta,
  .dint = transport_delay_dint,
  .dext = transport_delay_dext,
  .lambda = transport_delay_lambda,
  .exit = transport_delay_exit,
};

/* -------------------------------------------------------------------- */
/* Variable Transport Delay */

enum
{
  VD_MAX_DELAY,
  VD_INITIAL,
  VD_TOLERANCE,
};

enum
{
  PORT_U,
  PORT_TAU,
};

#define COMPOSED_DEGREE 9

typedef struct
{
  History   history;
  double    tl;           /* the last output */
  double    t_last;       /* the last transition */
  double    t_err;        /* when the emitted output may be tolerance off */
  gboolean  due;          /* an output is due now */
  guint64   seg;          /* the segment the emitted output follows
                             (SEG_NONE: the initial history) */
} VariableDelay;

#define SEG_NONE G_MAXUINT64

/* What the output is at @t, and when it must change. */
typedef struct
{
  QdSignal  y;
  guint64   seg;          /* the history segment used, SEG_NONE for none */
  guint64   seg_next;     /* the one φ enters at s_cross */
  double    s_cross;      /* φ leaves the segment (QD_INF: never) */
  double    s_err;        /* the truncation reaches the tolerance */
  double    s_range;      /* τ reaches 0 or the maximum delay */
  gboolean  out_of_range; /* τ is below 0 or above the maximum, or
                             leaving [0, max] now */
} Plan;

/* The sign of the first nonzero coefficient of φ − φ(t): whether φ moves
 * forward just after t. */
static gboolean
moves_back (const double *phi)
{
  for (int k = 1; k <= QD_MAX_ORDER; k++)
    if (phi[k] != 0.0)
      return phi[k] < 0.0;
  return FALSE;
}

/* The segment in force at @p (the last one starting at or before it;
 * the one before when φ arrives at a start moving back), or SEG_NONE in
 * the initial history. */
static guint64
find_segment (const History *h,
              double         p,
              gboolean       back)
{
  guint64 lo = h->lo, hi = h->hi;

  /* The last index with start <= p, by bisection. */
  while (lo < hi)
    {
      guint64 mid = lo + (hi - lo) / 2;

      if (history_at (h, mid)->t <= p)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == h->lo)
    return SEG_NONE;
  lo--;
  if (back && history_at (h, lo)->t == p)
    return lo == h->lo ? SEG_NONE : lo - 1;
  return lo;
}

/* a(δ(s)) to degree COMPOSED_DEGREE, with δ(0) = 0. */
static void
compose (const double *a,
         const double *delta,
         double       *r)
{
  double pw[COMPOSED_DEGREE + 1] = { 1.0 };

  memset (r, 0, (COMPOSED_DEGREE + 1) * sizeof (double));
  r[0] = a[0];
  for (int k = 1; k <= QD_MAX_ORDER; k++)
    {
      double next[COMPOSED_DEGREE + 1] = { 0.0 };

      for (int i = 0; i <= COMPOSED_DEGREE; i++)
        if (pw[i] != 0.0)
          for (int j = 1; j <= QD_MAX_ORDER && i + j <= COMPOSED_DEGREE; j++)
            next[i + j] += pw[i] * delta[j];
      memcpy (pw, next, sizeof pw);
      for (int i = 0; i <= COMPOSED_DEGREE; i++)
        r[i] += a[k] * pw[i];
    }
}

static void
variable_delay_plan (QdAtomic *self,
                     double    t,
                     gboolean  forced,
                     guint64   forced_seg,
                     Plan     *plan)
{
  VariableDelay *st = self->state;
  const History *h = &st->history;
  const QdParamValue *p = self->params;
  double phi[QD_MAX_ORDER + 1], a[QD_MAX_ORDER + 1] = { 0.0 };
  double r[COMPOSED_DEGREE + 1];
  double lo_edge = -QD_INF, hi_edge = QD_INF, tol = p[VD_TOLERANCE].number;
  QdSignal tau;
  int order = 0;

  qd_signal_advance (self->in[PORT_TAU], t, &tau);
  /* τ leaving [0, max]: an event there, where the run stops if τ moves
   * on out of the range. */
  {
    double half = p[VD_MAX_DELAY].number / 2.0, d[QD_MAX_ORDER + 1];
    gboolean up, down, at_edge;

    memcpy (d, tau.c, sizeof d);
    d[0] -= half;
    down = moves_back (d);
    up = !down && (d[1] != 0.0 || d[2] != 0.0 || d[3] != 0.0);
    /* At an edge to rounding (the event that found the crossing). */
    at_edge = fabs (fabs (d[0]) - half) <= 8.0 * DBL_EPSILON * half;
    plan->out_of_range = (fabs (d[0]) > half && !at_edge)
                         || (at_edge && ((d[0] > 0.0 && up)
                                         || (d[0] < 0.0 && down)));
    d[0] = CLAMP (d[0], -half, half);
    plan->s_range = !plan->out_of_range
                    ? qd_poly_first_crossing (d, QD_MAX_ORDER, half) : 0.0;
  }
  phi[0] = t - CLAMP (tau.c[0], 0.0, p[VD_MAX_DELAY].number);
  phi[1] = 1.0 - tau.c[1];
  phi[2] = -tau.c[2];
  phi[3] = -tau.c[3];

  plan->seg = forced ? forced_seg
                     : find_segment (h, phi[0], moves_back (phi));
  if (plan->seg == SEG_NONE)
    {
      a[0] = p[VD_INITIAL].number;
      if (h->hi > h->lo)
        hi_edge = history_at (h, h->lo)->t;
    }
  else
    {
      QdSignal u;

      qd_signal_advance (history_at (h, plan->seg), phi[0], &u);
      memcpy (a, u.c, sizeof a);
      lo_edge = history_at (h, plan->seg)->t;
      if (plan->seg + 1 < h->hi)
        hi_edge = history_at (h, plan->seg + 1)->t;
    }

  /* y(t + s) = a(φ(t + s) − φ(t)). */
  {
    double delta[QD_MAX_ORDER + 1] = { 0.0, phi[1], phi[2], phi[3] };

    compose (a, delta, r);
  }
  qd_signal_set_constant (&plan->y, t, r[0]);
  for (int k = 1; k <= QD_MAX_ORDER; k++)
    {
      plan->y.c[k] = r[k];
      if (r[k] != 0.0)
        order = k;
    }
  plan->y.order = order;

  /* Each dropped term kept below tol / 6 (there are six). */
  plan->s_err = QD_INF;
  for (int k = QD_MAX_ORDER + 1; k <= COMPOSED_DEGREE; k++)
    if (r[k] != 0.0)
      plan->s_err = MIN (plan->s_err, pow (tol / (6.0 * fabs (r[k])),
                                           1.0 / k));

  /* φ leaving [lo_edge, hi_edge]. */
  plan->s_cross = QD_INF;
  plan->seg_next = plan->seg;
  {
    double d[QD_MAX_ORDER + 1];
    double s_lo = QD_INF, s_hi = QD_INF;

    /* φ(t) is inside the segment, but may be a rounding error outside it
     * just after the crossing that entered it: taken at the edge then, so
     * that the edge it came through is not found again. */
    memcpy (d, phi, sizeof d);
    if (hi_edge < QD_INF)
      {
        d[0] = MIN (phi[0] - hi_edge, 0.0);
        s_hi = d[0] == 0.0 && moves_back (phi)
               ? QD_INF : qd_poly_first_root (d, QD_MAX_ORDER);
      }
    if (lo_edge > -QD_INF)
      {
        d[0] = MAX (phi[0] - lo_edge, 0.0);
        s_lo = d[0] == 0.0 && !moves_back (phi)
               ? QD_INF : qd_poly_first_root (d, QD_MAX_ORDER);
      }
    if (s_hi <= s_lo && s_hi < QD_INF)
      {
        plan->s_cross = s_hi;
        plan->seg_next = plan->seg == SEG_NONE ? h->lo : plan->seg + 1;
      }
    else if (s_lo < QD_INF)
      {
        plan->s_cross = s_lo;
        plan->seg_next = plan->seg == h->lo ? SEG_NONE : plan->seg - 1;
      }
  }
}

static void
variable_delay_init (QdAtomic *self,
                     double    t)
{
  VariableDelay *st = self->state;

  history_init (&st->history);
  st->tl = st->t_last = t;
  st->due = TRUE;
  st->seg = SEG_NONE;
  st->t_err = QD_INF;
}

/* The plan at @t. When @t is the crossing the plan of the last output
 * found, φ enters the segment that plan named: rounding may leave φ(t) a
 * hair short of the breakpoint, where a search would find the old one. */
static void
plan_now (QdAtomic *self,
          double    t,
          Plan     *plan)
{
  VariableDelay *st = self->state;

  if (!st->due)
    {
      variable_delay_plan (self, st->tl, TRUE, st->seg, plan);
      if (st->tl + plan->s_cross <= t)
        {
          variable_delay_plan (self, t, TRUE, plan->seg_next, plan);
          return;
        }
    }
  variable_delay_plan (self, t, FALSE, 0, plan);
}

static double
variable_delay_ta (QdAtomic *self)
{
  VariableDelay *st = self->state;
  Plan plan;

  if (st->due)
    return 0.0;
  /* The crossing is planned again from the last output: a segment that
   * arrived since may be where φ goes next. */
  variable_delay_plan (self, st->tl, TRUE, st->seg, &plan);
  return MAX (0.0, MIN (st->tl + MIN (plan.s_cross, plan.s_range),
                        st->t_err) - st->t_last);
}

static guint64
variable_delay_lambda (QdAtomic *self,
                       double    t)
{
  Plan plan;

  plan_now (self, t, &plan);
  self->out[0] = plan.y;
  return 1;
}

static void
variable_delay_prune (QdAtomic *self,
                      double    t)
{
  VariableDelay *st = self->state;
  History *h = &st->history;
  double oldest = t - self->params[VD_MAX_DELAY].number;

  /* A segment whose successor starts before t − max is never needed; the
   * one in use is kept whatever happens. */
  while (h->hi - h->lo > 1 && history_at (h, h->lo + 1)->t < oldest
         && st->seg != SEG_NONE && st->seg > h->lo)
    h->lo++;
}

static void
variable_delay_dint (QdAtomic *self,
                     double    t)
{
  VariableDelay *st = self->state;
  Plan plan;

  plan_now (self, t, &plan);
  if (plan.out_of_range)
    {
      double tau = qd_signal_eval (self->in[PORT_TAU], t);

      if (tau < 0.0)
        qd_atomic_fail (self, QD_ERROR_FAILED,
                        _("the delay input is negative (%g) at t = %g; "
                          "a transport delay cannot look ahead"), tau, t);
      else
        qd_atomic_fail (self, QD_ERROR_FAILED,
                        _("the delay input (%g) exceeds parameter "
                          "'max_delay' (%g) at t = %g: raise 'max_delay'"),
                        tau, self->params[VD_MAX_DELAY].number, t);
    }
  st->seg = plan.seg;
  st->t_err = t + plan.s_err;
  st->tl = st->t_last = t;
  st->due = FALSE;
  variable_delay_prune (self, t);
}

static void
variable_delay_dext (QdAtomic       *self,
                     double          t,
                     double          e,
                     guint           port,
                     const QdSignal *x)
{
  VariableDelay *st = self->state;

  st->t_last = t;
  if (port == PORT_U)
    {
      history_push (&st->history, t, x);
      /* With no delay, φ(t) = t: the new segment is the output now. */
      if (qd_signal_eval (self->in[PORT_TAU], t) <= 0.0)
        st->due = TRUE;
    }
  else
    st->due = TRUE;
}

static void
variable_delay_exit (QdAtomic *self,
                     double    t)
{
  VariableDelay *st = self->state;

  history_clear (&st->history);
}

static gboolean
variable_delay_check (const QdBlockType  *type,
                      const QdParamValue *params,
                      guint               n_inputs,
                      guint               n_outputs,
                      GError            **error)
{
  if (!(params[VD_MAX_DELAY].number > 0.0))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("parameter 'max_delay' must be greater than 0 (it is "
                     "%g)"), params[VD_MAX_DELAY].number);
      return FALSE;
    }
  if (!(params[VD_TOLERANCE].number > 0.0))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("parameter 'tolerance' must be greater than 0 (it is "
                     "%g)"), params[VD_TOLERANCE].number);
      return FALSE;
    }
  return TRUE;
}

static const QdParamSpec variable_delay_params[] = {
  { "max_delay", N_("Maximum delay"), QD_PARAM_NUMBER, "10", 0, QD_INF, "s",
    N_("The largest delay the τ input may take; the history of u is kept "
       "that far back. A larger τ stops the run with an error."),
    NULL, 0 },
  { "initial", N_("Initial history"), QD_PARAM_NUMBER, "0", -QD_INF, QD_INF,
    NULL, N_("The value of u before the start time: the output while "
             "t − τ(t) < start."), NULL, 0 },
  { "tolerance", N_("Tolerance"), QD_PARAM_NUMBER, "1e-6", 0, QD_INF, NULL,
    N_("The largest error allowed in the output's polynomial when the "
       "composition u(t − τ(t)) is above order 3; exact otherwise."),
    NULL, 0 },
};

const QdBlockType qd_block_variable_transport_delay = {
  .id = "variable_transport_delay",
  .category = N_("Continuous"),
  .name = N_("Variable Transport Delay"),
  .glyph = "u(t−τ)",
  .doc = N_("Delays its first input by the value of its second: y(t) = "
            "u(t − τ(t)). The history of u is kept as its polynomial "
            "segments; the output is their composition with t − τ(t), "
            "exact up to order 3 and within the tolerance above it, and "
            "the times where t − τ(t) passes a breakpoint of u are found "
            "exactly. Before the start, u is the initial history value. τ "
            "must stay between 0 and the maximum delay. Use it for "
            "state-dependent delay equations."),
  .inputs = { .count = 2, .name_prefix = "u",
              .doc = N_("u0 is the signal u; u1 is the delay τ.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The delayed signal u(t − τ(t)).") },
  .params = variable_delay_params,
  .n_params = G_N_ELEMENTS (variable_delay_params),
  .state_size = sizeof (VariableDelay),
  .check = variable_delay_check,
  .init = variable_delay_init,
  .ta = variable_delay_ta,
  .dint = variable_delay_dint,
  .dext = variable_delay_dext,
  .lambda = variable_delay_lambda,
  .exit = variable_delay_exit,
};

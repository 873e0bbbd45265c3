/* qd-block-discrete-delay.c: Delay, Unit Delay and Counter
 *
 * Delay re-emits every event it receives, unchanged, a fixed time later:
 * a segment x(t + s) arriving at t leaves at t + delay as the same
 * polynomial, so a piecewise polynomial signal comes out exactly shifted.
 * The pending events wait in a ring allocated at init (parameter
 * 'capacity'), because the event loop does not allocate; more pending
 * events than that stop the run with an error saying what to raise.
 * Several events due at the same time leave one by one, in arrival
 * order, at that time.
 *
 * Unit Delay is the sampled z⁻¹: at start + k·Ts it outputs the sample
 * it took at start + (k−1)·Ts (the initial value at k = 0) and takes a
 * new one. An input event at the very sampling instant counts for that
 * sample whatever the priority order says (the sample is taken again
 * when such an event comes after the block's own event), so the sample
 * is the right-continuous value of the input, as a sampler's should be.
 *
 * Counter emits the number of events it has received: 0 at the start
 * time, then the new count after each event (value and tag).
 */
#include "qd-blocks-private.h"

/* -------------------------------------------------------------------- */
/* Delay */

enum
{
  DELAY_DELAY,
  DELAY_CAPACITY,
};

typedef struct
{
  QdSignal *ring;       /* pending events, t = when they leave */
  guint     n_slots;
  guint     head;
  guint     len;
  double    tl;
} Delay;

static void
delay_init (QdAtomic *self,
            double    t)
{
  Delay *st = self->state;

  st->n_slots = (guint) self->params[DELAY_CAPACITY].number;
  st->ring = qd_atomic_alloc (self, st->n_slots * sizeof (QdSignal));
  st->head = st->len = 0;
  st->tl = t;
}

static double
delay_ta (QdAtomic *self)
{
  Delay *st = self->state;

  if (st->len == 0)
    return QD_INF;
  return MAX (0.0, st->ring[st->head].t - st->tl);
}

static guint64
delay_lambda (QdAtomic *self,
              double    t)
{
  Delay *st = self->state;

  /* The same polynomial, its origin at the actual event time (which may
   * differ from head.t by a rounding of tl + ta). */
  qd_signal_advance (&st->ring[st->head], t, &self->out[0]);
  return 1;
}

static void
delay_dint (QdAtomic *self,
            double    t)
{
  Delay *st = self->state;

  st->head = (st->head + 1) % st->n_slots;
  st->len--;
  st->tl = t;
}

static void
delay_dext (QdAtomic       *self,
            double          t,
            double          e,
            guint           port,
            const QdSignal *x)
{
  Delay *st = self->state;
  double delay = self->params[DELAY_DELAY].number;
  QdSignal *slot;

  st->tl = t;
  if (st->len == st->n_slots)
    {
      qd_atomic_fail (self, QD_ERROR_FAILED,
                      _("an event arrived at t = %g while %u were already "
                        "waiting, its capacity; raise parameter 'capacity' "
                        "(or shorten 'delay')"),
                      t, st->n_slots);
      return;
    }
  slot = &st->ring[(st->head + st->len) % st->n_slots];
  /* x shifted: y(t + delay + s) = x(t + s). */
  qd_signal_advance (x, t, slot);
  slot->t = t + delay;
  st->len++;
}

static const QdParamSpec delay_params[] = {
  { "delay", N_("Delay"), QD_PARAM_NUMBER, "1", 0, QD_INF, "s",
    N_("How long after its arrival each event is emitted again."),
    NULL, 0 },
  /* The ring is allocated whole at init: 1e6 events is 56 MB. */
  { "capacity", N_("Capacity"), QD_PARAM_INTEGER, "1024", 1, 1e6, NULL,
    N_("The most events that can be waiting at once; the run stops with "
       "an error when more arrive within one delay."), NULL, 0 },
};

const QdBlockType qd_block_delay = {
  .id = "delay",
  .category = N_("Discrete"),
  .name = N_("Delay"),
  .glyph = "Δt",
  .doc = N_("Emits every event it receives again, unchanged, a fixed delay "
            "later: the output is the input shifted in time, exactly. Up "
            "to 'capacity' events may be waiting at once."),
  .inputs = { .count = 1, .name_prefix = "u",
              .doc = N_("The events to delay.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The same events, one delay later.") },
  .params = delay_params,
  .n_params = G_N_ELEMENTS (delay_params),
  .state_size = sizeof (Delay),
  .init = delay_init,
  .ta = delay_ta,
  .dint = delay_dint,
  .dext = delay_dext,
  .lambda = delay_lambda,
};

/* -------------------------------------------------------------------- */
/* Unit Delay */

enum
{
  UNIT_DELAY_PERIOD,
  UNIT_DELAY_INITIAL,
};

typedef struct
{
  double held;          /* what the next sampling instant outputs */
  double t0;
  double k;             /* sampling instants done */
  double next;          /* t0 + k·Ts */
  double last_sample;   /* the instant of the sample in held */
  double tl;
} UnitDelay;

static void
unit_delay_init (QdAtomic *self,
                 double    t)
{
  UnitDelay *st = self->state;

  st->held = self->params[UNIT_DELAY_INITIAL].number;
  st->t0 = st->next = st->tl = t;
  st->k = 0.0;
  st->last_sample = -QD_INF;
}

static double
unit_delay_ta (QdAtomic *self)
{
  UnitDelay *st = self->state;

  return MAX (0.0, st->next - st->tl);
}

static guint64
unit_delay_lambda (QdAtomic *self,
                   double    t)
{
  UnitDelay *st = self->state;

  qd_signal_set_constant (&self->out[0], t, st->held);
  return 1;
}

static void
unit_delay_dint (QdAtomic *self,
                 double    t)
{
  UnitDelay *st = self->state;

  st->held = qd_signal_eval (self->in[0], t);
  st->last_sample = t;
  st->k += 1.0;
  st->next = st->t0 + st->k * self->params[UNIT_DELAY_PERIOD].number;
  st->tl = t;
}

static void
unit_delay_dext (QdAtomic       *self,
                 double          t,
                 double          e,
                 guint           port,
                 const QdSignal *x)
{
  UnitDelay *st = self->state;

  st->tl = t;
  if (t == st->last_sample)
    st->held = qd_signal_eval (x, t);
}

static gboolean
unit_delay_check (const QdBlockType  *type,
                  const QdParamValue *params,
                  guint               n_inputs,
                  guint               n_outputs,
                  GError            **error)
{
  if (!(params[UNIT_DELAY_PERIOD].number > 0.0))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("parameter 'period' must be greater than 0 (it is %g)"),
                   params[UNIT_DELAY_PERIOD].number);
      return FALSE;
    }
  return TRUE;
}

static const QdParamSpec unit_delay_params[] = {
  { "period", N_("Sampling period"), QD_PARAM_NUMBER, "1", 0, QD_INF, "s",
    N_("The sampling period Ts; must be greater than 0."), NULL, 0 },
  { "initial", N_("Initial output"), QD_PARAM_NUMBER, "0", -QD_INF, QD_INF,
    NULL, N_("The output during the first period."), NULL, 0 },
};

const QdBlockType qd_block_unit_delay = {
  .id = "unit_delay",
  .category = N_("Discrete"),
  .name = N_("Unit Delay"),
  .glyph = "z⁻¹",
  .doc = N_("A sampled one-step delay (z⁻¹): at the start time and every "
            "sample period after it, the output becomes the input sampled "
            "one period earlier (the initial output for the first period)."),
  .inputs = { .count = 1, .name_prefix = "u",
              .doc = N_("The signal to sample.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The previous sample (order 0).") },
  .params = unit_delay_params,
  .n_params = G_N_ELEMENTS (unit_delay_params),
  .state_size = sizeof (UnitDelay),
  .check = unit_delay_check,
  .init = unit_delay_init,
  .ta = unit_delay_ta,
  .dint = unit_delay_dint,
  .dext = unit_delay_dext,
  .lambda = unit_delay_lambda,
};

/* -------------------------------------------------------------------- */
/* Counter */

typedef struct
{
  guint32  count;
  gboolean changed;     /* the count has not been emitted yet */
} Counter;

static void
counter_init (QdAtomic *self,
              double    t)
{
  Counter *st = self->state;

  st->count = 0;
  st->changed = TRUE;
}

static double
counter_ta (QdAtomic *self)
{
  Counter *st = self->state;

  return st->changed ? 0.0 : QD_INF;
}

static guint64
counter_lambda (QdAtomic *self,
                double    t)
{
  Counter *st = self->state;

  qd_signal_set_constant (&self->out[0], t, st->count);
  self->out[0].tag = st->count;
  return 1;
}

static void
counter_dint (QdAtomic *self,
              double    t)
{
  Counter *st = self->state;

  st->changed = FALSE;
}

static void
counter_dext (QdAtomic       *self,
              double          t,
              double          e,
              guint           port,
              const QdSignal *x)
{
  Counter *st = self->state;

  st->count++;
  st->changed = TRUE;
}

const QdBlockType qd_block_counter = {
  .id = "counter",
  .category = N_("Discrete"),
  .name = N_("Counter"),
  .glyph = "#",
  .doc = N_("Counts the events it receives and emits the count (as value "
            "and tag): 0 at the start time, then the new count after each "
            "event. Events at the same instant may give one output with "
            "their total."),
  .inputs = { .count = 1, .name_prefix = "u",
              .doc = N_("The events to count.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The number of events so far (order 0).") },
  .state_size = sizeof (Counter),
  .init = counter_init,
  .ta = counter_ta,
  .dint = counter_dint,
  .dext = counter_dext,
  .lambda = counter_lambda,
};

/* qd-block-hybrid-sample.c: Sample & Hold and Commanded Sampler
 *
 * Both take the exact value of their input polynomial at the sampling
 * instant and hold it (order 0) until the next sample. Sample & Hold
 * samples on a clock, phase + k·period; the sampling times are computed
 * from k by one multiplication, never by adding periods, so they do not
 * drift over long runs. Commanded Sampler samples when an event arrives
 * on its command input.
 */
#include <math.h>

#include "qd-blocks-private.h"

/* ---- Sample & Hold ----------------------------------------------------- */

enum
{
  SH_PERIOD,
  SH_PHASE,
};

typedef struct
{
  double   tl;        /* time of the last transition */
  double   k;         /* index of the next sample */
  double   t_next;    /* phase + k·period */
  gboolean started;   /* an input has arrived */
  gboolean missed;    /* a sample fell before the first input */
  gboolean emit;      /* that sample is due now */
} SampleHold;

static void
sample_hold_init (QdAtomic *self,
                  double    t)
{
  SampleHold *st = self->state;
  double period = self->params[SH_PERIOD].number;
  double phase = self->params[SH_PHASE].number;

  /* The first sampling time at or after the start. */
  st->k = ceil ((t - phase) / period);
  if (phase + st->k * period < t)
    st->k += 1.0;
  st->t_next = phase + st->k * period;
  st->tl = t;
  st->started = st->missed = st->emit = FALSE;
}

static double
sample_hold_ta (QdAtomic *self)
{
  SampleHold *st = self->state;

  if (st->emit)
    return 0.0;
  return fmax (st->t_next - st->tl, 0.0);
}

static guint64
sample_hold_lambda (QdAtomic *self,
                    double    t)
{
  SampleHold *st = self->state;

  /* Nothing to sample before the input has a value. */
  if (!st->started)
    return 0;
  qd_signal_set_constant (&self->out[0], t, qd_signal_eval (self->in[0], t));
  return 1;
}

static void
sample_hold_dint (QdAtomic *self,
                  double    t)
{
  SampleHold *st = self->state;

  if (st->emit)
    st->emit = FALSE;
  else
    {
      if (!st->started)
        st->missed = TRUE;
      st->k += 1.0;
      st->t_next = self->params[SH_PHASE].number
                   + st->k * self->params[SH_PERIOD].number;
    }
  st->tl = t;
}

static void
sample_hold_dext (QdAtomic       *self,
                  double          t,
                  double          e,
                  guint           port,
                  const QdSignal *x)
{
  SampleHold *st = self->state;

  /* A sample due before the first input (typically the one at the start
   * time, when the source comes later in the priority order) is taken
   * when the input arrives. */
  if (!st->started && st->missed)
    st->emit = TRUE;
  st->started = TRUE;
  st->tl = t;
}

static gboolean
sample_hold_check (const QdBlockType  *type,
                   const QdParamValue *params,
                   guint               n_inputs,
                   guint               n_outputs,
                   GError            **error)
{
  if (params[SH_PERIOD].number > 0.0 && isfinite (params[SH_PERIOD].number))
    return TRUE;
  g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
               _("parameter 'period' (%g) must be a positive, finite time"),
               params[SH_PERIOD].number);
  return FALSE;
}

static const QdParamSpec sample_hold_params[] = {
  { "period", N_("Sampling period"), QD_PARAM_NUMBER, "0.1", 0, QD_INF, "s",
    N_("The time between samples."), NULL, 0 },
  { "phase", N_("Phase"), QD_PARAM_NUMBER, "0", -QD_INF, QD_INF, "s",
    N_("The samples are taken at phase + k·period, for every whole k that "
       "gives a time within the run."), NULL, 0 },
};

const QdBlockType qd_block_sample_hold = {
  .id = "sample_hold",
  .category = N_("Hybrid"),
  .name = N_("Sample & Hold"),
  .glyph = "S/H",
  .doc = N_("Samples its input at the times phase + k·period and holds the "
            "value until the next sample. The sample is the exact value of "
            "the input polynomial at that time; the output is piecewise "
            "constant. An input event at exactly a sampling time is taken "
            "into that sample only when the block sending it comes before "
            "this one in the diagram's priority order."),
  .inputs = { .count = 1, .name_prefix = "u",
              .doc = N_("The signal to sample.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The held sample (order 0).") },
  .params = sample_hold_params,
  .n_params = G_N_ELEMENTS (sample_hold_params),
  .state_size = sizeof (SampleHold),
  .check = sample_hold_check,
  .init = sample_hold_init,
  .ta = sample_hold_ta,
  .dint = sample_hold_dint,
  .dext = sample_hold_dext,
  .lambda = sample_hold_lambda,
};

/* ---- Commanded Sampler ------------------------------------------------- */

typedef struct
{
  gboolean emit;
} Sampler;

static void
sampler_init (QdAtomic *self,
              double    t)
{
  Sampler *st = self->state;

  st->emit = FALSE;
}

static double
sampler_ta (QdAtomic *self)
{
  Sampler *st = self->state;

  return st->emit ? 0.0 : QD_INF;
}

static guint64
sampler_lambda (QdAtomic *self,
                double    t)
{
  qd_signal_set_constant (&self->out[0], t, qd_signal_eval (self->in[0], t));
  return 1;
}

static void
sampler_dint (QdAtomic *self,
              double    t)
{
  Sampler *st = self->state;

  st->emit = FALSE;
}

static void
sampler_dext (QdAtomic       *self,
              double          t,
              double          e,
              guint           port,
              const QdSignal *x)
{
  Sampler *st = self->state;

  /* Only a command samples; a change of u0 is read from self->in[0] at
   * the next command. Not even a change of u0 at the command's instant
   * samples again: in a reset loop (the sample resets the state u0
   * comes from) that change is the sample's own consequence, and the
   * loop must settle. */
  if (port == 1)
    st->emit = TRUE;
}

const QdBlockType qd_block_commanded_sampler = {
  .id = "commanded_sampler",
  .category = N_("Hybrid"),
  .name = N_("Commanded Sampler"),
  .glyph = "S",
  .doc = N_("Samples u0 each time an event arrives on the command input "
            "u1, and holds the value until the next command. The sample is "
            "the exact value of u0's polynomial at the command time. With "
            "a Cross Detect as the command, it captures a state at a "
            "discontinuity, e.g. the speed of a ball when it hits the "
            "ground."),
  .inputs = { .count = 2, .name_prefix = "u",
              .doc = N_("u0 is the signal sampled; an event on u1 (any "
                        "value) commands a sample.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The last sample (order 0).") },
  .flags = QD_BLOCK_FEEDTHROUGH,
  .state_size = sizeof (Sampler),
  .init = sampler_init,
  .ta = sampler_ta,
  .dint = sampler_dint,
  .dext = sampler_dext,
  .lambda = sampler_lambda,
};

/* qd-block-step.c: Step, a source that jumps once
 *
 * It emits the initial value at the start time and the final value at the
 * step time. The step time is reached as sigma = time - t from the start
 * event, so with the usual start time 0 the event falls on the step time
 * exactly. A step time at or before the start emits only the final value,
 * at the start.
 */
#include "qd-blocks-private.h"

enum
{
  PARAM_TIME,
  PARAM_INITIAL,
  PARAM_FINAL,
};

typedef enum
{
  PHASE_START,   /* the first event, at the start time */
  PHASE_STEP,    /* waiting for the step time */
  PHASE_DONE,
} Phase;

typedef struct
{
  double sigma;
  Phase  phase;
} Step;

static void
step_init (QdAtomic *self,
           double    t)
{
  Step *st = self->state;

  st->phase = PHASE_START;
  st->sigma = 0.0;
}

static double
step_ta (QdAtomic *self)
{
  Step *st = self->state;

  return st->sigma;
}

static guint64
step_lambda (QdAtomic *self,
             double    t)
{
  Step *st = self->state;
  const QdParamValue *p = self->params;
  gboolean stepped = st->phase == PHASE_STEP || t >= p[PARAM_TIME].number;

  qd_signal_set_constant (&self->out[0], t,
                          stepped ? p[PARAM_FINAL].number
                                  : p[PARAM_INITIAL].number);
  return 1;
}

static void
step_dint (QdAtomic *self,
           double    t)
{
  Step *st = self->state;
  double time = self->params[PARAM_TIME].number;

  if (st->phase == PHASE_START && t < time)
    {
      st->phase = PHASE_STEP;
      st->sigma = time - t;
    }
  else
    {
      st->phase = PHASE_DONE;
      st->sigma = QD_INF;
    }
}

static const QdParamSpec step_params[] = {
  { "time", N_("Step time"), QD_PARAM_NUMBER, "1", -QD_INF, QD_INF, "s",
    N_("When the output jumps from the initial to the final value."),
    NULL, 0 },
  { "initial", N_("Initial value"), QD_PARAM_NUMBER, "0", -QD_INF, QD_INF,
    NULL, N_("The output before the step time."), NULL, 0 },
  { "final", N_("Final value"), QD_PARAM_NUMBER, "1", -QD_INF, QD_INF,
    NULL, N_("The output from the step time on."), NULL, 0 },
};

const QdBlockType qd_block_step = {
  .id = "step",
  .category = N_("Sources"),
  .name = N_("Step"),
  .glyph = "_┌",
  .doc = N_("Outputs the initial value from the start time, then jumps to "
            "the final value at the step time. A step time at or before "
            "the start outputs the final value from the start."),
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The step signal.") },
  .params = step_params,
  .n_params = G_N_ELEMENTS (step_params),
  .state_size = sizeof (Step),
  .init = step_init,
  .ta = step_ta,
  .dint = step_dint,
  .lambda = step_lambda,
};

/* qd-block-constant.c: Constant, a source of one fixed value
 *
 * It emits its value once, at the start time, and is passive afterwards:
 * receivers keep the last value that arrived.
 */
#include "qd-blocks-private.h"

typedef struct
{
  double sigma;
} Constant;

static void
constant_init (QdAtomic *self,
               double    t)
{
  Constant *st = self->state;

  st->sigma = 0.0;
}

static double
constant_ta (QdAtomic *self)
{
  Constant *st = self->state;

  return st->sigma;
}

static guint64
constant_lambda (QdAtomic *self,
                 double    t)
{
  qd_signal_set_constant (&self->out[0], t, self->params[0].number);
  return 1;
}

static void
constant_dint (QdAtomic *self,
               double    t)
{
  Constant *st = self->state;

  st->sigma = QD_INF;
}

static const QdParamSpec constant_params[] = {
  { "value", N_("Value"), QD_PARAM_NUMBER, "1", -QD_INF, QD_INF, NULL,
    N_("The constant output value."), NULL, 0 },
};

const QdBlockType qd_block_constant = {
  .id = "constant",
  .category = N_("Sources"),
  .name = N_("Constant"),
  .glyph = "c",
  .doc = N_("Outputs a constant value, emitted once at the start time."),
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The constant value.") },
  .params = constant_params,
  .n_params = G_N_ELEMENTS (constant_params),
  .state_size = sizeof (Constant),
  .init = constant_init,
  .ta = constant_ta,
  .dint = constant_dint,
  .lambda = constant_lambda,
};

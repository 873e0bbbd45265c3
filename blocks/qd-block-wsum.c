/* qd-block-wsum.c: WSum, the weighted sum y = w0 u0 + w1 u1 + ...
 *
 * A static function with n inputs (n sizes the ports). After any input
 * event it outputs at once the weighted sum of all inputs taken at the
 * current time; the sum is exact on every Taylor coefficient, and the
 * output order is the highest input order.
 */
#include "qd-blocks-private.h"

enum
{
  PARAM_N,
  PARAM_WEIGHTS,
};

typedef struct
{
  double sigma;
} WSum;

static void
wsum_init (QdAtomic *self,
           double    t)
{
  WSum *st = self->state;

  st->sigma = QD_INF;
}

static double
wsum_ta (QdAtomic *self)
{
  WSum *st = self->state;

  return st->sigma;
}

static void
wsum_dext (QdAtomic       *self,
           double          t,
           double          e,
           guint           port,
           const QdSignal *x)
{
  WSum *st = self->state;

  st->sigma = 0.0;
}

/* Why the work goes by the input's order: in QSS1 and QSS2 models nearly
 * every input is of order 0 or 1, and re-expanding it as a cubic would
 * spend most of the block's time on coefficients that are zero. The terms
 * kept are the same operations, in the same order, as in
 * qd_signal_advance() with the zero terms dropped, so the sums are the
 * same to the last bit. */
static guint64
wsum_lambda (QdAtomic *self,
             double    t)
{
  const double *w = self->params[PARAM_WEIGHTS].vector;
  const QdSignal *const *in = self->in;
  QdSignal *y = &self->out[0];
  double c0 = 0.0, c1 = 0.0, c2 = 0.0, c3 = 0.0;
  int order = 0;

  /* The commonest case of QSS2 models, without the loop: the same
   * operations in the same order as the loop below. */
  if (self->n_in == 2 && in[0]->order == 1 && in[1]->order == 1)
    {
      const QdSignal *u = in[0], *v = in[1];
      double su = t - u->t, sv = t - v->t;

      c0 += w[0] * (u->c[0] + su * u->c[1]);
      c1 += w[0] * u->c[1];
      c0 += w[1] * (v->c[0] + sv * v->c[1]);
      c1 += w[1] * v->c[1];
      order = 1;
      goto done;
    }

  for (guint i = 0, n = self->n_in; i < n; i++)
    {
      const QdSignal *u = in[i];
      double wi = w[i];
      double s = t - u->t;

      /* Tests rather than a switch: the orders of a model's signals are
       * few, and a chain of well-predicted tests beats an indirect jump. */
      if (u->order == 1)
        {
          c0 += wi * (u->c[0] + s * u->c[1]);
          c1 += wi * u->c[1];
        }
      else if (u->order == 0)
        c0 += wi * u->c[0];
      else if (u->order == 2)
        {
          c0 += wi * (u->c[0] + s * (u->c[1] + s * u->c[2]));
          c1 += wi * (u->c[1] + s * (2.0 * u->c[2]));
          c2 += wi * u->c[2];
        }
      else
        {
          QdSignal v;

          qd_signal_advance (u, t, &v);
          c0 += wi * v.c[0];
          c1 += wi * v.c[1];
          c2 += wi * v.c[2];
          c3 += wi * v.c[3];
        }
      if (u->order > order)
        order = u->order;
    }
done:
  y->t = t;
  y->tag = 0;
  y->order = order;
  y->c[0] = c0;
  y->c[1] = c1;
  y->c[2] = c2;
  y->c[3] = c3;
  return 1;
}

static void
wsum_dint (QdAtomic *self,
           double    t)
{
  WSum *st = self->state;

  st->sigma = QD_INF;
}

static gboolean
wsum_check (const QdBlockType  *type,
            const QdParamValue *params,
            guint               n_inputs,
            guint               n_outputs,
            GError            **error)
{
  guint n_weights = params[PARAM_WEIGHTS].n_vector;

  if (n_weights != n_inputs)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("parameter 'weights' has %u values but the block has "
                     "%u inputs: give one weight per input"),
                   n_weights, n_inputs);
      return FALSE;
    }
  return TRUE;
}

static const QdParamSpec wsum_params[] = {
  { "n", N_("Inputs"), QD_PARAM_INTEGER, "2", 1, 64, NULL,
    N_("The number of inputs."), NULL, 0 },
  { "weights", N_("Weights"), QD_PARAM_VECTOR, "1, 1", -QD_INF, QD_INF, NULL,
    N_("One weight per input, separated by commas: \"1, -1\" subtracts "
       "the second input from the first."), NULL, 0 },
};

const QdBlockType qd_block_wsum = {
  .id = "wsum",
  .category = N_("Math"),
  .name = N_("Weighted Sum"),
  .glyph = "Σ",
  .doc = N_("Adds its inputs, each multiplied by its weight: y = w0·u0 + "
            "w1·u1 + …. The output follows each input event at once, "
            "with the highest order among the inputs."),
  .inputs = { .size_param = "n", .name_prefix = "u",
              .doc = N_("The signals to add.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The weighted sum.") },
  .params = wsum_params,
  .n_params = G_N_ELEMENTS (wsum_params),
  .flags = QD_BLOCK_FEEDTHROUGH | QD_BLOCK_STATIC,
  .state_size = sizeof (WSum),
  .check = wsum_check,
  .init = wsum_init,
  .ta = wsum_ta,
  .dint = wsum_dint,
  .dext = wsum_dext,
  .lambda = wsum_lambda,
};

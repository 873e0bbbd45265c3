/* qd-block-gain.c: Gain, y = k u
 *
 * A static function: after an input event it outputs at once (ta = 0) the
 * input segment scaled by k. Scaling is exact on every Taylor coefficient,
 * so the output keeps the input's order.
 */
#include "qd-blocks-private.h"
#include "qd-block-fast-private.h"
#include "qd-gain-apply.h"

typedef struct
{
  double sigma;
} Gain;

static void
gain_init (QdAtomic *self,
           double    t)
{
  Gain *st = self->state;

  st->sigma = QD_INF;
}

static double
gain_ta (QdAtomic *self)
{
  Gain *st = self->state;

  return st->sigma;
}

static void
gain_dext (QdAtomic       *self,
           double          t,
           double          e,
           guint           port,
           const QdSignal *x)
{
  Gain *st = self->state;

  st->sigma = 0.0;
}

/* By the input's order, as WSum does (see qd-block-wsum.c): the same
 * operations as qd_signal_advance() without the zero terms. */
static guint64
gain_lambda (QdAtomic *self,
             double    t)
{
  qd_gain_apply (self->params[0].number, self->in[0], t, &self->out[0]);
  return 1;
}

/* Under a classic solver: gain_lambda()'s order-0 case on a value. */
static inline double
gain_eval0 (QdAtomic      *self,
            gconstpointer  data,
            double         t,
            const double  *v,
            const guint32 *in,
            guint          n_in)
{
  return *(const double *) data * v[in[0]];
}

/* gain_eval0() for a run of blocks, inlined; for an affine run's extra
 * blocks. */
QD_DEFINE_EVAL0_RUN (gain_eval0_run, gain_eval0)
QD_DEFINE_EVAL0_EXTRA (gain_eval0_extra, gain_eval0)

/* gain_eval0() over @n gains of one k reading consecutive places, in
 * vectors of type @V of @L doubles (the lanes' operations are those of
 * double: the same bits whatever the width), two at a time, then the
 * rest one by one; returns the sum of the outputs. The vectors go
 * through memcpy, never by value through a call, so that no function of
 * the baseline instruction set sees a wider type. */
#define DEFINE_GAIN_AFFINE(name, V, L, ...)                                 \
  __VA_ARGS__ static double                                                 \
  name (double       *restrict y,                                           \
        const double *restrict u,                                           \
        double        k,                                                    \
        gsize         n)                                                    \
  {                                                                         \
    V kv, acc[2];                                                           \
    double sum = 0.0;                                                       \
    gsize j = 0;                                                            \
                                                                            \
    for (int l = 0; l < (L); l++)                                           \
      {                                                                     \
        kv[l] = k;                                                          \
        acc[0][l] = acc[1][l] = 0.0;                                        \
      }                                                                     \
    for (; j + 2 * (L) <= n; j += 2 * (L))                                  \
      for (int h = 0; h < 2; h++)                                           \
        {                                                                   \
          V x;                                                              \
                                                                            \
          memcpy (&x, u + j + h * (L), sizeof x);                           \
          x = kv * x;                                                       \
          memcpy (y + j + h * (L), &x, sizeof x);                           \
          acc[h] += x;                                                      \
        }                                                                   \
    acc[0] += acc[1];                                                       \
    for (int l = 0; l < (L); l++)                                           \
      sum += acc[0][l];                                                     \
    for (; j < n; j++)                                                      \
      {                                                                     \
        y[j] = k * u[j];                                                    \
        sum += y[j];                                                        \
      }                                                                     \
    return sum;                                                             \
  }

/* In SSE2's vectors of two, and where the processor has them in AVX2's
 * of four. */
DEFINE_GAIN_AFFINE (gain_affine_1, QdVec2, 2)
#ifdef QD_HAVE_AVX2
DEFINE_GAIN_AFFINE (gain_affine_1_avx2, QdVec4, 4, QD_TARGET_AVX2)
#endif

/* gain_eval0() over a run of gains at affine places and its extra
 * blocks (QdBlockFastPaths.eval0_affine); one vectorised loop when the
 * inputs are consecutive and k the same. Returns the sum of the
 * outputs. */
static double
gain_eval0_affine (const QdEval0Affine *run,
                   double               t)
{
  double *restrict y = run->out;
  const double *restrict u = run->in[0];
  gssize s = run->in_stride[0];
  double sum = gain_eval0_extra (run, t);

  if (s == 1 && run->data_stride == 0)
    {
#ifdef QD_HAVE_AVX2
      if (qd_cpu_has_avx2 ())
        return sum + gain_affine_1_avx2 (y, u, run->data[0], run->n);
#endif
      return sum + gain_affine_1 (y, u, run->data[0], run->n);
    }
  for (gsize j = 0; j < run->n; j++)
    {
      y[j] = run->data[(gssize) j * run->data_stride] * u[(gssize) j * s];
      sum += y[j];
    }
  return sum;
}

/* k, which gain_eval0() then finds without a look at the block. */
static gconstpointer
gain_eval0_data (QdAtomic *self,
                 gsize    *size)
{
  *size = sizeof (double);
  return &self->params[0].number;
}

/* Any Gain can run as a native vector (qd-block-vector-wsum.c). */
static gboolean
gain_vector_accepts (const QdBlockType *type,
                     const char *const *texts)
{
  return TRUE;
}

static const QdBlockFastPaths gain_fast = {
  .vector_type = &qd_block_vector_gain,
  .vector_accepts = gain_vector_accepts,
  .eval0 = gain_eval0,
  .eval0_data = gain_eval0_data,
  .eval0_run = gain_eval0_run,
  .eval0_affine = gain_eval0_affine,
};

static void
gain_dint (QdAtomic *self,
           double    t)
{
  Gain *st = self->state;

  st->sigma = QD_INF;
}

static const QdParamSpec gain_params[] = {
  { "k", N_("Gain"), QD_PARAM_NUMBER, "1", -QD_INF, QD_INF, NULL,
    N_("The factor the input is multiplied by."), NULL, 0 },
};

/* On the canvas: the factor, as written. */
static char *
gain_describe_params (const QdBlockType *type,
                      const char *const *texts,
                      guint              n_inputs,
                      char            ***input_labels)
{
  return g_strdup_printf ("k = %s", texts[0]);
}

const QdBlockType qd_block_gain = {
  .id = "gain",
  .category = N_("Math"),
  .name = N_("Gain"),
  .glyph = "K",
  .doc = N_("Multiplies its input by a constant: y = k·u. The output "
            "follows each input event at once, with the input's order "
            "(value, slope and curvature are all scaled exactly)."),
  .inputs = { .count = 1, .name_prefix = "u",
              .doc = N_("The signal to scale.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("k times the input.") },
  .params = gain_params,
  .n_params = G_N_ELEMENTS (gain_params),
  .describe_params = gain_describe_params,
  .flags = QD_BLOCK_FEEDTHROUGH | QD_BLOCK_STATIC,
  .state_size = sizeof (Gain),
  .init = gain_init,
  .ta = gain_ta,
  .dint = gain_dint,
  .dext = gain_dext,
  .lambda = gain_lambda,
  .fast = &gain_fast,
};

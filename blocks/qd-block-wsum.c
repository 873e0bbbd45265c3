/* qd-block-wsum.c: WSum, the weighted sum y = w0 u0 + w1 u1 + ...
 *
 * A static function with n inputs (n sizes the ports). After any input
 * event it outputs at once the weighted sum of all inputs taken at the
 * current time; the sum is exact on every Taylor coefficient, and the
 * output order is the highest input order.
 */
#include "qd-block-fast-private.h"
#include "qd-integrator-input.h"
#include "qd-wsum-sum.h"

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

/* The commonest cases of QSS models: two inputs of the same order, 1 in
 * QSS2 models, 0 in QSS1 and 2 in QSS3 ones. Returns that order of @u0
 * and @u1, or -1. */
static inline int
two_of_one_order (const QdSignal *u0,
                  const QdSignal *u1)
{
  int order = u0->order;

  return order == u1->order && order <= 2 ? order : -1;
}

static inline int
wsum_two_of_one_order (const QdAtomic *self)
{
  return self->n_in == 2 ? two_of_one_order (self->in[0], self->in[1]) : -1;
}

/* wsum_lambda() in that case, for @order given as a constant, of the
 * inputs @u0 and @u1 with the weights @w0 and @w1: the same operations
 * in the same order as its loop, the coefficients in *@c0, *@c1 and *@c2
 * (the others, and those above the order, are 0). */
G_ALWAYS_INLINE static inline void
wsum_sum_two (const QdSignal *u0,
              const QdSignal *u1,
              double          w0,
              double          w1,
              double          t,
              int             order,
              double         *c0,
              double         *c1,
              double         *c2)
{
  const double w[2] = { w0, w1 };
  const QdSignal *in[2] = { u0, u1 };
  double a0 = 0.0, a1 = 0.0, a2 = 0.0;

  for (int i = 0; i < 2; i++)
    {
      const QdSignal *u = in[i];
      double s = t - u->t;

      if (order == 0)
        a0 += w[i] * u->c[0];
      else if (order == 1)
        {
          a0 += w[i] * (u->c[0] + s * u->c[1]);
          a1 += w[i] * u->c[1];
        }
      else
        {
          a0 += w[i] * (u->c[0] + s * (u->c[1] + s * u->c[2]));
          a1 += w[i] * (u->c[1] + s * (2.0 * u->c[2]));
          a2 += w[i] * u->c[2];
        }
    }
  *c0 = a0;
  *c1 = a1;
  *c2 = a2;
}

/* The output: the commonest case of QSS2 models without the loop, else
 * qd_wsum_sum() (qd-wsum-sum.h), which the vector Weighted Sum's
 * elements use too. */
static guint64
wsum_lambda (QdAtomic *self,
             double    t)
{
  const double *w = self->params[PARAM_WEIGHTS].vector;
  const QdSignal *const *in = self->in;
  QdSignal *y = &self->out[0];

  if (wsum_two_of_one_order (self) == 1)
    {
      double c0, c1, c2;

      wsum_sum_two (in[0], in[1], w[0], w[1], t, 1, &c0, &c1, &c2);
      qd_wsum_write (y, t, 1, c0, c1, c2, 0.0);
      return 1;
    }
  qd_wsum_sum (in, self->n_in, w, t, y);
  return 1;
}

/* Under a classic solver: the order-0 case of wsum_lambda()'s loop on
 * input values, the same operations in the same order (the same sum to
 * the last bit). */
static inline double
wsum_eval0 (QdAtomic      *self,
            gconstpointer  data,
            double         t,
            const double  *v,
            const guint32 *in,
            guint          n_in)
{
  const double *w = data;
  double c0 = 0.0;

  /* The commonest cases, unrolled (the same sum): two inputs, and one
   * (the LC line's last sum). */
  if (n_in == 2)
    return (c0 + w[0] * v[in[0]]) + w[1] * v[in[1]];
  if (n_in == 1)
    return c0 + w[0] * v[in[0]];
  for (guint i = 0; i < n_in; i++)
    c0 += w[i] * v[in[i]];
  return c0;
}

/* wsum_eval0() for a run of blocks, inlined; for an affine run's extra
 * blocks. */
QD_DEFINE_EVAL0_RUN (wsum_eval0_run, wsum_eval0)
QD_DEFINE_EVAL0_EXTRA (wsum_eval0_extra, wsum_eval0)

/* wsum_affine_2() for vectors of type @V of @L doubles (the lanes'
 * operations are those of double: the same bits whatever the width),
 * @VI the integers of their size, @FOLD (VI) its lanes or-ed together
 * as a double: four vectors of sums at a time, then one at a time,
 * then, for the last n mod L, one vector ending at the last sum, which
 * computes again sums already written (the same values: the outputs
 * overlap nothing the run reads) rather than going one by one; fewer
 * than L sums one by one; @X the sum of p and q (vectors of a and b):
 * for the weights 1 and −1, the commonest, without their products (a
 * loop of its own, chosen when the program is built): 1·a is a and
 * (−1)·b is −b exactly, and c + (−b) is c − b (IEEE 754), so the values
 * are the same to the bit (but for a NaN's sign, which the solver
 * rejects anyway). The finiteness test adds no addition: x·0 is ±0 for
 * a finite x and NaN otherwise, and the bits of those products or-ed
 * together are those of ±0 or of a NaN; so the loop's additions are
 * only the sums' (a multiplication and a logical operation go where
 * additions do not, on most processors). Returns that value (±0 when
 * the outputs are finite, a NaN otherwise), without a test and a branch
 * of its own, which at 10² sums cost as much as a tenth of the loop.
 * The vectors go through memcpy, never by value through a call, so that
 * no function of the baseline instruction set sees a wider type. */
#define DEFINE_WSUM_AFFINE_2(name, V, VI, L, FOLD, X, ...)                  \
  __VA_ARGS__ static double                                                 \
  name (double       *restrict y,                                           \
        const double *restrict a,                                           \
        const double *restrict b,                                           \
        double        w0,                                                   \
        double        w1,                                                   \
        gsize         n)                                                    \
  {                                                                         \
    V zero, v0, v1;                                                         \
    VI acc0, acc1, acc2, acc3;                                              \
    gsize j = 0;                                                            \
                                                                            \
    if (n < (L))                                                            \
      return wsum_affine_2_one_by_one (y, a, b, w0, w1, n);                 \
    for (int l = 0; l < (L); l++)                                           \
      {                                                                     \
        zero[l] = 0.0;                                                      \
        v0[l] = w0;                                                         \
        v1[l] = w1;                                                         \
      }                                                                     \
    acc0 = acc1 = acc2 = acc3 = (VI) zero;                                  \
    (void) v0;                                                              \
    (void) v1;                                                              \
    WSUM_LOOPS (V, VI, L, X);                                               \
    return FOLD ((acc0 | acc1) | (acc2 | acc3));                            \
  }
/* One vector of sums at @j + @k @L, each @X of p from @a and q from @b,
 * its products by 0 or-ed into @acc. */
#define WSUM_ONE(V, VI, L, X, k, acc)                                       \
  do                                                                        \
    {                                                                       \
      V p, q, x;                                                            \
                                                                            \
      memcpy (&p, a + j + (k) * (L), sizeof p);                             \
      memcpy (&q, b + j + (k) * (L), sizeof q);                             \
      x = X;                                                                \
      memcpy (y + j + (k) * (L), &x, sizeof x);                             \
      acc |= (VI) (x * zero);                                               \
    }                                                                       \
  while (0)
/* The loops of DEFINE_WSUM_AFFINE_2, @n >= @L. */
#define WSUM_LOOPS(V, VI, L, X)                                             \
  do                                                                        \
    {                                                                       \
      for (; j + 4 * (L) <= n; j += 4 * (L))                                \
        {                                                                   \
          WSUM_ONE (V, VI, L, X, 0, acc0);                                  \
          WSUM_ONE (V, VI, L, X, 1, acc1);                                  \
          WSUM_ONE (V, VI, L, X, 2, acc2);                                  \
          WSUM_ONE (V, VI, L, X, 3, acc3);                                  \
        }                                                                   \
      for (; j + (L) <= n; j += (L))                                        \
        WSUM_ONE (V, VI, L, X, 0, acc0);                                    \
      if (j < n)                                                            \
        {                                                                   \
          j = n - (L);                                                      \
          WSUM_ONE (V, VI, L, X, 0, acc1);                                  \
        }                                                                   \
    }                                                                       \
  while (0)

/* Fewer sums than a vector's lanes: one by one, the same arithmetic;
 * their sum. */
static double
wsum_affine_2_one_by_one (double       *restrict y,
                          const double *restrict a,
                          const double *restrict b,
                          double        w0,
                          double        w1,
                          gsize         n)
{
  double sum = 0.0;

  for (gsize j = 0; j < n; j++)
    {
      y[j] = (0.0 + w0 * a[j]) + w1 * b[j];
      sum += y[j];
    }
  return sum;
}

/* The lanes of @d or-ed together, as a double: products by 0 or-ed are
 * ±0, or a NaN when one of them is. */
static inline double
wsum_fold (gint64 bits)
{
  double x;

  memcpy (&x, &bits, sizeof x);
  return x;
}

static inline double
wsum_fold_2 (QdVec2i d)
{
  return wsum_fold (d[0] | d[1]);
}

#ifdef QD_HAVE_AVX2
QD_TARGET_AVX2 static inline double
wsum_fold_4 (QdVec4i d)
{
  return wsum_fold ((d[0] | d[1]) | (d[2] | d[3]));
}
#endif

/* Two inputs at consecutive places each and the same weights: the LC
 * line's sums, one vectorised loop (wsum_eval0()'s sum, the same bits),
 * returning 0 when the outputs are finite and NaN otherwise: in SSE2's
 * vectors of two, and where the processor has them in AVX2's of four,
 * which halve the operations per value (the loop's additions, not its
 * memory, are what it waits for while the values are in the cache). */
#define WSUM_WEIGHTED (zero + v0 * p) + v1 * q
#define WSUM_UNIT (zero + p) - q
DEFINE_WSUM_AFFINE_2 (wsum_affine_2, QdVec2, QdVec2i, 2, wsum_fold_2,
                      WSUM_WEIGHTED)
DEFINE_WSUM_AFFINE_2 (wsum_affine_2_unit, QdVec2, QdVec2i, 2, wsum_fold_2,
                      WSUM_UNIT)
#ifdef QD_HAVE_AVX2
DEFINE_WSUM_AFFINE_2 (wsum_affine_2_avx2, QdVec4, QdVec4i, 4, wsum_fold_4,
                      WSUM_WEIGHTED, QD_TARGET_AVX2)
DEFINE_WSUM_AFFINE_2 (wsum_affine_2_unit_avx2, QdVec4, QdVec4i, 4,
                      wsum_fold_4, WSUM_UNIT, QD_TARGET_AVX2)
#endif

/* @loop (a DEFINE_WSUM_AFFINE_2 loop) on a QdEval0Affine, after its
 * extra blocks: the loop inlined into the function the engine calls. */
#define DEFINE_WSUM_AFFINE_2_RUN(name, loop, ...)                           \
  __VA_ARGS__ static double                                                 \
  name (const QdEval0Affine *run,                                           \
        double               t)                                             \
  {                                                                         \
    double extra = wsum_eval0_extra (run, t);                               \
                                                                            \
    return extra + loop (run->out, run->in[0], run->in[1], run->data[0],    \
                         run->data[1], run->n);                             \
  }
DEFINE_WSUM_AFFINE_2_RUN (wsum_affine_2_run, wsum_affine_2)
DEFINE_WSUM_AFFINE_2_RUN (wsum_affine_2_unit_run, wsum_affine_2_unit)
#ifdef QD_HAVE_AVX2
DEFINE_WSUM_AFFINE_2_RUN (wsum_affine_2_run_avx2, wsum_affine_2_avx2,
                          QD_TARGET_AVX2)
DEFINE_WSUM_AFFINE_2_RUN (wsum_affine_2_unit_run_avx2,
                          wsum_affine_2_unit_avx2, QD_TARGET_AVX2)
#endif

/* wsum_eval0() over a run of sums at affine places, of any shape, and
 * its extra blocks. */
static double
wsum_affine_any (const QdEval0Affine *run,
                 double               t)
{
  guint n_in = run->n_in;
  double sum = wsum_eval0_extra (run, t);

  for (gsize j = 0; j < run->n; j++)
    {
      const double *w = run->data + (gssize) j * run->data_stride;
      double c0 = 0.0;

      if (n_in == 2)
        c0 = (c0 + w[0] * run->in[0][(gssize) j * run->in_stride[0]])
             + w[1] * run->in[1][(gssize) j * run->in_stride[1]];
      else
        for (guint i = 0; i < n_in; i++)
          c0 += w[i] * run->in[i][(gssize) j * run->in_stride[i]];
      run->out[j] = c0;
      sum += c0;
    }
  return sum;
}

/* The loop for @run's shape and the processor
 * (QdBlockFastPaths.eval0_affine_pick): two inputs at consecutive places
 * each and the same weights, the LC line's sums, in vectors; the rest
 * one sum at a time. */
static QdEval0AffineFunc
wsum_eval0_affine_pick (const QdEval0Affine *run)
{
  if (run->n_in == 2 && run->data_stride == 0 && run->in_stride[0] == 1
      && run->in_stride[1] == 1)
    {
      gboolean unit = run->data[0] == 1.0 && run->data[1] == -1.0;

#ifdef QD_HAVE_AVX2
      if (qd_cpu_has_avx2 ())
        return unit ? wsum_affine_2_unit_run_avx2 : wsum_affine_2_run_avx2;
#endif
      return unit ? wsum_affine_2_unit_run : wsum_affine_2_run;
    }
  return wsum_affine_any;
}

/* wsum_eval0() over a run of sums at affine places
 * (QdBlockFastPaths.eval0_affine). */
static double
wsum_eval0_affine (const QdEval0Affine *run,
                   double               t)
{
  return wsum_eval0_affine_pick (run) (run, t);
}

static gconstpointer
wsum_eval0_data (QdAtomic *self,
                 gsize    *size)
{
  *size = self->n_in * sizeof (double);
  return self->params[PARAM_WEIGHTS].vector;
}

static void
wsum_dint (QdAtomic *self,
           double    t)
{
  WSum *st = self->state;

  st->sigma = QD_INF;
}

/* The cascade kernel (QdBlockFastPaths.cascade): WSum blocks each feeding
 * the derivative of an integrator, the LC line's and most QSS models'
 * pattern (an integrator's output goes to the sums of its neighbours'
 * derivatives). */
static gboolean
wsum_cascade_accepts (const QdAtomic *self,
                      const QdAtomic *receiver,
                      guint           port)
{
  return qd_integrator_is_derivative_input (receiver, port);
}

/* What the kernel reads of a pair (QdCascadePair.data), for a WSum of two
 * inputs: their segments and weights, its own segment and the receiving
 * integrator's state. A WSum of another size keeps none (u0 is NULL) and
 * takes the general path. */
enum
{
  PAIR_U0,
  PAIR_U1,
  PAIR_W0,
  PAIR_W1,
  PAIR_Y,
  PAIR_STATE,
};

static void
wsum_cascade_prepare (QdCascadePair *pair)
{
  const QdAtomic *self = pair->block;

  if (self->n_in != 2)
    return;
  pair->data[PAIR_U0].p = self->in[0];
  pair->data[PAIR_U1].p = self->in[1];
  pair->data[PAIR_W0].d = self->params[PARAM_WEIGHTS].vector[0];
  pair->data[PAIR_W1].d = self->params[PARAM_WEIGHTS].vector[1];
  pair->data[PAIR_Y].p = &self->out[0];
  pair->data[PAIR_STATE].p = pair->receiver->state;
}

/* What the kernel reads through the pairs (QdBlockFastPaths.cascade_prefetch):
 * the two input segments and the two lines of the receiving integrator's
 * state that its derivative reads. */
static void
wsum_cascade_prefetch (const QdCascadePair *pairs,
                       guint                n)
{
  for (guint k = 0; k < n; k++)
    {
      const QdCascadePair *pair = &pairs[k];
      guintptr st = (guintptr) pair->data[PAIR_STATE].p;

      if (pair->data[PAIR_U0].p == NULL)
        continue;
      /* A 48-byte segment may lie across two lines: its start and its
       * order. */
      __builtin_prefetch (pair->data[PAIR_U0].p);
      __builtin_prefetch ((const char *) pair->data[PAIR_U0].p + 40);
      __builtin_prefetch (pair->data[PAIR_U1].p);
      __builtin_prefetch ((const char *) pair->data[PAIR_U1].p + 40);
      for (guint line = 0; line < QD_INTEGRATOR_INPUT_BYTES; line += 64)
        __builtin_prefetch ((gconstpointer) (st + line));
    }
}

/* wsum_two_of_one_order() of the pair's WSum, from the pair. */
static inline int
pair_two_of_one_order (const QdCascadePair *pair)
{
  const QdSignal *u0 = pair->data[PAIR_U0].p;

  return u0 != NULL ? two_of_one_order (u0, pair->data[PAIR_U1].p) : -1;
}

/* The sum of two inputs of order @order (a constant), as wsum_lambda()
 * computes and writes it, then, when it is finite, the receiving
 * integrator's new derivative, inlined when the integrator's method is
 * the QSS one of that order plus one (where the crossing of x - q is
 * solved without the general search), otherwise qd_integrator_take_sum().
 * The segment arrives at its own time t, so the integrator's time since
 * the segment's start is t - t, +0 for the finite times of a run; with it
 * and the sum's coefficients above its order, +0, the derivative is
 * computed by the same operations on the same values as the integrator's
 * dext_ta on the stored segment, and so to the bit. Returns FALSE,
 * without the integrator's transition, when the sum is not finite;
 * otherwise the time advance is in *@sigma. */
G_ALWAYS_INLINE static inline gboolean
wsum_two_into (const QdCascadePair *pair,
               double               t,
               int                  order,
               double              *sigma)
{
  QdIntegratorCore *core = (QdIntegratorCore *) pair->data[PAIR_STATE].p;
  QdSignal *y = (QdSignal *) pair->data[PAIR_Y].p;
  double c0, c1, c2, d;

  wsum_sum_two (pair->data[PAIR_U0].p, pair->data[PAIR_U1].p,
                pair->data[PAIR_W0].d, pair->data[PAIR_W1].d,
                t, order, &c0, &c1, &c2);
  qd_wsum_write (y, t, order, c0, c1, c2, 0.0);
  /* x - x is 0 for a finite x, NaN otherwise; the coefficients above the
   * order are 0. */
  d = c0 - c0;
  if (order >= 1)
    d += c1 - c1;
  if (order >= 2)
    d += c2 - c2;
  if (G_UNLIKELY (!(d == 0.0)))
    return FALSE;
  /* The hints keep GCC from taking the inlined derivatives for cold
   * paths, where it calls sqrt() from libm instead of the instruction. */
  if (G_LIKELY (qd_integrator_is_qss (core, order + 1)))
    *sigma = qd_integrator_qss_sum (core, t, order, c0, c1, c2);
  else
    *sigma = qd_integrator_take_sum (core, pair->receiver, t, order,
                                     c0, c1, c2, y);
  return TRUE;
}

/* For each pair: the sum, as wsum_lambda() computes and writes it, then
 * the receiving integrator's dext_ta with that segment. What makes it
 * cheaper than the two calls: for two inputs of one order (the commonest
 * case by far), the sum's coefficients go to the integrator in registers,
 * where its derivative is inlined. Every other case calls wsum_lambda()
 * and gives the integrator the stored segment. Neither ever fails a
 * block. */
static guint
wsum_cascade (const QdCascadePair *pairs,
              guint                n,
              double               t,
              double              *ta)
{
  for (guint k = 0; k < n; k++)
    {
      const QdCascadePair *pair = &pairs[k];
      int order = pair_two_of_one_order (pair);
      gboolean finite;
      double sigma;

      if (G_LIKELY (order == 1))
        finite = wsum_two_into (pair, t, 1, &sigma);
      else if (G_LIKELY (order == 0))
        finite = wsum_two_into (pair, t, 0, &sigma);
      else if (G_LIKELY (order == 2))
        finite = wsum_two_into (pair, t, 2, &sigma);
      else
        {
          QdAtomic *self = pair->block, *receiver = pair->receiver;
          const QdSignal *y = &self->out[0];

          wsum_lambda (self, t);
          finite = (y->c[0] - y->c[0]) + (y->c[1] - y->c[1])
                   + (y->c[2] - y->c[2]) + (y->c[3] - y->c[3]) == 0.0;
          /* A sum of order 2 or less has +0 above its order (the loop
           * adds nothing there), so the integrator may take its
           * coefficients as wsum_two_into() gives them (Lotka–Volterra's
           * prey rate: three inputs of order 1 into a QSS2 integrator). */
          if (finite)
            sigma = qd_integrator_take_sum (receiver->state, receiver, t,
                                            y->order <= 2 ? y->order : -1,
                                            y->c[0], y->c[1], y->c[2], y);
        }
      if (G_UNLIKELY (!finite))
        return k;
      ta[k] = sigma;
      if (G_UNLIKELY (!(t + sigma > t)))
        return k + 1;
    }
  return n;
}

static const QdParamSpec wsum_params[] = {
  { "n", N_("Inputs"), QD_PARAM_INTEGER, "2", 1, 64, NULL,
    N_("The number of inputs."), NULL, 0 },
  { "weights", N_("Weights"), QD_PARAM_VECTOR, "1, 1", -QD_INF, QD_INF, NULL,
    N_("One weight per input, separated by commas: \"1, -1\" subtracts "
       "the second input from the first. Changing the number of inputs "
       "keeps the first weights and gives a new input the weight 1."),
    NULL, QD_PARAM_PER_INPUT },
};

/* The cascade kernel the event loop runs for chains of WSum blocks, and
 * the classic solvers' order-0 evaluation. */
/* Any Weighted Sum can run as a native vector (qd-block-vector-wsum.c). */
static gboolean
wsum_vector_accepts (const QdBlockType *type,
                     const char *const *texts)
{
  return TRUE;
}

/* The weight of input @k in @weights (a missing one is 1), as text. */
static const char *
weight_text (char *const *weights,
             guint        k)
{
  return k < g_strv_length ((char **) weights) ? weights[k] : "1";
}

/* A sum of fewer inputs is the longer one's when its weights are the
 * longer one's first and the longer one's others are finite numbers:
 * each such term adds w · (+0) = ±0 to a partial sum that started at +0
 * (qd_wsum_sum()) and so is never −0, which leaves it as it is, bit for
 * bit (an infinite weight would make it NaN). */
static gboolean
wsum_vector_fewer_inputs (const QdBlockType *type,
                          const char *const *texts,
                          const char *const *fewer)
{
  g_auto(GStrv) w = qd_expr_split_vector (texts[PARAM_WEIGHTS]);
  g_auto(GStrv) w_fewer = qd_expr_split_vector (fewer[PARAM_WEIGHTS]);
  double n = 0, n_fewer = 0;

  if (!qd_expr_parse_literal (texts[PARAM_N], &n)
      || !qd_expr_parse_literal (fewer[PARAM_N], &n_fewer)
      || n_fewer >= n || n_fewer < 1 || n > 64)
    return FALSE;
  for (guint k = 0; k < (guint) n; k++)
    {
      g_autofree char *a = g_strstrip (g_strdup (weight_text (w, k)));
      double value;

      if (k < (guint) n_fewer)
        {
          g_autofree char *b = g_strstrip (g_strdup (weight_text (w_fewer, k)));

          if (strcmp (a, b) != 0)
            return FALSE;
        }
      else if (!qd_expr_parse_literal (a, &value))
        return FALSE;
    }
  return TRUE;
}

static const QdBlockFastPaths wsum_fast = {
  .cascade_accepts = wsum_cascade_accepts,
  .cascade_prepare = wsum_cascade_prepare,
  .cascade = wsum_cascade,
  .cascade_prefetch = wsum_cascade_prefetch,
  .eval0 = wsum_eval0,
  .eval0_data = wsum_eval0_data,
  .eval0_run = wsum_eval0_run,
  .eval0_affine = wsum_eval0_affine,
  .eval0_affine_pick = wsum_eval0_affine_pick,
  .vector_type = &qd_block_vector_wsum,
  .vector_accepts = wsum_vector_accepts,
  .vector_fewer_inputs = wsum_vector_fewer_inputs,
};

/* On the canvas: the sign of each input, as on a textbook's summing
 * junction; a weight other than 1 or -1 is shown as written. */
static char *
wsum_describe_params (const QdBlockType *type,
                      const char *const *texts,
                      guint              n_inputs,
                      char            ***input_labels)
{
  g_auto (GStrv) weights = g_strsplit (texts[1], ",", -1);
  GPtrArray *labels;

  if (input_labels == NULL)
    return NULL;
  labels = g_ptr_array_new ();
  for (guint i = 0; weights[i] != NULL && i < n_inputs; i++)
    {
      const char *w = g_strstrip (weights[i]);
      char *end = NULL;
      double value = g_ascii_strtod (w, &end);

      if (end != w && *end == '\0' && value == 1.0)
        g_ptr_array_add (labels, g_strdup ("+"));
      else if (end != w && *end == '\0' && value == -1.0)
        g_ptr_array_add (labels, g_strdup ("−"));
      else
        g_ptr_array_add (labels, g_strdup (w));
    }
  g_ptr_array_add (labels, NULL);
  *input_labels = (char **) g_ptr_array_free (labels, FALSE);
  return NULL;
}

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
  .describe_params = wsum_describe_params,
  .flags = QD_BLOCK_FEEDTHROUGH | QD_BLOCK_STATIC,
  .state_size = sizeof (WSum),
  .init = wsum_init,
  .ta = wsum_ta,
  .dint = wsum_dint,
  .dext = wsum_dext,
  .lambda = wsum_lambda,
  .fast = &wsum_fast,
};

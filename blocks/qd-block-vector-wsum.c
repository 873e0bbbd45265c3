/* qd-block-vector-wsum.c: the Weighted Sum and the Gain of n elements,
 * each as one native vector block (qd-block-fast-private.h,
 * docs/vectors.md)
 *
 * Never in the palette: the compiler runs a Weighted Sum as this type
 * when it is wider than one element and the whole model can run
 * natively (qd-compile-vector-native.c), with the Weighted Sum's
 * parameters. Element i is y[i] = w0 u0[i] + w1 u1[i] + ..., each input
 * element read where its driver keeps it (a vector driver's element
 * outputs, with an Index Shift folded in; the boundary signal; or a
 * scalar, which every element reads), and summed by the scalar block's
 * own arithmetic (qd-wsum-sum.h), so the sums are the same to the bit.
 * The vector Gain is the same block with one input, each element
 * y[i] = k u[i] by the Gain's own arithmetic (qd-gain-apply.h).
 *
 * A scalar Weighted Sum is a static function: an input event makes its
 * output due at once. Here an input event on element j makes element
 * j + shift pending; the block is due at once while any element is
 * pending (ta = 0) and emits them one per internal transition, in
 * increasing index, as the expanded model's static blocks of equal time
 * go by priority. An element pending twice emits once, as a static
 * block given two inputs at one time does.
 *
 * Memory per element: its output segment (48 bytes, kept by the engine)
 * and its pending-heap entries (8).
 */
#include "qd-block-fast-private.h"
#include "qd-gain-apply.h"
#include "qd-vector-heap.h"
#include "qd-wsum-sum.h"

enum
{
  PARAM_N,
  PARAM_WEIGHTS,
};

/* The most inputs of one Weighted Sum (the port count's range). */
#define MAX_INPUTS 64

typedef struct
{
  QdVectorHeap   pending;   /* by index alone */
  QdSignal      *out;       /* the element outputs (the engine's) */
  const double  *w;         /* the weights, or NULL for a Gain */
  double         k;         /* a Gain's factor */
  guint          n;         /* elements */
  guint          n_in;      /* the Weighted Sum's own inputs */
  QdVectorInput  in[MAX_INPUTS];
} VectorWSum;

/* What both types' init do: the state and the bindings. */
static void
vector_init (QdAtomic *self,
             double    t)
{
  VectorWSum *st = qd_atomic_alloc (self, sizeof (VectorWSum));
  guint n = qd_atomic_vector_width (self);

  /* The record holds the pointer (state_size); the state is here. */
  *(gpointer *) self->state = st;
  st->n = n;
  st->n_in = MIN (self->n_in / 2u, MAX_INPUTS);
  st->pending.heap = qd_atomic_alloc (self, (gsize) n * sizeof (guint32));
  st->pending.pos = qd_atomic_alloc (self, (gsize) n * sizeof (guint32));
  st->pending.key = NULL;
  st->pending.len = 0;
  for (guint i = 0; i < n; i++)
    st->pending.pos[i] = QD_VECTOR_HEAP_OUT;
  st->out = qd_atomic_vector_output (self, 0);
  for (guint q = 0; q < st->n_in; q++)
    qd_atomic_vector_input (self, q, &st->in[q]);
}

static void
vwsum_init (QdAtomic *self,
            double    t)
{
  VectorWSum *st;

  vector_init (self, t);
  st = *(VectorWSum **) self->state;
  st->w = self->params[PARAM_WEIGHTS].vector;
}

static void
vgain_init (QdAtomic *self,
            double    t)
{
  VectorWSum *st;

  vector_init (self, t);
  st = *(VectorWSum **) self->state;
  st->k = self->params[0].number;
}

static double
vwsum_ta (QdAtomic *self)
{
  VectorWSum *st = *(VectorWSum **) self->state;

  return st->pending.len > 0 ? 0.0 : QD_INF;
}

static inline void
mark (VectorWSum *st,
      guint       i)
{
  if (st->pending.pos[i] == QD_VECTOR_HEAP_OUT)
    qd_vector_heap_update (&st->pending, i);
}

static void
vwsum_dext (QdAtomic       *self,
            double          t,
            double          e,
            guint           port,
            const QdSignal *x)
{
  VectorWSum *st = *(VectorWSum **) self->state;
  guint n = st->n, first, end;
  const QdVectorInput *in;

  if (port < st->n_in)
    {
      in = &st->in[port];
      if (in->elements != NULL)
        {
          gint64 i = (gint64) x->tag + in->shift;

          if (i >= 0 && i < n)
            mark (st, (guint) i);
        }
      else
        for (guint i = 0; i < n; i++)
          mark (st, i);
      return;
    }
  if (port - st->n_in >= st->n_in)
    return;
  /* A boundary signal: the elements its shift leaves without a driver
   * element. */
  qd_vector_boundary_range (&st->in[port - st->n_in], n, &first, &end);
  for (guint i = first; i < end; i++)
    mark (st, i);
}

static double
vwsum_dext_ta (QdAtomic       *self,
               double          t,
               double          e,
               guint           port,
               const QdSignal *x)
{
  vwsum_dext (self, t, e, port, x);
  return vwsum_ta (self);
}

/* Element @i's sum at @t into @y. */
static void
vwsum_element (QdAtomic *self,
               guint     i,
               double    t,
               QdSignal *y)
{
  VectorWSum *st = *(VectorWSum **) self->state;
  const QdSignal *u[MAX_INPUTS];

  for (guint q = 0; q < st->n_in; q++)
    {
      const QdVectorInput *in = &st->in[q];
      gint64 j = (gint64) i - in->shift;

      if (in->elements == NULL)
        u[q] = self->in[q];
      else if (j >= 0 && j < in->n)
        u[q] = &in->elements[j];
      else
        u[q] = self->in[st->n_in + q];
    }
  if (st->w != NULL)
    qd_wsum_sum (u, st->n_in, st->w, t, y);
  else
    qd_gain_apply (st->k, u[0], t, y);
  y->tag = i;
}

static guint64
vwsum_lambda (QdAtomic *self,
              double    t)
{
  VectorWSum *st = *(VectorWSum **) self->state;
  guint i;

  if (st->pending.len == 0)
    return 0;
  i = st->pending.heap[0];
  vwsum_element (self, i, t, &self->out[0]);
  st->out[i] = self->out[0];
  return 1;
}

static void
vwsum_dint (QdAtomic *self,
            double    t)
{
  VectorWSum *st = *(VectorWSum **) self->state;

  if (st->pending.len > 0)
    qd_vector_heap_pop (&st->pending);
}

static guint64
vwsum_fire (QdAtomic *self,
            double    t,
            double   *ta)
{
  VectorWSum *st = *(VectorWSum **) self->state;
  guint i;

  if (st->pending.len == 0)
    {
      *ta = QD_INF;
      return 0;
    }
  i = qd_vector_heap_pop (&st->pending);
  vwsum_element (self, i, t, &self->out[0]);
  st->out[i] = self->out[0];
  *ta = st->pending.len > 0 ? 0.0 : QD_INF;
  return 1;
}

static const QdBlockFastPaths vwsum_fast = {
  .fire = vwsum_fire,
  .dext_ta = vwsum_dext_ta,
};

const QdBlockType qd_block_vector_wsum = {
  .id = "wsum",
  .category = N_("Math"),
  .name = N_("Weighted Sum"),
  .glyph = "Σ",
  .inputs = { .count = 2 },
  .outputs = { .count = 1 },
  .flags = QD_BLOCK_FEEDTHROUGH,
  .state_size = sizeof (gpointer),
  .init = vwsum_init,
  .ta = vwsum_ta,
  .dint = vwsum_dint,
  .dext = vwsum_dext,
  .lambda = vwsum_lambda,
  .fast = &vwsum_fast,
};

const QdBlockType qd_block_vector_gain = {
  .id = "gain",
  .category = N_("Math"),
  .name = N_("Gain"),
  .glyph = "K",
  .inputs = { .count = 1 },
  .outputs = { .count = 1 },
  .flags = QD_BLOCK_FEEDTHROUGH,
  .state_size = sizeof (gpointer),
  .init = vgain_init,
  .ta = vwsum_ta,
  .dint = vwsum_dint,
  .dext = vwsum_dext,
  .lambda = vwsum_lambda,
  .fast = &vwsum_fast,
};

/* qd-block-vector-integrator.c: the Integrator of n elements as one
 * native vector block (qd-block-fast-private.h, docs/vectors.md)
 *
 * Never in the palette: the compiler runs an Integrator whose "size" is
 * above 1 as this type when the whole model can run natively
 * (qd-compile-vector-native.c), with the Integrator's parameters. Its n
 * elements are QdIntegratorCores, each a quantized state of QSS1, QSS2
 * or QSS3 computed by the Integrator's own functions
 * (qd-integrator-input.h), so that element i gives, to the bit, the
 * trajectory of the scalar Integrator it stands for. Each element's next
 * time is kept in an indexed heap ordered by (time, index), as the event
 * loop orders the scalar blocks by (time, priority); the block's time
 * advance is its top's. An internal transition is one element's
 * requantization: its output segment leaves with the element's index in
 * its tag, and is one integrator step.
 *
 * Memory per element: its core (128 bytes), its next time and heap
 * entries (16), its output segment (48, kept by the engine): no
 * QdAtomic, record, path or id per element.
 *
 * A derivative above the method's order (a Ramp into a QSS1 vector)
 * would need the scalar Integrator's extra state ("Inputs above the
 * method's order", qd-block-integrator.c): the run stops with an error
 * naming the element.
 */
#include <string.h>

#include "qd-block-fast-private.h"
#include "qd-integrator-input.h"
#include "qd-vector-heap.h"

enum
{
  PARAM_X0,
};

typedef struct
{
  QdIntegratorCore *el;       /* n elements */
  double           *tn;       /* by element: its next time */
  QdVectorHeap      heap;     /* keyed by tn */
  QdSignal         *out;      /* the element outputs (the engine's) */
  QdVectorInput     in;       /* what drives the derivative */
  guint             n;
  double            t_last;   /* the block's last transition */
} VectorIntegrator;

static void
vint_init (QdAtomic *self,
           double    t)
{
  VectorIntegrator *st = qd_atomic_alloc (self, sizeof (VectorIntegrator));
  guint n = qd_atomic_vector_width (self);
  const double *x0;

  /* The record holds the pointer (state_size); the state is here. */
  *(gpointer *) self->state = st;
  st->n = n;
  st->el = qd_atomic_alloc (self, (gsize) n * sizeof (QdIntegratorCore));
  st->tn = qd_atomic_alloc (self, (gsize) n * sizeof (double));
  st->heap.heap = qd_atomic_alloc (self, (gsize) n * sizeof (guint32));
  st->heap.pos = qd_atomic_alloc (self, (gsize) n * sizeof (guint32));
  st->heap.key = st->tn;
  st->heap.len = 0;
  st->out = qd_atomic_vector_output (self, 0);
  qd_atomic_vector_input (self, 0, &st->in);
  st->t_last = t;
  x0 = qd_atomic_vector_x0 (self);
  for (guint i = 0; i < n; i++)
    {
      qd_integrator_core_init (&st->el[i], self->params,
                               x0 != NULL ? x0[i] : self->params[PARAM_X0].number,
                               t);
      /* Every initial q is due at once, in element order. */
      st->tn[i] = t + st->el[i].sigma;
      st->heap.heap[i] = i;
      st->heap.pos[i] = i;
    }
  st->heap.len = n;
}

static double
vint_ta (QdAtomic *self)
{
  VectorIntegrator *st = *(VectorIntegrator **) self->state;

  if (st->heap.len == 0)
    return QD_INF;
  return qd_vector_time_advance (st->t_last, st->tn[st->heap.heap[0]]);
}

/* Element @i's new derivative @u at @t, as the Integrator's dext_ta
 * takes it (qd_integrator_dext_ta(): the QSS paths). */
static void
vint_derivative (QdAtomic       *self,
                 guint           i,
                 double          t,
                 const QdSignal *u)
{
  VectorIntegrator *st = *(VectorIntegrator **) self->state;
  QdIntegratorCore *core = &st->el[i];
  double sigma;

  if (core->n == 2 && u->c[2] == 0.0 && u->c[3] == 0.0)
    sigma = qd_integrator_qss2_derivative (core, t, t - u->t, u->c[0], u->c[1],
                                           u->c[2], u->c[3]);
  else if (core->n == 3 && u->c[3] == 0.0)
    sigma = qd_integrator_qss3_derivative (core, t, t - u->t, u->c[0], u->c[1],
                                           u->c[2], u->c[3]);
  else if (core->n == 1 && u->c[1] == 0.0 && u->c[2] == 0.0 && u->c[3] == 0.0)
    sigma = qd_integrator_qss1_derivative (core, t, t - u->t, u->c[0], u->c[1],
                                           u->c[2], u->c[3]);
  else
    {
      qd_atomic_fail (self, QD_ERROR_FAILED,
                      _("element %u: the derivative is of a higher order than "
                        "the method integrates; choose a method of a higher "
                        "order (QSS%d or above)"), i + 1, u->order + 1);
      return;
    }
  st->tn[i] = t + sigma;
  qd_vector_heap_update (&st->heap, i);
}

static void
vint_dext (QdAtomic       *self,
           double          t,
           double          e,
           guint           port,
           const QdSignal *x)
{
  VectorIntegrator *st = *(VectorIntegrator **) self->state;
  guint n = st->n, first, end;

  st->t_last = t;
  if (port == 0 && st->in.elements != NULL)
    {
      gint64 i = (gint64) x->tag + st->in.shift;

      if (i >= 0 && i < n)
        vint_derivative (self, (guint) i, t, x);
      return;
    }
  if (port == 0)
    {
      /* A scalar derivative: every element's. */
      for (guint i = 0; i < n; i++)
        vint_derivative (self, i, t, x);
      return;
    }
  /* The boundary: the elements the shift leaves without a driver
   * element. */
  qd_vector_boundary_range (&st->in, n, &first, &end);
  for (guint i = first; i < end; i++)
    vint_derivative (self, i, t, x);
}

static double
vint_dext_ta (QdAtomic       *self,
              double          t,
              double          e,
              guint           port,
              const QdSignal *x)
{
  vint_dext (self, t, e, port, x);
  return vint_ta (self);
}

/* The imminent element's requantization at @t, its output into @y. */
static guint
vint_step (VectorIntegrator *st,
           QdIntegratorCore *core,
           double            t,
           QdSignal         *y,
           double           *sigma)
{
  guint i = st->heap.heap[0];

  *sigma = qd_integrator_qss_fire (core != NULL ? core : &st->el[i], y, t);
  y->tag = i;
  return i;
}

static guint64
vint_lambda (QdAtomic *self,
             double    t)
{
  VectorIntegrator *st = *(VectorIntegrator **) self->state;
  QdIntegratorCore copy;
  double sigma;
  guint i;

  if (st->heap.len == 0)
    return 0;
  /* lambda changes nothing: the requantization on a copy. */
  copy = st->el[st->heap.heap[0]];
  i = vint_step (st, &copy, t, &self->out[0], &sigma);
  st->out[i] = self->out[0];
  return 1;
}

static void
vint_dint (QdAtomic *self,
           double    t)
{
  VectorIntegrator *st = *(VectorIntegrator **) self->state;
  QdSignal y;
  double sigma;
  guint i;

  st->t_last = t;
  if (st->heap.len == 0)
    return;
  i = vint_step (st, NULL, t, &y, &sigma);
  st->tn[i] = t + sigma;
  qd_vector_heap_down (&st->heap, 0);
}

static guint64
vint_fire (QdAtomic *self,
           double    t,
           double   *ta)
{
  VectorIntegrator *st = *(VectorIntegrator **) self->state;
  double sigma;
  guint i;

  st->t_last = t;
  if (st->heap.len == 0)
    {
      *ta = QD_INF;
      return 0;
    }
  i = vint_step (st, NULL, t, &self->out[0], &sigma);
  st->out[i] = self->out[0];
  st->tn[i] = t + sigma;
  qd_vector_heap_down (&st->heap, 0);
  *ta = qd_vector_time_advance (t, st->tn[st->heap.heap[0]]);
  return 1;
}

static const QdBlockFastPaths vint_fast = {
  .fire = vint_fire,
  .dext_ta = vint_dext_ta,
};

/* The scalar Integrator's vector_accepts: QSS1 to QSS3, whose elements
 * are QdIntegratorCores alone; the other methods keep state beyond it. */
gboolean
qd_vector_integrator_accepts (const char *method)
{
  return strcmp (method, "QSS1") == 0 || strcmp (method, "QSS2") == 0
         || strcmp (method, "QSS3") == 0;
}

const QdBlockType qd_block_vector_integrator = {
  .id = "integrator",
  .category = N_("Continuous"),
  .name = N_("Integrator"),
  .glyph = "∫",
  .inputs = { .count = 1 },
  .outputs = { .count = 1 },
  .flags = QD_BLOCK_INTEGRATOR,
  .state_size = sizeof (gpointer),
  .init = vint_init,
  .ta = vint_ta,
  .dint = vint_dint,
  .dext = vint_dext,
  .lambda = vint_lambda,
  .fast = &vint_fast,
};

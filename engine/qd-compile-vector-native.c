/* qd-compile-vector-native.c: native vector blocks
 *
 * A vector block is compiled one of two ways (docs/vectors.md):
 *
 *  - expanded (qd-compile-vector.c): one scalar block per element, the
 *    wiring blocks resolved into links between elements. Any model runs
 *    so, but a million elements are a million QdAtomics, records, paths
 *    and ids;
 *  - native (this file): one atomic per vector block, whose state holds
 *    its n elements, and whose events are element events (the element's
 *    index in QdSignal.tag; qd-block-fast-private.h). The LC line of a
 *    million sections is then three atomics.
 *
 * The native way is taken only when every vector block of the model can
 * run so, and the rest of the model never sees a vector:
 *
 *  - each block wider than one element is a plain atomic block whose
 *    type offers a native form (QdBlockFastPaths.vector_type) that
 *    accepts its parameters (the Integrator: QSS1 to QSS3, without a
 *    reset input, its x0 list evaluated here; the Weighted Sum; the
 *    Gain), or an Index Shift;
 *  - each input of a native block is driven by a native block of its
 *    width, directly or through one Index Shift (folded into the
 *    receiver's binding as a shift with its boundary signal), or by a
 *    scalar signal, which every element reads;
 *  - a Scope or To CSV may show elements of a native vector: each
 *    chosen element is a port of its own, which reads the element where
 *    the vector keeps it and passes on only that element's events
 *    (bind_sink());
 *  - every other block reads scalar signals only: a Product, a Selector
 *    or any other block reading a vector makes the whole model expand;
 *  - there are no subsystems, and the solver is QSS (a classic solver
 *    advances Integrators element by element through their scalar
 *    blocks);
 *  - the native blocks hold at least QD_VECTOR_NATIVE_MIN elements in
 *    all, or the environment variable QDEVS_VECTORS is "native";
 *    QDEVS_VECTORS=expand forces the expansion (to compare the two).
 *
 * Why a size: a native block's element event goes through the event
 * loop as a transition of its own, where the expansion's fused cascades
 * hand a sum straight to its integrator, so below some hundred thousand
 * elements the expansion runs more steps per second (the LC line, QSS2,
 * ns per step native / expanded: 147 / 65 at N = 10^3, 150 / 149 at
 * 10^4, 168 / 117 at 10^5, 189 / 225 at 10^6). Above, the expansion's
 * cache misses cost more, and its memory (~1.7 KB an element against
 * ~250 B) and compile time (2.7 s against 0.09 s at 10^6) dominate.
 *
 * Otherwise the model is expanded exactly as before, so that every model
 * that ran before runs the same way.
 *
 * A model drawn as scalar blocks comes here too when it has regular runs
 * (qd-compile-scalar-runs.c): each run folded into an Integrator of size
 * K and its Weighted Sum, its x0 values and its element names passed in
 * the native table (taken by qd_vector_native_emit()), so that an error
 * names the element's own block (/x7, not /x[7]).
 *
 * The native blocks compute each element with the scalar blocks' own
 * arithmetic (qd-integrator-input.h, qd-wsum-sum.h, qd-gain-apply.h),
 * and order their elements' events by time, then by index. Where the
 * expansion interleaves the elements of neighbouring blocks at one time
 * (dx[1], x[1], dx[2], ...), a native block's due elements all go before
 * the next block's; events of different elements at one time commute
 * unless they meet in one element, and the LC line and the other models
 * of tests/test-vector-native.c give the expansion's events, in its
 * order, to the last bit.
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qd-compile-private.h"
#include "qd-compile-vector-private.h"
#include "qd-compile-vector.h"
#include "qd-expr.h"
#include "qd-registry.h"

void
qd_vector_native_free (gpointer data)
{
  QdVectorNative *v = data;

  if (v == NULL)
    return;
  g_free (v->outputs);
  g_free (v->ports);
  g_free (v->x0);
  qd_vector_names_free (v->names);
  g_free (v);
}

void
qd_vector_names_free (QdVectorNames *names)
{
  if (names == NULL)
    return;
  g_free (names->prefix);
  g_free (names->names);
  if (names->chunk != NULL)
    g_string_chunk_free (names->chunk);
  g_free (names);
}

/* ---- Planning (the expander's side) ------------------------------- */

static const VDriver *
input_driver (VSystem *vs,
              VBlock  *vb,
              guint    q)
{
  const VDriver *d;

  if (q >= vb->n_in)
    return NULL;
  d = &g_array_index (vs->drivers, VDriver, vb->drivers + q);
  return d->src != 0 ? d : NULL;
}

static inline VBlock *
driver_block (VSystem       *vs,
              const VDriver *d)
{
  return &vs->blocks[d->src - 1];
}

const char **
qd_vector_native_param_texts (const QdBlock     *block,
                              const QdBlockType *type,
                              const QdSettings  *settings)
{
  const char **texts = g_new0 (const char *, type->n_params + 1);

  for (guint k = 0; k < type->n_params; k++)
    {
      const QdParamSpec *spec = &type->params[k];
      const char *text = qd_compile_block_param_text_or_default (block, type, spec->name);

      /* The method is the one inherited parameter a native form asks
       * about (the quanta make no difference to it). */
      if ((spec->flags & QD_PARAM_INHERIT) != 0 && text[0] == '\0'
          && strcmp (spec->name, "method") == 0 && settings->method != NULL)
        text = settings->method;
      texts[k] = text;
    }
  return texts;
}

/* Whether @vb, a plain block wider than one element, has a native form
 * that takes its parameters. */
static gboolean
native_capable (VBlock           *vb,
                const QdSettings *settings)
{
  const QdBlockType *type = qd_registry_lookup (vb->block->type);
  g_autofree const char **texts = NULL;

  if (type == NULL || type->fast == NULL || type->fast->vector_type == NULL
      || type->fast->vector_accepts == NULL)
    return FALSE;
  texts = qd_vector_native_param_texts (vb->block, type, settings);
  return type->fast->vector_accepts (type, texts);
}

static gboolean
is_wide (const VBlock *vb)
{
  return vb->kind == KIND_SHIFT || (vb->n_out == 0 && vb->width > 1);
}

/* Input @q of native block @vb: a native block of its width, directly
 * or through one Index Shift whose boundary is scalar, or a scalar. */
static gboolean
native_input_ok (VSystem       *vs,
                 VBlock        *vb,
                 const VDriver *d,
                 const guint8  *native)
{
  VBlock *src = driver_block (vs, d);

  if (src->kind == KIND_SHIFT)
    {
      const VDriver *d0 = input_driver (vs, src, 0);
      const VDriver *d1 = input_driver (vs, src, 1);

      if (d0 == NULL || !native[d0->src - 1]
          || driver_block (vs, d0)->width != vb->width
          || src->width != vb->width)
        return FALSE;
      return d1 == NULL || !is_wide (driver_block (vs, d1));
    }
  if (native[d->src - 1])
    return src->width == vb->width;
  return !is_wide (src);
}

/* The native block that drives input @q of @vb, through an Index Shift
 * or not: its index + 1, or 0. */
static guint
native_driver (VSystem      *vs,
               VBlock       *vb,
               guint         q,
               const guint8 *native)
{
  const VDriver *d = input_driver (vs, vb, q);

  if (d != NULL && driver_block (vs, d)->kind == KIND_SHIFT)
    d = input_driver (vs, driver_block (vs, d), 0);
  return d != NULL && native[d->src - 1] ? d->src : 0;
}

static gboolean
is_feedthrough (const VBlock *vb)
{
  const QdBlockType *type = qd_registry_lookup (vb->block->type);

  return type != NULL && (type->flags & QD_BLOCK_FEEDTHROUGH) != 0;
}

/* Whether the native feedthrough blocks (Weighted Sums, Gains) feed
 * each other in a cycle: one block would then be an algebraic loop, where
 * its elements may not be (y = shift(y) + u, a running sum, is a chain
 * element by element). The expansion decides, element by element. */
static gboolean
feedthrough_cycle (VSystem      *vs,
                   const guint8 *native)
{
  /* Kahn's order over the native feedthrough blocks: a cycle leaves
   * some never freed. */
  g_autofree guint *pending = g_new0 (guint, MAX (vs->n, 1));
  g_autofree guint *stack = g_new (guint, MAX (vs->n, 1));
  guint n_stack = 0, n_nodes = 0, done = 0;

  for (guint i = 0; i < vs->n; i++)
    {
      VBlock *vb = &vs->blocks[i];

      if (!native[i] || !is_feedthrough (vb))
        continue;
      n_nodes++;
      for (guint q = 0; q < vb->n_in; q++)
        {
          guint src = native_driver (vs, vb, q, native);

          if (src != 0 && is_feedthrough (&vs->blocks[src - 1]))
            pending[i]++;
        }
      if (pending[i] == 0)
        stack[n_stack++] = i;
    }
  while (n_stack > 0)
    {
      guint i = stack[--n_stack];

      done++;
      for (guint j = 0; j < vs->n; j++)
        {
          VBlock *vb = &vs->blocks[j];

          if (!native[j] || !is_feedthrough (vb) || pending[j] == 0)
            continue;
          for (guint q = 0; q < vb->n_in; q++)
            if (native_driver (vs, vb, q, native) == i + 1 && --pending[j] == 0)
              stack[n_stack++] = j;
        }
    }
  return done < n_nodes;
}

gboolean
qd_vector_native_plan (Expander         *e,
                       VSystem          *vs,
                       const QdSettings *settings)
{
  const char *mode = g_getenv ("QDEVS_VECTORS");
  g_autofree guint8 *native = NULL;
  gboolean any = FALSE, forced;
  guint64 elements = 0;

  if ((mode != NULL && strcmp (mode, "expand") == 0)
      || (settings->solver != NULL && settings->solver[0] != '\0'
          && strcmp (settings->solver, "qss") != 0))
    return FALSE;

  forced = mode != NULL && strcmp (mode, "native") == 0;
  native = g_new0 (guint8, MAX (vs->n, 1));
  for (guint i = 0; i < vs->n; i++)
    {
      VBlock *vb = &vs->blocks[i];

      switch (vb->kind)
        {
        case KIND_SHIFT:
          break;
        case KIND_PLAIN:
          if (vb->width > 1)
            {
              if (vb->n_out != 0 || !native_capable (vb, settings))
                return FALSE;
              native[i] = any = TRUE;
              elements += vb->width;
            }
          break;
        case KIND_SINK:
        case KIND_STRUCTURAL:
          if (vb->width > 1)
            return FALSE;
          break;
        default:
          /* Subsystems, ports, tags and the other vector blocks. */
          return FALSE;
        }
    }
  if (!any || (!forced && elements < QD_VECTOR_NATIVE_MIN))
    return FALSE;

  for (guint i = 0; i < vs->n; i++)
    {
      VBlock *vb = &vs->blocks[i];

      for (guint q = 0; q < vb->n_in; q++)
        {
          const VDriver *d = input_driver (vs, vb, q);

          if (d == NULL)
            continue;
          if (native[i])
            {
              if (!native_input_ok (vs, vb, d, native))
                return FALSE;
            }
          else if (vb->kind == KIND_SHIFT)
            {
              /* Read by native blocks only (checked from their side);
               * its own input 0 must be a native block. */
              if (q == 0 && !native[d->src - 1])
                return FALSE;
            }
          else if (vb->kind == KIND_SINK && native[d->src - 1])
            continue;       /* a Scope or To CSV showing elements */
          else if (is_wide (driver_block (vs, d)))
            return FALSE;   /* a scalar block reading a vector */
        }
    }
  /* An Index Shift read by a scalar block was refused above; one whose
   * reader is a native block of another width too. */
  (void) e;
  return !feedthrough_cycle (vs, native);
}

/* ---- The copy ------------------------------------------------------ */

/* Links input @q of native block @vb (the copy @dst) and notes its
 * binding in @port. */
static void
link_native_input (Expander     *e,
                   VSystem      *vs,
                   VBlock       *vb,
                   guint         q,
                   QdBlock      *dst,
                   QdVectorPort *port)
{
  const VDriver *d = input_driver (vs, vb, q);
  VBlock *src;

  if (d == NULL)
    return;
  src = driver_block (vs, d);
  port->linked = TRUE;
  if (src->kind == KIND_SHIFT)
    {
      const VDriver *d0 = input_driver (vs, src, 0);
      const VDriver *d1 = input_driver (vs, src, 1);
      guint boundary_port = vb->n_in + q;

      port->driver = driver_block (vs, d0)->elements[0];
      port->driver_port = d0->port;
      port->shift = src->shift;
      qd_vector_connect (e, vs, port->driver, d0->port, dst, q);
      if (d1 != NULL)
        qd_vector_connect (e, vs, driver_block (vs, d1)->elements[0],
                           d1->port, dst, boundary_port);
      else if (src->boundary != 0.0)
        qd_vector_connect (e, vs, qd_vector_boundary_constant (vs, src), 0, dst,
                           boundary_port);
      return;
    }
  qd_vector_connect (e, vs, src->elements[0], d->port, dst, q);
  if (src->width > 1)
    {
      port->driver = src->elements[0];
      port->driver_port = d->port;
    }
}

/* The values of @vb's x0 list, one per element: a plain number read as
 * such (a list of a million of them is the common case), anything else
 * evaluated over the model variables, a problem naming the element. */
static double *
eval_x0 (Expander *e,
         VBlock   *vb)
{
  double *x0 = g_new0 (double, vb->width);

  for (guint i = 0; i < vb->width; i++)
    {
      g_autofree char *text = g_strstrip (g_strdup (vb->x0[i]));

      if (!qd_expr_parse_literal (text, &x0[i]))
        {
          g_autofree char *name = g_strdup_printf ("x0[%u]", i + 1);

          if (!qd_vector_eval_text (e, vb->block, name, text, &x0[i]))
            break;
        }
    }
  return x0;
}

/* Links sink @vb (the copy @dst, made by qd_vector_make_computed()):
 * a scalar input to its port, a native vector's chosen elements each to
 * a port of their own, noted in a QdVectorNative of width 0. */
static void
link_sink (Expander   *e,
           VSystem    *vs,
           VBlock     *vb,
           QdBlock    *dst,
           GHashTable *native)
{
  g_autoptr(GArray) ports = g_array_new (FALSE, TRUE, sizeof (QdVectorPort));
  gboolean any = FALSE;

  for (guint q = 0; q < MAX (vb->n_in, vb->n_ports); q++)
    {
      const VDriver *d = input_driver (vs, vb, q);
      VBlock *src = d != NULL ? driver_block (vs, d) : NULL;
      guint w = src != NULL ? src->width : 1;
      guint count = w == 1 ? 1 : vb->select != NULL ? vb->n_select : w;

      for (guint j = 0; j < count; j++)
        {
          QdVectorPort port = { 0 };

          port.element = -1;
          if (src != NULL)
            qd_vector_connect (e, vs, src->elements[0], d->port, dst, ports->len);
          if (w > 1)
            {
              port.driver = src->elements[0];
              port.driver_port = d->port;
              port.element = (gint) (vb->select != NULL ? vb->select[j] : j);
              any = TRUE;
            }
          g_array_append_val (ports, port);
        }
    }
  if (any)
    {
      QdVectorNative *v = g_new0 (QdVectorNative, 1);

      v->block = dst;
      v->n_ports = ports->len;
      v->ports = (QdVectorPort *) g_array_free (g_steal_pointer (&ports), FALSE);
      g_hash_table_insert (native, dst, v);
    }
}

void
qd_vector_native_emit (Expander   *e,
                       VSystem    *vs,
                       GHashTable *native)
{
  vs->out = qd_system_new ();
  for (guint i = 0; i < vs->n; i++)
    {
      VBlock *vb = &vs->blocks[i];

      if (vb->kind == KIND_SHIFT)
        continue;
      vb->elements = g_new0 (QdBlock *, 1);
      /* A sink's copy has one port per element it shows, named after
       * it, as in the expansion. */
      vb->elements[0] = vb->kind == KIND_SINK
                        ? qd_vector_make_computed (e, vs, vb, 0)
                        : qd_vector_copy_whole (vb);
      qd_system_append_block (vs->out, vb->elements[0]);
    }
  for (guint i = 0; i < vs->n; i++)
    {
      VBlock *vb = &vs->blocks[i];
      QdBlock *dst = vb->elements != NULL ? vb->elements[0] : NULL;

      if (vb->kind == KIND_SHIFT)
        continue;
      if (vb->kind == KIND_SINK)
        {
          link_sink (e, vs, vb, dst, native);
          continue;
        }
      if (vb->width > 1)
        {
          QdVectorNative *v = g_new0 (QdVectorNative, 1);
          QdVectorNative *preset;

          /* Its boundary ports read zero unless a boundary signal drives
           * them; its own ports are checked by the compiler (linked). */
          g_hash_table_add (e->zero_inputs, dst);

          v->block = dst;
          v->width = vb->width;
          /* A run of scalar blocks' x0 values and element names
           * (qd-compile-scalar-runs.c). */
          preset = g_hash_table_lookup (native, vb->block);
          if (preset != NULL)
            {
              v->x0 = g_steal_pointer (&preset->x0);
              v->names = g_steal_pointer (&preset->names);
            }
          if (vb->x0 != NULL)
            {
              /* The block's own x0 is then unused: one number, which
               * the compiler can read. */
              v->x0 = eval_x0 (e, vb);
              qd_block_set_param_raw (dst, "x0", "0");
            }
          v->n_ports = vb->n_in;
          v->ports = g_new0 (QdVectorPort, MAX (vb->n_in, 1));
          for (guint q = 0; q < vb->n_in; q++)
            link_native_input (e, vs, vb, q, dst, &v->ports[q]);
          g_hash_table_insert (native, dst, v);
          continue;
        }
      for (guint q = 0; q < vb->n_in; q++)
        {
          const VDriver *d = input_driver (vs, vb, q);

          if (d != NULL && driver_block (vs, d)->elements != NULL)
            qd_vector_connect (e, vs, driver_block (vs, d)->elements[0],
                               d->port, dst, q);
        }
    }
}

/* ---- The compiler's side ------------------------------------------ */

guint
qd_compile_native_inputs (Compiler *c,
                          Node     *node)
{
  QdVectorNative *v = c->native != NULL
                      ? g_hash_table_lookup (c->native, node->block) : NULL;

  if (v == NULL)
    return node->n_in;
  v->n_in = node->n_in;
  v->n_out = node->n_out;
  return v->width > 0 ? 2 * node->n_in : node->n_in;
}

/* A sink showing elements of native vectors runs as its own type but
 * for its external transition: each of its ports shows one element of
 * a vector whose every element event arrives there, and passes on only
 * that element's (as the element's own segment, its tag 0, as in the
 * expansion). An event passed by is still a transition for the event
 * loop, which then asks the time advance from now; the sink's own time
 * advance counts from its last transition that it saw (a To CSV's next
 * sample), so the wrapper gives the loop the time advance that lands on
 * the same next time, to the bit. One SinkType per sink block. */
typedef struct
{
  QdBlockType        type;    /* first: the QdAtomic's type points here */
  const QdBlockType *inner;
  const gint        *element; /* by port, or -1 */
  double             t_seen;  /* the sink's last transition */
  double             t_last;  /* the last one, passed by or not */
} SinkType;

static void
sink_init (QdAtomic *self,
           double    t)
{
  SinkType *sink = (SinkType *) self->type;

  sink->t_seen = sink->t_last = t;
  if (sink->inner->init != NULL)
    sink->inner->init (self, t);
}

static double
sink_ta (QdAtomic *self)
{
  SinkType *sink = (SinkType *) self->type;
  double ta = sink->inner->ta (self);

  if (sink->t_last == sink->t_seen)
    return ta;
  return qd_vector_time_advance (sink->t_last, sink->t_seen + ta);
}

static void
sink_dint (QdAtomic *self,
           double    t)
{
  SinkType *sink = (SinkType *) self->type;

  sink->t_seen = sink->t_last = t;
  sink->inner->dint (self, t);
}

static void
sink_dext (QdAtomic       *self,
           double          t,
           double          e,
           guint           port,
           const QdSignal *x)
{
  SinkType *sink = (SinkType *) self->type;
  QdSignal y;

  sink->t_last = t;
  if (sink->element[port] >= 0)
    {
      if (x->tag != (guint32) sink->element[port])
        return;
      y = *x;
      y.tag = 0;
      x = &y;
    }
  /* The time since the sink's own last transition. */
  e = t - sink->t_seen;
  sink->t_seen = t;
  sink->inner->dext (self, t, e, port, x);
}

/* Sink @v's ports read their elements where the vector keeps them, and
 * its type passes each port only its element's events. */
static void
bind_sink (QdSimulation   *sim,
           QdVectorNative *v)
{
  QdAtomic *a = &sim->atomics[v->atomic];
  const QdSignal **in = (const QdSignal **) a->in;
  SinkType *sink = g_new0 (SinkType, 1);
  gint *element = g_new (gint, MAX (v->n_ports, 1));

  sink->type = *a->type;
  sink->type.init = sink_init;
  sink->type.ta = sink_ta;
  sink->type.dint = sink_dint;
  sink->type.dext = sink_dext;
  /* Its fused paths would skip sink_dext. */
  sink->type.fast = NULL;
  sink->inner = a->type;
  sink->element = element;
  for (guint p = 0; p < v->n_ports; p++)
    {
      const QdVectorPort *port = &v->ports[p];

      element[p] = -1;
      if (port->element >= 0 && port->elements != NULL && p < a->n_in
          && (guint) port->element < port->n)
        {
          element[p] = port->element;
          in[p] = &port->elements[port->element];
        }
    }
  g_ptr_array_add (sim->allocs, sink);
  g_ptr_array_add (sim->allocs, element);
  a->type = &sink->type;
}

void
qd_compile_native_attach (Compiler *c,
                          Node    **atomic_nodes)
{
  QdSimulation *sim = c->sim;
  GHashTableIter iter;
  gpointer value;

  if (c->native == NULL || g_hash_table_size (c->native) == 0)
    return;
  sim->vectors = g_ptr_array_new_with_free_func (qd_vector_native_free);
  for (guint i = 0; i < sim->n_atomics; i++)
    {
      Node *node = atomic_nodes[i];
      QdVectorNative *v = g_hash_table_lookup (c->native, node->block);

      if (v == NULL || !node->ok)
        continue;
      v->atomic = i;
      if (v->width == 0)
        continue;   /* a sink: bound below */
      v->outputs = g_new0 (QdSignal, (gsize) v->width * MAX (v->n_out, 1));
      for (gsize k = 0; k < (gsize) v->width * v->n_out; k++)
        v->outputs[k].tag = (guint32) (k % v->width);
      /* Ports the links did not reach: the type may have more inputs
       * than were linked. */
      if (v->n_ports < v->n_in)
        {
          v->ports = g_renew (QdVectorPort, v->ports, v->n_in);
          memset (v->ports + v->n_ports, 0,
                  (v->n_in - v->n_ports) * sizeof (QdVectorPort));
          v->n_ports = v->n_in;
        }
      for (guint q = 0; q < v->n_in; q++)
        if (!v->ports[q].linked)
          qd_compile_add_problem (c, node, QD_ERROR_UNCONNECTED,
                                  _("input %u is not connected; connect "
                                    "it or delete the block"), q + 1);
      /* The record is the scalar type's (its parameters, its state's
       * size); the vector type keeps its state in memory of its own,
       * through a pointer there (qd-block-fast-private.h). */
      sim->atomics[i].type = node->type->fast->vector_type;
    }
  /* The drivers' element outputs, now that each has them. */
  g_hash_table_iter_init (&iter, c->native);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      QdVectorNative *v = value;

      for (guint q = 0; q < v->n_ports; q++)
        {
          QdVectorPort *port = &v->ports[q];
          QdVectorNative *src = port->driver != NULL
            ? g_hash_table_lookup (c->native, port->driver) : NULL;

          port->n = 1;
          if (src != NULL && src->outputs != NULL && port->driver_port < src->n_out)
            {
              port->elements = src->outputs + (gsize) port->driver_port * src->width;
              port->n = src->width;
            }
        }
      if (v->width == 0 && v->atomic < sim->n_atomics)
        bind_sink (sim, v);
      v->block = NULL;
    }
  g_hash_table_iter_init (&iter, c->native);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      g_ptr_array_add (sim->vectors, value);
      g_hash_table_iter_steal (&iter);
    }
}

/* ---- The blocks' services (qd-block-fast-private.h) --------------- */

static QdVectorNative *
native_of (const QdAtomic *self)
{
  GPtrArray *vectors = self->sim != NULL ? self->sim->vectors : NULL;

  for (guint k = 0; vectors != NULL && k < vectors->len; k++)
    {
      QdVectorNative *v = g_ptr_array_index (vectors, k);

      if (v->atomic == self->index && v->outputs != NULL)
        return v;
    }
  return NULL;
}

char *
qd_vector_native_element_path (QdSimulation   *sim,
                               guint           i,
                               const QdSignal *sig)
{
  QdVectorNative *v = i < sim->n_atomics ? native_of (&sim->atomics[i]) : NULL;

  if (v == NULL || sig == NULL || sig->tag >= v->width)
    return NULL;
  /* A run of scalar blocks: the element's own block, in the root. */
  if (v->names != NULL && v->names->names != NULL)
    return g_strdup_printf ("/%s", v->names->names[sig->tag]);
  if (v->names != NULL)
    return g_strdup_printf ("/%s%" G_GUINT64_FORMAT, v->names->prefix,
                            v->names->first + sig->tag);
  return g_strdup_printf ("%s[%u]", sim->atomics[i].path, sig->tag + 1);
}

guint
qd_simulation_get_block_width (QdSimulation *self,
                               guint         index)
{
  QdVectorNative *v;

  g_return_val_if_fail (self != NULL && index < self->n_atomics, 1);
  v = native_of (&self->atomics[index]);
  return v != NULL ? v->width : 1;
}

guint
qd_atomic_vector_width (const QdAtomic *self)
{
  QdVectorNative *v = native_of (self);

  return v != NULL ? v->width : 0;
}

QdSignal *
qd_atomic_vector_output (QdAtomic *self,
                         guint     port)
{
  QdVectorNative *v = native_of (self);

  g_return_val_if_fail (v != NULL && port < v->n_out, NULL);
  return v->outputs + (gsize) port * v->width;
}

const double *
qd_atomic_vector_x0 (const QdAtomic *self)
{
  QdVectorNative *v = native_of (self);

  return v != NULL ? v->x0 : NULL;
}

void
qd_atomic_vector_input (QdAtomic      *self,
                        guint          port,
                        QdVectorInput *input)
{
  QdVectorNative *v = native_of (self);

  memset (input, 0, sizeof *input);
  input->n = 1;
  g_return_if_fail (v != NULL && port < v->n_ports);
  input->elements = v->ports[port].elements;
  input->n = v->ports[port].n;
  input->shift = v->ports[port].elements != NULL ? v->ports[port].shift : 0;
}


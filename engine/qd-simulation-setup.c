/* qd-simulation-setup.c: creating and freeing a simulation
 *
 * After qd_compile() has built the flat model: the loop's per-block data
 * (QdHot: each block's fused functions, its cascade kernels and
 * prefetch lines), then the blocks' init and the first events
 * (qd_simulation_initialize(), qd-simulation.c); and the teardown.
 */
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "qd-classic-private.h"
#include "qd-simulation-private.h"

/* -------------------------------------------------------------------- */
/* Creation */

/* The fused functions of a block type that has none: its separate DEVS
 * functions in sequence, with the stand-ins for missing ones (no output,
 * no state change, passive). */
static guint64
generic_fire (QdAtomic *self,
              double    t,
              double   *ta)
{
  const QdBlockType *type = self->type;
  guint64 mask = 0;

  if (type->lambda != NULL)
    mask = type->lambda (self, t);
  if (type->dint != NULL)
    type->dint (self, t);
  *ta = type->ta != NULL ? type->ta (self) : QD_INF;
  return mask;
}

static double
generic_dext_ta (QdAtomic       *self,
                 double          t,
                 double          e,
                 guint           port,
                 const QdSignal *x)
{
  const QdBlockType *type = self->type;

  if (type->dext != NULL)
    type->dext (self, t, e, port, x);
  return type->ta != NULL ? type->ta (self) : QD_INF;
}

static guint64
default_lambda (QdAtomic *self,
                double    t)
{
  return 0;
}

G_STATIC_ASSERT (sizeof (QdHot) == 64);

/* TRUE when every receiver of output @s is a non-static block. */
static gboolean
feeds_only_dynamic (QdSimulation *sim,
                    guint         s)
{
  for (guint e = sim->fan_start[s]; e < sim->fan_start[s + 1]; e++)
    if (sim->hot[sim->fanout[e].receiver].is_static)
      return FALSE;
  return TRUE;
}

/* Whether output 0 of block @i may take run_cascade(): it has receivers,
 * all of them static blocks, each on one port only (the fan-out lists
 * receivers in increasing index, so a repeated one would be adjacent),
 * and every output of each of them goes to non-static blocks alone, so
 * that running them queues no further static block. */
static guint8
feeds_fusable_cascade (QdSimulation *sim,
                       guint         i)
{
  guint s, e, end;

  if (sim->hot[i].n_out == 0)
    return 0;
  s = sim->out_base[i];
  e = sim->fan_start[s];
  end = sim->fan_start[s + 1];
  if (e == end)
    return 0;
  for (guint k = e; k < end; k++)
    {
      guint w = sim->fanout[k].receiver;

      if (!sim->hot[w].is_static
          || (k > e && w <= sim->fanout[k - 1].receiver))
        return 0;
      for (guint p = 0; p < sim->hot[w].n_out; p++)
        if (!feeds_only_dynamic (sim, sim->out_base[w] + p))
          return 0;
    }
  return 1;
}

/* QdHot.fused_out0 of every block: its way of fusing the cascade of its
 * output 0, or none when not @enabled. */
static void
set_fused (QdSimulation *sim,
           gboolean      enabled)
{
  if (sim->chain_misses != NULL)
    memset (sim->chain_misses, 0, sim->n_atomics);
  for (guint i = 0; i < sim->n_atomics; i++)
    {
      guint8 way = 0;

      if (enabled && feeds_fusable_cascade (sim, i))
        way = QD_FUSED_CASCADE;
      else if (enabled && sim->chain_start != NULL
               && sim->chain_start[i] != sim->chain_start[i + 1])
        way = QD_FUSED_CHAIN;
      sim->hot[i].fused_out0 = way;
    }
}

/* Whether output 0 of block @i can take a cascade kernel: a fusable
 * cascade (feeds_fusable_cascade()) of at most QD_KERNEL_MAX static
 * blocks, all of one type with a kernel, each with a sole receiver that
 * the type's kernel accepts. */
static gboolean
kernel_fits (QdSimulation *sim,
             guint         i)
{
  guint s = sim->out_base[i];
  guint e = sim->fan_start[s], end = sim->fan_start[s + 1];
  const QdBlockType *type;

  if (!feeds_fusable_cascade (sim, i) || end - e > QD_KERNEL_MAX)
    return FALSE;
  type = sim->atomics[sim->fanout[e].receiver].type;
  if (type->fast == NULL || type->fast->cascade == NULL
      || type->fast->cascade_accepts == NULL)
    return FALSE;
  for (guint k = e; k < end; k++)
    {
      guint w = sim->fanout[k].receiver;
      const QdHot *h = &sim->hot[w];

      if (h->sole_receiver == QD_NO_RECEIVER
          || sim->atomics[w].type->fast != type->fast
          || !type->fast->cascade_accepts (&sim->atomics[w],
                                     &sim->atomics[h->sole_receiver],
                                     h->sole_port))
        return FALSE;
    }
  return TRUE;
}

int
qd_simulation_kernel_index (QdSimulation      *sim,
                            const QdBlockType *type)
{
  for (guint k = 0; k < sim->n_kernels; k++)
    if (sim->kernels[k] == type->fast->cascade)
      return (int) k;
  if (sim->n_kernels == QD_MAX_KERNELS)
    return -1;
  sim->kernels[sim->n_kernels] = type->fast->cascade;
  sim->kernel_prefetch[sim->n_kernels] = type->fast->cascade_prefetch;
  return (int) sim->n_kernels++;
}

/* The cascade kernels (QdHot.pairs and .kernel) and their pairs, once
 * the QdHot are filled. Each pair is a 64-byte line, so the array holds
 * only the pairs of the outputs that have a kernel (at the place of
 * every fan-out entry, as when pairs were 16 bytes, a million-state LC
 * line's would take 192 MB instead of 128), and the block's QdHot says
 * where its own begin. */
static void
fill_kernels (QdSimulation *sim)
{
  guint n_pairs = 0, next = 0;

  for (guint i = 0; i < sim->n_atomics; i++)
    if (kernel_fits (sim, i))
      {
        guint s = sim->out_base[i];

        n_pairs += sim->fan_start[s + 1] - sim->fan_start[s];
      }
  if (n_pairs == 0)
    return;
  sim->kernel_pairs = g_aligned_alloc0 (n_pairs, sizeof (QdCascadePair), 64);
  sim->n_kernel_pairs = n_pairs;
  for (guint i = 0; i < sim->n_atomics; i++)
    if (kernel_fits (sim, i))
      {
        guint s = sim->out_base[i];
        guint e = sim->fan_start[s], end = sim->fan_start[s + 1];
        const QdBlockType *type = sim->atomics[sim->fanout[e].receiver].type;
        int kernel = qd_simulation_kernel_index (sim, type);

        if (kernel < 0)
          continue;
        sim->hot[i].pairs = next;
        sim->hot[i].kernel = (guint32) kernel;
        for (guint k = e; k < end; k++, next++)
          {
            QdCascadePair *pair = &sim->kernel_pairs[next];
            guint w = sim->fanout[k].receiver;

            pair->block = &sim->atomics[w];
            pair->receiver = &sim->atomics[sim->hot[w].sole_receiver];
            if (type->fast->cascade_prepare != NULL)
              type->fast->cascade_prepare (pair);
          }
      }
}

/* The offset of @p from @base in @off, if it fits in 32 bits (a NULL
 * @p is asked for as @base). */
static gboolean
prefetch_offset (const char    *base,
                 gconstpointer  p,
                 gint32        *off)
{
  gint64 d;

  if (p == NULL || base == NULL)
    {
      *off = 0;
      return TRUE;
    }
  d = (gint64) ((guintptr) p - (guintptr) base);
  if (d < G_MININT32 || d > G_MAXINT32)
    return FALSE;
  *off = (gint32) d;
  return TRUE;
}

/* The QdPrefetchLine of every block (prefetch_next()), in place of
 * state_of. FALSE, with none, when the segments or the pairs do not fit
 * 32-bit byte offsets, or some receiver's state is more than 2 GiB away
 * from the state its offset starts from. */
static gboolean
fill_prefetch (QdSimulation *sim)
{
  guint n = sim->n_atomics;

  G_STATIC_ASSERT (sizeof (QdPrefetchLine) == 64);
  if ((guint64) sim->n_signals * sizeof (QdSignal) > G_MAXUINT32
      || (guint64) sim->n_kernel_pairs * sizeof (QdCascadePair)
         > G_MAXUINT32)
    return FALSE;
  sim->prefetch = g_aligned_alloc (n, sizeof (QdPrefetchLine), 64);
  for (guint i = 0; i < n; i++)
    {
      QdPrefetchLine *l = &sim->prefetch[i];
      guint s = sim->out_base[i];
      guint e = sim->fan_start[s];
      guint end = e;
      guint k;

      /* The receivers of output 0, when the block has outputs. */
      if (s != sim->out_base[i + 1])
        end = MIN (sim->fan_start[s + 1], e + QD_PREFETCH_RECEIVERS);
      l->base = sim->atomics[i].state;
      for (guint f = e; f < end && l->base == NULL; f++)
        l->base = sim->atomics[sim->fanout[f].receiver].state;
      l->signal = s * sizeof (QdSignal);
      l->pairs = sim->hot[i].pairs != QD_NO_PAIRS
                 ? sim->hot[i].pairs * (guint32) sizeof (QdCascadePair) : 0;
      for (k = 0; k < QD_PREFETCH_RECEIVERS; k++)
        {
          l->receiver[k] = QD_NO_RECEIVER;
          l->receiver_signal[k] = 0;
          l->receiver_state[k] = 0;
        }
      for (k = 0; e + k < end; k++)
        {
          guint w = sim->fanout[e + k].receiver;

          l->receiver[k] = w;
          l->receiver_signal[k] = sim->out_base[w] * sizeof (QdSignal);
          if (!prefetch_offset (l->base, sim->atomics[w].state,
                                &l->receiver_state[k]))
            {
              g_aligned_free (sim->prefetch);
              sim->prefetch = NULL;
              return FALSE;
            }
        }
    }
  return TRUE;
}

void
qd_simulation_fill_hot (QdSimulation *sim)
{
  guint n = sim->n_atomics;

  sim->hot = g_aligned_alloc0 (MAX (n, 1), sizeof (QdHot), 64);
  for (guint i = 0; i < n; i++)
    {
      QdAtomic *a = &sim->atomics[i];
      const QdBlockType *type = a->type;
      QdHot *h = &sim->hot[i];

      h->fire = type->fast != NULL && type->fast->fire != NULL
                ? type->fast->fire : generic_fire;
      h->dext_ta = type->fast != NULL && type->fast->dext_ta != NULL
                   ? type->fast->dext_ta : generic_dext_ta;
      h->lambda = type->lambda != NULL ? type->lambda : default_lambda;
      h->out_base = sim->out_base[i];
      h->n_out = (guint16) a->n_out;
      h->where = QD_SCHED_NONE;
      h->is_integrator = sim->is_integrator[i];
      /* An integrator's internal transitions are counted as steps, which
       * the cascade of static blocks does not do. */
      h->is_static = (type->flags & QD_BLOCK_STATIC) != 0
                     && !h->is_integrator
                     && (type->is_static == NULL || type->is_static (a));
      if (h->is_static)
        h->kernel_runs = 0;
      else
        h->tl = sim->start_time;
      h->pairs = QD_NO_PAIRS;
      h->kernel = 0;
    }
  for (guint i = 0; i < n; i++)
    {
      QdHot *h = &sim->hot[i];
      guint s = h->out_base;

      h->fused_out0 = feeds_fusable_cascade (sim, i) ? QD_FUSED_CASCADE : 0;
      h->sole_receiver = QD_NO_RECEIVER;
      if (h->n_out == 1 && sim->fan_start[s + 1] == sim->fan_start[s] + 1
          && sim->fanout[sim->fan_start[s]].port <= G_MAXUINT8)
        {
          h->sole_receiver = sim->fanout[sim->fan_start[s]].receiver;
          h->sole_port = (guint8) sim->fanout[sim->fan_start[s]].port;
        }
    }
  fill_kernels (sim);
  qd_simulation_fill_chains (sim);
  set_fused (sim, TRUE);
  /* After the kernels: the lines hold where their pairs are. */
  if (n < QD_PREFETCH_DEEP_BLOCKS || n >= QD_PREFETCH_LINE_BLOCKS
      || !fill_prefetch (sim))
    {
      sim->state_of = g_new (gconstpointer, MAX (n, 1));
      for (guint i = 0; i < n; i++)
        sim->state_of[i] = sim->atomics[i].state;
    }
}

/* @sim (NULL when compiling failed) initialized, or NULL when its init
 * failed. */
static QdSimulation *
initialized (QdSimulation  *sim,
             GPtrArray     *problems,
             GError       **error)
{
  if (sim == NULL)
    return NULL;
  if (!qd_simulation_initialize (sim, problems, error))
    {
      qd_simulation_free (sim);
      return NULL;
    }
  return sim;
}

QdSimulation *
qd_simulation_new (QdDocument        *document,
                   const char *const *overrides,
                   GPtrArray         *problems,
                   GError           **error)
{
  g_return_val_if_fail (document != NULL, NULL);

  return initialized (qd_compile (document, overrides, FALSE, problems, error),
                      problems, error);
}

QdSimulation *
qd_simulation_new_taking (QdDocument        *document,
                          const char *const *overrides,
                          GPtrArray         *problems,
                          GError           **error)
{
  QdSimulation *sim;

  g_return_val_if_fail (document != NULL, NULL);

  sim = qd_compile (document, overrides, TRUE, problems, error);
  g_object_unref (document);
#ifdef __GLIBC__
  /* The document is millions of small allocations in the middle of the
   * heap, below the compiler's: free() keeps their pages, which the
   * blocks' init and the run would not all reuse (the loop's large
   * arrays are mapped apart). Hand them back now. */
  malloc_trim (0);
#endif
  return initialized (sim, problems, error);
}

gboolean
qd_document_check (QdDocument        *document,
                   const char *const *overrides,
                   GPtrArray         *problems)
{
  QdSimulation *sim = qd_compile (document, overrides, FALSE, problems, NULL);

  if (sim == NULL)
    return FALSE;
  qd_simulation_free (sim);
  return TRUE;
}

void
qd_simulation_free (QdSimulation *self)
{
  if (self == NULL)
    return;
  qd_simulation_finish (self);
  /* After every block's exit, which may still use them. */
  g_datalist_clear (&self->shared);

  if (self->atomics != NULL)
    g_aligned_free (self->atomics);
  g_free (self->is_integrator);
  g_free (self->signals);
  g_free (self->out_base);
  g_free (self->fan_start);
  g_free (self->fanout);
  if (self->records != NULL)
    g_ptr_array_unref (self->records);
  if (self->strings != NULL)
    g_string_chunk_free (self->strings);
  if (self->allocs != NULL)
    g_ptr_array_unref (self->allocs);
  g_clear_pointer (&self->vectors, g_ptr_array_unref);
  g_free (self->coupled_start);
  g_free (self->coupled);
  g_strfreev (self->variable_names);
  g_free (self->variable_values);
  if (self->traces != NULL)
    g_ptr_array_unref (self->traces);
  if (self->stats != NULL)
    g_ptr_array_unref (self->stats);
  qd_classic_free (self->classic);
  if (self->hot != NULL)
    g_aligned_free (self->hot);
  g_free (self->state_of);
  g_free (self->chain_start);
  g_free (self->chain);
  g_free (self->chain_misses);
  g_free (self->chain_op_start);
  g_free (self->chain_ops);
  g_free (self->chain_runs);
  g_free (self->chain_count_start);
  g_free (self->chain_counts);
  if (self->chain_pairs != NULL)
    g_aligned_free (self->chain_pairs);
  if (self->prefetch != NULL)
    g_aligned_free (self->prefetch);
  if (self->kernel_pairs != NULL)
    g_aligned_free (self->kernel_pairs);
  qd_heap_clear (&self->heap);
  g_free (self->n_internal_hi);
  g_free (self->n_external_hi);
  g_free (self->log_tl);
  g_clear_error (&self->fail_error);
  g_clear_error (&self->error);
  g_free (self);
}

/* -------------------------------------------------------------------- */
void
qd_simulation_set_fused_cascades (QdSimulation *self,
                                  gboolean      enabled)
{
  g_return_if_fail (self != NULL);

  set_fused (self, enabled);
}


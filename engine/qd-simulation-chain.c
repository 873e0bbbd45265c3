/* qd-simulation-chain.c: the static chains of the event loop
 *
 * A chain is the zero-time cascade that follows an event of a non-static
 * block i whose output 0 reaches static blocks that are not a one-level
 * fusable cascade (run_cascade() in qd-simulation.c): static blocks that
 * feed further static blocks (Lotka–Volterra: integrator -> Product ->
 * WSum -> integrator), or reached beside a non-static receiver (the
 * Scope). When nothing else is due at the event's time, the general loop
 * runs those static blocks from the now queue in an order that depends
 * on the wiring alone, as long as each of them emits its output 0 and no
 * non-static receiver becomes due at once: the queue always holds the
 * static blocks reached and not yet run, and its next is the lowest
 * index. This file computes that order once, by playing the queue on the
 * wiring; run_chain() (qd-simulation.c) follows it without the queue and
 * falls back to it (qd_simulation_chain_pending()) the moment the run
 * leaves it.
 */
#include "qd-simulation-private.h"

/* The static blocks reached and not yet run, in increasing index: the
 * now queue of the played cascade. */
typedef struct
{
  guint32 block[QD_CHAIN_MAX];
  guint   n;
} Pending;

/* Adds block @w if it is new; FALSE when there is no room. */
static gboolean
pending_add (Pending *p,
             guint32  w)
{
  guint k = p->n;

  for (guint m = 0; m < p->n; m++)
    if (p->block[m] == w)
      return TRUE;
  if (p->n == QD_CHAIN_MAX)
    return FALSE;
  while (k > 0 && p->block[k - 1] > w)
    {
      p->block[k] = p->block[k - 1];
      k--;
    }
  p->block[k] = w;
  p->n++;
  return TRUE;
}

/* Queues the static receivers of output @s, as the fan-out does. */
static gboolean
pending_add_receivers (const QdSimulation *sim,
                       Pending            *p,
                       guint               s)
{
  for (guint e = sim->fan_start[s]; e < sim->fan_start[s + 1]; e++)
    {
      guint w = sim->fanout[e].receiver;

      if (sim->hot[w].is_static && !pending_add (p, w))
        return FALSE;
    }
  return TRUE;
}

/* Takes the next block, the lowest index, off @p. */
static guint32
pending_pop (Pending *p)
{
  guint32 w = p->block[0];

  p->n--;
  memmove (&p->block[0], &p->block[1], p->n * sizeof p->block[0]);
  return w;
}

/* Plays the cascade from output 0 of block @i into @seq (room for
 * QD_CHAIN_MAX blocks): the static blocks in the order the now queue
 * runs them. Returns their number, or 0 when there is no chain: no
 * static receiver, a static block of other than one output (its output
 * 0 alone would not be all it emits), or a longer cascade (a loop of
 * static blocks is an algebraic loop, which never ends). */
static guint
play_chain (const QdSimulation *sim,
            guint               i,
            guint32            *seq)
{
  Pending p = { .n = 0 };
  guint n = 0;

  if (!pending_add_receivers (sim, &p, sim->out_base[i]))
    return 0;
  while (p.n > 0)
    {
      guint32 w = pending_pop (&p);

      if (n == QD_CHAIN_MAX || sim->hot[w].n_out != 1
          || !pending_add_receivers (sim, &p, sim->out_base[w]))
        return 0;
      seq[n++] = w;
    }
  return n;
}

/* Appends to @ops the non-static receivers of output @s, each with its
 * port; returns their number. */
static guint32
append_dynamic (const QdSimulation *sim,
                GArray             *ops,
                guint               s)
{
  guint32 n = 0;

  for (guint e = sim->fan_start[s]; e < sim->fan_start[s + 1]; e++)
    {
      QdChainOp op = { sim->fanout[e].receiver, sim->fanout[e].port,
                       QD_NO_PAIRS, 0 };

      if (!sim->hot[op.block].is_static)
        {
          g_array_append_val (ops, op);
          n++;
        }
    }
  return n;
}

/* One block's counts from one whole run of @owner's chain, while they
 * are gathered (fill_counts()). */
typedef struct
{
  guint32      block;
  QdChainCount count;
} BlockCount;

static gint
compare_block_counts (gconstpointer a,
                      gconstpointer b)
{
  const BlockCount *x = a, *y = b;

  if (x->block != y->block)
    return x->block < y->block ? -1 : 1;
  return x->count.owner < y->count.owner ? -1
         : x->count.owner > y->count.owner;
}

/* Adds to @counts what one whole run of block @owner's chain (its @n
 * blocks @seq) counts, one entry per block it reaches (@tally, zeroed,
 * per block, is left zeroed), and returns its transitions: an external
 * one per receiver of each output, an internal one per static block. */
static guint32
add_counts (const QdSimulation *sim,
            guint               owner,
            const guint32      *seq,
            guint               n,
            QdChainCount       *tally,
            GArray             *counts)
{
  guint first = counts->len;
  guint32 transitions = n;

  for (guint k = 0; k <= n; k++)
    {
      guint s = sim->out_base[k == 0 ? owner : seq[k - 1]];

      for (guint e = sim->fan_start[s]; e < sim->fan_start[s + 1]; e++)
        {
          guint32 w = sim->fanout[e].receiver;

          if (tally[w].internal == 0 && tally[w].external == 0)
            {
              BlockCount c = { w, { owner, 0, 0 } };

              g_array_append_val (counts, c);
            }
          tally[w].external++;
          transitions++;
        }
      if (k < n)
        {
          if (tally[seq[k]].internal == 0 && tally[seq[k]].external == 0)
            {
              BlockCount c = { seq[k], { owner, 0, 0 } };

              g_array_append_val (counts, c);
            }
          tally[seq[k]].internal++;
        }
    }
  for (guint m = first; m < counts->len; m++)
    {
      BlockCount *c = &g_array_index (counts, BlockCount, m);

      c->count.internal = tally[c->block].internal;
      c->count.external = tally[c->block].external;
      tally[c->block].internal = tally[c->block].external = 0;
    }
  return transitions;
}

/* Whether static block @w's type has a cascade kernel that takes its
 * output's one receiver. */
static gboolean
kernel_takes (const QdSimulation *sim,
              guint               w)
{
  const QdHot *h = &sim->hot[w];
  const QdBlockFastPaths *fast = sim->atomics[w].type->fast;

  return fast != NULL && fast->cascade != NULL
         && fast->cascade_accepts != NULL
         && h->sole_receiver != QD_NO_RECEIVER
         && !sim->hot[h->sole_receiver].is_static
         && fast->cascade_accepts (&sim->atomics[w],
                                   &sim->atomics[h->sole_receiver],
                                   h->sole_port);
}

/* @op run through its type's cascade kernel when the kernel takes it:
 * its pair appended to @pairs. */
static void
set_kernel (QdSimulation *sim,
            QdChainOp    *op,
            GArray       *pairs)
{
  const QdBlockType *type = sim->atomics[op->block].type;
  QdCascadePair pair = { NULL, NULL, { { NULL } } };
  int kernel;

  if (!kernel_takes (sim, op->block)
      || (kernel = qd_simulation_kernel_index (sim, type)) < 0)
    return;
  pair.block = &sim->atomics[op->block];
  pair.receiver = &sim->atomics[sim->hot[op->block].sole_receiver];
  if (type->fast->cascade_prepare != NULL)
    type->fast->cascade_prepare (&pair);
  op->pair = pairs->len;
  op->kernel = (guint32) kernel;
  g_array_append_val (pairs, pair);
}

/* Appends block @i's program (its @n chain blocks @seq) to @ops, with
 * its header, its counts to @counts and its kernels' pairs to @pairs. */
static void
append_program (QdSimulation  *sim,
                guint          i,
                const guint32 *seq,
                guint          n,
                QdChainCount  *tally,
                GArray        *ops,
                GArray        *counts,
                GArray        *pairs)
{
  guint head = ops->len;
  QdChainOp op = { add_counts (sim, i, seq, n, tally, counts), 0,
                   QD_NO_PAIRS, 0 };
  guint32 m;

  /* Each count is stored once the receivers are appended: appending may
   * move the array. */
  g_array_append_val (ops, op);
  m = append_dynamic (sim, ops, sim->out_base[i]);
  g_array_index (ops, QdChainOp, head).arg = m;
  for (guint k = 0; k < n; k++)
    {
      guint at = ops->len;

      op.block = seq[k];
      op.arg = 0;
      op.pair = QD_NO_PAIRS;
      op.kernel = 0;
      set_kernel (sim, &op, pairs);
      g_array_append_val (ops, op);
      m = append_dynamic (sim, ops, sim->out_base[seq[k]]);
      g_array_index (ops, QdChainOp, at).arg = m;
    }
}

/* The counts of @counts (BlockCount) into chain_count_start and
 * chain_counts, by block. */
static void
fill_counts (QdSimulation *sim,
             GArray       *counts)
{
  guint m = 0;

  g_array_sort (counts, compare_block_counts);
  sim->chain_count_start = g_new (guint32, sim->n_atomics + 1);
  sim->chain_counts = g_new (QdChainCount, MAX (counts->len, 1));
  for (guint b = 0; b <= sim->n_atomics; b++)
    {
      sim->chain_count_start[b] = m;
      for (; m < counts->len
           && g_array_index (counts, BlockCount, m).block == b; m++)
        sim->chain_counts[m] = g_array_index (counts, BlockCount, m).count;
    }
}

static void
free_chains (QdSimulation *sim)
{
  g_clear_pointer (&sim->chain_start, g_free);
  g_clear_pointer (&sim->chain, g_free);
  g_clear_pointer (&sim->chain_misses, g_free);
  g_clear_pointer (&sim->chain_op_start, g_free);
  g_clear_pointer (&sim->chain_ops, g_free);
  g_clear_pointer (&sim->chain_runs, g_free);
  g_clear_pointer (&sim->chain_count_start, g_free);
  g_clear_pointer (&sim->chain_counts, g_free);
  g_clear_pointer (&sim->chain_pairs, g_aligned_free);
}

void
qd_simulation_fill_chains (QdSimulation *sim)
{
  guint32 seq[QD_CHAIN_MAX];
  GArray *chain = g_array_new (FALSE, FALSE, sizeof (guint32));
  GArray *ops = g_array_new (FALSE, FALSE, sizeof (QdChainOp));
  GArray *counts = g_array_new (FALSE, FALSE, sizeof (BlockCount));
  GArray *pairs = g_array_new (FALSE, FALSE, sizeof (QdCascadePair));
  QdChainCount *tally = NULL;   /* per block, once a chain is found */

  free_chains (sim);
  sim->chain_start = g_new (guint32, sim->n_atomics + 1);
  sim->chain_op_start = g_new (guint32, sim->n_atomics + 1);
  for (guint i = 0; i < sim->n_atomics; i++)
    {
      const QdHot *h = &sim->hot[i];
      guint n = 0;

      sim->chain_start[i] = chain->len;
      sim->chain_op_start[i] = ops->len;
      /* A static block's own cascade goes on from the queue (the loop's
       * inner loop runs it), and a fusable one takes run_cascade(). */
      if (!h->is_static && h->n_out > 0 && !h->fused_out0)
        n = play_chain (sim, i, seq);
      /* One static block after the event costs the queue little: a
       * chain of one measured 1.3 % more instructions than the queue
       * (bouncing-ball-restitution). */
      if (n < 2)
        continue;
      if (tally == NULL)
        tally = g_new0 (QdChainCount, sim->n_atomics);
      g_array_append_vals (chain, seq, n);
      append_program (sim, i, seq, n, tally, ops, counts, pairs);
    }
  sim->chain_start[sim->n_atomics] = chain->len;
  sim->chain_op_start[sim->n_atomics] = ops->len;
  g_free (tally);
  /* Without any chain (the LC line: every cascade is fusable), no 4 bytes
   * per block for nothing. */
  if (chain->len == 0)
    {
      g_clear_pointer (&sim->chain_start, g_free);
      g_clear_pointer (&sim->chain_op_start, g_free);
    }
  else
    {
      sim->chain_misses = g_new0 (guint8, sim->n_atomics);
      sim->chain_runs = g_new0 (guint64, sim->n_atomics);
      fill_counts (sim, counts);
    }
  sim->chain = (guint32 *) g_array_free (chain, chain->len == 0);
  sim->chain_ops = (QdChainOp *) g_array_free (ops, ops->len == 0);
  g_array_free (counts, TRUE);
  if (pairs->len > 0)
    {
      sim->chain_pairs = g_aligned_alloc (pairs->len, sizeof (QdCascadePair),
                                          64);
      memcpy (sim->chain_pairs, pairs->data,
              pairs->len * sizeof (QdCascadePair));
    }
  g_array_free (pairs, TRUE);
}

guint
qd_simulation_chain_pending (const QdSimulation *sim,
                             guint               i,
                             guint               done,
                             gboolean            popped,
                             guint32            *out)
{
  const guint32 *seq = &sim->chain[sim->chain_start[i]];
  Pending p = { .n = 0 };

  /* The chain was played to the end once: no step runs out of room. */
  pending_add_receivers (sim, &p, sim->out_base[i]);
  for (guint k = 0; k < done; k++)
    {
      pending_pop (&p);
      pending_add_receivers (sim, &p, sim->out_base[seq[k]]);
    }
  if (popped)
    pending_pop (&p);
  memcpy (out, p.block, p.n * sizeof p.block[0]);
  return p.n;
}

/* Adds 1 to the counter @low of block @i, carrying into @high. */
static inline void
count_one (guint32 *low,
           guint32 *high)
{
  if (G_UNLIKELY (++*low == 0))
    ++*high;
}

guint64
qd_simulation_chain_count (QdSimulation *sim,
                           guint         i,
                           guint         done,
                           gboolean      popped)
{
  const guint32 *seq = &sim->chain[sim->chain_start[i]];
  guint64 transitions = done + (popped ? 1 : 0);

  for (guint k = 0; k <= done; k++)
    {
      guint s = sim->out_base[k == 0 ? i : seq[k - 1]];

      transitions += sim->fan_start[s + 1] - sim->fan_start[s];
      for (guint e = sim->fan_start[s]; e < sim->fan_start[s + 1]; e++)
        {
          guint w = sim->fanout[e].receiver;

          count_one (&sim->hot[w].n_external, &sim->n_external_hi[w]);
        }
      if (k < done || popped)
        count_one (&sim->hot[seq[k]].n_internal, &sim->n_internal_hi[seq[k]]);
    }
  return transitions;
}

void
qd_simulation_chain_stats (const QdSimulation *sim,
                           guint               index,
                           guint64            *internal,
                           guint64            *external)
{
  if (sim->chain_count_start == NULL)
    return;
  for (guint m = sim->chain_count_start[index];
       m < sim->chain_count_start[index + 1]; m++)
    {
      const QdChainCount *c = &sim->chain_counts[m];

      *internal += sim->chain_runs[c->owner] * c->internal;
      *external += sim->chain_runs[c->owner] * c->external;
    }
}

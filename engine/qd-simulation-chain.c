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

void
qd_simulation_fill_chains (QdSimulation *sim)
{
  guint32 seq[QD_CHAIN_MAX];
  GArray *chain = g_array_new (FALSE, FALSE, sizeof (guint32));

  g_free (sim->chain_start);
  g_free (sim->chain);
  g_free (sim->chain_misses);
  sim->chain = NULL;
  sim->chain_misses = NULL;
  sim->chain_start = g_new (guint32, sim->n_atomics + 1);
  for (guint i = 0; i < sim->n_atomics; i++)
    {
      const QdHot *h = &sim->hot[i];
      guint n = 0;

      sim->chain_start[i] = chain->len;
      /* A static block's own cascade goes on from the queue (the loop's
       * inner loop runs it), and a fusable one takes run_cascade(). */
      if (!h->is_static && h->n_out > 0 && !h->fused_out0)
        n = play_chain (sim, i, seq);
      /* One static block after the event costs the queue little: a
       * chain of one measured 1.3 % more instructions than the queue
       * (bouncing-ball-restitution). */
      if (n < 2)
        n = 0;
      g_array_append_vals (chain, seq, n);
    }
  sim->chain_start[sim->n_atomics] = chain->len;
  /* Without any chain (the LC line: every cascade is fusable), no 4 bytes
   * per block for nothing. */
  if (chain->len == 0)
    g_clear_pointer (&sim->chain_start, g_free);
  else
    sim->chain_misses = g_new0 (guint8, sim->n_atomics);
  sim->chain = (guint32 *) g_array_free (chain, chain->len == 0);
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

/* qd-simulation.c: the DEVS event loop of a compiled diagram
 *
 * One event, at time t, of the imminent block i (the block with the
 * earliest next time; among equal times the lowest index, i.e. the highest
 * priority):
 *
 *   mask = lambda (i, t); dint (i, t); tl[i] = t; reschedule i;
 *   for each port p in mask, for each receiver (j, q) of output p, in
 *   receiver order:
 *     dext (j, t, t - tl[j], q, &out[p]); tl[j] = t; reschedule j.
 *
 * Scheduling. Next event times live in two structures:
 *
 *  - the time heap (qd-heap.h), an indexed 4-ary heap of (time, index)
 *    whose keys change in place; passive blocks (ta = QD_INF) are not in
 *    it;
 *  - the "now" queue: blocks whose next event is at the current event time
 *    (ta = 0 after a transition), a short array of block indices sorted
 *    in decreasing order (the next one is the last). When it is full,
 *    further blocks due now go into the time heap at the current time,
 *    which orders them the same way.
 *
 * A zero-time cascade through static blocks (integrator -> WSum ->
 * integrator) is the common case; with the now queue it costs no main
 * heap operation: the static block goes from passive into the now queue
 * and back to passive. The imminent is the lower index of the now queue's
 * top and the heap's top when the heap's top is at the current time.
 *
 * Static blocks (QD_BLOCK_STATIC, qd-block-type.h) declare that their
 * state is only "passive" or "output due now". The loop keeps that phase
 * itself: their external transition is the move into the now queue, their
 * internal transition the move out of it, and only their lambda is
 * called. The transitions are the same, in the same order, and are
 * counted as before. After every event an inner loop runs the static
 * blocks of the now queue for as long as they are the imminent ones,
 * without the general path's bookkeeping (run_loop()).
 *
 * The commonest cascade of all, a block whose output goes only to static
 * blocks that feed only non-static ones (an integrator feeding the WSum
 * blocks of its neighbours), is run without the now queue when nothing
 * else is due at that time (run_cascade()): the static blocks would be
 * the next events anyway, in index order, so each is run at once, with
 * its transitions counted as the loop counts them, and falls back to the
 * queue the moment another block becomes due now.
 * Deeper cascades, and those of a block that also feeds non-static
 * ones (Lotka–Volterra: integrator -> Products -> WSums -> integrators,
 * and a Scope), follow a static chain instead (run_chain()): the order
 * in which the now queue would run their static blocks, played once from
 * the wiring (qd-simulation-chain.c), left for the queue the moment the
 * run departs from it.
 * qd_simulation_set_fused_cascades() turns both off for comparison;
 * tests/test-cascade.c holds the two ways to the same results.
 *
 * Other blocks are called through their fused functions (fire: lambda,
 * dint and ta; dext_ta: dext and ta), the block type's own when it has
 * them (the integrator), otherwise wrappers of its separate functions.
 *
 * Entries of the now queue are removed lazily: when a block in it is
 * rescheduled elsewhere, only its `where` changes, and the stale entry is
 * dropped when it reaches the end (`in_now` says an entry exists, so a
 * block is never queued twice).
 *
 * Everything the loop needs of a block per transition is in its QdHot
 * (qd-simulation-private.h): one cache line.
 *
 * Nothing here allocates once the simulation is initialized.
 *
 * Progress for other threads: the loop keeps its counters in locals and
 * publishes them (and the time, as its bit pattern) every 1024 events and
 * on return, with relaxed 64-bit atomic stores; readers use relaxed atomic
 * loads. The same check reads the stop flag.
 *
 * Everything the loop calls in its hot path is in this file, or inline in
 * qd-simulation-schedule.h (the now queue and the heap: schedule()), so
 * that GCC inlines it into the loop (run_loop_small(), run_loop_large()):
 * the first scheduling of the blocks (initialize()) is here too, for it
 * uses the loop's schedule(). Creating and freeing a simulation is in
 * qd-simulation-setup.c; the public run calls, getters and statistics,
 * the blocks' services and the messages of a failed run (called from the
 * loop out of line) in qd-simulation-run.c.
 */
#include <glib/gi18n-lib.h>
#include <string.h>

#include "qd-classic-private.h"
#include "qd-classic-rhs-private.h"
#include "qd-simulation-private.h"
#include "qd-simulation-schedule.h"

#define CHECK_INTERVAL 1024

G_NO_INLINE void
qd_simulation_publish (QdSimulation *sim)
{
  guint64 bits;

  memcpy (&bits, &sim->time, sizeof bits);
  __atomic_store_n (&sim->pub_time, bits, __ATOMIC_RELAXED);
  __atomic_store_n (&sim->pub_events, sim->events, __ATOMIC_RELAXED);
  __atomic_store_n (&sim->pub_transitions, sim->transitions, __ATOMIC_RELAXED);
  __atomic_store_n (&sim->pub_steps, sim->integrator_steps, __ATOMIC_RELAXED);
}

/* TRUE when every coefficient of @sig is finite: x - x is 0 for a finite
 * x and NaN otherwise. The coefficients above the order are zero, so all
 * four can be summed without looking at the order; as two pairs (GCC's
 * vector extension: two packed subtractions and one addition on x86-64)
 * it is a handful of instructions per emitted segment. */
typedef double QdPair __attribute__ ((vector_size (16)));

static inline gboolean
signal_is_finite (const QdSignal *sig)
{
  QdPair lo, hi, d;

  memcpy (&lo, &sig->c[0], sizeof lo);
  memcpy (&hi, &sig->c[2], sizeof hi);
  d = (lo - lo) + (hi - hi);
  return d[0] + d[1] == 0.0;
}

/* signal_is_finite() of a segment a block has just written, loaded one
 * coefficient at a time: the block stored them one by one, and a 16-byte
 * load of two 8-byte stores still in flight cannot take their values
 * from the store buffer; it waits until they reach the cache. Right
 * after a static block's lambda (run_chain()) that wait was half of the
 * chain's time in Lotka–Volterra (perf); where the loop does other work
 * between the two (the integrator's output in run_cascade()), the packed
 * form's fewer instructions are the better. The empty asm statement
 * keeps GCC from merging the loads again. */
static inline gboolean
signal_is_finite_stored (const QdSignal *sig)
{
  double c0 = sig->c[0], c1 = sig->c[1], c2 = sig->c[2], c3 = sig->c[3];

  __asm__ ("" : "+x" (c0), "+x" (c1), "+x" (c2), "+x" (c3));
  return ((c0 - c0) + (c1 - c1)) + ((c2 - c2) + (c3 - c3)) == 0.0;
}

/* The external transitions caused by the outputs @mask of block @i at
 * @t: for each port, in order, each receiver in receiver order. With
 * @logged (a constant), each is reported to the event log as part of
 * internal event @event. */
G_ALWAYS_INLINE static inline void
fan_out (QdSimulation   *sim,
         const QdHot    *h,
         guint           i,
         double          t,
         guint64         mask,
         guint64        *transitions,
         guint64         event,
         const gboolean  logged)
{
  QdHot *hot = sim->hot;

  while (mask != 0)
    {
      guint p = (guint) __builtin_ctzll (mask);
      guint s = h->out_base + p;
      const QdSignal *sig = &sim->signals[s];
      guint e = sim->fan_start[s], end = sim->fan_start[s + 1];

      mask &= mask - 1;
      if (G_UNLIKELY (p >= h->n_out))
        break;
      if (G_UNLIKELY (!signal_is_finite (sig)))
        {
          qd_simulation_fail_numeric (sim, i, sig, t);
          break;
        }
      *transitions += end - e;
      for (; e < end; e++)
        {
          guint j = sim->fanout[e].receiver;
          QdHot *r = &hot[j];

          /* A static receiver's external transition makes its output due
           * now; there is nothing else to it. */
          if (r->is_static)
            {
              schedule_now (sim, r, j, t);
              if (logged)
                qd_simulation_log_transition (sim, QD_LOG_EXTERNAL, event,
                                              j, t, sim->fanout[e].port, sig,
                                              0.0);
            }
          else
            {
              double ta = r->dext_ta (&sim->atomics[j], t, t - r->tl,
                                      sim->fanout[e].port, sig);

              schedule (sim, r, j, t, ta);
              r->tl = t;
              if (logged)
                qd_simulation_log_transition (sim, QD_LOG_EXTERNAL, event,
                                              j, t, sim->fanout[e].port, sig,
                                              ta);
            }
          if (G_UNLIKELY (++r->n_external == 0))
            sim->n_external_hi[j]++;
        }
    }
}

/* Asks for the cache lines of block @i: its QdHot, its QdAtomic and the
 * first two lines of its record (its state; a static block's inputs and
 * parameters follow it). The record's address comes from an array of its
 * own (8 bytes per block) rather than from the QdAtomic, whose line is
 * not there yet. */
G_ALWAYS_INLINE static inline void
prefetch_block (QdSimulation *sim,
                guint         i)
{
  /* As an integer: a block without state may have none (NULL), and the
   * second line may lie past it; a prefetch of any address is harmless. */
  guintptr state = (guintptr) sim->state_of[i];

  __builtin_prefetch (&sim->hot[i]);
  __builtin_prefetch (&sim->atomics[i]);
  __builtin_prefetch ((gconstpointer) state);
  __builtin_prefetch ((gconstpointer) (state + 64));
}

/* Asks for the cache lines the next event will need while the current
 * event's fan-out runs. The heap's top is usually the next imminent
 * block; in a large model whose events hop across all blocks
 * (lcline-random with N = 10^4 and more), each of its lines, and those
 * of the blocks its output reaches, is otherwise a miss the next event
 * waits for. Beyond the top's own lines and output segment, the static
 * blocks its first output feeds are asked for as well, but only in
 * models whose loop data outgrows the level-2 cache
 * (QD_PREFETCH_DEEP_BLOCKS blocks, some 600 bytes each): with 2000
 * to 6000 blocks (lcline-random, N = 1000 to 3000) the deeper prefetch
 * won 94 of 135 alternating pairs of runs (medians from 7 % slower to
 * 19 % faster). The addresses come from the top's QdPrefetchLine, one
 * line read, rather than from the wiring's arrays, which were a chain of
 * four dependent reads and some 57 instructions per step
 * (docs/performance.md, fifth round). QD_PREFETCH_DEEP_BLOCKS is in
 * qd-simulation-private.h. */

G_ALWAYS_INLINE static inline void
prefetch_next (QdSimulation *sim)
{
  guint next = qd_heap_top_id (&sim->heap);
  const QdPrefetchLine *l;
  guintptr base, signals;
  guint s, pairs;

  if (G_UNLIKELY (next >= sim->n_atomics))
    return;
  if (sim->prefetch == NULL)
    {
      /* A small model, or one too large for the lines to pay
       * (QD_PREFETCH_LINE_BLOCKS) or for their 32-bit offsets
       * (fill_prefetch()): the same lines through the wiring. */
      prefetch_block (sim, next);
      s = sim->out_base[next];
      __builtin_prefetch (&sim->signals[s]);
      if (sim->n_atomics < QD_PREFETCH_DEEP_BLOCKS
          || s == sim->out_base[next + 1])
        return;
      /* A 48-byte segment may lie across two lines; here, and for the
       * receivers below, their second is asked for too. */
      __builtin_prefetch ((const char *) &sim->signals[s] + 40);
      pairs = sim->hot[next].pairs;
      for (guint e = sim->fan_start[s],
           end = MIN (sim->fan_start[s + 1], e + QD_PREFETCH_RECEIVERS);
           e < end; e++)
        {
          guint w = sim->fanout[e].receiver;

          /* With a cascade kernel, the static block's pair holds what
           * the kernel reads of it: its QdAtomic and record are not
           * needed, nor the load of their address. */
          if (pairs != QD_NO_PAIRS)
            {
              __builtin_prefetch (&sim->kernel_pairs[pairs++]);
              __builtin_prefetch (&sim->hot[w]);
            }
          else
            prefetch_block (sim, w);
          __builtin_prefetch (&sim->signals[sim->out_base[w]]);
          __builtin_prefetch ((const char *) &sim->signals[sim->out_base[w]]
                              + 40);
        }
      return;
    }

  l = &sim->prefetch[next];
  base = (guintptr) l->base;
  signals = (guintptr) sim->signals;
  __builtin_prefetch (&sim->hot[next]);
  __builtin_prefetch (&sim->atomics[next]);
  __builtin_prefetch ((gconstpointer) base);
  __builtin_prefetch ((gconstpointer) (base + 64));
  __builtin_prefetch ((gconstpointer) (signals + l->signal));
  if (l->receiver[0] == QD_NO_RECEIVER)
    return;
  /* The pairs of its cascade kernel, if it has one: the kernel's first
   * loads (without kernels, an address near 0, harmless and cheaper than
   * the test). */
  __builtin_prefetch ((gconstpointer) ((guintptr) sim->kernel_pairs
                                       + l->pairs));
  for (guint k = 0;
       k < QD_PREFETCH_RECEIVERS && l->receiver[k] != QD_NO_RECEIVER; k++)
    {
      guint w = l->receiver[k];
      guintptr state = base + (guintptr) (gintptr) l->receiver_state[k];

      __builtin_prefetch (&sim->hot[w]);
      __builtin_prefetch (&sim->atomics[w]);
      __builtin_prefetch ((gconstpointer) state);
      __builtin_prefetch ((gconstpointer) (state + 64));
      __builtin_prefetch ((gconstpointer) (signals
                                           + l->receiver_signal[k]));
    }
}

/* The second stage of prefetch_next() in large models (run_loop() calls
 * it after a cascade kernel has run a whole cascade, from
 * QD_PREFETCH_LINE_BLOCKS blocks, where the lines of block data a step
 * reads are misses to memory): once the current event is done, the lines
 * the next one's cascade kernel will reach through what the first stage
 * fetched. Its pair lines asked for then have arrived by now, so the
 * kernel's type can ask for what it reads through them (the receivers'
 * states and the sums' inputs), and the engine for each receiver's QdHot
 * and heap entries (the entry's line, its parent's and its children's,
 * which qd_heap_update() reads), found through the static blocks' QdHot
 * that the first stage fetched. Without it, each of those is a miss the
 * next event waits for after the pair line's: a chain of two or three
 * latencies. Out of line, and called on the path of a clean cascade
 * only: anywhere else its call cost the headline run (N = 1000, which
 * never takes it) 9 instructions per step. */
G_NO_INLINE static void
prefetch_receivers (QdSimulation *sim)
{
  const QdHeap *heap = &sim->heap;
  guint next = qd_heap_top_id (heap);
  const QdHot *h;
  guint s, e, n;

  if (G_UNLIKELY (next >= sim->n_atomics))
    return;
  h = &sim->hot[next];
  if (h->pairs == QD_NO_PAIRS)
    return;
  s = h->out_base;
  e = sim->fan_start[s];
  n = MIN (sim->fan_start[s + 1] - e, QD_PREFETCH_RECEIVERS);
  if (sim->kernel_prefetch[h->kernel] != NULL)
    sim->kernel_prefetch[h->kernel] (&sim->kernel_pairs[h->pairs], n);
  for (guint k = 0; k < n; k++)
    {
      guint j = sim->hot[sim->fanout[e + k].receiver].sole_receiver;
      guint32 p = heap->pos[j];

      __builtin_prefetch (&sim->hot[j]);
      if (p != QD_HEAP_ABSENT)
        {
          __builtin_prefetch (&heap->entries[p]);
          __builtin_prefetch (&heap->entries[((gssize) p - 1) >> 2]);
          __builtin_prefetch (&heap->entries[(gsize) p * 4 + 1]);
        }
    }
}

/* fan_out() of output 0 alone, for a block whose output has one
 * receiver, which is not a static block (QdHot.sole_receiver): the same
 * checks and the same transition, without the walk over ports and
 * receivers. */
G_ALWAYS_INLINE static inline void
deliver_sole (QdSimulation *sim,
              const QdHot  *h,
              guint         i,
              double        t,
              guint64      *transitions)
{
  const QdSignal *sig = &sim->signals[h->out_base];
  guint j = h->sole_receiver;
  QdHot *r = &sim->hot[j];

  if (G_UNLIKELY (!signal_is_finite (sig)))
    {
      qd_simulation_fail_numeric (sim, i, sig, t);
      return;
    }
  ++*transitions;
  schedule (sim, r, j, t,
            r->dext_ta (&sim->atomics[j], t, t - r->tl, h->sole_port, sig));
  r->tl = t;
  if (G_UNLIKELY (++r->n_external == 0))
    sim->n_external_hi[j]++;
}

/* run_kernel() when the kernel stopped early: @ran static blocks had
 * their output computed, the receivers of the first @done of them their
 * external transition, with their time advances in @ta. What the loop
 * does for each of them, then as run_cascade() leaves the rest. */
G_NO_INLINE static void
finish_kernel (QdSimulation   *sim,
               const QdFanout *fanout,
               guint           n,
               guint           ran,
               guint           done,
               const double   *ta,
               double          t,
               guint64         events)
{
  QdHot *hot = sim->hot;

  for (guint k = 0; k < n; k++)
    {
      guint w = fanout[k].receiver;
      QdHot *h = &hot[w];

      if (G_UNLIKELY (++h->n_external == 0))
        sim->n_external_hi[w]++;
      if (k < ran)
        {
          sim->recent[(events + k) % QD_RECENT_SIZE] = w;
          if (G_UNLIKELY (++h->n_internal == 0))
            sim->n_internal_hi[w]++;
        }
      if (k < done)
        {
          guint j = h->sole_receiver;
          QdHot *r = &hot[j];

          schedule (sim, r, j, t, ta[k]);
          r->tl = t;
          if (G_UNLIKELY (++r->n_external == 0))
            sim->n_external_hi[j]++;
        }
      else if (k == done && ran > done)
        qd_simulation_fail_numeric (sim, w, &sim->signals[h->out_base], t);
      else
        schedule_now (sim, h, w, t);
    }
}

/* run_cascade() through a cascade kernel (QdBlockFastPaths.cascade): the
 * static blocks of the fan-out @fanout (@n of them, all of one type) and
 * the sole receiver of each, in one call of their type's kernel, instead
 * of a call of each one's lambda and of its receiver's dext_ta.
 *
 * Why it is the same run. The kernel does, in the same order, the calls
 * run_cascade() would make: static block k's lambda, then its receiver's
 * external transition. Between two of them run_cascade() does only what
 * is left here for after the call: counting, the receiver's new time in
 * the heap, its tl. None of that is read by the next pair's functions
 * (the blocks read their own states and segments; the heap is ordered by
 * (time, index), so the order of its updates changes no event), and
 * none of it can make run_cascade() stop, except a receiver due at once
 * (t + ta not later than t: the now queue) or failing (a negative or NaN
 * time advance), or an output that is not finite: the kernel stops at
 * exactly those, and the rest is then done as run_cascade() does it
 * (finish_kernel()). A kernel never calls qd_atomic_fail(), so no other
 * error can come from inside it. The transitions are the same and counted
 * the same: every static block's external one (the fan-out), then, for
 * each run, its internal one as an event, and its receiver's external
 * one.
 *
 * Returns TRUE when the kernel ran the whole cascade: then no block has
 * failed and nothing is due now. */
G_ALWAYS_INLINE static inline gboolean
run_kernel (QdSimulation        *sim,
            guint              (*cascade) (const QdCascadePair *pairs,
                                           guint                n,
                                           double               t,
                                           double              *ta),
            const QdCascadePair *pairs,
            const QdFanout      *fanout,
            guint                n,
            double               t,
            guint64             *events,
            guint64             *transitions,
            guint64             *same_time)
{
  QdHot *hot = sim->hot;
  double ta[QD_KERNEL_MAX];
  guint64 ev = *events;
  guint done, ran;
  QdHeapEntry *entries;
  const guint32 *pos;
  gsize heap_n;

  done = cascade (pairs, n, t, ta);
  if (G_UNLIKELY (done != n))
    {
      /* Stopped on an output that is not finite (its block has run its
       * lambda) unless on a receiver due now or failing. */
      ran = done;
      if (done == 0 || t + ta[done - 1] > t)
        ran++;
      *transitions += n + ran + done;
      *same_time += ran;
      *events = ev + ran;
      finish_kernel (sim, fanout, n, ran, done, ta, t, ev);
      return FALSE;
    }
  *transitions += 3 * n;
  *same_time += n;
  *events = ev + n;
  /* The heap's arrays and size in locals, read again only after an
   * update that takes the slow path (which may move or insert). */
  entries = sim->heap.entries;
  pos = sim->heap.pos;
  heap_n = sim->heap.n;
  for (guint k = 0; k < n; k++)
    {
      guint w = fanout[k].receiver;
      QdHot *h = &hot[w];
      guint j = h->sole_receiver;
      QdHot *r = &hot[j];
      /* The kernel ran every pair: each t + ta[k] is later than t. */
      double tn = t + ta[k];

      sim->recent[(ev + k) % QD_RECENT_SIZE] = w;
      h->kernel_runs++;
      /* The fast path leaves r->where as it was: it moves only a block
       * that is in the heap, and a block is in the heap exactly when its
       * where is QD_SCHED_HEAP (schedule_now(), schedule_other(), the
       * loop). The store it saves was a tenth of the cascade's
       * bookkeeping: 1 ns of about 100 per step on the headline run. */
      if (G_UNLIKELY (!(tn < QD_INF
                        && qd_heap_update_in_place (entries, pos, heap_n, j,
                                                    tn))))
        {
          /* Rare. schedule_later() tries the fast path once more: every
           * leaner form of this branch (the slow path called directly,
           * only the size read again) measured 5 to 7 instructions more
           * per step, the flattened loop's registers allotted
           * otherwise. */
          schedule_later (sim, r, j, t, ta[k]);
          entries = sim->heap.entries;
          pos = sim->heap.pos;
          heap_n = sim->heap.n;
        }
      r->tl = t;
    }
  return TRUE;
}

/* The fan-out of output 0 of block @i (QdHot.fused_out0: its receivers
 * are static blocks that feed only non-static ones), with the static
 * receivers' events run at once instead of through the now queue.
 *
 * When nothing else is due at @t (the now queue is empty and the heap's
 * top is later), the blocks fan_out() would queue are exactly the next
 * events, in increasing index, and none of them queues another static
 * block. So each one's internal transition is run here, in that order,
 * with the same counts as in the loop: first the external transitions
 * of all of them (the fan-out), then for each its output, its fan-out,
 * and its transition counted as an event. Should one of those fan-outs
 * make a block due now (a time advance of 0), or a block fail, the
 * static blocks not yet run are queued as fan_out() would have left
 * them, and the loop goes on from the queue in the same order.
 *
 * Returns 0, having done nothing, when the conditions do not hold:
 * something else is due at @t, the run would pass its event limit or its
 * illegitimacy limit within the cascade, or the segment is not finite
 * (fan_out() reports that). Otherwise CASCADE_CLEAN when a kernel ran the
 * whole cascade (no block failed, and nothing is due now), else
 * CASCADE_RUN. */
enum
{
  CASCADE_RUN = 1,
  CASCADE_CLEAN = 2,
};

G_ALWAYS_INLINE static inline guint
run_cascade (QdSimulation *sim,
             guint         i,
             double        t,
             guint64       events_end,
             guint64      *events,
             guint64      *transitions,
             guint64      *same_time)
{
  QdHot *hot = sim->hot;
  const QdFanout *fanout = sim->fanout;
  guint s = hot[i].out_base;
  guint e = sim->fan_start[s], end = sim->fan_start[s + 1];
  guint n = end - e;

  now_clean (sim);
  if (sim->now_len != 0
      || sim->heap.entries[0].key <= sim->t_event_key
      || n > events_end - *events
      || *same_time + n > sim->illegitimacy_limit
      || !signal_is_finite (&sim->signals[s]))
    return 0;

  /* The kernel when there is one and no block has failed (the fired
   * block itself may have: the loop below then queues them all). */
  if (G_LIKELY (hot[i].pairs != QD_NO_PAIRS && sim->fail_error == NULL))
    return run_kernel (sim, sim->kernels[hot[i].kernel],
                       &sim->kernel_pairs[hot[i].pairs],
                       &fanout[e], n, t,
                       events, transitions, same_time)
           ? CASCADE_CLEAN : CASCADE_RUN;

  *transitions += n;
  for (guint k = e; k < end; k++)
    {
      guint j = fanout[k].receiver;

      if (G_UNLIKELY (++hot[j].n_external == 0))
        sim->n_external_hi[j]++;
    }
  for (guint k = e; k < end; k++)
    {
      guint j = fanout[k].receiver;
      QdHot *r = &hot[j];
      guint64 mask;

      if (G_UNLIKELY (sim->now_len != 0 || sim->fail_error != NULL))
        {
          for (; k < end; k++)
            schedule_now (sim, &hot[fanout[k].receiver],
                          fanout[k].receiver, t);
          break;
        }
      ++*same_time;
      sim->recent[*events % QD_RECENT_SIZE] = j;
      ++*events;
      ++*transitions;
      if (G_UNLIKELY (++r->n_internal == 0))
        sim->n_internal_hi[j]++;
      mask = r->lambda (&sim->atomics[j], t);
      if (G_LIKELY (mask == 1 && r->sole_receiver != QD_NO_RECEIVER))
        deliver_sole (sim, r, j, t, transitions);
      else
        fan_out (sim, r, j, t, mask, transitions, 0, FALSE);
    }
  return CASCADE_RUN;
}

/* What follows the external transition of the non-static block @j at
 * @t in a static chain, with @ta its time advance. */
G_ALWAYS_INLINE static inline void
chain_received (QdSimulation *sim,
                QdHot        *r,
                guint         j,
                double        t,
                double        ta)
{
  /* A passive block staying passive (a Scope) is where it belongs:
   * schedule() would only call schedule_other(). */
  if (!(ta == QD_INF && r->where == QD_SCHED_NONE))
    schedule (sim, r, j, t, ta);
  r->tl = t;
}

/* The external transitions of the @n non-static receivers @op (block
 * and port) of the segment @sig (finite) in a static chain, as fan_out()
 * makes them, but uncounted: run_chain() counts a whole chain at once.
 * Returns the op after them. */
G_ALWAYS_INLINE static inline const QdChainOp *
chain_deliver (QdSimulation    *sim,
               const QdChainOp *op,
               guint            n,
               const QdSignal  *sig,
               double           t)
{
  for (const QdChainOp *end = op + n; op < end; op++)
    {
      guint j = op->block;
      QdHot *r = &sim->hot[j];

      chain_received (sim, r, j, t,
                      r->dext_ta (&sim->atomics[j], t, t - r->tl, op->arg,
                                  sig));
    }
  return op;
}

/* run_chain() leaving its chain after @done blocks (and, with @popped,
 * the next one's output): the transitions made so far are counted, the
 * static blocks the now queue would hold then are put in it, and the
 * loop goes on from there. Returns the number of those transitions. */
G_NO_INLINE static guint64
chain_leave (QdSimulation *sim,
             guint         i,
             guint         done,
             gboolean      popped,
             double        t)
{
  guint32 pending[QD_CHAIN_MAX];
  guint n = qd_simulation_chain_pending (sim, i, done, popped, pending);

  for (guint k = 0; k < n; k++)
    schedule_now (sim, &sim->hot[pending[k]], pending[k], t);
  /* A chain left more than one run in four is slower than the queue
   * (buck-converter, whose receivers are often due at once, 8 % more
   * instructions): its block goes back to the queue. Either way is the
   * same run. (Each run took 1 off.) */
  sim->chain_misses[i] += 4;
  if (sim->chain_misses[i] >= QD_CHAIN_MISSES_MAX)
    sim->hot[i].fused_out0 = 0;
  return qd_simulation_chain_count (sim, i, done, popped);
}

/* The fan-out of output 0 of block @i (QdHot.fused_out0 is
 * QD_FUSED_CHAIN) and the zero-time cascade of static blocks it sets
 * off, run in the order of its chain (qd-simulation-chain.c) without the
 * now queue.
 *
 * Why it is the same run. When nothing else is due at @t, the general
 * loop runs exactly the chain's blocks in the chain's order as long as
 * each emits its output 0 (a mask of 1) and its segment is finite, no
 * non-static receiver becomes due at @t (a time advance of 0), and no
 * block fails: the chain was played from the same wiring under the same
 * rule (lowest index first), and a static block's external transition
 * only queues it, which the chain's program leaves out. Every other
 * transition is made here as fan_out() makes it, in the same order. A
 * whole run is counted once, in chain_runs (qd_simulation_chain_stats()
 * hands its share to each block). When one of those conditions breaks,
 * the transitions so far are counted one by one, the static blocks the
 * queue would hold at that point are queued (chain_leave()) and the loop
 * goes on from the queue, as after run_cascade().
 *
 * Its result's @how is 0, having done nothing, when something else is
 * due at @t, the chain would pass the event limit or the illegitimacy
 * limit, a block has failed or the segment is not finite (fan_out()
 * reports that); CASCADE_CLEAN when the whole chain ran, else
 * CASCADE_RUN; with the events run and the transitions made. Out of line
 * and returning the counts (in two registers) rather than updating the
 * loop's through pointers, which would keep those in memory throughout
 * the loop: that cost the LC line 25 instructions per step. */
typedef struct
{
  guint64 transitions;
  guint32 events;
  guint32 how;
} QdChainRun;

G_NO_INLINE static QdChainRun
run_chain (QdSimulation *sim,
           guint         i,
           double        t,
           guint64       events,
           guint64       events_end,
           guint64       same_time)
{
  QdHot *hot = sim->hot;
  guint n = sim->chain_start[i + 1] - sim->chain_start[i];
  const QdChainOp *op = &sim->chain_ops[sim->chain_op_start[i]];
  QdChainRun run = { 0, 0, 0 };
  guint k;

  now_clean (sim);
  if (sim->now_len != 0
      || sim->heap.entries[0].key <= sim->t_event_key
      || n > events_end - events
      || same_time + n > sim->illegitimacy_limit
      || sim->fail_error != NULL
      || !signal_is_finite_stored (&sim->signals[hot[i].out_base]))
    return run;

  if (G_UNLIKELY (sim->chain_misses[i] != 0))
    sim->chain_misses[i]--;
  run.transitions = op->block;
  op = chain_deliver (sim, op + 1, op->arg, &sim->signals[hot[i].out_base],
                      t);
  for (k = 0; k < n; k++)
    {
      guint j = op->block;
      QdHot *r = &hot[j];
      const QdSignal *sig;
      guint64 mask;

      if (G_UNLIKELY (sim->now_len != 0 || sim->fail_error != NULL))
        {
          run.transitions = chain_leave (sim, i, k, FALSE, t);
          break;
        }
      sim->recent[(events + k) % QD_RECENT_SIZE] = j;
      if (op->pair != QD_NO_PAIRS)
        {
          /* Its lambda and its one receiver's external transition in one
           * call of its type's kernel, which stops before the transition
           * when the output is not finite (a kernel's output is its
           * output 0 alone): left as below, with the same mask. */
          double ta;

          if (G_LIKELY (sim->kernels[op->kernel] (&sim->chain_pairs[op->pair],
                                                  1, t, &ta) == 1))
            {
              chain_received (sim, &hot[op[1].block], op[1].block, t, ta);
              op += 2;
              continue;
            }
          mask = 1;
        }
      else
        mask = r->lambda (&sim->atomics[j], t);
      sig = &sim->signals[r->out_base];
      if (G_UNLIKELY (mask != 1 || !signal_is_finite_stored (sig)))
        {
          run.transitions = chain_leave (sim, i, k, TRUE, t);
          fan_out (sim, r, j, t, mask, &run.transitions, events + k + 1,
                   FALSE);
          k++;
          break;
        }
      op = chain_deliver (sim, op + 1, op->arg, sig, t);
    }
  run.events = k;
  if (k == n)
    {
      sim->chain_runs[i]++;
      run.how = sim->now_len != 0 || sim->fail_error != NULL
                ? CASCADE_RUN : CASCADE_CLEAN;
    }
  else
    run.how = CASCADE_RUN;
  return run;
}

/* The internal transition of the non-static block @i, the heap's top,
 * in a large model (run_loop_large()): the top's hole is sunk to a leaf
 * first, so that the next event (the new top) is known, and its lines
 * asked for (prefetch_next()), before the block's own work rather than
 * after it; its new time then fills the hole. Where every line a step
 * reads is a miss (lcline-random QSS2), that head start took 3 to 18 %
 * off the time per step at N = 10^4, 4 to 8 % at 10^5 and 16 % at 10^6
 * (the least of alternating runs, several comparisons each); at
 * N = 1000, where the lines are in the level-2 cache, the sink in front
 * of the block's work cost 7 %, and run_loop_small() does not do it. */
G_ALWAYS_INLINE static inline guint64
fire_sunk (QdSimulation *sim,
           QdHot        *h,
           guint         i,
           QdAtomic     *a,
           double        t)
{
  guint hole = qd_heap_sink_top (&sim->heap);
  double ta, tn;
  guint64 mask;

  prefetch_next (sim);
  mask = h->fire (a, t, &ta);
  tn = t + ta;
  if (tn > t && tn < QD_INF)
    qd_heap_fill_hole (&sim->heap, hole, i, tn);
  else
    {
      /* Out of the heap, as schedule() expects of a block whose where
       * says so. */
      qd_heap_drop_hole (&sim->heap, hole, i);
      h->where = QD_SCHED_NONE;
      schedule (sim, h, i, t, ta);
    }
  h->tl = t;
  return mask;
}

/* The loop: events with time < @t_limit, at most @max_events of them.
 *
 * Written for the zero-time cascade. After each event, the static blocks
 * it made due are run by an inner loop for as long as the now queue's
 * next entry is a static block and is the imminent one (the heap's top is
 * later, or at the same time with a higher index): each costs one 128-bit
 * comparison with the heap's top, the call of its lambda and the fan-out,
 * without the general path's choice between the queue and the heap, its
 * clock update and its rescheduling. The order of events is exactly the
 * general path's. Few values live across the blocks' calls (the ring of
 * recent blocks is indexed by the event count, the periodic check is a
 * mask of it), so that they stay in registers.
 *
 * Flattened (in run_loop_small(), run_loop_large() and run_loop_tiny(),
 * which compile it for @large and @tiny constant): everything it calls that is not marked
 * G_NO_INLINE is inlined into it. Once the loop is large, GCC stops
 * inlining the heap's inline test of a receiver's new time
 * (qd_heap_update()) into it, and a call costs about 10 instructions per
 * receiver, two per integrator step of a QSS model; the rare paths are
 * kept out of line.
 *
 * With @logged (a constant, run_loop_logged()), every transition goes to
 * the event log, and no cascade is fused: the static blocks' events go
 * through the now queue one by one, as the general path runs them.
 *
 * One long function on purpose: split into always-inline helpers (the
 * choice of the imminent block, the clock, the transition, the cascade,
 * the periodic check), the same loop took 1.9 % more instructions in
 * run_loop_small() on the advection model (callgrind), and each way of
 * splitting it tried changed that count. */
G_ALWAYS_INLINE static inline QdRunStatus
run_loop_for (QdSimulation   *sim,
              double          t_limit,
              guint64         max_events,
              GError        **error,
              const gboolean  large,
              const gboolean  tiny,
              const gboolean  logged)
{
  QdHot *hot = sim->hot;
  /* Counters in locals: the blocks' functions, called through pointers,
   * could otherwise make the compiler reload and store them each time. */
  guint64 events = sim->events;
  guint64 transitions = sim->transitions;
  guint64 steps = sim->integrator_steps;
  guint64 same_time = sim->same_time;
  guint64 events_end = max_events > G_MAXUINT64 - events
                       ? G_MAXUINT64 : events + max_events;
  /* The next multiple of CHECK_INTERVAL: a cascade may pass several
   * events at once (run_cascade()). */
  guint64 check_at = events - events % CHECK_INTERVAL + CHECK_INTERVAL;
  QdRunStatus status = QD_RUN_DONE;

  if (g_atomic_int_compare_and_exchange (&sim->stop_requested, 1, 0))
    return QD_RUN_STOPPED;

  for (;;)
    {
      double t;
      guint i;
      gboolean from_now;
      QdHot *h;
      QdAtomic *a;
      guint64 mask;
      guint cascade;

      if (G_UNLIKELY (events >= events_end))
        {
          status = QD_RUN_STEPPED;
          break;
        }

      /* The imminent block: the lowest index among those due now (the
       * now queue's last entry, or the heap's top when it is at the
       * current time with a lower index), otherwise the heap's top. */
      now_clean (sim);
      if (sim->now_len > 0)
        {
          i = sim->now_queue[sim->now_len - 1];
          from_now = !qd_heap_top_before (&sim->heap, sim->t_event_key, i);
          if (!from_now)
            i = qd_heap_top_id (&sim->heap);
          t = sim->t_event;
        }
      else
        {
          if (qd_heap_is_empty (&sim->heap))
            break;
          t = qd_heap_top_time (&sim->heap);
          i = qd_heap_top_id (&sim->heap);
          from_now = FALSE;
        }
      if (!(t < t_limit))
        break;

      if (t > sim->t_event)
        {
          /* Past the guard's window (see t_anchor), or not: then the
           * advance is recorded as one too small for the clock. */
          if (t >= sim->t_reset)
            {
              same_time = 0;
              sim->t_anchor = t;
              sim->t_reset = t + sim->tick;
            }
          else
            {
              sim->lost_block = i;
              sim->lost_ta = t - sim->t_event;
              sim->lost_t = t;
            }
          sim->t_event = t;
          sim->t_event_key = sim->heap.entries[0].key;
          sim->time = t;
        }
      if (G_UNLIKELY (++same_time > sim->illegitimacy_limit))
        {
          same_time--;
          sim->recent_pos = (guint) events;
          qd_simulation_fail_illegitimate (sim, t);
          status = QD_RUN_ERROR;
          break;
        }
      sim->recent[events % QD_RECENT_SIZE] = i;
      h = &hot[i];
      if (from_now)
        {
          /* Out of the queue: it is put back below if its time advance
           * is 0 again. */
          h->in_now = 0;
          h->where = QD_SCHED_NONE;
          sim->now_len--;
        }

      /* Output, internal transition, and the fan-out. A static block's
       * internal transition only makes it passive again, which the loop
       * does itself: it left the now queue above (or, when the queue was
       * full, is taken out of the heap here). */
      a = &sim->atomics[i];
      if (h->is_static)
        {
          mask = h->lambda (a, t);
          if (G_UNLIKELY (h->where != QD_SCHED_NONE))
            schedule (sim, h, i, t, QD_INF);
          if (logged)
            qd_simulation_log_event (sim, events + 1, i, t, mask, QD_INF);
        }
      else if (large && !from_now)
        {
          mask = fire_sunk (sim, h, i, a, t);
          goto fired;
        }
      else
        {
          double ta, tn;

          mask = h->fire (a, t, &ta);
          if (logged)
            qd_simulation_log_event (sim, events + 1, i, t, mask, ta);
          /* The common case: the block was the heap's top and goes to a
           * later time. Otherwise (due now again, passive, an error, or
           * it came from the now queue) the general rescheduling. */
          tn = t + ta;
          if (!from_now && tn > t && tn < QD_INF)
            {
              if (tiny)
                qd_heap_replace_top_small (&sim->heap, tn);
              else
                qd_heap_replace_top (&sim->heap, tn);
            }
          else
            schedule (sim, h, i, t, ta);
          h->tl = t;
        }
      if (!tiny)
        prefetch_next (sim);
    fired:
      if (G_UNLIKELY (++h->n_internal == 0))
        sim->n_internal_hi[i]++;
      events++;
      transitions++;
      steps += h->is_integrator;
      cascade = 0;
      if (!logged && mask == 1 && h->fused_out0 == QD_FUSED_CASCADE)
        cascade = run_cascade (sim, i, t, events_end, &events, &transitions,
                               &same_time);
      else if (!logged && mask == 1 && h->fused_out0 == QD_FUSED_CHAIN)
        {
          QdChainRun run = run_chain (sim, i, t, events, events_end,
                                      same_time);

          events += run.events;
          same_time += run.events;
          transitions += run.transitions;
          cascade = run.how;
        }
      if (cascade == 0)
        fan_out (sim, h, i, t, mask, &transitions, events, logged);
      else if (cascade == CASCADE_CLEAN && events < check_at)
        {
          /* The inner loop below would find no failure and nothing due
           * now. */
          if (large)
            prefetch_receivers (sim);
          continue;
        }

      for (;;)
        {
          if (G_UNLIKELY (sim->fail_error != NULL))
            {
              status = QD_RUN_ERROR;
              goto out;
            }
          if (G_UNLIKELY (events >= check_at))
            {
              check_at = events - events % CHECK_INTERVAL + CHECK_INTERVAL;
              sim->events = events;
              sim->transitions = transitions;
              sim->integrator_steps = steps;
              qd_simulation_publish (sim);
              if (g_atomic_int_compare_and_exchange (&sim->stop_requested,
                                                     1, 0))
                {
                  status = QD_RUN_STOPPED;
                  goto out;
                }
              /* The log was taken off: run_loop() goes on in a loop
               * compiled without it. */
              if (logged && sim->log_func == NULL)
                {
                  sim->log_detached = TRUE;
                  status = QD_RUN_STEPPED;
                  goto out;
                }
            }

          /* The cascade: the next static block due now, if it is the
           * imminent one; anything else goes back to the general path
           * (which also reports an illegitimate model). */
          now_clean (sim);
          if (sim->now_len == 0 || events >= events_end
              || same_time >= sim->illegitimacy_limit)
            break;
          i = sim->now_queue[sim->now_len - 1];
          h = &hot[i];
          if (!h->is_static
              || qd_heap_top_before (&sim->heap, sim->t_event_key, i))
            break;
          same_time++;
          sim->recent[events % QD_RECENT_SIZE] = i;
          h->in_now = 0;
          h->where = QD_SCHED_NONE;
          sim->now_len--;
          mask = h->lambda (&sim->atomics[i], t);
          if (logged)
            qd_simulation_log_event (sim, events + 1, i, t, mask, QD_INF);
          if (G_UNLIKELY (++h->n_internal == 0))
            sim->n_internal_hi[i]++;
          events++;
          transitions++;
          if (!(!logged && mask == 1 && h->fused_out0 == QD_FUSED_CASCADE
                && run_cascade (sim, i, t, events_end, &events,
                                &transitions, &same_time)))
            fan_out (sim, h, i, t, mask, &transitions, events, logged);
        }
    }

out:
  sim->events = events;
  sim->transitions = transitions;
  sim->integrator_steps = steps;
  sim->same_time = same_time;
  sim->recent_pos = (guint) events;
  if (status == QD_RUN_ERROR)
    {
      g_clear_error (&sim->error);
      sim->error = g_steal_pointer (&sim->fail_error);
      if (error != NULL)
        *error = g_error_copy (sim->error);
    }
  qd_simulation_publish (sim);
  return status;
}

/* run_loop_for() compiled twice, each flattened: for models of fewer
 * than QD_PREFETCH_LINE_BLOCKS blocks, and for larger ones, which sink
 * the heap's top before the fired block's work (fire_sunk()) and
 * prefetch the receivers' lines after a clean cascade
 * (prefetch_receivers()). Apart, so that neither pays for the other's
 * tests or registers: the large loop's path in the small one cost the
 * headline run 15 instructions per step. A third time for the smallest
 * models (run_loop_tiny()), and a fourth for a run with an event log, so
 * that the log costs the others nothing. */
__attribute__ ((flatten)) static QdRunStatus
run_loop_small (QdSimulation *sim,
                double        t_limit,
                guint64       max_events,
                GError      **error)
{
  return run_loop_for (sim, t_limit, max_events, error, FALSE, FALSE, FALSE);
}

/* For models of fewer than QD_TINY_BLOCKS blocks, whose loop data stays
 * in the level-1 cache and whose heap holds a few blocks at most: no
 * prefetching (some 30 instructions a step of Lotka–Volterra's 7
 * blocks) and the small heap's path for the fired block
 * (qd_heap_replace_top_small()), at no cost to the other two. */
__attribute__ ((flatten)) static QdRunStatus
run_loop_tiny (QdSimulation *sim,
               double        t_limit,
               guint64       max_events,
               GError      **error)
{
  return run_loop_for (sim, t_limit, max_events, error, FALSE, TRUE, FALSE);
}

__attribute__ ((flatten)) static QdRunStatus
run_loop_large (QdSimulation *sim,
                double        t_limit,
                guint64       max_events,
                GError      **error)
{
  return run_loop_for (sim, t_limit, max_events, error, TRUE, FALSE, FALSE);
}

static QdRunStatus
run_loop_logged (QdSimulation *sim,
                 double        t_limit,
                 guint64       max_events,
                 GError      **error)
{
  return run_loop_for (sim, t_limit, max_events, error, FALSE, FALSE, TRUE);
}

QdRunStatus
qd_simulation_run_loop (QdSimulation *sim,
                        double        t_limit,
                        guint64       max_events,
                        GError      **error)
{
  if (G_UNLIKELY (sim->log_func != NULL))
    {
      guint64 before = sim->events;
      QdRunStatus status = run_loop_logged (sim, t_limit, max_events, error);

      if (!sim->log_detached)
        return status;
      /* A log that keeps the first rows of a long run takes itself off:
       * the rest runs at full speed, from exactly where it stopped. */
      sim->log_detached = FALSE;
      max_events -= MIN (max_events, sim->events - before);
      if (max_events == 0)
        return QD_RUN_STEPPED;
    }
  if (sim->n_atomics >= QD_PREFETCH_LINE_BLOCKS)
    return run_loop_large (sim, t_limit, max_events, error);
  if (sim->n_atomics < QD_TINY_BLOCKS)
    return run_loop_tiny (sim, t_limit, max_events, error);
  return run_loop_small (sim, t_limit, max_events, error);
}

/* The external transition of the dynamic block @j on @port with @x at
 * @t, made outside the loop as fan_out() makes it but not counted: the
 * block's time advance after it. */
double
qd_simulation_direct_external (QdSimulation   *sim,
                               guint           j,
                               guint           port,
                               const QdSignal *x,
                               double          t)
{
  QdHot *r = &sim->hot[j];
  double ta = r->dext_ta (&sim->atomics[j], t, t - r->tl, port, x);

  schedule (sim, r, j, t, ta);
  r->tl = t;
  return ta;
}

/* The time advance of block @i after init. A static block is passive,
 * or due at once when it has an output to give at the start (a function
 * without inputs, such as f(t)); the loop then makes it passive again
 * after its first output, as its dint would. */
static double
initial_ta (QdSimulation *sim,
            guint         i)
{
  QdAtomic *a = &sim->atomics[i];
  double ta;

  if (a->type->ta == NULL)
    return QD_INF;
  ta = a->type->ta (a);
  if (sim->hot[i].is_static && ta != 0.0)
    return QD_INF;
  return ta;
}


/* Runs every block's init, then schedules its first event. */
static gboolean
initialize (QdSimulation  *sim,
            GPtrArray     *problems,
            GError       **error)
{
  guint n = sim->n_atomics;
  double t0 = sim->start_time;

  qd_simulation_fill_hot (sim);
  if (sim->classic != NULL)
    qd_classic_prepare (sim->classic, sim);
  sim->n_internal_hi = g_new0 (guint32, MAX (n, 1));
  sim->n_external_hi = g_new0 (guint32, MAX (n, 1));
  qd_heap_init (&sim->heap, n);
  sim->t_event = sim->time = t0;
  {
    double far = MAX (fabs (t0), fabs (sim->final_time));

    sim->tick = nextafter (far, QD_INF) - far;
    sim->t_anchor = t0;
    sim->t_reset = t0 + sim->tick;
  }
  sim->t_event_key = qd_heap_key (t0);
  sim->lost_block = QD_NO_BLOCK;
  sim->initialized = TRUE;

  for (guint i = 0; i < n; i++)
    {
      QdAtomic *a = &sim->atomics[i];

      if (a->type->init != NULL)
        a->type->init (a, t0);
    }
  for (guint i = 0; i < n; i++)
    {
      schedule (sim, &sim->hot[i], i, t0, initial_ta (sim, i));
    }
  if (sim->classic != NULL)
    qd_classic_start (sim->classic);
  qd_simulation_publish (sim);

  if (sim->fail_error != NULL)
    {
      QdAtomic *a = sim->fail_atomic;
      const char *message = sim->fail_error->message;

      /* A block's init failed: the problem names the block (its path and
       * id, so the editor can select it), the message without the path
       * that qd_atomic_fail put in front of it. */
      if (a != NULL && g_str_has_prefix (message, a->path)
          && g_str_has_prefix (message + strlen (a->path), ": "))
        message += strlen (a->path) + 2;
      if (problems != NULL)
        g_ptr_array_add (problems,
                         qd_problem_new ((QdErrorCode) sim->fail_error->code,
                                         a != NULL ? a->path : "",
                                         a != NULL ? qd_atomic_block_id (a) : NULL,
                                         "%s", message));
      g_propagate_error (error, g_steal_pointer (&sim->fail_error));
      return FALSE;
    }
  return TRUE;
}

gboolean
qd_simulation_initialize (QdSimulation  *sim,
                          GPtrArray     *problems,
                          GError       **error)
{
  return initialize (sim, problems, error);
}

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
 */
#include <inttypes.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "qd-classic-private.h"
#include "qd-classic-rhs-private.h"
#include "qd-simulation-private.h"

#define CHECK_INTERVAL 1024
#define MAX_LOOP_PATHS 10

/* -------------------------------------------------------------------- */
/* The now queue
 *
 * A short array of block indices in decreasing order, so that the next
 * one (the lowest index) is the last element: popping is one decrement
 * and a push moves only the entries above the new one, which in a cascade
 * are the one or two blocks queued just before. */

/* FALSE when the queue is full; the caller then uses the time heap. */
static inline gboolean
now_push (QdSimulation *sim,
          guint32       i)
{
  guint32 *q = sim->now_queue;
  guint k = sim->now_len;

  if (G_UNLIKELY (k == QD_NOW_CAPACITY))
    return FALSE;
  if (G_LIKELY (k <= 1))
    {
      /* The common case (an integrator feeding two static blocks), without
       * the loop's branch, which goes either way at random: the larger of
       * the entry and @i first. An empty queue reads as an entry of 0, and
       * a 0 written past the end is not read. */
      guint32 a = q[0] & ((guint32) 0 - k);

      q[0] = MAX (a, i);
      q[1] = MIN (a, i);
      sim->now_len = k + 1;
      return TRUE;
    }
  while (k > 0 && q[k - 1] < i)
    {
      q[k] = q[k - 1];
      k--;
    }
  q[k] = i;
  sim->now_len++;
  return TRUE;
}

/* -------------------------------------------------------------------- */

static void
set_fail (QdSimulation *sim,
          QdErrorCode   code,
          const char   *format,
          ...) G_GNUC_PRINTF (3, 4);

static void
set_fail (QdSimulation *sim,
          QdErrorCode   code,
          const char   *format,
          ...)
{
  va_list args;

  if (sim->fail_error != NULL)
    return;
  va_start (args, format);
  sim->fail_error = g_error_new_valist (QD_ERROR, code, format, args);
  va_end (args);
}

/* Puts block @i, which is due again at the current event time, into the
 * now queue (or the time heap at @t when the queue is full). */
static inline void
schedule_now (QdSimulation *sim,
              QdHot        *h,
              guint         i,
              double        t)
{
  if (h->where == QD_SCHED_NOW)
    return;
  if (h->in_now)
    {
      /* A stale entry is still queued: it is valid again. */
      if (h->where == QD_SCHED_HEAP)
        qd_heap_remove (&sim->heap, i);
      h->where = QD_SCHED_NOW;
    }
  else if (now_push (sim, i))
    {
      if (h->where == QD_SCHED_HEAP)
        qd_heap_remove (&sim->heap, i);
      h->in_now = 1;
      h->where = QD_SCHED_NOW;
    }
  else
    {
      /* The queue is full: the heap orders (t, i) the same way. */
      qd_heap_update (&sim->heap, i, t);
      h->where = QD_SCHED_HEAP;
    }
}

/* schedule() for every case but a later finite time: due now again,
 * passive, or a time advance that is negative or NaN. Out of line, so
 * that the fan-out's loop keeps its values in registers. */
G_NO_INLINE static void
schedule_other (QdSimulation *sim,
                QdHot        *h,
                guint         i,
                double        t,
                double        ta)
{
  double tn = t + ta;

  if (G_UNLIKELY (!(ta >= 0)))
    {
      set_fail (sim, QD_ERROR_NUMERIC,
                _("%s: the time advance is %g at t = %g; it must be 0 or "
                  "more, check the parameters and the inputs of this block"),
                sim->atomics[i].path, ta, t);
      tn = QD_INF;
    }
  if (tn == t)
    {
      if (G_UNLIKELY (ta > 0.0))
        {
          sim->lost_block = i;
          sim->lost_ta = ta;
          sim->lost_t = t;
        }
      schedule_now (sim, h, i, t);
    }
  else if (tn == QD_INF)
    {
      if (h->where == QD_SCHED_HEAP)
        qd_heap_remove (&sim->heap, i);
      h->where = QD_SCHED_NONE;
    }
  else
    {
      qd_heap_update (&sim->heap, i, tn);
      h->where = QD_SCHED_HEAP;
    }
}

/* Puts block @i, which just had a transition at @t, where its next event
 * belongs. A later finite time (tn > t also rules out a negative or NaN
 * time advance) is the common case. */
G_ALWAYS_INLINE static inline void
schedule (QdSimulation *sim,
          QdHot        *h,
          guint         i,
          double        t,
          double        ta)
{
  double tn = t + ta;

  if (G_LIKELY (tn > t && tn < QD_INF))
    {
      qd_heap_update (&sim->heap, i, tn);
      h->where = QD_SCHED_HEAP;
    }
  else
    schedule_other (sim, h, i, t, ta);
}

/* schedule() for a time advance known to give a later time than @t (a
 * whole cascade kernel's, run_kernel()): one test fewer. */
G_ALWAYS_INLINE static inline void
schedule_later (QdSimulation *sim,
                QdHot        *h,
                guint         i,
                double        t,
                double        ta)
{
  double tn = t + ta;

  if (G_LIKELY (tn < QD_INF))
    {
      qd_heap_update (&sim->heap, i, tn);
      h->where = QD_SCHED_HEAP;
    }
  else
    schedule_other (sim, h, i, t, ta);
}

/* Drops stale entries (blocks rescheduled elsewhere) from the end of the
 * now queue. */
static inline void
now_clean (QdSimulation *sim)
{
  QdHot *hot = sim->hot;

  while (sim->now_len > 0)
    {
      guint32 top = sim->now_queue[sim->now_len - 1];

      if (hot[top].where == QD_SCHED_NOW)
        break;
      hot[top].in_now = 0;
      sim->now_len--;
    }
}

G_NO_INLINE static void
publish (QdSimulation *sim)
{
  guint64 bits;

  memcpy (&bits, &sim->time, sizeof bits);
  __atomic_store_n (&sim->pub_time, bits, __ATOMIC_RELAXED);
  __atomic_store_n (&sim->pub_events, sim->events, __ATOMIC_RELAXED);
  __atomic_store_n (&sim->pub_transitions, sim->transitions, __ATOMIC_RELAXED);
  __atomic_store_n (&sim->pub_steps, sim->integrator_steps, __ATOMIC_RELAXED);
}

static int
compare_guint32 (gconstpointer a,
                 gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

G_NO_INLINE static void
fail_illegitimate (QdSimulation *sim,
                   double        t)
{
  guint n = (guint) MIN (sim->illegitimacy_limit, (guint64) QD_RECENT_SIZE);
  guint32 blocks[QD_RECENT_SIZE];
  GString *names = g_string_new (NULL);
  guint shown = 0;

  /* The distinct blocks of the last transitions, in priority order. */
  for (guint k = 0; k < n; k++)
    blocks[k] = sim->recent[(sim->recent_pos - 1 - k) % QD_RECENT_SIZE];
  qsort (blocks, n, sizeof (guint32), compare_guint32);
  for (guint k = 0; k < n && shown < MAX_LOOP_PATHS; k++)
    {
      if (k > 0 && blocks[k] == blocks[k - 1])
        continue;
      if (shown++ > 0)
        g_string_append (names, ", ");
      g_string_append (names, sim->atomics[blocks[k]].path);
    }
  if (sim->lost_block != QD_NO_BLOCK && sim->lost_t >= sim->t_anchor)
    {
      /* Not a zero-time loop of the model: a positive time advance was
       * lost in rounding (t + ta = t), so the events pile up at t, or was
       * below the guard's tick (see t_anchor). Either the clock is too
       * coarse for the run (far from time 0, its resolution is a fair
       * part of the run's length), or the time advances shrank towards
       * zero (a solution that blows up in finite time, events that
       * accumulate, a tiny sample period): the advice differs. */
      double resolution = MAX (nextafter (fabs (t), QD_INF) - fabs (t),
                               sim->tick);
      const char *path = sim->atomics[sim->lost_block].path;

      if (resolution * 1e6 >= sim->final_time - sim->start_time)
        set_fail (sim, QD_ERROR_ILLEGITIMATE,
                  _("%s: its time advance %g is lost in rounding at "
                    "t = %g, where the clock's resolution is %g, so time "
                    "cannot advance (more than %" PRIu64
                    " transitions at that time, among %s); start the "
                    "simulation nearer time 0, end it earlier, or raise "
                    "the quanta of this block"),
                  path, sim->lost_ta, t, resolution,
                  sim->illegitimacy_limit, names->str);
      else if (t == sim->t_anchor)
        set_fail (sim, QD_ERROR_ILLEGITIMATE,
                  _("%s: its time advance has shrunk to %g at t = %g, "
                    "below the clock's resolution there (%g), so time "
                    "cannot advance (more than %" PRIu64
                    " transitions at that time, among %s); the model may "
                    "have a solution that grows without bound near this "
                    "time, or events that accumulate: check its equations "
                    "and parameters"),
                  path, sim->lost_ta, t, resolution,
                  sim->illegitimacy_limit, names->str);
      else
        /* The clock moved, by less than it can resolve at the final
         * time: no run to there could be made of such advances. */
        set_fail (sim, QD_ERROR_ILLEGITIMATE,
                  _("%s: its time advance has shrunk to %g at t = %g, "
                    "below the clock's resolution over the run (%g), so "
                    "the run cannot reach its final time (more than %"
                    PRIu64 " transitions since t = %g, among "
                    "%s); the model may have a solution that grows "
                    "without bound near this time, or events that "
                    "accumulate (a sample period or a delay that short): "
                    "check its equations and parameters"),
                  path, sim->lost_ta, t, resolution,
                  sim->illegitimacy_limit, sim->t_anchor, names->str);
    }
  else
    set_fail (sim, QD_ERROR_ILLEGITIMATE,
              _("illegitimate model: more than %" PRIu64
                " transitions at t = %g without time advancing, among %s; "
                "look for a zero-time loop, or raise the limit in the "
                "simulation settings"),
              sim->illegitimacy_limit, t, names->str);
  g_string_free (names, TRUE);
}

G_NO_INLINE static void
fail_numeric (QdSimulation   *sim,
              guint           i,
              const QdSignal *sig,
              double          t)
{
  gboolean nan = FALSE;

  for (guint k = 0; k <= QD_MAX_ORDER; k++)
    nan |= isnan (sig->c[k]);
  if (nan)
    set_fail (sim, QD_ERROR_NUMERIC,
              _("%s: produced NaN at t = %g; check the parameters and the "
                "inputs of this block"), sim->atomics[i].path, t);
  else
    set_fail (sim, QD_ERROR_NUMERIC,
              _("%s: produced infinity at t = %g; check the parameters and "
                "the inputs of this block"), sim->atomics[i].path, t);
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

/* The event log's entries (qd-event-log.h). Out of line: only the loop
 * compiled for a log (run_loop_logged()) calls them. */

/* @sig with its origin at @t: itself when it starts there (so that a
 * segment that is not finite keeps its infinities, which 0 · inf would
 * make NaN), else re-expanded into @tmp. */
static const QdSignal *
segment_at (const QdSignal *sig,
            double          t,
            QdSignal       *tmp)
{
  if (sig->t == t)
    return sig;
  qd_signal_advance (sig, t, tmp);
  return tmp;
}

/* A transition of block @i at @t (with the segment that caused it, for
 * an external one) and its time advance @ta after it. */
G_NO_INLINE static void
log_transition (QdSimulation   *sim,
                QdLogKind       kind,
                guint64         event,
                guint           i,
                double          t,
                guint           port,
                const QdSignal *sig,
                double          ta)
{
  QdLogEntry entry = { kind, event, t, i, port, NAN, ta, NULL };
  QdSignal at_t;

  /* Taken off during the run (by the log's own function, on the thread
   * that runs the loop): the loop goes on until its next check. */
  if (sim->log_func == NULL)
    return;
  entry.elapsed = t - sim->log_tl[i];
  if (sig != NULL)
    entry.segment = segment_at (sig, t, &at_t);
  sim->log_tl[i] = t;
  sim->log_func (&entry, sim->log_data);
}

/* Internal event @event of block @i at @t: its outputs @mask, each with
 * its segment, then its internal transition, after which its time advance
 * is @ta. */
G_NO_INLINE static void
log_event (QdSimulation *sim,
           guint64       event,
           guint         i,
           double        t,
           guint64       mask,
           double        ta)
{
  const QdHot *h = &sim->hot[i];

  while (mask != 0)
    {
      guint p = (guint) __builtin_ctzll (mask);
      const QdSignal *sig = &sim->signals[h->out_base + p];
      QdLogEntry entry = { QD_LOG_OUTPUT, event, t, i, p, NAN, NAN, NULL };
      QdSignal at_t;

      mask &= mask - 1;
      if (p >= h->n_out || sim->log_func == NULL)
        break;
      entry.segment = segment_at (sig, t, &at_t);
      sim->log_func (&entry, sim->log_data);
    }
  log_transition (sim, QD_LOG_INTERNAL, event, i, t, 0, NULL, ta);
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
          fail_numeric (sim, i, sig, t);
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
                log_transition (sim, QD_LOG_EXTERNAL, event, j, t,
                                sim->fanout[e].port, sig, 0.0);
            }
          else
            {
              double ta = r->dext_ta (&sim->atomics[j], t, t - r->tl,
                                      sim->fanout[e].port, sig);

              schedule (sim, r, j, t, ta);
              r->tl = t;
              if (logged)
                log_transition (sim, QD_LOG_EXTERNAL, event, j, t,
                                sim->fanout[e].port, sig, ta);
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
 * (docs/performance.md, fifth round). */
#define QD_PREFETCH_DEEP_BLOCKS 1024

/* The lines of QdPrefetchLine, 64 bytes per block, are kept only below
 * this many blocks, where they fit in half the level-2 cache: beyond it
 * the line read each step is a miss of its own and takes cache room from
 * the wiring's arrays, which are smaller (some 24 bytes per block), and
 * the chain of reads through them was faster (lcline-random QSS2, CPU
 * ns per step without and with the lines, N = 1000: 193 -> 137 and
 * 185 -> 160; N = 3500, 5000 and 10 000: 216 -> 231, 267 -> 295 and
 * 405 -> 523; docs/performance.md). */
#define QD_PREFETCH_LINE_BLOCKS 4096

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
      fail_numeric (sim, i, sig, t);
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
        fail_numeric (sim, w, &sim->signals[h->out_base], t);
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

/* The external transitions from output @s (finite) in a static chain: a non-static receiver's as fan_out() makes it, a static
 * one's only counted, for its event is the chain's to run. */
G_ALWAYS_INLINE static inline void
chain_deliver (QdSimulation *sim,
               guint         s,
               double        t,
               guint64      *transitions)
{
  QdHot *hot = sim->hot;
  const QdSignal *sig = &sim->signals[s];
  guint e = sim->fan_start[s], end = sim->fan_start[s + 1];

  *transitions += end - e;
  for (; e < end; e++)
    {
      guint j = sim->fanout[e].receiver;
      QdHot *r = &hot[j];

      if (!r->is_static)
        {
          double ta = r->dext_ta (&sim->atomics[j], t, t - r->tl,
                                  sim->fanout[e].port, sig);

          /* A passive block staying passive (a Scope) is where it
           * belongs: schedule() would only call schedule_other(). */
          if (!(ta == QD_INF && r->where == QD_SCHED_NONE))
            schedule (sim, r, j, t, ta);
          r->tl = t;
        }
      if (G_UNLIKELY (++r->n_external == 0))
        sim->n_external_hi[j]++;
    }
}

/* run_chain() leaving its chain after @done blocks (and, with @popped,
 * the next one's output): the static blocks the now queue would hold
 * then are put in it, and the loop goes on from there. */
G_NO_INLINE static void
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
 * only queues it. Every other transition is made here as fan_out() makes
 * it, in the same order, and counted the same way. When one of those
 * conditions breaks, the static blocks the queue would hold at that
 * point are queued (chain_leave()) and the loop goes on from the queue,
 * as after run_cascade().
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
  const guint32 *chain = &sim->chain[sim->chain_start[i]];
  guint n = sim->chain_start[i + 1] - sim->chain_start[i];
  guint64 ev = events, tr = 0;
  QdChainRun run = { 0, 0, 0 };
  guint result = CASCADE_CLEAN;

  now_clean (sim);
  if (sim->now_len != 0
      || sim->heap.entries[0].key <= sim->t_event_key
      || n > events_end - ev
      || same_time + n > sim->illegitimacy_limit
      || sim->fail_error != NULL
      || !signal_is_finite_stored (&sim->signals[hot[i].out_base]))
    return run;

  if (G_UNLIKELY (sim->chain_misses[i] != 0))
    sim->chain_misses[i]--;
  chain_deliver (sim, hot[i].out_base, t, &tr);
  for (guint k = 0; k < n; k++)
    {
      guint j = chain[k];
      QdHot *r = &hot[j];
      guint64 mask;

      if (G_UNLIKELY (sim->now_len != 0 || sim->fail_error != NULL))
        {
          chain_leave (sim, i, k, FALSE, t);
          result = CASCADE_RUN;
          break;
        }
      sim->recent[ev % QD_RECENT_SIZE] = j;
      ev++;
      tr++;
      if (G_UNLIKELY (++r->n_internal == 0))
        sim->n_internal_hi[j]++;
      mask = r->lambda (&sim->atomics[j], t);
      if (G_UNLIKELY (mask != 1 || !signal_is_finite_stored (
                                        &sim->signals[r->out_base])))
        {
          chain_leave (sim, i, k, TRUE, t);
          fan_out (sim, r, j, t, mask, &tr, ev, FALSE);
          result = CASCADE_RUN;
          break;
        }
      chain_deliver (sim, r->out_base, t, &tr);
    }
  if (result == CASCADE_CLEAN
      && (sim->now_len != 0 || sim->fail_error != NULL))
    result = CASCADE_RUN;

  run.transitions = tr;
  run.events = (guint32) (ev - events);
  run.how = result;
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
 * Flattened (in run_loop_small() and run_loop_large(), which compile it
 * for @large constant): everything it calls that is not marked
 * G_NO_INLINE is inlined into it. Once the loop is large, GCC stops
 * inlining the heap's inline test of a receiver's new time
 * (qd_heap_update()) into it, and a call costs about 10 instructions per
 * receiver, two per integrator step of a QSS model; the rare paths are
 * kept out of line.
 *
 * With @logged (a constant, run_loop_logged()), every transition goes to
 * the event log, and no cascade is fused: the static blocks' events go
 * through the now queue one by one, as the general path runs them. */
G_ALWAYS_INLINE static inline QdRunStatus
run_loop_for (QdSimulation   *sim,
              double          t_limit,
              guint64         max_events,
              GError        **error,
              const gboolean  large,
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
          fail_illegitimate (sim, t);
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
            log_event (sim, events + 1, i, t, mask, QD_INF);
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
            log_event (sim, events + 1, i, t, mask, ta);
          /* The common case: the block was the heap's top and goes to a
           * later time. Otherwise (due now again, passive, an error, or
           * it came from the now queue) the general rescheduling. */
          tn = t + ta;
          if (!from_now && tn > t && tn < QD_INF)
            qd_heap_replace_top (&sim->heap, tn);
          else
            schedule (sim, h, i, t, ta);
          h->tl = t;
        }
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
              publish (sim);
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
            log_event (sim, events + 1, i, t, mask, QD_INF);
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
  publish (sim);
  return status;
}

/* run_loop_for() compiled twice, each flattened: for models of fewer
 * than QD_PREFETCH_LINE_BLOCKS blocks, and for larger ones, which sink
 * the heap's top before the fired block's work (fire_sunk()) and
 * prefetch the receivers' lines after a clean cascade
 * (prefetch_receivers()). Apart, so that neither pays for the other's
 * tests or registers: the large loop's path in the small one cost the
 * headline run 15 instructions per step. A third time, for a run with an
 * event log, so that the log costs the other two nothing. */
__attribute__ ((flatten)) static QdRunStatus
run_loop_small (QdSimulation *sim,
                double        t_limit,
                guint64       max_events,
                GError      **error)
{
  return run_loop_for (sim, t_limit, max_events, error, FALSE, FALSE);
}

__attribute__ ((flatten)) static QdRunStatus
run_loop_large (QdSimulation *sim,
                double        t_limit,
                guint64       max_events,
                GError      **error)
{
  return run_loop_for (sim, t_limit, max_events, error, TRUE, FALSE);
}

static QdRunStatus
run_loop_logged (QdSimulation *sim,
                 double        t_limit,
                 guint64       max_events,
                 GError      **error)
{
  return run_loop_for (sim, t_limit, max_events, error, FALSE, TRUE);
}

static QdRunStatus
run_loop (QdSimulation *sim,
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
  return run_loop_small (sim, t_limit, max_events, error);
}

/* An earlier error ends every later run. */
static gboolean
check_sticky (QdSimulation  *self,
              GError       **error)
{
  if (self->error == NULL)
    return FALSE;
  if (error != NULL)
    *error = g_error_copy (self->error);
  return TRUE;
}

QdRunStatus
qd_simulation_run_until (QdSimulation  *self,
                         double         t_stop,
                         GError       **error)
{
  QdRunStatus status;

  g_return_val_if_fail (self != NULL, QD_RUN_ERROR);

  if (check_sticky (self, error))
    return QD_RUN_ERROR;
  if (self->finished)
    return QD_RUN_DONE;
  t_stop = MIN (t_stop, self->final_time);
  if (self->classic != NULL)
    status = qd_classic_run (self->classic, t_stop, G_MAXUINT64, error);
  else
    status = run_loop (self, t_stop, G_MAXUINT64, error);
  if (status == QD_RUN_DONE && t_stop > self->time)
    {
      self->time = t_stop;
      publish (self);
    }
  return status;
}

QdRunStatus
qd_simulation_step (QdSimulation  *self,
                    guint64        n_events,
                    GError       **error)
{
  g_return_val_if_fail (self != NULL, QD_RUN_ERROR);

  if (check_sticky (self, error))
    return QD_RUN_ERROR;
  if (self->finished)
    return QD_RUN_DONE;
  /* Under a classic solver, @n_events steps of the solver. */
  if (self->classic != NULL)
    return qd_classic_run (self->classic, self->final_time, n_events, error);
  return run_loop (self, self->final_time, n_events, error);
}

/* A stopped run is not finished, so that it can be resumed. */
QdRunStatus
qd_simulation_run (QdSimulation  *self,
                   GError       **error)
{
  QdRunStatus status;

  g_return_val_if_fail (self != NULL, QD_RUN_ERROR);

  status = qd_simulation_run_until (self, self->final_time, error);
  if (status != QD_RUN_STOPPED)
    qd_simulation_finish (self);
  return status;
}

void
qd_simulation_finish (QdSimulation *self)
{
  g_return_if_fail (self != NULL);

  if (self->finished || !self->initialized)
    return;
  self->finished = TRUE;
  for (guint i = 0; i < self->n_atomics; i++)
    {
      QdAtomic *a = &self->atomics[i];

      if (a->type->exit != NULL)
        a->type->exit (a, self->time);
    }
  for (guint k = 0; k < self->traces->len; k++)
    {
      QdTrace *trace = g_ptr_array_index (self->traces, k);

      if (!qd_trace_is_closed (trace, NULL))
        qd_trace_close (trace, self->time);
    }
}

/* The services of the classic solver's driver (qd-classic-private.h). */
QdRunStatus
qd_simulation_run_events (QdSimulation *sim,
                          double        t_limit,
                          GError      **error)
{
  return run_loop (sim, t_limit, G_MAXUINT64, error);
}

void
qd_simulation_schedule_at (QdSimulation *sim,
                           guint         i,
                           double        tn)
{
  QdHot *h = &sim->hot[i];

  if (tn < QD_INF)
    {
      qd_heap_update (&sim->heap, i, tn);
      h->where = QD_SCHED_HEAP;
    }
  else
    {
      if (h->where == QD_SCHED_HEAP)
        qd_heap_remove (&sim->heap, i);
      h->where = QD_SCHED_NONE;
    }
}

void
qd_simulation_fail (QdSimulation *sim,
                    GError       *error)
{
  g_clear_error (&sim->fail_error);
  g_clear_error (&sim->error);
  sim->error = error;
  publish (sim);
}

/* The clock at @t as the loop moves it to an event there (with the
 * illegitimacy guard's window), for transitions made outside the loop
 * (qd-classic-rhs.c). */
void
qd_simulation_direct_clock (QdSimulation *sim,
                            double        t)
{
  if (!(t > sim->t_event))
    return;
  if (t >= sim->t_reset)
    {
      sim->same_time = 0;
      sim->t_anchor = t;
      sim->t_reset = t + sim->tick;
    }
  sim->t_event = t;
  sim->t_event_key = qd_heap_key (t);
  sim->time = t;
}

/* Transitions made outside the loop, added to its totals (the blocks'
 * own counts are the classic driver's, qd_classic_add_block_stats()). */
void
qd_simulation_direct_count (QdSimulation *sim,
                            guint64       events,
                            guint64       transitions,
                            guint64       steps)
{
  sim->events += events;
  sim->transitions += transitions;
  sim->integrator_steps += steps;
}

/* The external transition of the dynamic block @j on @port with @x at
 * @t, made outside the loop as fan_out() makes it but not counted. */
void
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
}

/* Whether a block failed outside the loop (qd_atomic_fail()): the run
 * then ends with its error, as the loop would end it. */
QdRunStatus
qd_simulation_direct_status (QdSimulation  *sim,
                             GError       **error)
{
  if (G_LIKELY (sim->fail_error == NULL))
    return QD_RUN_DONE;
  g_clear_error (&sim->error);
  sim->error = g_steal_pointer (&sim->fail_error);
  if (error != NULL)
    *error = g_error_copy (sim->error);
  publish (sim);
  return QD_RUN_ERROR;
}

gboolean
qd_simulation_get_classic_stats (QdSimulation   *self,
                                 QdClassicStats *stats)
{
  g_return_val_if_fail (self != NULL && stats != NULL, FALSE);

  if (self->classic == NULL)
    return FALSE;
  qd_classic_get_stats (self->classic, stats);
  return TRUE;
}

void
qd_simulation_request_stop (QdSimulation *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_int_set (&self->stop_requested, 1);
}

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

/* The kernel of @type in sim->kernels, added if it is new; -1 when
 * there is no room. */
static int
kernel_index (QdSimulation      *sim,
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
        int kernel = kernel_index (sim, type);

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

static void
fill_hot (QdSimulation *sim)
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

/* Runs every block's init, then schedules its first event. */
static gboolean
initialize (QdSimulation  *sim,
            GPtrArray     *problems,
            GError       **error)
{
  guint n = sim->n_atomics;
  double t0 = sim->start_time;

  fill_hot (sim);
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
  publish (sim);

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

/* @sim (NULL when compiling failed) initialized, or NULL when its init
 * failed. */
static QdSimulation *
initialized (QdSimulation  *sim,
             GPtrArray     *problems,
             GError       **error)
{
  if (sim == NULL)
    return NULL;
  if (!initialize (sim, problems, error))
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
/* Getters */

double
qd_simulation_get_time (QdSimulation *self)
{
  guint64 bits = __atomic_load_n (&self->pub_time, __ATOMIC_RELAXED);
  double t;

  memcpy (&t, &bits, sizeof t);
  return t;
}

double
qd_simulation_get_next_time (QdSimulation *self)
{
  double t = QD_INF;

  for (guint k = 0; k < self->now_len; k++)
    if (self->hot[self->now_queue[k]].where == QD_SCHED_NOW)
      return self->t_event;
  if (!qd_heap_is_empty (&self->heap))
    t = qd_heap_top_time (&self->heap);
  return t;
}

double
qd_simulation_get_start_time (QdSimulation *self)
{
  return self->start_time;
}

double
qd_simulation_get_final_time (QdSimulation *self)
{
  return self->final_time;
}

guint64
qd_simulation_get_events (QdSimulation *self)
{
  return __atomic_load_n (&self->pub_events, __ATOMIC_RELAXED);
}

guint64
qd_simulation_get_transitions (QdSimulation *self)
{
  return __atomic_load_n (&self->pub_transitions, __ATOMIC_RELAXED);
}

guint64
qd_simulation_get_integrator_steps (QdSimulation *self)
{
  return __atomic_load_n (&self->pub_steps, __ATOMIC_RELAXED);
}

guint
qd_simulation_get_n_atomics (QdSimulation *self)
{
  return self->n_atomics;
}

const QdAtomic *
qd_simulation_get_atomic (QdSimulation *self,
                          guint         index)
{
  g_return_val_if_fail (index < self->n_atomics, NULL);
  return &self->atomics[index];
}

/* The block whose output drives input @port of block @j, or
 * QD_NO_RECEIVER (unconnected); by its segment's place in signals. */
static guint
driver_of (QdSimulation *sim,
           guint         j,
           guint         port)
{
  /* As integers: an unconnected input's segment is not in the array. */
  guintptr sig = (guintptr) sim->atomics[j].in[port];
  guintptr first = (guintptr) sim->signals;
  guint s, lo = 0, hi = sim->n_atomics;

  if (sig < first || sig >= first + sim->n_signals * sizeof (QdSignal))
    return QD_NO_RECEIVER;
  s = (guint) ((sig - first) / sizeof (QdSignal));
  /* The last block whose outputs start at or before s. */
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (sim->out_base[mid] <= s)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

/* The transitions of block @index that cascade kernels left to
 * QdHot.kernel_runs (run_kernel()): a static block's own runs, each an
 * external and an internal transition, and, for a receiver of such
 * blocks, one external transition per run of each. */
static void
kernel_transitions (QdSimulation *sim,
                    guint         index,
                    guint64      *internal,
                    guint64      *external)
{
  const QdHot *h = &sim->hot[index];

  *internal = *external = 0;
  if (h->is_static)
    {
      *internal = *external = h->kernel_runs;
      return;
    }
  for (guint p = 0; p < sim->atomics[index].n_in; p++)
    {
      guint w = driver_of (sim, index, p);

      if (w != QD_NO_RECEIVER && sim->hot[w].is_static
          && sim->hot[w].sole_receiver == index
          && sim->hot[w].sole_port == p)
        *external += sim->hot[w].kernel_runs;
    }
}

void
qd_simulation_get_block_stats (QdSimulation *self,
                               guint         index,
                               guint64      *n_internal,
                               guint64      *n_external)
{
  const QdHot *h;
  guint64 internal, external;

  g_return_if_fail (index < self->n_atomics);
  h = &self->hot[index];
  kernel_transitions (self, index, &internal, &external);
  if (self->classic != NULL)
    qd_classic_add_block_stats (self->classic, index, &internal, &external);
  if (n_internal != NULL)
    *n_internal = ((guint64) self->n_internal_hi[index] << 32
                   | h->n_internal) + internal;
  if (n_external != NULL)
    *n_external = ((guint64) self->n_external_hi[index] << 32
                   | h->n_external) + external;
}

GPtrArray *
qd_simulation_get_traces (QdSimulation *self)
{
  return self->traces;
}

void
qd_simulation_set_fused_cascades (QdSimulation *self,
                                  gboolean      enabled)
{
  g_return_if_fail (self != NULL);

  set_fused (self, enabled);
}

void
qd_simulation_set_event_log (QdSimulation *self,
                             QdLogFunc     func,
                             gpointer      user_data)
{
  g_return_if_fail (self != NULL);
  /* Attached before the first event, so that every elapsed time it
   * reports is right; taken off at any time. */
  g_return_if_fail (func == NULL || self->events == 0);

  self->log_func = func;
  self->log_data = user_data;
  g_clear_pointer (&self->log_tl, g_free);
  if (func == NULL)
    return;
  self->log_tl = g_new (double, MAX (self->n_atomics, 1));
  for (guint i = 0; i < self->n_atomics; i++)
    self->log_tl[i] = self->start_time;
}

double
qd_simulation_get_variable (QdSimulation *self,
                            const char   *name)
{
  g_return_val_if_fail (name != NULL, NAN);

  for (guint i = 0; i < self->n_variables; i++)
    if (strcmp (self->variable_names[i], name) == 0)
      return self->variable_values[i];
  return NAN;
}

/* -------------------------------------------------------------------- */
/* Services for the blocks (qd-block-type.h) */

gpointer
qd_atomic_alloc (QdAtomic *self,
                 gsize     size)
{
  gpointer mem = g_malloc0 (MAX (size, 1));

  g_ptr_array_add (self->sim->allocs, mem);
  return mem;
}

gpointer
qd_atomic_get_shared (QdAtomic       *self,
                      const char     *key,
                      gpointer      (*create) (QdAtomic *self),
                      GDestroyNotify  destroy)
{
  gpointer data = g_datalist_get_data (&self->sim->shared, key);

  if (data == NULL && (data = create (self)) != NULL)
    g_datalist_set_data_full (&self->sim->shared, key, data, destroy);
  return data;
}

QdTrace *
qd_atomic_add_trace (QdAtomic   *self,
                     const char *name)
{
  g_autofree char *full = g_strconcat (self->path, "/", name, NULL);
  QdTrace *trace = qd_trace_new (full);

  g_ptr_array_add (self->sim->traces, trace);
  return trace;
}

void
qd_atomic_fail (QdAtomic    *self,
                QdErrorCode  code,
                const char  *format,
                ...)
{
  va_list args;
  char *message;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  if (self->sim->fail_error == NULL)
    self->sim->fail_atomic = self;
  set_fail (self->sim, code, "%s: %s", self->path, message);
  g_free (message);
}

double
qd_atomic_get_start_time (QdAtomic *self)
{
  return self->sim->start_time;
}

double
qd_atomic_get_final_time (QdAtomic *self)
{
  return self->sim->final_time;
}

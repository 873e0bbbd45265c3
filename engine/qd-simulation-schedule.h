/* qd-simulation-schedule.h: a block's next event, in the now queue or
 * the time heap (qd-simulation.c)
 *
 * Static and inline, for the run loop and what it calls: each call is
 * part of the loop's hot path, which GCC compiles as one function.
 */
#pragma once

#include "qd-simulation-private.h"

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
      qd_simulation_set_fail (sim, QD_ERROR_NUMERIC,
                              _("%s: the time advance is %g at t = %g; it "
                                "must be 0 or more, check the parameters "
                                "and the inputs of this block"),
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

/* qd-debug.c: what a debugger may ask of a paused simulation
 *
 * Everything here reads the loop's own records (QdHot.where, the heap, the
 * now queue) after the fact, so the loop itself carries no hook for it.
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qd-debug.h"
#include "qd-simulation-private.h"
#include "qd-poly.h"

static gboolean
has_schedule (QdSimulation *self)
{
  return self->initialized && !self->finished && self->classic == NULL;
}

double
qd_simulation_get_block_next_time (QdSimulation *self,
                                   guint         index)
{
  g_return_val_if_fail (self != NULL, QD_INF);
  g_return_val_if_fail (index < self->n_atomics, QD_INF);

  if (!has_schedule (self))
    return QD_INF;
  switch (self->hot[index].where)
    {
    case QD_SCHED_NOW:
      return self->t_event;
    case QD_SCHED_HEAP:
      return qd_heap_get_time (&self->heap, index);
    default:
      return QD_INF;
    }
}

static gint
compare_pending (gconstpointer a,
                 gconstpointer b)
{
  const QdPendingEvent *x = a, *y = b;

  if (x->time != y->time)
    return x->time < y->time ? -1 : 1;
  return (x->block > y->block) - (x->block < y->block);
}

GArray *
qd_simulation_dup_pending (QdSimulation *self)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (QdPendingEvent));

  g_return_val_if_fail (self != NULL, out);

  for (guint i = 0; has_schedule (self) && i < self->n_atomics; i++)
    {
      QdPendingEvent ev = { i, qd_simulation_get_block_next_time (self, i) };

      if (ev.time < QD_INF)
        g_array_append_val (out, ev);
    }
  /* (time, priority) is exactly the heap's order, and a block in the now
   * queue is due at the current event's time, which no heap entry
   * precedes: the loop takes the lowest index of the two at that time. */
  g_array_sort (out, compare_pending);
  return out;
}

const char *
qd_simulation_get_block_phase (QdSimulation *self,
                               guint         index)
{
  QdAtomic *a;
  const char *phase = NULL;

  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (index < self->n_atomics, NULL);

  a = &self->atomics[index];
  /* A static block's state is kept by the loop, not by the block. */
  if (a->type->describe_phase != NULL && !self->hot[index].is_static
      && has_schedule (self))
    phase = a->type->describe_phase (a);
  if (phase != NULL)
    return phase;
  switch (has_schedule (self) ? self->hot[index].where : QD_SCHED_NONE)
    {
    case QD_SCHED_NOW:
      return N_("output due now");
    case QD_SCHED_HEAP:
      if (qd_heap_get_time (&self->heap, index) <= self->t_event)
        return N_("output due now");
      return N_("internal transition scheduled");
    default:
      return N_("passive");
    }
}

gboolean
qd_simulation_describe_block_state (QdSimulation *self,
                                    guint         index,
                                    QdStateFunc   add,
                                    gpointer      user_data)
{
  QdAtomic *a;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (index < self->n_atomics, FALSE);
  g_return_val_if_fail (add != NULL, FALSE);

  a = &self->atomics[index];
  if (a->type->describe_state == NULL || !self->initialized)
    return FALSE;
  a->type->describe_state (a, self->time, add, user_data);
  return TRUE;
}

/* The first time in (@t0, @t1] at which @seg equals @level, or NaN.
 * A root within a few rounding errors of @t0 is the crossing a search
 * just stopped at (the clock then sits on it, give or take the last
 * bit): the search resumes past it. */
static double
segment_crossing (const QdSignal *seg,
                  double          level,
                  double          t0,
                  double          t1)
{
  double guard = 1e-12 * MAX (1.0, fabs (t0));

  for (int attempt = 0; attempt < 2; attempt++)
    {
      QdSignal moved;
      double a[QD_MAX_ORDER + 1];
      double s;

      if (seg->order <= 0 || !(t1 > t0))
        return NAN;
      /* The polynomial minus the level, re-expanded at t0, so that the
       * root finder's s > 0 is "after t0". */
      qd_signal_advance (seg, t0, &moved);
      for (int k = 0; k <= QD_MAX_ORDER; k++)
        a[k] = moved.c[k];
      a[0] -= level;
      s = qd_poly_first_root (a, seg->order);
      if (!(s > 0) || !(t0 + s <= t1))
        return NAN;
      if (s > guard)
        return t0 + s;
      t0 += guard;
    }
  return NAN;
}

static double
signal_now (QdSimulation *self,
            guint         block,
            guint         port,
            double        t)
{
  return qd_signal_eval (&self->signals[self->out_base[block] + port], t);
}

static gboolean
check_break (const QdBreak *b,
             guint          n_atomics)
{
  switch (b->kind)
    {
    case QD_BREAK_INTERNAL:
    case QD_BREAK_TRANSITION:
      return b->block < n_atomics;
    case QD_BREAK_CROSSING:
      return b->block < n_atomics && isfinite (b->value);
    default:
      return TRUE;
    }
}

/* The earliest breakpoint met before the next event, between the clock
 * and @t_next: a time, or a crossing inside a segment. */
static gboolean
break_before_event (QdSimulation  *self,
                    const QdBreak *breaks,
                    guint          n_breaks,
                    double         t_next,
                    QdBreakHit    *hit)
{
  double t0 = self->time, best = QD_INF;
  guint which = 0;

  for (guint k = 0; k < n_breaks; k++)
    {
      const QdBreak *b = &breaks[k];
      double t = NAN;

      if (b->kind == QD_BREAK_TIME && b->value > t0 && b->value <= t_next
          && b->value <= self->final_time)
        t = b->value;
      else if (b->kind == QD_BREAK_CROSSING && self->classic == NULL
               && b->port < self->atomics[b->block].n_out)
        t = segment_crossing (&self->signals[self->out_base[b->block] + b->port],
                              b->value, t0, MIN (t_next, self->final_time));
      if (t < best)
        {
          best = t;
          which = k;
        }
    }
  if (best == QD_INF)
    return FALSE;
  hit->index = which;
  hit->t = best;
  return TRUE;
}

gboolean
qd_simulation_run_to_break (QdSimulation   *self,
                            const QdBreak  *breaks,
                            guint           n_breaks,
                            guint64         max_events,
                            QdBreakHit     *hit,
                            GError        **error)
{
  g_autofree guint64 *counts = NULL;
  g_autofree double *before = NULL;
  guint64 done = 0;
  guint error_break = G_MAXUINT;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (n_breaks == 0 || breaks != NULL, FALSE);
  g_return_val_if_fail (hit != NULL, FALSE);

  counts = g_new0 (guint64, MAX (n_breaks, 1));
  before = g_new0 (double, MAX (n_breaks, 1));
  for (guint k = 0; k < n_breaks; k++)
    {
      g_return_val_if_fail (check_break (&breaks[k], self->n_atomics), FALSE);
      if (breaks[k].kind == QD_BREAK_ERROR)
        error_break = k;
    }
  if (self->finished)
    return FALSE;
  while (done < max_events)
    {
      g_autoptr(GError) local = NULL;
      double t_next = qd_simulation_get_next_time (self);
      QdRunStatus status;

      if (break_before_event (self, breaks, n_breaks, t_next, hit))
        {
          status = qd_simulation_run_until (self, hit->t, &local);
          hit->events = qd_simulation_get_events (self);
          return status != QD_RUN_ERROR
                 || (g_propagate_error (error, g_steal_pointer (&local)), FALSE);
        }
      for (guint k = 0; k < n_breaks; k++)
        {
          const QdBreak *b = &breaks[k];

          if (b->kind == QD_BREAK_INTERNAL || b->kind == QD_BREAK_TRANSITION)
            {
              guint64 ni, ne;

              qd_simulation_get_block_stats (self, b->block, &ni, &ne);
              counts[k] = ni + (b->kind == QD_BREAK_TRANSITION ? ne : 0);
            }
          else if (b->kind == QD_BREAK_CROSSING
                   && b->port < self->atomics[b->block].n_out)
            {
              guint64 ni;

              /* Before its first output a block's signal is a zero it
               * never sent: the first output is no crossing. */
              qd_simulation_get_block_stats (self, b->block, &ni, NULL);
              before[k] = ni > 0 ? signal_now (self, b->block, b->port, t_next) : NAN;
            }
        }
      status = qd_simulation_step (self, 1, &local);
      done++;
      if (status == QD_RUN_ERROR)
        {
          if (error_break == G_MAXUINT)
            {
              g_propagate_error (error, g_steal_pointer (&local));
              return FALSE;
            }
          /* Stopped before the failing event: the state the block had
           * when it failed is the state before it. */
          hit->index = error_break;
          hit->events = qd_simulation_get_events (self) - 1;
          hit->t = NAN;
          return TRUE;
        }
      if (status != QD_RUN_STEPPED)
        return FALSE;
      for (guint k = 0; k < n_breaks; k++)
        {
          const QdBreak *b = &breaks[k];
          gboolean met = FALSE;

          if (b->kind == QD_BREAK_INTERNAL || b->kind == QD_BREAK_TRANSITION)
            {
              guint64 ni, ne;

              qd_simulation_get_block_stats (self, b->block, &ni, &ne);
              met = ni + (b->kind == QD_BREAK_TRANSITION ? ne : 0) != counts[k];
            }
          else if (b->kind == QD_BREAK_CROSSING
                   && b->port < self->atomics[b->block].n_out)
            {
              /* A jump across the level at the event (a QSS1 output). */
              double after = signal_now (self, b->block, b->port, self->t_event);

              met = !isnan (before[k])
                    && ((before[k] - b->value) * (after - b->value) < 0
                        || (after == b->value && before[k] != b->value));
            }
          if (met)
            {
              hit->index = k;
              hit->events = qd_simulation_get_events (self);
              hit->t = NAN;
              return TRUE;
            }
        }
    }
  return FALSE;
}

/* -------------------------------------------------------------------- */
/* Breakpoints kept with a diagram */

static const char *const kind_names[] = {
  [QD_BREAK_TIME] = "time",
  [QD_BREAK_INTERNAL] = "internal",
  [QD_BREAK_TRANSITION] = "transition",
  [QD_BREAK_CROSSING] = "crossing",
  [QD_BREAK_ERROR] = "error",
};

QdBreakpoint *
qd_breakpoint_new (QdBreakKind  kind,
                   const char  *block,
                   guint        port,
                   double       value)
{
  QdBreakpoint *bp = g_new0 (QdBreakpoint, 1);

  bp->kind = kind;
  bp->block = g_strdup (block);
  bp->port = port;
  bp->value = value;
  return bp;
}

QdBreakpoint *
qd_breakpoint_copy (const QdBreakpoint *bp)
{
  g_return_val_if_fail (bp != NULL, NULL);

  return qd_breakpoint_new (bp->kind, bp->block, bp->port, bp->value);
}

void
qd_breakpoint_free (QdBreakpoint *bp)
{
  if (bp == NULL)
    return;
  g_free (bp->block);
  g_free (bp);
}

const char *
qd_break_kind_to_string (QdBreakKind kind)
{
  g_return_val_if_fail ((guint) kind < G_N_ELEMENTS (kind_names), NULL);

  return kind_names[kind];
}

gboolean
qd_break_kind_from_string (const char  *name,
                           QdBreakKind *kind)
{
  for (guint k = 0; name != NULL && k < G_N_ELEMENTS (kind_names); k++)
    if (strcmp (name, kind_names[k]) == 0)
      {
        *kind = (QdBreakKind) k;
        return TRUE;
      }
  return FALSE;
}

/* Kept on the document object: the model's own structures know nothing
 * of a debugger. */
#define BREAKPOINTS_KEY "qd-breakpoints"

GPtrArray *
qd_document_get_breakpoints (QdDocument *document)
{
  GPtrArray *list;

  g_return_val_if_fail (QD_IS_DOCUMENT (document), NULL);

  list = g_object_get_data (G_OBJECT (document), BREAKPOINTS_KEY);
  if (list == NULL)
    {
      list = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_breakpoint_free);
      g_object_set_data_full (G_OBJECT (document), BREAKPOINTS_KEY, list,
                              (GDestroyNotify) g_ptr_array_unref);
    }
  return list;
}

void
qd_document_load_breakpoints (QdDocument *document,
                              GPtrArray  *breakpoints)
{
  GPtrArray *list;

  g_return_if_fail (QD_IS_DOCUMENT (document));

  list = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_breakpoint_free);
  for (guint k = 0; breakpoints != NULL && k < breakpoints->len; k++)
    g_ptr_array_add (list, qd_breakpoint_copy (g_ptr_array_index (breakpoints, k)));
  g_object_set_data_full (G_OBJECT (document), BREAKPOINTS_KEY, list,
                          (GDestroyNotify) g_ptr_array_unref);
}

void
qd_document_set_breakpoints (QdDocument *document,
                             GPtrArray  *breakpoints)
{
  g_return_if_fail (QD_IS_DOCUMENT (document));

  qd_document_load_breakpoints (document, breakpoints);
  qd_document_set_unsaved (document);
}

/* qd-debugger.c: following a run transition by transition
 *
 * The position is a row of the Transitions table, with the event it
 * belongs to and the clock there. Moving within the rows already recorded
 * needs no run; moving past them asks the run for exactly the events
 * needed, computed beforehand on the copy (the "shadow"), and the
 * position is set when the run pauses ("progress" of the session).
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qd-debugger.h"
#include "qd-debugger-overlay.h"

/* Where the position goes when the run pauses after a command. */
typedef enum
{
  FOLLOW_END,        /* the last row (a run the user paused or stepped) */
  FOLLOW_FIRST_NEW,  /* the first row of event follow_event */
  FOLLOW_BLOCK,      /* the first new row of block follow_block */
} Follow;

/* A breakpoint search never runs more events than this at once on the
 * main thread; past it, the run just continues. */
#define MAX_SEARCH_EVENTS 20000000

struct _QdDebugger
{
  GObject       parent_instance;

  QdRunSession *session;     /* weak */
  QdCanvas     *canvas;      /* weak */
  QdEventView  *events;      /* the session's */
  QdRunner     *runner;      /* the run last seen (not a reference: only
                                compared, to notice a new run) */

  guint         pos;         /* row, or QD_DEBUGGER_NO_POSITION */
  guint64       pos_event;   /* events done at the position */
  double        pos_time;    /* the clock there */

  gboolean      waiting;     /* a command is running; follow on pause */
  Follow        follow;
  guint64       follow_event;
  guint         follow_block;
  guint         follow_rows; /* rows before the command */
  double        follow_until;  /* then run the clock to here, or NaN */
  double        follow_time;   /* the clock asked for, or NaN */

  /* The run as it was last followed. */
  guint64       seen_events;
  double        seen_time;
  QdRunnerState seen_state;

  QdSimulation *shadow;
  GPtrArray    *no_breakpoints;  /* what get_breakpoints gives without a
                                    diagram */

  gboolean      animate;
  gboolean      link_values;
  gint64        anim_start;  /* monotonic µs, 0: no animation */
  gint64        last_move;
  guint         anim_tick;
};

enum
{
  SIGNAL_CHANGED,
  SIGNAL_MESSAGE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (QdDebugger, qd_debugger, G_TYPE_OBJECT)

char *
qd_debug_breakpoint_describe (const QdBreakpoint *bp)
{
  switch (bp->kind)
    {
    case QD_BREAK_TIME:
      return g_strdup_printf (_("at t = %g"), bp->value);
    case QD_BREAK_INTERNAL:
      return g_strdup_printf (_("%s: next internal transition"), bp->block);
    case QD_BREAK_TRANSITION:
      return g_strdup_printf (_("%s: any transition"), bp->block);
    case QD_BREAK_CROSSING:
      return g_strdup_printf (_("%s output %u crosses %g"), bp->block,
                              bp->port + 1, bp->value);
    default:
      return g_strdup (_("a block reports an error"));
    }
}

/* -------------------------------------------------------------------- */
/* The live run and the shadow */

static QdRunnerState
runner_state (QdDebugger *self)
{
  QdRunner *runner = self->session != NULL ? qd_run_session_get_runner (self->session) : NULL;

  return runner != NULL ? qd_runner_get_state (runner) : QD_RUNNER_IDLE;
}

static gboolean
runner_is_over (QdRunnerState state)
{
  return state == QD_RUNNER_FINISHED || state == QD_RUNNER_STOPPED
         || state == QD_RUNNER_FAILED;
}

static guint64
live_events (QdDebugger *self)
{
  QdRunner *runner = qd_run_session_get_runner (self->session);

  if (runner == NULL || runner_state (self) == QD_RUNNER_IDLE)
    return 0;
  return qd_simulation_get_events (qd_runner_get_simulation (runner));
}

/* The shadow after @events events with its clock at @t (NaN: where the
 * last of them left it); NULL when the model does not compile or fails
 * before. */
static QdSimulation *
shadow_at (QdDebugger *self,
           guint64     events,
           double      t)
{
  g_autoptr(GError) error = NULL;
  QdDocument *doc = qd_run_session_get_document (self->session);

  if (self->shadow != NULL
      && (qd_simulation_get_events (self->shadow) > events
          || (!isnan (t) && qd_simulation_get_time (self->shadow) > t)))
    g_clear_pointer (&self->shadow, qd_simulation_free);
  if (self->shadow == NULL)
    {
      if (doc == NULL)
        return NULL;
      self->shadow = qd_simulation_new (doc, NULL, NULL, NULL);
      if (self->shadow == NULL)
        return NULL;
    }
  if (qd_simulation_get_events (self->shadow) < events
      && qd_simulation_step (self->shadow, events - qd_simulation_get_events (self->shadow),
                             &error) == QD_RUN_ERROR)
    {
      g_clear_pointer (&self->shadow, qd_simulation_free);
      return NULL;
    }
  if (!isnan (t) && t > qd_simulation_get_time (self->shadow)
      && qd_simulation_run_until (self->shadow, t, &error) == QD_RUN_ERROR)
    {
      g_clear_pointer (&self->shadow, qd_simulation_free);
      return NULL;
    }
  return self->shadow;
}

/* The simulation in the state of the position: the run itself when it is
 * paused there, else the shadow. */
static QdSimulation *
state_sim (QdDebugger *self)
{
  QdRunner *runner = self->session != NULL ? qd_run_session_get_runner (self->session) : NULL;
  QdRunnerState state = runner_state (self);

  if (runner == NULL || state == QD_RUNNER_RUNNING)
    return NULL;
  if (state == QD_RUNNER_PAUSED)
    {
      QdSimulation *live = qd_runner_get_simulation (runner);

      if (qd_simulation_get_events (live) == self->pos_event
          && qd_simulation_get_time (live) == self->pos_time)
        return live;
    }
  return shadow_at (self, self->pos_event, self->pos_time);
}

/* -------------------------------------------------------------------- */
/* The position */

static gboolean
animation_tick (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       user_data)
{
  QdDebugger *self = user_data;

  gtk_widget_queue_draw (widget);
  if (self->anim_start == 0
      || g_get_monotonic_time () - self->anim_start > QD_DEBUGGER_ANIMATION_US)
    {
      self->anim_start = 0;
      self->anim_tick = 0;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

/* Shows the position: the row selected, the canvas marks, the panels. */
static void
show_position (QdDebugger *self)
{
  QdLogEntry entry;
  QdSignal seg;
  gint64 now = g_get_monotonic_time ();

  if (self->events != NULL)
    qd_event_view_select_row (self->events, self->pos);
  /* A message travels along its link only at a pace a person follows:
   * steps coming faster than the animation show the marks alone. */
  self->anim_start = 0;
  if (self->animate && self->canvas != NULL
      && now - self->last_move > QD_DEBUGGER_ANIMATION_US / 2
      && qd_debugger_get_entry (self, &entry, &seg) && entry.kind == QD_LOG_OUTPUT)
    {
      self->anim_start = now;
      if (self->anim_tick == 0)
        self->anim_tick = gtk_widget_add_tick_callback (GTK_WIDGET (self->canvas),
                                                        animation_tick, self, NULL);
    }
  self->last_move = now;
  if (self->canvas != NULL)
    qd_canvas_queue_overlay (self->canvas);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

static void
set_row (QdDebugger *self,
         guint       row)
{
  QdLogEntry entry;
  QdSignal seg;

  self->pos = row;
  if (row != QD_DEBUGGER_NO_POSITION
      && qd_event_view_get_entry (self->events, row, &entry, &seg))
    {
      self->pos_event = entry.event;
      self->pos_time = entry.t;
    }
  else
    {
      self->pos = QD_DEBUGGER_NO_POSITION;
      self->pos_event = 0;
      self->pos_time = NAN;
    }
}

/* The last row of event @event or before it. */
static guint
last_row_of (QdDebugger *self,
             guint64     event)
{
  guint n = qd_event_view_get_n_rows (self->events);
  QdLogEntry entry;
  QdSignal seg;

  while (n > 0 && qd_event_view_get_entry (self->events, n - 1, &entry, &seg)
         && entry.event > event)
    n--;
  return n > 0 ? n - 1 : QD_DEBUGGER_NO_POSITION;
}

/* Sets the position once the run has paused (or ended) after a command,
 * or after the user ran and paused it. */
static void
follow_run (QdDebugger *self)
{
  QdRunner *runner = qd_run_session_get_runner (self->session);
  QdSimulation *live = qd_runner_get_simulation (runner);
  guint n, row;
  QdLogEntry entry;
  QdSignal seg;

  /* The rows of the pause: the session reads them when it hears of the
   * pause, which may come after this (the state is read anew here). */
  qd_event_view_update (self->events);
  n = qd_event_view_get_n_rows (self->events);
  row = n > 0 ? n - 1 : QD_DEBUGGER_NO_POSITION;
  if (self->waiting && runner_state (self) == QD_RUNNER_PAUSED)
    {
      /* The events asked for first, then the clock: a run-until may
       * follow the steps. */
      if (qd_simulation_get_events (live) < self->follow_event)
        return;
      if (!isnan (self->follow_until) && qd_simulation_get_time (live) < self->follow_until)
        {
          double t = self->follow_until;

          /* The events are done; now the clock, to the stop found inside
           * a segment or the time asked for. */
          self->follow_until = NAN;
          self->follow_time = t;
          qd_runner_run_until (runner, t);
          return;
        }
      if (!isnan (self->follow_time) && qd_simulation_get_time (live) < self->follow_time)
        return;
    }
  if (self->waiting && self->follow == FOLLOW_FIRST_NEW)
    for (guint r = self->follow_rows; r < n; r++)
      if (qd_event_view_get_entry (self->events, r, &entry, &seg)
          && entry.event >= self->follow_event)
        {
          row = r;
          break;
        }
  if (self->waiting && self->follow == FOLLOW_BLOCK)
    for (guint r = self->follow_rows; r < n; r++)
      if (qd_event_view_get_entry (self->events, r, &entry, &seg)
          && entry.block == self->follow_block && entry.kind != QD_LOG_OUTPUT)
        {
          row = r;
          break;
        }
  self->waiting = FALSE;
  set_row (self, row);
  self->pos_event = qd_simulation_get_events (live);
  self->pos_time = qd_simulation_get_time (live);
  if (row != QD_DEBUGGER_NO_POSITION && qd_event_view_get_entry (self->events, row, &entry, &seg)
      && entry.event < self->pos_event)
    {
      /* The row is not the last event (a block's first transition in a
       * later cascade): its own event and time. */
      self->pos_event = entry.event;
      self->pos_time = entry.t;
    }
  show_position (self);
}

static void
on_progress (QdRunSession *session,
             QdDebugger   *self)
{
  QdRunner *runner = qd_run_session_get_runner (session);
  QdRunnerState state = runner_state (self);

  if (runner != self->runner)
    {
      /* A new run: the rows start again, and so does the shadow. */
      self->runner = runner;
      self->seen_events = 0;
      self->seen_time = NAN;
      self->seen_state = QD_RUNNER_IDLE;
      g_clear_pointer (&self->shadow, qd_simulation_free);
      set_row (self, QD_DEBUGGER_NO_POSITION);
      self->pos_time = runner != NULL
                       ? qd_simulation_get_start_time (qd_runner_get_simulation (runner))
                       : NAN;
      if (self->canvas != NULL)
        qd_canvas_queue_overlay (self->canvas);
      g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
    }
  if (runner == NULL || state == QD_RUNNER_RUNNING || state == QD_RUNNER_IDLE)
    return;
  /* Paused or over: follow the run when it moved since it was last
   * followed (not when only the position moved, stepping back). */
  {
    QdSimulation *live = qd_runner_get_simulation (runner);
    guint64 events = qd_simulation_get_events (live);
    double t = qd_simulation_get_time (live);

    if (self->waiting || events != self->seen_events || t != self->seen_time
        || state != self->seen_state)
      {
        self->seen_events = events;
        self->seen_time = t;
        self->seen_state = state;
        follow_run (self);
      }
  }
}

/* -------------------------------------------------------------------- */
/* Commands */

static gboolean
can_command (QdDebugger *self)
{
  return self->session != NULL && qd_run_session_get_document (self->session) != NULL
         && runner_state (self) != QD_RUNNER_RUNNING && !self->waiting;
}

/* Takes the position to after @event events: within the rows recorded,
 * or by running the run on (starting one when there is none). */
static void
go_to_event (QdDebugger *self,
             guint64     event,
             Follow      follow,
             double      until)
{
  QdRunnerState state = runner_state (self);
  guint64 live = live_events (self);
  gboolean over = runner_is_over (state);

  if (state != QD_RUNNER_IDLE && qd_run_session_get_runner (self->session) != NULL
      && (over || event < live
          || (event == live
              && (isnan (until)
                  || qd_simulation_get_time (qd_runner_get_simulation (qd_run_session_get_runner (self->session))) >= until))))
    {
      /* The run has been there: the rows tell the way. */
      guint row = last_row_of (self, event);

      if (follow == FOLLOW_FIRST_NEW)
        {
          QdLogEntry entry;
          QdSignal seg;

          while (row != QD_DEBUGGER_NO_POSITION && row > 0
                 && qd_event_view_get_entry (self->events, row - 1, &entry, &seg)
                 && entry.event == event)
            row--;
        }
      set_row (self, row);
      self->pos_event = event;
      if (!isnan (until))
        self->pos_time = until;
      show_position (self);
      return;
    }
  self->waiting = TRUE;
  self->follow = follow;
  self->follow_event = event;
  self->follow_until = until;
  self->follow_time = NAN;
  if (over || state == QD_RUNNER_IDLE || qd_run_session_get_runner (self->session) == NULL)
    {
      self->follow_rows = 0;
      live = 0;
    }
  else
    self->follow_rows = qd_event_view_get_n_rows (self->events);
  if (event > live)
    {
      if (!qd_run_session_step (self->session, event - live))
        self->waiting = FALSE;
    }
  else
    {
      self->follow_until = NAN;
      self->follow_time = until;
      qd_runner_run_until (qd_run_session_get_runner (self->session), until);
    }
}

static gboolean
row_exists (QdDebugger *self,
            guint       row)
{
  return row != QD_DEBUGGER_NO_POSITION && row < qd_event_view_get_n_rows (self->events);
}

void
qd_debugger_step_transition (QdDebugger *self)
{
  guint next;

  g_return_if_fail (QD_IS_DEBUGGER (self));
  if (!can_command (self))
    return;
  next = self->pos == QD_DEBUGGER_NO_POSITION ? 0 : self->pos + 1;
  if (runner_state (self) != QD_RUNNER_IDLE && row_exists (self, next))
    {
      set_row (self, next);
      show_position (self);
      return;
    }
  if (runner_is_over (runner_state (self)) && qd_event_view_get_n_rows (self->events) > 0)
    {
      g_signal_emit (self, signals[SIGNAL_MESSAGE], 0, _("The run is over."));
      return;
    }
  go_to_event (self, self->pos_event + 1, FOLLOW_FIRST_NEW, NAN);
}

void
qd_debugger_step_back (QdDebugger *self)
{
  g_return_if_fail (QD_IS_DEBUGGER (self));
  if (!can_command (self) || self->pos == QD_DEBUGGER_NO_POSITION)
    return;
  set_row (self, self->pos > 0 ? self->pos - 1 : QD_DEBUGGER_NO_POSITION);
  if (self->pos == QD_DEBUGGER_NO_POSITION)
    {
      QdRunner *runner = qd_run_session_get_runner (self->session);

      self->pos_time = qd_simulation_get_start_time (qd_runner_get_simulation (runner));
    }
  show_position (self);
}

void
qd_debugger_step_event (QdDebugger *self)
{
  QdSimulation *sim;
  double t1;

  g_return_if_fail (QD_IS_DEBUGGER (self));
  if (!can_command (self))
    return;
  /* Every event at the time of the next one: its zero-time cascade. */
  sim = shadow_at (self, self->pos_event, self->pos_time);
  if (sim == NULL)
    return;
  t1 = qd_simulation_get_next_time (sim);
  if (!(t1 < qd_simulation_get_final_time (sim)))
    {
      g_signal_emit (self, signals[SIGNAL_MESSAGE], 0, _("No event is left before the final time."));
      return;
    }
  while (qd_simulation_get_next_time (sim) <= t1)
    if (qd_simulation_step (sim, 1, NULL) != QD_RUN_STEPPED)
      break;
  go_to_event (self, qd_simulation_get_events (sim), FOLLOW_END, NAN);
}

static int
find_block (QdSimulation *sim,
            const char   *path)
{
  for (guint i = 0; i < qd_simulation_get_n_atomics (sim); i++)
    if (g_strcmp0 (qd_simulation_get_atomic (sim, i)->path, path) == 0)
      return (int) i;
  return -1;
}

void
qd_debugger_run_to_block (QdDebugger *self,
                          const char *path)
{
  QdSimulation *sim;
  QdBreak b = { QD_BREAK_TRANSITION, 0, 0, 0 };
  QdBreakHit hit;
  int index;
  guint n;

  g_return_if_fail (QD_IS_DEBUGGER (self));
  if (!can_command (self) || path == NULL)
    return;
  /* Among the rows recorded first. */
  n = qd_event_view_get_n_rows (self->events);
  for (guint r = self->pos == QD_DEBUGGER_NO_POSITION ? 0 : self->pos + 1;
       runner_state (self) != QD_RUNNER_IDLE && r < n; r++)
    {
      QdLogEntry entry;
      QdSignal seg;

      if (qd_event_view_get_entry (self->events, r, &entry, &seg)
          && entry.kind != QD_LOG_OUTPUT
          && g_strcmp0 (qd_event_view_get_block_path (self->events, entry.block), path) == 0)
        {
          set_row (self, r);
          show_position (self);
          return;
        }
    }
  sim = shadow_at (self, live_events (self), NAN);
  if (sim == NULL || (index = find_block (sim, path)) < 0)
    return;
  b.block = (guint) index;
  if (!qd_simulation_run_to_break (sim, &b, 1, MAX_SEARCH_EVENTS, &hit, NULL))
    {
      g_autofree char *text = g_strdup_printf (_("%s makes no further transition."), path);

      g_signal_emit (self, signals[SIGNAL_MESSAGE], 0, text);
      return;
    }
  self->follow_block = b.block;
  go_to_event (self, hit.events, FOLLOW_BLOCK, NAN);
}

void
qd_debugger_run_to_time (QdDebugger *self,
                         double      t)
{
  QdSimulation *sim;

  g_return_if_fail (QD_IS_DEBUGGER (self));
  if (!can_command (self) || !isfinite (t))
    return;
  sim = shadow_at (self, self->pos_event, self->pos_time);
  if (sim == NULL)
    return;
  if (t <= qd_simulation_get_time (sim))
    {
      /* Back in time: the last row before @t. */
      guint row = QD_DEBUGGER_NO_POSITION;
      QdLogEntry entry;
      QdSignal seg;

      for (guint r = 0; r < qd_event_view_get_n_rows (self->events); r++)
        if (qd_event_view_get_entry (self->events, r, &entry, &seg) && entry.t < t)
          row = r;
      set_row (self, row);
      show_position (self);
      return;
    }
  t = MIN (t, qd_simulation_get_final_time (sim));
  qd_simulation_run_until (sim, t, NULL);
  go_to_event (self, qd_simulation_get_events (sim), FOLLOW_END, t);
}

/* The breakpoints against the flat model of @sim; those whose block is
 * gone are left out. */
static GArray *
resolve_breakpoints (QdDebugger   *self,
                     QdSimulation *sim)
{
  GArray *out = g_array_new (FALSE, FALSE, sizeof (QdBreak));

  GPtrArray *bps = qd_debugger_get_breakpoints (self);

  for (guint k = 0; k < bps->len; k++)
    {
      QdBreakpoint *bp = g_ptr_array_index (bps, k);
      QdBreak b = { bp->kind, 0, bp->port, bp->value };

      if (bp->block != NULL)
        {
          int index = find_block (sim, bp->block);

          if (index < 0)
            b.kind = QD_BREAK_TIME, b.value = QD_INF;
          else
            b.block = (guint) index;
        }
      g_array_append_val (out, b);
    }
  return out;
}

void
qd_debugger_continue (QdDebugger *self)
{
  g_autoptr(GArray) breaks = NULL;
  QdSimulation *sim;
  QdBreakHit hit;

  g_return_if_fail (QD_IS_DEBUGGER (self));
  if (!can_command (self))
    return;
  /* At the end of a run that is over, Continue means the run again, from
   * its start: a breakpoint set after it (from a plot, say) is then met
   * on the way. */
  if (runner_is_over (runner_state (self))
      && self->pos_event >= live_events (self))
    sim = shadow_at (self, 0, NAN);
  else
    sim = shadow_at (self, self->pos_event, self->pos_time);
  if (sim == NULL)
    {
      qd_run_session_run (self->session);
      return;
    }
  breaks = resolve_breakpoints (self, sim);
  if (breaks->len > 0
      && qd_simulation_run_to_break (sim, (QdBreak *) breaks->data, breaks->len,
                                     MAX_SEARCH_EVENTS, &hit, NULL))
    {
      g_autofree char *what =
        qd_debug_breakpoint_describe (g_ptr_array_index (qd_debugger_get_breakpoints (self),
                                                         hit.index));
      g_autofree char *text = g_strdup_printf (_("Breakpoint: %s"), what);

      g_signal_emit (self, signals[SIGNAL_MESSAGE], 0, text);
      go_to_event (self, hit.events, FOLLOW_END, hit.t);
      return;
    }
  /* No breakpoint ahead: the run goes on at full speed. */
  g_clear_pointer (&self->shadow, qd_simulation_free);
  qd_run_session_run (self->session);
}

/* -------------------------------------------------------------------- */
/* What the panels read */

gboolean
qd_debugger_is_busy (QdDebugger *self)
{
  g_return_val_if_fail (QD_IS_DEBUGGER (self), FALSE);

  return self->waiting || runner_state (self) == QD_RUNNER_RUNNING;
}

guint
qd_debugger_get_position (QdDebugger *self)
{
  g_return_val_if_fail (QD_IS_DEBUGGER (self), QD_DEBUGGER_NO_POSITION);

  return self->pos;
}

double
qd_debugger_get_time (QdDebugger *self)
{
  g_return_val_if_fail (QD_IS_DEBUGGER (self), NAN);

  return self->pos_time;
}

gboolean
qd_debugger_get_entry (QdDebugger *self,
                       QdLogEntry *entry,
                       QdSignal   *segment)
{
  g_return_val_if_fail (QD_IS_DEBUGGER (self), FALSE);

  return self->events != NULL && self->pos != QD_DEBUGGER_NO_POSITION
         && qd_event_view_get_entry (self->events, self->pos, entry, segment);
}

GHashTable *
qd_debugger_dup_link_values (QdDebugger *self)
{
  GHashTable *values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  g_return_val_if_fail (QD_IS_DEBUGGER (self), values);

  for (guint r = 0; self->pos != QD_DEBUGGER_NO_POSITION && r <= self->pos; r++)
    {
      QdLogEntry entry;
      QdSignal seg;

      if (qd_event_view_get_entry (self->events, r, &entry, &seg)
          && entry.kind == QD_LOG_OUTPUT)
        g_hash_table_insert (values,
                             g_strdup_printf ("%s:%u",
                                              qd_event_view_get_block_path (self->events,
                                                                            entry.block),
                                              entry.port),
                             g_memdup2 (&seg, sizeof seg));
    }
  return values;
}

GArray *
qd_debugger_dup_pending (QdDebugger *self)
{
  QdSimulation *sim;

  g_return_val_if_fail (QD_IS_DEBUGGER (self), NULL);

  sim = state_sim (self);
  return sim != NULL ? qd_simulation_dup_pending (sim) : NULL;
}

const char *
qd_debugger_get_block_path (QdDebugger *self,
                            guint       block)
{
  g_return_val_if_fail (QD_IS_DEBUGGER (self), NULL);

  return self->events != NULL ? qd_event_view_get_block_path (self->events, block) : NULL;
}

const char *
qd_debugger_get_block_phase (QdDebugger *self,
                             guint       block)
{
  QdSimulation *sim;

  g_return_val_if_fail (QD_IS_DEBUGGER (self), NULL);

  sim = state_sim (self);
  if (sim == NULL || block >= qd_simulation_get_n_atomics (sim))
    return NULL;
  return _(qd_simulation_get_block_phase (sim, block));
}

gboolean
qd_debugger_describe_block (QdDebugger *self,
                            const char *path,
                            QdStateFunc add,
                            gpointer    user_data)
{
  QdSimulation *sim;
  int index;

  g_return_val_if_fail (QD_IS_DEBUGGER (self), FALSE);

  sim = state_sim (self);
  if (sim == NULL || path == NULL || (index = find_block (sim, path)) < 0)
    return FALSE;
  return qd_simulation_describe_block_state (sim, (guint) index, add, user_data);
}

GPtrArray *
qd_debugger_get_breakpoints (QdDebugger *self)
{
  QdDocument *doc;

  g_return_val_if_fail (QD_IS_DEBUGGER (self), NULL);

  doc = self->session != NULL ? qd_run_session_get_document (self->session) : NULL;
  if (doc == NULL)
    {
      /* No diagram, no breakpoints: an empty list to read. */
      if (self->no_breakpoints == NULL)
        self->no_breakpoints = g_ptr_array_new ();
      return self->no_breakpoints;
    }
  return qd_document_get_breakpoints (doc);
}

void
qd_debugger_add_breakpoint (QdDebugger  *self,
                            QdBreakKind  kind,
                            const char  *path,
                            guint        port,
                            double       value)
{
  QdDocument *doc;
  g_autoptr(GPtrArray) list = NULL;
  GPtrArray *old;

  g_return_if_fail (QD_IS_DEBUGGER (self));
  g_return_if_fail (path != NULL || kind == QD_BREAK_TIME || kind == QD_BREAK_ERROR);

  doc = self->session != NULL ? qd_run_session_get_document (self->session) : NULL;
  if (doc == NULL)
    return;
  old = qd_document_get_breakpoints (doc);
  list = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_breakpoint_free);
  for (guint k = 0; k < old->len; k++)
    g_ptr_array_add (list, qd_breakpoint_copy (g_ptr_array_index (old, k)));
  g_ptr_array_add (list, qd_breakpoint_new (kind, path, port, value));
  qd_document_set_breakpoints (doc, list);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

void
qd_debugger_remove_breakpoint (QdDebugger *self,
                               guint       index)
{
  QdDocument *doc;
  g_autoptr(GPtrArray) list = NULL;
  GPtrArray *old;

  g_return_if_fail (QD_IS_DEBUGGER (self));

  doc = self->session != NULL ? qd_run_session_get_document (self->session) : NULL;
  if (doc == NULL)
    return;
  old = qd_document_get_breakpoints (doc);
  g_return_if_fail (index < old->len);
  list = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_breakpoint_free);
  for (guint k = 0; k < old->len; k++)
    if (k != index)
      g_ptr_array_add (list, qd_breakpoint_copy (g_ptr_array_index (old, k)));
  qd_document_set_breakpoints (doc, list);
  g_signal_emit (self, signals[SIGNAL_CHANGED], 0);
}

void
qd_debugger_set_animate (QdDebugger *self,
                         gboolean    animate)
{
  g_return_if_fail (QD_IS_DEBUGGER (self));

  self->animate = animate;
}

gboolean
qd_debugger_get_animate (QdDebugger *self)
{
  g_return_val_if_fail (QD_IS_DEBUGGER (self), FALSE);

  return self->animate;
}

void
qd_debugger_set_link_values (QdDebugger *self,
                             gboolean    show)
{
  g_return_if_fail (QD_IS_DEBUGGER (self));

  self->link_values = show;
  if (self->canvas != NULL)
    qd_canvas_queue_overlay (self->canvas);
}

gboolean
qd_debugger_get_link_values (QdDebugger *self)
{
  g_return_val_if_fail (QD_IS_DEBUGGER (self), FALSE);

  return self->link_values;
}

QdRunSession *
qd_debugger_get_session (QdDebugger *self)
{
  g_return_val_if_fail (QD_IS_DEBUGGER (self), NULL);

  return self->session;
}

double
qd_debugger_get_animation (QdDebugger *self)
{
  g_return_val_if_fail (QD_IS_DEBUGGER (self), -1);

  if (self->anim_start == 0)
    return -1;
  return MIN (1.0, (g_get_monotonic_time () - self->anim_start)
                   / (double) QD_DEBUGGER_ANIMATION_US);
}

/* -------------------------------------------------------------------- */

static void
on_row_selected (QdEventView *view,
                 guint        row,
                 QdDebugger  *self)
{
  /* The user picked a row: the position goes there (as stepping back or
   * forward would), and the window shows its block. */
  if (runner_state (self) != QD_RUNNER_RUNNING && !self->waiting)
    {
      set_row (self, row);
      show_position (self);
    }
  qd_event_view_activate (view, row);
}

static void
draw_overlay (QdCanvas *canvas,
              cairo_t  *cr,
              QdSystem *system,
              gpointer  user_data)
{
  qd_debugger_overlay_draw (QD_DEBUGGER (user_data), canvas, cr, system);
}

static void
qd_debugger_dispose (GObject *object)
{
  QdDebugger *self = QD_DEBUGGER (object);

  if (self->canvas != NULL)
    {
      if (self->anim_tick != 0)
        gtk_widget_remove_tick_callback (GTK_WIDGET (self->canvas), self->anim_tick);
      self->anim_tick = 0;
      qd_canvas_set_overlay (self->canvas, NULL, NULL);
    }
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  if (self->events != NULL)
    g_signal_handlers_disconnect_by_data (self->events, self);
  g_clear_object (&self->events);
  g_clear_weak_pointer (&self->session);
  g_clear_weak_pointer (&self->canvas);
  g_clear_pointer (&self->shadow, qd_simulation_free);

  G_OBJECT_CLASS (qd_debugger_parent_class)->dispose (object);
}

static void
qd_debugger_finalize (GObject *object)
{
  QdDebugger *self = QD_DEBUGGER (object);

  g_clear_pointer (&self->no_breakpoints, g_ptr_array_unref);

  G_OBJECT_CLASS (qd_debugger_parent_class)->finalize (object);
}

static void
qd_debugger_class_init (QdDebuggerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = qd_debugger_dispose;
  object_class->finalize = qd_debugger_finalize;

  /* The position, the state there or the breakpoints changed. */
  signals[SIGNAL_CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* A short text for the user: the breakpoint met, why nothing moved. */
  signals[SIGNAL_MESSAGE] =
    g_signal_new ("message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
qd_debugger_init (QdDebugger *self)
{
  self->pos = QD_DEBUGGER_NO_POSITION;
  self->pos_time = NAN;
  self->follow_until = NAN;
  self->follow_time = NAN;
  self->animate = TRUE;
}

QdDebugger *
qd_debugger_new (QdRunSession *session,
                 QdCanvas     *canvas)
{
  QdDebugger *self;

  g_return_val_if_fail (QD_IS_RUN_SESSION (session), NULL);
  g_return_val_if_fail (canvas == NULL || QD_IS_CANVAS (canvas), NULL);

  self = g_object_new (QD_TYPE_DEBUGGER, NULL);
  g_set_weak_pointer (&self->session, session);
  g_set_weak_pointer (&self->canvas, canvas);
  self->events = g_object_ref (qd_run_session_get_event_view (session));
  g_signal_connect (session, "progress", G_CALLBACK (on_progress), self);
  /* Breakpoints set from a plot or the run bar. */
  g_signal_connect_swapped (session, "break-requested",
                            G_CALLBACK (qd_debugger_add_breakpoint), self);
  g_signal_connect (self->events, "row-selected", G_CALLBACK (on_row_selected), self);
  if (canvas != NULL)
    qd_canvas_set_overlay (canvas, draw_overlay, self);
  return self;
}

/* qd-runner.c: runs a compiled simulation on a worker thread
 *
 * Two threads share this object:
 *
 *  - the owner (the thread that created it) issues commands, reads the
 *    progress and receives the signals;
 *  - the worker executes the simulation, the only thread that ever calls
 *    its run, step and finish functions.
 *
 * They meet under one mutex, held only for a few field accesses: the owner
 * writes the command (a goal: run to the end, run until a time, step a
 * number of events; plus pause, stop, quit and the real-time pace) and
 * wakes the worker through the condition variable; the worker publishes
 * the state and the error. A command given while the worker is inside the
 * simulation also calls qd_simulation_request_stop(), which makes the
 * running call return within a few thousand events; the worker then reads
 * the command again. The simulation's own guarantee, that any sequence of
 * run_until and step calls gives the same result as one run, makes these
 * interruptions invisible in the traces.
 *
 * The worker never emits a signal. It flags a change and sets the ready
 * time of a GSource attached to the owner's main context to "now"
 * (g_source_set_ready_time() is safe from any thread and coalesces many
 * wake-ups into one dispatch); the dispatch emits the notifications on the
 * owner's thread. The same source ticks about 30 times a second while
 * running for the "progress" signal.
 *
 * Real time: the worker keeps an anchor (wall clock, simulated time) taken
 * at the last command, runs every event up to anchor_sim + elapsed wall
 * time × speed, then sleeps on the condition variable until the next event
 * is due (or a frame at most, so that the published time keeps moving),
 * or until a command arrives.
 */
#include <math.h>

#include "qd-runner.h"

/* Progress ticks: about 30 a second. */
#define TICK_US           (G_USEC_PER_SEC / 30)
/* The longest real-time sleep: the simulated clock advances at least this
 * often even when no event is due. */
#define REALTIME_FRAME_US (G_USEC_PER_SEC / 60)
/* Samples of (running wall time, events) for the events-per-second
 * figure: more than a second of ticks. */
#define N_SAMPLES         64

typedef enum
{
  GOAL_NONE,
  GOAL_RUN,       /* to the final time */
  GOAL_UNTIL,     /* every event before goal_time */
  GOAL_STEP,      /* goal_events internal events */
} Goal;

typedef struct
{
  gint64  wall;     /* running wall time, µs */
  guint64 events;
} Sample;

struct _QdRunner
{
  GObject        parent_instance;

  QdSimulation  *sim;
  GThread       *thread;
  GMainContext  *context;
  GSource       *source;    /* dispatches to the owner */

  /* Shared: guarded by lock. */
  GMutex         lock;
  GCond          cond;
  Goal           goal;
  double         goal_time;
  guint64        goal_events;
  guint          goal_serial;      /* changes with every new goal */
  guint          command_serial;   /* changes with every command */
  gboolean       pause_requested;
  gboolean       stop_requested;
  gboolean       quit;
  gboolean       realtime;
  double         speed;
  QdRunnerState  state;
  GError        *error;
  gint64         running_since;    /* monotonic µs when RUNNING began */
  gint64         running_total;    /* µs in RUNNING before that */
  gboolean       wake_pending;     /* the owner has something to emit */

  /* Owner only. */
  QdRunnerState  emitted_state;
  gboolean       finished_emitted;
  gboolean       disposed;
  gint64         last_progress;
  Sample         samples[N_SAMPLES];
  guint          n_samples;
  guint          sample_next;
};

enum
{
  PROP_0,
  PROP_STATE,
  N_PROPS
};

enum
{
  SIGNAL_PROGRESS,
  SIGNAL_FINISHED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_ENUM_TYPE (QdRunnerState, qd_runner_state,
  G_DEFINE_ENUM_VALUE (QD_RUNNER_IDLE, "idle"),
  G_DEFINE_ENUM_VALUE (QD_RUNNER_RUNNING, "running"),
  G_DEFINE_ENUM_VALUE (QD_RUNNER_PAUSED, "paused"),
  G_DEFINE_ENUM_VALUE (QD_RUNNER_FINISHED, "finished"),
  G_DEFINE_ENUM_VALUE (QD_RUNNER_STOPPED, "stopped"),
  G_DEFINE_ENUM_VALUE (QD_RUNNER_FAILED, "failed"))

G_DEFINE_FINAL_TYPE (QdRunner, qd_runner, G_TYPE_OBJECT)

static inline gboolean
is_terminal (QdRunnerState state)
{
  return state == QD_RUNNER_FINISHED || state == QD_RUNNER_STOPPED
         || state == QD_RUNNER_FAILED;
}

/* -------------------------------------------------------------------- */
/* Shared helpers (lock held) */

/* Every change of state goes through here, so that the wall time spent
 * running is accounted in one place. */
static void
set_state_locked (QdRunner      *self,
                  QdRunnerState  state)
{
  gint64 now = g_get_monotonic_time ();

  if (self->state == state)
    return;
  if (self->state == QD_RUNNER_RUNNING)
    self->running_total += now - self->running_since;
  if (state == QD_RUNNER_RUNNING)
    self->running_since = now;
  self->state = state;
}

static gint64
running_wall_locked (QdRunner *self)
{
  gint64 total = self->running_total;

  if (self->state == QD_RUNNER_RUNNING)
    total += g_get_monotonic_time () - self->running_since;
  return total;
}

/* Worker side: asks the owner's context to dispatch soon. */
static void
wake_owner_locked (QdRunner *self)
{
  self->wake_pending = TRUE;
  g_source_set_ready_time (self->source, 0);
}

/* Owner side: the next dispatch, now if the worker flagged something,
 * else at the next progress tick while running. */
static void
schedule_tick_locked (QdRunner *self)
{
  gint64 ready = -1;

  if (self->wake_pending)
    ready = 0;
  else if (self->state == QD_RUNNER_RUNNING)
    ready = self->last_progress + TICK_US;
  g_source_set_ready_time (self->source, ready);
}

/* -------------------------------------------------------------------- */
/* The worker */

/* Ends the run (worker only, lock not held): the blocks' exit functions
 * run and the traces close at the current time, before the owner hears of
 * it. */
static void
end_run (QdRunner      *self,
         QdRunnerState  state,
         GError        *error)
{
  qd_simulation_finish (self->sim);

  g_mutex_lock (&self->lock);
  g_clear_error (&self->error);
  self->error = error;
  self->goal = GOAL_NONE;
  set_state_locked (self, state);
  wake_owner_locked (self);
  g_mutex_unlock (&self->lock);
}

/* A step or run-until reached its end: pause, unless the owner has given
 * a new goal in the meantime. */
static void
complete_goal (QdRunner *self,
               guint     serial)
{
  g_mutex_lock (&self->lock);
  if (self->goal_serial == serial && !is_terminal (self->state))
    {
      self->goal = GOAL_NONE;
      set_state_locked (self, QD_RUNNER_PAUSED);
      wake_owner_locked (self);
    }
  g_mutex_unlock (&self->lock);
}

/* In real time, after the events up to the pace: sleeps until the next
 * event is due, a frame at most, or until a command arrives. */
static void
realtime_sleep (QdRunner *self,
                gint64    anchor_wall,
                double    anchor_sim,
                double    speed,
                double    target,
                guint     command_serial)
{
  double next = MIN (qd_simulation_get_next_time (self->sim), target);
  gint64 now = g_get_monotonic_time ();
  gint64 wake = now + REALTIME_FRAME_US;
  double due = (double) anchor_wall
               + (next - anchor_sim) / speed * G_USEC_PER_SEC;

  if (due < (double) wake)
    wake = (gint64) due + 1;

  g_mutex_lock (&self->lock);
  if (self->command_serial == command_serial && !self->quit)
    g_cond_wait_until (&self->cond, &self->lock, wake);
  g_mutex_unlock (&self->lock);
}

static gpointer
worker_main (gpointer data)
{
  QdRunner *self = data;
  QdSimulation *sim = self->sim;
  double final_time = qd_simulation_get_final_time (sim);
  guint seen_goal = 0;
  guint seen_command = 0;
  guint64 goal_start_events = 0;
  gint64 anchor_wall = 0;
  double anchor_sim = 0;

  g_mutex_lock (&self->lock);
  for (;;)
    {
      Goal goal;
      double goal_time, speed;
      guint64 goal_events;
      guint goal_serial, command_serial;
      gboolean realtime;
      GError *error = NULL;
      QdRunStatus status;
      double target;

      if (self->quit)
        break;
      if (is_terminal (self->state))
        {
          g_cond_wait (&self->cond, &self->lock);
          continue;
        }
      if (self->stop_requested)
        {
          g_mutex_unlock (&self->lock);
          end_run (self, QD_RUNNER_STOPPED, NULL);
          g_mutex_lock (&self->lock);
          continue;
        }
      if (self->goal == GOAL_NONE || self->pause_requested)
        {
          if (self->state == QD_RUNNER_RUNNING)
            {
              set_state_locked (self, QD_RUNNER_PAUSED);
              wake_owner_locked (self);
            }
          g_cond_wait (&self->cond, &self->lock);
          continue;
        }

      if (self->goal_serial != seen_goal)
        {
          seen_goal = self->goal_serial;
          goal_start_events = qd_simulation_get_events (sim);
        }
      if (self->command_serial != seen_command)
        {
          /* Any command (a resume after a pause, a new speed) restarts the
           * real-time clock from here. */
          seen_command = self->command_serial;
          anchor_wall = g_get_monotonic_time ();
          anchor_sim = qd_simulation_get_time (sim);
        }
      goal = self->goal;
      goal_time = self->goal_time;
      goal_events = self->goal_events;
      goal_serial = self->goal_serial;
      command_serial = self->command_serial;
      realtime = self->realtime;
      speed = self->speed;
      g_mutex_unlock (&self->lock);

      if (goal == GOAL_STEP)
        {
          guint64 done = qd_simulation_get_events (sim) - goal_start_events;

          status = QD_RUN_STEPPED;
          if (done < goal_events)
            status = qd_simulation_step (sim, goal_events - done, &error);
          if (status == QD_RUN_STEPPED)
            complete_goal (self, goal_serial);
          else if (status == QD_RUN_DONE)
            {
              /* Nothing is left before the final time: the clock goes
               * there, as at the end of any run. */
              status = qd_simulation_run_until (sim, final_time, &error);
              if (status == QD_RUN_DONE)
                end_run (self, QD_RUNNER_FINISHED, NULL);
            }
        }
      else
        {
          double horizon;

          target = goal == GOAL_RUN ? final_time : MIN (goal_time, final_time);
          horizon = target;
          if (realtime)
            {
              gint64 now = g_get_monotonic_time ();
              double paced = anchor_sim
                             + (double) (now - anchor_wall) / G_USEC_PER_SEC * speed;

              horizon = MIN (paced, target);
            }
          status = qd_simulation_run_until (sim, horizon, &error);
          if (status == QD_RUN_DONE && horizon < target)
            realtime_sleep (self, anchor_wall, anchor_sim, speed, target,
                            command_serial);
          else if (status == QD_RUN_DONE && target >= final_time)
            end_run (self, QD_RUNNER_FINISHED, NULL);
          else if (status == QD_RUN_DONE)
            complete_goal (self, goal_serial);
        }

      /* QD_RUN_STOPPED: a command interrupted the call; read it. */
      if (status == QD_RUN_ERROR)
        end_run (self, QD_RUNNER_FAILED, g_steal_pointer (&error));
      g_clear_error (&error);

      g_mutex_lock (&self->lock);
    }
  g_mutex_unlock (&self->lock);

  return NULL;
}

/* -------------------------------------------------------------------- */
/* The owner side */

static void
add_sample (QdRunner *self,
            gint64    wall,
            guint64   events)
{
  self->samples[self->sample_next] = (Sample) { wall, events };
  self->sample_next = (self->sample_next + 1) % N_SAMPLES;
  self->n_samples = MIN (self->n_samples + 1, N_SAMPLES);
}

/* Events per second between the oldest sample of the last second and
 * now. */
static double
events_per_second (QdRunner *self,
                   gint64    wall,
                   guint64   events)
{
  const Sample *oldest = NULL;

  for (guint k = 0; k < self->n_samples; k++)
    {
      const Sample *s = &self->samples[(self->sample_next + N_SAMPLES - 1 - k)
                                       % N_SAMPLES];

      if (wall - s->wall > G_USEC_PER_SEC)
        break;
      oldest = s;
    }
  if (oldest == NULL || wall - oldest->wall < 1000 || events < oldest->events)
    return 0;
  return (double) (events - oldest->events) * G_USEC_PER_SEC
         / (double) (wall - oldest->wall);
}

/* Notifies @state if it is not the one last notified. */
static void
emit_state (QdRunner      *self,
            QdRunnerState  state)
{
  if (state == self->emitted_state)
    return;
  self->emitted_state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

/* Emits what changed since the last call: the state, the progress (at most
 * once a tick unless the state changed, or when @force), "finished" once.
 * Handlers may call commands, which land here again. */
static void
owner_update (QdRunner *self,
              gboolean  force)
{
  QdRunnerState state;
  GError *error;
  gint64 now, wall;
  gboolean changed = FALSE;

  if (self->disposed)
    return;
  g_object_ref (self);

  g_mutex_lock (&self->lock);
  self->wake_pending = FALSE;
  state = self->state;
  error = self->error;
  wall = running_wall_locked (self);
  g_mutex_unlock (&self->lock);

  now = g_get_monotonic_time ();
  add_sample (self, wall, qd_simulation_get_events (self->sim));

  if (state != self->emitted_state)
    {
      changed = TRUE;
      emit_state (self, state);
    }
  if (!self->disposed
      && (changed || force || now - self->last_progress >= TICK_US - 1000))
    {
      self->last_progress = now;
      g_signal_emit (self, signals[SIGNAL_PROGRESS], 0);
    }
  if (!self->disposed && is_terminal (state) && !self->finished_emitted)
    {
      self->finished_emitted = TRUE;
      g_signal_emit (self, signals[SIGNAL_FINISHED], 0, state, error);
    }

  if (!self->disposed)
    {
      g_mutex_lock (&self->lock);
      schedule_tick_locked (self);
      g_mutex_unlock (&self->lock);
    }
  g_object_unref (self);
}

static gboolean
source_dispatch (GSource     *source,
                 GSourceFunc  callback,
                 gpointer     user_data)
{
  /* A ready-time source stays ready until its time is set again, which
   * owner_update() does through the callback. */
  g_source_set_ready_time (source, -1);
  return callback (user_data);
}

static GSourceFuncs source_funcs = {
  .dispatch = source_dispatch,
};

static gboolean
on_source (gpointer data)
{
  owner_update (data, FALSE);
  return G_SOURCE_CONTINUE;
}

/* -------------------------------------------------------------------- */
/* Commands */

/* Sets a new goal and starts running it. */
static void
start_goal (QdRunner *self,
            Goal      goal,
            double    goal_time,
            guint64   goal_events)
{
  gboolean was_running;

  g_mutex_lock (&self->lock);
  if (is_terminal (self->state))
    {
      g_mutex_unlock (&self->lock);
      return;
    }
  was_running = self->state == QD_RUNNER_RUNNING;
  self->goal = goal;
  self->goal_time = goal_time;
  self->goal_events = goal_events;
  self->goal_serial++;
  self->command_serial++;
  self->pause_requested = FALSE;
  set_state_locked (self, QD_RUNNER_RUNNING);
  g_cond_signal (&self->cond);
  g_mutex_unlock (&self->lock);

  /* The worker may be inside a long call for the previous goal. */
  if (was_running)
    qd_simulation_request_stop (self->sim);
  /* RUNNING is notified even when a short step is already over by now, so
   * that a PAUSED notification follows every step; a handler may drop the
   * caller's last reference. */
  g_object_ref (self);
  emit_state (self, QD_RUNNER_RUNNING);
  owner_update (self, TRUE);
  g_object_unref (self);
}

void
qd_runner_run (QdRunner *self)
{
  g_return_if_fail (QD_IS_RUNNER (self));

  start_goal (self, GOAL_RUN, 0, 0);
}

void
qd_runner_run_until (QdRunner *self,
                     double    t)
{
  g_return_if_fail (QD_IS_RUNNER (self));
  g_return_if_fail (!isnan (t));

  if (t >= qd_simulation_get_final_time (self->sim))
    start_goal (self, GOAL_RUN, 0, 0);
  else
    start_goal (self, GOAL_UNTIL, t, 0);
}

void
qd_runner_step (QdRunner *self,
                guint64   n_events)
{
  g_return_if_fail (QD_IS_RUNNER (self));

  start_goal (self, GOAL_STEP, 0, n_events);
}

void
qd_runner_pause (QdRunner *self)
{
  gboolean interrupt = FALSE;

  g_return_if_fail (QD_IS_RUNNER (self));

  g_mutex_lock (&self->lock);
  if (self->state == QD_RUNNER_RUNNING && !self->pause_requested)
    {
      self->pause_requested = TRUE;
      self->command_serial++;
      g_cond_signal (&self->cond);
      interrupt = TRUE;
    }
  g_mutex_unlock (&self->lock);

  if (interrupt)
    qd_simulation_request_stop (self->sim);
}

void
qd_runner_resume (QdRunner *self)
{
  g_return_if_fail (QD_IS_RUNNER (self));

  g_mutex_lock (&self->lock);
  if (is_terminal (self->state)
      || (self->state == QD_RUNNER_RUNNING && !self->pause_requested))
    {
      g_mutex_unlock (&self->lock);
      return;
    }
  if (self->goal == GOAL_NONE)
    {
      self->goal = GOAL_RUN;
      self->goal_serial++;
    }
  self->pause_requested = FALSE;
  self->command_serial++;
  set_state_locked (self, QD_RUNNER_RUNNING);
  g_cond_signal (&self->cond);
  g_mutex_unlock (&self->lock);

  /* A handler may drop the caller's last reference. */
  g_object_ref (self);
  emit_state (self, QD_RUNNER_RUNNING);
  owner_update (self, TRUE);
  g_object_unref (self);
}

void
qd_runner_stop (QdRunner *self)
{
  g_return_if_fail (QD_IS_RUNNER (self));

  g_mutex_lock (&self->lock);
  if (is_terminal (self->state) || self->stop_requested)
    {
      g_mutex_unlock (&self->lock);
      return;
    }
  self->stop_requested = TRUE;
  self->command_serial++;
  g_cond_signal (&self->cond);
  g_mutex_unlock (&self->lock);

  qd_simulation_request_stop (self->sim);
}

void
qd_runner_set_realtime (QdRunner *self,
                        gboolean  enabled,
                        double    speed)
{
  gboolean interrupt;

  g_return_if_fail (QD_IS_RUNNER (self));

  if (isnan (speed))
    speed = 1;
  g_mutex_lock (&self->lock);
  self->realtime = enabled;
  self->speed = CLAMP (speed, 0.1, 100.0);
  self->command_serial++;
  g_cond_signal (&self->cond);
  interrupt = self->state == QD_RUNNER_RUNNING;
  g_mutex_unlock (&self->lock);

  /* A run going flat out reaches the pacing at once. */
  if (interrupt && enabled)
    qd_simulation_request_stop (self->sim);
}

gboolean
qd_runner_get_realtime (QdRunner *self,
                        double   *speed)
{
  gboolean enabled;

  g_return_val_if_fail (QD_IS_RUNNER (self), FALSE);

  g_mutex_lock (&self->lock);
  enabled = self->realtime;
  if (speed != NULL)
    *speed = self->speed;
  g_mutex_unlock (&self->lock);
  return enabled;
}

/* -------------------------------------------------------------------- */
/* Getters */

QdSimulation *
qd_runner_get_simulation (QdRunner *self)
{
  g_return_val_if_fail (QD_IS_RUNNER (self), NULL);

  return self->sim;
}

QdRunnerState
qd_runner_get_state (QdRunner *self)
{
  QdRunnerState state;

  g_return_val_if_fail (QD_IS_RUNNER (self), QD_RUNNER_IDLE);

  g_mutex_lock (&self->lock);
  state = self->state;
  g_mutex_unlock (&self->lock);
  return state;
}

const GError *
qd_runner_get_error (QdRunner *self)
{
  const GError *error;

  g_return_val_if_fail (QD_IS_RUNNER (self), NULL);

  /* Set once, by the worker, before the state becomes FAILED; it is not
   * changed afterwards. */
  g_mutex_lock (&self->lock);
  error = self->error;
  g_mutex_unlock (&self->lock);
  return error;
}

void
qd_runner_get_progress (QdRunner         *self,
                        QdRunnerProgress *progress)
{
  double start, final;
  gint64 wall;

  g_return_if_fail (QD_IS_RUNNER (self));
  g_return_if_fail (progress != NULL);

  g_mutex_lock (&self->lock);
  progress->state = self->state;
  wall = running_wall_locked (self);
  g_mutex_unlock (&self->lock);

  start = qd_simulation_get_start_time (self->sim);
  final = qd_simulation_get_final_time (self->sim);
  progress->time = qd_simulation_get_time (self->sim);
  progress->events = qd_simulation_get_events (self->sim);
  progress->wall_time = (double) wall / G_USEC_PER_SEC;
  if (final > start)
    progress->fraction = CLAMP ((progress->time - start) / (final - start),
                                0.0, 1.0);
  else
    progress->fraction = progress->state == QD_RUNNER_FINISHED ? 1.0 : 0.0;
  progress->events_per_second = 0;
  if (progress->state == QD_RUNNER_RUNNING)
    progress->events_per_second = events_per_second (self, wall,
                                                     progress->events);
}

/* -------------------------------------------------------------------- */
/* Life cycle */

QdRunner *
qd_runner_new (QdSimulation *simulation)
{
  QdRunner *self;

  g_return_val_if_fail (simulation != NULL, NULL);

  self = g_object_new (QD_TYPE_RUNNER, NULL);
  self->sim = simulation;
  self->context = g_main_context_ref_thread_default ();
  self->source = g_source_new (&source_funcs, sizeof (GSource));
  g_source_set_static_name (self->source, "QdRunner");
  /* Default priority, not idle: a busy frame clock (live plots redrawing)
   * would otherwise hold progress and "finished" back for seconds. */
  g_source_set_priority (self->source, G_PRIORITY_DEFAULT);
  /* No reference: the source is destroyed in dispose. */
  g_source_set_callback (self->source, on_source, self, NULL);
  g_source_attach (self->source, self->context);
  self->thread = g_thread_new ("qd-runner", worker_main, self);

  return self;
}

static void
qd_runner_dispose (GObject *object)
{
  QdRunner *self = QD_RUNNER (object);

  self->disposed = TRUE;
  if (self->thread != NULL)
    {
      g_mutex_lock (&self->lock);
      self->quit = TRUE;
      g_cond_signal (&self->cond);
      g_mutex_unlock (&self->lock);
      qd_simulation_request_stop (self->sim);
      g_thread_join (g_steal_pointer (&self->thread));
    }
  if (self->source != NULL)
    {
      g_source_destroy (self->source);
      g_clear_pointer (&self->source, g_source_unref);
    }

  G_OBJECT_CLASS (qd_runner_parent_class)->dispose (object);
}

static void
qd_runner_finalize (GObject *object)
{
  QdRunner *self = QD_RUNNER (object);

  g_clear_pointer (&self->sim, qd_simulation_free);
  g_clear_error (&self->error);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);

  G_OBJECT_CLASS (qd_runner_parent_class)->finalize (object);
}

static void
qd_runner_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  QdRunner *self = QD_RUNNER (object);

  switch (prop_id)
    {
    case PROP_STATE:
      /* The state last notified, so that a handler of notify::state sees
       * the value it was notified of. */
      g_value_set_enum (value, self->emitted_state);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
qd_runner_class_init (QdRunnerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = qd_runner_dispose;
  object_class->finalize = qd_runner_finalize;
  object_class->get_property = qd_runner_get_property;

  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL,
                       QD_TYPE_RUNNER_STATE, QD_RUNNER_IDLE,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY
                       | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Read the figures with qd_runner_get_progress(). */
  signals[SIGNAL_PROGRESS] =
    g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* (QdRunnerState state, const GError *error): error is set for
   * QD_RUNNER_FAILED only. */
  signals[SIGNAL_FINISHED] =
    g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                  QD_TYPE_RUNNER_STATE,
                  G_TYPE_ERROR | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
qd_runner_init (QdRunner *self)
{
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->speed = 1.0;
  self->state = QD_RUNNER_IDLE;
  self->emitted_state = QD_RUNNER_IDLE;
}

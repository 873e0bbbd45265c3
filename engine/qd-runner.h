/* qd-runner.h: runs a compiled simulation on a worker thread
 *
 * A QdRunner owns one QdSimulation and executes it on its own thread, so
 * that the thread that created it (the editor's main thread) stays free to
 * draw plots from the traces while the simulation appends to them. The
 * owner sends commands (run, pause, resume, step, run until, stop, real-time
 * pacing); the worker executes them in slices that a command interrupts
 * through qd_simulation_request_stop(), so every command takes effect
 * within a few thousand events.
 *
 * Interrupting a run never changes its result: any sequence of commands
 * that reaches the final time produces traces identical, bit for bit, to
 * one uninterrupted qd_simulation_run().
 *
 * Signals, property notifications and the progress ticks are emitted on the
 * thread-default main context of the thread that called qd_runner_new(),
 * never on the worker:
 *
 *  - "notify::state" whenever the state changes (see QdRunnerState);
 *  - "progress" about 30 times a second while running, and once after every
 *    change of state; read the figures with qd_runner_get_progress();
 *  - "finished" (QdRunnerState state, const GError *error) exactly once,
 *    when the run reaches its end (QD_RUNNER_FINISHED), is stopped
 *    (QD_RUNNER_STOPPED) or fails (QD_RUNNER_FAILED, @error set, owned by
 *    the runner: it names the block as the simulation reports it). The
 *    traces are closed by then.
 *
 * Threads. Every qd_runner_* function must be called from the thread that
 * created the runner (the owner), and that thread must run its main
 * context for the signals to arrive. The simulation returned by
 * qd_runner_get_simulation() may be used from the owner at any time only
 * through what qd-simulation.h allows on any thread: its traces, the
 * progress getters (time, events, transitions, integrator steps), the start
 * and final times and the flat model description (get_n_atomics,
 * get_atomic, get_variable). Everything else (block statistics,
 * get_next_time) only while the state is IDLE, PAUSED or terminal; never
 * call its run, step, finish or free functions: the runner does.
 * Disposing of the runner stops the worker and waits for it (at most a few
 * thousand events).
 */
#pragma once

#include <glib-object.h>

#include "qd-version-macros.h"
#include "qd-simulation.h"

G_BEGIN_DECLS

typedef enum
{
  QD_RUNNER_IDLE,      /* created, nothing has run yet */
  QD_RUNNER_RUNNING,   /* the worker is executing a command */
  QD_RUNNER_PAUSED,    /* paused, or a step / run-until is complete */
  QD_RUNNER_FINISHED,  /* reached the final time (terminal) */
  QD_RUNNER_STOPPED,   /* stopped on request (terminal) */
  QD_RUNNER_FAILED,    /* the simulation reported an error (terminal) */
} QdRunnerState;

#define QD_TYPE_RUNNER_STATE (qd_runner_state_get_type ())
QD_API GType qd_runner_state_get_type (void) G_GNUC_CONST;

/* A consistent snapshot of the progress, taken without waiting for the
 * worker. */
typedef struct
{
  QdRunnerState state;
  double        time;               /* simulated time */
  double        fraction;           /* of [start, final] done, 0..1 */
  guint64       events;             /* internal events executed */
  double        events_per_second;  /* over the last second of running; 0
                                     * when not running */
  double        wall_time;          /* seconds spent in RUNNING */
} QdRunnerProgress;

#define QD_TYPE_RUNNER (qd_runner_get_type ())
QD_API G_DECLARE_FINAL_TYPE (QdRunner, qd_runner, QD, RUNNER, GObject)

/* Takes ownership of @simulation (a compiled snapshot: later edits of the
 * document never touch it) and starts the worker thread, idle. */
QD_API QdRunner      *qd_runner_new            (QdSimulation *simulation);
/* Transfer none; see the thread rules above. */
QD_API QdSimulation  *qd_runner_get_simulation (QdRunner     *self);

/* Commands. Each replaces the command in progress; all are ignored once
 * the runner is in a terminal state. */

/* Runs to the final time (from IDLE or PAUSED, or instead of a step or a
 * run-until in progress). */
QD_API void           qd_runner_run            (QdRunner     *self);
/* Runs every event before @t, then pauses with the simulated time at @t;
 * at or after the final time it is qd_runner_run(). */
QD_API void           qd_runner_run_until      (QdRunner     *self,
                                                double        t);
/* Executes @n_events internal events, then pauses (finishes instead when
 * the final time comes first). Steps are never paced in real time. */
QD_API void           qd_runner_step           (QdRunner     *self,
                                                guint64       n_events);
/* Pauses the command in progress; the state becomes PAUSED once the worker
 * has let go of the simulation. Nothing happens when not running. */
QD_API void           qd_runner_pause          (QdRunner     *self);
/* Continues the paused command; when there is none (a step or a run-until
 * is complete) it runs to the final time. */
QD_API void           qd_runner_resume         (QdRunner     *self);
/* Ends the run at the current event: the traces are closed there and
 * "finished" reports QD_RUNNER_STOPPED. It cannot be resumed. */
QD_API void           qd_runner_stop           (QdRunner     *self);

/* Real-time pacing: with @enabled, runs and run-untils advance @speed
 * simulated seconds per wall-clock second (clamped to 0.1 .. 100), the
 * worker sleeping between events; a model too heavy for the pace runs as
 * fast as it can. Takes effect at once, also in the middle of a run. */
QD_API void           qd_runner_set_realtime   (QdRunner     *self,
                                                gboolean      enabled,
                                                double        speed);
QD_API gboolean       qd_runner_get_realtime   (QdRunner     *self,
                                                double       *speed);

QD_API QdRunnerState  qd_runner_get_state      (QdRunner     *self);
QD_API void           qd_runner_get_progress   (QdRunner     *self,
                                                QdRunnerProgress *progress);
/* The error of a FAILED run, or NULL (transfer none). */
QD_API const GError  *qd_runner_get_error      (QdRunner     *self);

G_END_DECLS

/* qd-debugger.h: following a run transition by transition
 *
 * The debugger keeps a position in the run: a row of the Transitions
 * table (QdEventView), which it selects and which the canvas shows (the
 * block of the transition highlighted, the message of an output
 * travelling along its link, each link's last value). Stepping moves the
 * position one transition, or one event with its whole zero-time
 * cascade, or to the next transition of a block, or to a time, or to the
 * next breakpoint; stepping back moves it back.
 *
 * What the panels show at a position (the pending events, the state of a
 * block) is read from the run itself when the position is its last
 * event, and otherwise from a copy of the simulation run again from the
 * start to that event: runs are deterministic, so the copy is in exactly
 * the state the run was in. Breakpoints are searched on that copy too
 * (qd_simulation_run_to_break()); the run then steps to the event found.
 * Nothing of this runs while the debugger is not used: the run goes at
 * full speed.
 */
#pragma once

#include <gtk/gtk.h>

#include "qdevs.h"
#include "qd-canvas.h"
#include "qd-run-session.h"

G_BEGIN_DECLS

/* "at t = 2", "/Integrator: next internal transition", ... */
char *qd_debug_breakpoint_describe (const QdBreakpoint *bp);

#define QD_DEBUGGER_NO_POSITION G_MAXUINT

#define QD_TYPE_DEBUGGER (qd_debugger_get_type ())
G_DECLARE_FINAL_TYPE (QdDebugger, qd_debugger, QD, DEBUGGER, GObject)

QdDebugger *qd_debugger_new               (QdRunSession *session,
                                           QdCanvas     *canvas);

/* Commands. Each starts a run when there is none, and does nothing while
 * the run is running (pause it first). */
void        qd_debugger_step_transition   (QdDebugger   *self);
void        qd_debugger_step_event        (QdDebugger   *self);
void        qd_debugger_step_back         (QdDebugger   *self);
void        qd_debugger_run_to_block      (QdDebugger   *self,
                                           const char   *path);
void        qd_debugger_run_to_time       (QdDebugger   *self,
                                           double        t);
/* Runs to the next breakpoint, or to the end when none is met. */
void        qd_debugger_continue          (QdDebugger   *self);

/* Whether a command is still running the run (the position is set when
 * it pauses). */
gboolean    qd_debugger_is_busy           (QdDebugger   *self);
/* The row of the Transitions table shown, or QD_DEBUGGER_NO_POSITION. */
guint       qd_debugger_get_position      (QdDebugger   *self);
/* The time of the position (the clock of the run there). */
double      qd_debugger_get_time          (QdDebugger   *self);
/* The record of the position's row; FALSE without one. */
gboolean    qd_debugger_get_entry         (QdDebugger   *self,
                                           QdLogEntry   *entry,
                                           QdSignal     *segment);
/* The last segment each output sent up to the position: key "path:port"
 * (output port from 0), value QdSignal* (owned by the table). */
GHashTable *qd_debugger_dup_link_values   (QdDebugger   *self);

/* The state at the position: the pending events (QdPendingEvent), each
 * block's path and phase (translated), the state variables of the block
 * at @path. NULL / FALSE when there is no run. */
GArray     *qd_debugger_dup_pending       (QdDebugger   *self);
const char *qd_debugger_get_block_path    (QdDebugger   *self,
                                           guint         block);
const char *qd_debugger_get_block_phase   (QdDebugger   *self,
                                           guint         block);
gboolean    qd_debugger_describe_block    (QdDebugger   *self,
                                           const char   *path,
                                           QdStateFunc   add,
                                           gpointer      user_data);

/* The breakpoints (QdBreakpoint*, transfer none): those of the diagram,
 * saved with it (qd_document_get_breakpoints()). */
GPtrArray  *qd_debugger_get_breakpoints   (QdDebugger   *self);
void        qd_debugger_add_breakpoint    (QdDebugger   *self,
                                           QdBreakKind   kind,
                                           const char   *path,
                                           guint         port,
                                           double        value);
void        qd_debugger_remove_breakpoint (QdDebugger   *self,
                                           guint         index);

/* Whether the message of an output is animated along its link. */
void        qd_debugger_set_animate       (QdDebugger   *self,
                                           gboolean      animate);
gboolean    qd_debugger_get_animate       (QdDebugger   *self);
/* Whether each link shows the value it last carried. */
void        qd_debugger_set_link_values   (QdDebugger   *self,
                                           gboolean      show);
gboolean    qd_debugger_get_link_values   (QdDebugger   *self);

QdRunSession *qd_debugger_get_session     (QdDebugger   *self);

G_END_DECLS

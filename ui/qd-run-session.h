/* qd-run-session.h: running the editor's diagram and showing the results
 *
 * A QdRunSession turns the Run, Pause, Step and Stop of the editor into
 * runs: it compiles a snapshot of the document (qd_simulation_new); when
 * the compiler finds problems it lists them in the messages panel and
 * does not run. Otherwise it hands the simulation to a QdRunner and shows
 * one live QdPlot per Scope block as a page of the bottom notebook (the
 * tab says the scope's name and has a button that detaches the plot into
 * a window of its own; closing that window puts it back). A new run
 * overlays the earlier ones on the same plots until they are cleared.
 * Whenever the run pauses or ends, the statistics page and the badges of
 * the integrators on the canvas show each block's transitions.
 *
 * The commands follow the user's intent: Run and Step start a new run
 * when there is none (or the last one is over) and continue a paused one.
 */
#pragma once

#include <gtk/gtk.h>

#include "qdevs.h"
#include "qd-canvas.h"
#include "qd-messages-view.h"
#include "qd-plot.h"
#include "qd-run-memory.h"
#include "qd-event-view.h"
#include "qd-stats-view.h"

G_BEGIN_DECLS

#define QD_TYPE_RUN_SESSION (qd_run_session_get_type ())
G_DECLARE_FINAL_TYPE (QdRunSession, qd_run_session, QD, RUN_SESSION, GObject)

/* Pages go into @notebook after the ones it has; problems into
 * @messages; badges onto @canvas (may be NULL). */
QdRunSession *qd_run_session_new          (GtkNotebook    *notebook,
                                           QdMessagesView *messages,
                                           QdCanvas       *canvas);
/* The diagram that Run compiles; a different one ends the current run
 * and removes the plots of the previous diagram. */
void          qd_run_session_set_document (QdRunSession   *self,
                                           QdDocument     *document);
QdDocument   *qd_run_session_get_document (QdRunSession   *self);

/* Commands. run and step compile a new run when none is in progress
 * (returning FALSE, with the problems in the messages panel, when the
 * model cannot run) and continue a paused one. */
gboolean      qd_run_session_run          (QdRunSession   *self);
gboolean      qd_run_session_step         (QdRunSession   *self,
                                           guint64         n_events);
void          qd_run_session_pause        (QdRunSession   *self);
void          qd_run_session_resume       (QdRunSession   *self);
void          qd_run_session_stop         (QdRunSession   *self);
/* Applies now and to every later run. */
void          qd_run_session_set_realtime (QdRunSession   *self,
                                           gboolean        enabled,
                                           double          speed);
/* Forgets the earlier runs drawn under the current one. */
void          qd_run_session_clear_runs   (QdRunSession   *self);

/* The runner of the current run, or NULL before the first (transfer
 * none). */
QdRunner     *qd_run_session_get_runner   (QdRunSession   *self);
/* The state and progress of the current run (IDLE and zeros without
 * one). */
void          qd_run_session_get_progress (QdRunSession   *self,
                                           QdRunnerProgress *progress);

guint         qd_run_session_get_n_plots  (QdRunSession   *self);
QdPlot       *qd_run_session_get_plot     (QdRunSession   *self,
                                           guint           index);
/* The plot of the Scope block at @path ("/Scope"), or NULL. */
QdPlot       *qd_run_session_find_plot    (QdRunSession   *self,
                                           const char     *path);
/* Moves plot @index into a window of its own (TRUE) or back into the
 * notebook (FALSE). */
void          qd_run_session_set_detached (QdRunSession   *self,
                                           guint           index,
                                           gboolean        detached);
gboolean      qd_run_session_get_detached (QdRunSession   *self,
                                           guint           index);
/* The plot a user means: the one of the notebook page shown, else the
 * first; NULL when there is none. */
QdPlot       *qd_run_session_get_current_plot (QdRunSession *self);
QdStatsView  *qd_run_session_get_stats_view (QdRunSession *self);
/* The runs kept for the plots and the memory they share. */
QdRunMemory  *qd_run_session_get_run_memory (QdRunSession *self);
/* What plot @index says about earlier runs dropped to stay within the
 * trace memory ("2 earlier runs dropped (trace memory)"), or NULL. */
const char   *qd_run_session_get_dropped_note (QdRunSession *self,
                                               guint         index);
QdEventView  *qd_run_session_get_event_view (QdRunSession *self);
/* Overlays the runs of @comparison (kept traces) in the Scopes' plots,
 * each method an earlier run named after it, the reference among them;
 * replaces the comparison overlaid before. Returns how many plots show
 * it. */
guint         qd_run_session_overlay_comparison (QdRunSession *self,
                                                 QdComparison *comparison);
/* Overlays each comparison @dialog finishes (qd-compare-dialog.h). */
struct _QdCompareDialog;
void          qd_run_session_follow_comparisons (QdRunSession           *self,
                                                 struct _QdCompareDialog *dialog);
/* Asks for a breakpoint ("break-requested", which the debugger hears):
 * from a click on a plot or the run bar. */
void          qd_run_session_request_break (QdRunSession *self,
                                            QdBreakKind   kind,
                                            const char   *path,
                                            guint         port,
                                            double        value);

G_END_DECLS

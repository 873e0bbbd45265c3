/* qd-run-bar.h: the run controls of the editor
 *
 * Run (F5), Pause (F6, which also resumes), Step (F10) with the number of
 * events per step, Stop (Shift+F5), the model's final time, real-time
 * pacing with a speed from 0.1× to 100× on a log scale, and a progress
 * bar with the simulated time, the time left, the state and the events
 * per second. The keys work wherever the focus is in the window.
 *
 * Its actions live in the "run." group of the bar: run.start, run.pause,
 * run.resume, run.toggle-pause, run.step, run.stop, run.clear-runs and
 * run.export-csv (Ctrl+E: the plot shown, every event, as CSV).
 */
#pragma once

#include <gtk/gtk.h>

#include "qd-run-session.h"

G_BEGIN_DECLS

#define QD_TYPE_RUN_BAR (qd_run_bar_get_type ())
G_DECLARE_FINAL_TYPE (QdRunBar, qd_run_bar, QD, RUN_BAR, GtkWidget)

GtkWidget    *qd_run_bar_new            (void);
/* The session the controls drive (the bar takes a reference). */
void          qd_run_bar_set_session    (QdRunBar     *self,
                                         QdRunSession *session);
QdRunSession *qd_run_bar_get_session    (QdRunBar     *self);
void          qd_run_bar_set_step_count (QdRunBar     *self,
                                         guint         n_events);
guint         qd_run_bar_get_step_count (QdRunBar     *self);
/* What run.export-csv writes after its file chooser: the plot shown,
 * every event, to @path. */
gboolean      qd_run_bar_export_csv     (QdRunBar     *self,
                                         const char   *path,
                                         GError      **error);

/* qd-run-bar-break.c: the "Break at…" button beside the final time, and
 * what it does: asks the session for a breakpoint at the time @text
 * says (FALSE, with @error, for what is not a number). */
GtkWidget    *qd_run_bar_break_new      (QdRunBar     *self);
gboolean      qd_run_bar_break_at       (QdRunBar     *self,
                                         const char   *text,
                                         GError      **error);

G_END_DECLS

/* qd-quant-view.h: the quantization of one Integrator, as the texts draw it
 *
 * For an Integrator: its state x(t) as the exact polynomial the block
 * integrates, its output q(t) (what it sent), the band q ± ΔQ that x must
 * leave for the next step, each internal transition (a step) marked, and
 * for the LIQSS methods the side of x that q was put on. The view runs
 * its own copy of the simulation with the event log to collect them, so
 * it shows the whole run whatever the run on screen has done, and marks
 * the debugger's position on it (a vertical line at its time), following
 * it as the debugger moves.
 */
#pragma once

#include <gtk/gtk.h>

#include "qd-debugger.h"

G_BEGIN_DECLS

#define QD_TYPE_QUANT_VIEW (qd_quant_view_get_type ())
G_DECLARE_FINAL_TYPE (QdQuantView, qd_quant_view, QD, QUANT_VIEW, GtkWidget)

/* A view of the Integrator at @path of @document; @debugger (may be NULL)
 * gives the position to mark. When @path is a Scope's, the Integrator
 * that drives its first input is shown. */
GtkWidget *qd_quant_view_new       (QdDocument  *document,
                                    const char  *path,
                                    QdDebugger  *debugger);
/* Opens the view in a window of its own, over @parent. */
void       qd_quant_view_present   (QdDebugger  *debugger,
                                    const char  *path,
                                    GtkWindow   *parent);
/* The internal transitions of the Integrator (its steps) over the run,
 * or 0 when the block is not an Integrator or the model does not run;
 * the message saying why is qd_quant_view_get_problem(). */
guint      qd_quant_view_get_n_steps (QdQuantView *self);
const char *qd_quant_view_get_problem (QdQuantView *self);
/* The time of step @k (from 0). */
double     qd_quant_view_get_step_time (QdQuantView *self,
                                        guint        k);

G_END_DECLS

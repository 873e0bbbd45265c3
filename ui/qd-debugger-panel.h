/* qd-debugger-panel.h: the Debugger page of the bottom notebook
 *
 * The step controls (back, one transition, one event with its zero-time
 * cascade, to the next transition of the selected block, to a time, on
 * to the next breakpoint), the pending events in the order the scheduler
 * takes them, the state of the selected block, and the breakpoints. It
 * also gives the canvas's context menu its debugger items ("dbg."
 * actions) and the window its keys (F11, Shift+F11, Ctrl+F11, F8).
 */
#pragma once

#include <gtk/gtk.h>

#include "qd-debugger.h"
#include "qd-inspector.h"

G_BEGIN_DECLS

#define QD_TYPE_DEBUGGER_PANEL (qd_debugger_panel_get_type ())
G_DECLARE_FINAL_TYPE (QdDebuggerPanel, qd_debugger_panel, QD, DEBUGGER_PANEL, GtkWidget)

/* Adds itself as a page of @notebook and its actions to @canvas. */
GtkWidget  *qd_debugger_panel_new          (QdDebugger  *debugger,
                                            QdCanvas    *canvas,
                                            GtkNotebook *notebook);
QdDebugger *qd_debugger_panel_get_debugger (QdDebuggerPanel *self);
/* Shows the selected block's state in @inspector too, under its form,
 * while the run is paused (read-only). */
void        qd_debugger_panel_set_inspector (QdDebuggerPanel *self,
                                             QdInspector     *inspector);
gboolean    qd_debugger_panel_get_inspector_state_shown (QdDebuggerPanel *self);
/* For tests: the text of the pending events' rows, one line per event
 * ("1\t0.1\t/Integrator\twaiting for ΔQ crossing"), and the status. */
char       *qd_debugger_panel_dup_pending_text (QdDebuggerPanel *self);
const char *qd_debugger_panel_get_status   (QdDebuggerPanel *self);

G_END_DECLS

/* qd-compare-dialog.h: Compare Methods… (main menu), one diagram under several
 * methods side by side
 *
 * Lists the methods (the Integrator's QSS methods and the classic
 * solvers), each with a check box and its options ("h=0.01",
 * "rtol=1e-8,atol=1e-10", "dqrel=1e-4"), and the reference method. Run
 * compares them on a copy of the diagram in a worker thread
 * (qd-compare.h); then the Table page shows one row per method (steps,
 * failed steps, RHS evaluations, CPU time, the largest and RMS error of
 * every Scope signal) and one page per Scope overlays its signals under
 * every method, one colour per method, with a legend.
 */
#pragma once

#include <gtk/gtk.h>

#include "qdevs.h"

G_BEGIN_DECLS

#define QD_TYPE_COMPARE_DIALOG (qd_compare_dialog_get_type ())
G_DECLARE_FINAL_TYPE (QdCompareDialog, qd_compare_dialog, QD, COMPARE_DIALOG, GtkWindow)

/* A comparison of @document as it is now (a snapshot: later edits do
 * not change it until the next run). */
GtkWidget  *qd_compare_dialog_new         (GtkWindow        *parent,
                                           QdDocument       *document);
/* Checks exactly the methods of @specs ("QSS2", "rk4:h=0.01"), setting
 * their options; FALSE if one is not in the list. */
gboolean    qd_compare_dialog_set_methods (QdCompareDialog  *self,
                                           const char *const *specs);
/* Runs the comparison, as the Run button does; "finished" follows. */
void        qd_compare_dialog_run         (QdCompareDialog  *self);
/* The table shown: rows (one per method) and their cells, as text;
 * column 0 is the method. */
guint       qd_compare_dialog_get_n_rows  (QdCompareDialog  *self);
const char *qd_compare_dialog_get_cell    (QdCompareDialog  *self,
                                           guint             row,
                                           guint             column);
/* The status line: the progress, the result or why it failed. */
const char *qd_compare_dialog_get_status  (QdCompareDialog  *self);

/* The comparison shown (its runs keep their traces), or NULL (transfer
 * none). */
QdComparison *qd_compare_dialog_get_comparison (QdCompareDialog *self);

G_END_DECLS

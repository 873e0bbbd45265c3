/* qd-sweep-dialog.h: Sweep… (main menu), one diagram run many times
 *
 * Lists the model's variables, each with a check box, a kind (a range
 * a:b:n, a logarithmic range, a list of values, or a normal, uniform or
 * lognormal distribution for Monte Carlo) and its values, and the
 * samples per point, the seed, the final time and the number of worker
 * threads. The same text as `qdevs-cli sweep --vary/--dist` is parsed by
 * the engine (qd-sweep.h), and the runs go on a pool of threads
 * (qd-sweep-job.h) with a progress bar and Cancel. The Ensemble page
 * plots one Scope signal of every run done with the mean and the 5-95 %
 * band (growing while the runs go on); once they are done, the Runs
 * page lists the runs, sortable by any column, the Failed page gives
 * each failed run's values and error, and the Summary page the
 * statistics `qdevs-cli sweep` prints. The table goes to CSV as
 * `qdevs-cli sweep --out` writes it, the plot to PNG, SVG or PDF.
 */
#pragma once

#include <gtk/gtk.h>

#include "qdevs.h"
#include "qd-ensemble-plot.h"
#include "qd-sweep-job.h"
#include "qd-sweep-table.h"

G_BEGIN_DECLS

typedef enum
{
  QD_SWEEP_KIND_RANGE,       /* a:b:n */
  QD_SWEEP_KIND_LOG_RANGE,   /* log:a:b:n */
  QD_SWEEP_KIND_LIST,        /* v1,v2,v3 */
  QD_SWEEP_KIND_NORMAL,      /* normal(mu,sigma) */
  QD_SWEEP_KIND_UNIFORM,     /* uniform(a,b) */
  QD_SWEEP_KIND_LOGNORMAL,   /* lognormal(mu,sigma) */
} QdSweepKind;

#define QD_TYPE_SWEEP_DIALOG (qd_sweep_dialog_get_type ())
G_DECLARE_FINAL_TYPE (QdSweepDialog, qd_sweep_dialog, QD, SWEEP_DIALOG, GtkWindow)

/* A sweep of @document as it is now (a snapshot: later edits do not
 * change it until the dialog is opened again). */
GtkWidget      *qd_sweep_dialog_new          (GtkWindow     *parent,
                                              QdDocument    *document);
/* Checks variable @name and sets its kind and values ("0.05:0.2:4",
 * "1, 0.1" for a normal's mu and sigma), as a user does; FALSE if the
 * model has no such variable. */
gboolean        qd_sweep_dialog_set_variable (QdSweepDialog *self,
                                              const char    *name,
                                              QdSweepKind    kind,
                                              const char    *values);
/* Sets the other fields; @final_time NaN leaves the model's. */
void            qd_sweep_dialog_set_options  (QdSweepDialog *self,
                                              guint          samples,
                                              guint64        seed,
                                              double         final_time,
                                              guint          workers);
/* Runs the sweep, as the Run button does (Cancel while it runs);
 * "finished" follows. */
void            qd_sweep_dialog_run          (QdSweepDialog *self);
void            qd_sweep_dialog_cancel       (QdSweepDialog *self);
/* The job shown (NULL before the first run), its table and its plot. */
QdSweepJob     *qd_sweep_dialog_get_job      (QdSweepDialog *self);
QdSweepTable   *qd_sweep_dialog_get_table    (QdSweepDialog *self);
QdEnsemblePlot *qd_sweep_dialog_get_plot     (QdSweepDialog *self);
/* Shows Scope signal @signal ("/Scope/x") in the plot; FALSE if the
 * runs have no such signal. */
gboolean        qd_sweep_dialog_select_signal (QdSweepDialog *self,
                                               const char    *signal);
/* The status line: the progress, the result or why the sweep cannot
 * start. */
const char     *qd_sweep_dialog_get_status   (QdSweepDialog *self);
/* The Failed page's entries, one per failed run ("Run 1 (a = -1): ..."). */
guint           qd_sweep_dialog_get_n_failed_rows (QdSweepDialog *self);
const char     *qd_sweep_dialog_get_failed_row    (QdSweepDialog *self,
                                                   guint          index);
/* The Summary page's text (what qdevs-cli sweep prints). */
char           *qd_sweep_dialog_dup_summary  (QdSweepDialog *self);
/* What the Export buttons write: the table (CSV, with the CPU time) and
 * the plot (PNG, SVG or PDF by the name's extension). */
gboolean        qd_sweep_dialog_export_table (QdSweepDialog *self,
                                              const char    *path,
                                              GError       **error);
gboolean        qd_sweep_dialog_export_plot  (QdSweepDialog *self,
                                              const char    *path,
                                              GError       **error);

G_END_DECLS

/* qd-sweep-job.h: a sweep run in the editor, on a pool of worker threads
 *
 * The editor's counterpart of `qdevs-cli sweep --jobs J`: the same
 * QdSweep (qd-sweep.h) and the same runs (qd_sweep_run()), executed on a
 * GThreadPool of J threads, one simulation per thread, on a private copy
 * of the document. A run depends only on the document, the sweep and its
 * number, so the records are those of the command line, whatever J.
 *
 * Every run keeps its Scope signals sampled on a common time grid, from
 * which the ensemble's mean and 5-95 % band are computed per grid point.
 * No GTK here: the dialog, the table and the plot read a finished job.
 */
#pragma once

#include <glib-object.h>

#include "qdevs.h"

G_BEGIN_DECLS

/* The editor keeps every run's traces in memory: more runs than this
 * are for qdevs-cli sweep, which writes them to a file. */
#define QD_SWEEP_JOB_MAX_RUNS 20000
/* Grid points of the traces when no step is given. */
#define QD_SWEEP_JOB_GRID_POINTS 300

#define QD_TYPE_SWEEP_JOB (qd_sweep_job_get_type ())
G_DECLARE_FINAL_TYPE (QdSweepJob, qd_sweep_job, QD, SWEEP_JOB, GObject)

/* A job of @sweep (taken over, also on failure) on a copy of @document
 * run until @final_time (NaN: the model's own). @grid_step > 0: the time
 * grid of the traces; 0: QD_SWEEP_JOB_GRID_POINTS over the run. NULL
 * with @error when the sweep does not fit the model (qd_sweep_check()),
 * has too many runs or the final time is not after the start. */
QdSweepJob    *qd_sweep_job_new          (QdDocument  *document,
                                          QdSweep     *sweep,
                                          double       final_time,
                                          double       grid_step,
                                          GError     **error);
/* Starts the runs on @n_workers threads (0: one per core). "finished"
 * is emitted on the default main context once every run is done or
 * skipped. */
void           qd_sweep_job_start        (QdSweepJob  *self,
                                          guint        n_workers);
/* Skips the runs not started and stops the ones going on; the runs
 * stopped so are dropped, the ones done are kept. */
void           qd_sweep_job_cancel       (QdSweepJob  *self);
gboolean       qd_sweep_job_is_running   (QdSweepJob  *self);
gboolean       qd_sweep_job_was_cancelled (QdSweepJob *self);

QdSweep       *qd_sweep_job_get_sweep    (QdSweepJob  *self);
guint64        qd_sweep_job_get_n_runs   (QdSweepJob  *self);
guint          qd_sweep_job_get_n_workers (QdSweepJob *self);
/* Progress, from any thread: runs finished (failed ones included) and
 * failed. */
guint64        qd_sweep_job_get_n_done   (QdSweepJob  *self);
guint64        qd_sweep_job_get_n_failed (QdSweepJob  *self);

/* Once finished: the records of the runs done (QdSweepResult*), in run
 * order. */
GPtrArray     *qd_sweep_job_get_results  (QdSweepJob  *self);
/* While it runs too: a new array of the records done so far, in run
 * order (borrowed: they live as long as the job). */
GPtrArray     *qd_sweep_job_dup_done     (QdSweepJob  *self);
/* The run's parameters as "m = 0.1, beta = 0.05". */
char          *qd_sweep_job_describe_run (QdSweepJob          *self,
                                          const QdSweepResult *result);
/* The records as qdevs-cli sweep --out writes them (qd_sweep_write_results()). */
gboolean       qd_sweep_job_write_results (QdSweepJob        *self,
                                           QdSweepWriteFlags  flags,
                                           const char        *path,
                                           GError           **error);

/* The time grid: @n points from @t0 every @step (the last one at the
 * final time). */
void           qd_sweep_job_get_grid     (QdSweepJob  *self,
                                          double      *t0,
                                          double      *step,
                                          guint       *n);
/* The Scope signals of the successful runs ("/Scope/x"), in the model's
 * order; NULL-terminated, owned by the job. */
const char *const *qd_sweep_job_get_signals (QdSweepJob *self);
/* The same of some of the records (qd_sweep_job_dup_done()). */
GStrv          qd_sweep_job_dup_signals  (GPtrArray   *results);
/* The values of @signal in @result on the grid (n of them), or NULL
 * when the run has none (it failed). */
const double  *qd_sweep_job_get_trace    (QdSweepJob          *self,
                                          const QdSweepResult *result,
                                          const char          *signal);
/* Per grid point, over the successful runs of @results (NULL: all of
 * a finished job) that have a value there: the mean, and the 5 % and
 * 95 % percentiles (qd_sweep_summarize()); NaN where no run has one.
 * Each array holds n values (see above). Returns FALSE when no run has
 * @signal. */
gboolean       qd_sweep_job_compute_band (QdSweepJob  *self,
                                          GPtrArray   *results,
                                          const char  *signal,
                                          double      *mean,
                                          double      *low,
                                          double      *high);

G_END_DECLS

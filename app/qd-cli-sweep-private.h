/* qd-cli-sweep-private.h: what `qdevs-cli sweep` shares between its
 * local (worker processes) and MPI (ranks) ways of running the runs
 */
#pragma once

#include <signal.h>

#include "qd-cli-private.h"

G_BEGIN_DECLS

/* The sweep's exit status when runs failed: this plus their number, at
 * most 100 (11 is one failed run, 110 a hundred or more). */
#define QD_CLI_EXIT_SWEEP_FAILED 10

typedef struct
{
  const char        *file;
  QdDocument        *document;
  QdSweep           *sweep;
  QdSweepRunOptions  run_options;
  guint64            n_runs;
  QdSweepResult    **results;     /* n_runs slots, NULL until done */
  guint64            n_done;
  guint64            n_failed;
  gint64             start_us;
  gint64             progress_us; /* when progress was last shown */
  gboolean           progress;    /* standard error is a terminal */
} QdCliSweepJob;

/* Set by the SIGINT and SIGTERM handler: the signal's number. */
extern volatile sig_atomic_t qd_cli_sweep_interrupt;

/* Stores @result (taking it) in its slot, reports a failure on standard
 * error with the run's parameters, and shows the progress. */
void     qd_cli_sweep_job_take       (QdCliSweepJob *job,
                                      QdSweepResult *result);

#ifdef QD_CLI_HAVE_MPI
/* Whether this process was started by an MPI launcher (mpirun, srun);
 * if so, initializes MPI and sets @rank. */
gboolean qd_cli_sweep_mpi_init       (int           *argc,
                                      char        ***argv,
                                      int           *rank);
void     qd_cli_sweep_mpi_finalize   (void);
/* Runs the sweep over the ranks: rank 0 hands out small batches and
 * collects every result into @job; the others run what they are given.
 * Returns TRUE on rank 0 only. */
gboolean qd_cli_sweep_mpi_run        (QdCliSweepJob *job);
#endif

#ifdef QD_CLI_HAVE_HDF5
/* The traces of @results on the grid into the HDF5 file @path. */
gboolean qd_cli_sweep_write_traces_h5 (QdSweep     *sweep,
                                       GPtrArray   *results,
                                       double       t0,
                                       double       step,
                                       const char  *path,
                                       GError     **error);
#endif

G_END_DECLS

/* qd-sweep.h: parameter sweeps and Monte Carlo ensembles of one model
 *
 * A sweep is a list of runs of one document, numbered 0 .. n-1. Each run
 * sets some model variables:
 *
 *   --vary NAME=a:b:n       n values from a to b, evenly spaced
 *   --vary NAME=log:a:b:n   n values from a to b, evenly spaced in log
 *   --vary NAME=v1,v2,v3    the values listed
 *   --dist NAME=normal(mu,sigma) | uniform(a,b) | lognormal(mu,sigma)
 *
 * Several --vary make a grid (the last one varies fastest); with
 * --samples N every grid point is run N times, each drawing its own
 * value of every --dist variable. Run r is grid point r / N, sample
 * r % N.
 *
 * Everything random about run r derives from the sweep's seed S and r
 * alone (qd_sweep_derive_seed()): its draws of the --dist variables and
 * the seeds of the model's own random blocks (every parameter whose
 * schema has QD_PARAM_SEED, reseeded by qd_simulation_reseed()). A run
 * therefore gives the same result whichever worker runs it, in whatever
 * order, on however many processes or MPI ranks.
 *
 * qd_sweep_run() compiles and runs one of the runs and returns its
 * record: the varied values, the final value, minimum and maximum of
 * every Scope signal, the statistics the blocks report, the counts and
 * the CPU time, or the error that stopped it. Records travel between
 * processes as bytes (qd_sweep_result_serialize()); the writers put a
 * list of them, in run order, into CSV, JSON and a summary.
 *
 * Everything here is reentrant: runs may go on in several threads at
 * once, each with its own simulation, as long as no thread edits the
 * document meanwhile.
 */
#pragma once

#include <glib.h>

#include "qd-version-macros.h"
#include "qd-document.h"
#include "qd-simulation.h"

G_BEGIN_DECLS

typedef struct _QdSweep QdSweep;

QD_API QdSweep     *qd_sweep_new          (void);
QD_API void         qd_sweep_free         (QdSweep     *self);

/* Parse one --vary or --dist argument ("NAME=SPEC"). On a syntax error,
 * @error says what was expected, with an example. */
QD_API gboolean     qd_sweep_add_vary     (QdSweep     *self,
                                           const char  *text,
                                           GError     **error);
QD_API gboolean     qd_sweep_add_dist     (QdSweep     *self,
                                           const char  *text,
                                           GError     **error);
/* The runs per grid point (1 by default). */
QD_API void         qd_sweep_set_samples  (QdSweep     *self,
                                           guint64      samples);
QD_API void         qd_sweep_set_seed     (QdSweep     *self,
                                           guint64      seed);
QD_API guint64      qd_sweep_get_seed     (QdSweep     *self);
/* Whether the model's own random blocks keep the seeds stored in the
 * file (common random numbers in every run) instead of deriving them per
 * run (the default). */
QD_API void         qd_sweep_set_model_seeds (QdSweep  *self,
                                              gboolean  keep);
QD_API gboolean     qd_sweep_get_model_seeds (QdSweep  *self);

/* Checks the sweep as a whole (a --dist needs --samples, a name may be
 * varied once, the number of runs must fit) and, with @document, that
 * every name is one of its variables. */
QD_API gboolean     qd_sweep_check        (QdSweep     *self,
                                           QdDocument  *document,
                                           GError     **error);

QD_API guint64      qd_sweep_get_n_runs   (QdSweep     *self);
/* The varied variables: the --vary ones in order, then the --dist ones. */
QD_API guint        qd_sweep_get_n_names  (QdSweep     *self);
QD_API const char  *qd_sweep_get_name     (QdSweep     *self,
                                           guint        i);
/* The values of the variables of run @run, qd_sweep_get_n_names() of
 * them. */
QD_API void         qd_sweep_get_values   (QdSweep     *self,
                                           guint64      run,
                                           double      *values);

/* The seed of run @run of a sweep with seed @seed: a 64-bit mix of the
 * two (SplitMix64), the same on every machine. */
QD_API guint64      qd_sweep_derive_seed  (guint64      seed,
                                           guint64      run);
/* Gives every QD_PARAM_SEED parameter of @sim a value derived from
 * @run_seed, the block's position and the seed it had, so that blocks
 * with different seeds in the file keep independent streams. Before the
 * first run only; returns the number of parameters changed. */
QD_API guint        qd_simulation_reseed  (QdSimulation *sim,
                                           guint64       run_seed);

/* ---- One run ---- */

typedef struct
{
  const char *const *overrides;   /* --set NAME=VALUE, or NULL */
  double             grid_step;   /* > 0: sample every Scope signal
                                     from the start time to the final
                                     time every grid_step */
  /* Optional: called with the run's simulation just before it runs and
   * with NULL once it is over, on the thread of qd_sweep_run(), so that
   * the caller may stop it (qd_simulation_request_stop(), from any
   * thread or a signal handler). A run stopped so fails with "stopped
   * before the final time". */
  void             (*running)    (QdSimulation *sim,
                                  gpointer      user_data);
  gpointer           user_data;
} QdSweepRunOptions;

typedef struct
{
  guint64    run;
  char      *error;           /* why the run failed, or NULL */
  guint      n_values;
  double    *values;          /* the varied variables */
  guint64    events;
  guint64    transitions;
  guint64    integrator_steps;
  double     final_time;      /* where the run stopped */
  double     cpu_s;           /* CPU time of the run (the thread's) */
  GPtrArray *output_names;    /* char*: "/Scope/x.final", "/Queue/mean_length" */
  GArray    *outputs;         /* double, one per name */
  GPtrArray *trace_names;     /* char*: "/Scope/x", with grid_step */
  guint      n_grid;          /* grid points of each trace */
  double    *traces;          /* trace k at point i: traces[k * n_grid + i] */
} QdSweepResult;

/* Runs run @run of @self on @document: reentrant (see above). Never NULL;
 * a run that cannot be compiled or stops with an error has ->error set
 * and keeps its values. */
QD_API QdSweepResult *qd_sweep_run        (QdSweep                 *self,
                                           QdDocument              *document,
                                           const QdSweepRunOptions *options,
                                           guint64                  run);
QD_API void           qd_sweep_result_free (QdSweepResult *result);
/* A failed record made by the caller (a worker that died, say). */
QD_API QdSweepResult *qd_sweep_result_new_failed (QdSweep    *self,
                                                  guint64     run,
                                                  const char *error);

/* The record as bytes for a pipe or an MPI message, and back; doubles
 * travel as their bits, so nothing is rounded. */
QD_API GBytes        *qd_sweep_result_serialize   (const QdSweepResult *result);
QD_API QdSweepResult *qd_sweep_result_deserialize (const guint8 *data,
                                                   gsize         size,
                                                   GError      **error);

/* ---- Writing the records (@results: QdSweepResult*, in run order) ---- */

typedef enum
{
  QD_SWEEP_WRITE_DEFAULT  = 0,
  QD_SWEEP_WRITE_CPU_TIME = 1 << 0,   /* add each run's CPU time */
} QdSweepWriteFlags;

/* One row (CSV) or object (JSON, when @path ends in .json) per run:
 * run, the varied values, ok, events, transitions, integrator steps,
 * final time, [cpu_s,] every output, error. "-" is standard output. */
QD_API gboolean  qd_sweep_write_results (QdSweep           *self,
                                         GPtrArray         *results,
                                         QdSweepWriteFlags  flags,
                                         const char        *path,
                                         GError           **error);
/* The traces on the grid as CSV: run, time, one column per signal. */
QD_API gboolean  qd_sweep_write_traces_csv (GPtrArray   *results,
                                            double       t0,
                                            double       step,
                                            const char  *path,
                                            GError     **error);
/* The grid of the traces: @n points from @t0 to @t1 every @step. */
QD_API guint     qd_sweep_grid_size     (double t0,
                                         double t1,
                                         double step);

/* Summary statistics of one output over the runs that have it. */
typedef struct
{
  guint  n;
  double mean, sd;
  double p5, p50, p95;
  double ci_low, ci_high;     /* 95 % confidence interval of the mean
                                 (Student's t); NaN for n < 2 */
} QdSweepSummary;

QD_API void      qd_sweep_summarize     (const double   *values,
                                         guint           n,
                                         QdSweepSummary *summary);
/* The summary table of every output (and the counts) of the successful
 * runs, as text for standard output. */
QD_API char     *qd_sweep_summary_text  (GPtrArray  *results);

G_END_DECLS

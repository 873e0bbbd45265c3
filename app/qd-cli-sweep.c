/* qd-cli-sweep.c: `qdevs-cli sweep`, many runs of one diagram
 *
 * Parameter sweeps (--vary) and Monte Carlo (--samples, --dist) over
 * worker processes on this machine (--jobs) or over MPI ranks (mpirun,
 * srun; when built with -Dmpi=enabled). A run's values and random
 * streams depend only on the sweep's seed and the run's number
 * (qd-sweep.h), and the results are written in run order once all are
 * in, so the files are the same byte for byte however many workers ran
 * them.
 *
 * The local workers are children forked after the diagram is loaded:
 * each reads a run number from a pipe, runs it, and writes the record
 * back (qd_sweep_result_serialize()). A run that crashes its process
 * fails alone: the parent records why and starts another worker.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "qd-cli-sweep-private.h"

volatile sig_atomic_t qd_cli_sweep_interrupt;

/* The simulation of the run in progress in this process (--jobs 1), for
 * Ctrl-C to stop; worker processes are ended by their parent instead. */
static QdSimulation *volatile running_sim;

typedef struct
{
  char     **vary;
  char     **dist;
  gint64     samples;
  gint64     seed;
  gboolean   model_seeds;
  char      *until;
  char     **overrides;
  int        jobs;
  char      *out;
  char      *traces;
  double     grid_step;
  gboolean   cpu_time;
} SweepOptions;

/* ---- Progress and results ---- */

static char *
describe_values (QdSweep             *sweep,
                 const QdSweepResult *result)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < result->n_values; i++)
    g_string_append_printf (text, "%s%s=%.10g", i > 0 ? ", " : "",
                            qd_sweep_get_name (sweep, i), result->values[i]);
  return g_string_free (text, FALSE);
}

static void
format_duration (char   *buf,
                 gsize   size,
                 double  seconds)
{
  guint64 s = (guint64) MAX (seconds, 0.0);

  if (s >= 3600)
    g_snprintf (buf, size, "%" PRIu64 ":%02u:%02u", s / 3600,
                (guint) (s / 60 % 60), (guint) (s % 60));
  else
    g_snprintf (buf, size, "%u:%02u", (guint) (s / 60), (guint) (s % 60));
}

static void
show_progress (QdCliSweepJob *job,
               gboolean       force)
{
  gint64 now = g_get_monotonic_time ();
  double elapsed = (double) (now - job->start_us) / G_USEC_PER_SEC;
  double left = job->n_done > 0
                ? elapsed / job->n_done * (job->n_runs - job->n_done) : 0.0;
  char left_text[32];

  if (!job->progress || (!force && now - job->progress_us < G_USEC_PER_SEC / 4))
    return;
  job->progress_us = now;
  format_duration (left_text, sizeof left_text, left);
  /* The line reset stays out of the message: translators need not copy
     control characters, and msgfmt warns about a '\r' in a message.  */
  g_printerr ("\r\033[K");
  g_printerr (_("%" PRIu64 "/%" PRIu64 " runs done, %"
                PRIu64 " failed, %s left"),
              job->n_done, job->n_runs, job->n_failed, left_text);
}

void
qd_cli_sweep_job_take (QdCliSweepJob *job,
                       QdSweepResult *result)
{
  if (result->run >= job->n_runs || job->results[result->run] != NULL)
    {
      qd_sweep_result_free (result);
      return;
    }
  job->results[result->run] = result;
  job->n_done++;
  if (result->error != NULL)
    {
      g_autofree char *values = describe_values (job->sweep, result);

      job->n_failed++;
      if (job->progress)
        g_printerr ("\r\033[K");
      g_printerr (_("%s: run %" PRIu64 " (%s) failed: %s\n"), job->file,
                  result->run, values[0] != '\0' ? values : _("no varied values"),
                  result->error);
    }
  show_progress (job, job->n_done == job->n_runs);
}

static void
on_interrupt (int sig)
{
  qd_cli_sweep_interrupt = sig;
  /* An atomic store in the simulation: safe in a handler. */
  if (running_sim != NULL)
    qd_simulation_request_stop (running_sim);
}

static void
catch_interrupts (void)
{
  struct sigaction action;

  memset (&action, 0, sizeof action);
  sigemptyset (&action.sa_mask);
  /* No SA_RESTART: poll() returns at once with EINTR. */
  action.sa_handler = on_interrupt;
  sigaction (SIGINT, &action, NULL);
  sigaction (SIGTERM, &action, NULL);
  signal (SIGPIPE, SIG_IGN);
}

/* ---- Local worker processes ---- */

typedef struct
{
  pid_t       pid;
  int         request_fd;   /* parent -> worker: run numbers */
  int         result_fd;    /* worker -> parent: records */
  guint64     run;          /* the run it has, or G_MAXUINT64 */
  GByteArray *buffer;       /* what arrived of the next record */
} Worker;

/* Reads (@writing FALSE) or writes @size bytes, through EINTR and short
 * counts; FALSE at the end of the pipe or on an error. */
static gboolean
transfer_all (int       fd,
              void     *data,
              gsize     size,
              gboolean  writing)
{
  guint8 *p = data;

  while (size > 0)
    {
      ssize_t n = writing ? write (fd, p, size) : read (fd, p, size);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      p += n;
      size -= (gsize) n;
    }
  return TRUE;
}

/* The child: runs what it is sent until the pipe closes. Ctrl-C is the
 * parent's to handle (it stops the workers itself). */
G_GNUC_NORETURN static void
worker_main (QdCliSweepJob *job,
             int            request_fd,
             int            result_fd)
{
  guint64 run;

  signal (SIGINT, SIG_IGN);
  signal (SIGTERM, SIG_DFL);
  while (transfer_all (request_fd, &run, sizeof run, FALSE))
    {
      QdSweepResult *result = qd_sweep_run (job->sweep, job->document,
                                            &job->run_options, run);
      g_autoptr(GBytes) bytes = qd_sweep_result_serialize (result);
      gsize size = 0;
      const guint8 *data = g_bytes_get_data (bytes, &size);
      guint64 length = size;

      qd_sweep_result_free (result);
      if (!transfer_all (result_fd, &length, sizeof length, TRUE)
          || !transfer_all (result_fd, (gpointer) data, size, TRUE))
        break;
    }
  _exit (0);
}

static gboolean
worker_start (QdCliSweepJob *job,
              Worker        *worker,
              Worker        *workers,
              guint          n_workers)
{
  int requests[2], results[2];

  if (pipe (requests) != 0)
    return FALSE;
  if (pipe (results) != 0)
    {
      close (requests[0]);
      close (requests[1]);
      return FALSE;
    }
  /* Nothing buffered may be written twice, by the child too. */
  fflush (stdout);
  fflush (stderr);
  worker->pid = fork ();
  if (worker->pid == 0)
    {
      close (requests[1]);
      close (results[0]);
      /* The other workers' pipes are not this one's business. */
      for (guint i = 0; i < n_workers; i++)
        if (&workers[i] != worker && workers[i].pid > 0)
          {
            close (workers[i].request_fd);
            close (workers[i].result_fd);
          }
      worker_main (job, requests[0], results[1]);
    }
  close (requests[0]);
  close (results[1]);
  if (worker->pid < 0)
    {
      close (requests[1]);
      close (results[0]);
      return FALSE;
    }
  worker->request_fd = requests[1];
  worker->result_fd = results[0];
  worker->run = G_MAXUINT64;
  worker->buffer = g_byte_array_new ();
  return TRUE;
}

/* Closes the pipes and reaps the child; returns its wait status. */
static int
worker_stop (Worker   *worker,
             gboolean  kill_it)
{
  int status = 0;

  if (worker->pid <= 0)
    return 0;
  if (kill_it)
    kill (worker->pid, SIGTERM);
  close (worker->request_fd);
  close (worker->result_fd);
  while (waitpid (worker->pid, &status, 0) < 0 && errno == EINTR)
    ;
  g_clear_pointer (&worker->buffer, g_byte_array_unref);
  worker->pid = 0;
  return status;
}

/* Gives the worker the next run; FALSE when none is left (it is then
 * stopped). */
static gboolean
worker_assign (Worker  *worker,
               guint64 *next,
               guint64  n_runs)
{
  if (*next >= n_runs || qd_cli_sweep_interrupt != 0)
    {
      worker_stop (worker, FALSE);
      return FALSE;
    }
  worker->run = (*next)++;
  /* Should the worker have died, the read side says so. */
  transfer_all (worker->request_fd, &worker->run, sizeof worker->run, TRUE);
  return TRUE;
}

/* Takes every complete record out of the worker's buffer. */
static void
worker_drain (QdCliSweepJob *job,
              Worker        *worker,
              guint64       *next)
{
  for (;;)
    {
      guint64 length;
      g_autoptr(GError) error = NULL;
      QdSweepResult *result;

      if (worker->buffer->len < sizeof length)
        return;
      memcpy (&length, worker->buffer->data, sizeof length);
      if (worker->buffer->len - sizeof length < length)
        return;
      result = qd_sweep_result_deserialize (worker->buffer->data + sizeof length,
                                            length, &error);
      g_byte_array_remove_range (worker->buffer, 0, (guint) (sizeof length + length));
      if (result == NULL)
        result = qd_sweep_result_new_failed (job->sweep, worker->run, error->message);
      worker->run = G_MAXUINT64;
      qd_cli_sweep_job_take (job, result);
      if (!worker_assign (worker, next, job->n_runs))
        return;
    }
}

/* A worker's pipe closed while it had a run: it died running it. */
static void
worker_lost (QdCliSweepJob *job,
             Worker        *worker,
             Worker        *workers,
             guint          n_workers,
             guint64       *next)
{
  guint64 run = worker->run;
  int status = worker_stop (worker, FALSE);
  g_autofree char *why = NULL;

  if (WIFSIGNALED (status))
    why = g_strdup_printf (_("its worker process was killed by signal %d (%s)"),
                           WTERMSIG (status), g_strsignal (WTERMSIG (status)));
  else
    why = g_strdup_printf (_("its worker process ended with status %d"),
                           WIFEXITED (status) ? WEXITSTATUS (status) : -1);
  if (run != G_MAXUINT64)
    qd_cli_sweep_job_take (job, qd_sweep_result_new_failed (job->sweep, run, why));
  if (*next < job->n_runs && qd_cli_sweep_interrupt == 0
      && worker_start (job, worker, workers, n_workers))
    worker_assign (worker, next, job->n_runs);
}

static void
run_local (QdCliSweepJob *job,
           guint          n_jobs)
{
  g_autofree Worker *workers = g_new0 (Worker, n_jobs);
  g_autofree struct pollfd *fds = g_new0 (struct pollfd, n_jobs);
  guint64 next = 0;
  guint alive = 0;

  for (guint i = 0; i < n_jobs; i++)
    if (worker_start (job, &workers[i], workers, n_jobs)
        && worker_assign (&workers[i], &next, job->n_runs))
      alive++;
  while (qd_cli_sweep_interrupt == 0)
    {
      guint n = 0;

      for (guint i = 0; i < n_jobs; i++)
        if (workers[i].pid > 0)
          fds[n++] = (struct pollfd) { .fd = workers[i].result_fd, .events = POLLIN };
      if (n == 0)
        break;
      if (poll (fds, n, -1) < 0)
        continue;  /* EINTR: the loop's test sees a Ctrl-C */
      for (guint i = 0, k = 0; i < n_jobs; i++)
        {
          Worker *worker = &workers[i];
          guint8 chunk[65536];
          ssize_t got;

          if (worker->pid <= 0)
            continue;
          if (!(fds[k++].revents & (POLLIN | POLLHUP | POLLERR)))
            continue;
          got = read (worker->result_fd, chunk, sizeof chunk);
          if (got < 0 && errno == EINTR)
            continue;
          if (got <= 0)
            {
              worker_lost (job, worker, workers, n_jobs, &next);
              continue;
            }
          g_byte_array_append (worker->buffer, chunk, (guint) got);
          worker_drain (job, worker, &next);
        }
    }
  /* Interrupted: the runs in progress are abandoned. */
  for (guint i = 0; i < n_jobs; i++)
    worker_stop (&workers[i], TRUE);
  (void) alive;
}

static void
set_running_sim (QdSimulation *sim,
                 gpointer      user_data)
{
  running_sim = sim;
  /* A Ctrl-C while this run was being set up found no simulation to
   * stop: the handler set the flag first, so it is seen here. */
  if (sim != NULL && qd_cli_sweep_interrupt != 0)
    qd_simulation_request_stop (sim);
}

/* One process, no fork: --jobs 1, and a sweep of one run. A run that
 * Ctrl-C stops is not done: it is left out like those not begun. */
static void
run_here (QdCliSweepJob *job)
{
  QdSweepRunOptions options = job->run_options;

  options.running = set_running_sim;
  for (guint64 run = 0; run < job->n_runs && qd_cli_sweep_interrupt == 0; run++)
    {
      QdSweepResult *result = qd_sweep_run (job->sweep, job->document, &options, run);

      if (qd_cli_sweep_interrupt != 0)
        qd_sweep_result_free (result);
      else
        qd_cli_sweep_job_take (job, result);
    }
}

/* ---- Options and output ---- */

static int
build_sweep (const SweepOptions *opts,
             QdSweep            *sweep)
{
  g_autoptr(GError) error = NULL;

  for (guint i = 0; opts->vary != NULL && opts->vary[i] != NULL; i++)
    if (!qd_sweep_add_vary (sweep, opts->vary[i], &error))
      return qd_cli_usage_error ("sweep", "%s", error->message);
  for (guint i = 0; opts->dist != NULL && opts->dist[i] != NULL; i++)
    if (!qd_sweep_add_dist (sweep, opts->dist[i], &error))
      return qd_cli_usage_error ("sweep", "%s", error->message);
  if (opts->samples < 1)
    return qd_cli_usage_error ("sweep", _("--samples must be at least 1"));
  if (opts->seed < 0)
    return qd_cli_usage_error ("sweep", _("--seed must be 0 or more"));
  if (opts->jobs < 0)
    return qd_cli_usage_error ("sweep", _("--jobs must be 1 or more (0: one per core)"));
  if (opts->grid_step < 0.0 || !isfinite (opts->grid_step))
    return qd_cli_usage_error ("sweep", _("--grid-step must be a time above 0"));
  if (opts->grid_step > 0.0 && opts->traces == NULL)
    return qd_cli_usage_error ("sweep", _("--grid-step needs --traces OUT"));
  if (opts->traces != NULL && g_str_has_suffix (opts->traces, ".h5"))
    {
#ifndef QD_CLI_HAVE_HDF5
      return qd_cli_usage_error ("sweep", _("--traces %s: this qdevs-cli was built without HDF5; write a .csv, or rebuild with -Dhdf5=enabled"),
                                 opts->traces);
#endif
    }
  qd_sweep_set_samples (sweep, (guint64) opts->samples);
  qd_sweep_set_seed (sweep, (guint64) opts->seed);
  qd_sweep_set_model_seeds (sweep, opts->model_seeds);
  for (guint i = 0; opts->overrides != NULL && opts->overrides[i] != NULL; i++)
    for (guint k = 0; k < qd_sweep_get_n_names (sweep); k++)
      {
        const char *name = qd_sweep_get_name (sweep, k);
        gsize len = strlen (name);

        if (strncmp (opts->overrides[i], name, len) == 0
            && (opts->overrides[i][len] == '=' || opts->overrides[i][len] == ' '))
          return qd_cli_usage_error ("sweep", _("--set %s: '%s' is also varied by the sweep; give it either --set or --vary/--dist"),
                                     opts->overrides[i], name);
      }
  return QD_CLI_EXIT_OK;
}

static int
write_outputs (QdCliSweepJob      *job,
               const SweepOptions *opts,
               GPtrArray          *done)
{
  g_autoptr(GError) error = NULL;
  const QdSettings *settings = qd_document_get_settings (job->document);
  g_autofree char *summary = NULL;

  if (opts->out != NULL
      && !qd_sweep_write_results (job->sweep, done,
                                  opts->cpu_time ? QD_SWEEP_WRITE_CPU_TIME : QD_SWEEP_WRITE_DEFAULT,
                                  opts->out, &error))
    {
      g_printerr ("%s\n", error->message);
      return QD_CLI_EXIT_MODEL;
    }
  if (opts->traces != NULL)
    {
      gboolean ok;

#ifdef QD_CLI_HAVE_HDF5
      if (g_str_has_suffix (opts->traces, ".h5"))
        ok = qd_cli_sweep_write_traces_h5 (job->sweep, done, settings->start_time,
                                           job->run_options.grid_step, opts->traces, &error);
      else
#endif
        ok = qd_sweep_write_traces_csv (done, settings->start_time,
                                        job->run_options.grid_step, opts->traces, &error);
      if (!ok)
        {
          g_printerr ("%s\n", error->message);
          return QD_CLI_EXIT_MODEL;
        }
    }
  /* With --out - the records are on standard output already. */
  if (opts->out == NULL || strcmp (opts->out, "-") != 0)
    {
      summary = qd_sweep_summary_text (done);
      g_print ("%s", summary);
    }
  return QD_CLI_EXIT_OK;
}

/* Runs the runs (here, in workers, or over MPI) and writes what is done. */
static int
run_sweep (QdCliSweepJob      *job,
           const SweepOptions *opts,
           gboolean            mpi)
{
  g_autoptr(GPtrArray) done = g_ptr_array_new ();
  guint n_jobs = opts->jobs > 0 ? (guint) opts->jobs : g_get_num_processors ();
  double wall_s;
  int status;

  job->results = g_new0 (QdSweepResult *, job->n_runs);
  job->start_us = g_get_monotonic_time ();
  job->progress = isatty (2);
  qd_cli_sweep_interrupt = 0;
  catch_interrupts ();
#ifdef QD_CLI_HAVE_MPI
  if (mpi && !qd_cli_sweep_mpi_run (job))
    {
      /* A worker rank: rank 0 has the results and writes them. */
      g_clear_pointer (&job->results, g_free);
      return QD_CLI_EXIT_OK;
    }
#endif
  if (!mpi)
    {
      if (n_jobs <= 1 || job->n_runs <= 1)
        run_here (job);
      else
        run_local (job, (guint) MIN ((guint64) n_jobs, job->n_runs));
    }
  wall_s = (double) (g_get_monotonic_time () - job->start_us) / G_USEC_PER_SEC;
  if (job->progress)
    g_printerr ("\r\033[K");
  for (guint64 r = 0; r < job->n_runs; r++)
    if (job->results[r] != NULL)
      g_ptr_array_add (done, job->results[r]);
  g_printerr (_("%s: %" PRIu64 " of %" PRIu64 " runs done, %"
                PRIu64 " failed, in %.2f s (%.1f runs/s)\n"),
              job->file, job->n_done, job->n_runs, job->n_failed, wall_s,
              wall_s > 0 ? job->n_done / wall_s : 0.0);
  if (qd_cli_sweep_interrupt != 0)
    g_printerr (_("%s: interrupted; the results of the %" PRIu64 " runs done are written\n"),
                job->file, job->n_done);
  status = write_outputs (job, opts, done);
  for (guint64 r = 0; r < job->n_runs; r++)
    qd_sweep_result_free (job->results[r]);
  g_clear_pointer (&job->results, g_free);
  if (qd_cli_sweep_interrupt != 0)
    return QD_CLI_EXIT_SIGNAL + qd_cli_sweep_interrupt;
  if (status != QD_CLI_EXIT_OK)
    return status;
  if (job->n_failed > 0)
    return QD_CLI_EXIT_SWEEP_FAILED + (int) MIN (job->n_failed, 100);
  return QD_CLI_EXIT_OK;
}

static int
sweep_main (int        argc,
            char     **argv,
            gboolean   mpi)
{
  SweepOptions opts = { .samples = 1, .seed = 1, .jobs = 0 };
  GOptionEntry entries[] = {
    { "vary", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opts.vary,
      N_("Vary the model variable NAME: n values from a to b (a:b:n), n values evenly spaced in log (log:a:b:n), or the values listed (v1,v2,v3); several make a grid"), N_("NAME=SPEC") },
    { "samples", 0, 0, G_OPTION_ARG_INT64, &opts.samples,
      N_("Runs per grid point, each with its own random numbers (default 1)"), N_("N") },
    { "dist", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opts.dist,
      N_("Draw the model variable NAME per run from normal(mu,sigma), uniform(a,b) or lognormal(mu,sigma); needs --samples"), N_("NAME=DIST") },
    { "seed", 0, 0, G_OPTION_ARG_INT64, &opts.seed,
      N_("The sweep's seed: every run's draws and its random blocks' seeds derive from it and the run's number (default 1)"), N_("S") },
    { "model-seeds", 0, 0, G_OPTION_ARG_NONE, &opts.model_seeds,
      N_("Keep the seeds stored in the model's random blocks in every run (common random numbers)"), NULL },
    { "until", 0, 0, G_OPTION_ARG_STRING, &opts.until,
      N_("Run until time T instead of the model's final time"), N_("T") },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opts.overrides,
      N_("Replace the value of the model variable NAME in every run; may be repeated"), N_("NAME=VALUE") },
    { "jobs", 'j', 0, G_OPTION_ARG_INT, &opts.jobs,
      N_("Worker processes on this machine (default: one per core)"), N_("J") },
    { "out", 'o', 0, G_OPTION_ARG_FILENAME, &opts.out,
      N_("Write one row per run to OUT: CSV, or JSON when OUT ends in .json (- for standard output)"), N_("OUT") },
    { "traces", 0, 0, G_OPTION_ARG_FILENAME, &opts.traces,
      N_("Write every run's Scope signals on a common time grid to OUT (.csv, or .h5 when built with HDF5)"), N_("OUT") },
    { "grid-step", 0, 0, G_OPTION_ARG_DOUBLE, &opts.grid_step,
      N_("The step of the --traces grid (default: a hundredth of the run)"), N_("H") },
    { "cpu-time", 0, 0, G_OPTION_ARG_NONE, &opts.cpu_time,
      N_("Add each run's CPU time to --out (the only column that differs between two sweeps)"), NULL },
    { NULL }
  };
  g_autoptr(QdDocument) document = NULL;
  QdSweep *sweep = qd_sweep_new ();
  g_autoptr(GError) error = NULL;
  QdCliSweepJob job = { 0 };
  int status;

  if (!qd_cli_parse_options ("sweep", _("FILE"),
                             _("Run the diagram FILE many times: a parameter sweep, or a Monte Carlo ensemble."),
                             /* xgettext:no-c-format */
                             _("Each run sets the varied variables (--vary, --dist) as --set would. Run r's\n"
                               "draws and the seeds of the model's random blocks derive from --seed and r\n"
                               "alone, so the results are the same whatever --jobs, or the number of MPI\n"
                               "ranks under mpirun or srun (when built with -Dmpi=enabled). A run that fails\n"
                               "is reported with its values and the sweep goes on. A summary of every output\n"
                               "(mean, sd, percentiles, 95% confidence interval of the mean) is printed on\n"
                               "standard output, the progress on standard error. Ctrl-C stops the sweep and\n"
                               "writes the runs done.\n\n"
                               "Exit status: 0 when every run succeeded, 10 plus the number of failed runs\n"
                               "(at most 110) otherwise, 130 (143) when interrupted; 1 and 2 as for run.\n\n"
                               "Examples:\n"
                               "  qdevs-cli sweep queue-server.qdevs --samples 100 --out runs.csv\n"
                               "  qdevs-cli sweep lotka-volterra.qdevs --vary m=0.05:0.15:5 --vary beta=log:0.05:0.2:4\n"
                               "  qdevs-cli sweep bouncing-ball-restitution.qdevs --samples 200 --dist restitution=uniform(0.7,0.9)"),
                             entries, &argc, &argv))
    {
      qd_sweep_free (sweep);
      return QD_CLI_EXIT_USAGE;
    }
  if (argc != 2)
    status = qd_cli_usage_error ("sweep", argc < 2 ? _("missing FILE") : _("one FILE at a time"));
  else if (qd_cli_check_overrides ("sweep", opts.overrides))
    status = build_sweep (&opts, sweep);
  else
    status = QD_CLI_EXIT_USAGE;
  if (status == QD_CLI_EXIT_OK)
    status = qd_cli_load ("sweep", argv[1], opts.overrides, NULL, &document);
  if (status == QD_CLI_EXIT_OK && opts.until != NULL)
    status = qd_cli_apply_until ("sweep", qd_cli_file_name (argv[1]), document, opts.until);
  if (status == QD_CLI_EXIT_OK && !qd_sweep_check (sweep, document, &error))
    status = qd_cli_usage_error ("sweep", "%s", error->message);
  if (status == QD_CLI_EXIT_OK)
    {
      const QdSettings *settings = qd_document_get_settings (document);

      job.file = qd_cli_file_name (argv[1]);
      job.document = document;
      job.sweep = sweep;
      job.n_runs = qd_sweep_get_n_runs (sweep);
      job.run_options.overrides = (const char *const *) opts.overrides;
      if (opts.traces != NULL)
        job.run_options.grid_step = opts.grid_step > 0.0
          ? opts.grid_step : (settings->final_time - settings->start_time) / 100.0;
      status = run_sweep (&job, &opts, mpi);
    }
  qd_sweep_free (sweep);
  g_strfreev (opts.vary);
  g_strfreev (opts.dist);
  g_strfreev (opts.overrides);
  g_free (opts.until);
  g_free (opts.out);
  g_free (opts.traces);
  return status;
}

int
qd_cli_sweep (int    argc,
              char **argv)
{
  gboolean mpi = FALSE;
  int status;

#ifdef QD_CLI_HAVE_MPI
  int rank = 0;

  mpi = qd_cli_sweep_mpi_init (&argc, &argv, &rank);
  /* The ranks all read the same arguments and file; rank 0 alone
   * speaks and writes. */
  if (mpi && rank != 0)
    {
      if (freopen ("/dev/null", "w", stdout) == NULL
          || freopen ("/dev/null", "w", stderr) == NULL)
        g_warning ("cannot silence MPI rank %d", rank);
    }
#endif
  status = sweep_main (argc, argv, mpi);
#ifdef QD_CLI_HAVE_MPI
  if (mpi)
    qd_cli_sweep_mpi_finalize ();
#endif
  return status;
}

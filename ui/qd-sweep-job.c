/* qd-sweep-job.c: a sweep run in the editor (qd-sweep-job.h)
 *
 * Each run is one item of a GThreadPool: the worker runs it with
 * qd_sweep_run() and puts its record into the run's slot. The records
 * are read only once every item has come back, in run order, so the
 * main thread never looks at a slot a worker may still write. The pool's
 * items hold the job: closing the dialog during a sweep cancels it, and
 * the job goes once the last worker has returned.
 */
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "qd-sweep-job.h"

/* What one worker has going on, so that Cancel can stop it. */
typedef struct
{
  QdSweepJob   *job;
  QdSimulation *sim;
} Active;

struct _QdSweepJob
{
  GObject         parent_instance;

  QdDocument     *document;
  QdSweep        *sweep;
  QdSweepRunOptions options;
  double          t0, step;
  guint           n_grid;
  guint64         n_runs;
  guint           n_workers;

  GThreadPool    *pool;
  GMutex          lock;          /* guards what follows */
  QdSweepResult **slots;         /* one per run, NULL until done */
  GPtrArray      *active;        /* Active*, the runs going on */
  guint64         n_settled;     /* done, dropped or skipped */
  guint64         n_done;
  guint64         n_failed;
  gboolean        cancelled;
  gboolean        running;

  GPtrArray      *results;       /* once finished: borrowed from slots */
  GStrv           signals;
};

G_DEFINE_FINAL_TYPE (QdSweepJob, qd_sweep_job, G_TYPE_OBJECT)

enum { SIGNAL_FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
qd_sweep_job_finalize (GObject *object)
{
  QdSweepJob *self = QD_SWEEP_JOB (object);

  /* Only reached once the pool is gone: see finish(). */
  if (self->slots != NULL)
    for (guint64 r = 0; r < self->n_runs; r++)
      qd_sweep_result_free (self->slots[r]);
  g_free (self->slots);
  g_clear_pointer (&self->results, g_ptr_array_unref);
  g_clear_pointer (&self->signals, g_strfreev);
  g_ptr_array_unref (self->active);
  g_mutex_clear (&self->lock);
  g_clear_pointer (&self->sweep, qd_sweep_free);
  g_clear_object (&self->document);
  G_OBJECT_CLASS (qd_sweep_job_parent_class)->finalize (object);
}

static void
qd_sweep_job_class_init (QdSweepJobClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = qd_sweep_job_finalize;
  signals[SIGNAL_FINISHED] =
    g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
qd_sweep_job_init (QdSweepJob *self)
{
  g_mutex_init (&self->lock);
  self->active = g_ptr_array_new ();
}

/* A private copy: the editor goes on editing its document meanwhile,
 * and the runs read this one from several threads. */
static QdDocument *
copy_document (QdDocument *document)
{
  gsize length = 0;
  g_autofree char *data = qd_document_to_data (document, &length);
  QdDocument *copy = qd_document_load_data (data, length, qd_document_get_title (document), NULL);

  return copy != NULL ? copy : g_object_ref (document);
}

QdSweepJob *
qd_sweep_job_new (QdDocument  *document,
                  QdSweep     *sweep,
                  double       final_time,
                  double       grid_step,
                  GError     **error)
{
  g_autoptr(QdSweepJob) self = g_object_new (QD_TYPE_SWEEP_JOB, NULL);
  const QdSettings *settings;

  g_return_val_if_fail (QD_IS_DOCUMENT (document), NULL);
  self->sweep = sweep;
  self->document = copy_document (document);
  settings = qd_document_get_settings (self->document);
  if (!isnan (final_time))
    {
      QdSettings copy = *settings;

      if (!isfinite (final_time) || !(final_time > settings->start_time))
        {
          g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                       _("The final time must be a number after the start time %g."),
                       settings->start_time);
          return NULL;
        }
      copy.final_time = final_time;
      if (!qd_document_set_settings (self->document, &copy, error))
        return NULL;
      settings = qd_document_get_settings (self->document);
    }
  if (!qd_sweep_check (sweep, self->document, error))
    return NULL;
  self->n_runs = qd_sweep_get_n_runs (sweep);
  if (self->n_runs > QD_SWEEP_JOB_MAX_RUNS)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("%" PRIu64 " runs are more than the editor keeps (%d): use fewer values or samples, or qdevs-cli sweep."),
                   self->n_runs, QD_SWEEP_JOB_MAX_RUNS);
      return NULL;
    }
  self->t0 = settings->start_time;
  self->step = grid_step > 0.0 ? grid_step
                               : (settings->final_time - settings->start_time) / QD_SWEEP_JOB_GRID_POINTS;
  self->n_grid = qd_sweep_grid_size (self->t0, settings->final_time, self->step);
  self->options.grid_step = self->step;
  return g_steal_pointer (&self);
}

/* ---- the workers ---------------------------------------------------- */

/* qd_sweep_run() tells us the simulation it is about to run (and NULL
 * once it is over): Cancel stops the ones listed. */
static void
on_running (QdSimulation *sim,
            gpointer      user_data)
{
  Active *active = user_data;
  QdSweepJob *self = active->job;

  g_mutex_lock (&self->lock);
  active->sim = sim;
  if (sim != NULL)
    {
      g_ptr_array_add (self->active, active);
      /* A Cancel between the check in run_one() and here. */
      if (self->cancelled)
        qd_simulation_request_stop (sim);
    }
  else
    g_ptr_array_remove_fast (self->active, active);
  g_mutex_unlock (&self->lock);
}

static gboolean
finish (gpointer data)
{
  QdSweepJob *self = data;

  /* Every item has returned: the threads only have to end. */
  g_thread_pool_free (self->pool, FALSE, TRUE);
  self->pool = NULL;
  self->results = g_ptr_array_new ();
  for (guint64 r = 0; r < self->n_runs; r++)
    if (self->slots[r] != NULL)
      g_ptr_array_add (self->results, self->slots[r]);
  self->signals = qd_sweep_job_dup_signals (self->results);
  self->running = FALSE;
  g_signal_emit (self, signals[SIGNAL_FINISHED], 0);
  g_object_unref (self);
  return G_SOURCE_REMOVE;
}

static void
run_one (gpointer data,
         gpointer user_data)
{
  QdSweepJob *self = user_data;
  guint64 run = GPOINTER_TO_SIZE (data) - 1;
  QdSweepResult *result = NULL;
  gboolean skip, last;

  g_mutex_lock (&self->lock);
  skip = self->cancelled;
  g_mutex_unlock (&self->lock);
  if (!skip)
    {
      Active active = { self, NULL };
      QdSweepRunOptions options = self->options;

      options.running = on_running;
      options.user_data = &active;
      result = qd_sweep_run (self->sweep, self->document, &options, run);
    }

  g_mutex_lock (&self->lock);
  /* A run stopped by Cancel did not fail: it was not done. */
  if (result != NULL && self->cancelled && result->error != NULL)
    g_clear_pointer (&result, qd_sweep_result_free);
  if (result != NULL)
    {
      self->slots[run] = result;
      self->n_done++;
      if (result->error != NULL)
        self->n_failed++;
    }
  last = ++self->n_settled == self->n_runs;
  g_mutex_unlock (&self->lock);
  if (last)
    g_idle_add (finish, self);
}

void
qd_sweep_job_start (QdSweepJob *self,
                    guint       n_workers)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (QD_IS_SWEEP_JOB (self));
  g_return_if_fail (self->slots == NULL);

  self->n_workers = n_workers > 0 ? n_workers : g_get_num_processors ();
  self->slots = g_new0 (QdSweepResult *, MAX (self->n_runs, 1));
  self->running = TRUE;
  /* The workers' items hold the job until finish(). */
  g_object_ref (self);
  if (self->n_runs == 0)
    {
      g_idle_add (finish, self);
      return;
    }
  self->pool = g_thread_pool_new (run_one, self, (int) self->n_workers, TRUE, &error);
  if (self->pool == NULL)
    {
      /* Threads that cannot start: run on one, which always can. */
      g_warning ("sweep: %s", error->message);
      self->pool = g_thread_pool_new (run_one, self, 1, FALSE, NULL);
    }
  for (guint64 r = 0; r < self->n_runs; r++)
    g_thread_pool_push (self->pool, GSIZE_TO_POINTER ((gsize) r + 1), NULL);
}

void
qd_sweep_job_cancel (QdSweepJob *self)
{
  g_return_if_fail (QD_IS_SWEEP_JOB (self));

  g_mutex_lock (&self->lock);
  self->cancelled = self->running;
  for (guint i = 0; i < self->active->len; i++)
    {
      Active *active = g_ptr_array_index (self->active, i);

      qd_simulation_request_stop (active->sim);
    }
  g_mutex_unlock (&self->lock);
}

gboolean
qd_sweep_job_is_running (QdSweepJob *self)
{
  return self->running;
}

gboolean
qd_sweep_job_was_cancelled (QdSweepJob *self)
{
  return self->cancelled;
}

QdSweep *
qd_sweep_job_get_sweep (QdSweepJob *self)
{
  return self->sweep;
}

guint64
qd_sweep_job_get_n_runs (QdSweepJob *self)
{
  return self->n_runs;
}

guint
qd_sweep_job_get_n_workers (QdSweepJob *self)
{
  return self->n_workers;
}

guint64
qd_sweep_job_get_n_done (QdSweepJob *self)
{
  guint64 n;

  g_mutex_lock (&self->lock);
  n = self->n_done;
  g_mutex_unlock (&self->lock);
  return n;
}

guint64
qd_sweep_job_get_n_failed (QdSweepJob *self)
{
  guint64 n;

  g_mutex_lock (&self->lock);
  n = self->n_failed;
  g_mutex_unlock (&self->lock);
  return n;
}

/* ---- the records ---------------------------------------------------- */

GPtrArray *
qd_sweep_job_get_results (QdSweepJob *self)
{
  g_return_val_if_fail (self->results != NULL, NULL);
  return self->results;
}

char *
qd_sweep_job_describe_run (QdSweepJob          *self,
                           const QdSweepResult *result)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < result->n_values; i++)
    g_string_append_printf (text, "%s%s = %.6g", i > 0 ? ", " : "",
                            qd_sweep_get_name (self->sweep, i), result->values[i]);
  return g_string_free (text, FALSE);
}

gboolean
qd_sweep_job_write_results (QdSweepJob        *self,
                            QdSweepWriteFlags  flags,
                            const char        *path,
                            GError           **error)
{
  g_return_val_if_fail (self->results != NULL, FALSE);
  return qd_sweep_write_results (self->sweep, self->results, flags, path, error);
}

void
qd_sweep_job_get_grid (QdSweepJob *self,
                       double     *t0,
                       double     *step,
                       guint      *n)
{
  *t0 = self->t0;
  *step = self->step;
  *n = self->n_grid;
}

GPtrArray *
qd_sweep_job_dup_done (QdSweepJob *self)
{
  GPtrArray *done = g_ptr_array_new ();

  g_mutex_lock (&self->lock);
  for (guint64 r = 0; self->slots != NULL && r < self->n_runs; r++)
    if (self->slots[r] != NULL)
      g_ptr_array_add (done, self->slots[r]);
  g_mutex_unlock (&self->lock);
  return done;
}

const char *const *
qd_sweep_job_get_signals (QdSweepJob *self)
{
  g_return_val_if_fail (self->signals != NULL, NULL);
  return (const char *const *) self->signals;
}

/* Every successful run of a model has the same Scopes: the first says. */
GStrv
qd_sweep_job_dup_signals (GPtrArray *results)
{
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();

  for (guint i = 0; i < results->len; i++)
    {
      const QdSweepResult *result = g_ptr_array_index (results, i);

      if (result->error != NULL)
        continue;
      for (guint k = 0; k < result->trace_names->len; k++)
        g_strv_builder_add (names, g_ptr_array_index (result->trace_names, k));
      break;
    }
  return g_strv_builder_end (names);
}

const double *
qd_sweep_job_get_trace (QdSweepJob          *self,
                        const QdSweepResult *result,
                        const char          *signal)
{
  if (result->error != NULL || result->traces == NULL)
    return NULL;
  for (guint k = 0; k < result->trace_names->len; k++)
    if (strcmp (g_ptr_array_index (result->trace_names, k), signal) == 0)
      return result->traces + (gsize) k * result->n_grid;
  return NULL;
}

gboolean
qd_sweep_job_compute_band (QdSweepJob *self,
                           GPtrArray  *results,
                           const char *signal,
                           double     *mean,
                           double     *low,
                           double     *high)
{
  g_autoptr(GPtrArray) curves = g_ptr_array_new ();
  g_autofree double *values = NULL;

  if (results == NULL)
    results = qd_sweep_job_get_results (self);
  for (guint i = 0; i < results->len; i++)
    {
      const double *curve = qd_sweep_job_get_trace (self, g_ptr_array_index (results, i), signal);

      if (curve != NULL)
        g_ptr_array_add (curves, (gpointer) curve);
    }
  values = g_new (double, MAX (curves->len, 1));
  for (guint p = 0; p < self->n_grid; p++)
    {
      QdSweepSummary summary;
      guint n = 0;

      /* A stopped or decimated stretch has no value there (NaN). */
      for (guint c = 0; c < curves->len; c++)
        {
          double v = ((const double *) g_ptr_array_index (curves, c))[p];

          if (!isnan (v))
            values[n++] = v;
        }
      qd_sweep_summarize (values, n, &summary);
      mean[p] = summary.mean;
      low[p] = summary.p5;
      high[p] = summary.p95;
    }
  return curves->len > 0;
}

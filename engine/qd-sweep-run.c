/* qd-sweep-run.c: one run of a sweep, and its record as bytes
 *
 * A run compiles the document with the run's values as overrides,
 * reseeds the random blocks, runs it to the final time and condenses the
 * Scopes' traces into numbers (final, minimum, maximum, and the values on
 * the sweep's time grid). Nothing here is shared between runs, so runs
 * may go on in as many threads as there are simulations.
 */
#include "qd-sweep.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "qd-error.h"
#include "qd-simulation-private.h"
#include "qd-stats.h"

/* The traces of one run are kept within this: beyond it their oldest
 * part becomes decimated history, whose buckets still hold the exact
 * minimum and maximum; only the grid values there are lost (NaN). */
#define RUN_TRACE_BUDGET ((gsize) 64 << 20)

static QdSweepResult *
result_new (QdSweep *self,
            guint64  run)
{
  QdSweepResult *result = g_new0 (QdSweepResult, 1);

  result->run = run;
  result->n_values = qd_sweep_get_n_names (self);
  result->values = g_new0 (double, MAX (result->n_values, 1));
  qd_sweep_get_values (self, run, result->values);
  result->output_names = g_ptr_array_new_with_free_func (g_free);
  result->outputs = g_array_new (FALSE, FALSE, sizeof (double));
  result->trace_names = g_ptr_array_new_with_free_func (g_free);
  result->final_time = NAN;
  return result;
}

void
qd_sweep_result_free (QdSweepResult *result)
{
  if (result == NULL)
    return;
  g_free (result->error);
  g_free (result->values);
  g_ptr_array_unref (result->output_names);
  g_array_unref (result->outputs);
  g_ptr_array_unref (result->trace_names);
  g_free (result->traces);
  g_free (result);
}

QdSweepResult *
qd_sweep_result_new_failed (QdSweep    *self,
                            guint64     run,
                            const char *error)
{
  QdSweepResult *result = result_new (self, run);

  result->error = g_strdup (error);
  return result;
}

static void
add_output (QdSweepResult *result,
            const char    *name,
            const char    *suffix,
            double         value)
{
  g_ptr_array_add (result->output_names, g_strconcat (name, suffix, NULL));
  g_array_append_val (result->outputs, value);
}

/* The exact extremes of @trace up to @t_end: its decimated history, then
 * each held segment over the span until the next one. */
static void
trace_range (QdTrace *trace,
             double   t_end,
             double  *min,
             double  *max)
{
  guint token = qd_trace_read_begin (trace);
  gsize first = qd_trace_get_first (trace);
  gsize n_buckets = 0;
  const QdTraceBucket *buckets = qd_trace_get_history (trace, &n_buckets);
  gsize length = qd_trace_get_length (trace);

  *min = INFINITY;
  *max = -INFINITY;
  for (gsize b = 0; b < n_buckets; b++)
    {
      *min = MIN (*min, buckets[b].min);
      *max = MAX (*max, buckets[b].max);
    }
  for (gsize k = first; k < length; k++)
    {
      const QdSignal *seg = qd_trace_get (trace, k);
      double tb = k + 1 < length ? qd_trace_get (trace, k + 1)->t : t_end;
      double lo, hi;

      qd_signal_range (seg, seg->t, MAX (tb, seg->t), &lo, &hi);
      *min = MIN (*min, lo);
      *max = MAX (*max, hi);
    }
  qd_trace_read_end (trace, token);
  if (*min > *max)
    *min = *max = NAN;
}

static void
collect_outputs (QdSweepResult           *result,
                 QdSimulation            *sim,
                 const QdSweepRunOptions *options)
{
  GPtrArray *traces = qd_simulation_get_traces (sim);
  GPtrArray *stats = qd_simulation_get_stats (sim);
  double t0 = qd_simulation_get_start_time (sim);
  double t_end = qd_simulation_get_time (sim);

  for (guint i = 0; i < traces->len; i++)
    {
      QdTrace *trace = g_ptr_array_index (traces, i);
      const char *name = qd_trace_get_name (trace);
      double min, max;

      trace_range (trace, t_end, &min, &max);
      add_output (result, name, ".final", qd_trace_eval (trace, t_end));
      add_output (result, name, ".min", min);
      add_output (result, name, ".max", max);
    }
  for (guint k = 0; k < stats->len; k++)
    {
      const QdStat *stat = g_ptr_array_index (stats, k);
      g_autofree char *name = g_strdup_printf ("%s/%s", stat->path, stat->name);

      add_output (result, name, "", stat->value);
    }
  if (options->grid_step > 0.0 && traces->len > 0)
    {
      double t1 = qd_simulation_get_final_time (sim);

      result->n_grid = qd_sweep_grid_size (t0, t1, options->grid_step);
      result->traces = g_new (double, (gsize) result->n_grid * traces->len);
      for (guint i = 0; i < traces->len; i++)
        {
          QdTrace *trace = g_ptr_array_index (traces, i);

          g_ptr_array_add (result->trace_names, g_strdup (qd_trace_get_name (trace)));
          for (guint p = 0; p < result->n_grid; p++)
            {
              double t = MIN (t0 + p * options->grid_step, t1);

              /* Past where a stopped run ended there is nothing. */
              result->traces[(gsize) i * result->n_grid + p] =
                t <= t_end ? qd_trace_eval (trace, t) : NAN;
            }
        }
    }
}

static double
thread_cpu_seconds (void)
{
  struct timespec ts;

  if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
    return 0.0;
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

/* The compiler's problems on one line: a run's error is one field. */
static char *
join_problems (GPtrArray    *problems,
               const GError *error)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; i < problems->len; i++)
    {
      g_autofree char *one = qd_problem_to_string (g_ptr_array_index (problems, i));

      g_string_append_printf (text, "%s%s", i > 0 ? "; " : "", one);
    }
  if (text->len == 0)
    g_string_append (text, error != NULL ? error->message : _("the model cannot be compiled"));
  return g_string_free (text, FALSE);
}

QdSweepResult *
qd_sweep_run (QdSweep                 *self,
              QdDocument              *document,
              const QdSweepRunOptions *options,
              guint64                  run)
{
  QdSweepResult *result = result_new (self, run);
  g_autoptr(GPtrArray) overrides = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(QdTraceBudget) budget = NULL;
  GPtrArray *traces;
  QdSimulation *sim;
  QdRunStatus status;
  double cpu0 = thread_cpu_seconds ();

  for (guint i = 0; options->overrides != NULL && options->overrides[i] != NULL; i++)
    g_ptr_array_add (overrides, g_strdup (options->overrides[i]));
  /* The varied values come after --set, exact to the last bit. */
  for (guint i = 0; i < result->n_values; i++)
    {
      char number[G_ASCII_DTOSTR_BUF_SIZE];

      g_ptr_array_add (overrides,
                       g_strdup_printf ("%s=%s", qd_sweep_get_name (self, i),
                                        g_ascii_dtostr (number, sizeof number, result->values[i])));
    }
  g_ptr_array_add (overrides, NULL);

  /* Compiled, reseeded, then initialized: init reads the seeds. */
  sim = qd_compile (document, (const char *const *) overrides->pdata, FALSE, problems, &error);
  if (sim != NULL && !qd_sweep_get_model_seeds (self))
    qd_simulation_reseed (sim, qd_sweep_derive_seed (qd_sweep_get_seed (self), run));
  if (sim != NULL && !qd_simulation_initialize (sim, problems, &error))
    g_clear_pointer (&sim, qd_simulation_free);
  if (sim == NULL)
    {
      result->error = join_problems (problems, error);
      result->cpu_s = thread_cpu_seconds () - cpu0;
      return result;
    }
  traces = qd_simulation_get_traces (sim);
  budget = qd_trace_budget_new (RUN_TRACE_BUDGET);
  for (guint i = 0; i < traces->len; i++)
    qd_trace_budget_add (budget, g_ptr_array_index (traces, i));

  if (options->running != NULL)
    options->running (sim, options->user_data);
  status = qd_simulation_run (sim, &error);
  if (options->running != NULL)
    options->running (NULL, options->user_data);
  qd_simulation_finish (sim);
  result->cpu_s = thread_cpu_seconds () - cpu0;
  if (status == QD_RUN_ERROR)
    result->error = g_strdup (error != NULL ? error->message : _("the run stopped with an error"));
  else if (status == QD_RUN_STOPPED)
    result->error = g_strdup (_("stopped before the final time"));
  result->events = qd_simulation_get_events (sim);
  result->transitions = qd_simulation_get_transitions (sim);
  result->integrator_steps = qd_simulation_get_integrator_steps (sim);
  result->final_time = qd_simulation_get_time (sim);
  if (result->error == NULL)
    collect_outputs (result, sim, options);
  qd_simulation_free (sim);
  return result;
}

/* ---- Bytes ---- */

#define RESULT_MAGIC 0x52534451u   /* "QDSR" */

static void
put_u64 (GByteArray *out,
         guint64     value)
{
  guint64 le = GUINT64_TO_LE (value);

  g_byte_array_append (out, (const guint8 *) &le, sizeof le);
}

static void
put_f64 (GByteArray *out,
         double      value)
{
  guint64 bits;

  memcpy (&bits, &value, sizeof bits);
  put_u64 (out, bits);
}

static void
put_str (GByteArray *out,
         const char *text)
{
  gsize len = text != NULL ? strlen (text) : 0;

  /* NULL and "" differ: the error field is NULL for a good run. */
  put_u64 (out, text != NULL ? len + 1 : 0);
  if (text != NULL)
    g_byte_array_append (out, (const guint8 *) text, len);
}

GBytes *
qd_sweep_result_serialize (const QdSweepResult *result)
{
  GByteArray *out = g_byte_array_new ();
  gsize n_traces = result->trace_names->len;

  put_u64 (out, RESULT_MAGIC);
  put_u64 (out, result->run);
  put_str (out, result->error);
  put_u64 (out, result->n_values);
  for (guint i = 0; i < result->n_values; i++)
    put_f64 (out, result->values[i]);
  put_u64 (out, result->events);
  put_u64 (out, result->transitions);
  put_u64 (out, result->integrator_steps);
  put_f64 (out, result->final_time);
  put_f64 (out, result->cpu_s);
  put_u64 (out, result->outputs->len);
  for (guint i = 0; i < result->outputs->len; i++)
    {
      put_str (out, g_ptr_array_index (result->output_names, i));
      put_f64 (out, g_array_index (result->outputs, double, i));
    }
  put_u64 (out, n_traces);
  put_u64 (out, result->n_grid);
  for (gsize k = 0; k < n_traces; k++)
    put_str (out, g_ptr_array_index (result->trace_names, k));
  for (gsize i = 0; i < n_traces * result->n_grid; i++)
    put_f64 (out, result->traces[i]);
  return g_byte_array_free_to_bytes (out);
}

typedef struct
{
  const guint8 *p, *end;
  gboolean      bad;
} Reader;

static guint64
get_u64 (Reader *r)
{
  guint64 le;

  if (r->bad || (gsize) (r->end - r->p) < sizeof le)
    {
      r->bad = TRUE;
      return 0;
    }
  memcpy (&le, r->p, sizeof le);
  r->p += sizeof le;
  return GUINT64_FROM_LE (le);
}

static double
get_f64 (Reader *r)
{
  guint64 bits = get_u64 (r);
  double value;

  memcpy (&value, &bits, sizeof value);
  return value;
}

static char *
get_str (Reader *r)
{
  guint64 len = get_u64 (r);
  char *text;

  if (r->bad || len == 0)
    return NULL;
  if ((guint64) (r->end - r->p) < len - 1)
    {
      r->bad = TRUE;
      return NULL;
    }
  text = g_strndup ((const char *) r->p, len - 1);
  r->p += len - 1;
  return text;
}

/* A count that the remaining bytes can hold at @unit bytes each. */
static guint64
get_count (Reader *r,
           gsize   unit)
{
  guint64 n = get_u64 (r);

  if (n > (guint64) (r->end - r->p) / unit)
    r->bad = TRUE;
  return r->bad ? 0 : n;
}

QdSweepResult *
qd_sweep_result_deserialize (const guint8 *data,
                             gsize         size,
                             GError      **error)
{
  Reader r = { data, data + size, FALSE };
  QdSweepResult *result = g_new0 (QdSweepResult, 1);
  guint64 n, n_traces, n_grid;

  result->output_names = g_ptr_array_new_with_free_func (g_free);
  result->outputs = g_array_new (FALSE, FALSE, sizeof (double));
  result->trace_names = g_ptr_array_new_with_free_func (g_free);
  if (get_u64 (&r) != RESULT_MAGIC)
    r.bad = TRUE;
  result->run = get_u64 (&r);
  result->error = get_str (&r);
  n = get_count (&r, 8);
  result->n_values = (guint) n;
  result->values = g_new0 (double, MAX (n, 1));
  for (guint64 i = 0; i < n; i++)
    result->values[i] = get_f64 (&r);
  result->events = get_u64 (&r);
  result->transitions = get_u64 (&r);
  result->integrator_steps = get_u64 (&r);
  result->final_time = get_f64 (&r);
  result->cpu_s = get_f64 (&r);
  n = get_count (&r, 16);
  for (guint64 i = 0; i < n && !r.bad; i++)
    {
      char *name = get_str (&r);
      double value = get_f64 (&r);

      g_ptr_array_add (result->output_names, name != NULL ? name : g_strdup (""));
      g_array_append_val (result->outputs, value);
    }
  n_traces = get_count (&r, 8);
  n_grid = get_count (&r, 1);
  for (guint64 k = 0; k < n_traces && !r.bad; k++)
    {
      char *name = get_str (&r);

      g_ptr_array_add (result->trace_names, name != NULL ? name : g_strdup (""));
    }
  if (!r.bad && n_traces > 0 && n_grid > (guint64) (r.end - r.p) / 8 / n_traces)
    r.bad = TRUE;
  if (!r.bad && n_traces > 0)
    {
      result->n_grid = (guint) n_grid;
      result->traces = g_new (double, n_traces * n_grid);
      for (guint64 i = 0; i < n_traces * n_grid; i++)
        result->traces[i] = get_f64 (&r);
    }
  if (r.bad || r.p != r.end)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_FORMAT,
                   _("a sweep worker sent a damaged result (%zu bytes)"), size);
      qd_sweep_result_free (result);
      return NULL;
    }
  return result;
}

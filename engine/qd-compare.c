/* qd-compare.c: one diagram under several methods, side by side
 *
 * Each run works on its own copy of the document, loaded from the
 * canonical text of the one given, so the caller's document (an editor's,
 * with its undo history) is never touched. The error of a signal is
 * computed on the two piecewise polynomials exactly (qd-compare.h).
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "qd-compare.h"
#include "qd-classic.h"
#include "qd-error.h"
#include "qd-file.h"
#include "qd-registry.h"
#include "qd-simulation.h"

struct _QdComparison
{
  char          *data;         /* the document's canonical text */
  gsize          length;
  GStrv          overrides;
  QdCompareRun   reference;
  GPtrArray     *runs;         /* QdCompareRun* */
  GStrv          signals;
  gboolean       keep_traces;
  gboolean       started;

  GMutex         lock;         /* guards current and cancelled */
  QdSimulation  *current;
  gboolean       cancelled;
  guint          progress;     /* atomic */
};

/* ---- specifications ------------------------------------------------ */

/* The short names of the textbooks, lower case, and the solver each
 * stands for. */
static const struct
{
  const char *alias;
  const char *name;
} classic_aliases[] = {
  { "bdf", "cvode-bdf" },
  { "cvode", "cvode-bdf" },
  { "adams", "cvode-adams" },
  { "forward-euler", "euler" },
  { "rk2", "heun" },
  { "bs23", "bogacki-shampine" },
  { "rk23", "bogacki-shampine" },
  { "fehlberg", "rkf45" },
  { "ck45", "cash-karp" },
  { "dopri", "dormand-prince" },
  { "dopri5", "dormand-prince" },
  { "dp45", "dormand-prince" },
  { "rk45", "dormand-prince" },
  { "beuler", "backward-euler" },
  { "implicit-euler", "backward-euler" },
  { "trap", "trapezoidal" },
  { "midpoint", "implicit-midpoint" },
};

/* The Integrator's QSS method named @name in any case, as the block
 * spells it, or NULL. */
static const char *
find_qss_method (const char *name)
{
  const QdBlockType *integrator = qd_registry_lookup ("integrator");
  const QdParamSpec *spec;
  int index;

  if (integrator == NULL
      || (index = qd_block_type_find_param (integrator, "method")) < 0)
    return NULL;
  spec = &integrator->params[index];
  for (guint i = 0; spec->choices != NULL && spec->choices[i] != NULL; i++)
    if (g_ascii_strcasecmp (spec->choices[i], name) == 0)
      return spec->choices[i];
  return NULL;
}

static const char *
find_classic_method (const char *lower)
{
  for (guint i = 0; i < G_N_ELEMENTS (classic_aliases); i++)
    if (strcmp (classic_aliases[i].alias, lower) == 0)
      return classic_aliases[i].name;
  return qd_classic_find_method (lower) != NULL
           ? qd_classic_find_method (lower)->name : NULL;
}

/* The options of a QSS method: dqmin and dqrel. */
static gboolean
parse_qss_options (const char  *options,
                   QdSettings  *settings,
                   GError     **error)
{
  g_auto(GStrv) parts = g_strsplit (options, ",", -1);

  for (guint i = 0; parts[i] != NULL; i++)
    {
      char *eq = strchr (parts[i], '=');
      char *end = NULL;
      double value = 0.0;
      double *slot = NULL;

      if (eq != NULL)
        {
          *eq = '\0';
          value = g_ascii_strtod (eq + 1, &end);
        }
      if (strcmp (parts[i], "dqmin") == 0)
        slot = &settings->dqmin;
      else if (strcmp (parts[i], "dqrel") == 0)
        slot = &settings->dqrel;
      if (slot == NULL || eq == NULL || end == eq + 1 || *end != '\0'
          || !(value >= 0.0) || isinf (value))
        {
          g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                       _("QSS option '%s' is not NAME=NUMBER with NAME one "
                         "of dqmin, dqrel and a number >= 0"), parts[i]);
          return FALSE;
        }
      *slot = value;
    }
  return TRUE;
}

char *
qd_compare_parse_spec (const char  *spec,
                       QdSettings  *settings,
                       char       **qss_method,
                       GError     **error)
{
  const char *colon = strchr (spec, ':');
  g_autofree char *name = g_strstrip (colon != NULL ? g_strndup (spec, colon - spec)
                                                    : g_strdup (spec));
  g_autofree char *lower = g_ascii_strdown (name, -1);
  const char *options = colon != NULL ? colon + 1 : "";
  const char *qss = find_qss_method (name);
  const char *classic;
  g_autofree char *full = NULL;

  *qss_method = NULL;
  if (qss != NULL)
    {
      if (options[0] != '\0' && !parse_qss_options (options, settings, error))
        return NULL;
      g_free (settings->solver);
      settings->solver = g_strdup ("qss");
      g_free (settings->method);
      settings->method = g_strdup (qss);
      *qss_method = g_strdup (qss);
      return options[0] != '\0' ? g_strdup_printf ("%s:%s", qss, options)
                                : g_strdup (qss);
    }
  classic = find_classic_method (lower);
  if (classic == NULL)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("unknown method '%s': give a QSS method of the "
                     "Integrator (QSS1, QSS2, LIQSS2...) or a classic "
                     "solver (BDF, Adams, Euler, Heun, RK4, RKF45, DOPRI, "
                     "backward-euler...; 'qdevs-cli run --help' lists them)"),
                   name);
      return NULL;
    }
  full = options[0] != '\0' ? g_strdup_printf ("%s:%s", classic, options)
                            : g_strdup (classic);
  /* The model's fixed step is for methods that can take one: under a
   * model set to euler:h=0.21, "BDF" means BDF, not an error. */
  if (!qd_classic_find_method (classic)->fixed)
    settings->h = 0.0;
  if (!qd_classic_parse_spec (full, settings, error)
      || !qd_classic_check_settings (settings, error))
    return NULL;
  return g_steal_pointer (&full);
}

/* ---- the error of one signal --------------------------------------- */

/* @sig's coefficients about @t, for every order up to QD_MAX_ORDER. */
static void
shift_coefficients (const QdSignal *sig,
                    double          t,
                    double          out[QD_MAX_ORDER + 1])
{
  double d = t - sig->t;

  /* Repeated synthetic division by (s - d): a Taylor shift. */
  for (int k = 0; k <= QD_MAX_ORDER; k++)
    out[k] = sig->c[k];
  for (int k = 0; k < QD_MAX_ORDER; k++)
    for (int m = QD_MAX_ORDER - 1; m >= k; m--)
      out[m] += d * out[m + 1];
}

/* The largest |p| over [0, len] and ∫ p² over it, for the polynomial p
 * with coefficients @d about 0. */
static void
measure_piece (const double  d[QD_MAX_ORDER + 1],
               double        len,
               double       *max,
               double       *integral)
{
  QdSignal diff = { 0 };
  double lo, hi, sum = 0.0;

  diff.t = 0.0;
  diff.order = QD_MAX_ORDER;
  for (int k = 0; k <= QD_MAX_ORDER; k++)
    diff.c[k] = d[k];
  qd_signal_range (&diff, 0.0, len, &lo, &hi);
  *max = MAX (fabs (lo), fabs (hi));
  /* p² = Σ d_j d_k s^(j+k), integrated term by term. */
  for (int j = 0; j <= QD_MAX_ORDER; j++)
    for (int k = 0; k <= QD_MAX_ORDER; k++)
      sum += d[j] * d[k] * pow (len, j + k + 1) / (j + k + 1);
  *integral = sum;
}

static double
trace_end (QdTrace *trace,
           gsize    length)
{
  double end;

  if (qd_trace_is_closed (trace, &end))
    return end;
  return qd_trace_get (trace, length - 1)->t;
}

/* The index of the last segment starting at or before @t in [@i, @n). */
static gsize
skip_to (QdTrace *trace,
         gsize    i,
         gsize    n,
         double   t)
{
  while (i + 1 < n && qd_trace_get (trace, i + 1)->t <= t)
    i++;
  return i;
}

static QdCompareError
compare_held (QdTrace *a,
              gsize    first_a,
              gsize    n_a,
              QdTrace *r,
              gsize    first_r,
              gsize    n_r)
{
  QdCompareError e = { NAN, NAN };
  double t0, t1, t, sum = 0.0, max = 0.0;
  gsize i, j;

  if (n_a <= first_a || n_r <= first_r)
    return e;
  t0 = MAX (qd_trace_get (a, first_a)->t, qd_trace_get (r, first_r)->t);
  t1 = MIN (trace_end (a, n_a), trace_end (r, n_r));
  if (!(t1 > t0))
    return e;

  i = skip_to (a, first_a, n_a, t0);
  j = skip_to (r, first_r, n_r, t0);
  for (t = t0; t < t1;)
    {
      const QdSignal *sa = qd_trace_get (a, i), *sr = qd_trace_get (r, j);
      double next_a = i + 1 < n_a ? qd_trace_get (a, i + 1)->t : t1;
      double next_r = j + 1 < n_r ? qd_trace_get (r, j + 1)->t : t1;
      double b = MIN (MIN (next_a, next_r), t1);
      double ca[QD_MAX_ORDER + 1], cr[QD_MAX_ORDER + 1];
      double piece_max, piece_integral;

      shift_coefficients (sa, t, ca);
      shift_coefficients (sr, t, cr);
      for (int k = 0; k <= QD_MAX_ORDER; k++)
        ca[k] -= cr[k];
      measure_piece (ca, b - t, &piece_max, &piece_integral);
      /* A NaN in either signal makes the error NaN, not smaller. */
      max = isnan (piece_max) ? piece_max : MAX (max, piece_max);
      sum += piece_integral;
      i = skip_to (a, i, n_a, b);
      j = skip_to (r, j, n_r, b);
      t = b;
    }
  e.max = max;
  e.rms = sqrt (sum / (t1 - t0));
  return e;
}

QdCompareError
qd_compare_traces (QdTrace *trace,
                   QdTrace *reference)
{
  guint token_a = qd_trace_read_begin (trace);
  guint token_r = qd_trace_read_begin (reference);
  /* The held segments: the first, then the length (qd-trace.h). */
  gsize first_a = qd_trace_get_first (trace);
  gsize first_r = qd_trace_get_first (reference);
  gsize n_a = qd_trace_get_length (trace);
  gsize n_r = qd_trace_get_length (reference);
  QdCompareError e = compare_held (trace, first_a, n_a, reference, first_r, n_r);

  qd_trace_read_end (reference, token_r);
  qd_trace_read_end (trace, token_a);
  return e;
}

/* ---- runs ---------------------------------------------------------- */

static void
run_clear (QdCompareRun *run)
{
  g_free (run->spec);
  g_free (run->name);
  g_free (run->error);
  if (run->integrators != NULL)
    {
      for (guint i = 0; i < run->integrators->len; i++)
        g_free (g_array_index (run->integrators, QdCompareIntegrator, i).path);
      g_array_unref (run->integrators);
    }
  g_clear_pointer (&run->errors, g_array_unref);
  g_clear_pointer (&run->traces, g_ptr_array_unref);
}

static void
run_free (gpointer data)
{
  run_clear (data);
  g_free (data);
}

/* Checks @spec now, so that a typo fails before any run. */
static gboolean
run_init (QdCompareRun     *run,
          const char       *spec,
          const QdSettings *model,
          GError          **error)
{
  QdSettings settings = *model;
  g_autofree char *qss = NULL;
  g_autoptr(GError) local = NULL;

  settings.method = g_strdup (model->method);
  settings.solver = g_strdup (model->solver);
  run->spec = g_strdup (spec);
  run->name = qd_compare_parse_spec (spec, &settings, &qss, &local);
  run->qss = qss != NULL;
  qd_settings_clear (&settings);
  if (run->name == NULL)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID, "%s: %s", spec, local->message);
      return FALSE;
    }
  return TRUE;
}

QdComparison *
qd_comparison_new (QdDocument         *document,
                   const char *const  *methods,
                   const char         *reference,
                   const char *const  *overrides,
                   GError            **error)
{
  QdComparison *self = g_new0 (QdComparison, 1);
  const QdSettings *model = qd_document_get_settings (document);

  g_mutex_init (&self->lock);
  self->data = qd_document_to_data (document, &self->length);
  self->overrides = g_strdupv ((char **) overrides);
  self->runs = g_ptr_array_new_with_free_func (run_free);
  if (!run_init (&self->reference,
                 reference != NULL ? reference : QD_COMPARE_DEFAULT_REFERENCE,
                 model, error))
    {
      qd_comparison_free (self);
      return NULL;
    }
  for (guint i = 0; methods != NULL && methods[i] != NULL; i++)
    {
      QdCompareRun *run = g_new0 (QdCompareRun, 1);

      g_ptr_array_add (self->runs, run);
      if (!run_init (run, methods[i], model, error))
        {
          qd_comparison_free (self);
          return NULL;
        }
    }
  if (self->runs->len == 0)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("no method to compare: give at least one"));
      qd_comparison_free (self);
      return NULL;
    }
  return self;
}

void
qd_comparison_free (QdComparison *self)
{
  if (self == NULL)
    return;
  g_free (self->data);
  g_strfreev (self->overrides);
  run_clear (&self->reference);
  g_ptr_array_unref (self->runs);
  g_strfreev (self->signals);
  g_mutex_clear (&self->lock);
  g_free (self);
}

void
qd_comparison_set_keep_traces (QdComparison *self,
                               gboolean      keep)
{
  self->keep_traces = keep;
}

/* Sets @method on every block of @system (and its subsystems) that has
 * a QSS method of its own, so that none keeps another one. */
static gboolean
set_integrator_method (QdDocument  *document,
                       QdSystem    *system,
                       const char  *method,
                       GError     **error)
{
  for (guint i = 0; i < system->blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (system->blocks, i);
      const QdBlockType *type = qd_block_get_type_info (block);

      if (block->inner != NULL
          && !set_integrator_method (document, block->inner, method, error))
        return FALSE;
      if (type == NULL || (type->flags & QD_BLOCK_INTEGRATOR) == 0
          || qd_block_type_find_param (type, "method") < 0)
        continue;
      /* Empty inherits the model's method, which the run has set. */
      if (!qd_document_set_param (document, block, "method", "", error))
        return FALSE;
    }
  return TRUE;
}

/* The copy of the document that @run runs. */
static QdDocument *
prepare_document (QdComparison  *self,
                  QdCompareRun  *run,
                  GError       **error)
{
  g_autoptr(QdDocument) doc = NULL;
  QdSettings settings;
  g_autofree char *qss = NULL;
  g_autofree char *name = NULL;
  gboolean ok;

  doc = qd_document_load_data (self->data, self->length, "<compare>", error);
  if (doc == NULL)
    return NULL;
  settings = *qd_document_get_settings (doc);
  settings.method = g_strdup (settings.method);
  settings.solver = g_strdup (settings.solver);
  name = qd_compare_parse_spec (run->spec, &settings, &qss, error);
  ok = name != NULL && qd_document_set_settings (doc, &settings, error);
  qd_settings_clear (&settings);
  if (!ok)
    return NULL;
  if (qss != NULL
      && !set_integrator_method (doc, qd_document_get_root (doc), qss, error))
    return NULL;
  return g_steal_pointer (&doc);
}

static double
thread_cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + 1e-9 * (double) ts.tv_nsec;
}

static void
collect_counts (QdCompareRun *run,
                QdSimulation *sim)
{
  QdClassicStats st;
  guint n = qd_simulation_get_n_atomics (sim);

  if (qd_simulation_get_classic_stats (sim, &st))
    {
      run->steps = st.steps;
      run->failed_steps = st.failed_steps;
      run->rhs_evals = st.rhs_evals;
      return;
    }
  run->steps = qd_simulation_get_integrator_steps (sim);
  run->integrators = g_array_new (FALSE, FALSE, sizeof (QdCompareIntegrator));
  for (guint i = 0; i < n; i++)
    {
      const QdAtomic *atomic = qd_simulation_get_atomic (sim, i);
      QdCompareIntegrator integ;
      guint64 n_external = 0;

      if ((atomic->type->flags & QD_BLOCK_INTEGRATOR) == 0)
        continue;
      integ.path = g_strdup (atomic->path);
      qd_simulation_get_block_stats (sim, i, &integ.steps, &n_external);
      run->rhs_evals += n_external;
      g_array_append_val (run->integrators, integ);
    }
}

/* Runs @run; FALSE with @error only when it was cancelled. A failure of
 * the run itself goes into run->error. */
static gboolean
execute (QdComparison  *self,
         QdCompareRun  *run,
         GError       **error)
{
  g_autoptr(QdDocument) doc = NULL;
  g_autoptr(GError) local = NULL;
  QdSimulation *sim = NULL;
  GPtrArray *traces;
  double cpu0;
  QdRunStatus status;

  doc = prepare_document (self, run, &local);
  if (doc != NULL)
    sim = qd_simulation_new (doc, (const char *const *) self->overrides, NULL, &local);
  if (sim == NULL)
    {
      run->error = g_strdup (local->message);
      run->done = TRUE;
      return TRUE;
    }

  g_mutex_lock (&self->lock);
  self->current = sim;
  if (self->cancelled)
    qd_simulation_request_stop (sim);
  g_mutex_unlock (&self->lock);

  cpu0 = thread_cpu_seconds ();
  status = qd_simulation_run (sim, &local);
  run->cpu_seconds = thread_cpu_seconds () - cpu0;

  g_mutex_lock (&self->lock);
  self->current = NULL;
  g_mutex_unlock (&self->lock);

  collect_counts (run, sim);
  traces = qd_simulation_get_traces (sim);
  run->traces = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_trace_unref);
  for (guint i = 0; i < traces->len; i++)
    g_ptr_array_add (run->traces, qd_trace_ref (g_ptr_array_index (traces, i)));
  qd_simulation_free (sim);
  run->done = TRUE;

  if (status == QD_RUN_STOPPED)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_STOPPED,
                   _("the comparison was cancelled"));
      return FALSE;
    }
  if (status == QD_RUN_ERROR)
    run->error = g_strdup (local->message);
  return TRUE;
}

static QdTrace *
find_trace (const QdCompareRun *run,
            const char         *name)
{
  for (guint i = 0; run->traces != NULL && i < run->traces->len; i++)
    {
      QdTrace *trace = g_ptr_array_index (run->traces, i);

      if (strcmp (qd_trace_get_name (trace), name) == 0)
        return trace;
    }
  return NULL;
}

static void
measure (QdComparison *self,
         QdCompareRun *run)
{
  run->errors = g_array_new (FALSE, FALSE, sizeof (QdCompareError));
  for (guint s = 0; self->signals[s] != NULL; s++)
    {
      QdTrace *trace = run->error == NULL ? find_trace (run, self->signals[s]) : NULL;
      QdCompareError e = { NAN, NAN };

      if (trace != NULL)
        e = qd_compare_traces (trace, g_ptr_array_index (self->reference.traces, s));
      g_array_append_val (run->errors, e);
    }
}

gboolean
qd_comparison_run (QdComparison  *self,
                   GError       **error)
{
  GPtrArray *ref_traces;

  g_return_val_if_fail (!self->started, FALSE);
  self->started = TRUE;

  if (!execute (self, &self->reference, error))
    return FALSE;
  g_atomic_int_inc (&self->progress);
  if (self->reference.error != NULL)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("the reference run %s failed: %s"),
                   self->reference.name, self->reference.error);
      return FALSE;
    }
  ref_traces = self->reference.traces;
  self->signals = g_new0 (char *, ref_traces->len + 1);
  for (guint i = 0; i < ref_traces->len; i++)
    self->signals[i] = g_strdup (qd_trace_get_name (g_ptr_array_index (ref_traces, i)));

  for (guint i = 0; i < self->runs->len; i++)
    {
      QdCompareRun *run = g_ptr_array_index (self->runs, i);

      if (!execute (self, run, error))
        return FALSE;
      measure (self, run);
      if (!self->keep_traces)
        g_clear_pointer (&run->traces, g_ptr_array_unref);
      g_atomic_int_inc (&self->progress);
    }
  return TRUE;
}

void
qd_comparison_cancel (QdComparison *self)
{
  g_mutex_lock (&self->lock);
  self->cancelled = TRUE;
  if (self->current != NULL)
    qd_simulation_request_stop (self->current);
  g_mutex_unlock (&self->lock);
}

guint
qd_comparison_get_progress (QdComparison *self)
{
  return (guint) g_atomic_int_get (&self->progress);
}

guint
qd_comparison_get_n_runs (QdComparison *self)
{
  return self->runs->len;
}

const QdCompareRun *
qd_comparison_get_run (QdComparison *self,
                       guint         index)
{
  g_return_val_if_fail (index < self->runs->len, NULL);
  return g_ptr_array_index (self->runs, index);
}

const QdCompareRun *
qd_comparison_get_reference (QdComparison *self)
{
  return &self->reference;
}

const char *const *
qd_comparison_get_signals (QdComparison *self)
{
  return (const char *const *) self->signals;
}

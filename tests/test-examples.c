/* test-examples.c: the shipped example diagrams load, check clean, run, and
 * reproduce their analytic or published results.
 */
#include "qd-test-util.h"

#include <math.h>
#include <string.h>

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/* Every .qdevs file in data/examples, sorted. */
static GPtrArray *
list_examples (void)
{
  g_autofree char *dir_path = qd_test_source_path ("data", "examples", NULL);
  g_autoptr(GError) error = NULL;
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  GDir *dir = g_dir_open (dir_path, 0, &error);
  const char *name;

  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, QD_FILE_EXTENSION))
      g_ptr_array_add (paths, g_build_filename (dir_path, name, NULL));
  g_dir_close (dir);
  g_ptr_array_sort (paths, compare_paths);

  return paths;
}

static QdSimulation *
load_and_run (const char  *name,
              QdDocument **document_out)
{
  g_autofree char *path = qd_test_source_path ("data", "examples", name, NULL);
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  g_autoptr(GError) error = NULL;
  QdDocument *document;
  QdSimulation *sim;

  document = qd_document_load (path, &error);
  g_assert_no_error (error);
  sim = qd_simulation_new (document, NULL, problems, &error);
  g_assert_no_error (error);
  g_assert_nonnull (sim);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
  g_assert_no_error (error);
  qd_simulation_finish (sim);

  if (document_out != NULL)
    *document_out = document;
  else
    g_object_unref (document);
  return sim;
}

/* Every example is a complete, tidy model: a title and a description for
 * the editor's example browser, blocks on the 20-unit grid, no problem
 * found by the checker, and a run that reaches the final time. */
static void
test_examples_all (void)
{
  g_autoptr(GPtrArray) paths = list_examples ();

  g_assert_cmpuint (paths->len, >=, 3);
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
      g_autoptr(QdDocument) document = NULL;
      g_autoptr(GError) error = NULL;
      QdSystem *root;
      QdSimulation *sim;

      g_test_message ("%s", path);
      document = qd_document_load (path, &error);
      g_assert_no_error (error);

      g_assert_cmpuint (strlen (qd_document_get_title (document)), >, 0);
      g_assert_cmpuint (strlen (qd_document_get_description (document)), >, 40);

      root = qd_document_get_root (document);
      g_assert_cmpuint (root->blocks->len, >, 0);
      for (guint b = 0; b < root->blocks->len; b++)
        {
          QdBlock *block = g_ptr_array_index (root->blocks, b);

          g_assert_cmpfloat (fmod (block->x, 20.0), ==, 0.0);
          g_assert_cmpfloat (fmod (block->y, 20.0), ==, 0.0);
          /* No block lies on another. */
          for (guint c = 0; c < b; c++)
            {
              QdBlock *other = g_ptr_array_index (root->blocks, c);

              if (block->x < other->x + other->width && other->x < block->x + block->width
                  && block->y < other->y + other->height && other->y < block->y + block->height)
                g_error ("%s: %s lies on %s", path, block->name, other->name);
            }
        }

      if (!qd_document_check (document, NULL, problems))
        {
          for (guint p = 0; p < problems->len; p++)
            {
              g_autofree char *text = qd_problem_to_string (g_ptr_array_index (problems, p));
              g_test_message ("%s: %s", path, text);
            }
          g_error ("%s does not check clean", path);
        }
      g_assert_cmpuint (problems->len, ==, 0);

      sim = qd_simulation_new (document, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
      g_assert_no_error (error);
      qd_simulation_finish (sim);
      g_assert_cmpfloat (qd_simulation_get_time (sim), ==,
                         qd_document_get_settings (document)->final_time);
      /* Continuous examples step their integrators; discrete-event ones
       * have none, and every example has events. */
      {
        guint n_integrators = 0;

        for (guint a = 0; a < qd_simulation_get_n_atomics (sim); a++)
          if (qd_simulation_get_atomic (sim, a)->type->flags & QD_BLOCK_INTEGRATOR)
            n_integrators++;
        g_assert_cmpint (qd_simulation_get_integrator_steps (sim) > 0, ==, n_integrators > 0);
        g_assert_cmpuint (qd_simulation_get_events (sim), >, 0);
      }
      g_assert_cmpuint (qd_simulation_get_traces (sim)->len, >, 0);
      qd_simulation_free (sim);
    }
}

typedef struct
{
  double t;
  double q;
} QEvent;

/* The QSS1 trajectory of dx/dt = -q + u(t), u = 10·step(t - 1.76), in
 * closed form: between events the derivative is constant, so the state is
 * a straight line and the next requantization is where it reaches q ± dq
 * in the direction of its slope (Kofman's hysteretic quantizer: q := x
 * there). The input switching at 1.76 only changes the slope. */
static GArray *
cellier_expected (double x0,
                  double dq,
                  double t_step,
                  double final_time)
{
  GArray *events = g_array_new (FALSE, FALSE, sizeof (QEvent));
  double t = 0.0, x = x0, q = x0, u = 0.0;
  QEvent ev = { 0.0, x0 };

  g_array_append_val (events, ev);
  for (;;)
    {
      double slope = -q + u;
      double t_cross = QD_INF;
      double t_input = t < t_step ? t_step : QD_INF;

      if (slope > 0.0)
        t_cross = t + (q + dq - x) / slope;
      else if (slope < 0.0)
        t_cross = t + (q - dq - x) / slope;

      if (MIN (t_cross, t_input) >= final_time)
        break;
      if (t_input < t_cross)
        {
          x += slope * (t_input - t);
          t = t_input;
          u = 10.0;
        }
      else
        {
          x = slope > 0.0 ? q + dq : q - dq;
          t = t_cross;
          q = x;
          ev.t = t;
          ev.q = q;
          g_array_append_val (events, ev);
        }
    }
  return events;
}

/* The range a trace covers: its segments' values where they start and
 * where the run ended. */
static double
trace_range (QdTrace *trace,
             double   end)
{
  double lo = INFINITY, hi = -INFINITY, v;

  for (gsize i = 0; i < qd_trace_get_length (trace); i++)
    {
      v = qd_trace_get (trace, i)->c[0];
      lo = MIN (lo, v);
      hi = MAX (hi, v);
    }
  v = qd_trace_eval (trace, end);
  lo = MIN (lo, v);
  hi = MAX (hi, v);
  return hi - lo;
}

/* What a Scope shows is readable, as qdevs-cli --plot and the editor
 * draw it, each Scope scaled to its traces together: every trace moves
 * (a constant line at -65 tells nothing), and the traces sharing a
 * Scope span ranges within a factor of 20 of each other, so that none
 * is drawn flat under a larger one. */
static void
test_examples_scopes (void)
{
  g_autoptr(GPtrArray) paths = list_examples ();

  for (guint i = 0; i < paths->len; i++)
    {
      g_autofree char *name = g_path_get_basename (g_ptr_array_index (paths, i));
      g_autoptr(QdDocument) document = NULL;
      g_autoptr(GHashTable) smallest = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      g_autoptr(GHashTable) largest = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
      QdSimulation *sim = load_and_run (name, &document);
      GPtrArray *traces = qd_simulation_get_traces (sim);
      double end = qd_simulation_get_time (sim);
      GHashTableIter iter;
      gpointer key, value;

      for (guint k = 0; k < traces->len; k++)
        {
          QdTrace *trace = g_ptr_array_index (traces, k);
          const char *trace_name = qd_trace_get_name (trace);
          g_autofree char *scope = g_strndup (trace_name, strrchr (trace_name, '/') - trace_name);
          double range = trace_range (trace, end);
          double *lo = g_hash_table_lookup (smallest, scope);
          double *hi = g_hash_table_lookup (largest, scope);

          g_test_message ("%s: %s spans %g", name, trace_name, range);
          if (!(range > 0.0))
            g_error ("%s: the trace %s is constant", name, trace_name);
          if (lo == NULL)
            {
              lo = g_new (double, 1);
              hi = g_new (double, 1);
              *lo = *hi = range;
              g_hash_table_insert (smallest, g_strdup (scope), lo);
              g_hash_table_insert (largest, g_strdup (scope), hi);
            }
          *lo = MIN (*lo, range);
          *hi = MAX (*hi, range);
        }
      g_hash_table_iter_init (&iter, smallest);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          double lo = *(double *) value;
          double hi = *(double *) g_hash_table_lookup (largest, key);

          if (hi > 20.0 * lo)
            g_error ("%s: the Scope %s mixes traces spanning %g and %g: "
                     "the smaller one is drawn flat", name, (char *) key, lo, hi);
        }
      qd_simulation_free (sim);
    }
}

static void
test_examples_cellier (void)
{
  QdSimulation *sim = load_and_run ("cellier-first-order.qdevs", NULL);
  QdTrace *trace = qd_test_find_trace (sim, "/Scope/x");
  g_autoptr(GArray) expected = cellier_expected (10.0, 1.0, 1.76, 5.0);
  gsize n = qd_trace_get_length (trace);

  /* The published example: 17 steps (the initial value and 16 changes),
   * first down to 2, then back up to 10 at t = 4.56. */
  g_assert_cmpuint (expected->len, ==, 17);
  g_assert_cmpfloat (g_array_index (expected, QEvent, 1).t, ==, 0.1);
  g_assert_cmpfloat_with_epsilon (g_array_index (expected, QEvent, 2).t, 0.1 + 1.0 / 9.0, 1e-15);
  g_assert_cmpfloat (g_array_index (expected, QEvent, 8).q, ==, 2.0);
  g_assert_cmpfloat (g_array_index (expected, QEvent, 16).q, ==, 10.0);
  g_assert_cmpfloat_with_epsilon (g_array_index (expected, QEvent, 16).t, 4.5606150793650797, 1e-12);

  g_assert_cmpuint (n, ==, expected->len);
  for (gsize i = 0; i < n; i++)
    {
      const QdSignal *seg = qd_trace_get (trace, i);
      const QEvent *ev = &g_array_index (expected, QEvent, i);

      g_assert_cmpfloat_with_epsilon (seg->t, ev->t, 1e-12);
      g_assert_cmpfloat_with_epsilon (seg->c[0], ev->q, 1e-12);
      g_assert_cmpfloat (seg->c[1], ==, 0.0);
    }

  /* One integrator step per change of q, plus the initial output. */
  g_assert_cmpuint (qd_simulation_get_integrator_steps (sim), ==, expected->len);
  qd_simulation_free (sim);
}

static void
test_examples_second_order (void)
{
  QdSimulation *sim = load_and_run ("second-order.qdevs", NULL);
  QdTrace *x1 = qd_test_find_trace (sim, "/Scope/x1");
  QdTrace *x2 = qd_test_find_trace (sim, "/Scope/x2");
  const double w = sqrt (3.0) / 2.0;
  double max_err1 = 0.0, max_err2 = 0.0;

  for (int k = 0; k <= 20000; k++)
    {
      double t = k * 1e-3;
      double decay = exp (-t / 2.0);
      double exact1 = 1.0 - decay * (cos (w * t) + sin (w * t) / sqrt (3.0));
      double exact2 = decay * sin (w * t) / w;

      max_err1 = MAX (max_err1, fabs (qd_trace_eval (x1, t) - exact1));
      max_err2 = MAX (max_err2, fabs (qd_trace_eval (x2, t) - exact2));
    }
  g_test_message ("second order, QSS1, dQ = 0.05: max error x1 %g, x2 %g", max_err1, max_err2);
  g_assert_cmpfloat (max_err1, <=, 0.1);
  g_assert_cmpfloat (max_err2, <=, 0.1);
  qd_simulation_free (sim);
}

static void
test_examples_exp_decay (void)
{
  QdSimulation *sim = load_and_run ("exp-decay.qdevs", NULL);
  QdTrace *x = qd_test_find_trace (sim, "/Scope/x");
  const double dq = 1e-4;
  double max_err = 0.0;
  guint64 steps = qd_simulation_get_integrator_steps (sim);
  /* QSS2 steps ≈ ∫ sqrt(|x''|/2) dt / sqrt(dq) = sqrt(2)·(1 − e^(−2.5)) / sqrt(dq). */
  double predicted = sqrt (2.0) * (1.0 - exp (-2.5)) / sqrt (dq);

  for (int k = 0; k <= 5000; k++)
    {
      double t = k * 1e-3;

      max_err = MAX (max_err, fabs (qd_trace_eval (x, t) - exp (-t)));
    }
  g_test_message ("exp decay, QSS2, dQ = 1e-4: max error %g, %" G_GUINT64_FORMAT
                  " integrator steps (predicted %.0f)", max_err, steps, predicted);
  /* |q − x| ≤ dQ by quantization, and for this stable scalar system the
   * error of x against e^(−t) is at most dQ as well. */
  g_assert_cmpfloat (max_err, <=, 2.0 * dq * 1.01);
  /* The slope emitted by QSS2 segments is exact: not order 0. */
  g_assert_cmpint (qd_trace_get (x, 0)->order, ==, 1);
  g_assert_cmpfloat (steps, >=, 0.8 * predicted);
  g_assert_cmpfloat (steps, <=, 1.2 * predicted + 2);
  qd_simulation_free (sim);
}

/* The delayed logistic equation y' = (1.4 − y(t − 1)) y, y = 0.1 before
 * 0, against the method of steps: 0.1 e^{1.3 t} on [0, 1], then
 * y(1) exp(1.4 (t − 1) − (e^{1.3 (t − 1)} − 1)/13) on [1, 2]. */
static double
delay_logistic_exact (double t)
{
  double y1 = 0.1 * exp (1.3);

  if (t <= 1.0)
    return 0.1 * exp (1.3 * t);
  return y1 * exp (1.4 * (t - 1.0) - (exp (1.3 * (t - 1.0)) - 1.0) / 13.0);
}

static void
test_examples_delay_logistic (void)
{
  QdSimulation *sim = load_and_run ("delay-logistic.qdevs", NULL);
  QdTrace *y = qd_test_find_trace (sim, "/Scope/y");
  QdTrace *delayed = qd_test_find_trace (sim, "/Scope/y(t-1)");

  /* dqrel 1e-4 on values below 0.5: a relative error of a few 1e-4. */
  for (double t = 0.0; t <= 2.0; t += 0.01)
    g_assert_cmpfloat (fabs (qd_trace_eval (y, t) - delay_logistic_exact (t)),
                       <, 1e-3 * delay_logistic_exact (t));
  /* The history, then y one unit later, segment for segment. */
  g_assert_cmpfloat (qd_trace_eval (delayed, 0.5), ==, 0.1);
  for (double t = 1.05; t < 40.0; t += 0.37)
    g_assert_cmpfloat (fabs (qd_trace_eval (delayed, t)
                             - qd_trace_eval (y, t - 1.0)), <, 1e-9);
  qd_simulation_free (sim);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  g_test_add_func ("/examples/all", test_examples_all);
  g_test_add_func ("/examples/scopes", test_examples_scopes);
  g_test_add_func ("/examples/delay-logistic", test_examples_delay_logistic);
  g_test_add_func ("/examples/cellier-first-order", test_examples_cellier);
  g_test_add_func ("/examples/second-order", test_examples_second_order);
  g_test_add_func ("/examples/exp-decay", test_examples_exp_decay);

  return g_test_run ();
}

/* test-qss.c: the quantized-state integrators in whole simulations
 *
 * ẋ = −x, x(0) = 1 (Integrator, Gain −1, Scope) is run with QSS1, QSS2 and
 * QSS3 for quanta from 1e-2 to 1e-5 and checked against e^(−t): the error
 * of q stays within 2 dQ, and the number of integrator steps follows the
 * law k ≈ A(n) / dQ^(1/n) with A(n) = ∫₀⁵ |x⁽ⁿ⁾/n!|^(1/n) dt. Cellier's
 * first-order example (x0 = 10, dQ = 1, a step of 10 at t = 1.76) must
 * give exactly the quantized trajectory computed here in closed form. The
 * sinks (Scope names, To CSV rows and errors) are checked on the way.
 */
#include "qd-test-util.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#define FINAL_TIME 5.0

/* ẋ = −x, x(0) = 1, recorded by a Scope whose signal is named "x". */
static QdDocument *
decay_document (const char *method,
                const char *dq,
                QdBlock   **integrator)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *integ = qd_test_add_block (doc, "integrator", "Integrator");
  QdBlock *gain = qd_test_add_block (doc, "gain", "Gain");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");

  qd_test_set_param (doc, integ, "x0", "1");
  qd_test_set_param (doc, integ, "method", method);
  qd_test_set_param (doc, integ, "dqmin", dq);
  qd_test_set_param (doc, integ, "dqrel", "0");
  qd_test_set_param (doc, gain, "k", "-1");
  qd_test_set_param (doc, scope, "names", "x");
  qd_test_connect (doc, integ, 0, gain, 0);
  qd_test_connect (doc, gain, 0, integ, 0);
  qd_test_connect (doc, integ, 0, scope, 0);
  qd_test_set_final_time (doc, FINAL_TIME);
  if (integrator != NULL)
    *integrator = integ;
  return doc;
}

/* The largest |q(t) − e^(−t)| over [0, FINAL_TIME], sampling each segment
 * of the trace between its start and the next one's. */
static double
max_error (QdTrace *trace)
{
  gsize n = qd_trace_get_length (trace);
  double worst = 0.0;

  for (gsize i = 0; i < n; i++)
    {
      const QdSignal *seg = qd_trace_get (trace, i);
      double end = i + 1 < n ? qd_trace_get (trace, i + 1)->t : FINAL_TIME;

      for (int k = 0; k <= 16; k++)
        {
          double t = seg->t + (end - seg->t) * k / 16.0;

          worst = fmax (worst, fabs (qd_signal_eval (seg, t) - exp (-t)));
        }
    }
  return worst;
}

/* A(n) for e^(−t) over [0, T]: ∫ (e^(−t)/n!)^(1/n) dt
 * = (1/n!)^(1/n) · n · (1 − e^(−T/n)). */
static double
step_constant (int n)
{
  double factorial = 1.0;

  for (int k = 2; k <= n; k++)
    factorial *= k;
  return pow (1.0 / factorial, 1.0 / n) * n * (1.0 - exp (-FINAL_TIME / n));
}

static void
test_decay (gconstpointer data)
{
  int n = GPOINTER_TO_INT (data);
  const char *methods[] = { NULL, "QSS1", "QSS2", "QSS3" };
  /* QSS3 predicts over 100 steps only below 1e-5: two more there. */
  const char *quanta[] = { "1e-2", "1e-3", "1e-4", "1e-5", "1e-7", "1e-9" };
  guint n_quanta = n == 3 ? 6 : 4;

  for (guint i = 0; i < n_quanta; i++)
    {
      QdDocument *doc = decay_document (methods[n], quanta[i], NULL);
      QdSimulation *sim = qd_test_compile (doc);
      double dq = g_ascii_strtod (quanta[i], NULL);
      double predicted = step_constant (n) / pow (dq, 1.0 / n);
      guint64 steps;
      double err;

      qd_test_run (sim);
      steps = qd_simulation_get_integrator_steps (sim);
      err = max_error (qd_test_find_trace (sim, "/Scope/x"));
      g_test_message ("%s dQ=%s: max error %.3g = %.3f dQ; %" G_GUINT64_FORMAT
                      " steps, predicted %.1f (ratio %.3f)",
                      methods[n], quanta[i], err, err / dq, steps, predicted,
                      steps / predicted);

      g_assert_cmpfloat (err, <=, 2.0 * dq);
      /* The law is asymptotic: checked where it predicts over 100 steps. */
      if (predicted > 100.0)
        g_assert_cmpfloat (fabs (steps / predicted - 1.0), <=, 0.05);

      qd_simulation_free (sim);
      g_object_unref (doc);
    }
}

/* Cellier's example, closed form: ẋ = −q + 10·ε(t − 1.76), x(0) = 10,
 * QSS1 with dQ = 1. Between events x is a line; q jumps to x whenever x
 * reaches q ± 1. Fills @times and @values with q's events. */
static guint
cellier_trajectory (double *times,
                    double *values,
                    guint   max)
{
  double t = 0.0, x = 10.0, q = 10.0;
  guint n = 0;

  times[n] = 0.0;
  values[n++] = q;
  while (n < max)
    {
      double u = -q + (t >= 1.76 ? 10.0 : 0.0);
      double target, t_next;

      if (u == 0.0)
        {
          if (t < 1.76)
            {
              t = 1.76;
              continue;
            }
          break;
        }
      target = q + (u > 0 ? 1.0 : -1.0);
      t_next = t + (target - x) / u;
      if (t < 1.76 && t_next > 1.76)
        {
          /* The input steps first: x follows its line up to then. */
          x += u * (1.76 - t);
          t = 1.76;
          continue;
        }
      if (t_next >= FINAL_TIME)
        break;
      t = t_next;
      x = target;
      q = x;
      times[n] = t;
      values[n++] = q;
    }
  return n;
}

static void
test_cellier (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *step = qd_test_add_block (doc, "step", "Step");
  QdBlock *integ = qd_test_add_block (doc, "integrator", "Integrator");
  QdBlock *gain = qd_test_add_block (doc, "gain", "Gain");
  QdBlock *sum = qd_test_add_block (doc, "wsum", "WSum");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;
  QdTrace *trace;
  double times[64], values[64];
  guint n = cellier_trajectory (times, values, G_N_ELEMENTS (times));

  qd_test_set_param (doc, step, "time", "1.76");
  qd_test_set_param (doc, step, "initial", "0");
  qd_test_set_param (doc, step, "final", "10");
  qd_test_set_param (doc, integ, "x0", "10");
  qd_test_set_param (doc, integ, "method", "QSS1");
  qd_test_set_param (doc, integ, "dqmin", "1");
  qd_test_set_param (doc, integ, "dqrel", "0");
  qd_test_set_param (doc, gain, "k", "-1");
  qd_test_set_param (doc, sum, "n", "2");
  qd_test_set_param (doc, sum, "weights", "1, 1");
  qd_test_connect (doc, integ, 0, gain, 0);
  qd_test_connect (doc, gain, 0, sum, 0);
  qd_test_connect (doc, step, 0, sum, 1);
  qd_test_connect (doc, sum, 0, integ, 0);
  qd_test_connect (doc, integ, 0, scope, 0);
  qd_test_set_final_time (doc, FINAL_TIME);

  sim = qd_test_compile (doc);
  qd_test_run (sim);
  trace = qd_test_find_trace (sim, "/Scope/x1");

  /* 10 down to 2 before the step, then up to 10: 16 steps after the
   * initial value, as on Cellier's slides (17 with the start). */
  g_assert_cmpuint (n, ==, 17);
  g_assert_cmpuint (qd_trace_get_length (trace), ==, n);
  for (guint i = 0; i < n; i++)
    {
      const QdSignal *seg = qd_trace_get (trace, i);

      g_assert_cmpfloat_with_epsilon (seg->t, times[i], 1e-12);
      /* The levels are exact: 10, 9, ..., 2, 3, ..., 10. */
      g_assert_cmpfloat (seg->c[0], ==, values[i]);
      g_assert_cmpint (seg->order, ==, 0);
    }
  g_assert_cmpfloat_with_epsilon (times[1], 0.1, 1e-15);
  g_assert_cmpfloat_with_epsilon (times[2], 0.1 + 1.0 / 9.0, 1e-15);
  g_assert_cmpuint (qd_simulation_get_integrator_steps (sim), ==, n);

  qd_simulation_free (sim);
  g_object_unref (doc);
}

/* ẋ = −1000 (x − 1.0005), x(0) = 0 over [0, 10]: a stiff pole whose
 * equilibrium lies between two quantization levels. QSS1 ends up bouncing
 * q between those levels, an event every 2 ms; LIQSS1 puts q on the
 * equilibrium and stops. */
static void
run_stiff (const char *method,
           guint64    *steps,
           double     *err)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *c = qd_test_add_block (doc, "constant", "Constant");
  QdBlock *integ = qd_test_add_block (doc, "integrator", "Integrator");
  QdBlock *gain = qd_test_add_block (doc, "gain", "Gain");
  QdBlock *sum = qd_test_add_block (doc, "wsum", "WSum");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;
  QdTrace *trace;
  gsize n;

  qd_test_set_param (doc, c, "value", "1000.5");
  qd_test_set_param (doc, integ, "x0", "0");
  qd_test_set_param (doc, integ, "method", method);
  qd_test_set_param (doc, integ, "dqmin", "1e-3");
  qd_test_set_param (doc, integ, "dqrel", "0");
  qd_test_set_param (doc, gain, "k", "-1000");
  qd_test_set_param (doc, scope, "names", "x");
  qd_test_connect (doc, integ, 0, gain, 0);
  qd_test_connect (doc, gain, 0, sum, 0);
  qd_test_connect (doc, c, 0, sum, 1);
  qd_test_connect (doc, sum, 0, integ, 0);
  qd_test_connect (doc, integ, 0, scope, 0);
  qd_test_set_final_time (doc, 10.0);

  sim = qd_test_compile (doc);
  qd_test_run (sim);
  *steps = qd_simulation_get_integrator_steps (sim);
  trace = qd_test_find_trace (sim, "/Scope/x");
  n = qd_trace_get_length (trace);
  *err = 0.0;
  for (gsize i = 0; i < n; i++)
    {
      const QdSignal *seg = qd_trace_get (trace, i);
      double end = i + 1 < n ? qd_trace_get (trace, i + 1)->t : 10.0;

      for (int k = 0; k <= 16; k++)
        {
          double t = seg->t + (end - seg->t) * k / 16.0;
          double exact = 1.0005 * (1.0 - exp (-1000.0 * t));

          *err = fmax (*err, fabs (qd_signal_eval (seg, t) - exact));
        }
    }
  qd_simulation_free (sim);
  g_object_unref (doc);
}

static void
test_liqss1_stiff (void)
{
  guint64 qss_steps, liqss_steps;
  double qss_err, liqss_err;

  run_stiff ("QSS1", &qss_steps, &qss_err);
  run_stiff ("LIQSS1", &liqss_steps, &liqss_err);
  g_test_message ("stiff pole, dQ = 1e-3 over [0, 10]: QSS1 %" G_GUINT64_FORMAT
                  " steps, error %.3g; LIQSS1 %" G_GUINT64_FORMAT
                  " steps, error %.3g", qss_steps, qss_err, liqss_steps,
                  liqss_err);
  /* LIQSS1's q runs up to a quantum ahead of x (and 2 dQ after the
   * derivative turns), hence a looser bound than QSS1's 2 dQ. */
  g_assert_cmpfloat (qss_err, <=, 2e-3);
  g_assert_cmpfloat (liqss_err, <=, 3e-3);
  /* Both need about 1000 steps to climb to 1; then QSS1 keeps
   * oscillating (about 5000 more) while LIQSS1 stays put. */
  g_assert_cmpuint (qss_steps, >, 5000);
  g_assert_cmpuint (liqss_steps, <, 1100);
}

static void
test_liqss1_decay (void)
{
  const char *quanta[] = { "1e-2", "1e-3", "1e-4" };

  for (guint i = 0; i < G_N_ELEMENTS (quanta); i++)
    {
      QdDocument *doc = decay_document ("LIQSS1", quanta[i], NULL);
      QdSimulation *sim = qd_test_compile (doc);
      double dq = g_ascii_strtod (quanta[i], NULL);
      double predicted = step_constant (1) / dq;
      guint64 steps;
      double err;

      qd_test_run (sim);
      steps = qd_simulation_get_integrator_steps (sim);
      err = max_error (qd_test_find_trace (sim, "/Scope/x"));
      g_test_message ("LIQSS1 dQ=%s: max error %.3g = %.3f dQ; %"
                      G_GUINT64_FORMAT " steps, QSS1 law %.1f (ratio %.3f)",
                      quanta[i], err, err / dq, steps, predicted,
                      steps / predicted);
      g_assert_cmpfloat (err, <=, 3.0 * dq);
      g_assert_cmpfloat (fabs (steps / predicted - 1.0), <=, 0.05);
      qd_simulation_free (sim);
      g_object_unref (doc);
    }
}

static char *
read_file (const char *path)
{
  char *contents = NULL;
  GError *error = NULL;

  g_assert_true (g_file_get_contents (path, &contents, NULL, &error));
  g_assert_no_error (error);
  return contents;
}

static void
test_to_csv_period (void)
{
  QdDocument *doc = decay_document ("QSS2", "1e-4", NULL);
  QdBlock *integ = qd_system_find_block_by_name (qd_document_get_root (doc),
                                                 "Integrator");
  QdBlock *csv = qd_test_add_block (doc, "to_csv", "Writer");
  char *dir = g_dir_make_tmp ("qd-test-qss-XXXXXX", NULL);
  char *path = g_build_filename (dir, "decay.csv", NULL);
  QdSimulation *sim;
  char *contents;
  char **lines;

  qd_test_set_param (doc, csv, "file", path);
  qd_test_set_param (doc, csv, "names", "x");
  qd_test_set_param (doc, csv, "period", "0.5");
  qd_test_connect (doc, integ, 0, csv, 0);
  sim = qd_test_compile (doc);
  qd_test_run (sim);
  qd_simulation_free (sim);

  contents = read_file (path);
  lines = g_strsplit (contents, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "time,x");
  /* Rows at 0, 0.5, ..., 5 (the last one written when the run ends),
   * then the empty string after the final newline. */
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 11 + 1);
  for (int k = 0; k <= 10; k++)
    {
      char **fields = g_strsplit (lines[1 + k], ",", -1);
      double t = g_ascii_strtod (fields[0], NULL);
      double x = g_ascii_strtod (fields[1], NULL);

      g_assert_cmpuint (g_strv_length (fields), ==, 2);
      g_assert_cmpfloat (t, ==, 0.5 * k);
      g_assert_cmpfloat (fabs (x - exp (-t)), <=, 2e-4);
      g_strfreev (fields);
    }
  g_assert_cmpstr (lines[12], ==, "");

  g_strfreev (lines);
  g_free (contents);
  g_unlink (path);
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
  g_object_unref (doc);
}

static void
test_to_csv_events (void)
{
  QdDocument *doc = decay_document ("QSS1", "0.1", NULL);
  QdBlock *integ = qd_system_find_block_by_name (qd_document_get_root (doc),
                                                 "Integrator");
  QdBlock *csv = qd_test_add_block (doc, "to_csv", "Writer");
  char *dir = g_dir_make_tmp ("qd-test-qss-XXXXXX", NULL);
  char *path = g_build_filename (dir, "events.csv", NULL);
  QdSimulation *sim;
  QdTrace *trace;
  char *contents;
  char **lines;
  gsize n;

  qd_test_set_param (doc, csv, "file", path);
  qd_test_set_param (doc, csv, "n", "2");
  qd_test_set_param (doc, csv, "names", ", dx");
  qd_test_connect (doc, integ, 0, csv, 0);
  qd_test_connect (doc,
                   qd_system_find_block_by_name (qd_document_get_root (doc),
                                                 "Gain"),
                   0, csv, 1);
  sim = qd_test_compile (doc);
  qd_test_run (sim);
  trace = qd_test_find_trace (sim, "/Scope/x");
  n = qd_trace_get_length (trace);

  contents = read_file (path);
  lines = g_strsplit (contents, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "time,x1,dx");
  /* One row per event time: each requantization of x (and the Gain's
   * answer at the same time) makes one row, x = −dx on every row. */
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + n + 1);
  for (gsize k = 0; k < n; k++)
    {
      char **fields = g_strsplit (lines[1 + k], ",", -1);
      const QdSignal *seg = qd_trace_get (trace, k);

      g_assert_cmpfloat (g_ascii_strtod (fields[0], NULL), ==, seg->t);
      g_assert_cmpfloat (g_ascii_strtod (fields[1], NULL), ==, seg->c[0]);
      g_assert_cmpfloat (g_ascii_strtod (fields[2], NULL), ==, -seg->c[0]);
      g_strfreev (fields);
    }

  qd_simulation_free (sim);
  g_strfreev (lines);
  g_free (contents);
  g_unlink (path);
  g_rmdir (dir);
  g_free (path);
  g_free (dir);
  g_object_unref (doc);
}

static void
test_to_csv_error (void)
{
  QdDocument *doc = decay_document ("QSS1", "0.1", NULL);
  QdBlock *integ = qd_system_find_block_by_name (qd_document_get_root (doc),
                                                 "Integrator");
  QdBlock *csv = qd_test_add_block (doc, "to_csv", "Writer");
  const char *path = "/nonexistent-qd-folder/out.csv";
  GError *error = NULL;
  QdSimulation *sim;

  qd_test_set_param (doc, csv, "file", path);
  qd_test_connect (doc, integ, 0, csv, 0);
  /* The file is opened at init: the error comes from compiling or from
   * the first run, and names the block and the file. */
  sim = qd_simulation_new (doc, NULL, NULL, &error);
  if (sim != NULL)
    {
      g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_ERROR);
      qd_simulation_free (sim);
    }
  g_assert_error (error, QD_ERROR, QD_ERROR_IO);
  g_assert_nonnull (strstr (error->message, "/Writer"));
  g_assert_nonnull (strstr (error->message, path));
  g_clear_error (&error);
  g_object_unref (doc);
}

static void
test_registry (void)
{
  const char *ids[] = {
    "integrator", "gain", "wsum", "constant", "step", "scope", "to_csv",
  };

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      const QdBlockType *type = qd_registry_lookup (ids[i]);

      g_assert_nonnull (type);
      g_assert_cmpstr (type->id, ==, ids[i]);
      g_assert_nonnull (type->doc);
      for (guint k = 0; k < type->n_params; k++)
        g_assert_nonnull (type->params[k].doc);
    }
  g_assert_cmpint (qd_block_type_find_param (qd_registry_lookup ("to_csv"),
                                             "period"), ==, 3);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  g_test_add_func ("/qss/registry", test_registry);
  g_test_add_data_func ("/qss/decay/qss1", GINT_TO_POINTER (1), test_decay);
  g_test_add_data_func ("/qss/decay/qss2", GINT_TO_POINTER (2), test_decay);
  g_test_add_data_func ("/qss/decay/qss3", GINT_TO_POINTER (3), test_decay);
  g_test_add_func ("/qss/cellier", test_cellier);
  g_test_add_func ("/qss/liqss1/decay", test_liqss1_decay);
  g_test_add_func ("/qss/liqss1/stiff", test_liqss1_stiff);
  g_test_add_func ("/qss/to-csv/period", test_to_csv_period);
  g_test_add_func ("/qss/to-csv/events", test_to_csv_events);
  g_test_add_func ("/qss/to-csv/error", test_to_csv_error);

  return g_test_run ();
}

/* qd-test-lines.c: the LC line drawn section by section and as vector
 * blocks, and what the vector tests compare them with (qd-test-lines.h)
 */
#include <math.h>
#include <string.h>

#include "qd-test-lines.h"

static void
log_entry (const QdLogEntry *entry,
           gpointer          user_data)
{
  GArray *log = user_data;
  QdTestLogEntry e;

  memset (&e, 0, sizeof e);
  e.kind = entry->kind;
  e.event = entry->event;
  e.t = entry->t;
  e.block = entry->block;
  e.port = entry->port;
  e.elapsed = entry->elapsed;
  e.ta = entry->ta;
  if (entry->segment != NULL)
    e.segment = *entry->segment;
  g_array_append_val (log, e);
}

void
qd_test_line_settings (QdDocument *doc,
              guint       n)
{
  QdSettings settings;
  GError *error = NULL;

  qd_document_init_settings (&settings);
  settings.final_time = 3.0;
  g_free (settings.method);
  settings.method = g_strdup ("QSS2");
  settings.dqmin = 1e-6;
  settings.dqrel = 1e-3;
  settings.illegitimacy_limit = MAX (settings.illegitimacy_limit, 20 * (guint64) n);
  g_assert_true (qd_document_set_settings (doc, &settings, &error));
  g_assert_no_error (error);
  qd_settings_clear (&settings);
}

QdBlock *
qd_test_line_pulse (QdDocument *doc)
{
  QdBlock *pulse = qd_test_add_block (doc, "pulse", "Pulse");

  qd_test_set_param (doc, pulse, "amplitude", "1");
  qd_test_set_param (doc, pulse, "start", "0");
  qd_test_set_param (doc, pulse, "width", "1");
  return pulse;
}

/* The x0 of state i: 0, or a spread of values when @spread. */
char *
qd_test_line_x0 (guint    i,
         gboolean spread)
{
  return g_strdup_printf ("%.17g", spread ? sin (0.7 * i + 0.3) : 0.0);
}

void
qd_test_line_method (QdDocument *doc,
                     const char *method)
{
  QdSettings settings = *qd_document_get_settings (doc);

  settings.method = (char *) method;
  g_assert_true (qd_document_set_settings (doc, &settings, NULL));
}

/* ẋ1 = d − x2, ẋi = x(i−1) − x(i+1), ẋN = x(N−1), section by section
 * (as `qdevs-cli bench --model lcline` builds it). */
QdDocument *
qd_test_line_scalar (guint    n,
             gboolean spread)
{
  QdDocument *doc = qd_document_new ();
  g_autofree QdBlock **x = g_new0 (QdBlock *, n);
  g_autofree QdBlock **dx = g_new0 (QdBlock *, n);
  QdBlock *pulse = qd_test_line_pulse (doc);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *x_name = g_strdup_printf ("x%u", i + 1);
      g_autofree char *dx_name = g_strdup_printf ("dx%u", i + 1);
      g_autofree char *x0 = qd_test_line_x0 (i, spread);

      dx[i] = qd_test_add_block (doc, "wsum", dx_name);
      if (i + 1 < n)
        qd_test_set_param (doc, dx[i], "weights", "1, -1");
      else
        {
          qd_test_set_param (doc, dx[i], "n", "1");
          qd_test_set_param (doc, dx[i], "weights", "1");
        }
      x[i] = qd_test_add_block (doc, "integrator", x_name);
      qd_test_set_param (doc, x[i], "x0", x0);
      qd_test_connect (doc, dx[i], 0, x[i], 0);
    }
  for (guint i = 0; i < n; i++)
    {
      qd_test_connect (doc, i == 0 ? pulse : x[i - 1], 0, dx[i], 0);
      if (i + 1 < n)
        qd_test_connect (doc, x[i + 1], 0, dx[i], 1);
    }
  qd_test_line_settings (doc, n);
  return doc;
}

/* The same line as four vector blocks: x = ∫ dx, dx = [d, x1..x(N−1)]
 * − [x2..xN, 0]. */
QdDocument *
qd_test_line_vector (guint    n,
             gboolean spread)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *pulse = qd_test_line_pulse (doc);
  QdBlock *dx = qd_test_add_block (doc, "wsum", "dx");
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *left = qd_test_add_block (doc, "index_shift", "Left");
  QdBlock *right = qd_test_add_block (doc, "index_shift", "Right");
  g_autofree char *size = g_strdup_printf ("%u", n);

  qd_test_set_param (doc, dx, "weights", "1, -1");
  qd_test_set_param (doc, x, "size", size);
  if (spread)
    {
      GString *x0 = g_string_new (NULL);

      for (guint i = 0; i < n; i++)
        {
          g_autofree char *value = qd_test_line_x0 (i, TRUE);

          g_string_append_printf (x0, "%s%s", i > 0 ? ", " : "", value);
        }
      qd_test_set_param (doc, x, "x0", x0->str);
      g_string_free (x0, TRUE);
    }
  qd_test_set_param (doc, left, "shift", "1");
  qd_test_set_param (doc, right, "shift", "-1");
  qd_test_connect (doc, x, 0, left, 0);
  qd_test_connect (doc, pulse, 0, left, 1);
  qd_test_connect (doc, x, 0, right, 0);
  qd_test_connect (doc, left, 0, dx, 0);
  qd_test_connect (doc, right, 0, dx, 1);
  qd_test_connect (doc, dx, 0, x, 0);
  qd_test_line_settings (doc, n);
  return doc;
}

GArray *
qd_test_run_logged (QdDocument *doc)
{
  QdSimulation *sim = qd_test_compile (doc);
  GArray *log = g_array_new (FALSE, FALSE, sizeof (QdTestLogEntry));

  qd_simulation_set_event_log (sim, log_entry, log);
  qd_test_run (sim);
  qd_simulation_free (sim);
  return log;
}

/* Sets QDEVS_VECTORS to @mode and returns its value before, to give to
 * restore_mode(). */
static char *
set_mode (const char *mode)
{
  char *before = g_strdup (g_getenv ("QDEVS_VECTORS"));

  g_setenv ("QDEVS_VECTORS", mode, TRUE);
  return before;
}

static void
restore_mode (char *before)
{
  if (before != NULL)
    g_setenv ("QDEVS_VECTORS", before, TRUE);
  else
    g_unsetenv ("QDEVS_VECTORS");
  g_free (before);
}

QdSimulation *
qd_test_compile_mode (QdDocument *doc,
                      const char *mode)
{
  char *before = set_mode (mode);
  QdSimulation *sim = qd_test_compile (doc);

  restore_mode (before);
  return sim;
}

QdSimulation *
qd_test_compile_expanded (QdDocument *doc)
{
  return qd_test_compile_mode (doc, "expand");
}

GArray *
qd_test_run_logged_mode (QdDocument *doc,
                         const char *mode)
{
  char *before = set_mode (mode);
  GArray *log = qd_test_run_logged (doc);

  restore_mode (before);
  return log;
}

char *
qd_test_compile_error (QdDocument *doc)
{
  GError *error = NULL;
  QdSimulation *sim = qd_simulation_new (doc, NULL, NULL, &error);
  char *message;

  g_assert_null (sim);
  g_assert_nonnull (error);
  message = g_strdup (error->message);
  g_error_free (error);
  return message;
}


GArray *
qd_test_trace_segments (QdSimulation *sim,
                        const char   *name)
{
  QdTrace *trace = qd_test_find_trace (sim, name);
  GArray *out = g_array_new (FALSE, TRUE, sizeof (QdSignal));

  g_assert_nonnull (trace);
  for (gsize k = qd_trace_get_first (trace); k < qd_trace_get_length (trace); k++)
    g_array_append_vals (out, qd_trace_get (trace, k), 1);
  return out;
}

/* test-vector-native.c: native vector blocks
 *
 * A model whose vector blocks can run natively (docs/vectors.md) runs
 * one block per vector, its element events carrying the element's index.
 * The LC line so (QSS1 to QSS3, N = 10 and 1000, x0 one value or a
 * list) against the same line drawn section by section: every output
 * of every element in the same order, bit for bit, the same integrator
 * steps in total and element by element, the same events and last
 * segments. A Scope showing elements of a native vector and a vector
 * Gain against the expansion, trace for trace. The fall-backs to the
 * expansion (a block with no native form reading a vector, a method
 * with none, a classic solver, a running sum), and errors that name
 * the block and the element.
 */
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "qd-test-lines.h"
#include "qd-block-fast-private.h"

/* What a native block's element emitted: the kind of block (0 for the
 * Weighted Sum, 1 for the Integrator), the element and the segment (its
 * tag, the element's index there, cleared). */
typedef struct
{
  guint    kind;
  guint    element;
  QdSignal segment;
} Emitted;

/* The outputs of @log in order, as (kind, element, segment): @native
 * tells how to read the blocks (native: 1 is dx, 2 is x, the element in
 * the tag; scalar: dx_i is 2i + 1, x_i is 2i + 2). The Pulse (block 0)
 * is left out. */
static GArray *
emitted (GArray   *log,
         gboolean  native)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (Emitted));

  for (guint k = 0; k < log->len; k++)
    {
      const QdTestLogEntry *e = &g_array_index (log, QdTestLogEntry, k);
      Emitted em;

      if (e->kind != QD_LOG_OUTPUT || e->block == 0)
        continue;
      memset (&em, 0, sizeof em);
      em.kind = native ? e->block - 1 : (e->block - 1) % 2;
      em.element = native ? e->segment.tag : (e->block - 1) / 2;
      em.segment = e->segment;
      em.segment.tag = 0;
      g_array_append_val (out, em);
    }
  return out;
}

/* The vector line run natively (three blocks: the Pulse, dx and x)
 * against the same line drawn section by section: every output of every
 * element, in the same order, the same segments to the last bit; the
 * same integrator steps, in total and element by element, and the same
 * events. */
static void
compare_native (guint       n,
                const char *method,
                gboolean    spread)
{
  g_autoptr(QdDocument) scalar = qd_test_line_scalar (n, spread);
  g_autoptr(QdDocument) vector = qd_test_line_vector (n, spread);
  QdSimulation *a, *b;
  GArray *log_a, *log_b, *out_a, *out_b;
  g_autofree guint64 *steps = g_new0 (guint64, n);
  guint64 total = 0;

  qd_test_line_method (scalar, method);
  qd_test_line_method (vector, method);
  /* The line drawn section by section would run natively too
   * (qd-compile-scalar-runs.c): compiled as drawn. */
  a = qd_test_compile_expanded (scalar);
  b = qd_test_compile (vector);
  g_assert_cmpuint (qd_simulation_get_n_atomics (b), ==, 3);
  g_assert_cmpstr (qd_simulation_get_atomic (b, 2)->path, ==, "/x");
  g_assert_cmpuint (qd_atomic_vector_width (qd_simulation_get_atomic (b, 2)), ==, n);

  /* Without a log: the counts and the last segment of every element. */
  qd_test_run (a);
  qd_test_run (b);
  g_assert_cmpuint (qd_simulation_get_integrator_steps (a), >, n);
  g_assert_cmpuint (qd_simulation_get_integrator_steps (a), ==,
                    qd_simulation_get_integrator_steps (b));
  g_assert_cmpuint (qd_simulation_get_events (a), ==, qd_simulation_get_events (b));
  for (guint i = 0; i < n; i++)
    for (guint kind = 0; kind < 2; kind++)
      {
        QdSignal last_a = *qd_simulation_get_atomic (a, 2 * i + 1 + kind)->out;
        QdSignal last_b = qd_atomic_vector_output ((QdAtomic *) qd_simulation_get_atomic (b, 1 + kind), 0)[i];

        g_assert_cmpuint (last_b.tag, ==, i);
        last_b.tag = 0;
        g_assert_cmpmem (&last_a, sizeof last_a, &last_b, sizeof last_b);
      }
  qd_simulation_free (a);
  qd_simulation_free (b);

  /* With the log: every output, in order. */
  log_a = qd_test_run_logged_mode (scalar, "expand");
  log_b = qd_test_run_logged (vector);
  out_a = emitted (log_a, FALSE);
  out_b = emitted (log_b, TRUE);
  g_assert_cmpuint (out_a->len, >, 2 * n);
  g_assert_cmpuint (out_a->len, ==, out_b->len);
  g_assert_cmpmem (out_a->data, out_a->len * sizeof (Emitted),
                   out_b->data, out_b->len * sizeof (Emitted));
  for (guint k = 0; k < out_b->len; k++)
    {
      const Emitted *em = &g_array_index (out_b, Emitted, k);

      if (em->kind == 1)
        {
          steps[em->element]++;
          total++;
        }
    }
  /* Each element stepped; the steps add up to the run's. */
  for (guint i = 0; i < n; i++)
    g_assert_cmpuint (steps[i], >, 0);
  {
    QdSimulation *sim = qd_test_compile (vector);

    qd_test_run (sim);
    g_assert_cmpuint (total, ==, qd_simulation_get_integrator_steps (sim));
    qd_simulation_free (sim);
  }
  g_array_unref (out_a);
  g_array_unref (out_b);
  g_array_unref (log_a);
  g_array_unref (log_b);
}

static void
test_native_line (void)
{
  const char *methods[] = { "QSS1", "QSS2", "QSS3" };

  for (guint m = 0; m < G_N_ELEMENTS (methods); m++)
    {
      compare_native (10, methods[m], FALSE);
      compare_native (1000, methods[m], FALSE);
    }
  /* A list for x0: one initial state per element. */
  compare_native (10, "QSS2", TRUE);
  compare_native (1000, "QSS3", TRUE);
}

/* A Scope showing elements of a native vector gets their events: the
 * same traces, segment for segment, as the expanded model's. */
static void
test_native_scope (void)
{
  g_autoptr(QdDocument) doc = qd_test_line_vector (10, FALSE);
  QdBlock *x = qd_document_find_block_by_path (doc, "/x");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *a, *b;
  const char *names[] = { "/Scope/q[1]", "/Scope/q[5]", "/Scope/d" };

  qd_test_set_param (doc, scope, "n", "2");
  qd_test_set_param (doc, scope, "elements", "1, 5");
  qd_test_set_param (doc, scope, "names", "q, d");
  qd_test_connect (doc, x, 0, scope, 0);
  qd_test_connect (doc, qd_document_find_block_by_path (doc, "/Pulse"), 0, scope, 1);
  a = qd_test_compile_expanded (doc);
  b = qd_test_compile (doc);
  g_assert_cmpuint (qd_simulation_get_n_atomics (a), ==, 2 * 10 + 2);
  g_assert_cmpuint (qd_simulation_get_n_atomics (b), ==, 4);
  qd_test_run (a);
  qd_test_run (b);
  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      g_autoptr(GArray) ta = qd_test_trace_segments (a, names[k]);
      g_autoptr(GArray) tb = qd_test_trace_segments (b, names[k]);

      g_assert_cmpuint (ta->len, >, 1);
      g_assert_cmpuint (ta->len, ==, tb->len);
      g_assert_cmpmem (ta->data, ta->len * sizeof (QdSignal),
                       tb->data, tb->len * sizeof (QdSignal));
    }
  qd_simulation_free (a);
  qd_simulation_free (b);
}

/* A To CSV showing elements 2 and 7, sampled every 0.25 s (its
 * sampling reads the elements where the vector keeps them), and one
 * writing every event: the same files as the expansion's. */
static void
test_native_csv (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("qdevs-native-XXXXXX", &error);
  const char *periods[] = { "0.25", "0" };

  g_assert_no_error (error);
  for (guint k = 0; k < G_N_ELEMENTS (periods); k++)
    {
      g_autoptr(QdDocument) doc = qd_test_line_vector (10, FALSE);
      QdBlock *csv = qd_test_add_block (doc, "to_csv", "CSV");
      g_autofree char *path_a = g_build_filename (dir, "expanded.csv", NULL);
      g_autofree char *path_b = g_build_filename (dir, "native.csv", NULL);
      g_autofree char *text_a = NULL, *text_b = NULL;
      QdSimulation *a, *b;

      qd_test_set_param (doc, csv, "elements", "2, 7");
      qd_test_set_param (doc, csv, "period", periods[k]);
      qd_test_connect (doc, qd_document_find_block_by_path (doc, "/x"), 0, csv, 0);
      qd_test_set_param (doc, csv, "file", path_a);
      a = qd_test_compile_expanded (doc);
      qd_test_run (a);
      qd_simulation_free (a);
      qd_test_set_param (doc, csv, "file", path_b);
      b = qd_test_compile (doc);
      g_assert_cmpuint (qd_simulation_get_n_atomics (b), ==, 4);
      qd_test_run (b);
      qd_simulation_free (b);
      g_assert_true (g_file_get_contents (path_a, &text_a, NULL, NULL));
      g_assert_true (g_file_get_contents (path_b, &text_b, NULL, NULL));
      g_assert_cmpuint (strlen (text_a), >, 100);
      g_assert_cmpstr (text_a, ==, text_b);
      g_remove (path_a);
      g_remove (path_b);
    }
  g_rmdir (dir);
}

/* A vector Gain with an x0 list, ẋ = −x/2 element by element: native,
 * the same traces as expanded, segment for segment. */
static void
test_native_gain (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *gain = qd_test_add_block (doc, "gain", "Gain");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *a, *b;

  qd_test_set_param (doc, x, "x0", "1, -2, 3, 0, 5");
  qd_test_set_param (doc, x, "method", "QSS3");
  qd_test_set_param (doc, gain, "k", "-0.5");
  qd_test_set_param (doc, scope, "names", "q");
  qd_test_connect (doc, x, 0, gain, 0);
  qd_test_connect (doc, gain, 0, x, 0);
  qd_test_connect (doc, x, 0, scope, 0);
  qd_test_set_final_time (doc, 4.0);
  a = qd_test_compile_expanded (doc);
  b = qd_test_compile (doc);
  g_assert_cmpuint (qd_simulation_get_n_atomics (b), ==, 3);
  qd_test_run (a);
  qd_test_run (b);
  g_assert_cmpuint (qd_simulation_get_integrator_steps (a), ==,
                    qd_simulation_get_integrator_steps (b));
  for (guint i = 1; i <= 5; i++)
    {
      g_autofree char *name = g_strdup_printf ("/Scope/q[%u]", i);
      g_autoptr(GArray) ta = qd_test_trace_segments (a, name);
      g_autoptr(GArray) tb = qd_test_trace_segments (b, name);

      g_assert_cmpuint (ta->len, ==, tb->len);
      g_assert_cmpmem (ta->data, ta->len * sizeof (QdSignal),
                       tb->data, tb->len * sizeof (QdSignal));
    }
  /* x(4) = x0 e^−2 within the quanta. */
  g_assert_cmpfloat_with_epsilon (qd_trace_eval (qd_test_find_trace (b, "/Scope/q[5]"), 4.0),
                                  5.0 * exp (-2.0), 1e-2);
  qd_simulation_free (a);
  qd_simulation_free (b);
}

/* Without QDEVS_VECTORS, a model runs natively from QD_VECTOR_NATIVE_MIN
 * elements in all (x and dx: 2N), and expands below. */
static void
test_native_threshold (void)
{
  static const struct { guint n; guint n_atomics; } cases[] = {
    { 10, 1 + 2 * 10 },              /* expanded: Pulse and 2N elements */
    { (1u << 17) - 1, 1 + 2 * ((1u << 17) - 1) },
    { 1u << 17, 3 },                 /* native: Pulse, dx, x */
  };

  g_unsetenv ("QDEVS_VECTORS");
  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_autoptr(QdDocument) doc = qd_test_line_vector (cases[k].n, FALSE);
      QdSimulation *sim = qd_test_compile (doc);

      g_assert_cmpuint (qd_simulation_get_n_atomics (sim), ==, cases[k].n_atomics);
      qd_simulation_free (sim);
    }
  g_setenv ("QDEVS_VECTORS", "native", TRUE);
}

/* A vector read by a block with no native form (a Sum of Elements)
 * makes the whole model expand, and it runs as before: the same steps
 * as the native line. */
static void
test_native_fallback (void)
{
  g_autoptr(QdDocument) doc = qd_test_line_vector (10, FALSE);
  g_autoptr(QdDocument) plain = qd_test_line_vector (10, FALSE);
  QdBlock *x = qd_document_find_block_by_path (doc, "/x");
  QdBlock *sum = qd_test_add_block (doc, "sum_elements", "Sum");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *a, *b;

  qd_test_connect (doc, x, 0, sum, 0);
  qd_test_connect (doc, sum, 0, scope, 0);
  a = qd_test_compile (doc);
  b = qd_test_compile (plain);
  g_assert_cmpstr (qd_simulation_get_atomic (a, 2)->path, ==, "/x[1]");
  g_assert_cmpuint (qd_simulation_get_n_atomics (b), ==, 3);
  qd_test_run (a);
  qd_test_run (b);
  g_assert_cmpuint (qd_simulation_get_integrator_steps (a), ==,
                    qd_simulation_get_integrator_steps (b));
  qd_simulation_free (a);
  qd_simulation_free (b);

  /* So does a running sum y[i] = y[i − 1] + u[i]: y = Shift(y) + u is
   * one Weighted Sum feeding itself, a loop as one block, a chain
   * element by element. */
  {
    g_autoptr(QdDocument) running = qd_document_new ();
    QdBlock *u = qd_test_add_block (running, "integrator", "u");
    QdBlock *shift = qd_test_add_block (running, "index_shift", "Shift");
    QdBlock *y = qd_test_add_block (running, "wsum", "y");
    QdBlock *sink = qd_test_add_block (running, "scope", "Scope");
    QdBlock *zero = qd_test_add_block (running, "constant", "Zero");
    QdSimulation *sim;

    qd_test_set_param (running, u, "x0", "1, 2, 3");
    qd_test_set_param (running, zero, "value", "0");
    qd_test_connect (running, zero, 0, u, 0);
    qd_test_connect (running, y, 0, shift, 0);
    qd_test_connect (running, shift, 0, y, 0);
    qd_test_connect (running, u, 0, y, 1);
    qd_test_connect (running, y, 0, sink, 0);
    sim = qd_test_compile (running);
    g_assert_cmpstr (qd_simulation_get_atomic (sim, 0)->path, ==, "/u[1]");
    qd_test_run (sim);
    /* y = [1, 3, 6] (u constant: no derivative). */
    g_assert_cmpfloat (qd_trace_eval (qd_test_find_trace (sim, "/Scope/x1[3]"), 1.0), ==, 6.0);
    qd_simulation_free (sim);
  }

  /* So does a method with no native form, and a classic solver (which
   * advances the states through the scalar Integrators). */
  qd_test_line_method (plain, "LIQSS2");
  a = qd_test_compile (plain);
  g_assert_cmpuint (qd_simulation_get_n_atomics (a), ==, 2 * 10 + 1);
  qd_simulation_free (a);
  qd_test_line_method (plain, "QSS2");
  {
    QdSettings settings = *qd_document_get_settings (plain);

    settings.solver = (char *) "cvode-bdf";
    g_assert_true (qd_document_set_settings (plain, &settings, NULL));
  }
  a = qd_test_compile (plain);
  g_assert_cmpuint (qd_simulation_get_n_atomics (a), ==, 2 * 10 + 1);
  qd_simulation_free (a);
}

/* Errors of native blocks name the block, and the element where one is
 * at fault. */
static void
test_native_errors (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  g_autoptr(QdDocument) open_input = qd_document_new ();
  QdBlock *ramp = qd_test_add_block (doc, "ramp", "Ramp");
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *y = qd_test_add_block (doc, "integrator", "y");
  QdBlock *sum = qd_test_add_block (doc, "wsum", "Sum");
  QdSimulation *sim;
  GError *error = NULL;
  g_autofree char *message = NULL;

  /* A Ramp's slope into QSS1 elements: the run stops at element 1. */
  qd_test_set_param (doc, x, "size", "3");
  qd_test_set_param (doc, x, "method", "QSS1");
  qd_test_set_param (doc, y, "method", "QSS1");
  qd_test_connect (doc, ramp, 0, sum, 0);
  qd_test_connect (doc, x, 0, sum, 1);
  qd_test_connect (doc, sum, 0, y, 0);
  qd_test_connect (doc, ramp, 0, x, 0);
  qd_test_set_final_time (doc, 1.0);
  sim = qd_test_compile (doc);
  g_assert_cmpuint (qd_simulation_get_n_atomics (sim), ==, 4);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_ERROR);
  g_assert_nonnull (error);
  g_assert_true (g_str_has_prefix (error->message, "/x: element 1: "));
  g_clear_error (&error);
  qd_simulation_free (sim);

  /* An input left open: the block by its path, once. */
  {
    QdBlock *v = qd_test_add_block (open_input, "integrator", "v");
    QdBlock *shift = qd_test_add_block (open_input, "index_shift", "Shift");
    QdBlock *dv = qd_test_add_block (open_input, "wsum", "dv");

    qd_test_set_param (open_input, v, "size", "3");
    qd_test_set_param (open_input, dv, "weights", "1, -1");
    qd_test_connect (open_input, v, 0, shift, 0);
    qd_test_connect (open_input, shift, 0, dv, 0);
    qd_test_connect (open_input, dv, 0, v, 0);
  }
  message = qd_test_compile_error (open_input);
  g_assert_true (g_str_has_prefix (message, "/dv: input 2 is not connected"));

  /* An element that overflows: the element by its path. */
  {
    g_autoptr(QdDocument) big = qd_document_new ();
    QdBlock *v = qd_test_add_block (big, "integrator", "v");
    QdBlock *dv = qd_test_add_block (big, "wsum", "dv");
    GError *overflow = NULL;

    qd_test_set_param (big, v, "x0", "1, 1e308, 1");
    qd_test_set_param (big, v, "method", "QSS2");
    qd_test_set_param (big, dv, "n", "1");
    qd_test_set_param (big, dv, "weights", "10");
    qd_test_connect (big, v, 0, dv, 0);
    qd_test_connect (big, dv, 0, v, 0);
    sim = qd_test_compile (big);
    g_assert_cmpuint (qd_simulation_get_n_atomics (sim), ==, 2);
    g_assert_cmpint (qd_simulation_run (sim, &overflow), ==, QD_RUN_ERROR);
    g_assert_nonnull (overflow);
    g_assert_true (g_str_has_prefix (overflow->message,
                                     "/dv[2]: produced infinity at t = 0"));
    g_error_free (overflow);
    qd_simulation_free (sim);
  }

  /* A bad element of an x0 list: the parameter and the element. */
  {
    g_autoptr(QdDocument) line3 = qd_test_line_vector (3, FALSE);
    g_autofree char *bad = NULL;

    qd_test_set_param (line3, qd_document_find_block_by_path (line3, "/x"),
                       "x0", "1, 2 + nosuchname, 3");
    bad = qd_test_compile_error (line3);
    g_assert_true (g_str_has_prefix (bad, "/x: parameter 'x0[2]': "));
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();
  /* Models this small run natively only when asked (docs/vectors.md). */
  g_setenv ("QDEVS_VECTORS", "native", TRUE);
  g_test_add_func ("/vector-native/line", test_native_line);
  g_test_add_func ("/vector-native/threshold", test_native_threshold);
  g_test_add_func ("/vector-native/scope", test_native_scope);
  g_test_add_func ("/vector-native/csv", test_native_csv);
  g_test_add_func ("/vector-native/gain", test_native_gain);
  g_test_add_func ("/vector-native/fallback", test_native_fallback);
  g_test_add_func ("/vector-native/errors", test_native_errors);
  return g_test_run ();
}

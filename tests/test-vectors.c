/* test-vectors.c: vector signals
 *
 * The LC line drawn with vector blocks (one Integrator of size N, one
 * Weighted Sum, two Index Shifts), expanded (QDEVS_VECTORS=expand; run
 * natively in test-vector-native.c), against the same line drawn section by
 * section: every transition of the event log (kind, time, block, port,
 * elapsed time, time advance, segment) must be the same to the last bit,
 * and so must the counts. Width mismatches and bad sizes are errors that
 * name the block.
 *
 * Then each vector block against analytic values: a Matrix Gain turning
 * a vector (from its text, and from CSV files of both layouts), a
 * rotation ẋ = R·x integrated, Demux widths, Sum of Elements of a
 * vector Integrator against the same sum drawn with scalar blocks, bit
 * for bit; the elements a To CSV or Scope chooses; vectors through a
 * subsystem giving the same events as without it, bit for bit. Every
 * error names the block by its path and the parameter.
 */
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "qd-test-lines.h"
#include "qd-compile-vector.h"
#include "qd-block-fast-private.h"

/* The same again, its left side [d, x1..x(N−1)] made as
 * Mux(d, Selector(x, 1:N−1)). */
static QdDocument *
mux_line (guint n)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *pulse = qd_test_line_pulse (doc);
  QdBlock *dx = qd_test_add_block (doc, "wsum", "dx");
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *select = qd_test_add_block (doc, "selector", "Head");
  QdBlock *mux = qd_test_add_block (doc, "mux", "Left");
  QdBlock *right = qd_test_add_block (doc, "index_shift", "Right");
  g_autofree char *size = g_strdup_printf ("%u", n);

  g_assert_true (qd_document_set_variable (doc, "N", size, NULL));
  qd_test_set_param (doc, dx, "weights", "1, -1");
  qd_test_set_param (doc, x, "size", "N");
  qd_test_set_param (doc, select, "elements", "1:N-1");
  qd_test_set_param (doc, right, "shift", "-1");
  qd_test_connect (doc, x, 0, select, 0);
  qd_test_connect (doc, pulse, 0, mux, 0);
  qd_test_connect (doc, select, 0, mux, 1);
  qd_test_connect (doc, x, 0, right, 0);
  qd_test_connect (doc, mux, 0, dx, 0);
  qd_test_connect (doc, right, 0, dx, 1);
  qd_test_connect (doc, dx, 0, x, 0);
  qd_test_line_settings (doc, n);
  return doc;
}

static void
compare_line (guint    n,
              gboolean spread,
              gboolean mux)
{
  g_autoptr(QdDocument) scalar = qd_test_line_scalar (n, spread);
  g_autoptr(QdDocument) vector = mux ? mux_line (n) : qd_test_line_vector (n, spread);
  QdSimulation *a, *b;
  GArray *log_a, *log_b;

  /* The expansion (the native blocks: test_native_line()). */
  g_setenv ("QDEVS_VECTORS", "expand", TRUE);
  a = qd_test_compile (scalar);
  b = qd_test_compile (vector);

  /* The same flat model: the pulse, then dx1, x1, dx2, x2... */
  g_assert_cmpuint (qd_simulation_get_n_atomics (a), ==, 2 * n + 1);
  g_assert_cmpuint (qd_simulation_get_n_atomics (b), ==, 2 * n + 1);
  for (guint i = 0; i < 2 * n + 1; i++)
    g_assert_true (qd_simulation_get_atomic (a, i)->type
                   == qd_simulation_get_atomic (b, i)->type);
  g_assert_cmpstr (qd_simulation_get_atomic (b, 2)->path, ==, "/x[1]");
  g_assert_cmpstr (qd_simulation_get_atomic (b, 2 * n - 1)->path, ==,
                   n == 10 ? "/dx[10]" : "/dx[1000]");

  /* Without a log (fused cascades): the counts, block by block, and the
   * last output of every block. */
  qd_test_run (a);
  qd_test_run (b);
  g_assert_cmpuint (qd_simulation_get_integrator_steps (a), >, 2 * n);
  g_assert_cmpuint (qd_simulation_get_integrator_steps (a), ==,
                    qd_simulation_get_integrator_steps (b));
  g_assert_cmpuint (qd_simulation_get_events (a), ==, qd_simulation_get_events (b));
  g_assert_cmpuint (qd_simulation_get_transitions (a), ==,
                    qd_simulation_get_transitions (b));
  for (guint i = 0; i < 2 * n + 1; i++)
    {
      guint64 int_a, ext_a, int_b, ext_b;
      const QdAtomic *xa = qd_simulation_get_atomic (a, i);
      const QdAtomic *xb = qd_simulation_get_atomic (b, i);

      qd_simulation_get_block_stats (a, i, &int_a, &ext_a);
      qd_simulation_get_block_stats (b, i, &int_b, &ext_b);
      g_assert_cmpuint (int_a, ==, int_b);
      g_assert_cmpuint (ext_a, ==, ext_b);
      g_assert_cmpmem (xa->out, sizeof (QdSignal), xb->out, sizeof (QdSignal));
    }
  qd_simulation_free (a);
  qd_simulation_free (b);

  /* Every transition, in order, bit for bit. */
  log_a = qd_test_run_logged (scalar);
  log_b = qd_test_run_logged (vector);
  g_assert_cmpuint (log_a->len, >, 4 * n);
  g_assert_cmpuint (log_a->len, ==, log_b->len);
  g_assert_cmpmem (log_a->data, log_a->len * sizeof (QdTestLogEntry),
                   log_b->data, log_b->len * sizeof (QdTestLogEntry));
  g_array_unref (log_a);
  g_array_unref (log_b);
  g_unsetenv ("QDEVS_VECTORS");
}

static void
test_lcline_10 (void)
{
  compare_line (10, FALSE, FALSE);
}

static void
test_lcline_1000 (void)
{
  compare_line (1000, FALSE, FALSE);
}

/* A list for x0: one initial state per element. */
static void
test_lcline_x0_list (void)
{
  compare_line (10, TRUE, FALSE);
}

/* Mux and Selector are wiring too: the same flat model, bit for bit. */
static void
test_lcline_mux_selector (void)
{
  compare_line (10, FALSE, TRUE);
  compare_line (1000, FALSE, TRUE);
}

/* Two vectors of different widths into one block: the error names it. */
static void
test_width_mismatch (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *c = qd_test_add_block (doc, "constant", "C");
  QdBlock *a = qd_test_add_block (doc, "integrator", "A");
  QdBlock *b = qd_test_add_block (doc, "integrator", "B");
  QdBlock *sum = qd_test_add_block (doc, "wsum", "Sum");
  g_autofree char *message = NULL;

  qd_test_set_param (doc, a, "size", "3");
  qd_test_set_param (doc, b, "size", "4");
  qd_test_connect (doc, c, 0, a, 0);
  qd_test_connect (doc, c, 0, b, 0);
  qd_test_connect (doc, a, 0, sum, 0);
  qd_test_connect (doc, b, 0, sum, 1);
  message = qd_test_compile_error (doc);
  g_assert_cmpstr (message, ==,
                   "/Sum: input 1 carries 3 signals but the block is 4 wide; "
                   "make the widths match (a scalar input drives every element)");
}

/* x0 with 2 elements for a size of 3; a size that is not a count. */
static void
test_bad_size (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *x = qd_test_add_block (doc, "integrator", "States");
  QdBlock *c = qd_test_add_block (doc, "constant", "C");
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;

  qd_test_connect (doc, c, 0, x, 0);
  qd_test_set_param (doc, x, "size", "3");
  qd_test_set_param (doc, x, "x0", "1, 2");
  first = qd_test_compile_error (doc);
  g_assert_nonnull (strstr (first, "/States"));
  g_assert_nonnull (strstr (first, "x0 has 2 elements but the size is 3"));

  qd_test_set_param (doc, x, "x0", "0");
  qd_test_set_param (doc, x, "size", "2.5");
  second = qd_test_compile_error (doc);
  g_assert_nonnull (strstr (second, "/States"));
  g_assert_nonnull (strstr (second, "'size'"));
}

/* A scalar drives every element (broadcast), and a nonzero boundary: a
 * vector of three integrators of a constant 2, shifted by one with
 * boundary 5, summed with the constant: the elements' slopes are 7, 4, 4. */
static void
test_broadcast_boundary (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *c = qd_test_add_block (doc, "constant", "C");
  QdBlock *k = qd_test_add_block (doc, "constant", "K");
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *shift = qd_test_add_block (doc, "index_shift", "Shift");
  QdBlock *y = qd_test_add_block (doc, "integrator", "y");
  QdBlock *sum = qd_test_add_block (doc, "wsum", "Sum");
  QdSimulation *sim;
  guint found = 0;

  qd_test_set_param (doc, c, "value", "2");
  qd_test_set_param (doc, k, "value", "2");
  qd_test_set_param (doc, x, "size", "3");
  qd_test_set_param (doc, x, "method", "QSS2");
  qd_test_set_param (doc, y, "method", "QSS2");
  qd_test_set_param (doc, shift, "boundary", "5");
  qd_test_connect (doc, c, 0, x, 0);
  qd_test_connect (doc, x, 0, shift, 0);
  qd_test_connect (doc, shift, 0, sum, 0);
  qd_test_connect (doc, k, 0, sum, 1);
  qd_test_connect (doc, sum, 0, y, 0);
  qd_test_set_final_time (doc, 1.0);

  /* Expanded: y[1], y[2] and y[3] are blocks. */
  sim = qd_test_compile_expanded (doc);
  qd_test_run (sim);
  for (guint i = 0; i < qd_simulation_get_n_atomics (sim); i++)
    {
      const QdAtomic *a = qd_simulation_get_atomic (sim, i);

      if (g_str_has_prefix (a->path, "/y["))
        {
          guint el = (guint) g_ascii_strtoull (a->path + 3, NULL, 10);
          /* y[1] = ∫ (5 + 2) = 7t; y[i] = ∫ (x[i−1] + 2) = t² + 2t. */
          double expected = el == 1 ? 7.0 : 3.0;

          g_assert_cmpfloat_with_epsilon (qd_signal_eval (a->out, 1.0),
                                          expected, 1e-2);
          found++;
        }
    }
  g_assert_cmpuint (found, ==, 3);
  qd_simulation_free (sim);

  /* Native: y is one block (C, K, x, y, Sum and the boundary's constant:
   * six), its elements in its element outputs (QDEVS_VECTORS=native:
   * a model this small expands otherwise). */
  g_setenv ("QDEVS_VECTORS", "native", TRUE);
  sim = qd_test_compile (doc);
  g_unsetenv ("QDEVS_VECTORS");
  g_assert_cmpuint (qd_simulation_get_n_atomics (sim), ==, 6);
  qd_test_run (sim);
  for (guint i = 0; i < qd_simulation_get_n_atomics (sim); i++)
    {
      QdAtomic *a = (QdAtomic *) qd_simulation_get_atomic (sim, i);

      if (strcmp (a->path, "/y") == 0)
        {
          const QdSignal *el = qd_atomic_vector_output (a, 0);

          g_assert_cmpuint (qd_atomic_vector_width (a), ==, 3);
          g_assert_cmpfloat_with_epsilon (qd_signal_eval (&el[0], 1.0), 7.0, 1e-2);
          g_assert_cmpfloat_with_epsilon (qd_signal_eval (&el[1], 1.0), 3.0, 1e-2);
          g_assert_cmpfloat_with_epsilon (qd_signal_eval (&el[2], 1.0), 3.0, 1e-2);
          found++;
        }
    }
  g_assert_cmpuint (found, ==, 4);
  qd_simulation_free (sim);
}

/* Scalar to Vector: three integrators of one constant, each 2t; a
 * Selector of an element beyond them is an error naming it. */
static void
test_scalar_to_vector (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *c = qd_test_add_block (doc, "constant", "C");
  QdBlock *spread = qd_test_add_block (doc, "scalar_to_vector", "Spread");
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *select = qd_test_add_block (doc, "selector", "Pick");
  QdBlock *y = qd_test_add_block (doc, "integrator", "y");
  QdSimulation *sim;
  g_autofree char *message = NULL;
  guint found = 0;

  qd_test_set_param (doc, c, "value", "2");
  qd_test_set_param (doc, spread, "size", "3");
  qd_test_set_param (doc, select, "elements", "3, 1");
  qd_test_connect (doc, c, 0, spread, 0);
  qd_test_connect (doc, spread, 0, x, 0);
  qd_test_connect (doc, x, 0, select, 0);
  qd_test_connect (doc, select, 0, y, 0);
  qd_test_set_final_time (doc, 1.0);
  sim = qd_test_compile (doc);
  /* C, x[1..3], y[1..2]: the wiring blocks leave no block behind. */
  g_assert_cmpuint (qd_simulation_get_n_atomics (sim), ==, 6);
  qd_test_run (sim);
  for (guint i = 0; i < qd_simulation_get_n_atomics (sim); i++)
    {
      const QdAtomic *a = qd_simulation_get_atomic (sim, i);

      if (g_str_has_prefix (a->path, "/x["))
        {
          g_assert_cmpfloat_with_epsilon (qd_signal_eval (a->out, 1.0), 2.0, 1e-2);
          found++;
        }
    }
  g_assert_cmpuint (found, ==, 3);
  qd_simulation_free (sim);

  qd_test_set_param (doc, select, "elements", "2:5");
  message = qd_test_compile_error (doc);
  g_assert_cmpstr (message, ==, "/Pick: element 4 is selected but input 1 carries 3 signals");
}

/* The canvas draws the links that carry vectors thicker: their widths. */
static void
test_link_widths (void)
{
  g_autoptr(QdDocument) doc = qd_test_line_vector (7, FALSE);
  QdSystem *root = qd_document_get_root (doc);
  g_autoptr(GHashTable) widths = qd_vector_link_widths (doc, root);
  g_autoptr(QdDocument) scalar = qd_test_line_scalar (3, FALSE);
  guint wide = 0;

  g_assert_nonnull (widths);
  for (guint l = 0; l < root->links->len; l++)
    {
      QdLink *link = g_ptr_array_index (root->links, l);
      QdBlock *src = qd_system_find_block (root, link->src.block);
      guint width = GPOINTER_TO_UINT (g_hash_table_lookup (widths, link));

      /* Everything but the pulse's link is 7 wide. */
      g_assert_cmpuint (width, ==, strcmp (src->name, "Pulse") == 0 ? 0 : 7);
      wide += width > 0;
    }
  g_assert_cmpuint (wide, >=, 4);
  g_assert_null (qd_vector_link_widths (scalar, qd_document_get_root (scalar)));
}

/* -------------------------------------------------------------------- */
/* Demux, Sum of Elements, Matrix Gain, the elements of sinks, vectors
 * through subsystem ports */

/* Both documents run the same transitions, bit for bit. */
static void
assert_same_log (QdDocument *a,
                 QdDocument *b)
{
  GArray *log_a = qd_test_run_logged (a);
  GArray *log_b = qd_test_run_logged (b);

  g_assert_cmpuint (log_a->len, >, 10);
  g_assert_cmpuint (log_a->len, ==, log_b->len);
  g_assert_cmpmem (log_a->data, log_a->len * sizeof (QdTestLogEntry),
                   log_b->data, log_b->len * sizeof (QdTestLogEntry));
  g_array_unref (log_a);
  g_array_unref (log_b);
}

static void
assert_error (QdDocument *doc,
              const char *expected)
{
  g_autofree char *message = qd_test_compile_error (doc);

  g_assert_cmpstr (message, ==, expected);
}

static QdBlock *
add_constant (QdDocument *doc,
              const char *name,
              const char *value)
{
  QdBlock *c = qd_test_add_block (doc, "constant", name);

  qd_test_set_param (doc, c, "value", value);
  return c;
}

static double
trace_at (QdSimulation *sim,
          const char   *name,
          double        t)
{
  return qd_trace_eval (qd_test_find_trace (sim, name), t);
}

/* u = [1, 2] from a Mux of constants, through a Matrix Gain into a
 * Scope named "y"; the Matrix Gain returned. */
static QdBlock *
matrix_model (QdDocument *doc)
{
  QdBlock *a = add_constant (doc, "A", "1");
  QdBlock *b = add_constant (doc, "B", "2");
  QdBlock *mux = qd_test_add_block (doc, "mux", "Mux");
  QdBlock *m = qd_test_add_block (doc, "matrix_gain", "M");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");

  qd_test_set_param (doc, scope, "names", "y");
  qd_test_connect (doc, a, 0, mux, 0);
  qd_test_connect (doc, b, 0, mux, 1);
  qd_test_connect (doc, mux, 0, m, 0);
  qd_test_connect (doc, m, 0, scope, 0);
  qd_test_set_final_time (doc, 1.0);
  return m;
}

/* y = R(θ)·[1, 2]: cos θ − 2 sin θ and sin θ + 2 cos θ. */
static void
assert_rotated (QdDocument *doc,
                double      theta)
{
  QdSimulation *sim = qd_test_compile (doc);

  qd_test_run (sim);
  g_assert_cmpfloat_with_epsilon (trace_at (sim, "/Scope/y[1]", 0.5),
                                  cos (theta) - 2 * sin (theta), 1e-12);
  g_assert_cmpfloat_with_epsilon (trace_at (sim, "/Scope/y[2]", 0.5),
                                  sin (theta) + 2 * cos (theta), 1e-12);
  qd_simulation_free (sim);
}

static char *
write_file (const char *dir,
            const char *name,
            const char *contents)
{
  char *path = g_build_filename (dir, name, NULL);

  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
  return path;
}

/* A rotation matrix from its text (the angle a model variable, spaces
 * and minus signs as MATLAB reads them), from a dense CSV file and from
 * a file of triplets. */
static void
test_matrix_rotation (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *m = matrix_model (doc);
  g_autofree char *dir = g_dir_make_tmp ("qdevs-matrix-XXXXXX", NULL);
  g_autofree char *dense = NULL;
  g_autofree char *triplets = NULL;
  double theta = 0.3;

  g_assert_true (qd_document_set_variable (doc, "th", "0.3", NULL));
  qd_test_set_param (doc, m, "matrix", "[cos(th) -sin(th); sin(th) cos(th)]");
  assert_rotated (doc, theta);
  qd_test_set_param (doc, m, "matrix", "[[cos(th), -sin(th)], [sin(th), cos(th)]]");
  assert_rotated (doc, theta);

  /* 90 degrees from files: [0 -1; 1 0]. */
  dense = write_file (dir, "dense.csv", "a,b\n0,-1\n1,0\n");
  triplets = write_file (dir, "triplets.csv", "# i,j,value\n1,2,-1\r\n2,1,1\n");
  qd_test_set_param (doc, m, "file", dense);
  assert_rotated (doc, G_PI / 2);
  qd_test_set_param (doc, m, "file", triplets);
  qd_test_set_param (doc, m, "layout", "triplets");
  assert_rotated (doc, G_PI / 2);

  g_unlink (dense);
  g_unlink (triplets);
  g_rmdir (dir);
}

/* ẋ = R·x with R = [0 −1; 1 0], x(0) = [1, 0]: x = [cos t, sin t]. */
static double exact_cos (double t) { return cos (t); }
static double exact_sin (double t) { return sin (t); }

static void
test_matrix_integrated (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *r = qd_test_add_block (doc, "matrix_gain", "R");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;

  qd_test_set_param (doc, x, "x0", "1, 0");
  qd_test_set_param (doc, x, "method", "QSS3");
  qd_test_set_param (doc, x, "dqrel", "1e-6");
  qd_test_set_param (doc, x, "dqmin", "1e-9");
  qd_test_set_param (doc, r, "matrix", "[0 -1; 1 0]");
  qd_test_connect (doc, x, 0, r, 0);
  qd_test_connect (doc, r, 0, x, 0);
  qd_test_connect (doc, x, 0, scope, 0);
  qd_test_set_final_time (doc, 6.0);
  sim = qd_test_compile (doc);
  /* x[1], R[1], x[2], R[2] (each row one Weighted Sum), the Scope. */
  g_assert_cmpuint (qd_simulation_get_n_atomics (sim), ==, 5);
  g_assert_cmpstr (qd_simulation_get_atomic (sim, 1)->path, ==, "/R[1]");
  qd_test_run (sim);
  g_assert_cmpfloat (qd_test_max_error (qd_test_find_trace (sim, "/Scope/x1[1]"),
                                        exact_cos, 6.0), <, 1e-4);
  g_assert_cmpfloat (qd_test_max_error (qd_test_find_trace (sim, "/Scope/x1[2]"),
                                        exact_sin, 6.0), <, 1e-4);
  qd_simulation_free (sim);
}

static void
test_matrix_errors (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *m = matrix_model (doc);
  g_autofree char *dir = g_dir_make_tmp ("qdevs-matrix-XXXXXX", NULL);
  g_autofree char *bad = write_file (dir, "bad.csv", "1,2,3\n2,x,1\n");
  g_autofree char *twice = write_file (dir, "twice.csv", "1,1,3\n2,1,1\n1,1,4\n");
  g_autofree char *missing = g_build_filename (dir, "missing.csv", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *message = NULL;

  qd_test_set_param (doc, m, "matrix", "[1 2 3; 4 5 6]");
  assert_error (doc, "/M: parameter 'matrix': M has 3 columns but input 1 "
                "carries 2 signals; M needs one column per element of u");
  /* Unconnected, it is that. */
  {
    guint target = 0;
    QdLink *link = qd_system_find_driver (qd_document_get_root (doc), m->id, 0, &target);

    qd_document_disconnect (doc, link, target);
  }
  assert_error (doc, "/M[1]: input 1 is not connected; connect it or delete "
                "the block");
  qd_test_connect (doc, qd_document_find_block_by_path (doc, "/Mux"), 0, m, 0);
  /* "1 - 2" is one element, "1 -2" two. */
  qd_test_set_param (doc, m, "matrix", "[1 - 2; 3 4]");
  assert_error (doc, "/M: parameter 'matrix': row 2 has 2 elements but row 1 "
                "has 1; give every row as many");
  qd_test_set_param (doc, m, "matrix", "[1 2; 3 k]");
  message = qd_test_compile_error (doc);
  g_assert_true (g_str_has_prefix (message, "/M: parameter 'matrix': "));
  g_assert_nonnull (strstr (message, "'k'"));

  /* Malformed texts are errors naming the block, never a crash. */
  {
    static const char *const texts[] = {
      "[", "]", "[]", "[1 2; ; 3 4]", ";;", "[(1 2]", "[[1, 2], 3]", "[[1, 2]",
      "[1, , 2]", "[1 2]]", "1 2 3; 4 5 6; 7 8", "[[1, 2], [3]]",
    };

    for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
      {
        g_autofree char *text_error = NULL;

        qd_test_set_param (doc, m, "matrix", texts[i]);
        text_error = qd_test_compile_error (doc);
        g_test_message ("%s -> %s", texts[i], text_error);
        g_assert_true (g_str_has_prefix (text_error, "/M: parameter 'matrix': "));
      }
  }

  qd_test_set_param (doc, m, "layout", "triplets");
  qd_test_set_param (doc, m, "file", bad);
  expected = g_strdup_printf ("/M: parameter 'file': %s:2: a field is not a number", bad);
  assert_error (doc, expected);
  g_free (expected);
  qd_test_set_param (doc, m, "file", twice);
  assert_error (doc, "/M: parameter 'file': element (1, 1) is given twice; "
                "give each element once");
  qd_test_set_param (doc, m, "file", missing);
  g_free (message);
  message = qd_test_compile_error (doc);
  expected = g_strdup_printf ("/M: parameter 'file': cannot read '%s'", missing);
  g_assert_true (g_str_has_prefix (message, expected));

  g_unlink (bad);
  g_unlink (twice);
  g_rmdir (dir);
}

/* x = ∫ 1 with x0 = 1..5: x[i] = i + t. Demux "2, 3" gives [x1, x2] and
 * [x3, x4, x5]; an even Demux of five outputs five scalars. */
static void
test_demux (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *one = add_constant (doc, "One", "1");
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *demux = qd_test_add_block (doc, "demux", "Demux");
  QdBlock *a = qd_test_add_block (doc, "scope", "A");
  QdBlock *b = qd_test_add_block (doc, "scope", "B");
  QdBlock *c;
  QdSimulation *sim;

  qd_test_set_param (doc, x, "x0", "1, 2, 3, 4, 5");
  qd_test_set_param (doc, x, "method", "QSS2");
  qd_test_set_param (doc, demux, "widths", "2, 3");
  qd_test_connect (doc, one, 0, x, 0);
  qd_test_connect (doc, x, 0, demux, 0);
  qd_test_connect (doc, demux, 0, a, 0);
  qd_test_connect (doc, demux, 1, b, 0);
  qd_test_set_final_time (doc, 1.0);
  sim = qd_test_compile (doc);
  qd_test_run (sim);
  g_assert_cmpfloat_with_epsilon (trace_at (sim, "/A/x1[2]", 1.0), 3.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (trace_at (sim, "/B/x1[1]", 1.0), 4.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (trace_at (sim, "/B/x1[3]", 1.0), 6.0, 1e-9);
  qd_simulation_free (sim);

  /* Five outputs of one element: the fourth is x[4], a scalar. */
  qd_test_set_param (doc, demux, "widths", "");
  qd_test_set_param (doc, demux, "n", "5");
  c = qd_test_add_block (doc, "scope", "C");
  qd_test_connect (doc, demux, 3, c, 0);
  sim = qd_test_compile (doc);
  qd_test_run (sim);
  g_assert_cmpfloat_with_epsilon (trace_at (sim, "/A/x1", 1.0), 2.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (trace_at (sim, "/B/x1", 1.0), 3.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (trace_at (sim, "/C/x1", 1.0), 5.0, 1e-9);
  qd_simulation_free (sim);

  qd_test_set_param (doc, demux, "n", "2");
  assert_error (doc, "/Demux: input 1 carries 5 signals, which 2 outputs cannot "
                "share evenly; give the outputs' widths (parameter 'widths')");
  qd_test_set_param (doc, demux, "widths", "2, 2");
  assert_error (doc, "/Demux: parameter 'widths' adds up to 4 but input 1 "
                "carries 5 signals; make them equal");
  qd_test_set_param (doc, demux, "widths", "5");
  assert_error (doc, "/Demux: parameter 'widths' gives 1 widths for 2 outputs; "
                "give one per output, or none to share the input evenly");
}

/* ẋ = −x with x0 = 1, 2, 3, 4: Sum of Elements against the same sum of
 * four scalar integrators through one Weighted Sum, bit for bit. */
static QdDocument *
decay_sum (gboolean vector)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *sum, *scope;

  if (vector)
    {
      QdBlock *x = qd_test_add_block (doc, "integrator", "x");
      QdBlock *g = qd_test_add_block (doc, "gain", "g");

      qd_test_set_param (doc, x, "x0", "1, 2, 3, 4");
      qd_test_set_param (doc, g, "k", "-1");
      qd_test_connect (doc, x, 0, g, 0);
      qd_test_connect (doc, g, 0, x, 0);
      sum = qd_test_add_block (doc, "sum_elements", "Sum");
      qd_test_connect (doc, x, 0, sum, 0);
    }
  else
    {
      QdBlock *x[4];

      for (guint i = 0; i < 4; i++)
        {
          g_autofree char *name = g_strdup_printf ("x%u", i + 1);
          g_autofree char *x0 = g_strdup_printf ("%u", i + 1);
          QdBlock *g = qd_test_add_block (doc, "gain", name[1] == '1' ? "g1" : NULL);

          x[i] = qd_test_add_block (doc, "integrator", name);
          qd_document_set_priority (doc, g, i * 2 + 1);
          qd_test_set_param (doc, x[i], "x0", x0);
          qd_test_set_param (doc, g, "k", "-1");
          qd_test_connect (doc, x[i], 0, g, 0);
          qd_test_connect (doc, g, 0, x[i], 0);
        }
      sum = qd_test_add_block (doc, "wsum", "Sum");
      qd_test_set_param (doc, sum, "n", "4");
      qd_test_set_param (doc, sum, "weights", "1, 1, 1, 1");
      for (guint i = 0; i < 4; i++)
        qd_test_connect (doc, x[i], 0, sum, i);
    }
  scope = qd_test_add_block (doc, "scope", "Scope");
  qd_test_connect (doc, sum, 0, scope, 0);
  qd_test_set_final_time (doc, 2.0);
  return doc;
}

static void
test_sum_elements (void)
{
  g_autoptr(QdDocument) vector = decay_sum (TRUE);
  g_autoptr(QdDocument) scalar = decay_sum (FALSE);
  QdBlock *sum = qd_document_find_block_by_path (vector, "/Sum");
  QdSimulation *sim;

  assert_same_log (vector, scalar);
  sim = qd_test_compile (vector);
  qd_test_run (sim);
  g_assert_cmpfloat_with_epsilon (trace_at (sim, "/Scope/x1", 1.0), 10 * exp (-1.0), 1e-2);
  qd_simulation_free (sim);

  /* Signs: (1 − 2 + 3 − 4) e^−t. */
  qd_test_set_param (vector, sum, "signs", "+-+-");
  sim = qd_test_compile (vector);
  qd_test_run (sim);
  g_assert_cmpfloat_with_epsilon (trace_at (sim, "/Scope/x1", 1.0), -2 * exp (-1.0), 1e-2);
  qd_simulation_free (sim);

  qd_test_set_param (vector, sum, "signs", "+-");
  assert_error (vector, "/Sum: parameter 'signs' gives 2 signs but input 1 carries "
                "4 signals; give one per element, or none to add them all");
  qd_test_set_param (vector, sum, "signs", "+*-+");
  assert_error (vector, "/Sum: parameter 'signs': '*' is not + or −; give one "
                "sign per element (\"+-+\")");
}

/* More elements than one Weighted Sum takes: a chain, still exact. */
static void
test_sum_elements_long (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *zero = add_constant (doc, "Zero", "0");
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *sum = qd_test_add_block (doc, "sum_elements", "Sum");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  GString *x0 = g_string_new (NULL);
  QdSimulation *sim;

  for (guint i = 1; i <= 200; i++)
    g_string_append_printf (x0, "%s%u", i > 1 ? ", " : "", i);
  qd_test_set_param (doc, x, "x0", x0->str);
  g_string_free (x0, TRUE);
  qd_test_connect (doc, zero, 0, x, 0);
  qd_test_connect (doc, x, 0, sum, 0);
  qd_test_connect (doc, sum, 0, scope, 0);
  qd_test_set_final_time (doc, 1.0);
  sim = qd_test_compile (doc);
  /* Zero, 200 states, a chain of four Weighted Sums (64 + 63 + 63 + 10
   * terms), the Scope. */
  g_assert_cmpuint (qd_simulation_get_n_atomics (sim), ==, 1 + 200 + 4 + 1);
  qd_test_run (sim);
  g_assert_cmpfloat (trace_at (sim, "/Scope/x1", 1.0), ==, 200 * 201 / 2);
  qd_simulation_free (sim);
}

/* To CSV writes the chosen elements of a vector, named v[i], beside a
 * scalar input; an element beyond the vector is an error. */
static void
test_sink_elements (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *one = add_constant (doc, "One", "1");
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *csv = qd_test_add_block (doc, "to_csv", "Out");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  g_autofree char *dir = g_dir_make_tmp ("qdevs-elements-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "out.csv", NULL);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  QdSimulation *sim;
  GPtrArray *traces;

  qd_test_set_param (doc, x, "size", "10");
  qd_test_set_param (doc, x, "x0", "0");
  qd_test_set_param (doc, x, "method", "QSS2");
  qd_test_set_param (doc, csv, "file", path);
  qd_test_set_param (doc, csv, "n", "2");
  qd_test_set_param (doc, csv, "names", "v, s");
  qd_test_set_param (doc, csv, "elements", "2:4, 7");
  qd_test_set_param (doc, csv, "period", "0.5");
  qd_test_set_param (doc, scope, "elements", "10");
  qd_test_connect (doc, one, 0, x, 0);
  qd_test_connect (doc, x, 0, csv, 0);
  qd_test_connect (doc, one, 0, csv, 1);
  qd_test_connect (doc, x, 0, scope, 0);
  qd_test_set_final_time (doc, 1.0);
  sim = qd_test_compile (doc);
  qd_test_run (sim);
  traces = qd_simulation_get_traces (sim);
  g_assert_cmpuint (traces->len, ==, 1);
  g_assert_cmpstr (qd_trace_get_name (traces->pdata[0]), ==, "/Scope/x1[10]");
  qd_simulation_free (sim);

  g_assert_true (g_file_get_contents (path, &contents, NULL, NULL));
  lines = g_strsplit (contents, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "time,v[2],v[3],v[4],v[7],s");
  g_assert_cmpstr (lines[2], ==, "0.5,0.5,0.5,0.5,0.5,1");

  qd_test_set_param (doc, csv, "elements", "2, 11");
  assert_error (doc, "/Out: parameter 'elements': element 11 is chosen but "
                "input 1 carries 10 signals");
  /* An input left unconnected is still an error. */
  qd_test_set_param (doc, csv, "elements", "2");
  qd_test_set_param (doc, scope, "n", "2");
  assert_error (doc, "/Scope: input 2 is not connected; connect it or delete "
                "the block");
  qd_test_set_param (doc, scope, "n", "1");

  qd_test_set_param (doc, csv, "elements", "all");
  qd_test_set_param (doc, x, "size", "100");
  assert_error (doc, "/Out: its inputs carry 101 signals but it takes at most "
                "64; choose fewer with parameter 'elements' (\"1:10\", \"1, 5, 7\")");
  g_unlink (path);
  g_rmdir (dir);
}

static QdBlock *
add_normal (QdDocument *doc,
            const char *name,
            const char *seed,
            const char *size)
{
  QdBlock *b = qd_test_add_block (doc, "normal_random", name);

  qd_test_set_param (doc, b, "seed", seed);
  qd_test_set_param (doc, b, "period", "0.25");
  qd_test_set_param (doc, b, "size", size);
  return b;
}

static QdBlock *
add_named_scope (QdDocument *doc,
                 const char *name,
                 const char *names,
                 QdBlock    *source)
{
  QdBlock *scope = qd_test_add_block (doc, "scope", name);

  qd_test_set_param (doc, scope, "names", names);
  qd_test_connect (doc, source, 0, scope, 0);
  return scope;
}

/* A Normal Random of size 3 (PowerDEVS's Vector NRGen) is three
 * independent sources: element k draws as the scalar block with seed
 * + k − 1, and no two elements draw alike. */
static void
test_random_elements (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdSimulation *sim;

  add_named_scope (doc, "Scope", "v", add_normal (doc, "N", "4294967294", "3"));
  add_named_scope (doc, "Scope A", "a", add_normal (doc, "A", "4294967294", "1"));
  add_named_scope (doc, "Scope B", "b", add_normal (doc, "B", "4294967295", "1"));
  add_named_scope (doc, "Scope C", "c", add_normal (doc, "C", "0", "1"));
  qd_test_set_final_time (doc, 2.0);
  sim = qd_test_compile (doc);
  qd_test_run (sim);
  for (double t = 0.1; t < 2.0; t += 0.25)
    {
      double v1 = trace_at (sim, "/Scope/v[1]", t);
      double v2 = trace_at (sim, "/Scope/v[2]", t);
      double v3 = trace_at (sim, "/Scope/v[3]", t);

      g_assert_cmpfloat (v1, ==, trace_at (sim, "/Scope A/a", t));
      g_assert_cmpfloat (v2, ==, trace_at (sim, "/Scope B/b", t));
      /* The seeds wrap around at 2^32. */
      g_assert_cmpfloat (v3, ==, trace_at (sim, "/Scope C/c", t));
      g_assert_cmpfloat (v1, !=, v2);
      g_assert_cmpfloat (v2, !=, v3);
    }
  qd_simulation_free (sim);

  /* A seed that does not evaluate is one problem, not one per element. */
  {
    g_autoptr(QdDocument) bad = qd_document_new ();
    g_autoptr(GPtrArray) problems =
      g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
    g_autoptr(GError) error = NULL;

    add_named_scope (bad, "Scope", "v", add_normal (bad, "N", "nosuch", "5"));
    g_assert_null (qd_simulation_new (bad, NULL, problems, &error));
    g_assert_cmpuint (problems->len, ==, 1);
    g_assert_nonnull (strstr (error->message, "/N: parameter 'seed'"));
  }
}

/* The LC line of test-vectors.c, ẋ = [d, x1..x(N−1)] − [x2..xN, 0]:
 * with @grouped, its derivative (the Weighted Sum and both Index
 * Shifts) is a subsystem that x enters and dx leaves as vectors. */
static QdDocument *
line (guint    n,
      gboolean grouped)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *pulse = qd_test_add_block (doc, "pulse", "Pulse");
  QdBlock *dx = qd_test_add_block (doc, "wsum", "dx");
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *left = qd_test_add_block (doc, "index_shift", "Left");
  QdBlock *right = qd_test_add_block (doc, "index_shift", "Right");
  g_autofree char *size = g_strdup_printf ("%u", n);
  QdSettings settings = *qd_document_get_settings (doc);

  qd_test_set_param (doc, pulse, "width", "1");
  qd_test_set_param (doc, dx, "weights", "1, -1");
  qd_test_set_param (doc, x, "size", size);
  qd_test_set_param (doc, x, "method", "QSS2");
  qd_test_set_param (doc, right, "shift", "-1");
  qd_test_connect (doc, x, 0, left, 0);
  qd_test_connect (doc, pulse, 0, left, 1);
  qd_test_connect (doc, x, 0, right, 0);
  qd_test_connect (doc, left, 0, dx, 0);
  qd_test_connect (doc, right, 0, dx, 1);
  qd_test_connect (doc, dx, 0, x, 0);
  /* x, the pulse, then dx: the elements of x and dx do not take turns
   * (a Subsystem's elements could not), and the subsystem takes dx's
   * place in the order. */
  qd_document_set_priority (doc, x, 0);
  settings.final_time = 3.0;
  g_assert_true (qd_document_set_settings (doc, &settings, NULL));
  if (grouped)
    {
      QdBlock *members[] = { dx, left, right };
      GError *error = NULL;

      g_assert_nonnull (qd_document_group (doc, members, 3, "Derivative", &error));
      g_assert_no_error (error);
    }
  return doc;
}

static void
test_subsystem_ports (void)
{
  g_autoptr(QdDocument) flat = line (10, FALSE);
  g_autoptr(QdDocument) grouped = line (10, TRUE);
  g_autoptr(GHashTable) widths = NULL;
  QdSystem *root = qd_document_get_root (grouped);
  QdSimulation *sim;
  guint wide = 0;

  /* Expanded either way (QDEVS_VECTORS=expand): the flat line could run
   * natively, the grouped one cannot (a subsystem). */
  g_setenv ("QDEVS_VECTORS", "expand", TRUE);
  sim = qd_test_compile (grouped);
  g_assert_cmpuint (qd_simulation_get_n_atomics (sim), ==, 1 + 2 * 10);
  g_assert_cmpstr (qd_simulation_get_atomic (sim, 0)->path, ==, "/x[1]");
  g_assert_cmpstr (qd_simulation_get_atomic (sim, 10)->path, ==, "/Pulse");
  g_assert_cmpstr (qd_simulation_get_atomic (sim, 20)->path, ==, "/Derivative/dx[10]");
  qd_simulation_free (sim);
  assert_same_log (flat, grouped);
  g_unsetenv ("QDEVS_VECTORS");

  /* The canvas sees the widths across the ports, inside and out. */
  widths = qd_vector_link_widths (grouped, root);
  for (guint l = 0; l < root->links->len; l++)
    wide += GPOINTER_TO_UINT (g_hash_table_lookup (widths, g_ptr_array_index (root->links, l))) == 10;
  g_assert_cmpuint (wide, ==, 2);
  g_hash_table_unref (g_steal_pointer (&widths));
  widths = qd_vector_link_widths (grouped, qd_document_find_block_by_path (grouped, "/Derivative")->inner);
  g_assert_cmpuint (g_hash_table_size (widths), >=, 3);
}

/* An Index Shift's zero boundary into a subsystem, and nested
 * subsystems: x = ∫ 1 (x[i] = t), shifted by one with boundary 0, through
 * a Gain of 2 inside two levels of subsystems: [0, 2t, 2t]. */
static void
test_subsystem_boundary (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *one = add_constant (doc, "One", "1");
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *shift = qd_test_add_block (doc, "index_shift", "Shift");
  QdBlock *gain = qd_test_add_block (doc, "gain", "G");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdBlock *members[1] = { gain };
  GError *error = NULL;
  QdBlock *inner, *outer;
  QdSimulation *sim;

  qd_test_set_param (doc, x, "size", "3");
  qd_test_set_param (doc, x, "method", "QSS2");
  qd_test_set_param (doc, gain, "k", "2");
  qd_test_connect (doc, one, 0, x, 0);
  qd_test_connect (doc, x, 0, shift, 0);
  qd_test_connect (doc, shift, 0, gain, 0);
  qd_test_connect (doc, gain, 0, scope, 0);
  qd_test_set_final_time (doc, 1.0);
  inner = qd_document_group (doc, members, 1, "Inner", &error);
  g_assert_no_error (error);
  members[0] = inner;
  outer = qd_document_group (doc, members, 1, "Outer", &error);
  g_assert_no_error (error);
  g_assert_nonnull (outer);
  sim = qd_test_compile (doc);
  g_assert_cmpstr (qd_simulation_get_atomic (sim, 4)->path, ==, "/Outer/Inner/G[1]");
  qd_test_run (sim);
  g_assert_cmpfloat (trace_at (sim, "/Scope/x1[1]", 1.0), ==, 0.0);
  g_assert_cmpfloat_with_epsilon (trace_at (sim, "/Scope/x1[2]", 1.0), 2.0, 1e-9);
  g_assert_cmpfloat_with_epsilon (trace_at (sim, "/Scope/x1[3]", 1.0), 2.0, 1e-9);
  qd_simulation_free (sim);
}

/* A vector through Goto and From: x = ∫ 1, size 3, published under the
 * tag v; its From, through a Gain of 2, gives 2t for every element. */
static void
test_goto_from (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *one = add_constant (doc, "One", "1");
  QdBlock *from = qd_test_add_block (doc, "from", "From");
  QdBlock *x = qd_test_add_block (doc, "integrator", "x");
  QdBlock *go = qd_test_add_block (doc, "goto", "Goto");
  QdBlock *gain = qd_test_add_block (doc, "gain", "G");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  g_autoptr(GHashTable) widths = NULL;
  QdSimulation *sim;

  qd_test_set_param (doc, x, "size", "3");
  qd_test_set_param (doc, x, "method", "QSS2");
  qd_test_set_param (doc, go, "tag", "v");
  qd_test_set_param (doc, from, "tag", "v");
  qd_test_set_param (doc, gain, "k", "2");
  qd_test_connect (doc, one, 0, x, 0);
  qd_test_connect (doc, x, 0, go, 0);
  qd_test_connect (doc, from, 0, gain, 0);
  qd_test_connect (doc, gain, 0, scope, 0);
  qd_test_set_final_time (doc, 1.0);
  sim = qd_test_compile (doc);
  qd_test_run (sim);
  for (guint i = 1; i <= 3; i++)
    {
      g_autofree char *name = g_strdup_printf ("/Scope/x1[%u]", i);

      g_assert_cmpfloat_with_epsilon (trace_at (sim, name, 1.0), 2.0, 1e-9);
    }
  qd_simulation_free (sim);
  /* The From's link is drawn 3 wide. */
  widths = qd_vector_link_widths (doc, qd_document_get_root (doc));
  g_assert_cmpuint (GPOINTER_TO_UINT (g_hash_table_lookup (widths,
                      qd_system_find_source (qd_document_get_root (doc), from->id, 0))), ==, 3);
}

/* A width mismatch inside a subsystem, and one after it, name their
 * blocks by path. */
static void
test_subsystem_errors (void)
{
  g_autoptr(QdDocument) doc = line (4, TRUE);
  QdBlock *sub = qd_document_find_block_by_path (doc, "/Derivative");
  QdBlock *dx = qd_document_find_block_by_path (doc, "/Derivative/dx");
  QdBlock *k, *c, *bad;
  QdSystem *inner;
  GError *error = NULL;
  QdBlock *m = qd_test_add_block (doc, "matrix_gain", "M");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");

  qd_test_connect (doc, sub, 0, m, 0);
  qd_test_connect (doc, m, 0, scope, 0);
  qd_test_set_param (doc, m, "matrix", "[1 0 0; 0 1 0]");
  assert_error (doc, "/M: parameter 'matrix': M has 3 columns but input 1 "
                "carries 4 signals; M needs one column per element of u");
  qd_test_set_param (doc, m, "matrix", "[1 0 0 0]");

  inner = dx->parent;
  k = qd_document_add_block (doc, inner, "integrator", "K", 0, 0, &error);
  g_assert_no_error (error);
  c = qd_document_add_block (doc, inner, "constant", "C", 0, 0, &error);
  g_assert_no_error (error);
  bad = qd_document_add_block (doc, inner, "wsum", "Bad", 0, 0, &error);
  g_assert_no_error (error);
  qd_test_set_param (doc, k, "size", "3");
  g_assert_nonnull (qd_document_connect (doc, inner, c->id, 0, k->id, 0, &error));
  g_assert_nonnull (qd_document_connect (doc, inner, dx->id, 0, bad->id, 0, &error));
  g_assert_nonnull (qd_document_connect (doc, inner, k->id, 0, bad->id, 1, &error));
  g_assert_no_error (error);
  assert_error (doc, "/Derivative/Bad: input 2 carries 3 signals but the block "
                "is 4 wide; make the widths match (a scalar input drives every "
                "element)");
}

/* The expansion's elements: each copies its vector block (type, the
 * parameters but "size", its own x0 from a list) and the elements with
 * equal parameters share one set; its links name the element blocks by
 * their own id strings. The copy and the document stay whole when
 * either is freed first. */
static void
test_expand_elements (void)
{
  g_autoptr(QdDocument) doc = qd_test_line_vector (5, TRUE);
  g_autoptr(GPtrArray) problems = g_ptr_array_new ();
  g_autoptr(GHashTable) zero = g_hash_table_new (NULL, NULL);
  QdDocument *flat = qd_vector_expand (doc, NULL, problems, zero, NULL);
  QdSystem *root;
  QdBlock *x[5] = { NULL }, *dx[5] = { NULL };
  guint n_x = 0, n_dx = 0;
  g_autofree char *x0_last = qd_test_line_x0 (4, TRUE);

  g_assert_nonnull (flat);
  g_assert_cmpuint (problems->len, ==, 0);
  root = qd_document_get_root (flat);
  for (guint i = 0; i < root->blocks->len; i++)
    {
      QdBlock *b = g_ptr_array_index (root->blocks, i);

      if (strcmp (b->type, "integrator") == 0)
        x[n_x++] = b;
      else if (strcmp (b->type, "wsum") == 0)
        dx[n_dx++] = b;
    }
  g_assert_cmpuint (n_x, ==, 5);
  g_assert_cmpuint (n_dx, ==, 5);
  for (guint i = 0; i < 5; i++)
    {
      g_autofree char *name = g_strdup_printf ("x[%u]", i + 1);
      g_autofree char *x0 = qd_test_line_x0 (i, TRUE);

      g_assert_cmpstr (x[i]->name, ==, name);
      g_assert_cmpstr (qd_block_get_param (x[i], "x0"), ==, x0);
      g_assert_null (qd_block_get_param (x[i], "size"));
      /* The weights of every dx element: one set. */
      g_assert_true (dx[i]->params == dx[0]->params);
      g_assert_cmpstr (qd_block_get_param (dx[i], "weights"), ==, "1, -1");
    }
  /* x[1] drives the dx of the section after it, by its own id string. */
  for (guint l = 0; l < root->links->len; l++)
    {
      QdLink *link = g_ptr_array_index (root->links, l);

      if (strcmp (link->src.block, x[0]->id) != 0)
        continue;
      g_assert_true (link->src.block == x[0]->id);
      for (guint k = 0; k < link->n_targets; k++)
        {
          QdLinkTarget *t = link->targets[k];

          g_assert_true (t->dst.block == dx[0]->id || t->dst.block == dx[1]->id);
          g_assert_cmpuint (qd_link_target_n_points (t), ==, 0);
        }
    }

  /* The last dx reads the right boundary's zero. */
  g_assert_true (g_hash_table_contains (zero, dx[4]));
  g_assert_cmpuint (g_hash_table_size (zero), ==, 1);

  /* The original freed first, then the copy: the copy's texts and sets
   * still hold. */
  g_clear_object (&doc);
  g_assert_cmpstr (dx[4]->name, ==, "dx[5]");
  g_assert_cmpstr (dx[4]->type, ==, "wsum");
  g_assert_cmpstr (qd_block_get_param (dx[4], "weights"), ==, "1, -1");
  g_assert_cmpstr (qd_block_get_param (x[4], "x0"), ==, x0_last);
  g_object_unref (flat);
}


int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();
  g_test_add_func ("/vectors/lcline-10", test_lcline_10);
  g_test_add_func ("/vectors/lcline-1000", test_lcline_1000);
  g_test_add_func ("/vectors/lcline-x0-list", test_lcline_x0_list);
  g_test_add_func ("/vectors/lcline-mux-selector", test_lcline_mux_selector);
  g_test_add_func ("/vectors/scalar-to-vector", test_scalar_to_vector);
  g_test_add_func ("/vectors/width-mismatch", test_width_mismatch);
  g_test_add_func ("/vectors/link-widths", test_link_widths);
  g_test_add_func ("/vectors/bad-size", test_bad_size);
  g_test_add_func ("/vectors/broadcast-boundary", test_broadcast_boundary);
  g_test_add_func ("/vectors/matrix-rotation", test_matrix_rotation);
  g_test_add_func ("/vectors/matrix-integrated", test_matrix_integrated);
  g_test_add_func ("/vectors/matrix-errors", test_matrix_errors);
  g_test_add_func ("/vectors/demux", test_demux);
  g_test_add_func ("/vectors/sum-elements", test_sum_elements);
  g_test_add_func ("/vectors/sum-elements-long", test_sum_elements_long);
  g_test_add_func ("/vectors/sink-elements", test_sink_elements);
  g_test_add_func ("/vectors/random-elements", test_random_elements);
  g_test_add_func ("/vectors/subsystem-ports", test_subsystem_ports);
  g_test_add_func ("/vectors/subsystem-boundary", test_subsystem_boundary);
  g_test_add_func ("/vectors/subsystem-errors", test_subsystem_errors);
  g_test_add_func ("/vectors/goto-from", test_goto_from);
  g_test_add_func ("/vectors/expand-elements", test_expand_elements);
  return g_test_run ();
}

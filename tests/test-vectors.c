/* test-vectors.c: vector signals
 *
 * The LC line drawn with vector blocks (one Integrator of size N, one
 * Weighted Sum, two Index Shifts) against the same line drawn section by
 * section: every transition of the event log (kind, time, block, port,
 * elapsed time, time advance, segment) must be the same to the last bit,
 * and so must the counts. Width mismatches and bad sizes are errors that
 * name the block.
 */
#include <math.h>
#include <string.h>

#include "qd-test-util.h"

typedef struct
{
  QdLogKind kind;
  guint64   event;
  double    t;
  guint     block;
  guint     port;
  double    elapsed;
  double    ta;
  QdSignal  segment;
} Entry;

static void
log_entry (const QdLogEntry *entry,
           gpointer          user_data)
{
  GArray *log = user_data;
  Entry e;

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

static void
set_settings (QdDocument *doc,
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

static QdBlock *
add_pulse (QdDocument *doc)
{
  QdBlock *pulse = qd_test_add_block (doc, "pulse", "Pulse");

  qd_test_set_param (doc, pulse, "amplitude", "1");
  qd_test_set_param (doc, pulse, "start", "0");
  qd_test_set_param (doc, pulse, "width", "1");
  return pulse;
}

/* The x0 of state i: 0, or a spread of values when @spread. */
static char *
x0_text (guint    i,
         gboolean spread)
{
  return g_strdup_printf ("%.17g", spread ? sin (0.7 * i + 0.3) : 0.0);
}

/* ẋ1 = d − x2, ẋi = x(i−1) − x(i+1), ẋN = x(N−1), section by section
 * (as `qdevs-cli bench --model lcline` builds it). */
static QdDocument *
scalar_line (guint    n,
             gboolean spread)
{
  QdDocument *doc = qd_document_new ();
  g_autofree QdBlock **x = g_new0 (QdBlock *, n);
  g_autofree QdBlock **dx = g_new0 (QdBlock *, n);
  QdBlock *pulse = add_pulse (doc);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *x_name = g_strdup_printf ("x%u", i + 1);
      g_autofree char *dx_name = g_strdup_printf ("dx%u", i + 1);
      g_autofree char *x0 = x0_text (i, spread);

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
  set_settings (doc, n);
  return doc;
}

/* The same line as four vector blocks: x = ∫ dx, dx = [d, x1..x(N−1)]
 * − [x2..xN, 0]. */
static QdDocument *
vector_line (guint    n,
             gboolean spread)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *pulse = add_pulse (doc);
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
          g_autofree char *value = x0_text (i, TRUE);

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
  set_settings (doc, n);
  return doc;
}

/* The same again, its left side [d, x1..x(N−1)] made as
 * Mux(d, Selector(x, 1:N−1)). */
static QdDocument *
mux_line (guint n)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *pulse = add_pulse (doc);
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
  set_settings (doc, n);
  return doc;
}

static GArray *
run_logged (QdDocument *doc)
{
  QdSimulation *sim = qd_test_compile (doc);
  GArray *log = g_array_new (FALSE, FALSE, sizeof (Entry));

  qd_simulation_set_event_log (sim, log_entry, log);
  qd_test_run (sim);
  qd_simulation_free (sim);
  return log;
}

static void
compare_line (guint    n,
              gboolean spread,
              gboolean mux)
{
  g_autoptr(QdDocument) scalar = scalar_line (n, spread);
  g_autoptr(QdDocument) vector = mux ? mux_line (n) : vector_line (n, spread);
  QdSimulation *a = qd_test_compile (scalar);
  QdSimulation *b = qd_test_compile (vector);
  GArray *log_a, *log_b;

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
  log_a = run_logged (scalar);
  log_b = run_logged (vector);
  g_assert_cmpuint (log_a->len, >, 4 * n);
  g_assert_cmpuint (log_a->len, ==, log_b->len);
  g_assert_cmpmem (log_a->data, log_a->len * sizeof (Entry),
                   log_b->data, log_b->len * sizeof (Entry));
  g_array_unref (log_a);
  g_array_unref (log_b);
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

static char *
compile_error (QdDocument *doc)
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
  message = compile_error (doc);
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
  first = compile_error (doc);
  g_assert_nonnull (strstr (first, "/States"));
  g_assert_nonnull (strstr (first, "x0 has 2 elements but the size is 3"));

  qd_test_set_param (doc, x, "x0", "0");
  qd_test_set_param (doc, x, "size", "2.5");
  second = compile_error (doc);
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
  sim = qd_test_compile (doc);
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
  message = compile_error (doc);
  g_assert_cmpstr (message, ==, "/Pick: element 4 is selected but input 1 carries 3 signals");
}

/* The canvas draws the links that carry vectors thicker: their widths. */
static void
test_link_widths (void)
{
  g_autoptr(QdDocument) doc = vector_line (7, FALSE);
  QdSystem *root = qd_document_get_root (doc);
  g_autoptr(GHashTable) widths = qd_vector_link_widths (doc, root);
  g_autoptr(QdDocument) scalar = scalar_line (3, FALSE);
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
  return g_test_run ();
}

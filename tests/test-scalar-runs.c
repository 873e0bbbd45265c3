/* test-scalar-runs.c: runs of scalar blocks compiled as native vectors
 *
 * A model drawn block by block whose regular runs (an Integrator fed by
 * its own Weighted Sum or Gain, again and again) run as native vector
 * blocks (qd-compile-scalar-runs.c) gives the scalar compile's results
 * bit for bit: the LC line (QSS1 to QSS3, x0 zero or a spread, its ends
 * a Pulse and a Weighted Sum of one input), a chain of three inputs
 * at offsets −1, 0 and 1, and a run of Gains;
 * every output of every element in the same order, the same steps and
 * events. Models that must stay scalar stay so (a nonlinear function, a
 * Scope reading an element, a run broken by one Integrator's method, a
 * signal that every element reads, the Integrator before its feeder);
 * a Scope and a To CSV showing elements get the scalar compile's traces
 * and file,
 * and a runtime error names the element's own block.
 */
#include <string.h>

#include <glib/gstdio.h>

#include "qd-test-lines.h"
#include "qd-block-fast-private.h"

/* One output: the element's unit (by its first block), the kind (the
 * position in the unit) and the segment, its tag cleared. */
typedef struct
{
  guint    element;
  guint    kind;
  QdSignal segment;
} Output;

/* The outputs of @log in order: @first_run is the position of the run's
 * first block, both ways; scalar, the run's blocks go two by two after
 * it; native, the run is two blocks there, the element in the tag.
 * Outputs of blocks before the run are kept as element G_MAXUINT. */
static GArray *
outputs (GArray   *log,
         guint     first_run,
         gboolean  native)
{
  GArray *out = g_array_new (FALSE, TRUE, sizeof (Output));

  for (guint k = 0; k < log->len; k++)
    {
      const QdTestLogEntry *e = &g_array_index (log, QdTestLogEntry, k);
      Output o;

      if (e->kind != QD_LOG_OUTPUT)
        continue;
      memset (&o, 0, sizeof o);
      o.segment = e->segment;
      if (e->block < first_run)
        o.element = G_MAXUINT;
      else
        {
          guint p = e->block - first_run;

          o.kind = native ? p : p % 2;
          o.element = native ? e->segment.tag : p / 2;
        }
      o.segment.tag = 0;
      g_array_append_val (out, o);
    }
  return out;
}

/* @doc compiled both ways: the native one is @first_run + 2 blocks
 * (the run's two at @first_run, named @x_path for the Integrators), the
 * scalar one @first_run + 2 @n; the same steps, events and outputs. */
static void
compare_ways (QdDocument *doc,
              guint       n,
              guint       first_run,
              guint       x_pos,
              const char *x_path)
{
  QdSimulation *a = qd_test_compile_mode (doc, "expand");
  QdSimulation *b = qd_test_compile_mode (doc, "native");
  GArray *log_a, *log_b, *out_a, *out_b;

  g_assert_cmpuint (qd_simulation_get_n_atomics (a), ==, first_run + 2 * n);
  g_assert_cmpuint (qd_simulation_get_n_atomics (b), ==, first_run + 2);
  g_assert_cmpstr (qd_simulation_get_atomic (b, first_run + x_pos)->path, ==, x_path);
  g_assert_cmpuint (qd_atomic_vector_width (qd_simulation_get_atomic (b, first_run + x_pos)),
                    ==, n);
  qd_test_run (a);
  qd_test_run (b);
  g_assert_cmpuint (qd_simulation_get_integrator_steps (a), >, n);
  g_assert_cmpuint (qd_simulation_get_integrator_steps (a), ==,
                    qd_simulation_get_integrator_steps (b));
  g_assert_cmpuint (qd_simulation_get_events (a), ==, qd_simulation_get_events (b));
  /* The last segment of every element. */
  for (guint i = 0; i < n; i++)
    for (guint kind = 0; kind < 2; kind++)
      {
        QdSignal last_a = *qd_simulation_get_atomic (a, first_run + 2 * i + kind)->out;
        QdSignal last_b =
          qd_atomic_vector_output ((QdAtomic *) qd_simulation_get_atomic (b, first_run + kind), 0)[i];

        last_b.tag = 0;
        g_assert_cmpmem (&last_a, sizeof last_a, &last_b, sizeof last_b);
      }
  qd_simulation_free (a);
  qd_simulation_free (b);

  log_a = qd_test_run_logged_mode (doc, "expand");
  log_b = qd_test_run_logged_mode (doc, "native");
  out_a = outputs (log_a, first_run, FALSE);
  out_b = outputs (log_b, first_run, TRUE);
  g_assert_cmpuint (out_a->len, >, 2 * n);
  g_assert_cmpuint (out_a->len, ==, out_b->len);
  g_assert_cmpmem (out_a->data, out_a->len * sizeof (Output),
                   out_b->data, out_b->len * sizeof (Output));
  g_array_unref (out_a);
  g_array_unref (out_b);
  g_array_unref (log_a);
  g_array_unref (log_b);
}

/* The LC line drawn section by section (Pulse, dx1, x1, dx2, x2, ...):
 * dx1 reads the Pulse where the others read x(i−1), dxN has one input
 * where the others have two. */
static void
test_runs_line (void)
{
  const char *methods[] = { "QSS1", "QSS2", "QSS3" };
  const guint sizes[] = { 10, 1000 };

  for (guint m = 0; m < G_N_ELEMENTS (methods); m++)
    for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
      for (guint spread = 0; spread < 2; spread++)
        {
          g_autoptr(QdDocument) doc = NULL;
          g_autofree char *path = g_strdup_printf ("/x1..x%u", sizes[k]);

          /* QSS1's log at N = 1000 is millions of events: N = 10 says
           * as much. */
          if (m == 0 && k > 0)
            continue;
          doc = qd_test_line_scalar (sizes[k], spread);
          qd_test_line_method (doc, methods[m]);
          compare_ways (doc, sizes[k], 1, 1, path);
        }
}

/* ẋi = u(i−1) − ui + u(i+1)/4 with x0 = inflow, x0 a spread: input 1
 * reads the state before (offset −1, the inflow shifted in), input 2
 * the state itself (offset 0), input 3 the one after (offset 1, zero
 * shifted in: the last Weighted Sum has two inputs). */
static QdDocument *
chain_document (guint n)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *inflow = qd_test_add_block (doc, "constant", "Inflow");
  g_autofree QdBlock **u = g_new0 (QdBlock *, n);
  g_autofree QdBlock **f = g_new0 (QdBlock *, n);

  qd_test_set_param (doc, inflow, "value", "1");
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *u_name = g_strdup_printf ("u%u", i + 1);
      g_autofree char *f_name = g_strdup_printf ("f%u", i + 1);
      g_autofree char *x0 = g_strdup_printf ("%g", 0.25 * (i % 3));

      f[i] = qd_test_add_block (doc, "wsum", f_name);
      qd_test_set_param (doc, f[i], "n", i + 1 < n ? "3" : "2");
      qd_test_set_param (doc, f[i], "weights", i + 1 < n ? "1, -1, 0.25" : "1, -1");
      u[i] = qd_test_add_block (doc, "integrator", u_name);
      qd_test_set_param (doc, u[i], "x0", x0);
      qd_test_connect (doc, f[i], 0, u[i], 0);
    }
  for (guint i = 0; i < n; i++)
    {
      qd_test_connect (doc, i == 0 ? inflow : u[i - 1], 0, f[i], 0);
      qd_test_connect (doc, u[i], 0, f[i], 1);
      if (i + 1 < n)
        qd_test_connect (doc, u[i + 1], 0, f[i], 2);
    }
  qd_test_set_final_time (doc, 5.0);
  return doc;
}

/* ẋi = −x(i−1)/2 through Gains, x0 = 1, ẋ1 = −u/2 from a constant u:
 * a run of Gains, the constant shifted in. */
static QdDocument *
gain_document (guint n)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *u = qd_test_add_block (doc, "constant", "u");
  g_autofree QdBlock **x = g_new0 (QdBlock *, n);
  g_autofree QdBlock **g = g_new0 (QdBlock *, n);

  qd_test_set_param (doc, u, "value", "3");
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *x_name = g_strdup_printf ("x%u", i + 1);
      g_autofree char *g_name = g_strdup_printf ("g%u", i + 1);

      g[i] = qd_test_add_block (doc, "gain", g_name);
      qd_test_set_param (doc, g[i], "k", "-0.5");
      x[i] = qd_test_add_block (doc, "integrator", x_name);
      qd_test_set_param (doc, x[i], "x0", "1");
      qd_test_connect (doc, g[i], 0, x[i], 0);
      qd_test_connect (doc, i == 0 ? u : x[i - 1], 0, g[i], 0);
    }
  qd_test_set_final_time (doc, 3.0);
  return doc;
}

static void
test_runs_chain (void)
{
  const char *methods[] = { "QSS1", "QSS2", "QSS3" };

  for (guint m = 0; m < G_N_ELEMENTS (methods); m++)
    {
      g_autoptr(QdDocument) doc = chain_document (200);

      qd_test_line_method (doc, methods[m]);
      compare_ways (doc, 200, 1, 1, "/u1..u200");
    }
  for (guint m = 0; m < G_N_ELEMENTS (methods); m++)
    {
      g_autoptr(QdDocument) doc = gain_document (100);

      qd_test_line_method (doc, methods[m]);
      compare_ways (doc, 100, 1, 1, "/x1..x100");
    }
}

/* Models that stay scalar, with QDEVS_VECTORS=native too: the advection
 * chain (a nonlinear function has no native form), the LC line with a
 * Gain reading x5 (a block outside reading an element), with one Integrator of
 * another method (the runs either side read each other); and, without
 * QDEVS_VECTORS, a line below QD_VECTOR_NATIVE_MIN elements. */
static void
test_runs_unmatched (void)
{
  g_autoptr(QdDocument) advection = qd_document_new ();
  g_autoptr(QdDocument) scoped = qd_test_line_scalar (10, FALSE);
  g_autoptr(QdDocument) mixed = qd_test_line_scalar (10, FALSE);
  g_autoptr(QdDocument) small = qd_test_line_scalar (10, FALSE);
  QdBlock *prev = qd_test_add_block (advection, "constant", "Inflow");
  QdBlock *gain = qd_test_add_block (scoped, "gain", "Gain");
  QdSimulation *sim;

  for (guint j = 0; j < 10; j++)
    {
      g_autofree char *u_name = g_strdup_printf ("u%u", j + 1);
      g_autofree char *f_name = g_strdup_printf ("f%u", j + 1);
      QdBlock *f = qd_test_add_block (advection, "nlfunction", f_name);
      QdBlock *u = qd_test_add_block (advection, "integrator", u_name);

      qd_test_set_param (advection, f, "n", "2");
      qd_test_set_param (advection, f, "expression", "(u0 - u1)*10 - u1*(u1 - 0.5)*(u1 - 1)");
      qd_test_connect (advection, f, 0, u, 0);
      qd_test_connect (advection, prev, 0, f, 0);
      qd_test_connect (advection, u, 0, f, 1);
      prev = u;
    }
  sim = qd_test_compile_mode (advection, "native");
  g_assert_cmpuint (qd_simulation_get_n_atomics (sim), ==, 21);
  qd_simulation_free (sim);

  /* A Gain reading x5. */
  qd_test_set_param (scoped, gain, "k", "2");
  qd_test_connect (scoped, qd_document_find_block_by_path (scoped, "/x5"), 0, gain, 0);
  sim = qd_test_compile_mode (scoped, "native");
  g_assert_cmpuint (qd_simulation_get_n_atomics (sim), ==, 22);
  qd_simulation_free (sim);

  qd_test_set_param (mixed, qd_document_find_block_by_path (mixed, "/x5"), "method", "QSS3");
  sim = qd_test_compile_mode (mixed, "native");
  g_assert_cmpuint (qd_simulation_get_n_atomics (sim), ==, 21);
  qd_simulation_free (sim);

  /* One signal every element reads; the Integrator before its feeder. */
  for (guint k = 0; k < 2; k++)
    {
      g_autoptr(QdDocument) doc = qd_document_new ();
      QdBlock *c = qd_test_add_block (doc, "constant", "c");

      for (guint i = 0; i < 10; i++)
        {
          g_autofree char *u_name = g_strdup_printf ("u%u", i + 1);
          g_autofree char *f_name = g_strdup_printf ("f%u", i + 1);
          QdBlock *u = k == 1 ? qd_test_add_block (doc, "integrator", u_name) : NULL;
          QdBlock *f = qd_test_add_block (doc, "wsum", f_name);

          if (u == NULL)
            u = qd_test_add_block (doc, "integrator", u_name);
          qd_test_connect (doc, f, 0, u, 0);
          qd_test_connect (doc, u, 0, f, 0);
          qd_test_connect (doc, c, 0, f, 1);
        }
      sim = qd_test_compile_mode (doc, "native");
      g_assert_cmpuint (qd_simulation_get_n_atomics (sim), ==, 21);
      qd_simulation_free (sim);
    }

  g_unsetenv ("QDEVS_VECTORS");
  sim = qd_test_compile (small);
  g_assert_cmpuint (qd_simulation_get_n_atomics (sim), ==, 21);
  qd_simulation_free (sim);
  g_setenv ("QDEVS_VECTORS", "native", TRUE);
}

/* An element that overflows is named by its own block, as drawn, both
 * ways: x7 starts at 1.7e308, so x6 and x8 move apart at that rate and
 * dx7 = x6 − x8 overflows first. */
static void
test_runs_error_path (void)
{
  g_autoptr(QdDocument) doc = qd_test_line_scalar (10, FALSE);
  g_autofree char *expanded = NULL, *native = NULL;
  const char *modes[] = { "expand", "native" };
  char **messages[] = { &expanded, &native };

  qd_test_set_param (doc, qd_document_find_block_by_path (doc, "/x7"), "x0", "1.7e308");
  for (guint k = 0; k < 2; k++)
    {
      QdSimulation *sim = qd_test_compile_mode (doc, modes[k]);
      g_autoptr(GError) error = NULL;

      g_assert_cmpuint (qd_simulation_get_n_atomics (sim), ==, k == 0 ? 21 : 3);
      g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_ERROR);
      g_assert_nonnull (error);
      *messages[k] = g_strdup (error->message);
      qd_simulation_free (sim);
    }
  g_assert_true (g_str_has_prefix (expanded, "/dx7: produced infinity"));
  g_assert_null (strchr (native, '['));
  g_assert_cmpstr (expanded, ==, native);
}

/* A bad parameter shared by a run (every Integrator's dqmin −1) is
 * reported as the model compiled as drawn reports it, naming the first
 * Integrator, whether the caller keeps the document or gives it up (the
 * folded model's problem is found before the document goes). */
static QdDocument *
bad_quantum_line (void)
{
  QdDocument *doc = qd_test_line_scalar (10, FALSE);

  for (guint i = 1; i <= 10; i++)
    {
      g_autofree char *path = g_strdup_printf ("/x%u", i);

      qd_test_set_param (doc, qd_document_find_block_by_path (doc, path), "dqmin", "-1");
    }
  return doc;
}

static void
test_runs_problem (void)
{
  g_autoptr(QdDocument) doc = bad_quantum_line ();
  g_autofree char *kept = NULL;
  g_autoptr(GError) error = NULL, given_error = NULL;
  QdSimulation *sim;

  kept = qd_test_compile_error (doc);
  g_assert_true (g_str_has_prefix (kept, "/x1: "));
  sim = qd_simulation_new_taking (g_object_ref (doc), NULL, NULL, &error);
  g_assert_null (sim);
  g_assert_nonnull (error);
  /* The test holds a reference: nothing was dropped. */
  g_assert_cmpstr (error->message, ==, kept);
  sim = qd_simulation_new_taking (bad_quantum_line (), NULL, NULL, &given_error);
  g_assert_null (sim);
  g_assert_nonnull (given_error);
  g_assert_cmpstr (given_error->message, ==, kept);
}

/* A Scope on x5, the Pulse and x7, and a To CSV on x2 and x9 sampled
 * every 0.25 s: the same traces, segment for segment, and the same file
 * as the scalar compile's, the run native. */
static void
test_runs_sinks (void)
{
  g_autoptr(QdDocument) doc = qd_test_line_scalar (10, TRUE);
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdBlock *csv = qd_test_add_block (doc, "to_csv", "CSV");
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("qdevs-runs-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, "out.csv", NULL);
  const char *names[] = { "/Scope/a", "/Scope/d", "/Scope/b" };
  const char *modes[] = { "expand", "native" };
  QdSimulation *sims[2];
  char *texts[2];

  g_assert_no_error (error);
  qd_test_set_param (doc, scope, "n", "3");
  qd_test_set_param (doc, scope, "names", "a, d, b");
  qd_test_connect (doc, qd_document_find_block_by_path (doc, "/x5"), 0, scope, 0);
  qd_test_connect (doc, qd_document_find_block_by_path (doc, "/Pulse"), 0, scope, 1);
  qd_test_connect (doc, qd_document_find_block_by_path (doc, "/x7"), 0, scope, 2);
  qd_test_set_param (doc, csv, "n", "2");
  qd_test_set_param (doc, csv, "period", "0.25");
  qd_test_set_param (doc, csv, "file", path);
  qd_test_connect (doc, qd_document_find_block_by_path (doc, "/x2"), 0, csv, 0);
  qd_test_connect (doc, qd_document_find_block_by_path (doc, "/x9"), 0, csv, 1);
  for (guint k = 0; k < 2; k++)
    {
      sims[k] = qd_test_compile_mode (doc, modes[k]);
      qd_test_run (sims[k]);
      g_assert_true (g_file_get_contents (path, &texts[k], NULL, NULL));
      g_remove (path);
    }
  g_assert_cmpuint (qd_simulation_get_n_atomics (sims[0]), ==, 23);
  g_assert_cmpuint (qd_simulation_get_n_atomics (sims[1]), ==, 5);
  g_assert_cmpuint (qd_simulation_get_integrator_steps (sims[0]), ==,
                    qd_simulation_get_integrator_steps (sims[1]));
  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      g_autoptr(GArray) ta = qd_test_trace_segments (sims[0], names[k]);
      g_autoptr(GArray) tb = qd_test_trace_segments (sims[1], names[k]);

      g_assert_cmpuint (ta->len, >, 1);
      g_assert_cmpuint (ta->len, ==, tb->len);
      g_assert_cmpmem (ta->data, ta->len * sizeof (QdSignal),
                       tb->data, tb->len * sizeof (QdSignal));
    }
  g_assert_cmpuint (strlen (texts[0]), >, 100);
  g_assert_cmpstr (texts[0], ==, texts[1]);
  for (guint k = 0; k < 2; k++)
    {
      qd_simulation_free (sims[k]);
      g_free (texts[k]);
    }
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();
  g_setenv ("QDEVS_VECTORS", "native", TRUE);
  g_test_add_func ("/scalar-runs/line", test_runs_line);
  g_test_add_func ("/scalar-runs/chain", test_runs_chain);
  g_test_add_func ("/scalar-runs/sinks", test_runs_sinks);
  g_test_add_func ("/scalar-runs/problem", test_runs_problem);
  g_test_add_func ("/scalar-runs/unmatched", test_runs_unmatched);
  g_test_add_func ("/scalar-runs/error-path", test_runs_error_path);
  return g_test_run ();
}

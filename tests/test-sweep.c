/* test-sweep.c: the engine side of sweeps (qd-sweep.h)
 *
 * How --vary and --dist are read and what their errors say; the values
 * of each run (grid order, distributions within their bounds and
 * moments); seeds that depend on the run's number alone; the random
 * blocks reseeded per run; the record of a run, failing ones included,
 * through its bytes and back; and the summary statistics.
 */
#include <math.h>
#include <string.h>

#include "qd-test-util.h"

static QdSweep *
sweep_of (const char *const *varies,
          const char *const *dists,
          guint64             samples)
{
  QdSweep *sweep = qd_sweep_new ();
  g_autoptr(GError) error = NULL;

  for (guint i = 0; varies != NULL && varies[i] != NULL; i++)
    {
      g_assert_true (qd_sweep_add_vary (sweep, varies[i], &error));
      g_assert_no_error (error);
    }
  for (guint i = 0; dists != NULL && dists[i] != NULL; i++)
    {
      g_assert_true (qd_sweep_add_dist (sweep, dists[i], &error));
      g_assert_no_error (error);
    }
  qd_sweep_set_samples (sweep, samples);
  return sweep;
}

static void
test_sweep_vary (void)
{
  const char *const lin[] = { "k=0:1:5", NULL };
  const char *const lin2[] = { "k=0.05:0.2:4", NULL };
  const char *const lg[] = { " k = log:0.001:1:4", NULL };
  const char *const list[] = { "k=2, -1.5,1e3", NULL };
  const char *const grid[] = { "a=1,2,3", "b=10:20:2", NULL };
  QdSweep *sweep;
  double v[2];

  sweep = sweep_of (lin, NULL, 1);
  g_assert_cmpuint (qd_sweep_get_n_runs (sweep), ==, 5);
  g_assert_cmpuint (qd_sweep_get_n_names (sweep), ==, 1);
  g_assert_cmpstr (qd_sweep_get_name (sweep, 0), ==, "k");
  for (guint64 r = 0; r < 5; r++)
    {
      qd_sweep_get_values (sweep, r, v);
      g_assert_cmpfloat (v[0], ==, 0.25 * r);
    }
  qd_sweep_free (sweep);
  sweep = sweep_of (lin2, NULL, 1);
  qd_sweep_get_values (sweep, 1, v);
  g_assert_cmpfloat (v[0], ==, 0.1);
  qd_sweep_get_values (sweep, 2, v);
  g_assert_cmpfloat (v[0], ==, 0.15);
  qd_sweep_free (sweep);

  sweep = sweep_of (lg, NULL, 1);
  g_assert_cmpstr (qd_sweep_get_name (sweep, 0), ==, "k");
  qd_sweep_get_values (sweep, 0, v);
  g_assert_cmpfloat (v[0], ==, 0.001);
  /* The values a user would type, not those of the arithmetic. */
  qd_sweep_get_values (sweep, 1, v);
  g_assert_cmpfloat (v[0], ==, 0.01);
  qd_sweep_get_values (sweep, 2, v);
  g_assert_cmpfloat (v[0], ==, 0.1);
  qd_sweep_get_values (sweep, 3, v);
  g_assert_cmpfloat (v[0], ==, 1.0);
  qd_sweep_free (sweep);

  sweep = sweep_of (list, NULL, 1);
  g_assert_cmpuint (qd_sweep_get_n_runs (sweep), ==, 3);
  qd_sweep_get_values (sweep, 1, v);
  g_assert_cmpfloat (v[0], ==, -1.5);
  qd_sweep_get_values (sweep, 2, v);
  g_assert_cmpfloat (v[0], ==, 1000.0);
  qd_sweep_free (sweep);

  /* A grid: the last --vary varies fastest; samples repeat each point. */
  sweep = sweep_of (grid, NULL, 2);
  g_assert_cmpuint (qd_sweep_get_n_runs (sweep), ==, 12);
  qd_sweep_get_values (sweep, 0, v);
  g_assert_cmpfloat (v[0], ==, 1.0);
  g_assert_cmpfloat (v[1], ==, 10.0);
  qd_sweep_get_values (sweep, 1, v);
  g_assert_cmpfloat (v[0], ==, 1.0);
  g_assert_cmpfloat (v[1], ==, 10.0);
  qd_sweep_get_values (sweep, 2, v);
  g_assert_cmpfloat (v[0], ==, 1.0);
  g_assert_cmpfloat (v[1], ==, 20.0);
  qd_sweep_get_values (sweep, 11, v);
  g_assert_cmpfloat (v[0], ==, 3.0);
  g_assert_cmpfloat (v[1], ==, 20.0);
  qd_sweep_free (sweep);
}

/* Each bad argument, and a piece of what its message must say. */
static void
test_sweep_vary_errors (void)
{
  static const struct { const char *arg; const char *says; } bad[] = {
    { "k", "is not of the form NAME=VALUES (for example --vary k=0:1:11)" },
    { "=1,2", "is not of the form NAME=VALUES" },
    { "k=1:2", "expected a:b:n" },
    { "k=0:1:0", "n is a whole number from 1" },
    { "k=0:1:2.5", "expected a:b:n" },
    { "k=log:-1:1:3", "a and b above 0" },
    { "k=log:0:1:3", "a and b above 0" },
    { "k=1,x,3", "or a list of numbers" },
    { "k=", "or a list of numbers" },
    { "k=1,,2", "or a list of numbers" },
    { "k=nan", "or a list of numbers" },
  };
  QdSweep *sweep = qd_sweep_new ();
  g_autoptr(GError) dup = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;

      g_assert_false (qd_sweep_add_vary (sweep, bad[i].arg, &error));
      g_assert_nonnull (error);
      if (strstr (error->message, bad[i].says) == NULL)
        g_error ("--vary %s: '%s' does not say '%s'", bad[i].arg, error->message, bad[i].says);
    }
  g_assert_cmpuint (qd_sweep_get_n_names (sweep), ==, 0);
  g_assert_true (qd_sweep_add_vary (sweep, "k=1,2", NULL));
  g_assert_false (qd_sweep_add_dist (sweep, "k=normal(0,1)", &dup));
  g_assert_nonnull (strstr (dup->message, "'k' is already varied"));
  qd_sweep_free (sweep);
}

static void
test_sweep_dist (void)
{
  const char *const dists[] = { "u=uniform(2,3)", "n=normal(10,0.5)", "l=lognormal(0,0.25)", NULL };
  QdSweep *sweep = sweep_of (NULL, dists, 4000);
  double sum[3] = { 0 }, squares[3] = { 0 };
  double v[3], again[3];
  g_autoptr(GError) error = NULL;

  g_assert_true (qd_sweep_check (sweep, NULL, &error));
  g_assert_cmpuint (qd_sweep_get_n_runs (sweep), ==, 4000);
  for (guint64 r = 0; r < 4000; r++)
    {
      qd_sweep_get_values (sweep, r, v);
      g_assert_cmpfloat (v[0], >=, 2.0);
      g_assert_cmpfloat (v[0], <, 3.0);
      g_assert_cmpfloat (v[2], >, 0.0);
      for (guint j = 0; j < 3; j++)
        {
          sum[j] += v[j];
          squares[j] += v[j] * v[j];
        }
    }
  /* Moments within five standard errors of the distributions' own. */
  g_assert_cmpfloat (fabs (sum[0] / 4000 - 2.5), <, 5 * sqrt (1.0 / 12 / 4000));
  g_assert_cmpfloat (fabs (sum[1] / 4000 - 10.0), <, 5 * 0.5 / sqrt (4000));
  g_assert_cmpfloat (fabs (sqrt (squares[1] / 4000 - pow (sum[1] / 4000, 2)) - 0.5), <, 0.03);
  g_assert_cmpfloat (fabs (sum[2] / 4000 - exp (0.25 * 0.25 / 2)), <, 0.02);

  /* A run's draws depend on the seed and its number, nothing else. */
  qd_sweep_get_values (sweep, 17, v);
  qd_sweep_get_values (sweep, 3, again);
  qd_sweep_get_values (sweep, 17, again);
  g_assert_cmpmem (v, sizeof v, again, sizeof again);
  qd_sweep_set_seed (sweep, 2);
  qd_sweep_get_values (sweep, 17, again);
  g_assert_cmpfloat (v[1], !=, again[1]);
  qd_sweep_free (sweep);
}

static void
test_sweep_dist_errors (void)
{
  static const char *const bad[] = {
    "k=normal(1)", "k=normal(1,2,3)", "k=normal(1,-1)", "k=uniform(3,2)",
    "k=uniform(1,1)", "k=gauss(0,1)", "k=normal 0,1", "k=normal(a,1)",
  };
  const char *const dists[] = { "k=normal(0,1)", NULL };
  QdSweep *sweep = qd_sweep_new ();
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) one = NULL;

      g_assert_false (qd_sweep_add_dist (sweep, bad[i], &one));
      if (strstr (one->message, "expected normal(mu,sigma)") == NULL)
        g_error ("--dist %s: '%s'", bad[i], one->message);
    }
  qd_sweep_free (sweep);

  /* A distribution drawn once would be a --set. */
  sweep = sweep_of (NULL, dists, 1);
  g_assert_false (qd_sweep_check (sweep, NULL, &error));
  g_assert_nonnull (strstr (error->message, "--samples N"));
  qd_sweep_free (sweep);
}

static void
test_sweep_unknown_variable (void)
{
  const char *const varies[] = { "kk=1,2", NULL };
  QdSweep *sweep = sweep_of (varies, NULL, 1);
  g_autofree char *path = qd_test_source_path ("data", "examples", "lotka-volterra.qdevs", NULL);
  g_autoptr(QdDocument) doc = qd_document_load (path, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (doc);
  g_assert_false (qd_sweep_check (sweep, doc, &error));
  g_assert_cmpstr (error->message, ==,
                   "the model has no variable 'kk' to vary; its variables are: "
                   "eps, alpha, sigma, m, beta, x1_0, x2_0");
  qd_sweep_free (sweep);
}

static void
test_sweep_derive_seed (void)
{
  GHashTable *seen = g_hash_table_new (g_int64_hash, g_int64_equal);
  static gint64 seeds[2000];

  for (guint r = 0; r < 1000; r++)
    for (guint s = 0; s < 2; s++)
      {
        seeds[r * 2 + s] = (gint64) qd_sweep_derive_seed (s, r);
        g_hash_table_add (seen, &seeds[r * 2 + s]);
      }
  /* No two (seed, run) pairs share a seed; the mix is a fixed function. */
  g_assert_cmpuint (g_hash_table_size (seen), ==, 2000);
  g_assert_cmpuint (qd_sweep_derive_seed (1, 5), ==, qd_sweep_derive_seed (1, 5));
  g_hash_table_unref (seen);
}

static double
output (const QdSweepResult *result,
        const char          *name)
{
  for (guint i = 0; i < result->output_names->len; i++)
    if (strcmp (g_ptr_array_index (result->output_names, i), name) == 0)
      return g_array_index (result->outputs, double, i);
  g_error ("no output %s", name);
  return NAN;
}

/* The M/M/1 example's random blocks draw another stream in every run,
 * the same one whenever the same run is run again. */
static void
test_sweep_reseed (void)
{
  g_autofree char *path = qd_test_source_path ("data", "examples", "queue-server.qdevs", NULL);
  g_autoptr(QdDocument) doc = qd_document_load (path, NULL);
  QdSweep *sweep = sweep_of (NULL, NULL, 3);
  QdSweepRunOptions options = { 0 };
  QdSweepResult *a, *b, *a2;
  QdSettings settings = *qd_document_get_settings (doc);

  settings.final_time = 2000;
  g_assert_true (qd_document_set_settings (doc, &settings, NULL));
  a = qd_sweep_run (sweep, doc, &options, 0);
  b = qd_sweep_run (sweep, doc, &options, 1);
  a2 = qd_sweep_run (sweep, doc, &options, 0);
  g_assert_null (a->error);
  g_assert_cmpfloat (output (a, "/Queue/mean_length"), ==, output (a2, "/Queue/mean_length"));
  g_assert_cmpuint (a->events, ==, a2->events);
  g_assert_cmpfloat (output (a, "/Queue/mean_length"), !=, output (b, "/Queue/mean_length"));
  qd_sweep_result_free (a);
  qd_sweep_result_free (b);
  qd_sweep_result_free (a2);

  /* --model-seeds: every run draws the file's stream, as `run` does. */
  qd_sweep_set_model_seeds (sweep, TRUE);
  a = qd_sweep_run (sweep, doc, &options, 0);
  b = qd_sweep_run (sweep, doc, &options, 1);
  g_assert_cmpfloat (output (a, "/Queue/mean_length"), ==, output (b, "/Queue/mean_length"));
  {
    QdSimulation *sim = qd_simulation_new (doc, NULL, NULL, NULL);

    g_assert_cmpint (qd_simulation_run (sim, NULL), ==, QD_RUN_DONE);
    g_assert_cmpuint (qd_simulation_get_events (sim), ==, a->events);
    qd_simulation_free (sim);
  }
  qd_sweep_result_free (a);
  qd_sweep_result_free (b);
  qd_sweep_free (sweep);
}

/* Two random blocks given the same seed draw the stream one such block
 * draws alone, in a run of the file and in each run of a sweep: each is
 * reseeded once from its own parameter (blocks whose parameters are
 * equal share them otherwise, and a shared seed would be reseeded once
 * per block, drawing another stream). */
static void
test_sweep_reseed_same_seed (void)
{
  static const char head[] =
    "{\"format\": \"qdevs\", \"version\": 1, \"title\": \"\", \"description\": \"\",\n"
    " \"simulation\": {\"start\": 0, \"final\": 200, \"method\": \"QSS2\", \"dqmin\": 0.001, \"dqrel\": 0, \"illegitimacy_limit\": 1000000},\n"
    " \"blocks\": [\n"
    "  {\"id\": \"b1\", \"type\": \"generator\", \"name\": \"G1\", \"position\": [0, 0], \"size\": [60, 40], \"params\": {\"seed\": \"5\"}}";
  static const char second[] =
    ",\n  {\"id\": \"b2\", \"type\": \"generator\", \"name\": \"G2\", \"position\": [0, 100], \"size\": [60, 40], \"params\": {\"seed\": \"5\"}}";
  static const char tail[] = "],\n \"links\": []}\n";
  g_autofree char *one_text = g_strconcat (head, tail, NULL);
  g_autofree char *two_text = g_strconcat (head, second, tail, NULL);
  g_autoptr(QdDocument) one = qd_document_load_data (one_text, strlen (one_text), "one.qdevs", NULL);
  g_autoptr(QdDocument) two = qd_document_load_data (two_text, strlen (two_text), "two.qdevs", NULL);
  QdSweep *sweep = sweep_of (NULL, NULL, 2);
  QdSweepRunOptions options = { 0 };

  g_assert_nonnull (one);
  g_assert_nonnull (two);
  for (guint64 run = 0; run < 2; run++)
    {
      QdSweepResult *alone = qd_sweep_run (sweep, one, &options, run);
      QdSweepResult *pair = qd_sweep_run (sweep, two, &options, run);

      g_assert_null (alone->error);
      g_assert_null (pair->error);
      g_assert_cmpfloat (output (alone, "/G1/entities"), >, 100);
      g_assert_cmpfloat (output (pair, "/G1/entities"), ==, output (alone, "/G1/entities"));
      g_assert_cmpfloat (output (pair, "/G2/entities"), ==, output (alone, "/G1/entities"));
      qd_sweep_result_free (alone);
      qd_sweep_result_free (pair);
    }
  qd_sweep_free (sweep);
}

/* A run that fails keeps its values and its error; the others do not
 * notice. Through the bytes a worker sends and back, nothing changes. */
static void
test_sweep_record (void)
{
  static const char model[] =
    "{\"format\": \"qdevs\", \"version\": 1, \"title\": \"\", \"description\": \"\",\n"
    " \"simulation\": {\"start\": 0, \"final\": 1, \"method\": \"QSS2\", \"dqmin\": 0.001, \"dqrel\": 0, \"illegitimacy_limit\": 1000000},\n"
    " \"variables\": {\"a\": \"1\"},\n"
    " \"blocks\": [\n"
    "  {\"id\": \"b1\", \"type\": \"constant\", \"name\": \"A\", \"position\": [0, 0], \"size\": [60, 40], \"params\": {\"value\": \"a\"}},\n"
    "  {\"id\": \"b2\", \"type\": \"sqrt\", \"name\": \"Root\", \"position\": [100, 0], \"size\": [60, 40]},\n"
    "  {\"id\": \"b3\", \"type\": \"integrator\", \"name\": \"X\", \"position\": [200, 0], \"size\": [60, 40]},\n"
    "  {\"id\": \"b4\", \"type\": \"scope\", \"name\": \"Scope\", \"position\": [300, 0], \"size\": [60, 40]}],\n"
    " \"links\": [\n"
    "  {\"id\": \"l1\", \"from\": {\"block\": \"b1\", \"port\": 0}, \"to\": [{\"block\": \"b2\", \"port\": 0}]},\n"
    "  {\"id\": \"l2\", \"from\": {\"block\": \"b2\", \"port\": 0}, \"to\": [{\"block\": \"b3\", \"port\": 0}]},\n"
    "  {\"id\": \"l3\", \"from\": {\"block\": \"b3\", \"port\": 0}, \"to\": [{\"block\": \"b4\", \"port\": 0}]}]}\n";
  g_autoptr(QdDocument) doc = qd_document_load_data (model, strlen (model), "root.qdevs", NULL);
  const char *const varies[] = { "a=4,-1,9", NULL };
  QdSweep *sweep = sweep_of (varies, NULL, 1);
  QdSweepRunOptions options = { .grid_step = 0.25 };
  QdSweepResult *good, *bad, *back;
  GBytes *bytes;
  gsize size;
  const guint8 *data;
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (doc);
  good = qd_sweep_run (sweep, doc, &options, 0);
  bad = qd_sweep_run (sweep, doc, &options, 1);
  g_assert_null (good->error);
  g_assert_cmpfloat (good->values[0], ==, 4.0);
  /* x = 2 t exactly (QSS2 integrates a constant exactly). */
  g_assert_cmpfloat_with_epsilon (output (good, "/Scope/x1.final"), 2.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (output (good, "/Scope/x1.max"), 2.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (output (good, "/Scope/x1.min"), 0.0, 1e-12);
  g_assert_cmpuint (good->n_grid, ==, 5);
  g_assert_cmpuint (good->trace_names->len, ==, 1);
  g_assert_cmpfloat_with_epsilon (good->traces[2], 1.0, 1e-12);
  g_assert_nonnull (bad->error);
  g_assert_nonnull (strstr (bad->error, "/Root"));
  g_assert_cmpfloat (bad->values[0], ==, -1.0);

  bytes = qd_sweep_result_serialize (good);
  data = g_bytes_get_data (bytes, &size);
  back = qd_sweep_result_deserialize (data, size, &error);
  g_assert_no_error (error);
  g_assert_null (back->error);
  g_assert_cmpuint (back->run, ==, 0);
  g_assert_cmpuint (back->events, ==, good->events);
  g_assert_cmpuint (back->outputs->len, ==, good->outputs->len);
  g_assert_cmpmem (back->outputs->data, back->outputs->len * sizeof (double),
                   good->outputs->data, good->outputs->len * sizeof (double));
  g_assert_cmpmem (back->traces, 5 * sizeof (double), good->traces, 5 * sizeof (double));
  g_assert_cmpstr (g_ptr_array_index (back->output_names, 0), ==, "/Scope/x1.final");
  qd_sweep_result_free (back);
  /* Cut short anywhere, the bytes are refused, never read past. */
  for (gsize cut = 0; cut < size; cut += 7)
    {
      g_autoptr(GError) damaged = NULL;

      g_assert_null (qd_sweep_result_deserialize (data, cut, &damaged));
      g_assert_error (damaged, QD_ERROR, QD_ERROR_FORMAT);
    }
  g_bytes_unref (bytes);

  bytes = qd_sweep_result_serialize (bad);
  data = g_bytes_get_data (bytes, &size);
  back = qd_sweep_result_deserialize (data, size, NULL);
  g_assert_cmpstr (back->error, ==, bad->error);
  g_assert_cmpfloat (back->values[0], ==, -1.0);
  qd_sweep_result_free (back);
  g_bytes_unref (bytes);

  qd_sweep_result_free (good);
  qd_sweep_result_free (bad);
  qd_sweep_free (sweep);
}

static void
test_sweep_summary (void)
{
  const double values[] = { 7, 1, 2, 10, 3, 4, 5, 6, 8, 9 };
  QdSweepSummary s;

  qd_sweep_summarize (values, G_N_ELEMENTS (values), &s);
  g_assert_cmpuint (s.n, ==, 10);
  g_assert_cmpfloat (s.mean, ==, 5.5);
  g_assert_cmpfloat_with_epsilon (s.sd, sqrt (55.0 / 6.0), 1e-12);
  g_assert_cmpfloat_with_epsilon (s.p5, 1.45, 1e-12);
  g_assert_cmpfloat_with_epsilon (s.p50, 5.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (s.p95, 9.55, 1e-12);
  /* t(0.975, 9) = 2.2622 */
  g_assert_cmpfloat_with_epsilon (s.ci_high - s.mean, 2.2622 * sqrt (55.0 / 6.0) / sqrt (10.0), 1e-9);
  g_assert_cmpfloat_with_epsilon (s.mean - s.ci_low, s.ci_high - s.mean, 1e-12);

  qd_sweep_summarize (values, 1, &s);
  g_assert_cmpfloat (s.mean, ==, 7.0);
  g_assert_true (isnan (s.sd));
  g_assert_true (isnan (s.ci_low));

  qd_sweep_summarize (NULL, 0, &s);
  g_assert_cmpuint (s.n, ==, 0);
  g_assert_true (isnan (s.mean));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  g_test_add_func ("/sweep/vary", test_sweep_vary);
  g_test_add_func ("/sweep/vary-errors", test_sweep_vary_errors);
  g_test_add_func ("/sweep/dist", test_sweep_dist);
  g_test_add_func ("/sweep/dist-errors", test_sweep_dist_errors);
  g_test_add_func ("/sweep/unknown-variable", test_sweep_unknown_variable);
  g_test_add_func ("/sweep/derive-seed", test_sweep_derive_seed);
  g_test_add_func ("/sweep/reseed", test_sweep_reseed);
  g_test_add_func ("/sweep/reseed-same-seed", test_sweep_reseed_same_seed);
  g_test_add_func ("/sweep/record", test_sweep_record);
  g_test_add_func ("/sweep/summary", test_sweep_summary);
  return g_test_run ();
}

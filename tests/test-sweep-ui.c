/* test-sweep-ui.c: Sweep… (main menu) in the editor
 *
 * The editor's sweep runs on a pool of threads and gives the records of
 * `qdevs-cli sweep`, byte for byte, with one thread or two; the dialog
 * turns its fields into the same sweep, lists the runs in a table that
 * sorts by any column and the failed runs with their values and errors;
 * the ensemble plot's mean and 5-95 % band are those computed by hand,
 * hovering picks the curve under the pointer; the table exports as the
 * command line's CSV and the plot as PNG and SVG.
 */
#include "qd-test-util.h"
#include "qd-sweep-dialog.h"

#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

static char *tmp_dir;

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

/* A constant a into a square root into an integrator X, and a sine of
 * frequency w into an integrator Y, both on the Scope: a < 0 fails at
 * t = 0, naming /Root. */
static const char model_sqrt[] =
  "{\"format\": \"qdevs\", \"version\": 1, \"title\": \"roots\", \"description\": \"\",\n"
  " \"simulation\": {\"start\": 0, \"final\": 2, \"method\": \"QSS2\", \"dqmin\": 0.001, \"dqrel\": 0, \"illegitimacy_limit\": 1000000},\n"
  " \"variables\": {\"a\": \"1\", \"w\": \"1\"},\n"
  " \"blocks\": [\n"
  "  {\"id\": \"b1\", \"type\": \"constant\", \"name\": \"A\", \"position\": [0, 0], \"size\": [60, 40], \"params\": {\"value\": \"a\"}},\n"
  "  {\"id\": \"b2\", \"type\": \"sqrt\", \"name\": \"Root\", \"position\": [100, 0], \"size\": [60, 40]},\n"
  "  {\"id\": \"b3\", \"type\": \"integrator\", \"name\": \"X\", \"position\": [200, 0], \"size\": [60, 40]},\n"
  "  {\"id\": \"b4\", \"type\": \"scope\", \"name\": \"Scope\", \"position\": [300, 0], \"size\": [60, 40], \"params\": {\"n\": \"2\", \"names\": \"X,Y\"}},\n"
  "  {\"id\": \"b5\", \"type\": \"sine\", \"name\": \"Sine\", \"position\": [0, 100], \"size\": [60, 40], \"params\": {\"frequency\": \"w\"}},\n"
  "  {\"id\": \"b6\", \"type\": \"integrator\", \"name\": \"Y\", \"position\": [200, 100], \"size\": [60, 40]}],\n"
  " \"links\": [\n"
  "  {\"id\": \"l1\", \"from\": {\"block\": \"b1\", \"port\": 0}, \"to\": [{\"block\": \"b2\", \"port\": 0}]},\n"
  "  {\"id\": \"l2\", \"from\": {\"block\": \"b2\", \"port\": 0}, \"to\": [{\"block\": \"b3\", \"port\": 0}]},\n"
  "  {\"id\": \"l3\", \"from\": {\"block\": \"b3\", \"port\": 0}, \"to\": [{\"block\": \"b4\", \"port\": 0}]},\n"
  "  {\"id\": \"l4\", \"from\": {\"block\": \"b5\", \"port\": 0}, \"to\": [{\"block\": \"b6\", \"port\": 0}]},\n"
  "  {\"id\": \"l5\", \"from\": {\"block\": \"b6\", \"port\": 0}, \"to\": [{\"block\": \"b4\", \"port\": 1}]}]}\n";

static QdDocument *
load_model (const char  *text,
            char       **path)
{
  g_autoptr(GError) error = NULL;
  QdDocument *doc;

  *path = tmp_path ("model.qdevs");
  g_assert_true (g_file_set_contents (*path, text, -1, NULL));
  doc = qd_document_load (*path, &error);
  g_assert_no_error (error);
  return doc;
}

static QdDocument *
load_example (const char *name,
              char      **path)
{
  g_autoptr(GError) error = NULL;
  QdDocument *doc;

  *path = qd_test_source_path ("data", "examples", name, NULL);
  doc = qd_document_load (*path, &error);
  g_assert_no_error (error);
  return doc;
}

static void
on_finished (gpointer  source,
             gboolean *done)
{
  *done = TRUE;
}

static void
wait_job (QdSweepJob *job)
{
  qd_test_wait_for_signal (job, "finished", NULL);
}

static void
run_dialog (QdSweepDialog *dialog)
{
  qd_test_wait_for_signal (dialog, "finished", (void (*) (gpointer)) qd_sweep_dialog_run);
}

/* Runs a job of @vary / @dist options on @threads threads and writes
 * its records as --out does. */
static char *
job_csv (QdDocument        *doc,
         const char *const *vary,
         const char *const *dist,
         guint              samples,
         guint64            seed,
         double             until,
         guint              threads,
         const char        *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QdSweepJob) job = NULL;
  g_autofree char *path = tmp_path (name);
  QdSweep *sweep = qd_sweep_new ();

  for (guint i = 0; vary != NULL && vary[i] != NULL; i++)
    g_assert_true (qd_sweep_add_vary (sweep, vary[i], NULL));
  for (guint i = 0; dist != NULL && dist[i] != NULL; i++)
    g_assert_true (qd_sweep_add_dist (sweep, dist[i], NULL));
  qd_sweep_set_samples (sweep, samples);
  qd_sweep_set_seed (sweep, seed);
  job = qd_sweep_job_new (doc, sweep, until, 0.0, &error);
  g_assert_no_error (error);
  qd_sweep_job_start (job, threads);
  g_assert_true (qd_sweep_job_is_running (job));
  wait_job (job);
  g_assert_false (qd_sweep_job_is_running (job));
  g_assert_cmpuint (qd_sweep_job_get_n_workers (job), ==, threads);
  g_assert_cmpuint (qd_sweep_job_get_results (job)->len, ==, qd_sweep_job_get_n_runs (job));
  g_assert_true (qd_sweep_job_write_results (job, QD_SWEEP_WRITE_DEFAULT, path, &error));
  g_assert_no_error (error);
  return qd_test_read_text (path);
}

/* The editor's sweep on one thread and on two gives the command line's
 * records byte for byte: Monte Carlo draws of a variable (the bouncing
 * ball's restitution) and the model's own random blocks (M/M/1). */
static void
test_job_matches_cli (void)
{
  g_autofree char *ball_path = NULL, *queue_path = NULL;
  g_autoptr(QdDocument) ball = load_example ("bouncing-ball-restitution.qdevs", &ball_path);
  g_autoptr(QdDocument) queue = load_example ("queue-server.qdevs", &queue_path);
  const char *dist[] = { "restitution=uniform(0.75,0.85)", NULL };
  g_autofree char *cli_ball = tmp_path ("cli-ball.csv");
  g_autofree char *cli_queue = tmp_path ("cli-queue.csv");
  g_auto(QdCliResult) r1 = { 0 }, r2 = { 0 };
  g_autofree char *expected_ball = NULL, *expected_queue = NULL;

  qd_test_run_cli (&r1, NULL, "sweep", ball_path, "--samples", "5", "--seed", "5", "--until", "3",
                   "--dist", dist[0], "--out", cli_ball, NULL);
  g_assert_cmpint (r1.status, ==, 0);
  qd_test_run_cli (&r2, NULL, "sweep", queue_path, "--samples", "6", "--seed", "9", "--until", "2000",
                   "--out", cli_queue, NULL);
  g_assert_cmpint (r2.status, ==, 0);
  expected_ball = qd_test_read_text (cli_ball);
  expected_queue = qd_test_read_text (cli_queue);
  for (guint threads = 1; threads <= 2; threads++)
    {
      g_autofree char *ball_csv = job_csv (ball, NULL, dist, 5, 5, 3.0, threads, "ball.csv");
      g_autofree char *queue_csv = job_csv (queue, NULL, NULL, 6, 9, 2000.0, threads, "queue.csv");

      g_assert_cmpstr (ball_csv, ==, expected_ball);
      g_assert_cmpstr (queue_csv, ==, expected_queue);
    }
  /* Different seeds draw different runs: the comparison can fail. */
  {
    g_autofree char *other = job_csv (queue, NULL, NULL, 6, 10, 2000.0, 2, "queue.csv");

    g_assert_cmpstr (other, !=, expected_queue);
  }
}

/* The CSV's rows split into fields (no quoted commas in these). */
static GPtrArray *
parse_csv (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      g_ptr_array_add (rows, g_strsplit (lines[i], ",", -1));
  return rows;
}

static guint
csv_column (GPtrArray  *rows,
            const char *name)
{
  char **header = g_ptr_array_index (rows, 0);

  for (guint c = 0; header[c] != NULL; c++)
    if (strcmp (header[c], name) == 0)
      return c;
  g_assert_not_reached ();
}

/* Drops the column @name from every row. */
static char *
without_column (const char *text,
                const char *name)
{
  g_autoptr(GPtrArray) rows = parse_csv (text);
  guint drop = csv_column (rows, name);
  GString *out = g_string_new (NULL);

  for (guint r = 0; r < rows->len; r++)
    {
      char **fields = g_ptr_array_index (rows, r);
      gboolean first = TRUE;

      for (guint c = 0; fields[c] != NULL; c++)
        if (c != drop)
          {
            g_string_append_printf (out, "%s%s", first ? "" : ",", fields[c]);
            first = FALSE;
          }
      g_string_append_c (out, '\n');
    }
  return g_string_free (out, FALSE);
}

static void
check_sorted (QdSweepTable *table,
              guint         column,
              GtkSortType   order)
{
  guint n = qd_sweep_table_get_n_rows (table);

  qd_sweep_table_sort (table, column, order);
  for (guint r = 0; r + 1 < n; r++)
    {
      double a = qd_sweep_table_get_number (table, r, column);
      double b = qd_sweep_table_get_number (table, r + 1, column);

      /* The runs without a value are below every number. */
      if (order == GTK_SORT_ASCENDING)
        g_assert_true (isnan (a) || (!isnan (b) && a <= b));
      else
        g_assert_true (isnan (b) || (!isnan (a) && a >= b));
    }
}

/* The dialog: its fields make the command line's sweep; the table holds
 * the command line's values and sorts; the failed runs are listed; the
 * exports are the command line's CSV and an image. */
static void
test_dialog_table (void)
{
  g_autofree char *path = NULL;
  g_autoptr(QdDocument) doc = load_model (model_sqrt, &path);
  GtkWidget *window = qd_sweep_dialog_new (NULL, doc);
  QdSweepDialog *dialog = QD_SWEEP_DIALOG (window);
  g_autofree char *cli_csv = tmp_path ("cli-roots.csv");
  g_autofree char *ui_csv = tmp_path ("ui-roots.csv");
  g_autofree char *png = tmp_path ("ensemble.png");
  g_autofree char *svg = tmp_path ("ensemble.svg");
  g_auto(QdCliResult) r = { 0 };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree char *cli_text = NULL, *ui_text = NULL, *svg_text = NULL;
  QdSweepTable *table;
  QdSweepJob *job;
  int final_x, column_a;
  guint csv_final_x;

  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (qd_sweep_dialog_set_variable (dialog, "a", QD_SWEEP_KIND_LIST, "4, -1, 1"));
  g_assert_true (qd_sweep_dialog_set_variable (dialog, "w", QD_SWEEP_KIND_RANGE, "1:3:2"));
  g_assert_false (qd_sweep_dialog_set_variable (dialog, "nope", QD_SWEEP_KIND_LIST, "1"));
  qd_sweep_dialog_set_options (dialog, 1, 3, 1.5, 2);
  run_dialog (dialog);
  job = qd_sweep_dialog_get_job (dialog);
  g_assert_nonnull (job);
  g_assert_cmpuint (qd_sweep_job_get_n_runs (job), ==, 6);
  g_assert_cmpuint (qd_sweep_job_get_n_done (job), ==, 6);
  g_assert_cmpuint (qd_sweep_job_get_n_failed (job), ==, 2);
  g_assert_nonnull (strstr (qd_sweep_dialog_get_status (dialog), "6 runs"));

  /* The failed runs (a = -1: runs 2 and 3) with their values and error. */
  g_assert_cmpuint (qd_sweep_dialog_get_n_failed_rows (dialog), ==, 2);
  g_assert_true (g_str_has_prefix (qd_sweep_dialog_get_failed_row (dialog, 0), "Run 2 (a = -1, w = 1): "));
  g_assert_true (g_str_has_prefix (qd_sweep_dialog_get_failed_row (dialog, 1), "Run 3 (a = -1, w = 3): "));
  g_assert_nonnull (strstr (qd_sweep_dialog_get_failed_row (dialog, 0), "/Root"));

  /* The same sweep on the command line: the same values in the table. */
  qd_test_run_cli (&r, NULL, "sweep", path, "--vary", "a=4, -1, 1", "--vary", "w=1:3:2",
                   "--seed", "3", "--until", "1.5", "--out", cli_csv, "--cpu-time", NULL);
  g_assert_cmpint (r.status, ==, 12);
  cli_text = qd_test_read_text (cli_csv);
  rows = parse_csv (cli_text);
  g_assert_cmpuint (rows->len, ==, 7);
  table = qd_sweep_dialog_get_table (dialog);
  g_assert_cmpuint (qd_sweep_table_get_n_rows (table), ==, 6);
  final_x = qd_sweep_table_find_column (table, "/Scope/X.final");
  column_a = qd_sweep_table_find_column (table, "a");
  g_assert_cmpint (final_x, >, 0);
  g_assert_cmpint (column_a, ==, 1);
  g_assert_cmpint (qd_sweep_table_find_column (table, "Steps"), >, final_x);
  csv_final_x = csv_column (rows, "/Scope/X.final");
  qd_sweep_table_sort (table, 0, GTK_SORT_ASCENDING);
  for (guint i = 0; i < 6; i++)
    {
      char **fields = g_ptr_array_index (rows, i + 1);
      double expected = fields[csv_final_x][0] != '\0' ? g_ascii_strtod (fields[csv_final_x], NULL) : NAN;
      double shown = qd_sweep_table_get_number (table, i, final_x);
      g_autofree char *run = qd_sweep_table_dup_cell (table, i, 0);
      g_autofree char *a = qd_sweep_table_dup_cell (table, i, column_a);

      g_assert_cmpstr (run, ==, fields[0]);
      g_assert_cmpstr (a, ==, fields[1]);
      if (isnan (expected))
        g_assert_true (isnan (shown));
      else
        g_assert_cmpfloat (shown, ==, expected);
    }
  /* X = sqrt(a) t: the largest final value is the run with a = 4. */
  qd_sweep_table_sort (table, final_x, GTK_SORT_DESCENDING);
  {
    g_autofree char *a = qd_sweep_table_dup_cell (table, 0, column_a);
    g_autofree char *x = qd_sweep_table_dup_cell (table, 0, final_x);
    g_autofree char *last = qd_sweep_table_dup_cell (table, 5, final_x);

    g_assert_cmpstr (a, ==, "4");
    g_assert_cmpstr (x, ==, "3");
    g_assert_cmpstr (last, ==, "—");
  }
  /* Selecting that run in the table marks its curve in the plot. */
  g_assert_null (qd_ensemble_plot_get_selected (qd_sweep_dialog_get_plot (dialog)));
  qd_sweep_table_select (table, 0);
  g_assert_nonnull (qd_sweep_table_get_selected (table));
  g_assert_true (qd_ensemble_plot_get_selected (qd_sweep_dialog_get_plot (dialog))
                 == qd_sweep_table_get_selected (table));
  g_assert_cmpfloat (qd_sweep_table_get_selected (table)->values[0], ==, 4.0);
  qd_sweep_table_select (table, G_MAXUINT);
  g_assert_null (qd_ensemble_plot_get_selected (qd_sweep_dialog_get_plot (dialog)));
  qd_sweep_table_select (table, 0);
  check_sorted (table, final_x, GTK_SORT_DESCENDING);
  check_sorted (table, final_x, GTK_SORT_ASCENDING);
  check_sorted (table, qd_sweep_table_find_column (table, "Steps"), GTK_SORT_ASCENDING);
  check_sorted (table, qd_sweep_table_find_column (table, "/Scope/Y.max"), GTK_SORT_DESCENDING);

  /* The table's CSV is the command line's, but for the CPU times. */
  g_assert_true (qd_sweep_dialog_export_table (dialog, ui_csv, &error));
  g_assert_no_error (error);
  ui_text = qd_test_read_text (ui_csv);
  {
    g_autofree char *a = without_column (ui_text, "cpu_s");
    g_autofree char *b = without_column (cli_text, "cpu_s");
    g_autofree char *ui_header = g_strndup (ui_text, strcspn (ui_text, "\n"));
    g_autofree char *cli_header = g_strndup (cli_text, strcspn (cli_text, "\n"));

    g_assert_cmpstr (a, ==, b);
    g_assert_cmpstr (ui_header, ==, cli_header);
  }

  /* The plot as PNG and SVG. */
  g_assert_true (qd_sweep_dialog_select_signal (dialog, "/Scope/Y"));
  g_assert_false (qd_sweep_dialog_select_signal (dialog, "/Scope/Z"));
  g_assert_cmpstr (qd_ensemble_plot_get_signal (qd_sweep_dialog_get_plot (dialog)), ==, "/Scope/Y");
  /* The run selected stays so under another signal. */
  g_assert_true (qd_ensemble_plot_get_selected (qd_sweep_dialog_get_plot (dialog))
                 == qd_sweep_table_get_selected (table));
  g_assert_cmpuint (qd_ensemble_plot_get_n_curves (qd_sweep_dialog_get_plot (dialog)), ==, 4);
  g_assert_true (qd_sweep_dialog_export_plot (dialog, png, &error));
  g_assert_no_error (error);
  {
    g_autofree char *data = NULL;
    gsize length = 0;

    g_assert_true (g_file_get_contents (png, &data, &length, NULL));
    g_assert_cmpuint (length, >, 1000);
    g_assert_cmpint (memcmp (data, "\x89PNG", 4), ==, 0);
  }
  g_assert_true (qd_sweep_dialog_export_plot (dialog, svg, &error));
  svg_text = qd_test_read_text (svg);
  g_assert_nonnull (strstr (svg_text, "<svg"));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* dx/dt = k, x(0) = 0, on a Scope: x = k t, exactly under QSS2. */
static QdDocument *
ramp_document (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *k = qd_test_add_block (doc, "constant", "K");
  QdBlock *integ = qd_test_add_block (doc, "integrator", "Integrator");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");

  g_assert_true (qd_document_set_variable (doc, "k", "1", NULL));
  qd_test_set_param (doc, k, "value", "k");
  /* QSS2's output is the state's line itself, not a staircase. */
  qd_test_set_param (doc, integ, "method", "QSS2");
  qd_test_set_param (doc, scope, "names", "x");
  qd_test_connect (doc, k, 0, integ, 0);
  qd_test_connect (doc, integ, 0, scope, 0);
  qd_test_set_final_time (doc, 4.0);
  return doc;
}

static void
wait_for_size (GtkWidget *widget)
{
  while (gtk_widget_get_width (widget) <= 0)
    g_main_context_iteration (NULL, TRUE);
}

/* Four runs x = k t with k = 1, 2, 3, 4: the mean 2.5 t; the 5 % and
 * 95 % percentiles, interpolated between order statistics, 1.15 t and
 * 3.85 t. Hovering from the top of the plot down meets the runs in
 * the order k = 4, 3, 2, 1. */
static void
test_band_and_hover (void)
{
  g_autoptr(QdDocument) doc = ramp_document ();
  GtkWidget *window = qd_sweep_dialog_new (NULL, doc);
  QdSweepDialog *dialog = QD_SWEEP_DIALOG (window);
  QdEnsemblePlot *plot = qd_sweep_dialog_get_plot (dialog);
  const double *mean, *low, *high;
  double t0, step;
  guint n;
  g_autoptr(GArray) met = g_array_new (FALSE, FALSE, sizeof (int));

  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (qd_sweep_dialog_set_variable (dialog, "k", QD_SWEEP_KIND_RANGE, "1:4:4"));
  qd_sweep_dialog_set_options (dialog, 1, 1, NAN, 2);
  run_dialog (dialog);
  g_assert_cmpuint (qd_ensemble_plot_get_n_curves (plot), ==, 4);
  g_assert_cmpstr (qd_ensemble_plot_get_signal (plot), ==, "/Scope/x");
  qd_sweep_job_get_grid (qd_sweep_dialog_get_job (dialog), &t0, &step, &n);
  g_assert_cmpfloat (t0, ==, 0.0);
  g_assert_cmpuint (n, ==, QD_SWEEP_JOB_GRID_POINTS + 1);
  mean = qd_ensemble_plot_get_mean (plot);
  low = qd_ensemble_plot_get_low (plot);
  high = qd_ensemble_plot_get_high (plot);
  for (guint p = 0; p < n; p++)
    {
      double t = MIN (t0 + p * step, 4.0);

      g_assert_cmpfloat_with_epsilon (mean[p], 2.5 * t, 1e-9);
      g_assert_cmpfloat_with_epsilon (low[p], 1.15 * t, 1e-9);
      g_assert_cmpfloat_with_epsilon (high[p], 3.85 * t, 1e-9);
    }

  wait_for_size (GTK_WIDGET (plot));
  {
    int width = gtk_widget_get_width (GTK_WIDGET (plot));
    int height = gtk_widget_get_height (GTK_WIDGET (plot));

    /* Near the right end, where the curves are far apart. */
    for (int y = 0; y < height; y++)
      {
        int index = qd_ensemble_plot_pick (plot, width - 30, y);

        if (index >= 0 && (met->len == 0 || g_array_index (met, int, met->len - 1) != index))
          g_array_append_val (met, index);
      }
  }
  g_assert_cmpuint (met->len, ==, 4);
  for (guint i = 0; i < 4; i++)
    g_assert_cmpint (g_array_index (met, int, i), ==, 3 - (int) i);
  g_assert_cmpint (qd_ensemble_plot_pick (plot, 1, 1), ==, -1);
  qd_ensemble_plot_set_highlight (plot, 2);
  g_assert_cmpstr (qd_ensemble_plot_get_highlight_text (plot), ==, "Run 2: k = 3");
  g_assert_cmpstr (gtk_widget_get_tooltip_text (GTK_WIDGET (plot)), ==, "Run 2: k = 3");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Values the engine refuses are reported and mark nothing as run. */
static void
test_bad_values (void)
{
  g_autofree char *path = NULL;
  g_autoptr(QdDocument) doc = load_model (model_sqrt, &path);
  GtkWidget *window = qd_sweep_dialog_new (NULL, doc);
  QdSweepDialog *dialog = QD_SWEEP_DIALOG (window);

  g_assert_true (qd_sweep_dialog_set_variable (dialog, "a", QD_SWEEP_KIND_RANGE, "1:2"));
  run_dialog (dialog);
  g_assert_null (qd_sweep_dialog_get_job (dialog));
  g_assert_nonnull (strstr (qd_sweep_dialog_get_status (dialog), "a=1:2"));

  /* A final time before the start is refused before anything runs. */
  g_assert_true (qd_sweep_dialog_set_variable (dialog, "a", QD_SWEEP_KIND_NORMAL, "1, 0.1"));
  qd_sweep_dialog_set_options (dialog, 1, 1, -5.0, 1);
  run_dialog (dialog);
  g_assert_null (qd_sweep_dialog_get_job (dialog));
  g_assert_nonnull (strstr (qd_sweep_dialog_get_status (dialog), "final time"));

  /* More runs than the editor keeps go to the command line. */
  g_assert_true (qd_sweep_dialog_set_variable (dialog, "a", QD_SWEEP_KIND_LIST, "1, 2"));
  qd_sweep_dialog_set_options (dialog, QD_SWEEP_JOB_MAX_RUNS, 1, 2.0, 1);
  run_dialog (dialog);
  g_assert_null (qd_sweep_dialog_get_job (dialog));
  g_assert_nonnull (strstr (qd_sweep_dialog_get_status (dialog), "40000 runs are more than the editor keeps"));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Monte Carlo with no variable: the M/M/1 queue over 20 seeds, whose
 * Summary is what qdevs-cli sweep prints; and a distribution chosen with
 * one sample per point asks for 100. */
static void
test_monte_carlo (void)
{
  g_autofree char *path = NULL;
  g_autoptr(QdDocument) doc = load_example ("queue-server.qdevs", &path);
  GtkWidget *window = qd_sweep_dialog_new (NULL, doc);
  QdSweepDialog *dialog = QD_SWEEP_DIALOG (window);
  g_auto(QdCliResult) r = { 0 };
  g_autofree char *summary = NULL;

  qd_sweep_dialog_set_options (dialog, 20, 4, 2000.0, 2);
  run_dialog (dialog);
  g_assert_cmpuint (qd_sweep_job_get_n_runs (qd_sweep_dialog_get_job (dialog)), ==, 20);
  qd_test_run_cli (&r, NULL, "sweep", path, "--samples", "20", "--seed", "4", "--until", "2000", NULL);
  g_assert_cmpint (r.status, ==, 0);
  summary = qd_sweep_dialog_dup_summary (dialog);
  g_assert_nonnull (strstr (summary, "/Statistics/mean"));
  g_assert_cmpstr (summary, ==, r.out);
  /* The queue's own statistics are columns of the table. */
  g_assert_cmpint (qd_sweep_table_find_column (qd_sweep_dialog_get_table (dialog), "/Queue/mean_length"), >, 0);
  gtk_window_destroy (GTK_WINDOW (window));

  {
    g_autofree char *model = NULL;
    g_autoptr(QdDocument) roots = load_model (model_sqrt, &model);

    window = qd_sweep_dialog_new (NULL, roots);
    dialog = QD_SWEEP_DIALOG (window);
    g_assert_true (qd_sweep_dialog_set_variable (dialog, "w", QD_SWEEP_KIND_UNIFORM, "1, 2"));
    run_dialog (dialog);
    g_assert_cmpuint (qd_sweep_job_get_n_runs (qd_sweep_dialog_get_job (dialog)), ==, 100);
    g_assert_cmpuint (qd_sweep_job_get_n_failed (qd_sweep_dialog_get_job (dialog)), ==, 0);
    gtk_window_destroy (GTK_WINDOW (window));
  }
}

/* While the runs go on, the plot shows those done: here the first of
 * six long runs on one thread, the others still to come. */
static void
test_live_plot (void)
{
  g_autofree char *path = NULL;
  g_autoptr(QdDocument) doc = load_model (model_sqrt, &path);
  GtkWidget *window = qd_sweep_dialog_new (NULL, doc);
  QdSweepDialog *dialog = QD_SWEEP_DIALOG (window);
  QdEnsemblePlot *plot = qd_sweep_dialog_get_plot (dialog);
  gboolean done = FALSE;
  QdSweepJob *job;

  g_assert_true (qd_sweep_dialog_set_variable (dialog, "w", QD_SWEEP_KIND_RANGE, "1:2:6"));
  qd_sweep_dialog_set_options (dialog, 1, 1, 2e4, 1);
  g_signal_connect (dialog, "finished", G_CALLBACK (on_finished), &done);
  qd_sweep_dialog_run (dialog);
  job = qd_sweep_dialog_get_job (dialog);
  while (!done && qd_ensemble_plot_get_n_curves (plot) == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (qd_sweep_job_is_running (job));
  g_assert_cmpuint (qd_ensemble_plot_get_n_curves (plot), >=, 1);
  g_assert_cmpuint (qd_ensemble_plot_get_n_curves (plot), <, 6);
  g_assert_cmpstr (qd_ensemble_plot_get_signal (plot), ==, "/Scope/X");
  qd_sweep_dialog_cancel (dialog);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  /* The runs done stay plotted once cancelled. */
  g_assert_cmpuint (qd_ensemble_plot_get_n_curves (plot), ==, qd_sweep_job_get_n_done (job));
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
on_weak_notify (gpointer  data,
                GObject  *where)
{
  *(gboolean *) data = TRUE;
}

/* Cancel keeps the runs done and drops the rest; closing the dialog
 * during a sweep stops it, and the job goes once its workers have. */
static void
test_cancel (void)
{
  g_autofree char *path = NULL;
  g_autoptr(QdDocument) doc = load_model (model_sqrt, &path);
  GtkWidget *window = qd_sweep_dialog_new (NULL, doc);
  QdSweepDialog *dialog = QD_SWEEP_DIALOG (window);
  gboolean done = FALSE, gone = FALSE;
  QdSweepJob *job;

  /* 40 runs long enough to be caught going on. */
  g_assert_true (qd_sweep_dialog_set_variable (dialog, "w", QD_SWEEP_KIND_RANGE, "1:40:40"));
  qd_sweep_dialog_set_options (dialog, 1, 1, 1e6, 1);
  g_signal_connect (dialog, "finished", G_CALLBACK (on_finished), &done);
  qd_sweep_dialog_run (dialog);
  job = qd_sweep_dialog_get_job (dialog);
  g_assert_true (qd_sweep_job_is_running (job));
  qd_sweep_dialog_cancel (dialog);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  g_assert_true (qd_sweep_job_was_cancelled (job));
  g_assert_cmpuint (qd_sweep_job_get_n_done (job), <, 40);
  g_assert_cmpuint (qd_sweep_job_get_results (job)->len, ==, qd_sweep_job_get_n_done (job));
  g_assert_nonnull (strstr (qd_sweep_dialog_get_status (dialog), "Cancelled"));

  /* Again, and close the window while it runs. */
  qd_sweep_dialog_run (dialog);
  job = qd_sweep_dialog_get_job (dialog);
  g_object_weak_ref (G_OBJECT (job), on_weak_notify, &gone);
  gtk_window_destroy (GTK_WINDOW (window));
  while (!gone)
    g_main_context_iteration (NULL, TRUE);
}

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_test_skip ("no display");
      return g_test_run ();
    }
  qd_init ();
  tmp_dir = g_dir_make_tmp ("qdevs-sweep-ui-XXXXXX", NULL);
  g_test_add_func ("/sweep-ui/job-matches-cli", test_job_matches_cli);
  g_test_add_func ("/sweep-ui/dialog-table", test_dialog_table);
  g_test_add_func ("/sweep-ui/band-and-hover", test_band_and_hover);
  g_test_add_func ("/sweep-ui/bad-values", test_bad_values);
  g_test_add_func ("/sweep-ui/monte-carlo", test_monte_carlo);
  g_test_add_func ("/sweep-ui/live-plot", test_live_plot);
  g_test_add_func ("/sweep-ui/cancel", test_cancel);
  status = g_test_run ();
  qd_test_remove_tree (tmp_dir);
  return status;
}

/* test-cli.c: qdevs-cli as a user runs it: exit statuses, where errors
 * point, the statistics JSON, CSV export, plot images, the block
 * reference.
 *
 * The built program is spawned ($QD_BUILD_DIR/app/qdevs-cli); the models
 * are the shipped examples and small files written to a temporary folder.
 */
#include "qd-test-util.h"

#include <glib/gstdio.h>
#include <json-c/json.h>
#include <string.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

static char *tmp_dir;

typedef QdCliResult CliResult;
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CliResult, qd_cli_result_clear)

/* Runs qdevs-cli with the NULL-terminated arguments. */
#define run_cli(r, ...) qd_test_run_cli ((r), NULL, __VA_ARGS__)

static char *
example (const char *name)
{
  return qd_test_source_path ("data", "examples", name, NULL);
}

static char *
write_model (const char *name,
             const char *text)
{
  char *path = g_build_filename (tmp_dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
  return path;
}

static guint
count_lines (const char *text)
{
  guint n = 0;

  for (const char *p = text; *p != '\0'; p++)
    if (*p == '\n')
      n++;
  return n;
}

/* A valid model with a gain k driven by model variable "k":
 * dx/dt = k·x, x(0) = 1. */
static const char model_with_variable[] =
  "{\"format\": \"qdevs\", \"version\": 1, \"title\": \"k\", \"description\": \"\",\n"
  " \"simulation\": {\"start\": 0, \"final\": 1, \"method\": \"QSS1\", \"dqmin\": 0.01, \"dqrel\": 0, \"illegitimacy_limit\": 1000000},\n"
  " \"variables\": {\"k\": \"-1\"},\n"
  " \"blocks\": [\n"
  "  {\"id\": \"b1\", \"type\": \"integrator\", \"name\": \"Integrator\", \"position\": [0, 0], \"size\": [60, 40], \"params\": {\"x0\": \"1\"}},\n"
  "  {\"id\": \"b2\", \"type\": \"gain\", \"name\": \"Gain\", \"position\": [0, 100], \"size\": [60, 40], \"params\": {\"k\": \"k\"}},\n"
  "  {\"id\": \"b3\", \"type\": \"scope\", \"name\": \"Scope\", \"position\": [200, 0], \"size\": [60, 40]}],\n"
  " \"links\": [\n"
  "  {\"id\": \"l1\", \"from\": {\"block\": \"b1\", \"port\": 0}, \"to\": [{\"block\": \"b2\", \"port\": 0}, {\"block\": \"b3\", \"port\": 0}]},\n"
  "  {\"id\": \"l2\", \"from\": {\"block\": \"b2\", \"port\": 0}, \"to\": [{\"block\": \"b1\", \"port\": 0}]}]}\n";

static void
test_cli_version_and_help (void)
{
  g_auto(CliResult) r1 = { 0 }, r2 = { 0 }, r3 = { 0 }, r4 = { 0 };

  run_cli (&r1, "--version", NULL);
  g_assert_cmpint (r1.status, ==, 0);
  g_assert_cmpstr (r1.out, ==, "qdevs-cli " QD_VERSION "\n");

  run_cli (&r2, "help", NULL);
  g_assert_cmpint (r2.status, ==, 0);
  g_assert_nonnull (strstr (r2.out, "run FILE"));
  g_assert_nonnull (strstr (r2.out, "check FILE"));
  g_assert_nonnull (strstr (r2.out, "blocks"));

  run_cli (&r3, "run", "--help", NULL);
  g_assert_cmpint (r3.status, ==, 0);
  g_assert_nonnull (strstr (r3.out, "--until"));
  g_assert_nonnull (strstr (r3.out, "--csv-step"));

  run_cli (&r4, "help", "check", NULL);
  g_assert_cmpint (r4.status, ==, 0);
  g_assert_nonnull (strstr (r4.out, "--set"));
}

static void
assert_usage_error (CliResult  *r,
                    const char *message)
{
  g_assert_cmpint (r->status, ==, 2);
  g_assert_nonnull (strstr (r->err, message));
  qd_test_assert_usage_hint (r->err);
  g_assert_cmpstr (r->out, ==, "");
}

static void
test_cli_usage_errors (void)
{
  g_autofree char *cellier = example ("cellier-first-order.qdevs");
  g_auto(CliResult) r1 = { 0 }, r2 = { 0 }, r3 = { 0 }, r4 = { 0 }, r5 = { 0 }, r6 = { 0 };

  run_cli (&r1, "frobnicate", NULL);
  assert_usage_error (&r1, "qdevs-cli: unknown command 'frobnicate'");

  run_cli (&r2, "run", NULL);
  assert_usage_error (&r2, "qdevs-cli run: missing FILE");

  run_cli (&r3, "run", "--bogus", cellier, NULL);
  assert_usage_error (&r3, "qdevs-cli run: ");
  g_assert_nonnull (strstr (r3.err, "--bogus"));

  run_cli (&r4, "check", cellier, "--set", "k", NULL);
  assert_usage_error (&r4, "qdevs-cli check: --set 'k' is not of the form NAME=VALUE");

  run_cli (&r5, "run", cellier, "extra", NULL);
  assert_usage_error (&r5, "unexpected argument 'extra'");

  run_cli (&r6, NULL, NULL);
  g_assert_cmpint (r6.status, ==, 2);
}

static void
test_cli_file_errors (void)
{
  g_autofree char *missing = g_build_filename (tmp_dir, "missing.qdevs", NULL);
  g_autofree char *syntax = write_model ("syntax.qdevs",
                                         "{\n  \"format\": \"qdevs\",\n  \"version\": 1 \"title\": \"x\"\n}\n");
  g_autofree char *syntax_prefix = g_strconcat (syntax, ":3:", NULL);
  g_autofree char *missing_prefix = g_strconcat (missing, ": ", NULL);
  g_auto(CliResult) r1 = { 0 }, r2 = { 0 }, r3 = { 0 };

  run_cli (&r1, "run", missing, NULL);
  g_assert_cmpint (r1.status, ==, 1);
  g_assert_true (g_str_has_prefix (r1.err, missing_prefix));
  g_assert_cmpuint (count_lines (r1.err), ==, 1);

  /* A syntax error points at line 3 (and a column) of the file. */
  run_cli (&r2, "run", syntax, NULL);
  g_assert_cmpint (r2.status, ==, 1);
  g_assert_true (g_str_has_prefix (r2.err, syntax_prefix));
  g_assert_cmpuint (count_lines (r2.err), ==, 1);

  run_cli (&r3, "check", syntax, NULL);
  g_assert_cmpint (r3.status, ==, 1);
  g_assert_true (g_str_has_prefix (r3.err, syntax_prefix));
}

static void
test_cli_model_errors (void)
{
  /* Two unconnected inputs: check lists both, each with the block path. */
  g_autofree char *path = write_model ("unconnected.qdevs",
    "{\"format\": \"qdevs\", \"version\": 1, \"title\": \"\", \"description\": \"\",\n"
    " \"simulation\": {\"start\": 0, \"final\": 1, \"method\": \"QSS1\", \"dqmin\": 1e-06, \"dqrel\": 0.001, \"illegitimacy_limit\": 1000000},\n"
    " \"variables\": {},\n"
    " \"blocks\": [\n"
    "  {\"id\": \"b1\", \"type\": \"integrator\", \"name\": \"Integrator\", \"position\": [0, 0], \"size\": [60, 40]},\n"
    "  {\"id\": \"b2\", \"type\": \"gain\", \"name\": \"Gain\", \"position\": [0, 100], \"size\": [60, 40]},\n"
    "  {\"id\": \"b3\", \"type\": \"scope\", \"name\": \"Scope\", \"position\": [200, 0], \"size\": [60, 60], \"params\": {\"n\": \"2\"}}],\n"
    " \"links\": [\n"
    "  {\"id\": \"l1\", \"from\": {\"block\": \"b1\", \"port\": 0}, \"to\": [{\"block\": \"b3\", \"port\": 0}]},\n"
    "  {\"id\": \"l2\", \"from\": {\"block\": \"b2\", \"port\": 0}, \"to\": [{\"block\": \"b3\", \"port\": 1}]}]}\n");
  g_autofree char *integrator_prefix = g_strconcat (path, ": /Integrator: ", NULL);
  g_autofree char *gain_prefix = g_strconcat (path, ": /Gain: ", NULL);
  g_auto(CliResult) r1 = { 0 }, r2 = { 0 };
  g_auto(GStrv) lines = NULL;

  run_cli (&r1, "check", path, NULL);
  g_assert_cmpint (r1.status, ==, 1);
  g_assert_cmpstr (r1.out, ==, "");
  lines = g_strsplit (r1.err, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 3);   /* two lines and "" */
  g_assert_true ((g_str_has_prefix (lines[0], integrator_prefix) && g_str_has_prefix (lines[1], gain_prefix))
                 || (g_str_has_prefix (lines[1], integrator_prefix) && g_str_has_prefix (lines[0], gain_prefix)));
  g_assert_nonnull (strstr (r1.err, "not connected"));

  run_cli (&r2, "run", path, NULL);
  g_assert_cmpint (r2.status, ==, 1);
  g_assert_cmpstr (r2.err, ==, r1.err);
}

/* Bad parameters in three blocks: check lists every one, the loader's
 * and the check's (it stopped at the first before), one line each with
 * the block path; run still refuses the file at the first. */
static void
test_cli_check_lists_every_problem (void)
{
  g_autofree char *path = write_model ("bad-params.qdevs",
    "{\"format\": \"qdevs\", \"version\": 1, \"blocks\": [\n"
    "  {\"id\": \"c\", \"type\": \"constant\", \"name\": \"C\", \"params\": {\"value\": \"1+\"}},\n"
    "  {\"id\": \"g\", \"type\": \"gain\", \"name\": \"Gain\", \"params\": {\"kk\": \"2\"}},\n"
    "  {\"id\": \"i\", \"type\": \"integrator\", \"name\": \"Integrator\", \"params\": {\"method\": \"QSS9\"}}],\n"
    " \"links\": [{\"id\": \"l1\", \"from\": {\"block\": \"c\", \"port\": 0}, \"to\": [{\"block\": \"g\", \"port\": 0}]},\n"
    "  {\"id\": \"l2\", \"from\": {\"block\": \"g\", \"port\": 0}, \"to\": [{\"block\": \"i\", \"port\": 0}]}]}\n");
  g_autofree char *expected = g_strdup_printf (
    "%s: /C: parameter 'value': column 3: unexpected end of the expression\n"
    "%s: /Integrator: parameter 'method': 'QSS9' is not one of QSS1, QSS2, "
    "QSS3, QSS4, LIQSS1, LIQSS2, LIQSS3, BQSS, CQSS, LIQSS2-QSSolver, mLIQSS1, mLIQSS2, QSS3-PowerDEVS (or empty for the model's "
    "default)\n"
    "%s: /Gain: unknown parameter 'kk' (Gain has: k)\n", path, path, path);
  g_autofree char *first = g_strdup_printf (
    "%s: /C: parameter 'value': column 3: unexpected end of the expression\n",
    path);
  g_auto(CliResult) r1 = { 0 }, r2 = { 0 };

  run_cli (&r1, "check", path, NULL);
  g_assert_cmpint (r1.status, ==, 1);
  g_assert_cmpstr (r1.out, ==, "");
  g_assert_cmpstr (r1.err, ==, expected);

  run_cli (&r2, "run", path, NULL);
  g_assert_cmpint (r2.status, ==, 1);
  g_assert_cmpstr (r2.err, ==, first);
}

static void
test_cli_check_ok (void)
{
  g_autofree char *cellier = example ("cellier-first-order.qdevs");
  g_autofree char *expected = g_strconcat (cellier, ": OK (5 blocks, 4 links)\n", NULL);
  g_auto(CliResult) r = { 0 };

  run_cli (&r, "check", cellier, NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.out, ==, expected);
  g_assert_cmpstr (r.err, ==, "");
}

/* A legitimate model that exceeds its own illegitimacy limit: a constant
 * through a chain of 12 gains makes 13 internal transitions at t = 0, and
 * the file allows 10. */
static void
test_cli_run_error (void)
{
  g_autofree char *text = qd_test_illegitimate_chain ();
  g_autofree char *path = NULL;
  g_autofree char *prefix = NULL;
  g_auto(CliResult) r = { 0 };

  path = write_model ("illegitimate.qdevs", text);
  prefix = g_strconcat (path, ": ", NULL);

  run_cli (&r, "run", path, NULL);
  g_assert_cmpint (r.status, ==, 3);
  g_assert_true (g_str_has_prefix (r.err, prefix));
  g_assert_nonnull (strstr (r.err, "illegitimate"));
  g_assert_cmpuint (count_lines (r.err), ==, 1);
}

/* A block that fails during the run: the error names the file, then the
 * block. */
static void
test_cli_run_error_block (void)
{
  g_autofree char *path = write_model ("division.qdevs", qd_test_model_division);
  g_autofree char *prefix = g_strconcat (path, ": /Division: ", NULL);
  g_auto(CliResult) r = { 0 };

  run_cli (&r, "run", path, "--stats-json", NULL);
  g_assert_cmpint (r.status, ==, 3);
  g_assert_true (g_str_has_prefix (r.err, prefix));
  g_assert_cmpuint (count_lines (r.err), ==, 1);
  /* No statistics after a failed run. */
  g_assert_cmpstr (r.out, ==, "");
}

static json_object *
parse_single_json (const char *text)
{
  json_tokener *tok = json_tokener_new ();
  json_object *obj = json_tokener_parse_ex (tok, text, (int) strlen (text));
  size_t end = json_tokener_get_parse_end (tok);

  g_assert_nonnull (obj);
  /* Exactly one value on one line: nothing but blanks after it. */
  g_assert_true (g_str_has_suffix (text, "\n"));
  g_assert_cmpuint (count_lines (text), ==, 1);
  for (const char *p = text + end; *p != '\0'; p++)
    g_assert_true (g_ascii_isspace (*p));
  json_tokener_free (tok);
  return obj;
}

static gint64
get_int (json_object *obj,
         const char  *key)
{
  json_object *value = NULL;

  g_assert_true (json_object_object_get_ex (obj, key, &value));
  g_assert_cmpint (json_object_get_type (value), ==, json_type_int);
  return json_object_get_int64 (value);
}

static double
get_double (json_object *obj,
            const char  *key)
{
  json_object *value = NULL;

  g_assert_true (json_object_object_get_ex (obj, key, &value));
  g_assert_cmpint (json_object_get_type (value), ==, json_type_double);
  return json_object_get_double (value);
}

/* Ctrl-C during a long run: the run stops, the results up to that time
 * are written as usual (here a sampled CSV and the statistics), a line on
 * standard error says where it stopped, and the exit status is 130, as a
 * shell reports a command ended by SIGINT. */
static void
test_cli_interrupt (void)
{
  g_autofree char *cli = g_build_filename (g_getenv ("QD_BUILD_DIR"), "app", "qdevs-cli", NULL);
  g_autofree char *source = example ("lotka-volterra.qdevs");
  g_autofree char *text = NULL;
  g_autofree char *model = NULL;
  g_autofree char *csv = g_build_filename (tmp_dir, "interrupted.csv", NULL);
  g_autofree char *csv_text = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) parts = NULL;
  /* A step that keeps the file of the whole run (to 1e12) within the
   * rows a CSV may have. */
  char *argv[] = { cli, "run", NULL, "--csv", csv, "--csv-step", "2e4",
                   "--stats-json", NULL };
  json_object *stats;
  int out_fd, err_fd, wait_status;
  double t_stop;
  GPid pid;

  /* The example with a final time that no run reaches. */
  g_assert_true (g_file_get_contents (source, &text, NULL, &error));
  parts = g_strsplit (text, "\"final\": 300,", 2);
  g_assert_cmpuint (g_strv_length (parts), ==, 2);
  g_free (text);
  text = g_strjoin ("\"final\": 1e12,", parts[0], parts[1], NULL);
  model = write_model ("interrupted.qdevs", text);
  argv[2] = model;

  /* A second after the start the run is well under way, sanitizers or
   * not; should the signal still come before the run (a slow start on a
   * loaded machine: it then ends the program, as Ctrl-C does there), the
   * test tries once more with a longer wait. */
  for (guint wait_s = 1; wait_s <= 5; wait_s += 4)
    {
      g_clear_pointer (&out, g_free);
      g_clear_pointer (&err, g_free);
      g_assert_true (g_spawn_async_with_pipes (NULL, argv, NULL,
                                               G_SPAWN_DO_NOT_REAP_CHILD,
                                               NULL, NULL, &pid, NULL,
                                               &out_fd, &err_fd, &error));
      g_assert_no_error (error);
      g_usleep (wait_s * G_USEC_PER_SEC);
      g_assert_cmpint (kill (pid, SIGINT), ==, 0);
      out = qd_test_read_fd (out_fd);
      err = qd_test_read_fd (err_fd);
      g_assert_cmpint (waitpid (pid, &wait_status, 0), ==, pid);
      g_spawn_close_pid (pid);
      if (!(WIFSIGNALED (wait_status) && WTERMSIG (wait_status) == SIGINT))
        break;
    }

  g_assert_true (WIFEXITED (wait_status));
  g_assert_cmpint (WEXITSTATUS (wait_status), ==, 130);
  g_assert_true (g_str_has_prefix (err, model));
  g_assert_nonnull (strstr (err, ": interrupted at t = "));
  g_assert_nonnull (strstr (err, " (the final time is 1e+12); the results "
                                 "up to that time follow\n"));
  t_stop = g_ascii_strtod (strstr (err, "t = ") + 4, NULL);
  g_assert_cmpfloat (t_stop, >, 0.0);
  g_assert_cmpfloat (t_stop, <, 1e12);

  /* The statistics and the CSV cover the run up to t_stop. */
  stats = parse_single_json (out);
  /* final_time is the time reached; the message gives 6 digits of it. */
  g_assert_cmpfloat (fabs (get_double (stats, "final_time") - t_stop), <=, 1e-5 * t_stop);
  g_assert_cmpint (get_int (stats, "integrator_steps"), >, 0);
  json_object_put (stats);
  g_assert_true (g_file_get_contents (csv, &csv_text, NULL, &error));
  g_assert_cmpuint (count_lines (csv_text), >=, (guint) (t_stop / 2e4));
  g_assert_cmpuint (count_lines (csv_text), <=, (guint) (t_stop / 2e4) + 3);
}

static void
test_cli_stats_json (void)
{
  static const char *const keys[] = {
    "blocks", "stats", "events", "transitions", "integrator_steps", "final_time", "wall_s", "events_per_s",
    "trace_bytes", "trace_budget_bytes",
  };
  g_autofree char *cellier = example ("cellier-first-order.qdevs");
  g_auto(CliResult) r = { 0 };
  json_object *root, *blocks;
  gint64 sum_internal = 0, sum_all = 0, integrator_internal = -1;

  run_cli (&r, "run", cellier, "--stats-json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  root = parse_single_json (r.out);
  g_assert_cmpint (json_object_get_type (root), ==, json_type_object);
  g_assert_cmpint (json_object_object_length (root), ==, G_N_ELEMENTS (keys));
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    g_assert_true (json_object_object_get_ex (root, keys[i], NULL));

  g_assert_true (json_object_object_get_ex (root, "blocks", &blocks));
  g_assert_cmpint (json_object_get_type (blocks), ==, json_type_array);
  g_assert_cmpuint (json_object_array_length (blocks), ==, 5);
  for (size_t i = 0; i < json_object_array_length (blocks); i++)
    {
      json_object *block = json_object_array_get_idx (blocks, i);
      json_object *path, *type;
      gint64 internal = get_int (block, "internal");
      gint64 external = get_int (block, "external");

      g_assert_cmpint (json_object_object_length (block), ==, 4);
      g_assert_true (json_object_object_get_ex (block, "path", &path));
      g_assert_true (json_object_object_get_ex (block, "type", &type));
      g_assert_cmpint (json_object_get_type (path), ==, json_type_string);
      g_assert_cmpint (json_object_get_type (type), ==, json_type_string);
      g_assert_true (json_object_get_string (path)[0] == '/');
      sum_internal += internal;
      sum_all += internal + external;
      if (strcmp (json_object_get_string (path), "/Integrator") == 0)
        {
          g_assert_cmpstr (json_object_get_string (type), ==, "integrator");
          integrator_internal = internal;
        }
    }

  g_assert_cmpint (sum_all, ==, get_int (root, "transitions"));
  g_assert_cmpint (sum_internal, ==, get_int (root, "events"));
  /* The integrator's internal transitions are the integrator steps: the
   * initial output and the 16 changes of q in Cellier's example. */
  g_assert_cmpint (integrator_internal, ==, get_int (root, "integrator_steps"));
  g_assert_cmpint (integrator_internal, ==, 17);
  g_assert_cmpfloat (get_double (root, "final_time"), ==, 5.0);
  g_assert_cmpfloat (get_double (root, "wall_s"), >=, 0.0);
  g_assert_cmpfloat (get_double (root, "events_per_s"), >=, 0.0);
  json_object_put (root);
}

/* --solver runs the model under a classic solver; --stats-json and
 * --stats report its statistics; a bad name or option is a usage error,
 * a solver failure a run error (exit 3) in words. */
static void
test_cli_solver (void)
{
  g_autofree char *decay = example ("exp-decay.qdevs");
  g_auto(CliResult) r = { 0 };
  g_auto(CliResult) t = { 0 };
  g_auto(CliResult) bad = { 0 };
  g_auto(CliResult) opt = { 0 };
  g_auto(CliResult) fail = { 0 };
  json_object *root, *solver;

  run_cli (&r, "run", decay, "--solver", "rk4:h=0.05", "--stats-json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  root = parse_single_json (r.out);
  g_assert_true (json_object_object_get_ex (root, "solver", &solver));
  g_assert_cmpstr (json_object_get_string (json_object_object_get (solver, "method")),
                   ==, "rk4");
  /* 5 s in steps of 0.05: four stages and y' at the end of each, y' at
   * the start, and ARKODE's own at the start. */
  g_assert_cmpint (get_int (solver, "steps"), ==, 100);
  g_assert_cmpint (get_int (solver, "rhs_evals"), ==, 100 * 5 + 2);
  g_assert_cmpint (get_int (solver, "failed_steps"), ==, 0);
  g_assert_cmpint (get_int (solver, "root_stops"), ==, 0);
  g_assert_cmpint (get_int (solver, "root_evals"), ==, 0);
  g_assert_cmpint (get_int (solver, "time_events"), ==, 0);
  g_assert_cmpint (get_int (solver, "jac_evals"), ==, 0);
  json_object_put (root);

  run_cli (&t, "run", decay, "--solver", "cvode-bdf:rtol=1e-8", "--stats", NULL);
  g_assert_cmpint (t.status, ==, 0);
  g_assert_nonnull (strstr (t.out, "Solver:              cvode-bdf (1 states)"));
  g_assert_nonnull (strstr (t.out, "RHS evaluations:"));
  g_assert_nonnull (strstr (t.out, "Root stops:"));
  g_assert_nonnull (strstr (t.out, "Root evaluations:    0\n"));
  /* No discontinuity: the solver never started again. */
  g_assert_nonnull (strstr (t.out, "Restarts:            0\n"));

  run_cli (&bad, "run", decay, "--solver", "rk45", NULL);
  g_assert_cmpint (bad.status, ==, 2);
  g_assert_nonnull (strstr (bad.err, "solver 'rk45' is not one of qss, cvode-bdf"));
  run_cli (&opt, "run", decay, "--solver", "rk4:step=0.1", NULL);
  g_assert_cmpint (opt.status, ==, 2);
  g_assert_nonnull (strstr (opt.err, "solver option 'step'"));

  run_cli (&fail, "run", decay, "--solver", "cvode-adams:rtol=1e-30,atol=1e-40", NULL);
  g_assert_cmpint (fail.status, ==, 3);
  g_assert_nonnull (strstr (fail.err, "exp-decay.qdevs: the solver cvode-adams failed at t = 0: the tolerances are too small"));
}

static void
test_cli_stats_table (void)
{
  g_autofree char *cellier = example ("cellier-first-order.qdevs");
  g_auto(CliResult) r = { 0 };

  run_cli (&r, "run", cellier, "--stats", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "/Integrator"));
  g_assert_nonnull (strstr (r.out, "integrator"));
  g_assert_nonnull (strstr (r.out, "Integrator steps:"));
  g_assert_nonnull (strstr (r.out, "Events per second:"));
}

static void
test_cli_until_and_set (void)
{
  g_autofree char *cellier = example ("cellier-first-order.qdevs");
  g_autofree char *model = write_model ("variable.qdevs", model_with_variable);
  g_auto(CliResult) r1 = { 0 }, r2 = { 0 }, r3 = { 0 }, r4 = { 0 }, r5 = { 0 };
  json_object *root;

  /* --until replaces the final time, both earlier and later. */
  run_cli (&r1, "run", cellier, "--until", "1", "--stats-json", NULL);
  g_assert_cmpint (r1.status, ==, 0);
  root = parse_single_json (r1.out);
  g_assert_cmpfloat (get_double (root, "final_time"), ==, 1.0);
  /* Steps at 0, 0.1, ... up to 0.8456 (q = 4). */
  g_assert_cmpint (get_int (root, "integrator_steps"), ==, 7);
  json_object_put (root);

  run_cli (&r2, "run", cellier, "--until", "8", "--stats-json", NULL);
  g_assert_cmpint (r2.status, ==, 0);
  root = parse_single_json (r2.out);
  g_assert_cmpfloat (get_double (root, "final_time"), ==, 8.0);
  g_assert_cmpint (get_int (root, "integrator_steps"), ==, 17);
  json_object_put (root);

  /* Not a finite time: a usage error (NaN used to read as no --until). */
  {
    static const char *const bad[] = { "nan", "inf", "1e400", "8s" };

    for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
      {
        g_auto(CliResult) r = { 0 };
        g_autofree char *message =
          g_strdup_printf ("--until must be a finite time, such as 20 (not '%s')", bad[i]);

        run_cli (&r, "run", cellier, "--until", bad[i], NULL);
        assert_usage_error (&r, message);
      }
  }

  /* k = 0 freezes the state: only the initial output remains. */
  run_cli (&r3, "run", model, "--stats-json", NULL);
  g_assert_cmpint (r3.status, ==, 0);
  root = parse_single_json (r3.out);
  g_assert_cmpint (get_int (root, "integrator_steps"), >, 50);
  json_object_put (root);

  run_cli (&r4, "run", model, "--set", "k=0", "--stats-json", NULL);
  g_assert_cmpint (r4.status, ==, 0);
  root = parse_single_json (r4.out);
  g_assert_cmpint (get_int (root, "integrator_steps"), ==, 1);
  json_object_put (root);

  /* A --set that does not evaluate is a model error naming the file. */
  run_cli (&r5, "run", model, "--set", "k=nosuchname", NULL);
  g_assert_cmpint (r5.status, ==, 1);
  g_assert_true (g_str_has_prefix (r5.err, model));
  g_assert_nonnull (strstr (r5.err, "nosuchname"));
}

static void
test_cli_csv (void)
{
  g_autofree char *cellier = example ("cellier-first-order.qdevs");
  g_autofree char *out = g_build_filename (tmp_dir, "cellier.csv", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(CliResult) r1 = { 0 }, r2 = { 0 }, r3 = { 0 };
  g_auto(GStrv) lines = NULL;
  guint n;

  run_cli (&r1, "run", cellier, "--csv", out, NULL);
  g_assert_cmpint (r1.status, ==, 0);
  g_file_get_contents (out, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  n = g_strv_length (lines);
  /* Header, the 17 event rows, the row at the final time, "" after the
   * last newline. */
  g_assert_cmpuint (n, ==, 1 + 17 + 1 + 1);
  g_assert_cmpstr (lines[0], ==, "time,/Scope/x");
  g_assert_cmpstr (lines[1], ==, "0,10");
  g_assert_true (g_str_has_suffix (lines[2], ",9"));
  g_assert_cmpfloat_with_epsilon (g_ascii_strtod (lines[2], NULL), 0.1, 1e-12);
  g_assert_cmpstr (lines[n - 2], ==, "5,10");
  g_assert_cmpstr (lines[n - 1], ==, "");
  g_clear_pointer (&lines, g_strfreev);
  g_clear_pointer (&text, g_free);

  /* Sampled: t = 0, 0.5, ..., 5. At t = 0.5, q = 6 (since 0.479). */
  run_cli (&r2, "run", cellier, "--csv", out, "--csv-step", "0.5", NULL);
  g_assert_cmpint (r2.status, ==, 0);
  g_file_get_contents (out, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + 11 + 1);
  g_assert_cmpstr (lines[2], ==, "0.5,6");
  g_assert_cmpstr (lines[11], ==, "5,10");

  /* No temporary file is left next to the output. */
  {
    GDir *dir = g_dir_open (tmp_dir, 0, NULL);
    const char *name;

    while ((name = g_dir_read_name (dir)) != NULL)
      g_assert_false (g_str_has_prefix (name, "cellier.csv."));
    g_dir_close (dir);
  }

  /* An unwritable destination is a file error that names it. */
  run_cli (&r3, "run", cellier, "--csv", "/nonexistent-dir/out.csv", NULL);
  g_assert_cmpint (r3.status, ==, 1);
  g_assert_true (g_str_has_prefix (r3.err, "/nonexistent-dir/out.csv: "));
}

/* Counts the rows of an event log of kind @kind (its fourth field), for
 * block @path or any block (NULL). */
static guint
count_log_rows (char       **lines,
                const char  *path,
                const char  *kind)
{
  guint n = 0;

  for (guint k = 1; lines[k] != NULL && lines[k][0] != '\0'; k++)
    {
      g_auto(GStrv) f = g_strsplit (lines[k], ",", -1);

      g_assert_cmpuint (g_strv_length (f), ==, 13);
      if (g_str_equal (f[3], kind) && (path == NULL || g_str_equal (f[2], path)))
        n++;
    }
  return n;
}

/* A Weighted Sum whose second input ("port": 1 in the file) is driven
 * by a Constant; with @both, its first input by another. */
static char *
write_two_input_model (const char *name,
                       gboolean    both)
{
  g_autofree char *text = g_strdup_printf (
    "{\"format\": \"qdevs\", \"version\": 1,\n"
    " \"simulation\": {\"final\": 1},\n"
    " \"blocks\": [\n"
    "  {\"id\": \"b1\", \"type\": \"constant\", \"name\": \"A\", \"position\": [0, 0], \"size\": [60, 40]},\n"
    "  {\"id\": \"b2\", \"type\": \"constant\", \"name\": \"B\", \"position\": [0, 100], \"size\": [60, 40]},\n"
    "  {\"id\": \"b3\", \"type\": \"wsum\", \"name\": \"Sum\", \"position\": [200, 0], \"size\": [60, 40]}],\n"
    " \"links\": [\n"
    "%s"
    "  {\"id\": \"l2\", \"from\": {\"block\": \"b2\", \"port\": 0}, \"to\": [{\"block\": \"b3\", \"port\": 1}]}]}\n",
    both ? "  {\"id\": \"l1\", \"from\": {\"block\": \"b1\", \"port\": 0}, \"to\": [{\"block\": \"b3\", \"port\": 0}]},\n" : "");

  return write_model (name, text);
}

/* Messages and the event log number a port the same way, from 1 (the
 * file's "port" is an index from 0): the Sum's second input is "input 2"
 * in check's message when nothing drives it, and port 2 in the log when
 * B's value reaches it; a link to an input that does not exist names
 * both numbers. */
static void
test_cli_port_numbers (void)
{
  g_autofree char *loose = write_two_input_model ("ports-loose.qdevs", FALSE);
  g_autofree char *wired = write_two_input_model ("ports-wired.qdevs", TRUE);
  g_autofree char *log = g_build_filename (tmp_dir, "ports.csv", NULL);
  g_autofree char *text = NULL;
  g_autofree char *bad_text = NULL;
  g_autofree char *bad = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(CliResult) r1 = { 0 }, r2 = { 0 }, r3 = { 0 };

  /* A's link is missing: the first input ("port": 0) is input 1. */
  run_cli (&r1, "check", loose, NULL);
  g_assert_cmpint (r1.status, ==, 1);
  g_assert_nonnull (strstr (r1.err, "/Sum: input 1 is not connected"));

  run_cli (&r2, "run", wired, "--events", log, NULL);
  g_assert_cmpint (r2.status, ==, 0);
  g_file_get_contents (log, &text, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (strstr (text, "\n1,0,/Sum,external,1,"));
  g_assert_nonnull (strstr (text, "\n2,0,/Sum,external,2,"));
  g_assert_null (strstr (text, "/Sum,external,0,"));
  g_assert_nonnull (strstr (text, "\n1,0,/A,output,1,"));

  g_file_get_contents (wired, &bad_text, NULL, &error);
  g_assert_no_error (error);
  {
    g_autoptr(GString) edited = g_string_new (bad_text);

    g_string_replace (edited, "\"port\": 1}", "\"port\": 3}", 1);
    bad = write_model ("ports-bad.qdevs", edited->str);
  }
  run_cli (&r3, "check", bad, NULL);
  g_assert_cmpint (r3.status, ==, 1);
  g_assert_nonnull (strstr (r3.err, "link l2: /Sum has 2 inputs, so input 4 (\"port\": 3) does not exist"));
}

/* --events: every transition of the run, as DEVS executes it, and as
 * many as the statistics count. */
static void
test_cli_events (void)
{
  g_autofree char *model = write_model ("events.qdevs", model_with_variable);
  g_autofree char *out = g_build_filename (tmp_dir, "events.csv", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  json_object *stats;
  g_auto(CliResult) r1 = { 0 }, r2 = { 0 }, r3 = { 0 }, r4 = { 0 }, r5 = { 0 };
  g_auto(GStrv) lines = NULL;
  json_object *blocks;
  guint64 events, transitions, outputs = 0;

  run_cli (&r1, "run", model, "--events", out, "--stats-json", NULL);
  g_assert_cmpint (r1.status, ==, 0);
  stats = parse_single_json (r1.out);
  g_file_get_contents (out, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpstr (lines[0], ==, "event,time,block,transition,port,elapsed,ta,order,c0,c1,c2,c3,tag");
  /* x(0) = 1 goes out, and with no derivative yet x waits for ever; the
   * Gain and the Scope receive it. The Gain answers -1 at once, and x,
   * now falling at 1 per second, is a quantum (0.01) away at 0.01. */
  g_assert_cmpstr (lines[1], ==, "1,0,/Integrator,output,1,,,0,1,,,,0");
  g_assert_cmpstr (lines[2], ==, "1,0,/Integrator,internal,,0,inf,,,,,,");
  g_assert_cmpstr (lines[3], ==, "1,0,/Gain,external,1,0,0,0,1,,,,0");
  g_assert_cmpstr (lines[4], ==, "1,0,/Scope,external,1,0,inf,0,1,,,,0");
  g_assert_cmpstr (lines[5], ==, "2,0,/Gain,output,1,,,0,-1,,,,0");
  g_assert_cmpstr (lines[6], ==, "2,0,/Gain,internal,,0,inf,,,,,,");
  g_assert_cmpstr (lines[7], ==, "2,0,/Integrator,external,1,0,0.01,0,-1,,,,0");
  g_assert_true (g_str_has_prefix (lines[8], "3,0.01,/Integrator,output,1,,,0,0.98999"));

  events = get_int (stats, "events");
  transitions = get_int (stats, "transitions");
  g_assert_cmpuint (count_log_rows (lines, NULL, "internal"), ==, events);
  g_assert_cmpuint (count_log_rows (lines, NULL, "external"), ==, transitions - events);
  blocks = json_object_object_get (stats, "blocks");
  for (gsize b = 0; b < json_object_array_length (blocks); b++)
    {
      json_object *block = json_object_array_get_idx (blocks, b);
      const char *path = json_object_get_string (json_object_object_get (block, "path"));

      g_assert_cmpuint (count_log_rows (lines, path, "internal"), ==, get_int (block, "internal"));
      g_assert_cmpuint (count_log_rows (lines, path, "external"), ==, get_int (block, "external"));
      /* The integrator and the gain emit at each event; the scope never. */
      outputs += count_log_rows (lines, path, "output");
    }
  g_assert_cmpuint (outputs, ==, count_log_rows (lines, "/Integrator", "internal")
                                 + count_log_rows (lines, "/Gain", "internal"));
  g_assert_cmpuint (g_strv_length (lines), ==, 1 + outputs + transitions + 1);
  json_object_put (stats);
  g_clear_pointer (&lines, g_strfreev);
  g_clear_pointer (&text, g_free);

  /* The first rows only, and a word about the rest. */
  run_cli (&r2, "run", model, "--events", out, "--events-limit", "5", NULL);
  g_assert_cmpint (r2.status, ==, 0);
  g_assert_nonnull (strstr (r2.err, "holds the first 5 rows, its limit; "));
  g_assert_nonnull (strstr (r2.err, "raise --events-limit"));
  g_file_get_contents (out, &text, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_lines (text), ==, 1 + 5);

  run_cli (&r3, "run", model, "--events-limit", "5", NULL);
  g_assert_cmpint (r3.status, ==, 2);
  g_assert_nonnull (strstr (r3.err, "--events-limit needs --events OUT"));
  run_cli (&r4, "run", model, "--events", out, "--events-limit", "-1", NULL);
  g_assert_cmpint (r4.status, ==, 2);
  g_assert_nonnull (strstr (r4.err, "--events-limit must be"));
  /* An unwritable log is a file error that names it, before the run. */
  run_cli (&r5, "run", model, "--events", "/nonexistent-dir/log.csv", NULL);
  g_assert_cmpint (r5.status, ==, 1);
  g_assert_true (g_str_has_prefix (r5.err, "/nonexistent-dir/log.csv: "));
}

/* The tag column follows an entity of a discrete-event model: the first
 * one leaves the Generator, passes the Queue and is served. */
static void
test_cli_events_entities (void)
{
  g_autofree char *model = example ("queue-server.qdevs");
  g_autofree char *out = g_build_filename (tmp_dir, "entities.csv", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) path = g_ptr_array_new_with_free_func (g_free);
  g_auto(CliResult) r = { 0 };
  g_auto(GStrv) lines = NULL;
  const char *expected[] = {
    "/Generator output 1", "/Queue external 1", "/Queue output 1",
    "/Server external 1", "/Server output 1",
  };

  run_cli (&r, "run", model, "--events", out, "--events-limit", "400", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_file_get_contents (out, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint k = 1; lines[k] != NULL && lines[k][0] != '\0'; k++)
    {
      g_auto(GStrv) f = g_strsplit (lines[k], ",", -1);

      g_assert_cmpuint (g_strv_length (f), ==, 13);
      if (g_str_equal (f[12], "1") && !g_str_equal (f[3], "internal")
          && (g_str_equal (f[2], "/Generator") || g_str_equal (f[2], "/Queue")
              || g_str_equal (f[2], "/Server")))
        g_ptr_array_add (path, g_strdup_printf ("%s %s %s", f[2], f[3], f[4]));
    }
  g_assert_cmpuint (path->len, >=, G_N_ELEMENTS (expected));
  for (guint k = 0; k < G_N_ELEMENTS (expected); k++)
    g_assert_cmpstr (g_ptr_array_index (path, k), ==, expected[k]);
}

/* A run that fails still leaves its log, up to the failure: the
 * Division's infinite output is its last row. */
static void
test_cli_events_error (void)
{
  g_autofree char *model = write_model ("events-division.qdevs", qd_test_model_division);
  g_autofree char *out = g_build_filename (tmp_dir, "events-division.csv", NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(CliResult) r = { 0 };
  g_auto(GStrv) lines = NULL;
  guint n;

  run_cli (&r, "run", model, "--events", out, NULL);
  g_assert_cmpint (r.status, ==, 3);
  g_assert_nonnull (strstr (r.err, "/Division: "));
  g_file_get_contents (out, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  n = g_strv_length (lines);
  g_assert_cmpuint (n, >=, 3);
  g_assert_cmpstr (lines[n - 1], ==, "");
  g_assert_true (g_str_has_prefix (lines[n - 2], "3,0,/Division,internal,"));
  g_assert_true (g_str_has_prefix (lines[n - 3], "3,0,/Division,output,1,,,0,inf,"));
}

/* The width and height in a PNG's header (IHDR, big-endian, after the
 * 8-byte signature and the chunk's length and type). */
static void
assert_png (const char *path,
            guint       width,
            guint       height)
{
  static const guchar magic[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
  g_autofree guchar *data = NULL;
  g_autoptr(GError) error = NULL;
  gsize length = 0;

  g_file_get_contents (path, (char **) &data, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (length, >, 24);
  g_assert_cmpmem (data, 8, magic, 8);
  g_assert_cmpmem (data + 12, 4, "IHDR", 4);
  g_assert_cmpuint (GUINT32_FROM_BE (*(guint32 *) (data + 16)), ==, width);
  g_assert_cmpuint (GUINT32_FROM_BE (*(guint32 *) (data + 20)), ==, height);
}

/* A model with two Scopes: the image gets one panel each. */
static const char model_two_scopes[] =
  "{\"format\": \"qdevs\", \"version\": 1, \"title\": \"Two scopes\", \"description\": \"\",\n"
  " \"simulation\": {\"start\": 0, \"final\": 2, \"method\": \"QSS2\", \"dqmin\": 0.001, \"dqrel\": 0, \"illegitimacy_limit\": 1000000},\n"
  " \"blocks\": [\n"
  "  {\"id\": \"b1\", \"type\": \"integrator\", \"name\": \"Integrator\", \"position\": [0, 0], \"size\": [60, 40], \"params\": {\"x0\": \"1\"}},\n"
  "  {\"id\": \"b2\", \"type\": \"gain\", \"name\": \"Gain\", \"position\": [0, 100], \"size\": [60, 40], \"params\": {\"k\": \"-1\"}},\n"
  "  {\"id\": \"b3\", \"type\": \"scope\", \"name\": \"State\", \"position\": [200, 0], \"size\": [60, 40]},\n"
  "  {\"id\": \"b4\", \"type\": \"scope\", \"name\": \"Rate\", \"position\": [200, 100], \"size\": [60, 40]}],\n"
  " \"links\": [\n"
  "  {\"id\": \"l1\", \"from\": {\"block\": \"b1\", \"port\": 0}, \"to\": [{\"block\": \"b2\", \"port\": 0}, {\"block\": \"b3\", \"port\": 0}]},\n"
  "  {\"id\": \"l2\", \"from\": {\"block\": \"b2\", \"port\": 0}, \"to\": [{\"block\": \"b1\", \"port\": 0}, {\"block\": \"b4\", \"port\": 0}]}]}\n";

static void
test_cli_plot (void)
{
  g_autofree char *lv = example ("lotka-volterra.qdevs");
  g_autofree char *png = g_build_filename (tmp_dir, "lv.png", NULL);
  g_autofree char *svg = g_build_filename (tmp_dir, "lv.svg", NULL);
  g_autofree char *pdf = g_build_filename (tmp_dir, "lv.PDF", NULL);
  g_autofree char *gif = g_build_filename (tmp_dir, "lv.gif", NULL);
  g_autofree char *two = write_model ("two-scopes.qdevs", model_two_scopes);
  g_autofree char *no_scope = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(CliResult) r1 = { 0 }, r2 = { 0 }, r3 = { 0 }, r4 = { 0 };
  g_auto(CliResult) r5 = { 0 }, r6 = { 0 }, r7 = { 0 }, r8 = { 0 };
  g_auto(CliResult) r9 = { 0 };
  gsize length = 0;

  run_cli (&r1, "run", lv, "--plot", png, NULL);
  if (r1.status == 2 && strstr (r1.err, "built without plotting (cairo)") != NULL)
    {
      /* A build without Cairo says so and writes nothing. */
      g_assert_false (g_file_test (png, G_FILE_TEST_EXISTS));
      g_test_skip ("qdevs-cli was built without plotting");
      return;
    }
  g_assert_cmpstr (r1.err, ==, "");
  g_assert_cmpint (r1.status, ==, 0);
  /* The default: 1000 wide, a 36-pixel title and 360 per Scope. */
  assert_png (png, 1000, 36 + 360);

  run_cli (&r2, "run", lv, "--plot", png, "--plot-size", "640x480", NULL);
  g_assert_cmpint (r2.status, ==, 0);
  assert_png (png, 640, 480);

  /* Two Scopes, two panels: the default height grows. */
  run_cli (&r3, "run", two, "--plot", png, NULL);
  g_assert_cmpint (r3.status, ==, 0);
  assert_png (png, 1000, 36 + 2 * 360);

  /* --plot-scope keeps one of them: one panel's height. */
  {
    g_auto(CliResult) one = { 0 }, unknown = { 0 }, alone = { 0 };

    run_cli (&one, "run", two, "--plot", png, "--plot-scope", "/Rate", NULL);
    g_assert_cmpstr (one.err, ==, "");
    g_assert_cmpint (one.status, ==, 0);
    assert_png (png, 1000, 36 + 360);

    /* Refused before the run: nothing is simulated or summed up. */
    run_cli (&unknown, "run", two, "--plot", png, "--plot-scope", "/Nope", NULL);
    g_assert_cmpint (unknown.status, ==, 2);
    g_assert_cmpstr (unknown.out, ==, "");
    g_assert_true (g_str_has_prefix (unknown.err, two));
    g_assert_nonnull (strstr (unknown.err, ": --plot-scope '/Nope' is not a Scope with signals; the Scopes are "));
    g_assert_nonnull (strstr (unknown.err, "/State"));
    g_assert_nonnull (strstr (unknown.err, "/Rate"));

    run_cli (&alone, "run", two, "--plot-scope", "/Rate", NULL);
    g_assert_cmpint (alone.status, ==, 2);
    g_assert_true (g_str_has_prefix (alone.err, "qdevs-cli run: --plot-scope needs --plot OUT"));
  }

  run_cli (&r4, "run", lv, "--plot", svg, "--plot-size", "800x400", NULL);
  g_assert_cmpint (r4.status, ==, 0);
  g_file_get_contents (svg, &text, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_str_has_prefix (text, "<?xml"));
  g_assert_nonnull (strstr (text, "<svg"));
  g_assert_nonnull (strstr (text, "width=\"800pt\" height=\"400pt\""));
  g_clear_pointer (&text, g_free);

  /* The extension chooses the type, in either case. */
  run_cli (&r5, "run", lv, "--plot", pdf, "--plot-size", "800x400", NULL);
  g_assert_cmpint (r5.status, ==, 0);
  g_file_get_contents (pdf, &text, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (length, >, 5);
  g_assert_cmpmem (text, 5, "%PDF-", 5);

  /* Usage errors are found before the run, and nothing is written. */
  run_cli (&r6, "run", lv, "--plot", gif, NULL);
  g_assert_cmpint (r6.status, ==, 2);
  g_assert_true (g_str_has_prefix (r6.err, "qdevs-cli run: --plot '"));
  g_assert_nonnull (strstr (r6.err, "end the name with .png, .svg or .pdf"));
  g_assert_false (g_file_test (gif, G_FILE_TEST_EXISTS));
  g_assert_cmpstr (r6.out, ==, "");

  run_cli (&r7, "run", lv, "--plot", png, "--plot-size", "800", NULL);
  g_assert_cmpint (r7.status, ==, 2);
  g_assert_true (g_str_has_prefix (r7.err, "qdevs-cli run: --plot-size '800' is not of the form WxH"));

  run_cli (&r8, "run", lv, "--plot-size", "800x400", NULL);
  g_assert_cmpint (r8.status, ==, 2);
  g_assert_true (g_str_has_prefix (r8.err, "qdevs-cli run: --plot-size needs --plot OUT"));

  /* A model without a Scope has nothing to plot: a model error. */
  no_scope = write_model ("no-scope.qdevs",
    "{\"format\": \"qdevs\", \"version\": 1, \"title\": \"\", \"description\": \"\",\n"
    " \"simulation\": {\"start\": 0, \"final\": 1, \"method\": \"QSS1\", \"dqmin\": 0.01, \"dqrel\": 0, \"illegitimacy_limit\": 1000000},\n"
    " \"blocks\": [{\"id\": \"b1\", \"type\": \"constant\", \"name\": \"Constant\", \"position\": [0, 0], \"size\": [60, 40]}],\n"
    " \"links\": []}\n");
  run_cli (&r9, "run", no_scope, "--plot", png, NULL);
  g_assert_cmpint (r9.status, ==, 1);
  g_assert_true (g_str_has_prefix (r9.err, no_scope));
  g_assert_nonnull (strstr (r9.err, ": the model has no Scope, so there is nothing to plot into "));
}

static void
test_cli_blocks (void)
{
  g_auto(CliResult) r1 = { 0 }, r2 = { 0 };
  json_object *root, *integrator = NULL, *params;
  const char *names[] = { "x0", "method", "dqmin", "dqrel" };

  run_cli (&r1, "blocks", "--json", NULL);
  g_assert_cmpint (r1.status, ==, 0);
  root = json_tokener_parse (r1.out);
  g_assert_nonnull (root);
  g_assert_cmpint (json_object_get_type (root), ==, json_type_array);
  for (size_t i = 0; i < json_object_array_length (root); i++)
    {
      json_object *type = json_object_array_get_idx (root, i), *id;

      g_assert_true (json_object_object_get_ex (type, "id", &id));
      g_assert_true (json_object_object_get_ex (type, "category", NULL));
      g_assert_true (json_object_object_get_ex (type, "doc", NULL));
      g_assert_true (json_object_object_get_ex (type, "inputs", NULL));
      g_assert_true (json_object_object_get_ex (type, "outputs", NULL));
      if (strcmp (json_object_get_string (id), "integrator") == 0)
        integrator = type;
    }
  g_assert_nonnull (integrator);
  g_assert_true (json_object_object_get_ex (integrator, "params", &params));
  g_assert_cmpuint (json_object_array_length (params), >=, G_N_ELEMENTS (names));
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      json_object *param = json_object_array_get_idx (params, i), *value;

      g_assert_true (json_object_object_get_ex (param, "name", &value));
      g_assert_cmpstr (json_object_get_string (value), ==, names[i]);
      g_assert_true (json_object_object_get_ex (param, "kind", &value));
      g_assert_cmpstr (json_object_get_string (value), ==, i == 1 ? "choice" : "number");
      if (i == 1)
        {
          g_assert_true (json_object_object_get_ex (param, "choices", &value));
          g_assert_cmpstr (json_object_get_string (json_object_array_get_idx (value, 0)), ==, "QSS1");
        }
    }
  json_object_put (root);

  run_cli (&r2, "blocks", NULL);
  g_assert_cmpint (r2.status, ==, 0);
  g_assert_nonnull (strstr (r2.out, "(integrator)"));
  g_assert_nonnull (strstr (r2.out, "    x0: "));
  g_assert_nonnull (strstr (r2.out, "      number, default \"0\""));
}

/* --markdown prints the reference page: a heading per category, an anchor
 * and a parameter table per block; it cannot be combined with --json. */
static void
test_cli_blocks_markdown (void)
{
  g_auto(CliResult) r1 = { 0 }, r2 = { 0 };
  const char *integrator;

  run_cli (&r1, "blocks", "--markdown", NULL);
  g_assert_cmpint (r1.status, ==, 0);
  g_assert_cmpstr (r1.err, ==, "");
  g_assert_true (g_str_has_prefix (r1.out, "# Block reference\n"));
  g_assert_nonnull (strstr (r1.out, "\n## Continuous\n"));
  integrator = strstr (r1.out, "<a id=\"integrator\"></a>\n\n### Integrator\n\nType id `integrator`, glyph `∫`");
  g_assert_nonnull (integrator);
  g_assert_nonnull (strstr (integrator,
                            "| Parameter | Label | Kind | Default | Range | Unit | Choices | Description |\n"
                            "|---|---|---|---|---|---|---|---|\n"
                            "| `x0` | Initial state | number | `0` |  |  |  | The value of the state x at the start time. |\n"));
  g_assert_nonnull (strstr (integrator, "| `method` | Method | choice | *model's setting* |  |  | `QSS1`, `QSS2`, "));
  g_assert_nonnull (strstr (r1.out, "[Integrator](#integrator)"));

  run_cli (&r2, "blocks", "--json", "--markdown", NULL);
  g_assert_cmpint (r2.status, ==, 2);
  g_assert_true (g_str_has_prefix (r2.err, "qdevs-cli blocks: --json and --markdown cannot be used together; choose one\n"));
}

/* A small benchmark run prints one JSON object with the documented
 * fields, and counts that make sense for a 10-state line. */
/* bench runs a classic solver by its name; an implicit one refuses a
 * model too large for its dense Jacobian, with the reason. */
static void
test_cli_bench_classic (void)
{
  g_auto(CliResult) r = { 0 };
  g_auto(CliResult) big = { 0 };
  json_object *root, *value;

  run_cli (&r, "bench", "--model", "lcline", "--n", "10", "--method", "RK4", "--until", "1", "--json", NULL);
  g_assert_cmpint (r.status, ==, 0);
  root = parse_single_json (r.out);
  g_assert_true (json_object_object_get_ex (root, "method", &value));
  g_assert_cmpstr (json_object_get_string (value), ==, "rk4");
  /* 1000 steps of 1e-3, each an output of each of the 10 states, and
   * the initial outputs. */
  g_assert_cmpint (get_int (root, "integrator_steps"), ==, 1001 * 10);
  json_object_put (root);

  /* Under RKF45 and BDF the LC line also runs on the hand-written RHS:
   * the same steps, and both right-hand sides timed alone. */
  for (guint m = 0; m < 2; m++)
    {
      g_auto(CliResult) hand = { 0 };

      run_cli (&hand, "bench", "--model", "lcline", "--n", "10", "--method",
               m == 0 ? "rkf45" : "cvode-bdf", "--until", "2", "--repeat", "3",
               "--json", NULL);
      g_assert_cmpint (hand.status, ==, 0);
      root = parse_single_json (hand.out);
      g_assert_cmpint (get_int (root, "hand_steps"), ==, get_int (root, "solver_steps"));
      g_assert_cmpint (get_int (root, "solver_steps"), >, 1);
      g_assert_cmpfloat (get_double (root, "rhs_alone_ns"), >, 0.0);
      g_assert_cmpfloat (get_double (root, "hand_rhs_ns"), >, 0.0);
      /* The median of the alternate rounds' ratios, and the ratio of
       * the least times (not the least ratio, which a round slow on the
       * hand-written side alone would make). */
      g_assert_cmpfloat (get_double (root, "run_ratio"), >, 0.0);
      g_assert_cmpfloat (get_double (root, "rhs_ratio"), >, 0.0);
      g_assert_cmpfloat (get_double (root, "rhs_alone_ns_min"), >, 0.0);
      g_assert_cmpfloat (get_double (root, "rhs_alone_ns_min"), <=, get_double (root, "rhs_alone_ns"));
      g_assert_cmpfloat (get_double (root, "hand_rhs_ns_min"), <=, get_double (root, "hand_rhs_ns"));
      g_assert_cmpfloat (get_double (root, "hand_cpu_s_min"), <=, get_double (root, "hand_cpu_s"));
      g_assert_cmpfloat_with_epsilon (get_double (root, "run_ratio_min"),
                                      get_double (root, "cpu_s_min") / get_double (root, "hand_cpu_s_min"),
                                      1e-9 * get_double (root, "run_ratio_min"));
      g_assert_cmpfloat_with_epsilon (get_double (root, "rhs_ratio_min"),
                                      get_double (root, "rhs_alone_ns_min") / get_double (root, "hand_rhs_ns_min"),
                                      1e-9 * get_double (root, "rhs_ratio_min"));
      /* The hand-written RHS with its layout read from memory: timed on
       * the same arrays (the bench fails when its values are not the
       * hand-written one's), its ratio that of the least times. */
      g_assert_cmpfloat (get_double (root, "layout_rhs_ns_min"), >, 0.0);
      g_assert_cmpfloat (get_double (root, "layout_rhs_ns_min"), <=, get_double (root, "layout_rhs_ns"));
      g_assert_cmpfloat (get_double (root, "layout_ratio"), >, 0.0);
      g_assert_cmpfloat_with_epsilon (get_double (root, "layout_ratio_min"),
                                      get_double (root, "layout_rhs_ns_min") / get_double (root, "hand_rhs_ns_min"),
                                      1e-9 * get_double (root, "layout_ratio_min"));
      /* Under RKF45 a step's end derivative is ARKODE's own last f: the
       * diagram evaluates f a few times more than the hand-written
       * driver in all (at the spans' ends), not once more per step. */
      if (m == 0)
        g_assert_cmpint (get_int (root, "rhs_evals"), <,
                         get_int (root, "hand_rhs_evals") + get_int (root, "solver_steps") / 2);
      json_object_put (root);
    }

  run_cli (&big, "bench", "--model", "advection", "--n", "10001", "--method", "cvode-bdf", "--until", "0.001", NULL);
  g_assert_cmpint (big.status, ==, 3);
  g_assert_nonnull (strstr (big.err, "the solver cvode-bdf would need a dense Jacobian of 10001 states"));
}

static void
test_cli_bench (void)
{
  static const char *const keys[] = {
    "model", "n", "method", "integrator_steps", "transitions", "wall_s", "ns_per_step", "peak_rss_kb",
  };
  g_auto(CliResult) r1 = { 0 }, r2 = { 0 }, r3 = { 0 }, r4 = { 0 }, r5 = { 0 };
  g_auto(CliResult) r6 = { 0 }, r7 = { 0 }, r8 = { 0 }, r9 = { 0 };
  json_object *root, *value, *unfused, *repeated, *head, *tail;

  run_cli (&r1, "bench", "--model", "lcline", "--n", "10", "--method", "QSS2", "--until", "5", "--json", NULL);
  g_assert_cmpint (r1.status, ==, 0);
  g_assert_cmpstr (r1.err, ==, "");
  root = parse_single_json (r1.out);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    g_assert_true (json_object_object_get_ex (root, keys[i], NULL));
  g_assert_true (json_object_object_get_ex (root, "model", &value));
  g_assert_cmpstr (json_object_get_string (value), ==, "lcline");
  g_assert_cmpint (get_int (root, "n"), ==, 10);
  g_assert_cmpint (get_int (root, "integrator_steps"), >, 10);
  g_assert_cmpint (get_int (root, "transitions"), >, get_int (root, "integrator_steps"));
  g_assert_cmpint (get_int (root, "peak_rss_kb"), >, 0);

  /* Without fused cascades: the same events, counted the same (and the
   * method may be given in lower case). */
  run_cli (&r3, "bench", "--model", "lcline", "--n", "10", "--method", "qss2", "--until", "5", "--json",
           "--no-fused-cascades", NULL);
  g_assert_cmpint (r3.status, ==, 0);
  unfused = parse_single_json (r3.out);
  g_assert_true (json_object_object_get_ex (unfused, "method", &value));
  g_assert_cmpstr (json_object_get_string (value), ==, "QSS2");
  g_assert_cmpint (get_int (unfused, "integrator_steps"), ==, get_int (root, "integrator_steps"));
  g_assert_cmpint (get_int (unfused, "transitions"), ==, get_int (root, "transitions"));
  json_object_put (unfused);

  /* Repeated: every run recompiles the model and takes the same steps;
   * the medians and the least times are reported. */
  run_cli (&r4, "bench", "--model", "lcline", "--n", "10", "--method", "QSS2", "--until", "5", "--json",
           "--repeat", "4", NULL);
  g_assert_cmpint (r4.status, ==, 0);
  repeated = parse_single_json (r4.out);
  g_assert_cmpint (get_int (repeated, "repeat"), ==, 4);
  g_assert_cmpint (get_int (repeated, "integrator_steps"), ==, get_int (root, "integrator_steps"));
  g_assert_cmpint (get_int (repeated, "transitions"), ==, get_int (root, "transitions"));
  g_assert_true (json_object_object_get_ex (repeated, "cpu_s_min", &value));
  g_assert_cmpfloat (json_object_get_double (value), >, 0.0);
  g_assert_cmpfloat (json_object_get_double (value), <=,
                     json_object_get_double (json_object_object_get (repeated, "cpu_s")));
  g_assert_true (json_object_object_get_ex (repeated, "wall_s_min", &value));
  g_assert_cmpfloat (json_object_get_double (value), <=,
                     json_object_get_double (json_object_object_get (repeated, "wall_s")));
  json_object_put (repeated);

  /* --from: the part of the run after T0 alone, so its counts are the
   * whole run's less those of the run to T0, exactly. */
  run_cli (&r6, "bench", "--model", "lcline", "--n", "10", "--method", "QSS2", "--until", "2", "--json",
           NULL);
  run_cli (&r7, "bench", "--model", "lcline", "--n", "10", "--method", "QSS2", "--until", "5", "--json",
           "--from", "2", NULL);
  g_assert_cmpint (r6.status, ==, 0);
  g_assert_cmpint (r7.status, ==, 0);
  head = parse_single_json (r6.out);
  tail = parse_single_json (r7.out);
  g_assert_false (json_object_object_get_ex (head, "from", NULL));
  g_assert_true (json_object_object_get_ex (tail, "from", &value));
  g_assert_cmpfloat (json_object_get_double (value), ==, 2.0);
  g_assert_cmpint (get_int (head, "integrator_steps"), >, 0);
  g_assert_cmpint (get_int (tail, "integrator_steps"), >, 0);
  g_assert_cmpint (get_int (head, "integrator_steps") + get_int (tail, "integrator_steps"), ==,
                   get_int (root, "integrator_steps"));
  g_assert_cmpint (get_int (head, "transitions") + get_int (tail, "transitions"), ==,
                   get_int (root, "transitions"));
  json_object_put (head);
  json_object_put (tail);
  json_object_put (root);
  run_cli (&r8, "bench", "--model", "lcline", "--from", "10", NULL);
  assert_usage_error (&r8, "--from must be earlier than the final time (10 for lcline)");
  run_cli (&r9, "bench", "--model", "lcline", "--from", "-1", NULL);
  assert_usage_error (&r9, "--from must be 0 or more");

  run_cli (&r2, "bench", "--model", "nosuchmodel", NULL);
  assert_usage_error (&r2, "unknown model 'nosuchmodel'");
  run_cli (&r5, "bench", "--model", "lcline", "--repeat", "0", NULL);
  assert_usage_error (&r5, "--repeat must be from 1 to 1000");
}

/* bench takes lists: one row per model, method and size, in that
 * order; "all" is every method of the Integrator's descriptor. */
static void
test_cli_bench_lists (void)
{
  static const char *const expected[][3] = {
    { "lcline", "LIQSS2", "10" }, { "lcline", "LIQSS2", "20" },
    { "lcline", "QSS1", "10" }, { "lcline", "QSS1", "20" },
    { "lcline-random", "LIQSS2", "10" }, { "lcline-random", "LIQSS2", "20" },
    { "lcline-random", "QSS1", "10" }, { "lcline-random", "QSS1", "20" },
  };
  const QdBlockType *integrator = qd_registry_lookup ("integrator");
  const char *const *methods = integrator->params[qd_block_type_find_param (integrator, "method")].choices;
  g_auto(CliResult) r1 = { 0 }, r2 = { 0 }, r3 = { 0 }, r4 = { 0 }, r5 = { 0 };
  g_auto(GStrv) lines = NULL;
  guint n_methods = g_strv_length ((char **) methods);

  run_cli (&r1, "bench", "--model", "lcline, lcline-random", "--n", "10,20", "--method", "liqss2,QSS1",
           "--until", "1", "--json", NULL);
  g_assert_cmpint (r1.status, ==, 0);
  lines = g_strsplit (r1.out, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), ==, G_N_ELEMENTS (expected) + 1);
  g_assert_cmpstr (lines[G_N_ELEMENTS (expected)], ==, "");
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      json_object *row = json_tokener_parse (lines[i]);

      g_assert_nonnull (row);
      g_assert_cmpstr (json_object_get_string (json_object_object_get (row, "model")), ==, expected[i][0]);
      g_assert_cmpstr (json_object_get_string (json_object_object_get (row, "method")), ==, expected[i][1]);
      g_assert_cmpint (get_int (row, "n"), ==, atoi (expected[i][2]));
      g_assert_cmpint (get_int (row, "integrator_steps"), >, 0);
      json_object_put (row);
    }
  g_clear_pointer (&lines, g_strfreev);

  run_cli (&r2, "bench", "--model", "lcline", "--n", "10", "--method", "all", "--until", "0.5", "--json", NULL);
  g_assert_cmpint (r2.status, ==, 0);
  lines = g_strsplit (r2.out, "\n", -1);
  g_assert_cmpuint (n_methods, ==, 13);
  g_assert_cmpuint (g_strv_length (lines), ==, n_methods + 1);
  for (guint i = 0; i < n_methods; i++)
    {
      json_object *row = json_tokener_parse (lines[i]);

      g_assert_nonnull (row);
      g_assert_cmpstr (json_object_get_string (json_object_object_get (row, "method")), ==, methods[i]);
      json_object_put (row);
    }

  run_cli (&r3, "bench", "--model", "lcline", "--n", "10", "--method", "QSS2,RK5", NULL);
  assert_usage_error (&r3, "unknown method 'RK5' (use QSS1, QSS2, QSS3, QSS4, LIQSS1, LIQSS2, LIQSS3, BQSS, CQSS, "
                      "LIQSS2-QSSolver, mLIQSS1, mLIQSS2, QSS3-PowerDEVS, "
                      "a classic solver such as cvode-bdf or rk4, several separated by commas, or all)");
  run_cli (&r4, "bench", "--model", "lcline", "--n", "10,,20", NULL);
  assert_usage_error (&r4, "--n must be a positive number of states, or several separated by commas (not '')");
  run_cli (&r5, "bench", "--model", "lcline,lc", "--n", "10", NULL);
  assert_usage_error (&r5, "unknown model 'lc' (use lcline, lcline-random, advection or lcline-vector, or several separated by commas)");
}

static void
append_segment (QdTrace *trace,
                double   t,
                double   c0,
                double   c1)
{
  QdSignal seg = { .t = t, .c = { c0, c1, 0, 0 }, .order = c1 != 0.0 ? 1 : 0 };

  qd_trace_append (trace, &seg);
}

/* The CSV writer itself, on hand-made traces: the union of event times
 * with one row per distinct time, the last segment at a time wins, values
 * from the polynomials, empty fields before a trace starts, sampling on a
 * grid, and names that need quoting. */
static void
test_cli_csv_writer (void)
{
  g_autofree char *path = g_build_filename (tmp_dir, "writer.csv", NULL);
  g_autoptr(GPtrArray) traces = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_trace_unref);
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  QdTrace *a = qd_trace_new ("/Scope/a");
  QdTrace *b = qd_trace_new ("/Scope/b,\"c\"");

  append_segment (a, 0.0, 1.0, 2.0);    /* a = 1 + 2t */
  append_segment (a, 1.0, 5.0, 0.0);
  append_segment (a, 1.0, 6.0, 0.0);    /* same time: this one counts */
  append_segment (b, 0.5, -1.0, 0.0);
  append_segment (b, 1.0, -2.0, 0.0);   /* same time as a's: one row */
  qd_trace_close (a, 2.0);
  qd_trace_close (b, 2.0);
  g_ptr_array_add (traces, a);
  g_ptr_array_add (traces, b);

  g_assert_true (qd_traces_write_csv (traces, 0.0, 2.0, 0.0, path, &error));
  g_assert_no_error (error);
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==,
                   "time,/Scope/a,\"/Scope/b,\"\"c\"\"\"\n"
                   "0,1,\n"
                   "0.5,2,-1\n"
                   "1,6,-2\n"
                   "2,6,-2\n");
  g_clear_pointer (&text, g_free);

  /* Sampled every 0.4 up to 1.0: 0, 0.4, 0.8, then the end row. */
  g_assert_true (qd_traces_write_csv (traces, 0.0, 1.0, 0.4, path, &error));
  g_assert_no_error (error);
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==,
                   "time,/Scope/a,\"/Scope/b,\"\"c\"\"\"\n"
                   "0,1,\n"
                   "0.40000000000000002,1.8,\n"
                   "0.80000000000000004,2.6000000000000001,-1\n"
                   "1,6,-2\n");
}

/* The event log's writer: a file is replaced only by a whole log, and a
 * discarded log leaves the older file as it was, with nothing beside
 * it. A block path with a comma is quoted. */
static void
test_cli_event_log_writer (void)
{
  g_autofree char *path = g_build_filename (tmp_dir, "log.csv", NULL);
  g_autofree char *model = write_model ("log-writer.qdevs", model_with_variable);
  g_autoptr(QdDocument) doc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  QdEventLogCsv *log;
  QdSimulation *sim;
  GDir *dir;
  const char *name;

  g_file_set_contents (path, "older\n", -1, &error);
  g_assert_no_error (error);
  doc = qd_document_load (model, &error);
  g_assert_no_error (error);
  g_assert_true (qd_document_rename_block (doc, qd_document_find_block (doc, "b2"), "Gain, k", &error));

  sim = qd_simulation_new (doc, NULL, NULL, &error);
  g_assert_no_error (error);
  log = qd_event_log_csv_new (sim, path, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpint (qd_simulation_step (sim, 2, &error), ==, QD_RUN_STEPPED);
  g_assert_cmpuint (qd_event_log_csv_get_written (log), ==, 7);
  qd_event_log_csv_discard (log);
  /* Off: the run goes on without it. */
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
  qd_simulation_free (sim);
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, "older\n");
  g_clear_pointer (&text, g_free);

  sim = qd_simulation_new (doc, NULL, NULL, &error);
  g_assert_no_error (error);
  log = qd_event_log_csv_new (sim, path, 3, &error);
  g_assert_no_error (error);
  g_assert_cmpint (qd_simulation_step (sim, 2, &error), ==, QD_RUN_STEPPED);
  g_assert_cmpuint (qd_event_log_csv_get_written (log), ==, 3);
  g_assert_true (qd_event_log_csv_get_truncated (log));
  g_assert_true (qd_event_log_csv_close (log, &error));
  g_assert_no_error (error);
  qd_simulation_free (sim);
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==,
                   "event,time,block,transition,port,elapsed,ta,order,c0,c1,c2,c3,tag\n"
                   "1,0,/Integrator,output,1,,,0,1,,,,0\n"
                   "1,0,/Integrator,internal,,0,inf,,,,,,\n"
                   "1,0,\"/Gain, k\",external,1,0,0,0,1,,,,0\n");

  dir = g_dir_open (tmp_dir, 0, NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    g_assert_false (g_str_has_prefix (name, "log.csv."));
  g_dir_close (dir);
}


/* --trace-budget keeps the traces within it, and the CSV says what was
 * decimated; without it, every event is kept and written. */
static void
test_cli_trace_budget (void)
{
  g_autofree char *lv = example ("lotka-volterra.qdevs");
  g_autofree char *cellier = example ("cellier-first-order.qdevs");
  g_autofree char *out = g_build_filename (tmp_dir, "lv.csv", NULL);
  g_auto(CliResult) r1 = { 0 }, r2 = { 0 }, r3 = { 0 };
  g_autofree char *text = NULL;

  run_cli (&r1, "run", cellier, "--trace-budget", "0", NULL);
  assert_usage_error (&r1, "--trace-budget must be a number of MiB above 0 and below 1048576");

  /* 327 239 events, some 7 MiB of segments, in 1 MiB. */
  run_cli (&r2, "run", lv, "--until", "20000", "--trace-budget", "1", "--csv", out, "--stats", NULL);
  g_assert_cmpint (r2.status, ==, 0);
  g_assert_cmpfloat (qd_test_stats_trace_bytes (r2.out), <=, 1 << 20);
  g_assert_true (g_file_get_contents (out, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "# /Scope/prey: exact data from t = 0 to "));
  g_assert_nonnull (strstr (text, "\n# /Scope/predator: exact data from t = 0 to "));
  g_assert_nonnull (strstr (text, "\ntime,/Scope/prey,/Scope/predator\n"));
  g_clear_pointer (&text, g_free);

  run_cli (&r3, "run", lv, "--until", "20000", "--csv", out, "--stats", NULL);
  g_assert_cmpint (r3.status, ==, 0);
  g_assert_cmpfloat (qd_test_stats_trace_bytes (r3.out), >, 3 << 20);
  g_assert_true (g_file_get_contents (out, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "time,/Scope/prey,/Scope/predator\n"));
  g_unlink (out);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  qd_init ();

  tmp_dir = g_dir_make_tmp ("qd-test-cli-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/cli/version-and-help", test_cli_version_and_help);
  g_test_add_func ("/cli/usage-errors", test_cli_usage_errors);
  g_test_add_func ("/cli/file-errors", test_cli_file_errors);
  g_test_add_func ("/cli/model-errors", test_cli_model_errors);
  g_test_add_func ("/cli/check-ok", test_cli_check_ok);
  g_test_add_func ("/cli/check-lists-every-problem",
                   test_cli_check_lists_every_problem);
  g_test_add_func ("/cli/run-error", test_cli_run_error);
  g_test_add_func ("/cli/run-error-block", test_cli_run_error_block);
  g_test_add_func ("/cli/interrupt", test_cli_interrupt);
  g_test_add_func ("/cli/stats-json", test_cli_stats_json);
  g_test_add_func ("/cli/stats-table", test_cli_stats_table);
  g_test_add_func ("/cli/solver", test_cli_solver);
  g_test_add_func ("/cli/bench-classic", test_cli_bench_classic);
  g_test_add_func ("/cli/until-and-set", test_cli_until_and_set);
  g_test_add_func ("/cli/csv", test_cli_csv);
  g_test_add_func ("/cli/events", test_cli_events);
  g_test_add_func ("/cli/port-numbers", test_cli_port_numbers);
  g_test_add_func ("/cli/events-error", test_cli_events_error);
  g_test_add_func ("/cli/events-entities", test_cli_events_entities);
  g_test_add_func ("/cli/trace-budget", test_cli_trace_budget);
  g_test_add_func ("/cli/plot", test_cli_plot);
  g_test_add_func ("/cli/blocks", test_cli_blocks);
  g_test_add_func ("/cli/blocks-markdown", test_cli_blocks_markdown);
  g_test_add_func ("/cli/csv-writer", test_cli_csv_writer);
  g_test_add_func ("/cli/event-log-writer", test_cli_event_log_writer);
  g_test_add_func ("/cli/bench", test_cli_bench);
  g_test_add_func ("/cli/bench-lists", test_cli_bench_lists);

  status = g_test_run ();
  qd_test_remove_tree (tmp_dir);
  g_free (tmp_dir);
  return status;
}

/* test-cli-limits.c: qdevs-cli in daily use: what it keeps in memory,
 * what it refuses (a CSV step that would fill the disk, a device given
 * as a diagram, a --set the model does not have), Ctrl-C while a CSV is
 * written, '-' for standard input and output, the exit statuses its
 * help lists, and `qdevs --version` and `--help` without a display.
 *
 * The built programs are spawned ($QD_BUILD_DIR/app/...); the models are
 * the shipped examples.
 */
#include "qd-test-util.h"

#include <fcntl.h>
#include <glib/gstdio.h>
#include <json-c/json.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static char *tmp_dir;

typedef QdCliResult CliResult;
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (CliResult, qd_cli_result_clear)

#define run_cli(r, ...) qd_test_run_cli ((r), NULL, __VA_ARGS__)
#define run_cli_input qd_test_run_cli

static char *
build_path (const char *program)
{
  return g_build_filename (g_getenv ("QD_BUILD_DIR"), "app", program, NULL);
}

static char *
example (const char *name)
{
  return qd_test_source_path ("data", "examples", name, NULL);
}

static void
assert_usage_error (CliResult  *r,
                    const char *message)
{
  g_assert_cmpint (r->status, ==, 2);
  if (strstr (r->err, message) == NULL)
    g_error ("'%s' not in: %s", message, r->err);
  qd_test_assert_usage_hint (r->err);
  g_assert_cmpstr (r->out, ==, "");
}

static json_object *
parse_json (const char *text)
{
  json_object *obj = json_tokener_parse (text);

  g_assert_nonnull (obj);
  return obj;
}

/* A member of the --stats-json object; asserts that it is there. */
static json_object *
get_member (json_object *obj,
            const char  *key)
{
  json_object *value = NULL;

  if (!json_object_object_get_ex (obj, key, &value))
    g_error ("no '%s' in the statistics", key);
  return value;
}

/* Whether @dir holds a file whose name starts with @prefix. */
static gboolean
dir_has_prefix (const char *dir,
                const char *prefix)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;
  gboolean found = FALSE;

  g_assert_nonnull (d);
  while (!found && (name = g_dir_read_name (d)) != NULL)
    found = g_str_has_prefix (name, prefix);
  g_dir_close (d);
  return found;
}

/* A run that writes nothing keeps no trace: 327 239 events of the
 * Lotka-Volterra example used to hold some 7 MiB of segments that
 * nothing read (gigabytes on a long run of a large model). */
static void
test_traces_unread (void)
{
  g_autofree char *lv = example ("lotka-volterra.qdevs");
  g_auto(CliResult) r1 = { 0 }, r2 = { 0 };
  json_object *root;
  gint64 trace_bytes;

  run_cli (&r1, "run", lv, "--until", "20000", "--stats-json", NULL);
  g_assert_cmpint (r1.status, ==, 0);
  root = parse_json (r1.out);
  /* What is left: the two empty stores' own bookkeeping. */
  trace_bytes = json_object_get_int64 (get_member (root, "trace_bytes"));
  g_assert_cmpint (trace_bytes, <, 64 << 10);
  g_assert_null (get_member (root, "trace_budget_bytes"));
  g_assert_cmpint (json_object_get_int64 (get_member (root, "events")), ==, 327239);
  json_object_put (root);

  run_cli (&r2, "run", lv, "--until", "20000", "--stats", NULL);
  g_assert_cmpint (r2.status, ==, 0);
  /* The empty stores' bookkeeping, in the unit that shows it (it was
   * "0.0 MiB", while --stats-json said some 16 KiB). */
  g_assert_cmpfloat_with_epsilon (qd_test_stats_trace_bytes (r2.out),
                                  (double) trace_bytes, trace_bytes / 100.0);
  g_assert_nonnull (strstr (r2.out, "KiB (no segment kept, only the empty stores: no --csv or --plot needs them)"));
}

/* With --csv or --plot the traces are kept within 512 MiB unless
 * --trace-budget says otherwise; 'unlimited' keeps every event. */
static void
test_trace_budget_default (void)
{
  g_autofree char *lv = example ("lotka-volterra.qdevs");
  g_autofree char *cellier = example ("cellier-first-order.qdevs");
  g_autofree char *out = g_build_filename (tmp_dir, "budget.csv", NULL);
  g_autofree char *text = NULL;
  g_auto(CliResult) r1 = { 0 }, r2 = { 0 }, r3 = { 0 }, r4 = { 0 }, r5 = { 0 };
  json_object *root;

  run_cli (&r1, "run", lv, "--until", "20000", "--csv", out, "--stats-json", NULL);
  g_assert_cmpint (r1.status, ==, 0);
  root = parse_json (r1.out);
  g_assert_cmpint (json_object_get_int64 (get_member (root, "trace_budget_bytes")), ==, 512 << 20);
  /* Within the budget every event is there: 72 717 steps per state. */
  g_assert_cmpint (json_object_get_int64 (get_member (root, "trace_bytes")), >, 3 << 20);
  json_object_put (root);
  g_assert_true (g_file_get_contents (out, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "time,/Scope/prey,/Scope/predator\n"));
  g_clear_pointer (&text, g_free);

  run_cli (&r2, "run", lv, "--until", "20000", "--csv", out, "--trace-budget", "unlimited",
           "--stats-json", NULL);
  g_assert_cmpint (r2.status, ==, 0);
  root = parse_json (r2.out);
  g_assert_null (get_member (root, "trace_budget_bytes"));
  json_object_put (root);

  /* A small budget decimates, and the CSV says so above its header. */
  run_cli (&r3, "run", lv, "--until", "20000", "--csv", out, "--trace-budget", "1",
           "--stats-json", NULL);
  g_assert_cmpint (r3.status, ==, 0);
  root = parse_json (r3.out);
  g_assert_cmpint (json_object_get_int64 (get_member (root, "trace_budget_bytes")), ==, 1 << 20);
  g_assert_cmpint (json_object_get_int64 (get_member (root, "trace_bytes")), <=, 1 << 20);
  json_object_put (root);
  g_assert_true (g_file_get_contents (out, &text, NULL, NULL));
  g_assert_true (g_str_has_prefix (text, "# /Scope/prey: exact data from t = 0 to "));
  g_assert_nonnull (strstr (text, "--trace-budget unlimited, to keep every event)\n"));

  run_cli (&r4, "run", cellier, "--trace-budget", "lots", NULL);
  assert_usage_error (&r4, "--trace-budget must be a number of MiB above 0 and below 1048576, or 'unlimited'");
  run_cli (&r5, "run", cellier, "--trace-budget", "-1", NULL);
  assert_usage_error (&r5, "--trace-budget must be a number of MiB");
  g_unlink (out);
}

/* A step that would write more than 10^8 rows is refused before the run
 * (it used to write until the disk was full), and the engine's writer
 * refuses it too, for the editor's export. */
static void
test_csv_step_rows (void)
{
  g_autofree char *lv = example ("lotka-volterra.qdevs");
  g_autofree char *out = g_build_filename (tmp_dir, "rows.csv", NULL);
  g_autoptr(GPtrArray) traces = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_trace_unref);
  g_autoptr(GError) error = NULL;
  g_auto(CliResult) r1 = { 0 }, r2 = { 0 };
  QdSignal seg = { 0 };
  QdTrace *trace = qd_trace_new ("/Scope/x");

  run_cli (&r1, "run", lv, "--csv", out, "--csv-step", "1e-300", NULL);
  assert_usage_error (&r1, "qdevs-cli run: --csv-step 1e-300 from t = 0 to 300 would write 3e+302 rows, more than 100000000; choose a step of at least 3e-06\n");
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  g_assert_false (dir_has_prefix (tmp_dir, "rows.csv."));

  /* Just over the limit: 300 / 2.9e-6 rows. */
  run_cli (&r2, "run", lv, "--csv", out, "--csv-step", "2.9e-6", NULL);
  assert_usage_error (&r2, "would write 1.03e+08 rows, more than 100000000");

  g_ptr_array_add (traces, trace);
  seg.t = 0.0;
  seg.c[0] = 1.0;
  qd_trace_append (trace, &seg);
  g_assert_false (qd_traces_write_csv (traces, 0.0, 1.0, 1e-9, out, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_INVALID);
  g_assert_true (g_str_has_prefix (error->message, out));
  g_assert_nonnull (strstr (error->message, "more than 100000000"));
  g_assert_false (g_file_test (out, G_FILE_TEST_EXISTS));
  g_assert_false (dir_has_prefix (tmp_dir, "rows.csv."));
}

/* A device, a pipe, a folder or a huge file that is not a diagram given
 * as the diagram is refused at once, by the loader the editor uses too;
 * standard input follows the same rule on the size. */
static void
test_not_regular (void)
{
  g_autofree char *fifo = g_build_filename (tmp_dir, "fifo.qdevs", NULL);
  g_autofree char *huge = g_build_filename (tmp_dir, "huge.qdevs", NULL);
  g_autoptr(GError) error = NULL;
  g_auto(CliResult) r1 = { 0 }, r2 = { 0 }, r3 = { 0 }, r4 = { 0 }, r5 = { 0 };
  g_autofree char *fifo_error = NULL, *dir_error = NULL, *huge_error = NULL;
  QdDocument *document;
  int fd;

  /* First a sparse file just over the size beyond which only a diagram
   * is read (no disk used, only its first bytes read): a loader without
   * the checks fails here at once, where it would read /dev/zero below
   * until memory ran out. */
  fd = g_open (huge, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (ftruncate (fd, QD_FILE_PLAIN_SIZE + 1), ==, 0);
  close (fd);
  run_cli (&r4, "check", huge, NULL);
  g_assert_cmpint (r4.status, ==, 1);
  huge_error = g_strconcat (huge, ": more than 64 MiB that do not start with '{', so not a diagram; check that it is a .qdevs file\n", NULL);
  g_assert_cmpstr (r4.err, ==, huge_error);
  g_unlink (huge);

  run_cli (&r1, "check", "/dev/zero", NULL);
  g_assert_cmpint (r1.status, ==, 1);
  g_assert_cmpstr (r1.err, ==, "/dev/zero: not a regular file (a folder, a device or a pipe); give the path of a .qdevs diagram\n");

  /* A pipe with no writer: refused, not waited on. */
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  run_cli (&r2, "run", fifo, NULL);
  g_assert_cmpint (r2.status, ==, 1);
  fifo_error = g_strconcat (fifo, ": not a regular file", NULL);
  g_assert_true (g_str_has_prefix (r2.err, fifo_error));
  g_unlink (fifo);

  run_cli (&r3, "check", tmp_dir, NULL);
  g_assert_cmpint (r3.status, ==, 1);
  dir_error = g_strconcat (tmp_dir, ": not a regular file", NULL);
  g_assert_true (g_str_has_prefix (r3.err, dir_error));

  run_cli_input (&r5, "/dev/zero", "check", "-", NULL);
  g_assert_cmpint (r5.status, ==, 1);
  g_assert_cmpstr (r5.err, ==, "<stdin>: more than 64 MiB that do not start with '{', so not a diagram; check that it is a .qdevs file\n");

  /* The loader itself refuses it: the editor gets the same message. */
  document = qd_document_load ("/dev/zero", &error);
  g_assert_null (document);
  g_assert_error (error, QD_ERROR, QD_ERROR_IO);
  g_assert_cmpstr (error->message, ==, "/dev/zero: not a regular file (a folder, a device or a pipe); give the path of a .qdevs diagram");
}

/* '-' is standard input for FILE and standard output for --csv and
 * --events; the summary line then goes to standard error. */
static void
test_dash (void)
{
  g_autofree char *cellier = example ("cellier-first-order.qdevs");
  g_autofree char *out = g_build_filename (tmp_dir, "dash.csv", NULL);
  g_autofree char *text = NULL;
  g_auto(CliResult) r1 = { 0 }, r2 = { 0 }, r3 = { 0 }, r4 = { 0 }, r5 = { 0 }, r6 = { 0 }, r7 = { 0 };

  run_cli_input (&r1, cellier, "check", "-", NULL);
  g_assert_cmpint (r1.status, ==, 0);
  g_assert_cmpstr (r1.out, ==, "<stdin>: OK (5 blocks, 4 links)\n");

  run_cli (&r2, "run", cellier, "--csv", out, NULL);
  g_assert_cmpint (r2.status, ==, 0);
  g_assert_true (g_file_get_contents (out, &text, NULL, NULL));

  run_cli_input (&r3, cellier, "run", "-", "--csv", "-", NULL);
  g_assert_cmpint (r3.status, ==, 0);
  g_assert_cmpstr (r3.out, ==, text);
  g_assert_true (g_str_has_prefix (r3.err, "<stdin>: reached t = 5: 55 events, 17 integrator steps in "));
  g_assert_false (g_file_test ("-", G_FILE_TEST_EXISTS));

  run_cli (&r4, "run", cellier, "--events", "-", "--events-limit", "3", NULL);
  g_assert_cmpint (r4.status, ==, 0);
  g_assert_cmpstr (r4.out, ==,
                   "event,time,block,transition,port,elapsed,ta,order,c0,c1,c2,c3,tag\n"
                   "1,0,/Step,output,1,,,0,0,,,,0\n"
                   "1,0,/Step,internal,,0,1.76,,,,,,\n"
                   "1,0,/Sum,external,2,0,0,0,0,,,,0\n");
  g_assert_nonnull (strstr (r4.err, "the event log on standard output holds the first 3 rows"));

  run_cli (&r5, "run", cellier, "--csv", "-", "--stats-json", NULL);
  assert_usage_error (&r5, "--stats and --stats-json print on standard output, where '-' sends the CSV");
  run_cli (&r6, "run", cellier, "--csv", "-", "--events", "-", NULL);
  assert_usage_error (&r6, "--csv - and --events - would both write to standard output");

  /* Usage errors, no command included, go to standard error. */
  run_cli (&r7, NULL, NULL);
  g_assert_cmpint (r7.status, ==, 2);
  g_assert_cmpstr (r7.out, ==, "");
  g_assert_true (g_str_has_prefix (r7.err, "Usage:\n  qdevs-cli COMMAND"));
  g_unlink (out);
}

/* --set with a name the model does not define used to change nothing
 * and exit 0: now a usage error listing the model's variables. The
 * README's example, on the example it names, does change the run. */
static void
test_set_unknown (void)
{
  g_autofree char *lv = example ("lotka-volterra.qdevs");
  g_autofree char *cellier = example ("cellier-first-order.qdevs");
  g_autofree char *spring = example ("stiff-spring.qdevs");
  g_autofree char *readme_path = qd_test_source_path ("README.md", NULL);
  g_autofree char *readme = NULL;
  g_auto(CliResult) r1 = { 0 }, r2 = { 0 }, r3 = { 0 }, r4 = { 0 }, r5 = { 0 };
  json_object *root;
  gint64 steps_default, steps_set;

  run_cli (&r1, "run", lv, "--set", "epss=0.2", NULL);
  assert_usage_error (&r1, "qdevs-cli run: --set 'epss=0.2': the model has no variable 'epss'; its variables are: eps, alpha, sigma, m, beta, x1_0, x2_0\n");

  run_cli (&r2, "check", cellier, "--set", "k=2", NULL);
  assert_usage_error (&r2, "qdevs-cli check: --set 'k=2': the model has no variables, so there is nothing to set");

  /* A name it has still works, spaces around it too. */
  run_cli (&r3, "check", lv, "--set", " eps =0.2", NULL);
  g_assert_cmpint (r3.status, ==, 0);

  g_assert_true (g_file_get_contents (readme_path, &readme, NULL, NULL));
  g_assert_nonnull (strstr (readme, "\nqdevs-cli run data/examples/stiff-spring.qdevs --set k=2 --stats-json"));
  run_cli (&r4, "run", spring, "--stats-json", NULL);
  run_cli (&r5, "run", spring, "--set", "k=2", "--stats-json", NULL);
  g_assert_cmpint (r4.status, ==, 0);
  g_assert_cmpint (r5.status, ==, 0);
  root = parse_json (r4.out);
  steps_default = json_object_get_int64 (get_member (root, "integrator_steps"));
  json_object_put (root);
  root = parse_json (r5.out);
  steps_set = json_object_get_int64 (get_member (root, "integrator_steps"));
  json_object_put (root);
  g_assert_cmpint (steps_set, !=, steps_default);
}

/* Ctrl-C while a large CSV is written: the writing stops, the temporary
 * file is removed, a line says so and the status is 130. It used to die
 * silently, leaving OUT.csv.XXXXXX (hundreds of MB) behind. */
static void
test_interrupt_writing (void)
{
  g_autofree char *cli = build_path ("qdevs-cli");
  g_autofree char *lv = example ("lotka-volterra.qdevs");
  g_autofree char *dir = g_build_filename (tmp_dir, "interrupt", NULL);
  g_autofree char *csv = g_build_filename (dir, "big.csv", NULL);
  g_autofree char *out = NULL, *err = NULL, *expected = NULL;
  g_autoptr(GError) error = NULL;
  /* 10^7 rows, half a gigabyte: seconds of writing. */
  char *argv[] = { cli, "run", lv, "--csv", csv, "--csv-step", "3e-5", NULL };
  int out_fd, err_fd, wait_status;
  GPid pid;

  g_assert_cmpint (g_mkdir (dir, 0700), ==, 0);
  g_assert_true (g_spawn_async_with_pipes (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                           qd_test_limit_file_size, NULL, &pid, NULL,
                                           &out_fd, &err_fd, &error));
  g_assert_no_error (error);
  /* The temporary file appears once the run is over and the writing has
   * begun: that is the moment to press Ctrl-C. */
  while (!dir_has_prefix (dir, "big.csv."))
    {
      g_assert_cmpint (waitpid (pid, &wait_status, WNOHANG), ==, 0);
      g_usleep (2000);
    }
  g_assert_cmpint (kill (pid, SIGINT), ==, 0);
  out = qd_test_read_fd (out_fd);
  err = qd_test_read_fd (err_fd);
  g_assert_cmpint (waitpid (pid, &wait_status, 0), ==, pid);
  g_spawn_close_pid (pid);

  g_assert_true (WIFEXITED (wait_status));
  g_assert_cmpint (WEXITSTATUS (wait_status), ==, 130);
  expected = g_strdup_printf ("%s: interrupted while writing %s; it was not written "
                              "(its temporary file is removed)\n", lv, csv);
  g_assert_cmpstr (err, ==, expected);
  g_assert_cmpstr (out, ==, "");
  g_assert_false (dir_has_prefix (dir, "big.csv"));
  g_rmdir (dir);
}

/* Every exit status, SIGTERM's 143 included, is in `qdevs-cli --help`. */
static void
test_help_exit_codes (void)
{
  static const char *const codes[] = { "0", "1", "2", "3", "130", "143" };
  g_auto(CliResult) r = { 0 };

  run_cli (&r, "--help", NULL);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_cmpstr (r.err, ==, "");
  for (guint i = 0; i < G_N_ELEMENTS (codes); i++)
    {
      g_autofree char *line = g_strdup_printf ("\n  %-4s ", codes[i]);

      if (strstr (r.out, line) == NULL)
        g_error ("exit status %s is not listed in: %s", codes[i], r.out);
    }
}

/* The editor answers --version and --help without a display, and says
 * what to use instead when asked to open a file without one. */
static void
test_qdevs_version_help (void)
{
  g_autofree char *qdevs = build_path ("qdevs");
  g_auto(GStrv) envp = g_get_environ ();
  g_auto(CliResult) r1 = { 0 }, r2 = { 0 };
  char *argv[] = { qdevs, NULL, NULL };

  if (!g_file_test (qdevs, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_test_skip ("qdevs is not built (-Dgui=false)");
      return;
    }
  envp = g_environ_unsetenv (envp, "DISPLAY");
  envp = g_environ_unsetenv (envp, "WAYLAND_DISPLAY");

  argv[1] = (char *) "--version";
  qd_test_spawn (&r1, NULL, envp, argv);
  g_assert_cmpint (r1.status, ==, 0);
  g_assert_cmpstr (r1.out, ==, "qdevs " QD_VERSION "\n");
  g_assert_cmpstr (r1.err, ==, "");

  argv[1] = (char *) "--help";
  qd_test_spawn (&r2, NULL, envp, argv);
  g_assert_cmpint (r2.status, ==, 0);
  g_assert_true (g_str_has_prefix (r2.out, "Usage:\n  qdevs [OPTION…] [FILE…]\n"));
  g_assert_nonnull (strstr (r2.out, "--version"));
  g_assert_nonnull (strstr (r2.out, "qdevs-cli"));

  /* A file to open, and no display: the editor says what to do instead
   * (in the C locale, as the test runs). */
  {
    g_auto(CliResult) r3 = { 0 };
    g_autofree char *example = qd_test_source_path ("data", "examples",
                                                    "rlc.qdevs", NULL);

    argv[1] = example;
    envp = g_environ_setenv (envp, "LANGUAGE", "C", TRUE);
    /* What GTK keeps of a failed start is GTK's, not a leak of ours. */
    envp = g_environ_setenv (envp, "ASAN_OPTIONS", "detect_leaks=0", TRUE);
    qd_test_spawn (&r3, NULL, envp, argv);
    g_assert_cmpint (r3.status, ==, 1);
    g_assert_cmpstr (r3.err, ==, "qdevs: cannot open a display. To run a "
                     "diagram without one, use qdevs-cli run FILE (see "
                     "qdevs-cli --help).\n");
  }
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  int status;

  g_test_init (&argc, &argv, NULL);
  qd_init ();

  tmp_dir = g_dir_make_tmp ("qd-test-cli-limits-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/cli-limits/traces-unread", test_traces_unread);
  g_test_add_func ("/cli-limits/trace-budget-default", test_trace_budget_default);
  g_test_add_func ("/cli-limits/csv-step-rows", test_csv_step_rows);
  g_test_add_func ("/cli-limits/not-regular", test_not_regular);
  g_test_add_func ("/cli-limits/dash", test_dash);
  g_test_add_func ("/cli-limits/set-unknown", test_set_unknown);
  g_test_add_func ("/cli-limits/interrupt-writing", test_interrupt_writing);
  g_test_add_func ("/cli-limits/help-exit-codes", test_help_exit_codes);
  g_test_add_func ("/cli-limits/qdevs-version-help", test_qdevs_version_help);

  status = g_test_run ();
  g_rmdir (tmp_dir);
  g_free (tmp_dir);
  return status;
}

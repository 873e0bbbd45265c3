/* test-cli-sweep.c: `qdevs-cli sweep` as a user runs it
 *
 * The files of a sweep are the same byte for byte with one worker, two,
 * three, and (built with MPI) two MPI ranks; the M/M/1 example's
 * confidence interval covers the theory's mean number in the system; a
 * run that fails in the middle is reported with its values and the
 * others go on; bad arguments say what is wrong; Ctrl-C writes the runs
 * done. The built program is spawned ($QD_BUILD_DIR/app/qdevs-cli).
 */
#include "qd-test-util.h"

#include <glib/gstdio.h>
#include <json-c/json.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef QD_TEST_HAVE_HDF5
#include <hdf5.h>
#endif

static char *tmp_dir;

#define run_cli(r, ...) qd_test_run_cli ((r), NULL, __VA_ARGS__)

static char *
tmp_path (const char *name)
{
  return g_build_filename (tmp_dir, name, NULL);
}

static char *
example (const char *name)
{
  return qd_test_source_path ("data", "examples", name, NULL);
}

/* A constant a into a square root into an integrator, and a sine into
 * another: a < 0 fails at t = 0 (naming /Root), the sine's integrator
 * makes a run as long as its final time. */
static const char model_sqrt[] =
  "{\"format\": \"qdevs\", \"version\": 1, \"title\": \"\", \"description\": \"\",\n"
  " \"simulation\": {\"start\": 0, \"final\": 1, \"method\": \"QSS2\", \"dqmin\": 0.001, \"dqrel\": 0, \"illegitimacy_limit\": 1000000},\n"
  " \"variables\": {\"a\": \"1\", \"w\": \"1\"},\n"
  " \"blocks\": [\n"
  "  {\"id\": \"b1\", \"type\": \"constant\", \"name\": \"A\", \"position\": [0, 0], \"size\": [60, 40], \"params\": {\"value\": \"a\"}},\n"
  "  {\"id\": \"b2\", \"type\": \"sqrt\", \"name\": \"Root\", \"position\": [100, 0], \"size\": [60, 40]},\n"
  "  {\"id\": \"b3\", \"type\": \"integrator\", \"name\": \"X\", \"position\": [200, 0], \"size\": [60, 40]},\n"
  "  {\"id\": \"b4\", \"type\": \"scope\", \"name\": \"Scope\", \"position\": [300, 0], \"size\": [60, 40]},\n"
  "  {\"id\": \"b5\", \"type\": \"sine\", \"name\": \"Sine\", \"position\": [0, 100], \"size\": [60, 40], \"params\": {\"frequency\": \"w\"}},\n"
  "  {\"id\": \"b6\", \"type\": \"integrator\", \"name\": \"Y\", \"position\": [200, 100], \"size\": [60, 40]}],\n"
  " \"links\": [\n"
  "  {\"id\": \"l1\", \"from\": {\"block\": \"b1\", \"port\": 0}, \"to\": [{\"block\": \"b2\", \"port\": 0}]},\n"
  "  {\"id\": \"l2\", \"from\": {\"block\": \"b2\", \"port\": 0}, \"to\": [{\"block\": \"b3\", \"port\": 0}]},\n"
  "  {\"id\": \"l3\", \"from\": {\"block\": \"b3\", \"port\": 0}, \"to\": [{\"block\": \"b4\", \"port\": 0}]},\n"
  "  {\"id\": \"l4\", \"from\": {\"block\": \"b5\", \"port\": 0}, \"to\": [{\"block\": \"b6\", \"port\": 0}]}]}\n";

static char *
write_sqrt_model (void)
{
  char *path = tmp_path ("sqrt.qdevs");

  g_assert_true (g_file_set_contents (path, model_sqrt, -1, NULL));
  return path;
}

/* The same sweep with --jobs 1, 2 and 3 (and two MPI ranks): the same
 * results, traces and summary, byte for byte. */
static void
test_sweep_determinism (void)
{
  g_autofree char *model = example ("queue-server.qdevs");
  const char *jobs[] = { "1", "2", "3" };
  g_autofree char *first_csv = NULL, *first_json = NULL, *first_traces = NULL, *first_out = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
    {
      g_autofree char *csv = tmp_path ("det.csv");
      g_autofree char *json = tmp_path ("det.json");
      g_autofree char *traces = tmp_path ("det-traces.csv");
      g_auto(QdCliResult) r1 = { 0 }, r2 = { 0 };
      g_autofree char *csv_text = NULL, *json_text = NULL, *traces_text = NULL;

      run_cli (&r1, "sweep", model, "--samples", "7", "--until", "3000", "--seed", "5",
               "--jobs", jobs[i], "--out", csv, "--traces", traces, "--grid-step", "500", NULL);
      g_assert_cmpint (r1.status, ==, 0);
      run_cli (&r2, "sweep", model, "--samples", "7", "--until", "3000", "--seed", "5",
               "--jobs", jobs[i], "--out", json, NULL);
      g_assert_cmpint (r2.status, ==, 0);
      g_assert_nonnull (strstr (r1.err, "7 of 7 runs done, 0 failed"));
      csv_text = qd_test_read_text (csv);
      json_text = qd_test_read_text (json);
      traces_text = qd_test_read_text (traces);
      if (i == 0)
        {
          /* A header and 7 rows; 7 runs of 7 grid points (0 to 3000). */
          g_auto(GStrv) rows = g_strsplit (csv_text, "\n", -1);

          g_assert_cmpuint (g_strv_length (rows), ==, 9);
          g_assert_true (g_str_has_prefix (traces_text, "run,time,/Scope/in system\n0,0,0\n"));
          g_assert_nonnull (strstr (traces_text, "\n6,3000,"));
          first_csv = g_steal_pointer (&csv_text);
          first_json = g_steal_pointer (&json_text);
          first_traces = g_steal_pointer (&traces_text);
          first_out = g_strdup (r1.out);
          continue;
        }
      g_assert_cmpstr (csv_text, ==, first_csv);
      g_assert_cmpstr (json_text, ==, first_json);
      g_assert_cmpstr (traces_text, ==, first_traces);
      g_assert_cmpstr (r1.out, ==, first_out);
    }
#ifdef QD_TEST_MPIRUN
  {
    g_autofree char *cli = g_build_filename (g_getenv ("QD_BUILD_DIR"), "app", "qdevs-cli", NULL);
    g_autofree char *csv = tmp_path ("mpi.csv");
    g_autofree char *traces = tmp_path ("mpi-traces.csv");
    g_autofree char *csv_text = NULL, *traces_text = NULL;
    char *argv[] = { QD_TEST_MPIRUN, "--allow-run-as-root", "--oversubscribe", "-n", "2",
                     cli, "sweep", model, "--samples", "7", "--until", "3000", "--seed", "5",
                     "--out", csv, "--traces", traces, "--grid-step", "500", NULL };
    g_auto(QdCliResult) r = { 0 };

    qd_test_spawn (&r, NULL, NULL, argv);
    g_assert_cmpint (r.status, ==, 0);
    csv_text = qd_test_read_text (csv);
    traces_text = qd_test_read_text (traces);
    g_assert_cmpstr (csv_text, ==, first_csv);
    g_assert_cmpstr (traces_text, ==, first_traces);
    g_assert_cmpstr (r.out, ==, first_out);
  }
#else
  g_test_message ("built without MPI: the comparison with mpirun -n 2 is left out");
#endif
  /* The runs differ from one another: their seeds do. */
  {
    g_auto(GStrv) rows = g_strsplit (first_csv, "\n", -1);

    g_assert_cmpstr (strchr (rows[1], ','), !=, strchr (rows[2], ','));
  }
}

/* The summary's row of @name: n, mean and the interval. */
static void
summary_of (const char *out,
            const char *name,
            guint      *n,
            double     *mean,
            double     *low,
            double     *high)
{
  const char *row = strstr (out, name);
  char *end;

  g_assert_nonnull (row);
  row += strlen (name);
  *n = (guint) g_ascii_strtoull (row, &end, 10);
  *mean = g_ascii_strtod (end, &end);
  row = strchr (end, '[');
  g_assert_nonnull (row);
  *low = g_ascii_strtod (row + 1, &end);
  g_assert_true (end[0] == ',');
  *high = g_ascii_strtod (end + 1, NULL);
}

/* M/M/1 at rho = 0.8 over 100 seeds: the 95 % interval of the mean
 * number in the system covers L = rho / (1 - rho) = 4, and is narrow
 * enough to mean something. */
static void
test_sweep_mm1 (void)
{
  g_autofree char *model = example ("queue-server.qdevs");
  g_autofree char *json = tmp_path ("mm1.json");
  g_auto(QdCliResult) r = { 0 };
  json_object *runs;
  guint n;
  double mean, low, high, rho = 0.8;

  run_cli (&r, "sweep", model, "--samples", "100", "--until", "20000", "--jobs", "2",
           "--out", json, NULL);
  g_assert_cmpint (r.status, ==, 0);
  summary_of (r.out, "/Statistics/mean ", &n, &mean, &low, &high);
  g_assert_cmpuint (n, ==, 100);
  g_assert_cmpfloat (low, <=, rho / (1 - rho));
  g_assert_cmpfloat (high, >=, rho / (1 - rho));
  g_assert_cmpfloat (high - low, <, 0.5);
  g_assert_cmpfloat (high - low, >, 0.0);
  /* The server is busy rho of the time. */
  summary_of (r.out, "/Server/utilisation ", &n, &mean, &low, &high);
  g_assert_cmpfloat (low, <=, rho);
  g_assert_cmpfloat (high, >=, rho);

  runs = json_object_from_file (json);
  g_assert_nonnull (runs);
  g_assert_cmpuint (json_object_array_length (runs), ==, 100);
  {
    json_object *last = json_object_array_get_idx (runs, 99);
    json_object *outputs = NULL, *value = NULL;

    g_assert_cmpint (json_object_get_int (json_object_object_get (last, "run")), ==, 99);
    g_assert_true (json_object_get_boolean (json_object_object_get (last, "ok")));
    g_assert_true (json_object_object_get_ex (last, "outputs", &outputs));
    g_assert_true (json_object_object_get_ex (outputs, "/Queue/mean_length", &value));
    g_assert_cmpfloat (json_object_get_double (value), >, 1.0);
  }
  json_object_put (runs);
}

/* Run 1 of 3 fails: it is reported with its value and error, the two
 * others are written, and the exit status counts one failure. */
static void
test_sweep_failing_run (void)
{
  g_autofree char *model = write_sqrt_model ();
  g_autofree char *csv = tmp_path ("failing.csv");
  g_autofree char *text = NULL;
  g_auto(GStrv) rows = NULL;
  const char *jobs[] = { "1", "2" };

  for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
    {
      g_auto(QdCliResult) r = { 0 };

      run_cli (&r, "sweep", model, "--vary", "a=4,-1,9", "--jobs", jobs[i], "--out", csv, NULL);
      g_assert_cmpint (r.status, ==, 11);
      g_assert_nonnull (strstr (r.err, ": run 1 (a=-1) failed: /Root: at t = 0 the input is -1"));
      g_assert_nonnull (strstr (r.err, "3 of 3 runs done, 1 failed"));
      g_clear_pointer (&text, g_free);
      text = qd_test_read_text (csv);
      g_clear_pointer (&rows, g_strfreev);
      rows = g_strsplit (text, "\n", -1);
      g_assert_cmpuint (g_strv_length (rows), ==, 5);
      g_assert_true (g_str_has_prefix (rows[0], "run,a,ok,events,"));
      g_assert_true (g_str_has_prefix (rows[1], "0,4,1,"));
      g_assert_true (g_str_has_prefix (rows[2], "1,-1,0,"));
      g_assert_nonnull (strstr (rows[2], ",\"/Root: at t = 0 the input is -1"));
      /* x = sqrt(a) t: 3 at t = 1 for a = 9. */
      g_assert_true (g_str_has_prefix (rows[3], "2,9,1,"));
      g_assert_nonnull (strstr (rows[3], ",3,0,3,"));
    }
}

/* The bouncing-ball Monte Carlo example: the time of the tenth landing,
 * for three coefficients of restitution e, lies between the free-flight
 * time t1 + 2 v1 (e + ... + e^9) / g and that plus nine contacts of at
 * most half a period pi sqrt(m/k) of the floor's spring. */
static void
test_sweep_bouncing_ball (void)
{
  g_autofree char *model = example ("bouncing-ball-restitution.qdevs");
  g_autofree char *csv = tmp_path ("landings.csv");
  g_autofree char *text = NULL;
  g_auto(GStrv) rows = NULL;
  g_auto(QdCliResult) r = { 0 };
  const double e[] = { 0.75, 0.8, 0.85 };
  const double g = 9.81, z0 = 2.0, contact = G_PI * sqrt (1.0 / 1e6);
  int column = -1;

  run_cli (&r, "sweep", model, "--vary", "restitution=0.75,0.8,0.85", "--out", csv, NULL);
  g_assert_cmpint (r.status, ==, 0);
  text = qd_test_read_text (csv);
  rows = g_strsplit (text, "\n", -1);
  {
    g_auto(GStrv) names = g_strsplit (rows[0], ",", -1);

    for (int c = 0; names[c] != NULL; c++)
      if (strcmp (names[c], "/Tenth landing/t10.final") == 0)
        column = c;
  }
  g_assert_cmpint (column, >, 0);
  for (guint i = 0; i < G_N_ELEMENTS (e); i++)
    {
      g_auto(GStrv) fields = g_strsplit (rows[i + 1], ",", -1);
      double t1 = sqrt (2 * z0 / g), v1 = g * t1, flights = 0.0, t10;

      for (int n = 1; n <= 9; n++)
        flights += 2 * v1 * pow (e[i], n) / g;
      t10 = g_ascii_strtod (fields[column], NULL);
      g_test_message ("e = %g: t10 = %.6f, free flight %.6f", e[i], t10, t1 + flights);
      g_assert_cmpfloat (t10, >, t1 + flights);
      g_assert_cmpfloat (t10, <, t1 + flights + 9 * contact);
    }
}

static void
test_sweep_usage (void)
{
  g_autofree char *model = write_sqrt_model ();
  static const struct { const char *args[4]; const char *says; } cases[] = {
    { { "--vary", "a=1:2" }, "--vary a=1:2: expected a:b:n" },
    { { "--vary", "b=1,2" }, "the model has no variable 'b' to vary; its variables are: a, w" },
    { { "--dist", "a=normal(0,1)" }, "--samples N" },
    { { "--dist", "a=weibull(1,2)", "--samples", "3" }, "expected normal(mu,sigma)" },
    { { "--grid-step", "0.1" }, "--grid-step needs --traces OUT" },
    { { "--vary", "a=1,2", "--set", "a=3" }, "--set a=3: 'a' is also varied" },
    { { "--samples", "0" }, "--samples must be at least 1" },
    { { "--until", "-1" }, "--until -1 must be after the model's start time" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(QdCliResult) r = { 0 };
      const char *const *a = cases[i].args;

      run_cli (&r, "sweep", model, a[0], a[1], a[2], a[3], NULL);
      g_assert_cmpint (r.status, ==, 2);
      g_assert_true (g_str_has_prefix (r.err, "qdevs-cli sweep: "));
      if (strstr (r.err, cases[i].says) == NULL)
        g_error ("case %u: '%s' does not say '%s'", i, r.err, cases[i].says);
      g_assert_cmpstr (r.out, ==, "");
    }
  {
    g_auto(QdCliResult) r = { 0 };

    run_cli (&r, "sweep", NULL);
    g_assert_cmpint (r.status, ==, 2);
    g_assert_nonnull (strstr (r.err, "missing FILE"));
  }
}

/* Reads @fd into @text until it holds @what. */
static void
read_until (int         fd,
            GString    *text,
            const char *what)
{
  char c;

  while (strstr (text->str, what) == NULL && read (fd, &c, 1) == 1)
    g_string_append_c (text, c);
  g_assert_nonnull (strstr (text->str, what));
}

/* Ctrl-C in the middle: the runs done are written, the exit status is
 * 130. Run 0 fails at once and says so on standard error; that line is
 * the sign that the sweep is under way, and run 1 then runs for much
 * longer than the test waits. */
static void
test_sweep_interrupt (void)
{
  g_autofree char *cli = g_build_filename (g_getenv ("QD_BUILD_DIR"), "app", "qdevs-cli", NULL);
  g_autofree char *model = write_sqrt_model ();
  g_autofree char *csv = tmp_path ("interrupted.csv");
  const char *jobs[] = { "1", "2" };

  for (guint i = 0; i < G_N_ELEMENTS (jobs); i++)
    {
      char *argv[] = { cli, "sweep", model, "--vary", "a=-1,1,2,3", "--set", "w=1000",
                       "--until", "1e9", "--jobs", (char *) jobs[i], "--out", csv, NULL };
      g_autoptr(GString) err = g_string_new (NULL);
      g_autoptr(GError) error = NULL;
      g_autofree char *rest = NULL, *out = NULL, *text = NULL;
      int out_fd, err_fd, wait_status;
      GPid pid;

      g_unlink (csv);
      g_assert_true (g_spawn_async_with_pipes (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                               NULL, NULL, &pid, NULL, &out_fd, &err_fd, &error));
      g_assert_no_error (error);
      read_until (err_fd, err, "run 0 (a=-1) failed: ");
      g_assert_cmpint (kill (pid, SIGINT), ==, 0);
      rest = qd_test_read_fd (err_fd);
      out = qd_test_read_fd (out_fd);
      g_assert_cmpint (waitpid (pid, &wait_status, 0), ==, pid);
      g_spawn_close_pid (pid);
      g_assert_true (WIFEXITED (wait_status));
      g_assert_cmpint (WEXITSTATUS (wait_status), ==, 130);
      g_assert_nonnull (strstr (rest, "1 of 4 runs done, 1 failed"));
      g_assert_nonnull (strstr (rest, "interrupted; the results of the 1 runs done are written"));
      text = qd_test_read_text (csv);
      g_assert_true (g_str_has_prefix (text, "run,a,ok,"));
      g_assert_nonnull (strstr (text, "\n0,-1,0,"));
      g_assert_null (strstr (text, "\n1,"));
    }
}

/* The child of @parent (a worker process) that has used the most
 * processor time, from /proc, and that time in clock ticks. */
static GPid
find_busiest_child (GPid           parent,
                    unsigned long *ticks)
{
  g_autoptr(GDir) dir = g_dir_open ("/proc", 0, NULL);
  const char *name;
  GPid busiest = 0;

  *ticks = 0;
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/proc", name, "stat", NULL);
      g_autofree char *stat = NULL;
      const char *after;
      unsigned long utime = 0, stime = 0;
      int ppid = 0;

      if (!g_ascii_isdigit (name[0]) || !g_file_get_contents (path, &stat, NULL, NULL))
        continue;
      /* pid (comm) state ppid pgrp session tty tpgid flags minflt
       * cminflt majflt cmajflt utime stime ...: comm may hold blanks,
       * not ')'. */
      after = strrchr (stat, ')');
      if (after != NULL
          && sscanf (after + 1, " %*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu",
                     &ppid, &utime, &stime) == 3
          && ppid == parent && (busiest == 0 || utime + stime > *ticks))
        {
          busiest = (GPid) atoi (name);
          *ticks = utime + stime;
        }
    }
  return busiest;
}

/* A worker process that dies (killed here, as a crash would end it)
 * fails its run alone, with the signal; the sweep goes on. */
static void
test_sweep_worker_killed (void)
{
  g_autofree char *cli = g_build_filename (g_getenv ("QD_BUILD_DIR"), "app", "qdevs-cli", NULL);
  g_autofree char *model = write_sqrt_model ();
  g_autofree char *csv = tmp_path ("killed.csv");
  char *argv[] = { cli, "sweep", model, "--vary", "a=-1,1,2", "--set", "w=1000",
                   "--until", "1e9", "--jobs", "2", "--out", csv, NULL };
  g_autoptr(GString) err = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *rest = NULL, *out = NULL, *text = NULL;
  int out_fd, err_fd, wait_status;
  GPid pid, worker;

  g_assert_true (g_spawn_async_with_pipes (NULL, argv, NULL, G_SPAWN_DO_NOT_REAP_CHILD,
                                           NULL, NULL, &pid, NULL, &out_fd, &err_fd, &error));
  g_assert_no_error (error);
  /* Run 0 failed at once; the other worker has had run 1, a long one,
   * from the start: it is the one that uses the processor (the first
   * may still be waiting for run 2). */
  read_until (err_fd, err, "run 0 (a=-1) failed: ");
  for (guint tries = 0; tries < 3000; tries++)
    {
      unsigned long ticks;

      worker = find_busiest_child (pid, &ticks);
      if (worker > 0 && ticks >= 5)
        break;
      g_usleep (10000);
    }
  g_assert_cmpint (worker, >, 0);
  g_assert_cmpint (kill (worker, SIGKILL), ==, 0);
  read_until (err_fd, err, "failed: its worker process was killed by signal 9");
  g_assert_cmpint (kill (pid, SIGINT), ==, 0);
  rest = qd_test_read_fd (err_fd);
  out = qd_test_read_fd (out_fd);
  g_assert_cmpint (waitpid (pid, &wait_status, 0), ==, pid);
  g_spawn_close_pid (pid);
  g_assert_true (WIFEXITED (wait_status));
  g_assert_cmpint (WEXITSTATUS (wait_status), ==, 130);
  g_assert_nonnull (strstr (rest, "2 of 3 runs done, 2 failed"));
  text = qd_test_read_text (csv);
  g_assert_nonnull (strstr (text, "\n0,-1,0,"));
  g_assert_nonnull (strstr (text, ",its worker process was killed by signal 9"));
}

#ifdef QD_TEST_HAVE_HDF5
/* The HDF5 traces hold what the CSV traces hold. */
static void
test_sweep_hdf5 (void)
{
  g_autofree char *model = example ("queue-server.qdevs");
  g_autofree char *h5 = tmp_path ("traces.h5");
  g_auto(QdCliResult) r = { 0 };
  double time[7], traces[3 * 7];
  guint64 runs[3];
  hsize_t dims[2] = { 0, 0 };
  hid_t file, set, space;

  run_cli (&r, "sweep", model, "--samples", "3", "--until", "3000", "--jobs", "2",
           "--traces", h5, "--grid-step", "500", NULL);
  g_assert_cmpint (r.status, ==, 0);
  file = H5Fopen (h5, H5F_ACC_RDONLY, H5P_DEFAULT);
  g_assert_cmpint (file, >=, 0);
  set = H5Dopen2 (file, "/traces/Scope/in system", H5P_DEFAULT);
  g_assert_cmpint (set, >=, 0);
  space = H5Dget_space (set);
  g_assert_cmpint (H5Sget_simple_extent_dims (space, dims, NULL), ==, 2);
  g_assert_cmpuint (dims[0], ==, 3);
  g_assert_cmpuint (dims[1], ==, 7);
  g_assert_cmpint (H5Dread (set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, traces), >=, 0);
  H5Sclose (space);
  H5Dclose (set);
  set = H5Dopen2 (file, "/time", H5P_DEFAULT);
  g_assert_cmpint (H5Dread (set, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, time), >=, 0);
  H5Dclose (set);
  set = H5Dopen2 (file, "/run", H5P_DEFAULT);
  g_assert_cmpint (H5Dread (set, H5T_NATIVE_UINT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, runs), >=, 0);
  H5Dclose (set);
  H5Fclose (file);
  g_assert_cmpfloat (time[0], ==, 0.0);
  g_assert_cmpfloat (time[6], ==, 3000.0);
  g_assert_cmpuint (runs[2], ==, 2);
  /* An empty system at t = 0; whole numbers of jobs afterwards. */
  g_assert_cmpfloat (traces[0], ==, 0.0);
  for (guint i = 0; i < 21; i++)
    g_assert_cmpfloat (traces[i], ==, floor (traces[i]));
}
#endif

int
main (int    argc,
      char **argv)
{
  int status;

  g_test_init (&argc, &argv, NULL);
  tmp_dir = g_dir_make_tmp ("qdevs-sweep-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);

  g_test_add_func ("/cli-sweep/determinism", test_sweep_determinism);
  g_test_add_func ("/cli-sweep/mm1", test_sweep_mm1);
  g_test_add_func ("/cli-sweep/failing-run", test_sweep_failing_run);
  g_test_add_func ("/cli-sweep/bouncing-ball", test_sweep_bouncing_ball);
  g_test_add_func ("/cli-sweep/usage", test_sweep_usage);
  g_test_add_func ("/cli-sweep/interrupt", test_sweep_interrupt);
  g_test_add_func ("/cli-sweep/worker-killed", test_sweep_worker_killed);
#ifdef QD_TEST_HAVE_HDF5
  g_test_add_func ("/cli-sweep/hdf5", test_sweep_hdf5);
#endif

  status = g_test_run ();
  qd_test_remove_tree (tmp_dir);
  g_free (tmp_dir);
  return status;
}

/* qd-reference-lcline.c: qdevs-reference-lcline, the hand-written QSS2
 * and QSS3 solvers of the LC line as a program, to time against
 * `qdevs-cli bench`
 *
 *   qdevs-reference-lcline --model lcline-random --n 10000 --until 1 \
 *                          --repeat 3 --json
 *
 * takes the options of `qdevs-cli bench` that apply to it and prints the
 * same fields (a JSON object or a row): integrator steps, the run's wall
 * and CPU time (with --repeat K the medians, and the least in wall_s_min
 * and cpu_s_min), nanoseconds per step (median wall time per step, as
 * bench computes it) and the process's peak resident memory. Only the
 * runs are timed, as bench times only qd_simulation_run(): making the
 * line and resetting it are not. The solver is
 * qd-reference-lcline-solver.c; this file is its command line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "qd-bench-timing.h"
#include "qd-reference-lcline-solver.h"
#include "qd-reference-lcline3-solver.h"
#include "qd-reference-lcline-liqss2-solver.h"

/* One of the two solvers, by method. */
typedef struct
{
  QdRefLcline       *qss2;
  QdRefLcline3      *qss3;
  QdRefLclineLiqss2 *liqss2;
} Line;

static void
line_reset (Line *line)
{
  if (line->qss3 != NULL)
    qd_ref_lcline3_reset (line->qss3);
  else if (line->liqss2 != NULL)
    qd_ref_lcline_liqss2_reset (line->liqss2);
  else
    qd_ref_lcline_reset (line->qss2);
}

static guint64
line_start (Line *line)
{
  if (line->liqss2 != NULL)
    return qd_ref_lcline_liqss2_start (line->liqss2);
  return line->qss3 != NULL ? qd_ref_lcline3_start (line->qss3)
                            : qd_ref_lcline_start (line->qss2);
}

static guint64
line_advance (Line   *line,
              double  until)
{
  if (line->liqss2 != NULL)
    return qd_ref_lcline_liqss2_advance (line->liqss2, until);
  return line->qss3 != NULL ? qd_ref_lcline3_advance (line->qss3, until)
                            : qd_ref_lcline_advance (line->qss2, until);
}

static double
line_state_at (const Line *line,
               guint       i,
               double      t)
{
  if (line->liqss2 != NULL)
    return qd_ref_lcline_liqss2_state_at (line->liqss2, i, t);
  return line->qss3 != NULL ? qd_ref_lcline3_state_at (line->qss3, i, t)
                            : qd_ref_lcline_state_at (line->qss2, i, t);
}

/* The peak resident memory of this program, in kilobytes: the kernel's
 * high-water mark of its address space (VmHWM). Not getrusage()'s
 * ru_maxrss, which keeps the peak of the process before it exec'd this
 * program: run from a script, that is the script's own size. */
static long
peak_rss_kb (void)
{
  g_autofree char *text = NULL;
  const char *line;
  struct rusage usage;

  if (g_file_get_contents ("/proc/self/status", &text, NULL, NULL)
      && (line = strstr (text, "\nVmHWM:")) != NULL)
    return strtol (line + strlen ("\nVmHWM:"), NULL, 10);
  if (getrusage (RUSAGE_SELF, &usage) == 0)
    return usage.ru_maxrss;
  return 0;
}

/* A double for JSON, in the C locale whatever the user's. */
static const char *
json_double (char   *buf,
             double  v)
{
  return g_ascii_formatd (buf, G_ASCII_DTOSTR_BUF_SIZE, "%.9g", v);
}

int
main (int    argc,
      char **argv)
{
  g_autofree char *model = NULL, *method = NULL;
  int n = 1000, repeat = 1;
  double until = 10.0, from = 0.0;
  gboolean as_json = FALSE, print_states = FALSE;
  GOptionEntry entries[] = {
    { "model", 0, 0, G_OPTION_ARG_STRING, &model,
      "lcline (x(0) = 0, the default) or lcline-random (x(0) uniform in [-1, 1], bench's seed)", "MODEL" },
    { "n", 0, 0, G_OPTION_ARG_INT, &n, "Number of states (default 1000)", "N" },
    { "method", 0, 0, G_OPTION_ARG_STRING, &method, "QSS2 (the default), QSS3 or LIQSS2", "M" },
    { "until", 0, 0, G_OPTION_ARG_DOUBLE, &until, "Final time (default 10, as bench's for the LC lines)", "T" },
    { "from", 0, 0, G_OPTION_ARG_DOUBLE, &from,
      "Run until T0 first without timing or counting it, as bench's --from (default 0)", "T0" },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &repeat,
      "Run K times in this process and report the medians and the least time (default 1)", "K" },
    { "json", 0, 0, G_OPTION_ARG_NONE, &as_json, "Print one JSON object on one line", NULL },
    { "print-states", 0, 0, G_OPTION_ARG_NONE, &print_states,
      "Then print the final states x1..xN, one per line (%.17g)", NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree double *wall = NULL, *cpu = NULL;
  gboolean random_start;
  Line line = { NULL, NULL, NULL };
  gboolean qss3, liqss2;
  const char *method_name;
  guint64 steps = 0;
  double wall_s, wall_min, cpu_s, cpu_min, ns_per_step;
  long peak_kb;

  context = g_option_context_new ("- the LC line under QSS2, QSS3 or LIQSS2, hand-written");
  g_option_context_set_summary (context,
                                "A specialised QSS2, QSS3 or LIQSS2 solver of qdevs-cli bench's LC line models (dqrel 1e-3,\n"
                                "dqmin 1e-6), taking the same steps to the same states as the engine: the\n"
                                "floor its nanoseconds per step are read against. Fields as bench's.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("qdevs-reference-lcline: %s\n", error->message);
      return 2;
    }
  if (model == NULL)
    model = g_strdup ("lcline");
  if (method == NULL)
    method = g_strdup ("QSS2");
  if (argc > 1 || (strcmp (model, "lcline") != 0 && strcmp (model, "lcline-random") != 0)
      || (g_ascii_strcasecmp (method, "QSS2") != 0 && g_ascii_strcasecmp (method, "QSS3") != 0
          && g_ascii_strcasecmp (method, "LIQSS2") != 0)
      || n < 1 || !(until > 0.0) || !(from >= 0.0 && from < until)
      || repeat < 1 || repeat > 1000)
    {
      g_printerr ("qdevs-reference-lcline: --model is lcline or lcline-random, --method QSS2, QSS3 or LIQSS2, --n at least 1, "
                  "--until positive, --from from 0 to before --until, --repeat from 1 to 1000\n");
      return 2;
    }
  random_start = strcmp (model, "lcline-random") == 0;

  qss3 = g_ascii_strcasecmp (method, "QSS3") == 0;
  liqss2 = g_ascii_strcasecmp (method, "LIQSS2") == 0;
  method_name = qss3 ? "QSS3" : liqss2 ? "LIQSS2" : "QSS2";
  if (qss3)
    line.qss3 = qd_ref_lcline3_new ((guint) n, random_start);
  else if (liqss2)
    line.liqss2 = qd_ref_lcline_liqss2_new ((guint) n, random_start);
  else
    line.qss2 = qd_ref_lcline_new ((guint) n, random_start);
  wall = g_new0 (double, repeat);
  cpu = g_new0 (double, repeat);
  for (int r = 0; r < repeat; r++)
    {
      gint64 start_us;
      double start_cpu;
      guint64 got;

      line_reset (&line);
      /* With --from, the start and the run to T0 outside the clock and
       * the count, as in bench. */
      if (from > 0.0)
        {
          line_start (&line);
          line_advance (&line, from);
        }
      start_us = g_get_monotonic_time ();
      start_cpu = qd_bench_cpu_time ();
      got = from > 0.0 ? line_advance (&line, until)
                       : line_start (&line) + line_advance (&line, until);
      cpu[r] = qd_bench_cpu_time () - start_cpu;
      wall[r] = (double) (g_get_monotonic_time () - start_us) / G_USEC_PER_SEC;
      if (r > 0 && got != steps)
        {
          /* As bench: a run must not depend on what ran before it. */
          g_printerr ("qdevs-reference-lcline: run %d took %" G_GUINT64_FORMAT
                      " steps, the first %" G_GUINT64_FORMAT "\n", r + 1, got, steps);
          qd_ref_lcline_free (line.qss2);
          qd_ref_lcline3_free (line.qss3);
          qd_ref_lcline_liqss2_free (line.liqss2);
          return 1;
        }
      steps = got;
    }
  wall_s = qd_bench_median (wall, (guint) repeat, &wall_min);
  cpu_s = qd_bench_median (cpu, (guint) repeat, &cpu_min);
  ns_per_step = steps > 0 ? wall_s * 1e9 / (double) steps : 0.0;
  peak_kb = peak_rss_kb ();

  if (as_json)
    {
      char b[6][G_ASCII_DTOSTR_BUF_SIZE];
      char from_field[G_ASCII_DTOSTR_BUF_SIZE + 16] = "";
      char fallbacks_field[48] = "";
      gsize bytes = qss3 ? qd_ref_lcline3_bytes_per_state ()
                    : liqss2 ? qd_ref_lcline_liqss2_bytes_per_state ()
                    : qd_ref_lcline_bytes_per_state ();

      if (from > 0.0)
        g_snprintf (from_field, sizeof from_field, ",\"from\":%s", json_double (b[5], from));
      /* The LIQSS2 solver does not count the general searches it falls
       * back to: no field rather than a 0 that would say none. */
      if (!liqss2)
        g_snprintf (fallbacks_field, sizeof fallbacks_field, ",\"fallbacks\":%" G_GUINT64_FORMAT,
                    qss3 ? qd_ref_lcline3_fallbacks (line.qss3) : qd_ref_lcline_fallbacks (line.qss2));
      g_print ("{\"model\":\"%s\",\"n\":%d,\"method\":\"%s\"%s,\"integrator_steps\":%" G_GUINT64_FORMAT
               ",\"wall_s\":%s,\"ns_per_step\":%s,\"peak_rss_kb\":%ld,\"cpu_s\":%s,\"repeat\":%d"
               ",\"wall_s_min\":%s,\"cpu_s_min\":%s,\"bytes_per_state\":%" G_GSIZE_FORMAT "%s}\n",
               model, n, method_name, from_field, steps, json_double (b[0], wall_s), json_double (b[1], ns_per_step),
               peak_kb, json_double (b[2], cpu_s), repeat, json_double (b[3], wall_min),
               json_double (b[4], cpu_min), bytes, fallbacks_field);
    }
  else
    {
      g_print ("%-14s %8s %-7s %16s %10s %12s %12s %9s\n", "model", "n", "method",
               "integrator_steps", "wall_s", "ns_per_step", "peak_rss_kb", "cpu_s");
      g_print ("%-14s %8d %-7s %16" G_GUINT64_FORMAT " %10.3f %12.1f %12ld %9.3f\n",
               model, n, method_name, steps, wall_s, ns_per_step, peak_kb, cpu_s);
    }

  if (print_states)
    for (guint i = 0; i < (guint) n; i++)
      {
        char buf[G_ASCII_DTOSTR_BUF_SIZE];

        g_print ("%s\n", g_ascii_formatd (buf, sizeof buf, "%.17g",
                                          line_state_at (&line, i, until)));
      }

  qd_ref_lcline_free (line.qss2);
  qd_ref_lcline3_free (line.qss3);
  qd_ref_lcline_liqss2_free (line.liqss2);
  return 0;
}

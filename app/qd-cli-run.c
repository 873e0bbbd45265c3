/* qd-cli-run.c: `qdevs-cli run`, simulate a diagram headless
 *
 * Loads, compiles (with --set overrides of model variables), runs to the
 * final time (or --until), then exports the Scope traces as CSV and prints
 * statistics (the engine's counts and those the blocks report, such as a
 * queue's mean length) as tables or as one JSON object.
 */
#include <json-c/json.h>
#include <math.h>
#include <string.h>

#include "qd-cli-private.h"

typedef struct
{
  double     until;
  char     **overrides;
  char      *csv;
  double     csv_step;
  gboolean   stats;
  gboolean   stats_json;
} RunOptions;

/* The statistics blocks report (queues, servers, Statistics sinks), one
 * row each, after the totals; nothing when no block reports any. */
static void
print_block_stats_table (QdSimulation *sim)
{
  GPtrArray *stats = qd_simulation_get_stats (sim);
  int path_width = (int) strlen (_("Block"));
  int name_width = (int) strlen (_("Statistic"));

  if (stats->len == 0)
    return;
  for (guint k = 0; k < stats->len; k++)
    {
      const QdStat *stat = g_ptr_array_index (stats, k);

      path_width = MAX (path_width, (int) g_utf8_strlen (stat->path, -1));
      name_width = MAX (name_width, (int) g_utf8_strlen (stat->name, -1));
    }
  g_print ("\n%-*s  %-*s  %s\n", path_width, _("Block"), name_width,
           _("Statistic"), _("Value"));
  for (guint k = 0; k < stats->len; k++)
    {
      const QdStat *stat = g_ptr_array_index (stats, k);
      /* As above: pad by width, not by bytes. */
      int path_pad = path_width + (int) (strlen (stat->path) - g_utf8_strlen (stat->path, -1));
      int name_pad = name_width + (int) (strlen (stat->name) - g_utf8_strlen (stat->name, -1));

      g_print ("%-*s  %-*s  %.10g\n", path_pad, stat->path, name_pad,
               stat->name, stat->value);
    }
}

static void
print_stats_table (QdSimulation *sim,
                   double        wall_s)
{
  guint n = qd_simulation_get_n_atomics (sim);
  guint64 events = qd_simulation_get_events (sim);
  int path_width = (int) strlen (_("Block"));
  int type_width = (int) strlen (_("Type"));

  for (guint i = 0; i < n; i++)
    {
      const QdAtomic *atomic = qd_simulation_get_atomic (sim, i);

      path_width = MAX (path_width, (int) g_utf8_strlen (atomic->path, -1));
      type_width = MAX (type_width, (int) strlen (atomic->type->id));
    }

  g_print ("%-*s  %-*s  %12s  %12s\n", path_width, _("Block"),
           type_width, _("Type"), _("Internal"), _("External"));
  for (guint i = 0; i < n; i++)
    {
      const QdAtomic *atomic = qd_simulation_get_atomic (sim, i);
      guint64 n_internal = 0, n_external = 0;
      /* %-*s pads by bytes: add the bytes that multi-byte characters use
       * beyond their width so the columns stay aligned. */
      int pad = path_width + (int) (strlen (atomic->path) - g_utf8_strlen (atomic->path, -1));

      qd_simulation_get_block_stats (sim, i, &n_internal, &n_external);
      g_print ("%-*s  %-*s  %12" G_GUINT64_FORMAT "  %12" G_GUINT64_FORMAT "\n",
               pad, atomic->path, type_width, atomic->type->id,
               n_internal, n_external);
    }
  g_print ("\n");
  g_print ("%-20s %" G_GUINT64_FORMAT "\n", _("Events:"), events);
  g_print ("%-20s %" G_GUINT64_FORMAT "\n", _("Transitions:"),
           qd_simulation_get_transitions (sim));
  g_print ("%-20s %" G_GUINT64_FORMAT "\n", _("Integrator steps:"),
           qd_simulation_get_integrator_steps (sim));
  g_print ("%-20s %.17g\n", _("Final time:"), qd_simulation_get_time (sim));
  g_print ("%-20s %.6f s\n", _("Wall time:"), wall_s);
  g_print ("%-20s %.4g\n", _("Events per second:"),
           wall_s > 0.0 ? (double) events / wall_s : 0.0);
  print_block_stats_table (sim);
}

static void
print_stats_json (QdSimulation *sim,
                  double        wall_s)
{
  json_object *root = json_object_new_object ();
  json_object *blocks = json_object_new_array ();
  guint n = qd_simulation_get_n_atomics (sim);
  guint64 events = qd_simulation_get_events (sim);

  for (guint i = 0; i < n; i++)
    {
      const QdAtomic *atomic = qd_simulation_get_atomic (sim, i);
      json_object *block = json_object_new_object ();
      guint64 n_internal = 0, n_external = 0;

      qd_simulation_get_block_stats (sim, i, &n_internal, &n_external);
      json_object_object_add (block, "path", json_object_new_string (atomic->path));
      json_object_object_add (block, "type", json_object_new_string (atomic->type->id));
      json_object_object_add (block, "internal", json_object_new_int64 ((gint64) n_internal));
      json_object_object_add (block, "external", json_object_new_int64 ((gint64) n_external));
      json_object_array_add (blocks, block);
    }
  json_object_object_add (root, "blocks", blocks);
  {
    GPtrArray *stats = qd_simulation_get_stats (sim);
    json_object *array = json_object_new_array ();

    for (guint k = 0; k < stats->len; k++)
      {
        const QdStat *stat = g_ptr_array_index (stats, k);
        json_object *entry = json_object_new_object ();

        json_object_object_add (entry, "path", json_object_new_string (stat->path));
        json_object_object_add (entry, "name", json_object_new_string (stat->name));
        /* JSON has no NaN or infinity: such a value is written as null. */
        json_object_object_add (entry, "value",
                                isfinite (stat->value) ? json_object_new_double (stat->value) : NULL);
        json_object_array_add (array, entry);
      }
    json_object_object_add (root, "stats", array);
  }
  json_object_object_add (root, "events", json_object_new_int64 ((gint64) events));
  json_object_object_add (root, "transitions",
                          json_object_new_int64 ((gint64) qd_simulation_get_transitions (sim)));
  json_object_object_add (root, "integrator_steps",
                          json_object_new_int64 ((gint64) qd_simulation_get_integrator_steps (sim)));
  json_object_object_add (root, "final_time",
                          json_object_new_double (qd_simulation_get_time (sim)));
  json_object_object_add (root, "wall_s", json_object_new_double (wall_s));
  /* JSON has no infinity: a run too short to time reports 0. */
  json_object_object_add (root, "events_per_s",
                          json_object_new_double (wall_s > 0.0 ? (double) events / wall_s : 0.0));

  g_print ("%s\n", json_object_to_json_string_ext (root, JSON_C_TO_STRING_PLAIN
                                                         | JSON_C_TO_STRING_NOSLASHESCAPE));
  json_object_put (root);
}

static void
print_summary (const char   *file,
               QdSimulation *sim,
               double        wall_s)
{
  g_print (_("%s: reached t = %g: %" G_GUINT64_FORMAT " events, %" G_GUINT64_FORMAT
             " integrator steps in %.3f s\n"),
           file, qd_simulation_get_time (sim), qd_simulation_get_events (sim),
           qd_simulation_get_integrator_steps (sim), wall_s);
}

/* --until replaces the model's final time, shorter or longer: a run can
 * be extended past the time stored in the file without editing it. */
static int
apply_until (const char  *file,
             QdDocument  *document,
             double       until)
{
  const QdSettings *settings = qd_document_get_settings (document);
  g_autoptr(GError) error = NULL;
  QdSettings copy = *settings;

  if (!(until > settings->start_time))
    return qd_cli_usage_error ("run", _("--until %g must be after the model's start time %g"),
                               until, settings->start_time);
  copy.final_time = until;
  if (!qd_document_set_settings (document, &copy, &error))
    {
      g_printerr ("%s: %s\n", file, error->message);
      return QD_CLI_EXIT_MODEL;
    }
  return QD_CLI_EXIT_OK;
}

static int
export_csv (const char   *file,
            QdSimulation *sim,
            const char   *csv,
            double        step)
{
  GPtrArray *traces = qd_simulation_get_traces (sim);
  g_autoptr(GError) error = NULL;

  if (traces == NULL || traces->len == 0)
    {
      g_printerr (_("%s: the model has no Scope, so there is nothing to write to %s; add a Scope and connect the signals to export\n"),
                  file, csv);
      return QD_CLI_EXIT_MODEL;
    }
  if (!qd_traces_write_csv (traces, qd_simulation_get_start_time (sim),
                            qd_simulation_get_time (sim), step, csv, &error))
    {
      g_printerr ("%s\n", error->message);
      return QD_CLI_EXIT_MODEL;
    }
  return QD_CLI_EXIT_OK;
}

int
qd_cli_run (int    argc,
            char **argv)
{
  RunOptions opts = { .until = NAN, .csv_step = 0.0 };
  GOptionEntry entries[] = {
    { "until", 0, 0, G_OPTION_ARG_DOUBLE, &opts.until,
      N_("Run until time T instead of the model's final time (earlier or later: it replaces the final time)"), N_("T") },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opts.overrides,
      N_("Replace (or add) the model variable NAME; may be repeated"), N_("NAME=VALUE") },
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &opts.csv,
      N_("Write every Scope trace to the CSV file OUT"), N_("OUT") },
    { "csv-step", 0, 0, G_OPTION_ARG_DOUBLE, &opts.csv_step,
      N_("Sample the CSV every H time units (default 0: one row per event)"), N_("H") },
    { "stats", 0, 0, G_OPTION_ARG_NONE, &opts.stats,
      N_("Print transitions per block, totals, speed and the statistics blocks report as tables"), NULL },
    { "stats-json", 0, 0, G_OPTION_ARG_NONE, &opts.stats_json,
      N_("Print the same statistics as one JSON object on standard output"), NULL },
    { NULL }
  };
  g_autoptr(QdDocument) document = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GError) error = NULL;
  QdSimulation *sim;
  const char *file;
  QdRunStatus status;
  gint64 start_us;
  double wall_s;
  int status_code = QD_CLI_EXIT_OK;

  if (!qd_cli_parse_options ("run", _("FILE"),
                             _("Simulate the diagram FILE headless, from its start time to its final time."),
                             _("--until T replaces the final time stored in FILE for this run, so T may be\n"
                               "earlier or later than it. Without --stats or --stats-json a one-line summary\n"
                               "is printed. Errors go to standard error, one line each, starting with FILE.\n\n"
                               "Example:\n"
                               "  qdevs-cli run model.qdevs --until 20 --set k=2 --csv out.csv --csv-step 0.1"),
                             entries, &argc, &argv))
    return QD_CLI_EXIT_USAGE;

  if (argc < 2)
    status_code = qd_cli_usage_error ("run", _("missing FILE (a .qdevs diagram)"));
  else if (argc > 2)
    status_code = qd_cli_usage_error ("run", _("unexpected argument '%s'"), argv[2]);
  else if (!qd_cli_check_overrides ("run", opts.overrides))
    status_code = QD_CLI_EXIT_USAGE;
  else if (!(opts.csv_step >= 0.0) || isinf (opts.csv_step))
    status_code = qd_cli_usage_error ("run", _("--csv-step must be 0 or a positive number"));
  else if (opts.csv_step > 0.0 && opts.csv == NULL)
    status_code = qd_cli_usage_error ("run", _("--csv-step needs --csv OUT"));
  if (status_code != QD_CLI_EXIT_OK)
    goto out;

  file = argv[1];
  document = qd_document_load (file, &error);
  if (document == NULL)
    {
      /* Load errors already start with the file name. */
      g_printerr ("%s\n", error->message);
      status_code = QD_CLI_EXIT_MODEL;
      goto out;
    }

  if (!isnan (opts.until))
    {
      status_code = apply_until (file, document, opts.until);
      if (status_code != QD_CLI_EXIT_OK)
        goto out;
    }

  problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  sim = qd_simulation_new (document, (const char *const *) opts.overrides, problems, &error);
  if (sim == NULL)
    {
      if (problems->len > 0)
        qd_cli_print_problems (file, problems);
      else
        g_printerr ("%s: %s\n", file, error != NULL ? error->message : _("the model cannot be compiled"));
      status_code = QD_CLI_EXIT_MODEL;
      goto out;
    }

  start_us = g_get_monotonic_time ();
  status = qd_simulation_run (sim, &error);
  wall_s = (double) (g_get_monotonic_time () - start_us) / G_USEC_PER_SEC;
  qd_simulation_finish (sim);

  if (status == QD_RUN_ERROR)
    {
      /* Run-time errors name the blocks; the file goes in front so every
       * line of our output starts with where it comes from. */
      g_printerr ("%s: %s\n", file, error != NULL ? error->message : _("the run stopped with an error"));
      status_code = QD_CLI_EXIT_RUN;
    }
  else
    {
      if (opts.csv != NULL)
        status_code = export_csv (file, sim, opts.csv, opts.csv_step);
      if (opts.stats)
        print_stats_table (sim, wall_s);
      if (opts.stats_json)
        print_stats_json (sim, wall_s);
      if (!opts.stats && !opts.stats_json)
        print_summary (file, sim, wall_s);
    }
  qd_simulation_free (sim);

out:
  g_strfreev (opts.overrides);
  g_free (opts.csv);
  return status_code;
}

/* qd-cli-compare.c: `qdevs-cli compare`, one diagram under several
 * methods, side by side
 *
 * Runs the diagram once per method and once under a reference
 * (qd-compare.h), and prints one row per method: its steps, failed
 * steps, right-hand-side evaluations and CPU time, and for every Scope
 * signal the largest and the RMS error against the reference; then the
 * steps of each Integrator under the QSS methods. --json prints the same
 * as one JSON object.
 */
#include <json-c/json.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "qd-cli-private.h"

/* "RK4:h=0.01,RKF45,BDF:rtol=1e-8,atol=1e-10" into its specifications:
 * a piece with '=' but no ':' is one more option of the one before. */
static GPtrArray *
split_specs (char **lists)
{
  GPtrArray *specs = g_ptr_array_new_with_free_func (g_free);

  for (guint l = 0; lists != NULL && lists[l] != NULL; l++)
    {
      g_auto(GStrv) pieces = g_strsplit (lists[l], ",", -1);

      for (guint i = 0; pieces[i] != NULL; i++)
        {
          char *piece = g_strstrip (pieces[i]);

          if (piece[0] == '\0')
            continue;
          if (strchr (piece, '=') != NULL && strchr (piece, ':') == NULL
              && specs->len > 0)
            {
              char **last = (char **) &g_ptr_array_index (specs, specs->len - 1);
              char *joined = g_strdup_printf ("%s,%s", *last, piece);

              g_free (*last);
              *last = joined;
            }
          else
            g_ptr_array_add (specs, g_strdup (piece));
        }
    }
  g_ptr_array_add (specs, NULL);
  return specs;
}

static void
print_number (double value,
              int    width)
{
  if (isnan (value))
    g_print ("  %*s", width, "-");
  else
    g_print ("  %*.3e", width, value);
}

/* Pads TEXT to WIDTH characters, not bytes as printf's %*s does, so
 * that translated headings such as "Método" stay over their column;
 * a negative WIDTH aligns left. */
static void
print_cell (const char *text,
            int         width)
{
  int pad = ABS (width) - (int) g_utf8_strlen (text, -1);

  if (width < 0)
    g_print ("%s", text);
  for (int i = 0; i < pad; i++)
    g_print (" ");
  if (width >= 0)
    g_print ("%s", text);
}

static void
print_row (const QdCompareRun *run,
           int                 name_width,
           guint               n_signals)
{
  print_cell (run->name, -name_width);
  g_print ("  %10" PRIu64 "  %8" PRIu64 "  %11" PRIu64 "  %9.4f",
           run->steps, run->failed_steps,
           run->rhs_evals, run->cpu_seconds);
  if (run->error != NULL)
    {
      g_print (_("  failed: %s\n"), run->error);
      return;
    }
  for (guint s = 0; s < n_signals; s++)
    {
      const QdCompareError *e = &g_array_index (run->errors, QdCompareError, s);

      print_number (e->max, 12);
      print_number (e->rms, 12);
    }
  g_print ("\n");
}

static void
print_integrator_steps (QdComparison *cmp,
                        int           name_width)
{
  gboolean header = FALSE;

  for (guint i = 0; i < qd_comparison_get_n_runs (cmp); i++)
    {
      const QdCompareRun *run = qd_comparison_get_run (cmp, i);

      if (run->integrators == NULL || run->error != NULL)
        continue;
      if (!header)
        {
          g_print (_("\nSteps per Integrator (QSS):\n"));
          print_cell (_("Method"), -name_width);
          g_print ("  ");
          print_cell (_("Steps"), 10);
          g_print ("  %s\n", _("Integrator"));
          header = TRUE;
        }
      for (guint k = 0; k < run->integrators->len; k++)
        {
          const QdCompareIntegrator *integ = &g_array_index (run->integrators, QdCompareIntegrator, k);

          print_cell (run->name, -name_width);
          g_print ("  %10" PRIu64 "  %s\n", integ->steps, integ->path);
        }
    }
}

static void
print_table (const char   *file,
             QdComparison *cmp)
{
  const QdCompareRun *ref = qd_comparison_get_reference (cmp);
  const char *const *signals = qd_comparison_get_signals (cmp);
  guint n_signals = g_strv_length ((char **) signals);
  int name_width = (int) g_utf8_strlen (_("Method"), -1);

  for (guint i = 0; i < qd_comparison_get_n_runs (cmp); i++)
    name_width = MAX (name_width, (int) g_utf8_strlen (qd_comparison_get_run (cmp, i)->name, -1));

  g_print (_("%s: reference %s: %" PRIu64 " steps, %.4f s CPU\n"),
           file, ref->name, ref->steps, ref->cpu_seconds);
  for (guint s = 0; s < n_signals; s++)
    g_print (_("Signal %u: %s\n"), s + 1, signals[s]);
  g_print ("\n");
  print_cell (_("Method"), -name_width);
  g_print ("  ");
  print_cell (_("Steps"), 10);
  g_print ("  ");
  print_cell (_("Failed"), 8);
  g_print ("  ");
  print_cell (_("RHS evals"), 11);
  g_print ("  ");
  print_cell (_("CPU (s)"), 9);
  for (guint s = 0; s < n_signals; s++)
    {
      g_autofree char *max = g_strdup_printf (_("max err %u"), s + 1);
      g_autofree char *rms = g_strdup_printf (_("RMS err %u"), s + 1);

      g_print ("  ");
      print_cell (max, 12);
      g_print ("  ");
      print_cell (rms, 12);
    }
  g_print ("\n");
  for (guint i = 0; i < qd_comparison_get_n_runs (cmp); i++)
    print_row (qd_comparison_get_run (cmp, i), name_width, n_signals);
  print_integrator_steps (cmp, name_width);
}

/* NaN is not JSON: null. */
static json_object *
json_number (double value)
{
  return isnan (value) ? NULL : json_object_new_double (value);
}

static json_object *
run_to_json (const QdCompareRun *run,
             const char *const  *signals)
{
  json_object *o = json_object_new_object ();

  json_object_object_add (o, "spec", json_object_new_string (run->spec));
  json_object_object_add (o, "method", json_object_new_string (run->name));
  json_object_object_add (o, "family", json_object_new_string (run->qss ? "qss" : "classic"));
  json_object_object_add (o, "steps", json_object_new_int64 ((gint64) run->steps));
  json_object_object_add (o, "failed_steps", json_object_new_int64 ((gint64) run->failed_steps));
  json_object_object_add (o, "rhs_evals", json_object_new_int64 ((gint64) run->rhs_evals));
  json_object_object_add (o, "cpu_seconds", json_object_new_double (run->cpu_seconds));
  json_object_object_add (o, "error", run->error != NULL ? json_object_new_string (run->error) : NULL);
  if (run->integrators != NULL)
    {
      json_object *a = json_object_new_array ();

      for (guint k = 0; k < run->integrators->len; k++)
        {
          const QdCompareIntegrator *integ = &g_array_index (run->integrators, QdCompareIntegrator, k);
          json_object *i = json_object_new_object ();

          json_object_object_add (i, "path", json_object_new_string (integ->path));
          json_object_object_add (i, "steps", json_object_new_int64 ((gint64) integ->steps));
          json_object_array_add (a, i);
        }
      json_object_object_add (o, "integrators", a);
    }
  if (run->errors != NULL)
    {
      json_object *a = json_object_new_array ();

      for (guint s = 0; s < run->errors->len; s++)
        {
          const QdCompareError *e = &g_array_index (run->errors, QdCompareError, s);
          json_object *j = json_object_new_object ();

          json_object_object_add (j, "signal", json_object_new_string (signals[s]));
          json_object_object_add (j, "max", json_number (e->max));
          json_object_object_add (j, "rms", json_number (e->rms));
          json_object_array_add (a, j);
        }
      json_object_object_add (o, "errors", a);
    }
  return o;
}

static void
print_json (const char   *file,
            QdComparison *cmp)
{
  const char *const *signals = qd_comparison_get_signals (cmp);
  json_object *root = json_object_new_object ();
  json_object *runs = json_object_new_array ();
  json_object *names = json_object_new_array ();

  for (guint s = 0; signals[s] != NULL; s++)
    json_object_array_add (names, json_object_new_string (signals[s]));
  for (guint i = 0; i < qd_comparison_get_n_runs (cmp); i++)
    json_object_array_add (runs, run_to_json (qd_comparison_get_run (cmp, i), signals));
  json_object_object_add (root, "file", json_object_new_string (file));
  json_object_object_add (root, "signals", names);
  json_object_object_add (root, "reference", run_to_json (qd_comparison_get_reference (cmp), signals));
  json_object_object_add (root, "methods", runs);
  g_print ("%s\n", json_object_to_json_string_ext (root, JSON_C_TO_STRING_PRETTY
                                                         | JSON_C_TO_STRING_NOSLASHESCAPE));
  json_object_put (root);
}

static int
compare_document (const char  *file,
                  QdDocument  *document,
                  GPtrArray   *specs,
                  const char  *reference,
                  char       **overrides,
                  gboolean     json)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  g_autoptr(GError) error = NULL;
  QdComparison *cmp;
  int status_code = QD_CLI_EXIT_OK;

  if (!qd_document_check (document, (const char *const *) overrides, problems))
    {
      qd_cli_print_problems (file, problems);
      return QD_CLI_EXIT_MODEL;
    }
  cmp = qd_comparison_new (document, (const char *const *) specs->pdata, reference,
                           (const char *const *) overrides, &error);
  if (cmp == NULL)
    return qd_cli_usage_error ("compare", "%s", error->message);
  if (!qd_comparison_run (cmp, &error))
    {
      g_printerr ("%s: %s\n", file, error->message);
      qd_comparison_free (cmp);
      return QD_CLI_EXIT_RUN;
    }
  if (json)
    print_json (file, cmp);
  else
    print_table (file, cmp);
  for (guint i = 0; i < qd_comparison_get_n_runs (cmp); i++)
    if (qd_comparison_get_run (cmp, i)->error != NULL)
      status_code = QD_CLI_EXIT_RUN;
  qd_comparison_free (cmp);
  return status_code;
}

int
qd_cli_compare (int    argc,
                char **argv)
{
  char **methods = NULL;
  char **overrides = NULL;
  char *reference = NULL;
  char *until = NULL;
  gboolean json = FALSE;
  GOptionEntry entries[] = {
    { "methods", 0, 0, G_OPTION_ARG_STRING_ARRAY, &methods,
      N_("The methods to compare, separated by commas: QSS methods of the Integrator (QSS1, QSS2, QSS3, LIQSS2...; options dqmin, dqrel) and classic solvers (BDF, Adams, Euler, Heun, RK4, RKF45, DOPRI, backward-euler...; options rtol, atol, max_step, h); may be repeated"), N_("SPEC,...") },
    { "reference", 0, 0, G_OPTION_ARG_STRING, &reference,
      N_("The method whose run the errors are measured against (default cvode-bdf:rtol=1e-10,atol=1e-12)"), N_("SPEC") },
    { "json", 0, 0, G_OPTION_ARG_NONE, &json,
      N_("Print the comparison as one JSON object on standard output"), NULL },
    { "until", 0, 0, G_OPTION_ARG_STRING, &until,
      N_("Run every method to the time T instead of the model's final time"), N_("T") },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &overrides,
      N_("Replace the value of the model variable NAME (one the model defines); may be repeated"), N_("NAME=VALUE") },
    { NULL }
  };
  g_autoptr(QdDocument) document = NULL;
  g_autoptr(GPtrArray) specs = NULL;
  int status_code = QD_CLI_EXIT_OK;
  const char *file;

  if (!qd_cli_parse_options ("compare", _("FILE"),
                             _("Run the diagram FILE once per method and compare the runs side by side."),
                             _("Each method runs the whole diagram in the model's own settings otherwise: a QSS\n"
                               "method is set on every Integrator, a classic solver replaces the model's solver.\n"
                               "A specification is NAME[:OPT=VAL,...]; names are case-insensitive. One row per\n"
                               "method gives its steps (QSS: Integrator steps; classic: accepted steps), failed\n"
                               "steps, right-hand-side evaluations (QSS: one component each, the Integrators'\n"
                               "external transitions; classic: the whole system each), its CPU time, and for\n"
                               "every Scope signal the largest and the RMS error against the reference run.\n"
                               "Errors are exact on both piecewise polynomials: the largest |x - r| over the\n"
                               "run, and sqrt of the time average of (x - r)^2. A table of the steps of each\n"
                               "Integrator under the QSS methods follows.\n"
                               "Exit status 3 when the reference or any method fails (its row says why).\n\n"
                               "Examples:\n"
                               "  qdevs-cli compare model.qdevs --methods QSS2,QSS3,LIQSS2,RK4:h=0.01,RKF45,BDF\n"
                               "  qdevs-cli compare model.qdevs --methods QSS3,DOPRI --reference BDF:rtol=1e-10,atol=1e-12 --json"),
                             entries, &argc, &argv))
    return QD_CLI_EXIT_USAGE;

  specs = split_specs (methods);
  if (argc < 2)
    status_code = qd_cli_usage_error ("compare", _("missing FILE (a .qdevs diagram)"));
  else if (argc > 2)
    status_code = qd_cli_usage_error ("compare", _("unexpected argument '%s'"), argv[2]);
  else if (specs->len < 2)
    status_code = qd_cli_usage_error ("compare", _("missing --methods (for example --methods QSS2,RK4:h=0.01,BDF)"));
  else if (!qd_cli_check_overrides ("compare", overrides))
    status_code = QD_CLI_EXIT_USAGE;
  if (status_code != QD_CLI_EXIT_OK)
    goto out;

  file = qd_cli_file_name (argv[1]);
  status_code = qd_cli_load ("compare", argv[1], overrides, NULL, &document);
  if (status_code == QD_CLI_EXIT_OK && until != NULL)
    status_code = qd_cli_apply_until ("compare", file, document, until);
  if (status_code == QD_CLI_EXIT_OK)
    status_code = compare_document (file, document, specs, reference, overrides, json);

out:
  g_strfreev (methods);
  g_strfreev (overrides);
  g_free (reference);
  g_free (until);
  return status_code;
}

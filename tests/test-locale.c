/* test-locale.c: the engine reads and writes the same in every locale
 *
 * The editor runs in the user's locale (GTK sets it), where printf and
 * strtod use the locale's decimal sign: a German desktop writes 0.5 as
 * "0,5". Files, CSV and the expressions the compiler builds must not
 * follow it. These tests switch to de_DE.UTF-8, built with localedef into
 * a temporary directory (LOCPATH) from the `locales` package's sources,
 * and compare every example's run, a To CSV file, an event log and a
 * saved document with the same in the C locale. Without localedef or the
 * sources they are skipped.
 */
#include <locale.h>
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "qd-test-util.h"

static char *locale_dir;
static gboolean have_locale;   /* de_DE.UTF-8 */

/* Builds @name.UTF-8 (de_DE, es_ES) under the temporary LOCPATH;
 * whether it works, with its decimal comma. */
static gboolean
build_locale (const char *name)
{
  g_autofree char *localedef = g_find_program_in_path ("localedef");
  g_autofree char *source = g_build_filename ("/usr/share/i18n/locales", name, NULL);
  g_autofree char *full = g_strdup_printf ("%s.UTF-8", name);
  g_autofree char *target = NULL;
  g_autoptr(GError) error = NULL;
  gboolean works;

  if (localedef == NULL || !g_file_test (source, G_FILE_TEST_EXISTS))
    return FALSE;
  if (locale_dir == NULL)
    {
      locale_dir = g_dir_make_tmp ("qd-test-locale-XXXXXX", &error);
      g_assert_no_error (error);
    }
  target = g_build_filename (locale_dir, full, NULL);
  {
    const char *argv[] = { localedef, "-i", name, "-f", "UTF-8", target, NULL };

    if (!g_spawn_sync (NULL, (char **) argv, NULL,
                       G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                       NULL, NULL, NULL, NULL, NULL, NULL))
      return FALSE;
  }
  /* localedef warns (exit 1) about some locales and still writes them:
   * whether the locale works is what counts. */
  if (!g_file_test (target, G_FILE_TEST_IS_DIR))
    return FALSE;
  g_setenv ("LOCPATH", locale_dir, TRUE);
  works = setlocale (LC_ALL, full) != NULL;
  if (works)
    {
      char buf[16];

      /* The locale is what it is for: a decimal comma. */
      g_snprintf (buf, sizeof buf, "%g", 0.5);
      works = strcmp (buf, "0,5") == 0;
    }
  setlocale (LC_ALL, "C");
  return works;
}

static gboolean have_es;

static void
make_locale (void)
{
  have_locale = build_locale ("de_DE");
  have_es = build_locale ("es_ES");
}

static gboolean
use_locale (const char *name)
{
  if (!have_locale)
    {
      g_test_skip ("de_DE.UTF-8 cannot be built here (localedef and the locales package's sources are needed)");
      return FALSE;
    }
  g_assert_nonnull (setlocale (LC_ALL, name));
  return TRUE;
}

typedef struct
{
  guint64 events;
  guint64 transitions;
  guint64 steps;
  double  time;
} Totals;

static Totals
run_file (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) doc = qd_document_load (path, &error);
  QdSimulation *sim;
  Totals totals;

  g_assert_no_error (error);
  sim = qd_simulation_new (doc, NULL, NULL, &error);
  /* Compiling in a comma locale failed before: the inherited quanta
   * were written "0,0001" into an expression. */
  g_assert_no_error (error);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
  g_assert_no_error (error);
  totals.events = qd_simulation_get_events (sim);
  totals.transitions = qd_simulation_get_transitions (sim);
  totals.steps = qd_simulation_get_integrator_steps (sim);
  totals.time = qd_simulation_get_time (sim);
  qd_simulation_free (sim);
  return totals;
}

/* Every example runs alike in both locales. */
static void
test_examples (void)
{
  g_autofree char *dir_path = qd_test_source_path ("data", "examples", NULL);
  GDir *dir;
  const char *name;
  guint n = 0;

  if (!use_locale ("C"))
    return;
  dir = g_dir_open (dir_path, 0, NULL);
  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      Totals c, de;

      if (!g_str_has_suffix (name, QD_FILE_EXTENSION))
        continue;
      path = g_build_filename (dir_path, name, NULL);
      g_test_message ("%s", name);
      setlocale (LC_ALL, "C");
      c = run_file (path);
      setlocale (LC_ALL, "de_DE.UTF-8");
      de = run_file (path);
      g_assert_cmpuint (de.events, ==, c.events);
      g_assert_cmpuint (de.transitions, ==, c.transitions);
      g_assert_cmpuint (de.steps, ==, c.steps);
      g_assert_cmpfloat (de.time, ==, c.time);
      n++;
    }
  g_dir_close (dir);
  setlocale (LC_ALL, "C");
  g_assert_cmpuint (n, >=, 13);
}

/* What the engine writes in the comma locale: a To CSV file, an event log
 * and the diagram itself, each the same bytes as in the C locale. */
static char *
write_all (const char *dir,
           const char *tag)
{
  g_autofree char *decay = qd_test_source_path ("data", "examples", "exp-decay.qdevs", NULL);
  g_autofree char *csv = g_strdup_printf ("%s/%s.csv", dir, tag);
  g_autofree char *log = g_strdup_printf ("%s/%s-log.csv", dir, tag);
  g_autofree char *saved = g_strdup_printf ("%s/%s.qdevs", dir, tag);
  g_autofree char *a = NULL, *b = NULL, *c = NULL;
  g_autoptr(QdDocument) doc = NULL;
  g_autoptr(GError) error = NULL;
  QdEventLogCsv *events;
  QdSimulation *sim;
  QdBlock *writer;

  doc = qd_document_load (decay, &error);
  g_assert_no_error (error);
  writer = qd_test_add_block (doc, "to_csv", "Writer");
  qd_test_set_param (doc, writer, "file", csv);
  qd_test_set_param (doc, writer, "period", "0.25");
  qd_test_connect (doc, qd_system_find_block_by_name (qd_document_get_root (doc), "Integrator"),
                   0, writer, 0);
  sim = qd_test_compile (doc);
  events = qd_event_log_csv_new (sim, log, 40, &error);
  g_assert_no_error (error);
  qd_test_run (sim);
  g_assert_true (qd_event_log_csv_close (events, &error));
  g_assert_no_error (error);
  qd_simulation_free (sim);
  g_assert_true (qd_document_save (doc, saved, &error));
  g_assert_no_error (error);

  g_file_get_contents (csv, &a, NULL, &error);
  g_assert_no_error (error);
  g_file_get_contents (log, &b, NULL, &error);
  g_assert_no_error (error);
  g_file_get_contents (saved, &c, NULL, &error);
  g_assert_no_error (error);
  g_unlink (csv);
  g_unlink (log);
  g_unlink (saved);
  /* The file names differ by the tag; the rest must not. */
  return g_strjoin ("\f", a, b, c, NULL);
}

static void
test_files (void)
{
  g_autofree char *dir = NULL;
  g_autofree char *in_c = NULL, *in_de = NULL;
  g_autofree char *de_as_c = NULL;

  if (!use_locale ("C"))
    return;
  dir = g_dir_make_tmp ("qd-test-locale-files-XXXXXX", NULL);
  in_c = write_all (dir, "x");
  setlocale (LC_ALL, "de_DE.UTF-8");
  in_de = write_all (dir, "x");
  setlocale (LC_ALL, "C");
  g_rmdir (dir);

  /* A row of the To CSV file, x(0.25) near e^-0.25 = 0.7788, with a
   * point. */
  g_assert_nonnull (strstr (in_c, "\n0.25,0.778"));
  g_assert_cmpstr (in_de, ==, in_c);
}

/* A Spanish user sees "0,5" in the editor's plot, which follows the
 * locale, and may type it into a parameter. Expressions keep the point
 * in every locale (a file must mean the same everywhere), and the
 * refusal says so in plain words, naming the block and the fix. */
static void
test_decimal_comma (void)
{
  g_autofree char *decay = qd_test_source_path ("data", "examples", "exp-decay.qdevs", NULL);
  g_autoptr(QdDocument) doc = NULL;
  g_autoptr(QdExpr) expr = NULL;
  g_autoptr(GError) error = NULL;
  QdSimulation *sim;
  QdBlock *gain;

  if (!have_es)
    {
      g_test_skip ("es_ES.UTF-8 cannot be built here (localedef and the locales package's sources are needed)");
      return;
    }
  g_assert_nonnull (setlocale (LC_ALL, "es_ES.UTF-8"));

  /* The point is the decimal sign, whatever the locale says. */
  expr = qd_expr_parse ("0.5", &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (qd_expr_eval (expr, NULL), ==, 0.5);
  g_clear_pointer (&expr, qd_expr_free);

  expr = qd_expr_parse ("2*0,5", &error);
  g_assert_null (expr);
  g_assert_error (error, QD_ERROR, QD_ERROR_SYNTAX);
  g_assert_cmpstr (error->message, ==,
                   "column 3: '0,5' is not a number: use a point as the "
                   "decimal separator: 0.5");
  g_clear_error (&error);

  /* A parameter field refuses it as the inspector shows it: naming the
   * block and the fix; the document keeps its value. */
  doc = qd_document_load (decay, &error);
  g_assert_no_error (error);
  gain = qd_system_find_block_by_name (qd_document_get_root (doc), "Gain");
  g_assert_false (qd_document_set_param (doc, gain, "k", "-0,5", &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "Gain"));
  g_assert_nonnull (strstr (error->message, "'0,5' is not a number: use a point "
                                            "as the decimal separator: 0.5"));
  g_clear_error (&error);
  qd_test_set_param (doc, gain, "k", "-0.5");
  sim = qd_test_compile (doc);
  qd_test_run (sim);
  g_assert_cmpfloat (fabs (qd_trace_eval (qd_test_find_trace (sim, "/Scope/x"), 2.0) - exp (-1.0)), <, 0.02);
  qd_simulation_free (sim);
  setlocale (LC_ALL, "C");
}

int
main (int   argc,
      char *argv[])
{
  int status;

  g_test_init (&argc, &argv, NULL);
  qd_init ();
  make_locale ();
  g_test_add_func ("/locale/examples", test_examples);
  g_test_add_func ("/locale/files", test_files);
  g_test_add_func ("/locale/decimal-comma", test_decimal_comma);
  status = g_test_run ();
  if (locale_dir != NULL)
    {
      /* localedef's output is a tree of files: removed with it. */
      const char *argv_rm[] = { "rm", "-rf", locale_dir, NULL };

      g_spawn_sync (NULL, (char **) argv_rm, NULL, G_SPAWN_SEARCH_PATH, NULL,
                    NULL, NULL, NULL, NULL, NULL);
      g_free (locale_dir);
    }
  return status;
}

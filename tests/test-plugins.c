/* test-plugins.c: block types from C plugins (engine/qd-plugin.h)
 *
 * The plugins of tests/plugins, built as shared modules against the
 * public headers: the good one is loaded and its blocks run in a model;
 * one built for another API version, one without its registration
 * function and one whose type has a structural flag are refused, each with
 * a message naming the file; a diagram whose plugin is missing opens,
 * keeps its block and saves back byte for byte.
 */
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "qdevs.h"
#include "qd-test-util.h"

static const char *
plugin_dir (void)
{
  return g_getenv ("QD_TEST_PLUGIN_DIR");
}

/* The problem of @problems that names the module @name, or a failure. */
static const char *
problem_of (GPtrArray  *problems,
            const char *name)
{
  g_autofree char *file = g_strdup_printf ("%s/%s.%s", plugin_dir (), name,
                                           G_MODULE_SUFFIX);

  for (guint i = 0; i < problems->len; i++)
    if (g_str_has_prefix (g_ptr_array_index (problems, i), file))
      return g_ptr_array_index (problems, i);
  g_error ("no problem names %s", file);
  return NULL;
}

static void
test_load (void)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  const char *message;

  g_assert_null (qd_registry_lookup ("testplug:ticker"));
  g_assert_cmpuint (qd_plugins_load_dir (plugin_dir (), problems), ==, 1);
  g_assert_nonnull (qd_registry_lookup ("testplug:ticker"));
  g_assert_nonnull (qd_registry_lookup ("testplug:scale"));
  g_assert_null (qd_registry_lookup ("testplugversion:ticker"));
  g_assert_null (qd_registry_lookup ("testplugnoentry:ticker"));
  g_assert_null (qd_registry_lookup ("testplugstruct:ticker"));
  g_assert_cmpuint (problems->len, ==, 3);

  message = problem_of (problems, "testplug-version");
  g_test_message ("%s", message);
  g_assert_nonnull (strstr (message, ": the plugin was built for block API "
                                     "version 999, but this QDevs has "
                                     "version 1; rebuild the plugin"));
  message = problem_of (problems, "testplug-noentry");
  g_assert_nonnull (strstr (message, ": is not a QDevs plugin: it exports no "
                                     "function qd_plugin_register()"));
  message = problem_of (problems, "testplug-structural");
  g_assert_nonnull (strstr (message, ": block type 'testplugstruct:scale' "
                                     "uses the built-in library's fast paths "
                                     "or structural flags"));

  /* Loaded once: a second look at the folder adds nothing. */
  g_ptr_array_set_size (problems, 0);
  g_assert_cmpuint (qd_plugins_load_dir (plugin_dir (), problems), ==, 0);
  g_assert_cmpuint (problems->len, ==, 3);
}

/* Ticker (every 2.5 s) into Scale (k = 3) into a Scope. */
static QdDocument *
new_model (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *ticker = qd_test_add_block (doc, "testplug:ticker", "Ticker");
  QdBlock *scale = qd_test_add_block (doc, "testplug:scale", "Scale");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");

  qd_test_set_param (doc, ticker, "period", "2.5");
  qd_test_set_param (doc, scale, "k", "1+2");
  qd_test_connect (doc, ticker, 0, scale, 0);
  qd_test_connect (doc, scale, 0, scope, 0);
  qd_test_set_final_time (doc, 9.0);
  return doc;
}

static void
test_run (void)
{
  g_autoptr(QdDocument) doc = NULL;
  g_autoptr(GError) error = NULL;
  QdSimulation *sim;
  QdTrace *trace;

  qd_plugins_load_dir (plugin_dir (), NULL);
  doc = new_model ();
  g_assert_true (qd_document_check (doc, NULL, NULL));
  sim = qd_test_compile (doc);
  trace = qd_test_run_and_find (sim, "/Scope/x1");
  /* Ticks at 2.5, 5 and 7.5, each times 3. */
  g_assert_cmpfloat (qd_trace_eval (trace, 2.5), ==, 3.0);
  g_assert_cmpfloat (qd_trace_eval (trace, 6.0), ==, 6.0);
  g_assert_cmpfloat (qd_trace_eval (trace, 9.0), ==, 9.0);
  qd_simulation_free (sim);

  /* The plugin's own check speaks for its parameter. */
  qd_test_set_param (doc, qd_system_find_block_by_name (qd_document_get_root (doc),
                                                       "Ticker"),
                     "period", "0");
  g_assert_null (qd_simulation_new (doc, NULL, NULL, &error));
  g_assert_nonnull (strstr (error->message, "the period must be above 0"));
}

/* A diagram that uses a type whose plugin is not there opens with the
 * block as a placeholder (its ports and parameters kept), saves back
 * byte for byte, and does not run: Check names the type and the
 * folders searched. */
static void
test_missing (void)
{
  g_autoptr(QdDocument) doc = NULL;
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) text = NULL;
  g_autofree char *saved = NULL;
  const QdProblem *problem;
  QdBlock *scale;
  guint n_in = 0, n_out = 0;

  qd_plugins_load_dir (plugin_dir (), NULL);
  doc = new_model ();
  saved = qd_document_to_data (doc, NULL);
  text = g_string_new (saved);
  g_clear_pointer (&saved, g_free);
  g_clear_object (&doc);
  g_assert_cmpuint (g_string_replace (text, "testplug:scale", "otherplug:scale", 0),
                    ==, 1);

  doc = qd_document_load_data (text->str, text->len, "missing.qdevs", &error);
  g_assert_no_error (error);
  scale = qd_system_find_block_by_name (qd_document_get_root (doc), "Scale");
  g_assert_null (qd_block_get_type_info (scale));
  g_assert_true (qd_block_count_ports (scale, &n_in, &n_out, NULL));
  g_assert_cmpuint (n_in, ==, 1);
  g_assert_cmpuint (n_out, ==, 1);
  g_assert_cmpstr (qd_block_get_param (scale, "k"), ==, "1+2");
  saved = qd_document_to_data (doc, NULL);
  g_assert_cmpstr (saved, ==, text->str);

  g_assert_false (qd_document_check (doc, NULL, problems));
  g_assert_cmpuint (problems->len, ==, 1);
  problem = g_ptr_array_index (problems, 0);
  g_test_message ("%s", problem->message);
  g_assert_cmpstr (problem->path, ==, "/Scale");
  g_assert_true (g_str_has_prefix (problem->message,
                                   "block type 'otherplug:scale' is missing (a "
                                   "block of the plugin 'otherplug', looked "
                                   "for in "));
  g_assert_nonnull (strstr (problem->message, plugin_dir ()));
  g_assert_null (qd_simulation_new (doc, NULL, NULL, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_UNKNOWN_TYPE);
  g_assert_nonnull (strstr (error->message, "otherplug:scale"));
}

/* qdevs-cli finds the plugins of $QDEVS_PLUGIN_PATH, lists their blocks
 * and runs a model with them; the refused ones are named on stderr. */
static void
test_cli (void)
{
  g_autoptr(QdDocument) doc = new_model ();
  g_autofree char *file = g_build_filename (g_get_tmp_dir (), "qd-test-plugins-XXXXXX.qdevs",
                                            NULL);
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "QDEVS_PLUGIN_PATH",
                                        plugin_dir (), TRUE);
  g_autofree char *cli = g_build_filename (g_getenv ("QD_BUILD_DIR"), "app",
                                           "qdevs-cli", NULL);
  char *blocks_argv[] = { cli, "blocks", "--json", NULL };
  char *run_argv[] = { cli, "run", file, NULL };
  g_auto(QdCliResult) r = { 0 };
  int fd;

  fd = g_mkstemp (file);
  g_assert_cmpint (fd, >=, 0);
  close (fd);
  g_assert_true (qd_document_save (doc, file, &error));
  g_assert_no_error (error);

  qd_test_spawn (&r, NULL, env, blocks_argv);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\"id\": \"testplug:ticker\""));
  g_assert_nonnull (strstr (r.err, "built for block API version 999"));
  qd_cli_result_clear (&r);

  qd_test_spawn (&r, NULL, env, run_argv);
  g_test_message ("%s", r.err);
  g_assert_cmpint (r.status, ==, 0);
  qd_cli_result_clear (&r);

  /* Without the path the same file does not run, and says why. */
  qd_test_spawn (&r, NULL, NULL, run_argv);
  g_assert_cmpint (r.status, !=, 0);
  g_assert_nonnull (strstr (r.err, "block type 'testplug:ticker' is missing "
                                   "(a block of the plugin 'testplug'"));
  g_unlink (file);
}

/* The model's settings take the integration methods from the registry's
 * integrators (QD_PARAM_INHERIT "method"), not from a type named in the
 * engine: the choices Check accepts and the default are theirs. */
static void
test_setting_param (void)
{
  const QdBlockType *integrator = qd_registry_lookup ("integrator");
  const QdParamSpec *spec = qd_registry_find_setting_param ("method");
  QdSettings settings = { 0 };
  g_autoptr(QdDocument) doc = qd_document_new ();
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (spec);
  g_assert_true (spec == &integrator->params[qd_block_type_find_param (integrator,
                                                                         "method")]);
  g_assert_true ((spec->flags & QD_PARAM_INHERIT) != 0);
  g_assert_null (qd_registry_find_setting_param ("no-such-setting"));
  /* The Scope has parameters, none taken from the settings. */
  g_assert_null (qd_registry_find_setting_param ("names"));

  qd_document_init_settings (&settings);
  g_assert_cmpstr (settings.method, ==, spec->choices[0]);
  g_free (settings.method);
  settings.method = g_strdup ("QSS9");
  g_assert_false (qd_document_set_settings (doc, &settings, &error));
  g_assert_nonnull (strstr (error->message, "method 'QSS9' is not one of QSS1, QSS2"));
  qd_settings_clear (&settings);
}

/* The editor plots the sinks that say so (QD_BLOCK_PLOT), whatever their
 * type: the Scope does, the plugins' blocks do not. */
static void
test_plot_flag (void)
{
  qd_plugins_load_dir (plugin_dir (), NULL);
  g_assert_true ((qd_registry_lookup ("scope")->flags & QD_BLOCK_PLOT) != 0);
  g_assert_true ((qd_registry_lookup ("testplug:scale")->flags & QD_BLOCK_PLOT) == 0);
}

/* new-block writes its project, and refuses a name that cannot be a
 * plugin's or a folder that is not empty. */
static void
test_new_block (void)
{
  g_autofree char *tmp = g_dir_make_tmp ("qd-test-new-block-XXXXXX", NULL);
  g_autofree char *dir = g_build_filename (tmp, "project", NULL);
  g_autofree char *source = NULL;
  g_autofree char *text = NULL;
  g_auto(QdCliResult) r = { 0 };
  const char *files[] = { "meson.build", "meson_options.txt", "mygain.c",
                          "test-mygain.c", "example.qdevs", "README.md" };

  qd_test_run_cli (&r, NULL, "new-block", "my-gain", "--dir", dir, NULL);
  g_assert_cmpint (r.status, ==, 2);
  g_assert_nonnull (strstr (r.err, "'my-gain' cannot name a block"));
  g_assert_false (g_file_test (dir, G_FILE_TEST_EXISTS));
  qd_cli_result_clear (&r);

  qd_test_run_cli (&r, NULL, "new-block", "mygain", "--dir", dir, NULL);
  g_assert_cmpint (r.status, ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *file = g_build_filename (dir, files[i], NULL);

      g_assert_true (g_file_test (file, G_FILE_TEST_IS_REGULAR));
    }
  source = g_build_filename (dir, "mygain.c", NULL);
  g_assert_true (g_file_get_contents (source, &text, NULL, NULL));
  g_assert_nonnull (strstr (text, ".id = \"mygain:mygain\""));
  g_assert_nonnull (strstr (text, ".api_version = QD_BLOCK_API_VERSION"));
  g_assert_null (strstr (text, "@NAME@"));
  qd_cli_result_clear (&r);

  /* Never over a user's files. */
  qd_test_run_cli (&r, NULL, "new-block", "mygain", "--dir", dir, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "is not empty"));
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *file = g_build_filename (dir, files[i], NULL);

      g_unlink (file);
    }
  g_rmdir (dir);
  g_rmdir (tmp);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();
  g_assert_nonnull (plugin_dir ());

  g_test_add_func ("/plugins/load", test_load);
  g_test_add_func ("/plugins/run", test_run);
  g_test_add_func ("/plugins/missing", test_missing);
  g_test_add_func ("/plugins/cli", test_cli);
  g_test_add_func ("/plugins/new-block", test_new_block);
  g_test_add_func ("/plugins/setting-param", test_setting_param);
  g_test_add_func ("/plugins/plot-flag", test_plot_flag);
  return g_test_run ();
}

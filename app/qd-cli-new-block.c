/* qd-cli-new-block.c: `qdevs-cli new-block`, a C plugin project to start from
 *
 * Writes a small Meson project that builds one block type as a plugin
 * against the installed QDevs (pkg-config qdevs-1): the block's source
 * with its descriptor, a test that runs it in a model, an example
 * diagram and a README. The templates below use @NAME@ for the block's
 * name; nothing else is filled in.
 */
#include <errno.h>
#include <glib/gstdio.h>
#include <string.h>

#include "qd-cli-private.h"

static const char template_meson[] =
  "project('@NAME@', 'c',\n"
  "  version: '0.1.0',\n"
  "  meson_version: '>= 0.60',\n"
  "  default_options: ['warning_level=2', 'c_std=gnu11'],\n"
  ")\n"
  "\n"
  "# Every DEVS function has the same arguments; most blocks use a few.\n"
  "add_project_arguments('-Wno-unused-parameter', language: 'c')\n"
  "\n"
  "# The installed QDevs: its public headers, libqdevs and where its\n"
  "# plugins go.\n"
  "qdevs_dep = dependency('qdevs-1')\n"
  "gmodule_dep = dependency('gmodule-2.0')\n"
  "\n"
  "# Installed into the user's plugin folder by default, which QDevs\n"
  "# reads at start-up; -Dplugindir=DIR puts it elsewhere (the folder\n"
  "# `pkg-config --variable=plugindir qdevs-1` for every user).\n"
  "plugindir = get_option('plugindir')\n"
  "if plugindir == ''\n"
  "  plugindir = run_command('sh', '-c',\n"
  "    'echo \"${XDG_DATA_HOME:-$HOME/.local/share}/qdevs/plugins\"',\n"
  "    check: true).stdout().strip()\n"
  "endif\n"
  "\n"
  "plugin = shared_module('@NAME@', '@NAME@.c',\n"
  "  dependencies: [qdevs_dep, gmodule_dep],\n"
  "  name_prefix: '',\n"
  "  install: true,\n"
  "  install_dir: plugindir,\n"
  ")\n"
  "\n"
  "# The test loads the plugin from the build folder, as QDevs loads it\n"
  "# from $QDEVS_PLUGIN_PATH, and runs the block in a model.\n"
  "test_exe = executable('test-@NAME@', 'test-@NAME@.c',\n"
  "  dependencies: [qdevs_dep],\n"
  ")\n"
  "test('@NAME@', test_exe,\n"
  "  env: ['QDEVS_PLUGIN_PATH=' + meson.current_build_dir()],\n"
  "  depends: plugin,\n"
  ")\n";

static const char template_options[] =
  "option('plugindir', type: 'string', value: '',\n"
  "  description: 'Where to install the plugin (default: $XDG_DATA_HOME/qdevs/plugins)')\n";

static const char template_source[] =
  "/* @NAME@.c: the QDevs block type @NAME@:@NAME@, a C plugin\n"
  " *\n"
  " * y = k u, for any order of the input's segment: the block scales\n"
  " * every Taylor coefficient, so it is exact for QSS1 to QSS3. Change\n"
  " * the DEVS functions below to make it yours; docs/custom-blocks.md and\n"
  " * the comments of qd-block-type.h say what each one must do.\n"
  " */\n"
  "#include <qdevs.h>\n"
  "\n"
  "/* The state: the last input, and the time advance (0 when the new\n"
  " * output is due, infinity when passive). */\n"
  "typedef struct\n"
  "{\n"
  "  double   sigma;\n"
  "  QdSignal u;\n"
  "} State;\n"
  "\n"
  "static const QdParamSpec params[] = {\n"
  "  { \"k\", \"Factor\", QD_PARAM_NUMBER, \"2\", -QD_INF, QD_INF, NULL,\n"
  "    \"The output is k times the input.\", NULL, 0 },\n"
  "};\n"
  "\n"
  "static void\n"
  "block_init (QdAtomic *self,\n"
  "            double    t)\n"
  "{\n"
  "  State *s = self->state;\n"
  "\n"
  "  s->sigma = QD_INF;\n"
  "}\n"
  "\n"
  "static double\n"
  "block_ta (QdAtomic *self)\n"
  "{\n"
  "  return ((State *) self->state)->sigma;\n"
  "}\n"
  "\n"
  "static void\n"
  "block_dint (QdAtomic *self,\n"
  "            double    t)\n"
  "{\n"
  "  ((State *) self->state)->sigma = QD_INF;\n"
  "}\n"
  "\n"
  "static void\n"
  "block_dext (QdAtomic       *self,\n"
  "            double          t,\n"
  "            double          e,\n"
  "            guint           port,\n"
  "            const QdSignal *x)\n"
  "{\n"
  "  State *s = self->state;\n"
  "\n"
  "  s->u = *x;\n"
  "  s->sigma = 0.0;\n"
  "}\n"
  "\n"
  "static guint64\n"
  "block_lambda (QdAtomic *self,\n"
  "              double    t)\n"
  "{\n"
  "  State *s = self->state;\n"
  "  double k = self->params[0].number;\n"
  "\n"
  "  self->out[0] = s->u;\n"
  "  for (int i = 0; i <= QD_MAX_ORDER; i++)\n"
  "    self->out[0].c[i] = k * s->u.c[i];\n"
  "  return 1;  /* output port 0 emits */\n"
  "}\n"
  "\n"
  "static const QdBlockType block_type = {\n"
  "  .id = \"@NAME@:@NAME@\",\n"
  "  .category = \"Plugins\",\n"
  "  .name = \"@NAME@\",\n"
  "  .glyph = \"k\",\n"
  "  .doc = \"Multiplies its input by k.\",\n"
  "  .inputs = { 1, NULL, \"u\", \"The input.\" },\n"
  "  .outputs = { 1, NULL, \"y\", \"k times the input.\" },\n"
  "  .params = params,\n"
  "  .n_params = G_N_ELEMENTS (params),\n"
  "  .flags = QD_BLOCK_FEEDTHROUGH,\n"
  "  .state_size = sizeof (State),\n"
  "  .init = block_init,\n"
  "  .ta = block_ta,\n"
  "  .dint = block_dint,\n"
  "  .dext = block_dext,\n"
  "  .lambda = block_lambda,\n"
  "};\n"
  "\n"
  "static const QdBlockType *const types[] = { &block_type, NULL };\n"
  "\n"
  "static const QdPluginInfo info = {\n"
  "  .api_version = QD_BLOCK_API_VERSION,\n"
  "  .name = \"@NAME@\",\n"
  "  .types = types,\n"
  "};\n"
  "\n"
  "QD_PLUGIN_DEFINE (info)\n";

static const char template_test[] =
  "/* test-@NAME@.c: runs @NAME@:@NAME@ in a model (Step -> @NAME@ -> Scope)\n"
  " * and checks its output. `meson test -C build` runs it. */\n"
  "#include <qdevs.h>\n"
  "#include <qd-blocks.h>\n"
  "\n"
  "static QdBlock *\n"
  "add (QdDocument *doc,\n"
  "     const char *type,\n"
  "     const char *name)\n"
  "{\n"
  "  GError *error = NULL;\n"
  "  QdBlock *block = qd_document_add_block (doc, qd_document_get_root (doc),\n"
  "                                          type, name, 0, 0, &error);\n"
  "\n"
  "  if (block == NULL)\n"
  "    g_error (\"%s: %s\", type, error->message);\n"
  "  return block;\n"
  "}\n"
  "\n"
  "int\n"
  "main (void)\n"
  "{\n"
  "  QdDocument *doc;\n"
  "  QdBlock *step, *block, *scope;\n"
  "  QdSimulation *sim;\n"
  "  QdTrace *trace;\n"
  "  GError *error = NULL;\n"
  "  double y;\n"
  "\n"
  "  /* Registers the built-in blocks and the plugins of\n"
  "   * $QDEVS_PLUGIN_PATH: this build folder. */\n"
  "  qd_init ();\n"
  "  doc = qd_document_new ();\n"
  "  step = add (doc, \"step\", \"Step\");\n"
  "  block = add (doc, \"@NAME@:@NAME@\", \"Block\");\n"
  "  scope = add (doc, \"scope\", \"Scope\");\n"
  "  if (!qd_document_set_param (doc, block, \"k\", \"3\", &error)\n"
  "      || qd_document_connect (doc, qd_document_get_root (doc),\n"
  "                              step->id, 0, block->id, 0,\n"
  "                              &error) == NULL\n"
  "      || qd_document_connect (doc, qd_document_get_root (doc),\n"
  "                              block->id, 0, scope->id, 0,\n"
  "                              &error) == NULL)\n"
  "    g_error (\"%s\", error->message);\n"
  "\n"
  "  sim = qd_simulation_new (doc, NULL, NULL, &error);\n"
  "  if (sim == NULL || qd_simulation_run (sim, &error) != QD_RUN_DONE)\n"
  "    g_error (\"%s\", error->message);\n"
  "  /* The Scope's trace of its first input. */\n"
  "  trace = g_ptr_array_index (qd_simulation_get_traces (sim), 0);\n"
  "  /* The Step goes from 0 to 1 at t = 1: y = 3 afterwards. */\n"
  "  y = qd_trace_eval (trace, qd_simulation_get_final_time (sim));\n"
  "  if (y != 3.0)\n"
  "    g_error (\"y = %g at the end, 3 expected\", y);\n"
  "  g_print (\"ok: y = %g\\n\", y);\n"
  "  qd_simulation_free (sim);\n"
  "  g_object_unref (doc);\n"
  "  return 0;\n"
  "}\n";

static const char template_example[] =
  "{\n"
  "  \"format\": \"qdevs\",\n"
  "  \"version\": 1,\n"
  "  \"title\": \"@NAME@ in a model\",\n"
  "  \"simulation\": { \"start\": 0, \"final\": 5 },\n"
  "  \"blocks\": [\n"
  "    { \"id\": \"b1\", \"type\": \"step\", \"name\": \"Step\",\n"
  "      \"position\": [40, 100], \"size\": [60, 40] },\n"
  "    { \"id\": \"b2\", \"type\": \"@NAME@:@NAME@\", \"name\": \"@NAME@\",\n"
  "      \"position\": [160, 100], \"size\": [60, 40],\n"
  "      \"params\": { \"k\": \"3\" } },\n"
  "    { \"id\": \"b3\", \"type\": \"scope\", \"name\": \"Scope\",\n"
  "      \"position\": [280, 100], \"size\": [60, 40] }\n"
  "  ],\n"
  "  \"links\": [\n"
  "    { \"id\": \"l1\", \"from\": { \"block\": \"b1\", \"port\": 0 },\n"
  "      \"to\": [ { \"block\": \"b2\", \"port\": 0 } ] },\n"
  "    { \"id\": \"l2\", \"from\": { \"block\": \"b2\", \"port\": 0 },\n"
  "      \"to\": [ { \"block\": \"b3\", \"port\": 0 } ] }\n"
  "  ]\n"
  "}\n";

static const char template_readme[] =
  "# @NAME@: a QDevs block in C\n"
  "\n"
  "A plugin with one block type, `@NAME@:@NAME@`, built against the\n"
  "installed QDevs (`pkg-config qdevs-1`). As written it multiplies its\n"
  "input by a parameter `k`; change the DEVS functions in `@NAME@.c`.\n"
  "\n"
  "Build, test and install it:\n"
  "\n"
  "    meson setup build\n"
  "    ninja -C build\n"
  "    meson test -C build\n"
  "    ninja -C build install\n"
  "\n"
  "It installs into `$XDG_DATA_HOME/qdevs/plugins` (`~/.local/share/qdevs/plugins`),\n"
  "and the block is in the palette of QDevs (category Plugins) and in\n"
  "`qdevs-cli blocks` the next time they start. `meson setup build\n"
  "-Dplugindir=DIR` installs it elsewhere; QDevs also reads the folders of\n"
  "`$QDEVS_PLUGIN_PATH` and `pkg-config --variable=plugindir qdevs-1`.\n"
  "\n"
  "Try it without installing:\n"
  "\n"
  "    QDEVS_PLUGIN_PATH=build qdevs-cli run example.qdevs\n"
  "\n"
  "The plugin is built for one version of the block API\n"
  "(`QD_BLOCK_API_VERSION`); after QDevs is upgraded to another, QDevs\n"
  "refuses it with a message saying so: rebuild it.\n";

static gboolean
is_block_name (const char *s)
{
  if (!g_ascii_isalpha (*s))
    return FALSE;
  for (; *s != '\0'; s++)
    if (!g_ascii_isalnum (*s) && *s != '_')
      return FALSE;
  return strlen (s) <= 64;
}

static gboolean
write_template (const char  *dir,
                const char  *file,
                const char  *template,
                const char  *name,
                GError     **error)
{
  g_autoptr(GString) text = g_string_new (template);
  g_autoptr(GString) file_name = g_string_new (file);
  g_autofree char *path = NULL;

  g_string_replace (text, "@NAME@", name, 0);
  g_string_replace (file_name, "@NAME@", name, 0);
  path = g_build_filename (dir, file_name->str, NULL);
  return g_file_set_contents (path, text->str, text->len, error);
}

int
qd_cli_new_block (int    argc,
                  char **argv)
{
  g_autofree char *dir_option = NULL;
  GOptionEntry entries[] = {
    { "dir", 0, 0, G_OPTION_ARG_FILENAME, &dir_option,
      N_("Write the project into DIR (default: ./NAME); it must not exist or be empty"),
      N_("DIR") },
    { NULL }
  };
  static const struct
  {
    const char *file;
    const char *text;
  } files[] = {
    { "meson.build", template_meson },
    { "meson_options.txt", template_options },
    { "@NAME@.c", template_source },
    { "test-@NAME@.c", template_test },
    { "example.qdevs", template_example },
    { "README.md", template_readme },
  };
  g_autofree char *dir = NULL;
  g_autoptr(GDir) existing = NULL;
  const char *name;

  if (!qd_cli_parse_options ("new-block", _("NAME"),
                             _("Write a Meson project that builds the block type NAME:NAME as a C plugin."),
                             _("The project (a source with the block's descriptor, a test that runs it in\n"
                               "a model, an example diagram and a README) builds against the installed\n"
                               "QDevs: meson setup build && ninja -C build install. NAME is letters,\n"
                               "digits and '_', beginning with a letter."),
                             entries, &argc, &argv))
    return QD_CLI_EXIT_USAGE;
  if (argc < 2)
    return qd_cli_usage_error ("new-block", _("missing NAME (the block's name, such as mygain)"));
  if (argc > 2)
    return qd_cli_usage_error ("new-block", _("unexpected argument '%s'"), argv[2]);
  name = argv[1];
  if (!is_block_name (name))
    return qd_cli_usage_error ("new-block",
                               _("'%s' cannot name a block: use letters, digits and '_', "
                                 "beginning with a letter"), name);

  dir = g_strdup (dir_option != NULL ? dir_option : name);
  existing = g_dir_open (dir, 0, NULL);
  if (existing != NULL && g_dir_read_name (existing) != NULL)
    {
      g_printerr (_("qdevs-cli new-block: %s is not empty; give another folder with --dir\n"),
                  dir);
      return QD_CLI_EXIT_MODEL;
    }
  if (g_mkdir_with_parents (dir, 0755) != 0)
    {
      g_printerr (_("qdevs-cli new-block: cannot create %s: %s\n"), dir,
                  g_strerror (errno));
      return QD_CLI_EXIT_MODEL;
    }
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autoptr(GError) error = NULL;

      if (!write_template (dir, files[i].file, files[i].text, name, &error))
        {
          g_printerr (_("qdevs-cli new-block: %s\n"), error->message);
          return QD_CLI_EXIT_MODEL;
        }
    }
  g_print (_("Wrote the plugin project %s in %s. Build and install it with:\n"
             "  cd %s && meson setup build && ninja -C build install\n"),
           name, dir, dir);
  return QD_CLI_EXIT_OK;
}

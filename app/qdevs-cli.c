/* qdevs-cli.c: the headless front end of QDevs
 *
 * `qdevs-cli COMMAND ...` runs, checks and inspects .qdevs diagrams without
 * a display, for scripts, CI and batch experiments. This file dispatches to
 * the commands (qd-cli-*.c) and holds what they share: option parsing,
 * usage errors and problem printing.
 */
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "qd-cli-private.h"
#include "qd-build-tree.h"

typedef struct
{
  const char *name;
  int       (*func) (int argc, char **argv);
  const char *synopsis;
  const char *summary;
} QdCliCommand;

static const QdCliCommand commands[] = {
  { "run",    qd_cli_run,    N_("run FILE"),
    N_("simulate a diagram; export its traces and statistics") },
  { "sweep",  qd_cli_sweep,  N_("sweep FILE"),
    N_("run a diagram many times: parameter sweeps, Monte Carlo") },
  { "check",  qd_cli_check,  N_("check FILE"),
    N_("list every problem of a diagram without running it") },
  { "compare", qd_cli_compare, N_("compare FILE"),
    N_("run a diagram under several methods; compare steps, cost and error") },
  { "blocks", qd_cli_blocks, N_("blocks"),
    N_("describe every available block type") },
  { "bench",  qd_cli_bench,  N_("bench"),
    N_("run generated large models; report speed and memory") },
  { "import", qd_cli_import, N_("import MODEL.pdm"),
    N_("open a PowerDEVS model and save it as a diagram") },
  { "new-block", qd_cli_new_block, N_("new-block NAME"),
    N_("write a Meson project that builds a block type as a C plugin") },
};

int
qd_cli_usage_error (const char *command,
                    const char *format,
                    ...)
{
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);

  if (command != NULL)
    g_printerr ("qdevs-cli %s: %s\n", command, message); /* no-i18n */
  else /* no-i18n */
    g_printerr ("qdevs-cli: %s\n", message);
  /* The help that lists what the mistake was about. */
  if (command != NULL)
    g_printerr (_("Try 'qdevs-cli %s --help'\n"), command);
  else
    g_printerr (_("Try 'qdevs-cli --help'\n"));

  return QD_CLI_EXIT_USAGE;
}

gboolean
qd_cli_parse_options (const char    *command,
                      const char    *parameter_string,
                      const char    *summary,
                      const char    *description,
                      GOptionEntry  *entries,
                      int           *argc,
                      char        ***argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *prgname = g_strdup_printf ("qdevs-cli %s", command);

  /* GOption prints "Usage: PRGNAME [OPTION…] FILE" in --help. */
  g_set_prgname (prgname);
  context = g_option_context_new (parameter_string);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (summary != NULL)
    g_option_context_set_summary (context, summary);
  if (description != NULL)
    g_option_context_set_description (context, description);

  if (!g_option_context_parse (context, argc, argv, &error))
    {
      qd_cli_usage_error (command, "%s", error->message);
      return FALSE;
    }

  return TRUE;
}

gboolean
qd_cli_check_overrides (const char  *command,
                        char       **overrides)
{
  for (guint i = 0; overrides != NULL && overrides[i] != NULL; i++)
    {
      const char *eq = strchr (overrides[i], '=');

      if (eq == NULL || eq == overrides[i])
        {
          qd_cli_usage_error (command,
                              _("--set '%s' is not of the form NAME=VALUE (for example --set k=2.5)"),
                              overrides[i]);
          return FALSE;
        }
    }
  return TRUE;
}

gboolean
qd_cli_check_override_names (const char  *command,
                             QdDocument  *document,
                             char       **overrides)
{
  GPtrArray *variables = qd_document_get_variables (document);

  for (guint i = 0; overrides != NULL && overrides[i] != NULL; i++)
    {
      g_autofree char *name = g_strndup (overrides[i], strcspn (overrides[i], "="));
      g_autoptr(GString) names = NULL;

      g_strstrip (name);
      if (qd_document_get_variable (document, name) != NULL)
        continue;
      /* A name the model does not have would change nothing: a typo
       * (--set epss=0.2) must not pass for a run with the new value. */
      if (variables == NULL || variables->len == 0)
        {
          qd_cli_usage_error (command,
                              _("--set '%s': the model has no variables, so there is nothing to set; define '%s' among the model's variables first"),
                              overrides[i], name);
          return FALSE;
        }
      names = g_string_new (NULL);
      for (guint k = 0; k < variables->len; k++)
        {
          const QdVariable *v = g_ptr_array_index (variables, k);

          g_string_append_printf (names, "%s%s", k > 0 ? ", " : "", v->name);
        }
      qd_cli_usage_error (command,
                          _("--set '%s': the model has no variable '%s'; its variables are: %s"),
                          overrides[i], name, names->str);
      return FALSE;
    }
  return TRUE;
}

/* --until replaces the model's final time, shorter or longer: a run can
 * be extended past the time stored in the file without editing it. */
int
qd_cli_apply_until (const char  *command,
                    const char  *file,
                    QdDocument  *document,
                    const char  *text)
{
  const QdSettings *settings = qd_document_get_settings (document);
  g_autoptr(GError) error = NULL;
  QdSettings copy = *settings;
  char *end = NULL;
  double until = g_ascii_strtod (text, &end);

  if (end == text || *end != '\0' || !isfinite (until))
    return qd_cli_usage_error (command, _("--until must be a finite time, such as 20 (not '%s')"),
                               text);
  if (!(until > settings->start_time))
    return qd_cli_usage_error (command, _("--until %g must be after the model's start time %g"),
                               until, settings->start_time);
  copy.final_time = until;
  if (!qd_document_set_settings (document, &copy, &error))
    {
      g_printerr ("%s: %s\n", file, error->message);
      return QD_CLI_EXIT_MODEL;
    }
  return QD_CLI_EXIT_OK;
}

const char *
qd_cli_file_name (const char *arg)
{
  return strcmp (arg, "-") == 0 ? QD_CLI_STDIN_NAME : arg;
}

int
qd_cli_load (const char   *command,
             const char   *arg,
             char        **overrides,
             GPtrArray    *problems,
             QdDocument  **document)
{
  g_autoptr(GError) error = NULL;

  /* Reading standard input is bounded as reading a file is, so that
   * `qdevs-cli check - < /dev/zero` ends with an error, not out of
   * memory. */
  if (strcmp (arg, "-") == 0)
    *document = qd_document_load_fd_full (0, QD_CLI_STDIN_NAME, problems, &error);
  else
    *document = qd_document_load_full (arg, problems, &error);
  if (*document == NULL)
    {
      /* Load errors already start with the file name. */
      g_printerr ("%s\n", error->message);
      return QD_CLI_EXIT_MODEL;
    }
  if (!qd_cli_check_override_names (command, *document, overrides))
    {
      g_clear_object (document);
      return QD_CLI_EXIT_USAGE;
    }
  return QD_CLI_EXIT_OK;
}

void
qd_cli_print_problems (const char *file,
                       GPtrArray  *problems)
{
  for (guint i = 0; i < problems->len; i++)
    {
      g_autofree char *text = qd_problem_to_string (g_ptr_array_index (problems, i));

      g_printerr ("%s: %s\n", file, text);
    }
}

/* On standard output when asked for (--help), on standard error when
 * given for a usage error (no command at all). */
static void
print_help (gboolean to_stderr)
{
  GString *text = g_string_new (NULL);

  g_string_append (text, _("Usage:\n  qdevs-cli COMMAND [OPTION…]\n\n"));
  g_string_append (text, _("Run, check and inspect QDevs block diagrams (.qdevs files) without a display.\n\n"));
  g_string_append (text, _("Commands:\n"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    g_string_append_printf (text, "  %-16s %s\n", _(commands[i].synopsis), _(commands[i].summary));
  g_string_append_printf (text, "  %-16s %s\n", _("help [COMMAND]"), _("show this help, or the options of COMMAND"));
  g_string_append (text, _("\nOptions:\n"));
  g_string_append_printf (text, "  %-16s %s\n", "-V, --version", _("print the version and exit"));
  g_string_append_printf (text, "  %-16s %s\n", "-h, --help", _("show this help and exit"));
  g_string_append (text, _("\nA FILE of '-' is standard input; an OUT of '-' (--csv, --events) is standard\n"
                           "output. Errors, usage errors included, go to standard error.\n"));
  g_string_append (text, _("\nExit status:\n"
                           "  0    success\n"
                           "  1    the file cannot be read or written, or the model is wrong\n"
                           "  2    usage error: unknown command or option, bad value, missing FILE,\n"
                           "       a --set NAME the model does not define\n"
                           "  3    error during the run (illegitimate model, NaN, ...)\n"
                           "  11-110  sweep: 10 plus the number of failed runs (110: 100 or more)\n"
                           "  130  interrupted by Ctrl-C (SIGINT)\n"
                           "  143  interrupted by SIGTERM\n"
                           "A run interrupted still writes its results up to then; interrupted while\n"
                           "they are written, it removes the unfinished CSV file.\n"));
  g_string_append (text, _("Run 'qdevs-cli COMMAND --help' for the options of a command.\n"));
  if (to_stderr)
    g_printerr ("%s", text->str);
  else
    g_print ("%s", text->str);
  g_string_free (text, TRUE);
}

static const QdCliCommand *
find_command (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (commands[i].name, name) == 0)
      return &commands[i];
  return NULL;
}

int
main (int    argc,
      char **argv)
{
  const QdCliCommand *command;
  const char *name;

  qd_init ();
  qd_build_tree_bind_textdomain ();
  setlocale (LC_ALL, "");
  /* Numbers in CSV, JSON and tables are always written with a '.', so
   * that files made in one locale read back in any other. */
  setlocale (LC_NUMERIC, "C");

  if (argc < 2)
    {
      print_help (TRUE);
      return QD_CLI_EXIT_USAGE;
    }

  name = argv[1];
  if (strcmp (name, "--version") == 0 || strcmp (name, "-V") == 0)
    {
      g_print ("qdevs-cli %s\n", QD_VERSION); /* no-i18n */
      return QD_CLI_EXIT_OK;
    }
  if (strcmp (name, "--help") == 0 || strcmp (name, "-h") == 0
      || strcmp (name, "help") == 0)
    {
      if (strcmp (name, "help") == 0 && argc > 2)
        {
          char *help_argv[] = { argv[2], (char *) "--help", NULL };

          command = find_command (argv[2]);
          if (command == NULL)
            return qd_cli_usage_error (NULL, _("unknown command '%s'"), argv[2]);
          /* GOption prints the command's help and exits. */
          return command->func (2, help_argv);
        }
      print_help (FALSE);
      return QD_CLI_EXIT_OK;
    }
  if (name[0] == '-')
    return qd_cli_usage_error (NULL, _("unknown option '%s'; options come after the command"), name);

  command = find_command (name);
  if (command == NULL)
    return qd_cli_usage_error (NULL, _("unknown command '%s'"), name);

  return command->func (argc - 1, argv + 1);
}

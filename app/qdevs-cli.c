/* qdevs-cli.c: the headless front end of QDevs
 *
 * `qdevs-cli COMMAND ...` runs, checks and inspects .qdevs diagrams without
 * a display, for scripts, CI and batch experiments. This file dispatches to
 * the commands (qd-cli-*.c) and holds what they share: option parsing,
 * usage errors and problem printing.
 */
#include <locale.h>
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
  { "check",  qd_cli_check,  N_("check FILE"),
    N_("list every problem of a diagram without running it") },
  { "blocks", qd_cli_blocks, N_("blocks"),
    N_("describe every available block type") },
  { "bench",  qd_cli_bench,  N_("bench"),
    N_("run generated large models; report speed and memory") },
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

void
qd_cli_count_system (QdSystem *system,
                     guint    *n_blocks,
                     guint    *n_links)
{
  *n_blocks += system->blocks->len;
  *n_links += system->links->len;
  for (guint i = 0; i < system->blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (system->blocks, i);

      if (block->inner != NULL)
        qd_cli_count_system (block->inner, n_blocks, n_links);
    }
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

static void
print_help (void)
{
  g_print (_("Usage:\n  qdevs-cli COMMAND [OPTION…]\n\n"));
  g_print (_("Run, check and inspect QDevs block diagrams (.qdevs files) without a display.\n\n"));
  g_print (_("Commands:\n"));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    g_print ("  %-16s %s\n", _(commands[i].synopsis), _(commands[i].summary));
  g_print ("  %-16s %s\n", _("help [COMMAND]"), _("show this help, or the options of COMMAND"));
  g_print (_("\nOptions:\n"));
  g_print ("  %-16s %s\n", "--version", _("print the version and exit"));
  g_print ("  %-16s %s\n", "-h, --help", _("show this help and exit"));
  g_print (_("\nExit status: 0 success, 1 file or model error, 2 usage error,\n"
             "3 error during the run (illegitimate model, NaN, ...), 130 run\n"
             "interrupted by Ctrl-C (its results up to then are still written).\n"));
  g_print (_("Run 'qdevs-cli COMMAND --help' for the options of a command.\n"));
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
      print_help ();
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
      print_help ();
      return QD_CLI_EXIT_OK;
    }
  if (name[0] == '-')
    return qd_cli_usage_error (NULL, _("unknown option '%s'; options come after the command"), name);

  command = find_command (name);
  if (command == NULL)
    return qd_cli_usage_error (NULL, _("unknown command '%s'"), name);

  return command->func (argc - 1, argv + 1);
}

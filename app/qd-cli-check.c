/* qd-cli-check.c: `qdevs-cli check`, validate a diagram without running it
 *
 * Lists every problem at once (not only the first), one line each, so a
 * user or an editor integration can fix them all in one pass.
 */
#include "qd-cli-private.h"

int
qd_cli_check (int    argc,
              char **argv)
{
  char **overrides = NULL;
  GOptionEntry entries[] = {
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &overrides,
      N_("Replace the value of the model variable NAME (one the model defines); may be repeated"), N_("NAME=VALUE") },
    { NULL }
  };
  g_autoptr(QdDocument) document = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  int status_code = QD_CLI_EXIT_OK;
  const char *file;

  if (!qd_cli_parse_options ("check", _("FILE"),
                             _("Load and compile the diagram FILE without running it, and list every problem."),
                             _("Each problem is one line on standard error: \"FILE: /Block/Path: message\".\n"
                               "When there is none, \"FILE: OK (N blocks, M links)\" is printed on standard output.\n"
                               "FILE '-' reads the diagram from standard input. A --set NAME that is not\n"
                               "one of the model's variables is a usage error (exit status 2)."),
                             entries, &argc, &argv))
    return QD_CLI_EXIT_USAGE;

  if (argc < 2)
    status_code = qd_cli_usage_error ("check", _("missing FILE (a .qdevs diagram)"));
  else if (argc > 2)
    status_code = qd_cli_usage_error ("check", _("unexpected argument '%s'"), argv[2]);
  else if (!qd_cli_check_overrides ("check", overrides))
    status_code = QD_CLI_EXIT_USAGE;
  if (status_code != QD_CLI_EXIT_OK)
    goto out;

  file = qd_cli_file_name (argv[1]);
  /* The loader lists the problems of each block with the compiler's,
   * instead of stopping at the first. */
  problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  status_code = qd_cli_load ("check", argv[1], overrides, problems, &document);
  if (status_code != QD_CLI_EXIT_OK)
    goto out;

  if (!qd_document_check (document, (const char *const *) overrides, problems)
      || problems->len > 0)
    {
      if (problems->len > 0)
        qd_cli_print_problems (file, problems);
      else
        g_printerr (_("%s: the model cannot be compiled\n"), file);
      status_code = QD_CLI_EXIT_MODEL;
    }
  else
    {
      QdSystemCounts counts;

      /* The counts of the editor's diagram information, from one place. */
      qd_system_count (qd_document_get_root (document), &counts);
      g_print (_("%s: OK (%u blocks, %u links)\n"), file, counts.blocks, counts.links);
    }

out:
  g_strfreev (overrides);
  return status_code;
}

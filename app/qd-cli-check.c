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
      N_("Replace (or add) the model variable NAME; may be repeated"), N_("NAME=VALUE") },
    { NULL }
  };
  g_autoptr(QdDocument) document = NULL;
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GError) error = NULL;
  int status_code = QD_CLI_EXIT_OK;
  const char *file;

  if (!qd_cli_parse_options ("check", _("FILE"),
                             _("Load and compile the diagram FILE without running it, and list every problem."),
                             _("Each problem is one line on standard error: \"FILE: /Block/Path: message\".\n"
                               "When there is none, \"FILE: OK (N blocks, M links)\" is printed on standard output."),
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

  file = argv[1];
  /* The loader lists the problems of each block with the compiler's,
   * instead of stopping at the first. */
  problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  document = qd_document_load_full (file, problems, &error);
  if (document == NULL)
    {
      g_printerr ("%s\n", error->message);
      status_code = QD_CLI_EXIT_MODEL;
      goto out;
    }

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
      guint n_blocks = 0, n_links = 0;

      qd_cli_count_system (qd_document_get_root (document), &n_blocks, &n_links);
      g_print (_("%s: OK (%u blocks, %u links)\n"), file, n_blocks, n_links);
    }

out:
  g_strfreev (overrides);
  return status_code;
}

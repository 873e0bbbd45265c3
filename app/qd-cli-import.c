/* qd-cli-import.c: `qdevs-cli import`, open a PowerDEVS model (.pdm) and
 * save it as a QDevs diagram
 *
 * The import report (every translation that is not exact, every block
 * that became a placeholder) goes to standard error, one line each, so
 * the user knows what to check before running.
 */
#include <stdio.h>
#include <string.h>

#include "qd-cli-private.h"

int
qd_cli_import (int    argc,
               char **argv)
{
  char *output = NULL;
  GOptionEntry entries[] = {
    { "output", 'o', 0, G_OPTION_ARG_FILENAME, &output,
      N_("Write the diagram to OUT (default: MODEL with the extension .qdevs; '-' is standard output)"), N_("OUT") },
    { NULL }
  };
  g_autoptr(QdDocument) document = NULL;
  g_autoptr(GPtrArray) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out_path = NULL;
  int status_code = QD_CLI_EXIT_OK;

  if (!qd_cli_parse_options ("import", _("MODEL.pdm"),
                             _("Open the PowerDEVS model MODEL.pdm and save it as a QDevs diagram."),
                             _("The final time comes from MODEL.stm beside the model when there is one.\n"
                               "Every translation that is not exact is one line on standard error:\n"
                               "\"MODEL.pdm: /Block/Path: message\"; the diagram is written all the same.\n"
                               "Blocks with no QDevs counterpart become placeholders, which Check and\n"
                               "Run refuse until they are replaced. See the PowerDEVS page of the docs."),
                             entries, &argc, &argv))
    return QD_CLI_EXIT_USAGE;

  if (argc < 2)
    status_code = qd_cli_usage_error ("import", _("missing MODEL (a PowerDEVS .pdm file)"));
  else if (argc > 2)
    status_code = qd_cli_usage_error ("import", _("unexpected argument '%s'"), argv[2]);
  if (status_code != QD_CLI_EXIT_OK)
    goto out;

  report = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  document = qd_import_pdm (argv[1], report, &error);
  if (document == NULL)
    {
      g_printerr ("%s\n", error->message);
      status_code = QD_CLI_EXIT_MODEL;
      goto out;
    }
  qd_cli_print_problems (argv[1], report);

  if (output != NULL)
    out_path = g_strdup (output);
  else if (g_str_has_suffix (argv[1], ".pdm"))
    out_path = g_strdup_printf ("%.*s.qdevs", (int) strlen (argv[1]) - 4, argv[1]);
  else
    out_path = g_strdup_printf ("%s.qdevs", argv[1]);

  if (g_strcmp0 (out_path, "-") == 0)
    {
      gsize length = 0;
      g_autofree char *data = qd_document_to_data (document, &length);

      fwrite (data, 1, length, stdout);
      if (fflush (stdout) != 0)
        status_code = QD_CLI_EXIT_MODEL;
    }
  else if (!qd_document_save (document, out_path, &error))
    {
      g_printerr (_("%s: %s\n"), out_path, error->message);
      status_code = QD_CLI_EXIT_MODEL;
    }
  else
    g_print (_("%s: written\n"), out_path);

out:
  g_free (output);
  return status_code;
}

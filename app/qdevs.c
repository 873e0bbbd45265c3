/* qdevs.c: the entry point of the QDevs editor */
#include <locale.h>

#include <glib/gi18n-lib.h>
#include <gtk/gtk.h>

#include "qd-application.h"
#include "qd-build-tree.h"
#include "qdevs.h"
#include "qd-blocks.h"

/* --version is answered in the calling process, before GTK looks for a
 * display, so that `qdevs --version` (and --help, which GApplication
 * answers there too) work on a machine without one, in a script or a
 * package check. */
static int
on_handle_local_options (GApplication *app,
                         GVariantDict *options,
                         gpointer      user_data)
{
  if (g_variant_dict_contains (options, "version"))
    {
      /* no-i18n: the program's name and version */
      g_print ("qdevs %s\n", QD_VERSION);
      return 0;
    }
  /* Said here, in the user's words, rather than by GTK's bare warning
   * when the application starts. */
  if (!gtk_init_check ())
    {
      g_printerr (_("qdevs: cannot open a display. To run a diagram without "
                    "one, use qdevs-cli run FILE (see qdevs-cli --help).\n"));
      return 1;
    }
  /* Go on: open the files or a window. */
  return -1;
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(QdApplication) app = NULL;
  const GOptionEntry entries[] = {
    { "version", 'V', 0, G_OPTION_ARG_NONE, NULL,
      N_("Print the version and exit"), NULL },
    { NULL }
  };

  setlocale (LC_ALL, "");
  qd_init ();
  qd_build_tree_bind_textdomain ();
  textdomain (GETTEXT_PACKAGE);

  g_set_application_name (_("QDevs"));

  app = qd_application_new (G_APPLICATION_DEFAULT_FLAGS);
  g_application_add_main_option_entries (G_APPLICATION (app), entries);
  g_application_set_option_context_parameter_string (G_APPLICATION (app),
                                                     _("[FILE…]"));
  g_application_set_option_context_summary (G_APPLICATION (app),
                                            _("Edit and simulate QDevs block diagrams (.qdevs files). Each FILE opens in a window."));
  g_application_set_option_context_description (G_APPLICATION (app),
                                                _("Without a display, run diagrams with qdevs-cli (see qdevs-cli --help).\n"
                                                  "Exit status: 0 success, 1 an error (an unknown option, no display)."));
  g_signal_connect (app, "handle-local-options",
                    G_CALLBACK (on_handle_local_options), NULL);
  return g_application_run (G_APPLICATION (app), argc, argv);
}

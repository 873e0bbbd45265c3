/* qdevs.c: the entry point of the QDevs editor */
#include <locale.h>

#include <glib/gi18n-lib.h>

#include "qd-application.h"
#include "qdevs.h"

int
main (int    argc,
      char **argv)
{
  g_autoptr(QdApplication) app = NULL;

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, QD_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);

  g_set_application_name (_("QDevs"));
  qd_init ();

  app = qd_application_new (G_APPLICATION_DEFAULT_FLAGS);
  return g_application_run (G_APPLICATION (app), argc, argv);
}

/* qdevs.c: the entry point of the QDevs editor */
#include <locale.h>

#include <glib/gi18n-lib.h>

#include "qd-application.h"
#include "qd-build-tree.h"
#include "qdevs.h"

int
main (int    argc,
      char **argv)
{
  g_autoptr(QdApplication) app = NULL;

  setlocale (LC_ALL, "");
  qd_init ();
  qd_build_tree_bind_textdomain ();
  textdomain (GETTEXT_PACKAGE);

  g_set_application_name (_("QDevs"));

  app = qd_application_new (G_APPLICATION_DEFAULT_FLAGS);
  return g_application_run (G_APPLICATION (app), argc, argv);
}

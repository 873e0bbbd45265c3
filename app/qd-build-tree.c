/* qd-build-tree.c: running the programs from the Meson build tree */
#include <glib/gi18n-lib.h>

#include "qd-build-tree.h"

char *
qd_build_tree_dup_root (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *exe_dir = NULL;
  g_autofree char *info = NULL;
  char *root;

  if (exe == NULL)
    return NULL;
  exe_dir = g_path_get_dirname (exe);
  root = g_path_get_dirname (exe_dir);
  info = g_build_filename (root, "meson-info", "meson-info.json", NULL);
  if (!g_file_test (info, G_FILE_TEST_IS_REGULAR))
    g_clear_pointer (&root, g_free);
  return root;
}

void
qd_build_tree_bind_textdomain (void)
{
  g_autofree char *root = qd_build_tree_dup_root ();
  g_autofree char *localedir = NULL;

  /* The build tree's catalogs are those of the sources being run; an
   * installed QD_LOCALEDIR holds an older build's, or none. */
  if (root != NULL)
    localedir = g_build_filename (root, "po", NULL);
  if (localedir == NULL || !g_file_test (localedir, G_FILE_TEST_IS_DIR))
    g_clear_pointer (&localedir, g_free);
  bindtextdomain (GETTEXT_PACKAGE, localedir != NULL ? localedir : QD_LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
}

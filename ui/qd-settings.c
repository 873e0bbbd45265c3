/* qd-settings.c: the application's GSettings, when they can be had */
#include <stdlib.h>

#include "qd-settings.h"
#include "qd-window.h"

/* The schema compiled into the build tree (data/gschemas.compiled), for
 * a program that runs from that tree: the editor as the README starts
 * it (./build/app/qdevs) and the tests. A program elsewhere (installed)
 * never looks there, so an old build tree cannot shadow anything. */
static GSettingsSchemaSource *
dup_build_tree_source (GSettingsSchemaSource *parent)
{
#ifdef QD_BUILD_ROOT
  /* Both with symbolic links resolved, as the kernel gives the first. */
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *root = realpath (QD_BUILD_ROOT, NULL);
  g_autofree char *prefix = NULL;
  g_autofree char *dir = NULL;

  if (exe == NULL || root == NULL)
    return NULL;
  prefix = g_strconcat (root, G_DIR_SEPARATOR_S, NULL);
  if (!g_str_has_prefix (exe, prefix))
    return NULL;
  dir = g_build_filename (root, "data", NULL);
  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    return NULL;
  return g_settings_schema_source_new_from_directory (dir, parent, FALSE, NULL);
#else
  return NULL;
#endif
}

GSettings *
qd_settings_new_if_installed (void)
{
  static GSettingsSchemaSource *build_source;
  static gsize build_source_set;
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, QD_APPLICATION_ID, TRUE);
  if (schema == NULL)
    {
      /* Looked up once: the build tree does not move while we run. */
      if (g_once_init_enter (&build_source_set))
        {
          build_source = dup_build_tree_source (source);
          g_once_init_leave (&build_source_set, 1);
        }
      if (build_source != NULL)
        schema = g_settings_schema_source_lookup (build_source, QD_APPLICATION_ID, FALSE);
    }
  return schema != NULL ? g_settings_new_full (schema, NULL, NULL) : NULL;
}

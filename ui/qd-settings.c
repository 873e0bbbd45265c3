/* qd-settings.c: the application's GSettings, when they can be had */
#include "qd-settings.h"
#include "qd-window.h"

GSettings *
qd_settings_new_if_installed (void)
{
  GSettingsSchemaSource *source = g_settings_schema_source_get_default ();
  g_autoptr(GSettingsSchema) schema = NULL;

  if (source != NULL)
    schema = g_settings_schema_source_lookup (source, QD_APPLICATION_ID, TRUE);
  return schema != NULL ? g_settings_new_full (schema, NULL, NULL) : NULL;
}

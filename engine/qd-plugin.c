/* qd-plugin.c: loading block types from C plugins (GModule) */
#include "qd-plugin.h"
#include "qd-registry.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* Plugin names already loaded (name -> file), and the folders searched,
 * for the message about a type whose plugin is missing. */
static GMutex plugins_lock;
static GHashTable *loaded_plugins;
static GPtrArray *searched_dirs;

char **
qd_plugins_get_search_path (void)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  const char *env = g_getenv ("QDEVS_PLUGIN_PATH");
  g_autofree char *user = g_build_filename (g_get_user_data_dir (), "qdevs",
                                            "plugins", NULL);

  if (env != NULL)
    {
      g_auto(GStrv) dirs = g_strsplit (env, G_SEARCHPATH_SEPARATOR_S, -1);

      for (guint i = 0; dirs[i] != NULL; i++)
        if (dirs[i][0] != '\0')
          g_strv_builder_add (builder, dirs[i]);
    }
  g_strv_builder_add (builder, user);
  g_strv_builder_add (builder, QD_PLUGINDIR);
  return g_strv_builder_end (builder);
}

/* QdRegistryWhereFunc: a type id "NAME:TYPE" (not a Lua library block)
 * is a plugin's; say where its plugin was looked for. */
static char *
plugin_where (const char *type_id)
{
  const char *colon = strchr (type_id, ':');
  g_autofree char *name = NULL;
  g_autoptr(GString) where = NULL;

  if (colon == NULL || colon == type_id || colon[1] == '\0'
      || g_str_has_prefix (type_id, "lua:"))
    return NULL;
  name = g_strndup (type_id, colon - type_id);
  /* TRANSLATORS: "a block of the plugin 'mylib', looked for in DIR and DIR" */
  where = g_string_new (NULL);
  g_string_printf (where, _("a block of the plugin '%s', looked for in "), name);
  g_mutex_lock (&plugins_lock);
  for (guint i = 0; searched_dirs != NULL && i < searched_dirs->len; i++)
    {
      if (i > 0)
        g_string_append (where, _(" and "));
      g_string_append (where, g_ptr_array_index (searched_dirs, i));
    }
  if (searched_dirs == NULL || searched_dirs->len == 0)
    g_string_append (where, _("no folder (no plugin was loaded)"));
  g_mutex_unlock (&plugins_lock);
  return g_string_free (g_steal_pointer (&where), FALSE);
}

static void
remember_dir (const char *dir)
{
  g_mutex_lock (&plugins_lock);
  if (searched_dirs == NULL)
    {
      searched_dirs = g_ptr_array_new_with_free_func (g_free);
      loaded_plugins = g_hash_table_new_full (g_str_hash, g_str_equal,
                                              g_free, g_free);
      qd_registry_add_where_func (plugin_where);
    }
  if (!g_ptr_array_find_with_equal_func (searched_dirs, dir, g_str_equal, NULL))
    g_ptr_array_add (searched_dirs, g_strdup (dir));
  g_mutex_unlock (&plugins_lock);
}

static gboolean
is_plugin_name (const char *s)
{
  if (s == NULL || *s == '\0' || strcmp (s, "lua") == 0)
    return FALSE;
  for (; *s != '\0'; s++)
    if (!g_ascii_isalnum (*s) && *s != '_' && *s != '-')
      return FALSE;
  return TRUE;
}

/* Whether @type may come from the plugin @name: its id in the plugin's
 * namespace, the descriptor filled in, the DEVS functions given and none
 * of the built-in library's fast paths. */
static gboolean
check_type (const char        *name,
            const QdBlockType *type,
            GError           **error)
{
  const char *id = type->id != NULL ? type->id : "";
  gsize len = strlen (name);

  if (strncmp (id, name, len) != 0 || id[len] != ':' || id[len + 1] == '\0')
    {
      g_set_error (error, QD_ERROR, QD_ERROR_FAILED,
                   _("block type id '%s' must begin with the plugin's name "
                     "and a colon ('%s:...')"), id, name);
      return FALSE;
    }
  if (type->name == NULL || type->category == NULL)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_FAILED,
                   _("block type '%s' has no name or no category"), id);
      return FALSE;
    }
  if (type->ta == NULL || type->dint == NULL || type->dext == NULL
      || type->lambda == NULL)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_FAILED,
                   _("block type '%s' lacks one of ta, dint, dext and lambda"),
                   id);
      return FALSE;
    }
  if (type->fast != NULL
      || (type->flags & (QD_BLOCK_STRUCTURAL | QD_BLOCK_TAG_SINK
                         | QD_BLOCK_TAG_SOURCE)) != 0)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_FAILED,
                   _("block type '%s' uses the built-in library's fast paths "
                     "or structural flags, which are not part of the block "
                     "API; leave them unset"), id);
      return FALSE;
    }
  return TRUE;
}

/* Checks the table of the plugin in @file; on failure @error says what
 * is wrong, without the file name. */
static gboolean
check_info (const QdPluginInfo *info,
            GError            **error)
{
  if (info == NULL)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_FAILED,
                   _("qd_plugin_register() returned no descriptor table"));
      return FALSE;
    }
  if (info->api_version != QD_BLOCK_API_VERSION)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_VERSION,
                   _("the plugin was built for block API version %u, but this "
                     "QDevs has version %u; rebuild the plugin against this "
                     "QDevs (pkg-config qdevs-1)"),
                   info->api_version, QD_BLOCK_API_VERSION);
      return FALSE;
    }
  if (!is_plugin_name (info->name))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_FAILED,
                   _("the plugin's name must be letters, digits, '_' and '-' "
                     "(and not 'lua')"));
      return FALSE;
    }
  if (info->types == NULL || info->types[0] == NULL)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_FAILED,
                   _("the plugin '%s' has no block types"), info->name);
      return FALSE;
    }
  for (guint i = 0; info->types[i] != NULL; i++)
    {
      if (!check_type (info->name, info->types[i], error))
        return FALSE;
      if (qd_registry_lookup (info->types[i]->id) != NULL)
        {
          g_set_error (error, QD_ERROR, QD_ERROR_DUPLICATE,
                       _("block type '%s' is already registered"),
                       info->types[i]->id);
          return FALSE;
        }
    }
  return TRUE;
}

/* Opens @file and registers its types: 1 when it did, 0 when the plugin's
 * name was loaded before, -1 on an error. */
static int
load_file (const char *file,
           GError    **error)
{
  GModule *module;
  gpointer symbol = NULL;
  const QdPluginInfo *info;
  gboolean seen;

  module = g_module_open (file, G_MODULE_BIND_LAZY | G_MODULE_BIND_LOCAL);
  if (module == NULL)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_FAILED,
                   _("cannot be opened: %s"), g_module_error ());
      return -1;
    }
  if (!g_module_symbol (module, QD_PLUGIN_REGISTER_SYMBOL, &symbol)
      || symbol == NULL)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_FAILED,
                   _("is not a QDevs plugin: it exports no function %s()"),
                   QD_PLUGIN_REGISTER_SYMBOL);
      g_module_close (module);
      return -1;
    }
  info = ((QdPluginRegisterFunc) symbol) ();
  g_mutex_lock (&plugins_lock);
  seen = info != NULL && info->name != NULL
         && g_hash_table_contains (loaded_plugins, info->name);
  g_mutex_unlock (&plugins_lock);
  if (seen && info->api_version == QD_BLOCK_API_VERSION)
    {
      /* An earlier folder of the search path had it. */
      g_module_close (module);
      return 0;
    }
  if (!check_info (info, error))
    {
      g_module_close (module);
      return -1;
    }
  /* The registry keeps pointers into the module: it stays for good. */
  g_module_make_resident (module);
  g_mutex_lock (&plugins_lock);
  g_hash_table_insert (loaded_plugins, g_strdup (info->name), g_strdup (file));
  g_mutex_unlock (&plugins_lock);
  for (guint i = 0; info->types[i] != NULL; i++)
    qd_registry_register (info->types[i]);
  return 1;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

guint
qd_plugins_load_dir (const char *dir,
                     GPtrArray  *problems)
{
  g_autoptr(GDir) d = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *entry;
  guint n = 0;

  g_return_val_if_fail (dir != NULL, 0);

  remember_dir (dir);
  d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    return 0;
  while ((entry = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (entry, "." G_MODULE_SUFFIX))
      g_ptr_array_add (names, g_strdup (entry));
  /* The same order on every machine. */
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *file = g_build_filename (dir, g_ptr_array_index (names, i),
                                                NULL);
      g_autoptr(GError) error = NULL;
      int r = load_file (file, &error);

      if (r > 0)
        n++;
      else if (r < 0 && problems != NULL)
        /* TRANSLATORS: "FILE: the plugin was built for ..." */
        g_ptr_array_add (problems, g_strdup_printf (_("%s: %s"), file,
                                                    error->message));
    }
  return n;
}

guint
qd_plugins_load (GPtrArray *problems)
{
  g_auto(GStrv) dirs = qd_plugins_get_search_path ();
  guint n = 0;

  for (guint i = 0; dirs[i] != NULL; i++)
    n += qd_plugins_load_dir (dirs[i], problems);
  return n;
}

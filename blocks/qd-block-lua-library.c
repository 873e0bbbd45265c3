/* qd-block-lua-library.c: script headers and the user's library of blocks
 *
 * A script may begin with header lines, Lua comments that start with
 * "--@", which say what the block looks like from outside:
 *
 *   --@name Processor            display name
 *   --@category Discrete         palette category (Custom by default)
 *   --@glyph P                   drawn on the block
 *   --@doc One job at a time.    documentation (lines join)
 *   --@inputs 1                  number of input ports
 *   --@outputs 1                 number of output ports
 *   --@param time 1 "Processing time"   a parameter: name, default (a
 *                                QDevs expression, no blanks) and doc
 *
 * The header ends at the first line that is neither a comment nor blank.
 *
 * Each NAME.lua in the user's block folder ($XDG_DATA_HOME/qdevs/blocks)
 * becomes a block type "lua:NAME" at startup, with the header's ports and
 * parameters (numbers, evaluated by the engine like any block's): it is
 * in the palette, `qdevs-cli blocks` and the block reference, and a
 * diagram that uses it names it by that id.
 */
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>

#include "qd-block-lua-private.h"
#include "qd-blocks.h"

typedef struct
{
  QdBlockType  type;      /* first: the registry hands out &type */
  char        *script;
  char        *file;
} LuaLibraryType;

static void
param_decl_free (gpointer data)
{
  QdLuaParamDecl *d = data;

  g_free (d->name);
  g_free (d->default_value);
  g_free (d->doc);
  g_free (d);
}

void
qd_lua_header_clear (QdLuaHeader *header)
{
  g_clear_pointer (&header->name, g_free);
  g_clear_pointer (&header->category, g_free);
  g_clear_pointer (&header->glyph, g_free);
  g_clear_pointer (&header->doc, g_free);
  g_clear_pointer (&header->params, g_ptr_array_unref);
}

static gboolean
is_lua_name (const char *s)
{
  if (!g_ascii_isalpha (*s) && *s != '_')
    return FALSE;
  for (s++; *s != '\0'; s++)
    if (!g_ascii_isalnum (*s) && *s != '_')
      return FALSE;
  return TRUE;
}

static gboolean
parse_count (const char *value,
             int        *count)
{
  char *end;
  gint64 n = g_ascii_strtoll (value, &end, 10);

  if (end == value || *end != '\0' || n < 0 || n > 64)
    return FALSE;
  *count = (int) n;
  return TRUE;
}

/* "--@param NAME DEFAULT doc text" */
static gboolean
parse_param (QdLuaHeader *header,
             char        *value,
             int          line,
             GError     **error)
{
  g_auto(GStrv) words = g_strsplit_set (value, " \t", 3);
  QdLuaParamDecl *d;
  char *doc;

  if (words[0] == NULL || words[1] == NULL || !is_lua_name (words[0])
      || words[1][0] == '\0')
    {
      g_set_error (error, QD_ERROR, QD_ERROR_SYNTAX,
                   _("script line %d: write a parameter as --@param NAME "
                     "DEFAULT \"documentation\""), line);
      return FALSE;
    }
  for (guint i = 0; i < header->params->len; i++)
    if (strcmp (((QdLuaParamDecl *) g_ptr_array_index (header->params, i))->name,
                words[0]) == 0)
      {
        g_set_error (error, QD_ERROR, QD_ERROR_SYNTAX,
                     _("script line %d: parameter '%s' is declared twice"),
                     line, words[0]);
        return FALSE;
      }
  doc = g_strstrip (g_strdup (words[2] != NULL ? words[2] : ""));
  if (doc[0] == '"' && strlen (doc) >= 2 && doc[strlen (doc) - 1] == '"')
    {
      memmove (doc, doc + 1, strlen (doc) - 2);
      doc[strlen (doc) - 2] = '\0';
    }
  d = g_new0 (QdLuaParamDecl, 1);
  d->name = g_strdup (words[0]);
  d->default_value = g_strdup (words[1]);
  d->doc = doc;
  g_ptr_array_add (header->params, d);
  return TRUE;
}

static gboolean
parse_line (QdLuaHeader *header,
            const char  *key,
            char        *value,
            int          line,
            GError     **error)
{
  char **text = NULL;
  int *count = NULL;

  if (strcmp (key, "param") == 0)
    return parse_param (header, value, line, error);
  if (strcmp (key, "name") == 0)
    text = &header->name;
  else if (strcmp (key, "category") == 0)
    text = &header->category;
  else if (strcmp (key, "glyph") == 0)
    text = &header->glyph;
  else if (strcmp (key, "inputs") == 0)
    count = &header->n_inputs;
  else if (strcmp (key, "outputs") == 0)
    count = &header->n_outputs;
  else if (strcmp (key, "doc") == 0)
    {
      char *joined = header->doc == NULL ? g_strdup (value)
                     : g_strconcat (header->doc, " ", value, NULL);

      g_free (header->doc);
      header->doc = joined;
      return TRUE;
    }
  else
    {
      g_set_error (error, QD_ERROR, QD_ERROR_SYNTAX,
                   _("script line %d: unknown header line --@%s; the header "
                     "knows name, category, glyph, doc, inputs, outputs and "
                     "param"), line, key);
      return FALSE;
    }

  if (count != NULL)
    {
      if (!parse_count (value, count))
        {
          g_set_error (error, QD_ERROR, QD_ERROR_SYNTAX,
                       _("script line %d: --@%s takes a port count from 0 "
                         "to 64, not '%s'"), line, key, value);
          return FALSE;
        }
      return TRUE;
    }
  g_free (*text);
  *text = g_strdup (value);
  return TRUE;
}

gboolean
qd_lua_header_parse (const char   *script,
                     QdLuaHeader  *header,
                     GError      **error)
{
  g_auto(GStrv) lines = g_strsplit (script, "\n", -1);

  memset (header, 0, sizeof *header);
  header->n_inputs = header->n_outputs = -1;
  header->params = g_ptr_array_new_with_free_func (param_decl_free);

  for (int i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);
      char *key, *value;

      if (line[0] == '\0')
        continue;
      if (!g_str_has_prefix (line, "--"))
        break;
      if (!g_str_has_prefix (line, "--@"))
        continue;
      key = line + 3;
      value = key + strcspn (key, " \t");
      if (*value != '\0')
        *value++ = '\0';
      value = g_strstrip (value);
      if (!parse_line (header, key, value, i + 1, error))
        {
          qd_lua_header_clear (header);
          return FALSE;
        }
    }
  return TRUE;
}

const char *
qd_lua_library_script (const QdBlockType *type)
{
  return ((const LuaLibraryType *) type)->script;
}

gboolean
qd_blocks_check_lua_script (const char  *script,
                            int         *line,
                            char       **message)
{
  g_autoptr(GError) error = NULL;
  QdLuaHeader header;
  const char *text;

  if (qd_lua_header_parse (script, &header, &error))
    {
      qd_lua_header_clear (&header);
      return qd_lua_check_syntax (script, line, message);
    }
  /* "script line N: message" */
  *line = 0;
  text = error->message;
  if (sscanf (text, "script line %d: ", line) == 1)
    text = strstr (text, ": ") + 2;
  *message = g_strdup (text);
  return FALSE;
}

/* A type that was not registered; registered ones live as long as the
 * process, as the registry's entries do. */
static void
library_type_free (LuaLibraryType *lib)
{
  for (guint i = 0; i < lib->type.n_params; i++)
    {
      g_free ((char *) lib->type.params[i].name);
      g_free ((char *) lib->type.params[i].default_value);
      g_free ((char *) lib->type.params[i].doc);
    }
  g_free ((QdParamSpec *) lib->type.params);
  g_free ((char *) lib->type.id);
  g_free ((char *) lib->type.category);
  g_free ((char *) lib->type.name);
  g_free ((char *) lib->type.glyph);
  g_free ((char *) lib->type.doc);
  g_free (lib->script);
  g_free (lib->file);
  g_free (lib);
}

/* The block type of @file (a NAME.lua), or NULL with @error. */
static LuaLibraryType *
library_type_new (const char  *file,
                  GError     **error)
{
  g_autofree char *script = NULL;
  g_autofree char *base = g_path_get_basename (file);
  g_autoptr(GError) local = NULL;
  QdLuaHeader header;
  LuaLibraryType *lib;
  QdParamSpec *params;
  int line = 0;
  char *message = NULL;

  if (!g_file_get_contents (file, &script, NULL, error))
    return NULL;
  if (!qd_lua_header_parse (script, &header, &local)
      || (!qd_lua_check_syntax (script, &line, &message)
          && (g_set_error (&local, QD_ERROR, QD_ERROR_SYNTAX,
                           _("script line %d: %s"), line, message), TRUE)))
    {
      g_free (message);
      g_set_error (error, QD_ERROR, local->code, "%s: %s", file, local->message);
      return NULL;
    }
  base[strlen (base) - strlen (".lua")] = '\0';

  lib = g_new0 (LuaLibraryType, 1);
  lib->script = g_steal_pointer (&script);
  lib->file = g_strdup (file);
  lib->type.id = g_strconcat ("lua:", base, NULL);
  lib->type.category = header.category != NULL ? g_steal_pointer (&header.category)
                                                : g_strdup (N_("Custom"));
  lib->type.name = header.name != NULL ? g_steal_pointer (&header.name)
                                       : g_strdup (base);
  lib->type.glyph = header.glyph != NULL ? g_steal_pointer (&header.glyph)
                                         : g_strdup ("λ");
  lib->type.doc = header.doc != NULL
    ? g_steal_pointer (&header.doc)
    : g_strdup_printf (_("A Lua block of the user's library (%s)."), base);
  lib->type.inputs.count = MAX (header.n_inputs, 0);
  lib->type.inputs.name_prefix = "in";
  lib->type.outputs.count = MAX (header.n_outputs, 0);
  lib->type.outputs.name_prefix = "y";
  params = g_new0 (QdParamSpec, MAX (header.params->len, 1));
  for (guint i = 0; i < header.params->len; i++)
    {
      QdLuaParamDecl *d = g_ptr_array_index (header.params, i);

      params[i].name = g_steal_pointer (&d->name);
      params[i].label = params[i].name;
      params[i].kind = QD_PARAM_NUMBER;
      params[i].default_value = g_steal_pointer (&d->default_value);
      params[i].min = -QD_INF;
      params[i].max = QD_INF;
      params[i].doc = g_steal_pointer (&d->doc);
    }
  lib->type.params = params;
  lib->type.n_params = header.params->len;
  qd_lua_block_fill_type (&lib->type);
  qd_lua_header_clear (&header);
  return lib;
}

static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

/* The folders qd_blocks_load_library() read, for the message about a
 * library block that is missing. */
static GMutex dirs_lock;
static GPtrArray *library_dirs;

/* QdRegistryWhereFunc: where a missing lua:NAME was looked for. */
static char *
library_where (const char *type_id)
{
  g_autoptr(GString) where = NULL;
  const char *name;

  if (!g_str_has_prefix (type_id, "lua:") || type_id[4] == '\0')
    return NULL;
  name = type_id + 4;
  where = g_string_new (_("a Lua library block, looked for as "));
  g_mutex_lock (&dirs_lock);
  for (guint i = 0; library_dirs != NULL && i < library_dirs->len; i++)
    {
      g_autofree char *file = g_strconcat (name, ".lua", NULL);
      g_autofree char *path = g_build_filename (g_ptr_array_index (library_dirs, i),
                                                file, NULL);

      if (i > 0)
        g_string_append (where, _(" and "));
      g_string_append (where, path);
    }
  g_mutex_unlock (&dirs_lock);
  return g_string_free (g_steal_pointer (&where), FALSE);
}

static void
remember_dir (const char *dir)
{
  g_mutex_lock (&dirs_lock);
  if (library_dirs == NULL)
    {
      library_dirs = g_ptr_array_new_with_free_func (g_free);
      qd_registry_add_where_func (library_where);
    }
  for (guint i = 0; i < library_dirs->len; i++)
    if (strcmp (g_ptr_array_index (library_dirs, i), dir) == 0)
      {
        g_mutex_unlock (&dirs_lock);
        return;
      }
  g_ptr_array_add (library_dirs, g_strdup (dir));
  g_mutex_unlock (&dirs_lock);
}

char *
qd_blocks_get_library_dir (void)
{
  return g_build_filename (g_get_user_data_dir (), "qdevs", "blocks", NULL);
}

/* Registers each NAME.lua of @dir (the user's block folder when NULL) as
 * the block type lua:NAME; a script that cannot be read, has a bad
 * header or does not compile is left out, with its message in
 * @problems (strings; may be NULL). Returns the number registered. */
guint
qd_blocks_load_library (const char *dir,
                        GPtrArray  *problems)
{
  g_autofree char *default_dir = NULL;
  g_autoptr(GDir) d = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  const char *entry;
  guint n = 0;

  if (dir == NULL)
    dir = default_dir = qd_blocks_get_library_dir ();
  remember_dir (dir);
  d = g_dir_open (dir, 0, NULL);
  if (d == NULL)
    return 0;
  while ((entry = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (entry, ".lua") && strlen (entry) > strlen (".lua"))
      g_ptr_array_add (names, g_strdup (entry));
  /* The same order on every machine. */
  g_ptr_array_sort (names, compare_names);

  for (guint i = 0; i < names->len; i++)
    {
      g_autofree char *file = g_build_filename (dir, g_ptr_array_index (names, i), NULL);
      g_autoptr(GError) error = NULL;
      LuaLibraryType *lib = library_type_new (file, &error);

      if (lib == NULL)
        {
          if (problems != NULL)
            g_ptr_array_add (problems, g_strdup (error->message));
          continue;
        }
      if (qd_registry_lookup (lib->type.id) != NULL)
        {
          /* Loaded before (a second call): the first one stays. */
          library_type_free (lib);
          continue;
        }
      qd_registry_register (&lib->type);
      n++;
    }
  return n;
}

/* qd-file-load.c: building a document from a parsed .qdevs file
 *
 * The loader walks the JSON tree, its blocks and links one element at a
 * time as qd-file.c reads them, and builds the document without
 * commands, checking everything on the way: a file that loads is a
 * diagram every other part of QDevs can trust (unique ids and sibling
 * names, known types and parameters, links between existing ports, one
 * driver per input). Unknown keys are refused; every error names the
 * block path or link id and says what to do. Reading the bytes and the
 * JSON syntax is in qd-file.c, writing in qd-file-write.c.
 */
#include <glib/gi18n-lib.h>

#include <json-c/json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qd-debug.h"
#include "qd-file-private.h"
#include "qd-history.h"
#include "qd-mask.h"
#include "qd-notes.h"
#include "qd-registry.h"

/* Allowed keys, in the order the writer puts them. Unknown keys are
 * refused, so that a typo ("positon") is reported instead of vanishing on
 * the next save. */
static const char *const top_keys[] = {
  "format", "version", "title", "description", "simulation", "variables",
  "blocks", "links", "breakpoints", "notes", NULL
};
static const char *const note_keys[] = { "position", "text", NULL };
static const char *const breakpoint_keys[] = {
  "kind", "block", "port", "value", NULL
};
static const char *const simulation_keys[] = {
  "start", "final", "method", "dqmin", "dqrel", "illegitimacy_limit",
  "solver", "rtol", "atol", "max_step", "h", NULL
};
static const char *const block_keys[] = {
  "id", "type", "name", "position", "size", "rotation", "flip", "params",
  "mask", "blocks", "links", NULL
};
static const char *const mask_keys[] = { "icon", "params", NULL };
static const char *const mask_param_keys[] = {
  "name", "default", "description", "value", NULL
};
static const char *const link_keys[] = { "id", "from", "to", NULL };
static const char *const from_keys[] = { "block", "port", NULL };
static const char *const target_keys[] = { "block", "port", "points", NULL };


/* JSON value helpers. Each returns FALSE when @value has the wrong type
 * and leaves the message to the caller, who knows the key. */

static gboolean
get_string (json_object  *value,
            const char  **out)
{
  const char *str;
  int len;

  if (!json_object_is_type (value, json_type_string))
    return FALSE;
  str = json_object_get_string (value);
  len = json_object_get_string_len (value);
  /* "\u0000" and lone surrogates decode to text that GLib and GTK cannot
   * handle; g_utf8_validate refuses both. */
  if (str == NULL || len < 0 || !g_utf8_validate (str, len, NULL))
    return FALSE;
  *out = str;
  return TRUE;
}

static gboolean
get_number (json_object *value,
            double      *out)
{
  double d;

  if (!json_object_is_type (value, json_type_double)
      && !json_object_is_type (value, json_type_int))
    return FALSE;
  d = json_object_get_double (value);
  /* json-c reads NaN, Infinity and 1e999; none is a coordinate or a
   * time, and the writer could not write them back. */
  if (!isfinite (d))
    return FALSE;
  *out = d;
  return TRUE;
}

/* A whole number from 0 to @max, written as an integer or as a double
 * with no fraction ("port": 1.0 is fine). */
static gboolean
get_uint (json_object *value,
          guint64      max,
          guint64     *out)
{
  if (json_object_is_type (value, json_type_int))
    {
      guint64 u;

      if (json_object_get_int64 (value) < 0)
        return FALSE;
      u = json_object_get_uint64 (value);
      if (u > max)
        return FALSE;
      *out = u;
      return TRUE;
    }
  if (json_object_is_type (value, json_type_double))
    {
      double d = json_object_get_double (value);

      if (!isfinite (d) || d < 0 || d != floor (d) || d > (double) max
          || d >= 18446744073709551616.0)
        return FALSE;
      *out = (guint64) d;
      return TRUE;
    }
  return FALSE;
}

/* Two numbers, each within QD_FILE_MAX_COORD of 0. */
static gboolean
get_point (json_object *value,
           QdPoint     *out)
{
  if (!json_object_is_type (value, json_type_array)
      || json_object_array_length (value) != 2)
    return FALSE;
  return get_number (json_object_array_get_idx (value, 0), &out->x)
         && get_number (json_object_array_get_idx (value, 1), &out->y)
         && fabs (out->x) <= QD_FILE_MAX_COORD
         && fabs (out->y) <= QD_FILE_MAX_COORD;
}

/* The text of a parameter or variable value: strings as they are, numbers
 * and booleans as they were written, so "k": -1 means "k": "-1". */
static gboolean
get_value_text (json_object  *value,
                char        **out)
{
  const char *str;

  switch (json_object_get_type (value))
    {
    case json_type_string:
      if (!get_string (value, &str))
        return FALSE;
      *out = g_strdup (str);
      return TRUE;

    case json_type_int:
    case json_type_double:
      /* For a number read from text, json-c keeps and prints that text. */
      *out = g_strdup (json_object_to_json_string_ext (value, JSON_C_TO_STRING_PLAIN));
      return TRUE;

    case json_type_boolean:
      *out = g_strdup (json_object_get_boolean (value) ? "true" : "false");
      return TRUE;

    case json_type_null:
    case json_type_object:
    case json_type_array:
    default:
      return FALSE;
    }
}

static gboolean
is_allowed_key (const char        *key,
                const char *const *allowed)
{
  for (guint i = 0; allowed[i] != NULL; i++)
    if (strcmp (key, allowed[i]) == 0)
      return TRUE;
  return FALSE;
}

/* Refuses keys not in @allowed; @what names the object ("a block"). */
static gboolean
check_keys (Loader            *loader,
            const char        *where,
            json_object       *object,
            const char        *what,
            const char *const *allowed)
{
  json_object_object_foreach (object, key, value)
    {
      (void) value;
      if (!is_allowed_key (key, allowed))
        {
          char *list = g_strjoinv (", ", (char **) allowed);
          char *shown = g_utf8_make_valid (key, -1);

          qd_file_fail (loader, QD_ERROR_FORMAT, where,
                        _("unknown key \"%s\" in %s; the keys are %s"),
                        shown, what, list);
          g_free (shown);
          g_free (list);
          return FALSE;
        }
    }
  return TRUE;
}


/* Where an unnamed block or a link without an id is: "block 3" at the top,
 * "/Plant, block 3" inside Plant. */
static char *
nth_where (const char *system_path,
           const char *what,
           gsize       index)
{
  if (system_path[0] == '\0')
    return g_strdup_printf ("%s %" G_GSIZE_FORMAT, what, index + 1);
  return g_strdup_printf ("%s, %s %" G_GSIZE_FORMAT, system_path, what, index + 1);
}

static gboolean load_system (Loader      *loader,
                             QdSystem    *system,
                             const char  *system_path,
                             json_object *blocks,
                             json_object *links);

/* A problem of the block at @path: listed when the loader lists them
 * (returns TRUE: go on), otherwise the error. */
static gboolean block_problem (Loader     *loader,
                               int         code,
                               const char *path,
                               QdBlock    *block,
                               const char *format,
                               ...) G_GNUC_PRINTF (5, 6);

static gboolean
block_problem (Loader     *loader,
               int         code,
               const char *path,
               QdBlock    *block,
               const char *format,
               ...)
{
  va_list args;
  g_autofree char *message = NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  if (loader->problems == NULL)
    return qd_file_fail (loader, code, path, "%s", message);
  g_ptr_array_add (loader->problems,
                   qd_problem_new ((QdErrorCode) code, path, block->id, "%s",
                                   message));
  return TRUE;
}

/* When the loader lists problems, a parameter the type does not have is
 * kept, as text, for the compiler to report (and saving to write back);
 * a value that is not valid for its parameter is left out, the block
 * taking the default, and listed here. */
static gboolean
load_params (Loader            *loader,
             const char        *path,
             QdBlock           *block,
             json_object       *params)
{
  if (!json_object_is_type (params, json_type_object))
    return block_problem (loader, QD_ERROR_FORMAT, path, block,
                          _("\"params\" must be an object of parameter names "
                            "and values"));

  json_object_object_foreach (params, key, value)
    {
      g_autoptr(GError) local_error = NULL;
      g_autofree char *text = NULL;
      gboolean known;

      /* Check the name first: an unknown name is the likelier mistake. */
      known = qd_block_check_param (block, key, NULL, &local_error);
      if (!known && loader->problems == NULL)
        return qd_file_fail (loader, local_error->code, path, "%s", local_error->message);
      if (!get_value_text (value, &text))
        {
          if (!block_problem (loader, QD_ERROR_PARAM, path, block,
                              _("parameter '%s' must be a string, a number, "
                                "true or false"), key))
            return FALSE;
          continue;
        }
      g_clear_error (&local_error);
      if (known && !qd_block_check_param (block, key, text, &local_error))
        {
          if (!block_problem (loader, local_error->code, path, block, "%s",
                              local_error->message))
            return FALSE;
          continue;
        }
      qd_block_set_param_raw (block, key, text);
    }
  return TRUE;
}

/* The ports a placeholder may take from its links: the most a block has. */
#define QD_PLACEHOLDER_MAX_PORTS 64

static gboolean
has_provider (const char *type_id)
{
  g_autofree char *where = qd_registry_where_looked (type_id);

  return where != NULL;
}

/* One declared parameter of a mask: {"name", "default", "description",
 * "value"}, the last two optional. */
static gboolean
load_mask_param (Loader      *loader,
                 const char  *path,
                 QdMask      *mask,
                 json_object *json)
{
  const char *texts[4] = { NULL, NULL, NULL, NULL };
  QdMaskParam *param;

  if (!json_object_is_type (json, json_type_object))
    return qd_file_fail (loader, QD_ERROR_FORMAT, path,
                         _("each mask parameter must be an object with \"name\" and "
                           "\"default\""));
  if (!check_keys (loader, path, json, _("a mask parameter"), mask_param_keys))
    return FALSE;
  for (guint k = 0; k < 4; k++)
    {
      json_object *value;

      if (json_object_object_get_ex (json, mask_param_keys[k], &value)
          && !get_string (value, &texts[k]))
        return qd_file_fail (loader, QD_ERROR_FORMAT, path,
                             _("\"%s\" of a mask parameter must be a string"),
                             mask_param_keys[k]);
    }
  if (texts[0] == NULL || texts[1] == NULL)
    return qd_file_fail (loader, QD_ERROR_FORMAT, path,
                         _("a mask parameter needs \"name\" and \"default\""));
  param = qd_mask_add_param (mask, texts[0], texts[1], texts[2]);
  param->value = g_strdup (texts[3]);
  return TRUE;
}

/* "mask" of a subsystem (qd-mask.h). */
static gboolean
load_mask (Loader      *loader,
           const char  *path,
           QdBlock     *block,
           gboolean     is_subsystem,
           json_object *json)
{
  g_autoptr(GError) local_error = NULL;
  QdMask *mask;
  json_object *value;

  if (!is_subsystem || block->inner == NULL)
    return qd_file_fail (loader, QD_ERROR_FORMAT, path,
                         _("only a subsystem has a \"mask\"; remove it"));
  if (!json_object_is_type (json, json_type_object))
    return qd_file_fail (loader, QD_ERROR_FORMAT, path,
                         _("\"mask\" must be an object with \"icon\" and \"params\""));
  if (!check_keys (loader, path, json, _("a mask"), mask_keys))
    return FALSE;
  mask = qd_mask_new ();
  /* The system owns it from here on, so an error below frees it. */
  qd_system_take_mask (block->inner, mask);
  if (json_object_object_get_ex (json, "icon", &value))
    {
      const char *icon;

      if (!get_string (value, &icon))
        return qd_file_fail (loader, QD_ERROR_FORMAT, path,
                             _("\"icon\" of a mask must be a string"));
      mask->icon = g_strdup (icon);
    }
  if (json_object_object_get_ex (json, "params", &value))
    {
      if (!json_object_is_type (value, json_type_array))
        return qd_file_fail (loader, QD_ERROR_FORMAT, path,
                             _("\"params\" of a mask must be an array of parameters"));
      for (gsize i = 0; i < json_object_array_length (value); i++)
        if (!load_mask_param (loader, path, mask,
                              json_object_array_get_idx (value, i)))
          return FALSE;
    }
  if (!qd_mask_check (mask, &local_error))
    return qd_file_fail (loader, local_error->code, path, "%s", local_error->message);
  return TRUE;
}

static gboolean
load_block (Loader      *loader,
            QdSystem    *system,
            const char  *system_path,
            GHashTable  *names,
            gsize        index,
            json_object *json)
{
  g_autofree char *unnamed = nth_where (system_path, _("block"), index);
  g_autofree char *path = NULL;
  json_object *value;
  const char *name = NULL;
  const char *id = NULL;
  const char *type_id = NULL;
  gboolean placeholder = FALSE;
  const QdBlockType *type;
  QdBlock *other;
  QdBlock *block;
  gboolean is_subsystem;

  if (!json_object_is_type (json, json_type_object))
    return qd_file_fail (loader, QD_ERROR_FORMAT, unnamed, _("a block must be an object"));

  if (json_object_object_get_ex (json, "name", &value)
      && get_string (value, &name) && name[0] != '\0' && strchr (name, '/') == NULL)
    path = g_strdup_printf ("%s/%s", system_path, name);
  else
    name = NULL;

  if (!check_keys (loader, path != NULL ? path : unnamed, json, _("a block"), block_keys))
    return FALSE;
  if (name == NULL)
    return qd_file_fail (loader, QD_ERROR_FORMAT, unnamed,
                         _("\"name\" must be a non-empty string without '/'"));
  if (g_hash_table_contains (names, name))
    return qd_file_fail (loader, QD_ERROR_DUPLICATE, path,
                         _("another block in %s has the same name; names must be unique "
                           "among the blocks of a system"),
                         system_path[0] != '\0' ? system_path : _("the top level"));

  if (!json_object_object_get_ex (json, "id", &value)
      || !get_string (value, &id) || id[0] == '\0')
    return qd_file_fail (loader, QD_ERROR_FORMAT, path, _("\"id\" must be a non-empty string"));
  other = g_hash_table_lookup (loader->block_ids, id);
  if (other != NULL)
    {
      g_autofree char *other_path = qd_block_get_path (other);

      return qd_file_fail (loader, QD_ERROR_DUPLICATE, path,
                           _("id '%s' is already used by %s; ids must be unique"),
                           id, other_path);
    }

  if (!json_object_object_get_ex (json, "type", &value)
      || !get_string (value, &type_id) || type_id[0] == '\0')
    return qd_file_fail (loader, QD_ERROR_FORMAT, path, _("\"type\" must be a non-empty string"));
  type = qd_registry_lookup (type_id);
  /* A type that a library or plugin would provide, missing here: the
   * block is kept as a placeholder (Check and Run say what is missing);
   * any other unknown type is a mistake in the file. */
  if (type == NULL && !(placeholder = has_provider (type_id)))
    return qd_file_fail (loader, QD_ERROR_UNKNOWN_TYPE, path,
                         _("unknown block type '%s'; run 'qdevs-cli blocks' to see the "
                           "available types"),
                         type_id);
  is_subsystem = type != NULL && strcmp (type->id, QD_TYPE_SUBSYSTEM) == 0;

  block = placeholder ? qd_block_new_placeholder (id, type_id, name)
                      : qd_block_new (id, type_id, name);
  /* The system owns the block from here on, so an error below frees it
   * with the rest of the tree. */
  qd_system_append_block (system, block);
  g_hash_table_add (names, block->name);
  g_hash_table_insert (loader->block_ids, block->id, block);

  if (json_object_object_get_ex (json, "position", &value))
    {
      QdPoint p;

      if (!get_point (value, &p))
        return qd_file_fail (loader, QD_ERROR_FORMAT, path,
                             _("\"position\" must be an array of two numbers from "
                               "%.0f to %.0f"), -QD_FILE_MAX_COORD, QD_FILE_MAX_COORD);
      block->x = p.x;
      block->y = p.y;
    }
  if (json_object_object_get_ex (json, "size", &value))
    {
      QdPoint p;

      if (!get_point (value, &p) || p.x <= 0 || p.y <= 0)
        return qd_file_fail (loader, QD_ERROR_FORMAT, path,
                             _("\"size\" must be an array of two positive numbers up "
                               "to %.0f"), QD_FILE_MAX_COORD);
      block->width = p.x;
      block->height = p.y;
    }
  if (json_object_object_get_ex (json, "rotation", &value))
    {
      guint64 r;

      if (!get_uint (value, 270, &r) || r % 90 != 0)
        return qd_file_fail (loader, QD_ERROR_FORMAT, path,
                             _("\"rotation\" must be 0, 90, 180 or 270"));
      block->rotation = (int) r;
    }
  if (json_object_object_get_ex (json, "flip", &value))
    {
      if (!json_object_is_type (value, json_type_boolean))
        return qd_file_fail (loader, QD_ERROR_FORMAT, path, _("\"flip\" must be true or false"));
      block->flip = json_object_get_boolean (value);
    }
  if (json_object_object_get_ex (json, "params", &value)
      && !load_params (loader, path, block, value))
    return FALSE;

  if (json_object_object_get_ex (json, "mask", &value)
      && !load_mask (loader, path, block, is_subsystem, value))
    return FALSE;

  if (is_subsystem && block->inner != NULL)
    {
      json_object *inner_blocks = NULL, *inner_links = NULL;

      json_object_object_get_ex (json, "blocks", &inner_blocks);
      json_object_object_get_ex (json, "links", &inner_links);
      if (!load_system (loader, block->inner, path, inner_blocks, inner_links))
        return FALSE;
    }
  else if (json_object_object_get_ex (json, "blocks", NULL)
           || json_object_object_get_ex (json, "links", NULL))
    return qd_file_fail (loader, QD_ERROR_FORMAT, path,
                         _("only a subsystem has \"blocks\" and \"links\"; remove them or "
                           "make the block a subsystem"));

  return TRUE;
}

/* Reads {"block": ..., "port": ...} and checks that the block is in
 * @system and has that port. */
static gboolean
load_endpoint (Loader       *loader,
               const char   *where,
               QdSystem     *system,
               const char   *system_path,
               json_object  *json,
               const char   *key,
               gboolean      is_input,
               const char  **block_id,
               guint        *port,
               QdBlock     **block)
{
  g_autoptr(GError) local_error = NULL;
  json_object *value;
  const char *id;
  guint64 p;
  guint n_inputs, n_outputs, n;
  g_autofree char *block_path = NULL;

  if (!json_object_is_type (json, json_type_object))
    return qd_file_fail (loader, QD_ERROR_FORMAT, where,
                         _("%s must be an object with \"block\" and \"port\""), key);
  if (!check_keys (loader, where, json, key, is_input ? target_keys : from_keys))
    return FALSE;
  if (!json_object_object_get_ex (json, "block", &value)
      || !get_string (value, &id) || id[0] == '\0')
    return qd_file_fail (loader, QD_ERROR_FORMAT, where,
                         _("\"block\" in %s must be a block id (a string)"), key);
  if (!json_object_object_get_ex (json, "port", &value)
      || !get_uint (value, G_MAXUINT, &p))
    return qd_file_fail (loader, QD_ERROR_FORMAT, where,
                         _("\"port\" in %s must be a port number (0, 1, ...)"), key);

  *block = qd_system_find_block (system, id);
  if (*block == NULL)
    {
      QdBlock *other = g_hash_table_lookup (loader->block_ids, id);

      if (other != NULL)
        {
          g_autofree char *elsewhere = qd_block_get_path (other);

          return qd_file_fail (loader, QD_ERROR_LINK, where,
                               _("block '%s' is %s, not in %s; a link joins blocks of "
                                 "the same system"),
                               id, elsewhere,
                               system_path[0] != '\0' ? system_path : _("the top level"));
        }
      if (system_path[0] != '\0')
        return qd_file_fail (loader, QD_ERROR_LINK, where,
                             _("block '%s' does not exist in %s"), id, system_path);
      return qd_file_fail (loader, QD_ERROR_LINK, where, _("block '%s' does not exist"), id);
    }

  /* A placeholder has the ports its links use. */
  if ((*block)->placeholder && p < QD_PLACEHOLDER_MAX_PORTS)
    {
      guint *count = qd_block_placeholder_ports (*block) + (is_input ? 0 : 1);

      *count = MAX (*count, (guint) p + 1);
    }
  if (!qd_block_count_ports (*block, &n_inputs, &n_outputs, &local_error))
    {
      block_path = qd_block_get_path (*block);
      return qd_file_fail (loader, local_error->code, block_path, "%s", local_error->message);
    }
  n = is_input ? n_inputs : n_outputs;
  if (p >= n)
    {
      block_path = qd_block_get_path (*block);
      if (is_input)
        return qd_file_fail (loader, QD_ERROR_LINK, where,
                             g_dngettext (GETTEXT_PACKAGE,
                                          "%s has %u input, so input %u (\"port\": %u) does not exist",
                                          "%s has %u inputs, so input %u (\"port\": %u) does not exist",
                                          n),
                             block_path, n, (guint) p + 1, (guint) p);
      return qd_file_fail (loader, QD_ERROR_LINK, where,
                           g_dngettext (GETTEXT_PACKAGE,
                                        "%s has %u output, so output %u (\"port\": %u) does not exist",
                                        "%s has %u outputs, so output %u (\"port\": %u) does not exist",
                                        n),
                           block_path, n, (guint) p + 1, (guint) p);
    }

  *block_id = id;
  *port = (guint) p;
  return TRUE;
}

static gboolean
load_link (Loader      *loader,
           QdSystem    *system,
           const char  *system_path,
           GHashTable  *drivers,
           GHashTable  *sources,
           gsize        index,
           json_object *json)
{
  g_autofree char *where = nth_where (system_path, _("link"), index);
  json_object *value, *to;
  const char *id;
  const char *src_id;
  guint src_port;
  QdBlock *src_block;
  QdLink *link;
  char *key;
  const char *other;

  if (!json_object_is_type (json, json_type_object))
    return qd_file_fail (loader, QD_ERROR_FORMAT, where, _("a link must be an object"));
  if (json_object_object_get_ex (json, "id", &value)
      && get_string (value, &id) && id[0] != '\0')
    {
      g_free (where);
      if (system_path[0] == '\0')
        where = g_strdup_printf (_("link %s"), id);
      else
        where = g_strdup_printf (_("%s, link %s"), system_path, id);
    }
  else
    id = NULL;
  if (!check_keys (loader, where, json, _("a link"), link_keys))
    return FALSE;
  if (id == NULL)
    return qd_file_fail (loader, QD_ERROR_FORMAT, where, _("\"id\" must be a non-empty string"));
  if (g_hash_table_contains (loader->link_ids, id))
    return qd_file_fail (loader, QD_ERROR_DUPLICATE, where,
                         _("the id is already used by another link; ids must be unique"));

  if (!json_object_object_get_ex (json, "from", &value))
    return qd_file_fail (loader, QD_ERROR_FORMAT, where,
                         _("\"from\" is missing: the output the link starts at"));
  if (!load_endpoint (loader, where, system, system_path, value, "\"from\"", FALSE,
                      &src_id, &src_port, &src_block))
    return FALSE;

  key = g_strdup_printf ("%s\x1f%u", src_id, src_port);
  other = g_hash_table_lookup (sources, key);
  if (other != NULL)
    {
      g_autofree char *path = qd_block_get_path (src_block);

      g_free (key);
      return qd_file_fail (loader, QD_ERROR_LINK, where,
                           _("output %u (\"port\": %u) of %s already starts link %s; "
                             "make this target another entry in that link's \"to\""),
                           src_port + 1, src_port, path, other);
    }

  if (!json_object_object_get_ex (json, "to", &to)
      || !json_object_is_type (to, json_type_array)
      || json_object_array_length (to) == 0)
    {
      g_free (key);
      return qd_file_fail (loader, QD_ERROR_FORMAT, where,
                           _("\"to\" must be a non-empty array of targets "
                             "({ \"block\": ..., \"port\": ... })"));
    }

  link = qd_link_new_from_block (id, src_block, src_port);
  qd_system_append_link (system, link);
  g_hash_table_add (loader->link_ids, link->id);
  /* The tables name the link by its own id: the element's goes. */
  g_hash_table_insert (sources, key, link->id);

  for (gsize i = 0; i < json_object_array_length (to); i++)
    {
      json_object *target_json = json_object_array_get_idx (to, i);
      const char *dst_id;
      guint dst_port;
      QdBlock *dst_block;
      QdLinkTarget *target;
      json_object *points;

      if (!load_endpoint (loader, where, system, system_path, target_json,
                          "\"to\"", TRUE, &dst_id, &dst_port, &dst_block))
        return FALSE;

      key = g_strdup_printf ("%s\x1f%u", dst_id, dst_port);
      other = g_hash_table_lookup (drivers, key);
      if (other != NULL)
        {
          g_autofree char *path = qd_block_get_path (dst_block);
          g_autofree char *by = g_strdup (other);

          g_free (key);
          return qd_file_fail (loader, QD_ERROR_LINK, where,
                               _("input %u (\"port\": %u) of %s is already driven by "
                                 "link %s; an input takes only one link"),
                               dst_port + 1, dst_port, path, by);
        }
      g_hash_table_insert (drivers, key, link->id);

      target = qd_link_add_target_block (link, dst_block, dst_port);
      if (json_object_object_get_ex (target_json, "points", &points))
        {
          if (!json_object_is_type (points, json_type_array))
            return qd_file_fail (loader, QD_ERROR_FORMAT, where,
                                 _("\"points\" must be an array of [x, y] pairs"));
          for (gsize j = 0; j < json_object_array_length (points); j++)
            {
              QdPoint p;

              if (!get_point (json_object_array_get_idx (points, j), &p))
                return qd_file_fail (loader, QD_ERROR_FORMAT, where,
                                     _("\"points\" must be an array of [x, y] pairs, "
                                       "each number from %.0f to %.0f"),
                                     -QD_FILE_MAX_COORD, QD_FILE_MAX_COORD);
              qd_link_target_append_point (target, &p);
            }
        }
    }

  return TRUE;
}

/* What loading one system's blocks and links needs besides an element. */
typedef struct
{
  QdSystem    *system;
  const char  *system_path;
  GHashTable  *names;
  GHashTable  *drivers;
  GHashTable  *sources;
} SystemLoad;

static gboolean
each_block (Loader      *loader,
            gsize        index,
            json_object *json,
            gpointer     data)
{
  SystemLoad *s = data;

  return load_block (loader, s->system, s->system_path, s->names, index, json);
}

static gboolean
each_link (Loader      *loader,
           gsize        index,
           json_object *json,
           gpointer     data)
{
  SystemLoad *s = data;

  return load_link (loader, s->system, s->system_path, s->drivers, s->sources,
                    index, json);
}

/* Loads the blocks of a system (each subsystem's inside at once, so that
 * its port count is known), then its links, one element of the file at
 * a time (qd_file_array_foreach). */
static gboolean
load_system (Loader      *loader,
             QdSystem    *system,
             const char  *system_path,
             json_object *blocks,
             json_object *links)
{
  g_autoptr(GHashTable) names = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) drivers = NULL;
  g_autoptr(GHashTable) sources = NULL;
  SystemLoad s = { system, system_path, names, NULL, NULL };

  if (blocks != NULL)
    {
      if (!json_object_is_type (blocks, json_type_array))
        return qd_file_fail (loader, QD_ERROR_FORMAT, system_path,
                             _("\"blocks\" must be an array of blocks"));
      if (!qd_file_array_foreach (loader, blocks, each_block, &s))
        return FALSE;
    }

  if (links != NULL)
    {
      if (!json_object_is_type (links, json_type_array))
        return qd_file_fail (loader, QD_ERROR_FORMAT, system_path,
                             _("\"links\" must be an array of links"));
      drivers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      sources = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      s.drivers = drivers;
      s.sources = sources;
      if (!qd_file_array_foreach (loader, links, each_link, &s))
        return FALSE;
    }

  return TRUE;
}

/* The classic solver and its options (qd-classic.h). */
static gboolean
load_solver_settings (Loader      *loader,
                      json_object *json,
                      const char  *where,
                      QdSettings  *settings)
{
  static const char *const keys[] = { "rtol", "atol", "max_step", "h" };
  double *slots[] = { &settings->rtol, &settings->atol, &settings->max_step,
                      &settings->h };
  json_object *value;

  if (json_object_object_get_ex (json, "solver", &value))
    {
      const char *solver;

      if (!get_string (value, &solver))
        return qd_file_fail (loader, QD_ERROR_FORMAT, where,
                             _("\"solver\" must be a string such as \"qss\" or "
                               "\"cvode-bdf\""));
      g_free (settings->solver);
      settings->solver = g_strdup (solver);
    }
  for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
    if (json_object_object_get_ex (json, keys[k], &value)
        && !get_number (value, slots[k]))
      return qd_file_fail (loader, QD_ERROR_FORMAT, where,
                           _("\"%s\" must be a finite number"), keys[k]);
  return TRUE;
}

static gboolean
load_settings (Loader      *loader,
               json_object *json,
               QdSettings  *settings)
{
  const char *where = "\"simulation\"";
  json_object *value;

  if (!json_object_is_type (json, json_type_object))
    return qd_file_fail (loader, QD_ERROR_FORMAT, NULL, _("\"simulation\" must be an object"));
  if (!check_keys (loader, where, json, "\"simulation\"", simulation_keys))
    return FALSE;

  if (json_object_object_get_ex (json, "start", &value)
      && !get_number (value, &settings->start_time))
    return qd_file_fail (loader, QD_ERROR_FORMAT, where, _("\"start\" must be a finite number"));
  if (json_object_object_get_ex (json, "final", &value)
      && !get_number (value, &settings->final_time))
    return qd_file_fail (loader, QD_ERROR_FORMAT, where, _("\"final\" must be a finite number"));
  if (json_object_object_get_ex (json, "method", &value))
    {
      const char *method;

      if (!get_string (value, &method))
        return qd_file_fail (loader, QD_ERROR_FORMAT, where,
                             _("\"method\" must be a string such as \"QSS2\""));
      g_free (settings->method);
      settings->method = g_strdup (method);
    }
  if (json_object_object_get_ex (json, "dqmin", &value)
      && !get_number (value, &settings->dqmin))
    return qd_file_fail (loader, QD_ERROR_FORMAT, where, _("\"dqmin\" must be a finite number"));
  if (json_object_object_get_ex (json, "dqrel", &value)
      && !get_number (value, &settings->dqrel))
    return qd_file_fail (loader, QD_ERROR_FORMAT, where, _("\"dqrel\" must be a finite number"));
  if (json_object_object_get_ex (json, "illegitimacy_limit", &value))
    {
      guint64 limit;

      if (!get_uint (value, G_MAXUINT64, &limit))
        return qd_file_fail (loader, QD_ERROR_FORMAT, where,
                             _("\"illegitimacy_limit\" must be a whole number from 0 "
                               "to 18446744073709551615"));
      settings->illegitimacy_limit = limit;
    }
  return load_solver_settings (loader, json, where, settings);
}


/* "breakpoints": the debugger's, by block path (qd-debug.h). The blocks
 * are not looked up: a breakpoint on a block since renamed is kept, and
 * the debugger leaves it out of a run. */
static gboolean
load_breakpoints (Loader      *loader,
                  json_object *array,
                  GPtrArray   *out)
{
  if (!json_object_is_type (array, json_type_array))
    return qd_file_fail (loader, QD_ERROR_FORMAT, NULL,
                         _("\"breakpoints\" must be an array of objects"));
  for (gsize i = 0; i < json_object_array_length (array); i++)
    {
      json_object *bp = json_object_array_get_idx (array, i);
      g_autofree char *where = g_strdup_printf (_("breakpoint %u"), (guint) i + 1);
      json_object *value;
      const char *kind_name = NULL, *block = NULL;
      QdBreakKind kind;
      guint64 port = 0;
      double number = 0;
      gboolean on_block, has_value;

      if (!json_object_is_type (bp, json_type_object))
        return qd_file_fail (loader, QD_ERROR_FORMAT, where, _("must be an object"));
      if (!check_keys (loader, where, bp, _("a breakpoint"), breakpoint_keys))
        return FALSE;
      if (!json_object_object_get_ex (bp, "kind", &value) || !get_string (value, &kind_name)
          || !qd_break_kind_from_string (kind_name, &kind))
        return qd_file_fail (loader, QD_ERROR_FORMAT, where,
                             _("\"kind\" must be one of time, internal, transition, crossing, error"));
      on_block = kind == QD_BREAK_INTERNAL || kind == QD_BREAK_TRANSITION
                 || kind == QD_BREAK_CROSSING;
      has_value = kind == QD_BREAK_TIME || kind == QD_BREAK_CROSSING;
      if (on_block && (!json_object_object_get_ex (bp, "block", &value)
                       || !get_string (value, &block) || block[0] != '/'))
        return qd_file_fail (loader, QD_ERROR_FORMAT, where,
                             _("\"block\" must be the path of a block, such as \"/Integrator\""));
      if (json_object_object_get_ex (bp, "port", &value)
          && !get_uint (value, G_MAXUINT16, &port))
        return qd_file_fail (loader, QD_ERROR_FORMAT, where,
                             _("\"port\" must be a whole number from 0"));
      if (has_value && (!json_object_object_get_ex (bp, "value", &value)
                        || !get_number (value, &number)))
        return qd_file_fail (loader, QD_ERROR_FORMAT, where, _("\"value\" must be a number"));
      g_ptr_array_add (out, qd_breakpoint_new (kind, on_block ? block : NULL,
                                               (guint) port, number));
    }
  return TRUE;
}

/* "notes": text placed on the diagram (qd-notes.h). */
static gboolean
load_notes (Loader      *loader,
            json_object *array,
            GPtrArray   *out)
{
  if (!json_object_is_type (array, json_type_array))
    return qd_file_fail (loader, QD_ERROR_FORMAT, NULL,
                         _("\"notes\" must be an array of objects"));
  for (gsize i = 0; i < json_object_array_length (array); i++)
    {
      json_object *note = json_object_array_get_idx (array, i);
      g_autofree char *where = g_strdup_printf (_("note %u"), (guint) i + 1);
      json_object *value;
      const char *text = NULL;
      QdPoint p;

      if (!json_object_is_type (note, json_type_object))
        return qd_file_fail (loader, QD_ERROR_FORMAT, where, _("must be an object"));
      if (!check_keys (loader, where, note, _("a note"), note_keys))
        return FALSE;
      if (!json_object_object_get_ex (note, "position", &value) || !get_point (value, &p))
        return qd_file_fail (loader, QD_ERROR_FORMAT, where,
                             _("\"position\" must be an array of two numbers from "
                               "%.0f to %.0f"), -QD_FILE_MAX_COORD, QD_FILE_MAX_COORD);
      if (!json_object_object_get_ex (note, "text", &value) || !get_string (value, &text))
        return qd_file_fail (loader, QD_ERROR_FORMAT, where, _("\"text\" must be a string"));
      g_ptr_array_add (out, qd_note_new (p.x, p.y, text));
    }
  return TRUE;
}

QdDocument *
qd_file_load_tree (Loader      *loader,
                   json_object *root_json)
{
  g_autoptr(QdDocument) doc = NULL;
  g_autoptr(GError) local_error = NULL;
  QdSettings settings;
  json_object *value;
  json_object *blocks = NULL, *links = NULL;
  const char *format;
  const char *title = NULL, *description = NULL;
  guint64 version;
  QdSystem *root;
  gboolean ok;

  if (!json_object_is_type (root_json, json_type_object)
      || !json_object_object_get_ex (root_json, "format", &value)
      || !get_string (value, &format) || strcmp (format, QD_FORMAT_NAME) != 0)
    {
      qd_file_fail (loader, QD_ERROR_FORMAT, NULL,
                    _("not a QDevs diagram (no \"format\": \"qdevs\")"));
      return NULL;
    }
  if (!json_object_object_get_ex (root_json, "version", &value)
      || !get_uint (value, G_MAXUINT, &version) || version == 0)
    {
      qd_file_fail (loader, QD_ERROR_FORMAT, NULL,
                    _("\"version\" must be a whole number (this QDevs writes %d)"),
                    QD_FORMAT_VERSION);
      return NULL;
    }
  if (version > QD_FORMAT_VERSION)
    {
      qd_file_fail (loader, QD_ERROR_VERSION, NULL,
                    _("format version %u is newer than this QDevs understands (%d); "
                      "open it with a newer QDevs"),
                    (guint) version, QD_FORMAT_VERSION);
      return NULL;
    }
  if (!check_keys (loader, NULL, root_json, _("the diagram"), top_keys))
    return NULL;

  if (json_object_object_get_ex (root_json, "title", &value)
      && !get_string (value, &title))
    {
      qd_file_fail (loader, QD_ERROR_FORMAT, NULL, _("\"title\" must be a string"));
      return NULL;
    }
  if (json_object_object_get_ex (root_json, "description", &value)
      && !get_string (value, &description))
    {
      qd_file_fail (loader, QD_ERROR_FORMAT, NULL, _("\"description\" must be a string"));
      return NULL;
    }

  if (json_object_object_get_ex (root_json, "variables", &value)
      && !json_object_is_type (value, json_type_object))
    {
      qd_file_fail (loader, QD_ERROR_FORMAT, NULL,
                    _("\"variables\" must be an object of names and expressions"));
      return NULL;
    }

  json_object_object_get_ex (root_json, "blocks", &blocks);
  json_object_object_get_ex (root_json, "links", &links);
  root = qd_system_new ();
  if (!load_system (loader, root, "", blocks, links))
    {
      qd_system_unref (root);
      return NULL;
    }

  doc = qd_document_new ();
  qd_document_init_settings (&settings);
  ok = TRUE;
  if (json_object_object_get_ex (root_json, "simulation", &value))
    ok = load_settings (loader, value, &settings);
  if (ok && !qd_document_set_settings (doc, &settings, &local_error))
    /* Its message already starts with "settings: ". */
    ok = qd_file_fail (loader, local_error->code, NULL, "%s", local_error->message);
  qd_settings_clear (&settings);

  if (ok && json_object_object_get_ex (root_json, "variables", &value))
    {
      json_object_object_foreach (value, name, expr)
        {
          g_autofree char *text = NULL;
          g_autofree char *where = NULL;

          if (!g_utf8_validate (name, -1, NULL))
            {
              ok = qd_file_fail (loader, QD_ERROR_FORMAT, "\"variables\"",
                                 _("a variable name is not valid UTF-8"));
              break;
            }
          where = g_strdup_printf (_("variable '%s'"), name);
          if (!get_value_text (expr, &text))
            {
              ok = qd_file_fail (loader, QD_ERROR_FORMAT, where,
                                 _("the value must be an expression in a string, or a number"));
              break;
            }
          if (!qd_document_set_variable (doc, name, text, &local_error))
            {
              /* Its message already names the variable. */
              ok = qd_file_fail (loader, local_error->code, NULL, "%s", local_error->message);
              break;
            }
        }
    }
  if (ok && json_object_object_get_ex (root_json, "breakpoints", &value))
    {
      g_autoptr(GPtrArray) breakpoints =
        g_ptr_array_new_with_free_func ((GDestroyNotify) qd_breakpoint_free);

      ok = load_breakpoints (loader, value, breakpoints);
      if (ok)
        qd_document_load_breakpoints (doc, breakpoints);
    }
  if (ok && json_object_object_get_ex (root_json, "notes", &value))
    {
      g_autoptr(GPtrArray) notes =
        g_ptr_array_new_with_free_func ((GDestroyNotify) qd_note_free);

      ok = load_notes (loader, value, notes);
      if (ok)
        qd_document_load_notes (doc, notes);
    }
  if (!ok)
    {
      qd_system_unref (root);
      return NULL;
    }

  qd_document_set_title (doc, title);
  qd_document_set_description (doc, description);
  /* Last: installing the root clears the history the setters above left
   * and marks the document saved, since it is exactly the file. */
  qd_document_take_root (doc, root);

  return g_steal_pointer (&doc);
}

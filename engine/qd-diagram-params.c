/* qd-diagram-params.c: a block as its type's schema reads it
 *
 * Its type, its port counts (from a port-sizing parameter or the type's
 * own ports function), the short text drawn under it, its path, and the
 * check of one parameter's text against its specification. Read-only
 * queries over the plain data of qd-diagram.c.
 */
#include <glib/gi18n-lib.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qd-diagram.h"
#include "qd-document.h"
#include "qd-expr.h"
#include "qd-history.h"
#include "qd-mask.h"
#include "qd-registry.h"

/* A port count is a small literal: the canvas draws every port, and a
 * count must be known without evaluating the model's variables. */
#define QD_MAX_PORTS 64

const QdBlockType *
qd_block_get_type_info (const QdBlock *block)
{
  g_return_val_if_fail (block != NULL, NULL);

  return qd_registry_lookup (block->type);
}

/* The port-sizing parameter's range: the schema's, clipped to what the
 * canvas can draw. */
static void
port_count_range (const QdParamSpec *spec,
                  guint             *lo,
                  guint             *hi)
{
  *lo = 0;
  *hi = QD_MAX_PORTS;
  if (spec != NULL && spec->min > 0 && spec->min <= QD_MAX_PORTS)
    *lo = (guint) ceil (spec->min);
  if (spec != NULL && spec->max >= *lo && spec->max < QD_MAX_PORTS)
    *hi = (guint) floor (spec->max);
}

/* Parses a whole-number literal (digits, optional surrounding blanks). */
static gboolean
parse_port_count (const QdParamSpec *spec,
                  const char        *value,
                  guint             *count,
                  GError           **error)
{
  const char *p = value;
  guint64 n = 0;
  gboolean digits = FALSE;
  guint lo, hi;

  port_count_range (spec, &lo, &hi);
  while (g_ascii_isspace (*p))
    p++;
  while (g_ascii_isdigit (*p))
    {
      digits = TRUE;
      if (n <= 1000)
        n = n * 10 + (guint64) (*p - '0');
      p++;
    }
  while (g_ascii_isspace (*p))
    p++;

  if (!digits || *p != '\0' || n < lo || n > hi)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("parameter '%s': '%s' is not a port count; write a whole "
                     "number from %u to %u"),
                   spec->name, value, lo, hi);
      return FALSE;
    }
  *count = (guint) n;
  return TRUE;
}

static gboolean
count_side (const QdBlock     *block,
            const QdBlockType *type,
            const QdPortSpec  *ports,
            guint             *count,
            GError           **error)
{
  const QdParamSpec *spec;
  const char *value;
  int index;

  if (ports->size_param == NULL)
    {
      *count = ports->count;
      return TRUE;
    }

  index = qd_block_type_find_param (type, ports->size_param);
  if (index < 0)
    {
      /* A descriptor bug, not a user error; say so plainly. */
      g_set_error (error, QD_ERROR, QD_ERROR_FAILED,
                   _("block type '%s' sizes its ports by '%s', which is not "
                     "one of its parameters"),
                   type->id, ports->size_param);
      return FALSE;
    }
  spec = &type->params[index];
  value = qd_block_get_param (block, spec->name);
  if (value == NULL)
    value = spec->default_value != NULL ? spec->default_value : "";

  return parse_port_count (spec, value, count, error);
}

/* The texts of @block's parameters in @type's schema order, the default
 * for one not set: what the descriptor's hooks are given. */
static const char **
param_texts (const QdBlock     *block,
             const QdBlockType *type)
{
  const char **texts = g_new0 (const char *, type->n_params + 1);

  for (guint i = 0; i < type->n_params; i++)
    texts[i] = qd_block_get_param_or_default (block, type->params[i].name);
  return texts;
}

gboolean
qd_block_count_ports (const QdBlock *block,
                      guint         *n_inputs,
                      guint         *n_outputs,
                      GError       **error)
{
  const QdBlockType *type;
  guint n_in = 0, n_out = 0;

  g_return_val_if_fail (block != NULL, FALSE);

  if (block->inner != NULL)
    {
      /* A subsystem's ports are its port blocks. */
      for (guint i = 0; i < block->inner->blocks->len; i++)
        {
          const QdBlock *child = g_ptr_array_index (block->inner->blocks, i);

          if (strcmp (child->type, QD_TYPE_INPORT) == 0)
            n_in++;
          else if (strcmp (child->type, QD_TYPE_OUTPORT) == 0)
            n_out++;
        }
    }
  else
    {
      type = qd_block_get_type_info (block);
      if (type == NULL && block->placeholder)
        {
          n_in = qd_block_placeholder_ports (block)[0];
          n_out = qd_block_placeholder_ports (block)[1];
        }
      else if (type == NULL)
        {
          g_set_error (error, QD_ERROR, QD_ERROR_UNKNOWN_TYPE,
                       _("unknown block type '%s'; replace the block with one "
                         "from the palette"),
                       block->type);
          return FALSE;
        }
      else if (!count_side (block, type, &type->inputs, &n_in, error)
               || !count_side (block, type, &type->outputs, &n_out, error))
        return FALSE;
      else if (type->ports != NULL)
        {
          g_autofree const char **texts = param_texts (block, type);

          type->ports (type, texts, &n_in, &n_out);
        }
    }

  if (n_inputs != NULL)
    *n_inputs = n_in;
  if (n_outputs != NULL)
    *n_outputs = n_out;
  return TRUE;
}

char *
qd_block_describe_params (const QdBlock *block,
                          char        ***input_labels)
{
  return qd_block_describe_params_with (block, NULL, input_labels);
}

char *
qd_block_describe_params_with (const QdBlock    *block,
                               const QdSettings *settings,
                               char           ***input_labels)
{
  const QdBlockType *type;
  g_autofree const char **texts = NULL;
  g_autoptr(GPtrArray) owned = g_ptr_array_new_with_free_func (g_free);
  guint n_in = 0;

  g_return_val_if_fail (block != NULL, NULL);

  if (input_labels != NULL)
    *input_labels = NULL;
  type = block->inner == NULL ? qd_block_get_type_info (block) : NULL;
  if (type == NULL || type->describe_params == NULL
      || !qd_block_count_ports (block, &n_in, NULL, NULL))
    return NULL;
  texts = param_texts (block, type);
  /* A choice left to the model (an Integrator's method) names the
   * model's: "QSS2 (model)". */
  for (guint i = 0; settings != NULL && settings->method != NULL
                   && i < type->n_params; i++)
    if ((type->params[i].flags & QD_PARAM_INHERIT)
        && type->params[i].kind == QD_PARAM_CHOICE
        && strcmp (type->params[i].name, "method") == 0
        && (texts[i] == NULL || texts[i][0] == '\0'))
      {
        /* TRANSLATORS: an Integrator's method taken from the model's
         * settings, shown under it on the canvas, e.g. "QSS2 (model)" */
        char *text = g_strdup_printf (_("%s (model)"), settings->method);

        g_ptr_array_add (owned, text);
        texts[i] = text;
      }
  return type->describe_params (type, texts, n_in, input_labels);
}

char *
qd_block_get_path (const QdBlock *block)
{
  GString *path;
  GPtrArray *names;

  g_return_val_if_fail (block != NULL, NULL);

  names = g_ptr_array_new ();
  for (const QdBlock *b = block; b != NULL;
       b = b->parent != NULL ? b->parent->owner : NULL)
    g_ptr_array_add (names, b->name);

  path = g_string_new (NULL);
  for (guint i = names->len; i > 0; i--)
    {
      g_string_append_c (path, '/');
      g_string_append (path, g_ptr_array_index (names, i - 1));
    }
  g_ptr_array_unref (names);

  return g_string_free (path, FALSE);
}

/* Parameter checks */

/* Puts "parameter 'k': " in front of an expression error, moving its
 * "column N: " by @offset characters so that it counts from the start of
 * the whole value (for the elements of a vector). */
static void
propagate_expr_error (GError     **error,
                      GError      *local,
                      const char  *name,
                      glong        offset)
{
  if (offset > 0)
    {
      char *shifted = qd_expr_shift_error_column (local->message, offset);

      g_free (local->message);
      local->message = shifted;
    }
  g_propagate_prefixed_error (error, local, _("parameter '%s': "), name);
}

static gboolean
check_expression (const char  *name,
                  const char  *text,
                  glong        offset,
                  GError     **error)
{
  GError *local = NULL;
  QdExpr *expr;

  expr = qd_expr_parse (text, &local);
  if (expr == NULL)
    {
      if (local == NULL)
        local = g_error_new (QD_ERROR, QD_ERROR_SYNTAX,
                             _("column 1: '%s' is not an expression"), text);
      propagate_expr_error (error, local, name, offset);
      return FALSE;
    }
  qd_expr_free (expr);
  return TRUE;
}

/* Each element (qd_expr_split_vector()) must be an expression; a blank
 * value is the empty vector. */
static gboolean
check_vector (const char  *name,
              const char  *value,
              GError     **error)
{
  g_auto(GStrv) elements = qd_expr_split_vector (value);
  gsize offset = 0;

  for (guint i = 0; elements[i] != NULL; i++)
    {
      if (!check_expression (name, elements[i],
                             g_utf8_strlen (value, (gssize) offset), error))
        return FALSE;
      offset += strlen (elements[i]) + 1;
    }
  return TRUE;
}

static gboolean
is_port_sizing (const QdBlockType *type,
                const char        *name)
{
  return (type->inputs.size_param != NULL
          && strcmp (type->inputs.size_param, name) == 0)
         || (type->outputs.size_param != NULL
             && strcmp (type->outputs.size_param, name) == 0);
}

gboolean
qd_block_check_param (const QdBlock *block,
                      const char    *name,
                      const char    *value,
                      GError       **error)
{
  const QdBlockType *type;
  const QdParamSpec *spec;
  int index;

  g_return_val_if_fail (block != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  type = qd_block_get_type_info (block);
  /* A placeholder keeps whatever its file says. */
  if (type == NULL && block->placeholder)
    return TRUE;
  if (type == NULL)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_UNKNOWN_TYPE,
                   _("unknown block type '%s'; replace the block with one "
                     "from the palette"),
                   block->type);
      return FALSE;
    }

  index = qd_block_type_find_param (type, name);
  if (index < 0)
    {
      if (type->n_params == 0)
        g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                     _("unknown parameter '%s' (%s has no parameters)"),
                     name, _(type->name));
      else
        {
          GString *names = g_string_new (NULL);

          for (guint i = 0; i < type->n_params; i++)
            {
              if (i > 0)
                g_string_append (names, ", ");
              g_string_append (names, type->params[i].name);
            }
          g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                       _("unknown parameter '%s' (%s has: %s)"),
                       name, _(type->name), names->str);
          g_string_free (names, TRUE);
        }
      return FALSE;
    }

  if (value == NULL)
    return TRUE;

  spec = &type->params[index];
  if ((spec->flags & QD_PARAM_INHERIT) != 0 && value[0] == '\0')
    return TRUE;

  if (spec->kind == QD_PARAM_INTEGER && is_port_sizing (type, name))
    {
      guint count;

      return parse_port_count (spec, value, &count, error);
    }

  /* A block that can be a vector (it has a "size") takes a list for x0,
   * one value per element (qd-compile-vector.c). */
  if (spec->kind == QD_PARAM_NUMBER && strcmp (name, "x0") == 0
      && qd_block_type_find_param (type, "size") >= 0)
    return check_vector (name, value, error);

  switch (spec->kind)
    {
    case QD_PARAM_NUMBER:
    case QD_PARAM_INTEGER:
    case QD_PARAM_FUNCTION:
      return check_expression (name, value, 0, error);

    case QD_PARAM_VECTOR:
      return check_vector (name, value, error);

    case QD_PARAM_BOOLEAN:
      if (strcmp (value, "true") == 0 || strcmp (value, "false") == 0)
        return TRUE;
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("parameter '%s': '%s' is neither true nor false"),
                   name, value);
      return FALSE;

    case QD_PARAM_CHOICE:
      {
        GString *choices = g_string_new (NULL);

        for (guint i = 0; spec->choices != NULL && spec->choices[i] != NULL; i++)
          {
            if (strcmp (spec->choices[i], value) == 0)
              {
                g_string_free (choices, TRUE);
                return TRUE;
              }
            if (i > 0)
              g_string_append (choices, ", ");
            g_string_append (choices, spec->choices[i]);
          }
        if ((spec->flags & QD_PARAM_INHERIT) != 0)
          g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                       _("parameter '%s': '%s' is not one of %s (or empty for "
                         "the model's default)"),
                       name, value, choices->str);
        else
          g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                       _("parameter '%s': '%s' is not one of %s"),
                       name, value, choices->str);
        g_string_free (choices, TRUE);
        return FALSE;
      }

    case QD_PARAM_STRING:
    default:
      return TRUE;
    }
}

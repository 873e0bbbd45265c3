/* qd-mask.c: masked subsystems */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qd-error.h"
#include "qd-expr.h"
#include "qd-history.h"
#include "qd-mask-private.h"

static void
mask_param_free (QdMaskParam *param)
{
  g_free (param->name);
  g_free (param->default_value);
  g_free (param->description);
  g_free (param->value);
  g_free (param);
}

QdMask *
qd_mask_new (void)
{
  QdMask *mask = g_new0 (QdMask, 1);

  mask->params = g_ptr_array_new_with_free_func ((GDestroyNotify) mask_param_free);
  return mask;
}

QdMask *
qd_mask_copy (const QdMask *mask)
{
  QdMask *copy;

  if (mask == NULL)
    return NULL;
  copy = qd_mask_new ();
  copy->icon = g_strdup (mask->icon);
  for (guint i = 0; i < mask->params->len; i++)
    {
      const QdMaskParam *p = g_ptr_array_index (mask->params, i);
      QdMaskParam *q = qd_mask_add_param (copy, p->name, p->default_value,
                                          p->description);

      q->value = g_strdup (p->value);
    }
  return copy;
}

void
qd_mask_free (QdMask *mask)
{
  if (mask == NULL)
    return;
  g_ptr_array_unref (mask->params);
  g_free (mask->icon);
  g_free (mask);
}

gboolean
qd_mask_equal (const QdMask *a,
               const QdMask *b)
{
  if (a == NULL || b == NULL)
    return a == b;
  if (g_strcmp0 (a->icon, b->icon) != 0 || a->params->len != b->params->len)
    return FALSE;
  for (guint i = 0; i < a->params->len; i++)
    {
      const QdMaskParam *p = g_ptr_array_index (a->params, i);
      const QdMaskParam *q = g_ptr_array_index (b->params, i);

      if (strcmp (p->name, q->name) != 0
          || strcmp (p->default_value, q->default_value) != 0
          || strcmp (p->description, q->description) != 0
          || g_strcmp0 (p->value, q->value) != 0)
        return FALSE;
    }
  return TRUE;
}

QdMaskParam *
qd_mask_add_param (QdMask     *mask,
                   const char *name,
                   const char *default_value,
                   const char *description)
{
  QdMaskParam *param = g_new0 (QdMaskParam, 1);

  g_return_val_if_fail (mask != NULL, NULL);

  param->name = g_strdup (name != NULL ? name : "");
  param->default_value = g_strdup (default_value != NULL ? default_value : "0");
  param->description = g_strdup (description != NULL ? description : "");
  g_ptr_array_add (mask->params, param);
  return param;
}

const QdMaskParam *
qd_mask_find_param (const QdMask *mask,
                    const char   *name)
{
  for (guint i = 0; mask != NULL && i < mask->params->len; i++)
    {
      const QdMaskParam *param = g_ptr_array_index (mask->params, i);

      if (strcmp (param->name, name) == 0)
        return param;
    }
  return NULL;
}

const char *
qd_mask_param_get_value (const QdMaskParam *param)
{
  return param->value != NULL ? param->value : param->default_value;
}

/* The names a function parameter gives its own inputs and time: a mask
 * parameter of that name would never be seen there. */
static gboolean
is_reserved (const char *name)
{
  return strcmp (name, "t") == 0 || strcmp (name, "y") == 0
         || qd_expr_input_index (name) >= 0;
}

static gboolean
check_expression (const QdMaskParam *param,
                  const char        *text,
                  const char        *what,
                  GError           **error)
{
  g_autoptr(GError) local = NULL;
  g_autoptr(QdExpr) expr = qd_expr_parse (text, &local);

  if (expr != NULL)
    return TRUE;
  g_set_error (error, QD_ERROR, QD_ERROR_EXPR,
               _("mask parameter '%s': %s: %s"), param->name, what,
               local->message);
  return FALSE;
}

gboolean
qd_mask_check (const QdMask *mask,
               GError      **error)
{
  g_return_val_if_fail (mask != NULL, FALSE);

  for (guint i = 0; i < mask->params->len; i++)
    {
      const QdMaskParam *param = g_ptr_array_index (mask->params, i);

      if (!qd_expr_is_valid_name (param->name))
        {
          g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                       _("mask parameter '%s' is not a valid name: use "
                         "letters, digits and '_', starting with a letter, "
                         "and not a function name"), param->name);
          return FALSE;
        }
      if (is_reserved (param->name))
        {
          g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                       _("mask parameter '%s': t, y and u0, u1... are the "
                         "names of time and of a block's inputs; choose "
                         "another name"), param->name);
          return FALSE;
        }
      for (guint k = 0; k < i; k++)
        if (strcmp (((QdMaskParam *) g_ptr_array_index (mask->params, k))->name,
                    param->name) == 0)
          {
            g_set_error (error, QD_ERROR, QD_ERROR_DUPLICATE,
                         _("mask parameter '%s' is declared twice; give "
                           "each parameter its own name"), param->name);
            return FALSE;
          }
      if (!check_expression (param, param->default_value, _("default"), error)
          || (param->value != NULL
              && !check_expression (param, param->value, _("value"), error)))
        return FALSE;
    }
  return TRUE;
}

char *
qd_mask_format_icon (const QdMask *mask)
{
  GString *text;
  const char *p;

  if (mask == NULL || mask->icon == NULL)
    return NULL;
  text = g_string_new (NULL);
  for (p = mask->icon; *p != '\0'; p++)
    {
      const char *end;

      if (*p == '{' && (end = strchr (p + 1, '}')) != NULL)
        {
          g_autofree char *name = g_strndup (p + 1, end - p - 1);
          const QdMaskParam *param = qd_mask_find_param (mask, g_strstrip (name));

          if (param != NULL)
            {
              g_string_append (text, qd_mask_param_get_value (param));
              p = end;
              continue;
            }
        }
      g_string_append_c (text, *p);
    }
  return g_string_free (text, FALSE);
}

const QdMask *
qd_system_get_mask (const QdSystem *system)
{
  return system != NULL ? system->mask : NULL;
}

void
qd_system_take_mask (QdSystem *system,
                     QdMask   *mask)
{
  g_return_if_fail (system != NULL);

  qd_mask_free (system->mask);
  system->mask = mask;
}

const QdMask *
qd_block_get_mask (const QdBlock *block)
{
  if (block == NULL || block->inner == NULL)
    return NULL;
  return block->inner->mask;
}

/* Commands */

/* The whole mask of one subsystem, before and after. */
typedef struct
{
  QdEdit    base;
  QdSystem *system;
  QdMask   *before, *after;
} MaskEdit;

static void
mask_edit_apply (QdEdit   *base,
                 gpointer  target,
                 gboolean  undo)
{
  MaskEdit *edit = (MaskEdit *) base;

  qd_system_take_mask (edit->system, qd_mask_copy (undo ? edit->before : edit->after));
}

static void
mask_edit_free (QdEdit *base)
{
  MaskEdit *edit = (MaskEdit *) base;

  qd_system_unref (edit->system);
  qd_mask_free (edit->before);
  qd_mask_free (edit->after);
  g_free (edit);
}

static const QdEditClass mask_edit_class = { mask_edit_apply, mask_edit_free };

static gboolean
check_subsystem (QdBlock  *block,
                 GError  **error)
{
  if (block->inner != NULL)
    return TRUE;
  {
    g_autofree char *path = qd_block_get_path (block);

    g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                 _("%s: only a subsystem can have a mask"), path);
  }
  return FALSE;
}

/* Records the change of @block's mask to @after (taken over). */
static void
change_mask (QdDocument *document,
             QdBlock    *block,
             QdMask     *after,
             const char *label)
{
  MaskEdit *edit;

  if (qd_mask_equal (block->inner->mask, after))
    {
      qd_mask_free (after);
      return;
    }
  edit = g_new0 (MaskEdit, 1);
  edit->base.klass = &mask_edit_class;
  edit->system = qd_system_ref (block->inner);
  edit->before = qd_mask_copy (block->inner->mask);
  edit->after = after;
  qd_document_begin (document, label);
  qd_document_edit_record (document, &edit->base);
  qd_document_end (document);
}

gboolean
qd_document_set_mask (QdDocument   *document,
                      QdBlock      *block,
                      const QdMask *mask,
                      GError      **error)
{
  g_return_val_if_fail (QD_IS_DOCUMENT (document), FALSE);
  g_return_val_if_fail (block != NULL, FALSE);

  if (!check_subsystem (block, error))
    return FALSE;
  if (mask != NULL && !qd_mask_check (mask, error))
    {
      g_autofree char *path = qd_block_get_path (block);

      g_prefix_error (error, "%s: ", path);
      return FALSE;
    }
  change_mask (document, block, qd_mask_copy (mask),
               mask != NULL ? _("Edit Mask") : _("Remove Mask"));
  return TRUE;
}

gboolean
qd_document_set_mask_value (QdDocument *document,
                            QdBlock    *block,
                            const char *name,
                            const char *value,
                            GError    **error)
{
  g_autofree char *path = NULL;
  QdMask *after;
  QdMaskParam *param = NULL;

  g_return_val_if_fail (QD_IS_DOCUMENT (document), FALSE);
  g_return_val_if_fail (block != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (!check_subsystem (block, error))
    return FALSE;
  path = qd_block_get_path (block);
  after = qd_mask_copy (block->inner->mask);
  for (guint i = 0; after != NULL && i < after->params->len; i++)
    if (strcmp (((QdMaskParam *) g_ptr_array_index (after->params, i))->name, name) == 0)
      param = g_ptr_array_index (after->params, i);
  if (param == NULL)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("%s: the mask has no parameter '%s'; declare it with "
                     "Edit Mask"), path, name);
      qd_mask_free (after);
      return FALSE;
    }
  g_free (param->value);
  param->value = g_strdup (value);
  if (!qd_mask_check (after, error))
    {
      g_prefix_error (error, "%s: ", path);
      qd_mask_free (after);
      return FALSE;
    }
  change_mask (document, block, after, _("Set Mask Parameter"));
  return TRUE;
}

/* Scans a number as the expression parser does (1, 1.5, .5, 1e-3), so
 * that the "e3" of "1e3" is not taken for a name. */
static const char *
skip_number (const char *p)
{
  while (g_ascii_isdigit (*p) || *p == '.')
    p++;
  if ((*p == 'e' || *p == 'E')
      && (g_ascii_isdigit (p[1])
          || ((p[1] == '+' || p[1] == '-') && g_ascii_isdigit (p[2]))))
    {
      p += 2;
      while (g_ascii_isdigit (*p))
        p++;
    }
  return p;
}

char *
qd_mask_substitute (const char        *text,
                    const char *const *names,
                    const double      *values,
                    guint              n_names)
{
  GString *out = g_string_new (NULL);
  const char *p = text;

  while (*p != '\0')
    {
      if (g_ascii_isdigit (*p) || (*p == '.' && g_ascii_isdigit (p[1])))
        {
          const char *end = skip_number (p);

          g_string_append_len (out, p, end - p);
          p = end;
        }
      else if (g_ascii_isalpha (*p) || *p == '_')
        {
          const char *end = p;
          guint k;

          while (g_ascii_isalnum (*end) || *end == '_')
            end++;
          for (k = 0; k < n_names; k++)
            if (strlen (names[k]) == (gsize) (end - p)
                && strncmp (names[k], p, end - p) == 0)
              break;
          if (k < n_names)
            {
              char buf[G_ASCII_DTOSTR_BUF_SIZE];

              /* In parentheses, so that -2 stays one operand of ^. */
              g_string_append_c (out, '(');
              g_string_append (out, g_ascii_formatd (buf, sizeof buf, "%.17g",
                                                     values[k]));
              g_string_append_c (out, ')');
            }
          else
            g_string_append_len (out, p, end - p);
          p = end;
        }
      else
        g_string_append_c (out, *p++);
    }
  return g_string_free (out, FALSE);
}

char *
qd_mask_substitute_assignments (const char        *text,
                                const char *const *names,
                                const double      *values,
                                guint              n_names)
{
  GString *out = g_string_new (NULL);
  const char *p = text;

  for (;;)
    {
      const char *end = strchr (p, ';');
      const char *eq;

      if (end == NULL)
        end = p + strlen (p);
      eq = memchr (p, '=', end - p);
      if (eq == NULL)
        g_string_append_len (out, p, end - p);
      else
        {
          g_autofree char *expr = g_strndup (eq + 1, end - eq - 1);
          g_autofree char *bound = qd_mask_substitute (expr, names, values, n_names);

          g_string_append_len (out, p, eq + 1 - p);
          g_string_append (out, bound);
        }
      if (*end == '\0')
        break;
      g_string_append_c (out, ';');
      p = end + 1;
    }
  return g_string_free (out, FALSE);
}

/* Evaluates @text over @names and @values; NaN when it cannot be. */
static double
eval_over (const char *text,
           GPtrArray  *names,
           GArray     *values)
{
  g_autoptr(QdExpr) expr = qd_expr_parse (text, NULL);

  if (expr == NULL
      || !qd_expr_bind (expr, (const char *const *) names->pdata, names->len, NULL))
    return NAN;
  return qd_expr_eval (expr, (const double *) (void *) values->data);
}

void
qd_mask_add_scope (const QdBlock *block,
                   GPtrArray     *names,
                   GArray        *values)
{
  g_autoptr(GPtrArray) masks = g_ptr_array_new ();

  g_return_if_fail (block != NULL);

  /* Innermost first, as the compiler looks names up. */
  for (QdSystem *system = block->parent; system != NULL && system->owner != NULL;
       system = system->owner->parent)
    if (system->mask != NULL)
      g_ptr_array_add (masks, system->mask);
  /* Each mask's values in the scope around it: the outermost first. */
  for (guint m = masks->len; m-- > 0;)
    {
      const QdMask *mask = g_ptr_array_index (masks, m);
      guint n = mask->params->len;
      g_autofree double *evaluated = g_new0 (double, MAX (n, 1));

      for (guint i = 0; i < n; i++)
        evaluated[i] = eval_over (qd_mask_param_get_value (g_ptr_array_index (mask->params, i)),
                                  names, values);
      for (guint i = 0; i < n; i++)
        g_ptr_array_insert (names, (int) i,
                            ((QdMaskParam *) g_ptr_array_index (mask->params, i))->name);
      g_array_prepend_vals (values, evaluated, n);
    }
}

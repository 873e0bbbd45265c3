/* qd-inspector-check.c: what the inspector does with a field's text
 *
 * A field's text is read from and written to its widget, checked on
 * every keystroke (the parameter schema, then a trial evaluation against
 * the model variables, so that an error names what is wrong before
 * anything is applied) and applied through one document command on Enter
 * or focus-out, so each change is one undo step. The form these fields
 * live in is built in qd-inspector-form.c.
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qd-inspector-private.h"
#include "qd-inspector-vector.h"
#include "qd-mask.h"
#include "qd-script-editor.h"

/* Evaluation against the model variables */

/* The first @limit variables, evaluated in order (each may use those
 * before it). A variable that cannot be evaluated gets NaN, so that a
 * parameter using it fails with a message that names it. */
static void
eval_variables (QdDocument *document,
                guint       limit,
                GPtrArray  *names,
                GArray     *values)
{
  GPtrArray *variables = qd_document_get_variables (document);

  for (guint i = 0; variables != NULL && i < variables->len && i < limit; i++)
    {
      const QdVariable *variable = g_ptr_array_index (variables, i);
      g_autoptr(QdExpr) expr = qd_expr_parse (variable->value, NULL);
      double value = NAN;

      if (expr != NULL
          && qd_expr_bind (expr, (const char *const *) names->pdata, names->len, NULL))
        value = qd_expr_eval (expr, (const double *) (void *) values->data);
      g_ptr_array_add (names, variable->name);
      g_array_append_val (values, value);
    }
}

/* Evaluates @text against the first @limit model variables. */
static gboolean
eval_with_variables (QdDocument    *document,
                     guint          limit,
                     const QdBlock *scope_of,
                     const char    *text,
                     double        *result,
                     GError       **error)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GArray) values = g_array_new (FALSE, TRUE, sizeof (double));
  g_autoptr(QdExpr) expr = NULL;
  g_autoptr(GError) local_error = NULL;
  double value;

  eval_variables (document, limit, names, values);
  /* Inside a masked subsystem its parameters come first. */
  if (scope_of != NULL)
    qd_mask_add_scope (scope_of, names, values);
  expr = qd_expr_parse (text, error);
  if (expr == NULL)
    return FALSE;
  if (!qd_expr_bind (expr, (const char *const *) names->pdata, names->len, &local_error))
    {
      /* The fix is elsewhere in the panel: say where. */
      g_set_error (error, local_error->domain, local_error->code,
                   _("%s; define it among the model’s variables (click an "
                     "empty part of the diagram)"), local_error->message);
      return FALSE;
    }
  value = qd_expr_eval (expr, (const double *) (void *) values->data);
  if (!isfinite (value))
    {
      guint n_ids = 0;
      const char *const *ids = qd_expr_get_identifiers (expr, &n_ids);

      /* Say which variable is at fault when one is. */
      for (guint i = 0; i < n_ids; i++)
        for (guint j = 0; j < names->len; j++)
          if (strcmp (ids[i], g_ptr_array_index (names, j)) == 0
              && !isfinite (g_array_index (values, double, j)))
            {
              g_set_error (error, QD_ERROR, QD_ERROR_EXPR,
                           _("the variable “%s” has no valid value; fix it "
                             "in the model’s variables"), ids[i]);
              return FALSE;
            }
      g_set_error (error, QD_ERROR, QD_ERROR_EXPR,
                   _("evaluates to %g; check the expression and the "
                     "variables it uses"), value);
      return FALSE;
    }
  *result = value;
  return TRUE;
}

static gboolean
check_range (const QdParamSpec  *spec,
             double              value,
             GError            **error)
{
  if (spec->kind == QD_PARAM_INTEGER && value != floor (value))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("%g is not a whole number; enter an integer"), value);
      return FALSE;
    }
  if (value < spec->min)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("%g is too small; the value must be at least %g"),
                   value, spec->min);
      return FALSE;
    }
  if (value > spec->max)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("%g is too large; the value must be at most %g"),
                   value, spec->max);
      return FALSE;
    }
  return TRUE;
}

/* Reading and writing the widgets */

char *
qd_inspector_field_get_text (Field *field)
{
  switch (field->kind)
    {
    case WIDGET_ENTRY:
      return g_strdup (gtk_editable_get_text (GTK_EDITABLE (field->editor)));
    case WIDGET_DROPDOWN:
      {
        guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (field->editor));

        if (selected >= field->values->len)
          return g_strdup ("");
        return g_strdup (g_ptr_array_index (field->values, selected));
      }
    case WIDGET_SWITCH:
      return g_strdup (gtk_switch_get_active (GTK_SWITCH (field->editor)) ? "true" : "false");
    case WIDGET_TEXT:
      {
        GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (field->editor));
        GtkTextIter start, end;

        gtk_text_buffer_get_bounds (buffer, &start, &end);
        return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
      }
    default:
      g_assert_not_reached ();
    }
}

void
qd_inspector_field_set_text (Field      *field,
                             const char *text)
{
  g_autofree char *old = qd_inspector_field_get_text (field);

  if (text == NULL)
    text = "";
  if (strcmp (old, text) == 0)
    return;

  switch (field->kind)
    {
    case WIDGET_ENTRY:
      /* Set from the model, not typed: no step for the field's own Ctrl+Z,
       * which would take it back to empty and apply that. Turning undo
       * off clears the field's history. */
      gtk_editable_set_enable_undo (GTK_EDITABLE (field->editor), FALSE);
      gtk_editable_set_text (GTK_EDITABLE (field->editor), text);
      gtk_editable_set_enable_undo (GTK_EDITABLE (field->editor), TRUE);
      break;
    case WIDGET_DROPDOWN:
      for (guint i = 0; i < field->values->len; i++)
        if (strcmp (g_ptr_array_index (field->values, i), text) == 0)
          {
            gtk_drop_down_set_selected (GTK_DROP_DOWN (field->editor), i);
            break;
          }
      break;
    case WIDGET_SWITCH:
      gtk_switch_set_active (GTK_SWITCH (field->editor), strcmp (text, "true") == 0);
      break;
    case WIDGET_TEXT:
      gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (field->editor)),
                                text, -1);
      break;
    default:
      g_assert_not_reached ();
    }
}

void
qd_inspector_field_show_error (Field      *field,
                               const char *message)
{
  if (message == NULL)
    {
      gtk_widget_set_visible (field->error_label, FALSE);
      gtk_label_set_text (GTK_LABEL (field->error_label), "");
      gtk_widget_remove_css_class (field->editor, "error");
      return;
    }
  gtk_label_set_text (GTK_LABEL (field->error_label), message);
  gtk_widget_set_visible (field->error_label, TRUE);
  gtk_widget_add_css_class (field->editor, "error");
}

/* What the document holds for @field, as the widget shows it. */
char *
qd_inspector_field_document_text (Field *field)
{
  QdInspector *self = field->self;
  const QdSettings *settings;
  QdBlock *block;

  switch (field->role)
    {
    case ROLE_PARAM:
      block = qd_inspector_current_block (self);
      if (block == NULL)
        return g_strdup ("");
      if (field->kind == WIDGET_ENTRY)
        /* An entry shows the default as its placeholder, not as text. */
        return g_strdup (qd_block_get_param (block, field->arg));
      return g_strdup (qd_block_get_param_or_default (block, field->arg));
    case ROLE_NAME:
      block = qd_inspector_current_block (self);
      return g_strdup (block != NULL ? block->name : "");
    case ROLE_TITLE:
      return g_strdup (qd_document_get_title (self->document));
    case ROLE_DESCRIPTION:
      return g_strdup (qd_document_get_description (self->document));
    case ROLE_SETTING:
      settings = qd_document_get_settings (self->document);
      if (strcmp (field->arg, "start_time") == 0)
        return qd_inspector_format_double (settings->start_time);
      if (strcmp (field->arg, "final_time") == 0)
        return qd_inspector_format_double (settings->final_time);
      if (strcmp (field->arg, "dqmin") == 0)
        return qd_inspector_format_double (settings->dqmin);
      if (strcmp (field->arg, "dqrel") == 0)
        return qd_inspector_format_double (settings->dqrel);
      if (strcmp (field->arg, "method") == 0)
        return g_strdup (settings->method);
      if (strcmp (field->arg, "illegitimacy_limit") == 0)
        return g_strdup_printf ("%" G_GUINT64_FORMAT, settings->illegitimacy_limit);
      if (strcmp (field->arg, "solver") == 0)
        return g_strdup (settings->solver != NULL ? settings->solver : "qss");
      if (strcmp (field->arg, "rtol") == 0)
        return qd_inspector_format_double (settings->rtol);
      if (strcmp (field->arg, "atol") == 0)
        return qd_inspector_format_double (settings->atol);
      if (strcmp (field->arg, "max_step") == 0)
        return qd_inspector_format_double (settings->max_step);
      if (strcmp (field->arg, "h") == 0)
        return qd_inspector_format_double (settings->h);
      g_return_val_if_reached (g_strdup (""));
    case ROLE_VAR_VALUE:
      return g_strdup (qd_document_get_variable (self->document, field->arg));
    case ROLE_VAR_NAME:
      return g_strdup (field->arg);
    case ROLE_MASK_VALUE:
      {
        const QdMaskParam *param =
          qd_mask_find_param (qd_block_get_mask (qd_inspector_current_block (self)), field->arg);

        /* The default shows as the placeholder, as a parameter's does. */
        return g_strdup (param != NULL ? param->value : NULL);
      }
    default:
      g_assert_not_reached ();
    }
}

/* The index of variable @name, or the number of variables. */
static guint
variable_index (QdDocument *document,
                const char *name)
{
  GPtrArray *variables = qd_document_get_variables (document);
  guint i;

  for (i = 0; variables != NULL && i < variables->len; i++)
    {
      const QdVariable *variable = g_ptr_array_index (variables, i);

      if (strcmp (variable->name, name) == 0)
        break;
    }
  return i;
}

/* Checking */

/* A function expression's names, as typed: each an input the block has,
 * t or a variable of the model, as Check and Run will require
 * (qd-compile-params.c); the same message as theirs. */
static gboolean
check_function_names (QdDocument  *document,
                      QdBlock     *block,
                      const char  *text,
                      GError     **error)
{
  g_autoptr(QdExpr) expr = qd_expr_parse (text, NULL);
  GPtrArray *variables = qd_document_get_variables (document);
  g_autoptr(GPtrArray) masked = g_ptr_array_new ();
  g_autoptr(GArray) masked_values = g_array_new (FALSE, FALSE, sizeof (double));
  const char *const *ids;
  guint n_ids, n_in, n_out;

  if (expr == NULL || !qd_block_count_ports (block, &n_in, &n_out, NULL))
    return TRUE;
  qd_mask_add_scope (block, masked, masked_values);
  ids = qd_expr_get_identifiers (expr, &n_ids);
  for (guint i = 0; i < n_ids; i++)
    {
      int input = qd_expr_input_index (ids[i]);
      gboolean known = strcmp (ids[i], "t") == 0 || input >= 0;

      /* An input beyond the last: Check refuses it (the type's check), in
       * these words. */
      if (input >= 0 && (guint) input >= n_in)
        {
          g_autofree char *message =
            qd_expr_missing_input_message (text, ids[i], n_in);

          g_set_error_literal (error, QD_ERROR, QD_ERROR_EXPR, message);
          return FALSE;
        }

      for (guint k = 0; !known && variables != NULL && k < variables->len; k++)
        known = strcmp (((QdVariable *) g_ptr_array_index (variables, k))->name,
                        ids[i]) == 0;
      for (guint k = 0; !known && k < masked->len; k++)
        known = strcmp (g_ptr_array_index (masked, k), ids[i]) == 0;
      if (!known)
        {
          g_autofree char *message =
            qd_expr_unknown_name_message (text, ids[i], n_in);

          g_set_error_literal (error, QD_ERROR, QD_ERROR_EXPR, message);
          return FALSE;
        }
    }
  return TRUE;
}

/* One element of a vector parameter. */
static gboolean
eval_element (const QdParamSpec  *spec,
              QdDocument         *document,
              const QdBlock      *block,
              const char         *text,
              double             *value,
              GError            **error)
{
  return eval_with_variables (document, G_MAXUINT, block, text, value, error)
         && check_range (spec, *value, error);
}

/* A list of values: each element, their count, and the summary line. */
static gboolean
check_vector (Field       *field,
              QdBlock     *block,
              const char  *text,
              GError     **error)
{
  const QdParamSpec *spec = field->spec;
  g_autofree char *summary = NULL;
  guint n_in, n_out;
  gboolean ok;

  ok = qd_inspector_vector_check (field->self->document, block, spec, text,
                                  eval_element, &summary, error);
  if (field->summary != NULL)
    qd_inspector_vector_summary_set (field->summary, ok ? summary : NULL);
  /* One weight per input, say: Check and Run would refuse another
   * count, in these words. */
  if (ok && (spec->flags & QD_PARAM_PER_INPUT)
      && qd_block_count_ports (block, &n_in, &n_out, NULL))
    {
      g_auto(GStrv) parts = qd_expr_split_vector (text);

      return qd_param_spec_check_per_input (spec, g_strv_length (parts),
                                            n_in, error);
    }
  return ok;
}

static gboolean
check_param (Field       *field,
             const char  *text,
             GError     **error)
{
  QdInspector *self = field->self;
  QdBlock *block = qd_inspector_current_block (self);
  const QdParamSpec *spec = field->spec;
  g_autoptr(GError) local_error = NULL;
  double value;

  if (block == NULL)
    return TRUE;
  /* Empty: back to the default (or to the model's setting), which is
   * right unless it is a list that must have one value per input. */
  if (text[0] == '\0')
    {
      if (!(spec->flags & QD_PARAM_PER_INPUT) && field->summary == NULL)
        return TRUE;
      text = spec->default_value;
    }
  if (!qd_block_check_param (block, field->arg, text, &local_error))
    {
      g_autofree char *prefix = g_strdup_printf (_("parameter '%s': "), field->arg);
      const char *message = local_error->message;

      /* The field is next to its label: the message need not name it. */
      if (g_str_has_prefix (message, prefix))
        message += strlen (prefix);
      g_set_error_literal (error, local_error->domain, local_error->code, message);
      return FALSE;
    }

  if (qd_inspector_vector_applies (block, spec))
    return check_vector (field, block, text, error);
  switch (spec->kind)
    {
    case QD_PARAM_NUMBER:
    case QD_PARAM_INTEGER:
      if (!eval_with_variables (self->document, G_MAXUINT, block, text, &value, error))
        return FALSE;
      return check_range (spec, value, error);
    case QD_PARAM_FUNCTION:
      return check_function_names (self->document, block, text, error);
    case QD_PARAM_BOOLEAN:
    case QD_PARAM_CHOICE:
    case QD_PARAM_STRING:
    default:
      return TRUE;
    }
}

static gboolean
check_setting (Field       *field,
               const char  *text,
               GError     **error)
{
  double value;

  if (strcmp (field->arg, "method") == 0 || strcmp (field->arg, "solver") == 0)
    return TRUE;
  if (!qd_expr_eval_string (text, &value, error))
    return FALSE;
  if (!isfinite (value))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("%g is not a finite number; enter a number"), value);
      return FALSE;
    }
  if (strcmp (field->arg, "illegitimacy_limit") == 0
      && (value < 1 || value != floor (value)))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("enter a whole number of transitions, at least 1"));
      return FALSE;
    }
  if ((strcmp (field->arg, "dqmin") == 0 || strcmp (field->arg, "dqrel") == 0)
      && value < 0)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("a quantum cannot be negative; enter 0 or more"));
      return FALSE;
    }
  if ((strcmp (field->arg, "rtol") == 0 || strcmp (field->arg, "atol") == 0)
      && !(value > 0))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("a tolerance must be above 0, e.g. 1e-6"));
      return FALSE;
    }
  if ((strcmp (field->arg, "max_step") == 0 || strcmp (field->arg, "h") == 0)
      && value < 0)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("a step cannot be negative; enter 0 (none) or more"));
      return FALSE;
    }
  return TRUE;
}

gboolean
qd_inspector_field_check (Field       *field,
                          const char  *text,
                          GError     **error)
{
  QdInspector *self = field->self;
  QdBlock *block;
  QdBlock *other;
  double value;

  switch (field->role)
    {
    case ROLE_PARAM:
      return check_param (field, text, error);
    case ROLE_NAME:
      block = qd_inspector_current_block (self);
      if (text[0] == '\0')
        {
          g_set_error (error, QD_ERROR, QD_ERROR_FAILED,
                       _("a block needs a name; type one"));
          return FALSE;
        }
      if (strchr (text, '/') != NULL)
        {
          g_set_error (error, QD_ERROR, QD_ERROR_FAILED,
                       _("a name cannot contain “/”, which separates the "
                         "levels of a path; choose another name"));
          return FALSE;
        }
      other = block != NULL ? qd_system_find_block_by_name (block->parent, text) : NULL;
      if (other != NULL && other != block)
        {
          g_set_error (error, QD_ERROR, QD_ERROR_DUPLICATE,
                       _("another block here is named “%s”; choose another "
                         "name"), text);
          return FALSE;
        }
      return TRUE;
    case ROLE_TITLE:
    case ROLE_DESCRIPTION:
      return TRUE;
    case ROLE_SETTING:
      return check_setting (field, text, error);
    case ROLE_VAR_VALUE:
      return eval_with_variables (self->document,
                                  variable_index (self->document, field->arg),
                                  NULL, text, &value, error);
    case ROLE_MASK_VALUE:
      /* In the scope around the subsystem; empty is the default. */
      return text[0] == '\0'
             || eval_with_variables (self->document, G_MAXUINT, qd_inspector_current_block (self),
                                     text, &value, error);
    case ROLE_VAR_NAME:
      if (strcmp (text, field->arg) == 0)
        return TRUE;
      if (!qd_expr_is_valid_name (text))
        {
          g_set_error (error, QD_ERROR, QD_ERROR_FAILED,
                       _("“%s” is not a valid name: use letters, digits and "
                         "“_”, starting with a letter, and not a function "
                         "name"), text);
          return FALSE;
        }
      if (qd_document_get_variable (self->document, text) != NULL)
        {
          g_set_error (error, QD_ERROR, QD_ERROR_DUPLICATE,
                       _("a variable named “%s” already exists; choose "
                         "another name"), text);
          return FALSE;
        }
      return TRUE;
    default:
      g_assert_not_reached ();
    }
}

/* Applying */

/* Renames a variable in place: the variables after it are taken out and
 * put back, so that the order (which decides what a variable may use)
 * stays the same. One undo step. */
static gboolean
rename_variable (QdDocument  *document,
                 const char  *old_name,
                 const char  *new_name,
                 GError     **error)
{
  GPtrArray *variables = qd_document_get_variables (document);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) values = g_ptr_array_new_with_free_func (g_free);
  guint start = variable_index (document, old_name);
  gboolean ok = TRUE;

  for (guint i = start; i < variables->len; i++)
    {
      const QdVariable *variable = g_ptr_array_index (variables, i);

      g_ptr_array_add (names, g_strdup (variable->name));
      g_ptr_array_add (values, g_strdup (variable->value));
    }

  qd_document_begin (document, _("Rename Variable"));
  for (guint i = names->len; ok && i > 0; i--)
    ok = qd_document_set_variable (document, g_ptr_array_index (names, i - 1),
                                   NULL, error);
  for (guint i = 0; ok && i < names->len; i++)
    ok = qd_document_set_variable (document,
                                   i == 0 ? new_name : g_ptr_array_index (names, i),
                                   g_ptr_array_index (values, i), error);
  qd_document_end (document);
  if (!ok)
    /* A half-done rename would leave the model broken: take it back. */
    qd_document_undo (document);
  return ok;
}

static gboolean
apply_setting (QdInspector  *self,
               const char   *key,
               const char   *text,
               GError      **error)
{
  const QdSettings *old = qd_document_get_settings (self->document);
  QdSettings settings = *old;
  double value = 0;
  gboolean ok;

  if (strcmp (key, "method") != 0 && strcmp (key, "solver") != 0
      && !qd_expr_eval_string (text, &value, error))
    return FALSE;

  settings.method = g_strdup (old->method);
  settings.solver = g_strdup (strcmp (key, "solver") == 0 ? text : old->solver);
  if (strcmp (key, "start_time") == 0)
    settings.start_time = value;
  else if (strcmp (key, "final_time") == 0)
    settings.final_time = value;
  else if (strcmp (key, "dqmin") == 0)
    settings.dqmin = value;
  else if (strcmp (key, "dqrel") == 0)
    settings.dqrel = value;
  else if (strcmp (key, "illegitimacy_limit") == 0)
    settings.illegitimacy_limit = (guint64) value;
  else if (strcmp (key, "method") == 0)
    {
      g_free (settings.method);
      settings.method = g_strdup (text);
    }
  else if (strcmp (key, "rtol") == 0)
    settings.rtol = value;
  else if (strcmp (key, "atol") == 0)
    settings.atol = value;
  else if (strcmp (key, "max_step") == 0)
    settings.max_step = value;
  else if (strcmp (key, "h") == 0)
    settings.h = value;
  ok = qd_document_set_settings (self->document, &settings, error);
  g_free (settings.method);
  g_free (settings.solver);
  return ok;
}

/* The link ends at @block: its inputs' links and its outputs' targets. */
static guint
count_links (const QdBlock *block)
{
  guint n = 0;

  for (guint i = 0; i < block->parent->links->len; i++)
    {
      const QdLink *link = g_ptr_array_index (block->parent->links, i);

      for (guint k = 0; k < link->n_targets; k++)
        {
          const QdLinkTarget *target = link->targets[k];

          n += strcmp (link->src.block, block->id) == 0;
          n += strcmp (target->dst.block, block->id) == 0;
        }
    }
  return n;
}

/* Checks the field's text and, when it is valid and differs from the
 * document, applies it. A successful command emits "changed", which may
 * rebuild the form and free @field: nothing touches it afterwards. */
void
qd_inspector_field_apply (Field *field)
{
  QdInspector *self = field->self;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *current = NULL;
  QdBlock *block;
  gboolean ok = TRUE;
  guint links_before = 0;

  if (field->dead || self->refreshing || self->document == NULL)
    return;

  text = qd_inspector_field_get_text (field);
  current = qd_inspector_field_document_text (field);
  field->dirty = FALSE;
  if (!qd_inspector_field_check (field, text, &error))
    {
      qd_inspector_field_show_error (field, error->message);
      return;
    }
  if (g_strcmp0 (text, current != NULL ? current : "") == 0)
    {
      qd_inspector_field_show_error (field, NULL);
      return;
    }

  switch (field->role)
    {
    case ROLE_PARAM:
      block = qd_inspector_current_block (self);
      if (block == NULL)
        return;
      links_before = count_links (block);
      if (field->inherit && text[0] == '\0')
        ok = qd_document_set_param (self->document, block, field->arg, NULL, &error);
      else
        ok = qd_document_set_param (self->document, block, field->arg,
                                    text[0] != '\0' ? text : NULL, &error);
      if (ok && count_links (block) < links_before)
        {
          guint gone = links_before - count_links (block);
          g_autofree char *path = qd_block_get_path (block);
          g_autofree char *notice =
            g_strdup_printf (ngettext ("%s: %u link went with the ports that "
                                       "no longer exist; Undo brings it back",
                                       "%s: %u links went with the ports that "
                                       "no longer exist; Undo brings them back",
                                       gone), path, gone);

          g_signal_emit (self, qd_inspector_signals[NOTICE], 0, notice);
        }
      break;
    case ROLE_NAME:
      block = qd_inspector_current_block (self);
      if (block == NULL)
        return;
      ok = qd_document_rename_block (self->document, block, text, &error);
      break;
    case ROLE_TITLE:
      qd_document_set_title (self->document, text);
      break;
    case ROLE_DESCRIPTION:
      qd_document_set_description (self->document, text);
      break;
    case ROLE_SETTING:
      ok = apply_setting (self, field->arg, text, &error);
      break;
    case ROLE_VAR_VALUE:
      ok = qd_document_set_variable (self->document, field->arg, text, &error);
      break;
    case ROLE_MASK_VALUE:
      block = qd_inspector_current_block (self);
      if (block == NULL)
        return;
      ok = qd_document_set_mask_value (self->document, block, field->arg,
                                       text[0] != '\0' ? text : NULL, &error);
      break;
    case ROLE_VAR_NAME:
      /* The rename rebuilds the form: go on with the value. */
      g_free (self->focus_key);
      self->focus_key = g_strconcat ("var:", text, NULL);
      ok = rename_variable (self->document, field->arg, text, &error);
      if (!ok)
        g_clear_pointer (&self->focus_key, g_free);
      break;
    default:
      g_assert_not_reached ();
    }

  if (!ok)
    qd_inspector_field_show_error (field, error->message);
}

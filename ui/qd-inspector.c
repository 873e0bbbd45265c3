/* qd-inspector.c: the editor's inspector panel
 *
 * The form is generated from the block type's parameter schema (or, for
 * the model, from the settings and the variables) into one GtkGrid. Each
 * field remembers what it edits; its text is checked on every keystroke
 * (the schema, then a trial evaluation against the model variables) and
 * applied on Enter or focus-out through one document command, so each
 * change is one undo step.
 *
 * The document may change under the form (undo, the canvas, another
 * field): when the shape of the form is the same (the same block, the
 * same variables) the values are refreshed in place, otherwise the form
 * is rebuilt. A rebuild may happen while a field's own handler runs (a
 * renamed variable), so a field's data lives on its widget and a field
 * that has been taken out of the form is marked dead and ignores events.
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qd-inspector.h"
#include "qd-inspector-vector.h"
#include "qd-mask.h"
#include "qd-script-editor.h"

typedef enum
{
  ROLE_PARAM,
  ROLE_NAME,
  ROLE_TITLE,
  ROLE_DESCRIPTION,
  ROLE_SETTING,
  ROLE_VAR_VALUE,
  ROLE_VAR_NAME,
  ROLE_MASK_VALUE,   /* a masked subsystem's parameter (qd-mask.h) */
} FieldRole;

typedef enum
{
  WIDGET_ENTRY,
  WIDGET_DROPDOWN,
  WIDGET_SWITCH,
  WIDGET_TEXT,
} WidgetKind;

typedef struct
{
  QdInspector       *self;
  char              *key;
  FieldRole          role;
  WidgetKind         kind;
  const QdParamSpec *spec;      /* ROLE_PARAM */
  char              *arg;       /* parameter, setting or variable name */
  GtkWidget         *editor;
  GtkWidget         *container;  /* what goes in the grid: the editor or
                                  * a scroller around it */
  GtkWidget         *error_label;
  GtkWidget         *summary;   /* a vector's values (qd-inspector-vector.c) */
  GPtrArray         *values;    /* WIDGET_DROPDOWN: the text of each item */
  gboolean           inherit;   /* the first drop-down item is "inherit" */
  gboolean           dirty;     /* typed since the last apply or refresh */
  gboolean           dead;      /* no longer in the form */
} Field;

struct _QdInspector
{
  GtkWidget    parent_instance;

  /* Template children */
  GtkWidget   *scroller;
  GtkLabel    *heading;
  GtkLabel    *doc_label;
  GtkGrid     *form;

  QdDocument  *document;
  gulong       changed_id;
  GtkWidget   *extra;         /* weak: qd_inspector_set_extra() */
  char        *block_id;      /* the block edited, NULL for the model */
  guint        n_selected;    /* > 1: several blocks, nothing to edit */
  char        *shape;         /* what the form was built for */
  GHashTable  *fields;        /* key -> Field* (owned by the editors) */
  GPtrArray   *order;         /* Field*, in form order */
  int          row;           /* next free grid row while building */
  gboolean     refreshing;    /* values are being set from the document */
  char        *focus_key;     /* the field to focus after a rebuild */
  gboolean     focus_moving;  /* a field applies as the focus leaves it */
  guint        rebuild_id;    /* a rebuild waiting for that move to end */
};

G_DEFINE_FINAL_TYPE (QdInspector, qd_inspector, GTK_TYPE_WIDGET)

enum
{
  NOTICE,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void rebuild (QdInspector *self);
static void refresh (QdInspector *self);

static void
field_free (gpointer data)
{
  Field *field = data;

  g_free (field->key);
  g_free (field->arg);
  g_clear_pointer (&field->values, g_ptr_array_unref);
  g_free (field);
}

static QdBlock *
current_block (QdInspector *self)
{
  if (self->document == NULL || self->block_id == NULL)
    return NULL;
  return qd_document_find_block (self->document, self->block_id);
}

/* Numbers as people write them, yet exact: the shortest of %.15g and
 * %.17g that reads back to the same double. */
static char *
format_double (double value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (buffer, sizeof buffer, "%.15g", value);
  if (g_ascii_strtod (buffer, NULL) != value)
    g_ascii_formatd (buffer, sizeof buffer, "%.17g", value);
  return g_strdup (buffer);
}

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

static char *
field_get_text (Field *field)
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

static void
field_set_text (Field      *field,
                const char *text)
{
  g_autofree char *old = field_get_text (field);

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

static void
field_show_error (Field      *field,
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
static char *
field_document_text (Field *field)
{
  QdInspector *self = field->self;
  const QdSettings *settings;
  QdBlock *block;

  switch (field->role)
    {
    case ROLE_PARAM:
      block = current_block (self);
      if (block == NULL)
        return g_strdup ("");
      if (field->kind == WIDGET_ENTRY)
        /* An entry shows the default as its placeholder, not as text. */
        return g_strdup (qd_block_get_param (block, field->arg));
      return g_strdup (qd_block_get_param_or_default (block, field->arg));
    case ROLE_NAME:
      block = current_block (self);
      return g_strdup (block != NULL ? block->name : "");
    case ROLE_TITLE:
      return g_strdup (qd_document_get_title (self->document));
    case ROLE_DESCRIPTION:
      return g_strdup (qd_document_get_description (self->document));
    case ROLE_SETTING:
      settings = qd_document_get_settings (self->document);
      if (strcmp (field->arg, "start_time") == 0)
        return format_double (settings->start_time);
      if (strcmp (field->arg, "final_time") == 0)
        return format_double (settings->final_time);
      if (strcmp (field->arg, "dqmin") == 0)
        return format_double (settings->dqmin);
      if (strcmp (field->arg, "dqrel") == 0)
        return format_double (settings->dqrel);
      if (strcmp (field->arg, "method") == 0)
        return g_strdup (settings->method);
      if (strcmp (field->arg, "illegitimacy_limit") == 0)
        return g_strdup_printf ("%" G_GUINT64_FORMAT, settings->illegitimacy_limit);
      if (strcmp (field->arg, "solver") == 0)
        return g_strdup (settings->solver != NULL ? settings->solver : "qss");
      if (strcmp (field->arg, "rtol") == 0)
        return format_double (settings->rtol);
      if (strcmp (field->arg, "atol") == 0)
        return format_double (settings->atol);
      if (strcmp (field->arg, "max_step") == 0)
        return format_double (settings->max_step);
      if (strcmp (field->arg, "h") == 0)
        return format_double (settings->h);
      g_return_val_if_reached (g_strdup (""));
    case ROLE_VAR_VALUE:
      return g_strdup (qd_document_get_variable (self->document, field->arg));
    case ROLE_VAR_NAME:
      return g_strdup (field->arg);
    case ROLE_MASK_VALUE:
      {
        const QdMaskParam *param =
          qd_mask_find_param (qd_block_get_mask (current_block (self)), field->arg);

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
 * (qd-compile.c); the same message as theirs. */
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
  QdBlock *block = current_block (self);
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

static gboolean
field_check (Field       *field,
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
      block = current_block (self);
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
             || eval_with_variables (self->document, G_MAXUINT, current_block (self),
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

      for (guint k = 0; k < link->targets->len; k++)
        {
          const QdLinkTarget *target = g_ptr_array_index (link->targets, k);

          n += strcmp (link->src.block, block->id) == 0;
          n += strcmp (target->dst.block, block->id) == 0;
        }
    }
  return n;
}

/* Checks the field's text and, when it is valid and differs from the
 * document, applies it. A successful command emits "changed", which may
 * rebuild the form and free @field: nothing touches it afterwards. */
static void
field_apply (Field *field)
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

  text = field_get_text (field);
  current = field_document_text (field);
  field->dirty = FALSE;
  if (!field_check (field, text, &error))
    {
      field_show_error (field, error->message);
      return;
    }
  if (g_strcmp0 (text, current != NULL ? current : "") == 0)
    {
      field_show_error (field, NULL);
      return;
    }

  switch (field->role)
    {
    case ROLE_PARAM:
      block = current_block (self);
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

          g_signal_emit (self, signals[NOTICE], 0, notice);
        }
      break;
    case ROLE_NAME:
      block = current_block (self);
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
      block = current_block (self);
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
    field_show_error (field, error->message);
}

/* Events */

static void
on_entry_changed (GtkEditable *editable,
                  Field       *field)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;

  if (field->dead || field->self->refreshing)
    return;
  field->dirty = TRUE;
  text = field_get_text (field);
  /* Checked as typed; applied only on Enter or focus-out. */
  if (field_check (field, text, &error))
    field_show_error (field, NULL);
  else
    field_show_error (field, error->message);
}

static void
on_entry_activate (GtkEntry *entry,
                   Field    *field)
{
  field_apply (field);
}

/* Tab, Up or Down out of a field: GTK is in the middle of moving the
 * focus, to a widget of this form, when the field applies. A change that
 * reshapes the form (a renamed variable) must not destroy that widget
 * under GTK's feet: on_document_changed() rebuilds later. */
static void
on_focus_leave (GtkEventControllerFocus *controller,
                Field                   *field)
{
  QdInspector *self = field->self;

  if (!field->dirty || field->dead)
    return;
  self->focus_moving = TRUE;
  field_apply (field);
  self->focus_moving = FALSE;
}

/* Escape takes back what was typed. */
static gboolean
on_entry_key_pressed (GtkEventControllerKey *controller,
                      guint                  keyval,
                      guint                  keycode,
                      GdkModifierType        state,
                      Field                 *field)
{
  g_autofree char *text = NULL;

  if (keyval != GDK_KEY_Escape || field->dead || !field->dirty)
    return FALSE;
  text = field_document_text (field);
  field->self->refreshing = TRUE;
  field_set_text (field, text);
  field->self->refreshing = FALSE;
  field->dirty = FALSE;
  field_show_error (field, NULL);
  return TRUE;
}

static void
on_dropdown_selected (GObject    *object,
                      GParamSpec *pspec,
                      Field      *field)
{
  field_apply (field);
}

static void
on_switch_active (GObject    *object,
                  GParamSpec *pspec,
                  Field      *field)
{
  field_apply (field);
}

static void
on_text_changed (GtkTextBuffer *buffer,
                 Field         *field)
{
  if (!field->self->refreshing)
    field->dirty = TRUE;
}

/* Building the form */

static void
form_clear (QdInspector *self)
{
  GtkWidget *child;

  for (guint i = 0; i < self->order->len; i++)
    ((Field *) g_ptr_array_index (self->order, i))->dead = TRUE;
  g_ptr_array_set_size (self->order, 0);
  g_hash_table_remove_all (self->fields);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->form))))
    gtk_grid_remove (self->form, child);
  self->row = 0;
}

static void
add_section (QdInspector *self,
             const char  *title)
{
  GtkWidget *label = gtk_label_new (title);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_widget_add_css_class (label, "qd-inspector-section");
  gtk_grid_attach (self->form, label, 0, self->row++, 3, 1);
}

static GtkWidget *
new_error_label (void)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 30);
  gtk_widget_add_css_class (label, "qd-inspector-error");
  gtk_widget_add_css_class (label, "error");
  gtk_widget_set_visible (label, FALSE);
  return label;
}

static Field *
field_new (QdInspector *self,
           const char  *key,
           FieldRole    role,
           WidgetKind   kind,
           const char  *arg)
{
  Field *field = g_new0 (Field, 1);

  field->self = self;
  field->key = g_strdup (key);
  field->role = role;
  field->kind = kind;
  field->arg = g_strdup (arg);
  return field;
}

/* A Lua script (QD_PARAM_SCRIPT): edited in a QdScriptEditor, a
 * GtkTextView, so that it reads and writes as a text field. */
static gboolean
field_is_script (const Field *field)
{
  return field->spec != NULL && field->spec->kind == QD_PARAM_STRING
         && (field->spec->flags & QD_PARAM_SCRIPT);
}

/* The script's own check (syntax, header) in the field's error line. */
static void
on_script_error (QdScriptEditor *editor,
                 GParamSpec     *pspec,
                 Field          *field)
{
  if (!field->dead)
    field_show_error (field, qd_script_editor_get_error (editor, NULL));
}

/* Creates the editing widget of @field (the values of a drop-down must be
 * set already) and connects it. */
static void
field_create_editor (Field       *field,
                     const char  *const *labels)
{
  GtkEventController *focus;

  switch (field->kind)
    {
    case WIDGET_ENTRY:
      field->editor = gtk_entry_new ();
      gtk_editable_set_width_chars (GTK_EDITABLE (field->editor), 8);
      g_signal_connect (field->editor, "changed", G_CALLBACK (on_entry_changed), field);
      g_signal_connect (field->editor, "activate", G_CALLBACK (on_entry_activate), field);
      {
        GtkEventController *keys = gtk_event_controller_key_new ();

        g_signal_connect (keys, "key-pressed", G_CALLBACK (on_entry_key_pressed), field);
        gtk_widget_add_controller (field->editor, keys);
      }
      break;
    case WIDGET_DROPDOWN:
      field->editor = gtk_drop_down_new_from_strings (labels);
      g_signal_connect (field->editor, "notify::selected",
                        G_CALLBACK (on_dropdown_selected), field);
      break;
    case WIDGET_SWITCH:
      field->editor = gtk_switch_new ();
      gtk_widget_set_halign (field->editor, GTK_ALIGN_START);
      g_signal_connect (field->editor, "notify::active",
                        G_CALLBACK (on_switch_active), field);
      break;
    case WIDGET_TEXT:
      if (field_is_script (field))
        {
          field->editor = qd_script_editor_new ();
          g_signal_connect_swapped (field->editor, "commit", G_CALLBACK (field_apply), field);
          g_signal_connect (field->editor, "notify::error",
                            G_CALLBACK (on_script_error), field);
        }
      else
        {
          field->editor = gtk_text_view_new ();
          gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (field->editor), GTK_WRAP_WORD_CHAR);
          gtk_text_view_set_accepts_tab (GTK_TEXT_VIEW (field->editor), FALSE);
        }
      g_signal_connect (gtk_text_view_get_buffer (GTK_TEXT_VIEW (field->editor)),
                        "changed", G_CALLBACK (on_text_changed), field);
      break;
    default:
      g_assert_not_reached ();
    }
  gtk_widget_set_hexpand (field->editor, TRUE);
  if (field->kind != WIDGET_TEXT)
    gtk_widget_set_valign (field->editor, GTK_ALIGN_CENTER);
  if (field->kind != WIDGET_SWITCH)
    gtk_widget_set_size_request (field->editor, 80, -1);

  focus = gtk_event_controller_focus_new ();
  g_signal_connect (focus, "leave", G_CALLBACK (on_focus_leave), field);
  gtk_widget_add_controller (field->editor, focus);

  /* The field's data lives as long as its widget, which may outlive the
   * form by the length of a signal emission. */
  g_object_set_data_full (G_OBJECT (field->editor), "qd-field", field, field_free);
  field->error_label = new_error_label ();
  field->container = field->editor;
  if (field_is_script (field))
    field->container = qd_script_editor_wrap (QD_SCRIPT_EDITOR (field->editor));
  else if (field->kind == WIDGET_TEXT)
    {
      /* A long description scrolls instead of pushing the form away. */
      field->container = gtk_scrolled_window_new ();
      gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (field->container),
                                      GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
      gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (field->container), 60);
      gtk_scrolled_window_set_max_content_height (GTK_SCROLLED_WINDOW (field->container), 140);
      gtk_scrolled_window_set_propagate_natural_height (GTK_SCROLLED_WINDOW (field->container), TRUE);
      gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (field->container), field->editor);
      gtk_widget_add_css_class (field->container, "qd-inspector-text");
    }
}

static void
register_field (QdInspector *self,
                Field       *field)
{
  g_autofree char *widget_name = g_strconcat ("field:", field->key, NULL);

  /* For the end-to-end tests (qd-test-geometry.c). */
  gtk_widget_set_name (field->editor, widget_name);
  g_hash_table_replace (self->fields, field->key, field);
  g_ptr_array_add (self->order, field);
}

/* Puts a labelled field on a row of its own, with its unit after it and
 * its error below it. */
static void
attach_field (QdInspector *self,
              Field       *field,
              const char  *label_text,
              const char  *unit,
              const char  *doc)
{
  GtkWidget *label = gtk_label_new (label_text);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  /* The panel is narrow: long labels wrap rather than lose their end. */
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD);
  gtk_label_set_width_chars (GTK_LABEL (label), 9);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 12);
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), field->editor);
  gtk_widget_set_valign (label, field->kind == WIDGET_TEXT ? GTK_ALIGN_START
                                                           : GTK_ALIGN_CENTER);
  if (doc != NULL && doc[0] != '\0')
    {
      gtk_widget_set_tooltip_text (label, doc);
      gtk_widget_set_tooltip_text (field->editor, doc);
    }
  gtk_grid_attach (self->form, label, 0, self->row, 1, 1);
  if (unit != NULL && unit[0] != '\0')
    {
      GtkWidget *unit_label = gtk_label_new (unit);

      gtk_widget_add_css_class (unit_label, "dim-label");
      gtk_grid_attach (self->form, field->container, 1, self->row, 1, 1);
      gtk_grid_attach (self->form, unit_label, 2, self->row, 1, 1);
    }
  else
    gtk_grid_attach (self->form, field->container, 1, self->row, 2, 1);
  self->row++;
  gtk_grid_attach (self->form, field->error_label, 1, self->row++, 2, 1);
  register_field (self, field);
}

/* What an inherited parameter falls back to, for its placeholder. */
static char *
model_default_text (QdInspector *self,
                    const char  *name)
{
  const QdSettings *settings = qd_document_get_settings (self->document);
  g_autofree char *value = NULL;

  if (strcmp (name, "method") == 0)
    value = g_strdup (settings->method);
  else if (strcmp (name, "dqmin") == 0)
    value = format_double (settings->dqmin);
  else if (strcmp (name, "dqrel") == 0)
    value = format_double (settings->dqrel);
  else
    return NULL;
  /* TRANSLATORS: a parameter left empty takes the model's setting, e.g.
   * "QSS2 (model default)" */
  return g_strdup_printf (_("%s (model default)"), value);
}

static void
update_placeholder (Field *field)
{
  g_autofree char *text = NULL;

  if (field->role != ROLE_PARAM)
    return;
  if (field->spec->flags & QD_PARAM_INHERIT)
    text = model_default_text (field->self, field->arg);
  else
    text = g_strdup (field->spec->default_value);

  if (field->kind == WIDGET_ENTRY)
    gtk_entry_set_placeholder_text (GTK_ENTRY (field->editor), text);
  else if (field->kind == WIDGET_DROPDOWN && field->inherit && text != NULL)
    {
      GtkStringList *list = GTK_STRING_LIST (gtk_drop_down_get_model (GTK_DROP_DOWN (field->editor)));
      const char *first = gtk_string_list_get_string (list, 0);
      const char *items[] = { text, NULL };
      guint selected = gtk_drop_down_get_selected (GTK_DROP_DOWN (field->editor));

      if (g_strcmp0 (first, text) == 0)
        return;
      /* Replacing the item would move the selection: keep it. */
      field->self->refreshing = TRUE;
      gtk_string_list_splice (list, 0, 1, items);
      gtk_drop_down_set_selected (GTK_DROP_DOWN (field->editor), selected);
      field->self->refreshing = FALSE;
    }
}

static void
build_param_field (QdInspector       *self,
                   const QdParamSpec *spec)
{
  WidgetKind kind;
  Field *field;
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);

  switch (spec->kind)
    {
    case QD_PARAM_BOOLEAN:
      kind = WIDGET_SWITCH;
      break;
    case QD_PARAM_CHOICE:
      kind = spec->choices != NULL ? WIDGET_DROPDOWN : WIDGET_ENTRY;
      break;
    case QD_PARAM_STRING:
      kind = spec->flags & QD_PARAM_SCRIPT ? WIDGET_TEXT : WIDGET_ENTRY;
      break;
    case QD_PARAM_NUMBER:
    case QD_PARAM_INTEGER:
    case QD_PARAM_VECTOR:
    case QD_PARAM_FUNCTION:
    default:
      kind = WIDGET_ENTRY;
      break;
    }

  field = field_new (self, spec->name, ROLE_PARAM, kind, spec->name);
  field->spec = spec;
  if (kind == WIDGET_DROPDOWN)
    {
      field->values = g_ptr_array_new_with_free_func (g_free);
      if (spec->flags & QD_PARAM_INHERIT)
        {
          /* First the way back to the model's setting. */
          field->inherit = TRUE;
          g_ptr_array_add (field->values, g_strdup (""));
          g_ptr_array_add (labels, model_default_text (self, spec->name));
        }
      for (guint i = 0; spec->choices[i] != NULL; i++)
        {
          g_ptr_array_add (field->values, g_strdup (spec->choices[i]));
          g_ptr_array_add (labels, g_strdup (spec->choices[i]));
        }
    }
  g_ptr_array_add (labels, NULL);
  field_create_editor (field, (const char *const *) labels->pdata);
  attach_field (self, field, _(spec->label), spec->unit,
                spec->doc != NULL ? _(spec->doc) : NULL);
  if (qd_inspector_vector_applies (current_block (self), spec))
    {
      field->summary = qd_inspector_vector_summary_new ();
      gtk_grid_attach (self->form, field->summary, 1, self->row++, 2, 1);
    }
  update_placeholder (field);
  if (field_is_script (field) && current_block (self) != NULL)
    {
      guint n_in = 0, n_out = 0;

      if (qd_block_count_ports (current_block (self), &n_in, &n_out, NULL))
        qd_script_editor_set_ports (QD_SCRIPT_EDITOR (field->editor), n_in, n_out);
    }
}

typedef struct
{
  double       number;
  guint        order;
  const char  *text;
  const char  *name;
} PortEntry;

static int
compare_ports (gconstpointer a,
               gconstpointer b)
{
  const PortEntry *pa = a, *pb = b;

  if (pa->number != pb->number)
    return pa->number < pb->number ? -1 : 1;
  return pa->order < pb->order ? -1 : pa->order > pb->order;
}

/* The ports of subsystem @block as its Inport (or Outport) blocks make
 * them, in port order: "1 In 1, 2 In 2", or NULL when it has none. Sets
 * @duplicate to a port number two of them share (a mistake: the
 * subsystem would show a port that leads nowhere), or NULL. */
static char *
dup_port_summary (const QdBlock  *block,
                  const char     *port_type,
                  char          **duplicate)
{
  g_autoptr(GArray) ports = g_array_new (FALSE, FALSE, sizeof (PortEntry));
  GString *text;

  *duplicate = NULL;
  for (guint i = 0; i < block->inner->blocks->len; i++)
    {
      const QdBlock *inner = g_ptr_array_index (block->inner->blocks, i);
      PortEntry entry = { 0, i, qd_block_get_param (inner, "port"), inner->name };

      if (g_strcmp0 (inner->type, port_type) != 0)
        continue;
      if (entry.text == NULL || entry.text[0] == '\0')
        entry.text = "1";
      entry.number = g_ascii_strtod (entry.text, NULL);
      g_array_append_val (ports, entry);
    }
  if (ports->len == 0)
    return NULL;
  g_array_sort (ports, compare_ports);
  text = g_string_new (NULL);
  for (guint i = 0; i < ports->len; i++)
    {
      const PortEntry *entry = &g_array_index (ports, PortEntry, i);

      if (i > 0)
        g_string_append (text, ", ");
      g_string_append_printf (text, "%s %s", entry->text, entry->name);
      if (i > 0 && *duplicate == NULL &&
          g_array_index (ports, PortEntry, i - 1).number == entry->number)
        *duplicate = g_strdup (entry->text);
    }
  return g_string_free (text, FALSE);
}

static void
on_open_subsystem_clicked (GtkButton   *button,
                           QdInspector *self)
{
  /* The window shows the subsystem (the inspector has no canvas). */
  gtk_widget_activate_action (GTK_WIDGET (self), "win.open-subsystem", NULL);
}

/* What a subsystem has instead of parameters: the ports its Inport and
 * Outport blocks make, which are edited inside it. */
static void
build_subsystem_ports (QdInspector *self,
                       QdBlock     *block)
{
  static const struct
  {
    const char *type;
    const char *label;
  } kinds[] = {
    { QD_TYPE_INPORT, N_("Inputs") },
    { QD_TYPE_OUTPORT, N_("Outputs") },
  };
  GtkWidget *button, *hint;

  add_section (self, _("Ports"));
  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      g_autofree char *duplicate = NULL;
      g_autofree char *summary = dup_port_summary (block, kinds[k].type, &duplicate);
      GtkWidget *label = gtk_label_new (_(kinds[k].label));
      GtkWidget *value = gtk_label_new (summary != NULL ? summary : _("none"));

      gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
      gtk_label_set_xalign (GTK_LABEL (value), 0.0f);
      gtk_label_set_wrap (GTK_LABEL (value), TRUE);
      gtk_label_set_selectable (GTK_LABEL (value), TRUE);
      gtk_widget_set_focusable (value, FALSE);
      gtk_widget_set_hexpand (value, TRUE);
      gtk_widget_set_name (value, kinds[k].type);
      gtk_grid_attach (self->form, label, 0, self->row, 1, 1);
      gtk_grid_attach (self->form, value, 1, self->row++, 2, 1);
      if (duplicate != NULL)
        {
          g_autofree char *text = NULL;

          if (k == 0)
            text = g_strdup_printf (_("Two Inports are numbered %s: give each "
                                      "input its own number"), duplicate);
          else
            text = g_strdup_printf (_("Two Outports are numbered %s: give each "
                                      "output its own number"), duplicate);
          GtkWidget *error = new_error_label ();

          gtk_label_set_text (GTK_LABEL (error), text);
          gtk_widget_set_visible (error, TRUE);
          gtk_grid_attach (self->form, error, 1, self->row++, 2, 1);
        }
    }
  hint = gtk_label_new (_("Add Inport and Outport blocks inside the subsystem "
                          "to give it inputs and outputs."));
  gtk_label_set_xalign (GTK_LABEL (hint), 0.0f);
  gtk_label_set_wrap (GTK_LABEL (hint), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (hint), 40);
  gtk_widget_add_css_class (hint, "dim-label");
  gtk_grid_attach (self->form, hint, 0, self->row++, 3, 1);
  button = gtk_button_new_with_mnemonic (_("_Open Subsystem"));
  gtk_widget_set_halign (button, GTK_ALIGN_START);
  gtk_widget_set_margin_top (button, 6);
  g_signal_connect (button, "clicked", G_CALLBACK (on_open_subsystem_clicked), self);
  gtk_grid_attach (self->form, button, 0, self->row++, 3, 1);
}

/* A masked subsystem's own parameters, set here as a block's are. */
static void
build_mask_fields (QdInspector  *self,
                   const QdMask *mask)
{
  if (mask->params->len == 0)
    return;
  add_section (self, _("Mask Parameters"));
  for (guint i = 0; i < mask->params->len; i++)
    {
      const QdMaskParam *param = g_ptr_array_index (mask->params, i);
      g_autofree char *key = g_strconcat ("mask:", param->name, NULL);
      Field *field = field_new (self, key, ROLE_MASK_VALUE, WIDGET_ENTRY, param->name);

      field_create_editor (field, NULL);
      gtk_entry_set_placeholder_text (GTK_ENTRY (field->editor), param->default_value);
      attach_field (self, field, param->name, NULL, param->description);
    }
}

static void
build_block_form (QdInspector *self,
                  QdBlock     *block)
{
  const QdBlockType *type = qd_block_get_type_info (block);
  Field *field;

  if (type != NULL)
    {
      gtk_label_set_text (self->heading, _(type->name));
      gtk_label_set_text (self->doc_label, type->doc != NULL ? _(type->doc) : "");
    }
  else
    {
      g_autofree char *text = g_strdup_printf (_("Unknown block type “%s”"), block->type);

      gtk_label_set_text (self->heading, text);
      gtk_label_set_text (self->doc_label,
                          _("QDevs has no block of this type; replace the "
                            "block or install what provides it."));
    }
  /* A masked subsystem is a block of its own (qd-mask.h). */
  if (qd_block_get_mask (block) != NULL)
    {
      gtk_label_set_text (self->heading, _("Masked Subsystem"));
      gtk_label_set_text (self->doc_label,
                          _("A subsystem with parameters of its own, which the "
                            "blocks inside use in their expressions. Right-click "
                            "it for Edit Mask… and Look Under Mask."));
    }
  gtk_widget_set_visible (GTK_WIDGET (self->doc_label), TRUE);

  field = field_new (self, "name", ROLE_NAME, WIDGET_ENTRY, NULL);
  field_create_editor (field, NULL);
  attach_field (self, field, _("Name"), NULL, _("The block’s name, unique in its system"));

  if (qd_block_get_mask (block) != NULL)
    build_mask_fields (self, qd_block_get_mask (block));
  if (block->inner != NULL)
    build_subsystem_ports (self, block);
  if (type == NULL || type->n_params == 0)
    return;
  add_section (self, _("Parameters"));
  for (guint i = 0; i < type->n_params; i++)
    build_param_field (self, &type->params[i]);
}

static void
on_remove_variable (GtkButton   *button,
                    QdInspector *self)
{
  const char *name = g_object_get_data (G_OBJECT (button), "qd-variable");
  g_autoptr(GError) error = NULL;

  if (self->document == NULL || name == NULL)
    return;
  if (!qd_document_set_variable (self->document, name, NULL, &error))
    g_warning ("%s", error->message);
}

static void
on_add_variable (GtkButton   *button,
                 QdInspector *self)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *name = g_strdup ("k");
  Field *field;

  if (self->document == NULL)
    return;
  for (guint i = 2; qd_document_get_variable (self->document, name) != NULL; i++)
    {
      g_free (name);
      name = g_strdup_printf ("k%u", i);
    }
  if (!qd_document_set_variable (self->document, name, "1", &error))
    {
      g_warning ("%s", error->message);
      return;
    }
  /* The form is rebuilt by now: go on with the new variable's name. */
  {
    g_autofree char *key = g_strconcat ("varname:", name, NULL);

    field = g_hash_table_lookup (self->fields, key);
    if (field != NULL)
      gtk_widget_grab_focus (field->editor);
  }
}

static void
build_variable_row (QdInspector      *self,
                    const QdVariable *variable)
{
  g_autofree char *name_key = g_strconcat ("varname:", variable->name, NULL);
  g_autofree char *value_key = g_strconcat ("var:", variable->name, NULL);
  Field *name_field = field_new (self, name_key, ROLE_VAR_NAME, WIDGET_ENTRY, variable->name);
  Field *value_field = field_new (self, value_key, ROLE_VAR_VALUE, WIDGET_ENTRY, variable->name);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *equals = gtk_label_new ("=");
  GtkWidget *remove = gtk_button_new_from_icon_name ("list-remove-symbolic");
  g_autofree char *tooltip = NULL;

  field_create_editor (name_field, NULL);
  field_create_editor (value_field, NULL);
  gtk_widget_set_hexpand (name_field->editor, FALSE);
  gtk_editable_set_width_chars (GTK_EDITABLE (name_field->editor), 5);
  gtk_widget_set_size_request (name_field->editor, 50, -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (name_field->editor),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Variable name"), -1);
  gtk_accessible_update_property (GTK_ACCESSIBLE (value_field->editor),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Variable value"), -1);
  gtk_widget_set_tooltip_text (value_field->editor,
                               _("An expression; it may use the variables above it"));
  gtk_widget_add_css_class (remove, "flat");
  tooltip = g_strdup_printf (_("Remove the variable “%s”"), variable->name);
  gtk_widget_set_tooltip_text (remove, tooltip);
  g_object_set_data_full (G_OBJECT (remove), "qd-variable",
                          g_strdup (variable->name), g_free);
  g_signal_connect (remove, "clicked", G_CALLBACK (on_remove_variable), self);

  gtk_box_append (GTK_BOX (box), equals);
  gtk_box_append (GTK_BOX (box), value_field->editor);
  gtk_grid_attach (self->form, name_field->editor, 0, self->row, 1, 1);
  gtk_grid_attach (self->form, box, 1, self->row, 1, 1);
  gtk_grid_attach (self->form, remove, 2, self->row++, 1, 1);
  gtk_grid_attach (self->form, name_field->error_label, 0, self->row++, 3, 1);
  gtk_grid_attach (self->form, value_field->error_label, 0, self->row++, 3, 1);
  register_field (self, name_field);
  register_field (self, value_field);
}

static void
build_setting (QdInspector *self,
               const char  *key,
               const char  *label,
               const char  *unit,
               const char  *doc)
{
  Field *field = field_new (self, key, ROLE_SETTING, WIDGET_ENTRY, key);

  field_create_editor (field, NULL);
  attach_field (self, field, label, unit, doc);
}

/* The solver family and a classic solver's options (qd-classic.h). */
static void
build_solver_settings (QdInspector *self)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  const QdClassicMethod *methods;
  guint n_methods;
  Field *field;

  methods = qd_classic_methods (&n_methods);
  g_ptr_array_add (names, (gpointer) "qss");
  for (guint i = 0; i < n_methods; i++)
    g_ptr_array_add (names, (gpointer) methods[i].name);
  g_ptr_array_add (names, NULL);
  add_section (self, _("Solver"));
  field = field_new (self, "solver", ROLE_SETTING, WIDGET_DROPDOWN, "solver");
  field->values = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i + 1 < names->len; i++)
    g_ptr_array_add (field->values, g_strdup (g_ptr_array_index (names, i)));
  field_create_editor (field, (const char *const *) names->pdata);
  attach_field (self, field, _("Solver"), NULL,
                _("qss: each integrator runs its quantized-state method. "
                  "The others are classic ODE solvers (SUNDIALS CVODE and "
                  "ARKODE) that advance all integrators together; the "
                  "options below are theirs"));
  build_setting (self, "rtol", _("Relative tolerance"), NULL, NULL);
  build_setting (self, "atol", _("Absolute tolerance"), NULL, NULL);
  build_setting (self, "max_step", _("Maximum step"), "s",
                 _("0 for no limit"));
  build_setting (self, "h", _("Fixed step"), "s",
                 _("A Runge-Kutta method's step; 0 for adaptive steps "
                   "(rk4 needs one, the CVODE methods take none)"));
}

static void
build_model_form (QdInspector *self)
{
  const QdParamSpec *method = qd_registry_find_setting_param ("method");
  GPtrArray *variables = qd_document_get_variables (self->document);
  GtkWidget *add;
  Field *field;

  gtk_label_set_text (self->heading, _("Model"));
  gtk_label_set_text (self->doc_label,
                      _("The settings and variables of the whole diagram. "
                        "Select a block to edit its parameters."));
  gtk_widget_set_visible (GTK_WIDGET (self->doc_label), TRUE);

  field = field_new (self, "title", ROLE_TITLE, WIDGET_ENTRY, NULL);
  field_create_editor (field, NULL);
  attach_field (self, field, _("Title"), NULL, NULL);

  field = field_new (self, "description", ROLE_DESCRIPTION, WIDGET_TEXT, NULL);
  field_create_editor (field, NULL);
  attach_field (self, field, _("Description"), NULL, NULL);

  add_section (self, _("Variables"));
  for (guint i = 0; variables != NULL && i < variables->len; i++)
    build_variable_row (self, g_ptr_array_index (variables, i));
  if (variables == NULL || variables->len == 0)
    {
      GtkWidget *none = gtk_label_new (_("No variables yet. A variable names "
                                         "a value that block parameters can "
                                         "use, like “k” in “2*k”."));

      gtk_label_set_xalign (GTK_LABEL (none), 0.0f);
      gtk_label_set_wrap (GTK_LABEL (none), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (none), 30);
      gtk_widget_add_css_class (none, "dim-label");
      gtk_widget_add_css_class (none, "qd-inspector-doc");
      gtk_grid_attach (self->form, none, 0, self->row++, 3, 1);
    }
  add = gtk_button_new_with_mnemonic (_("_Add Variable"));
  gtk_widget_set_halign (add, GTK_ALIGN_START);
  gtk_widget_set_tooltip_text (add, _("Variables can be used in the "
                                      "parameters of every block"));
  g_signal_connect (add, "clicked", G_CALLBACK (on_add_variable), self);
  gtk_grid_attach (self->form, add, 0, self->row++, 3, 1);

  add_section (self, _("Simulation"));
  build_setting (self, "start_time", _("Start time"), "s", NULL);
  build_setting (self, "final_time", _("Final time"), "s", NULL);
  if (method != NULL && method->choices != NULL)
    {
      const char *const *choices = method->choices;

      field = field_new (self, "method", ROLE_SETTING, WIDGET_DROPDOWN, "method");
      field->values = g_ptr_array_new_with_free_func (g_free);
      for (guint i = 0; choices[i] != NULL; i++)
        g_ptr_array_add (field->values, g_strdup (choices[i]));
      field_create_editor (field, choices);
      attach_field (self, field, _("Method"), NULL,
                    _("The integration method of every integrator that "
                      "does not choose its own"));
    }
  else
    build_setting (self, "method", _("Method"), NULL, NULL);
  build_setting (self, "dqmin", _("Absolute quantum"), NULL,
                 _("The default smallest quantum of the integrators"));
  build_setting (self, "dqrel", _("Relative quantum"), NULL,
                 _("The default quantum relative to |x|"));
  build_setting (self, "illegitimacy_limit", _("Illegitimacy limit"), NULL,
                 _("How many transitions may happen without time advancing "
                   "before the run stops as illegitimate (Zeno)"));
  build_solver_settings (self);
}

/* A text that changes exactly when the form must be rebuilt. */
static char *
compute_shape (QdInspector *self)
{
  GString *shape = g_string_new (NULL);
  QdBlock *block;

  if (self->document == NULL)
    return g_string_free (shape, FALSE);
  if (self->n_selected > 1)
    {
      g_string_printf (shape, "multi:%u", self->n_selected);
      return g_string_free (shape, FALSE);
    }
  block = current_block (self);
  if (block != NULL)
    g_string_printf (shape, "block:%s:%s", block->id, block->type);
  /* A subsystem's form lists its mask's parameters and its ports: it
   * follows them. */
  if (qd_block_get_mask (block) != NULL)
    {
      const QdMask *mask = qd_block_get_mask (block);

      for (guint i = 0; i < mask->params->len; i++)
        {
          const QdMaskParam *param = g_ptr_array_index (mask->params, i);

          g_string_append_printf (shape, "|mask:%s=%s:%s", param->name,
                                  param->default_value, param->description);
        }
    }
  if (block != NULL && block->inner != NULL)
    for (guint k = 0; k < 2; k++)
      {
        g_autofree char *duplicate = NULL;
        g_autofree char *summary = dup_port_summary (block, k == 0 ? QD_TYPE_INPORT
                                                                   : QD_TYPE_OUTPORT,
                                                     &duplicate);

        g_string_append_printf (shape, "|%s|%s", summary != NULL ? summary : "",
                                duplicate != NULL ? duplicate : "");
      }
  else
    {
      GPtrArray *variables = qd_document_get_variables (self->document);

      g_string_append (shape, "model");
      for (guint i = 0; variables != NULL && i < variables->len; i++)
        {
          const QdVariable *variable = g_ptr_array_index (variables, i);

          g_string_append_printf (shape, ":%s", variable->name);
        }
    }
  return g_string_free (shape, FALSE);
}

static gboolean
restore_focus (gpointer data)
{
  QdInspector *self = data;
  g_autofree char *key = g_steal_pointer (&self->focus_key);
  Field *field = key != NULL ? g_hash_table_lookup (self->fields, key) : NULL;

  if (field != NULL)
    gtk_widget_grab_focus (field->editor);
  return G_SOURCE_REMOVE;
}

static void
rebuild (QdInspector *self)
{
  QdBlock *block = current_block (self);
  g_autofree char *focus_key = g_steal_pointer (&self->focus_key);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  g_clear_handle_id (&self->rebuild_id, g_source_remove);

  /* The field being edited keeps the focus across a rebuild. */
  for (guint i = 0; focus_key == NULL && focus != NULL && i < self->order->len; i++)
    {
      Field *field = g_ptr_array_index (self->order, i);

      if (focus == field->editor || gtk_widget_is_ancestor (focus, field->editor))
        focus_key = g_strdup (field->key);
    }

  form_clear (self);
  g_free (self->shape);
  self->shape = compute_shape (self);

  if (self->document == NULL)
    {
      gtk_label_set_text (self->heading, _("No Diagram"));
      gtk_label_set_text (self->doc_label, _("Open a diagram to inspect it."));
      return;
    }
  if (self->n_selected > 1)
    {
      g_autofree char *text = g_strdup_printf (ngettext ("%u Block Selected",
                                                         "%u Blocks Selected",
                                                         self->n_selected),
                                               self->n_selected);

      gtk_label_set_text (self->heading, text);
      gtk_label_set_text (self->doc_label,
                          _("Select a single block to edit its parameters, or "
                            "none to edit the model."));
      return;
    }
  if (block != NULL)
    build_block_form (self, block);
  else
    build_model_form (self);
  refresh (self);

  if (focus_key != NULL && g_hash_table_contains (self->fields, focus_key))
    {
      /* Later: a rebuild from a focus change (Tab out of a renamed
       * variable) would otherwise be undone by the rest of that change. */
      self->focus_key = g_steal_pointer (&focus_key);
      g_idle_add_full (G_PRIORITY_HIGH_IDLE, restore_focus, g_object_ref (self),
                       g_object_unref);
    }
}

/* Sets every field from the document, except one being typed into. */
static void
refresh (QdInspector *self)
{
  self->refreshing = TRUE;
  for (guint i = 0; i < self->order->len; i++)
    {
      Field *field = g_ptr_array_index (self->order, i);
      g_autofree char *text = NULL;

      if (field->dirty && gtk_widget_has_focus (field->editor))
        continue;
      text = field_document_text (field);
      field_set_text (field, text);
      field->dirty = FALSE;
      update_placeholder (field);
      /* What the document holds may be wrong too (a variable it used was
       * removed, a file written by hand): say so where it shows. */
      {
        g_autoptr(GError) error = NULL;

        if (((text != NULL && text[0] != '\0') || field->summary != NULL)
            && field->kind == WIDGET_ENTRY
            && !field_check (field, text != NULL ? text : "", &error))
          field_show_error (field, error->message);
        else
          field_show_error (field, NULL);
      }
    }
  self->refreshing = FALSE;
}

static gboolean
rebuild_later (gpointer data)
{
  QdInspector *self = data;
  g_autofree char *shape = compute_shape (self);

  self->rebuild_id = 0;
  if (g_strcmp0 (shape, self->shape) != 0)
    rebuild (self);
  return G_SOURCE_REMOVE;
}

static void
on_document_changed (QdDocument  *document,
                     QdInspector *self)
{
  g_autofree char *shape = NULL;

  /* The block may have gone (deleted, or an undo of its creation). */
  if (self->block_id != NULL && current_block (self) == NULL)
    g_clear_pointer (&self->block_id, g_free);

  shape = compute_shape (self);
  if (g_strcmp0 (shape, self->shape) == 0)
    refresh (self);
  else if (!self->focus_moving)
    rebuild (self);
  else if (self->rebuild_id == 0)
    /* Before any input, yet after GTK has finished moving the focus. */
    self->rebuild_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, rebuild_later,
                                        self, NULL);
}

/* The panel asks for the same width whatever it shows (unless a form
 * cannot fit), so that the canvas beside it does not jump when the
 * selection changes. */
#define NATURAL_WIDTH 290

static void
qd_inspector_measure (GtkWidget      *widget,
                      GtkOrientation  orientation,
                      int             for_size,
                      int            *minimum,
                      int            *natural,
                      int            *minimum_baseline,
                      int            *natural_baseline)
{
  QdInspector *self = QD_INSPECTOR (widget);

  gtk_widget_measure (self->scroller, orientation, for_size,
                      minimum, natural, NULL, NULL);
  /* The paned beside gives the panel its minimum: make that the width. */
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = MAX (*minimum, NATURAL_WIDTH);
      *natural = *minimum;
    }
}

static void
qd_inspector_size_allocate (GtkWidget *widget,
                            int        width,
                            int        height,
                            int        baseline)
{
  QdInspector *self = QD_INSPECTOR (widget);

  gtk_widget_allocate (self->scroller, width, height, baseline, NULL);
}

static void
qd_inspector_dispose (GObject *object)
{
  QdInspector *self = QD_INSPECTOR (object);

  g_clear_handle_id (&self->rebuild_id, g_source_remove);
  if (self->document != NULL)
    g_clear_signal_handler (&self->changed_id, self->document);
  g_clear_object (&self->document);
  if (self->order != NULL)
    for (guint i = 0; i < self->order->len; i++)
      ((Field *) g_ptr_array_index (self->order, i))->dead = TRUE;
  g_clear_weak_pointer (&self->extra);
  gtk_widget_dispose_template (GTK_WIDGET (self), QD_TYPE_INSPECTOR);

  G_OBJECT_CLASS (qd_inspector_parent_class)->dispose (object);
}

static void
qd_inspector_finalize (GObject *object)
{
  QdInspector *self = QD_INSPECTOR (object);

  g_free (self->block_id);
  g_free (self->shape);
  g_free (self->focus_key);
  g_hash_table_unref (self->fields);
  g_ptr_array_unref (self->order);

  G_OBJECT_CLASS (qd_inspector_parent_class)->finalize (object);
}

static void
qd_inspector_class_init (QdInspectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = qd_inspector_dispose;
  object_class->finalize = qd_inspector_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/qdevs/Qdevs/ui/qd-inspector.ui");
  gtk_widget_class_bind_template_child (widget_class, QdInspector, scroller);
  gtk_widget_class_bind_template_child (widget_class, QdInspector, heading);
  gtk_widget_class_bind_template_child (widget_class, QdInspector, doc_label);
  gtk_widget_class_bind_template_child (widget_class, QdInspector, form);
  widget_class->measure = qd_inspector_measure;
  widget_class->size_allocate = qd_inspector_size_allocate;
  gtk_widget_class_set_css_name (widget_class, "qd-inspector");

  /**
   * QdInspector::notice:
   * @text: a sentence for the user
   *
   * An edit did more than its field shows (a port count lowered removed
   * links); the window shows @text in its message bar.
   */
  signals[NOTICE] = g_signal_new ("notice", G_TYPE_FROM_CLASS (klass),
                                  G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                  G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
qd_inspector_init (QdInspector *self)
{
  self->fields = g_hash_table_new (g_str_hash, g_str_equal);
  self->order = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  rebuild (self);
}

GtkWidget *
qd_inspector_new (void)
{
  return g_object_new (QD_TYPE_INSPECTOR, NULL);
}

void
qd_inspector_set_document (QdInspector *self,
                           QdDocument  *document)
{
  g_return_if_fail (QD_IS_INSPECTOR (self));
  g_return_if_fail (document == NULL || QD_IS_DOCUMENT (document));

  if (self->document == document)
    return;
  if (self->document != NULL)
    g_clear_signal_handler (&self->changed_id, self->document);
  g_set_object (&self->document, document);
  if (document != NULL)
    self->changed_id = g_signal_connect (document, "changed",
                                         G_CALLBACK (on_document_changed), self);
  g_clear_pointer (&self->block_id, g_free);
  self->n_selected = 0;
  rebuild (self);
}

QdDocument *
qd_inspector_get_document (QdInspector *self)
{
  g_return_val_if_fail (QD_IS_INSPECTOR (self), NULL);

  return self->document;
}

void
qd_inspector_set_block (QdInspector *self,
                        QdBlock     *block)
{
  g_return_if_fail (QD_IS_INSPECTOR (self));

  if (block != NULL && block == current_block (self) && self->n_selected <= 1)
    return;
  g_free (self->block_id);
  self->block_id = block != NULL ? g_strdup (block->id) : NULL;
  self->n_selected = block != NULL ? 1 : 0;
  rebuild (self);
}

void
qd_inspector_set_selection (QdInspector *self,
                            GPtrArray   *blocks)
{
  guint n = blocks != NULL ? blocks->len : 0;

  g_return_if_fail (QD_IS_INSPECTOR (self));

  if (n <= 1)
    {
      qd_inspector_set_block (self, n == 1 ? g_ptr_array_index (blocks, 0) : NULL);
      return;
    }
  g_clear_pointer (&self->block_id, g_free);
  self->n_selected = n;
  rebuild (self);
}

QdBlock *
qd_inspector_get_block (QdInspector *self)
{
  g_return_val_if_fail (QD_IS_INSPECTOR (self), NULL);

  return current_block (self);
}

GtkWidget *
qd_inspector_get_field (QdInspector *self,
                        const char  *key)
{
  Field *field;

  g_return_val_if_fail (QD_IS_INSPECTOR (self), NULL);

  field = g_hash_table_lookup (self->fields, key);
  return field != NULL ? field->editor : NULL;
}

const char *
qd_inspector_get_error (QdInspector *self,
                        const char  *key)
{
  Field *field;

  g_return_val_if_fail (QD_IS_INSPECTOR (self), NULL);

  field = g_hash_table_lookup (self->fields, key);
  if (field == NULL || !gtk_widget_get_visible (field->error_label))
    return NULL;
  return gtk_label_get_text (GTK_LABEL (field->error_label));
}

const char *
qd_inspector_get_summary (QdInspector *self,
                          const char  *key)
{
  Field *field;

  g_return_val_if_fail (QD_IS_INSPECTOR (self), NULL);

  field = g_hash_table_lookup (self->fields, key);
  if (field == NULL || field->summary == NULL
      || !gtk_widget_get_visible (field->summary))
    return NULL;
  return gtk_label_get_text (GTK_LABEL (field->summary));
}

guint
qd_inspector_get_n_fields (QdInspector *self)
{
  g_return_val_if_fail (QD_IS_INSPECTOR (self), 0);

  return self->order->len;
}

/* The model's form is taller than most panels: a field reached from the
 * canvas must be seen, not only focused. */
static void
scroll_to_field (QdInspector *self,
                 Field       *field)
{
  GtkAdjustment *adjustment;
  GtkWidget *content = gtk_widget_get_parent (GTK_WIDGET (self->form));
  graphene_rect_t bounds;
  double top, bottom, value, page;

  if (content == NULL || !gtk_widget_compute_bounds (field->container, content, &bounds))
    return;
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (self->scroller));
  value = gtk_adjustment_get_value (adjustment);
  page = gtk_adjustment_get_page_size (adjustment);
  top = bounds.origin.y;
  bottom = top + bounds.size.height;
  if (top < value)
    gtk_adjustment_set_value (adjustment, top);
  else if (bottom > value + page)
    gtk_adjustment_set_value (adjustment, bottom - page);
}

gboolean
qd_inspector_focus_field (QdInspector *self,
                          const char  *key)
{
  Field *field = NULL;

  g_return_val_if_fail (QD_IS_INSPECTOR (self), FALSE);

  if (key != NULL)
    field = g_hash_table_lookup (self->fields, key);
  else if (self->order->len > 0)
    {
      /* A block's name comes first, but what one opens a block for is
       * its parameters, as a double-click in other block-diagram tools
       * opens the parameter dialog. */
      field = g_ptr_array_index (self->order, 0);
      if (field->role == ROLE_NAME && self->order->len > 1)
        field = g_ptr_array_index (self->order, 1);
    }
  if (field == NULL || !gtk_widget_grab_focus (field->editor))
    return FALSE;
  if (GTK_IS_EDITABLE (field->editor))
    gtk_editable_select_region (GTK_EDITABLE (field->editor), 0, -1);
  scroll_to_field (self, field);
  return TRUE;
}

gboolean
qd_inspector_focus_script_line (QdInspector *self,
                                const char  *message)
{
  const char *at = message != NULL ? strstr (message, "script line ") : NULL;
  int line;

  g_return_val_if_fail (QD_IS_INSPECTOR (self), FALSE);

  if (at == NULL || (line = atoi (at + strlen ("script line "))) <= 0)
    return FALSE;
  for (guint i = 0; i < self->order->len; i++)
    {
      Field *field = g_ptr_array_index (self->order, i);

      if (!field_is_script (field))
        continue;
      gtk_widget_grab_focus (field->editor);
      qd_script_editor_show_error (QD_SCRIPT_EDITOR (field->editor), line, at);
      scroll_to_field (self, field);
      return TRUE;
    }
  return FALSE;
}

void
qd_inspector_set_extra (QdInspector *self,
                        GtkWidget   *extra)
{
  GtkWidget *content;

  g_return_if_fail (QD_IS_INSPECTOR (self));
  g_return_if_fail (extra == NULL || GTK_IS_WIDGET (extra));

  content = gtk_widget_get_parent (GTK_WIDGET (self->form));
  if (self->extra == extra || content == NULL)
    return;
  if (self->extra != NULL)
    gtk_box_remove (GTK_BOX (content), self->extra);
  g_clear_weak_pointer (&self->extra);
  if (extra != NULL)
    {
      gtk_box_append (GTK_BOX (content), extra);
      g_set_weak_pointer (&self->extra, extra);
    }
}

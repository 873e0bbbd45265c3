/* qd-document-settings.c: a document's settings, variables, title and
 * description
 *
 * The simulation settings and their defaults, the model variables, and
 * the commands that change them, the title and the description.
 */
#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#include "qd-document-private.h"
#include "qd-classic.h"
#include "qd-expr.h"
#include "qd-registry.h"

/* The first method the integrators accept (their library lists the
 * default first); none without a library of integrators. */
static const char *
default_method (void)
{
  const QdParamSpec *spec = qd_registry_find_setting_param ("method");

  if (spec != NULL && spec->kind == QD_PARAM_CHOICE && spec->choices != NULL
      && spec->choices[0] != NULL)
    return spec->choices[0];
  return "";
}

void
qd_document_init_settings (QdSettings *settings)
{
  g_return_if_fail (settings != NULL);

  settings->start_time = 0.0;
  settings->final_time = 10.0;
  settings->method = g_strdup (default_method ());
  settings->dqmin = 1e-6;
  settings->dqrel = 1e-3;
  settings->illegitimacy_limit = 1000000;
  settings->solver = g_strdup ("qss");
  settings->rtol = 1e-6;
  settings->atol = 1e-8;
  settings->max_step = 0.0;
  settings->h = 0.0;
}

void
qd_settings_clear (QdSettings *settings)
{
  g_return_if_fail (settings != NULL);

  g_clear_pointer (&settings->method, g_free);
  g_clear_pointer (&settings->solver, g_free);
}

void
qd_settings_copy (QdSettings       *dst,
               const QdSettings *src)
{
  char *method = g_strdup (src->method);
  char *solver = g_strdup (src->solver != NULL ? src->solver : "qss");

  g_free (dst->method);
  g_free (dst->solver);
  *dst = *src;
  dst->method = method;
  dst->solver = solver;
}

void
qd_document_variable_free (gpointer data)
{
  QdVariable *variable = data;

  g_free (variable->name);
  g_free (variable->value);
  g_free (variable);
}

static int
find_variable (QdDocument *self,
               const char *name)
{
  for (guint i = 0; i < self->variables->len; i++)
    {
      QdVariable *variable = g_ptr_array_index (self->variables, i);

      if (strcmp (variable->name, name) == 0)
        return (int) i;
    }
  return -1;
}

const char *
qd_document_get_variable (QdDocument *self,
                          const char *name)
{
  int index;

  g_return_val_if_fail (QD_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  index = find_variable (self, name);
  if (index < 0)
    return NULL;
  return ((QdVariable *) g_ptr_array_index (self->variables, index))->value;
}

/* Commands: the model */

gboolean
qd_document_set_variable (QdDocument  *self,
                          const char  *name,
                          const char  *value,
                          GError     **error)
{
  VariableEdit *edit;
  QdVariable *variable = NULL;
  int index;

  g_return_val_if_fail (QD_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  index = find_variable (self, name);
  if (index >= 0)
    variable = g_ptr_array_index (self->variables, index);

  if (value != NULL)
    {
      GError *local = NULL;
      QdExpr *expr;

      if (!qd_expr_is_valid_name (name))
        {
          g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                       _("variable '%s': not a valid name; use letters, digits "
                         "and '_', starting with a letter, and no function "
                         "or constant name"),
                       name);
          return FALSE;
        }
      expr = qd_expr_parse (value, &local);
      if (expr == NULL)
        {
          if (local == NULL)
            local = g_error_new (QD_ERROR, QD_ERROR_SYNTAX,
                                 _("'%s' is not an expression"), value);
          g_propagate_prefixed_error (error, local, _("variable '%s': "), name);
          return FALSE;
        }
      qd_expr_free (expr);
    }

  if (variable == NULL && value == NULL)
    return TRUE;
  if (variable != NULL && g_strcmp0 (variable->value, value) == 0)
    return TRUE;

  edit = g_new0 (VariableEdit, 1);
  edit->base.klass = &qd_variable_edit_class;
  edit->name = g_strdup (name);
  edit->index = index >= 0 ? (guint) index : self->variables->len;
  edit->before = variable != NULL ? g_strdup (variable->value) : NULL;
  edit->after = g_strdup (value);

  qd_document_begin (self, value != NULL ? _("Set Variable") : _("Remove Variable"));
  qd_document_record (self, &edit->base);
  qd_document_end (self);
  return TRUE;
}

/* The methods the integrators accept, when the library says which. */
static gboolean
method_is_known (const char  *method,
                 char       **known)
{
  const QdParamSpec *spec = qd_registry_find_setting_param ("method");
  GString *list;

  *known = NULL;
  /* No integrator says which: nothing uses the method. */
  if (spec == NULL || spec->kind != QD_PARAM_CHOICE || spec->choices == NULL)
    return TRUE;

  list = g_string_new (NULL);
  for (guint i = 0; spec->choices[i] != NULL; i++)
    {
      if (strcmp (spec->choices[i], method) == 0)
        {
          g_string_free (list, TRUE);
          return TRUE;
        }
      if (i > 0)
        g_string_append (list, ", ");
      g_string_append (list, spec->choices[i]);
    }
  *known = g_string_free (list, FALSE);
  return FALSE;
}

gboolean
qd_document_set_settings (QdDocument        *self,
                          const QdSettings  *settings,
                          GError           **error)
{
  const QdSettings *old = &self->settings;
  SettingsEdit *edit;
  char *known = NULL;

  g_return_val_if_fail (QD_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (settings != NULL, FALSE);

  if (!isfinite (settings->start_time) || isnan (settings->final_time)
      || settings->final_time <= settings->start_time)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("settings: the final time (%g) must be later than the "
                     "start time (%g)"),
                   settings->final_time, settings->start_time);
      return FALSE;
    }
  if (settings->method == NULL || !method_is_known (settings->method, &known))
    {
      if (known != NULL)
        g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                     _("settings: method '%s' is not one of %s"),
                     settings->method, known);
      else
        g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                     _("settings: the integration method is missing; choose "
                       "one, e.g. QSS1"));
      g_free (known);
      return FALSE;
    }
  if (!(settings->dqmin > 0) || !isfinite (settings->dqmin))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("settings: the absolute quantum dqmin (%g) must be "
                     "positive, e.g. 1e-6"),
                   settings->dqmin);
      return FALSE;
    }
  if (!(settings->dqrel >= 0) || !isfinite (settings->dqrel))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("settings: the relative quantum dqrel (%g) must be zero "
                     "or positive, e.g. 1e-3"),
                   settings->dqrel);
      return FALSE;
    }
  if (settings->illegitimacy_limit == 0)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("settings: the illegitimacy limit must be at least 1"));
      return FALSE;
    }
  if (!qd_classic_check_settings (settings, error))
    return FALSE;

  if (old->start_time == settings->start_time
      && old->final_time == settings->final_time
      && g_strcmp0 (old->method, settings->method) == 0
      && old->dqmin == settings->dqmin
      && old->dqrel == settings->dqrel
      && old->illegitimacy_limit == settings->illegitimacy_limit
      && g_strcmp0 (old->solver, settings->solver != NULL
                                 ? settings->solver : "qss") == 0
      && old->rtol == settings->rtol && old->atol == settings->atol
      && old->max_step == settings->max_step && old->h == settings->h)
    return TRUE;

  edit = g_new0 (SettingsEdit, 1);
  edit->base.klass = &qd_settings_edit_class;
  qd_settings_copy (&edit->before, old);
  qd_settings_copy (&edit->after, settings);

  qd_document_begin (self, _("Change Settings"));
  qd_document_record (self, &edit->base);
  qd_document_end (self);
  return TRUE;
}

static void
set_info (QdDocument *self,
          gboolean    is_title,
          const char *text,
          const char *label)
{
  const char *old = is_title ? self->title : self->description;
  InfoEdit *edit;

  if (text == NULL)
    text = "";
  if (strcmp (old, text) == 0)
    return;

  edit = g_new0 (InfoEdit, 1);
  edit->base.klass = &qd_info_edit_class;
  edit->is_title = is_title;
  edit->before = g_strdup (old);
  edit->after = g_strdup (text);

  qd_document_begin (self, label);
  qd_document_record (self, &edit->base);
  qd_document_end (self);
}

void
qd_document_set_title (QdDocument *self,
                       const char *title)
{
  g_return_if_fail (QD_IS_DOCUMENT (self));

  set_info (self, TRUE, title, _("Change Title"));
}

void
qd_document_set_description (QdDocument *self,
                             const char *description)
{
  g_return_if_fail (QD_IS_DOCUMENT (self));

  set_info (self, FALSE, description, _("Change Description"));
}

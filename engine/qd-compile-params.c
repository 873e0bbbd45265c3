/* qd-compile-params.c: the values a compiled document's blocks get
 *
 * Steps 1 to 3 of the compiler (qd-compile.c): the simulation settings,
 * the model variables after the overrides, and every block's parameters,
 * evaluated with the names its scope sees (the variables, and inside
 * masked subsystems their mask parameters, qd-mask.h) and kept by text
 * and by parameter set for the next blocks that share them.
 */
#include <glib/gi18n-lib.h>
#include <string.h>

#include "qd-classic-private.h"
#include "qd-compile-private.h"
#include "qd-expr.h"
#include "qd-mask-private.h"

/* -------------------------------------------------------------------- */
/* Settings and variables */

/* The solver and its options (qd-classic.h); under a classic solver the
 * simulation gets its driver. */
static void
check_classic_settings (Compiler *c)
{
  g_autoptr(GError) local = NULL;

  if (!qd_classic_check_settings (c->settings, &local))
    {
      /* Its message starts with "settings: ", as the document's does. */
      const char *message = local->message;

      if (g_str_has_prefix (message, "settings: "))
        message += strlen ("settings: ");
      qd_compile_add_problem (c, NULL, QD_ERROR_PARAM, "%s", message);
      return;
    }
  c->sim->classic = qd_classic_new (c->settings);
}

/* A model too large for the classic solver is refused by Check. */
void
qd_compile_check_classic_size (Compiler *c)
{
  g_autoptr(GError) local = NULL;
  guint n_states = 0;

  for (guint i = 0; i < c->sim->n_atomics; i++)
    n_states += c->sim->is_integrator[i] != 0;
  if (!qd_classic_check_size (c->sim->classic, n_states, &local))
    qd_compile_add_problem (c, NULL, QD_ERROR_PARAM, "%s", local->message);
}

void
qd_compile_check_settings (Compiler *c)
{
  const QdSettings *s = c->settings;

  if (!isfinite (s->start_time) || !isfinite (s->final_time))
    qd_compile_add_problem (c, NULL, QD_ERROR_PARAM,
                            _("the start time (%g) and the final time (%g) "
                              "must be finite numbers; change the simulation "
                              "settings"),
                            s->start_time, s->final_time);
  else if (!(s->final_time > s->start_time))
    qd_compile_add_problem (c, NULL, QD_ERROR_PARAM,
                            _("the final time (%g) must be greater than the "
                              "start time (%g); change the simulation "
                              "settings"),
                            s->final_time, s->start_time);
  if (!(s->dqmin >= 0) || !isfinite (s->dqmin))
    qd_compile_add_problem (c, NULL, QD_ERROR_PARAM,
                            _("the default absolute quantum dqmin must be a "
                              "number of at least 0 (it is %g); change the "
                              "simulation settings"),
                            s->dqmin);
  if (!(s->dqrel >= 0) || !isfinite (s->dqrel))
    qd_compile_add_problem (c, NULL, QD_ERROR_PARAM,
                            _("the default relative quantum dqrel must be a "
                              "number of at least 0 (it is %g); change the "
                              "simulation settings"),
                            s->dqrel);
  if (s->illegitimacy_limit == 0)
    qd_compile_add_problem (c, NULL, QD_ERROR_PARAM,
                            _("the illegitimacy limit must be at least 1; "
                              "change the simulation settings"));
  check_classic_settings (c);
}

/* The index of @name in @names (the first of that name), or -1. */
static int
find_name (GPtrArray  *names,
           const char *name)
{
  for (guint i = 0; i < names->len; i++)
    if (strcmp (g_ptr_array_index (names, i), name) == 0)
      return (int) i;
  return -1;
}

static int
find_variable (Compiler   *c,
               const char *name)
{
  return find_name (c->var_names, name);
}

/* TRUE when @expr uses a name of @names that failed (@ok): its own error
 * would only repeat that name's problem. Only the names already
 * evaluated count (a variable may name a later one by mistake: that is
 * its own unknown name). */
static gboolean
uses_failed (GPtrArray    *names,
             GArray       *ok,
             const QdExpr *expr)
{
  guint n;
  const char *const *ids = qd_expr_get_identifiers (expr, &n);

  for (guint i = 0; i < n; i++)
    {
      int k = find_name (names, ids[i]);

      if (k >= 0 && (guint) k < ok->len && !g_array_index (ok, gboolean, k))
        return TRUE;
    }
  return FALSE;
}

static gboolean
uses_failed_variable (Compiler     *c,
                      const QdExpr *expr)
{
  return uses_failed (c->var_names, c->var_ok, expr);
}

/* The same for a block's expression, in its scope (qd-mask.h): the
 * innermost of a name counts. */
static gboolean
uses_failed_name (Compiler     *c,
                  const QdExpr *expr)
{
  return uses_failed (c->scope_names, c->scope_ok, expr);
}

static int
scope_find (Compiler   *c,
            const char *name)
{
  return find_name (c->scope_names, name);
}

/* TRUE when @expr, the value of variable @i, uses variable @i itself or
 * one defined after it (the first such in *@later). */
static gboolean
uses_later_variable (Compiler     *c,
                     const QdExpr *expr,
                     guint         i,
                     int          *later)
{
  guint n;
  const char *const *ids = qd_expr_get_identifiers (expr, &n);

  for (guint k = 0; k < n; k++)
    {
      int v = find_variable (c, ids[k]);

      if (v >= (int) i)
        {
          *later = v;
          return TRUE;
        }
    }
  return FALSE;
}

void
qd_compile_evaluate_variables (Compiler          *c,
                               QdDocument        *document,
                               const char *const *overrides)
{
  GPtrArray *vars = qd_document_get_variables (document);
  GPtrArray *exprs = g_ptr_array_new_with_free_func (g_free);

  /* The list with the overrides applied: a name already defined keeps its
   * place (later variables may use it), a new one goes last. */
  for (guint i = 0; vars != NULL && i < vars->len; i++)
    {
      QdVariable *v = g_ptr_array_index (vars, i);

      g_ptr_array_add (c->var_names, g_strdup (v->name));
      g_ptr_array_add (exprs, g_strdup (v->value != NULL ? v->value : ""));
    }
  for (guint i = 0; overrides != NULL && overrides[i] != NULL; i++)
    {
      const char *eq = strchr (overrides[i], '=');
      char *name;
      int k;

      if (eq == NULL)
        {
          qd_compile_add_problem (c, NULL, QD_ERROR_PARAM,
                                  _("override '%s': expected NAME=EXPRESSION"),
                                  overrides[i]);
          continue;
        }
      name = g_strstrip (g_strndup (overrides[i], eq - overrides[i]));
      if (!qd_expr_is_valid_name (name))
        {
          qd_compile_add_problem (c, NULL, QD_ERROR_PARAM,
                                  _("override '%s': '%s' is not a valid "
                                    "variable name"),
                                  overrides[i], name);
          g_free (name);
          continue;
        }
      k = find_variable (c, name);
      if (k >= 0)
        {
          g_free (g_ptr_array_index (exprs, k));
          g_ptr_array_index (exprs, k) = g_strdup (eq + 1);
          g_free (name);
        }
      else
        {
          g_ptr_array_add (c->var_names, name);
          g_ptr_array_add (exprs, g_strdup (eq + 1));
        }
    }

  for (guint i = 0; i < c->var_names->len; i++)
    {
      const char *name = g_ptr_array_index (c->var_names, i);
      g_autoptr(GError) error = NULL;
      QdExpr *expr = qd_expr_parse (g_ptr_array_index (exprs, i), &error);
      double value = NAN;
      gboolean ok = FALSE;
      int later;

      /* Each variable sees only those defined before it. */
      if (expr != NULL
          && qd_expr_bind (expr, (const char *const *) c->var_names->pdata,
                           i, &error))
        {
          value = qd_expr_eval (expr, (const double *) c->var_values->data);
          if (isfinite (value))
            ok = TRUE;
          else if (!uses_failed_variable (c, expr))
            qd_compile_add_problem (c, NULL, QD_ERROR_EXPR,
                                    _("variable '%s' is not a finite number "
                                      "(it is %g); check its expression"),
                                    name, value);
        }
      else if (expr != NULL && uses_later_variable (c, expr, i, &later))
        {
          if (later == (int) i)
            qd_compile_add_problem (c, NULL, QD_ERROR_EXPR,
                                    _("variable '%s' uses itself; give it a "
                                      "value that does not"), name);
          else
            qd_compile_add_problem (c, NULL, QD_ERROR_EXPR,
                                    _("variable '%s' uses '%s', which is "
                                      "defined after it; a variable can use "
                                      "only those above it, so move '%s' up"),
                                    name,
                                    (const char *)
                                      g_ptr_array_index (c->var_names, later),
                                    (const char *)
                                      g_ptr_array_index (c->var_names, later));
        }
      else if (expr == NULL || !uses_failed_variable (c, expr))
        qd_compile_add_problem (c, NULL, QD_ERROR_EXPR, _("variable '%s': %s"),
                                name, error->message);
      g_array_append_val (c->var_values, value);
      g_array_append_val (c->var_ok, ok);
      g_clear_pointer (&expr, qd_expr_free);
    }
  g_ptr_array_unref (exprs);
}

/* -------------------------------------------------------------------- */
/* Parameters */

static const char *
intern (Compiler   *c,
        const char *text)
{
  return g_string_chunk_insert_const (c->sim->strings, text);
}

const char *
qd_compile_block_param_text (const QdBlock *block,
                             const char    *name)
{
  for (guint i = 0; block->params != NULL && i < block->params->len; i++)
    {
      const QdParam *p = &g_array_index (block->params, QdParam, i);

      if (strcmp (p->name, name) == 0)
        return p->value;
    }
  return NULL;
}

const char *
qd_compile_block_param_text_or_default (const QdBlock     *block,
                                        const QdBlockType *type,
                                        const char        *name)
{
  const char *text = qd_compile_block_param_text (block, name);
  int k;

  if (text != NULL)
    return text;
  k = qd_block_type_find_param (type, name);
  return k >= 0 && type->params[k].default_value != NULL
         ? type->params[k].default_value : "";
}

/* How evaluating an expression in the current scope went. */
typedef enum
{
  EVAL_OK,
  EVAL_QUIET,       /* failed because a name it uses failed: said already */
  EVAL_NOT_FINITE,  /* *value is NaN or infinite */
  EVAL_ERROR,       /* does not parse or names an unknown name: @error */
} EvalResult;

/* Evaluates @text over the names the current block sees (qd-mask.h). */
static EvalResult
eval_in_scope (Compiler    *c,
               const char  *text,
               double      *value,
               GError     **error)
{
  g_autoptr(QdExpr) expr = NULL;

  if (qd_expr_parse_literal (text, value))
    return EVAL_OK;
  *value = NAN;
  expr = qd_expr_parse (text, error);
  if (expr != NULL
      && qd_expr_bind (expr, (const char *const *) c->scope_names->pdata,
                       c->scope_names->len, error))
    {
      *value = qd_expr_eval (expr, (const double *) c->scope_values->data);
      if (isfinite (*value))
        return EVAL_OK;
      return uses_failed_name (c, expr) ? EVAL_QUIET : EVAL_NOT_FINITE;
    }
  return expr != NULL && uses_failed_name (c, expr) ? EVAL_QUIET : EVAL_ERROR;
}

/* Evaluates one expression of parameter @spec. @offset is where @text
 * starts in the parameter's value, so that columns refer to the whole
 * value. FALSE when it failed (a problem was added, unless the cause is a
 * variable that failed). */
static gboolean
eval_number (Compiler          *c,
             Node              *node,
             const QdParamSpec *spec,
             const char        *text,
             guint              offset,
             double            *value)
{
  g_autoptr(GError) error = NULL;

  switch (eval_in_scope (c, text, value, &error))
    {
    case EVAL_OK:
      return TRUE;
    case EVAL_QUIET:
      return FALSE;
    case EVAL_NOT_FINITE:
      qd_compile_add_problem (c, node, QD_ERROR_PARAM,
                              _("parameter '%s' is not a finite number (it is "
                                "%g); check its expression"),
                              spec->name, *value);
      return FALSE;
    case EVAL_ERROR:
    default:
      break;
    }

  {
    /* "column N: what" from the expression: shift N by the offset. */
    g_autofree char *msg = qd_expr_shift_error_column (error->message, offset);

    qd_compile_add_problem (c, node, QD_ERROR_EXPR, _("parameter '%s': %s"),
                            spec->name, msg);
  }
  return FALSE;
}

static gboolean
check_range (Compiler          *c,
             Node              *node,
             const QdParamSpec *spec,
             double             value)
{
  if (spec->kind == QD_PARAM_INTEGER && value != floor (value))
    {
      qd_compile_add_problem (c, node, QD_ERROR_PARAM,
                              _("parameter '%s' must be a whole number (it is "
                                "%.15g)"),
                              spec->name, value);
      return FALSE;
    }
  if (value < spec->min)
    {
      qd_compile_add_problem (c, node, QD_ERROR_PARAM,
                              _("parameter '%s' must be at least %.15g (it is "
                                "%.15g)"),
                              spec->name, spec->min, value);
      return FALSE;
    }
  if (value > spec->max)
    {
      qd_compile_add_problem (c, node, QD_ERROR_PARAM,
                              _("parameter '%s' must be at most %.15g (it is "
                                "%.15g)"),
                              spec->name, spec->max, value);
      return FALSE;
    }
  return TRUE;
}

static gboolean
eval_vector (Compiler          *c,
             Node              *node,
             const QdParamSpec *spec,
             const char        *text,
             QdParamValue      *out)
{
  g_auto(GStrv) items = qd_expr_split_vector (text);
  guint n = g_strv_length (items);
  double *values = g_new0 (double, n);
  gboolean ok = TRUE;
  gsize offset = 0;

  for (guint i = 0; i < n; i++)
    {
      /* Columns count characters from the start of the whole text, as
       * the expression's do. */
      if (eval_number (c, node, spec, items[i],
                       (guint) g_utf8_strlen (text, (gssize) offset), &values[i]))
        {
          if (!check_range (c, node, spec, values[i]))
            ok = FALSE;
        }
      else
        ok = FALSE;
      offset += strlen (items[i]) + 1;
    }

  out->n_vector = n;
  out->vector = values;
  g_ptr_array_add (c->vectors, values);
  return ok;
}

guint
qd_compile_pair_key_hash (gconstpointer key)
{
  const PairKey *k = key;

  return g_direct_hash (k->first) * 31 + g_direct_hash (k->second);
}

gboolean
qd_compile_pair_key_equal (gconstpointer a,
                           gconstpointer b)
{
  const PairKey *x = a, *y = b;

  return x->first == y->first && x->second == y->second;
}

void
qd_compile_cached_param_free (gpointer data)
{
  CachedParam *entry = data;

  g_free ((double *) entry->value.vector);
  g_free (entry);
}

static gboolean eval_param_text (Compiler          *c,
                                 Node              *node,
                                 const QdParamSpec *spec,
                                 const char        *text,
                                 QdParamValue      *out);

static gboolean
eval_param (Compiler          *c,
            Node              *node,
            const QdParamSpec *spec,
            QdParamValue      *out)
{
  const QdSettings *s = c->settings;
  const char *text = qd_compile_block_param_text (node->block, spec->name);
  ParamKey key;
  CachedParam *entry;

  if (text == NULL)
    text = spec->default_value != NULL ? spec->default_value : "";
  if ((spec->flags & QD_PARAM_INHERIT) != 0 && text[0] == '\0')
    {
      if (strcmp (spec->name, "method") == 0)
        text = s->method != NULL ? s->method : "";
      else if (strcmp (spec->name, "dqmin") == 0)
        {
          /* g_ascii_formatd: the expression parser reads a '.', and the
           * editor runs in the user's locale, where printf may write a
           * ',' (a German desktop made every inheriting integrator fail
           * to compile). */
          if (c->dqmin_text == NULL)
            c->dqmin_text = g_ascii_formatd (g_malloc (G_ASCII_DTOSTR_BUF_SIZE),
                                             G_ASCII_DTOSTR_BUF_SIZE, "%.17g", s->dqmin);
          text = c->dqmin_text;
        }
      else if (strcmp (spec->name, "dqrel") == 0)
        {
          if (c->dqrel_text == NULL)
            c->dqrel_text = g_ascii_formatd (g_malloc (G_ASCII_DTOSTR_BUF_SIZE),
                                             G_ASCII_DTOSTR_BUF_SIZE, "%.17g", s->dqrel);
          text = c->dqrel_text;
        }
    }

  /* Inside a mask the same text may have another value elsewhere. */
  if (c->scoped)
    return eval_param_text (c, node, spec, text, out);
  /* Every text here lives as long as the compiler: a shared string of
   * the document, a spec's default, a settings text. */
  key.first = text;
  key.second = spec;
  entry = g_hash_table_lookup (c->param_cache, &key);
  if (entry != NULL)
    {
      *out = entry->value;
      return TRUE;
    }
  if (!eval_param_text (c, node, spec, text, out))
    return FALSE;
  entry = g_new (CachedParam, 1);
  entry->key = key;
  entry->value = *out;
  if (out->vector != NULL)
    {
      double *copy = g_new (double, MAX (out->n_vector, 1));

      memcpy (copy, out->vector, out->n_vector * sizeof (double));
      entry->value.vector = copy;
    }
  g_hash_table_insert (c->param_cache, &entry->key, entry);
  /* The entry's vector outlives the block's: a CachedSet may point to it. */
  *out = entry->value;
  return TRUE;
}

/* Evaluates @text as the value of parameter @spec into @out. */
static gboolean
eval_param_text (Compiler          *c,
                 Node              *node,
                 const QdParamSpec *spec,
                 const char        *text,
                 QdParamValue      *out)
{
  memset (out, 0, sizeof *out);
  out->text = intern (c, text);

  switch (spec->kind)
    {
    case QD_PARAM_NUMBER:
    case QD_PARAM_INTEGER:
      if (!eval_number (c, node, spec, text, 0, &out->number))
        return FALSE;
      return check_range (c, node, spec, out->number);

    case QD_PARAM_VECTOR:
      return eval_vector (c, node, spec, text, out);

    case QD_PARAM_BOOLEAN:
      if (strcmp (text, "true") == 0)
        out->number = 1;
      else if (strcmp (text, "false") == 0)
        out->number = 0;
      else
        {
          qd_compile_add_problem (c, node, QD_ERROR_PARAM,
                                  _("parameter '%s' must be true or false (it "
                                    "is '%s')"),
                                  spec->name, text);
          return FALSE;
        }
      return TRUE;

    case QD_PARAM_CHOICE:
      for (guint i = 0; spec->choices != NULL && spec->choices[i] != NULL; i++)
        if (strcmp (spec->choices[i], text) == 0)
          {
            out->number = i;
            return TRUE;
          }
      {
        g_autofree char *list =
          spec->choices != NULL ? g_strjoinv (", ", (char **) spec->choices)
                                : g_strdup ("");
        qd_compile_add_problem (c, node, QD_ERROR_PARAM,
                                _("parameter '%s' must be one of %s (it is "
                                  "'%s')"),
                                spec->name, list, text);
      }
      return FALSE;

    case QD_PARAM_FUNCTION:
      /* Its block evaluates it at run time over the model variables:
       * the mask parameters it names are put in as their values. */
      if (c->scoped && c->scope_n_mask > 0)
        {
          g_autofree char *bound =
            qd_mask_substitute (text, (const char *const *) c->scope_names->pdata,
                                (const double *) c->scope_values->data,
                                c->scope_n_mask);

          out->text = intern (c, bound);
        }
      return TRUE;

    case QD_PARAM_STRING:
      /* Likewise in the expressions of "name = expression; ...". */
      if ((spec->flags & QD_PARAM_ASSIGNMENTS) && c->scoped && c->scope_n_mask > 0)
        {
          g_autofree char *bound =
            qd_mask_substitute_assignments (text,
                                            (const char *const *) c->scope_names->pdata,
                                            (const double *) c->scope_values->data,
                                            c->scope_n_mask);

          out->text = intern (c, bound);
        }
      return TRUE;

    default:
      return TRUE;
    }
}

/* Port count from a spec: fixed, or the value of its sizing parameter. */
static gboolean
port_count (Compiler           *c,
            Node               *node,
            const QdPortSpec   *spec,
            const QdParamValue *params,
            const gboolean     *param_ok,
            guint              *count)
{
  int k;

  if (spec->size_param == NULL)
    {
      *count = spec->count;
      return TRUE;
    }
  k = qd_block_type_find_param (node->type, spec->size_param);
  if (k < 0 || !param_ok[k])
    return FALSE;
  if (params[k].number < 0 || params[k].number > MAX_PORTS)
    {
      qd_compile_add_problem (c, node, QD_ERROR_PARAM,
                              _("parameter '%s' must be a port count from 0 "
                                "(it is %g)"),
                              spec->size_param, params[k].number);
      return FALSE;
    }
  *count = (guint) params[k].number;
  return TRUE;
}

/* A function parameter (QD_PARAM_FUNCTION) is evaluated by its block at
 * run time, over its inputs, t and the model variables; a name that is
 * none of them would stop the run at its start. Says so now, as the
 * block would, so that checking a model finds what running it would.
 * The inputs beyond the block's last and syntax errors are the type's
 * check's. */
static gboolean
check_function_names (Compiler          *c,
                      Node              *node,
                      const QdParamSpec *spec,
                      const char        *text)
{
  g_autoptr(QdExpr) expr = qd_expr_parse (text, NULL);
  const char *const *ids;
  guint n_ids;

  if (expr == NULL)
    return TRUE;
  ids = qd_expr_get_identifiers (expr, &n_ids);
  for (guint i = 0; i < n_ids; i++)
    if (strcmp (ids[i], "t") != 0 && qd_expr_input_index (ids[i]) < 0
        && scope_find (c, ids[i]) < 0
        && !((spec->flags & QD_PARAM_NAMES_Y) && strcmp (ids[i], "y") == 0))
      {
        g_autofree char *message =
          qd_expr_unknown_name_message (text, ids[i], node->n_in);

        qd_compile_add_problem (c, node, QD_ERROR_EXPR,
                                _("parameter '%s': %s"), spec->name, message);
        return FALSE;
      }
  return TRUE;
}

/* Evaluates every parameter of @node (into @values, n_params of them),
 * counts its ports and runs the type's check. */
void
qd_compile_evaluate_block (Compiler     *c,
                           Node         *node,
                           QdParamValue *values)
{
  const QdBlockType *type = node->type;
  gboolean *ok = c->param_ok;
  gboolean all_ok = TRUE;
  const GArray *set = node->block->params;

  /* A parameter the type does not have: the loader keeps it when asked
   * to list every problem (so that saving does not lose it), and it
   * must not run unnoticed. */
  for (guint i = 0; i < set->len; i++)
    {
      const QdParam *param = &g_array_index (set, QdParam, i);

      if (qd_block_type_find_param (type, param->name) < 0)
        {
          g_autoptr(GError) error = NULL;

          qd_block_check_param (node->block, param->name, NULL, &error);
          qd_compile_add_problem (c, node, QD_ERROR_PARAM, "%s",
                                  error != NULL ? error->message
                                                : param->name);
          all_ok = FALSE;
        }
    }
  for (guint i = 0; i < type->n_params; i++)
    {
      ok[i] = eval_param (c, node, &type->params[i], &values[i]);
      all_ok &= ok[i];
    }
  if (!port_count (c, node, &type->inputs, values, ok, &node->n_in)
      || !port_count (c, node, &type->outputs, values, ok, &node->n_out))
    {
      node->ok = FALSE;
      return;
    }
  if (type->ports != NULL)
    {
      g_autofree const char **texts = g_new0 (const char *, type->n_params + 1);

      for (guint i = 0; i < type->n_params; i++)
        texts[i] = values[i].text != NULL ? values[i].text : "";
      type->ports (type, texts, &node->n_in, &node->n_out);
    }
  node->ports_ok = TRUE;
  if (node->n_out > 64)
    {
      qd_compile_add_problem (c, node, QD_ERROR_PARAM,
                              _("a block has at most 64 outputs (this one has "
                                "%u); split it into several blocks"),
                              node->n_out);
      all_ok = FALSE;
    }
  /* Before the type's check, which may then take the sizes for granted
   * (WSum reads one weight per input). */
  for (guint i = 0; all_ok && i < type->n_params; i++)
    if (type->params[i].flags & QD_PARAM_PER_INPUT)
      {
        g_autoptr(GError) error = NULL;

        if (!qd_param_spec_check_per_input (&type->params[i],
                                            values[i].n_vector, node->n_in,
                                            &error))
          {
            qd_compile_add_problem (c, node, QD_ERROR_PARAM, "%s",
                                    error->message);
            all_ok = FALSE;
          }
      }
  if (all_ok && type->check != NULL)
    {
      g_autoptr(GError) error = NULL;

      if (!type->check (type, values, node->n_in, node->n_out, &error))
        {
          qd_compile_add_problem (c, node,
                                  error != NULL && error->domain == QD_ERROR
                                    ? (QdErrorCode) error->code
                                    : QD_ERROR_PARAM,
                                  "%s", error != NULL
                                        ? error->message
                                        : _("invalid parameters"));
          all_ok = FALSE;
        }
    }
  for (guint i = 0; all_ok && i < type->n_params; i++)
    if (type->params[i].kind == QD_PARAM_FUNCTION)
      {
        /* As written, not with the mask parameters put in. */
        const char *own =
          c->scoped ? qd_compile_block_param_text (node->block,
                                                   type->params[i].name)
                    : NULL;

        all_ok = check_function_names (c, node, &type->params[i],
                                       own != NULL ? own : values[i].text);
      }
  node->ok = all_ok;
  if (type->flags & QD_BLOCK_STRUCTURAL && ok[0] && type->n_params > 0)
    node->port_number = (guint) values[0].number;
}

/* -------------------------------------------------------------------- */
/* Masks */

static void
scope_free (gpointer data)
{
  Scope *scope = data;

  g_ptr_array_unref (scope->names);
  g_array_unref (scope->values);
  g_array_unref (scope->ok);
  g_free (scope);
}

/* Makes current the scope of @node's block: that of the nearest masked
 * subsystem around it, or the model variables. */
void
qd_compile_enter_scope (Compiler *c,
                        Node     *node)
{
  Scope *scope = NULL;

  if (c->scopes != NULL)
    for (Node *p = node->parent; p != NULL && scope == NULL; p = p->parent)
      scope = g_hash_table_lookup (c->scopes, p);
  c->scoped = scope != NULL;
  c->scope_names = scope != NULL ? scope->names : c->var_names;
  c->scope_values = scope != NULL ? scope->values : c->var_values;
  c->scope_ok = scope != NULL ? scope->ok : c->var_ok;
  c->scope_n_mask = scope != NULL ? scope->n_mask : 0;
}

/* One mask parameter's value, in the scope around its subsystem. */
static gboolean
eval_mask_param (Compiler          *c,
                 Node              *node,
                 const QdMaskParam *param,
                 double            *value)
{
  g_autoptr(GError) error = NULL;

  switch (eval_in_scope (c, qd_mask_param_get_value (param), value, &error))
    {
    case EVAL_OK:
      return TRUE;
    case EVAL_QUIET:
      return FALSE;
    case EVAL_NOT_FINITE:
      qd_compile_add_problem (c, node, QD_ERROR_PARAM,
                              _("mask parameter '%s' is not a finite number "
                                "(it is %g); check its value"),
                              param->name, *value);
      return FALSE;
    case EVAL_ERROR:
    default:
      qd_compile_add_problem (c, node, QD_ERROR_EXPR,
                              _("mask parameter '%s': %s"), param->name,
                              error->message);
      return FALSE;
    }
}

/* Evaluates the mask of subsystem @node in the current scope (the one
 * around it) and keeps the scope its blocks see: its parameters, then
 * the names around. */
void
qd_compile_evaluate_mask (Compiler *c,
                          Node     *node)
{
  const QdMask *mask = node->block->inner->mask;
  Scope *scope = g_new0 (Scope, 1);

  scope->names = g_ptr_array_new ();
  scope->values = g_array_new (FALSE, FALSE, sizeof (double));
  scope->ok = g_array_new (FALSE, FALSE, sizeof (gboolean));
  for (guint i = 0; i < mask->params->len; i++)
    {
      const QdMaskParam *param = g_ptr_array_index (mask->params, i);
      double value;
      gboolean ok = eval_mask_param (c, node, param, &value);

      g_ptr_array_add (scope->names, param->name);
      g_array_append_val (scope->values, value);
      g_array_append_val (scope->ok, ok);
    }
  for (guint i = 0; i < c->scope_names->len; i++)
    g_ptr_array_add (scope->names, g_ptr_array_index (c->scope_names, i));
  g_array_append_vals (scope->values, c->scope_values->data, c->scope_values->len);
  g_array_append_vals (scope->ok, c->scope_ok->data, c->scope_ok->len);
  scope->n_mask = mask->params->len + c->scope_n_mask;
  if (c->scopes == NULL)
    c->scopes = g_hash_table_new_full (NULL, NULL, NULL, scope_free);
  g_hash_table_insert (c->scopes, node, scope);
}


/* qd-compile.c: a document compiled into a flat simulation
 *
 * The compiler validates everything and reports every problem it finds
 * (not just the first), each with the block path and id:
 *
 *  1. the simulation settings;
 *  2. the model variables, in order, after the overrides;
 *  3. every block of the hierarchy, depth-first in priority order: its
 *     type, each parameter of its schema (evaluated with the variables
 *     bound), then the type's own check; what evaluated without a
 *     problem is kept by text and by parameter set (CachedParam,
 *     CachedSet), so a large model with a few distinct texts evaluates
 *     each once;
 *  4. the wiring: each input of an atomic block is traced back through
 *     inport, outport and subsystem blocks to the atomic output that drives
 *     it, so the hierarchy disappears; inputs nothing drives are reported;
 *  5. algebraic loops: strongly connected components (Tarjan) of the graph
 *     of direct-feedthrough blocks.
 *
 * Only when there is no problem is the flat model kept: one record per
 * atomic block, in priority order, and the arrays of the wiring (see
 * qd-simulation-private.h for their layout).
 */
#include <glib/gi18n-lib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "qd-classic-private.h"
#include "qd-compile-vector.h"
#include "qd-simulation-private.h"
#include "qd-expr.h"
#include "qd-history.h"
#include "qd-mask-private.h"
#include "qd-registry.h"

typedef struct _Node Node;

/* What drives one input: a block and its output port. */
typedef struct
{
  guint32 src;    /* index of the source Node + 1, or 0 for nothing */
  guint32 port;
} Driver;

/* One block of the hierarchy while compiling. The Nodes are one array in
 * depth-first order, freed when compiling ends: a model of millions of
 * blocks would otherwise keep several small allocations per block (a
 * path, a drivers array, two hash entries) until then, and the memory of
 * small blocks freed late is seldom given back. A block's path is made
 * only when something needs it (a problem, the flat model's QdAtomic). */
struct _Node
{
  QdBlock           *block;
  const QdBlockType *type;     /* NULL when unknown */
  Node              *parent;   /* the subsystem holding it, NULL at the root */
  GPtrArray         *outports; /* subsystems: outport Node by port - 1 */
  int                atomic;   /* index in the flat model, or -1 */
  guint              n_in, n_out;
  guint              port_number;  /* inport/outport: the "port" value */
  guint32            drivers;  /* its first Driver in Compiler.drivers */
  guint32            n_drivers;    /* Drivers by input port: as many as the
                                      highest port a link drives, + 1 */
  guint32            n_inner;  /* Nodes after it that are inside it */
  guint8             ok;       /* type known, parameters valid */
  guint8             ports_ok; /* n_in and n_out are known (even if !ok) */
  guint8             structural;
};

typedef struct
{
  const char *id;     /* NULL when free */
  guint32     node;   /* index in Compiler.nodes */
} IdSlot;

/* A system visited, with the Node of its first block: the next block's
 * Node follows the previous one's and its n_inner. */
typedef struct
{
  QdSystem *system;
  guint32   first;
} SystemEntry;

/* An evaluated parameter text, kept so that the next block with the same
 * text (the same shared string) for the same parameter spec gets its
 * value without parsing it again: in a large generated model most blocks
 * share a few texts. Only successes are kept; a failure is evaluated for
 * each block, since its problem names the block. */
/* The key of both caches: two pointers, compared by address. */
typedef struct
{
  gconstpointer first;
  gconstpointer second;
} PairKey;

/* (the text, the parameter spec) */
typedef PairKey ParamKey;

typedef struct
{
  ParamKey      key;
  QdParamValue  value;    /* the vector is the entry's own copy */
} CachedParam;

/* A block type with a set of parameter texts (blocks that set the same
 * values share one `params` array), evaluated without a problem: the
 * next block of that type with that set takes its values, port counts
 * and check as they are, without even looking the texts up. */
/* (the block type, the shared `params` array) */
typedef PairKey SetKey;

typedef struct
{
  SetKey        key;
  guint         n_in, n_out;
  guint         port_number;
  QdParamValue  values[];   /* type->n_params; vectors in CachedParams */
} CachedSet;

typedef struct
{
  QdSimulation       *sim;
  const QdSettings   *settings;
  GPtrArray          *problems;   /* QdProblem*, owned */
  Node               *nodes;      /* depth-first order */
  guint               n_nodes;
  GArray             *systems;    /* SystemEntry, every system visited */
  GArray             *drivers;    /* Driver, each Node's in a run */
  /* One system's blocks by the address of their id (link endpoints
   * share the id string of their block): open addressing, the address
   * kept in the slot so that a lookup reads one slot rather than a Node
   * and its block; and by the id's text, made only when an address is
   * not found. */
  IdSlot             *id_slots;
  guint               id_mask;
  gsize               id_capacity;
  GHashTable         *id_by_text;
  guint               n_atomics;
  /* Type ids looked up, by the address of the id (blocks of one type
   * share its string): a few slots, since a model has few types. */
  const char         *type_ids[16];
  const QdBlockType  *types[16];
  GHashTable         *param_cache; /* ParamKey -> CachedParam */
  GHashTable         *set_cache;   /* SetKey -> CachedSet */
  gboolean           *param_ok;   /* evaluate_block(): per parameter */
  /* The vectors of the block being evaluated, until they are copied into
   * its record. */
  GPtrArray          *vectors;
  /* The chunk the next record goes into: its free space. */
  guint8             *chunk_pos;
  gsize               chunk_left;
  /* Model variables during evaluation. */
  GPtrArray          *var_names;  /* char* */
  GArray             *var_values; /* double */
  GArray             *var_ok;     /* gboolean */
  /* The settings' quanta as parameter text, formatted once rather than
   * once per integrator. */
  char               *dqmin_text;
  char               *dqrel_text;
  /* The TAG_SINK Node of each (system, tag): "first Node index/tag". */
  GHashTable         *tags;
  /* Blocks whose unconnected inputs read zero (elements of vector
   * blocks at an Index Shift's zero boundary; qd-compile-vector.c), or
   * NULL. */
  GHashTable         *zero_inputs;
  /* Masked subsystems (qd-mask.h): the names an expression of a block
   * sees, innermost mask first and the model variables last. scope_*
   * are the current block's (the variables' own arrays outside every
   * mask); scoped is TRUE inside a mask, where a text's value depends on
   * where it is, so the caches by text and by parameter set are not
   * used there. */
  GHashTable         *scopes;     /* masked subsystem Node* -> Scope* */
  GPtrArray          *scope_names;
  GArray             *scope_values;
  GArray             *scope_ok;
  guint               scope_n_mask;  /* names from masks, at the front */
  gboolean            scoped;
} Compiler;

/* The names seen inside one masked subsystem. */
typedef struct
{
  GPtrArray *names;    /* char* (borrowed from the masks and variables) */
  GArray    *values;   /* double */
  GArray    *ok;       /* gboolean */
  guint      n_mask;
} Scope;

static void
append_path (GString    *text,
             const Node *node)
{
  if (node->parent != NULL)
    append_path (text, node->parent);
  g_string_append_c (text, '/');
  g_string_append (text, node->block->name);
}

/* "/Plant/Integrator 2": the names from the root down. */
static char *
node_path (const Node *node)
{
  GString *text = g_string_new (NULL);

  append_path (text, node);
  return g_string_free (text, FALSE);
}

static void
add_problem (Compiler    *c,
             Node        *node,
             QdErrorCode  code,
             const char  *format,
             ...) G_GNUC_PRINTF (4, 5);

static void
add_problem (Compiler    *c,
             Node        *node,
             QdErrorCode  code,
             const char  *format,
             ...)
{
  va_list args;
  char *message;
  char *path = node != NULL ? node_path (node) : NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (c->problems,
                   qd_problem_new (code,
                                   path != NULL ? path : "",
                                   node != NULL ? node->block->id : NULL,
                                   "%s", message));
  g_free (message);
  g_free (path);
}

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
      add_problem (c, NULL, QD_ERROR_PARAM, "%s", message);
      return;
    }
  c->sim->classic = qd_classic_new (c->settings);
}

/* A model too large for the classic solver is refused by Check. */
static void
check_classic_size (Compiler *c)
{
  g_autoptr(GError) local = NULL;
  guint n_states = 0;

  for (guint i = 0; i < c->sim->n_atomics; i++)
    n_states += c->sim->is_integrator[i] != 0;
  if (!qd_classic_check_size (c->sim->classic, n_states, &local))
    add_problem (c, NULL, QD_ERROR_PARAM, "%s", local->message);
}

static void
check_settings (Compiler *c)
{
  const QdSettings *s = c->settings;

  if (!isfinite (s->start_time) || !isfinite (s->final_time))
    add_problem (c, NULL, QD_ERROR_PARAM,
                 _("the start time (%g) and the final time (%g) must be "
                   "finite numbers; change the simulation settings"),
                 s->start_time, s->final_time);
  else if (!(s->final_time > s->start_time))
    add_problem (c, NULL, QD_ERROR_PARAM,
                 _("the final time (%g) must be greater than the start time "
                   "(%g); change the simulation settings"),
                 s->final_time, s->start_time);
  if (!(s->dqmin >= 0) || !isfinite (s->dqmin))
    add_problem (c, NULL, QD_ERROR_PARAM,
                 _("the default absolute quantum dqmin must be a number of "
                   "at least 0 (it is %g); change the simulation settings"),
                 s->dqmin);
  if (!(s->dqrel >= 0) || !isfinite (s->dqrel))
    add_problem (c, NULL, QD_ERROR_PARAM,
                 _("the default relative quantum dqrel must be a number of "
                   "at least 0 (it is %g); change the simulation settings"),
                 s->dqrel);
  if (s->illegitimacy_limit == 0)
    add_problem (c, NULL, QD_ERROR_PARAM,
                 _("the illegitimacy limit must be at least 1; change the "
                   "simulation settings"));
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

static void
evaluate_variables (Compiler          *c,
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
          add_problem (c, NULL, QD_ERROR_PARAM,
                       _("override '%s': expected NAME=EXPRESSION"),
                       overrides[i]);
          continue;
        }
      name = g_strstrip (g_strndup (overrides[i], eq - overrides[i]));
      if (!qd_expr_is_valid_name (name))
        {
          add_problem (c, NULL, QD_ERROR_PARAM,
                       _("override '%s': '%s' is not a valid variable name"),
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
            add_problem (c, NULL, QD_ERROR_EXPR,
                         _("variable '%s' is not a finite number (it is %g); "
                           "check its expression"), name, value);
        }
      else if (expr != NULL && uses_later_variable (c, expr, i, &later))
        {
          if (later == (int) i)
            add_problem (c, NULL, QD_ERROR_EXPR,
                         _("variable '%s' uses itself; give it a value that "
                           "does not"), name);
          else
            add_problem (c, NULL, QD_ERROR_EXPR,
                         _("variable '%s' uses '%s', which is defined after "
                           "it; a variable can use only those above it, so "
                           "move '%s' up"), name,
                         (const char *) g_ptr_array_index (c->var_names, later),
                         (const char *) g_ptr_array_index (c->var_names, later));
        }
      else if (expr == NULL || !uses_failed_variable (c, expr))
        add_problem (c, NULL, QD_ERROR_EXPR, _("variable '%s': %s"),
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

static const char *
block_param_text (const QdBlock *block,
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
      add_problem (c, node, QD_ERROR_PARAM,
                   _("parameter '%s' is not a finite number (it is %g); "
                     "check its expression"), spec->name, *value);
      return FALSE;
    case EVAL_ERROR:
    default:
      break;
    }

  {
    /* "column N: what" from the expression: shift N by the offset. */
    g_autofree char *msg = qd_expr_shift_error_column (error->message, offset);

    add_problem (c, node, QD_ERROR_EXPR, _("parameter '%s': %s"),
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
      add_problem (c, node, QD_ERROR_PARAM,
                   _("parameter '%s' must be a whole number (it is %.15g)"),
                   spec->name, value);
      return FALSE;
    }
  if (value < spec->min)
    {
      add_problem (c, node, QD_ERROR_PARAM,
                   _("parameter '%s' must be at least %.15g (it is %.15g)"),
                   spec->name, spec->min, value);
      return FALSE;
    }
  if (value > spec->max)
    {
      add_problem (c, node, QD_ERROR_PARAM,
                   _("parameter '%s' must be at most %.15g (it is %.15g)"),
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

static guint
pair_key_hash (gconstpointer key)
{
  const PairKey *k = key;

  return g_direct_hash (k->first) * 31 + g_direct_hash (k->second);
}

static gboolean
pair_key_equal (gconstpointer a,
                gconstpointer b)
{
  const PairKey *x = a, *y = b;

  return x->first == y->first && x->second == y->second;
}

static void
cached_param_free (gpointer data)
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
  const char *text = block_param_text (node->block, spec->name);
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
          add_problem (c, node, QD_ERROR_PARAM,
                       _("parameter '%s' must be true or false (it is '%s')"),
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
        add_problem (c, node, QD_ERROR_PARAM,
                     _("parameter '%s' must be one of %s (it is '%s')"),
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
    default:
      return TRUE;
    }
}

/* More ports than a block can have. */
#define MAX_PORTS 1000000

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
      add_problem (c, node, QD_ERROR_PARAM,
                   _("parameter '%s' must be a port count from 0 (it is %g)"),
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

        add_problem (c, node, QD_ERROR_EXPR, _("parameter '%s': %s"),
                     spec->name, message);
        return FALSE;
      }
  return TRUE;
}

/* Evaluates every parameter of @node (into @values, n_params of them),
 * counts its ports and runs the type's check. */
static void
evaluate_block (Compiler     *c,
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
          add_problem (c, node, QD_ERROR_PARAM, "%s",
                       error != NULL ? error->message : param->name);
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
      add_problem (c, node, QD_ERROR_PARAM,
                   _("a block has at most 64 outputs (this one has %u); "
                     "split it into several blocks"), node->n_out);
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
            add_problem (c, node, QD_ERROR_PARAM, "%s", error->message);
            all_ok = FALSE;
          }
      }
  if (all_ok && type->check != NULL)
    {
      g_autoptr(GError) error = NULL;

      if (!type->check (type, values, node->n_in, node->n_out, &error))
        {
          add_problem (c, node,
                       error != NULL && error->domain == QD_ERROR
                         ? (QdErrorCode) error->code : QD_ERROR_PARAM,
                       "%s", error != NULL ? error->message
                                           : _("invalid parameters"));
          all_ok = FALSE;
        }
    }
  for (guint i = 0; all_ok && i < type->n_params; i++)
    if (type->params[i].kind == QD_PARAM_FUNCTION)
      {
        /* As written, not with the mask parameters put in. */
        const char *own = c->scoped ? block_param_text (node->block,
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
static void
enter_scope (Compiler *c,
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
      add_problem (c, node, QD_ERROR_PARAM,
                   _("mask parameter '%s' is not a finite number (it is "
                     "%g); check its value"), param->name, *value);
      return FALSE;
    case EVAL_ERROR:
    default:
      add_problem (c, node, QD_ERROR_EXPR, _("mask parameter '%s': %s"),
                   param->name, error->message);
      return FALSE;
    }
}

/* Evaluates the mask of subsystem @node in the current scope (the one
 * around it) and keeps the scope its blocks see: its parameters, then
 * the names around. */
static void
evaluate_mask (Compiler *c,
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

/* -------------------------------------------------------------------- */
/* The hierarchy */

static const QdBlockType *
lookup_type (Compiler   *c,
             const char *type_id)
{
  guint k = (guint) (((guint64) (guintptr) type_id
                       * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> 60);

  if (type_id != c->type_ids[k])
    {
      c->types[k] = qd_registry_lookup (type_id);
      c->type_ids[k] = type_id;
    }
  return c->types[k];
}

/* How many Nodes collect_system() may make for @system: an upper bound,
 * so that the Nodes are one array that never moves. */
static guint
count_blocks (QdSystem *system)
{
  guint n = system->blocks->len;

  for (guint i = 0; i < system->blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (system->blocks, i);

      if (strcmp (block->type, QD_TYPE_SUBSYSTEM) == 0 && block->inner != NULL)
        n += count_blocks (block->inner);
    }
  return n;
}

static void
collect_system (Compiler *c,
                QdSystem *system,
                Node     *owner)
{
  SystemEntry entry = { system, c->n_nodes };

  g_array_append_val (c->systems, entry);
  for (guint i = 0; i < system->blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (system->blocks, i);
      guint index = c->n_nodes++;
      Node *node = &c->nodes[index];

      node->block = block;
      node->parent = owner;
      node->type = lookup_type (c, block->type);
      node->atomic = -1;

      if (node->type == NULL)
        {
          g_autofree char *where = qd_registry_where_looked (block->type);

          if (where != NULL)
            add_problem (c, node, QD_ERROR_UNKNOWN_TYPE,
                         _("block type '%s' is missing (%s); install it, or "
                           "replace the block"),
                         block->type, where);
          else
            add_problem (c, node, QD_ERROR_UNKNOWN_TYPE,
                         _("unknown block type '%s'; replace the block, or "
                           "load the library that provides this type"),
                         block->type);
          continue;
        }
      node->structural = (node->type->flags & QD_BLOCK_STRUCTURAL) != 0;
      if (!node->structural)
        node->atomic = (int) c->n_atomics++;
      /* A subsystem's inner blocks take its place in the order. */
      if (strcmp (block->type, QD_TYPE_SUBSYSTEM) == 0 && block->inner != NULL)
        {
          collect_system (c, block->inner,
                          block->inner->owner == block ? node : NULL);
          node->n_inner = c->n_nodes - index - 1;
        }
    }
}

/* The Node of the block after @node in the same system. */
static inline Node *
next_in_system (Node *node)
{
  return node + 1 + node->n_inner;
}

static Driver *
node_driver (Compiler *c,
             Node     *node,
             guint     port)
{
  if (port >= node->n_drivers)
    return NULL;
  return &g_array_index (c->drivers, Driver, node->drivers + port);
}

/* The Inports (or Outports) of each subsystem must be numbered 1 to their
 * count, each number once: the subsystem block shows one port per port
 * block, so a repeated or out-of-range number would leave a port that
 * leads nowhere while another carries two signals. */
static void
check_port_numbers (Compiler   *c,
                    const char *type_id)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);

  for (guint s = 0; s < c->systems->len; s++)
    {
      const SystemEntry *entry = &g_array_index (c->systems, SystemEntry, s);
      QdSystem *system = entry->system;
      Node *node = &c->nodes[entry->first];
      guint count = 0;

      if (system->owner == NULL)
        continue;
      for (guint i = 0; i < system->blocks->len; i++)
        {
          QdBlock *block = g_ptr_array_index (system->blocks, i);

          count += strcmp (block->type, type_id) == 0;
        }
      g_hash_table_remove_all (seen);
      for (guint i = 0; i < system->blocks->len; i++, node = next_in_system (node))
        {
          Node *other;

          if (strcmp (node->block->type, type_id) != 0 || node->port_number == 0)
            continue;
          other = g_hash_table_lookup (seen, GUINT_TO_POINTER (node->port_number));
          if (node->port_number > count)
            add_problem (c, node, QD_ERROR_PARAM,
                         _("port number %u, but its subsystem has %u such "
                           "ports; number them from 1 to %u"),
                         node->port_number, count, count);
          else if (other != NULL)
            {
              g_autofree char *other_path = node_path (other);

              add_problem (c, node, QD_ERROR_PARAM,
                           _("port number %u is also used by %s; number the "
                             "ports of this subsystem from 1 to %u, each once"),
                           node->port_number, other_path, count);
            }
          else
            g_hash_table_insert (seen, GUINT_TO_POINTER (node->port_number), node);
        }
    }
}

static inline guint
id_hash (const char *id)
{
  guint64 x = (guintptr) id;

  /* The low bits of an address are mostly alike: mix the high ones in. */
  x ^= x >> 29;
  x *= G_GUINT64_CONSTANT (0xbf58476d1ce4e5b9);
  x ^= x >> 32;
  return (guint) x;
}

/* Indexes the blocks of @entry's system by id, replacing the previous
 * system's index; a later block with the same id wins, as a link can
 * name only one. */
static void
index_system (Compiler          *c,
              const SystemEntry *entry)
{
  guint n = entry->system->blocks->len;
  gsize size = 16;
  Node *node = &c->nodes[entry->first];

  /* At most two thirds full. */
  while (size < (gsize) n + n / 2)
    size *= 2;
  if (size > c->id_capacity)
    {
      g_free (c->id_slots);
      c->id_slots = g_new (IdSlot, size);
      c->id_capacity = size;
    }
  c->id_mask = (guint) size - 1;
  memset (c->id_slots, 0, size * sizeof (IdSlot));
  g_clear_pointer (&c->id_by_text, g_hash_table_unref);
  for (guint b = 0; b < n; b++, node = next_in_system (node))
    {
      const char *id = node->block->id;
      guint h = id_hash (id) & c->id_mask;

      while (c->id_slots[h].id != NULL && c->id_slots[h].id != id)
        h = (h + 1) & c->id_mask;
      c->id_slots[h].id = id;
      c->id_slots[h].node = (guint32) (node - c->nodes);
    }
}

/* The Node of block @id in the system indexed last, or NULL. */
static Node *
find_in_system (Compiler          *c,
                const SystemEntry *entry,
                const char        *id)
{
  guint h = id_hash (id) & c->id_mask;

  for (; c->id_slots[h].id != NULL; h = (h + 1) & c->id_mask)
    if (c->id_slots[h].id == id)
      return &c->nodes[c->id_slots[h].node];

  /* Not the address of a block's id: a link naming a block that is not
   * there, or an id text not shared with its block. */
  if (c->id_by_text == NULL)
    {
      Node *node = &c->nodes[entry->first];

      c->id_by_text = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint b = 0; b < entry->system->blocks->len;
           b++, node = next_in_system (node))
        g_hash_table_insert (c->id_by_text, node->block->id, node);
    }
  return g_hash_table_lookup (c->id_by_text, id);
}

static void
index_outports (Compiler *c)
{
  /* Outports by subsystem and number, for joining through subsystems. */
  for (guint i = 0; i < c->n_nodes; i++)
    {
      Node *node = &c->nodes[i];
      Node *owner = node->parent;

      if (node->type == NULL || strcmp (node->block->type, QD_TYPE_OUTPORT) != 0
          || node->port_number == 0 || owner == NULL)
        continue;
      if (owner->outports == NULL)
        owner->outports = g_ptr_array_new ();
      if (owner->outports->len < node->port_number)
        g_ptr_array_set_size (owner->outports, node->port_number);
      if (g_ptr_array_index (owner->outports, node->port_number - 1) == NULL)
        g_ptr_array_index (owner->outports, node->port_number - 1) = node;
    }
}

/* Each input's Driver from the links, before any parameter is evaluated:
 * from then on the compiler never reads a link, and may free them
 * (compile_flat()). */
static void
index_drivers (Compiler *c)
{
  GArray *found;

  /* Links name blocks by id within their own system. Each system's links
   * are read twice: to count the Drivers of each block, then to fill
   * them (the first link to an input drives it). The first reading notes
   * the Nodes it found, in order, so that the second looks nothing up:
   * in a large system every lookup is a cache miss. */
  found = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint s = 0; s < c->systems->len; s++)
    {
      const SystemEntry *entry = &g_array_index (c->systems, SystemEntry, s);
      QdSystem *system = entry->system;
      Node *node;
      guint n_drivers;
      guint next = 0;

      index_system (c, entry);
      g_array_set_size (found, 0);
      for (guint l = 0; l < system->links->len; l++)
        {
          QdLink *link = g_ptr_array_index (system->links, l);
          Node *src = find_in_system (c, entry, link->src.block);
          guint32 index = src != NULL ? (guint32) (src - c->nodes) + 1 : 0;

          g_array_append_val (found, index);
          if (src == NULL)
            continue;
          for (guint k = 0; k < link->targets->len; k++)
            {
              QdLinkTarget *target = g_ptr_array_index (link->targets, k);
              Node *dst = find_in_system (c, entry, target->dst.block);

              index = dst != NULL ? (guint32) (dst - c->nodes) + 1 : 0;
              g_array_append_val (found, index);

              /* No block has more than MAX_PORTS inputs (port_count()):
               * a larger number drives nothing, and is not worth a
               * Driver for each port below it. */
              if (dst != NULL && target->dst.port < MAX_PORTS
                  && target->dst.port >= dst->n_drivers)
                dst->n_drivers = target->dst.port + 1;
            }
        }
      node = &c->nodes[entry->first];
      n_drivers = c->drivers->len;
      for (guint b = 0; b < system->blocks->len; b++, node = next_in_system (node))
        {
          node->drivers = n_drivers;
          n_drivers += node->n_drivers;
        }
      g_array_set_size (c->drivers, n_drivers);
      for (guint l = 0; l < system->links->len; l++)
        {
          QdLink *link = g_ptr_array_index (system->links, l);
          guint32 src = g_array_index (found, guint32, next++);

          if (src == 0)
            continue;
          for (guint k = 0; k < link->targets->len; k++)
            {
              QdLinkTarget *target = g_ptr_array_index (link->targets, k);
              guint32 dst = g_array_index (found, guint32, next++);
              Driver *d;

              if (dst == 0)
                continue;
              d = node_driver (c, &c->nodes[dst - 1], target->dst.port);
              if (d != NULL && d->src == 0)
                {
                  d->src = src;
                  d->port = link->src.port;
                }
            }
        }
    }
  g_array_unref (found);
  /* Not needed any more: give the memory back before the wiring's. */
  g_clear_pointer (&c->id_slots, g_free);
  c->id_capacity = 0;
  g_clear_pointer (&c->id_by_text, g_hash_table_unref);
}

/* The key of a tag in @node's system: the system's first Node (its
 * owner's next, or the root's) and the tag text. */
static char *
tag_key (Compiler   *c,
         const Node *node)
{
  const char *tag = block_param_text (node->block,
                                      node->type->params[0].name);
  guint first = node->parent != NULL ? (guint) (node->parent - c->nodes) + 1
                                     : 0;

  return g_strdup_printf ("%u/%s", first, tag != NULL ? tag
                                          : node->type->params[0].default_value);
}

/* Indexes the tag sinks of every system (QD_BLOCK_TAG_SINK), and says
 * which tag sources have none, or which sinks share a tag. */
static void
index_tags (Compiler *c)
{
  c->tags = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < c->n_nodes; i++)
      {
        Node *node = &c->nodes[i];
        g_autofree char *key = NULL;
        Node *other;

        if (node->type == NULL || node->type->n_params == 0
            || !(node->type->flags & (pass == 0 ? QD_BLOCK_TAG_SINK
                                                : QD_BLOCK_TAG_SOURCE)))
          continue;
        key = tag_key (c, node);
        other = g_hash_table_lookup (c->tags, key);
        if (pass == 1 && other == NULL)
          add_problem (c, node, QD_ERROR_LINK,
                       _("parameter '%s': no block of this system publishes "
                         "the tag '%s'; add one that does, or correct the "
                         "tag"),
                       node->type->params[0].name, strchr (key, '/') + 1);
        else if (pass == 0 && other != NULL)
          {
            g_autofree char *other_path = node_path (other);

            add_problem (c, node, QD_ERROR_DUPLICATE,
                         _("parameter '%s': the tag '%s' is also published "
                           "by %s; give each of them its own tag"),
                         node->type->params[0].name, strchr (key, '/') + 1,
                         other_path);
          }
        else if (pass == 0)
          g_hash_table_insert (c->tags, g_steal_pointer (&key), node);
      }
}

typedef enum
{
  RESOLVED,
  UNCONNECTED,
  BROKEN,     /* driven from a block that has its own problem */
} Resolution;

/* Follows the links back from input @port of @node, through port blocks
 * and subsystems, to the atomic output driving it. */
static Resolution
resolve_input (Compiler *c,
               Node     *node,
               guint     port,
               Node    **src_out,
               guint    *src_port)
{
  /* A bound on the hops: a subsystem whose outport is wired straight to
   * an inport, fed back outside, would otherwise go round for ever. */
  for (guint hops = 0; hops < 100000; hops++)
    {
      Driver *d = node_driver (c, node, port);
      Node *src;

      if (d == NULL || d->src == 0)
        return UNCONNECTED;
      src = &c->nodes[d->src - 1];
      if (src->type == NULL)
        return BROKEN;
      if (!src->structural)
        {
          if (!src->ok)
            return BROKEN;
          if (d->port >= src->n_out)
            return UNCONNECTED;
          *src_out = src;
          *src_port = d->port;
          return RESOLVED;
        }
      if (strcmp (src->block->type, QD_TYPE_INPORT) == 0)
        {
          Node *owner = src->parent;

          if (owner == NULL || src->port_number == 0)
            return owner == NULL ? UNCONNECTED : BROKEN;
          node = owner;
          port = src->port_number - 1;
        }
      else if (strcmp (src->block->type, QD_TYPE_SUBSYSTEM) == 0)
        {
          if (src->outports == NULL || d->port >= src->outports->len
              || g_ptr_array_index (src->outports, d->port) == NULL)
            return UNCONNECTED;
          node = g_ptr_array_index (src->outports, d->port);
          port = 0;
        }
      else if ((src->type->flags & QD_BLOCK_TAG_SOURCE)
               && src->type->n_params > 0)
        {
          g_autofree char *key = tag_key (c, src);

          /* index_tags() reported a tag with no sink. */
          node = g_hash_table_lookup (c->tags, key);
          if (node == NULL)
            return BROKEN;
          port = 0;
        }
      else
        return UNCONNECTED;
    }
  return UNCONNECTED;
}

/* -------------------------------------------------------------------- */
/* Algebraic loops: Tarjan's SCC, iterative (chains of static blocks can be
 * long), over the feedthrough blocks with the fan-out arrays as edges. */

typedef struct
{
  guint v;
  guint edge;   /* next fan-out entry to visit */
  guint edge_end;
  guint port;   /* next output port */
} Frame;

static int
compare_guint (gconstpointer a,
               gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

static void
find_algebraic_loops (Compiler *c,
                      Node    **atomic_nodes)
{
  QdSimulation *sim = c->sim;
  guint n = sim->n_atomics;
  g_autofree guint *index = g_new (guint, n);
  g_autofree guint *low = g_new (guint, n);
  g_autofree gboolean *on_stack = g_new0 (gboolean, n);
  g_autofree guint *stack = g_new (guint, n);
  g_autofree Frame *frames = g_new (Frame, n);
  GArray *loops = g_array_new (FALSE, FALSE, sizeof (guint)); /* flattened */
  GArray *loop_starts = g_array_new (FALSE, FALSE, sizeof (guint));
  guint counter = 0, sp = 0;

#define FEEDTHROUGH(i) ((sim->atomics[i].type->flags & QD_BLOCK_FEEDTHROUGH) != 0)
#define UNVISITED G_MAXUINT

  for (guint i = 0; i < n; i++)
    index[i] = UNVISITED;

  for (guint root = 0; root < n; root++)
    {
      guint depth = 0;

      if (!FEEDTHROUGH (root) || index[root] != UNVISITED)
        continue;
      frames[depth++] = (Frame) { root, 0, 0, 0 };
      index[root] = low[root] = counter++;
      stack[sp++] = root;
      on_stack[root] = TRUE;

      while (depth > 0)
        {
          Frame *f = &frames[depth - 1];
          guint v = f->v;
          gboolean pushed = FALSE;

          for (;;)
            {
              if (f->edge >= f->edge_end)
                {
                  guint s;

                  if (f->port >= sim->atomics[v].n_out)
                    break;
                  s = sim->out_base[v] + f->port++;
                  f->edge = sim->fan_start[s];
                  f->edge_end = sim->fan_start[s + 1];
                  continue;
                }
              {
                guint w = sim->fanout[f->edge++].receiver;

                if (!FEEDTHROUGH (w))
                  continue;
                if (index[w] == UNVISITED)
                  {
                    index[w] = low[w] = counter++;
                    stack[sp++] = w;
                    on_stack[w] = TRUE;
                    frames[depth++] = (Frame) { w, 0, 0, 0 };
                    pushed = TRUE;
                    break;
                  }
                if (on_stack[w])
                  low[v] = MIN (low[v], index[w]);
              }
            }
          if (pushed)
            continue;

          /* v is done. */
          if (low[v] == index[v])
            {
              guint first = loops->len;
              guint size = 0;
              gboolean self_loop = FALSE;

              do
                {
                  guint w = stack[--sp];

                  on_stack[w] = FALSE;
                  g_array_append_val (loops, w);
                  size++;
                }
              while (loops->len > 0
                     && g_array_index (loops, guint, loops->len - 1) != v);

              if (size == 1)
                for (guint p = 0; p < sim->atomics[v].n_out && !self_loop; p++)
                  {
                    guint s = sim->out_base[v] + p;

                    for (guint e = sim->fan_start[s]; e < sim->fan_start[s + 1]; e++)
                      if (sim->fanout[e].receiver == v)
                        self_loop = TRUE;
                  }
              if (size > 1 || self_loop)
                g_array_append_val (loop_starts, first);
              else
                g_array_set_size (loops, first);
            }
          depth--;
          if (depth > 0)
            {
              guint parent = frames[depth - 1].v;

              low[parent] = MIN (low[parent], low[v]);
            }
        }
    }

  /* One problem per loop, the blocks in priority order; loops in the order
   * of their first block. */
  {
    guint n_loops = loop_starts->len;
    g_autofree guint *order = g_new (guint, MAX (n_loops, 1));

    for (guint k = 0; k < n_loops; k++)
      {
        guint start = g_array_index (loop_starts, guint, k);
        guint end = k + 1 < n_loops ? g_array_index (loop_starts, guint, k + 1)
                                    : loops->len;

        qsort (&g_array_index (loops, guint, start), end - start,
               sizeof (guint), compare_guint);
        order[k] = k;
      }
    /* Sort the loops by their smallest member (insertion sort: few). */
    for (guint a = 1; a < n_loops; a++)
      for (guint b = a; b > 0; b--)
        {
          guint sa = g_array_index (loops, guint,
                                    g_array_index (loop_starts, guint, order[b]));
          guint sb = g_array_index (loops, guint,
                                    g_array_index (loop_starts, guint, order[b - 1]));
          guint tmp;

          if (sa >= sb)
            break;
          tmp = order[b];
          order[b] = order[b - 1];
          order[b - 1] = tmp;
        }
    for (guint k = 0; k < n_loops; k++)
      {
        guint j = order[k];
        guint start = g_array_index (loop_starts, guint, j);
        guint end = j + 1 < n_loops ? g_array_index (loop_starts, guint, j + 1)
                                    : loops->len;
        GString *names = g_string_new (NULL);
        Node *first = atomic_nodes[g_array_index (loops, guint, start)];

        for (guint m = start; m < end; m++)
          {
            if (m > start)
              g_string_append (names, ", ");
            g_string_append (names,
                             sim->atomics[g_array_index (loops, guint, m)].path);
          }
        /* A model problem (empty path, since it is about several blocks)
         * that still carries the first block's id for selection. */
        g_ptr_array_add (c->problems,
                         qd_problem_new (QD_ERROR_ALGEBRAIC_LOOP, "",
                                         first->block->id,
                                         _("algebraic loop through %s: break "
                                           "it with an integrator or a delay"),
                                         names->str));
        g_string_free (names, TRUE);
      }
  }
  g_array_unref (loops);
  g_array_unref (loop_starts);
#undef FEEDTHROUGH
#undef UNVISITED
}

/* -------------------------------------------------------------------- */

static const QdSignal zero_signal;

/* Whether an unconnected input of @node reads zero rather than being an
 * error. */
static gboolean
reads_zero (Compiler *c,
            Node     *node)
{
  return (node->type->flags & QD_BLOCK_OPTIONAL_INPUTS) != 0
         || (c->zero_inputs != NULL
             && g_hash_table_contains (c->zero_inputs, node->block));
}

#define ALIGN_UP(pos, align) (((pos) + (align) - 1) & ~(gsize) ((align) - 1))

/* Records are carved out of chunks of this size (or of one record's
 * size, when larger): large enough that the allocator maps them, so the
 * unused end of the last chunk takes no memory. */
#define RECORD_CHUNK_SIZE (1024 * 1024)

/* @size bytes for a record, zeroed, @align-byte aligned (at most 64),
 * following the previous record when it fits in the current chunk. */
static guint8 *
record_alloc (Compiler *c,
              gsize     size,
              gsize     align)
{
  gsize pad = c->chunk_pos == NULL
              ? 0 : ALIGN_UP ((guintptr) c->chunk_pos, align)
                    - (guintptr) c->chunk_pos;
  guint8 *rec;

  if (size + pad > c->chunk_left)
    {
      gsize chunk_size = MAX (size, RECORD_CHUNK_SIZE);

      /* Not zeroed here: only the parts given out are touched. */
      c->chunk_pos = g_aligned_alloc (chunk_size, 1, 64);
      c->chunk_left = chunk_size;
      pad = 0;
      g_ptr_array_add (c->sim->records, c->chunk_pos);
    }
  rec = c->chunk_pos + pad;
  c->chunk_pos += pad + size;
  c->chunk_left -= pad + size;
  memset (rec, 0, size);
  return rec;
}

/* Makes the record of atomic block @node (parameters evaluated into
 * @values, their vectors in c->vectors) and fills its QdAtomic @a, with
 * the parameters and their vectors copied into the record. The inputs
 * are wired later. */
static void
make_record (Compiler           *c,
             Node               *node,
             const QdParamValue *values,
             QdAtomic           *a)
{
  const QdBlockType *type = node->type;
  guint n_in = node->ok ? node->n_in : 0;
  guint n_params = type->n_params;
  gsize in_pos, params_pos, vectors_pos, size;
  QdParamValue *params;
  double *vectors;
  guint8 *rec;

  G_STATIC_ASSERT (sizeof (QdParamValue) % 8 == 0);

  /* The state first, so that its alignment costs no padding: 16 bytes,
   * or a cache line when it is a line or more (an integrator's, which
   * then spans as few lines as its layout allows). Then the parts in the
   * order in which a static block's lambda reads them (input pointers,
   * parameters, weights: the first two lines of a WSum's record); an
   * integrator's parameters, read only by init, come after its state. */
  while (n_params > 0
         && (type->params[n_params - 1].flags & QD_PARAM_COMPILE_ONLY) != 0)
    n_params--;
  in_pos = ALIGN_UP (type->state_size, 16);
  params_pos = in_pos + n_in * sizeof (const QdSignal *);
  vectors_pos = params_pos + n_params * sizeof (QdParamValue);
  size = vectors_pos;
  for (guint k = 0; k < n_params; k++)
    size += values[k].n_vector * sizeof (double);

  rec = record_alloc (c, MAX (size, 16), type->state_size >= 64 ? 64 : 16);
  params = (QdParamValue *) (rec + params_pos);
  vectors = (double *) (rec + vectors_pos);
  for (guint k = 0; k < n_params; k++)
    {
      params[k] = values[k];
      if (values[k].vector != NULL)
        {
          memcpy (vectors, values[k].vector,
                  values[k].n_vector * sizeof (double));
          params[k].vector = vectors;
          vectors += values[k].n_vector;
        }
    }
  g_ptr_array_set_size (c->vectors, 0);

  a->state = rec;
  a->in = (const QdSignal *const *) (rec + in_pos);
  g_assert (n_in <= G_MAXUINT16 && node->n_out <= G_MAXUINT16);
  a->n_in = (guint16) n_in;
  a->n_out = (guint16) (node->ok ? node->n_out : 0);
  a->params = params;
  a->type = type;
  a->sim = c->sim;
  a->index = (guint) node->atomic;
}

static void
build_model (Compiler *c)
{
  QdSimulation *sim = c->sim;
  guint n = c->n_atomics;
  g_autofree Node **atomic_nodes = g_new0 (Node *, MAX (n, 1));
  guint32 *in_base;
  guint n_inputs = 0;
  gboolean wiring_ok = TRUE;
  guint max_params = 1;

  sim->n_atomics = n;
  G_STATIC_ASSERT (sizeof (QdAtomic) == 64);
  sim->atomics = g_aligned_alloc0 (MAX (n, 1), sizeof (QdAtomic), 64);
  sim->is_integrator = g_new0 (guint8, MAX (n, 1));
  sim->out_base = g_new0 (guint32, n + 1);
  sim->records = g_ptr_array_new_with_free_func (g_aligned_free);
  c->vectors = g_ptr_array_new_with_free_func (g_free);
  in_base = g_new0 (guint32, n + 1);

  /* Parameters of every block, atomic or structural, in order (which is
   * the atomic blocks' priority order, so their records follow each
   * other in that order). The values go through @values, and an atomic
   * block's are then copied into its record. */
  for (guint i = 0; i < c->n_nodes; i++)
    {
      Node *node = &c->nodes[i];

      if (node->type != NULL)
        max_params = MAX (max_params, node->type->n_params);
    }
  c->param_ok = g_new0 (gboolean, max_params);
  {
    g_autofree QdParamValue *values = g_new (QdParamValue, max_params);

    for (guint i = 0; i < c->n_nodes; i++)
      {
        Node *node = &c->nodes[i];

        if (node->type == NULL)
          continue;
        enter_scope (c, node);
        if (node->block->inner != NULL && node->block->inner->mask != NULL)
          evaluate_mask (c, node);
        SetKey key = { node->type, node->block->params };
        CachedSet *set = c->scoped ? NULL : g_hash_table_lookup (c->set_cache, &key);
        guint n_params = node->type->n_params;

        memset (values, 0, sizeof (QdParamValue) * max_params);
        if (set != NULL)
          {
            memcpy (values, set->values, n_params * sizeof (QdParamValue));
            node->n_in = set->n_in;
            node->n_out = set->n_out;
            node->port_number = set->port_number;
            node->ports_ok = TRUE;
            node->ok = TRUE;
          }
        else
          {
            evaluate_block (c, node, values);
            /* A block that is ok added no problem: its results hold for
             * every block of its type and set. */
            if (node->ok && !c->scoped)
              {
                set = g_malloc (sizeof (CachedSet)
                                + n_params * sizeof (QdParamValue));
                set->key = key;
                set->n_in = node->n_in;
                set->n_out = node->n_out;
                set->port_number = node->port_number;
                memcpy (set->values, values, n_params * sizeof (QdParamValue));
                g_hash_table_insert (c->set_cache, &set->key, set);
              }
          }
        if (node->atomic < 0)
          {
            g_ptr_array_set_size (c->vectors, 0);
            continue;
          }
        make_record (c, node, values, &sim->atomics[node->atomic]);
        sim->is_integrator[node->atomic] =
          (node->type->flags & QD_BLOCK_INTEGRATOR) != 0;
        atomic_nodes[node->atomic] = node;
      }
  }

  /* Each path, with the block's id after its NUL (qd_atomic_block_id()).
   * Paths are unique: stored without the chunk's deduplicating hash
   * table, which would cost an entry per block. */
  {
    GString *text = g_string_new (NULL);
    const Node *prefix_of = NULL;   /* the system whose path is in @text */
    gsize prefix_len = 0;

    for (guint i = 0; i < n; i++)
      {
        const Node *node = atomic_nodes[i];
        const char *name = node->block->name;
        const char *id = node->block->id;

        /* Neighbours in priority order mostly share their system. */
        if (i == 0 || node->parent != prefix_of)
          {
            g_string_truncate (text, 0);
            if (node->parent != NULL)
              append_path (text, node->parent);
            prefix_of = node->parent;
            prefix_len = text->len;
          }
        g_string_truncate (text, prefix_len);
        g_string_append_c (text, '/');
        g_string_append_len (text, name, strlen (name));
        g_string_append_c (text, '\0');
        g_string_append_len (text, id, strlen (id));
        sim->atomics[i].path = g_string_chunk_insert_len (sim->strings,
                                                           text->str,
                                                           text->len);
      }
    g_string_free (text, TRUE);
  }

  for (guint i = 0; i < n; i++)
    {
      Node *node = atomic_nodes[i];

      sim->out_base[i + 1] = sim->out_base[i] + (node->ok ? node->n_out : 0);
      in_base[i + 1] = in_base[i] + (node->ok ? node->n_in : 0);
    }
  sim->n_signals = sim->out_base[n];
  n_inputs = in_base[n];
  sim->signals = g_new0 (QdSignal, MAX (sim->n_signals, 1));
  for (guint i = 0; i < n; i++)
    sim->atomics[i].out = &sim->signals[sim->out_base[i]];
  sim->fan_start = g_new0 (guint32, sim->n_signals + 2);

  check_port_numbers (c, QD_TYPE_INPORT);
  check_port_numbers (c, QD_TYPE_OUTPORT);
  index_outports (c);
  index_tags (c);

  /* Resolve every input; count the receivers of each output. */
  {
    g_autofree guint32 *src_of = g_new (guint32, MAX (n_inputs, 1));

    for (guint i = 0; i < n; i++)
      {
        Node *node = atomic_nodes[i];
        /* The record's own input pointers, constant once wired. */
        const QdSignal **in = (const QdSignal **) sim->atomics[i].in;

        if (!node->ok)
          {
            /* A block with a bad parameter is not wired, but its
             * unconnected inputs are still worth reporting now: a check
             * lists every problem, not the first of each block. */
            for (guint q = 0; node->ports_ok && q < node->n_in; q++)
              {
                Node *src = NULL;
                guint src_port = 0;

                if (resolve_input (c, node, q, &src, &src_port) == UNCONNECTED
                    && !reads_zero (c, node))
                  add_problem (c, node, QD_ERROR_UNCONNECTED,
                               _("input %u is not connected; connect it or "
                                 "delete the block"), q + 1);
              }
            continue;
          }
        for (guint q = 0; q < node->n_in; q++)
          {
            Node *src = NULL;
            guint src_port = 0;
            Resolution r = resolve_input (c, node, q, &src, &src_port);

            src_of[in_base[i] + q] = G_MAXUINT32;
            in[q] = &zero_signal;
            if (r == RESOLVED)
              {
                guint s = sim->out_base[src->atomic] + src_port;

                src_of[in_base[i] + q] = s;
                sim->fan_start[s + 1]++;
                in[q] = &sim->atomics[src->atomic].out[src_port];
              }
            else if (r == UNCONNECTED && !reads_zero (c, node))
              {
                add_problem (c, node, QD_ERROR_UNCONNECTED,
                             _("input %u is not connected; connect it or "
                               "delete the block"), q + 1);
                wiring_ok = FALSE;
              }
            else if (r == BROKEN)
              wiring_ok = FALSE;
          }
      }
    for (guint s = 0; s < sim->n_signals; s++)
      sim->fan_start[s + 1] += sim->fan_start[s];
    sim->fanout = g_new (QdFanout, MAX (sim->fan_start[sim->n_signals], 1));

    /* Receivers go in priority order: the loop below visits them so. */
    {
      g_autofree guint32 *fill = g_memdup2 (sim->fan_start,
                                            sizeof (guint32) * (sim->n_signals + 1));

      for (guint i = 0; i < n; i++)
        {
          Node *node = atomic_nodes[i];

          if (!node->ok)
            continue;
          for (guint q = 0; q < node->n_in; q++)
            {
              guint32 s = src_of[in_base[i] + q];

              if (s != G_MAXUINT32)
                sim->fanout[fill[s]++] = (QdFanout) { i, q };
            }
        }
    }
  }

  /* The Drivers were for resolving inputs. */
  g_clear_pointer (&c->drivers, g_array_unref);
  if (wiring_ok)
    find_algebraic_loops (c, atomic_nodes);
  g_ptr_array_unref (c->vectors);
  g_free (in_base);
}

/* The links of the systems compiled, once read (index_drivers()), freed
 * with the pages they held, so that the flat model's records reuse them:
 * in a document the caller gave up (qd_simulation_new_taking()), about a
 * third of a large model's document would otherwise stay until the end. A
 * system also held elsewhere (the history) keeps its links. */
static void
drop_document_links (Compiler *c)
{
  for (guint s = 0; s < c->systems->len; s++)
    {
      QdSystem *system = g_array_index (c->systems, SystemEntry, s).system;

      if (g_atomic_int_get (&system->ref_count) == 1)
        qd_system_drop_links (system);
    }
#ifdef __GLIBC__
  malloc_trim (0);
#endif
}

static QdSimulation *
compile_flat (QdDocument        *document,
              const char *const *overrides,
              gboolean           drop_links,
              GHashTable        *zero_inputs,
              GPtrArray         *problems,
              GError           **error)
{
  Compiler c = { 0 };
  QdSimulation *sim = g_new0 (QdSimulation, 1);
  QdSystem *root;

  c.sim = sim;
  c.zero_inputs = zero_inputs;
  c.settings = qd_document_get_settings (document);
  c.problems = g_ptr_array_new ();
  c.systems = g_array_new (FALSE, FALSE, sizeof (SystemEntry));
  c.drivers = g_array_new (FALSE, TRUE, sizeof (Driver));
  c.param_cache = g_hash_table_new_full (pair_key_hash, pair_key_equal,
                                         NULL, cached_param_free);
  c.set_cache = g_hash_table_new_full (pair_key_hash, pair_key_equal,
                                       NULL, g_free);
  c.var_names = g_ptr_array_new_with_free_func (g_free);
  c.var_values = g_array_new (FALSE, FALSE, sizeof (double));
  c.var_ok = g_array_new (FALSE, FALSE, sizeof (gboolean));
  c.scope_names = c.var_names;
  c.scope_values = c.var_values;
  c.scope_ok = c.var_ok;

  sim->strings = g_string_chunk_new (4096);
  sim->allocs = g_ptr_array_new_with_free_func (g_free);
  sim->traces = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_trace_unref);
  sim->start_time = c.settings->start_time;
  sim->final_time = c.settings->final_time;
  sim->illegitimacy_limit = c.settings->illegitimacy_limit;

  check_settings (&c);
  evaluate_variables (&c, document, overrides);

  root = qd_document_get_root (document);
  c.nodes = g_new0 (Node, MAX (root != NULL ? count_blocks (root) : 0, 1));
  if (root != NULL)
    collect_system (&c, root, NULL);
  index_drivers (&c);
  if (drop_links)
    drop_document_links (&c);
  build_model (&c);
  if (sim->classic != NULL && c.problems->len == 0)
    check_classic_size (&c);

  /* The variables stay available (qd_simulation_get_variable). */
  sim->n_variables = c.var_names->len;
  g_ptr_array_add (c.var_names, NULL);
  sim->variable_names = (char **) g_ptr_array_free (c.var_names, FALSE);
  sim->variable_values = (double *) g_array_free (c.var_values, FALSE);

  if (c.problems->len > 0)
    {
      g_autofree char *first =
        qd_problem_to_string (g_ptr_array_index (c.problems, 0));

      g_set_error_literal (error, QD_ERROR,
                           ((QdProblem *) g_ptr_array_index (c.problems, 0))->code,
                           first);
      for (guint i = 0; i < c.problems->len; i++)
        {
          if (problems != NULL)
            g_ptr_array_add (problems, g_ptr_array_index (c.problems, i));
          else
            qd_problem_free (g_ptr_array_index (c.problems, i));
        }
      qd_simulation_free (sim);
      sim = NULL;
    }

  g_ptr_array_unref (c.problems);
  for (guint i = 0; i < c.n_nodes; i++)
    if (c.nodes[i].outports != NULL)
      g_ptr_array_unref (c.nodes[i].outports);
  g_free (c.nodes);
  g_array_unref (c.systems);
  g_clear_pointer (&c.drivers, g_array_unref);
  g_free (c.id_slots);
  g_clear_pointer (&c.id_by_text, g_hash_table_unref);
  g_clear_pointer (&c.tags, g_hash_table_unref);
  g_hash_table_unref (c.set_cache);
  g_hash_table_unref (c.param_cache);
  g_clear_pointer (&c.scopes, g_hash_table_unref);
  g_free (c.param_ok);
  g_array_unref (c.var_ok);
  g_free (c.dqmin_text);
  g_free (c.dqrel_text);

  return sim;
}

/* A document with vector signals is compiled as its expansion into
 * elements (qd-compile-vector.c). */
QdSimulation *
qd_compile (QdDocument        *document,
            const char *const *overrides,
            gboolean           owned,
            GPtrArray         *problems,
            GError           **error)
{
  g_autoptr(GPtrArray) vector_problems = g_ptr_array_new ();
  g_autoptr(GHashTable) zero_inputs = g_hash_table_new (NULL, NULL);
  g_autoptr(QdDocument) flat = qd_vector_expand (document, overrides,
                                                 vector_problems, zero_inputs);
  QdSimulation *sim;

  if (vector_problems->len > 0)
    {
      g_autofree char *first =
        qd_problem_to_string (g_ptr_array_index (vector_problems, 0));

      g_set_error_literal (error, QD_ERROR,
                           ((QdProblem *) g_ptr_array_index (vector_problems, 0))->code,
                           first);
      for (guint i = 0; i < vector_problems->len; i++)
        {
          if (problems != NULL)
            g_ptr_array_add (problems, g_ptr_array_index (vector_problems, i));
          else
            qd_problem_free (g_ptr_array_index (vector_problems, i));
        }
      return NULL;
    }
  /* Links are dropped only from a plain document given up by the caller:
   * an expansion may share systems with the document it expands. */
  sim = compile_flat (flat != NULL ? flat : document, overrides,
                      owned && flat == NULL
                      && G_OBJECT (document)->ref_count == 1,
                      flat != NULL ? zero_inputs : NULL, problems, error);
  if (flat != NULL)
    qd_vector_release (g_steal_pointer (&flat));
  return sim;
}

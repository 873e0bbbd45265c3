/* qd-compile-vector.c: vector signals, expanded into their elements
 *
 * A wire may carry a vector of n signals. The event loop never sees one:
 * before compiling, each system is copied with every vector block
 * replaced by its n element blocks (an Integrator of size n becomes n
 * integrators, a Weighted Sum fed by vectors n weighted sums), and the
 * wiring blocks (Index Shift, Mux, Demux, Selector, Scalar to Vector)
 * resolved into links from element to element; Sum of Elements, Matrix
 * Gain and the sinks that choose elements are written by
 * qd-compile-vector-sum.c. The flat model of a vector diagram is then exactly the flat
 * model of the same diagram drawn with scalar blocks, element by
 * element, so both give the same events, bit for bit, at the same cost
 * per event.
 *
 * Widths: an Integrator's (any block with an INTEGER parameter "size")
 * is its size, or the length of its x0 list, when either is given; an
 * Index Shift's is its input's, a Mux's the sum of its inputs', a
 * Demux's outputs' their "widths" (or an even share of the input), a
 * Matrix Gain's the rows of M; a Sum of Elements, a Scope or a To CSV
 * is one block; any other block's is the largest width among its inputs, a
 * scalar input driving every element (broadcast). Inputs of two
 * different widths above 1 are an error naming the block.
 *
 * Priority order: the elements of neighbouring vector blocks of the
 * same width take turns (element 1 of each, then element 2 of each...),
 * so that a line drawn as "dx, x" vector blocks runs in the order of the
 * same line drawn section by section as dx1, x1, dx2, x2...
 *
 * Subsystems: a port carries what is wired to it, so widths flow across
 * the hierarchy (an Inport is as wide as what drives its Subsystem's
 * input, a Subsystem's output as wide as what drives its Outport) until
 * none changes. In the copy a port of width n becomes n scalar ports,
 * numbered one after the other: the Subsystem's port k is then its
 * ports from the sum of the widths before k, and the compiler joins
 * element to element through them as through any port.
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <string.h>

#include "qd-compile-vector.h"
#include "qd-mask.h"
#include "qd-compile-vector-private.h"
#include "qd-error.h"
#include "qd-expr.h"
#include "qd-history.h"
#include "qd-registry.h"
#include "qd-simulation.h"

#define MAX_WIDTH QD_VECTOR_MAX_WIDTH

#define WIRING_FLAGS (QD_BLOCK_INDEX_SHIFT | QD_BLOCK_VECTOR_MUX \
                      | QD_BLOCK_VECTOR_SELECT | QD_BLOCK_VECTOR_SPREAD \
                      | QD_BLOCK_VECTOR_DEMUX | QD_BLOCK_VECTOR_SUM \
                      | QD_BLOCK_VECTOR_MATRIX)

static void emit_system (Expander *e, VSystem *vs);

static inline gboolean
is_wiring (const VBlock *vb)
{
  return vb->kind == KIND_SHIFT || vb->kind == KIND_MUX
         || vb->kind == KIND_SELECT || vb->kind == KIND_SPREAD
         || vb->kind == KIND_DEMUX;
}

/* The blocks written by qd-compile-vector-sum.c. */
static inline gboolean
is_computed (const VBlock *vb)
{
  return vb->kind == KIND_SUM || vb->kind == KIND_MATRIX
         || vb->kind == KIND_SINK;
}

/* The width of output @port of @vb. */
static inline guint
out_width (const VBlock *vb,
           guint         port)
{
  if (vb->out_width == NULL)
    return vb->width;
  return port < vb->n_out ? vb->out_width[port] : 1;
}

/* The first element of output @port of a Subsystem (or of input @port
 * with @widths its inputs' widths) among its scalar ports. */
static guint
port_offset (const guint *widths,
             guint        n,
             guint        port)
{
  guint offset = 0;

  for (guint k = 0; k < port && k < n; k++)
    offset += widths[k];
  return offset + (port > n ? port - n : 0);
}

static char *
block_path (const QdBlock *block)
{
  GString *path = g_string_new (NULL);

  for (const QdBlock *b = block; b != NULL;
       b = b->parent != NULL ? b->parent->owner : NULL)
    {
      g_string_prepend (path, b->name);
      g_string_prepend_c (path, '/');
    }
  return g_string_free (path, FALSE);
}

#define add_problem qd_vector_add_problem

void
qd_vector_add_problem (Expander      *e,
             const QdBlock *block,
             const char    *format,
             ...)
{
  g_autofree char *path = block_path (block);
  g_autofree char *message = NULL;
  va_list args;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (e->problems,
                   qd_problem_new (QD_ERROR_PARAM, path, block->id, "%s", message));
  e->failed = TRUE;
}

/* The x0 list's elements when it has more than one (free them). */
static char **
x0_elements (const QdBlock *block)
{
  const char *text = qd_block_get_param (block, "x0");
  char **parts;

  if (text == NULL || strchr (text, ',') == NULL)
    return NULL;
  parts = qd_expr_split_vector (text);
  if (g_strv_length (parts) < 2)
    g_clear_pointer (&parts, g_strfreev);
  return parts;
}

static gboolean
has_size (const QdBlock *block)
{
  const char *size = qd_block_get_param (block, "size");
  double value;

  /* A plain "1" is the scalar block; anything else is looked at. */
  return size != NULL
         && !(qd_expr_parse_literal (size, &value) && value == 1.0);
}

static gboolean
system_has_vectors (QdSystem *system)
{
  /* The last types looked up, by id string (blocks of a type share it):
   * a large system alternates a few types. */
  const char *ids[4] = { NULL };
  const QdBlockType *types[4] = { NULL };
  guint next = 0;

  for (guint i = 0; i < system->blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (system->blocks, i);
      const QdBlockType *type = NULL;
      guint k = 0;
      g_auto(GStrv) x0 = NULL;

      while (k < G_N_ELEMENTS (ids) && ids[k] != block->type)
        k++;
      if (k < G_N_ELEMENTS (ids))
        type = types[k];
      else
        {
          type = qd_registry_lookup (block->type);
          ids[next] = block->type;
          types[next] = type;
          next = (next + 1) % G_N_ELEMENTS (ids);
        }
      if (block->inner != NULL && system_has_vectors (block->inner))
        return TRUE;
      if (type == NULL)
        continue;
      if ((type->flags & WIRING_FLAGS) != 0)
        return TRUE;
      /* A scalar's "elements" means nothing, but is checked. */
      if (qd_block_type_find_param (type, "elements") >= 0
          && (type->flags & QD_BLOCK_STRUCTURAL) == 0
          && qd_block_get_param (block, "elements") != NULL
          && strcmp (qd_block_get_param (block, "elements"), "all") != 0)
        return TRUE;
      if (qd_block_type_find_param (type, "size") >= 0
          && (has_size (block) || (x0 = x0_elements (block)) != NULL))
        return TRUE;
    }
  return FALSE;
}

static void
evaluate_variables (Expander          *e,
                    QdDocument        *document,
                    const char *const *overrides)
{
  GPtrArray *vars = qd_document_get_variables (document);
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; vars != NULL && i < vars->len; i++)
    {
      QdVariable *v = g_ptr_array_index (vars, i);

      g_ptr_array_add (e->var_names, g_strdup (v->name));
      g_ptr_array_add (texts, g_strdup (v->value != NULL ? v->value : ""));
    }
  /* As the compiler applies them; a bad override is its to report. */
  for (guint i = 0; overrides != NULL && overrides[i] != NULL; i++)
    {
      const char *eq = strchr (overrides[i], '=');
      char *name;
      guint k;

      if (eq == NULL)
        continue;
      name = g_strstrip (g_strndup (overrides[i], eq - overrides[i]));
      for (k = 0; k < e->var_names->len; k++)
        if (strcmp (g_ptr_array_index (e->var_names, k), name) == 0)
          break;
      if (k < e->var_names->len)
        {
          g_free (name);
          g_free (g_ptr_array_index (texts, k));
          g_ptr_array_index (texts, k) = g_strdup (eq + 1);
        }
      else
        {
          g_ptr_array_add (e->var_names, name);
          g_ptr_array_add (texts, g_strdup (eq + 1));
        }
    }
  for (guint i = 0; i < e->var_names->len; i++)
    {
      g_autoptr(QdExpr) expr = qd_expr_parse (g_ptr_array_index (texts, i), NULL);
      double value = NAN;

      if (expr != NULL
          && qd_expr_bind (expr, (const char *const *) e->var_names->pdata, i, NULL))
        value = qd_expr_eval (expr, (const double *) e->var_values->data);
      g_array_append_val (e->var_values, value);
    }
}

/* Evaluates @name of @block (its text or its default) over the model
 * variables into @value; a problem naming the block when it fails. */
#define eval_text qd_vector_eval_text

static gboolean
eval_param (Expander      *e,
            const QdBlock *block,
            const char    *name,
            double        *value)
{
  return eval_text (e, block, name, qd_block_get_param_or_default (block, name),
                    value);
}

/* Whether @block is inside a masked subsystem. */
static gboolean
in_mask (const QdBlock *block)
{
  for (QdSystem *system = block->parent; system != NULL && system->owner != NULL;
       system = system->owner->parent)
    if (system->mask != NULL)
      return TRUE;
  return FALSE;
}

gboolean
qd_vector_eval_text (Expander      *e,
                     const QdBlock *block,
                     const char    *name,
                     const char    *text,
                     double        *value)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QdExpr) expr = NULL;
  g_autoptr(GPtrArray) names = NULL;
  g_autoptr(GArray) values = NULL;

  if (text == NULL)
    text = "0";
  /* Inside a masked subsystem the mask's parameters come first, as the
   * compiler's scopes have them (a Size of "n" with n a mask
   * parameter). */
  if (in_mask (block))
    {
      /* Borrowed names: not g_ptr_array_copy(), which would give the
       * copy the model's free function. */
      names = g_ptr_array_sized_new (e->var_names->len);
      for (guint i = 0; i < e->var_names->len; i++)
        g_ptr_array_add (names, g_ptr_array_index (e->var_names, i));
      values = g_array_copy (e->var_values);
      qd_mask_add_scope (block, names, values);
    }
  expr = qd_expr_parse (text, &error);
  if (expr == NULL
      || !qd_expr_bind (expr,
                        (const char *const *) (names != NULL ? names : e->var_names)->pdata,
                        (names != NULL ? names : e->var_names)->len, &error))
    {
      add_problem (e, block, _("parameter '%s': %s"), name, error->message);
      return FALSE;
    }
  *value = qd_expr_eval (expr, (const double *) (void *)
                         (values != NULL ? values : e->var_values)->data);
  if (!isfinite (*value))
    {
      add_problem (e, block, _("parameter '%s' is not a finite number (it is %g)"),
                   name, *value);
      return FALSE;
    }
  return TRUE;
}

/* A Selector's "elements": "1, 3, 5:8" (from 1, each an expression). */
static void
parse_select (Expander *e,
              VBlock   *vb)
{
  guint n = 0;

  vb->select = qd_vector_parse_elements (e, vb->block, &n);
  if (vb->select == NULL)
    return;
  vb->width = n;
  vb->fixed = TRUE;
}

/* The block's "size" into its width. */
static gboolean
eval_size (Expander *e,
           VBlock   *vb)
{
  double value;

  if (!eval_param (e, vb->block, "size", &value))
    return FALSE;
  if (value != floor (value) || value < 1 || value > MAX_WIDTH)
    {
      add_problem (e, vb->block,
                   _("parameter 'size' must be a whole number from 1 to %u "
                     "(it is %g)"), MAX_WIDTH, value);
      return FALSE;
    }
  vb->width = (guint) value;
  return TRUE;
}

static gboolean
is_blank (const char *text)
{
  for (; text != NULL && *text != '\0'; text++)
    if (!g_ascii_isspace (*text))
      return FALSE;
  return TRUE;
}

/* A Demux's outputs, and their widths when "widths" gives them. */
static void
classify_demux (Expander *e,
                VBlock   *vb)
{
  const char *text = qd_block_get_param_or_default (vb->block, "widths");
  g_auto(GStrv) parts = NULL;
  double value;
  guint k;

  vb->kind = KIND_DEMUX;
  if (!eval_param (e, vb->block, "n", &value))
    return;
  if (value != floor (value) || value < 1 || value > 1024)
    {
      add_problem (e, vb->block, _("parameter 'n' must be a whole number "
                                   "from 1 to 1024 (it is %g)"), value);
      return;
    }
  vb->n_out = (guint) value;
  vb->out_width = g_new0 (guint, vb->n_out);
  if (is_blank (text))
    return;   /* even: the widths follow the input's */
  parts = qd_expr_split_vector (text);
  for (k = 0; parts[k] != NULL && k < vb->n_out; k++)
    {
      if (!eval_text (e, vb->block, "widths", parts[k], &value))
        return;
      if (value != floor (value) || value < 1 || value > MAX_WIDTH)
        {
          add_problem (e, vb->block,
                       _("parameter 'widths': output %u's width must be a "
                         "whole number from 1 (it is %g)"), k + 1, value);
          return;
        }
      vb->out_width[k] = (guint) value;
    }
  if (k != vb->n_out || parts[k] != NULL)
    add_problem (e, vb->block,
                 _("parameter 'widths' gives %u widths for %u outputs; give "
                   "one per output, or none to share the input evenly"),
                 g_strv_length (parts), vb->n_out);
  vb->fixed = TRUE;
}

static void
classify_wiring (Expander     *e,
                 VBlock       *vb,
                 QdBlockFlags  flags)
{
  double value;

  if ((flags & QD_BLOCK_INDEX_SHIFT) != 0)
    {
      vb->kind = KIND_SHIFT;
      if (eval_param (e, vb->block, "shift", &value))
        {
          if (value != floor (value) || fabs (value) > MAX_WIDTH)
            add_problem (e, vb->block,
                         _("parameter 'shift' must be a whole number (it is %g)"),
                         value);
          else
            vb->shift = (int) value;
        }
      if (eval_param (e, vb->block, "boundary", &value))
        vb->boundary = value;
    }
  else if ((flags & QD_BLOCK_VECTOR_MUX) != 0)
    vb->kind = KIND_MUX;
  else if ((flags & QD_BLOCK_VECTOR_SELECT) != 0)
    {
      vb->kind = KIND_SELECT;
      parse_select (e, vb);
    }
  else if ((flags & QD_BLOCK_VECTOR_SPREAD) != 0)
    {
      vb->kind = KIND_SPREAD;
      vb->fixed = eval_size (e, vb);
    }
  else if ((flags & QD_BLOCK_VECTOR_DEMUX) != 0)
    classify_demux (e, vb);
  else if ((flags & QD_BLOCK_TAG_SINK) != 0)
    vb->kind = KIND_GOTO;
  else if ((flags & QD_BLOCK_TAG_SOURCE) != 0)
    vb->kind = KIND_FROM;
  else if ((flags & QD_BLOCK_VECTOR_SUM) != 0)
    qd_vector_classify_sum (e, vb);
  else if ((flags & QD_BLOCK_VECTOR_MATRIX) != 0)
    qd_vector_classify_matrix (e, vb);
  else if (strcmp (vb->block->type, QD_TYPE_SUBSYSTEM) == 0
           && vb->block->inner != NULL)
    vb->kind = KIND_SUBSYSTEM;
  else if (strcmp (vb->block->type, QD_TYPE_INPORT) == 0
           || strcmp (vb->block->type, QD_TYPE_OUTPORT) == 0)
    {
      const char *text = qd_block_get_param_or_default (vb->block, "port");
      double number;

      vb->kind = vb->block->type[0] == 'i' ? KIND_INPORT : KIND_OUTPORT;
      /* A bad number is the compiler's to report. */
      if (text != NULL && qd_expr_parse_literal (text, &number)
          && number >= 1 && number <= 1e6 && number == floor (number))
        vb->port_number = (guint) number;
    }
  else
    vb->kind = KIND_STRUCTURAL;
}

/* The fixed widths, and what the kinds of blocks need of their
 * parameters. */
/* A vector of random sources: its seed parameter (QD_PARAM_SEED; a
 * type has one at most) and value, evaluated once for all its elements
 * (reseed_element()); vb->seed_param stays NULL when there is none or it
 * does not evaluate (a problem then names the block). */
static void
find_seed (Expander          *e,
           VBlock            *vb,
           const QdBlockType *type)
{
  for (guint k = 0; k < type->n_params; k++)
    if ((type->params[k].flags & QD_PARAM_SEED) != 0)
      {
        if (eval_param (e, vb->block, type->params[k].name, &vb->seed))
          vb->seed_param = type->params[k].name;
        return;
      }
}

static void
classify (Expander *e,
          VBlock   *vb)
{
  const QdBlockType *type = qd_registry_lookup (vb->block->type);

  vb->width = 1;
  if (type == NULL || (type->flags & QD_BLOCK_STRUCTURAL) != 0)
    {
      classify_wiring (e, vb, type != NULL ? type->flags : 0);
      return;
    }
  vb->kind = KIND_PLAIN;
  if (qd_block_type_find_param (type, "elements") >= 0)
    {
      qd_vector_classify_sink (e, vb);
      return;
    }
  if (qd_block_type_find_param (type, "size") < 0)
    return;
  vb->x0 = x0_elements (vb->block);
  if (has_size (vb->block))
    {
      if (!eval_size (e, vb))
        return;
      if (vb->x0 != NULL && g_strv_length (vb->x0) != vb->width)
        add_problem (e, vb->block,
                     _("x0 has %u elements but the size is %u; give one "
                       "value for all or one per element"),
                     g_strv_length (vb->x0), vb->width);
      find_seed (e, vb, type);
    }
  else if (vb->x0 != NULL)
    vb->width = g_strv_length (vb->x0);
  else
    return;   /* as wide as its input, like any other block */
  vb->fixed = TRUE;
}

static inline const VDriver *
driver (VSystem *vs,
        VBlock  *vb,
        guint    port)
{
  if (port >= vb->n_in)
    return NULL;
  return &g_array_index (vs->drivers, VDriver, vb->drivers + port);
}

guint
qd_vector_driver_width (VSystem *vs,
                        VBlock  *vb,
                        guint    port)
{
  const VDriver *d = driver (vs, vb, port);

  return d != NULL && d->src != 0 ? out_width (&vs->blocks[d->src - 1], d->port) : 1;
}

#define driver_width qd_vector_driver_width

typedef enum
{
  SOURCE_BLOCK,
  SOURCE_ZERO,
  SOURCE_NONE,
} SourceKind;

/* The first element of input @port of Subsystem @vb among the scalar
 * ports of its copy. */
static guint
in_offset (VSystem *vs,
           VBlock  *vb,
           guint    port)
{
  guint offset = 0;

  for (guint k = 0; k < port; k++)
    offset += driver_width (vs, vb, k);
  return offset;
}

/* The Inport or Outport (@kind) of @vs numbered @number, or NULL. */
static VBlock *
find_port (VSystem *vs,
           Kind     kind,
           guint    number)
{
  for (guint i = 0; i < vs->n; i++)
    if (vs->blocks[i].kind == kind && vs->blocks[i].port_number == number)
      return &vs->blocks[i];
  return NULL;
}

static void infer_system (VSystem *vs);

/* A Subsystem's inside, then its outputs' widths from its Outports'. */
static gboolean
infer_subsystem (VBlock *vb)
{
  VSystem *inner = vb->inner;
  gboolean changed = FALSE;
  guint n = 0;

  infer_system (inner);
  for (guint i = 0; i < inner->n; i++)
    if (inner->blocks[i].kind == KIND_OUTPORT)
      n = MAX (n, inner->blocks[i].port_number);
  if (n != vb->n_out)
    {
      vb->out_width = g_renew (guint, vb->out_width, MAX (n, 1));
      vb->n_out = n;
      changed = TRUE;
    }
  for (guint k = 0; k < n; k++)
    {
      VBlock *port = find_port (inner, KIND_OUTPORT, k + 1);
      guint w = port != NULL ? port->width : 1;

      changed |= w != vb->out_width[k];
      vb->out_width[k] = w;
    }
  return changed;
}

/* @vb's widths from its inputs' (across the hierarchy for ports and
 * Subsystems); TRUE when they changed. */
static gboolean
infer_block (VSystem *vs,
             VBlock  *vb)
{
  guint w = 1;

  if (vb->fixed || vb->kind == KIND_STRUCTURAL)
    return FALSE;
  switch (vb->kind)
    {
    case KIND_SUBSYSTEM:
      return infer_subsystem (vb);
    case KIND_DEMUX:
      w = vb->n_out > 0 ? MAX (driver_width (vs, vb, 0) / vb->n_out, 1) : 1;
      if (vb->n_out == 0 || vb->out_width[0] == w)
        return FALSE;
      for (guint k = 0; k < vb->n_out; k++)
        vb->out_width[k] = w;
      return TRUE;
    case KIND_INPORT:
      if (vs->owner != NULL && vb->port_number > 0)
        w = driver_width (vs->parent, vs->owner, vb->port_number - 1);
      break;
    case KIND_SHIFT:
    case KIND_OUTPORT:
    case KIND_GOTO:
      w = driver_width (vs, vb, 0);
      break;
    case KIND_FROM:
      w = vb->peer > 0 ? vs->blocks[vb->peer - 1].width : 1;
      break;
    case KIND_MUX:
      {
        guint64 sum = 0;

        for (guint q = 0; q < vb->n_in; q++)
          sum += driver_width (vs, vb, q);
        w = (guint) MIN (MAX (sum, 1), MAX_WIDTH);
      }
      break;
    default:
      for (guint q = 0; q < vb->n_in; q++)
        w = MAX (w, driver_width (vs, vb, q));
      break;
    }
  if (w == vb->width)
    return FALSE;
  vb->width = w;
  return TRUE;
}

/* Widths flow along the links until none changes: each pass can only
 * widen a block, up to the widest fixed width. */
static void
infer_system (VSystem *vs)
{
  gboolean changed = TRUE;

  for (guint pass = 0; changed && pass <= vs->n + 1; pass++)
    {
      changed = FALSE;
      for (guint i = 0; i < vs->n; i++)
        changed |= infer_block (vs, &vs->blocks[i]);
    }
}

static void
check_demux (Expander *e,
             VSystem  *vs,
             VBlock   *vb)
{
  guint in = driver_width (vs, vb, 0);
  guint64 sum = 0;

  if (vb->n_out == 0)
    return;
  for (guint k = 0; k < vb->n_out; k++)
    sum += vb->out_width[k];
  if (!vb->fixed && in % vb->n_out != 0)
    add_problem (e, vb->block,
                 _("input 1 carries %u signals, which %u outputs cannot "
                   "share evenly; give the outputs' widths (parameter "
                   "'widths')"), in, vb->n_out);
  else if (vb->fixed && sum != in)
    add_problem (e, vb->block,
                 _("parameter 'widths' adds up to %u but input 1 carries "
                   "%u signals; make them equal"),
                 (guint) MIN (sum, G_MAXUINT), in);
}

static void
check_widths (Expander *e,
              VSystem  *vs)
{
  for (guint i = 0; i < vs->n; i++)
    {
      VBlock *vb = &vs->blocks[i];

      if (vb->kind == KIND_SELECT)
        for (guint k = 0; k < vb->width && vb->select != NULL; k++)
          if (vb->select[k] >= driver_width (vs, vb, 0))
            {
              add_problem (e, vb->block,
                           _("element %u is selected but input 1 carries %u "
                             "signals"), vb->select[k] + 1, driver_width (vs, vb, 0));
              break;
            }
      if (vb->kind == KIND_DEMUX)
        check_demux (e, vs, vb);
      if (vb->kind == KIND_SUBSYSTEM)
        check_widths (e, vb->inner);
      if (is_computed (vb))
        {
          qd_vector_check_computed (e, vs, vb);
          continue;
        }
      for (guint q = 0; q < vb->n_in; q++)
        {
          guint w = driver_width (vs, vb, q);

          if (w == 1)
            continue;
          if (vb->kind == KIND_STRUCTURAL)
            add_problem (e, vb->block,
                         _("input %u carries a vector of %u signals; it "
                           "takes one signal"), q + 1, w);
          else if ((vb->kind == KIND_SHIFT && q > 0) || vb->kind == KIND_SPREAD)
            add_problem (e, vb->block,
                         _("input %u carries a vector of %u signals; it "
                           "takes one signal"), q + 1, w);
          else if (vb->kind == KIND_PLAIN && w != vb->width)
            add_problem (e, vb->block,
                         _("input %u carries %u signals but the block is %u "
                           "wide; make the widths match (a scalar input "
                           "drives every element)"), q + 1, w, vb->width);
        }
    }
}

/* The input drivers of every block, from the links. */
static gboolean
index_drivers (Expander *e,
               VSystem  *vs,
               QdSystem *system)
{
  g_autoptr(GHashTable) by_id = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < vs->n; i++)
    g_hash_table_insert (by_id, vs->blocks[i].block->id, GUINT_TO_POINTER (i + 1));
  for (int pass = 0; pass < 2; pass++)
    {
      guint32 total = 0;

      if (pass == 1)
        {
          for (guint i = 0; i < vs->n; i++)
            {
              vs->blocks[i].drivers = total;
              total += vs->blocks[i].n_in;
            }
          g_array_set_size (vs->drivers, total);
        }
      for (guint l = 0; l < system->links->len; l++)
        {
          QdLink *link = g_ptr_array_index (system->links, l);
          guint src = GPOINTER_TO_UINT (g_hash_table_lookup (by_id, link->src.block));

          for (guint k = 0; k < link->n_targets; k++)
            {
              QdLinkTarget *target = link->targets[k];
              guint dst = GPOINTER_TO_UINT (g_hash_table_lookup (by_id, target->dst.block));
              VBlock *vb;

              if (dst == 0 || target->dst.port > 4096)
                continue;
              vb = &vs->blocks[dst - 1];
              if (pass == 0)
                vb->n_in = MAX (vb->n_in, target->dst.port + 1);
              else
                {
                  VDriver *d = &g_array_index (vs->drivers, VDriver,
                                               vb->drivers + target->dst.port);

                  d->src = src;
                  d->port = link->src.port;
                }
            }
        }
    }
  (void) e;
  return TRUE;
}


/* The "port" of element @i of an Inport or Outport: its port's first
 * element among the scalar ports of the Subsystem's copy, plus @i. */
static guint
element_port (VSystem *vs,
              VBlock  *vb,
              guint    i)
{
  VBlock *owner = vs->owner;
  guint port = vb->port_number - 1;

  if (vb->kind == KIND_INPORT)
    return in_offset (vs->parent, owner, port) + i + 1;
  return port_offset (owner->out_width, owner->n_out, port) + i + 1;
}

const char *
qd_vector_element_text (Expander   *e,
                        const char *base,
                        guint       i)
{
  char digits[12];
  guint n = 0;

  for (guint v = i + 1; v > 0; v /= 10)
    digits[n++] = (char) ('0' + v % 10);
  g_string_assign (e->text, base);
  g_string_append_c (e->text, '[');
  while (n > 0)
    g_string_append_c (e->text, digits[--n]);
  g_string_append_c (e->text, ']');
  return e->text->str;
}

/* The block every element of @vb copies: its type and parameters
 * without "size", made once so that the elements share one parameter
 * set rather than each building its own. */
static QdBlock *
like_block (VBlock *vb)
{
  QdBlock *src = vb->block;

  if (vb->like != NULL)
    return vb->like;
  vb->like = qd_block_new (src->id, src->type, src->name);
  vb->like->x = src->x;
  vb->like->y = src->y;
  for (guint k = 0; k < src->params->len; k++)
    {
      const QdParam *param = &g_array_index (src->params, QdParam, k);

      if (strcmp (param->name, "size") != 0)
        qd_block_set_param_raw (vb->like, param->name, param->value);
    }
  return vb->like;
}

/* Element @i of a vector of random sources draws its own numbers: its
 * seed (vb->seed_param) is the block's plus i, modulo 2^32, so that
 * element 1 is the scalar block and a sweep's reseeding, which goes by
 * block index, still gives every element a stream of its own. */
static void
reseed_element (VBlock  *vb,
                QdBlock *block,
                guint    i)
{
  char text[24];

  g_snprintf (text, sizeof text, "%" G_GUINT64_FORMAT,
              ((guint64) vb->seed + i) & G_GUINT64_CONSTANT (0xffffffff));
  qd_block_set_param_raw (block, vb->seed_param, text);
}

QdBlock *
qd_vector_copy_whole (VBlock *vb)
{
  QdBlock *like = like_block (vb);

  return qd_block_new_like (like, like->id, like->name);
}

QdBlock *
qd_vector_copy_block (Expander *e,
                      VBlock   *vb,
                      guint     i)
{
  QdBlock *like = like_block (vb);
  QdBlock *block;
  g_autofree char *id = NULL;

  if (vb->width == 1)
    return qd_vector_copy_whole (vb);
  id = g_strdup (qd_vector_element_text (e, like->id, i));
  block = qd_block_new_like (like, id, qd_vector_element_text (e, like->name, i));
  if (vb->x0 != NULL)
    {
      g_autofree char *piece = g_strstrip (g_strdup (vb->x0[i]));

      qd_block_set_param_raw (block, "x0", piece);
    }
  if (i > 0 && vb->seed_param != NULL)
    reseed_element (vb, block, i);
  return block;
}

/* Element @i of a block that is not wiring, not yet in the copy. */
static QdBlock *
make_element (Expander *e,
              VSystem  *vs,
              VBlock   *vb,
              guint     i)
{
  QdBlock *block;

  if (is_computed (vb))
    return qd_vector_make_computed (e, vs, vb, i);
  block = qd_vector_copy_block (e, vb, i);
  if ((vb->kind == KIND_INPORT || vb->kind == KIND_OUTPORT)
      && vs->owner != NULL && vb->port_number > 0)
    {
      guint port = element_port (vs, vb, i);

      /* Renumbered only when a vector shifts the ports. */
      if (port != vb->port_number)
        {
          g_autofree char *text = g_strdup_printf ("%u", port);

          qd_block_set_param_raw (block, "port", text);
        }
    }
  if ((vb->kind == KIND_GOTO || vb->kind == KIND_FROM) && vb->width > 1)
    {
      /* Element i is published under the tag "tag[i]". */
      const char *name = qd_block_get_type_info (vb->block)->params[0].name;
      g_autofree char *tag = g_strdup_printf ("%s[%u]",
                                              qd_block_get_param_or_default (vb->block, name),
                                              i + 1);

      qd_block_set_param_raw (block, name, tag);
    }
  if (vb->kind == KIND_SUBSYSTEM)
    {
      emit_system (e, vb->inner);
      qd_system_unref (block->inner);
      block->inner = g_steal_pointer (&vb->inner->out);
      block->inner->owner = block;
      qd_system_take_mask (block->inner, qd_mask_copy (vb->inner->system->mask));
    }
  return block;
}

QdBlock *
qd_vector_boundary_constant (VSystem *vs,
                             VBlock  *shift)
{
  if (shift->constant == NULL)
    {
      g_autofree char *id = g_strdup_printf ("%s[boundary]", shift->block->id);
      g_autofree char *name = g_strdup_printf ("%s boundary", shift->block->name);
      g_autofree char *value = g_strdup_printf ("%.17g", shift->boundary);

      shift->constant = qd_block_new (id, "constant", name);
      qd_block_set_param_raw (shift->constant, "value", value);
      qd_system_append_block (vs->out, shift->constant);
    }
  return shift->constant;
}

/* What drives element @i of output @port of @vb: an element block's
 * output, through any wiring. */
static SourceKind
resolve (Expander  *e,
         VSystem   *vs,
         VBlock    *vb,
         guint      port,
         guint      i,
         QdBlock  **block,
         guint     *block_port)
{
  for (guint depth = 0; is_wiring (vb); depth++)
    {
      const VDriver *d = NULL;
      gint64 j;

      if (depth > vs->n)
        return SOURCE_NONE;   /* a loop of wiring: no block drives it */
      if (out_width (vb, port) == 1)
        i = 0;                /* a scalar drives every element */
      j = (gint64) i - vb->shift;
      if (vb->kind == KIND_DEMUX)
        {
          i += port_offset (vb->out_width, vb->n_out, port);
          d = driver (vs, vb, 0);
        }
      else if (vb->kind != KIND_SHIFT)
        {
          guint q = 0;

          if (vb->kind == KIND_SELECT)
            i = vb->select[i];
          else if (vb->kind == KIND_SPREAD)
            i = 0;
          else
            for (; q < vb->n_in && i >= driver_width (vs, vb, q); q++)
              i -= driver_width (vs, vb, q);
          d = driver (vs, vb, q);
        }
      else if (j >= 0 && j < vb->width)
        {
          d = driver (vs, vb, 0);
          i = (guint) j;
        }
      else if ((d = driver (vs, vb, 1)) != NULL && d->src != 0)
        i = 0;
      else if (vb->boundary == 0.0)
        return SOURCE_ZERO;
      else
        {
          *block = qd_vector_boundary_constant (vs, vb);
          *block_port = 0;
          return SOURCE_BLOCK;
        }
      if (d == NULL || d->src == 0)
        return SOURCE_NONE;
      port = d->port;
      vb = &vs->blocks[d->src - 1];
    }
  (void) e;
  if (vb->elements == NULL)
    return SOURCE_NONE;       /* a block the copy leaves out */
  if (out_width (vb, port) == 1)
    i = 0;
  if (vb->kind == KIND_SUBSYSTEM)
    {
      *block = vb->elements[0];
      *block_port = port_offset (vb->out_width, vb->n_out, port) + i;
      return SOURCE_BLOCK;
    }
  *block = vb->elements[vb->width > 1 ? i : 0];
  *block_port = port;
  return SOURCE_BLOCK;
}

static SourceKind
resolve_input (Expander  *e,
               VSystem   *vs,
               VBlock    *vb,
               guint      port,
               guint      i,
               QdBlock  **block,
               guint     *block_port)
{
  const VDriver *d = driver (vs, vb, port);

  if (d == NULL || d->src == 0)
    return SOURCE_NONE;
  return resolve (e, vs, &vs->blocks[d->src - 1], d->port, i, block, block_port);
}

void
qd_vector_connect (Expander *e,
                   VSystem  *vs,
                   QdBlock  *src,
                   guint     src_port,
                   QdBlock  *dst,
                   guint     dst_port)
{
  /* Most outputs are a block's first: those by the block's address
   * alone, spared a formatted key. */
  g_autofree char *key = src_port == 0
    ? NULL : g_strdup_printf ("%p/%u", (void *) src, src_port);
  GHashTable *links = src_port == 0 ? vs->first_links : vs->links;
  gconstpointer lookup = src_port == 0 ? (gconstpointer) src : key;
  QdLink *link = g_hash_table_lookup (links, lookup);

  if (link == NULL)
    {
      link = qd_link_new_from_block (qd_vector_element_text (e, "vector-link",
                                                             e->n_links++),
                                     src, src_port);
      qd_system_append_link (vs->out, link);
      g_hash_table_insert (links, src_port == 0 ? (gpointer) src : g_steal_pointer (&key),
                           link);
    }
  qd_link_add_target_block (link, dst, dst_port);
}

/* Appends the blocks in priority order: a run of neighbouring vector
 * blocks of one width element by element (see the top of the file). */
static void
emit_blocks (Expander *e,
             VSystem  *vs)
{
  for (guint i = 0; i < vs->n;)
    {
      VBlock *vb = &vs->blocks[i];
      guint end = i + 1;

      if (is_wiring (vb))
        {
          i++;
          continue;
        }
      if (vb->width > 1)
        while (end < vs->n
               && (is_wiring (&vs->blocks[end])
                   || ((vs->blocks[end].kind == KIND_PLAIN
                        || vs->blocks[end].kind == KIND_MATRIX)
                       && vs->blocks[end].width == vb->width)))
          end++;
      for (guint k = i; k < end; k++)
        if (!is_wiring (&vs->blocks[k]))
          vs->blocks[k].elements = g_new0 (QdBlock *, vs->blocks[k].width);
      for (guint el = 0; el < vb->width; el++)
        for (guint k = i; k < end; k++)
          {
            VBlock *run = &vs->blocks[k];

            if (is_wiring (run))
              continue;
            run->elements[el] = make_element (e, vs, run, el);
            qd_system_append_block (vs->out, run->elements[el]);
          }
      i = end;
    }
}

/* A constant 0 in the copy of @vs, made once. */
static QdBlock *
zero_block (VSystem *vs)
{
  if (vs->zero == NULL)
    {
      vs->zero = qd_block_new ("vector-zero", "constant", "0 (boundary)");
      qd_block_set_param_raw (vs->zero, "value", "0");
      qd_system_append_block (vs->out, vs->zero);
    }
  return vs->zero;
}

void
qd_vector_link_element (Expander *e,
                        VSystem  *vs,
                        VBlock   *vb,
                        guint     q,
                        guint     el,
                        QdBlock  *dst,
                        guint     dst_port)
{
  QdBlock *src = NULL;
  guint src_port = 0;

  switch (resolve_input (e, vs, vb, q, el, &src, &src_port))
    {
    case SOURCE_BLOCK:
      qd_vector_connect (e, vs, src, src_port, dst, dst_port);
      break;
    case SOURCE_ZERO:
      /* Only an atomic block reads zero from an unconnected input: a
       * port passes a constant 0 on. */
      if (vb->kind == KIND_SUBSYSTEM || vb->kind == KIND_OUTPORT)
        qd_vector_connect (e, vs, zero_block (vs), 0, dst, dst_port);
      else
        g_hash_table_add (e->zero_inputs, dst);
      break;
    case SOURCE_NONE:
      break;   /* left unconnected: the compiler says so */
    }
}

static void
emit_links (Expander *e,
            VSystem  *vs)
{
  for (guint b = 0; b < vs->n; b++)
    {
      VBlock *vb = &vs->blocks[b];

      if (is_wiring (vb))
        continue;
      if (is_computed (vb))
        qd_vector_link_computed (e, vs, vb);
      else if (vb->kind == KIND_SUBSYSTEM)
        /* Input q's elements into the copy's scalar ports. */
        for (guint q = 0; q < vb->n_in; q++)
          {
            guint offset = in_offset (vs, vb, q);

            for (guint el = 0; el < driver_width (vs, vb, q); el++)
              qd_vector_link_element (e, vs, vb, q, el, vb->elements[0],
                                      offset + el);
          }
      else
        for (guint el = 0; el < vb->width; el++)
          for (guint q = 0; q < vb->n_in; q++)
            qd_vector_link_element (e, vs, vb, q, el, vb->elements[el], q);
    }
}

/* The text of a Goto's or From's tag. */
static const char *
tag_of (const VBlock *vb)
{
  const QdBlockType *type = qd_block_get_type_info (vb->block);

  if (type == NULL || type->n_params == 0)
    return "";
  return qd_block_get_param_or_default (vb->block, type->params[0].name);
}

/* Each From's Goto: the first of the system with its tag. */
static void
find_peers (VSystem *vs)
{
  g_autoptr(GHashTable) gotos = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < vs->n; i++)
    if (vs->blocks[i].kind == KIND_GOTO
        && !g_hash_table_contains (gotos, tag_of (&vs->blocks[i])))
      g_hash_table_insert (gotos, (gpointer) tag_of (&vs->blocks[i]),
                           GUINT_TO_POINTER (i + 1));
  for (guint i = 0; i < vs->n; i++)
    if (vs->blocks[i].kind == KIND_FROM)
      vs->blocks[i].peer = GPOINTER_TO_UINT (g_hash_table_lookup (gotos,
                                                                  tag_of (&vs->blocks[i])));
}

/* @system's blocks with their kinds and drivers, and those of the
 * systems inside its Subsystems. */
static void
vsystem_init (Expander *e,
              VSystem  *vs,
              QdSystem *system,
              VSystem  *parent,
              VBlock   *owner)
{
  vs->system = system;
  vs->parent = parent;
  vs->owner = owner;
  vs->n = system->blocks->len;
  vs->blocks = g_new0 (VBlock, MAX (vs->n, 1));
  vs->drivers = g_array_new (FALSE, TRUE, sizeof (VDriver));
  vs->links = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  vs->first_links = g_hash_table_new (NULL, NULL);
  for (guint i = 0; i < vs->n; i++)
    {
      VBlock *vb = &vs->blocks[i];

      vb->block = g_ptr_array_index (system->blocks, i);
      classify (e, vb);
      if (vb->kind == KIND_SUBSYSTEM)
        {
          vb->inner = g_new0 (VSystem, 1);
          vsystem_init (e, vb->inner, vb->block->inner, vs, vb);
        }
    }
  index_drivers (e, vs, system);
  find_peers (vs);
}

static void
vsystem_clear (VSystem *vs)
{
  for (guint i = 0; i < vs->n; i++)
    {
      VBlock *vb = &vs->blocks[i];

      g_strfreev (vb->x0);
      g_free (vb->select);
      g_free (vb->elements);
      g_clear_pointer (&vb->like, qd_block_unref);
      g_free (vb->out_width);
      g_free (vb->signs);
      qd_matrix_clear (&vb->matrix);
      if (vb->inner != NULL)
        {
          vsystem_clear (vb->inner);
          g_free (vb->inner);
        }
    }
  g_free (vs->blocks);
  g_array_unref (vs->drivers);
  g_hash_table_unref (vs->links);
  g_hash_table_unref (vs->first_links);
  g_clear_pointer (&vs->out, qd_system_unref);
}

static void
emit_system (Expander *e,
             VSystem  *vs)
{
  vs->out = qd_system_new ();
  emit_blocks (e, vs);
  emit_links (e, vs);
}

static void
expander_init (Expander          *e,
               QdDocument        *document,
               const char *const *overrides,
               GPtrArray         *problems)
{
  e->problems = problems;
  e->var_names = g_ptr_array_new_with_free_func (g_free);
  e->var_values = g_array_new (FALSE, FALSE, sizeof (double));
  e->text = g_string_new (NULL);
  evaluate_variables (e, document, overrides);
}

static void
expander_clear (Expander *e)
{
  g_ptr_array_unref (e->var_names);
  g_array_unref (e->var_values);
  g_string_free (e->text, TRUE);
}

static VSystem *
find_vsystem (VSystem  *vs,
              QdSystem *system)
{
  if (vs->system == system)
    return vs;
  for (guint i = 0; i < vs->n; i++)
    if (vs->blocks[i].inner != NULL)
      {
        VSystem *found = find_vsystem (vs->blocks[i].inner, system);

        if (found != NULL)
          return found;
      }
  return NULL;
}

GHashTable *
qd_vector_link_widths (QdDocument *document,
                       QdSystem   *system)
{
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GHashTable) by_id = NULL;
  QdSystem *root;
  Expander e = { 0 };
  VSystem tree = { 0 };
  VSystem *vs;
  GHashTable *widths;

  g_return_val_if_fail (QD_IS_DOCUMENT (document), NULL);
  root = qd_document_get_root (document);
  if (system == NULL || root == NULL || !system_has_vectors (root))
    return NULL;

  problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  expander_init (&e, document, NULL, problems);
  vsystem_init (&e, &tree, root, NULL, NULL);
  infer_system (&tree);
  widths = g_hash_table_new (NULL, NULL);
  vs = find_vsystem (&tree, system);
  by_id = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; vs != NULL && i < vs->n; i++)
    g_hash_table_insert (by_id, vs->blocks[i].block->id, &vs->blocks[i]);
  for (guint l = 0; vs != NULL && l < system->links->len; l++)
    {
      QdLink *link = g_ptr_array_index (system->links, l);
      VBlock *vb = g_hash_table_lookup (by_id, link->src.block);
      guint w = vb != NULL ? out_width (vb, link->src.port) : 1;

      if (w > 1)
        g_hash_table_insert (widths, link, GUINT_TO_POINTER (w));
    }
  vsystem_clear (&tree);
  expander_clear (&e);
  return widths;
}

QdDocument *
qd_vector_expand (QdDocument        *document,
                  const char *const *overrides,
                  GPtrArray         *problems,
                  GHashTable        *zero_inputs,
                  GHashTable        *native)
{
  Expander e = { 0 };
  VSystem tree = { 0 };
  QdSystem *root = qd_document_get_root (document);
  QdDocument *flat;
  QdSystem *flat_root = NULL;
  GPtrArray *vars;

  if (root == NULL || !system_has_vectors (root))
    return NULL;

  expander_init (&e, document, overrides, problems);
  e.zero_inputs = zero_inputs;
  vsystem_init (&e, &tree, root, NULL, NULL);
  infer_system (&tree);
  check_widths (&e, &tree);
  if (!e.failed && native != NULL
      && qd_vector_native_plan (&e, &tree, qd_document_get_settings (document)))
    {
      qd_vector_native_emit (&e, &tree, native);
      flat_root = g_steal_pointer (&tree.out);
    }
  else if (!e.failed)
    {
      emit_system (&e, &tree);
      flat_root = g_steal_pointer (&tree.out);
    }
  vsystem_clear (&tree);
  expander_clear (&e);
  if (e.failed)
    {
      g_clear_pointer (&flat_root, qd_system_unref);
      return NULL;
    }

  flat = qd_document_new ();
  qd_document_take_root (flat, flat_root);
  qd_document_set_settings (flat, qd_document_get_settings (document), NULL);
  vars = qd_document_get_variables (document);
  for (guint i = 0; vars != NULL && i < vars->len; i++)
    {
      QdVariable *v = g_ptr_array_index (vars, i);

      qd_document_set_variable (flat, v->name, v->value, NULL);
    }
  return flat;
}

/* A copy of this many blocks is worth trimming the heap after (a small
 * one is not worth the walk over the heap, once per run of a sweep). */
#define TRIM_BLOCKS 50000

/* The copy's blocks and links are millions of small allocations among
 * which the compiler's own were made: freed, they stay in the process
 * as free space until trimmed (the LC line at N = 10^6: 445 MB less
 * resident once compiled, and 114 MB off the peak, reached while the
 * run is prepared). */
void
qd_vector_release (QdDocument *flat)
{
  QdSystemCounts counts = { 0 };

  qd_system_count (qd_document_get_root (flat), &counts);
  g_object_unref (flat);
#ifdef __GLIBC__
  if (counts.blocks >= TRIM_BLOCKS)
    malloc_trim (0);
#endif
}

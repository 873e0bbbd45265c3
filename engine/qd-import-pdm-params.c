/* qd-import-pdm-params.c: the parameters of an imported block
 *
 * Each parameter of a PowerDEVS atomic is read by its position, as its
 * table entry (qd-import-pdm-table.c) says: translated from Scilab,
 * combined with the one before it, gathered into a list, or checked and
 * remembered. PowerDEVS's vector library numbers elements from 0 and
 * QDevs from 1, and its scalar2vec has no width of its own: the width
 * comes from the Size of the block it drives, once the nets are known
 * (qd_pdm_size_spreads()).
 */
#include <math.h>
#include <string.h>
#include <glib/gi18n-lib.h>

#include "qd-expr.h"
#include "qd-import-pdm-private.h"

/* Sets @name of @block to @value, or reports why not. */
void
qd_pdm_set_param (Importer   *imp,
                  QdBlock    *block,
                  const char *path,
                  const char *name,
                  const char *value)
{
  g_autoptr(GError) error = NULL;

  if (qd_block_get_type_info (block) != NULL
      && !qd_block_check_param (block, name, value, &error))
    qd_pdm_report (imp, path, block->id,
                   _("%s = '%s': %s; fix it in the inspector"),
            name, value, error->message);
  qd_block_set_param_raw (block, name, value);
}

/* The value of a parameter as QDevs text for @kind, or NULL (reported)
 * when it cannot be translated: then the Scilab text is kept. */
static char *
param_text (Importer       *imp,
            QdBlock        *block,
            const char     *path,
            const PdmParam *param,
            QdPdmParamKind  kind)
{
  gboolean exact;

  switch (kind)
    {
    case QD_PDM_METHOD:
      {
        const char *method = qd_pdm_method (param->value, &exact);

        if (!exact && param->value[0] == '\0')
          qd_pdm_report (imp, path, block->id,
                  _("%s names no method; %s is used"), param->name, method);
        else if (!exact)
          qd_pdm_report (imp, path, block->id,
                  _("the method %s is not in QDevs; %s is used instead"),
                  param->value, method);
        return g_strdup (method);
      }
    case QD_PDM_YESNO:
      return g_strdup (g_ascii_strncasecmp (param->value, "yes", 3) == 0
                       || g_ascii_strncasecmp (param->value, "with", 4) == 0
                       || g_ascii_strncasecmp (param->value, "true", 4) == 0
                       || g_ascii_strncasecmp (param->value, "on", 2) == 0
                       ? "true" : "false");
    case QD_PDM_TEXT:
      return g_strdup (param->value);
    default:
      return qd_pdm_translate (imp, path, block->id, param->name, param->value,
                               kind == QD_PDM_FUNCTION ? QD_PDM_AS_FUNCTION
                                                       : QD_PDM_AS_EXPR);
    }
}

/* "(a) op (b)", or its value when both are numbers. */
static char *
combine (char        op,
         const char *a,
         const char *b)
{
  char *end_a, *end_b;
  double x = g_ascii_strtod (a, &end_a);
  double y = g_ascii_strtod (b, &end_b);

  if (end_a != a && *end_a == '\0' && end_b != b && *end_b == '\0'
      && (op != '/' || y != 0))
    {
      char buffer[G_ASCII_DTOSTR_BUF_SIZE];

      return g_strdup (g_ascii_formatd (buffer, sizeof buffer, "%.15g",
                                        op == '-' ? x - y : x / y));
    }
  return g_strdup_printf ("(%s) %c (%s)", a, op, b);
}

/* Already reported where it was a parameter of its own. */
static char *
translate_quiet (Importer   *imp,
                 const char *text)
{
  g_autofree char *unknown = NULL;
  g_autofree char *why = NULL;

  return qd_pdm_translate_expr (text, FALSE, qd_pdm_resolve_name, imp, &unknown, &why);
}

/* -------------------------------------------------------------------- */
/* The vector library */

/* What a vector block's parameters leave for the end. */
typedef struct
{
  char   *range_start;   /* QDevs element of an Index Selector's from */
  char   *repeat;        /* a Vector Sum's K */
  gint64  size;          /* the block's Size when a whole number, or 0 */
} VectorState;

/* @text as a whole number: a literal, or a model variable that is one. */
static gboolean
whole_number (Importer   *imp,
              const char *text,
              gint64     *value)
{
  double x;

  if (text == NULL)
    return FALSE;
  for (guint i = 0; i < imp->var_names->len; i++)
    if (strcmp (g_ptr_array_index (imp->var_names, i), text) == 0)
      text = g_ptr_array_index (imp->var_values, i);
  if (!qd_expr_parse_literal (text, &x) || x != floor (x) || fabs (x) > 1e15)
    return FALSE;
  *value = (gint64) x;
  return TRUE;
}

/* @param's Scilab vector or matrix as QDevs text, or NULL (reported). */
static char *
translate_array (Importer       *imp,
                 QdBlock        *block,
                 const char     *path,
                 const PdmParam *param,
                 gboolean        matrix)
{
  return qd_pdm_translate (imp, path, block->id, param->name, param->value,
                           matrix ? QD_PDM_AS_MATRIX : QD_PDM_AS_LIST);
}

/* One element (from 0) of @param, translated, as a QDevs element (from
 * 1), or NULL (reported). */
static char *
one_element (Importer       *imp,
             QdBlock        *block,
             const char     *path,
             const PdmParam *param,
             const char     *text)
{
  double x;
  gint64 i = -1;
  gboolean literal = qd_expr_parse_literal (text, &x);
  /* A model variable whose value is a number is checked too. */
  gboolean whole = whole_number (imp, text, &i);

  if ((literal || whole) && !(whole && i >= 0))
    {
      qd_pdm_report (imp, path, block->id,
                     _("%s = '%s' is not an element: PowerDEVS numbers the "
                       "elements of a vector from 0, so give a whole number "
                       "0 or above"), param->name, param->value);
      return NULL;
    }
  if (literal)
    return g_strdup_printf ("%" G_GINT64_FORMAT, i + 1);
  /* An expression: QDevs numbers from 1. */
  return g_strdup_printf (qd_expr_is_valid_name (text) ? "%s + 1" : "(%s) + 1",
                          text);
}

/* PowerDEVS's element @param (from 0), or a vector of them, as QDevs
 * elements (from 1), or NULL (reported). */
static char *
element_text (Importer       *imp,
              QdBlock        *block,
              const char     *path,
              const PdmParam *param)
{
  g_autofree char *text = translate_array (imp, block, path, param, FALSE);
  g_auto(GStrv) parts = NULL;
  g_autoptr(GString) out = g_string_new (NULL);

  if (text == NULL)
    return NULL;
  parts = qd_expr_split_vector (text);
  for (guint i = 0; parts[i] != NULL; i++)
    {
      g_autofree char *element = one_element (imp, block, path, param,
                                              g_strstrip (parts[i]));

      if (element == NULL)
        return NULL;
      g_string_append_printf (out, "%s%s", i > 0 ? ", " : "", element);
    }
  return g_string_free (g_steal_pointer (&out), FALSE);
}

/* A vector's Size: a whole number 1 or above, or an expression. */
static char *
size_text (Importer       *imp,
           QdBlock        *block,
           const char     *path,
           const PdmParam *param,
           gint64         *size)
{
  g_autofree char *text = qd_pdm_translate (imp, path, block->id, param->name,
                                            param->value, QD_PDM_AS_EXPR);
  double x;

  *size = 0;
  if (text == NULL)
    return NULL;
  if (whole_number (imp, text, size) && *size >= 1)
    return g_steal_pointer (&text);
  *size = 0;
  if (qd_expr_parse_literal (text, &x) || whole_number (imp, text, size))
    {
      *size = 0;
      qd_pdm_report (imp, path, block->id,
                     _("%s = '%s' is not a vector's size: give the number of "
                       "elements, a whole number 1 or above"),
                     param->name, param->value);
      return NULL;
    }
  return g_steal_pointer (&text);
}

static void
vector_array (Importer       *imp,
              QdBlock        *block,
              const char     *path,
              const PdmParam *param,
              const char     *name,
              gboolean        matrix)
{
  g_autofree char *text = translate_array (imp, block, path, param, matrix);

  if (text != NULL)
    qd_pdm_set_param (imp, block, path, name, text);
  else
    qd_block_set_param_raw (block, name, param->value);
}

/* scalar2vec's Index: -1, or an element from 0. */
static void
vector_spread (Importer       *imp,
               QdBlock        *block,
               const char     *path,
               const PdmParam *param)
{
  g_autofree char *text = qd_pdm_translate (imp, path, block->id, param->name,
                                            param->value, QD_PDM_AS_EXPR);
  QdPdmSpread *spread;
  gint64 index;

  if (text == NULL)
    return;
  if (!whole_number (imp, text, &index) || index < -1)
    {
      qd_pdm_report (imp, path, block->id,
                     _("%s = '%s' is not an element: give -1 to repeat the "
                       "input over the vector, or an element numbered from "
                       "0; set the block in the inspector"),
                     param->name, param->value);
      return;
    }
  spread = g_new0 (QdPdmSpread, 1);
  spread->block = block;
  spread->path = g_strdup (path);
  spread->index = index;
  g_ptr_array_add (imp->spreads, spread);
}

static void
vector_param (Importer       *imp,
              QdBlock        *block,
              const char     *path,
              const PdmParam *param,
              QdPdmParamKind  kind,
              const char     *name,
              VectorState    *state)
{
  g_autofree char *text = NULL;

  switch (kind)
    {
    case QD_PDM_INDEX:
    case QD_PDM_RANGE_END:
      text = element_text (imp, block, path, param);
      if (text == NULL && name != NULL && kind == QD_PDM_INDEX)
        {
          /* Reported; Check names it until it is fixed. */
          qd_block_set_param_raw (block, name, param->value);
          return;
        }
      if (kind == QD_PDM_INDEX && name == NULL)
        {
          g_free (state->range_start);
          state->range_start = g_strdup (text != NULL ? text : "?");
          return;
        }
      if (kind == QD_PDM_RANGE_END && text != NULL
          && strcmp (state->range_start != NULL ? state->range_start : "?", "?") != 0)
        {
          char *range = g_strdup_printf ("%s:%s", state->range_start, text);

          g_free (text);
          text = range;
        }
      else if (kind == QD_PDM_RANGE_END)
        return;  /* reported: the Selector keeps its default */
      if (text != NULL)
        qd_pdm_set_param (imp, block, path, name, text);
      return;
    case QD_PDM_LIST:
    case QD_PDM_MATRIX:
      vector_array (imp, block, path, param, name, kind == QD_PDM_MATRIX);
      return;
    case QD_PDM_SIZE:
      text = size_text (imp, block, path, param, &state->size);
      if (text == NULL && name != NULL)
        qd_block_set_param_raw (block, name, param->value);
      if (text == NULL)
        return;
      g_hash_table_insert (imp->widths, block, g_strdup (text));
      if (name != NULL)
        qd_pdm_set_param (imp, block, path, name, text);
      return;
    case QD_PDM_SPREAD:
      vector_spread (imp, block, path, param);
      return;
    case QD_PDM_REPEAT:
      if (name != NULL)
        state->repeat = qd_pdm_translate (imp, path, block->id, param->name,
                                          param->value, QD_PDM_AS_EXPR);
      return;
    default:
      g_return_if_reached ();
    }
}

/* A Vector Sum with a gain K other than 1: the Matrix Gain [K, ..., K]. */
static void
vector_finish (Importer    *imp,
               QdBlock     *block,
               const char  *path,
               VectorState *state)
{
  if (state->repeat != NULL && state->size > 0)
    {
      g_autoptr(GString) row = g_string_new ("[");

      for (gint64 i = 0; i < state->size; i++)
        g_string_append_printf (row, "%s%s", i > 0 ? ", " : "", state->repeat);
      g_string_append_c (row, ']');
      qd_pdm_set_param (imp, block, path, "matrix", row->str);
    }
  else if (state->repeat != NULL)
    qd_pdm_report (imp, path, block->id,
                   _("the gain %s is written over the row of a Matrix Gain as "
                     "wide as the block's Size, which is not a number: write "
                     "the matrix in the inspector"), state->repeat);
  g_free (state->range_start);
  g_free (state->repeat);
}

const QdPdmBlockMap *
qd_pdm_choose_map (const QdPdmBlockMap *maps,
                   guint                n,
                   GArray              *params)
{
  const PdmParam *first;
  QdPdmParamKind kind = maps[0].params[0].kind;
  g_autofree char *value = NULL;

  /* Only an entry with a nameless first parameter of these kinds leaves
   * the choice to the value. */
  if (n < 2 || params->len == 0 || maps[0].params[0].name != NULL
      || (kind != QD_PDM_SPREAD && kind != QD_PDM_REPEAT))
    return maps;
  first = &g_array_index (params, PdmParam, 0);
  value = g_strstrip (g_strdup (first->value));
  if (kind == QD_PDM_SPREAD)
    return strcmp (value, "-1") == 0 ? maps : maps + 1;
  return strcmp (value, "1") == 0 ? maps : maps + 1;
}

void
qd_pdm_spread_free (gpointer data)
{
  QdPdmSpread *spread = data;

  g_free (spread->path);
  g_free (spread);
}

/* The Size of a block that @link drives, or NULL. */
static const char *
driven_width (Importer     *imp,
              QdSystem     *system,
              const QdLink *link)
{
  for (guint t = 0; t < link->n_targets; t++)
    {
      const QdLinkTarget *target = link->targets[t];
      QdBlock *block = qd_system_find_block (system, target->dst.block);
      const char *width = block != NULL
                          ? g_hash_table_lookup (imp->widths, block) : NULL;

      if (width != NULL)
        return width;
    }
  return NULL;
}

static void
size_spread (Importer    *imp,
             QdSystem    *system,
             QdPdmSpread *spread)
{
  const char *width = NULL;
  g_autoptr(GString) column = g_string_new ("[");
  gint64 n;

  for (guint i = 0; i < system->links->len && width == NULL; i++)
    {
      const QdLink *link = g_ptr_array_index (system->links, i);

      if (strcmp (link->src.block, spread->block->id) == 0)
        width = driven_width (imp, system, link);
    }
  if (width == NULL)
    {
      qd_pdm_report (imp, spread->path, spread->block->id,
                     _("PowerDEVS's scalar2vec has no size of its own and "
                       "drives no block with a Size: set the width in the "
                       "inspector"));
      return;
    }
  if (spread->index < 0)
    {
      qd_pdm_set_param (imp, spread->block, spread->path, "size", width);
      return;
    }
  if (!whole_number (imp, width, &n) || spread->index >= n)
    {
      char index[32];

      g_snprintf (index, sizeof index, "%" G_GINT64_FORMAT, spread->index);
      qd_pdm_report (imp, spread->path, spread->block->id,
                     _("Index = %s is not an element of the %s elements of "
                       "the vector it drives (PowerDEVS numbers them from "
                       "0): write the matrix in the inspector"), index, width);
      return;
    }
  for (gint64 i = 0; i < n; i++)
    g_string_append_printf (column, "%s%s", i > 0 ? "; " : "",
                            i == spread->index ? "1" : "0");
  g_string_append_c (column, ']');
  qd_pdm_set_param (imp, spread->block, spread->path, "matrix", column->str);
}

void
qd_pdm_size_spreads (Importer *imp,
                     QdSystem *system)
{
  for (guint i = 0; i < imp->spreads->len;)
    {
      QdPdmSpread *spread = g_ptr_array_index (imp->spreads, i);

      if (spread->block->parent != system)
        {
          i++;
          continue;
        }
      size_spread (imp, system, spread);
      g_ptr_array_remove_index (imp->spreads, i);
    }
}

/* -------------------------------------------------------------------- */

void
qd_pdm_build_params (Importer            *imp,
                     QdBlock             *block,
                     const char          *path,
                     const QdPdmBlockMap *map,
                     GArray              *params,
                     guint                n_in)
{
  VectorState vector = { NULL, NULL, 0 };
  g_autoptr(GString) elements = g_string_new (NULL);
  const char *elements_name = NULL;
  gboolean elements_kept = FALSE;
  g_autofree char *previous = NULL;
  guint n_elements = 0;
  char count[16];
  gboolean ended = FALSE;

  for (guint i = 0; map->fixed[i] != NULL && map->fixed[i + 1] != NULL; i += 2)
    qd_pdm_set_param (imp, block, path, map->fixed[i], map->fixed[i + 1]);

  g_snprintf (count, sizeof count, "%u", n_in);
  for (guint i = 0; i < params->len; i++)
    {
      PdmParam *param = &g_array_index (params, PdmParam, i);
      QdPdmParamKind kind = QD_PDM_END;
      const char *name = NULL;
      g_autofree char *text = NULL;

      if (!ended && i < QD_PDM_MAX_PARAMS)
        {
          kind = map->params[i].kind;
          name = map->params[i].name;
        }
      ended = ended || kind == QD_PDM_END;
      if (kind == QD_PDM_END || kind == QD_PDM_DROPPED)
        {
          /* The entry's note names what its own parameters lose. */
          if (kind == QD_PDM_DROPPED && map->note != NULL)
            continue;
          qd_pdm_report (imp, path, block->id,
                  _("PowerDEVS's parameter %s = '%s' has no counterpart and "
                    "is dropped"), param->name, param->value);
          continue;
        }
      if (kind == QD_PDM_IGNORED)
        {
          g_free (previous);
          previous = g_strdup (param->value);
          continue;
        }
      if (kind == QD_PDM_COUNT)
        {
          qd_pdm_set_param (imp, block, path, name, count);
          continue;
        }
      if (kind >= QD_PDM_INDEX)
        {
          vector_param (imp, block, path, param, kind, name, &vector);
          continue;
        }
      text = param_text (imp, block, path, param, kind);
      if (kind == QD_PDM_ELEMENT)
        {
          /* One weight per input: PowerDEVS lists all eight. */
          elements_name = name;
          elements_kept = elements_kept || (text == NULL && n_elements < MAX (n_in, 1));
          if (n_elements++ < MAX (n_in, 1))
            g_string_append_printf (elements, "%s%s", elements->len > 0 ? ", " : "",
                                    text != NULL ? text : param->value);
          continue;
        }
      if (text == NULL)
        {
          qd_block_set_param_raw (block, name, param->value);
          continue;
        }
      if (kind == QD_PDM_WIDTH_END || kind == QD_PDM_OVER_PREVIOUS)
        {
          g_autofree char *prev = previous != NULL
                                  ? translate_quiet (imp, previous) : NULL;
          char *combined = combine (kind == QD_PDM_WIDTH_END ? '-' : '/',
                                    text, prev != NULL ? prev : "0");

          g_free (text);
          text = combined;
        }
      else if (kind == QD_PDM_HALF)
        {
          char *half = combine ('/', text, "2");

          g_free (text);
          text = half;
          qd_pdm_set_param (imp, block, path, "offset", text);
        }
      qd_pdm_set_param (imp, block, path, name, text);
      g_free (previous);
      previous = g_strdup (param->value);
    }
  /* Scilab text kept in the list was reported with its element. */
  if (elements_name != NULL && elements_kept)
    qd_block_set_param_raw (block, elements_name, elements->str);
  else if (elements_name != NULL)
    qd_pdm_set_param (imp, block, path, elements_name, elements->str);
  vector_finish (imp, block, path, &vector);
}

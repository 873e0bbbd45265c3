/* qd-compile-vector-sum.c: the vector blocks that compute, and the
 * sinks that choose elements, in the vector expansion
 *
 * Sum of Elements and Matrix Gain are written as Weighted Sums: one for
 * the sum, one per row of M over the row's nonzero elements (a row with
 * none is a constant 0). A Weighted Sum is exact on every Taylor
 * coefficient, the event loop's cascade kernels know it, and an output
 * element has events only when an input it depends on does: M is
 * sparse in time as well as in space.
 *
 * A Weighted Sum takes a limited number of inputs; a longer sum is a
 * chain, each link adding its share to the previous link's output with
 * the weight 1. The sums are then the same as one long sum's, term by
 * term from the first (1·s is s, and 0 + s is s).
 *
 * A Scope or To CSV (a block with an "elements" parameter) fed by
 * vectors stays one block, with an input per chosen element of each
 * vector input, named "v[3]" after the input's name v.
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qd-compile-vector-private.h"
#include "qd-expr.h"
#include "qd-registry.h"

#define WSUM_TYPE "wsum"

static gboolean
is_blank (const char *text)
{
  for (; text != NULL && *text != '\0'; text++)
    if (!g_ascii_isspace (*text))
      return FALSE;
  return TRUE;
}

/* The most inputs of one Weighted Sum, from its schema. */
static guint
wsum_capacity (void)
{
  const QdBlockType *type = qd_registry_lookup (WSUM_TYPE);
  int k = type != NULL ? qd_block_type_find_param (type, "n") : -1;

  return k >= 0 ? (guint) MAX (type->params[k].max, 2) : 2;
}

void
qd_vector_classify_sum (Expander *e,
                        VBlock   *vb)
{
  const char *text = qd_block_get_param_or_default (vb->block, "signs");
  g_autoptr(GArray) signs = g_array_new (FALSE, FALSE, sizeof (double));

  vb->kind = KIND_SUM;
  vb->fixed = TRUE;
  if (is_blank (text))
    return;
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      double sign = c == '+' ? 1.0 : -1.0;

      if (g_unichar_isspace (c) || c == ',')
        continue;
      if (c != '+' && c != '-' && c != 0x2212)
        {
          g_autofree char *bad = g_ucs4_to_utf8 (&c, 1, NULL, NULL, NULL);

          qd_vector_add_problem (e, vb->block,
                                 _("parameter 'signs': '%s' is not + or −; "
                                   "give one sign per element (\"+-+\")"),
                                 bad != NULL ? bad : "?");
          return;
        }
      g_array_append_val (signs, sign);
    }
  vb->n_signs = signs->len;
  vb->signs = (double *) g_array_free (g_steal_pointer (&signs), FALSE);
}

/* M from the "matrix" text, each element evaluated. */
static gboolean
matrix_from_text (Expander *e,
                  VBlock   *vb)
{
  const char *text = qd_block_get_param_or_default (vb->block, "matrix");
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) rows = qd_expr_split_matrix (text, &error);
  QdMatrix *m = &vb->matrix;

  if (rows == NULL)
    {
      qd_vector_add_problem (e, vb->block, _("parameter 'matrix': %s"),
                             error->message);
      return FALSE;
    }
  m->entries = g_array_new (FALSE, FALSE, sizeof (QdMatrixEntry));
  m->rows = rows->len;
  m->cols = g_strv_length (g_ptr_array_index (rows, 0));
  for (guint r = 0; r < rows->len; r++)
    {
      char **row = g_ptr_array_index (rows, r);

      for (guint c = 0; c < m->cols; c++)
        {
          QdMatrixEntry entry = { r, c, 0.0 };

          if (!qd_vector_eval_text (e, vb->block, "matrix", row[c], &entry.value))
            return FALSE;
          if (entry.value != 0.0)
            g_array_append_val (m->entries, entry);
        }
    }
  return TRUE;
}

void
qd_vector_classify_matrix (Expander *e,
                           VBlock   *vb)
{
  const char *file = qd_block_get_param_or_default (vb->block, "file");
  const char *layout = qd_block_get_param_or_default (vb->block, "layout");
  guint row, col;

  vb->kind = KIND_MATRIX;
  vb->fixed = TRUE;
  vb->triplets = layout != NULL && strcmp (layout, "triplets") == 0;
  if (!is_blank (file))
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *path = g_strstrip (g_strdup (file));

      if (!qd_matrix_read_csv (path, vb->triplets, &vb->matrix, &error))
        {
          qd_vector_add_problem (e, vb->block, _("parameter 'file': %s"),
                                 error->message);
          return;
        }
    }
  else
    {
      vb->triplets = FALSE;
      if (!matrix_from_text (e, vb))
        return;
    }
  if (!qd_matrix_sort (&vb->matrix, &row, &col))
    {
      qd_vector_add_problem (e, vb->block,
                             _("parameter 'file': element (%u, %u) is given "
                               "twice; give each element once"),
                             row + 1, col + 1);
      return;
    }
  if (vb->matrix.rows > QD_VECTOR_MAX_WIDTH)
    {
      qd_vector_add_problem (e, vb->block, _("M has %u rows, more than %u"),
                             vb->matrix.rows, QD_VECTOR_MAX_WIDTH);
      return;
    }
  vb->width = MAX (vb->matrix.rows, 1);
}

void
qd_vector_classify_sink (Expander *e,
                         VBlock   *vb)
{
  const char *text = qd_block_get_param_or_default (vb->block, "elements");
  g_autofree char *choice = g_strstrip (g_strdup (text != NULL ? text : ""));
  guint n_out;

  vb->kind = KIND_SINK;
  vb->fixed = TRUE;
  vb->width = 1;
  /* Every input, so that one left unconnected is still the compiler's
   * to report. */
  if (!qd_block_count_ports (vb->block, &vb->n_ports, &n_out, NULL))
    vb->n_ports = 0;
  if (*choice == '\0' || g_ascii_strcasecmp (choice, "all") == 0)
    return;
  vb->select = qd_vector_parse_elements (e, vb->block, &vb->n_select);
}

/* How many inputs a sink gets: one per scalar input, one per chosen
 * element of each vector input. */
static guint64
sink_inputs (VSystem *vs,
             VBlock  *vb)
{
  guint64 n = 0;

  for (guint q = 0; q < MAX (vb->n_in, vb->n_ports); q++)
    {
      guint w = qd_vector_driver_width (vs, vb, q);

      n += w == 1 ? 1 : vb->select != NULL ? vb->n_select : w;
    }
  return n;
}

static void
check_sink (Expander *e,
            VSystem  *vs,
            VBlock   *vb)
{
  const QdBlockType *type = qd_registry_lookup (vb->block->type);
  int k = qd_block_type_find_param (type, "n");
  double most = k >= 0 ? type->params[k].max : 1;
  guint64 n;

  for (guint q = 0; q < vb->n_in; q++)
    {
      guint w = qd_vector_driver_width (vs, vb, q);

      for (guint j = 0; w > 1 && j < vb->n_select; j++)
        if (vb->select[j] >= w)
          {
            qd_vector_add_problem (e, vb->block,
                                   _("parameter 'elements': element %u is "
                                     "chosen but input %u carries %u signals"),
                                   vb->select[j] + 1, q + 1, w);
            return;
          }
    }
  n = sink_inputs (vs, vb);
  if ((double) n > most)
    qd_vector_add_problem (e, vb->block,
                           _("its inputs carry %u signals but it takes at most "
                             "%g; choose fewer with parameter 'elements' "
                             "(\"1:10\", \"1, 5, 7\")"),
                           (guint) MIN (n, G_MAXUINT), most);
}

/* Whether input 0 of @vb is wired (else the compiler says so, of the
 * blocks written for it). */
static gboolean
input_connected (VSystem *vs,
                 VBlock  *vb)
{
  return vb->n_in > 0
         && g_array_index (vs->drivers, VDriver, vb->drivers).src != 0;
}

void
qd_vector_check_computed (Expander *e,
                          VSystem  *vs,
                          VBlock   *vb)
{
  guint w = qd_vector_driver_width (vs, vb, 0);
  const char *source;

  if (vb->kind != KIND_SINK && !input_connected (vs, vb))
    return;
  switch (vb->kind)
    {
    case KIND_SINK:
      check_sink (e, vs, vb);
      break;
    case KIND_SUM:
      if (vb->signs != NULL && vb->n_signs != w)
        qd_vector_add_problem (e, vb->block,
                               _("parameter 'signs' gives %u signs but input "
                                 "1 carries %u signals; give one per element, "
                                 "or none to add them all"), vb->n_signs, w);
      break;
    case KIND_MATRIX:
      if (vb->matrix.entries == NULL)
        break;   /* M could not be read: already a problem */
      source = is_blank (qd_block_get_param_or_default (vb->block, "file"))
               ? "matrix" : "file";
      if (vb->triplets ? vb->matrix.cols > w : vb->matrix.cols != w)
        qd_vector_add_problem (e, vb->block,
                               _("parameter '%s': M has %u columns but input 1 "
                                 "carries %u signals; M needs one column per "
                                 "element of u"), source, vb->matrix.cols, w);
      break;
    default:
      break;
    }
}

/* The terms of element @i of a sum: the input elements in @cols with
 * their @weights. */
static void
get_terms (VSystem *vs,
           VBlock  *vb,
           guint    i,
           GArray  *cols,
           GArray  *weights)
{
  g_array_set_size (cols, 0);
  g_array_set_size (weights, 0);
  if (vb->kind == KIND_SUM)
    {
      guint w = qd_vector_driver_width (vs, vb, 0);

      for (guint k = 0; k < w; k++)
        {
          double weight = vb->signs != NULL ? vb->signs[k] : 1.0;

          g_array_append_val (cols, k);
          g_array_append_val (weights, weight);
        }
      return;
    }
  /* The entries are sorted by row: row i's from a binary search. */
  {
    const QdMatrixEntry *entries = (const QdMatrixEntry *) vb->matrix.entries->data;
    guint lo = 0, hi = vb->matrix.entries->len;

    while (lo < hi)
      {
        guint mid = lo + (hi - lo) / 2;

        if (entries[mid].row < i)
          lo = mid + 1;
        else
          hi = mid;
      }
    for (; lo < vb->matrix.entries->len && entries[lo].row == i; lo++)
      {
        g_array_append_val (cols, entries[lo].col);
        g_array_append_val (weights, entries[lo].value);
      }
  }
}

/* How the @m terms of a sum share a chain of Weighted Sums of @cap
 * inputs: the first link takes @cap terms, each next one @cap − 1 after
 * the previous link's output. The number of links. */
static guint
chain_links (guint m,
             guint cap)
{
  return m <= cap ? 1 : 1 + (m - cap + cap - 2) / (cap - 1);
}

/* The first term and the count of terms of link @k of a chain. */
static void
chain_share (guint  m,
             guint  cap,
             guint  k,
             guint *first,
             guint *count)
{
  *first = k == 0 ? 0 : cap + (k - 1) * (cap - 1);
  *count = MIN (k == 0 ? cap : cap - 1, m - *first);
}

static QdBlock *
new_wsum (const char   *id,
          const char   *name,
          gboolean      chained,
          const double *weights,
          guint         count)
{
  QdBlock *block = qd_block_new (id, WSUM_TYPE, name);
  GString *text = g_string_new (chained ? "1" : NULL);
  char n[16], number[G_ASCII_DTOSTR_BUF_SIZE];

  for (guint k = 0; k < count; k++)
    {
      if (text->len > 0)
        g_string_append (text, ", ");
      g_string_append (text, g_ascii_dtostr (number, sizeof number, weights[k]));
    }
  g_snprintf (n, sizeof n, "%u", count + (chained ? 1 : 0));
  qd_block_set_param_raw (block, "n", n);
  qd_block_set_param_raw (block, "weights", text->str);
  g_string_free (text, TRUE);
  return block;
}

static void
element_names (VBlock  *vb,
               guint    i,
               char   **id,
               char   **name)
{
  if (vb->width == 1)
    {
      *id = g_strdup (vb->block->id);
      *name = g_strdup (vb->block->name);
    }
  else
    {
      *id = g_strdup_printf ("%s[%u]", vb->block->id, i + 1);
      *name = g_strdup_printf ("%s[%u]", vb->block->name, i + 1);
    }
}

/* A sink's copy: its inputs and their names. */
static QdBlock *
make_sink (Expander *e,
           VSystem  *vs,
           VBlock   *vb)
{
  QdBlock *block = qd_vector_copy_block (e, vb, 0);
  const char *text = qd_block_get_param_or_default (vb->block, "names");
  g_auto(GStrv) names = g_strsplit (text != NULL ? text : "", ",", -1);
  guint n_names = g_strv_length (names);
  GString *all = g_string_new (NULL);
  char n[16];

  for (guint q = 0; q < MAX (vb->n_in, vb->n_ports); q++)
    {
      guint w = qd_vector_driver_width (vs, vb, q);
      guint count = vb->select != NULL ? vb->n_select : w;
      g_autofree char *base = q < n_names ? g_strstrip (g_strdup (names[q])) : NULL;

      if (base == NULL || *base == '\0')
        {
          g_free (base);
          base = g_strdup_printf ("x%u", q + 1);
        }
      if (w == 1)
        g_string_append_printf (all, "%s%s", q > 0 ? ", " : "", base);
      else
        for (guint j = 0; j < count; j++)
          g_string_append_printf (all, "%s%s[%u]", all->len > 0 ? ", " : "",
                                  base, (vb->select != NULL ? vb->select[j] : j) + 1);
    }
  g_snprintf (n, sizeof n, "%u", (guint) sink_inputs (vs, vb));
  qd_block_set_param_raw (block, "n", n);
  qd_block_set_param_raw (block, "names", all->str);
  qd_block_set_param_raw (block, "elements", "all");
  g_string_free (all, TRUE);
  return block;
}

QdBlock *
qd_vector_make_computed (Expander *e,
                         VSystem  *vs,
                         VBlock   *vb,
                         guint     i)
{
  g_autoptr(GArray) cols = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) weights = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree char *id = NULL;
  g_autofree char *name = NULL;
  guint cap = wsum_capacity ();
  guint links, first, count;
  QdBlock *block;

  if (vb->kind == KIND_SINK)
    return make_sink (e, vs, vb);
  element_names (vb, i, &id, &name);
  get_terms (vs, vb, i, cols, weights);
  if (cols->len == 0)
    {
      /* A row of zeros. */
      block = qd_block_new (id, "constant", name);
      qd_block_set_param_raw (block, "value", "0");
      return block;
    }
  /* The last link of the chain stands for the element. */
  links = chain_links (cols->len, cap);
  chain_share (cols->len, cap, links - 1, &first, &count);
  return new_wsum (id, name, links > 1,
                   &g_array_index (weights, double, first), count);
}

static void
link_sum (Expander *e,
          VSystem  *vs,
          VBlock   *vb,
          guint     i,
          GArray   *cols,
          GArray   *weights)
{
  guint cap = wsum_capacity ();
  guint links;
  QdBlock *previous = NULL;

  get_terms (vs, vb, i, cols, weights);
  links = chain_links (cols->len, cap);
  for (guint k = 0; cols->len > 0 && k < links; k++)
    {
      QdBlock *block = vb->elements[vb->width > 1 ? i : 0];
      guint first, count, port = 0;

      chain_share (cols->len, cap, k, &first, &count);
      if (k + 1 < links)
        {
          g_autofree char *id = g_strdup_printf ("%s.part%u", block->id, k + 1);
          g_autofree char *name = g_strdup_printf ("%s part %u", block->name, k + 1);

          block = new_wsum (id, name, previous != NULL,
                            &g_array_index (weights, double, first), count);
          qd_system_append_block (vs->out, block);
        }
      if (previous != NULL)
        qd_vector_connect (e, vs, previous, 0, block, port++);
      for (guint t = first; t < first + count; t++)
        qd_vector_link_element (e, vs, vb, 0, g_array_index (cols, guint, t),
                                block, port++);
      previous = block;
    }
}

void
qd_vector_link_computed (Expander *e,
                         VSystem  *vs,
                         VBlock   *vb)
{
  g_autoptr(GArray) cols = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) weights = g_array_new (FALSE, FALSE, sizeof (double));

  if (vb->kind != KIND_SINK)
    {
      for (guint i = 0; i < vb->width; i++)
        link_sum (e, vs, vb, i, cols, weights);
      return;
    }
  for (guint q = 0, port = 0; q < MAX (vb->n_in, vb->n_ports); q++)
    {
      guint w = qd_vector_driver_width (vs, vb, q);
      guint count = w == 1 ? 1 : vb->select != NULL ? vb->n_select : w;

      for (guint j = 0; j < count; j++)
        qd_vector_link_element (e, vs, vb, q,
                                w > 1 && vb->select != NULL ? vb->select[j] : j,
                                vb->elements[0], port++);
    }
}

/* A Scope's, a To CSV's or a Selector's "elements": "1, 3, 5:8" (from
 * 1, each an expression), as element indices from 0. */
guint *
qd_vector_parse_elements (Expander      *e,
                          const QdBlock *block,
                          guint         *n)
{
  const char *text = qd_block_get_param_or_default (block, "elements");
  g_auto(GStrv) parts = qd_expr_split_vector (text != NULL ? text : "");
  g_autoptr(GArray) list = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint k = 0; parts[k] != NULL; k++)
    {
      g_auto(GStrv) ends = g_strsplit (parts[k], ":", 2);
      double first, last;

      if (!qd_vector_eval_text (e, block, "elements", ends[0], &first)
          || !qd_vector_eval_text (e, block, "elements",
                                   ends[1] != NULL ? ends[1] : ends[0], &last))
        return NULL;
      if (first != floor (first) || last != floor (last) || first < 1
          || last < first || last > QD_VECTOR_MAX_WIDTH)
        {
          qd_vector_add_problem (e, block,
                                 _("parameter 'elements': '%s' is not an element number "
                                   "from 1 or a range a:b with a <= b"),
                                 g_strstrip (parts[k]));
          return NULL;
        }
      for (double j = first; j <= last; j++)
        {
          guint index = (guint) j - 1;

          g_array_append_val (list, index);
        }
    }
  if (list->len == 0)
    {
      qd_vector_add_problem (e, block, _("parameter 'elements' lists no element; "
                                         "give at least one (\"1\", \"2:5\")"));
      return NULL;
    }
  *n = list->len;
  return (guint *) g_array_free (g_steal_pointer (&list), FALSE);
}

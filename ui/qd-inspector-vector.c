/* qd-inspector-vector.c: the inspector's parameters that hold vectors
 *
 * A Weighted Sum's weights, an Integrator's x0 given one value per
 * element, a Matrix Gain's matrix, the elements a Selector, Scope or To
 * CSV takes ("2:4, 7"): the entry is checked element by
 * element as it is typed, an x0 against the block's Size, and a line
 * under it shows what it holds, evaluated, with its count or its size,
 * "3 elements: [1, 2, 3]", "2 × 2 matrix: [0 -1; 1 0]", so that a long
 * list can be read at a glance (and a missing comma shows as a count
 * one short).
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qd-inspector-vector.h"

/* The most values the summary writes out: the first ones, "…", the
 * last one. */
#define SHOWN 6

/* A Matrix Gain's matrix. */
static gboolean
is_matrix (const QdBlockType *type,
           const QdParamSpec *spec)
{
  return (type->flags & QD_BLOCK_VECTOR_MATRIX) != 0
         && spec->kind == QD_PARAM_STRING && strcmp (spec->name, "matrix") == 0;
}

/* The elements a Selector, Scope or To CSV takes: "2:4, 7". */
static gboolean
is_elements (const QdParamSpec *spec)
{
  return spec->kind == QD_PARAM_STRING && strcmp (spec->name, "elements") == 0;
}

gboolean
qd_inspector_vector_applies (const QdBlock     *block,
                             const QdParamSpec *spec)
{
  const QdBlockType *type = block != NULL ? qd_block_get_type_info (block) : NULL;

  if (spec == NULL || type == NULL)
    return FALSE;
  if (spec->kind == QD_PARAM_VECTOR || is_matrix (type, spec) || is_elements (spec))
    return TRUE;
  return spec->kind == QD_PARAM_NUMBER && strcmp (spec->name, "x0") == 0
         && qd_block_type_find_param (type, "size") >= 0;
}

static void
append_value (GString *out,
              double   value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (buffer, sizeof buffer, "%.6g", value);
  g_string_append (out, buffer);
}

static char *
format_summary (const double *values,
                guint         n,
                guint         size)
{
  GString *list = g_string_new ("[");

  for (guint i = 0; i < n; i++)
    {
      if (n > SHOWN && i == SHOWN - 1 && i + 1 < n)
        {
          g_string_append (list, "…, ");
          i = n - 1;
        }
      append_value (list, values[i]);
      if (i + 1 < n)
        g_string_append (list, ", ");
    }
  g_string_append_c (list, ']');
  if (n == 1 && size > 1)
    {
      /* One value for every element of an x0 of that size. */
      g_autofree char *value = g_strndup (list->str + 1, list->len - 2);

      g_string_free (list, TRUE);
      /* TRANSLATORS: an Integrator of Size 5 with x0 = 0 */
      return g_strdup_printf (ngettext ("%u element, each %s",
                                        "%u elements, each %s", size),
                              size, value);
    }
  {
    g_autofree char *text = g_string_free (list, FALSE);

    /* TRANSLATORS: a list of values and how many there are */
    return g_strdup_printf (ngettext ("%u element: %s", "%u elements: %s", n),
                            n, text);
  }
}

/* The block's Size, when it has one that @eval can evaluate (0 else). */
static guint
block_size (QdDocument          *document,
            const QdBlock       *block,
            QdInspectorEvalFunc  eval)
{
  const QdBlockType *type = qd_block_get_type_info (block);
  int k = type != NULL ? qd_block_type_find_param (type, "size") : -1;
  const char *text = qd_block_get_param_or_default (block, "size");
  double value;

  if (k < 0 || text == NULL
      || !eval (&type->params[k], document, block, text, &value, NULL)
      || value < 1 || value != floor (value) || value > G_MAXUINT)
    return 0;
  return (guint) value;
}

/* A matrix: each element, and its size with its first rows. */
static gboolean
check_matrix (QdDocument          *document,
              const QdBlock       *block,
              const QdParamSpec   *spec,
              const char          *text,
              QdInspectorEvalFunc  eval,
              char               **summary,
              GError             **error)
{
  g_autoptr(GPtrArray) rows = qd_expr_split_matrix (text, error);
  GString *shown;
  guint cols;

  if (rows == NULL)
    return FALSE;
  cols = g_strv_length (g_ptr_array_index (rows, 0));
  shown = g_string_new ("[");
  for (guint r = 0; r < rows->len; r++)
    {
      char **row = g_ptr_array_index (rows, r);

      for (guint c = 0; c < cols; c++)
        {
          g_autoptr(GError) element_error = NULL;
          double value;

          if (!eval (spec, document, block, row[c], &value, &element_error))
            {
              /* TRANSLATORS: an error in one element of a matrix */
              g_set_error (error, QD_ERROR, QD_ERROR_EXPR,
                           _("row %u, column %u: %s"), r + 1, c + 1,
                           element_error->message);
              g_string_free (shown, TRUE);
              return FALSE;
            }
          /* The first rows, as long as they are short. */
          if (r < 3 && cols <= SHOWN)
            {
              append_value (shown, value);
              g_string_append (shown, c + 1 < cols ? " " : "");
            }
        }
      if (r < 3 && cols <= SHOWN && r + 1 < rows->len)
        g_string_append (shown, r == 2 ? "; …" : "; ");
    }
  g_string_append_c (shown, ']');
  if (summary != NULL && cols <= SHOWN)
    /* TRANSLATORS: the size of a matrix, rows × columns, and its values */
    *summary = g_strdup_printf (_("%u × %u matrix: %s"), rows->len, cols, shown->str);
  else if (summary != NULL)
    /* TRANSLATORS: the size of a matrix, rows × columns */
    *summary = g_strdup_printf (_("%u × %u matrix"), rows->len, cols);
  g_string_free (shown, TRUE);
  return TRUE;
}

/* A choice of elements: "all" where that is the default, or single
 * elements and ranges a:b, numbered from 1, each end an expression. */
static gboolean
check_elements (QdDocument          *document,
                const QdBlock       *block,
                const QdParamSpec   *spec,
                const char          *text,
                QdInspectorEvalFunc  eval,
                char               **summary,
                GError             **error)
{
  g_autofree char *choice = g_strstrip (g_strdup (text));
  g_auto(GStrv) parts = NULL;
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (double));
  guint64 count = 0;
  GString *shown;

  if (g_ascii_strcasecmp (choice, "all") == 0
      && g_strcmp0 (spec->default_value, "all") == 0)
    {
      if (summary != NULL)
        *summary = g_strdup (_("every element"));
      return TRUE;
    }
  parts = qd_expr_split_vector (choice);
  for (guint k = 0; parts[k] != NULL; k++)
    {
      g_auto(GStrv) ends = g_strsplit (parts[k], ":", 2);
      double first, last;

      if (!eval (spec, document, block, ends[0], &first, error)
          || !eval (spec, document, block, ends[1] != NULL ? ends[1] : ends[0], &last, error))
        return FALSE;
      if (first != floor (first) || last != floor (last) || first < 1
          || last < first || last > G_MAXUINT)
        {
          g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                       _("'%s' is not an element number from 1 or a range "
                         "a:b with a <= b"), g_strstrip (parts[k]));
          return FALSE;
        }
      for (double j = first; j <= last && values->len < SHOWN; j++)
        g_array_append_val (values, j);
      count += (guint64) (last - first) + 1;
    }
  if (count == 0)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("no element; give one or more, \"1\", \"2:5\""));
      return FALSE;
    }
  if (summary == NULL)
    return TRUE;
  shown = g_string_new (NULL);
  for (guint k = 0; k < values->len; k++)
    {
      if (k > 0)
        g_string_append (shown, ", ");
      append_value (shown, g_array_index (values, double, k));
    }
  if (count > values->len)
    g_string_append (shown, ", …");
  *summary = g_strdup_printf (ngettext ("%u element: %s", "%u elements: %s",
                                       (gulong) MIN (count, G_MAXUINT)),
                              (guint) MIN (count, G_MAXUINT), shown->str);
  g_string_free (shown, TRUE);
  return TRUE;
}

gboolean
qd_inspector_vector_check (QdDocument          *document,
                           const QdBlock       *block,
                           const QdParamSpec   *spec,
                           const char          *text,
                           QdInspectorEvalFunc  eval,
                           char               **summary,
                           GError             **error)
{
  g_auto(GStrv) parts = NULL;
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (double));
  guint n, size;

  if (is_elements (spec))
    return check_elements (document, block, spec, text, eval, summary, error);
  if (spec->kind == QD_PARAM_STRING)
    return check_matrix (document, block, spec, text, eval, summary, error);
  parts = qd_expr_split_vector (text);
  n = g_strv_length (parts);
  size = spec->kind == QD_PARAM_VECTOR ? 0 : block_size (document, block, eval);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GError) element_error = NULL;
      double value;

      if (!eval (spec, document, block, parts[i], &value, &element_error))
        {
          /* A single value is not a list: its error as it is. */
          if (n == 1)
            {
              g_propagate_error (error, g_steal_pointer (&element_error));
              return FALSE;
            }
          /* TRANSLATORS: an error in one element of a list of values */
          g_set_error (error, QD_ERROR, QD_ERROR_EXPR,
                       _("element %u: %s"), i + 1, element_error->message);
          return FALSE;
        }
      g_array_append_val (values, value);
    }
  if (n == 0)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("no value; give one, or a list separated by commas"));
      return FALSE;
    }
  /* x0 as a list: one value per element of the Size. */
  if (size > 1 && n > 1 && n != size)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("%u values but Size is %u; give one value per element, "
                     "or a single value for all"), n, size);
      return FALSE;
    }
  if (summary != NULL)
    *summary = n > 1 || size > 1
               ? format_summary ((const double *) (void *) values->data, n, size)
               : NULL;
  return TRUE;
}

GtkWidget *
qd_inspector_vector_summary_new (void)
{
  GtkWidget *label = gtk_label_new (NULL);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 30);
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_add_css_class (label, "qd-inspector-vector");
  gtk_widget_set_visible (label, FALSE);
  return label;
}

void
qd_inspector_vector_summary_set (GtkWidget  *summary,
                                 const char *text)
{
  gtk_label_set_text (GTK_LABEL (summary), text != NULL ? text : "");
  gtk_widget_set_visible (summary, text != NULL);
}

/* qd-vector-matrix.c: the matrix of a Matrix Gain, from its text or a
 * CSV file
 *
 * The text follows MATLAB's and Octave's bracket notation, which is what
 * engineers type: rows separated by ';', elements by ',' or by spaces.
 * A space separates two elements unless it stands beside a binary
 * operator, so "[1 -2]" is two elements and "[1 - 2]" one, as in
 * MATLAB. A list of rows, "[[1, 0], [0, 2]]" (Python's and JSON's
 * notation), is read too. Each element stays a text: the compiler (and
 * the inspector) evaluates it over the model variables. The splitting is
 * public, qd_expr_split_matrix() in qd-expr.h; the files are the
 * compiler's own.
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qd-error.h"
#include "qd-expr.h"
#include "qd-vector-matrix.h"

static gboolean
is_space (char c)
{
  return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

/* Whether a space between @before (the last character of an element)
 * and @after (the next character), followed by @after_next, separates
 * two elements. */
static gboolean
space_separates (char before,
                 char after,
                 char after_next)
{
  if (strchr ("+-*/^(,=<>&|!", before) != NULL)
    return FALSE;                   /* "1 + 2": the operator wants more */
  if (strchr ("*/^)=<>&|", after) != NULL)
    return FALSE;                   /* "1 *2" */
  if ((after == '+' || after == '-') && is_space (after_next))
    return FALSE;                   /* "1 - 2"; but "1 -2" is two */
  return TRUE;
}

/* One row's elements: "1, 2 3" -> "1", "2", "3". */
static GStrv
split_row (const char *row)
{
  GPtrArray *elements = g_ptr_array_new ();
  GString *element = g_string_new (NULL);
  int depth = 0;

  for (const char *p = row; *p != '\0'; p++)
    {
      char c = *p;

      if (c == '(' || c == '[')
        depth++;
      else if (c == ')' || c == ']')
        depth--;
      if (depth == 0 && c == ',')
        {
          g_ptr_array_add (elements, g_string_free (element, FALSE));
          element = g_string_new (NULL);
          continue;
        }
      if (depth == 0 && is_space (c))
        {
          const char *next = p;

          while (is_space (*next))
            next++;
          if (element->len > 0 && *next != '\0' && *next != ','
              && space_separates (element->str[element->len - 1], next[0],
                                  next[1]))
            {
              g_ptr_array_add (elements, g_string_free (element, FALSE));
              element = g_string_new (NULL);
            }
          p = next - 1;
          continue;
        }
      g_string_append_c (element, c);
    }
  if (element->len > 0 || elements->len > 0)
    g_ptr_array_add (elements, g_string_free (element, FALSE));
  else
    g_string_free (element, TRUE);
  g_ptr_array_add (elements, NULL);
  return (GStrv) g_ptr_array_free (elements, FALSE);
}

/* @text without spaces around it, and without one pair of brackets
 * around the whole of it. */
static char *
strip_brackets (const char *text)
{
  char *s = g_strstrip (g_strdup (text));
  gsize len = strlen (s);
  int depth = 0;

  if (len < 2 || s[0] != '[' || s[len - 1] != ']')
    return s;
  /* "[1 2] [3 4]" is not wrapped: the first bracket closes early. */
  for (gsize i = 0; i < len; i++)
    {
      depth += s[i] == '[';
      depth -= s[i] == ']';
      if (depth == 0 && i + 1 < len)
        return s;
    }
  s[len - 1] = '\0';
  memmove (s, s + 1, len - 1);
  return g_strstrip (s);
}

/* The rows' texts: each bracketed group of a list of rows, or the parts
 * between the semicolons (and line ends) that are outside parentheses. */
static GPtrArray *
split_rows (const char *body,
            GError    **error)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func (g_free);
  gboolean nested = FALSE;
  int depth = 0;
  const char *start = body;

  for (const char *p = body; *p != '\0'; p++)
    if (*p == '[')
      nested = TRUE;
  for (const char *p = body; ; p++)
    {
      char c = *p;

      if (nested)
        {
          if (c == '\0')
            break;
          if (c == '[' && depth++ == 0)
            start = p + 1;
          else if (c == ']' && --depth == 0)
            g_ptr_array_add (rows, g_strndup (start, p - start));
          else if (depth == 0 && !is_space (c) && c != ',' && c != ';')
            {
              g_set_error (error, QD_ERROR, QD_ERROR_SYNTAX,
                           _("'%c' outside the brackets of a row"), c);
              g_ptr_array_unref (rows);
              return NULL;
            }
          continue;
        }
      if (c == '(')
        depth++;
      else if (c == ')')
        depth--;
      if (c == '\0' || (depth == 0 && (c == ';' || c == '\n')))
        {
          g_autofree char *row = g_strstrip (g_strndup (start, p - start));

          /* A line end after a ';' does not make an empty row. */
          if (*row != '\0' || c == ';')
            g_ptr_array_add (rows, g_steal_pointer (&row));
          start = p + 1;
        }
      if (c == '\0')
        break;
    }
  if (depth != 0)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_SYNTAX,
                   _("the brackets or parentheses do not match"));
      g_ptr_array_unref (rows);
      return NULL;
    }
  return rows;
}

GPtrArray *
qd_expr_split_matrix (const char  *text,
                      GError     **error)
{
  g_autofree char *body = strip_brackets (text != NULL ? text : "");
  g_autoptr(GPtrArray) texts = NULL;
  GPtrArray *rows;
  guint cols = 0;

  texts = split_rows (body, error);
  if (texts == NULL)
    return NULL;
  if (texts->len == 0)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_SYNTAX,
                   _("the matrix is empty; write it row by row, \"[1 0; 0 1]\""));
      return NULL;
    }
  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  for (guint r = 0; r < texts->len; r++)
    {
      GStrv row = split_row (g_ptr_array_index (texts, r));
      guint n = g_strv_length (row);

      g_ptr_array_add (rows, row);
      for (guint k = 0; k < n; k++)
        if (*g_strstrip (row[k]) == '\0')
          {
            g_set_error (error, QD_ERROR, QD_ERROR_SYNTAX,
                         _("row %u has an empty element"), r + 1);
            g_ptr_array_unref (rows);
            return NULL;
          }
      if (n == 0)
        {
          g_set_error (error, QD_ERROR, QD_ERROR_SYNTAX,
                       _("row %u is empty; give its elements, or remove it"), r + 1);
          g_ptr_array_unref (rows);
          return NULL;
        }
      if (r == 0)
        cols = n;
      if (n != cols)
        {
          g_set_error (error, QD_ERROR, QD_ERROR_SYNTAX,
                       _("row %u has %u elements but row 1 has %u; give every "
                         "row as many"), r + 1, n, cols);
          g_ptr_array_unref (rows);
          return NULL;
        }
    }
  return rows;
}

/* The fields of a CSV line as numbers; FALSE when one is not a number. */
static gboolean
parse_numbers (char   *line,
               GArray *numbers)
{
  g_auto(GStrv) fields = g_strsplit (line, ",", -1);

  g_array_set_size (numbers, 0);
  for (guint k = 0; fields[k] != NULL; k++)
    {
      char *field = g_strstrip (fields[k]);
      char *end = NULL;
      double value = g_ascii_strtod (field, &end);

      if (*field == '\0' || end == field || *end != '\0')
        return FALSE;
      g_array_append_val (numbers, value);
    }
  return TRUE;
}

static gboolean
add_triplet (QdMatrix    *matrix,
             const double  *f,
             const char    *path,
             guint          line_no,
             GError       **error)
{
  QdMatrixEntry entry;

  if (f[0] != floor (f[0]) || f[1] != floor (f[1]) || f[0] < 1 || f[1] < 1
      || f[0] > G_MAXINT || f[1] > G_MAXINT)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_FORMAT,
                   _("%s:%u: the row and column (%g, %g) must be whole "
                     "numbers from 1"), path, line_no, f[0], f[1]);
      return FALSE;
    }
  entry.row = (guint) f[0] - 1;
  entry.col = (guint) f[1] - 1;
  entry.value = f[2];
  matrix->rows = MAX (matrix->rows, entry.row + 1);
  matrix->cols = MAX (matrix->cols, entry.col + 1);
  if (entry.value != 0.0)
    g_array_append_val (matrix->entries, entry);
  return TRUE;
}

static gboolean
read_line (QdMatrix    *matrix,
           gboolean     triplets,
           GArray      *f,
           const char  *path,
           guint        line_no,
           GError     **error)
{
  const double *v = (const double *) f->data;

  for (guint k = 0; k < f->len; k++)
    if (!isfinite (v[k]))
      {
        g_set_error (error, QD_ERROR, QD_ERROR_FORMAT,
                     _("%s:%u: field %u is not a finite number"),
                     path, line_no, k + 1);
        return FALSE;
      }
  if (triplets)
    {
      if (f->len != 3)
        {
          g_set_error (error, QD_ERROR, QD_ERROR_FORMAT,
                       _("%s:%u: %u fields; a line of triplets is i,j,value"),
                       path, line_no, f->len);
          return FALSE;
        }
      return add_triplet (matrix, v, path, line_no, error);
    }
  if (matrix->rows > 0 && f->len != matrix->cols)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_FORMAT,
                   _("%s:%u: %u numbers but the first row has %u; give "
                     "every row as many"), path, line_no, f->len, matrix->cols);
      return FALSE;
    }
  matrix->cols = f->len;
  for (guint k = 0; k < f->len; k++)
    if (v[k] != 0.0)
      {
        QdMatrixEntry entry = { matrix->rows, k, v[k] };

        g_array_append_val (matrix->entries, entry);
      }
  matrix->rows++;
  return TRUE;
}

gboolean
qd_matrix_read_csv (const char  *path,
                    gboolean     triplets,
                    QdMatrix    *matrix,
                    GError     **error)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) local = NULL;
  g_autoptr(GArray) fields = g_array_new (FALSE, FALSE, sizeof (double));
  g_auto(GStrv) lines = NULL;
  gboolean first = TRUE;

  memset (matrix, 0, sizeof *matrix);
  matrix->entries = g_array_new (FALSE, FALSE, sizeof (QdMatrixEntry));
  if (!g_file_get_contents (path, &contents, NULL, &local))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_IO,
                   _("cannot read '%s': %s; check the file name (a relative "
                     "path is relative to the working directory)"),
                   path, local->message);
      return FALSE;
    }
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);

      if (*line == '\0' || *line == '#')
        continue;
      if (!parse_numbers (line, fields))
        {
          if (first)
            {
              first = FALSE;   /* a header */
              continue;
            }
          g_set_error (error, QD_ERROR, QD_ERROR_FORMAT,
                       _("%s:%u: a field is not a number"), path, i + 1);
          return FALSE;
        }
      first = FALSE;
      if (!read_line (matrix, triplets, fields, path, i + 1, error))
        return FALSE;
    }
  if (matrix->rows == 0)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_FORMAT,
                   _("%s: no rows of numbers; the file needs %s"), path,
                   triplets ? _("lines i,j,value") : _("one line per row of the matrix"));
      return FALSE;
    }
  return TRUE;
}

static int
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  const QdMatrixEntry *x = a, *y = b;

  if (x->row != y->row)
    return x->row < y->row ? -1 : 1;
  return x->col < y->col ? -1 : x->col > y->col;
}

gboolean
qd_matrix_sort (QdMatrix *matrix,
                guint    *row,
                guint    *col)
{
  QdMatrixEntry *e = (QdMatrixEntry *) matrix->entries->data;

  g_array_sort (matrix->entries, compare_entries);
  for (guint k = 1; k < matrix->entries->len; k++)
    if (e[k].row == e[k - 1].row && e[k].col == e[k - 1].col)
      {
        *row = e[k].row;
        *col = e[k].col;
        return FALSE;
      }
  return TRUE;
}

void
qd_matrix_clear (QdMatrix *matrix)
{
  g_clear_pointer (&matrix->entries, g_array_unref);
  matrix->rows = matrix->cols = 0;
}

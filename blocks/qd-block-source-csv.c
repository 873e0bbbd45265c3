/* qd-block-source-csv.c: From CSV, a source that plays a table from a file
 *
 * The file is read once, at init, into two arrays (times and values); the
 * run then only walks them. Each line holds fields separated by commas,
 * semicolons or tabs; the time and the value are taken from the columns
 * the parameters name (1-based). Empty lines and lines starting with '#'
 * are skipped, and so is a first line whose time field is not a number
 * when "header" is true. Times must not decrease; two rows with the same
 * time make a jump at that time (the later row wins).
 *
 * The table becomes pieces of the sources' piecewise linear engine
 * (qd-block-sources.c), starting at the row times: constant pieces for
 * "step" interpolation, exact straight lines to the next row for
 * "linear". Before the first time the output is the first value, after
 * the last time the last value. Every row is an event at exactly its time.
 *
 * A malformed file stops the run before it starts, with the file, the
 * line and what was wrong: "data.csv:17: expected a number in column 2,
 * found 'abc'".
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qd-blocks-private.h"
#include "qd-block-source-pwl.h"

enum
{
  PARAM_FILE,
  PARAM_TIME_COLUMN,
  PARAM_VALUE_COLUMN,
  PARAM_INTERPOLATION,
  PARAM_HEADER,
};

enum
{
  INTERPOLATION_STEP,
  INTERPOLATION_LINEAR,
};

typedef struct
{
  QdPwl pwl;    /* first: the engine's functions see the state as a QdPwl */
} FromCsv;

/* Parses a whole field as a finite number. */
static gboolean
parse_number (const char *field,
              double     *value)
{
  char *end;

  if (*field == '\0')
    return FALSE;
  *value = g_ascii_strtod (field, &end);
  return *end == '\0' && isfinite (*value);
}

/* The field in 1-based @column of @line (modified in place), stripped;
 * NULL when the line is shorter. */
static char *
get_field (char  *line,
           guint  column)
{
  char *p = line;

  for (guint c = 1; c < column; c++)
    {
      p = strpbrk (p, ",;\t");
      if (p == NULL)
        return NULL;
      p++;
    }
  p[strcspn (p, ",;\t")] = '\0';
  return g_strstrip (p);
}

/* Reads @path into @times and @values; on error sets @error with the
 * message the user sees. */
static gboolean
read_table (const char  *path,
            guint        time_column,
            guint        value_column,
            gboolean     header,
            GArray      *times,
            GArray      *values,
            GError     **error)
{
  g_autofree char *contents = NULL;
  g_autoptr(GError) local = NULL;
  char **lines;
  gboolean first = TRUE, ok = TRUE;

  if (!g_file_get_contents (path, &contents, NULL, &local))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_IO,
                   _("cannot read '%s': %s; check the file name (a relative "
                     "path is relative to the working directory)"),
                   path, local->message);
      return FALSE;
    }

  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; ok && lines[i] != NULL; i++)
    {
      guint line_no = i + 1;
      char *line = g_strstrip (lines[i]);
      guint columns[2] = { time_column, value_column };
      double numbers[2];

      if (*line == '\0' || *line == '#')
        continue;
      for (guint c = 0; c < 2; c++)
        {
          g_autofree char *copy = g_strdup (line);
          char *field = get_field (copy, columns[c]);

          if (field == NULL)
            {
              /* Only the time column decides whether a first line is a
               * header; a short line is an error either way. */
              g_set_error (error, QD_ERROR, QD_ERROR_SYNTAX,
                           _("%s:%u: expected a number in column %u, found "
                             "the end of the line; check the column "
                             "parameters"),
                           path, line_no, columns[c]);
              ok = FALSE;
              break;
            }
          if (!parse_number (field, &numbers[c]))
            {
              if (first && header && c == 0)
                break;
              g_set_error (error, QD_ERROR, QD_ERROR_SYNTAX,
                           _("%s:%u: expected a number in column %u, found "
                             "'%s'"),
                           path, line_no, columns[c], field);
              ok = FALSE;
              break;
            }
          if (c == 1)
            {
              if (times->len > 0
                  && numbers[0] < g_array_index (times, double,
                                                 times->len - 1))
                {
                  g_set_error (error, QD_ERROR, QD_ERROR_SYNTAX,
                               _("%s:%u: time %g is before the previous %g; "
                                 "sort the rows by time"),
                               path, line_no, numbers[0],
                               g_array_index (times, double, times->len - 1));
                  ok = FALSE;
                  break;
                }
              g_array_append_val (times, numbers[0]);
              g_array_append_val (values, numbers[1]);
            }
        }
      first = FALSE;
    }
  g_strfreev (lines);

  if (ok && times->len == 0)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_SYNTAX,
                   _("%s: no data rows; the file needs lines of time and "
                     "value, like \"0.5,1.2\""), path);
      ok = FALSE;
    }
  return ok;
}

static void
from_csv_init (QdAtomic *self,
               double    t)
{
  FromCsv *st = self->state;
  QdPwl *p = &st->pwl;
  const QdParamValue *v = self->params;
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GError) error = NULL;
  double *start, *value, *slope;
  guint n;

  p->sigma = QD_INF;
  if (!read_table (v[PARAM_FILE].text,
                   (guint) v[PARAM_TIME_COLUMN].number,
                   (guint) v[PARAM_VALUE_COLUMN].number,
                   v[PARAM_HEADER].number != 0.0,
                   times, values, &error))
    {
      qd_atomic_fail (self, (QdErrorCode) error->code, "%s", error->message);
      return;
    }

  n = times->len;
  start = qd_atomic_alloc (self, n * sizeof (double));
  value = qd_atomic_alloc (self, n * sizeof (double));
  slope = qd_atomic_alloc (self, n * sizeof (double));
  memcpy (start, times->data, n * sizeof (double));
  memcpy (value, values->data, n * sizeof (double));
  if ((int) v[PARAM_INTERPOLATION].number == INTERPOLATION_LINEAR)
    {
      /* A row followed by one at the same time is a piece of zero length
       * that the engine skips; its slope is never used. */
      for (guint i = 0; i + 1 < n; i++)
        if (start[i + 1] > start[i])
          slope[i] = (value[i + 1] - value[i]) / (start[i + 1] - start[i]);
    }

  p->start = start;
  p->value = value;
  p->slope = slope;
  p->n = n;
  p->t0 = 0.0;
  p->period = 0.0;
  /* Before the first row: its value. Rows at the same first time leave
   * the last of them in force, which the engine's skipping handles. */
  p->has_pre = TRUE;
  p->pre_value = value[0];
  qd_pwl_locate (p, t);
  p->sigma = 0.0;
}

static gboolean
from_csv_check (const QdBlockType  *type,
                const QdParamValue *params,
                guint               n_inputs,
                guint               n_outputs,
                GError            **error)
{
  if (params[PARAM_FILE].text[0] == '\0')
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("parameter 'file' is empty: give the CSV file to "
                     "read"));
      return FALSE;
    }
  if (params[PARAM_TIME_COLUMN].number == params[PARAM_VALUE_COLUMN].number)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("parameters 'time_column' and 'value_column' are both "
                     "%g: the time and the value must come from different "
                     "columns"), params[PARAM_TIME_COLUMN].number);
      return FALSE;
    }
  return TRUE;
}

static const char *const interpolation_choices[] = { "step", "linear", NULL };

static const QdParamSpec from_csv_params[] = {
  { "file", N_("File"), QD_PARAM_STRING, "input.csv", -QD_INF, QD_INF, NULL,
    N_("The CSV file to read, at the start of the run; a relative path is "
       "relative to the working directory."), NULL, 0 },
  { "time_column", N_("Time column"), QD_PARAM_INTEGER, "1", 1, 1000, NULL,
    N_("The column holding the times (1 is the first)."), NULL, 0 },
  { "value_column", N_("Value column"), QD_PARAM_INTEGER, "2", 1, 1000, NULL,
    N_("The column holding the values (1 is the first)."), NULL, 0 },
  { "interpolation", N_("Interpolation"), QD_PARAM_CHOICE, "step",
    -QD_INF, QD_INF, NULL,
    N_("step holds each value until the next row; linear joins the rows "
       "with straight lines, emitted exactly as order 1 segments."),
    interpolation_choices, 0 },
  { "header", N_("Skip header"), QD_PARAM_BOOLEAN, "true", -QD_INF, QD_INF,
    NULL, N_("Skip the first line when its time field is not a number "
             "(a line of column names)."), NULL, 0 },
};

const QdBlockType qd_block_from_csv = {
  .id = "from_csv",
  .category = N_("Sources"),
  .name = N_("From CSV"),
  .glyph = "▤",
  .doc = N_("Plays a table of times and values read from a CSV file (fields "
            "separated by commas, semicolons or tabs; empty lines and lines "
            "starting with # are ignored). Each row is an event at exactly "
            "its time: step interpolation holds the value until the next "
            "row, linear interpolation emits the straight line to the next "
            "row. Before the first row the output is the first value, after "
            "the last row the last value. Times must not decrease; two rows "
            "at the same time make a jump. A malformed file stops the run "
            "with the file name and the line."),
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The signal of the table.") },
  .params = from_csv_params,
  .n_params = G_N_ELEMENTS (from_csv_params),
  .state_size = sizeof (FromCsv),
  .check = from_csv_check,
  .init = from_csv_init,
  .ta = qd_pwl_ta,
  .dint = qd_pwl_dint,
  .lambda = qd_pwl_lambda,
};

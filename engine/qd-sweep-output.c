/* qd-sweep-output.c: a sweep's records as CSV, JSON and a summary
 *
 * Every writer sees the records in run order and nothing else: no time,
 * no worker, no host. The files of one sweep are therefore the same byte
 * for byte however it was run (CPU time is the exception, and only
 * written when asked for).
 */
#include "qd-sweep.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "qd-csv-private.h"
#include "qd-json-writer.h"

/* The outputs of all the runs, in the order they first appear (runs that
 * fail have none; a block may report a statistic in some runs only). */
typedef struct
{
  GPtrArray  *names;    /* const char*, borrowed from the records */
  GHashTable *columns;  /* name -> column + 1 */
} Columns;

static void
columns_init (Columns   *columns,
              GPtrArray *results)
{
  columns->names = g_ptr_array_new ();
  columns->columns = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint r = 0; r < results->len; r++)
    {
      const QdSweepResult *result = g_ptr_array_index (results, r);

      for (guint i = 0; i < result->output_names->len; i++)
        {
          const char *name = g_ptr_array_index (result->output_names, i);

          if (g_hash_table_contains (columns->columns, name))
            continue;
          g_ptr_array_add (columns->names, (gpointer) name);
          g_hash_table_insert (columns->columns, (gpointer) name,
                               GUINT_TO_POINTER (columns->names->len));
        }
    }
}

static void
columns_clear (Columns *columns)
{
  g_ptr_array_unref (columns->names);
  g_hash_table_unref (columns->columns);
}

/* The run's value of every column (NaN where it has none). */
static void
columns_fill (Columns             *columns,
              const QdSweepResult *result,
              double              *row)
{
  for (guint c = 0; c < columns->names->len; c++)
    row[c] = NAN;
  for (guint i = 0; i < result->output_names->len; i++)
    {
      guint c = GPOINTER_TO_UINT (g_hash_table_lookup (columns->columns,
                                                       g_ptr_array_index (result->output_names, i)));

      row[c - 1] = g_array_index (result->outputs, double, i);
    }
}

/* The shortest text that reads back to @value; nothing for NaN. */
static void
csv_number (FILE   *fp,
            double  value)
{
  char buf[QD_JSON_NUMBER_BUFSIZE];

  if (isfinite (value))
    fputs (qd_json_format_number (value, buf), fp);
  else if (!isnan (value))
    fputs (value > 0 ? "inf" : "-inf", fp);
}

static void
write_csv_header (FILE              *fp,
                  QdSweep           *self,
                  Columns           *columns,
                  QdSweepWriteFlags  flags)
{
  fputs ("run", fp);
  for (guint i = 0; i < qd_sweep_get_n_names (self); i++)
    {
      fputc (',', fp);
      qd_csv_field (fp, qd_sweep_get_name (self, i));
    }
  fputs (",ok,events,transitions,integrator_steps,final_time", fp);
  if (flags & QD_SWEEP_WRITE_CPU_TIME)
    fputs (",cpu_s", fp);
  for (guint c = 0; c < columns->names->len; c++)
    {
      fputc (',', fp);
      qd_csv_field (fp, g_ptr_array_index (columns->names, c));
    }
  fputs (",error\n", fp);
}

static void
write_csv_row (FILE                *fp,
               const QdSweepResult *result,
               Columns             *columns,
               double              *row,
               QdSweepWriteFlags    flags)
{
  fprintf (fp, "%" G_GUINT64_FORMAT, result->run);
  for (guint i = 0; i < result->n_values; i++)
    {
      fputc (',', fp);
      csv_number (fp, result->values[i]);
    }
  fprintf (fp, ",%d,%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",%" G_GUINT64_FORMAT ",",
           result->error == NULL, result->events, result->transitions,
           result->integrator_steps);
  csv_number (fp, result->final_time);
  if (flags & QD_SWEEP_WRITE_CPU_TIME)
    fprintf (fp, ",%.6f", result->cpu_s);
  columns_fill (columns, result, row);
  for (guint c = 0; c < columns->names->len; c++)
    {
      fputc (',', fp);
      csv_number (fp, row[c]);
    }
  fputc (',', fp);
  if (result->error != NULL)
    qd_csv_field (fp, result->error);
  fputc ('\n', fp);
}

static void
json_number (GString *out,
             double   value)
{
  char buf[QD_JSON_NUMBER_BUFSIZE];

  g_string_append (out, qd_json_format_number (value, buf));
}

/* One object per line, so that a reader may also take it line by line. */
static void
write_json_row (FILE                *fp,
                QdSweep             *self,
                const QdSweepResult *result,
                Columns             *columns,
                double              *row,
                QdSweepWriteFlags    flags,
                gboolean             last)
{
  g_autoptr(GString) out = g_string_new ("  {\"run\": ");

  g_string_append_printf (out, "%" G_GUINT64_FORMAT ", \"values\": {", result->run);
  for (guint i = 0; i < result->n_values; i++)
    {
      if (i > 0)
        g_string_append (out, ", ");
      qd_json_append_string (out, qd_sweep_get_name (self, i));
      g_string_append (out, ": ");
      json_number (out, result->values[i]);
    }
  g_string_append_printf (out, "}, \"ok\": %s, \"events\": %" G_GUINT64_FORMAT
                          ", \"transitions\": %" G_GUINT64_FORMAT
                          ", \"integrator_steps\": %" G_GUINT64_FORMAT ", \"final_time\": ",
                          result->error == NULL ? "true" : "false", result->events,
                          result->transitions, result->integrator_steps);
  json_number (out, result->final_time);
  if (flags & QD_SWEEP_WRITE_CPU_TIME)
    g_string_append_printf (out, ", \"cpu_s\": %.6f", result->cpu_s);
  g_string_append (out, ", \"outputs\": {");
  columns_fill (columns, result, row);
  for (guint c = 0, n = 0; c < columns->names->len; c++)
    {
      if (isnan (row[c]))
        continue;
      if (n++ > 0)
        g_string_append (out, ", ");
      qd_json_append_string (out, g_ptr_array_index (columns->names, c));
      g_string_append (out, ": ");
      json_number (out, row[c]);
    }
  g_string_append (out, "}, \"error\": ");
  if (result->error != NULL)
    qd_json_append_string (out, result->error);
  else
    g_string_append (out, "null");
  g_string_append (out, last ? "}\n" : "},\n");
  fputs (out->str, fp);
}

gboolean
qd_sweep_write_results (QdSweep           *self,
                        GPtrArray         *results,
                        QdSweepWriteFlags  flags,
                        const char        *path,
                        GError           **error)
{
  gboolean json = g_str_has_suffix (path, ".json") || g_str_has_suffix (path, ".JSON");
  Columns columns;
  QdCsvFile file;
  g_autofree double *row = NULL;

  if (!qd_csv_open (&file, path, error))
    return FALSE;
  columns_init (&columns, results);
  row = g_new (double, MAX (columns.names->len, 1));
  if (json)
    fputs ("[\n", file.fp);
  else
    write_csv_header (file.fp, self, &columns, flags);
  for (guint r = 0; r < results->len; r++)
    {
      const QdSweepResult *result = g_ptr_array_index (results, r);

      if (json)
        write_json_row (file.fp, self, result, &columns, row, flags, r + 1 == results->len);
      else
        write_csv_row (file.fp, result, &columns, row, flags);
    }
  if (json)
    fputs ("]\n", file.fp);
  columns_clear (&columns);
  return qd_csv_commit (&file, error);
}

guint
qd_sweep_grid_size (double t0,
                    double t1,
                    double step)
{
  /* A hair of tolerance: 0:0.1:1 has 11 points, not 10 because 10 * 0.1
   * is a little above 1. */
  double n = floor ((t1 - t0) / step * (1.0 + 1e-12)) + 1.0;

  return n < 1.0 ? 1 : n > G_MAXUINT / 2 ? G_MAXUINT / 2 : (guint) n;
}

gboolean
qd_sweep_write_traces_csv (GPtrArray   *results,
                           double       t0,
                           double       step,
                           const char  *path,
                           GError     **error)
{
  const QdSweepResult *shape = NULL;
  QdCsvFile file;

  if (!qd_csv_open (&file, path, error))
    return FALSE;
  /* Failed runs have no traces; the first good one names the columns. */
  for (guint r = 0; r < results->len && shape == NULL; r++)
    if (((const QdSweepResult *) g_ptr_array_index (results, r))->trace_names->len > 0)
      shape = g_ptr_array_index (results, r);
  fputs ("run,time", file.fp);
  for (guint k = 0; shape != NULL && k < shape->trace_names->len; k++)
    {
      fputc (',', file.fp);
      qd_csv_field (file.fp, g_ptr_array_index (shape->trace_names, k));
    }
  fputc ('\n', file.fp);
  for (guint r = 0; shape != NULL && r < results->len; r++)
    {
      const QdSweepResult *result = g_ptr_array_index (results, r);

      if (result->trace_names->len != shape->trace_names->len)
        continue;
      for (guint p = 0; p < result->n_grid; p++)
        {
          fprintf (file.fp, "%" G_GUINT64_FORMAT ",", result->run);
          csv_number (file.fp, t0 + p * step);
          for (guint k = 0; k < result->trace_names->len; k++)
            {
              fputc (',', file.fp);
              csv_number (file.fp, result->traces[(gsize) k * result->n_grid + p]);
            }
          fputc ('\n', file.fp);
        }
    }
  return qd_csv_commit (&file, error);
}

/* ---- Summary ---- */

/* The 0.975 quantile of Student's t with @df degrees of freedom: exact
 * (to four places) up to 30, then the Cornish–Fisher expansion around
 * the normal quantile, good to 1e-5 there. */
static double
t_quantile_975 (guint df)
{
  static const double table[] = {
    12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060,
    2.2622, 2.2281, 2.2010, 2.1788, 2.1604, 2.1448, 2.1314, 2.1199,
    2.1098, 2.1009, 2.0930, 2.0860, 2.0796, 2.0739, 2.0687, 2.0639,
    2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423,
  };
  double z = 1.959963984540054, v = df;
  double z3 = z * z * z, z5 = z3 * z * z, z7 = z5 * z * z, z9 = z7 * z * z;

  if (df >= 1 && df <= G_N_ELEMENTS (table))
    return table[df - 1];
  return z + (z3 + z) / (4 * v) + (5 * z5 + 16 * z3 + 3 * z) / (96 * v * v)
         + (3 * z7 + 19 * z5 + 17 * z3 - 15 * z) / (384 * v * v * v)
         + (79 * z9 + 776 * z7 + 1482 * z5 - 1920 * z3 - 945 * z) / (92160 * v * v * v * v);
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Linear interpolation between order statistics (R's type 7). */
static double
percentile (const double *sorted,
            guint         n,
            double        p)
{
  double h = (n - 1) * p;
  guint lo = (guint) floor (h);

  if (lo + 1 >= n)
    return sorted[n - 1];
  return sorted[lo] + (h - lo) * (sorted[lo + 1] - sorted[lo]);
}

void
qd_sweep_summarize (const double   *values,
                    guint           n,
                    QdSweepSummary *summary)
{
  g_autofree double *sorted = NULL;
  double sum = 0.0, squares = 0.0;

  summary->n = n;
  summary->mean = summary->sd = summary->p5 = summary->p50 = summary->p95 = NAN;
  summary->ci_low = summary->ci_high = NAN;
  if (n == 0)
    return;
  for (guint i = 0; i < n; i++)
    sum += values[i];
  summary->mean = sum / n;
  /* Two passes: the deviations are summed, not the squares of large
   * values, which would cancel. */
  for (guint i = 0; i < n; i++)
    squares += (values[i] - summary->mean) * (values[i] - summary->mean);
  sorted = g_memdup2 (values, sizeof (double) * n);
  qsort (sorted, n, sizeof (double), compare_doubles);
  summary->p5 = percentile (sorted, n, 0.05);
  summary->p50 = percentile (sorted, n, 0.50);
  summary->p95 = percentile (sorted, n, 0.95);
  if (n < 2)
    return;
  summary->sd = sqrt (squares / (n - 1));
  {
    double half = t_quantile_975 (n - 1) * summary->sd / sqrt ((double) n);

    summary->ci_low = summary->mean - half;
    summary->ci_high = summary->mean + half;
  }
}

static void
summary_row (GString      *text,
             int           width,
             const char   *name,
             const double *values,
             guint         n)
{
  QdSweepSummary s;
  /* Pad by characters, not bytes. */
  int pad = width + (int) (strlen (name) - g_utf8_strlen (name, -1));

  qd_sweep_summarize (values, n, &s);
  g_string_append_printf (text, "%-*s %6u %12.6g %12.6g %12.6g %12.6g %12.6g  [%.6g, %.6g]\n",
                          pad, name, s.n, s.mean, s.sd, s.p5, s.p50, s.p95,
                          s.ci_low, s.ci_high);
}

char *
qd_sweep_summary_text (GPtrArray *results)
{
  GString *text = g_string_new (NULL);
  Columns columns;
  g_autofree double *row = NULL;
  g_autofree double *events = g_new (double, MAX (results->len, 1));
  g_autofree double *steps = g_new (double, MAX (results->len, 1));
  g_autofree double *column = g_new (double, MAX (results->len, 1));
  int width = MAX ((int) g_utf8_strlen (_("Output"), -1), (int) strlen ("integrator_steps"));
  guint n_ok = 0;

  columns_init (&columns, results);
  row = g_new (double, MAX (columns.names->len, 1));
  for (guint c = 0; c < columns.names->len; c++)
    width = MAX (width, (int) g_utf8_strlen (g_ptr_array_index (columns.names, c), -1));
  for (guint r = 0; r < results->len; r++)
    {
      const QdSweepResult *result = g_ptr_array_index (results, r);

      if (result->error != NULL)
        continue;
      events[n_ok] = (double) result->events;
      steps[n_ok] = (double) result->integrator_steps;
      n_ok++;
    }
  g_string_append_printf (text, "%-*s %6s %12s %12s %12s %12s %12s  %s\n",
                          width + (int) (strlen (_("Output")) - g_utf8_strlen (_("Output"), -1)),
                          _("Output"), "n", _("mean"), _("sd"), "p5", "p50", "p95",
                          /* xgettext:no-c-format */
                          _("95% CI of the mean"));
  summary_row (text, width, "events", events, n_ok);
  summary_row (text, width, "integrator_steps", steps, n_ok);
  for (guint c = 0; c < columns.names->len; c++)
    {
      guint n = 0;

      for (guint r = 0; r < results->len; r++)
        {
          const QdSweepResult *result = g_ptr_array_index (results, r);

          if (result->error != NULL)
            continue;
          columns_fill (&columns, result, row);
          if (isfinite (row[c]))
            column[n++] = row[c];
        }
      summary_row (text, width, g_ptr_array_index (columns.names, c), column, n);
    }
  columns_clear (&columns);
  return g_string_free (text, FALSE);
}

/* qd-trace-csv.c: traces as CSV, every event or sampled
 *
 * The rows are the union of the traces' event times (step == 0) or a
 * regular grid (step > 0), always closed by a row at the end time, so a
 * plot of the file reaches the end of the run. Each value is the trace's
 * own polynomial evaluated at the row's time, which makes every row exact
 * rather than interpolated.
 *
 * A trace under a memory budget may have lost its oldest exact segments
 * (qd-trace.h). Its column is then empty before its exact data starts,
 * and a comment line above the header says so, naming the trace and the
 * time range, so that missing rows are never mistaken for missing events.
 * Every trace is pinned while the file is written.
 */
#include "qd-trace-csv.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdio.h>

#include "qd-csv-private.h"
#include "qd-error.h"

/* Per trace: the segment in force at the current row. Traces are
 * append-only, so the held range read once at the start is a consistent
 * snapshot even while a writer still appends (the pin keeps it). */
typedef struct
{
  QdTrace *trace;
  gsize    length;
  gsize    next;     /* first segment not yet taken into account */
  gssize   current;  /* segment in force, -1 before the first */
} Cursor;

static void
write_row (FILE   *fp,
           Cursor *cursors,
           guint   n,
           double  t)
{
  qd_csv_number (fp, t);
  for (guint i = 0; i < n; i++)
    {
      Cursor *c = &cursors[i];

      /* Rows come in increasing time, so each cursor only moves forward:
       * the whole file costs one pass over every trace. */
      while (c->next < c->length && qd_trace_get (c->trace, c->next)->t <= t)
        c->current = (gssize) c->next++;
      fputc (',', fp);
      if (c->current >= 0)
        qd_csv_number (fp, qd_signal_eval (qd_trace_get (c->trace, c->current), t));
    }
  fputc ('\n', fp);
}

/* The earliest segment start not yet written, over all traces. */
static double
next_event_time (Cursor *cursors,
                 guint   n)
{
  double t = QD_INF;

  for (guint i = 0; i < n; i++)
    if (cursors[i].next < cursors[i].length)
      t = MIN (t, qd_trace_get (cursors[i].trace, cursors[i].next)->t);
  return t;
}

/* Who is asked, every PROGRESS_ROWS rows, whether to go on. */
typedef struct
{
  QdCsvProgressFunc func;
  gpointer          user_data;
  guint64           rows;
} Progress;

#define PROGRESS_ROWS 4096

static gboolean
stop_asked (Progress *progress)
{
  return progress->func != NULL
         && ++progress->rows % PROGRESS_ROWS == 0
         && !progress->func (progress->user_data);
}

/* A sampled file of more than QD_CSV_MAX_ROWS rows is refused before it
 * is opened. */
static gboolean
check_rows (double       start_time,
            double       end_time,
            double       step,
            const char  *path,
            GError     **error)
{
  double rows = step > 0.0 ? floor ((end_time - start_time) / step) + 2.0 : 0.0;

  if (rows <= QD_CSV_MAX_ROWS)
    return TRUE;
  g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
               _("%s: a step of %g from t = %g to %g makes %.3g rows, more than %d; choose a step of at least %.3g"),
               path, step, start_time, end_time, rows, QD_CSV_MAX_ROWS,
               (end_time - start_time) / (QD_CSV_MAX_ROWS - 2));
  return FALSE;
}

/* The file itself, the traces pinned. The file is written beside @path
 * and renamed at the end (qd-csv-private.h). */
static gboolean
write_file (Cursor      *cursors,
            guint        n,
            double       start_time,
            double       end_time,
            double       step,
            const char  *path,
            Progress    *progress,
            GError     **error)
{
  QdCsvFile file;
  FILE *fp;

  if (!check_rows (start_time, end_time, step, path, error)
      || !qd_csv_open (&file, path, error))
    return FALSE;
  fp = file.fp;

  for (guint i = 0; i < n; i++)
    {
      char from[G_ASCII_DTOSTR_BUF_SIZE], to[G_ASCII_DTOSTR_BUF_SIZE];
      const QdSignal *seg;
      double t0;

      if (cursors[i].next == 0 || cursors[i].next >= cursors[i].length)
        continue;
      seg = qd_trace_get (cursors[i].trace, cursors[i].next);
      t0 = qd_trace_get_start_time (cursors[i].trace);
      g_ascii_formatd (from, sizeof from, "%.17g", t0);
      g_ascii_formatd (to, sizeof to, "%.17g", seg->t);
      fputs ("# ", fp);
      /* TRANSLATORS: a comment line above the header of a CSV file; the
       * first %s is a trace name ("/Scope/x1"), then two times. */
      fprintf (fp, _("%s: exact data from t = %s to %s was decimated to stay within the trace memory budget; its column is empty there (raise the trace-memory-budget setting, or run qdevs-cli with --trace-budget unlimited, to keep every event)"),
               qd_trace_get_name (cursors[i].trace), from, to);
      fputc ('\n', fp);
    }

  fputs ("time", fp);
  for (guint i = 0; i < n; i++)
    {
      fputc (',', fp);
      qd_csv_field (fp, qd_trace_get_name (cursors[i].trace));
    }
  fputc ('\n', fp);

  if (step > 0.0)
    {
      /* t = start + k·step rather than an accumulated sum, so rounding
       * does not drift over millions of rows; a grid point within a
       * relative 1e-9 of the end merges with the final row. */
      double tolerance = step * 1e-9;

      for (guint64 k = 0;; k++)
        {
          double t = start_time + (double) k * step;

          if (t >= end_time - tolerance)
            break;
          write_row (fp, cursors, n, t);
          if (stop_asked (progress))
            goto stopped;
        }
    }
  else
    {
      for (;;)
        {
          double t = next_event_time (cursors, n);

          if (!(t < end_time))
            break;
          if (t < start_time)
            t = start_time;
          write_row (fp, cursors, n, t);
          if (stop_asked (progress))
            goto stopped;
        }
    }
  write_row (fp, cursors, n, end_time);

  return qd_csv_commit (&file, error);

stopped:
  g_set_error (error, QD_ERROR, QD_ERROR_STOPPED,
               _("%s: writing stopped on request; the file was not written"),
               file.path != NULL ? file.path : path);
  qd_csv_abort (&file);
  return FALSE;
}

gboolean
qd_traces_write_csv (GPtrArray   *traces,
                     double       start_time,
                     double       end_time,
                     double       step,
                     const char  *path,
                     GError     **error)
{
  return qd_traces_write_csv_full (traces, start_time, end_time, step, path,
                                   NULL, NULL, error);
}

gboolean
qd_traces_write_csv_full (GPtrArray          *traces,
                          double              start_time,
                          double              end_time,
                          double              step,
                          const char         *path,
                          QdCsvProgressFunc   progress_func,
                          gpointer            user_data,
                          GError            **error)
{
  Progress progress = { progress_func, user_data, 0 };
  g_autofree Cursor *cursors = NULL;
  g_autofree guint *pins = NULL;
  gboolean ok;
  guint n;

  g_return_val_if_fail (traces != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (step >= 0.0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  n = traces->len;
  cursors = g_new0 (Cursor, MAX (n, 1));
  pins = g_new0 (guint, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      QdTrace *trace = g_ptr_array_index (traces, i);

      pins[i] = qd_trace_read_begin (trace);
      cursors[i].trace = trace;
      cursors[i].next = qd_trace_get_first (trace);
      cursors[i].length = qd_trace_get_length (trace);
      cursors[i].current = -1;
    }
  ok = write_file (cursors, n, start_time, end_time, step, path, &progress, error);
  for (guint i = 0; i < n; i++)
    qd_trace_read_end (cursors[i].trace, pins[i]);
  return ok;
}

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

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
write_number (FILE   *fp,
              double  value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  /* An empty field, not "nan", where a trace has no value yet: spreadsheet
   * and plotting tools read that as missing data. */
  if (isnan (value))
    return;
  /* g_ascii_formatd: a '.' whatever the user's locale. */
  fputs (g_ascii_formatd (buf, sizeof buf, "%.17g", value), fp);
}

static void
write_field (FILE       *fp,
             const char *text)
{
  /* RFC 4180 quoting, only when the name needs it. */
  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      fputs (text, fp);
      return;
    }
  fputc ('"', fp);
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"')
        fputc ('"', fp);
      fputc (*p, fp);
    }
  fputc ('"', fp);
}

static void
write_row (FILE   *fp,
           Cursor *cursors,
           guint   n,
           double  t)
{
  write_number (fp, t);
  for (guint i = 0; i < n; i++)
    {
      Cursor *c = &cursors[i];

      /* Rows come in increasing time, so each cursor only moves forward:
       * the whole file costs one pass over every trace. */
      while (c->next < c->length && qd_trace_get (c->trace, c->next)->t <= t)
        c->current = (gssize) c->next++;
      fputc (',', fp);
      if (c->current >= 0)
        write_number (fp, qd_signal_eval (qd_trace_get (c->trace, c->current), t));
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

static void
set_io_error (GError     **error,
              const char  *path,
              int          saved_errno)
{
  g_set_error (error, QD_ERROR, QD_ERROR_IO,
               _("%s: cannot write the CSV file: %s; check that the folder exists and is writable"),
               path, g_strerror (saved_errno));
}

/* The file itself, the traces pinned. */
static gboolean
write_file (Cursor      *cursors,
            guint        n,
            double       start_time,
            double       end_time,
            double       step,
            const char  *path,
            GError     **error)
{
  g_autofree char *tmp_path = NULL;
  FILE *fp;
  int fd;

  /* Write next to the target and rename, so a reader never sees half a
   * file and a failed export leaves an older file intact. */
  tmp_path = g_strconcat (path, ".XXXXXX", NULL);
  fd = g_mkstemp_full (tmp_path, O_WRONLY, 0644);
  if (fd < 0)
    {
      set_io_error (error, path, errno);
      return FALSE;
    }
  fp = fdopen (fd, "w");
  if (fp == NULL)
    {
      int saved_errno = errno;

      close (fd);
      g_unlink (tmp_path);
      set_io_error (error, path, saved_errno);
      return FALSE;
    }
  setvbuf (fp, NULL, _IOFBF, 1 << 16);

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
      fprintf (fp, _("%s: exact data from t = %s to %s was decimated to stay within the trace memory budget; its column is empty there (raise the trace-memory-budget setting, or run qdevs-cli without --trace-budget, to keep every event)"),
               qd_trace_get_name (cursors[i].trace), from, to);
      fputc ('\n', fp);
    }

  fputs ("time", fp);
  for (guint i = 0; i < n; i++)
    {
      fputc (',', fp);
      write_field (fp, qd_trace_get_name (cursors[i].trace));
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
        }
    }
  write_row (fp, cursors, n, end_time);

  if (ferror (fp) || fflush (fp) != 0 || fsync (fileno (fp)) != 0)
    {
      int saved_errno = errno != 0 ? errno : EIO;

      fclose (fp);
      g_unlink (tmp_path);
      set_io_error (error, path, saved_errno);
      return FALSE;
    }
  if (fclose (fp) != 0 || g_rename (tmp_path, path) != 0)
    {
      int saved_errno = errno;

      g_unlink (tmp_path);
      set_io_error (error, path, saved_errno);
      return FALSE;
    }

  return TRUE;
}

gboolean
qd_traces_write_csv (GPtrArray   *traces,
                     double       start_time,
                     double       end_time,
                     double       step,
                     const char  *path,
                     GError     **error)
{
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
  ok = write_file (cursors, n, start_time, end_time, step, path, error);
  for (guint i = 0; i < n; i++)
    qd_trace_read_end (cursors[i].trace, pins[i]);
  return ok;
}

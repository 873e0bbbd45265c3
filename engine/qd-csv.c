/* qd-csv.c: writing a CSV file whole or not at all */
#include "qd-csv-private.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include "qd-error.h"

static void
set_io_error (GError     **error,
              const char  *path,
              int          saved_errno)
{
  g_set_error (error, QD_ERROR, QD_ERROR_IO,
               _("%s: cannot write the CSV file: %s; check that the folder exists and is writable"),
               path, g_strerror (saved_errno));
}

static void
file_clear (QdCsvFile *file)
{
  g_clear_pointer (&file->path, g_free);
  g_clear_pointer (&file->tmp_path, g_free);
  file->fp = NULL;
}

gboolean
qd_csv_open (QdCsvFile   *file,
             const char  *path,
             GError     **error)
{
  int fd;

  memset (file, 0, sizeof *file);
  /* "-" is standard output, written as it comes: there is nothing to
   * rename, and a reader of a pipe wants the rows at once. */
  if (strcmp (path, "-") == 0)
    {
      file->fp = stdout;
      file->path = g_strdup (_("standard output"));
      return TRUE;
    }
  file->tmp_path = g_strconcat (path, ".XXXXXX", NULL);
  fd = g_mkstemp_full (file->tmp_path, O_WRONLY, 0644);
  if (fd < 0)
    {
      set_io_error (error, path, errno);
      file_clear (file);
      return FALSE;
    }
  file->fp = fdopen (fd, "w");
  if (file->fp == NULL)
    {
      int saved_errno = errno;

      close (fd);
      g_unlink (file->tmp_path);
      set_io_error (error, path, saved_errno);
      file_clear (file);
      return FALSE;
    }
  setvbuf (file->fp, NULL, _IOFBF, 1 << 16);
  file->path = g_strdup (path);
  return TRUE;
}

gboolean
qd_csv_commit (QdCsvFile   *file,
               GError     **error)
{
  FILE *fp = file->fp;
  int saved_errno = 0;

  errno = 0;
  if (file->tmp_path == NULL)
    {
      /* Standard output: flushed, left open for whoever writes next. */
      if (ferror (fp) || fflush (fp) != 0)
        saved_errno = errno != 0 ? errno : EIO;
      if (saved_errno != 0)
        set_io_error (error, file->path, saved_errno);
      file_clear (file);
      return saved_errno == 0;
    }
  if (ferror (fp) || fflush (fp) != 0 || fsync (fileno (fp)) != 0)
    saved_errno = errno != 0 ? errno : EIO;
  if (fclose (fp) != 0 && saved_errno == 0)
    saved_errno = errno;
  if (saved_errno == 0 && g_rename (file->tmp_path, file->path) != 0)
    saved_errno = errno;
  if (saved_errno != 0)
    {
      g_unlink (file->tmp_path);
      set_io_error (error, file->path, saved_errno);
    }
  file_clear (file);
  return saved_errno == 0;
}

void
qd_csv_abort (QdCsvFile *file)
{
  if (file->fp == NULL)
    return;
  if (file->tmp_path == NULL)
    {
      /* Standard output: what was written cannot be taken back. */
      fflush (file->fp);
      file_clear (file);
      return;
    }
  fclose (file->fp);
  g_unlink (file->tmp_path);
  file_clear (file);
}

void
qd_csv_number (FILE   *fp,
               double  value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  /* An empty field, not "nan", where there is no value: spreadsheet and
   * plotting tools read that as missing data. */
  if (isnan (value))
    return;
  fputs (g_ascii_formatd (buf, sizeof buf, "%.17g", value), fp);
}

void
qd_csv_field (FILE       *fp,
              const char *text)
{
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

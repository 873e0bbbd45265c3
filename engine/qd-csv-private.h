/* qd-csv-private.h: writing a CSV file whole or not at all
 *
 * The engine's CSV writers (traces, the event log) write next to the
 * target and rename at the end, so that a reader never sees half a file
 * and a failed export leaves an older file intact.
 */
#pragma once

#include <stdio.h>

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  FILE *fp;         /* fully buffered */
  char *path;
  char *tmp_path;   /* path.XXXXXX, renamed to path on commit; NULL
                     * for standard output */
} QdCsvFile;

/* Opens a temporary file beside @path; "-" is standard output, written
 * directly (commit flushes it, abort leaves what was written). */
gboolean qd_csv_open    (QdCsvFile   *file,
                         const char  *path,
                         GError     **error);
/* Flushes, syncs and renames the file to its path; on failure the
 * temporary file is removed. Either way @file is closed. */
gboolean qd_csv_commit  (QdCsvFile   *file,
                         GError     **error);
/* Closes and removes the temporary file; the target is untouched. */
void     qd_csv_abort   (QdCsvFile   *file);

/* A number with 17 significant digits and a '.', whatever the locale;
 * nothing (an empty field) for NaN. */
void     qd_csv_number  (FILE        *fp,
                         double       value);
/* @text, quoted as RFC 4180 says only when it needs to be. */
void     qd_csv_field   (FILE        *fp,
                         const char  *text);

G_END_DECLS

/* qd-trace-csv.h: traces as CSV, every event or sampled */
#pragma once

#include <glib.h>

#include "qd-version-macros.h"
#include "qd-trace.h"

G_BEGIN_DECLS

/* The most rows a sampled file may have: a step far below the span of
 * the run (--csv-step 1e-300) would otherwise write until the disk is
 * full. */
#define QD_CSV_MAX_ROWS 100000000

/* Called every few thousand rows while a file is written; FALSE stops
 * the writing (a program interrupted by the user). */
typedef gboolean (*QdCsvProgressFunc) (gpointer user_data);

/* Writes @traces (QdTrace*) to @path as CSV with a header "time,NAME,...";
 * @path "-" is standard output. With @step == 0, one row per event of
 * any trace (every segment start), each trace evaluated exactly from its
 * polynomial at that time; with @step > 0, rows at t0, t0 + step, ... up
 * to @end_time, and a step that makes more than QD_CSV_MAX_ROWS rows is
 * refused (QD_ERROR_INVALID) before anything is written. Values are
 * written with 17 significant digits. A trace that lost its oldest exact
 * segments to a memory budget (qd-trace.h) gets a comment line starting
 * with "# " above the header, naming it and the time range lost; its
 * column is empty there. Without a budget the file has no comment line. */
QD_API gboolean qd_traces_write_csv (GPtrArray   *traces,
                                     double       start_time,
                                     double       end_time,
                                     double       step,
                                     const char  *path,
                                     GError     **error);
/* The same, asking @progress (when not NULL) whether to go on. When it
 * says no, the file is not written (the temporary file beside @path is
 * removed; on standard output the rows so far stay) and the error is
 * QD_ERROR_STOPPED. */
QD_API gboolean qd_traces_write_csv_full (GPtrArray         *traces,
                                          double             start_time,
                                          double             end_time,
                                          double             step,
                                          const char        *path,
                                          QdCsvProgressFunc  progress,
                                          gpointer           user_data,
                                          GError           **error);

G_END_DECLS

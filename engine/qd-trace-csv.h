/* qd-trace-csv.h: traces as CSV, every event or sampled */
#pragma once

#include <glib.h>

#include "qd-version-macros.h"
#include "qd-trace.h"

G_BEGIN_DECLS

/* Writes @traces (QdTrace*) to @path as CSV with a header "time,NAME,...".
 * With @step == 0, one row per event of any trace (every segment start),
 * each trace evaluated exactly from its polynomial at that time; with
 * @step > 0, rows at t0, t0 + step, ... up to @end_time. Values are
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

G_END_DECLS

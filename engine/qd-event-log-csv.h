/* qd-event-log-csv.h: a run's event log as a CSV file */
#pragma once

#include <glib.h>

#include "qd-version-macros.h"
#include "qd-simulation.h"

G_BEGIN_DECLS

typedef struct _QdEventLogCsv QdEventLogCsv;

/* Makes a CSV file at @path the event log of @sim (which has not run
 * yet): one row per transition with the header
 *   event,time,block,transition,port,elapsed,ta,order,c0,c1,c2,c3,tag
 * where transition is "output", "internal" or "external", block the
 * block's path, c0..c3 the segment's coefficients up to its order and
 * tag its payload (a discrete-event block's entity; 0 for a continuous
 * signal), in output and external rows. Fields that do not apply are empty, a time
 * advance of infinity is "inf", and numbers have 17 significant digits.
 * With @limit > 0 only the first @limit rows are written: at the next
 * one the log takes itself off the simulation, whose run goes on at
 * full speed. The file is written beside @path and renamed there by
 * qd_event_log_csv_close(), so a failed run leaves an older file intact. */
QD_API QdEventLogCsv *qd_event_log_csv_new         (QdSimulation   *sim,
                                                     const char     *path,
                                                     guint64         limit,
                                                     GError        **error);
/* The same file, attached to no simulation: rows come from
 * qd_event_log_csv_append() (an editor writing the log it kept). */
QD_API QdEventLogCsv *qd_event_log_csv_open        (const char     *path,
                                                     GError        **error);
/* One row: @entry, of the block at @block_path. */
QD_API void           qd_event_log_csv_append      (QdEventLogCsv    *self,
                                                     const QdLogEntry *entry,
                                                     const char       *block_path);
/* Detaches the log from its simulation, finishes the file and frees
 * @self. FALSE, with @error naming the file, when it could not be
 * written; the older file, if any, is then left as it was. */
QD_API gboolean       qd_event_log_csv_close       (QdEventLogCsv  *self,
                                                     GError        **error);
/* Detaches and frees @self, removing what it wrote. */
QD_API void           qd_event_log_csv_discard     (QdEventLogCsv  *self);
/* Rows written; whether the run went on past the limit, unlogged. */
QD_API guint64        qd_event_log_csv_get_written   (QdEventLogCsv  *self);
QD_API gboolean       qd_event_log_csv_get_truncated (QdEventLogCsv  *self);

G_END_DECLS

/* qd-event-view.h: the transitions of a run, one by one
 *
 * A table of the first transitions of a simulation, in the order DEVS
 * executed them (qd-event-log.h): each event's outputs (λ), its internal
 * transition (δint), then the external transitions (δext) they caused,
 * with elapsed times, time advances and the segments sent. Stepping a
 * run shows each step's rows as they come, which is how a student
 * follows the simulator. Activating a row emits "block-activated" with
 * its block's path, for the window to show the block.
 */
#pragma once

#include <gtk/gtk.h>

#include "qdevs.h"

G_BEGIN_DECLS

/* Rows kept: enough to follow a run for a long while; a whole long run
 * is what qdevs-cli run --events writes. */
#define QD_EVENT_VIEW_LIMIT 10000

#define QD_TYPE_EVENT_VIEW (qd_event_view_get_type ())
G_DECLARE_FINAL_TYPE (QdEventView, qd_event_view, QD, EVENT_VIEW, GtkWidget)

GtkWidget *qd_event_view_new         (void);
/* Empties the table and records the first QD_EVENT_VIEW_LIMIT
 * transitions of @simulation, which has not run yet, from the thread
 * that runs it; past the limit the log takes itself off, so the rest of
 * the run goes at full speed. NULL only empties the table. The
 * simulation calls the view while it runs: free it before the view, and
 * give the view another simulation (or NULL) once it is freed. */
void       qd_event_view_record      (QdEventView  *self,
                                      QdSimulation *simulation);
/* Shows what was recorded since the last call. Only while the
 * simulation is not running (idle, paused or over). */
void       qd_event_view_update      (QdEventView  *self);
/* Emits "block-activated" with the path of row @row's block, as a
 * double click or Enter on the row does. */
void       qd_event_view_activate    (QdEventView  *self,
                                      guint         row);
/* Writes the rows shown to @path as qdevs-cli run --events writes a log
 * (qd-event-log-csv.h), replacing the file only once it is whole. The
 * Export button does it through a file chooser. */
gboolean   qd_event_view_write_csv   (QdEventView  *self,
                                      const char   *path,
                                      GError      **error);
/* Rows shown, and the text of a cell (column 0 event, 1 time, 2 block,
 * 3 transition, 4 port, 5 elapsed, 6 ta, 7 segment); for tests. */
guint      qd_event_view_get_n_rows  (QdEventView  *self);
char      *qd_event_view_dup_cell    (QdEventView  *self,
                                      guint         row,
                                      guint         column);

/* The record of row @row (its segment copied into @segment, which
 * entry->segment then points to); FALSE past the last row. */
gboolean   qd_event_view_get_entry   (QdEventView  *self,
                                      guint         row,
                                      QdLogEntry   *entry,
                                      QdSignal     *segment);
/* The path of block @block (index in the flat model) of the run. */
const char *qd_event_view_get_block_path (QdEventView *self,
                                          guint        block);
/* Selects row @row and scrolls it into sight (a debugger following the
 * run); a row past the last clears the selection. Emits nothing. */
void       qd_event_view_select_row  (QdEventView  *self,
                                      guint         row);
/* The row selected, or GTK_INVALID_LIST_POSITION. */
guint      qd_event_view_get_selected_row (QdEventView *self);

G_END_DECLS

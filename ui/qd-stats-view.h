/* qd-stats-view.h: per-block statistics of a run
 *
 * A table of every atomic block of a simulation: its path, its type and
 * how many internal and external transitions it made, and the statistics
 * it reported itself (a Queue's mean length, a Server's utilisation),
 * sortable by any column. It also gives the badges the canvas draws on the integrators
 * (their internal-transition count), so a student sees where a stiff
 * state spends its steps.
 */
#pragma once

#include <gtk/gtk.h>

#include "qdevs.h"

G_BEGIN_DECLS

#define QD_TYPE_STATS_VIEW (qd_stats_view_get_type ())
G_DECLARE_FINAL_TYPE (QdStatsView, qd_stats_view, QD, STATS_VIEW, GtkWidget)

GtkWidget  *qd_stats_view_new             (void);
/* Reads the counts of @simulation, which must not be running (idle,
 * paused or over); NULL empties the table. */
void        qd_stats_view_set_simulation  (QdStatsView  *self,
                                           QdSimulation *simulation);
/* Rows in the simulation's block order (not the sorted order shown). */
guint       qd_stats_view_get_n_rows      (QdStatsView  *self);
void        qd_stats_view_get_row         (QdStatsView  *self,
                                           guint         index,
                                           const char  **path,
                                           const char  **type_name,
                                           guint64      *n_internal,
                                           guint64      *n_external);
/* What block @index reported (qd_atomic_set_stat()), one "name = value"
 * a line in the order it set them; "" for none. */
const char *qd_stats_view_get_reported    (QdStatsView  *self,
                                           guint         index);
/* The text above the table (what was counted; a classic solver's own
 * statistics on a second line). */
const char *qd_stats_view_get_status      (QdStatsView  *self);
/* The model the column view shows, sorted as the user asked. */
GListModel *qd_stats_view_get_sorted_model (QdStatsView *self);
/* Sorts by column @column (0 path, 1 type, 2 internal, 3 external,
 * 4 reported), as a click on its header does. */
void        qd_stats_view_sort            (QdStatsView  *self,
                                           guint         column,
                                           GtkSortType   order);
/* Block id -> badge text ("1234 steps") for the integrators of the
 * table that @document still holds, found by path. */
GHashTable *qd_stats_view_dup_badges      (QdStatsView  *self,
                                           QdDocument   *document);
/* Block id -> what the block reported, for the blocks of the table that
 * report something and that @document still holds. */
GHashTable *qd_stats_view_dup_reported    (QdStatsView  *self,
                                           QdDocument   *document);

G_END_DECLS

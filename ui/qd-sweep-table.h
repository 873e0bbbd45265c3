/* qd-sweep-table.h: the runs of a sweep, one row each
 *
 * A column view of a finished sweep (qd-sweep-job.h): the run's number,
 * its varied values, every output the runs report (each Scope signal's
 * final value, minimum and maximum, the blocks' statistics), its
 * integrator steps and events, its CPU time and its error. A click on a
 * header sorts by that column, numbers numerically, runs without a value
 * (failed runs) below every number: last when the largest come first.
 */
#pragma once

#include <gtk/gtk.h>

#include "qd-sweep-job.h"

G_BEGIN_DECLS

#define QD_TYPE_SWEEP_TABLE (qd_sweep_table_get_type ())
G_DECLARE_FINAL_TYPE (QdSweepTable, qd_sweep_table, QD, SWEEP_TABLE, GtkWidget)

GtkWidget  *qd_sweep_table_new              (void);
/* Shows the runs of the finished @job; NULL empties the table. */
void        qd_sweep_table_set_job          (QdSweepTable *self,
                                             QdSweepJob   *job);
guint       qd_sweep_table_get_n_columns    (QdSweepTable *self);
const char *qd_sweep_table_get_column_title (QdSweepTable *self,
                                             guint         column);
/* The column titled @title, or -1. */
int         qd_sweep_table_find_column      (QdSweepTable *self,
                                             const char   *title);
/* Rows in the order shown (sorted as the user asked). */
guint       qd_sweep_table_get_n_rows       (QdSweepTable *self);
/* The text of a cell as shown, and its number (NaN for none, and for
 * the error column). */
char       *qd_sweep_table_dup_cell         (QdSweepTable *self,
                                             guint         row,
                                             guint         column);
double      qd_sweep_table_get_number       (QdSweepTable *self,
                                             guint         row,
                                             guint         column);
/* The run of the row selected, or NULL; "run-selected" tells when it
 * changes. qd_sweep_table_select() selects row @row of those shown
 * (G_MAXUINT: none), as a click does. */
const QdSweepResult *qd_sweep_table_get_selected (QdSweepTable *self);
void        qd_sweep_table_select           (QdSweepTable *self,
                                             guint         row);
/* Sorts by @column, as clicks on its header do. */
void        qd_sweep_table_sort             (QdSweepTable *self,
                                             guint         column,
                                             GtkSortType   order);

G_END_DECLS

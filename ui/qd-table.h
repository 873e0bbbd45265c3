/* qd-table.h: what the editor's tables share (statistics, transitions)
 *
 * Both are a status line over a column view of labels: numbers
 * right-aligned in tabular figures, text left-aligned and ellipsized.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* A cell: a number (right-aligned, tabular figures) or text (left,
 * ellipsized as @ellipsize says). */
GtkWidget *qd_table_cell_new     (gboolean            numeric,
                                  PangoEllipsizeMode  ellipsize);
/* The dim status line over a table. */
GtkLabel  *qd_table_status_new   (void);
/* @view in a scrolled window that takes the height left. */
GtkWidget *qd_table_scroller_new (GtkWidget          *view);

G_END_DECLS

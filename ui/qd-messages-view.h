/* qd-messages-view.h: the list of problems found in a diagram
 *
 * Shows what qd_document_check() finds (unconnected inputs, bad
 * parameters, unknown names, algebraic loops), one row per problem with
 * the block's path and what to do. Activating a row emits
 * "problem-activated" with the block's id and path, so that the window
 * can select and reveal the block. Each time the list is replaced it
 * emits "problems-changed".
 */
#pragma once

#include <gtk/gtk.h>

#include "qdevs.h"

G_BEGIN_DECLS

#define QD_TYPE_MESSAGES_VIEW (qd_messages_view_get_type ())
G_DECLARE_FINAL_TYPE (QdMessagesView, qd_messages_view, QD, MESSAGES_VIEW, GtkWidget)

GtkWidget       *qd_messages_view_new          (void);
/* Checks @document and lists what it finds; returns the number of
 * problems (0: the model is ready to run). */
guint            qd_messages_view_check        (QdMessagesView *self,
                                                QdDocument     *document);
/* Lists copies of @problems (QdProblem*); NULL empties the list and shows
 * that nothing was checked yet. */
void             qd_messages_view_set_problems (QdMessagesView *self,
                                                GPtrArray      *problems);
guint            qd_messages_view_get_n_problems (QdMessagesView *self);
const QdProblem *qd_messages_view_get_problem  (QdMessagesView *self,
                                                guint           index);
/* The ids of the blocks that have a problem (a set of strings, owned by
 * the view), for highlighting. */
GHashTable      *qd_messages_view_get_block_ids (QdMessagesView *self);
/* Activates row @index, as a click or Enter on it does. */
void             qd_messages_view_activate     (QdMessagesView *self,
                                                guint           index);
/* The problem of the row activated last (during "problem-activated" it
 * is the one being activated), or NULL; the list's next change clears
 * it. */
const QdProblem *qd_messages_view_get_activated (QdMessagesView *self);

G_END_DECLS

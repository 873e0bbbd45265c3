/* qd-canvas-notes.h: editing a diagram's text notes from the canvas */
#pragma once

#include <gtk/gtk.h>

#include "qdevs.h"

G_BEGIN_DECLS

/* A small window over @parent's window with the text of @document's note
 * @index; Save makes the change one undo step ("Edit Note"), Cancel and
 * closing leave the note as it was. */
void qd_canvas_notes_edit (GtkWidget  *parent,
                           QdDocument *document,
                           guint       index);

G_END_DECLS

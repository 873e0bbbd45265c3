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

/* A note dragged on the canvas: moved as the pointer goes, its corner
 * snapped to the grid as a block's is, the whole drag one undo step
 * ("Move Note"). */
typedef struct
{
  QdDocument *document;   /* NULL when no note is dragged */
  guint       index;
  double      x0, y0;     /* the note's corner when pressed */
  double      press_x, press_y;
  gboolean    moved;      /* the transaction is open */
} QdNoteDrag;

/* Starts dragging the topmost note of @document at canvas point (@x, @y)
 * when there is one (TRUE); otherwise leaves @drag idle. */
gboolean qd_canvas_notes_drag_begin  (QdNoteDrag *drag,
                                      QdDocument *document,
                                      GPtrArray  *notes,
                                      double      x,
                                      double      y);
void     qd_canvas_notes_drag_update (QdNoteDrag *drag,
                                      double      x,
                                      double      y);
/* Ends the drag (a press without motion changes nothing). */
void     qd_canvas_notes_drag_end    (QdNoteDrag *drag);

G_END_DECLS

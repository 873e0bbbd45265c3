/* qd-canvas.h: the diagram canvas of the QDevs editor
 *
 * A widget that shows one system of a document (the root or the inside
 * of a subsystem) and edits it with the mouse and the keyboard: select,
 * move, connect, bend links, rubber band, zoom and pan, drop blocks from
 * the palette, clipboard, rotate and flip, group into subsystems. Every
 * edit goes through the document's commands (see QdCanvasController), so
 * the window's Undo takes it back.
 *
 * Its actions live in the "canvas." group (canvas.copy, canvas.zoom-fit,
 * ...) with the usual accelerators while the canvas has the focus;
 * canvas.context-menu (the Menu key, Shift+F10) opens the context menu
 * from the keyboard.
 */
#pragma once

#include <gtk/gtk.h>

#include "qdevs.h"
#include "qd-canvas-controller.h"

G_BEGIN_DECLS

#define QD_CANVAS_ZOOM_MIN 0.1
#define QD_CANVAS_ZOOM_MAX 8.0

#define QD_TYPE_CANVAS (qd_canvas_get_type ())
G_DECLARE_FINAL_TYPE (QdCanvas, qd_canvas, QD, CANVAS, GtkWidget)

GtkWidget          *qd_canvas_new            (void);
/* Shows the root of @document, fitted to the view once there is room. */
void                qd_canvas_set_document   (QdCanvas   *self,
                                              QdDocument *document);
QdDocument         *qd_canvas_get_document   (QdCanvas   *self);
/* The system shown; NULL goes to the root. Notifies "system". */
void                qd_canvas_set_system     (QdCanvas   *self,
                                              QdSystem   *system);
QdSystem           *qd_canvas_get_system     (QdCanvas   *self);
QdCanvasController *qd_canvas_get_controller (QdCanvas   *self);

/* View: @zoom pixels per canvas unit, keeping the canvas point under the
 * widget point (@anchor_x, @anchor_y) in place. */
void                qd_canvas_set_zoom       (QdCanvas   *self,
                                              double      zoom,
                                              double      anchor_x,
                                              double      anchor_y);
double              qd_canvas_get_zoom       (QdCanvas   *self);
void                qd_canvas_zoom_fit       (QdCanvas   *self);
void                qd_canvas_zoom_reset     (QdCanvas   *self);
gboolean            qd_canvas_cancel_gesture (QdCanvas   *self);
/* Whether the drawing has settled: no sharper drawing is still to come
 * after a zoom or a pan (the tests wait for it). */
gboolean            qd_canvas_is_settled     (QdCanvas   *self);
void                qd_canvas_widget_to_canvas (QdCanvas *self,
                                                double    wx,
                                                double    wy,
                                                double   *cx,
                                                double   *cy);
void                qd_canvas_canvas_to_widget (QdCanvas *self,
                                                double    cx,
                                                double    cy,
                                                double   *wx,
                                                double   *wy);
/* Shows @block: opens the system that holds it, selects it and scrolls
 * it into view (a message that names a block, a search result). */
void                qd_canvas_reveal_block   (QdCanvas   *self,
                                              QdBlock    *block);
/* Adds a block of @type at the centre of the view (palette activation). */
QdBlock            *qd_canvas_insert_block   (QdCanvas   *self,
                                              const char *type);
/* Whether blocks show their parameters (a Gain's factor, a Weighted
 * Sum's signs, an Integrator's method); TRUE at first. */
void                qd_canvas_set_show_params (QdCanvas *self,
                                               gboolean  show);
/* Short texts drawn in a corner of blocks (block id -> text, kept with a
 * reference; NULL removes them all): the results of a run, such as an
 * integrator's step count. */
void                qd_canvas_set_block_badges (QdCanvas   *self,
                                                GHashTable *badges);
/* What blocks reported in the last run (block id -> "name = value"
 * lines, kept with a reference; NULL forgets it), shown in their
 * tooltips. */
void                qd_canvas_set_block_reported (QdCanvas   *self,
                                                  GHashTable *reported);
/* The badges shown now, or NULL (owned by the canvas); a displayable
 * block's (QD_BLOCK_DISPLAY) is the value drawn on it. */
GHashTable         *qd_canvas_get_block_badges (QdCanvas   *self);
/* Blocks to ring in the error colour (block id -> anything, kept with a
 * reference; NULL removes the rings): those the messages name. */
void                qd_canvas_set_highlight  (QdCanvas   *canvas,
                                              GHashTable *block_ids);
/* The blocks ringed now, or NULL (owned by the canvas). */
GHashTable         *qd_canvas_get_highlight  (QdCanvas   *canvas);
/* The tooltip for the widget point (@x, @y): a wrapped label naming the
 * block or port there, with the block's documentation (transfer
 * floating), or NULL where none should show (empty space, a gesture in
 * progress, the context menu open). */
GtkWidget          *qd_canvas_create_tooltip (QdCanvas   *self,
                                              double      x,
                                              double      y);
/* The model of the context menu, so that the window can add its own
 * items (which may name "win." actions): Open, Properties... */
GMenu              *qd_canvas_get_context_menu (QdCanvas *self);
/* Draws over the diagram after everything else (a debugger's marks):
 * @func is called at each frame with @cr in canvas units, the system
 * shown; NULL removes it. qd_canvas_queue_overlay() asks for a frame. */
typedef void (*QdCanvasOverlayFunc) (QdCanvas *canvas,
                                     cairo_t  *cr,
                                     QdSystem *system,
                                     gpointer  user_data);
void                qd_canvas_set_overlay    (QdCanvas            *self,
                                              QdCanvasOverlayFunc  func,
                                              gpointer             user_data);
void                qd_canvas_queue_overlay  (QdCanvas   *self);

G_END_DECLS

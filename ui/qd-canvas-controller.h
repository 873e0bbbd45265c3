/* qd-canvas-controller.h: every edit the canvas makes, without a widget
 *
 * The controller holds what a canvas edits (a document and the system
 * shown), the selection and the state of the gesture in progress, and
 * turns pointer sequences in canvas coordinates into document commands:
 * press on a block and drag to move the selection, press on a port and
 * release on another port (or on a link) to connect, press on empty space
 * and drag for a rubber band, drag a link's segment or corner to bend it.
 * Each gesture is one transaction, hence one undo step. The widget feeds
 * it events; tests call the same functions with plain numbers.
 *
 * Refusals (an output dropped on an output, an input that is already
 * driven) are reported through the "message" signal, which the window
 * shows in its message area.
 */
#pragma once

#include <glib-object.h>

#include "qd-canvas-geometry.h"

G_BEGIN_DECLS

typedef enum
{
  QD_CANVAS_MODIFIER_NONE    = 0,
  QD_CANVAS_MODIFIER_SHIFT   = 1 << 0,   /* extend the selection */
  QD_CANVAS_MODIFIER_CONTROL = 1 << 1,   /* toggle; on a link: branch it */
} QdCanvasModifiers;

typedef enum
{
  QD_CANVAS_MODE_IDLE,
  QD_CANVAS_MODE_PRESSED,     /* pressed, not dragged yet */
  QD_CANVAS_MODE_MOVE,
  QD_CANVAS_MODE_CONNECT,
  QD_CANVAS_MODE_RUBBER_BAND,
  QD_CANVAS_MODE_BEND,
} QdCanvasMode;

typedef enum
{
  QD_CANVAS_ALIGN_LEFT,
  QD_CANVAS_ALIGN_RIGHT,
  QD_CANVAS_ALIGN_TOP,
  QD_CANVAS_ALIGN_BOTTOM,
  QD_CANVAS_ALIGN_CENTER,     /* centres on one vertical line */
  QD_CANVAS_ALIGN_MIDDLE,     /* centres on one horizontal line */
} QdCanvasAlign;

/* The preview of a gesture, for drawing. */
typedef struct
{
  QdCanvasMode      mode;
  gboolean          has_rubber_band;
  QdRect            rubber_band;
  const GArray     *pending_route;   /* CONNECT: QdPoint, or NULL */
  gboolean          pending_bad;
  QdBlock          *mark_block;      /* CONNECT: the port under the pointer */
  QdCanvasPortKind  mark_kind;
  guint             mark_port;
  const QdLink     *mark_link;       /* CONNECT: the link under the pointer */
  gboolean          mark_bad;
} QdCanvasFeedback;

#define QD_TYPE_CANVAS_CONTROLLER (qd_canvas_controller_get_type ())
G_DECLARE_FINAL_TYPE (QdCanvasController, qd_canvas_controller, QD, CANVAS_CONTROLLER, GObject)

QdCanvasController *qd_canvas_controller_new           (void);

void        qd_canvas_controller_set_document   (QdCanvasController *self,
                                                 QdDocument         *document);
QdDocument *qd_canvas_controller_get_document   (QdCanvasController *self);
/* The system edited: the root or a subsystem's inner system. Clears the
 * selection. NULL shows the root. */
void        qd_canvas_controller_set_system     (QdCanvasController *self,
                                                 QdSystem           *system);
QdSystem   *qd_canvas_controller_get_system     (QdCanvasController *self);
/* The pick radius in canvas units (a few pixels over the zoom). */
void        qd_canvas_controller_set_tolerance  (QdCanvasController *self,
                                                 double              tolerance);

/* Pointer sequences, in canvas coordinates. */
void        qd_canvas_controller_press          (QdCanvasController *self,
                                                 double              x,
                                                 double              y,
                                                 QdCanvasModifiers   modifiers);
void        qd_canvas_controller_drag           (QdCanvasController *self,
                                                 double              x,
                                                 double              y);
void        qd_canvas_controller_release        (QdCanvasController *self,
                                                 double              x,
                                                 double              y);
/* Abandons the gesture in progress, undoing what it did so far. */
void        qd_canvas_controller_cancel         (QdCanvasController *self);
/* A double click: opens a subsystem under the point (TRUE if it did). */
gboolean    qd_canvas_controller_activate       (QdCanvasController *self,
                                                 double              x,
                                                 double              y);
QdCanvasMode qd_canvas_controller_get_mode      (QdCanvasController *self);
void        qd_canvas_controller_get_feedback   (QdCanvasController *self,
                                                 QdCanvasFeedback   *feedback);

/* Selection: block ids and link target keys (qd_canvas_link_key()). */
GHashTable *qd_canvas_controller_get_selection  (QdCanvasController *self);
gboolean    qd_canvas_controller_is_selected    (QdCanvasController *self,
                                                 const char         *key);
void        qd_canvas_controller_select         (QdCanvasController *self,
                                                 const char         *key,
                                                 gboolean            add);
void        qd_canvas_controller_select_all     (QdCanvasController *self);
void        qd_canvas_controller_clear_selection (QdCanvasController *self);
/* A secondary click (the context menu) at (@x, @y): selects the block,
 * port's block or link target under the point, unless it is selected
 * already (the menu then acts on the whole selection), and clears the
 * selection over empty space. Returns what was hit. */
QdCanvasHit qd_canvas_controller_context_press  (QdCanvasController *self,
                                                 double              x,
                                                 double              y);
/* The selected blocks, in priority order (transfer container). */
GPtrArray  *qd_canvas_controller_get_selected_blocks (QdCanvasController *self);

/* Edits of the selection; each is one undo step. */
void        qd_canvas_controller_delete_selection (QdCanvasController *self);
/* Moves the selected blocks; with @snap, each block lands on the next grid
 * line in the direction of the move (the arrow keys). */
void        qd_canvas_controller_nudge          (QdCanvasController *self,
                                                 double              dx,
                                                 double              dy,
                                                 gboolean            snap);
void        qd_canvas_controller_rotate_selection (QdCanvasController *self);
void        qd_canvas_controller_flip_selection (QdCanvasController *self);
void        qd_canvas_controller_align_selection (QdCanvasController *self,
                                                  QdCanvasAlign       align);
/* The selected blocks and the links among them as .qdevs JSON text, or
 * NULL when no block is selected. */
char       *qd_canvas_controller_copy           (QdCanvasController *self);
/* Adds the blocks of @text (from _copy(), possibly from another window)
 * with fresh ids and names unique in the system, 20 units below and to
 * the right of where they were copied (further on each repeat), and
 * selects them. */
gboolean    qd_canvas_controller_paste          (QdCanvasController *self,
                                                 const char         *text,
                                                 GError            **error);
void        qd_canvas_controller_duplicate      (QdCanvasController *self);
/* Create Subsystem from the selection, and its reverse on the selected
 * subsystems. Failures go to "message" and return FALSE. */
gboolean    qd_canvas_controller_group          (QdCanvasController *self);
gboolean    qd_canvas_controller_ungroup        (QdCanvasController *self);
/* Adds a block of @type centred on (@x, @y), snapped to the grid, and
 * selects it. */
QdBlock    *qd_canvas_controller_add_block      (QdCanvasController *self,
                                                 const char         *type,
                                                 double              x,
                                                 double              y);

/* What is under (@x, @y) in the system shown, at the pick tolerance,
 * using the cached routes. */
QdCanvasHit qd_canvas_controller_hit_test      (QdCanvasController *self,
                                                double              x,
                                                double              y);
/* What the edits since the last call changed in the drawing of the
 * diagram: appends to @damage the rectangles (QdRect, canvas units) to
 * draw again and returns TRUE, or returns FALSE when anything may have
 * changed (another system or document shown, blocks dragged). Brings the
 * routes up to date first. The selection is not counted. */
gboolean    qd_canvas_controller_take_damage    (QdCanvasController *self,
                                                 GArray             *damage);
/* The route of a link target from the controller's cache (new ref). */
GArray     *qd_canvas_controller_get_route      (QdCanvasController *self,
                                                 const QdLink       *link,
                                                 guint               target);

G_END_DECLS

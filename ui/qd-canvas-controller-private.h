/* qd-canvas-controller-private.h: what the files of the canvas
 * controller share
 *
 *   qd-canvas-controller.c          the controller: its document and
 *                                   system, routes and damage, selection,
 *                                   signals and set-up
 *   qd-canvas-controller-gesture.c  press, drag and release: move,
 *                                   connect, bend, rubber band, feedback
 *   qd-canvas-controller-edit.c     edits of the selection and the
 *                                   clipboard
 */
#pragma once

#include "qd-canvas-controller.h"
#include "qd-canvas-render.h"

G_BEGIN_DECLS

struct _QdCanvasController
{
  GObject            parent_instance;

  QdDocument        *document;
  gulong             changed_id;
  QdSystem          *system;
  GHashTable        *selection;      /* char* key -> NULL */
  GHashTable        *routes;         /* qd_canvas_route_system(), or NULL
                                        until needed again */
  GHashTable        *routes_by_link; /* QdLink* -> GPtrArray of its routes
                                        (not owned), or NULL */
  QdCanvasRouter    *router;         /* lays again only what edits change */
  GArray            *damage;         /* QdRect drawn differently since
                                        qd_canvas_controller_take_damage() */
  gboolean           damage_all;     /* ... or anything may be */
  GHashTable        *quick_keys;     /* link keys whose route in routes is
                                        a drag's quick one, not the router's */
  double             tolerance;

  /* The gesture in progress */
  QdCanvasMode       mode;
  QdCanvasModifiers  modifiers;
  double             press_x, press_y;
  QdCanvasHit        press_hit;
  gboolean           in_transaction;
  gboolean           select_on_release;   /* a click on a selected block */

  /* MOVE */
  GPtrArray         *move_blocks;    /* QdBlock* (ref) */
  GArray            *move_origins;   /* QdPoint, one per block */
  GPtrArray         *move_links;     /* QdLink* (ref) with both ends moving */
  GPtrArray         *move_points;    /* GArray* of the original points per
                                        (link, target), flattened */
  double             applied_dx, applied_dy;

  /* CONNECT */
  char              *conn_block;     /* the port the link starts at */
  QdCanvasPortKind   conn_kind;
  guint              conn_port;
  GArray            *pending_route;
  QdBlock           *mark_block;
  QdCanvasPortKind   mark_kind;
  guint              mark_port;
  const QdLink      *mark_link;
  gboolean           mark_bad;

  /* BEND */
  char              *bend_link;
  guint              bend_target;
  GArray            *bend_route;     /* the route as it was at the press */

  /* RUBBER_BAND */
  QdRect             rubber_band;
  GHashTable        *rubber_base;    /* the selection it extends */

  /* Repeated pastes of the same text step further away. */
  char              *last_paste;
  guint              paste_count;
};

enum
{
  MESSAGE,
  INVALIDATE,
  SELECTION_CHANGED,
  N_SIGNALS
};

extern guint qd_canvas_controller_signals[N_SIGNALS];

/* qd-canvas-controller.c */
void qd_canvas_controller_invalidate (QdCanvasController *self);
void qd_canvas_controller_invalidate_feedback (QdCanvasController *self);
void qd_canvas_controller_add_route_damage (QdCanvasController *self,
                                            const GArray       *route);
void qd_canvas_controller_invalidate_routes (QdCanvasController *self);
GHashTable *qd_canvas_controller_get_routes (QdCanvasController *self);
void qd_canvas_controller_selection_changed (QdCanvasController *self);
void qd_canvas_controller_report (QdCanvasController *self,
                                  const char         *format,
                                  ...) G_GNUC_PRINTF (2, 3);
void qd_canvas_controller_begin (QdCanvasController *self,
                                 const char         *label);
void qd_canvas_controller_end (QdCanvasController *self);
void qd_canvas_controller_reset_gesture (QdCanvasController *self);

G_END_DECLS

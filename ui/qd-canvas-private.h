/* qd-canvas-private.h: what the files of the diagram canvas share
 *
 *   qd-canvas.c        the widget: its view (zoom, pan, fit), document and
 *                      system, the controller's signals, properties and
 *                      set-up
 *   qd-canvas-cache.c  the cached image of the diagram and the snapshot
 *                      that shows it with the gesture's overlays
 *   qd-canvas-input.c  pointer, keys, drag and drop, clipboard, actions,
 *                      tooltips and the context menu
 */
#pragma once

#include "qd-canvas.h"
#include "qd-canvas-notes.h"
#include "qd-canvas-render.h"

G_BEGIN_DECLS

struct _QdCanvas
{
  GtkWidget           parent_instance;

  QdCanvasController *controller;
  double              zoom;
  double              origin_x, origin_y;   /* canvas point at the top-left */
  gboolean            fit_pending;
  /* The view is the one zoom-to-fit chose, untouched since: a resize
   * fits again, as a document viewer does. */
  gboolean            fitted;
  int                 fit_width, fit_height;

  /* The diagram (background, grid, blocks, links, selection) drawn once
   * into an image at the view's zoom and the screen's scale, a margin
   * wider than the view; each frame shows it moved (and, while zooming,
   * scaled) and draws only the gesture's overlays afresh. Edits and
   * selection changes clear it; the view's changes do not. */
  cairo_surface_t    *cache;
  gboolean            cache_valid;
  double              cache_zoom;
  double              cache_origin_x, cache_origin_y;  /* canvas point at its top-left */
  double              cache_width, cache_height;       /* in widget pixels */
  int                 cache_scale;
  QdCanvasStyle       cache_style;
  gboolean            cache_draft;     /* drawn without text, mid-zoom */
  guint               crisp_id;
  /* The part of the image drawn so far, in widget pixels from its
   * top-left corner: a new image is drawn where the view is at once and
   * around it in an idle callback, a strip at a time, so that no frame
   * pays for the whole margin. */
  int                 drawn_x0, drawn_y0, drawn_x1, drawn_y1;
  guint               fill_id;
  /* The diagram changed since the image was drawn: only the parts the
   * controller reports (and the selection's changes) are drawn again. */
  gboolean            cache_damaged;
  GHashTable         *drawn_selection;  /* the selection keys drawn in it */

  double              pointer_x, pointer_y; /* widget coordinates */
  double              pan_origin_x, pan_origin_y;
  double              drag_start_x, drag_start_y;
  QdNoteDrag          note_drag;            /* a note being dragged */
  double              drag_x, drag_y;       /* the pointer during a drag */
  double              scroll_dx, scroll_dy; /* autoscroll, pixels a frame */
  guint               autoscroll_id;
  double              pinch_zoom;

  GtkGesture         *drag;
  GtkWidget          *context_menu;
  double              context_x, context_y; /* canvas point of the last context click */
  int                 selected_note;        /* a text note of the top level, or -1 */
  guint               notes_drawn;          /* qd_canvas_notes_fingerprint() of the image */
  gboolean            hide_params;          /* qd_canvas_set_show_params() */

  /* The port under the pointer while idle: ringed, to say "drag from
   * here to connect". Ids, not pointers: the block may go. */
  char               *hover_block;
  QdCanvasPortKind    hover_kind;
  guint               hover_port;

  /* A palette block dragged over the canvas: where it would land. */
  gboolean            has_ghost;
  QdRect              ghost;

  /* Block id -> short text drawn on the block (run statistics). */
  GHashTable         *badges;
  /* Block id -> what it reported in the last run, for its tooltip. */
  GHashTable         *reported;
  GHashTable         *highlight;   /* block ids with problems */
  QdCanvasOverlayFunc overlay_func; /* qd_canvas_set_overlay() */
  gpointer            overlay_data;
  GHashTable         *link_widths; /* the shown system's vector links */
  gboolean            widths_stale;
};

enum
{
  MESSAGE,
  N_SIGNALS
};

extern guint qd_canvas_signals[N_SIGNALS];

/* qd-canvas.c */
void qd_canvas_zoom_step (QdCanvas *self,
                          double    zoom);

/* qd-canvas-cache.c */
void       qd_canvas_view_changed (QdCanvas *self,
                                   gboolean  by_user);
void       qd_canvas_invalidate_cache (QdCanvas *self);
gboolean   qd_canvas_cache_is_crisp (QdCanvas *self);
guint      qd_canvas_notes_fingerprint (QdCanvas *self);
GPtrArray *qd_canvas_get_notes (QdCanvas *self);
void       qd_canvas_select_note (QdCanvas *self,
                                  int       index);
void       qd_canvas_snapshot (GtkWidget   *widget,
                               GtkSnapshot *snapshot);
void       qd_canvas_size_allocate (GtkWidget *widget,
                                    int        width,
                                    int        height,
                                    int        baseline);

/* qd-canvas-input.c */
void qd_canvas_stop_autoscroll (QdCanvas *self);
void qd_canvas_input_class_init (GtkWidgetClass *widget_class);
void qd_canvas_input_init (QdCanvas *self);

G_END_DECLS

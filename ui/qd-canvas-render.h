/* qd-canvas-render.h: drawing a diagram with Cairo
 *
 * Draws one system (blocks with their glyph, name and ports, then the
 * links above them with their junctions) into any cairo context: the
 * canvas widget's snapshot, and image, SVG or PDF surfaces for export.
 * No GTK here. Line widths are given in output pixels so that lines stay
 * thin and crisp at every zoom; the diagram itself (blocks, ports, text)
 * scales with the zoom.
 */
#pragma once

#include <cairo.h>

#include "qd-canvas-geometry.h"
#include "qd-notes.h"

G_BEGIN_DECLS

typedef struct
{
  double red, green, blue, alpha;
} QdColor;

typedef struct
{
  QdColor background;
  QdColor grid;
  QdColor block_fill;
  QdColor block_border;
  QdColor text;
  QdColor dim_text;
  QdColor link;
  QdColor port;
  QdColor accent;      /* selection, the link being drawn */
  QdColor error;       /* a refused port */
  QdColor good;        /* a port that accepts the link being drawn */
} QdCanvasStyle;

/* The route of one link target; returns a new reference. Lets the canvas
 * draw from its cache of routes. */
typedef GArray *(*QdCanvasRouteFunc) (const QdSystem *system,
                                      const QdLink   *link,
                                      guint           target,
                                      gpointer        user_data);

typedef struct
{
  /* View: output pixels per canvas unit, and the canvas point drawn at
   * the output's origin. */
  double               zoom;
  double               origin_x;
  double               origin_y;
  gboolean             draw_grid;
  gboolean             draw_background;
  const QdCanvasStyle *style;          /* NULL: the light style */

  /* Selected things: block ids, and "LINKID:TARGET" for link targets
   * (qd_canvas_link_key()). May be NULL. */
  GHashTable          *selection;
  QdCanvasRouteFunc    route_func;     /* NULL: qd_canvas_route_target */
  gpointer             route_data;

  /* Overlays of a gesture in progress. */
  QdBlock             *mark_block;     /* a port ringed in good or error */
  QdCanvasPortKind     mark_kind;
  guint                mark_port;
  gboolean             mark_bad;
  gboolean             mark_hover;     /* ring the port in the accent colour */
  const QdLink        *mark_link;      /* a link drawn in good or error */
  gboolean             has_rubber_band;
  QdRect               rubber_band;
  const GArray        *pending_route;  /* QdPoint: the link being drawn */
  gboolean             pending_bad;
  gboolean             has_ghost;      /* where a dragged block would land */
  QdRect               ghost;

  /* Block id -> a short text drawn as a badge on the block's top-right
   * corner (run statistics). May be NULL. */
  GHashTable          *badges;

  /* QdLink* -> the width of the vector it carries, for the links wider
   * than one (qd_vector_link_widths()): drawn thicker, with the width
   * written at the source. May be NULL. */
  GHashTable          *link_widths;

  /* Block ids (values unused) of blocks to ring in the error colour:
   * those the last check found problems in. May be NULL. */
  GHashTable          *highlight;

  /* Layers, for drawing the diagram once into an image and the
   * overlays of a gesture over it each frame: with @skip_overlays only
   * the diagram is drawn (background, grid, blocks, links; the marked
   * link plain), with @skip_diagram only the overlays (the link being
   * drawn, marks, the ghost, the rubber band). Both FALSE: everything. */
  gboolean             skip_overlays;
  gboolean             skip_diagram;

  /* Leave out the text (glyphs and names): a quick drawing for the
   * frames of a zoom in progress, drawn again in full when it stops. */
  gboolean             draft;

  /* Draw what block types show of their parameters (a Gain's factor, a
   * Weighted Sum's signs, an Integrator's method). TRUE by default. */
  gboolean             show_params;

  /* The document's text notes (QdNote*, qd-notes.h), drawn above the
   * links, and the index of the selected one (-1 for none). May be NULL:
   * the canvas gives them for the top level only. */
  const GPtrArray     *notes;
  int                  selected_note;

  /* The model's settings, for what blocks left to them show ("QSS2
   * (model)"); may be NULL. */
  const QdSettings    *settings;
} QdCanvasRenderOptions;

void   qd_canvas_style_init_light  (QdCanvasStyle               *style);
void   qd_canvas_style_init_dark   (QdCanvasStyle               *style);
void   qd_canvas_render_options_init (QdCanvasRenderOptions     *options);

/* The selection key of one target of a link: "l3:0". */
char  *qd_canvas_link_key          (const QdLink                *link,
                                    guint                        target);

/* Draws @system into @cr, whose user space is in output pixels; @width
 * and @height are the output's size (for the background and grid). */
void   qd_canvas_render            (cairo_t                     *cr,
                                    const QdSystem              *system,
                                    const QdCanvasRenderOptions *options,
                                    double                       width,
                                    double                       height);

/* Where a note is drawn, in canvas units: its text's box with a margin. */
QdRect qd_canvas_note_rect         (const QdNote                *note);
/* The index of the topmost note of @notes at (@x, @y), or -1. */
int    qd_canvas_note_at           (const GPtrArray             *notes,
                                    double                       x,
                                    double                       y);

/* The colour that marks a block's category on its body. */
void   qd_canvas_category_color    (const char                  *category,
                                    QdColor                     *color);

G_END_DECLS

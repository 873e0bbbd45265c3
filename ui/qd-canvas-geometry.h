/* qd-canvas-geometry.h: where things are on a diagram
 *
 * Pure geometry in canvas units, shared by the canvas widget, its
 * controller and the renderer: port positions with rotation and flip, hit
 * testing of blocks, ports, links and bend points, and the orthogonal
 * routes that links follow. Nothing here draws or knows about GTK.
 *
 * A block's x, y, width and height are the rectangle it occupies on the
 * canvas, whatever its rotation. Before rotation and flip, inputs sit on
 * the left edge and outputs on the right, spread evenly; a flip mirrors
 * left and right, then the block turns clockwise by its rotation.
 */
#pragma once

#include <glib.h>

#include "qdevs.h"

G_BEGIN_DECLS

/* The grid that positions snap to, in canvas units. */
#define QD_CANVAS_GRID 10.0

/* How far a route leaves a port straight before it may turn. */
#define QD_CANVAS_STUB 10.0

typedef enum
{
  QD_CANVAS_PORT_INPUT,
  QD_CANVAS_PORT_OUTPUT,
} QdCanvasPortKind;

typedef struct
{
  double x, y, width, height;
} QdRect;

/* What lies under a point, most specific first. */
typedef enum
{
  QD_CANVAS_HIT_NONE,
  QD_CANVAS_HIT_BLOCK,
  QD_CANVAS_HIT_PORT,
  QD_CANVAS_HIT_LINK,     /* a segment of a link's route */
  QD_CANVAS_HIT_BEND,     /* an inner corner of a link's route */
} QdCanvasHitKind;

typedef struct
{
  QdCanvasHitKind   kind;
  QdBlock          *block;         /* BLOCK, PORT */
  QdCanvasPortKind  port_kind;     /* PORT */
  guint             port;          /* PORT: 0-based */
  QdLink           *link;          /* LINK, BEND */
  guint             target;        /* LINK, BEND: target index in the link */
  guint             index;         /* LINK: segment i joins route points i
                                    * and i+1; BEND: route point index */
} QdCanvasHit;

double   qd_canvas_snap               (double            value);

/* The point of port @index of @kind on @block and the unit vector pointing
 * away from the block there (the way a link leaves or arrives). FALSE when
 * the block has no such port. */
gboolean qd_canvas_port_position      (const QdBlock    *block,
                                       QdCanvasPortKind  kind,
                                       guint             index,
                                       QdPoint          *position,
                                       QdPoint          *direction);
/* The same with the port count already known. */
void     qd_canvas_port_position_n    (const QdBlock    *block,
                                       QdCanvasPortKind  kind,
                                       guint             index,
                                       guint             n_ports,
                                       QdPoint          *position,
                                       QdPoint          *direction);

/* The size a block of @type gets when it is added from the palette: the
 * same in every path that creates one (a drop, Create Subsystem's port
 * blocks). */
void     qd_canvas_default_block_size (const char       *type,
                                       double           *width,
                                       double           *height);
QdRect   qd_canvas_block_rect         (const QdBlock    *block);
/* The gap between a block and its name, in canvas units. */
#define QD_CANVAS_NAME_GAP 3.0

/* Where the name of @block is drawn, for a text of that size in canvas
 * units: on a side without ports, so that no link crosses it (centred
 * under the block, or beside it on the right, centred, when a quarter
 * turn has put the ports on the top and bottom). */
QdRect   qd_canvas_block_name_rect    (const QdBlock    *block,
                                       double            text_width,
                                       double            text_height);
/* What drawing the block covers, in canvas units: its rectangle with the
 * port marks, shadow and badge around it and its name (widths given in
 * pixels, such as lines, not included). */
QdRect   qd_canvas_block_drawn_rect   (const QdBlock    *block);
/* What drawing @route covers, in canvas units: its points with the
 * junction dots and the port marks at its ends. FALSE when it is empty. */
gboolean qd_canvas_route_drawn_rect   (const GArray     *route,
                                       QdRect           *rect);
/* The rectangle around every block and link point of @system, or FALSE
 * when it is empty. */
gboolean qd_canvas_system_bounds      (const QdSystem   *system,
                                       QdRect           *bounds);

/* The route of target @target of @link: a polyline of QdPoint from the
 * source port to the input port, every segment horizontal or vertical.
 * Explicit bend points are honoured (elbows are added where two are not
 * aligned); without them the route goes around the blocks of @system where
 * it can, and along no other link. It is the route
 * qd_canvas_route_system() gives (which is cheaper for many links).
 * Returns a new array, empty when an end is missing. */
GArray  *qd_canvas_route_target       (const QdSystem   *system,
                                       const QdLink     *link,
                                       guint             target);
/* The same route laid alone: around the blocks of @system, but without
 * regard to the other links, so it costs one route instead of the whole
 * system's. For previews while blocks are dragged. */
GArray  *qd_canvas_route_target_quick (const QdSystem   *system,
                                       const QdLink     *link,
                                       guint             target);
/* An automatic orthogonal route from @start (leaving along @start_dir) to
 * @end (arrived at along -@end_dir), avoiding the blocks of @system (which
 * may be NULL). */
GArray  *qd_canvas_route_auto         (const QdSystem   *system,
                                       QdPoint           start,
                                       QdPoint           start_dir,
                                       QdPoint           end,
                                       QdPoint           end_dir);
/* The routes of every link target of @system, laid in the system's order
 * so that each avoids running along the links laid before it (and
 * branches of one link share their trunk). Keys are qd_canvas_link_key()
 * strings ("l3:0"), values GArray of QdPoint. */
GHashTable *qd_canvas_route_system    (const QdSystem   *system);
/* The routes of a system kept up to date across edits. After an edit,
 * only the routes the edit can change are laid again: those of links
 * whose ends or bend points changed, and those whose neighbourhood held
 * a block or a route that changed. The result is always the table
 * qd_canvas_route_system() would give, at a fraction of its cost. */
typedef struct _QdCanvasRouter QdCanvasRouter;

QdCanvasRouter *qd_canvas_router_new    (void);
void            qd_canvas_router_free   (QdCanvasRouter *router);
/* The routes of @system (a new table, as qd_canvas_route_system()),
 * laying again only what changed since the last call; @n_laid, when not
 * NULL, says how many routes were laid. @damage, when not NULL, gets the
 * rectangles (QdRect, canvas units) whose drawing the changes touched:
 * the blocks that changed, before and after, with their names and port
 * marks, and the routes that changed, before and after. */
GHashTable     *qd_canvas_router_update (QdCanvasRouter *router,
                                         const QdSystem *system,
                                         guint          *n_laid,
                                         GArray         *damage);

/* The points where the routes of a link's targets part: one per branch
 * beyond the first. Returns a new array of QdPoint. */
GArray  *qd_canvas_link_junctions     (const QdSystem   *system,
                                       const QdLink     *link);
/* The same from the routes of the link's targets (GArray* each). */
GArray  *qd_canvas_junctions_of_routes (GPtrArray       *routes);

/* Removes repeated points and the middle of three collinear points. */
void     qd_canvas_route_simplify     (GArray           *route);
/* Moves segment @segment of @route (a full route, ends included) by the
 * part of (@dx, @dy) across it, keeping every segment orthogonal; the end
 * points never move (an elbow appears instead). Returns the index the
 * segment has afterwards. */
guint    qd_canvas_route_move_segment (GArray           *route,
                                       guint             segment,
                                       double            dx,
                                       double            dy);
/* Moves inner corner @corner of @route by (@dx, @dy). */
void     qd_canvas_route_move_corner  (GArray           *route,
                                       guint             corner,
                                       double            dx,
                                       double            dy);

double   qd_canvas_distance_to_segment (QdPoint          p,
                                        QdPoint          a,
                                        QdPoint          b);

/* What of @system is under (@x, @y); @tolerance is the pick radius in
 * canvas units (a few screen pixels divided by the zoom). Links lie above
 * blocks, and ports above both. @routes is a qd_canvas_route_system()
 * table, or NULL to compute one. */
QdCanvasHit qd_canvas_hit_test        (const QdSystem   *system,
                                       GHashTable       *routes,
                                       double            x,
                                       double            y,
                                       double            tolerance);
/* Only ports: the nearest port within @tolerance, else kind NONE. */
QdCanvasHit qd_canvas_hit_port        (const QdSystem   *system,
                                       double            x,
                                       double            y,
                                       double            tolerance);
/* Only links: segments and bend points within @tolerance. */
QdCanvasHit qd_canvas_hit_link        (const QdSystem   *system,
                                       GHashTable       *routes,
                                       double            x,
                                       double            y,
                                       double            tolerance);

gboolean qd_rect_intersects           (const QdRect     *a,
                                       const QdRect     *b);
gboolean qd_rect_contains             (const QdRect     *rect,
                                       double            x,
                                       double            y);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (QdCanvasRouter, qd_canvas_router_free)

G_END_DECLS

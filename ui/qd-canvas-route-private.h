/* qd-canvas-route-private.h: laying one automatic route
 *
 * The search behind qd_canvas_route_auto() and the routes of a system
 * (qd-canvas-geometry.c), in a file of its own. Canvas units.
 */
#pragma once

#include "qd-canvas-geometry.h"

G_BEGIN_DECLS

/* A segment of a route already laid, and the link it belongs to. */
typedef struct
{
  QdPoint       a, b;
  const QdLink *link;
} QdCanvasLaid;

/* The neighbourhood of a route between the stub ends @s1 and @e1: only
 * the blocks and the laid segments that reach into it shape the route,
 * which is what lets QdCanvasRouter know which routes an edit can
 * change. */
QdRect  qd_canvas_route_area   (QdPoint         s1,
                                QdPoint         e1);
/* The box around a laid segment within which it counts for a route. */
QdRect  qd_canvas_laid_box     (QdPoint         a,
                                QdPoint         b);
/* The route from @start (leaving along @start_dir) to @end (arrived at
 * along -@end_dir) around the blocks of @system near it (NULL: none),
 * their names and their ports' stubs, and along none of the segments of
 * @laid (QdCanvasLaid, may be NULL) but those of @link. */
GArray *qd_canvas_route_search (const QdSystem *system,
                                QdPoint         start,
                                QdPoint         start_dir,
                                QdPoint         end,
                                QdPoint         end_dir,
                                const GArray   *laid,
                                const QdLink   *link);

G_END_DECLS

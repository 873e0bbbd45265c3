/* qd-canvas-geometry.c: where things are on a diagram
 *
 * Port positions, hit testing and orthogonal link routing, in canvas
 * units. One automatic route is laid by qd-canvas-route.c; here are the
 * routes with bend points, the routes of a whole system, laid in order
 * so that each sees those before it, and QdCanvasRouter, which keeps
 * them across edits.
 *
 * Each route depends only on its ends, the blocks and the routes laid
 * before it near it: QdCanvasRouter uses that to lay again, after an
 * edit, only the routes the edit can have changed.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qd-canvas-geometry.h"
#include "qd-canvas-route-private.h"

#define EPS 1e-6

double
qd_canvas_snap (double value)
{
  return floor (value / QD_CANVAS_GRID + 0.5) * QD_CANVAS_GRID;
}

void
qd_canvas_default_block_size (const char *type,
                              double     *width,
                              double     *height)
{
  g_autoptr(QdBlock) probe = NULL;

  /* Port blocks are small, as Create Subsystem makes them: they only
   * carry a number, and a subsystem's inside is mostly its blocks. */
  if (g_strcmp0 (type, QD_TYPE_INPORT) == 0 || g_strcmp0 (type, QD_TYPE_OUTPORT) == 0)
    {
      *width = 40;
      *height = 20;
      return;
    }
  /* Otherwise the size a new block of the type gets in the document. */
  probe = qd_block_new ("", type != NULL ? type : "", "");
  *width = probe->width;
  *height = probe->height;
}

gboolean
qd_rect_intersects (const QdRect *a,
                    const QdRect *b)
{
  return a->x < b->x + b->width && b->x < a->x + a->width &&
         a->y < b->y + b->height && b->y < a->y + a->height;
}

gboolean
qd_rect_contains (const QdRect *rect,
                  double        x,
                  double        y)
{
  return x >= rect->x && x <= rect->x + rect->width &&
         y >= rect->y && y <= rect->y + rect->height;
}

QdRect
qd_canvas_block_rect (const QdBlock *block)
{
  QdRect rect = { block->x, block->y, block->width, block->height };

  return rect;
}

/* Whether a block's ports lie on its top and bottom sides (a quarter
 * turn) rather than on its left and right. */
static gboolean
ports_on_top_and_bottom (int rotation)
{
  int r = ((rotation % 360) + 360) % 360;

  return r == 90 || r == 270;
}

static QdRect
name_rect (QdRect rect,
           int    rotation,
           double text_width,
           double text_height)
{
  QdRect r;

  /* The name goes on a side without ports, so that no link leaves
   * through it: under the block, or, when a quarter turn has put the
   * ports on the top and bottom, beside it on the right, as Simulink
   * moves the name of a turned block. */
  if (ports_on_top_and_bottom (rotation))
    {
      r.x = rect.x + rect.width + QD_CANVAS_NAME_GAP + 1;
      r.y = rect.y + rect.height / 2 - text_height / 2;
    }
  else
    {
      r.x = rect.x + rect.width / 2 - text_width / 2;
      r.y = rect.y + rect.height + QD_CANVAS_NAME_GAP;
    }
  r.width = text_width;
  r.height = text_height;
  return r;
}

QdRect
qd_canvas_block_name_rect (const QdBlock *block,
                           double         text_width,
                           double         text_height)
{
  return name_rect (qd_canvas_block_rect (block), block->rotation, text_width, text_height);
}

static void
rect_add_point (QdRect   *rect,
                gboolean *empty,
                double    x,
                double    y)
{
  if (*empty)
    {
      rect->x = x;
      rect->y = y;
      rect->width = rect->height = 0;
      *empty = FALSE;
      return;
    }
  if (x < rect->x)
    {
      rect->width += rect->x - x;
      rect->x = x;
    }
  if (y < rect->y)
    {
      rect->height += rect->y - y;
      rect->y = y;
    }
  if (x > rect->x + rect->width)
    rect->width = x - rect->x;
  if (y > rect->y + rect->height)
    rect->height = y - rect->y;
}

gboolean
qd_canvas_system_bounds (const QdSystem *system,
                         QdRect         *bounds)
{
  gboolean empty = TRUE;
  QdRect rect = { 0, 0, 0, 0 };

  for (guint i = 0; i < system->blocks->len; i++)
    {
      const QdBlock *block = g_ptr_array_index (system->blocks, i);

      QdRect label = qd_canvas_block_name_rect (block, 6.0 * g_utf8_strlen (block->name != NULL
                                                                            ? block->name : "", -1),
                                                15);

      rect_add_point (&rect, &empty, block->x, block->y);
      rect_add_point (&rect, &empty, block->x + block->width, block->y + block->height);
      /* Room for the name. */
      rect_add_point (&rect, &empty, label.x, label.y);
      rect_add_point (&rect, &empty, label.x + label.width, label.y + label.height);
    }
  for (guint i = 0; i < system->links->len; i++)
    {
      const QdLink *link = g_ptr_array_index (system->links, i);

      for (guint t = 0; t < link->n_targets; t++)
        {
          const QdLinkTarget *target = link->targets[t];

          for (guint k = 0; target->points != NULL && k < target->points->len; k++)
            {
              QdPoint p = g_array_index (target->points, QdPoint, k);

              rect_add_point (&rect, &empty, p.x, p.y);
            }
        }
    }
  if (bounds != NULL)
    *bounds = rect;
  return !empty;
}

/* Ports */

void
qd_canvas_port_position_n (const QdBlock    *block,
                           QdCanvasPortKind  kind,
                           guint             index,
                           guint             n_ports,
                           QdPoint          *position,
                           QdPoint          *direction)
{
  gboolean quarter = block->rotation == 90 || block->rotation == 270;
  /* The block's own frame before turning: its sides swap on a quarter
   * turn, so that the turned frame fills the rectangle on the canvas. */
  double w = quarter ? block->height : block->width;
  double h = quarter ? block->width : block->height;
  double u, v, du, dv, ru, rv, rdu, rdv;

  if (n_ports == 0)
    n_ports = 1;
  /* Spread along the side on the grid where the side allows it, so that
   * straight links between aligned blocks stay straight. */
  v = -h / 2 + h * (index + 0.5) / n_ports;
  if (kind == QD_CANVAS_PORT_INPUT)
    {
      u = -w / 2;
      du = -1;
    }
  else
    {
      u = w / 2;
      du = 1;
    }
  dv = 0;

  if (block->flip)
    {
      u = -u;
      du = -du;
    }

  /* Clockwise on screen (y grows downwards): (u, v) -> (-v, u). */
  switch (((block->rotation % 360) + 360) % 360)
    {
    case 90:
      ru = -v; rv = u; rdu = -dv; rdv = du;
      break;
    case 180:
      ru = -u; rv = -v; rdu = -du; rdv = -dv;
      break;
    case 270:
      ru = v; rv = -u; rdu = dv; rdv = -du;
      break;
    default:
      ru = u; rv = v; rdu = du; rdv = dv;
      break;
    }

  if (position != NULL)
    {
      position->x = block->x + block->width / 2 + ru;
      position->y = block->y + block->height / 2 + rv;
    }
  if (direction != NULL)
    {
      direction->x = rdu;
      direction->y = rdv;
    }
}

gboolean
qd_canvas_port_position (const QdBlock    *block,
                         QdCanvasPortKind  kind,
                         guint             index,
                         QdPoint          *position,
                         QdPoint          *direction)
{
  guint n_in = 0, n_out = 0, n;

  if (!qd_block_count_ports (block, &n_in, &n_out, NULL))
    return FALSE;
  n = kind == QD_CANVAS_PORT_INPUT ? n_in : n_out;
  if (index >= n)
    return FALSE;
  qd_canvas_port_position_n (block, kind, index, n, position, direction);
  return TRUE;
}

/* Routes */

static gboolean
same_point (QdPoint a,
            QdPoint b)
{
  return fabs (a.x - b.x) < EPS && fabs (a.y - b.y) < EPS;
}

void
qd_canvas_route_simplify (GArray *route)
{
  guint i = 1;

  while (i < route->len)
    {
      if (same_point (g_array_index (route, QdPoint, i - 1),
                      g_array_index (route, QdPoint, i)))
        {
          /* Keep the ends themselves: drop the inner copy. */
          g_array_remove_index (route, i == route->len - 1 ? i - 1 : i);
          if (route->len < 2)
            break;
          continue;
        }
      i++;
    }

  i = 1;
  while (route->len > 2 && i + 1 < route->len)
    {
      QdPoint a = g_array_index (route, QdPoint, i - 1);
      QdPoint b = g_array_index (route, QdPoint, i);
      QdPoint c = g_array_index (route, QdPoint, i + 1);
      gboolean collinear = (fabs (a.x - b.x) < EPS && fabs (b.x - c.x) < EPS) ||
                           (fabs (a.y - b.y) < EPS && fabs (b.y - c.y) < EPS);

      if (collinear)
        g_array_remove_index (route, i);
      else
        i++;
    }
}

GArray *
qd_canvas_route_auto (const QdSystem *system,
                      QdPoint         start,
                      QdPoint         start_dir,
                      QdPoint         end,
                      QdPoint         end_dir)
{
  return qd_canvas_route_search (system, start, start_dir, end, end_dir, NULL, NULL);
}

/* Joins @from to @to with at most one elbow. Of the two possible elbows
 * it takes the one that does not turn straight back over the segment
 * before (going along @prev), and, for the last leg, the one that arrives
 * along @arrive (NULL for any). */
static void
append_orthogonal (GArray        *route,
                   QdPoint        from,
                   QdPoint        to,
                   QdPoint        prev,
                   const QdPoint *arrive)
{
  if (fabs (from.x - to.x) > EPS && fabs (from.y - to.y) > EPS)
    {
      QdPoint options[2] = { { to.x, from.y }, { from.x, to.y } };
      int best = 0, best_score = G_MAXINT;

      for (int i = 0; i < 2; i++)
        {
          QdPoint e = options[i];
          int score = 0;

          if ((e.x - from.x) * prev.x + (e.y - from.y) * prev.y < -EPS)
            score += 2;
          if (arrive != NULL &&
              fabs ((to.x - e.x) * arrive->y - (to.y - e.y) * arrive->x) > EPS)
            score += 1;
          if (score < best_score)
            {
              best = i;
              best_score = score;
            }
        }
      g_array_append_val (route, options[best]);
    }
  g_array_append_val (route, to);
}

static QdPoint
last_direction (const GArray *route,
                QdPoint       fallback)
{
  for (guint k = route->len - 1; k > 0; k--)
    {
      QdPoint a = g_array_index (route, QdPoint, k - 1);
      QdPoint b = g_array_index (route, QdPoint, k);
      double len = fabs (b.x - a.x) + fabs (b.y - a.y);

      if (len > EPS)
        return (QdPoint) { (b.x - a.x) / len, (b.y - a.y) / len };
    }
  return fallback;
}

/* The route of one target; @area, when not NULL, is set to the
 * neighbourhood the route depended on (width -1 when it depended on
 * nothing but its ends: explicit bend points, or a missing end). */
static GArray *
route_target (const QdSystem *system,
              const QdLink   *link,
              guint           target_index,
              const GArray   *laid,
              QdRect         *area)
{
  const QdLinkTarget *target;
  QdBlock *src, *dst;
  QdPoint start, start_dir, end, end_dir, arrive;
  GArray *route;

  g_return_val_if_fail (link != NULL, NULL);

  if (area != NULL)
    *area = (QdRect) { 0, 0, -1, -1 };
  if (target_index >= link->n_targets)
    return g_array_new (FALSE, FALSE, sizeof (QdPoint));
  target = link->targets[target_index];
  src = qd_system_find_block ((QdSystem *) system, link->src.block);
  dst = qd_system_find_block ((QdSystem *) system, target->dst.block);
  if (src == NULL || dst == NULL ||
      !qd_canvas_port_position (src, QD_CANVAS_PORT_OUTPUT, link->src.port,
                                &start, &start_dir) ||
      !qd_canvas_port_position (dst, QD_CANVAS_PORT_INPUT, target->dst.port,
                                &end, &end_dir))
    return g_array_new (FALSE, FALSE, sizeof (QdPoint));

  if (target->points == NULL || target->points->len == 0)
    {
      if (area != NULL)
        *area = qd_canvas_route_area ((QdPoint) { start.x + start_dir.x * QD_CANVAS_STUB,
                                        start.y + start_dir.y * QD_CANVAS_STUB },
                            (QdPoint) { end.x + end_dir.x * QD_CANVAS_STUB,
                                        end.y + end_dir.y * QD_CANVAS_STUB });
      return qd_canvas_route_search (system, start, start_dir, end, end_dir, laid, link);
    }

  route = g_array_new (FALSE, FALSE, sizeof (QdPoint));
  g_array_append_val (route, start);
  for (guint i = 0; i < target->points->len; i++)
    {
      QdPoint from = g_array_index (route, QdPoint, route->len - 1);
      QdPoint to = g_array_index (target->points, QdPoint, i);

      append_orthogonal (route, from, to, last_direction (route, start_dir), NULL);
    }
  /* Arrive along the port's own direction where the last point allows. */
  arrive = (QdPoint) { -end_dir.x, -end_dir.y };
  append_orthogonal (route, g_array_index (route, QdPoint, route->len - 1), end,
                     last_direction (route, start_dir), &arrive);
  qd_canvas_route_simplify (route);
  return route;
}

GHashTable *
qd_canvas_route_system (const QdSystem *system)
{
  GHashTable *routes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                              (GDestroyNotify) g_array_unref);
  GArray *laid = g_array_new (FALSE, FALSE, sizeof (QdCanvasLaid));

  g_return_val_if_fail (system != NULL, routes);

  /* In the system's order, each route seeing those laid before it. */
  for (guint i = 0; i < system->links->len; i++)
    {
      const QdLink *link = g_ptr_array_index (system->links, i);

      for (guint t = 0; t < link->n_targets; t++)
        {
          GArray *route = route_target (system, link, t, laid, NULL);

          for (guint k = 0; k + 1 < route->len; k++)
            {
              QdCanvasLaid l = { g_array_index (route, QdPoint, k),
                         g_array_index (route, QdPoint, k + 1), link };

              g_array_append_val (laid, l);
            }
          g_hash_table_insert (routes, g_strdup_printf ("%s:%u", link->id, t), route);
        }
    }
  g_array_unref (laid);
  return routes;
}

/* Routes kept across edits */

/* What of a block the routes depend on: where its ports are (its
 * rectangle, turn, flip and port counts), and its name, which is an
 * obstacle drawn under it. */
typedef struct
{
  QdRect    rect;
  int       rotation;
  gboolean  flip;
  gboolean  ports_ok;
  guint     n_in, n_out;
  char     *name;
  guint     params_hash;  /* drawn (a port block's number), not routed */
} BlockState;

/* One route as it was laid, with what it was laid from. */
typedef struct
{
  char         *key;        /* "l3:0" */
  const QdLink *link;       /* routes compare links by identity */
  char         *src_block;
  guint         src_port;
  char         *dst_block;
  guint         dst_port;
  GArray       *points;     /* the target's bend points (a copy), or NULL */
  GArray       *route;
  QdRect        area;       /* width < 0: depends only on its ends */
} RouteState;

struct _QdCanvasRouter
{
  GHashTable *blocks;       /* id -> BlockState* */
  GPtrArray  *routes;       /* RouteState*, in the order they were laid */
  GHashTable *by_key;       /* key -> RouteState* of routes */
};

static void
block_state_free (BlockState *state)
{
  g_free (state->name);
  g_free (state);
}

static void
route_state_free (RouteState *state)
{
  if (state == NULL)
    return;
  g_free (state->key);
  g_free (state->src_block);
  g_free (state->dst_block);
  g_clear_pointer (&state->points, g_array_unref);
  g_clear_pointer (&state->route, g_array_unref);
  g_free (state);
}

QdCanvasRouter *
qd_canvas_router_new (void)
{
  QdCanvasRouter *router = g_new0 (QdCanvasRouter, 1);

  router->blocks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                          (GDestroyNotify) block_state_free);
  router->routes = g_ptr_array_new_with_free_func ((GDestroyNotify) route_state_free);
  router->by_key = g_hash_table_new (g_str_hash, g_str_equal);
  return router;
}

void
qd_canvas_router_free (QdCanvasRouter *router)
{
  if (router == NULL)
    return;
  g_hash_table_unref (router->blocks);
  g_hash_table_unref (router->by_key);
  g_ptr_array_unref (router->routes);
  g_free (router);
}

static gboolean
block_state_equal (const BlockState *a,
                   const BlockState *b)
{
  return a->rect.x == b->rect.x && a->rect.y == b->rect.y &&
         a->rect.width == b->rect.width && a->rect.height == b->rect.height &&
         a->rotation == b->rotation && a->flip == b->flip &&
         a->ports_ok == b->ports_ok && a->n_in == b->n_in && a->n_out == b->n_out &&
         g_strcmp0 (a->name, b->name) == 0;
}

static gboolean
points_equal (const GArray *a,
              const GArray *b)
{
  guint na = a != NULL ? a->len : 0, nb = b != NULL ? b->len : 0;

  if (na != nb)
    return FALSE;
  return na == 0 || memcmp (a->data, b->data, na * sizeof (QdPoint)) == 0;
}

static guint
hash_params (const QdBlock *block)
{
  guint hash = 0;

  for (guint i = 0; block->params != NULL && i < block->params->len; i++)
    {
      const QdParam *param = &g_array_index (block->params, QdParam, i);

      hash = hash * 31 + g_str_hash (param->name);
      hash = hash * 31 + g_str_hash (param->value != NULL ? param->value : "");
    }
  /* A masked subsystem shows its icon text instead (qd-mask.h). */
  if (qd_block_get_mask (block) != NULL)
    {
      g_autofree char *icon = qd_mask_format_icon (qd_block_get_mask (block));

      hash = hash * 31 + g_str_hash (icon != NULL ? icon : "");
      hash = hash * 31 + 1;
    }
  return hash;
}

static QdRect
drawn_rect (QdRect      rect,
            int         rotation,
            const char *name)
{
  /* The port marks, shadow and badge around the block... */
  QdRect r = { rect.x - 12, rect.y - 14, rect.width + 24, rect.height + 14 + 30 };
  /* ...and the name, over-estimated (a wide letter is about 7 units). */
  QdRect label = name_rect (rect, rotation, 7.0 * g_utf8_strlen (name != NULL ? name : "", -1),
                            14);
  double x1 = MAX (r.x + r.width, label.x + label.width + 12);
  double y1 = MAX (r.y + r.height, label.y + label.height + 4);

  r.x = MIN (r.x, label.x - 12);
  r.y = MIN (r.y, label.y - 4);
  r.width = x1 - r.x;
  r.height = y1 - r.y;
  return r;
}

QdRect
qd_canvas_block_drawn_rect (const QdBlock *block)
{
  return drawn_rect (qd_canvas_block_rect (block), block->rotation, block->name);
}

static QdRect
block_drawn_rect (const BlockState *state)
{
  return drawn_rect (state->rect, state->rotation, state->name);
}

gboolean
qd_canvas_route_drawn_rect (const GArray *route,
                            QdRect       *rect)
{
  QdRect r;
  double x1, y1;

  if (route == NULL || route->len == 0)
    return FALSE;
  r.x = x1 = g_array_index (route, QdPoint, 0).x;
  r.y = y1 = g_array_index (route, QdPoint, 0).y;
  for (guint k = 1; k < route->len; k++)
    {
      QdPoint p = g_array_index (route, QdPoint, k);

      r.x = MIN (r.x, p.x);
      r.y = MIN (r.y, p.y);
      x1 = MAX (x1, p.x);
      y1 = MAX (y1, p.y);
    }
  r.x -= 10;
  r.y -= 10;
  r.width = x1 - r.x + 10;
  r.height = y1 - r.y + 10;
  *rect = r;
  return TRUE;
}

static void
add_route_damage (GArray       *damage,
                  const GArray *route)
{
  QdRect r;

  if (damage != NULL && qd_canvas_route_drawn_rect (route, &r))
    g_array_append_val (damage, r);
}

static gboolean
intersects_any (const QdRect *area,
                const GArray *rects)
{
  for (guint i = 0; i < rects->len; i++)
    if (qd_rect_intersects (area, &g_array_index (rects, QdRect, i)))
      return TRUE;
  return FALSE;
}

/* The boxes of @route's segments, as qd_canvas_route_search() tests
 * them. */
static void
add_segment_boxes (GArray       *boxes,
                   const GArray *route)
{
  for (guint k = 0; route != NULL && k + 1 < route->len; k++)
    {
      QdRect r = qd_canvas_laid_box (g_array_index (route, QdPoint, k),
                           g_array_index (route, QdPoint, k + 1));

      g_array_append_val (boxes, r);
    }
}

/* What one update of the router works with (qd_canvas_router_update()). */
typedef struct
{
  QdCanvasRouter *router;
  const QdSystem *system;
  GArray         *damage;            /* where to add what to draw again, or
                                        NULL */
  GHashTable     *blocks;            /* the blocks' new states, by id */
  GHashTable     *changed_blocks;    /* the ids of blocks added, removed or
                                        changed */
  GArray         *changed_rects;     /* their old and new rectangles */
  GArray         *changed_segments;  /* the boxes of segments gone or
                                        moved */
  GHashTable     *by_key;            /* a route's key: 1 + its old place */
  GPtrArray      *keys;              /* the routes' keys, in link order */
  gboolean        everything;        /* lay every route again */
} Update;

/* @state's drawn rectangle into @damage, if any. */
static void
damage_block (GArray           *damage,
              const BlockState *state)
{
  QdRect r;

  if (damage == NULL)
    return;
  r = block_drawn_rect (state);
  g_array_append_val (damage, r);
}

/* Blocks added, removed or changed: their old and new rectangles. An
 * unchanged block's state moves to the new table as it is. */
static void
diff_blocks (Update *u)
{
  QdCanvasRouter *router = u->router;
  GHashTableIter iter;
  gpointer key, value;

  for (guint i = 0; i < u->system->blocks->len; i++)
    {
      const QdBlock *block = g_ptr_array_index (u->system->blocks, i);
      BlockState now = { qd_canvas_block_rect (block), block->rotation, block->flip, FALSE,
                         0, 0, block->name, hash_params (block) };
      BlockState *state, *old;
      gpointer old_key;

      now.ports_ok = qd_block_count_ports (block, &now.n_in, &now.n_out, NULL);
      if (g_hash_table_lookup_extended (router->blocks, block->id, &old_key, (gpointer *) &old) &&
          block_state_equal (old, &now))
        {
          g_hash_table_steal (router->blocks, block->id);
          g_hash_table_insert (u->blocks, old_key, old);
          /* Routes do not depend on parameters, but a port block's
           * drawing does. */
          if (old->params_hash != now.params_hash)
            damage_block (u->damage, old);
          old->params_hash = now.params_hash;
          continue;
        }
      state = g_memdup2 (&now, sizeof now);
      state->name = g_strdup (block->name);
      g_hash_table_insert (u->blocks, g_strdup (block->id), state);
      old = g_hash_table_lookup (router->blocks, block->id);
      damage_block (u->damage, state);
      if (old != NULL)
        damage_block (u->damage, old);
      g_hash_table_add (u->changed_blocks, block->id);
      g_array_append_val (u->changed_rects, state->rect);
      if (old != NULL)
        g_array_append_val (u->changed_rects, old->rect);
    }
  g_hash_table_iter_init (&iter, router->blocks);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (!g_hash_table_contains (u->blocks, key))
      {
        g_hash_table_add (u->changed_blocks, key);
        g_array_append_val (u->changed_rects, ((BlockState *) value)->rect);
        damage_block (u->damage, value);
      }
}

/* The routes' keys in link order. Routes that are gone change what every
 * later route saw. The others must keep their order, or everything is
 * laid again (cheap to check, and no edit reorders links today). */
static void
diff_routes (Update *u)
{
  QdCanvasRouter *router = u->router;
  g_autoptr(GHashTable) present = g_hash_table_new (g_str_hash, g_str_equal);
  int last_index = -1;

  for (guint i = 0; i < router->routes->len; i++)
    g_hash_table_insert (u->by_key, ((RouteState *) g_ptr_array_index (router->routes, i))->key,
                         GUINT_TO_POINTER (i + 1));
  for (guint i = 0; i < u->system->links->len; i++)
    {
      const QdLink *link = g_ptr_array_index (u->system->links, i);

      for (guint t = 0; t < link->n_targets; t++)
        {
          char *k = g_strdup_printf ("%s:%u", link->id, t);
          guint index = GPOINTER_TO_UINT (g_hash_table_lookup (u->by_key, k));

          if (index != 0)
            {
              if ((int) index <= last_index)
                u->everything = TRUE;
              last_index = index;
            }
          g_ptr_array_add (u->keys, k);
          g_hash_table_add (present, k);
        }
    }
  for (guint i = 0; i < router->routes->len; i++)
    {
      RouteState *old = g_ptr_array_index (router->routes, i);

      if (!g_hash_table_contains (present, old->key))
        {
          add_segment_boxes (u->changed_segments, old->route);
          add_route_damage (u->damage, old->route);
        }
    }
}

/* The route of target @t of @link, whose key is @route_key: its old state
 * when nothing it depends on changed (taken from the router), or else a
 * new one laid among the segments @laid so far (and *@count one more). */
static RouteState *
update_route (Update       *u,
              const QdLink *link,
              guint         t,
              const char   *route_key,
              GArray       *laid,
              guint        *count)
{
  QdCanvasRouter *router = u->router;
  const QdLinkTarget *target = link->targets[t];
  guint index = GPOINTER_TO_UINT (g_hash_table_lookup (u->by_key, route_key));
  RouteState *old = index != 0 ? g_ptr_array_index (router->routes, index - 1) : NULL;
  const GArray *points = target->points != NULL && target->points->len > 0
                         ? target->points : NULL;
  RouteState *state;
  gboolean same_ends, dirty;

  same_ends = old != NULL && old->link == link &&
              strcmp (old->src_block, link->src.block) == 0 &&
              old->src_port == link->src.port &&
              strcmp (old->dst_block, target->dst.block) == 0 &&
              old->dst_port == target->dst.port &&
              points_equal (old->points, points);
  dirty = u->everything || !same_ends ||
          g_hash_table_contains (u->changed_blocks, link->src.block) ||
          g_hash_table_contains (u->changed_blocks, target->dst.block) ||
          (old->area.width >= 0 &&
           (intersects_any (&old->area, u->changed_rects) ||
            intersects_any (&old->area, u->changed_segments)));
  if (!dirty)
    {
      /* Kept as it is: the state moves to the new list. */
      g_ptr_array_index (router->routes, index - 1) = NULL;
      return old;
    }

  state = g_new0 (RouteState, 1);
  state->key = g_strdup (route_key);
  state->link = link;
  state->src_block = g_strdup (link->src.block);
  state->src_port = link->src.port;
  state->dst_block = g_strdup (target->dst.block);
  state->dst_port = target->dst.port;
  if (points != NULL)
    state->points = g_array_copy ((GArray *) points);
  state->route = route_target (u->system, link, t, laid, &state->area);
  (*count)++;
  if (old == NULL || !points_equal (old->route, state->route))
    {
      if (old != NULL)
        {
          add_segment_boxes (u->changed_segments, old->route);
          add_route_damage (u->damage, old->route);
        }
      add_segment_boxes (u->changed_segments, state->route);
      add_route_damage (u->damage, state->route);
    }
  else if (old->link != link)
    /* The same line for another link object: drawn the same, but to be
     * safe about what it joins, drawn again. */
    add_route_damage (u->damage, state->route);
  return state;
}

/* A route of target @t of @link depends on its ends, its bend points,
 * the blocks whose rectangles reach into its area and the segments laid
 * before it that reach into its area; nothing else (see
 * qd_canvas_route_search()).
 * So when none of these changed since it was laid, laying it again
 * would give the very same points, and it is kept. A route laid again
 * that comes out different is itself a change for the routes after it;
 * a removed route is one for all of them. */
GHashTable *
qd_canvas_router_update (QdCanvasRouter *router,
                         const QdSystem *system,
                         guint          *n_laid,
                         GArray         *damage)
{
  GHashTable *table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                             (GDestroyNotify) g_array_unref);
  g_autoptr(GHashTable) changed_blocks = NULL;
  g_autoptr(GHashTable) by_key = NULL;
  g_autoptr(GArray) changed_rects = NULL;
  g_autoptr(GArray) changed_segments = NULL;
  g_autoptr(GArray) laid = NULL;
  g_autoptr(GPtrArray) keys = NULL;
  g_autoptr(GPtrArray) routes = NULL;
  Update u = { .router = router, .system = system, .damage = damage };
  guint n_keys = 0, count = 0;

  g_return_val_if_fail (router != NULL, table);
  if (n_laid != NULL)
    *n_laid = 0;
  g_return_val_if_fail (system != NULL, table);

  u.blocks = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                    (GDestroyNotify) block_state_free);
  u.changed_blocks = changed_blocks = g_hash_table_new (g_str_hash, g_str_equal);
  u.changed_rects = changed_rects = g_array_new (FALSE, FALSE, sizeof (QdRect));
  u.changed_segments = changed_segments = g_array_new (FALSE, FALSE, sizeof (QdRect));
  u.by_key = by_key = g_hash_table_new (g_str_hash, g_str_equal);
  u.keys = keys = g_ptr_array_new_with_free_func (g_free);
  diff_blocks (&u);
  diff_routes (&u);

  routes = g_ptr_array_new_with_free_func ((GDestroyNotify) route_state_free);
  laid = g_array_new (FALSE, FALSE, sizeof (QdCanvasLaid));
  for (guint i = 0; i < system->links->len; i++)
    {
      const QdLink *link = g_ptr_array_index (system->links, i);

      for (guint t = 0; t < link->n_targets; t++)
        {
          RouteState *state = update_route (&u, link, t, g_ptr_array_index (keys, n_keys++),
                                            laid, &count);

          for (guint k = 0; k + 1 < state->route->len; k++)
            {
              QdCanvasLaid l = { g_array_index (state->route, QdPoint, k),
                                 g_array_index (state->route, QdPoint, k + 1), link };

              g_array_append_val (laid, l);
            }
          g_hash_table_insert (table, g_strdup (state->key), g_array_ref (state->route));
          g_ptr_array_add (routes, state);
        }
    }

  g_hash_table_remove_all (router->by_key);
  g_ptr_array_unref (router->routes);
  router->routes = g_steal_pointer (&routes);
  for (guint i = 0; i < router->routes->len; i++)
    {
      RouteState *state = g_ptr_array_index (router->routes, i);

      g_hash_table_insert (router->by_key, state->key, state);
    }
  g_hash_table_unref (router->blocks);
  router->blocks = u.blocks;
  if (n_laid != NULL)
    *n_laid = count;
  return table;
}

GArray *
qd_canvas_route_target (const QdSystem *system,
                        const QdLink   *link,
                        guint           target)
{
  g_autoptr(GHashTable) routes = NULL;
  g_autofree char *key = NULL;
  GArray *route;

  g_return_val_if_fail (link != NULL, NULL);

  if (system == NULL)
    return route_target (NULL, link, target, NULL, NULL);
  routes = qd_canvas_route_system (system);
  key = g_strdup_printf ("%s:%u", link->id, target);
  route = g_hash_table_lookup (routes, key);
  if (route == NULL)
    return route_target (system, link, target, NULL, NULL);
  return g_array_ref (route);
}

GArray *
qd_canvas_route_target_quick (const QdSystem *system,
                              const QdLink   *link,
                              guint           target)
{
  g_return_val_if_fail (link != NULL, NULL);

  return route_target (system, link, target, NULL, NULL);
}

/* How far along @a the two routes run together, and where they part. */
static double
common_prefix (const GArray *a,
               const GArray *b,
               QdPoint      *where)
{
  guint ia = 0, ib = 0;
  QdPoint p;
  double travelled = 0;

  if (a->len == 0 || b->len == 0)
    {
      *where = (QdPoint) { 0, 0 };
      return 0;
    }
  p = g_array_index (a, QdPoint, 0);
  while (ia + 1 < a->len && ib + 1 < b->len)
    {
      QdPoint na = g_array_index (a, QdPoint, ia + 1);
      QdPoint nb = g_array_index (b, QdPoint, ib + 1);
      double la = fabs (na.x - p.x) + fabs (na.y - p.y);
      double lb = fabs (nb.x - p.x) + fabs (nb.y - p.y);
      double dax, day, dbx, dby;

      if (la < EPS)
        {
          ia++;
          continue;
        }
      if (lb < EPS)
        {
          ib++;
          continue;
        }
      dax = (na.x - p.x) / la;
      day = (na.y - p.y) / la;
      dbx = (nb.x - p.x) / lb;
      dby = (nb.y - p.y) / lb;
      if (fabs (dax - dbx) > EPS || fabs (day - dby) > EPS)
        break;
      if (la <= lb + EPS)
        {
          p = na;
          travelled += la;
          ia++;
          if (fabs (la - lb) <= EPS)
            ib++;
        }
      else
        {
          p = nb;
          travelled += lb;
          ib++;
        }
    }
  *where = p;
  return travelled;
}

GArray *
qd_canvas_link_junctions (const QdSystem *system,
                          const QdLink   *link)
{
  g_autoptr(GHashTable) table = qd_canvas_route_system (system);
  g_autoptr(GPtrArray) routes = g_ptr_array_new ();

  for (guint t = 0; t < link->n_targets; t++)
    {
      g_autofree char *key = g_strdup_printf ("%s:%u", link->id, t);
      GArray *route = g_hash_table_lookup (table, key);

      if (route != NULL)
        g_ptr_array_add (routes, route);
    }
  return qd_canvas_junctions_of_routes (routes);
}

GArray *
qd_canvas_junctions_of_routes (GPtrArray *routes)
{
  GArray *junctions = g_array_new (FALSE, FALSE, sizeof (QdPoint));

  if (routes->len < 2)
    return junctions;

  for (guint t = 1; t < routes->len; t++)
    {
      GArray *mine = g_ptr_array_index (routes, t);
      double longest = -1;
      QdPoint best = { 0, 0 };

      if (mine->len < 2)
        continue;
      /* A branch leaves the tree where it stops running along any branch
       * drawn before it. */
      for (guint o = 0; o < t; o++)
        {
          QdPoint where;
          double along = common_prefix (mine, g_ptr_array_index (routes, o), &where);

          if (along > longest)
            {
              longest = along;
              best = where;
            }
        }
      if (longest <= EPS ||
          same_point (best, g_array_index (mine, QdPoint, mine->len - 1)))
        continue;
      for (guint k = 0; k < junctions->len; k++)
        if (same_point (g_array_index (junctions, QdPoint, k), best))
          goto next;
      g_array_append_val (junctions, best);
    next:
      ;
    }
  return junctions;
}

guint
qd_canvas_route_move_segment (GArray *route,
                              guint   segment,
                              double  dx,
                              double  dy)
{
  QdPoint *a, *b;
  gboolean horizontal;

  g_return_val_if_fail (route->len >= 2, segment);
  g_return_val_if_fail (segment + 1 < route->len, segment);

  /* The ends are ports: they stay, and a copy of the end moves instead,
   * which becomes an elbow. */
  if (segment == 0)
    {
      QdPoint copy = g_array_index (route, QdPoint, 0);

      g_array_insert_val (route, 1, copy);
      segment = 1;
    }
  if (segment + 2 == route->len)
    {
      QdPoint copy = g_array_index (route, QdPoint, route->len - 1);

      g_array_insert_val (route, route->len - 1, copy);
    }

  a = &g_array_index (route, QdPoint, segment);
  b = &g_array_index (route, QdPoint, segment + 1);
  horizontal = fabs (a->y - b->y) < EPS;
  if (horizontal)
    {
      a->y += dy;
      b->y += dy;
    }
  else
    {
      a->x += dx;
      b->x += dx;
    }
  return segment;
}

void
qd_canvas_route_move_corner (GArray *route,
                             guint   corner,
                             double  dx,
                             double  dy)
{
  guint seg;

  g_return_if_fail (corner > 0 && corner + 1 < route->len);

  /* A corner is where two segments meet: each moves across itself. */
  seg = qd_canvas_route_move_segment (route, corner - 1, dx, dy);
  qd_canvas_route_move_segment (route, seg + 1, dx, dy);
}

double
qd_canvas_distance_to_segment (QdPoint p,
                               QdPoint a,
                               QdPoint b)
{
  double vx = b.x - a.x, vy = b.y - a.y;
  double len2 = vx * vx + vy * vy;
  double t = 0;

  if (len2 > 0)
    t = CLAMP (((p.x - a.x) * vx + (p.y - a.y) * vy) / len2, 0.0, 1.0);
  return hypot (p.x - (a.x + t * vx), p.y - (a.y + t * vy));
}

/* Hit testing */

QdCanvasHit
qd_canvas_hit_port (const QdSystem *system,
                    double          x,
                    double          y,
                    double          tolerance)
{
  QdCanvasHit hit = { QD_CANVAS_HIT_NONE, };
  double best = tolerance;

  /* Later blocks are drawn on top: search from the top down and keep the
   * nearest port. */
  for (guint i = system->blocks->len; i-- > 0;)
    {
      QdBlock *block = g_ptr_array_index (system->blocks, i);
      guint n[2] = { 0, 0 };
      QdRect r = qd_canvas_block_rect (block);

      if (x < r.x - tolerance - 1 || x > r.x + r.width + tolerance + 1 ||
          y < r.y - tolerance - 1 || y > r.y + r.height + tolerance + 1)
        continue;
      if (!qd_block_count_ports (block, &n[0], &n[1], NULL))
        continue;
      for (guint k = 0; k < 2; k++)
        for (guint p = 0; p < n[k]; p++)
          {
            QdPoint pos;
            double d;

            qd_canvas_port_position_n (block, (QdCanvasPortKind) k, p, n[k],
                                       &pos, NULL);
            d = hypot (pos.x - x, pos.y - y);
            if (d <= best)
              {
                best = d;
                hit.kind = QD_CANVAS_HIT_PORT;
                hit.block = block;
                hit.port_kind = (QdCanvasPortKind) k;
                hit.port = p;
              }
          }
    }
  return hit;
}

QdCanvasHit
qd_canvas_hit_link (const QdSystem *system,
                    GHashTable     *routes,
                    double          x,
                    double          y,
                    double          tolerance)
{
  g_autoptr(GHashTable) own = NULL;
  QdCanvasHit hit = { QD_CANVAS_HIT_NONE, };
  QdPoint p = { x, y };
  double best_bend = tolerance, best_segment = tolerance;
  QdCanvasHit bend = { QD_CANVAS_HIT_NONE, };

  if (routes == NULL)
    routes = own = qd_canvas_route_system (system);
  for (guint i = system->links->len; i-- > 0;)
    {
      QdLink *link = g_ptr_array_index (system->links, i);

      for (guint t = 0; t < link->n_targets; t++)
        {
          g_autofree char *key = g_strdup_printf ("%s:%u", link->id, t);
          GArray *route = g_hash_table_lookup (routes, key);

          if (route == NULL)
            continue;
          for (guint k = 0; k + 1 < route->len; k++)
            {
              QdPoint a = g_array_index (route, QdPoint, k);
              QdPoint b = g_array_index (route, QdPoint, k + 1);
              double d = qd_canvas_distance_to_segment (p, a, b);

              if (d <= best_segment)
                {
                  best_segment = d;
                  hit = (QdCanvasHit) { QD_CANVAS_HIT_LINK, NULL, 0, 0, link, t, k };
                }
              if (k > 0)
                {
                  d = hypot (a.x - x, a.y - y);
                  if (d <= best_bend)
                    {
                      best_bend = d;
                      bend = (QdCanvasHit) { QD_CANVAS_HIT_BEND, NULL, 0, 0, link, t, k };
                    }
                }
            }
        }
    }
  return bend.kind != QD_CANVAS_HIT_NONE ? bend : hit;
}

QdCanvasHit
qd_canvas_hit_test (const QdSystem *system,
                    GHashTable     *routes,
                    double          x,
                    double          y,
                    double          tolerance)
{
  QdCanvasHit hit = { QD_CANVAS_HIT_NONE, };

  if (system == NULL)
    return hit;

  hit = qd_canvas_hit_port (system, x, y, tolerance);
  if (hit.kind != QD_CANVAS_HIT_NONE)
    return hit;
  hit = qd_canvas_hit_link (system, routes, x, y, tolerance);
  if (hit.kind != QD_CANVAS_HIT_NONE)
    return hit;
  for (guint i = system->blocks->len; i-- > 0;)
    {
      QdBlock *block = g_ptr_array_index (system->blocks, i);
      QdRect r = qd_canvas_block_rect (block);

      if (qd_rect_contains (&r, x, y))
        {
          hit.kind = QD_CANVAS_HIT_BLOCK;
          hit.block = block;
          return hit;
        }
    }
  return hit;
}

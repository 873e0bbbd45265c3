/* qd-canvas-route.c: laying one automatic route
 *
 * A route leaves its output port straight for a stub, arrives at its
 * input the same way, and in between runs along candidate lines: the
 * middle between the ports, the ports' own lines (and one stub further
 * out, to turn beyond the stubs of the ports beside), and every line of
 * the canvas grid across the route's neighbourhood. Costs: length, 25
 * per bend, a heavy price for passing through a block, a name or another
 * port's stub, and for running along another link.
 *
 * First the routes through one line each (two bends) are tried, the
 * middle first: most routes are one of these, and they read best. When
 * none gets through cleanly, the route is the cheapest path over the
 * crossings of the lines, found by Dijkstra's algorithm over (crossing,
 * heading) states, with as many bends as it needs; a millionth per
 * crossing makes that path unique.
 *
 * The lines do not depend on the blocks. So a block added away from a
 * route gives it no new way to go and costs it nothing: the route stays
 * exactly as it was (the routes of an older version took lines from the
 * edges of the nearby blocks, and jumped to the edges of a new one).
 */
#include <math.h>
#include <string.h>

#include "qd-canvas-route-private.h"

#define EPS 1e-6

static gboolean
same_point (QdPoint a,
            QdPoint b)
{
  return fabs (a.x - b.x) < EPS && fabs (a.y - b.y) < EPS;
}

/* Something a route should not cross: a block, the name written under
 * it, or the stub in front of one of its ports (a link running across a
 * stub looks joined to it). */
typedef struct
{
  QdRect rect;
  double penalty;
} Obstacle;

#define PENALTY_BLOCK 10000.0
/* Names and stubs are as bad as blocks to cross in practice: a route
 * through either is misread. A little cheaper, so that when nothing
 * else is possible a route crosses a name rather than a block. */
#define PENALTY_LABEL 5000.0
#define PENALTY_STUB  5000.0
#define EDGE_MARGIN   4.0

/* The obstacles near a route, block by block: @boxes holds, for each
 * block, the rectangle around all its obstacles and where they are in
 * @items, so that a segment is tested against the parts of a block only
 * when it comes near the block. */
typedef struct
{
  QdRect bounds;
  guint  first, n;
} ObstacleBox;

typedef struct
{
  GArray *items;   /* Obstacle */
  GArray *boxes;   /* ObstacleBox */
} Obstacles;

/* Whether the axis-aligned segment (x0..x1, y0..y1) passes through @r
 * (touching an edge does not count). */
static inline gboolean
passes_through (double        x0,
                double        x1,
                double        y0,
                double        y1,
                const QdRect *r)
{
  return x1 > r->x + 0.5 && x0 < r->x + r->width - 0.5 &&
         y1 > r->y + 0.5 && y0 < r->y + r->height - 0.5;
}

/* The penalty of the obstacles the segment a-b passes through. */
static double
segment_crossings (QdPoint          a,
                   QdPoint          b,
                   const Obstacles *obstacles)
{
  double x0 = MIN (a.x, b.x), x1 = MAX (a.x, b.x);
  double y0 = MIN (a.y, b.y), y1 = MAX (a.y, b.y);
  double penalty = 0;

  for (guint g = 0; g < obstacles->boxes->len; g++)
    {
      const ObstacleBox *box = &g_array_index (obstacles->boxes, ObstacleBox, g);

      if (!passes_through (x0, x1, y0, y1, &box->bounds))
        continue;
      for (guint i = box->first; i < box->first + box->n; i++)
        {
          const Obstacle *o = &g_array_index (obstacles->items, Obstacle, i);

          if (passes_through (x0, x1, y0, y1, &o->rect))
            penalty += o->penalty;
        }
    }
  return penalty;
}

/* Running along another link's line makes two links look like one: costly.
 * Running along a branch of the same link shares the trunk: a saving.
 * Crossing another link is allowed but avoided when it is cheap to.
 * @per_length: the costs of running along in proportion to how far, so
 * that a long run split into the steps of the grid search costs what it
 * costs in one piece (else a price per run, plus its length). */
static double
segment_overlaps (QdPoint       a,
                  QdPoint       b,
                  const GArray *laid,
                  const QdLink *link,
                  gboolean      per_length)
{
  gboolean horizontal = fabs (a.y - b.y) < EPS;
  double cost = 0;

  for (guint i = 0; laid != NULL && i < laid->len; i++)
    {
      const QdCanvasLaid *l = &g_array_index (laid, QdCanvasLaid, i);
      gboolean lh;

      /* Farther than 8 apart: neither along nor across (most of them). */
      if (MAX (l->a.x, l->b.x) < MIN (a.x, b.x) - 8.0 || MIN (l->a.x, l->b.x) > MAX (a.x, b.x) + 8.0 ||
          MAX (l->a.y, l->b.y) < MIN (a.y, b.y) - 8.0 || MIN (l->a.y, l->b.y) > MAX (a.y, b.y) + 8.0)
        continue;
      lh = fabs (l->a.y - l->b.y) < EPS;
      if (horizontal == lh)
        {
          double apart = horizontal ? fabs (a.y - l->a.y) : fabs (a.x - l->a.x);
          double overlap = horizontal
            ? MIN (MAX (a.x, b.x), MAX (l->a.x, l->b.x)) - MAX (MIN (a.x, b.x), MIN (l->a.x, l->b.x))
            : MIN (MAX (a.y, b.y), MAX (l->a.y, l->b.y)) - MAX (MIN (a.y, b.y), MIN (l->a.y, l->b.y));

          if (apart > 8.0 || overlap <= EPS)
            continue;
          if (apart > 1.5)
            {
              /* Two links side by side, closer than the grid: they read
               * as one thick line or a misdrawn one. */
              if (l->link != link)
                cost += per_length ? 2.0 * overlap : 100.0 + overlap;
            }
          else if (l->link == link)
            cost -= 0.5 * overlap;
          else
            cost += per_length ? 6.0 * overlap : 300.0 + 2.0 * overlap;
        }
      else if (l->link != link)
        {
          /* Perpendicular: do they cross? */
          QdPoint h0 = horizontal ? a : l->a, h1 = horizontal ? b : l->b;
          QdPoint v0 = horizontal ? l->a : a, v1 = horizontal ? l->b : b;

          if (v0.x > MIN (h0.x, h1.x) + EPS && v0.x < MAX (h0.x, h1.x) - EPS &&
              h0.y > MIN (v0.y, v1.y) + EPS && h0.y < MAX (v0.y, v1.y) - EPS)
            cost += 8.0;
        }
    }
  return cost;
}

QdRect
qd_canvas_route_area (QdPoint s1,
                      QdPoint e1)
{
  QdRect area;

  area.x = MIN (s1.x, e1.x) - 80;
  area.y = MIN (s1.y, e1.y) - 80;
  area.width = fabs (s1.x - e1.x) + 160;
  area.height = fabs (s1.y - e1.y) + 160;
  return area;
}

QdRect
qd_canvas_laid_box (QdPoint a,
                    QdPoint b)
{
  QdRect r = { MIN (a.x, b.x) - 10, MIN (a.y, b.y) - 10,
               fabs (a.x - b.x) + 20, fabs (a.y - b.y) + 20 };

  return r;
}

static void
rect_union (QdRect       *into,
            const QdRect *r)
{
  double x1 = MAX (into->x + into->width, r->x + r->width);
  double y1 = MAX (into->y + into->height, r->y + r->height);

  into->x = MIN (into->x, r->x);
  into->y = MIN (into->y, r->y);
  into->width = x1 - into->x;
  into->height = y1 - into->y;
}

/* The obstacles of the blocks of @system that reach into @area: each
 * block, its name and the stubs of its ports, but for the route's own
 * ports at @start and @end; one ObstacleBox per block. */
static void
collect_obstacles (const QdSystem *system,
                   const QdRect   *area,
                   QdPoint         start,
                   QdPoint         end,
                   Obstacles      *obstacles)
{
  GArray *items = obstacles->items;

  for (guint i = 0; system != NULL && i < system->blocks->len; i++)
    {
      const QdBlock *block = g_ptr_array_index (system->blocks, i);
      QdRect rect = qd_canvas_block_rect (block);
      double w;
      QdRect label;
      Obstacle o;
      ObstacleBox box;
      guint n[2] = { 0, 0 };

      if (!qd_rect_intersects (&rect, area))
        continue;
      /* About the size of the name in the canvas's 10-unit Sans, a
       * little more rather than less. */
      w = 6.2 * g_utf8_strlen (block->name != NULL ? block->name : "", -1) + 4.0;
      label = qd_canvas_block_name_rect (block, w, 12);
      /* A little around the block too: a route along its edge looks
       * like part of its frame. */
      o = (Obstacle) { { rect.x - EDGE_MARGIN, rect.y - EDGE_MARGIN,
                         rect.width + 2 * EDGE_MARGIN, rect.height + 2 * EDGE_MARGIN },
                       PENALTY_BLOCK };
      box = (ObstacleBox) { o.rect, items->len, 0 };
      label.y -= 1;
      label.height += 1;
      g_array_append_val (items, o);
      o.rect = label;
      o.penalty = PENALTY_LABEL;
      g_array_append_val (items, o);

      /* Each stub, a little longer than drawn so that a route along its
       * tip counts too, and two units wide. */
      qd_block_count_ports (block, &n[0], &n[1], NULL);
      for (int kind = 0; kind < 2; kind++)
        for (guint p = 0; p < n[kind]; p++)
          {
            QdPoint at, dir, tip;
            double len = QD_CANVAS_STUB + 2.0;

            qd_canvas_port_position_n (block, kind == 0 ? QD_CANVAS_PORT_INPUT
                                                        : QD_CANVAS_PORT_OUTPUT,
                                       p, n[kind], &at, &dir);
            if (same_point (at, start) || same_point (at, end))
              continue;
            tip = (QdPoint) { at.x + dir.x * len, at.y + dir.y * len };
            o.rect = (QdRect) { MIN (at.x, tip.x) - 1.0, MIN (at.y, tip.y) - 1.0,
                                fabs (tip.x - at.x) + 2.0, fabs (tip.y - at.y) + 2.0 };
            o.penalty = PENALTY_STUB;
            g_array_append_val (items, o);
          }
      box.n = items->len - box.first;
      for (guint k = box.first; k < items->len; k++)
        rect_union (&box.bounds, &g_array_index (items, Obstacle, k).rect);
      g_array_append_val (obstacles->boxes, box);
    }
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The part of a route's cost that needs no look around: its length,
 * its bends, and turning straight back over a stub. */
static double
route_base_cost (const QdPoint *pts,
                 guint          n,
                 QdPoint        start_dir,
                 QdPoint        end_dir)
{
  double cost = 0;
  guint bends = 0;

  for (guint i = 0; i + 1 < n; i++)
    cost += fabs (pts[i + 1].x - pts[i].x) + fabs (pts[i + 1].y - pts[i].y);
  /* Turns, counted on the route without its repeated points. */
  {
    QdPoint q[12];
    guint m = 0;

    for (guint i = 0; i < n && m < G_N_ELEMENTS (q); i++)
      if (m == 0 || !same_point (q[m - 1], pts[i]))
        q[m++] = pts[i];
    for (guint i = 1; i + 1 < m; i++)
      {
        QdPoint a = q[i - 1], b = q[i], c = q[i + 1];

        if (!((fabs (a.x - b.x) < EPS && fabs (b.x - c.x) < EPS) ||
              (fabs (a.y - b.y) < EPS && fabs (b.y - c.y) < EPS)))
          bends++;
      }
  }
  cost += 25.0 * bends;

  /* Turning straight back over a stub hides the link under itself. The
   * moves straight on along a stub (which may be longer than one) are
   * skipped; the first other move must not go back, nor the last one
   * before the end stub. */
  for (guint i = 1; i + 2 < n; i++)
    {
      double dx = pts[i + 1].x - pts[i].x, dy = pts[i + 1].y - pts[i].y;
      double along = dx * start_dir.x + dy * start_dir.y;

      if (fabs (dx) + fabs (dy) < EPS || (along > EPS && fabs (fabs (dx) + fabs (dy) - along) < EPS))
        continue;
      if (along < -EPS)
        cost += 500.0;
      break;
    }
  for (guint k = n - 2; k >= 2; k--)
    {
      double dx = pts[k].x - pts[k - 1].x, dy = pts[k].y - pts[k - 1].y;
      /* Arriving at the end stub, the link moves along -end_dir. */
      double along = -(dx * end_dir.x + dy * end_dir.y);

      if (fabs (dx) + fabs (dy) < EPS || (along > EPS && fabs (fabs (dx) + fabs (dy) - along) < EPS))
        continue;
      if (along < -EPS)
        cost += 500.0;
      break;
    }
  return cost;
}

/* The cost of the route @pts whose base cost (route_base_cost()) is
 * @cost, or something at least @bound once it is known to cost more
 * than @bound (the best so far). Sharing a trunk (@shares: branches of
 * the link are laid nearby) can save at most half the length: only
 * beyond that is a route surely worse than the bound. */
static double
route_cost (const QdPoint   *pts,
            guint            n,
            double           cost,
            const Obstacles *obstacles,
            const GArray    *laid,
            const QdLink    *link,
            gboolean         shares,
            double           bound)
{
  double credit = shares ? 0.5 * cost : 0.0;

  if (cost - credit >= bound)
    return cost;

  /* pts[0] and pts[n-1] are the ports, pts[1] and pts[n-2] the stubs. */
  for (guint i = 0; i + 1 < n && cost - credit < bound; i++)
    {
      QdPoint a = pts[i], b = pts[i + 1];

      if (fabs (b.x - a.x) + fabs (b.y - a.y) < EPS)
        continue;
      if (i > 0 && i + 2 < n)
        cost += segment_crossings (a, b, obstacles);
      cost += segment_overlaps (a, b, laid, link, FALSE);
    }
  return cost;
}

/* The search: candidate lines, and the cheapest path where they cross */

typedef struct
{
  QdPoint          start, start_dir, end, end_dir, s1, e1;
  const Obstacles *obstacles;
  const GArray    *near;
  const QdLink    *link;
  gboolean         shares;     /* branches of the link are laid nearby */
  GArray          *lines[2];   /* double: the candidate lines, x then y */
  GArray          *best;       /* QdPoint: the best route so far */
  double           best_cost;  /* its cost, while routes of one line are tried */
} Search;

/* The lines of the canvas grid from @lo to @hi, into @lines, nearest
 * @middle first (of two as near, the higher). Beyond sixty, every
 * other line: a long route needs no finer choice. */
static void
add_grid_lines (GArray *lines,
                double  lo,
                double  hi,
                double  middle)
{
  double step = QD_CANVAS_GRID;
  double first, last, m;
  guint n;

  while ((hi - lo) / step > 60.0)
    step *= 2.0;
  first = ceil (lo / step) * step;
  last = floor (hi / step) * step;
  if (last < first)
    return;
  n = (guint) ((last - first) / step + 0.5) + 1;
  m = CLAMP (round ((middle - first) / step), 0.0, n - 1.0);
  /* Outwards from the line nearest the middle, alternately below and
   * above it. */
  for (guint k = 0; k < 2 * n; k++)
    {
      double offset = (k % 2 == 0 ? -1.0 : 1.0) * ((k + 1) / 2);
      double i = m + offset;

      if (i >= 0.0 && i <= n - 1.0)
        {
          double v = first + i * step;

          g_array_append_val (lines, v);
        }
    }
}

/* Adds the lines of @values not there yet (blocks on a grid share their
 * edges: each line once) and empties @values; returns how many were
 * new. */
static guint
search_add_lines (Search *S,
                  GArray *values,
                  int     axis)
{
  GArray *lines = S->lines[axis];
  guint before = lines->len;

  for (guint i = 0; i < values->len; i++)
    {
      double v = g_array_index (values, double, i);
      gboolean seen = FALSE;

      for (guint k = 0; k < lines->len && !seen; k++)
        seen = fabs (g_array_index (lines, double, k) - v) <= 0.5;
      if (!seen)
        g_array_append_val (lines, v);
    }
  g_array_set_size (values, 0);
  return lines->len - before;
}

/* Headings: +x, -x, +y, -y. */
static const int step_x[4] = { 1, -1, 0, 0 };
static const int step_y[4] = { 0, 0, 1, -1 };

static int
heading_of (QdPoint d)
{
  if (d.x > 0.5)
    return 0;
  if (d.x < -0.5)
    return 1;
  return d.y > 0.5 ? 2 : 3;
}

typedef struct
{
  double cost;
  guint  state;
} HeapItem;

static void
heap_push (GArray *heap,
           double  cost,
           guint   state)
{
  HeapItem item = { cost, state };
  guint i = heap->len;

  g_array_append_val (heap, item);
  while (i > 0)
    {
      guint parent = (i - 1) / 2;
      HeapItem *p = &g_array_index (heap, HeapItem, parent);

      if (p->cost < item.cost || (p->cost == item.cost && p->state <= item.state))
        break;
      g_array_index (heap, HeapItem, i) = *p;
      i = parent;
    }
  g_array_index (heap, HeapItem, i) = item;
}

static HeapItem
heap_pop (GArray *heap)
{
  HeapItem top = g_array_index (heap, HeapItem, 0);
  HeapItem last = g_array_index (heap, HeapItem, heap->len - 1);
  guint n = heap->len - 1, i = 0;

  g_array_set_size (heap, n);
  while (n > 0)
    {
      guint c = 2 * i + 1;
      HeapItem *child;

      if (c >= n)
        break;
      if (c + 1 < n)
        {
          HeapItem *l = &g_array_index (heap, HeapItem, c);
          HeapItem *r = &g_array_index (heap, HeapItem, c + 1);

          if (r->cost < l->cost || (r->cost == l->cost && r->state < l->state))
            c++;
        }
      child = &g_array_index (heap, HeapItem, c);
      if (last.cost < child->cost || (last.cost == child->cost && last.state <= child->state))
        break;
      g_array_index (heap, HeapItem, i) = *child;
      i = c;
    }
  if (n > 0)
    g_array_index (heap, HeapItem, i) = last;
  return top;
}

static guint
line_index (const GArray *lines,
            double        v)
{
  guint best = 0;

  for (guint i = 1; i < lines->len; i++)
    if (fabs (g_array_index (lines, double, i) - v)
        < fabs (g_array_index (lines, double, best) - v))
      best = i;
  return best;
}

/* What running from @a to @b costs: its length, what it passes through
 * and the links it runs along. Sharing the trunk of its own link saves,
 * but never makes a step free. */
static double
step_cost (const Search *S,
           QdPoint       a,
           QdPoint       b)
{
  double len = fabs (b.x - a.x) + fabs (b.y - a.y);
  double cost = len + segment_crossings (a, b, S->obstacles)
                + segment_overlaps (a, b, S->near, S->link, TRUE);

  return MAX (cost, 0.25 * len);
}

/* Tries the routes through one line each, from index @from_x, @from_y
 * on: a vertical line x = v gives start, stub, (v, stub y), (v, end
 * stub y), end stub, end, and a horizontal one the same turned; each
 * also with either stub twice as long, to turn beyond the stubs of the
 * ports beside. Most routes are one of these, and they read best. */
static void
search_lines (Search *S,
              guint   from_x,
              guint   from_y)
{
  for (guint ext = 0; ext < 4; ext++)
    for (int axis = 0; axis < 2; axis++)
      for (guint i = axis == 0 ? from_x : from_y; i < S->lines[axis]->len; i++)
        {
          double v = g_array_index (S->lines[axis], double, i);
          QdPoint a = S->s1, b = S->e1, pts[8];
          guint n = 0;
          double cost;

          pts[n++] = S->start;
          pts[n++] = S->s1;
          if (ext & 1)
            pts[n++] = a = (QdPoint) { a.x + S->start_dir.x * QD_CANVAS_STUB,
                                       a.y + S->start_dir.y * QD_CANVAS_STUB };
          if (ext & 2)
            b = (QdPoint) { b.x + S->end_dir.x * QD_CANVAS_STUB, b.y + S->end_dir.y * QD_CANVAS_STUB };
          pts[n++] = axis == 0 ? (QdPoint) { v, a.y } : (QdPoint) { a.x, v };
          pts[n++] = axis == 0 ? (QdPoint) { v, b.y } : (QdPoint) { b.x, v };
          if (ext & 2)
            pts[n++] = b;
          pts[n++] = S->e1;
          pts[n++] = S->end;
          cost = route_cost (pts, n, route_base_cost (pts, n, S->start_dir, S->end_dir),
                             S->obstacles, S->near, S->link, S->shares, S->best_cost);
          if (cost < S->best_cost - EPS)
            {
              S->best_cost = cost;
              g_array_set_size (S->best, 0);
              g_array_append_vals (S->best, pts, n);
            }
        }
}

/* The cheapest path over the grid of the lines from the start stub's
 * end, heading away from the start port, to the end stub's end, heading
 * into the end port, turning only at crossings (25 each, plus a
 * millionth per crossing's index so that no two paths cost exactly the
 * same: which one wins must not depend on the order of the search). */
static void
search_grid (Search *S)
{
  g_autoptr(GArray) xs = g_array_copy (S->lines[0]);
  g_autoptr(GArray) ys = g_array_copy (S->lines[1]);
  g_autoptr(GArray) heap = g_array_new (FALSE, FALSE, sizeof (HeapItem));
  guint nx, ny, n_states, from, goal, state;
  g_autofree double *dist = NULL;
  g_autofree gint *prev = NULL;
  g_autofree double *edge = NULL;

  g_array_sort (xs, (GCompareFunc) compare_doubles);
  g_array_sort (ys, (GCompareFunc) compare_doubles);
  nx = xs->len;
  ny = ys->len;
  n_states = nx * ny * 4;
  dist = g_new (double, n_states);
  prev = g_new (gint, n_states);
  /* The cost of the step from each crossing along each heading, worked
   * out when first needed. */
  edge = g_new (double, n_states);
  for (guint k = 0; k < n_states; k++)
    {
      dist[k] = INFINITY;
      prev[k] = -1;
      edge[k] = NAN;
    }
#define STATE(i, j, h) ((((j) * nx) + (i)) * 4 + (h))
  from = STATE (line_index (xs, S->s1.x), line_index (ys, S->s1.y), heading_of (S->start_dir));
  goal = STATE (line_index (xs, S->e1.x), line_index (ys, S->e1.y),
                heading_of ((QdPoint) { -S->end_dir.x, -S->end_dir.y }));
  dist[from] = 0.0;
  heap_push (heap, 0.0, from);
  while (heap->len > 0)
    {
      HeapItem top = heap_pop (heap);
      guint h, i, j;
      int ni, nj;

      state = top.state;
      if (top.cost > dist[state])
        continue;
      if (state == goal)
        break;
      h = state % 4;
      i = (state / 4) % nx;
      j = (state / 4) / nx;
      /* Straight on to the next crossing. */
      ni = (int) i + step_x[h];
      nj = (int) j + step_y[h];
      if (ni >= 0 && nj >= 0 && ni < (int) nx && nj < (int) ny)
        {
          guint next = STATE ((guint) ni, (guint) nj, h);
          double c;

          if (isnan (edge[state]))
            edge[state] = step_cost (S,
                                     (QdPoint) { g_array_index (xs, double, i), g_array_index (ys, double, j) },
                                     (QdPoint) { g_array_index (xs, double, ni), g_array_index (ys, double, nj) });
          c = top.cost + edge[state];
          if (c < dist[next])
            {
              dist[next] = c;
              prev[next] = (gint) state;
              heap_push (heap, c, next);
            }
        }
      /* Or turn a quarter, either way. */
      for (guint t = 0; t < 2; t++)
        {
          guint turned = (h < 2 ? 2 : 0) + t;
          guint next = STATE (i, j, turned);
          double c = top.cost + 25.0 + 1e-6 * (j * nx + i);

          if (c < dist[next])
            {
              dist[next] = c;
              prev[next] = (gint) state;
              heap_push (heap, c, next);
            }
        }
    }

  g_array_set_size (S->best, 0);
  g_array_append_val (S->best, S->start);
  if (isinf (dist[goal]))
    {
      /* Not reached (the lines always join the ends; a safeguard): the
       * plain route through the middle. */
      QdPoint mid[2] = { { (S->s1.x + S->e1.x) / 2, S->s1.y }, { (S->s1.x + S->e1.x) / 2, S->e1.y } };

      g_array_append_val (S->best, S->s1);
      g_array_append_vals (S->best, mid, 2);
      g_array_append_val (S->best, S->e1);
    }
  else
    {
      guint first = S->best->len;

      for (gint k = (gint) goal; k >= 0; k = prev[k])
        {
          guint cell = (guint) k / 4;
          QdPoint p = { g_array_index (xs, double, cell % nx), g_array_index (ys, double, cell / nx) };

          g_array_insert_val (S->best, first, p);
        }
      /* The stubs' ends exactly, whatever the lines' rounding. */
      g_array_index (S->best, QdPoint, first) = S->s1;
      g_array_index (S->best, QdPoint, S->best->len - 1) = S->e1;
    }
  g_array_append_val (S->best, S->end);
#undef STATE
}

/* Whether the best route passes through a block, a name or a stub. */
static gboolean
best_crosses (const Search *S)
{
  const QdPoint *p = (const QdPoint *) (void *) S->best->data;

  for (guint i = 1; i + 2 < S->best->len; i++)
    if (segment_crossings (p[i], p[i + 1], S->obstacles) > 0.0)
      return TRUE;
  return FALSE;
}

/* See the top of the file. */
GArray *
qd_canvas_route_search (const QdSystem *system,
                        QdPoint         start,
                        QdPoint         start_dir,
                        QdPoint         end,
                        QdPoint         end_dir,
                        const GArray   *laid,
                        const QdLink   *link)
{
  GArray *route;
  g_autoptr(GArray) items = g_array_new (FALSE, FALSE, sizeof (Obstacle));
  g_autoptr(GArray) boxes = g_array_new (FALSE, FALSE, sizeof (ObstacleBox));
  Obstacles obstacles = { items, boxes };
  g_autoptr(GArray) xs = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) ys = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) near = NULL;
  Search S = { start, start_dir, end, end_dir,
               { start.x + start_dir.x * QD_CANVAS_STUB, start.y + start_dir.y * QD_CANVAS_STUB },
               { end.x + end_dir.x * QD_CANVAS_STUB, end.y + end_dir.y * QD_CANVAS_STUB },
               &obstacles, NULL, link, FALSE, { NULL, NULL }, NULL, G_MAXDOUBLE };
  QdRect area = qd_canvas_route_area (S.s1, S.e1);

  /* Only blocks near the two ends shape the route: this keeps routing
   * cheap on large diagrams. */
  collect_obstacles (system, &area, start, end, &obstacles);

  /* Likewise only the links laid nearby. */
  if (laid != NULL)
    {
      near = g_array_new (FALSE, FALSE, sizeof (QdCanvasLaid));
      for (guint i = 0; i < laid->len; i++)
        {
          const QdCanvasLaid *l = &g_array_index (laid, QdCanvasLaid, i);
          QdRect r = qd_canvas_laid_box (l->a, l->b);

          if (qd_rect_intersects (&r, &area))
            {
              g_array_append_val (near, *l);
              S.shares |= l->link == link;
            }
        }
    }
  S.near = near;
  S.lines[0] = g_array_new (FALSE, FALSE, sizeof (double));
  S.lines[1] = g_array_new (FALSE, FALSE, sizeof (double));
  S.best = g_array_new (FALSE, FALSE, sizeof (QdPoint));

  /* The candidate lines: the middle, the stubs' lines and one stub
   * further out (to turn beyond the stubs of the ports beside), then
   * every line of the canvas grid across the route's neighbourhood,
   * nearest the middle first. They do not depend on the blocks: a block
   * added away from a route gives it no new way to go and leaves its
   * cost as it was, so the route stays as it is. */
  {
    double first_x[5] = { (S.s1.x + S.e1.x) / 2, S.s1.x, S.e1.x,
                          S.s1.x + start_dir.x * QD_CANVAS_STUB, S.e1.x + end_dir.x * QD_CANVAS_STUB };
    double first_y[5] = { (S.s1.y + S.e1.y) / 2, S.s1.y, S.e1.y,
                          S.s1.y + start_dir.y * QD_CANVAS_STUB, S.e1.y + end_dir.y * QD_CANVAS_STUB };

    g_array_append_vals (xs, first_x, 5);
    g_array_append_vals (ys, first_y, 5);
    add_grid_lines (xs, area.x, area.x + area.width, first_x[0]);
    add_grid_lines (ys, area.y, area.y + area.height, first_y[0]);
    search_add_lines (&S, xs, 0);
    search_add_lines (&S, ys, 1);
  }
  /* A route through one line, if one gets through cleanly: most routes
   * are one of these, and they read best. Else the cheapest path over
   * the lines' crossings. */
  search_lines (&S, 0, 0);
  if (best_crosses (&S))
    search_grid (&S);

  route = S.best;
  qd_canvas_route_simplify (route);
  g_array_unref (S.lines[0]);
  g_array_unref (S.lines[1]);
  return route;
}

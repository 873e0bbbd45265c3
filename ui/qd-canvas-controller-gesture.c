/* qd-canvas-controller-gesture.c: the controller's pointer gestures
 *
 * Press, drag and release as the canvas reports them, in canvas
 * coordinates: moving blocks (their links rerouted live), drawing a link
 * from a port (with the check that says why a connection is refused),
 * bending a link, the rubber band, and the feedback the canvas draws over
 * the diagram while a gesture goes on. Each gesture is one undo step: it
 * opens a document transaction at its first edit and closes it on
 * release.
 */
#include <glib/gi18n-lib.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qd-canvas-controller-private.h"

/* Gestures */

static QdCanvasHit
hit_test (QdCanvasController *self,
          double              x,
          double              y)
{
  return qd_canvas_controller_hit_test (self, x, y);
}

static void
start_move (QdCanvasController *self)
{
  g_autoptr(GPtrArray) blocks = qd_canvas_controller_get_selected_blocks (self);
  g_autoptr(GHashTable) moving = g_hash_table_new (g_str_hash, g_str_equal);

  self->mode = QD_CANVAS_MODE_MOVE;
  /* The pressed block first: its snapped position sets the move. */
  if (self->press_hit.block != NULL)
    {
      g_ptr_array_remove (blocks, self->press_hit.block);
      g_ptr_array_insert (blocks, 0, self->press_hit.block);
    }
  for (guint i = 0; i < blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (blocks, i);
      QdPoint origin = { block->x, block->y };

      g_ptr_array_add (self->move_blocks, qd_block_ref (block));
      g_array_append_val (self->move_origins, origin);
      g_hash_table_add (moving, block->id);
    }

  /* A link whose both ends move keeps its shape: its bend points move
   * along. Bends of other links stay where they are. */
  for (guint i = 0; i < self->system->links->len; i++)
    {
      QdLink *link = g_ptr_array_index (self->system->links, i);

      if (!g_hash_table_contains (moving, link->src.block))
        continue;
      for (guint t = 0; t < link->n_targets; t++)
        {
          QdLinkTarget *target = link->targets[t];
          GArray *points;

          if (target->points == NULL || target->points->len == 0 ||
              !g_hash_table_contains (moving, target->dst.block))
            continue;
          points = g_array_copy (target->points);
          g_ptr_array_add (self->move_links, qd_link_ref (link));
          g_array_set_size (points, points->len + 1);
          /* The target index rides in the spare last element. */
          g_array_index (points, QdPoint, points->len - 1).x = t;
          g_ptr_array_add (self->move_points, points);
        }
    }
}

/* Routes again the links that touch a moving block. Laying out every
 * link of the system on each step of a drag is what made dragging in a
 * large diagram stutter; the other links keep their routes until the
 * release lays out the whole system. */
static void
reroute_moving (QdCanvasController *self)
{
  g_autoptr(GHashTable) moving = NULL;

  if (self->routes == NULL)
    return;
  moving = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < self->move_blocks->len; i++)
    g_hash_table_add (moving, ((QdBlock *) g_ptr_array_index (self->move_blocks, i))->id);

  for (guint i = 0; i < self->system->links->len; i++)
    {
      QdLink *link = g_ptr_array_index (self->system->links, i);
      gboolean source_moves = g_hash_table_contains (moving, link->src.block);

      for (guint t = 0; t < link->n_targets; t++)
        {
          QdLinkTarget *target = link->targets[t];

          GArray *route;
          char *key;

          if (!source_moves && !g_hash_table_contains (moving, target->dst.block))
            continue;
          /* Not the router's: what they cover is reported here, and
           * again when they are dropped. */
          key = qd_canvas_link_key (link, t);
          route = qd_canvas_route_target_quick (self->system, link, t);
          qd_canvas_controller_add_route_damage (self, g_hash_table_lookup (self->routes, key));
          qd_canvas_controller_add_route_damage (self, route);
          g_hash_table_add (self->quick_keys, g_strdup (key));
          g_hash_table_replace (self->routes, key, route);
          g_clear_pointer (&self->routes_by_link, g_hash_table_unref);
        }
    }
}

static void
update_move (QdCanvasController *self,
             double              x,
             double              y)
{
  QdPoint first;
  double dx, dy;

  if (self->move_blocks->len == 0)
    return;
  first = g_array_index (self->move_origins, QdPoint, 0);
  dx = qd_canvas_snap (first.x + x - self->press_x) - first.x;
  dy = qd_canvas_snap (first.y + y - self->press_y) - first.y;
  if (dx == self->applied_dx && dy == self->applied_dy)
    return;

  qd_canvas_controller_begin (self, _("Move"));
  for (guint i = 0; i < self->move_blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (self->move_blocks, i);
      QdPoint origin = g_array_index (self->move_origins, QdPoint, i);
      QdRect r = qd_canvas_block_drawn_rect (block);

      /* Where the block was and where it goes are drawn again. */
      g_array_append_val (self->damage, r);
      qd_document_move_block (self->document, block, origin.x + dx, origin.y + dy);
      r = qd_canvas_block_drawn_rect (block);
      g_array_append_val (self->damage, r);
    }
  for (guint i = 0; i < self->move_links->len; i++)
    {
      QdLink *link = g_ptr_array_index (self->move_links, i);
      GArray *points = g_ptr_array_index (self->move_points, i);
      guint n = points->len - 1;
      guint t = (guint) g_array_index (points, QdPoint, n).x;
      g_autofree QdPoint *moved = g_new (QdPoint, MAX (n, 1));

      for (guint k = 0; k < n; k++)
        {
          moved[k].x = g_array_index (points, QdPoint, k).x + dx;
          moved[k].y = g_array_index (points, QdPoint, k).y + dy;
        }
      qd_document_set_link_points (self->document, link, t, moved, n);
    }
  self->applied_dx = dx;
  self->applied_dy = dy;
  reroute_moving (self);
  qd_canvas_controller_invalidate (self);
}

static QdPoint
port_point (QdBlock          *block,
            QdCanvasPortKind  kind,
            guint             port,
            QdPoint          *dir)
{
  QdPoint pos = { block->x, block->y };

  qd_canvas_port_position (block, kind, port, &pos, dir);
  return pos;
}

static QdLink *
find_link (QdSystem   *system,
           const char *id)
{
  for (guint i = 0; i < system->links->len; i++)
    {
      QdLink *link = g_ptr_array_index (system->links, i);

      if (g_strcmp0 (link->id, id) == 0)
        return link;
    }
  return NULL;
}

/* What a release at the current target would do: fills the two ends of
 * the link to make and returns TRUE, or returns FALSE with the reason in
 * @message (NULL when there is simply nothing to connect to). A drag that
 * starts at an input that is already driven rewires it: @rewire is set
 * when the input's present link must be cut first. */
static gboolean
check_connection (QdCanvasController *self,
                  QdCanvasHit        *target,
                  char              **src_block,
                  guint              *src_port,
                  char              **dst_block,
                  guint              *dst_port,
                  gboolean           *rewire,
                  char              **message)
{
  QdBlock *start = qd_system_find_block (self->system, self->conn_block);
  QdLink *own = NULL;
  g_autofree char *start_path = NULL;
  g_autofree char *other_path = NULL;

  *message = NULL;
  *rewire = FALSE;
  if (start == NULL || target->kind == QD_CANVAS_HIT_NONE)
    return FALSE;
  start_path = qd_block_get_path (start);
  if (target->block != NULL)
    other_path = qd_block_get_path (target->block);

  if (self->conn_kind == QD_CANVAS_PORT_OUTPUT)
    {
      if (target->kind == QD_CANVAS_HIT_PORT &&
          target->port_kind == QD_CANVAS_PORT_OUTPUT)
        {
          *message = g_strdup_printf (_("%s: output %u cannot be joined to "
                                        "output %u of %s; a link goes from an "
                                        "output to an input, so drop it on an "
                                        "input port"),
                                      start_path, self->conn_port + 1,
                                      target->port + 1, other_path);
          return FALSE;
        }
      if (target->kind == QD_CANVAS_HIT_LINK || target->kind == QD_CANVAS_HIT_BEND)
        {
          QdBlock *driver = qd_system_find_block (self->system, target->link->src.block);
          g_autofree char *driver_path = driver != NULL ? qd_block_get_path (driver)
                                                        : g_strdup (target->link->src.block);

          if (g_strcmp0 (target->link->src.block, self->conn_block) == 0 &&
              target->link->src.port == self->conn_port)
            return FALSE;
          *message = g_strdup_printf (_("%s: output %u cannot join a link "
                                        "that %s already drives; drop it on "
                                        "a free input port"),
                                      start_path, self->conn_port + 1,
                                      driver_path);
          return FALSE;
        }
      *src_block = g_strdup (self->conn_block);
      *src_port = self->conn_port;
      *dst_block = g_strdup (target->block->id);
      *dst_port = target->port;
    }
  else
    {
      own = qd_system_find_driver (self->system, self->conn_block, self->conn_port, NULL);
      if (target->kind == QD_CANVAS_HIT_PORT &&
          target->port_kind == QD_CANVAS_PORT_INPUT)
        {
          if (target->block == start && target->port == self->conn_port)
            return FALSE;
          if (own != NULL)
            {
              /* The end of a link dragged to another input: the link
               * now drives that one instead. */
              *src_block = g_strdup (own->src.block);
              *src_port = own->src.port;
              *dst_block = g_strdup (target->block->id);
              *dst_port = target->port;
              *rewire = TRUE;
              goto check_free;
            }
          *message = g_strdup_printf (_("%s: input %u cannot be joined to "
                                        "input %u of %s; a link goes from an "
                                        "output to an input, so drop it on an "
                                        "output port or on a link"),
                                      start_path, self->conn_port + 1,
                                      target->port + 1, other_path);
          return FALSE;
        }
      if (target->kind == QD_CANVAS_HIT_PORT)
        {
          *src_block = g_strdup (target->block->id);
          *src_port = target->port;
        }
      else if (target->kind == QD_CANVAS_HIT_LINK || target->kind == QD_CANVAS_HIT_BEND)
        {
          /* Dropping an input on a link branches the link to it. */
          *src_block = g_strdup (target->link->src.block);
          *src_port = target->link->src.port;
        }
      else
        return FALSE;
      *dst_block = g_strdup (self->conn_block);
      *dst_port = self->conn_port;
      if (own != NULL)
        {
          /* A driven input taken to another source: the new one replaces
           * the old, unless it is the same. */
          if (g_strcmp0 (own->src.block, *src_block) == 0 && own->src.port == *src_port)
            {
              g_clear_pointer (src_block, g_free);
              g_clear_pointer (dst_block, g_free);
              return FALSE;
            }
          *rewire = TRUE;
          return TRUE;
        }
    }

check_free:
  /* Both directions end at an input, which must be free. */
  {
    QdLink *driver = qd_system_find_driver (self->system, *dst_block, *dst_port, NULL);

    if (driver != NULL)
      {
        QdBlock *dst = qd_system_find_block (self->system, *dst_block);
        QdBlock *src = qd_system_find_block (self->system, driver->src.block);
        g_autofree char *dst_path = qd_block_get_path (dst);
        g_autofree char *src_path = src != NULL ? qd_block_get_path (src)
                                                : g_strdup (driver->src.block);

        *message = g_strdup_printf (_("%s: input %u is already driven by %s; "
                                      "delete that link first, or drop on a "
                                      "free input"),
                                    dst_path, *dst_port + 1, src_path);
        g_clear_pointer (src_block, g_free);
        g_clear_pointer (dst_block, g_free);
        return FALSE;
      }
  }
  return TRUE;
}

static QdCanvasHit
connect_target (QdCanvasController *self,
                double              x,
                double              y)
{
  QdCanvasHit target = qd_canvas_hit_port (self->system, x, y, self->tolerance * 1.6);

  if (target.kind == QD_CANVAS_HIT_NONE)
    target = qd_canvas_hit_link (self->system, qd_canvas_controller_get_routes (self), x, y,
                                 self->tolerance);
  /* The port the link starts at is no target. */
  if (target.kind == QD_CANVAS_HIT_PORT &&
      g_strcmp0 (target.block->id, self->conn_block) == 0 &&
      target.port_kind == self->conn_kind && target.port == self->conn_port)
    target.kind = QD_CANVAS_HIT_NONE;
  return target;
}

static void
update_connect (QdCanvasController *self,
                double              x,
                double              y)
{
  QdBlock *start = qd_system_find_block (self->system, self->conn_block);
  QdCanvasHit target = connect_target (self, x, y);
  g_autofree char *src = NULL, *dst = NULL, *message = NULL;
  guint src_port = 0, dst_port = 0;
  QdPoint a, a_dir, b, b_dir;
  gboolean ok, rewire;

  if (start == NULL)
    return;
  ok = check_connection (self, &target, &src, &src_port, &dst, &dst_port,
                         &rewire, &message);

  self->mark_block = NULL;
  self->mark_link = NULL;
  self->mark_bad = !ok && message != NULL;
  if (target.kind == QD_CANVAS_HIT_PORT)
    {
      self->mark_block = target.block;
      self->mark_kind = target.port_kind;
      self->mark_port = target.port;
    }
  else if (target.kind != QD_CANVAS_HIT_NONE)
    self->mark_link = target.link;

  /* The preview runs from the output side to the input side. */
  a = port_point (start, self->conn_kind, self->conn_port, &a_dir);
  if (target.kind == QD_CANVAS_HIT_PORT)
    b = port_point (target.block, target.port_kind, target.port, &b_dir);
  else
    {
      b = (QdPoint) { x, y };
      b_dir = (QdPoint) { -a_dir.x, -a_dir.y };
    }
  g_clear_pointer (&self->pending_route, g_array_unref);
  if (self->conn_kind == QD_CANVAS_PORT_OUTPUT)
    self->pending_route = qd_canvas_route_auto (self->system, a, a_dir, b, b_dir);
  else
    self->pending_route = qd_canvas_route_auto (self->system, b, b_dir, a, a_dir);
  qd_canvas_controller_invalidate_feedback (self);
}

static void
finish_connect (QdCanvasController *self,
                double              x,
                double              y)
{
  QdCanvasHit target = connect_target (self, x, y);
  g_autofree char *src = NULL, *dst = NULL, *message = NULL;
  g_autoptr(GError) error = NULL;
  guint src_port = 0, dst_port = 0, index = 0;
  gboolean rewire;
  QdLink *own;

  if (!check_connection (self, &target, &src, &src_port, &dst, &dst_port,
                         &rewire, &message))
    {
      if (message != NULL)
        g_signal_emit (self, qd_canvas_controller_signals[MESSAGE], 0, message);
      return;
    }
  if (!rewire)
    {
      if (qd_document_connect (self->document, self->system, src, src_port,
                               dst, dst_port, &error) == NULL)
        g_signal_emit (self, qd_canvas_controller_signals[MESSAGE], 0, error->message);
      return;
    }

  /* Cut and join as one step. */
  qd_canvas_controller_begin (self, _("Reconnect"));
  own = qd_system_find_driver (self->system, self->conn_block, self->conn_port, &index);
  if (own != NULL)
    qd_document_disconnect (self->document, own, index);
  if (qd_document_connect (self->document, self->system, src, src_port,
                           dst, dst_port, &error) == NULL)
    {
      qd_canvas_controller_end (self);
      qd_document_undo (self->document);
      g_signal_emit (self, qd_canvas_controller_signals[MESSAGE], 0, error->message);
      return;
    }
  qd_canvas_controller_end (self);
}

static void
start_bend (QdCanvasController *self)
{
  QdLink *link = self->press_hit.link;

  self->mode = QD_CANVAS_MODE_BEND;
  self->bend_link = g_strdup (link->id);
  self->bend_target = self->press_hit.target;
  self->bend_route = qd_canvas_controller_get_route (self, link, self->bend_target);
}

static void
update_bend (QdCanvasController *self,
             double              x,
             double              y)
{
  QdLink *link = find_link (self->system, self->bend_link);
  g_autoptr(GArray) route = NULL;
  guint index = self->press_hit.index;
  QdPoint anchor;
  double dx, dy;

  if (link == NULL || self->bend_route->len < 2)
    return;

  /* Snap the moved line (or corner) itself to the grid: for a segment,
   * its first point; for a bend, the corner. */
  anchor = g_array_index (self->bend_route, QdPoint, index);
  dx = qd_canvas_snap (anchor.x + x - self->press_x) - anchor.x;
  dy = qd_canvas_snap (anchor.y + y - self->press_y) - anchor.y;

  route = g_array_copy (self->bend_route);
  if (self->press_hit.kind == QD_CANVAS_HIT_BEND)
    qd_canvas_route_move_corner (route, index, dx, dy);
  else
    qd_canvas_route_move_segment (route, index, dx, dy);
  qd_canvas_route_simplify (route);

  qd_canvas_controller_begin (self, _("Bend Link"));
  qd_document_set_link_points (self->document, link, self->bend_target,
                               route->len > 2 ? &g_array_index (route, QdPoint, 1) : NULL,
                               route->len > 2 ? route->len - 2 : 0);
  qd_canvas_controller_invalidate_routes (self);
}

static void
update_rubber_band (QdCanvasController *self,
                    double              x,
                    double              y)
{
  QdRect *r = &self->rubber_band;
  g_autoptr(GHashTable) after = NULL;
  GHashTableIter iter;
  gpointer key;
  gboolean same;

  r->x = MIN (x, self->press_x);
  r->y = MIN (y, self->press_y);
  r->width = fabs (x - self->press_x);
  r->height = fabs (y - self->press_y);

  /* The new selection is made aside and compared with the current one:
   * most steps of the band change only the band, and redrawing the
   * diagram for them would make the band lag on a large diagram. */
  after = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (self->rubber_base != NULL)
    {
      g_hash_table_iter_init (&iter, self->rubber_base);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        g_hash_table_add (after, g_strdup (key));
    }

  /* Blocks wholly inside, and link branches whose route is. */
  for (guint i = 0; i < self->system->blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (self->system->blocks, i);

      if (qd_rect_contains (r, block->x, block->y) &&
          qd_rect_contains (r, block->x + block->width, block->y + block->height))
        g_hash_table_add (after, g_strdup (block->id));
    }
  for (guint i = 0; i < self->system->links->len; i++)
    {
      QdLink *link = g_ptr_array_index (self->system->links, i);

      for (guint t = 0; t < link->n_targets; t++)
        {
          g_autoptr(GArray) route = qd_canvas_controller_get_route (self, link, t);
          gboolean inside = route->len > 0;

          for (guint k = 0; inside && k < route->len; k++)
            {
              QdPoint p = g_array_index (route, QdPoint, k);

              inside = qd_rect_contains (r, p.x, p.y);
            }
          if (inside)
            g_hash_table_add (after, qd_canvas_link_key (link, t));
        }
    }
  same = g_hash_table_size (after) == g_hash_table_size (self->selection);
  g_hash_table_iter_init (&iter, after);
  while (same && g_hash_table_iter_next (&iter, &key, NULL))
    same = g_hash_table_contains (self->selection, key);
  if (same)
    {
      qd_canvas_controller_invalidate_feedback (self);
      return;
    }
  g_hash_table_remove_all (self->selection);
  g_hash_table_iter_init (&iter, after);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      g_hash_table_iter_steal (&iter);
      g_hash_table_add (self->selection, key);
    }
  qd_canvas_controller_selection_changed (self);
}

void
qd_canvas_controller_press (QdCanvasController *self,
                            double              x,
                            double              y,
                            QdCanvasModifiers   modifiers)
{
  QdCanvasHit hit;
  gboolean extend = (modifiers & (QD_CANVAS_MODIFIER_SHIFT | QD_CANVAS_MODIFIER_CONTROL)) != 0;

  g_return_if_fail (QD_IS_CANVAS_CONTROLLER (self));

  if (self->system == NULL || self->document == NULL)
    return;
  if (self->mode != QD_CANVAS_MODE_IDLE)
    qd_canvas_controller_cancel (self);

  hit = hit_test (self, x, y);
  self->press_x = x;
  self->press_y = y;
  self->press_hit = hit;
  self->modifiers = modifiers;
  self->mode = QD_CANVAS_MODE_PRESSED;

  switch (hit.kind)
    {
    case QD_CANVAS_HIT_PORT:
      /* Ports start links; a drag from one shows the link at once. */
      self->mode = QD_CANVAS_MODE_CONNECT;
      self->conn_block = g_strdup (hit.block->id);
      self->conn_kind = hit.port_kind;
      self->conn_port = hit.port;
      update_connect (self, x, y);
      break;

    case QD_CANVAS_HIT_LINK:
    case QD_CANVAS_HIT_BEND:
      if (modifiers & QD_CANVAS_MODIFIER_CONTROL)
        {
          /* Ctrl+drag from a link draws a new branch of it. */
          self->mode = QD_CANVAS_MODE_CONNECT;
          self->conn_block = g_strdup (hit.link->src.block);
          self->conn_kind = QD_CANVAS_PORT_OUTPUT;
          self->conn_port = hit.link->src.port;
          update_connect (self, x, y);
          break;
        }
      {
        g_autofree char *key = qd_canvas_link_key (hit.link, hit.target);

        if (modifiers & QD_CANVAS_MODIFIER_SHIFT)
          qd_canvas_controller_select (self, key, TRUE);
        else if (!g_hash_table_contains (self->selection, key))
          qd_canvas_controller_select (self, key, FALSE);
      }
      break;

    case QD_CANVAS_HIT_BLOCK:
      if (extend)
        {
          if (g_hash_table_contains (self->selection, hit.block->id))
            {
              g_hash_table_remove (self->selection, hit.block->id);
              qd_canvas_controller_selection_changed (self);
              /* Toggled off: nothing to drag. */
              self->press_hit.kind = QD_CANVAS_HIT_NONE;
              self->press_hit.block = NULL;
            }
          else
            qd_canvas_controller_select (self, hit.block->id, TRUE);
        }
      else if (!g_hash_table_contains (self->selection, hit.block->id))
        qd_canvas_controller_select (self, hit.block->id, FALSE);
      else
        self->select_on_release = TRUE;
      break;

    case QD_CANVAS_HIT_NONE:
    default:
      if (!extend)
        qd_canvas_controller_clear_selection (self);
      break;
    }
}

void
qd_canvas_controller_drag (QdCanvasController *self,
                           double              x,
                           double              y)
{
  g_return_if_fail (QD_IS_CANVAS_CONTROLLER (self));

  if (self->mode == QD_CANVAS_MODE_PRESSED)
    {
      /* A few pixels of jitter are still a click. */
      if (hypot (x - self->press_x, y - self->press_y) < self->tolerance * 0.6)
        return;
      self->select_on_release = FALSE;
      switch (self->press_hit.kind)
        {
        case QD_CANVAS_HIT_BLOCK:
          start_move (self);
          break;
        case QD_CANVAS_HIT_LINK:
        case QD_CANVAS_HIT_BEND:
          start_bend (self);
          break;
        case QD_CANVAS_HIT_NONE:
          self->mode = QD_CANVAS_MODE_RUBBER_BAND;
          if (self->modifiers != QD_CANVAS_MODIFIER_NONE)
            {
              GHashTableIter iter;
              gpointer key;

              self->rubber_base = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
              g_hash_table_iter_init (&iter, self->selection);
              while (g_hash_table_iter_next (&iter, &key, NULL))
                g_hash_table_add (self->rubber_base, g_strdup (key));
            }
          break;
        case QD_CANVAS_HIT_PORT:
        default:
          break;
        }
    }

  switch (self->mode)
    {
    case QD_CANVAS_MODE_MOVE:
      update_move (self, x, y);
      break;
    case QD_CANVAS_MODE_CONNECT:
      update_connect (self, x, y);
      break;
    case QD_CANVAS_MODE_BEND:
      update_bend (self, x, y);
      break;
    case QD_CANVAS_MODE_RUBBER_BAND:
      update_rubber_band (self, x, y);
      break;
    case QD_CANVAS_MODE_IDLE:
    case QD_CANVAS_MODE_PRESSED:
    default:
      break;
    }
}

void
qd_canvas_controller_release (QdCanvasController *self,
                              double              x,
                              double              y)
{
  g_return_if_fail (QD_IS_CANVAS_CONTROLLER (self));

  if (self->mode == QD_CANVAS_MODE_IDLE)
    return;
  qd_canvas_controller_drag (self, x, y);

  switch (self->mode)
    {
    case QD_CANVAS_MODE_CONNECT:
      finish_connect (self, x, y);
      break;
    case QD_CANVAS_MODE_PRESSED:
      /* A click on a block of a larger selection selects just it. */
      if (self->select_on_release && self->press_hit.block != NULL)
        qd_canvas_controller_select (self, self->press_hit.block->id, FALSE);
      break;
    case QD_CANVAS_MODE_MOVE:
    case QD_CANVAS_MODE_BEND:
    case QD_CANVAS_MODE_RUBBER_BAND:
    case QD_CANVAS_MODE_IDLE:
    default:
      break;
    }
  qd_canvas_controller_end (self);
  qd_canvas_controller_reset_gesture (self);
  qd_canvas_controller_invalidate_routes (self);
}

void
qd_canvas_controller_cancel (QdCanvasController *self)
{
  gboolean edited;

  g_return_if_fail (QD_IS_CANVAS_CONTROLLER (self));

  edited = self->in_transaction;
  if (self->mode == QD_CANVAS_MODE_RUBBER_BAND && self->rubber_base != NULL)
    {
      GHashTableIter iter;
      gpointer key;

      g_hash_table_remove_all (self->selection);
      g_hash_table_iter_init (&iter, self->rubber_base);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        g_hash_table_add (self->selection, g_strdup (key));
      qd_canvas_controller_selection_changed (self);
    }
  qd_canvas_controller_end (self);
  qd_canvas_controller_reset_gesture (self);
  /* What the gesture did so far goes back as if never done. */
  if (edited)
    qd_document_undo (self->document);
  qd_canvas_controller_invalidate_routes (self);
}

gboolean
qd_canvas_controller_activate (QdCanvasController *self,
                               double              x,
                               double              y)
{
  QdCanvasHit hit;

  g_return_val_if_fail (QD_IS_CANVAS_CONTROLLER (self), FALSE);

  if (self->system == NULL)
    return FALSE;
  hit = hit_test (self, x, y);
  if (hit.kind != QD_CANVAS_HIT_BLOCK || hit.block->inner == NULL)
    return FALSE;
  if (self->mode != QD_CANVAS_MODE_IDLE)
    qd_canvas_controller_cancel (self);
  qd_canvas_controller_set_system (self, hit.block->inner);
  return TRUE;
}

QdCanvasMode
qd_canvas_controller_get_mode (QdCanvasController *self)
{
  g_return_val_if_fail (QD_IS_CANVAS_CONTROLLER (self), QD_CANVAS_MODE_IDLE);

  return self->mode;
}

void
qd_canvas_controller_get_feedback (QdCanvasController *self,
                                   QdCanvasFeedback   *feedback)
{
  g_return_if_fail (QD_IS_CANVAS_CONTROLLER (self));

  memset (feedback, 0, sizeof *feedback);
  feedback->mode = self->mode;
  if (self->mode == QD_CANVAS_MODE_RUBBER_BAND)
    {
      feedback->has_rubber_band = TRUE;
      feedback->rubber_band = self->rubber_band;
    }
  if (self->mode == QD_CANVAS_MODE_CONNECT)
    {
      feedback->pending_route = self->pending_route;
      feedback->pending_bad = self->mark_bad;
      feedback->mark_block = self->mark_block;
      feedback->mark_kind = self->mark_kind;
      feedback->mark_port = self->mark_port;
      feedback->mark_link = self->mark_link;
      feedback->mark_bad = self->mark_bad;
    }
}

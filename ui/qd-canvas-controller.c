/* qd-canvas-controller.c: every edit the canvas makes, without a widget
 *
 * A gesture opens a document transaction lazily, at its first edit, and
 * closes it on release, so a drag that moves five blocks through a
 * hundred pointer positions is still one undo step. Moves are applied to
 * the document as the pointer goes (snapped to the grid), so links follow
 * their blocks live and everything that draws sees the real diagram.
 *
 * The selection holds ids and link keys, not pointers: undo brings back
 * the very same objects, but a key survives even an edit that replaces
 * them, and a stale key is simply dropped when the document changes.
 */
#include <glib/gi18n-lib.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qd-canvas-controller.h"
#include "qd-canvas-render.h"

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
  PROP_0,
  PROP_SYSTEM,
  N_PROPS
};

enum
{
  MESSAGE,
  INVALIDATE,
  SELECTION_CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (QdCanvasController, qd_canvas_controller, G_TYPE_OBJECT)

/* The diagram drawn has changed (the document, the routes, the
 * selection): the canvas draws it again. */
static void
invalidate (QdCanvasController *self)
{
  g_signal_emit (self, signals[INVALIDATE], 0, TRUE);
}

/* Only the feedback of the gesture has changed (the link being drawn,
 * the port under the pointer, the rubber band): the canvas can draw it
 * over the diagram it drew before. */
static void
invalidate_feedback (QdCanvasController *self)
{
  g_signal_emit (self, signals[INVALIDATE], 0, FALSE);
}

static void
add_route_damage (QdCanvasController *self,
                  const GArray       *route)
{
  QdRect r;

  if (qd_canvas_route_drawn_rect (route, &r))
    g_array_append_val (self->damage, r);
}

/* Forgets the routes, to be laid again when next needed. The router
 * reports what changes from the routes it laid before; the quick routes
 * a drag drew instead of some of them are reported here. */
static void
drop_routes (QdCanvasController *self)
{
  GHashTableIter iter;
  gpointer key;

  if (self->routes != NULL)
    {
      g_hash_table_iter_init (&iter, self->quick_keys);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        add_route_damage (self, g_hash_table_lookup (self->routes, key));
    }
  g_hash_table_remove_all (self->quick_keys);
  g_clear_pointer (&self->routes, g_hash_table_unref);
  g_clear_pointer (&self->routes_by_link, g_hash_table_unref);
}

static void
invalidate_routes (QdCanvasController *self)
{
  drop_routes (self);
  invalidate (self);
}

static GHashTable *
get_routes (QdCanvasController *self)
{
  if (self->routes == NULL && self->system != NULL)
    {
      self->routes = qd_canvas_router_update (self->router, self->system, NULL, self->damage);
      /* Nobody has asked for it in a long while: keep it small. */
      if (self->damage->len > 1024)
        {
          g_array_set_size (self->damage, 0);
          self->damage_all = TRUE;
        }
    }
  return self->routes;
}

static void
selection_changed (QdCanvasController *self)
{
  g_signal_emit (self, signals[SELECTION_CHANGED], 0);
  invalidate (self);
}

static void G_GNUC_PRINTF (2, 3)
report (QdCanvasController *self,
        const char         *format,
        ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  g_signal_emit (self, signals[MESSAGE], 0, text);
}

static void
begin (QdCanvasController *self,
       const char         *label)
{
  if (!self->in_transaction)
    {
      qd_document_begin (self->document, label);
      self->in_transaction = TRUE;
    }
}

static void
end (QdCanvasController *self)
{
  if (self->in_transaction)
    {
      self->in_transaction = FALSE;
      qd_document_end (self->document);
    }
}

/* Is @system still part of the document (not inside a removed block)? */
static gboolean
system_is_attached (QdDocument *document,
                    QdSystem   *system)
{
  while (system != NULL)
    {
      QdBlock *owner = system->owner;

      if (owner == NULL)
        return system == qd_document_get_root (document);
      if (owner->inner != system ||
          qd_document_find_block (document, owner->id) != owner)
        return FALSE;
      system = owner->parent;
    }
  return FALSE;
}

/* Does @key (a block id or "lid:t") name something of the system? */
static gboolean
key_exists (QdCanvasController *self,
            const char         *key)
{
  const char *colon = strrchr (key, ':');

  if (colon == NULL)
    return qd_system_find_block (self->system, key) != NULL;

  for (guint i = 0; i < self->system->links->len; i++)
    {
      QdLink *link = g_ptr_array_index (self->system->links, i);

      if (strncmp (link->id, key, colon - key) == 0 &&
          link->id[colon - key] == '\0')
        return strtoul (colon + 1, NULL, 10) < link->targets->len;
    }
  return FALSE;
}

static void
on_document_changed (QdDocument         *document,
                     QdCanvasController *self)
{
  GHashTableIter iter;
  gpointer key;
  gboolean pruned = FALSE;

  /* While blocks are dragged, update_move() reroutes only their links;
   * the whole system is laid out again on release. */
  if (self->mode != QD_CANVAS_MODE_MOVE)
    drop_routes (self);

  /* Undo may take away the subsystem shown (undoing its creation). */
  if (!system_is_attached (document, self->system))
    {
      qd_canvas_controller_set_system (self, NULL);
      return;
    }

  g_hash_table_iter_init (&iter, self->selection);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!key_exists (self, key))
      {
        g_hash_table_iter_remove (&iter);
        pruned = TRUE;
      }
  if (pruned)
    selection_changed (self);
  else
    invalidate (self);
}

/* GObject */

static void
reset_gesture (QdCanvasController *self)
{
  self->mode = QD_CANVAS_MODE_IDLE;
  self->press_hit = (QdCanvasHit) { QD_CANVAS_HIT_NONE, };
  self->select_on_release = FALSE;
  g_ptr_array_set_size (self->move_blocks, 0);
  g_array_set_size (self->move_origins, 0);
  g_ptr_array_set_size (self->move_links, 0);
  g_ptr_array_set_size (self->move_points, 0);
  self->applied_dx = self->applied_dy = 0;
  g_clear_pointer (&self->conn_block, g_free);
  g_clear_pointer (&self->pending_route, g_array_unref);
  self->mark_block = NULL;
  self->mark_link = NULL;
  self->mark_bad = FALSE;
  g_clear_pointer (&self->bend_link, g_free);
  g_clear_pointer (&self->bend_route, g_array_unref);
  g_clear_pointer (&self->rubber_base, g_hash_table_unref);
}

static void
qd_canvas_controller_dispose (GObject *object)
{
  QdCanvasController *self = QD_CANVAS_CONTROLLER (object);

  if (self->document != NULL)
    {
      end (self);
      g_clear_signal_handler (&self->changed_id, self->document);
    }
  reset_gesture (self);
  g_clear_pointer (&self->system, qd_system_unref);
  g_clear_object (&self->document);

  G_OBJECT_CLASS (qd_canvas_controller_parent_class)->dispose (object);
}

static void
qd_canvas_controller_finalize (GObject *object)
{
  QdCanvasController *self = QD_CANVAS_CONTROLLER (object);

  g_hash_table_unref (self->selection);
  g_clear_pointer (&self->routes, g_hash_table_unref);
  g_clear_pointer (&self->routes_by_link, g_hash_table_unref);
  qd_canvas_router_free (self->router);
  g_array_unref (self->damage);
  g_hash_table_unref (self->quick_keys);
  g_ptr_array_unref (self->move_blocks);
  g_array_unref (self->move_origins);
  g_ptr_array_unref (self->move_links);
  g_ptr_array_unref (self->move_points);
  g_free (self->last_paste);

  G_OBJECT_CLASS (qd_canvas_controller_parent_class)->finalize (object);
}

static void
qd_canvas_controller_get_property (GObject    *object,
                                   guint       prop_id,
                                   GValue     *value,
                                   GParamSpec *pspec)
{
  QdCanvasController *self = QD_CANVAS_CONTROLLER (object);

  switch (prop_id)
    {
    case PROP_SYSTEM:
      g_value_set_pointer (value, self->system);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
qd_canvas_controller_class_init (QdCanvasControllerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = qd_canvas_controller_dispose;
  object_class->finalize = qd_canvas_controller_finalize;
  object_class->get_property = qd_canvas_controller_get_property;

  /* The QdSystem shown (a plain pointer: systems are not GObjects). */
  properties[PROP_SYSTEM] =
    g_param_spec_pointer ("system", NULL, NULL,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* A refusal or failure to show the user; the text starts with where. */
  signals[MESSAGE] =
    g_signal_new ("message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  /* Something drawn has changed: redraw. The argument is TRUE when the
   * diagram itself changed, FALSE when only the feedback of the gesture
   * in progress did. */
  signals[INVALIDATE] =
    g_signal_new ("invalidate", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
  signals[SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
qd_canvas_controller_init (QdCanvasController *self)
{
  self->selection = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->tolerance = 5.0;
  self->router = qd_canvas_router_new ();
  self->damage = g_array_new (FALSE, FALSE, sizeof (QdRect));
  self->damage_all = TRUE;
  self->quick_keys = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->move_blocks = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_block_unref);
  self->move_origins = g_array_new (FALSE, FALSE, sizeof (QdPoint));
  self->move_links = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_link_unref);
  self->move_points = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
}

QdCanvasController *
qd_canvas_controller_new (void)
{
  return g_object_new (QD_TYPE_CANVAS_CONTROLLER, NULL);
}

void
qd_canvas_controller_set_document (QdCanvasController *self,
                                   QdDocument         *document)
{
  g_return_if_fail (QD_IS_CANVAS_CONTROLLER (self));
  g_return_if_fail (document == NULL || QD_IS_DOCUMENT (document));

  if (self->document == document)
    return;

  if (self->document != NULL)
    {
      end (self);
      g_clear_signal_handler (&self->changed_id, self->document);
    }
  reset_gesture (self);
  g_set_object (&self->document, document);
  if (document != NULL)
    self->changed_id = g_signal_connect (document, "changed",
                                         G_CALLBACK (on_document_changed), self);
  qd_canvas_controller_set_system (self, NULL);
}

QdDocument *
qd_canvas_controller_get_document (QdCanvasController *self)
{
  g_return_val_if_fail (QD_IS_CANVAS_CONTROLLER (self), NULL);

  return self->document;
}

void
qd_canvas_controller_set_system (QdCanvasController *self,
                                 QdSystem           *system)
{
  g_return_if_fail (QD_IS_CANVAS_CONTROLLER (self));

  if (system == NULL && self->document != NULL)
    system = qd_document_get_root (self->document);

  if (self->mode != QD_CANVAS_MODE_IDLE)
    qd_canvas_controller_cancel (self);

  if (system != self->system)
    {
      if (system != NULL)
        qd_system_ref (system);
      g_clear_pointer (&self->system, qd_system_unref);
      self->system = system;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SYSTEM]);
    }
  g_hash_table_remove_all (self->selection);
  drop_routes (self);
  self->damage_all = TRUE;
  selection_changed (self);
}

QdSystem *
qd_canvas_controller_get_system (QdCanvasController *self)
{
  g_return_val_if_fail (QD_IS_CANVAS_CONTROLLER (self), NULL);

  return self->system;
}

void
qd_canvas_controller_set_tolerance (QdCanvasController *self,
                                    double              tolerance)
{
  g_return_if_fail (QD_IS_CANVAS_CONTROLLER (self));

  self->tolerance = tolerance;
}

gboolean
qd_canvas_controller_take_damage (QdCanvasController *self,
                                  GArray             *damage)
{
  gboolean known;

  g_return_val_if_fail (QD_IS_CANVAS_CONTROLLER (self), FALSE);

  /* The routes brought up to date say what the edits changed. */
  get_routes (self);
  known = !self->damage_all;
  if (known && damage != NULL)
    g_array_append_vals (damage, self->damage->data, self->damage->len);
  g_array_set_size (self->damage, 0);
  self->damage_all = FALSE;
  return known;
}

/* The routes by link, indexed once per change of the routes: drawing
 * asks for every link's routes, several times a frame when the cached
 * image is drawn in parts, and formatting each key would cost more than
 * the drawing of a small part. */
static GPtrArray *
routes_of_link (QdCanvasController *self,
                const QdLink       *link)
{
  GHashTable *routes = get_routes (self);

  if (routes == NULL)
    return NULL;
  if (self->routes_by_link == NULL)
    {
      self->routes_by_link = g_hash_table_new_full (NULL, NULL, NULL,
                                                    (GDestroyNotify) g_ptr_array_unref);
      for (guint i = 0; i < self->system->links->len; i++)
        {
          QdLink *l = g_ptr_array_index (self->system->links, i);
          GPtrArray *of_link = g_ptr_array_new_full (l->targets->len, NULL);

          for (guint t = 0; t < l->targets->len; t++)
            {
              g_autofree char *key = qd_canvas_link_key (l, t);

              g_ptr_array_add (of_link, g_hash_table_lookup (routes, key));
            }
          g_hash_table_insert (self->routes_by_link, l, of_link);
        }
    }
  return g_hash_table_lookup (self->routes_by_link, link);
}

GArray *
qd_canvas_controller_get_route (QdCanvasController *self,
                                const QdLink       *link,
                                guint               target)
{
  GPtrArray *of_link = routes_of_link (self, link);
  GArray *route = NULL;

  if (of_link != NULL && target < of_link->len)
    route = g_ptr_array_index (of_link, target);
  else if (self->routes != NULL)
    {
      /* A link of another system, or one added since the index. */
      g_autofree char *key = qd_canvas_link_key (link, target);

      route = g_hash_table_lookup (self->routes, key);
    }
  if (route == NULL)
    return g_array_new (FALSE, FALSE, sizeof (QdPoint));
  return g_array_ref (route);
}

QdCanvasHit
qd_canvas_controller_hit_test (QdCanvasController *self,
                               double              x,
                               double              y)
{
  QdCanvasHit hit = { QD_CANVAS_HIT_NONE, };

  g_return_val_if_fail (QD_IS_CANVAS_CONTROLLER (self), hit);

  if (self->system == NULL)
    return hit;
  return qd_canvas_hit_test (self->system, get_routes (self), x, y, self->tolerance);
}

/* Selection */

GHashTable *
qd_canvas_controller_get_selection (QdCanvasController *self)
{
  g_return_val_if_fail (QD_IS_CANVAS_CONTROLLER (self), NULL);

  return self->selection;
}

gboolean
qd_canvas_controller_is_selected (QdCanvasController *self,
                                  const char         *key)
{
  g_return_val_if_fail (QD_IS_CANVAS_CONTROLLER (self), FALSE);

  return g_hash_table_contains (self->selection, key);
}

void
qd_canvas_controller_select (QdCanvasController *self,
                             const char         *key,
                             gboolean            add)
{
  g_return_if_fail (QD_IS_CANVAS_CONTROLLER (self));

  if (!add)
    g_hash_table_remove_all (self->selection);
  if (key != NULL)
    g_hash_table_add (self->selection, g_strdup (key));
  selection_changed (self);
}

void
qd_canvas_controller_clear_selection (QdCanvasController *self)
{
  g_return_if_fail (QD_IS_CANVAS_CONTROLLER (self));

  if (g_hash_table_size (self->selection) == 0)
    return;
  g_hash_table_remove_all (self->selection);
  selection_changed (self);
}

static void
add_link_keys (QdCanvasController *self,
               GHashTable         *set,
               const QdLink       *link)
{
  for (guint t = 0; t < link->targets->len; t++)
    g_hash_table_add (set, qd_canvas_link_key (link, t));
}

void
qd_canvas_controller_select_all (QdCanvasController *self)
{
  g_return_if_fail (QD_IS_CANVAS_CONTROLLER (self));

  if (self->system == NULL)
    return;
  for (guint i = 0; i < self->system->blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (self->system->blocks, i);

      g_hash_table_add (self->selection, g_strdup (block->id));
    }
  for (guint i = 0; i < self->system->links->len; i++)
    add_link_keys (self, self->selection, g_ptr_array_index (self->system->links, i));
  selection_changed (self);
}

QdCanvasHit
qd_canvas_controller_context_press (QdCanvasController *self,
                                    double              x,
                                    double              y)
{
  QdCanvasHit hit = { QD_CANVAS_HIT_NONE, };
  g_autofree char *key = NULL;

  g_return_val_if_fail (QD_IS_CANVAS_CONTROLLER (self), hit);

  if (self->system == NULL)
    return hit;
  if (self->mode != QD_CANVAS_MODE_IDLE)
    qd_canvas_controller_cancel (self);
  hit = qd_canvas_controller_hit_test (self, x, y);
  switch (hit.kind)
    {
    case QD_CANVAS_HIT_BLOCK:
    case QD_CANVAS_HIT_PORT:
      key = g_strdup (hit.block->id);
      break;
    case QD_CANVAS_HIT_LINK:
    case QD_CANVAS_HIT_BEND:
      key = qd_canvas_link_key (hit.link, hit.target);
      break;
    case QD_CANVAS_HIT_NONE:
    default:
      /* The menu's edits must never reach a selection far from the
       * pointer: on empty space they act on the model (Paste, Select
       * All, its Properties), as in Simulink. */
      qd_canvas_controller_clear_selection (self);
      break;
    }
  /* Right-clicking one of several selected things keeps them all, so
   * that the menu can act on the whole selection. */
  if (key != NULL && !g_hash_table_contains (self->selection, key))
    qd_canvas_controller_select (self, key, FALSE);
  return hit;
}

GPtrArray *
qd_canvas_controller_get_selected_blocks (QdCanvasController *self)
{
  GPtrArray *blocks = g_ptr_array_new ();

  g_return_val_if_fail (QD_IS_CANVAS_CONTROLLER (self), blocks);

  if (self->system == NULL)
    return blocks;
  for (guint i = 0; i < self->system->blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (self->system->blocks, i);

      if (g_hash_table_contains (self->selection, block->id))
        g_ptr_array_add (blocks, block);
    }
  return blocks;
}

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
      for (guint t = 0; t < link->targets->len; t++)
        {
          QdLinkTarget *target = g_ptr_array_index (link->targets, t);
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

      for (guint t = 0; t < link->targets->len; t++)
        {
          QdLinkTarget *target = g_ptr_array_index (link->targets, t);

          GArray *route;
          char *key;

          if (!source_moves && !g_hash_table_contains (moving, target->dst.block))
            continue;
          /* Not the router's: what they cover is reported here, and
           * again when they are dropped. */
          key = qd_canvas_link_key (link, t);
          route = qd_canvas_route_target_quick (self->system, link, t);
          add_route_damage (self, g_hash_table_lookup (self->routes, key));
          add_route_damage (self, route);
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

  begin (self, _("Move"));
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
  invalidate (self);
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
    target = qd_canvas_hit_link (self->system, get_routes (self), x, y, self->tolerance);
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
  invalidate_feedback (self);
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
        g_signal_emit (self, signals[MESSAGE], 0, message);
      return;
    }
  if (!rewire)
    {
      if (qd_document_connect (self->document, self->system, src, src_port,
                               dst, dst_port, &error) == NULL)
        g_signal_emit (self, signals[MESSAGE], 0, error->message);
      return;
    }

  /* Cut and join as one step. */
  begin (self, _("Reconnect"));
  own = qd_system_find_driver (self->system, self->conn_block, self->conn_port, &index);
  if (own != NULL)
    qd_document_disconnect (self->document, own, index);
  if (qd_document_connect (self->document, self->system, src, src_port,
                           dst, dst_port, &error) == NULL)
    {
      end (self);
      qd_document_undo (self->document);
      g_signal_emit (self, signals[MESSAGE], 0, error->message);
      return;
    }
  end (self);
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

  begin (self, _("Bend Link"));
  qd_document_set_link_points (self->document, link, self->bend_target,
                               route->len > 2 ? &g_array_index (route, QdPoint, 1) : NULL,
                               route->len > 2 ? route->len - 2 : 0);
  invalidate_routes (self);
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

      for (guint t = 0; t < link->targets->len; t++)
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
      invalidate_feedback (self);
      return;
    }
  g_hash_table_remove_all (self->selection);
  g_hash_table_iter_init (&iter, after);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      g_hash_table_iter_steal (&iter);
      g_hash_table_add (self->selection, key);
    }
  selection_changed (self);
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
              selection_changed (self);
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
  end (self);
  reset_gesture (self);
  invalidate_routes (self);
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
      selection_changed (self);
    }
  end (self);
  reset_gesture (self);
  /* What the gesture did so far goes back as if never done. */
  if (edited)
    qd_document_undo (self->document);
  invalidate_routes (self);
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

/* Edits of the selection */

/* An edit from a key or a menu while the button is still down (Delete in
 * the middle of a drag) first takes back the gesture, as Escape does:
 * the gesture's transaction would otherwise swallow the edit, and the
 * rest of the drag would go on over what the edit took away (the
 * target of a branch that no longer exists). */
static void
stop_gesture (QdCanvasController *self)
{
  if (self->mode != QD_CANVAS_MODE_IDLE)
    qd_canvas_controller_cancel (self);
}

void
qd_canvas_controller_delete_selection (QdCanvasController *self)
{
  g_autoptr(GPtrArray) blocks = NULL;

  g_return_if_fail (QD_IS_CANVAS_CONTROLLER (self));

  stop_gesture (self);

  if (self->document == NULL || g_hash_table_size (self->selection) == 0)
    return;

  blocks = qd_canvas_controller_get_selected_blocks (self);

  begin (self, _("Delete"));
  /* Link branches first, from the highest target index down, so that the
   * indexes of the others stay valid. */
  for (guint i = 0; i < self->system->links->len;)
    {
      QdLink *link = g_ptr_array_index (self->system->links, i);
      gboolean removed_link = FALSE;

      for (guint t = link->targets->len; t-- > 0;)
        {
          g_autofree char *key = qd_canvas_link_key (link, t);

          if (g_hash_table_contains (self->selection, key))
            {
              removed_link = link->targets->len == 1;
              qd_document_disconnect (self->document, link, t);
              if (removed_link)
                break;
            }
        }
      if (!removed_link)
        i++;
    }
  for (guint i = 0; i < blocks->len; i++)
    qd_document_remove_block (self->document, g_ptr_array_index (blocks, i));
  end (self);

  g_hash_table_remove_all (self->selection);
  selection_changed (self);
  invalidate_routes (self);
}

static double
next_grid_line (double value,
                double direction)
{
  if (direction > 0)
    return (floor (value / QD_CANVAS_GRID + 1e-9) + 1) * QD_CANVAS_GRID;
  return (ceil (value / QD_CANVAS_GRID - 1e-9) - 1) * QD_CANVAS_GRID;
}

void
qd_canvas_controller_nudge (QdCanvasController *self,
                            double              dx,
                            double              dy,
                            gboolean            snap)
{
  g_autoptr(GPtrArray) blocks = NULL;
  QdBlock *first;

  g_return_if_fail (QD_IS_CANVAS_CONTROLLER (self));

  stop_gesture (self);

  if (self->document == NULL)
    return;
  blocks = qd_canvas_controller_get_selected_blocks (self);
  if (blocks->len == 0)
    return;

  /* The first block lands on the grid; the others keep their places
   * relative to it. */
  first = g_ptr_array_index (blocks, 0);
  if (snap)
    {
      if (dx != 0)
        dx = next_grid_line (first->x, dx) - first->x;
      if (dy != 0)
        dy = next_grid_line (first->y, dy) - first->y;
    }

  begin (self, _("Move"));
  for (guint i = 0; i < blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (blocks, i);

      qd_document_move_block (self->document, block, block->x + dx, block->y + dy);
    }
  end (self);
  invalidate_routes (self);
}

void
qd_canvas_controller_rotate_selection (QdCanvasController *self)
{
  g_autoptr(GPtrArray) blocks = NULL;

  g_return_if_fail (QD_IS_CANVAS_CONTROLLER (self));

  stop_gesture (self);

  if (self->document == NULL)
    return;
  blocks = qd_canvas_controller_get_selected_blocks (self);
  if (blocks->len == 0)
    return;

  begin (self, _("Rotate"));
  for (guint i = 0; i < blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (blocks, i);
      double cx = block->x + block->width / 2;
      double cy = block->y + block->height / 2;

      /* A quarter turn about the centre: the rectangle turns too. */
      qd_document_set_geometry (self->document, block,
                                qd_canvas_snap (cx - block->height / 2),
                                qd_canvas_snap (cy - block->width / 2),
                                block->height, block->width,
                                (block->rotation + 90) % 360, block->flip, NULL);
    }
  end (self);
  invalidate_routes (self);
}

void
qd_canvas_controller_flip_selection (QdCanvasController *self)
{
  g_autoptr(GPtrArray) blocks = NULL;

  g_return_if_fail (QD_IS_CANVAS_CONTROLLER (self));

  stop_gesture (self);

  if (self->document == NULL)
    return;
  blocks = qd_canvas_controller_get_selected_blocks (self);
  if (blocks->len == 0)
    return;

  begin (self, _("Flip"));
  for (guint i = 0; i < blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (blocks, i);

      qd_document_set_geometry (self->document, block, block->x, block->y,
                                block->width, block->height, block->rotation,
                                !block->flip, NULL);
    }
  end (self);
  invalidate_routes (self);
}

void
qd_canvas_controller_align_selection (QdCanvasController *self,
                                      QdCanvasAlign       align)
{
  g_autoptr(GPtrArray) blocks = NULL;
  double left = G_MAXDOUBLE, top = G_MAXDOUBLE;
  double right = -G_MAXDOUBLE, bottom = -G_MAXDOUBLE;

  g_return_if_fail (QD_IS_CANVAS_CONTROLLER (self));

  stop_gesture (self);

  if (self->document == NULL)
    return;
  blocks = qd_canvas_controller_get_selected_blocks (self);
  if (blocks->len < 2)
    return;

  for (guint i = 0; i < blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (blocks, i);

      left = MIN (left, block->x);
      top = MIN (top, block->y);
      right = MAX (right, block->x + block->width);
      bottom = MAX (bottom, block->y + block->height);
    }

  begin (self, _("Align"));
  for (guint i = 0; i < blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (blocks, i);
      double x = block->x, y = block->y;

      switch (align)
        {
        case QD_CANVAS_ALIGN_LEFT:
          x = left;
          break;
        case QD_CANVAS_ALIGN_RIGHT:
          x = right - block->width;
          break;
        case QD_CANVAS_ALIGN_TOP:
          y = top;
          break;
        case QD_CANVAS_ALIGN_BOTTOM:
          y = bottom - block->height;
          break;
        case QD_CANVAS_ALIGN_CENTER:
          x = qd_canvas_snap ((left + right) / 2 - block->width / 2);
          break;
        case QD_CANVAS_ALIGN_MIDDLE:
          y = qd_canvas_snap ((top + bottom) / 2 - block->height / 2);
          break;
        default:
          break;
        }
      if (x != block->x || y != block->y)
        qd_document_move_block (self->document, block, x, y);
    }
  end (self);
  invalidate_routes (self);
}

/* Clipboard */

/* The first line of what Copy puts on the clipboard for links selected
 * without their blocks. The rest is a diagram of those links and of the
 * blocks at their ends, but Paste re-creates the links between the
 * blocks already there instead of adding blocks. */
#define LINKS_HEADER "# QDevs links\n"

static QdSystem *clone_system (const QdSystem *system,
                               GHashTable     *only,
                               GHashTable     *targets);

static QdBlock *
clone_block (const QdBlock *block)
{
  QdBlock *copy = qd_block_new (block->id, block->type, block->name);

  copy->x = block->x;
  copy->y = block->y;
  copy->width = block->width;
  copy->height = block->height;
  copy->rotation = block->rotation;
  copy->flip = block->flip;
  for (guint i = 0; block->params != NULL && i < block->params->len; i++)
    {
      const QdParam *param = &g_array_index (block->params, QdParam, i);

      qd_block_set_param_raw (copy, param->name, param->value);
    }
  if (block->inner != NULL)
    {
      QdSystem *inner = clone_system (block->inner, NULL, NULL);

      /* The new subsystem came with an empty inner system: fill it. */
      for (guint i = 0; i < inner->blocks->len; i++)
        {
          QdBlock *b = g_ptr_array_index (inner->blocks, i);

          qd_system_append_block (copy->inner, qd_block_ref (b));
        }
      for (guint i = 0; i < inner->links->len; i++)
        qd_system_append_link (copy->inner, qd_link_ref (g_ptr_array_index (inner->links, i)));
      qd_system_unref (inner);
      qd_system_take_mask (copy->inner, qd_mask_copy (qd_block_get_mask (block)));
    }
  return copy;
}

/* A copy of @system with only the blocks in @only (all when NULL) and the
 * link branches between them; with @targets, only the branches whose
 * keys (qd_canvas_link_key()) it holds. */
static QdSystem *
clone_system (const QdSystem *system,
              GHashTable     *only,
              GHashTable     *targets)
{
  QdSystem *copy = qd_system_new ();

  for (guint i = 0; i < system->blocks->len; i++)
    {
      const QdBlock *block = g_ptr_array_index (system->blocks, i);

      if (only == NULL || g_hash_table_contains (only, block->id))
        qd_system_append_block (copy, clone_block (block));
    }
  for (guint i = 0; i < system->links->len; i++)
    {
      const QdLink *link = g_ptr_array_index (system->links, i);
      QdLink *clone = NULL;

      if (only != NULL && !g_hash_table_contains (only, link->src.block))
        continue;
      for (guint t = 0; t < link->targets->len; t++)
        {
          const QdLinkTarget *target = g_ptr_array_index (link->targets, t);
          QdLinkTarget *ct;

          if (only != NULL && !g_hash_table_contains (only, target->dst.block))
            continue;
          if (targets != NULL)
            {
              g_autofree char *key = qd_canvas_link_key (link, t);

              if (!g_hash_table_contains (targets, key))
                continue;
            }
          if (clone == NULL)
            clone = qd_link_new (link->id, link->src.block, link->src.port);
          ct = qd_link_add_target (clone, target->dst.block, target->dst.port);
          if (target->points != NULL && target->points->len > 0)
            g_array_append_vals (ct->points, target->points->data, target->points->len);
        }
      if (clone != NULL)
        qd_system_append_link (copy, clone);
    }
  return copy;
}

/* Links selected without blocks: LINKS_HEADER, then a diagram of them
 * and of the blocks at their ends; NULL when no link is selected. */
static char *
copy_links (QdCanvasController *self)
{
  g_autoptr(GHashTable) ends = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) targets = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                         g_free, NULL);
  g_autoptr(QdDocument) clip = NULL;
  g_autofree char *text = NULL;

  for (guint i = 0; i < self->system->links->len; i++)
    {
      QdLink *link = g_ptr_array_index (self->system->links, i);

      for (guint t = 0; t < link->targets->len; t++)
        {
          QdLinkTarget *target = g_ptr_array_index (link->targets, t);
          char *key = qd_canvas_link_key (link, t);

          if (!g_hash_table_contains (self->selection, key))
            {
              g_free (key);
              continue;
            }
          g_hash_table_add (targets, key);
          g_hash_table_add (ends, link->src.block);
          g_hash_table_add (ends, target->dst.block);
        }
    }
  if (g_hash_table_size (targets) == 0)
    return NULL;
  clip = qd_document_new ();
  qd_document_take_root (clip, clone_system (self->system, ends, targets));
  text = qd_document_to_data (clip, NULL);
  return g_strconcat (LINKS_HEADER, text, NULL);
}

char *
qd_canvas_controller_copy (QdCanvasController *self)
{
  g_autoptr(GHashTable) only = NULL;
  g_autoptr(GPtrArray) blocks = NULL;
  g_autoptr(QdDocument) clip = NULL;

  g_return_val_if_fail (QD_IS_CANVAS_CONTROLLER (self), NULL);

  if (self->system == NULL)
    return NULL;
  blocks = qd_canvas_controller_get_selected_blocks (self);
  if (blocks->len == 0)
    return copy_links (self);

  only = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < blocks->len; i++)
    g_hash_table_add (only, ((QdBlock *) g_ptr_array_index (blocks, i))->id);

  /* The clipboard holds an ordinary diagram file: readable, and pasted by
   * the same loader that opens files. */
  clip = qd_document_new ();
  qd_document_take_root (clip, clone_system (self->system, only, NULL));
  return qd_document_to_data (clip, NULL);
}

/* @name, or the first of "base 2", "base 3"... free in @system, where
 * base is @name without a number at its end. */
static char *
unique_name (QdSystem   *system,
             const char *name)
{
  g_autofree char *base = NULL;
  const char *end;

  if (qd_system_find_block_by_name (system, name) == NULL)
    return g_strdup (name);

  end = name + strlen (name);
  while (end > name && g_ascii_isdigit (end[-1]))
    end--;
  if (end > name && end < name + strlen (name) && end[-1] == ' ')
    base = g_strndup (name, end - 1 - name);
  else
    base = g_strdup (name);

  for (guint n = 2;; n++)
    {
      char *candidate = g_strdup_printf ("%s %u", base, n);

      if (qd_system_find_block_by_name (system, candidate) == NULL)
        return candidate;
      g_free (candidate);
    }
}

/* The bend points of @target, moved by @offset, on the last target of
 * @made. */
static void
paste_points (QdCanvasController *self,
              QdLink             *made,
              const QdLinkTarget *target,
              double              offset)
{
  g_autofree QdPoint *points = NULL;

  if (target->points == NULL || target->points->len == 0)
    return;
  points = g_new (QdPoint, target->points->len);
  for (guint k = 0; k < target->points->len; k++)
    {
      points[k] = g_array_index (target->points, QdPoint, k);
      points[k].x += offset;
      points[k].y += offset;
    }
  qd_document_set_link_points (self->document, made, made->targets->len - 1,
                               points, target->points->len);
}

static gboolean
paste_system (QdCanvasController *self,
              const QdSystem     *from,
              QdSystem           *into,
              double              offset,
              GPtrArray          *added,
              GError            **error)
{
  g_autoptr(GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);

  for (guint i = 0; i < from->blocks->len; i++)
    {
      const QdBlock *block = g_ptr_array_index (from->blocks, i);
      g_autofree char *name = unique_name (into, block->name);
      QdBlock *copy;

      copy = qd_document_add_block (self->document, into, block->type, name,
                                    block->x + offset, block->y + offset, error);
      if (copy == NULL)
        return FALSE;
      if (!qd_document_set_geometry (self->document, copy, copy->x, copy->y,
                                     block->width, block->height,
                                     block->rotation, block->flip, error))
        return FALSE;
      for (guint k = 0; block->params != NULL && k < block->params->len; k++)
        {
          const QdParam *param = &g_array_index (block->params, QdParam, k);

          if (!qd_document_set_param (self->document, copy, param->name,
                                      param->value, error))
            return FALSE;
        }
      if (block->inner != NULL && copy->inner != NULL &&
          !paste_system (self, block->inner, copy->inner, 0, NULL, error))
        return FALSE;
      if (qd_block_get_mask (block) != NULL
          && !qd_document_set_mask (self->document, copy, qd_block_get_mask (block), error))
        return FALSE;
      g_hash_table_insert (ids, block->id, g_strdup (copy->id));
      if (added != NULL)
        g_ptr_array_add (added, g_strdup (copy->id));
    }

  for (guint i = 0; i < from->links->len; i++)
    {
      const QdLink *link = g_ptr_array_index (from->links, i);
      const char *src = g_hash_table_lookup (ids, link->src.block);

      for (guint t = 0; t < link->targets->len; t++)
        {
          const QdLinkTarget *target = g_ptr_array_index (link->targets, t);
          const char *dst = g_hash_table_lookup (ids, target->dst.block);
          QdLink *made;

          if (src == NULL || dst == NULL)
            continue;
          made = qd_document_connect (self->document, into, src, link->src.port,
                                      dst, target->dst.port, error);
          if (made == NULL)
            return FALSE;
          paste_points (self, made, target, offset);
        }
    }
  return TRUE;
}

/* Pastes the links of @from (LINKS_HEADER's diagram) between the blocks
 * of the system shown that have their ids and types, where the input is
 * free. Their keys go to @added. When none can be, says why. */
static gboolean
paste_links (QdCanvasController *self,
             const QdSystem     *from,
             GPtrArray          *added,
             GError            **error)
{
  g_autofree char *why = NULL;

  for (guint i = 0; i < from->links->len; i++)
    {
      const QdLink *link = g_ptr_array_index (from->links, i);
      QdBlock *src = qd_system_find_block (self->system, link->src.block);
      QdBlock *src_was = qd_system_find_block ((QdSystem *) from, link->src.block);

      for (guint t = 0; t < link->targets->len; t++)
        {
          const QdLinkTarget *target = g_ptr_array_index (link->targets, t);
          QdBlock *dst = qd_system_find_block (self->system, target->dst.block);
          QdBlock *dst_was = qd_system_find_block ((QdSystem *) from, target->dst.block);
          g_autoptr(GError) local = NULL;
          QdLink *made;

          if (src == NULL || dst == NULL || src_was == NULL || dst_was == NULL
              || strcmp (src->type, src_was->type) != 0
              || strcmp (dst->type, dst_was->type) != 0)
            {
              if (why == NULL)
                why = g_strdup (_("the blocks the copied link joined are not "
                                  "here; paste it where they are, or copy it "
                                  "with its blocks"));
              continue;
            }
          if (qd_system_find_driver (self->system, dst->id, target->dst.port, NULL) != NULL)
            {
              g_autofree char *path = qd_block_get_path (dst);

              if (why == NULL)
                why = g_strdup_printf (_("input %u of %s is connected already; "
                                         "delete that link first"),
                                       target->dst.port + 1, path);
              continue;
            }
          made = qd_document_connect (self->document, self->system, src->id,
                                      link->src.port, dst->id, target->dst.port,
                                      &local);
          if (made == NULL)
            {
              if (why == NULL)
                why = g_strdup (local->message);
              continue;
            }
          paste_points (self, made, target, 0);
          g_ptr_array_add (added, qd_canvas_link_key (made, made->targets->len - 1));
        }
    }
  if (added->len == 0)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("%s: nothing pasted: %s"), _("clipboard"),
                   why != NULL ? why : _("it holds no link"));
      return FALSE;
    }
  return TRUE;
}

gboolean
qd_canvas_controller_paste (QdCanvasController  *self,
                            const char          *text,
                            GError             **error)
{
  gboolean links = g_str_has_prefix (text, LINKS_HEADER);
  const char *data = links ? text + strlen (LINKS_HEADER) : text;
  g_autoptr(QdDocument) clip = NULL;
  g_autoptr(GPtrArray) added = NULL;
  GError *local = NULL;
  QdSystem *from;
  double offset;
  gboolean ok;

  g_return_val_if_fail (QD_IS_CANVAS_CONTROLLER (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  stop_gesture (self);

  if (self->document == NULL || self->system == NULL)
    return FALSE;

  /* TRANSLATORS: the name of the clipboard in error messages */
  clip = qd_document_load_data (data, strlen (data), _("clipboard"), error);
  if (clip == NULL)
    return FALSE;
  from = qd_document_get_root (clip);
  if (from->blocks->len == 0)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("%s: the clipboard holds no blocks; copy some blocks first"),
                   _("clipboard"));
      return FALSE;
    }

  if (g_strcmp0 (self->last_paste, text) == 0)
    self->paste_count++;
  else
    {
      g_free (self->last_paste);
      self->last_paste = g_strdup (text);
      self->paste_count = 1;
    }
  offset = 20.0 * self->paste_count;

  added = g_ptr_array_new_with_free_func (g_free);
  begin (self, _("Paste"));
  if (links)
    ok = paste_links (self, from, added, &local);
  else
    ok = paste_system (self, from, self->system, offset, added, &local);
  end (self);
  if (!ok)
    {
      /* Take back the half-done paste (a refused paste of links has
       * done nothing). */
      if (!links)
        qd_document_undo (self->document);
      g_propagate_error (error, local);
      return FALSE;
    }

  g_hash_table_remove_all (self->selection);
  for (guint i = 0; i < added->len; i++)
    g_hash_table_add (self->selection, g_strdup (g_ptr_array_index (added, i)));
  /* The links among the pasted blocks are selected too. */
  for (guint i = 0; i < self->system->links->len; i++)
    {
      QdLink *link = g_ptr_array_index (self->system->links, i);

      if (!g_hash_table_contains (self->selection, link->src.block))
        continue;
      for (guint t = 0; t < link->targets->len; t++)
        {
          QdLinkTarget *target = g_ptr_array_index (link->targets, t);

          if (g_hash_table_contains (self->selection, target->dst.block))
            g_hash_table_add (self->selection, qd_canvas_link_key (link, t));
        }
    }
  selection_changed (self);
  invalidate_routes (self);
  return TRUE;
}

void
qd_canvas_controller_duplicate (QdCanvasController *self)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (QD_IS_CANVAS_CONTROLLER (self));

  text = qd_canvas_controller_copy (self);
  if (text == NULL)
    return;
  if (!qd_canvas_controller_paste (self, text, &error))
    g_signal_emit (self, signals[MESSAGE], 0, error->message);
}

gboolean
qd_canvas_controller_group (QdCanvasController *self)
{
  g_autoptr(GPtrArray) blocks = NULL;
  g_autoptr(GError) error = NULL;
  QdBlock *sub;

  g_return_val_if_fail (QD_IS_CANVAS_CONTROLLER (self), FALSE);

  stop_gesture (self);

  if (self->document == NULL)
    return FALSE;
  blocks = qd_canvas_controller_get_selected_blocks (self);
  if (blocks->len == 0)
    {
      g_autofree char *where = qd_system_get_path (self->system);

      report (self, _("%s: select the blocks to put into a subsystem first"),
              where[0] != '\0' ? where : "/");
      return FALSE;
    }
  sub = qd_document_group (self->document, (QdBlock **) blocks->pdata,
                           blocks->len, NULL, &error);
  if (sub == NULL)
    {
      g_signal_emit (self, signals[MESSAGE], 0, error->message);
      return FALSE;
    }
  qd_canvas_controller_select (self, sub->id, FALSE);
  invalidate_routes (self);
  return TRUE;
}

gboolean
qd_canvas_controller_ungroup (QdCanvasController *self)
{
  g_autoptr(GPtrArray) blocks = NULL;
  g_autoptr(GPtrArray) subsystems = g_ptr_array_new ();
  gboolean ok = TRUE;

  g_return_val_if_fail (QD_IS_CANVAS_CONTROLLER (self), FALSE);

  stop_gesture (self);

  if (self->document == NULL)
    return FALSE;
  blocks = qd_canvas_controller_get_selected_blocks (self);
  for (guint i = 0; i < blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (blocks, i);

      if (block->inner != NULL)
        g_ptr_array_add (subsystems, block);
    }
  if (subsystems->len == 0)
    {
      g_autofree char *where = qd_system_get_path (self->system);

      report (self, _("%s: select a subsystem to ungroup first"),
              where[0] != '\0' ? where : "/");
      return FALSE;
    }

  begin (self, _("Ungroup"));
  for (guint i = 0; ok && i < subsystems->len; i++)
    {
      g_autoptr(GError) error = NULL;

      if (!qd_document_ungroup (self->document, g_ptr_array_index (subsystems, i), &error))
        {
          g_signal_emit (self, signals[MESSAGE], 0, error->message);
          ok = FALSE;
        }
    }
  end (self);
  g_hash_table_remove_all (self->selection);
  selection_changed (self);
  invalidate_routes (self);
  return ok;
}

QdBlock *
qd_canvas_controller_add_block (QdCanvasController *self,
                                const char         *type,
                                double              x,
                                double              y)
{
  g_autoptr(GError) error = NULL;
  QdBlock *block;
  double nx, ny;

  g_return_val_if_fail (QD_IS_CANVAS_CONTROLLER (self), NULL);
  g_return_val_if_fail (type != NULL, NULL);

  stop_gesture (self);

  if (self->document == NULL || self->system == NULL)
    return NULL;

  begin (self, _("Add Block"));
  block = qd_document_add_block (self->document, self->system, type, NULL,
                                 qd_canvas_snap (x), qd_canvas_snap (y), &error);
  if (block != NULL)
    {
      double w, h;

      /* The type's own size, centred on the point. */
      qd_canvas_default_block_size (type, &w, &h);
      nx = qd_canvas_snap (x - w / 2);
      ny = qd_canvas_snap (y - h / 2);
      if (w != block->width || h != block->height)
        qd_document_set_geometry (self->document, block, nx, ny, w, h,
                                  block->rotation, block->flip, NULL);
      else if (nx != block->x || ny != block->y)
        qd_document_move_block (self->document, block, nx, ny);
    }
  end (self);

  if (block == NULL)
    {
      g_signal_emit (self, signals[MESSAGE], 0, error->message);
      return NULL;
    }
  qd_canvas_controller_select (self, block->id, FALSE);
  invalidate_routes (self);
  return block;
}

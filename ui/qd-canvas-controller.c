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
 *
 * This file holds the controller itself: its document and system, the
 * routes of the links and the damage it reports, the selection, its
 * signals and set-up. The gestures (press, drag, release) are in
 * qd-canvas-controller-gesture.c, the edits of the selection and the
 * clipboard in qd-canvas-controller-edit.c; what they share is in
 * qd-canvas-controller-private.h.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qd-canvas-controller-private.h"

enum
{
  PROP_0,
  PROP_SYSTEM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];
guint qd_canvas_controller_signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (QdCanvasController, qd_canvas_controller, G_TYPE_OBJECT)

/* The diagram drawn has changed (the document, the routes, the
 * selection): the canvas draws it again. */
void
qd_canvas_controller_invalidate (QdCanvasController *self)
{
  g_signal_emit (self, qd_canvas_controller_signals[INVALIDATE], 0, TRUE);
}

/* Only the feedback of the gesture has changed (the link being drawn,
 * the port under the pointer, the rubber band): the canvas can draw it
 * over the diagram it drew before. */
void
qd_canvas_controller_invalidate_feedback (QdCanvasController *self)
{
  g_signal_emit (self, qd_canvas_controller_signals[INVALIDATE], 0, FALSE);
}

void
qd_canvas_controller_add_route_damage (QdCanvasController *self,
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
        qd_canvas_controller_add_route_damage (self, g_hash_table_lookup (self->routes, key));
    }
  g_hash_table_remove_all (self->quick_keys);
  g_clear_pointer (&self->routes, g_hash_table_unref);
  g_clear_pointer (&self->routes_by_link, g_hash_table_unref);
}

void
qd_canvas_controller_invalidate_routes (QdCanvasController *self)
{
  drop_routes (self);
  qd_canvas_controller_invalidate (self);
}

GHashTable *
qd_canvas_controller_get_routes (QdCanvasController *self)
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

void
qd_canvas_controller_selection_changed (QdCanvasController *self)
{
  g_signal_emit (self, qd_canvas_controller_signals[SELECTION_CHANGED], 0);
  qd_canvas_controller_invalidate (self);
}

void G_GNUC_PRINTF (2, 3)
qd_canvas_controller_report (QdCanvasController *self,
                             const char         *format,
                             ...)
{
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, format);
  text = g_strdup_vprintf (format, args);
  va_end (args);
  g_signal_emit (self, qd_canvas_controller_signals[MESSAGE], 0, text);
}

void
qd_canvas_controller_begin (QdCanvasController *self,
                            const char         *label)
{
  if (!self->in_transaction)
    {
      qd_document_begin (self->document, label);
      self->in_transaction = TRUE;
    }
}

void
qd_canvas_controller_end (QdCanvasController *self)
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
        return strtoul (colon + 1, NULL, 10) < link->n_targets;
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
    qd_canvas_controller_selection_changed (self);
  else
    qd_canvas_controller_invalidate (self);
}

/* GObject */

void
qd_canvas_controller_reset_gesture (QdCanvasController *self)
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
      qd_canvas_controller_end (self);
      g_clear_signal_handler (&self->changed_id, self->document);
    }
  qd_canvas_controller_reset_gesture (self);
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
  qd_canvas_controller_signals[MESSAGE] =
    g_signal_new ("message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
  /* Something drawn has changed: redraw. The argument is TRUE when the
   * diagram itself changed, FALSE when only the feedback of the gesture
   * in progress did. */
  qd_canvas_controller_signals[INVALIDATE] =
    g_signal_new ("invalidate", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_BOOLEAN);
  qd_canvas_controller_signals[SELECTION_CHANGED] =
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
      qd_canvas_controller_end (self);
      g_clear_signal_handler (&self->changed_id, self->document);
    }
  qd_canvas_controller_reset_gesture (self);
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
  qd_canvas_controller_selection_changed (self);
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
  qd_canvas_controller_get_routes (self);
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
  GHashTable *routes = qd_canvas_controller_get_routes (self);

  if (routes == NULL)
    return NULL;
  if (self->routes_by_link == NULL)
    {
      self->routes_by_link = g_hash_table_new_full (NULL, NULL, NULL,
                                                    (GDestroyNotify) g_ptr_array_unref);
      for (guint i = 0; i < self->system->links->len; i++)
        {
          QdLink *l = g_ptr_array_index (self->system->links, i);
          GPtrArray *of_link = g_ptr_array_new_full (l->n_targets, NULL);

          for (guint t = 0; t < l->n_targets; t++)
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
  return qd_canvas_hit_test (self->system, qd_canvas_controller_get_routes (self), x, y,
                             self->tolerance);
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
  qd_canvas_controller_selection_changed (self);
}

void
qd_canvas_controller_clear_selection (QdCanvasController *self)
{
  g_return_if_fail (QD_IS_CANVAS_CONTROLLER (self));

  if (g_hash_table_size (self->selection) == 0)
    return;
  g_hash_table_remove_all (self->selection);
  qd_canvas_controller_selection_changed (self);
}

static void
add_link_keys (QdCanvasController *self,
               GHashTable         *set,
               const QdLink       *link)
{
  for (guint t = 0; t < link->n_targets; t++)
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
  qd_canvas_controller_selection_changed (self);
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


/* qd-canvas.c: the diagram canvas of the QDevs editor
 *
 * The widget is thin: it keeps the view (zoom and the canvas point at its
 * top-left corner), turns GTK input into canvas coordinates for the
 * controller, and draws through the Cairo renderer.
 *
 * This file holds the widget itself: its view (zoom, pan, fit), the
 * document and system it shows, the controller's signals, the public
 * setters (badges, highlight, overlay) and the GObject set-up. How it
 * draws (a cached image of the diagram, shown moved and scaled, drawn
 * again only where it changed) is in qd-canvas-cache.c; what it does
 * with the pointer and keys, its actions and context menu, in
 * qd-canvas-input.c. qd-canvas-private.h lists what they share.
 */
#include <math.h>
#include <string.h>

#include "qd-canvas-private.h"

/* How near the pointer must be to pick a port or link, in pixels. */
#define PICK_PIXELS 6.0

enum
{
  PROP_0,
  PROP_DOCUMENT,
  PROP_SYSTEM,
  PROP_ZOOM,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];
guint qd_canvas_signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (QdCanvas, qd_canvas, GTK_TYPE_WIDGET)

/* View */

void
qd_canvas_widget_to_canvas (QdCanvas *self,
                            double    wx,
                            double    wy,
                            double   *cx,
                            double   *cy)
{
  g_return_if_fail (QD_IS_CANVAS (self));

  *cx = self->origin_x + wx / self->zoom;
  *cy = self->origin_y + wy / self->zoom;
}

void
qd_canvas_canvas_to_widget (QdCanvas *self,
                            double    cx,
                            double    cy,
                            double   *wx,
                            double   *wy)
{
  g_return_if_fail (QD_IS_CANVAS (self));

  *wx = (cx - self->origin_x) * self->zoom;
  *wy = (cy - self->origin_y) * self->zoom;
}

void
qd_canvas_set_zoom (QdCanvas *self,
                    double    zoom,
                    double    anchor_x,
                    double    anchor_y)
{
  double cx, cy;

  g_return_if_fail (QD_IS_CANVAS (self));

  zoom = CLAMP (zoom, QD_CANVAS_ZOOM_MIN, QD_CANVAS_ZOOM_MAX);
  qd_canvas_widget_to_canvas (self, anchor_x, anchor_y, &cx, &cy);
  self->zoom = zoom;
  self->origin_x = cx - anchor_x / zoom;
  self->origin_y = cy - anchor_y / zoom;
  qd_canvas_controller_set_tolerance (self->controller, PICK_PIXELS / zoom);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
  qd_canvas_view_changed (self, TRUE);
}

double
qd_canvas_get_zoom (QdCanvas *self)
{
  g_return_val_if_fail (QD_IS_CANVAS (self), 1.0);

  return self->zoom;
}

void
qd_canvas_zoom_fit (QdCanvas *self)
{
  QdSystem *system;
  QdRect bounds;
  double width, height, zoom;
  double margin = 32;

  g_return_if_fail (QD_IS_CANVAS (self));

  width = gtk_widget_get_width (GTK_WIDGET (self));
  height = gtk_widget_get_height (GTK_WIDGET (self));
  if (width <= 1 || height <= 1)
    {
      /* Not laid out yet: fit when the size is known. */
      self->fit_pending = TRUE;
      return;
    }
  self->fit_pending = FALSE;

  system = qd_canvas_get_system (self);
  if (system == NULL || !qd_canvas_system_bounds (system, &bounds))
    {
      self->zoom = 1.0;
      self->origin_x = -margin;
      self->origin_y = -margin;
    }
  else
    {
      /* Include the port marks and link stubs that stick out. */
      bounds.x -= 12;
      bounds.y -= 12;
      bounds.width += 24;
      bounds.height += 24;
      zoom = MIN ((width - 2 * margin) / MAX (bounds.width, 1),
                  (height - 2 * margin) / MAX (bounds.height, 1));
      /* A small diagram is shown at a comfortable size, not blown up. */
      zoom = CLAMP (zoom, QD_CANVAS_ZOOM_MIN, 1.5);
      self->zoom = zoom;
      self->origin_x = bounds.x + bounds.width / 2 - width / 2 / zoom;
      self->origin_y = bounds.y + bounds.height / 2 - height / 2 / zoom;
    }
  self->fitted = TRUE;
  self->fit_width = width;
  self->fit_height = height;
  /* One step, not a gesture: the next frame is drawn crisp. */
  self->cache_valid = FALSE;
  qd_canvas_controller_set_tolerance (self->controller, PICK_PIXELS / self->zoom);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
  qd_canvas_view_changed (self, FALSE);
}

/* A zoom in one step (a button, a key): drawn crisp at once, where the
 * steps of a gesture or a wheel show the image scaled until they stop. */
void
qd_canvas_zoom_step (QdCanvas *self,
                     double    zoom)
{
  qd_canvas_set_zoom (self, zoom,
                      gtk_widget_get_width (GTK_WIDGET (self)) / 2.0,
                      gtk_widget_get_height (GTK_WIDGET (self)) / 2.0);
  if (!qd_canvas_cache_is_crisp (self))
    self->cache_valid = FALSE;
}

void
qd_canvas_zoom_reset (QdCanvas *self)
{
  g_return_if_fail (QD_IS_CANVAS (self));

  qd_canvas_zoom_step (self, 1.0);
}

/* Document and system */

void
qd_canvas_set_document (QdCanvas   *self,
                        QdDocument *document)
{
  g_return_if_fail (QD_IS_CANVAS (self));

  if (qd_canvas_controller_get_document (self->controller) == document)
    return;
  qd_canvas_controller_set_document (self->controller, document);
  qd_canvas_invalidate_cache (self);
  qd_canvas_zoom_fit (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

QdDocument *
qd_canvas_get_document (QdCanvas *self)
{
  g_return_val_if_fail (QD_IS_CANVAS (self), NULL);

  return qd_canvas_controller_get_document (self->controller);
}

void
qd_canvas_set_system (QdCanvas *self,
                      QdSystem *system)
{
  g_return_if_fail (QD_IS_CANVAS (self));

  qd_canvas_controller_set_system (self->controller, system);
}

QdSystem *
qd_canvas_get_system (QdCanvas *self)
{
  g_return_val_if_fail (QD_IS_CANVAS (self), NULL);

  return qd_canvas_controller_get_system (self->controller);
}

QdCanvasController *
qd_canvas_get_controller (QdCanvas *self)
{
  g_return_val_if_fail (QD_IS_CANVAS (self), NULL);

  return self->controller;
}

void
qd_canvas_reveal_block (QdCanvas *self,
                        QdBlock  *block)
{
  double width, height, x0, y0, x1, y1;
  double margin = 40;

  g_return_if_fail (QD_IS_CANVAS (self));
  g_return_if_fail (block != NULL && block->parent != NULL);

  if (qd_canvas_get_system (self) != block->parent)
    qd_canvas_set_system (self, block->parent);
  qd_canvas_controller_select (self->controller, block->id, FALSE);

  width = gtk_widget_get_width (GTK_WIDGET (self));
  height = gtk_widget_get_height (GTK_WIDGET (self));
  if (width <= 1 || height <= 1)
    return;
  /* Leave the view alone when the block (and its name) is in it; else
   * centre the block. */
  qd_canvas_canvas_to_widget (self, block->x, block->y, &x0, &y0);
  qd_canvas_canvas_to_widget (self, block->x + block->width,
                              block->y + block->height + 16, &x1, &y1);
  if (x0 >= 0 && y0 >= 0 && x1 <= width && y1 <= height)
    return;
  if (x1 - x0 > width - margin || y1 - y0 > height - margin)
    self->zoom = CLAMP (MIN ((width - margin) / (block->width + 20),
                             (height - margin) / (block->height + 36)),
                        QD_CANVAS_ZOOM_MIN, self->zoom);
  self->origin_x = block->x + block->width / 2 - width / 2 / self->zoom;
  self->origin_y = block->y + block->height / 2 - height / 2 / self->zoom;
  qd_canvas_controller_set_tolerance (self->controller, PICK_PIXELS / self->zoom);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
  qd_canvas_view_changed (self, TRUE);
  if (!qd_canvas_cache_is_crisp (self))
    self->cache_valid = FALSE;
}

QdBlock *
qd_canvas_insert_block (QdCanvas   *self,
                        const char *type)
{
  double cx, cy;

  g_return_val_if_fail (QD_IS_CANVAS (self), NULL);

  qd_canvas_widget_to_canvas (self,
                              gtk_widget_get_width (GTK_WIDGET (self)) / 2.0,
                              gtk_widget_get_height (GTK_WIDGET (self)) / 2.0,
                              &cx, &cy);
  gtk_widget_grab_focus (GTK_WIDGET (self));
  return qd_canvas_controller_add_block (self->controller, type, cx, cy);
}

/* Controller signals */

static void
on_invalidate (QdCanvas *self,
               gboolean  diagram)
{
  if (diagram)
    {
      self->cache_damaged = TRUE;
      /* An edit may change what the links carry. */
      self->widths_stale = TRUE;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_message (QdCanvas   *self,
            const char *text)
{
  g_signal_emit (self, qd_canvas_signals[MESSAGE], 0, text);
}

static void
update_actions (QdCanvas *self)
{
  QdCanvasController *c = self->controller;
  gboolean has_doc = qd_canvas_controller_get_document (c) != NULL;
  g_autoptr(GPtrArray) blocks = qd_canvas_controller_get_selected_blocks (c);
  gboolean any = g_hash_table_size (qd_canvas_controller_get_selection (c)) > 0;
  gboolean some_blocks = blocks->len > 0;
  gboolean subsystem = FALSE;
  QdSystem *system = qd_canvas_controller_get_system (c);

  for (guint i = 0; i < blocks->len; i++)
    if (((QdBlock *) g_ptr_array_index (blocks, i))->inner != NULL)
      subsystem = TRUE;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.delete",
                                 any || self->selected_note >= 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.add-note",
                                 has_doc && system != NULL && system->owner == NULL);
  /* Links alone are copied too: Paste joins the same blocks again. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.cut", any);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.copy", any);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.duplicate", some_blocks);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.paste", has_doc);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.rotate", some_blocks);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.flip", some_blocks);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.group", some_blocks);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.ungroup", subsystem);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.align", blocks->len > 1);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.select-all", has_doc);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.go-up",
                                 system != NULL && system->owner != NULL);
}

static void
on_selection_changed (QdCanvas *self)
{
  update_actions (self);
}

static void
on_system_changed (QdCanvas *self)
{
  self->widths_stale = TRUE;
  update_actions (self);
  qd_canvas_zoom_fit (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SYSTEM]);
}

/* GObject */

static void
qd_canvas_dispose (GObject *object)
{
  QdCanvas *self = QD_CANVAS (object);

  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  g_clear_pointer (&self->hover_block, g_free);
  qd_canvas_notes_drag_end (&self->note_drag);
  g_clear_pointer (&self->badges, g_hash_table_unref);
  g_clear_pointer (&self->reported, g_hash_table_unref);
  g_clear_pointer (&self->highlight, g_hash_table_unref);
  g_clear_pointer (&self->link_widths, g_hash_table_unref);
  g_clear_pointer (&self->cache, cairo_surface_destroy);
  g_clear_pointer (&self->drawn_selection, g_hash_table_unref);
  g_clear_handle_id (&self->crisp_id, g_source_remove);
  g_clear_handle_id (&self->fill_id, g_source_remove);
  qd_canvas_stop_autoscroll (self);
  if (self->controller != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->controller, self);
      qd_canvas_controller_set_document (self->controller, NULL);
    }
  g_clear_object (&self->controller);

  G_OBJECT_CLASS (qd_canvas_parent_class)->dispose (object);
}

static void
qd_canvas_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  QdCanvas *self = QD_CANVAS (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, qd_canvas_get_document (self));
      break;
    case PROP_SYSTEM:
      g_value_set_pointer (value, qd_canvas_get_system (self));
      break;
    case PROP_ZOOM:
      g_value_set_double (value, self->zoom);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
qd_canvas_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  QdCanvas *self = QD_CANVAS (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      qd_canvas_set_document (self, g_value_get_object (value));
      break;
    case PROP_ZOOM:
      qd_canvas_set_zoom (self, g_value_get_double (value),
                          gtk_widget_get_width (GTK_WIDGET (self)) / 2.0,
                          gtk_widget_get_height (GTK_WIDGET (self)) / 2.0);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
qd_canvas_class_init (QdCanvasClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = qd_canvas_dispose;
  object_class->get_property = qd_canvas_get_property;
  object_class->set_property = qd_canvas_set_property;
  widget_class->snapshot = qd_canvas_snapshot;
  widget_class->size_allocate = qd_canvas_size_allocate;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, QD_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SYSTEM] =
    g_param_spec_pointer ("system", NULL, NULL,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ZOOM] =
    g_param_spec_double ("zoom", NULL, NULL, QD_CANVAS_ZOOM_MIN, QD_CANVAS_ZOOM_MAX, 1.0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* A refused edit, to show in the window's message area. */
  qd_canvas_signals[MESSAGE] =
    g_signal_new ("message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  qd_canvas_input_class_init (widget_class);

  gtk_widget_class_set_css_name (widget_class, "qd-canvas");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
qd_canvas_init (QdCanvas *self)
{
  GtkWidget *widget = GTK_WIDGET (self);

  self->widths_stale = TRUE;

  self->zoom = 1.0;
  self->selected_note = -1;
  self->drawn_selection = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->controller = qd_canvas_controller_new ();
  qd_canvas_controller_set_tolerance (self->controller, PICK_PIXELS);
  g_signal_connect_swapped (self->controller, "invalidate", G_CALLBACK (on_invalidate), self);
  g_signal_connect_swapped (self->controller, "message", G_CALLBACK (on_message), self);
  g_signal_connect_swapped (self->controller, "selection-changed",
                            G_CALLBACK (on_selection_changed), self);
  g_signal_connect_swapped (self->controller, "notify::system",
                            G_CALLBACK (on_system_changed), self);

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_focus_on_click (widget, TRUE);
  gtk_widget_set_hexpand (widget, TRUE);
  gtk_widget_set_vexpand (widget, TRUE);
  gtk_widget_set_overflow (widget, GTK_OVERFLOW_HIDDEN);
  gtk_widget_set_has_tooltip (widget, TRUE);
  qd_canvas_input_init (self);

  update_actions (self);
}

GtkWidget *
qd_canvas_new (void)
{
  return g_object_new (QD_TYPE_CANVAS, NULL);
}

void
qd_canvas_set_block_reported (QdCanvas   *self,
                              GHashTable *reported)
{
  g_return_if_fail (QD_IS_CANVAS (self));

  if (reported != NULL)
    g_hash_table_ref (reported);
  g_clear_pointer (&self->reported, g_hash_table_unref);
  self->reported = reported;
}

void
qd_canvas_set_show_params (QdCanvas *self,
                           gboolean  show)
{
  g_return_if_fail (QD_IS_CANVAS (self));

  self->hide_params = !show;
  qd_canvas_invalidate_cache (self);
}

void
qd_canvas_set_block_badges (QdCanvas   *self,
                            GHashTable *badges)
{
  g_return_if_fail (QD_IS_CANVAS (self));

  if (badges != NULL)
    g_hash_table_ref (badges);
  g_clear_pointer (&self->badges, g_hash_table_unref);
  self->badges = badges;
  qd_canvas_invalidate_cache (self);
}

GHashTable *
qd_canvas_get_block_badges (QdCanvas *self)
{
  g_return_val_if_fail (QD_IS_CANVAS (self), NULL);

  return self->badges;
}

void
qd_canvas_set_highlight (QdCanvas   *canvas,
                         GHashTable *block_ids)
{
  g_return_if_fail (QD_IS_CANVAS (canvas));

  if (block_ids != NULL)
    g_hash_table_ref (block_ids);
  g_clear_pointer (&canvas->highlight, g_hash_table_unref);
  canvas->highlight = block_ids;
  qd_canvas_invalidate_cache (canvas);
}

GHashTable *
qd_canvas_get_highlight (QdCanvas *canvas)
{
  g_return_val_if_fail (QD_IS_CANVAS (canvas), NULL);

  return canvas->highlight;
}

GMenu *
qd_canvas_get_context_menu (QdCanvas *self)
{
  g_return_val_if_fail (QD_IS_CANVAS (self), NULL);

  return G_MENU (gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (self->context_menu)));
}

void
qd_canvas_set_overlay (QdCanvas            *self,
                       QdCanvasOverlayFunc  func,
                       gpointer             user_data)
{
  g_return_if_fail (QD_IS_CANVAS (self));

  self->overlay_func = func;
  self->overlay_data = user_data;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
qd_canvas_queue_overlay (QdCanvas *self)
{
  g_return_if_fail (QD_IS_CANVAS (self));

  gtk_widget_queue_draw (GTK_WIDGET (self));
}

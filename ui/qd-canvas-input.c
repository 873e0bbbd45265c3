/* qd-canvas-input.c: what the canvas does with the pointer and keys
 *
 * GTK's gestures and event controllers turned into canvas coordinates
 * for the controller: dragging (with autoscroll near the edges), clicks,
 * middle-button panning, pinch and wheel zoom, the hover's port ring and
 * tooltips, palette blocks dropped on the canvas, the clipboard, the
 * canvas.* actions with their key bindings, and the context menu. The
 * widget's state and view are in qd-canvas.c, its drawing in
 * qd-canvas-cache.c.
 */
#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#include "qd-canvas-private.h"

/* Input */

static QdCanvasModifiers
current_modifiers (GtkEventController *controller)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (controller);
  QdCanvasModifiers modifiers = QD_CANVAS_MODIFIER_NONE;

  if (state & GDK_SHIFT_MASK)
    modifiers |= QD_CANVAS_MODIFIER_SHIFT;
  if (state & GDK_CONTROL_MASK)
    modifiers |= QD_CANVAS_MODIFIER_CONTROL;
  return modifiers;
}

/* Dragging near an edge scrolls the view, so a block can be moved or a
 * link drawn to a place outside it. */
#define AUTOSCROLL_EDGE 24.0

static gboolean
autoscroll_tick (GtkWidget     *widget,
                 GdkFrameClock *clock,
                 gpointer       user_data)
{
  QdCanvas *self = QD_CANVAS (widget);
  QdCanvasMode mode = qd_canvas_controller_get_mode (self->controller);
  double cx, cy;

  if (mode == QD_CANVAS_MODE_IDLE || mode == QD_CANVAS_MODE_PRESSED ||
      (self->scroll_dx == 0 && self->scroll_dy == 0))
    {
      self->autoscroll_id = 0;
      return G_SOURCE_REMOVE;
    }
  self->origin_x += self->scroll_dx / self->zoom;
  self->origin_y += self->scroll_dy / self->zoom;
  qd_canvas_widget_to_canvas (self, self->drag_x, self->drag_y, &cx, &cy);
  qd_canvas_controller_drag (self->controller, cx, cy);
  qd_canvas_view_changed (self, TRUE);
  return G_SOURCE_CONTINUE;
}

static double
edge_speed (double position,
            double size)
{
  /* Faster the further into the edge band (or past it). */
  if (position < AUTOSCROLL_EDGE)
    return -MIN (AUTOSCROLL_EDGE - position, 3 * AUTOSCROLL_EDGE) / 2;
  if (position > size - AUTOSCROLL_EDGE)
    return MIN (position - (size - AUTOSCROLL_EDGE), 3 * AUTOSCROLL_EDGE) / 2;
  return 0;
}

static void
update_autoscroll (QdCanvas *self)
{
  QdCanvasMode mode = qd_canvas_controller_get_mode (self->controller);
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double height = gtk_widget_get_height (GTK_WIDGET (self));

  if (mode == QD_CANVAS_MODE_IDLE || mode == QD_CANVAS_MODE_PRESSED)
    self->scroll_dx = self->scroll_dy = 0;
  else
    {
      self->scroll_dx = edge_speed (self->drag_x, width);
      self->scroll_dy = edge_speed (self->drag_y, height);
    }
  if ((self->scroll_dx != 0 || self->scroll_dy != 0) && self->autoscroll_id == 0)
    self->autoscroll_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), autoscroll_tick,
                                                        NULL, NULL);
}

void
qd_canvas_stop_autoscroll (QdCanvas *self)
{
  self->scroll_dx = self->scroll_dy = 0;
  if (self->autoscroll_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->autoscroll_id);
      self->autoscroll_id = 0;
    }
}

static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               QdCanvas       *self)
{
  double cx, cy;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->drag_start_x = x;
  self->drag_start_y = y;
  qd_canvas_widget_to_canvas (self, x, y, &cx, &cy);
  /* Notes are drawn over the blocks: a press on one takes it. */
  if (qd_canvas_notes_drag_begin (&self->note_drag, qd_canvas_get_document (self),
                                  qd_canvas_get_notes (self), cx, cy))
    return;
  qd_canvas_controller_press (self->controller, cx, cy,
                              current_modifiers (GTK_EVENT_CONTROLLER (gesture)));
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                QdCanvas       *self)
{
  double cx, cy;

  self->drag_x = self->drag_start_x + dx;
  self->drag_y = self->drag_start_y + dy;
  qd_canvas_widget_to_canvas (self, self->drag_x, self->drag_y, &cx, &cy);
  if (self->note_drag.document != NULL)
    {
      qd_canvas_notes_drag_update (&self->note_drag, cx, cy);
      return;
    }
  qd_canvas_controller_drag (self->controller, cx, cy);
  update_autoscroll (self);
}

static void
on_drag_end (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             QdCanvas       *self)
{
  double cx, cy;

  qd_canvas_stop_autoscroll (self);
  qd_canvas_widget_to_canvas (self, self->drag_start_x + dx, self->drag_start_y + dy,
                              &cx, &cy);
  if (self->note_drag.document != NULL)
    {
      qd_canvas_notes_drag_update (&self->note_drag, cx, cy);
      qd_canvas_notes_drag_end (&self->note_drag);
      return;
    }
  qd_canvas_controller_release (self->controller, cx, cy);
}

static void
on_drag_cancel (GtkGesture       *gesture,
                GdkEventSequence *sequence,
                QdCanvas         *self)
{
  qd_canvas_stop_autoscroll (self);
  qd_canvas_notes_drag_end (&self->note_drag);
  qd_canvas_controller_cancel (self->controller);
}

static void
on_click_pressed (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  QdCanvas        *self)
{
  double cx, cy;
  int note;

  qd_canvas_widget_to_canvas (self, x, y, &cx, &cy);
  /* A note is selected by a click and edited by a double click. */
  note = qd_canvas_note_at (qd_canvas_get_notes (self), cx, cy);
  qd_canvas_select_note (self, note);
  if (n_press != 2)
    return;
  if (note >= 0)
    qd_canvas_notes_edit (GTK_WIDGET (self), qd_canvas_get_document (self), (guint) note);
  else
    qd_canvas_controller_activate (self->controller, cx, cy);
}

static void
on_pan_begin (GtkGestureDrag *gesture,
              double          x,
              double          y,
              QdCanvas       *self)
{
  self->pan_origin_x = self->origin_x;
  self->pan_origin_y = self->origin_y;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "grabbing");
}

static void
on_pan_update (GtkGestureDrag *gesture,
               double          dx,
               double          dy,
               QdCanvas       *self)
{
  self->origin_x = self->pan_origin_x - dx / self->zoom;
  self->origin_y = self->pan_origin_y - dy / self->zoom;
  qd_canvas_view_changed (self, TRUE);
}

static void
on_pan_end (GtkGestureDrag *gesture,
            double          dx,
            double          dy,
            QdCanvas       *self)
{
  gtk_widget_set_cursor (GTK_WIDGET (self), NULL);
}

static void
popup_context_menu (QdCanvas *self,
                    double    x,
                    double    y)
{
  gtk_popover_set_pointing_to (GTK_POPOVER (self->context_menu),
                               &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->context_menu));
  /* A tooltip shown before the click would stay over the menu: ask
   * again, and the open menu says no. */
  gtk_widget_trigger_tooltip_query (GTK_WIDGET (self));
}

/* The menu closed (an item chosen, Escape, a click outside): the
 * keyboard comes back to the canvas if it was left in the menu. GTK
 * leaves it on the item of a submenu (Align), hidden with the menu, so
 * that no shortcut would reach the canvas until it is clicked. An item
 * that sends the keyboard elsewhere (Rename, Properties) does so after
 * this. */
static void
on_context_menu_closed (QdCanvas *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  /* Not while the canvas goes (dispose takes the menu away first). */
  if (root != NULL && self->context_menu != NULL
      && (focus == NULL || gtk_widget_is_ancestor (focus, self->context_menu)))
    gtk_widget_grab_focus (GTK_WIDGET (self));
}

/* The Menu key and Shift+F10: the context menu of the selection, from
 * the keyboard. */
static void
popup_context_menu_from_keyboard (QdCanvas *self)
{
  g_autoptr(GPtrArray) blocks = qd_canvas_controller_get_selected_blocks (self->controller);
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double height = gtk_widget_get_height (GTK_WIDGET (self));
  double x = width / 2, y = height / 2;

  if (qd_canvas_get_system (self) == NULL)
    return;
  if (blocks->len > 0)
    {
      QdBlock *block = g_ptr_array_index (blocks, 0);

      qd_canvas_canvas_to_widget (self, block->x + block->width / 2,
                                  block->y + block->height / 2, &x, &y);
    }
  popup_context_menu (self, CLAMP (x, 0, MAX (width - 1, 0)), CLAMP (y, 0, MAX (height - 1, 0)));
}

static void
on_context_pressed (GtkGestureClick *gesture,
                    int              n_press,
                    double           x,
                    double           y,
                    QdCanvas        *self)
{
  QdSystem *system = qd_canvas_get_system (self);
  double cx, cy;

  if (system == NULL)
    return;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  qd_canvas_widget_to_canvas (self, x, y, &cx, &cy);
  /* The menu acts on what was clicked: a block, a link, or the model
   * itself over empty space. */
  qd_canvas_controller_context_press (self->controller, cx, cy);
  self->context_x = cx;
  self->context_y = cy;
  qd_canvas_select_note (self, qd_canvas_note_at (qd_canvas_get_notes (self), cx, cy));

  popup_context_menu (self, x, y);
}

static void
on_leave (GtkEventControllerMotion *motion,
          QdCanvas                 *self)
{
  if (self->hover_block != NULL)
    {
      g_clear_pointer (&self->hover_block, g_free);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

/* Tooltips give a block's documentation, which may be a paragraph:
 * wrapped at a width that reads well and fits any screen. */
#define TOOLTIP_WIDTH_CHARS 60

GtkWidget *
qd_canvas_create_tooltip (QdCanvas *self,
                          double    x,
                          double    y)
{
  const QdBlockType *type;
  g_autofree char *text = NULL;
  GtkWidget *label;
  double cx, cy;
  QdCanvasHit hit;

  g_return_val_if_fail (QD_IS_CANVAS (self), NULL);

  /* Over the open context menu a tooltip would hide its items. */
  if (qd_canvas_get_system (self) == NULL ||
      gtk_widget_get_visible (self->context_menu) ||
      qd_canvas_controller_get_mode (self->controller) != QD_CANVAS_MODE_IDLE)
    return NULL;
  qd_canvas_widget_to_canvas (self, x, y, &cx, &cy);
  hit = qd_canvas_controller_hit_test (self->controller, cx, cy);
  if (hit.kind != QD_CANVAS_HIT_BLOCK && hit.kind != QD_CANVAS_HIT_PORT)
    return NULL;
  type = qd_block_get_type_info (hit.block);

  /* What it is and, on a port, which one: enough to wire without
   * opening the documentation. */
  if (hit.kind == QD_CANVAS_HIT_PORT)
    text = g_markup_printf_escaped (hit.port_kind == QD_CANVAS_PORT_INPUT
                                    ? _("<b>%s</b>: input %u") : _("<b>%s</b>: output %u"),
                                    hit.block->name, hit.port + 1);
  else if (type != NULL)
    text = g_markup_printf_escaped ("<b>%s</b> (%s)\n%s", hit.block->name, _(type->name),
                                    type->doc != NULL ? _(type->doc) : "");
  else
    text = g_markup_printf_escaped (_("<b>%s</b>: unknown block type “%s”"),
                                    hit.block->name, hit.block->type);
  /* After a run, what the block reported about it. */
  if (hit.kind == QD_CANVAS_HIT_BLOCK && self->reported != NULL
      && g_hash_table_contains (self->reported, hit.block->id))
    {
      g_autofree char *plain = g_steal_pointer (&text);
      /* TRANSLATORS: tooltip heading over a block's own statistics. */
      g_autofree char *results = g_markup_printf_escaped (_("<b>Last run</b>\n%s"),
                                                          (const char *) g_hash_table_lookup (self->reported,
                                                                                              hit.block->id));

      text = g_strconcat (plain, "\n\n", results, NULL);
    }

  label = gtk_label_new (NULL);
  gtk_label_set_markup (GTK_LABEL (label), text);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), TOOLTIP_WIDTH_CHARS);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  return label;
}

static gboolean
on_query_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  QdCanvas   *self)
{
  GtkWidget *label;

  if (keyboard)
    return FALSE;
  label = qd_canvas_create_tooltip (self, x, y);
  if (label == NULL)
    return FALSE;
  gtk_tooltip_set_custom (tooltip, label);
  return TRUE;
}

static void
on_motion (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           QdCanvas                 *self)
{
  QdSystem *system = qd_canvas_get_system (self);
  const char *cursor = NULL;
  double cx, cy;
  QdCanvasHit hit;

  self->pointer_x = x;
  self->pointer_y = y;
  if (system == NULL || qd_canvas_controller_get_mode (self->controller) != QD_CANVAS_MODE_IDLE)
    {
      g_clear_pointer (&self->hover_block, g_free);
      return;
    }

  /* The cursor says what a press here would do. */
  qd_canvas_widget_to_canvas (self, x, y, &cx, &cy);
  hit = qd_canvas_controller_hit_test (self->controller, cx, cy);
  if (hit.kind == QD_CANVAS_HIT_PORT)
    {
      if (g_strcmp0 (self->hover_block, hit.block->id) != 0 ||
          self->hover_kind != hit.port_kind || self->hover_port != hit.port)
        {
          g_free (self->hover_block);
          self->hover_block = g_strdup (hit.block->id);
          self->hover_kind = hit.port_kind;
          self->hover_port = hit.port;
          gtk_widget_queue_draw (GTK_WIDGET (self));
        }
    }
  else if (self->hover_block != NULL)
    {
      g_clear_pointer (&self->hover_block, g_free);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }

  switch (hit.kind)
    {
    case QD_CANVAS_HIT_PORT:
      cursor = "crosshair";
      break;
    case QD_CANVAS_HIT_BEND:
      cursor = "move";
      break;
    case QD_CANVAS_HIT_LINK:
      {
        g_autoptr(GArray) route = qd_canvas_controller_get_route (self->controller,
                                                                  hit.link, hit.target);

        if (hit.index + 1 < route->len)
          {
            QdPoint a = g_array_index (route, QdPoint, hit.index);
            QdPoint b = g_array_index (route, QdPoint, hit.index + 1);

            cursor = fabs (a.y - b.y) < 1e-6 ? "row-resize" : "col-resize";
          }
      }
      break;
    case QD_CANVAS_HIT_BLOCK:
    case QD_CANVAS_HIT_NONE:
    default:
      break;
    }
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), cursor);
}

static gboolean
on_scroll (GtkEventControllerScroll *scroll,
           double                    dx,
           double                    dy,
           QdCanvas                 *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));
  double step = 1.0;

  if (gtk_event_controller_scroll_get_unit (scroll) == GDK_SCROLL_UNIT_WHEEL)
    step = 40.0;

  if (state & GDK_CONTROL_MASK)
    {
      /* Zoom around the pointer: the point under it stays under it. */
      double factor = pow (1.1, -dy * (step > 1 ? 1.0 : 0.1));

      qd_canvas_set_zoom (self, self->zoom * factor, self->pointer_x, self->pointer_y);
      return TRUE;
    }
  if (state & GDK_SHIFT_MASK && dx == 0)
    {
      dx = dy;
      dy = 0;
    }
  self->origin_x += dx * step / self->zoom;
  self->origin_y += dy * step / self->zoom;
  qd_canvas_view_changed (self, TRUE);
  return TRUE;
}

static void
on_pinch_begin (GtkGesture       *gesture,
                GdkEventSequence *sequence,
                QdCanvas         *self)
{
  self->pinch_zoom = self->zoom;
}

static void
on_pinch_scale_changed (GtkGestureZoom *gesture,
                        double          scale,
                        QdCanvas       *self)
{
  double x, y;

  if (!gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &x, &y))
    {
      x = gtk_widget_get_width (GTK_WIDGET (self)) / 2.0;
      y = gtk_widget_get_height (GTK_WIDGET (self)) / 2.0;
    }
  qd_canvas_set_zoom (self, self->pinch_zoom * scale, x, y);
}

static GdkDragAction
on_drop_motion (GtkDropTarget *target,
                double         x,
                double         y,
                QdCanvas      *self)
{
  const GValue *value = gtk_drop_target_get_value (target);
  const char *type = NULL;
  double cx, cy, w, h;

  if (value != NULL && G_VALUE_HOLDS_STRING (value))
    type = g_value_get_string (value);
  if (type == NULL || qd_registry_lookup (type) == NULL ||
      qd_canvas_get_system (self) == NULL)
    {
      self->has_ghost = FALSE;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return 0;
    }

  /* The size the drop will give it. */
  qd_canvas_default_block_size (type, &w, &h);
  qd_canvas_widget_to_canvas (self, x, y, &cx, &cy);
  self->ghost.width = w;
  self->ghost.height = h;
  self->ghost.x = qd_canvas_snap (cx - w / 2);
  self->ghost.y = qd_canvas_snap (cy - h / 2);
  self->has_ghost = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return GDK_ACTION_COPY;
}

static void
on_drop_leave (GtkDropTarget *target,
               QdCanvas      *self)
{
  self->has_ghost = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
on_drop (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         QdCanvas      *self)
{
  const char *type;
  double cx, cy;

  self->has_ghost = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (!G_VALUE_HOLDS_STRING (value) || qd_canvas_get_system (self) == NULL)
    return FALSE;
  type = g_value_get_string (value);
  if (type == NULL || qd_registry_lookup (type) == NULL)
    return FALSE;
  qd_canvas_widget_to_canvas (self, x, y, &cx, &cy);
  gtk_widget_grab_focus (GTK_WIDGET (self));
  return qd_canvas_controller_add_block (self->controller, type, cx, cy) != NULL;
}

/* Actions */

static void
clipboard_copy (QdCanvas *self)
{
  g_autofree char *text = qd_canvas_controller_copy (self->controller);

  if (text != NULL)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
}

static void
on_clipboard_text (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(QdCanvas) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, &error);

  if (text == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_signal_emit (self, qd_canvas_signals[MESSAGE], 0,
                       _("clipboard: there is no diagram text to paste; copy some blocks first"));
      return;
    }
  if (!qd_canvas_controller_paste (self->controller, text, &error))
    g_signal_emit (self, qd_canvas_signals[MESSAGE], 0, error->message);
}

static void
action_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  QdCanvas *self = QD_CANVAS (widget);
  QdCanvasController *c = self->controller;
  const char *name = action_name + strlen ("canvas.");

  if (g_str_equal (name, "select-all"))
    qd_canvas_controller_select_all (c);
  else if (g_str_equal (name, "delete") && self->selected_note >= 0)
    {
      qd_document_remove_note (qd_canvas_get_document (self), (guint) self->selected_note);
      qd_canvas_select_note (self, -1);
    }
  else if (g_str_equal (name, "delete"))
    qd_canvas_controller_delete_selection (c);
  else if (g_str_equal (name, "add-note"))
    {
      QdDocument *document = qd_canvas_get_document (self);
      guint index = qd_document_add_note (document, self->context_x, self->context_y,
                                          _("Note"));

      qd_canvas_select_note (self, (int) index);
      qd_canvas_notes_edit (widget, document, index);
    }
  else if (g_str_equal (name, "copy"))
    clipboard_copy (self);
  else if (g_str_equal (name, "cut"))
    {
      clipboard_copy (self);
      qd_canvas_controller_delete_selection (c);
    }
  else if (g_str_equal (name, "paste"))
    gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL,
                                   on_clipboard_text, g_object_ref (self));
  else if (g_str_equal (name, "duplicate"))
    qd_canvas_controller_duplicate (c);
  else if (g_str_equal (name, "rotate"))
    qd_canvas_controller_rotate_selection (c);
  else if (g_str_equal (name, "flip"))
    qd_canvas_controller_flip_selection (c);
  else if (g_str_equal (name, "group"))
    qd_canvas_controller_group (c);
  else if (g_str_equal (name, "ungroup"))
    qd_canvas_controller_ungroup (c);
  else if (g_str_equal (name, "zoom-in"))
    qd_canvas_zoom_step (self, self->zoom * 1.25);
  else if (g_str_equal (name, "zoom-out"))
    qd_canvas_zoom_step (self, self->zoom / 1.25);
  else if (g_str_equal (name, "zoom-fit"))
    qd_canvas_zoom_fit (self);
  else if (g_str_equal (name, "context-menu"))
    popup_context_menu_from_keyboard (self);
  else if (g_str_equal (name, "zoom-100"))
    qd_canvas_zoom_reset (self);
  else if (g_str_equal (name, "go-up"))
    {
      QdSystem *system = qd_canvas_get_system (self);

      if (system != NULL && system->owner != NULL)
        qd_canvas_set_system (self, system->owner->parent);
    }
  else if (g_str_equal (name, "align"))
    {
      const char *how = g_variant_get_string (parameter, NULL);
      static const struct { const char *name; QdCanvasAlign align; } aligns[] = {
        { "left", QD_CANVAS_ALIGN_LEFT },
        { "right", QD_CANVAS_ALIGN_RIGHT },
        { "top", QD_CANVAS_ALIGN_TOP },
        { "bottom", QD_CANVAS_ALIGN_BOTTOM },
        { "center", QD_CANVAS_ALIGN_CENTER },
        { "middle", QD_CANVAS_ALIGN_MIDDLE },
      };

      for (guint i = 0; i < G_N_ELEMENTS (aligns); i++)
        if (g_str_equal (how, aligns[i].name))
          qd_canvas_controller_align_selection (c, aligns[i].align);
    }
}

static gboolean
nudge_shortcut (GtkWidget *widget,
                GVariant  *args,
                gpointer   user_data)
{
  QdCanvas *self = QD_CANVAS (widget);
  double dx, dy;
  gboolean snap;

  g_variant_get (args, "(ddb)", &dx, &dy, &snap);
  qd_canvas_controller_nudge (self->controller, dx, dy, snap);
  return TRUE;
}

static gboolean
escape_shortcut (GtkWidget *widget,
                 GVariant  *args,
                 gpointer   user_data)
{
  QdCanvas *self = QD_CANVAS (widget);

  if (!qd_canvas_cancel_gesture (self))
    qd_canvas_controller_clear_selection (self->controller);
  return TRUE;
}

/* Takes back the drag in progress, if any (Escape, or an undo with the
 * button still down): what it did so far is undone and the rest of it
 * is ignored. Returns whether there was one. */
gboolean
qd_canvas_cancel_gesture (QdCanvas *self)
{
  g_return_val_if_fail (QD_IS_CANVAS (self), FALSE);

  if (qd_canvas_controller_get_mode (self->controller) == QD_CANVAS_MODE_IDLE)
    return FALSE;
  gtk_event_controller_reset (GTK_EVENT_CONTROLLER (self->drag));
  qd_canvas_controller_cancel (self->controller);
  return TRUE;
}

gboolean
qd_canvas_is_settled (QdCanvas *self)
{
  g_return_val_if_fail (QD_IS_CANVAS (self), FALSE);

  return self->crisp_id == 0 && self->fill_id == 0;
}

static GMenuModel *
create_context_menu_model (void)
{
  GMenu *menu = g_menu_new ();
  GMenu *section;
  GMenu *align;

  section = g_menu_new ();
  g_menu_append (section, _("Cu_t"), "canvas.cut");
  g_menu_append (section, _("_Copy"), "canvas.copy");
  g_menu_append (section, _("_Paste"), "canvas.paste");
  g_menu_append (section, _("_Duplicate"), "canvas.duplicate");
  g_menu_append (section, _("De_lete"), "canvas.delete");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_object_unref (section);

  section = g_menu_new ();
  g_menu_append (section, _("_Rotate"), "canvas.rotate");
  g_menu_append (section, _("_Flip"), "canvas.flip");
  align = g_menu_new ();
  g_menu_append (align, _("_Left"), "canvas.align::left");
  g_menu_append (align, _("_Center"), "canvas.align::center");
  g_menu_append (align, _("_Right"), "canvas.align::right");
  g_menu_append (align, _("_Top"), "canvas.align::top");
  g_menu_append (align, _("_Middle"), "canvas.align::middle");
  g_menu_append (align, _("_Bottom"), "canvas.align::bottom");
  g_menu_append_submenu (section, _("_Align"), G_MENU_MODEL (align));
  g_object_unref (align);
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_object_unref (section);

  section = g_menu_new ();
  g_menu_append (section, _("Create _Subsystem"), "canvas.group");
  g_menu_append (section, _("_Ungroup"), "canvas.ungroup");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_object_unref (section);

  section = g_menu_new ();
  g_menu_append (section, _("Add _Note"), "canvas.add-note");
  g_menu_append (section, _("Select _All"), "canvas.select-all");
  g_menu_append (section, _("_Zoom to Fit"), "canvas.zoom-fit");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_object_unref (section);

  return G_MENU_MODEL (menu);
}


static void
add_binding_action (GtkWidgetClass  *widget_class,
                    guint            keyval,
                    GdkModifierType  mods,
                    const char      *action)
{
  gtk_widget_class_add_binding_action (widget_class, keyval, mods, action, NULL);
}

/* Set-up */

/* The canvas.* actions and their keys, from the canvas's class_init. */
void
qd_canvas_input_class_init (GtkWidgetClass *widget_class)
{
  static const char *const plain_actions[] = {
    "canvas.select-all", "canvas.delete", "canvas.cut", "canvas.copy",
    "canvas.paste", "canvas.duplicate", "canvas.rotate", "canvas.flip",
    "canvas.group", "canvas.ungroup", "canvas.zoom-in", "canvas.zoom-out",
    "canvas.zoom-fit", "canvas.zoom-100", "canvas.go-up", "canvas.context-menu",
    "canvas.add-note",
  };
  static const struct
  {
    guint keyval;
    double dx, dy;
  } arrows[] = {
    { GDK_KEY_Left, -1, 0 }, { GDK_KEY_Right, 1, 0 },
    { GDK_KEY_Up, 0, -1 }, { GDK_KEY_Down, 0, 1 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (plain_actions); i++)
    gtk_widget_class_install_action (widget_class, plain_actions[i], NULL, action_activated);
  gtk_widget_class_install_action (widget_class, "canvas.align", "s", action_activated);

  /* Menus show the last binding of an action: alternatives go first. */
  add_binding_action (widget_class, GDK_KEY_a, GDK_CONTROL_MASK, "canvas.select-all");
  add_binding_action (widget_class, GDK_KEY_BackSpace, 0, "canvas.delete");
  add_binding_action (widget_class, GDK_KEY_KP_Delete, 0, "canvas.delete");
  add_binding_action (widget_class, GDK_KEY_Delete, 0, "canvas.delete");
  add_binding_action (widget_class, GDK_KEY_x, GDK_CONTROL_MASK, "canvas.cut");
  add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "canvas.copy");
  add_binding_action (widget_class, GDK_KEY_v, GDK_CONTROL_MASK, "canvas.paste");
  add_binding_action (widget_class, GDK_KEY_d, GDK_CONTROL_MASK, "canvas.duplicate");
  add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "canvas.rotate");
  add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "canvas.flip");
  add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK, "canvas.group");
  add_binding_action (widget_class, GDK_KEY_G, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "canvas.ungroup");
  add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "canvas.ungroup");
  add_binding_action (widget_class, GDK_KEY_plus, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "canvas.zoom-in");
  add_binding_action (widget_class, GDK_KEY_equal, GDK_CONTROL_MASK, "canvas.zoom-in");
  add_binding_action (widget_class, GDK_KEY_KP_Add, GDK_CONTROL_MASK, "canvas.zoom-in");
  add_binding_action (widget_class, GDK_KEY_plus, GDK_CONTROL_MASK, "canvas.zoom-in");
  add_binding_action (widget_class, GDK_KEY_KP_Subtract, GDK_CONTROL_MASK, "canvas.zoom-out");
  add_binding_action (widget_class, GDK_KEY_minus, GDK_CONTROL_MASK, "canvas.zoom-out");
  add_binding_action (widget_class, GDK_KEY_KP_0, GDK_CONTROL_MASK, "canvas.zoom-fit");
  add_binding_action (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "canvas.zoom-fit");
  add_binding_action (widget_class, GDK_KEY_KP_1, GDK_CONTROL_MASK, "canvas.zoom-100");
  add_binding_action (widget_class, GDK_KEY_1, GDK_CONTROL_MASK, "canvas.zoom-100");
  add_binding_action (widget_class, GDK_KEY_Up, GDK_ALT_MASK, "canvas.go-up");
  add_binding_action (widget_class, GDK_KEY_Menu, 0, "canvas.context-menu");
  add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "canvas.context-menu");

  for (guint i = 0; i < G_N_ELEMENTS (arrows); i++)
    {
      /* An arrow steps to the next grid line; with Shift, one unit. */
      gtk_widget_class_add_binding (widget_class, arrows[i].keyval, 0,
                                    nudge_shortcut, "(ddb)",
                                    arrows[i].dx * QD_CANVAS_GRID,
                                    arrows[i].dy * QD_CANVAS_GRID, TRUE);
      gtk_widget_class_add_binding (widget_class, arrows[i].keyval, GDK_SHIFT_MASK,
                                    nudge_shortcut, "(ddb)",
                                    arrows[i].dx, arrows[i].dy, FALSE);
    }
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Escape, 0, escape_shortcut, NULL);
}

/* The gestures, event controllers, drop target and context menu of a new
 * canvas. */
void
qd_canvas_input_init (QdCanvas *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkEventController *controller;
  GtkGesture *gesture;
  GtkDropTarget *drop;
  g_autoptr(GMenuModel) menu = NULL;

  g_signal_connect (widget, "query-tooltip", G_CALLBACK (on_query_tooltip), self);

  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (on_drag_end), self);
  g_signal_connect (gesture, "cancel", G_CALLBACK (on_drag_cancel), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));
  self->drag = gesture;

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  g_signal_connect (gesture, "pressed", G_CALLBACK (on_click_pressed), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_SECONDARY);
  g_signal_connect (gesture, "pressed", G_CALLBACK (on_context_pressed), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_MIDDLE);
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (on_pan_begin), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (on_pan_update), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (on_pan_end), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_zoom_new ();
  g_signal_connect (gesture, "begin", G_CALLBACK (on_pinch_begin), self);
  g_signal_connect (gesture, "scale-changed", G_CALLBACK (on_pinch_scale_changed), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (controller, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (widget, controller);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (widget, controller);

  drop = gtk_drop_target_new (G_TYPE_STRING, GDK_ACTION_COPY);
  /* The value is wanted before the drop, to show where the block goes. */
  gtk_drop_target_set_preload (drop, TRUE);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  g_signal_connect (drop, "motion", G_CALLBACK (on_drop_motion), self);
  g_signal_connect (drop, "enter", G_CALLBACK (on_drop_motion), self);
  g_signal_connect (drop, "leave", G_CALLBACK (on_drop_leave), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (drop));

  menu = create_context_menu_model ();
  self->context_menu = gtk_popover_menu_new_from_model (menu);
  gtk_widget_set_parent (self->context_menu, widget);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->context_menu), FALSE);
  gtk_widget_set_halign (self->context_menu, GTK_ALIGN_START);
  g_signal_connect_swapped (self->context_menu, "closed",
                            G_CALLBACK (on_context_menu_closed), self);
}

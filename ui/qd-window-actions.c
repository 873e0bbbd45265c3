/* qd-window-actions.c: the main window's editing actions
 *
 * Undo and Redo; what other block-diagram editors have on their canvas:
 * Open Subsystem, Rename (F2) and Properties in its context menu, a
 * double-click on a block that goes to its parameters in the inspector;
 * the selection shown in the inspector; View ▸ Block Parameters.
 */
#include <glib/gi18n-lib.h>
#include <math.h>

#include "qd-mask-dialog.h"
#include "qd-window-private.h"

/* Undo and Redo */

void
qd_window_update_undo_actions (QdWindow *self)
{
  GAction *undo = g_action_map_lookup_action (G_ACTION_MAP (self), "undo");
  GAction *redo = g_action_map_lookup_action (G_ACTION_MAP (self), "redo");

  g_simple_action_set_enabled (G_SIMPLE_ACTION (undo),
                               self->document != NULL && qd_document_can_undo (self->document));
  g_simple_action_set_enabled (G_SIMPLE_ACTION (redo),
                               self->document != NULL && qd_document_can_redo (self->document));
}

void
qd_window_undo_activated (GSimpleAction *action,
                          GVariant      *parameter,
                          gpointer       user_data)
{
  QdWindow *self = user_data;

  /* With the button still down, Ctrl+Z takes back the drag, as Escape
   * does: undoing a step under it would take away what it holds (the
   * branch it bends) while the rest of the drag went on. */
  if (qd_canvas_cancel_gesture (self->canvas))
    return;
  if (self->document != NULL)
    qd_document_undo (self->document);
}

void
qd_window_redo_activated (GSimpleAction *action,
                          GVariant      *parameter,
                          gpointer       user_data)
{
  QdWindow *self = user_data;

  if (qd_canvas_cancel_gesture (self->canvas))
    return;
  if (self->document != NULL)
    qd_document_redo (self->document);
}


void
qd_window_on_selection_changed (QdWindow *self)
{
  g_autoptr(GPtrArray) blocks = NULL;

  /* The canvas may clear its selection while the window is disposed. */
  if (self->canvas == NULL || self->inspector == NULL)
    return;
  blocks = qd_canvas_controller_get_selected_blocks (qd_canvas_get_controller (self->canvas));
  qd_inspector_set_selection (self->inspector, blocks);
  qd_window_update_selection_actions (self);
}

/* Open, Rename and Properties: what Simulink, Xcos and PowerDEVS users
 * reach by double-clicking a block or from its context menu. */

/* The one block selected, or NULL when none or several are. */
static QdBlock *
dup_single_selected (QdWindow *self)
{
  g_autoptr(GPtrArray) blocks = NULL;

  if (self->canvas == NULL || self->document == NULL)
    return NULL;
  blocks = qd_canvas_controller_get_selected_blocks (qd_canvas_get_controller (self->canvas));
  if (blocks == NULL || blocks->len != 1)
    return NULL;
  return qd_block_ref (g_ptr_array_index (blocks, 0));
}

void
qd_window_update_selection_actions (QdWindow *self)
{
  g_autoptr(QdBlock) block = dup_single_selected (self);
  g_autoptr(GPtrArray) blocks = NULL;
  GAction *action;
  guint n_selected = 0;

  if (self->canvas != NULL && self->document != NULL)
    {
      blocks = qd_canvas_controller_get_selected_blocks (qd_canvas_get_controller (self->canvas));
      n_selected = blocks != NULL ? blocks->len : 0;
    }
  action = g_action_map_lookup_action (G_ACTION_MAP (self), "open-subsystem");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action),
                               block != NULL && block->inner != NULL);
  action = g_action_map_lookup_action (G_ACTION_MAP (self), "edit-mask");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action),
                               block != NULL && block->inner != NULL);
  action = g_action_map_lookup_action (G_ACTION_MAP (self), "look-under-mask");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action),
                               qd_block_get_mask (block) != NULL);
  action = g_action_map_lookup_action (G_ACTION_MAP (self), "rename");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), block != NULL);
  /* With nothing selected the inspector shows the model's properties. */
  action = g_action_map_lookup_action (G_ACTION_MAP (self), "properties");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action),
                               self->document != NULL && n_selected <= 1);
}

void
qd_window_open_subsystem_activated (GSimpleAction *action,
                                    GVariant      *parameter,
                                    gpointer       user_data)
{
  QdWindow *self = user_data;
  g_autoptr(QdBlock) block = dup_single_selected (self);

  if (block == NULL || block->inner == NULL)
    return;
  qd_canvas_set_system (self->canvas, block->inner);
  /* The keyboard goes with the view (from the inspector's button, the
   * focus would otherwise fall on the model's first field). */
  gtk_widget_grab_focus (GTK_WIDGET (self->canvas));
}

/* Masked subsystems (qd-mask.h): the mask's own window, and the way in. */
void
qd_window_edit_mask_activated (GSimpleAction *action,
                               GVariant      *parameter,
                               gpointer       user_data)
{
  QdWindow *self = user_data;
  g_autoptr(QdBlock) block = dup_single_selected (self);

  if (block != NULL && block->inner != NULL)
    gtk_window_present (GTK_WINDOW (qd_mask_dialog_new (GTK_WINDOW (self),
                                                        self->document, block)));
}

/* Shows @block (NULL: the model) in the inspector and puts the keyboard
 * there, on field @key (NULL: the first parameter). */
static gboolean
inspect (QdWindow   *self,
         QdBlock    *block,
         const char *key)
{
  if (qd_inspector_get_block (self->inspector) != block)
    qd_inspector_set_block (self->inspector, block);
  return qd_inspector_focus_field (self->inspector, key);
}

void
qd_window_rename_activated (GSimpleAction *action,
                            GVariant      *parameter,
                            gpointer       user_data)
{
  QdWindow *self = user_data;
  g_autoptr(QdBlock) block = dup_single_selected (self);

  if (block != NULL)
    inspect (self, block, "name");
}

void
qd_window_properties_activated (GSimpleAction *action,
                                GVariant      *parameter,
                                gpointer       user_data)
{
  QdWindow *self = user_data;
  g_autoptr(QdBlock) block = dup_single_selected (self);

  if (self->document != NULL)
    inspect (self, block, NULL);
}

/* A block's name is drawn centred under it, about 10 units high, some 6
 * units per character (as the canvas lays it out). */
static gboolean
name_contains (const QdBlock *block,
               double         x,
               double         y)
{
  QdRect rect = qd_canvas_block_rect (block);
  double width = MAX (6.0 * g_utf8_strlen (block->name != NULL ? block->name : "", -1),
                      rect.width);
  double top = rect.y + rect.height;

  return fabs (x - (rect.x + rect.width / 2)) <= width / 2 && y >= top && y <= top + 16;
}

gboolean
qd_window_edit_at (QdWindow *self,
                   double    x,
                   double    y)
{
  QdCanvasController *controller;
  QdSystem *system;
  QdCanvasHit hit;

  g_return_val_if_fail (QD_IS_WINDOW (self), FALSE);

  if (self->document == NULL || (system = qd_canvas_get_system (self->canvas)) == NULL)
    return FALSE;
  controller = qd_canvas_get_controller (self->canvas);
  hit = qd_canvas_controller_hit_test (controller, x, y);
  if (hit.kind == QD_CANVAS_HIT_BLOCK)
    {
      /* The canvas itself opens a subsystem. */
      if (hit.block->inner != NULL)
        return FALSE;
      if (!qd_canvas_controller_is_selected (controller, hit.block->id))
        qd_canvas_controller_select (controller, hit.block->id, FALSE);
      return inspect (self, hit.block, NULL);
    }
  if (hit.kind != QD_CANVAS_HIT_NONE)
    return FALSE;
  for (guint i = system->blocks->len; i-- > 0;)
    {
      QdBlock *block = g_ptr_array_index (system->blocks, i);

      if (name_contains (block, x, y))
        {
          qd_canvas_controller_select (controller, block->id, FALSE);
          return inspect (self, block, "name");
        }
    }
  return FALSE;
}

void
qd_window_on_canvas_click_pressed (GtkGestureClick *gesture,
                                   int              n_press,
                                   double           x,
                                   double           y,
                                   QdWindow        *self)
{
  if (n_press == 1)
    self->click_system = qd_canvas_get_system (self->canvas);
}

void
qd_window_on_canvas_click_released (GtkGestureClick *gesture,
                                    int              n_press,
                                    double           x,
                                    double           y,
                                    QdWindow        *self)
{
  double cx, cy;

  if (n_press != 2 || qd_canvas_get_system (self->canvas) != self->click_system)
    return;
  qd_canvas_widget_to_canvas (self->canvas, x, y, &cx, &cy);
  qd_window_edit_at (self, cx, cy);
}

/* The canvas's context menu, completed with what lives in the window:
 * Open, Rename and Properties, after the clipboard. (Undo and Redo stay
 * in the header bar: the menu is long enough to need scrolling low on a
 * small screen already.) */
void
qd_window_extend_context_menu (QdWindow *self)
{
  GMenu *menu = qd_canvas_get_context_menu (self->canvas);
  g_autoptr(GMenu) section = g_menu_new ();
  static const struct
  {
    const char *label;
    const char *action;
    const char *accel;
  } items[] = {
    { N_("_Open Subsystem"), "win.open-subsystem", NULL },
    { N_("Edit _Mask…"), "win.edit-mask", NULL },
    { N_("_Look Under Mask"), "win.look-under-mask", NULL },
    { N_("Re_name…"), "win.rename", "F2" },
    { N_("_Properties…"), "win.properties", NULL },
  };

  if (menu == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (items); i++)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (_(items[i].label), items[i].action);

      if (items[i].accel != NULL)
        g_menu_item_set_attribute (item, "accel", "s", items[i].accel);
      g_menu_append_item (section, item);
    }
  g_menu_insert_section (menu, 1, NULL, G_MENU_MODEL (section));
}
/* View ▸ Block Parameters. */
void
qd_window_show_params_changed (GSimpleAction *action,
                               GVariant      *state,
                               gpointer       user_data)
{
  QdWindow *self = user_data;

  qd_canvas_set_show_params (self->canvas, g_variant_get_boolean (state));
  g_simple_action_set_state (action, state);
}

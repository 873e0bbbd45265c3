/* qd-debugger-panel.c: the Debugger page of the bottom notebook
 *
 * Three columns under a row of controls: the pending events, the state
 * of a block, the breakpoints. They are grids of labels rebuilt when the
 * debugger says its position changed: a teaching model has a few dozen
 * blocks, and a rebuilt grid is always exactly what the debugger holds.
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>

#include "qd-canvas-controller.h"
#include "qd-debugger-panel.h"
#include "qd-inspector.h"
#include "qd-quant-view.h"

/* The pending events listed at most (the first ones to be taken). */
#define MAX_PENDING_ROWS 200

struct _QdDebuggerPanel
{
  GtkWidget    parent_instance;

  GtkWidget   *box;
  QdDebugger  *debugger;   /* owned */
  QdCanvas    *canvas;     /* weak */
  GtkWidget   *actions_host; /* weak: the window (or canvas) given the
                                "dbg." actions */
  GtkLabel    *status;
  GtkEntry    *time_entry;
  GtkEntry    *level_entry;
  GtkGrid     *pending;
  GtkLabel    *state_title;
  GtkGrid     *state;
  GtkListBox  *breakpoints;
  GtkWidget   *inspector_box;  /* the state shown in the inspector, or NULL */
  GtkGrid     *inspector_state;
  GString     *pending_text;
  char        *message;    /* the debugger's last message, until the next move */
};

G_DEFINE_FINAL_TYPE (QdDebuggerPanel, qd_debugger_panel, GTK_TYPE_WIDGET)

/* The block the user means: the one selected on the canvas, else the
 * block of the current transition. Owned by the caller. */
static char *
dup_selected_path (QdDebuggerPanel *self)
{
  if (self->canvas != NULL)
    {
      g_autoptr(GPtrArray) blocks =
        qd_canvas_controller_get_selected_blocks (qd_canvas_get_controller (self->canvas));

      if (blocks != NULL && blocks->len == 1)
        return qd_block_get_path (g_ptr_array_index (blocks, 0));
    }
  {
    QdLogEntry entry;
    QdSignal seg;

    if (qd_debugger_get_entry (self->debugger, &entry, &seg))
      return g_strdup (qd_debugger_get_block_path (self->debugger, entry.block));
  }
  return NULL;
}

static void
clear_grid (GtkGrid *grid)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (grid))) != NULL)
    gtk_grid_remove (grid, child);
}

static GtkWidget *
cell (const char *text,
      gboolean    numeric,
      gboolean    header)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), numeric ? 1.0 : 0.0);
  gtk_label_set_ellipsize (GTK_LABEL (label), numeric ? PANGO_ELLIPSIZE_NONE : PANGO_ELLIPSIZE_END);
  gtk_label_set_selectable (GTK_LABEL (label), FALSE);
  if (numeric)
    gtk_widget_add_css_class (label, "numeric");
  if (header)
    gtk_widget_add_css_class (label, "heading");
  return label;
}

static char *
format_time (double t)
{
  return isinf (t) ? g_strdup ("∞") : g_strdup_printf ("%.10g", t);
}

static void
update_pending (QdDebuggerPanel *self)
{
  g_autoptr(GArray) pending = qd_debugger_dup_pending (self->debugger);
  static const char *const heads[] = { N_("Order"), N_("Time t + ta"), N_("Block"), N_("Phase") };

  clear_grid (self->pending);
  g_string_truncate (self->pending_text, 0);
  for (guint k = 0; k < G_N_ELEMENTS (heads); k++)
    gtk_grid_attach (self->pending, cell (_(heads[k]), k < 2, TRUE), (int) k, 0, 1, 1);
  if (pending == NULL)
    {
      gtk_grid_attach (self->pending,
                       cell (_("Step the run to see what the scheduler will do next."),
                             FALSE, FALSE), 0, 1, 4, 1);
      return;
    }
  for (guint k = 0; k < pending->len && k < MAX_PENDING_ROWS; k++)
    {
      const QdPendingEvent *ev = &g_array_index (pending, QdPendingEvent, k);
      g_autofree char *order = g_strdup_printf ("%u", k + 1);
      g_autofree char *t = format_time (ev->time);
      const char *path = qd_debugger_get_block_path (self->debugger, ev->block);
      const char *phase = qd_debugger_get_block_phase (self->debugger, ev->block);

      gtk_grid_attach (self->pending, cell (order, TRUE, FALSE), 0, (int) k + 1, 1, 1);
      gtk_grid_attach (self->pending, cell (t, TRUE, FALSE), 1, (int) k + 1, 1, 1);
      gtk_grid_attach (self->pending, cell (path, FALSE, FALSE), 2, (int) k + 1, 1, 1);
      gtk_grid_attach (self->pending, cell (phase, FALSE, FALSE), 3, (int) k + 1, 1, 1);
      g_string_append_printf (self->pending_text, "%s\t%s\t%s\t%s\n", order, t, path, phase);
    }
  if (pending->len == 0)
    gtk_grid_attach (self->pending, cell (_("Every block is passive."), FALSE, FALSE), 0, 1, 4, 1);
}

typedef struct
{
  GtkGrid *grid;
  int      row;
} StateRows;

static void
add_state_row (const char *name,
               double      value,
               const char *text,
               gpointer    user_data)
{
  StateRows *rows = user_data;
  g_autofree char *number = g_strdup_printf ("%.10g", value);

  gtk_grid_attach (rows->grid, cell (_(name), FALSE, FALSE), 0, rows->row, 1, 1);
  gtk_grid_attach (rows->grid, cell (text != NULL ? _(text) : number, text == NULL, FALSE),
                   1, rows->row, 1, 1);
  rows->row++;
}

/* The inspector's copy: the state of the block it shows (the one
 * selected), while a run is paused; hidden otherwise. */
static void
update_inspector_state (QdDebuggerPanel *self)
{
  g_autoptr(GPtrArray) blocks = NULL;
  g_autofree char *path = NULL;
  StateRows rows;

  if (self->inspector_box == NULL)
    return;
  if (self->canvas != NULL)
    blocks = qd_canvas_controller_get_selected_blocks (qd_canvas_get_controller (self->canvas));
  if (blocks != NULL && blocks->len == 1)
    path = qd_block_get_path (g_ptr_array_index (blocks, 0));
  clear_grid (self->inspector_state);
  rows = (StateRows) { self->inspector_state, 0 };
  gtk_widget_set_visible (self->inspector_box,
                          path != NULL && !qd_debugger_is_busy (self->debugger)
                          && qd_debugger_describe_block (self->debugger, path,
                                                         add_state_row, &rows));
}

static void
update_state (QdDebuggerPanel *self)
{
  g_autofree char *path = dup_selected_path (self);
  g_autofree char *title = NULL;
  StateRows rows = { self->state, 0 };

  clear_grid (self->state);
  if (path == NULL)
    {
      update_inspector_state (self);
      gtk_label_set_text (self->state_title, _("Block state"));
      gtk_grid_attach (self->state, cell (_("Select a block to see its state while paused."),
                                          FALSE, FALSE), 0, 0, 2, 1);
      return;
    }
  /* TRANSLATORS: %s is a block path */
  title = g_strdup_printf (_("State of %s"), path);
  gtk_label_set_text (self->state_title, title);
  if (!qd_debugger_describe_block (self->debugger, path, add_state_row, &rows))
    gtk_grid_attach (self->state, cell (_("This block has no state to show."), FALSE, FALSE),
                     0, 0, 2, 1);
  update_inspector_state (self);
}

static void
on_remove_breakpoint (GtkButton       *button,
                      QdDebuggerPanel *self)
{
  guint index = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (button), "index"));

  qd_debugger_remove_breakpoint (self->debugger, index);
}

static void
update_breakpoints (QdDebuggerPanel *self)
{
  GPtrArray *bps = qd_debugger_get_breakpoints (self->debugger);
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->breakpoints))) != NULL)
    gtk_list_box_remove (self->breakpoints, child);
  for (guint k = 0; k < bps->len; k++)
    {
      g_autofree char *text = qd_debug_breakpoint_describe (g_ptr_array_index (bps, k));
      GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *label = cell (text, FALSE, FALSE);
      GtkWidget *remove = gtk_button_new_from_icon_name ("edit-delete-symbolic");

      gtk_widget_set_hexpand (label, TRUE);
      gtk_widget_add_css_class (remove, "flat");
      gtk_widget_set_tooltip_text (remove, _("Remove Breakpoint"));
      g_object_set_data (G_OBJECT (remove), "index", GUINT_TO_POINTER (k));
      g_signal_connect (remove, "clicked", G_CALLBACK (on_remove_breakpoint), self);
      gtk_box_append (GTK_BOX (row), label);
      gtk_box_append (GTK_BOX (row), remove);
      gtk_list_box_append (self->breakpoints, row);
    }
  if (bps->len == 0)
    gtk_list_box_append (self->breakpoints,
                         cell (_("No breakpoints: add one for the selected block, "
                                 "at a time, or from a block’s context menu."), FALSE, FALSE));
}

static void
update_status (QdDebuggerPanel *self)
{
  guint pos = qd_debugger_get_position (self->debugger);
  g_autofree char *where = NULL;

  if (pos == QD_DEBUGGER_NO_POSITION)
    where = g_strdup (_("Before the first transition."));
  else
    /* TRANSLATORS: the debugger's position: row of the Transitions table, time */
    where = g_strdup_printf (_("Transition %u, t = %.10g."), pos + 1,
                             qd_debugger_get_time (self->debugger));
  if (self->message != NULL)
    {
      g_autofree char *text = g_strdup_printf ("%s %s", self->message, where);

      gtk_label_set_text (self->status, text);
    }
  else
    gtk_label_set_text (self->status, where);
}

static void
on_changed (QdDebugger      *debugger,
            QdDebuggerPanel *self)
{
  update_pending (self);
  update_state (self);
  update_breakpoints (self);
  update_status (self);
  /* Shown with the position it led to, then forgotten; kept while the
   * command that said it is still running the run. */
  if (!qd_debugger_is_busy (debugger))
    g_clear_pointer (&self->message, g_free);
}

static void
on_message (QdDebugger      *debugger,
            const char      *text,
            QdDebuggerPanel *self)
{
  g_free (self->message);
  self->message = g_strdup (text);
  update_status (self);
}

/* -------------------------------------------------------------------- */
/* Actions ("dbg.", on the canvas and the panel) */

static gboolean
parse_number (GtkEntry *entry,
              double   *value)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  char *end = NULL;

  *value = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0' || !isfinite (*value))
    {
      gtk_widget_error_bell (GTK_WIDGET (entry));
      gtk_widget_grab_focus (GTK_WIDGET (entry));
      return FALSE;
    }
  return TRUE;
}

static void
act_step_transition (GSimpleAction *action, GVariant *param, gpointer data)
{
  qd_debugger_step_transition (QD_DEBUGGER_PANEL (data)->debugger);
}

static void
act_step_back (GSimpleAction *action, GVariant *param, gpointer data)
{
  qd_debugger_step_back (QD_DEBUGGER_PANEL (data)->debugger);
}

static void
act_step_event (GSimpleAction *action, GVariant *param, gpointer data)
{
  qd_debugger_step_event (QD_DEBUGGER_PANEL (data)->debugger);
}

static void
act_continue (GSimpleAction *action, GVariant *param, gpointer data)
{
  qd_debugger_continue (QD_DEBUGGER_PANEL (data)->debugger);
}

static void
act_run_to_block (GSimpleAction *action, GVariant *param, gpointer data)
{
  QdDebuggerPanel *self = data;
  g_autofree char *path = dup_selected_path (self);

  qd_debugger_run_to_block (self->debugger, path);
}

static void
act_run_to_time (GSimpleAction *action, GVariant *param, gpointer data)
{
  QdDebuggerPanel *self = data;
  double t;

  if (parse_number (self->time_entry, &t))
    qd_debugger_run_to_time (self->debugger, t);
}

static void
add_block_breakpoint (QdDebuggerPanel *self,
                      QdBreakKind      kind)
{
  g_autofree char *path = dup_selected_path (self);
  double level = 0;

  if (path == NULL)
    {
      on_message (self->debugger, _("Select a block first."), self);
      return;
    }
  if (kind == QD_BREAK_CROSSING && !parse_number (self->level_entry, &level))
    return;
  qd_debugger_add_breakpoint (self->debugger, kind, path, 0, level);
}

static void
act_break_internal (GSimpleAction *action, GVariant *param, gpointer data)
{
  add_block_breakpoint (data, QD_BREAK_INTERNAL);
}

static void
act_break_any (GSimpleAction *action, GVariant *param, gpointer data)
{
  add_block_breakpoint (data, QD_BREAK_TRANSITION);
}

static void
act_break_crossing (GSimpleAction *action, GVariant *param, gpointer data)
{
  add_block_breakpoint (data, QD_BREAK_CROSSING);
}

static void
act_break_time (GSimpleAction *action, GVariant *param, gpointer data)
{
  QdDebuggerPanel *self = data;
  double t;

  if (parse_number (self->time_entry, &t))
    qd_debugger_add_breakpoint (self->debugger, QD_BREAK_TIME, NULL, 0, t);
}

static void
act_break_error (GSimpleAction *action, GVariant *param, gpointer data)
{
  qd_debugger_add_breakpoint (QD_DEBUGGER_PANEL (data)->debugger, QD_BREAK_ERROR, NULL, 0, 0);
}

static void
act_quantization (GSimpleAction *action, GVariant *param, gpointer data)
{
  QdDebuggerPanel *self = data;
  g_autofree char *path = dup_selected_path (self);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));

  if (path != NULL)
    qd_quant_view_present (self->debugger, path, GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL);
}

static void
act_toggle (GSimpleAction *action, GVariant *param, gpointer data)
{
  QdDebuggerPanel *self = data;
  gboolean on = g_variant_get_boolean (param);

  g_simple_action_set_state (action, param);
  if (g_str_equal (g_action_get_name (G_ACTION (action)), "animate"))
    qd_debugger_set_animate (self->debugger, on);
  else
    qd_debugger_set_link_values (self->debugger, on);
}

static const GActionEntry actions[] = {
  { "step-transition", act_step_transition },
  { "step-back", act_step_back },
  { "step-event", act_step_event },
  { "continue", act_continue },
  { "run-to-block", act_run_to_block },
  { "run-to-time", act_run_to_time },
  { "break-internal", act_break_internal },
  { "break-any", act_break_any },
  { "break-crossing", act_break_crossing },
  { "break-time", act_break_time },
  { "break-error", act_break_error },
  { "quantization", act_quantization },
  { "animate", NULL, NULL, "true", act_toggle },
  { "link-values", NULL, NULL, "false", act_toggle },
};

/* -------------------------------------------------------------------- */

static GtkWidget *
action_button (const char *label,
               const char *action,
               const char *tooltip)
{
  GtkWidget *button = gtk_button_new_with_mnemonic (label);

  gtk_actionable_set_action_name (GTK_ACTIONABLE (button), action);
  gtk_widget_set_tooltip_text (button, tooltip);
  return button;
}

static GtkWidget *
column (const char *title,
        GtkWidget  *content,
        GtkLabel  **title_label)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *label = gtk_label_new (title);
  GtkWidget *scroller = gtk_scrolled_window_new ();

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), content);
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_AUTOMATIC,
                                  GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_widget_set_hexpand (box, TRUE);
  gtk_box_append (GTK_BOX (box), label);
  gtk_box_append (GTK_BOX (box), scroller);
  if (title_label != NULL)
    *title_label = GTK_LABEL (label);
  return box;
}

static GtkWidget *
build_controls (QdDebuggerPanel *self)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  GtkWidget *animate = gtk_check_button_new_with_mnemonic (_("_Animate"));
  GtkWidget *values = gtk_check_button_new_with_mnemonic (_("_Link values"));

  gtk_box_append (GTK_BOX (row), action_button (_("◀ _Back"), "dbg.step-back",
                                                _("Step back one transition (Shift+F11)")));
  gtk_box_append (GTK_BOX (row), action_button (_("_Transition ▶"), "dbg.step-transition",
                                                _("One transition (F11)")));
  gtk_box_append (GTK_BOX (row), action_button (_("_Event ▶▶"), "dbg.step-event",
                                                _("One event with its whole zero-time cascade (Ctrl+F11)")));
  gtk_box_append (GTK_BOX (row), action_button (_("To _Block"), "dbg.run-to-block",
                                                _("Run to the next transition of the selected block")));
  self->time_entry = GTK_ENTRY (gtk_entry_new ());
  gtk_entry_set_placeholder_text (self->time_entry, _("time"));
  gtk_editable_set_width_chars (GTK_EDITABLE (self->time_entry), 7);
  gtk_box_append (GTK_BOX (row), GTK_WIDGET (self->time_entry));
  gtk_box_append (GTK_BOX (row), action_button (_("To T_ime"), "dbg.run-to-time",
                                                _("Run to the time typed")));
  gtk_box_append (GTK_BOX (row), action_button (_("_Continue"), "dbg.continue",
                                                _("Run to the next breakpoint (F8)")));
  gtk_box_append (GTK_BOX (row), action_button (_("_Quantization"), "dbg.quantization",
                                                _("The quantization view of the selected Integrator: x, q and the band q ± ΔQ")));
  gtk_actionable_set_action_name (GTK_ACTIONABLE (animate), "dbg.animate");
  gtk_actionable_set_action_name (GTK_ACTIONABLE (values), "dbg.link-values");
  gtk_box_append (GTK_BOX (row), animate);
  gtk_box_append (GTK_BOX (row), values);
  return row;
}

static GtkWidget *
build_breakpoints (QdDebuggerPanel *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *add = gtk_grid_new ();

  gtk_grid_set_row_spacing (GTK_GRID (add), 4);
  gtk_grid_set_column_spacing (GTK_GRID (add), 4);
  self->breakpoints = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->breakpoints, GTK_SELECTION_NONE);
  gtk_widget_set_vexpand (GTK_WIDGET (self->breakpoints), TRUE);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->breakpoints));
  gtk_grid_attach (GTK_GRID (add), action_button (_("Internal"), "dbg.break-internal",
                                                 _("Break at the selected block's next internal transition")),
                   0, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (add), action_button (_("Any"), "dbg.break-any",
                                                 _("Break at any transition of the selected block")),
                   1, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (add), action_button (_("Error"), "dbg.break-error",
                                                 _("Break before an event in which a block reports an error")),
                   2, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (add), action_button (_("At Time"), "dbg.break-time",
                                                 _("Break when the clock reaches the time typed")),
                   0, 1, 1, 1);
  self->level_entry = GTK_ENTRY (gtk_entry_new ());
  gtk_entry_set_placeholder_text (self->level_entry, _("level"));
  gtk_editable_set_width_chars (GTK_EDITABLE (self->level_entry), 6);
  gtk_grid_attach (GTK_GRID (add), GTK_WIDGET (self->level_entry), 1, 1, 1, 1);
  gtk_grid_attach (GTK_GRID (add), action_button (_("Crossing"), "dbg.break-crossing",
                                                 _("Break when the selected block's output crosses the level")),
                   2, 1, 1, 1);
  gtk_box_append (GTK_BOX (box), add);
  return box;
}

static void
add_shortcuts (GtkWidget *widget)
{
  static const struct { const char *trigger, *action; } keys[] = {
    { "F11", "dbg.step-transition" },
    { "<Shift>F11", "dbg.step-back" },
    { "<Control>F11", "dbg.step-event" },
    { "F8", "dbg.continue" },
  };
  GtkEventController *shortcuts = gtk_shortcut_controller_new ();

  /* Window-wide, like the run bar's keys: a teacher steps with the
   * focus on the canvas. On the canvas, which is always shown, where
   * the panel is a notebook page that may be hidden. */
  gtk_shortcut_controller_set_scope (GTK_SHORTCUT_CONTROLLER (shortcuts), GTK_SHORTCUT_SCOPE_GLOBAL);
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                          gtk_shortcut_new (gtk_shortcut_trigger_parse_string (keys[i].trigger),
                                                            gtk_named_action_new (keys[i].action)));
  gtk_widget_add_controller (widget, shortcuts);
}

static void
add_context_menu (QdCanvas *canvas)
{
  GMenu *menu = qd_canvas_get_context_menu (canvas);
  g_autoptr(GMenu) section = g_menu_new ();

  if (menu == NULL)
    return;
  g_menu_append (section, _("Break at Next Internal Transition"), "dbg.break-internal");
  g_menu_append (section, _("Break at Any Transition"), "dbg.break-any");
  g_menu_append (section, _("Run to Next Transition"), "dbg.run-to-block");
  g_menu_append (section, _("Quantization View"), "dbg.quantization");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
}

static void
qd_debugger_panel_dispose (GObject *object)
{
  QdDebuggerPanel *self = QD_DEBUGGER_PANEL (object);

  if (self->debugger != NULL)
    g_signal_handlers_disconnect_by_data (self->debugger, self);
  if (self->actions_host != NULL)
    gtk_widget_insert_action_group (self->actions_host, "dbg", NULL);
  g_clear_weak_pointer (&self->actions_host);
  g_clear_weak_pointer (&self->canvas);
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->debugger);

  G_OBJECT_CLASS (qd_debugger_panel_parent_class)->dispose (object);
}

static void
qd_debugger_panel_finalize (GObject *object)
{
  QdDebuggerPanel *self = QD_DEBUGGER_PANEL (object);

  g_string_free (self->pending_text, TRUE);
  g_free (self->message);

  G_OBJECT_CLASS (qd_debugger_panel_parent_class)->finalize (object);
}

static void
qd_debugger_panel_class_init (QdDebuggerPanelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = qd_debugger_panel_dispose;
  object_class->finalize = qd_debugger_panel_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "qd-debugger-panel");
}

static void
qd_debugger_panel_init (QdDebuggerPanel *self)
{
  self->pending_text = g_string_new (NULL);
}

GtkWidget *
qd_debugger_panel_new (QdDebugger  *debugger,
                       QdCanvas    *canvas,
                       GtkNotebook *notebook)
{
  QdDebuggerPanel *self;
  GSimpleActionGroup *group;
  GtkWidget *columns;

  g_return_val_if_fail (QD_IS_DEBUGGER (debugger), NULL);

  self = g_object_new (QD_TYPE_DEBUGGER_PANEL, NULL);
  self->debugger = g_object_ref (debugger);
  g_set_weak_pointer (&self->canvas, canvas);
  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));
  {
    /* The controls scroll rather than make the window wider. */
    GtkWidget *scroller = gtk_scrolled_window_new ();

    gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller), GTK_POLICY_AUTOMATIC,
                                    GTK_POLICY_NEVER);
    gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), build_controls (self));
    gtk_box_append (GTK_BOX (self->box), scroller);
  }
  self->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->status, 0);
  gtk_label_set_ellipsize (self->status, PANGO_ELLIPSIZE_END);
  gtk_widget_add_css_class (GTK_WIDGET (self->status), "dim-label");
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->status));

  columns = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  self->pending = GTK_GRID (gtk_grid_new ());
  gtk_grid_set_column_spacing (self->pending, 12);
  self->state = GTK_GRID (gtk_grid_new ());
  gtk_grid_set_column_spacing (self->state, 12);
  gtk_box_append (GTK_BOX (columns), column (_("Pending events, in the order they will be taken"),
                                             GTK_WIDGET (self->pending), NULL));
  gtk_box_append (GTK_BOX (columns), column (_("Block state"), GTK_WIDGET (self->state),
                                             &self->state_title));
  gtk_box_append (GTK_BOX (columns), column (_("Breakpoints"), build_breakpoints (self), NULL));
  gtk_widget_set_vexpand (columns, TRUE);
  gtk_box_append (GTK_BOX (self->box), columns);

  group = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (group), actions, G_N_ELEMENTS (actions), self);
  gtk_widget_insert_action_group (GTK_WIDGET (self), "dbg", G_ACTION_GROUP (group));
  if (canvas != NULL)
    {
      /* The canvas's context menu and the window's menu live outside the
       * panel: the actions go on the window holding the canvas. */
      GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (canvas));
      GtkWidget *host = GTK_IS_WINDOW (root) ? GTK_WIDGET (root) : GTK_WIDGET (canvas);

      gtk_widget_insert_action_group (host, "dbg", G_ACTION_GROUP (group));
      g_set_weak_pointer (&self->actions_host, host);
      add_context_menu (canvas);
    }
  g_object_unref (group);
  add_shortcuts (canvas != NULL ? GTK_WIDGET (canvas) : GTK_WIDGET (self));

  g_signal_connect (debugger, "changed", G_CALLBACK (on_changed), self);
  g_signal_connect (debugger, "message", G_CALLBACK (on_message), self);
  if (canvas != NULL)
    g_signal_connect_object (qd_canvas_get_controller (canvas), "selection-changed",
                             G_CALLBACK (update_state), self, G_CONNECT_SWAPPED);
  on_changed (debugger, self);
  if (notebook != NULL)
    gtk_notebook_append_page (notebook, GTK_WIDGET (self), gtk_label_new (_("Debugger")));
  return GTK_WIDGET (self);
}

void
qd_debugger_panel_set_inspector (QdDebuggerPanel *self,
                                 QdInspector     *inspector)
{
  GtkWidget *heading;

  g_return_if_fail (QD_IS_DEBUGGER_PANEL (self));
  g_return_if_fail (QD_IS_INSPECTOR (inspector));

  self->inspector_box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  gtk_widget_set_margin_top (self->inspector_box, 12);
  heading = gtk_label_new (_("State while paused"));
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_widget_add_css_class (heading, "heading");
  self->inspector_state = GTK_GRID (gtk_grid_new ());
  gtk_grid_set_column_spacing (self->inspector_state, 12);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->inspector_state),
                               _("The block's state at the debugger's position, read-only"));
  gtk_box_append (GTK_BOX (self->inspector_box), heading);
  gtk_box_append (GTK_BOX (self->inspector_box), GTK_WIDGET (self->inspector_state));
  qd_inspector_set_extra (inspector, self->inspector_box);
  update_inspector_state (self);
}

gboolean
qd_debugger_panel_get_inspector_state_shown (QdDebuggerPanel *self)
{
  g_return_val_if_fail (QD_IS_DEBUGGER_PANEL (self), FALSE);

  return self->inspector_box != NULL && gtk_widget_get_visible (self->inspector_box)
         && gtk_widget_get_first_child (GTK_WIDGET (self->inspector_state)) != NULL;
}

QdDebugger *
qd_debugger_panel_get_debugger (QdDebuggerPanel *self)
{
  g_return_val_if_fail (QD_IS_DEBUGGER_PANEL (self), NULL);

  return self->debugger;
}

char *
qd_debugger_panel_dup_pending_text (QdDebuggerPanel *self)
{
  g_return_val_if_fail (QD_IS_DEBUGGER_PANEL (self), NULL);

  return g_strdup (self->pending_text->str);
}

const char *
qd_debugger_panel_get_status (QdDebuggerPanel *self)
{
  g_return_val_if_fail (QD_IS_DEBUGGER_PANEL (self), NULL);

  return gtk_label_get_text (self->status);
}

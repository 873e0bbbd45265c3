/* qd-window.c: the main window of the QDevs editor
 *
 * The static chrome comes from qd-window.ui. This file shows the diagram
 * in the canvas with a breadcrumb bar of the subsystems opened, keeps
 * what a loaded diagram contains in the header bar's information
 * popover, keeps the header bar's title in step with the document, shows
 * the window's messages, remembers the window size in GSettings, and
 * sets the window up: its actions, keys and the signals of its parts.
 * The palette, the editing actions, the files and the checks and runs
 * are in files of their own (qd-window-private.h).
 */
#include <glib/gi18n-lib.h>

#include "qd-debugger-panel.h"
#include "qd-settings.h"
#include "qd-test-geometry.h"
#include "qd-window-private.h"

G_DEFINE_FINAL_TYPE (QdWindow, qd_window, GTK_TYPE_APPLICATION_WINDOW)

/* Breadcrumbs: one button per level from the root to the system shown. */

static void
on_breadcrumb_clicked (GtkButton *button,
                       QdWindow  *self)
{
  QdSystem *system = g_object_get_data (G_OBJECT (button), "qd-system");

  qd_canvas_set_system (self->canvas, system);
  gtk_widget_grab_focus (GTK_WIDGET (self->canvas));
}

static void
update_breadcrumbs (QdWindow *self)
{
  QdSystem *system = qd_canvas_get_system (self->canvas);
  g_autoptr(GPtrArray) chain = g_ptr_array_new ();
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->breadcrumb_box))))
    gtk_box_remove (self->breadcrumb_box, child);

  for (QdSystem *s = system; s != NULL; s = s->owner != NULL ? s->owner->parent : NULL)
    g_ptr_array_insert (chain, 0, s);

  /* At the top level the bar has nothing to say. */
  gtk_widget_set_visible (GTK_WIDGET (self->breadcrumb_box), chain->len > 1);

  for (guint i = 0; i < chain->len; i++)
    {
      QdSystem *s = g_ptr_array_index (chain, i);
      g_autofree char *label = NULL;
      GtkWidget *button;

      if (s->owner == NULL)
        label = qd_window_dup_display_title (self);
      else
        label = g_strdup (s->owner->name);

      if (i > 0)
        {
          GtkWidget *sep = gtk_label_new ("›");

          gtk_widget_add_css_class (sep, "dim-label");
          gtk_box_append (self->breadcrumb_box, sep);
        }
      if (i + 1 == chain->len)
        {
          /* Where we are: shown, not a way to go. */
          GtkWidget *here = gtk_label_new (label);

          gtk_widget_add_css_class (here, "qd-breadcrumb-current");
          gtk_box_append (self->breadcrumb_box, here);
          continue;
        }
      button = gtk_button_new_with_label (label);
      gtk_widget_add_css_class (button, "flat");
      g_object_set_data_full (G_OBJECT (button), "qd-system",
                              qd_system_ref (s), (GDestroyNotify) qd_system_unref);
      g_signal_connect (button, "clicked", G_CALLBACK (on_breadcrumb_clicked), self);
      gtk_box_append (self->breadcrumb_box, button);
    }
}

static void
on_document_changed (QdDocument *document,
                     QdWindow   *self)
{
  qd_window_update_undo_actions (self);
  /* An undo may take the selected block away, or make it a subsystem. */
  qd_window_update_selection_actions (self);
  qd_window_update_title (self);
  /* The counts in the information popover follow the edits. */
  qd_window_update_document_page (self);
  qd_window_hide_edit_message (self);
}

static void
on_canvas_message (QdWindow   *self,
                   const char *text)
{
  qd_window_show_edit_message (self, GTK_MESSAGE_WARNING, text);
}

static void
add_fact (QdWindow   *self,
          int         row,
          const char *label,
          const char *value)
{
  GtkWidget *key = gtk_label_new (label);
  GtkWidget *val = gtk_label_new (value);

  gtk_label_set_xalign (GTK_LABEL (key), 1.0f);
  gtk_widget_add_css_class (key, "dim-label");
  gtk_label_set_xalign (GTK_LABEL (val), 0.0f);
  gtk_label_set_selectable (GTK_LABEL (val), TRUE);
  gtk_widget_add_css_class (val, "qd-fact-value");
  gtk_grid_attach (self->facts_grid, key, 0, row, 1, 1);
  gtk_grid_attach (self->facts_grid, val, 1, row, 1, 1);
}

static void
clear_facts (QdWindow *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->facts_grid))))
    gtk_grid_remove (self->facts_grid, child);
}

/* The name a diagram goes by: its title, else its file name. */
char *
qd_window_dup_display_title (QdWindow *self)
{
  const char *title = NULL;

  if (self->document != NULL)
    title = qd_document_get_title (self->document);
  if (title != NULL && title[0] != '\0')
    return g_strdup (title);
  if (self->file != NULL)
    return g_file_get_basename (self->file);
  return g_strdup (_("Untitled Diagram"));
}

/* The file's location as people write it: "~/Diagrams/rc.qdevs". */
static char *
dup_location_for_display (GFile *file)
{
  g_autoptr(GFile) home = g_file_new_for_path (g_get_home_dir ());
  g_autofree char *relative = g_file_get_relative_path (home, file);

  if (relative != NULL)
    return g_build_filename ("~", relative, NULL);
  return g_file_get_parse_name (file);
}

void
qd_window_update_title (QdWindow *self)
{
  g_autofree char *title = NULL;
  g_autofree char *basename = NULL;
  g_autofree char *window_title = NULL;

  if (self->document == NULL)
    {
      gtk_label_set_text (self->title_label, _("QDevs"));
      gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), FALSE);
      gtk_window_set_title (GTK_WINDOW (self), _("QDevs"));
      return;
    }

  title = qd_window_dup_display_title (self);
  /* Unsaved changes show as a star before the name, as in most editors;
   * undoing back to the saved state takes it away again. */
  if (qd_document_get_modified (self->document))
    {
      g_autofree char *plain = g_steal_pointer (&title);

      title = g_strconcat ("*", plain, NULL);
    }
  gtk_label_set_text (self->title_label, title);
  if (self->file != NULL)
    {
      basename = g_file_get_basename (self->file);
      gtk_label_set_text (self->subtitle_label, basename);
      gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), TRUE);
      /* A diagram without a title goes by its file name: no need to say
       * it twice. */
      if (g_strcmp0 (title + (title[0] == '*'), basename) == 0)
        window_title = g_strdup (title);
      else
        /* TRANSLATORS: the window title: "diagram title — file name" */
        window_title = g_strdup_printf (_("%s — %s"), title, basename);
    }
  else
    {
      gtk_widget_set_visible (GTK_WIDGET (self->subtitle_label), FALSE);
      window_title = g_strdup (title);
    }
  gtk_window_set_title (GTK_WINDOW (self), window_title);
}

void
qd_window_update_document_page (QdWindow *self)
{
  QdSystemCounts counts;
  const QdSettings *settings;
  const char *description;
  g_autofree char *title = NULL;
  g_autofree char *value = NULL;
  GPtrArray *variables;
  int row = 0;

  gtk_widget_set_visible (self->info_button, self->document != NULL);
  if (self->document == NULL)
    {
      gtk_stack_set_visible_child_name (self->main_stack, "empty");
      return;
    }

  title = qd_window_dup_display_title (self);
  gtk_label_set_text (self->doc_title_label, title);

  if (self->file != NULL)
    {
      g_autofree char *name = dup_location_for_display (self->file);

      gtk_label_set_text (self->doc_file_label, name);
      gtk_widget_set_visible (GTK_WIDGET (self->doc_file_label), TRUE);
    }
  else
    gtk_widget_set_visible (GTK_WIDGET (self->doc_file_label), FALSE);

  description = qd_document_get_description (self->document);
  if (description != NULL && description[0] != '\0')
    gtk_label_set_text (self->doc_description_label, description);
  else
    gtk_label_set_text (self->doc_description_label,
                        _("This diagram has no description."));

  /* The counts `qdevs-cli check` prints, from the same function. */
  qd_system_count (qd_document_get_root (self->document), &counts);
  clear_facts (self);

  value = g_strdup_printf ("%u", counts.blocks);
  add_fact (self, row++, _("Blocks"), value);
  g_clear_pointer (&value, g_free);

  value = g_strdup_printf ("%u", counts.links);
  add_fact (self, row++, _("Links"), value);
  g_clear_pointer (&value, g_free);

  if (counts.subsystems > 0)
    {
      value = g_strdup_printf ("%u", counts.subsystems);
      add_fact (self, row++, _("Subsystems"), value);
      g_clear_pointer (&value, g_free);
    }

  variables = qd_document_get_variables (self->document);
  if (variables != NULL && variables->len > 0)
    {
      value = g_strdup_printf ("%u", variables->len);
      add_fact (self, row++, _("Variables"), value);
      g_clear_pointer (&value, g_free);
    }

  settings = qd_document_get_settings (self->document);
  if (settings != NULL)
    {
      if (settings->method != NULL && settings->method[0] != '\0')
        add_fact (self, row++, _("Method"), settings->method);
      /* TRANSLATORS: the simulated interval: "from 0 to 10 s" */
      value = g_strdup_printf (_("from %g to %g s"),
                               settings->start_time, settings->final_time);
      add_fact (self, row++, _("Time"), value);
      g_clear_pointer (&value, g_free);
    }

  gtk_stack_set_visible_child_name (self->main_stack, "document");
}

static void
on_message_close_clicked (QdWindow *self)
{
  qd_window_hide_message (self);
}

static const char *const panel_keys[] = {
  "sidebar-position", "inspector-position", "bottom-position",
};

static GtkPaned *
panel_paned (QdWindow *self,
             guint     i)
{
  GtkPaned *paneds[] = { self->paned, self->inspector_paned, self->bottom_paned };

  return paneds[i];
}

static void
restore_size (QdWindow *self)
{
  int width, height;

  if (self->settings == NULL)
    return;

  width = g_settings_get_int (self->settings, "window-width");
  height = g_settings_get_int (self->settings, "window-height");
  if (width > 0 && height > 0)
    gtk_window_set_default_size (GTK_WINDOW (self), width, height);
  if (g_settings_get_boolean (self->settings, "window-maximized"))
    gtk_window_maximize (GTK_WINDOW (self));

  /* The panel layout follows the user from one session to the next:
   * palette width, inspector split and plot pane height (0: not saved). */
  for (guint i = 0; i < G_N_ELEMENTS (panel_keys); i++)
    {
      int position = g_settings_get_int (self->settings, panel_keys[i]);

      if (position > 0)
        gtk_paned_set_position (panel_paned (self, i), position);
    }
}

static void
save_size (QdWindow *self)
{
  gboolean maximized;
  int width, height;

  if (self->settings == NULL)
    return;

  /* The default size tracks the unmaximized size, which is the one worth
   * restoring; a maximized window restores maximized anyway. */
  maximized = gtk_window_is_maximized (GTK_WINDOW (self));
  gtk_window_get_default_size (GTK_WINDOW (self), &width, &height);
  g_settings_set_boolean (self->settings, "window-maximized", maximized);
  if (width > 0 && height > 0)
    {
      g_settings_set_int (self->settings, "window-width", width);
      g_settings_set_int (self->settings, "window-height", height);
    }
  for (guint i = 0; i < G_N_ELEMENTS (panel_keys); i++)
    if (gtk_paned_get_position (panel_paned (self, i)) > 0)
      g_settings_set_int (self->settings, panel_keys[i],
                          gtk_paned_get_position (panel_paned (self, i)));
}


static gboolean
qd_window_close_request (GtkWindow *window)
{
  if (!qd_window_confirm_close (QD_WINDOW (window)))
    return TRUE;
  save_size (QD_WINDOW (window));

  return GTK_WINDOW_CLASS (qd_window_parent_class)->close_request (window);
}

static void
qd_window_dispose (GObject *object)
{
  QdWindow *self = QD_WINDOW (object);

  if (self->document != NULL)
    g_clear_signal_handler (&self->document_changed_id, self->document);
  g_clear_signal_handler (&self->recent_changed_id, gtk_recent_manager_get_default ());
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  /* Stops a run and takes its pages out while the notebook is there. */
  if (self->debugger != NULL)
    g_object_run_dispose (G_OBJECT (self->debugger));
  g_clear_object (&self->debugger);
  if (self->run_session != NULL)
    g_object_run_dispose (G_OBJECT (self->run_session));
  g_clear_object (&self->run_session);
  /* A window that closes is a clean end: its copy is not for recovery.
   * Removed here, not by the object's own end, which a write still in
   * progress may delay. */
  if (self->autosave != NULL)
    qd_autosave_discard (self->autosave);
  g_clear_object (&self->autosave);
  gtk_widget_dispose_template (GTK_WIDGET (self), QD_TYPE_WINDOW);
  g_clear_object (&self->document);
  g_clear_object (&self->file);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (qd_window_parent_class)->dispose (object);
}

static void
qd_window_class_init (QdWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = qd_window_dispose;
  window_class->close_request = qd_window_close_request;

  g_type_ensure (QD_TYPE_CANVAS);
  g_type_ensure (QD_TYPE_INSPECTOR);
  g_type_ensure (QD_TYPE_MESSAGES_VIEW);
  g_type_ensure (QD_TYPE_RUN_BAR);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/qdevs/Qdevs/ui/qd-window.ui");
  gtk_widget_class_bind_template_child (widget_class, QdWindow, title_label);
  gtk_widget_class_bind_template_child (widget_class, QdWindow, subtitle_label);
  gtk_widget_class_bind_template_child (widget_class, QdWindow, palette_list);
  gtk_widget_class_bind_template_child (widget_class, QdWindow, palette_search);
  gtk_widget_class_bind_template_child (widget_class, QdWindow, main_stack);
  gtk_widget_class_bind_template_child (widget_class, QdWindow, paned);
  gtk_widget_class_bind_template_child (widget_class, QdWindow, inspector_paned);
  gtk_widget_class_bind_template_child (widget_class, QdWindow, bottom_paned);
  gtk_widget_class_bind_template_child (widget_class, QdWindow, doc_title_label);
  gtk_widget_class_bind_template_child (widget_class, QdWindow, doc_file_label);
  gtk_widget_class_bind_template_child (widget_class, QdWindow, doc_description_label);
  gtk_widget_class_bind_template_child (widget_class, QdWindow, facts_grid);
  gtk_widget_class_bind_template_child (widget_class, QdWindow, message_revealer);
  gtk_widget_class_bind_template_child (widget_class, QdWindow, message_box);
  gtk_widget_class_bind_template_child (widget_class, QdWindow, message_icon);
  gtk_widget_class_bind_template_child (widget_class, QdWindow, message_label);
  gtk_widget_class_bind_template_child (widget_class, QdWindow, canvas);
  gtk_widget_class_bind_template_child (widget_class, QdWindow, breadcrumb_box);
  gtk_widget_class_bind_template_child (widget_class, QdWindow, info_button);
  gtk_widget_class_bind_template_child (widget_class, QdWindow, inspector);
  gtk_widget_class_bind_template_child (widget_class, QdWindow, messages_view);
  gtk_widget_class_bind_template_child (widget_class, QdWindow, bottom_notebook);
  gtk_widget_class_bind_template_child (widget_class, QdWindow, run_bar);
  gtk_widget_class_bind_template_child (widget_class, QdWindow, recent_menu);
  gtk_widget_class_bind_template_callback (widget_class, on_canvas_message);
  gtk_widget_class_bind_template_callback (widget_class, on_message_close_clicked);
}

static const GActionEntry win_actions[] = {
  { "undo", qd_window_undo_activated, NULL, NULL, NULL, { 0 } },
  { "redo", qd_window_redo_activated, NULL, NULL, NULL, { 0 } },
  { "save", qd_window_save_activated, NULL, NULL, NULL, { 0 } },
  { "save-as", qd_window_save_as_activated, NULL, NULL, NULL, { 0 } },
  { "export", qd_window_export_activated, NULL, NULL, NULL, { 0 } },
  { "check", qd_window_check_activated, NULL, NULL, NULL, { 0 } },
  { "compare-methods", qd_window_compare_methods_activated, NULL, NULL, NULL, { 0 } },
  { "sweep", qd_window_sweep_activated, NULL, NULL, NULL, { 0 } },
  { "open-recent", qd_window_open_recent_activated, "s", NULL, NULL, { 0 } },
  { "open-subsystem", qd_window_open_subsystem_activated, NULL, NULL, NULL, { 0 } },
  { "look-under-mask", qd_window_open_subsystem_activated, NULL, NULL, NULL, { 0 } },
  { "edit-mask", qd_window_edit_mask_activated, NULL, NULL, NULL, { 0 } },
  { "rename", qd_window_rename_activated, NULL, NULL, NULL, { 0 } },
  { "properties", qd_window_properties_activated, NULL, NULL, NULL, { 0 } },
  { "show-params", NULL, NULL, "true", qd_window_show_params_changed, { 0 } },
};

static void
on_inspector_notice (QdWindow   *self,
                     const char *text)
{
  /* Shown after the edit's own change: "Undo brings it back" is untrue
   * once it has, and stale after any other edit. */
  qd_window_show_edit_message (self, GTK_MESSAGE_INFO, text);
}

static void
qd_window_init (QdWindow *self)
{
  GtkDropTarget *drop;
  GtkEventController *shortcuts;
  GtkGesture *click;
  static const struct
  {
    const char *trigger;
    const char *action;
  } keys[] = {
    { "<Control>z", "win.undo" },
    { "<Control><Shift>z", "win.redo" },
    { "<Control>y", "win.redo" },
    { "F2", "win.rename" },
  };

  gtk_widget_init_template (GTK_WIDGET (self));
  self->autosave = qd_autosave_new (NULL);
  qd_test_geometry_watch (GTK_WINDOW (self));
  self->run_session = qd_run_session_new (self->bottom_notebook, self->messages_view,
                                         self->canvas);
  qd_run_bar_set_session (self->run_bar, self->run_session);
  g_signal_connect (qd_run_session_get_event_view (self->run_session),
                    "block-activated", G_CALLBACK (qd_window_on_transition_activated), self);
  self->debugger = qd_debugger_new (self->run_session, self->canvas);
  qd_debugger_panel_set_inspector (QD_DEBUGGER_PANEL (qd_debugger_panel_new (self->debugger,
                                                                            self->canvas,
                                                                            self->bottom_notebook)),
                                   self->inspector);
  g_signal_connect (qd_run_session_get_event_view (self->run_session),
                    "error", G_CALLBACK (qd_window_on_event_view_error), self);
  g_signal_connect (self->run_bar, "message", G_CALLBACK (qd_window_on_run_bar_message), self);
  g_signal_connect (self->run_bar, "edit-message-hidden",
                    G_CALLBACK (qd_window_on_run_bar_edit_message_hidden), self);

  g_action_map_add_action_entries (G_ACTION_MAP (self), win_actions,
                                   G_N_ELEMENTS (win_actions), self);
  /* Undo works wherever the focus is, so the window holds the keys. */
  shortcuts = gtk_shortcut_controller_new ();
  for (guint i = 0; i < G_N_ELEMENTS (keys); i++)
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (shortcuts),
                                          gtk_shortcut_new (gtk_shortcut_trigger_parse_string (keys[i].trigger),
                                                            gtk_named_action_new (keys[i].action)));
  gtk_widget_add_controller (GTK_WIDGET (self), shortcuts);
  g_signal_connect (self->palette_list, "row-activated",
                    G_CALLBACK (qd_window_on_palette_row_activated), self);
  gtk_list_box_set_filter_func (self->palette_list, qd_window_palette_filter_func, self, NULL);
  g_signal_connect_swapped (self->palette_search, "search-changed",
                            G_CALLBACK (qd_window_on_palette_search_changed), self);
  g_signal_connect_swapped (self->palette_search, "activate",
                            G_CALLBACK (qd_window_on_palette_search_activate), self);
  g_signal_connect_swapped (self->palette_search, "stop-search",
                            G_CALLBACK (qd_window_on_palette_search_stop), self);
  g_signal_connect_swapped (self->canvas, "notify::system",
                            G_CALLBACK (update_breadcrumbs), self);
  g_signal_connect_swapped (self->inspector, "notice",
                            G_CALLBACK (on_inspector_notice), self);
  g_signal_connect_object (qd_canvas_get_controller (self->canvas), "selection-changed",
                           G_CALLBACK (qd_window_on_selection_changed), self, G_CONNECT_SWAPPED);
  /* Added after the canvas's own gestures and run on the release, so the
   * canvas has finished with the click (a click on empty space clears
   * the selection when it ends) when this one selects and inspects. */
  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect (click, "pressed", G_CALLBACK (qd_window_on_canvas_click_pressed), self);
  g_signal_connect (click, "released", G_CALLBACK (qd_window_on_canvas_click_released), self);
  gtk_widget_add_controller (GTK_WIDGET (self->canvas), GTK_EVENT_CONTROLLER (click));
  qd_window_extend_context_menu (self);
  g_signal_connect (self->messages_view, "problem-activated",
                    G_CALLBACK (qd_window_on_problem_activated), self);
  g_signal_connect (self->messages_view, "problems-changed",
                    G_CALLBACK (qd_window_on_problems_changed), self);
  self->recent_changed_id = g_signal_connect_swapped (gtk_recent_manager_get_default (),
                                                      "changed",
                                                      G_CALLBACK (qd_window_update_recent_menu), self);
  qd_window_update_recent_menu (self);

  self->settings = qd_settings_new_if_installed ();
  restore_size (self);

  qd_window_populate_palette (self);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (qd_window_on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  qd_window_update_title (self);
  qd_window_update_document_page (self);
  qd_window_update_undo_actions (self);
  qd_window_update_file_actions (self);
  qd_window_update_selection_actions (self);
}

QdWindow *
qd_window_new (GtkApplication *application)
{
  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);

  return g_object_new (QD_TYPE_WINDOW, "application", application, NULL);
}


void
qd_window_set_document (QdWindow   *self,
                        QdDocument *document,
                        GFile      *file)
{
  g_return_if_fail (QD_IS_WINDOW (self));
  g_return_if_fail (QD_IS_DOCUMENT (document));
  g_return_if_fail (file == NULL || G_IS_FILE (file));

  g_object_ref (document);
  g_set_object (&self->file, file);
  if (self->document != NULL)
    g_clear_signal_handler (&self->document_changed_id, self->document);
  g_clear_object (&self->document);
  self->document = document;
  self->document_changed_id = g_signal_connect (document, "changed",
                                                G_CALLBACK (on_document_changed), self);
  self->close_confirmed = FALSE;
  qd_window_hide_message (self);
  qd_window_update_title (self);
  qd_window_update_document_page (self);
  qd_canvas_set_document (self->canvas, document);
  qd_inspector_set_document (self->inspector, document);
  qd_messages_view_set_problems (self->messages_view, NULL);
  qd_run_session_set_document (self->run_session, document);
  qd_autosave_set_document (self->autosave, document, file);
  update_breadcrumbs (self);
  qd_window_update_undo_actions (self);
  qd_window_update_file_actions (self);
  qd_window_update_selection_actions (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->canvas));
}

guint
qd_window_check (QdWindow *self)
{
  g_return_val_if_fail (QD_IS_WINDOW (self), 0);

  if (self->document == NULL)
    return 0;
  qd_window_show_messages (self);
  return qd_messages_view_check (self->messages_view, self->document);
}

QdDocument *
qd_window_get_document (QdWindow *self)
{
  g_return_val_if_fail (QD_IS_WINDOW (self), NULL);

  return self->document;
}

GFile *
qd_window_get_file (QdWindow *self)
{
  g_return_val_if_fail (QD_IS_WINDOW (self), NULL);

  return self->file;
}

QdAutosave *
qd_window_get_autosave (QdWindow *self)
{
  g_return_val_if_fail (QD_IS_WINDOW (self), NULL);

  return self->autosave;
}

void
qd_window_show_message (QdWindow       *self,
                        GtkMessageType  type,
                        const char     *text)
{
  const char *icon_name;

  g_return_if_fail (QD_IS_WINDOW (self));
  g_return_if_fail (text != NULL);

  gtk_widget_remove_css_class (self->message_box, "error");
  gtk_widget_remove_css_class (self->message_box, "warning");
  gtk_widget_remove_css_class (self->message_box, "info");
  switch (type)
    {
    case GTK_MESSAGE_ERROR:
      icon_name = "dialog-error-symbolic";
      gtk_widget_add_css_class (self->message_box, "error");
      break;
    case GTK_MESSAGE_WARNING:
      icon_name = "dialog-warning-symbolic";
      gtk_widget_add_css_class (self->message_box, "warning");
      break;
    case GTK_MESSAGE_INFO:
    case GTK_MESSAGE_QUESTION:
    case GTK_MESSAGE_OTHER:
    default:
      icon_name = "dialog-information-symbolic";
      gtk_widget_add_css_class (self->message_box, "info");
      break;
    }
  gtk_image_set_from_icon_name (self->message_icon, icon_name);
  gtk_label_set_text (self->message_label, text);
  self->edit_message = FALSE;
  gtk_revealer_set_reveal_child (self->message_revealer, TRUE);
}

void
qd_window_show_edit_message (QdWindow       *self,
                             GtkMessageType  type,
                             const char     *text)
{
  g_return_if_fail (QD_IS_WINDOW (self));

  qd_window_show_message (self, type, text);
  self->edit_message = TRUE;
}

void
qd_window_hide_message (QdWindow *self)
{
  g_return_if_fail (QD_IS_WINDOW (self));

  gtk_revealer_set_reveal_child (self->message_revealer, FALSE);
}

void
qd_window_hide_edit_message (QdWindow *self)
{
  g_return_if_fail (QD_IS_WINDOW (self));

  if (self->edit_message)
    qd_window_hide_message (self);
}

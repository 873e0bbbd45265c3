/* qd-window.c: the main window of the QDevs editor
 *
 * The static chrome comes from qd-window.ui. This file fills the palette
 * from the block registry (its rows drag onto the canvas), shows the
 * diagram in the canvas with a breadcrumb bar of the subsystems opened,
 * keeps what a loaded diagram contains in the header bar's information
 * popover, keeps the header bar's title and the Undo and Redo actions in
 * step with the document, and remembers the window size in GSettings.
 * It also gives the canvas what other block-diagram editors have there:
 * Open Subsystem, Rename (F2) and Properties in its context menu, and a
 * double-click on a block that goes to its parameters in the inspector.
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qd-autosave.h"
#include "qd-canvas.h"
#include "qd-compare-dialog.h"
#include "qd-debugger.h"
#include "qd-debugger-panel.h"
#include "qd-diagram-export.h"
#include "qd-inspector.h"
#include "qd-messages-view.h"
#include "qd-run-bar.h"
#include "qd-run-session.h"
#include "qd-test-geometry.h"
#include "qd-settings.h"
#include "qd-window.h"

struct _QdWindow
{
  GtkApplicationWindow  parent_instance;

  /* Template children */
  GtkLabel    *title_label;
  GtkLabel    *subtitle_label;
  GtkListBox  *palette_list;
  GtkSearchEntry *palette_search;
  GtkStack    *main_stack;
  GtkPaned    *paned;
  GtkPaned    *inspector_paned;
  GtkPaned    *bottom_paned;
  GtkLabel    *doc_title_label;
  GtkLabel    *doc_file_label;
  GtkLabel    *doc_description_label;
  GtkGrid     *facts_grid;
  GtkRevealer *message_revealer;
  GtkWidget   *message_box;
  GtkImage    *message_icon;
  GtkLabel    *message_label;
  QdCanvas    *canvas;
  GtkBox      *breadcrumb_box;
  GtkWidget   *info_button;
  QdInspector *inspector;
  QdMessagesView *messages_view;
  GtkNotebook *bottom_notebook;
  QdRunBar    *run_bar;
  GMenu       *recent_menu;

  /* NULL when the schema cannot be found (neither installed nor in the
   * build tree): the window then simply forgets its size instead of
   * aborting. */
  GSettings   *settings;

  QdDocument  *document;
  GFile       *file;
  gulong       document_changed_id;
  /* The message shown is about one edit (a canvas refusal, an inspector
   * notice): the next change of the document, an Undo too, clears it. */
  gboolean     edit_message;

  /* Save As and Export: the chooser lives until its response. */
  GtkFileChooserNative *chooser;
  /* Close once the save started by the unsaved-changes prompt succeeds. */
  gboolean     close_after_save;
  /* The user chose Discard: close without asking again. */
  gboolean     close_confirmed;
  gulong       recent_changed_id;

  /* Runs of the diagram: plots and statistics in the bottom notebook. */
  QdRunSession *run_session;
  QdDebugger   *debugger;

  /* The copy of unsaved changes kept for after a crash. */
  QdAutosave  *autosave;

  /* The system shown when a click on the canvas began (only compared):
   * a double-click that opened a subsystem has nothing more to do. */
  QdSystem    *click_system;
};

G_DEFINE_FINAL_TYPE (QdWindow, qd_window, GTK_TYPE_APPLICATION_WINDOW)

static void
palette_header_func (GtkListBoxRow *row,
                     GtkListBoxRow *before,
                     gpointer       user_data)
{
  const QdBlockType *type = g_object_get_data (G_OBJECT (row), "qd-block-type");
  const QdBlockType *prev = NULL;
  GtkWidget *header;

  if (before != NULL)
    prev = g_object_get_data (G_OBJECT (before), "qd-block-type");

  /* The registry sorts by category, so a header goes where it changes. */
  if (prev != NULL && g_strcmp0 (prev->category, type->category) == 0)
    {
      gtk_list_box_row_set_header (row, NULL);
      return;
    }

  header = gtk_label_new (_(type->category));
  gtk_label_set_xalign (GTK_LABEL (header), 0.0f);
  gtk_widget_add_css_class (header, "qd-category");
  gtk_list_box_row_set_header (row, header);
}

static GdkContentProvider *
on_palette_drag_prepare (GtkDragSource *source,
                         double         x,
                         double         y,
                         GtkWidget     *row)
{
  const QdBlockType *type = g_object_get_data (G_OBJECT (row), "qd-block-type");

  return gdk_content_provider_new_typed (G_TYPE_STRING, type->id);
}

static void
on_palette_drag_begin (GtkDragSource *source,
                       GdkDrag       *drag,
                       GtkWidget     *row)
{
  /* The row itself follows the pointer: it shows what will be dropped. */
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (row);

  gtk_drag_source_set_icon (source, paintable, 12, 12);
}

static GtkWidget *
create_palette_row (const QdBlockType *type)
{
  GtkDragSource *source;
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 10);
  GtkWidget *glyph = gtk_label_new (type->glyph != NULL ? type->glyph : "");
  GtkWidget *name = gtk_label_new (_(type->name));

  gtk_widget_add_css_class (glyph, "qd-glyph");
  gtk_widget_set_valign (glyph, GTK_ALIGN_CENTER);
  gtk_label_set_width_chars (GTK_LABEL (glyph), 3);
  gtk_label_set_xalign (GTK_LABEL (name), 0.0f);
  gtk_label_set_ellipsize (GTK_LABEL (name), PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (name, TRUE);
  gtk_box_append (GTK_BOX (box), glyph);
  gtk_box_append (GTK_BOX (box), name);
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);

  if (type->doc != NULL && type->doc[0] != '\0')
    gtk_widget_set_tooltip_text (row, _(type->doc));
  g_object_set_data (G_OBJECT (row), "qd-block-type", (gpointer) type);
  /* For the end-to-end tests (qd-test-geometry.c). */
  {
    g_autofree char *widget_name = g_strconcat ("palette:", type->id, NULL);

    gtk_widget_set_name (row, widget_name);
  }

  /* Rows drag onto the canvas, carrying the block type id. */
  source = gtk_drag_source_new ();
  gtk_drag_source_set_actions (source, GDK_ACTION_COPY);
  g_signal_connect (source, "prepare", G_CALLBACK (on_palette_drag_prepare), row);
  g_signal_connect (source, "drag-begin", G_CALLBACK (on_palette_drag_begin), row);
  gtk_widget_add_controller (row, GTK_EVENT_CONTROLLER (source));

  return row;
}

static void
populate_palette (QdWindow *self)
{
  const QdBlockType *const *types;
  guint n_types = 0;

  types = qd_registry_list (&n_types);
  for (guint i = 0; i < n_types; i++)
    /* A placeholder only comes from an imported model. */
    if ((types[i]->flags & QD_BLOCK_PLACEHOLDER) == 0)
      gtk_list_box_append (self->palette_list, create_palette_row (types[i]));
  gtk_list_box_set_header_func (self->palette_list, palette_header_func,
                                NULL, NULL);
  /* A single click only focuses a row (it may start a drag); Enter or a
   * double click inserts the block. */
  gtk_list_box_set_activate_on_single_click (self->palette_list, FALSE);
}

static void
on_palette_row_activated (GtkListBox    *list,
                          GtkListBoxRow *row,
                          QdWindow      *self)
{
  const QdBlockType *type = g_object_get_data (G_OBJECT (row), "qd-block-type");

  if (type == NULL)
    return;
  if (self->document == NULL)
    {
      qd_window_show_message (self, GTK_MESSAGE_INFO,
                              _("Open a diagram first, then add blocks to it."));
      return;
    }
  qd_canvas_insert_block (self->canvas, type->id);
}

/* Palette search: a row stays when its name (as shown), type id or
 * category contains the text, ignoring case, so "int" finds Integrator
 * and "sink" a whole category. */
static gboolean
palette_filter_func (GtkListBoxRow *row,
                     gpointer       user_data)
{
  QdWindow *self = user_data;
  const QdBlockType *type = g_object_get_data (G_OBJECT (row), "qd-block-type");
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->palette_search));
  g_autofree char *needle = NULL;
  const char *haystacks[3];

  if (text == NULL || text[0] == '\0' || type == NULL)
    return TRUE;
  needle = g_utf8_casefold (text, -1);
  haystacks[0] = _(type->name);
  haystacks[1] = type->id;
  haystacks[2] = _(type->category);
  for (guint i = 0; i < G_N_ELEMENTS (haystacks); i++)
    {
      g_autofree char *folded = g_utf8_casefold (haystacks[i], -1);

      if (strstr (folded, needle) != NULL)
        return TRUE;
    }
  return FALSE;
}

static void
on_palette_search_changed (QdWindow *self)
{
  gtk_list_box_invalidate_filter (self->palette_list);
  gtk_list_box_invalidate_headers (self->palette_list);
}

/* Enter in the search adds the first block found, as in a launcher. */
static void
on_palette_search_activate (QdWindow *self)
{
  for (int i = 0;; i++)
    {
      GtkListBoxRow *row = gtk_list_box_get_row_at_index (self->palette_list, i);

      if (row == NULL)
        return;
      if (gtk_widget_get_child_visible (GTK_WIDGET (row)) &&
          palette_filter_func (row, self))
        {
          g_signal_emit_by_name (self->palette_list, "row-activated", row);
          return;
        }
    }
}

static void
on_palette_search_stop (QdWindow *self)
{
  gtk_editable_set_text (GTK_EDITABLE (self->palette_search), "");
}

static char *dup_display_title    (QdWindow *self);
static void  update_document_page (QdWindow *self);
static void  update_title         (QdWindow *self);
static void  update_selection_actions (QdWindow *self);

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
        label = dup_display_title (self);
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

/* Undo and Redo */

static void
update_undo_actions (QdWindow *self)
{
  GAction *undo = g_action_map_lookup_action (G_ACTION_MAP (self), "undo");
  GAction *redo = g_action_map_lookup_action (G_ACTION_MAP (self), "redo");

  g_simple_action_set_enabled (G_SIMPLE_ACTION (undo),
                               self->document != NULL && qd_document_can_undo (self->document));
  g_simple_action_set_enabled (G_SIMPLE_ACTION (redo),
                               self->document != NULL && qd_document_can_redo (self->document));
}

static void
undo_activated (GSimpleAction *action,
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

static void
redo_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  QdWindow *self = user_data;

  if (qd_canvas_cancel_gesture (self->canvas))
    return;
  if (self->document != NULL)
    qd_document_redo (self->document);
}

static void
on_document_changed (QdDocument *document,
                     QdWindow   *self)
{
  update_undo_actions (self);
  /* An undo may take the selected block away, or make it a subsystem. */
  update_selection_actions (self);
  update_title (self);
  /* The counts in the information popover follow the edits. */
  update_document_page (self);
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
static char *
dup_display_title (QdWindow *self)
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

static void
update_title (QdWindow *self)
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

  title = dup_display_title (self);
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

static void
update_document_page (QdWindow *self)
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

  title = dup_display_title (self);
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

/* Files: save, save as, recent diagrams, unsaved changes, export; and
 * the model check with its messages panel. */

enum
{
  CLOSE_RESPONSE_SAVE = 1,
  CLOSE_RESPONSE_DISCARD = 2,
};

#define RECENT_MAX 10

static void
update_file_actions (QdWindow *self)
{
  static const char *const names[] = { "save", "save-as", "export", "check", "compare-methods" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      GAction *action = g_action_map_lookup_action (G_ACTION_MAP (self), names[i]);

      g_simple_action_set_enabled (G_SIMPLE_ACTION (action), self->document != NULL);
    }
}

static void
add_to_recent (GFile *file)
{
  g_autofree char *uri = g_file_get_uri (file);

  gtk_recent_manager_add_item (gtk_recent_manager_get_default (), uri);
}

static gboolean
save_to_file (QdWindow *self,
              GFile    *file)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_file_get_path (file);

  if (path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (file);
      g_autofree char *text = g_strdup_printf (_("%s: only local files can be "
                                                 "saved; choose a folder on "
                                                 "this computer"), uri);

      qd_window_show_message (self, GTK_MESSAGE_ERROR, text);
      return FALSE;
    }
  /* The save is atomic: a failure leaves the old file as it was. */
  if (!qd_document_save (self->document, path, &error))
    {
      qd_window_show_message (self, GTK_MESSAGE_ERROR, error->message);
      return FALSE;
    }
  g_set_object (&self->file, file);
  qd_autosave_set_file (self->autosave, file);
  add_to_recent (file);
  update_title (self);
  update_document_page (self);
  return TRUE;
}

/* The chooser's file, with the extension added when the name has none. */
static GFile *
dup_chosen_file (GtkFileChooser *chooser,
                 const char     *extension)
{
  g_autoptr(GFile) file = gtk_file_chooser_get_file (chooser);
  g_autofree char *basename = NULL;
  g_autoptr(GFile) parent = NULL;
  g_autofree char *with_extension = NULL;

  if (file == NULL)
    return NULL;
  basename = g_file_get_basename (file);
  if (extension == NULL || strchr (basename, '.') != NULL)
    return g_steal_pointer (&file);
  parent = g_file_get_parent (file);
  with_extension = g_strconcat (basename, extension, NULL);
  return g_file_get_child (parent, with_extension);
}

static void
on_save_chooser_response (GtkNativeDialog *dialog,
                          int              response,
                          QdWindow        *self)
{
  gboolean saved = FALSE;

  if (response == GTK_RESPONSE_ACCEPT && self->document != NULL)
    {
      g_autoptr(GFile) file = dup_chosen_file (GTK_FILE_CHOOSER (dialog),
                                               QD_FILE_EXTENSION);

      if (file != NULL)
        saved = save_to_file (self, file);
    }
  gtk_native_dialog_destroy (dialog);
  g_clear_object (&self->chooser);

  if (self->close_after_save)
    {
      self->close_after_save = FALSE;
      if (saved)
        {
          self->close_confirmed = TRUE;
          gtk_window_close (GTK_WINDOW (self));
        }
    }
}

static void
add_filter (GtkFileChooser *chooser,
            const char     *name,
            const char     *suffix)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  gtk_file_filter_add_suffix (filter, suffix);
  /* A name typed without extension gets the one of the filter shown. */
  g_object_set_data_full (G_OBJECT (filter), "qd-extension",
                          g_strconcat (".", suffix, NULL), g_free);
  gtk_file_chooser_add_filter (chooser, filter);
  g_object_unref (filter);
}

static void
show_save_chooser (QdWindow *self)
{
  GtkFileChooser *chooser;

  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
      return;
    }
  self->chooser = gtk_file_chooser_native_new (_("Save Diagram"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Save"), _("_Cancel"));
  chooser = GTK_FILE_CHOOSER (self->chooser);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  add_filter (chooser, _("QDevs Diagrams"), "qdevs");
  if (self->file != NULL)
    gtk_file_chooser_set_file (chooser, self->file, NULL);
  else
    {
      g_autofree char *title = dup_display_title (self);
      g_autofree char *name = g_strconcat (title, QD_FILE_EXTENSION, NULL);

      gtk_file_chooser_set_current_name (chooser, name);
    }
  g_signal_connect (self->chooser, "response",
                    G_CALLBACK (on_save_chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
save_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  QdWindow *self = user_data;

  if (self->document == NULL)
    return;
  /* A diagram from an example or a new one has no file: ask for one. */
  if (self->file == NULL)
    show_save_chooser (self);
  else
    save_to_file (self, self->file);
}

static void
save_as_activated (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       user_data)
{
  QdWindow *self = user_data;

  if (self->document != NULL)
    show_save_chooser (self);
}

/* Export */

static GHashTable *
dup_selected_ids (QdWindow *self)
{
  QdCanvasController *controller = qd_canvas_get_controller (self->canvas);
  g_autoptr(GPtrArray) blocks = qd_canvas_controller_get_selected_blocks (controller);
  GHashTable *ids;

  if (blocks == NULL || blocks->len == 0)
    return NULL;
  ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < blocks->len; i++)
    g_hash_table_add (ids, g_strdup (((QdBlock *) g_ptr_array_index (blocks, i))->id));
  return ids;
}

static void
on_export_chooser_response (GtkNativeDialog *dialog,
                            int              response,
                            QdWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT && self->document != NULL)
    {
      GtkFileChooser *chooser = GTK_FILE_CHOOSER (dialog);
      const char *what = gtk_file_chooser_get_choice (chooser, "what");
      GtkFileFilter *filter = gtk_file_chooser_get_filter (chooser);
      const char *extension = filter != NULL ? g_object_get_data (G_OBJECT (filter), "qd-extension") : NULL;
      g_autoptr(GFile) file = dup_chosen_file (chooser, extension != NULL ? extension : ".svg");
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
      g_autoptr(GHashTable) selection = NULL;
      g_autoptr(GError) error = NULL;

      if (g_strcmp0 (what, "selection") == 0)
        selection = dup_selected_ids (self);
      if (path != NULL
          && !qd_diagram_export (self->document, qd_canvas_get_system (self->canvas),
                                 selection, path, &error))
        qd_window_show_message (self, GTK_MESSAGE_ERROR, error->message);
    }
  gtk_native_dialog_destroy (dialog);
  g_clear_object (&self->chooser);
}

static void
export_activated (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  QdWindow *self = user_data;
  g_autoptr(GHashTable) selection = NULL;
  GtkFileChooser *chooser;
  g_autofree char *title = NULL;
  g_autofree char *name = NULL;
  const char *ids[] = { "all", "selection", NULL };
  const char *labels[] = { N_("The whole diagram"), N_("The selected blocks"), NULL };
  const char *translated[G_N_ELEMENTS (labels)];

  if (self->document == NULL)
    return;
  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
      return;
    }
  self->chooser = gtk_file_chooser_native_new (_("Export Diagram"), GTK_WINDOW (self),
                                               GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Export"), _("_Cancel"));
  chooser = GTK_FILE_CHOOSER (self->chooser);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  /* The format follows the extension typed; the filters only show
   * which ones there are. */
  add_filter (chooser, _("SVG Images"), "svg");
  add_filter (chooser, _("PDF Documents"), "pdf");
  add_filter (chooser, _("PNG Images"), "png");
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    translated[i] = labels[i] != NULL ? _(labels[i]) : NULL;
  gtk_file_chooser_add_choice (chooser, "what", _("Export"), ids, translated);
  selection = dup_selected_ids (self);
  gtk_file_chooser_set_choice (chooser, "what", selection != NULL ? "selection" : "all");

  title = dup_display_title (self);
  name = g_strconcat (title, ".svg", NULL);
  gtk_file_chooser_set_current_name (chooser, name);
  g_signal_connect (self->chooser, "response",
                    G_CALLBACK (on_export_chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* Check */

static void
check_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  qd_window_check (QD_WINDOW (user_data));
}

static void
compare_methods_activated (GSimpleAction *action,
                           GVariant      *parameter,
                           gpointer       user_data)
{
  QdWindow *self = QD_WINDOW (user_data);

  GtkWidget *dialog;

  if (self->document == NULL)
    return;
  dialog = qd_compare_dialog_new (GTK_WINDOW (self), self->document);
  /* Its results overlay in the window's Scopes too. */
  qd_run_session_follow_comparisons (self->run_session, QD_COMPARE_DIALOG (dialog));
  gtk_window_present (GTK_WINDOW (dialog));
}

/* The blocks the messages name are ringed on the canvas until the next
 * check replaces the list. */
static void
on_problems_changed (QdMessagesView *view,
                     QdWindow       *self)
{
  GHashTable *ids = qd_messages_view_get_block_ids (view);

  if (self->canvas == NULL)
    return;
  qd_canvas_set_highlight (self->canvas,
                           ids != NULL && g_hash_table_size (ids) > 0 ? ids : NULL);
}

/* The parameter of @block that @problem is about, or NULL: messages name
 * it in quotes ("parameter 'k': unknown name 'kk'"), in either style of
 * quotes, so that a translated message is recognised too. */
static char *
dup_problem_param (const QdBlock   *block,
                   const QdProblem *problem)
{
  const QdBlockType *type = qd_block_get_type_info (block);
  const char *first = NULL, *found = NULL;

  if (type == NULL || problem == NULL || problem->message == NULL ||
      g_strcmp0 (problem->block_id, block->id) != 0)
    return NULL;
  /* The parameter is named first; a name quoted later in the message is
   * what it says about the value ("unknown name 'k'"). */
  for (guint i = 0; i < type->n_params; i++)
    {
      const char *name = type->params[i].name;
      g_autofree char *plain = g_strdup_printf ("'%s'", name);
      g_autofree char *curly = g_strdup_printf ("“%s”", name);
      const char *at = strstr (problem->message, plain);
      const char *at_curly = strstr (problem->message, curly);

      if (at == NULL || (at_curly != NULL && at_curly < at))
        at = at_curly;
      if (at != NULL && (first == NULL || at < first))
        {
          first = at;
          found = name;
        }
    }
  return g_strdup (found);
}

static void
on_problem_activated (QdMessagesView *view,
                      const char     *block_id,
                      const char     *path,
                      QdWindow       *self)
{
  QdCanvasController *controller = qd_canvas_get_controller (self->canvas);
  g_autofree char *key = NULL;
  QdBlock *block = NULL;

  if (self->document != NULL && block_id != NULL)
    block = qd_document_find_block (self->document, block_id);
  if (block == NULL)
    {
      /* A problem of the model: its settings are in the inspector. */
      qd_canvas_controller_clear_selection (controller);
      qd_inspector_set_block (self->inspector, NULL);
      return;
    }
  /* Opens the subsystem that holds the block, selects it and scrolls it
   * into view. */
  qd_canvas_reveal_block (self->canvas, block);
  qd_inspector_set_block (self->inspector, block);
  /* A bad parameter: the keyboard goes to its field, to be fixed there. */
  key = dup_problem_param (block, qd_messages_view_get_activated (view));
  if (key != NULL)
    qd_inspector_focus_field (self->inspector, key);
  else if (qd_messages_view_get_activated (view) != NULL)
    qd_inspector_focus_script_line (self->inspector,
                                    qd_messages_view_get_activated (view)->message);
}

/* A row of the Transitions page: its block, revealed and selected. The
 * diagram may have changed since the run; a block that is gone is not
 * found, and nothing happens. */
/* The run bar and the event view report here; the window shows it. */
static void
on_run_bar_message (QdRunBar       *bar,
                    GtkMessageType  type,
                    const char     *text,
                    gboolean        about_edit,
                    QdWindow       *self)
{
  if (about_edit)
    qd_window_show_edit_message (self, type, text);
  else
    qd_window_show_message (self, type, text);
}

static void
on_run_bar_edit_message_hidden (QdRunBar *bar,
                                QdWindow *self)
{
  qd_window_hide_edit_message (self);
}

static void
on_event_view_error (QdEventView *view,
                     const char  *message,
                     QdWindow    *self)
{
  qd_window_show_message (self, GTK_MESSAGE_ERROR, message);
}

static void
on_transition_activated (QdEventView *view,
                         const char  *path,
                         QdWindow    *self)
{
  QdBlock *block;

  if (self->document == NULL)
    return;
  block = qd_document_find_block_by_path (self->document, path);
  if (block == NULL)
    return;
  qd_canvas_reveal_block (self->canvas, block);
  qd_inspector_set_block (self->inspector, block);
}

static void
on_selection_changed (QdWindow *self)
{
  g_autoptr(GPtrArray) blocks = NULL;

  /* The canvas may clear its selection while the window is disposed. */
  if (self->canvas == NULL || self->inspector == NULL)
    return;
  blocks = qd_canvas_controller_get_selected_blocks (qd_canvas_get_controller (self->canvas));
  qd_inspector_set_selection (self->inspector, blocks);
  update_selection_actions (self);
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

static void
update_selection_actions (QdWindow *self)
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
  action = g_action_map_lookup_action (G_ACTION_MAP (self), "rename");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action), block != NULL);
  /* With nothing selected the inspector shows the model's properties. */
  action = g_action_map_lookup_action (G_ACTION_MAP (self), "properties");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (action),
                               self->document != NULL && n_selected <= 1);
}

static void
open_subsystem_activated (GSimpleAction *action,
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

static void
rename_activated (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  QdWindow *self = user_data;
  g_autoptr(QdBlock) block = dup_single_selected (self);

  if (block != NULL)
    inspect (self, block, "name");
}

static void
properties_activated (GSimpleAction *action,
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

static void
on_canvas_click_pressed (GtkGestureClick *gesture,
                         int              n_press,
                         double           x,
                         double           y,
                         QdWindow        *self)
{
  if (n_press == 1)
    self->click_system = qd_canvas_get_system (self->canvas);
}

static void
on_canvas_click_released (GtkGestureClick *gesture,
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
static void
extend_context_menu (QdWindow *self)
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

/* Recent diagrams */

static int
compare_recent (gconstpointer a,
                gconstpointer b)
{
  GtkRecentInfo *ia = (GtkRecentInfo *) a;
  GtkRecentInfo *ib = (GtkRecentInfo *) b;

  /* The most recently used first. */
  return -g_date_time_compare (gtk_recent_info_get_modified (ia),
                               gtk_recent_info_get_modified (ib));
}

static void
update_recent_menu (QdWindow *self)
{
  GList *items = gtk_recent_manager_get_items (gtk_recent_manager_get_default ());
  guint n = 0;

  g_menu_remove_all (self->recent_menu);
  items = g_list_sort (items, compare_recent);
  for (GList *l = items; l != NULL && n < RECENT_MAX; l = l->next)
    {
      GtkRecentInfo *info = l->data;
      const char *uri = gtk_recent_info_get_uri (info);
      g_autoptr(GMenuItem) item = NULL;

      if (!g_str_has_suffix (uri, QD_FILE_EXTENSION) || !gtk_recent_info_exists (info))
        continue;
      item = g_menu_item_new (gtk_recent_info_get_display_name (info), NULL);
      g_menu_item_set_action_and_target (item, "win.open-recent", "s", uri);
      g_menu_append_item (self->recent_menu, item);
      n++;
    }
  g_list_free_full (items, (GDestroyNotify) gtk_recent_info_unref);

  if (n == 0)
    /* An item without an action shows greyed out. */
    g_menu_append (self->recent_menu, _("No Recent Diagrams"), "win.no-recent");
}

static void
open_recent_activated (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  QdWindow *self = user_data;
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (parameter, NULL));
  GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));

  if (self->document == NULL || app == NULL)
    qd_window_open_file (self, file, NULL);
  else
    g_application_open (G_APPLICATION (app), &file, 1, "");
}

/* Unsaved changes */

static void
on_close_response (GtkDialog *dialog,
                   int        response,
                   QdWindow  *self)
{
  /* The dialog is finalized only after this handler, when the window may
   * be gone: let go of it as a parent now. */
  gtk_window_set_transient_for (GTK_WINDOW (dialog), NULL);
  gtk_window_destroy (GTK_WINDOW (dialog));
  switch (response)
    {
    case CLOSE_RESPONSE_SAVE:
      if (self->file == NULL)
        {
          self->close_after_save = TRUE;
          show_save_chooser (self);
        }
      else if (save_to_file (self, self->file))
        {
          self->close_confirmed = TRUE;
          gtk_window_close (GTK_WINDOW (self));
        }
      break;
    case CLOSE_RESPONSE_DISCARD:
      self->close_confirmed = TRUE;
      gtk_window_close (GTK_WINDOW (self));
      break;
    default:
      break;
    }
}

/* TRUE when the window may close now; otherwise asks what to do with
 * the unsaved changes and closes (or not) once answered. */
static gboolean
confirm_close (QdWindow *self)
{
  g_autofree char *title = NULL;
  GtkWidget *dialog;
  GtkWidget *button;

  if (self->close_confirmed || self->document == NULL
      || !qd_document_get_modified (self->document))
    return TRUE;

  title = dup_display_title (self);
  dialog = gtk_message_dialog_new (GTK_WINDOW (self),
                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                   _("Save changes to “%s” before closing?"), title);
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s",
                                            _("If you don’t save, the changes "
                                              "since the last save are lost."));
  gtk_dialog_add_buttons (GTK_DIALOG (dialog),
                          _("_Discard"), CLOSE_RESPONSE_DISCARD,
                          _("_Cancel"), GTK_RESPONSE_CANCEL,
                          _("_Save"), CLOSE_RESPONSE_SAVE,
                          NULL);
  button = gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), CLOSE_RESPONSE_DISCARD);
  gtk_widget_add_css_class (button, "destructive-action");
  button = gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), CLOSE_RESPONSE_SAVE);
  gtk_widget_add_css_class (button, "suggested-action");
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), CLOSE_RESPONSE_SAVE);
  g_signal_connect (dialog, "response", G_CALLBACK (on_close_response), self);
  gtk_window_present (GTK_WINDOW (dialog));
  return FALSE;
}

static gboolean
qd_window_close_request (GtkWindow *window)
{
  if (!confirm_close (QD_WINDOW (window)))
    return TRUE;
  save_size (QD_WINDOW (window));

  return GTK_WINDOW_CLASS (qd_window_parent_class)->close_request (window);
}

static gboolean
on_drop (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         QdWindow      *self)
{
  GSList *files;

  if (!G_VALUE_HOLDS (value, GDK_TYPE_FILE_LIST))
    return FALSE;
  files = g_value_get_boxed (value);
  if (files == NULL)
    return FALSE;

  /* One window shows one diagram: the first file goes here, any others
   * go through the application, which opens a window for each. */
  qd_window_open_file (self, files->data, NULL);
  if (files->next != NULL)
    {
      GtkApplication *app = gtk_window_get_application (GTK_WINDOW (self));
      GPtrArray *rest = g_ptr_array_new ();

      for (GSList *l = files->next; l != NULL; l = l->next)
        g_ptr_array_add (rest, l->data);
      if (app != NULL)
        g_application_open (G_APPLICATION (app), (GFile **) rest->pdata,
                            (int) rest->len, "");
      g_ptr_array_unref (rest);
    }
  return TRUE;
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

/* View ▸ Block Parameters. */
static void
show_params_changed (GSimpleAction *action,
                     GVariant      *state,
                     gpointer       user_data)
{
  QdWindow *self = user_data;

  qd_canvas_set_show_params (self->canvas, g_variant_get_boolean (state));
  g_simple_action_set_state (action, state);
}

static const GActionEntry win_actions[] = {
  { "undo", undo_activated, NULL, NULL, NULL, { 0 } },
  { "redo", redo_activated, NULL, NULL, NULL, { 0 } },
  { "save", save_activated, NULL, NULL, NULL, { 0 } },
  { "save-as", save_as_activated, NULL, NULL, NULL, { 0 } },
  { "export", export_activated, NULL, NULL, NULL, { 0 } },
  { "check", check_activated, NULL, NULL, NULL, { 0 } },
  { "compare-methods", compare_methods_activated, NULL, NULL, NULL, { 0 } },
  { "open-recent", open_recent_activated, "s", NULL, NULL, { 0 } },
  { "open-subsystem", open_subsystem_activated, NULL, NULL, NULL, { 0 } },
  { "rename", rename_activated, NULL, NULL, NULL, { 0 } },
  { "properties", properties_activated, NULL, NULL, NULL, { 0 } },
  { "show-params", NULL, NULL, "true", show_params_changed, { 0 } },
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
                    "block-activated", G_CALLBACK (on_transition_activated), self);
  self->debugger = qd_debugger_new (self->run_session, self->canvas);
  qd_debugger_panel_set_inspector (QD_DEBUGGER_PANEL (qd_debugger_panel_new (self->debugger,
                                                                            self->canvas,
                                                                            self->bottom_notebook)),
                                   self->inspector);
  g_signal_connect (qd_run_session_get_event_view (self->run_session),
                    "error", G_CALLBACK (on_event_view_error), self);
  g_signal_connect (self->run_bar, "message", G_CALLBACK (on_run_bar_message), self);
  g_signal_connect (self->run_bar, "edit-message-hidden",
                    G_CALLBACK (on_run_bar_edit_message_hidden), self);

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
                    G_CALLBACK (on_palette_row_activated), self);
  gtk_list_box_set_filter_func (self->palette_list, palette_filter_func, self, NULL);
  g_signal_connect_swapped (self->palette_search, "search-changed",
                            G_CALLBACK (on_palette_search_changed), self);
  g_signal_connect_swapped (self->palette_search, "activate",
                            G_CALLBACK (on_palette_search_activate), self);
  g_signal_connect_swapped (self->palette_search, "stop-search",
                            G_CALLBACK (on_palette_search_stop), self);
  g_signal_connect_swapped (self->canvas, "notify::system",
                            G_CALLBACK (update_breadcrumbs), self);
  g_signal_connect_swapped (self->inspector, "notice",
                            G_CALLBACK (on_inspector_notice), self);
  g_signal_connect_object (qd_canvas_get_controller (self->canvas), "selection-changed",
                           G_CALLBACK (on_selection_changed), self, G_CONNECT_SWAPPED);
  /* Added after the canvas's own gestures and run on the release, so the
   * canvas has finished with the click (a click on empty space clears
   * the selection when it ends) when this one selects and inspects. */
  click = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (click), GDK_BUTTON_PRIMARY);
  g_signal_connect (click, "pressed", G_CALLBACK (on_canvas_click_pressed), self);
  g_signal_connect (click, "released", G_CALLBACK (on_canvas_click_released), self);
  gtk_widget_add_controller (GTK_WIDGET (self->canvas), GTK_EVENT_CONTROLLER (click));
  extend_context_menu (self);
  g_signal_connect (self->messages_view, "problem-activated",
                    G_CALLBACK (on_problem_activated), self);
  g_signal_connect (self->messages_view, "problems-changed",
                    G_CALLBACK (on_problems_changed), self);
  self->recent_changed_id = g_signal_connect_swapped (gtk_recent_manager_get_default (),
                                                      "changed",
                                                      G_CALLBACK (update_recent_menu), self);
  update_recent_menu (self);

  self->settings = qd_settings_new_if_installed ();
  restore_size (self);

  populate_palette (self);

  drop = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drop));

  update_title (self);
  update_document_page (self);
  update_undo_actions (self);
  update_file_actions (self);
  update_selection_actions (self);
}

QdWindow *
qd_window_new (GtkApplication *application)
{
  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);

  return g_object_new (QD_TYPE_WINDOW, "application", application, NULL);
}

/* Brings the Messages panel to the front. */
static void
show_messages (QdWindow *self)
{
  int page = gtk_notebook_page_num (self->bottom_notebook,
                                    GTK_WIDGET (self->messages_view));

  if (page >= 0)
    gtk_notebook_set_current_page (self->bottom_notebook, page);
}

/* A PowerDEVS model opens as an untitled diagram (Save asks for a .qdevs
 * name), with the import report in the messages panel. */
static gboolean
open_pdm (QdWindow    *self,
          const char  *path,
          GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GPtrArray) report =
    g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  g_autoptr(QdDocument) document = qd_import_pdm (path, report, &local_error);

  if (document == NULL)
    {
      qd_window_show_message (self, GTK_MESSAGE_ERROR, local_error->message);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }
  qd_window_set_document (self, document, NULL);
  if (report->len > 0)
    {
      show_messages (self);
      qd_messages_view_set_problems (self->messages_view, report);
    }
  qd_window_show_message (self, GTK_MESSAGE_INFO,
                          report->len > 0
                          ? _("Imported from PowerDEVS; the messages list what "
                              "is not exact. Save it as a QDevs diagram.")
                          : _("Imported from PowerDEVS. Save it as a QDevs "
                              "diagram."));
  return TRUE;
}

gboolean
qd_window_open_file (QdWindow  *self,
                     GFile     *file,
                     GError   **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *path = NULL;
  g_autoptr(GPtrArray) problems =
    g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  QdDocument *document;

  g_return_val_if_fail (QD_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  path = g_file_get_path (file);
  if (path == NULL)
    {
      g_autofree char *uri = g_file_get_uri (file);

      g_set_error (&local_error, QD_ERROR, QD_ERROR_IO,
                   _("%s: only local files can be opened; copy the diagram "
                     "to this computer first"), uri);
      document = NULL;
    }
  else if (g_str_has_suffix (path, ".pdm") || g_str_has_suffix (path, ".PDM"))
    return open_pdm (self, path, error);
  else
    document = qd_document_load_full (path, problems, &local_error);

  if (document == NULL)
    {
      /* The loader's messages already start with the file name. */
      qd_window_show_message (self, GTK_MESSAGE_ERROR, local_error->message);
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  qd_window_set_document (self, document, file);
  g_object_unref (document);
  add_to_recent (file);
  /* Bad parameters do not keep the diagram shut: it opens with them and
   * what Check finds listed and marked, as after a Check. */
  if (problems->len > 0)
    {
      qd_document_check (document, NULL, problems);
      show_messages (self);
      qd_messages_view_set_problems (self->messages_view, problems);
    }

  return TRUE;
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
  update_title (self);
  update_document_page (self);
  qd_canvas_set_document (self->canvas, document);
  qd_inspector_set_document (self->inspector, document);
  qd_messages_view_set_problems (self->messages_view, NULL);
  qd_run_session_set_document (self->run_session, document);
  qd_autosave_set_document (self->autosave, document, file);
  update_breadcrumbs (self);
  update_undo_actions (self);
  update_file_actions (self);
  update_selection_actions (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->canvas));
}

guint
qd_window_check (QdWindow *self)
{
  g_return_val_if_fail (QD_IS_WINDOW (self), 0);

  if (self->document == NULL)
    return 0;
  show_messages (self);
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

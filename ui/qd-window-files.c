/* qd-window-files.c: the main window's files
 *
 * Open (a .qdevs diagram or a PowerDEVS model), Save, Save As, Export,
 * the Open Recent menu, the question about unsaved changes when the
 * window closes, and files dropped on the window.
 */
#include <glib/gi18n-lib.h>
#include <string.h>

#include "qd-diagram-export.h"
#include "qd-window-private.h"

/* Files: save, save as, recent diagrams, unsaved changes, export; and
 * the model check with its messages panel. */

enum
{
  CLOSE_RESPONSE_SAVE = 1,
  CLOSE_RESPONSE_DISCARD = 2,
};

#define RECENT_MAX 10

void
qd_window_update_file_actions (QdWindow *self)
{
  static const char *const names[] = { "save", "save-as", "export", "check", "compare-methods", "sweep" };

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
  qd_window_update_title (self);
  qd_window_update_document_page (self);
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
      g_autofree char *title = qd_window_dup_display_title (self);
      g_autofree char *name = g_strconcat (title, QD_FILE_EXTENSION, NULL);

      gtk_file_chooser_set_current_name (chooser, name);
    }
  g_signal_connect (self->chooser, "response",
                    G_CALLBACK (on_save_chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

void
qd_window_save_activated (GSimpleAction *action,
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

void
qd_window_save_as_activated (GSimpleAction *action,
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

void
qd_window_export_activated (GSimpleAction *action,
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

  title = qd_window_dup_display_title (self);
  name = g_strconcat (title, ".svg", NULL);
  gtk_file_chooser_set_current_name (chooser, name);
  g_signal_connect (self->chooser, "response",
                    G_CALLBACK (on_export_chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
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

void
qd_window_update_recent_menu (QdWindow *self)
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

void
qd_window_open_recent_activated (GSimpleAction *action,
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
gboolean
qd_window_confirm_close (QdWindow *self)
{
  g_autofree char *title = NULL;
  GtkWidget *dialog;
  GtkWidget *button;

  if (self->close_confirmed || self->document == NULL
      || !qd_document_get_modified (self->document))
    return TRUE;

  title = qd_window_dup_display_title (self);
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

gboolean
qd_window_on_drop (GtkDropTarget *target,
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
      qd_window_show_messages (self);
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
      qd_window_show_messages (self);
      qd_messages_view_set_problems (self->messages_view, problems);
    }

  return TRUE;
}

/* qd-script-editor.c: the editor of a block's Lua script */
#include "qd-script-editor.h"

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "qd-blocks.h"

#define ERROR_CATEGORY "qd-error"
#define ERROR_TAG      "qd-error-line"
/* The syntax check waits for a pause in typing this long (ms). */
#define CHECK_DELAY    250

struct _QdScriptEditor
{
  GtkSourceView  parent_instance;

  guint          check_id;
  char          *error;
  int            error_line;
  guint          n_inputs, n_outputs;
  gboolean       ports_known;
};

G_DEFINE_FINAL_TYPE (QdScriptEditor, qd_script_editor, GTK_SOURCE_TYPE_VIEW)

enum
{
  PROP_0,
  PROP_ERROR,
  N_PROPS
};

enum
{
  COMMIT,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];
static char *templates_dir;

void
qd_script_editor_set_templates_dir (const char *dir)
{
  g_free (templates_dir);
  templates_dir = g_strdup (dir);
}

static char *
dup_templates_dir (void)
{
  if (templates_dir != NULL)
    return g_strdup (templates_dir);
  return g_build_filename (QD_PKGDATADIR, "lua-templates", NULL);
}

static char *
dup_text (QdScriptEditor *self)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  return gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
}

static void
set_mark (QdScriptEditor *self,
          int             line,
          const char     *message)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self));
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_remove_tag_by_name (buffer, ERROR_TAG, &start, &end);
  gtk_source_buffer_remove_source_marks (GTK_SOURCE_BUFFER (buffer), &start, &end,
                                         ERROR_CATEGORY);
  if (message != NULL && line > 0 && line <= gtk_text_buffer_get_line_count (buffer))
    {
      gtk_text_buffer_get_iter_at_line (buffer, &start, line - 1);
      end = start;
      gtk_text_iter_forward_line (&end);
      gtk_text_buffer_apply_tag_by_name (buffer, ERROR_TAG, &start, &end);
      gtk_source_buffer_create_source_mark (GTK_SOURCE_BUFFER (buffer), NULL,
                                            ERROR_CATEGORY, &start);
    }

  if (g_strcmp0 (message, self->error) == 0 && line == self->error_line)
    return;
  g_free (self->error);
  self->error = g_strdup (message);
  self->error_line = message != NULL ? line : 0;
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), self->error);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ERROR]);
}

void
qd_script_editor_check_now (QdScriptEditor *self)
{
  g_autofree char *text = dup_text (self);
  g_autofree char *message = NULL;
  g_autofree char *shown = NULL;
  int line = 0;

  g_return_if_fail (QD_IS_SCRIPT_EDITOR (self));
  g_clear_handle_id (&self->check_id, g_source_remove);
  if (qd_blocks_check_lua_script (text, &line, &message))
    {
      set_mark (self, 0, NULL);
      return;
    }
  shown = line > 0 ? g_strdup_printf (_("script line %d: %s"), line, message)
                   : g_strdup (message);
  set_mark (self, line, shown);
}

static gboolean
check_later (gpointer data)
{
  QdScriptEditor *self = data;

  self->check_id = 0;
  qd_script_editor_check_now (self);
  return G_SOURCE_REMOVE;
}

static void
on_buffer_changed (GtkTextBuffer  *buffer,
                   QdScriptEditor *self)
{
  g_clear_handle_id (&self->check_id, g_source_remove);
  self->check_id = g_timeout_add (CHECK_DELAY, check_later, self);
}

const char *
qd_script_editor_get_error (QdScriptEditor *self,
                            int            *line)
{
  g_return_val_if_fail (QD_IS_SCRIPT_EDITOR (self), NULL);

  if (line != NULL)
    *line = self->error_line;
  return self->error;
}

void
qd_script_editor_show_error (QdScriptEditor *self,
                             int             line,
                             const char     *message)
{
  GtkTextBuffer *buffer;
  GtkTextIter iter;

  g_return_if_fail (QD_IS_SCRIPT_EDITOR (self));

  set_mark (self, line, message);
  if (message == NULL || line <= 0)
    return;
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self));
  gtk_text_buffer_get_iter_at_line (buffer, &iter, line - 1);
  gtk_text_buffer_place_cursor (buffer, &iter);
  gtk_text_view_scroll_to_iter (GTK_TEXT_VIEW (self), &iter, 0.1, FALSE, 0, 0);
}

void
qd_script_editor_set_ports (QdScriptEditor *self,
                            guint           n_inputs,
                            guint           n_outputs)
{
  g_return_if_fail (QD_IS_SCRIPT_EDITOR (self));

  self->n_inputs = n_inputs;
  self->n_outputs = n_outputs;
  self->ports_known = TRUE;
}

/* Templates */

/* The --@name of a script, or NULL. */
static char *
dup_header_name (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *line = g_strstrip (lines[i]);

      if (g_str_has_prefix (line, "--@name "))
        return g_strstrip (g_strdup (line + strlen ("--@name ")));
      if (line[0] != '\0' && !g_str_has_prefix (line, "--"))
        break;
    }
  return NULL;
}

static void
on_template_clicked (GtkButton      *button,
                     QdScriptEditor *self)
{
  const char *path = g_object_get_data (G_OBJECT (button), "qd-template");
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self));
  GtkWidget *popover = gtk_widget_get_ancestor (GTK_WIDGET (button), GTK_TYPE_POPOVER);
  GtkTextIter start, end;

  if (popover != NULL)
    gtk_popover_popdown (GTK_POPOVER (popover));
  if (!g_file_get_contents (path, &text, NULL, &error))
    {
      set_mark (self, 0, error->message);
      return;
    }
  /* One step of the view's own undo (set_text would be an irreversible
   * action), then the form applies it. */
  gtk_text_buffer_begin_user_action (buffer);
  gtk_text_buffer_get_bounds (buffer, &start, &end);
  gtk_text_buffer_delete (buffer, &start, &end);
  gtk_text_buffer_insert (buffer, &start, text, -1);
  gtk_text_buffer_end_user_action (buffer);
  qd_script_editor_check_now (self);
  g_signal_emit (self, signals[COMMIT], 0);
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(char *const *) a, *(char *const *) b);
}

static GtkWidget *
new_templates_popover (QdScriptEditor *self)
{
  g_autofree char *dir = dup_templates_dir ();
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  GtkWidget *popover = gtk_popover_new ();
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    if (g_str_has_suffix (name, ".lua"))
      g_ptr_array_add (paths, g_build_filename (dir, name, NULL));
  g_ptr_array_sort (paths, compare_paths);
  for (guint i = 0; i < paths->len; i++)
    {
      const char *path = g_ptr_array_index (paths, i);
      g_autofree char *text = NULL;
      g_autofree char *label = NULL;
      GtkWidget *button;

      if (g_file_get_contents (path, &text, NULL, NULL))
        label = dup_header_name (text);
      if (label == NULL)
        label = g_path_get_basename (path);
      button = gtk_button_new_with_label (label);
      gtk_button_set_has_frame (GTK_BUTTON (button), FALSE);
      gtk_widget_set_halign (gtk_button_get_child (GTK_BUTTON (button)), GTK_ALIGN_START);
      g_object_set_data_full (G_OBJECT (button), "qd-template", g_strdup (path), g_free);
      g_signal_connect (button, "clicked", G_CALLBACK (on_template_clicked), self);
      gtk_box_append (GTK_BOX (box), button);
    }
  if (paths->len == 0)
    {
      g_autofree char *text = g_strdup_printf (_("No templates in %s"), dir);

      gtk_box_append (GTK_BOX (box), gtk_label_new (text));
    }
  gtk_popover_set_child (GTK_POPOVER (popover), box);
  return popover;
}

/* Save as Library Block */

/* @text with --@inputs and --@outputs lines in front when its header
 * has none: a library block takes its ports from there. */
static char *
dup_with_ports (QdScriptEditor *self,
                const char     *text)
{
  GString *out = g_string_new (NULL);
  gboolean has_in = strstr (text, "--@inputs") != NULL;
  gboolean has_out = strstr (text, "--@outputs") != NULL;

  if (self->ports_known && !has_in)
    g_string_append_printf (out, "--@inputs %u\n", self->n_inputs);
  if (self->ports_known && !has_out)
    g_string_append_printf (out, "--@outputs %u\n", self->n_outputs);
  g_string_append (out, text);
  return g_string_free (out, FALSE);
}

static void
on_save_response (GtkNativeDialog *dialog,
                  int              response,
                  QdScriptEditor  *self)
{
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *path = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    {
      file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      path = g_file_get_path (file);
      text = dup_text (self);
      contents = dup_with_ports (self, text);
      if (path == NULL || !g_file_set_contents (path, contents, -1, &error))
        set_mark (self, 0, error != NULL ? error->message : _("not a local file"));
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
  g_object_unref (self);
}

/* A file name from the script's --@name: "Queue and Server" gives
 * "queue-and-server.lua". */
static char *
dup_suggested_name (const char *text)
{
  g_autofree char *name = dup_header_name (text);
  GString *out = g_string_new (NULL);

  for (const char *p = name != NULL ? name : "my-block"; *p != '\0'; p++)
    if (g_ascii_isalnum (*p))
      g_string_append_c (out, g_ascii_tolower (*p));
    else if (out->len > 0 && out->str[out->len - 1] != '-')
      g_string_append_c (out, '-');
  if (out->len == 0)
    g_string_append (out, "my-block");
  g_string_append (out, ".lua");
  return g_string_free (out, FALSE);
}

static void
on_save_clicked (GtkButton      *button,
                 QdScriptEditor *self)
{
  g_autofree char *dir = qd_blocks_get_library_dir ();
  g_autofree char *text = dup_text (self);
  g_autofree char *name = dup_suggested_name (text);
  g_autoptr(GFile) folder = g_file_new_for_path (dir);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileChooserNative *dialog;
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();

  g_mkdir_with_parents (dir, 0755);
  dialog = gtk_file_chooser_native_new (_("Save as Library Block"),
                                        GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                        GTK_FILE_CHOOSER_ACTION_SAVE,
                                        _("_Save"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), folder, NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), name);
  gtk_file_filter_set_name (filter, _("Lua scripts"));
  gtk_file_filter_add_pattern (filter, "*.lua");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), filter);
  g_signal_connect (dialog, "response", G_CALLBACK (on_save_response), g_object_ref (self));
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

GtkWidget *
qd_script_editor_wrap (QdScriptEditor *self)
{
  GtkWidget *box, *bar, *templates, *save, *scroller;

  g_return_val_if_fail (QD_IS_SCRIPT_EDITOR (self), NULL);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 4);
  templates = gtk_menu_button_new ();
  gtk_menu_button_set_label (GTK_MENU_BUTTON (templates), _("Template"));
  gtk_widget_set_tooltip_text (templates, _("Replace the script with a template"));
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (templates),
                               new_templates_popover (self));
  save = gtk_button_new_with_label (_("Save as Library Block…"));
  gtk_widget_set_tooltip_text (save, _("Store the script in your library of "
                                       "blocks; it is in the palette from the "
                                       "next start"));
  g_signal_connect (save, "clicked", G_CALLBACK (on_save_clicked), self);
  gtk_box_append (GTK_BOX (bar), templates);
  gtk_box_append (GTK_BOX (bar), save);

  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller),
                                  GTK_POLICY_AUTOMATIC, GTK_POLICY_AUTOMATIC);
  gtk_scrolled_window_set_min_content_height (GTK_SCROLLED_WINDOW (scroller), 260);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self));
  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_widget_add_css_class (scroller, "qd-script-editor");

  gtk_box_append (GTK_BOX (box), bar);
  gtk_box_append (GTK_BOX (box), scroller);
  return box;
}

/* Ctrl+Return: done, apply. */
static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                QdScriptEditor        *self)
{
  if ((keyval == GDK_KEY_Return || keyval == GDK_KEY_KP_Enter)
      && (state & GDK_CONTROL_MASK))
    {
      g_signal_emit (self, signals[COMMIT], 0);
      return TRUE;
    }
  return FALSE;
}

static void
qd_script_editor_dispose (GObject *object)
{
  QdScriptEditor *self = QD_SCRIPT_EDITOR (object);

  g_clear_handle_id (&self->check_id, g_source_remove);
  G_OBJECT_CLASS (qd_script_editor_parent_class)->dispose (object);
}

static void
qd_script_editor_finalize (GObject *object)
{
  QdScriptEditor *self = QD_SCRIPT_EDITOR (object);

  g_free (self->error);
  G_OBJECT_CLASS (qd_script_editor_parent_class)->finalize (object);
}

static void
qd_script_editor_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  QdScriptEditor *self = QD_SCRIPT_EDITOR (object);

  switch (prop_id)
    {
    case PROP_ERROR:
      g_value_set_string (value, self->error);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
qd_script_editor_class_init (QdScriptEditorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  gtk_source_init ();
  object_class->dispose = qd_script_editor_dispose;
  object_class->finalize = qd_script_editor_finalize;
  object_class->get_property = qd_script_editor_get_property;

  properties[PROP_ERROR] =
    g_param_spec_string ("error", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_STATIC_STRINGS | G_PARAM_EXPLICIT_NOTIFY);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* The script is ready to apply: a template was chosen, or Ctrl+Return. */
  signals[COMMIT] = g_signal_new ("commit", G_TYPE_FROM_CLASS (klass),
                                  G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                  G_TYPE_NONE, 0);
}

static void
qd_script_editor_init (QdScriptEditor *self)
{
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
  GtkSourceLanguage *lua = gtk_source_language_manager_get_language (languages, "lua");
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self));
  g_autoptr(GtkSourceMarkAttributes) attributes = gtk_source_mark_attributes_new ();
  GtkEventController *keys = gtk_event_controller_key_new ();

  if (lua != NULL)
    gtk_source_buffer_set_language (GTK_SOURCE_BUFFER (buffer), lua);
  gtk_source_buffer_set_highlight_syntax (GTK_SOURCE_BUFFER (buffer), TRUE);
  gtk_source_view_set_show_line_numbers (GTK_SOURCE_VIEW (self), TRUE);
  gtk_source_view_set_show_line_marks (GTK_SOURCE_VIEW (self), TRUE);
  gtk_source_view_set_auto_indent (GTK_SOURCE_VIEW (self), TRUE);
  gtk_source_view_set_insert_spaces_instead_of_tabs (GTK_SOURCE_VIEW (self), TRUE);
  gtk_source_view_set_tab_width (GTK_SOURCE_VIEW (self), 2);
  gtk_source_view_set_indent_width (GTK_SOURCE_VIEW (self), 2);
  gtk_source_view_set_highlight_current_line (GTK_SOURCE_VIEW (self), TRUE);
  gtk_text_view_set_monospace (GTK_TEXT_VIEW (self), TRUE);
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (self), GTK_WRAP_NONE);

  gtk_source_mark_attributes_set_icon_name (attributes, "dialog-error-symbolic");
  gtk_source_view_set_mark_attributes (GTK_SOURCE_VIEW (self), ERROR_CATEGORY,
                                       attributes, 10);
  gtk_text_buffer_create_tag (buffer, ERROR_TAG,
                              "paragraph-background", "rgba(224,27,36,0.18)",
                              "underline", PANGO_UNDERLINE_ERROR,
                              NULL);
  g_signal_connect (buffer, "changed", G_CALLBACK (on_buffer_changed), self);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
}

GtkWidget *
qd_script_editor_new (void)
{
  return g_object_new (QD_TYPE_SCRIPT_EDITOR, NULL);
}

/* qd-application.c: the QDevs editor as a GtkApplication
 *
 * Windows are created here and nowhere else, so that "open a file" means
 * the same thing from the command line, the file manager, the Open button
 * and the menu: reuse the active window while it is still empty, otherwise
 * open a new one.
 *
 * It also picks GTK's renderer before the first window exists: where
 * OpenGL is only a software rasterizer (Mesa's llvmpipe on a machine
 * without a GPU, a virtual machine, Xvfb), GTK's GL renderer costs a
 * core or more of rasterizer threads while a live plot grows, taken from
 * the simulation's worker; the Cairo renderer draws the same window for
 * a fraction of that. GSK_RENDERER, when set, always wins.
 */
#include <glib/gi18n-lib.h>

#include <dlfcn.h>
#include <json.h>
#include <string.h>

#include "qd-application.h"
#include "qd-build-tree.h"
#include "qd-example-browser.h"
#include "qd-preferences-window.h"
#include "qd-recovery-dialog.h"
#include "qd-script-editor.h"
#include "qd-settings.h"
#include "qd-window.h"

struct _QdApplication
{
  GtkApplication        parent_instance;

  /* The chooser must outlive the action that showed it (it is not modal
   * in the blocking sense), so the application keeps it. */
  GtkFileChooserNative *chooser;

  /* The copies of a crashed editor are offered once, at the start. */
  gboolean              recovery_offered;
};

G_DEFINE_FINAL_TYPE (QdApplication, qd_application, GTK_TYPE_APPLICATION)

static QdWindow *
get_active_qd_window (QdApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  return QD_IS_WINDOW (window) ? QD_WINDOW (window) : NULL;
}

/* A warning in the active window's message area, or on standard error
 * when there is no window to show it. */
static void
show_warning (QdApplication *self,
              const char    *text)
{
  QdWindow *window = get_active_qd_window (self);

  if (window != NULL)
    qd_window_show_message (window, GTK_MESSAGE_WARNING, text);
  else
    g_warning ("%s", text);
}

/* A window may take another diagram while it shows nothing of value:
 * no diagram, or the untouched empty one of a new window. */
static gboolean
window_is_reusable (QdWindow *window)
{
  QdDocument *document = window != NULL ? qd_window_get_document (window) : NULL;

  if (window == NULL)
    return FALSE;
  return document == NULL
         || (qd_window_get_file (window) == NULL
             && !qd_document_get_modified (document)
             && qd_document_get_root (document)->blocks->len == 0);
}

/* Opens each copy in a window of its own (the first in the active one
 * when it is still empty), with its changes and its file; the copy goes
 * once the window has written its own. */
static void
recover_files (QdApplication *self,
               GPtrArray     *files)
{
  QdWindow *reusable = get_active_qd_window (self);

  if (!window_is_reusable (reusable))
    reusable = NULL;
  for (guint i = 0; i < files->len; i++)
    {
      QdRecoveryFile *file = g_ptr_array_index (files, i);
      g_autoptr(GError) error = NULL;
      g_autoptr(QdDocument) document = qd_recovery_file_load (file, &error);
      g_autoptr(GFile) original = file->file != NULL ? g_file_new_for_path (file->file) : NULL;
      QdWindow *window = reusable;

      reusable = NULL;
      if (window == NULL)
        window = qd_window_new (GTK_APPLICATION (self));
      if (document == NULL)
        {
          /* Left where it is: a later version may read it. */
          qd_window_show_message (window, GTK_MESSAGE_ERROR, error->message);
        }
      else
        {
          qd_window_set_document (window, document, original);
          qd_autosave_flush (qd_window_get_autosave (window));
          qd_recovery_file_discard (file);
        }
      gtk_window_present (GTK_WINDOW (window));
    }
}

static void
on_recovery_response (GtkDialog     *dialog,
                      int            response,
                      QdApplication *self)
{
  GPtrArray *files = g_object_get_data (G_OBJECT (dialog), "qd-recovery-files");

  if (response == QD_RECOVERY_RESPONSE_RECOVER)
    recover_files (self, files);
  else if (response == QD_RECOVERY_RESPONSE_DISCARD)
    for (guint i = 0; i < files->len; i++)
      qd_recovery_file_discard (g_ptr_array_index (files, i));
  /* Otherwise (closed): kept, and offered at the next start. */
  gtk_window_destroy (GTK_WINDOW (dialog));
}

/* Diagrams an editor that crashed or was killed left unsaved. */
static void
offer_recovery (QdApplication *self)
{
  g_autoptr(GPtrArray) files = NULL;
  GtkWidget *dialog;

  if (self->recovery_offered)
    return;
  self->recovery_offered = TRUE;
  files = qd_recovery_find (NULL);
  if (files->len == 0)
    return;
  dialog = qd_recovery_dialog_new (gtk_application_get_active_window (GTK_APPLICATION (self)),
                                   files);
  /* The locks go with the dialog: until answered, no other editor
   * offers these copies. */
  g_object_set_data_full (G_OBJECT (dialog), "qd-recovery-files",
                          g_ptr_array_ref (files), (GDestroyNotify) g_ptr_array_unref);
  g_signal_connect (dialog, "response", G_CALLBACK (on_recovery_response), self);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
qd_application_activate (GApplication *app)
{
  QdWindow *window = get_active_qd_window (QD_APPLICATION (app));

  if (window == NULL)
    window = qd_window_new (GTK_APPLICATION (app));
  gtk_window_present (GTK_WINDOW (window));
  offer_recovery (QD_APPLICATION (app));
}

static void
qd_application_open (GApplication  *app,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  QdApplication *self = QD_APPLICATION (app);
  QdWindow *reusable = get_active_qd_window (self);

  if (!window_is_reusable (reusable))
    reusable = NULL;

  for (int i = 0; i < n_files; i++)
    {
      QdWindow *window = reusable;

      /* Only the first file may go into the empty window; even if it
       * fails, its error message stays visible there. */
      reusable = NULL;
      if (window == NULL)
        window = qd_window_new (GTK_APPLICATION (app));
      qd_window_open_file (window, files[i], NULL);
      gtk_window_present (GTK_WINDOW (window));
    }
  offer_recovery (self);
}

static void
on_chooser_response (GtkNativeDialog *dialog,
                     int              response,
                     QdApplication   *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) files = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));
      guint n = g_list_model_get_n_items (files);
      g_autoptr(GPtrArray) array = g_ptr_array_new_with_free_func (g_object_unref);

      for (guint i = 0; i < n; i++)
        g_ptr_array_add (array, g_list_model_get_item (files, i));
      if (array->len > 0)
        g_application_open (G_APPLICATION (self), (GFile **) array->pdata,
                            (int) array->len, "");
    }

  gtk_native_dialog_destroy (dialog);
  g_clear_object (&self->chooser);
}

static void
show_open_chooser (QdApplication *self,
                   const char    *title,
                   const char    *folder)
{
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  GtkFileFilter *filter;

  /* One chooser at a time: a second request raises the first. */
  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
      return;
    }

  self->chooser = gtk_file_chooser_native_new (title, parent,
                                               GTK_FILE_CHOOSER_ACTION_OPEN,
                                               _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (self->chooser), TRUE);

  /* Shown first, so a PowerDEVS model is seen without a change of
   * filter; .pdm files go through the importer (qd_window_open_file()). */
  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("Diagrams and PowerDEVS Models"));
  gtk_file_filter_add_suffix (filter, "qdevs");
  gtk_file_filter_add_suffix (filter, "pdm");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  g_object_unref (filter);

  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("QDevs Diagrams"));
  gtk_file_filter_add_suffix (filter, "qdevs");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  g_object_unref (filter);

  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("PowerDEVS Models"));
  gtk_file_filter_add_suffix (filter, "pdm");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  g_object_unref (filter);

  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("All Files"));
  gtk_file_filter_add_pattern (filter, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  g_object_unref (filter);

  if (folder != NULL)
    {
      g_autoptr(GFile) dir = g_file_new_for_path (folder);

      gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (self->chooser),
                                           dir, NULL);
    }

  g_signal_connect (self->chooser, "response",
                    G_CALLBACK (on_chooser_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
new_window_activated (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  QdWindow *window = get_active_qd_window (QD_APPLICATION (user_data));
  g_autoptr(QdDocument) document = qd_document_new ();

  /* The empty window shown at start takes the new diagram, as opening a
   * file does; otherwise a new window starts with an empty diagram, ready
   * for blocks. */
  if (window == NULL || qd_window_get_document (window) != NULL)
    window = qd_window_new (GTK_APPLICATION (user_data));
  qd_window_set_document (window, document, NULL);
  gtk_window_present (GTK_WINDOW (window));
}

static void
open_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  show_open_chooser (QD_APPLICATION (user_data), _("Open Diagram"), NULL);
}

/* An example opens as a new diagram without a file: saving it asks
 * where, so the installed example is never overwritten. */
static void
on_example_activated (QdApplication *self,
                      GFile         *file)
{
  QdWindow *window = get_active_qd_window (self);
  g_autoptr(GError) error = NULL;
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(QdDocument) document = NULL;

  if (!window_is_reusable (window))
    window = qd_window_new (GTK_APPLICATION (self));
  document = path != NULL ? qd_document_load (path, &error) : NULL;
  if (document == NULL)
    qd_window_show_message (window, GTK_MESSAGE_ERROR,
                            error != NULL ? error->message : _("The example is not a local file."));
  else
    qd_window_set_document (window, document, NULL);
  gtk_window_present (GTK_WINDOW (window));
}

static void
open_example_activated (GSimpleAction *action,
                        GVariant      *parameter,
                        gpointer       user_data)
{
  QdApplication *self = QD_APPLICATION (user_data);
  g_autofree char *dir = qd_application_get_examples_dir ();
  g_autofree char *thumbnails = NULL;
  QdExampleBrowser *browser;

  if (!g_file_test (dir, G_FILE_TEST_IS_DIR))
    {
      g_autofree char *text = NULL;

      text = g_strdup_printf (_("%s: the examples folder is missing; "
                                "reinstall QDevs or set QD_EXAMPLES_DIR "
                                "to a folder of .qdevs files"), dir);
      show_warning (self, text);
      return;
    }

  thumbnails = qd_application_get_thumbnails_dir (dir);
  browser = qd_example_browser_new (gtk_application_get_active_window (GTK_APPLICATION (self)),
                                    dir, thumbnails);
  g_signal_connect_object (browser, "example-activated",
                           G_CALLBACK (on_example_activated), self, G_CONNECT_SWAPPED);
  gtk_window_present (GTK_WINDOW (browser));
}

static void
shortcuts_activated (GSimpleAction *action,
                     GVariant      *parameter,
                     gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  g_autoptr(GtkBuilder) builder = NULL;
  GtkWindow *window;

  builder = gtk_builder_new_from_resource ("/io/github/qdevs/Qdevs/ui/qd-shortcuts-window.ui");
  window = GTK_WINDOW (gtk_builder_get_object (builder, "shortcuts_window"));
  gtk_window_set_transient_for (window, gtk_application_get_active_window (app));
  gtk_window_present (window);
}

static void
preferences_activated (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  g_autoptr(GSettings) settings = NULL;
  GtkWidget *window;
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();

  /* One preferences window: a second Ctrl+, brings it forward. */
  for (GList *l = toplevels; l != NULL; l = l->next)
    if (QD_IS_PREFERENCES_WINDOW (l->data))
      {
        gtk_window_present (GTK_WINDOW (l->data));
        return;
      }
  /* Without the schema (neither installed nor in the build tree the
   * editor runs from) the window says so rather than the editor
   * aborting. */
  settings = qd_settings_new_if_installed ();
  window = qd_preferences_window_new (gtk_application_get_active_window (app), settings);
  gtk_window_present (GTK_WINDOW (window));
}

static void
about_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  static const char *authors[] = { N_("The QDevs authors"), NULL };
  const char *translated_authors[G_N_ELEMENTS (authors)];

  for (guint i = 0; i < G_N_ELEMENTS (authors); i++)
    translated_authors[i] = authors[i] != NULL ? _(authors[i]) : NULL;

  gtk_show_about_dialog (gtk_application_get_active_window (app),
                         "program-name", _("QDevs"),
                         "logo-icon-name", QD_APPLICATION_ID,
                         "version", QD_VERSION,
                         "comments", _("Block diagrams for discrete-event "
                                       "and quantized-state simulation"),
                         "authors", translated_authors,
                         "translator-credits", _("translator-credits"),
                         "license-type", GTK_LICENSE_GPL_3_0,
                         NULL);
}

/* Run from a build tree, the examples are those of the source tree the
 * build was configured from, which meson-info.json names. NULL
 * elsewhere. */
static char *
dup_build_tree_examples_dir (void)
{
  g_autofree char *build_root = qd_build_tree_dup_root ();
  g_autofree char *info_path = NULL;
  g_autofree char *contents = NULL;
  json_object *info, *directories, *source;
  char *dir = NULL;

  if (build_root == NULL)
    return NULL;
  info_path = g_build_filename (build_root, "meson-info", "meson-info.json", NULL);
  if (!g_file_get_contents (info_path, &contents, NULL, NULL))
    return NULL;
  info = json_tokener_parse (contents);
  if (info != NULL &&
      json_object_object_get_ex (info, "directories", &directories) &&
      json_object_object_get_ex (directories, "source", &source) &&
      json_object_is_type (source, json_type_string))
    dir = g_build_filename (json_object_get_string (source), "data", "examples", NULL);
  json_object_put (info);
  if (dir != NULL && !g_file_test (dir, G_FILE_TEST_IS_DIR))
    g_clear_pointer (&dir, g_free);
  return dir;
}

/* Yelp finds help:qdevs in the data directories of XDG_DATA_DIRS (and
 * the user's); an editor installed elsewhere, or not at all, has no
 * guide there even when Yelp is installed. */
static gboolean
mallard_guide_installed (void)
{
  const char *const *dirs = g_get_system_data_dirs ();
  g_autofree char *user = g_build_filename (g_get_user_data_dir (), "help", "C",
                                            "qdevs", "index.page", NULL);

  if (g_file_test (user, G_FILE_TEST_IS_REGULAR))
    return TRUE;
  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_autofree char *index = g_build_filename (dirs[i], "help", "C", "qdevs",
                                                 "index.page", NULL);

      if (g_file_test (index, G_FILE_TEST_IS_REGULAR))
        return TRUE;
    }
  return FALSE;
}

char *
qd_application_pick_help_uri (gboolean           have_yelp,
                              gboolean           mallard_installed,
                              const char *const *html_dirs,
                              const char        *page)
{
  if (have_yelp && mallard_installed)
    return page != NULL ? g_strconcat ("help:qdevs/", page, NULL)
                        : g_strdup ("help:qdevs");
  for (guint i = 0; html_dirs != NULL && html_dirs[i] != NULL; i++)
    {
      g_autofree char *index = g_build_filename (html_dirs[i], "index.html", NULL);
      g_autofree char *name = NULL;
      g_autofree char *path = NULL;

      if (!g_file_test (index, G_FILE_TEST_IS_REGULAR))
        continue;
      name = g_strconcat (page != NULL ? page : "index", ".html", NULL);
      path = g_build_filename (html_dirs[i], name, NULL);
      return g_filename_to_uri (path, NULL, NULL);
    }
  return NULL;
}

/* F1 and Help ▸ User Guide. GTK reports a failure to open the URI only
 * through the callback; the window says so rather than nothing
 * happening. */
typedef struct
{
  QdApplication *self;
  char          *uri;
} HelpRequest;

static void
on_help_shown (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  HelpRequest *request = user_data;
  g_autoptr(GError) error = NULL;

  if (!gtk_show_uri_full_finish (GTK_WINDOW (source), result, &error))
    {
      g_autofree char *text = NULL;

      text = g_strdup_printf (_("The user guide (%s) could not be opened: %s"),
                              request->uri, error->message);
      show_warning (request->self, text);
    }
  g_object_unref (request->self);
  g_free (request->uri);
  g_free (request);
}

static void
help_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  QdApplication *self = QD_APPLICATION (user_data);
  GtkWindow *parent = gtk_application_get_active_window (GTK_APPLICATION (self));
  g_autofree char *yelp = g_find_program_in_path ("yelp");
  g_autofree char *build_root = qd_build_tree_dup_root ();
  g_autofree char *installed_html = g_build_filename (QD_PKGDATADIR, "help", "html", NULL);
  g_autofree char *build_html = NULL;
  g_autofree char *uri = NULL;
  const char *html_dirs[3] = { installed_html, NULL, NULL };
  HelpRequest *request;

  if (build_root != NULL)
    html_dirs[1] = build_html = g_build_filename (build_root, "help", "html", NULL);
  uri = qd_application_pick_help_uri (yelp != NULL, mallard_guide_installed (),
                                      html_dirs, NULL);
  if (uri == NULL)
    {
      g_autofree char *text = NULL;

      text = g_strdup_printf (_("%s: the user guide is missing; reinstall "
                                "QDevs with its help (built when yelp-tools "
                                "is installed)"), installed_html);
      show_warning (self, text);
      return;
    }
  request = g_new0 (HelpRequest, 1);
  request->self = g_object_ref (self);
  request->uri = g_strdup (uri);
  gtk_show_uri_full (parent, uri, GDK_CURRENT_TIME, NULL, on_help_shown, request);
}

static void
quit_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  GtkApplication *app = GTK_APPLICATION (user_data);
  GList *windows = g_list_copy (gtk_application_get_windows (app));

  /* Closing (not destroying) lets each window save its size and, later,
   * ask about unsaved changes; the application ends with its last window. */
  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (GTK_WINDOW (l->data));
  g_list_free (windows);
}

static const GActionEntry app_actions[] = {
  { "new", new_window_activated, NULL, NULL, NULL, { 0 } },
  { "open", open_activated, NULL, NULL, NULL, { 0 } },
  { "open-example", open_example_activated, NULL, NULL, NULL, { 0 } },
  { "shortcuts", shortcuts_activated, NULL, NULL, NULL, { 0 } },
  { "help", help_activated, NULL, NULL, NULL, { 0 } },
  { "preferences", preferences_activated, NULL, NULL, NULL, { 0 } },
  { "about", about_activated, NULL, NULL, NULL, { 0 } },
  { "quit", quit_activated, NULL, NULL, NULL, { 0 } },
};

/* The OpenGL renderer's name ("llvmpipe (LLVM 15.0.6, 256 bits)"), or
 * NULL when OpenGL cannot be used. GTK 4.8 has no call for it, and the
 * editor does not link an OpenGL loader of its own: GTK's (libepoxy,
 * which every GTK 4 links) is looked up at run time instead. */
static char *
gl_renderer_name (GdkDisplay *display)
{
  typedef const unsigned char *(*GetStringFunc) (unsigned int name);
  const unsigned int gl_renderer = 0x1F01;     /* GL_RENDERER */
  GetStringFunc *get_string = dlsym (RTLD_DEFAULT, "epoxy_glGetString");
  g_autoptr(GdkGLContext) context = NULL;
  const unsigned char *name;
  char *result;

  if (get_string == NULL || *get_string == NULL)
    return NULL;
  context = gdk_display_create_gl_context (display, NULL);
  if (context == NULL || !gdk_gl_context_realize (context, NULL))
    return NULL;
  gdk_gl_context_make_current (context);
  name = (*get_string) (gl_renderer);
  result = name != NULL ? g_strdup ((const char *) name) : NULL;
  gdk_gl_context_clear_current ();
  return result;
}

static gboolean
gl_is_software (GdkDisplay *display)
{
  static const char *const software[] = {
    "llvmpipe", "softpipe", "swrast", "Software Rasterizer", "SwiftShader",
  };
  const char *forced = g_getenv ("LIBGL_ALWAYS_SOFTWARE");
  g_autofree char *name = NULL;

  if (forced != NULL && forced[0] != '\0' && strcmp (forced, "0") != 0)
    return TRUE;
  name = gl_renderer_name (display);
  if (name == NULL)
    return FALSE;   /* no OpenGL: GTK picks Cairo by itself */
  for (guint i = 0; i < G_N_ELEMENTS (software); i++)
    if (strstr (name, software[i]) != NULL)
      return TRUE;
  return FALSE;
}

/* Before any window is realized: GTK reads GSK_RENDERER once, when it
 * makes its first renderer. */
static void
choose_renderer (void)
{
  GdkDisplay *display = gdk_display_get_default ();
  const char *set = g_getenv ("GSK_RENDERER");

  if (display == NULL || (set != NULL && set[0] != '\0'))
    return;
  if (gl_is_software (display))
    g_setenv ("GSK_RENDERER", "cairo", TRUE);
}

/* The Lua templates sit next to the examples, installed or in the
 * source tree. */
static void
set_templates_dir (void)
{
  g_autofree char *examples = qd_application_get_examples_dir ();
  g_autofree char *parent = g_path_get_dirname (examples);
  g_autofree char *dir = g_build_filename (parent, "lua-templates", NULL);

  qd_script_editor_set_templates_dir (dir);
}

static void
qd_application_startup (GApplication *app)
{
  static const struct
  {
    const char *action;
    const char *accels[3];
  } accels[] = {
    { "app.new", { "<Control>n", NULL } },
    { "app.open", { "<Control>o", NULL } },
    { "app.shortcuts", { "<Control>question", NULL } },
    { "app.help", { "F1", NULL } },
    { "app.preferences", { "<Control>comma", NULL } },
    { "app.quit", { "<Control>q", NULL } },
    { "win.save", { "<Control>s", NULL } },
    { "win.save-as", { "<Control><Shift>s", NULL } },
    { "win.export", { "<Control><Shift>e", NULL } },
    { "win.check", { "F7", NULL } },
    { "window.close", { "<Control>w", NULL } },
  };
  g_autoptr(GtkCssProvider) css = NULL;

  G_APPLICATION_CLASS (qd_application_parent_class)->startup (app);

  choose_renderer ();
  set_templates_dir ();

  g_action_map_add_action_entries (G_ACTION_MAP (app), app_actions,
                                   G_N_ELEMENTS (app_actions), app);
  for (guint i = 0; i < G_N_ELEMENTS (accels); i++)
    gtk_application_set_accels_for_action (GTK_APPLICATION (app),
                                           accels[i].action,
                                           accels[i].accels);

  css = gtk_css_provider_new ();
  gtk_css_provider_load_from_resource (css, "/io/github/qdevs/Qdevs/ui/qd-style.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (),
                                              GTK_STYLE_PROVIDER (css),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);

  gtk_window_set_default_icon_name (QD_APPLICATION_ID);
}

static void
qd_application_dispose (GObject *object)
{
  QdApplication *self = QD_APPLICATION (object);

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);

  G_OBJECT_CLASS (qd_application_parent_class)->dispose (object);
}

static void
qd_application_class_init (QdApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->dispose = qd_application_dispose;
  app_class->startup = qd_application_startup;
  app_class->activate = qd_application_activate;
  app_class->open = qd_application_open;
}

static void
qd_application_init (QdApplication *self)
{
}

QdApplication *
qd_application_new (GApplicationFlags extra_flags)
{
  return g_object_new (QD_TYPE_APPLICATION,
                       "application-id", QD_APPLICATION_ID,
                       "flags", G_APPLICATION_HANDLES_OPEN | extra_flags,
                       NULL);
}

char *
qd_application_get_examples_dir (void)
{
  const char *dir = g_getenv ("QD_EXAMPLES_DIR");
  g_autofree char *installed = NULL;
  char *build_tree;

  if (dir != NULL && dir[0] != '\0')
    return g_strdup (dir);
  installed = g_build_filename (QD_PKGDATADIR, "examples", NULL);
  if (!g_file_test (installed, G_FILE_TEST_IS_DIR) &&
      (build_tree = dup_build_tree_examples_dir ()) != NULL)
    return build_tree;
  return g_steal_pointer (&installed);
}

/* The thumbnails sit in EXAMPLES/thumbnails when installed; run from the
 * build tree, they are where Meson drew them, BUILD/data/examples. */
char *
qd_application_get_thumbnails_dir (const char *examples_dir)
{
  g_autofree char *beside = g_build_filename (examples_dir, "thumbnails", NULL);
  g_autofree char *build_root = NULL;

  if (g_file_test (beside, G_FILE_TEST_IS_DIR))
    return g_steal_pointer (&beside);
  build_root = qd_build_tree_dup_root ();
  if (build_root == NULL)
    return NULL;
  return g_build_filename (build_root, "data", "examples", NULL);
}

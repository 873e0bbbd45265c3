/* test-window.c: the editor's main window under a real display
 *
 * Runs against whatever display the environment gives (the CI runs the
 * suite under xvfb-run); without one, the whole test is skipped. Settings
 * use the memory backend, so the user's configuration is never touched.
 */
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "qd-application.h"
#include "qd-canvas.h"
#include "qd-inspector.h"
#include "qd-messages-view.h"
#include "qd-test-gtk-util.h"
#include "qd-test-util.h"
#include "qd-preferences-window.h"
#include "qd-settings.h"
#include "qd-window.h"

static QdApplication *app;

static GtkWidget *
template_child (QdWindow   *window,
                const char *name)
{
  GObject *child = gtk_widget_get_template_child (GTK_WIDGET (window),
                                                  QD_TYPE_WINDOW, name);

  g_assert_nonnull (child);
  return GTK_WIDGET (child);
}

static const char *
label_text (QdWindow   *window,
            const char *name)
{
  return gtk_label_get_text (GTK_LABEL (template_child (window, name)));
}

static void
test_palette_rows (void)
{
  QdWindow *window = qd_window_new (GTK_APPLICATION (app));
  GtkListBox *list = GTK_LIST_BOX (template_child (window, "palette_list"));
  const QdBlockType *const *all;
  g_autoptr(GPtrArray) offered = g_ptr_array_new ();
  const QdBlockType **types;
  guint n_all = 0, n_types, n_rows = 0;

  all = qd_registry_list (&n_all);
  /* The placeholder only comes from an imported model. */
  for (guint i = 0; i < n_all; i++)
    if ((all[i]->flags & QD_BLOCK_PLACEHOLDER) == 0)
      g_ptr_array_add (offered, (gpointer) all[i]);
  g_assert_cmpuint (offered->len, <, n_all);
  types = (const QdBlockType **) offered->pdata;
  n_types = offered->len;
  g_assert_cmpuint (n_types, >, 0);

  /* One row per registered type but the placeholder, in the registry's
   * order, each showing the type's glyph and translated name. */
  for (GtkListBoxRow *row; (row = gtk_list_box_get_row_at_index (list, (int) n_rows)); n_rows++)
    {
      GtkWidget *box = gtk_list_box_row_get_child (row);
      GtkWidget *glyph = gtk_widget_get_first_child (box);
      GtkWidget *name = gtk_widget_get_next_sibling (glyph);

      g_assert_cmpuint (n_rows, <, n_types);
      g_assert_true (g_object_get_data (G_OBJECT (row), "qd-block-type") == types[n_rows]);
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (glyph)), ==, types[n_rows]->glyph);
      g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (name)), ==, _(types[n_rows]->name));
    }
  g_assert_cmpuint (n_rows, ==, n_types);

  /* The first row of each category carries the category as its header. */
  {
    GtkListBoxRow *first = gtk_list_box_get_row_at_index (list, 0);
    GtkWidget *header;

    gtk_list_box_invalidate_headers (list);
    header = gtk_list_box_row_get_header (first);
    g_assert_nonnull (header);
    g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (header)), ==, _(types[0]->category));
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_empty_window (void)
{
  QdWindow *window = qd_window_new (GTK_APPLICATION (app));
  GtkStack *stack = GTK_STACK (template_child (window, "main_stack"));

  g_assert_null (qd_window_get_document (window));
  g_assert_null (qd_window_get_file (window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "empty");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, _("QDevs"));
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (template_child (window, "message_revealer"))));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* With a diagram open, the window fits half of a 1920 px screen: no
 * toolbar row (the run bar with its progress text) may hold it wider. */
static void
test_minimum_width (void)
{
  QdWindow *window = qd_window_new (GTK_APPLICATION (app));
  g_autoptr(GError) error = NULL;
  g_autofree char *path = qd_test_source_path ("data", "examples",
                                                "lotka-volterra.qdevs", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  int minimum = 0, natural = 0;

  g_assert_true (qd_window_open_file (window, file, &error));
  g_assert_no_error (error);
  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1,
                      &minimum, &natural, NULL, NULL);
  g_test_message ("minimum width %d px, natural %d px", minimum, natural);
  g_assert_cmpint (minimum, <=, 960);

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_open_example (void)
{
  g_autofree char *path = qd_test_source_path ("data", "examples",
                                               "cellier-first-order.qdevs", NULL);
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *basename = NULL;
  QdWindow *window;
  QdDocument *document;
  const char *title;
  GtkStack *stack;
  gboolean opened;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR))
    {
      g_test_skip ("data/examples/cellier-first-order.qdevs is not there yet");
      return;
    }

  window = qd_window_new (GTK_APPLICATION (app));
  file = g_file_new_for_path (path);
  opened = qd_window_open_file (window, file, &error);
  g_assert_no_error (error);
  g_assert_true (opened);

  document = qd_window_get_document (window);
  g_assert_nonnull (document);
  g_assert_true (qd_window_get_file (window) == file);

  /* The header bar shows the diagram's title over its file name, and the
   * window title (what the window manager shows) joins both. */
  title = qd_document_get_title (document);
  basename = g_file_get_basename (file);
  if (title == NULL || title[0] == '\0')
    title = basename;
  g_assert_cmpstr (label_text (window, "title_label"), ==, title);
  g_assert_cmpstr (label_text (window, "subtitle_label"), ==, basename);
  g_assert_true (gtk_widget_get_visible (template_child (window, "subtitle_label")));
  g_assert_cmpstr (label_text (window, "doc_title_label"), ==, title);
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (window)), title));
  g_assert_nonnull (strstr (gtk_window_get_title (GTK_WINDOW (window)), basename));

  stack = GTK_STACK (template_child (window, "main_stack"));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (stack), ==, "document");
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (template_child (window, "message_revealer"))));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The value shown next to @key in the diagram's facts, or NULL. */
static const char *
fact_value (QdWindow   *window,
            const char *key)
{
  GtkGrid *grid = GTK_GRID (template_child (window, "facts_grid"));

  for (int row = 0; gtk_grid_get_child_at (grid, 0, row) != NULL; row++)
    {
      GtkWidget *k = gtk_grid_get_child_at (grid, 0, row);

      if (g_strcmp0 (gtk_label_get_text (GTK_LABEL (k)), key) == 0)
        return gtk_label_get_text (GTK_LABEL (gtk_grid_get_child_at (grid, 1, row)));
    }
  return NULL;
}

/* A diagram made with the document's commands, saved and opened: the
 * window shows its title, description and what it holds, counted through
 * the hierarchy. Needs only the structural block types. */
static void
test_open_saved (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  QdSystem *root = qd_document_get_root (document);
  QdBlock *plant, *in, *out;
  QdWindow *window;

  qd_document_set_title (document, "Two levels");
  qd_document_set_description (document, "A subsystem that passes its input through.");
  plant = qd_document_add_block (document, root, QD_TYPE_SUBSYSTEM, "Plant", 100, 100, &error);
  g_assert_no_error (error);
  in = qd_document_add_block (document, plant->inner, QD_TYPE_INPORT, "In", 0, 0, &error);
  g_assert_no_error (error);
  out = qd_document_add_block (document, plant->inner, QD_TYPE_OUTPORT, "Out", 200, 0, &error);
  g_assert_no_error (error);
  qd_document_connect (document, plant->inner, in->id, 0, out->id, 0, &error);
  g_assert_no_error (error);

  dir = g_dir_make_tmp ("qd-test-window-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "two-levels.qdevs", NULL);
  qd_document_save (document, path, &error);
  g_assert_no_error (error);

  window = qd_window_new (GTK_APPLICATION (app));
  file = g_file_new_for_path (path);
  qd_window_open_file (window, file, &error);
  g_assert_no_error (error);

  g_assert_cmpstr (label_text (window, "title_label"), ==, "Two levels");
  g_assert_cmpstr (label_text (window, "subtitle_label"), ==, "two-levels.qdevs");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==,
                   "Two levels — two-levels.qdevs");
  g_assert_cmpstr (label_text (window, "doc_title_label"), ==, "Two levels");
  g_assert_cmpstr (label_text (window, "doc_description_label"), ==,
                   "A subsystem that passes its input through.");
  g_assert_cmpstr (fact_value (window, _("Blocks")), ==, "3");
  g_assert_cmpstr (fact_value (window, _("Subsystems")), ==, "1");
  g_assert_cmpstr (fact_value (window, _("Links")), ==, "1");
  g_assert_null (fact_value (window, _("Variables")));

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_rmdir (dir);
}

/* The diagram information counts blocks and links as `qdevs-cli check`
 * does: exp-decay has a link with a branch (the Integrator's output to
 * the Scope and the Gain), which is one link with two targets. */
static void
test_counts_as_check (void)
{
  g_autofree char *path = qd_test_source_path ("data", "examples", "exp-decay.qdevs", NULL);
  g_autofree char *cli = g_build_filename (g_getenv ("QD_BUILD_DIR"), "app", "qdevs-cli", NULL);
  const char *argv[] = { cli, "check", path, NULL };
  g_auto(GStrv) envp = g_environ_setenv (g_get_environ (), "LANGUAGE", "C", TRUE);
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *out = NULL;
  g_autofree char *expected = NULL;
  const char *counts;
  guint n_blocks = 0, n_links = 0;
  QdWindow *window;

  envp = g_environ_setenv (envp, "LC_ALL", "C", TRUE);
  g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL,
                &out, NULL, NULL, &error);
  g_assert_no_error (error);
  counts = strstr (out, ": OK (");
  g_assert_nonnull (counts);
  g_assert_cmpint (sscanf (counts, ": OK (%u blocks, %u links)", &n_blocks, &n_links), ==, 2);
  g_assert_cmpuint (n_links, ==, 2);

  window = qd_window_new (GTK_APPLICATION (app));
  qd_window_open_file (window, file, &error);
  g_assert_no_error (error);
  expected = g_strdup_printf ("%u", n_blocks);
  g_assert_cmpstr (fact_value (window, _("Blocks")), ==, expected);
  g_free (expected);
  expected = g_strdup_printf ("%u", n_links);
  g_assert_cmpstr (fact_value (window, _("Links")), ==, expected);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Unsaved changes: a star before the name in the header bar and the
 * window title after an edit; saving, or undoing back to the saved
 * state, takes it away. */
static void
test_modified_title (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  QdWindow *window;
  QdDocument *shown;

  qd_document_set_title (document, "Edits");
  dir = g_dir_make_tmp ("qd-test-window-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "edits.qdevs", NULL);
  qd_document_save (document, path, &error);
  g_assert_no_error (error);

  window = qd_window_new (GTK_APPLICATION (app));
  file = g_file_new_for_path (path);
  qd_window_open_file (window, file, &error);
  g_assert_no_error (error);
  shown = qd_window_get_document (window);
  g_assert_cmpstr (label_text (window, "title_label"), ==, "Edits");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "Edits — edits.qdevs");

  qd_document_add_block (shown, qd_document_get_root (shown), "gain", "Gain", 100, 100, &error);
  g_assert_no_error (error);
  g_assert_true (qd_document_get_modified (shown));
  g_assert_cmpstr (label_text (window, "title_label"), ==, "*Edits");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "*Edits — edits.qdevs");

  /* Save (Ctrl+S) writes to the file the diagram came from: no dialog. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "save", NULL);
  g_assert_false (qd_document_get_modified (shown));
  g_assert_cmpstr (label_text (window, "title_label"), ==, "Edits");
  g_assert_cmpstr (gtk_window_get_title (GTK_WINDOW (window)), ==, "Edits — edits.qdevs");

  /* Undo leaves the saved state, redo comes back to it. */
  qd_document_undo (shown);
  g_assert_cmpstr (label_text (window, "title_label"), ==, "*Edits");
  qd_document_redo (shown);
  g_assert_cmpstr (label_text (window, "title_label"), ==, "Edits");

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_rmdir (dir);
}

/* A check that finds problems rings their blocks on the canvas; a clean
 * check and a new document take the rings away. */
static void
test_problem_highlight (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(QdDocument) other = qd_document_new ();
  g_autoptr(GError) error = NULL;
  QdSystem *root = qd_document_get_root (document);
  QdCanvas *canvas;
  QdWindow *window;
  QdBlock *gain, *constant;
  GHashTable *ids;

  /* A Gain with nothing on its input: an unconnected-input problem. */
  gain = qd_document_add_block (document, root, "gain", "Gain", 100, 100, &error);
  g_assert_no_error (error);
  constant = qd_document_add_block (document, root, "constant", "Constant", 0, 100, &error);
  g_assert_no_error (error);

  window = qd_window_new (GTK_APPLICATION (app));
  qd_window_set_document (window, document, NULL);
  canvas = QD_CANVAS (template_child (window, "canvas"));
  g_assert_null (qd_canvas_get_highlight (canvas));

  g_assert_cmpuint (qd_window_check (window), >, 0);
  ids = qd_canvas_get_highlight (canvas);
  g_assert_nonnull (ids);
  g_assert_true (g_hash_table_contains (ids, gain->id));
  g_assert_false (g_hash_table_contains (ids, constant->id));

  /* Another document starts with an empty list. */
  qd_window_set_document (window, other, NULL);
  g_assert_null (qd_canvas_get_highlight (canvas));

  qd_window_set_document (window, document, NULL);
  g_assert_cmpuint (qd_window_check (window), >, 0);
  g_assert_nonnull (qd_canvas_get_highlight (canvas));
  qd_document_connect (document, root, constant->id, 0, gain->id, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (qd_window_check (window), ==, 0);
  g_assert_null (qd_canvas_get_highlight (canvas));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* A file that is not a diagram: the window stays empty and says why in
 * its message area, with the loader's message, which names the file. */
static void
test_open_error (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  QdWindow *window;
  const char *message;
  int fd;

  fd = g_file_open_tmp ("qd-test-window-XXXXXX.qdevs", &path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (write (fd, "{ \"format\": ", 12), ==, 12);
  close (fd);

  window = qd_window_new (GTK_APPLICATION (app));
  file = g_file_new_for_path (path);
  g_assert_false (qd_window_open_file (window, file, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_SYNTAX);

  g_assert_null (qd_window_get_document (window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (template_child (window, "main_stack"))),
                   ==, "empty");
  g_assert_true (gtk_revealer_get_reveal_child (GTK_REVEALER (template_child (window, "message_revealer"))));
  message = label_text (window, "message_label");
  g_assert_cmpstr (message, ==, error->message);
  g_assert_true (g_str_has_prefix (message, path));
  g_assert_true (gtk_widget_has_css_class (template_child (window, "message_box"), "error"));

  /* Dismissing hides the message. */
  qd_window_hide_message (window);
  g_assert_false (gtk_revealer_get_reveal_child (GTK_REVEALER (template_child (window, "message_revealer"))));

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
}

/* A diagram with bad parameters in two blocks opens (it was refused as
 * a whole before): the Messages panel lists each problem, the loader's
 * and the check's, and the canvas rings those blocks, as after a Check;
 * a clean block is not ringed. */
static void
test_open_with_problems (void)
{
  static const char data[] =
    "{\"format\": \"qdevs\", \"version\": 1, \"blocks\": ["
    " {\"id\": \"c\", \"type\": \"constant\", \"name\": \"C\","
    "  \"params\": {\"value\": \"1+\"}},"
    " {\"id\": \"g\", \"type\": \"gain\", \"name\": \"Gain\","
    "  \"params\": {\"kk\": \"2\", \"k\": \"3*\"}},"
    " {\"id\": \"s\", \"type\": \"scope\", \"name\": \"Scope\"}],"
    " \"links\": [{\"id\": \"l1\", \"from\": {\"block\": \"c\", \"port\": 0},"
    "  \"to\": [{\"block\": \"g\", \"port\": 0}]},"
    " {\"id\": \"l2\", \"from\": {\"block\": \"g\", \"port\": 0},"
    "  \"to\": [{\"block\": \"s\", \"port\": 0}]}]}";
  static const char *const listed[] = {
    "/C: parameter 'value': column 3: unexpected end of the expression",
    "/Gain: parameter 'k': column 3: unexpected end of the expression",
    "/Gain: unknown parameter 'kk' (Gain has: k)",
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  QdMessagesView *view;
  GtkNotebook *notebook;
  GHashTable *ids;
  QdWindow *window;
  int fd;

  fd = g_file_open_tmp ("qd-test-window-XXXXXX.qdevs", &path, &error);
  g_assert_no_error (error);
  g_assert_cmpint (write (fd, data, strlen (data)), ==, (gssize) strlen (data));
  close (fd);

  window = qd_window_new (GTK_APPLICATION (app));
  file = g_file_new_for_path (path);
  g_assert_true (qd_window_open_file (window, file, &error));
  g_assert_no_error (error);
  g_assert_nonnull (qd_window_get_document (window));
  g_assert_cmpstr (gtk_stack_get_visible_child_name (GTK_STACK (template_child (window, "main_stack"))),
                   ==, "document");

  view = QD_MESSAGES_VIEW (template_child (window, "messages_view"));
  g_assert_cmpuint (qd_messages_view_get_n_problems (view), ==, G_N_ELEMENTS (listed));
  for (guint i = 0; i < G_N_ELEMENTS (listed); i++)
    {
      g_autofree char *text = qd_problem_to_string (qd_messages_view_get_problem (view, i));

      g_assert_cmpstr (text, ==, listed[i]);
    }
  notebook = GTK_NOTEBOOK (template_child (window, "bottom_notebook"));
  g_assert_true (gtk_notebook_get_nth_page (notebook, gtk_notebook_get_current_page (notebook))
                 == GTK_WIDGET (view));
  ids = qd_canvas_get_highlight (QD_CANVAS (template_child (window, "canvas")));
  g_assert_nonnull (ids);
  g_assert_true (g_hash_table_contains (ids, "c"));
  g_assert_true (g_hash_table_contains (ids, "g"));
  g_assert_false (g_hash_table_contains (ids, "s"));

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
}

static void
test_open_missing (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = g_file_new_for_path ("/nonexistent/diagram.qdevs");
  QdWindow *window = qd_window_new (GTK_APPLICATION (app));

  g_assert_false (qd_window_open_file (window, file, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_IO);
  g_assert_true (g_str_has_prefix (label_text (window, "message_label"),
                                   "/nonexistent/diagram.qdevs"));
  g_assert_null (qd_window_get_document (window));

  gtk_window_destroy (GTK_WINDOW (window));
}

static QdPreferencesWindow *
find_preferences (guint *count)
{
  g_autoptr(GList) toplevels = gtk_window_list_toplevels ();
  QdPreferencesWindow *found = NULL;

  *count = 0;
  for (GList *l = toplevels; l != NULL; l = l->next)
    if (QD_IS_PREFERENCES_WINDOW (l->data))
      {
        found = l->data;
        (*count)++;
      }
  return found;
}

/* Preferences (Ctrl+,): one window, its trace memory field bound to the
 * setting both ways. The test runs from the build tree without
 * GSETTINGS_SCHEMA_DIR (see main), as the README starts the editor: the
 * schema compiled there is found, and the preferences can be changed. */
static void
test_preferences (void)
{
  g_autoptr(GSettings) settings = qd_settings_new_if_installed ();
  QdWindow *window = qd_window_new (GTK_APPLICATION (app));
  QdPreferencesWindow *prefs;
  GtkSpinButton *spin;
  guint count;

  g_assert_nonnull (settings);
  gtk_window_present (GTK_WINDOW (window));
  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  prefs = find_preferences (&count);
  g_assert_cmpuint (count, ==, 1);
  g_assert_true (gtk_window_get_transient_for (GTK_WINDOW (prefs)) == GTK_WINDOW (window));
  spin = qd_preferences_window_get_budget_spin (prefs);
  g_assert_nonnull (spin);
  g_assert_cmpfloat (gtk_spin_button_get_value (spin), ==,
                     g_settings_get_uint (settings, "trace-memory-budget"));

  gtk_spin_button_set_value (spin, 64);
  g_assert_cmpuint (g_settings_get_uint (settings, "trace-memory-budget"), ==, 64);
  /* Kept for the session: a second GSettings (as the next run reads it)
   * sees the change. */
  {
    g_autoptr(GSettings) again = qd_settings_new_if_installed ();

    g_assert_cmpuint (g_settings_get_uint (again, "trace-memory-budget"), ==, 64);
  }
  g_settings_set_uint (settings, "trace-memory-budget", 2048);
  g_assert_cmpfloat (gtk_spin_button_get_value (spin), ==, 2048);

  /* Again: the same window, not a second one. */
  g_action_group_activate_action (G_ACTION_GROUP (app), "preferences", NULL);
  g_assert_true (find_preferences (&count) == prefs);
  g_assert_cmpuint (count, ==, 1);

  g_settings_reset (settings, "trace-memory-budget");
  gtk_window_destroy (GTK_WINDOW (prefs));
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_actions_and_accels (void)
{
  static const struct
  {
    const char *action;
    const char *accel;
  } expected[] = {
    { "app.new", "<Control>n" },
    { "app.open", "<Control>o" },
    { "app.shortcuts", "<Control>question" },
    { "app.help", "F1" },
    { "app.preferences", "<Control>comma" },
    { "app.quit", "<Control>q" },
    { "app.about", NULL },
    { "app.open-example", NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      g_auto(GStrv) accels = NULL;

      g_assert_true (g_action_group_has_action (G_ACTION_GROUP (app),
                                                expected[i].action + strlen ("app.")));
      accels = gtk_application_get_accels_for_action (GTK_APPLICATION (app),
                                                      expected[i].action);
      if (expected[i].accel == NULL)
        g_assert_cmpuint (g_strv_length (accels), ==, 0);
      else
        {
          g_assert_cmpuint (g_strv_length (accels), ==, 1);
          g_assert_cmpstr (accels[0], ==, expected[i].accel);
        }
    }
}

/* Opening files reuses the active window while it is empty, and gives
 * every further file a window of its own. */
static void
test_application_open (void)
{
  g_autofree char *path1 = qd_test_source_path ("data", "examples",
                                                "cellier-first-order.qdevs", NULL);
  g_autofree char *path2 = qd_test_source_path ("data", "examples",
                                                "exp-decay.qdevs", NULL);
  GFile *files[2];
  GList *windows;
  QdWindow *empty, *other = NULL;
  guint n_before;

  if (!g_file_test (path1, G_FILE_TEST_IS_REGULAR) ||
      !g_file_test (path2, G_FILE_TEST_IS_REGULAR))
    {
      g_test_skip ("the examples are not there yet");
      return;
    }

  empty = qd_window_new (GTK_APPLICATION (app));
  g_assert_true (gtk_application_get_active_window (GTK_APPLICATION (app)) == GTK_WINDOW (empty));
  n_before = g_list_length (gtk_application_get_windows (GTK_APPLICATION (app)));

  files[0] = g_file_new_for_path (path1);
  files[1] = g_file_new_for_path (path2);
  g_application_open (G_APPLICATION (app), files, 2, "");

  windows = gtk_application_get_windows (GTK_APPLICATION (app));
  g_assert_cmpuint (g_list_length (windows), ==, n_before + 1);
  g_assert_true (g_file_equal (qd_window_get_file (empty), files[0]));
  for (GList *l = windows; l != NULL; l = l->next)
    if (QD_IS_WINDOW (l->data) && l->data != empty)
      other = l->data;
  g_assert_nonnull (other);
  g_assert_true (g_file_equal (qd_window_get_file (other), files[1]));

  gtk_window_destroy (GTK_WINDOW (other));
  gtk_window_destroy (GTK_WINDOW (empty));
  g_object_unref (files[0]);
  g_object_unref (files[1]);
}

static void
test_shortcuts_window (void)
{
  g_autoptr(GtkBuilder) builder = NULL;
  GObject *window;

  g_autoptr(GHashTable) accels = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GSList *objects;
  static const char *const expected[] = {
    "F2", "F5", "F7", "<Control>z", "<Control>g", "<Control>comma",
    "Menu", "<Shift>F10", "F1",
  };

  builder = gtk_builder_new_from_resource ("/io/github/qdevs/Qdevs/ui/qd-shortcuts-window.ui");
  window = gtk_builder_get_object (builder, "shortcuts_window");
  g_assert_true (GTK_IS_SHORTCUTS_WINDOW (window));

  /* The keys the editor binds are listed, Rename (F2) and Preferences
   * (Ctrl+,) included. */
  objects = gtk_builder_get_objects (builder);
  for (GSList *l = objects; l != NULL; l = l->next)
    if (GTK_IS_SHORTCUTS_SHORTCUT (l->data))
      {
        g_autofree char *accelerator = NULL;
        g_auto(GStrv) keys = NULL;

        g_object_get (l->data, "accelerator", &accelerator, NULL);
        keys = g_strsplit (accelerator != NULL ? accelerator : "", " ", -1);
        for (guint i = 0; keys[i] != NULL; i++)
          g_hash_table_add (accels, g_strdup (keys[i]));
      }
  g_slist_free (objects);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_true (g_hash_table_contains (accels, expected[i]));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* TRUE when the keyboard focus is in @field (an entry's text is a child
 * of the entry). */
static gboolean
has_focus_in (QdWindow  *window,
              GtkWidget *field)
{
  GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (window));

  return field != NULL && focus != NULL &&
         (focus == field || gtk_widget_is_ancestor (focus, field));
}

/* What one double-clicks in Simulink, Xcos or PowerDEVS to set a block's
 * parameters: a double-click on a block puts the keyboard on its first
 * parameter in the inspector, one on its name on the name, and one on
 * empty canvas does nothing. */
static void
test_edit_at (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GError) error = NULL;
  QdSystem *root = qd_document_get_root (document);
  QdInspector *inspector;
  QdCanvas *canvas;
  QdWindow *window;
  QdBlock *gain, *subsystem;
  QdRect rect;

  gain = qd_document_add_block (document, root, "gain", "Gain", 100, 100, &error);
  g_assert_no_error (error);
  subsystem = qd_document_add_block (document, root, "subsystem", "Plant", 300, 100, &error);
  g_assert_no_error (error);

  window = qd_window_new (GTK_APPLICATION (app));
  qd_window_set_document (window, document, NULL);
  gtk_window_present (GTK_WINDOW (window));
  canvas = QD_CANVAS (template_child (window, "canvas"));
  inspector = QD_INSPECTOR (template_child (window, "inspector"));
  rect = qd_canvas_block_rect (gain);

  g_assert_true (qd_window_edit_at (window, rect.x + rect.width / 2, rect.y + rect.height / 2));
  g_assert_true (qd_inspector_get_block (inspector) == gain);
  g_assert_true (qd_canvas_controller_is_selected (qd_canvas_get_controller (canvas), gain->id));
  g_assert_true (has_focus_in (window, qd_inspector_get_field (inspector, "k")));

  /* The name, drawn under the block. */
  gtk_widget_grab_focus (GTK_WIDGET (canvas));
  qd_canvas_controller_clear_selection (qd_canvas_get_controller (canvas));
  g_assert_null (qd_inspector_get_block (inspector));
  g_assert_true (qd_window_edit_at (window, rect.x + rect.width / 2, rect.y + rect.height + 7));
  g_assert_true (qd_inspector_get_block (inspector) == gain);
  g_assert_true (qd_canvas_controller_is_selected (qd_canvas_get_controller (canvas), gain->id));
  g_assert_true (has_focus_in (window, qd_inspector_get_field (inspector, "name")));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (qd_inspector_get_field (inspector, "name"))),
                   ==, "Gain");

  /* A subsystem is the canvas's to open; empty canvas has nothing. */
  rect = qd_canvas_block_rect (subsystem);
  g_assert_false (qd_window_edit_at (window, rect.x + rect.width / 2, rect.y + rect.height / 2));
  g_assert_false (qd_window_edit_at (window, 1000, 1000));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The inspector's word that a lowered port count took links with it is
 * shown in the message bar, and goes with the next change: after Undo,
 * "Undo brings it back" would be stale. */
static void
test_links_removed_notice (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GError) error = NULL;
  QdSystem *root = qd_document_get_root (document);
  GtkRevealer *revealer;
  QdInspector *inspector;
  QdWindow *window;
  QdBlock *a, *b, *sum;
  GtkWidget *entry;

  a = qd_document_add_block (document, root, "constant", "A", 0, 0, &error);
  g_assert_no_error (error);
  b = qd_document_add_block (document, root, "constant", "B", 0, 100, &error);
  g_assert_no_error (error);
  sum = qd_document_add_block (document, root, "wsum", "Sum", 200, 0, &error);
  g_assert_no_error (error);
  qd_test_connect (document, a, 0, sum, 0);
  qd_test_connect (document, b, 0, sum, 1);

  window = qd_window_new (GTK_APPLICATION (app));
  qd_window_set_document (window, document, NULL);
  gtk_window_present (GTK_WINDOW (window));
  revealer = GTK_REVEALER (template_child (window, "message_revealer"));
  inspector = QD_INSPECTOR (template_child (window, "inspector"));
  qd_inspector_set_block (inspector, sum);

  entry = qd_inspector_get_field (inspector, "n");
  gtk_editable_set_text (GTK_EDITABLE (entry), "1");
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpuint (root->links->len, ==, 1);
  g_assert_true (gtk_revealer_get_reveal_child (revealer));
  g_assert_cmpstr (label_text (window, "message_label"), ==,
                   "/Sum: 1 link went with the ports that no longer exist; "
                   "Undo brings it back");
  g_assert_true (gtk_widget_has_css_class (template_child (window, "message_box"), "info"));

  g_assert_true (qd_document_undo (document));
  g_assert_cmpuint (root->links->len, ==, 2);
  g_assert_false (gtk_revealer_get_reveal_child (revealer));

  gtk_window_destroy (GTK_WINDOW (window));
}

static void
collect_actions (GMenuModel *model,
                 GPtrArray  *actions)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autoptr(GMenuLinkIter) links = g_menu_model_iterate_item_links (model, i);
      char *action = NULL;

      if (g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &action))
        g_ptr_array_add (actions, action);
      while (g_menu_link_iter_next (links))
        {
          g_autoptr(GMenuModel) link = g_menu_link_iter_get_value (links);

          collect_actions (link, actions);
        }
    }
}

static gboolean
action_enabled (QdWindow   *window,
                const char *name)
{
  return g_action_group_get_action_enabled (G_ACTION_GROUP (window), name);
}

/* Activating a message about a bad parameter puts the keyboard on that
 * parameter in the inspector; one about a connection leaves it alone. */
static void
test_problem_focus (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GError) error = NULL;
  QdSystem *root = qd_document_get_root (document);
  QdMessagesView *view;
  QdInspector *inspector;
  QdWindow *window;
  QdBlock *source, *gain, *loose;
  gboolean saw_param = FALSE, saw_input = FALSE;

  source = qd_document_add_block (document, root, "constant", "Source", 0, 0, &error);
  g_assert_no_error (error);
  gain = qd_document_add_block (document, root, "gain", "Gain", 100, 0, &error);
  g_assert_no_error (error);
  qd_test_connect (document, source, 0, gain, 0);
  qd_test_set_param (document, gain, "k", "2*nowhere");
  loose = qd_document_add_block (document, root, "gain", "Loose", 100, 100, &error);
  g_assert_no_error (error);

  window = qd_window_new (GTK_APPLICATION (app));
  qd_window_set_document (window, document, NULL);
  gtk_window_present (GTK_WINDOW (window));
  view = QD_MESSAGES_VIEW (template_child (window, "messages_view"));
  inspector = QD_INSPECTOR (template_child (window, "inspector"));
  g_assert_cmpuint (qd_window_check (window), >=, 2);

  for (guint i = 0; i < qd_messages_view_get_n_problems (view); i++)
    {
      const QdProblem *problem = qd_messages_view_get_problem (view, i);

      gtk_widget_grab_focus (template_child (window, "canvas"));
      qd_messages_view_activate (view, i);
      g_assert_true (qd_messages_view_get_activated (view) == problem);
      if (g_strcmp0 (problem->block_id, gain->id) == 0)
        {
          saw_param = TRUE;
          g_assert_true (qd_inspector_get_block (inspector) == gain);
          g_assert_true (has_focus_in (window, qd_inspector_get_field (inspector, "k")));
        }
      else if (g_strcmp0 (problem->block_id, loose->id) == 0)
        {
          saw_input = TRUE;
          g_assert_true (qd_inspector_get_block (inspector) == loose);
          g_assert_false (has_focus_in (window, GTK_WIDGET (inspector)));
        }
    }
  g_assert_true (saw_param);
  g_assert_true (saw_input);

  /* A new list forgets the row activated in the old one. */
  qd_messages_view_set_problems (view, NULL);
  g_assert_null (qd_messages_view_get_activated (view));

  qd_document_set_saved (document);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The canvas's context menu carries what a block-diagram user looks for
 * there besides the clipboard: Open Subsystem, Rename and Properties,
 * each enabled when it applies. */
static void
test_context_menu (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GPtrArray) actions = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  QdSystem *root = qd_document_get_root (document);
  QdCanvasController *controller;
  QdInspector *inspector;
  QdCanvas *canvas;
  QdWindow *window;
  QdBlock *gain, *subsystem;
  static const char *const expected[] = {
    "canvas.cut", "canvas.delete", "canvas.group",
    "win.open-subsystem", "win.rename", "win.properties",
  };

  gain = qd_document_add_block (document, root, "gain", "Gain", 100, 100, &error);
  g_assert_no_error (error);
  subsystem = qd_document_add_block (document, root, "subsystem", "Plant", 300, 100, &error);
  g_assert_no_error (error);

  window = qd_window_new (GTK_APPLICATION (app));
  canvas = QD_CANVAS (template_child (window, "canvas"));
  inspector = QD_INSPECTOR (template_child (window, "inspector"));
  controller = qd_canvas_get_controller (canvas);
  collect_actions (G_MENU_MODEL (qd_canvas_get_context_menu (canvas)), actions);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    g_assert_true (g_ptr_array_find_with_equal_func (actions, expected[i], g_str_equal, NULL));

  /* Without a diagram nothing applies. */
  g_assert_false (action_enabled (window, "properties"));
  g_assert_false (action_enabled (window, "rename"));

  qd_window_set_document (window, document, NULL);
  gtk_window_present (GTK_WINDOW (window));
  /* Nothing selected: the model's properties. */
  g_assert_true (action_enabled (window, "properties"));
  g_assert_false (action_enabled (window, "rename"));
  g_assert_false (action_enabled (window, "open-subsystem"));
  g_action_group_activate_action (G_ACTION_GROUP (window), "properties", NULL);
  g_assert_true (has_focus_in (window, qd_inspector_get_field (inspector, "title")));

  qd_canvas_controller_select (controller, gain->id, FALSE);
  g_assert_true (action_enabled (window, "rename"));
  g_assert_false (action_enabled (window, "open-subsystem"));
  g_action_group_activate_action (G_ACTION_GROUP (window), "rename", NULL);
  g_assert_true (has_focus_in (window, qd_inspector_get_field (inspector, "name")));
  g_action_group_activate_action (G_ACTION_GROUP (window), "properties", NULL);
  g_assert_true (has_focus_in (window, qd_inspector_get_field (inspector, "k")));

  /* Several blocks have no one set of properties. */
  qd_canvas_controller_select (controller, subsystem->id, TRUE);
  g_assert_false (action_enabled (window, "properties"));
  g_assert_false (action_enabled (window, "rename"));

  qd_canvas_controller_select (controller, subsystem->id, FALSE);
  g_assert_true (action_enabled (window, "open-subsystem"));
  g_action_group_activate_action (G_ACTION_GROUP (window), "properties", NULL);
  g_assert_false (gtk_widget_has_focus (GTK_WIDGET (canvas)));
  g_action_group_activate_action (G_ACTION_GROUP (window), "open-subsystem", NULL);
  g_assert_true (qd_canvas_get_system (canvas) == subsystem->inner);
  /* The keyboard follows the view into the subsystem. */
  g_assert_true (gtk_widget_has_focus (GTK_WIDGET (canvas)));

  /* Deleting the selected block takes its actions away. */
  qd_canvas_set_system (canvas, NULL);
  qd_canvas_controller_select (controller, gain->id, FALSE);
  g_assert_true (action_enabled (window, "rename"));
  qd_canvas_controller_delete_selection (controller);
  g_assert_false (action_enabled (window, "rename"));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Open Example works from a build tree that was never installed: the
 * examples are then the source tree's. */
static void
test_examples_dir (void)
{
  g_autofree char *installed = g_build_filename (QD_PKGDATADIR, "examples", NULL);
  g_autofree char *source = qd_test_source_path ("data", "examples", NULL);
  g_autofree char *saved = g_strdup (g_getenv ("QD_EXAMPLES_DIR"));
  g_autofree char *dir = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *found = NULL;

  g_setenv ("QD_EXAMPLES_DIR", "/nonexistent/examples", TRUE);
  dir = qd_application_get_examples_dir ();
  g_assert_cmpstr (dir, ==, "/nonexistent/examples");
  g_clear_pointer (&dir, g_free);

  g_unsetenv ("QD_EXAMPLES_DIR");
  dir = qd_application_get_examples_dir ();
  if (saved != NULL)
    g_setenv ("QD_EXAMPLES_DIR", saved, TRUE);
  if (g_file_test (installed, G_FILE_TEST_IS_DIR))
    {
      g_assert_cmpstr (dir, ==, installed);
      return;
    }
  /* Compared as real paths: the source root may be reached by a link. */
  expected = realpath (source, NULL);
  found = realpath (dir, NULL);
  g_assert_nonnull (found);
  g_assert_cmpstr (found, ==, expected);
}

/* The window restores the size it had when last closed. */
static void
test_window_size_remembered (void)
{
  g_autoptr(GSettings) settings = qd_settings_new_if_installed ();
  QdWindow *window;
  GtkPaned *sidebar;
  int width = 0, height = 0;

  g_settings_set_int (settings, "window-width", 777);
  g_settings_set_int (settings, "window-height", 555);
  g_settings_set_boolean (settings, "window-maximized", FALSE);
  g_settings_set_int (settings, "sidebar-position", 300);

  window = qd_window_new (GTK_APPLICATION (app));
  gtk_window_get_default_size (GTK_WINDOW (window), &width, &height);
  g_assert_cmpint (width, ==, 777);
  g_assert_cmpint (height, ==, 555);
  sidebar = GTK_PANED (gtk_widget_get_template_child (GTK_WIDGET (window),
                                                      QD_TYPE_WINDOW,
                                                      "paned"));
  g_assert_cmpint (gtk_paned_get_position (sidebar), ==, 300);
  gtk_paned_set_position (sidebar, 260);

  /* Only a shown window can be closed (an unrealized one ignores it). */
  gtk_window_present (GTK_WINDOW (window));
  gtk_window_set_default_size (GTK_WINDOW (window), 640, 480);
  g_object_ref (window);
  gtk_window_close (GTK_WINDOW (window));
  g_assert_cmpint (g_settings_get_int (settings, "window-width"), ==, 640);
  g_assert_cmpint (g_settings_get_int (settings, "window-height"), ==, 480);
  g_assert_false (g_settings_get_boolean (settings, "window-maximized"));
  g_assert_cmpint (g_settings_get_int (settings, "sidebar-position"), ==, 260);
  g_object_unref (window);
}

/* A PowerDEVS model opens untitled and modified (Save asks for a .qdevs
 * name, the .pdm is never written), with the import report listed. */
static void
test_open_pdm (void)
{
  g_autofree char *path = qd_test_source_path ("tests", "data", "pdm",
                                               "rl-circuit.pdm", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  QdMessagesView *view;
  QdWindow *window;
  gboolean listed = FALSE;

  window = qd_window_new (GTK_APPLICATION (app));
  g_assert_true (qd_window_open_file (window, file, &error));
  g_assert_no_error (error);
  g_assert_nonnull (qd_window_get_document (window));
  g_assert_null (qd_window_get_file (window));
  g_assert_true (qd_document_get_modified (qd_window_get_document (window)));
  g_assert_nonnull (qd_document_find_block_by_path (qd_window_get_document (window),
                                                    "/Plant/Integrator"));
  view = QD_MESSAGES_VIEW (template_child (window, "messages_view"));
  for (guint i = 0; i < qd_messages_view_get_n_problems (view); i++)
    listed = listed
             || strcmp (qd_messages_view_get_problem (view, i)->path, "/Plant/Log") == 0;
  g_assert_true (listed);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int status;

  /* The editor as the README runs it from the build tree: without
   * GSETTINGS_SCHEMA_DIR, it must find the schema compiled there. */
  g_unsetenv ("GSETTINGS_SCHEMA_DIR");
  if (!qd_test_gtk_init (&argc, &argv, FALSE))
    return 0;

  /* Non-unique, so a running editor on the same display does not take
   * over; registering runs startup (actions, accelerators, style). */
  app = qd_application_new (G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  g_test_add_func ("/window/palette-rows", test_palette_rows);
  g_test_add_func ("/window/empty", test_empty_window);
  g_test_add_func ("/window/open-example", test_open_example);
  g_test_add_func ("/window/minimum-width", test_minimum_width);
  g_test_add_func ("/window/preferences", test_preferences);
  g_test_add_func ("/window/open-saved", test_open_saved);
  g_test_add_func ("/window/counts-as-check", test_counts_as_check);
  g_test_add_func ("/window/modified-title", test_modified_title);
  g_test_add_func ("/window/problem-highlight", test_problem_highlight);
  g_test_add_func ("/window/open-error", test_open_error);
  g_test_add_func ("/window/open-missing", test_open_missing);
  g_test_add_func ("/window/open-with-problems", test_open_with_problems);
  g_test_add_func ("/window/open-pdm", test_open_pdm);
  g_test_add_func ("/window/size-remembered", test_window_size_remembered);
  g_test_add_func ("/window/edit-at", test_edit_at);
  g_test_add_func ("/window/links-removed-notice", test_links_removed_notice);
  g_test_add_func ("/application/examples-dir", test_examples_dir);
  g_test_add_func ("/window/context-menu", test_context_menu);
  g_test_add_func ("/window/problem-focus", test_problem_focus);
  g_test_add_func ("/application/actions", test_actions_and_accels);
  g_test_add_func ("/application/open", test_application_open);
  g_test_add_func ("/application/shortcuts-window", test_shortcuts_window);

  status = g_test_run ();
  g_clear_object (&app);
  return status;
}

/* test-editor-panels.c: the messages panel, the example browser,
 * diagram export and the window's file handling
 *
 * Runs under a display (xvfb-run in CI); without one it is skipped.
 * Recent files go to a temporary data folder, never the user's.
 */
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <cairo.h>
#include <string.h>
#include <json-c/json.h>

#include "qd-application.h"
#include "qd-canvas.h"
#include "qd-diagram-export.h"
#include "qd-example-browser.h"
#include "qd-image-file.h"
#include "qd-inspector.h"
#include "qd-mask-dialog.h"
#include "qd-messages-view.h"
#include "qd-test-gtk-util.h"
#include "qd-test-gui.h"
#include "qd-test-util.h"
#include "qd-window.h"

static QdApplication *app;

static gboolean
fail_after_timeout (gpointer data)
{
  g_error ("%s within 60 s", (const char *) data);
  return G_SOURCE_REMOVE;
}

static void
test_messages (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GError) error = NULL;
  QdWindow *window = qd_window_new (GTK_APPLICATION (app));
  QdCanvas *canvas = QD_CANVAS (gtk_widget_get_template_child (GTK_WIDGET (window),
                                                               QD_TYPE_WINDOW, "canvas"));
  QdInspector *inspector = QD_INSPECTOR (gtk_widget_get_template_child (GTK_WIDGET (window),
                                                                        QD_TYPE_WINDOW, "inspector"));
  QdMessagesView *view = QD_MESSAGES_VIEW (gtk_widget_get_template_child (GTK_WIDGET (window),
                                                                          QD_TYPE_WINDOW, "messages_view"));
  QdCanvasController *controller = qd_canvas_get_controller (canvas);
  QdBlock *constant, *gain, *plant, *inner_gain;
  const QdProblem *problem;
  gboolean found_gain = FALSE;
  guint n;

  constant = qd_test_add_block_at (document, "constant", "Source", 0, 0);
  gain = qd_test_add_block_at (document, "gain", "Gain", 100, 0);
  (void) constant;
  plant = qd_test_add_block_at (document, QD_TYPE_SUBSYSTEM, "Plant", 200, 0);
  inner_gain = qd_document_add_block (document, plant->inner, "gain", "Inner", 0, 0, &error);
  g_assert_no_error (error);

  qd_window_set_document (window, document, NULL);
  gtk_window_present (GTK_WINDOW (window));
  n = qd_window_check (window);
  g_assert_cmpuint (n, >=, 2);
  g_assert_cmpuint (qd_messages_view_get_n_problems (view), ==, n);
  g_assert_true (g_hash_table_contains (qd_messages_view_get_block_ids (view), gain->id));
  g_assert_true (g_hash_table_contains (qd_messages_view_get_block_ids (view), inner_gain->id));

  for (guint i = 0; i < n; i++)
    {
      problem = qd_messages_view_get_problem (view, i);
      if (g_strcmp0 (problem->block_id, gain->id) != 0)
        continue;
      found_gain = TRUE;
      g_assert_cmpstr (problem->path, ==, "/Gain");
      qd_messages_view_activate (view, i);
      g_assert_true (qd_canvas_controller_is_selected (controller, gain->id));
      g_assert_true (qd_inspector_get_block (inspector) == gain);
    }
  g_assert_true (found_gain);

  for (guint i = 0; i < n; i++)
    {
      problem = qd_messages_view_get_problem (view, i);
      if (g_strcmp0 (problem->block_id, inner_gain->id) != 0)
        continue;
      g_assert_cmpstr (problem->path, ==, "/Plant/Inner");
      qd_messages_view_activate (view, i);
      g_assert_true (qd_canvas_get_system (canvas) == plant->inner);
      g_assert_true (qd_canvas_controller_is_selected (controller, inner_gain->id));
      g_assert_false (qd_canvas_controller_is_selected (controller, gain->id));
    }

  /* A diagram without problems says so. */
  {
    g_autoptr(QdDocument) empty = qd_document_new ();

    g_assert_cmpuint (qd_messages_view_check (view, empty), ==, 0);
  }

  qd_document_set_saved (document);
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
file_starts_with (const char *path,
                  const char *magic,
                  gsize       length)
{
  g_autofree char *contents = NULL;
  gsize size = 0;

  if (!g_file_get_contents (path, &contents, &size, NULL))
    return FALSE;
  return size > length && memcmp (contents, magic, length) == 0;
}

static void
test_export (void)
{
  g_autofree char *example = qd_test_source_path ("data", "examples", "exp-decay.qdevs", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) document = qd_document_load (example, &error);
  g_autofree char *dir = g_dir_make_tmp ("qd-test-export-XXXXXX", NULL);
  g_autofree char *svg = g_build_filename (dir, "d.svg", NULL);
  g_autofree char *pdf = g_build_filename (dir, "d.PDF", NULL);
  g_autofree char *png = g_build_filename (dir, "d.png", NULL);
  g_autofree char *part = g_build_filename (dir, "part.png", NULL);
  g_autofree char *bad = g_build_filename (dir, "d.txt", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *svg_text = NULL;
  g_autoptr(GHashTable) selection = g_hash_table_new (g_str_hash, g_str_equal);
  QdSystem *root;
  QdBlock *first;
  cairo_surface_t *image;
  int full_width, full_height;

  g_assert_no_error (error);
  root = qd_document_get_root (document);

  g_assert_true (qd_diagram_export (document, root, NULL, svg, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (svg, &svg_text, NULL, NULL));
  g_assert_nonnull (strstr (svg_text, "<svg"));
  g_assert_nonnull (strstr (svg_text, "</svg>"));

  g_assert_true (qd_diagram_export (document, root, NULL, pdf, &error));
  g_assert_no_error (error);
  g_assert_true (file_starts_with (pdf, "%PDF-", 5));

  g_assert_true (qd_diagram_export (document, root, NULL, png, &error));
  g_assert_no_error (error);
  g_assert_true (file_starts_with (png, "\x89PNG", 4));
  image = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
  full_width = cairo_image_surface_get_width (image);
  full_height = cairo_image_surface_get_height (image);
  cairo_surface_destroy (image);
  g_assert_cmpint (full_width, >, 2 * 60);
  g_assert_cmpint (full_height, >, 2 * 40);

  /* The selection alone: one block gives a smaller picture, and the
   * document is untouched. */
  first = g_ptr_array_index (root->blocks, 0);
  g_hash_table_add (selection, first->id);
  g_assert_true (qd_diagram_export (document, root, selection, part, &error));
  g_assert_no_error (error);
  image = cairo_image_surface_create_from_png (part);
  g_assert_cmpint (cairo_surface_status (image), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpint (cairo_image_surface_get_width (image) * cairo_image_surface_get_height (image),
                   <, full_width * full_height);
  cairo_surface_destroy (image);
  g_assert_false (qd_document_get_modified (document));

  g_assert_false (qd_diagram_export (document, root, NULL, bad, &error));
  expected = g_strdup_printf ("%s: unknown export format; end the file name "
                              "with .svg, .pdf or .png", bad);
  g_assert_error (error, QD_ERROR, QD_ERROR_IO);
  g_assert_cmpstr (error->message, ==, expected);

  g_assert_cmpint (qd_image_format_for_path ("a.Svg"), ==, QD_IMAGE_FORMAT_SVG);
  g_assert_cmpint (qd_image_format_for_path ("a.svg.bak"), ==, QD_IMAGE_FORMAT_UNKNOWN);

  g_unlink (svg);
  g_unlink (pdf);
  g_unlink (png);
  g_unlink (part);
  g_rmdir (dir);
}

static void
on_example (QdExampleBrowser *browser,
            GFile            *file,
            GFile           **out)
{
  g_set_object (out, file);
}

static void
test_example_browser (void)
{
  g_autofree char *folder = qd_test_source_path ("data", "examples", NULL);
  g_autoptr(GDir) dir = g_dir_open (folder, 0, NULL);
  g_autoptr(GFile) chosen = NULL;
  g_autofree char *basename = NULL;
  QdExampleBrowser *browser;
  const char *name;
  guint n_files = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, ".qdevs"))
      n_files++;

  browser = qd_example_browser_new (NULL, folder, NULL);
  g_assert_cmpuint (qd_example_browser_get_n_examples (browser), ==, n_files);
  /* Sorted by title within each group. */
  for (guint i = 1; i < n_files; i++)
    if (g_strcmp0 (qd_example_browser_get_group (browser, i - 1),
                   qd_example_browser_get_group (browser, i)) == 0)
      g_assert_cmpint (g_utf8_collate (qd_example_browser_get_title (browser, i - 1),
                                       qd_example_browser_get_title (browser, i)), <=, 0);

  g_signal_connect (browser, "example-activated", G_CALLBACK (on_example), &chosen);
  qd_example_browser_activate (browser, 0);
  g_assert_nonnull (chosen);
  basename = g_file_get_basename (chosen);
  g_assert_true (g_str_has_suffix (basename, ".qdevs"));
  qd_test_flush_events ();
}

/* Escape, Cancel and Open each close the shown dialog, without a
 * CRITICAL (a test makes them fatal) and with the chosen example only
 * after Open. */
static void
test_example_browser_close (void)
{
  g_autofree char *folder = qd_test_source_path ("data", "examples", NULL);
  enum { ESCAPE, CANCEL, OPEN } ways[] = { ESCAPE, CANCEL, OPEN };

  for (guint i = 0; i < G_N_ELEMENTS (ways); i++)
    {
      QdExampleBrowser *browser = qd_example_browser_new (NULL, folder, NULL);
      g_autoptr(GFile) chosen = NULL;
      GtkWidget *titlebar;

      g_object_ref (browser);
      g_signal_connect (browser, "example-activated", G_CALLBACK (on_example), &chosen);
      gtk_window_present (GTK_WINDOW (browser));
      qd_test_flush_events ();
      g_assert_true (gtk_widget_get_visible (GTK_WIDGET (browser)));
      titlebar = gtk_window_get_titlebar (GTK_WINDOW (browser));
      switch (ways[i])
        {
        case ESCAPE:
          /* What the Escape binding activates. */
          gtk_widget_activate_action (GTK_WIDGET (browser), "window.close", NULL);
          break;
        case CANCEL:
          g_signal_emit_by_name (qd_test_find_button (titlebar, _("_Cancel")), "clicked");
          break;
        case OPEN:
          g_signal_emit_by_name (qd_test_find_button (titlebar, _("_Open")), "clicked");
          break;
        }
      qd_test_flush_events ();
      g_assert_false (gtk_widget_get_visible (GTK_WIDGET (browser)));
      g_assert_true (ways[i] == OPEN ? chosen != NULL : chosen == NULL);
      g_object_unref (browser);
    }
}

/* Types @text in the search entry and waits for the list to filter
 * (the entry reports a change after a short delay). */
static void
search_examples (QdExampleBrowser *browser,
                 const char       *text,
                 guint             expect_shown)
{
  guint shown = G_MAXUINT;

  gtk_editable_set_text (qd_example_browser_get_search_entry (browser), text);
  for (guint tries = 0; tries < 400 && shown != expect_shown; tries++)
    {
      g_usleep (5000);
      while (g_main_context_iteration (NULL, FALSE))
        ;
      shown = 0;
      for (guint i = 0; i < qd_example_browser_get_n_examples (browser); i++)
        shown += qd_example_browser_is_shown (browser, i);
    }
  g_assert_cmpuint (shown, ==, expect_shown);
}

/* The gallery: every example in the group gallery.json gives it, the
 * groups in their order, a thumbnail on each row, and a search by title
 * or description. */
static void
test_example_gallery (void)
{
  g_autofree char *folder = qd_test_source_path ("data", "examples", NULL);
  g_autofree char *gallery = g_build_filename (folder, "gallery.json", NULL);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  json_object *root = json_object_from_file (gallery), *list;
  /* Where the build draws the thumbnails (data/examples/meson.build). */
  g_autofree char *thumbnails = g_build_filename (g_getenv ("QD_BUILD_DIR"), "data", "examples", NULL);
  QdExampleBrowser *browser = qd_example_browser_new (NULL, folder, thumbnails);
  const char *expected_groups[] = { "QSS basics", "Stiff systems", "Hybrid systems",
                                    "Discrete events", "Classic solvers against QSS" };
  guint n = qd_example_browser_get_n_examples (browser);
  guint n_listed = 0, last_group = 0;

  g_assert_nonnull (root);
  g_assert_true (json_object_object_get_ex (root, "groups", &list));
  g_assert_cmpuint (json_object_array_length (list), ==, G_N_ELEMENTS (expected_groups));
  for (size_t g = 0; g < json_object_array_length (list); g++)
    {
      json_object *files = json_object_object_get (json_object_array_get_idx (list, g), "examples");

      for (size_t j = 0; j < json_object_array_length (files); j++)
        {
          const char *file = json_object_get_string (json_object_array_get_idx (files, j));
          g_autofree char *path = g_build_filename (folder, file, NULL);
          gboolean found = FALSE;

          n_listed++;
          /* The browser shows it, under this group. */
          for (guint i = 0; i < n && !found; i++)
            {
              g_autofree char *basename = g_path_get_basename (qd_example_browser_get_path (browser, i));

              if (strcmp (basename, file) != 0)
                continue;
              found = TRUE;
              g_assert_cmpstr (qd_example_browser_get_group (browser, i), ==, expected_groups[g]);
            }
          g_assert_true (found);
          g_assert_false (g_hash_table_contains (seen, file));
          g_hash_table_add (seen, (gpointer) file);
          g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
        }
    }
  json_object_put (root);
  /* Every example is in a group, none under Other. */
  g_assert_cmpuint (n_listed, ==, n);
  for (guint i = 0; i < n; i++)
    {
      const char *group = qd_example_browser_get_group (browser, i);
      guint g = 0;

      while (g < G_N_ELEMENTS (expected_groups) && g_strcmp0 (group, expected_groups[g]) != 0)
        g++;
      g_assert_cmpuint (g, <, G_N_ELEMENTS (expected_groups));
      g_assert_cmpuint (g, >=, last_group);
      last_group = g;
      g_assert_true (qd_example_browser_is_shown (browser, i));
      g_assert_true (qd_example_browser_has_thumbnail (browser, i));
    }
  g_assert_cmpuint (last_group, ==, G_N_ELEMENTS (expected_groups) - 1);

  /* A word of a title: only the three bouncing balls. */
  search_examples (browser, "BOUNCING", 3);
  for (guint i = 0; i < n; i++)
    if (qd_example_browser_is_shown (browser, i))
      g_assert_cmpstr (qd_example_browser_get_group (browser, i), ==, "Hybrid systems");
  /* Words of a description, in any order: Cellier's staircase. */
  search_examples (browser, "17 cellier", 1);
  search_examples (browser, "no such example", 0);
  search_examples (browser, "", n);
  gtk_window_destroy (GTK_WINDOW (browser));
  qd_test_flush_events ();
}

/* A broken gallery.json says which file and lists the examples under
 * Other; with no thumbnails folder the rows have none. */
static void
test_example_gallery_broken (void)
{
  g_autofree char *source = qd_test_source_path ("data", "examples", "exp-decay.qdevs", NULL);
  g_autofree char *dir = g_dir_make_tmp ("qd-test-gallery-XXXXXX", NULL);
  g_autofree char *copy = g_build_filename (dir, "exp-decay.qdevs", NULL);
  g_autofree char *gallery = g_build_filename (dir, "gallery.json", NULL);
  g_autofree char *contents = NULL;
  g_autofree char *message = NULL;
  QdExampleBrowser *browser;

  g_assert_true (g_file_get_contents (source, &contents, NULL, NULL));
  g_assert_true (g_file_set_contents (copy, contents, -1, NULL));
  g_assert_true (g_file_set_contents (gallery, "{ \"groups\": { } }", -1, NULL));
  message = g_strdup_printf ("%s: not a gallery*", gallery);
  g_test_expect_message (G_LOG_DOMAIN, G_LOG_LEVEL_WARNING, message);
  browser = qd_example_browser_new (NULL, dir, NULL);
  g_test_assert_expected_messages ();
  g_assert_cmpuint (qd_example_browser_get_n_examples (browser), ==, 1);
  g_assert_cmpstr (qd_example_browser_get_group (browser, 0), ==, "Other");
  g_assert_false (qd_example_browser_has_thumbnail (browser, 0));
  gtk_window_destroy (GTK_WINDOW (browser));

  /* An id the editor does not know is Other too. */
  g_assert_true (g_file_set_contents (gallery, "{ \"groups\": [ { \"id\": \"misc\", "
                                      "\"examples\": [ \"exp-decay.qdevs\" ] } ] }", -1, NULL));
  browser = qd_example_browser_new (NULL, dir, NULL);
  g_assert_cmpstr (qd_example_browser_get_group (browser, 0), ==, "Other");
  gtk_window_destroy (GTK_WINDOW (browser));
  qd_test_flush_events ();
  g_unlink (copy);
  g_unlink (gallery);
  g_rmdir (dir);
}

/* Save writes the file and clears the modified state; a modified
 * diagram asks before its window closes. */
static void
test_save_and_close (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("qd-test-save-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "model.qdevs", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(QdDocument) reloaded = NULL;
  QdWindow *window;
  GtkWidget *dialog = NULL;
  GListModel *toplevels;

  g_assert_true (qd_document_save (document, path, &error));
  g_assert_no_error (error);
  window = qd_window_new (GTK_APPLICATION (app));
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  g_assert_true (qd_window_open_file (window, file, &error));
  gtk_window_present (GTK_WINDOW (window));

  qd_document_set_title (qd_window_get_document (window), "Saved");
  g_assert_true (qd_document_get_modified (qd_window_get_document (window)));
  g_action_group_activate_action (G_ACTION_GROUP (window), "save", NULL);
  g_assert_false (qd_document_get_modified (qd_window_get_document (window)));
  reloaded = qd_document_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (qd_document_get_title (reloaded), ==, "Saved");

  /* The file is in the Open Recent menu. */
  {
    GMenuModel *recent = G_MENU_MODEL (gtk_widget_get_template_child (GTK_WIDGET (window),
                                                                      QD_TYPE_WINDOW,
                                                                      "recent_menu"));
    g_autofree char *uri = g_file_get_uri (file);
    gboolean listed = FALSE;
    /* The recent files list is written, and the menu told, a moment
     * later: wait for it (a test that never gets there fails). */
    guint guard = g_timeout_add_seconds (60, fail_after_timeout,
                                         (gpointer) "the saved file is not in Open Recent");

    while (!listed)
      {
        g_main_context_iteration (NULL, TRUE);
        for (int i = 0; i < g_menu_model_get_n_items (recent); i++)
          {
            g_autoptr(GVariant) target = g_menu_model_get_item_attribute_value (recent, i,
                                                                               G_MENU_ATTRIBUTE_TARGET,
                                                                               G_VARIANT_TYPE_STRING);

            if (target != NULL && g_strcmp0 (g_variant_get_string (target, NULL), uri) == 0)
              listed = TRUE;
          }
      }
    g_source_remove (guard);
  }

  /* Modified again: closing asks, Cancel keeps the window. */
  qd_test_add_block_at (qd_window_get_document (window), "gain", NULL, 0, 0);
  gtk_window_close (GTK_WINDOW (window));
  qd_test_flush_events ();
  g_assert_nonnull (window);
  toplevels = gtk_window_get_toplevels ();
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) w = g_list_model_get_item (toplevels, i);

      if (GTK_IS_MESSAGE_DIALOG (w)
          && gtk_window_get_transient_for (GTK_WINDOW (w)) == GTK_WINDOW (window))
        dialog = w;
    }
  g_assert_nonnull (dialog);
  gtk_dialog_response (GTK_DIALOG (dialog), GTK_RESPONSE_CANCEL);
  qd_test_flush_events ();
  g_assert_nonnull (window);

  /* Discard closes without saving. */
  gtk_window_close (GTK_WINDOW (window));
  qd_test_flush_events ();
  dialog = NULL;
  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWidget) w = g_list_model_get_item (toplevels, i);

      if (GTK_IS_MESSAGE_DIALOG (w))
        dialog = w;
    }
  g_assert_nonnull (dialog);
  gtk_dialog_response (GTK_DIALOG (dialog), 2 /* Discard */);
  qd_test_flush_events ();
  g_assert_null (window);
  g_clear_object (&reloaded);
  reloaded = qd_document_load (path, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (qd_document_get_root (reloaded)->blocks->len, ==, 0);

  /* The saved file is now a recent one. */
  {
    g_autofree char *uri = g_file_get_uri (file);

    g_assert_true (gtk_recent_manager_has_item (gtk_recent_manager_get_default (), uri));
  }
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data_dir = NULL;
  int status;

  /* The recent files list lives in the data folder: use a scratch one. */
  data_dir = g_dir_make_tmp ("qd-test-editor-panels-XXXXXX", NULL);
  g_setenv ("XDG_DATA_HOME", data_dir, TRUE);
  if (!qd_test_gtk_init (&argc, &argv, FALSE))
    return 0;

  app = qd_application_new (G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  g_test_add_func ("/messages/check-and-activate", test_messages);
  g_test_add_func ("/export/formats", test_export);
  g_test_add_func ("/example-browser/list", test_example_browser);
  g_test_add_func ("/example-browser/close", test_example_browser_close);
  g_test_add_func ("/example-browser/gallery", test_example_gallery);
  g_test_add_func ("/example-browser/gallery-broken", test_example_gallery_broken);
  g_test_add_func ("/window/save-and-close", test_save_and_close);

  status = g_test_run ();
  g_clear_object (&app);
  return status;
}

/* test-script-editor.c: the script editor of Lua blocks, in the inspector
 *
 * Runs under a display (xvfb-run in CI); without one it is skipped.
 * Typing a syntax error marks its line (tag and gutter mark) and shows
 * the message in the field; fixing it clears both. A run error's
 * "script line N" opens the script at line N. A template replaces the
 * script and is applied to the document at once.
 */
#include <glib/gstdio.h>
#include <string.h>

#include "qd-inspector.h"
#include "qd-script-editor.h"
#include "qd-test-util.h"

/* Lets the editor's delayed check run: iterates the main loop until
 * @editor's error is @expected (NULL: none), for at most 10 s. */
static void
wait_for_error (QdScriptEditor *editor,
                const char     *expected)
{
  gint64 deadline = g_get_monotonic_time () + 10 * G_USEC_PER_SEC;

  while (g_strcmp0 (qd_script_editor_get_error (editor, NULL), expected) != 0
         && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (qd_script_editor_get_error (editor, NULL), ==, expected);
}

/* Whether line @line (from 1) of @editor carries the error tag and the
 * error mark, and no other line does. */
static void
assert_marked_line (QdScriptEditor *editor,
                    int             line)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (editor));
  GtkTextTag *tag = gtk_text_tag_table_lookup (gtk_text_buffer_get_tag_table (buffer),
                                               "qd-error-line");
  int n = gtk_text_buffer_get_line_count (buffer);

  g_assert_nonnull (tag);
  for (int i = 0; i < n; i++)
    {
      GtkTextIter iter;
      GSList *marks;

      gtk_text_buffer_get_iter_at_line (buffer, &iter, i);
      marks = gtk_source_buffer_get_source_marks_at_line (GTK_SOURCE_BUFFER (buffer),
                                                          i, "qd-error");
      g_assert_cmpint (gtk_text_iter_has_tag (&iter, tag), ==, i + 1 == line);
      g_assert_cmpint (marks != NULL, ==, i + 1 == line);
      g_slist_free (marks);
    }
}

static const char script_ok[] =
  "--@inputs 1\n"
  "--@outputs 1\n"
  "function init(p) return { sigma = math.huge } end\n"
  "function ta(s) return s.sigma end\n"
  "function dext(s, t, e, port, x) s.sigma = 0 end\n"
  "function lambda(s, t) out(0, t) end\n"
  "function dint(s, t) s.sigma = math.huge end\n";

/* A window with an inspector on @block of @doc; its script editor. */
static QdScriptEditor *
open_inspector (QdDocument  *doc,
                QdBlock     *block,
                GtkWidget  **window,
                GtkWidget  **inspector)
{
  GtkWidget *field;

  *window = gtk_window_new ();
  *inspector = qd_inspector_new ();
  qd_inspector_set_document (QD_INSPECTOR (*inspector), doc);
  qd_inspector_set_block (QD_INSPECTOR (*inspector), block);
  gtk_window_set_child (GTK_WINDOW (*window), *inspector);
  gtk_window_present (GTK_WINDOW (*window));
  field = qd_inspector_get_field (QD_INSPECTOR (*inspector), "script");
  g_assert_true (QD_IS_SCRIPT_EDITOR (field));
  return QD_SCRIPT_EDITOR (field);
}

static void
test_syntax_marking (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *lua = qd_test_add_block (doc, "lua", "Lua");
  GtkWidget *window, *inspector;
  QdScriptEditor *editor;
  GtkTextBuffer *buffer;
  GtkTextIter iter;

  qd_test_set_param (doc, lua, "script", script_ok);
  editor = open_inspector (doc, lua, &window, &inspector);
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (editor));
  g_assert_cmpstr (gtk_source_language_get_id (gtk_source_buffer_get_language (GTK_SOURCE_BUFFER (buffer))),
                   ==, "lua");
  g_assert_true (gtk_source_view_get_show_line_numbers (GTK_SOURCE_VIEW (editor)));

  /* Typed on line 4, "return s.sigma + end": the "end" is no operand. */
  gtk_text_buffer_get_iter_at_line (buffer, &iter, 3);
  gtk_text_iter_forward_to_line_end (&iter);
  gtk_text_iter_backward_chars (&iter, 4);
  gtk_text_buffer_insert_interactive (buffer, &iter, " +", -1, TRUE);
  wait_for_error (editor, "script line 4: unexpected symbol near 'end'");
  assert_marked_line (editor, 4);
  g_assert_cmpstr (qd_inspector_get_error (QD_INSPECTOR (inspector), "script"), ==,
                   "script line 4: unexpected symbol near 'end'");

  /* Fixed: no mark, no message. */
  gtk_text_buffer_get_iter_at_line (buffer, &iter, 3);
  gtk_text_iter_forward_to_line_end (&iter);
  gtk_text_iter_backward_chars (&iter, 4);
  {
    GtkTextIter end = iter;

    gtk_text_iter_backward_chars (&iter, 2);
    gtk_text_buffer_delete_interactive (buffer, &iter, &end, TRUE);
  }
  wait_for_error (editor, NULL);
  assert_marked_line (editor, 0);
  g_assert_null (qd_inspector_get_error (QD_INSPECTOR (inspector), "script"));

  /* A header line that is wrong is marked as well. */
  gtk_text_buffer_get_start_iter (buffer, &iter);
  gtk_text_buffer_insert_interactive (buffer, &iter, "--@colour red\n", -1, TRUE);
  wait_for_error (editor, "script line 1: unknown header line --@colour; the "
                  "header knows name, category, glyph, doc, inputs, outputs "
                  "and param");
  assert_marked_line (editor, 1);

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (doc);
}

/* A run error's "script line N" opens the script there. */
static void
test_run_error_line (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *lua = qd_test_add_block (doc, "lua", "Lua");
  GtkWidget *window, *inspector;
  QdScriptEditor *editor;
  GtkTextBuffer *buffer;
  GtkTextIter cursor;
  int line = 0;

  qd_test_set_param (doc, lua, "script", script_ok);
  editor = open_inspector (doc, lua, &window, &inspector);
  buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (editor));

  g_assert_false (qd_inspector_focus_script_line (QD_INSPECTOR (inspector),
                                                  "parameter 'inputs' is 2"));
  g_assert_true (qd_inspector_focus_script_line (QD_INSPECTOR (inspector),
                                                 "script line 6: output 0 is NaN"));
  g_assert_cmpstr (qd_script_editor_get_error (editor, &line), ==,
                   "script line 6: output 0 is NaN");
  g_assert_cmpint (line, ==, 6);
  assert_marked_line (editor, 6);
  gtk_text_buffer_get_iter_at_mark (buffer, &cursor, gtk_text_buffer_get_insert (buffer));
  g_assert_cmpint (gtk_text_iter_get_line (&cursor), ==, 5);

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (doc);
}

/* The first button of the templates' popover in @wrap. */
static GtkWidget *
first_template_button (GtkWidget *wrap)
{
  GtkWidget *bar = gtk_widget_get_first_child (wrap);
  GtkWidget *menu = gtk_widget_get_first_child (bar);
  GtkPopover *popover = gtk_menu_button_get_popover (GTK_MENU_BUTTON (menu));
  GtkWidget *box = gtk_popover_get_child (popover);

  return gtk_widget_get_first_child (box);
}

/* Choosing a template puts it in the document (one command). */
static void
test_template (void)
{
  g_autofree char *dir = qd_test_source_path ("data", "lua-templates", NULL);
  g_autofree char *path = g_build_filename (dir, "generator.lua", NULL);
  g_autofree char *expected = NULL;
  QdDocument *doc = qd_document_new ();
  QdBlock *lua = qd_test_add_block (doc, "lua", "Lua");
  GtkWidget *window, *inspector, *wrap, *button;
  QdScriptEditor *field;

  g_assert_true (g_file_get_contents (path, &expected, NULL, NULL));
  qd_script_editor_set_templates_dir (dir);
  field = open_inspector (doc, lua, &window, &inspector);
  wrap = gtk_widget_get_ancestor (GTK_WIDGET (field), GTK_TYPE_BOX);
  while (gtk_widget_get_parent (wrap) != NULL
         && GTK_IS_BOX (gtk_widget_get_parent (wrap)))
    wrap = gtk_widget_get_parent (wrap);

  /* Sorted by file: generator.lua first, labelled by its --@name. */
  button = first_template_button (wrap);
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (button)), ==, "Generator");
  g_signal_emit_by_name (button, "clicked");
  g_assert_cmpstr (qd_block_get_param (lua, "script"), ==, expected);
  g_assert_true (qd_document_can_undo (doc));

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (doc);
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *data_dir = NULL;

  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no display (run under xvfb-run)\n");
      return 0;
    }
  /* No library blocks of the user's in the way. */
  data_dir = g_dir_make_tmp ("qd-test-script-editor-XXXXXX", NULL);
  g_setenv ("XDG_DATA_HOME", data_dir, TRUE);

  gtk_test_init (&argc, &argv, NULL);
  qd_init ();

  g_test_add_func ("/script-editor/syntax-marking", test_syntax_marking);
  g_test_add_func ("/script-editor/run-error-line", test_run_error_line);
  g_test_add_func ("/script-editor/template", test_template);
  return g_test_run ();
}

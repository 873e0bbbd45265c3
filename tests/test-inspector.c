/* test-inspector.c: the inspector's forms: a block's fields, checked
 * as typed and undone in one step, a masked subsystem's fields and mask
 * editor, vector parameters, the model's form and solver, a subsystem's
 * ports. The messages panel, the example browser, diagram export and
 * the window's file handling are tested in test-editor-panels.c.
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

static GtkWidget *
new_inspector (QdDocument *document)
{
  GtkWidget *inspector = qd_inspector_new ();

  g_object_ref_sink (inspector);
  qd_inspector_set_document (QD_INSPECTOR (inspector), document);
  return inspector;
}

/* Types a text into an entry field and presses Enter. */
static void
type_and_enter (QdInspector *inspector,
                const char  *key,
                const char  *text)
{
  GtkWidget *entry = qd_inspector_get_field (inspector, key);

  g_assert_true (GTK_IS_ENTRY (entry));
  gtk_editable_set_text (GTK_EDITABLE (entry), text);
  g_signal_emit_by_name (entry, "activate");
}

static const char *
entry_text (QdInspector *inspector,
            const char  *key)
{
  GtkWidget *entry = qd_inspector_get_field (inspector, key);

  g_assert_true (GTK_IS_ENTRY (entry));
  return gtk_editable_get_text (GTK_EDITABLE (entry));
}

/* Every registered block type gets one field per schema parameter (plus
 * its name), each with the widget its kind asks for. */
static void
test_block_form_widgets (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GtkWidget) widget = new_inspector (document);
  QdInspector *inspector = QD_INSPECTOR (widget);
  const QdBlockType *const *types;
  guint n_types = 0, n_checked = 0;

  types = qd_registry_list (&n_types);
  for (guint t = 0; t < n_types; t++)
    {
      const QdBlockType *type = types[t];
      g_autoptr(GError) error = NULL;
      QdBlock *block;

      block = qd_document_add_block (document, qd_document_get_root (document),
                                     type->id, NULL, 100.0 * t, 0, &error);
      if (block == NULL)
        continue;   /* a port block outside a subsystem, say */
      qd_inspector_set_block (inspector, block);
      g_assert_true (qd_inspector_get_block (inspector) == block);
      g_assert_cmpuint (qd_inspector_get_n_fields (inspector), ==, type->n_params + 1);
      g_assert_cmpstr (entry_text (inspector, "name"), ==, block->name);

      for (guint i = 0; i < type->n_params; i++)
        {
          const QdParamSpec *spec = &type->params[i];
          GtkWidget *editor = qd_inspector_get_field (inspector, spec->name);

          g_assert_nonnull (editor);
          switch (spec->kind)
            {
            case QD_PARAM_BOOLEAN:
              g_assert_true (GTK_IS_SWITCH (editor));
              g_assert_cmpint (gtk_switch_get_active (GTK_SWITCH (editor)), ==,
                               g_strcmp0 (spec->default_value, "true") == 0);
              break;
            case QD_PARAM_CHOICE:
              g_assert_true (GTK_IS_DROP_DOWN (editor));
              break;
            case QD_PARAM_STRING:
              if (spec->flags & QD_PARAM_SCRIPT)
                {
                  /* A script editor (a text view), showing the default. */
                  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (editor));
                  GtkTextIter start, end;
                  g_autofree char *text = NULL;

                  gtk_text_buffer_get_bounds (buffer, &start, &end);
                  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
                  g_assert_cmpstr (G_OBJECT_TYPE_NAME (editor), ==, "QdScriptEditor");
                  g_assert_cmpstr (text, ==, spec->default_value);
                  break;
                }
              G_GNUC_FALLTHROUGH;
            default:
              g_assert_true (GTK_IS_ENTRY (editor));
              /* Unset: empty, with the default as placeholder. */
              g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (editor)), ==, "");
              if (!(spec->flags & QD_PARAM_INHERIT))
                g_assert_cmpstr (gtk_entry_get_placeholder_text (GTK_ENTRY (editor)), ==,
                                 spec->default_value);
              break;
            }
          g_assert_null (qd_inspector_get_error (inspector, spec->name));
        }
      n_checked++;
    }
  g_assert_cmpuint (n_checked, >, 5);
}

/* A bad value is reported as typed and never reaches the document. */
static void
test_invalid_value (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GtkWidget) widget = new_inspector (document);
  QdInspector *inspector = QD_INSPECTOR (widget);
  g_autoptr(GError) error = NULL;
  QdBlock *integrator = qd_test_add_block_at (document, "integrator", "Integrator", 0, 0);
  GtkWidget *entry;
  const char *message;

  qd_document_set_saved (document);
  qd_document_set_variable (document, "k", "2", &error);
  g_assert_no_error (error);
  qd_inspector_set_block (inspector, integrator);
  entry = qd_inspector_get_field (inspector, "x0");

  /* A syntax error, shown while typing. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "2*(");
  message = qd_inspector_get_error (inspector, "x0");
  g_assert_nonnull (message);
  g_test_message ("syntax error: %s", message);
  g_assert_nonnull (strstr (message, "column"));
  g_assert_true (gtk_widget_has_css_class (entry, "error"));
  g_signal_emit_by_name (entry, "activate");
  g_assert_null (qd_block_get_param (integrator, "x0"));
  g_assert_nonnull (qd_inspector_get_error (inspector, "x0"));

  /* A name that is not a model variable. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "kk + 1");
  message = qd_inspector_get_error (inspector, "x0");
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, "kk"));
  g_signal_emit_by_name (entry, "activate");
  g_assert_null (qd_block_get_param (integrator, "x0"));

  /* A value below the schema's range (quanta are not negative). */
  type_and_enter (inspector, "dqmin", "-k");
  g_assert_cmpstr (qd_inspector_get_error (inspector, "dqmin"), ==,
                   "-2 is too small; the value must be at least 0");
  g_assert_null (qd_block_get_param (integrator, "dqmin"));

  /* A name already taken in the same system. */
  qd_test_add_block_at (document, "gain", "Gain", 0, 100);
  type_and_enter (inspector, "name", "Gain");
  g_assert_cmpstr (qd_inspector_get_error (inspector, "name"), ==,
                   "another block here is named “Gain”; choose another name");
  g_assert_cmpstr (integrator->name, ==, "Integrator");

  /* Fixing the text clears the error (without applying it yet). */
  entry = qd_inspector_get_field (inspector, "x0");
  gtk_editable_set_text (GTK_EDITABLE (entry), "2*(k+1)");
  g_assert_null (qd_inspector_get_error (inspector, "x0"));
  g_assert_false (gtk_widget_has_css_class (entry, "error"));

  /* The history holds the two blocks and the variable, nothing the form
   * refused. */
  for (guint i = 0; i < 3; i++)
    g_assert_true (qd_document_undo (document));
  g_assert_false (qd_document_can_undo (document));
}

/* Inside a masked subsystem a block's fields know the mask's
 * parameters (evaluated over the model's variables); outside they do
 * not. The subsystem's own form has a field per mask parameter, its
 * default as placeholder, and Enter sets the value in one undo step. */
static void
test_mask_fields (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GtkWidget) widget = new_inspector (document);
  QdInspector *inspector = QD_INSPECTOR (widget);
  g_autoptr(GError) error = NULL;
  QdBlock *sub = qd_test_add_block_at (document, "subsystem", "PI", 0, 0);
  QdBlock *outside = qd_test_add_block_at (document, "gain", "Outside", 200, 0);
  QdBlock *inside = qd_document_add_block (document, sub->inner, "gain", "Inside",
                                           0, 0, &error);
  QdMask *mask = qd_mask_new ();
  GtkWidget *entry;

  g_assert_no_error (error);
  qd_document_set_variable (document, "K", "4", &error);
  qd_mask_add_param (mask, "Kp", "K / 2", "Proportional gain");
  g_assert_true (qd_document_set_mask (document, sub, mask, &error));
  qd_mask_free (mask);

  qd_inspector_set_block (inspector, inside);
  entry = qd_inspector_get_field (inspector, "k");
  gtk_editable_set_text (GTK_EDITABLE (entry), "Kp * 3");
  g_assert_null (qd_inspector_get_error (inspector, "k"));
  qd_inspector_set_block (inspector, outside);
  entry = qd_inspector_get_field (inspector, "k");
  gtk_editable_set_text (GTK_EDITABLE (entry), "Kp * 3");
  g_assert_nonnull (qd_inspector_get_error (inspector, "k"));

  qd_inspector_set_block (inspector, sub);
  entry = qd_inspector_get_field (inspector, "mask:Kp");
  g_assert_true (GTK_IS_ENTRY (entry));
  g_assert_cmpstr (gtk_entry_get_placeholder_text (GTK_ENTRY (entry)), ==, "K / 2");
  gtk_editable_set_text (GTK_EDITABLE (entry), "nope + 1");
  g_assert_nonnull (qd_inspector_get_error (inspector, "mask:Kp"));
  type_and_enter (inspector, "mask:Kp", "K * 5");
  g_assert_null (qd_inspector_get_error (inspector, "mask:Kp"));
  g_assert_cmpstr (qd_mask_find_param (qd_block_get_mask (sub), "Kp")->value, ==, "K * 5");
  g_assert_cmpstr (qd_document_get_undo_label (document), ==, "Set Mask Parameter");
  /* Undo shows the default again, as the placeholder. */
  g_assert_true (qd_document_undo (document));
  g_assert_cmpstr (entry_text (inspector, "mask:Kp"), ==, "");
}

static GtkWidget *find_named (GtkWidget  *widget,
                              const char *name);

/* The Edit Mask window: a parameter renamed in its row keeps its value,
 * a new row is declared and the icon text taken, in one undo step; a bad
 * name is refused with the message in the window, changing nothing. */
static void
test_mask_dialog (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GError) error = NULL;
  QdBlock *sub = qd_test_add_block_at (document, "subsystem", "PI", 0, 0);
  QdMask *mask = qd_mask_new ();
  QdMaskDialog *dialog;
  GtkWidget *root;
  const QdMask *now;

  qd_mask_add_param (mask, "Kp", "1", "gain")->value = g_strdup ("5");
  g_assert_true (qd_document_set_mask (document, sub, mask, &error));
  qd_mask_free (mask);

  /* A name that is no name: refused, the mask as it was. */
  dialog = qd_mask_dialog_new (NULL, document, sub);
  root = GTK_WIDGET (dialog);
  gtk_editable_set_text (GTK_EDITABLE (find_named (root, "mask-name:1")), "2x");
  g_signal_emit_by_name (find_named (root, "mask-apply"), "clicked");
  g_assert_nonnull (qd_mask_find_param (qd_block_get_mask (sub), "Kp"));
  g_assert_cmpstr (qd_document_get_undo_label (document), ==, "Edit Mask");
  gtk_window_destroy (GTK_WINDOW (dialog));

  dialog = qd_mask_dialog_new (NULL, document, sub);
  root = GTK_WIDGET (dialog);
  gtk_editable_set_text (GTK_EDITABLE (find_named (root, "mask-name:1")), "K");
  g_signal_emit_by_name (find_named (root, "mask-add"), "clicked");
  gtk_editable_set_text (GTK_EDITABLE (find_named (root, "mask-name:2")), "Td");
  gtk_editable_set_text (GTK_EDITABLE (find_named (root, "mask-default:2")), "0.1");
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (find_named (root, "mask-icon"))),
                            "PID\nK={K}", -1);
  g_signal_emit_by_name (find_named (root, "mask-apply"), "clicked");

  now = qd_block_get_mask (sub);
  g_assert_cmpuint (now->params->len, ==, 2);
  g_assert_null (qd_mask_find_param (now, "Kp"));
  g_assert_cmpstr (qd_mask_find_param (now, "K")->value, ==, "5");
  g_assert_cmpstr (qd_mask_find_param (now, "K")->description, ==, "gain");
  g_assert_cmpstr (qd_mask_find_param (now, "Td")->default_value, ==, "0.1");
  g_assert_null (qd_mask_find_param (now, "Td")->value);
  g_assert_cmpstr (now->icon, ==, "PID\nK={K}");
  g_assert_true (qd_document_undo (document));
  g_assert_nonnull (qd_mask_find_param (qd_block_get_mask (sub), "Kp"));
  g_assert_null (qd_block_get_mask (sub)->icon);
}

/* A parameter that holds a vector: checked element by element and
 * against the Size, applied as a list, and shown as one with its count. */
static void
test_vector_params (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GtkWidget) widget = new_inspector (document);
  QdInspector *inspector = QD_INSPECTOR (widget);
  g_autoptr(GError) error = NULL;
  QdBlock *integrator = qd_test_add_block_at (document, "integrator", "x", 0, 0);
  QdBlock *wsum = qd_test_add_block_at (document, "wsum", "Sum", 0, 100);
  GtkWidget *entry;
  const char *message;

  qd_document_set_variable (document, "k", "2", &error);
  g_assert_no_error (error);
  g_assert_true (qd_document_set_param (document, integrator, "size", "3", &error));
  qd_inspector_set_block (inspector, integrator);
  /* x0 left at its default: every element starts at 0. */
  g_assert_cmpstr (qd_inspector_get_summary (inspector, "x0"), ==,
                   "3 elements, each 0");

  entry = qd_inspector_get_field (inspector, "x0");
  gtk_editable_set_text (GTK_EDITABLE (entry), "1, k, 3");
  g_assert_null (qd_inspector_get_error (inspector, "x0"));
  g_assert_cmpstr (qd_inspector_get_summary (inspector, "x0"), ==,
                   "3 elements: [1, 2, 3]");
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpstr (qd_block_get_param (integrator, "x0"), ==, "1, k, 3");

  /* One short of the Size; an element that is not an expression. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "1, 2");
  g_assert_cmpstr (qd_inspector_get_error (inspector, "x0"), ==,
                   "2 values but Size is 3; give one value per element, or a "
                   "single value for all");
  g_assert_null (qd_inspector_get_summary (inspector, "x0"));
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpstr (qd_block_get_param (integrator, "x0"), ==, "1, k, 3");
  gtk_editable_set_text (GTK_EDITABLE (entry), "1, kk, 3");
  message = qd_inspector_get_error (inspector, "x0");
  g_assert_nonnull (message);
  g_assert_true (g_str_has_prefix (message, "element 2: "));
  g_assert_nonnull (strstr (message, "kk"));

  /* A single value is not a list: its error has no element number. */
  {
    QdBlock *scalar = qd_test_add_block_at (document, "integrator", "y", 0, 300);
    GtkWidget *scalar_entry;

    qd_inspector_set_block (inspector, scalar);
    scalar_entry = qd_inspector_get_field (inspector, "x0");
    gtk_editable_set_text (GTK_EDITABLE (scalar_entry), "tau");
    message = qd_inspector_get_error (inspector, "x0");
    g_assert_nonnull (message);
    g_assert_false (g_str_has_prefix (message, "element"));
    g_assert_nonnull (strstr (message, "tau"));
    qd_inspector_set_block (inspector, integrator);
    entry = qd_inspector_get_field (inspector, "x0");
  }

  /* A long list shows its first values and its last. */
  g_assert_true (qd_document_set_param (document, integrator, "size", "10", &error));
  gtk_editable_set_text (GTK_EDITABLE (entry), "1, 2, 3, 4, 5, 6, 7, 8, 9, 10");
  g_assert_cmpstr (qd_inspector_get_summary (inspector, "x0"), ==,
                   "10 elements: [1, 2, 3, 4, 5, …, 10]");

  /* The weights of a Weighted Sum are a vector too. */
  qd_inspector_set_block (inspector, wsum);
  g_assert_cmpstr (qd_inspector_get_summary (inspector, "weights"), ==,
                   "2 elements: [1, 1]");
  type_and_enter (inspector, "weights", "1, -k");
  g_assert_cmpstr (qd_inspector_get_summary (inspector, "weights"), ==,
                   "2 elements: [1, -2]");
  /* A scalar parameter has no such line. */
  g_assert_null (qd_inspector_get_summary (inspector, "n"));

  /* A Matrix Gain's matrix: its size and its rows, each element checked. */
  qd_inspector_set_block (inspector, qd_test_add_block_at (document, "matrix_gain", "M", 0, 200));
  g_assert_cmpstr (qd_inspector_get_summary (inspector, "matrix"), ==,
                   "2 × 2 matrix: [1 0; 0 1]");
  type_and_enter (inspector, "matrix", "[cos(0) -k; 1 0]");
  g_assert_null (qd_inspector_get_error (inspector, "matrix"));
  g_assert_cmpstr (qd_inspector_get_summary (inspector, "matrix"), ==,
                   "2 × 2 matrix: [1 -2; 1 0]");
  entry = qd_inspector_get_field (inspector, "matrix");
  gtk_editable_set_text (GTK_EDITABLE (entry), "[1 2; 3]");
  g_assert_cmpstr (qd_inspector_get_error (inspector, "matrix"), ==,
                   "row 2 has 1 elements but row 1 has 2; give every row as many");
  gtk_editable_set_text (GTK_EDITABLE (entry), "[1 kk]");
  message = qd_inspector_get_error (inspector, "matrix");
  g_assert_nonnull (message);
  g_assert_true (g_str_has_prefix (message, "row 1, column 2: "));

  /* The elements a Scope shows: all, or a list of elements and ranges. */
  qd_inspector_set_block (inspector, qd_test_add_block_at (document, "scope", "Scope", 0, 300));
  g_assert_cmpstr (qd_inspector_get_summary (inspector, "elements"), ==,
                   "every element");
  type_and_enter (inspector, "elements", "2:k+2, 7");
  g_assert_cmpstr (qd_inspector_get_summary (inspector, "elements"), ==,
                   "4 elements: 2, 3, 4, 7");
  type_and_enter (inspector, "elements", "1:100");
  g_assert_cmpstr (qd_inspector_get_summary (inspector, "elements"), ==,
                   "100 elements: 1, 2, 3, 4, 5, 6, …");
  entry = qd_inspector_get_field (inspector, "elements");
  gtk_editable_set_text (GTK_EDITABLE (entry), "4:2");
  g_assert_cmpstr (qd_inspector_get_error (inspector, "elements"), ==,
                   "'4:2' is not an element number from 1 or a range a:b with a <= b");
}

/* A valid change is one undo step, and undo puts the form back. */
static void
test_valid_change (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GtkWidget) widget = new_inspector (document);
  QdInspector *inspector = QD_INSPECTOR (widget);
  g_autoptr(GError) error = NULL;
  QdBlock *integrator = qd_test_add_block_at (document, "integrator", "Integrator", 0, 0);
  GtkWidget *method;
  guint qss3 = G_MAXUINT;
  GListModel *items;

  qd_document_set_variable (document, "k", "2", &error);
  g_assert_no_error (error);
  qd_inspector_set_block (inspector, integrator);

  type_and_enter (inspector, "x0", "3*k");
  g_assert_null (qd_inspector_get_error (inspector, "x0"));
  g_assert_cmpstr (qd_block_get_param (integrator, "x0"), ==, "3*k");
  g_assert_cmpstr (qd_document_get_undo_label (document), !=, NULL);

  /* Enter again with the same text changes nothing. */
  type_and_enter (inspector, "x0", "3*k");
  qd_document_undo (document);
  g_assert_null (qd_block_get_param (integrator, "x0"));
  g_assert_cmpstr (entry_text (inspector, "x0"), ==, "");
  qd_document_redo (document);
  g_assert_cmpstr (entry_text (inspector, "x0"), ==, "3*k");

  /* The method from the drop-down. */
  method = qd_inspector_get_field (inspector, "method");
  items = gtk_drop_down_get_model (GTK_DROP_DOWN (method));
  for (guint i = 0; i < g_list_model_get_n_items (items); i++)
    if (g_strcmp0 (gtk_string_list_get_string (GTK_STRING_LIST (items), i), "QSS3") == 0)
      qss3 = i;
  g_assert_cmpuint (qss3, !=, G_MAXUINT);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (method), qss3);
  g_assert_cmpstr (qd_block_get_param (integrator, "method"), ==, "QSS3");
  qd_document_undo (document);
  g_assert_null (qd_block_get_param (integrator, "method"));
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (method)), ==, 0);
  g_assert_cmpstr (qd_block_get_param (integrator, "x0"), ==, "3*k");

  /* Renaming, and the name field following an undo. */
  type_and_enter (inspector, "name", "Tank");
  g_assert_cmpstr (integrator->name, ==, "Tank");
  qd_document_undo (document);
  g_assert_cmpstr (entry_text (inspector, "name"), ==, "Integrator");

  /* Removing the block (an undo of its creation, say) goes to the model. */
  qd_document_remove_block (document, integrator);
  g_assert_null (qd_inspector_get_block (inspector));
  g_assert_nonnull (qd_inspector_get_field (inspector, "final_time"));
}

/* The value a field shows when a block is selected is the model's, not a
 * step of the field's own undo: Ctrl+Z in it (the "text.undo" action)
 * undoes only what was typed since, and never empties it. */
static void
test_field_undo (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GtkWidget) widget = new_inspector (document);
  QdInspector *inspector = QD_INSPECTOR (widget);
  QdBlock *f = qd_test_add_block_at (document, "nlfunction", "F", 0, 0);
  QdBlock *g = qd_test_add_block_at (document, "nlfunction", "G", 0, 0);
  GtkWidget *entry, *text;

  g_assert_true (qd_document_set_param (document, f, "expression", "u0*2", NULL));
  g_assert_true (qd_document_set_param (document, g, "expression", "u0*3", NULL));
  qd_inspector_set_block (inspector, g);
  qd_inspector_set_block (inspector, f);
  entry = qd_inspector_get_field (inspector, "expression");
  g_assert_cmpstr (entry_text (inspector, "expression"), ==, "u0*2");
  /* The undo actions are the GtkText's, inside the entry. */
  for (text = gtk_widget_get_first_child (entry); text != NULL && !GTK_IS_TEXT (text);
       text = gtk_widget_get_next_sibling (text))
    ;
  g_assert_nonnull (text);

  /* Nothing typed: nothing to undo (before, it emptied the field). */
  g_assert_true (gtk_widget_activate_action (text, "text.undo", NULL));
  qd_test_flush_events ();
  g_assert_cmpstr (entry_text (inspector, "expression"), ==, "u0*2");

  /* Typed: undone back to the model's value, and no further. */
  gtk_editable_set_position (GTK_EDITABLE (entry), -1);
  gtk_editable_insert_text (GTK_EDITABLE (entry), "+1", -1,
                            &(int) { 4 });
  g_assert_cmpstr (entry_text (inspector, "expression"), ==, "u0*2+1");
  g_assert_true (gtk_widget_activate_action (text, "text.undo", NULL));
  qd_test_flush_events ();
  g_assert_true (gtk_widget_activate_action (text, "text.undo", NULL));
  qd_test_flush_events ();
  g_assert_cmpstr (entry_text (inspector, "expression"), ==, "u0*2");
  g_assert_cmpstr (qd_block_get_param (f, "expression"), ==, "u0*2");
}

/* An NLFunction's expression is checked as typed against the block's
 * inputs, t and the model's variables, as Check and Run check it: a
 * name that is none of them is marked at once, not found at the run. */
static void
test_function_names (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GtkWidget) widget = new_inspector (document);
  QdInspector *inspector = QD_INSPECTOR (widget);
  QdBlock *f = qd_test_add_block_at (document, "nlfunction", "F", 0, 0);
  g_autoptr(GError) error = NULL;
  GtkEditable *entry;

  qd_inspector_set_block (inspector, f);
  qd_test_flush_events ();
  g_assert_true (GTK_IS_EDITABLE (qd_inspector_get_field (inspector, "expression")));
  entry = GTK_EDITABLE (qd_inspector_get_field (inspector, "expression"));
  gtk_editable_set_text (entry, "u0 + x");
  g_assert_cmpstr (qd_inspector_get_error (inspector, "expression"), ==,
                   "column 6: unknown name 'x': it is not the input u0, t or "
                   "a model variable; define it in the model's variables");
  gtk_editable_set_text (entry, "u0 + t");
  g_assert_null (qd_inspector_get_error (inspector, "expression"));
  /* An input the block does not have, in Check's words. */
  gtk_editable_set_text (entry, "u0 + 2*u1");
  g_assert_cmpstr (qd_inspector_get_error (inspector, "expression"), ==,
                   "column 8: input u1 does not exist (the block has 1 input)");

  g_assert_true (qd_document_set_variable (document, "x", "2", &error));
  qd_test_flush_events ();
  /* The form may have been rebuilt for the new variable. */
  entry = GTK_EDITABLE (qd_inspector_get_field (inspector, "expression"));
  gtk_editable_set_text (entry, "u0 + x");
  g_assert_null (qd_inspector_get_error (inspector, "expression"));
}

static void
on_notice (QdInspector *inspector,
           const char  *text,
           char       **out)
{
  g_free (*out);
  *out = g_strdup (text);
}

/* Lowering a port count removes the links of the ports that go, which
 * the field does not show: the inspector says so (the window puts it in
 * its message bar), and Undo brings them back. */
static void
test_links_removed_notice (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GtkWidget) widget = new_inspector (document);
  QdInspector *inspector = QD_INSPECTOR (widget);
  QdSystem *root = qd_document_get_root (document);
  QdBlock *a = qd_test_add_block_at (document, "constant", "A", 0, 0);
  QdBlock *b = qd_test_add_block_at (document, "constant", "B", 0, 100);
  QdBlock *sum = qd_test_add_block_at (document, "wsum", "Sum", 200, 0);
  g_autoptr(GError) error = NULL;
  g_autofree char *notice = NULL;

  g_assert_nonnull (qd_document_connect (document, root, a->id, 0, sum->id, 0, &error));
  g_assert_nonnull (qd_document_connect (document, root, b->id, 0, sum->id, 1, &error));
  g_signal_connect (inspector, "notice", G_CALLBACK (on_notice), &notice);
  qd_inspector_set_block (inspector, sum);
  qd_test_flush_events ();

  type_and_enter (inspector, "weights", "1, -1");
  g_assert_null (notice);
  type_and_enter (inspector, "n", "1");
  g_assert_cmpuint (root->links->len, ==, 1);
  g_assert_cmpstr (notice, ==, "/Sum: 1 link went with the ports that no longer "
                   "exist; Undo brings it back");
  g_assert_true (qd_document_undo (document));
  g_assert_cmpuint (root->links->len, ==, 2);
}

/* A WSum's Weights field follows its Inputs: the weights of the inputs
 * kept, as written, a 1 for a new one, and one Undo for both. A list of
 * another length, typed, is marked as Check and Run would refuse it. */
static void
test_weights_follow_inputs (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GtkWidget) widget = new_inspector (document);
  QdInspector *inspector = QD_INSPECTOR (widget);
  QdBlock *sum = qd_test_add_block_at (document, "wsum", "Prey rate", 0, 0);
  const char *const variables[] = { "eps", "alpha", "sigma" };
  GtkWidget *entry;

  for (guint i = 0; i < G_N_ELEMENTS (variables); i++)
    g_assert_true (qd_document_set_variable (document, variables[i], "0.5", NULL));
  qd_inspector_set_block (inspector, sum);
  qd_test_flush_events ();
  g_assert_true (qd_document_set_param (document, sum, "n", "3", NULL));
  g_assert_true (qd_document_set_param (document, sum, "weights",
                                        "eps, alpha, -sigma", NULL));
  qd_test_flush_events ();
  g_assert_cmpstr (entry_text (inspector, "weights"), ==, "eps, alpha, -sigma");

  type_and_enter (inspector, "n", "2");
  qd_test_flush_events ();
  g_assert_cmpstr (qd_block_get_param (sum, "weights"), ==, "eps, alpha");
  g_assert_cmpstr (entry_text (inspector, "weights"), ==, "eps, alpha");
  g_assert_null (qd_inspector_get_error (inspector, "weights"));
  g_assert_true (qd_document_undo (document));
  qd_test_flush_events ();
  g_assert_cmpstr (entry_text (inspector, "n"), ==, "3");
  g_assert_cmpstr (entry_text (inspector, "weights"), ==, "eps, alpha, -sigma");

  type_and_enter (inspector, "n", "2");
  type_and_enter (inspector, "weights", "1, -1");
  g_assert_cmpstr (qd_block_get_param (sum, "weights"), ==, "1, -1");
  type_and_enter (inspector, "n", "4");
  qd_test_flush_events ();
  g_assert_cmpstr (entry_text (inspector, "weights"), ==, "1, -1, 1, 1");

  /* Typed with one weight too many: marked, in Check's words, and not
   * applied. */
  entry = qd_inspector_get_field (inspector, "weights");
  gtk_editable_set_text (GTK_EDITABLE (entry), "1, -1, 1, 1, 2");
  g_assert_cmpstr (qd_inspector_get_error (inspector, "weights"), ==,
                   "parameter 'weights' has 5 values but the block has 4 "
                   "inputs: give one value per input");
  g_assert_true (gtk_widget_has_css_class (entry, "error"));
  g_signal_emit_by_name (entry, "activate");
  g_assert_cmpstr (qd_block_get_param (sum, "weights"), ==, "1, -1, 1, 1");

  /* The commas inside parentheses do not count. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "max(1, 2), 3, 4, 5");
  g_assert_null (qd_inspector_get_error (inspector, "weights"));
  g_assert_false (gtk_widget_has_css_class (entry, "error"));
  gtk_editable_set_text (GTK_EDITABLE (entry), "max(1, 2), 3");
  g_assert_cmpstr (qd_inspector_get_error (inspector, "weights"), ==,
                   "parameter 'weights' has 2 values but the block has 4 "
                   "inputs: give one value per input");
}

/* Integrator method and quanta show the model's default until set. */
static void
test_inherit (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GtkWidget) widget = new_inspector (document);
  QdInspector *inspector = QD_INSPECTOR (widget);
  g_autoptr(GError) error = NULL;
  QdBlock *integrator = qd_test_add_block_at (document, "integrator", "Integrator", 0, 0);
  QdSettings settings;
  GtkWidget *method, *dqmin;
  GListModel *items;

  qd_document_init_settings (&settings);
  g_free (settings.method);
  settings.method = g_strdup ("QSS2");
  settings.dqmin = 1e-4;
  qd_document_set_settings (document, &settings, &error);
  g_assert_no_error (error);

  qd_inspector_set_block (inspector, integrator);
  method = qd_inspector_get_field (inspector, "method");
  items = gtk_drop_down_get_model (GTK_DROP_DOWN (method));
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (method)), ==, 0);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (items), 0), ==,
                   "QSS2 (model default)");
  dqmin = qd_inspector_get_field (inspector, "dqmin");
  g_assert_cmpstr (gtk_entry_get_placeholder_text (GTK_ENTRY (dqmin)), ==,
                   "0.0001 (model default)");

  /* The model's setting changes: so does what the block inherits. */
  g_free (settings.method);
  settings.method = g_strdup ("QSS3");
  settings.dqmin = 1e-3;
  qd_document_set_settings (document, &settings, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (items), 0), ==,
                   "QSS3 (model default)");
  g_assert_cmpuint (gtk_drop_down_get_selected (GTK_DROP_DOWN (method)), ==, 0);
  g_assert_cmpstr (gtk_entry_get_placeholder_text (GTK_ENTRY (dqmin)), ==,
                   "0.001 (model default)");

  /* Overridden, then back to inheriting by emptying the field. */
  type_and_enter (inspector, "dqmin", "1e-5");
  g_assert_cmpstr (qd_block_get_param (integrator, "dqmin"), ==, "1e-5");
  type_and_enter (inspector, "dqmin", "");
  g_assert_null (qd_block_get_param (integrator, "dqmin"));
  qd_settings_clear (&settings);
}

/* The form shows what is wrong with the document's own values, and
 * follows when that changes. */
static void
test_document_errors (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GtkWidget) widget = new_inspector (document);
  QdInspector *inspector = QD_INSPECTOR (widget);
  g_autoptr(GError) error = NULL;
  QdBlock *integrator = qd_test_add_block_at (document, "integrator", "Integrator", 0, 0);
  const char *message;

  qd_document_set_variable (document, "k", "2", &error);
  g_assert_no_error (error);
  qd_document_set_param (document, integrator, "x0", "3*k", &error);
  g_assert_no_error (error);
  qd_inspector_set_block (inspector, integrator);
  g_assert_null (qd_inspector_get_error (inspector, "x0"));

  qd_document_set_variable (document, "k", NULL, &error);
  g_assert_no_error (error);
  message = qd_inspector_get_error (inspector, "x0");
  g_assert_nonnull (message);
  g_assert_nonnull (strstr (message, "'k'"));
  g_assert_cmpstr (entry_text (inspector, "x0"), ==, "3*k");

  qd_document_undo (document);
  g_assert_null (qd_inspector_get_error (inspector, "x0"));

  /* Several blocks selected: nothing to edit, and no stale fields. */
  {
    g_autoptr(GPtrArray) blocks = g_ptr_array_new ();

    g_ptr_array_add (blocks, integrator);
    g_ptr_array_add (blocks, qd_test_add_block_at (document, "gain", "Gain", 0, 100));
    qd_inspector_set_selection (inspector, blocks);
    g_assert_cmpuint (qd_inspector_get_n_fields (inspector), ==, 0);
    g_assert_null (qd_inspector_get_block (inspector));
  }
}

/* The model form's solver: the family from a drop-down, a classic
 * solver's options checked as they are typed and by the document. */
static void
test_model_solver (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GtkWidget) widget = new_inspector (document);
  QdInspector *inspector = QD_INSPECTOR (widget);
  GtkWidget *solver = qd_inspector_get_field (inspector, "solver");
  GListModel *items = gtk_drop_down_get_model (GTK_DROP_DOWN (solver));
  guint bdf = G_MAXUINT, rk4 = G_MAXUINT;

  g_assert_cmpstr (gtk_string_list_get_string (GTK_STRING_LIST (items),
                                               gtk_drop_down_get_selected (GTK_DROP_DOWN (solver))),
                   ==, "qss");
  for (guint i = 0; i < g_list_model_get_n_items (items); i++)
    {
      const char *name = gtk_string_list_get_string (GTK_STRING_LIST (items), i);

      if (strcmp (name, "cvode-bdf") == 0)
        bdf = i;
      if (strcmp (name, "rk4") == 0)
        rk4 = i;
    }
  g_assert_cmpuint (bdf, !=, G_MAXUINT);
  g_assert_cmpuint (rk4, !=, G_MAXUINT);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (solver), bdf);
  g_assert_cmpstr (qd_document_get_settings (document)->solver, ==, "cvode-bdf");

  type_and_enter (inspector, "rtol", "1e-9");
  g_assert_cmpfloat (qd_document_get_settings (document)->rtol, ==, 1e-9);
  type_and_enter (inspector, "atol", "0");
  g_assert_cmpstr (qd_inspector_get_error (inspector, "atol"), ==,
                   "a tolerance must be above 0, e.g. 1e-6");
  g_assert_cmpfloat (qd_document_get_settings (document)->atol, ==, 1e-8);
  /* The document refuses a fixed step for CVODE, and says why. */
  type_and_enter (inspector, "h", "0.01");
  g_assert_nonnull (strstr (qd_inspector_get_error (inspector, "h"),
                            "is always adaptive"));
  g_assert_cmpfloat (qd_document_get_settings (document)->h, ==, 0.0);

  /* RK4 needs its step first. */
  type_and_enter (inspector, "h", "");
  solver = qd_inspector_get_field (inspector, "solver");
  type_and_enter (inspector, "h", "0");
  gtk_drop_down_set_selected (GTK_DROP_DOWN (solver), rk4);
  g_assert_cmpstr (qd_document_get_settings (document)->solver, ==, "cvode-bdf");
  qd_document_undo (document);
  g_assert_cmpfloat (qd_document_get_settings (document)->rtol, ==, 1e-6);
}

/* With nothing selected, the model: title, variables, settings. */
static void
test_model_form (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GtkWidget) widget = new_inspector (document);
  QdInspector *inspector = QD_INSPECTOR (widget);
  g_autoptr(GError) error = NULL;
  GPtrArray *variables;
  double final_time = qd_document_get_settings (document)->final_time;
  g_autofree char *final_text = NULL;

  g_assert_null (qd_inspector_get_block (inspector));
  type_and_enter (inspector, "title", "Decay");
  g_assert_cmpstr (qd_document_get_title (document), ==, "Decay");

  /* Settings: applied, refused with the reason, undone. */
  type_and_enter (inspector, "final_time", "20");
  g_assert_cmpfloat (qd_document_get_settings (document)->final_time, ==, 20.0);
  type_and_enter (inspector, "final_time", "2*");
  g_assert_nonnull (qd_inspector_get_error (inspector, "final_time"));
  g_assert_cmpfloat (qd_document_get_settings (document)->final_time, ==, 20.0);
  qd_document_undo (document);
  g_assert_cmpfloat (qd_document_get_settings (document)->final_time, ==, final_time);
  final_text = g_strdup_printf ("%g", final_time);
  g_assert_cmpstr (entry_text (inspector, "final_time"), ==, final_text);
  g_assert_null (qd_inspector_get_error (inspector, "final_time"));
  type_and_enter (inspector, "illegitimacy_limit", "2.5");
  g_assert_nonnull (qd_inspector_get_error (inspector, "illegitimacy_limit"));
  type_and_enter (inspector, "illegitimacy_limit", "5000");
  g_assert_cmpuint (qd_document_get_settings (document)->illegitimacy_limit, ==, 5000);

  /* Variables: the form grows a row for each, checks values against the
   * variables before them, and renames in place. */
  qd_document_set_variable (document, "a", "1", &error);
  g_assert_no_error (error);
  qd_document_set_variable (document, "c", "a*2", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (entry_text (inspector, "var:c"), ==, "a*2");
  type_and_enter (inspector, "var:a", "c + 1");
  g_assert_nonnull (qd_inspector_get_error (inspector, "var:a"));
  g_assert_cmpstr (qd_document_get_variable (document, "a"), ==, "1");
  type_and_enter (inspector, "var:a", "3");
  g_assert_cmpstr (qd_document_get_variable (document, "a"), ==, "3");

  type_and_enter (inspector, "varname:a", "2x");
  g_assert_nonnull (qd_inspector_get_error (inspector, "varname:a"));
  type_and_enter (inspector, "varname:a", "b");
  variables = qd_document_get_variables (document);
  g_assert_cmpuint (variables->len, ==, 2);
  g_assert_cmpstr (((QdVariable *) g_ptr_array_index (variables, 0))->name, ==, "b");
  g_assert_cmpstr (((QdVariable *) g_ptr_array_index (variables, 0))->value, ==, "3");
  g_assert_cmpstr (((QdVariable *) g_ptr_array_index (variables, 1))->name, ==, "c");
  g_assert_nonnull (qd_inspector_get_field (inspector, "var:b"));
  g_assert_null (qd_inspector_get_field (inspector, "var:a"));
  /* The rename is one step. */
  qd_document_undo (document);
  variables = qd_document_get_variables (document);
  g_assert_cmpstr (((QdVariable *) g_ptr_array_index (variables, 0))->name, ==, "a");
  g_assert_nonnull (qd_inspector_get_field (inspector, "var:a"));
}

/* A new variable renamed and left with Tab, Up or Down: the rename
 * applies as the focus leaves the field, which reshapes the form while
 * GTK moves the focus into it. The move ends on a live widget (no
 * CRITICAL, which the test makes fatal) and the renamed variable's value
 * gets the keyboard. */
static void
test_rename_variable_move_focus (void)
{
  static const GtkDirectionType moves[] = { GTK_DIR_TAB_FORWARD, GTK_DIR_UP, GTK_DIR_DOWN };
  static const char *const names[] = { "speed", "mass", "gain" };
  g_autoptr(QdDocument) document = qd_document_new ();
  GtkWidget *inspector = new_inspector (document);
  GtkWidget *window = gtk_window_new ();

  gtk_window_set_default_size (GTK_WINDOW (window), 300, 600);
  gtk_window_set_child (GTK_WINDOW (window), inspector);
  gtk_window_present (GTK_WINDOW (window));
  qd_test_flush_events ();

  for (guint i = 0; i < G_N_ELEMENTS (moves); i++)
    {
      g_autofree char *value_key = g_strconcat ("var:", names[i], NULL);
      GtkWidget *entry, *add = qd_test_find_button (inspector, _("_Add Variable"));
      GtkWidget *focus;

      /* Add Variable (clicked: it has the focus) puts the keyboard in the
       * new name ("k"). */
      g_assert_nonnull (add);
      gtk_widget_grab_focus (add);
      g_signal_emit_by_name (add, "clicked");
      qd_test_flush_events ();
      entry = qd_inspector_get_field (QD_INSPECTOR (inspector), "varname:k");
      g_assert_nonnull (entry);
      g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), entry));

      gtk_editable_set_text (GTK_EDITABLE (entry), names[i]);
      g_signal_emit_by_name (window, "move-focus", moves[i]);
      qd_test_flush_events ();

      g_assert_nonnull (qd_document_get_variable (document, names[i]));
      g_assert_null (qd_document_get_variable (document, "k"));
      g_assert_cmpuint (qd_document_get_variables (document)->len, ==, i + 1);
      focus = gtk_root_get_focus (GTK_ROOT (window));
      g_assert_nonnull (focus);
      g_assert_true (gtk_widget_is_ancestor (focus, qd_inspector_get_field (QD_INSPECTOR (inspector),
                                                                            value_key)));
    }

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (inspector);
}

/* The panel lists the problems; activating one selects the block, in
 * its subsystem if it is nested. */
static GtkWidget *
find_named (GtkWidget  *widget,
            const char *name)
{
  if (g_strcmp0 (gtk_widget_get_name (widget), name) == 0)
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_named (child, name);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* The text of the first visible error label in the form, or NULL. */
static const char *
shown_error (GtkWidget *widget)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_has_css_class (widget, "error") &&
      gtk_widget_get_visible (widget))
    return gtk_label_get_text (GTK_LABEL (widget));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      const char *text = shown_error (child);

      if (text != NULL)
        return text;
    }
  return NULL;
}

/* A subsystem shows the ports its Inport and Outport blocks make, in
 * port order, and says when two share a number; the list follows edits
 * made inside. */
static void
test_subsystem_ports (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GError) error = NULL;
  GtkWidget *inspector = new_inspector (document);
  QdBlock *plant, *in3, *in1, *extra;

  plant = qd_test_add_block_at (document, QD_TYPE_SUBSYSTEM, "Plant", 0, 0);
  in3 = qd_document_add_block (document, plant->inner, QD_TYPE_INPORT, "Load", 0, 0, &error);
  g_assert_no_error (error);
  qd_test_set_param (document, in3, "port", "3");
  in1 = qd_document_add_block (document, plant->inner, QD_TYPE_INPORT, "Force", 0, 50, &error);
  g_assert_no_error (error);
  qd_test_set_param (document, in1, "port", "1");

  qd_inspector_set_block (QD_INSPECTOR (inspector), plant);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (find_named (inspector, QD_TYPE_INPORT))),
                   ==, "1 Force, 3 Load");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (find_named (inspector, QD_TYPE_OUTPORT))),
                   ==, _("none"));
  g_assert_null (shown_error (inspector));

  /* A new Inport takes the first free number, 2; renumbered 1, it
   * collides with Force. */
  extra = qd_document_add_block (document, plant->inner, QD_TYPE_INPORT, "Inport", 0, 100, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (find_named (inspector, QD_TYPE_INPORT))),
                   ==, "1 Force, 2 Inport, 3 Load");
  qd_test_set_param (document, extra, "port", "1");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (find_named (inspector, QD_TYPE_INPORT))),
                   ==, "1 Force, 1 Inport, 3 Load");
  g_assert_cmpstr (shown_error (inspector), ==,
                   "Two Inports are numbered 1: give each input its own number");

  qd_test_set_param (document, extra, "port", "2");
  g_assert_cmpstr (gtk_label_get_text (GTK_LABEL (find_named (inspector, QD_TYPE_INPORT))),
                   ==, "1 Force, 2 Inport, 3 Load");
  g_assert_null (shown_error (inspector));

  g_object_unref (inspector);
}

/* A field reached from the canvas (Properties, Rename, a double-click)
 * gets the keyboard with its text selected, and comes into view even at
 * the bottom of the model's long form. */
static void
test_focus_field (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  GtkWidget *inspector = new_inspector (document);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *scroller, *field, *focus;
  GtkAdjustment *adjustment;
  QdBlock *gain;

  gtk_window_set_default_size (GTK_WINDOW (window), 300, 200);
  gtk_window_set_child (GTK_WINDOW (window), inspector);
  gtk_window_present (GTK_WINDOW (window));
  qd_test_flush_events ();
  scroller = gtk_widget_get_first_child (inspector);
  g_assert_true (GTK_IS_SCROLLED_WINDOW (scroller));
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scroller));
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), ==, 0.0);

  /* The model: NULL is its title; the last setting scrolls down to it. */
  g_assert_true (qd_inspector_focus_field (QD_INSPECTOR (inspector), NULL));
  focus = gtk_root_get_focus (GTK_ROOT (window));
  g_assert_true (gtk_widget_is_ancestor (focus, qd_inspector_get_field (QD_INSPECTOR (inspector), "title")));
  g_assert_true (qd_inspector_focus_field (QD_INSPECTOR (inspector), "illegitimacy_limit"));
  field = qd_inspector_get_field (QD_INSPECTOR (inspector), "illegitimacy_limit");
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), field));
  g_assert_cmpfloat (gtk_adjustment_get_value (adjustment), >, 0.0);
  g_assert_false (qd_inspector_focus_field (QD_INSPECTOR (inspector), "no-such-field"));

  /* A block: NULL is its first parameter, with the text selected so
   * that typing replaces it. */
  gain = qd_test_add_block_at (document, "gain", "Gain", 0, 0);
  qd_test_set_param (document, gain, "k", "2.5");
  qd_inspector_set_block (QD_INSPECTOR (inspector), gain);
  qd_test_flush_events ();
  g_assert_true (qd_inspector_focus_field (QD_INSPECTOR (inspector), NULL));
  field = qd_inspector_get_field (QD_INSPECTOR (inspector), "k");
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)), field));
  {
    int start = -1, end = -1;

    g_assert_true (gtk_editable_get_selection_bounds (GTK_EDITABLE (field), &start, &end));
    g_assert_cmpint (start, ==, 0);
    g_assert_cmpint (end, ==, 3);
  }

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (inspector);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data_dir = NULL;
  int status;

  /* The recent files list lives in the data folder: use a scratch one. */
  data_dir = g_dir_make_tmp ("qd-test-inspector-XXXXXX", NULL);
  g_setenv ("XDG_DATA_HOME", data_dir, TRUE);
  if (!qd_test_gtk_init (&argc, &argv, FALSE))
    return 0;

  app = qd_application_new (G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  g_test_add_func ("/inspector/block-form", test_block_form_widgets);
  g_test_add_func ("/inspector/invalid-value", test_invalid_value);
  g_test_add_func ("/inspector/vector-params", test_vector_params);
  g_test_add_func ("/inspector/mask-fields", test_mask_fields);
  g_test_add_func ("/inspector/mask-dialog", test_mask_dialog);
  g_test_add_func ("/inspector/valid-change", test_valid_change);
  g_test_add_func ("/inspector/inherit", test_inherit);
  g_test_add_func ("/inspector/field-undo", test_field_undo);
  g_test_add_func ("/inspector/function-names", test_function_names);
  g_test_add_func ("/inspector/links-removed-notice", test_links_removed_notice);
  g_test_add_func ("/inspector/weights-follow-inputs", test_weights_follow_inputs);
  g_test_add_func ("/inspector/document-errors", test_document_errors);
  g_test_add_func ("/inspector/model-form", test_model_form);
  g_test_add_func ("/inspector/model-solver", test_model_solver);
  g_test_add_func ("/inspector/focus-field", test_focus_field);
  g_test_add_func ("/inspector/rename-variable-move-focus", test_rename_variable_move_focus);
  g_test_add_func ("/inspector/subsystem-ports", test_subsystem_ports);

  status = g_test_run ();
  g_clear_object (&app);
  return status;
}

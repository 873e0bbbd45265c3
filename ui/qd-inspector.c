/* qd-inspector.c: the editor's inspector panel
 *
 * The form is generated from the block type's parameter schema (or, for
 * the model, from the settings and the variables) into one GtkGrid. Each
 * field remembers what it edits; its text is checked on every keystroke
 * (the schema, then a trial evaluation against the model variables) and
 * applied on Enter or focus-out through one document command, so each
 * change is one undo step.
 *
 * The document may change under the form (undo, the canvas, another
 * field): when the shape of the form is the same (the same block, the
 * same variables) the values are refreshed in place, otherwise the form
 * is rebuilt. A rebuild may happen while a field's own handler runs (a
 * renamed variable), so a field's data lives on its widget and a field
 * that has been taken out of the form is marked dead and ignores events.
 *
 * This file holds the panel itself: the document and the block it shows,
 * the rebuild or refresh of the form, focus, size and the public calls.
 * How a field's text is checked and applied is in qd-inspector-check.c,
 * how the form is built and its fields' events in qd-inspector-form.c;
 * qd-inspector-private.h lists what they share.
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qd-inspector-private.h"
#include "qd-script-editor.h"

G_DEFINE_FINAL_TYPE (QdInspector, qd_inspector, GTK_TYPE_WIDGET)

guint qd_inspector_signals[N_SIGNALS];

static void refresh (QdInspector *self);

QdBlock *
qd_inspector_current_block (QdInspector *self)
{
  if (self->document == NULL || self->block_id == NULL)
    return NULL;
  return qd_document_find_block (self->document, self->block_id);
}

/* Numbers as people write them, yet exact: the shortest of %.15g and
 * %.17g that reads back to the same double. */
char *
qd_inspector_format_double (double value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  g_ascii_formatd (buffer, sizeof buffer, "%.15g", value);
  if (g_ascii_strtod (buffer, NULL) != value)
    g_ascii_formatd (buffer, sizeof buffer, "%.17g", value);
  return g_strdup (buffer);
}

/* A text that changes exactly when the form must be rebuilt. */
static char *
compute_shape (QdInspector *self)
{
  GString *shape = g_string_new (NULL);
  QdBlock *block;

  if (self->document == NULL)
    return g_string_free (shape, FALSE);
  if (self->n_selected > 1)
    {
      g_string_printf (shape, "multi:%u", self->n_selected);
      return g_string_free (shape, FALSE);
    }
  block = qd_inspector_current_block (self);
  if (block != NULL)
    g_string_printf (shape, "block:%s:%s", block->id, block->type);
  /* A subsystem's form lists its mask's parameters and its ports: it
   * follows them. */
  if (qd_block_get_mask (block) != NULL)
    {
      const QdMask *mask = qd_block_get_mask (block);

      for (guint i = 0; i < mask->params->len; i++)
        {
          const QdMaskParam *param = g_ptr_array_index (mask->params, i);

          g_string_append_printf (shape, "|mask:%s=%s:%s", param->name,
                                  param->default_value, param->description);
        }
    }
  if (block != NULL && block->inner != NULL)
    for (guint k = 0; k < 2; k++)
      {
        g_autofree char *duplicate = NULL;
        g_autofree char *summary = qd_inspector_dup_port_summary (block, k == 0 ? QD_TYPE_INPORT
                                                                                : QD_TYPE_OUTPORT,
                                                                  &duplicate);

        g_string_append_printf (shape, "|%s|%s", summary != NULL ? summary : "",
                                duplicate != NULL ? duplicate : "");
      }
  else
    {
      GPtrArray *variables = qd_document_get_variables (self->document);

      g_string_append (shape, "model");
      for (guint i = 0; variables != NULL && i < variables->len; i++)
        {
          const QdVariable *variable = g_ptr_array_index (variables, i);

          g_string_append_printf (shape, ":%s", variable->name);
        }
    }
  return g_string_free (shape, FALSE);
}

static gboolean
restore_focus (gpointer data)
{
  QdInspector *self = data;
  g_autofree char *key = g_steal_pointer (&self->focus_key);
  Field *field = key != NULL ? g_hash_table_lookup (self->fields, key) : NULL;

  if (field != NULL)
    gtk_widget_grab_focus (field->editor);
  return G_SOURCE_REMOVE;
}

void
qd_inspector_rebuild (QdInspector *self)
{
  QdBlock *block = qd_inspector_current_block (self);
  g_autofree char *focus_key = g_steal_pointer (&self->focus_key);
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  g_clear_handle_id (&self->rebuild_id, g_source_remove);

  /* The field being edited keeps the focus across a rebuild. */
  for (guint i = 0; focus_key == NULL && focus != NULL && i < self->order->len; i++)
    {
      Field *field = g_ptr_array_index (self->order, i);

      if (focus == field->editor || gtk_widget_is_ancestor (focus, field->editor))
        focus_key = g_strdup (field->key);
    }

  qd_inspector_form_clear (self);
  g_free (self->shape);
  self->shape = compute_shape (self);

  if (self->document == NULL)
    {
      gtk_label_set_text (self->heading, _("No Diagram"));
      gtk_label_set_text (self->doc_label, _("Open a diagram to inspect it."));
      return;
    }
  if (self->n_selected > 1)
    {
      g_autofree char *text = g_strdup_printf (ngettext ("%u Block Selected",
                                                         "%u Blocks Selected",
                                                         self->n_selected),
                                               self->n_selected);

      gtk_label_set_text (self->heading, text);
      gtk_label_set_text (self->doc_label,
                          _("Select a single block to edit its parameters, or "
                            "none to edit the model."));
      return;
    }
  if (block != NULL)
    qd_inspector_build_block_form (self, block);
  else
    qd_inspector_build_model_form (self);
  refresh (self);

  if (focus_key != NULL && g_hash_table_contains (self->fields, focus_key))
    {
      /* Later: a rebuild from a focus change (Tab out of a renamed
       * variable) would otherwise be undone by the rest of that change. */
      self->focus_key = g_steal_pointer (&focus_key);
      g_idle_add_full (G_PRIORITY_HIGH_IDLE, restore_focus, g_object_ref (self),
                       g_object_unref);
    }
}

/* Sets every field from the document, except one being typed into. */
static void
refresh (QdInspector *self)
{
  self->refreshing = TRUE;
  for (guint i = 0; i < self->order->len; i++)
    {
      Field *field = g_ptr_array_index (self->order, i);
      g_autofree char *text = NULL;

      if (field->dirty && gtk_widget_has_focus (field->editor))
        continue;
      text = qd_inspector_field_document_text (field);
      qd_inspector_field_set_text (field, text);
      field->dirty = FALSE;
      qd_inspector_update_placeholder (field);
      /* What the document holds may be wrong too (a variable it used was
       * removed, a file written by hand): say so where it shows. */
      {
        g_autoptr(GError) error = NULL;

        if (((text != NULL && text[0] != '\0') || field->summary != NULL)
            && field->kind == WIDGET_ENTRY
            && !qd_inspector_field_check (field, text != NULL ? text : "", &error))
          qd_inspector_field_show_error (field, error->message);
        else
          qd_inspector_field_show_error (field, NULL);
      }
    }
  self->refreshing = FALSE;
}

static gboolean
rebuild_later (gpointer data)
{
  QdInspector *self = data;
  g_autofree char *shape = compute_shape (self);

  self->rebuild_id = 0;
  if (g_strcmp0 (shape, self->shape) != 0)
    qd_inspector_rebuild (self);
  return G_SOURCE_REMOVE;
}

static void
on_document_changed (QdDocument  *document,
                     QdInspector *self)
{
  g_autofree char *shape = NULL;

  /* The block may have gone (deleted, or an undo of its creation). */
  if (self->block_id != NULL && qd_inspector_current_block (self) == NULL)
    g_clear_pointer (&self->block_id, g_free);

  shape = compute_shape (self);
  if (g_strcmp0 (shape, self->shape) == 0)
    refresh (self);
  else if (!self->focus_moving)
    qd_inspector_rebuild (self);
  else if (self->rebuild_id == 0)
    /* Before any input, yet after GTK has finished moving the focus. */
    self->rebuild_id = g_idle_add_full (G_PRIORITY_HIGH_IDLE, rebuild_later,
                                        self, NULL);
}

/* The panel asks for the same width whatever it shows (unless a form
 * cannot fit), so that the canvas beside it does not jump when the
 * selection changes. */
#define NATURAL_WIDTH 290

static void
qd_inspector_measure (GtkWidget      *widget,
                      GtkOrientation  orientation,
                      int             for_size,
                      int            *minimum,
                      int            *natural,
                      int            *minimum_baseline,
                      int            *natural_baseline)
{
  QdInspector *self = QD_INSPECTOR (widget);

  gtk_widget_measure (self->scroller, orientation, for_size,
                      minimum, natural, NULL, NULL);
  /* The paned beside gives the panel its minimum: make that the width. */
  if (orientation == GTK_ORIENTATION_HORIZONTAL)
    {
      *minimum = MAX (*minimum, NATURAL_WIDTH);
      *natural = *minimum;
    }
}

static void
qd_inspector_size_allocate (GtkWidget *widget,
                            int        width,
                            int        height,
                            int        baseline)
{
  QdInspector *self = QD_INSPECTOR (widget);

  gtk_widget_allocate (self->scroller, width, height, baseline, NULL);
}

static void
qd_inspector_dispose (GObject *object)
{
  QdInspector *self = QD_INSPECTOR (object);

  g_clear_handle_id (&self->rebuild_id, g_source_remove);
  if (self->document != NULL)
    g_clear_signal_handler (&self->changed_id, self->document);
  g_clear_object (&self->document);
  if (self->order != NULL)
    for (guint i = 0; i < self->order->len; i++)
      ((Field *) g_ptr_array_index (self->order, i))->dead = TRUE;
  g_clear_weak_pointer (&self->extra);
  gtk_widget_dispose_template (GTK_WIDGET (self), QD_TYPE_INSPECTOR);

  G_OBJECT_CLASS (qd_inspector_parent_class)->dispose (object);
}

static void
qd_inspector_finalize (GObject *object)
{
  QdInspector *self = QD_INSPECTOR (object);

  g_free (self->block_id);
  g_free (self->shape);
  g_free (self->focus_key);
  g_hash_table_unref (self->fields);
  g_ptr_array_unref (self->order);

  G_OBJECT_CLASS (qd_inspector_parent_class)->finalize (object);
}

static void
qd_inspector_class_init (QdInspectorClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = qd_inspector_dispose;
  object_class->finalize = qd_inspector_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/qdevs/Qdevs/ui/qd-inspector.ui");
  gtk_widget_class_bind_template_child (widget_class, QdInspector, scroller);
  gtk_widget_class_bind_template_child (widget_class, QdInspector, heading);
  gtk_widget_class_bind_template_child (widget_class, QdInspector, doc_label);
  gtk_widget_class_bind_template_child (widget_class, QdInspector, form);
  widget_class->measure = qd_inspector_measure;
  widget_class->size_allocate = qd_inspector_size_allocate;
  gtk_widget_class_set_css_name (widget_class, "qd-inspector");

  /**
   * QdInspector::notice:
   * @text: a sentence for the user
   *
   * An edit did more than its field shows (a port count lowered removed
   * links); the window shows @text in its message bar.
   */
  qd_inspector_signals[NOTICE] = g_signal_new ("notice", G_TYPE_FROM_CLASS (klass),
                                  G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                  G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
qd_inspector_init (QdInspector *self)
{
  self->fields = g_hash_table_new (g_str_hash, g_str_equal);
  self->order = g_ptr_array_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
  qd_inspector_rebuild (self);
}

GtkWidget *
qd_inspector_new (void)
{
  return g_object_new (QD_TYPE_INSPECTOR, NULL);
}

void
qd_inspector_set_document (QdInspector *self,
                           QdDocument  *document)
{
  g_return_if_fail (QD_IS_INSPECTOR (self));
  g_return_if_fail (document == NULL || QD_IS_DOCUMENT (document));

  if (self->document == document)
    return;
  if (self->document != NULL)
    g_clear_signal_handler (&self->changed_id, self->document);
  g_set_object (&self->document, document);
  if (document != NULL)
    self->changed_id = g_signal_connect (document, "changed",
                                         G_CALLBACK (on_document_changed), self);
  g_clear_pointer (&self->block_id, g_free);
  self->n_selected = 0;
  qd_inspector_rebuild (self);
}

QdDocument *
qd_inspector_get_document (QdInspector *self)
{
  g_return_val_if_fail (QD_IS_INSPECTOR (self), NULL);

  return self->document;
}

void
qd_inspector_set_block (QdInspector *self,
                        QdBlock     *block)
{
  g_return_if_fail (QD_IS_INSPECTOR (self));

  if (block != NULL && block == qd_inspector_current_block (self) && self->n_selected <= 1)
    return;
  g_free (self->block_id);
  self->block_id = block != NULL ? g_strdup (block->id) : NULL;
  self->n_selected = block != NULL ? 1 : 0;
  qd_inspector_rebuild (self);
}

void
qd_inspector_set_selection (QdInspector *self,
                            GPtrArray   *blocks)
{
  guint n = blocks != NULL ? blocks->len : 0;

  g_return_if_fail (QD_IS_INSPECTOR (self));

  if (n <= 1)
    {
      qd_inspector_set_block (self, n == 1 ? g_ptr_array_index (blocks, 0) : NULL);
      return;
    }
  g_clear_pointer (&self->block_id, g_free);
  self->n_selected = n;
  qd_inspector_rebuild (self);
}

QdBlock *
qd_inspector_get_block (QdInspector *self)
{
  g_return_val_if_fail (QD_IS_INSPECTOR (self), NULL);

  return qd_inspector_current_block (self);
}

GtkWidget *
qd_inspector_get_field (QdInspector *self,
                        const char  *key)
{
  Field *field;

  g_return_val_if_fail (QD_IS_INSPECTOR (self), NULL);

  field = g_hash_table_lookup (self->fields, key);
  return field != NULL ? field->editor : NULL;
}

const char *
qd_inspector_get_error (QdInspector *self,
                        const char  *key)
{
  Field *field;

  g_return_val_if_fail (QD_IS_INSPECTOR (self), NULL);

  field = g_hash_table_lookup (self->fields, key);
  if (field == NULL || !gtk_widget_get_visible (field->error_label))
    return NULL;
  return gtk_label_get_text (GTK_LABEL (field->error_label));
}

const char *
qd_inspector_get_summary (QdInspector *self,
                          const char  *key)
{
  Field *field;

  g_return_val_if_fail (QD_IS_INSPECTOR (self), NULL);

  field = g_hash_table_lookup (self->fields, key);
  if (field == NULL || field->summary == NULL
      || !gtk_widget_get_visible (field->summary))
    return NULL;
  return gtk_label_get_text (GTK_LABEL (field->summary));
}

guint
qd_inspector_get_n_fields (QdInspector *self)
{
  g_return_val_if_fail (QD_IS_INSPECTOR (self), 0);

  return self->order->len;
}

/* The model's form is taller than most panels: a field reached from the
 * canvas must be seen, not only focused. */
static void
scroll_to_field (QdInspector *self,
                 Field       *field)
{
  GtkAdjustment *adjustment;
  GtkWidget *content = gtk_widget_get_parent (GTK_WIDGET (self->form));
  graphene_rect_t bounds;
  double top, bottom, value, page;

  if (content == NULL || !gtk_widget_compute_bounds (field->container, content, &bounds))
    return;
  adjustment = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (self->scroller));
  value = gtk_adjustment_get_value (adjustment);
  page = gtk_adjustment_get_page_size (adjustment);
  top = bounds.origin.y;
  bottom = top + bounds.size.height;
  if (top < value)
    gtk_adjustment_set_value (adjustment, top);
  else if (bottom > value + page)
    gtk_adjustment_set_value (adjustment, bottom - page);
}

gboolean
qd_inspector_focus_field (QdInspector *self,
                          const char  *key)
{
  Field *field = NULL;

  g_return_val_if_fail (QD_IS_INSPECTOR (self), FALSE);

  if (key != NULL)
    field = g_hash_table_lookup (self->fields, key);
  else if (self->order->len > 0)
    {
      /* A block's name comes first, but what one opens a block for is
       * its parameters, as a double-click in other block-diagram tools
       * opens the parameter dialog. */
      field = g_ptr_array_index (self->order, 0);
      if (field->role == ROLE_NAME && self->order->len > 1)
        field = g_ptr_array_index (self->order, 1);
    }
  if (field == NULL || !gtk_widget_grab_focus (field->editor))
    return FALSE;
  if (GTK_IS_EDITABLE (field->editor))
    gtk_editable_select_region (GTK_EDITABLE (field->editor), 0, -1);
  scroll_to_field (self, field);
  return TRUE;
}

gboolean
qd_inspector_focus_script_line (QdInspector *self,
                                const char  *message)
{
  const char *at = message != NULL ? strstr (message, "script line ") : NULL;
  int line;

  g_return_val_if_fail (QD_IS_INSPECTOR (self), FALSE);

  if (at == NULL || (line = atoi (at + strlen ("script line "))) <= 0)
    return FALSE;
  for (guint i = 0; i < self->order->len; i++)
    {
      Field *field = g_ptr_array_index (self->order, i);

      if (!qd_inspector_field_is_script (field))
        continue;
      gtk_widget_grab_focus (field->editor);
      qd_script_editor_show_error (QD_SCRIPT_EDITOR (field->editor), line, at);
      scroll_to_field (self, field);
      return TRUE;
    }
  return FALSE;
}

void
qd_inspector_set_extra (QdInspector *self,
                        GtkWidget   *extra)
{
  GtkWidget *content;

  g_return_if_fail (QD_IS_INSPECTOR (self));
  g_return_if_fail (extra == NULL || GTK_IS_WIDGET (extra));

  content = gtk_widget_get_parent (GTK_WIDGET (self->form));
  if (self->extra == extra || content == NULL)
    return;
  if (self->extra != NULL)
    gtk_box_remove (GTK_BOX (content), self->extra);
  g_clear_weak_pointer (&self->extra);
  if (extra != NULL)
    {
      gtk_box_append (GTK_BOX (content), extra);
      g_set_weak_pointer (&self->extra, extra);
    }
}

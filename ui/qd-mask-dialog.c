/* qd-mask-dialog.c: the Edit Mask window of a subsystem */
#include <glib/gi18n-lib.h>
#include <string.h>

#include "qd-mask-dialog.h"
#include "qd-test-geometry.h"

/* One parameter's row of entries. */
typedef struct
{
  GtkWidget *name;
  GtkWidget *default_value;
  GtkWidget *description;
  GtkWidget *remove;
  char      *old_name;   /* the name it had in the mask, or NULL */
  gboolean   removed;
} Row;

struct _QdMaskDialog
{
  GtkWindow   parent_instance;

  QdDocument *document;
  QdBlock    *block;
  GtkWidget  *icon_view;
  GtkWidget  *grid;
  GtkWidget  *error_label;
  GPtrArray  *rows;        /* Row* */
  int         next_row;
};

G_DEFINE_FINAL_TYPE (QdMaskDialog, qd_mask_dialog, GTK_TYPE_WINDOW)

static void
row_free (Row *row)
{
  g_free (row->old_name);
  g_free (row);
}

static void
on_remove_row (GtkButton *button,
               Row       *row)
{
  GtkWidget *grid = gtk_widget_get_parent (row->name);

  row->removed = TRUE;
  gtk_grid_remove (GTK_GRID (grid), row->name);
  gtk_grid_remove (GTK_GRID (grid), row->default_value);
  gtk_grid_remove (GTK_GRID (grid), row->description);
  gtk_grid_remove (GTK_GRID (grid), row->remove);
}

static GtkWidget *
new_entry (const char *text,
           const char *label,
           int         width)
{
  GtkWidget *entry = gtk_entry_new ();

  gtk_editable_set_text (GTK_EDITABLE (entry), text != NULL ? text : "");
  gtk_editable_set_width_chars (GTK_EDITABLE (entry), width);
  /* Enter applies, as in any dialog. */
  gtk_entry_set_activates_default (GTK_ENTRY (entry), TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (entry),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, label, -1);
  return entry;
}

static Row *
add_row (QdMaskDialog      *self,
         const QdMaskParam *param)
{
  Row *row = g_new0 (Row, 1);
  int y = self->next_row++;
  g_autofree char *name_key = g_strdup_printf ("mask-name:%d", y);
  g_autofree char *default_key = g_strdup_printf ("mask-default:%d", y);

  row->name = new_entry (param != NULL ? param->name : NULL, _("Name"), 8);
  row->default_value = new_entry (param != NULL ? param->default_value : "1",
                                  _("Default"), 8);
  row->description = new_entry (param != NULL ? param->description : NULL,
                                _("Description"), 18);
  gtk_widget_set_hexpand (row->description, TRUE);
  /* Names for the end-to-end tests (qd-test-geometry.h), by row. */
  gtk_widget_set_name (row->name, name_key);
  gtk_widget_set_name (row->default_value, default_key);
  row->remove = gtk_button_new_from_icon_name ("list-remove-symbolic");
  gtk_widget_set_tooltip_text (row->remove, _("Remove this parameter"));
  row->old_name = param != NULL ? g_strdup (param->name) : NULL;
  g_signal_connect (row->remove, "clicked", G_CALLBACK (on_remove_row), row);
  gtk_grid_attach (GTK_GRID (self->grid), row->name, 0, y, 1, 1);
  gtk_grid_attach (GTK_GRID (self->grid), row->default_value, 1, y, 1, 1);
  gtk_grid_attach (GTK_GRID (self->grid), row->description, 2, y, 1, 1);
  gtk_grid_attach (GTK_GRID (self->grid), row->remove, 3, y, 1, 1);
  g_ptr_array_add (self->rows, row);
  return row;
}

static void
on_add_clicked (GtkButton    *button,
                QdMaskDialog *self)
{
  Row *row = add_row (self, NULL);

  gtk_widget_grab_focus (row->name);
}

/* The mask the window describes: the values of parameters that keep
 * their names (or are renamed in their row) carried over. */
static QdMask *
dup_mask (QdMaskDialog *self)
{
  const QdMask *old = qd_block_get_mask (self->block);
  QdMask *mask = qd_mask_new ();
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->icon_view));
  GtkTextIter start, end;
  g_autofree char *icon = NULL;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  icon = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  mask->icon = icon[0] != '\0' ? g_steal_pointer (&icon) : NULL;
  for (guint i = 0; i < self->rows->len; i++)
    {
      Row *row = g_ptr_array_index (self->rows, i);
      g_autofree char *name = NULL;
      g_autofree char *blank = NULL;
      const char *def = gtk_editable_get_text (GTK_EDITABLE (row->default_value));
      const QdMaskParam *was;
      QdMaskParam *param;

      if (row->removed)
        continue;
      name = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (row->name))));
      /* A row left empty is no parameter. */
      blank = g_strstrip (g_strdup (def));
      if (name[0] == '\0' && blank[0] == '\0')
        continue;
      param = qd_mask_add_param (mask, name, def[0] != '\0' ? def : "0",
                                 gtk_editable_get_text (GTK_EDITABLE (row->description)));
      was = row->old_name != NULL ? qd_mask_find_param (old, row->old_name) : NULL;
      if (was != NULL)
        param->value = g_strdup (was->value);
    }
  return mask;
}

static void
show_error (QdMaskDialog *self,
            const char   *message)
{
  gtk_label_set_text (GTK_LABEL (self->error_label), message);
  gtk_widget_set_visible (self->error_label, TRUE);
}

static void
on_apply_clicked (GtkButton    *button,
                  QdMaskDialog *self)
{
  g_autoptr(GError) error = NULL;
  QdMask *mask = dup_mask (self);
  gboolean ok = qd_document_set_mask (self->document, self->block, mask, &error);

  qd_mask_free (mask);
  if (!ok)
    {
      show_error (self, error->message);
      return;
    }
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
on_remove_mask_clicked (GtkButton    *button,
                        QdMaskDialog *self)
{
  g_autoptr(GError) error = NULL;

  if (!qd_document_set_mask (self->document, self->block, NULL, &error))
    {
      show_error (self, error->message);
      return;
    }
  gtk_window_destroy (GTK_WINDOW (self));
}

static void
on_cancel_clicked (GtkButton    *button,
                   QdMaskDialog *self)
{
  gtk_window_destroy (GTK_WINDOW (self));
}

static GtkWidget *
new_heading (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_widget_add_css_class (label, "heading");
  return label;
}

static GtkWidget *
new_hint (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 60);
  gtk_widget_add_css_class (label, "dim-label");
  return label;
}

static GtkWidget *
build_buttons (QdMaskDialog *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *remove = gtk_button_new_with_mnemonic (_("_Remove Mask"));
  GtkWidget *cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  GtkWidget *apply = gtk_button_new_with_mnemonic (_("_Apply"));
  GtkWidget *spacer = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 0);

  gtk_widget_set_hexpand (spacer, TRUE);
  gtk_widget_add_css_class (remove, "destructive-action");
  gtk_widget_add_css_class (apply, "suggested-action");
  gtk_widget_set_sensitive (remove, qd_block_get_mask (self->block) != NULL);
  g_signal_connect (remove, "clicked", G_CALLBACK (on_remove_mask_clicked), self);
  g_signal_connect (cancel, "clicked", G_CALLBACK (on_cancel_clicked), self);
  g_signal_connect (apply, "clicked", G_CALLBACK (on_apply_clicked), self);
  gtk_box_append (GTK_BOX (box), remove);
  gtk_box_append (GTK_BOX (box), spacer);
  gtk_box_append (GTK_BOX (box), cancel);
  gtk_box_append (GTK_BOX (box), apply);
  gtk_window_set_default_widget (GTK_WINDOW (self), apply);
  gtk_widget_set_name (apply, "mask-apply");
  return box;
}

static void
build (QdMaskDialog *self)
{
  const QdMask *mask = qd_block_get_mask (self->block);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  GtkWidget *frame = gtk_frame_new (NULL);
  GtkWidget *add = gtk_button_new_with_mnemonic (_("_Add Parameter"));
  const char *headers[] = { N_("Name"), N_("Default"), N_("Description") };

  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);

  gtk_box_append (GTK_BOX (box), new_heading (_("Icon text")));
  self->icon_view = gtk_text_view_new ();
  gtk_text_view_set_top_margin (GTK_TEXT_VIEW (self->icon_view), 4);
  gtk_text_view_set_left_margin (GTK_TEXT_VIEW (self->icon_view), 4);
  gtk_widget_set_size_request (self->icon_view, -1, 54);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->icon_view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Icon text"), -1);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (self->icon_view)),
                            mask != NULL && mask->icon != NULL ? mask->icon
                                                               : self->block->name, -1);
  gtk_frame_set_child (GTK_FRAME (frame), self->icon_view);
  gtk_box_append (GTK_BOX (box), frame);
  gtk_box_append (GTK_BOX (box),
                  new_hint (_("Drawn on the block in place of the subsystem look, "
                              "line by line; {name} shows the value of parameter "
                              "name.")));

  gtk_box_append (GTK_BOX (box), new_heading (_("Parameters")));
  gtk_box_append (GTK_BOX (box),
                  new_hint (_("The blocks inside may use these names in their "
                              "expressions; the subsystem's inspector sets their "
                              "values, over the model's variables.")));
  self->grid = gtk_grid_new ();
  gtk_grid_set_row_spacing (GTK_GRID (self->grid), 4);
  gtk_grid_set_column_spacing (GTK_GRID (self->grid), 6);
  for (guint k = 0; k < G_N_ELEMENTS (headers); k++)
    {
      GtkWidget *label = gtk_label_new (_(headers[k]));

      gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
      gtk_widget_add_css_class (label, "dim-label");
      gtk_grid_attach (GTK_GRID (self->grid), label, (int) k, 0, 1, 1);
    }
  self->next_row = 1;
  for (guint i = 0; mask != NULL && i < mask->params->len; i++)
    add_row (self, g_ptr_array_index (mask->params, i));
  if (mask == NULL || mask->params->len == 0)
    add_row (self, NULL);
  gtk_box_append (GTK_BOX (box), self->grid);
  gtk_widget_set_halign (add, GTK_ALIGN_START);
  gtk_widget_set_name (add, "mask-add");
  gtk_widget_set_name (self->icon_view, "mask-icon");
  g_signal_connect (add, "clicked", G_CALLBACK (on_add_clicked), self);
  gtk_box_append (GTK_BOX (box), add);

  self->error_label = gtk_label_new (NULL);
  gtk_label_set_xalign (GTK_LABEL (self->error_label), 0.0f);
  gtk_label_set_wrap (GTK_LABEL (self->error_label), TRUE);
  gtk_widget_add_css_class (self->error_label, "error");
  gtk_widget_set_visible (self->error_label, FALSE);
  gtk_box_append (GTK_BOX (box), self->error_label);
  gtk_box_append (GTK_BOX (box), build_buttons (self));
  gtk_window_set_child (GTK_WINDOW (self), box);
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                QdMaskDialog          *self)
{
  if (keyval != GDK_KEY_Escape)
    return FALSE;
  gtk_window_destroy (GTK_WINDOW (self));
  return TRUE;
}

static void
qd_mask_dialog_dispose (GObject *object)
{
  QdMaskDialog *self = QD_MASK_DIALOG (object);

  g_clear_object (&self->document);
  g_clear_pointer (&self->block, qd_block_unref);
  g_clear_pointer (&self->rows, g_ptr_array_unref);
  G_OBJECT_CLASS (qd_mask_dialog_parent_class)->dispose (object);
}

static void
qd_mask_dialog_class_init (QdMaskDialogClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = qd_mask_dialog_dispose;
}

static void
qd_mask_dialog_init (QdMaskDialog *self)
{
  GtkEventController *keys = gtk_event_controller_key_new ();

  self->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) row_free);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);
}

QdMaskDialog *
qd_mask_dialog_new (GtkWindow  *parent,
                    QdDocument *document,
                    QdBlock    *block)
{
  QdMaskDialog *self;
  g_autofree char *title = NULL;

  g_return_val_if_fail (QD_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (block != NULL && block->inner != NULL, NULL);

  self = g_object_new (QD_TYPE_MASK_DIALOG, NULL);
  self->document = g_object_ref (document);
  self->block = qd_block_ref (block);
  /* TRANSLATORS: the title of the Edit Mask window; %s is the subsystem */
  title = g_strdup_printf (_("Edit Mask — %s"), block->name);
  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_window_set_transient_for (GTK_WINDOW (self), parent);
  gtk_window_set_modal (GTK_WINDOW (self), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (self), 560, -1);
  build (self);
  qd_test_geometry_watch (GTK_WINDOW (self));
  return self;
}

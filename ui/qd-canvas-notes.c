/* qd-canvas-notes.c: editing a diagram's text notes from the canvas */
#include <glib/gi18n-lib.h>

#include <string.h>

#include "qd-canvas-geometry.h"
#include "qd-canvas-notes.h"
#include "qd-canvas-render.h"

typedef struct
{
  GtkWidget  *window;
  GtkWidget  *view;
  QdDocument *document;
  guint       index;
} NoteEditor;

static void
note_editor_free (NoteEditor *editor)
{
  g_clear_object (&editor->document);
  g_free (editor);
}

static void
on_save (GtkButton  *button,
         NoteEditor *editor)
{
  GtkTextBuffer *buffer = gtk_text_view_get_buffer (GTK_TEXT_VIEW (editor->view));
  GtkTextIter start, end;
  g_autofree char *text = NULL;

  gtk_text_buffer_get_bounds (buffer, &start, &end);
  text = gtk_text_buffer_get_text (buffer, &start, &end, FALSE);
  qd_document_set_note_text (editor->document, editor->index, text);
  gtk_window_destroy (GTK_WINDOW (editor->window));
}

void
qd_canvas_notes_edit (GtkWidget  *parent,
                      QdDocument *document,
                      guint       index)
{
  GPtrArray *notes = qd_document_get_notes (document);
  NoteEditor *editor;
  GtkWidget *box, *buttons, *save, *cancel, *scrolled;
  GtkRoot *root;

  if (index >= notes->len)
    return;
  editor = g_new0 (NoteEditor, 1);
  editor->document = g_object_ref (document);
  editor->index = index;
  editor->window = gtk_window_new ();
  gtk_window_set_title (GTK_WINDOW (editor->window), _("Edit Note"));
  gtk_window_set_modal (GTK_WINDOW (editor->window), TRUE);
  gtk_window_set_default_size (GTK_WINDOW (editor->window), 360, 200);
  root = parent != NULL ? gtk_widget_get_root (parent) : NULL;
  if (GTK_IS_WINDOW (root))
    gtk_window_set_transient_for (GTK_WINDOW (editor->window), GTK_WINDOW (root));
  gtk_window_set_destroy_with_parent (GTK_WINDOW (editor->window), TRUE);
  g_object_set_data_full (G_OBJECT (editor->window), "qd-note-editor", editor,
                          (GDestroyNotify) note_editor_free);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 12);
  editor->view = gtk_text_view_new ();
  gtk_text_view_set_wrap_mode (GTK_TEXT_VIEW (editor->view), GTK_WRAP_WORD_CHAR);
  gtk_text_buffer_set_text (gtk_text_view_get_buffer (GTK_TEXT_VIEW (editor->view)),
                            ((QdNote *) g_ptr_array_index (notes, index))->text, -1);
  scrolled = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scrolled), editor->view);
  gtk_widget_set_vexpand (scrolled, TRUE);
  gtk_box_append (GTK_BOX (box), scrolled);

  buttons = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_halign (buttons, GTK_ALIGN_END);
  cancel = gtk_button_new_with_mnemonic (_("_Cancel"));
  save = gtk_button_new_with_mnemonic (_("_Save"));
  gtk_widget_add_css_class (save, "suggested-action");
  g_signal_connect_swapped (cancel, "clicked", G_CALLBACK (gtk_window_destroy), editor->window);
  g_signal_connect (save, "clicked", G_CALLBACK (on_save), editor);
  gtk_box_append (GTK_BOX (buttons), cancel);
  gtk_box_append (GTK_BOX (buttons), save);
  gtk_box_append (GTK_BOX (box), buttons);
  gtk_window_set_child (GTK_WINDOW (editor->window), box);
  gtk_window_present (GTK_WINDOW (editor->window));
  gtk_widget_grab_focus (editor->view);
}

gboolean
qd_canvas_notes_drag_begin (QdNoteDrag *drag,
                            QdDocument *document,
                            GPtrArray  *notes,
                            double      x,
                            double      y)
{
  int index = notes != NULL ? qd_canvas_note_at (notes, x, y) : -1;
  const QdNote *note;

  memset (drag, 0, sizeof *drag);
  if (index < 0 || document == NULL)
    return FALSE;
  note = g_ptr_array_index (notes, index);
  drag->document = g_object_ref (document);
  drag->index = (guint) index;
  drag->x0 = note->x;
  drag->y0 = note->y;
  drag->press_x = x;
  drag->press_y = y;
  return TRUE;
}

void
qd_canvas_notes_drag_update (QdNoteDrag *drag,
                             double      x,
                             double      y)
{
  double nx, ny;

  if (drag->document == NULL)
    return;
  nx = qd_canvas_snap (drag->x0 + x - drag->press_x);
  ny = qd_canvas_snap (drag->y0 + y - drag->press_y);
  if (!drag->moved && nx == drag->x0 && ny == drag->y0)
    return;
  /* Each step is a command, as blocks are moved, all of one transaction
   * so that Undo puts the note back where the drag began. */
  if (!drag->moved)
    {
      qd_document_begin (drag->document, _("Move Note"));
      drag->moved = TRUE;
    }
  qd_document_move_note (drag->document, drag->index, nx, ny);
}

void
qd_canvas_notes_drag_end (QdNoteDrag *drag)
{
  if (drag->document == NULL)
    return;
  if (drag->moved)
    qd_document_end (drag->document);
  g_clear_object (&drag->document);
  drag->moved = FALSE;
}

/* qd-notes.c: text notes placed on a diagram */
#include <glib/gi18n-lib.h>

#include "qd-history.h"
#include "qd-notes.h"

/* Kept on the document object, as the debugger's breakpoints are: the
 * model's structures (and the compiler) know nothing of notes. */
#define NOTES_KEY "qd-notes"

QdNote *
qd_note_new (double      x,
             double      y,
             const char *text)
{
  QdNote *note = g_new0 (QdNote, 1);

  note->x = x;
  note->y = y;
  note->text = g_strdup (text != NULL ? text : "");
  return note;
}

QdNote *
qd_note_copy (const QdNote *note)
{
  return qd_note_new (note->x, note->y, note->text);
}

void
qd_note_free (QdNote *note)
{
  if (note == NULL)
    return;
  g_free (note->text);
  g_free (note);
}

GPtrArray *
qd_document_get_notes (QdDocument *document)
{
  GPtrArray *list;

  g_return_val_if_fail (QD_IS_DOCUMENT (document), NULL);

  list = g_object_get_data (G_OBJECT (document), NOTES_KEY);
  if (list == NULL)
    {
      list = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_note_free);
      g_object_set_data_full (G_OBJECT (document), NOTES_KEY, list,
                              (GDestroyNotify) g_ptr_array_unref);
    }
  return list;
}

void
qd_document_load_notes (QdDocument *document,
                        GPtrArray  *notes)
{
  GPtrArray *list;

  g_return_if_fail (QD_IS_DOCUMENT (document));

  list = qd_document_get_notes (document);
  g_ptr_array_set_size (list, 0);
  for (guint k = 0; notes != NULL && k < notes->len; k++)
    g_ptr_array_add (list, qd_note_copy (g_ptr_array_index (notes, k)));
}

/* One edit for the three changes: @before NULL inserts @after at
 * @index, @after NULL removes the note there, both replace it. Undo
 * swaps the two. */
typedef struct
{
  QdEdit  base;
  guint   index;
  QdNote *before;
  QdNote *after;
} NoteEdit;

static void
note_edit_apply (QdEdit   *base,
                 gpointer  target,
                 gboolean  undo)
{
  NoteEdit *edit = (NoteEdit *) base;
  GPtrArray *list = qd_document_get_notes (target);
  const QdNote *from = undo ? edit->after : edit->before;
  const QdNote *to = undo ? edit->before : edit->after;

  if (from == NULL)
    g_ptr_array_insert (list, (int) edit->index, qd_note_copy (to));
  else if (to == NULL)
    g_ptr_array_remove_index (list, edit->index);
  else
    {
      qd_note_free (g_ptr_array_index (list, edit->index));
      g_ptr_array_index (list, edit->index) = qd_note_copy (to);
    }
}

static void
note_edit_free (QdEdit *base)
{
  NoteEdit *edit = (NoteEdit *) base;

  qd_note_free (edit->before);
  qd_note_free (edit->after);
  g_free (edit);
}

static const QdEditClass note_edit_class = { note_edit_apply, note_edit_free };

static void
change (QdDocument *document,
        guint       index,
        QdNote     *before,
        QdNote     *after,
        const char *label)
{
  NoteEdit *edit = g_new0 (NoteEdit, 1);

  edit->base.klass = &note_edit_class;
  edit->index = index;
  edit->before = before;
  edit->after = after;
  qd_document_begin (document, label);
  qd_document_edit_record (document, &edit->base);
  qd_document_end (document);
}

guint
qd_document_add_note (QdDocument *document,
                      double      x,
                      double      y,
                      const char *text)
{
  guint index;

  g_return_val_if_fail (QD_IS_DOCUMENT (document), 0);

  index = qd_document_get_notes (document)->len;
  change (document, index, NULL, qd_note_new (x, y, text), _("Add Note"));
  return index;
}

/* Replaces note @index by one at (@x, @y) with @text, when that changes
 * it. */
static gboolean
replace (QdDocument *document,
         guint       index,
         double      x,
         double      y,
         const char *text,
         const char *label)
{
  GPtrArray *list = qd_document_get_notes (document);
  const QdNote *note;

  if (index >= list->len)
    return FALSE;
  note = g_ptr_array_index (list, index);
  if (note->x == x && note->y == y && g_strcmp0 (note->text, text) == 0)
    return FALSE;
  change (document, index, qd_note_copy (note), qd_note_new (x, y, text), label);
  return TRUE;
}

gboolean
qd_document_set_note_text (QdDocument *document,
                           guint       index,
                           const char *text)
{
  GPtrArray *list;
  const QdNote *note;

  g_return_val_if_fail (QD_IS_DOCUMENT (document), FALSE);

  list = qd_document_get_notes (document);
  if (index >= list->len)
    return FALSE;
  note = g_ptr_array_index (list, index);
  return replace (document, index, note->x, note->y, text != NULL ? text : "",
                  _("Edit Note"));
}

gboolean
qd_document_move_note (QdDocument *document,
                       guint       index,
                       double      x,
                       double      y)
{
  GPtrArray *list;

  g_return_val_if_fail (QD_IS_DOCUMENT (document), FALSE);

  list = qd_document_get_notes (document);
  if (index >= list->len)
    return FALSE;
  return replace (document, index, x, y,
                  ((QdNote *) g_ptr_array_index (list, index))->text, _("Move Note"));
}

gboolean
qd_document_remove_note (QdDocument *document,
                         guint       index)
{
  GPtrArray *list;

  g_return_val_if_fail (QD_IS_DOCUMENT (document), FALSE);

  list = qd_document_get_notes (document);
  if (index >= list->len)
    return FALSE;
  change (document, index, qd_note_copy (g_ptr_array_index (list, index)), NULL,
          _("Delete Note"));
  return TRUE;
}

/* qd-notes.h: text notes placed on a diagram
 *
 * A note is a piece of text at a point of the top-level diagram, for a
 * reader (what to look at, which figure a part reproduces). Notes do not
 * take part in a run. Adding, editing and deleting one are steps of the
 * undo history like the edits of blocks; the file keeps them under
 * "notes" (docs/file-format.md), written only when there are some.
 */
#pragma once

#include "qd-document.h"

G_BEGIN_DECLS

typedef struct
{
  double  x, y;     /* the note's top-left corner, in canvas units */
  char   *text;
} QdNote;

QD_API QdNote    *qd_note_new   (double      x,
                                 double      y,
                                 const char *text);
QD_API QdNote    *qd_note_copy  (const QdNote *note);
QD_API void       qd_note_free  (QdNote     *note);

/* The notes of @document (QdNote*, transfer none; empty, never NULL). */
QD_API GPtrArray *qd_document_get_notes    (QdDocument *document);
/* Commands, each one undoable step: "Add Note" returns the new note's
 * index; the others are FALSE (changing nothing) for an index out of
 * range, or a text that is the note's already. */
QD_API guint      qd_document_add_note     (QdDocument *document,
                                            double      x,
                                            double      y,
                                            const char *text);
QD_API gboolean   qd_document_set_note_text (QdDocument *document,
                                             guint       index,
                                             const char *text);
QD_API gboolean   qd_document_move_note    (QdDocument *document,
                                            guint       index,
                                            double      x,
                                            double      y);
QD_API gboolean   qd_document_remove_note  (QdDocument *document,
                                            guint       index);
/* As the loader does it: no undo step, no modification mark. */
QD_API void       qd_document_load_notes   (QdDocument *document,
                                            GPtrArray  *notes);

G_END_DECLS

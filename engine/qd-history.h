/* qd-history.h: the edit history of a document (private to the engine)
 *
 * The history is a stack of steps; a step is a labelled list of primitive
 * edits, each able to apply itself forwards (redo) and backwards (undo).
 * The history knows nothing of what the edits touch: the document defines
 * them (qd-document.c) and hands each one over as it applies it.
 *
 * Steps are numbered with a serial that is never reused, so "the state the
 * document was saved in" is one number, and "modified" is a comparison even
 * after undo, redo and a redo stack thrown away.
 *
 * The second half declares the document's primitive edits, shared by the
 * commands in qd-document.c and qd-document-group.c.
 */
#pragma once

#include <glib.h>

#include "qd-document.h"

G_BEGIN_DECLS

typedef struct _QdEdit      QdEdit;
typedef struct _QdEditClass QdEditClass;
typedef struct _QdHistory   QdHistory;

struct _QdEditClass
{
  /* Applies the edit to @target, backwards when @undo. */
  void (*apply) (QdEdit   *edit,
                 gpointer  target,
                 gboolean  undo);
  void (*free)  (QdEdit   *edit);
};

/* The header of every edit; edits embed it as their first member. */
struct _QdEdit
{
  const QdEditClass *klass;
};

QdHistory  *qd_history_new           (void);
void        qd_history_free          (QdHistory  *history);
/* Drops every step (the loader installed a new root). */
void        qd_history_clear         (QdHistory  *history);

/* Nesting transactions: the outermost label names the step. */
void        qd_history_begin         (QdHistory  *history,
                                      const char *label);
/* TRUE when this closed the outermost transaction and it held edits (a
 * new step was pushed and the redo stack dropped). */
gboolean    qd_history_end           (QdHistory  *history);
guint       qd_history_get_depth     (QdHistory  *history);
/* Takes @edit, already applied, into the open transaction. */
void        qd_history_record        (QdHistory  *history,
                                      QdEdit     *edit);

gboolean    qd_history_can_undo      (QdHistory  *history);
gboolean    qd_history_can_redo      (QdHistory  *history);
const char *qd_history_get_undo_label (QdHistory *history);
const char *qd_history_get_redo_label (QdHistory *history);
gboolean    qd_history_undo          (QdHistory  *history,
                                      gpointer    target);
gboolean    qd_history_redo          (QdHistory  *history,
                                      gpointer    target);
/* The serial of the step on top of the undo stack (0 when empty). */
guint64     qd_history_get_state     (QdHistory  *history);

/* Applies @edit to @self and takes it into the open transaction: for
 * edits of what the document keeps besides the diagram (qd-notes.c). */
void        qd_document_edit_record        (QdDocument *self,
                                            QdEdit     *edit);

/* Primitive edits of a document: each applies at once and is recorded in
 * the open transaction (the caller has called qd_document_begin). They
 * check nothing: the commands validate first. */
void        qd_document_edit_insert_block  (QdDocument *self,
                                            QdSystem   *system,
                                            QdBlock    *block,
                                            guint       index);
void        qd_document_edit_remove_block  (QdDocument *self,
                                            QdBlock    *block);
void        qd_document_edit_geometry      (QdDocument *self,
                                            QdBlock    *block,
                                            double      x,
                                            double      y,
                                            double      width,
                                            double      height,
                                            int         rotation,
                                            gboolean    flip);
void        qd_document_edit_param         (QdDocument *self,
                                            QdBlock    *block,
                                            const char *name,
                                            const char *value);
void        qd_document_edit_insert_link   (QdDocument *self,
                                            QdSystem   *system,
                                            QdLink     *link,
                                            guint       index);
void        qd_document_edit_remove_link   (QdDocument *self,
                                            QdLink     *link);
/* Takes over @target (owned by no link). */
void        qd_document_edit_insert_target (QdDocument   *self,
                                            QdLink       *link,
                                            QdLinkTarget *target,
                                            guint         index);
void        qd_document_edit_remove_target (QdDocument *self,
                                            QdLink     *link,
                                            guint       index);
/* Changes the source of @link (@target_index < 0) or the destination of
 * one of its targets. */
void        qd_document_edit_endpoint      (QdDocument *self,
                                            QdLink     *link,
                                            int         target_index,
                                            const char *block,
                                            guint       port);

/* Keep a system's index of names in step when a block joins or leaves
 * it or is renamed (qd-diagram.c). */
void        qd_system_name_added           (QdSystem      *system,
                                            QdBlock       *block);
void        qd_system_name_removed         (QdSystem      *system,
                                            QdBlock       *block);

/* Empties @system's links, freeing in one sweep those nothing else holds:
 * the compiler, once it has read them, in a document it was given to
 * free (qd_simulation_new_taking()). */
void        qd_system_drop_links           (QdSystem      *system);
/* Takes out of @system the blocks nothing else holds (but subsystems),
 * freeing them in one sweep: the compiler, once it has read them, in a
 * document it was given to free. The blocks kept stay in their order. */
void        qd_system_drop_blocks          (QdSystem      *system);
/* A target owned by no link, to hand to qd_document_edit_insert_target
 * (qd-diagram.c). */
QdLinkTarget *qd_link_target_new           (const char    *dst_block,
                                            guint          dst_port,
                                            const QdPoint *points,
                                            guint          n_points);
/* The same naming block @dst by its own id text, with no bend points. */
QdLinkTarget *qd_link_target_new_from_block (const QdBlock *dst,
                                              guint          dst_port);
void        qd_link_target_free            (QdLinkTarget  *target);
/* Puts @target, which no link owns, at @index of @link's targets (at most
 * n_targets); the link owns it then. */
void        qd_link_insert_target          (QdLink        *link,
                                            guint          index,
                                            QdLinkTarget  *target);
/* Takes target @index out of @link: the caller owns it then. */
QdLinkTarget *qd_link_steal_target         (QdLink        *link,
                                            guint          index);
/* For building a large copy of a diagram quickly (qd-compile-vector.c):
 * a new block of @like's type and parameters (the same shared set, not
 * copied; a Subsystem's inside empty), its @id, as every block's, in
 * its own allocation and out of the table of shared texts (a link names
 * it through qd_link_new_from_block() or qd_link_add_target_block(); one
 * naming it by its text gets an equal text of its own); and a link and its targets naming blocks by their
 * own id strings, without looking the texts up (qd-diagram.h). */
QdBlock    *qd_block_new_like              (const QdBlock *like,
                                            const char    *id,
                                            const char    *name);
/* A block like qd_block_new()'s kept as a placeholder of a missing type
 * (qd-file-load.c): with room for the counts of the ports its links use. */
QdBlock    *qd_block_new_placeholder       (const char    *id,
                                            const char    *type,
                                            const char    *name);
/* A placeholder's counts of inputs [0] and outputs [1]; NULL for a
 * block that is not one. */
guint      *qd_block_placeholder_ports     (const QdBlock *block);
/* Sets @block's name without checks or index upkeep: the name is not
 * always a separate allocation, so never g_free() it directly. */
void        qd_block_set_name_raw          (QdBlock       *block,
                                            const char    *name);
/* Points @endpoint at block @block: endpoint texts are shared strings
 * (qd-diagram.c), so they must be set through here, never g_free()d. */
void        qd_endpoint_set_block          (QdEndpoint    *endpoint,
                                            const char    *block);
/* Refuses an empty name, one with '/', or one taken in @system; messages
 * start with @where. */
gboolean    qd_document_check_name         (QdSystem    *system,
                                            const char  *where,
                                            const char  *name,
                                            GError     **error);
/* @base, or "@base 2", "@base 3"...: the first not taken in @system. */
char       *qd_document_unique_name        (QdSystem    *system,
                                            const char  *base);
/* Renames without checks. */
void        qd_document_edit_name          (QdDocument  *self,
                                            QdBlock     *block,
                                            const char  *name);
/* Removes target @index of @link, or the whole link for its last one. */
void        qd_document_edit_remove_target_or_link (QdDocument *self,
                                                    QdLink     *link,
                                                    guint       index);
/* Removes the link targets touching ports the block no longer has. */
void        qd_document_prune_ports        (QdDocument *self,
                                            QdBlock    *block);

G_END_DECLS

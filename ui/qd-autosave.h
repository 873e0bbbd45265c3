/* qd-autosave.h: keeping a copy of unsaved changes for after a crash
 *
 * A QdAutosave watches one document. A few seconds after the last change
 * of a modified document it writes the document's canonical text to
 * DIR/ID.qdevs and a small sidecar, DIR/ID.json, with the file the
 * diagram belongs to, its title and the time; DIR is the user's cache
 * folder ($XDG_CACHE_HOME/qdevs/recovery) unless given. Both are written
 * with an atomic replace, the text on a worker thread: a crash or a kill
 * in the middle leaves the previous copy, never half of one.
 *
 * While it lives, the object holds a lock (flock) on DIR/ID.lock, so that
 * another editor running at the same time does not offer this copy for
 * recovery; the kernel lets go of it when the process dies, however it
 * dies. A save (the document no longer modified), another document, and
 * qd_autosave_discard() remove the copy: what is left in DIR after the
 * editor ends is what a crash or a kill did not let it remove (see
 * qd-recovery.h).
 *
 * GLib and the engine only (no GTK): the tests drive it without a display.
 */
#pragma once

#include <gio/gio.h>

#include "qdevs.h"

G_BEGIN_DECLS

#define QD_TYPE_AUTOSAVE (qd_autosave_get_type ())
G_DECLARE_FINAL_TYPE (QdAutosave, qd_autosave, QD, AUTOSAVE, GObject)

/* How long after the last change the copy is written, in milliseconds. */
#define QD_AUTOSAVE_DELAY_MS 3000

/* $XDG_CACHE_HOME/qdevs/recovery. */
char       *qd_autosave_dup_default_dir (void);

/* @dir: where the copies go; NULL for the default. */
QdAutosave *qd_autosave_new          (const char  *dir);
/* Watches @document (may be NULL), saved at @file (may be NULL); removes
 * the copy of the previous one. A document that is already modified (a
 * recovered one) is written after the delay as after a change. */
void        qd_autosave_set_document (QdAutosave  *self,
                                      QdDocument  *document,
                                      GFile       *file);
/* Where the document is saved now (after Save As). */
void        qd_autosave_set_file     (QdAutosave  *self,
                                      GFile       *file);
/* The delay after the last change (QD_AUTOSAVE_DELAY_MS unless set). */
void        qd_autosave_set_delay    (QdAutosave  *self,
                                      guint        delay_ms);
/* Writes now, on this thread, if a write is due (a change since the last
 * one): what the timer would do, without waiting for it. */
void        qd_autosave_flush        (QdAutosave  *self);
/* Removes the copy and forgets the pending write: a clean close. */
void        qd_autosave_discard      (QdAutosave  *self);
/* The copy's path (DIR/ID.qdevs), whether or not it exists yet. */
const char *qd_autosave_get_path     (QdAutosave  *self);
/* Copies written so far (by the timer or a flush). */
guint       qd_autosave_get_n_writes (QdAutosave  *self);

G_END_DECLS

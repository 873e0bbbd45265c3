/* qd-recovery.h: finding the copies a crashed editor left behind
 *
 * The copies QdAutosave writes (qd-autosave.h) that no running editor
 * holds the lock of: an editor that crashed or was killed with unsaved
 * changes. Finding one takes its lock, so two editors starting at once
 * never both offer it; the lock goes with the QdRecoveryFile.
 *
 * GLib and the engine only (no GTK).
 */
#pragma once

#include <gio/gio.h>

#include "qdevs.h"

G_BEGIN_DECLS

typedef struct
{
  char      *data_path;   /* DIR/ID.qdevs: the diagram */
  char      *info_path;   /* DIR/ID.json */
  char      *lock_path;   /* DIR/ID.lock */
  char      *file;        /* where the diagram was saved, or NULL */
  char      *title;       /* its title, possibly "" */
  GDateTime *time;        /* when the copy was written */
  int        lock_fd;     /* held while this exists */
} QdRecoveryFile;

/* The copies in @dir (NULL: qd_autosave_dup_default_dir()) that no
 * running editor holds, oldest first; an empty array when there are
 * none. A sidecar that cannot be read is skipped (and left alone). */
GPtrArray  *qd_recovery_find         (const char      *dir);
/* The diagram of @file, marked modified (it holds changes its file does
 * not have), or NULL with @error set. */
QdDocument *qd_recovery_file_load    (QdRecoveryFile  *file,
                                      GError         **error);
/* Removes the copy (after it was recovered, or when the user said so). */
void        qd_recovery_file_discard (QdRecoveryFile  *file);
/* Lets go of the lock; the copy stays unless discarded. */
void        qd_recovery_file_free    (QdRecoveryFile  *file);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (QdRecoveryFile, qd_recovery_file_free)

G_END_DECLS

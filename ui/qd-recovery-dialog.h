/* qd-recovery-dialog.h: offering the diagrams a crash left unsaved
 *
 * A message dialog that lists the copies qd_recovery_find() found (title,
 * file, when it was written) and asks what to do with them: Recover
 * (QD_RECOVERY_RESPONSE_RECOVER) or Discard (QD_RECOVERY_RESPONSE_DISCARD).
 * Closing it otherwise leaves them for the next start. The caller
 * connects to "response" and opens or discards the files.
 */
#pragma once

#include <gtk/gtk.h>

#include "qd-recovery.h"

G_BEGIN_DECLS

enum
{
  QD_RECOVERY_RESPONSE_RECOVER = 1,
  QD_RECOVERY_RESPONSE_DISCARD = 2,
};

/* @files: QdRecoveryFile*, at least one (transfer none). */
GtkWidget *qd_recovery_dialog_new (GtkWindow *parent,
                                   GPtrArray *files);

G_END_DECLS

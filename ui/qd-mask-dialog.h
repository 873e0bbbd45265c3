/* qd-mask-dialog.h: the Edit Mask window of a subsystem
 *
 * Declares what a masked subsystem shows its user (qd-mask.h): the
 * parameters (name, default, description) the blocks inside may use and
 * the text drawn on the block. Apply replaces the mask in one undo step,
 * keeping the values set for parameters that keep their names; Remove
 * Mask makes it a plain subsystem again. The values themselves are set
 * in the inspector, as a block's parameters are.
 */
#pragma once

#include <gtk/gtk.h>

#include "qdevs.h"

G_BEGIN_DECLS

#define QD_TYPE_MASK_DIALOG (qd_mask_dialog_get_type ())
G_DECLARE_FINAL_TYPE (QdMaskDialog, qd_mask_dialog, QD, MASK_DIALOG, GtkWindow)

/* A new window editing the mask of subsystem @block of @document,
 * transient for @parent. */
QdMaskDialog *qd_mask_dialog_new (GtkWindow  *parent,
                                  QdDocument *document,
                                  QdBlock    *block);

G_END_DECLS

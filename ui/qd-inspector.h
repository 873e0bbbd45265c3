/* qd-inspector.h: the editor's inspector panel
 *
 * Shows and edits what is selected: for one block, its name, its type and
 * a form generated from the type's parameter schema; with nothing
 * selected, the model itself (title, description, variables, simulation
 * settings). Values are checked as they are typed, and applied on Enter
 * or when the field loses the focus, each as one undo step through the
 * document's commands. The form follows the document's "changed" signal,
 * so Undo updates it.
 *
 * Fields are named by keys, which tests and the window use to reach them:
 * "name" and the parameter names for a block; "title", "description",
 * "start_time", "final_time", "method", "dqmin", "dqrel",
 * "illegitimacy_limit", and "var:NAME" / "varname:NAME" (a variable's
 * value and name) for the model.
 */
#pragma once

#include <gtk/gtk.h>

#include "qdevs.h"

G_BEGIN_DECLS

#define QD_TYPE_INSPECTOR (qd_inspector_get_type ())
G_DECLARE_FINAL_TYPE (QdInspector, qd_inspector, QD, INSPECTOR, GtkWidget)

GtkWidget  *qd_inspector_new           (void);
void        qd_inspector_set_document  (QdInspector *self,
                                        QdDocument  *document);
QdDocument *qd_inspector_get_document  (QdInspector *self);
/* Edits @block (a block of the document), or the model when NULL. */
void        qd_inspector_set_block     (QdInspector *self,
                                        QdBlock     *block);
/* Follows a selection (QdBlock*): one block is edited, none edits the
 * model, several show how many are selected. @blocks may be NULL. */
void        qd_inspector_set_selection (QdInspector *self,
                                        GPtrArray   *blocks);
/* The block edited, or NULL for the model form. */
QdBlock    *qd_inspector_get_block     (QdInspector *self);

/* The editing widget of field @key (a GtkEntry, GtkDropDown, GtkSwitch or
 * GtkTextView), or NULL. */
GtkWidget  *qd_inspector_get_field     (QdInspector *self,
                                        const char  *key);
/* The error shown next to field @key, or NULL when it is valid. */
const char *qd_inspector_get_error     (QdInspector *self,
                                        const char  *key);
/* What the line under vector parameter @key shows ("3 elements: [1, 2,
 * 3]"), or NULL. */
const char *qd_inspector_get_summary   (QdInspector *self,
                                        const char  *key);
/* The number of fields in the form. */
guint       qd_inspector_get_n_fields  (QdInspector *self);
/* Moves the keyboard focus to field @key, its text selected so that
 * typing replaces it, and scrolls it into view; NULL picks the first
 * parameter of a block (its name when it has none) or the model's title.
 * FALSE when the form has no such field. */
gboolean    qd_inspector_focus_field   (QdInspector *self,
                                        const char  *key);
/* When @message says "script line N: ..." and the block edited has a
 * script (QD_PARAM_SCRIPT), opens it at line N with the message marked
 * there. FALSE otherwise. */
gboolean    qd_inspector_focus_script_line (QdInspector *self,
                                            const char  *message);
/* Shows @extra under the form, whatever block is shown (a debugger's
 * read-only state of the block), replacing the one before; NULL removes
 * it. */
void        qd_inspector_set_extra     (QdInspector *self,
                                        GtkWidget   *extra);

G_END_DECLS

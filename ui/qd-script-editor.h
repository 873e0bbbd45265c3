/* qd-script-editor.h: the editor of a block's Lua script
 *
 * A GtkSourceView with Lua highlighting and line numbers that checks the
 * script as it is typed (its header and its syntax, a moment after the
 * last key) and marks the line of the first problem: a tinted line and
 * an icon in the gutter, its message in the "error" property. A run-time
 * error is shown the same way with qd_script_editor_show_error().
 *
 * It is a GtkTextView, so a form edits its text as any text field's;
 * qd_script_editor_wrap() gives the widget to put in the form: the view
 * in a scroller under a bar to start from a template and to save the
 * script as a block of the user's library.
 */
#pragma once

#include <gtksourceview/gtksource.h>

G_BEGIN_DECLS

#define QD_TYPE_SCRIPT_EDITOR (qd_script_editor_get_type ())
G_DECLARE_FINAL_TYPE (QdScriptEditor, qd_script_editor, QD, SCRIPT_EDITOR, GtkSourceView)

GtkWidget  *qd_script_editor_new          (void);
/* The scroller with the view and the bar above it; build it once. */
GtkWidget  *qd_script_editor_wrap         (QdScriptEditor *self);

/* The message of the problem marked (syntax or run time), or NULL; its
 * line in @line (from 1; 0 when it has none) when not NULL. */
const char *qd_script_editor_get_error    (QdScriptEditor *self,
                                           int            *line);
/* Marks @line (from 1) with @message, puts the cursor there and
 * scrolls to it: an error that a run found. NULL clears the mark. */
void        qd_script_editor_show_error   (QdScriptEditor *self,
                                           int             line,
                                           const char     *message);
/* Runs the syntax check now instead of after the next pause in typing. */
void        qd_script_editor_check_now    (QdScriptEditor *self);

/* The block's ports, written into the header when the script is saved
 * to the library without --@inputs or --@outputs lines. */
void        qd_script_editor_set_ports    (QdScriptEditor *self,
                                           guint           n_inputs,
                                           guint           n_outputs);

/* Where the templates are (share/qdevs/lua-templates by default), for
 * every editor. */
void        qd_script_editor_set_templates_dir (const char *dir);

G_END_DECLS

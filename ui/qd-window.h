/* qd-window.h: the main window of the QDevs editor
 *
 * One window shows one diagram: a header bar with the diagram's title and
 * file name, the block palette on the left, the diagram in the middle and
 * a message area at the bottom that reports problems (a file that cannot
 * be loaded) without a modal dialog.
 */
#pragma once

#include <gtk/gtk.h>

#include "qdevs.h"
#include "qd-autosave.h"

G_BEGIN_DECLS

#define QD_APPLICATION_ID "io.github.qdevs.Qdevs"

#define QD_TYPE_WINDOW (qd_window_get_type ())
G_DECLARE_FINAL_TYPE (QdWindow, qd_window, QD, WINDOW, GtkApplicationWindow)

QdWindow   *qd_window_new          (GtkApplication *application);
/* Loads @file (a .qdevs diagram) into the window. On failure the window
 * keeps what it showed, shows the error in its message area and returns
 * FALSE with @error set (@error may be NULL). */
gboolean    qd_window_open_file    (QdWindow       *self,
                                    GFile          *file,
                                    GError        **error);
/* Shows @document (the window takes a reference); @file is where it is
 * saved, or NULL for a new diagram or an example, which Save then asks a
 * file for. */
void        qd_window_set_document (QdWindow       *self,
                                    QdDocument     *document,
                                    GFile          *file);
/* Checks the diagram and lists the problems in the messages panel;
 * returns how many there are (0: ready to run). */
guint       qd_window_check        (QdWindow       *self);
/* What a double-click at canvas point (@x, @y) of the system shown does
 * besides opening a subsystem (which the canvas does): on a block, puts
 * the keyboard on its first parameter in the inspector; on a block's
 * name, on its name. FALSE when there was nothing to edit there. */
gboolean    qd_window_edit_at      (QdWindow       *self,
                                    double          x,
                                    double          y);
/* The diagram shown, or NULL while the window is empty. */
QdDocument *qd_window_get_document (QdWindow       *self);
/* The file the diagram came from, or NULL. */
GFile      *qd_window_get_file     (QdWindow       *self);
/* What keeps a copy of the diagram's unsaved changes for after a crash
 * (transfer none). */
QdAutosave *qd_window_get_autosave (QdWindow       *self);
/* Shows @text in the message area; @type is GTK_MESSAGE_ERROR, _WARNING
 * or _INFO and sets the icon and colour. */
void        qd_window_show_message (QdWindow       *self,
                                    GtkMessageType  type,
                                    const char     *text);
/* As qd_window_show_message(), for a message about one edit (refused, or
 * with an effect its field does not show): the next change of the
 * document hides it, as it no longer describes the diagram then. */
void        qd_window_show_edit_message (QdWindow       *self,
                                         GtkMessageType  type,
                                         const char     *text);
void        qd_window_hide_message (QdWindow       *self);
/* Hides the message only if it is one of qd_window_show_edit_message():
 * for a field whose right value changed nothing in the document (typed
 * again as it was), which therefore sends no change to hide it. */
void        qd_window_hide_edit_message (QdWindow       *self);

G_END_DECLS

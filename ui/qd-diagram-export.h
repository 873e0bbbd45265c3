/* qd-diagram-export.h: writing a diagram to SVG, PDF or PNG
 *
 * Draws one system with the canvas renderer (no GTK) onto a page just
 * large enough for its blocks and links, with a margin. SVG and PDF are
 * vector (one canvas unit is one point); PNG is drawn at twice that scale
 * so that it stays sharp on slides.
 */
#pragma once

#include <glib.h>

#include "qdevs.h"

G_BEGIN_DECLS

/* Writes @system (the root or a subsystem's inside of @document) to
 * @path in the format of its extension. @selection (a set of block ids,
 * or NULL for everything) limits the drawing to those blocks and the links
 * among them. Fails with a message that starts with the file name. */
gboolean        qd_diagram_export          (QdDocument     *document,
                                            const QdSystem *system,
                                            GHashTable     *selection,
                                            const char     *path,
                                            GError        **error);

G_END_DECLS

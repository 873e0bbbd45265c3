/* qd-inspector-vector.h: the inspector's parameters that hold vectors
 * (private to the inspector)
 */
#pragma once

#include <gtk/gtk.h>

#include "qdevs.h"

G_BEGIN_DECLS

/* Evaluates one element of a list into *@value, checking its range; the
 * inspector's evaluation against the model variables. */
typedef gboolean (*QdInspectorEvalFunc) (const QdParamSpec  *spec,
                                         QdDocument         *document,
                                         const QdBlock      *block,
                                         const char         *text,
                                         double             *value,
                                         GError            **error);

/* Whether @spec of @block holds a list of values: a VECTOR parameter,
 * the x0 of a block that can be a vector (it has a "size"), a Matrix
 * Gain's matrix, or a choice of "elements". */
gboolean   qd_inspector_vector_applies (const QdBlock      *block,
                                        const QdParamSpec  *spec);

/* Checks every element of @text with @eval and, for an x0, their count
 * against the block's size. On success *@summary (when not NULL) is
 * what the summary line shows: "3 elements: [1, 2, 3]", "2 × 2 matrix:
 * [0 -1; 1 0]". */
gboolean   qd_inspector_vector_check   (QdDocument         *document,
                                        const QdBlock      *block,
                                        const QdParamSpec  *spec,
                                        const char         *text,
                                        QdInspectorEvalFunc eval,
                                        char              **summary,
                                        GError            **error);

/* The line under a vector parameter's entry, and its text (NULL hides
 * it). */
GtkWidget *qd_inspector_vector_summary_new (void);
void       qd_inspector_vector_summary_set (GtkWidget          *summary,
                                            const char         *text);

G_END_DECLS

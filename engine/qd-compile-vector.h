/* qd-compile-vector.h: vector signals, expanded into their elements
 * before compiling (private to the engine)
 */
#pragma once

#include "qd-document.h"

G_BEGIN_DECLS

/* When @document has vector signals (an Integrator with "size" above 1
 * or a list for x0, an Index Shift), a new document whose systems hold
 * one block per element of each vector block, the wiring blocks
 * resolved into links between elements; NULL when it has none, or
 * when @problems received a problem (a width mismatch, a bad size),
 * each naming the block by its path. The element inputs that an Index
 * Shift's zero boundary drives are left unconnected, and their blocks
 * go into @zero_inputs (QdBlock*): the compiler lets them read zero. */
QdDocument *qd_vector_expand (QdDocument        *document,
                              const char *const *overrides,
                              GPtrArray         *problems,
                              GHashTable        *zero_inputs);

/* Frees @flat, an expansion compiled, and gives the memory of its many
 * small blocks and links back to the system at once. */
void        qd_vector_release (QdDocument *flat);

G_END_DECLS

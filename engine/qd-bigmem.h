/* qd-bigmem.h: the large arrays of the event loop, on huge pages where
 * the system allows (private)
 *
 * In a large model whose events hop across all blocks, nearly every block
 * a transition touches is a miss in the translation buffer as well as in
 * the caches: with 4 KiB pages, 2048 entries of the second-level buffer
 * cover 8 MiB, against some 130 MB of simulation at 10^5 states. A 2 MiB
 * page covers what takes 512 small ones.
 *
 * A block of QD_BIGMEM_HUGE_SIZE bytes or more is mapped on its own,
 * starts on a 2 MiB boundary and is marked for transparent huge pages
 * (madvise (MADV_HUGEPAGE): kernels whose setting is "madvise", the
 * common default, give huge pages only to memory so marked). Whether the
 * kernel then backs it with huge pages is its choice; the memory is the
 * same either way. A smaller block, and every block where the system has
 * no such advice, is an ordinary allocation aligned to a cache line.
 *
 * Blocks are always at least 64-byte aligned. qd_bigmem_free() needs no
 * size: each block keeps how it was made just in front of it.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define QD_BIGMEM_HUGE_SIZE ((gsize) 2 * 1024 * 1024)

/* @n_elements × @element_size bytes, not zeroed (a large block is zeroed
 * anyway, by the kernel, on first touch). Aborts when out of memory, as
 * g_malloc() does. */
gpointer qd_bigmem_alloc  (gsize    n_elements,
                           gsize    element_size);
/* The same, zeroed. */
gpointer qd_bigmem_alloc0 (gsize    n_elements,
                           gsize    element_size);
/* Frees a block of qd_bigmem_alloc() or qd_bigmem_alloc0(); NULL is
 * ignored. */
void     qd_bigmem_free   (gpointer mem);

/* TRUE when @mem was mapped on its own and advised for huge pages (for
 * tests). */
gboolean qd_bigmem_is_mapped (gconstpointer mem);

G_END_DECLS

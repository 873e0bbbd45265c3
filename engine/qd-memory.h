/* qd-memory.h: memory for the compiled model's large arrays (private)
 *
 * The event loop of a large model reads a few lines of block data per
 * event, spread over arrays of tens of megabytes (lcline-random, N = 10^5:
 * some 60 MB of QdHot, QdAtomic, records, segments and kernel pairs).
 * With 4 KiB pages each of those lines is also a miss in the TLB, whose
 * second level reaches 8 MB, and the page walk comes before the line.
 * So arrays of QD_MEMORY_HUGE bytes or more start on a 2 MiB boundary and
 * are offered to the kernel as transparent huge pages (madvise), which it
 * grants where it is set to ("madvise" or "always", Debian's default is
 * the former) and ignores otherwise. Smaller arrays, and every array of
 * a small model, are allocated as before: a huge page would be mostly
 * unused memory there. docs/performance.md, seventh round, has the
 * figures.
 *
 * Every block is freed with qd_memory_free() (g_aligned_free()).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define QD_MEMORY_HUGE (2u * 1024 * 1024)

/* @n elements of @size bytes (at least one byte), @align-byte aligned (a
 * power of two, at most 64); not zeroed. Aborts when out of memory, as g_malloc() does. */
gpointer qd_memory_alloc  (gsize n,
                           gsize size,
                           gsize align);

/* The same, zeroed. */
gpointer qd_memory_alloc0 (gsize n,
                           gsize size,
                           gsize align);

static inline void
qd_memory_free (gpointer mem)
{
  g_aligned_free (mem);
}

G_END_DECLS

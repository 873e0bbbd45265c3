/* qd-memory.c: memory for the compiled model's large arrays
 *
 * See qd-memory.h for why. GLib has no allocation on a chosen boundary
 * beyond g_aligned_alloc(), which is posix_memalign() underneath and is
 * used here as well, with the huge page's size as the alignment, so that
 * g_aligned_free() releases every block alike.
 */
#include "qd-memory.h"

#include <string.h>
#include <sys/mman.h>

gpointer
qd_memory_alloc (gsize n,
                 gsize size,
                 gsize align)
{
  gsize bytes;
  gpointer mem;

  if (n == 0 || size == 0)
    n = size = 1;
  /* posix_memalign() takes multiples of the size of a pointer only. */
  align = MAX (align, sizeof (gpointer));
  if (!g_size_checked_mul (&bytes, n, size))
    g_error ("%s: overflow allocating %" G_GSIZE_FORMAT " × %" G_GSIZE_FORMAT
             " bytes", G_STRLOC, n, size);
  if (bytes < QD_MEMORY_HUGE)
    return g_aligned_alloc (n, size, align);
  /* Whole huge pages: the tail of the last one would be given out by the
   * allocator to other blocks, which then share its page. */
  bytes = (bytes + QD_MEMORY_HUGE - 1) & ~((gsize) QD_MEMORY_HUGE - 1);
  mem = g_aligned_alloc (bytes, 1, QD_MEMORY_HUGE);
#ifdef MADV_HUGEPAGE
  /* Advice only: without huge pages the memory is the same. The pages
   * are then dropped (the block is ours alone and not yet written): the
   * allocator may give out memory that earlier blocks had touched, whose
   * small pages would stay; fresh ones are faulted in as huge pages. */
  (void) madvise (mem, bytes, MADV_HUGEPAGE);
  (void) madvise (mem, bytes, MADV_DONTNEED);
#endif
  return mem;
}

gpointer
qd_memory_alloc0 (gsize n,
                  gsize size,
                  gsize align)
{
  gpointer mem = qd_memory_alloc (n, size, align);

  memset (mem, 0, n * size > 0 ? n * size : 1);
  return mem;
}

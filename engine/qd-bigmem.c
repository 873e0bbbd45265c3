/* qd-bigmem.c: large aligned blocks, advised for huge pages
 *
 * Written by hand because nothing below does it: GLib's allocators
 * (g_malloc, g_aligned_alloc) take no advice about pages, and glibc's
 * malloc gives huge pages only when the whole process opts in through
 * an environment variable (glibc.malloc.hugetlb), for every allocation
 * of every library, which is not ours to choose.
 *
 * Every block has a 64-byte header in front of it saying how to free it.
 * A large block is an anonymous mapping of its own: the page before its
 * 2 MiB-aligned start holds the header, and only the block itself is
 * advised, so that the kernel may back each whole 2 MiB of it with one
 * huge page (its last part, when shorter than 2 MiB, stays on small
 * pages: the block is not rounded up, so no memory is spent beyond what
 * the caller asked for). A small block is a g_aligned_alloc() with room
 * for the header.
 */
#include "qd-bigmem.h"

#include <string.h>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

#if defined(__linux__) && defined(MADV_HUGEPAGE)
#define QD_BIGMEM_CAN_MAP 1
#endif

#define HEADER_SIZE 64

typedef struct
{
  gpointer base;     /* what to give back: the mapping or the allocation */
  gsize    length;   /* the mapping's length; 0 for an allocation */
} Header;

G_STATIC_ASSERT (sizeof (Header) <= HEADER_SIZE);

static inline Header *
header_of (gconstpointer mem)
{
  return (Header *) ((guint8 *) mem - HEADER_SIZE);
}

#ifdef QD_BIGMEM_CAN_MAP
/* A mapping of @size bytes starting on a 2 MiB boundary, advised for huge
 * pages, or NULL when the system refuses the mapping. Zeroed. */
static gpointer
map_huge (gsize size)
{
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  gsize length, want;
  guint8 *map, *base, *start, *end;
  Header *h;

  /* Room for the header's page and for sliding to the boundary. */
  if (size > G_MAXSIZE - page - 2 * QD_BIGMEM_HUGE_SIZE)
    return NULL;
  want = (size + page - 1) & ~(page - 1);
  length = page + want + QD_BIGMEM_HUGE_SIZE;
  map = mmap (NULL, length, PROT_READ | PROT_WRITE,
              MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (map == MAP_FAILED)
    return NULL;
  start = (guint8 *) (((guintptr) map + page + QD_BIGMEM_HUGE_SIZE - 1)
                      & ~(guintptr) (QD_BIGMEM_HUGE_SIZE - 1));
  base = start - page;
  end = start + want;
  /* Give back the parts before the header's page and after the block. */
  if (base > map)
    munmap (map, (gsize) (base - map));
  if (map + length > end)
    munmap (end, (gsize) (map + length - end));
  /* Advice only: a kernel without transparent huge pages, or with them
   * turned off, refuses or ignores it, and the block is as good. */
  (void) madvise (start, want, MADV_HUGEPAGE);

  h = header_of (start);
  h->base = base;
  h->length = page + want;
  return start;
}
#endif

static gpointer
alloc_block (gsize    n_elements,
             gsize    element_size,
             gboolean zeroed)
{
  gsize size;
  guint8 *base;
  Header *h;

  if (!g_size_checked_mul (&size, n_elements, element_size)
      || size > G_MAXSIZE - HEADER_SIZE)
    g_error ("%s: overflow allocating %" G_GSIZE_FORMAT "*%" G_GSIZE_FORMAT
             " bytes", G_STRLOC, n_elements, element_size);

#ifdef QD_BIGMEM_CAN_MAP
  if (size >= QD_BIGMEM_HUGE_SIZE)
    {
      gpointer mem = map_huge (size);

      /* Fresh anonymous memory is zeroed: nothing to clear. */
      if (mem != NULL)
        return mem;
    }
#endif

  base = zeroed ? g_aligned_alloc0 (1, size + HEADER_SIZE, 64)
                : g_aligned_alloc (1, size + HEADER_SIZE, 64);
  h = (Header *) base;
  h->base = base;
  h->length = 0;
  return base + HEADER_SIZE;
}

gpointer
qd_bigmem_alloc (gsize n_elements,
                 gsize element_size)
{
  return alloc_block (n_elements, element_size, FALSE);
}

gpointer
qd_bigmem_alloc0 (gsize n_elements,
                  gsize element_size)
{
  return alloc_block (n_elements, element_size, TRUE);
}

void
qd_bigmem_free (gpointer mem)
{
  Header *h;

  if (mem == NULL)
    return;
  h = header_of (mem);
#ifdef QD_BIGMEM_CAN_MAP
  if (h->length != 0)
    {
      munmap (h->base, h->length);
      return;
    }
#endif
  g_aligned_free (h->base);
}

gboolean
qd_bigmem_is_mapped (gconstpointer mem)
{
  return mem != NULL && header_of (mem)->length != 0;
}

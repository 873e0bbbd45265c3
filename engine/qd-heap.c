/* qd-heap.c: the indexed 4-ary time heap of the event loop
 *
 * See qd-heap.h for the design. The sift loops move a "hole" rather than
 * swapping pairs: the moving entry is written once, at its final place.
 */
#include "qd-heap.h"

#define ARITY 4
/* Entry k is stored at block[k + SHIFT]: the children 4k+1 .. 4k+4 of k
 * then sit at 4k+4 .. 4k+7 of the block, one aligned cache line. */
#define SHIFT 3

/* Strict order on (key, id): earlier first, then lower id. As one 128-bit
 * comparison where the compiler has it (a compare and a subtract with
 * borrow, no branch), otherwise with bitwise operators so that the
 * compiler can use conditional moves. */
#ifdef __SIZEOF_INT128__
static inline guint
entry_less (guint64 ka,
            guint64 ida,
            guint64 kb,
            guint64 idb)
{
  unsigned __int128 a = (unsigned __int128) ka << 64 | ida;
  unsigned __int128 b = (unsigned __int128) kb << 64 | idb;

  return a < b;
}
#else
static inline guint
entry_less (guint64 ka,
            guint64 ida,
            guint64 kb,
            guint64 idb)
{
  return (ka < kb) | ((ka == kb) & (ida < idb));
}
#endif

#define LESS(x, y) entry_less ((x).key, (x).id, (y).key, (y).id)

/* Past the last entry, entries[n .. n + ARITY - 2] always hold this
 * entry, greater than any real one (a key of all ones is above the key of
 * QD_INF): a node with at least one child can then compare all four
 * places without testing which of them exist. */
static const QdHeapEntry sentinel = { G_MAXUINT64, G_MAXUINT64 };

void
qd_heap_init (QdHeap *heap,
              guint   n_ids)
{
  guint size = n_ids + SHIFT + ARITY;

  heap->n = 0;
  heap->n_ids = n_ids;
  /* Room for a full last group of siblings past the last entry. */
  heap->block = g_aligned_alloc (size, sizeof (QdHeapEntry), 64);
  for (guint k = 0; k < size; k++)
    heap->block[k] = sentinel;
  heap->entries = heap->block + SHIFT;
  heap->pos = g_new (guint32, MAX (n_ids, 1));
  for (guint i = 0; i < n_ids; i++)
    heap->pos[i] = QD_HEAP_ABSENT;
}

void
qd_heap_clear (QdHeap *heap)
{
  if (heap->block != NULL)
    g_aligned_free (heap->block);
  heap->block = heap->entries = NULL;
  g_clear_pointer (&heap->pos, g_free);
  heap->n = heap->n_ids = 0;
}

/* Indices are gsize in the sifts: with 32-bit ones the compiler widens
 * them again at every access. */
static void
sift_up (QdHeap  *heap,
         gsize    hole,
         guint64  key,
         guint64  id)
{
  QdHeapEntry *e = heap->entries;
  guint32 *pos = heap->pos;

  while (hole > 0)
    {
      gsize parent = (hole - 1) / ARITY;

      if (!entry_less (key, id, e[parent].key, e[parent].id))
        break;
      e[hole] = e[parent];
      pos[e[hole].id] = (guint32) hole;
      hole = parent;
    }
  e[hole].key = key;
  e[hole].id = id;
  pos[id] = (guint32) hole;
}

/* The smallest of the four siblings from @c. The places of missing
 * children hold the sentinel, which never wins. By pointers and
 * conditional moves: a sift spends most of its instructions here. */
G_ALWAYS_INLINE static inline const QdHeapEntry *
best_of_four (const QdHeapEntry *c)
{
  const QdHeapEntry *a = c + LESS (c[1], c[0]);
  const QdHeapEntry *b = c + 2 + LESS (c[3], c[2]);
  /* The last choice by a mask rather than `?:`, which GCC turns into a
   * branch that mispredicts half of the time. */
  guintptr pa = (guintptr) a, pb = (guintptr) b;
  guintptr m = (guintptr) 0 - (guintptr) LESS (*b, *a);

  return (const QdHeapEntry *) (pa ^ ((pa ^ pb) & m));
}

/* Classic sift-down: stops as soon as no child is smaller. */
static void
sift_down (QdHeap  *heap,
           gsize    hole,
           guint64  key,
           guint64  id)
{
  QdHeapEntry *e = heap->entries;
  guint32 *pos = heap->pos;
  gsize n = heap->n, first;

  while ((first = hole * ARITY + 1) < n)
    {
      const QdHeapEntry *b = best_of_four (e + first);

      if (!entry_less (b->key, b->id, key, id))
        break;
      e[hole] = *b;
      pos[b->id] = (guint32) hole;
      hole = (gsize) (b - e);
    }
  e[hole].key = key;
  e[hole].id = id;
  pos[id] = (guint32) hole;
}

/* Floyd's bottom-up variant for a key that grew: the hole goes down the
 * path of smallest children to a leaf, then the key climbs back up. */
static void
sift_down_bottom_up (QdHeap  *heap,
                     gsize    hole,
                     guint64  key,
                     guint64  id)
{
  QdHeapEntry *e = heap->entries;
  guint32 *pos = heap->pos;
  gsize n = heap->n, first;

  while ((first = hole * ARITY + 1) < n)
    {
      const QdHeapEntry *b = best_of_four (e + first);

      e[hole] = *b;
      pos[b->id] = (guint32) hole;
      hole = (gsize) (b - e);
    }
  sift_up (heap, hole, key, id);
}

void
qd_heap_remove (QdHeap *heap,
                guint   id)
{
  guint32 p = heap->pos[id];
  QdHeapEntry last;

  if (p == QD_HEAP_ABSENT)
    return;
  heap->pos[id] = QD_HEAP_ABSENT;
  heap->n--;
  last = heap->entries[heap->n];
  heap->entries[heap->n] = sentinel;
  if (p == heap->n)
    return;
  /* The last entry fills the hole; it may have to go either way. */
  if (p > 0 && LESS (last, heap->entries[(p - 1) / ARITY]))
    sift_up (heap, p, last.key, last.id);
  else
    sift_down (heap, p, last.key, last.id);
}

void
qd_heap_update (QdHeap *heap,
                guint   id,
                double  t)
{
  guint32 p = heap->pos[id];
  guint64 key;

  if (t == QD_INF)
    {
      qd_heap_remove (heap, id);
      return;
    }
  key = qd_heap_key (t);
  if (p == QD_HEAP_ABSENT)
    {
      sift_up (heap, heap->n++, key, id);
      return;
    }
  /* In place: the id does not change, so comparing the keys decides the
   * direction. Most new keys stay where they are (98.6 % of the
   * receivers' on the LC line, N = 1000, QSS2), but a test for that
   * without branches (parent and best of four children) cost 54 more
   * instructions per step than the one mispredicted branch it saved,
   * for the same time. */
  if (key < heap->entries[p].key)
    sift_up (heap, p, key, id);
  else if (key > heap->entries[p].key)
    {
      /* The top (the block that just fired) usually goes far down;
       * another block's key usually moves a little, and the classic sift
       * stops early where the bottom-up one would go to a leaf and back.
       * On the LC line (N = 1000, QSS2) this took an update from 168 to
       * 146 instructions. */
      if (p == 0)
        sift_down_bottom_up (heap, p, key, id);
      else
        sift_down (heap, p, key, id);
    }
}

void
qd_heap_replace_top (QdHeap *heap,
                     double  t)
{
  /* Floyd's sift, as qd_heap_update() does for the top: on the LC line
   * (N = 1000, QSS2) 98 % of these keys go to a leaf and climb no level
   * back up. */
  sift_down_bottom_up (heap, 0, qd_heap_key (t), heap->entries[0].id);
}

gboolean
qd_heap_validate (const QdHeap *heap)
{
  guint in_heap = 0;

  for (guint i = 0; i < heap->n; i++)
    {
      const QdHeapEntry *e = &heap->entries[i];

      if (e->id >= heap->n_ids || heap->pos[e->id] != i)
        return FALSE;
      if (i > 0 && LESS (*e, heap->entries[(i - 1) / ARITY]))
        return FALSE;
    }
  for (guint k = heap->n; k < heap->n + ARITY - 1; k++)
    if (heap->entries[k].key != sentinel.key)
      return FALSE;
  for (guint id = 0; id < heap->n_ids; id++)
    if (heap->pos[id] != QD_HEAP_ABSENT)
      in_heap++;

  return in_heap == heap->n;
}

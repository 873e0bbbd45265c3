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

/* Every place past the last entry, up to entries[n_ids + ARITY - 1],
 * always holds this entry: the time QD_INF, which no entry has, and the
 * greatest id, so greater than any real one. A node with at least one
 * child can then compare all four places without testing which of them
 * exist, and the fast path of qd_heap_update() reads a leaf's "children"
 * there: their key is also the one a new time QD_INF would have, which
 * thus never passes for "in place". */
static const QdHeapEntry sentinel = { G_MAXUINT64, QD_HEAP_KEY_INF };

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
  /* The place before the first entry: the parent of the top for the fast
   * path of qd_heap_update(), a key below every time. */
  heap->entries[-1].key = 0;
  heap->entries[-1].id = 0;
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
  /* Each choice as a mask (all ones when the second is smaller), which
   * the compiler takes straight from the borrow of the comparison, rather
   * than `?:`, which GCC turns into branches that mispredict half of the
   * time. The final comparison takes the two winners' keys and ids from
   * registers, chosen by the same masks, rather than loading them again
   * through the chosen pointers: that load would add its latency to
   * every level of a sift, whose levels are one chain. */
  guint64 k0 = c[0].key, k1 = c[1].key, k2 = c[2].key, k3 = c[3].key;
  guint64 i0 = c[0].id, i1 = c[1].id, i2 = c[2].id, i3 = c[3].id;
  guint64 m01 = (guint64) 0 - (guint64) entry_less (k1, i1, k0, i0);
  guint64 m23 = (guint64) 0 - (guint64) entry_less (k3, i3, k2, i2);
  guint64 ka = k0 ^ ((k0 ^ k1) & m01), ia = i0 ^ ((i0 ^ i1) & m01);
  guint64 kb = k2 ^ ((k2 ^ k3) & m23), ib = i2 ^ ((i2 ^ i3) & m23);
  guintptr pa = (guintptr) c + (m01 & sizeof (QdHeapEntry));
  guintptr pb = (guintptr) (c + 2) + (m23 & sizeof (QdHeapEntry));
  guintptr m = (guintptr) 0 - (guintptr) entry_less (kb, ib, ka, ia);

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

/* Floyd's bottom-up variant for a key that grew, in two halves: the
 * hole goes down the path of smallest children to a leaf (sink_hole()),
 * then the key climbs back up (climb()). Holes are kept as byte offsets:
 * the children of the entry at offset o start at 4 o + 16, one address
 * computation per level (30 instructions a level on x86-64, against 36
 * with indices). Returns the leaf's offset. */
G_ALWAYS_INLINE static inline gsize
sink_hole (char    *base,
           guint32 *pos,
           gsize    n,
           gsize    hole)
{
  const gsize size = sizeof (QdHeapEntry);
  gsize end = n * size;
  gsize o = hole * size, c;

  while ((c = ARITY * o + size) < end)
    {
      const QdHeapEntry *b = best_of_four ((const QdHeapEntry *) (base + c));

      memcpy (base + o, b, size);
      pos[b->id] = (guint32) (o / size);
      o = (gsize) ((const char *) b - base);
    }
  return o;
}

/* The entry (@key, @id) put at the hole at byte offset @o, or above it
 * where its ancestors are later: usually not a single level. The arrays
 * come as arguments: read again from the heap after the stores, which
 * may alias it (the build does not assume strict aliasing), they cost 6
 * instructions per step. */
G_ALWAYS_INLINE static inline void
climb (char    *base,
       guint32 *pos,
       gsize    o,
       guint64  key,
       guint64  id)
{
  const gsize size = sizeof (QdHeapEntry);

  while (o > 0)
    {
      gsize up = ((o - size) / ARITY) & ~(size - 1);
      const QdHeapEntry *u = (const QdHeapEntry *) (base + up);

      if (!entry_less (key, id, u->key, u->id))
        break;
      memcpy (base + o, u, size);
      pos[u->id] = (guint32) (o / size);
      o = up;
    }
  ((QdHeapEntry *) (base + o))->key = key;
  ((QdHeapEntry *) (base + o))->id = id;
  pos[id] = (guint32) (o / size);
}

G_ALWAYS_INLINE static inline void
sift_down_bottom_up (QdHeap  *heap,
                     gsize    hole,
                     guint64  key,
                     guint64  id)
{
  char *base = (char *) heap->entries;
  guint32 *pos = heap->pos;

  climb (base, pos, sink_hole (base, pos, heap->n, hole), key, id);
}

/* The hole at entry @p filled with the last entry, which may have to go
 * either way; the heap has one entry fewer. */
static void
fill_with_last (QdHeap *heap,
                guint32 p)
{
  QdHeapEntry last;

  heap->n--;
  last = heap->entries[heap->n];
  heap->entries[heap->n] = sentinel;
  if (p == heap->n)
    return;
  if (p > 0 && LESS (last, heap->entries[(p - 1) / ARITY]))
    sift_up (heap, p, last.key, last.id);
  else
    sift_down (heap, p, last.key, last.id);
}

void
qd_heap_remove (QdHeap *heap,
                guint   id)
{
  guint32 p = heap->pos[id];

  if (p == QD_HEAP_ABSENT)
    return;
  heap->pos[id] = QD_HEAP_ABSENT;
  fill_with_last (heap, p);
}

void
qd_heap_update_slow (QdHeap *heap,
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
  /* In place (the inline qd_heap_update() found that the entry must move,
   * or ties with a neighbour's time): the id does not change, so
   * comparing the keys decides the direction. */
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

guint
qd_heap_sink_top (QdHeap *heap)
{
  return (guint) (sink_hole ((char *) heap->entries, heap->pos, heap->n, 0)
                  / sizeof (QdHeapEntry));
}

void
qd_heap_fill_hole (QdHeap *heap,
                   guint   hole,
                   guint   id,
                   double  t)
{
  climb ((char *) heap->entries, heap->pos, (gsize) hole * sizeof (QdHeapEntry),
         qd_heap_key (t), id);
}

void
qd_heap_drop_hole (QdHeap *heap,
                   guint   hole,
                   guint   id)
{
  heap->pos[id] = QD_HEAP_ABSENT;
  fill_with_last (heap, hole);
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

void
qd_heap_replace_top_small (QdHeap *heap,
                           double  t)
{
  QdHeapEntry *e = heap->entries;
  guint64 key = qd_heap_key (t), id = e[0].id;

  /* The top and at most one child (a model of one or two integrators):
   * the key stays at the top or trades places with the child, where the
   * general sift ends too, without its loops and the choice among four
   * children (Lotka–Volterra: 105 instructions a step, now 25). The
   * entry past the last is a sentinel. */
  if (G_LIKELY (heap->n <= 2))
    {
      if (entry_less (key, id, e[1].key, e[1].id))
        {
          e[0].key = key;
          return;
        }
      e[0] = e[1];
      heap->pos[e[0].id] = 0;
      e[1].key = key;
      e[1].id = id;
      heap->pos[id] = 1;
      return;
    }
  qd_heap_replace_top (heap, t);
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
  for (guint k = heap->n; k < heap->n_ids + ARITY; k++)
    if (heap->entries[k].key != sentinel.key
        || heap->entries[k].id != sentinel.id)
      return FALSE;
  if (heap->entries[-1].key != 0)
    return FALSE;
  for (guint id = 0; id < heap->n_ids; id++)
    if (heap->pos[id] != QD_HEAP_ABSENT)
      in_heap++;

  return in_heap == heap->n;
}

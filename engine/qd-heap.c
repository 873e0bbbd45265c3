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

/* Strict order on (time, id): earlier first, then lower id. Bitwise
 * operators, so that the compiler can use conditional moves. */
static inline guint
entry_less (double  ta,
            guint32 ida,
            double  tb,
            guint32 idb)
{
  return (ta < tb) | ((ta == tb) & (ida < idb));
}

void
qd_heap_init (QdHeap *heap,
              guint   n_ids)
{
  heap->n = 0;
  heap->n_ids = n_ids;
  /* Room for a full last group of siblings past the last entry. */
  heap->block = g_aligned_alloc (n_ids + SHIFT + ARITY, sizeof (QdHeapEntry), 64);
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

static void
sift_up (QdHeap  *heap,
         guint    hole,
         double   t,
         guint32  id)
{
  QdHeapEntry *e = heap->entries;

  while (hole > 0)
    {
      guint parent = (hole - 1) / ARITY;

      if (!entry_less (t, id, e[parent].t, e[parent].id))
        break;
      e[hole] = e[parent];
      heap->pos[e[hole].id] = hole;
      hole = parent;
    }
  e[hole].t = t;
  e[hole].id = id;
  heap->pos[id] = hole;
}

/* The smallest child of @hole, or G_MAXUINT for a leaf. Forced inline:
 * as a call it cost a tenth of the whole event loop. */
G_ALWAYS_INLINE static inline guint
best_child (const QdHeapEntry *e,
            guint              n,
            guint              hole)
{
  guint first = hole * ARITY + 1;
  guint best;

  if (G_LIKELY (first + ARITY <= n))
    {
      guint a = first + entry_less (e[first + 1].t, e[first + 1].id,
                                    e[first].t, e[first].id);
      guint b = first + 2 + entry_less (e[first + 3].t, e[first + 3].id,
                                        e[first + 2].t, e[first + 2].id);

      return entry_less (e[b].t, e[b].id, e[a].t, e[a].id) ? b : a;
    }
  if (first >= n)
    return G_MAXUINT;
  best = first;
  for (guint c = first + 1; c < n; c++)
    if (entry_less (e[c].t, e[c].id, e[best].t, e[best].id))
      best = c;
  return best;
}

/* Classic sift-down: stops as soon as no child is smaller. */
static void
sift_down (QdHeap  *heap,
           guint    hole,
           double   t,
           guint32  id)
{
  QdHeapEntry *e = heap->entries;
  guint best;

  while ((best = best_child (e, heap->n, hole)) != G_MAXUINT
         && entry_less (e[best].t, e[best].id, t, id))
    {
      e[hole] = e[best];
      heap->pos[e[hole].id] = hole;
      hole = best;
    }
  e[hole].t = t;
  e[hole].id = id;
  heap->pos[id] = hole;
}

/* Floyd's bottom-up variant for a key that grew: the hole goes down the
 * path of smallest children to a leaf, then the key climbs back up. */
static void
sift_down_bottom_up (QdHeap  *heap,
                     guint    hole,
                     double   t,
                     guint32  id)
{
  QdHeapEntry *e = heap->entries;
  guint best;

  while ((best = best_child (e, heap->n, hole)) != G_MAXUINT)
    {
      e[hole] = e[best];
      heap->pos[e[hole].id] = hole;
      hole = best;
    }
  sift_up (heap, hole, t, id);
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
  if (p == heap->n)
    return;
  /* The last entry fills the hole; it may have to go either way. */
  last = heap->entries[heap->n];
  if (p > 0 && entry_less (last.t, last.id,
                           heap->entries[(p - 1) / ARITY].t,
                           heap->entries[(p - 1) / ARITY].id))
    sift_up (heap, p, last.t, last.id);
  else
    sift_down (heap, p, last.t, last.id);
}

void
qd_heap_update (QdHeap *heap,
                guint   id,
                double  t)
{
  guint32 p = heap->pos[id];

  if (t == QD_INF)
    {
      qd_heap_remove (heap, id);
      return;
    }
  if (p == QD_HEAP_ABSENT)
    {
      sift_up (heap, heap->n++, t, id);
      return;
    }
  /* In place: the id does not change, so comparing the times decides the
   * direction. */
  if (t < heap->entries[p].t)
    sift_up (heap, p, t, id);
  else if (t > heap->entries[p].t)
    {
      /* The top (the block that just fired) usually goes far down;
       * another block's key usually moves a little, and the classic sift
       * stops early where the bottom-up one would go to a leaf and back.
       * On the LC line (N = 1000, QSS2) this took an update from 168 to
       * 146 instructions. */
      if (p == 0)
        sift_down_bottom_up (heap, p, t, id);
      else
        sift_down (heap, p, t, id);
    }
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
      if (i > 0)
        {
          const QdHeapEntry *p = &heap->entries[(i - 1) / ARITY];

          if (entry_less (e->t, e->id, p->t, p->id))
            return FALSE;
        }
    }
  for (guint id = 0; id < heap->n_ids; id++)
    if (heap->pos[id] != QD_HEAP_ABSENT)
      in_heap++;

  return in_heap == heap->n;
}

/* qd-heap.c: the indexed 4-ary time heap of the event loop
 *
 * See qd-heap.h for the design. The sift loops move a "hole" rather than
 * swapping pairs: the moving entry is written once, at its final place.
 */
#include "qd-heap.h"

#define ARITY 4

/* Strict order on (time, id): earlier first, then lower id. */
static inline gboolean
entry_less (double  ta,
            guint32 ida,
            double  tb,
            guint32 idb)
{
  return ta < tb || (ta == tb && ida < idb);
}

void
qd_heap_init (QdHeap *heap,
              guint   n_ids)
{
  heap->n = 0;
  heap->n_ids = n_ids;
  heap->entries = g_new (QdHeapEntry, MAX (n_ids, 1));
  heap->pos = g_new (guint32, MAX (n_ids, 1));
  for (guint i = 0; i < n_ids; i++)
    heap->pos[i] = QD_HEAP_ABSENT;
}

void
qd_heap_clear (QdHeap *heap)
{
  g_clear_pointer (&heap->entries, g_free);
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

static void
sift_down (QdHeap  *heap,
           guint    hole,
           double   t,
           guint32  id)
{
  QdHeapEntry *e = heap->entries;
  guint n = heap->n;

  for (;;)
    {
      guint first = hole * ARITY + 1;
      guint best, last;

      if (first >= n)
        break;
      last = MIN (first + ARITY, n);
      best = first;
      for (guint c = first + 1; c < last; c++)
        if (entry_less (e[c].t, e[c].id, e[best].t, e[best].id))
          best = c;
      if (!entry_less (e[best].t, e[best].id, t, id))
        break;
      e[hole] = e[best];
      heap->pos[e[hole].id] = hole;
      hole = best;
    }
  e[hole].t = t;
  e[hole].id = id;
  heap->pos[id] = hole;
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
    sift_down (heap, p, t, id);
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

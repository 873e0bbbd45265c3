/* qd-heap.c: the indexed 4-ary time heap of the event loop
 *
 * See qd-heap.h for the design; the operations of the event loop are
 * inline there, this file sets the heap up and checks it.
 */
#include "qd-heap.h"

/* Entry k is stored at block[k + SHIFT]: the children 4k+1 .. 4k+4 of k
 * then sit at 4k+4 .. 4k+7 of the block, one aligned cache line. */
#define SHIFT 3

void
qd_heap_init (QdHeap *heap,
              guint   n_ids)
{
  heap->n = 0;
  heap->n_ids = n_ids;
  /* Room for a full last group of siblings past the last entry. */
  heap->block = g_aligned_alloc (n_ids + SHIFT + QD_HEAP_ARITY, sizeof (QdHeapEntry), 64);
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
          const QdHeapEntry *p = &heap->entries[(i - 1) / QD_HEAP_ARITY];

          if (qd_heap_entry_less (e->t, e->id, p->t, p->id))
            return FALSE;
        }
    }
  for (guint id = 0; id < heap->n_ids; id++)
    if (heap->pos[id] != QD_HEAP_ABSENT)
      in_heap++;

  return in_heap == heap->n;
}

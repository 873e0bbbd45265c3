/* qd-heap.h: the indexed time heap of the event loop (private)
 *
 * A 4-ary min-heap of (time, id) pairs with a position array indexed by id,
 * so that an id's time can be changed in place (decrease-key and
 * increase-key sift the entry from where it is; nothing is removed and
 * re-inserted). Ties in time go to the lower id, which in the simulation is
 * the block's priority, so the order of simultaneous events never depends
 * on the history of the heap.
 *
 * The capacity is the number of ids, fixed at init: no operation allocates.
 * An id whose time is QD_INF is simply not in the heap.
 *
 * Why 4-ary: the tree is half as deep as a binary one, and the four
 * children of a node are one 64-byte cache line: entries are 16 bytes and
 * the array is shifted so that every group of siblings starts on a line.
 * The best of four is chosen by a branch-free tournament (the comparisons
 * of a sift are unpredictable, so branches would mispredict), and an
 * increased key first sinks along the path of smaller children to a leaf,
 * then climbs back (Floyd's bottom-up sift): a key pushed into the future
 * from the top usually belongs near the bottom, and this halves the
 * comparisons. Other increased keys take the classic sift, which stops
 * early.
 * On random update sequences over 1000 ids (the pattern of a QSS model:
 * the top moves into the future, two others move either way) this took
 * an update from about 56 ns to about 42 ns against the same 4-ary heap
 * with plain branching sifts; a binary heap with the same tricks measured
 * the same, the 4-ary one keeps the shallower tree for larger models.
 * A tournament tree (the winner of each pair of children stored in their
 * parent, no position array, early exit) was tried as well: fewer
 * instructions per update on paper, but more in the event loop and more
 * mispredicted branches, so the heap stays (docs/performance.md).
 */
#pragma once

#include <glib.h>

#include "qd-types.h"

G_BEGIN_DECLS

#define QD_HEAP_ABSENT G_MAXUINT32

typedef struct
{
  double  t;
  guint32 id;
  guint32 pad;    /* keeps entries at 16 bytes */
} QdHeapEntry;

typedef struct
{
  QdHeapEntry *entries;   /* entries[0] is the minimum */
  QdHeapEntry *block;     /* the aligned allocation holding them */
  guint32     *pos;       /* pos[id]: index in entries, or QD_HEAP_ABSENT */
  guint        n;         /* entries in use */
  guint        n_ids;     /* capacity */
} QdHeap;

void     qd_heap_init    (QdHeap *heap,
                          guint   n_ids);
void     qd_heap_clear   (QdHeap *heap);

/* Sets the time of @id: inserts it, moves it in place, or removes it when
 * @t is QD_INF. */
void     qd_heap_update  (QdHeap *heap,
                          guint   id,
                          double  t);
void     qd_heap_remove  (QdHeap *heap,
                          guint   id);

/* Verifies the heap property and the position array (tests). */
gboolean qd_heap_validate (const QdHeap *heap);

static inline gboolean
qd_heap_is_empty (const QdHeap *heap)
{
  return heap->n == 0;
}

/* The minimum; only when the heap is not empty. */
static inline double
qd_heap_top_time (const QdHeap *heap)
{
  return heap->entries[0].t;
}

static inline guint
qd_heap_top_id (const QdHeap *heap)
{
  return heap->entries[0].id;
}

static inline gboolean
qd_heap_contains (const QdHeap *heap,
                  guint         id)
{
  return heap->pos[id] != QD_HEAP_ABSENT;
}

/* The time of @id, QD_INF when it is not in the heap. */
static inline double
qd_heap_get_time (const QdHeap *heap,
                  guint         id)
{
  guint32 p = heap->pos[id];

  return p == QD_HEAP_ABSENT ? QD_INF : heap->entries[p].t;
}

G_END_DECLS

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
 * The three choices of the tournament are masks taken straight from the
 * borrow of the comparisons, and Floyd's sift keeps its hole as a byte
 * offset. The last choice compares the two winners' keys and ids as the
 * masks chose them, in registers: loading them again through the chosen
 * pointers put a load's latency on every level, and the levels of a
 * sift are one chain (more instructions, less time: docs/performance.md,
 * twelfth round).
 *
 * Most updates of entries other than the top (the receivers of an event)
 * leave the entry where it is: qd_heap_update() tests for that inline,
 * without a call and without a branch on the direction the key moved,
 * and calls the sifts only when the entry must move (see there).
 *
 * A tournament tree (the winner of each pair of children stored in their
 * parent, no position array, early exit) was tried as well: fewer
 * instructions per update on paper, but more in the event loop and more
 * mispredicted branches, so the heap stays (docs/performance.md).
 */
#pragma once

#include <string.h>

#include <glib.h>

#include "qd-types.h"

G_BEGIN_DECLS

#define QD_HEAP_ABSENT G_MAXUINT32

/* An entry is ordered by (time, id) read as one 128-bit unsigned number:
 * the time as an ordered integer (qd_heap_key()) in the high half, the id
 * in the low half. One integer comparison (two instructions) then does
 * what took two floating-point comparisons and the logic to combine them,
 * three times per level of a sift. */
typedef struct
{
  guint64 id;     /* low half of the order */
  guint64 key;    /* high half: qd_heap_key (time) */
} QdHeapEntry;

typedef struct
{
  QdHeapEntry *entries;   /* entries[0] is the minimum */
  QdHeapEntry *block;     /* the aligned allocation holding them */
  guint32     *pos;       /* pos[id]: index in entries, or QD_HEAP_ABSENT */
  guint        n;         /* entries in use */
  guint        n_ids;     /* capacity */
} QdHeap;

#define QD_HEAP_SIGN G_GUINT64_CONSTANT (0x8000000000000000)
/* qd_heap_key (QD_INF): the bits of +infinity with the sign bit set. */
#define QD_HEAP_KEY_INF G_GUINT64_CONSTANT (0xfff0000000000000)

/* A time (not NaN) as an unsigned integer in the same order: the bits of
 * a positive double already grow with it; setting the sign bit puts them
 * above all negatives, whose bits are inverted to reverse their order.
 * -0 is first made +0, so that the two zeros, equal as times, are one
 * key. */
static inline guint64
qd_heap_key (double t)
{
  guint64 b;

  t += 0.0;
  memcpy (&b, &t, sizeof b);
  return b ^ ((guint64) ((gint64) b >> 63) | QD_HEAP_SIGN);
}

static inline double
qd_heap_key_time (guint64 key)
{
  guint64 b = key ^ ((guint64) ((gint64) ~key >> 63) | QD_HEAP_SIGN);
  double t;

  memcpy (&t, &b, sizeof t);
  return t;
}

void     qd_heap_init    (QdHeap *heap,
                          guint   n_ids);
void     qd_heap_clear   (QdHeap *heap);

/* qd_heap_update() when its fast path does not apply. */
void     qd_heap_update_slow (QdHeap *heap,
                              guint   id,
                              double  t);
void     qd_heap_remove  (QdHeap *heap,
                          guint   id);
/* Moves the top entry to the later time @t (finite, not before its
 * current time): qd_heap_update() for the block that just fired, without
 * the tests that find where the entry is and which way it goes. */
void     qd_heap_replace_top (QdHeap *heap,
                              double  t);
/* qd_heap_replace_top() for a heap that is often of one or two entries
 * (a small model's: the loop calls it in models of a few blocks), with a
 * path of its own for those. */
void     qd_heap_replace_top_small (QdHeap *heap,
                                    double  t);
/* qd_heap_replace_top() in two halves, for a loop that wants the next
 * top before it knows the fired block's new time: the top entry's hole
 * sunk to a leaf (the next top is then in place; returns the hole's
 * index; nothing else may touch the heap until the hole is filled), then
 * the hole filled with the block's entry at its later time @t, or, when
 * it has none (passive or due now), with the last entry, the block @id
 * left out of the heap. */
guint    qd_heap_sink_top    (QdHeap *heap);
void     qd_heap_fill_hole   (QdHeap *heap,
                              guint   hole,
                              guint   id,
                              double  t);
void     qd_heap_drop_hole   (QdHeap *heap,
                              guint   hole,
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
  return qd_heap_key_time (heap->entries[0].key);
}

static inline guint
qd_heap_top_id (const QdHeap *heap)
{
  return (guint) heap->entries[0].id;
}

static inline gboolean
qd_heap_contains (const QdHeap *heap,
                  guint         id)
{
  return heap->pos[id] != QD_HEAP_ABSENT;
}

/* TRUE when the heap's minimum comes before (time, @id), the time given
 * as its key; FALSE when the heap is empty (its first place then holds a
 * sentinel greater than any entry: see qd-heap.c). */
static inline gboolean
qd_heap_top_before (const QdHeap *heap,
                    guint64       key,
                    guint64       id)
{
  const QdHeapEntry *e = &heap->entries[0];

#ifdef __SIZEOF_INT128__
  return ((unsigned __int128) e->key << 64 | e->id)
         < ((unsigned __int128) key << 64 | id);
#else
  return (e->key < key) | ((e->key == key) & (e->id < id));
#endif
}

/* Sets the time of @id: inserts it, moves it in place, or removes it when
 * @t is QD_INF. qd_heap_update_in_place() is its fast path alone, on the
 * heap's arrays and size as the caller keeps them at hand (a loop over
 * several updates, which would otherwise read them again each time: a
 * store through any pointer might have changed them); FALSE when the
 * fast path does not apply and nothing was done, and then
 * qd_heap_update_slow() must follow.
 *
 * Inline, for the common case of the event loop: a receiver of an event
 * whose new time still lies strictly between its parent's and its
 * children's (98.5 % of them on the LC line, N = 1000, QSS2; the
 * entry's place does not change, only its key). The test has no branch
 * but the final one, which is nearly always taken: the direction in which
 * a key moved (a coin toss) and whether the entry is a leaf (three times
 * out of four) do not matter. The parent of the top is the entry before
 * the first (its key is 0, below every time), the children of a leaf are
 * read in the sentinels past the last entry (the index is clamped to
 * there), whose key is that of QD_INF: no finite time is too late for a
 * leaf, and QD_INF itself (removal) fails the test. Only keys are
 * compared: a tie with a neighbour takes the out-of-line path, where the
 * ids decide. */
static inline gboolean
qd_heap_update_in_place (QdHeapEntry    *e,
                         const guint32  *pos,
                         gsize           n,
                         guint           id,
                         double          t)
{
  guint32 p = pos[id];

  if (G_LIKELY (p != QD_HEAP_ABSENT))
    {
      guint64 key = qd_heap_key (t);
      gsize c = MIN ((gsize) p * 4 + 1, n);
      /* (p - 1) / 4, but -1 for the top: an arithmetic shift, which is
       * what GCC and Clang do with a negative signed number. */
      guint64 lo = e[((gssize) p - 1) >> 2].key;
      guint64 hi01 = MIN (e[c].key, e[c + 1].key);
      guint64 hi23 = MIN (e[c + 2].key, e[c + 3].key);

      /* `&` rather than `&&`: both halves are safe to evaluate, and the
       * order of the tests is left to the compiler. */
      if (G_LIKELY ((lo < key) & (key < MIN (hi01, hi23))))
        {
          e[p].key = key;
          return TRUE;
        }
    }
  return FALSE;
}

static inline void
qd_heap_update (QdHeap *heap,
                guint   id,
                double  t)
{
  if (G_LIKELY (qd_heap_update_in_place (heap->entries, heap->pos, heap->n,
                                         id, t)))
    return;
  qd_heap_update_slow (heap, id, t);
}

/* The time of @id, QD_INF when it is not in the heap. */
static inline double
qd_heap_get_time (const QdHeap *heap,
                  guint         id)
{
  guint32 p = heap->pos[id];

  return p == QD_HEAP_ABSENT ? QD_INF : qd_heap_key_time (heap->entries[p].key);
}

G_END_DECLS

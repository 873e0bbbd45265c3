/* qd-reference-heap.h: the schedule of the hand-written LC line solvers
 *
 * An indexed 4-ary min-heap of (time, slot), ordered by time then slot:
 * the engine orders simultaneous events by block priority, and in the
 * benchmark's diagram (pulse, then dx1, x1, dx2, x2, ...) that is the
 * pulse first, then the states in order. An entry is 16 bytes, so the
 * four children of a node fill one line; the positions are a separate
 * array of 4-byte indices, 16 to a line, so that the writes of a sift
 * (one per level, to slots scattered over the line) stay in a small,
 * cache-resident array instead of the solvers' state records. Passive
 * states stay in the heap at +inf: n entries always, no insertions or
 * removals.
 *
 * Header-only and static inline: the solvers' loops inline every call.
 * Shared by qd-reference-lcline-solver.c (QSS2),
 * qd-reference-lcline3-solver.c (QSS3) and
 * qd-reference-lcline-liqss2-solver.c (LIQSS2). Not installed.
 */
#pragma once

#include <string.h>

#include <glib.h>

G_BEGIN_DECLS

/* The id in the low half and the time's bits in the high half: read as
 * one 128-bit number, (time, slot) compares in one integer comparison.
 * Times are never negative here, and the bits of a non-negative double
 * grow with it (+inf included, above every finite time). */
typedef struct
{
  guint64 id;
  guint64 key;
} QdRefEntry;

typedef unsigned __int128 QdRefOrder;

typedef struct
{
  QdRefEntry *entries;  /* n entries, then 4 of padding */
  QdRefEntry *block;    /* the allocation holding them */
  guint32    *pos;      /* pos[slot]: the slot's index in entries */
  guint       n;
} QdRefHeap;

#define QD_REF_KEY_PAD G_MAXUINT64   /* the padding past the last entry */

static inline guint64
qd_ref_key_of (double t)
{
  guint64 k;

  memcpy (&k, &t, sizeof k);
  return k;
}

static inline double
qd_ref_time_of (guint64 k)
{
  double t;

  memcpy (&t, &k, sizeof t);
  return t;
}

static inline QdRefOrder
qd_ref_order_of (const QdRefEntry *e)
{
  return ((QdRefOrder) e->key << 64) | e->id;
}

/* A heap of @n entries for the slots 1..n (pos has room for n + 2
 * slots); the entries are for the caller to fill, then to make a heap
 * with qd_ref_heap_build(). */
static inline void
qd_ref_heap_init (QdRefHeap *heap,
                  guint      n)
{
  heap->n = n;
  /* The root alone, then groups of four children from index 1: shifted
   * by three entries, every group starts on a 64-byte line. */
  heap->block = g_aligned_alloc (n + 8, sizeof (QdRefEntry), 64);
  heap->entries = heap->block + 3;
  for (guint k = n; k < n + 4; k++)
    heap->entries[k] = (QdRefEntry) { G_MAXUINT32, QD_REF_KEY_PAD };
  heap->pos = g_new0 (guint32, n + 2);
}

static inline void
qd_ref_heap_clear (QdRefHeap *heap)
{
  g_aligned_free (heap->block);
  g_free (heap->pos);
}

/* The index of the earliest of the four children from @c. The group is
 * padded to four past the last entry, so it is compared whole, by a
 * tournament whose outcome is a coin toss: the winners are chosen by
 * masks, not branches, which would mispredict half of the time. */
static inline guint
qd_ref_earliest_child (const QdRefEntry *h,
                       guint             c)
{
  guint k01 = c + (qd_ref_order_of (&h[c + 1]) < qd_ref_order_of (&h[c]));
  guint k23 = c + 2 + (qd_ref_order_of (&h[c + 3]) < qd_ref_order_of (&h[c + 2]));
  guint later = -(guint) (qd_ref_order_of (&h[k23]) < qd_ref_order_of (&h[k01]));

  return k01 ^ ((k01 ^ k23) & later);
}

/* Puts @e at the hole @p, or below it where its children are earlier. */
static inline void
qd_ref_heap_sift_down (QdRefHeap  *heap,
                       guint       p,
                       QdRefEntry  e)
{
  QdRefEntry *h = heap->entries;
  guint32 *pos = heap->pos;
  guint n = heap->n;
  QdRefOrder oe = qd_ref_order_of (&e);

  for (guint c = 4 * p + 1; c < n; c = 4 * p + 1)
    {
      guint k = qd_ref_earliest_child (h, c);

      if (!(qd_ref_order_of (&h[k]) < oe))
        break;
      h[p] = h[k];
      pos[h[p].id] = p;
      p = k;
    }
  h[p] = e;
  pos[e.id] = p;
}

static inline void
qd_ref_heap_sift_up (QdRefHeap  *heap,
                     guint       p,
                     QdRefEntry  e)
{
  QdRefEntry *h = heap->entries;
  guint32 *pos = heap->pos;
  QdRefOrder oe = qd_ref_order_of (&e);

  while (p > 0)
    {
      guint a = (p - 1) / 4;

      if (!(oe < qd_ref_order_of (&h[a])))
        break;
      h[p] = h[a];
      pos[h[p].id] = p;
      p = a;
    }
  h[p] = e;
  pos[e.id] = p;
}

/* Entry k holds slot k + 1, as the solvers' starts fill them: the
 * positions, then the heap order, bottom up. */
static inline void
qd_ref_heap_build (QdRefHeap *heap)
{
  guint n = heap->n;

  for (guint k = 0; k < n; k++)
    heap->pos[k + 1] = k;
  for (guint p = n > 1 ? (n - 2) / 4 + 1 : 0; p-- > 0;)
    qd_ref_heap_sift_down (heap, p, heap->entries[p]);
}

/* The top replaced by @e, whose time is later (the fired state's next
 * requantization): Floyd's sift, the hole first sunk to a leaf along the
 * earliest children, then @e raised from there. A time pushed into the
 * future from the top usually belongs near the bottom, so the way down
 * needs no comparison with @e, and its length (the depth of the tree, to
 * within one) is what the loop's branch predicts. */
static inline void
qd_ref_heap_replace_top (QdRefHeap  *heap,
                         QdRefEntry  e)
{
  QdRefEntry *h = heap->entries;
  guint32 *pos = heap->pos;
  guint n = heap->n, p = 0;

  for (guint c = 1; c < n; c = 4 * p + 1)
    {
      guint k = qd_ref_earliest_child (h, c);

      h[p] = h[k];
      pos[h[p].id] = p;
      p = k;
    }
  qd_ref_heap_sift_up (heap, p, e);
}

/* Slot @id's next event is now at @t. */
static inline void
qd_ref_heap_update (QdRefHeap *heap,
                    guint      id,
                    double     t)
{
  guint p = heap->pos[id];
  QdRefEntry e = { id, qd_ref_key_of (t) };

  if (p > 0 && qd_ref_order_of (&e) < qd_ref_order_of (&heap->entries[(p - 1) / 4]))
    qd_ref_heap_sift_up (heap, p, e);
  else
    qd_ref_heap_sift_down (heap, p, e);
}

G_END_DECLS

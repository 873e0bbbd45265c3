/* qd-vector-heap.h: an indexed min-heap of element indices, for the
 * native vector blocks (qd-block-vector-integrator.c,
 * qd-block-vector-wsum.c). Not installed.
 *
 * Element i is ordered by (key[i], i): by time, and at equal times by
 * index, as the event loop orders the expanded model's scalar blocks by
 * (time, priority); without keys, by index alone. pos[i] is i's place in
 * the heap, or QD_VECTOR_HEAP_OUT, so that a changed key is moved up or
 * down in place (decrease-key), never inserted twice.
 *
 * Why not the event loop's QdHeap (engine/qd-heap.h): that one is the
 * engine's private structure, which blocks do not see, and it keeps a
 * 16-byte entry per id for its 4-ary tournament; here 8 bytes an element
 * (place and position) over keys the vector block keeps anyway, its
 * elements' next times, count toward the ~250 bytes per state of a
 * native vector, and a Weighted Sum's pending elements need no key.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define QD_VECTOR_HEAP_OUT G_MAXUINT32

typedef struct
{
  guint32      *heap;    /* element indices, heap order */
  guint32      *pos;     /* by element: place in heap, or _OUT */
  const double *key;     /* by element, or NULL */
  guint         len;
} QdVectorHeap;

static inline gboolean
qd_vector_heap_less (const QdVectorHeap *h,
                     guint32             a,
                     guint32             b)
{
  if (h->key != NULL && h->key[a] != h->key[b])
    return h->key[a] < h->key[b];
  return a < b;
}

static inline void
qd_vector_heap_place (QdVectorHeap *h,
                      guint         at,
                      guint32       el)
{
  h->heap[at] = el;
  h->pos[el] = at;
}

static inline void
qd_vector_heap_up (QdVectorHeap *h,
                   guint         at)
{
  guint32 el = h->heap[at];

  while (at > 0)
    {
      guint parent = (at - 1) / 2;

      if (!qd_vector_heap_less (h, el, h->heap[parent]))
        break;
      qd_vector_heap_place (h, at, h->heap[parent]);
      at = parent;
    }
  qd_vector_heap_place (h, at, el);
}

static inline void
qd_vector_heap_down (QdVectorHeap *h,
                     guint         at)
{
  guint32 el = h->heap[at];

  for (;;)
    {
      guint child = 2 * at + 1;

      if (child >= h->len)
        break;
      if (child + 1 < h->len
          && qd_vector_heap_less (h, h->heap[child + 1], h->heap[child]))
        child++;
      if (!qd_vector_heap_less (h, h->heap[child], el))
        break;
      qd_vector_heap_place (h, at, h->heap[child]);
      at = child;
    }
  qd_vector_heap_place (h, at, el);
}

/* Puts @el in, or moves it to its place after its key changed. */
static inline void
qd_vector_heap_update (QdVectorHeap *h,
                       guint32       el)
{
  guint at = h->pos[el];

  if (at == QD_VECTOR_HEAP_OUT)
    {
      at = h->len++;
      qd_vector_heap_place (h, at, el);
      qd_vector_heap_up (h, at);
      return;
    }
  qd_vector_heap_up (h, at);
  qd_vector_heap_down (h, h->pos[el]);
}

/* Takes the least element out; the heap must not be empty. */
static inline guint32
qd_vector_heap_pop (QdVectorHeap *h)
{
  guint32 top = h->heap[0];

  h->pos[top] = QD_VECTOR_HEAP_OUT;
  if (--h->len > 0)
    {
      qd_vector_heap_place (h, 0, h->heap[h->len]);
      qd_vector_heap_down (h, 0);
    }
  return top;
}

G_END_DECLS

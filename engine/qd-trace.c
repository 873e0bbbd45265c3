/* qd-trace.c: append-only trace stores with one writer and lock-free readers
 *
 * Segments live in chunks of growing size: chunk k holds FIRST << k
 * segments, so index i is in chunk k = floor(log2(i / FIRST + 1)). The
 * chunk pointers live in a directory of fixed size inside the trace, which
 * never moves: a reader never sees a reallocation, and the writer never
 * copies old segments or waits for anybody.
 *
 * Publication: the writer first fills the slot (and, for the first slot of
 * a chunk, stores the chunk pointer), then stores the new length with
 * release semantics. A reader loads the length with acquire semantics;
 * every slot and chunk pointer below that length was written before it,
 * and none of them changes afterwards, so plain reads are safe.
 */
#include "qd-trace.h"

#include <string.h>

#if defined(__has_include)
# if __has_include(<valgrind/helgrind.h>)
/* Tells helgrind about the release/acquire pair on the length, which it
 * cannot see by itself; a few no-op instructions outside valgrind. */
#  include <valgrind/helgrind.h>
#  define QD_HAPPENS_BEFORE(obj) ANNOTATE_HAPPENS_BEFORE (obj)
#  define QD_HAPPENS_AFTER(obj)  ANNOTATE_HAPPENS_AFTER (obj)
/* Helgrind does not model atomic operations: the atomic fields themselves
 * are excluded from its checks (the annotations above carry the ordering). */
#  define QD_ATOMIC_FIELD(field) \
  ANNOTATE_BENIGN_RACE_SIZED (&(field), sizeof (field), "atomic")
# endif
#endif
#ifndef QD_HAPPENS_BEFORE
# define QD_HAPPENS_BEFORE(obj) ((void) 0)
# define QD_HAPPENS_AFTER(obj)  ((void) 0)
# define QD_ATOMIC_FIELD(field) ((void) 0)
#endif

#define FIRST_SHIFT 10
#define FIRST_CHUNK ((gsize) 1 << FIRST_SHIFT)
/* 1024 * (2^40 - 1) segments: more than any memory can hold. */
#define MAX_CHUNKS  40

struct _QdTrace
{
  gint       ref_count;
  char      *name;
  gsize      length;              /* published with release stores */
  gint       closed;              /* likewise */
  double     end_time;            /* written before closed is set */
  /* Writer-private cursor: where the next segment goes. */
  QdSignal  *cur_chunk;
  gsize      cur_left;
  QdSignal  *chunks[MAX_CHUNKS];  /* the fixed directory */
};

QdTrace *
qd_trace_new (const char *name)
{
  QdTrace *trace = g_new0 (QdTrace, 1);

  trace->ref_count = 1;
  trace->name = g_strdup (name != NULL ? name : "");
  QD_ATOMIC_FIELD (trace->length);
  QD_ATOMIC_FIELD (trace->closed);
  return trace;
}

QdTrace *
qd_trace_ref (QdTrace *trace)
{
  g_return_val_if_fail (trace != NULL, NULL);
  g_atomic_int_inc (&trace->ref_count);
  return trace;
}

void
qd_trace_unref (QdTrace *trace)
{
  if (trace == NULL || !g_atomic_int_dec_and_test (&trace->ref_count))
    return;
  for (guint k = 0; k < MAX_CHUNKS; k++)
    g_free (trace->chunks[k]);
  g_free (trace->name);
  g_free (trace);
}

const char *
qd_trace_get_name (QdTrace *trace)
{
  return trace->name;
}

static inline guint
chunk_of (gsize  index,
          gsize *offset)
{
  gsize q = (index >> FIRST_SHIFT) + 1;
  guint k = (guint) (63 - __builtin_clzll ((unsigned long long) q));

  *offset = index - ((((gsize) 1 << k) - 1) << FIRST_SHIFT);
  return k;
}

void
qd_trace_append (QdTrace        *trace,
                 const QdSignal *segment)
{
  gsize n = trace->length;   /* only this thread writes it */

  if (G_UNLIKELY (trace->cur_left == 0))
    {
      gsize offset;
      guint k = chunk_of (n, &offset);

      g_return_if_fail (k < MAX_CHUNKS);
      /* Not zeroed: every slot is written before it is published. */
      trace->chunks[k] = g_new (QdSignal, FIRST_CHUNK << k);
      trace->cur_chunk = trace->chunks[k];
      trace->cur_left = FIRST_CHUNK << k;
    }
  *trace->cur_chunk++ = *segment;
  trace->cur_left--;
  QD_HAPPENS_BEFORE (&trace->length);
  __atomic_store_n (&trace->length, n + 1, __ATOMIC_RELEASE);
}

void
qd_trace_close (QdTrace *trace,
                double   end_time)
{
  trace->end_time = end_time;
  QD_HAPPENS_BEFORE (&trace->closed);
  __atomic_store_n (&trace->closed, 1, __ATOMIC_RELEASE);
}

gsize
qd_trace_get_length (QdTrace *trace)
{
  gsize n = __atomic_load_n (&trace->length, __ATOMIC_ACQUIRE);

  QD_HAPPENS_AFTER (&trace->length);
  return n;
}

const QdSignal *
qd_trace_get (QdTrace *trace,
              gsize    index)
{
  gsize offset;
  guint k = chunk_of (index, &offset);

  return &trace->chunks[k][offset];
}

gboolean
qd_trace_is_closed (QdTrace *trace,
                    double  *end_time)
{
  if (!__atomic_load_n (&trace->closed, __ATOMIC_ACQUIRE))
    return FALSE;
  QD_HAPPENS_AFTER (&trace->closed);
  if (end_time != NULL)
    *end_time = trace->end_time;
  return TRUE;
}

gssize
qd_trace_find (QdTrace *trace,
               gsize    length,
               double   t)
{
  gsize lo = 0, hi = length;

  /* The first index whose segment starts after t; the answer is the one
   * before it. Segments are in time order (equal times allowed: the last
   * of them is the one in force). */
  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (qd_trace_get (trace, mid)->t <= t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return (gssize) lo - 1;
}

double
qd_trace_eval (QdTrace *trace,
               double   t)
{
  gsize length = qd_trace_get_length (trace);
  gssize k = qd_trace_find (trace, length, t);

  if (k < 0)
    return NAN;
  return qd_signal_eval (qd_trace_get (trace, (gsize) k), t);
}

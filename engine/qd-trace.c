/* qd-trace.c: append-only trace stores with one writer and lock-free
 * readers, held within a memory budget by decimating their oldest part
 *
 * Storage. Segments live in chunks: chunks 0 and 1 hold 1024 and 2048
 * segments (a trace of a few events stays small), every later chunk 4096
 * (192 KiB), so that a budget can drop old data in small steps. Chunk
 * pointers live in pages of 1024, and the page pointers in a ring of 1024
 * slots inside the trace: neither ever moves, so a reader never sees a
 * reallocation, and the writer never copies old segments or waits. The
 * ring holds 4 billion segments at once; with a budget, slots are reused
 * once their page is freed.
 *
 * Page faults. A new chunk asks the kernel for all its pages at once
 * (MADV_POPULATE_WRITE) instead of taking a fault per 4 KiB page as it
 * fills; with a budget, the last full-size chunk freed is kept as the
 * budget's spare and becomes the next new chunk, so a run held within
 * its budget stops asking for fresh memory.
 *
 * Publication: the writer first fills the slot (and, for the first slot
 * of a chunk, stores the chunk pointer), then stores the new length with
 * release semantics. A reader loads the length with acquire semantics;
 * every slot and chunk pointer below that length was written before it.
 *
 * The budget. When a new chunk takes the bytes held by the traces of a
 * budget past its limit, the writer decimates the oldest chunk among them
 * (never one of the newest two of a trace): it appends one QdTraceBucket
 * per 64 segments to the trace's history, publishes the history, then
 * moves `first` past the chunk, and retires it. The history is an array
 * with spare room, appended in place below a published count, and
 * replaced by a new array when it is full: by a larger one, or, once it
 * reaches its share of the budget (a sixteenth of the limit split over the
 * traces), by one where neighbouring buckets are merged pairwise.
 *
 * Reclamation: a retired chunk or history may still be under a reader
 * that loaded `first` before it moved. Readers announce themselves in one
 * of two atomic counts, the one of the current epoch (read_begin returns
 * which, read_end takes it back). What the writer retires joins the batch
 * of the current epoch. When the previous batch is freed, the writer
 * flips the epoch, so the current batch becomes the previous one, and it
 * frees that batch once the previous epoch's count is found at zero:
 * readers that came in since count in the other epoch, and they loaded
 * `first` after it moved past everything in the batch. A reader that
 * loaded the epoch just before a flip checks it again after counting
 * itself in, and moves over if it changed. Counts, epoch and `first` use
 * sequentially consistent operations, so the writer cannot miss a reader
 * that could still see the batch. A reader that reads all the time keeps
 * at most two batches alive, never a growing heap. The writer tries at
 * every chunk and when the trace closes, and only ever loads the counts:
 * it never waits. What is left at the end goes with the trace.
 */
#include "qd-trace.h"

#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#if defined(__has_include)
# if __has_include(<valgrind/helgrind.h>)
/* Tells helgrind about the release/acquire pairs (length, first and the
 * history; the reader count before freeing), which it cannot see by
 * itself; a few no-op instructions outside valgrind. */
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

#define FIRST_SHIFT   10
#define GROW_CHUNKS   2
#define CHUNK_SHIFT   (FIRST_SHIFT + GROW_CHUNKS)
#define CHUNK_SIZE    ((gsize) 1 << CHUNK_SHIFT)
/* Segments in the growing chunks 0 .. GROW_CHUNKS - 1: 1024 + 2048. */
#define GROW_SEGMENTS ((((gsize) 1 << GROW_CHUNKS) - 1) << FIRST_SHIFT)
#define PAGE_SHIFT    10
#define PAGE_SIZE     ((gsize) 1 << PAGE_SHIFT)
#define N_PAGES       1024

/* The history of a trace outgrows its array at this size at the least,
 * and merges at most at this many buckets, whatever the budget. */
#define HISTORY_MIN   256
#define HISTORY_MAX   ((gsize) 1 << 16)

typedef struct _History History;

struct _History
{
  gsize          n;              /* published with release stores */
  gsize          cap;
  History       *retired_next;   /* writer-private: in a batch to free */
  QdTraceBucket  b[];
};

struct _QdTrace
{
  gint           ref_count;
  char          *name;
  gsize          length;          /* published with release stores */
  gsize          first;           /* likewise: oldest index still held */
  History       *history;         /* likewise */
  gint           closed;          /* likewise */
  gint           readers[2];      /* readers inside begin/end, per epoch */
  guint          epoch;
  gsize          bytes;           /* relaxed: for statistics */
  double         end_time;        /* written before closed is set */
  double         start_time;      /* written before length is first set */
  QdTraceBudget *budget;

  /* Writer-private. */
  QdSignal      *cur_chunk;       /* where the next segment goes */
  gsize          cur_left;
  gboolean       discard;         /* qd_trace_set_discard(): store nothing */
  gsize          held;            /* bytes, less the retired ones */
  gsize          n_chunks;        /* chunks allocated so far */
  gsize          drop_next;       /* chunks below this are dropped */
  gsize          free_next;       /* ... and below this freed */
  gsize          old_end;         /* the previous batch: chunks below */
  History       *old_retired;     /* ... and these histories */
  History       *retired;         /* the current batch's histories */
  QdSignal     **pages[N_PAGES];  /* the ring of chunk directories */
};

struct _QdTraceBudget
{
  gint           ref_count;
  gsize          limit;
  gsize          used;            /* relaxed: real bytes, for statistics */
  gsize          peak;            /* likewise */
  gsize          held;            /* bytes not retired (writer's figure) */
  GPtrArray     *traces;          /* QdTrace*, not owned */
  /* Writer-private: a freed full-size chunk kept for the next new one,
   * so that a run beyond its budget reuses memory it already has instead
   * of faulting in fresh pages (not counted: it is the allocator's). */
  QdSignal      *spare;
  /* Guards changes of traces: adding (before the writer starts) and
   * finalizing (after it stopped, from any thread). The writer reads the
   * list without it. */
  GMutex         lock;
};

/* -------------------------------------------------------------------- */
/* Chunk arithmetic */

static inline gsize
chunk_size (gsize k)
{
  return k < GROW_CHUNKS ? (gsize) 1 << (FIRST_SHIFT + k) : CHUNK_SIZE;
}

static inline gsize
chunk_start (gsize k)
{
  if (k < GROW_CHUNKS)
    return (((gsize) 1 << k) - 1) << FIRST_SHIFT;
  return GROW_SEGMENTS + ((k - GROW_CHUNKS) << CHUNK_SHIFT);
}

static inline gsize
chunk_of (gsize  index,
          gsize *offset)
{
  if (G_LIKELY (index >= GROW_SEGMENTS))
    {
      gsize j = index - GROW_SEGMENTS;

      *offset = j & (CHUNK_SIZE - 1);
      return GROW_CHUNKS + (j >> CHUNK_SHIFT);
    }
  else
    {
      gsize q = (index >> FIRST_SHIFT) + 1;
      gsize k = (gsize) (63 - __builtin_clzll ((unsigned long long) q));

      *offset = index - ((((gsize) 1 << k) - 1) << FIRST_SHIFT);
      return k;
    }
}

static inline QdSignal **
page_slot (QdTrace *trace,
           gsize    k)
{
  return trace->pages[(k >> PAGE_SHIFT) & (N_PAGES - 1)];
}

static inline gsize
history_bytes (gsize cap)
{
  return sizeof (History) + cap * sizeof (QdTraceBucket);
}

/* -------------------------------------------------------------------- */
/* Accounting (writer side) */

static void
account (QdTrace *trace,
         gssize   delta,
         gssize   held_delta)
{
  QdTraceBudget *budget = trace->budget;

  __atomic_store_n (&trace->bytes, trace->bytes + (gsize) delta, __ATOMIC_RELAXED);
  trace->held += (gsize) held_delta;
  if (budget != NULL)
    {
      gsize used = __atomic_add_fetch (&budget->used, (gsize) delta, __ATOMIC_RELAXED);

      /* Atomic only for the frees a reader makes after a close. */
      __atomic_add_fetch (&budget->held, (gsize) held_delta, __ATOMIC_RELAXED);
      if (used > __atomic_load_n (&budget->peak, __ATOMIC_RELAXED))
        __atomic_store_n (&budget->peak, used, __ATOMIC_RELAXED);
    }
}

/* Frees the chunks below @end (all retired). On the writer's thread
 * (@writer), a full-size one may become its budget's spare instead. */
static void
free_chunks (QdTrace  *trace,
             gsize     end,
             gboolean  writer)
{
  for (; trace->free_next < end; trace->free_next++)
    {
      gsize k = trace->free_next;
      QdSignal **page = page_slot (trace, k);

      if (writer && trace->budget != NULL && trace->budget->spare == NULL
          && chunk_size (k) == CHUNK_SIZE)
        trace->budget->spare = page[k & (PAGE_SIZE - 1)];
      else
        g_free (page[k & (PAGE_SIZE - 1)]);
      page[k & (PAGE_SIZE - 1)] = NULL;
      account (trace, -(gssize) (chunk_size (k) * sizeof (QdSignal)), 0);
      if ((k & (PAGE_SIZE - 1)) == PAGE_SIZE - 1)
        {
          /* The whole page is gone: its ring slot can be reused. */
          g_free (page);
          trace->pages[(k >> PAGE_SHIFT) & (N_PAGES - 1)] = NULL;
          account (trace, -(gssize) (PAGE_SIZE * sizeof (QdSignal *)),
                   -(gssize) (PAGE_SIZE * sizeof (QdSignal *)));
        }
    }
}

static void
free_histories (QdTrace  *trace,
                History **list)
{
  while (*list != NULL)
    {
      History *h = *list;

      *list = h->retired_next;
      account (trace, -(gssize) history_bytes (h->cap), 0);
      g_free (h);
    }
}

/* -------------------------------------------------------------------- */
/* Life cycle */

QdTrace *
qd_trace_new (const char *name)
{
  QdTrace *trace = g_new0 (QdTrace, 1);

  trace->ref_count = 1;
  trace->name = g_strdup (name != NULL ? name : "");
  trace->start_time = NAN;
  trace->bytes = trace->held = sizeof (QdTrace);
  QD_ATOMIC_FIELD (trace->length);
  QD_ATOMIC_FIELD (trace->first);
  QD_ATOMIC_FIELD (trace->history);
  QD_ATOMIC_FIELD (trace->closed);
  QD_ATOMIC_FIELD (trace->readers[0]);
  QD_ATOMIC_FIELD (trace->readers[1]);
  QD_ATOMIC_FIELD (trace->epoch);
  QD_ATOMIC_FIELD (trace->bytes);
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

  /* Nobody reads or writes any more: everything goes. */
  for (gsize k = trace->free_next; k < trace->n_chunks; k++)
    g_free (page_slot (trace, k)[k & (PAGE_SIZE - 1)]);
  for (guint p = 0; p < N_PAGES; p++)
    g_free (trace->pages[p]);
  free_histories (trace, &trace->old_retired);
  free_histories (trace, &trace->retired);
  g_free (trace->history);
  if (trace->budget != NULL)
    {
      QdTraceBudget *budget = trace->budget;

      /* The writer held a reference while it wrote: it is done with
       * the list, but another trace may be finalized on another thread. */
      g_mutex_lock (&budget->lock);
      g_ptr_array_remove_fast (budget->traces, trace);
      g_mutex_unlock (&budget->lock);
      account (trace, -(gssize) trace->bytes, -(gssize) trace->held);
      qd_trace_budget_unref (budget);
    }
  g_free (trace->name);
  g_free (trace);
}

const char *
qd_trace_get_name (QdTrace *trace)
{
  return trace->name;
}

/* -------------------------------------------------------------------- */
/* Decimation (writer side) */

void
qd_signal_range (const QdSignal *segment,
                 double          ta,
                 double          tb,
                 double         *min,
                 double         *max)
{
  double fa = qd_signal_eval (segment, ta);
  double fb = qd_signal_eval (segment, tb);
  double lo = MIN (fa, fb), hi = MAX (fa, fb);
  double c1 = segment->c[1], c2 = segment->c[2], c3 = segment->c[3];

  /* Inside the interval a polynomial can only turn where its derivative
   * c1 + 2 c2 s + 3 c3 s^2 vanishes: at most two points for a cubic. */
  if (c2 != 0.0 || c3 != 0.0)
    {
      double sa = ta - segment->t, sb = tb - segment->t;
      double roots[2];
      int n_roots = 0;

      if (c3 == 0.0)
        roots[n_roots++] = -c1 / (2.0 * c2);
      else
        {
          double a = 3.0 * c3, b = 2.0 * c2, c = c1;
          double disc = b * b - 4.0 * a * c;

          if (disc >= 0.0)
            {
              /* The cancellation-free pair of quadratic roots. */
              double q = -0.5 * (b + copysign (sqrt (disc), b));

              if (q != 0.0)
                {
                  roots[n_roots++] = q / a;
                  roots[n_roots++] = c / q;
                }
              else
                roots[n_roots++] = 0.0;
            }
        }
      for (int k = 0; k < n_roots; k++)
        if (roots[k] > sa && roots[k] < sb)
          {
            double v = qd_signal_eval (segment, segment->t + roots[k]);

            lo = MIN (lo, v);
            hi = MAX (hi, v);
          }
    }
  *min = lo;
  *max = hi;
}

/* The bucket of segments [i, i + n), the one at i + n existing. */
static void
make_bucket (QdTrace       *trace,
             gsize          i,
             gsize          n,
             QdTraceBucket *b)
{
  const QdSignal *seg = qd_trace_get (trace, i);

  b->t0 = seg->t;
  b->first = qd_signal_eval (seg, seg->t);
  b->min = INFINITY;
  b->max = -INFINITY;
  for (gsize j = i; j < i + n; j++)
    {
      const QdSignal *next = qd_trace_get (trace, j + 1);
      double lo, hi;

      qd_signal_range (seg, seg->t, next->t, &lo, &hi);
      b->min = MIN (b->min, lo);
      b->max = MAX (b->max, hi);
      if (j + 1 == i + n)
        {
          b->t1 = next->t;
          b->last = qd_signal_eval (seg, next->t);
        }
      seg = next;
    }
}

static History *
history_new (gsize cap)
{
  History *h = g_malloc (history_bytes (cap));

  h->n = 0;
  h->cap = cap;
  h->retired_next = NULL;
  QD_ATOMIC_FIELD (h->n);
  return h;
}

/* Room for @extra more buckets in the history: in place when there is
 * spare room, else in a new array (merging pairs when the history reached
 * @limit buckets) that replaces the published one. Returns the array to
 * append to. */
static History *
history_reserve (QdTrace *trace,
                 gsize    extra,
                 gsize    limit)
{
  History *old = trace->history;
  gsize n = old != NULL ? old->n : 0;
  History *h;

  if (old != NULL && n + extra <= old->cap)
    return old;

  if (n + extra <= limit)
    {
      gsize cap = MAX (HISTORY_MIN, old != NULL ? 2 * old->cap : 0);

      h = history_new (CLAMP (cap, n + extra, MAX (limit, n + extra)));
      if (n > 0)
        memcpy (h->b, old->b, n * sizeof (QdTraceBucket));
      h->n = n;
    }
  else
    {
      const QdTraceBucket *src = old->b;
      gsize m = n;

      /* Halve the resolution until the new buckets fit: older history
       * ends up coarser than newer. */
      h = history_new (MAX (MAX (limit, extra), (n + 1) / 2 + extra));
      if (m + extra <= h->cap)
        memcpy (h->b, src, m * sizeof (QdTraceBucket));
      while (m + extra > h->cap)
        {
          gsize k = 0;

          for (gsize j = 0; j < m; j += 2, k++)
            {
              QdTraceBucket b = src[j];

              if (j + 1 < m)
                {
                  b.t1 = src[j + 1].t1;
                  b.min = MIN (b.min, src[j + 1].min);
                  b.max = MAX (b.max, src[j + 1].max);
                  b.last = src[j + 1].last;
                }
              h->b[k] = b;
            }
          src = h->b;
          m = k;
        }
      h->n = m;
    }
  account (trace, (gssize) history_bytes (h->cap), (gssize) history_bytes (h->cap));
  if (old != NULL)
    {
      old->retired_next = trace->retired;
      trace->retired = old;
      account (trace, 0, -(gssize) history_bytes (old->cap));
    }
  return h;
}

/* The most buckets one history array of a trace of @budget may hold. */
static gsize
history_limit (QdTraceBudget *budget)
{
  gsize limit = budget->limit / 16 / MAX (budget->traces->len, 1) / sizeof (QdTraceBucket);

  return CLAMP (limit, HISTORY_MIN, HISTORY_MAX);
}

/* Replaces the oldest held chunk of @trace by history. */
static void
drop_chunk (QdTrace *trace)
{
  QdTraceBudget *budget = trace->budget;
  gsize k = trace->drop_next;
  gsize start = chunk_start (k), size = chunk_size (k);
  gsize extra = size / QD_TRACE_BUCKET_SEGMENTS;
  History *h = history_reserve (trace, extra, history_limit (budget));
  for (gsize j = 0; j < extra; j++)
    make_bucket (trace, start + j * QD_TRACE_BUCKET_SEGMENTS,
                 QD_TRACE_BUCKET_SEGMENTS, &h->b[h->n + j]);

  /* History first, then first: a reader that sees the new first sees a
   * history that covers what it lost. */
  QD_HAPPENS_BEFORE (&trace->first);
  __atomic_store_n (&h->n, h->n + extra, __ATOMIC_RELEASE);
  if (h != trace->history)
    __atomic_store_n (&trace->history, h, __ATOMIC_RELEASE);
  __atomic_store_n (&trace->first, start + size, __ATOMIC_SEQ_CST);

  trace->drop_next = k + 1;
  account (trace, 0, -(gssize) (size * sizeof (QdSignal)));
}

/* Frees the previous batch once no reader of the previous epoch is left;
 * then, if the current batch has something, makes it the previous one
 * and flips the epoch. Flipping only when the previous epoch is empty
 * matters even with nothing to free: a reader two epochs old could still
 * see what the new previous batch holds. */
static void
try_free (QdTrace  *trace,
          gboolean  writer)
{
  for (int round = 0; round < 2; round++)
    {
      gint *count;

      if (trace->free_next == trace->drop_next && trace->retired == NULL
          && trace->old_retired == NULL)
        return;
      count = &trace->readers[(trace->epoch - 1) & 1];
      /* Pairs with the reader's count-then-load: see the top. */
      if (__atomic_load_n (count, __ATOMIC_SEQ_CST) != 0)
        return;
      QD_HAPPENS_AFTER (count);
      free_chunks (trace, trace->old_end, writer);
      free_histories (trace, &trace->old_retired);
      if (trace->old_end == trace->drop_next && trace->retired == NULL)
        return;
      /* Everything in the current batch was retired before this store. */
      trace->old_end = trace->drop_next;
      trace->old_retired = trace->retired;
      trace->retired = NULL;
      __atomic_store_n (&trace->epoch, trace->epoch + 1, __ATOMIC_SEQ_CST);
    }
}

/* Before @trace allocates @needed bytes: drops the oldest chunks of the
 * budget's traces until they fit. Retired storage is freed at once when
 * no reader is inside; the margin of one history array covers the moment
 * a history is replaced, when the old and the new one both exist. */
static void
budget_enforce (QdTraceBudget *budget,
                QdTrace       *trace,
                gsize          needed)
{
  gsize margin = history_bytes (history_limit (budget));

  while (__atomic_load_n (&budget->held, __ATOMIC_RELAXED) + needed + margin > budget->limit)
    {
      QdTrace *victim = NULL;
      double oldest = INFINITY;

      for (guint i = 0; i < budget->traces->len; i++)
        {
          QdTrace *t = g_ptr_array_index (budget->traces, i);
          gsize n_chunks = t->n_chunks + (t == trace ? 1 : 0);
          double start;

          /* The newest two chunks stay: the one being written and the
           * one before it, so that every trace keeps a window of exact
           * data behind its latest event. */
          if (t->drop_next + 2 >= n_chunks)
            continue;
          start = qd_trace_get (t, chunk_start (t->drop_next))->t;
          if (victim == NULL || start < oldest)
            {
              victim = t;
              oldest = start;
            }
        }
      if (victim == NULL)
        break;
      drop_chunk (victim);
      try_free (victim, TRUE);
    }
  /* What a reader held up before. */
  for (guint i = 0; i < budget->traces->len; i++)
    try_free (g_ptr_array_index (budget->traces, i), TRUE);
}

/* -------------------------------------------------------------------- */
/* Writer */

/* Fresh memory costs a page fault per 4 KiB page at its first write (the
 * kernel finds and clears a page each time): 48 of them while a full
 * chunk fills, some 8 % of the writer's time in a long run. Asking for
 * all the chunk's pages at once costs one system call instead of 48
 * traps, about a fifth less in all; the clearing itself remains. Memory
 * that is already there (reused by malloc) makes it a cheap no-op, and a
 * kernel without MADV_POPULATE_WRITE (before Linux 5.14) refuses it:
 * then the pages fault in as before. */
static void
prefault (void  *mem,
          gsize  bytes)
{
#ifdef MADV_POPULATE_WRITE
  gsize page = (gsize) sysconf (_SC_PAGESIZE);
  guintptr a, b;

  if (bytes < 16 * page)
    return;
  a = ((guintptr) mem + page - 1) & ~(guintptr) (page - 1);
  b = ((guintptr) mem + bytes) & ~(guintptr) (page - 1);
  if (b > a)
    (void) madvise ((void *) a, b - a, MADV_POPULATE_WRITE);
#else
  (void) mem;
  (void) bytes;
#endif
}

static gboolean
new_chunk (QdTrace *trace)
{
  gsize k = trace->n_chunks;
  gsize size = chunk_size (k);
  QdSignal ***slot = &trace->pages[(k >> PAGE_SHIFT) & (N_PAGES - 1)];
  gboolean new_page = (k & (PAGE_SIZE - 1)) == 0;

  /* A discarding trace never gets a chunk: cur_left stays 0, and every
   * append ends here, on its rare path. */
  if (trace->discard)
    return FALSE;
  if (trace->budget != NULL)
    budget_enforce (trace->budget, trace,
                    size * sizeof (QdSignal) + (new_page ? PAGE_SIZE * sizeof (QdSignal *) : 0));
  if (new_page)
    {
      if (G_UNLIKELY (*slot != NULL))
        {
          /* Four billion segments held at once: no memory has that. */
          g_critical ("%s: the trace is full; segments are lost", trace->name);
          return FALSE;
        }
      *slot = g_new0 (QdSignal *, PAGE_SIZE);
      account (trace, (gssize) (PAGE_SIZE * sizeof (QdSignal *)),
               (gssize) (PAGE_SIZE * sizeof (QdSignal *)));
    }
  /* Not zeroed: every slot is written before it is published. A chunk
   * the budget just dropped is memory already there: reused, no page
   * faults at all. */
  if (size == CHUNK_SIZE && trace->budget != NULL && trace->budget->spare != NULL)
    {
      trace->cur_chunk = trace->budget->spare;
      trace->budget->spare = NULL;
    }
  else
    {
      trace->cur_chunk = g_new (QdSignal, size);
      prefault (trace->cur_chunk, size * sizeof (QdSignal));
    }
  (*slot)[k & (PAGE_SIZE - 1)] = trace->cur_chunk;
  trace->cur_left = size;
  trace->n_chunks = k + 1;
  account (trace, (gssize) (size * sizeof (QdSignal)), (gssize) (size * sizeof (QdSignal)));
  return TRUE;
}

void
qd_trace_append (QdTrace        *trace,
                 const QdSignal *segment)
{
  gsize n = trace->length;   /* only this thread writes it */

  if (G_UNLIKELY (trace->cur_left == 0) && !new_chunk (trace))
    return;
  if (G_UNLIKELY (n == 0))
    trace->start_time = segment->t;
  *trace->cur_chunk++ = *segment;
  trace->cur_left--;
  QD_HAPPENS_BEFORE (&trace->length);
  __atomic_store_n (&trace->length, n + 1, __ATOMIC_RELEASE);
}

void
qd_trace_set_discard (QdTrace *trace)
{
  g_return_if_fail (trace != NULL);
  g_return_if_fail (trace->n_chunks == 0);
  trace->discard = TRUE;
}

void
qd_trace_close (QdTrace *trace,
                double   end_time)
{
  try_free (trace, TRUE);
  trace->end_time = end_time;
  /* From here on the writer never touches the trace again: the last
   * reader to leave frees what this try could not (qd_trace_read_end). */
  QD_HAPPENS_BEFORE (&trace->closed);
  __atomic_store_n (&trace->closed, 1, __ATOMIC_RELEASE);
}

/* -------------------------------------------------------------------- */
/* Readers */

guint
qd_trace_read_begin (QdTrace *trace)
{
  for (;;)
    {
      guint epoch = __atomic_load_n (&trace->epoch, __ATOMIC_SEQ_CST);
      gint *count = &trace->readers[epoch & 1];

      __atomic_add_fetch (count, 1, __ATOMIC_SEQ_CST);
      /* Counted in before the flip, or the writer may not look here. */
      if (__atomic_load_n (&trace->epoch, __ATOMIC_SEQ_CST) == epoch)
        return epoch & 1;
      __atomic_sub_fetch (count, 1, __ATOMIC_SEQ_CST);
    }
}

void
qd_trace_read_end (QdTrace *trace,
                   guint    token)
{
  gint *count = &trace->readers[token & 1];

  /* Everything this reader did comes before the writer frees. */
  QD_HAPPENS_BEFORE (count);
  if (__atomic_sub_fetch (count, 1, __ATOMIC_SEQ_CST) == 0
      && G_UNLIKELY (__atomic_load_n (&trace->closed, __ATOMIC_ACQUIRE)))
    {
      static GMutex lock;

      /* The writer is gone: readers take its place for the frees it
       * left, one at a time (the lock is only ever taken here). */
      QD_HAPPENS_AFTER (&trace->closed);
      g_mutex_lock (&lock);
      try_free (trace, FALSE);
      g_mutex_unlock (&lock);
    }
}

gsize
qd_trace_get_first (QdTrace *trace)
{
  gsize first = __atomic_load_n (&trace->first, __ATOMIC_SEQ_CST);

  QD_HAPPENS_AFTER (&trace->first);
  return first;
}

const QdTraceBucket *
qd_trace_get_history (QdTrace *trace,
                      gsize   *n_buckets)
{
  History *h = __atomic_load_n (&trace->history, __ATOMIC_ACQUIRE);

  if (h == NULL)
    {
      *n_buckets = 0;
      return NULL;
    }
  *n_buckets = __atomic_load_n (&h->n, __ATOMIC_ACQUIRE);
  QD_HAPPENS_AFTER (&trace->first);
  return h->b;
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
  gsize k = chunk_of (index, &offset);

  return &page_slot (trace, k)[k & (PAGE_SIZE - 1)][offset];
}

const QdSignal *
qd_trace_get_run (QdTrace *trace,
                  gsize    index,
                  gsize    length,
                  gsize   *n_run)
{
  gsize offset;
  gsize k = chunk_of (index, &offset);

  /* A chunk is one allocation: the run goes to its end. */
  *n_run = MIN (chunk_size (k) - offset, length - index);
  return &page_slot (trace, k)[k & (PAGE_SIZE - 1)][offset];
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
  gsize first = qd_trace_get_first (trace);
  gsize lo = first, hi = length;

  /* A length read long before: the newest of those segments, if any is
   * in force, else nothing held. */
  if (first >= length)
    return length > 0 && qd_trace_get (trace, length - 1)->t <= t
           ? (gssize) length - 1 : (gssize) first - 1;

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
  double value = NAN;
  gsize first, length;
  gssize k;
  guint pin;

  pin = qd_trace_read_begin (trace);
  first = qd_trace_get_first (trace);
  length = qd_trace_get_length (trace);
  k = qd_trace_find (trace, length, t);
  if (k >= 0 && (gsize) k >= first)
    value = qd_signal_eval (qd_trace_get (trace, (gsize) k), t);
  qd_trace_read_end (trace, pin);
  return value;
}

double
qd_trace_get_start_time (QdTrace *trace)
{
  /* start_time is written before the first length is published. */
  return qd_trace_get_length (trace) > 0 ? trace->start_time : NAN;
}

double
qd_trace_get_last_time (QdTrace *trace)
{
  double t = NAN;
  gsize length;
  guint pin;

  pin = qd_trace_read_begin (trace);
  length = qd_trace_get_length (trace);
  /* The newest segment is in a chunk the writer keeps for two more
   * chunks, and the pin keeps it even then. */
  if (length > 0)
    t = qd_trace_get (trace, length - 1)->t;
  qd_trace_read_end (trace, pin);
  return t;
}

gboolean
qd_trace_get_dropped (QdTrace *trace,
                      double  *from,
                      double  *to)
{
  gboolean dropped = FALSE;
  gsize first, n;
  guint pin;

  pin = qd_trace_read_begin (trace);
  first = qd_trace_get_first (trace);
  if (first > 0)
    {
      const QdTraceBucket *b = qd_trace_get_history (trace, &n);

      dropped = TRUE;
      if (from != NULL)
        *from = n > 0 ? b[0].t0 : qd_trace_get_start_time (trace);
      if (to != NULL)
        *to = qd_trace_get (trace, first)->t;
    }
  qd_trace_read_end (trace, pin);
  return dropped;
}

gsize
qd_trace_get_bytes (QdTrace *trace)
{
  return __atomic_load_n (&trace->bytes, __ATOMIC_RELAXED);
}

/* -------------------------------------------------------------------- */
/* Budgets */

QdTraceBudget *
qd_trace_budget_new (gsize limit_bytes)
{
  QdTraceBudget *budget = g_new0 (QdTraceBudget, 1);

  budget->ref_count = 1;
  budget->limit = limit_bytes;
  budget->traces = g_ptr_array_new ();
  g_mutex_init (&budget->lock);
  QD_ATOMIC_FIELD (budget->used);
  QD_ATOMIC_FIELD (budget->peak);
  return budget;
}

QdTraceBudget *
qd_trace_budget_ref (QdTraceBudget *budget)
{
  g_return_val_if_fail (budget != NULL, NULL);
  g_atomic_int_inc (&budget->ref_count);
  return budget;
}

void
qd_trace_budget_unref (QdTraceBudget *budget)
{
  if (budget == NULL || !g_atomic_int_dec_and_test (&budget->ref_count))
    return;
  g_ptr_array_unref (budget->traces);
  g_free (budget->spare);
  g_mutex_clear (&budget->lock);
  g_free (budget);
}

void
qd_trace_budget_add (QdTraceBudget *budget,
                     QdTrace       *trace)
{
  gsize used;

  g_return_if_fail (budget != NULL);
  g_return_if_fail (trace != NULL);
  g_return_if_fail (trace->budget == NULL);

  trace->budget = qd_trace_budget_ref (budget);
  g_mutex_lock (&budget->lock);
  g_ptr_array_add (budget->traces, trace);
  g_mutex_unlock (&budget->lock);
  /* Whatever it holds already counts from now on. */
  __atomic_add_fetch (&budget->held, trace->held, __ATOMIC_RELAXED);
  used = __atomic_add_fetch (&budget->used, trace->bytes, __ATOMIC_RELAXED);
  if (used > __atomic_load_n (&budget->peak, __ATOMIC_RELAXED))
    __atomic_store_n (&budget->peak, used, __ATOMIC_RELAXED);
}

gsize
qd_trace_budget_get_limit (QdTraceBudget *budget)
{
  return budget->limit;
}

gsize
qd_trace_budget_get_used (QdTraceBudget *budget)
{
  return __atomic_load_n (&budget->used, __ATOMIC_RELAXED);
}

gsize
qd_trace_budget_get_peak (QdTraceBudget *budget)
{
  return __atomic_load_n (&budget->peak, __ATOMIC_RELAXED);
}

void
qd_trace_budget_shrink (QdTraceBudget *budget,
                        gsize          limit_bytes)
{
  g_return_if_fail (budget != NULL);

  /* The lock keeps the list still while a trace of it is finalized
   * elsewhere (a plot letting go); with the writer gone, this thread
   * takes its place for the drops. */
  g_mutex_lock (&budget->lock);
  budget->limit = limit_bytes;
  budget_enforce (budget, NULL, 0);
  /* No new chunk will take it. */
  g_clear_pointer (&budget->spare, g_free);
  g_mutex_unlock (&budget->lock);
}

QdTraceBudget *
qd_trace_get_budget (QdTrace *trace)
{
  g_return_val_if_fail (trace != NULL, NULL);

  return trace->budget;
}

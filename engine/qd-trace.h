/* qd-trace.h: trace stores, the segments a sink records
 *
 * A trace is an append-only sequence of QdSignal segments written by one
 * thread (the simulation) and read by any number of others (plots, export)
 * without locks: the writer never waits.
 *
 * Without a memory budget, a reader asks for the length, then reads any
 * index below it; those segments never move or change.
 *
 * With a budget (QdTraceBudget, shared by the traces of one run), the
 * oldest segments are dropped once the run's traces hold more bytes than
 * the budget, and replaced by decimated history: per bucket of 64
 * segments, the time span and the exact minimum, maximum, first and last
 * value of the trace over it (QdTraceBucket). That is all a plot needs at
 * any zoom coarser than a bucket. History itself is bounded: when it
 * outgrows its share, neighbouring buckets merge pairwise, so older
 * history is coarser. Indices keep counting from the first segment ever
 * appended; the segments below qd_trace_get_first() are gone.
 *
 * A reader of a trace that may have a budget brackets its reading with
 * qd_trace_read_begin() and qd_trace_read_end(), and reads in this order:
 * first = qd_trace_get_first(), then the history, then the length; every
 * index in [first, length) and every bucket it got stays valid until
 * read_end, even if the writer drops them meanwhile (it frees them only
 * once no reader is inside a begin/end pair). The convenience getters
 * (eval, get_start_time, get_last_time, get_dropped) do this themselves.
 */
#pragma once

#include <glib.h>

#include "qd-version-macros.h"
#include "qd-types.h"

G_BEGIN_DECLS

typedef struct _QdTrace QdTrace;
typedef struct _QdTraceBudget QdTraceBudget;

/* A stretch of decimated history. Buckets follow each other without gaps
 * (t1 of one is t0 of the next), and the last one ends where the first
 * exact segment starts. */
typedef struct
{
  double t0, t1;      /* the span: the trace's events in [t0, t1) */
  double min, max;    /* the exact extremes of the polynomials over it */
  double first, last; /* the values at t0 and where it leaves at t1 */
} QdTraceBucket;

/* Segments per bucket when exact data is first decimated. */
#define QD_TRACE_BUCKET_SEGMENTS 64

QD_API QdTrace        *qd_trace_new        (const char     *name);
QD_API QdTrace        *qd_trace_ref        (QdTrace        *trace);
QD_API void            qd_trace_unref      (QdTrace        *trace);
/* "/Scope/x1": the block path and the signal name. */
QD_API const char     *qd_trace_get_name   (QdTrace        *trace);

/* Writer side (one thread). Copies @segment. */
QD_API void            qd_trace_append     (QdTrace        *trace,
                                            const QdSignal *segment);
/* Makes the trace drop every segment appended to it, storing none, for a
 * run whose traces nobody reads (a headless run that exports nothing):
 * appending then costs a test and allocates nothing. Only on a trace
 * that holds no segment yet, before the writer starts. */
QD_API void            qd_trace_set_discard (QdTrace       *trace);
/* Marks the trace complete; @end_time is where the last segment ends. */
QD_API void            qd_trace_close      (QdTrace        *trace,
                                            double          end_time);

/* Reader side (any thread). */
/* Returns a token for the matching read_end. Pairs may nest. */
QD_API guint           qd_trace_read_begin (QdTrace        *trace);
QD_API void            qd_trace_read_end   (QdTrace        *trace,
                                            guint           token);
/* The index of the oldest segment still held (0 unless the budget
 * dropped some). */
QD_API gsize           qd_trace_get_first  (QdTrace        *trace);
/* The decimated history, @n_buckets of them (NULL and 0 when nothing was
 * dropped). Within a begin/end pair, after qd_trace_get_first(). Its
 * buckets may reach past the segment at first (the writer may have moved
 * on): where both exist, the exact segments are the ones to use. */
QD_API const QdTraceBucket *qd_trace_get_history (QdTrace   *trace,
                                                  gsize     *n_buckets);
QD_API gsize           qd_trace_get_length (QdTrace        *trace);
QD_API const QdSignal *qd_trace_get        (QdTrace        *trace,
                                            gsize           index);
/* A pointer walk for readers of many segments: the segment at @index
 * and the ones after it in the same block of storage, @n_run of them
 * (at least 1, at most @length - @index), consecutive in memory. The
 * same rules as qd_trace_get(): @index in [first, length), and the
 * pointers stay valid as long as those indices do. */
QD_API const QdSignal *qd_trace_get_run    (QdTrace        *trace,
                                            gsize           index,
                                            gsize           length,
                                            gsize          *n_run);
QD_API gboolean        qd_trace_is_closed  (QdTrace        *trace,
                                            double         *end_time);
/* The index of the last segment starting at or before @t among the held
 * ones below @length, or qd_trace_get_first() - 1 when @t is before the
 * oldest held segment (so -1 when nothing was dropped). */
QD_API gssize          qd_trace_find       (QdTrace        *trace,
                                            gsize           length,
                                            double          t);
/* The value at @t from the segment in force then: NaN before the first
 * segment, and NaN where exact data was dropped (the history holds
 * ranges, not values; qd_trace_get_dropped() says where). */
QD_API double          qd_trace_eval       (QdTrace        *trace,
                                            double          t);
/* Where the first segment ever appended starts (NaN while empty): the
 * trace's start even after its segment was dropped. */
QD_API double          qd_trace_get_start_time (QdTrace    *trace);
/* Where the newest segment starts (NaN while empty). */
QD_API double          qd_trace_get_last_time  (QdTrace    *trace);
/* Whether exact data was dropped, and if so the span [@from, @to) it
 * covered (@to is where the exact segments start now). */
QD_API gboolean        qd_trace_get_dropped    (QdTrace    *trace,
                                                double     *from,
                                                double     *to);
/* The bytes the trace holds: segments, directory and history, including
 * dropped storage not yet freed because a reader was inside. */
QD_API gsize           qd_trace_get_bytes      (QdTrace    *trace);

/* The exact minimum and maximum of @segment's polynomial for times in
 * [@ta, @tb] (@ta <= @tb): its ends and the roots of its derivative. */
QD_API void            qd_signal_range     (const QdSignal *segment,
                                            double          ta,
                                            double          tb,
                                            double         *min,
                                            double         *max);

/* A memory budget shared by the traces of one run. Every trace of a
 * budget must be written by the same thread (a simulation writes all its
 * traces from its own): when one trace's growth passes the budget, the
 * writer drops the oldest exact chunk among all of them, whichever trace
 * it belongs to, so the plots of a run keep exact data over a common
 * recent window. The newest two chunks of a trace (up to 8192 segments,
 * 384 KiB) are never dropped, so a budget below that times the number of
 * traces cannot be met. Decimated history takes at most a sixteenth of
 * the budget. While a reader is inside a begin/end pair, the storage
 * dropped meanwhile is freed only after it leaves, so the bytes in use
 * may pass the limit by what was dropped during one read. */
QD_API QdTraceBudget  *qd_trace_budget_new      (gsize          limit_bytes);
QD_API QdTraceBudget  *qd_trace_budget_ref      (QdTraceBudget *budget);
QD_API void            qd_trace_budget_unref    (QdTraceBudget *budget);
/* Puts @trace under @budget (it keeps a reference to it): before the
 * writer starts, or on the writer's thread. A trace has at most one. */
QD_API void            qd_trace_budget_add      (QdTraceBudget *budget,
                                                 QdTrace       *trace);
QD_API gsize           qd_trace_budget_get_limit (QdTraceBudget *budget);
/* The bytes its traces hold now, and the most they held at once. */
QD_API gsize           qd_trace_budget_get_used (QdTraceBudget *budget);
QD_API gsize           qd_trace_budget_get_peak (QdTraceBudget *budget);
/* Lowers the limit of @budget to @limit_bytes and decimates its traces
 * as their writer would have: the oldest exact chunks become history
 * until the traces fit, or until each keeps only its newest two chunks
 * (0 decimates as far as that). For traces no thread writes any more
 * (the run is over): an editor makes room among its earlier runs. */
QD_API void            qd_trace_budget_shrink   (QdTraceBudget *budget,
                                                 gsize          limit_bytes);
/* The budget @trace is under, or NULL. */
QD_API QdTraceBudget  *qd_trace_get_budget      (QdTrace       *trace);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (QdTrace, qd_trace_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (QdTraceBudget, qd_trace_budget_unref)

G_END_DECLS

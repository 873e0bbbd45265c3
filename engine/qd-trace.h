/* qd-trace.h: trace stores, the segments a sink records
 *
 * A trace is an append-only sequence of QdSignal segments written by one
 * thread (the simulation) and read by any number of others (plots, export)
 * without locks: the writer never waits. A reader asks for the length,
 * then reads any index below it; those segments never move or change.
 */
#pragma once

#include <glib.h>

#include "qd-version-macros.h"
#include "qd-types.h"

G_BEGIN_DECLS

typedef struct _QdTrace QdTrace;

QD_API QdTrace        *qd_trace_new        (const char     *name);
QD_API QdTrace        *qd_trace_ref        (QdTrace        *trace);
QD_API void            qd_trace_unref      (QdTrace        *trace);
/* "/Scope/x1": the block path and the signal name. */
QD_API const char     *qd_trace_get_name   (QdTrace        *trace);

/* Writer side (one thread). Copies @segment. */
QD_API void            qd_trace_append     (QdTrace        *trace,
                                            const QdSignal *segment);
/* Marks the trace complete; @end_time is where the last segment ends. */
QD_API void            qd_trace_close      (QdTrace        *trace,
                                            double          end_time);

/* Reader side (any thread). */
QD_API gsize           qd_trace_get_length (QdTrace        *trace);
QD_API const QdSignal *qd_trace_get        (QdTrace        *trace,
                                            gsize           index);
QD_API gboolean        qd_trace_is_closed  (QdTrace        *trace,
                                            double         *end_time);
/* The index of the last segment starting at or before @t among the first
 * @length, or -1 when @t is before the first. */
QD_API gssize          qd_trace_find       (QdTrace        *trace,
                                            gsize           length,
                                            double          t);
/* The value at @t from the segment in force then (NaN before the first). */
QD_API double          qd_trace_eval       (QdTrace        *trace,
                                            double          t);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (QdTrace, qd_trace_unref)

G_END_DECLS

/* qd-event-log.h: every DEVS transition of a run, as it happens
 *
 * A simulation with an event log calls the log's function once per
 * output, internal transition and external transition, in the order the
 * event loop executes them: for each internal event, the imminent block's
 * outputs (lambda), its internal transition (delta_int), then the
 * external transition (delta_ext) of each receiver of each output. A
 * zero-time cascade through static blocks appears transition by
 * transition, as the DEVS definitions have it, although the loop runs it
 * fused when there is no log. The counts of the log agree with
 * qd_simulation_get_block_stats().
 */
#pragma once

#include <glib.h>

#include "qd-version-macros.h"
#include "qd-types.h"

G_BEGIN_DECLS

typedef enum
{
  QD_LOG_OUTPUT,    /* lambda: a segment leaves on output `port` */
  QD_LOG_INTERNAL,  /* delta_int of the imminent block */
  QD_LOG_EXTERNAL,  /* delta_ext: `segment` arrived on input `port` */
} QdLogKind;

typedef struct
{
  QdLogKind       kind;
  guint64         event;    /* the internal event this belongs to: 1 for
                               the first of the simulation, and so on
                               (qd_simulation_get_events() after it) */
  double          t;
  guint           block;    /* index in the flat model
                               (qd_simulation_get_atomic()) */
  guint           port;     /* OUTPUT: output port; EXTERNAL: input
                               port; INTERNAL: 0 */
  double          elapsed;  /* INTERNAL and EXTERNAL: time since the
                               block's previous transition (or since
                               the start); NaN for OUTPUT */
  double          ta;       /* INTERNAL and EXTERNAL: the time advance
                               after the transition (QD_INF: passive);
                               NaN for OUTPUT */
  const QdSignal *segment;  /* OUTPUT and EXTERNAL: the segment, its
                               origin at t; NULL for INTERNAL. Valid
                               during the call only */
} QdLogEntry;

/* Called from the thread that runs the simulation, during the run. */
typedef void (*QdLogFunc) (const QdLogEntry *entry,
                           gpointer          user_data);

G_END_DECLS

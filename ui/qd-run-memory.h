/* qd-run-memory.h: one trace memory budget for all the runs an editor keeps
 *
 * The editor keeps earlier runs to draw under the current one. All of
 * them share the trace memory budget (the preference, 512 MiB unless
 * changed): when a run starts, the earlier runs may hold at most half of
 * it. Beyond that, the oldest run that is still exact is decimated
 * (qd_trace_budget_shrink(): its traces keep their newest events exact
 * and the rest as min/max history), then the next oldest; when every
 * earlier run is decimated and they still hold too much, the oldest are
 * dropped. The new run gets what is left as its own budget, so all runs
 * together stay within the limit.
 *
 * "decimated" and "dropped" tell the plots (the run's budget identifies
 * its traces: qd_trace_get_budget()); a handler of "dropped" lets go of
 * the run's traces. GLib and the engine only: tested without a display.
 */
#pragma once

#include <glib-object.h>

#include "qdevs.h"

G_BEGIN_DECLS

#define QD_TYPE_RUN_MEMORY (qd_run_memory_get_type ())
G_DECLARE_FINAL_TYPE (QdRunMemory, qd_run_memory, QD, RUN_MEMORY, GObject)

typedef enum
{
  QD_RUN_MEMORY_EXACT,       /* as the run left it */
  QD_RUN_MEMORY_DECIMATED,   /* made room for later runs */
} QdRunMemoryState;

QdRunMemory *qd_run_memory_new       (void);
/* The budget of all runs together, in bytes; 0: no limit (and earlier
 * runs are kept as they are). Applies from the next run. */
void         qd_run_memory_set_limit (QdRunMemory *self,
                                      gsize        limit_bytes);
gsize        qd_run_memory_get_limit (QdRunMemory *self);
/* A run of @traces (QdTrace*, not yet written) starts: makes room among
 * the earlier runs and puts @traces under a budget of what is left. */
void         qd_run_memory_begin_run (QdRunMemory *self,
                                      GPtrArray   *traces);
/* Forgets every run (another diagram). */
void         qd_run_memory_clear     (QdRunMemory *self);

/* The runs kept, oldest first, the current one last. */
guint        qd_run_memory_get_n_runs  (QdRunMemory *self);
QdRunMemoryState qd_run_memory_get_state (QdRunMemory *self,
                                          guint        index);
QdTraceBudget *qd_run_memory_get_budget (QdRunMemory *self,
                                         guint        index);
/* The bytes the traces of every run kept hold now. */
gsize        qd_run_memory_get_used  (QdRunMemory *self);

G_END_DECLS

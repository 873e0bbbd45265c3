/* qd-simulation-private.h: the flat simulation, shared by the compiler
 * (qd-compile.c) and the event loop (qd-simulation.c)
 *
 * Everything the loop touches is a contiguous array indexed by the block's
 * priority (its index in the flat model) or by a global output number:
 *
 *   atomics[i]            the QdAtomic of block i
 *   signals[out_base[i] + p]   output p of block i (one array for all)
 *   inputs[in_base[i] + q]     pointer to the segment driving input q of i
 *   fanout[fan_start[s] .. fan_start[s + 1]]   receivers (block, port) of
 *                         output s, in receiver order
 *   tl[i]                 last transition time (the next one is in the
 *                         time heap or the now queue)
 *
 * Block states share one arena, each state_size rounded up to 16 bytes.
 */
#pragma once

#include "qd-simulation.h"
#include "qd-heap.h"

G_BEGIN_DECLS

typedef struct
{
  guint32 receiver;
  guint32 port;
} QdFanout;

/* Where a block's next event is kept (see qd-simulation.c). */
enum
{
  QD_SCHED_NONE = 0,   /* passive: ta = QD_INF */
  QD_SCHED_HEAP = 1,   /* in the time heap */
  QD_SCHED_NOW  = 2,   /* due at the current event time: the now queue */
};

#define QD_RECENT_SIZE 256

struct _QdSimulation
{
  /* The flat model (built by the compiler, constant while running). */
  guint           n_atomics;
  QdAtomic       *atomics;
  guint8         *is_integrator;   /* per block: QD_BLOCK_INTEGRATOR */
  guint           n_signals;
  QdSignal       *signals;
  guint32        *out_base;        /* n_atomics + 1 */
  const QdSignal **inputs;
  guint32        *fan_start;       /* n_signals + 1 */
  QdFanout       *fanout;
  guint8         *arena;           /* block states, 16-byte aligned */
  QdParamValue   *param_values;
  GStringChunk   *strings;         /* paths and parameter texts */
  GPtrArray      *allocs;          /* qd_atomic_alloc memory and vectors */
  char          **block_ids;       /* per block, for problems */

  double          start_time;
  double          final_time;
  guint64         illegitimacy_limit;

  guint           n_variables;
  char          **variable_names;
  double         *variable_values;

  GPtrArray      *traces;          /* QdTrace*, in block order */
  GPtrArray      *stats;           /* QdStat*, in block order (qd-stats.c) */

  /* The loop state. */
  double         *tl;
  guint8         *where;           /* QD_SCHED_* */
  guint8         *in_now;          /* has an entry in now_queue */
  guint32        *now_queue;       /* binary min-heap of block indices */
  guint           now_len;
  QdHeap          heap;
  double          t_event;         /* time of the last event (or the start) */
  double          time;            /* the clock: >= t_event */
  guint64         same_time;       /* internal events at t_event so far */
  guint32         recent[QD_RECENT_SIZE];  /* last imminent blocks */
  guint           recent_pos;
  guint64        *n_internal;
  guint64        *n_external;
  guint64         events;
  guint64         transitions;
  guint64         integrator_steps;

  /* Published copies for other threads: relaxed atomic 64-bit stores and
   * loads (the time as its bit pattern). */
  guint64         pub_events;
  guint64         pub_transitions;
  guint64         pub_steps;
  guint64         pub_time;

  gint            stop_requested;  /* atomic */
  GError         *fail_error;      /* qd_atomic_fail, until the loop sees it */
  GError         *error;           /* sticky: the run ended with this */
  gboolean        initialized;
  gboolean        finished;
};

/* Compiles @document into a simulation that is not yet initialized (no
 * block's init has run), or NULL when any problem was found. */
QdSimulation *qd_compile (QdDocument          *document,
                          const char *const   *overrides,
                          GPtrArray           *problems,
                          GError             **error);

G_END_DECLS

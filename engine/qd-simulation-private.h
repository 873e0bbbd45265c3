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
 *   hot[i]                what the loop needs of block i on one cache
 *                         line: its DEVS functions, its last transition
 *                         time, where its next event is kept
 *
 * Block states share one arena, each 16-byte aligned, or 64 (a cache
 * line) when it is 64 bytes or more (qd-compile.c).
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

#define QD_NO_RECEIVER G_MAXUINT32

/* The now queue holds at most this many blocks; more go into the time
 * heap at the current time, which orders them the same way (see
 * qd-simulation.c). Zero-time cascades are rarely more than a few blocks
 * wide, so the queue is a short sorted array rather than a heap. */
#define QD_NOW_CAPACITY 32

/* One block as the event loop sees it: 64 bytes, one cache line, so that
 * a transition touches one line of the loop's own data per block (in a
 * large model whose events are spread over all blocks, each line is a
 * cache miss). The functions are never NULL: `fire` and `dext_ta` are the
 * block type's fused forms, or wrappers that call its separate DEVS
 * functions (qd-simulation.c); a static block (QD_BLOCK_STATIC) has only
 * its lambda called. The transition counts keep their low 32 bits here
 * and their high bits in QdSimulation, touched once every 2^32
 * transitions. */
typedef struct
{
  guint64 (*fire)    (QdAtomic *self, double t, double *ta);
  double  (*dext_ta) (QdAtomic *self, double t, double e,
                      guint port, const QdSignal *x);
  guint64 (*lambda)  (QdAtomic *self, double t);
  double    tl;              /* last transition time */
  guint32   out_base;        /* first output in signals[] and fan_start[] */
  guint32   n_internal;      /* low 32 bits of the counts */
  guint32   n_external;
  guint16   n_out;
  guint8    where;           /* QD_SCHED_* */
  guint8    in_now;          /* has an entry in the now queue */
  guint8    is_integrator;   /* QD_BLOCK_INTEGRATOR: counts as a step */
  guint8    is_static;       /* QD_BLOCK_STATIC: the loop keeps its phase
                                (and never reads its tl) */
  guint8    fused_out0;      /* output 0 feeds a fusable cascade
                                (qd-simulation.c, run_cascade()) */
  guint8    sole_port;       /* with sole_receiver: its input port */
  guint32   sole_receiver;   /* the one receiver of a block with one
                                output and one link from it, or
                                QD_NO_RECEIVER */
  guint8    pad[8];
} QdHot;

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
  guint8         *arena;           /* block states, 64-byte aligned */
  QdParamValue   *param_values;
  GStringChunk   *strings;         /* paths and parameter texts */
  GPtrArray      *allocs;          /* qd_atomic_alloc memory and vectors */
  char          **block_ids;       /* per block, for problems; the
                                      strings are in @strings */

  double          start_time;
  double          final_time;
  guint64         illegitimacy_limit;

  guint           n_variables;
  char          **variable_names;
  double         *variable_values;

  GPtrArray      *traces;          /* QdTrace*, in block order */
  GPtrArray      *stats;           /* QdStat*, in block order (qd-stats.c) */

  /* The loop state. */
  QdHot          *hot;             /* n_atomics, 64-byte aligned */
  guint32         now_queue[QD_NOW_CAPACITY];  /* block indices, decreasing */
  guint           now_len;
  QdHeap          heap;
  double          t_event;         /* time of the last event (or the start) */
  guint64         t_event_key;     /* qd_heap_key (t_event) */
  double          time;            /* the clock: >= t_event */
  guint64         same_time;       /* internal events at t_event so far */
  guint32         recent[QD_RECENT_SIZE];  /* last imminent blocks */
  guint           recent_pos;
  guint32        *n_internal_hi;   /* high 32 bits of QdHot's counts */
  guint32        *n_external_hi;
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
  QdAtomic       *fail_atomic;     /* the block that set it, or NULL */
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

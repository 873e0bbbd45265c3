/* qd-simulation-private.h: the flat simulation, shared by the compiler
 * (qd-compile.c), the event loop (qd-simulation.c) and the rest of the
 * simulation (qd-simulation-setup.c, qd-simulation-run.c)
 *
 * The loop reaches a block through arrays indexed by its priority i (its
 * index in the flat model), whose entries' addresses it computes from i,
 * so that their cache lines are fetched at the same time:
 *
 *   hot[i]                what the loop needs of block i on one cache
 *                         line: its DEVS functions, its last transition
 *                         time, where its next event is kept
 *   atomics[i]            the QdAtomic of block i
 *   signals[out_base[i] + p]   output p of block i (one array for all:
 *                         in a model whose blocks talk to their
 *                         neighbours in priority order, a block's inputs
 *                         are on the lines of the output it just received)
 *
 * Everything else of block i is in its record, reached through the
 * QdAtomic's pointers; the records follow each other in priority order:
 *
 *   state | in[]
 *
 * (the state, zeroed, 16-byte aligned, or on a cache line when it is 64
 * bytes or more, and as long as the block's type says this instance
 * needs (QdBlockFastPaths.state_size); the input pointers), so that what
 * a transition reads of a block besides its QdAtomic and its segments is
 * on neighbouring lines rather than in one array per kind: a WSum of two
 * inputs reads one line of its record, an integrator the two lines at
 * the start of its state. The records are carved out of large chunks
 * (qd-compile.c). The evaluated parameters (in schema order, with the
 * elements of their vectors) are shared by the blocks whose values are
 * the same, each set in an allocation of its own (sim->allocs): a large
 * model has a few.
 *
 * Kept apart on purpose: the QdAtomic inside the record, reached through
 * a pointer in QdHot, saved level-1 misses in callgrind but was slower on
 * hardware (the QdAtomic's line then waits for the QdHot's instead of
 * being fetched with it), and so was putting the output segments in the
 * record (neighbours no longer share their lines); docs/performance.md.
 *
 * The wiring, by output number s = out_base[i] + p:
 *
 *   fanout[fan_start[s] .. fan_start[s + 1]]   receivers (block, port) of
 *                         output s, in receiver order
 */
#pragma once

#include <string.h>

#include "qd-simulation.h"
#include "qd-block-fast-private.h"
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

/* No block, where a block index is recorded (QdSimulation.lost_block). */
#define QD_NO_BLOCK G_MAXUINT32

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
  union
  {
    double  tl;              /* last transition time */
    guint64 kernel_runs;     /* a static block's (the loop never reads
                                its tl): its runs in a whole cascade
                                kernel (run_kernel()), each an external
                                and an internal transition of its own
                                and an external one of its sole
                                receiver, which the n_external and
                                n_internal of both leave out: one
                                increment instead of three with their
                                carries (qd_simulation_get_block_stats()
                                adds them) */
  };
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
                                (QD_FUSED_CASCADE: qd-simulation.c,
                                run_cascade()) or a static chain
                                (QD_FUSED_CHAIN: run_chain()), or 0 */
  guint8    sole_port;       /* with sole_receiver: its input port */
  guint32   sole_receiver;   /* the one receiver of a block with one
                                output and one link from it, or
                                QD_NO_RECEIVER */
  /* With fused_out0, when output 0 has a cascade kernel (the static
   * blocks' type's QdBlockType.cascade; qd-simulation.c, run_kernel()):
   * where its pairs begin in QdSimulation.kernel_pairs, and the kernel,
   * an index into QdSimulation.kernels; otherwise QD_NO_PAIRS. */
  guint32   pairs;
  guint32   kernel;
} QdHot;

#define QD_NO_PAIRS G_MAXUINT32

/* QdHot.fused_out0. */
enum
{
  QD_FUSED_CASCADE = 1,
  QD_FUSED_CHAIN   = 2,
};

/* One step of a static chain's program (qd-simulation-chain.c): a
 * static block to run (@block, with @arg non-static receivers of its
 * output following) or one of those receivers (@block, on port @arg).
 * A static block whose output's one receiver its type's cascade kernel
 * takes (QdBlockFastPaths.cascade) is run with it through its @pair in
 * QdSimulation.chain_pairs and kernels[@kernel]; otherwise @pair is
 * QD_NO_PAIRS. */
typedef struct
{
  guint32 block;
  guint32 arg;
  guint32 pair;
  guint32 kernel;
} QdChainOp;

/* What one run of block @owner's whole chain adds to a block's counts
 * (qd-simulation-chain.c). */
typedef struct
{
  guint32 owner;
  guint32 internal;
  guint32 external;
} QdChainCount;

/* The most static blocks of one chain (qd-simulation-chain.c). */
#define QD_CHAIN_MAX 64

/* A chain left early adds 4 to its block's chain_misses, one run to the
 * end takes 1 off; at this many the block goes back to the queue
 * (qd-simulation.c, chain_leave()). */
#define QD_CHAIN_MISSES_MAX 200

typedef guint (*QdCascadeFunc) (const QdCascadePair *pairs,
                                guint                n,
                                double               t,
                                double              *ta);

/* The most block types with a cascade kernel in one model. */
#define QD_MAX_KERNELS 8

/* The most static blocks a cascade kernel takes at once (the engine keeps
 * their time advances on the stack). */
#define QD_KERNEL_MAX 8

/* The receivers of a block's first output that prefetch_next() asks for
 * (qd-simulation.c). */
#define QD_PREFETCH_RECEIVERS 4

/* The deeper prefetch of prefetch_next() is made from this many blocks
 * on (qd-simulation.c says why). */
#define QD_PREFETCH_DEEP_BLOCKS 1024

/* Models of fewer blocks run the loop compiled for them
 * (qd-simulation.c, run_loop_tiny()). */
#define QD_TINY_BLOCKS 32

/* The lines of QdPrefetchLine, 64 bytes per block, are kept only below
 * this many blocks, where they fit in half the level-2 cache: beyond it
 * the line read each step is a miss of its own and takes cache room from
 * the wiring's arrays, which are smaller (some 24 bytes per block), and
 * the chain of reads through them was faster (lcline-random QSS2, CPU
 * ns per step without and with the lines, N = 1000: 193 -> 137 and
 * 185 -> 160; N = 3500, 5000 and 10 000: 216 -> 231, 267 -> 295 and
 * 405 -> 523; docs/performance.md). */
#define QD_PREFETCH_LINE_BLOCKS 4096

/* What prefetch_next() asks for when block i is the heap's top, on one
 * cache line, so that a large model's deeper prefetch waits for one line
 * instead of a chain of four dependent reads (out_base, fan_start,
 * fanout, state_of). The states are 32-bit offsets from @base, the
 * block's own state (or, when it has none, its first receiver's), which
 * keeps four receivers on the line: the records are carved in large
 * chunks, close together. The segments and the pairs are byte offsets
 * into their arrays, which saves the multiplications. */
typedef struct
{
  const char *base;                /* the block's state, or NULL */
  guint32     signal;              /* its output 0, from signals */
  guint32     pairs;               /* that output's first fan-out entry,
                                      from kernel_pairs */
  guint32     receiver[QD_PREFETCH_RECEIVERS];  /* or QD_NO_RECEIVER */
  guint32     receiver_signal[QD_PREFETCH_RECEIVERS];  /* from signals */
  gint32      receiver_state[QD_PREFETCH_RECEIVERS];   /* from base */
} QdPrefetchLine;

struct _QdSimulation
{
  /* The flat model (built by the compiler, constant while running). */
  guint           n_atomics;
  QdAtomic       *atomics;
  guint8         *is_integrator;   /* per block: QD_BLOCK_INTEGRATOR */
  guint           n_signals;
  QdSignal       *signals;
  guint32        *out_base;        /* n_atomics + 1 */
  guint32        *fan_start;       /* n_signals + 1 */
  QdFanout       *fanout;
  QdCascadePair  *kernel_pairs;    /* for the outputs that have a cascade
                                      kernel, in fanout's order, each of
                                      their static receivers with its own
                                      receiver (qd-simulation.c,
                                      run_kernel()); NULL when no output
                                      has one. 64-byte aligned */
  guint           n_kernel_pairs;
  QdCascadeFunc   kernels[QD_MAX_KERNELS];  /* QdHot.kernel */
  void          (*kernel_prefetch[QD_MAX_KERNELS]) (const QdCascadePair *pairs,
                                                    guint                n);
                                   /* their types' cascade_prefetch, or
                                      NULL */
  guint           n_kernels;
  GPtrArray      *records;         /* the chunks holding the records */
  gconstpointer  *state_of;        /* per block: its state, for prefetching
                                      (qd-simulation.c) */
  GStringChunk   *strings;         /* paths (each followed by its block's
                                      id) and parameter texts */
  GPtrArray      *allocs;          /* qd_atomic_alloc memory */
  GData          *shared;          /* qd_atomic_get_shared resources */
  guint32        *coupled_start;   /* n_atomics + 1, or NULL until a block
                                      asks (qd-coupling.c) */
  QdAtomic      **coupled;         /* the coupled integrators of block i:
                                      coupled[coupled_start[i] ..
                                      coupled_start[i + 1]] */

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
  guint64         same_time;       /* internal events since t_anchor */
  /* The illegitimacy guard's window: same_time counts the events from
   * t_anchor until the clock passes t_anchor + tick, tick being the
   * clock's resolution at the final time (or the start time, when
   * further from 0). A time advance smaller than that moves the clock
   * in a way no run to the final time can use (10^6 advances of 1e-300
   * from 0), so it is no advance for the guard. */
  double          t_anchor;
  double          t_reset;         /* t_anchor + tick */
  double          tick;
  guint32         recent[QD_RECENT_SIZE];  /* last imminent blocks */
  guint           recent_pos;
  /* The last positive time advance that the clock could not take (t + ta
   * rounded to t: past 2^53 times the time advance, the spacing of doubles
   * at t is larger than it), for the illegitimacy report: its block
   * (QD_NO_BLOCK for none), the time advance and t. */
  guint32         lost_block;
  double          lost_ta;
  double          lost_t;
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

  /* The event log (qd-event-log.h), or NULL: with one,
   * qd_simulation_run_loop() runs the loop compiled to report every
   * transition (qd-simulation.c). */
  QdLogFunc       log_func;
  gpointer        log_data;
  double         *log_tl;          /* per block, the last transition's
                                      time as the log reports it (a
                                      static block's QdHot keeps none) */
  gboolean        log_detached;    /* the logged loop returned because
                                      the log was taken off mid-run */

  gint            stop_requested;  /* atomic */
  GError         *fail_error;      /* qd_atomic_fail, until the loop sees it */
  QdAtomic       *fail_atomic;     /* the block that set it, or NULL */
  GError         *error;           /* sticky: the run ended with this */
  gboolean        initialized;
  gboolean        finished;

  struct _QdClassic *classic;      /* the classic solver that advances the
                                      Integrators (qd-classic.c), or NULL
                                      under QSS */

  /* The static chains (qd-simulation-chain.c): block i's is
   * chain[chain_start[i] .. chain_start[i + 1]], the static blocks its
   * output 0 sets off, in the order the now queue would run them. */
  guint32        *chain_start;     /* n_atomics + 1, or NULL without any
                                      chain */
  guint32        *chain;
  guint8         *chain_misses;    /* per block, with chain_start: how
                                      often its chain was left early of
                                      late (run_chain()) */
  /* Block i's chain as run_chain() plays it: ops[op_start[i] ..
   * op_start[i + 1]], first a header (the transitions of a whole run,
   * and the number of non-static receivers of i's output 0, which
   * follow), then each static block with its non-static receivers. The
   * static receivers' external transitions only queue them, which the
   * chain does not need: they are left out, and counted with the rest
   * of a whole run in chain_runs[i], one increment per run. A block's
   * counts from whole runs are chain_runs[owner] times each of its
   * counts[count_start[block] .. count_start[block + 1]]. */
  guint32        *chain_op_start;  /* n_atomics + 1, with chain_start */
  QdChainOp      *chain_ops;
  guint64        *chain_runs;      /* per block: its chain's whole runs */
  QdCascadePair  *chain_pairs;     /* QdChainOp.pair, 64-byte aligned, or
                                      NULL */
  guint32        *chain_count_start;  /* n_atomics + 1 */
  QdChainCount   *chain_counts;

  GPtrArray      *vectors;         /* the native vector blocks
                                      (QdVectorNative*, qd-compile-vector.h),
                                      or NULL */
  QdPrefetchLine *prefetch;        /* per block, 64-byte aligned, in models
                                      of 1024 to 4095 blocks (whose
                                      state_of is then NULL); else NULL
                                      (qd-simulation.c, prefetch_next()) */
};

/* The id of the block @a, for problems (the editor selects the block by
 * it): the compiler stores it in @strings just after the NUL of the
 * block's path, which saves an array of pointers. */
static inline const char *
qd_atomic_block_id (const QdAtomic *a)
{
  return a->path + strlen (a->path) + 1;
}

/* Compiles @document into a simulation that is not yet initialized (no
 * block's init has run), or NULL when any problem was found. @owned: the
 * caller frees @document right after, and its only reference may be
 * taken apart while compiling (its links are freed once read). */
QdSimulation *qd_compile (QdDocument          *document,
                          const char *const   *overrides,
                          gboolean             owned,
                          GPtrArray           *problems,
                          GError             **error);
/* Runs the blocks' init on a simulation from qd_compile(), as
 * qd_simulation_new() does; between the two a sweep reseeds it. */
gboolean      qd_simulation_initialize (QdSimulation  *sim,
                                        GPtrArray     *problems,
                                        GError       **error);

/* Fills chain_start and chain, once the QdHot are filled (but for
 * fused_out0's QD_FUSED_CHAIN, which the caller sets from them). */
void          qd_simulation_fill_chains   (QdSimulation       *sim);
/* The static blocks the now queue would hold when block @i's chain has
 * run @done of its blocks with their fan-outs, and (with @popped) taken
 * the next one off the queue: into @out (room for QD_CHAIN_MAX), in
 * increasing index. Returns their number. */
guint         qd_simulation_chain_pending (const QdSimulation *sim,
                                           guint               i,
                                           guint               done,
                                           gboolean            popped,
                                           guint32            *out);

/* The index in QdSimulation.kernels of the cascade kernel of @type (a
 * type that has one), added if it is new; -1 when there is no room. */
int           qd_simulation_kernel_index (QdSimulation      *sim,
                                          const QdBlockType *type);

/* Counts the transitions of block @i's chain left after @done blocks
 * (and, with @popped, the internal transition of the next one) in the
 * blocks' counters; returns their number. */
guint64       qd_simulation_chain_count (QdSimulation       *sim,
                                         guint               i,
                                         guint               done,
                                         gboolean            popped);
/* The transitions of block @index in whole runs of chains
 * (QdSimulation.chain_runs), added to *@internal and *@external. */
void          qd_simulation_chain_stats (const QdSimulation *sim,
                                         guint               index,
                                         guint64            *internal,
                                         guint64            *external);

/* The event loop (qd-simulation.c): runs events up to @t_limit, at most
 * @max_events of them. */
QdRunStatus   qd_simulation_run_loop    (QdSimulation  *sim,
                                         double         t_limit,
                                         guint64        max_events,
                                         GError       **error);
/* Publishes the time and the counters for other threads. */
void          qd_simulation_publish     (QdSimulation  *sim);
/* Fills the QdHot of every block (qd-simulation-setup.c). */
void          qd_simulation_fill_hot    (QdSimulation  *sim);

/* What the loop reports out of line (qd-simulation-run.c): the run's
 * error, unless it has one already; an illegitimate model at @t; a
 * segment of block @i that is not finite; the event log's entries. */
void          qd_simulation_set_fail    (QdSimulation  *sim,
                                         QdErrorCode    code,
                                         const char    *format,
                                         ...) G_GNUC_PRINTF (3, 4);
void          qd_simulation_fail_illegitimate (QdSimulation *sim,
                                               double        t);
void          qd_simulation_fail_numeric (QdSimulation   *sim,
                                          guint           i,
                                          const QdSignal *sig,
                                          double          t);
void          qd_simulation_log_transition (QdSimulation   *sim,
                                            QdLogKind       kind,
                                            guint64         event,
                                            guint           i,
                                            double          t,
                                            guint           port,
                                            const QdSignal *sig,
                                            double          ta);
void          qd_simulation_log_event   (QdSimulation  *sim,
                                         guint64        event,
                                         guint          i,
                                         double         t,
                                         guint64        mask,
                                         double         ta);

G_END_DECLS

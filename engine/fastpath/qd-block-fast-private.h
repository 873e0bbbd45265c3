/* qd-block-fast-private.h: the fast paths of the built-in block library
 *
 * Not installed and not part of the block API: the fused forms of the
 * DEVS functions and the cascade kernels that the event loop
 * (qd-simulation.c) calls for the built-in blocks on the hot path of
 * large models (the Integrator, WSum). A block type points to its
 * QdBlockFastPaths through QdBlockType.fast; the engine copies the
 * functions into its per-block records when it compiles a model, so the
 * indirection costs nothing while the model runs.
 */
#pragma once

#include <string.h>
#include <math.h>

#include "qd-block-type.h"

G_BEGIN_DECLS

/* One static block of a cascade and the one receiver of its output
 * (QdBlockFastPaths.cascade), on one 64-byte cache line with what the
 * block's type keeps there for its kernel (QdBlockFastPaths.cascade_prepare):
 * in a large model every line the kernel reads is a cache miss, and
 * each block's QdAtomic and record are lines of their own. */
typedef struct
{
  QdAtomic *block;
  QdAtomic *receiver;
  union
  {
    gconstpointer p;
    double        d;
  } data[6];
} QdCascadePair;

/* One block of a classic solver's right-hand side as a flat program
 * (qd-classic-rhs.c; QdBlockFastPaths.eval0_run): the values of its
 * inputs are v[in[0]] ... v[in[n_in - 1]], its output goes to v[out]. */
typedef struct
{
  QdAtomic      *atomic;
  gconstpointer  data;      /* from QdBlockFastPaths.eval0_data, or NULL */
  const guint32 *in;
  guint32        out;
  guint32        n_in;
} QdEval0Op;

/* The most inputs of a block in an affine run (QdEval0Affine). */
#define QD_EVAL0_AFFINE_MAX_IN 4

/* The most blocks outside its pattern an affine run takes along
 * (QdEval0Affine.extra). */
#define QD_EVAL0_AFFINE_MAX_EXTRA 2

/* One block of a run's type outside the run's pattern: its eval0 on the
 * values v[in[0 ... n_in - 1]] (QdEval0Affine.v) with its own data, into
 * dy[k] (QdEval0Affine.dy). */
typedef struct
{
  const double  *data;
  const guint32 *in;
  guint32        n_in;
  guint32        k;
} QdEval0Extra;

/* A run of @n blocks of one type in a classic solver's right-hand side
 * whose values lie at affine places (QdBlockFastPaths.eval0_affine):
 * block j's input i is in[i][j * in_stride[i]] (strides may be 0 or
 * negative), its output goes to out[j], its eval0 data (doubles) are at
 * data + j * data_stride (0: the same data for every block). No output
 * of the run is one of its inputs, and the outputs overlap nothing it
 * reads: the blocks are independent of each other. Beside them, the
 * run takes n_extra blocks of its type that fit no pattern (the LC
 * line's first sum, which reads the Pulse, and its last, with one
 * input), so that they cost no call of their own: their inputs are in
 * v, their outputs go to dy (derivatives nothing else reads); they
 * read nothing the run writes, and the run reads nothing they write. */
typedef struct
{
  const double *in[QD_EVAL0_AFFINE_MAX_IN];
  gssize        in_stride[QD_EVAL0_AFFINE_MAX_IN];
  double       *out;
  const double *data;
  gssize        data_stride;
  guint         n;
  guint         n_in;
  guint         n_extra;
  QdEval0Extra  extra[QD_EVAL0_AFFINE_MAX_EXTRA];
  const double *v;          /* the extra blocks' input values */
  double       *dy;         /* where their outputs go */
} QdEval0Affine;

/* QdBlockFastPaths.eval0_affine's form, and what eval0_affine_pick
 * gives. */
typedef double (*QdEval0AffineFunc) (const QdEval0Affine *run, double t);

/* Two doubles as one value (GCC's vector extension, an SSE2 register on
 * x86-64): the loops of eval0_affine are written with them, several at
 * a time, since gcc's -O2 does not vectorise a loop of unknown length
 * and no gcc vectorises well one that both stores and sums. The
 * operations are those of double, lane by lane (the same bits). */
typedef double QdVec2 __attribute__ ((vector_size (2 * sizeof (double))));
/* The integers of a QdVec2's size, for its bits. */
typedef gint64 QdVec2i __attribute__ ((vector_size (2 * sizeof (gint64))));

static inline QdVec2
qd_vec2_load (const double *p)
{
  QdVec2 v;

  memcpy (&v, p, sizeof v);
  return v;
}

static inline void
qd_vec2_store (double *p,
               QdVec2  v)
{
  memcpy (p, &v, sizeof v);
}

/* The two lanes' sum. */
static inline double
qd_vec2_sum (QdVec2 v)
{
  return v[0] + v[1];
}

/* Four doubles as one value, an AVX2 register: only in functions built
 * for AVX2 (QD_TARGET_AVX2), which eval0_affine calls when the processor
 * has it (qd_cpu_has_avx2()). */
typedef double QdVec4 __attribute__ ((vector_size (4 * sizeof (double))));
typedef gint64 QdVec4i __attribute__ ((vector_size (4 * sizeof (gint64))));

#if defined(__x86_64__) && defined(__GNUC__)
#define QD_HAVE_AVX2 1
/* AVX2 alone: not FMA, whose contraction of a·b + c would change the
 * bits. */
#define QD_TARGET_AVX2 __attribute__ ((target ("avx2")))

/* TRUE: the AVX2 forms are left aside, as on a processor without AVX2
 * (for tests that hold the baseline loops to the same results; defined
 * in qd-classic-rhs.c). */
extern gboolean qd_fast_avx2_off;

static inline gboolean
qd_cpu_has_avx2 (void)
{
  return !qd_fast_avx2_off && __builtin_cpu_supports ("avx2");
}
#endif

struct _QdBlockFastPaths
{
  /* Optional fused forms of the DEVS functions of QdBlockType, for blocks on the hot
   * path of large models: one call instead of three (or two), and work
   * shared between them. When given, they must have exactly the effect of
   * the separate functions, which must still be given.
   *   fire     lambda, then dint, at @t; returns lambda's mask and sets
   *            *@ta to ta of the new state.
   *   dext_ta  dext, then returns ta of the new state. */
  guint64  (*fire)    (QdAtomic *self, double t, double *ta);
  double   (*dext_ta) (QdAtomic *self, double t, double e,
                       guint port, const QdSignal *x);

  /* Optional, for a static type (QD_BLOCK_STATIC) with one output: a
   * cascade kernel. When a block's output goes only to static blocks of
   * this type, each of whose output has one receiver, the event loop may
   * run their outputs and their receivers' external transitions with one
   * call of `cascade` instead of a call of lambda and one of the
   * receiver's dext_ta per static block (qd-simulation.c, run_kernel()).
   * A type offers it for the receivers it knows the inside of, so that
   * what took two calls through pointers is one loop of inlined code.
   *   cascade_accepts  whether `cascade` can take @self with @receiver,
   *            the one receiver of its output, on input @port. Asked
   *            once, before any block's init (the parameters are set).
   *   cascade  for k = 0, 1, ... < @n, in that order: the lambda of
   *            pairs[k].block at @t (its output written as lambda writes
   *            it); if that output is not finite (a coefficient is NaN
   *            or infinite), returns k at once. Otherwise the external
   *            transition of pairs[k].receiver on the port accepted,
   *            with the output as its event, and @ta[k] the receiver's
   *            time advance after it; when t + ta[k] is not later than
   *            @t (due now, negative, NaN, or too small to move the
   *            clock), returns k + 1. Returns @n when all of them were
   *            done. It must have exactly the effect of those
   *            separate calls (the receivers keep their own last
   *            transition time: e is not given), and never fail a block
   *            (qd_atomic_fail()): the engine does the counting, the
   *            scheduling and the error handling around it.
   *   cascade_prepare  optional: fills @pair's data (zeroed) with what
   *            `cascade` wants at hand for the pair (addresses and
   *            parameters, constant for the run). Called once, before
   *            any block's init. */
  gboolean (*cascade_accepts) (const QdAtomic *self,
                               const QdAtomic *receiver,
                               guint           port);
  void     (*cascade_prepare) (QdCascadePair  *pair);
  guint    (*cascade)         (const QdCascadePair *pairs,
                               guint                n,
                               double               t,
                               double              *ta);
  /*   cascade_prefetch  optional: asks (__builtin_prefetch) for the
   *            cache lines `cascade` will read for @pairs besides the
   *            pair lines themselves, which are in the cache when it is
   *            called. In large models the engine calls it for the next
   *            event's pairs while the current event ends, so that the
   *            kernel's loads through the pairs do not each wait for
   *            memory. It must not change anything. */
  void     (*cascade_prefetch) (const QdCascadePair *pairs,
                                guint                n);

  /* Optional: the bytes of its state one instance uses, at most the
   * type's state_size, from its parameters (evaluated, in schema order):
   * the compiler makes its record that size. For a type whose state
   * holds what only some of its instances need (an Integrator's fields
   * for other methods than QSS1-4), so that a large model of the others
   * takes less memory. The block must then never touch the bytes beyond
   * it, nor copy its state whole. Not used under a classic solver, which
   * may copy a state of state_size bytes. */
  gsize    (*state_size) (const QdParamValue *params);

  /* Optional, for a block whose discrete mode ends when a watched
   * signal of its inputs reaches a level (the Hybrid blocks), under a
   * classic ODE solver (qd-classic-roots.c): its crossings become root
   * functions g_i = w - level_i of the solver, which locates them to
   * its root tolerance, and the block's own internal transition then
   * happens at the time the solver found. All three come together.
   *   crossing_levels  writes the levels (at most QD_MAX_CROSSINGS)
   *            whose crossing by the watched signal ends the current
   *            mode, for the inputs now in self->in at @t, and returns
   *            their count. Changes nothing.
   *   crossing_signal  the watched signal w at @t, from the inputs now
   *            in self->in (which the solver sets to its trial
   *            solution). Changes nothing.
   *   cross_at  the block's next internal event becomes the crossing
   *            of @level at @t, @e after its last transition, in place
   *            of the one it found on its input's polynomial; @t =
   *            QD_INF: none before its next input. Returns FALSE, and
   *            changes nothing, when an output is due now (ta = 0).
   *            The engine reschedules the block at @t. */
  guint    (*crossing_levels) (QdAtomic *self,
                               double    t,
                               double   *levels);
  double   (*crossing_signal) (QdAtomic *self,
                               double    t);
  gboolean (*cross_at)        (QdAtomic *self,
                               double    t,
                               double    e,
                               double    level);

  /* Optional, for a direct-feedthrough type with one output: its output
   * at order 0 under a classic ODE solver (qd-classic-rhs.c). The value
   * at @t of its input i (of @n_in) is @v[@in[i]]; returns the value of
   * output 0
   * that an external transition at @t on constant input segments of
   * those values, followed by lambda, would give, computed by the same
   * code as lambda, and changes nothing in the block's state (scratch
   * space that lambda rewrites before it reads it may be used). It
   * fails the block (qd_atomic_fail()) where lambda would. The solver's
   * right-hand side calls it once per block and evaluation, in
   * dependency order over one array of values, instead of lambda on
   * segments; a type without it runs through lambda there.
   *   eval0_data  optional: what eval0 reads of the block (its
   *            parameters' values), given to it as @data, so that an
   *            evaluation does not go through the block's QdAtomic and
   *            record for them; constant for the run, asked after init.
   *            When it sets *@size to the number of bytes eval0 reads
   *            there (plain numbers, at most 512), the engine may give
   *            eval0 a copy of them instead, packed with the other
   *            blocks' in the order of evaluation (a large model's
   *            records are far apart); 0 keeps the pointer. Without it
   *            @data is NULL.
   * The values are read where they are (no copy of them to gather):
   * a copy on the stack read back as a pair costs a stalled load. */
  double        (*eval0)      (QdAtomic      *self,
                               gconstpointer  data,
                               double         t,
                               const double  *v,
                               const guint32 *in,
                               guint          n_in);
  gconstpointer (*eval0_data) (QdAtomic      *self,
                               gsize         *size);
  /*   eval0_run  optional: for k = 0 ... @n - 1, in that order,
   *            v[ops[k].out] = eval0 (ops[k].atomic, ops[k].data, t, v,
   *            ops[k].in, ops[k].n_in): the blocks of this type that
   *            follow each other in the program, in one call, so that
   *            eval0 is inlined rather than called through a pointer per
   *            block. It must have exactly that effect. */
  void          (*eval0_run)  (const QdEval0Op *ops,
                               guint            n,
                               double           t,
                               double          *v);
  /*   eval0_affine  optional, for a type with eval0_run and eval0_data
   *            of plain numbers: for j = 0 ... @run->n - 1, the eval0 of
   *            block j of a run whose values lie at affine places
   *            (QdEval0Affine), its output into run->out[j], and the
   *            eval0 of each of run->extra[0 ... run->n_extra - 1]
   *            into its out (counted in the value returned): the engine
   *            finds such runs when it builds the program (the LC line's
   *            Weighted Sums, a vector block's elements), and calls this
   *            instead of eval0_run, with no index read per block. The
   *            same operations in the same order as eval0 for each
   *            block (the same bits); written as loops over arrays
   *            without calls, so that they vectorise. Returns a value
   *            that is not finite when an output is not, which is what
   *            the engine asks of derivatives (it tests them one by one
   *            when the value is not finite, so that a false alarm, a
   *            sum of finite outputs that overflows, costs only time):
   *            their sum in any order, or cheaper, the bits of their
   *            products by 0 or-ed together (±0 or a NaN). Computed
   *            while the outputs are in registers, it costs less than a
   *            pass over them. A type whose eval0 may fail a block must
   *            not give it. */
  double        (*eval0_affine) (const QdEval0Affine *run,
                                 double               t);
  /*   eval0_affine_pick  optional, with eval0_affine: the function
   *            eval0_affine would end in for @run (its shape, the
   *            processor), chosen once when the program is built: the
   *            engine then calls it directly, without eval0_affine's
   *            tests at every evaluation. The same effect as
   *            eval0_affine on any run of that shape (only the addresses
   *            in run->in and run->out change between calls). */
  QdEval0AffineFunc (*eval0_affine_pick) (const QdEval0Affine *run);

  /* Optional: native vector blocks (docs/vectors.md, "Native vector
   * blocks"). A block of this type that is n elements wide may run as
   * one atomic of @vector_type holding all n elements, instead of n
   * copies of this type, when @vector_accepts says its parameters
   * allow it (@texts: the parameters' texts in schema order, an
   * inherited one resolved from the model's settings; the default for
   * one not set). The compiler decides (qd-compile-vector-native.c);
   * @vector_type is never registered: it takes over the block's
   * QdAtomic, with this type's parameters and record, once they are
   * evaluated and wired: @vector_type has no parameters of its own,
   * and its state_size is one pointer, the record's first bytes, where
   * its init puts the state it allocates (qd_atomic_alloc()). */
  const QdBlockType *vector_type;
  gboolean      (*vector_accepts) (const QdBlockType *type,
                                   const char *const *texts);
  /* Optional: whether a block of this type with the parameter texts
   * @fewer, which give it fewer inputs than @texts do, computes to the
   * bit what one with @texts computes when its inputs past the fewer's
   * read zero (qd-compile-scalar-runs.c: the ends of a run of scalar
   * blocks, where a native vector's Index Shift reads zero). */
  gboolean      (*vector_fewer_inputs) (const QdBlockType *type,
                                        const char *const *texts,
                                        const char *const *fewer);
};

/* ---- Native vector blocks ------------------------------------------
 *
 * A native vector block is an ordinary (non-static) atomic whose state
 * holds its n elements. Its events are element events: its lambda
 * writes one element's new segment into self->out[p] with the element's
 * index in QdSignal.tag, and the same segment into its own array of
 * element outputs (qd_atomic_vector_output()), where its receivers read
 * the other elements. A receiver's input port p is bound to what drives
 * it (qd_atomic_vector_input()); an Index Shift between them is folded
 * into the binding: element j of the driver is element j + shift of the
 * receiver, and the receiver's elements that the shift leaves without a
 * driver element read the boundary, the signal on input port
 * self->n_in / 2 + p (a connected boundary signal, a constant, or zero
 * when unconnected). Those boundary ports double self->n_in: input
 * ports 0 .. n_in/2 - 1 are the type's own. */
typedef struct
{
  const QdSignal *elements;  /* the driver's element outputs, n of them;
                                NULL for a scalar driver, which every
                                element reads (self->in[port]) */
  guint           n;         /* the driver's width (1 for a scalar) */
  gint            shift;     /* element i reads driver element i - shift */
} QdVectorInput;

/* The elements [*@first, *@end) of a receiver @n wide that read the
 * boundary of @input (those its shift leaves without a driver element):
 * an event on the boundary port is theirs. */
static inline void
qd_vector_boundary_range (const QdVectorInput *input,
                          guint                n,
                          guint               *first,
                          guint               *end)
{
  gint64 k = input->shift;

  *first = k < 0 ? (guint) MAX ((gint64) n + k, 0) : 0;
  *end = k > 0 ? (guint) MIN (k, (gint64) n) : k < 0 ? n : 0;
}

/* The number of elements of @self, a native vector block (0 for any
 * other block). From init on. */
guint     qd_atomic_vector_width  (const QdAtomic *self);
/* The element outputs of output @port of @self, qd_atomic_vector_width()
 * segments, zeroed at the start; written by the block. */
QdSignal *qd_atomic_vector_output (QdAtomic       *self,
                                   guint           port);
/* The initial states of @self's elements when its x0 is a list (one
 * value per element, evaluated), or NULL when its parameter x0 is one
 * value for all. From init on. */
const double *qd_atomic_vector_x0 (const QdAtomic *self);
/* What drives input @port (< self->n_in / 2) of @self. From init on:
 * the driver's element outputs exist then, even before its init. */
void      qd_atomic_vector_input  (QdAtomic       *self,
                                   guint           port,
                                   QdVectorInput  *input);
/* The time advance that brings @t exactly to @tn (t + ta == tn in
 * double arithmetic, as the event loop computes a block's next time),
 * so that an element scheduled at @tn by its block happens at @tn to
 * the bit, as a scalar block's would; QD_INF for QD_INF. tn - t is
 * exact when tn is within a factor of two of t (Sterbenz's lemma);
 * otherwise a neighbour of it gives t + ta == tn. Inline: once per
 * element event. */
static inline double
qd_vector_time_advance (double t,
                        double tn)
{
  double ta;

  if (tn == QD_INF)
    return QD_INF;
  ta = tn - t;
  for (int k = 0; k < 8 && t + ta < tn; k++)
    ta = nextafter (ta, QD_INF);
  for (int k = 0; k < 8 && t + ta > tn; k++)
    ta = nextafter (ta, -QD_INF);
  return ta;
}

/* Defines @run, an eval0_run (QdBlockFastPaths) that calls @eval0, an
 * inline eval0 of the same file, for each block of the run. */
#define QD_DEFINE_EVAL0_RUN(run, eval0)                                     \
  static void                                                               \
  run (const QdEval0Op *ops,                                                \
       guint            n,                                                  \
       double           t,                                                  \
       double          *v)                                                  \
  {                                                                         \
    for (guint k = 0; k < n; k++)                                           \
      v[ops[k].out] = eval0 (ops[k].atomic, ops[k].data, t, v, ops[k].in,   \
                             ops[k].n_in);                                  \
  }

/* Defines @name, the eval0 of @run's extra blocks (QdEval0Affine.extra)
 * through @eval0, an inline eval0 of the same file that does not look at
 * its block (it is given none): the block's own operations. Returns the
 * sum of their outputs, for an eval0_affine's value. */
#define QD_DEFINE_EVAL0_EXTRA(name, eval0)                                  \
  G_STATIC_ASSERT (QD_EVAL0_AFFINE_MAX_EXTRA == 2);                         \
  static inline double                                                      \
  name (const QdEval0Affine *run,                                           \
        double               t)                                             \
  {                                                                         \
    const QdEval0Extra *x = run->extra;                                     \
    const double *v = run->v;                                               \
    double *dy = run->dy, y0 = 0.0, y1 = 0.0;                               \
                                                                            \
    /* Unrolled, two at most: 17 instructions, 26 as a loop. */            \
    if (run->n_extra > 0)                                                   \
      dy[x[0].k] = y0 = eval0 (NULL, x[0].data, t, v, x[0].in, x[0].n_in);  \
    if (run->n_extra > 1)                                                   \
      dy[x[1].k] = y1 = eval0 (NULL, x[1].data, t, v, x[1].in, x[1].n_in);  \
    return y0 + y1;                                                         \
  }

/* The most crossing levels of one block (crossing_levels). */
#define QD_MAX_CROSSINGS 2

G_END_DECLS

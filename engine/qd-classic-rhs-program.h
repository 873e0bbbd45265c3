/* qd-classic-rhs-program.h: the types of a classic solver's right-hand
 * side as a flat program (qd-classic-rhs.c builds and evaluates it) and
 * of the delivery of its steps without the event loop
 * (qd-classic-deliver.c)
 */
#pragma once

#include "qd-classic-rhs-private.h"
#include "qd-simulation-private.h"

G_BEGIN_DECLS

#define NO_SLOT G_MAXUINT32


typedef double (*QdEval0Func) (QdAtomic *self, gconstpointer data, double t,
                               const double *v, const guint32 *in,
                               guint n_in);
typedef void (*QdEval0RunFunc) (const QdEval0Op *ops, guint n, double t,
                                double *v);

/* How far ahead an evaluation asks for a block's data (the blocks are
 * padded with as many empty ones). */
#define PREFETCH_AHEAD 8

/* One block of the program, besides its QdEval0Op. */
typedef struct
{
  QdEval0Func  eval0;        /* NULL: through its DEVS functions */
  guint32      signal;       /* its output 0 in the simulation's signals */
  guint32      readback;     /* DEVS path: its first pair in readback */
  guint16      n_readback;   /* DEVS path: outputs read back */
  guint8       publish;      /* eval0: a block on the DEVS path reads its
                                output: write the segment too */
  guint16      data_size;    /* eval0: the bytes of its packed data, or 0 */
  guint8       lone;         /* eval0: its output is one derivative and
                                nothing else: in no run, written into dy
                                (see Lone) */
  guint64      ports;        /* DEVS path: the inputs f drives */
} Op;

/* Blocks that follow each other: through their type's eval0_run in one
 * call, as an affine run (affine, an index in affine), or (neither) one
 * by one. */
typedef struct
{
  QdEval0RunFunc run;
  guint32        first;
  guint32        n;
  guint32        affine;
} Run;

/* A run of blocks of one type whose values lie at affine places (see
 * "Affine runs" below), in slots until an evaluation gives addresses. */
typedef struct
{
  QdEval0AffineFunc func;       /* the type's eval0_affine, or the loop
                                   its eval0_affine_pick chose */
  QdEval0AffineFunc (*pick) (const QdEval0Affine *run);
  guint32           n;
  guint32           n_in;
  guint32           in[QD_EVAL0_AFFINE_MAX_IN];    /* block 0's slots */
  gint64            in_stride[QD_EVAL0_AFFINE_MAX_IN];
  guint8            in_y[QD_EVAL0_AFFINE_MAX_IN];  /* all in the states:
                                                      read in y */
  guint32           out;        /* block 0's output slot */
  guint32           to_dy;      /* its outputs are the derivatives of the
                                   states from this one on, and nothing
                                   else reads them: written there; or
                                   NO_SLOT */
  const double     *data;
  gssize            data_stride;
  QdEval0Affine     run;        /* what the type's function is given,
                                   ready but for the addresses in y and
                                   dy, which each evaluation sets */
} Affine;

/* A block alone whose output is the derivative of state k and read by
 * nothing else: dy[k] = its eval0, after the program (which then has
 * all its inputs, and never reads its output), without a slot. */
typedef struct
{
  QdEval0Func    eval0;
  QdAtomic      *atomic;
  gconstpointer  data;
  const guint32 *in;
  guint32        n_in;
  guint32        k;
} Lone;

/* Derivatives copied from consecutive slots: dy[k ... k + n - 1]. */
typedef struct
{
  guint32 k;
  guint32 slot;
  guint32 n;
} Copy;

/* A value f reads from outside itself: a signal evaluated at t. */
typedef struct
{
  guint32         slot;
  const QdSignal *signal;
} Outside;

struct _QdClassicRhs
{
  QdSimulation *sim;
  guint         n;              /* states */
  const guint  *states;         /* their Integrators (the driver's) */
  double       *slots;
  guint         n_slots;
  QdEval0Op    *eops;           /* per block, padded by PREFETCH_AHEAD */
  Op           *ops;
  guint         n_ops;
  Run          *runs;
  guint         n_runs;
  Affine       *affine;
  guint         n_affine;
  guint         n_affine_blocks;
  guint         n_to_dy;        /* blocks of affine runs writing into dy */
  Lone         *lone;
  guint         n_lone;
  gboolean      straight;       /* only affine runs and blocks alone, and
                                   nothing to copy: eval_straight() */
  Copy         *copies;         /* the derivatives the runs do not write
                                   (tested for finiteness as they go):
                                   first those alone, then stretches */
  guint         n_copies;
  guint         n_singles;
  guint32      *y_needed;       /* the states read in the slots, or */
  guint         n_y_needed;
  gboolean      y_all;          /* all of them: one copy */
  gboolean    (*finite_sum) (const double *x, gsize n);
  guint         n_flat;
  guint32      *in_slots;
  guint         n_in_slots;
  guint32      *readback;       /* pairs: signal, slot */
  Outside      *outside;
  guint         n_outside;
  guint32      *published;      /* states whose segment a block on the
                                   DEVS path reads */
  guint         n_published;
  guint32      *deriv;          /* per state: its derivative's slot */
  gpointer      snapshot;       /* room for the largest state on the
                                   DEVS path */
  double       *packed;         /* copies of the blocks' eval0 data, in
                                   program order */

  /* The delivery without the loop (qd_classic_rhs_deliver()). */
  gint          direct;         /* -1: not yet known */
  guint32      *emit;           /* the static blocks the Integrators'
                                   outputs reach, in dependency order:
                                   first those whose outputs reach a
                                   sink, then the others */
  guint         n_emit;
  guint         n_needed;       /* the first ones, each delivery's */
  gboolean      stale;          /* the others' outputs are not yet
                                   those of the last delivery */
  double        t_delivered;    /* its time */
  guint32      *sinks;          /* pairs: a sink's link (its fanout
                                   entry), the signal that drives it */
  guint         n_sinks;
  double       *sink_ta;        /* per fanout entry to a sink: the sink's
                                   time advance after the last delivery,
                                   for the event log (allocated with one) */
  guint8       *d_internal;     /* per block: its internal and external */
  guint32      *d_external;     /* transitions in one delivery */
  guint64       d_transitions;  /* all of them */
  guint64       n_delivered;    /* deliveries */
};

G_END_DECLS

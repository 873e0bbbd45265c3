/* qd-classic-rhs-private.h: the right-hand side of a classic solver as a
 * flat program, and the delivery of its steps without the event loop
 * (qd-classic-rhs.c)
 */
#pragma once

#include "qd-simulation.h"

G_BEGIN_DECLS

typedef struct _QdClassicRhs QdClassicRhs;
struct _QdClassic;

/* The right-hand side of the @n_states Integrators @states (block
 * indices, in state order), through the @n_blocks direct-feedthrough
 * blocks @blocks between them, in dependency order; @ports[r] holds the
 * inputs of @blocks[r] that an Integrator or another of them drives.
 * With @flat, the blocks whose type gives an order-0 evaluation
 * (QdBlockFastPaths.eval0) are evaluated through it over one array of
 * values; the others, or all of them without @flat, through their DEVS
 * functions on segments. Built after every block's init. */
QdClassicRhs *qd_classic_rhs_new      (QdSimulation   *sim,
                                       const guint    *states,
                                       guint           n_states,
                                       const guint    *blocks,
                                       guint           n_blocks,
                                       const guint64  *ports,
                                       gboolean        flat);
void          qd_classic_rhs_free     (QdClassicRhs   *self);

/* f(@t, @y) into @dy; FALSE when a derivative is not finite. */
gboolean      qd_classic_rhs_eval     (QdClassicRhs   *self,
                                       double          t,
                                       const double   *y,
                                       double         *dy);

/* How many blocks of the right-hand side go through their order-0
 * evaluation (the rest through their DEVS functions). */
guint         qd_classic_rhs_n_flat   (const QdClassicRhs *self);

/* How many blocks go through affine runs (QdBlockFastPaths.eval0_affine),
 * in how many runs, and how many of them write the derivatives
 * themselves. */
void          qd_classic_rhs_affine_counts (const QdClassicRhs *self,
                                            guint              *n_blocks,
                                            guint              *n_runs,
                                            guint              *n_to_dy);

/* How many calls an evaluation makes to the blocks' code: one per run
 * of blocks of one type (eval0_run or eval0_affine), one per block
 * alone. */
guint         qd_classic_rhs_n_calls  (const QdClassicRhs *self);

/* How many blocks alone write their output, a derivative nothing else
 * reads, straight into dy (each one of the calls). */
guint         qd_classic_rhs_n_lone   (const QdClassicRhs *self);
/* How many such blocks the affine runs take along instead, evaluated in
 * the runs' calls (QdEval0Affine.extra). */
guint         qd_classic_rhs_n_extra  (const QdClassicRhs *self);

/* Whether the Integrators' outputs reach nothing but static blocks,
 * Integrators' derivatives and sinks (blocks without outputs), so that
 * a step's segments can go out without the event loop
 * (qd_classic_rhs_deliver()). Without @allowed, never. */
gboolean      qd_classic_rhs_can_deliver (QdClassicRhs *self,
                                          gboolean      allowed);

/* The Integrators' outputs @segs (one per state) at @t, their static
 * receivers' outputs and the sinks' external transitions, in the order
 * of their dependencies, with the transitions counted as the event loop
 * counts them, but without it. FALSE, having changed nothing, when an
 * output is not finite: the event loop must do it (and report it). */
gboolean      qd_classic_rhs_deliver  (QdClassicRhs   *self,
                                       double          t,
                                       const QdSignal *segs);

/* Under a classic solver, before the run starts: with @on FALSE, f goes
 * through every block's DEVS functions and the steps through the event
 * loop, as without these fast paths (for tests that hold the two to the
 * same results; qd-classic.c). */
void          qd_classic_set_fast_paths     (QdSimulation   *sim,
                                             gboolean        on);
/* How many blocks f evaluates through their eval0, and how many steps
 * went out without the event loop. */
void          qd_classic_get_fast_counts    (QdSimulation   *sim,
                                             guint          *n_flat,
                                             guint64        *direct_steps);

/* How many steps took their segment's end derivative from the solver's
 * own last evaluation of f instead of evaluating it again (qd-classic.c,
 * end_derivative_known()). */
guint64       qd_classic_get_reused_ends    (QdSimulation   *sim);

/* qd_classic_rhs_affine_counts() of the run's right-hand side (zeros
 * before it is set up). */
void          qd_classic_get_affine_counts  (QdSimulation   *sim,
                                             guint          *n_blocks,
                                             guint          *n_runs,
                                             guint          *n_to_dy);

/* qd_classic_rhs_n_calls() of the run's right-hand side (0 before it
 * is set up). */
guint         qd_classic_get_n_calls        (QdSimulation   *sim);
/* qd_classic_rhs_n_lone() of the run's right-hand side. */
guint         qd_classic_get_n_lone         (QdSimulation   *sim);
/* qd_classic_rhs_n_extra() of the run's right-hand side. */
guint         qd_classic_get_n_extra        (QdSimulation   *sim);

/* Brings the outputs the last delivery left out (of static blocks that
 * feed only derivatives) up to date: before the run returns. */
void          qd_classic_rhs_refresh  (QdClassicRhs   *self);

/* Adds to *@internal and *@external the transitions of block @i made
 * outside the event loop (qd_simulation_get_block_stats()). */
void          qd_classic_add_block_stats    (struct _QdClassic *classic,
                                             guint           i,
                                             guint64        *internal,
                                             guint64        *external);
void          qd_classic_rhs_add_block_stats (QdClassicRhs  *self,
                                              guint          i,
                                              guint64       *internal,
                                              guint64       *external);

/* The event loop's services for transitions made outside it
 * (qd-simulation-run.c; qd_simulation_direct_external() in
 * qd-simulation.c). */
void          qd_simulation_direct_clock    (QdSimulation   *sim,
                                             double          t);
void          qd_simulation_direct_count    (QdSimulation   *sim,
                                             guint64         events,
                                             guint64         transitions,
                                             guint64         steps);
double        qd_simulation_direct_external (QdSimulation   *sim,
                                             guint           j,
                                             guint           port,
                                             const QdSignal *x,
                                             double          t);
QdRunStatus   qd_simulation_direct_status   (QdSimulation   *sim,
                                             GError        **error);

G_END_DECLS

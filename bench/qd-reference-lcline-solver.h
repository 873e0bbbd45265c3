/* qd-reference-lcline-solver.h: a hand-written QSS2 solver for the LC
 * line, the floor the engine's benchmark is measured against
 *
 * The model is `qdevs-cli bench`'s lcline and lcline-random
 * (app/qd-cli-bench.c): ẋ1 = d − x2, ẋi = x(i−1) − x(i+1), ẋN = x(N−1),
 * d a unit pulse on [0, 1), QSS2 with dqrel = 1e-3 and dqmin = 1e-6,
 * x(0) = 0 or drawn from GRand seeded as the benchmark seeds it. The
 * solver does what the engine's WSum and Integrator blocks do, in the
 * engine's order of simultaneous events, and nothing else; see
 * qd-reference-lcline-solver.c. Not installed: the benchmark program and
 * tests/test-reference.c use it.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _QdRefLcline QdRefLcline;

/* A line of @n states (n >= 1), at rest (x = 0) or, with @random_start,
 * with the benchmark's random initial states. Everything the runs need
 * is allocated here: qd_ref_lcline_run() allocates nothing. */
QdRefLcline *qd_ref_lcline_new      (guint              n,
                                     gboolean           random_start);
void         qd_ref_lcline_free     (QdRefLcline       *self);

/* Puts every state back to its initial value, before a run. */
void         qd_ref_lcline_reset    (QdRefLcline       *self);

/* Simulates from 0 to @until (> 0), events at times < @until, as the
 * engine runs to its final time; returns the integrator steps, the
 * requantizations at t = 0 included. Call qd_ref_lcline_reset() before
 * each run. */
guint64      qd_ref_lcline_run      (QdRefLcline       *self,
                                     double             until);

/* The run in two parts, for timing the second alone: the start
 * (the requantizations at t = 0), then the events before @until, which
 * may be asked for in several calls with increasing @until; the steps of
 * each part. qd_ref_lcline_run() is the two parts in one call. */
guint64      qd_ref_lcline_start    (QdRefLcline       *self);
guint64      qd_ref_lcline_advance  (QdRefLcline       *self,
                                     double             until);

/* State @i (0-based) of the last run, at @t (not before its last
 * transition): x's polynomial evaluated there, as the engine's shift does. */
double       qd_ref_lcline_state_at (const QdRefLcline *self,
                                     guint              i,
                                     double             t);

/* How many times the last run fell back from the closed-form crossing to
 * the general search (the state on or past the edge of its band, x
 * without curvature, or a formula defeated by rounding). */
guint64      qd_ref_lcline_fallbacks (const QdRefLcline *self);

/* The bytes the run touches per state: the state record, its heap entry
 * and its heap position. */
gsize        qd_ref_lcline_bytes_per_state (void);

G_END_DECLS

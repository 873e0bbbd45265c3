/* qd-classic-roots.h: the crossings of hybrid blocks as root functions of
 * a classic ODE solver (qd-classic-roots.c)
 */
#pragma once

#include "qd-classic-private.h"
#include "qd-simulation-private.h"

G_BEGIN_DECLS

typedef struct _QdClassicRoots QdClassicRoots;

/* The blocks whose crossings the solver locates, among the @n_states
 * Integrators @block (@state_of: per block, its state or -1); NULL when
 * there are none. Adds to @stops (per block: its events are times the
 * solver stops at) the blocks upstream of them that are not driven by
 * an Integrator, whose segments must then hold through each step. */
QdClassicRoots *qd_classic_roots_new      (QdSimulation     *sim,
                                           guint             n_states,
                                           const guint      *block,
                                           const gint       *state_of,
                                           guint8           *stops);
void            qd_classic_roots_free     (QdClassicRoots   *self);
/* The number of root functions (fixed for the run). */
guint           qd_classic_roots_count    (QdClassicRoots   *self);
/* The root functions at (@t, @y) into @g. */
void            qd_classic_roots_eval     (QdClassicRoots   *self,
                                           double            t,
                                           const double     *y,
                                           double           *g);
/* Where the solver writes its root information (one int per
 * function, CVodeGetRootInfo()). */
int            *qd_classic_roots_info     (QdClassicRoots   *self);
/* The solver's step ended at roots at @t (their information written),
 * or at none (@t NaN). */
void            qd_classic_roots_found    (QdClassicRoots   *self,
                                           double            t);
/* After the Integrators' outputs of a step: each block's next crossing
 * becomes the root found in the step, or none. */
void            qd_classic_roots_schedule (QdClassicRoots   *self);
/* After events: records the levels of the blocks' current modes;
 * returns TRUE when they changed, which the solver's root functions
 * then follow only after a restart. */
gboolean        qd_classic_roots_refresh  (QdClassicRoots   *self,
                                           double            t);
/* How many times the solver evaluated the root functions. */
guint64         qd_classic_roots_get_evals (QdClassicRoots  *self);
/* Whether @t is where the solver last returned a root. */
gboolean        qd_classic_roots_at_root  (QdClassicRoots   *self,
                                           double            t);
const char     *qd_classic_roots_nearest  (QdClassicRoots   *self,
                                           double            t,
                                           const double     *y);

G_END_DECLS

/* qd-classic-private.h: the classic solver driver as the compiler and the
 * event loop see it (qd-classic.c)
 */
#pragma once

#include <stdio.h>  /* arkode_butcher.h needs FILE */

#include <arkode/arkode_butcher.h>

#include "qd-classic.h"
#include "qd-simulation.h"

G_BEGIN_DECLS

typedef struct _QdClassic QdClassic;

/* The driver of a simulation compiled under a classic solver, from the
 * settings (already checked), or NULL under "qss". */
QdClassic   *qd_classic_new        (const QdSettings      *settings);
void         qd_classic_free       (QdClassic             *self);
/* Whether the method can run @n_states states (the implicit ones keep a
 * dense Jacobian). */
gboolean     qd_classic_check_size (QdClassic             *self,
                                    guint                  n_states,
                                    GError               **error);
/* After the event loop's tables are built, before any block's init:
 * takes over the Integrators and finds the right-hand side's blocks. */
void         qd_classic_prepare    (QdClassic             *self,
                                    QdSimulation          *sim);
/* After every block's init: the Integrators leave the event loop. */
void         qd_classic_start      (QdClassic             *self);
/* Runs until @t_stop (QD_RUN_DONE), or until @max_steps steps of the
 * solver have ended (QD_RUN_STEPPED). */
QdRunStatus  qd_classic_run        (QdClassic             *self,
                                    double                 t_stop,
                                    guint64                max_steps,
                                    GError               **error);
void         qd_classic_get_stats  (QdClassic             *self,
                                    QdClassicStats        *stats);

/* The table of an ARKODE method (qd-classic-methods.c), new, with its
 * order @q and its embedding's @p (0 for none). */
ARKodeButcherTable qd_classic_table_new (const QdClassicMethod *method,
                                         gboolean               fixed,
                                         int                   *q,
                                         int                   *p);

/* The blocks of @sim marked in @in_set, in dependency order along the
 * fan-out (Kahn's; the compiler refused algebraic loops), written to
 * @order (room for every block); returns how many (qd-classic.c). */
guint        qd_classic_order_blocks    (QdSimulation  *sim,
                                         const guint8  *in_set,
                                         guint         *order);

/* The event loop's services to the driver (qd-simulation-run.c). */
QdRunStatus  qd_simulation_run_events   (QdSimulation *sim,
                                         double        t_limit,
                                         GError      **error);
/* Block @i's next event at @tn (QD_INF: passive). */
void         qd_simulation_schedule_at  (QdSimulation *sim,
                                         guint         i,
                                         double        tn);
/* Stops the run with @error (taken) as a block's failure would. */
void         qd_simulation_fail         (QdSimulation *sim,
                                         GError       *error);

G_END_DECLS

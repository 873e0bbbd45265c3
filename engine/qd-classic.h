/* qd-classic.h: the classic ODE solvers (SUNDIALS CVODE and ARKODE) as
 * the way a diagram's Integrators advance
 *
 * A model's "solver" setting chooses the family: "qss" (each Integrator
 * runs its own quantized-state method in the DEVS loop) or one of the
 * classic solvers below. Under a classic solver the states of all
 * Integrators form one ODE system y' = f(t, y), whose right-hand side is
 * evaluated through the blocks' own functions; everything discrete
 * (sources' breakpoints, hybrid blocks' crossings, discrete-event blocks)
 * stays in the DEVS loop, and the solver stops exactly at those times
 * (qd-classic.c). Sinks receive each accepted step as its cubic Hermite
 * segment, so traces, plots and exports are the same for both families.
 */
#pragma once

#include <glib.h>

#include "qd-version-macros.h"
#include "qd-block-type.h"
#include "qd-document.h"

G_BEGIN_DECLS

typedef enum
{
  QD_CLASSIC_CVODE,         /* CVODE: BDF or Adams, always adaptive */
  QD_CLASSIC_ERK,           /* ARKODE, an explicit Runge-Kutta table */
  QD_CLASSIC_DIRK,          /* ARKODE, a diagonally implicit table */
} QdClassicFamily;

typedef struct
{
  const char      *name;       /* the setting's value: "cvode-bdf" */
  const char      *label;      /* N_("CVODE BDF (stiff, adaptive)") */
  QdClassicFamily  family;
  int              order;      /* the method's order of accuracy */
  gboolean         adaptive;   /* has an error estimate (tolerances) */
  gboolean         fixed;      /* can run with a fixed step h */
} QdClassicMethod;

/* The classic methods, in the order the settings list them; @n_methods
 * receives their number. */
QD_API const QdClassicMethod *qd_classic_methods     (guint       *n_methods);
/* A method by name, or NULL ("qss" is not one). */
QD_API const QdClassicMethod *qd_classic_find_method (const char  *name);

/* Whether @settings name a known solver ("qss" or a classic one) with
 * options it can run: tolerances above 0, a fixed step h >= 0 (0 for
 * adaptive, which a method without an error estimate cannot be), a
 * maximum step >= 0. The message starts with "settings: ". */
QD_API gboolean      qd_classic_check_settings (const QdSettings  *settings,
                                                GError           **error);

/* Applies a command-line style specification "NAME[:opt=val,...]" (the
 * options rtol, atol, max_step and h) to @settings. */
QD_API gboolean      qd_classic_parse_spec     (const char        *spec,
                                                QdSettings        *settings,
                                                GError           **error);

typedef struct
{
  const char *method;         /* the method's name */
  guint64     steps;          /* accepted steps */
  guint64     failed_steps;   /* error test and convergence failures */
  guint64     rhs_evals;      /* right-hand side evaluations (with those
                                 of finite-difference Jacobians) */
  guint64     jac_evals;      /* Jacobian evaluations */
  guint64     root_stops;     /* stops at a crossing inside a step that
                                 changed the ODE (a restart) */
  guint64     root_evals;     /* evaluations of the crossings' root
                                 functions (0: none, qd-classic-roots.c) */
  guint64     time_events;    /* stops at a scheduled event time */
  guint64     restarts;       /* re-initialisations after a discontinuity */
  guint       n_states;       /* size of the ODE system */
} QdClassicStats;

/* The solver statistics of a simulation under a classic solver; FALSE
 * (and @stats untouched) under QSS. */
QD_API gboolean      qd_simulation_get_classic_stats (QdSimulation   *self,
                                                      QdClassicStats *stats);

/* f(@t, @y) of a simulation under a classic solver into @dy (n_states
 * values each, in the order of the Integrators in the flat model), as
 * the solver evaluates it, without counting it: for benchmarks and
 * checks, between the run's first step (the solver is set up then) and
 * its end (the blocks' exit). FALSE under QSS, outside that time, or
 * when a derivative is not finite. */
QD_API gboolean      qd_simulation_eval_classic_rhs  (QdSimulation   *self,
                                                      double          t,
                                                      const double   *y,
                                                      double         *dy);

G_END_DECLS

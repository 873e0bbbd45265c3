/* qd-reference-lcline-classic.h: the LC line's right-hand side written by
 * hand, and SUNDIALS driving it, the floor for `qdevs-cli bench` under the
 * classic solvers RKF45 and BDF (not installed)
 *
 * The line of app/qd-cli-bench.c: ẋ1 = d(t) − x2, ẋi = x(i−1) − x(i+1),
 * ẋN = x(N−1), d a unit pulse on [0, 1).
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint64 steps;       /* accepted steps */
  guint64 failed;      /* rejected steps */
  guint64 rhs_evals;   /* right-hand-side evaluations */
  double  cpu_s;       /* CPU time of the integration */
  double  rhs_ns;      /* one evaluation of the hand-written RHS alone */
  char    message[128];/* why it failed, or empty */
} QdRefClassicResult;

/* How many calls time one right-hand side alone, for a line of @n states
 * whose run evaluated it @evals times: a few milliseconds' worth, so
 * that the figure is steady. */
static inline guint64
qd_ref_rhs_calls (guint   n,
                  guint64 evals)
{
  return MAX (evals, 20000000 / MAX (n, 1));
}

/* f(t, x) of the line with @n states. */
void     qd_ref_lcline_rhs     (double        t,
                                const double *x,
                                double       *dx,
                                guint         n);

/* Integrates the line of @n states from 0 to @until with @method, the
 * engine's "rkf45" (ARKODE's explicit Fehlberg 4(5) table) or
 * "cvode-bdf" (CVODE BDF, dense linear solver, finite-difference
 * Jacobian), at @rtol, @atol, restarting at the pulse's end t = 1 as the
 * diagram's run does, and times the hand-written RHS alone over as many
 * calls. FALSE for another method, or when SUNDIALS fails (the reason
 * in @result->message). */
gboolean qd_ref_lcline_classic (const char         *method,
                                guint               n,
                                gboolean            random_start,
                                double              rtol,
                                double              atol,
                                double              until,
                                QdRefClassicResult *result);

G_END_DECLS

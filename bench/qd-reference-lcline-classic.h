/* qd-reference-lcline-classic.h: the LC line's right-hand side written by
 * hand, and SUNDIALS driving it, the floor for `qdevs-cli bench` under the
 * classic solvers RKF45 and BDF (not installed)
 *
 * The line of app/qd-cli-bench.c: ẋ1 = d(t) − x2, ẋi = x(i−1) − x(i+1),
 * ẋN = x(N−1), d a unit pulse on [0, 1).
 */
#pragma once

#include <glib.h>

#include "qd-reference-line.h"

G_BEGIN_DECLS

typedef struct
{
  guint64 steps;       /* accepted steps */
  guint64 failed;      /* rejected steps */
  guint64 rhs_evals;   /* right-hand-side evaluations */
  double  cpu_s;       /* CPU time of the integration */
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

/* The arrays of round @round's timings of one right-hand side alone,
 * the same memory for the hand-written one and the diagram's: *@x,
 * states drawn in (−1, 1) (qd_ref_draw_states(): a line on its way, which
 * the timing loops' feedback, 1e-300 dx, leaves as it is, never making a
 * subnormal number, whose arithmetic may be slower), and *@dx, each
 * 16 (@round mod 4) bytes past a cache line, so that the rounds go
 * through the four places malloc's 16-byte alignment may give an array
 * (at 10² states the place alone moves the hand-written RHS's time by a
 * fifth, which, had each its own allocation, would weigh on one side
 * only). Returns the block to free with g_aligned_free(). */
static inline gpointer
qd_ref_rhs_arrays (guint     n,
                   guint     round,
                   double  **x,
                   double  **dx)
{
  gsize pad = 2 * (round % 4), part = (n + pad + 7) / 8 * 8;
  double *block = g_aligned_alloc0 (2 * MAX (part, 8), sizeof (double), 64);

  *x = block + pad;
  *dx = block + part + pad;
  qd_ref_draw_states (*x, n);
  return block;
}

/* The hand-written RHS alone, @calls times on @x into @dx: ns per call. */
double   qd_ref_lcline_time_rhs (double       *x,
                                 double       *dx,
                                 guint         n,
                                 guint64       calls);

/* Where an evaluation driven by data finds the line (n ≥ 3): the sums
 * dx[out + j] = x[a + j] − x[b + j], j < n_sums, and the two ends,
 * dx[first_k] = first_w[0]·source + first_w[1]·x[first_in] and
 * dx[last_k] = last_w·x[last_in], the source being the Pulse's value. */
typedef struct
{
  gsize   a, b, out, n_sums;
  gsize   first_in, first_k, last_in, last_k;
  double  first_w[2], last_w;
  double  source;
} QdRefLineLayout;

/* @layout for the line of @n states (n ≥ 3; FALSE otherwise). */
gboolean qd_ref_lcline_layout (QdRefLineLayout *layout,
                               guint            n);

/* How the hand-written right-hand sides are built: for AVX2 too where
 * the processor has it, as the engine's own loops over runs of blocks
 * are (qd-classic-rhs.c), so that the ratio of the two measures the
 * diagram's overhead, not an instruction set; and at a place of their
 * own, the function and its loop at 64 bytes: at 10² states where the
 * linker happened to put the loop moved its time by 0.6 ns (9.2-9.9),
 * and aligned it takes the lesser. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define QD_REF_RHS_BUILD                                                    \
  __attribute__ ((target_clones ("avx2", "default"),                        \
                  optimize ("align-loops=64"), aligned (64)))
#else
#define QD_REF_RHS_BUILD
#endif

/* qd_ref_lcline_rhs() at a time inside the pulse, its layout read from
 * @layout: the same values to the bit. */
void     qd_ref_lcline_rhs_layout (const QdRefLineLayout *layout,
                                   const double          *x,
                                   double                *dx);

/* qd_ref_lcline_rhs_layout() alone, timed as qd_ref_lcline_time_rhs(). */
double   qd_ref_lcline_time_rhs_layout (const QdRefLineLayout *layout,
                                        double                *x,
                                        double                *dx,
                                        guint                  n,
                                        guint64                calls);

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

/* qd-reference-line.h: what the hand-written LC line solvers share about
 * the model: `qdevs-cli bench`'s quanta and random start (app/qd-cli-bench.c)
 *
 * Header-only, for qd-reference-lcline-solver.c (QSS2),
 * qd-reference-lcline3-solver.c (QSS3) and
 * qd-reference-lcline-liqss2-solver.c (LIQSS2). Not installed.
 */
#pragma once

#include <math.h>

#include <glib.h>

G_BEGIN_DECLS

#define QD_REF_SEED 20240601  /* app/qd-cli-bench.c's BENCH_SEED */
#define QD_REF_DQREL 1e-3
#define QD_REF_DQMIN 1e-6

/* The quantum of a state whose value was @x at its last requantization. */
static inline double
qd_ref_quantum (double x)
{
  double rel = QD_REF_DQREL * fabs (x);

  return rel > QD_REF_DQMIN ? rel : QD_REF_DQMIN;
}

/* @n states into @x, drawn in (−1, 1) as app/qd-cli-bench.c's
 * build_lcline() draws them, in order. */
static inline void
qd_ref_draw_states (double *x,
                    guint   n)
{
  GRand *rand = g_rand_new_with_seed (QD_REF_SEED);

  for (guint i = 0; i < n; i++)
    x[i] = g_rand_double_range (rand, -1.0, 1.0);
  g_rand_free (rand);
}

/* The @n initial states, freed with g_free(): 0, or with @random_start
 * drawn (qd_ref_draw_states()). */
static inline double *
qd_ref_initial_states (guint    n,
                       gboolean random_start)
{
  double *x = g_new0 (double, n);

  if (random_start)
    qd_ref_draw_states (x, n);
  return x;
}

G_END_DECLS

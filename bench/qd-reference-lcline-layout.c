/* qd-reference-lcline-layout.c: the LC line's hand-written right-hand
 * side with its layout read from memory (qd-reference-lcline-classic.h)
 *
 * A file of its own so that the hand-written RHS's code, and its place,
 * stay as they were: at 10² states where a timing loop lies moves it by
 * a twentieth.
 */
#include "qd-bench-timing.h"
#include "qd-reference-lcline-classic.h"

gboolean
qd_ref_lcline_layout (QdRefLineLayout *layout,
                      guint            n)
{
  if (n < 3)
    return FALSE;
  *layout = (QdRefLineLayout) {
    .a = 0, .b = 2, .out = 1, .n_sums = n - 2,
    .first_in = 1, .first_k = 0, .last_in = n - 2, .last_k = n - 1,
    .first_w = { 1.0, -1.0 }, .last_w = 1.0,
    .source = 1.0,
  };
  return TRUE;
}

/* The hand-written RHS as any evaluation that is not code generated for
 * one model must do it: where it reads and writes, how many sums, the
 * ends' weights and the source's value are read from memory, not known
 * when compiled. Nothing else is added: no finiteness test, no entry
 * through the library, no block's function, no slots. What this costs
 * beyond qd_ref_lcline_rhs() is a floor under the diagram's evaluation
 * (docs/performance.md). The sums as the hand-written loop writes them,
 * which the compiler vectorises alike; the ends' products by ±1 and the
 * additions of +0 are exact, so the values are the hand's to the bit.
 * Built as the hand-written one (QD_REF_RHS_BUILD). */
QD_REF_RHS_BUILD void
qd_ref_lcline_rhs_layout (const QdRefLineLayout *layout,
                          const double          *x,
                          double                *dx)
{
  const double *a = x + layout->a, *b = x + layout->b;
  double *out = dx + layout->out;
  gsize n = layout->n_sums;

  dx[layout->first_k] = layout->first_w[0] * layout->source
                        + layout->first_w[1] * x[layout->first_in];
  for (gsize j = 0; j < n; j++)
    out[j] = a[j] - b[j];
  dx[layout->last_k] = layout->last_w * x[layout->last_in];
}

double
qd_ref_lcline_time_rhs_layout (const QdRefLineLayout *layout,
                               double                *x,
                               double                *dx,
                               guint                  n,
                               guint64                calls)
{
  double ns;

  QD_BENCH_TIME_RHS (ns, qd_ref_lcline_rhs_layout (layout, x, dx), x, dx, n, calls);
  return ns;
}

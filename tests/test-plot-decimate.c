/* test-plot-decimate.c: the plot's decimation of traces into columns
 *
 * What the plot draws of a trace in each pixel column, exact curves and
 * lines, steps and events, a growing trace and one under a memory
 * budget, is compared against brute-force dense sampling. Needs no
 * display.
 */
#include <math.h>
#include <string.h>

#include "qd-plot-decimate.h"
#include "qd-test-util.h"

/* The value drawn at @t in @mode from segment @k (the one in force then,
 * or the one before for the value reached at the next event). NaN where
 * nothing is drawn. */
static double
mode_value (QdTrace    *trace,
            QdPlotMode  mode,
            gssize      k,
            double      t)
{
  gsize n = qd_trace_get_length (trace);
  const QdSignal *s = qd_trace_get (trace, k);
  const QdSignal *next = (gsize) k + 1 < n ? qd_trace_get (trace, k + 1) : NULL;

  switch (mode)
    {
    case QD_PLOT_MODE_EXACT:
      return qd_signal_eval (s, t);
    case QD_PLOT_MODE_STEPS:
      return s->c[0];
    case QD_PLOT_MODE_LINES:
      if (next == NULL)
        return t == s->t ? s->c[0] : NAN;
      return s->c[0] + (next->c[0] - s->c[0]) * (t - s->t) / (next->t - s->t);
    case QD_PLOT_MODE_EVENTS:
    default:
      return t == s->t ? s->c[0] : NAN;
    }
}

static void
widen (double *lo,
       double *hi,
       double  v)
{
  if (isnan (v))
    return;
  *lo = MIN (*lo, v);
  *hi = MAX (*hi, v);
}

/* The brute-force extremes of what @mode draws of @trace over [a, b]:
 * dense samples, plus every event inside and the value each segment has
 * reached where the next one starts. */
static void
brute_range_mode (QdTrace    *trace,
                  QdPlotMode  mode,
                  double      end,
                  double      a,
                  double      b,
                  double     *lo,
                  double     *hi)
{
  gsize n = qd_trace_get_length (trace);
  const guint samples = 2000;

  *lo = INFINITY;
  *hi = -INFINITY;
  a = MAX (a, qd_trace_get (trace, 0)->t);
  b = MIN (b, end);
  if (b < a)
    return;
  if (mode != QD_PLOT_MODE_EVENTS)
    for (guint j = 0; j <= samples; j++)
      {
        double t = a + (b - a) * j / samples;

        widen (lo, hi, mode_value (trace, mode, qd_trace_find (trace, n, t), t));
      }
  for (gsize i = 0; i < n; i++)
    {
      const QdSignal *s = qd_trace_get (trace, i);
      double e = i + 1 < n ? qd_trace_get (trace, i + 1)->t : end;

      if (s->t >= a && s->t <= b)
        widen (lo, hi, s->c[0]);
      if (e >= a && e <= b && i + 1 < n && mode != QD_PLOT_MODE_EVENTS)
        widen (lo, hi, mode_value (trace, mode, i, e));
    }
}

static void
brute_range (QdTrace *trace,
             double   end,
             double   a,
             double   b,
             double  *lo,
             double  *hi)
{
  brute_range_mode (trace, QD_PLOT_MODE_EXACT, end, a, b, lo, hi);
}

static QdTrace *
random_cubic_trace (guint   n,
                    double *end)
{
  QdTrace *trace = qd_trace_new ("random");
  double t = 0.0;

  for (guint i = 0; i < n; i++)
    {
      QdSignal s = { t, { g_test_rand_double_range (-1, 1),
                          g_test_rand_double_range (-20, 20),
                          g_test_rand_double_range (-400, 400),
                          g_test_rand_double_range (-8000, 8000) }, 3, 0 };

      qd_trace_append (trace, &s);
      t += g_test_rand_double_range (0.001, 0.05);
    }
  *end = t;
  return trace;
}

static void
test_decimate_exact (void)
{
  double end;
  g_autoptr(QdTrace) trace = random_cubic_trace (300, &end);
  const guint n = 97;
  double t0 = 0.7, t1 = end * 0.9, w = (t1 - t0) / n;
  double worst = 0.0;

  /* Piece by piece, then through summaries of runs of 2 pieces. */
  for (guint pass = 0; pass < 2; pass++)
    {
      QdPlotColumns *cols = qd_plot_columns_new ();
      const QdPlotColumn *c;

      qd_plot_columns_set_block_size (cols, pass == 0 ? 29 : 1);
      c = qd_plot_columns_update (cols, trace, QD_PLOT_MODE_EXACT, t0, t1, n, end);
      for (guint k = 0; k < n; k++)
        {
          double lo, hi;

          brute_range (trace, end, t0 + k * w, t0 + (k + 1) * w, &lo, &hi);
          g_assert_cmpfloat (c[k].min, <=, c[k].max);
          /* Exact extremes can only be beyond what sampling finds, and
           * by no more than sampling can miss. */
          g_assert_cmpfloat (c[k].min, <=, lo + 1e-12);
          g_assert_cmpfloat (c[k].max, >=, hi - 1e-12);
          g_assert_cmpfloat (fabs (c[k].min - lo), <, 1e-3 * MAX (1.0, fabs (lo)));
          g_assert_cmpfloat (fabs (c[k].max - hi), <, 1e-3 * MAX (1.0, fabs (hi)));
          worst = MAX (worst, MAX (lo - c[k].min, c[k].max - hi));
        }
      qd_plot_columns_free (cols);
    }
  g_test_message ("largest gap between exact and sampled extremes: %.3g", worst);
}

/* Lines, steps and events are decimated like exact curves, from what
 * each mode draws. */
static void
test_decimate_modes (void)
{
  double end;
  g_autoptr(QdTrace) trace = random_cubic_trace (400, &end);
  const guint n = 61;
  double t0 = 0.3, t1 = end * 0.95, w = (t1 - t0) / n;

  for (QdPlotMode mode = QD_PLOT_MODE_LINES; mode <= QD_PLOT_MODE_EVENTS; mode++)
    {
      QdPlotColumns *cols = qd_plot_columns_new ();
      const QdPlotColumn *c;

      qd_plot_columns_set_block_size (cols, 2);
      c = qd_plot_columns_update (cols, trace, mode, t0, t1, n, end);
      for (guint k = 0; k < n; k++)
        {
          double lo, hi;

          brute_range_mode (trace, mode, end, t0 + k * w, t0 + (k + 1) * w, &lo, &hi);
          if (lo > hi)
            {
              /* Nothing drawn there (events mode between events). */
              g_assert_cmpfloat (c[k].min, >, c[k].max);
              continue;
            }
          /* Lines and steps are straight between events, so samples at
           * the events find the exact extremes. */
          g_assert_cmpfloat_with_epsilon (c[k].min, lo, 1e-12);
          g_assert_cmpfloat_with_epsilon (c[k].max, hi, 1e-12);
        }
      qd_plot_columns_free (cols);
    }
}

static void
test_decimate_incremental (void)
{
  double end;
  g_autoptr(QdTrace) full = random_cubic_trace (5000, &end);
  g_autoptr(QdTrace) growing = qd_trace_new ("growing");
  QdPlotColumns *live = qd_plot_columns_new ();
  QdPlotColumns *scratch = qd_plot_columns_new ();
  const guint n = 300;
  double t0 = 1.0, t1 = end;
  gsize appended = 0;
  guint round = 0;

  /* Runs of 4 pieces summarised in the live cache; none (runs longer
   * than the trace) in the reference, which reads every piece. */
  qd_plot_columns_set_block_size (live, 2);
  qd_plot_columns_set_block_size (scratch, 29);

  /* Feed the segments in bursts, updating after each as a frame would;
   * every time the result must equal a from-scratch computation, and
   * only the new segments (and the open last one) may be read. Now and
   * then the view changes (a zoom), which the summaries must survive. */
  while (appended < 5000)
    {
      if (++round % 5 == 0)
        {
          t0 = g_test_rand_double_range (0.0, end / 2);
          t1 = g_test_rand_double_range (end / 2, end);
        }
      gsize burst = (gsize) g_test_rand_int_range (1, 400);
      double t_end;
      const QdPlotColumn *a, *b;

      burst = MIN (burst, 5000 - appended);
      for (gsize i = 0; i < burst; i++)
        qd_trace_append (growing, qd_trace_get (full, appended + i));
      appended += burst;
      t_end = qd_trace_get (growing, appended - 1)->t + 0.01;

      a = qd_plot_columns_update (live, growing, QD_PLOT_MODE_EXACT, t0, t1, n, t_end);
      if (round % 5 != 0 && appended > burst
          && qd_trace_get (growing, appended - burst - 1)->t > t0
          && qd_trace_get (growing, appended - 1)->t < t1)
        g_assert_cmpuint (qd_plot_columns_get_n_read (live), ==, burst + 1);
      else if (round % 5 != 0)
        g_assert_cmpuint (qd_plot_columns_get_n_read (live), <=, burst + 1);
      b = qd_plot_columns_update (scratch, growing, QD_PLOT_MODE_EXACT, t0, t1, n, t_end);
      qd_plot_columns_reset (scratch);
      for (guint k = 0; k < n; k++)
        {
          g_assert_cmpfloat (a[k].min, ==, b[k].min);
          g_assert_cmpfloat (a[k].max, ==, b[k].max);
          if (a[k].min <= a[k].max)
            {
              g_assert_cmpfloat (a[k].first, ==, b[k].first);
              g_assert_cmpfloat (a[k].last, ==, b[k].last);
            }
        }
    }
  qd_plot_columns_free (live);
  qd_plot_columns_free (scratch);
}

/* The extremes of @seg over [a, b] the plain way: 32 steps of samples
 * plus the polynomial at each root of its derivative inside (solved
 * here with the textbook formula, independently of the code under
 * test). Returns whether a turning point was inside. */
static gboolean
sampled_segment_range (const QdSignal *seg,
                       double          a,
                       double          b,
                       double         *lo,
                       double         *hi)
{
  double c1 = seg->c[1], c2 = seg->c[2], c3 = seg->c[3];
  double roots[2];
  int n_roots = 0;
  gboolean inside = FALSE;

  for (int j = 0; j <= 32; j++)
    widen (lo, hi, qd_signal_eval (seg, j == 32 ? b : a + (b - a) * j / 32));
  if (c3 != 0.0)
    {
      double disc = 4.0 * c2 * c2 - 12.0 * c3 * c1;

      if (disc >= 0.0)
        {
          roots[n_roots++] = (-2.0 * c2 + sqrt (disc)) / (6.0 * c3);
          roots[n_roots++] = (-2.0 * c2 - sqrt (disc)) / (6.0 * c3);
        }
    }
  else if (c2 != 0.0)
    roots[n_roots++] = -c1 / (2.0 * c2);
  for (int k = 0; k < n_roots; k++)
    if (seg->t + roots[k] > a && seg->t + roots[k] < b)
      {
        widen (lo, hi, qd_signal_eval (seg, seg->t + roots[k]));
        inside = TRUE;
      }
  return inside;
}

/* Many QSS2 and QSS3 segments in each pixel column, a good part of them
 * with a turning point inside and some with one just inside or just
 * outside their ends (where a shortcut that skips solving for it would
 * go wrong): each column's extremes are exactly those of
 * qd_signal_range() over the segments' parts in it, and agree with dense
 * sampling plus the turning points; the same with run summaries. */
static void
test_decimate_within_column (void)
{
  for (int order = 2; order <= 3; order++)
    {
      g_autoptr(QdTrace) trace = qd_trace_new ("dense");
      const gsize n_seg = 20000;
      const guint n = 211;
      double t = 0.0, t0, t1, w, end;
      guint n_turning = 0, n_edge = 0;

      for (gsize i = 0; i < n_seg; i++)
        {
          double len = g_test_rand_double_range (0.005, 0.015);
          QdSignal seg = { t, { g_test_rand_double_range (-1, 1),
                                g_test_rand_double_range (-1, 1),
                                g_test_rand_double_range (-100, 100), 0.0 }, order, 0 };

          if (order == 3)
            seg.c[3] = g_test_rand_double_range (-5000, 5000);
          if (order == 2 && i % 10 == 0)
            {
              /* The vertex a hair inside or outside the segment's end. */
              double where = len * (1.0 + (i % 20 == 0 ? 1 : -1)
                                    * pow (10.0, -g_test_rand_int_range (3, 12)));

              seg.c[1] = -2.0 * seg.c[2] * where;
              n_edge++;
            }
          qd_trace_append (trace, &seg);
          t += len;
        }
      end = t;
      t0 = 0.37;
      t1 = end - 0.41;
      w = (t1 - t0) / n;

      for (guint pass = 0; pass < 2; pass++)
        {
          QdPlotColumns *cols = qd_plot_columns_new ();
          const QdPlotColumn *c;

          qd_plot_columns_set_block_size (cols, pass == 0 ? 29 : 3);
          c = qd_plot_columns_update (cols, trace, QD_PLOT_MODE_EXACT, t0, t1, n, end);
          for (guint k = 0; k < n; k++)
            {
              double ca = t0 + k * w, cb = t0 + (k + 1) * w;
              double lo = INFINITY, hi = -INFINITY, slo = INFINITY, shi = -INFINITY;
              gssize i = qd_trace_find (trace, n_seg, ca);

              for (; i < (gssize) n_seg && qd_trace_get (trace, i)->t < cb; i++)
                {
                  const QdSignal *seg = qd_trace_get (trace, i);
                  double a = MAX (seg->t, ca);
                  double b = MIN (i + 1 < (gssize) n_seg ? qd_trace_get (trace, i + 1)->t : end, cb);
                  double mn, mx;

                  qd_signal_range (seg, a, b, &mn, &mx);
                  lo = MIN (lo, mn);
                  hi = MAX (hi, mx);
                  if (sampled_segment_range (seg, a, b, &slo, &shi) && pass == 0)
                    n_turning++;
                }
              g_assert_cmpfloat (c[k].min, ==, lo);
              g_assert_cmpfloat (c[k].max, ==, hi);
              /* Sampling finds no more than the exact extremes, and the
               * turning points make it find them. */
              g_assert_cmpfloat (c[k].min, <=, slo);
              g_assert_cmpfloat (c[k].max, >=, shi);
              g_assert_cmpfloat (slo - c[k].min, <, 1e-12);
              g_assert_cmpfloat (c[k].max - shi, <, 1e-12);
            }
          qd_plot_columns_free (cols);
        }
      /* Both kinds of segment were there, in numbers. */
      g_assert_cmpuint (n_turning, >, n_seg / 10);
      g_assert_cmpuint (n_turning, <, n_seg * 9 / 10);
      g_assert_cmpuint (n_edge, ==, order == 2 ? n_seg / 10 : 0);
    }
}

static void
test_segment_range (void)
{
  /* (s - 1)(s - 2)(s - 3) = s^3 - 6 s^2 + 11 s - 6: turning points at
   * 2 -+ 1/sqrt(3), values +-2/(3 sqrt(3)). */
  QdSignal s = { 5.0, { -6.0, 11.0, -6.0, 1.0 }, 3, 0 };
  double lo, hi, e = 2.0 / (3.0 * sqrt (3.0));

  qd_plot_segment_range (&s, 6.0, 8.0, &lo, &hi);
  g_assert_cmpfloat_with_epsilon (lo, -e, 1e-14);
  g_assert_cmpfloat_with_epsilon (hi, e, 1e-14);
  /* Only the ends count when the turning points are outside. */
  qd_plot_segment_range (&s, 8.5, 9.0, &lo, &hi);
  g_assert_cmpfloat_with_epsilon (lo, qd_signal_eval (&s, 8.5), 1e-14);
  g_assert_cmpfloat_with_epsilon (hi, qd_signal_eval (&s, 9.0), 1e-14);
}

/* A cubic at t = i over [i, i + 1], turning inside (as in test-trace.c). */
static void
budget_segment (gsize     index,
                QdSignal *seg)
{
  double i = (double) index;

  seg->t = i;
  seg->c[0] = sin (0.001 * i) + 0.2 * sin (0.05 * i);
  seg->c[1] = cos (0.37 * i);
  seg->c[2] = -1.5 * cos (0.37 * i);
  seg->c[3] = 0.1 * sin (i);
  seg->order = 3;
  seg->tag = 0;
}

/* The exact extremes of budget_segment's trace over [a, b), a and b
 * whole numbers. */
static void
budget_exact_range (double  a,
                    double  b,
                    double *lo,
                    double *hi)
{
  *lo = INFINITY;
  *hi = -INFINITY;
  for (gsize i = (gsize) a; i < (gsize) b; i++)
    {
      QdSignal seg;
      double mn, mx;

      budget_segment (i, &seg);
      qd_signal_range (&seg, seg.t, seg.t + 1.0, &mn, &mx);
      *lo = MIN (*lo, mn);
      *hi = MAX (*hi, mx);
    }
}

/* A trace under a memory budget, drawn over its whole span: each column
 * over the decimated part holds exactly the extremes of the buckets it
 * overlaps (the exact extremes over their span), each column over the
 * exact part the same as the trace without a budget. Columns kept up to
 * date while the writer dropped segments they had not read are an
 * envelope of the exact ones. */
static void
test_decimate_budget (void)
{
  const gsize n = 300000;
  const guint n_cols = 500;
  g_autoptr(QdTraceBudget) budget = qd_trace_budget_new (1 << 20);
  g_autoptr(QdTrace) trace = qd_trace_new ("/S/x");
  g_autoptr(QdTrace) twin = qd_trace_new ("/S/x");
  QdPlotColumns *live = qd_plot_columns_new ();
  QdPlotColumns *fresh = qd_plot_columns_new ();
  QdPlotColumns *exact = qd_plot_columns_new ();
  const QdPlotColumn *cl, *cf, *ce;
  const QdTraceBucket *hist;
  gsize first, n_hist;
  double t_exact, width = (double) n / n_cols;
  guint checked = 0, pin;
  double all_lo = INFINITY, all_hi = -INFINITY;

  qd_trace_budget_add (budget, trace);
  for (gsize i = 0; i < n; i++)
    {
      QdSignal seg;

      budget_segment (i, &seg);
      qd_trace_append (trace, &seg);
      qd_trace_append (twin, &seg);
      if (i % 5000 == 4999)
        qd_plot_columns_update (live, trace, QD_PLOT_MODE_EXACT, 0.0, (double) n, n_cols, (double) n);
    }
  cl = qd_plot_columns_update (live, trace, QD_PLOT_MODE_EXACT, 0.0, (double) n, n_cols, (double) n);
  cf = qd_plot_columns_update (fresh, trace, QD_PLOT_MODE_EXACT, 0.0, (double) n, n_cols, (double) n);
  ce = qd_plot_columns_update (exact, twin, QD_PLOT_MODE_EXACT, 0.0, (double) n, n_cols, (double) n);
  for (guint k = 0; k < n_cols; k++)
    {
      all_lo = MIN (all_lo, ce[k].min);
      all_hi = MAX (all_hi, ce[k].max);
    }

  pin = qd_trace_read_begin (trace);
  first = qd_trace_get_first (trace);
  hist = qd_trace_get_history (trace, &n_hist);
  g_assert_cmpuint (first, >, n / 2);
  t_exact = qd_trace_get (trace, first)->t;
  for (guint k = 0; k < n_cols; k++)
    {
      double c0 = k * width, c1 = (k + 1) * width;
      double u0 = INFINITY, u1 = -INFINITY, lo, hi;

      if (c1 <= t_exact)
        {
          /* The buckets that overlap the column (spans are half open). */
          for (gsize j = 0; j < n_hist; j++)
            if (hist[j].t0 < c1 && hist[j].t1 > c0)
              {
                u0 = MIN (u0, hist[j].t0);
                u1 = MAX (u1, hist[j].t1);
              }
          budget_exact_range (u0, u1, &lo, &hi);
          g_assert_cmpfloat (cf[k].min, ==, lo);
          g_assert_cmpfloat (cf[k].max, ==, hi);
          checked++;
        }
      else if (c0 > t_exact)
        {
          g_assert_cmpfloat (cf[k].min, ==, ce[k].min);
          g_assert_cmpfloat (cf[k].max, ==, ce[k].max);
        }
      /* Kept up to date: never narrower than the truth. */
      g_assert_cmpfloat (cl[k].min, <=, ce[k].min);
      g_assert_cmpfloat (cl[k].max, >=, ce[k].max);
      g_assert_cmpfloat (cl[k].min, >=, all_lo);
      g_assert_cmpfloat (cl[k].max, <=, all_hi);
    }
  qd_trace_read_end (trace, pin);
  g_assert_cmpuint (checked, >, n_cols / 2);

  qd_plot_columns_free (live);
  qd_plot_columns_free (fresh);
  qd_plot_columns_free (exact);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  g_test_add_func ("/plot/decimate/segment-range", test_segment_range);
  g_test_add_func ("/plot/decimate/exact", test_decimate_exact);
  g_test_add_func ("/plot/decimate/modes", test_decimate_modes);
  g_test_add_func ("/plot/decimate/incremental", test_decimate_incremental);
  g_test_add_func ("/plot/decimate/budget", test_decimate_budget);
  g_test_add_func ("/plot/decimate/within-column", test_decimate_within_column);

  return g_test_run ();
}

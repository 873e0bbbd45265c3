/* qd-plot-decimate.c: per-pixel-column minimum and maximum of a trace
 *
 * Each display mode turns segment i into a polynomial piece over
 * [t_i, t_i+1]: the segment itself (exact), its first coefficient
 * (steps), the chord to the next event's value (lines), or a single point
 * (events). A piece is cut at column boundaries and each part's exact
 * extremes are merged into its column. A piece is final once the next
 * segment exists, so those are "committed" once and for all; only the
 * open last piece is recomputed at every update, on a copy.
 *
 * Zooming or resizing changes every column, and a view of ten million
 * segments would read them all again. So runs of BLOCK consecutive
 * pieces are summarised once per trace and mode (exact extremes over the
 * run, value in and value out), independently of the view: a run that
 * falls inside one column is merged in one step. Only the runs that
 * straddle a column boundary are read piece by piece. A summary is built
 * the first time it is needed, and never changes after (the run's pieces
 * are all final), so it survives every change of view.
 *
 * A trace under a memory budget keeps only its recent segments exact;
 * before them it has buckets of decimated history (qd-trace.h). Those are
 * merged as bands: each bucket's extremes go into every column it
 * overlaps, which is exact for columns made of whole buckets and an
 * honest envelope for finer ones. They are merged when the view is set up
 * and, when the writer dropped segments not yet committed, over the span
 * that was lost, never on top of exact data already committed.
 */
#include "qd-plot-decimate.h"

#include <math.h>
#include <string.h>

#define DEFAULT_BLOCK_SHIFT 8   /* 256 pieces per summary */

typedef struct
{
  double min, max;   /* min > max: not built yet */
  double first, last;
} Block;

struct _QdPlotColumns
{
  QdTrace      *trace;      /* a reference, so the identity stays valid */
  QdPlotMode    mode;
  double        t0, t1;
  guint         n;
  gboolean      valid;

  QdPlotColumn *committed;  /* the pieces whose end is known */
  QdPlotColumn *out;        /* committed plus the open last piece */
  gsize         done;       /* pieces below this index are committed */
  double        done_t;     /* where piece done starts: committed before */
  gboolean      has_tail;
  guint         tail_lo, tail_hi;
  gsize         n_read;

  /* Summaries of runs of pieces of this trace in this mode. */
  GArray       *blocks;     /* Block, index i covers pieces i << shift.. */
  guint         block_shift;
};

void
qd_plot_segment_range (const QdSignal *segment,
                       double          ta,
                       double          tb,
                       double         *min,
                       double         *max)
{
  /* The engine decimates traces with the same function, so history
   * buckets and columns agree to the last bit. */
  qd_signal_range (segment, ta, tb, min, max);
}

QdPlotColumns *
qd_plot_columns_new (void)
{
  QdPlotColumns *self = g_new0 (QdPlotColumns, 1);

  self->blocks = g_array_new (FALSE, FALSE, sizeof (Block));
  self->block_shift = DEFAULT_BLOCK_SHIFT;
  return self;
}

void
qd_plot_columns_reset (QdPlotColumns *self)
{
  g_clear_pointer (&self->trace, qd_trace_unref);
  g_array_set_size (self->blocks, 0);
  self->valid = FALSE;
}

void
qd_plot_columns_set_block_size (QdPlotColumns *self,
                                guint          log2_size)
{
  g_return_if_fail (log2_size >= 1 && log2_size < 30);
  self->block_shift = log2_size;
  qd_plot_columns_reset (self);
}

void
qd_plot_columns_free (QdPlotColumns *self)
{
  if (self == NULL)
    return;
  qd_plot_columns_reset (self);
  g_array_unref (self->blocks);
  g_free (self->committed);
  g_free (self->out);
  g_free (self);
}

gsize
qd_plot_columns_get_n_read (QdPlotColumns *self)
{
  return self->n_read;
}

static inline void
clear_columns (QdPlotColumn *cols,
               guint         n)
{
  for (guint k = 0; k < n; k++)
    {
      cols[k].min = INFINITY;
      cols[k].max = -INFINITY;
      cols[k].first = cols[k].last = NAN;
    }
}

static inline void
merge (QdPlotColumn *col,
       double        lo,
       double        hi,
       double        first,
       double        last)
{
  if (col->min > col->max)
    col->first = first;
  col->min = MIN (col->min, lo);
  col->max = MAX (col->max, hi);
  col->last = last;
}

/* The piece of segment @i in @mode: a polynomial in @piece over
 * [piece->t, *end]. A line needs the next event: without one (the last
 * segment) it is a single point. */
static inline void
make_piece (QdTrace    *trace,
            gsize       i,
            gsize       length,
            QdPlotMode  mode,
            double      t_end,
            QdSignal   *piece,
            double     *end)
{
  const QdSignal *seg = qd_trace_get (trace, i);
  const QdSignal *next = i + 1 < length ? qd_trace_get (trace, i + 1) : NULL;

  switch (mode)
    {
    case QD_PLOT_MODE_EXACT:
      *piece = *seg;
      *end = next != NULL ? next->t : MAX (t_end, seg->t);
      break;

    case QD_PLOT_MODE_STEPS:
      qd_signal_set_constant (piece, seg->t, seg->c[0]);
      *end = next != NULL ? next->t : MAX (t_end, seg->t);
      break;

    case QD_PLOT_MODE_LINES:
      qd_signal_set_constant (piece, seg->t, seg->c[0]);
      *end = seg->t;
      if (next != NULL && next->t > seg->t)
        {
          piece->c[1] = (next->c[0] - seg->c[0]) / (next->t - seg->t);
          piece->order = 1;
          *end = next->t;
        }
      break;

    case QD_PLOT_MODE_EVENTS:
    default:
      qd_signal_set_constant (piece, seg->t, seg->c[0]);
      *end = seg->t;
      break;
    }
}

/* Merges the piece over [a, b] into @cols; widens [*lo, *hi] to the
 * columns it touched. */
static void
add_piece (QdPlotColumns  *self,
           QdPlotColumn   *cols,
           const QdSignal *piece,
           double          a,
           double          b,
           guint          *lo,
           guint          *hi)
{
  double t0 = self->t0, t1 = self->t1;
  double width = (t1 - t0) / self->n;
  guint ka, kb;

  if (b < t0 || a > t1)
    return;
  a = MAX (a, t0);
  b = MIN (b, t1);
  ka = (guint) MIN ((a - t0) / width, (double) (self->n - 1));
  kb = (guint) MIN ((b - t0) / width, (double) (self->n - 1));
  *lo = MIN (*lo, ka);
  *hi = MAX (*hi, kb);

  if (ka == kb)
    {
      double mn, mx;

      qd_plot_segment_range (piece, a, b, &mn, &mx);
      merge (&cols[ka], mn, mx, qd_signal_eval (piece, a), qd_signal_eval (piece, b));
      return;
    }
  for (guint k = ka; k <= kb; k++)
    {
      double ca = k == ka ? a : t0 + k * width;
      double cb = k == kb ? b : t0 + (k + 1) * width;
      double mn, mx;

      qd_plot_segment_range (piece, ca, cb, &mn, &mx);
      merge (&cols[k], mn, mx, qd_signal_eval (piece, ca), qd_signal_eval (piece, cb));
    }
}

/* Merges the history buckets over [a, b] into the committed columns as
 * bands; widens [*lo, *hi] to the columns they touched. */
static void
add_history (QdPlotColumns       *self,
             const QdTraceBucket *hist,
             gsize                n,
             double               a,
             double               b,
             guint               *lo,
             guint               *hi)
{
  double t0 = self->t0, t1 = self->t1;
  double width = (t1 - t0) / self->n;
  gsize j = 0, hi_j = n;

  a = MAX (a, t0);
  b = MIN (b, t1);
  if (b < a)
    return;
  /* The first bucket that ends after a. */
  while (j < hi_j)
    {
      gsize mid = j + (hi_j - j) / 2;

      if (hist[mid].t1 <= a)
        j = mid + 1;
      else
        hi_j = mid;
    }
  for (; j < n && hist[j].t0 < b; j++)
    {
      double ca = MAX (hist[j].t0, a), cb = MIN (hist[j].t1, b);
      guint ka, kb;

      if (cb < ca)
        continue;
      ka = (guint) MIN ((ca - t0) / width, (double) (self->n - 1));
      kb = (guint) MIN ((cb - t0) / width, (double) (self->n - 1));
      /* A bucket that only reaches the start of a column has nothing
       * in it: its span is half open. */
      if (kb > ka && cb == hist[j].t1 && t0 + kb * width >= cb)
        kb--;
      *lo = MIN (*lo, ka);
      *hi = MAX (*hi, kb);
      for (guint k = ka; k <= kb; k++)
        merge (&self->committed[k], hist[j].min, hist[j].max, hist[j].first, hist[j].last);
    }
}

/* The summary of run @b, whose pieces are all final (the piece after it
 * exists); built on first use. */
static const Block *
get_block (QdPlotColumns *self,
           QdTrace       *trace,
           gsize          b,
           gsize          length)
{
  Block *block;

  if (b >= self->blocks->len)
    {
      guint old = self->blocks->len;

      g_array_set_size (self->blocks, b + 1);
      for (guint k = old; k <= b; k++)
        {
          Block *e = &g_array_index (self->blocks, Block, k);

          e->min = INFINITY;
          e->max = -INFINITY;
        }
    }
  block = &g_array_index (self->blocks, Block, b);
  if (block->min > block->max)
    {
      gsize first = b << self->block_shift, n = (gsize) 1 << self->block_shift;

      for (gsize i = first; i < first + n; i++)
        {
          QdSignal piece;
          double end, lo, hi;

          make_piece (trace, i, length, self->mode, 0.0, &piece, &end);
          qd_plot_segment_range (&piece, piece.t, end, &lo, &hi);
          if (i == first)
            block->first = qd_signal_eval (&piece, piece.t);
          block->last = qd_signal_eval (&piece, end);
          block->min = MIN (block->min, lo);
          block->max = MAX (block->max, hi);
        }
      self->n_read += n;
    }
  return block;
}

/* If the run of pieces starting at @i is complete, inside the view and
 * inside one column, merges its summary there and returns TRUE. */
static gboolean
try_block (QdPlotColumns *self,
           QdTrace       *trace,
           gsize          i,
           gsize          length,
           guint         *lo,
           guint         *hi)
{
  gsize n = (gsize) 1 << self->block_shift;
  double width, a, b;
  guint ka, kb;
  const Block *block;

  if ((i & (n - 1)) != 0 || i + n >= length)
    return FALSE;
  /* The run spans [t_i, t_i+n] (the last piece ends at the next event). */
  a = qd_trace_get (trace, i)->t;
  b = qd_trace_get (trace, i + n)->t;
  if (a < self->t0 || b > self->t1)
    return FALSE;
  width = (self->t1 - self->t0) / self->n;
  ka = (guint) MIN ((a - self->t0) / width, (double) (self->n - 1));
  kb = (guint) MIN ((b - self->t0) / width, (double) (self->n - 1));
  if (ka != kb)
    return FALSE;
  block = get_block (self, trace, i >> self->block_shift, length);
  merge (&self->committed[ka], block->min, block->max, block->first, block->last);
  *lo = MIN (*lo, ka);
  *hi = MAX (*hi, ka);
  return TRUE;
}

const QdPlotColumn *
qd_plot_columns_update (QdPlotColumns *self,
                        QdTrace       *trace,
                        QdPlotMode     mode,
                        double         t0,
                        double         t1,
                        guint          n_columns,
                        double         t_end)
{
  guint dirty_lo = G_MAXUINT, dirty_hi = 0;
  guint copy_lo, copy_hi, pin;
  const QdTraceBucket *hist;
  gsize first, length, n_hist;
  double t_exact;

  g_return_val_if_fail (n_columns > 0, NULL);
  g_return_val_if_fail (t1 > t0, NULL);

  /* Pinned, in the order qd-trace.h asks: what is read stays. */
  pin = qd_trace_read_begin (trace);
  first = qd_trace_get_first (trace);
  hist = qd_trace_get_history (trace, &n_hist);
  length = qd_trace_get_length (trace);
  t_exact = first > 0 ? qd_trace_get (trace, first)->t : -INFINITY;

  self->n_read = 0;
  if (!self->valid || self->trace != trace || self->mode != mode
      || self->t0 != t0 || self->t1 != t1 || self->n != n_columns)
    {
      gssize found;

      if (self->trace != trace || self->mode != mode)
        {
          QdTrace *old = self->trace;

          /* The summaries belong to one trace drawn one way. */
          g_array_set_size (self->blocks, 0);
          self->trace = qd_trace_ref (trace);
          if (old != NULL)
            qd_trace_unref (old);
        }
      if (self->n != n_columns || self->committed == NULL)
        {
          self->committed = g_renew (QdPlotColumn, self->committed, n_columns);
          self->out = g_renew (QdPlotColumn, self->out, n_columns);
        }
      self->mode = mode;
      self->t0 = t0;
      self->t1 = t1;
      self->n = n_columns;
      self->valid = TRUE;
      self->has_tail = FALSE;
      clear_columns (self->committed, n_columns);
      /* Skip what ends before the view: one binary search. */
      found = qd_trace_find (trace, length, t0);
      self->done = MAX (found, (gssize) first);
      dirty_lo = 0;
      dirty_hi = n_columns - 1;
      if (t0 < t_exact)
        add_history (self, hist, n_hist, t0, t_exact, &dirty_lo, &dirty_hi);
    }
  else if (self->done < first)
    {
      /* The writer dropped pieces before they were committed: their span
       * comes from the history instead. */
      add_history (self, hist, n_hist, self->done_t, t_exact, &dirty_lo, &dirty_hi);
      self->done = first;
    }

  if (length == 0)
    {
      clear_columns (self->out, n_columns);
      self->has_tail = FALSE;
      qd_trace_read_end (trace, pin);
      return self->out;
    }

  /* Commit every piece that now has a successor. */
  while (self->done + 1 < length)
    {
      QdSignal piece;
      double end;

      if (qd_trace_get (trace, self->done)->t > t1)
        {
          /* Everything from here on is right of the view. */
          self->done = length - 1;
          break;
        }
      if (try_block (self, trace, self->done, length, &dirty_lo, &dirty_hi))
        {
          self->done += (gsize) 1 << self->block_shift;
          continue;
        }
      make_piece (trace, self->done, length, mode, t_end, &piece, &end);
      add_piece (self, self->committed, &piece, piece.t, end, &dirty_lo, &dirty_hi);
      self->done++;
      self->n_read++;
    }
  self->done_t = qd_trace_get (trace, self->done)->t;

  /* Refresh the output where the commits or the previous tail changed it. */
  copy_lo = dirty_lo;
  copy_hi = dirty_hi;
  if (self->has_tail)
    {
      copy_lo = MIN (copy_lo, self->tail_lo);
      copy_hi = MAX (copy_hi, self->tail_hi);
    }
  if (copy_lo <= copy_hi && copy_lo < n_columns)
    memcpy (self->out + copy_lo, self->committed + copy_lo,
            (MIN (copy_hi, n_columns - 1) - copy_lo + 1) * sizeof (QdPlotColumn));

  /* The open last piece, on the output only. */
  {
    QdSignal piece;
    double end;
    guint lo = G_MAXUINT, hi = 0;

    make_piece (trace, length - 1, length, mode, t_end, &piece, &end);
    add_piece (self, self->out, &piece, piece.t, end, &lo, &hi);
    self->n_read++;
    self->has_tail = lo <= hi;
    self->tail_lo = lo;
    self->tail_hi = hi;
  }

  qd_trace_read_end (trace, pin);
  return self->out;
}

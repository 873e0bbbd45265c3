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
 *
 * A live run sends every new segment through here on the main thread,
 * millions a second, so the common case is kept to a few dozen
 * instructions: segments are read by walking the trace's chunks, a piece
 * inside the column of the one before skips clipping and the division
 * that finds its column, and a bound on the derivative settles that a
 * short piece has no turning point without solving for it.
 */
#include "qd-plot-decimate.h"

#include <float.h>
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

/* Reads segments in index order by walking the trace's storage: one
 * compare per segment instead of a chunk lookup (qd_trace_get_run). */
typedef struct
{
  QdTrace        *trace;
  gsize           length;
  gsize           base;     /* the index of run[0] */
  gsize           n;        /* segments in run */
  const QdSignal *run;
} Cursor;

static inline void
cursor_init (Cursor  *c,
             QdTrace *trace,
             gsize    length)
{
  c->trace = trace;
  c->length = length;
  c->base = 0;
  c->n = 0;
  c->run = NULL;
}

static inline const QdSignal *
cursor_get (Cursor *c,
            gsize   i)
{
  /* Unsigned: an index before the run wraps round and misses too. */
  if (G_UNLIKELY (i - c->base >= c->n))
    {
      c->run = qd_trace_get_run (c->trace, i, c->length, &c->n);
      c->base = i;
    }
  return c->run + (i - c->base);
}

/* The piece of segment @seg in @mode, @next the segment after it (NULL
 * for the last): a polynomial over [piece->t, *end], either @seg itself
 * or one built in @buf. A line needs the next event: without one it is a
 * single point. */
static inline const QdSignal *
piece_of (const QdSignal *seg,
          const QdSignal *next,
          QdPlotMode      mode,
          double          t_end,
          QdSignal       *buf,
          double         *end)
{
  switch (mode)
    {
    case QD_PLOT_MODE_EXACT:
      *end = next != NULL ? next->t : MAX (t_end, seg->t);
      return seg;

    case QD_PLOT_MODE_STEPS:
      qd_signal_set_constant (buf, seg->t, seg->c[0]);
      *end = next != NULL ? next->t : MAX (t_end, seg->t);
      return buf;

    case QD_PLOT_MODE_LINES:
      qd_signal_set_constant (buf, seg->t, seg->c[0]);
      *end = seg->t;
      if (next != NULL && next->t > seg->t)
        {
          buf->c[1] = (next->c[0] - seg->c[0]) / (next->t - seg->t);
          buf->order = 1;
          *end = next->t;
        }
      return buf;

    case QD_PLOT_MODE_EVENTS:
    default:
      qd_signal_set_constant (buf, seg->t, seg->c[0]);
      *end = seg->t;
      return buf;
    }
}

/* The values of @piece at @ta and @tb, and its exact extremes between:
 * the same results as qd_signal_range(), for a few flops in the common
 * case. A piece a few pixels or less wide rarely holds a turning point,
 * and a bound on the derivative says so without solving for its roots:
 * on |s| <= S, c1 + 2 c2 s + 3 c3 s^2 keeps the sign of c1 while
 * |c1| > (2 |c2| + 3 |c3| S) S. The margin is far beyond rounding, so
 * where the test passes the roots are well outside and the ends are the
 * extremes; elsewhere (and for non-finite coefficients, which fail the
 * test) the general solution decides. */
static inline void
piece_range (const QdSignal *piece,
             double          ta,
             double          tb,
             double         *fa,
             double         *fb,
             double         *min,
             double         *max)
{
  double c1 = piece->c[1], c2 = piece->c[2], c3 = piece->c[3];

  *fa = qd_signal_eval (piece, ta);
  *fb = qd_signal_eval (piece, tb);
  *min = MIN (*fa, *fb);
  *max = MAX (*fa, *fb);
  if (c2 != 0.0 || c3 != 0.0)
    {
      double s = MAX (fabs (ta - piece->t), fabs (tb - piece->t));

      if (!(fabs (c1) > (2.0 * fabs (c2) + 3.0 * fabs (c3) * s) * s * (1.0 + 1e-6)))
        qd_plot_segment_range (piece, ta, tb, min, max);
    }
}

/* piece_range() for a segment drawn exactly, from its start to @tb: the
 * common case, kept tight. The value at the start is c0 itself. */
static inline void
segment_range (const QdSignal *seg,
               double          tb,
               double         *fa,
               double         *fb,
               double         *min,
               double         *max)
{
  double c0 = seg->c[0], c1 = seg->c[1], c2 = seg->c[2], c3 = seg->c[3];
  double s = tb - seg->t;

  *fa = c0;
  *fb = c0 + s * (c1 + s * (c2 + s * c3));
  *min = MIN (c0, *fb);
  *max = MAX (c0, *fb);
  if (G_UNLIKELY (!(fabs (c1) > (2.0 * fabs (c2) + 3.0 * fabs (c3) * s) * s * (1.0 + 1e-6)))
      && (c2 != 0.0 || c3 != 0.0))
    qd_plot_segment_range (seg, seg->t, tb, min, max);
}

/* The column of time @t, which is inside the view. */
static inline guint
column_of (QdPlotColumns *self,
           double         t,
           double         width)
{
  return (guint) MIN ((t - self->t0) / width, (double) (self->n - 1));
}

/* Times in [lo, hi] are in column k for certain: a piece inside merges
 * there without dividing to find its column. */
typedef struct
{
  double lo, hi;
  guint  k;
} Span;

/* The span of column @k, less a margin that covers every rounding of
 * column_of() and of the column's own ends, or nothing when the column is
 * too narrow for that. */
static void
span_set (QdPlotColumns *self,
          Span          *span,
          guint          k,
          double         width)
{
  double margin = 64.0 * DBL_EPSILON * (fabs (self->t0) + fabs (self->t1));

  span->k = k;
  span->lo = self->t0 + k * width + margin;
  span->hi = self->t0 + (k + 1) * width - margin;
}

/* Merges the piece over [a, b] into @cols; widens [*lo, *hi] to the
 * columns it touched. Returns the column where it ends, or G_MAXUINT
 * when it is outside the view. */
static guint
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
  double fa, fb, mn, mx;
  guint ka, kb;

  if (b < t0 || a > t1)
    return G_MAXUINT;
  a = MAX (a, t0);
  b = MIN (b, t1);
  ka = column_of (self, a, width);
  kb = column_of (self, b, width);
  *lo = MIN (*lo, ka);
  *hi = MAX (*hi, kb);

  if (ka == kb)
    {
      piece_range (piece, a, b, &fa, &fb, &mn, &mx);
      merge (&cols[ka], mn, mx, fa, fb);
      return kb;
    }
  for (guint k = ka; k <= kb; k++)
    {
      double ca = k == ka ? a : t0 + k * width;
      double cb = k == kb ? b : t0 + (k + 1) * width;

      piece_range (piece, ca, cb, &fa, &fb, &mn, &mx);
      merge (&cols[k], mn, mx, fa, fb);
    }
  return kb;
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
           Cursor        *cur,
           gsize          b)
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
      double lo = INFINITY, hi = -INFINITY, fa, fb = NAN;
      const QdSignal *seg = cursor_get (cur, first);

      /* Accumulated in locals: the compiler keeps them in registers. */
      if (self->mode == QD_PLOT_MODE_EXACT)
        {
          const QdSignal *p = seg;
          gsize in_run = cur->n - (first - cur->base);
          double mn, mx;

          /* The run and the segment after it are in one chunk but for
           * the last run of a chunk: a plain pointer walk. */
          segment_range (p, cursor_get (cur, first + 1)->t, &fa, &fb, &lo, &hi);
          block->first = fa;
          if (in_run > n)
            for (gsize j = 1; j < n; j++)
              {
                segment_range (&p[j], p[j + 1].t, &fa, &fb, &mn, &mx);
                lo = MIN (lo, mn);
                hi = MAX (hi, mx);
              }
          else
            for (gsize i = first + 1; i < first + n; i++)
              {
                const QdSignal *next = cursor_get (cur, i + 1);

                seg = cursor_get (cur, i);
                segment_range (seg, next->t, &fa, &fb, &mn, &mx);
                lo = MIN (lo, mn);
                hi = MAX (hi, mx);
              }
        }
      else
        for (gsize i = first; i < first + n; i++)
          {
            const QdSignal *next = cursor_get (cur, i + 1);
            const QdSignal *piece;
            QdSignal buf;
            double end, mn, mx;

            piece = piece_of (seg, next, self->mode, 0.0, &buf, &end);
            piece_range (piece, piece->t, end, &fa, &fb, &mn, &mx);
            if (i == first)
              block->first = fa;
            lo = MIN (lo, mn);
            hi = MAX (hi, mx);
            seg = next;
          }
      block->last = fb;
      block->min = lo;
      block->max = hi;
      self->n_read += n;
    }
  return block;
}

/* If the run of pieces starting at @i (a multiple of the run size) is
 * complete, inside the view and inside one column, merges its summary
 * there and returns TRUE. */
static gboolean
try_block (QdPlotColumns *self,
           Cursor        *cur,
           gsize          i,
           guint         *lo,
           guint         *hi)
{
  gsize n = (gsize) 1 << self->block_shift;
  double width, a, b;
  guint ka, kb;
  const Block *block;

  if (i + n >= cur->length)
    return FALSE;
  /* The run spans [t_i, t_i+n] (the last piece ends at the next event). */
  a = cursor_get (cur, i)->t;
  b = cursor_get (cur, i + n)->t;
  if (a < self->t0 || b > self->t1)
    return FALSE;
  width = (self->t1 - self->t0) / self->n;
  ka = column_of (self, a, width);
  kb = column_of (self, b, width);
  if (ka != kb)
    return FALSE;
  block = get_block (self, cur, i >> self->block_shift);
  merge (&self->committed[ka], block->min, block->max, block->first, block->last);
  *lo = MIN (*lo, ka);
  *hi = MAX (*hi, ka);
  return TRUE;
}

/* The columns for another view (or trace, or mode): all dirty, filled
 * again from the history (left of @t_exact) and from the first piece that
 * does not end before the view. */
static void
reset_view (QdPlotColumns       *self,
            QdTrace             *trace,
            QdPlotMode           mode,
            double               t0,
            double               t1,
            guint                n_columns,
            gsize                first,
            gsize                length,
            const QdTraceBucket *hist,
            gsize                n_hist,
            double               t_exact,
            guint               *dirty_lo,
            guint               *dirty_hi)
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
  *dirty_lo = 0;
  *dirty_hi = n_columns - 1;
  if (t0 < t_exact)
    add_history (self, hist, n_hist, t0, t_exact, dirty_lo, dirty_hi);
}

/* Commits every piece of @trace's first @length that now has a
 * successor, widening [*@dirty_lo, *@dirty_hi] to the columns changed. */
static void
commit_pieces (QdPlotColumns *self,
               QdTrace       *trace,
               gsize          length,
               double         t_end,
               guint         *dirty_lo,
               guint         *dirty_hi)
{
  Cursor cur;
  Span span = { INFINITY, -INFINITY, 0 };
  gsize block_mask = ((gsize) 1 << self->block_shift) - 1;
  double width = (self->t1 - self->t0) / self->n;
  QdPlotMode mode = self->mode;

  cursor_init (&cur, trace, length);
  while (self->done + 1 < length)
    {
      const QdSignal *seg = cursor_get (&cur, self->done);
      const QdSignal *next, *piece;
      QdSignal buf;
      double end;

      if (seg->t > self->t1)
        {
          /* Everything from here on is right of the view. */
          self->done = length - 1;
          break;
        }
      if ((self->done & block_mask) == 0
          && try_block (self, &cur, self->done, dirty_lo, dirty_hi))
        {
          self->done += block_mask + 1;
          continue;
        }
      next = cursor_get (&cur, self->done + 1);
      if (mode == QD_PLOT_MODE_EXACT && seg->t >= span.lo && next->t <= span.hi)
        {
          double fa, fb, mn, mx;

          segment_range (seg, next->t, &fa, &fb, &mn, &mx);
          merge (&self->committed[span.k], mn, mx, fa, fb);
          self->done++;
          self->n_read++;
          continue;
        }
      piece = piece_of (seg, next, mode, t_end, &buf, &end);
      if (piece->t >= span.lo && end <= span.hi)
        {
          /* Inside the column of the piece before: no clipping, no
           * division. */
          double fa, fb, mn, mx;

          piece_range (piece, piece->t, end, &fa, &fb, &mn, &mx);
          merge (&self->committed[span.k], mn, mx, fa, fb);
        }
      else
        {
          guint k = add_piece (self, self->committed, piece, piece->t, end,
                               dirty_lo, dirty_hi);

          if (k != G_MAXUINT)
            span_set (self, &span, k, width);
          else
            span.lo = INFINITY;
        }
      self->done++;
      self->n_read++;
    }
  self->done_t = cursor_get (&cur, self->done)->t;
}

/* The output refreshed where the commits ([@dirty_lo, @dirty_hi]) or the
 * previous tail changed it, then the open last piece of @trace's first
 * @length added to it (to the output only). */
static void
refresh_output (QdPlotColumns *self,
                QdTrace       *trace,
                gsize          length,
                double         t_end,
                guint          dirty_lo,
                guint          dirty_hi)
{
  guint n_columns = self->n, copy_lo = dirty_lo, copy_hi = dirty_hi;
  guint lo = G_MAXUINT, hi = 0;
  const QdSignal *piece;
  QdSignal buf;
  double end;

  if (self->has_tail)
    {
      copy_lo = MIN (copy_lo, self->tail_lo);
      copy_hi = MAX (copy_hi, self->tail_hi);
    }
  if (copy_lo <= copy_hi && copy_lo < n_columns)
    memcpy (self->out + copy_lo, self->committed + copy_lo,
            (MIN (copy_hi, n_columns - 1) - copy_lo + 1) * sizeof (QdPlotColumn));

  piece = piece_of (qd_trace_get (trace, length - 1), NULL, self->mode, t_end, &buf, &end);
  add_piece (self, self->out, piece, piece->t, end, &lo, &hi);
  self->n_read++;
  self->has_tail = lo <= hi;
  self->tail_lo = lo;
  self->tail_hi = hi;
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
  guint dirty_lo = G_MAXUINT, dirty_hi = 0, pin;
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
    reset_view (self, trace, mode, t0, t1, n_columns, first, length, hist,
                n_hist, t_exact, &dirty_lo, &dirty_hi);
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
    }
  else
    {
      commit_pieces (self, trace, length, t_end, &dirty_lo, &dirty_hi);
      refresh_output (self, trace, length, t_end, dirty_lo, dirty_hi);
    }
  qd_trace_read_end (trace, pin);
  return self->out;
}

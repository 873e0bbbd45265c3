/* qd-plot-render.c: drawing traces with Cairo
 *
 * Order of drawing: background, grid, earlier runs (lighter, so the
 * current run is never hidden under them), current traces, frame and
 * tick labels, legend, then the widget's overlays. Curves are clipped to
 * the plot area. The ticks, labels and legend are laid out and drawn by
 * qd-plot-axes.c.
 *
 * A trace is drawn in one of two ways. When the view holds at most a
 * few segments per pixel column (SPARSE_PER_COLUMN), every segment is
 * drawn as one anti-aliased polyline through its polynomial, sampled at
 * each pixel column plus the exact turning points, so parabolas and
 * cubics look like what they are. With more segments than that, the
 * exact per-column minimum and maximum say everything the screen can
 * show, at a cost that does not grow with the segments. On an image
 * whose pixels the columns fit, those bars' coverage is written into
 * masks directly (dense_range_mask()); vector output keeps them as
 * rectangles.
 */
#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#include <pango/pangocairo.h>

#include "qd-plot-render-private.h"

/* Up to this many segments per pixel column, a curve is one polyline:
 * column bars draw a smooth curve of a few thousand segments (a QSS2
 * run of a few hundred steps per cycle) as a staircase of vertical
 * spans, and a polyline of a few points per column is still cheap. */
#define SPARSE_PER_COLUMN 4

static void
set_color (QdPlotColor *color,
           guint32      rgb,
           double       alpha)
{
  color->red = ((rgb >> 16) & 0xff) / 255.0;
  color->green = ((rgb >> 8) & 0xff) / 255.0;
  color->blue = (rgb & 0xff) / 255.0;
  color->alpha = alpha;
}

void
qd_plot_style_init_light (QdPlotStyle *style)
{
  set_color (&style->background, 0xffffff, 1.0);
  set_color (&style->frame, 0x5e5c64, 1.0);
  set_color (&style->grid, 0xdeddda, 1.0);
  set_color (&style->text, 0x3d3846, 1.0);
  set_color (&style->cursor, 0x77767b, 1.0);
  set_color (&style->legend_background, 0xffffff, 0.88);
}

void
qd_plot_style_init_dark (QdPlotStyle *style)
{
  set_color (&style->background, 0x1e1e1e, 1.0);
  set_color (&style->frame, 0x9a9996, 1.0);
  set_color (&style->grid, 0x3d3846, 1.0);
  set_color (&style->text, 0xdeddda, 1.0);
  set_color (&style->cursor, 0x9a9996, 1.0);
  set_color (&style->legend_background, 0x241f31, 0.88);
}

void
qd_plot_palette_color (guint        index,
                       QdPlotColor *color)
{
  /* GNOME's palette, strong shades, ordered so neighbours differ. */
  static const guint32 palette[] = {
    0x1c71d8, 0xe01b24, 0x26a269, 0xe66100,
    0x813d9c, 0x865e3c, 0x0b8a9e, 0xc64600,
  };

  set_color (color, palette[index % G_N_ELEMENTS (palette)], 1.0);
}

void
qd_plot_render_options_init (QdPlotRenderOptions *options)
{
  memset (options, 0, sizeof *options);
  options->mode = QD_PLOT_MODE_EXACT;
  options->x_min = 0.0;
  options->x_max = 1.0;
  options->y_min = 0.0;
  options->y_max = 1.0;
  options->t_end = -INFINITY;
  options->draw_grid = TRUE;
  options->draw_axes = TRUE;
  options->draw_legend = TRUE;
  options->draw_background = TRUE;
  options->line_width = 1.5;
}

static const QdPlotStyle *
get_style (const QdPlotRenderOptions *o,
           QdPlotStyle               *fallback)
{
  if (o->style != NULL)
    return o->style;
  qd_plot_style_init_light (fallback);
  return fallback;
}

void
qd_plot_render_get_area (const QdPlotRenderOptions *o,
                         double                     width,
                         double                     height,
                         QdPlotRect                *area)
{
  if (o->axes != NULL && o->axes->has_area)
    *area = o->axes->area;
  else if (qd_plot_subplots_is_stacked (o))
    {
      /* The highest plot: they all have the same width. */
      QdPlotRect areas[QD_PLOT_MAX_PANELS];

      qd_plot_subplots_get_areas (o, width, height, areas);
      *area = areas[0];
    }
  else if (o->draw_axes)
    {
      double left, right, top, bottom;

      qd_plot_subplots_margins (o, &left, &right, &top, &bottom);
      area->x = left;
      area->y = top;
      area->width = MAX (1.0, width - left - right);
      area->height = MAX (1.0, height - top - bottom);
    }
  else
    {
      area->x = area->y = 0.0;
      area->width = MAX (1.0, width);
      area->height = MAX (1.0, height);
    }
}

static inline void
path_point (cairo_t  *cr,
            gboolean *started,
            double    x,
            double    y)
{
  if (*started)
    cairo_line_to (cr, x, y);
  else
    {
      cairo_move_to (cr, x, y);
      *started = TRUE;
    }
}

static void
marker (cairo_t *cr,
        double   x,
        double   y,
        double   r)
{
  cairo_new_sub_path (cr);
  cairo_arc (cr, x, y, r, 0.0, 2.0 * G_PI);
}

/* The turning points of @seg strictly inside (a, b), in time order. */
static int
turning_points (const QdSignal *seg,
                double          a,
                double          b,
                double         *out)
{
  double c1 = seg->c[1], c2 = seg->c[2], c3 = seg->c[3];
  double roots[2];
  int n = 0, k = 0;

  if (c3 == 0.0)
    {
      if (c2 == 0.0)
        return 0;
      roots[n++] = -c1 / (2.0 * c2);
    }
  else
    {
      double qa = 3.0 * c3, qb = 2.0 * c2;
      double disc = qb * qb - 4.0 * qa * c1;

      if (disc < 0.0)
        return 0;
      {
        double q = -0.5 * (qb + copysign (sqrt (disc), qb));

        if (q == 0.0)
          roots[n++] = 0.0;
        else
          {
            roots[n++] = q / qa;
            roots[n++] = c1 / q;
          }
      }
    }
  if (n == 2 && roots[0] > roots[1])
    {
      double tmp = roots[0];

      roots[0] = roots[1];
      roots[1] = tmp;
    }
  for (int i = 0; i < n; i++)
    {
      double t = seg->t + roots[i];

      if (t > a && t < b)
        out[k++] = t;
    }
  return k;
}

/* One segment's polynomial over [a, b]: a point at each pixel column and
 * at each turning point, so the drawn curve holds the true extremes. */
static void
path_polynomial (cairo_t        *cr,
                 const Map      *m,
                 const QdSignal *seg,
                 double          a,
                 double          b,
                 gboolean       *started)
{
  double turns[2];
  int n_turns, next_turn = 0;
  guint n;

  path_point (cr, started, map_x (m, a), map_y (m, qd_signal_eval (seg, a)));
  if (b <= a)
    return;
  if (seg->c[2] == 0.0 && seg->c[3] == 0.0)
    {
      path_point (cr, started, map_x (m, b), map_y (m, qd_signal_eval (seg, b)));
      return;
    }
  n_turns = turning_points (seg, a, b, turns);
  n = (guint) MIN (ceil ((b - a) * m->sx), 1e5);
  n = MAX (n, 1);
  for (guint j = 1; j <= n; j++)
    {
      double t = j == n ? b : a + (b - a) * j / n;

      while (next_turn < n_turns && turns[next_turn] < t)
        {
          double u = turns[next_turn++];

          path_point (cr, started, map_x (m, u), map_y (m, qd_signal_eval (seg, u)));
        }
      path_point (cr, started, map_x (m, t), map_y (m, qd_signal_eval (seg, t)));
    }
}

static void
draw_sparse (cairo_t                   *cr,
             const QdPlotRenderOptions *o,
             const Map                 *m,
             QdTrace                   *trace,
             gsize                      first,
             gsize                      length,
             gsize                      i0,
             gsize                      i1,
             double                     end)
{
  gboolean started = FALSE;

  switch (o->mode)
    {
    case QD_PLOT_MODE_EXACT:
      for (gsize i = i0; i <= i1; i++)
        {
          const QdSignal *seg = qd_trace_get (trace, i);
          double b = i + 1 < length ? qd_trace_get (trace, i + 1)->t : end;
          double a = MAX (seg->t, m->x_min);

          b = MIN (b, m->x_max);
          if (b < a)
            continue;
          path_polynomial (cr, m, seg, a, b, &started);
        }
      break;

    case QD_PLOT_MODE_LINES:
      /* One event beyond each side, so the chords run to the edges. */
      for (gsize i = i0 > first ? i0 - 1 : first; i <= MIN (i1 + 1, length - 1); i++)
        {
          const QdSignal *seg = qd_trace_get (trace, i);

          path_point (cr, &started, map_x (m, seg->t), map_y (m, seg->c[0]));
        }
      break;

    case QD_PLOT_MODE_STEPS:
      for (gsize i = i0; i <= i1; i++)
        {
          const QdSignal *seg = qd_trace_get (trace, i);
          double b = i + 1 < length ? qd_trace_get (trace, i + 1)->t : end;
          double y = map_y (m, seg->c[0]);

          path_point (cr, &started, map_x (m, MAX (seg->t, m->x_min - 1.0 / m->sx)), y);
          path_point (cr, &started, map_x (m, MIN (b, m->x_max + 1.0 / m->sx)), y);
        }
      break;

    case QD_PLOT_MODE_EVENTS:
    default:
      for (gsize i = i0; i <= i1; i++)
        {
          const QdSignal *seg = qd_trace_get (trace, i);

          if (seg->t >= m->x_min)
            marker (cr, map_x (m, seg->t), map_y (m, seg->c[0]), 2.5);
        }
      cairo_fill (cr);
      return;
    }
  cairo_stroke (cr);
}

/* The bar of column @c in user coordinates, [*top, *bottom]: over the
 * column's spread, reaching back to where the curve left the previous
 * column (@prev_last, NaN for none), so jumps stay connected. */
static inline void
bar_extent (const QdPlotRenderOptions *o,
            const Map                 *m,
            const QdPlotColumn        *c,
            double                     prev_last,
            double                    *top,
            double                    *bottom)
{
  double lo = c->min, hi = c->max;

  if (!isnan (prev_last))
    {
      lo = MIN (lo, prev_last);
      hi = MAX (hi, prev_last);
    }
  *top = map_y (m, hi) - 0.5 * o->line_width;
  *bottom = map_y (m, lo) + 0.5 * o->line_width;
}

/* Where user coordinates land in the pixels of @cr's target: p = s u + d
 * along each axis, when the transformation is a plain scale and shift
 * (device scale, HiDPI, included). */
typedef struct
{
  double sx, dx, sy, dy;
} PixelMap;

static gboolean
pixel_map (cairo_t  *cr,
           PixelMap *p)
{
  cairo_surface_t *target = cairo_get_group_target (cr);
  cairo_matrix_t ctm;
  double scale_x, scale_y, off_x, off_y;

  if (cairo_surface_get_type (target) != CAIRO_SURFACE_TYPE_IMAGE
      || cairo_get_antialias (cr) == CAIRO_ANTIALIAS_NONE)
    return FALSE;
  cairo_get_matrix (cr, &ctm);
  if (ctm.xy != 0.0 || ctm.yx != 0.0 || !(ctm.xx > 0.0) || !(ctm.yy > 0.0))
    return FALSE;
  cairo_surface_get_device_scale (target, &scale_x, &scale_y);
  cairo_surface_get_device_offset (target, &off_x, &off_y);
  p->sx = ctm.xx * scale_x;
  p->dx = ctm.x0 * scale_x + off_x;
  p->sy = ctm.yy * scale_y;
  p->dy = ctm.y0 * scale_y + off_y;
  return TRUE;
}

static inline gboolean
is_whole (double v)
{
  return fabs (v - round (v)) < 1e-6;
}

/* Device pixels across one tile of the bars' coverage mask. */
#define MASK_TILE 128

/* The mask memory of this thread, kept from one drawing to the next: a
 * new allocation of this size would be fresh pages from the kernel each
 * time, one page fault per 4 KiB. */
typedef struct
{
  gsize  size;
  guint8 data[];
} MaskBuffer;

static GPrivate mask_buffer = G_PRIVATE_INIT (g_free);

static guint8 *
get_mask_buffer (gsize size)
{
  MaskBuffer *buffer = g_private_get (&mask_buffer);

  if (buffer == NULL || buffer->size < size)
    {
      size = MAX (size, buffer != NULL ? 2 * buffer->size : 0);
      buffer = g_malloc (sizeof (MaskBuffer) + size);
      buffer->size = size;
      g_private_replace (&mask_buffer, buffer);
    }
  return buffer->data;
}

/* One row of a column of the mask, @wpx pixels wide (2 at device
 * scale 2): a call to memset for each would cost more than the rest. */
static inline void
mask_put (guint8 *px,
          int     wpx,
          int     cover)
{
  guint8 v = (guint8) CLAMP (cover, 0, 255);

  if (wpx == 1)
    *px = v;
  else if (wpx == 2)
    px[0] = px[1] = v;
  else
    memset (px, v, wpx);
}

/* The bars of columns [@k0, @k1) on an image target, as coverage masks
 * painted with the current source. When the columns fall on whole
 * device pixels, a bar's coverage is exact and simple: whole rows
 * between its ends, the covered fraction in its end rows, computed as
 * Cairo does (ends in 1/256 of a pixel), so the pixels come out the same
 * within a rounding step. Cairo itself fills the same rectangles only
 * after sorting and merging all their edges, which cost more than the
 * rest of the plot's drawing. The masks are tiles MASK_TILE pixels
 * wide, each as tall as its own bars reach: a curve crossing the whole
 * height composites a band along the curve, not the whole area. Returns
 * FALSE (and draws nothing) when the columns do not fall on whole
 * pixels, or the target is not an image (vector output keeps vector
 * bars). */
static gboolean
dense_range_mask (cairo_t                   *cr,
                  const QdPlotRenderOptions *o,
                  const Map                 *m,
                  const QdPlotColumn        *cols,
                  guint                      n,
                  guint                      k0,
                  guint                      k1,
                  double                    *prev_last)
{
  double cw = m->area.width / n;
  PixelMap p;
  double x0, col_px, clip_top, clip_bottom, last = *prev_last;
  guint n_cols = k1 - k0, tile_cols, n_tiles;
  int px0, wpx;
  gint32 *ends;
  int *tile_rows;
  gsize total = 0, offset = 0;
  guint8 *data;

  if (k1 <= k0 || !pixel_map (cr, &p))
    return FALSE;
  x0 = p.sx * (m->area.x + k0 * cw) + p.dx;
  col_px = p.sx * cw;
  if (!is_whole (x0) || !is_whole (col_px) || col_px < 0.5 || col_px > MASK_TILE)
    return FALSE;
  px0 = (int) round (x0);
  wpx = (int) round (col_px);
  tile_cols = MASK_TILE / wpx;
  n_tiles = (n_cols + tile_cols - 1) / tile_cols;

  /* The plot area clips the curves: rows outside it are not drawn. */
  clip_top = p.sy * m->area.y + p.dy;
  clip_bottom = p.sy * (m->area.y + m->area.height) + p.dy;

  /* The bars' ends in 1/256 of a pixel row (Cairo's fixed point); an
   * empty column has none (top == bottom). */
  ends = g_new (gint32, 2 * n_cols);
  tile_rows = g_new (int, 2 * n_tiles);
  for (guint t = 0; t < n_tiles; t++)
    {
      tile_rows[2 * t] = G_MAXINT;
      tile_rows[2 * t + 1] = G_MININT;
    }
  for (guint j = 0; j < n_cols; j++)
    {
      const QdPlotColumn *c = &cols[k0 + j];
      int *rows = &tile_rows[2 * (j / tile_cols)];
      double top, bottom;

      ends[2 * j] = ends[2 * j + 1] = 0;
      if (c->min > c->max)
        {
          last = NAN;
          continue;
        }
      bar_extent (o, m, c, last, &top, &bottom);
      last = c->last;
      top = CLAMP (p.sy * top + p.dy, clip_top, clip_bottom);
      bottom = CLAMP (p.sy * bottom + p.dy, clip_top, clip_bottom);
      ends[2 * j] = (gint32) round (top * 256.0);
      ends[2 * j + 1] = (gint32) round (bottom * 256.0);
      if (ends[2 * j + 1] > ends[2 * j])
        {
          rows[0] = MIN (rows[0], ends[2 * j] >> 8);
          rows[1] = MAX (rows[1], (ends[2 * j + 1] + 255) >> 8);
        }
    }
  *prev_last = last;

  for (guint t = 0; t < n_tiles; t++)
    if (tile_rows[2 * t + 1] > tile_rows[2 * t])
      total += (gsize) cairo_format_stride_for_width (CAIRO_FORMAT_A8, MASK_TILE)
               * (gsize) (tile_rows[2 * t + 1] - tile_rows[2 * t]);
  data = total > 0 ? get_mask_buffer (total) : NULL;

  for (guint t = 0; t < n_tiles; t++)
    {
      guint j0 = t * tile_cols, j1 = MIN (n_cols, j0 + tile_cols);
      int row0 = tile_rows[2 * t], height;
      int width = (int) (j1 - j0) * wpx;
      int stride = cairo_format_stride_for_width (CAIRO_FORMAT_A8, width);
      guint8 *tile = data + offset;
      cairo_surface_t *mask;
      cairo_pattern_t *pattern;
      cairo_matrix_t pm;

      /* A tile without bars (its rows still the initial G_MAXINT and
       * G_MININT, whose difference would overflow). */
      if (tile_rows[2 * t + 1] <= row0)
        continue;
      height = tile_rows[2 * t + 1] - row0;
      offset += (gsize) stride * (gsize) height;
      memset (tile, 0, (gsize) stride * (gsize) height);
      for (guint j = j0; j < j1; j++)
        {
          gint32 top = ends[2 * j], bottom = ends[2 * j + 1];
          guint8 *col = tile + (j - j0) * wpx;

          /* An empty column, or a bar clipped away (its rows may lie
           * outside the tile's). */
          if (bottom <= top)
            continue;
          {
            int r_top = top >> 8, r_bottom = (bottom + 255) >> 8;
            guint8 *px = col + (gsize) (r_top - row0) * stride;

            /* Cairo's coverage: the covered 256ths, at most 255; rows
             * between the end rows are covered whole. */
            if (r_bottom - r_top == 1)
              {
                mask_put (px, wpx, bottom - top);
                continue;
              }
            mask_put (px, wpx, 256 * (r_top + 1) - top);
            px += stride;
            for (int r = r_top + 1; r < r_bottom - 1; r++, px += stride)
              mask_put (px, wpx, 255);
            mask_put (px, wpx, bottom - 256 * (r_bottom - 1));
          }
        }

      /* Painted one mask pixel to one target pixel: user coordinates to
       * pixels (p), then to the tile's. */
      mask = cairo_image_surface_create_for_data (tile, CAIRO_FORMAT_A8, width, height, stride);
      pattern = cairo_pattern_create_for_surface (mask);
      cairo_pattern_set_filter (pattern, CAIRO_FILTER_NEAREST);
      cairo_matrix_init (&pm, p.sx, 0.0, 0.0, p.sy,
                         p.dx - (px0 + (int) j0 * wpx), p.dy - row0);
      cairo_pattern_set_matrix (pattern, &pm);
      cairo_mask (cr, pattern);
      cairo_pattern_destroy (pattern);
      cairo_surface_destroy (mask);
    }
  g_free (tile_rows);
  g_free (ends);
  return TRUE;
}

/* Columns [@k0, @k1) of draw_dense(); returns where the curve left the
 * last one. */
static double
dense_range (cairo_t                   *cr,
             const QdPlotRenderOptions *o,
             const Map                 *m,
             const QdPlotColumn        *cols,
             guint                      n,
             guint                      k0,
             guint                      k1,
             double                     prev_last)
{
  double cw = m->area.width / n;

  if (o->mode != QD_PLOT_MODE_EVENTS
      && dense_range_mask (cr, o, m, cols, n, k0, k1, &prev_last))
    return prev_last;

  for (guint k = k0; k < k1; k++)
    {
      const QdPlotColumn *c = &cols[k];
      double x = m->area.x + k * cw;
      double top, bottom;

      if (c->min > c->max)
        {
          prev_last = NAN;
          continue;
        }
      if (o->mode == QD_PLOT_MODE_EVENTS)
        {
          marker (cr, x + 0.5 * cw, map_y (m, c->min), 2.0);
          if (c->max > c->min)
            {
              cairo_rectangle (cr, x, map_y (m, c->max), cw,
                               map_y (m, c->min) - map_y (m, c->max));
              marker (cr, x + 0.5 * cw, map_y (m, c->max), 2.0);
            }
          continue;
        }
      /* A bar over the column's spread: every pixel in it is on the curve
       * somewhere within the column. Filling disjoint bars is much
       * cheaper for Cairo than stroking a path that folds back on itself
       * in every column. */
      bar_extent (o, m, c, prev_last, &top, &bottom);
      cairo_rectangle (cr, x, top, cw, bottom - top);
      prev_last = c->last;
    }
  cairo_fill (cr);
  return prev_last;
}

/* Per-column bars. The first @n_faint columns lie where a memory budget
 * left only decimated history: drawn lighter, so that the band of each
 * bucket reads as a range, not as the curve. */
static void
draw_dense (cairo_t                   *cr,
            const QdPlotRenderOptions *o,
            const Map                 *m,
            const QdPlotColumn        *cols,
            guint                      n,
            guint                      n_faint)
{
  double prev_last = NAN;

  if (n_faint > 0)
    {
      cairo_save (cr);
      cairo_push_group (cr);
      prev_last = dense_range (cr, o, m, cols, n, 0, n_faint, prev_last);
      cairo_pop_group_to_source (cr);
      cairo_paint_with_alpha (cr, 0.4);
      cairo_restore (cr);
    }
  dense_range (cr, o, m, cols, n, n_faint, n, prev_last);
}

static void
draw_series_time (cairo_t                   *cr,
                  const QdPlotRenderOptions *o,
                  const Map                 *m,
                  const QdPlotSeries        *s)
{
  guint pin = qd_trace_read_begin (s->trace);
  gsize first = qd_trace_get_first (s->trace);
  gsize length = qd_trace_get_length (s->trace);
  guint ncols = n_columns (&m->area);
  guint n_faint = 0;
  gssize i0 = 0, i1;
  double end, t_exact;

  if (length == 0)
    goto out;
  end = series_end (o, s->trace, length);
  t_exact = first > 0 ? qd_trace_get (s->trace, first)->t : -INFINITY;
  i1 = qd_trace_find (s->trace, length, o->x_max);
  if (i1 < 0)
    goto out;
  if (o->x_min < t_exact)
    {
      /* Decimated history in view: only columns can show it. */
      double cols_before = (t_exact - o->x_min) / (o->x_max - o->x_min) * ncols;

      n_faint = (guint) CLAMP (floor (cols_before), 0.0, (double) ncols);
      i1 = G_MAXSSIZE;
    }
  else
    i0 = MAX (qd_trace_find (s->trace, (gsize) i1 + 1, o->x_min), (gssize) first);

  if (i1 != G_MAXSSIZE && (gsize) (i1 - i0 + 1) <= (gsize) ncols * SPARSE_PER_COLUMN)
    draw_sparse (cr, o, m, s->trace, first, length, (gsize) i0, (gsize) i1, end);
  else
    {
      QdPlotColumns *scratch = NULL;
      const QdPlotColumn *cols = series_columns (o, s, &m->area, end, &scratch);

      draw_dense (cr, o, m, cols, ncols, n_faint);
      qd_plot_columns_free (scratch);
    }
out:
  qd_trace_read_end (s->trace, pin);
}

/* XY mode */

typedef struct
{
  QdTrace *trace;
  gsize    length;
  gsize    index;
} XyCursor;

static double
xy_next_time (const XyCursor *c)
{
  return c->index + 1 < c->length ? qd_trace_get (c->trace, c->index + 1)->t : INFINITY;
}

static void
xy_advance (XyCursor *c,
            double    t)
{
  while (c->index + 1 < c->length && qd_trace_get (c->trace, c->index + 1)->t <= t)
    c->index++;
}

/* Walks the union of both traces' event times over their common span,
 * calling @func for each sample. Curved pieces get extra samples so that
 * no chord is longer than about two pixels. */
typedef QdPlotXyFunc XyFunc;

static void
xy_walk (const QdPlotRenderOptions *o,
         const Map                 *m,
         QdTrace                   *tx,
         QdTrace                   *ty,
         XyFunc                     func,
         gpointer                   data)
{
  /* Pinned in the order qd-trace.h asks; an XY curve shows only the
   * exact part of traces under a memory budget. */
  guint pin_x = qd_trace_read_begin (tx), pin_y = qd_trace_read_begin (ty);
  gsize first_x = qd_trace_get_first (tx), first_y = qd_trace_get_first (ty);
  XyCursor cx = { tx, qd_trace_get_length (tx), first_x };
  XyCursor cy = { ty, qd_trace_get_length (ty), first_y };
  double t, stop;

  if (cx.length == 0 || cy.length == 0)
    goto out;
  t = MAX (qd_trace_get (tx, first_x)->t, qd_trace_get (ty, first_y)->t);
  stop = MIN (series_end (o, tx, cx.length), series_end (o, ty, cy.length));
  if (stop < t)
    goto out;
  xy_advance (&cx, t);
  xy_advance (&cy, t);

  for (;;)
    {
      const QdSignal *sx = qd_trace_get (tx, cx.index);
      const QdSignal *sy = qd_trace_get (ty, cy.index);
      double next = MIN (MIN (xy_next_time (&cx), xy_next_time (&cy)), stop);
      gboolean curved = o->mode != QD_PLOT_MODE_LINES
                         && (sx->c[2] != 0.0 || sx->c[3] != 0.0
                             || sy->c[2] != 0.0 || sy->c[3] != 0.0);
      guint n = 1;

      func (t, qd_signal_eval (sx, t), qd_signal_eval (sy, t), TRUE, data);
      if (curved && next > t && m != NULL)
        {
          /* The length of the piece in pixels, from four chords. */
          double len = 0.0, px = 0.0, py = 0.0;

          for (int j = 0; j <= 4; j++)
            {
              double u = t + (next - t) * j / 4.0;
              double qx = qd_signal_eval (sx, u) * m->sx;
              double qy = qd_signal_eval (sy, u) * m->sy;

              if (j > 0)
                len += hypot (qx - px, qy - py);
              px = qx;
              py = qy;
            }
          n = (guint) CLAMP (ceil (len / 2.0), 1.0, 1024.0);
        }
      else if (curved && next > t)
        n = 16;
      for (guint j = 1; j < n; j++)
        {
          double u = t + (next - t) * j / n;

          func (u, qd_signal_eval (sx, u), qd_signal_eval (sy, u), FALSE, data);
        }
      if (next >= stop)
        {
          func (stop, qd_signal_eval (sx, stop), qd_signal_eval (sy, stop), FALSE, data);
          break;
        }
      t = next;
      xy_advance (&cx, t);
      xy_advance (&cy, t);
    }
out:
  qd_trace_read_end (ty, pin_y);
  qd_trace_read_end (tx, pin_x);
}

typedef struct
{
  cairo_t   *cr;
  const Map *map;
  gboolean   started;
  gboolean   markers;
} XyDraw;

static void
xy_draw_point (double   t,
               double   x,
               double   y,
               gboolean event,
               gpointer data)
{
  XyDraw *d = data;

  if (d->markers)
    {
      if (event)
        marker (d->cr, map_x (d->map, x), map_y (d->map, y), 2.5);
      return;
    }
  path_point (d->cr, &d->started, map_x (d->map, x), map_y (d->map, y));
}

void
qd_plot_draw_series_xy (cairo_t                   *cr,
                        const QdPlotRenderOptions *o,
                        const Map                 *m,
                        const QdPlotSeries        *sx,
                        const QdPlotSeries        *sy)
{
  XyDraw d = { cr, m, FALSE, o->mode == QD_PLOT_MODE_EVENTS };

  xy_walk (o, m, sx->trace, sy->trace, xy_draw_point, &d);
  if (d.markers)
    cairo_fill (cr);
  else
    cairo_stroke (cr);
}

typedef struct
{
  double x_min, x_max, y_min, y_max;
} XyExtent;

static void
xy_extent_point (double   t,
                 double   x,
                 double   y,
                 gboolean event,
                 gpointer data)
{
  XyExtent *e = data;

  e->x_min = MIN (e->x_min, x);
  e->x_max = MAX (e->x_max, x);
  e->y_min = MIN (e->y_min, y);
  e->y_max = MAX (e->y_max, y);
}

static gboolean
xy_extent (const QdPlotRenderOptions *o,
           XyExtent                  *e)
{
  e->x_min = e->y_min = INFINITY;
  e->x_max = e->y_max = -INFINITY;
  if (o->xy_x >= o->n_series || o->xy_y >= o->n_series)
    return FALSE;
  xy_walk (o, NULL, o->series[o->xy_x].trace, o->series[o->xy_y].trace,
           xy_extent_point, e);
  /* The earlier runs' curves shown with it. */
  for (guint k = 0; k < o->n_xy_pairs; k++)
    if (o->series[o->xy_pairs[2 * k + 1]].visible)
      xy_walk (o, NULL, o->series[o->xy_pairs[2 * k]].trace,
               o->series[o->xy_pairs[2 * k + 1]].trace, xy_extent_point, e);
  return e->x_min <= e->x_max;
}

void
qd_plot_render_walk_xy (const QdPlotRenderOptions *o,
                        double                     width,
                        double                     height,
                        QdPlotXyFunc               func,
                        gpointer                   data)
{
  QdPlotRect area;
  Map m;

  if (!o->xy || o->xy_x >= o->n_series || o->xy_y >= o->n_series
      || !(o->x_max > o->x_min) || !(o->y_max > o->y_min))
    return;
  qd_plot_render_get_area (o, width, height, &area);
  map_init (&m, o, &area);
  xy_walk (o, &m, o->series[o->xy_x].trace, o->series[o->xy_y].trace, func, data);
}

/* Extents */

gboolean
qd_plot_render_get_x_extent (const QdPlotRenderOptions *o,
                             double                    *x_min,
                             double                    *x_max)
{
  double lo = INFINITY, hi = -INFINITY;

  if (o->xy)
    {
      XyExtent e;

      if (!xy_extent (o, &e))
        return FALSE;
      *x_min = e.x_min;
      *x_max = e.x_max;
      return TRUE;
    }
  for (guint i = 0; i < o->n_series; i++)
    {
      const QdPlotSeries *s = &o->series[i];
      gsize length;

      if (!s->visible || (length = qd_trace_get_length (s->trace)) == 0)
        continue;
      lo = MIN (lo, qd_trace_get_start_time (s->trace));
      hi = MAX (hi, series_end (o, s->trace, length));
    }
  if (!(lo <= hi))
    return FALSE;
  *x_min = lo;
  *x_max = hi;
  return TRUE;
}

gboolean
qd_plot_render_get_y_extent (const QdPlotRenderOptions *o,
                             double                     width,
                             double                    *y_min,
                             double                    *y_max)
{
  double lo = INFINITY, hi = -INFINITY;
  QdPlotRect area;

  if (o->xy)
    {
      XyExtent e;

      if (!xy_extent (o, &e))
        return FALSE;
      *y_min = e.y_min;
      *y_max = e.y_max;
      return TRUE;
    }
  if (!(o->x_max > o->x_min))
    return FALSE;
  qd_plot_render_get_area (o, width, 100.0, &area);
  for (guint i = 0; i < o->n_series; i++)
    {
      const QdPlotSeries *s = &o->series[i];
      QdPlotColumns *scratch = NULL;
      const QdPlotColumn *cols;
      gsize length;
      guint n = n_columns (&area);

      if (!s->visible || (length = qd_trace_get_length (s->trace)) == 0)
        continue;
      /* The same columns the drawing uses (and caches). */
      cols = series_columns (o, s, &area, series_end (o, s->trace, length), &scratch);
      for (guint k = 0; k < n; k++)
        if (cols[k].min <= cols[k].max)
          {
            lo = MIN (lo, cols[k].min);
            hi = MAX (hi, cols[k].max);
          }
      qd_plot_columns_free (scratch);
    }
  if (!(lo <= hi) || !isfinite (lo) || !isfinite (hi))
    return FALSE;
  *y_min = lo;
  *y_max = hi;
  return TRUE;
}

/* Cursor */

static void
draw_cursor (cairo_t                   *cr,
             const QdPlotRenderOptions *o,
             const QdPlotStyle         *style,
             const Map                 *m)
{
  const QdPlotRect *a = &m->area;
  double x = o->cursor_x, t;
  double tw, th, bx, by, row_h = 0.0;
  g_autofree char *tstr = NULL;
  guint n_rows = 1;
  guint rows[64];
  char *texts[64];
  QdPlotColor colors[64];

  if (x < a->x || x > a->x + a->width || o->xy)
    return;
  t = m->x_min + (x - a->x) / m->sx;

  cairo_save (cr);
  source_color (cr, &style->cursor);
  cairo_set_line_width (cr, 1.0);
  cairo_move_to (cr, floor (x) + 0.5, a->y);
  cairo_line_to (cr, floor (x) + 0.5, a->y + a->height);
  cairo_stroke (cr);

  /* The readout: the time, then each visible trace's exact value,
   * each row after a swatch of its trace's colour. */
  tstr = qd_plot_format_value (t);
  texts[0] = g_strdup_printf (_("t = %s"), tstr);
  for (guint i = 0; i < o->n_series && n_rows < G_N_ELEMENTS (rows); i++)
    {
      const QdPlotSeries *s = &o->series[i];
      double v, vy;

      gsize length = qd_trace_get_length (s->trace);

      /* Nothing before the first event or after where the trace has got
       * to: the last polynomial is not the trajectory beyond that. */
      if (!s->visible || length == 0
          || t > series_end (o, s->trace, length))
        continue;
      v = qd_trace_eval (s->trace, t);
      if (isnan (v))
        continue;
      {
        g_autofree char *vstr = qd_plot_format_value (v);

        texts[n_rows] = g_strdup_printf ("%s = %s", s->label ? s->label : "", vstr);
      }
      rows[n_rows++] = i;
      series_color (s, style, &colors[i % G_N_ELEMENTS (colors)]);
      /* A value outside the view has its row in the readout but no dot:
       * drawn where it maps, it would sit among the axis labels. */
      {
        Map scratch;

        vy = map_y (series_map (o, i, m, &scratch), v);
      }
      if (vy < a->y || vy > a->y + a->height)
        continue;
      source_color (cr, &colors[i % G_N_ELEMENTS (colors)]);
      marker (cr, x, vy, 3.5);
      cairo_fill (cr);
    }

  tw = th = 0.0;
  for (guint r = 0; r < n_rows; r++)
    {
      double w, h;

      text_size (cr, texts[r], &w, &h);
      tw = MAX (tw, w + (r > 0 ? 14.0 : 0.0));
      row_h = MAX (row_h, h);
    }
  th = row_h * n_rows;
  bx = x + 10.0;
  if (bx + tw + 12.0 > a->x + a->width)
    bx = x - 10.0 - tw - 12.0;
  by = a->y + a->height - th - 18.0;
  source_color (cr, &style->legend_background);
  cairo_rectangle (cr, bx, by, tw + 12.0, th + 8.0);
  cairo_fill_preserve (cr);
  source_color (cr, &style->grid);
  cairo_stroke (cr);
  for (guint r = 0; r < n_rows; r++)
    {
      double ry = by + 4.0 + r * row_h, rx = bx + 6.0;

      if (r > 0)
        {
          source_color (cr, &colors[rows[r] % G_N_ELEMENTS (colors)]);
          cairo_rectangle (cr, rx, ry + 0.5 * row_h - 4.0, 8.0, 8.0);
          cairo_fill (cr);
          rx += 14.0;
        }
      source_color (cr, &style->text);
      draw_text (cr, texts[r], rx, ry, 0.0, 0.0);
      g_free (texts[r]);
    }
  cairo_restore (cr);
}

/* All of it */

void
qd_plot_render (cairo_t                   *cr,
                const QdPlotRenderOptions *o,
                double                     width,
                double                     height)
{
  QdPlotStyle fallback;
  const QdPlotStyle *style = get_style (o, &fallback);
  QdPlotRect area;
  QdPlotLayout layout;
  Map m;

  if (qd_plot_subplots_is_stacked (o))
    {
      qd_plot_subplots_render (cr, o, width, height);
      return;
    }
  qd_plot_render_get_area (o, width, height, &area);
  cairo_save (cr);

  if (o->draw_background)
    {
      source_color (cr, &style->background);
      cairo_rectangle (cr, 0, 0, width, height);
      cairo_fill (cr);
    }
  if (!(o->x_max > o->x_min) || !(o->y_max > o->y_min)
      || !isfinite (o->x_max - o->x_min) || !isfinite (o->y_max - o->y_min))
    {
      cairo_restore (cr);
      return;
    }
  map_init (&m, o, &area);
  qd_plot_compute_layout (cr, o, &area, &layout);

  if (o->draw_grid)
    qd_plot_draw_grid_and_axes (cr, o, style, &m, &layout, TRUE);

  cairo_save (cr);
  cairo_rectangle (cr, area.x, area.y, area.width, area.height);
  cairo_clip (cr);
  cairo_set_line_width (cr, o->line_width);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_ROUND);
  if (o->xy)
    {
      qd_plot_draw_xy_runs (cr, o, style, &m);
      if (o->xy_x < o->n_series && o->xy_y < o->n_series)
        {
          const QdPlotSeries *sy = &o->series[o->xy_y];
          QdPlotColor color;

          series_color (sy, style, &color);
          source_color (cr, &color);
          qd_plot_draw_series_xy (cr, o, &m, &o->series[o->xy_x], sy);
        }
    }
  else
    {
      /* Earlier runs first, underneath. */
      for (int pass = 0; pass < 2; pass++)
        for (guint i = 0; i < o->n_series; i++)
          {
            const QdPlotSeries *s = &o->series[i];
            QdPlotColor color;
            Map scratch;

            if (!s->visible || s->earlier != (pass == 0))
              continue;
            series_color (s, style, &color);
            source_color (cr, &color);
            qd_plot_set_series_dash (cr, o, s);
            draw_series_time (cr, o, series_map (o, i, &m, &scratch), s);
          }
    }
  cairo_restore (cr);

  if (o->draw_axes)
    qd_plot_draw_grid_and_axes (cr, o, style, &m, &layout, FALSE);
  qd_plot_yaxes_draw (cr, o, style, &m);
  if (o->draw_legend)
    qd_plot_draw_legend (cr, o, style, &layout);
  if (o->has_cursor)
    draw_cursor (cr, o, style, &m);
  if (o->has_box)
    qd_plot_draw_box (cr, &o->box);
  cairo_restore (cr);
}

void
qd_plot_draw_box (cairo_t          *cr,
                  const QdPlotRect *box)
{
  cairo_save (cr);
  cairo_rectangle (cr, box->x + 0.5, box->y + 0.5, box->width, box->height);
  cairo_set_source_rgba (cr, 0.11, 0.44, 0.85, 0.15);
  cairo_fill_preserve (cr);
  cairo_set_source_rgba (cr, 0.11, 0.44, 0.85, 0.8);
  cairo_set_line_width (cr, 1.0);
  cairo_stroke (cr);
  cairo_restore (cr);
}

typedef struct
{
  const QdPlotRenderOptions *options;
  int                        width;
  int                        height;
} RenderToFile;

static void
render_job (cairo_t  *cr,
            gpointer  user_data)
{
  const RenderToFile *job = user_data;

  qd_plot_render (cr, job->options, job->width, job->height);
}

gboolean
qd_plot_render_to_file (const QdPlotRenderOptions  *o,
                        const char                 *path,
                        QdImageFormat               format,
                        int                         width,
                        int                         height,
                        GError                    **error)
{
  RenderToFile job = { o, width, height };
  cairo_status_t status;

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (width > 0 && height > 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  status = qd_image_write (path, format, width, height, render_job, &job);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_IO,
                   _("%s: cannot write the plot: %s; check that the folder exists and is writable"),
                   path, cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}

/* qd-plot-render-private.h: what the plot's drawing and its axes share
 *
 * The geometry of the plot (margins, the map from data to output
 * coordinates), its text and the per-column extremes of a series, used
 * by qd-plot-render.c (the curves) and qd-plot-axes.c (ticks, labels and
 * legend). Not installed.
 */
#pragma once

#include <math.h>

#include <pango/pangocairo.h>

#include "qd-plot-render.h"
#include "qd-plot-subplots.h"

G_BEGIN_DECLS

/* Margins around the plot area, in output pixels, when axes are drawn.
 * The left one holds the value axis's label and its tick labels. */
#define MARGIN_LEFT   82.0
#define MARGIN_RIGHT  16.0
#define MARGIN_TOP    12.0
#define MARGIN_BOTTOM 34.0
/* Beyond this, Cairo's fixed-point coordinates overflow: clamp. */
#define COORD_LIMIT   1.0e6
#define FONT          "Sans 9"
/* Under the time axis's tick labels: its label ("t [s]"); beside the
 * plot area, an extra value axis (qd-plot-yaxes.c). */
#define X_LABEL_BAND  16.0
/* Over the plot area while zoomed: the zoom indicator. */
#define ZOOM_BAND     14.0
#define EXTRA_AXIS_W  72.0

static inline void
source_color (cairo_t           *cr,
              const QdPlotColor *color)
{
  cairo_set_source_rgba (cr, color->red, color->green, color->blue, color->alpha);
}

/* Coordinates */

typedef struct
{
  QdPlotRect area;
  double     x_min, x_max, y_min, y_max;
  double     sx, sy;   /* pixels per unit */
} Map;

static inline void
map_init (Map                       *m,
          const QdPlotRenderOptions *o,
          const QdPlotRect          *area)
{
  m->area = *area;
  m->x_min = o->x_min;
  m->x_max = o->x_max;
  m->y_min = o->y_min;
  m->y_max = o->y_max;
  m->sx = area->width / (o->x_max - o->x_min);
  m->sy = area->height / (o->y_max - o->y_min);
}

static inline double
clamp_coord (double v)
{
  if (isnan (v))
    return 0.0;
  return CLAMP (v, -COORD_LIMIT, COORD_LIMIT);
}

static inline double
map_x (const Map *m,
       double     x)
{
  return clamp_coord (m->area.x + (x - m->x_min) * m->sx);
}

static inline double
map_y (const Map *m,
       double     y)
{
  return clamp_coord (m->area.y + m->area.height - (y - m->y_min) * m->sy);
}

/* The map of series @i of @o: @base, or one with the value range of
 * its own axis when the arrangement gives it one (several y axes). */
static inline const Map *
series_map (const QdPlotRenderOptions *o,
            guint                      i,
            const Map                 *base,
            Map                       *scratch)
{
  const QdPlotAxes *ax = o->axes;
  guint k;

  if (ax == NULL || ax->kind != QD_PLOT_LAYOUT_AXES || o->xy
      || ax->series_axis == NULL || ax->y_ranges == NULL || ax->n_axes < 2)
    return base;
  k = MIN (ax->series_axis[i], MIN (ax->n_axes, QD_PLOT_MAX_Y_AXES) - 1);
  if (k == 0 || !(ax->y_ranges[2 * k + 1] > ax->y_ranges[2 * k]))
    return base;
  *scratch = *base;
  scratch->y_min = ax->y_ranges[2 * k];
  scratch->y_max = ax->y_ranges[2 * k + 1];
  scratch->sy = base->area.height / (scratch->y_max - scratch->y_min);
  return scratch;
}

/* Text */

static inline PangoLayout *
make_layout (cairo_t    *cr,
             const char *text)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string (FONT);

  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  pango_layout_set_text (layout, text, -1);
  return layout;
}

/* Draws @text with its anchor (0 = left/top, 0.5 = centre, 1 = right/
 * bottom) at (x, y). */
static inline void
draw_text (cairo_t    *cr,
           const char *text,
           double      x,
           double      y,
           double      ax,
           double      ay)
{
  PangoLayout *layout = make_layout (cr, text);
  int w, h;

  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, round (x - ax * w), round (y - ay * h));
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

static inline void
text_size (cairo_t    *cr,
           const char *text,
           double     *w,
           double     *h)
{
  PangoLayout *layout = make_layout (cr, text);
  int iw, ih;

  pango_layout_get_pixel_size (layout, &iw, &ih);
  *w = iw;
  *h = ih;
  g_object_unref (layout);
}

/* Series helpers */

/* Where the last segment of @trace ends: the close time, or the run's
 * current time for a trace still being written. */
static inline double
series_end (const QdPlotRenderOptions *o,
            QdTrace                   *trace,
            gsize                      length)
{
  double end;

  if (qd_trace_is_closed (trace, &end))
    return end;
  end = qd_trace_get_last_time (trace);
  return MAX (end, o->t_end);
}

static inline void
series_color (const QdPlotSeries *s,
              const QdPlotStyle  *style,
              QdPlotColor        *color)
{
  *color = s->color;
  if (s->earlier)
    {
      /* A lighter shade of the same hue: mixed with the background.
       * A run's own colour, dashed, less so: it is told apart already. */
      const double keep = s->dash > 0 ? 0.62 : 0.42;

      color->red = keep * color->red + (1.0 - keep) * style->background.red;
      color->green = keep * color->green + (1.0 - keep) * style->background.green;
      color->blue = keep * color->blue + (1.0 - keep) * style->background.blue;
    }
}

static inline guint
n_columns (const QdPlotRect *area)
{
  return (guint) MAX (1.0, ceil (area->width - 1e-6));
}

/* The columns of @s over the view, from its cache or a scratch one. */
static inline const QdPlotColumn *
series_columns (const QdPlotRenderOptions *o,
                const QdPlotSeries        *s,
                const QdPlotRect          *area,
                double                     end,
                QdPlotColumns            **scratch)
{
  QdPlotColumns *cache = s->columns;

  if (cache == NULL)
    cache = *scratch = qd_plot_columns_new ();
  return qd_plot_columns_update (cache, s->trace, o->mode, o->x_min, o->x_max,
                                 n_columns (area), end);
}

/* qd-plot-axes.c */
void qd_plot_compute_layout     (cairo_t                   *cr,
                                 const QdPlotRenderOptions *o,
                                 const QdPlotRect          *area,
                                 QdPlotLayout              *l);
void qd_plot_draw_grid_and_axes (cairo_t                   *cr,
                                 const QdPlotRenderOptions *o,
                                 const QdPlotStyle         *style,
                                 const Map                 *m,
                                 const QdPlotLayout        *l,
                                 gboolean                   grid);
void qd_plot_draw_legend        (cairo_t                   *cr,
                                 const QdPlotRenderOptions *o,
                                 const QdPlotStyle         *style,
                                 const QdPlotLayout        *l);

/* The zoom box the pointer drags (qd-plot-render.c). */
void qd_plot_draw_box           (cairo_t                   *cr,
                                 const QdPlotRect          *box);

/* The label of value axis @axis: the arrangement's, else the names of
 * the current traces on it (qd-plot-axes.c); NULL for none. */
char *qd_plot_axis_label        (const QdPlotRenderOptions *o,
                                 guint                      axis);

/* qd-plot-yaxes.c: the time axis's label, the extra value axes and
 * the zoom indicator, over what qd_plot_render() drew. */
void qd_plot_yaxes_draw         (cairo_t                   *cr,
                                 const QdPlotRenderOptions *o,
                                 const QdPlotStyle         *style,
                                 const Map                 *m);
/* The colour of value axis @axis's text: its first trace's when the
 * plot has several y axes, else the style's. */
void qd_plot_yaxes_color        (const QdPlotRenderOptions *o,
                                 guint                      axis,
                                 const QdPlotStyle         *style,
                                 QdPlotColor               *color);

/* qd-plot-runs.c: the legend's rows of earlier runs (rows from
 * o->n_series on, see QD_PLOT_LEGEND_DROPPED_ROW()) */
gboolean qd_plot_legend_is_series    (const QdPlotRenderOptions *o,
                                      guint                      index);
char    *qd_plot_legend_row_text     (const QdPlotRenderOptions *o,
                                      guint                      row);
/* The title row (@title) or the rows of the runs and the dropped note;
 * how many were written to @rows. */
guint    qd_plot_legend_run_rows     (const QdPlotRenderOptions *o,
                                      gboolean                   title,
                                      guint                     *rows,
                                      guint                      max_rows);
/* qd-plot-render.c: one XY curve, @sy against @sx, in the source set. */
void     qd_plot_draw_series_xy      (cairo_t                   *cr,
                                      const QdPlotRenderOptions *o,
                                      const Map                 *m,
                                      const QdPlotSeries        *sx,
                                      const QdPlotSeries        *sy);
/* The earlier runs' XY curves (o->xy_pairs), dashed in their colours. */
void     qd_plot_draw_xy_runs        (cairo_t                   *cr,
                                      const QdPlotRenderOptions *o,
                                      const QdPlotStyle         *style,
                                      const Map                 *m);
/* Dashes an earlier run's curve (s->dash), or sets a solid line. */
void     qd_plot_set_series_dash     (cairo_t                   *cr,
                                      const QdPlotRenderOptions *o,
                                      const QdPlotSeries        *s);
void     qd_plot_draw_legend_run_row (cairo_t                   *cr,
                                      const QdPlotRenderOptions *o,
                                      const QdPlotStyle         *style,
                                      guint                      row,
                                      double                     x,
                                      double                     y,
                                      double                     swatch,
                                      double                     pad);

G_END_DECLS

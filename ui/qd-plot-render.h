/* qd-plot-render.h: drawing traces with Cairo
 *
 * Draws a set of traces (grid, axes with nice ticks, the curves, the
 * legend, a cursor readout and a zoom box) into a cairo context of a given
 * size with given axis ranges. The plot widget draws through it in
 * snapshot(), and export draws through it into image, SVG and PDF
 * surfaces, so what is saved is what is seen. No GTK here.
 *
 * Curves are exact: each segment's polynomial is drawn from its start to
 * the next event. When a view holds more segments than pixel columns, the
 * curves are drawn from per-column exact minima and maxima
 * (qd-plot-decimate.h), which a series can cache across frames. Where a
 * memory budget left a trace only decimated history, its buckets are
 * drawn as lighter min/max bands, in every mode; XY curves and the cursor
 * readout show only exact data.
 */
#pragma once

#include <cairo.h>
#include <glib.h>

#include "qdevs.h"
#include "qd-image-file.h"
#include "qd-plot-decimate.h"
#include "qd-plot-runs.h"

G_BEGIN_DECLS

typedef struct
{
  double red, green, blue, alpha;
} QdPlotColor;

typedef struct
{
  double x, y, width, height;
} QdPlotRect;

typedef struct
{
  QdTrace       *trace;
  const char    *label;
  QdPlotColor    color;
  gboolean       visible;
  gboolean       earlier;   /* a kept run: drawn lighter, under the others */
  QdPlotColumns *columns;   /* a cache kept by the caller; NULL: none */
  /* An earlier run's trace: its run in QdPlotRenderOptions.runs (the
   * legend then has a row per run, not per trace), and its dash pattern
   * (qd_plot_run_dashes(); 0: solid). Ignored without runs. */
  guint          run;
  guint          dash;
} QdPlotSeries;

typedef struct
{
  QdPlotColor background;
  QdPlotColor frame;
  QdPlotColor grid;
  QdPlotColor text;
  QdPlotColor cursor;
  QdPlotColor legend_background;
} QdPlotStyle;

/* How the series are arranged on axes (qd-plot-subplots.h). */
typedef struct _QdPlotAxes QdPlotAxes;

typedef struct
{
  const QdPlotSeries *series;
  guint               n_series;
  QdPlotMode          mode;
  /* Axis ranges: time and value, or the two traces' values in XY mode. */
  double              x_min, x_max;
  double              y_min, y_max;
  /* Where the open last segment of a trace still running ends. */
  double              t_end;
  /* XY mode: series[xy_x] along x against series[xy_y] along y. */
  gboolean            xy;
  guint               xy_x, xy_y;

  gboolean            draw_grid;
  gboolean            draw_axes;     /* margins with ticks and labels */
  gboolean            draw_legend;
  gboolean            draw_background;
  double              line_width;
  const QdPlotStyle  *style;         /* NULL: the light style */

  /* Earlier runs (qd-plot-runs.h): with them, the legend lists the
   * current traces, then one row per run, then how many were dropped
   * (@n_dropped); @current_title, when set, heads it ("Run 3 (current)
   * · k = 3"). */
  const QdPlotRun    *runs;
  guint               n_runs;
  /* XY mode: the earlier runs' curves of the same two signals, drawn
   * under the current one: @n_xy_pairs pairs of series (x, then y). */
  const guint        *xy_pairs;
  guint               n_xy_pairs;
  guint               n_dropped;
  const char         *current_title;

  /* Overlays of the widget, in output coordinates. */
  gboolean            has_cursor;
  double              cursor_x;
  gboolean            has_box;
  QdPlotRect          box;

  /* Subplots, several y axes, axis labels with units and the zoom
   * indicator; NULL: one value axis named after the traces. */
  const QdPlotAxes   *axes;
} QdPlotRenderOptions;

/* Where the parts of a plot go, for an output of a given size. */
typedef struct
{
  QdPlotRect area;            /* where the curves are drawn */
  guint      n_x_ticks;
  QdPlotRect x_ticks[64];     /* the time axis's tick labels, in order */
  QdPlotRect y_label;         /* the value axis's label; width 0: none */
  QdPlotRect legend;          /* width 0: no legend */
  guint      n_legend_rows;
  guint      legend_rows[64]; /* the series of each legend row; from
                                 n_series on, rows of the runs
                                 (QD_PLOT_LEGEND_RUN_ROW...) */
} QdPlotLayout;

/* Legend rows that are not a series: run @k is row n_series + k; then
 * the dropped runs' note, then the current run's title. */
#define QD_PLOT_LEGEND_DROPPED_ROW(o) ((o)->n_series + (o)->n_runs)
#define QD_PLOT_LEGEND_TITLE_ROW(o)   ((o)->n_series + (o)->n_runs + 1)

void     qd_plot_style_init_light       (QdPlotStyle                *style);
void     qd_plot_style_init_dark        (QdPlotStyle                *style);
void     qd_plot_render_options_init    (QdPlotRenderOptions        *options);
/* The @index-th colour of the automatic palette (cycles). */
void     qd_plot_palette_color          (guint                       index,
                                         QdPlotColor                *color);

/* The rectangle the curves are drawn in, for an output of the size. */
void     qd_plot_render_get_area        (const QdPlotRenderOptions  *options,
                                         double                      width,
                                         double                      height,
                                         QdPlotRect                 *area);
void     qd_plot_render                 (cairo_t                    *cr,
                                         const QdPlotRenderOptions  *options,
                                         double                      width,
                                         double                      height);

/* Draws into a new file at @path: a PNG image of @width x @height
 * pixels, or an SVG or PDF page of that many points. */
gboolean qd_plot_render_to_file         (const QdPlotRenderOptions  *options,
                                         const char                 *path,
                                         QdImageFormat               format,
                                         int                         width,
                                         int                         height,
                                         GError                    **error);

/* The points an XY curve of @options is drawn through, at an output of
 * the size: at each event of either trace, and between them on curved
 * pieces so that no chord is longer than about two pixels; each with its
 * time and the exact values of the two polynomials there. */
typedef void (*QdPlotXyFunc) (double t, double x, double y, gboolean event, gpointer data);
void     qd_plot_render_walk_xy         (const QdPlotRenderOptions  *options,
                                         double                      width,
                                         double                      height,
                                         QdPlotXyFunc                func,
                                         gpointer                    data);

/* Where the data of the visible series lies, exactly. Along x: from the
 * first event to where the traces end (or the XY x trace's values).
 * Along y: the values over [x_min, x_max] of @options, from the same
 * per-column extremes the drawing uses at @width (or the XY y trace's
 * values). Return FALSE when there is nothing to show. */
gboolean qd_plot_render_get_x_extent    (const QdPlotRenderOptions  *options,
                                         double                     *x_min,
                                         double                     *x_max);
gboolean qd_plot_render_get_y_extent    (const QdPlotRenderOptions  *options,
                                         double                      width,
                                         double                     *y_min,
                                         double                     *y_max);

/* Where the tick labels, the value axis's label and the legend go (the
 * legend where it hides the least of the curves). Returns FALSE when
 * there are neither axes nor a legend. */
gboolean qd_plot_render_get_layout      (const QdPlotRenderOptions  *options,
                                         double                      width,
                                         double                      height,
                                         QdPlotLayout               *layout);
/* The series whose legend entry is at (@x, @y), or -1. */
int      qd_plot_render_legend_hit      (const QdPlotRenderOptions  *options,
                                         double                      width,
                                         double                      height,
                                         double                      x,
                                         double                      y);

/* Nice ticks (1, 2 or 5 x 10^k apart) inside [@lo, @hi], at most
 * @max_ticks of them (and at least two when the range allows); returns
 * how many were written to @ticks, and their spacing in @step. */
guint    qd_plot_nice_ticks             (double                      lo,
                                         double                      hi,
                                         guint                       max_ticks,
                                         double                     *ticks,
                                         double                     *step);
/* The smallest 1, 2 or 5 x 10^k that is >= @value (> 0). */
double   qd_plot_nice_ceil              (double                      value);
/* A tick label: plain decimals for ordinary magnitudes, engineering
 * notation (exponent a multiple of 3) for tiny or huge ones: "0.25",
 * "-3", "3.2e-9", "150e6". @step is the tick spacing, which sets the
 * precision; @axis_max the largest |tick| of the axis, which sets the
 * notation and the exponent, so that one axis reads "0.5e-9, 1.0e-9,
 * 1.5e-9" and not "500e-12, 1.0e-9" (0: @value's own). */
char    *qd_plot_format_tick            (double                      value,
                                         double                      step,
                                         double                      axis_max);
/* A value read at the cursor: six significant digits, in the tick
 * labels' notation (plain from 0.001 to a million, engineering notation
 * beyond), so that the readout's t = 1.08083e-9 reads like the axis's
 * 1.05e-9 and not like printf's 1.08083e-09. */
char    *qd_plot_format_value           (double                      value);

G_END_DECLS

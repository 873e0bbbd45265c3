/* test-plot-layout.c: where the plot puts its labels and its legend
 *
 * Tick labels lie wholly on the output, the value axis has a label, and
 * the legend sits where it hides none of the curves: checked on the
 * layout the renderer reports, on the pixels it draws, and on points of
 * the traces computed from the data, not from the drawing. No display
 * needed.
 *
 * The arrangements of a Scope's signals (qd-plot-subplots.h): stacked
 * subplots on one time axis, several y axes, labels with units, the
 * zoom indicator, and the Scope parameters that hold them.
 */
#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "qd-plot-place.h"
#include "qd-plot-render.h"
#include "qd-plot-render-private.h"
#include "qd-plot-subplots.h"
#include "qd-test-util.h"

static const QdPlotColor blue = { 0.0, 0.0, 1.0, 1.0 };

/* A constant trace from 0 to @until. */
static QdTrace *
flat_trace (const char *name,
            double      value,
            double      until)
{
  QdTrace *trace = qd_trace_new (name);
  QdSignal s;

  qd_signal_set_constant (&s, 0.0, value);
  qd_trace_append (trace, &s);
  qd_trace_close (trace, until);
  return trace;
}

static gboolean
is_ink (const guint8 *data,
        int           stride,
        int           x,
        int           y)
{
  guint32 pixel = *(const guint32 *) (data + y * stride + 4 * x);

  return ((pixel >> 16) & 0xff) < 200 || ((pixel >> 8) & 0xff) < 200 || (pixel & 0xff) < 200;
}

/* Draws a plot of @width x @height onto a white surface wider and
 * higher than that: whatever lands beyond @width or @height was cut off
 * on a real output. */
static void
test_end_labels_inside (void)
{
  const double ends[] = { 300000.0, 100000.0, 0.01, 5.0, 3.2e-9 };
  const int widths[] = { 1000, 640, 400 };
  const int height = 240, extra = 80;

  for (guint e = 0; e < G_N_ELEMENTS (ends); e++)
    for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
      {
        g_autoptr(QdTrace) trace = flat_trace ("x", 0.5, ends[e]);
        QdPlotSeries series = { trace, "x", blue, TRUE, FALSE, NULL };
        int width = widths[w];
        cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24,
                                                               width + extra, height + extra);
        cairo_t *cr = cairo_create (surface);
        QdPlotRenderOptions o;
        QdPlotLayout l;
        const guint8 *data;
        int stride;

        qd_plot_render_options_init (&o);
        o.series = &series;
        o.n_series = 1;
        o.x_max = ends[e];
        o.y_min = 0.0;
        o.y_max = 1.0;
        cairo_set_source_rgb (cr, 1.0, 1.0, 1.0);
        cairo_paint (cr);
        qd_plot_render (cr, &o, width, height);
        cairo_destroy (cr);
        cairo_surface_flush (surface);

        g_assert_true (qd_plot_render_get_layout (&o, width, height, &l));
        g_assert_cmpuint (l.n_x_ticks, >=, 2);
        for (guint i = 0; i < l.n_x_ticks; i++)
          {
            const QdPlotRect *r = &l.x_ticks[i];

            g_assert_cmpfloat (r->x, >=, 0.0);
            g_assert_cmpfloat (r->x + r->width, <=, width);
            g_assert_cmpfloat (r->y + r->height, <=, height);
            if (i > 0)
              g_assert_cmpfloat (l.x_ticks[i - 1].x + l.x_ticks[i - 1].width, <, r->x);
          }

        data = cairo_image_surface_get_data (surface);
        stride = cairo_image_surface_get_stride (surface);
        for (int y = 0; y < height + extra; y++)
          for (int x = 0; x < width + extra; x++)
            if ((x >= width || y >= height) && is_ink (data, stride, x, y))
              g_error ("axis to %g, %d wide: ink at (%d, %d), off the output",
                       ends[e], width, x, y);
        cairo_surface_destroy (surface);
      }
}

/* The value axis is labelled with the traces' names, turned a quarter,
 * in the left margin clear of the tick labels; earlier runs do not
 * repeat their names. */
static void
test_y_label (void)
{
  g_autoptr(QdTrace) a = flat_trace ("prey", 0.2, 10.0);
  g_autoptr(QdTrace) b = flat_trace ("predator", 0.8, 10.0);
  g_autoptr(QdTrace) c = flat_trace ("prey (run 1)", 0.4, 10.0);
  QdPlotSeries series[] = {
    { c, "prey (run 1)", blue, TRUE, TRUE, NULL },
    { a, "prey", blue, TRUE, FALSE, NULL },
    { b, "predator", blue, TRUE, FALSE, NULL },
  };
  QdPlotRenderOptions o;
  QdPlotLayout l, l1;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 600, 300);
  cairo_t *cr = cairo_create (surface);
  const guint8 *data;
  int stride, ink = 0;

  qd_plot_render_options_init (&o);
  o.series = series;
  o.n_series = G_N_ELEMENTS (series);
  o.x_max = 10.0;
  o.y_min = -1234.5;   /* wide tick labels: "-1200" */
  o.y_max = 1.0;
  qd_plot_render (cr, &o, 600, 300);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  g_assert_true (qd_plot_render_get_layout (&o, 600, 300, &l));
  /* Upright text is wider than high; turned, it is higher than wide. */
  g_assert_cmpfloat (l.y_label.width, >, 0.0);
  g_assert_cmpfloat (l.y_label.height, >, 2.0 * l.y_label.width);
  g_assert_cmpfloat (l.y_label.x, >=, 0.0);
  g_assert_cmpfloat (l.y_label.y, >=, l.area.y);
  g_assert_cmpfloat (l.y_label.y + l.y_label.height, <=, l.area.y + l.area.height);

  /* Drawn where reported, with a gap to the tick labels' column: no ink
   * left of the label or in the four columns right of it. */
  data = cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface);
  for (int y = 0; y < 300; y++)
    for (int x = 0; x < (int) (l.y_label.x + l.y_label.width) + 5; x++)
      if (is_ink (data, stride, x, y))
        {
          g_assert_cmpfloat (x, >=, floor (l.y_label.x));
          g_assert_cmpfloat (x, <, ceil (l.y_label.x + l.y_label.width) + 1);
          g_assert_cmpfloat (y, >=, floor (l.y_label.y));
          g_assert_cmpfloat (y, <, ceil (l.y_label.y + l.y_label.height) + 1);
          ink++;
        }
  g_assert_cmpint (ink, >, 50);
  cairo_surface_destroy (surface);

  /* Two names ("prey, predator") make a longer label than one; the
   * earlier run added nothing. */
  series[2].visible = FALSE;
  qd_plot_render_get_layout (&o, 600, 300, &l1);
  g_assert_cmpfloat (l1.y_label.height, <, l.y_label.height);
  series[1].visible = FALSE;
  qd_plot_render_get_layout (&o, 600, 300, &l1);
  g_assert_cmpfloat (l1.y_label.width, ==, 0.0);
}

/* The placement on its own: nothing drawn keeps the top-right corner; a
 * curve there moves the box to where nothing is. */
static void
test_place_box (void)
{
  enum { N = 400 };
  QdPlotSpan spans[N];
  const QdPlotSpan *all[] = { spans };
  double x, y, cover;

  for (guint k = 0; k < N; k++)
    spans[k].top = 1.0, spans[k].bottom = 0.0;
  cover = qd_plot_place_box (10, 20, N, 200, 80, 40, 8, all, 1, N, &x, &y);
  g_assert_cmpfloat (cover, ==, 0.0);
  g_assert_cmpfloat (x, ==, 10 + N - 80 - 8);
  g_assert_cmpfloat (y, ==, 28);

  /* A peak filling the top-right quarter: the box goes elsewhere, and
   * hides nothing. */
  for (guint k = N / 2; k < N; k++)
    spans[k].top = 20, spans[k].bottom = 120;
  cover = qd_plot_place_box (10, 20, N, 200, 80, 40, 8, all, 1, N, &x, &y);
  g_assert_cmpfloat (cover, ==, 0.0);
  g_assert_true (x + 80 <= 10 + N / 2 || y >= 120);

  /* Covered everywhere: the least covered place. */
  for (guint k = 0; k < N; k++)
    spans[k].top = 20, spans[k].bottom = k < 100 ? 190 : 220;
  cover = qd_plot_place_box (10, 20, N, 200, 80, 40, 8, all, 1, N, &x, &y);
  g_assert_cmpfloat (cover, >, 0.0);
  g_assert_cmpfloat (x + 80, <=, 10 + 100);
  g_assert_cmpfloat (y, >, 120);
}

/* The Lotka–Volterra example, as qdevs-cli --plot draws it (1000 x 360,
 * the value range padded by 5%): the legend box holds no point of either
 * curve, the points computed from the traces at every half pixel. */
static void
test_legend_clear_of_data (void)
{
  g_autofree char *path = qd_test_source_path ("data", "examples", "lotka-volterra.qdevs", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) doc = qd_document_load (path, &error);
  QdSimulation *sim;
  GPtrArray *traces;
  QdPlotSeries series[8];
  QdPlotRenderOptions o;
  QdPlotLayout l;
  double y0, y1, span, pad;
  guint n = 0, checked = 0;

  g_assert_no_error (error);
  sim = qd_test_compile (doc);
  qd_test_run (sim);
  qd_simulation_finish (sim);
  traces = qd_simulation_get_traces (sim);
  for (guint i = 0; i < traces->len && n < G_N_ELEMENTS (series); i++, n++)
    {
      QdPlotSeries s = { g_ptr_array_index (traces, i), NULL, blue, TRUE, FALSE, NULL };

      s.label = strrchr (qd_trace_get_name (s.trace), '/') + 1;
      qd_plot_palette_color (i, &s.color);
      series[n] = s;
    }
  g_assert_cmpuint (n, ==, 2);

  qd_plot_render_options_init (&o);
  o.series = series;
  o.n_series = n;
  o.x_min = 0.0;
  o.x_max = qd_simulation_get_time (sim);
  g_assert_true (qd_plot_render_get_y_extent (&o, 1000, &y0, &y1));
  span = y1 - y0;
  o.y_min = y0 - 0.05 * span;
  o.y_max = y1 + 0.05 * span;
  g_assert_true (qd_plot_render_get_layout (&o, 1000, 360, &l));
  g_assert_cmpuint (l.n_legend_rows, ==, 2);
  g_assert_cmpfloat (l.legend.width, >, 40.0);
  /* Inside the plot area. */
  g_assert_cmpfloat (l.legend.x, >=, l.area.x);
  g_assert_cmpfloat (l.legend.y, >=, l.area.y);
  g_assert_cmpfloat (l.legend.x + l.legend.width, <=, l.area.x + l.area.width);
  g_assert_cmpfloat (l.legend.y + l.legend.height, <=, l.area.y + l.area.height);

  pad = 0.5 * o.line_width;
  for (guint i = 0; i < n; i++)
    for (double px = 0.0; px <= l.area.width; px += 0.5)
      {
        double t = o.x_min + px / l.area.width * (o.x_max - o.x_min);
        double v = qd_trace_eval (series[i].trace, t);
        double x = l.area.x + px;
        double y = l.area.y + l.area.height
                   - (v - o.y_min) / (o.y_max - o.y_min) * l.area.height;

        g_assert_false (isnan (v));
        if (x >= l.legend.x - pad && x <= l.legend.x + l.legend.width + pad
            && y >= l.legend.y - pad && y <= l.legend.y + l.legend.height + pad)
          g_error ("%s(%g) = %g is drawn at (%g, %g), under the legend "
                   "(%g, %g) %g x %g", series[i].label, t, v, x, y,
                   l.legend.x, l.legend.y, l.legend.width, l.legend.height);
        checked++;
      }
  g_assert_cmpuint (checked, >, 3000);

  /* The legend's clicks follow it where it went. */
  g_assert_cmpint (qd_plot_render_legend_hit (&o, 1000, 360,
                                              l.legend.x + 10,
                                              l.legend.y + 6 + 17 * 1.5), ==, 1);
  qd_simulation_free (sim);
}

/* Arrangements */

static void
test_arrangement_parse (void)
{
  const char *names[] = { "v", "i", "w", "z" };
  g_autoptr(QdPlotArrangement) a = NULL;
  g_autoptr(QdPlotArrangement) b = NULL;
  g_autoptr(GError) error = NULL;

  /* A group by name and number, the others an axis each after it. */
  a = qd_plot_arrangement_parse ("subplots", " v, 3 ; ", "v [V], i [A], w [V]", "t [s]",
                                 names, 4, &error);
  g_assert_no_error (error);
  g_assert_cmpint (qd_plot_arrangement_get_kind (a), ==, QD_PLOT_LAYOUT_SUBPLOTS);
  g_assert_cmpuint (qd_plot_arrangement_get_n_groups (a), ==, 3);
  g_assert_cmpint (qd_plot_arrangement_group_of (a, "v"), ==, 0);
  g_assert_cmpint (qd_plot_arrangement_group_of (a, "w"), ==, 0);
  g_assert_cmpint (qd_plot_arrangement_group_of (a, "i"), ==, 1);
  g_assert_cmpint (qd_plot_arrangement_group_of (a, "z"), ==, 2);
  g_assert_cmpint (qd_plot_arrangement_group_of (a, "nope"), ==, -1);
  /* A shared unit is said once; a missing label is the name. */
  g_assert_cmpstr (qd_plot_arrangement_get_axis_label (a, 0), ==, "v, w [V]");
  g_assert_cmpstr (qd_plot_arrangement_get_axis_label (a, 1), ==, "i [A]");
  g_assert_cmpstr (qd_plot_arrangement_get_axis_label (a, 2), ==, "z");
  g_assert_cmpstr (qd_plot_arrangement_get_single_label (a), ==, "v [V], i [A], w [V], z");
  g_assert_cmpstr (qd_plot_arrangement_get_time_label (a), ==, "t [s]");

  /* Nothing set: one axis per signal, the names as labels, no time
   * label, the single layout. */
  b = qd_plot_arrangement_parse (NULL, "", "", "", names, 2, &error);
  g_assert_no_error (error);
  g_assert_cmpint (qd_plot_arrangement_get_kind (b), ==, QD_PLOT_LAYOUT_SINGLE);
  g_assert_cmpuint (qd_plot_arrangement_get_n_groups (b), ==, 2);
  g_assert_cmpstr (qd_plot_arrangement_get_axis_label (b, 1), ==, "i");
  g_assert_null (qd_plot_arrangement_get_time_label (b));

  g_assert_null (qd_plot_arrangement_parse ("stacked", NULL, NULL, NULL, names, 4, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_PARAM);
  g_assert_cmpstr (error->message, ==, "layout: 'stacked' is not a layout; use single, subplots or axes");
  g_clear_error (&error);
  g_assert_null (qd_plot_arrangement_parse ("axes", "v; q", NULL, NULL, names, 4, &error));
  g_assert_nonnull (strstr (error->message, "'q' is not one of the signals (v, i, w, z)"));
  g_clear_error (&error);
  g_assert_null (qd_plot_arrangement_parse ("axes", "v; 5", NULL, NULL, names, 4, &error));
  g_assert_nonnull (strstr (error->message, "'5' is not one of the signals"));
  g_clear_error (&error);
  g_assert_null (qd_plot_arrangement_parse ("axes", "v, i; 1", NULL, NULL, names, 4, &error));
  g_assert_cmpstr (error->message, ==, "groups: the signal 'v' is in two groups; put each signal in one group");
}

/* Options for @n flat traces, arranged by @a in @kind with value
 * ranges @ranges; the caller owns nothing but @axes' arrays below. */
typedef struct
{
  QdPlotRenderOptions o;
  QdPlotAxes          axes;
  guint               series_axis[8];
  const char         *labels[QD_PLOT_MAX_PANELS];
  double              ranges[2 * QD_PLOT_MAX_PANELS];
} Arranged;

static void
arranged_init (Arranged                *r,
               const QdPlotSeries      *series,
               guint                    n,
               const QdPlotArrangement *a,
               QdPlotLayoutKind         kind)
{
  const char *names[8];

  for (guint i = 0; i < n; i++)
    names[i] = series[i].label;
  qd_plot_render_options_init (&r->o);
  r->o.series = series;
  r->o.n_series = n;
  r->o.x_max = 10.0;
  qd_plot_arrangement_fill_axes (a, kind, names, n, r->series_axis, r->labels, &r->axes);
  r->axes.y_ranges = r->ranges;
  r->o.axes = &r->axes;
}

static guint32
pixel_at (cairo_surface_t *surface,
          int              x,
          int              y)
{
  return *(const guint32 *) (cairo_image_surface_get_data (surface)
                             + y * cairo_image_surface_get_stride (surface) + 4 * x) & 0xffffff;
}

/* Mostly the colour 0xRRGGBB @rgb, anti-aliased on white: the channels
 * @rgb has at 0 well below the others. */
static gboolean
is_shade_of (guint32 pixel,
             guint32 rgb)
{
  int lo = 255, hi = 0;

  for (int c = 0; c < 3; c++)
    {
      int v = (pixel >> (8 * c)) & 0xff;

      if ((rgb >> (8 * c)) & 0xff)
        hi = MAX (hi, v);
      else
        lo = MIN (lo, v);
    }
  return hi - lo > 100 || (hi > 150 && lo < 100);
}

static cairo_surface_t *
render_arranged (const QdPlotRenderOptions *o,
                 int                        width,
                 int                        height)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, width, height);
  cairo_t *cr = cairo_create (surface);

  qd_plot_render (cr, o, width, height);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* Three signals, two groups, stacked: two plots one above the other,
 * with the same columns for the same times, each curve in its own plot
 * at its own scale, time labels under the lowest only. */
static void
test_subplots_geometry (void)
{
  const char *names[] = { "v", "i", "w" };
  g_autoptr(QdTrace) tv = flat_trace ("v", 12.0, 10.0);
  g_autoptr(QdTrace) ti = flat_trace ("i", 0.002, 10.0);
  g_autoptr(QdTrace) tw = flat_trace ("w", 6.0, 10.0);
  const QdPlotColor red = { 1.0, 0.0, 0.0, 1.0 }, green = { 0.0, 0.6, 0.0, 1.0 };
  QdPlotSeries series[] = {
    { tv, "v", blue, TRUE, FALSE, NULL },
    { ti, "i", red, TRUE, FALSE, NULL },
    { tw, "w", green, TRUE, FALSE, NULL },
  };
  g_autoptr(QdPlotArrangement) a =
    qd_plot_arrangement_parse ("subplots", "v, w", "v [V], i [A], w [V]", "t [s]",
                               names, 3, NULL);
  QdPlotRect areas[QD_PLOT_MAX_PANELS];
  const int width = 700, height = 500;
  cairo_surface_t *surface;
  Arranged r;
  guint n;

  arranged_init (&r, series, 3, a, qd_plot_arrangement_get_kind (a));
  g_assert_cmpuint (r.axes.n_axes, ==, 2);
  g_assert_cmpuint (r.series_axis[0], ==, 0);
  g_assert_cmpuint (r.series_axis[1], ==, 1);
  g_assert_cmpuint (r.series_axis[2], ==, 0);
  g_assert_cmpstr (r.labels[0], ==, "v, w [V]");
  g_assert_cmpstr (r.labels[1], ==, "i [A]");
  g_assert_true (qd_plot_subplots_is_stacked (&r.o));

  /* Each axis fitted to its own signals. */
  qd_plot_subplots_y_extents (&r.o, width, r.ranges);
  g_assert_cmpfloat (r.ranges[0], ==, 6.0);
  g_assert_cmpfloat (r.ranges[1], ==, 12.0);
  g_assert_cmpfloat (r.ranges[2], ==, 0.002);
  g_assert_cmpfloat (r.ranges[3], ==, 0.002);
  r.ranges[0] = 0.0;
  r.ranges[1] = 20.0;
  r.ranges[2] = 0.0;
  r.ranges[3] = 0.004;
  r.o.y_min = 0.0;
  r.o.y_max = 20.0;

  n = qd_plot_subplots_get_areas (&r.o, width, height, areas);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpfloat (areas[0].x, ==, areas[1].x);
  g_assert_cmpfloat (areas[0].width, ==, areas[1].width);
  g_assert_cmpfloat (areas[0].height, ==, areas[1].height);
  g_assert_cmpfloat (areas[0].y, >=, 0.0);
  g_assert_cmpfloat (areas[0].y + areas[0].height, <, areas[1].y);
  /* Room under the lowest for its tick labels and the time's label. */
  g_assert_cmpfloat (areas[1].y + areas[1].height + 34.0 + 16.0, <=, height);
  g_assert_cmpuint (qd_plot_subplots_axis_at (&r.o, width, height, 300, areas[0].y + 5), ==, 0);
  g_assert_cmpuint (qd_plot_subplots_axis_at (&r.o, width, height, 300, areas[1].y + 5), ==, 1);

  /* Each plot has the legend of its own signals, and a click on it
   * names the signal among all of them. */
  {
    gboolean hits[3] = { FALSE, FALSE, FALSE };

    for (guint k = 0; k < n; k++)
      for (double y = areas[k].y; y < areas[k].y + areas[k].height; y += 6.0)
        for (double x = areas[k].x; x < areas[k].x + areas[k].width; x += 8.0)
          {
            int hit = qd_plot_render_legend_hit (&r.o, width, height, x, y);

            if (hit < 0)
              continue;
            g_assert_cmpuint (r.series_axis[hit], ==, k);
            hits[hit] = TRUE;
          }
    g_assert_true (hits[0] && hits[1] && hits[2]);
  }

  r.o.draw_legend = FALSE;
  surface = render_arranged (&r.o, width, height);
  if (g_getenv ("QD_TEST_DUMP") != NULL)
    cairo_surface_write_to_png (surface, g_getenv ("QD_TEST_DUMP"));
  /* v = 12 of [0, 20] in the upper plot, i = 0.002 of [0, 0.004] half
   * way up the lower one: each at its own scale. */
  {
    int x = (int) (areas[0].x + 0.5 * areas[0].width);
    int yv = (int) round (areas[0].y + areas[0].height * (1.0 - 12.0 / 20.0));
    int yi = (int) round (areas[1].y + 0.5 * areas[1].height);
    gboolean v_found = FALSE, i_found = FALSE;

    for (int d = -2; d <= 2; d++)
      {
        v_found |= is_shade_of (pixel_at (surface, x, yv + d), 0x0000ff);
        i_found |= is_shade_of (pixel_at (surface, x, yi + d), 0xff0000);
      }
    g_assert_true (v_found);
    g_assert_true (i_found);
    /* Nothing of the lower plot's curve in the upper plot. */
    for (int y = (int) areas[0].y; y < areas[0].y + areas[0].height; y++)
      g_assert_false (is_shade_of (pixel_at (surface, x, y), 0xff0000));
  }
  /* Between the plots only the tick marks, no tick labels. */
  for (int y = (int) (areas[0].y + areas[0].height + 5); y < areas[1].y; y++)
    for (int x = (int) areas[0].x + 10; x < areas[0].x + areas[0].width - 10; x++)
      if (pixel_at (surface, x, y) != 0xffffff)
        g_error ("ink at (%d, %d) between the plots", x, y);
  /* Under the lowest: tick labels, then the time's label, centred. */
  {
    gboolean label_ink = FALSE;
    double y0 = areas[1].y + areas[1].height + 34.0;

    for (int y = (int) y0 - 4; y < height; y++)
      for (int x = (int) (areas[1].x + 0.5 * areas[1].width - 15);
           x < areas[1].x + 0.5 * areas[1].width + 15; x++)
        label_ink |= pixel_at (surface, x, y) != 0xffffff;
    g_assert_true (label_ink);
  }
  cairo_surface_destroy (surface);
}

/* Four groups on one area: four value axes, the extra ones outside the
 * area at the right, left, right, in their trace's colour; each trace
 * drawn at its own axis's scale. */
static void
test_y_axes (void)
{
  const char *names[] = { "a", "b", "c", "d", "e" };
  g_autoptr(QdTrace) ta = flat_trace ("a", 1.0, 10.0);
  g_autoptr(QdTrace) tb = flat_trace ("b", 100.0, 10.0);
  g_autoptr(QdTrace) tc = flat_trace ("c", -3.0, 10.0);
  g_autoptr(QdTrace) td = flat_trace ("d", 0.8, 10.0);
  g_autoptr(QdTrace) te = flat_trace ("e", 0.25, 10.0);
  const QdPlotColor red = { 1.0, 0.0, 0.0, 1.0 };
  QdPlotSeries series[] = {
    { ta, "a", blue, TRUE, FALSE, NULL },
    { tb, "b", red, TRUE, FALSE, NULL },
    { tc, "c", blue, TRUE, FALSE, NULL },
    { td, "d", blue, TRUE, FALSE, NULL },
    { te, "e", blue, TRUE, FALSE, NULL },
  };
  g_autoptr(QdPlotArrangement) arr =
    qd_plot_arrangement_parse ("axes", NULL, ", b [mA]", NULL, names, 5, NULL);
  const int width = 800, height = 400;
  cairo_surface_t *surface;
  QdPlotRect area, plain;
  QdPlotRenderOptions single;
  Arranged r;
  gboolean red_ink = FALSE;
  g_autofree char *label = NULL;

  arranged_init (&r, series, 5, arr, QD_PLOT_LAYOUT_AXES);
  /* Five groups, at most four axes: the fifth shares the fourth. */
  g_assert_cmpuint (r.axes.n_axes, ==, QD_PLOT_MAX_Y_AXES);
  g_assert_false (qd_plot_subplots_is_stacked (&r.o));
  label = qd_plot_axis_label (&r.o, 1);
  g_assert_cmpstr (label, ==, "b [mA]");
  g_clear_pointer (&label, g_free);
  label = qd_plot_axis_label (&r.o, 3);
  g_assert_cmpstr (label, ==, "d, e");
  for (guint k = 0; k < 4; k++)
    {
      r.ranges[2 * k] = 0.0;
      r.ranges[2 * k + 1] = 1.0;
    }
  r.ranges[3] = 200.0;
  r.o.y_min = 0.0;
  r.o.y_max = 1.0;
  r.o.draw_legend = FALSE;
  r.o.draw_grid = FALSE;

  qd_plot_render_options_init (&single);
  qd_plot_render_get_area (&single, width, height, &plain);
  qd_plot_render_get_area (&r.o, width, height, &area);
  /* One extra axis band at the left, two at the right. */
  g_assert_cmpfloat (area.x, >, plain.x + 60.0);
  g_assert_cmpfloat (width - area.x - area.width, >, 2 * 60.0);
  /* Which axis a scroll beside the area zooms. */
  g_assert_cmpint (qd_plot_yaxes_axis_at (&r.o, width, height, area.x + area.width + 10), ==, 1);
  g_assert_cmpint (qd_plot_yaxes_axis_at (&r.o, width, height, width - 10), ==, 3);
  g_assert_cmpint (qd_plot_yaxes_axis_at (&r.o, width, height, 10), ==, 2);
  g_assert_cmpint (qd_plot_yaxes_axis_at (&r.o, width, height, area.x - 20), ==, 0);
  g_assert_cmpint (qd_plot_yaxes_axis_at (&r.o, width, height, area.x + 20), ==, -1);

  surface = render_arranged (&r.o, width, height);
  if (g_getenv ("QD_TEST_DUMP") != NULL)
    cairo_surface_write_to_png (surface, g_getenv ("QD_TEST_DUMP"));
  /* b = 100 of [0, 200]: half way up, not at the top of axis 0's [0, 1]. */
  {
    int x = (int) (area.x + area.width / 2), y = (int) round (area.y + area.height / 2);

    g_assert_true (is_shade_of (pixel_at (surface, x, y - 1), 0xff0000)
                   || is_shade_of (pixel_at (surface, x, y), 0xff0000));
  }
  /* Axis 1's ticks and labels, in b's red, right of the area. */
  for (int y = (int) area.y; y < area.y + area.height; y++)
    for (int x = (int) (area.x + area.width + 1); x < area.x + area.width + 60; x++)
      {
        red_ink |= is_shade_of (pixel_at (surface, x, y), 0xff0000);
      }
  g_assert_true (red_ink);
  cairo_surface_destroy (surface);
}

/* The zoom indicator: in a band over the plot, a line of text and a
 * strip, the part in view filled where it lies in the run's span. */
static void
test_zoom_indicator (void)
{
  g_autoptr(QdTrace) trace = flat_trace ("x", 0.5, 10.0);
  QdPlotSeries series = { trace, "x", blue, TRUE, FALSE, NULL };
  QdPlotAxes axes = { 0 };
  QdPlotRenderOptions o;
  QdPlotRect area, zoomed;
  cairo_surface_t *surface;
  gboolean found = FALSE;

  qd_plot_render_options_init (&o);
  o.series = &series;
  o.n_series = 1;
  o.x_min = 6.0;
  o.x_max = 8.0;
  o.axes = &axes;
  axes.kind = QD_PLOT_LAYOUT_SINGLE;
  axes.n_axes = 1;
  qd_plot_render_get_area (&o, 600, 300, &area);
  surface = render_arranged (&o, 600, 300);
  /* Nothing over the area but the value axis's top tick label. */
  for (int y = 0; y < area.y - 1; y++)
    for (int x = (int) area.x + 1; x < area.x + area.width; x++)
      g_assert_cmphex (pixel_at (surface, x, y), ==, 0xffffff);
  cairo_surface_destroy (surface);

  axes.zoomed = TRUE;
  axes.data_x_min = 0.0;
  axes.data_x_max = 10.0;
  qd_plot_render_get_area (&o, 600, 300, &zoomed);
  g_assert_cmpfloat (zoomed.y, ==, area.y + 14.0);
  g_assert_cmpfloat (zoomed.height, ==, area.height - 14.0);
  surface = render_arranged (&o, 600, 300);
  /* The strip runs to the area's right edge; 6 to 8 of 0 to 10 is
   * filled (blue) at 70 % of it and not (grey) at 30 %. */
  for (int y = 0; y < zoomed.y && !found; y++)
    {
      int right = (int) (zoomed.x + zoomed.width) - 2, sx = right;
      double sw;
      guint32 in, out;

      if (pixel_at (surface, right, y) == 0xffffff)
        continue;
      while (sx > 0 && pixel_at (surface, sx - 1, y) != 0xffffff)
        sx--;
      sw = zoomed.x + zoomed.width - sx;
      if (sw < 100.0)
        continue;
      found = TRUE;
      g_assert_cmpfloat (sx, >, zoomed.x + 100.0);   /* after the text */
      in = pixel_at (surface, (int) (sx + 0.7 * sw), y);
      out = pixel_at (surface, (int) (sx + 0.3 * sw), y);
      g_assert_cmpuint (in & 0xff, >, ((in >> 16) & 0xff) + 80);
      g_assert_cmpuint (out & 0xff, <, ((out >> 16) & 0xff) + 10);
    }
  g_assert_true (found);
  cairo_surface_destroy (surface);
}

/* The Scope's parameters: a file without them is saved as it was; set,
 * they go into the file and come back; Check names a bad group. */
static const char scope_model[] =
  "{\n"
  "  \"format\": \"qdevs\",\n"
  "  \"version\": 1,\n"
  "  \"title\": \"Scope\",\n"
  "  \"description\": \"\",\n"
  "  \"simulation\": {\n"
  "    \"start\": 0,\n"
  "    \"final\": 1,\n"
  "    \"method\": \"QSS2\",\n"
  "    \"dqmin\": 0.001,\n"
  "    \"dqrel\": 0,\n"
  "    \"illegitimacy_limit\": 1000000\n"
  "  },\n"
  "  \"variables\": {},\n"
  "  \"blocks\": [\n"
  "    {\n"
  "      \"id\": \"b1\",\n"
  "      \"type\": \"constant\",\n"
  "      \"name\": \"Constant\",\n"
  "      \"position\": [0, 0],\n"
  "      \"size\": [60, 40]\n"
  "    },\n"
  "    {\n"
  "      \"id\": \"b2\",\n"
  "      \"type\": \"scope\",\n"
  "      \"name\": \"Scope\",\n"
  "      \"position\": [200, 0],\n"
  "      \"size\": [60, 40],\n"
  "      \"params\": {\n"
  "        \"n\": \"2\",\n"
  "        \"names\": \"v, i\"\n"
  "      }\n"
  "    }\n"
  "  ],\n"
  "  \"links\": [\n"
  "    {\n"
  "      \"id\": \"l1\",\n"
  "      \"from\": { \"block\": \"b1\", \"port\": 0 },\n"
  "      \"to\": [\n"
  "        { \"block\": \"b2\", \"port\": 0 },\n"
  "        { \"block\": \"b2\", \"port\": 1 }\n"
  "      ]\n"
  "    }\n"
  "  ]\n"
  "}\n";

static char *
save_to_string (QdDocument *document)
{
  return qd_document_to_data (document, NULL);
}

static void
test_scope_params (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) document = qd_document_load_data (scope_model, strlen (scope_model),
                                                                      "scope.qdevs", &error);
  g_autoptr(QdDocument) again = NULL;
  g_autoptr(QdPlotArrangement) a = NULL;
  g_autofree char *plain = NULL, *arranged = NULL;
  const char *names[] = { "v", "i" };
  QdBlock *scope;

  g_assert_no_error (error);
  plain = save_to_string (document);
  g_assert_cmpstr (plain, ==, scope_model);
  scope = qd_document_find_block_by_path (document, "/Scope");
  g_assert_nonnull (scope);
  g_assert_cmpstr (qd_block_get_param_or_default (scope, "layout"), ==, "single");

  g_assert_true (qd_document_set_param (document, scope, "layout", "axes", &error));
  g_assert_true (qd_document_set_param (document, scope, "groups", "v; i", &error));
  g_assert_true (qd_document_set_param (document, scope, "labels", "v [V], i [A]", &error));
  g_assert_true (qd_document_set_param (document, scope, "time_label", "t [s]", &error));
  g_assert_no_error (error);
  g_assert_false (qd_document_set_param (document, scope, "layout", "stacked", &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_PARAM);
  g_clear_error (&error);
  arranged = save_to_string (document);
  g_assert_nonnull (strstr (arranged, "\"layout\": \"axes\""));
  g_assert_nonnull (strstr (arranged, "\"labels\": \"v [V], i [A]\""));

  again = qd_document_load_data (arranged, strlen (arranged), "arranged.qdevs", &error);
  g_assert_no_error (error);
  scope = qd_document_find_block_by_path (again, "/Scope");
  a = qd_plot_arrangement_from_block (scope, names, 2, &error);
  g_assert_no_error (error);
  g_assert_cmpint (qd_plot_arrangement_get_kind (a), ==, QD_PLOT_LAYOUT_AXES);
  g_assert_cmpuint (qd_plot_arrangement_get_n_groups (a), ==, 2);
  g_assert_cmpstr (qd_plot_arrangement_get_axis_label (a, 1), ==, "i [A]");
  g_assert_cmpstr (qd_plot_arrangement_get_time_label (a), ==, "t [s]");
  {
    g_autofree char *twice = save_to_string (again);

    g_assert_cmpstr (twice, ==, arranged);
  }

  /* Check: a group that names no signal, named by the block's path. */
  g_assert_true (qd_document_set_param (again, scope, "groups", "v; current", &error));
  {
    g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
    gboolean found = FALSE;

    g_assert_false (qd_document_check (again, NULL, problems));
    for (guint i = 0; i < problems->len; i++)
      {
        const QdProblem *p = g_ptr_array_index (problems, i);

        if (g_strcmp0 (p->path, "/Scope") == 0
            && strstr (p->message, "'current' is neither a signal name nor an input "
                                   "number from 1 to 2") != NULL)
          found = TRUE;
      }
    g_assert_true (found);
  }

  /* Reset, the parameters leave the file: the same bytes as before. */
  for (guint i = 0; i < 4; i++)
    {
      const char *param[] = { "layout", "groups", "labels", "time_label" };

      g_assert_true (qd_document_set_param (again, scope, param[i], NULL, &error));
    }
  {
    g_autofree char *reset = save_to_string (again);

    g_assert_cmpstr (reset, ==, scope_model);
  }
}

/* qdevs-cli run --plot draws a Scope's subplots too: a stack of three
 * gets twice the height of one plot, and the time axis its label. */
static void
test_cli_subplots (void)
{
  g_autofree char *dir = g_dir_make_tmp ("qdevs-plot-XXXXXX", NULL);
  g_autofree char *model = g_build_filename (dir, "three.qdevs", NULL);
  g_autofree char *png = g_build_filename (dir, "three.png", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) document = NULL;
  g_auto(QdCliResult) r1 = { 0 }, r2 = { 0 };
  cairo_surface_t *image;
  QdBlock *scope;

  document = qd_document_load_data (scope_model, strlen (scope_model), "scope.qdevs", &error);
  g_assert_no_error (error);
  scope = qd_document_find_block_by_path (document, "/Scope");
  g_assert_true (qd_document_set_param (document, scope, "n", "3", &error));
  g_assert_true (qd_document_set_param (document, scope, "names", "v, i, w", &error));
  qd_test_connect (document, qd_document_find_block_by_path (document, "/Constant"), 0, scope, 2);
  g_assert_true (qd_document_save (document, model, &error));

  /* One axis: one plot's height. */
  qd_test_run_cli (&r1, NULL, "run", model, "--plot", png, NULL);
  g_assert_cmpstr (r1.err, ==, "");
  image = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_image_surface_get_height (image), ==, 36 + 360);
  cairo_surface_destroy (image);

  g_assert_true (qd_document_set_param (document, scope, "layout", "subplots", &error));
  g_assert_true (qd_document_set_param (document, scope, "time_label", "t [s]", &error));
  g_assert_true (qd_document_save (document, model, &error));
  qd_test_run_cli (&r2, NULL, "run", model, "--plot", png, NULL);
  g_assert_cmpstr (r2.err, ==, "");
  g_assert_cmpint (r2.status, ==, 0);
  image = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_image_surface_get_height (image), ==, 36 + 2 * 360);
  cairo_surface_destroy (image);

  g_unlink (png);
  g_unlink (model);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();
  g_test_add_func ("/plot/layout/end-labels-inside", test_end_labels_inside);
  g_test_add_func ("/plot/layout/y-label", test_y_label);
  g_test_add_func ("/plot/layout/place-box", test_place_box);
  g_test_add_func ("/plot/layout/legend-clear-of-data", test_legend_clear_of_data);
  g_test_add_func ("/plot/layout/arrangement-parse", test_arrangement_parse);
  g_test_add_func ("/plot/layout/subplots-geometry", test_subplots_geometry);
  g_test_add_func ("/plot/layout/y-axes", test_y_axes);
  g_test_add_func ("/plot/layout/zoom-indicator", test_zoom_indicator);
  g_test_add_func ("/plot/layout/scope-params", test_scope_params);
  g_test_add_func ("/plot/layout/cli-subplots", test_cli_subplots);
  return g_test_run ();
}

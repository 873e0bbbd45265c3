/* test-plot-layout.c: where the plot puts its labels and its legend
 *
 * Tick labels lie wholly on the output, the value axis has a label, and
 * the legend sits where it hides none of the curves: checked on the
 * layout the renderer reports, on the pixels it draws, and on points of
 * the traces computed from the data, not from the drawing. No display
 * needed.
 */
#include <math.h>
#include <string.h>

#include "qd-plot-place.h"
#include "qd-plot-render.h"
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
  return g_test_run ();
}

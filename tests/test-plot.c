/* test-plot.c: the plot's renderer, ticks, export and widget
 *
 * Render tests draw into an image surface with no axes, grid or legend,
 * a white background and pure colours, and read pixels back where the
 * analytic curve must pass. None of that needs a display; the cases that
 * create the widget are skipped without one (run under xvfb-run). The
 * 10-million segment case prints timings and asserts none. Decimation
 * is tested in test-plot-decimate.c.
 */
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "qd-plot.h"
#include "qd-plot-decimate.h"
#include "qd-plot-render.h"
#include "qd-test-gtk-util.h"
#include "qd-test-util.h"

static gboolean have_display;

static const QdPlotColor red = { 1.0, 0.0, 0.0, 1.0 };

/* Bare options: no axes, grid or legend, so the plot area is the whole
 * surface and nothing but the curves is drawn. */
static void
bare_options (QdPlotRenderOptions *o,
              QdPlotSeries        *series,
              guint                n_series)
{
  qd_plot_render_options_init (o);
  o->series = series;
  o->n_series = n_series;
  o->draw_axes = FALSE;
  o->draw_grid = FALSE;
  o->draw_legend = FALSE;
  o->line_width = 2.0;
}

static cairo_surface_t *
render (const QdPlotRenderOptions *o,
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

static gboolean
is_red (cairo_surface_t *surface,
        int              x,
        int              y)
{
  int w = cairo_image_surface_get_width (surface);
  int h = cairo_image_surface_get_height (surface);
  const guint8 *data = cairo_image_surface_get_data (surface);
  guint32 pixel;

  if (x < 0 || y < 0 || x >= w || y >= h)
    return FALSE;
  pixel = *(const guint32 *) (data + y * cairo_image_surface_get_stride (surface) + 4 * x);
  /* Anti-aliased red: strong red, green and blue well below it. */
  return ((pixel >> 16) & 0xff) > 200 && ((pixel >> 8) & 0xff) < 150 && (pixel & 0xff) < 150;
}

/* Red at (x, y) or one of its eight neighbours. */
static gboolean
red_near (cairo_surface_t *surface,
          double           x,
          double           y)
{
  int ix = (int) floor (x), iy = (int) floor (y);

  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++)
      if (is_red (surface, ix + dx, iy + dy))
        return TRUE;
  return FALSE;
}

/* x(t) = 1 + 2t - 3t^2 over [0, 1], then a constant 0 from t = 1. */
static double
parabola (double t)
{
  return 1.0 + 2.0 * t - 3.0 * t * t;
}

#define W 400
#define H 300

static void
pixel_of (const QdPlotRenderOptions *o,
          double                     t,
          double                     v,
          double                    *px,
          double                    *py)
{
  *px = (t - o->x_min) / (o->x_max - o->x_min) * W;
  *py = H - (v - o->y_min) / (o->y_max - o->y_min) * H;
}

static QdTrace *
parabola_trace (guint n_pieces)
{
  QdTrace *trace = qd_trace_new ("x");
  QdSignal s = { 0.0, { 1.0, 2.0, -3.0, 0.0 }, 2, 0 };
  QdSignal tail;

  /* The same parabola, re-expanded at n_pieces event times: a QSS2 state
   * between quantum crossings. */
  for (guint i = 0; i < n_pieces; i++)
    {
      QdSignal piece;

      qd_signal_advance (&s, (double) i / n_pieces, &piece);
      qd_trace_append (trace, &piece);
    }
  qd_signal_set_constant (&tail, 1.0, 0.0);
  qd_trace_append (trace, &tail);
  qd_trace_close (trace, 1.2);
  return trace;
}

static void
check_parabola_drawn (guint n_pieces)
{
  g_autoptr(QdTrace) trace = parabola_trace (n_pieces);
  QdPlotSeries series = { trace, "x", red, TRUE, FALSE, NULL };
  QdPlotRenderOptions o;
  cairo_surface_t *surface;
  const double ts[] = { 0.05, 0.1, 0.2, 1.0 / 3.0, 0.45, 0.5, 0.6, 0.7, 0.8, 0.9, 0.97 };

  bare_options (&o, &series, 1);
  o.x_min = 0.0;
  o.x_max = 1.2;
  o.y_min = -0.5;
  o.y_max = 1.5;

  surface = render (&o, W, H);
  for (guint i = 0; i < G_N_ELEMENTS (ts); i++)
    {
      double px, py;

      pixel_of (&o, ts[i], parabola (ts[i]), &px, &py);
      if (!red_near (surface, px, py))
        g_error ("exact mode, %u pieces: no curve at t = %g (pixel %.1f, %.1f)",
                 n_pieces, ts[i], px, py);
    }
  /* The top of the parabola is 4/3 at t = 1/3: nothing above it. */
  {
    double px, py;

    pixel_of (&o, 1.0 / 3.0, 4.0 / 3.0 + 0.05, &px, &py);
    g_assert_false (red_near (surface, px, py - 2.0));
  }
  /* The constant piece after the jump at t = 1. */
  {
    double px, py;

    pixel_of (&o, 1.1, 0.0, &px, &py);
    g_assert_true (red_near (surface, px, py));
  }
  cairo_surface_destroy (surface);

  /* Straight lines between events cut the chord: with one piece, the
   * curve's points are missed and the chord's midpoint is drawn. */
  if (n_pieces == 1)
    {
      o.mode = QD_PLOT_MODE_LINES;
      surface = render (&o, W, H);
      for (guint i = 0; i < G_N_ELEMENTS (ts); i++)
        {
          double px, py;

          if (ts[i] < 0.15 || ts[i] > 0.85)
            continue;
          pixel_of (&o, ts[i], parabola (ts[i]), &px, &py);
          g_assert_false (red_near (surface, px, py));
          /* The chord from (0, 1) to (1, 0). */
          pixel_of (&o, ts[i], 1.0 - ts[i], &px, &py);
          g_assert_true (red_near (surface, px, py));
        }
      cairo_surface_destroy (surface);

      /* Steps hold the first value, 1, until t = 1. */
      o.mode = QD_PLOT_MODE_STEPS;
      surface = render (&o, W, H);
      {
        double px, py;

        pixel_of (&o, 0.5, 1.0, &px, &py);
        g_assert_true (red_near (surface, px, py));
        pixel_of (&o, 0.5, parabola (0.5), &px, &py);
        g_assert_false (red_near (surface, px, py));
      }
      cairo_surface_destroy (surface);
    }
}

/* The cursor's dot marks each trace's value at its time, inside the plot
 * area only: a value below the view has its row in the readout, and no
 * dot among the time axis's labels. */
static void
test_render_cursor_in_view (void)
{
  g_autoptr(QdTrace) trace = qd_trace_new ("x");
  QdPlotSeries series = { trace, "x", red, TRUE, FALSE, NULL };
  QdPlotRenderOptions o;
  QdPlotRect area;
  cairo_surface_t *surface;
  QdSignal s;
  guint red_outside = 0;

  /* Just below the view of 0 to 1: it would map among the labels. */
  qd_signal_set_constant (&s, 0.0, -0.08);
  qd_trace_append (trace, &s);
  qd_trace_close (trace, 1.0);
  bare_options (&o, &series, 1);
  o.draw_axes = TRUE;
  o.x_min = 0.0;
  o.x_max = 1.0;
  o.has_cursor = TRUE;
  qd_plot_render_get_area (&o, W, H, &area);
  o.cursor_x = area.x + 0.5 * area.width;

  /* Below the view: no dot anywhere, and none under the area. */
  o.y_min = 0.0;
  o.y_max = 1.0;
  surface = render (&o, W, H);
  for (int y = 0; y < H; y++)
    for (int x = (int) o.cursor_x - 6; x <= (int) o.cursor_x + 6; x++)
      red_outside += is_red (surface, x, y);
  g_assert_cmpuint (red_outside, ==, 0);
  cairo_surface_destroy (surface);

  /* In the view: the dot is there, on the value, three pixels above the
   * line's middle where the line (2 pixels wide) is not. */
  o.y_min = -1.0;
  o.y_max = 1.0;
  surface = render (&o, W, H);
  {
    double py = area.y + (o.y_max - (-0.08)) / (o.y_max - o.y_min) * area.height;

    g_assert_true (is_red (surface, (int) o.cursor_x, (int) floor (py - 3.0)));
    g_assert_false (is_red (surface, (int) o.cursor_x - 40, (int) floor (py - 3.0)));
  }
  cairo_surface_destroy (surface);
}

static void
test_render_parabola (void)
{
  check_parabola_drawn (1);
}

static void
test_render_parabola_decimated (void)
{
  /* 20000 pieces in 400 columns: drawn from the per-column extremes. */
  check_parabola_drawn (20000);
}

static void
check_ticks (double        lo,
             double        hi,
             guint         max_ticks,
             double        step,
             const double *expected,
             guint         n_expected)
{
  double ticks[64], got_step;
  guint n = qd_plot_nice_ticks (lo, hi, max_ticks, ticks, &got_step);

  g_assert_cmpfloat_with_epsilon (got_step, step, step * 1e-12);
  g_assert_cmpuint (n, ==, n_expected);
  for (guint i = 0; i < n; i++)
    g_assert_cmpfloat_with_epsilon (ticks[i], expected[i], step * 1e-9);
}

static void
check_label (double      value,
             double      step,
             const char *expected)
{
  g_autofree char *text = qd_plot_format_tick (value, step, 0.0);

  g_assert_cmpstr (text, ==, expected);
}

static void
test_nice_ticks (void)
{
  check_ticks (0.0, 1.0, 6, 0.2, (double[]) { 0, 0.2, 0.4, 0.6, 0.8, 1.0 }, 6);
  check_ticks (0.0, 10.0, 5, 5.0, (double[]) { 0, 5, 10 }, 3);
  check_ticks (-3.7, 12.2, 8, 2.0, (double[]) { -2, 0, 2, 4, 6, 8, 10, 12 }, 8);
  check_ticks (1.05e-9, 5.2e-9, 5, 1e-9, (double[]) { 2e-9, 3e-9, 4e-9, 5e-9 }, 4);
  check_ticks (-0.013, 0.0, 4, 0.005, (double[]) { -0.01, -0.005, 0 }, 3);
  g_assert_cmpfloat (qd_plot_nice_ceil (0.3), ==, 0.5);
  g_assert_cmpfloat (qd_plot_nice_ceil (2.0), ==, 2.0);
  g_assert_cmpfloat (qd_plot_nice_ceil (7.1), ==, 10.0);

  check_label (0.0, 0.2, "0");
  check_label (0.3, 0.1, "0.3");
  check_label (0.25, 0.05, "0.25");
  check_label (-3.0, 1.0, "-3");
  check_label (1500.0, 500.0, "1500");
  check_label (3.2e-9, 1e-10, "3.2e-9");
  check_label (150e6, 50e6, "150e6");
  check_label (2e-4, 1e-4, "200e-6");

  /* The cursor's readout in the same notation, six digits. */
  {
    const struct { double v; const char *text; } values[] = {
      { 0.0, "0" }, { 0.5, "0.5" }, { -1.14307, "-1.14307" },
      { 1.0808333e-9, "1.08083e-9" }, { 2.5e-5, "25e-6" },
      { 1234567.0, "1.23457e6" }, { 999999.99e3, "1e9" },
      { 0.000999, "999e-6" }, { 999999.9, "1e6" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (values); i++)
      {
        g_autofree char *text = qd_plot_format_value (values[i].v);

        g_assert_cmpstr (text, ==, values[i].text);
      }
  }

  /* One axis, one notation: the exponent of its largest tick. The
   * transmission line's time axis read "500e-12, 1.0e-9, 1.5e-9". */
  {
    const double ticks[] = { 0.0, 5e-10, 1e-9, 1.5e-9, 2e-9 };
    const char *const labels[] = { "0", "0.5e-9", "1.0e-9", "1.5e-9", "2.0e-9" };

    for (guint i = 0; i < G_N_ELEMENTS (ticks); i++)
      {
        g_autofree char *text = qd_plot_format_tick (ticks[i], 5e-10, 2e-9);

        g_assert_cmpstr (text, ==, labels[i]);
      }
  }
}

/* cos and sin as cubic Taylor segments every 0.05: a QSS3-like pair. */
static QdTrace *
circle_trace (gboolean sine)
{
  QdTrace *trace = qd_trace_new (sine ? "sin" : "cos");
  double h = 0.05, stop = 2.0 * G_PI;
  double t = 0.0;

  for (guint i = 0; t < stop; i++, t = i * h)
    {
      double c = cos (t), s = sin (t);
      QdSignal seg = { t, { c, -s, -c / 2.0, s / 6.0 }, 3, 0 };

      if (sine)
        {
          seg.c[0] = s;
          seg.c[1] = c;
          seg.c[2] = -s / 2.0;
          seg.c[3] = -c / 6.0;
        }
      qd_trace_append (trace, &seg);
    }
  qd_trace_close (trace, stop);
  return trace;
}

static void
test_render_xy_circle (void)
{
  g_autoptr(QdTrace) tc = circle_trace (FALSE);
  g_autoptr(QdTrace) ts = circle_trace (TRUE);
  QdPlotSeries series[2] = {
    { tc, "cos", red, TRUE, FALSE, NULL },
    { ts, "sin", red, TRUE, FALSE, NULL },
  };
  QdPlotRenderOptions o;
  cairo_surface_t *surface;
  guint n_red = 0, n_off = 0;
  double x0, x1, y0, y1;

  bare_options (&o, series, 2);
  o.xy = TRUE;
  o.xy_x = 0;
  o.xy_y = 1;
  /* The extents in XY mode are the traces' value ranges. */
  g_assert_true (qd_plot_render_get_x_extent (&o, &x0, &x1));
  g_assert_true (qd_plot_render_get_y_extent (&o, W, &y0, &y1));
  g_assert_cmpfloat_with_epsilon (x0, -1.0, 1e-4);
  g_assert_cmpfloat_with_epsilon (x1, 1.0, 1e-4);
  g_assert_cmpfloat_with_epsilon (y0, -1.0, 1e-4);
  g_assert_cmpfloat_with_epsilon (y1, 1.0, 1e-4);

  o.x_min = o.y_min = -1.25;
  o.x_max = o.y_max = 1.25;
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, H, H);
  {
    cairo_t *cr = cairo_create (surface);

    qd_plot_render (cr, &o, H, H);
    cairo_destroy (cr);
    cairo_surface_flush (surface);
  }

  for (int deg = 0; deg < 360; deg += 15)
    {
      double a = deg * G_PI / 180.0;
      double px = (cos (a) + 1.25) / 2.5 * H, py = H - (sin (a) + 1.25) / 2.5 * H;

      if (!red_near (surface, px, py))
        g_error ("XY mode: no curve at %d degrees (pixel %.1f, %.1f)", deg, px, py);
    }
  /* Every drawn pixel lies on the unit circle, within the line width. */
  for (int y = 0; y < H; y++)
    for (int x = 0; x < H; x++)
      if (is_red (surface, x, y))
        {
          double dx = (x + 0.5) / H * 2.5 - 1.25, dy = 1.25 - (y + 0.5) / H * 2.5;
          double r_px = fabs (hypot (dx, dy) - 1.0) * H / 2.5;

          n_red++;
          if (r_px > 2.0)
            n_off++;
        }
  g_assert_cmpuint (n_off, ==, 0);
  /* About the circumference in pixels (2 pi 120 = 754) times the width. */
  g_assert_cmpuint (n_red, >, 700);
  cairo_surface_destroy (surface);
}

static void
test_legend_hit (void)
{
  g_autoptr(QdTrace) a = parabola_trace (2);
  g_autoptr(QdTrace) b = parabola_trace (3);
  g_autoptr(QdTrace) c = parabola_trace (4);
  QdPlotSeries series[3] = {
    { a, "first", red, TRUE, TRUE, NULL },
    { b, "second", red, FALSE, FALSE, NULL },
    { c, "third", red, TRUE, FALSE, NULL },
  };
  QdPlotRenderOptions o;
  QdPlotLayout l;
  QdPlotRect area;
  double right, top;

  qd_plot_render_options_init (&o);
  o.series = series;
  o.n_series = 3;
  qd_plot_render_get_area (&o, 500, 300, &area);
  /* The legend sits where the layout puts it (8 px inside the area,
   * clear of the curves), rows of 17 px after 6 px of padding; hidden
   * and earlier traces keep their rows (a click shows them again). */
  qd_plot_render_get_layout (&o, 500, 300, &l);
  g_assert_cmpuint (l.n_legend_rows, ==, 3);
  g_assert_cmpfloat (l.legend.y, >=, area.y + 8.0);
  right = l.legend.x + l.legend.width - 4.0;
  top = l.legend.y + 6.0;
  for (int r = 0; r < 3; r++)
    g_assert_cmpint (qd_plot_render_legend_hit (&o, 500, 300, right, top + 17.0 * r + 8.0), ==, r);
  g_assert_cmpint (qd_plot_render_legend_hit (&o, 500, 300, right, top + 17.0 * 3 + 8.0), ==, -1);
  g_assert_cmpint (qd_plot_render_legend_hit (&o, 500, 300, l.legend.x - 2.0, top + 8.0), ==, -1);
  o.draw_legend = FALSE;
  g_assert_cmpint (qd_plot_render_legend_hit (&o, 500, 300, right, top + 8.0), ==, -1);
}

static char *
read_file (const char *path,
           gsize      *length)
{
  char *contents = NULL;
  g_autoptr(GError) error = NULL;

  g_file_get_contents (path, &contents, length, &error);
  g_assert_no_error (error);
  return contents;
}

static void
test_export_files (void)
{
  g_autoptr(QdTrace) trace = parabola_trace (3);
  QdPlotSeries series = { trace, "x", red, TRUE, FALSE, NULL };
  QdPlotRenderOptions o;
  g_autofree char *dir = g_dir_make_tmp ("qd-plot-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "plot.png", NULL);
  g_autofree char *svg = g_build_filename (dir, "plot.svg", NULL);
  g_autofree char *pdf = g_build_filename (dir, "plot.pdf", NULL);
  g_autofree char *bad = g_build_filename (dir, "missing", "plot.png", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL;
  gsize len;

  qd_plot_render_options_init (&o);
  o.series = &series;
  o.n_series = 1;
  o.x_max = 1.2;
  o.y_min = -0.5;
  o.y_max = 1.5;

  g_assert_true (qd_plot_render_to_file (&o, png, QD_IMAGE_FORMAT_PNG, 320, 200, &error));
  g_assert_no_error (error);
  data = read_file (png, &len);
  g_assert_cmpuint (len, >, 8);
  g_assert_cmpmem (data, 8, "\x89PNG\r\n\x1a\n", 8);
  {
    cairo_surface_t *back = cairo_image_surface_create_from_png (png);

    g_assert_cmpint (cairo_image_surface_get_width (back), ==, 320);
    g_assert_cmpint (cairo_image_surface_get_height (back), ==, 200);
    cairo_surface_destroy (back);
  }
  g_clear_pointer (&data, g_free);

  g_assert_true (qd_plot_render_to_file (&o, svg, QD_IMAGE_FORMAT_SVG, 320, 200, &error));
  g_assert_no_error (error);
  data = read_file (svg, &len);
  g_assert_true (g_str_has_prefix (data, "<?xml"));
  g_assert_nonnull (strstr (data, "<svg"));
  g_assert_nonnull (strstr (data, "</svg>"));
  g_clear_pointer (&data, g_free);

  g_assert_true (qd_plot_render_to_file (&o, pdf, QD_IMAGE_FORMAT_PDF, 320, 200, &error));
  g_assert_no_error (error);
  data = read_file (pdf, &len);
  g_assert_true (g_str_has_prefix (data, "%PDF-"));
  /* The trailer: "%%EOF" and a newline at the very end. */
  g_assert_cmpuint (len, >, 16);
  g_assert_cmpmem (data + len - 6, 5, "%%EOF", 5);
  g_clear_pointer (&data, g_free);

  /* A folder that does not exist: the error says where and what to do. */
  g_assert_false (qd_plot_render_to_file (&o, bad, QD_IMAGE_FORMAT_PNG, 10, 10, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_IO);
  g_assert_true (g_str_has_prefix (error->message, bad));
  g_assert_nonnull (strstr (error->message, "check that the folder exists"));

  g_unlink (png);
  g_unlink (svg);
  g_unlink (pdf);
  g_rmdir (dir);
}

/* The widget (needs a display). */

static void
test_widget_runs_and_csv (void)
{
  g_autoptr(QdTrace) x1 = parabola_trace (4);
  g_autoptr(QdTrace) x2 = circle_trace (TRUE);
  g_autoptr(QdTrace) x1b = parabola_trace (8);
  g_autofree char *dir = NULL, *ours = NULL, *ref = NULL, *png = NULL;
  g_autofree char *a = NULL, *b = NULL;
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  QdPlot *plot;
  gsize la, lb;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  plot = QD_PLOT (g_object_ref_sink (qd_plot_new ()));
  g_assert_true (qd_plot_get_autoscale (plot));
  g_assert_cmpuint (qd_plot_add_trace (plot, x1, "x1", NULL), ==, 0);
  g_assert_cmpuint (qd_plot_add_trace (plot, x2, "x2", NULL), ==, 1);
  g_assert_cmpuint (qd_plot_get_n_traces (plot), ==, 2);

  dir = g_dir_make_tmp ("qd-plot-XXXXXX", NULL);
  ours = g_build_filename (dir, "plot.csv", NULL);
  ref = g_build_filename (dir, "ref.csv", NULL);
  png = g_build_filename (dir, "plot.png", NULL);

  /* CSV through qd_traces_write_csv over the traces' whole span. */
  g_assert_true (qd_plot_export_csv (plot, ours, 0.0, &error));
  g_assert_no_error (error);
  g_ptr_array_add (traces, x1);
  g_ptr_array_add (traces, x2);
  g_assert_true (qd_traces_write_csv (traces, 0.0, 2.0 * G_PI, 0.0, ref, &error));
  g_assert_no_error (error);
  a = read_file (ours, &la);
  b = read_file (ref, &lb);
  g_assert_cmpstr (a, ==, b);

  /* A hidden trace is left out of the CSV. */
  qd_plot_set_trace_visible (plot, 1, FALSE);
  g_assert_false (qd_plot_get_trace_visible (plot, 1));
  g_assert_true (qd_plot_export_csv (plot, ours, 0.1, &error));
  g_clear_pointer (&a, g_free);
  a = read_file (ours, &la);
  g_assert_true (g_str_has_prefix (a, "time,x\n"));
  qd_plot_set_trace_visible (plot, 1, TRUE);

  g_assert_true (qd_plot_export (plot, png, QD_IMAGE_FORMAT_PNG, 300, 200, &error));
  g_assert_no_error (error);
  {
    /* Fitted to the data even though the widget was never shown: both
     * traces end at 2 pi; the values reach beyond -1 and 4/3. */
    double v_x0, v_x1, v_y0, v_y1;

    qd_plot_get_view (plot, &v_x0, &v_x1, &v_y0, &v_y1);
    g_assert_cmpfloat (v_x0, ==, 0.0);
    g_assert_cmpfloat_with_epsilon (v_x1, 2.0 * G_PI, 1e-12);
    g_assert_cmpfloat (v_y0, <, -1.0);
    g_assert_cmpfloat (v_y1, >, 4.0 / 3.0);
  }

  /* A new run keeps the old traces, lighter, and the same label keeps
   * its colour. */
  qd_plot_begin_run (plot);
  g_assert_cmpuint (qd_plot_get_n_traces (plot), ==, 0);
  g_assert_cmpuint (qd_plot_get_n_earlier_runs (plot), ==, 1);
  qd_plot_add_trace (plot, x1b, "x1", NULL);
  qd_plot_begin_run (plot);
  g_assert_cmpuint (qd_plot_get_n_earlier_runs (plot), ==, 2);
  qd_plot_clear_runs (plot);
  g_assert_cmpuint (qd_plot_get_n_earlier_runs (plot), ==, 0);

  /* With nothing shown there is nothing to export. */
  g_assert_false (qd_plot_export_csv (plot, ours, 0.0, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_INVALID);
  g_assert_true (g_str_has_prefix (error->message, ours));

  /* An explicit view turns autoscale off; reset turns it back on. */
  qd_plot_set_view (plot, 0, 2, -1, 1);
  g_assert_false (qd_plot_get_autoscale (plot));
  qd_plot_reset_view (plot);
  g_assert_true (qd_plot_get_autoscale (plot));

  g_object_unref (plot);
  g_unlink (ours);
  g_unlink (ref);
  g_unlink (png);
  g_rmdir (dir);
}


static void
append_sine (QdTrace *trace,
             double   from,
             double   to)
{
  for (double t = from; t < to - 1e-12; t += 0.01)
    {
      QdSignal s = { t, { sin (3.0 * t), 3.0 * cos (3.0 * t), -4.5 * sin (3.0 * t), 0 }, 2, 0 };

      qd_trace_append (trace, &s);
    }
}

static void
test_widget_autoscale_live (void)
{
  g_autoptr(QdTrace) trace = qd_trace_new ("s");
  g_autoptr(QdTrace) other = qd_trace_new ("o");
  GtkWidget *window;
  QdPlot *plot;
  double x0, x1, y0, y1;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 600, 400);
  plot = QD_PLOT (qd_plot_new ());
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (plot));
  gtk_window_present (GTK_WINDOW (window));
  qd_plot_add_trace (plot, trace, "s", NULL);
  qd_plot_add_trace (plot, other, "o", NULL);
  for (guint i = 0; i < 100 && gtk_widget_get_width (GTK_WIDGET (plot)) <= 0; i++)
    qd_test_run_frames (20);
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (plot)), >, 0);

  /* A run in progress: the time axis is the span rounded up to a nice
   * number, the value axis the exact range plus a margin. */
  append_sine (trace, 0.0, 0.7);
  qd_test_run_frames (150);
  qd_plot_get_view (plot, &x0, &x1, &y0, &y1);
  g_assert_cmpfloat (x0, ==, 0.0);
  g_assert_cmpfloat (x1, ==, 1.0);
  g_assert_cmpfloat (y0, <, -0.0);
  g_assert_cmpfloat (y1, >, 1.0);
  g_assert_cmpfloat (y1, <, 1.15);

  append_sine (trace, 0.7, 1.5);
  qd_test_run_frames (150);
  qd_plot_get_view (plot, &x0, &x1, NULL, NULL);
  g_assert_cmpfloat (x1, ==, 2.0);

  /* Finished: the axis fits the run exactly. */
  qd_trace_close (trace, 1.5);
  qd_trace_close (other, 1.5);
  qd_test_run_frames (150);
  qd_plot_get_view (plot, &x0, &x1, &y0, &y1);
  g_assert_cmpfloat (x1, ==, 1.5);
  /* sin (3t) over [0, 1.5]: from sin (4.5) up to 1 (the parabola
   * pieces match it to 1e-6), with 5 % on each side. */
  {
    double lo = sin (4.5), hi = 1.0, pad = 0.05 * (hi - lo);

    g_assert_cmpfloat_with_epsilon (y0, lo - pad, 1e-5);
    g_assert_cmpfloat_with_epsilon (y1, hi + pad, 1e-5);
  }

  /* Hidden traces do not count; a chosen view stays put. */
  qd_plot_set_trace_visible (plot, 0, FALSE);
  qd_plot_set_view (plot, 0.2, 0.4, -2.0, 2.0);
  qd_test_run_frames (100);
  qd_plot_get_view (plot, &x0, &x1, &y0, &y1);
  g_assert_cmpfloat (x0, ==, 0.2);
  g_assert_cmpfloat (x1, ==, 0.4);
  g_assert_false (qd_plot_get_autoscale (plot));

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Ten million segments: prints figures, asserts no time. */

#define BIG_N  10000000
#define FRAMES 60

static double
elapsed_ms (gint64 start)
{
  return (g_get_monotonic_time () - start) / 1000.0;
}

static void
test_big_trace (void)
{
  g_autoptr(QdTrace) trace = qd_trace_new ("big");
  QdPlotColumns *cols = qd_plot_columns_new ();
  QdPlotSeries series = { trace, "big", red, TRUE, FALSE, cols };
  QdPlotRenderOptions o;
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 1000, 600);
  cairo_t *cr = cairo_create (surface);
  const double h = 1e-6, w = 2.0 * G_PI / 2.5;
  const gsize burst = BIG_N / FRAMES;
  double scratch_ms, cached_ms, zoom_ms, frame_ms = 0.0, worst_frame_ms = 0.0;
  guint frames = 0;
  gsize n_zoom;
  gint64 start;

  bare_options (&o, &series, 1);
  o.draw_axes = TRUE;
  o.draw_grid = TRUE;
  o.x_min = 0.0;
  o.x_max = BIG_N * h;
  o.y_min = -1.2;
  o.y_max = 1.2;

  /* A live run: a QSS2-like state (parabola pieces of a sine, a spike
   * every 1024 segments) appended in FRAMES bursts, a full redraw of the
   * fixed view after each, as the widget's frame clock would. */
  for (gsize done = 0; done < BIG_N; done += burst)
    {
      double ms;

      for (gsize i = done; i < MIN (done + burst, (gsize) BIG_N); i++)
        {
          double t = i * h;
          QdSignal s = { t, { sin (w * t), w * cos (w * t), -0.5 * w * w * sin (w * t), 0 }, 2, 0 };

          if ((i & 1023) == 0)
            s.c[0] += 0.1;
          qd_trace_append (trace, &s);
        }
      o.t_end = qd_trace_get (trace, qd_trace_get_length (trace) - 1)->t;
      start = g_get_monotonic_time ();
      qd_plot_render (cr, &o, 1000, 600);
      ms = elapsed_ms (start);
      frame_ms += ms;
      worst_frame_ms = MAX (worst_frame_ms, ms);
      frames++;
    }
  qd_trace_close (trace, BIG_N * h);
  g_assert_cmpuint (qd_trace_get_length (trace), ==, BIG_N);

  /* From scratch (a zoom or a resize), then from the cache. */
  qd_plot_columns_reset (cols);
  start = g_get_monotonic_time ();
  qd_plot_render (cr, &o, 1000, 600);
  scratch_ms = elapsed_ms (start);
  g_assert_cmpuint (qd_plot_columns_get_n_read (cols), ==, BIG_N);
  start = g_get_monotonic_time ();
  for (int r = 0; r < 10; r++)
    qd_plot_render (cr, &o, 1000, 600);
  cached_ms = elapsed_ms (start) / 10.0;
  /* A redraw with nothing new reads only the open last segment. */
  g_assert_cmpuint (qd_plot_columns_get_n_read (cols), ==, 1);

  /* A zoom to the middle half: the summaries built by the first draw
   * stand for all but the segments at column boundaries. */
  o.x_min = 0.25 * BIG_N * h;
  o.x_max = 0.75 * BIG_N * h;
  start = g_get_monotonic_time ();
  qd_plot_render (cr, &o, 1000, 600);
  zoom_ms = elapsed_ms (start);
  n_zoom = qd_plot_columns_get_n_read (cols);
  g_assert_cmpuint (n_zoom, <, BIG_N / 10);

  g_test_message ("10 M segments, 1000x600: first draw %.1f ms, redraw from the cache %.2f ms",
                  scratch_ms, cached_ms);
  g_test_message ("zoom to half of it: %.1f ms, %" G_GSIZE_FORMAT " segments read again",
                  zoom_ms, n_zoom);
  g_test_message ("live: %u frames of %" G_GSIZE_FORMAT " new segments: %.1f ms per frame on average, worst %.1f ms",
                  frames, burst, frame_ms / frames, worst_frame_ms);

  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  qd_plot_columns_free (cols);
}

/* The column caches alone, as a live plot feeds them: QSS2- and
 * QSS3-like segments (parabolas and cubics of a sine, a few thousand per
 * pixel column) appended in bursts, the columns of a fixed view brought
 * up to date after each. Prints the time per segment read; under
 * callgrind, the instructions of qd_plot_columns_update() over
 * LIVE_COLUMNS_N are the instructions per segment. */

#define LIVE_COLUMNS_N     2000000
#define LIVE_COLUMNS_BURST 20000

static void
test_live_columns (void)
{
  const double h = 1e-5, w = 2.0 * G_PI / 7.0;
  double ms[2];

  for (int order = 2; order <= 3; order++)
    {
      g_autoptr(QdTrace) trace = qd_trace_new ("live");
      QdPlotColumns *cols = qd_plot_columns_new ();
      gsize n_read = 0;
      gint64 spent = 0;

      for (gsize done = 0; done < LIVE_COLUMNS_N; done += LIVE_COLUMNS_BURST)
        {
          gint64 start;

          for (gsize i = done; i < done + LIVE_COLUMNS_BURST; i++)
            {
              double t = i * h;
              QdSignal s = { t, { sin (w * t), w * cos (w * t),
                                  -0.5 * w * w * sin (w * t), 0.0 }, order, 0 };

              if (order == 3)
                s.c[3] = -w * w * w * cos (w * t) / 6.0;
              qd_trace_append (trace, &s);
            }
          start = g_get_monotonic_time ();
          qd_plot_columns_update (cols, trace, QD_PLOT_MODE_EXACT, 0.0,
                                  LIVE_COLUMNS_N * h, 1000,
                                  (done + LIVE_COLUMNS_BURST) * h);
          spent += g_get_monotonic_time () - start;
          n_read += qd_plot_columns_get_n_read (cols);
        }
      /* Every final segment read once, and the open last one once a frame. */
      g_assert_cmpuint (n_read, ==, LIVE_COLUMNS_N - 1 + LIVE_COLUMNS_N / LIVE_COLUMNS_BURST);
      ms[order - 2] = spent / 1000.0;
      qd_plot_columns_free (cols);
    }
  g_test_message ("live columns, %d segments in bursts of %d, 1000 columns: "
                  "%.1f ns per QSS2 segment, %.1f ns per QSS3 segment",
                  LIVE_COLUMNS_N, LIVE_COLUMNS_BURST,
                  ms[0] * 1e6 / LIVE_COLUMNS_N, ms[1] * 1e6 / LIVE_COLUMNS_N);
}

/* Counts the pixels of @a and @b that differ by more than a little in a
 * channel (anti-aliasing may round differently) and have no equal pixel
 * one step away in @b: the two drawings must agree to within a pixel. */
static guint
count_pixel_differences (cairo_surface_t *a,
                         cairo_surface_t *b)
{
  int w = cairo_image_surface_get_width (a), h = cairo_image_surface_get_height (a);
  int sa = cairo_image_surface_get_stride (a), sb = cairo_image_surface_get_stride (b);
  const guint8 *da = cairo_image_surface_get_data (a);
  const guint8 *db = cairo_image_surface_get_data (b);
  guint n = 0;

  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        guint32 pa = *(const guint32 *) (da + y * sa + 4 * x);
        gboolean near = FALSE;

        for (int dy = -1; dy <= 1 && !near; dy++)
          for (int dx = -1; dx <= 1 && !near; dx++)
            {
              guint32 pb;

              if (x + dx < 0 || y + dy < 0 || x + dx >= w || y + dy >= h)
                continue;
              pb = *(const guint32 *) (db + (y + dy) * sb + 4 * (x + dx));
              near = TRUE;
              for (int c = 0; c < 24 && near; c += 8)
                if (abs ((int) ((pa >> c) & 0xff) - (int) ((pb >> c) & 0xff)) > 24)
                  near = FALSE;
            }
        n += !near;
      }
  return n;
}

/* Appends @n segments from @t on, alternating between @a and @b as a
 * QSS2 pair does (parabolas on @a, lines on @b), events at random steps
 * of up to @max_step, some at the same time. Returns the time after. */
static double
append_qss2_pair (QdTrace *a,
                  QdTrace *b,
                  guint    n,
                  double   t,
                  double   max_step)
{
  for (guint i = 0; i < n; i++)
    {
      QdSignal s = { t, { 0, 0, 0, 0 }, 2, 0 };

      if (i % 2 == 0)
        {
          s.c[0] = sin (t);
          s.c[1] = cos (t);
          s.c[2] = -0.5 * sin (t);
          qd_trace_append (a, &s);
        }
      else
        {
          s.c[0] = 2 * cos (0.3 * t);
          s.c[1] = -0.6 * sin (0.3 * t);
          qd_trace_append (b, &s);
        }
      t += g_test_rand_double_range (0.0, max_step);
    }
  return t;
}

/* A live run as the widget draws it: two traces grow in bursts, each
 * frame draws through the series' column caches with the open last
 * segments ending at the latest event, in a fixed view (as autoscale
 * keeps it between its 1-2-5 steps). After every frame the picture must
 * be the one a from-scratch drawing of the same data gives. */
static void
test_render_incremental (void)
{
  guint frames = 0;

  for (int mode = QD_PLOT_MODE_EXACT; mode <= QD_PLOT_MODE_STEPS; mode++)
    {
      g_autoptr(QdTrace) a = qd_trace_new ("a");
      g_autoptr(QdTrace) b = qd_trace_new ("b");
      QdPlotSeries live[2] = {
        { a, "a", red, TRUE, FALSE, qd_plot_columns_new () },
        { b, "b", { 0.0, 0.0, 1.0, 1.0 }, TRUE, FALSE, qd_plot_columns_new () },
      };
      QdPlotSeries fresh[2] = { live[0], live[1] };
      QdPlotRenderOptions o, f;
      double t = 0.0;

      fresh[0].columns = fresh[1].columns = NULL;
      bare_options (&o, live, 2);
      bare_options (&f, fresh, 2);
      o.mode = f.mode = (QdPlotMode) mode;
      o.x_min = f.x_min = 0.0;
      o.x_max = f.x_max = 200.0;
      o.y_min = f.y_min = -3.0;
      o.y_max = f.y_max = 3.0;
      for (guint burst = 0; burst < 60; burst++)
        {
          cairo_surface_t *sl, *sf;
          guint n = (guint) g_test_rand_int_range (1, 1500);

          t = append_qss2_pair (a, b, n, t, 0.01);
          /* The latest event: where both open segments are drawn to. */
          o.t_end = f.t_end = t;
          sl = render (&o, W, H);
          sf = render (&f, W, H);
          g_assert_cmpuint (count_pixel_differences (sl, sf), ==, 0);
          g_assert_cmpuint (count_pixel_differences (sf, sl), ==, 0);
          cairo_surface_destroy (sl);
          cairo_surface_destroy (sf);
          frames++;
        }
      qd_plot_columns_free (live[0].columns);
      qd_plot_columns_free (live[1].columns);
    }
  g_assert_cmpuint (frames, ==, 180);
}

/* The widget during a live run: traces grow between frames, the view
 * follows them (autoscale), and each frame draws through the column
 * caches. What it shows must be what a fresh drawing of the same data
 * (the export, which starts from scratch) shows. */
static void
test_widget_live_equals_fresh (void)
{
  g_autoptr(QdTrace) a = qd_trace_new ("a");
  g_autoptr(QdTrace) b = qd_trace_new ("b");
  g_autofree char *dir = g_dir_make_tmp ("qd-plot-XXXXXX", NULL);
  g_autofree char *png = g_build_filename (dir, "fresh.png", NULL);
  g_autoptr(GError) error = NULL;
  GdkPaintable *paintable;
  GtkSnapshot *snapshot;
  GskRenderNode *node;
  cairo_surface_t *shown, *fresh;
  cairo_t *cr;
  GtkWidget *window;
  QdPlot *plot;
  double t = 0.0;
  int w, h;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 600, 400);
  plot = QD_PLOT (qd_plot_new ());
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (plot));
  gtk_window_present (GTK_WINDOW (window));
  qd_plot_add_trace (plot, a, "a", NULL);
  qd_plot_add_trace (plot, b, "b", NULL);
  qd_plot_set_time_range_hint (plot, 0.0, 60.0);
  for (guint i = 0; i < 100 && gtk_widget_get_width (GTK_WIDGET (plot)) <= 0; i++)
    qd_test_run_frames (20);

  for (guint burst = 0; burst < 40; burst++)
    {
      guint n = (guint) g_test_rand_int_range (1, 3000);

      t = append_qss2_pair (a, b, n, t, 0.001);
      qd_test_run_frames (g_test_rand_int_range (5, 60));
    }
  qd_test_run_frames (150);

  w = gtk_widget_get_width (GTK_WIDGET (plot));
  h = gtk_widget_get_height (GTK_WIDGET (plot));
  paintable = gtk_widget_paintable_new (GTK_WIDGET (plot));
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, GDK_SNAPSHOT (snapshot), w, h);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  shown = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w, h);
  cr = cairo_create (shown);
  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  cairo_surface_flush (shown);
  gsk_render_node_unref (node);
  g_object_unref (paintable);

  g_assert_true (qd_plot_export (plot, png, QD_IMAGE_FORMAT_PNG, w, h, &error));
  g_assert_no_error (error);
  fresh = cairo_image_surface_create_from_png (png);
  g_assert_cmpint (cairo_surface_status (fresh), ==, CAIRO_STATUS_SUCCESS);
  g_assert_cmpuint (count_pixel_differences (shown, fresh), ==, 0);
  g_assert_cmpuint (count_pixel_differences (fresh, shown), ==, 0);

  cairo_surface_destroy (shown);
  cairo_surface_destroy (fresh);
  g_unlink (png);
  g_rmdir (dir);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The time axis of a run that has just started, and of one growing
 * towards a known final time. */
static void
test_widget_time_axis (void)
{
  g_autoptr(QdTrace) trace = qd_trace_new ("s");
  QdSignal s = { 200.0, { 1.5, 0.0, 0.0, 0.0 }, 0, 0 };
  GtkWidget *window;
  QdPlot *plot;
  double x0, x1, y0, y1;

  if (!have_display)
    {
      g_test_skip ("no display (run under xvfb-run)");
      return;
    }
  window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (window), 600, 400);
  plot = QD_PLOT (qd_plot_new ());
  gtk_window_set_child (GTK_WINDOW (window), GTK_WIDGET (plot));
  gtk_window_present (GTK_WINDOW (window));
  qd_plot_add_trace (plot, trace, "s", NULL);
  for (guint i = 0; i < 100 && gtk_widget_get_width (GTK_WIDGET (plot)) <= 0; i++)
    qd_test_run_frames (20);

  /* One event (a single step), final time unknown: one time unit, not
   * a span of 1e-300 labelled "200e-303". */
  qd_trace_append (trace, &s);
  qd_test_run_frames (150);
  qd_plot_get_view (plot, &x0, &x1, &y0, &y1);
  g_assert_cmpfloat (x0, ==, 200.0);
  g_assert_cmpfloat (x1, ==, 201.0);
  g_assert_cmpfloat (y0, <, 1.5);
  g_assert_cmpfloat (y1, >, 1.5);

  /* Known: from the event to the final time. */
  qd_plot_set_time_range_hint (plot, 0.0, 300.0);
  qd_test_run_frames (100);
  qd_plot_get_view (plot, &x0, &x1, NULL, NULL);
  g_assert_cmpfloat (x0, ==, 200.0);
  g_assert_cmpfloat (x1, ==, 300.0);

  /* A second event too close to the first for doubles to tell the
   * span from rounding changes nothing. */
  s.t = 200.0 * (1.0 + 1e-13);
  qd_trace_append (trace, &s);
  qd_test_run_frames (100);
  qd_plot_get_view (plot, &x0, &x1, NULL, NULL);
  g_assert_cmpfloat (x1, ==, 300.0);

  /* Growing: the span rounded up to a nice number (200 + 50), ... */
  s.t = 240.0;
  qd_trace_append (trace, &s);
  qd_test_run_frames (100);
  qd_plot_get_view (plot, &x0, &x1, NULL, NULL);
  g_assert_cmpfloat (x1, ==, 250.0);
  /* ... but never past the final time (200 + 100 would be 300 anyway;
   * 200 + 200 = 400 must stop at 300). */
  s.t = 299.0;
  qd_trace_append (trace, &s);
  qd_test_run_frames (100);
  qd_plot_get_view (plot, &x0, &x1, NULL, NULL);
  g_assert_cmpfloat (x1, ==, 300.0);

  /* Without the hint the same data rounds up past it. */
  qd_plot_set_time_range_hint (plot, NAN, NAN);
  qd_test_run_frames (100);
  qd_plot_get_view (plot, &x0, &x1, NULL, NULL);
  g_assert_cmpfloat (x1, ==, 400.0);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* A dense trace for the column bars: 200 000 QSS2-like pieces of a
 * sine of @period (7: a curve across the view; 0.02: a period or more
 * per column, a band of tall bars like a long oscillating run, its
 * amplitude growing from 0.6 to 1.2 over the trace, as the
 * Lotka-Volterra band does), one
 * burst of jitter (tall bars), and, under a small memory budget, its
 * older part left as decimated history (the faint bars). */
static QdTrace *
dense_trace (gboolean with_budget,
             double   period)
{
  QdTrace *trace = qd_trace_new ("dense");
  g_autoptr(QdTraceBudget) budget = NULL;
  GRand *rand = g_rand_new_with_seed (7);
  const gsize n = 200000;
  const double h = 1e-4, w = 2.0 * G_PI / period;

  if (with_budget)
    {
      budget = qd_trace_budget_new (2 * 1024 * 1024);
      qd_trace_budget_add (budget, trace);
    }
  for (gsize i = 0; i < n; i++)
    {
      double t = i * h;
      double a = period < 1.0 ? 0.6 + 0.6 * i / n : 1.0;
      QdSignal s = { t, { a * sin (w * t), a * w * cos (w * t), -0.5 * a * w * w * sin (w * t), 0 }, 2, 0 };

      if (i > n / 2 && i < n / 2 + n / 20)
        s.c[0] += g_rand_double_range (rand, -0.3, 0.3);
      qd_trace_append (trace, &s);
    }
  qd_trace_close (trace, n * h);
  g_rand_free (rand);
  if (with_budget)
    g_assert_true (qd_trace_get_first (trace) > 0);
  return trace;
}

static void
dense_options (QdPlotRenderOptions *o,
               QdPlotSeries        *series,
               gboolean             axes)
{
  bare_options (o, series, 1);
  o->draw_axes = axes;
  o->draw_grid = axes;
  o->x_min = 0.0;
  /* With axes, a view reaching past the data, as in a live run: empty
   * columns on the right. */
  o->x_max = axes ? 44.0 : 20.0;
  o->y_min = -1.6;
  o->y_max = 1.6;
}

/* Draws into an ARGB32 image of @scale device pixels per unit: directly,
 * or recorded first and replayed, which makes Cairo rasterize every
 * shape itself (what export to SVG and PDF keeps as vectors). */
static cairo_surface_t *
render_scaled (const QdPlotRenderOptions *o,
               int                        width,
               int                        height,
               int                        scale,
               gboolean                   replayed)
{
  cairo_surface_t *image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                                       width * scale, height * scale);
  cairo_t *cr;

  cairo_surface_set_device_scale (image, scale, scale);
  if (replayed)
    {
      cairo_surface_t *rec = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);

      cr = cairo_create (rec);
      qd_plot_render (cr, o, width, height);
      cairo_destroy (cr);
      cr = cairo_create (image);
      cairo_set_source_surface (cr, rec, 0, 0);
      cairo_paint (cr);
      cairo_destroy (cr);
      cairo_surface_destroy (rec);
    }
  else
    {
      cr = cairo_create (image);
      qd_plot_render (cr, o, width, height);
      cairo_destroy (cr);
    }
  cairo_surface_flush (image);
  return image;
}

/* The largest difference of any channel of any pixel, and how many
 * pixels differ at all. */
static int
image_difference (cairo_surface_t *a,
                  cairo_surface_t *b,
                  int             *n_differ)
{
  int w = cairo_image_surface_get_width (a), h = cairo_image_surface_get_height (a);
  int stride = cairo_image_surface_get_stride (a);
  const guint8 *da = cairo_image_surface_get_data (a);
  const guint8 *db = cairo_image_surface_get_data (b);
  int worst = 0;

  g_assert_cmpint (w, ==, cairo_image_surface_get_width (b));
  g_assert_cmpint (h, ==, cairo_image_surface_get_height (b));
  *n_differ = 0;
  for (int y = 0; y < h; y++)
    for (int x = 0; x < w; x++)
      {
        const guint8 *pa = da + y * stride + 4 * x, *pb = db + y * stride + 4 * x;
        int d = 0;

        for (int c = 0; c < 4; c++)
          d = MAX (d, abs ((int) pa[c] - (int) pb[c]));
        worst = MAX (worst, d);
        *n_differ += d > 0;
      }
  return worst;
}

/* The column bars look the same on an image (where the renderer may
 * take a shortcut) as Cairo draws them on any other surface: at device
 * scales 1 and 2, with and without axes, exact and faint (history)
 * bars; a difference of a rounding step in a bar's end pixels at most. */
static void
test_render_dense_same (void)
{
  for (int budget = 0; budget < 2; budget++)
    {
      g_autoptr(QdTrace) trace = dense_trace (budget, 7.0);
      QdPlotSeries series = { trace, "x", red, TRUE, FALSE, NULL };
      QdPlotRenderOptions o;

      for (int axes = 0; axes < 2; axes++)
        for (int scale = 1; scale <= 2; scale++)
          {
            cairo_surface_t *direct, *replayed;
            int worst, n_differ, n_red = 0;

            dense_options (&o, &series, axes);
            direct = render_scaled (&o, 640, 240, scale, FALSE);
            replayed = render_scaled (&o, 640, 240, scale, TRUE);
            worst = image_difference (direct, replayed, &n_differ);
            g_test_message ("budget %d, axes %d, scale %d: %d pixels differ, by %d at most",
                            budget, axes, scale, n_differ, worst);
            g_assert_cmpint (worst, <=, 2);
            /* Something was drawn: the curve (or its faint history) crosses
             * every column where there is data. */
            for (int x = (axes ? 70 : 0) * scale; x < (axes ? 310 : 640) * scale; x += 7)
              for (int y = 0; y < 240 * scale; y++)
                {
                  const guint8 *d = cairo_image_surface_get_data (direct);
                  guint32 px = *(const guint32 *) (d + y * cairo_image_surface_get_stride (direct) + 4 * x);

                  if (((px >> 16) & 0xff) > 200 && ((px >> 8) & 0xff) < 200)
                    {
                      n_red++;
                      break;
                    }
                }
            g_assert_cmpint (n_red, >, (axes ? 240 : 640) * scale / 7 * 8 / 10);
            cairo_surface_destroy (direct);
            cairo_surface_destroy (replayed);
          }
    }
}

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* A redraw of a dense plot from its column cache, as the widget does 10
 * times a second during a run: an 840 x 400 window (758 columns) into
 * ARGB32 at device scales 1 and 2, for a curve and for a solid band.
 * A benchmark, not a test: it prints the medians and asserts none, so it
 * runs only with -m perf (meson test --benchmark plot-dense-redraw -v). */
static void
test_dense_redraw (void)
{
  if (!g_test_perf ())
    {
      g_test_skip ("a measurement: run with -m perf");
      return;
    }
  for (int band = 0; band < 2; band++)
    {
      g_autoptr(QdTrace) trace = dense_trace (FALSE, band ? 0.02 : 7.0);
      QdPlotColumns *cols = qd_plot_columns_new ();
      QdPlotSeries series = { trace, "x", red, TRUE, FALSE, cols };
      QdPlotRenderOptions o;

      dense_options (&o, &series, TRUE);
      o.x_max = 20.0;
      for (int scale = 1; scale <= 2; scale++)
        {
          cairo_surface_t *image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                                               840 * scale, 400 * scale);
          double ms[41], bare[41];

          cairo_surface_set_device_scale (image, scale, scale);
          for (int r = 0; r < 41; r++)
            {
              cairo_t *cr = cairo_create (image);
              gint64 start = g_get_monotonic_time ();

              series.visible = TRUE;
              qd_plot_render (cr, &o, 840, 400);
              ms[r] = elapsed_ms (start);
              /* The same without the curve: the rest of the drawing. */
              series.visible = FALSE;
              start = g_get_monotonic_time ();
              qd_plot_render (cr, &o, 840, 400);
              bare[r] = elapsed_ms (start);
              cairo_destroy (cr);
            }
          qsort (ms, 41, sizeof (double), compare_double);
          qsort (bare, 41, sizeof (double), compare_double);
          g_test_message ("dense redraw of a %s, 758 columns, scale %d: %.3f ms, %.3f ms of it the bars (medians of 41)",
                          band ? "band" : "curve", scale, ms[20], ms[20] - bare[20]);
          cairo_surface_destroy (image);
        }
      qd_plot_columns_free (cols);
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();
  have_display = gtk_init_check ();

  g_test_add_func ("/plot/render/parabola", test_render_parabola);
  g_test_add_func ("/plot/render/cursor-in-view", test_render_cursor_in_view);
  g_test_add_func ("/plot/render/parabola-decimated", test_render_parabola_decimated);
  g_test_add_func ("/plot/render/xy-circle", test_render_xy_circle);
  g_test_add_func ("/plot/render/incremental", test_render_incremental);
  g_test_add_func ("/plot/ticks", test_nice_ticks);
  g_test_add_func ("/plot/render/legend-hit", test_legend_hit);
  g_test_add_func ("/plot/export/files", test_export_files);
  g_test_add_func ("/plot/widget/runs-and-csv", test_widget_runs_and_csv);
  g_test_add_func ("/plot/widget/autoscale-live", test_widget_autoscale_live);
  g_test_add_func ("/plot/widget/live-equals-fresh", test_widget_live_equals_fresh);
  g_test_add_func ("/plot/widget/time-axis", test_widget_time_axis);
  g_test_add_func ("/plot/perf/ten-million", test_big_trace);
  g_test_add_func ("/plot/perf/live-columns", test_live_columns);
  g_test_add_func ("/plot/render/dense-same", test_render_dense_same);
  g_test_add_func ("/plot/perf/dense-redraw", test_dense_redraw);

  return g_test_run ();
}

/* qd-plot-yaxes.c: extra value axes, the time axis's label, the zoom
 * indicator
 *
 * With several y axes, axis 0 is the ordinary one at the left; axis 1
 * is at the right of the area, axis 2 at the left beyond axis 0, axis 3
 * at the right beyond axis 1, each in its first trace's colour so that
 * a reader tells which curve it measures. The zoom indicator, in a band
 * over the plot, is a line of text and a strip: the data's whole time
 * span with the part in view filled.
 */
#include <glib/gi18n-lib.h>

#include "qd-plot-render-private.h"

void
qd_plot_yaxes_color (const QdPlotRenderOptions *o,
                     guint                      axis,
                     const QdPlotStyle         *style,
                     QdPlotColor               *color)
{
  const QdPlotAxes *ax = o->axes;
  int first = -1;

  *color = style->text;
  if (ax == NULL || ax->kind != QD_PLOT_LAYOUT_AXES || o->xy
      || ax->series_axis == NULL || ax->n_axes < 2)
    return;
  /* Its first current trace, else its first trace of an earlier run. */
  for (guint i = 0; i < o->n_series; i++)
    if (MIN (ax->series_axis[i], MIN (ax->n_axes, QD_PLOT_MAX_Y_AXES) - 1) == axis)
      {
        if (!o->series[i].earlier)
          {
            first = (int) i;
            break;
          }
        if (first < 0)
          first = (int) i;
      }
  if (first >= 0)
    series_color (&o->series[first], style, color);
}

/* One extra value axis: its spine at @x, ticks and labels outwards
 * (@dir 1: to the right, -1: to the left), its label at the far edge
 * of its band. */
static void
draw_extra_axis (cairo_t                   *cr,
                 const QdPlotRenderOptions *o,
                 const QdPlotStyle         *style,
                 const Map                 *m,
                 guint                      axis,
                 double                     x,
                 int                        dir)
{
  const QdPlotRect *a = &m->area;
  double lo = o->axes->y_ranges[2 * axis], hi = o->axes->y_ranges[2 * axis + 1];
  double ticks[64], step, top = 0.0, sy;
  g_autofree char *label = qd_plot_axis_label (o, axis);
  QdPlotColor color;
  guint n;

  if (!(hi > lo))
    return;
  qd_plot_yaxes_color (o, axis, style, &color);
  n = qd_plot_nice_ticks (lo, hi, (guint) CLAMP (a->height / 45.0, 2, 60), ticks, &step);
  for (guint i = 0; i < n; i++)
    top = MAX (top, fabs (ticks[i]));
  sy = a->height / (hi - lo);

  cairo_save (cr);
  source_color (cr, &color);
  cairo_set_line_width (cr, 1.0);
  cairo_move_to (cr, floor (x) + 0.5, a->y);
  cairo_line_to (cr, floor (x) + 0.5, a->y + a->height);
  for (guint i = 0; i < n; i++)
    {
      double y = floor (a->y + a->height - (ticks[i] - lo) * sy) + 0.5;

      cairo_move_to (cr, floor (x) + 0.5, y);
      cairo_line_to (cr, floor (x) + 0.5 + 4.0 * dir, y);
    }
  cairo_stroke (cr);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *text = qd_plot_format_tick (ticks[i], step, top);
      double y = a->y + a->height - (ticks[i] - lo) * sy;

      draw_text (cr, text, x + 7.0 * dir, y, dir > 0 ? 0.0 : 1.0, 0.5);
    }
  if (label != NULL)
    {
      PangoLayout *layout = make_layout (cr, label);
      double lx = dir > 0 ? x + EXTRA_AXIS_W - 4.0 : x - EXTRA_AXIS_W + 10.0;
      int w, h;

      /* Turned a quarter left like axis 0's, shortened to the height. */
      pango_layout_set_width (layout, (int) (a->height * PANGO_SCALE));
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      pango_layout_get_pixel_size (layout, &w, &h);
      if (dir > 0)
        lx -= h;
      cairo_move_to (cr, round (lx), round (a->y + 0.5 * (a->height + w)));
      cairo_rotate (cr, -0.5 * G_PI);
      pango_cairo_update_layout (cr, layout);
      pango_cairo_show_layout (cr, layout);
      g_object_unref (layout);
    }
  cairo_restore (cr);
}

/* In the band over the plot area: a line of text, then a strip that is
 * the whole run with the part in view filled. */
static void
draw_zoom (cairo_t                   *cr,
           const QdPlotRenderOptions *o,
           const QdPlotStyle         *style,
           const Map                 *m)
{
  const QdPlotAxes *ax = o->axes;
  const QdPlotRect *a = &m->area;
  double span = ax->data_x_max - ax->data_x_min, view = o->x_max - o->x_min;
  double x0, x1, step, top, sx, sw;
  g_autofree char *factor = NULL, *from = NULL, *to = NULL, *text = NULL;
  double tw, th;

  if (!(span > 0.0) || !(view > 0.0) || !isfinite (span))
    return;
  cairo_save (cr);
  factor = g_strdup_printf ("%.3g", span / view);
  step = qd_plot_nice_ceil (view / 20.0);
  top = MAX (fabs (o->x_min), fabs (o->x_max));
  from = qd_plot_format_tick (o->x_min, step, top);
  to = qd_plot_format_tick (o->x_max, step, top);
  /* TRANSLATORS: the zoom indicator of a plot: how much the time axis
   * is magnified and the times in view, "Zoom ×12 · t 3.1 – 4.2";
   * Home is the key that shows everything again */
  text = g_strdup_printf (_("Zoom ×%s · t %s – %s · Home resets"), factor, from, to);
  text_size (cr, text, &tw, &th);
  source_color (cr, &style->text);
  draw_text (cr, text, a->x, a->y - 3.0, 0.0, 1.0);

  sx = a->x + tw + 12.0;
  sw = a->x + a->width - sx;
  if (sw >= 40.0)
    {
      double sy = round (a->y - 3.0 - 0.5 * th - 2.5);

      x0 = sx + CLAMP ((o->x_min - ax->data_x_min) / span, 0.0, 1.0) * sw;
      x1 = sx + CLAMP ((o->x_max - ax->data_x_min) / span, 0.0, 1.0) * sw;
      source_color (cr, &style->grid);
      cairo_rectangle (cr, sx, sy, sw, 5.0);
      cairo_fill (cr);
      cairo_set_source_rgba (cr, 0.11, 0.44, 0.85, 0.85);
      cairo_rectangle (cr, floor (x0), sy, MAX (2.0, round (x1 - x0)), 5.0);
      cairo_fill (cr);
    }
  cairo_restore (cr);
}

void
qd_plot_yaxes_draw (cairo_t                   *cr,
                    const QdPlotRenderOptions *o,
                    const QdPlotStyle         *style,
                    const Map                 *m)
{
  const QdPlotAxes *ax = o->axes;
  const QdPlotRect *a = &m->area;

  if (ax == NULL)
    return;
  if (o->draw_axes && ax->x_label != NULL && !ax->hide_x_ticks && !o->xy)
    {
      cairo_save (cr);
      source_color (cr, &style->text);
      draw_text (cr, ax->x_label, a->x + 0.5 * a->width,
                 a->y + a->height + MARGIN_BOTTOM - 6.0, 0.5, 0.0);
      cairo_restore (cr);
    }
  if (o->draw_axes && ax->kind == QD_PLOT_LAYOUT_AXES && !o->xy
      && ax->y_ranges != NULL && ax->series_axis != NULL)
    {
      guint n = MIN (ax->n_axes, QD_PLOT_MAX_Y_AXES);

      for (guint k = 1; k < n; k++)
        {
          guint slot = (k - 1) / 2;

          if (k % 2 == 1)
            draw_extra_axis (cr, o, style, m, k,
                             a->x + a->width + slot * EXTRA_AXIS_W, 1);
          else
            draw_extra_axis (cr, o, style, m, k, a->x - MARGIN_LEFT - 6.0, -1);
        }
    }
  if (ax->zoomed && !o->xy)
    draw_zoom (cr, o, style, m);
}

int
qd_plot_yaxes_axis_at (const QdPlotRenderOptions *o,
                       double                     width,
                       double                     height,
                       double                     x)
{
  const QdPlotAxes *ax = o->axes;
  QdPlotRect a;
  guint n;
  int k = -1;

  if (ax == NULL || ax->kind != QD_PLOT_LAYOUT_AXES || o->xy || ax->n_axes < 2)
    return -1;
  n = MIN (ax->n_axes, QD_PLOT_MAX_Y_AXES);
  qd_plot_render_get_area (o, width, height, &a);
  if (x > a.x + a.width)
    k = x < a.x + a.width + EXTRA_AXIS_W ? 1 : 3;
  else if (x < a.x)
    k = x < a.x - MARGIN_LEFT ? 2 : 0;
  return k >= 0 && (guint) k < n ? k : -1;
}

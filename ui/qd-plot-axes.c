/* qd-plot-axes.c: the plot's ticks, labels and legend
 *
 * Nice ticks and their labels, the value axis's label, and where the
 * legend goes: along the top or the bottom of the plot area, where it
 * hides the fewest drawn pixels of the curves (qd-plot-place.h). The
 * layout is worked out once per drawing and shared by the drawing, the
 * legend's clicks and the tests (qd_plot_render_get_layout()).
 */
#include <glib/gi18n-lib.h>

#include <string.h>

#include "qd-plot-place.h"
#include "qd-plot-render-private.h"

/* Ticks and labels */

double
qd_plot_nice_ceil (double value)
{
  double e, base, f;

  g_return_val_if_fail (value > 0.0, 1.0);
  e = floor (log10 (value));
  base = pow (10.0, e);
  f = value / base;
  /* A relative tolerance: 0.30000000000000004 / 0.1 must give 3 -> 5,
   * and 2.0000000001 must stay 2. */
  if (f <= 1.0 + 1e-9)
    return base;
  if (f <= 2.0 + 1e-9)
    return 2.0 * base;
  if (f <= 5.0 + 1e-9)
    return 5.0 * base;
  return 10.0 * base;
}

guint
qd_plot_nice_ticks (double  lo,
                    double  hi,
                    guint   max_ticks,
                    double *ticks,
                    double *step)
{
  double s;
  guint n;

  if (!(hi > lo) || !isfinite (lo) || !isfinite (hi) || max_ticks == 0)
    {
      *step = 0.0;
      return 0;
    }
  max_ticks = MAX (max_ticks, 2);
  s = qd_plot_nice_ceil ((hi - lo) / max_ticks);
  for (;;)
    {
      double first = ceil (lo / s - 1e-9);
      double last = floor (hi / s + 1e-9);

      if (last - first + 1.0 <= max_ticks)
        {
          n = 0;
          for (double k = first; k <= last; k++)
            {
              /* k * s, not an accumulated sum: 0.1 + 0.2 must print 0.3,
               * and zero must be exactly zero. */
              double v = k * s;

              ticks[n++] = fabs (v) < s * 1e-9 ? 0.0 : v;
            }
          *step = s;
          return n;
        }
      s = qd_plot_nice_ceil (s * 1.5);
    }
}

char *
qd_plot_format_tick (double value,
                     double step,
                     double axis_max)
{
  double top = axis_max > 0.0 ? axis_max : fabs (value);
  double mag = MAX (top, fabs (step));
  char buf[G_ASCII_DTOSTR_BUF_SIZE];
  int decimals;

  if (value == 0.0 || fabs (value) < fabs (step) * 1e-9)
    return g_strdup ("0");
  if (step <= 0.0)
    step = fabs (value);

  if (mag < 1e6 && step >= 1e-3)
    {
      decimals = (int) MAX (0.0, -floor (log10 (step) + 1e-9));
      g_snprintf (buf, sizeof buf, "%.*f", decimals, value);
      return g_strdup (buf);
    }
  else
    {
      /* Engineering notation: the exponent a multiple of three, so the
       * mantissa reads like a unit prefix (n, µ, m, k, M, G). */
      int e3 = 3 * (int) floor (log10 (top) / 3.0 + 1e-12);
      double scale = pow (10.0, e3);
      double mantissa = value / scale;

      decimals = (int) MAX (0.0, -floor (log10 (step / scale) + 1e-9));
      decimals = MIN (decimals, 6);
      g_snprintf (buf, sizeof buf, "%.*fe%d", decimals, mantissa, e3);
      return g_strdup (buf);
    }
}

char *
qd_plot_format_value (double value)
{
  double mag = fabs (value);
  int e3;

  /* Plain up to what six digits round below a million: 999999.9 would
   * print as printf's 1e+06. */
  if (value == 0.0 || !isfinite (value) || (mag >= 1e-3 && mag < 999999.5))
    return g_strdup_printf ("%.6g", value);
  e3 = 3 * (int) floor (log10 (mag) / 3.0);
  /* A mantissa that rounds up to 1000 (999.9999e3) moves to the next
   * exponent. */
  if (fabs (value / pow (10.0, e3)) >= 999999.5e-3)
    e3 += 3;
  return g_strdup_printf ("%.6ge%d", value / pow (10.0, e3), e3);
}

/* Layout: ticks, their labels, the value axis's label and the legend */

#define LEGEND_PAD    6.0
#define LEGEND_SWATCH 18.0
#define LEGEND_ROW    17.0
#define LEGEND_INSET  8.0

typedef struct
{
  guint  n;
  double v[64];
  double step;
  double top;    /* the largest |tick|, which sets the labels' notation */
} Ticks;

static void
axis_ticks (double  lo,
            double  hi,
            double  length,
            double  spacing,
            Ticks  *t)
{
  t->n = qd_plot_nice_ticks (lo, hi, (guint) CLAMP (length / spacing, 2, 60),
                             t->v, &t->step);
  t->top = 0.0;
  for (guint i = 0; i < t->n; i++)
    t->top = MAX (t->top, fabs (t->v[i]));
}

static char *
xy_label (const QdPlotRenderOptions *o)
{
  const char *y = o->series[o->xy_y].label;
  const char *x = o->series[o->xy_x].label;

  /* TRANSLATORS: the XY plot's legend entry: "y against x". */
  return g_strdup_printf (_("%s against %s"), y ? y : "", x ? x : "");
}

/* The value axis's label: what the curves are, so that a plot read
 * without its legend (printed, cropped) still says it. In XY mode the y
 * trace; otherwise the names of the current traces, earlier runs left
 * out (they repeat the names). */
char *
qd_plot_axis_label (const QdPlotRenderOptions *o,
                    guint                      axis)
{
  const QdPlotAxes *ax = o->axes;
  gboolean several = ax != NULL && ax->kind == QD_PLOT_LAYOUT_AXES
                     && ax->series_axis != NULL && ax->n_axes > 1;
  GString *text;

  if (o->xy)
    {
      const char *y = o->xy_y < o->n_series ? o->series[o->xy_y].label : NULL;

      return y != NULL && *y != '\0' ? g_strdup (y) : NULL;
    }
  /* A label with units, from the arrangement. */
  if (ax != NULL && ax->axis_labels != NULL && axis < ax->n_axes
      && ax->axis_labels[axis] != NULL && *ax->axis_labels[axis] != '\0')
    return g_strdup (ax->axis_labels[axis]);
  text = g_string_new (NULL);
  for (guint i = 0; i < o->n_series; i++)
    {
      const QdPlotSeries *s = &o->series[i];

      if (!s->visible || s->earlier || s->label == NULL || *s->label == '\0')
        continue;
      if (several && MIN (ax->series_axis[i], MIN (ax->n_axes, QD_PLOT_MAX_Y_AXES) - 1) != axis)
        continue;
      if (text->len > 0)
        g_string_append (text, ", ");
      g_string_append (text, s->label);
    }
  if (text->len == 0)
    {
      g_string_free (text, TRUE);
      return NULL;
    }
  return g_string_free (text, FALSE);
}

/* The rows of the legend, in series order; their number. */
static guint
legend_rows (cairo_t                   *cr,
             const QdPlotRenderOptions *o,
             guint                     *rows,
             guint                      max_rows,
             double                    *text_w)
{
  guint n = 0;
  double h;

  *text_w = 0.0;
  if (o->xy)
    {
      /* One entry: the curve, named "y against x". */
      g_autofree char *label = NULL;

      if (o->xy_x >= o->n_series || o->xy_y >= o->n_series)
        return 0;
      label = xy_label (o);
      text_size (cr, label, text_w, &h);
      rows[n++] = o->xy_y;
      /* The earlier runs drawn under it. */
      n += qd_plot_legend_run_rows (o, FALSE, rows + n, max_rows - n);
      for (guint r = 1; r < n; r++)
        {
          g_autofree char *text = qd_plot_legend_row_text (o, rows[r]);
          double w;

          text_size (cr, text, &w, &h);
          *text_w = MAX (*text_w, w);
        }
      return n;
    }
  n = qd_plot_legend_run_rows (o, TRUE, rows, max_rows);
  for (guint i = 0; i < o->n_series && n < max_rows; i++)
    {
      if (o->series[i].label == NULL || !qd_plot_legend_is_series (o, i))
        continue;
      rows[n++] = i;
    }
  n += qd_plot_legend_run_rows (o, FALSE, rows + n, max_rows - n);
  for (guint r = 0; r < n; r++)
    {
      g_autofree char *text = rows[r] >= o->n_series
                              ? qd_plot_legend_row_text (o, rows[r]) : NULL;
      double w;

      text_size (cr, text != NULL ? text : o->series[rows[r]].label, &w, &h);
      /* The title spans the swatch's column. */
      if (rows[r] == QD_PLOT_LEGEND_TITLE_ROW (o))
        w -= LEGEND_SWATCH + LEGEND_PAD;
      *text_w = MAX (*text_w, w);
    }
  return n;
}

/* Where the legend goes: along the top or the bottom of the area, where
 * it hides the fewest drawn pixels of the visible curves (their exact
 * per-column extremes, the ones the drawing uses), in the top-right
 * corner when that hides nothing. XY curves and views without a value
 * range keep the corner. */
static void
legend_place (const QdPlotRenderOptions *o,
              const QdPlotRect          *area,
              QdPlotRect                *box)
{
  guint n = n_columns (area);
  g_autofree QdPlotSpan **spans = g_new0 (QdPlotSpan *, o->n_series);
  guint n_spans = 0;
  double pad = 0.5 * o->line_width + 1.0;
  Map m;

  box->x = MAX (area->x, area->x + area->width - box->width - LEGEND_INSET);
  box->y = area->y + LEGEND_INSET;
  if (o->xy || !(o->x_max > o->x_min) || !(o->y_max > o->y_min)
      || !isfinite (o->x_max - o->x_min) || !isfinite (o->y_max - o->y_min))
    return;
  map_init (&m, o, area);
  for (guint i = 0; i < o->n_series; i++)
    {
      const QdPlotSeries *s = &o->series[i];
      QdPlotColumns *scratch = NULL;
      const QdPlotColumn *cols;
      QdPlotSpan *sp;
      gsize length;

      if (!s->visible || (length = qd_trace_get_length (s->trace)) == 0)
        continue;
      cols = series_columns (o, s, area, series_end (o, s->trace, length), &scratch);
      sp = spans[n_spans++] = g_new (QdPlotSpan, n);
      for (guint k = 0; k < n; k++)
        {
          Map axis_map;
          const Map *sm = series_map (o, i, &m, &axis_map);

          sp[k].top = 1.0;
          sp[k].bottom = 0.0;
          if (cols[k].min <= cols[k].max)
            {
              sp[k].top = map_y (sm, cols[k].max) - pad;
              sp[k].bottom = map_y (sm, cols[k].min) + pad;
            }
        }
      qd_plot_columns_free (scratch);
    }
  qd_plot_place_box (area->x, area->y, area->width, area->height,
                     box->width, box->height, LEGEND_INSET,
                     (const QdPlotSpan *const *) spans, n_spans, n,
                     &box->x, &box->y);
  for (guint i = 0; i < n_spans; i++)
    g_free (spans[i]);
}

/* Where a time-axis tick label goes: centred under its tick, moved
 * inwards at the ends of the axis so that the whole label lies on the
 * output (the last label of an axis that ends at 300000 must not read
 * 30000). */
static void
x_tick_rect (cairo_t          *cr,
             const Map        *m,
             const char       *text,
             double            value,
             QdPlotRect       *r)
{
  double out_width = m->area.x + m->area.width + MARGIN_RIGHT;

  text_size (cr, text, &r->width, &r->height);
  r->x = round (map_x (m, value) - 0.5 * r->width);
  r->x = MAX (0.0, MIN (r->x, floor (out_width - r->width)));
  r->y = m->area.y + m->area.height + 6.0;
}

void
qd_plot_compute_layout (cairo_t                   *cr,
                        const QdPlotRenderOptions *o,
                        const QdPlotRect          *area,
                        QdPlotLayout              *l)
{
  memset (l, 0, sizeof *l);
  l->area = *area;
  if (o->draw_axes && o->x_max > o->x_min && o->y_max > o->y_min
      && isfinite (o->x_max - o->x_min) && isfinite (o->y_max - o->y_min))
    {
      g_autofree char *label = qd_plot_axis_label (o, 0);
      Ticks xt;
      Map m;

      map_init (&m, o, area);
      axis_ticks (o->x_min, o->x_max, area->width, 90.0, &xt);
      /* A plot of a stack above the lowest: its time ticks without labels. */
      if (o->axes != NULL && o->axes->hide_x_ticks)
        xt.n = 0;
      l->n_x_ticks = xt.n;
      for (guint i = 0; i < xt.n; i++)
        {
          g_autofree char *text = qd_plot_format_tick (xt.v[i], xt.step, xt.top);

          x_tick_rect (cr, &m, text, xt.v[i], &l->x_ticks[i]);
        }
      if (label != NULL)
        {
          double w, h;

          /* Turned a quarter left, centred on the area, shortened with
           * an ellipsis to its height. */
          text_size (cr, label, &w, &h);
          l->y_label.x = area->x - MARGIN_LEFT + 4.0;
          l->y_label.width = h;
          l->y_label.height = MIN (w, area->height);
          l->y_label.y = round (area->y + 0.5 * (area->height - l->y_label.height));
        }
    }
  if (o->draw_legend)
    {
      double text_w;

      l->n_legend_rows = legend_rows (cr, o, l->legend_rows,
                                      G_N_ELEMENTS (l->legend_rows), &text_w);
      if (l->n_legend_rows > 0)
        {
          l->legend.width = LEGEND_PAD * 3 + LEGEND_SWATCH + text_w;
          l->legend.height = LEGEND_PAD * 2 + LEGEND_ROW * l->n_legend_rows;
          legend_place (o, area, &l->legend);
        }
    }
}

gboolean
qd_plot_render_get_layout (const QdPlotRenderOptions *o,
                           double                     width,
                           double                     height,
                           QdPlotLayout              *layout)
{
  cairo_surface_t *surface;
  cairo_t *cr;
  QdPlotRect area;

  qd_plot_render_get_area (o, width, height, &area);
  /* Text sizes need a context; a one-pixel scratch surface will do. */
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cr = cairo_create (surface);
  qd_plot_compute_layout (cr, o, &area, layout);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
  return layout->n_x_ticks > 0 || layout->legend.width > 0.0;
}

/* Grid and axes */

void
qd_plot_draw_grid_and_axes (cairo_t                   *cr,
                            const QdPlotRenderOptions *o,
                            const QdPlotStyle         *style,
                            const Map                 *m,
                            const QdPlotLayout        *l,
                            gboolean                   grid)
{
  const QdPlotRect *a = &m->area;
  Ticks xt, yt;

  axis_ticks (o->x_min, o->x_max, a->width, 90.0, &xt);
  axis_ticks (o->y_min, o->y_max, a->height, 45.0, &yt);

  cairo_save (cr);
  cairo_set_line_width (cr, 1.0);
  if (grid)
    {
      source_color (cr, &style->grid);
      /* Half-pixel offsets keep one-pixel lines sharp. */
      for (guint i = 0; i < xt.n; i++)
        {
          double x = floor (map_x (m, xt.v[i])) + 0.5;

          cairo_move_to (cr, x, a->y);
          cairo_line_to (cr, x, a->y + a->height);
        }
      for (guint i = 0; i < yt.n; i++)
        {
          double y = floor (map_y (m, yt.v[i])) + 0.5;

          cairo_move_to (cr, a->x, y);
          cairo_line_to (cr, a->x + a->width, y);
        }
      cairo_stroke (cr);
      cairo_restore (cr);
      return;
    }

  source_color (cr, &style->frame);
  cairo_rectangle (cr, floor (a->x) + 0.5, floor (a->y) + 0.5,
                   floor (a->width), floor (a->height));
  for (guint i = 0; i < xt.n; i++)
    {
      double x = floor (map_x (m, xt.v[i])) + 0.5;

      cairo_move_to (cr, x, a->y + a->height);
      cairo_line_to (cr, x, a->y + a->height + 4.0);
    }
  for (guint i = 0; i < yt.n; i++)
    {
      double y = floor (map_y (m, yt.v[i])) + 0.5;

      cairo_move_to (cr, a->x - 4.0, y);
      cairo_line_to (cr, a->x, y);
    }
  cairo_stroke (cr);

  source_color (cr, &style->text);
  for (guint i = 0; i < xt.n && i < l->n_x_ticks; i++)
    {
      g_autofree char *text = qd_plot_format_tick (xt.v[i], xt.step, xt.top);

      draw_text (cr, text, l->x_ticks[i].x, l->x_ticks[i].y, 0.0, 0.0);
    }
  for (guint i = 0; i < yt.n; i++)
    {
      g_autofree char *text = qd_plot_format_tick (yt.v[i], yt.step, yt.top);

      draw_text (cr, text, a->x - 7.0, map_y (m, yt.v[i]), 1.0, 0.5);
    }
  if (l->y_label.width > 0.0)
    {
      g_autofree char *label = qd_plot_axis_label (o, 0);
      PangoLayout *layout = make_layout (cr, label);
      QdPlotColor color;

      qd_plot_yaxes_color (o, 0, style, &color);
      source_color (cr, &color);

      pango_layout_set_width (layout, (int) (l->y_label.height * PANGO_SCALE));
      pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
      cairo_move_to (cr, l->y_label.x, l->y_label.y + l->y_label.height);
      cairo_rotate (cr, -0.5 * G_PI);
      pango_cairo_update_layout (cr, layout);
      pango_cairo_show_layout (cr, layout);
      g_object_unref (layout);
    }
  cairo_restore (cr);
}

/* Legend */

void
qd_plot_draw_legend (cairo_t                   *cr,
                     const QdPlotRenderOptions *o,
                     const QdPlotStyle         *style,
                     const QdPlotLayout        *l)
{
  const QdPlotRect *box = &l->legend;

  if (l->n_legend_rows == 0)
    return;
  cairo_save (cr);
  source_color (cr, &style->legend_background);
  cairo_rectangle (cr, box->x, box->y, box->width, box->height);
  cairo_fill_preserve (cr);
  source_color (cr, &style->grid);
  cairo_set_line_width (cr, 1.0);
  cairo_stroke (cr);

  for (guint r = 0; r < l->n_legend_rows; r++)
    {
      const QdPlotSeries *s;
      double y = box->y + LEGEND_PAD + LEGEND_ROW * (r + 0.5);
      double x = box->x + LEGEND_PAD;
      QdPlotColor color;
      g_autofree char *xy_text = NULL;
      const char *label;

      if (l->legend_rows[r] >= o->n_series)
        {
          qd_plot_draw_legend_run_row (cr, o, style, l->legend_rows[r], x, y,
                                       LEGEND_SWATCH, LEGEND_PAD);
          continue;
        }
      s = &o->series[l->legend_rows[r]];
      label = s->label;
      series_color (s, style, &color);
      if (o->xy)
        label = xy_text = xy_label (o);
      source_color (cr, &color);
      cairo_set_line_width (cr, 2.5);
      cairo_move_to (cr, x, floor (y) + 0.5);
      cairo_line_to (cr, x + LEGEND_SWATCH, floor (y) + 0.5);
      if (s->visible)
        cairo_stroke (cr);
      else
        {
          /* Hidden: a hollow swatch and dimmed text, still clickable. */
          cairo_set_line_width (cr, 1.0);
          cairo_rectangle (cr, x + 0.5, floor (y) - 2.5, LEGEND_SWATCH - 1.0, 6.0);
          cairo_stroke (cr);
        }
      if (s->visible)
        source_color (cr, &style->text);
      else
        cairo_set_source_rgba (cr, style->text.red, style->text.green,
                               style->text.blue, 0.45);
      draw_text (cr, label, x + LEGEND_SWATCH + LEGEND_PAD, y, 0.0, 0.5);
    }
  cairo_restore (cr);
}

int
qd_plot_render_legend_hit (const QdPlotRenderOptions *o,
                           double                     width,
                           double                     height,
                           double                     x,
                           double                     y)
{
  QdPlotLayout l;
  const QdPlotRect *box = &l.legend;

  if (!o->draw_legend)
    return -1;
  if (qd_plot_subplots_is_stacked (o))
    return qd_plot_subplots_legend_hit (o, width, height, x, y);
  qd_plot_render_get_layout (o, width, height, &l);
  if (l.n_legend_rows > 0
      && x >= box->x && x < box->x + box->width
      && y >= box->y + LEGEND_PAD && y < box->y + box->height - LEGEND_PAD)
    {
      guint r = (guint) ((y - box->y - LEGEND_PAD) / LEGEND_ROW);

      if (r < l.n_legend_rows)
        return (int) l.legend_rows[r];
    }
  return -1;
}


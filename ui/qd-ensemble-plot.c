/* qd-ensemble-plot.c: every run of a sweep in one plot (qd-ensemble-plot.h)
 *
 * The axes and the grid come from the plot renderer (qd-plot-render.h)
 * with no series of its own, so they look like every other plot of the
 * editor; the runs, the band and the mean are drawn here on the area it
 * leaves. Thousands of faint curves cost a while to draw: they go into
 * an image once per size and job, and hovering only draws the
 * highlighted curve over that image.
 */
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "qd-ensemble-plot.h"
#include "qd-plot-render.h"

/* How near the pointer a curve must pass to be picked, in pixels. */
#define PICK_DISTANCE 8.0

struct _QdEnsemblePlot
{
  GtkWidget        parent_instance;

  QdSweepJob      *job;
  GPtrArray       *results;      /* the records shown */
  char            *signal;
  QdTrace         *axis_trace;   /* empty: names the value axis */
  GPtrArray       *curves;       /* const double*, borrowed from the job */
  GArray          *indices;      /* guint: each curve's index in the results */
  double          *mean, *low, *high;
  double           t0, step;
  guint            n_grid;
  double           y_min, y_max;

  int              highlight;    /* index into the results, or -1 */
  const QdSweepResult *selected; /* one of the results, or NULL */
  char            *highlight_text;

  cairo_surface_t *cache;        /* everything but the highlight */
  int              cache_width, cache_height, cache_scale;
};

G_DEFINE_FINAL_TYPE (QdEnsemblePlot, qd_ensemble_plot, GTK_TYPE_WIDGET)

enum { SIGNAL_HIGHLIGHT_CHANGED, N_SIGNALS };
static guint signals[N_SIGNALS];

static const QdPlotColor run_color = { 0.11, 0.44, 0.85, 1.0 };
static const QdPlotColor band_color = { 0.96, 0.47, 0.0, 0.28 };
static const QdPlotColor mean_color = { 0.75, 0.11, 0.16, 1.0 };
static const QdPlotColor highlight_color = { 0.0, 0.0, 0.0, 1.0 };

static void
invalidate (QdEnsemblePlot *self)
{
  g_clear_pointer (&self->cache, cairo_surface_destroy);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
clear_data (QdEnsemblePlot *self)
{
  g_ptr_array_set_size (self->curves, 0);
  g_array_set_size (self->indices, 0);
  g_clear_pointer (&self->mean, g_free);
  g_clear_pointer (&self->low, g_free);
  g_clear_pointer (&self->high, g_free);
  g_clear_pointer (&self->signal, g_free);
  g_clear_pointer (&self->results, g_ptr_array_unref);
  self->n_grid = 0;
  self->highlight = -1;
  g_clear_pointer (&self->highlight_text, g_free);
}

/* The value range: every finite value of every curve and of the band,
 * with a little room above and below. */
static void
compute_range (QdEnsemblePlot *self)
{
  double lo = INFINITY, hi = -INFINITY;

  for (guint c = 0; c < self->curves->len; c++)
    {
      const double *curve = g_ptr_array_index (self->curves, c);

      for (guint p = 0; p < self->n_grid; p++)
        if (isfinite (curve[p]))
          {
            lo = MIN (lo, curve[p]);
            hi = MAX (hi, curve[p]);
          }
    }
  if (!(lo <= hi))
    lo = 0.0, hi = 1.0;
  if (hi - lo < 1e-12 * MAX (fabs (lo), 1.0))
    lo -= 0.5 * MAX (fabs (lo), 1.0), hi += 0.5 * MAX (fabs (hi), 1.0);
  self->y_min = lo - 0.04 * (hi - lo);
  self->y_max = hi + 0.04 * (hi - lo);
}

void
qd_ensemble_plot_set_job (QdEnsemblePlot *self,
                          QdSweepJob     *job,
                          GPtrArray      *results,
                          const char     *signal)
{
  g_autofree char *name = g_strdup (signal);

  g_return_if_fail (QD_IS_ENSEMBLE_PLOT (self));

  /* @results and @signal may be ours already: hold them across the
   * clearing. */
  signal = name;
  if (results != NULL)
    g_ptr_array_ref (results);
  else if (job != NULL && signal != NULL)
    results = g_ptr_array_ref (qd_sweep_job_get_results (job));
  g_set_object (&self->job, job);
  clear_data (self);
  self->results = results;
  /* A run selected stays so while it is shown (the plot of a running
   * sweep takes more runs, each record where it was). */
  if (self->selected != NULL
      && (results == NULL || !g_ptr_array_find (results, self->selected, NULL)))
    self->selected = NULL;
  if (job == NULL || signal == NULL)
    {
      invalidate (self);
      g_signal_emit (self, signals[SIGNAL_HIGHLIGHT_CHANGED], 0);
      return;
    }
  self->signal = g_strdup (signal);
  qd_sweep_job_get_grid (job, &self->t0, &self->step, &self->n_grid);
  for (guint i = 0; i < results->len; i++)
    {
      const double *curve = qd_sweep_job_get_trace (job, g_ptr_array_index (results, i), signal);

      if (curve == NULL)
        continue;
      g_ptr_array_add (self->curves, (gpointer) curve);
      g_array_append_val (self->indices, i);
    }
  self->mean = g_new (double, MAX (self->n_grid, 1));
  self->low = g_new (double, MAX (self->n_grid, 1));
  self->high = g_new (double, MAX (self->n_grid, 1));
  qd_sweep_job_compute_band (job, results, signal, self->mean, self->low, self->high);
  compute_range (self);
  invalidate (self);
  g_signal_emit (self, signals[SIGNAL_HIGHLIGHT_CHANGED], 0);
}

const char *
qd_ensemble_plot_get_signal (QdEnsemblePlot *self)
{
  return self->signal;
}

guint
qd_ensemble_plot_get_n_curves (QdEnsemblePlot *self)
{
  return self->curves->len;
}

const double *
qd_ensemble_plot_get_mean (QdEnsemblePlot *self)
{
  return self->mean;
}

const double *
qd_ensemble_plot_get_low (QdEnsemblePlot *self)
{
  return self->low;
}

const double *
qd_ensemble_plot_get_high (QdEnsemblePlot *self)
{
  return self->high;
}

/* ---- drawing -------------------------------------------------------- */

static void
init_options (QdEnsemblePlot      *self,
              QdPlotRenderOptions *o,
              QdPlotSeries        *axis,
              const QdPlotStyle   *style)
{
  qd_plot_render_options_init (o);
  /* One empty series, drawn as nothing: the renderer names the value
   * axis after it as in every other plot ("prey" of "/Scope/prey"). */
  memset (axis, 0, sizeof *axis);
  axis->trace = self->axis_trace;
  axis->label = self->signal != NULL && strrchr (self->signal, '/') != NULL
                ? strrchr (self->signal, '/') + 1 : self->signal;
  axis->visible = TRUE;
  o->series = axis;
  o->n_series = self->axis_trace != NULL && axis->label != NULL ? 1 : 0;
  o->x_min = self->t0;
  o->x_max = self->n_grid > 1 ? self->t0 + (self->n_grid - 1) * self->step : self->t0 + 1.0;
  o->y_min = self->y_min;
  o->y_max = self->y_max;
  o->draw_grid = TRUE;
  o->draw_axes = TRUE;
  o->draw_legend = FALSE;
  o->draw_background = TRUE;
  o->style = style;
}

static double
grid_time (QdEnsemblePlot *self,
           guint           p,
           double          x_max)
{
  return MIN (self->t0 + p * self->step, x_max);
}

/* @values on the grid as a path; NaN breaks it. */
static void
path_values (QdEnsemblePlot   *self,
             cairo_t          *cr,
             const QdPlotRect *area,
             const QdPlotRenderOptions *o,
             const double     *values)
{
  gboolean pen = FALSE;
  double sx = area->width / (o->x_max - o->x_min);
  double sy = area->height / (o->y_max - o->y_min);

  for (guint p = 0; p < self->n_grid; p++)
    {
      double x, y;

      if (!isfinite (values[p]))
        {
          pen = FALSE;
          continue;
        }
      x = area->x + (grid_time (self, p, o->x_max) - o->x_min) * sx;
      y = area->y + area->height - (values[p] - o->y_min) * sy;
      if (pen)
        cairo_line_to (cr, x, y);
      else
        cairo_move_to (cr, x, y);
      pen = TRUE;
    }
}

/* The band between the percentiles, one polygon per stretch where both
 * are known. */
static void
fill_band (QdEnsemblePlot            *self,
           cairo_t                   *cr,
           const QdPlotRect          *area,
           const QdPlotRenderOptions *o)
{
  double sx = area->width / (o->x_max - o->x_min);
  double sy = area->height / (o->y_max - o->y_min);
  guint p = 0;

  while (p < self->n_grid)
    {
      guint start, end;

      while (p < self->n_grid && !(isfinite (self->low[p]) && isfinite (self->high[p])))
        p++;
      start = p;
      while (p < self->n_grid && isfinite (self->low[p]) && isfinite (self->high[p]))
        p++;
      end = p;
      if (end <= start)
        continue;
      for (guint q = start; q < end; q++)
        cairo_line_to (cr, area->x + (grid_time (self, q, o->x_max) - o->x_min) * sx,
                       area->y + area->height - (self->high[q] - o->y_min) * sy);
      for (guint q = end; q-- > start;)
        cairo_line_to (cr, area->x + (grid_time (self, q, o->x_max) - o->x_min) * sx,
                       area->y + area->height - (self->low[q] - o->y_min) * sy);
      cairo_close_path (cr);
      cairo_fill (cr);
    }
}

static void
set_color (cairo_t           *cr,
           const QdPlotColor *color,
           double             alpha)
{
  cairo_set_source_rgba (cr, color->red, color->green, color->blue, alpha);
}

/* A key in the top right corner of the area: what the three layers are. */
static void
draw_key (QdEnsemblePlot    *self,
          cairo_t           *cr,
          const QdPlotRect  *area,
          const QdPlotStyle *style)
{
  g_autofree char *runs = g_strdup_printf (ngettext ("%u run", "%u runs",
                                                        self->curves->len),
                                           self->curves->len);
  const char *labels[] = { runs, _("mean"), _("5–95 % band") };
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string ("Sans 9");
  double width = 0.0, row = 16.0, x, y;

  pango_layout_set_font_description (layout, font);
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    {
      int w, h;

      pango_layout_set_text (layout, labels[i], -1);
      pango_layout_get_pixel_size (layout, &w, &h);
      width = MAX (width, w);
    }
  x = area->x + area->width - width - 40.0;
  y = area->y + 8.0;
  set_color (cr, &style->legend_background, 0.85);
  cairo_rectangle (cr, x - 6.0, y - 4.0, width + 40.0, row * 3 + 8.0);
  cairo_fill (cr);
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    {
      double cy = y + row * i + row / 2;

      if (i == 2)
        {
          set_color (cr, &band_color, band_color.alpha);
          cairo_rectangle (cr, x, cy - 5.0, 22.0, 10.0);
          cairo_fill (cr);
        }
      else
        {
          set_color (cr, i == 0 ? &run_color : &mean_color, i == 0 ? 0.6 : 1.0);
          cairo_set_line_width (cr, i == 0 ? 1.0 : 2.5);
          cairo_move_to (cr, x, cy);
          cairo_line_to (cr, x + 22.0, cy);
          cairo_stroke (cr);
        }
      set_color (cr, &style->text, 1.0);
      pango_layout_set_text (layout, labels[i], -1);
      cairo_move_to (cr, x + 28.0, cy - 8.0);
      pango_cairo_show_layout (cr, layout);
    }
  pango_font_description_free (font);
  g_object_unref (layout);
}

/* No curve: say why rather than show empty axes. */
static void
draw_empty (QdEnsemblePlot    *self,
            cairo_t           *cr,
            double             width,
            double             height,
            const QdPlotStyle *style)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string ("Sans 10");
  int w, h;

  set_color (cr, &style->background, 1.0);
  cairo_paint (cr);
  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, self->job == NULL ? _("Each run of the sweep will be drawn here.")
                                                   : _("No run has this signal: they all failed."), -1);
  pango_layout_get_pixel_size (layout, &w, &h);
  set_color (cr, &style->text, 0.6);
  cairo_move_to (cr, (width - w) / 2.0, (height - h) / 2.0);
  pango_cairo_show_layout (cr, layout);
  pango_font_description_free (font);
  g_object_unref (layout);
}

/* Everything but the highlighted run. */
static void
draw_base (QdEnsemblePlot    *self,
           cairo_t           *cr,
           double             width,
           double             height,
           const QdPlotStyle *style)
{
  QdPlotRenderOptions o;
  QdPlotSeries axis;
  QdPlotRect area;
  /* Faint enough that a hundred runs make a cloud, not a blot. */
  double alpha = CLAMP (6.0 / MAX (self->curves->len, 1), 0.05, 0.6);

  init_options (self, &o, &axis, style);
  if (self->curves->len == 0)
    {
      draw_empty (self, cr, width, height, style);
      return;
    }
  qd_plot_render (cr, &o, width, height);
  qd_plot_render_get_area (&o, width, height, &area);
  cairo_save (cr);
  cairo_rectangle (cr, area.x, area.y, area.width, area.height);
  cairo_clip (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  cairo_set_line_width (cr, 1.0);
  set_color (cr, &run_color, alpha);
  for (guint c = 0; c < self->curves->len; c++)
    {
      path_values (self, cr, &area, &o, g_ptr_array_index (self->curves, c));
      cairo_stroke (cr);
    }
  set_color (cr, &band_color, band_color.alpha);
  fill_band (self, cr, &area, &o);
  set_color (cr, &band_color, 0.9);
  cairo_set_line_width (cr, 1.0);
  path_values (self, cr, &area, &o, self->low);
  path_values (self, cr, &area, &o, self->high);
  cairo_stroke (cr);
  set_color (cr, &mean_color, 1.0);
  cairo_set_line_width (cr, 2.5);
  path_values (self, cr, &area, &o, self->mean);
  cairo_stroke (cr);
  cairo_restore (cr);
  draw_key (self, cr, &area, style);
}

/* The curve of the run at @index of the results, or NULL. */
static const double *
curve_of (QdEnsemblePlot *self,
          int             index)
{
  for (guint c = 0; c < self->indices->len; c++)
    if ((int) g_array_index (self->indices, guint, c) == index)
      return g_ptr_array_index (self->curves, c);
  return NULL;
}

static int
index_of (QdEnsemblePlot      *self,
          const QdSweepResult *result)
{
  guint index;

  if (result == NULL || self->results == NULL
      || !g_ptr_array_find (self->results, result, &index))
    return -1;
  return (int) index;
}

static void
draw_highlight (QdEnsemblePlot    *self,
                cairo_t           *cr,
                double             width,
                double             height,
                const QdPlotStyle *style)
{
  const double *selected = curve_of (self, index_of (self, self->selected));
  const double *hovered = curve_of (self, self->highlight);
  QdPlotRenderOptions o;
  QdPlotSeries axis;
  QdPlotRect area;

  if (selected == NULL && hovered == NULL)
    return;
  init_options (self, &o, &axis, style);
  qd_plot_render_get_area (&o, width, height, &area);
  cairo_save (cr);
  cairo_rectangle (cr, area.x, area.y, area.width, area.height);
  cairo_clip (cr);
  cairo_set_line_join (cr, CAIRO_LINE_JOIN_ROUND);
  /* The run selected in the table in the runs' colour, the one under
   * the pointer in the text's. */
  if (selected != NULL)
    {
      set_color (cr, &run_color, 1.0);
      cairo_set_line_width (cr, 2.5);
      path_values (self, cr, &area, &o, selected);
      cairo_stroke (cr);
    }
  if (hovered != NULL)
    {
      set_color (cr, style == NULL ? &highlight_color : &style->text, 1.0);
      cairo_set_line_width (cr, 2.0);
      path_values (self, cr, &area, &o, hovered);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
}

void
qd_ensemble_plot_draw (QdEnsemblePlot *self,
                       cairo_t        *cr,
                       double          width,
                       double          height)
{
  QdPlotStyle style;

  /* Files keep the light style, which prints. */
  qd_plot_style_init_light (&style);
  draw_base (self, cr, width, height, &style);
  draw_highlight (self, cr, width, height, &style);
}

static void
draw_to_file (cairo_t  *cr,
              gpointer  data)
{
  gpointer *args = data;

  qd_ensemble_plot_draw (args[0], cr, *(int *) args[1], *(int *) args[2]);
}

gboolean
qd_ensemble_plot_export (QdEnsemblePlot *self,
                         const char     *path,
                         int             width,
                         int             height,
                         GError        **error)
{
  QdImageFormat format = qd_image_format_for_path (path);
  gpointer args[3] = { self, &width, &height };
  cairo_status_t status;

  /* As the other plots: a name without .svg or .pdf is a PNG. */
  if (format == QD_IMAGE_FORMAT_UNKNOWN)
    format = QD_IMAGE_FORMAT_PNG;
  status = qd_image_write (path, format, width, height, draw_to_file, args);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_IO,
                   _("%s: cannot write the plot: %s; check that the folder exists and is writable"),
                   path, cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}

static void
widget_style (GtkWidget   *widget,
              QdPlotStyle *style)
{
  GdkRGBA fg;

  /* A light text colour means a dark theme, as in the other plots. */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  if (0.299 * fg.red + 0.587 * fg.green + 0.114 * fg.blue > 0.5)
    qd_plot_style_init_dark (style);
  else
    qd_plot_style_init_light (style);
}

static void
qd_ensemble_plot_snapshot (GtkWidget   *widget,
                           GtkSnapshot *snapshot)
{
  QdEnsemblePlot *self = QD_ENSEMBLE_PLOT (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  int scale = gtk_widget_get_scale_factor (widget);
  QdPlotStyle style;
  cairo_t *cr;

  if (width <= 0 || height <= 0)
    return;
  widget_style (widget, &style);
  if (self->cache == NULL || self->cache_width != width || self->cache_height != height
      || self->cache_scale != scale)
    {
      g_clear_pointer (&self->cache, cairo_surface_destroy);
      self->cache = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale, height * scale);
      cairo_surface_set_device_scale (self->cache, scale, scale);
      cr = cairo_create (self->cache);
      draw_base (self, cr, width, height, &style);
      cairo_destroy (cr);
      self->cache_width = width;
      self->cache_height = height;
      self->cache_scale = scale;
    }
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_set_source_surface (cr, self->cache, 0, 0);
  cairo_paint (cr);
  draw_highlight (self, cr, width, height, &style);
  cairo_destroy (cr);
}

/* ---- hovering ------------------------------------------------------- */

int
qd_ensemble_plot_pick (QdEnsemblePlot *self,
                       double          x,
                       double          y)
{
  QdPlotRenderOptions o;
  QdPlotSeries axis;
  QdPlotRect area;
  double best = PICK_DISTANCE, t, f, sy;
  int found = -1;
  guint p;

  if (self->n_grid < 2 || self->curves->len == 0)
    return -1;
  init_options (self, &o, &axis, NULL);
  qd_plot_render_get_area (&o, gtk_widget_get_width (GTK_WIDGET (self)),
                           gtk_widget_get_height (GTK_WIDGET (self)), &area);
  if (x < area.x || x > area.x + area.width || y < area.y || y > area.y + area.height)
    return -1;
  /* The curves are straight between grid points: their height at the
   * pointer's time, interpolated. */
  t = o.x_min + (x - area.x) / area.width * (o.x_max - o.x_min);
  f = (t - self->t0) / self->step;
  p = (guint) CLAMP (floor (f), 0.0, self->n_grid - 2.0);
  f = CLAMP (f - p, 0.0, 1.0);
  sy = area.height / (o.y_max - o.y_min);
  for (guint c = 0; c < self->curves->len; c++)
    {
      const double *curve = g_ptr_array_index (self->curves, c);
      double v = curve[p] + f * (curve[p + 1] - curve[p]);
      double d = fabs (area.y + area.height - (v - o.y_min) * sy - y);

      if (isfinite (v) && d < best)
        {
          best = d;
          found = (int) g_array_index (self->indices, guint, c);
        }
    }
  return found;
}

void
qd_ensemble_plot_set_highlight (QdEnsemblePlot *self,
                                int             index)
{
  g_return_if_fail (QD_IS_ENSEMBLE_PLOT (self));

  if (index == self->highlight)
    return;
  self->highlight = index;
  g_clear_pointer (&self->highlight_text, g_free);
  if (index >= 0 && self->job != NULL)
    {
      const QdSweepResult *result = g_ptr_array_index (self->results, index);
      g_autofree char *values = qd_sweep_job_describe_run (self->job, result);

      /* TRANSLATORS: the run under the pointer: its number and the
       * values of the variables varied ("m = 0.1, beta = 0.05"). */
      self->highlight_text = g_strdup_printf (_("Run %" PRIu64 ": %s"), result->run, values);
    }
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), self->highlight_text);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals[SIGNAL_HIGHLIGHT_CHANGED], 0);
}

void
qd_ensemble_plot_set_selected (QdEnsemblePlot      *self,
                               const QdSweepResult *result)
{
  g_return_if_fail (QD_IS_ENSEMBLE_PLOT (self));

  self->selected = index_of (self, result) >= 0 ? result : NULL;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

const QdSweepResult *
qd_ensemble_plot_get_selected (QdEnsemblePlot *self)
{
  return self->selected;
}

int
qd_ensemble_plot_get_highlight (QdEnsemblePlot *self)
{
  return self->highlight;
}

const char *
qd_ensemble_plot_get_highlight_text (QdEnsemblePlot *self)
{
  return self->highlight_text;
}

static void
on_motion (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           QdEnsemblePlot           *self)
{
  qd_ensemble_plot_set_highlight (self, qd_ensemble_plot_pick (self, x, y));
}

static void
on_leave (GtkEventControllerMotion *motion,
          QdEnsemblePlot           *self)
{
  qd_ensemble_plot_set_highlight (self, -1);
}

/* ---- the widget ----------------------------------------------------- */

static void
qd_ensemble_plot_dispose (GObject *object)
{
  QdEnsemblePlot *self = QD_ENSEMBLE_PLOT (object);

  clear_data (self);
  g_clear_object (&self->job);
  g_clear_pointer (&self->cache, cairo_surface_destroy);
  g_clear_pointer (&self->axis_trace, qd_trace_unref);
  G_OBJECT_CLASS (qd_ensemble_plot_parent_class)->dispose (object);
}

static void
qd_ensemble_plot_finalize (GObject *object)
{
  QdEnsemblePlot *self = QD_ENSEMBLE_PLOT (object);

  g_ptr_array_unref (self->curves);
  g_array_unref (self->indices);
  G_OBJECT_CLASS (qd_ensemble_plot_parent_class)->finalize (object);
}

static void
qd_ensemble_plot_size_allocate (GtkWidget *widget,
                                int        width,
                                int        height,
                                int        baseline)
{
  invalidate (QD_ENSEMBLE_PLOT (widget));
}

static void
qd_ensemble_plot_class_init (QdEnsemblePlotClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = qd_ensemble_plot_dispose;
  object_class->finalize = qd_ensemble_plot_finalize;
  widget_class->snapshot = qd_ensemble_plot_snapshot;
  widget_class->size_allocate = qd_ensemble_plot_size_allocate;
  gtk_widget_class_set_css_name (widget_class, "qd-ensemble-plot");
  signals[SIGNAL_HIGHLIGHT_CHANGED] =
    g_signal_new ("highlight-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
qd_ensemble_plot_init (QdEnsemblePlot *self)
{
  GtkEventController *motion = gtk_event_controller_motion_new ();

  self->curves = g_ptr_array_new ();
  self->axis_trace = qd_trace_new ("");
  self->indices = g_array_new (FALSE, FALSE, sizeof (guint));
  self->highlight = -1;
  g_signal_connect (motion, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (motion, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), motion);
  gtk_widget_set_size_request (GTK_WIDGET (self), 320, 220);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
}

GtkWidget *
qd_ensemble_plot_new (void)
{
  return g_object_new (QD_TYPE_ENSEMBLE_PLOT, NULL);
}

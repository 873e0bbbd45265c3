/* qd-plot.c: the live plot of the QDevs editor
 *
 * Like Sysprof's charts: the traces are append-only stores a worker
 * fills; the widget polls their lengths on the frame clock (a few atomic
 * loads per trace and frame), queues a draw only when something changed
 * (and for growing traces at most 10 times a second, so that the
 * drawing leaves the processor to the simulation), and draws in
 * snapshot() through the Cairo renderer shared with export, into an
 * image that the frame then only copies.
 * Each trace keeps its per-column cache, so a frame during a live run only
 * reads the segments appended since the previous one.
 *
 * Autoscale follows a running simulation with a time axis that grows in
 * 1-2-5 steps rather than every frame: a fixed view keeps the column
 * caches valid, and the curve does not creep across the screen.
 */
#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#include "qd-plot-menu.h"
#include "qd-plot-private.h"
#include "qd-plot-render.h"

/* While traces grow, at most one redraw per this many microseconds
 * (10 a second): drawing competes with the simulation's worker for the
 * processor, and a curve growing 60 times a second does not read better
 * than one growing 10 times. Input (pan, zoom, the cursor) redraws at
 * once, at the frame rate. */
#define GROW_REDRAW_INTERVAL 100000

enum
{
  PROP_0,
  PROP_AUTOSCALE,
  PROP_LAYOUT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

G_DEFINE_FINAL_TYPE (QdPlot, qd_plot, GTK_TYPE_WIDGET)

static void
series_free (gpointer data)
{
  QdPlotTraceSeries *s = data;

  qd_trace_unref (s->trace);
  g_free (s->label);
  g_free (s->name);
  qd_plot_columns_free (s->columns);
  g_free (s);
}

/* The earlier runs' series of the XY traces' signals, as pairs (by
 * trace name: the same Scope input in every run of the diagram). */
static void
xy_earlier_pairs (QdPlot              *self,
                  QdPlotRenderOptions *o)
{
  const char *x_name = qd_trace_get_name (self->xy_series[0]->trace);
  const char *y_name = qd_trace_get_name (self->xy_series[1]->trace);

  g_array_set_size (self->xy_pairs, 0);
  for (guint i = 0; i < self->earlier->len; i++)
    {
      QdPlotTraceSeries *sx = g_ptr_array_index (self->earlier, i);

      if (g_strcmp0 (qd_trace_get_name (sx->trace), x_name) != 0)
        continue;
      for (guint j = 0; j < self->earlier->len; j++)
        {
          QdPlotTraceSeries *sy = g_ptr_array_index (self->earlier, j);

          if (sy->run == sx->run && g_strcmp0 (qd_trace_get_name (sy->trace), y_name) == 0)
            {
              g_array_append_val (self->xy_pairs, i);
              g_array_append_val (self->xy_pairs, j);
              break;
            }
        }
    }
  o->xy_pairs = (const guint *) self->xy_pairs->data;
  o->n_xy_pairs = self->xy_pairs->len / 2;
}

static QdPlotTraceSeries *
series_new (QdTrace           *trace,
            const char        *name,
            const char        *label,
            const QdPlotColor *color)
{
  QdPlotTraceSeries *s = g_new0 (QdPlotTraceSeries, 1);

  s->trace = qd_trace_ref (trace);
  s->name = g_strdup (name);
  s->label = g_strdup (label);
  s->color = *color;
  s->visible = TRUE;
  s->columns = qd_plot_columns_new ();
  s->seen_length = G_MAXSIZE;
  return s;
}

/* Render options for the widget's state; @series is filled with the
 * earlier runs first, then the current ones (free it with g_free). */
static void
fill_options (QdPlot              *self,
              QdPlotRenderOptions *o,
              QdPlotSeries       **series,
              gboolean             with_caches)
{
  guint n = self->earlier->len + self->current->len, k = 0, signal = 0;
  QdPlotSeries *out = g_new0 (QdPlotSeries, n + 2);

  for (int pass = 0; pass < 2; pass++)
    {
      GPtrArray *list = pass == 0 ? self->earlier : self->current;

      for (guint i = 0; i < list->len; i++)
        {
          QdPlotTraceSeries *s = g_ptr_array_index (list, i);

          out[k].trace = s->trace;
          out[k].label = s->label;
          out[k].color = s->color;
          out[k].visible = s->visible;
          out[k].earlier = s->earlier;
          out[k].columns = with_caches ? s->columns : NULL;
          if (s->earlier)
            {
              /* Signals of one run differ by their dashes. */
              signal = k > 0 && out[k - 1].earlier
                       && ((QdPlotTraceSeries *) g_ptr_array_index (list, i - 1))->run == s->run
                       ? signal + 1 : 0;
              qd_plot_runs_fill_series (&self->runs, &out[k], s->run, signal);
            }
          k++;
        }
    }
  qd_plot_render_options_init (o);
  g_free (self->run_title);
  self->run_title = qd_plot_runs_fill_options (&self->runs, o);
  o->series = out;
  o->n_series = n;
  o->mode = self->mode;
  o->x_min = self->x_min;
  o->x_max = self->x_max;
  o->y_min = self->y_min;
  o->y_max = self->y_max;
  o->t_end = self->t_end;
  o->xy = self->xy && self->xy_x < self->current->len && self->xy_y < self->current->len;
  o->xy_x = self->earlier->len + self->xy_x;
  o->xy_y = self->earlier->len + self->xy_y;
  if (self->xy_series[0] != NULL)
    {
      for (guint j = 0; j < 2; j++)
        {
          QdPlotTraceSeries *s = self->xy_series[j];

          out[n + j].trace = s->trace;
          out[n + j].label = s->label;
          out[n + j].color = s->color;
          out[n + j].visible = TRUE;
          out[n + j].columns = with_caches ? s->columns : NULL;
        }
      o->n_series = n + 2;
      o->xy = TRUE;
      o->xy_x = n;
      o->xy_y = n + 1;
      xy_earlier_pairs (self, o);
    }
  qd_plot_fill_axes (self, o);
  *series = out;
}

/* Widens a degenerate or tight range so the data does not touch the
 * frame. */
void
qd_plot_pad_range (double *lo,
                   double *hi,
                   double  fraction)
{
  double span = *hi - *lo;

  if (!(span > 0.0))
    {
      double half = fabs (*lo) > 0.0 ? 0.1 * fabs (*lo) : 1.0;

      *lo -= half;
      *hi += half;
      return;
    }
  *lo -= fraction * span;
  *hi += fraction * span;
}

/* The time span of the visible traces: where they start, where the
 * finished ones (earlier runs among them) end, and where the ones still
 * being written have got to. */
static gboolean
time_extent (QdPlot *self,
             double *start,
             double *closed_end,
             double *open_end)
{
  *start = INFINITY;
  *closed_end = *open_end = -INFINITY;
  for (int pass = 0; pass < 2; pass++)
    {
      GPtrArray *list = pass == 0 ? self->earlier : self->current;

      for (guint i = 0; i < list->len; i++)
        {
          QdPlotTraceSeries *s = g_ptr_array_index (list, i);
          gsize n = qd_trace_get_length (s->trace);
          double end;

          if (!s->visible || n == 0)
            continue;
          *start = MIN (*start, qd_trace_get_start_time (s->trace));
          if (qd_trace_is_closed (s->trace, &end))
            *closed_end = MAX (*closed_end, end);
          else
            *open_end = MAX (*open_end, qd_trace_get_last_time (s->trace));
        }
    }
  return isfinite (*start);
}

/* The smallest time span worth an axis, from @x0: a span of zero (one
 * event) or one below what doubles resolve near @x0 would be labelled in
 * units of 1e-300. The run's final time when known, else one unit (or
 * more, far from zero). */
static double
min_time_span (QdPlot *self,
               double  x0)
{
  if (isfinite (self->hint_final) && self->hint_final > x0
      && self->hint_final - x0 > 1e-9 * fabs (x0))
    return self->hint_final - x0;
  return MAX (1e-9 * fabs (x0), 1.0);
}

/* Where the time axis from @x0 ends. A finished run: where its traces
 * end. While running: the span rounded up to 1, 2 or 5 x 10^k, so the
 * view (and the column caches) change a few times per decade, and not
 * at all within the span of a finished run; never beyond the run's
 * final time when known, where the axis stops for good. */
static void
time_axis (QdPlot *self,
           double  x0,
           double  closed_end,
           double  open_end,
           double *x1)
{
  double end = closed_end;

  if (isfinite (open_end) && !(open_end <= closed_end))
    {
      double span = open_end - x0;

      end = x0 + qd_plot_nice_ceil (MAX (span * 1.02, 1e-300));
      if (isfinite (self->hint_final) && end > self->hint_final
          && self->hint_final >= open_end)
        end = MAX (self->hint_final, closed_end);
    }
  if (!(end - x0 >= 1e-9 * fabs (x0)) || !(end - x0 > 1e-100))
    end = x0 + min_time_span (self, x0);
  *x1 = end;
}

/* Fits the view to the data, for an output @width pixels wide (the
 * value range is found from per-column extremes at that width). */
static void
autoscale_view_for_width (QdPlot *self,
                          int     width,
                          gboolean with_caches)
{
  QdPlotRenderOptions o;
  QdPlotSeries *series;
  double x0, x1, y0, y1, closed_end, open_end;

  if (width <= 0)
    return;
  fill_options (self, &o, &series, with_caches);
  if (o.xy)
    {
      if (!qd_plot_render_get_x_extent (&o, &x0, &x1))
        goto out;
      qd_plot_pad_range (&x0, &x1, 0.05);
    }
  else
    {
      if (!time_extent (self, &x0, &closed_end, &open_end))
        goto out;
      time_axis (self, x0, closed_end, open_end, &x1);
      if (!(x1 > x0))
        qd_plot_pad_range (&x0, &x1, 0.05);
    }
  o.x_min = x0;
  o.x_max = x1;
  if (self->ax.axes.n_axes > 1 && !o.xy)
    {
      /* Each axis fitted to its own signals. */
      qd_plot_fit_axes (self, &o, width);
      self->y_min = self->ax.axis_y[0];
      self->y_max = self->ax.axis_y[1];
    }
  else if (qd_plot_render_get_y_extent (&o, width, &y0, &y1))
    {
      qd_plot_pad_range (&y0, &y1, 0.05);
      self->y_min = y0;
      self->y_max = y1;
    }
  self->x_min = x0;
  self->x_max = x1;
out:
  g_free (series);
}

static void
autoscale_view (QdPlot *self)
{
  autoscale_view_for_width (self, gtk_widget_get_width (GTK_WIDGET (self)), TRUE);
}

/* The latest event time over the current traces: where the open last
 * segments are drawn to while the run goes on. */
static double
latest_time (QdPlot *self)
{
  double t = -INFINITY;

  for (guint i = 0; i < self->current->len; i++)
    {
      QdPlotTraceSeries *s = g_ptr_array_index (self->current, i);
      gsize n = qd_trace_get_length (s->trace);

      if (n > 0)
        t = MAX (t, qd_trace_get_last_time (s->trace));
    }
  return t;
}

static gboolean
on_tick (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       user_data)
{
  QdPlot *self = QD_PLOT (widget);
  gboolean all_closed = TRUE;

  for (int pass = 0; pass < 2; pass++)
    {
      GPtrArray *list = pass == 0 ? self->earlier : self->current;

      for (guint i = 0; i < list->len; i++)
        {
          QdPlotTraceSeries *s = g_ptr_array_index (list, i);
          gsize n = qd_trace_get_length (s->trace);
          gboolean closed = qd_trace_is_closed (s->trace, NULL);

          if (n != s->seen_length || closed != s->seen_closed)
            {
              s->seen_length = n;
              s->seen_closed = closed;
              self->grown = TRUE;
            }
          all_closed &= closed;
        }
    }
  /* Nothing can grow and nothing waits: stop asking for frames, which
   * would otherwise come 60 times a second for as long as the plot is
   * shown. Any change of the view starts the ticks again. */
  if (all_closed && !self->grown && !self->dirty)
    {
      self->tick_id = 0;
      return G_SOURCE_REMOVE;
    }
  /* Growth is drawn in the first frame of each interval of the clock
   * (not an interval after the last redraw): the run bar changes on the
   * same boundaries, and both changes then cost one redraw of the
   * window. */
  if (self->grown && !self->dirty
      && gdk_frame_clock_get_frame_time (clock) / GROW_REDRAW_INTERVAL
         == self->last_redraw / GROW_REDRAW_INTERVAL)
    return G_SOURCE_CONTINUE;
  if (self->dirty || self->grown)
    {
      self->dirty = FALSE;
      self->grown = FALSE;
      self->last_redraw = gdk_frame_clock_get_frame_time (clock);
      self->t_end = latest_time (self);
      if (self->autoscale)
        autoscale_view (self);
      gtk_widget_queue_draw (widget);
    }
  return G_SOURCE_CONTINUE;
}

static void
ensure_ticking (QdPlot *self)
{
  if (self->tick_id == 0)
    self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), on_tick, NULL, NULL);
}

void
qd_plot_view_changed (QdPlot *self)
{
  self->dirty = TRUE;
  ensure_ticking (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
qd_plot_set_autoscale_internal (QdPlot   *self,
                                gboolean  autoscale)
{
  if (self->autoscale == autoscale)
    return;
  self->autoscale = autoscale;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_AUTOSCALE]);
}

/* Drawing */

static void
qd_plot_snapshot (GtkWidget   *widget,
                  GtkSnapshot *snapshot)
{
  QdPlot *self = QD_PLOT (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  QdPlotRenderOptions o;
  QdPlotSeries *series;
  QdPlotStyle style;
  cairo_surface_t *image;
  cairo_t *cr;
  int scale;

  if (width <= 0 || height <= 0)
    return;
  self->n_draws++;
  fill_options (self, &o, &series, TRUE);
  {
    GdkRGBA fg;

    /* A light text colour means a dark theme: follow it. Exports keep
     * the light style, which prints. */
    G_GNUC_BEGIN_IGNORE_DEPRECATIONS
    gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
    G_GNUC_END_IGNORE_DEPRECATIONS
    if (0.299 * fg.red + 0.587 * fg.green + 0.114 * fg.blue > 0.5)
      qd_plot_style_init_dark (&style);
    else
      qd_plot_style_init_light (&style);
    o.style = &style;
  }
  o.has_cursor = self->has_cursor && self->drag_kind == QD_PLOT_DRAG_NONE;
  o.cursor_x = self->pointer_x;
  if (self->drag_kind == QD_PLOT_DRAG_BOX)
    {
      o.has_box = TRUE;
      o.box.x = MIN (self->drag_x, self->drag_x + self->drag_dx);
      o.box.y = MIN (self->drag_y, self->drag_y + self->drag_dy);
      o.box.width = fabs (self->drag_dx);
      o.box.height = fabs (self->drag_dy);
    }
  /* Into an image of our own, which the Cairo node then only paints:
   * drawing into the node directly records every rectangle and line of
   * the curves and replays them all when the frame is rendered, which
   * cost GTK's Cairo renderer more than the drawing itself. (A texture
   * node instead would be converted pixel by pixel by GTK 4.8.) */
  scale = gtk_widget_get_scale_factor (widget);
  image = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width * scale, height * scale);
  cairo_surface_set_device_scale (image, scale, scale);
  cr = cairo_create (image);
  qd_plot_render (cr, &o, width, height);
  cairo_destroy (cr);
  g_free (series);

  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_set_source_surface (cr, image, 0, 0);
  cairo_paint (cr);
  cairo_destroy (cr);
  cairo_surface_destroy (image);
}

static void
qd_plot_size_allocate (GtkWidget *widget,
                       int        width,
                       int        height,
                       int        baseline)
{
  QdPlot *self = QD_PLOT (widget);

  /* New column count: autoscale again with the new width. Only then:
   * the window lays out again whenever a label of the run bar changes,
   * and that must not redraw the plot past its growth interval. */
  qd_plot_menu_present (self);
  if (width != self->alloc_width || height != self->alloc_height)
    {
      self->alloc_width = width;
      self->alloc_height = height;
      self->dirty = TRUE;
      ensure_ticking (self);
    }
}

static void
qd_plot_measure (GtkWidget      *widget,
                 GtkOrientation  orientation,
                 int             for_size,
                 int            *minimum,
                 int            *natural,
                 int            *minimum_baseline,
                 int            *natural_baseline)
{
  *minimum = orientation == GTK_ORIENTATION_HORIZONTAL ? 160 : 100;
  *natural = orientation == GTK_ORIENTATION_HORIZONTAL ? 480 : 280;
}

static void
reset_view_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  qd_plot_reset_view (QD_PLOT (widget));
}

/* GObject */

static void
qd_plot_dispose (GObject *object)
{
  QdPlot *self = QD_PLOT (object);

  g_clear_pointer (&self->current, g_ptr_array_unref);
  g_clear_pointer (&self->earlier, g_ptr_array_unref);
  qd_plot_axes_state_clear (&self->ax);
  g_clear_pointer (&self->xy_series[0], series_free);
  g_clear_pointer (&self->xy_series[1], series_free);
  qd_plot_menu_detach (self);
  g_clear_pointer (&self->xy_pairs, g_array_unref);
  qd_plot_run_list_clear (&self->runs);
  g_clear_pointer (&self->run_title, g_free);
  G_OBJECT_CLASS (qd_plot_parent_class)->dispose (object);
}

static void
qd_plot_get_property (GObject    *object,
                      guint       prop_id,
                      GValue     *value,
                      GParamSpec *pspec)
{
  QdPlot *self = QD_PLOT (object);

  switch (prop_id)
    {
    case PROP_AUTOSCALE:
      g_value_set_boolean (value, self->autoscale);
      break;
    case PROP_LAYOUT:
      g_value_set_string (value, qd_plot_layout_kind_to_string (self->ax.layout));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
qd_plot_set_property (GObject      *object,
                      guint         prop_id,
                      const GValue *value,
                      GParamSpec   *pspec)
{
  QdPlot *self = QD_PLOT (object);

  switch (prop_id)
    {
    case PROP_AUTOSCALE:
      qd_plot_set_autoscale (self, g_value_get_boolean (value));
      break;
    case PROP_LAYOUT:
      {
        QdPlotLayoutKind kind;

        if (qd_plot_layout_kind_from_string (g_value_get_string (value), &kind))
          qd_plot_set_layout (self, kind);
      }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
qd_plot_class_init (QdPlotClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = qd_plot_dispose;
  object_class->get_property = qd_plot_get_property;
  object_class->set_property = qd_plot_set_property;
  widget_class->snapshot = qd_plot_snapshot;
  widget_class->measure = qd_plot_measure;
  widget_class->size_allocate = qd_plot_size_allocate;

  properties[PROP_AUTOSCALE] =
    g_param_spec_boolean ("autoscale", NULL, NULL, TRUE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* "single", "subplots" or "axes" (qd-plot-subplots.h). */
  properties[PROP_LAYOUT] =
    g_param_spec_string ("layout", NULL, NULL, "single",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_install_property_action (widget_class, "plot.layout", "layout");
  gtk_widget_class_install_action (widget_class, "plot.reset-view", NULL, reset_view_action);

  gtk_widget_class_set_css_name (widget_class, "qdplot");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
qd_plot_init (QdPlot *self)
{
  GtkWidget *widget = GTK_WIDGET (self);

  self->current = g_ptr_array_new_with_free_func (series_free);
  self->earlier = g_ptr_array_new_with_free_func (series_free);
  qd_plot_run_list_init (&self->runs);
  self->xy_pairs = g_array_new (FALSE, FALSE, sizeof (guint));
  self->autoscale = TRUE;
  self->mode = QD_PLOT_MODE_EXACT;
  self->x_max = self->y_max = 1.0;
  self->t_end = -INFINITY;
  self->dirty = TRUE;
  self->hint_final = NAN;

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_cursor_from_name (widget, "crosshair");

  qd_plot_pointer_attach (self);
  qd_plot_axes_state_init (&self->ax);

  ensure_ticking (self);
  qd_plot_menu_attach (self);
}

/* Public API */

GtkWidget *
qd_plot_new (void)
{
  return g_object_new (QD_TYPE_PLOT, NULL);
}

guint
qd_plot_add_trace (QdPlot        *self,
                   QdTrace       *trace,
                   const char    *label,
                   const GdkRGBA *color)
{
  static const QdPlotColor none = { 0 };
  QdPlotTraceSeries *s;

  g_return_val_if_fail (QD_IS_PLOT (self), 0);
  g_return_val_if_fail (trace != NULL, 0);

  label = label != NULL ? label : qd_trace_get_name (trace);
  s = series_new (trace, label, label, &none);
  if (color != NULL)
    {
      s->color.red = color->red;
      s->color.green = color->green;
      s->color.blue = color->blue;
      s->color.alpha = color->alpha;
    }
  else
    {
      gboolean found = FALSE;

      /* The same signal keeps its colour from run to run (earlier runs
       * are drawn in colours of their own). */
      for (guint i = self->earlier->len; i > 0 && !found; i--)
        {
          QdPlotTraceSeries *e = g_ptr_array_index (self->earlier, i - 1);

          if (g_str_has_prefix (e->label, s->label)
              && (e->label[strlen (s->label)] == '\0' || e->label[strlen (s->label)] == ' '))
            {
              s->color = e->color;
              found = TRUE;
            }
        }
      if (!found)
        qd_plot_palette_color (self->next_color++, &s->color);
    }
  g_ptr_array_add (self->current, s);
  qd_plot_view_changed (self);
  return self->current->len - 1;
}

guint
qd_plot_get_n_traces (QdPlot *self)
{
  g_return_val_if_fail (QD_IS_PLOT (self), 0);
  return self->current->len;
}

void
qd_plot_clear (QdPlot *self)
{
  g_return_if_fail (QD_IS_PLOT (self));
  g_ptr_array_set_size (self->current, 0);
  if (self->earlier->len == 0)
    self->next_color = 0;
  qd_plot_view_changed (self);
}

void
qd_plot_begin_run (QdPlot *self)
{
  gboolean kept = FALSE;
  guint number = 0;

  g_return_if_fail (QD_IS_PLOT (self));

  for (guint i = 0; i < self->current->len; i++)
    {
      QdPlotTraceSeries *s = g_ptr_array_index (self->current, i);
      char *label;

      if (qd_trace_get_length (s->trace) == 0)
        continue;
      if (!kept)
        number = qd_plot_run_list_push_current (&self->runs,
                                                qd_trace_get_budget (s->trace))->number;
      /* TRANSLATORS: a trace of an earlier run in the cursor's readout:
       * "x1 (run 2)". */
      label = g_strdup_printf (_("%s (run %u)"), s->name, number);
      g_free (s->label);
      s->label = label;
      s->run = number;
      s->earlier = TRUE;
      g_ptr_array_add (self->earlier, g_ptr_array_steal_index (self->current, i));
      i--;
      kept = TRUE;
    }
  if (kept)
    self->n_runs_kept++;
  else
    qd_plot_runs_forget_current (&self->runs);
  g_ptr_array_set_size (self->current, 0);
  qd_plot_view_changed (self);
}

void
qd_plot_clear_runs (QdPlot *self)
{
  g_return_if_fail (QD_IS_PLOT (self));
  g_ptr_array_set_size (self->earlier, 0);
  self->n_runs_kept = 0;
  qd_plot_run_list_reset (&self->runs);
  if (self->autoscale)
    autoscale_view (self);
  qd_plot_view_changed (self);
}

void
qd_plot_mark_run_decimated (QdPlot        *self,
                            QdTraceBudget *budget)
{
  g_return_if_fail (QD_IS_PLOT (self));
  g_return_if_fail (budget != NULL);

  for (guint i = 0; i < self->earlier->len; i++)
    {
      QdPlotTraceSeries *s = g_ptr_array_index (self->earlier, i);

      if (qd_trace_get_budget (s->trace) != budget)
        continue;
      g_free (s->label);
      /* TRANSLATORS: an earlier run whose oldest part is kept only as
       * min/max history, to leave memory to later runs: "x1 (run 2,
       * decimated)". */
      s->label = g_strdup_printf (_("%s (run %u, decimated)"), s->name, s->run);
    }
  qd_plot_runs_mark_decimated (&self->runs, budget);
  qd_plot_view_changed (self);
}

guint
qd_plot_get_n_earlier_traces (QdPlot *self)
{
  g_return_val_if_fail (QD_IS_PLOT (self), 0);
  return self->earlier->len;
}

const char *
qd_plot_get_earlier_label (QdPlot *self,
                           guint   index)
{
  g_return_val_if_fail (QD_IS_PLOT (self), NULL);
  g_return_val_if_fail (index < self->earlier->len, NULL);
  return ((QdPlotTraceSeries *) g_ptr_array_index (self->earlier, index))->label;
}

gboolean
qd_plot_drop_run (QdPlot        *self,
                  QdTraceBudget *budget)
{
  gboolean dropped = FALSE;

  g_return_val_if_fail (QD_IS_PLOT (self), FALSE);
  g_return_val_if_fail (budget != NULL, FALSE);

  for (guint i = self->earlier->len; i > 0; i--)
    {
      QdPlotTraceSeries *s = g_ptr_array_index (self->earlier, i - 1);

      if (qd_trace_get_budget (s->trace) == budget)
        {
          g_ptr_array_remove_index (self->earlier, i - 1);
          dropped = TRUE;
        }
    }
  if (qd_plot_runs_drop (&self->runs, budget))
    dropped = TRUE;
  if (dropped)
    {
      if (self->autoscale)
        autoscale_view (self);
      qd_plot_view_changed (self);
    }
  return dropped;
}

guint
qd_plot_get_n_earlier_runs (QdPlot *self)
{
  g_return_val_if_fail (QD_IS_PLOT (self), 0);
  return self->n_runs_kept;
}

void
qd_plot_set_trace_visible (QdPlot   *self,
                           guint     index,
                           gboolean  visible)
{
  QdPlotTraceSeries *s;

  g_return_if_fail (QD_IS_PLOT (self));
  g_return_if_fail (index < self->current->len);
  s = g_ptr_array_index (self->current, index);
  s->visible = !!visible;
  qd_plot_view_changed (self);
}

gboolean
qd_plot_get_trace_visible (QdPlot *self,
                           guint   index)
{
  g_return_val_if_fail (QD_IS_PLOT (self), FALSE);
  g_return_val_if_fail (index < self->current->len, FALSE);
  return ((QdPlotTraceSeries *) g_ptr_array_index (self->current, index))->visible;
}

void
qd_plot_set_mode (QdPlot     *self,
                  QdPlotMode  mode)
{
  g_return_if_fail (QD_IS_PLOT (self));
  self->mode = mode;
  qd_plot_view_changed (self);
}

QdPlotMode
qd_plot_get_mode (QdPlot *self)
{
  g_return_val_if_fail (QD_IS_PLOT (self), QD_PLOT_MODE_EXACT);
  return self->mode;
}

void
qd_plot_set_xy (QdPlot *self,
                int     x_index,
                int     y_index)
{
  g_return_if_fail (QD_IS_PLOT (self));
  g_clear_pointer (&self->xy_series[0], series_free);
  g_clear_pointer (&self->xy_series[1], series_free);
  self->xy = x_index >= 0 && y_index >= 0;
  self->xy_x = self->xy ? (guint) x_index : 0;
  self->xy_y = self->xy ? (guint) y_index : 0;
  /* The axes now mean something else: rescale, now rather than on the
   * next frame, so the view is right as soon as this returns. */
  qd_plot_set_autoscale_internal (self, TRUE);
  autoscale_view (self);
  qd_plot_view_changed (self);
}

void
qd_plot_set_view (QdPlot *self,
                  double  x_min,
                  double  x_max,
                  double  y_min,
                  double  y_max)
{
  g_return_if_fail (QD_IS_PLOT (self));
  g_return_if_fail (x_max > x_min && y_max > y_min);
  qd_plot_set_autoscale_internal (self, FALSE);
  self->x_min = x_min;
  self->x_max = x_max;
  self->y_min = y_min;
  self->y_max = y_max;
  qd_plot_view_changed (self);
}

void
qd_plot_get_view (QdPlot *self,
                  double *x_min,
                  double *x_max,
                  double *y_min,
                  double *y_max)
{
  g_return_if_fail (QD_IS_PLOT (self));
  if (x_min) *x_min = self->x_min;
  if (x_max) *x_max = self->x_max;
  if (y_min) *y_min = self->y_min;
  if (y_max) *y_max = self->y_max;
}

void
qd_plot_set_autoscale (QdPlot   *self,
                       gboolean  autoscale)
{
  g_return_if_fail (QD_IS_PLOT (self));
  qd_plot_set_autoscale_internal (self, !!autoscale);
  if (autoscale)
    autoscale_view (self);
  qd_plot_view_changed (self);
}

void
qd_plot_set_time_range_hint (QdPlot *self,
                             double  start,
                             double  final)
{
  g_return_if_fail (QD_IS_PLOT (self));
  /* The start only tells a final time that cannot be one apart. */
  self->hint_final = isfinite (final) && (!isfinite (start) || final > start) ? final : NAN;
  qd_plot_view_changed (self);
}

gboolean
qd_plot_get_autoscale (QdPlot *self)
{
  g_return_val_if_fail (QD_IS_PLOT (self), FALSE);
  return self->autoscale;
}

void
qd_plot_reset_view (QdPlot *self)
{
  qd_plot_set_autoscale (self, TRUE);
}

guint64
qd_plot_get_n_draws (QdPlot *self)
{
  g_return_val_if_fail (QD_IS_PLOT (self), 0);
  return self->n_draws;
}

/* Export */

gboolean
qd_plot_export (QdPlot        *self,
                const char    *path,
                QdImageFormat  format,
                int            width,
                int            height,
                GError       **error)
{
  QdPlotRenderOptions o;
  QdPlotSeries *series;
  gboolean ok;

  g_return_val_if_fail (QD_IS_PLOT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (width > 0 && height > 0, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* Scratch columns, not the widget's caches: the width differs. */
  if (self->autoscale)
    autoscale_view_for_width (self, width, FALSE);
  fill_options (self, &o, &series, FALSE);
  /* The zoom indicator is for the screen; the file shows the view. */
  self->ax.axes.zoomed = FALSE;
  ok = qd_plot_render_to_file (&o, path, format, width, height, error);
  g_free (series);
  /* The view was fitted to the file's width: fit it again to ours. */
  self->dirty = TRUE;
  ensure_ticking (self);
  return ok;
}

gboolean
qd_plot_export_csv (QdPlot      *self,
                    const char  *path,
                    double       step,
                    GError     **error)
{
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  double start = INFINITY, end = -INFINITY;

  g_return_val_if_fail (QD_IS_PLOT (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (step >= 0.0, FALSE);

  for (guint i = 0; i < self->current->len; i++)
    {
      QdPlotTraceSeries *s = g_ptr_array_index (self->current, i);
      gsize n = qd_trace_get_length (s->trace);
      double e;

      if (!s->visible)
        continue;
      g_ptr_array_add (traces, s->trace);
      if (n == 0)
        continue;
      start = MIN (start, qd_trace_get_start_time (s->trace));
      if (!qd_trace_is_closed (s->trace, &e))
        e = qd_trace_get_last_time (s->trace);
      end = MAX (end, e);
    }
  if (traces->len == 0 || !(start <= end))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("%s: there is no data to export; run the simulation or show a trace first"),
                   path);
      return FALSE;
    }
  return qd_traces_write_csv (traces, start, end, step, path, error);
}

/* For qd-plot-layout.c, qd-plot-earlier.c and qd-plot-pointer.c */

QdPlotTraceSeries *
qd_plot_series_at (QdPlot *self,
                   int     index)
{
  if (index < 0)
    return NULL;
  if ((guint) index < self->earlier->len)
    return g_ptr_array_index (self->earlier, index);
  index -= self->earlier->len;
  if ((guint) index < self->current->len)
    return g_ptr_array_index (self->current, index);
  return NULL;
}

QdPlotRunList *
qd_plot_get_run_list (QdPlot *self)
{
  return &self->runs;
}

QdPlotAxesState *
qd_plot_get_axes_state (QdPlot *self)
{
  return &self->ax;
}

void
qd_plot_get_render_options (QdPlot               *self,
                            QdPlotRenderOptions  *o,
                            QdPlotSeries        **series,
                            gboolean              with_caches)
{
  fill_options (self, o, series, with_caches);
}

const char *
qd_plot_get_series_name (QdPlot *self,
                         guint   index)
{
  QdPlotTraceSeries *s = qd_plot_series_at (self, (int) index);

  return s != NULL ? s->name : NULL;
}

gboolean
qd_plot_get_data_time_span (QdPlot *self,
                            double *start,
                            double *end)
{
  double closed_end, open_end;

  if (!time_extent (self, start, &closed_end, &open_end))
    return FALSE;
  *end = MAX (closed_end, open_end);
  return TRUE;
}

void
qd_plot_refit (QdPlot *self)
{
  if (self->autoscale)
    autoscale_view (self);
  qd_plot_view_changed (self);
}

void
qd_plot_add_earlier_trace (QdPlot            *self,
                           QdTrace           *trace,
                           const char        *name,
                           const char        *label,
                           guint              run,
                           const QdPlotColor *color)
{
  QdPlotTraceSeries *s = series_new (trace, name, label, color);

  s->earlier = TRUE;
  s->run = run;
  g_ptr_array_add (self->earlier, s);
}

void
qd_plot_remove_earlier_run (QdPlot *self,
                            guint   run)
{
  for (guint i = self->earlier->len; i > 0; i--)
    if (((QdPlotTraceSeries *) g_ptr_array_index (self->earlier, i - 1))->run == run)
      g_ptr_array_remove_index (self->earlier, i - 1);
}

/* XY of any two traces, and what the context menu needs */

void
qd_plot_set_xy_traces (QdPlot     *self,
                       QdTrace    *x,
                       const char *x_label,
                       QdTrace    *y,
                       const char *y_label)
{
  QdPlotColor color;

  g_return_if_fail (QD_IS_PLOT (self));
  g_return_if_fail ((x == NULL) == (y == NULL));

  /* The y trace's colour when the plot shows it, else the palette's
   * first. */
  qd_plot_palette_color (0, &color);
  for (guint i = 0; y != NULL && i < self->current->len; i++)
    {
      QdPlotTraceSeries *s = g_ptr_array_index (self->current, i);

      if (s->trace == y)
        color = s->color;
    }
  qd_plot_set_xy (self, -1, -1);
  if (x == NULL)
    return;
  self->xy_series[0] = series_new (x, x_label, x_label, &color);
  self->xy_series[1] = series_new (y, y_label, y_label, &color);
  autoscale_view (self);
  qd_plot_view_changed (self);
}

gboolean
qd_plot_get_xy_traces (QdPlot   *self,
                       QdTrace **x,
                       QdTrace **y)
{
  g_return_val_if_fail (QD_IS_PLOT (self), FALSE);

  if (self->xy_series[0] != NULL)
    {
      *x = self->xy_series[0]->trace;
      *y = self->xy_series[1]->trace;
      return TRUE;
    }
  if (self->xy && self->xy_x < self->current->len && self->xy_y < self->current->len)
    {
      *x = ((QdPlotTraceSeries *) g_ptr_array_index (self->current, self->xy_x))->trace;
      *y = ((QdPlotTraceSeries *) g_ptr_array_index (self->current, self->xy_y))->trace;
      return TRUE;
    }
  return FALSE;
}

void
qd_plot_foreach_xy_point (QdPlot       *self,
                          QdPlotXyFunc  func,
                          gpointer      data)
{
  QdPlotRenderOptions o;
  QdPlotSeries *series;

  g_return_if_fail (QD_IS_PLOT (self));
  fill_options (self, &o, &series, FALSE);
  qd_plot_render_walk_xy (&o, gtk_widget_get_width (GTK_WIDGET (self)),
                          gtk_widget_get_height (GTK_WIDGET (self)), func, data);
  g_free (series);
}

QdTrace *
qd_plot_get_trace (QdPlot *self,
                   guint   index)
{
  g_return_val_if_fail (QD_IS_PLOT (self), NULL);
  g_return_val_if_fail (index < self->current->len, NULL);
  return ((QdPlotTraceSeries *) g_ptr_array_index (self->current, index))->trace;
}

const char *
qd_plot_get_trace_label (QdPlot *self,
                         guint   index)
{
  g_return_val_if_fail (QD_IS_PLOT (self), NULL);
  g_return_val_if_fail (index < self->current->len, NULL);
  return ((QdPlotTraceSeries *) g_ptr_array_index (self->current, index))->name;
}

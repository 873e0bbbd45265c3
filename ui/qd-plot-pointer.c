/* qd-plot-pointer.c: the plot widget's pointer and keys
 *
 * A click on a legend row hides or shows its trace (or its earlier run);
 * a drag draws a zoom box, Shift or the middle button pans; the wheel
 * zooms about the pointer (Ctrl: time only, Shift: values only; over an
 * axis, that axis); a double click or Home shows everything again. With
 * subplots or several y axes, each acts on the axes under the pointer.
 * The context menu is qd-plot-menu.c's.
 */
#include <math.h>
#include <string.h>

#include "qd-plot-private.h"
#include "qd-plot-subplots.h"

/* How far the pointer must drag before a box zoom counts, in pixels. */
#define MIN_BOX     5.0
#define SCROLL_STEP 1.2


/* The plot area at (@wx, @wy), the plot of a stack that holds it, and
 * its axis: the axes a vertical zoom or pan there moves are
 * [*first, *last] (one plot of a stack; every axis of one area). */
static guint
get_area_at (QdPlot     *self,
             double      wx,
             double      wy,
             QdPlotRect *area,
             guint      *first,
             guint      *last)
{
  QdPlotRenderOptions o;
  QdPlotSeries *series;
  int w = gtk_widget_get_width (GTK_WIDGET (self));
  int h = gtk_widget_get_height (GTK_WIDGET (self));
  guint axis = 0;

  qd_plot_get_render_options (self, &o, &series, FALSE);
  *first = *last = 0;
  if (qd_plot_subplots_is_stacked (&o))
    {
      QdPlotRect areas[QD_PLOT_MAX_PANELS];

      qd_plot_subplots_get_areas (&o, w, h, areas);
      axis = *first = *last = qd_plot_subplots_axis_at (&o, w, h, wx, wy);
      *area = areas[axis];
    }
  else
    {
      int over = qd_plot_yaxes_axis_at (&o, w, h, wx);

      qd_plot_render_get_area (&o, w, h, area);
      if (o.axes != NULL && o.axes->kind == QD_PLOT_LAYOUT_AXES && !o.xy)
        *last = o.axes->n_axes - 1;
      /* Over one of several y axes: that one. */
      if (over >= 0 && (guint) over <= *last)
        *first = *last = (guint) over;
    }
  g_free (series);
  return axis;
}

static void
get_axis_y (QdPlot *self,
            guint   axis,
            double *lo,
            double *hi)
{
  *lo = axis == 0 ? self->y_min : self->ax.axis_y[2 * axis];
  *hi = axis == 0 ? self->y_max : self->ax.axis_y[2 * axis + 1];
}

static void
set_axis_y (QdPlot *self,
            guint   axis,
            double  lo,
            double  hi)
{
  if (axis == 0)
    {
      self->y_min = lo;
      self->y_max = hi;
    }
  self->ax.axis_y[2 * axis] = lo;
  self->ax.axis_y[2 * axis + 1] = hi;
}

/* Data coordinates of (@wx, @wy), on the first axis of the plot that
 * (@ax, @ay) is in. */
static void
point_to_data (QdPlot *self,
               double  ax,
               double  ay,
               double  wx,
               double  wy,
               double *x,
               double *y)
{
  QdPlotRect a;
  guint first, last;
  guint axis = get_area_at (self, ax, ay, &a, &first, &last);
  double lo, hi;

  get_axis_y (self, axis, &lo, &hi);
  *x = self->x_min + (wx - a.x) / a.width * (self->x_max - self->x_min);
  *y = lo + (a.y + a.height - wy) / a.height * (hi - lo);
}

/* Data coordinates of (@wx, @wy), in the plot a drag began in. */
static void
widget_to_data (QdPlot *self,
                double  wx,
                double  wy,
                double *x,
                double *y)
{
  point_to_data (self, self->drag_x, self->drag_y, wx, wy, x, y);
}

static int
legend_hit (QdPlot *self,
            double  x,
            double  y)
{
  QdPlotRenderOptions o;
  QdPlotSeries *series;
  int hit;

  qd_plot_get_render_options (self, &o, &series, FALSE);
  hit = qd_plot_render_legend_hit (&o, gtk_widget_get_width (GTK_WIDGET (self)),
                                   gtk_widget_get_height (GTK_WIDGET (self)), x, y);
  g_free (series);
  return hit;
}

static void
on_click_pressed (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  QdPlot          *self)
{
  QdPlotTraceSeries *s;
  int hit;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  hit = legend_hit (self, x, y);
  if (hit >= 0 && (guint) hit >= self->earlier->len + self->current->len)
    {
      /* A run's row: the whole run. */
      if (qd_plot_runs_toggle_row (&self->runs, hit - (self->earlier->len + self->current->len)))
        {
          qd_plot_refit (self);
        }
      return;
    }
  s = qd_plot_series_at (self, hit);
  if (s != NULL)
    {
      s->visible = !s->visible;
      qd_plot_refit (self);
      return;
    }
  if (n_press == 2)
    qd_plot_reset_view (self);
}

static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               QdPlot          *self)
{
  guint button = gtk_gesture_single_get_current_button (GTK_GESTURE_SINGLE (gesture));
  GdkModifierType state =
    gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (gesture));

  /* Any button gives the keyboard focus, for Home. */
  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->drag_x = x;
  self->drag_y = y;
  self->drag_dx = self->drag_dy = 0.0;
  self->drag_view[0] = self->x_min;
  self->drag_view[1] = self->x_max;
  self->drag_view[2] = self->y_min;
  self->drag_view[3] = self->y_max;
  memcpy (self->ax.drag_axis_y, self->ax.axis_y, sizeof self->ax.axis_y);
  self->drag_kind = QD_PLOT_DRAG_NONE;
  if (button == GDK_BUTTON_MIDDLE
      || (button == GDK_BUTTON_PRIMARY && (state & GDK_SHIFT_MASK)))
    self->drag_kind = QD_PLOT_DRAG_PAN;
  else if (button == GDK_BUTTON_PRIMARY && legend_hit (self, x, y) < 0)
    self->drag_kind = QD_PLOT_DRAG_BOX;
  else
    gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_DENIED);
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                QdPlot          *self)
{
  self->drag_dx = dx;
  self->drag_dy = dy;
  if (self->drag_kind == QD_PLOT_DRAG_PAN)
    {
      QdPlotRect a;
      double sx;
      guint first, last;

      get_area_at (self, self->drag_x, self->drag_y, &a, &first, &last);
      sx = (self->drag_view[1] - self->drag_view[0]) / a.width;
      qd_plot_set_autoscale_internal (self, FALSE);
      self->x_min = self->drag_view[0] - dx * sx;
      self->x_max = self->drag_view[1] - dx * sx;
      /* The axes the pan moves, each by the same pixels. */
      for (guint k = first; k <= last; k++)
        {
          double lo = k == 0 ? self->drag_view[2] : self->ax.drag_axis_y[2 * k];
          double hi = k == 0 ? self->drag_view[3] : self->ax.drag_axis_y[2 * k + 1];
          double sy = (hi - lo) / a.height;

          set_axis_y (self, k, lo + dy * sy, hi + dy * sy);
        }
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_drag_end (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             QdPlot          *self)
{
  if (self->drag_kind == QD_PLOT_DRAG_BOX && fabs (dx) >= MIN_BOX && fabs (dy) >= MIN_BOX)
    {
      double x0, y0, x1, y1;
      QdPlotRect a;
      guint first, last;

      /* A box that runs into the next plot of a stack ends at its own;
       * one left without height there zooms time alone. */
      get_area_at (self, self->drag_x, self->drag_y, &a, &first, &last);
      dy = CLAMP (self->drag_y + dy, a.y, a.y + a.height) - self->drag_y;
      widget_to_data (self, self->drag_x, self->drag_y, &x0, &y0);
      widget_to_data (self, self->drag_x + dx, self->drag_y + dy, &x1, &y1);
      if (fabs (dy) < 1.0)
        {
          first = 1;
          last = 0;
        }
      /* The other axes the box zooms, to the same rows of pixels. */
      for (guint k = MAX (first, 1); k <= last; k++)
        {
          double lo, hi;
          double f0 = (a.y + a.height - self->drag_y) / a.height;
          double f1 = (a.y + a.height - self->drag_y - dy) / a.height;

          get_axis_y (self, k, &lo, &hi);
          set_axis_y (self, k, lo + MIN (f0, f1) * (hi - lo), lo + MAX (f0, f1) * (hi - lo));
        }
      if (first == 0)
        qd_plot_set_view (self, MIN (x0, x1), MAX (x0, x1), MIN (y0, y1), MAX (y0, y1));
      else
        qd_plot_set_view (self, MIN (x0, x1), MAX (x0, x1), self->y_min, self->y_max);
    }
  self->drag_kind = QD_PLOT_DRAG_NONE;
  qd_plot_view_changed (self);
}

static void
zoom_axis (double *lo,
           double *hi,
           double  anchor,
           double  factor)
{
  double nlo = anchor - (anchor - *lo) * factor;
  double nhi = anchor + (*hi - anchor) * factor;

  /* Not below what doubles can still tell apart. */
  if (nhi - nlo > 1e-12 * MAX (fabs (nlo), fabs (nhi)) && isfinite (nhi - nlo))
    {
      *lo = nlo;
      *hi = nhi;
    }
}

static gboolean
on_scroll (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           QdPlot                   *self)
{
  GdkModifierType state =
    gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (controller));
  double delta = dy != 0.0 ? dy : dx;
  double factor = pow (SCROLL_STEP, delta);
  double ax, fy;
  gboolean zoom_x = TRUE, zoom_y = TRUE;
  QdPlotRect a;
  guint first, last;

  if (delta == 0.0)
    return FALSE;
  get_area_at (self, self->pointer_x, self->pointer_y, &a, &first, &last);
  ax = self->x_min + (self->pointer_x - a.x) / a.width * (self->x_max - self->x_min);
  fy = (a.y + a.height - self->pointer_y) / a.height;
  if (self->pointer_y > a.y + a.height)
    zoom_y = FALSE;              /* over the time axis */
  else if (self->pointer_x < a.x || self->pointer_x > a.x + a.width)
    zoom_x = FALSE;              /* over a value axis */
  else if (state & GDK_CONTROL_MASK)
    zoom_y = FALSE;
  else if (state & GDK_SHIFT_MASK)
    zoom_x = FALSE;

  qd_plot_set_autoscale_internal (self, FALSE);
  if (zoom_x)
    zoom_axis (&self->x_min, &self->x_max, ax, factor);
  /* Each axis the pointer is over, about the value under it. */
  for (guint k = first; zoom_y && k <= last; k++)
    {
      double lo, hi;

      get_axis_y (self, k, &lo, &hi);
      zoom_axis (&lo, &hi, lo + fy * (hi - lo), factor);
      set_axis_y (self, k, lo, hi);
    }
  qd_plot_view_changed (self);
  return TRUE;
}

static void
on_motion (GtkEventControllerMotion *controller,
           double                    x,
           double                    y,
           QdPlot                   *self)
{
  self->has_cursor = TRUE;
  self->pointer_x = x;
  self->pointer_y = y;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_leave (GtkEventControllerMotion *controller,
          QdPlot                   *self)
{
  self->has_cursor = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                QdPlot                *self)
{
  if (keyval == GDK_KEY_Home || keyval == GDK_KEY_KP_Home)
    {
      qd_plot_reset_view (self);
      return TRUE;
    }
  return FALSE;
}

void
qd_plot_pointer_attach (QdPlot *self)
{
  GtkGesture *gesture;
  GtkEventController *controller;

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  g_signal_connect (gesture, "pressed", G_CALLBACK (on_click_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), 0);
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (on_drag_end), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (gesture));

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (controller, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);

  controller = gtk_event_controller_key_new ();
  g_signal_connect (controller, "key-pressed", G_CALLBACK (on_key_pressed), self);
  gtk_widget_add_controller (GTK_WIDGET (self), controller);
}

void
qd_plot_widget_to_data (QdPlot *self,
                        double  wx,
                        double  wy,
                        double *x,
                        double *y)
{
  g_return_if_fail (QD_IS_PLOT (self));
  point_to_data (self, wx, wy, wx, wy, x, y);
}

gboolean
qd_plot_get_trace_value_at (QdPlot *self,
                            guint   index,
                            double  wx,
                            double  wy,
                            double *value)
{
  QdPlotRenderOptions o;
  QdPlotSeries *series;
  QdPlotRect a;
  guint first, last, axis = 0;
  guint here = get_area_at (self, wx, wy, &a, &first, &last);
  double lo, hi;

  g_return_val_if_fail (index < self->current->len, FALSE);
  qd_plot_get_render_options (self, &o, &series, FALSE);
  if (o.axes != NULL && o.axes->series_axis != NULL && !o.xy)
    axis = MIN (o.axes->series_axis[self->earlier->len + index], o.axes->n_axes - 1);
  g_free (series);
  /* A trace of another of the stacked plots is not where the point is. */
  if (qd_plot_get_layout (self) == QD_PLOT_LAYOUT_SUBPLOTS && first == last && axis != here)
    return FALSE;
  get_axis_y (self, axis, &lo, &hi);
  *value = lo + (a.y + a.height - wy) / a.height * (hi - lo);
  return TRUE;
}

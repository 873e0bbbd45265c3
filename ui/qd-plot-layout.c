/* qd-plot-layout.c: the plot widget's subplots and y axes
 *
 * Which axis each series is on (by its name, from the arrangement of
 * its Scope), the value range of each axis and the layout shown (which
 * the context menu of qd-plot-menu.c switches). The drawing is
 * qd-plot-subplots.c's; the pointer's zooms and pans over several axes
 * are qd-plot.c's.
 */
#include <string.h>

#include "qd-plot-private.h"

void
qd_plot_axes_state_init (QdPlotAxesState *st)
{
  memset (st, 0, sizeof *st);
  st->series_axis = g_array_new (FALSE, TRUE, sizeof (guint));
}

void
qd_plot_axes_state_clear (QdPlotAxesState *st)
{
  g_clear_pointer (&st->arrangement, qd_plot_arrangement_free);
  g_clear_pointer (&st->series_axis, g_array_unref);
}

/* Each series's axis comes from the arrangement by its name (a name the
 * arrangement does not know gets an axis of its own after its groups);
 * the zoom indicator shows while the view is not the automatic one. */
void
qd_plot_fill_axes (QdPlot              *self,
                   QdPlotRenderOptions *o)
{
  QdPlotAxesState *st = qd_plot_get_axes_state (self);
  g_autofree const char **names = g_new0 (const char *, MAX (o->n_series, 1));
  double start, end;

  for (guint i = 0; i < o->n_series; i++)
    names[i] = qd_plot_get_series_name (self, i);
  g_array_set_size (st->series_axis, MAX (o->n_series, 1));
  qd_plot_arrangement_fill_axes (st->arrangement, st->layout, names, o->n_series,
                                 (guint *) st->series_axis->data, st->axis_labels, &st->axes);
  st->axis_y[0] = o->y_min;
  st->axis_y[1] = o->y_max;
  st->axes.y_ranges = st->axis_y;
  if (!qd_plot_get_autoscale (self) && !o->xy && qd_plot_get_data_time_span (self, &start, &end))
    {
      st->axes.zoomed = TRUE;
      st->axes.data_x_min = start;
      st->axes.data_x_max = end;
    }
  o->axes = &st->axes;
}

void
qd_plot_fit_axes (QdPlot                    *self,
                  const QdPlotRenderOptions *o,
                  int                        width)
{
  QdPlotAxesState *st = qd_plot_get_axes_state (self);

  qd_plot_subplots_y_extents (o, width, st->axis_y);
  for (guint k = 0; k < st->axes.n_axes; k++)
    qd_plot_pad_range (&st->axis_y[2 * k], &st->axis_y[2 * k + 1], 0.05);
}

/* Public API */

void
qd_plot_set_arrangement (QdPlot                  *self,
                         const QdPlotArrangement *arrangement)
{
  QdPlotAxesState *st;

  g_return_if_fail (QD_IS_PLOT (self));
  st = qd_plot_get_axes_state (self);
  g_clear_pointer (&st->arrangement, qd_plot_arrangement_free);
  if (arrangement != NULL)
    st->arrangement = qd_plot_arrangement_copy (arrangement);
  qd_plot_set_layout (self, arrangement != NULL ? qd_plot_arrangement_get_kind (arrangement)
                                                : QD_PLOT_LAYOUT_SINGLE);
  qd_plot_refit (self);
}

void
qd_plot_set_layout (QdPlot           *self,
                    QdPlotLayoutKind  layout)
{
  QdPlotAxesState *st;

  g_return_if_fail (QD_IS_PLOT (self));
  st = qd_plot_get_axes_state (self);
  if (st->layout == layout)
    return;
  st->layout = layout;
  /* The axes are new: fit them to their signals, the view's time range
   * kept when it is not the automatic one. */
  if (!qd_plot_get_autoscale (self))
    {
      g_autofree QdPlotSeries *series = NULL;
      QdPlotRenderOptions o;

      qd_plot_get_render_options (self, &o, &series, TRUE);
      if (st->axes.n_axes > 1)
        qd_plot_fit_axes (self, &o, MAX (gtk_widget_get_width (GTK_WIDGET (self)), 100));
    }
  g_object_notify (G_OBJECT (self), "layout");
  qd_plot_refit (self);
}

QdPlotLayoutKind
qd_plot_get_layout (QdPlot *self)
{
  g_return_val_if_fail (QD_IS_PLOT (self), QD_PLOT_LAYOUT_SINGLE);
  return qd_plot_get_axes_state (self)->layout;
}

guint
qd_plot_get_n_axes (QdPlot *self)
{
  g_autofree QdPlotSeries *series = NULL;
  QdPlotRenderOptions o;

  g_return_val_if_fail (QD_IS_PLOT (self), 1);
  qd_plot_get_render_options (self, &o, &series, FALSE);
  return o.xy ? 1 : o.axes->n_axes;
}

void
qd_plot_get_axis_range (QdPlot *self,
                        guint   axis,
                        double *y_min,
                        double *y_max)
{
  g_return_if_fail (QD_IS_PLOT (self));
  g_return_if_fail (axis < QD_PLOT_MAX_PANELS);
  if (axis == 0)
    qd_plot_get_view (self, NULL, NULL, y_min, y_max);
  else
    {
      *y_min = qd_plot_get_axes_state (self)->axis_y[2 * axis];
      *y_max = qd_plot_get_axes_state (self)->axis_y[2 * axis + 1];
    }
}

/* qd-plot-private.h: what the plot widget (qd-plot.c) and its axes
 * (qd-plot-layout.c) share
 */
#pragma once

#include "qd-plot.h"

G_BEGIN_DECLS

/* The plot's axes: the arrangement of its signals and the layout shown,
 * the value range of each axis after the first (the first's is the
 * view's y range, copied to axis_y[0..1] for each drawing), and what a
 * drawing is given: each series's axis and the axes' labels. */
typedef struct
{
  QdPlotArrangement *arrangement;
  QdPlotLayoutKind   layout;
  double             axis_y[2 * QD_PLOT_MAX_PANELS];
  double             drag_axis_y[2 * QD_PLOT_MAX_PANELS];  /* when a drag began */
  GArray            *series_axis;
  const char        *axis_labels[QD_PLOT_MAX_PANELS];
  QdPlotAxes         axes;
  GtkWidget         *menu;          /* the context menu, once shown */
} QdPlotAxesState;

/* qd-plot.c */
QdPlotAxesState *qd_plot_get_axes_state    (QdPlot               *self);
/* The render options of what the plot shows (free *@series with g_free). */
void             qd_plot_get_render_options (QdPlot              *self,
                                             QdPlotRenderOptions *o,
                                             QdPlotSeries       **series,
                                             gboolean             with_caches);
/* The name a series was added with, earlier runs first. */
const char      *qd_plot_get_series_name   (QdPlot               *self,
                                            guint                 index);
/* Where the visible traces start and where they end or have got to. */
gboolean         qd_plot_get_data_time_span (QdPlot              *self,
                                             double              *start,
                                             double              *end);
/* Autoscale again when it is on, and redraw. */
void             qd_plot_refit             (QdPlot               *self);
/* Widens a range by @fraction of its span at each end (a degenerate
 * one by 10 % of its value, or 1). */
void             qd_plot_pad_range         (double               *lo,
                                            double               *hi,
                                            double                fraction);

/* qd-plot-layout.c */
void             qd_plot_axes_state_init   (QdPlotAxesState      *state);
void             qd_plot_axes_state_clear  (QdPlotAxesState      *state);
/* Sets o->axes for a drawing of @o's series. */
void             qd_plot_fill_axes         (QdPlot               *self,
                                            QdPlotRenderOptions  *o);
/* Fits each axis to its signals over @o's time range at @width. */
void             qd_plot_fit_axes          (QdPlot               *self,
                                            const QdPlotRenderOptions *o,
                                            int                   width);
void             qd_plot_popup_menu        (QdPlot               *self,
                                            double                x,
                                            double                y);

G_END_DECLS

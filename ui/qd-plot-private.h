/* qd-plot-private.h: what the plot widget (qd-plot.c) shares with its
 * axes (qd-plot-layout.c), its earlier runs (qd-plot-earlier.c) and its
 * context menu (qd-plot-menu.c). Not installed.
 */
#pragma once

#include "qd-plot.h"
#include "qd-plot-runs-private.h"

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
} QdPlotAxesState;

/* A trace the plot shows, with what the widget keeps for it. */
typedef struct
{
  QdTrace       *trace;
  char          *label;
  char          *name;          /* the label it was added with */
  guint          run;           /* its earlier run's number (QdPlotRun) */
  QdPlotColor    color;
  gboolean       visible;
  gboolean       earlier;
  QdPlotColumns *columns;
  gsize          seen_length;
  gboolean       seen_closed;
} QdPlotTraceSeries;

typedef enum
{
  QD_PLOT_DRAG_NONE,
  QD_PLOT_DRAG_BOX,
  QD_PLOT_DRAG_PAN,
} QdPlotDragKind;

/* The widget's state, shared by the files of the widget (qd-plot.c,
 * qd-plot-pointer.c); the others go through the functions below. */
struct _QdPlot
{
  GtkWidget   parent_instance;

  GPtrArray  *current;       /* QdPlotTraceSeries* of the run being drawn */
  GPtrArray  *earlier;       /* QdPlotTraceSeries* of kept runs */
  guint       n_runs_kept;
  guint       next_color;
  QdPlotRunList runs;        /* the earlier runs' colours and legend */
  char       *run_title;     /* the legend's title while there are some */

  QdPlotMode  mode;
  gboolean    xy;
  guint       xy_x, xy_y;
  /* XY of any two traces (qd_plot_set_xy_traces()), in place of xy_x
   * and xy_y: drawn after the others as two series of their own. */
  QdPlotTraceSeries     *xy_series[2];
  GArray     *xy_pairs;      /* guint: the earlier runs' XY pairs */

  gboolean    autoscale;
  double      x_min, x_max, y_min, y_max;
  double      t_end;
  gboolean    dirty;         /* the view changed: redraw at the next frame */
  gboolean    grown;         /* traces grew: redraw when the interval allows */
  gint64      last_redraw;   /* frame time of the last redraw, in µs */
  guint64     n_draws;       /* snapshots taken, for qd_plot_get_n_draws() */
  int         alloc_width, alloc_height;
  guint       tick_id;       /* while traces may grow or a redraw waits */
  /* The run's final time, when the caller knows it: autoscale never
   * shows time beyond it. NAN when unknown. */
  double      hint_final;

  gboolean    has_cursor;
  double      pointer_x, pointer_y;

  QdPlotDragKind    drag_kind;
  double      drag_x, drag_y;      /* start, widget coordinates */
  double      drag_dx, drag_dy;
  double      drag_view[4];        /* the view when the drag started */

  QdPlotAxesState ax;             /* subplots, y axes (qd-plot-layout.c) */
};

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
/* The value at widget point (@wx, @wy) on the axis of current trace
 * @index; FALSE when the point is in another of stacked subplots. */
gboolean         qd_plot_get_trace_value_at (QdPlot              *self,
                                             guint                index,
                                             double               wx,
                                             double               wy,
                                             double              *value);
/* Series @index of a drawing: the earlier runs' first, then the
 * current ones; NULL past them. */
QdPlotTraceSeries *qd_plot_series_at       (QdPlot               *self,
                                            int                   index);
/* The view changed: redraw at the next frame. */
void             qd_plot_view_changed      (QdPlot               *self);
/* Autoscale on or off, as the pointer's zooms turn it off. */
void             qd_plot_set_autoscale_internal (QdPlot          *self,
                                                 gboolean         autoscale);
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

/* qd-plot-pointer.c: the clicks, drags, wheel and keys. */
void             qd_plot_pointer_attach    (QdPlot               *self);

/* Earlier runs (qd-plot.c, for qd-plot-earlier.c) */
QdPlotRunList *qd_plot_get_run_list       (QdPlot            *self);
/* An earlier series of run @run. */
void           qd_plot_add_earlier_trace  (QdPlot            *self,
                                           QdTrace           *trace,
                                           const char        *name,
                                           const char        *label,
                                           guint              run,
                                           const QdPlotColor *color);
void           qd_plot_remove_earlier_run (QdPlot            *self,
                                           guint              run);

G_END_DECLS

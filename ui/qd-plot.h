/* qd-plot.h: the live plot of the QDevs editor
 *
 * Shows trace stores as the exact piecewise polynomials they are, while a
 * simulation is still appending to them: the widget reads the traces on
 * its frame clock and redraws only when one of them grew or the view
 * changed; the writer never waits for it.
 *
 * Mouse and keyboard: drag with the left button to zoom into a box; drag
 * with the middle button (or Shift and the left button) to pan; scroll
 * over an axis to zoom that axis, or Ctrl+scroll (time) and Shift+scroll
 * (values) over the plot; double-click or Home to go back to autoscale;
 * click a legend entry to hide or show its trace. A cursor line follows
 * the pointer and reads each trace's exact value.
 */
#pragma once

#include <gtk/gtk.h>

#include "qdevs.h"
#include "qd-plot-render.h"
#include "qd-plot-subplots.h"

G_BEGIN_DECLS

#define QD_TYPE_PLOT (qd_plot_get_type ())
G_DECLARE_FINAL_TYPE (QdPlot, qd_plot, QD, PLOT, GtkWidget)

GtkWidget  *qd_plot_new                (void);

/* Adds @trace to the current run, drawn in @color, or with NULL in the
 * colour an earlier run's trace of the same label had, else the next of
 * the palette. Returns its index among the current traces. */
guint       qd_plot_add_trace          (QdPlot        *self,
                                        QdTrace       *trace,
                                        const char    *label,
                                        const GdkRGBA *color);
guint       qd_plot_get_n_traces       (QdPlot        *self);
/* Removes the current traces (earlier runs stay). */
void        qd_plot_clear              (QdPlot        *self);

/* Starts a new run: the current traces become an earlier run, drawn in a
 * lighter shade of their colour until qd_plot_clear_runs(). */
void        qd_plot_begin_run          (QdPlot        *self);
void        qd_plot_clear_runs         (QdPlot        *self);
guint       qd_plot_get_n_earlier_runs (QdPlot        *self);
/* The earlier run whose traces are under @budget was decimated to make
 * room for later runs: its legend says so ("x1 (run 2, decimated)"). */
void        qd_plot_mark_run_decimated (QdPlot        *self,
                                        QdTraceBudget *budget);
/* The traces of earlier runs and their legend labels, oldest first. */
guint       qd_plot_get_n_earlier_traces (QdPlot      *self);
const char *qd_plot_get_earlier_label  (QdPlot        *self,
                                        guint          index);
/* Forgets the earlier run whose traces are under @budget; TRUE when the
 * plot showed it. */
gboolean    qd_plot_drop_run           (QdPlot        *self,
                                        QdTraceBudget *budget);

/* Earlier runs, each in a colour of its own with a row in the legend
 * (qd-plot-runs.h). The current run's number and what is different in
 * it ("k = 2"), which it keeps when it becomes an earlier run; the note
 * of a run by its number (the current one included); number 0 lets the
 * plot count. */
void        qd_plot_set_run_info       (QdPlot        *self,
                                        guint          number,
                                        const char    *note);
void        qd_plot_set_run_note       (QdPlot        *self,
                                        guint          number,
                                        const char    *note);
/* The earlier runs of the legend, oldest first: its text ("Run 2 ·
 * k = 2 (decimated)"), colour and whether it is shown. */
guint       qd_plot_get_n_runs         (QdPlot        *self);
char       *qd_plot_dup_run_legend     (QdPlot        *self,
                                        guint          index);
void        qd_plot_get_run_color      (QdPlot        *self,
                                        guint          index,
                                        GdkRGBA       *color);
void        qd_plot_set_run_visible    (QdPlot        *self,
                                        guint          index,
                                        gboolean       visible);
gboolean    qd_plot_get_run_visible    (QdPlot        *self,
                                        guint          index);
/* How many earlier runs the trace memory dropped (the legend says so). */
guint       qd_plot_get_n_dropped_runs (QdPlot        *self);
/* Adds @traces (QdTrace*, named @labels) as an earlier run of its own
 * called @title ("QSS3"), in batch @group (> 0), for results made
 * elsewhere (a comparison of methods); returns its index among the runs.
 * qd_plot_remove_run_group() takes a batch away again. */
guint       qd_plot_add_run            (QdPlot             *self,
                                        GPtrArray          *traces,
                                        const char *const  *labels,
                                        const char         *title,
                                        const char         *note,
                                        guint               group);
void        qd_plot_remove_run_group   (QdPlot             *self,
                                        guint               group);

void        qd_plot_set_trace_visible  (QdPlot        *self,
                                        guint          index,
                                        gboolean       visible);
gboolean    qd_plot_get_trace_visible  (QdPlot        *self,
                                        guint          index);

void        qd_plot_set_mode           (QdPlot        *self,
                                        QdPlotMode     mode);
QdPlotMode  qd_plot_get_mode           (QdPlot        *self);

/* XY mode: current trace @y_index against trace @x_index; -1 for either
 * goes back to values against time. */
void        qd_plot_set_xy             (QdPlot        *self,
                                        int            x_index,
                                        int            y_index);

/* XY of any two traces, of this plot or not (the plot's context menu
 * offers every Scope's): @y against @x; NULL for both goes back to
 * values against time, as qd_plot_set_xy (-1, -1) does. */
void        qd_plot_set_xy_traces      (QdPlot        *self,
                                        QdTrace       *x,
                                        const char    *x_label,
                                        QdTrace       *y,
                                        const char    *y_label);
/* Whether the plot shows XY, and of which traces. */
gboolean    qd_plot_get_xy_traces      (QdPlot        *self,
                                        QdTrace      **x,
                                        QdTrace      **y);
/* The points the XY curve is drawn through (qd_plot_render_walk_xy()). */
void        qd_plot_foreach_xy_point   (QdPlot        *self,
                                        QdPlotXyFunc   func,
                                        gpointer       data);
/* Current trace @index and the name it was added with. */
QdTrace    *qd_plot_get_trace          (QdPlot        *self,
                                        guint          index);
const char *qd_plot_get_trace_label    (QdPlot        *self,
                                        guint          index);
/* The data coordinates (time and value, or XY) of a widget point. */
void        qd_plot_widget_to_data     (QdPlot        *self,
                                        double         wx,
                                        double         wy,
                                        double        *x,
                                        double        *y);

/* The view. Setting it turns autoscale off; autoscale (on by default)
 * follows the data while a run appends. */
void        qd_plot_set_view           (QdPlot        *self,
                                        double         x_min,
                                        double         x_max,
                                        double         y_min,
                                        double         y_max);
void        qd_plot_get_view           (QdPlot        *self,
                                        double        *x_min,
                                        double        *x_max,
                                        double        *y_min,
                                        double        *y_max);
void        qd_plot_set_autoscale      (QdPlot        *self,
                                        gboolean       autoscale);
gboolean    qd_plot_get_autoscale      (QdPlot        *self);
/* The time range of the run being plotted, when known (NAN or infinity
 * for unknown): autoscale then never shows time beyond @final, and a
 * run that has only just started (one event, a span of zero) is shown
 * over [@start, @final] rather than over a span too small to label. */
void        qd_plot_set_time_range_hint (QdPlot       *self,
                                         double        start,
                                         double        final);
/* Autoscale again (double-click, Home). */
void        qd_plot_reset_view         (QdPlot        *self);

/* How many times the plot has drawn itself since it was made: what a
 * live run costs in drawing is measured (and tested) with it. */
guint64     qd_plot_get_n_draws        (QdPlot        *self);

/* Saves what is shown (current view, visible traces) through the same
 * renderer, at @width x @height pixels (points for SVG and PDF). */
gboolean    qd_plot_export             (QdPlot        *self,
                                        const char    *path,
                                        QdImageFormat  format,
                                        int            width,
                                        int            height,
                                        GError       **error);
/* The visible current traces as CSV (qd_traces_write_csv()): every event
 * with @step == 0, else sampled every @step. */
gboolean    qd_plot_export_csv         (QdPlot        *self,
                                        const char    *path,
                                        double         step,
                                        GError       **error);

/* How the signals are arranged on axes (a copy is kept; NULL: one
 * axis, or one per signal in the subplots and axes layouts), and the
 * layout shown, which starts as the arrangement's; also the property
 * "layout" ("single", "subplots", "axes") and the action plot.layout
 * of the plot's context menu. The subplots share the time axis. */
void        qd_plot_set_arrangement    (QdPlot                  *self,
                                        const QdPlotArrangement *arrangement);
void        qd_plot_set_layout         (QdPlot                  *self,
                                        QdPlotLayoutKind         layout);
QdPlotLayoutKind qd_plot_get_layout    (QdPlot                  *self);
/* The value axes shown (subplots or y axes), and the range of one: axis
 * 0's is the view's y range. */
guint       qd_plot_get_n_axes         (QdPlot                  *self);
void        qd_plot_get_axis_range     (QdPlot                  *self,
                                        guint                    axis,
                                        double                  *y_min,
                                        double                  *y_max);

G_END_DECLS

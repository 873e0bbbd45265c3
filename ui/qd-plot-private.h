/* qd-plot-private.h: what the plot widget (qd-plot.c) lends to the code
 * of its earlier runs (qd-plot-earlier.c). Not installed.
 */
#pragma once

#include "qd-plot.h"
#include "qd-plot-runs-private.h"

G_BEGIN_DECLS

QdPlotRunList *qd_plot_get_run_list       (QdPlot            *self);
/* The runs changed: rescale (when autoscale is on) and redraw. */
void           qd_plot_runs_changed       (QdPlot            *self);
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

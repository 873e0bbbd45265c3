/* qd-plot-runs-private.h: how the plot widget hands its earlier runs
 * (qd-plot-runs.h) to the renderer
 */
#pragma once

#include "qd-plot-render.h"
#include "qd-plot-runs.h"

G_BEGIN_DECLS

/* Series @s of earlier run @number, the @signal-th of its run: the run's
 * colour, dashes and visibility. */
void     qd_plot_runs_fill_series     (QdPlotRunList       *list,
                                       QdPlotSeries        *s,
                                       guint                number,
                                       guint                signal);
/* The runs into @o; returns the legend's title (free it), or NULL. */
char    *qd_plot_runs_fill_options    (QdPlotRunList       *list,
                                       QdPlotRenderOptions *o);
/* The current run left nothing to keep: what was said of it goes. */
void     qd_plot_runs_forget_current  (QdPlotRunList       *list);
void     qd_plot_runs_mark_decimated  (QdPlotRunList       *list,
                                       gpointer             budget);
/* Forgets the run of @budget (TRUE when there was one) and counts it
 * among the dropped. */
gboolean qd_plot_runs_drop            (QdPlotRunList       *list,
                                       gpointer             budget);
/* Hides or shows the run of legend row @k (counted from the first run's
 * row); FALSE when @k is not a run. */
gboolean qd_plot_runs_toggle_row      (QdPlotRunList       *list,
                                       guint                k);

G_END_DECLS

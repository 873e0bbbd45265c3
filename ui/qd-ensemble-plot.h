/* qd-ensemble-plot.h: every run of a sweep in one plot
 *
 * Draws one Scope signal of every successful run of a finished sweep
 * (qd-sweep-job.h) on the sweep's common time grid: the runs faintly,
 * the 5-95 % band and the mean on top, with the axes of the editor's
 * other plots. Hovering near a curve highlights it and emits
 * "highlight-changed"; its tooltip gives the run's parameters. The same
 * drawing goes to PNG, SVG and PDF files.
 */
#pragma once

#include <gtk/gtk.h>

#include "qd-sweep-job.h"

G_BEGIN_DECLS

#define QD_TYPE_ENSEMBLE_PLOT (qd_ensemble_plot_get_type ())
G_DECLARE_FINAL_TYPE (QdEnsemblePlot, qd_ensemble_plot, QD, ENSEMBLE_PLOT, GtkWidget)

GtkWidget     *qd_ensemble_plot_new           (void);
/* Shows @signal of the records @results of @job (NULL: all those of
 * the finished job; while it runs, qd_sweep_job_dup_done()); NULL @job
 * empties the plot. */
void           qd_ensemble_plot_set_job       (QdEnsemblePlot *self,
                                               QdSweepJob     *job,
                                               GPtrArray      *results,
                                               const char     *signal);
const char    *qd_ensemble_plot_get_signal    (QdEnsemblePlot *self);
/* The runs drawn (successful ones with the signal). */
guint          qd_ensemble_plot_get_n_curves  (QdEnsemblePlot *self);
/* The band on the grid, qd_sweep_job_get_grid()'s n values each; NULL
 * before a job. */
const double  *qd_ensemble_plot_get_mean      (QdEnsemblePlot *self);
const double  *qd_ensemble_plot_get_low       (QdEnsemblePlot *self);
const double  *qd_ensemble_plot_get_high      (QdEnsemblePlot *self);

/* The curve nearest (@x, @y) in widget coordinates, within a few
 * pixels, as an index into the records shown; -1 for none. */
int            qd_ensemble_plot_pick          (QdEnsemblePlot *self,
                                               double          x,
                                               double          y);
/* Highlights a run (an index into the records shown, -1 for none), as
 * hovering does. */
void           qd_ensemble_plot_set_highlight (QdEnsemblePlot *self,
                                               int             index);
int            qd_ensemble_plot_get_highlight (QdEnsemblePlot *self);
/* What the tooltip says of the highlighted run, or NULL. */
const char    *qd_ensemble_plot_get_highlight_text (QdEnsemblePlot *self);

/* Marks a run (a record of those shown; NULL for none), as selecting
 * its row in the table of runs does: it is drawn in full colour over the
 * others, and stays so while the pointer moves. */
void           qd_ensemble_plot_set_selected  (QdEnsemblePlot      *self,
                                               const QdSweepResult *result);
const QdSweepResult *qd_ensemble_plot_get_selected (QdEnsemblePlot *self);

/* Draws the plot into @cr, @width x @height, as on screen. */
void           qd_ensemble_plot_draw          (QdEnsemblePlot *self,
                                               cairo_t        *cr,
                                               double          width,
                                               double          height);
/* Writes the plot to @path: SVG or PDF by its extension, else PNG. */
gboolean       qd_ensemble_plot_export        (QdEnsemblePlot *self,
                                               const char     *path,
                                               int             width,
                                               int             height,
                                               GError        **error);

G_END_DECLS

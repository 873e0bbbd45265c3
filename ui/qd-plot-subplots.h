/* qd-plot-subplots.h: one axis per signal or group, or several y axes
 *
 * A plot shows its signals on one value axis (the single layout), on a
 * stack of plots that share the time axis, one per signal or per group
 * of signals (subplots), or on one plot area with a value axis of its
 * own for each group (axes: up to QD_PLOT_MAX_Y_AXES, the extra ones at
 * the right and left in their signal's colour). Axes are labelled with
 * units ("v [V]") and the time axis too ("t [s]").
 *
 * The arrangement comes from a plotting sink's parameters (a Scope's
 * "layout", "groups", "labels" and "time_label"), parsed here so that
 * the editor's plot and qdevs-cli --plot read them the same way. The
 * rendering half draws through qd-plot-render.c. No GTK here.
 */
#pragma once

#include <glib.h>

#include "qd-plot-render.h"

G_BEGIN_DECLS

typedef enum
{
  QD_PLOT_LAYOUT_SINGLE,    /* every signal on one value axis */
  QD_PLOT_LAYOUT_SUBPLOTS,  /* stacked plots sharing the time axis */
  QD_PLOT_LAYOUT_AXES,      /* one area, a value axis per group */
} QdPlotLayoutKind;

/* At most this many stacked plots; further groups share the last. */
#define QD_PLOT_MAX_PANELS 16
/* At most this many value axes on one area; further groups share the
 * last. */
#define QD_PLOT_MAX_Y_AXES 4

/* The parameters' names and their words ("single", "subplots", "axes"). */
const char       *qd_plot_layout_kind_to_string (QdPlotLayoutKind kind);
gboolean          qd_plot_layout_kind_from_string (const char       *text,
                                                   QdPlotLayoutKind *kind);

typedef struct _QdPlotArrangement QdPlotArrangement;

/* Parses a sink's parameters for its signals @names (in input order):
 * @layout one of the words above (NULL or "": single); @groups the
 * groups separated by ';', each a comma-separated list of signal names
 * or input numbers from 1 ("v, i; 3"), the signals in no group each on
 * an axis of their own after the groups (NULL or "": one per signal);
 * @labels each signal's axis label by position, a unit in brackets
 * ("v [V], i [A]"; an empty entry: the signal's name); @time_label the
 * time axis's ("t [s]"; NULL or "": none). Fails, saying which entry
 * and what to do, on an unknown layout, a group member that is not a
 * signal or a signal in two groups. */
QdPlotArrangement *qd_plot_arrangement_parse     (const char         *layout,
                                                  const char         *groups,
                                                  const char         *labels,
                                                  const char         *time_label,
                                                  const char *const  *names,
                                                  guint               n_names,
                                                  GError            **error);
void               qd_plot_arrangement_free      (QdPlotArrangement  *arrangement);
QdPlotArrangement *qd_plot_arrangement_copy      (const QdPlotArrangement *arrangement);
QdPlotLayoutKind   qd_plot_arrangement_get_kind  (const QdPlotArrangement *arrangement);
void               qd_plot_arrangement_set_kind  (QdPlotArrangement  *arrangement,
                                                  QdPlotLayoutKind    kind);
guint              qd_plot_arrangement_get_n_groups (const QdPlotArrangement *arrangement);
/* The group of the signal named @name, or -1 for a name it does not know. */
int                qd_plot_arrangement_group_of  (const QdPlotArrangement *arrangement,
                                                  const char         *name);
/* A group's axis label: its signals' labels, the unit said once when
 * they share it ("v1, v2 [V]"). */
const char        *qd_plot_arrangement_get_axis_label (const QdPlotArrangement *arrangement,
                                                       guint               group);
/* The label of one axis for all the signals. */
const char        *qd_plot_arrangement_get_single_label (const QdPlotArrangement *arrangement);
const char        *qd_plot_arrangement_get_time_label (const QdPlotArrangement *arrangement);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (QdPlotArrangement, qd_plot_arrangement_free)

/* The arrangement of a plotting sink @block from its parameters
 * "layout", "groups", "labels" and "time_label"; NULL (and no error)
 * when its type does not have them. */
QdPlotArrangement *qd_plot_arrangement_from_block (const QdBlock      *block,
                                                   const char *const  *names,
                                                   guint               n_names,
                                                   GError            **error);

/* What the renderer needs to draw an arrangement (QdPlotRenderOptions.
 * axes; NULL there: one axis, no units, no zoom indicator). */
struct _QdPlotAxes
{
  QdPlotLayoutKind   kind;
  guint              n_axes;        /* SUBPLOTS and AXES: 1 .. the maximum */
  const guint       *series_axis;   /* per series of the options: its axis */
  const char *const *axis_labels;   /* per axis; NULL: the signals' names */
  const double      *y_ranges;      /* per axis: its y_min and y_max */
  const char        *x_label;       /* under the time axis; NULL: none */

  /* The zoom indicator: when set, the view shows part of the data's
   * time span [data_x_min, data_x_max], which a strip over the plot
   * and a short text say ("Zoom ×12 · t 3.1 – 4.2"). */
  gboolean           zoomed;
  double             data_x_min, data_x_max;

  /* Set by the renderer for each plot of a stack. */
  gboolean           has_area;
  QdPlotRect         area;
  gboolean           hide_x_ticks;
};

/* Fills @axes for @n series named @names in the @kind layout: each
 * series's axis in @series_axis (the group of its name, or with a
 * NULL @arrangement or a name it does not know an axis of its own per
 * name), the axes' labels in @axis_labels (QD_PLOT_MAX_PANELS of them),
 * the number of axes (at most the layout's) and the time axis's label.
 * The value ranges and the zoom are the caller's. */
void     qd_plot_arrangement_fill_axes (const QdPlotArrangement *arrangement,
                                        QdPlotLayoutKind         kind,
                                        const char *const       *names,
                                        guint                    n,
                                        guint                   *series_axis,
                                        const char             **axis_labels,
                                        QdPlotAxes              *axes);

/* Where each plot of a stack goes, its curves' rectangle, for an output
 * of @width x @height: the stack's plots share the left and right
 * edges, so that a time maps to the same column in all of them. Returns
 * the number of plots (1 when @o draws no stack). */
guint    qd_plot_subplots_get_areas   (const QdPlotRenderOptions *o,
                                       double                     width,
                                       double                     height,
                                       QdPlotRect                *areas);
/* The axis whose plot (SUBPLOTS) holds the point, or 0. */
guint    qd_plot_subplots_axis_at     (const QdPlotRenderOptions *o,
                                       double                     width,
                                       double                     height,
                                       double                     x,
                                       double                     y);
/* The value axis (AXES) whose band beside the plot area holds the
 * column @x, or -1 (inside the area, or not several y axes). */
int      qd_plot_yaxes_axis_at        (const QdPlotRenderOptions *o,
                                       double                     width,
                                       double                     height,
                                       double                     x);
/* Each axis's value range over the view's time range, from the same
 * column extremes the drawing uses, in @ranges (2 per axis, the
 * o->axes->n_axes of them); an axis with nothing to show gets
 * [-1, 1]. */
void     qd_plot_subplots_y_extents   (const QdPlotRenderOptions *o,
                                       double                     width,
                                       double                    *ranges);

/* For qd-plot-render.c and qd-plot-axes.c */
gboolean qd_plot_subplots_is_stacked  (const QdPlotRenderOptions *o);
void     qd_plot_subplots_render      (cairo_t                   *cr,
                                       const QdPlotRenderOptions *o,
                                       double                     width,
                                       double                     height);
int      qd_plot_subplots_legend_hit  (const QdPlotRenderOptions *o,
                                       double                     width,
                                       double                     height,
                                       double                     x,
                                       double                     y);
/* The margins of an area with the arrangement's extra axes and labels. */
void     qd_plot_subplots_margins     (const QdPlotRenderOptions *o,
                                       double                    *left,
                                       double                    *right,
                                       double                    *top,
                                       double                    *bottom);

G_END_DECLS

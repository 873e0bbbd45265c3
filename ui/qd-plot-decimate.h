/* qd-plot-decimate.h: per-pixel-column minimum and maximum of a trace
 *
 * A plot of ten million segments cannot draw each one every frame. For a
 * view of N pixel columns, each column keeps the exact minimum and
 * maximum of the trace over the column's time range (the extremes of a
 * cubic over an interval are at its ends or at the roots of its
 * derivative, so nothing is sampled), and the values where the trace
 * enters and leaves the column, which join neighbouring columns.
 *
 * The columns are a cache: while a run appends, an update only looks at
 * the segments added since the last one. Below them, exact summaries of
 * runs of consecutive segments make a change of view cheap as well: a
 * run inside one column is merged without reading its segments again. The last segment of a trace is
 * still open (its end is not known until the next one arrives), so it is
 * merged on top of the committed columns at each update and never stored.
 *
 * Where a memory budget replaced a trace's oldest segments by decimated
 * history (qd-trace.h), the columns over that span hold the buckets'
 * exact extremes, as bands: exact for columns as wide as whole buckets,
 * an envelope for finer ones, in every mode.
 *
 * GLib only: no GTK, no Cairo.
 */
#pragma once

#include <glib.h>

#include "qdevs.h"

G_BEGIN_DECLS

/* How a trace is drawn, and so which function the columns describe. */
typedef enum
{
  QD_PLOT_MODE_EXACT,   /* each segment's polynomial up to the next event */
  QD_PLOT_MODE_LINES,   /* straight lines between the events' values */
  QD_PLOT_MODE_STEPS,   /* each event's value held until the next */
  QD_PLOT_MODE_EVENTS,  /* a marker at each event, nothing in between */
} QdPlotMode;

/* One pixel column; empty when min > max. */
typedef struct
{
  double min;
  double max;
  double first;  /* the value where the trace enters the column */
  double last;   /* the value where it leaves */
} QdPlotColumn;

typedef struct _QdPlotColumns QdPlotColumns;

/* The exact minimum and maximum of @segment's polynomial for times in
 * [@ta, @tb] (@ta <= @tb). */
void                qd_plot_segment_range    (const QdSignal *segment,
                                              double          ta,
                                              double          tb,
                                              double         *min,
                                              double         *max);

QdPlotColumns      *qd_plot_columns_new      (void);
void                qd_plot_columns_free     (QdPlotColumns  *columns);
/* Forgets everything: the next update starts from scratch. */
void                qd_plot_columns_reset    (QdPlotColumns  *columns);

/* Brings the columns up to date for @trace drawn in @mode over [@t0, @t1]
 * split into @n_columns equal columns, and returns them (owned by
 * @columns, valid until the next call). The last segment ends at @t_end
 * (or at its own start if that is later). Any change of trace, mode or
 * view starts again from scratch; otherwise only new segments are read. */
const QdPlotColumn *qd_plot_columns_update   (QdPlotColumns  *columns,
                                              QdTrace        *trace,
                                              QdPlotMode      mode,
                                              double          t0,
                                              double          t1,
                                              guint           n_columns,
                                              double          t_end);
/* Pieces are summarised in runs of 2^@log2_size (8 unless set): small
 * runs for tests. Starts again from scratch. */
void                qd_plot_columns_set_block_size (QdPlotColumns *columns,
                                                    guint          log2_size);
/* How many segments the last update read (for measurements and tests). */
gsize               qd_plot_columns_get_n_read (QdPlotColumns *columns);

G_END_DECLS

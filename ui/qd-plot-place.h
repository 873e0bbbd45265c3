/* qd-plot-place.h: where a box inside the plot hides the least of the curves
 *
 * The legend sits inside the plot area. Where it sits is chosen from
 * what the curves cover, column by column, so that it never hides a
 * peak it could have left visible. No Cairo here: plain geometry over
 * pixel spans, so it is tested on its own.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The pixel rows a curve covers in one column of the plot area, @top
 * <= @bottom (y grows downwards); @top > @bottom: nothing drawn there. */
typedef struct
{
  double top, bottom;
} QdPlotSpan;

/* Where to put a @box_width x @box_height box inside the area
 * (@area_x, @area_y, @area_width, @area_height), @inset from its edges,
 * along its top or its bottom edge: the place that covers the fewest
 * drawn pixels of the @n_series curves, whose spans per column of the
 * area are @spans[i][0 .. @n_columns). Within a pixel, a corner goes
 * before a place between them, the right before the left and the top
 * before the bottom, so a legend stays in the top-right corner unless a
 * curve is there. Returns the covered pixels; the box's corner in @x, @y. */
double qd_plot_place_box (double                   area_x,
                          double                   area_y,
                          double                   area_width,
                          double                   area_height,
                          double                   box_width,
                          double                   box_height,
                          double                   inset,
                          const QdPlotSpan *const *spans,
                          guint                    n_series,
                          guint                    n_columns,
                          double                  *x,
                          double                  *y);

G_END_DECLS

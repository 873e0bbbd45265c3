/* qd-plot-place.c: where a box inside the plot hides the least of the curves
 *
 * For each of the two rows a box can sit in (top and bottom), the pixels
 * it would cover are summed per column of the area, then a running sum
 * gives the cover of every horizontal position at once: the whole search
 * is linear in the columns, cheap enough for every frame of a live plot.
 */
#include <math.h>

#include "qd-plot-place.h"

/* Candidate positions are this many pixels apart. */
#define PLACE_STEP 4.0

double
qd_plot_place_box (double                   area_x,
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
                   double                  *y)
{
  g_autofree double *prefix = g_new (double, n_columns + 1);
  double rows[2] = { area_y + inset, area_y + area_height - box_height - inset };
  double left = area_x + inset;
  double right = MAX (left, area_x + area_width - box_width - inset);
  double best = INFINITY, best_cover = 0.0;

  *x = right;
  *y = rows[0];
  for (guint r = 0; r < G_N_ELEMENTS (rows); r++)
    {
      double top = rows[r], bottom = rows[r] + box_height;

      prefix[0] = 0.0;
      for (guint k = 0; k < n_columns; k++)
        {
          double cover = 0.0;

          for (guint i = 0; i < n_series; i++)
            {
              const QdPlotSpan *s = &spans[i][k];

              if (s->top <= s->bottom)
                cover += MAX (0.0, MIN (bottom, s->bottom) - MAX (top, s->top));
            }
          prefix[k + 1] = prefix[k] + cover;
        }
      for (double bx = right; bx >= left - 1e-9; bx -= PLACE_STEP)
        {
          long k0 = CLAMP ((long) floor (bx - area_x), 0, (long) n_columns);
          long k1 = CLAMP ((long) ceil (bx + box_width - area_x), k0, (long) n_columns);
          double cover = prefix[k1] - prefix[k0];
          gboolean corner = bx == right || bx <= left + 1e-9;
          /* Less than a pixel: corners first (a legend in mid-air looks
           * lost), the right before the left, the top before the bottom. */
          double order = (corner ? 0.0 : 0.5) + (bx == right ? 0.0 : 0.2) + 0.1 * r;

          if (cover + order < best)
            {
              best = cover + order;
              best_cover = cover;
              *x = bx;
              *y = top;
            }
          /* Also try the left corner exactly, whatever the step. */
          if (bx > left && bx - PLACE_STEP < left)
            bx = left + PLACE_STEP;
        }
    }
  return best_cover;
}

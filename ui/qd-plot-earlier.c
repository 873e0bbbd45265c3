/* qd-plot-earlier.c: the plot's earlier runs, each in a colour of its own
 * with a row in the legend (qd-plot.h, qd-plot-runs.h)
 *
 * The runs' list lives in the plot (qd_plot_get_run_list()); the traces
 * of a run are the plot's earlier series of its number.
 */
#include <glib/gi18n-lib.h>

#include "qd-plot.h"
#include "qd-plot-private.h"

void
qd_plot_set_run_info (QdPlot     *self,
                      guint       number,
                      const char *note)
{
  g_return_if_fail (QD_IS_PLOT (self));
  qd_plot_get_run_list (self)->current_number = number;
  g_free (qd_plot_get_run_list (self)->current_note);
  qd_plot_get_run_list (self)->current_note = g_strdup (note);
  qd_plot_refit (self);
}

void
qd_plot_set_run_note (QdPlot     *self,
                      guint       number,
                      const char *note)
{
  int r;

  g_return_if_fail (QD_IS_PLOT (self));
  r = qd_plot_run_list_find (qd_plot_get_run_list (self), number);
  if (r >= 0)
    {
      QdPlotRun *run = &g_array_index (qd_plot_get_run_list (self)->runs, QdPlotRun, r);

      g_free (run->note);
      run->note = g_strdup (note);
    }
  else if (number != 0 && number == qd_plot_get_run_list (self)->current_number)
    {
      g_free (qd_plot_get_run_list (self)->current_note);
      qd_plot_get_run_list (self)->current_note = g_strdup (note);
    }
  qd_plot_refit (self);
}

guint
qd_plot_get_n_runs (QdPlot *self)
{
  g_return_val_if_fail (QD_IS_PLOT (self), 0);
  return qd_plot_get_run_list (self)->runs->len;
}

static QdPlotRun *
run_at (QdPlot *self,
        guint   index)
{
  g_return_val_if_fail (index < qd_plot_get_run_list (self)->runs->len, NULL);
  return &g_array_index (qd_plot_get_run_list (self)->runs, QdPlotRun, index);
}

char *
qd_plot_dup_run_legend (QdPlot *self,
                        guint   index)
{
  QdPlotRun *run;

  g_return_val_if_fail (QD_IS_PLOT (self), NULL);
  run = run_at (self, index);
  return run != NULL ? qd_plot_run_legend_text (run) : NULL;
}

void
qd_plot_get_run_color (QdPlot  *self,
                       guint    index,
                       GdkRGBA *color)
{
  QdPlotRun *run;

  g_return_if_fail (QD_IS_PLOT (self));
  g_return_if_fail (color != NULL);
  if ((run = run_at (self, index)) == NULL)
    return;
  color->red = run->color.red;
  color->green = run->color.green;
  color->blue = run->color.blue;
  color->alpha = run->color.alpha;
}

void
qd_plot_set_run_visible (QdPlot   *self,
                         guint     index,
                         gboolean  visible)
{
  QdPlotRun *run;

  g_return_if_fail (QD_IS_PLOT (self));
  if ((run = run_at (self, index)) == NULL)
    return;
  run->visible = !!visible;
  qd_plot_refit (self);
}

gboolean
qd_plot_get_run_visible (QdPlot *self,
                         guint   index)
{
  QdPlotRun *run;

  g_return_val_if_fail (QD_IS_PLOT (self), FALSE);
  run = run_at (self, index);
  return run != NULL && run->visible;
}

guint
qd_plot_get_n_dropped_runs (QdPlot *self)
{
  g_return_val_if_fail (QD_IS_PLOT (self), 0);
  return qd_plot_get_run_list (self)->n_dropped;
}

guint
qd_plot_add_run (QdPlot            *self,
                 GPtrArray         *traces,
                 const char *const *labels,
                 const char        *title,
                 const char        *note,
                 guint              group)
{
  QdPlotRun *run;

  g_return_val_if_fail (QD_IS_PLOT (self), 0);
  g_return_val_if_fail (traces != NULL, 0);
  g_return_val_if_fail (group > 0, 0);

  /* Numbered apart from the editor's runs, whose numbers the session
   * gives. */
  run = qd_plot_run_list_add (qd_plot_get_run_list (self), 0x80000000u + qd_plot_get_run_list (self)->next_named++,
                              title, note, NULL, group);
  for (guint i = 0; i < traces->len; i++)
    {
      QdTrace *trace = g_ptr_array_index (traces, i);
      const char *name = labels != NULL && labels[i] != NULL ? labels[i]
                                                            : qd_trace_get_name (trace);
      /* TRANSLATORS: a trace of a named earlier run in the cursor's
       * readout: "x1 (QSS3)" */
      g_autofree char *label = g_strdup_printf (_("%s (%s)"), name, title != NULL ? title : "");
      QdPlotColor color;

      /* What a current trace of the same name takes after it. */
      qd_plot_palette_color (i, &color);
      qd_plot_add_earlier_trace (self, trace, name, label, run->number, &color);
    }
  qd_plot_refit (self);
  return qd_plot_get_run_list (self)->runs->len - 1;
}

void
qd_plot_remove_run_group (QdPlot *self,
                          guint   group)
{
  g_return_if_fail (QD_IS_PLOT (self));

  for (guint r = qd_plot_get_run_list (self)->runs->len; r > 0; r--)
    {
      QdPlotRun *run = &g_array_index (qd_plot_get_run_list (self)->runs, QdPlotRun, r - 1);

      if (run->group != group)
        continue;
      qd_plot_remove_earlier_run (self, run->number);
      qd_plot_run_list_remove (qd_plot_get_run_list (self), r - 1);
    }
  qd_plot_refit (self);
}


/* qd-plot-runs.c: earlier runs in a plot, each in a colour of its own
 * (qd-plot-runs.h)
 */
#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#include "qd-plot-render-private.h"
#include "qd-plot-runs-private.h"

void
qd_plot_run_palette_color (guint           index,
                           QdPlotRunColor *color)
{
  /* GNOME's palette again, but starting where the current traces' one
   * (blue, red, green, orange...) is least likely to be in use, and
   * darker shades, which stay readable once lightened and dashed. */
  static const guint32 palette[] = {
    0x813d9c, 0x0b8a9e, 0xc88800, 0x865e3c,
    0xc061cb, 0x3a7d00, 0x1a5fb4, 0x5e5c64,
  };
  guint32 rgb = palette[index % G_N_ELEMENTS (palette)];

  color->red = ((rgb >> 16) & 0xff) / 255.0;
  color->green = ((rgb >> 8) & 0xff) / 255.0;
  color->blue = (rgb & 0xff) / 255.0;
  color->alpha = 1.0;
}

guint
qd_plot_run_dashes (guint   signal,
                    double  line_width,
                    double *dashes)
{
  /* Long dashes, short dashes, dash-dot: three signals of one run told
   * apart without a colour each. Scaled with the line so that a thick
   * export keeps the rhythm. */
  double w = MAX (line_width, 1.0);

  switch (signal % 3)
    {
    case 0:
      dashes[0] = 7.0 * w;
      dashes[1] = 3.0 * w;
      return 2;
    case 1:
      dashes[0] = 2.5 * w;
      dashes[1] = 2.5 * w;
      return 2;
    default:
      dashes[0] = 7.0 * w;
      dashes[1] = 2.5 * w;
      dashes[2] = 1.0 * w;
      dashes[3] = 2.5 * w;
      return 4;
    }
}

char *
qd_plot_run_legend_text (const QdPlotRun *run)
{
  g_autofree char *title = run->title != NULL
                           /* TRANSLATORS: an earlier run in a plot's legend */
                           ? g_strdup (run->title) : g_strdup_printf (_("Run %u"), run->number);
  g_autofree char *state = NULL;

  if (run->decimated)
    /* TRANSLATORS: an earlier run whose oldest part is kept only as
     * min/max history, to leave memory to later runs: "Run 2
     * (decimated)". */
    state = g_strdup_printf (_("%s (decimated)"), title);
  else
    state = g_steal_pointer (&title);
  if (run->note == NULL || *run->note == '\0')
    return g_steal_pointer (&state);
  /* TRANSLATORS: a run and what was different in it: "Run 2 · k = 2" */
  return g_strdup_printf (_("%s · %s"), state, run->note);
}

char *
qd_plot_run_dropped_text (guint n_dropped)
{
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "%u earlier run dropped (trace memory)",
                                       "%u earlier runs dropped (trace memory)",
                                       n_dropped),
                          n_dropped);
}

char *
qd_plot_run_current_text (guint       number,
                          const char *note)
{
  /* TRANSLATORS: the title of a plot's legend over the current run's
   * traces, when earlier runs are shown too */
  g_autofree char *title = g_strdup_printf (_("Run %u (current)"), number);

  if (note == NULL || *note == '\0')
    return g_steal_pointer (&title);
  return g_strdup_printf (_("%s · %s"), title, note);
}

void
qd_plot_run_draw_swatch (cairo_t              *cr,
                         const QdPlotRun      *run,
                         const QdPlotRunColor *faded,
                         double                x,
                         double                y,
                         double                width)
{
  double dashes[4];
  guint n = qd_plot_run_dashes (0, 1.0, dashes);

  cairo_save (cr);
  cairo_set_source_rgba (cr, faded->red, faded->green, faded->blue, faded->alpha);
  if (run->visible)
    {
      cairo_set_line_width (cr, 2.5);
      cairo_set_dash (cr, dashes, (int) n, 0.0);
      cairo_move_to (cr, x, floor (y) + 0.5);
      cairo_line_to (cr, x + width, floor (y) + 0.5);
    }
  else
    {
      /* Hidden: a hollow swatch, as for a hidden trace. */
      cairo_set_line_width (cr, 1.0);
      cairo_rectangle (cr, x + 0.5, floor (y) - 2.5, width - 1.0, 6.0);
    }
  cairo_stroke (cr);
  cairo_restore (cr);
}

void
qd_plot_run_clear (QdPlotRun *run)
{
  g_clear_pointer (&run->title, g_free);
  g_clear_pointer (&run->note, g_free);
}

void
qd_plot_set_series_dash (cairo_t                   *cr,
                         const QdPlotRenderOptions *o,
                         const QdPlotSeries        *s)
{
  double dashes[4];
  guint n;

  if (o->runs == NULL || !s->earlier || s->dash == 0)
    {
      cairo_set_dash (cr, NULL, 0, 0.0);
      return;
    }
  n = qd_plot_run_dashes (s->dash - 1, o->line_width, dashes);
  cairo_set_dash (cr, dashes, (int) n, 0.0);
}

void
qd_plot_draw_xy_runs (cairo_t                   *cr,
                      const QdPlotRenderOptions *o,
                      const QdPlotStyle         *style,
                      const Map                 *m)
{
  for (guint k = 0; k < o->n_xy_pairs; k++)
    {
      const QdPlotSeries *sx = &o->series[o->xy_pairs[2 * k]];
      const QdPlotSeries *sy = &o->series[o->xy_pairs[2 * k + 1]];
      QdPlotColor color;

      if (!sy->visible)
        continue;
      series_color (sy, style, &color);
      source_color (cr, &color);
      qd_plot_set_series_dash (cr, o, sy);
      qd_plot_draw_series_xy (cr, o, m, sx, sy);
    }
  cairo_set_dash (cr, NULL, 0, 0.0);
}

/* Whether run @k has a curve in the XY plot (a row in its legend). */
static gboolean
run_in_xy (const QdPlotRenderOptions *o,
           guint                      k)
{
  for (guint p = 0; p < o->n_xy_pairs; p++)
    if (o->series[o->xy_pairs[2 * p + 1]].run == k)
      return TRUE;
  return FALSE;
}

/* The legend's rows beyond the series */

gboolean
qd_plot_legend_is_series (const QdPlotRenderOptions *o,
                          guint                      index)
{
  /* With runs, an earlier run's traces have no rows of their own. */
  return !(o->runs != NULL && o->series[index].earlier);
}

char *
qd_plot_legend_row_text (const QdPlotRenderOptions *o,
                         guint                      row)
{
  guint k = row - o->n_series;

  if (k < o->n_runs)
    return qd_plot_run_legend_text (&o->runs[k]);
  if (row == QD_PLOT_LEGEND_DROPPED_ROW (o))
    return qd_plot_run_dropped_text (o->n_dropped);
  return g_strdup (o->current_title != NULL ? o->current_title : "");
}

guint
qd_plot_legend_run_rows (const QdPlotRenderOptions *o,
                         gboolean                   title,
                         guint                     *rows,
                         guint                      max_rows)
{
  guint n = 0;

  if (title)
    {
      if (o->current_title != NULL && o->n_runs > 0 && n < max_rows)
        rows[n++] = QD_PLOT_LEGEND_TITLE_ROW (o);
      return n;
    }
  for (guint k = 0; k < o->n_runs && n < max_rows; k++)
    if (!o->xy || run_in_xy (o, k))
      rows[n++] = o->n_series + k;
  if (o->n_dropped > 0 && n < max_rows)
    rows[n++] = QD_PLOT_LEGEND_DROPPED_ROW (o);
  return n;
}

void
qd_plot_draw_legend_run_row (cairo_t                   *cr,
                             const QdPlotRenderOptions *o,
                             const QdPlotStyle         *style,
                             guint                      row,
                             double                     x,
                             double                     y,
                             double                     swatch,
                             double                     pad)
{
  g_autofree char *text = qd_plot_legend_row_text (o, row);
  guint k = row - o->n_series;
  double alpha = 1.0;

  if (k < o->n_runs)
    {
      const QdPlotRun *run = &o->runs[k];
      QdPlotSeries s = { 0 };
      QdPlotColor color;
      QdPlotRunColor faded;

      /* The shade its curves have. */
      s.earlier = TRUE;
      s.color.red = run->color.red;
      s.color.green = run->color.green;
      s.color.blue = run->color.blue;
      s.color.alpha = run->color.alpha;
      series_color (&s, style, &color);
      faded.red = color.red;
      faded.green = color.green;
      faded.blue = color.blue;
      faded.alpha = color.alpha;
      qd_plot_run_draw_swatch (cr, run, &faded, x, y, swatch);
      if (!run->visible)
        alpha = 0.45;
    }
  else if (row == QD_PLOT_LEGEND_DROPPED_ROW (o))
    alpha = 0.6;
  cairo_set_source_rgba (cr, style->text.red, style->text.green, style->text.blue,
                         alpha * style->text.alpha);
  if (row == QD_PLOT_LEGEND_TITLE_ROW (o))
    {
      /* The title spans the swatch's column too. */
      draw_text (cr, text, x, y, 0.0, 0.5);
      return;
    }
  draw_text (cr, text, x + swatch + pad, y, 0.0, 0.5);
}

/* The list of runs */

void
qd_plot_run_list_init (QdPlotRunList *list)
{
  memset (list, 0, sizeof *list);
  list->runs = g_array_new (FALSE, TRUE, sizeof (QdPlotRun));
  g_array_set_clear_func (list->runs, (GDestroyNotify) qd_plot_run_clear);
  list->next_number = 1;
}

void
qd_plot_run_list_clear (QdPlotRunList *list)
{
  g_clear_pointer (&list->runs, g_array_unref);
  g_clear_pointer (&list->current_note, g_free);
}

void
qd_plot_run_list_reset (QdPlotRunList *list)
{
  g_array_set_size (list->runs, 0);
  list->n_dropped = 0;
  list->next_color = 0;
}

QdPlotRun *
qd_plot_run_list_add (QdPlotRunList *list,
                      guint          number,
                      const char    *title,
                      const char    *note,
                      gpointer       budget,
                      guint          group)
{
  QdPlotRun run = { 0 };

  run.number = number;
  run.title = g_strdup (title);
  run.note = g_strdup (note);
  run.visible = TRUE;
  run.budget = budget;
  run.group = group;
  qd_plot_run_palette_color (list->next_color++, &run.color);
  if (group == 0)
    list->next_number = MAX (list->next_number, number + 1);
  g_array_append_val (list->runs, run);
  return &g_array_index (list->runs, QdPlotRun, list->runs->len - 1);
}

QdPlotRun *
qd_plot_run_list_push_current (QdPlotRunList *list,
                               gpointer       budget)
{
  guint number = list->current_number != 0 ? list->current_number : list->next_number;
  QdPlotRun *run = qd_plot_run_list_add (list, number, NULL, list->current_note, budget, 0);

  list->current_number = 0;
  g_clear_pointer (&list->current_note, g_free);
  return run;
}

int
qd_plot_run_list_find (QdPlotRunList *list,
                       guint          number)
{
  for (guint i = 0; i < list->runs->len; i++)
    if (g_array_index (list->runs, QdPlotRun, i).number == number)
      return (int) i;
  return -1;
}

void
qd_plot_run_list_remove (QdPlotRunList *list,
                         guint          index)
{
  g_array_remove_index (list->runs, index);
}

/* The plot widget's side */

void
qd_plot_runs_fill_series (QdPlotRunList *list,
                          QdPlotSeries  *s,
                          guint          number,
                          guint          signal)
{
  int r = qd_plot_run_list_find (list, number);
  const QdPlotRun *run;

  if (r < 0)
    return;
  run = &g_array_index (list->runs, QdPlotRun, r);
  s->run = (guint) r;
  s->dash = 1 + signal;
  s->color.red = run->color.red;
  s->color.green = run->color.green;
  s->color.blue = run->color.blue;
  s->color.alpha = run->color.alpha;
  s->visible = s->visible && run->visible;
}

char *
qd_plot_runs_fill_options (QdPlotRunList       *list,
                           QdPlotRenderOptions *o)
{
  if (list->runs->len == 0 && list->n_dropped == 0)
    return NULL;
  o->runs = (const QdPlotRun *) list->runs->data;
  o->n_runs = list->runs->len;
  o->n_dropped = list->n_dropped;
  o->current_title = qd_plot_run_current_text (list->current_number != 0
                                               ? list->current_number
                                               : list->next_number,
                                               list->current_note);
  return (char *) o->current_title;
}

void
qd_plot_runs_forget_current (QdPlotRunList *list)
{
  list->current_number = 0;
  g_clear_pointer (&list->current_note, g_free);
}

void
qd_plot_runs_mark_decimated (QdPlotRunList *list,
                             gpointer       budget)
{
  for (guint i = 0; i < list->runs->len; i++)
    {
      QdPlotRun *run = &g_array_index (list->runs, QdPlotRun, i);

      if (run->budget == budget)
        run->decimated = TRUE;
    }
}

gboolean
qd_plot_runs_drop (QdPlotRunList *list,
                   gpointer       budget)
{
  gboolean dropped = FALSE;

  for (guint i = list->runs->len; i > 0; i--)
    if (g_array_index (list->runs, QdPlotRun, i - 1).budget == budget)
      {
        g_array_remove_index (list->runs, i - 1);
        list->n_dropped++;
        dropped = TRUE;
      }
  return dropped;
}

gboolean
qd_plot_runs_toggle_row (QdPlotRunList *list,
                         guint          k)
{
  QdPlotRun *run;

  if (k >= list->runs->len)
    return FALSE;
  run = &g_array_index (list->runs, QdPlotRun, k);
  run->visible = !run->visible;
  return TRUE;
}

/* qd-plot-subplots.c: a sink's arrangement of axes, and stacked plots
 *
 * The arrangement is parsed once from the sink's parameters into a
 * group per signal name and a label per group. A stack is drawn as one
 * plot per group through qd_plot_render(), each given its rectangle and
 * its value range, sharing the time range: a zoom or pan in time moves
 * them all, since there is one time range to move. Only the lowest
 * plot labels the time axis.
 */
#include <glib/gi18n-lib.h>

#include <string.h>

#include "qd-plot-render-private.h"
#include "qd-plot-subplots.h"

/* The space between two plots of a stack. */
#define PANEL_GAP     10.0

static const char *const kind_words[] = { "single", "subplots", "axes" };

const char *
qd_plot_layout_kind_to_string (QdPlotLayoutKind kind)
{
  g_return_val_if_fail (kind < G_N_ELEMENTS (kind_words), "single");
  return kind_words[kind];
}

gboolean
qd_plot_layout_kind_from_string (const char       *text,
                                 QdPlotLayoutKind *kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (kind_words); i++)
    if (g_strcmp0 (text, kind_words[i]) == 0)
      {
        *kind = (QdPlotLayoutKind) i;
        return TRUE;
      }
  return FALSE;
}

/* Arrangement */

struct _QdPlotArrangement
{
  QdPlotLayoutKind kind;
  guint            n_names;
  char           **names;        /* the signals, in input order */
  guint           *group;        /* per signal */
  guint            n_groups;
  char           **axis_labels;  /* per group */
  char            *single_label; /* every signal on one axis */
  char            *time_label;   /* NULL: none */
};

void
qd_plot_arrangement_free (QdPlotArrangement *a)
{
  if (a == NULL)
    return;
  g_strfreev (a->names);
  g_free (a->group);
  g_strfreev (a->axis_labels);
  g_free (a->single_label);
  g_free (a->time_label);
  g_free (a);
}

QdPlotArrangement *
qd_plot_arrangement_copy (const QdPlotArrangement *a)
{
  QdPlotArrangement *copy;

  g_return_val_if_fail (a != NULL, NULL);
  copy = g_new0 (QdPlotArrangement, 1);
  copy->kind = a->kind;
  copy->n_names = a->n_names;
  copy->names = g_strdupv (a->names);
  copy->group = g_memdup2 (a->group, MAX (a->n_names, 1) * sizeof (guint));
  copy->n_groups = a->n_groups;
  copy->axis_labels = g_strdupv (a->axis_labels);
  copy->single_label = g_strdup (a->single_label);
  copy->time_label = g_strdup (a->time_label);
  return copy;
}

/* The signal a group member names: a name, or an input number from 1. */
static int
find_member (const char        *member,
             const char *const *names,
             guint              n_names)
{
  char *end = NULL;
  guint64 number;

  for (guint i = 0; i < n_names; i++)
    if (strcmp (names[i], member) == 0)
      return (int) i;
  number = g_ascii_strtoull (member, &end, 10);
  if (end != member && *end == '\0' && number >= 1 && number <= n_names)
    return (int) (number - 1);
  return -1;
}

/* Splits "v [V]" into "v" and "V"; a label without a unit in brackets
 * at its end has the unit NULL. */
static void
split_unit (const char  *label,
            char       **base,
            char       **unit)
{
  const char *open = strrchr (label, '[');
  gsize len = strlen (label);

  if (open != NULL && len > 0 && label[len - 1] == ']')
    {
      *base = g_strstrip (g_strndup (label, open - label));
      *unit = g_strstrip (g_strndup (open + 1, label + len - 1 - (open + 1)));
      return;
    }
  *base = g_strdup (label);
  *unit = NULL;
}

/* A group's label: "v1, v2 [V]" when its signals share a unit, else
 * their labels one after the other. */
static char *
group_label (char  **labels,
             guint  *group,
             guint   n_names,
             guint   g)
{
  GString *bases = g_string_new (NULL), *whole = g_string_new (NULL);
  char *shared = NULL;
  gboolean same = TRUE;

  for (guint i = 0; i < n_names; i++)
    {
      char *base, *unit;

      if (group[i] != g)
        continue;
      split_unit (labels[i], &base, &unit);
      if (whole->len > 0)
        {
          g_string_append (whole, ", ");
          g_string_append (bases, ", ");
        }
      g_string_append (whole, labels[i]);
      g_string_append (bases, base);
      if (shared == NULL && bases->len == strlen (base))
        shared = g_strdup (unit);
      else if (g_strcmp0 (shared, unit) != 0)
        same = FALSE;
      g_free (base);
      g_free (unit);
    }
  if (same && shared != NULL && *shared != '\0')
    {
      g_string_append_printf (bases, " [%s]", shared);
      g_string_free (whole, TRUE);
      g_free (shared);
      return g_string_free (bases, FALSE);
    }
  g_free (shared);
  g_string_free (bases, TRUE);
  return g_string_free (whole, FALSE);
}

static gboolean
parse_groups (const char         *groups,
              const char *const  *names,
              guint               n_names,
              guint              *group,
              guint              *n_groups,
              GError            **error)
{
  g_auto(GStrv) parts = g_strsplit (groups != NULL ? groups : "", ";", -1);
  guint n = 0;

  for (guint i = 0; i < n_names; i++)
    group[i] = G_MAXUINT;
  for (guint p = 0; parts[p] != NULL; p++)
    {
      g_auto(GStrv) members = g_strsplit (parts[p], ",", -1);
      gboolean any = FALSE;

      for (guint m = 0; members[m] != NULL; m++)
        {
          const char *member = g_strstrip (members[m]);
          int s;

          if (*member == '\0')
            continue;
          s = find_member (member, names, n_names);
          if (s < 0)
            {
              g_autoptr(GString) known = g_string_new (NULL);

              for (guint i = 0; i < n_names; i++)
                g_string_append_printf (known, "%s%s", i > 0 ? ", " : "", names[i]);
              g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                           _("groups: '%s' is not one of the signals (%s); "
                             "name them, or give their input numbers from 1"),
                           member, known->str);
              return FALSE;
            }
          if (group[s] != G_MAXUINT && group[s] != n)
            {
              g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                           _("groups: the signal '%s' is in two groups; "
                             "put each signal in one group"), names[s]);
              return FALSE;
            }
          group[s] = n;
          any = TRUE;
        }
      if (any)
        n++;
    }
  /* The signals in no group: an axis each, after the groups. */
  for (guint i = 0; i < n_names; i++)
    if (group[i] == G_MAXUINT)
      group[i] = n++;
  *n_groups = n;
  return TRUE;
}

QdPlotArrangement *
qd_plot_arrangement_parse (const char         *layout,
                           const char         *groups,
                           const char         *labels,
                           const char         *time_label,
                           const char *const  *names,
                           guint               n_names,
                           GError            **error)
{
  g_autoptr(QdPlotArrangement) a = g_new0 (QdPlotArrangement, 1);
  g_auto(GStrv) label_parts = NULL;
  g_auto(GStrv) full = NULL;

  g_return_val_if_fail (names != NULL || n_names == 0, NULL);

  if (layout != NULL && *layout != '\0'
      && !qd_plot_layout_kind_from_string (layout, &a->kind))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("layout: '%s' is not a layout; use single, subplots or axes"),
                   layout);
      return NULL;
    }
  a->n_names = n_names;
  a->names = g_new0 (char *, n_names + 1);
  for (guint i = 0; i < n_names; i++)
    a->names[i] = g_strdup (names[i]);
  a->group = g_new0 (guint, MAX (n_names, 1));
  if (!parse_groups (groups, names, n_names, a->group, &a->n_groups, error))
    return NULL;

  /* Each signal's label: its entry of @labels, else its name. */
  label_parts = g_strsplit (labels != NULL ? labels : "", ",", -1);
  full = g_new0 (char *, n_names + 1);
  for (guint i = 0, n_parts = g_strv_length (label_parts); i < n_names; i++)
    {
      const char *text = i < n_parts ? g_strstrip (label_parts[i]) : "";

      full[i] = g_strdup (*text != '\0' ? text : names[i]);
    }
  a->axis_labels = g_new0 (char *, a->n_groups + 1);
  for (guint g = 0; g < a->n_groups; g++)
    a->axis_labels[g] = group_label (full, a->group, n_names, g);
  {
    g_autofree guint *all = g_new0 (guint, MAX (n_names, 1));

    a->single_label = group_label (full, all, n_names, 0);
  }
  if (time_label != NULL && *time_label != '\0')
    a->time_label = g_strstrip (g_strdup (time_label));
  return g_steal_pointer (&a);
}

QdPlotLayoutKind
qd_plot_arrangement_get_kind (const QdPlotArrangement *a)
{
  g_return_val_if_fail (a != NULL, QD_PLOT_LAYOUT_SINGLE);
  return a->kind;
}

void
qd_plot_arrangement_set_kind (QdPlotArrangement *a,
                              QdPlotLayoutKind   kind)
{
  g_return_if_fail (a != NULL);
  a->kind = kind;
}

guint
qd_plot_arrangement_get_n_groups (const QdPlotArrangement *a)
{
  g_return_val_if_fail (a != NULL, 0);
  return a->n_groups;
}

int
qd_plot_arrangement_group_of (const QdPlotArrangement *a,
                              const char              *name)
{
  g_return_val_if_fail (a != NULL, -1);
  for (guint i = 0; i < a->n_names; i++)
    if (g_strcmp0 (a->names[i], name) == 0)
      return (int) a->group[i];
  return -1;
}

const char *
qd_plot_arrangement_get_axis_label (const QdPlotArrangement *a,
                                    guint                    group)
{
  g_return_val_if_fail (a != NULL, NULL);
  return group < a->n_groups ? a->axis_labels[group] : NULL;
}

const char *
qd_plot_arrangement_get_single_label (const QdPlotArrangement *a)
{
  g_return_val_if_fail (a != NULL, NULL);
  return a->n_names > 0 ? a->single_label : NULL;
}

const char *
qd_plot_arrangement_get_time_label (const QdPlotArrangement *a)
{
  g_return_val_if_fail (a != NULL, NULL);
  return a->time_label;
}

void
qd_plot_arrangement_fill_axes (const QdPlotArrangement *a,
                               QdPlotLayoutKind         kind,
                               const char *const       *names,
                               guint                    n,
                               guint                   *series_axis,
                               const char             **axis_labels,
                               QdPlotAxes              *ax)
{
  g_autoptr(GPtrArray) unknown = g_ptr_array_new ();
  guint n_known = a != NULL ? a->n_groups : 0;
  guint max = kind == QD_PLOT_LAYOUT_AXES ? QD_PLOT_MAX_Y_AXES
              : kind == QD_PLOT_LAYOUT_SUBPLOTS ? QD_PLOT_MAX_PANELS : 1;

  for (guint i = 0; i < n; i++)
    {
      int g = a != NULL ? qd_plot_arrangement_group_of (a, names[i]) : -1;
      guint u;

      if (g < 0)
        {
          for (u = 0; u < unknown->len; u++)
            if (g_strcmp0 (g_ptr_array_index (unknown, u), names[i]) == 0)
              break;
          if (u == unknown->len)
            g_ptr_array_add (unknown, (gpointer) names[i]);
          g = (int) (n_known + u);
        }
      series_axis[i] = (guint) g;
    }
  memset (ax, 0, sizeof *ax);
  ax->kind = kind;
  ax->n_axes = CLAMP (n_known + unknown->len, 1, max);
  if (ax->n_axes == 1)
    ax->kind = QD_PLOT_LAYOUT_SINGLE;
  for (guint k = 0; k < ax->n_axes; k++)
    axis_labels[k] = a == NULL ? NULL
                     : ax->n_axes == 1 ? qd_plot_arrangement_get_single_label (a)
                     : qd_plot_arrangement_get_axis_label (a, k);
  /* The last axis, when the groups beyond it share it: the names of its
   * signals. */
  if (ax->n_axes > 1 && n_known + unknown->len > ax->n_axes)
    axis_labels[ax->n_axes - 1] = NULL;
  ax->series_axis = series_axis;
  ax->axis_labels = axis_labels;
  ax->x_label = a != NULL ? a->time_label : NULL;
}

QdPlotArrangement *
qd_plot_arrangement_from_block (const QdBlock      *block,
                                const char *const  *names,
                                guint               n_names,
                                GError            **error)
{
  static const char *const params[] = { "layout", "groups", "labels", "time_label" };
  const QdBlockType *type = qd_block_get_type_info (block);

  for (guint i = 0; i < G_N_ELEMENTS (params); i++)
    if (type == NULL || qd_block_type_find_param (type, params[i]) < 0)
      return NULL;
  return qd_plot_arrangement_parse (qd_block_get_param_or_default (block, "layout"),
                                    qd_block_get_param_or_default (block, "groups"),
                                    qd_block_get_param_or_default (block, "labels"),
                                    qd_block_get_param_or_default (block, "time_label"),
                                    names, n_names, error);
}

/* Stacks */

void
qd_plot_subplots_margins (const QdPlotRenderOptions *o,
                          double                    *left,
                          double                    *right,
                          double                    *top,
                          double                    *bottom)
{
  const QdPlotAxes *ax = o->axes;

  *left = MARGIN_LEFT;
  *right = MARGIN_RIGHT;
  *top = MARGIN_TOP;
  *bottom = MARGIN_BOTTOM;
  if (ax == NULL)
    return;
  if (ax->x_label != NULL && !ax->hide_x_ticks)
    *bottom += X_LABEL_BAND;
  if (ax->zoomed && !o->xy)
    *top += ZOOM_BAND;
  if (ax->kind == QD_PLOT_LAYOUT_AXES && !o->xy)
    {
      /* Axis 1 at the right, 2 at the left beyond axis 0, 3 at the
       * right beyond axis 1. */
      guint n = MIN (ax->n_axes, QD_PLOT_MAX_Y_AXES);

      if (n >= 2)
        *right = EXTRA_AXIS_W;
      if (n >= 3)
        *left += EXTRA_AXIS_W;
      if (n >= 4)
        *right += EXTRA_AXIS_W;
    }
}

gboolean
qd_plot_subplots_is_stacked (const QdPlotRenderOptions *o)
{
  return o->axes != NULL && o->axes->kind == QD_PLOT_LAYOUT_SUBPLOTS
         && !o->axes->has_area && !o->xy && o->axes->n_axes > 1
         && o->axes->series_axis != NULL && o->axes->y_ranges != NULL;
}

static guint
n_panels (const QdPlotRenderOptions *o)
{
  return MIN (o->axes->n_axes, QD_PLOT_MAX_PANELS);
}

static guint
series_axis (const QdPlotRenderOptions *o,
             guint                      i,
             guint                      n_axes)
{
  return MIN (o->axes->series_axis[i], n_axes - 1);
}

guint
qd_plot_subplots_get_areas (const QdPlotRenderOptions *o,
                            double                     width,
                            double                     height,
                            QdPlotRect                *areas)
{
  double left, right, top, bottom, panel_h;
  guint n;

  if (!qd_plot_subplots_is_stacked (o))
    {
      qd_plot_render_get_area (o, width, height, &areas[0]);
      return 1;
    }
  n = n_panels (o);
  qd_plot_subplots_margins (o, &left, &right, &top, &bottom);
  panel_h = floor ((height - top - bottom - PANEL_GAP * (n - 1)) / n);
  panel_h = MAX (panel_h, 1.0);
  for (guint k = 0; k < n; k++)
    {
      areas[k].x = left;
      areas[k].y = top + k * (panel_h + PANEL_GAP);
      areas[k].width = MAX (1.0, width - left - right);
      areas[k].height = panel_h;
    }
  return n;
}

guint
qd_plot_subplots_axis_at (const QdPlotRenderOptions *o,
                          double                     width,
                          double                     height,
                          double                     x,
                          double                     y)
{
  QdPlotRect areas[QD_PLOT_MAX_PANELS];
  guint n = qd_plot_subplots_get_areas (o, width, height, areas);

  /* A point in a gap or a margin belongs to the nearest plot. */
  for (guint k = 0; k + 1 < n; k++)
    if (y < areas[k].y + areas[k].height + 0.5 * PANEL_GAP)
      return k;
  return n - 1;
}

/* The options of plot @k of a stack: its series (their indices in @o in
 * @index), its rectangle and its value range. */
typedef struct
{
  QdPlotRenderOptions options;
  QdPlotAxes          axes;
  const char         *label;
  QdPlotSeries       *series;
  guint              *index;
} Panel;

static void
panel_init (Panel                     *p,
            const QdPlotRenderOptions *o,
            const QdPlotRect          *areas,
            guint                      n,
            guint                      k)
{
  guint m = 0;

  p->series = g_new0 (QdPlotSeries, MAX (o->n_series, 1));
  p->index = g_new0 (guint, MAX (o->n_series, 1));
  for (guint i = 0; i < o->n_series; i++)
    if (series_axis (o, i, n) == k)
      {
        p->series[m] = o->series[i];
        p->index[m++] = i;
      }
  p->label = o->axes->axis_labels != NULL ? o->axes->axis_labels[k] : NULL;
  memset (&p->axes, 0, sizeof p->axes);
  p->axes.kind = QD_PLOT_LAYOUT_SINGLE;
  p->axes.n_axes = 1;
  p->axes.axis_labels = &p->label;
  p->axes.x_label = k + 1 == n ? o->axes->x_label : NULL;
  /* The zoom indicator once, over the highest plot. */
  p->axes.zoomed = k == 0 && o->axes->zoomed;
  p->axes.data_x_min = o->axes->data_x_min;
  p->axes.data_x_max = o->axes->data_x_max;
  p->axes.has_area = TRUE;
  p->axes.area = areas[k];
  p->axes.hide_x_ticks = k + 1 < n;

  p->options = *o;
  p->options.series = p->series;
  p->options.n_series = m;
  p->options.y_min = o->axes->y_ranges[2 * k];
  p->options.y_max = o->axes->y_ranges[2 * k + 1];
  p->options.draw_background = FALSE;
  p->options.has_box = FALSE;
  p->options.axes = &p->axes;
  /* The earlier runs' rows (and the current run's title) once, in the
   * highest plot's legend: a run spans every plot, and its row hides or
   * shows it in all of them. The others list their current traces. */
  if (k > 0)
    {
      p->options.n_runs = 0;
      p->options.n_dropped = 0;
      p->options.current_title = NULL;
    }
}

static void
panel_clear (Panel *p)
{
  g_free (p->series);
  g_free (p->index);
}

void
qd_plot_subplots_render (cairo_t                   *cr,
                         const QdPlotRenderOptions *o,
                         double                     width,
                         double                     height)
{
  QdPlotRect areas[QD_PLOT_MAX_PANELS];
  guint n = qd_plot_subplots_get_areas (o, width, height, areas);

  cairo_save (cr);
  if (o->draw_background)
    {
      QdPlotStyle light;
      const QdPlotStyle *style = o->style;

      if (style == NULL)
        {
          qd_plot_style_init_light (&light);
          style = &light;
        }
      source_color (cr, &style->background);
      cairo_rectangle (cr, 0, 0, width, height);
      cairo_fill (cr);
    }
  for (guint k = 0; k < n; k++)
    {
      Panel p;

      panel_init (&p, o, areas, n, k);
      qd_plot_render (cr, &p.options, width, height);
      panel_clear (&p);
    }
  if (o->has_box)
    qd_plot_draw_box (cr, &o->box);
  cairo_restore (cr);
}

int
qd_plot_subplots_legend_hit (const QdPlotRenderOptions *o,
                             double                     width,
                             double                     height,
                             double                     x,
                             double                     y)
{
  QdPlotRect areas[QD_PLOT_MAX_PANELS];
  guint n = qd_plot_subplots_get_areas (o, width, height, areas);
  int hit = -1;

  for (guint k = 0; k < n && hit < 0; k++)
    {
      Panel p;
      int h;

      panel_init (&p, o, areas, n, k);
      h = qd_plot_render_legend_hit (&p.options, width, height, x, y);
      /* A row past the plot's series is a run's: the same past all. */
      if (h >= 0 && (guint) h >= p.options.n_series)
        hit = (int) (o->n_series + (h - p.options.n_series));
      else if (h >= 0)
        hit = (int) p.index[h];
      panel_clear (&p);
    }
  return hit;
}

void
qd_plot_subplots_y_extents (const QdPlotRenderOptions *o,
                            double                     width,
                            double                    *ranges)
{
  guint n;

  if (o->axes == NULL || o->axes->series_axis == NULL)
    return;
  n = o->axes->kind == QD_PLOT_LAYOUT_AXES ? MIN (o->axes->n_axes, QD_PLOT_MAX_Y_AXES)
                                            : MIN (o->axes->n_axes, QD_PLOT_MAX_PANELS);
  for (guint k = 0; k < n; k++)
    {
      g_autofree QdPlotSeries *series = g_new0 (QdPlotSeries, MAX (o->n_series, 1));
      QdPlotRenderOptions po = *o;
      guint m = 0;

      for (guint i = 0; i < o->n_series; i++)
        if (series_axis (o, i, n) == k)
          series[m++] = o->series[i];
      po.series = series;
      po.n_series = m;
      if (!qd_plot_render_get_y_extent (&po, width, &ranges[2 * k], &ranges[2 * k + 1]))
        {
          ranges[2 * k] = -1.0;
          ranges[2 * k + 1] = 1.0;
        }
    }
}

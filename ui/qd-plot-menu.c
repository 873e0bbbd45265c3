/* qd-plot-menu.c: the plot's context menu (qd-plot-menu.h)
 *
 * Its items act through two groups: the layout and Reset Zoom through
 * the plot's own widget actions ("plot.layout", "plot.reset-view", also
 * its "layout" property), the rest through the menu's "plotmenu" group.
 * The menu's state lives on the plot as object data: the candidates for
 * XY, the XY choice by trace names (so that it holds for the next run's
 * traces of the same names), and what the last right click pointed at.
 */
#include <glib/gi18n-lib.h>

#include <math.h>

#include "qd-plot-menu.h"
#include "qd-plot-private.h"

#define DATA_KEY "qd-plot-menu"

typedef struct
{
  QdPlot             *plot;        /* the owner (not a reference) */
  GtkWidget          *popover;
  GSimpleActionGroup *actions;
  GMenu              *model;
  GPtrArray          *traces;      /* QdTrace*: the XY candidates given */
  GPtrArray          *labels;      /* char*, with them */
  char               *xy_names[2]; /* the XY choice, by trace names */
  gboolean            xy_active;   /* the menu set the plot's XY */
  QdPlotBreakFunc     break_func;
  gpointer            break_data;
  /* The last right click. */
  double              click_t, click_v;
  QdTrace            *click_trace; /* nearest current trace, or NULL */
} PlotMenu;

static gboolean
showing_xy (QdPlot *plot)
{
  QdTrace *x, *y;

  return qd_plot_get_xy_traces (plot, &x, &y);
}

static PlotMenu *
get_menu (QdPlot *plot)
{
  return g_object_get_data (G_OBJECT (plot), DATA_KEY);
}

static void
menu_free (gpointer data)
{
  PlotMenu *menu = data;

  g_clear_pointer (&menu->popover, gtk_widget_unparent);
  g_clear_object (&menu->actions);
  g_clear_object (&menu->model);
  g_clear_pointer (&menu->traces, g_ptr_array_unref);
  g_clear_pointer (&menu->labels, g_ptr_array_unref);
  g_free (menu->xy_names[0]);
  g_free (menu->xy_names[1]);
  g_free (menu);
}

/* The candidates: those given, else the plot's own traces. */
static guint
n_candidates (PlotMenu *menu)
{
  return menu->traces != NULL ? menu->traces->len : qd_plot_get_n_traces (menu->plot);
}

static QdTrace *
candidate (PlotMenu *menu,
           guint     i)
{
  return menu->traces != NULL ? g_ptr_array_index (menu->traces, i)
                              : qd_plot_get_trace (menu->plot, i);
}

static const char *
candidate_label (PlotMenu *menu,
                 guint     i)
{
  return menu->traces != NULL ? g_ptr_array_index (menu->labels, i)
                              : qd_plot_get_trace_label (menu->plot, i);
}

static int
find_candidate (PlotMenu   *menu,
                const char *name)
{
  for (guint i = 0; name != NULL && i < n_candidates (menu); i++)
    if (g_strcmp0 (qd_trace_get_name (candidate (menu, i)), name) == 0)
      return (int) i;
  return -1;
}

static void
sync_states (PlotMenu *menu)
{
  int x = menu->xy_active ? find_candidate (menu, menu->xy_names[0]) : -1;
  int y = menu->xy_active ? find_candidate (menu, menu->xy_names[1]) : -1;

  g_simple_action_set_state (G_SIMPLE_ACTION (g_action_map_lookup_action (
                               G_ACTION_MAP (menu->actions), "xy-x")),
                             g_variant_new_int32 (x));
  g_simple_action_set_state (G_SIMPLE_ACTION (g_action_map_lookup_action (
                               G_ACTION_MAP (menu->actions), "xy-y")),
                             g_variant_new_int32 (y));
}

/* Shows the XY of the names chosen, when both are candidates; else the
 * time plot. */
static void
apply_xy (PlotMenu *menu)
{
  int x = find_candidate (menu, menu->xy_names[0]);
  int y = find_candidate (menu, menu->xy_names[1]);

  if (menu->xy_active && x >= 0 && y >= 0)
    qd_plot_set_xy_traces (menu->plot, candidate (menu, x), candidate_label (menu, x),
                           candidate (menu, y), candidate_label (menu, y));
  else
    {
      menu->xy_active = FALSE;
      qd_plot_set_xy (menu->plot, -1, -1);
    }
  sync_states (menu);
}

static void
choose_axis (PlotMenu *menu,
             guint     axis,
             int       index)
{
  guint n = n_candidates (menu);
  int other;

  if (index < 0 || (guint) index >= n || n < 2)
    return;
  g_free (menu->xy_names[axis]);
  menu->xy_names[axis] = g_strdup (qd_trace_get_name (candidate (menu, index)));
  /* The other axis: as it was, else the first other signal. */
  other = menu->xy_active ? find_candidate (menu, menu->xy_names[1 - axis]) : -1;
  if (other < 0 || other == index)
    {
      other = index == 0 ? 1 : 0;
      g_free (menu->xy_names[1 - axis]);
      menu->xy_names[1 - axis] = g_strdup (qd_trace_get_name (candidate (menu, other)));
    }
  menu->xy_active = TRUE;
  apply_xy (menu);
}

static void
on_xy_x (GSimpleAction *action,
         GVariant      *parameter,
         gpointer       data)
{
  choose_axis (data, 0, g_variant_get_int32 (parameter));
}

static void
on_xy_y (GSimpleAction *action,
         GVariant      *parameter,
         gpointer       data)
{
  choose_axis (data, 1, g_variant_get_int32 (parameter));
}

static void
on_time (GSimpleAction *action,
         GVariant      *parameter,
         gpointer       data)
{
  PlotMenu *menu = data;

  menu->xy_active = FALSE;
  apply_xy (menu);
}

static void
on_break_crossing (GSimpleAction *action,
                   GVariant      *parameter,
                   gpointer       data)
{
  PlotMenu *menu = data;

  if (menu->break_func != NULL && menu->click_trace != NULL)
    menu->break_func (menu->plot, QD_BREAK_CROSSING, menu->click_trace,
                      menu->click_v, menu->break_data);
}

static void
on_break_time (GSimpleAction *action,
               GVariant      *parameter,
               gpointer       data)
{
  PlotMenu *menu = data;

  if (menu->break_func != NULL)
    menu->break_func (menu->plot, QD_BREAK_TIME, NULL, menu->click_t, menu->break_data);
}

/* @v rounded to what one pixel (@per_pixel of data) can tell: a click
 * means 2.5, not 2.4973. */
static double
round_to_pixel (double v,
                double per_pixel)
{
  double step;

  if (!(per_pixel > 0.0) || !isfinite (per_pixel))
    return v;
  step = pow (10.0, floor (log10 (per_pixel)));
  v = round (v / step) * step;
  return fabs (v) < step * 1e-9 ? 0.0 : v;
}

/* What the click at (@x, @y) points at: the time, and the visible trace
 * nearest to it on screen at that time with the value clicked on its own
 * axis (subplots and several y axes each have theirs). */
static void
locate_click (PlotMenu *menu,
              double    x,
              double    y)
{
  double t, v, t1, v1, best = INFINITY;

  qd_plot_widget_to_data (menu->plot, x, y, &t, &v);
  qd_plot_widget_to_data (menu->plot, x + 1.0, y + 1.0, &t1, &v1);
  menu->click_t = round_to_pixel (t, fabs (t1 - t));
  menu->click_v = round_to_pixel (v, fabs (v1 - v));
  menu->click_trace = NULL;
  for (guint i = 0; i < qd_plot_get_n_traces (menu->plot); i++)
    {
      QdTrace *trace = qd_plot_get_trace (menu->plot, i);
      double value, at, below, pixels;

      if (!qd_plot_get_trace_visible (menu->plot, i) || qd_trace_get_length (trace) == 0
          || !qd_plot_get_trace_value_at (menu->plot, i, x, y, &at)
          || !qd_plot_get_trace_value_at (menu->plot, i, x, y + 1.0, &below))
        continue;
      value = qd_trace_eval (trace, t);
      pixels = fabs (value - at) / MAX (fabs (at - below), G_MINDOUBLE);
      if (!isnan (value) && pixels < best)
        {
          best = pixels;
          menu->click_trace = trace;
          menu->click_v = round_to_pixel (at, fabs (at - below));
        }
    }
}

static GMenu *
axis_submenu (PlotMenu   *menu,
              const char *action)
{
  GMenu *sub = g_menu_new ();

  for (guint i = 0; i < n_candidates (menu); i++)
    {
      g_autoptr(GMenuItem) item = g_menu_item_new (candidate_label (menu, i), NULL);

      g_menu_item_set_action_and_target_value (item, action, g_variant_new_int32 ((int) i));
      g_menu_append_item (sub, item);
    }
  return sub;
}

static const char *
trace_label (PlotMenu *menu,
             QdTrace  *trace)
{
  for (guint i = 0; i < qd_plot_get_n_traces (menu->plot); i++)
    if (qd_plot_get_trace (menu->plot, i) == trace)
      return qd_plot_get_trace_label (menu->plot, i);
  return qd_trace_get_name (trace);
}

/* The layout of the axes (a time plot's only: XY has one pair of axes)
 * and the whole view again, through the plot's own actions. */
static void
append_view_sections (GMenu    *model,
                      gboolean  in_xy)
{
  g_autoptr(GMenu) view = g_menu_new ();

  if (!in_xy)
    {
      g_autoptr(GMenu) layouts = g_menu_new ();

      g_menu_append (layouts, _("_One Axis"), "plot.layout::single");
      g_menu_append (layouts, _("_Subplots"), "plot.layout::subplots");
      g_menu_append (layouts, _("Several _Y Axes"), "plot.layout::axes");
      g_menu_append_section (model, NULL, G_MENU_MODEL (layouts));
    }
  g_menu_append (view, _("_Reset Zoom"), "plot.reset-view");
  g_menu_append_section (model, NULL, G_MENU_MODEL (view));
}

GMenuModel *
qd_plot_menu_prepare (QdPlot *plot,
                      double  x,
                      double  y)
{
  PlotMenu *menu;
  g_autoptr(GMenu) xy = g_menu_new ();
  gboolean in_xy;

  g_return_val_if_fail (QD_IS_PLOT (plot), NULL);
  menu = get_menu (plot);
  in_xy = showing_xy (plot);
  if (!in_xy)
    menu->xy_active = FALSE;
  sync_states (menu);
  locate_click (menu, x, y);
  /* A new model each time: a popover menu does not follow submenus
   * removed from and added to the model it has. */
  g_clear_object (&menu->model);
  menu->model = g_menu_new ();
  append_view_sections (menu->model, in_xy);
  if (n_candidates (menu) >= 2)
    {
      g_autoptr(GMenu) xs = axis_submenu (menu, "plotmenu.xy-x");
      g_autoptr(GMenu) ys = axis_submenu (menu, "plotmenu.xy-y");

      g_menu_append_submenu (xy, _("_X Signal"), G_MENU_MODEL (xs));
      g_menu_append_submenu (xy, _("_Y Signal"), G_MENU_MODEL (ys));
    }
  if (in_xy)
    g_menu_append (xy, _("_Time Plot"), "plotmenu.time");
  g_menu_append_section (menu->model, NULL, G_MENU_MODEL (xy));
  if (menu->break_func != NULL && !in_xy)
    {
      g_autoptr(GMenu) breaks = g_menu_new ();
      g_autofree char *t = qd_plot_format_value (menu->click_t);

      if (menu->click_trace != NULL)
        {
          g_autofree char *v = qd_plot_format_value (menu->click_v);
          /* TRANSLATORS: a plot's context menu: "Break when prey crosses 2.5" */
          g_autofree char *label = g_strdup_printf (_("Break when %s crosses %s"),
                                                    trace_label (menu, menu->click_trace), v);

          g_menu_append (breaks, label, "plotmenu.break-crossing");
        }
      {
        /* TRANSLATORS: a plot's context menu: "Break at t = 12.5" */
        g_autofree char *label = g_strdup_printf (_("Break at t = %s"), t);

        g_menu_append (breaks, label, "plotmenu.break-time");
      }
      g_menu_append_section (menu->model, NULL, G_MENU_MODEL (breaks));
    }
  gtk_popover_menu_set_menu_model (GTK_POPOVER_MENU (menu->popover), G_MENU_MODEL (menu->model));
  return G_MENU_MODEL (menu->model);
}

gboolean
qd_plot_menu_activate (QdPlot     *plot,
                       const char *action,
                       GVariant   *parameter)
{
  PlotMenu *menu;

  g_return_val_if_fail (QD_IS_PLOT (plot), FALSE);
  menu = get_menu (plot);
  if (!g_action_group_has_action (G_ACTION_GROUP (menu->actions), action))
    return FALSE;
  g_action_group_activate_action (G_ACTION_GROUP (menu->actions), action, parameter);
  return TRUE;
}

static void
on_secondary_pressed (GtkGestureClick *gesture,
                      int              n_press,
                      double           x,
                      double           y,
                      PlotMenu        *menu)
{
  GdkRectangle rect = { (int) x, (int) y, 1, 1 };

  gtk_gesture_set_state (GTK_GESTURE (gesture), GTK_EVENT_SEQUENCE_CLAIMED);
  qd_plot_menu_prepare (menu->plot, x, y);
  gtk_popover_set_pointing_to (GTK_POPOVER (menu->popover), &rect);
  gtk_popover_popup (GTK_POPOVER (menu->popover));
}

/* The Menu key, or Shift+F10, opens the menu at the plot's centre: the
 * time and value there. */
static gboolean
on_key_pressed (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                PlotMenu              *menu)
{
  GtkWidget *widget = GTK_WIDGET (menu->plot);
  double x = 0.5 * gtk_widget_get_width (widget);
  double y = 0.5 * gtk_widget_get_height (widget);
  GdkRectangle rect = { (int) x, (int) y, 1, 1 };

  if (keyval != GDK_KEY_Menu
      && !(keyval == GDK_KEY_F10 && (state & GDK_SHIFT_MASK)))
    return FALSE;
  qd_plot_menu_prepare (menu->plot, x, y);
  gtk_popover_set_pointing_to (GTK_POPOVER (menu->popover), &rect);
  gtk_popover_popup (GTK_POPOVER (menu->popover));
  return TRUE;
}

void
qd_plot_menu_attach (QdPlot *plot)
{
  static const GActionEntry entries[] = {
    { "xy-x", on_xy_x, "i", "-1", NULL, { 0 } },
    { "xy-y", on_xy_y, "i", "-1", NULL, { 0 } },
    { "time", on_time, NULL, NULL, NULL, { 0 } },
    { "break-crossing", on_break_crossing, NULL, NULL, NULL, { 0 } },
    { "break-time", on_break_time, NULL, NULL, NULL, { 0 } },
  };
  PlotMenu *menu = g_new0 (PlotMenu, 1);
  GtkEventController *controller;
  GtkGesture *gesture;

  menu->plot = plot;
  menu->actions = g_simple_action_group_new ();
  g_action_map_add_action_entries (G_ACTION_MAP (menu->actions), entries,
                                   G_N_ELEMENTS (entries), menu);
  gtk_widget_insert_action_group (GTK_WIDGET (plot), "plotmenu", G_ACTION_GROUP (menu->actions));
  menu->model = g_menu_new ();
  menu->popover = gtk_popover_menu_new_from_model (G_MENU_MODEL (menu->model));
  gtk_popover_set_has_arrow (GTK_POPOVER (menu->popover), FALSE);
  gtk_widget_set_halign (menu->popover, GTK_ALIGN_START);
  gtk_widget_set_parent (menu->popover, GTK_WIDGET (plot));
  g_object_set_data_full (G_OBJECT (plot), DATA_KEY, menu, menu_free);

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_SECONDARY);
  g_signal_connect (gesture, "pressed", G_CALLBACK (on_secondary_pressed), menu);
  gtk_widget_add_controller (GTK_WIDGET (plot), GTK_EVENT_CONTROLLER (gesture));
  controller = gtk_event_controller_key_new ();
  g_signal_connect (controller, "key-pressed", G_CALLBACK (on_key_pressed), menu);
  gtk_widget_add_controller (GTK_WIDGET (plot), controller);
}

void
qd_plot_menu_present (QdPlot *plot)
{
  PlotMenu *menu = get_menu (plot);

  if (menu != NULL && menu->popover != NULL)
    gtk_popover_present (GTK_POPOVER (menu->popover));
}

void
qd_plot_menu_detach (QdPlot *plot)
{
  g_object_set_data (G_OBJECT (plot), DATA_KEY, NULL);
}

void
qd_plot_menu_set_signals (QdPlot            *plot,
                          GPtrArray         *traces,
                          const char *const *labels)
{
  PlotMenu *menu;

  g_return_if_fail (QD_IS_PLOT (plot));
  menu = get_menu (plot);
  g_clear_pointer (&menu->traces, g_ptr_array_unref);
  g_clear_pointer (&menu->labels, g_ptr_array_unref);
  if (traces != NULL)
    {
      menu->traces = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_trace_unref);
      menu->labels = g_ptr_array_new_with_free_func (g_free);
      for (guint i = 0; i < traces->len; i++)
        {
          QdTrace *trace = g_ptr_array_index (traces, i);

          g_ptr_array_add (menu->traces, qd_trace_ref (trace));
          g_ptr_array_add (menu->labels, g_strdup (labels != NULL && labels[i] != NULL
                                                   ? labels[i] : qd_trace_get_name (trace)));
        }
    }
  /* A new run: the same XY, of its traces (unless the plot went back to
   * time meanwhile). */
  if (!showing_xy (plot))
    menu->xy_active = FALSE;
  if (menu->xy_active)
    apply_xy (menu);
}

void
qd_plot_menu_set_break_func (QdPlot          *plot,
                             QdPlotBreakFunc  func,
                             gpointer         user_data)
{
  PlotMenu *menu;

  g_return_if_fail (QD_IS_PLOT (plot));
  menu = get_menu (plot);
  menu->break_func = func;
  menu->break_data = user_data;
}

/* qd-plot-menu.h: the plot's context menu
 *
 * A right click on a plot (or the Menu key, or Shift+F10, for its
 * centre) offers: the layout of a time plot's axes (One Axis, Subplots,
 * Several Y Axes), Reset Zoom, XY of any two signals (the X Signal
 * and Y Signal submenus list this plot's traces and, when the editor
 * gave them, every Scope's of the run), back to the time plot, and
 * breakpoints at what was clicked: "Break when prey crosses 2.5" (the
 * trace nearest the click, at the value clicked, rounded to what a pixel
 * resolves) and "Break at t = 12.5". The breakpoints go to whoever set a
 * break function (the editor's debugger, through the run session).
 */
#pragma once

#include "qd-plot.h"

G_BEGIN_DECLS

typedef void (*QdPlotBreakFunc) (QdPlot      *plot,
                                 QdBreakKind  kind,
                                 QdTrace     *trace,
                                 double       value,
                                 gpointer     user_data);

/* Called by the plot itself: when it is made, allocated and disposed. */
void     qd_plot_menu_attach        (QdPlot          *plot);
void     qd_plot_menu_present       (QdPlot          *plot);
void     qd_plot_menu_detach        (QdPlot          *plot);

/* The signals XY may choose from (QdTrace*, with their names as the menu
 * shows them); NULL: the plot's own traces. An XY choice made earlier
 * carries over to the signals of the same names (a new run). */
void     qd_plot_menu_set_signals   (QdPlot          *plot,
                                     GPtrArray       *traces,
                                     const char *const *labels);
/* Where the breakpoint items go; NULL: no such items. */
void     qd_plot_menu_set_break_func (QdPlot         *plot,
                                      QdPlotBreakFunc func,
                                      gpointer        user_data);

/* What the menu would do after a right click at (@x, @y), for tests and
 * for the keyboard (Menu key, at the pointer): prepares the menu's
 * actions and model, and returns the model (transfer none). */
GMenuModel *qd_plot_menu_prepare    (QdPlot          *plot,
                                     double           x,
                                     double           y);
/* Activates one of the menu's actions ("xy-x", "xy-y", "time",
 * "break-crossing", "break-time"), as choosing its item does. */
gboolean qd_plot_menu_activate      (QdPlot          *plot,
                                     const char      *action,
                                     GVariant        *parameter);

G_END_DECLS

/* qd-plot-runs.h: earlier runs in a plot, each in a colour of its own
 *
 * A plot keeps earlier runs under the current one. Each earlier run is
 * drawn in a colour of its own (a fixed palette whose hues differ from
 * the current traces' first ones), lighter and dashed, so the current
 * run stands out; when a run holds several signals, each signal has a
 * dash pattern of its own. The legend has one row per earlier run,
 * saying its number (or its name, "QSS3" for a method compared) and
 * what was different in it ("k = 2"), and whether the trace memory
 * decimated it; a row says how many were dropped. Clicking a run's row
 * hides or shows the whole run.
 *
 * Cairo and Pango only: the renderer draws through it, also without GTK.
 */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  double red, green, blue, alpha;
} QdPlotRunColor;

typedef struct
{
  guint           number;     /* from 1, in the order the runs were made */
  char           *title;      /* a name of its own ("QSS3"); NULL: "Run N" */
  char           *note;       /* what was different in it ("k = 2"); may be NULL */
  QdPlotRunColor  color;
  gboolean        visible;
  gboolean        decimated;  /* its oldest part kept as min/max history */
  gpointer        budget;     /* the QdTraceBudget of its traces (identity only) */
  guint           group;      /* 0: a run of the editor; else the batch it came
                                 in (the methods of one comparison) */
} QdPlotRun;

/* The colour of earlier run @index (cycles through the palette). */
void     qd_plot_run_palette_color (guint             index,
                                    QdPlotRunColor   *color);
/* The dash pattern of the @signal-th signal of an earlier run, in pixels
 * for a line @line_width wide; returns how many entries it wrote to
 * @dashes (at most 4). */
guint    qd_plot_run_dashes        (guint             signal,
                                    double            line_width,
                                    double           *dashes);
/* The legend text of @run: "Run 2 · k = 2", "QSS3 · h=0.01",
 * "Run 1 (decimated)". */
char    *qd_plot_run_legend_text   (const QdPlotRun  *run);
/* "2 earlier runs dropped (trace memory)". */
char    *qd_plot_run_dropped_text  (guint             n_dropped);
/* "Run 3 (current) · k = 3". */
char    *qd_plot_run_current_text  (guint             number,
                                    const char       *note);
/* A legend swatch for @run at (@x, @y), @width long: a dashed line in
 * its colour, or a hollow box when hidden. */
void     qd_plot_run_draw_swatch   (cairo_t          *cr,
                                    const QdPlotRun  *run,
                                    const QdPlotRunColor *faded,
                                    double            x,
                                    double            y,
                                    double            width);
void     qd_plot_run_clear         (QdPlotRun        *run);

/* The earlier runs a plot keeps, and what it knows of the current one. */
typedef struct
{
  GArray *runs;            /* QdPlotRun, oldest first */
  guint   n_dropped;       /* dropped to stay within the trace memory */
  guint   next_color;      /* of the palette, for the next run */
  guint   next_number;     /* the next run's number when nobody says */
  guint   current_number;  /* the current run's number; 0: not said */
  char   *current_note;    /* what is different in the current run */
  guint   next_named;      /* numbers of named runs (a group's), apart
                              from the editor's runs' */
} QdPlotRunList;

void       qd_plot_run_list_init        (QdPlotRunList *list);
void       qd_plot_run_list_clear       (QdPlotRunList *list);
/* Every earlier run gone, the numbering and the colours start again. */
void       qd_plot_run_list_reset       (QdPlotRunList *list);
/* A new earlier run, in the next colour. @title and @note may be NULL. */
QdPlotRun *qd_plot_run_list_add         (QdPlotRunList *list,
                                         guint          number,
                                         const char    *title,
                                         const char    *note,
                                         gpointer       budget,
                                         guint          group);
/* The current run becomes an earlier one: its number (the one set, else
 * the next) and note; returns the run, with @budget. */
QdPlotRun *qd_plot_run_list_push_current (QdPlotRunList *list,
                                          gpointer       budget);
int        qd_plot_run_list_find        (QdPlotRunList *list,
                                         guint          number);
void       qd_plot_run_list_remove      (QdPlotRunList *list,
                                         guint          index);

G_END_DECLS

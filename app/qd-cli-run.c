/* qd-cli-run.c: `qdevs-cli run`, simulate a diagram headless
 *
 * Loads, compiles (with --set overrides of model variables), runs to the
 * final time (or --until), then exports the Scope traces as CSV, draws
 * them into an image (--plot, through the editor's plot renderer, so the
 * image looks like the plot on screen) and prints statistics (the
 * engine's counts and those the blocks report, such as a queue's mean
 * length) as tables or as one JSON object.
 */
#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#ifdef QD_CLI_HAVE_PLOT
#include <pango/pangocairo.h>

#include "qd-plot-render.h"
#include "qd-plot-subplots.h"
#endif

#include "qd-cli-private.h"

typedef struct
{
  char      *until;         /* as given: "nan" must not read as unset */
  char     **overrides;
  char      *csv;
  double     csv_step;
  gboolean   stats;
  gboolean   stats_json;
  char      *plot;
  char      *plot_size;
  char      *plot_scope;    /* draw only this Scope's panel, or NULL */
  char      *trace_budget;  /* as given: MiB or "unlimited" */
  gsize      budget_bytes;  /* parsed; 0: no budget */
  char      *events;        /* the event log's CSV file, or NULL */
  gint64     events_limit;  /* rows at most; 0: all */
  char      *solver;        /* --solver NAME[:opt=val,...], or NULL */
} RunOptions;

/* The default image: wide enough for a long run, each Scope in a panel
 * about as tall as a plot in the editor. */
#define PLOT_DEFAULT_WIDTH   1000
#define PLOT_PANEL_HEIGHT    360
#define PLOT_MAX_SIZE        16384

/* The traces' memory when --trace-budget is not given: the editor's
 * default, so that a long run decimates old history instead of being
 * killed for want of memory with every result lost. */
#define DEFAULT_TRACE_BUDGET_MIB 512

/* The statistics blocks report (queues, servers, Statistics sinks), one
 * row each, after the totals; nothing when no block reports any. */
static void
print_block_stats_table (QdSimulation *sim)
{
  GPtrArray *stats = qd_simulation_get_stats (sim);
  int path_width = (int) strlen (_("Block"));
  int name_width = (int) strlen (_("Statistic"));

  if (stats->len == 0)
    return;
  for (guint k = 0; k < stats->len; k++)
    {
      const QdStat *stat = g_ptr_array_index (stats, k);

      path_width = MAX (path_width, (int) g_utf8_strlen (stat->path, -1));
      name_width = MAX (name_width, (int) g_utf8_strlen (stat->name, -1));
    }
  g_print ("\n%-*s  %-*s  %s\n", path_width, _("Block"), name_width,
           _("Statistic"), _("Value"));
  for (guint k = 0; k < stats->len; k++)
    {
      const QdStat *stat = g_ptr_array_index (stats, k);
      /* As above: pad by width, not by bytes. */
      int path_pad = path_width + (int) (strlen (stat->path) - g_utf8_strlen (stat->path, -1));
      int name_pad = name_width + (int) (strlen (stat->name) - g_utf8_strlen (stat->name, -1));

      g_print ("%-*s  %-*s  %.10g\n", path_pad, stat->path, name_pad,
               stat->name, stat->value);
    }
}

/* What the traces hold now (all of it, or what the budget let them
 * keep). */
static gsize
get_trace_bytes (QdSimulation *sim)
{
  GPtrArray *traces = qd_simulation_get_traces (sim);
  gsize bytes = 0;

  for (guint i = 0; i < traces->len; i++)
    bytes += qd_trace_get_bytes (g_ptr_array_index (traces, i));
  return bytes;
}

/* The classic solver's statistics, after the totals (nothing under
 * QSS). */
static void
print_classic_stats_table (QdSimulation *sim)
{
  QdClassicStats st;

  if (!qd_simulation_get_classic_stats (sim, &st))
    return;
  g_print (_("%-20s %s (%u states)\n"), _("Solver:"), st.method, st.n_states);
  g_print ("%-20s %" PRIu64 "\n", _("Solver steps:"), st.steps);
  g_print ("%-20s %" PRIu64 "\n", _("Failed steps:"), st.failed_steps);
  g_print ("%-20s %" PRIu64 "\n", _("RHS evaluations:"), st.rhs_evals);
  g_print ("%-20s %" PRIu64 "\n", _("Jacobians:"), st.jac_evals);
  g_print ("%-20s %" PRIu64 "\n", _("Root stops:"), st.root_stops);
  g_print ("%-20s %" PRIu64 "\n", _("Root evaluations:"), st.root_evals);
  g_print ("%-20s %" PRIu64 "\n", _("Time events:"), st.time_events);
  g_print ("%-20s %" PRIu64 "\n", _("Restarts:"), st.restarts);
}

static void
add_classic_stats_json (json_object  *root,
                        QdSimulation *sim)
{
  QdClassicStats st;
  json_object *o;

  if (!qd_simulation_get_classic_stats (sim, &st))
    return;
  o = json_object_new_object ();
  json_object_object_add (o, "method", json_object_new_string (st.method));
  json_object_object_add (o, "states", json_object_new_int64 (st.n_states));
  json_object_object_add (o, "steps", json_object_new_int64 ((gint64) st.steps));
  json_object_object_add (o, "failed_steps", json_object_new_int64 ((gint64) st.failed_steps));
  json_object_object_add (o, "rhs_evals", json_object_new_int64 ((gint64) st.rhs_evals));
  json_object_object_add (o, "jac_evals", json_object_new_int64 ((gint64) st.jac_evals));
  json_object_object_add (o, "root_stops", json_object_new_int64 ((gint64) st.root_stops));
  json_object_object_add (o, "root_evals", json_object_new_int64 ((gint64) st.root_evals));
  json_object_object_add (o, "time_events", json_object_new_int64 ((gint64) st.time_events));
  json_object_object_add (o, "restarts", json_object_new_int64 ((gint64) st.restarts));
  json_object_object_add (root, "solver", o);
}

static void
print_stats_table (QdSimulation  *sim,
                   double         wall_s,
                   gboolean       kept,
                   QdTraceBudget *budget)
{
  guint n = qd_simulation_get_n_atomics (sim);
  guint64 events = qd_simulation_get_events (sim);
  int path_width = (int) strlen (_("Block"));
  int type_width = (int) strlen (_("Type"));

  for (guint i = 0; i < n; i++)
    {
      const QdAtomic *atomic = qd_simulation_get_atomic (sim, i);

      path_width = MAX (path_width, (int) g_utf8_strlen (atomic->path, -1));
      type_width = MAX (type_width, (int) strlen (atomic->type->id));
    }

  g_print ("%-*s  %-*s  %12s  %12s\n", path_width, _("Block"),
           type_width, _("Type"), _("Internal"), _("External"));
  for (guint i = 0; i < n; i++)
    {
      const QdAtomic *atomic = qd_simulation_get_atomic (sim, i);
      guint64 n_internal = 0, n_external = 0;
      /* %-*s pads by bytes: add the bytes that multi-byte characters use
       * beyond their width so the columns stay aligned. */
      int pad = path_width + (int) (strlen (atomic->path) - g_utf8_strlen (atomic->path, -1));

      qd_simulation_get_block_stats (sim, i, &n_internal, &n_external);
      g_print ("%-*s  %-*s  %12" PRIu64 "  %12" PRIu64 "\n",
               pad, atomic->path, type_width, atomic->type->id,
               n_internal, n_external);
    }
  g_print ("\n");
  g_print ("%-20s %" PRIu64 "\n", _("Events:"), events);
  g_print ("%-20s %" PRIu64 "\n", _("Transitions:"),
           qd_simulation_get_transitions (sim));
  g_print ("%-20s %" PRIu64 "\n", _("Integrator steps:"),
           qd_simulation_get_integrator_steps (sim));
  g_print ("%-20s %.17g\n", _("Final time:"), qd_simulation_get_time (sim));
  g_print ("%-20s %.6f s\n", _("Wall time:"), wall_s);
  g_print ("%-20s %.4g\n", _("Events per second:"),
           wall_s > 0.0 ? (double) events / wall_s : 0.0);
  {
    /* In the unit that fits (bytes, KiB, MiB...): the empty stores of a
     * run that keeps nothing hold some KiB, which 0.0 MiB hid. */
    g_autofree char *size = g_format_size_full (get_trace_bytes (sim),
                                                G_FORMAT_SIZE_IEC_UNITS);

    g_print ("%-20s %s", _("Trace memory:"), size);
    if (!kept)
      g_print (_(" (no segment kept, only the empty stores: no --csv or --plot needs them)"));
    else if (budget != NULL)
      g_print (_(" (budget %.0f MiB)"),
               (double) qd_trace_budget_get_limit (budget) / (1 << 20));
    g_print ("\n");
  }
  print_classic_stats_table (sim);
  print_block_stats_table (sim);
}

static void
print_stats_json (QdSimulation  *sim,
                  double         wall_s,
                  QdTraceBudget *budget)
{
  json_object *root = json_object_new_object ();
  json_object *blocks = json_object_new_array ();
  guint n = qd_simulation_get_n_atomics (sim);
  guint64 events = qd_simulation_get_events (sim);

  for (guint i = 0; i < n; i++)
    {
      const QdAtomic *atomic = qd_simulation_get_atomic (sim, i);
      json_object *block = json_object_new_object ();
      guint64 n_internal = 0, n_external = 0;

      qd_simulation_get_block_stats (sim, i, &n_internal, &n_external);
      json_object_object_add (block, "path", json_object_new_string (atomic->path));
      json_object_object_add (block, "type", json_object_new_string (atomic->type->id));
      json_object_object_add (block, "internal", json_object_new_int64 ((gint64) n_internal));
      json_object_object_add (block, "external", json_object_new_int64 ((gint64) n_external));
      json_object_array_add (blocks, block);
    }
  json_object_object_add (root, "blocks", blocks);
  {
    GPtrArray *stats = qd_simulation_get_stats (sim);
    json_object *array = json_object_new_array ();

    for (guint k = 0; k < stats->len; k++)
      {
        const QdStat *stat = g_ptr_array_index (stats, k);
        json_object *entry = json_object_new_object ();

        json_object_object_add (entry, "path", json_object_new_string (stat->path));
        json_object_object_add (entry, "name", json_object_new_string (stat->name));
        /* JSON has no NaN or infinity: such a value is written as null. */
        json_object_object_add (entry, "value",
                                isfinite (stat->value) ? json_object_new_double (stat->value) : NULL);
        json_object_array_add (array, entry);
      }
    json_object_object_add (root, "stats", array);
  }
  json_object_object_add (root, "events", json_object_new_int64 ((gint64) events));
  json_object_object_add (root, "transitions",
                          json_object_new_int64 ((gint64) qd_simulation_get_transitions (sim)));
  json_object_object_add (root, "integrator_steps",
                          json_object_new_int64 ((gint64) qd_simulation_get_integrator_steps (sim)));
  json_object_object_add (root, "final_time",
                          json_object_new_double (qd_simulation_get_time (sim)));
  json_object_object_add (root, "wall_s", json_object_new_double (wall_s));
  add_classic_stats_json (root, sim);
  /* JSON has no infinity: a run too short to time reports 0. */
  json_object_object_add (root, "events_per_s",
                          json_object_new_double (wall_s > 0.0 ? (double) events / wall_s : 0.0));
  /* The traces' memory now, and their budget (null: none, every event
   * kept, or nothing kept at all). */
  json_object_object_add (root, "trace_bytes",
                          json_object_new_int64 ((gint64) get_trace_bytes (sim)));
  json_object_object_add (root, "trace_budget_bytes",
                          budget != NULL ? json_object_new_int64 ((gint64) qd_trace_budget_get_limit (budget)) : NULL);

  g_print ("%s\n", json_object_to_json_string_ext (root, JSON_C_TO_STRING_PLAIN
                                                         | JSON_C_TO_STRING_NOSLASHESCAPE));
  json_object_put (root);
}

static void
print_summary (const char   *file,
               QdSimulation *sim,
               double        wall_s,
               gboolean      to_stderr)
{
  g_autofree char *text =
    g_strdup_printf (_("%s: reached t = %g: %" PRIu64 " events, %" PRIu64
                       " integrator steps in %.3f s\n"),
                     file, qd_simulation_get_time (sim), qd_simulation_get_events (sim),
                     qd_simulation_get_integrator_steps (sim), wall_s);

  /* On standard error when a CSV goes to standard output. */
  if (to_stderr)
    g_printerr ("%s", text);
  else
    g_print ("%s", text);
}

/* Ctrl-C during a run. A long run (a final time far off, quanta too
 * small) is often stopped by hand, and what it computed so far is what
 * the user wants to see: so the first SIGINT or SIGTERM only asks the
 * simulation to stop, within a few thousand events, and the results up to
 * that time are written as usual. The handler is the one-shot kind
 * (SA_RESETHAND): a second signal before the run has stopped ends the
 * program at once. Once it has, the handler is set again for the writing
 * of the results (export_go_on()). Plain sigaction() rather than GLib's
 * g_unix_signal_add(), which needs a main loop that the synchronous run
 * does not have; the handler does only what is safe there: a store of the
 * signal and the simulation's atomic stop request. */
static QdSimulation *volatile interrupt_sim;
static volatile sig_atomic_t interrupt_signal;

static void
on_interrupt (int sig)
{
  interrupt_signal = sig;
  if (interrupt_sim != NULL)
    qd_simulation_request_stop (interrupt_sim);
}

static void
catch_interrupts (QdSimulation *sim)
{
  struct sigaction action;

  memset (&action, 0, sizeof action);
  sigemptyset (&action.sa_mask);
  action.sa_flags = SA_RESETHAND;
  action.sa_handler = on_interrupt;
  interrupt_signal = 0;
  interrupt_sim = sim;
  sigaction (SIGINT, &action, NULL);
  sigaction (SIGTERM, &action, NULL);
}

/* Ctrl-C while the results are written (a CSV of millions of rows takes
 * a while) is caught by the same one-shot handler, with no simulation:
 * the CSV writer asks here between rows, stops and removes its temporary
 * file, and the program ends with 130 (143), saying so; the file is
 * either complete or not there. Pressed twice while an image is drawn
 * (which cannot stop halfway), Ctrl-C ends the program at once. */
static gboolean
export_go_on (gpointer user_data)
{
  return interrupt_signal == 0;
}

static void
release_interrupts (void)
{
  signal (SIGINT, SIG_DFL);
  signal (SIGTERM, SIG_DFL);
  interrupt_sim = NULL;
}

/* --solver replaces the model's solver and its options for this run. */
static int
apply_solver (const char  *file,
              QdDocument  *document,
              const char  *spec)
{
  g_autoptr(GError) error = NULL;
  QdSettings copy = *qd_document_get_settings (document);
  int status = QD_CLI_EXIT_OK;

  copy.solver = g_strdup (copy.solver);
  if (!qd_classic_parse_spec (spec, &copy, &error))
    /* no-i18n: the option and the parser's own (translated) message */
    status = qd_cli_usage_error ("run", "--solver: %s", error->message);
  else if (!qd_document_set_settings (document, &copy, &error))
    {
      /* no-i18n: the file, the option and the loader's own message */
      g_printerr ("%s: --solver %s: %s\n", file, spec, error->message);
      status = QD_CLI_EXIT_USAGE;
    }
  g_free (copy.solver);
  return status;
}

static int
export_csv (const char   *file,
            QdSimulation *sim,
            const char   *csv,
            double        step)
{
  gboolean to_stdout = strcmp (csv, "-") == 0;
  GPtrArray *traces = qd_simulation_get_traces (sim);
  g_autoptr(GError) error = NULL;

  if (traces == NULL || traces->len == 0)
    {
      g_printerr (_("%s: the model has no Scope, so there is nothing to write to %s; add a Scope and connect the signals to export\n"),
                  file, csv);
      return QD_CLI_EXIT_MODEL;
    }
  if (!qd_traces_write_csv_full (traces, qd_simulation_get_start_time (sim),
                                 qd_simulation_get_time (sim), step, csv,
                                 export_go_on, NULL, &error))
    {
      if (g_error_matches (error, QD_ERROR, QD_ERROR_STOPPED))
        {
          if (to_stdout)
            g_printerr (_("%s: interrupted while writing the CSV to standard output; it ends where it stopped\n"),
                        file);
          else
            g_printerr (_("%s: interrupted while writing %s; it was not written (its temporary file is removed)\n"),
                        file, csv);
          return QD_CLI_EXIT_SIGNAL + interrupt_signal;
        }
      g_printerr ("%s\n", error->message);
      return QD_CLI_EXIT_MODEL;
    }
  return QD_CLI_EXIT_OK;
}

/* "WxH" in pixels (points for SVG and PDF), each from 1 to PLOT_MAX_SIZE. */
static gboolean
parse_plot_size (const char *text,
                 int        *width,
                 int        *height)
{
  char *end;
  gint64 w, h;

  if (!g_ascii_isdigit (text[0]))
    return FALSE;
  errno = 0;
  w = g_ascii_strtoll (text, &end, 10);
  if (errno != 0 || (*end != 'x' && *end != 'X') || !g_ascii_isdigit (end[1]))
    return FALSE;
  h = g_ascii_strtoll (end + 1, &end, 10);
  if (errno != 0 || *end != '\0')
    return FALSE;
  if (w < 1 || h < 1 || w > PLOT_MAX_SIZE || h > PLOT_MAX_SIZE)
    return FALSE;
  *width = (int) w;
  *height = (int) h;
  return TRUE;
}

#ifdef QD_CLI_HAVE_PLOT

/* The Scopes of a run, each with its traces, in block order. */
typedef struct
{
  const char *path;    /* the Scope's block path */
  GPtrArray  *traces;  /* QdTrace*, not owned */
  /* Its axes (subplots, y axes, labels), from the Scope's parameters;
   * NULL: one axis. A stack of subplots takes more height (weight). */
  QdPlotArrangement *arrangement;
  guint       weight;
} PlotPanel;

static void
plot_panel_clear (gpointer data)
{
  PlotPanel *panel = data;

  g_ptr_array_unref (panel->traces);
  g_clear_pointer (&panel->arrangement, qd_plot_arrangement_free);
}

/* The arrangement of @panel's Scope in @document, by its signals' names. */
static void
plot_panel_arrange (PlotPanel  *panel,
                    QdDocument *document)
{
  QdBlock *block = qd_document_find_block_by_path (document, panel->path);
  g_autofree const char **names = g_new0 (const char *, panel->traces->len + 1);
  gsize prefix = strlen (panel->path) + 1;

  panel->weight = 1;
  if (block == NULL)
    return;
  for (guint i = 0; i < panel->traces->len; i++)
    {
      const char *name = qd_trace_get_name (g_ptr_array_index (panel->traces, i));

      names[i] = strlen (name) >= prefix ? name + prefix : name;
    }
  /* Check has refused an arrangement that does not parse. */
  panel->arrangement = qd_plot_arrangement_from_block (block, names, panel->traces->len, NULL);
  if (panel->arrangement != NULL
      && qd_plot_arrangement_get_kind (panel->arrangement) == QD_PLOT_LAYOUT_SUBPLOTS)
    panel->weight = 1 + (MIN (qd_plot_arrangement_get_n_groups (panel->arrangement),
                              QD_PLOT_MAX_PANELS) - 1) / 2;
}

/* Groups the traces by the block that made them: a trace is named
 * "PATH/SIGNAL", and the longest block path in front of it is its Scope
 * (a signal name may itself hold a '/'). */
static GArray *
plot_panels_new (QdSimulation *sim)
{
  GPtrArray *traces = qd_simulation_get_traces (sim);
  GArray *panels = g_array_new (FALSE, TRUE, sizeof (PlotPanel));
  guint n_atomics = qd_simulation_get_n_atomics (sim);

  g_array_set_clear_func (panels, plot_panel_clear);
  for (guint k = 0; traces != NULL && k < traces->len; k++)
    {
      QdTrace *trace = g_ptr_array_index (traces, k);
      const char *name = qd_trace_get_name (trace);
      const char *owner = NULL;
      gsize owner_len = 0;
      PlotPanel *panel = NULL;

      for (guint i = 0; i < n_atomics; i++)
        {
          const char *path = qd_simulation_get_atomic (sim, i)->path;
          gsize len = strlen (path);

          if (len > owner_len && strncmp (name, path, len) == 0 && name[len] == '/')
            {
              owner = path;
              owner_len = len;
            }
        }
      if (owner == NULL)
        owner = "";
      for (guint p = 0; p < panels->len; p++)
        if (strcmp (g_array_index (panels, PlotPanel, p).path, owner) == 0)
          panel = &g_array_index (panels, PlotPanel, p);
      if (panel == NULL)
        {
          PlotPanel fresh = { owner, g_ptr_array_new (), NULL, 1 };

          g_array_append_val (panels, fresh);
          panel = &g_array_index (panels, PlotPanel, panels->len - 1);
        }
      g_ptr_array_add (panel->traces, trace);
    }
  return panels;
}

static void
plot_pad_range (double *lo,
                double *hi)
{
  double span = *hi - *lo;

  if (!(span > 0.0))
    span = MAX (fabs (*lo), 1.0);
  *lo -= 0.05 * span;
  *hi += 0.05 * span;
}

/* Writes @text with @font, centred on @x (or from @x when !centre),
 * its top at @y; returns its height. */
static double
plot_draw_text (cairo_t    *cr,
                const char *text,
                const char *font,
                double      x,
                double      y,
                double      max_width,
                gboolean    centre)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *desc = pango_font_description_from_string (font);
  int w, h;

  pango_layout_set_font_description (layout, desc);
  pango_font_description_free (desc);
  pango_layout_set_text (layout, text, -1);
  /* A long title is shortened, not cut off by the page. */
  pango_layout_set_width (layout, (int) (MAX (max_width, 1.0) * PANGO_SCALE));
  pango_layout_set_ellipsize (layout, PANGO_ELLIPSIZE_END);
  pango_layout_get_pixel_size (layout, &w, &h);
  cairo_move_to (cr, round (centre ? x - w / 2.0 : x), round (y));
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
  return h;
}

/* Fonts of the image's own text; the axes and legend are the renderer's. */
#define PLOT_TITLE_FONT    "Sans Bold 12"
#define PLOT_HEADING_FONT  "Sans Bold 9"
#define PLOT_AXIS_FONT     "Sans Italic 10"
#define PLOT_TITLE_BAND    36.0
#define PLOT_HEADING_BAND  20.0
#define PLOT_AXIS_BAND     16.0

/* One panel: the Scope's path above it when there are several Scopes,
 * then the renderer's plot with the legend, then "t" under the time
 * axis. */
static void
plot_draw_panel (cairo_t          *cr,
                 const PlotPanel  *panel,
                 gboolean          heading,
                 double            x_min,
                 double            x_max,
                 double            t_end,
                 double            width,
                 double            height)
{
  g_autofree QdPlotSeries *series = g_new0 (QdPlotSeries, panel->traces->len);
  g_autofree guint *series_axis = g_new0 (guint, MAX (panel->traces->len, 1));
  g_autofree const char **names = g_new0 (const char *, MAX (panel->traces->len, 1));
  const char *axis_labels[QD_PLOT_MAX_PANELS];
  double ranges[2 * QD_PLOT_MAX_PANELS];
  QdPlotAxes axes;
  QdPlotRenderOptions o;
  QdPlotStyle style;
  QdPlotRect area;
  double top = 0.0;
  double y0, y1;
  gsize prefix = strlen (panel->path) + 1;
  const char *time_label = "t";

  qd_plot_style_init_light (&style);
  cairo_set_source_rgba (cr, style.text.red, style.text.green, style.text.blue, style.text.alpha);
  if (heading)
    {
      plot_draw_text (cr, panel->path, PLOT_HEADING_FONT, 8.0, 4.0, width - 16.0, FALSE);
      top = PLOT_HEADING_BAND;
    }

  for (guint i = 0; i < panel->traces->len; i++)
    {
      QdTrace *trace = g_ptr_array_index (panel->traces, i);
      const char *name = qd_trace_get_name (trace);

      series[i].trace = trace;
      /* The legend names the signal; the panel already names the Scope. */
      series[i].label = strlen (name) >= prefix ? name + prefix : name;
      series[i].visible = TRUE;
      qd_plot_palette_color (i, &series[i].color);
      names[i] = series[i].label;
    }

  qd_plot_render_options_init (&o);
  o.series = series;
  o.n_series = panel->traces->len;
  o.style = &style;
  o.t_end = t_end;
  o.x_min = x_min;
  o.x_max = x_max;
  height = MAX (height - top - PLOT_AXIS_BAND, 1.0);
  if (qd_plot_render_get_y_extent (&o, width, &y0, &y1))
    plot_pad_range (&y0, &y1);
  else
    {
      y0 = -1.0;
      y1 = 1.0;
    }
  o.y_min = y0;
  o.y_max = y1;
  if (panel->arrangement != NULL)
    {
      /* The Scope's axes, each fitted to its signals; the time axis's
       * label in place of "t". */
      qd_plot_arrangement_fill_axes (panel->arrangement,
                                     qd_plot_arrangement_get_kind (panel->arrangement),
                                     names, o.n_series, series_axis, axis_labels, &axes);
      if (axes.x_label != NULL)
        time_label = axes.x_label;
      axes.x_label = NULL;
      ranges[0] = y0;
      ranges[1] = y1;
      axes.y_ranges = ranges;
      o.axes = &axes;
      if (axes.n_axes > 1)
        {
          qd_plot_subplots_y_extents (&o, width, ranges);
          for (guint k = 0; k < axes.n_axes; k++)
            plot_pad_range (&ranges[2 * k], &ranges[2 * k + 1]);
          o.y_min = ranges[0];
          o.y_max = ranges[1];
        }
    }

  cairo_save (cr);
  cairo_translate (cr, 0.0, top);
  qd_plot_render (cr, &o, width, height);
  qd_plot_render_get_area (&o, width, height, &area);
  cairo_set_source_rgba (cr, style.text.red, style.text.green, style.text.blue, style.text.alpha);
  plot_draw_text (cr, time_label, PLOT_AXIS_FONT, area.x + area.width / 2.0,
                  height - 2.0, area.width, TRUE);
  cairo_restore (cr);
}

/* What plot_draw() draws: the title over one panel per Scope. */
typedef struct
{
  const char *title;
  GArray     *panels;
  double      x_min, x_max, t_end;
  int         width, height;
} PlotPage;

static void
plot_draw (cairo_t  *cr,
           gpointer  user_data)
{
  const PlotPage *page = user_data;
  double unit, y = PLOT_TITLE_BAND;
  guint weights = 0;

  /* Each Scope's height in proportion to its weight (its subplots). */
  for (guint p = 0; p < page->panels->len; p++)
    weights += g_array_index (page->panels, PlotPanel, p).weight;
  unit = (page->height - PLOT_TITLE_BAND) / MAX (weights, 1);

  cairo_set_source_rgb (cr, 1.0, 1.0, 1.0);
  cairo_paint (cr);
  cairo_set_source_rgb (cr, 0x3d / 255.0, 0x38 / 255.0, 0x46 / 255.0);
  plot_draw_text (cr, page->title, PLOT_TITLE_FONT, page->width / 2.0, 10.0,
                  page->width - 24.0, TRUE);
  for (guint p = 0; p < page->panels->len; p++)
    {
      const PlotPanel *panel = &g_array_index (page->panels, PlotPanel, p);

      cairo_save (cr);
      cairo_translate (cr, 0.0, y);
      plot_draw_panel (cr, panel, page->panels->len > 1, page->x_min, page->x_max,
                       page->t_end, page->width, unit * panel->weight);
      cairo_restore (cr);
      y += unit * panel->weight;
    }
}

static gboolean
plot_draw_file (const char     *title,
                GArray         *panels,
                double          x_min,
                double          x_max,
                double          t_end,
                const char     *path,
                QdImageFormat   format,
                int             width,
                int             height,
                GError        **error)
{
  PlotPage page = { title, panels, x_min, x_max, t_end, width, height };
  cairo_status_t status = qd_image_write (path, format, width, height, plot_draw, &page);

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_IO,
                   _("%s: cannot write the plot: %s; check that the folder exists and is writable"),
                   path, cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}

/* Keeps only the panel of the Scope at PATH (a thumbnail of a model
 * with several Scopes shows the one its description points at). */
static gboolean
plot_panels_keep (GArray     *panels,
                  const char *path,
                  const char *file)
{
  g_autoptr(GString) known = g_string_new (NULL);

  for (guint p = 0; p < panels->len; p++)
    if (strcmp (g_array_index (panels, PlotPanel, p).path, path) == 0)
      {
        if (p + 1 < panels->len)
          g_array_remove_range (panels, p + 1, panels->len - p - 1);
        g_array_remove_range (panels, 0, p);
        return TRUE;
      }
  for (guint p = 0; p < panels->len; p++)
    g_string_append_printf (known, "%s%s", p > 0 ? ", " : "",
                            g_array_index (panels, PlotPanel, p).path);
  g_printerr (_("%s: --plot-scope '%s' is not a Scope with signals; the Scopes are %s\n"),
              file, path, known->str);
  return FALSE;
}

static int
export_plot (const char    *file,
             QdDocument    *document,
             QdSimulation  *sim,
             const char    *plot,
             QdImageFormat  format,
             const char    *scope,
             int            width,
             int            height)
{
  g_autoptr(GArray) panels = plot_panels_new (sim);
  g_autoptr(GError) error = NULL;
  g_autofree char *basename = NULL;
  g_autofree QdPlotSeries *all = NULL;
  const char *title = qd_document_get_title (document);
  QdPlotRenderOptions o;
  double x_min, x_max, t_end = qd_simulation_get_time (sim);
  guint n = 0, weights = 0;

  if (panels->len == 0)
    {
      g_printerr (_("%s: the model has no Scope, so there is nothing to plot into %s; add a Scope and connect the signals to plot\n"),
                  file, plot);
      return QD_CLI_EXIT_MODEL;
    }
  if (scope != NULL && !plot_panels_keep (panels, scope, file))
    return QD_CLI_EXIT_MODEL;
  for (guint p = 0; p < panels->len; p++)
    {
      plot_panel_arrange (&g_array_index (panels, PlotPanel, p), document);
      weights += g_array_index (panels, PlotPanel, p).weight;
    }
  if (height <= 0)
    height = (int) (PLOT_TITLE_BAND + PLOT_PANEL_HEIGHT * MIN (weights, 8));

  /* One time axis for every panel, so events line up across them. */
  for (guint p = 0; p < panels->len; p++)
    n += g_array_index (panels, PlotPanel, p).traces->len;
  all = g_new0 (QdPlotSeries, n);
  n = 0;
  for (guint p = 0; p < panels->len; p++)
    {
      GPtrArray *traces = g_array_index (panels, PlotPanel, p).traces;

      for (guint i = 0; i < traces->len; i++)
        {
          all[n].trace = g_ptr_array_index (traces, i);
          all[n++].visible = TRUE;
        }
    }
  qd_plot_render_options_init (&o);
  o.series = all;
  o.n_series = n;
  o.t_end = t_end;
  if (!qd_plot_render_get_x_extent (&o, &x_min, &x_max))
    {
      x_min = qd_simulation_get_start_time (sim);
      x_max = t_end;
    }
  if (!(x_max > x_min))
    plot_pad_range (&x_min, &x_max);

  if (title == NULL || title[0] == '\0')
    title = basename = g_path_get_basename (file);
  if (!plot_draw_file (title, panels, x_min, x_max, t_end, plot, format,
                       width, height, &error))
    {
      g_printerr ("%s\n", error->message);
      return QD_CLI_EXIT_MODEL;
    }
  return QD_CLI_EXIT_OK;
}

#endif /* QD_CLI_HAVE_PLOT */

/* --trace-budget: a number of MiB, or "unlimited". */
static gboolean
parse_trace_budget (const char *text,
                    gsize      *bytes)
{
  char *end = NULL;
  double mib;

  if (strcmp (text, "unlimited") == 0)
    {
      *bytes = 0;
      return TRUE;
    }
  mib = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0' || !(mib > 0.0 && mib < 1048576.0))
    return FALSE;
  *bytes = (gsize) (mib * (1 << 20));
  return TRUE;
}

/* The options that make sense alone; the rest needs the model. */
static int
check_options (RunOptions *opts,
               int         argc,
               char      **argv,
               int        *plot_width,
               int        *plot_height)
{
  if (argc < 2)
    return qd_cli_usage_error ("run", _("missing FILE (a .qdevs diagram, or - for standard input)"));
  if (argc > 2)
    return qd_cli_usage_error ("run", _("unexpected argument '%s'"), argv[2]);
  if (!qd_cli_check_overrides ("run", opts->overrides))
    return QD_CLI_EXIT_USAGE;
  if (!(opts->csv_step >= 0.0) || isinf (opts->csv_step))
    return qd_cli_usage_error ("run", _("--csv-step must be 0 or a positive number"));
  if (opts->csv_step > 0.0 && opts->csv == NULL)
    return qd_cli_usage_error ("run", _("--csv-step needs --csv OUT"));
  if (opts->trace_budget != NULL && !parse_trace_budget (opts->trace_budget, &opts->budget_bytes))
    return qd_cli_usage_error ("run", _("--trace-budget must be a number of MiB above 0 and below 1048576, or 'unlimited'"));
  if (opts->events_limit < 0)
    return qd_cli_usage_error ("run", _("--events-limit must be a number of rows, or 0 for no limit"));
  if (opts->events_limit > 0 && opts->events == NULL)
    return qd_cli_usage_error ("run", _("--events-limit needs --events OUT"));
  /* One stream, one kind of output. */
  if (opts->csv != NULL && opts->events != NULL
      && strcmp (opts->csv, "-") == 0 && strcmp (opts->events, "-") == 0)
    return qd_cli_usage_error ("run", _("--csv - and --events - would both write to standard output; write one of them to a file"));
  if (((opts->csv != NULL && strcmp (opts->csv, "-") == 0)
       || (opts->events != NULL && strcmp (opts->events, "-") == 0))
      && (opts->stats || opts->stats_json))
    return qd_cli_usage_error ("run", _("--stats and --stats-json print on standard output, where '-' sends the CSV; write the CSV to a file"));
  if (opts->plot_size != NULL && opts->plot == NULL)
    return qd_cli_usage_error ("run", _("--plot-size needs --plot OUT"));
  if (opts->plot_scope != NULL && opts->plot == NULL)
    return qd_cli_usage_error ("run", _("--plot-scope needs --plot OUT"));
  if (opts->plot_size != NULL
      && !parse_plot_size (opts->plot_size, plot_width, plot_height))
    return qd_cli_usage_error ("run", _("--plot-size '%s' is not of the form WxH with W and H from 1 to %d, such as 1000x600"),
                               opts->plot_size, PLOT_MAX_SIZE);
#ifdef QD_CLI_HAVE_PLOT
  if (opts->plot != NULL
      && qd_image_format_for_path (opts->plot) == QD_IMAGE_FORMAT_UNKNOWN)
    return qd_cli_usage_error ("run", _("--plot '%s': the image type is chosen by the extension; end the name with .png, .svg or .pdf"),
                               opts->plot);
#else
  if (opts->plot != NULL)
    return qd_cli_usage_error ("run", _("--plot: this qdevs-cli was built without plotting (cairo); use --csv OUT, or rebuild with Cairo and PangoCairo installed"));
#endif
  return QD_CLI_EXIT_OK;
}

/* A sampled CSV is refused before the run when its step would make more
 * rows than the writer accepts: better at once than after a long run. */
static int
check_csv_step (QdDocument *document,
                double      step)
{
  const QdSettings *settings = qd_document_get_settings (document);
  double span = settings->final_time - settings->start_time;
  double rows = floor (span / step) + 2.0;

  if (step == 0.0 || rows <= QD_CSV_MAX_ROWS)
    return QD_CLI_EXIT_OK;
  return qd_cli_usage_error ("run", _("--csv-step %g from t = %g to %g would write %.3g rows, more than %d; choose a step of at least %.3g"),
                             step, settings->start_time, settings->final_time,
                             rows, QD_CSV_MAX_ROWS, span / (QD_CSV_MAX_ROWS - 2));
}

/* Keeps the traces only for what will read them: without --csv and
 * --plot they store nothing (a long run of a large model would otherwise
 * hold gigabytes nobody reads); with them, within the budget. */
static QdTraceBudget *
setup_traces (QdSimulation     *sim,
              const RunOptions *opts)
{
  GPtrArray *traces = qd_simulation_get_traces (sim);
  QdTraceBudget *budget;

  if (opts->csv == NULL && opts->plot == NULL)
    {
      for (guint i = 0; i < traces->len; i++)
        qd_trace_set_discard (g_ptr_array_index (traces, i));
      return NULL;
    }
  if (opts->budget_bytes == 0)
    return NULL;
  budget = qd_trace_budget_new (opts->budget_bytes);
  for (guint i = 0; i < traces->len; i++)
    qd_trace_budget_add (budget, g_ptr_array_index (traces, i));
  return budget;
}

/* What the run writes once it stopped: the CSV, the plot, the
 * statistics; a Ctrl-C meanwhile (caught) ends it. */
static int
write_results (const char       *file,
               QdDocument       *document,
               QdSimulation     *sim,
               const RunOptions *opts,
               QdTraceBudget    *budget,
               double            wall_s,
               int               plot_width,
               int               plot_height)
{
  int export_code = QD_CLI_EXIT_OK;

  if (opts->csv != NULL)
    export_code = export_csv (file, sim, opts->csv, opts->csv_step);
  if (export_code >= QD_CLI_EXIT_SIGNAL)
    return export_code;
#ifdef QD_CLI_HAVE_PLOT
  if (opts->plot != NULL && export_code == QD_CLI_EXIT_OK)
    export_code = export_plot (file, document, sim, opts->plot,
                               qd_image_format_for_path (opts->plot),
                               opts->plot_scope, plot_width, plot_height);
#endif
  if (interrupt_signal != 0)
    {
      g_printerr (_("%s: interrupted while writing the results; what was written is complete, the rest is not written\n"),
                  file);
      return QD_CLI_EXIT_SIGNAL + interrupt_signal;
    }
  if (opts->stats)
    print_stats_table (sim, wall_s, opts->csv != NULL || opts->plot != NULL, budget);
  if (opts->stats_json)
    print_stats_json (sim, wall_s, budget);
  if (!opts->stats && !opts->stats_json)
    print_summary (file, sim, wall_s,
                   (opts->csv != NULL && strcmp (opts->csv, "-") == 0)
                   || (opts->events != NULL && strcmp (opts->events, "-") == 0));
  return export_code;
}

/* Closes the event log, up to an error too: that is when it is most
 * wanted. Returns FALSE when it could not be written. */
static gboolean
close_event_log (const char       *file,
                 QdEventLogCsv    *event_log,
                 const RunOptions *opts)
{
  g_autoptr(GError) log_error = NULL;
  guint64 written = qd_event_log_csv_get_written (event_log);
  gboolean truncated = qd_event_log_csv_get_truncated (event_log);

  if (!qd_event_log_csv_close (event_log, &log_error))
    {
      g_printerr ("%s\n", log_error->message);
      return FALSE;
    }
  if (truncated)
    g_printerr (_("%s: the event log %s holds the first %" PRIu64
                  " rows, its limit; the rest of the run is not in it "
                  "(raise --events-limit to log more)\n"),
                file, strcmp (opts->events, "-") == 0 ? _("on standard output") : opts->events,
                written);
  return TRUE;
}

/* The exit status of a run that cannot start. A block script's error
 * stops the run as every script error does, found by Check (a syntax or
 * header error) or in init: exit status 3, as in the middle of the run,
 * so a script's author sees one status for all of them. */
static int
start_failure_status (GPtrArray    *problems,
                      const GError *error)
{
  for (guint i = 0; i < problems->len; i++)
    if (((const QdProblem *) g_ptr_array_index (problems, i))->code == QD_ERROR_SCRIPT)
      return QD_CLI_EXIT_RUN;
  if (g_error_matches (error, QD_ERROR, QD_ERROR_SCRIPT))
    return QD_CLI_EXIT_RUN;
  return QD_CLI_EXIT_MODEL;
}

/* Compiles, runs and writes the results of *@doc. Only a plot reads the
 * document after compiling (its title, the Scopes' arrangement); without
 * one, compiling takes *@doc and frees it, so that a large model's run
 * does not hold the document and the flat model at once. */
static int
run_document (const char       *file,
              QdDocument      **doc,
              const RunOptions *opts,
              int               plot_width,
              int               plot_height)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(QdTraceBudget) budget = NULL;
  QdEventLogCsv *event_log = NULL;
  QdSimulation *sim;
  QdRunStatus status;
  gint64 start_us;
  double wall_s;
  int status_code = QD_CLI_EXIT_OK;
  QdDocument *document = opts->plot != NULL ? *doc : NULL;

  sim = document != NULL
        ? qd_simulation_new (document, (const char *const *) opts->overrides, problems, &error)
        : qd_simulation_new_taking (g_steal_pointer (doc), (const char *const *) opts->overrides,
                                    problems, &error);
  if (sim == NULL)
    {
      if (problems->len > 0)
        qd_cli_print_problems (file, problems);
      else
        g_printerr ("%s: %s\n", file, error != NULL ? error->message : _("the model cannot be compiled"));
      return start_failure_status (problems, error);
    }
  budget = setup_traces (sim, opts);
#ifdef QD_CLI_HAVE_PLOT
  /* A Scope that is not there is a mistake in the command: said before
   * the run rather than after it. */
  if (opts->plot_scope != NULL)
    {
      g_autoptr(GArray) panels = plot_panels_new (sim);

      if (!plot_panels_keep (panels, opts->plot_scope, file))
        {
          qd_simulation_free (sim);
          return QD_CLI_EXIT_USAGE;
        }
    }
#endif

  if (opts->events != NULL)
    {
      event_log = qd_event_log_csv_new (sim, opts->events, (guint64) opts->events_limit, &error);
      if (event_log == NULL)
        {
          g_printerr ("%s\n", error->message);
          qd_simulation_free (sim);
          return QD_CLI_EXIT_MODEL;
        }
    }

  start_us = g_get_monotonic_time ();
  catch_interrupts (sim);
  status = qd_simulation_run (sim, &error);
  /* From here on Ctrl-C stops the writing of the results: the event
   * log's, whose file is then finished, and the CSV's, which the next
   * export_go_on() stops. interrupt_signal says how the run ended until
   * then. */
  if (status == QD_RUN_STOPPED)
    status_code = QD_CLI_EXIT_SIGNAL + interrupt_signal;
  catch_interrupts (NULL);
  wall_s = (double) (g_get_monotonic_time () - start_us) / G_USEC_PER_SEC;
  qd_simulation_finish (sim);
  if (status == QD_RUN_STOPPED)
    g_printerr (_("%s: interrupted at t = %g (the final time is %g); the "
                  "results up to that time follow\n"),
                file, qd_simulation_get_time (sim),
                qd_simulation_get_final_time (sim));
  if (event_log != NULL && !close_event_log (file, event_log, opts)
      && status_code == QD_CLI_EXIT_OK)
    status_code = QD_CLI_EXIT_MODEL;

  if (status == QD_RUN_ERROR)
    {
      /* Run-time errors name the blocks; the file goes in front so every
       * line of our output starts with where it comes from. */
      g_printerr ("%s: %s\n", file, error != NULL ? error->message : _("the run stopped with an error"));
      status_code = QD_CLI_EXIT_RUN;
    }
  else
    {
      int export_code = write_results (file, document, sim, opts, budget, wall_s,
                                       plot_width, plot_height);

      /* An interrupted export ends as interrupted, whatever came before. */
      if (export_code != QD_CLI_EXIT_OK
          && (status_code == QD_CLI_EXIT_OK || export_code >= QD_CLI_EXIT_SIGNAL))
        status_code = export_code;
    }
  release_interrupts ();
  qd_simulation_free (sim);
  return status_code;
}

int
qd_cli_run (int    argc,
            char **argv)
{
  RunOptions opts = { .until = NULL, .csv_step = 0.0,
                      .budget_bytes = (gsize) DEFAULT_TRACE_BUDGET_MIB << 20 };
  GOptionEntry entries[] = {
    { "until", 0, 0, G_OPTION_ARG_STRING, &opts.until,
      N_("Run until time T instead of the model's final time (earlier or later: it replaces the final time)"), N_("T") },
    { "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &opts.overrides,
      N_("Replace the value of the model variable NAME (one the model defines); may be repeated"), N_("NAME=VALUE") },
    { "csv", 0, 0, G_OPTION_ARG_FILENAME, &opts.csv,
      N_("Write every Scope trace to the CSV file OUT (- for standard output)"), N_("OUT") },
    { "csv-step", 0, 0, G_OPTION_ARG_DOUBLE, &opts.csv_step,
      N_("Sample the CSV every H time units (default 0: one row per event); at most 100000000 rows"), N_("H") },
    { "plot", 0, 0, G_OPTION_ARG_FILENAME, &opts.plot,
      N_("Draw every Scope trace into the image OUT (.png, .svg or .pdf), one panel per Scope"), N_("OUT") },
    { "plot-size", 0, 0, G_OPTION_ARG_STRING, &opts.plot_size,
      N_("The size of the --plot image in pixels (points for SVG and PDF); default 1000 wide, 360 high per Scope"), N_("WxH") },
    { "plot-scope", 0, 0, G_OPTION_ARG_STRING, &opts.plot_scope,
      N_("Draw only the panel of the Scope at PATH (such as /Scope) into the --plot image"), N_("PATH") },
    { "stats", 0, 0, G_OPTION_ARG_NONE, &opts.stats,
      N_("Print transitions per block, totals, speed and the statistics blocks report as tables"), NULL },
    { "stats-json", 0, 0, G_OPTION_ARG_NONE, &opts.stats_json,
      N_("Print the same statistics as one JSON object on standard output"), NULL },
    { "trace-budget", 0, 0, G_OPTION_ARG_STRING, &opts.trace_budget,
      N_("Keep the Scope traces that --csv and --plot need within MIB mebibytes, decimating their oldest part (default 512), or keep every event with 'unlimited'"), N_("MIB") },
    { "events", 0, 0, G_OPTION_ARG_FILENAME, &opts.events,
      N_("Write every DEVS transition (outputs, internal and external transitions) to the CSV file OUT (- for standard output), in the order they happen"), N_("OUT") },
    { "solver", 0, 0, G_OPTION_ARG_STRING, &opts.solver,
      N_("Run with the solver NAME instead of the model's: qss, or a classic one (cvode-bdf, cvode-adams, euler, heun, rk4, bogacki-shampine, rkf45, cash-karp, dormand-prince, backward-euler, trapezoidal, implicit-midpoint) with options rtol, atol, max_step, h"), N_("NAME[:OPT=VAL,...]") },
    { "events-limit", 0, 0, G_OPTION_ARG_INT64, &opts.events_limit,
      N_("Write only the first N rows of the --events log and run the rest unlogged, at full speed (default: all)"), N_("N") },
    { NULL }
  };
  g_autoptr(QdDocument) document = NULL;
  const char *file;
  int status_code;
  int plot_width = PLOT_DEFAULT_WIDTH, plot_height = 0;

  if (!qd_cli_parse_options ("run", _("FILE"),
                             _("Simulate the diagram FILE headless, from its start time to its final time."),
                             _("FILE '-' reads the diagram from standard input; OUT '-' of --csv or --events\n"
                               "is standard output (the summary line then goes to standard error).\n"
                               "--until T replaces the final time stored in FILE for this run, so T may be\n"
                               "earlier or later than it. --set NAME=VALUE replaces a variable of the model;\n"
                               "a NAME the model does not define is a usage error that lists its variables.\n"
                               "Without --stats or --stats-json a one-line summary is printed. Errors go to\n"
                               "standard error, one line each, starting with FILE.\n"
                               "The Scope traces are kept only for --csv and --plot, within 512 MiB unless\n"
                               "--trace-budget says otherwise: beyond it their oldest part is decimated, and\n"
                               "the CSV says so in a '#' line above its header.\n"
                               "Ctrl-C stops the run and still writes its results up to that time (exit\n"
                               "status 130, 143 for SIGTERM). Ctrl-C while the CSV is written stops the\n"
                               "writing and removes the unfinished file; pressed twice while the image is\n"
                               "drawn, it ends the program at once.\n"
                               "--events OUT logs the run as DEVS executes it, one row per transition:\n"
                               "event,time,block,transition,port,elapsed,ta,order,c0,c1,c2,c3,tag, where\n"
                               "transition is output (lambda), internal or external, elapsed the time since\n"
                               "the block's previous transition, ta its time advance after this one, c0..c3\n"
                               "the segment sent or received and tag its entity (discrete-event blocks). The\n"
                               "log is written even when the run stops with an error, up to the error.\n\n"
                               "Examples:\n"
                               "  qdevs-cli run model.qdevs --until 20 --set k=2 --csv out.csv --csv-step 0.1\n"
                               "  qdevs-cli run model.qdevs --plot out.png --plot-size 1200x500\n"
                               "  qdevs-cli run model.qdevs --events log.csv --events-limit 200\n"
                               "  qdevs-cli run - --csv - < model.qdevs > out.csv\n"
                               "  qdevs-cli run model.qdevs --solver cvode-bdf:rtol=1e-8,atol=1e-10 --stats\n"
                               "  qdevs-cli run model.qdevs --solver rk4:h=0.01"),
                             entries, &argc, &argv))
    return QD_CLI_EXIT_USAGE;

  status_code = check_options (&opts, argc, argv, &plot_width, &plot_height);
  if (status_code != QD_CLI_EXIT_OK)
    goto out;

  file = qd_cli_file_name (argv[1]);
  status_code = qd_cli_load ("run", argv[1], opts.overrides, NULL, &document);
  if (status_code == QD_CLI_EXIT_OK && opts.until != NULL)
    status_code = qd_cli_apply_until ("run", file, document, opts.until);
  if (status_code == QD_CLI_EXIT_OK && opts.solver != NULL)
    status_code = apply_solver (file, document, opts.solver);
  if (status_code == QD_CLI_EXIT_OK)
    status_code = check_csv_step (document, opts.csv_step);
  if (status_code == QD_CLI_EXIT_OK)
    status_code = run_document (file, &document, &opts, plot_width, plot_height);

out:
  g_strfreev (opts.overrides);
  g_free (opts.until);
  g_free (opts.solver);
  g_free (opts.csv);
  g_free (opts.events);
  g_free (opts.plot);
  g_free (opts.plot_size);
  g_free (opts.plot_scope);
  g_free (opts.trace_budget);
  return status_code;
}

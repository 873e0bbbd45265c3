/* qd-run-plots.c: what the plots of a run offer beyond their own traces
 *
 * Each plot's context menu may put any two signals of any Scope of the
 * run in XY (its own listed by name, the others' as "Scope 2: x"), and
 * turns a click into a breakpoint: a crossing of the signal clicked is
 * a crossing of the block output that drives the Scope's input (found
 * in the compiled run: the input reads that output's segment), so the
 * debugger finds it exactly from that output's polynomial.
 *
 * A comparison of methods (Compare Methods… (main menu)) is overlaid in the
 * same plots: each method's run an earlier run named after the method,
 * in a colour of its own, replaced by the next comparison.
 */
#include <glib/gi18n-lib.h>
#include <string.h>

#include "qd-compare-dialog.h"
#include "qd-plot-menu.h"
#include "qd-run-session-private.h"
#include "qd-window.h"

/* The Scope of @trace ("/Scope/prey" -> "/Scope") among the run's
 * atomics, and which of its inputs the trace records (its traces are
 * made in input order). */
static const QdAtomic *
scope_of_trace (QdSimulation *sim,
                QdTrace      *trace,
                guint        *input)
{
  GPtrArray *traces = qd_simulation_get_traces (sim);
  const char *name = qd_trace_get_name (trace);
  const char *slash = strrchr (name, '/');
  gsize len = slash != NULL ? (gsize) (slash - name) : 0;
  guint n = qd_simulation_get_n_atomics (sim);

  for (guint i = 0; i < n; i++)
    {
      const QdAtomic *a = qd_simulation_get_atomic (sim, i);

      if (strlen (a->path) != len || strncmp (a->path, name, len) != 0)
        continue;
      *input = 0;
      for (guint k = 0; k < traces->len; k++)
        {
          QdTrace *t = g_ptr_array_index (traces, k);
          const char *tn = qd_trace_get_name (t);

          if (t == trace)
            return *input < a->n_in ? a : NULL;
          if (strncmp (tn, a->path, len) == 0 && tn[len] == '/')
            (*input)++;
        }
    }
  return NULL;
}

/* The block output that input @input of @scope reads, or NULL. */
static const QdAtomic *
driver_of (QdSimulation   *sim,
           const QdAtomic *scope,
           guint           input,
           guint          *port)
{
  const QdSignal *in = scope->in[input];
  guint n = qd_simulation_get_n_atomics (sim);

  for (guint i = 0; i < n; i++)
    {
      const QdAtomic *a = qd_simulation_get_atomic (sim, i);

      for (guint p = 0; p < a->n_out; p++)
        if (&a->out[p] == in)
          {
            *port = p;
            return a;
          }
    }
  return NULL;
}

static void
on_plot_break (QdPlot      *plot,
               QdBreakKind  kind,
               QdTrace     *trace,
               double       value,
               gpointer     user_data)
{
  QdRunSession *self = user_data;
  QdRunner *runner = qd_run_session_get_runner (self);
  QdSimulation *sim = runner != NULL ? qd_runner_get_simulation (runner) : NULL;
  const QdAtomic *scope, *driver;
  guint input, port;

  if (kind != QD_BREAK_CROSSING)
    {
      qd_run_session_request_break (self, kind, NULL, 0, value);
      return;
    }
  /* The run's blocks are laid out once compiled and never move: reading
   * their wiring while the worker runs is safe. */
  if (sim == NULL || trace == NULL
      || (scope = scope_of_trace (sim, trace, &input)) == NULL
      || (driver = driver_of (sim, scope, input, &port)) == NULL)
    {
      g_autofree char *message =
        g_strdup_printf (_("%s: no block output of the run drives this signal; "
                           "run the model first, or set the breakpoint on its "
                           "source block in the Debugger panel"),
                         trace != NULL ? qd_trace_get_name (trace) : "");
      GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (plot));

      if (QD_IS_WINDOW (root))
        qd_window_show_message (QD_WINDOW (root), GTK_MESSAGE_ERROR, message);
      else
        g_warning ("%s", message);
      return;
    }
  qd_run_session_request_break (self, QD_BREAK_CROSSING, driver->path, port, value);
}

void
qd_run_page_offer_signals (QdRunSession *self,
                           GPtrArray    *traces)
{
  for (guint i = 0; i < self->pages->len; i++)
    {
      ScopePage *page = g_ptr_array_index (self->pages, i);
      g_autoptr(GPtrArray) offered = g_ptr_array_new ();
      g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
      gsize len = strlen (page->path);

      /* This Scope's signals first, by their names; then the others'. */
      for (int pass = 0; pass < 2; pass++)
        for (guint k = 0; k < traces->len; k++)
          {
            QdTrace *trace = g_ptr_array_index (traces, k);
            const char *name = qd_trace_get_name (trace);
            const char *slash = strrchr (name, '/');
            gboolean own = strncmp (name, page->path, len) == 0 && name[len] == '/'
                           && slash == name + len;
            ScopePage *other;
            g_autofree char *scope = NULL;

            if (slash == NULL || own != (pass == 0))
              continue;
            scope = g_strndup (name, slash - name);
            if (!own && ((other = qd_run_page_find (self, scope)) == NULL || other == page))
              continue;
            g_ptr_array_add (offered, trace);
            /* TRANSLATORS: a signal of another Scope in a plot's XY
             * menu: "Scope 2: x1" */
            g_ptr_array_add (labels, own ? g_strdup (slash + 1)
                                         : g_strdup_printf (_("%s: %s"), other->name, slash + 1));
          }
      g_ptr_array_add (labels, NULL);
      qd_plot_menu_set_signals (page->plot, offered, (const char *const *) labels->pdata);
      qd_plot_menu_set_break_func (page->plot, on_plot_break, self);
    }
}

/* The runs of a comparison are batch 1 of each plot's named runs. */
#define COMPARE_GROUP 1

/* A method's run as a legend says it: its name ("rk4") and options
 * ("h=0.01"). */
static void
split_spec (const char  *name,
            char       **title,
            char       **options)
{
  const char *colon = strchr (name, ':');

  *title = colon != NULL ? g_strndup (name, colon - name) : g_strdup (name);
  *options = colon != NULL && colon[1] != '\0' ? g_strdup (colon + 1) : NULL;
}

static guint
overlay_run (QdPlot             *plot,
             const char         *scope,
             const QdCompareRun *run,
             gboolean            reference)
{
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  g_autofree char *title = NULL, *options = NULL, *named = NULL;
  gsize len = strlen (scope);

  for (guint t = 0; run->traces != NULL && t < run->traces->len; t++)
    {
      QdTrace *trace = g_ptr_array_index (run->traces, t);
      const char *name = qd_trace_get_name (trace);

      if (strncmp (name, scope, len) == 0 && name[len] == '/' && strchr (name + len + 1, '/') == NULL)
        {
          g_ptr_array_add (traces, trace);
          g_ptr_array_add (labels, (gpointer) (name + len + 1));
        }
    }
  if (traces->len == 0)
    return 0;
  g_ptr_array_add (labels, NULL);
  split_spec (run->name, &title, &options);
  /* TRANSLATORS: the reference run of a comparison in a plot's legend:
   * "cvode-bdf (reference)" */
  named = reference ? g_strdup_printf (_("%s (reference)"), title) : g_strdup (title);
  qd_plot_add_run (plot, traces, (const char *const *) labels->pdata, named, options,
                   COMPARE_GROUP);
  return 1;
}

guint
qd_run_session_overlay_comparison (QdRunSession *self,
                                   QdComparison *comparison)
{
  const char *const *names;
  guint n_overlaid = 0;

  g_return_val_if_fail (QD_IS_RUN_SESSION (self), 0);
  g_return_val_if_fail (comparison != NULL, 0);

  names = qd_comparison_get_signals (comparison);
  for (guint s = 0; names != NULL && names[s] != NULL; s++)
    {
      const char *slash = strrchr (names[s], '/');
      g_autofree char *scope = slash != NULL ? g_strndup (names[s], slash - names[s]) : NULL;
      ScopePage *page;

      if (scope == NULL || *scope == '\0')
        continue;
      /* Once per Scope: its signals come together. */
      if (s > 0 && strncmp (names[s - 1], scope, strlen (scope)) == 0
          && names[s - 1][strlen (scope)] == '/')
        continue;
      page = qd_run_page_find (self, scope);
      if (page == NULL)
        {
          /* Not run in the window yet: the Scope gets its plot now. */
          if (self->pages->len == 0)
            qd_run_page_make_room (self);
          page = qd_run_page_new (self, scope);
          g_ptr_array_add (self->pages, page);
        }
      qd_plot_remove_run_group (page->plot, COMPARE_GROUP);
      overlay_run (page->plot, scope, qd_comparison_get_reference (comparison), TRUE);
      for (guint i = 0; i < qd_comparison_get_n_runs (comparison); i++)
        overlay_run (page->plot, scope, qd_comparison_get_run (comparison, i), FALSE);
      n_overlaid++;
    }
  return n_overlaid;
}

static void
on_compare_finished (QdCompareDialog *dialog,
                     QdRunSession    *self)
{
  QdComparison *comparison = qd_compare_dialog_get_comparison (dialog);

  if (comparison != NULL)
    qd_run_session_overlay_comparison (self, comparison);
}

void
qd_run_session_follow_comparisons (QdRunSession    *self,
                                   QdCompareDialog *dialog)
{
  g_return_if_fail (QD_IS_RUN_SESSION (self));
  g_return_if_fail (QD_IS_COMPARE_DIALOG (dialog));

  g_signal_connect_object (dialog, "finished", G_CALLBACK (on_compare_finished), self, 0);
}

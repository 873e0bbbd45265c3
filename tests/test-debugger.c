/* test-debugger.c: the event debugger in a real window
 *
 * Drives the debugger's actions ("dbg." on the canvas, what F11, Shift+F11
 * and F8 activate) on Cellier's first-order example and checks what the
 * editor shows against the run: the block marked at each step is the
 * block of the Transitions row selected, in the table's order; the
 * pending events are what the run does next; stepping back and forward
 * again shows the same rows and the same pending events; a breakpoint on
 * a crossing stops at the analytic time; the quantization view counts
 * Cellier's 17 steps.
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qd-application.h"
#include "qd-debugger.h"
#include "qd-debugger-panel.h"
#include "qd-event-view.h"
#include "qd-plot-menu.h"
#include "qd-quant-view.h"
#include "qd-run-session.h"
#include "qd-test-gui.h"
#include "qd-test-gtk-util.h"
#include "qd-test-util.h"
#include "qd-window.h"

static QdApplication *app;

typedef struct
{
  QdWindow        *window;
  QdDocument      *document;
  GtkWidget       *canvas;
  QdDebuggerPanel *panel;
  QdDebugger      *debugger;
  QdEventView     *events;
} Fixture;

static void
fixture_setup (Fixture    *f,
               const char *example)
{
  g_autofree char *path = qd_test_source_path ("data", "examples", example, NULL);
  g_autoptr(GError) error = NULL;
  GtkNotebook *notebook;

  memset (f, 0, sizeof *f);
  f->document = qd_document_load (path, &error);
  g_assert_no_error (error);
  f->window = qd_window_new (GTK_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (f->window), 1100, 760);
  gtk_window_present (GTK_WINDOW (f->window));
  qd_window_set_document (f->window, f->document, NULL);
  f->canvas = GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (f->window),
                                                         QD_TYPE_WINDOW, "canvas"));
  notebook = GTK_NOTEBOOK (gtk_widget_get_template_child (GTK_WIDGET (f->window),
                                                          QD_TYPE_WINDOW, "bottom_notebook"));
  for (int i = 0; i < gtk_notebook_get_n_pages (notebook); i++)
    if (QD_IS_DEBUGGER_PANEL (gtk_notebook_get_nth_page (notebook, i)))
      f->panel = QD_DEBUGGER_PANEL (gtk_notebook_get_nth_page (notebook, i));
  g_assert_nonnull (f->panel);
  f->debugger = qd_debugger_panel_get_debugger (f->panel);
  f->events = qd_run_session_get_event_view (qd_debugger_get_session (f->debugger));
}

static void
fixture_teardown (Fixture *f)
{
  gtk_window_destroy (GTK_WINDOW (f->window));
  g_clear_object (&f->document);
}

static gboolean
is_settled (gpointer data)
{
  return !qd_debugger_is_busy (((Fixture *) data)->debugger);
}

static gboolean
is_finished (gpointer session)
{
  return qd_runner_get_state (qd_run_session_get_runner (session)) == QD_RUNNER_FINISHED;
}

/* Activates @action as its key would, and waits for the debugger to
 * settle (the run it asked for paused, the position set). */
static void
act (Fixture    *f,
     const char *action)
{
  g_assert_true (gtk_widget_activate_action (f->canvas, action, NULL));
  g_assert_true (qd_test_iterate_until (is_settled, f, 60));
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static char *
marked_block (Fixture *f)
{
  QdLogEntry entry;
  QdSignal seg;

  g_assert_true (qd_debugger_get_entry (f->debugger, &entry, &seg));
  return g_strdup (qd_debugger_get_block_path (f->debugger, entry.block));
}

/* Selects the first row of block @path in the Transitions table, as a
 * click would, and lets the window show the block. */
static void
activate_block_row (Fixture    *f,
                    const char *path)
{
  for (guint k = 0; k < qd_event_view_get_n_rows (f->events); k++)
    {
      g_autofree char *cell = qd_event_view_dup_cell (f->events, k, 2);

      if (g_str_equal (cell, path))
        {
          qd_event_view_activate (f->events, k);
          break;
        }
    }
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* Each step marks the block of the next row of the table, and selects
 * that row: the Integrator's output and internal transition, then the
 * Gain, the Sum (the WSum), and the Integrator again. */
static void
test_steps_follow_table (void)
{
  Fixture f;
  g_autoptr(GString) order = g_string_new (NULL);
  const char *last = "";

  fixture_setup (&f, "cellier-first-order.qdevs");
  for (guint k = 0; k < 30; k++)
    {
      g_autofree char *block = NULL;
      g_autofree char *cell = NULL;

      act (&f, "dbg.step-transition");
      g_assert_cmpuint (qd_debugger_get_position (f.debugger), ==, k);
      g_assert_cmpuint (qd_event_view_get_selected_row (f.events), ==, k);
      block = marked_block (&f);
      cell = qd_event_view_dup_cell (f.events, k, 2);
      g_assert_cmpstr (block, ==, cell);
      if ((g_str_equal (block, "/Integrator") || g_str_equal (block, "/Sum"))
          && !g_str_equal (block, last))
        {
          g_string_append_printf (order, "%s ", block);
          last = g_str_equal (block, "/Integrator") ? "/Integrator" : "/Sum";
        }
    }
  /* The Sum's initial zero, the Integrator's first output, the Sum's
   * answer, the Integrator's step at 0.1, ... */
  g_assert_true (g_str_has_prefix (order->str, "/Sum /Integrator /Sum /Integrator "));

  /* Selecting a row selects its block, and the inspector then shows the
   * block's state read-only: the Integrator has one, the Gain none. */
  activate_block_row (&f, "/Integrator");
  g_assert_true (qd_debugger_panel_get_inspector_state_shown (f.panel));
  activate_block_row (&f, "/Gain");
  g_assert_false (qd_debugger_panel_get_inspector_state_shown (f.panel));
  fixture_teardown (&f);
}

/* What the pending panel puts first is what the run does next. */
static void
test_pending_is_next (void)
{
  Fixture f;

  fixture_setup (&f, "cellier-first-order.qdevs");
  act (&f, "dbg.step-event");
  for (guint k = 0; k < 25; k++)
    {
      g_autofree char *pending = qd_debugger_panel_dup_pending_text (f.panel);
      g_auto(GStrv) first = NULL;
      guint rows = qd_event_view_get_n_rows (f.events);
      gboolean found = FALSE;

      g_assert_cmpstr (pending, !=, "");
      first = g_strsplit (pending, "\t", 4);
      act (&f, "dbg.step-transition");
      /* Run on to the next internal transition in the table. */
      while (!found)
        {
          for (guint r = qd_debugger_get_position (f.debugger); r < qd_event_view_get_n_rows (f.events); r++)
            {
              g_autofree char *kind = qd_event_view_dup_cell (f.events, r, 3);

              if (r >= rows && strstr (kind, "δint") != NULL)
                {
                  g_autofree char *t = qd_event_view_dup_cell (f.events, r, 1);
                  g_autofree char *block = qd_event_view_dup_cell (f.events, r, 2);

                  g_assert_cmpstr (block, ==, first[2]);
                  g_assert_cmpfloat (g_ascii_strtod (t, NULL), ==, g_ascii_strtod (first[1], NULL));
                  found = TRUE;
                  break;
                }
            }
          if (!found)
            act (&f, "dbg.step-transition");
        }
      /* Back to the end of that event before the next round. */
      while (qd_debugger_get_position (f.debugger) + 1 < qd_event_view_get_n_rows (f.events))
        act (&f, "dbg.step-transition");
    }
  fixture_teardown (&f);
}

/* Three steps back and three forward: the same rows selected, the same
 * pending events and block state at each. */
static void
test_step_back (void)
{
  Fixture f;
  char *pending[13] = { NULL };
  char *state[13] = { NULL };

  fixture_setup (&f, "cellier-first-order.qdevs");
  for (guint k = 0; k < 13; k++)
    {
      act (&f, "dbg.step-transition");
      pending[k] = qd_debugger_panel_dup_pending_text (f.panel);
      state[k] = marked_block (&f);
    }
  for (int k = 11; k >= 9; k--)
    {
      g_autofree char *text = NULL;

      act (&f, "dbg.step-back");
      g_assert_cmpuint (qd_debugger_get_position (f.debugger), ==, (guint) k);
      g_assert_cmpuint (qd_event_view_get_selected_row (f.events), ==, (guint) k);
      text = qd_debugger_panel_dup_pending_text (f.panel);
      g_assert_cmpstr (text, ==, pending[k]);
    }
  for (guint k = 10; k <= 12; k++)
    {
      g_autofree char *text = NULL;
      g_autofree char *block = NULL;

      act (&f, "dbg.step-transition");
      g_assert_cmpuint (qd_debugger_get_position (f.debugger), ==, k);
      text = qd_debugger_panel_dup_pending_text (f.panel);
      block = marked_block (&f);
      g_assert_cmpstr (text, ==, pending[k]);
      g_assert_cmpstr (block, ==, state[k]);
    }
  for (guint k = 0; k < 13; k++)
    {
      g_free (pending[k]);
      g_free (state[k]);
    }
  fixture_teardown (&f);
}

/* q falls through 5.5 when x reaches 5: at 0.1 + 1/9 + 1/8 + 1/7 + 1/6. */
static void
test_break_crossing (void)
{
  Fixture f;
  double expected = 0.1 + 1.0 / 9 + 1.0 / 8 + 1.0 / 7 + 1.0 / 6;
  QdRunner *runner;

  fixture_setup (&f, "cellier-first-order.qdevs");
  qd_debugger_add_breakpoint (f.debugger, QD_BREAK_CROSSING, "/Integrator", 0, 5.5);
  act (&f, "dbg.continue");
  runner = qd_run_session_get_runner (qd_debugger_get_session (f.debugger));
  g_assert_nonnull (runner);
  g_assert_cmpint (qd_runner_get_state (runner), ==, QD_RUNNER_PAUSED);
  g_assert_cmpfloat_with_epsilon (qd_debugger_get_time (f.debugger), expected, 1e-12);
  g_assert_cmpfloat_with_epsilon (qd_simulation_get_time (qd_runner_get_simulation (runner)),
                                  expected, 1e-12);
  g_assert_nonnull (strstr (qd_debugger_panel_get_status (f.panel), "crosses 5.5"));
  /* The next stop is the way back up, after the step at 1.76. */
  act (&f, "dbg.continue");
  g_assert_cmpfloat (qd_debugger_get_time (f.debugger), >, 1.76);
  fixture_teardown (&f);
}

/* Opens @plot's context menu at data (@x, @y), checks that it offers
 * @label and activates @action from it. */
static void
pick_from_menu (QdPlot     *plot,
                double      x,
                double      y,
                const char *label,
                const char *action)
{
  GMenuModel *model;
  double wx, wy;

  qd_test_plot_to_widget (plot, x, y, &wx, &wy);
  model = qd_plot_menu_prepare (plot, wx, wy);
  g_assert_true (qd_test_menu_has_label (model, label));
  g_assert_true (qd_plot_menu_activate (plot, action, NULL));
}

/* A right click on the plot of Cellier's example where x is 5.5 offers
 * "Break when x crosses 5.5"; chosen, the breakpoint is on the block
 * output that drives the Scope (the Integrator's), at the value clicked,
 * and the run stops at the analytic crossing time, also when the run
 * was over before (Continue runs it again from the start). "Break at
 * t = 2.5" from the same menu stops there next. */
static void
test_break_from_plot (void)
{
  Fixture f;
  QdRunSession *session;
  QdPlot *plot;
  GPtrArray *bps;
  const QdBreakpoint *bp;
  double expected = 0.1 + 1.0 / 9 + 1.0 / 8 + 1.0 / 7 + 1.0 / 6;

  fixture_setup (&f, "cellier-first-order.qdevs");
  session = qd_debugger_get_session (f.debugger);
  g_assert_true (qd_run_session_run (session));
  g_assert_true (qd_test_iterate_until (is_finished, session, 60));
  plot = qd_run_session_get_plot (session, 0);
  qd_plot_set_view (plot, 0.0, 4.0, -1.0, 11.0);
  while (g_main_context_iteration (NULL, FALSE))
    ;

  pick_from_menu (plot, 0.3, 5.5, "Break when x crosses 5.5", "break-crossing");
  bps = qd_debugger_get_breakpoints (f.debugger);
  g_assert_cmpuint (bps->len, ==, 1);
  bp = g_ptr_array_index (bps, 0);
  g_assert_cmpint (bp->kind, ==, QD_BREAK_CROSSING);
  g_assert_cmpstr (bp->block, ==, "/Integrator");
  g_assert_cmpuint (bp->port, ==, 0);
  g_assert_cmpfloat (bp->value, ==, 5.5);

  act (&f, "dbg.continue");
  g_assert_cmpfloat_with_epsilon (qd_debugger_get_time (f.debugger), expected, 1e-12);

  /* The time clicked, rounded to what a pixel tells. */
  pick_from_menu (plot, 2.5, 2.0, "Break at t = 2.5", "break-time");
  bps = qd_debugger_get_breakpoints (f.debugger);
  g_assert_cmpuint (bps->len, ==, 2);
  bp = g_ptr_array_index (bps, 1);
  g_assert_cmpint (bp->kind, ==, QD_BREAK_TIME);
  g_assert_cmpfloat (bp->value, ==, 2.5);
  qd_debugger_remove_breakpoint (f.debugger, 0);
  act (&f, "dbg.continue");
  g_assert_cmpfloat (qd_debugger_get_time (f.debugger), ==, 2.5);
  fixture_teardown (&f);
}

/* Cellier's slide: 17 steps, the first at 0, then 0.1, 0.1 + 1/9... */
static void
test_quant_view (void)
{
  Fixture f;
  GtkWidget *view;
  GtkWidget *window;

  fixture_setup (&f, "cellier-first-order.qdevs");
  view = qd_quant_view_new (f.document, "/Integrator", f.debugger);
  g_object_ref_sink (view);
  g_assert_null (qd_quant_view_get_problem (QD_QUANT_VIEW (view)));
  g_assert_cmpuint (qd_quant_view_get_n_steps (QD_QUANT_VIEW (view)), ==, 17);
  g_assert_cmpfloat (qd_quant_view_get_step_time (QD_QUANT_VIEW (view), 0), ==, 0.0);
  g_assert_cmpfloat_with_epsilon (qd_quant_view_get_step_time (QD_QUANT_VIEW (view), 2),
                                  0.1 + 1.0 / 9, 1e-12);
  /* Drawn in a window: it must not fail. */
  window = gtk_window_new ();
  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_present (GTK_WINDOW (window));
  while (g_main_context_iteration (NULL, FALSE))
    ;
  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (view);

  /* Opened on the Scope, it shows the Integrator that feeds it; on a
   * block that is neither, it says so. */
  view = g_object_ref_sink (qd_quant_view_new (f.document, "/Scope", NULL));
  g_assert_cmpuint (qd_quant_view_get_n_steps (QD_QUANT_VIEW (view)), ==, 17);
  g_object_unref (view);
  view = g_object_ref_sink (qd_quant_view_new (f.document, "/Gain", NULL));
  g_assert_cmpuint (qd_quant_view_get_n_steps (QD_QUANT_VIEW (view)), ==, 0);
  g_assert_nonnull (strstr (qd_quant_view_get_problem (QD_QUANT_VIEW (view)), "/Gain"));
  g_object_unref (view);
  fixture_teardown (&f);

  /* A vector Integrator, run as one block or expanded into its
   * elements: its element events interleave, and the view says so. */
  {
    g_autoptr(QdDocument) doc = qd_document_new ();
    QdBlock *zero = qd_test_add_block (doc, "constant", "Zero");
    QdBlock *x = qd_test_add_block (doc, "integrator", "x");

    qd_test_set_param (doc, x, "size", "3");
    qd_test_set_param (doc, x, "method", "QSS2");
    qd_test_connect (doc, zero, 0, x, 0);
    /* Three elements run natively only when asked (docs/vectors.md). */
    for (guint native = 0; native < 2; native++)
      {
        if (native)
          g_setenv ("QDEVS_VECTORS", "native", TRUE);
        view = g_object_ref_sink (qd_quant_view_new (doc, "/x", NULL));
        g_unsetenv ("QDEVS_VECTORS");
        g_assert_cmpuint (qd_quant_view_get_n_steps (QD_QUANT_VIEW (view)), ==, 0);
        g_assert_cmpstr (qd_quant_view_get_problem (QD_QUANT_VIEW (view)), ==,
                         "/x is a vector of 3 states; the quantization view "
                         "shows a scalar Integrator.");
        g_object_unref (view);
      }
  }
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;

  if (!qd_test_gtk_init (&argc, &argv, TRUE))
    return 0;

  app = qd_application_new (G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  g_test_add_func ("/debugger/steps-follow-table", test_steps_follow_table);
  g_test_add_func ("/debugger/pending-is-next", test_pending_is_next);
  g_test_add_func ("/debugger/step-back", test_step_back);
  g_test_add_func ("/debugger/break-crossing", test_break_crossing);
  g_test_add_func ("/debugger/break-from-plot", test_break_from_plot);
  g_test_add_func ("/debugger/quant-view", test_quant_view);
  return g_test_run ();
}

/* test-compare-dialog.c: Compare Methods… (main menu) in the editor
 *
 * The dialog runs a comparison of the methods checked in it and shows
 * one table row per method, with the same figures as the engine's
 * comparison; a bad option shows its error in the status line.
 */
#include "qd-test-util.h"
#include "qd-compare-dialog.h"

#include <string.h>

static void
run_and_wait (QdCompareDialog *dialog)
{
  qd_test_wait_for_signal (dialog, "finished", (void (*) (gpointer)) qd_compare_dialog_run);
}

static void
test_table_rows (void)
{
  g_autoptr(QdDocument) doc = qd_test_decay_document (5.0);
  const char *specs[] = { "QSS2", "rk4:h=0.1", "rkf45", NULL };
  GtkWidget *window = qd_compare_dialog_new (NULL, doc);
  QdCompareDialog *dialog = QD_COMPARE_DIALOG (window);
  g_autoptr(GError) error = NULL;
  QdComparison *cmp;

  gtk_window_present (GTK_WINDOW (window));
  g_assert_true (qd_compare_dialog_set_methods (dialog, specs));
  g_assert_cmpuint (qd_compare_dialog_get_n_rows (dialog), ==, 0);
  run_and_wait (dialog);
  g_assert_cmpuint (qd_compare_dialog_get_n_rows (dialog), ==, 3);
  g_assert_nonnull (strstr (qd_compare_dialog_get_status (dialog), "cvode-bdf:rtol=1e-10,atol=1e-12"));

  /* The same comparison in the engine gives the same figures. */
  cmp = qd_comparison_new (doc, specs, "cvode-bdf:rtol=1e-10,atol=1e-12", NULL, &error);
  g_assert_no_error (error);
  g_assert_true (qd_comparison_run (cmp, &error));
  for (guint i = 0; i < 3; i++)
    {
      const QdCompareRun *run = qd_comparison_get_run (cmp, i);
      const QdCompareError *e = &g_array_index (run->errors, QdCompareError, 0);
      g_autofree char *steps = g_strdup_printf ("%" G_GUINT64_FORMAT, run->steps);
      g_autofree char *rhs = g_strdup_printf ("%" G_GUINT64_FORMAT, run->rhs_evals);
      g_autofree char *max = g_strdup_printf ("%.3e", e->max);
      g_autofree char *rms = g_strdup_printf ("%.3e", e->rms);

      g_assert_cmpstr (qd_compare_dialog_get_cell (dialog, i, 0), ==, run->name);
      g_assert_cmpstr (qd_compare_dialog_get_cell (dialog, i, 1), ==, steps);
      g_assert_cmpstr (qd_compare_dialog_get_cell (dialog, i, 3), ==, rhs);
      g_assert_cmpstr (qd_compare_dialog_get_cell (dialog, i, 5), ==, max);
      g_assert_cmpstr (qd_compare_dialog_get_cell (dialog, i, 6), ==, rms);
    }
  g_assert_cmpstr (qd_compare_dialog_get_cell (dialog, 1, 1), ==, "50");
  qd_comparison_free (cmp);
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
test_bad_option (void)
{
  g_autoptr(QdDocument) doc = qd_test_decay_document (5.0);
  const char *specs[] = { "QSS2", "rkf45:tol=1", NULL };
  GtkWidget *window = qd_compare_dialog_new (NULL, doc);
  QdCompareDialog *dialog = QD_COMPARE_DIALOG (window);

  g_assert_true (qd_compare_dialog_set_methods (dialog, specs));
  run_and_wait (dialog);
  g_assert_cmpuint (qd_compare_dialog_get_n_rows (dialog), ==, 0);
  g_assert_nonnull (strstr (qd_compare_dialog_get_status (dialog), "solver option 'tol'"));
  /* A method the list does not have is refused. */
  {
    const char *unknown[] = { "RK9", NULL };

    g_assert_false (qd_compare_dialog_set_methods (dialog, unknown));
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

static void
on_finalized (gpointer  data,
              GObject  *where)
{
  *(gboolean *) data = TRUE;
}

/* Closing the dialog during a long run stops the comparison; the dialog
 * goes once its worker has stopped, and nothing touches its widgets
 * after. */
static void
test_close_while_running (void)
{
  g_autoptr(QdDocument) doc = qd_test_decay_document (5.0);
  /* QSS1 with a quantum of 1e-9 over 1e6 time units: hours of work. */
  const char *specs[] = { "QSS1:dqrel=1e-9,dqmin=1e-12", NULL };
  GtkWidget *window;
  gboolean finalized = FALSE;

  qd_test_set_final_time (doc, 1e6);
  window = qd_compare_dialog_new (NULL, doc);
  g_assert_true (qd_compare_dialog_set_methods (QD_COMPARE_DIALOG (window), specs));
  g_object_weak_ref (G_OBJECT (window), on_finalized, &finalized);
  gtk_window_present (GTK_WINDOW (window));
  qd_compare_dialog_run (QD_COMPARE_DIALOG (window));
  g_assert_nonnull (strstr (qd_compare_dialog_get_status (QD_COMPARE_DIALOG (window)), "Running"));
  gtk_window_destroy (GTK_WINDOW (window));
  while (!finalized)
    g_main_context_iteration (NULL, TRUE);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  if (!gtk_init_check ())
    {
      g_test_skip ("no display");
      return g_test_run ();
    }
  qd_init ();
  g_test_add_func ("/compare-dialog/table-rows", test_table_rows);
  g_test_add_func ("/compare-dialog/bad-option", test_bad_option);
  g_test_add_func ("/compare-dialog/close-while-running", test_close_while_running);
  return g_test_run ();
}

/* qd-test-gtk-util.c: helpers shared by the tests of GTK widgets */
#include "qd-test-gtk-util.h"

static void
on_after_paint (GdkFrameClock *clock,
                gboolean      *done)
{
  *done = TRUE;
}

void
qd_test_wait_for_paint (GtkWidget *widget)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  gboolean done = FALSE;
  gulong handler;

  g_assert_nonnull (clock);
  handler = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), &done);
  gtk_widget_queue_draw (widget);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (clock, handler);
}

static gboolean
timeout_done (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

void
qd_test_run_frames (guint ms)
{
  gboolean done = FALSE;

  g_timeout_add (ms, timeout_done, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

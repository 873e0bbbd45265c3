/* qd-test-gtk-util.c: helpers shared by the tests of GTK widgets */
#include "qd-test-gtk-util.h"

#include "qd-blocks.h"

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

gboolean
qd_test_gtk_init (int       *argc,
                  char    ***argv,
                  gboolean   software_gl)
{
  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_print ("1..0 # SKIP no display (run under xvfb-run)\n");
      return FALSE;
    }
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  if (software_gl && g_getenv ("GSK_RENDERER") == NULL)
    g_setenv ("LIBGL_ALWAYS_SOFTWARE", "1", TRUE);
  gtk_test_init (argc, argv, NULL);
  qd_init ();
  return TRUE;
}

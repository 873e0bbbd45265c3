/* qd-test-gtk-util.h: helpers shared by the tests of GTK widgets
 *
 * Kept apart from qd-test-util.h, which the engine tests link without
 * GTK.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Queues a draw of @widget and iterates the main context until its frame
 * clock has painted, so that what it shows is what it holds now. */
void qd_test_wait_for_paint (GtkWidget *widget);

/* Runs the main loop for @ms milliseconds: several frame-clock ticks. */
void qd_test_run_frames (guint ms);

/* The start of a test program that shows widgets: without a display it
 * prints a TAP plan that skips everything and returns FALSE (the program
 * then exits 0). Otherwise it keeps GSettings in memory, away from the
 * user's, asks for software OpenGL when @software_gl and GSK_RENDERER
 * does not name a renderer, starts GTK (with the test options of
 * @argc, @argv) and libqdevs, and returns TRUE. */
gboolean qd_test_gtk_init (int       *argc,
                           char    ***argv,
                           gboolean   software_gl);

G_END_DECLS

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

G_END_DECLS

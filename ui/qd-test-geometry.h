/* qd-test-geometry.h: where a window's named widgets are, for the
 * end-to-end tests */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void qd_test_geometry_watch (GtkWindow *window);

G_END_DECLS

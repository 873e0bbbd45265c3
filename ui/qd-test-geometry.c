/* qd-test-geometry.c: where a window's named widgets are, for the
 * end-to-end tests
 *
 * The end-to-end tests drive the real editor with real input events
 * (xdotool), which land at screen positions. Fixed positions break with
 * a theme, a font or a translation; X has no idea of GTK's widgets, and
 * the tests run without an accessibility bus. So, when QD_TEST_GEOMETRY
 * is set in the environment, each window says where its named widgets
 * are: after every frame whose layout changed, it prints on standard
 * error
 *
 *   qd-geometry-begin WINDOW
 *   qd-geometry NAME X Y WIDTH HEIGHT
 *   ...
 *   qd-geometry-end WINDOW
 *
 * with one line per mapped widget that has a name of its own
 * (gtk_widget_set_name(), or "name" in a .ui file: "canvas", "palette:gain",
 * "field:k"...), in pixels from the top-left corner of the window's
 * surface (the X window that xdotool moves). WINDOW numbers the windows
 * in the order they were opened, from 1. Without the variable nothing is
 * watched.
 */
#include "qd-test-geometry.h"

typedef struct
{
  GtkWindow *window;
  guint      number;
  char      *last;      /* what was printed last */
} Watch;

static void
watch_free (gpointer data)
{
  Watch *watch = data;

  g_free (watch->last);
  g_free (watch);
}

static void
collect (GtkWidget *widget,
         GtkWidget *root,
         double     dx,
         double     dy,
         GString   *out)
{
  const char *name = gtk_widget_get_name (widget);
  graphene_rect_t bounds;

  if (!gtk_widget_get_mapped (widget))
    return;
  /* An unnamed widget's name is its type's. */
  if (g_strcmp0 (name, G_OBJECT_TYPE_NAME (widget)) != 0
      && gtk_widget_compute_bounds (widget, root, &bounds))
    g_string_append_printf (out, "qd-geometry %s %d %d %d %d\n", name,
                            (int) (bounds.origin.x + dx),
                            (int) (bounds.origin.y + dy),
                            (int) bounds.size.width,
                            (int) bounds.size.height);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    collect (child, root, dx, dy, out);
}

static void
on_after_paint (GdkFrameClock *clock,
                GtkWindow     *window)
{
  Watch *watch = g_object_get_data (G_OBJECT (window), "qd-test-geometry");
  g_autoptr(GString) out = g_string_new (NULL);
  double dx = 0, dy = 0;

  g_string_printf (out, "qd-geometry-begin %u\n", watch->number);
  /* Client-side decorations put the window's widgets inside the
   * surface, past the shadow. */
  gtk_native_get_surface_transform (GTK_NATIVE (watch->window), &dx, &dy);
  collect (GTK_WIDGET (watch->window), GTK_WIDGET (watch->window), dx, dy, out);
  g_string_append_printf (out, "qd-geometry-end %u\n", watch->number);
  if (g_strcmp0 (out->str, watch->last) == 0)
    return;
  g_free (watch->last);
  watch->last = g_strdup (out->str);
  g_printerr ("%s", out->str);
}

static void
on_realize (GtkWidget *widget)
{
  g_signal_connect_object (gtk_widget_get_frame_clock (widget), "after-paint",
                           G_CALLBACK (on_after_paint), widget, 0);
}

/* Prints where @window's named widgets are while it lives, when
 * QD_TEST_GEOMETRY is set. */
void
qd_test_geometry_watch (GtkWindow *window)
{
  static guint n_windows;
  Watch *watch;

  g_return_if_fail (GTK_IS_WINDOW (window));

  if (g_getenv ("QD_TEST_GEOMETRY") == NULL)
    return;
  watch = g_new0 (Watch, 1);
  watch->window = window;
  watch->number = ++n_windows;
  g_object_set_data_full (G_OBJECT (window), "qd-test-geometry", watch, watch_free);
  g_signal_connect (window, "realize", G_CALLBACK (on_realize), NULL);
}

/* qd-test-gtk-util.c: helpers shared by the tests of GTK widgets */
#include "qd-test-gtk-util.h"

#include <math.h>

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

static void
on_message (QdCanvasController  *controller,
            const char          *text,
            QdTestCanvasFixture *fixture)
{
  g_free (fixture->message);
  fixture->message = g_strdup (text);
  fixture->n_messages++;
}

QdBlock *
qd_test_canvas_add (QdTestCanvasFixture *f,
                    const char          *type,
                    const char          *name,
                    double               x,
                    double               y)
{
  g_autoptr(GError) error = NULL;
  QdBlock *block = qd_document_add_block (f->document, f->root, type, name, x, y, &error);

  g_assert_no_error (error);
  g_assert_nonnull (block);
  return block;
}

void
qd_test_canvas_fixture_setup (QdTestCanvasFixture *f,
                              gconstpointer        data)
{
  gboolean linked = GPOINTER_TO_INT (data);

  f->document = qd_document_new ();
  f->root = qd_document_get_root (f->document);
  f->gain = qd_test_canvas_add (f, "gain", "Gain", 100, 100);
  f->integrator = qd_test_canvas_add (f, "integrator", "Integrator",
                                      300, 100);
  f->gain2 = qd_test_canvas_add (f, "gain", "Gain 2", 300, 250);
  f->constant = qd_test_canvas_add (f, "constant", "Constant", 100, 250);
  if (linked)
    {
      g_autoptr(GError) error = NULL;

      qd_document_connect (f->document, f->root, f->gain->id, 0,
                           f->integrator->id, 0, &error);
      g_assert_no_error (error);
    }
  f->controller = qd_canvas_controller_new ();
  qd_canvas_controller_set_document (f->controller, f->document);
  qd_canvas_controller_set_tolerance (f->controller, 5.0);
  g_signal_connect (f->controller, "message", G_CALLBACK (on_message), f);
}

void
qd_test_canvas_fixture_teardown (QdTestCanvasFixture *f,
                                 gconstpointer        data)
{
  g_clear_object (&f->controller);
  g_clear_object (&f->document);
  g_clear_pointer (&f->message, g_free);
}

void
qd_test_assert_point (QdPoint p,
                      double  x,
                      double  y)
{
  g_assert_cmpfloat_with_epsilon (p.x, x, 1e-9);
  g_assert_cmpfloat_with_epsilon (p.y, y, 1e-9);
}

void
qd_test_assert_orthogonal (const GArray *route)
{
  g_assert_cmpuint (route->len, >=, 2);
  for (guint k = 0; k + 1 < route->len; k++)
    {
      QdPoint a = g_array_index (route, QdPoint, k);
      QdPoint b = g_array_index (route, QdPoint, k + 1);

      g_assert_true (fabs (a.x - b.x) < 1e-9 || fabs (a.y - b.y) < 1e-9);
    }
}

guint32
qd_test_pixel_at (cairo_surface_t *surface,
                  int              x,
                  int              y)
{
  unsigned char *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);

  return *(guint32 *) (data + y * stride + x * 4) & 0xffffff;
}

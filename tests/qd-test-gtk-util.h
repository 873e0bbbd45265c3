/* qd-test-gtk-util.h: helpers shared by the tests of GTK widgets
 *
 * Kept apart from qd-test-util.h, which the engine tests link without
 * GTK.
 */
#pragma once

#include <gtk/gtk.h>

#include "qd-canvas.h"

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

/* The canvas tests' small diagram: Gain (100,100) -> Integrator
 * (300,100), and a free Gain 2 at (300,250) and Constant at (100,250).
 * Every block is 60x40, so ports sit at y = block y + 20. The controller
 * edits the document; its messages are counted and the last one kept. */
typedef struct
{
  QdDocument         *document;
  QdSystem           *root;
  QdBlock            *gain;
  QdBlock            *integrator;
  QdBlock            *gain2;
  QdBlock            *constant;
  QdCanvasController *controller;
  char               *message;
  guint               n_messages;
} QdTestCanvasFixture;

/* Builds the diagram (with the link Gain -> Integrator when @data is
 * TRUE) and a controller on it with a 5-unit tolerance; for g_test_add. */
void     qd_test_canvas_fixture_setup    (QdTestCanvasFixture *f,
                                          gconstpointer        data);
void     qd_test_canvas_fixture_teardown (QdTestCanvasFixture *f,
                                          gconstpointer        data);

/* Adds a block of @type named @name at (@x, @y) to the root system of
 * the fixture's document; asserts that this worked. */
QdBlock *qd_test_canvas_add              (QdTestCanvasFixture *f,
                                          const char          *type,
                                          const char          *name,
                                          double               x,
                                          double               y);

/* Asserts that @p is (@x, @y). */
void     qd_test_assert_point            (QdPoint              p,
                                          double               x,
                                          double               y);

/* Asserts that @route has two points or more and only horizontal and
 * vertical segments. */
void     qd_test_assert_orthogonal       (const GArray        *route);

/* The RGB of the pixel (@x, @y) of an ARGB32 image @surface. */
guint32  qd_test_pixel_at                (cairo_surface_t     *surface,
                                          int                  x,
                                          int                  y);

G_END_DECLS

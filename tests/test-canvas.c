/* test-canvas.c: the diagram canvas: geometry, editing, drawing
 *
 * Geometry and controller tests drive the canvas's edits with canvas
 * coordinates, as the widget does with real pointer events, and check
 * the document afterwards (and that one undo restores its exact text).
 * Render tests draw into an image surface with a style of pure colours
 * and read pixels back; the widget tests compare what the canvas shows
 * (from its cached drawing) with a fresh drawing of the same view. The
 * incremental router is checked against a full routing after random
 * edits. Runs under a display (xvfb-run in CI) because
 * the widget tests need GTK; without one the test is skipped.
 */
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qd-application.h"
#include "qd-canvas.h"
#include "qd-canvas-notes.h"
#include "qd-canvas-render.h"
#include "qd-test-gtk-util.h"
#include "qd-test-util.h"
#include "qd-window.h"

static QdApplication *app;

/* A small diagram: Gain (100,100) -> Integrator (300,100), and a free
 * Gain 2 at (300,250) and Constant at (100,250). Every block is 60x40,
 * so ports sit at y = block y + 20. */
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
} Fixture;

static void
on_message (QdCanvasController *controller,
            const char         *text,
            Fixture            *fixture)
{
  g_free (fixture->message);
  fixture->message = g_strdup (text);
  fixture->n_messages++;
}

static QdBlock *
add (Fixture    *f,
     const char *type,
     const char *name,
     double      x,
     double      y)
{
  g_autoptr(GError) error = NULL;
  QdBlock *block = qd_document_add_block (f->document, f->root, type, name, x, y, &error);

  g_assert_no_error (error);
  g_assert_nonnull (block);
  return block;
}

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  gboolean linked = GPOINTER_TO_INT (data);

  f->document = qd_document_new ();
  f->root = qd_document_get_root (f->document);
  f->gain = add (f, "gain", "Gain", 100, 100);
  f->integrator = add (f, "integrator", "Integrator", 300, 100);
  f->gain2 = add (f, "gain", "Gain 2", 300, 250);
  f->constant = add (f, "constant", "Constant", 100, 250);
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

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_clear_object (&f->controller);
  g_clear_object (&f->document);
  g_clear_pointer (&f->message, g_free);
}

static char *
text_of (Fixture *f)
{
  return qd_document_to_data (f->document, NULL);
}

static void
click_drag (Fixture          *f,
            double            x0,
            double            y0,
            double            x1,
            double            y1,
            QdCanvasModifiers mods)
{
  qd_canvas_controller_press (f->controller, x0, y0, mods);
  qd_canvas_controller_drag (f->controller, (x0 + x1) / 2, (y0 + y1) / 2);
  qd_canvas_controller_drag (f->controller, x1, y1);
  qd_canvas_controller_release (f->controller, x1, y1);
}

static void
assert_point (QdPoint p,
              double  x,
              double  y)
{
  g_assert_cmpfloat_with_epsilon (p.x, x, 1e-9);
  g_assert_cmpfloat_with_epsilon (p.y, y, 1e-9);
}

static void
assert_orthogonal (const GArray *route)
{
  g_assert_cmpuint (route->len, >=, 2);
  for (guint k = 0; k + 1 < route->len; k++)
    {
      QdPoint a = g_array_index (route, QdPoint, k);
      QdPoint b = g_array_index (route, QdPoint, k + 1);

      g_assert_true (fabs (a.x - b.x) < 1e-9 || fabs (a.y - b.y) < 1e-9);
    }
}

/* Geometry */

static void
test_port_positions (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  QdPoint pos, dir;
  QdBlock *sum;

  /* Unturned: inputs left, outputs right, pointing away. */
  g_assert_true (qd_canvas_port_position (f->gain, QD_CANVAS_PORT_INPUT, 0, &pos, &dir));
  assert_point (pos, 100, 120);
  assert_point (dir, -1, 0);
  g_assert_true (qd_canvas_port_position (f->gain, QD_CANVAS_PORT_OUTPUT, 0, &pos, &dir));
  assert_point (pos, 160, 120);
  assert_point (dir, 1, 0);
  g_assert_false (qd_canvas_port_position (f->gain, QD_CANVAS_PORT_INPUT, 1, &pos, &dir));
  g_assert_false (qd_canvas_port_position (f->constant, QD_CANVAS_PORT_INPUT, 0, &pos, &dir));

  /* Flipped: mirrored left-right. */
  qd_document_set_geometry (f->document, f->gain, 100, 100, 60, 40, 0, TRUE, &error);
  g_assert_no_error (error);
  qd_canvas_port_position (f->gain, QD_CANVAS_PORT_INPUT, 0, &pos, &dir);
  assert_point (pos, 160, 120);
  assert_point (dir, 1, 0);

  /* A quarter turn clockwise (the rectangle turned to 40x60): the input
   * is on top, the output at the bottom. */
  qd_document_set_geometry (f->document, f->gain, 100, 100, 40, 60, 90, FALSE, &error);
  g_assert_no_error (error);
  qd_canvas_port_position (f->gain, QD_CANVAS_PORT_INPUT, 0, &pos, &dir);
  assert_point (pos, 120, 100);
  assert_point (dir, 0, -1);
  qd_canvas_port_position (f->gain, QD_CANVAS_PORT_OUTPUT, 0, &pos, &dir);
  assert_point (pos, 120, 160);
  assert_point (dir, 0, 1);

  /* Half a turn: input on the right. Three quarters: at the bottom. */
  qd_document_set_geometry (f->document, f->gain, 100, 100, 60, 40, 180, FALSE, &error);
  qd_canvas_port_position (f->gain, QD_CANVAS_PORT_INPUT, 0, &pos, &dir);
  assert_point (pos, 160, 120);
  assert_point (dir, 1, 0);
  qd_document_set_geometry (f->document, f->gain, 100, 100, 40, 60, 270, FALSE, &error);
  qd_canvas_port_position (f->gain, QD_CANVAS_PORT_INPUT, 0, &pos, &dir);
  assert_point (pos, 120, 160);
  assert_point (dir, 0, 1);

  /* Several ports spread evenly along their side; flip and a quarter turn
   * put the inputs at the bottom, the first one at the right end. */
  sum = add (f, "wsum", "Sum", 500, 100);
  qd_document_set_param (f->document, sum, "n", "3", &error);
  g_assert_no_error (error);
  qd_document_set_geometry (f->document, sum, 500, 100, 60, 60, 0, FALSE, &error);
  for (guint i = 0; i < 3; i++)
    {
      qd_canvas_port_position (sum, QD_CANVAS_PORT_INPUT, i, &pos, NULL);
      assert_point (pos, 500, 110 + 20 * i);
    }
  qd_document_set_geometry (f->document, sum, 500, 100, 60, 60, 90, TRUE, &error);
  qd_canvas_port_position (sum, QD_CANVAS_PORT_INPUT, 0, &pos, &dir);
  assert_point (pos, 550, 160);
  assert_point (dir, 0, 1);
  qd_canvas_port_position (sum, QD_CANVAS_PORT_INPUT, 2, &pos, NULL);
  assert_point (pos, 510, 160);
}

static void
test_hit_testing (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  QdCanvasHit hit;
  QdLink *link;
  QdPoint bends[4] = { { 200, 120 }, { 200, 60 }, { 260, 60 }, { 260, 120 } };

  hit = qd_canvas_hit_test (f->root, NULL, 130, 120, 5);
  g_assert_cmpint (hit.kind, ==, QD_CANVAS_HIT_BLOCK);
  g_assert_true (hit.block == f->gain);

  /* Ports win over the block and the link that end there. */
  hit = qd_canvas_hit_test (f->root, NULL, 161, 121, 5);
  g_assert_cmpint (hit.kind, ==, QD_CANVAS_HIT_PORT);
  g_assert_true (hit.block == f->gain);
  g_assert_cmpint (hit.port_kind, ==, QD_CANVAS_PORT_OUTPUT);
  hit = qd_canvas_hit_test (f->root, NULL, 298, 120, 5);
  g_assert_cmpint (hit.kind, ==, QD_CANVAS_HIT_PORT);
  g_assert_true (hit.block == f->integrator);
  g_assert_cmpint (hit.port_kind, ==, QD_CANVAS_PORT_INPUT);

  /* The link Gain -> Integrator is straight along y = 120. */
  hit = qd_canvas_hit_test (f->root, NULL, 230, 122, 5);
  g_assert_cmpint (hit.kind, ==, QD_CANVAS_HIT_LINK);
  g_assert_cmpuint (hit.target, ==, 0);
  hit = qd_canvas_hit_test (f->root, NULL, 230, 130, 5);
  g_assert_cmpint (hit.kind, ==, QD_CANVAS_HIT_NONE);
  hit = qd_canvas_hit_test (f->root, NULL, 600, 600, 5);
  g_assert_cmpint (hit.kind, ==, QD_CANVAS_HIT_NONE);

  /* After a turn and a flip, the ports are hit where they are drawn. */
  qd_document_set_geometry (f->document, f->gain2, 300, 250, 40, 60, 90, TRUE, &error);
  g_assert_no_error (error);
  /* Flip sends the input right, the turn sends right to the bottom. */
  hit = qd_canvas_hit_test (f->root, NULL, 320, 311, 5);
  g_assert_cmpint (hit.kind, ==, QD_CANVAS_HIT_PORT);
  g_assert_true (hit.block == f->gain2);
  g_assert_cmpint (hit.port_kind, ==, QD_CANVAS_PORT_INPUT);
  hit = qd_canvas_hit_test (f->root, NULL, 320, 249, 5);
  g_assert_cmpint (hit.kind, ==, QD_CANVAS_HIT_PORT);
  g_assert_cmpint (hit.port_kind, ==, QD_CANVAS_PORT_OUTPUT);
  /* Nothing left where the input was before the turn. */
  hit = qd_canvas_hit_test (f->root, NULL, 299, 270, 3);
  g_assert_cmpint (hit.kind, !=, QD_CANVAS_HIT_PORT);

  /* Explicit bend points: their corners are hit as bends. */
  link = qd_system_find_source (f->root, f->gain->id, 0);
  qd_document_set_link_points (f->document, link, 0, bends, 4);
  hit = qd_canvas_hit_test (f->root, NULL, 201, 61, 5);
  g_assert_cmpint (hit.kind, ==, QD_CANVAS_HIT_BEND);
  g_assert_true (hit.link == link);
  g_assert_cmpuint (hit.index, ==, 2);
  hit = qd_canvas_hit_test (f->root, NULL, 230, 61, 5);
  g_assert_cmpint (hit.kind, ==, QD_CANVAS_HIT_LINK);
  hit = qd_canvas_hit_test (f->root, NULL, 230, 120, 3);
  g_assert_cmpint (hit.kind, ==, QD_CANVAS_HIT_NONE);
}

static void
test_routing (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(GArray) straight = NULL;
  g_autoptr(GArray) around = NULL;
  g_autoptr(GArray) elbows = NULL;
  QdLink *link = qd_system_find_source (f->root, f->gain->id, 0);
  QdPoint start = { 160, 270 }, right = { 1, 0 }, left = { -1, 0 };
  QdPoint end = { 100, 120 };
  QdPoint bends[1] = { { 230, 60 } };
  QdRect obstacle = qd_canvas_block_rect (f->gain);

  straight = qd_canvas_route_target (f->root, link, 0);
  g_assert_cmpuint (straight->len, ==, 2);
  assert_point (g_array_index (straight, QdPoint, 0), 160, 120);
  assert_point (g_array_index (straight, QdPoint, 1), 300, 120);

  /* Constant (160,270) back to Gain's input (100,120): the route must
   * leave rightwards, come into the input from the left, and not cross
   * the Gain block in between. */
  around = qd_canvas_route_auto (f->root, start, right, end, left);
  assert_orthogonal (around);
  assert_point (g_array_index (around, QdPoint, 0), 160, 270);
  assert_point (g_array_index (around, QdPoint, around->len - 1), 100, 120);
  g_assert_cmpfloat (g_array_index (around, QdPoint, 1).x, >, 160);
  g_assert_cmpfloat (g_array_index (around, QdPoint, around->len - 2).x, <, 100);
  for (guint k = 0; k + 1 < around->len; k++)
    {
      QdPoint a = g_array_index (around, QdPoint, k);
      QdPoint b = g_array_index (around, QdPoint, k + 1);
      QdRect seg = { MIN (a.x, b.x), MIN (a.y, b.y), fabs (a.x - b.x) + 0.01, fabs (a.y - b.y) + 0.01 };
      QdRect inner = { obstacle.x + 1, obstacle.y + 1, obstacle.width - 2, obstacle.height - 2 };

      g_assert_false (qd_rect_intersects (&seg, &inner));
    }

  /* A bend point that is not aligned gets elbows. */
  qd_document_set_link_points (f->document, link, 0, bends, 1);
  elbows = qd_canvas_route_target (f->root, link, 0);
  assert_orthogonal (elbows);
  assert_point (g_array_index (elbows, QdPoint, 0), 160, 120);
  assert_point (g_array_index (elbows, QdPoint, elbows->len - 1), 300, 120);
  {
    gboolean through = FALSE;

    for (guint k = 0; k < elbows->len; k++)
      if (fabs (g_array_index (elbows, QdPoint, k).x - 230) < 1e-9 &&
          fabs (g_array_index (elbows, QdPoint, k).y - 60) < 1e-9)
        through = TRUE;
    g_assert_true (through);
  }
}

static void
test_junctions (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) junctions = NULL;
  QdLink *link;

  link = qd_document_connect (f->document, f->root, f->gain->id, 0,
                              f->gain2->id, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (link->targets->len, ==, 2);
  junctions = qd_canvas_link_junctions (f->root, link);
  g_assert_cmpuint (junctions->len, ==, 1);
  /* The branch leaves the straight trunk somewhere along it. */
  g_assert_cmpfloat (g_array_index (junctions, QdPoint, 0).y, ==, 120);
  g_assert_cmpfloat (g_array_index (junctions, QdPoint, 0).x, >, 160);
  g_assert_cmpfloat (g_array_index (junctions, QdPoint, 0).x, <, 300);
}

/* Controller: links */

static void
test_connect (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *before = text_of (f);
  g_autofree char *after = NULL;
  QdCanvasFeedback feedback;
  QdLink *link;

  qd_canvas_controller_press (f->controller, 160.5, 120, 0);
  g_assert_cmpint (qd_canvas_controller_get_mode (f->controller), ==, QD_CANVAS_MODE_CONNECT);
  qd_canvas_controller_drag (f->controller, 250, 110);
  qd_canvas_controller_drag (f->controller, 301, 121);
  qd_canvas_controller_get_feedback (f->controller, &feedback);
  g_assert_nonnull (feedback.pending_route);
  g_assert_true (feedback.mark_block == f->integrator);
  g_assert_false (feedback.mark_bad);
  qd_canvas_controller_release (f->controller, 301, 121);

  link = qd_system_find_driver (f->root, f->integrator->id, 0, NULL);
  g_assert_nonnull (link);
  g_assert_cmpstr (link->src.block, ==, f->gain->id);
  g_assert_cmpuint (f->n_messages, ==, 0);
  g_assert_cmpint (qd_canvas_controller_get_mode (f->controller), ==, QD_CANVAS_MODE_IDLE);

  /* Dragged the other way, from an input to an output, works too. */
  click_drag (f, 300, 270, 160, 270, 0);
  link = qd_system_find_driver (f->root, f->gain2->id, 0, NULL);
  g_assert_nonnull (link);
  g_assert_cmpstr (link->src.block, ==, f->constant->id);

  /* Each connection is one undo step. */
  qd_document_undo (f->document);
  qd_document_undo (f->document);
  after = text_of (f);
  g_assert_cmpstr (after, ==, before);
}

static void
test_connect_refused (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *before = text_of (f);
  g_autofree char *after = NULL;
  QdCanvasFeedback feedback;

  /* Output onto output: the target is marked bad during the drag, and
   * the release explains. */
  qd_canvas_controller_press (f->controller, 160, 120, 0);
  qd_canvas_controller_drag (f->controller, 360, 121);
  qd_canvas_controller_get_feedback (f->controller, &feedback);
  g_assert_true (feedback.mark_block == f->integrator);
  g_assert_cmpint (feedback.mark_kind, ==, QD_CANVAS_PORT_OUTPUT);
  g_assert_true (feedback.mark_bad);
  g_assert_true (feedback.pending_bad);
  qd_canvas_controller_release (f->controller, 360, 121);
  g_assert_cmpuint (f->n_messages, ==, 1);
  g_assert_cmpstr (f->message, ==,
                   "/Gain: output 1 cannot be joined to output 1 of /Integrator; "
                   "a link goes from an output to an input, so drop it on an "
                   "input port");

  /* Onto an input that is already driven (Gain drives Integrator). */
  qd_canvas_controller_press (f->controller, 160, 270, 0);
  qd_canvas_controller_drag (f->controller, 299, 119);
  qd_canvas_controller_get_feedback (f->controller, &feedback);
  g_assert_true (feedback.mark_bad);
  qd_canvas_controller_release (f->controller, 299, 119);
  g_assert_cmpuint (f->n_messages, ==, 2);
  g_assert_cmpstr (f->message, ==,
                   "/Integrator: input 1 is already driven by /Gain; delete "
                   "that link first, or drop on a free input");

  /* Input onto input. */
  click_drag (f, 300, 270, 300, 120, 0);
  g_assert_cmpuint (f->n_messages, ==, 3);
  g_assert_cmpstr (f->message, ==,
                   "/Gain 2: input 1 cannot be joined to input 1 of /Integrator; "
                   "a link goes from an output to an input, so drop it on an "
                   "output port or on a link");

  /* Released on nothing: no link, no message. */
  click_drag (f, 160, 270, 220, 400, 0);
  g_assert_cmpuint (f->n_messages, ==, 3);

  after = text_of (f);
  g_assert_cmpstr (after, ==, before);
  g_assert_false (qd_document_can_redo (f->document));
}

static void
test_branch (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *before = text_of (f);
  g_autofree char *after = NULL;
  QdLink *link = qd_system_find_source (f->root, f->gain->id, 0);
  QdLinkTarget *target;

  /* From the free input of Gain 2 onto the middle of the link. */
  click_drag (f, 300, 270, 230, 121, 0);
  g_assert_cmpuint (f->n_messages, ==, 0);
  g_assert_cmpuint (f->root->links->len, ==, 1);
  g_assert_cmpuint (link->targets->len, ==, 2);
  target = g_ptr_array_index (link->targets, 1);
  g_assert_cmpstr (target->dst.block, ==, f->gain2->id);
  g_assert_cmpuint (target->dst.port, ==, 0);

  /* Ctrl-drag from the link to a free input branches it as well. */
  qd_document_undo (f->document);
  click_drag (f, 230, 120, 300, 270, QD_CANVAS_MODIFIER_CONTROL);
  g_assert_cmpuint (link->targets->len, ==, 2);

  qd_document_undo (f->document);
  after = text_of (f);
  g_assert_cmpstr (after, ==, before);
}

static void
test_bend_drag (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *before = text_of (f);
  g_autofree char *after = NULL;
  g_autoptr(GArray) route = NULL;
  QdLink *link = qd_system_find_source (f->root, f->gain->id, 0);
  QdLinkTarget *target = g_ptr_array_index (link->targets, 0);

  /* Dragging the straight link down moves its middle, snapped, and keeps
   * both ends on their ports. */
  click_drag (f, 230, 121, 233, 163, 0);
  g_assert_cmpuint (target->points->len, >, 0);
  route = qd_canvas_route_target (f->root, link, 0);
  assert_orthogonal (route);
  assert_point (g_array_index (route, QdPoint, 0), 160, 120);
  assert_point (g_array_index (route, QdPoint, route->len - 1), 300, 120);
  {
    gboolean lowered = FALSE;

    for (guint k = 0; k + 1 < route->len; k++)
      if (g_array_index (route, QdPoint, k).y == 160 &&
          g_array_index (route, QdPoint, k + 1).y == 160)
        lowered = TRUE;
    g_assert_true (lowered);
  }

  qd_document_undo (f->document);
  after = text_of (f);
  g_assert_cmpstr (after, ==, before);
}

static void
test_rewire (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *before = text_of (f);
  g_autofree char *after = NULL;
  QdLink *link;

  /* The end of Gain's link taken from Integrator to Gain 2. */
  click_drag (f, 300, 120, 300, 270, 0);
  g_assert_cmpuint (f->n_messages, ==, 0);
  g_assert_null (qd_system_find_driver (f->root, f->integrator->id, 0, NULL));
  link = qd_system_find_driver (f->root, f->gain2->id, 0, NULL);
  g_assert_nonnull (link);
  g_assert_cmpstr (link->src.block, ==, f->gain->id);
  qd_document_undo (f->document);
  after = text_of (f);
  g_assert_cmpstr (after, ==, before);

  /* Integrator's input taken to another source: Constant replaces Gain. */
  click_drag (f, 300, 120, 160, 270, 0);
  g_assert_cmpuint (f->n_messages, ==, 0);
  link = qd_system_find_driver (f->root, f->integrator->id, 0, NULL);
  g_assert_nonnull (link);
  g_assert_cmpstr (link->src.block, ==, f->constant->id);
  g_assert_null (qd_system_find_source (f->root, f->gain->id, 0));
  qd_document_undo (f->document);
  g_clear_pointer (&after, g_free);
  after = text_of (f);
  g_assert_cmpstr (after, ==, before);

  /* Back onto its own source: nothing to do. */
  click_drag (f, 300, 120, 160, 120, 0);
  g_assert_cmpuint (f->n_messages, ==, 0);
  g_clear_pointer (&after, g_free);
  after = text_of (f);
  g_assert_cmpstr (after, ==, before);
}

/* Controller: selection and moves */

static void
test_move_with_links (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *before = text_of (f);
  g_autofree char *after = NULL;
  g_autoptr(GArray) route = NULL;
  QdLink *link = qd_system_find_source (f->root, f->gain->id, 0);
  QdPoint out, in;

  /* Drag Gain by (33, 17): it lands on the grid at (130, 120). */
  click_drag (f, 130, 120, 163, 137, 0);
  g_assert_true (qd_canvas_controller_is_selected (f->controller, f->gain->id));
  g_assert_cmpfloat (f->gain->x, ==, 130);
  g_assert_cmpfloat (f->gain->y, ==, 120);

  /* The link follows: its route starts and ends on the moved ports. */
  qd_canvas_port_position (f->gain, QD_CANVAS_PORT_OUTPUT, 0, &out, NULL);
  qd_canvas_port_position (f->integrator, QD_CANVAS_PORT_INPUT, 0, &in, NULL);
  route = qd_canvas_controller_get_route (f->controller, link, 0);
  assert_orthogonal (route);
  assert_point (g_array_index (route, QdPoint, 0), out.x, out.y);
  assert_point (g_array_index (route, QdPoint, route->len - 1), in.x, in.y);
  assert_point (out, 190, 140);

  /* Moving two blocks through many pointer positions is one undo step. */
  qd_canvas_controller_select (f->controller, f->integrator->id, TRUE);
  qd_canvas_controller_press (f->controller, 320, 110, 0);
  for (int i = 1; i <= 20; i++)
    qd_canvas_controller_drag (f->controller, 320 + 3 * i, 110 + 2 * i);
  qd_canvas_controller_release (f->controller, 380, 150);
  g_assert_cmpfloat (f->integrator->x, ==, 360);
  g_assert_cmpfloat (f->integrator->y, ==, 140);
  g_assert_cmpfloat (f->gain->x, ==, 190);
  g_assert_cmpfloat (f->gain->y, ==, 160);

  qd_document_undo (f->document);
  g_assert_cmpfloat (f->gain->x, ==, 130);
  g_assert_cmpfloat (f->integrator->x, ==, 300);
  qd_document_undo (f->document);
  after = text_of (f);
  g_assert_cmpstr (after, ==, before);
}

static void
test_click_selection (Fixture       *f,
                      gconstpointer  data)
{
  GHashTable *selection = qd_canvas_controller_get_selection (f->controller);
  g_autofree char *link_key = NULL;

  click_drag (f, 130, 120, 130, 120, 0);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 1);
  g_assert_true (qd_canvas_controller_is_selected (f->controller, f->gain->id));

  /* Shift adds, Ctrl toggles off. */
  click_drag (f, 330, 120, 330, 120, QD_CANVAS_MODIFIER_SHIFT);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 2);
  click_drag (f, 130, 120, 130, 120, QD_CANVAS_MODIFIER_CONTROL);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 1);
  g_assert_true (qd_canvas_controller_is_selected (f->controller, f->integrator->id));

  /* A click on a link selects that branch. */
  click_drag (f, 230, 120, 230, 120, 0);
  link_key = qd_canvas_link_key (qd_system_find_source (f->root, f->gain->id, 0), 0);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 1);
  g_assert_true (qd_canvas_controller_is_selected (f->controller, link_key));

  /* A click on empty space clears; Select All takes everything. */
  click_drag (f, 600, 600, 600, 600, 0);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 0);
  qd_canvas_controller_select_all (f->controller);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 5);
}

/* A secondary click selects what the context menu will act on: the
 * link under the pointer (Delete then removes that link), a block; over
 * empty space it clears the selection, so that the menu's edits never
 * reach a block far from the pointer. */
static void
test_context_selection (Fixture       *f,
                        gconstpointer  data)
{
  GHashTable *selection = qd_canvas_controller_get_selection (f->controller);
  QdLink *link = qd_system_find_source (f->root, f->gain->id, 0);
  g_autofree char *link_key = qd_canvas_link_key (link, 0);
  QdCanvasHit hit;

  /* On the link between Gain and Integrator (y = 120). */
  qd_canvas_controller_select (f->controller, f->constant->id, FALSE);
  hit = qd_canvas_controller_context_press (f->controller, 230, 120);
  g_assert_cmpint (hit.kind, ==, QD_CANVAS_HIT_LINK);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 1);
  g_assert_true (qd_canvas_controller_is_selected (f->controller, link_key));
  g_assert_cmpint (qd_canvas_controller_get_mode (f->controller), ==, QD_CANVAS_MODE_IDLE);
  /* The menu's Delete acts on it. */
  qd_canvas_controller_delete_selection (f->controller);
  g_assert_null (qd_system_find_source (f->root, f->gain->id, 0));
  g_assert_cmpuint (f->root->blocks->len, ==, 4);
  qd_document_undo (f->document);
  link = qd_system_find_source (f->root, f->gain->id, 0);
  g_assert_nonnull (link);

  /* On one of several selected blocks: the selection stays whole. */
  qd_canvas_controller_select (f->controller, f->gain->id, FALSE);
  qd_canvas_controller_select (f->controller, f->gain2->id, TRUE);
  hit = qd_canvas_controller_context_press (f->controller, 130, 110);
  g_assert_cmpint (hit.kind, ==, QD_CANVAS_HIT_BLOCK);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 2);
  /* On a block not selected: it alone. */
  hit = qd_canvas_controller_context_press (f->controller, 130, 270);
  g_assert_true (hit.block == f->constant);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 1);
  g_assert_true (qd_canvas_controller_is_selected (f->controller, f->constant->id));
  /* On a link while a block is selected: the link alone. */
  qd_canvas_controller_context_press (f->controller, 230, 120);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 1);
  g_assert_true (qd_canvas_controller_is_selected (f->controller, link_key));

  /* On empty space: nothing selected, so Delete has nothing to act on. */
  qd_canvas_controller_select (f->controller, f->gain->id, FALSE);
  hit = qd_canvas_controller_context_press (f->controller, 600, 600);
  g_assert_cmpint (hit.kind, ==, QD_CANVAS_HIT_NONE);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 0);
  qd_canvas_controller_delete_selection (f->controller);
  g_assert_cmpuint (f->root->blocks->len, ==, 4);
}

/* A port block dropped from the palette has the size Create Subsystem
 * gives the port blocks it makes; other blocks keep the document's. */
static void
test_add_block_size (Fixture       *f,
                     gconstpointer  data)
{
  const char *types[] = { QD_TYPE_INPORT, QD_TYPE_OUTPORT };
  QdBlock *block, *sub = NULL, *made_in = NULL;
  double w, h;

  /* The Integrator, fed by Gain: its subsystem gets an Inport. */
  qd_canvas_controller_select (f->controller, f->integrator->id, FALSE);
  g_assert_true (qd_canvas_controller_group (f->controller));
  for (guint i = 0; i < f->root->blocks->len; i++)
    if (((QdBlock *) g_ptr_array_index (f->root->blocks, i))->inner != NULL)
      sub = g_ptr_array_index (f->root->blocks, i);
  g_assert_nonnull (sub);
  for (guint i = 0; i < sub->inner->blocks->len; i++)
    if (g_str_equal (((QdBlock *) g_ptr_array_index (sub->inner->blocks, i))->type,
                     QD_TYPE_INPORT))
      made_in = g_ptr_array_index (sub->inner->blocks, i);
  g_assert_nonnull (made_in);

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      block = qd_canvas_controller_add_block (f->controller, types[i], 503, 497);
      g_assert_nonnull (block);
      g_assert_cmpfloat (block->width, ==, made_in->width);
      g_assert_cmpfloat (block->height, ==, made_in->height);
      g_assert_cmpfloat (block->width, ==, 40);
      g_assert_cmpfloat (block->height, ==, 20);
      /* Centred on the point, on the grid, in one undo step. */
      g_assert_cmpfloat (block->x, ==, 480);
      g_assert_cmpfloat (block->y, ==, 490);
      qd_canvas_default_block_size (types[i], &w, &h);
      g_assert_cmpfloat (w, ==, 40);
      g_assert_cmpfloat (h, ==, 20);
      g_assert_true (qd_document_undo (f->document));
      g_assert_null (qd_system_find_block (f->root, block->id));
    }
  block = qd_canvas_controller_add_block (f->controller, "gain", 503, 497);
  g_assert_cmpfloat (block->width, ==, 60);
  g_assert_cmpfloat (block->height, ==, 40);
}

static void
test_rubber_band (Fixture       *f,
                  gconstpointer  data)
{
  GHashTable *selection = qd_canvas_controller_get_selection (f->controller);
  g_autofree char *link_key = qd_canvas_link_key (qd_system_find_source (f->root, f->gain->id, 0), 0);
  QdCanvasFeedback feedback;

  qd_canvas_controller_press (f->controller, 50, 50, 0);
  qd_canvas_controller_drag (f->controller, 400, 170);
  qd_canvas_controller_get_feedback (f->controller, &feedback);
  g_assert_true (feedback.has_rubber_band);
  g_assert_cmpfloat (feedback.rubber_band.width, ==, 350);
  qd_canvas_controller_release (f->controller, 400, 170);

  /* Gain and Integrator lie wholly inside, and so does their link. */
  g_assert_cmpuint (g_hash_table_size (selection), ==, 3);
  g_assert_true (qd_canvas_controller_is_selected (f->controller, f->gain->id));
  g_assert_true (qd_canvas_controller_is_selected (f->controller, f->integrator->id));
  g_assert_true (qd_canvas_controller_is_selected (f->controller, link_key));

  /* A band that only touches a block does not take it; Shift extends. */
  click_drag (f, 50, 240, 130, 300, QD_CANVAS_MODIFIER_SHIFT);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 3);
  click_drag (f, 50, 240, 170, 300, QD_CANVAS_MODIFIER_SHIFT);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 4);
  g_assert_true (qd_canvas_controller_is_selected (f->controller, f->constant->id));

  /* A rubber band changes nothing in the document. */
  g_assert_false (qd_document_can_redo (f->document));
}

/* A masked subsystem is copied and pasted with its mask (declared
 * parameters, values, icon text), and the paste is one undo step. */
static void
test_copy_paste_mask (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) pasted = NULL;
  g_autofree char *text = NULL;
  g_autofree char *id = NULL;
  QdBlock *sub = qd_document_add_block (f->document, f->root, "subsystem", "PI",
                                        400, 300, &error);
  QdMask *mask = qd_mask_new ();
  const QdMask *copy;

  g_assert_no_error (error);
  qd_mask_add_param (mask, "Kp", "2", "gain")->value = g_strdup ("3");
  mask->icon = g_strdup ("PI\nKp={Kp}");
  g_assert_true (qd_document_set_mask (f->document, sub, mask, &error));
  qd_canvas_controller_select (f->controller, sub->id, FALSE);
  text = qd_canvas_controller_copy (f->controller);
  g_assert_nonnull (strstr (text, "\"mask\""));
  g_assert_true (qd_canvas_controller_paste (f->controller, text, &error));
  g_assert_no_error (error);
  pasted = qd_canvas_controller_get_selected_blocks (f->controller);
  g_assert_cmpuint (pasted->len, ==, 1);
  g_assert_true (g_ptr_array_index (pasted, 0) != sub);
  copy = qd_block_get_mask (g_ptr_array_index (pasted, 0));
  g_assert_nonnull (copy);
  g_assert_true (qd_mask_equal (copy, mask));
  id = g_strdup (((QdBlock *) g_ptr_array_index (pasted, 0))->id);
  g_assert_true (qd_document_undo (f->document));
  g_assert_null (qd_document_find_block (f->document, id));
  qd_mask_free (mask);
}

static void
test_copy_paste (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *before = text_of (f);
  g_autofree char *after = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) pasted = NULL;
  g_autoptr(GError) error = NULL;
  QdBlock *g, *i;
  QdLink *link;

  qd_canvas_controller_select (f->controller, f->gain->id, FALSE);
  qd_canvas_controller_select (f->controller, f->integrator->id, TRUE);
  text = qd_canvas_controller_copy (f->controller);
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "\"format\": \"qdevs\""));
  /* Only what was selected: not Gain 2 nor Constant. */
  g_assert_null (strstr (text, "Gain 2"));
  g_assert_null (strstr (text, "Constant"));

  g_assert_true (qd_canvas_controller_paste (f->controller, text, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->root->blocks->len, ==, 6);

  /* The pasted blocks are selected, with fresh ids and unique names,
   * 20 units down and right; the link among them came along. */
  pasted = qd_canvas_controller_get_selected_blocks (f->controller);
  g_assert_cmpuint (pasted->len, ==, 2);
  g = g_ptr_array_index (pasted, 0);
  i = g_ptr_array_index (pasted, 1);
  g_assert_cmpstr (g->type, ==, "gain");
  g_assert_cmpstr (g->name, ==, "Gain 3");
  g_assert_cmpstr (i->name, ==, "Integrator 2");
  g_assert_cmpstr (g->id, !=, f->gain->id);
  g_assert_cmpstr (i->id, !=, f->integrator->id);
  g_assert_cmpfloat (g->x, ==, 120);
  g_assert_cmpfloat (g->y, ==, 120);
  link = qd_system_find_driver (f->root, i->id, 0, NULL);
  g_assert_nonnull (link);
  g_assert_cmpstr (link->src.block, ==, g->id);

  /* Pasting again steps further away. */
  g_assert_true (qd_canvas_controller_paste (f->controller, text, &error));
  pasted = (g_ptr_array_unref (pasted), qd_canvas_controller_get_selected_blocks (f->controller));
  g_assert_cmpfloat (((QdBlock *) g_ptr_array_index (pasted, 0))->x, ==, 140);
  g_assert_cmpstr (((QdBlock *) g_ptr_array_index (pasted, 0))->name, ==, "Gain 4");

  /* Each paste is one undo step. */
  qd_document_undo (f->document);
  qd_document_undo (f->document);
  after = text_of (f);
  g_assert_cmpstr (after, ==, before);

  /* Text that is not a diagram is refused, and nothing changes. */
  g_assert_false (qd_canvas_controller_paste (f->controller, "hello", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_cmpuint (f->root->blocks->len, ==, 4);
}

/* A link selected without its blocks: Copy puts it on the clipboard
 * with the blocks at its ends; Paste joins those same blocks again where
 * they are and the input is free, and otherwise says why nothing was
 * pasted. */
static void
test_copy_paste_link (Fixture       *f,
                      gconstpointer  data)
{
  QdLink *link = qd_system_find_driver (f->root, f->integrator->id, 0, NULL);
  g_autofree char *key = qd_canvas_link_key (link, 0);
  g_autofree char *before = text_of (f);
  g_autofree char *text = NULL;
  g_autofree char *after = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) other = qd_document_new ();
  g_autoptr(QdCanvasController) elsewhere = qd_canvas_controller_new ();
  g_autofree char *new_key = NULL;
  QdLink *made;

  qd_canvas_controller_select (f->controller, key, FALSE);
  text = qd_canvas_controller_copy (f->controller);
  g_assert_nonnull (text);
  g_assert_true (g_str_has_prefix (text, "# QDevs links\n"));
  /* The link's ends, not the other blocks. */
  g_assert_nonnull (strstr (text, "\"Integrator\""));
  g_assert_null (strstr (text, "Gain 2"));

  /* While the link is there, its input is taken: nothing pasted, no
   * undo step. */
  g_assert_false (qd_canvas_controller_paste (f->controller, text, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "nothing pasted"));
  g_assert_nonnull (strstr (error->message, "input 1 of /Integrator"));
  g_clear_error (&error);
  g_assert_cmpuint (f->root->links->len, ==, 1);
  g_assert_cmpuint (f->root->blocks->len, ==, 4);

  /* Cut (Copy, then Delete): the link goes in one undo step; Paste
   * brings it back between the same blocks, selected, in one step. */
  qd_canvas_controller_delete_selection (f->controller);
  g_assert_null (qd_system_find_driver (f->root, f->integrator->id, 0, NULL));
  g_assert_true (qd_canvas_controller_paste (f->controller, text, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->root->blocks->len, ==, 4);
  made = qd_system_find_driver (f->root, f->integrator->id, 0, NULL);
  g_assert_nonnull (made);
  g_assert_cmpstr (made->src.block, ==, f->gain->id);
  new_key = qd_canvas_link_key (made, 0);
  g_assert_true (qd_canvas_controller_is_selected (f->controller, new_key));
  g_assert_cmpuint (g_hash_table_size (qd_canvas_controller_get_selection (f->controller)), ==, 1);
  g_assert_cmpstr (qd_document_get_undo_label (f->document), ==, _("Paste"));
  qd_document_undo (f->document);
  g_assert_null (qd_system_find_driver (f->root, f->integrator->id, 0, NULL));
  qd_document_undo (f->document);
  after = text_of (f);
  g_assert_cmpstr (after, ==, before);

  /* In a diagram without those blocks: nothing pasted, and why. */
  qd_canvas_controller_set_document (elsewhere, other);
  g_assert_false (qd_canvas_controller_paste (elsewhere, text, &error));
  g_assert_nonnull (strstr (error->message, "are not here"));
  g_clear_error (&error);
  g_assert_cmpuint (qd_document_get_root (other)->blocks->len, ==, 0);
  g_assert_false (qd_document_can_undo (other));
}

/* An edit made while a gesture is in progress (Delete, Cut, Paste...
 * with the button still down) first takes the gesture back, as Escape
 * would, then applies to the diagram as it was: the rest of the drag
 * changes nothing, and the edit is an undo step of its own. */
static void
test_edit_during_gesture (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) route = NULL;
  g_autofree char *branch = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  QdLink *link;
  QdPoint a, b;

  /* Gain drives the Integrator and, through a branch, Gain 2. */
  link = qd_document_connect (f->document, f->root, f->gain->id, 0,
                              f->gain2->id, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (link->targets->len, ==, 2);
  branch = qd_canvas_link_key (link, 1);
  route = qd_canvas_route_target (f->root, link, 1);
  /* Its own segment: down towards Gain 2, before the last step in. */
  g_assert_cmpuint (route->len, >=, 3);
  a = g_array_index (route, QdPoint, route->len - 3);
  b = g_array_index (route, QdPoint, route->len - 2);
  g_assert_cmpfloat (fabs (a.y - b.y), >, 50);
  before = text_of (f);

  /* Bending the branch, it is deleted half way. */
  qd_canvas_controller_press (f->controller, (a.x + b.x) / 2, (a.y + b.y) / 2, 0);
  qd_canvas_controller_drag (f->controller, (a.x + b.x) / 2 + 30, (a.y + b.y) / 2 + 40);
  g_assert_cmpint (qd_canvas_controller_get_mode (f->controller), ==, QD_CANVAS_MODE_BEND);
  qd_canvas_controller_select (f->controller, branch, FALSE);
  qd_canvas_controller_delete_selection (f->controller);
  g_assert_cmpint (qd_canvas_controller_get_mode (f->controller), ==, QD_CANVAS_MODE_IDLE);
  qd_canvas_controller_drag (f->controller, (a.x + b.x) / 2 + 60, (a.y + b.y) / 2 + 80);
  qd_canvas_controller_release (f->controller, (a.x + b.x) / 2 + 60, (a.y + b.y) / 2 + 80);
  g_assert_cmpuint (link->targets->len, ==, 1);
  g_assert_cmpstr (qd_document_get_undo_label (f->document), ==, _("Delete"));
  qd_document_undo (f->document);
  after = text_of (f);
  g_assert_cmpstr (after, ==, before);

  /* Moving Gain 2, it is cut half way. */
  qd_canvas_controller_press (f->controller, 330, 270, 0);
  qd_canvas_controller_drag (f->controller, 380, 320);
  g_assert_cmpint (qd_canvas_controller_get_mode (f->controller), ==, QD_CANVAS_MODE_MOVE);
  g_free (qd_canvas_controller_copy (f->controller));
  qd_canvas_controller_delete_selection (f->controller);
  qd_canvas_controller_drag (f->controller, 420, 360);
  qd_canvas_controller_release (f->controller, 420, 360);
  g_assert_null (qd_system_find_block (f->root, f->gain2->id));
  g_assert_cmpstr (qd_document_get_undo_label (f->document), ==, _("Delete"));
  qd_document_undo (f->document);
  g_free (after);
  after = text_of (f);
  g_assert_cmpstr (after, ==, before);
}

static void
test_group (Fixture       *f,
            gconstpointer  data)
{
  g_autofree char *before = text_of (f);
  g_autofree char *after = NULL;
  g_autoptr(GPtrArray) selected = NULL;
  QdBlock *sub;

  qd_canvas_controller_select (f->controller, f->gain->id, FALSE);
  qd_canvas_controller_select (f->controller, f->integrator->id, TRUE);
  g_assert_true (qd_canvas_controller_group (f->controller));
  g_assert_cmpuint (f->root->blocks->len, ==, 3);

  selected = qd_canvas_controller_get_selected_blocks (f->controller);
  g_assert_cmpuint (selected->len, ==, 1);
  sub = g_ptr_array_index (selected, 0);
  g_assert_nonnull (sub->inner);
  g_assert_nonnull (qd_system_find_block (sub->inner, f->gain->id));

  /* A copied subsystem comes back whole: its inside, with its own port
   * blocks and links, under fresh ids. */
  {
    g_autofree char *text = qd_canvas_controller_copy (f->controller);
    g_autoptr(GPtrArray) pasted = NULL;
    g_autoptr(GError) error = NULL;
    QdBlock *copy;

    g_assert_true (qd_canvas_controller_paste (f->controller, text, &error));
    g_assert_no_error (error);
    pasted = qd_canvas_controller_get_selected_blocks (f->controller);
    g_assert_cmpuint (pasted->len, ==, 1);
    copy = g_ptr_array_index (pasted, 0);
    g_assert_nonnull (copy->inner);
    g_assert_cmpstr (copy->id, !=, sub->id);
    g_assert_cmpuint (copy->inner->blocks->len, ==, sub->inner->blocks->len);
    g_assert_cmpuint (copy->inner->links->len, ==, sub->inner->links->len);
    g_assert_null (qd_system_find_block (copy->inner, f->gain->id));
    qd_document_undo (f->document);
    qd_canvas_controller_select (f->controller, sub->id, FALSE);
  }

  /* Double-click opens it in the same canvas. */
  g_assert_true (qd_canvas_controller_activate (f->controller,
                                                sub->x + sub->width / 2,
                                                sub->y + sub->height / 2));
  g_assert_true (qd_canvas_controller_get_system (f->controller) == sub->inner);

  /* Undo takes the subsystem away: the canvas goes back to the root. */
  qd_document_undo (f->document);
  g_assert_true (qd_canvas_controller_get_system (f->controller) == f->root);
  after = text_of (f);
  g_assert_cmpstr (after, ==, before);

  /* Nothing selected: refused with a message. */
  qd_canvas_controller_clear_selection (f->controller);
  g_assert_false (qd_canvas_controller_group (f->controller));
  g_assert_cmpstr (f->message, ==, "/: select the blocks to put into a subsystem first");
}

typedef void (*EditFunc) (Fixture *f);

static void edit_rotate (Fixture *f) { qd_canvas_controller_rotate_selection (f->controller); }
static void edit_flip (Fixture *f) { qd_canvas_controller_flip_selection (f->controller); }
static void edit_delete (Fixture *f) { qd_canvas_controller_delete_selection (f->controller); }
static void edit_nudge (Fixture *f) { qd_canvas_controller_nudge (f->controller, 10, 0, TRUE); }
static void edit_align (Fixture *f) { qd_canvas_controller_align_selection (f->controller, QD_CANVAS_ALIGN_TOP); }
static void edit_duplicate (Fixture *f) { qd_canvas_controller_duplicate (f->controller); }
static void edit_ungroup (Fixture *f) { qd_canvas_controller_ungroup (f->controller); }
static void edit_add (Fixture *f) { qd_canvas_controller_add_block (f->controller, "gain", 503, 497); }

static void
test_undo_each (Fixture       *f,
                gconstpointer  data)
{
  static const struct
  {
    const char *name;
    EditFunc    edit;
  } edits[] = {
    { "rotate", edit_rotate },
    { "flip", edit_flip },
    { "delete", edit_delete },
    { "nudge", edit_nudge },
    { "align", edit_align },
    { "duplicate", edit_duplicate },
    { "add", edit_add },
  };

  for (guint k = 0; k < G_N_ELEMENTS (edits); k++)
    {
      g_autofree char *before = NULL;
      g_autofree char *changed = NULL;
      g_autofree char *after = NULL;

      g_test_message ("edit: %s", edits[k].name);
      qd_canvas_controller_select (f->controller, f->gain->id, FALSE);
      qd_canvas_controller_select (f->controller, f->gain2->id, TRUE);
      before = text_of (f);
      edits[k].edit (f);
      changed = text_of (f);
      g_assert_cmpstr (changed, !=, before);
      qd_document_undo (f->document);
      after = text_of (f);
      g_assert_cmpstr (after, ==, before);
    }

  /* Ungroup of a subsystem made by the canvas. */
  {
    g_autofree char *before = NULL;
    g_autofree char *after = NULL;

    qd_canvas_controller_select (f->controller, f->gain->id, FALSE);
    qd_canvas_controller_select (f->controller, f->integrator->id, TRUE);
    g_assert_true (qd_canvas_controller_group (f->controller));
    before = text_of (f);
    edit_ungroup (f);
    g_assert_cmpuint (f->root->blocks->len, ==, 4);
    qd_document_undo (f->document);
    after = text_of (f);
    g_assert_cmpstr (after, ==, before);
  }
}

static void
test_geometry_edits (Fixture       *f,
                     gconstpointer  data)
{
  qd_canvas_controller_select (f->controller, f->gain->id, FALSE);

  /* Rotating turns the rectangle about its centre. */
  qd_canvas_controller_rotate_selection (f->controller);
  g_assert_cmpint (f->gain->rotation, ==, 90);
  g_assert_cmpfloat (f->gain->width, ==, 40);
  g_assert_cmpfloat (f->gain->height, ==, 60);
  g_assert_cmpfloat (f->gain->x + f->gain->width / 2, ==, 130);
  g_assert_cmpfloat (f->gain->y + f->gain->height / 2, ==, 120);
  qd_canvas_controller_flip_selection (f->controller);
  g_assert_true (f->gain->flip);

  /* Arrows step to the next grid line; Shift+arrow by one unit. */
  qd_canvas_controller_nudge (f->controller, 1, 0, FALSE);
  g_assert_cmpfloat (f->gain->x, ==, 111);
  qd_canvas_controller_nudge (f->controller, 10, 0, TRUE);
  g_assert_cmpfloat (f->gain->x, ==, 120);
  qd_canvas_controller_nudge (f->controller, -10, 0, TRUE);
  g_assert_cmpfloat (f->gain->x, ==, 110);
  qd_canvas_controller_nudge (f->controller, 0, 10, TRUE);
  g_assert_cmpfloat (f->gain->y, ==, 100);

  /* Align left and top to the selection's edges. */
  qd_canvas_controller_select (f->controller, f->gain2->id, TRUE);
  qd_canvas_controller_align_selection (f->controller, QD_CANVAS_ALIGN_LEFT);
  g_assert_cmpfloat (f->gain2->x, ==, 110);
  qd_canvas_controller_align_selection (f->controller, QD_CANVAS_ALIGN_TOP);
  g_assert_cmpfloat (f->gain2->y, ==, 100);

  /* A dropped block is centred on the drop point, on the grid. */
  {
    QdBlock *block = qd_canvas_controller_add_block (f->controller, "integrator", 503, 497);

    g_assert_nonnull (block);
    g_assert_cmpfloat (block->x, ==, 470);
    g_assert_cmpfloat (block->y, ==, 480);
    g_assert_true (qd_canvas_controller_is_selected (f->controller, block->id));
  }
}

/* Incremental routing */

static void
assert_same_routes (GHashTable *incremental,
                    GHashTable *full)
{
  GHashTableIter iter;
  gpointer key, value;

  g_assert_cmpuint (g_hash_table_size (incremental), ==, g_hash_table_size (full));
  g_hash_table_iter_init (&iter, full);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GArray *expected = value;
      GArray *route = g_hash_table_lookup (incremental, key);

      if (route == NULL)
        g_error ("route %s missing", (const char *) key);
      if (route->len != expected->len ||
          (route->len > 0 && memcmp (route->data, expected->data,
                                     route->len * sizeof (QdPoint)) != 0))
        g_error ("route %s differs from the full routing", (const char *) key);
    }
}

static QdBlock *
random_block (QdSystem *system)
{
  return g_ptr_array_index (system->blocks,
                            g_test_rand_int_range (0, system->blocks->len));
}

/* A row of loops like a real diagram's, close enough together that
 * routes run past other blocks and along each other. */
static QdDocument *
routing_diagram (void)
{
  QdDocument *document = qd_document_new ();
  QdSystem *root = qd_document_get_root (document);
  g_autoptr(GError) error = NULL;

  for (guint row = 0; row < 5; row++)
    {
      double y = row * 90.0;
      QdBlock *previous = qd_document_add_block (document, root, "constant", NULL, 0, y, &error);

      for (guint k = 0; k < 4; k++)
        {
          double x = 100 + k * 300.0;
          QdBlock *sum = qd_document_add_block (document, root, "wsum", NULL, x, y, &error);
          QdBlock *gain = qd_document_add_block (document, root, "gain", NULL, x + 100, y, &error);
          QdBlock *integrator = qd_document_add_block (document, root, "integrator", NULL,
                                                       x + 200, y, &error);

          g_assert_no_error (error);
          qd_document_connect (document, root, previous->id, 0, sum->id, 0, &error);
          qd_document_connect (document, root, sum->id, 0, gain->id, 0, &error);
          qd_document_connect (document, root, gain->id, 0, integrator->id, 0, &error);
          qd_document_connect (document, root, integrator->id, 0, sum->id, 1, &error);
          g_assert_no_error (error);
          previous = integrator;
        }
    }
  return document;
}

/* Random edits of every kind; after each, the routes the router keeps
 * up to date must be exactly those of a full routing, and it must have
 * laid fewer of them. */
static void
test_router_incremental (void)
{
  g_autoptr(QdDocument) document = routing_diagram ();
  g_autoptr(QdCanvasRouter) router = qd_canvas_router_new ();
  QdSystem *root = qd_document_get_root (document);
  guint n_laid, total_laid = 0, total_routes = 0, n_undone = 0;

  {
    g_autoptr(GHashTable) first = qd_canvas_router_update (router, root, &n_laid, NULL);
    g_autoptr(GHashTable) full = qd_canvas_route_system (root);

    assert_same_routes (first, full);
    g_assert_cmpuint (n_laid, ==, g_hash_table_size (full));
    g_assert_cmpuint (n_laid, ==, 80);
  }
  /* Nothing changed: nothing is laid. */
  g_hash_table_unref (qd_canvas_router_update (router, root, &n_laid, NULL));
  g_assert_cmpuint (n_laid, ==, 0);

  for (guint i = 0; i < 300; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GHashTable) incremental = NULL;
      g_autoptr(GHashTable) full = NULL;
      QdBlock *block = random_block (root);
      int kind = g_test_rand_int_range (0, 10);

      switch (kind)
        {
        case 0:
          qd_document_move_block (document, block,
                                  block->x + 10 * g_test_rand_int_range (-8, 9),
                                  block->y + 10 * g_test_rand_int_range (-8, 9));
          break;
        case 1:
        case 2:
          qd_document_set_geometry (document, block, block->x, block->y,
                                    block->width, block->height,
                                    kind == 1 ? (block->rotation + 90) % 360 : block->rotation,
                                    kind == 2 ? !block->flip : block->flip, &error);
          g_assert_no_error (error);
          break;
        case 3:
          {
            g_autofree char *name = g_strdup_printf ("Renamed block number %u", i);

            qd_document_rename_block (document, block, name, &error);
            g_assert_no_error (error);
          }
          break;
        case 4:
          {
            QdBlock *added = qd_document_add_block (document, root, "gain", NULL,
                                                    10 * g_test_rand_int_range (0, 120),
                                                    10 * g_test_rand_int_range (0, 45), &error);

            g_assert_no_error (error);
            qd_document_connect (document, root, block->id, 0, added->id, 0, NULL);
          }
          break;
        case 5:
          if (root->blocks->len > 10)
            qd_document_remove_block (document, block);
          break;
        case 6:
          if (root->links->len > 10)
            qd_document_remove_link (document,
                                     g_ptr_array_index (root->links,
                                                        g_test_rand_int_range (0, root->links->len)));
          break;
        case 7:
          if (root->links->len > 0)
            {
              QdLink *link = g_ptr_array_index (root->links,
                                                g_test_rand_int_range (0, root->links->len));
              QdPoint point = { 10 * g_test_rand_int_range (0, 120),
                                10 * g_test_rand_int_range (0, 45) };

              qd_document_set_link_points (document, link, 0, &point,
                                           g_test_rand_bit () ? 1 : 0);
            }
          break;
        case 8:
          if (qd_document_undo (document))
            n_undone++;
          break;
        default:
          if (g_strcmp0 (block->type, "wsum") == 0)
            {
              const char *n = qd_block_get_param (block, "n");

              qd_document_set_param (document, block, "n",
                                     g_strcmp0 (n, "3") == 0 ? "2" : "3", &error);
              g_assert_no_error (error);
            }
          break;
        }

      incremental = qd_canvas_router_update (router, root, &n_laid, NULL);
      full = qd_canvas_route_system (root);
      assert_same_routes (incremental, full);
      total_laid += n_laid;
      total_routes += g_hash_table_size (full);
    }
  g_assert_cmpuint (n_undone, >, 0);
  g_test_message ("300 edits: %u routes laid of %u", total_laid, total_routes);
  /* Each edit touches a few blocks: most routes are kept, even in a
   * diagram this small and dense. */
  g_assert_cmpuint (total_laid * 2, <, total_routes);
}

/* Rendering */

static guint32
pixel_at (cairo_surface_t *surface,
          int              x,
          int              y)
{
  unsigned char *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);

  return *(guint32 *) (data + y * stride + x * 4) & 0xffffff;
}

/* A link that carries a vector is drawn thicker: 1.6 units off the line
 * is background for a plain link and link colour for a vector link. */
static void
test_render_vector_link (Fixture       *f,
                         gconstpointer  data)
{
  QdCanvasRenderOptions options;
  QdCanvasStyle style;
  QdLink *link = qd_system_find_source (f->root, f->gain->id, 0);
  g_autoptr(GHashTable) widths = g_hash_table_new (NULL, NULL);
  guint32 off_line[2];

  qd_canvas_style_init_light (&style);
  style.background = (QdColor) { 0, 0, 0, 1 };
  style.link = (QdColor) { 1, 0, 0, 1 };
  g_hash_table_insert (widths, link, GUINT_TO_POINTER (8));
  for (int vector = 0; vector < 2; vector++)
    {
      cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 800, 700);
      cairo_t *cr = cairo_create (surface);

      qd_canvas_render_options_init (&options);
      options.style = &style;
      options.draw_grid = FALSE;
      options.zoom = 2.0;
      options.origin_x = 50;
      options.link_widths = vector ? widths : NULL;
      qd_canvas_render (cr, f->root, &options, 800, 700);
      cairo_destroy (cr);
      cairo_surface_flush (surface);
      off_line[vector] = pixel_at (surface, (230 - 50) * 2, (int) ((120 + 1.6) * 2));
      cairo_surface_destroy (surface);
    }
  g_assert_cmphex (off_line[0], ==, 0x000000);
  g_assert_cmpuint ((off_line[1] >> 16) & 0xff, >, 150);
}

static void
test_render_pixels (Fixture       *f,
                    gconstpointer  data)
{
  QdCanvasRenderOptions options;
  QdCanvasStyle style;
  cairo_surface_t *surface;
  cairo_t *cr;
  QdPoint out;
  QdLink *link = qd_system_find_source (f->root, f->gain->id, 0);
  QdPoint through[3] = { { 200, 120 }, { 200, 270 }, { 330, 270 } };
  guint32 p;

  /* Pure colours, so that each thing drawn is recognisable. */
  qd_canvas_style_init_light (&style);
  style.background = (QdColor) { 0, 0, 0, 1 };
  style.block_fill = (QdColor) { 0, 0, 1, 1 };
  style.link = (QdColor) { 1, 0, 0, 1 };
  style.port = (QdColor) { 0, 1, 0, 1 };

  qd_canvas_render_options_init (&options);
  options.style = &style;
  options.draw_grid = FALSE;
  options.zoom = 2.0;
  options.origin_x = 50;
  options.origin_y = 0;

  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 800, 700);
  cr = cairo_create (surface);
  qd_canvas_render (cr, f->root, &options, 800, 700);
  cairo_destroy (cr);
  cairo_surface_flush (surface);

  /* Gain's body, left of its glyph: (100 + 8, 120 + 10) on the canvas is
   * (116, 260) on the image. */
  g_assert_cmphex (pixel_at (surface, 116, 260), ==, 0x0000ff);
  /* Its output mark just outside the right edge, off the link's line. */
  qd_canvas_port_position (f->gain, QD_CANVAS_PORT_OUTPUT, 0, &out, NULL);
  g_assert_cmphex (pixel_at (surface, (int) ((out.x + 1.5 - 50) * 2), (int) ((out.y + 1.5) * 2)),
                   ==, 0x00ff00);
  /* The link at a point of its route (y = 120, a 1.5 pixel line centred
   * on the boundary of two pixel rows): clearly red in either row. */
  p = pixel_at (surface, (230 - 50) * 2, 120 * 2);
  g_assert_cmpuint ((p >> 16) & 0xff, >, 150);
  g_assert_cmpuint (p & 0xff, <, 60);
  /* Nothing in an empty area. */
  g_assert_cmphex (pixel_at (surface, 500, 600), ==, 0x000000);
  g_assert_cmphex (pixel_at (surface, 20, 20), ==, 0x000000);

  /* Links lie above blocks: a link routed across Gain 2 shows on it. */
  qd_document_set_link_points (f->document, link, 0, through, 3);
  surface = (cairo_surface_destroy (surface),
             cairo_image_surface_create (CAIRO_FORMAT_RGB24, 800, 700));
  cr = cairo_create (surface);
  qd_canvas_render (cr, f->root, &options, 800, 700);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  /* (315, 270) is inside Gain 2 (300..360 x 250..290) on the link. */
  p = pixel_at (surface, (315 - 50) * 2, 270 * 2);
  g_assert_cmpuint ((p >> 16) & 0xff, >, 150);
  g_assert_cmpuint (p & 0xff, <, 150);
  /* The body of Gain 2 away from the link is still blue. */
  g_assert_cmphex (pixel_at (surface, (305 - 50) * 2, 285 * 2), ==, 0x0000ff);

  cairo_surface_destroy (surface);
}

/* Pixels of the name colour (pure magenta, antialiased over black or
 * over the red of a link) in the 5x5 pixels around (@x, @y). */
static gboolean
name_pixels_near (cairo_surface_t *surface,
                  int              x,
                  int              y)
{
  for (int j = y - 2; j <= y + 2; j++)
    for (int i = x - 2; i <= x + 2; i++)
      {
        guint32 p;

        if (i < 0 || j < 0 || i >= cairo_image_surface_get_width (surface) ||
            j >= cairo_image_surface_get_height (surface))
          continue;
        p = pixel_at (surface, i, j);
        if ((p & 0xff) > 60 && ((p >> 8) & 0xff) < 40 && ((p >> 16) & 0xff) > 60)
          return TRUE;
      }
  return FALSE;
}

/* A block's name lies on a side without ports, for every turn and flip:
 * no pixel of it falls where a link leaves or reaches a port (the first
 * units of the Gain's link and the stubs of its unconnected ports), and
 * it is drawn. */
static void
test_render_name_placement (Fixture       *f,
                            gconstpointer  data)
{
  QdCanvasRenderOptions options;
  QdCanvasStyle style;
  QdLink *link = qd_system_find_source (f->root, f->gain->id, 0);
  const double zoom = 2.0, ox = 0, oy = 0;

  qd_canvas_style_init_light (&style);
  style.background = (QdColor) { 0, 0, 0, 1 };
  style.block_fill = (QdColor) { 0, 0, 1, 1 };
  style.block_border = (QdColor) { 0, 0, 1, 1 };
  style.text = (QdColor) { 1, 1, 1, 1 };
  style.dim_text = (QdColor) { 1, 0, 1, 1 };
  style.link = (QdColor) { 1, 0, 0, 1 };
  style.port = (QdColor) { 0, 1, 0, 1 };
  qd_canvas_render_options_init (&options);
  options.style = &style;
  options.draw_grid = FALSE;
  options.zoom = zoom;
  options.origin_x = ox;
  options.origin_y = oy;
  /* The names alone: the parameters shown under a block are another
   * line of text, placed after the name. */
  options.show_params = FALSE;

  /* A longer name, wider than the block: the case that reached the
   * links in the first place. */
  g_assert_true (qd_document_rename_block (f->document, f->gain, "Feedback gain", NULL));
  for (int rotation = 0; rotation < 360; rotation += 90)
    for (int flip = 0; flip < 2; flip++)
      {
        g_autoptr(GArray) route = NULL;
        g_autoptr(GError) error = NULL;
        cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 900, 700);
        cairo_t *cr = cairo_create (surface);
        guint named = 0;
        QdPoint in, in_dir;
        double walked = 0;

        g_assert_true (qd_document_set_geometry (f->document, f->gain, 100, 100, 60, 40,
                                                 rotation, flip, &error));
        g_assert_no_error (error);
        qd_canvas_render (cr, f->root, &options, 900, 700);
        cairo_destroy (cr);
        cairo_surface_flush (surface);

        /* The name is drawn somewhere. */
        for (int y = 0; y < 700; y += 1)
          for (int x = 0; x < 900; x += 1)
            {
              guint32 p = pixel_at (surface, x, y);

              if ((p & 0xff) > 200 && ((p >> 8) & 0xff) < 40 && ((p >> 16) & 0xff) > 200)
                named++;
            }
        g_assert_cmpuint (named, >, 20);

        /* Along the link from the output port: from 4 units out (clear
         * of the port mark) to 24 units along its route. */
        route = qd_canvas_route_target (f->root, link, 0);
        g_assert_cmpuint (route->len, >=, 2);
        for (guint k = 0; k + 1 < route->len && walked < 24; k++)
          {
            QdPoint a = g_array_index (route, QdPoint, k);
            QdPoint b = g_array_index (route, QdPoint, k + 1);
            double length = hypot (b.x - a.x, b.y - a.y);

            for (double t = 0; t < length && walked + t < 24; t += 0.5)
              {
                double px = a.x + (b.x - a.x) * t / length;
                double py = a.y + (b.y - a.y) * t / length;

                if (walked + t < 4)
                  continue;
                if (name_pixels_near (surface, (px - ox) * zoom, (py - oy) * zoom))
                  g_error ("rotation %d, flip %d: the name crosses the link at (%g, %g)",
                           rotation, flip, px, py);
              }
            walked += length;
          }
        /* Where a link to the input would arrive. */
        qd_canvas_port_position (f->gain, QD_CANVAS_PORT_INPUT, 0, &in, &in_dir);
        for (double d = 4; d < 24; d += 0.5)
          if (name_pixels_near (surface, (in.x + in_dir.x * d - ox) * zoom,
                                (in.y + in_dir.y * d - oy) * zoom))
            g_error ("rotation %d, flip %d: the name covers the input's stub", rotation, flip);
        cairo_surface_destroy (surface);
      }
}

/* Blocks with problems are ringed in the error colour just outside
 * their border; other blocks are not. */
static void
test_render_highlight (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);
  QdCanvasRenderOptions options;
  QdCanvasStyle style;
  cairo_surface_t *surface;
  cairo_t *cr;
  /* Gain 2 is 300..360 x 250..290 on the canvas; at zoom 2 from x = 50
   * the ring (3 output pixels out, 2 wide) covers image rows 496..497
   * above it and columns 496..497 left of it. */
  const int top_x = (330 - 50) * 2, top_y = 496;
  const int left_x = 496, left_y = 255 * 2;
  /* The same place above Gain (100..160 x 100..140). */
  const int other_x = (130 - 50) * 2, other_y = 2 * 100 - 4;

  qd_canvas_style_init_light (&style);
  style.background = (QdColor) { 0, 0, 0, 1 };
  style.block_fill = (QdColor) { 0, 0, 1, 1 };
  style.link = (QdColor) { 1, 1, 0, 1 };
  style.error = (QdColor) { 1, 0, 0, 1 };

  qd_canvas_render_options_init (&options);
  options.style = &style;
  options.draw_grid = FALSE;
  options.zoom = 2.0;
  options.origin_x = 50;
  options.origin_y = 0;

  /* Nothing is ringed without a highlight. */
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 800, 700);
  cr = cairo_create (surface);
  qd_canvas_render (cr, f->root, &options, 800, 700);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  g_assert_cmphex (pixel_at (surface, top_x, top_y), ==, 0x000000);
  g_assert_cmphex (pixel_at (surface, left_x, left_y), ==, 0x000000);
  cairo_surface_destroy (surface);

  g_hash_table_add (ids, f->gain2->id);
  options.highlight = ids;
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 800, 700);
  cr = cairo_create (surface);
  qd_canvas_render (cr, f->root, &options, 800, 700);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  g_assert_cmphex (pixel_at (surface, top_x, top_y), ==, 0xff0000);
  g_assert_cmphex (pixel_at (surface, top_x, top_y + 1), ==, 0xff0000);
  g_assert_cmphex (pixel_at (surface, left_x, left_y), ==, 0xff0000);
  /* The ring stays outside: the body is still the fill colour. */
  g_assert_cmphex (pixel_at (surface, (305 - 50) * 2, 285 * 2), ==, 0x0000ff);
  /* Gain is not in the set. */
  g_assert_cmphex (pixel_at (surface, other_x, other_y), ==, 0x000000);
  cairo_surface_destroy (surface);
}

/* Blocks show their parameters: the texts the types give, and pixels
 * drawn where they go (under the block, beside a Weighted Sum's inputs)
 * only when the option is on. */
static int
count_changed (cairo_surface_t *a,
               cairo_surface_t *b,
               int              x0,
               int              y0,
               int              x1,
               int              y1)
{
  int n = 0;

  for (int y = y0; y < y1; y++)
    for (int x = x0; x < x1; x++)
      n += pixel_at (a, x, y) != pixel_at (b, x, y);
  return n;
}

static cairo_surface_t *
render_params (Fixture  *f,
               gboolean  show)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 800, 700);
  cairo_t *cr = cairo_create (surface);
  QdCanvasRenderOptions options;

  qd_canvas_render_options_init (&options);
  g_assert_true (options.show_params);
  options.show_params = show;
  options.draw_grid = FALSE;
  qd_canvas_render (cr, f->root, &options, 800, 700);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

static void
test_render_params (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  QdBlock *wsum = add (f, "wsum", "Sum", 500, 100);
  g_auto (GStrv) labels = NULL;
  g_autofree char *gain_text = NULL, *method_text = NULL, *wsum_text = NULL;
  cairo_surface_t *on, *off;

  g_assert_true (qd_document_set_param (f->document, f->gain, "k", "2.5", &error));
  g_assert_true (qd_document_set_param (f->document, wsum, "n", "3", &error));
  g_assert_true (qd_document_set_param (f->document, wsum, "weights", "1, -1, 0.5", &error));
  g_assert_no_error (error);

  gain_text = qd_block_describe_params (f->gain, NULL);
  g_assert_cmpstr (gain_text, ==, "k = 2.5");
  wsum_text = qd_block_describe_params (wsum, &labels);
  g_assert_null (wsum_text);
  g_assert_nonnull (labels);
  g_assert_cmpuint (g_strv_length (labels), ==, 3);
  g_assert_cmpstr (labels[0], ==, "+");
  g_assert_cmpstr (labels[1], ==, "−");
  g_assert_cmpstr (labels[2], ==, "0.5");
  /* An Integrator left to the model's method says so; a chosen one is
   * named. */
  method_text = qd_block_describe_params (f->integrator, NULL);
  g_assert_cmpstr (method_text, ==, _("model's method"));
  g_clear_pointer (&method_text, g_free);
  /* With the model's settings, it names the model's method. */
  {
    QdSettings settings;

    qd_document_init_settings (&settings);
    g_free (settings.method);
    settings.method = g_strdup ("QSS3");
    method_text = qd_block_describe_params_with (f->integrator, &settings, NULL);
    g_assert_cmpstr (method_text, ==, "QSS3 (model)");
    g_clear_pointer (&method_text, g_free);
    g_assert_true (qd_document_set_settings (f->document, &settings, &error));
    qd_settings_clear (&settings);
    method_text = qd_block_describe_params_with (f->integrator,
                                                 qd_document_get_settings (f->document), NULL);
    g_assert_cmpstr (method_text, ==, "QSS3 (model)");
    g_clear_pointer (&method_text, g_free);
  }
  g_assert_true (qd_document_set_param (f->document, f->integrator, "method", "QSS2", &error));
  method_text = qd_block_describe_params (f->integrator, NULL);
  g_assert_cmpstr (method_text, ==, "QSS2");
  g_clear_pointer (&method_text, g_free);
  /* A method of its own is named as it is, whatever the model's. */
  method_text = qd_block_describe_params_with (f->integrator,
                                               qd_document_get_settings (f->document), NULL);
  g_assert_cmpstr (method_text, ==, "QSS2");
  /* A Constant has nothing to show. */
  g_assert_null (qd_block_describe_params (f->constant, NULL));

  on = render_params (f, TRUE);
  off = render_params (f, FALSE);
  /* Under Gain (100..160 x 100..140), below its name. */
  g_assert_cmpint (count_changed (on, off, 80, 154, 180, 175), >, 20);
  /* Under the Integrator (300..360). */
  g_assert_cmpint (count_changed (on, off, 280, 154, 380, 175), >, 20);
  /* Inside the Weighted Sum's left edge, by its inputs. */
  g_assert_cmpint (count_changed (on, off, 500, 100, 520, 140), >, 10);
  /* The Constant shows nothing more. */
  g_assert_cmpint (count_changed (on, off, 80, 254, 180, 330), ==, 0);
  cairo_surface_destroy (on);
  cairo_surface_destroy (off);
}

/* Notes: drawn where they are when the options carry them, and found
 * under the pointer (the topmost first). */
static void
test_render_notes (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_note_free);
  cairo_surface_t *with, *without;
  cairo_t *cr;
  QdCanvasRenderOptions options;
  QdRect r;

  g_ptr_array_add (notes, qd_note_new (500, 400, "A note\non two lines"));
  g_ptr_array_add (notes, qd_note_new (510, 410, "on top"));
  r = qd_canvas_note_rect (g_ptr_array_index (notes, 0));
  g_assert_cmpfloat (r.x, ==, 500);
  g_assert_cmpfloat (r.width, >, 40);
  /* Two lines are taller than one. */
  g_assert_cmpfloat (r.height, >, qd_canvas_note_rect (g_ptr_array_index (notes, 1)).height);
  g_assert_cmpint (qd_canvas_note_at (notes, 505, 405), ==, 0);
  g_assert_cmpint (qd_canvas_note_at (notes, 515, 415), ==, 1);
  g_assert_cmpint (qd_canvas_note_at (notes, 490, 405), ==, -1);
  g_assert_cmpint (qd_canvas_note_at (NULL, 505, 405), ==, -1);

  without = render_params (f, TRUE);
  with = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 800, 700);
  cr = cairo_create (with);
  qd_canvas_render_options_init (&options);
  options.draw_grid = FALSE;
  options.notes = notes;
  qd_canvas_render (cr, f->root, &options, 800, 700);
  cairo_destroy (cr);
  cairo_surface_flush (with);
  g_assert_cmpint (count_changed (with, without, 500, 400, 560, 440), >, 500);
  /* Nothing else changes. */
  g_assert_cmpint (count_changed (with, without, 0, 0, 480, 380), ==, 0);
  cairo_surface_destroy (with);
  cairo_surface_destroy (without);
}

/* Dragging a note: it follows the pointer snapped to the grid, and the
 * whole drag is one undo step; a press without motion changes nothing;
 * a press beside every note drags none. */
static void
test_note_drag (Fixture       *f,
                gconstpointer  data)
{
  GPtrArray *notes = qd_document_get_notes (f->document);
  QdNoteDrag drag;
  const QdNote *note;
  guint index = qd_document_add_note (f->document, 500, 400, "Look here");

  g_assert_false (qd_canvas_notes_drag_begin (&drag, f->document, notes, 300, 300));
  g_assert_null (drag.document);

  g_assert_true (qd_canvas_notes_drag_begin (&drag, f->document, notes, 505, 405));
  qd_canvas_notes_drag_end (&drag);
  g_assert_cmpstr (qd_document_get_undo_label (f->document), ==, "Add Note");

  g_assert_true (qd_canvas_notes_drag_begin (&drag, f->document, notes, 505, 405));
  qd_canvas_notes_drag_update (&drag, 540, 433);
  qd_canvas_notes_drag_update (&drag, 600, 467);
  qd_canvas_notes_drag_end (&drag);
  note = g_ptr_array_index (notes, index);
  /* 500 + 95 and 400 + 62, each to the nearest grid line. */
  g_assert_cmpfloat (note->x, ==, qd_canvas_snap (595));
  g_assert_cmpfloat (note->y, ==, qd_canvas_snap (462));
  g_assert_cmpfloat (fmod (note->x, 10), ==, 0);
  g_assert_cmpstr (qd_document_get_undo_label (f->document), ==, "Move Note");
  g_assert_true (qd_document_undo (f->document));
  note = g_ptr_array_index (notes, index);
  g_assert_cmpfloat (note->x, ==, 500);
  g_assert_cmpfloat (note->y, ==, 400);
  g_assert_cmpstr (qd_document_get_undo_label (f->document), ==, "Add Note");
}

/* The widget and its window */

static void
test_widget_view (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  GtkWidget *window = gtk_window_new ();
  GtkWidget *canvas = qd_canvas_new ();
  double cx, cy, cx2, cy2;

  g_object_ref_sink (canvas);
  gtk_window_set_child (GTK_WINDOW (window), canvas);
  qd_canvas_set_document (QD_CANVAS (canvas), document);
  g_assert_true (qd_canvas_get_system (QD_CANVAS (canvas)) == qd_document_get_root (document));

  /* Zooming keeps the canvas point under the anchor in place. */
  qd_canvas_widget_to_canvas (QD_CANVAS (canvas), 123, 45, &cx, &cy);
  qd_canvas_set_zoom (QD_CANVAS (canvas), 2.5, 123, 45);
  g_assert_cmpfloat (qd_canvas_get_zoom (QD_CANVAS (canvas)), ==, 2.5);
  qd_canvas_widget_to_canvas (QD_CANVAS (canvas), 123, 45, &cx2, &cy2);
  g_assert_cmpfloat_with_epsilon (cx, cx2, 1e-9);
  g_assert_cmpfloat_with_epsilon (cy, cy2, 1e-9);
  qd_canvas_set_zoom (QD_CANVAS (canvas), 100, 0, 0);
  g_assert_cmpfloat (qd_canvas_get_zoom (QD_CANVAS (canvas)), ==, QD_CANVAS_ZOOM_MAX);

  /* Actions follow the selection. */
  g_assert_false (gtk_widget_activate_action (canvas, "canvas.bogus", NULL));
  g_assert_true (gtk_widget_activate_action (canvas, "canvas.zoom-100", NULL));
  g_assert_cmpfloat (qd_canvas_get_zoom (QD_CANVAS (canvas)), ==, 1.0);

  /* Revealing a block inside a subsystem opens it and selects the block. */
  {
    g_autoptr(GError) error = NULL;
    QdSystem *root = qd_document_get_root (document);
    QdBlock *plant = qd_document_add_block (document, root, QD_TYPE_SUBSYSTEM, "Plant", 0, 0, &error);
    QdBlock *inner = qd_document_add_block (document, plant->inner, "gain", NULL, 900, 900, &error);

    g_assert_no_error (error);
    qd_canvas_reveal_block (QD_CANVAS (canvas), inner);
    g_assert_true (qd_canvas_get_system (QD_CANVAS (canvas)) == plant->inner);
    g_assert_true (qd_canvas_controller_is_selected (qd_canvas_get_controller (QD_CANVAS (canvas)),
                                                     inner->id));
    g_assert_true (gtk_widget_activate_action (canvas, "canvas.go-up", NULL));
    g_assert_true (qd_canvas_get_system (QD_CANVAS (canvas)) == root);
  }

  gtk_window_destroy (GTK_WINDOW (window));
  g_object_unref (canvas);
}

static void
allocate (GtkWidget *widget,
          int        width,
          int        height)
{
  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, NULL, NULL, NULL, NULL);
  gtk_widget_measure (widget, GTK_ORIENTATION_VERTICAL, -1, NULL, NULL, NULL, NULL);
  gtk_widget_size_allocate (widget, &(GtkAllocation) { 0, 0, width, height }, -1);
}

/* The canvas point at the middle of the view. */
static void
view_centre (QdCanvas *canvas,
             double   *cx,
             double   *cy)
{
  qd_canvas_widget_to_canvas (canvas, gtk_widget_get_width (GTK_WIDGET (canvas)) / 2.0,
                              gtk_widget_get_height (GTK_WIDGET (canvas)) / 2.0, cx, cy);
}

/* A fitted view follows the canvas's size, as a document viewer's
 * "fit page" does, until the user zooms or pans; fitting again brings
 * that back. */
static void
test_widget_fit_on_resize (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GError) error = NULL;
  QdSystem *root = qd_document_get_root (document);
  GtkWidget *window = gtk_window_new ();
  GtkWidget *widget = qd_canvas_new ();
  QdCanvas *canvas = QD_CANVAS (widget);
  double cx, cy, zoom_small, zoom_large;

  /* Blocks from (0, 0) to (2060, 1040 + the name below): too large for
   * any of the sizes below at 100 %. */
  qd_document_add_block (document, root, "gain", "A", 0, 0, &error);
  qd_document_add_block (document, root, "gain", "B", 2000, 1000, &error);
  g_assert_no_error (error);
  gtk_window_set_child (GTK_WINDOW (window), widget);
  qd_canvas_set_document (canvas, document);

  allocate (widget, 400, 300);
  zoom_small = qd_canvas_get_zoom (canvas);
  g_assert_cmpfloat (zoom_small, <, 0.2);
  view_centre (canvas, &cx, &cy);
  g_assert_cmpfloat_with_epsilon (cx, 1030, 1e-6);

  /* Larger: fitted again, larger, still centred. */
  allocate (widget, 800, 600);
  zoom_large = qd_canvas_get_zoom (canvas);
  g_assert_cmpfloat_with_epsilon (zoom_large, (800.0 - 64) / (2060 + 24), 1e-9);
  g_assert_cmpfloat (zoom_large, >, 1.9 * zoom_small);
  view_centre (canvas, &cx, &cy);
  g_assert_cmpfloat_with_epsilon (cx, 1030, 1e-6);

  /* The user zooms: a resize leaves the view alone. */
  qd_canvas_set_zoom (canvas, 0.5, 10, 10);
  allocate (widget, 500, 400);
  g_assert_cmpfloat (qd_canvas_get_zoom (canvas), ==, 0.5);

  /* Fit again: resizes fit again. */
  g_assert_true (gtk_widget_activate_action (widget, "canvas.zoom-fit", NULL));
  allocate (widget, 800, 600);
  g_assert_cmpfloat_with_epsilon (qd_canvas_get_zoom (canvas), zoom_large, 1e-9);

  /* Scrolling pans, which the user did too. */
  {
    GtkEventController *scroll = NULL;
    gboolean handled = FALSE;
    g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);

    for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
      {
        g_autoptr(GObject) item = g_list_model_get_item (controllers, i);

        if (GTK_IS_EVENT_CONTROLLER_SCROLL (item))
          scroll = GTK_EVENT_CONTROLLER (item);
      }
    g_assert_nonnull (scroll);
    g_signal_emit_by_name (scroll, "scroll", 0.0, 3.0, &handled);
    g_assert_true (handled);
    allocate (widget, 400, 300);
    g_assert_cmpfloat_with_epsilon (qd_canvas_get_zoom (canvas), zoom_large, 1e-9);
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

static GArray *
route_from_controller (const QdSystem *system,
                       const QdLink   *link,
                       guint           target,
                       gpointer        user_data)
{
  return qd_canvas_controller_get_route (user_data, link, target);
}

/* What the canvas widget draws, through GTK's own drawing of its nodes. */
static cairo_surface_t *
draw_widget (GtkWidget *widget)
{
  int width = gtk_widget_get_width (widget), height = gtk_widget_get_height (widget);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  GtkSnapshot *snapshot = gtk_snapshot_new ();
  g_autoptr(GskRenderNode) node = NULL;
  cairo_t *cr;

  qd_test_wait_for_paint (widget);
  /* The widget's own snapshot, as GTK calls it for a frame. */
  GTK_WIDGET_GET_CLASS (widget)->snapshot (widget, snapshot);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  cr = cairo_create (surface);
  gsk_render_node_draw (node, cr);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* What the renderer draws for the canvas's view, straight. */
static cairo_surface_t *
draw_view (QdCanvas *canvas)
{
  int width = gtk_widget_get_width (GTK_WIDGET (canvas));
  int height = gtk_widget_get_height (GTK_WIDGET (canvas));
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  QdCanvasRenderOptions options;
  QdCanvasStyle style;
  cairo_t *cr;

  qd_canvas_style_init_light (&style);
  qd_canvas_render_options_init (&options);
  options.style = &style;
  options.zoom = qd_canvas_get_zoom (canvas);
  qd_canvas_widget_to_canvas (canvas, 0, 0, &options.origin_x, &options.origin_y);
  options.selection = qd_canvas_controller_get_selection (qd_canvas_get_controller (canvas));
  options.route_func = route_from_controller;
  options.route_data = qd_canvas_get_controller (canvas);
  /* As the widget draws: Integrators left to the model name its method. */
  options.settings = qd_document_get_settings (qd_canvas_get_document (canvas));
  cr = cairo_create (surface);
  qd_canvas_render (cr, qd_canvas_get_system (canvas), &options, width, height);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  return surface;
}

/* How many pixels of the widget's drawing differ visibly from the
 * renderer's drawing of the same view. */
static guint
count_wrong_pixels (QdCanvas   *canvas,
                    const char *what)
{
  cairo_surface_t *shown = draw_widget (GTK_WIDGET (canvas));
  cairo_surface_t *expected = draw_view (canvas);
  int width = cairo_image_surface_get_width (shown);
  int height = cairo_image_surface_get_height (shown);
  guint wrong = 0;

  for (int y = 0; y < height; y++)
    for (int x = 0; x < width; x++)
      {
        guint32 a = pixel_at (shown, x, y), b = pixel_at (expected, x, y);
        int worst = 0;

        for (int shift = 0; shift < 24; shift += 8)
          worst = MAX (worst, abs ((int) ((a >> shift) & 0xff) - (int) ((b >> shift) & 0xff)));
        if (worst > 48)
          wrong++;
      }
  g_test_message ("%s: %u of %d pixels differ", what, wrong, width * height);
  if (g_getenv ("QD_TEST_CANVAS_PNG") != NULL)
    {
      g_autofree char *a = g_strdup_printf ("%s/%s-shown.png", g_getenv ("QD_TEST_CANVAS_PNG"), what);
      g_autofree char *b = g_strdup_printf ("%s/%s-expected.png", g_getenv ("QD_TEST_CANVAS_PNG"), what);

      cairo_surface_write_to_png (shown, a);
      cairo_surface_write_to_png (expected, b);
    }
  cairo_surface_destroy (shown);
  cairo_surface_destroy (expected);
  return wrong;
}

static void
pan_pixels (QdCanvas *canvas,
            double    dx,
            double    dy)
{
  double zoom = qd_canvas_get_zoom (canvas);

  /* Zooming in by two about one point and back about another moves the
   * view by half the distance between them, and does nothing else. */
  qd_canvas_set_zoom (canvas, zoom * 2, 200 + dx, 150 + dy);
  qd_canvas_set_zoom (canvas, zoom, 200 - dx, 150 - dy);
}

/* Waits until the view, standing still, has been drawn sharp again. */
static void
wait_settled (GtkWidget *widget)
{
  while (!qd_canvas_is_settled (QD_CANVAS (widget)))
    g_main_context_iteration (NULL, TRUE);
  qd_test_wait_for_paint (widget);
}

/* The @n-th block wholly in the view. */
static QdBlock *
block_in_view (QdCanvas *canvas,
               guint     n)
{
  QdSystem *system = qd_canvas_get_system (canvas);

  for (guint i = 0; i < system->blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (system->blocks, i);
      double x0, y0, x1, y1;

      qd_canvas_canvas_to_widget (canvas, block->x, block->y, &x0, &y0);
      qd_canvas_canvas_to_widget (canvas, block->x + block->width,
                                  block->y + block->height, &x1, &y1);
      if (x0 >= 0 && y0 >= 0 && x1 <= gtk_widget_get_width (GTK_WIDGET (canvas)) &&
          y1 <= gtk_widget_get_height (GTK_WIDGET (canvas)) && n-- == 0)
        return block;
    }
  g_assert_not_reached ();
  return NULL;
}

/* A 400 x 300 window showing @document at 100 % on a new canvas, drawn
 * once; returns the canvas widget and sets *@window. */
static GtkWidget *
present_canvas (QdDocument  *document,
                GtkWidget  **window)
{
  GtkWidget *widget = qd_canvas_new ();

  *window = gtk_window_new ();
  gtk_window_set_default_size (GTK_WINDOW (*window), 400, 300);
  gtk_window_set_child (GTK_WINDOW (*window), widget);
  gtk_window_present (GTK_WINDOW (*window));
  qd_canvas_set_document (QD_CANVAS (widget), document);
  qd_test_wait_for_paint (widget);
  qd_canvas_zoom_reset (QD_CANVAS (widget));
  return widget;
}

/* How many pixels may differ from a fresh drawing of the view. A few
 * glyph edges may (text placed a fraction of a pixel apart when the
 * image starts at another canvas point); a misplaced or missing block
 * makes thousands, a missing strip of the image as many, a missing link
 * hundreds. */
static guint
wrong_pixels_allowed (GtkWidget *widget)
{
  return gtk_widget_get_width (widget) * gtk_widget_get_height (widget) / 400;
}

/* The canvas keeps the drawn diagram in an image and moves it while the
 * view pans: what it shows must be what drawing the view afresh gives,
 * after pans within and beyond the image, a zoom once it has settled,
 * an edit and a selection. */
static void
test_widget_cached_drawing (void)
{
  g_autoptr(QdDocument) document = routing_diagram ();
  GtkWidget *window;
  GtkWidget *widget = present_canvas (document, &window);
  QdCanvas *canvas = QD_CANVAS (widget);
  QdCanvasController *controller = qd_canvas_get_controller (canvas);
  guint allowed = wrong_pixels_allowed (widget), scaled;
  QdBlock *block;

  g_assert_cmpuint (count_wrong_pixels (canvas, "at 100 %"), <=, allowed);

  pan_pixels (canvas, 5, -3);
  g_assert_cmpuint (count_wrong_pixels (canvas, "panned within the image"), <=, allowed);
  pan_pixels (canvas, 37, -21);
  g_assert_cmpuint (count_wrong_pixels (canvas, "panned out of it"), <=, allowed);
  /* Frame by frame, the image scrolling each time. */
  for (guint i = 0; i < 12; i++)
    {
      pan_pixels (canvas, i < 6 ? 11 : -7, i < 6 ? 6 : -13);
      qd_test_wait_for_paint (widget);
    }
  g_assert_cmpuint (count_wrong_pixels (canvas, "panned in steps"), <=, allowed);
  pan_pixels (canvas, 300, 200);
  g_assert_cmpuint (count_wrong_pixels (canvas, "panned far"), <=, allowed);

  /* Zoomed, the image is first scaled (blurred), then drawn again once
   * the view has stood still. */
  qd_canvas_set_zoom (canvas, 1.3, 100, 100);
  scaled = count_wrong_pixels (canvas, "zoomed, scaled");
  wait_settled (widget);
  g_assert_cmpuint (count_wrong_pixels (canvas, "zoomed, settled"), <=, allowed);
  g_assert_cmpuint (scaled, >, 4 * allowed);

  /* A drag, frame by frame, and its release. */
  block = block_in_view (canvas, 0);
  {
    double x = block->x + block->width / 2, y = block->y + block->height / 4;
    double x0 = block->x;

    qd_canvas_controller_press (controller, x, y, QD_CANVAS_MODIFIER_NONE);
    for (guint i = 1; i <= 8; i++)
      {
        qd_canvas_controller_drag (controller, x + 7 * i, y + 4 * i);
        qd_test_wait_for_paint (widget);
      }
    g_assert_cmpint (qd_canvas_controller_get_mode (controller), ==, QD_CANVAS_MODE_MOVE);
    g_assert_cmpfloat (block->x, ==, x0 + 60);
    g_assert_cmpuint (count_wrong_pixels (canvas, "dragging"), <=, allowed);
    /* Back where it was. */
    qd_canvas_controller_drag (controller, x, y);
    qd_canvas_controller_release (controller, x, y);
    g_assert_cmpfloat (block->x, ==, x0);
    g_assert_cmpuint (count_wrong_pixels (canvas, "dragged"), <=, allowed);
  }

  /* Edits and selections show at once (the image is drawn again where
   * they changed it). */
  block = block_in_view (canvas, 0);
  qd_document_move_block (document, block, block->x + 40, block->y + 30);
  g_assert_cmpuint (count_wrong_pixels (canvas, "edited"), <=, allowed);
  qd_canvas_controller_select (controller, block->id, FALSE);
  g_assert_cmpuint (count_wrong_pixels (canvas, "selected"), <=, allowed);
  {
    QdSystem *root = qd_document_get_root (document);
    g_autofree char *key = NULL;

    for (guint i = 0; i < root->links->len && key == NULL; i++)
      {
        QdLink *link = g_ptr_array_index (root->links, i);

        if (g_str_equal (link->src.block, block_in_view (canvas, 2)->id))
          key = qd_canvas_link_key (link, 0);
      }
    g_assert_nonnull (key);
    qd_canvas_controller_select (controller, key, TRUE);
  }
  g_assert_cmpuint (count_wrong_pixels (canvas, "link selected"), <=, allowed);
  qd_canvas_controller_rotate_selection (controller);
  g_assert_cmpuint (count_wrong_pixels (canvas, "rotated"), <=, allowed);
  {
    g_autoptr(GError) error = NULL;
    QdBlock *other = block_in_view (canvas, 1);

    qd_document_rename_block (document, other, "A much longer name than before", &error);
    g_assert_no_error (error);
    g_assert_cmpuint (count_wrong_pixels (canvas, "renamed"), <=, allowed);
    qd_document_remove_block (document, block_in_view (canvas, 2));
    g_assert_cmpuint (count_wrong_pixels (canvas, "removed"), <=, allowed);
    g_assert_true (qd_document_undo (document));
    g_assert_cmpuint (count_wrong_pixels (canvas, "undone"), <=, allowed);
    qd_canvas_controller_clear_selection (controller);
    g_assert_cmpuint (count_wrong_pixels (canvas, "unselected"), <=, allowed);
  }

  gtk_window_destroy (GTK_WINDOW (window));
}

/* Pixels the widget shows with nothing drawn (fully transparent): a part
 * of its cached image not drawn yet. */
static guint
count_empty_pixels (GtkWidget *widget)
{
  cairo_surface_t *shown = draw_widget (widget);
  unsigned char *data = cairo_image_surface_get_data (shown);
  int stride = cairo_image_surface_get_stride (shown);
  guint empty = 0;

  for (int y = 0; y < cairo_image_surface_get_height (shown); y++)
    for (int x = 0; x < cairo_image_surface_get_width (shown); x++)
      if ((*(guint32 *) (data + y * stride + x * 4) >> 24) == 0)
        empty++;
  cairo_surface_destroy (shown);
  return empty;
}

/* While the view zooms, a new image is started from the old one scaled
 * and drawn only where the view needs it, its margin later in idle
 * time: every frame must still show the whole view drawn, zooming out
 * past the image's edges, back in, and panning before the margin is
 * done; and once the view stands still, exactly the diagram. */
static void
test_widget_zoom_drawing (void)
{
  g_autoptr(QdDocument) document = routing_diagram ();
  GtkWidget *window;
  GtkWidget *widget = present_canvas (document, &window);
  QdCanvas *canvas = QD_CANVAS (widget);
  guint allowed = wrong_pixels_allowed (widget);
  g_assert_cmpuint (count_empty_pixels (widget), ==, 0);

  for (guint i = 0; i < 16; i++)
    {
      qd_canvas_set_zoom (canvas, qd_canvas_get_zoom (canvas) / 1.12, 150, 120);
      g_assert_cmpuint (count_empty_pixels (widget), ==, 0);
    }
  /* Panning at once, the margin perhaps not drawn yet: within the
   * image, and beyond the part drawn (the image scrolls). */
  for (guint i = 0; i < 4; i++)
    {
      pan_pixels (canvas, 23, -17);
      g_assert_cmpuint (count_empty_pixels (widget), ==, 0);
    }
  for (guint i = 0; i < 4; i++)
    {
      qd_canvas_set_zoom (canvas, qd_canvas_get_zoom (canvas) / 1.12, 150, 120);
      pan_pixels (canvas, i % 2 ? -130 : 150, i % 2 ? 90 : -110);
      g_assert_cmpuint (count_empty_pixels (widget), ==, 0);
    }
  for (guint i = 0; i < 24; i++)
    {
      qd_canvas_set_zoom (canvas, qd_canvas_get_zoom (canvas) * 1.12, 250, 170);
      g_assert_cmpuint (count_empty_pixels (widget), ==, 0);
    }
  wait_settled (widget);
  g_assert_cmpuint (count_wrong_pixels (canvas, "zoomed in steps, settled"), <=, allowed);
  pan_pixels (canvas, 41, 29);
  g_assert_cmpuint (count_wrong_pixels (canvas, "zoomed, then panned"), <=, allowed);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The tooltip names the block under the pointer with its documentation,
 * wrapped so that a long text stays on the screen; none shows while the
 * context menu is open, where it would cover the menu's items. */
static void
test_widget_tooltip (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GError) error = NULL;
  GtkWidget *window, *widget;
  QdCanvas *canvas;
  QdCanvasController *controller;
  const QdBlockType *type;
  GtkWidget *label;
  QdBlock *block;
  double x, y, ex, ey;

  block = qd_document_add_block (document, qd_document_get_root (document), "integrator",
                                 "Integrator", 100, 100, &error);
  g_assert_no_error (error);
  type = qd_block_get_type_info (block);
  g_assert_nonnull (type->doc);
  widget = present_canvas (document, &window);
  canvas = QD_CANVAS (widget);
  controller = qd_canvas_get_controller (canvas);
  qd_canvas_canvas_to_widget (canvas, block->x + block->width / 2,
                              block->y + block->height / 2, &x, &y);
  qd_canvas_canvas_to_widget (canvas, block->x - 100, block->y - 50, &ex, &ey);

  label = qd_canvas_create_tooltip (canvas, x, y);
  g_assert_nonnull (label);
  g_object_ref_sink (label);
  g_assert_true (GTK_IS_LABEL (label));
  g_assert_true (strstr (gtk_label_get_text (GTK_LABEL (label)), "Integrator") != NULL);
  g_assert_true (strstr (gtk_label_get_text (GTK_LABEL (label)), _(type->doc)) != NULL);
  /* Wrapped at a readable width: the documentation is longer than that. */
  g_assert_true (gtk_label_get_wrap (GTK_LABEL (label)));
  g_assert_cmpint (gtk_label_get_max_width_chars (GTK_LABEL (label)), >=, 40);
  g_assert_cmpint (gtk_label_get_max_width_chars (GTK_LABEL (label)), <=, 80);
  g_assert_cmpint (g_utf8_strlen (_(type->doc), -1), >,
                   gtk_label_get_max_width_chars (GTK_LABEL (label)));
  g_object_unref (label);
  /* Nothing over empty space. */
  g_assert_null (qd_canvas_create_tooltip (canvas, ex, ey));

  /* The context menu open (from the keyboard, on the selected block):
   * no tooltip; closed again: the tooltip is back. */
  qd_canvas_controller_select (controller, block->id, FALSE);
  g_assert_true (gtk_widget_activate_action (widget, "canvas.context-menu", NULL));
  g_assert_null (qd_canvas_create_tooltip (canvas, x, y));
  /* It acts on the selected block. */
  g_assert_true (qd_canvas_controller_is_selected (controller, block->id));
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_POPOVER (child))
      gtk_popover_popdown (GTK_POPOVER (child));
  label = qd_canvas_create_tooltip (canvas, x, y);
  g_assert_nonnull (label);
  g_object_ref_sink (label);
  g_object_unref (label);

  gtk_window_destroy (GTK_WINDOW (window));
}

/* The model button of the open context menu whose text is @text (the
 * menu's label without its mnemonic's underscore). */
static GtkWidget *
find_menu_item (GtkWidget  *widget,
                const char *text)
{
  /* Not in a hidden page of the menu's stack of submenus. */
  if (!gtk_widget_get_visible (widget) || !gtk_widget_get_child_visible (widget))
    return NULL;
  if (g_str_equal (G_OBJECT_TYPE_NAME (widget), "GtkModelButton"))
    {
      g_autofree char *label = NULL;

      g_object_get (widget, "text", &label, NULL);

      if (g_strcmp0 (label, text) == 0)
        return widget;
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_menu_item (child, text);

      if (found != NULL)
        return found;
    }
  return NULL;
}

static void
flush_events (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

/* An item chosen in the context menu, in a submenu (Align) or not
 * (Rotate), leaves the keyboard on the canvas: Ctrl+Z and the other
 * shortcuts work at once. */
static void
test_widget_menu_focus (void)
{
  static const struct
  {
    const char *item;
    const char *subitem;
    const char *undo;   /* the undo step it leaves */
  } chosen[] = {
    { N_("_Align"), N_("_Left"), N_("Align") },
    { N_("_Rotate"), NULL, N_("Rotate") },
    { N_("_Align"), N_("_Bottom"), N_("Align") },
    { N_("Select _All"), NULL, N_("Align") },
  };
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GError) error = NULL;
  QdSystem *root = qd_document_get_root (document);
  GtkWidget *window, *widget, *menu = NULL;
  QdBlock *gain, *integrator;

  gain = qd_document_add_block (document, root, "gain", "Gain", 40, 40, &error);
  g_assert_no_error (error);
  integrator = qd_document_add_block (document, root, "integrator", "Integrator",
                                      160, 100, &error);
  g_assert_no_error (error);
  widget = present_canvas (document, &window);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (GTK_IS_POPOVER (child))
      menu = child;
  g_assert_nonnull (menu);

  for (guint i = 0; i < G_N_ELEMENTS (chosen); i++)
    {
      qd_canvas_controller_select_all (qd_canvas_get_controller (QD_CANVAS (widget)));
      gtk_widget_grab_focus (widget);
      g_assert_true (gtk_widget_activate_action (widget, "canvas.context-menu", NULL));
      flush_events ();
      g_assert_true (gtk_widget_get_visible (menu));
      for (guint k = 0; k < 2; k++)
        {
          const char *label = k == 0 ? chosen[i].item : chosen[i].subitem;
          g_autoptr(GString) text = NULL;
          GtkWidget *item;

          if (label == NULL)
            break;
          text = g_string_new (_(label));
          g_string_replace (text, "_", "", 0);
          item = find_menu_item (menu, text->str);
          g_assert_nonnull (item);
          g_signal_emit_by_name (item, "clicked");
          flush_events ();
        }
      g_assert_false (gtk_widget_get_visible (menu));
      g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == widget);
      g_assert_cmpstr (qd_document_get_undo_label (document), ==, _(chosen[i].undo));
    }
  /* The items did their work: the two blocks share a left and a bottom
   * edge. */
  g_assert_cmpfloat (gain->x, ==, integrator->x);
  g_assert_cmpfloat (gain->y + gain->height, ==, integrator->y + integrator->height);

  /* The window closed with the menu open: it goes with it. */
  g_assert_true (gtk_widget_activate_action (widget, "canvas.context-menu", NULL));
  flush_events ();
  g_assert_true (gtk_widget_get_visible (menu));
  gtk_window_destroy (GTK_WINDOW (window));
  flush_events ();
}

static void
on_canvas_message (QdCanvas   *canvas,
                   const char *text,
                   char      **out)
{
  g_free (*out);
  *out = g_strdup (text);
}

/* Cut and Copy of a lone link through the canvas's actions, as Ctrl+X,
 * Ctrl+C and the context menu use them; Paste (which reads the
 * clipboard) joins the blocks again, or says why not. */
static void
test_widget_cut_paste_link (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GError) error = NULL;
  QdSystem *root = qd_document_get_root (document);
  g_autofree char *message = NULL;
  g_autofree char *key = NULL;
  GtkWidget *window, *widget;
  QdCanvasController *controller;
  QdBlock *gain, *integrator;
  QdLink *link;

  gain = qd_document_add_block (document, root, "gain", "Gain", 40, 40, &error);
  integrator = qd_document_add_block (document, root, "integrator", "Integrator",
                                      200, 40, &error);
  link = qd_document_connect (document, root, gain->id, 0, integrator->id, 0, &error);
  g_assert_no_error (error);
  widget = present_canvas (document, &window);
  controller = qd_canvas_get_controller (QD_CANVAS (widget));
  g_signal_connect (widget, "message", G_CALLBACK (on_canvas_message), &message);

  key = qd_canvas_link_key (link, 0);
  qd_canvas_controller_select (controller, key, FALSE);
  flush_events ();
  g_assert_true (gtk_widget_activate_action (widget, "canvas.copy", NULL));
  g_assert_true (gtk_widget_activate_action (widget, "canvas.cut", NULL));
  g_assert_cmpuint (root->links->len, ==, 0);

  /* Paste reads the clipboard: wait for the link or a message. */
  g_assert_true (gtk_widget_activate_action (widget, "canvas.paste", NULL));
  while (root->links->len == 0 && message == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_null (message);
  g_assert_nonnull (qd_system_find_driver (root, integrator->id, 0, NULL));

  /* Again: the input is taken now. */
  g_assert_true (gtk_widget_activate_action (widget, "canvas.paste", NULL));
  while (message == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_assert_nonnull (strstr (message, "nothing pasted"));
  g_assert_cmpuint (root->links->len, ==, 1);

  gtk_window_destroy (GTK_WINDOW (window));
}

static GtkWidget *
template_child (QdWindow   *window,
                const char *name)
{
  GObject *child = gtk_widget_get_template_child (GTK_WIDGET (window),
                                                  QD_TYPE_WINDOW, name);

  g_assert_nonnull (child);
  return GTK_WIDGET (child);
}

static void
test_window_canvas (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  QdSystem *root = qd_document_get_root (document);
  QdBlock *plant, *in, *out;
  QdWindow *window;
  QdCanvas *canvas;
  QdDocument *shown;
  GtkWidget *crumbs, *first;
  GtkListBox *palette;
  guint n_blocks;

  qd_document_set_title (document, "Two levels");
  plant = qd_document_add_block (document, root, QD_TYPE_SUBSYSTEM, "Plant", 100, 100, &error);
  in = qd_document_add_block (document, plant->inner, QD_TYPE_INPORT, "In", 0, 0, &error);
  out = qd_document_add_block (document, plant->inner, QD_TYPE_OUTPORT, "Out", 200, 0, &error);
  qd_document_connect (document, plant->inner, in->id, 0, out->id, 0, &error);
  g_assert_no_error (error);
  dir = g_dir_make_tmp ("qd-test-canvas-XXXXXX", &error);
  path = g_build_filename (dir, "two-levels.qdevs", NULL);
  qd_document_save (document, path, &error);
  g_assert_no_error (error);

  window = qd_window_new (GTK_APPLICATION (app));
  canvas = QD_CANVAS (template_child (window, "canvas"));
  g_assert_null (qd_canvas_get_document (canvas));
  file = g_file_new_for_path (path);
  g_assert_true (qd_window_open_file (window, file, &error));
  shown = qd_window_get_document (window);
  g_assert_true (qd_canvas_get_document (canvas) == shown);
  g_assert_true (qd_canvas_get_system (canvas) == qd_document_get_root (shown));

  /* Into the subsystem: the breadcrumb bar shows the way back. */
  crumbs = template_child (window, "breadcrumb_box");
  g_assert_false (gtk_widget_get_visible (crumbs));
  plant = qd_document_find_block_by_path (shown, "/Plant");
  g_assert_true (qd_canvas_controller_activate (qd_canvas_get_controller (canvas),
                                                plant->x + 5, plant->y + 5));
  g_assert_true (qd_canvas_get_system (canvas) == plant->inner);
  g_assert_true (gtk_widget_get_visible (crumbs));
  first = gtk_widget_get_first_child (crumbs);
  g_assert_true (GTK_IS_BUTTON (first));
  g_assert_cmpstr (gtk_button_get_label (GTK_BUTTON (first)), ==, "Two levels");
  g_signal_emit_by_name (first, "clicked");
  g_assert_true (qd_canvas_get_system (canvas) == qd_document_get_root (shown));

  /* A palette row activated (Enter) adds its block to the canvas; the
   * window's Undo takes it back. */
  palette = GTK_LIST_BOX (template_child (window, "palette_list"));
  n_blocks = qd_document_get_root (shown)->blocks->len;
  g_signal_emit_by_name (palette, "row-activated", gtk_list_box_get_row_at_index (palette, 0));
  g_assert_cmpuint (qd_document_get_root (shown)->blocks->len, ==, n_blocks + 1);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "undo"));
  g_action_group_activate_action (G_ACTION_GROUP (window), "undo", NULL);
  g_assert_cmpuint (qd_document_get_root (shown)->blocks->len, ==, n_blocks);
  g_assert_true (g_action_group_get_action_enabled (G_ACTION_GROUP (window), "redo"));

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_rmdir (dir);
}

/* Ctrl+Z (the window's Undo) with the button still down takes back the
 * drag, as Escape does, and nothing more: the branch being bent is not
 * undone from under it. */
static void
test_window_undo_during_gesture (void)
{
  g_autoptr(QdDocument) document = qd_document_new ();
  g_autoptr(GError) error = NULL;
  QdSystem *root = qd_document_get_root (document);
  g_autoptr(GArray) route = NULL;
  QdCanvasController *controller;
  QdBlock *gain, *integrator, *gain2;
  QdWindow *window;
  QdLink *link;
  QdPoint a, b, m;

  gain = qd_document_add_block (document, root, "gain", "Gain", 100, 100, &error);
  integrator = qd_document_add_block (document, root, "integrator", "Integrator",
                                      300, 100, &error);
  gain2 = qd_document_add_block (document, root, "gain", "Gain 2", 300, 250, &error);
  qd_document_connect (document, root, gain->id, 0, integrator->id, 0, &error);
  g_assert_no_error (error);
  window = qd_window_new (GTK_APPLICATION (app));
  qd_window_set_document (window, document, NULL);
  controller = qd_canvas_get_controller (QD_CANVAS (template_child (window, "canvas")));
  link = qd_document_connect (document, root, gain->id, 0, gain2->id, 0, &error);
  g_assert_no_error (error);
  route = qd_canvas_route_target (root, link, 1);
  a = g_array_index (route, QdPoint, route->len - 3);
  b = g_array_index (route, QdPoint, route->len - 2);
  m = (QdPoint) { (a.x + b.x) / 2, (a.y + b.y) / 2 };

  /* Pressed on the branch, not moved yet: Undo ends the press. */
  qd_canvas_controller_press (controller, m.x, m.y, 0);
  g_assert_cmpint (qd_canvas_controller_get_mode (controller), ==, QD_CANVAS_MODE_PRESSED);
  g_action_group_activate_action (G_ACTION_GROUP (window), "undo", NULL);
  g_assert_cmpint (qd_canvas_controller_get_mode (controller), ==, QD_CANVAS_MODE_IDLE);
  g_assert_cmpuint (link->targets->len, ==, 2);
  qd_canvas_controller_drag (controller, m.x + 30, m.y + 40);
  qd_canvas_controller_release (controller, m.x + 30, m.y + 40);
  g_assert_cmpuint (link->targets->len, ==, 2);

  /* Bending it: Undo takes the bend back, and the branch stays. */
  qd_canvas_controller_press (controller, m.x, m.y, 0);
  qd_canvas_controller_drag (controller, m.x + 30, m.y + 40);
  g_assert_cmpint (qd_canvas_controller_get_mode (controller), ==, QD_CANVAS_MODE_BEND);
  g_action_group_activate_action (G_ACTION_GROUP (window), "undo", NULL);
  g_assert_cmpuint (link->targets->len, ==, 2);
  g_assert_cmpuint (qd_link_target_n_points (g_ptr_array_index (link->targets, 1)), ==, 0);
  qd_canvas_controller_drag (controller, m.x + 60, m.y + 80);
  qd_canvas_controller_release (controller, m.x + 60, m.y + 80);
  g_assert_cmpuint (qd_link_target_n_points (g_ptr_array_index (link->targets, 1)), ==, 0);

  /* The next Undo, with the button up, undoes the branch. */
  g_action_group_activate_action (G_ACTION_GROUP (window), "undo", NULL);
  g_assert_null (qd_system_find_driver (root, gain2->id, 0, NULL));

  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int status;

  if (!qd_test_gtk_init (&argc, &argv, FALSE))
    return 0;

  app = qd_application_new (G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

#define ADD(path, func, linked) \
  g_test_add ("/canvas/" path, Fixture, GINT_TO_POINTER (linked), \
              fixture_setup, func, fixture_teardown)

  ADD ("geometry/ports", test_port_positions, FALSE);
  ADD ("geometry/hit", test_hit_testing, TRUE);
  ADD ("geometry/route", test_routing, TRUE);
  ADD ("geometry/junctions", test_junctions, TRUE);
  ADD ("controller/connect", test_connect, FALSE);
  ADD ("controller/connect-refused", test_connect_refused, TRUE);
  ADD ("controller/branch", test_branch, TRUE);
  ADD ("controller/bend", test_bend_drag, TRUE);
  ADD ("controller/rewire", test_rewire, TRUE);
  ADD ("controller/move", test_move_with_links, TRUE);
  ADD ("controller/click", test_click_selection, TRUE);
  ADD ("controller/context", test_context_selection, TRUE);
  ADD ("controller/add-size", test_add_block_size, TRUE);
  ADD ("controller/rubber-band", test_rubber_band, TRUE);
  ADD ("controller/copy-paste", test_copy_paste, TRUE);
  ADD ("controller/copy-paste-mask", test_copy_paste_mask, TRUE);
  ADD ("controller/copy-paste-link", test_copy_paste_link, TRUE);
  ADD ("controller/edit-during-gesture", test_edit_during_gesture, TRUE);
  ADD ("controller/group", test_group, TRUE);
  ADD ("controller/undo-each", test_undo_each, TRUE);
  ADD ("controller/geometry-edits", test_geometry_edits, TRUE);
  g_test_add_func ("/canvas/geometry/router", test_router_incremental);
  ADD ("render/pixels", test_render_pixels, TRUE);
  ADD ("render/vector-link", test_render_vector_link, TRUE);
  ADD ("render/highlight", test_render_highlight, TRUE);
  ADD ("render/params", test_render_params, FALSE);
  ADD ("render/notes", test_render_notes, FALSE);
  ADD ("notes/drag", test_note_drag, FALSE);
  ADD ("render/name-placement", test_render_name_placement, TRUE);
  g_test_add_func ("/canvas/widget/view", test_widget_view);
  g_test_add_func ("/canvas/widget/fit-on-resize", test_widget_fit_on_resize);
  g_test_add_func ("/canvas/widget/cached-drawing", test_widget_cached_drawing);
  g_test_add_func ("/canvas/widget/zoom-drawing", test_widget_zoom_drawing);
  g_test_add_func ("/canvas/widget/tooltip", test_widget_tooltip);
  g_test_add_func ("/canvas/widget/menu-focus", test_widget_menu_focus);
  g_test_add_func ("/canvas/widget/cut-paste-link", test_widget_cut_paste_link);
  g_test_add_func ("/canvas/window", test_window_canvas);
  g_test_add_func ("/canvas/window/undo-during-gesture", test_window_undo_during_gesture);

  status = g_test_run ();
  g_clear_object (&app);
  return status;
}

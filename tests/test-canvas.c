/* test-canvas.c: the diagram canvas: geometry, routing, drawing
 *
 * Geometry tests check port positions, hit testing and routes on a
 * small diagram. The incremental router is checked against a full
 * routing after random edits. Render tests draw into an image surface
 * with a style of pure colours and read pixels back. Editing with the
 * controller is tested in test-canvas-edit.c, the widget in
 * test-canvas-widget.c. Runs under a display (xvfb-run in CI); without
 * one the test is skipped.
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

/* The diagram of every test: see qd-test-gtk-util.h. */
typedef QdTestCanvasFixture Fixture;

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
  qd_test_assert_point (pos, 100, 120);
  qd_test_assert_point (dir, -1, 0);
  g_assert_true (qd_canvas_port_position (f->gain, QD_CANVAS_PORT_OUTPUT, 0, &pos, &dir));
  qd_test_assert_point (pos, 160, 120);
  qd_test_assert_point (dir, 1, 0);
  g_assert_false (qd_canvas_port_position (f->gain, QD_CANVAS_PORT_INPUT, 1, &pos, &dir));
  g_assert_false (qd_canvas_port_position (f->constant, QD_CANVAS_PORT_INPUT, 0, &pos, &dir));

  /* Flipped: mirrored left-right. */
  qd_document_set_geometry (f->document, f->gain, 100, 100, 60, 40, 0, TRUE, &error);
  g_assert_no_error (error);
  qd_canvas_port_position (f->gain, QD_CANVAS_PORT_INPUT, 0, &pos, &dir);
  qd_test_assert_point (pos, 160, 120);
  qd_test_assert_point (dir, 1, 0);

  /* A quarter turn clockwise (the rectangle turned to 40x60): the input
   * is on top, the output at the bottom. */
  qd_document_set_geometry (f->document, f->gain, 100, 100, 40, 60, 90, FALSE, &error);
  g_assert_no_error (error);
  qd_canvas_port_position (f->gain, QD_CANVAS_PORT_INPUT, 0, &pos, &dir);
  qd_test_assert_point (pos, 120, 100);
  qd_test_assert_point (dir, 0, -1);
  qd_canvas_port_position (f->gain, QD_CANVAS_PORT_OUTPUT, 0, &pos, &dir);
  qd_test_assert_point (pos, 120, 160);
  qd_test_assert_point (dir, 0, 1);

  /* Half a turn: input on the right. Three quarters: at the bottom. */
  qd_document_set_geometry (f->document, f->gain, 100, 100, 60, 40, 180, FALSE, &error);
  qd_canvas_port_position (f->gain, QD_CANVAS_PORT_INPUT, 0, &pos, &dir);
  qd_test_assert_point (pos, 160, 120);
  qd_test_assert_point (dir, 1, 0);
  qd_document_set_geometry (f->document, f->gain, 100, 100, 40, 60, 270, FALSE, &error);
  qd_canvas_port_position (f->gain, QD_CANVAS_PORT_INPUT, 0, &pos, &dir);
  qd_test_assert_point (pos, 120, 160);
  qd_test_assert_point (dir, 0, 1);

  /* Several ports spread evenly along their side; flip and a quarter turn
   * put the inputs at the bottom, the first one at the right end. */
  sum = qd_test_canvas_add (f, "wsum", "Sum", 500, 100);
  qd_document_set_param (f->document, sum, "n", "3", &error);
  g_assert_no_error (error);
  qd_document_set_geometry (f->document, sum, 500, 100, 60, 60, 0, FALSE, &error);
  for (guint i = 0; i < 3; i++)
    {
      qd_canvas_port_position (sum, QD_CANVAS_PORT_INPUT, i, &pos, NULL);
      qd_test_assert_point (pos, 500, 110 + 20 * i);
    }
  qd_document_set_geometry (f->document, sum, 500, 100, 60, 60, 90, TRUE, &error);
  qd_canvas_port_position (sum, QD_CANVAS_PORT_INPUT, 0, &pos, &dir);
  qd_test_assert_point (pos, 550, 160);
  qd_test_assert_point (dir, 0, 1);
  qd_canvas_port_position (sum, QD_CANVAS_PORT_INPUT, 2, &pos, NULL);
  qd_test_assert_point (pos, 510, 160);
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
  qd_test_assert_point (g_array_index (straight, QdPoint, 0), 160, 120);
  qd_test_assert_point (g_array_index (straight, QdPoint, 1), 300, 120);

  /* Constant (160,270) back to Gain's input (100,120): the route must
   * leave rightwards, come into the input from the left, and not cross
   * the Gain block in between. */
  around = qd_canvas_route_auto (f->root, start, right, end, left);
  qd_test_assert_orthogonal (around);
  qd_test_assert_point (g_array_index (around, QdPoint, 0), 160, 270);
  qd_test_assert_point (g_array_index (around, QdPoint, around->len - 1), 100, 120);
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
  qd_test_assert_orthogonal (elbows);
  qd_test_assert_point (g_array_index (elbows, QdPoint, 0), 160, 120);
  qd_test_assert_point (g_array_index (elbows, QdPoint, elbows->len - 1), 300, 120);
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
  g_assert_cmpuint (link->n_targets, ==, 2);
  junctions = qd_canvas_link_junctions (f->root, link);
  g_assert_cmpuint (junctions->len, ==, 1);
  /* The branch leaves the straight trunk somewhere along it. */
  g_assert_cmpfloat (g_array_index (junctions, QdPoint, 0).y, ==, 120);
  g_assert_cmpfloat (g_array_index (junctions, QdPoint, 0).x, >, 160);
  g_assert_cmpfloat (g_array_index (junctions, QdPoint, 0).x, <, 300);
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

/* Random edits of every kind; after each, the routes the router keeps
 * up to date must be exactly those of a full routing, and it must have
 * laid fewer of them. */
static void
test_router_incremental (void)
{
  g_autoptr(QdDocument) document = qd_test_routing_diagram ();
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
      off_line[vector] = qd_test_pixel_at (surface, (230 - 50) * 2, (int) ((120 + 1.6) * 2));
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
  g_assert_cmphex (qd_test_pixel_at (surface, 116, 260), ==, 0x0000ff);
  /* Its output mark just outside the right edge, off the link's line. */
  qd_canvas_port_position (f->gain, QD_CANVAS_PORT_OUTPUT, 0, &out, NULL);
  g_assert_cmphex (qd_test_pixel_at (surface, (int) ((out.x + 1.5 - 50) * 2), (int) ((out.y + 1.5) * 2)),
                   ==, 0x00ff00);
  /* The link at a point of its route (y = 120, a 1.5 pixel line centred
   * on the boundary of two pixel rows): clearly red in either row. */
  p = qd_test_pixel_at (surface, (230 - 50) * 2, 120 * 2);
  g_assert_cmpuint ((p >> 16) & 0xff, >, 150);
  g_assert_cmpuint (p & 0xff, <, 60);
  /* Nothing in an empty area. */
  g_assert_cmphex (qd_test_pixel_at (surface, 500, 600), ==, 0x000000);
  g_assert_cmphex (qd_test_pixel_at (surface, 20, 20), ==, 0x000000);

  /* Links lie above blocks: a link routed across Gain 2 shows on it. */
  qd_document_set_link_points (f->document, link, 0, through, 3);
  surface = (cairo_surface_destroy (surface),
             cairo_image_surface_create (CAIRO_FORMAT_RGB24, 800, 700));
  cr = cairo_create (surface);
  qd_canvas_render (cr, f->root, &options, 800, 700);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  /* (315, 270) is inside Gain 2 (300..360 x 250..290) on the link. */
  p = qd_test_pixel_at (surface, (315 - 50) * 2, 270 * 2);
  g_assert_cmpuint ((p >> 16) & 0xff, >, 150);
  g_assert_cmpuint (p & 0xff, <, 150);
  /* The body of Gain 2 away from the link is still blue. */
  g_assert_cmphex (qd_test_pixel_at (surface, (305 - 50) * 2, 285 * 2), ==, 0x0000ff);

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
        p = qd_test_pixel_at (surface, i, j);
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
              guint32 p = qd_test_pixel_at (surface, x, y);

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
  g_assert_cmphex (qd_test_pixel_at (surface, top_x, top_y), ==, 0x000000);
  g_assert_cmphex (qd_test_pixel_at (surface, left_x, left_y), ==, 0x000000);
  cairo_surface_destroy (surface);

  g_hash_table_add (ids, f->gain2->id);
  options.highlight = ids;
  surface = cairo_image_surface_create (CAIRO_FORMAT_RGB24, 800, 700);
  cr = cairo_create (surface);
  qd_canvas_render (cr, f->root, &options, 800, 700);
  cairo_destroy (cr);
  cairo_surface_flush (surface);
  g_assert_cmphex (qd_test_pixel_at (surface, top_x, top_y), ==, 0xff0000);
  g_assert_cmphex (qd_test_pixel_at (surface, top_x, top_y + 1), ==, 0xff0000);
  g_assert_cmphex (qd_test_pixel_at (surface, left_x, left_y), ==, 0xff0000);
  /* The ring stays outside: the body is still the fill colour. */
  g_assert_cmphex (qd_test_pixel_at (surface, (305 - 50) * 2, 285 * 2), ==, 0x0000ff);
  /* Gain is not in the set. */
  g_assert_cmphex (qd_test_pixel_at (surface, other_x, other_y), ==, 0x000000);
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
      n += qd_test_pixel_at (a, x, y) != qd_test_pixel_at (b, x, y);
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
  QdBlock *wsum = qd_test_canvas_add (f, "wsum", "Sum", 500, 100);
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
              qd_test_canvas_fixture_setup, func, \
              qd_test_canvas_fixture_teardown)

  ADD ("geometry/ports", test_port_positions, FALSE);
  ADD ("geometry/hit", test_hit_testing, TRUE);
  ADD ("geometry/route", test_routing, TRUE);
  ADD ("geometry/junctions", test_junctions, TRUE);
  g_test_add_func ("/canvas/geometry/router", test_router_incremental);
  ADD ("render/pixels", test_render_pixels, TRUE);
  ADD ("render/vector-link", test_render_vector_link, TRUE);
  ADD ("render/highlight", test_render_highlight, TRUE);
  ADD ("render/params", test_render_params, FALSE);
  ADD ("render/notes", test_render_notes, FALSE);
  ADD ("render/name-placement", test_render_name_placement, TRUE);

  status = g_test_run ();
  g_clear_object (&app);
  return status;
}

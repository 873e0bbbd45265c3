/* test-routes.c: where the canvas lays its links, on the shipped examples
 *
 * Two promises of the router, checked on every example diagram: a route
 * never passes through a block's name (measured as the canvas draws it)
 * or across the stub in front of a port other than its own two, and
 * adding a block away from the routes leaves every route exactly as it
 * was. Geometry and Pango only: no display needed.
 */
#include <math.h>
#include <string.h>

#include <pango/pangocairo.h>

#include "qd-canvas-geometry.h"
#include "qd-test-util.h"

static GPtrArray *
load_examples (void)
{
  g_autofree char *dir_path = qd_test_source_path ("data", "examples", NULL);
  GPtrArray *docs = g_ptr_array_new_with_free_func (g_object_unref);
  GDir *dir = g_dir_open (dir_path, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    if (g_str_has_suffix (name, QD_FILE_EXTENSION))
      {
        g_autofree char *path = g_build_filename (dir_path, name, NULL);
        g_autoptr(GError) error = NULL;
        QdDocument *doc = qd_document_load (path, &error);

        g_assert_no_error (error);
        g_object_set_data_full (G_OBJECT (doc), "name", g_strdup (name), g_free);
        g_ptr_array_add (docs, doc);
      }
  g_dir_close (dir);
  g_assert_cmpuint (docs->len, >=, 13);
  return docs;
}

/* The rectangle of @block's name as the canvas draws it: Sans at 10
 * canvas units, unhinted. */
static QdRect
name_rect (const QdBlock *block)
{
  static PangoContext *context;
  PangoFontDescription *desc;
  PangoLayout *layout;
  PangoRectangle logical;

  if (context == NULL)
    {
      cairo_font_options_t *options = cairo_font_options_create ();

      context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
      cairo_font_options_set_hint_metrics (options, CAIRO_HINT_METRICS_OFF);
      cairo_font_options_set_hint_style (options, CAIRO_HINT_STYLE_NONE);
      pango_cairo_context_set_font_options (context, options);
      cairo_font_options_destroy (options);
    }
  desc = pango_font_description_from_string ("Sans");
  pango_font_description_set_absolute_size (desc, 10 * PANGO_SCALE);
  layout = pango_layout_new (context);
  pango_layout_set_font_description (layout, desc);
  pango_layout_set_text (layout, block->name, -1);
  pango_layout_get_extents (layout, NULL, &logical);
  pango_font_description_free (desc);
  g_object_unref (layout);
  return qd_canvas_block_name_rect (block, logical.width / (double) PANGO_SCALE,
                                    logical.height / (double) PANGO_SCALE);
}

/* Whether the segment a-b passes through the inside of @r (more than
 * half a unit in: running along an edge is not through). */
static gboolean
through (QdPoint       a,
         QdPoint       b,
         const QdRect *r)
{
  double x0 = MIN (a.x, b.x), x1 = MAX (a.x, b.x);
  double y0 = MIN (a.y, b.y), y1 = MAX (a.y, b.y);

  return x1 > r->x + 0.5 && x0 < r->x + r->width - 0.5 &&
         y1 > r->y + 0.5 && y0 < r->y + r->height - 0.5;
}

/* A route's inner segments (its two stubs left out) against every
 * block (its edges included), name and port stub of @system but its own
 * two ports. */
static void
check_route_clear (const char     *example,
                   const QdSystem *system,
                   const char     *key,
                   const GArray   *drawn)
{
  QdPoint first = g_array_index (drawn, QdPoint, 0);
  QdPoint last = g_array_index (drawn, QdPoint, drawn->len - 1);
  g_autoptr(GArray) route = g_array_new (FALSE, FALSE, sizeof (QdPoint));

  /* The drawn points with the stubs' ends added: a route that goes on
   * straight beyond a stub has that part checked too. */
  g_assert_cmpuint (drawn->len, >=, 2);
  g_array_append_val (route, first);
  g_array_append_val (route, ((QdPoint) { 0, 0 }));
  g_array_append_vals (route, &g_array_index (drawn, QdPoint, 1), drawn->len - 2);
  g_array_append_val (route, ((QdPoint) { 0, 0 }));
  g_array_append_val (route, last);
  {
    QdPoint after = g_array_index (drawn, QdPoint, 1);
    QdPoint before = g_array_index (drawn, QdPoint, drawn->len - 2);
    double l1 = fabs (after.x - first.x) + fabs (after.y - first.y);
    double l2 = fabs (before.x - last.x) + fabs (before.y - last.y);

    g_array_index (route, QdPoint, 1) = (QdPoint) {
      first.x + (after.x - first.x) / l1 * QD_CANVAS_STUB,
      first.y + (after.y - first.y) / l1 * QD_CANVAS_STUB };
    g_array_index (route, QdPoint, route->len - 2) = (QdPoint) {
      last.x + (before.x - last.x) / l2 * QD_CANVAS_STUB,
      last.y + (before.y - last.y) / l2 * QD_CANVAS_STUB };
  }

  for (guint b = 0; b < system->blocks->len; b++)
    {
      const QdBlock *block = g_ptr_array_index (system->blocks, b);
      QdRect rect = qd_canvas_block_rect (block);
      QdRect name = name_rect (block);
      guint n[2];

      /* Along an edge is through: the route would read as the frame. */
      rect.x -= 2;
      rect.y -= 2;
      rect.width += 4;
      rect.height += 4;

      g_assert_true (qd_block_count_ports (block, &n[0], &n[1], NULL));
      for (guint k = 1; k + 2 < route->len; k++)
        {
          QdPoint a = g_array_index (route, QdPoint, k);
          QdPoint c = g_array_index (route, QdPoint, k + 1);

          if (through (a, c, &rect))
            g_error ("%s: route %s passes through the block %s", example, key, block->name);
          if (through (a, c, &name))
            g_error ("%s: route %s (%g,%g)-(%g,%g) passes through the name of %s",
                     example, key, a.x, a.y, c.x, c.y, block->name);
          for (int kind = 0; kind < 2; kind++)
            for (guint p = 0; p < n[kind]; p++)
              {
                QdPoint at, dir;
                QdRect stub;

                qd_canvas_port_position_n (block, kind == 0 ? QD_CANVAS_PORT_INPUT
                                                            : QD_CANVAS_PORT_OUTPUT,
                                           p, n[kind], &at, &dir);
                if ((fabs (at.x - first.x) < 1e-6 && fabs (at.y - first.y) < 1e-6)
                    || (fabs (at.x - last.x) < 1e-6 && fabs (at.y - last.y) < 1e-6))
                  continue;
                /* The stub and its tip, a unit either side of its line. */
                stub.x = MIN (at.x, at.x + dir.x * QD_CANVAS_STUB) - 1.0;
                stub.y = MIN (at.y, at.y + dir.y * QD_CANVAS_STUB) - 1.0;
                stub.width = fabs (dir.x) * QD_CANVAS_STUB + 2.0;
                stub.height = fabs (dir.y) * QD_CANVAS_STUB + 2.0;
                if (through (a, c, &stub))
                  g_error ("%s: route %s (%g,%g)-(%g,%g) crosses the stub of "
                           "port %u of %s", example, key, a.x, a.y, c.x, c.y,
                           p + 1, block->name);
              }
        }
    }
}

static void
test_clear_of_names_and_stubs (void)
{
  g_autoptr(GPtrArray) docs = load_examples ();
  guint n_routes = 0;

  for (guint d = 0; d < docs->len; d++)
    {
      QdDocument *doc = g_ptr_array_index (docs, d);
      const char *example = g_object_get_data (G_OBJECT (doc), "name");
      QdSystem *root = qd_document_get_root (doc);
      g_autoptr(GHashTable) routes = qd_canvas_route_system (root);
      GHashTableIter iter;
      gpointer key, value;

      g_hash_table_iter_init (&iter, routes);
      while (g_hash_table_iter_next (&iter, &key, &value))
        {
          check_route_clear (example, root, key, value);
          n_routes++;
        }
    }
  g_test_message ("%u routes checked", n_routes);
  g_assert_cmpuint (n_routes, >, 80);
}

static gboolean
same_routes (GHashTable *a,
             GHashTable *b,
             const char *example,
             double      x,
             double      y)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, a);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GArray *ra = value, *rb = g_hash_table_lookup (b, key);

      g_assert_nonnull (rb);
      if (ra->len != rb->len
          || memcmp (ra->data, rb->data, ra->len * sizeof (QdPoint)) != 0)
        {
          g_test_message ("%s: a block at (%g, %g) moved route %s", example, x, y,
                          (char *) key);
          return FALSE;
        }
    }
  return TRUE;
}

/* Whether anything of @routes or of @system's blocks (with their names)
 * comes within @margin of @rect. */
static gboolean
near_anything (const QdSystem *system,
               GHashTable     *routes,
               const QdRect   *rect,
               double          margin)
{
  QdRect grown = { rect->x - margin, rect->y - margin,
                   rect->width + 2 * margin, rect->height + 2 * margin };
  GHashTableIter iter;
  gpointer value;

  for (guint b = 0; b < system->blocks->len; b++)
    {
      const QdBlock *block = g_ptr_array_index (system->blocks, b);
      QdRect r = qd_canvas_block_rect (block);
      QdRect n = name_rect (block);

      if (qd_rect_intersects (&r, &grown) || qd_rect_intersects (&n, &grown))
        return TRUE;
    }
  g_hash_table_iter_init (&iter, routes);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      GArray *route = value;

      for (guint k = 0; k + 1 < route->len; k++)
        if (through (g_array_index (route, QdPoint, k),
                     g_array_index (route, QdPoint, k + 1), &grown))
          return TRUE;
    }
  return FALSE;
}

/* A Gain dropped anywhere on the diagram (every 10 units, as the canvas
 * snaps) where it touches no route and no block, with its name and
 * stubs: every route stays point for point where it was. */
static void
test_add_block_keeps_routes (void)
{
  g_autoptr(GPtrArray) docs = load_examples ();
  guint n_tried = 0, n_moved = 0;

  for (guint d = 0; d < docs->len; d++)
    {
      QdDocument *doc = g_ptr_array_index (docs, d);
      const char *example = g_object_get_data (G_OBJECT (doc), "name");
      QdSystem *root = qd_document_get_root (doc);
      g_autoptr(GHashTable) before = qd_canvas_route_system (root);
      QdRect bounds;

      g_assert_true (qd_canvas_system_bounds (root, &bounds));
      for (double y = bounds.y - 40; y < bounds.y + bounds.height + 40; y += 10)
        for (double x = bounds.x - 60; x < bounds.x + bounds.width + 60; x += 10)
          {
            g_autoptr(GError) error = NULL;
            g_autoptr(GHashTable) after = NULL;
            /* The Gain (60 x 40) with its stubs and name "Gain 9". */
            QdRect room = { x - QD_CANVAS_STUB, y, 60 + 2 * QD_CANVAS_STUB, 40 + 20 };
            QdBlock *block;

            if (near_anything (root, before, &room, 10.0))
              continue;
            block = qd_document_add_block (doc, root, "gain", "Gain 9", x, y, &error);
            g_assert_no_error (error);
            after = qd_canvas_route_system (root);
            n_tried++;
            if (!same_routes (before, after, example, x, y))
              n_moved++;
            qd_document_remove_block (doc, block);
          }
    }
  g_test_message ("%u places tried, %u moved a route", n_tried, n_moved);
  g_assert_cmpuint (n_tried, >, 500);
  g_assert_cmpuint (n_moved, ==, 0);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();
  g_test_add_func ("/routes/clear-of-names-and-stubs", test_clear_of_names_and_stubs);
  g_test_add_func ("/routes/add-block-keeps-routes", test_add_block_keeps_routes);
  return g_test_run ();
}

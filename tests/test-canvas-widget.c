/* test-canvas-widget.c: the canvas widget and its window
 *
 * Compares what the canvas shows (from its cached drawing) with a fresh
 * drawing of the same view while it pans and zooms, and checks the
 * tooltip, the context menu, Cut and Paste through the canvas's actions
 * and Undo in the editor window during a gesture. Runs under a display
 * (xvfb-run in CI); without one the test is skipped.
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
        guint32 a = qd_test_pixel_at (shown, x, y), b = qd_test_pixel_at (expected, x, y);
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
  g_autoptr(QdDocument) document = qd_test_routing_diagram ();
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
  g_autoptr(QdDocument) document = qd_test_routing_diagram ();
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
  g_assert_cmpuint (link->n_targets, ==, 2);
  qd_canvas_controller_drag (controller, m.x + 30, m.y + 40);
  qd_canvas_controller_release (controller, m.x + 30, m.y + 40);
  g_assert_cmpuint (link->n_targets, ==, 2);

  /* Bending it: Undo takes the bend back, and the branch stays. */
  qd_canvas_controller_press (controller, m.x, m.y, 0);
  qd_canvas_controller_drag (controller, m.x + 30, m.y + 40);
  g_assert_cmpint (qd_canvas_controller_get_mode (controller), ==, QD_CANVAS_MODE_BEND);
  g_action_group_activate_action (G_ACTION_GROUP (window), "undo", NULL);
  g_assert_cmpuint (link->n_targets, ==, 2);
  g_assert_cmpuint (qd_link_target_n_points (link->targets[1]), ==, 0);
  qd_canvas_controller_drag (controller, m.x + 60, m.y + 80);
  qd_canvas_controller_release (controller, m.x + 60, m.y + 80);
  g_assert_cmpuint (qd_link_target_n_points (link->targets[1]), ==, 0);

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

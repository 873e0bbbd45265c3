/* qd-canvas-cache.c: the canvas's cached image of the diagram
 *
 * Drawing a large diagram whole takes longer than a frame, so the diagram
 * is drawn into an image at the screen's scale (device pixels: crisp on
 * HiDPI screens) and each frame shows that image: moved when the view
 * pans (scrolled, with only the strip that comes into view drawn), scaled
 * while it zooms (drawn again, sharp, once the zoom stops), and drawn
 * again only where an edit or the selection changed it. The gesture's
 * overlays (the link being drawn, port rings, the rubber band) are drawn
 * over it each frame.
 *
 * No frame draws more than the view needs: a new image is drawn where
 * the view is, and its margin around in idle time, a band at a time.
 * In the middle of a zoom a new image starts from the old one scaled,
 * and only what that did not cover is drawn; zooming out, idle time
 * starts the next image before the view reaches the edges of this one.
 *
 * This file holds that image and the widget's snapshot: how the canvas
 * draws, apart from what it keeps (qd-canvas.c) and how it takes input
 * (qd-canvas-input.c).
 */
#include <math.h>
#include <string.h>

#include "qd-canvas-private.h"

/* The cached image of the diagram reaches this far beyond each side of
 * the view, in widget pixels: a little, so that small pans only move the
 * image (larger ones scroll it), and more while zooming (at most half the
 * view's size), so that zooming out shows it scaled without empty edges. */
#define SCROLL_MARGIN 16.0
#define CACHE_MARGIN 256.0

/* While the view zooms, the cached image is scaled; once the view has
 * stood still this long, the diagram is drawn again, crisp. */
#define CRISP_DELAY_MS 150

/* The margin of a new image is drawn in bands this wide, one an idle
 * call: each costs a fraction of a frame. */
#define FILL_STEP 64
/* When a frame must draw some of that margin itself, it draws this much
 * beyond the view, in widget pixels, for the frames that follow (zooming
 * out by 5 % a frame uses some 20 pixels a side). */
#define VIEW_SLACK 32
/* Zoomed out to this fraction of the image's zoom, a new image is
 * started in idle time. */
#define PREFETCH_RATIO 0.8

/* Scaling the image beyond these factors looks too blurred (up) or
 * aliased (down): draw again at once. */
#define CACHE_MAX_UPSCALE 2.0
#define CACHE_MAX_DOWNSCALE 0.5

/* The cached diagram */

void
qd_canvas_invalidate_cache (QdCanvas *self)
{
  self->cache_valid = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Whether the cached image shows the view exactly: the same zoom, and
 * moved by whole device pixels. Otherwise it is scaled or moved by a
 * fraction of a pixel, which blurs it a little. */
gboolean
qd_canvas_cache_is_crisp (QdCanvas *self)
{
  double dx, dy;

  if (self->cache == NULL || !self->cache_valid || self->cache_draft ||
      self->cache_zoom != self->zoom)
    return FALSE;
  dx = (self->cache_origin_x - self->origin_x) * self->zoom * self->cache_scale;
  dy = (self->cache_origin_y - self->origin_y) * self->zoom * self->cache_scale;
  return fabs (dx - round (dx)) < 0.01 && fabs (dy - round (dy)) < 0.01;
}

static gboolean
crisp_timeout (gpointer user_data)
{
  QdCanvas *self = user_data;

  self->crisp_id = 0;
  if (self->cache != NULL && !qd_canvas_cache_is_crisp (self))
    qd_canvas_invalidate_cache (self);
  return G_SOURCE_REMOVE;
}

static gboolean fill_cache (gpointer user_data);

/* The view moved or zoomed. Frames until it stands still show the
 * cached image; then it is drawn again if it is not crisp. @by_user:
 * not by zoom-to-fit, so a resize no longer fits. */
void
qd_canvas_view_changed (QdCanvas *self,
                        gboolean  by_user)
{
  if (by_user)
    self->fitted = FALSE;
  g_clear_handle_id (&self->crisp_id, g_source_remove);
  self->crisp_id = g_timeout_add (CRISP_DELAY_MS, crisp_timeout, self);
  /* Idle time may prepare the drawing the next frames will need. */
  if (self->fill_id == 0 && self->cache != NULL)
    self->fill_id = g_idle_add (fill_cache, self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}


/* Drawing */

static gboolean
widget_is_dark (GtkWidget *widget)
{
  GdkRGBA color;

  /* Light text means a dark theme. (gtk_widget_get_color is 4.10.) */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &color);
  G_GNUC_END_IGNORE_DEPRECATIONS
  return 0.299 * color.red + 0.587 * color.green + 0.114 * color.blue > 0.5;
}

static GArray *
route_from_controller (const QdSystem *system,
                       const QdLink   *link,
                       guint           target,
                       gpointer        user_data)
{
  return qd_canvas_controller_get_route (user_data, link, target);
}

/* The document's notes when the top level is shown, else NULL: notes
 * belong to the top-level diagram. */
GPtrArray *
qd_canvas_get_notes (QdCanvas *self)
{
  QdDocument *document = qd_canvas_controller_get_document (self->controller);
  QdSystem *system = qd_canvas_controller_get_system (self->controller);

  if (document == NULL || system == NULL || system->owner != NULL)
    return NULL;
  return qd_document_get_notes (document);
}

void
qd_canvas_select_note (QdCanvas *self,
                       int       index)
{
  if (self->selected_note == index)
    return;
  self->selected_note = index;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.delete", TRUE);
  qd_canvas_invalidate_cache (self);
}

static void
init_options (QdCanvas              *self,
              QdCanvasRenderOptions *options,
              const QdCanvasStyle   *style)
{
  qd_canvas_render_options_init (options);
  options->zoom = self->zoom;
  options->origin_x = self->origin_x;
  options->origin_y = self->origin_y;
  options->style = style;
  options->selection = qd_canvas_controller_get_selection (self->controller);
  options->route_func = route_from_controller;
  options->route_data = self->controller;
  options->badges = self->badges;
  options->highlight = self->highlight;
  if (self->widths_stale)
    {
      QdDocument *document = qd_canvas_controller_get_document (self->controller);

      g_clear_pointer (&self->link_widths, g_hash_table_unref);
      if (document != NULL)
        self->link_widths =
          qd_vector_link_widths (document,
                                 qd_canvas_controller_get_system (self->controller));
      self->widths_stale = FALSE;
    }
  options->link_widths = self->link_widths;
  options->notes = qd_canvas_get_notes (self);
  options->settings = qd_canvas_get_document (self) != NULL
                      ? qd_document_get_settings (qd_canvas_get_document (self)) : NULL;
  options->show_params = !self->hide_params;
  options->selected_note = self->selected_note;
}

/* Draws the part (@x, @y, @width, @height) of the cached image, in
 * widget pixels from its top-left corner, with everything else of the
 * image left as it is. Whole pixels keep the drawing exactly the one a
 * drawing of the whole image gives. */
static void
draw_cache_region (QdCanvas            *self,
                   cairo_surface_t     *surface,
                   const QdCanvasStyle *style,
                   int                  x,
                   int                  y,
                   int                  width,
                   int                  height)
{
  QdCanvasRenderOptions options;
  cairo_t *cr;

  if (width <= 0 || height <= 0)
    return;
  init_options (self, &options, style);
  options.zoom = self->cache_zoom;
  options.origin_x = self->cache_origin_x + x / self->cache_zoom;
  options.origin_y = self->cache_origin_y + y / self->cache_zoom;
  options.skip_overlays = TRUE;
  options.draft = self->cache_draft;
  cr = cairo_create (surface);
  cairo_rectangle (cr, x, y, width, height);
  cairo_clip (cr);
  cairo_translate (cr, x, y);
  qd_canvas_render (cr, qd_canvas_get_system (self), &options, width, height);
  cairo_destroy (cr);
}

static void
remember_selection (QdCanvas *self)
{
  GHashTable *selection = qd_canvas_controller_get_selection (self->controller);
  GHashTableIter iter;
  gpointer key;

  g_hash_table_remove_all (self->drawn_selection);
  g_hash_table_iter_init (&iter, selection);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_hash_table_add (self->drawn_selection, g_strdup (key));
}

/* Adds to @damage what a change of the selection of @keys changes in the
 * drawing: the blocks and link targets named. FALSE when they are too
 * many to be worth it. */
static gboolean
add_selection_damage (QdCanvas   *self,
                      GHashTable *keys,
                      GArray     *damage)
{
  QdSystem *system = qd_canvas_get_system (self);
  gboolean links = FALSE;
  GHashTableIter iter;
  gpointer key;

  if (g_hash_table_size (keys) > 64)
    return FALSE;
  g_hash_table_iter_init (&iter, keys);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      QdBlock *block;

      if (strchr (key, ':') != NULL)
        links = TRUE;
      else if ((block = qd_system_find_block (system, key)) != NULL)
        {
          /* The name under it changes colour too. */
          QdRect r = qd_canvas_block_drawn_rect (block);

          g_array_append_val (damage, r);
        }
    }
  for (guint i = 0; links && i < system->links->len; i++)
    {
      QdLink *link = g_ptr_array_index (system->links, i);

      for (guint t = 0; t < link->n_targets; t++)
        {
          g_autofree char *k = qd_canvas_link_key (link, t);
          g_autoptr(GArray) route = NULL;
          QdRect r;

          if (!g_hash_table_contains (keys, k))
            continue;
          route = qd_canvas_controller_get_route (self->controller, link, t);
          if (qd_canvas_route_drawn_rect (route, &r))
            g_array_append_val (damage, r);
        }
    }
  return TRUE;
}

/* The notes as drawn: edits of notes bring the controller no damage, so
 * a change of this says the image must be drawn again (a few notes:
 * cheap enough for every frame). */
guint
qd_canvas_notes_fingerprint (QdCanvas *self)
{
  GPtrArray *notes = qd_canvas_get_notes (self);
  guint hash = 17;

  for (guint k = 0; notes != NULL && k < notes->len; k++)
    {
      const QdNote *note = g_ptr_array_index (notes, k);

      hash = hash * 31 + g_str_hash (note->text);
      hash = hash * 31 + (guint) (int) note->x;
      hash = hash * 31 + (guint) (int) note->y;
    }
  /* So is the model's method, which Integrators left to it show. */
  if (qd_canvas_get_document (self) != NULL)
    {
      const QdSettings *settings = qd_document_get_settings (qd_canvas_get_document (self));

      hash = hash * 31 + g_str_hash (settings->method != NULL ? settings->method : "");
    }
  return hash * 31 + (notes != NULL ? notes->len : 0);
}

/* Brings the cached image up to date after edits by drawing again only
 * what they changed (a block moved by the arrow keys touches a few
 * hundred pixels of the image, and drawing those is far cheaper than the
 * whole). FALSE when it must be drawn whole. */
static gboolean
repair_cache (QdCanvas *self)
{
  g_autoptr(GArray) damage = g_array_new (FALSE, FALSE, sizeof (QdRect));
  g_autoptr(GHashTable) changed = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTable *selection = qd_canvas_controller_get_selection (self->controller);
  gboolean known = qd_canvas_controller_take_damage (self->controller, damage);
  /* Line widths, halos and rings are in pixels. */
  double pad = 10;
  double x0 = G_MAXDOUBLE, y0 = G_MAXDOUBLE, x1 = -G_MAXDOUBLE, y1 = -G_MAXDOUBLE;
  GHashTableIter iter;
  gpointer key;

  if (!known || self->cache == NULL || !self->cache_valid ||
      qd_canvas_get_system (self) == NULL)
    return FALSE;

  /* The keys selected or unselected since the image was drawn. */
  g_hash_table_iter_init (&iter, selection);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (self->drawn_selection, key))
      g_hash_table_add (changed, key);
  g_hash_table_iter_init (&iter, self->drawn_selection);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (selection, key))
      g_hash_table_add (changed, key);
  if (!add_selection_damage (self, changed, damage))
    return FALSE;
  remember_selection (self);

  for (guint i = 0; i < damage->len; i++)
    {
      const QdRect *r = &g_array_index (damage, QdRect, i);
      double rx0 = (r->x - self->cache_origin_x) * self->cache_zoom - pad;
      double ry0 = (r->y - self->cache_origin_y) * self->cache_zoom - pad;
      double rx1 = (r->x + r->width - self->cache_origin_x) * self->cache_zoom + pad;
      double ry1 = (r->y + r->height - self->cache_origin_y) * self->cache_zoom + pad;

      rx0 = MAX (rx0, 0);
      ry0 = MAX (ry0, 0);
      rx1 = MIN (rx1, self->cache_width);
      ry1 = MIN (ry1, self->cache_height);
      if (rx0 >= rx1 || ry0 >= ry1)
        continue;
      x0 = MIN (x0, rx0);
      y0 = MIN (y0, ry0);
      x1 = MAX (x1, rx1);
      y1 = MAX (y1, ry1);
    }
  if (x0 >= x1)
    return TRUE;
  /* One region around all of it: each drawing walks the whole diagram
   * to find what falls in it. Most of the image: draw it whole. */
  if ((x1 - x0) * (y1 - y0) > 0.5 * self->cache_width * self->cache_height)
    return FALSE;
  x0 = floor (x0);
  y0 = floor (y0);
  draw_cache_region (self, self->cache, &self->cache_style, x0, y0,
                     ceil (x1) - x0, ceil (y1) - y0);
  cairo_surface_flush (self->cache);
  return TRUE;
}

/* Grows the drawn part of the cached image to take in the rectangle
 * (@x0, @y0)-(@x1, @y1), in widget pixels of the image, drawing only
 * the strips around what is drawn already. */
static void
extend_cache (QdCanvas *self,
              int       x0,
              int       y0,
              int       x1,
              int       y1)
{
  int dx0 = self->drawn_x0, dy0 = self->drawn_y0;
  int dx1 = self->drawn_x1, dy1 = self->drawn_y1;

  x0 = MAX (MIN (x0, dx0), 0);
  y0 = MAX (MIN (y0, dy0), 0);
  x1 = MIN (MAX (x1, dx1), (int) self->cache_width);
  y1 = MIN (MAX (y1, dy1), (int) self->cache_height);
  if (x0 == dx0 && y0 == dy0 && x1 == dx1 && y1 == dy1)
    return;
  /* Full height at the left and right, then above and below what was
   * drawn. */
  draw_cache_region (self, self->cache, &self->cache_style, x0, y0, dx0 - x0, y1 - y0);
  draw_cache_region (self, self->cache, &self->cache_style, dx1, y0, x1 - dx1, y1 - y0);
  draw_cache_region (self, self->cache, &self->cache_style, dx0, y0, dx1 - dx0, dy0 - y0);
  draw_cache_region (self, self->cache, &self->cache_style, dx0, dy1, dx1 - dx0, y1 - dy1);
  cairo_surface_flush (self->cache);
  self->drawn_x0 = x0;
  self->drawn_y0 = y0;
  self->drawn_x1 = x1;
  self->drawn_y1 = y1;
}

static gboolean
cache_is_complete (QdCanvas *self)
{
  return self->drawn_x0 <= 0 && self->drawn_y0 <= 0 &&
         self->drawn_x1 >= (int) self->cache_width && self->drawn_y1 >= (int) self->cache_height;
}

static void update_cache (QdCanvas            *self,
                          const QdCanvasStyle *style,
                          double               width,
                          double               height,
                          int                  scale,
                          double               margin,
                          gboolean             draft);

/* Draws a band of the margin of the cached image around what is drawn,
 * on every side at once: the view may leave the drawn part on any side
 * (zooming out, on all of them). Nothing is shown: the band is for the
 * frames to come, which can then move or scale the image without
 * drawing. */
static gboolean
fill_cache (gpointer user_data)
{
  QdCanvas *self = user_data;

  if (self->cache == NULL || !self->cache_valid)
    {
      self->fill_id = 0;
      return G_SOURCE_REMOVE;
    }
  if (!cache_is_complete (self))
    {
      extend_cache (self, self->drawn_x0 - FILL_STEP, self->drawn_y0 - FILL_STEP,
                    self->drawn_x1 + FILL_STEP, self->drawn_y1 + FILL_STEP);
      return G_SOURCE_CONTINUE;
    }
  /* Zooming out, the view will soon reach the edges of the image: start
   * the next one now, in idle time, rather than in a frame then. */
  if (self->crisp_id != 0 && self->zoom < self->cache_zoom * PREFETCH_RATIO)
    {
      double width = gtk_widget_get_width (GTK_WIDGET (self));
      double height = gtk_widget_get_height (GTK_WIDGET (self));
      QdCanvasStyle style = self->cache_style;

      update_cache (self, &style, width, height, self->cache_scale,
                    MIN (CACHE_MARGIN, MAX (width, height) / 2), TRUE);
      return G_SOURCE_CONTINUE;
    }
  self->fill_id = 0;
  return G_SOURCE_REMOVE;
}

/* Starts the new cached image @surface with what the old one, @old,
 * drawn at @old_zoom from the canvas point (@old_x, @old_y), showed,
 * scaled to the new zoom, where @wanted; the part it covers, in pixels
 * of the new image, goes to @seeded (FALSE when none). In the middle of a zoom this saves
 * drawing again what is already drawn: it shows a little blurred until
 * the zoom stops and the view is drawn sharp. */
static gboolean
seed_cache (QdCanvas        *self,
            cairo_surface_t *surface,
            cairo_surface_t *old,
            double           old_zoom,
            double           old_x,
            double           old_y,
            const int        old_drawn[4],
            const int        wanted[4],
            int              seeded[4])
{
  double ratio = self->zoom / old_zoom;
  double x = (old_x - self->cache_origin_x) * self->zoom;
  double y = (old_y - self->cache_origin_y) * self->zoom;
  cairo_t *cr;

  /* Whole pixels inside the old drawing, so that none is half empty,
   * and only where they are @wanted: scaling costs by the pixel, and
   * the rest of the margin is drawn in idle time anyway. */
  seeded[0] = MAX ((int) ceil (x + old_drawn[0] * ratio), MAX (wanted[0], 0));
  seeded[1] = MAX ((int) ceil (y + old_drawn[1] * ratio), MAX (wanted[1], 0));
  seeded[2] = MIN ((int) floor (x + old_drawn[2] * ratio), MIN (wanted[2], (int) self->cache_width));
  seeded[3] = MIN ((int) floor (y + old_drawn[3] * ratio), MIN (wanted[3], (int) self->cache_height));
  if (seeded[0] >= seeded[2] || seeded[1] >= seeded[3])
    return FALSE;
  cr = cairo_create (surface);
  cairo_rectangle (cr, seeded[0], seeded[1], seeded[2] - seeded[0], seeded[3] - seeded[1]);
  cairo_clip (cr);
  cairo_translate (cr, x, y);
  cairo_scale (cr, ratio, ratio);
  cairo_set_source_surface (cr, old, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_BILINEAR);
  cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
  cairo_paint (cr);
  cairo_destroy (cr);
  return TRUE;
}

/* Draws the diagram into a new cached image: the view and @margin
 * widget pixels around it, at the view's zoom, in device pixels. Only
 * the view is drawn at once; the margin follows in idle time. With
 * @draft (in the middle of a zoom), the text is left out and what the
 * old image showed is scaled into the new one instead of drawn. */
static void
update_cache (QdCanvas            *self,
              const QdCanvasStyle *style,
              double               width,
              double               height,
              int                  scale,
              double               margin,
              gboolean             draft)
{
  cairo_surface_t *old;
  gboolean reuse = draft && self->cache != NULL && self->cache_valid &&
                   self->cache_scale == scale &&
                   memcmp (&self->cache_style, style, sizeof *style) == 0;
  double old_zoom = self->cache_zoom;
  double old_x = self->cache_origin_x, old_y = self->cache_origin_y;
  int old_drawn[4] = { self->drawn_x0, self->drawn_y0, self->drawn_x1, self->drawn_y1 };
  int seeded[4];
  /* In the middle of a zoom, the strips drawn now also reach into the
   * margin, so that the next frames need not draw. */
  double slack = draft ? MIN (margin, VIEW_SLACK) : 0;
  int view[4] = { floor (margin - slack), floor (margin - slack),
                  ceil (margin + width + slack), ceil (margin + height + slack) };
  cairo_surface_t *surface;

  self->cache_width = ceil (width + 2 * margin);
  self->cache_height = ceil (height + 2 * margin);
  self->cache_zoom = self->zoom;
  self->cache_origin_x = self->origin_x - margin / self->zoom;
  self->cache_origin_y = self->origin_y - margin / self->zoom;
  self->cache_scale = scale;
  self->cache_style = *style;
  self->cache_draft = draft;
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                        (int) self->cache_width * scale,
                                        (int) self->cache_height * scale);
  cairo_surface_set_device_scale (surface, scale, scale);

  old = g_steal_pointer (&self->cache);
  self->cache = surface;
  self->cache_valid = TRUE;
  /* Scaled, the old image is worth keeping only where it shows some of
   * the view: then only the strips of the view beyond it are drawn. */
  if (reuse && seed_cache (self, surface, old, old_zoom, old_x, old_y, old_drawn, view, seeded) &&
      seeded[0] < view[2] && view[0] < seeded[2] && seeded[1] < view[3] && view[1] < seeded[3])
    {
      self->drawn_x0 = seeded[0];
      self->drawn_y0 = seeded[1];
      self->drawn_x1 = seeded[2];
      self->drawn_y1 = seeded[3];
    }
  else
    {
      self->drawn_x0 = self->drawn_x1 = view[0];
      self->drawn_y0 = self->drawn_y1 = view[1];
    }
  g_clear_pointer (&old, cairo_surface_destroy);
  extend_cache (self, view[0], view[1], view[2], view[3]);
  remember_selection (self);
  if (!cache_is_complete (self) && self->fill_id == 0)
    self->fill_id = g_idle_add (fill_cache, self);
}

/* The view has panned out of the cached image at the same zoom: the
 * image moves by whole pixels to centre the view, what it still shows is
 * copied, and only the strips that come into it are drawn, as a text
 * view scrolls. FALSE when that does not apply. */
static gboolean
scroll_cache (QdCanvas            *self,
              const QdCanvasStyle *style,
              double               width,
              double               height,
              int                  scale)
{
  cairo_surface_t *surface;
  cairo_t *cr;
  double dx, dy;
  int w = self->cache_width, h = self->cache_height;

  if (self->cache == NULL || !self->cache_valid || self->cache_scale != scale ||
      self->cache_zoom != self->zoom || self->cache_width < width ||
      self->cache_height < height || memcmp (&self->cache_style, style, sizeof *style) != 0)
    return FALSE;
  dx = round ((self->origin_x - (self->cache_width - width) / 2 / self->zoom -
               self->cache_origin_x) * self->zoom);
  dy = round ((self->origin_y - (self->cache_height - height) / 2 / self->zoom -
               self->cache_origin_y) * self->zoom);
  if (fabs (dx) >= w / 2 || fabs (dy) >= h / 2)
    return FALSE;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, w * scale, h * scale);
  cairo_surface_set_device_scale (surface, scale, scale);
  cr = cairo_create (surface);
  cairo_set_source_surface (cr, self->cache, -dx, -dy);
  cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
  cairo_paint (cr);
  cairo_destroy (cr);
  g_clear_pointer (&self->cache, cairo_surface_destroy);
  self->cache = surface;
  self->cache_origin_x += dx / self->zoom;
  self->cache_origin_y += dy / self->zoom;

  if (!cache_is_complete (self))
    {
      /* The margin was not all drawn yet: the drawn part moves with the
       * image, and only what the view needs beyond it is drawn now (the
       * view sits in the middle of the image); idle time does the rest. */
      double vx = (w - width) / 2, vy = (h - height) / 2;

      self->drawn_x0 = CLAMP (self->drawn_x0 - (int) dx, 0, w);
      self->drawn_x1 = CLAMP (self->drawn_x1 - (int) dx, 0, w);
      self->drawn_y0 = CLAMP (self->drawn_y0 - (int) dy, 0, h);
      self->drawn_y1 = CLAMP (self->drawn_y1 - (int) dy, 0, h);
      if (self->drawn_x0 >= self->drawn_x1 || self->drawn_y0 >= self->drawn_y1)
        {
          self->drawn_x0 = self->drawn_x1 = floor (vx);
          self->drawn_y0 = self->drawn_y1 = floor (vy);
        }
      extend_cache (self, floor (vx), floor (vy), ceil (vx + width), ceil (vy + height));
      if (self->fill_id == 0)
        self->fill_id = g_idle_add (fill_cache, self);
      return TRUE;
    }

  /* The strip that came in at the left or right, full height, then the
   * one at the top or bottom beside it. */
  if (dx > 0)
    draw_cache_region (self, surface, style, w - dx, 0, dx, h);
  else if (dx < 0)
    draw_cache_region (self, surface, style, 0, 0, -dx, h);
  if (dy > 0)
    draw_cache_region (self, surface, style, dx < 0 ? -dx : 0, h - dy, w - fabs (dx), dy);
  else if (dy < 0)
    draw_cache_region (self, surface, style, dx < 0 ? -dx : 0, 0, w - fabs (dx), -dy);
  cairo_surface_flush (surface);
  return TRUE;
}

/* Whether the cached image can show the view: it is up to date, made
 * for this screen and style, covers the whole view (with the part drawn
 * so far, or, with @whole, once it is all drawn), and needs no more
 * scaling than looks right. */
static gboolean
cache_is_usable (QdCanvas            *self,
                 const QdCanvasStyle *style,
                 double               width,
                 double               height,
                 int                  scale,
                 gboolean             whole)
{
  int dx0 = whole ? 0 : self->drawn_x0, dy0 = whole ? 0 : self->drawn_y0;
  int dx1 = whole ? (int) self->cache_width : self->drawn_x1;
  int dy1 = whole ? (int) self->cache_height : self->drawn_y1;
  double ratio, x0, y0, x1, y1;
  /* Rounding in the view's arithmetic must not force a redraw. */
  double slack = 0.5 / self->zoom;

  if (self->cache == NULL || !self->cache_valid || self->cache_scale != scale ||
      memcmp (&self->cache_style, style, sizeof *style) != 0)
    return FALSE;
  ratio = self->zoom / self->cache_zoom;
  if (ratio > CACHE_MAX_UPSCALE || ratio < CACHE_MAX_DOWNSCALE)
    return FALSE;
  /* Only what is drawn of it. */
  x0 = self->cache_origin_x + dx0 / self->cache_zoom;
  y0 = self->cache_origin_y + dy0 / self->cache_zoom;
  x1 = self->cache_origin_x + dx1 / self->cache_zoom;
  y1 = self->cache_origin_y + dy1 / self->cache_zoom;
  return self->origin_x >= x0 - slack && self->origin_y >= y0 - slack &&
         self->origin_x + width / self->zoom <= x1 + slack &&
         self->origin_y + height / self->zoom <= y1 + slack;
}

static gboolean
has_overlays (const QdCanvasRenderOptions *options)
{
  return options->has_rubber_band || options->pending_route != NULL ||
         options->mark_block != NULL || options->mark_link != NULL ||
         options->has_ghost;
}

void
qd_canvas_snapshot (GtkWidget   *widget,
                    GtkSnapshot *snapshot)
{
  QdCanvas *self = QD_CANVAS (widget);
  double width = gtk_widget_get_width (widget);
  double height = gtk_widget_get_height (widget);
  int scale = gtk_widget_get_scale_factor (widget);
  QdCanvasRenderOptions options;
  QdCanvasFeedback feedback;
  QdCanvasStyle style;
  double ratio, x, y;
  cairo_t *cr;

  if (width < 1 || height < 1)
    return;
  if (widget_is_dark (widget))
    qd_canvas_style_init_dark (&style);
  else
    qd_canvas_style_init_light (&style);

  qd_canvas_controller_get_feedback (self->controller, &feedback);
  if (self->cache_damaged)
    {
      self->cache_damaged = FALSE;
      if (!repair_cache (self))
        self->cache_valid = FALSE;
    }
  if (qd_canvas_notes_fingerprint (self) != self->notes_drawn)
    {
      self->notes_drawn = qd_canvas_notes_fingerprint (self);
      self->cache_valid = FALSE;
    }
  if (cache_is_usable (self, &style, width, height, scale, FALSE))
    ;
  else if (cache_is_usable (self, &style, width, height, scale, TRUE))
    {
      /* The view reaches into the margin not drawn yet (zooming out
       * faster than the idle time draws it): draw the strips it needs,
       * and a little more for the next frames. */
      double vx = (self->origin_x - self->cache_origin_x) * self->cache_zoom;
      double vy = (self->origin_y - self->cache_origin_y) * self->cache_zoom;
      double to_cache = self->cache_zoom / self->zoom;

      extend_cache (self, floor (vx) - VIEW_SLACK, floor (vy) - VIEW_SLACK,
                    ceil (vx + width * to_cache) + VIEW_SLACK,
                    ceil (vy + height * to_cache) + VIEW_SLACK);
    }
  else if (!scroll_cache (self, &style, width, height, scale))
    {
      /* Panning needs little margin (the image scrolls), but zooming
       * needs a wide one, to show the image scaled down without empty
       * edges as the zoom goes out (it is drawn in idle time). Drawing
       * after an edit (each frame of a drag) is fastest with little. In
       * the middle of a zoom the drawing leaves out the text, the most
       * costly part of a large diagram seen at a small zoom, and starts
       * from the old image scaled; it is drawn in full when the zoom
       * stops. */
      gboolean zooming = self->cache != NULL && self->cache_valid &&
                         self->cache_zoom != self->zoom;
      double margin = zooming ? MIN (CACHE_MARGIN, MAX (width, height) / 2) : SCROLL_MARGIN;

      update_cache (self, &style, width, height, scale, margin, zooming);
    }

  /* The image, moved and scaled to the view; at the zoom it was drawn
   * at, placed on whole device pixels. */
  ratio = self->zoom / self->cache_zoom;
  x = (self->cache_origin_x - self->origin_x) * self->zoom;
  y = (self->cache_origin_y - self->origin_y) * self->zoom;
  if (qd_canvas_cache_is_crisp (self))
    {
      x = round (x * scale) / scale;
      y = round (y * scale) / scale;
      ratio = 1;
    }
  /* Not a GdkTexture: GTK 4.8's Cairo renderer converts a texture's
   * every pixel through floats on each frame, which costs more than
   * drawing the diagram. A Cairo node records one paint of the image
   * and replays it as a plain copy. */
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_translate (cr, x, y);
  cairo_scale (cr, ratio, ratio);
  cairo_set_source_surface (cr, self->cache, 0, 0);
  cairo_pattern_set_filter (cairo_get_source (cr),
                            ratio == 1 ? CAIRO_FILTER_NEAREST : CAIRO_FILTER_BILINEAR);
  cairo_set_operator (cr, CAIRO_OPERATOR_SOURCE);
  cairo_paint (cr);
  cairo_destroy (cr);

  init_options (self, &options, &style);
  options.skip_diagram = TRUE;
  options.has_rubber_band = feedback.has_rubber_band;
  options.rubber_band = feedback.rubber_band;
  options.pending_route = feedback.pending_route;
  options.pending_bad = feedback.pending_bad;
  options.mark_block = feedback.mark_block;
  options.mark_kind = feedback.mark_kind;
  options.mark_port = feedback.mark_port;
  options.mark_link = feedback.mark_link;
  options.mark_bad = feedback.mark_bad;
  if (feedback.mode == QD_CANVAS_MODE_IDLE && self->hover_block != NULL &&
      qd_canvas_get_system (self) != NULL)
    {
      options.mark_block = qd_system_find_block (qd_canvas_get_system (self), self->hover_block);
      options.mark_kind = self->hover_kind;
      options.mark_port = self->hover_port;
      options.mark_hover = TRUE;
    }
  options.has_ghost = self->has_ghost;
  options.ghost = self->ghost;
  if (has_overlays (&options))
    {
      cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
      qd_canvas_render (cr, qd_canvas_get_system (self), &options, width, height);
      cairo_destroy (cr);
    }
  if (self->overlay_func != NULL && qd_canvas_get_system (self) != NULL)
    {
      cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
      cairo_scale (cr, self->zoom, self->zoom);
      cairo_translate (cr, -self->origin_x, -self->origin_y);
      self->overlay_func (self, cr, qd_canvas_get_system (self), self->overlay_data);
      cairo_destroy (cr);
    }
}

void
qd_canvas_size_allocate (GtkWidget *widget,
                         int        width,
                         int        height,
                         int        baseline)
{
  QdCanvas *self = QD_CANVAS (widget);

  if (self->context_menu != NULL)
    gtk_popover_present (GTK_POPOVER (self->context_menu));
  if (width <= 1 || height <= 1)
    return;
  /* A view nobody has moved since it was fitted stays fitted. */
  if (self->fit_pending ||
      (self->fitted && (width != self->fit_width || height != self->fit_height)))
    qd_canvas_zoom_fit (self);
}

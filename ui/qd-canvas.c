/* qd-canvas.c: the diagram canvas of the QDevs editor
 *
 * The widget is thin: it keeps the view (zoom and the canvas point at its
 * top-left corner), turns GTK input into canvas coordinates for the
 * controller, and draws through the Cairo renderer.
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
 */
#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#include "qd-canvas.h"
#include "qd-canvas-notes.h"
#include "qd-canvas-render.h"

/* How near the pointer must be to pick a port or link, in pixels. */
#define PICK_PIXELS 6.0

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

struct _QdCanvas
{
  GtkWidget           parent_instance;

  QdCanvasController *controller;
  double              zoom;
  double              origin_x, origin_y;   /* canvas point at the top-left */
  gboolean            fit_pending;
  /* The view is the one zoom-to-fit chose, untouched since: a resize
   * fits again, as a document viewer does. */
  gboolean            fitted;
  int                 fit_width, fit_height;

  /* The diagram (background, grid, blocks, links, selection) drawn once
   * into an image at the view's zoom and the screen's scale, a margin
   * wider than the view; each frame shows it moved (and, while zooming,
   * scaled) and draws only the gesture's overlays afresh. Edits and
   * selection changes clear it; the view's changes do not. */
  cairo_surface_t    *cache;
  gboolean            cache_valid;
  double              cache_zoom;
  double              cache_origin_x, cache_origin_y;  /* canvas point at its top-left */
  double              cache_width, cache_height;       /* in widget pixels */
  int                 cache_scale;
  QdCanvasStyle       cache_style;
  gboolean            cache_draft;     /* drawn without text, mid-zoom */
  guint               crisp_id;
  /* The part of the image drawn so far, in widget pixels from its
   * top-left corner: a new image is drawn where the view is at once and
   * around it in an idle callback, a strip at a time, so that no frame
   * pays for the whole margin. */
  int                 drawn_x0, drawn_y0, drawn_x1, drawn_y1;
  guint               fill_id;
  /* The diagram changed since the image was drawn: only the parts the
   * controller reports (and the selection's changes) are drawn again. */
  gboolean            cache_damaged;
  GHashTable         *drawn_selection;  /* the selection keys drawn in it */

  double              pointer_x, pointer_y; /* widget coordinates */
  double              pan_origin_x, pan_origin_y;
  double              drag_start_x, drag_start_y;
  QdNoteDrag          note_drag;            /* a note being dragged */
  double              drag_x, drag_y;       /* the pointer during a drag */
  double              scroll_dx, scroll_dy; /* autoscroll, pixels a frame */
  guint               autoscroll_id;
  double              pinch_zoom;

  GtkGesture         *drag;
  GtkWidget          *context_menu;
  double              context_x, context_y; /* canvas point of the last context click */
  int                 selected_note;        /* a text note of the top level, or -1 */
  guint               notes_drawn;          /* notes_fingerprint() of the image */
  gboolean            hide_params;          /* qd_canvas_set_show_params() */

  /* The port under the pointer while idle: ringed, to say "drag from
   * here to connect". Ids, not pointers: the block may go. */
  char               *hover_block;
  QdCanvasPortKind    hover_kind;
  guint               hover_port;

  /* A palette block dragged over the canvas: where it would land. */
  gboolean            has_ghost;
  QdRect              ghost;

  /* Block id -> short text drawn on the block (run statistics). */
  GHashTable         *badges;
  /* Block id -> what it reported in the last run, for its tooltip. */
  GHashTable         *reported;
  GHashTable         *highlight;   /* block ids with problems */
  QdCanvasOverlayFunc overlay_func; /* qd_canvas_set_overlay() */
  gpointer            overlay_data;
  GHashTable         *link_widths; /* the shown system's vector links */
  gboolean            widths_stale;
};

enum
{
  PROP_0,
  PROP_DOCUMENT,
  PROP_SYSTEM,
  PROP_ZOOM,
  N_PROPS
};

enum
{
  MESSAGE,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (QdCanvas, qd_canvas, GTK_TYPE_WIDGET)

/* The cached diagram */

static void
invalidate_cache (QdCanvas *self)
{
  self->cache_valid = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* Whether the cached image shows the view exactly: the same zoom, and
 * moved by whole device pixels. Otherwise it is scaled or moved by a
 * fraction of a pixel, which blurs it a little. */
static gboolean
cache_is_crisp (QdCanvas *self)
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
  if (self->cache != NULL && !cache_is_crisp (self))
    invalidate_cache (self);
  return G_SOURCE_REMOVE;
}

static gboolean fill_cache (gpointer user_data);

/* The view moved or zoomed. Frames until it stands still show the
 * cached image; then it is drawn again if it is not crisp. @by_user:
 * not by zoom-to-fit, so a resize no longer fits. */
static void
view_changed (QdCanvas *self,
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

/* View */

void
qd_canvas_widget_to_canvas (QdCanvas *self,
                            double    wx,
                            double    wy,
                            double   *cx,
                            double   *cy)
{
  g_return_if_fail (QD_IS_CANVAS (self));

  *cx = self->origin_x + wx / self->zoom;
  *cy = self->origin_y + wy / self->zoom;
}

void
qd_canvas_canvas_to_widget (QdCanvas *self,
                            double    cx,
                            double    cy,
                            double   *wx,
                            double   *wy)
{
  g_return_if_fail (QD_IS_CANVAS (self));

  *wx = (cx - self->origin_x) * self->zoom;
  *wy = (cy - self->origin_y) * self->zoom;
}

void
qd_canvas_set_zoom (QdCanvas *self,
                    double    zoom,
                    double    anchor_x,
                    double    anchor_y)
{
  double cx, cy;

  g_return_if_fail (QD_IS_CANVAS (self));

  zoom = CLAMP (zoom, QD_CANVAS_ZOOM_MIN, QD_CANVAS_ZOOM_MAX);
  qd_canvas_widget_to_canvas (self, anchor_x, anchor_y, &cx, &cy);
  self->zoom = zoom;
  self->origin_x = cx - anchor_x / zoom;
  self->origin_y = cy - anchor_y / zoom;
  qd_canvas_controller_set_tolerance (self->controller, PICK_PIXELS / zoom);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
  view_changed (self, TRUE);
}

double
qd_canvas_get_zoom (QdCanvas *self)
{
  g_return_val_if_fail (QD_IS_CANVAS (self), 1.0);

  return self->zoom;
}

void
qd_canvas_zoom_fit (QdCanvas *self)
{
  QdSystem *system;
  QdRect bounds;
  double width, height, zoom;
  double margin = 32;

  g_return_if_fail (QD_IS_CANVAS (self));

  width = gtk_widget_get_width (GTK_WIDGET (self));
  height = gtk_widget_get_height (GTK_WIDGET (self));
  if (width <= 1 || height <= 1)
    {
      /* Not laid out yet: fit when the size is known. */
      self->fit_pending = TRUE;
      return;
    }
  self->fit_pending = FALSE;

  system = qd_canvas_get_system (self);
  if (system == NULL || !qd_canvas_system_bounds (system, &bounds))
    {
      self->zoom = 1.0;
      self->origin_x = -margin;
      self->origin_y = -margin;
    }
  else
    {
      /* Include the port marks and link stubs that stick out. */
      bounds.x -= 12;
      bounds.y -= 12;
      bounds.width += 24;
      bounds.height += 24;
      zoom = MIN ((width - 2 * margin) / MAX (bounds.width, 1),
                  (height - 2 * margin) / MAX (bounds.height, 1));
      /* A small diagram is shown at a comfortable size, not blown up. */
      zoom = CLAMP (zoom, QD_CANVAS_ZOOM_MIN, 1.5);
      self->zoom = zoom;
      self->origin_x = bounds.x + bounds.width / 2 - width / 2 / zoom;
      self->origin_y = bounds.y + bounds.height / 2 - height / 2 / zoom;
    }
  self->fitted = TRUE;
  self->fit_width = width;
  self->fit_height = height;
  /* One step, not a gesture: the next frame is drawn crisp. */
  self->cache_valid = FALSE;
  qd_canvas_controller_set_tolerance (self->controller, PICK_PIXELS / self->zoom);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
  view_changed (self, FALSE);
}

/* A zoom in one step (a button, a key): drawn crisp at once, where the
 * steps of a gesture or a wheel show the image scaled until they stop. */
static void
zoom_step (QdCanvas *self,
           double    zoom)
{
  qd_canvas_set_zoom (self, zoom,
                      gtk_widget_get_width (GTK_WIDGET (self)) / 2.0,
                      gtk_widget_get_height (GTK_WIDGET (self)) / 2.0);
  if (!cache_is_crisp (self))
    self->cache_valid = FALSE;
}

void
qd_canvas_zoom_reset (QdCanvas *self)
{
  g_return_if_fail (QD_IS_CANVAS (self));

  zoom_step (self, 1.0);
}

/* Document and system */

void
qd_canvas_set_document (QdCanvas   *self,
                        QdDocument *document)
{
  g_return_if_fail (QD_IS_CANVAS (self));

  if (qd_canvas_controller_get_document (self->controller) == document)
    return;
  qd_canvas_controller_set_document (self->controller, document);
  invalidate_cache (self);
  qd_canvas_zoom_fit (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DOCUMENT]);
}

QdDocument *
qd_canvas_get_document (QdCanvas *self)
{
  g_return_val_if_fail (QD_IS_CANVAS (self), NULL);

  return qd_canvas_controller_get_document (self->controller);
}

void
qd_canvas_set_system (QdCanvas *self,
                      QdSystem *system)
{
  g_return_if_fail (QD_IS_CANVAS (self));

  qd_canvas_controller_set_system (self->controller, system);
}

QdSystem *
qd_canvas_get_system (QdCanvas *self)
{
  g_return_val_if_fail (QD_IS_CANVAS (self), NULL);

  return qd_canvas_controller_get_system (self->controller);
}

QdCanvasController *
qd_canvas_get_controller (QdCanvas *self)
{
  g_return_val_if_fail (QD_IS_CANVAS (self), NULL);

  return self->controller;
}

void
qd_canvas_reveal_block (QdCanvas *self,
                        QdBlock  *block)
{
  double width, height, x0, y0, x1, y1;
  double margin = 40;

  g_return_if_fail (QD_IS_CANVAS (self));
  g_return_if_fail (block != NULL && block->parent != NULL);

  if (qd_canvas_get_system (self) != block->parent)
    qd_canvas_set_system (self, block->parent);
  qd_canvas_controller_select (self->controller, block->id, FALSE);

  width = gtk_widget_get_width (GTK_WIDGET (self));
  height = gtk_widget_get_height (GTK_WIDGET (self));
  if (width <= 1 || height <= 1)
    return;
  /* Leave the view alone when the block (and its name) is in it; else
   * centre the block. */
  qd_canvas_canvas_to_widget (self, block->x, block->y, &x0, &y0);
  qd_canvas_canvas_to_widget (self, block->x + block->width,
                              block->y + block->height + 16, &x1, &y1);
  if (x0 >= 0 && y0 >= 0 && x1 <= width && y1 <= height)
    return;
  if (x1 - x0 > width - margin || y1 - y0 > height - margin)
    self->zoom = CLAMP (MIN ((width - margin) / (block->width + 20),
                             (height - margin) / (block->height + 36)),
                        QD_CANVAS_ZOOM_MIN, self->zoom);
  self->origin_x = block->x + block->width / 2 - width / 2 / self->zoom;
  self->origin_y = block->y + block->height / 2 - height / 2 / self->zoom;
  qd_canvas_controller_set_tolerance (self->controller, PICK_PIXELS / self->zoom);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_ZOOM]);
  view_changed (self, TRUE);
  if (!cache_is_crisp (self))
    self->cache_valid = FALSE;
}

QdBlock *
qd_canvas_insert_block (QdCanvas   *self,
                        const char *type)
{
  double cx, cy;

  g_return_val_if_fail (QD_IS_CANVAS (self), NULL);

  qd_canvas_widget_to_canvas (self,
                              gtk_widget_get_width (GTK_WIDGET (self)) / 2.0,
                              gtk_widget_get_height (GTK_WIDGET (self)) / 2.0,
                              &cx, &cy);
  gtk_widget_grab_focus (GTK_WIDGET (self));
  return qd_canvas_controller_add_block (self->controller, type, cx, cy);
}

/* Controller signals */

static void
on_invalidate (QdCanvas *self,
               gboolean  diagram)
{
  if (diagram)
    {
      self->cache_damaged = TRUE;
      /* An edit may change what the links carry. */
      self->widths_stale = TRUE;
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static void
on_message (QdCanvas   *self,
            const char *text)
{
  g_signal_emit (self, signals[MESSAGE], 0, text);
}

static void
update_actions (QdCanvas *self)
{
  QdCanvasController *c = self->controller;
  gboolean has_doc = qd_canvas_controller_get_document (c) != NULL;
  g_autoptr(GPtrArray) blocks = qd_canvas_controller_get_selected_blocks (c);
  gboolean any = g_hash_table_size (qd_canvas_controller_get_selection (c)) > 0;
  gboolean some_blocks = blocks->len > 0;
  gboolean subsystem = FALSE;
  QdSystem *system = qd_canvas_controller_get_system (c);

  for (guint i = 0; i < blocks->len; i++)
    if (((QdBlock *) g_ptr_array_index (blocks, i))->inner != NULL)
      subsystem = TRUE;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.delete",
                                 any || self->selected_note >= 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.add-note",
                                 has_doc && system != NULL && system->owner == NULL);
  /* Links alone are copied too: Paste joins the same blocks again. */
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.cut", any);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.copy", any);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.duplicate", some_blocks);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.paste", has_doc);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.rotate", some_blocks);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.flip", some_blocks);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.group", some_blocks);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.ungroup", subsystem);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.align", blocks->len > 1);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.select-all", has_doc);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.go-up",
                                 system != NULL && system->owner != NULL);
}

static void
on_selection_changed (QdCanvas *self)
{
  update_actions (self);
}

static void
on_system_changed (QdCanvas *self)
{
  self->widths_stale = TRUE;
  update_actions (self);
  qd_canvas_zoom_fit (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SYSTEM]);
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
static GPtrArray *
qd_canvas_get_notes (QdCanvas *self)
{
  QdDocument *document = qd_canvas_controller_get_document (self->controller);
  QdSystem *system = qd_canvas_controller_get_system (self->controller);

  if (document == NULL || system == NULL || system->owner != NULL)
    return NULL;
  return qd_document_get_notes (document);
}

static void
select_note (QdCanvas *self,
             int       index)
{
  if (self->selected_note == index)
    return;
  self->selected_note = index;
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "canvas.delete", TRUE);
  invalidate_cache (self);
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

      for (guint t = 0; t < link->targets->len; t++)
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
static guint
notes_fingerprint (QdCanvas *self)
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

static void
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
  if (notes_fingerprint (self) != self->notes_drawn)
    {
      self->notes_drawn = notes_fingerprint (self);
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
  if (cache_is_crisp (self))
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

static void
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

/* Input */

static QdCanvasModifiers
current_modifiers (GtkEventController *controller)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (controller);
  QdCanvasModifiers modifiers = QD_CANVAS_MODIFIER_NONE;

  if (state & GDK_SHIFT_MASK)
    modifiers |= QD_CANVAS_MODIFIER_SHIFT;
  if (state & GDK_CONTROL_MASK)
    modifiers |= QD_CANVAS_MODIFIER_CONTROL;
  return modifiers;
}

/* Dragging near an edge scrolls the view, so a block can be moved or a
 * link drawn to a place outside it. */
#define AUTOSCROLL_EDGE 24.0

static gboolean
autoscroll_tick (GtkWidget     *widget,
                 GdkFrameClock *clock,
                 gpointer       user_data)
{
  QdCanvas *self = QD_CANVAS (widget);
  QdCanvasMode mode = qd_canvas_controller_get_mode (self->controller);
  double cx, cy;

  if (mode == QD_CANVAS_MODE_IDLE || mode == QD_CANVAS_MODE_PRESSED ||
      (self->scroll_dx == 0 && self->scroll_dy == 0))
    {
      self->autoscroll_id = 0;
      return G_SOURCE_REMOVE;
    }
  self->origin_x += self->scroll_dx / self->zoom;
  self->origin_y += self->scroll_dy / self->zoom;
  qd_canvas_widget_to_canvas (self, self->drag_x, self->drag_y, &cx, &cy);
  qd_canvas_controller_drag (self->controller, cx, cy);
  view_changed (self, TRUE);
  return G_SOURCE_CONTINUE;
}

static double
edge_speed (double position,
            double size)
{
  /* Faster the further into the edge band (or past it). */
  if (position < AUTOSCROLL_EDGE)
    return -MIN (AUTOSCROLL_EDGE - position, 3 * AUTOSCROLL_EDGE) / 2;
  if (position > size - AUTOSCROLL_EDGE)
    return MIN (position - (size - AUTOSCROLL_EDGE), 3 * AUTOSCROLL_EDGE) / 2;
  return 0;
}

static void
update_autoscroll (QdCanvas *self)
{
  QdCanvasMode mode = qd_canvas_controller_get_mode (self->controller);
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double height = gtk_widget_get_height (GTK_WIDGET (self));

  if (mode == QD_CANVAS_MODE_IDLE || mode == QD_CANVAS_MODE_PRESSED)
    self->scroll_dx = self->scroll_dy = 0;
  else
    {
      self->scroll_dx = edge_speed (self->drag_x, width);
      self->scroll_dy = edge_speed (self->drag_y, height);
    }
  if ((self->scroll_dx != 0 || self->scroll_dy != 0) && self->autoscroll_id == 0)
    self->autoscroll_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), autoscroll_tick,
                                                        NULL, NULL);
}

static void
stop_autoscroll (QdCanvas *self)
{
  self->scroll_dx = self->scroll_dy = 0;
  if (self->autoscroll_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->autoscroll_id);
      self->autoscroll_id = 0;
    }
}

static void
on_drag_begin (GtkGestureDrag *gesture,
               double          x,
               double          y,
               QdCanvas       *self)
{
  double cx, cy;

  gtk_widget_grab_focus (GTK_WIDGET (self));
  self->drag_start_x = x;
  self->drag_start_y = y;
  qd_canvas_widget_to_canvas (self, x, y, &cx, &cy);
  /* Notes are drawn over the blocks: a press on one takes it. */
  if (qd_canvas_notes_drag_begin (&self->note_drag, qd_canvas_get_document (self),
                                  qd_canvas_get_notes (self), cx, cy))
    return;
  qd_canvas_controller_press (self->controller, cx, cy,
                              current_modifiers (GTK_EVENT_CONTROLLER (gesture)));
}

static void
on_drag_update (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                QdCanvas       *self)
{
  double cx, cy;

  self->drag_x = self->drag_start_x + dx;
  self->drag_y = self->drag_start_y + dy;
  qd_canvas_widget_to_canvas (self, self->drag_x, self->drag_y, &cx, &cy);
  if (self->note_drag.document != NULL)
    {
      qd_canvas_notes_drag_update (&self->note_drag, cx, cy);
      return;
    }
  qd_canvas_controller_drag (self->controller, cx, cy);
  update_autoscroll (self);
}

static void
on_drag_end (GtkGestureDrag *gesture,
             double          dx,
             double          dy,
             QdCanvas       *self)
{
  double cx, cy;

  stop_autoscroll (self);
  qd_canvas_widget_to_canvas (self, self->drag_start_x + dx, self->drag_start_y + dy,
                              &cx, &cy);
  if (self->note_drag.document != NULL)
    {
      qd_canvas_notes_drag_update (&self->note_drag, cx, cy);
      qd_canvas_notes_drag_end (&self->note_drag);
      return;
    }
  qd_canvas_controller_release (self->controller, cx, cy);
}

static void
on_drag_cancel (GtkGesture       *gesture,
                GdkEventSequence *sequence,
                QdCanvas         *self)
{
  stop_autoscroll (self);
  qd_canvas_notes_drag_end (&self->note_drag);
  qd_canvas_controller_cancel (self->controller);
}

static void
on_click_pressed (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  QdCanvas        *self)
{
  double cx, cy;
  int note;

  qd_canvas_widget_to_canvas (self, x, y, &cx, &cy);
  /* A note is selected by a click and edited by a double click. */
  note = qd_canvas_note_at (qd_canvas_get_notes (self), cx, cy);
  select_note (self, note);
  if (n_press != 2)
    return;
  if (note >= 0)
    qd_canvas_notes_edit (GTK_WIDGET (self), qd_canvas_get_document (self), (guint) note);
  else
    qd_canvas_controller_activate (self->controller, cx, cy);
}

static void
on_pan_begin (GtkGestureDrag *gesture,
              double          x,
              double          y,
              QdCanvas       *self)
{
  self->pan_origin_x = self->origin_x;
  self->pan_origin_y = self->origin_y;
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), "grabbing");
}

static void
on_pan_update (GtkGestureDrag *gesture,
               double          dx,
               double          dy,
               QdCanvas       *self)
{
  self->origin_x = self->pan_origin_x - dx / self->zoom;
  self->origin_y = self->pan_origin_y - dy / self->zoom;
  view_changed (self, TRUE);
}

static void
on_pan_end (GtkGestureDrag *gesture,
            double          dx,
            double          dy,
            QdCanvas       *self)
{
  gtk_widget_set_cursor (GTK_WIDGET (self), NULL);
}

static void
popup_context_menu (QdCanvas *self,
                    double    x,
                    double    y)
{
  gtk_popover_set_pointing_to (GTK_POPOVER (self->context_menu),
                               &(GdkRectangle) { (int) x, (int) y, 1, 1 });
  gtk_popover_popup (GTK_POPOVER (self->context_menu));
  /* A tooltip shown before the click would stay over the menu: ask
   * again, and the open menu says no. */
  gtk_widget_trigger_tooltip_query (GTK_WIDGET (self));
}

/* The menu closed (an item chosen, Escape, a click outside): the
 * keyboard comes back to the canvas if it was left in the menu. GTK
 * leaves it on the item of a submenu (Align), hidden with the menu, so
 * that no shortcut would reach the canvas until it is clicked. An item
 * that sends the keyboard elsewhere (Rename, Properties) does so after
 * this. */
static void
on_context_menu_closed (QdCanvas *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkWidget *focus = root != NULL ? gtk_root_get_focus (root) : NULL;

  /* Not while the canvas goes (dispose takes the menu away first). */
  if (root != NULL && self->context_menu != NULL
      && (focus == NULL || gtk_widget_is_ancestor (focus, self->context_menu)))
    gtk_widget_grab_focus (GTK_WIDGET (self));
}

/* The Menu key and Shift+F10: the context menu of the selection, from
 * the keyboard. */
static void
popup_context_menu_from_keyboard (QdCanvas *self)
{
  g_autoptr(GPtrArray) blocks = qd_canvas_controller_get_selected_blocks (self->controller);
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double height = gtk_widget_get_height (GTK_WIDGET (self));
  double x = width / 2, y = height / 2;

  if (qd_canvas_get_system (self) == NULL)
    return;
  if (blocks->len > 0)
    {
      QdBlock *block = g_ptr_array_index (blocks, 0);

      qd_canvas_canvas_to_widget (self, block->x + block->width / 2,
                                  block->y + block->height / 2, &x, &y);
    }
  popup_context_menu (self, CLAMP (x, 0, MAX (width - 1, 0)), CLAMP (y, 0, MAX (height - 1, 0)));
}

static void
on_context_pressed (GtkGestureClick *gesture,
                    int              n_press,
                    double           x,
                    double           y,
                    QdCanvas        *self)
{
  QdSystem *system = qd_canvas_get_system (self);
  double cx, cy;

  if (system == NULL)
    return;
  gtk_widget_grab_focus (GTK_WIDGET (self));
  qd_canvas_widget_to_canvas (self, x, y, &cx, &cy);
  /* The menu acts on what was clicked: a block, a link, or the model
   * itself over empty space. */
  qd_canvas_controller_context_press (self->controller, cx, cy);
  self->context_x = cx;
  self->context_y = cy;
  select_note (self, qd_canvas_note_at (qd_canvas_get_notes (self), cx, cy));

  popup_context_menu (self, x, y);
}

static void
on_leave (GtkEventControllerMotion *motion,
          QdCanvas                 *self)
{
  if (self->hover_block != NULL)
    {
      g_clear_pointer (&self->hover_block, g_free);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }
}

/* Tooltips give a block's documentation, which may be a paragraph:
 * wrapped at a width that reads well and fits any screen. */
#define TOOLTIP_WIDTH_CHARS 60

GtkWidget *
qd_canvas_create_tooltip (QdCanvas *self,
                          double    x,
                          double    y)
{
  const QdBlockType *type;
  g_autofree char *text = NULL;
  GtkWidget *label;
  double cx, cy;
  QdCanvasHit hit;

  g_return_val_if_fail (QD_IS_CANVAS (self), NULL);

  /* Over the open context menu a tooltip would hide its items. */
  if (qd_canvas_get_system (self) == NULL ||
      gtk_widget_get_visible (self->context_menu) ||
      qd_canvas_controller_get_mode (self->controller) != QD_CANVAS_MODE_IDLE)
    return NULL;
  qd_canvas_widget_to_canvas (self, x, y, &cx, &cy);
  hit = qd_canvas_controller_hit_test (self->controller, cx, cy);
  if (hit.kind != QD_CANVAS_HIT_BLOCK && hit.kind != QD_CANVAS_HIT_PORT)
    return NULL;
  type = qd_block_get_type_info (hit.block);

  /* What it is and, on a port, which one: enough to wire without
   * opening the documentation. */
  if (hit.kind == QD_CANVAS_HIT_PORT)
    text = g_markup_printf_escaped (hit.port_kind == QD_CANVAS_PORT_INPUT
                                    ? _("<b>%s</b>: input %u") : _("<b>%s</b>: output %u"),
                                    hit.block->name, hit.port + 1);
  else if (type != NULL)
    text = g_markup_printf_escaped ("<b>%s</b> (%s)\n%s", hit.block->name, _(type->name),
                                    type->doc != NULL ? _(type->doc) : "");
  else
    text = g_markup_printf_escaped (_("<b>%s</b>: unknown block type “%s”"),
                                    hit.block->name, hit.block->type);
  /* After a run, what the block reported about it. */
  if (hit.kind == QD_CANVAS_HIT_BLOCK && self->reported != NULL
      && g_hash_table_contains (self->reported, hit.block->id))
    {
      g_autofree char *plain = g_steal_pointer (&text);
      /* TRANSLATORS: tooltip heading over a block's own statistics. */
      g_autofree char *results = g_markup_printf_escaped (_("<b>Last run</b>\n%s"),
                                                          (const char *) g_hash_table_lookup (self->reported,
                                                                                              hit.block->id));

      text = g_strconcat (plain, "\n\n", results, NULL);
    }

  label = gtk_label_new (NULL);
  gtk_label_set_markup (GTK_LABEL (label), text);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), TOOLTIP_WIDTH_CHARS);
  gtk_label_set_xalign (GTK_LABEL (label), 0);
  return label;
}

static gboolean
on_query_tooltip (GtkWidget  *widget,
                  int         x,
                  int         y,
                  gboolean    keyboard,
                  GtkTooltip *tooltip,
                  QdCanvas   *self)
{
  GtkWidget *label;

  if (keyboard)
    return FALSE;
  label = qd_canvas_create_tooltip (self, x, y);
  if (label == NULL)
    return FALSE;
  gtk_tooltip_set_custom (tooltip, label);
  return TRUE;
}

static void
on_motion (GtkEventControllerMotion *motion,
           double                    x,
           double                    y,
           QdCanvas                 *self)
{
  QdSystem *system = qd_canvas_get_system (self);
  const char *cursor = NULL;
  double cx, cy;
  QdCanvasHit hit;

  self->pointer_x = x;
  self->pointer_y = y;
  if (system == NULL || qd_canvas_controller_get_mode (self->controller) != QD_CANVAS_MODE_IDLE)
    {
      g_clear_pointer (&self->hover_block, g_free);
      return;
    }

  /* The cursor says what a press here would do. */
  qd_canvas_widget_to_canvas (self, x, y, &cx, &cy);
  hit = qd_canvas_controller_hit_test (self->controller, cx, cy);
  if (hit.kind == QD_CANVAS_HIT_PORT)
    {
      if (g_strcmp0 (self->hover_block, hit.block->id) != 0 ||
          self->hover_kind != hit.port_kind || self->hover_port != hit.port)
        {
          g_free (self->hover_block);
          self->hover_block = g_strdup (hit.block->id);
          self->hover_kind = hit.port_kind;
          self->hover_port = hit.port;
          gtk_widget_queue_draw (GTK_WIDGET (self));
        }
    }
  else if (self->hover_block != NULL)
    {
      g_clear_pointer (&self->hover_block, g_free);
      gtk_widget_queue_draw (GTK_WIDGET (self));
    }

  switch (hit.kind)
    {
    case QD_CANVAS_HIT_PORT:
      cursor = "crosshair";
      break;
    case QD_CANVAS_HIT_BEND:
      cursor = "move";
      break;
    case QD_CANVAS_HIT_LINK:
      {
        g_autoptr(GArray) route = qd_canvas_controller_get_route (self->controller,
                                                                  hit.link, hit.target);

        if (hit.index + 1 < route->len)
          {
            QdPoint a = g_array_index (route, QdPoint, hit.index);
            QdPoint b = g_array_index (route, QdPoint, hit.index + 1);

            cursor = fabs (a.y - b.y) < 1e-6 ? "row-resize" : "col-resize";
          }
      }
      break;
    case QD_CANVAS_HIT_BLOCK:
    case QD_CANVAS_HIT_NONE:
    default:
      break;
    }
  gtk_widget_set_cursor_from_name (GTK_WIDGET (self), cursor);
}

static gboolean
on_scroll (GtkEventControllerScroll *scroll,
           double                    dx,
           double                    dy,
           QdCanvas                 *self)
{
  GdkModifierType state = gtk_event_controller_get_current_event_state (GTK_EVENT_CONTROLLER (scroll));
  double step = 1.0;

  if (gtk_event_controller_scroll_get_unit (scroll) == GDK_SCROLL_UNIT_WHEEL)
    step = 40.0;

  if (state & GDK_CONTROL_MASK)
    {
      /* Zoom around the pointer: the point under it stays under it. */
      double factor = pow (1.1, -dy * (step > 1 ? 1.0 : 0.1));

      qd_canvas_set_zoom (self, self->zoom * factor, self->pointer_x, self->pointer_y);
      return TRUE;
    }
  if (state & GDK_SHIFT_MASK && dx == 0)
    {
      dx = dy;
      dy = 0;
    }
  self->origin_x += dx * step / self->zoom;
  self->origin_y += dy * step / self->zoom;
  view_changed (self, TRUE);
  return TRUE;
}

static void
on_pinch_begin (GtkGesture       *gesture,
                GdkEventSequence *sequence,
                QdCanvas         *self)
{
  self->pinch_zoom = self->zoom;
}

static void
on_pinch_scale_changed (GtkGestureZoom *gesture,
                        double          scale,
                        QdCanvas       *self)
{
  double x, y;

  if (!gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &x, &y))
    {
      x = gtk_widget_get_width (GTK_WIDGET (self)) / 2.0;
      y = gtk_widget_get_height (GTK_WIDGET (self)) / 2.0;
    }
  qd_canvas_set_zoom (self, self->pinch_zoom * scale, x, y);
}

static GdkDragAction
on_drop_motion (GtkDropTarget *target,
                double         x,
                double         y,
                QdCanvas      *self)
{
  const GValue *value = gtk_drop_target_get_value (target);
  const char *type = NULL;
  double cx, cy, w, h;

  if (value != NULL && G_VALUE_HOLDS_STRING (value))
    type = g_value_get_string (value);
  if (type == NULL || qd_registry_lookup (type) == NULL ||
      qd_canvas_get_system (self) == NULL)
    {
      self->has_ghost = FALSE;
      gtk_widget_queue_draw (GTK_WIDGET (self));
      return 0;
    }

  /* The size the drop will give it. */
  qd_canvas_default_block_size (type, &w, &h);
  qd_canvas_widget_to_canvas (self, x, y, &cx, &cy);
  self->ghost.width = w;
  self->ghost.height = h;
  self->ghost.x = qd_canvas_snap (cx - w / 2);
  self->ghost.y = qd_canvas_snap (cy - h / 2);
  self->has_ghost = TRUE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return GDK_ACTION_COPY;
}

static void
on_drop_leave (GtkDropTarget *target,
               QdCanvas      *self)
{
  self->has_ghost = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
on_drop (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         QdCanvas      *self)
{
  const char *type;
  double cx, cy;

  self->has_ghost = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  if (!G_VALUE_HOLDS_STRING (value) || qd_canvas_get_system (self) == NULL)
    return FALSE;
  type = g_value_get_string (value);
  if (type == NULL || qd_registry_lookup (type) == NULL)
    return FALSE;
  qd_canvas_widget_to_canvas (self, x, y, &cx, &cy);
  gtk_widget_grab_focus (GTK_WIDGET (self));
  return qd_canvas_controller_add_block (self->controller, type, cx, cy) != NULL;
}

/* Actions */

static void
clipboard_copy (QdCanvas *self)
{
  g_autofree char *text = qd_canvas_controller_copy (self->controller);

  if (text != NULL)
    gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
}

static void
on_clipboard_text (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(QdCanvas) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = gdk_clipboard_read_text_finish (GDK_CLIPBOARD (source), result, &error);

  if (text == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_signal_emit (self, signals[MESSAGE], 0,
                       _("clipboard: there is no diagram text to paste; copy some blocks first"));
      return;
    }
  if (!qd_canvas_controller_paste (self->controller, text, &error))
    g_signal_emit (self, signals[MESSAGE], 0, error->message);
}

static void
action_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  QdCanvas *self = QD_CANVAS (widget);
  QdCanvasController *c = self->controller;
  const char *name = action_name + strlen ("canvas.");

  if (g_str_equal (name, "select-all"))
    qd_canvas_controller_select_all (c);
  else if (g_str_equal (name, "delete") && self->selected_note >= 0)
    {
      qd_document_remove_note (qd_canvas_get_document (self), (guint) self->selected_note);
      select_note (self, -1);
    }
  else if (g_str_equal (name, "delete"))
    qd_canvas_controller_delete_selection (c);
  else if (g_str_equal (name, "add-note"))
    {
      QdDocument *document = qd_canvas_get_document (self);
      guint index = qd_document_add_note (document, self->context_x, self->context_y,
                                          _("Note"));

      select_note (self, (int) index);
      qd_canvas_notes_edit (widget, document, index);
    }
  else if (g_str_equal (name, "copy"))
    clipboard_copy (self);
  else if (g_str_equal (name, "cut"))
    {
      clipboard_copy (self);
      qd_canvas_controller_delete_selection (c);
    }
  else if (g_str_equal (name, "paste"))
    gdk_clipboard_read_text_async (gtk_widget_get_clipboard (widget), NULL,
                                   on_clipboard_text, g_object_ref (self));
  else if (g_str_equal (name, "duplicate"))
    qd_canvas_controller_duplicate (c);
  else if (g_str_equal (name, "rotate"))
    qd_canvas_controller_rotate_selection (c);
  else if (g_str_equal (name, "flip"))
    qd_canvas_controller_flip_selection (c);
  else if (g_str_equal (name, "group"))
    qd_canvas_controller_group (c);
  else if (g_str_equal (name, "ungroup"))
    qd_canvas_controller_ungroup (c);
  else if (g_str_equal (name, "zoom-in"))
    zoom_step (self, self->zoom * 1.25);
  else if (g_str_equal (name, "zoom-out"))
    zoom_step (self, self->zoom / 1.25);
  else if (g_str_equal (name, "zoom-fit"))
    qd_canvas_zoom_fit (self);
  else if (g_str_equal (name, "context-menu"))
    popup_context_menu_from_keyboard (self);
  else if (g_str_equal (name, "zoom-100"))
    qd_canvas_zoom_reset (self);
  else if (g_str_equal (name, "go-up"))
    {
      QdSystem *system = qd_canvas_get_system (self);

      if (system != NULL && system->owner != NULL)
        qd_canvas_set_system (self, system->owner->parent);
    }
  else if (g_str_equal (name, "align"))
    {
      const char *how = g_variant_get_string (parameter, NULL);
      static const struct { const char *name; QdCanvasAlign align; } aligns[] = {
        { "left", QD_CANVAS_ALIGN_LEFT },
        { "right", QD_CANVAS_ALIGN_RIGHT },
        { "top", QD_CANVAS_ALIGN_TOP },
        { "bottom", QD_CANVAS_ALIGN_BOTTOM },
        { "center", QD_CANVAS_ALIGN_CENTER },
        { "middle", QD_CANVAS_ALIGN_MIDDLE },
      };

      for (guint i = 0; i < G_N_ELEMENTS (aligns); i++)
        if (g_str_equal (how, aligns[i].name))
          qd_canvas_controller_align_selection (c, aligns[i].align);
    }
}

static gboolean
nudge_shortcut (GtkWidget *widget,
                GVariant  *args,
                gpointer   user_data)
{
  QdCanvas *self = QD_CANVAS (widget);
  double dx, dy;
  gboolean snap;

  g_variant_get (args, "(ddb)", &dx, &dy, &snap);
  qd_canvas_controller_nudge (self->controller, dx, dy, snap);
  return TRUE;
}

static gboolean
escape_shortcut (GtkWidget *widget,
                 GVariant  *args,
                 gpointer   user_data)
{
  QdCanvas *self = QD_CANVAS (widget);

  if (!qd_canvas_cancel_gesture (self))
    qd_canvas_controller_clear_selection (self->controller);
  return TRUE;
}

/* Takes back the drag in progress, if any (Escape, or an undo with the
 * button still down): what it did so far is undone and the rest of it
 * is ignored. Returns whether there was one. */
gboolean
qd_canvas_cancel_gesture (QdCanvas *self)
{
  g_return_val_if_fail (QD_IS_CANVAS (self), FALSE);

  if (qd_canvas_controller_get_mode (self->controller) == QD_CANVAS_MODE_IDLE)
    return FALSE;
  gtk_event_controller_reset (GTK_EVENT_CONTROLLER (self->drag));
  qd_canvas_controller_cancel (self->controller);
  return TRUE;
}

gboolean
qd_canvas_is_settled (QdCanvas *self)
{
  g_return_val_if_fail (QD_IS_CANVAS (self), FALSE);

  return self->crisp_id == 0 && self->fill_id == 0;
}

static GMenuModel *
create_context_menu_model (void)
{
  GMenu *menu = g_menu_new ();
  GMenu *section;
  GMenu *align;

  section = g_menu_new ();
  g_menu_append (section, _("Cu_t"), "canvas.cut");
  g_menu_append (section, _("_Copy"), "canvas.copy");
  g_menu_append (section, _("_Paste"), "canvas.paste");
  g_menu_append (section, _("_Duplicate"), "canvas.duplicate");
  g_menu_append (section, _("De_lete"), "canvas.delete");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_object_unref (section);

  section = g_menu_new ();
  g_menu_append (section, _("_Rotate"), "canvas.rotate");
  g_menu_append (section, _("_Flip"), "canvas.flip");
  align = g_menu_new ();
  g_menu_append (align, _("_Left"), "canvas.align::left");
  g_menu_append (align, _("_Center"), "canvas.align::center");
  g_menu_append (align, _("_Right"), "canvas.align::right");
  g_menu_append (align, _("_Top"), "canvas.align::top");
  g_menu_append (align, _("_Middle"), "canvas.align::middle");
  g_menu_append (align, _("_Bottom"), "canvas.align::bottom");
  g_menu_append_submenu (section, _("_Align"), G_MENU_MODEL (align));
  g_object_unref (align);
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_object_unref (section);

  section = g_menu_new ();
  g_menu_append (section, _("Create _Subsystem"), "canvas.group");
  g_menu_append (section, _("_Ungroup"), "canvas.ungroup");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_object_unref (section);

  section = g_menu_new ();
  g_menu_append (section, _("Add _Note"), "canvas.add-note");
  g_menu_append (section, _("Select _All"), "canvas.select-all");
  g_menu_append (section, _("_Zoom to Fit"), "canvas.zoom-fit");
  g_menu_append_section (menu, NULL, G_MENU_MODEL (section));
  g_object_unref (section);

  return G_MENU_MODEL (menu);
}

/* GObject */

static void
qd_canvas_dispose (GObject *object)
{
  QdCanvas *self = QD_CANVAS (object);

  g_clear_pointer (&self->context_menu, gtk_widget_unparent);
  g_clear_pointer (&self->hover_block, g_free);
  qd_canvas_notes_drag_end (&self->note_drag);
  g_clear_pointer (&self->badges, g_hash_table_unref);
  g_clear_pointer (&self->reported, g_hash_table_unref);
  g_clear_pointer (&self->highlight, g_hash_table_unref);
  g_clear_pointer (&self->link_widths, g_hash_table_unref);
  g_clear_pointer (&self->cache, cairo_surface_destroy);
  g_clear_pointer (&self->drawn_selection, g_hash_table_unref);
  g_clear_handle_id (&self->crisp_id, g_source_remove);
  g_clear_handle_id (&self->fill_id, g_source_remove);
  stop_autoscroll (self);
  if (self->controller != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->controller, self);
      qd_canvas_controller_set_document (self->controller, NULL);
    }
  g_clear_object (&self->controller);

  G_OBJECT_CLASS (qd_canvas_parent_class)->dispose (object);
}

static void
qd_canvas_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  QdCanvas *self = QD_CANVAS (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      g_value_set_object (value, qd_canvas_get_document (self));
      break;
    case PROP_SYSTEM:
      g_value_set_pointer (value, qd_canvas_get_system (self));
      break;
    case PROP_ZOOM:
      g_value_set_double (value, self->zoom);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
qd_canvas_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  QdCanvas *self = QD_CANVAS (object);

  switch (prop_id)
    {
    case PROP_DOCUMENT:
      qd_canvas_set_document (self, g_value_get_object (value));
      break;
    case PROP_ZOOM:
      qd_canvas_set_zoom (self, g_value_get_double (value),
                          gtk_widget_get_width (GTK_WIDGET (self)) / 2.0,
                          gtk_widget_get_height (GTK_WIDGET (self)) / 2.0);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
add_binding_action (GtkWidgetClass  *widget_class,
                    guint            keyval,
                    GdkModifierType  mods,
                    const char      *action)
{
  gtk_widget_class_add_binding_action (widget_class, keyval, mods, action, NULL);
}

static void
qd_canvas_class_init (QdCanvasClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  static const char *const plain_actions[] = {
    "canvas.select-all", "canvas.delete", "canvas.cut", "canvas.copy",
    "canvas.paste", "canvas.duplicate", "canvas.rotate", "canvas.flip",
    "canvas.group", "canvas.ungroup", "canvas.zoom-in", "canvas.zoom-out",
    "canvas.zoom-fit", "canvas.zoom-100", "canvas.go-up", "canvas.context-menu",
    "canvas.add-note",
  };
  static const struct
  {
    guint keyval;
    double dx, dy;
  } arrows[] = {
    { GDK_KEY_Left, -1, 0 }, { GDK_KEY_Right, 1, 0 },
    { GDK_KEY_Up, 0, -1 }, { GDK_KEY_Down, 0, 1 },
  };

  object_class->dispose = qd_canvas_dispose;
  object_class->get_property = qd_canvas_get_property;
  object_class->set_property = qd_canvas_set_property;
  widget_class->snapshot = qd_canvas_snapshot;
  widget_class->size_allocate = qd_canvas_size_allocate;

  properties[PROP_DOCUMENT] =
    g_param_spec_object ("document", NULL, NULL, QD_TYPE_DOCUMENT,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SYSTEM] =
    g_param_spec_pointer ("system", NULL, NULL,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_ZOOM] =
    g_param_spec_double ("zoom", NULL, NULL, QD_CANVAS_ZOOM_MIN, QD_CANVAS_ZOOM_MAX, 1.0,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* A refused edit, to show in the window's message area. */
  signals[MESSAGE] =
    g_signal_new ("message", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  for (guint i = 0; i < G_N_ELEMENTS (plain_actions); i++)
    gtk_widget_class_install_action (widget_class, plain_actions[i], NULL, action_activated);
  gtk_widget_class_install_action (widget_class, "canvas.align", "s", action_activated);

  /* Menus show the last binding of an action: alternatives go first. */
  add_binding_action (widget_class, GDK_KEY_a, GDK_CONTROL_MASK, "canvas.select-all");
  add_binding_action (widget_class, GDK_KEY_BackSpace, 0, "canvas.delete");
  add_binding_action (widget_class, GDK_KEY_KP_Delete, 0, "canvas.delete");
  add_binding_action (widget_class, GDK_KEY_Delete, 0, "canvas.delete");
  add_binding_action (widget_class, GDK_KEY_x, GDK_CONTROL_MASK, "canvas.cut");
  add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK, "canvas.copy");
  add_binding_action (widget_class, GDK_KEY_v, GDK_CONTROL_MASK, "canvas.paste");
  add_binding_action (widget_class, GDK_KEY_d, GDK_CONTROL_MASK, "canvas.duplicate");
  add_binding_action (widget_class, GDK_KEY_r, GDK_CONTROL_MASK, "canvas.rotate");
  add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK, "canvas.flip");
  add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK, "canvas.group");
  add_binding_action (widget_class, GDK_KEY_G, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "canvas.ungroup");
  add_binding_action (widget_class, GDK_KEY_g, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "canvas.ungroup");
  add_binding_action (widget_class, GDK_KEY_plus, GDK_CONTROL_MASK | GDK_SHIFT_MASK, "canvas.zoom-in");
  add_binding_action (widget_class, GDK_KEY_equal, GDK_CONTROL_MASK, "canvas.zoom-in");
  add_binding_action (widget_class, GDK_KEY_KP_Add, GDK_CONTROL_MASK, "canvas.zoom-in");
  add_binding_action (widget_class, GDK_KEY_plus, GDK_CONTROL_MASK, "canvas.zoom-in");
  add_binding_action (widget_class, GDK_KEY_KP_Subtract, GDK_CONTROL_MASK, "canvas.zoom-out");
  add_binding_action (widget_class, GDK_KEY_minus, GDK_CONTROL_MASK, "canvas.zoom-out");
  add_binding_action (widget_class, GDK_KEY_KP_0, GDK_CONTROL_MASK, "canvas.zoom-fit");
  add_binding_action (widget_class, GDK_KEY_0, GDK_CONTROL_MASK, "canvas.zoom-fit");
  add_binding_action (widget_class, GDK_KEY_KP_1, GDK_CONTROL_MASK, "canvas.zoom-100");
  add_binding_action (widget_class, GDK_KEY_1, GDK_CONTROL_MASK, "canvas.zoom-100");
  add_binding_action (widget_class, GDK_KEY_Up, GDK_ALT_MASK, "canvas.go-up");
  add_binding_action (widget_class, GDK_KEY_Menu, 0, "canvas.context-menu");
  add_binding_action (widget_class, GDK_KEY_F10, GDK_SHIFT_MASK, "canvas.context-menu");

  for (guint i = 0; i < G_N_ELEMENTS (arrows); i++)
    {
      /* An arrow steps to the next grid line; with Shift, one unit. */
      gtk_widget_class_add_binding (widget_class, arrows[i].keyval, 0,
                                    nudge_shortcut, "(ddb)",
                                    arrows[i].dx * QD_CANVAS_GRID,
                                    arrows[i].dy * QD_CANVAS_GRID, TRUE);
      gtk_widget_class_add_binding (widget_class, arrows[i].keyval, GDK_SHIFT_MASK,
                                    nudge_shortcut, "(ddb)",
                                    arrows[i].dx, arrows[i].dy, FALSE);
    }
  gtk_widget_class_add_binding (widget_class, GDK_KEY_Escape, 0, escape_shortcut, NULL);

  gtk_widget_class_set_css_name (widget_class, "qd-canvas");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_GROUP);
}

static void
qd_canvas_init (QdCanvas *self)
{
  GtkWidget *widget = GTK_WIDGET (self);
  GtkEventController *controller;
  GtkGesture *gesture;
  GtkDropTarget *drop;
  g_autoptr(GMenuModel) menu = NULL;

  self->widths_stale = TRUE;

  self->zoom = 1.0;
  self->selected_note = -1;
  self->drawn_selection = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->controller = qd_canvas_controller_new ();
  qd_canvas_controller_set_tolerance (self->controller, PICK_PIXELS);
  g_signal_connect_swapped (self->controller, "invalidate", G_CALLBACK (on_invalidate), self);
  g_signal_connect_swapped (self->controller, "message", G_CALLBACK (on_message), self);
  g_signal_connect_swapped (self->controller, "selection-changed",
                            G_CALLBACK (on_selection_changed), self);
  g_signal_connect_swapped (self->controller, "notify::system",
                            G_CALLBACK (on_system_changed), self);

  gtk_widget_set_focusable (widget, TRUE);
  gtk_widget_set_focus_on_click (widget, TRUE);
  gtk_widget_set_hexpand (widget, TRUE);
  gtk_widget_set_vexpand (widget, TRUE);
  gtk_widget_set_overflow (widget, GTK_OVERFLOW_HIDDEN);
  gtk_widget_set_has_tooltip (widget, TRUE);
  g_signal_connect (widget, "query-tooltip", G_CALLBACK (on_query_tooltip), self);

  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (on_drag_begin), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (on_drag_update), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (on_drag_end), self);
  g_signal_connect (gesture, "cancel", G_CALLBACK (on_drag_cancel), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));
  self->drag = gesture;

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_PRIMARY);
  g_signal_connect (gesture, "pressed", G_CALLBACK (on_click_pressed), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_click_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_SECONDARY);
  g_signal_connect (gesture, "pressed", G_CALLBACK (on_context_pressed), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_drag_new ();
  gtk_gesture_single_set_button (GTK_GESTURE_SINGLE (gesture), GDK_BUTTON_MIDDLE);
  g_signal_connect (gesture, "drag-begin", G_CALLBACK (on_pan_begin), self);
  g_signal_connect (gesture, "drag-update", G_CALLBACK (on_pan_update), self);
  g_signal_connect (gesture, "drag-end", G_CALLBACK (on_pan_end), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  gesture = gtk_gesture_zoom_new ();
  g_signal_connect (gesture, "begin", G_CALLBACK (on_pinch_begin), self);
  g_signal_connect (gesture, "scale-changed", G_CALLBACK (on_pinch_scale_changed), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (gesture));

  controller = gtk_event_controller_motion_new ();
  g_signal_connect (controller, "motion", G_CALLBACK (on_motion), self);
  g_signal_connect (controller, "leave", G_CALLBACK (on_leave), self);
  gtk_widget_add_controller (widget, controller);

  controller = gtk_event_controller_scroll_new (GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  g_signal_connect (controller, "scroll", G_CALLBACK (on_scroll), self);
  gtk_widget_add_controller (widget, controller);

  drop = gtk_drop_target_new (G_TYPE_STRING, GDK_ACTION_COPY);
  /* The value is wanted before the drop, to show where the block goes. */
  gtk_drop_target_set_preload (drop, TRUE);
  g_signal_connect (drop, "drop", G_CALLBACK (on_drop), self);
  g_signal_connect (drop, "motion", G_CALLBACK (on_drop_motion), self);
  g_signal_connect (drop, "enter", G_CALLBACK (on_drop_motion), self);
  g_signal_connect (drop, "leave", G_CALLBACK (on_drop_leave), self);
  gtk_widget_add_controller (widget, GTK_EVENT_CONTROLLER (drop));

  menu = create_context_menu_model ();
  self->context_menu = gtk_popover_menu_new_from_model (menu);
  gtk_widget_set_parent (self->context_menu, widget);
  gtk_popover_set_has_arrow (GTK_POPOVER (self->context_menu), FALSE);
  gtk_widget_set_halign (self->context_menu, GTK_ALIGN_START);
  g_signal_connect_swapped (self->context_menu, "closed",
                            G_CALLBACK (on_context_menu_closed), self);

  update_actions (self);
}

GtkWidget *
qd_canvas_new (void)
{
  return g_object_new (QD_TYPE_CANVAS, NULL);
}

void
qd_canvas_set_block_reported (QdCanvas   *self,
                              GHashTable *reported)
{
  g_return_if_fail (QD_IS_CANVAS (self));

  if (reported != NULL)
    g_hash_table_ref (reported);
  g_clear_pointer (&self->reported, g_hash_table_unref);
  self->reported = reported;
}

void
qd_canvas_set_show_params (QdCanvas *self,
                           gboolean  show)
{
  g_return_if_fail (QD_IS_CANVAS (self));

  self->hide_params = !show;
  invalidate_cache (self);
}

void
qd_canvas_set_block_badges (QdCanvas   *self,
                            GHashTable *badges)
{
  g_return_if_fail (QD_IS_CANVAS (self));

  if (badges != NULL)
    g_hash_table_ref (badges);
  g_clear_pointer (&self->badges, g_hash_table_unref);
  self->badges = badges;
  invalidate_cache (self);
}

GHashTable *
qd_canvas_get_block_badges (QdCanvas *self)
{
  g_return_val_if_fail (QD_IS_CANVAS (self), NULL);

  return self->badges;
}

void
qd_canvas_set_highlight (QdCanvas   *canvas,
                         GHashTable *block_ids)
{
  g_return_if_fail (QD_IS_CANVAS (canvas));

  if (block_ids != NULL)
    g_hash_table_ref (block_ids);
  g_clear_pointer (&canvas->highlight, g_hash_table_unref);
  canvas->highlight = block_ids;
  invalidate_cache (canvas);
}

GHashTable *
qd_canvas_get_highlight (QdCanvas *canvas)
{
  g_return_val_if_fail (QD_IS_CANVAS (canvas), NULL);

  return canvas->highlight;
}

GMenu *
qd_canvas_get_context_menu (QdCanvas *self)
{
  g_return_val_if_fail (QD_IS_CANVAS (self), NULL);

  return G_MENU (gtk_popover_menu_get_menu_model (GTK_POPOVER_MENU (self->context_menu)));
}

void
qd_canvas_set_overlay (QdCanvas            *self,
                       QdCanvasOverlayFunc  func,
                       gpointer             user_data)
{
  g_return_if_fail (QD_IS_CANVAS (self));

  self->overlay_func = func;
  self->overlay_data = user_data;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

void
qd_canvas_queue_overlay (QdCanvas *self)
{
  g_return_if_fail (QD_IS_CANVAS (self));

  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/* qd-canvas-render.c: drawing a diagram with Cairo
 *
 * The order matters: blocks first, links above them (a wrong connection
 * must never hide under an icon), then the overlays of a gesture. The
 * user space is scaled to canvas units once; widths meant in output pixels
 * are divided by the zoom.
 */
#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#include <pango/pangocairo.h>

#include "qd-canvas-render.h"
#include "qd-mask.h"

static void
set_color (QdColor *color,
           guint32  rgb,
           double   alpha)
{
  color->red = ((rgb >> 16) & 0xff) / 255.0;
  color->green = ((rgb >> 8) & 0xff) / 255.0;
  color->blue = (rgb & 0xff) / 255.0;
  color->alpha = alpha;
}

void
qd_canvas_style_init_light (QdCanvasStyle *style)
{
  set_color (&style->background, 0xfbfbfb, 1.0);
  set_color (&style->grid, 0x9a9996, 0.45);
  set_color (&style->block_fill, 0xffffff, 1.0);
  set_color (&style->block_border, 0x5e5c64, 1.0);
  set_color (&style->text, 0x241f31, 1.0);
  set_color (&style->dim_text, 0x5e5c64, 1.0);
  set_color (&style->link, 0x303040, 1.0);
  set_color (&style->port, 0x303040, 1.0);
  set_color (&style->accent, 0x1c71d8, 1.0);
  set_color (&style->error, 0xe01b24, 1.0);
  set_color (&style->good, 0x26a269, 1.0);
}

void
qd_canvas_style_init_dark (QdCanvasStyle *style)
{
  set_color (&style->background, 0x242424, 1.0);
  set_color (&style->grid, 0x77767b, 0.45);
  set_color (&style->block_fill, 0x383838, 1.0);
  set_color (&style->block_border, 0xc0bfbc, 1.0);
  set_color (&style->text, 0xffffff, 1.0);
  set_color (&style->dim_text, 0xc0bfbc, 1.0);
  set_color (&style->link, 0xdeddda, 1.0);
  set_color (&style->port, 0xdeddda, 1.0);
  set_color (&style->accent, 0x78aeed, 1.0);
  set_color (&style->error, 0xff7b63, 1.0);
  set_color (&style->good, 0x8ff0a4, 1.0);
}

void
qd_canvas_render_options_init (QdCanvasRenderOptions *options)
{
  memset (options, 0, sizeof *options);
  options->zoom = 1.0;
  options->show_params = TRUE;
  options->selected_note = -1;
  options->draw_grid = TRUE;
  options->draw_background = TRUE;
}

char *
qd_canvas_link_key (const QdLink *link,
                    guint         target)
{
  return g_strdup_printf ("%s:%u", link->id, target);
}

void
qd_canvas_category_color (const char *category,
                          QdColor    *color)
{
  /* The untranslated category names of the block library. */
  static const struct
  {
    const char *category;
    guint32     rgb;
  } colors[] = {
    { "Sources", 0x2ec27e },
    { "Continuous", 0x3584e4 },
    { "Math", 0x9141ac },
    { "Sinks", 0xff7800 },
    { "Hybrid", 0xe5a50a },
    { "Structure", 0x77767b },
  };

  for (guint i = 0; i < G_N_ELEMENTS (colors); i++)
    if (g_strcmp0 (category, colors[i].category) == 0)
      {
        set_color (color, colors[i].rgb, 1.0);
        return;
      }
  /* Any other category still gets a stable colour of its own. */
  set_color (color, 0x404040 | (g_str_hash (category != NULL ? category : "") & 0x7f7f7f), 1.0);
}

static void
source_color (cairo_t       *cr,
              const QdColor *color,
              double         alpha)
{
  cairo_set_source_rgba (cr, color->red, color->green, color->blue,
                         color->alpha * alpha);
}

static void
rounded_rect (cairo_t *cr,
              double   x,
              double   y,
              double   w,
              double   h,
              double   r)
{
  r = MIN (r, MIN (w, h) / 2);
  if (r <= 0)
    {
      cairo_rectangle (cr, x, y, w, h);
      return;
    }
  cairo_new_sub_path (cr);
  cairo_arc (cr, x + w - r, y + r, r, -G_PI / 2, 0);
  cairo_arc (cr, x + w - r, y + h - r, r, 0, G_PI / 2);
  cairo_arc (cr, x + r, y + h - r, r, G_PI / 2, G_PI);
  cairo_arc (cr, x + r, y + r, r, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

/* Text layouts, shared by every drawing and kept between frames: laying
 * out text is most of the cost of drawing a large diagram, and the same
 * names are drawn frame after frame. They are laid out in canvas units
 * with unhinted metrics, so one layout serves every zoom and every
 * output (the Cairo context's transformation scales it when shown). */
#define LAYOUT_CACHE_MAX 4096

G_LOCK_DEFINE_STATIC (layouts);
static GHashTable *layouts;
static PangoContext *layout_context;

static PangoLayout *
create_layout (cairo_t    *cr,
               const char *text,
               double      size,
               gboolean    bold)
{
  g_autofree char *key = g_strdup_printf ("%c%.3f|%s", bold ? 'b' : 'r', size, text);
  PangoLayout *layout;

  G_LOCK (layouts);
  if (layouts == NULL)
    {
      cairo_font_options_t *font_options = cairo_font_options_create ();

      layouts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
      layout_context = pango_font_map_create_context (pango_cairo_font_map_get_default ());
      /* Unhinted: text keeps its proportions at every zoom instead of
       * jumping between pixel sizes. */
      cairo_font_options_set_hint_metrics (font_options, CAIRO_HINT_METRICS_OFF);
      cairo_font_options_set_hint_style (font_options, CAIRO_HINT_STYLE_NONE);
      pango_cairo_context_set_font_options (layout_context, font_options);
      cairo_font_options_destroy (font_options);
    }
  layout = g_hash_table_lookup (layouts, key);
  if (layout == NULL)
    {
      PangoFontDescription *desc = pango_font_description_from_string ("Sans");

      if (g_hash_table_size (layouts) >= LAYOUT_CACHE_MAX)
        g_hash_table_remove_all (layouts);
      layout = pango_layout_new (layout_context);
      pango_font_description_set_absolute_size (desc, size * PANGO_SCALE);
      if (bold)
        pango_font_description_set_weight (desc, PANGO_WEIGHT_BOLD);
      pango_layout_set_font_description (layout, desc);
      pango_font_description_free (desc);
      pango_layout_set_text (layout, text, -1);
      g_hash_table_insert (layouts, g_steal_pointer (&key), layout);
    }
  g_object_ref (layout);
  G_UNLOCK (layouts);
  return layout;
}

static void
draw_text_centered (cairo_t    *cr,
                    const char *text,
                    double      cx,
                    double      cy,
                    double      size,
                    double      max_w,
                    double      max_h,
                    gboolean    bold)
{
  PangoLayout *layout = create_layout (cr, text, size, bold);
  PangoRectangle ink, logical;
  double scale = 1.0;

  pango_layout_get_extents (layout, &ink, &logical);
  if (logical.width > 0 && max_w > 0)
    scale = MIN (scale, max_w / (logical.width / (double) PANGO_SCALE));
  if (logical.height > 0 && max_h > 0)
    scale = MIN (scale, max_h / (logical.height / (double) PANGO_SCALE));
  cairo_save (cr);
  cairo_translate (cr, cx, cy);
  cairo_scale (cr, scale, scale);
  /* Centre the ink (what is seen), not the line box, so glyphs like ∫ or
   * Σ sit in the middle of the block. */
  cairo_move_to (cr,
                 -(ink.x + ink.width / 2.0) / PANGO_SCALE,
                 -(ink.y + ink.height / 2.0) / PANGO_SCALE);
  pango_cairo_show_layout (cr, layout);
  cairo_restore (cr);
  g_object_unref (layout);
}

/* A block's name, where the geometry puts it for its turn. */
static void
draw_block_name (cairo_t       *cr,
                 const QdBlock *block,
                 double         size)
{
  PangoLayout *layout = create_layout (cr, block->name, size, FALSE);
  PangoRectangle logical;
  QdRect where;

  pango_layout_get_extents (layout, NULL, &logical);
  where = qd_canvas_block_name_rect (block, logical.width / (double) PANGO_SCALE,
                                     logical.height / (double) PANGO_SCALE);
  cairo_move_to (cr, where.x - logical.x / (double) PANGO_SCALE,
                 where.y - logical.y / (double) PANGO_SCALE);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

static void
draw_grid (cairo_t                     *cr,
           const QdCanvasRenderOptions *options,
           const QdCanvasStyle         *style,
           double                       width,
           double                       height)
{
  double step = QD_CANVAS_GRID;
  double px = 1.0 / options->zoom;
  double x0, y0, x1, y1;

  /* Never denser than one dot every 8 pixels: a denser grid reads as a
   * grey haze, and seen whole a large diagram would need thousands of
   * dots every frame. */
  while (step * options->zoom < 8)
    step *= 5;
  x0 = floor (options->origin_x / step) * step;
  y0 = floor (options->origin_y / step) * step;
  x1 = options->origin_x + width / options->zoom;
  y1 = options->origin_y + height / options->zoom;

  source_color (cr, &style->grid, 1.0);
  /* Without antialiasing, cairo fills the dots as whole pixels, many
   * times faster than thousands of antialiased squares; a dot is a
   * pixel or two either way. */
  cairo_save (cr);
  cairo_set_antialias (cr, CAIRO_ANTIALIAS_NONE);
  for (double y = y0; y <= y1; y += step)
    for (double x = x0; x <= x1; x += step)
      {
        /* Every fifth line a little stronger: the eye finds alignment. */
        gboolean major = fmod (fabs (x), step * 5) < 0.5 && fmod (fabs (y), step * 5) < 0.5;
        double s = major ? 2 * px : 1.2 * px;

        cairo_rectangle (cr, x - s / 2, y - s / 2, s, s);
      }
  cairo_fill (cr);
  cairo_restore (cr);
}

static gboolean
is_selected (const QdCanvasRenderOptions *options,
             const char                  *key)
{
  return options->selection != NULL &&
         g_hash_table_contains (options->selection, key);
}

/* The driven inputs of @system: block id -> bit mask of its driven
 * ports below 32. Asking qd_system_find_driver() for every port would
 * scan every link for every port, which makes drawing a large diagram
 * quadratic in its size. */
static GHashTable *
collect_driven_inputs (const QdSystem *system)
{
  GHashTable *driven = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < system->links->len; i++)
    {
      const QdLink *link = g_ptr_array_index (system->links, i);

      for (guint t = 0; t < link->n_targets; t++)
        {
          const QdLinkTarget *target = link->targets[t];
          guint mask;

          if (target->dst.port >= 32)
            continue;
          mask = GPOINTER_TO_UINT (g_hash_table_lookup (driven, target->dst.block));
          mask |= 1u << target->dst.port;
          g_hash_table_insert (driven, target->dst.block, GUINT_TO_POINTER (mask));
        }
    }
  return driven;
}

static gboolean
input_is_driven (const QdSystem *system,
                 GHashTable     *driven,
                 const QdBlock  *block,
                 guint           port)
{
  if (port < 32)
    return (GPOINTER_TO_UINT (g_hash_table_lookup (driven, block->id)) & (1u << port)) != 0;
  return qd_system_find_driver ((QdSystem *) system, block->id, port, NULL) != NULL;
}

static void
draw_port (cairo_t             *cr,
           const QdSystem      *system,
           GHashTable          *driven,
           const QdBlock       *block,
           QdCanvasPortKind     kind,
           guint                index,
           guint                n,
           const QdCanvasStyle *style,
           double               px)
{
  QdPoint pos, dir;
  double len = 6, half = 3.5;
  double nx, ny;

  qd_canvas_port_position_n (block, kind, index, n, &pos, &dir);
  nx = -dir.y;
  ny = dir.x;
  /* Both marks point the way the signal flows: an output's out of the
   * block, an input's into it, from just outside the edge. */
  if (kind == QD_CANVAS_PORT_OUTPUT)
    {
      cairo_move_to (cr, pos.x + nx * half, pos.y + ny * half);
      cairo_line_to (cr, pos.x + dir.x * len, pos.y + dir.y * len);
      cairo_line_to (cr, pos.x - nx * half, pos.y - ny * half);
    }
  else
    {
      cairo_move_to (cr, pos.x + dir.x * len + nx * half, pos.y + dir.y * len + ny * half);
      cairo_line_to (cr, pos.x, pos.y);
      cairo_line_to (cr, pos.x + dir.x * len - nx * half, pos.y + dir.y * len - ny * half);
    }
  cairo_close_path (cr);
  source_color (cr, &style->port, 1.0);
  if (kind == QD_CANVAS_PORT_INPUT && !input_is_driven (system, driven, block, index))
    {
      /* An input with nothing driving it is hollow: easy to spot before
       * the compiler complains. */
      cairo_set_line_width (cr, 1.2 * px);
      cairo_set_line_join (cr, CAIRO_LINE_JOIN_MITER);
      cairo_stroke (cr);
    }
  else
    cairo_fill (cr);
}

/* What the block's type shows of its parameters (describe_params): a
 * caption under the block's name, and small texts just inside its
 * input ports (a Weighted Sum's signs). */
static void
draw_block_params (cairo_t             *cr,
                   const QdBlock       *block,
                   guint                n_in,
                   const QdSettings    *settings,
                   const QdCanvasStyle *style)
{
  g_auto (GStrv) input_labels = NULL;
  g_autofree char *caption = qd_block_describe_params_with (block, settings,
                                                            &input_labels);

  source_color (cr, &style->dim_text, 1.0);
  for (guint i = 0; input_labels != NULL && input_labels[i] != NULL && i < n_in; i++)
    {
      QdPoint pos, dir;

      qd_canvas_port_position_n (block, QD_CANVAS_PORT_INPUT, i, n_in, &pos, &dir);
      /* Just inside the edge, on the port's axis: the link arrives
       * outside, the glyph sits in the middle. */
      draw_text_centered (cr, input_labels[i], pos.x - dir.x * 7, pos.y - dir.y * 7,
                          10, block->width * 0.25, 10, TRUE);
    }
  if (caption != NULL && caption[0] != '\0')
    {
      PangoLayout *layout = create_layout (cr, caption, 9, FALSE);
      PangoRectangle logical;
      double top = block->y + block->height + 2;

      if (block->name != NULL)
        {
          PangoLayout *name = create_layout (cr, block->name, 10, FALSE);
          PangoRectangle name_logical;
          QdRect where;

          pango_layout_get_extents (name, NULL, &name_logical);
          where = qd_canvas_block_name_rect (block,
                                             name_logical.width / (double) PANGO_SCALE,
                                             name_logical.height / (double) PANGO_SCALE);
          top = MAX (top, where.y + where.height);
          g_object_unref (name);
        }
      pango_layout_get_extents (layout, NULL, &logical);
      cairo_move_to (cr, block->x + block->width / 2
                     - (logical.x + logical.width / 2.0) / PANGO_SCALE,
                     top - logical.y / (double) PANGO_SCALE);
      pango_cairo_show_layout (cr, layout);
      g_object_unref (layout);
    }
}

#define NOTE_FONT_SIZE 11
#define NOTE_MARGIN    6

QdRect
qd_canvas_note_rect (const QdNote *note)
{
  PangoLayout *layout = create_layout (NULL, note->text[0] != '\0' ? note->text : " ",
                                       NOTE_FONT_SIZE, FALSE);
  PangoRectangle logical;
  QdRect rect;

  pango_layout_get_extents (layout, NULL, &logical);
  g_object_unref (layout);
  rect.x = note->x;
  rect.y = note->y;
  rect.width = logical.width / (double) PANGO_SCALE + 2 * NOTE_MARGIN;
  rect.height = logical.height / (double) PANGO_SCALE + 2 * NOTE_MARGIN;
  return rect;
}

int
qd_canvas_note_at (const GPtrArray *notes,
                   double           x,
                   double           y)
{
  for (guint k = notes != NULL ? notes->len : 0; k-- > 0;)
    {
      QdRect r = qd_canvas_note_rect (g_ptr_array_index ((GPtrArray *) notes, k));

      if (x >= r.x && x <= r.x + r.width && y >= r.y && y <= r.y + r.height)
        return (int) k;
    }
  return -1;
}

/* A note as a pale card with its text, so that it reads as a remark on
 * the diagram and not as a block. */
static void
draw_note (cairo_t                     *cr,
           const QdNote                *note,
           gboolean                     selected,
           const QdCanvasRenderOptions *options,
           const QdCanvasStyle         *style)
{
  QdRect r = qd_canvas_note_rect (note);
  PangoLayout *layout;
  PangoRectangle logical;

  rounded_rect (cr, r.x, r.y, r.width, r.height, 3);
  cairo_set_source_rgba (cr, 1.0, 0.96, 0.70, 0.92);
  cairo_fill_preserve (cr);
  if (selected)
    {
      source_color (cr, &style->accent, 1.0);
      cairo_set_line_width (cr, 2.0 / options->zoom);
    }
  else
    {
      cairo_set_source_rgba (cr, 0.75, 0.65, 0.25, 1.0);
      cairo_set_line_width (cr, 1.0 / options->zoom);
    }
  cairo_stroke (cr);
  if (options->draft || NOTE_FONT_SIZE * options->zoom < 4)
    return;
  layout = create_layout (cr, note->text, NOTE_FONT_SIZE, FALSE);
  pango_layout_get_extents (layout, NULL, &logical);
  /* Dark text on the pale card in both styles. */
  cairo_set_source_rgb (cr, 0.15, 0.15, 0.12);
  cairo_move_to (cr, r.x + NOTE_MARGIN - logical.x / (double) PANGO_SCALE,
                 r.y + NOTE_MARGIN - logical.y / (double) PANGO_SCALE);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

/* A run's figure for the block (an integrator's step count) as a pill
 * on its top-right corner, in the accent colour so it reads as an
 * annotation, not as part of the diagram. */
static void
draw_badge (cairo_t             *cr,
            const QdBlock       *block,
            const char          *text,
            const QdCanvasStyle *style)
{
  PangoLayout *layout = create_layout (cr, text, 8, TRUE);
  PangoRectangle logical;
  double tw, th, bw, bh, bx, by;

  pango_layout_get_extents (layout, NULL, &logical);
  tw = logical.width / (double) PANGO_SCALE;
  th = logical.height / (double) PANGO_SCALE;
  bw = tw + 8;
  bh = th + 2;
  bx = block->x + block->width - bw + 6;
  by = block->y - bh / 2;
  rounded_rect (cr, bx, by, bw, bh, bh / 2);
  source_color (cr, &style->accent, 1.0);
  cairo_fill (cr);
  cairo_set_source_rgb (cr, 1, 1, 1);
  cairo_move_to (cr, bx + 4 - logical.x / (double) PANGO_SCALE,
                 by + 1 - logical.y / (double) PANGO_SCALE);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

/* Whether the fonts can show the glyph of @type; asked once per type,
 * since the fonts do not change while the program runs. */
static gboolean
glyph_is_shown (cairo_t           *cr,
                const QdBlockType *type)
{
  static GHashTable *shown;
  G_LOCK_DEFINE_STATIC (shown);
  gpointer known;
  gboolean found;

  G_LOCK (shown);
  if (shown == NULL)
    shown = g_hash_table_new (g_str_hash, g_str_equal);
  found = g_hash_table_lookup_extended (shown, type->id, NULL, &known);
  G_UNLOCK (shown);
  if (!found)
    {
      PangoLayout *probe = create_layout (cr, type->glyph, 12, TRUE);

      known = GINT_TO_POINTER (pango_layout_get_unknown_glyphs_count (probe) == 0);
      g_object_unref (probe);
      G_LOCK (shown);
      g_hash_table_insert (shown, (gpointer) type->id, known);
      G_UNLOCK (shown);
    }
  return GPOINTER_TO_INT (known);
}

/* What a block shows in its middle when it has no mask: its type's
 * glyph, a Goto's or From's tag, a port block's number (into *@owned,
 * to free); and in *@is_port whether it is a port block. */
static const char *
block_glyph (const QdBlock     *block,
             const QdBlockType *type,
             char             **owned,
             gboolean          *is_port)
{
  *owned = NULL;
  *is_port = FALSE;
  if (type == NULL)
    return "?";
  *is_port = g_strcmp0 (type->id, QD_TYPE_INPORT) == 0 ||
             g_strcmp0 (type->id, QD_TYPE_OUTPORT) == 0;
  if (*is_port)
    {
      /* Port blocks show their number, as in PowerDEVS and Simulink. */
      *owned = g_strdup (qd_block_get_param_or_default (block, "port"));
      return *owned != NULL ? *owned : "";
    }
  if ((type->flags & (QD_BLOCK_TAG_SINK | QD_BLOCK_TAG_SOURCE)) && type->n_params > 0)
    {
      /* Goto and From show their tag, as in Simulink: the name joins them. */
      const char *tag = qd_block_get_param_or_default (block, type->params[0].name);

      *owned = g_strdup_printf ("[%s]", tag != NULL ? tag : "");
      return *owned;
    }
  return type->glyph != NULL ? type->glyph : "";
}

/* A block's body: its shadow, fill, category band (@category, not for
 * port blocks), border, the ring of a block with a problem and a
 * subsystem's inner frame; corners of @radius. */
static void
draw_block_body (cairo_t                     *cr,
                 const QdBlock               *block,
                 const QdCanvasRenderOptions *options,
                 const QdCanvasStyle         *style,
                 const QdColor               *category,
                 gboolean                     is_port_block,
                 gboolean                     framed,
                 double                       radius)
{
  double px = 1.0 / options->zoom;
  double x = block->x, y = block->y, w = block->width, h = block->height;
  gboolean selected = is_selected (options, block->id);

  /* A soft shadow lifts the block off the grid. */
  if (radius > 0)
    {
      rounded_rect (cr, x + 0.5 * px, y + 1.5 * px, w, h, radius);
      cairo_set_source_rgba (cr, 0, 0, 0, 0.10);
      cairo_fill (cr);
    }

  rounded_rect (cr, x, y, w, h, radius);
  source_color (cr, &style->block_fill, 1.0);
  cairo_fill_preserve (cr);
  if (selected)
    {
      source_color (cr, &style->accent, 0.10);
      cairo_fill_preserve (cr);
    }

  /* The category colour as a band along the top, following the rounded
   * corners (a path, not a clip: clipping every block is slow). */
  cairo_new_path (cr);
  if (!is_port_block)
    {
      double band = MIN (3.0, h / 6);
      double r = MIN (radius, MIN (w, h) / 2);

      cairo_move_to (cr, x, y + band);
      cairo_line_to (cr, x, y + r);
      cairo_arc (cr, x + r, y + r, r, G_PI, 3 * G_PI / 2);
      cairo_line_to (cr, x + w - r, y);
      cairo_arc (cr, x + w - r, y + r, r, -G_PI / 2, 0);
      cairo_line_to (cr, x + w, y + band);
      cairo_close_path (cr);
      source_color (cr, category, 0.9);
      cairo_fill (cr);
    }

  rounded_rect (cr, x, y, w, h, radius);
  if (selected)
    {
      source_color (cr, &style->accent, 1.0);
      cairo_set_line_width (cr, 2.0 * px);
    }
  else
    {
      source_color (cr, &style->block_border, 0.85);
      cairo_set_line_width (cr, 1.0 * px);
    }
  cairo_stroke (cr);

  /* A block with a problem gets a ring just outside its border, so the
   * selection outline and the category band stay readable. */
  if (options->highlight != NULL
      && g_hash_table_contains (options->highlight, block->id))
    {
      double gap = 3.0 * px;

      rounded_rect (cr, x - gap, y - gap, w + 2 * gap, h + 2 * gap, radius + gap);
      source_color (cr, &style->error, 1.0);
      cairo_set_line_width (cr, 2.0 * px);
      cairo_stroke (cr);
    }

  if (framed)
    {
      /* A subsystem has depth: an inner frame says "open me". */
      rounded_rect (cr, x + 3, y + 3 + MIN (3.0, h / 6), w - 6, h - 6 - MIN (3.0, h / 6), 2);
      source_color (cr, &style->block_border, 0.35);
      cairo_set_line_width (cr, 1.0 * px);
      cairo_stroke (cr);
    }
}

static void
draw_block (cairo_t                     *cr,
            const QdSystem              *system,
            GHashTable                  *driven,
            const QdBlock               *block,
            const QdCanvasRenderOptions *options,
            const QdCanvasStyle         *style)
{
  const QdBlockType *type = qd_block_get_type_info (block);
  double px = 1.0 / options->zoom;
  double x = block->x, y = block->y, w = block->width, h = block->height;
  gboolean is_port_block;
  const char *glyph, *value = NULL;
  g_autofree char *glyph_owned = NULL;
  /* A masked subsystem shows its own text (qd-mask.h) instead. */
  const QdMask *mask = qd_block_get_mask (block);
  g_autofree char *icon = qd_mask_format_icon (mask);
  QdColor category;
  guint n_in = 0, n_out = 0;
  double radius;

  glyph = block_glyph (block, type, &glyph_owned, &is_port_block);
  qd_canvas_category_color (type != NULL ? type->category : NULL, &category);
  radius = is_port_block ? MIN (w, h) / 2 : 4;
  /* Seen from far, a corner's roundness and the shadow are below a
   * pixel: square corners draw much faster. */
  if (radius * options->zoom < 1.5)
    radius = 0;
  /* A masked one is a block of its own: what is under it is looked at
   * on purpose (Look Under Mask); another subsystem has a frame. */
  draw_block_body (cr, block, options, style, &category, is_port_block,
                   block->inner != NULL && mask == NULL, radius);

  /* A glyph the fonts cannot show would be an empty box: the block's
   * name says more. */
  if (type != NULL && glyph[0] != '\0' && !is_port_block &&
      !glyph_is_shown (cr, type))
    glyph = NULL;
  /* A displayable block (QD_BLOCK_DISPLAY) shows the run's value, which
   * its badge carries, in place of its glyph. */
  if (type != NULL && (type->flags & QD_BLOCK_DISPLAY) && options->badges != NULL
      && (value = g_hash_table_lookup (options->badges, block->id)) != NULL)
    glyph = value;
  source_color (cr, &style->text, 1.0);
  /* Text a few pixels high is a smudge, and laying it out is what costs
   * most when a large diagram is seen whole: leave it out. */
  if (MIN (h * 0.5, 24) * options->zoom < 4 || options->draft)
    ;
  else if (icon != NULL)
    draw_text_centered (cr, icon, x + w / 2, y + h / 2, MIN (h * 0.3, 13),
                        w * 0.88, h * 0.8, FALSE);
  else if (glyph != NULL)
    draw_text_centered (cr, glyph, x + w / 2, y + h / 2 + MIN (1.5, h / 12),
                        MIN (h * 0.5, 24), w * 0.8, h * 0.75, TRUE);
  else
    draw_text_centered (cr, _(type->name), x + w / 2, y + h / 2 + MIN (1.5, h / 12),
                        MIN (h * 0.3, 12), w * 0.85, h * 0.75, FALSE);

  /* The name, unless it would be unreadably small. */
  if (options->zoom * 10 >= 5 && block->name != NULL && !options->draft)
    {
      source_color (cr, is_selected (options, block->id) ? &style->accent : &style->dim_text, 1.0);
      draw_block_name (cr, block, 10);
    }

  /* Port marks under two pixels are not seen. */
  if (6 * options->zoom >= 2 && qd_block_count_ports (block, &n_in, &n_out, NULL))
    {
      for (guint i = 0; i < n_in; i++)
        draw_port (cr, system, driven, block, QD_CANVAS_PORT_INPUT, i, n_in, style, px);
      for (guint i = 0; i < n_out; i++)
        draw_port (cr, system, driven, block, QD_CANVAS_PORT_OUTPUT, i, n_out, style, px);
      if (options->show_params && options->zoom * 9 >= 5 && !options->draft)
        draw_block_params (cr, block, n_in, options->settings, style);
    }

  if (options->badges != NULL)
    {
      const char *badge = g_hash_table_lookup (options->badges, block->id);

      if (badge != NULL && badge != value)
        draw_badge (cr, block, badge, style);
    }
}

static void
path_route (cairo_t      *cr,
            const GArray *route)
{
  for (guint k = 0; k < route->len; k++)
    {
      QdPoint p = g_array_index (route, QdPoint, k);

      if (k == 0)
        cairo_move_to (cr, p.x, p.y);
      else
        cairo_line_to (cr, p.x, p.y);
    }
}

static GArray *
route_from_table (const QdSystem *system,
                  const QdLink   *link,
                  guint           target,
                  gpointer        user_data)
{
  g_autofree char *key = qd_canvas_link_key (link, target);
  GArray *route = g_hash_table_lookup (user_data, key);

  return route != NULL ? g_array_ref (route) : g_array_new (FALSE, FALSE, sizeof (QdPoint));
}

static GArray *
get_route (const QdCanvasRenderOptions *options,
           const QdSystem              *system,
           const QdLink                *link,
           guint                        target)
{
  return options->route_func (system, link, target, options->route_data);
}

/* Whether a route of @link draws into @visible: a link wholly outside
 * the output is not drawn. */
static gboolean
link_is_visible (const QdSystem              *system,
                 const QdLink                *link,
                 const QdCanvasRenderOptions *options,
                 const QdRect                *visible,
                 GPtrArray                   *routes)
{
  gboolean shown = FALSE;

  for (guint t = 0; t < link->n_targets; t++)
    {
      GArray *route = get_route (options, system, link, t);
      QdRect box;

      g_ptr_array_add (routes, route);
      if (shown)
        continue;
      /* What the route draws, with its arrowhead and junction dots. */
      if (qd_canvas_route_drawn_rect (route, &box))
        shown = qd_rect_intersects (&box, visible);
    }
  return shown;
}

/* The width of a vector link, written just after its source port. */
static void
draw_vector_width (cairo_t                     *cr,
                   GPtrArray                   *routes,
                   guint                        width,
                   const QdCanvasRenderOptions *options,
                   const QdCanvasStyle         *style)
{
  GArray *route = routes->len > 0 ? g_ptr_array_index (routes, 0) : NULL;
  g_autofree char *text = NULL;
  PangoLayout *layout;
  QdPoint from;

  if (route == NULL || route->len < 2 || options->draft)
    return;
  from = g_array_index (route, QdPoint, 0);
  text = g_strdup_printf ("%u", width);
  layout = create_layout (cr, text, 10.0, FALSE);
  source_color (cr, &style->link, 1.0);
  cairo_move_to (cr, from.x + 6.0, from.y - 14.0);
  pango_cairo_show_layout (cr, layout);
  g_object_unref (layout);
}

static void
draw_link (cairo_t                     *cr,
           const QdSystem              *system,
           const QdLink                *link,
           const QdCanvasRenderOptions *options,
           const QdCanvasStyle         *style,
           const QdRect                *visible,
           GPtrArray                   *plain)
{
  double px = 1.0 / options->zoom;
  g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autoptr(GPtrArray) routes = g_ptr_array_new ();
  GArray *junctions;

  guint width = options->link_widths != NULL
    ? GPOINTER_TO_UINT (g_hash_table_lookup (options->link_widths, link)) : 0;

  if (!link_is_visible (system, link, options, visible, all))
    return;

  cairo_set_line_join (cr, CAIRO_LINE_JOIN_MITER);
  cairo_set_line_cap (cr, CAIRO_LINE_CAP_BUTT);
  if (width > 1)
    draw_vector_width (cr, all, width, options, style);

  for (guint t = 0; t < link->n_targets; t++)
    {
      g_autofree char *key = qd_canvas_link_key (link, t);
      GArray *route = g_ptr_array_index (all, t);

      if (route->len < 2)
        continue;
      g_ptr_array_add (routes, route);
      if (!is_selected (options, key) && width <= 1 &&
          (link != options->mark_link || options->skip_overlays))
        {
          /* Stroked with all the others at the end: one stroke for every
           * plain link costs far less than one each. */
          g_ptr_array_add (plain, g_array_ref (route));
          continue;
        }
      path_route (cr, route);
      if (is_selected (options, key))
        {
          /* A halo under the line, so the selection reads at a glance
           * without changing the line itself. */
          source_color (cr, &style->accent, 0.30);
          cairo_set_line_width (cr, 6.0 * px);
          cairo_stroke_preserve (cr);
          source_color (cr, &style->accent, 1.0);
          cairo_set_line_width (cr, 2.0 * px);
        }
      else if (link == options->mark_link && !options->skip_overlays)
        {
          source_color (cr, options->mark_bad ? &style->error : &style->good, 1.0);
          cairo_set_line_width (cr, 2.5 * px);
        }
      else
        {
          /* A vector: as thick as a plain line is thin, at any zoom a
           * few pixels more than one. */
          source_color (cr, &style->link, 1.0);
          cairo_set_line_width (cr, MAX (4.0, 2.5 * px));
        }
      cairo_stroke (cr);
    }

  junctions = qd_canvas_junctions_of_routes (routes);
  source_color (cr, &style->link, 1.0);
  for (guint k = 0; k < junctions->len; k++)
    {
      QdPoint p = g_array_index (junctions, QdPoint, k);

      cairo_new_sub_path (cr);
      /* A diagram-sized dot that never shrinks below two pixels. */
      cairo_arc (cr, p.x, p.y, MAX (3.0, 2.0 * px), 0, 2 * G_PI);
    }
  cairo_fill (cr);
  g_array_unref (junctions);
}

static void
draw_overlays (cairo_t                     *cr,
               const QdSystem              *system,
               const QdCanvasRenderOptions *options,
               const QdCanvasStyle         *style)
{
  double px = 1.0 / options->zoom;

  /* Drawn apart from the diagram, the marked link goes over its plain
   * self, as draw_link() would have drawn it. */
  if (options->skip_diagram && options->mark_link != NULL && system != NULL)
    {
      const QdLink *link = options->mark_link;

      cairo_set_line_join (cr, CAIRO_LINE_JOIN_MITER);
      cairo_set_line_cap (cr, CAIRO_LINE_CAP_BUTT);
      for (guint t = 0; t < link->n_targets; t++)
        {
          g_autoptr(GArray) route = get_route (options, system, link, t);

          if (route->len >= 2)
            path_route (cr, route);
        }
      source_color (cr, options->mark_bad ? &style->error : &style->good, 1.0);
      cairo_set_line_width (cr, 2.5 * px);
      cairo_stroke (cr);
    }

  if (options->pending_route != NULL && options->pending_route->len >= 2)
    {
      static const double dash[] = { 5.0, 3.0 };
      double scaled[2] = { dash[0] * px, dash[1] * px };

      path_route (cr, options->pending_route);
      source_color (cr, options->pending_bad ? &style->error : &style->accent, 1.0);
      cairo_set_line_width (cr, 1.5 * px);
      cairo_set_dash (cr, scaled, 2, 0);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
    }

  if (options->mark_block != NULL)
    {
      QdPoint pos;

      if (qd_canvas_port_position (options->mark_block, options->mark_kind,
                                   options->mark_port, &pos, NULL))
        {
          const QdColor *color = options->mark_bad ? &style->error
                                 : options->mark_hover ? &style->accent : &style->good;

          cairo_new_sub_path (cr);
          cairo_arc (cr, pos.x, pos.y, MAX (6.0, 7 * px), 0, 2 * G_PI);
          source_color (cr, color, 0.30);
          cairo_fill_preserve (cr);
          source_color (cr, color, 1.0);
          cairo_set_line_width (cr, 1.5 * px);
          cairo_stroke (cr);
        }
    }

  if (options->has_ghost)
    {
      static const double dash[] = { 4.0, 3.0 };
      double scaled[2] = { dash[0] * px, dash[1] * px };
      const QdRect *r = &options->ghost;

      rounded_rect (cr, r->x, r->y, r->width, r->height, 4);
      source_color (cr, &style->accent, 0.08);
      cairo_fill_preserve (cr);
      source_color (cr, &style->accent, 1.0);
      cairo_set_line_width (cr, 1.5 * px);
      cairo_set_dash (cr, scaled, 2, 0);
      cairo_stroke (cr);
      cairo_set_dash (cr, NULL, 0, 0);
    }

  if (options->has_rubber_band)
    {
      const QdRect *r = &options->rubber_band;

      cairo_rectangle (cr, r->x, r->y, r->width, r->height);
      source_color (cr, &style->accent, 0.12);
      cairo_fill_preserve (cr);
      source_color (cr, &style->accent, 0.9);
      cairo_set_line_width (cr, 1.0 * px);
      cairo_stroke (cr);
    }
}

void
qd_canvas_render (cairo_t                     *cr,
                  const QdSystem              *system,
                  const QdCanvasRenderOptions *options,
                  double                       width,
                  double                       height)
{
  QdCanvasStyle light;
  const QdCanvasStyle *style = options->style;
  QdCanvasRenderOptions own;
  g_autoptr(GHashTable) routes = NULL;

  g_return_if_fail (cr != NULL);
  g_return_if_fail (options != NULL && options->zoom > 0);

  if (style == NULL)
    {
      qd_canvas_style_init_light (&light);
      style = &light;
    }
  if (options->route_func == NULL && system != NULL)
    {
      /* Route every link once for this drawing. */
      routes = qd_canvas_route_system (system);
      own = *options;
      own.route_func = route_from_table;
      own.route_data = routes;
      options = &own;
    }

  cairo_save (cr);
  if (options->skip_diagram)
    {
      cairo_scale (cr, options->zoom, options->zoom);
      cairo_translate (cr, -options->origin_x, -options->origin_y);
      draw_overlays (cr, system, options, style);
      cairo_restore (cr);
      return;
    }
  if (options->draw_background)
    {
      cairo_rectangle (cr, 0, 0, width, height);
      source_color (cr, &style->background, 1.0);
      cairo_fill (cr);
    }

  cairo_scale (cr, options->zoom, options->zoom);
  cairo_translate (cr, -options->origin_x, -options->origin_y);

  if (options->draw_grid)
    draw_grid (cr, options, style, width, height);

  if (system != NULL)
    {
      double x1 = options->origin_x + width / options->zoom;
      double y1 = options->origin_y + height / options->zoom;
      g_autoptr(GHashTable) driven = collect_driven_inputs (system);
      /* The output in canvas units, with room for line widths and
       * junction dots. */
      QdRect visible = {
        options->origin_x - 8, options->origin_y - 8,
        width / options->zoom + 16, height / options->zoom + 16
      };

      for (guint i = 0; i < system->blocks->len; i++)
        {
          const QdBlock *block = g_ptr_array_index (system->blocks, i);

          /* Skip what lies outside the output, with room for the port
           * marks that stick out of the block, its name and the rings
           * around it, whose widths are in pixels. */
          QdRect drawn = qd_canvas_block_drawn_rect (block);
          double ring = 6 / options->zoom;

          if (drawn.x - ring > x1 || drawn.y - ring > y1 ||
              drawn.x + drawn.width + ring < options->origin_x ||
              drawn.y + drawn.height + ring < options->origin_y)
            continue;
          draw_block (cr, system, driven, block, options, style);
        }
      g_autoptr(GPtrArray) plain = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

      for (guint i = 0; i < system->links->len; i++)
        draw_link (cr, system, g_ptr_array_index (system->links, i), options, style,
                   &visible, plain);
      for (guint i = 0; i < plain->len; i++)
        path_route (cr, g_ptr_array_index (plain, i));
      cairo_set_line_join (cr, CAIRO_LINE_JOIN_MITER);
      cairo_set_line_cap (cr, CAIRO_LINE_CAP_BUTT);
      source_color (cr, &style->link, 1.0);
      cairo_set_line_width (cr, 1.5 / options->zoom);
      cairo_stroke (cr);
    }
  for (guint k = 0; options->notes != NULL && k < options->notes->len; k++)
    draw_note (cr, g_ptr_array_index ((GPtrArray *) options->notes, k),
               (int) k == options->selected_note, options, style);

  if (!options->skip_overlays)
    draw_overlays (cr, system, options, style);
  cairo_restore (cr);
}

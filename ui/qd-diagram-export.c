/* qd-diagram-export.c: writing a diagram to SVG, PDF or PNG
 *
 * The page is the bounding box of the system plus a margin; the renderer
 * draws with the light style on a white background and without the grid,
 * as a figure for a report should look. A selection is exported from a
 * copy of the document with the other blocks removed, so the links among
 * the selected blocks keep their routes and nothing of the real document
 * is touched.
 */
#include <glib/gi18n-lib.h>
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <math.h>
#include <string.h>

#include "qd-canvas-render.h"
#include "qd-diagram-export.h"

/* Around the drawing, in canvas units: room for port stubs and names
 * drawn below blocks. */
#define EXPORT_MARGIN 24.0
/* PNG pixels per canvas unit. */
#define PNG_SCALE 2.0

QdDiagramFormat
qd_diagram_format_for_path (const char *path)
{
  g_autofree char *lower = NULL;

  if (path == NULL)
    return QD_DIAGRAM_FORMAT_UNKNOWN;
  lower = g_ascii_strdown (path, -1);
  if (g_str_has_suffix (lower, ".svg"))
    return QD_DIAGRAM_FORMAT_SVG;
  if (g_str_has_suffix (lower, ".pdf"))
    return QD_DIAGRAM_FORMAT_PDF;
  if (g_str_has_suffix (lower, ".png"))
    return QD_DIAGRAM_FORMAT_PNG;
  return QD_DIAGRAM_FORMAT_UNKNOWN;
}

/* The system of @copy that corresponds to @system of the original. */
static QdSystem *
find_same_system (QdDocument     *copy,
                  const QdSystem *system)
{
  QdBlock *owner;

  if (system->owner == NULL)
    return qd_document_get_root (copy);
  owner = qd_document_find_block (copy, system->owner->id);
  return owner != NULL ? owner->inner : NULL;
}

static gboolean
render_to_file (const QdSystem   *system,
                QdDiagramFormat   format,
                const char       *path,
                GError          **error)
{
  QdCanvasRenderOptions options;
  QdCanvasStyle style;
  QdRect bounds;
  cairo_surface_t *surface = NULL;
  cairo_status_t status;
  cairo_t *cr;
  double scale = format == QD_DIAGRAM_FORMAT_PNG ? PNG_SCALE : 1.0;
  double width, height;

  if (!qd_canvas_system_bounds (system, &bounds))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_FAILED,
                   _("%s: there is nothing to export; add blocks to the "
                     "diagram or select some"), path);
      return FALSE;
    }
  width = (bounds.width + 2 * EXPORT_MARGIN) * scale;
  height = (bounds.height + 2 * EXPORT_MARGIN) * scale;

  switch (format)
    {
    case QD_DIAGRAM_FORMAT_SVG:
      surface = cairo_svg_surface_create (path, width, height);
      break;
    case QD_DIAGRAM_FORMAT_PDF:
      surface = cairo_pdf_surface_create (path, width, height);
      break;
    case QD_DIAGRAM_FORMAT_PNG:
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                            (int) ceil (width), (int) ceil (height));
      break;
    case QD_DIAGRAM_FORMAT_UNKNOWN:
    default:
      g_assert_not_reached ();
    }
  status = cairo_surface_status (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_IO, _("%s: cannot write the file: %s"),
                   path, cairo_status_to_string (status));
      cairo_surface_destroy (surface);
      return FALSE;
    }

  qd_canvas_style_init_light (&style);
  qd_canvas_render_options_init (&options);
  options.zoom = scale;
  options.origin_x = bounds.x - EXPORT_MARGIN;
  options.origin_y = bounds.y - EXPORT_MARGIN;
  options.draw_grid = FALSE;
  options.draw_background = TRUE;
  options.style = &style;

  cr = cairo_create (surface);
  qd_canvas_render (cr, system, &options, width, height);
  status = cairo_status (cr);
  cairo_destroy (cr);

  if (status == CAIRO_STATUS_SUCCESS && format == QD_DIAGRAM_FORMAT_PNG)
    status = cairo_surface_write_to_png (surface, path);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_IO,
                   _("%s: cannot write the file: %s; check that the folder "
                     "exists and is writable"),
                   path, cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}

gboolean
qd_diagram_export (QdDocument     *document,
                   const QdSystem *system,
                   GHashTable     *selection,
                   const char     *path,
                   GError        **error)
{
  QdDiagramFormat format = qd_diagram_format_for_path (path);
  g_autoptr(QdDocument) copy = NULL;
  g_autofree char *data = NULL;
  QdSystem *part;
  gsize length = 0;

  g_return_val_if_fail (QD_IS_DOCUMENT (document), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (system == NULL)
    system = qd_document_get_root (document);
  if (format == QD_DIAGRAM_FORMAT_UNKNOWN)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_IO,
                   _("%s: unknown export format; end the file name with "
                     ".svg, .pdf or .png"), path);
      return FALSE;
    }
  if (selection == NULL)
    return render_to_file (system, format, path, error);

  data = qd_document_to_data (document, &length);
  copy = qd_document_load_data (data, length, path, error);
  if (copy == NULL)
    return FALSE;
  part = find_same_system (copy, system);
  if (part == NULL)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_FAILED,
                   _("%s: the system shown is not part of the diagram"), path);
      return FALSE;
    }
  for (guint i = part->blocks->len; i > 0; i--)
    {
      QdBlock *block = g_ptr_array_index (part->blocks, i - 1);

      if (!g_hash_table_contains (selection, block->id))
        qd_document_remove_block (copy, block);
    }
  return render_to_file (part, format, path, error);
}

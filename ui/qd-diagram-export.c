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
#include <string.h>

#include "qd-canvas-render.h"
#include "qd-diagram-export.h"
#include "qd-image-file.h"

/* Around the drawing, in canvas units: room for port stubs and names
 * drawn below blocks. */
#define EXPORT_MARGIN 24.0
/* PNG pixels per canvas unit. */
#define PNG_SCALE 2.0

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

typedef struct
{
  const QdSystem        *system;
  QdCanvasRenderOptions *options;
  double                 width;
  double                 height;
} RenderJob;

static void
render_job (cairo_t  *cr,
            gpointer  user_data)
{
  RenderJob *job = user_data;

  qd_canvas_render (cr, job->system, job->options, job->width, job->height);
}

static gboolean
render_to_file (const QdSystem  *system,
                QdImageFormat    format,
                const char      *path,
                GError         **error)
{
  QdCanvasRenderOptions options;
  QdCanvasStyle style;
  QdRect bounds;
  cairo_status_t status;
  double scale = format == QD_IMAGE_FORMAT_PNG ? PNG_SCALE : 1.0;
  RenderJob job = { system, &options, 0, 0 };

  if (!qd_canvas_system_bounds (system, &bounds))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_FAILED,
                   _("%s: there is nothing to export; add blocks to the "
                     "diagram or select some"), path);
      return FALSE;
    }
  job.width = (bounds.width + 2 * EXPORT_MARGIN) * scale;
  job.height = (bounds.height + 2 * EXPORT_MARGIN) * scale;

  qd_canvas_style_init_light (&style);
  qd_canvas_render_options_init (&options);
  options.zoom = scale;
  options.origin_x = bounds.x - EXPORT_MARGIN;
  options.origin_y = bounds.y - EXPORT_MARGIN;
  options.draw_grid = FALSE;
  options.draw_background = TRUE;
  options.style = &style;

  status = qd_image_write (path, format, job.width, job.height, render_job, &job);
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
  QdImageFormat format = qd_image_format_for_path (path);
  g_autoptr(QdDocument) copy = NULL;
  g_autofree char *data = NULL;
  QdSystem *part;
  gsize length = 0;

  g_return_val_if_fail (QD_IS_DOCUMENT (document), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (system == NULL)
    system = qd_document_get_root (document);
  if (format == QD_IMAGE_FORMAT_UNKNOWN)
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

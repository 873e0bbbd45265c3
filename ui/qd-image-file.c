/* qd-image-file.c: writing a Cairo drawing to a PNG, SVG or PDF file */
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <math.h>

#include "qd-image-file.h"

QdImageFormat
qd_image_format_for_path (const char *path)
{
  g_autofree char *lower = NULL;

  if (path == NULL)
    return QD_IMAGE_FORMAT_UNKNOWN;
  lower = g_ascii_strdown (path, -1);
  if (g_str_has_suffix (lower, ".png"))
    return QD_IMAGE_FORMAT_PNG;
  if (g_str_has_suffix (lower, ".svg"))
    return QD_IMAGE_FORMAT_SVG;
  if (g_str_has_suffix (lower, ".pdf"))
    return QD_IMAGE_FORMAT_PDF;
  return QD_IMAGE_FORMAT_UNKNOWN;
}

cairo_status_t
qd_image_write (const char      *path,
                QdImageFormat    format,
                double           width,
                double           height,
                QdImageDrawFunc  draw,
                gpointer         user_data)
{
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  g_return_val_if_fail (path != NULL, CAIRO_STATUS_NULL_POINTER);
  g_return_val_if_fail (draw != NULL, CAIRO_STATUS_NULL_POINTER);

  switch (format)
    {
    case QD_IMAGE_FORMAT_SVG:
      surface = cairo_svg_surface_create (path, width, height);
      break;
    case QD_IMAGE_FORMAT_PDF:
      surface = cairo_pdf_surface_create (path, width, height);
      break;
    case QD_IMAGE_FORMAT_PNG:
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32,
                                            (int) ceil (width), (int) ceil (height));
      break;
    case QD_IMAGE_FORMAT_UNKNOWN:
    default:
      g_return_val_if_reached (CAIRO_STATUS_INVALID_FORMAT);
    }
  status = cairo_surface_status (surface);
  if (status != CAIRO_STATUS_SUCCESS)
    {
      cairo_surface_destroy (surface);
      return status;
    }

  cr = cairo_create (surface);
  draw (cr, user_data);
  status = cairo_status (cr);
  cairo_destroy (cr);

  if (status == CAIRO_STATUS_SUCCESS && format == QD_IMAGE_FORMAT_PNG)
    status = cairo_surface_write_to_png (surface, path);
  /* Vector surfaces write the file when finished; errors show then. */
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  return status;
}

/* qd-image-file.h: writing a Cairo drawing to a PNG, SVG or PDF file
 *
 * One place for what every export does the same way (the diagram, a
 * plot, `qdevs-cli run --plot`): the format a file name asks for, the
 * surface for it, and the two ways a file gets written (PNG explicitly,
 * vector formats when the surface is finished) with the first error
 * kept. The callers word their own error messages.
 */
#pragma once

#include <cairo.h>
#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  QD_IMAGE_FORMAT_UNKNOWN,
  QD_IMAGE_FORMAT_PNG,
  QD_IMAGE_FORMAT_SVG,
  QD_IMAGE_FORMAT_PDF,
} QdImageFormat;

typedef void (*QdImageDrawFunc) (cairo_t  *cr,
                                 gpointer  user_data);

/* The format a file name asks for by its extension (any case). */
QdImageFormat  qd_image_format_for_path (const char      *path);

/* Creates @path in @format (not UNKNOWN), @width by @height (PNG: pixels,
 * rounded up; SVG and PDF: points), lets @draw draw into it, and writes
 * it. Returns CAIRO_STATUS_SUCCESS, or the first error on the way. */
cairo_status_t qd_image_write           (const char      *path,
                                         QdImageFormat    format,
                                         double           width,
                                         double           height,
                                         QdImageDrawFunc  draw,
                                         gpointer         user_data);

G_END_DECLS

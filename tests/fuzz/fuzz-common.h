/* fuzz-common.h: what the fuzz targets share
 *
 * Each target starts from the same two steps: the library set up once,
 * with GLib's criticals and warnings made fatal (each is a bug the fuzzer
 * found), and the input loaded, where a refusal must be an error of the
 * library's domain that names the file.
 */
#pragma once

#include <stdlib.h>

#include "qdevs.h"

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

static inline void
fuzz_init (void)
{
  static gboolean initialized = FALSE;

  if (initialized)
    return;
  g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
  qd_init ();
  initialized = TRUE;
}

/* The document in @data, or NULL when the loader refused it as it must. */
static inline QdDocument *
fuzz_load (const guint8 *data,
           size_t        size)
{
  GError *error = NULL;
  QdDocument *doc;

  fuzz_init ();
  doc = qd_document_load_data ((const char *) data, size, "fuzz.qdevs", &error);
  if (doc == NULL)
    {
      if (error == NULL || error->domain != QD_ERROR
          || !g_str_has_prefix (error->message, "fuzz.qdevs"))
        abort ();
      g_error_free (error);
    }
  else if (error != NULL)
    abort ();
  return doc;
}

/* fuzz-load.c: a libFuzzer target for the .qdevs loader
 *
 * Whatever the bytes, qd_document_load_data() must return a document or an
 * error, never crash, leak or trip a sanitizer. When a document loads, its
 * canonical text must load again and give the same text: the round trip
 * the format promises.
 */
#include <stdlib.h>
#include <string.h>

#include "qdevs.h"

int LLVMFuzzerTestOneInput (const guint8 *data,
                            size_t        size);

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  static gboolean initialized = FALSE;
  QdDocument *doc;
  GError *error = NULL;

  if (!initialized)
    {
      /* A critical or a warning from the engine is a bug the fuzzer found. */
      g_log_set_always_fatal (G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING);
      qd_init ();
      initialized = TRUE;
    }

  doc = qd_document_load_data ((const char *) data, size, "fuzz.qdevs", &error);
  if (doc == NULL)
    {
      if (error == NULL || error->domain != QD_ERROR
          || !g_str_has_prefix (error->message, "fuzz.qdevs"))
        abort ();
      g_error_free (error);
      return 0;
    }
  if (error != NULL)
    abort ();

  {
    gsize length, length2;
    char *text = qd_document_to_data (doc, &length);
    QdDocument *again = qd_document_load_data (text, length, "canonical.qdevs", &error);
    char *text2;

    if (again == NULL)
      {
        g_printerr ("canonical text does not load: %s\n%s", error->message, text);
        abort ();
      }
    text2 = qd_document_to_data (again, &length2);
    if (length != length2 || memcmp (text, text2, length) != 0)
      {
        g_printerr ("round trip changed the text:\n%s\n---\n%s", text, text2);
        abort ();
      }
    g_free (text);
    g_free (text2);
    g_object_unref (again);
  }
  g_object_unref (doc);

  return 0;
}

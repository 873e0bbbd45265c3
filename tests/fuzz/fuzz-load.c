/* fuzz-load.c: a libFuzzer target for the .qdevs loader
 *
 * Whatever the bytes, qd_document_load_data() must return a document or an
 * error, never crash, leak or trip a sanitizer. When a document loads, its
 * canonical text must load again and give the same text: the round trip
 * the format promises.
 */
#include <string.h>

#include "fuzz-common.h"

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  QdDocument *doc = fuzz_load (data, size);
  GError *error = NULL;

  if (doc == NULL)
    return 0;

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

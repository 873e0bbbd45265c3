/* test-smoke.c: the library initialises and registers its structural types */
#include "qd-test-util.h"

static void
test_registry_structural (void)
{
  const QdBlockType *type = qd_registry_lookup (QD_TYPE_SUBSYSTEM);

  g_assert_nonnull (type);
  g_assert_true (type->flags & QD_BLOCK_STRUCTURAL);
  g_assert_null (qd_registry_lookup ("no-such-block"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();
  g_test_add_func ("/registry/structural", test_registry_structural);
  return g_test_run ();
}

/* test-discrete.c: the Discrete and Sinks blocks and the run statistics */
#include "qd-test-util.h"

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();
  return g_test_run ();
}

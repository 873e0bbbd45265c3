/* plot-demo.c: a window with a live plot fed by a worker thread */
#include "qd-plot.h"

int
main (int argc, char **argv)
{
  return 0;
}

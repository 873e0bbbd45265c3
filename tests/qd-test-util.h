/* qd-test-util.h: helpers shared by the tests */
#pragma once

#include <glib.h>

#include "qdevs.h"

G_BEGIN_DECLS

/* An absolute path below the source tree: qd_test_source_path ("data",
 * "examples", "exp-decay.qdevs", NULL). */
char       *qd_test_source_path   (const char *first, ...) G_GNUC_NULL_TERMINATED;

G_END_DECLS

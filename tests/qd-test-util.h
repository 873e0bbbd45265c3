/* qd-test-util.h: helpers shared by the tests */
#pragma once

#include <glib.h>

#include "qdevs.h"

G_BEGIN_DECLS

/* An absolute path below the source tree: qd_test_source_path ("data",
 * "examples", "exp-decay.qdevs", NULL). */
char       *qd_test_source_path   (const char *first, ...) G_GNUC_NULL_TERMINATED;

/* A text dump of everything a document holds, in order: title,
 * description, settings, variables, then each system's blocks (id, type,
 * name, geometry, parameters as set) and links (id, source, targets with
 * bend points), subsystems nested. Equal dumps mean equal structure. */
char       *qd_test_dump_document (QdDocument *document);

G_END_DECLS

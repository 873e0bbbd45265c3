/* qd-structural.h: the subsystem and port block types (private)
 *
 * The registry holds them from its first use (qd-registry.c): they are
 * the engine's own, and no library needs to register them.
 */
#pragma once

#include "qd-block-type.h"

/* NULL-terminated. */
extern const QdBlockType *const qd_structural_types[];

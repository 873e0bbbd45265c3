/* qd-blocks.h: the built-in block library */
#pragma once

#include <glib.h>

#include "qd-version-macros.h"

G_BEGIN_DECLS

/* Registers the engine's structural types and every built-in block type in
 * the registry, and binds the translation domain. Safe to call more than
 * once, from any thread. */
QD_API void qd_init (void);

G_END_DECLS

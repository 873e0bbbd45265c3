/* qd-blocks.h: the built-in block library */
#pragma once

#include <glib.h>

#include "qd-version-macros.h"

G_BEGIN_DECLS

/* Registers the engine's structural types and every built-in block type in
 * the registry, and binds the translation domain. Safe to call more than
 * once, from any thread. */
QD_API void qd_init (void);

/* The user's folder of library blocks, $XDG_DATA_HOME/qdevs/blocks
 * (free it). */
QD_API char  *qd_blocks_get_library_dir (void);
/* Registers each NAME.lua of @dir (the user's folder when NULL) as the
 * block type "lua:NAME" (see docs/custom-blocks.md). A script that cannot
 * be read, whose header is wrong or that does not compile is left out
 * and its message, "FILE: script line N: ...", added to @problems (may be
 * NULL). qd_init() loads the user's folder. Returns how many it added. */
QD_API guint  qd_blocks_load_library    (const char *dir,
                                         GPtrArray  *problems);
/* Checks a Lua block script without running it: its header and its
 * syntax. On a problem returns FALSE with its script @line (0 when it
 * has none) and @message (free it). */
QD_API gboolean qd_blocks_check_lua_script (const char  *script,
                                            int         *line,
                                            char       **message);

G_END_DECLS

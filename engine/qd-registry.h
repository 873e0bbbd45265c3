/* qd-registry.h: the registry of block types
 *
 * One process-wide registry. The engine's structural types (subsystem,
 * inport, outport) are in it from its first use; qd_init() (qd-blocks.h)
 * adds the built-in block library, the user's Lua library and the
 * plugins. Register everything before the first compile
 * or load; lookups are thread-safe afterwards.
 */
#pragma once

#include <glib.h>

#include "qd-version-macros.h"
#include "qd-block-type.h"

G_BEGIN_DECLS

/* Type ids of the structural blocks. */
#define QD_TYPE_SUBSYSTEM "subsystem"
#define QD_TYPE_INPORT    "inport"
#define QD_TYPE_OUTPORT   "outport"
/* A block kept from another program (an imported model) that has no
 * QDevs counterpart: see qd-structural.c. */
#define QD_TYPE_PLACEHOLDER "placeholder"

/**
 * qd_registry_register:
 * @type: a descriptor that lives as long as the process (a static
 *   constant, or a plugin's)
 *
 * Adds @type. Registering an id twice is a programming error and is
 * ignored with a warning; plugins are registered by qd_plugins_load().
 */
QD_API void                qd_registry_register (const QdBlockType *type);
/**
 * qd_registry_lookup:
 * @id: a type id ("integrator", "lua:NAME", "PLUGIN:TYPE")
 *
 * Returns: (nullable) (transfer none): the type, or %NULL.
 */
QD_API const QdBlockType  *qd_registry_lookup   (const char        *id);
/**
 * qd_registry_list:
 * @n_types: (out) (optional): the number of types
 *
 * Every registered type, sorted by category then display name: what the
 * palette, `qdevs-cli blocks` and the block reference show.
 *
 * Returns: (transfer none): the array, owned by the registry.
 */
QD_API const QdBlockType *const *qd_registry_list (guint *n_types);

/* The parameter @name (QD_PARAM_INHERIT) that block types take from the
 * model's settings, as the registered types declare it: the first in
 * the list's order among the QD_BLOCK_INTEGRATOR types, else among all
 * types; NULL when no type has one. The engine and the editor read the
 * choices of a setting (the integration methods) and its default (the
 * first choice) from it instead of from any one type. */
QD_API const QdParamSpec *qd_registry_find_setting_param (const char *name);

/* A provider of block types loaded from outside the program (the user's
 * Lua library, plugins) says where it would have found @type_id, which
 * is not registered: "looked for as /path/NAME.lua" (free it), or NULL
 * when the id is none of its own. Messages about a missing type end
 * with that. */
typedef char *(*QdRegistryWhereFunc) (const char *type_id);

QD_API void                qd_registry_add_where_func (QdRegistryWhereFunc func);
/* The first answer of the functions added, or NULL (free it). */
QD_API char               *qd_registry_where_looked   (const char *type_id);

G_END_DECLS

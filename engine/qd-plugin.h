/* qd-plugin.h: block types in C plugins
 *
 * A plugin is a shared module (GModule) that adds block types to the
 * registry. It exports one function, qd_plugin_register(), which returns
 * a constant descriptor table: the version of the block API it was built
 * against, its name, and its block types. QDevs loads every module of
 * the plugin folders at start-up (qd_init()), in this order, the first
 * plugin of a name winning:
 *
 *   1. the folders of $QDEVS_PLUGIN_PATH (separated by ':'),
 *   2. the user's folder, $XDG_DATA_HOME/qdevs/plugins,
 *   3. the installed folder, $libdir/qdevs/plugins.
 *
 * A plugin's block types have ids "NAME:TYPE", NAME being the plugin's
 * name; a diagram that uses such a type while its plugin is missing still
 * opens (the block is kept as a placeholder, see docs/custom-blocks.md).
 *
 * A plugin type writes the DEVS functions only (check, init, ta, dint,
 * dext, lambda, exit, and optionally ports, is_static and frozen_output):
 * the fused fast paths of QdBlockType (fire, dext_ta and the cascade
 * kernels) belong to the built-in library, as do the structural flags
 * (QD_BLOCK_STRUCTURAL, QD_BLOCK_TAG_SINK, QD_BLOCK_TAG_SOURCE), and a
 * type that sets them is refused.
 */
#pragma once

#include <glib.h>
#include <gmodule.h>

#include "qd-version-macros.h"
#include "qd-block-type.h"

G_BEGIN_DECLS

/**
 * QD_BLOCK_API_VERSION:
 *
 * The version of the block API (qd-block-type.h, qd-plugin.h): it
 * changes whenever a plugin built against an older one could no longer
 * work (a changed QdBlockType, QdAtomic or QdSignal layout, a changed
 * function). A plugin records the version it was built with in its
 * QdPluginInfo and is refused by any other.
 */
#define QD_BLOCK_API_VERSION 1

/**
 * QD_PLUGIN_REGISTER_SYMBOL:
 *
 * The name of the function every plugin exports.
 */
#define QD_PLUGIN_REGISTER_SYMBOL "qd_plugin_register"

/**
 * QdPluginInfo:
 * @api_version: %QD_BLOCK_API_VERSION, as the plugin was built
 * @name: the plugin's name: letters, digits, '_' and '-'; the ids of its
 *   types begin with it and a ':'
 * @types: its block types, %NULL-terminated, constant for the life of
 *   the process
 *
 * The descriptor table a plugin returns. @api_version comes first and
 * stays first in every version of the API, so that any QDevs can read it.
 */
typedef struct
{
  guint                      api_version;
  const char                *name;
  const QdBlockType *const  *types;
} QdPluginInfo;

/**
 * QdPluginRegisterFunc:
 *
 * The type of qd_plugin_register(), the one function a plugin exports.
 * Returns: (transfer none): the plugin's descriptor table.
 */
typedef const QdPluginInfo *(*QdPluginRegisterFunc) (void);

/**
 * QD_PLUGIN_DEFINE:
 * @info: a static QdPluginInfo
 *
 * Defines the exported registration function of a plugin, returning
 * @info.
 */
#define QD_PLUGIN_DEFINE(info)                                          \
  G_MODULE_EXPORT const QdPluginInfo *qd_plugin_register (void);        \
  G_MODULE_EXPORT const QdPluginInfo *qd_plugin_register (void)         \
  {                                                                     \
    return &(info);                                                     \
  }

/**
 * qd_plugins_get_search_path:
 *
 * The plugin folders, in the order they are searched (see above).
 *
 * Returns: (transfer full): a %NULL-terminated array; free it with
 *   g_strfreev().
 */
QD_API char   **qd_plugins_get_search_path (void);

/**
 * qd_plugins_load_dir:
 * @dir: a folder
 * @problems: (nullable) (element-type utf8): where messages go
 *
 * Loads each shared module of @dir (in name order) and registers its
 * block types. A module that cannot be opened, exports no
 * qd_plugin_register(), was built for another %QD_BLOCK_API_VERSION, or
 * whose table is wrong is closed again, and a message naming the file
 * and saying what to do is added to @problems. A plugin whose name was
 * loaded before is skipped.
 *
 * Returns: the number of plugins registered.
 */
QD_API guint    qd_plugins_load_dir        (const char *dir,
                                            GPtrArray  *problems);

/**
 * qd_plugins_load:
 * @problems: (nullable) (element-type utf8): where messages go
 *
 * qd_plugins_load_dir() on each folder of the search path; qd_init()
 * calls it.
 *
 * Returns: the number of plugins registered.
 */
QD_API guint    qd_plugins_load            (GPtrArray  *problems);

G_END_DECLS

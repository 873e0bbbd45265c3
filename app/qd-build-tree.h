/* qd-build-tree.h: running the programs from the Meson build tree
 *
 * Run without installing (./build/app/qdevs, as the README's quick start
 * does), the programs read what the build tree holds instead of what
 * is (or is not yet) installed: the compiled translations, and the
 * examples of the source tree the build was configured from.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* BUILD when the executable lies in BUILD/app of a Meson build tree
 * (BUILD/meson-info/meson-info.json exists), NULL when installed. */
char *qd_build_tree_dup_root (void);

/* Binds the message catalogs of GETTEXT_PACKAGE: BUILD/po, where Meson
 * compiles po/LL.po into LL/LC_MESSAGES/qdevs.mo, when the program runs
 * from the build tree, the installed ones (QD_LOCALEDIR) otherwise. Call
 * after qd_init (), which binds the installed ones for the library. */
void  qd_build_tree_bind_textdomain (void);

G_END_DECLS

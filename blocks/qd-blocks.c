/* qd-blocks.c: registration of the built-in block library */
#include <glib/gi18n-lib.h>

#include "qd-blocks.h"
#include "qd-blocks-private.h"
#include "qd-structural.h"

static const QdBlockType *const builtin_blocks[] = {
  /* one line per descriptor, in the order of qd-blocks-private.h */
  NULL
};

void
qd_init (void)
{
  static gsize initialized = 0;

  if (g_once_init_enter (&initialized))
    {
      bindtextdomain (GETTEXT_PACKAGE, QD_LOCALEDIR);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      qd_structural_register ();
      for (guint i = 0; builtin_blocks[i] != NULL; i++)
        qd_registry_register (builtin_blocks[i]);
      g_once_init_leave (&initialized, 1);
    }
}

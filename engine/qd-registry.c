/* qd-registry.c: the registry of block types */
#include "qd-registry.h"
#include "qd-structural.h"

#include <glib/gi18n-lib.h>
#include <string.h>

/* Types by id, and the sorted list handed to the palette and the CLI.
 * Registration happens once at start-up (qd_init); the lock makes a late
 * registration from another thread safe, not fast. The engine's
 * structural types are there from the first use. */
static GMutex registry_lock;
static GHashTable *types_by_id;
static GPtrArray *sorted_types;
static GPtrArray *where_funcs;

static int
compare_types (gconstpointer a,
               gconstpointer b)
{
  const QdBlockType *ta = *(const QdBlockType **) a;
  const QdBlockType *tb = *(const QdBlockType **) b;
  int c = strcmp (ta->category, tb->category);

  return c != 0 ? c : strcmp (ta->name, tb->name);
}

static void
add_locked (const QdBlockType *type)
{
  if (g_hash_table_contains (types_by_id, type->id))
    g_warning ("Block type '%s' is registered twice; keeping the first", type->id);
  else
    {
      g_hash_table_insert (types_by_id, (gpointer) type->id, (gpointer) type);
      g_ptr_array_add (sorted_types, (gpointer) type);
      g_ptr_array_sort (sorted_types, compare_types);
    }
}

/* With the lock held: the tables, made on first use with the engine's
 * structural types in them. */
static void
ensure_locked (void)
{
  if (types_by_id != NULL)
    return;
  types_by_id = g_hash_table_new (g_str_hash, g_str_equal);
  sorted_types = g_ptr_array_new ();
  for (guint i = 0; qd_structural_types[i] != NULL; i++)
    add_locked (qd_structural_types[i]);
}

void
qd_registry_register (const QdBlockType *type)
{
  g_return_if_fail (type != NULL && type->id != NULL);

  g_mutex_lock (&registry_lock);
  ensure_locked ();
  add_locked (type);
  g_mutex_unlock (&registry_lock);
}

void
qd_registry_add_where_func (QdRegistryWhereFunc func)
{
  g_return_if_fail (func != NULL);

  g_mutex_lock (&registry_lock);
  if (where_funcs == NULL)
    where_funcs = g_ptr_array_new ();
  g_ptr_array_add (where_funcs, (gpointer) func);
  g_mutex_unlock (&registry_lock);
}

char *
qd_registry_where_looked (const char *type_id)
{
  char *where = NULL;
  guint n;

  g_mutex_lock (&registry_lock);
  n = where_funcs != NULL ? where_funcs->len : 0;
  g_mutex_unlock (&registry_lock);
  /* Functions are only ever added: the first n stay where they are. */
  for (guint i = 0; where == NULL && i < n; i++)
    {
      QdRegistryWhereFunc func;

      g_mutex_lock (&registry_lock);
      func = (QdRegistryWhereFunc) g_ptr_array_index (where_funcs, i);
      g_mutex_unlock (&registry_lock);
      where = func (type_id);
    }
  return where;
}

const QdBlockType *
qd_registry_lookup (const char *id)
{
  const QdBlockType *type = NULL;

  if (id == NULL)
    return NULL;
  g_mutex_lock (&registry_lock);
  ensure_locked ();
  type = g_hash_table_lookup (types_by_id, id);
  g_mutex_unlock (&registry_lock);

  return type;
}

const QdBlockType *const *
qd_registry_list (guint *n_types)
{
  const QdBlockType *const *list = NULL;
  guint n = 0;

  g_mutex_lock (&registry_lock);
  ensure_locked ();
  list = (const QdBlockType *const *) sorted_types->pdata;
  n = sorted_types->len;
  g_mutex_unlock (&registry_lock);

  if (n_types != NULL)
    *n_types = n;
  return list;
}

const QdParamSpec *
qd_registry_find_setting_param (const char *name)
{
  const QdParamSpec *found = NULL;
  const QdBlockType *const *types;
  guint n;

  g_return_val_if_fail (name != NULL, NULL);

  types = qd_registry_list (&n);
  /* Two passes: integrators first, then any type. */
  for (int pass = 0; found == NULL && pass < 2; pass++)
    for (guint i = 0; found == NULL && i < n; i++)
      {
        int index;

        if (pass == 0 && (types[i]->flags & QD_BLOCK_INTEGRATOR) == 0)
          continue;
        index = qd_block_type_find_param (types[i], name);
        if (index >= 0 && (types[i]->params[index].flags & QD_PARAM_INHERIT) != 0)
          found = &types[i]->params[index];
      }
  return found;
}

int
qd_block_type_find_param (const QdBlockType *type,
                          const char        *name)
{
  for (guint i = 0; i < type->n_params; i++)
    if (strcmp (type->params[i].name, name) == 0)
      return (int) i;
  return -1;
}

gboolean
qd_param_spec_check_per_input (const QdParamSpec *spec,
                               guint              n_values,
                               guint              n_inputs,
                               GError           **error)
{
  g_autofree char *values = NULL;
  g_autofree char *inputs = NULL;

  g_return_val_if_fail (spec != NULL, FALSE);

  if (n_values == n_inputs)
    return TRUE;
  values = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u value",
                                         "%u values", n_values), n_values);
  inputs = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u input",
                                         "%u inputs", n_inputs), n_inputs);
  /* TRANSLATORS: "parameter 'weights' has 3 values but the block has 2
   * inputs: ..." */
  g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
               _("parameter '%s' has %s but the block has %s: give one value "
                 "per input"),
               spec->name, values, inputs);
  return FALSE;
}

/* qd-stats.c: statistics that blocks report at the end of a run
 *
 * The simulation holds one GPtrArray of entries, kept sorted by block
 * index as they are added: blocks usually report in exit, which runs in
 * block order, so an entry is nearly always appended at the end and the
 * search for an existing name only looks at the last block's entries.
 */
#include "qd-stats.h"
#include "qd-simulation-private.h"

typedef struct
{
  QdStat  stat;       /* first: the array's elements are QdStat* */
  guint   index;      /* the block's priority */
  char   *name;       /* owned copy of stat.name */
} Entry;

static void
entry_free (gpointer data)
{
  Entry *entry = data;

  g_free (entry->name);
  g_free (entry);
}

static GPtrArray *
ensure_stats (QdSimulation *sim)
{
  if (sim->stats == NULL)
    sim->stats = g_ptr_array_new_with_free_func (entry_free);
  return sim->stats;
}

void
qd_atomic_set_stat (QdAtomic   *self,
                    const char *name,
                    double      value)
{
  GPtrArray *stats;
  Entry *entry;
  guint pos;

  g_return_if_fail (self != NULL);
  g_return_if_fail (name != NULL);

  if (self->sim == NULL)
    return;
  stats = ensure_stats (self->sim);

  /* Past every entry of a later block, then back through this block's. */
  pos = stats->len;
  while (pos > 0 && ((Entry *) stats->pdata[pos - 1])->index > self->index)
    pos--;
  for (guint k = pos; k > 0; k--)
    {
      Entry *e = stats->pdata[k - 1];

      if (e->index != self->index)
        break;
      if (g_str_equal (e->name, name))
        {
          e->stat.value = value;
          return;
        }
    }

  entry = g_new0 (Entry, 1);
  entry->index = self->index;
  entry->name = g_strdup (name);
  entry->stat.path = self->path;
  entry->stat.name = entry->name;
  entry->stat.value = value;
  g_ptr_array_insert (stats, (int) pos, entry);
}

GPtrArray *
qd_simulation_get_stats (QdSimulation *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return ensure_stats (self);
}

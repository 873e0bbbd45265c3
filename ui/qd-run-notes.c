/* qd-run-notes.c: what was different in each run (qd-run-notes.h)
 *
 * Each run is remembered as a table from a name as the legend shows it
 * ("k", "method", "Gain.k") to the value's text as written in the model,
 * in the order the names were met: variables, then settings, then the
 * blocks' parameters in the diagram's order.
 */
#include "qd-run-notes.h"

/* A note longer than this many items ends in "…": a legend row is not a
 * list of every edit. */
#define MAX_ITEMS 3

typedef struct
{
  GHashTable *values;   /* name -> value */
  GPtrArray  *order;    /* the names, in order (owned by values) */
} Snapshot;

struct _QdRunNotes
{
  GPtrArray *runs;      /* Snapshot*, run n at n - first */
  guint      first;     /* the number of the oldest run remembered */
};

static void
snapshot_free (gpointer data)
{
  Snapshot *snap = data;

  g_hash_table_unref (snap->values);
  g_ptr_array_unref (snap->order);
  g_free (snap);
}

static void
put (Snapshot   *snap,
     const char *name,
     char       *value)
{
  char *key;

  if (g_hash_table_contains (snap->values, name))
    {
      g_free (value);
      return;
    }
  key = g_strdup (name);
  g_hash_table_insert (snap->values, key, value);
  g_ptr_array_add (snap->order, key);
}

static char *
number_text (double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%g", value));
}

/* Every parameter of the blocks of @system and below, as set or by its
 * default: a parameter set to its default is the same model. */
static void
add_blocks (Snapshot   *snap,
            QdSystem   *system,
            const char *prefix)
{
  for (guint i = 0; i < system->blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (system->blocks, i);
      const QdBlockType *type = qd_registry_lookup (block->type);
      g_autofree char *path = *prefix != '\0' ? g_strconcat (prefix, "/", block->name, NULL)
                                              : g_strdup (block->name);

      for (guint k = 0; type != NULL && k < type->n_params; k++)
        {
          const QdParamSpec *spec = &type->params[k];
          const char *value = spec->default_value;
          g_autofree char *name = g_strconcat (path, ".", spec->name, NULL);

          for (guint p = 0; block->params != NULL && p < block->params->len; p++)
            {
              const QdParam *param = &g_array_index (block->params, QdParam, p);

              if (g_strcmp0 (param->name, spec->name) == 0)
                value = param->value;
            }
          put (snap, name, g_strdup (value != NULL ? value : ""));
        }
      if (block->inner != NULL)
        add_blocks (snap, block->inner, path);
    }
}

QdRunNotes *
qd_run_notes_new (void)
{
  QdRunNotes *self = g_new0 (QdRunNotes, 1);

  self->runs = g_ptr_array_new_with_free_func (snapshot_free);
  self->first = 1;
  return self;
}

void
qd_run_notes_free (QdRunNotes *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->runs);
  g_free (self);
}

guint
qd_run_notes_add (QdRunNotes *self,
                  QdDocument *document)
{
  Snapshot *snap = g_new0 (Snapshot, 1);
  const QdSettings *settings = qd_document_get_settings (document);
  GPtrArray *variables = qd_document_get_variables (document);
  gboolean classic;

  snap->values = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  snap->order = g_ptr_array_new ();
  for (guint i = 0; variables != NULL && i < variables->len; i++)
    {
      QdVariable *v = g_ptr_array_index (variables, i);

      put (snap, v->name, g_strdup (v->value));
    }
  /* The settings by their names in the file; the classic solver's
   * options only under a classic solver, where they mean something. */
  classic = settings->solver != NULL && g_strcmp0 (settings->solver, "qss") != 0;
  put (snap, "solver", g_strdup (settings->solver != NULL ? settings->solver : "qss"));
  put (snap, "method", g_strdup (settings->method != NULL ? settings->method : ""));
  put (snap, "dqrel", number_text (settings->dqrel));
  put (snap, "dqmin", number_text (settings->dqmin));
  put (snap, "final_time", number_text (settings->final_time));
  if (classic)
    {
      put (snap, "rtol", number_text (settings->rtol));
      put (snap, "atol", number_text (settings->atol));
      put (snap, "h", number_text (settings->h));
    }
  add_blocks (snap, qd_document_get_root (document), "");
  g_ptr_array_add (self->runs, snap);
  return self->first + self->runs->len - 1;
}

void
qd_run_notes_clear (QdRunNotes *self)
{
  g_ptr_array_set_size (self->runs, 0);
  self->first = 1;
}

void
qd_run_notes_forget_earlier (QdRunNotes *self)
{
  if (self->runs->len <= 1)
    return;
  self->first += self->runs->len - 1;
  g_ptr_array_remove_range (self->runs, 0, self->runs->len - 1);
}

guint
qd_run_notes_get_n (QdRunNotes *self)
{
  return self->runs->len;
}

/* Whether @name has the same value in every run that has it, and every
 * run has it (a block added later differs from its absence). */
static gboolean
same_everywhere (QdRunNotes *self,
                 const char *name,
                 const char *value)
{
  for (guint i = 0; i < self->runs->len; i++)
    {
      Snapshot *other = g_ptr_array_index (self->runs, i);
      const char *v = g_hash_table_lookup (other->values, name);

      if (v == NULL || g_strcmp0 (v, value) != 0)
        return FALSE;
    }
  return TRUE;
}

char *
qd_run_notes_describe (QdRunNotes *self,
                       guint       number)
{
  Snapshot *snap;
  GString *text;
  guint n = 0;

  g_return_val_if_fail (self != NULL, NULL);
  if (number < self->first || number - self->first >= self->runs->len)
    return NULL;
  snap = g_ptr_array_index (self->runs, number - self->first);
  text = g_string_new (NULL);
  for (guint i = 0; i < snap->order->len; i++)
    {
      const char *name = g_ptr_array_index (snap->order, i);
      const char *value = g_hash_table_lookup (snap->values, name);

      if (same_everywhere (self, name, value))
        continue;
      if (n == MAX_ITEMS)
        {
          g_string_append (text, ", …");
          break;
        }
      if (n > 0)
        g_string_append (text, ", ");
      g_string_append_printf (text, "%s = %s", name, value);
      n++;
    }
  if (text->len == 0)
    {
      g_string_free (text, TRUE);
      return NULL;
    }
  return g_string_free (text, FALSE);
}

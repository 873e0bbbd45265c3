/* qd-document-index.c: the document's indexes and ids
 *
 * The document-wide indexes of blocks, links, driven inputs and driving
 * outputs reachable from the root, the lookups through them, and the ids
 * a document hands out to new blocks and links.
 */
#include <string.h>

#include "qd-document-private.h"

/* A key of the driver and source indexes: a port of a block, without
 * formatting it into a text. */
typedef struct
{
  char  *block;
  guint  port;
} EndpointKey;

static guint
endpoint_key_hash (gconstpointer data)
{
  const EndpointKey *key = data;

  return g_str_hash (key->block) * 31u + key->port;
}

static gboolean
endpoint_key_equal (gconstpointer a,
                    gconstpointer b)
{
  const EndpointKey *x = a, *y = b;

  return x->port == y->port
         && (x->block == y->block || strcmp (x->block, y->block) == 0);
}

static void
endpoint_key_free (gpointer data)
{
  EndpointKey *key = data;

  g_free (key->block);
  g_free (key);
}

static EndpointKey *
endpoint_key (const char *block,
              guint       port)
{
  EndpointKey *key = g_new (EndpointKey, 1);

  key->block = g_strdup (block);
  key->port = port;
  return key;
}

/* Adds or removes one port in an index; a removal leaves an entry that
 * another link has taken over since. */
static void
index_endpoint (GHashTable       *index,
                QdLink           *link,
                const QdEndpoint *endpoint,
                gboolean          add)
{
  EndpointKey key = { endpoint->block, endpoint->port };

  if (add)
    g_hash_table_insert (index, endpoint_key (endpoint->block, endpoint->port), link);
  else if (g_hash_table_lookup (index, &key) == link)
    g_hash_table_remove (index, &key);
}

/* Adds or removes one driven input in the index of drivers. */
void
qd_document_index_target (QdDocument         *self,
              QdLink             *link,
              const QdLinkTarget *target,
              gboolean            add)
{
  index_endpoint (self->drivers, link, &target->dst, add);
}

void
qd_document_index_source (QdDocument *self,
              QdLink     *link,
              gboolean    add)
{
  index_endpoint (self->sources, link, &link->src, add);
}

void
qd_document_index_link (QdDocument *self,
            QdLink     *link,
            gboolean    add)
{
  if (add)
    g_hash_table_insert (self->link_index, link->id, link);
  else if (g_hash_table_lookup (self->link_index, link->id) == link)
    g_hash_table_remove (self->link_index, link->id);

  qd_document_index_source (self, link, add);
  for (guint i = 0; i < link->n_targets; i++)
    qd_document_index_target (self, link, link->targets[i], add);
}

static void
index_system (QdDocument *self,
              QdSystem   *system,
              gboolean    add);

void
qd_document_index_block (QdDocument *self,
             QdBlock    *block,
             gboolean    add)
{
  if (add)
    g_hash_table_insert (self->block_index, block->id, block);
  else if (g_hash_table_lookup (self->block_index, block->id) == block)
    g_hash_table_remove (self->block_index, block->id);

  if (block->inner != NULL)
    index_system (self, block->inner, add);
}

static void
index_system (QdDocument *self,
              QdSystem   *system,
              gboolean    add)
{
  for (guint i = 0; i < system->blocks->len; i++)
    qd_document_index_block (self, g_ptr_array_index (system->blocks, i), add);
  for (guint i = 0; i < system->links->len; i++)
    qd_document_index_link (self, g_ptr_array_index (system->links, i), add);
}

/* Whether @system hangs from the root (and not from a block that lives
 * only in the history). */
static gboolean
is_attached (QdDocument *self,
             QdSystem   *system)
{
  while (system != NULL && system->owner != NULL)
    system = system->owner->parent;
  return system == self->root;
}

/* Whether the indexes must follow an edit of @system. */
gboolean
qd_document_indexed (QdDocument *self,
         QdSystem   *system)
{
  return !self->index_dirty && is_attached (self, system);
}

static void
ensure_index (QdDocument *self)
{
  if (!self->index_dirty)
    return;
  g_hash_table_remove_all (self->block_index);
  g_hash_table_remove_all (self->link_index);
  g_hash_table_remove_all (self->drivers);
  g_hash_table_remove_all (self->sources);
  index_system (self, self->root, TRUE);
  self->index_dirty = FALSE;
}

/* The link driving input @port of block @id (ids are unique in the
 * document, so the block alone names the system). */
QdLink *
qd_document_find_driver (QdDocument *self,
                         const char *id,
                         guint       port)
{
  EndpointKey key = { (char *) id, port };

  ensure_index (self);
  return g_hash_table_lookup (self->drivers, &key);
}

QdLink *
qd_document_find_source (QdDocument *self,
                         const char *id,
                         guint       port)
{
  EndpointKey key = { (char *) id, port };

  ensure_index (self);
  return g_hash_table_lookup (self->sources, &key);
}

/* The prefix last looked up by note_id(): ids come in long runs with the
 * same prefix ("b1", "b2"...), so most need no hash lookup. */
typedef struct
{
  const char *prefix;    /* a key of id_counters, or NULL */
  gsize       len;
  guint64    *counter;
} IdCache;

/* Records the numeric suffix of an id ("b12": prefix "b", 12) so that
 * new ids do not reuse it. A loaded model has an id per block and link:
 * this runs once for each, so it reads the number in place and looks the
 * prefix up only when it differs from the last one. */
static void
note_id (QdDocument *self,
         IdCache    *cache,
         const char *id)
{
  gsize len = strlen (id);
  gsize start = len;
  guint64 number = 0;
  guint64 *counter;

  while (start > 0 && g_ascii_isdigit (id[start - 1]))
    start--;
  if (start == len || len - start > 18)
    return;
  for (gsize i = start; i < len; i++)
    number = number * 10 + (guint64) (id[i] - '0');

  if (cache->prefix != NULL && cache->len == start
      && memcmp (cache->prefix, id, start) == 0)
    counter = cache->counter;
  else
    {
      char *prefix = g_strndup (id, start);
      gpointer key;

      if (g_hash_table_lookup_extended (self->id_counters, prefix, &key,
                                        (gpointer *) &counter))
        g_free (prefix);
      else
        {
          counter = g_new0 (guint64, 1);
          g_hash_table_insert (self->id_counters, prefix, counter);
          key = prefix;
        }
      cache->prefix = key;
      cache->len = start;
      cache->counter = counter;
    }
  if (*counter < number)
    *counter = number;
}

static void
note_ids (QdDocument *self,
          IdCache    *cache,
          QdSystem   *system)
{
  for (guint i = 0; i < system->blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (system->blocks, i);

      note_id (self, cache, block->id);
      if (block->inner != NULL)
        note_ids (self, cache, block->inner);
    }
  for (guint i = 0; i < system->links->len; i++)
    note_id (self, cache, ((QdLink *) g_ptr_array_index (system->links, i))->id);
}

char *
qd_document_new_id (QdDocument *self,
                    const char *prefix)
{
  guint64 *counter;
  char *id = NULL;

  g_return_val_if_fail (QD_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (prefix != NULL, NULL);

  counter = g_hash_table_lookup (self->id_counters, prefix);
  if (counter == NULL)
    {
      counter = g_new0 (guint64, 1);
      g_hash_table_insert (self->id_counters, g_strdup (prefix), counter);
    }

  /* Never hand out a number again, even after undo: the history may still
   * hold the block or link that had it. The loop only guards against ids
   * the loader made up without a number we could see. */
  ensure_index (self);
  do
    {
      g_free (id);
      *counter += 1;
      id = g_strdup_printf ("%s%" G_GUINT64_FORMAT, prefix, *counter);
    }
  while (g_hash_table_contains (self->block_index, id)
         || g_hash_table_contains (self->link_index, id));

  return id;
}

QdBlock *
qd_document_find_block (QdDocument *self,
                        const char *id)
{
  g_return_val_if_fail (QD_IS_DOCUMENT (self), NULL);

  if (id == NULL)
    return NULL;
  ensure_index (self);
  return g_hash_table_lookup (self->block_index, id);
}

QdBlock *
qd_document_find_block_by_path (QdDocument *self,
                                const char *path)
{
  QdSystem *system;
  QdBlock *block = NULL;
  char **parts;

  g_return_val_if_fail (QD_IS_DOCUMENT (self), NULL);

  if (path == NULL || path[0] != '/' || path[1] == '\0')
    return NULL;

  parts = g_strsplit (path + 1, "/", -1);
  system = self->root;
  for (guint i = 0; parts[i] != NULL; i++)
    {
      if (system == NULL)
        {
          block = NULL;
          break;
        }
      block = qd_system_find_block_by_name (system, parts[i]);
      if (block == NULL)
        break;
      system = block->inner;
    }
  g_strfreev (parts);

  return block;
}

QdLink *
qd_document_find_link (QdDocument *self,
                       const char *id)
{
  g_return_val_if_fail (QD_IS_DOCUMENT (self), NULL);

  if (id == NULL)
    return NULL;
  ensure_index (self);
  return g_hash_table_lookup (self->link_index, id);
}

GHashTable *
qd_document_endpoint_index_new (void)
{
  return g_hash_table_new_full (endpoint_key_hash, endpoint_key_equal,
                                endpoint_key_free, NULL);
}

void
qd_document_note_root_ids (QdDocument *self,
                           QdSystem   *root)
{
  IdCache cache = { NULL, 0, NULL };

  note_ids (self, &cache, root);
}

/* qd-diagram.c: the plain data of a diagram: blocks, links, systems
 *
 * Construction, reference counting and read-only queries. Nothing here
 * records undo: the document's commands (qd-document.c) build on these
 * structures and keep the history.
 */
#include <glib/gi18n-lib.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qd-diagram.h"
#include "qd-document.h"
#include "qd-expr.h"
#include "qd-history.h"
#include "qd-mask.h"
#include "qd-registry.h"

/* Shared strings
 *
 * A large model repeats the same few texts over and over: type ids,
 * parameter names, values like "0" or "1, -1", and every link endpoint
 * names a block by an id the block already holds. These are immutable once
 * set, so each distinct text is kept once, reference counted, and goes
 * away with its last user. Block names are not shared: they are unique in
 * their system and change on rename. */

/* A shared text: a use count in front of the characters. GRefString
 * would do, but its header is several times the size of an id like
 * "b1234", and there are millions of those. */
typedef struct
{
  guint32 uses;       /* with EMBEDDED: a block's id, not in shared_texts */
  char    text[];
} SharedText;

/* A block's id is not an allocation of its own: it lives in the block's,
 * right after the structure (block_alloc()), and is never in the table
 * (ids are unique, and links name a block by this very text:
 * qd_link_new_from_block()). The block counts as one of its uses, and
 * the memory goes when the last use does: links kept in the edit history
 * may name a block after it has gone. */
#define EMBEDDED 0x80000000u
#define USES_MASK (EMBEDDED - 1)

G_LOCK_DEFINE_STATIC (shared_texts);
static GHashTable *shared_texts;   /* char* (inside a SharedText), a set */

static inline SharedText *
shared_text_of (const char *text)
{
  return (SharedText *) (gpointer) (text - G_STRUCT_OFFSET (SharedText, text));
}

/* share() with the lock of the shared texts held: a caller sharing
 * several texts at once takes it once (a block's id and type, a
 * parameter's name and value), which in a large model being built is a
 * good part of the time. */
static char *
share_locked (const char *text)
{
  SharedText *shared;
  char *found;

  if (text == NULL)
    return NULL;

  if (G_UNLIKELY (shared_texts == NULL))
    shared_texts = g_hash_table_new (g_str_hash, g_str_equal);
  found = g_hash_table_lookup (shared_texts, text);
  if (found != NULL)
    {
      shared = shared_text_of (found);
      g_assert (shared->uses < USES_MASK);
      shared->uses++;
    }
  else
    {
      gsize size = strlen (text) + 1;

      shared = g_malloc (sizeof (SharedText) + size);
      shared->uses = 1;
      memcpy (shared->text, text, size);
      found = shared->text;
      g_hash_table_add (shared_texts, found);
    }
  return found;
}

static char *
share (const char *text)
{
  char *found;

  if (text == NULL)
    return NULL;
  G_LOCK (shared_texts);
  found = share_locked (text);
  G_UNLOCK (shared_texts);
  return found;
}

/* unshare() with the lock of the shared texts held. */
static void
unshare_locked (char *text)
{
  SharedText *shared;

  if (text == NULL)
    return;

  shared = shared_text_of (text);
  if (--shared->uses == 0)
    {
      g_hash_table_remove (shared_texts, text);
      g_free (shared);
    }
  else if (shared->uses == EMBEDDED)
    g_free ((char *) shared - sizeof (QdBlock));
}

static void
unshare (char *text)
{
  if (text == NULL)
    return;

  G_LOCK (shared_texts);
  unshare_locked (text);
  G_UNLOCK (shared_texts);
}

/* Another use of @text, which is already a shared string (a block's id
 * or type): no lookup by its characters. */
static char *
share_again (char *text)
{
  G_LOCK (shared_texts);
  g_assert ((shared_text_of (text)->uses & USES_MASK) < USES_MASK);
  shared_text_of (text)->uses++;
  G_UNLOCK (shared_texts);
  return text;
}

void
qd_endpoint_set_block (QdEndpoint *endpoint,
                       const char *block)
{
  char *copy = share (block);

  unshare (endpoint->block);
  endpoint->block = copy;
}

/* Blocks */

static void
param_clear (gpointer data)
{
  QdParam *param = data;

  unshare (param->name);
  unshare (param->value);
}

/* Parameter sets
 *
 * Most blocks of a large model have one of a few parameter sets (every
 * WSum of a chain has weights "1, -1"), and many set none. A block's
 * parameter array is therefore never changed in place: it is one of a
 * table of distinct sets, shared by every block that has it, and
 * qd_block_set_param_raw() moves the block to another set. The texts in a
 * set are shared strings, so two sets are equal when their name and value
 * pointers are. */

G_LOCK_DEFINE_STATIC (param_sets);
static GHashTable *param_sets;   /* GArray* -> number of blocks using it */

static guint
param_set_hash (gconstpointer data)
{
  const GArray *set = data;
  guint hash = set->len;

  for (guint i = 0; i < set->len; i++)
    {
      const QdParam *param = &g_array_index (set, QdParam, i);

      hash = hash * 31u + g_direct_hash (param->name);
      hash = hash * 31u + g_direct_hash (param->value);
    }
  return hash;
}

static gboolean
param_set_equal (gconstpointer a,
                 gconstpointer b)
{
  const GArray *x = a, *y = b;

  if (x->len != y->len)
    return FALSE;
  for (guint i = 0; i < x->len; i++)
    {
      const QdParam *p = &g_array_index (x, QdParam, i);
      const QdParam *q = &g_array_index (y, QdParam, i);

      if (p->name != q->name || p->value != q->value)
        return FALSE;
    }
  return TRUE;
}

static GArray *
param_set_new (guint reserve)
{
  GArray *set = g_array_sized_new (FALSE, TRUE, sizeof (QdParam), reserve);

  g_array_set_clear_func (set, param_clear);
  return set;
}

/* Takes over @fresh and returns the set equal to it, with one more use. */
static GArray *
param_set_intern (GArray *fresh)
{
  gpointer key, uses;
  GArray *set;

  G_LOCK (param_sets);
  if (G_UNLIKELY (param_sets == NULL))
    param_sets = g_hash_table_new (param_set_hash, param_set_equal);
  if (g_hash_table_lookup_extended (param_sets, fresh, &key, &uses))
    {
      set = key;
      g_hash_table_insert (param_sets, set,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (uses) + 1));
    }
  else
    {
      set = fresh;
      fresh = NULL;
      g_hash_table_insert (param_sets, set, GUINT_TO_POINTER (1));
    }
  G_UNLOCK (param_sets);

  if (fresh != NULL)
    {
      /* Its texts unshared under one lock, not one each. */
      G_LOCK (shared_texts);
      for (guint i = 0; i < fresh->len; i++)
        {
          QdParam *param = &g_array_index (fresh, QdParam, i);

          unshare_locked (param->name);
          unshare_locked (param->value);
        }
      G_UNLOCK (shared_texts);
      g_array_set_clear_func (fresh, NULL);
      g_array_unref (fresh);
    }
  return set;
}

/* The empty set: what every new block starts with. It is made once, stays
 * in the table for good and is not counted, so taking it costs nothing. */
static GArray *empty_param_set;

static GArray *
param_set_empty (void)
{
  if (g_once_init_enter (&empty_param_set))
    {
      GArray *empty = param_set_new (0);

      G_LOCK (param_sets);
      if (param_sets == NULL)
        param_sets = g_hash_table_new (param_set_hash, param_set_equal);
      g_hash_table_insert (param_sets, empty, GUINT_TO_POINTER (1));
      G_UNLOCK (param_sets);
      g_once_init_leave (&empty_param_set, empty);
    }
  return empty_param_set;
}

/* One more use of @set, a set of the table. */
static GArray *
param_set_use (GArray *set)
{
  guint uses;

  if (set == empty_param_set)
    return set;
  G_LOCK (param_sets);
  uses = GPOINTER_TO_UINT (g_hash_table_lookup (param_sets, set));
  g_assert (uses > 0);
  g_hash_table_insert (param_sets, set, GUINT_TO_POINTER (uses + 1));
  G_UNLOCK (param_sets);
  return set;
}

static void
param_set_release (GArray *set)
{
  guint uses;

  if (set == empty_param_set)
    return;
  G_LOCK (param_sets);
  uses = GPOINTER_TO_UINT (g_hash_table_lookup (param_sets, set));
  g_assert (uses > 0);
  if (uses > 1)
    {
      g_hash_table_insert (param_sets, set, GUINT_TO_POINTER (uses - 1));
      set = NULL;
    }
  else
    g_hash_table_remove (param_sets, set);
  G_UNLOCK (param_sets);

  /* Outside the lock: freeing the set releases its texts. */
  if (set != NULL)
    g_array_unref (set);
}

/* One allocation for a block, its id (a shared text of uses 1 and
 * EMBEDDED), a placeholder's port counts and its first name (a rename
 * moves the name out: qd_block_set_name_raw()):
 *
 *   QdBlock | uses, id text | pad to 4, 2 counts (placeholders) | name
 *
 * so that a block of a large model is one allocation, not three. */
static QdBlock *
block_alloc (const char *id,
             const char *name,
             gboolean    placeholder)
{
  gsize id_size = strlen (id) + 1, name_size, ports_at, name_at;
  SharedText *shared;
  QdBlock *block;

  if (name == NULL)
    name = "";
  name_size = strlen (name) + 1;
  ports_at = sizeof (QdBlock) + sizeof (SharedText) + id_size;
  name_at = ports_at;
  if (placeholder)
    {
      ports_at = (ports_at + sizeof (guint) - 1) & ~(sizeof (guint) - 1);
      name_at = ports_at + 2 * sizeof (guint);
    }
  block = g_malloc0 (name_at + name_size);
  shared = (SharedText *) (gpointer) (block + 1);
  shared->uses = EMBEDDED | 1;
  memcpy (shared->text, id, id_size);
  block->id = shared->text;
  block->name = memcpy ((char *) block + name_at, name, name_size);
  block->placeholder = placeholder;
  block->ref_count = 1;
  return block;
}

/* Where block_alloc() put @block's first name. */
static const char *
block_inline_name (const QdBlock *block)
{
  if (block->placeholder)
    return (const char *) (qd_block_placeholder_ports (block) + 2);
  return block->id + strlen (block->id) + 1;
}

guint *
qd_block_placeholder_ports (const QdBlock *block)
{
  gsize end;

  g_return_val_if_fail (block != NULL, NULL);

  if (!block->placeholder)
    return NULL;
  end = GPOINTER_TO_SIZE (block->id + strlen (block->id) + 1);
  end = (end + sizeof (guint) - 1) & ~(sizeof (guint) - 1);
  return GSIZE_TO_POINTER (end);
}

static QdBlock *
block_new (const char *id,
           const char *type,
           const char *name,
           gboolean    placeholder)
{
  QdBlock *block;

  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (type != NULL, NULL);

  block = block_alloc (id, name, placeholder);
  block->type = share (type);
  block->params = param_set_empty ();
  block->width = 60;
  block->height = 40;
  if (strcmp (type, QD_TYPE_SUBSYSTEM) == 0)
    {
      block->width = 80;
      block->height = 60;
      block->inner = qd_system_new ();
      block->inner->owner = block;
    }

  return block;
}

QdBlock *
qd_block_new (const char *id,
              const char *type,
              const char *name)
{
  return block_new (id, type, name, FALSE);
}

QdBlock *
qd_block_new_placeholder (const char *id,
                          const char *type,
                          const char *name)
{
  return block_new (id, type, name, TRUE);
}

QdBlock *
qd_block_new_like (const QdBlock *like,
                   const char    *id,
                   const char    *name)
{
  QdBlock *block = block_alloc (id, name, FALSE);

  block->type = share_again (like->type);
  block->params = param_set_use (like->params);
  block->x = like->x;
  block->y = like->y;
  block->width = like->width;
  block->height = like->height;
  if (like->inner != NULL)
    {
      block->inner = qd_system_new ();
      block->inner->owner = block;
    }
  return block;
}

/* The last part of freeing @block, with the lock of the shared texts
 * held: its texts, and its memory with its id's last use (which may be a
 * link's, later). */
static void
block_release_locked (QdBlock *block)
{
  unshare_locked (block->type);
  if (block->name != block_inline_name (block))
    g_free (block->name);
  block->name = NULL;
  unshare_locked (block->id);
}

QdBlock *
qd_block_ref (QdBlock *block)
{
  g_return_val_if_fail (block != NULL, NULL);

  g_atomic_int_inc (&block->ref_count);
  return block;
}

void
qd_block_unref (QdBlock *block)
{
  if (block == NULL)
    return;
  if (!g_atomic_int_dec_and_test (&block->ref_count))
    return;

  if (block->inner != NULL)
    {
      /* The inner system may outlive us in the history; its owner
       * pointer is weak and must not dangle. */
      if (block->inner->owner == block)
        block->inner->owner = NULL;
      qd_system_unref (block->inner);
    }
  param_set_release (block->params);
  G_LOCK (shared_texts);
  block_release_locked (block);
  G_UNLOCK (shared_texts);
}

void
qd_block_set_name_raw (QdBlock    *block,
                       const char *name)
{
  char *copy = g_strdup (name != NULL ? name : "");

  if (block->name != block_inline_name (block))
    g_free (block->name);
  block->name = copy;
}

const char *
qd_block_get_param (const QdBlock *block,
                    const char    *name)
{
  g_return_val_if_fail (block != NULL, NULL);
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < block->params->len; i++)
    {
      const QdParam *param = &g_array_index (block->params, QdParam, i);

      if (strcmp (param->name, name) == 0)
        return param->value;
    }
  return NULL;
}

const char *
qd_block_get_param_or_default (const QdBlock *block,
                               const char    *name)
{
  const QdBlockType *type;
  const char *value;
  int index;

  value = qd_block_get_param (block, name);
  if (value != NULL)
    return value;
  type = qd_block_get_type_info (block);
  if (type == NULL)
    return NULL;
  index = qd_block_type_find_param (type, name);
  if (index < 0)
    return NULL;
  return type->params[index].default_value;
}

void
qd_block_set_param_raw (QdBlock    *block,
                        const char *name,
                        const char *value)
{
  GArray *old, *fresh;
  gboolean found = FALSE;

  g_return_if_fail (block != NULL);
  g_return_if_fail (name != NULL);

  /* Nothing to do when the value stays as it is. */
  old = block->params;
  for (guint i = 0; i < old->len; i++)
    {
      const QdParam *param = &g_array_index (old, QdParam, i);

      if (strcmp (param->name, name) == 0)
        {
          if (value != NULL && strcmp (param->value, value) == 0)
            return;
          found = TRUE;
          break;
        }
    }
  if (!found && value == NULL)
    return;

  /* The set with @name changed, in the same order (a new parameter goes
   * last, as the file gives them). */
  fresh = param_set_new (old->len + 1);
  G_LOCK (shared_texts);
  for (guint i = 0; i < old->len; i++)
    {
      const QdParam *param = &g_array_index (old, QdParam, i);
      QdParam copy;

      if (strcmp (param->name, name) != 0)
        {
          copy.name = share_locked (param->name);
          copy.value = share_locked (param->value);
        }
      else if (value != NULL)
        {
          copy.name = share_locked (param->name);
          copy.value = share_locked (value);
        }
      else
        continue;
      g_array_append_val (fresh, copy);
    }
  if (!found)
    {
      QdParam copy = { share_locked (name), share_locked (value) };

      g_array_append_val (fresh, copy);
    }
  G_UNLOCK (shared_texts);

  block->params = param_set_intern (fresh);
  param_set_release (old);
}

/* Links */

QdLinkTarget *
qd_link_target_new (const char    *dst_block,
                    guint          dst_port,
                    const QdPoint *points,
                    guint          n_points)
{
  QdLinkTarget *target = g_new0 (QdLinkTarget, 1);

  target->dst.block = share (dst_block);
  target->dst.port = dst_port;
  qd_link_target_set_points (target, points, n_points);

  return target;
}

QdLinkTarget *
qd_link_target_new_from_block (const QdBlock *dst,
                               guint          dst_port)
{
  QdLinkTarget *target;

  g_return_val_if_fail (dst != NULL, NULL);

  target = g_new0 (QdLinkTarget, 1);
  target->dst.block = share_again (dst->id);
  target->dst.port = dst_port;
  return target;
}

guint
qd_link_target_n_points (const QdLinkTarget *target)
{
  g_return_val_if_fail (target != NULL, 0);

  return target->points != NULL ? target->points->len : 0;
}

void
qd_link_target_set_points (QdLinkTarget  *target,
                           const QdPoint *points,
                           guint          n_points)
{
  g_return_if_fail (target != NULL);
  g_return_if_fail (points != NULL || n_points == 0);

  if (n_points == 0)
    {
      g_clear_pointer (&target->points, g_array_unref);
      return;
    }
  if (target->points == NULL)
    target->points = g_array_sized_new (FALSE, FALSE, sizeof (QdPoint), n_points);
  g_array_set_size (target->points, 0);
  g_array_append_vals (target->points, points, n_points);
}

void
qd_link_target_append_point (QdLinkTarget  *target,
                             const QdPoint *point)
{
  g_return_if_fail (target != NULL);
  g_return_if_fail (point != NULL);

  if (target->points == NULL)
    target->points = g_array_new (FALSE, FALSE, sizeof (QdPoint));
  g_array_append_vals (target->points, point, 1);
}

void
qd_link_target_free (QdLinkTarget *target)
{
  if (target == NULL)
    return;
  unshare (target->dst.block);
  if (target->points != NULL)
    g_array_unref (target->points);
  g_free (target);
}

/* A new link with @id in the same allocation (it never changes) and
 * @src_text, a shared text of the source block, and no targets. */
static QdLink *
link_alloc (const char *id,
            char       *src_text,
            guint       src_port)
{
  gsize id_size = strlen (id) + 1;
  QdLink *link = g_malloc (sizeof (QdLink) + id_size);

  link->id = memcpy (link + 1, id, id_size);
  link->src.block = src_text;
  link->src.port = src_port;
  link->targets = &link->one_target;
  link->n_targets = 0;
  link->ref_count = 1;
  link->parent = NULL;
  link->one_target = NULL;
  return link;
}

/* How many targets @link's array has room for: one in the link itself,
 * then the power of two from 2 up that @n_targets needs (kept so by
 * growing and shrinking it). */
static guint
link_capacity_for (const QdLink *link,
                   guint         n_targets)
{
  if (link->targets == &link->one_target)
    return 1;
  return MAX (2u, 1u << g_bit_storage (n_targets - 1));
}

static guint
link_capacity (const QdLink *link)
{
  return link_capacity_for (link, link->n_targets);
}

/* Moves @link's targets to an array of @capacity (1: back into the
 * link). */
static void
link_move_targets (QdLink *link,
                   guint   capacity)
{
  QdLinkTarget **moved = capacity == 1 ? &link->one_target
                                       : g_new (QdLinkTarget *, capacity);

  memcpy (moved, link->targets, link->n_targets * sizeof *moved);
  if (link->targets != &link->one_target)
    g_free (link->targets);
  link->targets = moved;
}

void
qd_link_insert_target (QdLink       *link,
                       guint         index,
                       QdLinkTarget *target)
{
  guint capacity;

  g_return_if_fail (link != NULL);
  g_return_if_fail (target != NULL);
  g_return_if_fail (index <= link->n_targets);

  capacity = link_capacity (link);
  if (link->n_targets == capacity)
    link_move_targets (link, 2 * capacity);
  memmove (link->targets + index + 1, link->targets + index,
           (link->n_targets - index) * sizeof *link->targets);
  link->targets[index] = target;
  link->n_targets++;
}

QdLinkTarget *
qd_link_steal_target (QdLink *link,
                      guint   index)
{
  QdLinkTarget *target;
  guint capacity;

  g_return_val_if_fail (link != NULL, NULL);
  g_return_val_if_fail (index < link->n_targets, NULL);

  capacity = link_capacity (link);
  target = link->targets[index];
  link->n_targets--;
  memmove (link->targets + index, link->targets + index + 1,
           (link->n_targets - index) * sizeof *link->targets);
  /* One target left goes back into the link, as it would have been
   * built; otherwise the array shrinks with its power of two. */
  if (link->n_targets == 1 && link->targets != &link->one_target)
    link_move_targets (link, 1);
  else if (link->n_targets > 1
           && link_capacity_for (link, link->n_targets) < capacity)
    link_move_targets (link, link_capacity_for (link, link->n_targets));
  return target;
}

/* Frees @link's targets and their array; @link is then empty. With the
 * lock of the shared texts held when @locked. */
static void
link_free_targets (QdLink   *link,
                   gboolean  locked)
{
  for (guint j = 0; j < link->n_targets; j++)
    {
      QdLinkTarget *target = link->targets[j];

      if (locked)
        unshare_locked (target->dst.block);
      else
        unshare (target->dst.block);
      if (target->points != NULL)
        g_array_unref (target->points);
      g_free (target);
    }
  if (link->targets != &link->one_target)
    g_free (link->targets);
  link->targets = &link->one_target;
  link->n_targets = 0;
}

QdLink *
qd_link_new (const char *id,
             const char *src_block,
             guint       src_port)
{
  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (src_block != NULL, NULL);

  return link_alloc (id, share (src_block), src_port);
}

QdLinkTarget *
qd_link_add_target (QdLink     *link,
                    const char *dst_block,
                    guint       dst_port)
{
  QdLinkTarget *target;

  g_return_val_if_fail (link != NULL, NULL);
  g_return_val_if_fail (dst_block != NULL, NULL);

  target = qd_link_target_new (dst_block, dst_port, NULL, 0);
  qd_link_insert_target (link, link->n_targets, target);

  return target;
}

QdLink *
qd_link_new_from_block (const char    *id,
                        const QdBlock *src,
                        guint          src_port)
{
  g_return_val_if_fail (id != NULL, NULL);
  g_return_val_if_fail (src != NULL, NULL);

  return link_alloc (id, share_again (src->id), src_port);
}

/* A target without bend points keeps no array (points NULL), as every
 * target without bends does. */
QdLinkTarget *
qd_link_add_target_block (QdLink        *link,
                          const QdBlock *dst,
                          guint          dst_port)
{
  QdLinkTarget *target;

  g_return_val_if_fail (link != NULL, NULL);
  g_return_val_if_fail (dst != NULL, NULL);

  target = qd_link_target_new_from_block (dst, dst_port);
  qd_link_insert_target (link, link->n_targets, target);
  return target;
}

QdLink *
qd_link_ref (QdLink *link)
{
  g_return_val_if_fail (link != NULL, NULL);

  g_atomic_int_inc (&link->ref_count);
  return link;
}

void
qd_link_unref (QdLink *link)
{
  if (link == NULL)
    return;
  if (!g_atomic_int_dec_and_test (&link->ref_count))
    return;

  link_free_targets (link, FALSE);
  unshare (link->src.block);
  g_free (link);
}

/* Systems */

/* Drops @count uses of parameter set @set (the lock of the sets held):
 * TRUE when that was the last, the set being out of the table and the
 * caller's to free (outside the lock, since freeing it unshares texts). */
static gboolean
param_set_drop_locked (GArray *set,
                       guint   count)
{
  guint uses;

  if (set == empty_param_set || count == 0)
    return FALSE;
  uses = GPOINTER_TO_UINT (g_hash_table_lookup (param_sets, set));
  g_assert (uses >= count);
  if (uses > count)
    {
      g_hash_table_insert (param_sets, set, GUINT_TO_POINTER (uses - count));
      return FALSE;
    }
  g_hash_table_remove (param_sets, set);
  return TRUE;
}

/* The links part of release_owned(): frees the links of @links that
 * nothing else holds, leaving NULL in their places. */
static void
release_owned_links (GPtrArray *links)
{
  G_LOCK (shared_texts);
  for (guint i = 0; i < links->len; i++)
    {
      QdLink *link = g_ptr_array_index (links, i);

      if (link == NULL || g_atomic_int_get (&link->ref_count) != 1)
        continue;
      link_free_targets (link, TRUE);
      unshare_locked (link->src.block);
      g_free (link);
      links->pdata[i] = NULL;
    }
  G_UNLOCK (shared_texts);
}

/* Frees, in place of their unref, the blocks and links of @system that
 * nothing else holds (the history, the editor) and that hold no system of
 * their own, leaving NULL in the arrays: a generated model of millions of
 * blocks has tens of millions of uses of shared texts and parameter
 * sets, and one lock and look-up for each took as long as compiling the
 * model. Here each lock is taken once, and the uses of a set by
 * consecutive blocks are dropped together. */
static void
release_owned (QdSystem *system)
{
  GPtrArray *blocks = system->blocks;
  g_autoptr(GPtrArray) dead_sets = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  GArray *run_set = NULL;
  guint run = 0;

  G_LOCK (param_sets);
  for (guint i = 0; i < blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (blocks, i);

      if (block == NULL || block->inner != NULL
          || g_atomic_int_get (&block->ref_count) != 1)
        continue;
      if (block->params != run_set)
        {
          if (param_set_drop_locked (run_set, run))
            g_ptr_array_add (dead_sets, run_set);
          run_set = block->params;
          run = 0;
        }
      run++;
      block->params = NULL;
    }
  if (param_set_drop_locked (run_set, run))
    g_ptr_array_add (dead_sets, run_set);
  G_UNLOCK (param_sets);

  G_LOCK (shared_texts);
  for (guint i = 0; i < blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (blocks, i);

      if (block == NULL || block->params != NULL)
        continue;
      block_release_locked (block);
      blocks->pdata[i] = NULL;
    }
  G_UNLOCK (shared_texts);
  release_owned_links (system->links);
}

void
qd_system_drop_links (QdSystem *system)
{
  g_return_if_fail (system != NULL);

  release_owned_links (system->links);
  g_ptr_array_set_size (system->links, 0);
}

void
qd_system_drop_blocks (QdSystem *system)
{
  GPtrArray *blocks;
  guint kept = 0;

  g_return_if_fail (system != NULL);

  blocks = system->blocks;
  release_owned (system);
  for (guint i = 0; i < blocks->len; i++)
    if (blocks->pdata[i] != NULL)
      blocks->pdata[kept++] = blocks->pdata[i];
  /* Cleared first: shrinking unrefs what the slots past the end hold. */
  for (guint i = kept; i < blocks->len; i++)
    blocks->pdata[i] = NULL;
  g_ptr_array_set_size (blocks, kept);
  g_clear_pointer (&system->by_id, g_hash_table_unref);
  g_clear_pointer (&system->by_name, g_hash_table_unref);
}

QdSystem *
qd_system_new (void)
{
  QdSystem *system = g_new0 (QdSystem, 1);

  system->ref_count = 1;
  system->blocks = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_block_unref);
  system->links = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_link_unref);
  /* The indexes by id and by name are made on the first search: a model
   * being loaded or generated is not searched, and two hash entries per
   * block are a good part of its size. */

  return system;
}

QdSystem *
qd_system_ref (QdSystem *system)
{
  g_return_val_if_fail (system != NULL, NULL);

  g_atomic_int_inc (&system->ref_count);
  return system;
}

void
qd_system_unref (QdSystem *system)
{
  if (system == NULL)
    return;
  if (!g_atomic_int_dec_and_test (&system->ref_count))
    return;

  /* Children kept alive elsewhere (the history) lose their weak parent. */
  for (guint i = 0; i < system->blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (system->blocks, i);

      if (block->parent == system)
        block->parent = NULL;
    }
  for (guint i = 0; i < system->links->len; i++)
    {
      QdLink *link = g_ptr_array_index (system->links, i);

      if (link->parent == system)
        link->parent = NULL;
    }
  g_clear_pointer (&system->by_id, g_hash_table_unref);
  g_clear_pointer (&system->by_name, g_hash_table_unref);
  g_clear_pointer (&system->mask, qd_mask_free);
  release_owned (system);
  g_ptr_array_unref (system->blocks);
  g_ptr_array_unref (system->links);
  g_free (system);
}

QdBlock *
qd_system_find_block (QdSystem   *system,
                      const char *id)
{
  g_return_val_if_fail (system != NULL, NULL);

  if (id == NULL)
    return NULL;
  if (system->by_id == NULL)
    {
      /* Keys are the blocks' own ids, which never change. With duplicate
       * ids (a file not yet checked) the last one wins, as when each
       * insertion updated the index. */
      system->by_id = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint i = 0; i < system->blocks->len; i++)
        {
          QdBlock *block = g_ptr_array_index (system->blocks, i);

          g_hash_table_insert (system->by_id, block->id, block);
        }
    }
  return g_hash_table_lookup (system->by_id, id);
}

/* The first block named like @block's name, other than @block. */
static QdBlock *
find_namesake (QdSystem *system,
               QdBlock  *block)
{
  for (guint i = 0; i < system->blocks->len; i++)
    {
      QdBlock *other = g_ptr_array_index (system->blocks, i);

      if (other != block && strcmp (other->name, block->name) == 0)
        return other;
    }
  return NULL;
}

void
qd_system_name_added (QdSystem *system,
                      QdBlock  *block)
{
  /* With duplicate names (a file not yet checked) the first one wins, as
   * a search in order would find it. */
  if (system->by_name == NULL)
    return;
  if (!g_hash_table_contains (system->by_name, block->name))
    g_hash_table_insert (system->by_name, block->name, block);
}

void
qd_system_name_removed (QdSystem *system,
                        QdBlock  *block)
{
  QdBlock *other;

  if (system->by_name == NULL
      || g_hash_table_lookup (system->by_name, block->name) != block)
    return;
  g_hash_table_remove (system->by_name, block->name);
  other = find_namesake (system, block);
  if (other != NULL)
    g_hash_table_insert (system->by_name, other->name, other);
}

QdBlock *
qd_system_find_block_by_name (QdSystem   *system,
                              const char *name)
{
  g_return_val_if_fail (system != NULL, NULL);

  if (name == NULL)
    return NULL;
  if (system->by_name == NULL)
    {
      /* Keys are the blocks' names, taken out before a rename frees
       * them (qd_system_name_removed). */
      system->by_name = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint i = 0; i < system->blocks->len; i++)
        qd_system_name_added (system, g_ptr_array_index (system->blocks, i));
    }
  return g_hash_table_lookup (system->by_name, name);
}

QdLink *
qd_system_find_driver (QdSystem   *system,
                       const char *id,
                       guint       port,
                       guint      *target_index)
{
  g_return_val_if_fail (system != NULL, NULL);
  g_return_val_if_fail (id != NULL, NULL);

  for (guint i = 0; i < system->links->len; i++)
    {
      QdLink *link = g_ptr_array_index (system->links, i);

      for (guint j = 0; j < link->n_targets; j++)
        {
          const QdLinkTarget *target = link->targets[j];

          if (target->dst.port == port && strcmp (target->dst.block, id) == 0)
            {
              if (target_index != NULL)
                *target_index = j;
              return link;
            }
        }
    }
  return NULL;
}

QdLink *
qd_system_find_source (QdSystem   *system,
                       const char *id,
                       guint       port)
{
  g_return_val_if_fail (system != NULL, NULL);
  g_return_val_if_fail (id != NULL, NULL);

  for (guint i = 0; i < system->links->len; i++)
    {
      QdLink *link = g_ptr_array_index (system->links, i);

      if (link->src.port == port && strcmp (link->src.block, id) == 0)
        return link;
    }
  return NULL;
}

char *
qd_system_get_path (const QdSystem *system)
{
  g_return_val_if_fail (system != NULL, NULL);

  if (system->owner == NULL)
    return g_strdup ("");
  return qd_block_get_path (system->owner);
}

void
qd_system_append_block (QdSystem *system,
                        QdBlock  *block)
{
  g_return_if_fail (system != NULL);
  g_return_if_fail (block != NULL);

  block->parent = system;
  g_ptr_array_add (system->blocks, block);
  if (system->by_id != NULL)
    g_hash_table_insert (system->by_id, block->id, block);
  qd_system_name_added (system, block);
}

static void
add_counts (const QdSystem *system,
            QdSystemCounts *counts)
{
  for (guint i = 0; i < system->blocks->len; i++)
    {
      const QdBlock *block = g_ptr_array_index (system->blocks, i);

      counts->blocks++;
      if (block->inner != NULL)
        {
          counts->subsystems++;
          add_counts (block->inner, counts);
        }
    }
  counts->links += system->links->len;
  for (guint i = 0; i < system->links->len; i++)
    {
      const QdLink *link = g_ptr_array_index (system->links, i);

      counts->connections += link->n_targets;
    }
}

void
qd_system_count (const QdSystem *system,
                 QdSystemCounts *counts)
{
  g_return_if_fail (counts != NULL);

  memset (counts, 0, sizeof *counts);
  if (system != NULL)
    add_counts (system, counts);
}

void
qd_system_append_link (QdSystem *system,
                       QdLink   *link)
{
  g_return_if_fail (system != NULL);
  g_return_if_fail (link != NULL);

  link->parent = system;
  g_ptr_array_add (system->links, link);
}

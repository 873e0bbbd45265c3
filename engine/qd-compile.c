/* qd-compile.c: a document compiled into a flat simulation
 *
 * The compiler validates everything and reports every problem it finds
 * (not just the first), each with the block path and id:
 *
 *  1. the simulation settings;
 *  2. the model variables, in order, after the overrides;
 *  3. every block of the hierarchy, depth-first in priority order: its
 *     type, each parameter of its schema (evaluated with the variables
 *     bound), then the type's own check; what evaluated without a
 *     problem is kept by text and by parameter set (CachedParam,
 *     CachedSet), so a large model with a few distinct texts evaluates
 *     each once;
 *  4. the wiring: each input of an atomic block is traced back through
 *     inport, outport and subsystem blocks to the atomic output that drives
 *     it, so the hierarchy disappears; inputs nothing drives are reported;
 *  5. algebraic loops: strongly connected components (Tarjan) of the graph
 *     of direct-feedthrough blocks.
 *
 * Only when there is no problem is the flat model kept: one record per
 * atomic block, in priority order, and the arrays of the wiring (see
 * qd-simulation-private.h for their layout).
 *
 * This file walks the hierarchy (4.), builds the flat model and drives
 * the whole; steps 1 to 3 (the settings, the variables, the parameters
 * and the masks' scopes) are in qd-compile-params.c, step 5 in
 * qd-compile-loops.c. The compiler's state (Compiler, Node) is in
 * qd-compile-private.h.
 */
#include <glib/gi18n-lib.h>
#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "qd-classic-private.h"
#include "qd-compile-private.h"
#include "qd-compile-vector.h"
#include "qd-history.h"
#include "qd-registry.h"

static void
append_path (GString    *text,
             const Node *node)
{
  if (node->parent != NULL)
    append_path (text, node->parent);
  g_string_append_c (text, '/');
  g_string_append (text, node->block->name);
}

/* "/Plant/Integrator 2": the names from the root down; an atomic block
 * whose document block is gone (drop_document_blocks()) by the path the
 * flat model keeps. */
static char *
node_path (const Compiler *c,
           const Node     *node)
{
  GString *text;

  if (node->block == NULL)
    return g_strdup (c->sim->atomics[node->atomic].path);
  text = g_string_new (NULL);
  append_path (text, node);
  return g_string_free (text, FALSE);
}

/* The id of @node's block, for selecting it. */
static const char *
node_id (const Compiler *c,
         const Node     *node)
{
  if (node->block == NULL)
    return qd_atomic_block_id (&c->sim->atomics[node->atomic]);
  return node->block->id;
}

void
qd_compile_add_problem (Compiler    *c,
                        Node        *node,
                        QdErrorCode  code,
                        const char  *format,
                        ...)
{
  va_list args;
  char *message;
  char *path = node != NULL ? node_path (c, node) : NULL;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_ptr_array_add (c->problems,
                   qd_problem_new (code,
                                   path != NULL ? path : "",
                                   node != NULL ? node_id (c, node) : NULL,
                                   "%s", message));
  g_free (message);
  g_free (path);
}

/* -------------------------------------------------------------------- */
/* The hierarchy */

static const QdBlockType *
lookup_type (Compiler   *c,
             const char *type_id)
{
  guint k = (guint) (((guint64) (guintptr) type_id
                       * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15)) >> 60);

  /* Probed in turn: two ids hashed to one slot would otherwise replace
   * each other at every block (the LC line's WSums and Integrators did,
   * a registry lookup for every other block). */
  for (guint probe = 0; probe < G_N_ELEMENTS (c->type_ids); probe++)
    {
      guint j = (k + probe) % G_N_ELEMENTS (c->type_ids);

      if (c->type_ids[j] == type_id)
        return c->types[j];
      if (c->type_ids[j] == NULL)
        {
          k = j;
          break;
        }
    }
  c->types[k] = qd_registry_lookup (type_id);
  c->type_ids[k] = type_id;
  return c->types[k];
}

/* How many Nodes collect_system() may make for @system: an upper bound,
 * so that the Nodes are one array that never moves. */
static guint
count_blocks (QdSystem *system)
{
  guint n = system->blocks->len;

  for (guint i = 0; i < system->blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (system->blocks, i);

      if (strcmp (block->type, QD_TYPE_SUBSYSTEM) == 0 && block->inner != NULL)
        n += count_blocks (block->inner);
    }
  return n;
}

static void
collect_system (Compiler *c,
                QdSystem *system,
                Node     *owner)
{
  SystemEntry entry = { system, c->n_nodes };

  g_array_append_val (c->systems, entry);
  for (guint i = 0; i < system->blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (system->blocks, i);
      guint index = c->n_nodes++;
      Node *node = &c->nodes[index];

      node->block = block;
      node->parent = owner;
      node->type = lookup_type (c, block->type);
      node->atomic = -1;

      if (node->type == NULL)
        {
          g_autofree char *where = qd_registry_where_looked (block->type);

          if (where != NULL)
            qd_compile_add_problem (c, node, QD_ERROR_UNKNOWN_TYPE,
                                    _("block type '%s' is missing (%s); "
                                      "install it, or replace the block"),
                                    block->type, where);
          else
            qd_compile_add_problem (c, node, QD_ERROR_UNKNOWN_TYPE,
                                    _("unknown block type '%s'; replace the "
                                      "block, or load the library that "
                                      "provides this type"),
                                    block->type);
          continue;
        }
      node->structural = (node->type->flags & QD_BLOCK_STRUCTURAL) != 0;
      if (!node->structural)
        node->atomic = (int) c->n_atomics++;
      /* A subsystem's inner blocks take its place in the order. */
      if (strcmp (block->type, QD_TYPE_SUBSYSTEM) == 0 && block->inner != NULL)
        {
          collect_system (c, block->inner,
                          block->inner->owner == block ? node : NULL);
          node->n_inner = c->n_nodes - index - 1;
        }
    }
}

/* The Node of the block after @node in the same system. */
static inline Node *
next_in_system (Node *node)
{
  return node + 1 + node->n_inner;
}

static Driver *
node_driver (Compiler *c,
             Node     *node,
             guint     port)
{
  if (port >= node->n_drivers)
    return NULL;
  return &g_array_index (c->drivers, Driver, node->drivers + port);
}

/* The Inports (or Outports) of each subsystem must be numbered 1 to their
 * count, each number once: the subsystem block shows one port per port
 * block, so a repeated or out-of-range number would leave a port that
 * leads nowhere while another carries two signals. */
static void
check_port_numbers (Compiler   *c,
                    const char *type_id)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_direct_hash, g_direct_equal);

  for (guint s = 0; s < c->systems->len; s++)
    {
      const SystemEntry *entry = &g_array_index (c->systems, SystemEntry, s);
      QdSystem *system = entry->system;
      Node *node = &c->nodes[entry->first];
      guint count = 0;

      if (system->owner == NULL)
        continue;
      for (guint i = 0; i < system->blocks->len; i++)
        {
          QdBlock *block = g_ptr_array_index (system->blocks, i);

          count += strcmp (block->type, type_id) == 0;
        }
      g_hash_table_remove_all (seen);
      for (guint i = 0; i < system->blocks->len; i++, node = next_in_system (node))
        {
          Node *other;

          if (strcmp (node->block->type, type_id) != 0 || node->port_number == 0)
            continue;
          other = g_hash_table_lookup (seen, GUINT_TO_POINTER (node->port_number));
          if (node->port_number > count)
            qd_compile_add_problem (c, node, QD_ERROR_PARAM,
                                    _("port number %u, but its subsystem "
                                      "has %u such ports; number them from 1 "
                                      "to %u"),
                                    node->port_number, count, count);
          else if (other != NULL)
            {
              g_autofree char *other_path = node_path (c, other);

              qd_compile_add_problem (c, node, QD_ERROR_PARAM,
                                      _("port number %u is also used by %s; "
                                        "number the ports of this subsystem "
                                        "from 1 to %u, each once"),
                                      node->port_number, other_path, count);
            }
          else
            g_hash_table_insert (seen, GUINT_TO_POINTER (node->port_number), node);
        }
    }
}

static inline guint
id_hash (const char *id)
{
  guint64 x = (guintptr) id;

  /* Ids made one after the other lie close in memory, and a system's
   * links mostly name blocks in the order they were made: slots in the
   * order of the addresses (16 bytes apart, an id's least size) turn a
   * large system's lookups into a walk through the table instead of a
   * cache miss each (a third of the time of indexing the LC line's
   * drivers). Each window of 2^28 bytes is shifted by a mix of its
   * number, so that windows folding onto the same slots do not collide
   * line for line. */
  return (guint) ((x >> 4)
                  + ((x >> 28) * G_GUINT64_CONSTANT (0x9e3779b97f4a7c15) >> 32));
}

/* Indexes the blocks of @entry's system by id, replacing the previous
 * system's index; a later block with the same id wins, as a link can
 * name only one. */
static void
index_system (Compiler          *c,
              const SystemEntry *entry)
{
  guint n = entry->system->blocks->len;
  gsize size = 16;
  Node *node = &c->nodes[entry->first];

  /* At most two thirds full. */
  while (size < (gsize) n + n / 2)
    size *= 2;
  if (size > c->id_capacity)
    {
      g_free (c->id_slots);
      c->id_slots = g_new (IdSlot, size);
      c->id_capacity = size;
    }
  c->id_mask = (guint) size - 1;
  memset (c->id_slots, 0, size * sizeof (IdSlot));
  g_clear_pointer (&c->id_by_text, g_hash_table_unref);
  for (guint b = 0; b < n; b++, node = next_in_system (node))
    {
      const char *id = node->block->id;
      guint h = id_hash (id) & c->id_mask;

      while (c->id_slots[h].id != NULL && c->id_slots[h].id != id)
        h = (h + 1) & c->id_mask;
      c->id_slots[h].id = id;
      c->id_slots[h].node = (guint32) (node - c->nodes);
    }
}

/* The Node of block @id in the system indexed last, or NULL. */
static Node *
find_in_system (Compiler          *c,
                const SystemEntry *entry,
                const char        *id)
{
  guint h = id_hash (id) & c->id_mask;

  for (; c->id_slots[h].id != NULL; h = (h + 1) & c->id_mask)
    if (c->id_slots[h].id == id)
      return &c->nodes[c->id_slots[h].node];

  /* Not the address of a block's id: a link naming a block that is not
   * there, or an id text not shared with its block. */
  if (c->id_by_text == NULL)
    {
      Node *node = &c->nodes[entry->first];

      c->id_by_text = g_hash_table_new (g_str_hash, g_str_equal);
      for (guint b = 0; b < entry->system->blocks->len;
           b++, node = next_in_system (node))
        g_hash_table_insert (c->id_by_text, node->block->id, node);
    }
  return g_hash_table_lookup (c->id_by_text, id);
}

static void
index_outports (Compiler *c)
{
  /* Outports by subsystem and number, for joining through subsystems. */
  for (guint i = 0; i < c->n_nodes; i++)
    {
      Node *node = &c->nodes[i];
      Node *owner = node->parent;

      if (node->type == NULL || strcmp (node->block->type, QD_TYPE_OUTPORT) != 0
          || node->port_number == 0 || owner == NULL)
        continue;
      if (owner->outports == NULL)
        owner->outports = g_ptr_array_new ();
      if (owner->outports->len < node->port_number)
        g_ptr_array_set_size (owner->outports, node->port_number);
      if (g_ptr_array_index (owner->outports, node->port_number - 1) == NULL)
        g_ptr_array_index (owner->outports, node->port_number - 1) = node;
    }
}

/* Each input's Driver from the links, before any parameter is evaluated:
 * from then on the compiler never reads a link, and may free them
 * (compile_flat()). */
static void
index_drivers (Compiler *c)
{
  GArray *found;

  /* Links name blocks by id within their own system. Each system's links
   * are read twice: to count the Drivers of each block, then to fill
   * them (the first link to an input drives it). The first reading notes
   * the Nodes it found, in order, so that the second looks nothing up:
   * in a large system every lookup is a cache miss. */
  found = g_array_new (FALSE, FALSE, sizeof (guint32));
  for (guint s = 0; s < c->systems->len; s++)
    {
      const SystemEntry *entry = &g_array_index (c->systems, SystemEntry, s);
      QdSystem *system = entry->system;
      Node *node;
      guint n_drivers;
      guint next = 0;

      index_system (c, entry);
      g_array_set_size (found, 0);
      for (guint l = 0; l < system->links->len; l++)
        {
          QdLink *link = g_ptr_array_index (system->links, l);
          Node *src = find_in_system (c, entry, link->src.block);
          guint32 index = src != NULL ? (guint32) (src - c->nodes) + 1 : 0;

          g_array_append_val (found, index);
          if (src == NULL)
            continue;
          for (guint k = 0; k < link->n_targets; k++)
            {
              QdLinkTarget *target = link->targets[k];
              Node *dst = find_in_system (c, entry, target->dst.block);

              index = dst != NULL ? (guint32) (dst - c->nodes) + 1 : 0;
              g_array_append_val (found, index);

              /* No block has more than MAX_PORTS inputs (port_count()):
               * a larger number drives nothing, and is not worth a
               * Driver for each port below it. */
              if (dst != NULL && target->dst.port < MAX_PORTS
                  && target->dst.port >= dst->n_drivers)
                dst->n_drivers = target->dst.port + 1;
            }
        }
      node = &c->nodes[entry->first];
      n_drivers = c->drivers->len;
      for (guint b = 0; b < system->blocks->len; b++, node = next_in_system (node))
        {
          node->drivers = n_drivers;
          n_drivers += node->n_drivers;
        }
      g_array_set_size (c->drivers, n_drivers);
      for (guint l = 0; l < system->links->len; l++)
        {
          QdLink *link = g_ptr_array_index (system->links, l);
          guint32 src = g_array_index (found, guint32, next++);

          if (src == 0)
            continue;
          for (guint k = 0; k < link->n_targets; k++)
            {
              QdLinkTarget *target = link->targets[k];
              guint32 dst = g_array_index (found, guint32, next++);
              Driver *d;

              if (dst == 0)
                continue;
              d = node_driver (c, &c->nodes[dst - 1], target->dst.port);
              if (d != NULL && d->src == 0)
                {
                  d->src = src;
                  d->port = link->src.port;
                }
            }
        }
    }
  g_array_unref (found);
  /* Not needed any more: give the memory back before the wiring's. */
  g_clear_pointer (&c->id_slots, g_free);
  c->id_capacity = 0;
  g_clear_pointer (&c->id_by_text, g_hash_table_unref);
}

/* The key of a tag in @node's system: the system's first Node (its
 * owner's next, or the root's) and the tag text. */
static char *
tag_key (Compiler   *c,
         const Node *node)
{
  const char *tag = qd_compile_block_param_text (node->block,
                                                 node->type->params[0].name);
  guint first = node->parent != NULL ? (guint) (node->parent - c->nodes) + 1
                                     : 0;

  return g_strdup_printf ("%u/%s", first, tag != NULL ? tag
                                          : node->type->params[0].default_value);
}

/* Indexes the tag sinks of every system (QD_BLOCK_TAG_SINK), and says
 * which tag sources have none, or which sinks share a tag. */
static void
index_tags (Compiler *c)
{
  c->tags = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < c->n_nodes; i++)
      {
        Node *node = &c->nodes[i];
        g_autofree char *key = NULL;
        Node *other;

        if (node->type == NULL || node->type->n_params == 0
            || !(node->type->flags & (pass == 0 ? QD_BLOCK_TAG_SINK
                                                : QD_BLOCK_TAG_SOURCE)))
          continue;
        key = tag_key (c, node);
        other = g_hash_table_lookup (c->tags, key);
        if (pass == 1 && other == NULL)
          qd_compile_add_problem (c, node, QD_ERROR_LINK,
                                  _("parameter '%s': no block of this system "
                                    "publishes the tag '%s'; add one that "
                                    "does, or correct the tag"),
                                  node->type->params[0].name,
                                  strchr (key, '/') + 1);
        else if (pass == 0 && other != NULL)
          {
            g_autofree char *other_path = node_path (c, other);

            qd_compile_add_problem (c, node, QD_ERROR_DUPLICATE,
                                    _("parameter '%s': the tag '%s' is also "
                                      "published by %s; give each of them its "
                                      "own tag"),
                                    node->type->params[0].name,
                                    strchr (key, '/') + 1, other_path);
          }
        else if (pass == 0)
          g_hash_table_insert (c->tags, g_steal_pointer (&key), node);
      }
}

typedef enum
{
  RESOLVED,
  UNCONNECTED,
  BROKEN,     /* driven from a block that has its own problem */
} Resolution;

/* Follows the links back from input @port of @node, through port blocks
 * and subsystems, to the atomic output driving it. */
static Resolution
resolve_input (Compiler *c,
               Node     *node,
               guint     port,
               Node    **src_out,
               guint    *src_port)
{
  /* A bound on the hops: a subsystem whose outport is wired straight to
   * an inport, fed back outside, would otherwise go round for ever. */
  for (guint hops = 0; hops < 100000; hops++)
    {
      Driver *d = node_driver (c, node, port);
      Node *src;

      if (d == NULL || d->src == 0)
        return UNCONNECTED;
      src = &c->nodes[d->src - 1];
      if (src->type == NULL)
        return BROKEN;
      if (!src->structural)
        {
          if (!src->ok)
            return BROKEN;
          if (d->port >= src->n_out)
            return UNCONNECTED;
          *src_out = src;
          *src_port = d->port;
          return RESOLVED;
        }
      if (strcmp (src->block->type, QD_TYPE_INPORT) == 0)
        {
          Node *owner = src->parent;

          if (owner == NULL || src->port_number == 0)
            return owner == NULL ? UNCONNECTED : BROKEN;
          node = owner;
          port = src->port_number - 1;
        }
      else if (strcmp (src->block->type, QD_TYPE_SUBSYSTEM) == 0)
        {
          if (src->outports == NULL || d->port >= src->outports->len
              || g_ptr_array_index (src->outports, d->port) == NULL)
            return UNCONNECTED;
          node = g_ptr_array_index (src->outports, d->port);
          port = 0;
        }
      else if ((src->type->flags & QD_BLOCK_TAG_SOURCE)
               && src->type->n_params > 0)
        {
          g_autofree char *key = tag_key (c, src);

          /* index_tags() reported a tag with no sink. */
          node = g_hash_table_lookup (c->tags, key);
          if (node == NULL)
            return BROKEN;
          port = 0;
        }
      else
        return UNCONNECTED;
    }
  return UNCONNECTED;
}

/* -------------------------------------------------------------------- */

static const QdSignal zero_signal;

/* Whether an unconnected input of @node reads zero rather than being an
 * error. */
static gboolean
reads_zero (Compiler *c,
            Node     *node)
{
  return (node->type->flags & QD_BLOCK_OPTIONAL_INPUTS) != 0
         || (c->zero_inputs != NULL
             && g_hash_table_contains (c->zero_inputs, node->block));
}

#define ALIGN_UP(pos, align) (((pos) + (align) - 1) & ~(gsize) ((align) - 1))

/* Records are carved out of chunks of this size (or of one record's
 * size, when larger): large enough that the allocator maps them, so the
 * unused end of the last chunk takes no memory. */
#define RECORD_CHUNK_SIZE (1024 * 1024)

/* @size bytes for a record, zeroed, @align-byte aligned (at most 64),
 * following the previous record when it fits in the current chunk. */
static guint8 *
record_alloc (Compiler *c,
              gsize     size,
              gsize     align)
{
  gsize pad = c->chunk_pos == NULL
              ? 0 : ALIGN_UP ((guintptr) c->chunk_pos, align)
                    - (guintptr) c->chunk_pos;
  guint8 *rec;

  if (size + pad > c->chunk_left)
    {
      gsize chunk_size = MAX (size, RECORD_CHUNK_SIZE);

      /* Not zeroed here: only the parts given out are touched. */
      c->chunk_pos = g_aligned_alloc (chunk_size, 1, 64);
      c->chunk_left = chunk_size;
      pad = 0;
      g_ptr_array_add (c->sim->records, c->chunk_pos);
    }
  rec = c->chunk_pos + pad;
  c->chunk_pos += pad + size;
  c->chunk_left -= pad + size;
  memset (rec, 0, size);
  return rec;
}

/* An evaluated parameter set in the simulation's memory (sim->allocs),
 * shared by every block whose parameters evaluate to the same values: in
 * a large model most blocks of a type have the same ones (all the WSums
 * of a line, its Integrators but for x0), and a copy in each record cost
 * a third of the records (docs/performance.md). The values follow the
 * header, their vectors follow the values. */
typedef struct
{
  guint        n;
  guint        hash;
  QdParamValue values[];
} SharedParams;

static guint
mix_hash (guint    h,
          guint64  x)
{
  return (h ^ (guint) x ^ (guint) (x >> 32)) * 0x01000193u;
}

static guint
params_hash (const QdParamValue *values,
             guint               n)
{
  guint h = 0x811c9dc5u ^ n;

  for (guint k = 0; k < n; k++)
    {
      guint64 bits;

      memcpy (&bits, &values[k].number, sizeof bits);
      h = mix_hash (h, bits);
      h = mix_hash (h, (guintptr) values[k].text);
      h = mix_hash (h, values[k].n_vector);
      for (guint e = 0; e < values[k].n_vector; e++)
        {
          memcpy (&bits, &values[k].vector[e], sizeof bits);
          h = mix_hash (h, bits);
        }
    }
  return h;
}

static guint
shared_params_hash (gconstpointer key)
{
  return ((const SharedParams *) key)->hash;
}

/* Equal to the bit (a NaN equals itself, 0 is not -0); texts by address,
 * since the compiler interns them (a text kept elsewhere is merely not
 * shared). */
static gboolean
shared_params_equal (gconstpointer a,
                     gconstpointer b)
{
  const SharedParams *x = a, *y = b;

  if (x->hash != y->hash || x->n != y->n)
    return FALSE;
  for (guint k = 0; k < x->n; k++)
    {
      const QdParamValue *u = &x->values[k], *v = &y->values[k];

      if (memcmp (&u->number, &v->number, sizeof u->number) != 0
          || u->text != v->text || u->n_vector != v->n_vector
          || (u->n_vector > 0
              && memcmp (u->vector, v->vector,
                         u->n_vector * sizeof (double)) != 0))
        return FALSE;
    }
  return TRUE;
}

/* Whether blocks of @type may share their parameter sets: not when the
 * simulation writes one of them before init (a seed, which a sweep
 * derives per run from the block's own: qd_simulation_reseed()). */
static gboolean
params_shareable (const QdBlockType *type,
                  guint              n_params)
{
  for (guint k = 0; k < n_params; k++)
    if (type->params[k].flags & QD_PARAM_SEED)
      return FALSE;
  return TRUE;
}

/* A copy of the first @n_params of @values with their vectors, in the
 * simulation's memory: the one every block with the same values shares
 * (made by the first of them), or with @own the block's alone. */
static const QdParamValue *
copy_params (Compiler           *c,
             const QdParamValue *values,
             guint               n_params,
             gboolean            own)
{
  SharedParams *probe, *shared;
  gsize n_doubles = 0;
  double *vectors;

  probe = g_alloca (sizeof (SharedParams) + n_params * sizeof (QdParamValue));
  probe->n = n_params;
  probe->hash = own ? 0 : params_hash (values, n_params);
  memcpy (probe->values, values, n_params * sizeof (QdParamValue));
  shared = own ? NULL : g_hash_table_lookup (c->shared_params, probe);
  if (shared != NULL)
    return shared->values;

  for (guint k = 0; k < n_params; k++)
    n_doubles += values[k].n_vector;
  shared = g_malloc (sizeof (SharedParams) + n_params * sizeof (QdParamValue)
                     + n_doubles * sizeof (double));
  memcpy (shared, probe, sizeof (SharedParams) + n_params * sizeof (QdParamValue));
  vectors = (double *) &shared->values[n_params];
  for (guint k = 0; k < n_params; k++)
    if (values[k].vector != NULL)
      {
        memcpy (vectors, values[k].vector, values[k].n_vector * sizeof (double));
        shared->values[k].vector = vectors;
        vectors += values[k].n_vector;
      }
  g_ptr_array_add (c->sim->allocs, shared);
  if (!own)
    g_hash_table_add (c->shared_params, shared);
  return shared->values;
}

/* Gives atomic block @node's QdAtomic @a its parameters, evaluated into
 * @values (their vectors in c->vectors): shared with every other block
 * whose parameters have the same values, or, for a type that cannot
 * share them, a copy of its own. Parameters only the compiler reads
 * (trailing QD_PARAM_COMPILE_ONLY) are left out. Returns whether they
 * are shared. */
static gboolean
set_params (Compiler           *c,
            Node               *node,
            const QdParamValue *values,
            QdAtomic           *a)
{
  const QdBlockType *type = node->type;
  guint n_params = type->n_params;
  gboolean shareable;

  while (n_params > 0
         && (type->params[n_params - 1].flags & QD_PARAM_COMPILE_ONLY) != 0)
    n_params--;
  shareable = params_shareable (type, n_params);
  a->params = copy_params (c, values, n_params, !shareable);
  g_ptr_array_set_size (c->vectors, 0);
  return shareable;
}

/* Makes the record of atomic block @node, its state and its input
 * pointers, and fills its QdAtomic @a (whose params are set). The inputs
 * are wired later. */
static void
make_record (Compiler *c,
             Node     *node,
             QdAtomic *a)
{
  const QdBlockType *type = node->type;
  guint n_in = node->ok ? node->n_in : 0;
  gsize state_size = type->state_size, in_pos, size;
  guint8 *rec;

  if (node->ok && c->sim->classic == NULL && type->fast != NULL
      && type->fast->state_size != NULL)
    state_size = MIN (state_size, type->fast->state_size (a->params));
  /* The state first, so that its alignment costs no padding: 16 bytes,
   * or a cache line when it is a line or more (an integrator's, which
   * then spans as few lines as its layout allows); then the input
   * pointers, which a static block's lambda reads first. */
  in_pos = ALIGN_UP (state_size, 16);
  size = in_pos + n_in * sizeof (const QdSignal *);
  rec = record_alloc (c, MAX (size, 16), state_size >= 64 ? 64 : 16);

  a->state = rec;
  a->in = (const QdSignal *const *) (rec + in_pos);
  g_assert (n_in <= G_MAXUINT16 && node->n_out <= G_MAXUINT16);
  a->n_in = (guint16) n_in;
  a->n_out = (guint16) (node->ok ? node->n_out : 0);
  a->type = type;
  a->sim = c->sim;
  a->index = (guint) node->atomic;
}

/* The atomic blocks of the document the caller gave up
 * (qd_simulation_new_taking()), freed once their parameters are
 * evaluated and their paths and ids are in the flat model, before its
 * records: a large model's blocks and its records are then not in
 * memory at once. The structural blocks (subsystems, ports, tags) stay
 * for the wiring; so does a system held elsewhere. The atomic Nodes
 * lose their block: problems from here on name it by its path
 * (node_path()). */
static void
drop_document_blocks (Compiler *c)
{
  for (guint i = 0; i < c->n_nodes; i++)
    if (c->nodes[i].structural || c->nodes[i].type == NULL)
      qd_block_ref (c->nodes[i].block);
  for (guint s = 0; s < c->systems->len; s++)
    {
      QdSystem *system = g_array_index (c->systems, SystemEntry, s).system;

      if (g_atomic_int_get (&system->ref_count) == 1)
        qd_system_drop_blocks (system);
    }
  for (guint i = 0; i < c->n_nodes; i++)
    {
      Node *node = &c->nodes[i];

      if (node->structural || node->type == NULL)
        qd_block_unref (node->block);
      else
        node->block = NULL;
    }
}

/* The parameters of every block, atomic or structural, in order (which
 * is the atomic blocks' priority order), through the caches by set and
 * by text; each atomic block's go to its QdAtomic (set_params()), and
 * its Node to @atomic_nodes. */
static void
evaluate_blocks (Compiler  *c,
                 Node     **atomic_nodes)
{
  QdSimulation *sim = c->sim;
  guint max_params = 1;
  g_autofree QdParamValue *values = NULL;

  for (guint i = 0; i < c->n_nodes; i++)
    {
      Node *node = &c->nodes[i];

      if (node->type != NULL)
        max_params = MAX (max_params, node->type->n_params);
    }
  c->param_ok = g_new0 (gboolean, max_params);
  values = g_new (QdParamValue, max_params);
  for (guint i = 0; i < c->n_nodes; i++)
    {
      Node *node = &c->nodes[i];

      if (node->type == NULL)
        continue;
      qd_compile_enter_scope (c, node);
      if (node->block->inner != NULL && node->block->inner->mask != NULL)
        qd_compile_evaluate_mask (c, node);
      SetKey key = { node->type, node->block->params };
      CachedSet *set = c->scoped ? NULL : g_hash_table_lookup (c->set_cache, &key);
      guint n_params = node->type->n_params;

      memset (values, 0, sizeof (QdParamValue) * max_params);
      if (set != NULL)
        {
          node->n_in = set->n_in;
          node->n_out = set->n_out;
          node->port_number = set->port_number;
          node->ports_ok = TRUE;
          node->ok = TRUE;
          /* The array of the block before with the same set, when it is
           * shared: nothing to copy or look up. */
          if (set->shared == NULL)
            memcpy (values, set->values, n_params * sizeof (QdParamValue));
        }
      else
        {
          qd_compile_evaluate_block (c, node, values);
          /* A block that is ok added no problem: its results hold for
           * every block of its type and set. */
          if (node->ok && !c->scoped)
            {
              set = g_malloc (sizeof (CachedSet)
                              + n_params * sizeof (QdParamValue));
              set->key = key;
              set->n_in = node->n_in;
              set->n_out = node->n_out;
              set->port_number = node->port_number;
              set->shared = NULL;
              memcpy (set->values, values, n_params * sizeof (QdParamValue));
              g_hash_table_insert (c->set_cache, &set->key, set);
            }
        }
      if (node->atomic < 0)
        {
          g_ptr_array_set_size (c->vectors, 0);
          continue;
        }
      if (set != NULL && set->shared != NULL)
        sim->atomics[node->atomic].params = set->shared;
      else if (set_params (c, node, values, &sim->atomics[node->atomic])
               && set != NULL)
        set->shared = sim->atomics[node->atomic].params;
      sim->is_integrator[node->atomic] =
        (node->type->flags & QD_BLOCK_INTEGRATOR) != 0;
      atomic_nodes[node->atomic] = node;
    }
}

/* Each path, with the block's id after its NUL (qd_atomic_block_id()).
 * Paths are unique: stored without the chunk's deduplicating hash table,
 * which would cost an entry per block. */
static void
make_paths (Compiler    *c,
            Node *const *atomic_nodes)
{
  GString *text = g_string_new (NULL);
  const Node *prefix_of = NULL;   /* the system whose path is in @text */
  gsize prefix_len = 0;

  for (guint i = 0; i < c->n_atomics; i++)
    {
      const Node *node = atomic_nodes[i];
      const char *name = node->block->name;
      const char *id = node->block->id;

      /* Neighbours in priority order mostly share their system. */
      if (i == 0 || node->parent != prefix_of)
        {
          g_string_truncate (text, 0);
          if (node->parent != NULL)
            append_path (text, node->parent);
          prefix_of = node->parent;
          prefix_len = text->len;
        }
      g_string_truncate (text, prefix_len);
      g_string_append_c (text, '/');
      g_string_append_len (text, name, strlen (name));
      g_string_append_c (text, '\0');
      g_string_append_len (text, id, strlen (id));
      c->sim->atomics[i].path = g_string_chunk_insert_len (c->sim->strings,
                                                            text->str,
                                                            text->len);
    }
  g_string_free (text, TRUE);
}

static void
build_model (Compiler *c)
{
  QdSimulation *sim = c->sim;
  guint n = c->n_atomics;
  g_autofree Node **atomic_nodes = g_new0 (Node *, MAX (n, 1));
  guint32 *in_base;
  guint n_inputs = 0;
  gboolean wiring_ok = TRUE;

  sim->n_atomics = n;
  G_STATIC_ASSERT (sizeof (QdAtomic) == 64);
  sim->atomics = g_aligned_alloc0 (MAX (n, 1), sizeof (QdAtomic), 64);
  sim->is_integrator = g_new0 (guint8, MAX (n, 1));
  sim->out_base = g_new0 (guint32, n + 1);
  sim->records = g_ptr_array_new_with_free_func (g_aligned_free);
  c->vectors = g_ptr_array_new_with_free_func (g_free);
  in_base = g_new0 (guint32, n + 1);

  evaluate_blocks (c, atomic_nodes);
  make_paths (c, atomic_nodes);

  /* What still reads the structural blocks' parameters; from here on the
   * compiler reads no atomic block of the document. */
  check_port_numbers (c, QD_TYPE_INPORT);
  check_port_numbers (c, QD_TYPE_OUTPORT);
  index_outports (c);
  index_tags (c);
  if (c->drop_document && c->problems->len == 0)
    drop_document_blocks (c);
  for (guint i = 0; i < n; i++)
    {
      Node *node = atomic_nodes[i];

      /* A native vector block's boundary ports (qd-compile-vector-native.c;
       * its blocks stay: a vector model's document is the compiler's copy). */
      if (node->ok)
        node->n_in = qd_compile_native_inputs (c, node);
      make_record (c, node, &sim->atomics[i]);
    }

  for (guint i = 0; i < n; i++)
    {
      Node *node = atomic_nodes[i];

      sim->out_base[i + 1] = sim->out_base[i] + (node->ok ? node->n_out : 0);
      in_base[i + 1] = in_base[i] + (node->ok ? node->n_in : 0);
    }
  sim->n_signals = sim->out_base[n];
  n_inputs = in_base[n];
  sim->signals = g_new0 (QdSignal, MAX (sim->n_signals, 1));
  for (guint i = 0; i < n; i++)
    sim->atomics[i].out = &sim->signals[sim->out_base[i]];
  sim->fan_start = g_new0 (guint32, sim->n_signals + 2);

  /* Resolve every input; count the receivers of each output. */
  {
    g_autofree guint32 *src_of = g_new (guint32, MAX (n_inputs, 1));

    for (guint i = 0; i < n; i++)
      {
        Node *node = atomic_nodes[i];
        /* The record's own input pointers, constant once wired. */
        const QdSignal **in = (const QdSignal **) sim->atomics[i].in;

        if (!node->ok)
          {
            /* A block with a bad parameter is not wired, but its
             * unconnected inputs are still worth reporting now: a check
             * lists every problem, not the first of each block. */
            for (guint q = 0; node->ports_ok && q < node->n_in; q++)
              {
                Node *src = NULL;
                guint src_port = 0;

                if (resolve_input (c, node, q, &src, &src_port) == UNCONNECTED
                    && !reads_zero (c, node))
                  qd_compile_add_problem (c, node, QD_ERROR_UNCONNECTED,
                                          _("input %u is not connected; "
                                            "connect it or delete the block"),
                                          q + 1);
              }
            continue;
          }
        for (guint q = 0; q < node->n_in; q++)
          {
            Node *src = NULL;
            guint src_port = 0;
            Resolution r = resolve_input (c, node, q, &src, &src_port);

            src_of[in_base[i] + q] = G_MAXUINT32;
            in[q] = &zero_signal;
            if (r == RESOLVED)
              {
                guint s = sim->out_base[src->atomic] + src_port;

                src_of[in_base[i] + q] = s;
                sim->fan_start[s + 1]++;
                in[q] = &sim->atomics[src->atomic].out[src_port];
              }
            else if (r == UNCONNECTED && !reads_zero (c, node))
              {
                qd_compile_add_problem (c, node, QD_ERROR_UNCONNECTED,
                                        _("input %u is not connected; connect "
                                          "it or delete the block"), q + 1);
                wiring_ok = FALSE;
              }
            else if (r == BROKEN)
              wiring_ok = FALSE;
          }
      }
    for (guint s = 0; s < sim->n_signals; s++)
      sim->fan_start[s + 1] += sim->fan_start[s];
    sim->fanout = g_new (QdFanout, MAX (sim->fan_start[sim->n_signals], 1));

    /* Receivers go in priority order: the loop below visits them so. */
    {
      g_autofree guint32 *fill = g_memdup2 (sim->fan_start,
                                            sizeof (guint32) * (sim->n_signals + 1));

      for (guint i = 0; i < n; i++)
        {
          Node *node = atomic_nodes[i];

          if (!node->ok)
            continue;
          for (guint q = 0; q < node->n_in; q++)
            {
              guint32 s = src_of[in_base[i] + q];

              if (s != G_MAXUINT32)
                sim->fanout[fill[s]++] = (QdFanout) { i, q };
            }
        }
    }
  }

  if (wiring_ok)
    qd_compile_native_attach (c, atomic_nodes);
  /* The Drivers were for resolving inputs. */
  g_clear_pointer (&c->drivers, g_array_unref);
  if (wiring_ok)
    qd_compile_find_algebraic_loops (c, atomic_nodes);
  g_ptr_array_unref (c->vectors);
  g_free (in_base);
}

/* The links of the systems compiled, once read (index_drivers()), freed
 * so that the flat model's records reuse their memory: in a document the
 * caller gave up (qd_simulation_new_taking()), about a third of a large
 * model's document would otherwise stay until the end. A system also
 * held elsewhere (the history) keeps its links. No malloc_trim() here or
 * after the blocks: the records take the freed chunks back, and what is
 * left is handed back once, by qd_simulation_new_taking() (each trim
 * consolidates the whole heap: 0.1 s at a million states). */
static void
drop_document_links (Compiler *c)
{
  for (guint s = 0; s < c->systems->len; s++)
    {
      QdSystem *system = g_array_index (c->systems, SystemEntry, s).system;

      if (g_atomic_int_get (&system->ref_count) == 1)
        qd_system_drop_links (system);
    }
}

static QdSimulation *
compile_flat (QdDocument        *document,
              const char *const *overrides,
              gboolean           drop_links,
              GHashTable        *zero_inputs,
              GHashTable        *native,
              GPtrArray         *problems,
              GError           **error)
{
  Compiler c = { 0 };
  QdSimulation *sim = g_new0 (QdSimulation, 1);
  QdSystem *root;

  c.sim = sim;
  c.drop_document = drop_links;
  c.zero_inputs = zero_inputs;
  c.native = native;
  c.settings = qd_document_get_settings (document);
  c.problems = g_ptr_array_new ();
  c.systems = g_array_new (FALSE, FALSE, sizeof (SystemEntry));
  c.drivers = g_array_new (FALSE, TRUE, sizeof (Driver));
  c.param_cache = g_hash_table_new_full (qd_compile_pair_key_hash,
                                         qd_compile_pair_key_equal, NULL,
                                         qd_compile_cached_param_free);
  c.set_cache = g_hash_table_new_full (qd_compile_pair_key_hash,
                                       qd_compile_pair_key_equal, NULL,
                                       g_free);
  c.shared_params = g_hash_table_new (shared_params_hash, shared_params_equal);
  c.var_names = g_ptr_array_new_with_free_func (g_free);
  c.var_values = g_array_new (FALSE, FALSE, sizeof (double));
  c.var_ok = g_array_new (FALSE, FALSE, sizeof (gboolean));
  c.scope_names = c.var_names;
  c.scope_values = c.var_values;
  c.scope_ok = c.var_ok;

  sim->strings = g_string_chunk_new (4096);
  sim->allocs = g_ptr_array_new_with_free_func (g_free);
  sim->traces = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_trace_unref);
  sim->start_time = c.settings->start_time;
  sim->final_time = c.settings->final_time;
  sim->illegitimacy_limit = c.settings->illegitimacy_limit;

  qd_compile_check_settings (&c);
  qd_compile_evaluate_variables (&c, document, overrides);

  root = qd_document_get_root (document);
  c.nodes = g_new0 (Node, MAX (root != NULL ? count_blocks (root) : 0, 1));
  if (root != NULL)
    collect_system (&c, root, NULL);
  index_drivers (&c);
  if (drop_links)
    drop_document_links (&c);
  build_model (&c);
  if (sim->classic != NULL && c.problems->len == 0)
    qd_compile_check_classic_size (&c);

  /* The variables stay available (qd_simulation_get_variable). */
  sim->n_variables = c.var_names->len;
  g_ptr_array_add (c.var_names, NULL);
  sim->variable_names = (char **) g_ptr_array_free (c.var_names, FALSE);
  sim->variable_values = (double *) g_array_free (c.var_values, FALSE);

  if (c.problems->len > 0)
    {
      g_autofree char *first =
        qd_problem_to_string (g_ptr_array_index (c.problems, 0));

      g_set_error_literal (error, QD_ERROR,
                           ((QdProblem *) g_ptr_array_index (c.problems, 0))->code,
                           first);
      for (guint i = 0; i < c.problems->len; i++)
        {
          if (problems != NULL)
            g_ptr_array_add (problems, g_ptr_array_index (c.problems, i));
          else
            qd_problem_free (g_ptr_array_index (c.problems, i));
        }
      qd_simulation_free (sim);
      sim = NULL;
    }

  g_ptr_array_unref (c.problems);
  for (guint i = 0; i < c.n_nodes; i++)
    if (c.nodes[i].outports != NULL)
      g_ptr_array_unref (c.nodes[i].outports);
  g_free (c.nodes);
  g_array_unref (c.systems);
  g_clear_pointer (&c.drivers, g_array_unref);
  g_free (c.id_slots);
  g_clear_pointer (&c.id_by_text, g_hash_table_unref);
  g_clear_pointer (&c.tags, g_hash_table_unref);
  g_hash_table_unref (c.set_cache);
  g_hash_table_unref (c.param_cache);
  g_hash_table_unref (c.shared_params);
  g_clear_pointer (&c.scopes, g_hash_table_unref);
  g_free (c.param_ok);
  g_array_unref (c.var_ok);
  g_free (c.dqmin_text);
  g_free (c.dqrel_text);

  return sim;
}

/* @document's runs of scalar blocks as native vector blocks
 * (qd-compile-scalar-runs.c): the expansion of the document with each
 * run folded into vector blocks, when the native path takes it whole;
 * NULL otherwise, and @document compiles as it is. A document given up
 * by the caller then goes, before the native model allocates its
 * element state: its blocks were read into the folded copy. */
static QdDocument *
fold_scalar_runs (QdDocument        *document,
                  gboolean           owned,
                  const char *const *overrides,
                  GHashTable        *zero_inputs,
                  GHashTable        *native,
                  gboolean          *dropped)
{
  g_autoptr(GPtrArray) presets = g_ptr_array_new ();
  g_autoptr(GPtrArray) problems =
    g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  g_autoptr(GArray) sinks = g_array_new (FALSE, FALSE, sizeof (QdRunSinkPort));
  g_autoptr(QdDocument) folded = qd_scalar_runs_fold (document, native,
                                                      presets, sinks);
  QdDocument *flat;
  QdSystem *root;

  if (folded == NULL)
    return NULL;
  flat = qd_vector_expand (folded, overrides, problems, zero_inputs, native);
  for (guint i = 0; i < presets->len; i++)
    g_hash_table_remove (native, g_ptr_array_index (presets, i));
  /* The folded model's problems are the scalar one's, which names its
   * blocks as drawn: that one reports them. */
  if (flat == NULL || problems->len > 0 || g_hash_table_size (native) == 0)
    {
      g_clear_object (&flat);
      g_hash_table_remove_all (native);
      g_hash_table_remove_all (zero_inputs);
      return NULL;
    }
  qd_scalar_runs_bind_sinks (flat, native, sinks);
  root = qd_document_get_root (document);
  if (owned && G_OBJECT (document)->ref_count == 1
      && g_atomic_int_get (&root->ref_count) == 1)
    {
      qd_system_drop_links (root);
      qd_system_drop_blocks (root);
      *dropped = TRUE;
#ifdef __GLIBC__
      malloc_trim (0);
#endif
    }
  return flat;
}

/* A document with vector signals is compiled as its expansion into
 * elements (qd-compile-vector.c); one with runs of scalar blocks may be
 * compiled as those runs folded into vector blocks. */
QdSimulation *
qd_compile (QdDocument        *document,
            const char *const *overrides,
            gboolean           owned,
            GPtrArray         *problems,
            GError           **error)
{
  g_autoptr(GPtrArray) vector_problems = g_ptr_array_new ();
  g_autoptr(GHashTable) zero_inputs = g_hash_table_new (NULL, NULL);
  g_autoptr(GHashTable) native = g_hash_table_new_full (NULL, NULL, NULL,
                                                        qd_vector_native_free);
  g_autoptr(QdDocument) flat = qd_vector_expand (document, overrides,
                                                 vector_problems, zero_inputs,
                                                 native);
  g_autoptr(GPtrArray) fold_problems =
    g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  g_autoptr(GError) fold_error = NULL;
  gboolean folded = FALSE, dropped = FALSE;
  QdSimulation *sim;

  if (vector_problems->len > 0)
    {
      g_autofree char *first =
        qd_problem_to_string (g_ptr_array_index (vector_problems, 0));

      g_set_error_literal (error, QD_ERROR,
                           ((QdProblem *) g_ptr_array_index (vector_problems, 0))->code,
                           first);
      for (guint i = 0; i < vector_problems->len; i++)
        {
          if (problems != NULL)
            g_ptr_array_add (problems, g_ptr_array_index (vector_problems, i));
          else
            qd_problem_free (g_ptr_array_index (vector_problems, i));
        }
      return NULL;
    }
  if (flat == NULL)
    {
      flat = fold_scalar_runs (document, owned, overrides, zero_inputs, native,
                               &dropped);
      folded = flat != NULL;
    }
  /* Links are dropped only from a plain document given up by the caller:
   * an expansion may share systems with the document it expands. */
  sim = compile_flat (flat != NULL ? flat : document, overrides,
                      owned && flat == NULL
                      && G_OBJECT (document)->ref_count == 1,
                      flat != NULL ? zero_inputs : NULL,
                      flat != NULL ? native : NULL,
                      folded ? fold_problems : problems,
                      folded ? &fold_error : error);
  if (flat != NULL)
    qd_vector_release (g_steal_pointer (&flat));
  if (folded && sim == NULL && !dropped)
    {
      /* A problem in a run (a bad quantum for every Integrator): the
       * document, still whole, reports it naming the blocks as drawn. */
      g_hash_table_remove_all (native);
      g_hash_table_remove_all (zero_inputs);
      return compile_flat (document, overrides, FALSE, NULL, NULL, problems,
                           error);
    }
  else if (folded && sim == NULL)
    {
      /* The document given up is gone: the run's problems, named after
       * the run's blocks (/x1..x1000). */
      g_propagate_error (error, g_steal_pointer (&fold_error));
      for (guint i = 0; problems != NULL && i < fold_problems->len; i++)
        g_ptr_array_add (problems, g_steal_pointer (&fold_problems->pdata[i]));
    }
  return sim;
}

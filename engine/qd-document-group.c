/* qd-document-group.c: grouping blocks into a subsystem, and ungrouping
 *
 * Both are single transactions built from the document's primitive edits,
 * so undo puts back the very same blocks and links. The model computes
 * the same thing before and after: every link that crosses the boundary is
 * cut and joined through an Inport or Outport block, and ungrouping joins
 * them again.
 */
#include <glib/gi18n-lib.h>

#include <stdlib.h>
#include <string.h>

#include "qd-document.h"
#include "qd-history.h"
#include "qd-mask.h"
#include "qd-registry.h"

/* Grouping */

/* A link that crosses the boundary of the selection. */
typedef struct
{
  QdLink  *link;
  gboolean inward;    /* source outside, some targets inside */
  double   y, x;      /* where the inside block is: orders the ports */
  guint    seq;       /* the link's place in its system, the last tie-break */
  guint    port;      /* 1-based port number, once sorted */
} Crossing;

static int
compare_crossings (gconstpointer a,
                   gconstpointer b)
{
  const Crossing *ca = *(const Crossing **) a;
  const Crossing *cb = *(const Crossing **) b;

  if (ca->y != cb->y)
    return ca->y < cb->y ? -1 : 1;
  if (ca->x != cb->x)
    return ca->x < cb->x ? -1 : 1;
  return ca->seq < cb->seq ? -1 : ca->seq > cb->seq ? 1 : 0;
}

static QdBlock *
new_port_block (QdDocument *self,
                QdSystem   *inner,
                const char *type,
                const char *base,
                guint       port,
                double      x,
                double      y)
{
  char *id = qd_document_new_id (self, "b");
  char *wanted = g_strdup_printf ("%s %u", base, port);
  char *name = qd_document_unique_name (inner, wanted);
  char *number = g_strdup_printf ("%u", port);
  QdBlock *block = qd_block_new (id, type, name);

  qd_block_set_param_raw (block, "port", number);
  block->x = x;
  block->y = y;
  block->width = 40;
  block->height = 20;
  qd_document_edit_insert_block (self, inner, block, inner->blocks->len);

  g_free (id);
  g_free (wanted);
  g_free (name);
  g_free (number);
  qd_block_unref (block);
  return block;
}

static gboolean
check_selection (QdDocument  *self,
                 QdBlock    **blocks,
                 guint        n_blocks,
                 GHashTable  *selected,
                 GError     **error)
{
  QdSystem *system;

  if (n_blocks == 0)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("nothing to group; select the blocks to put into the "
                     "subsystem first"));
      return FALSE;
    }

  system = blocks[0]->parent;
  for (guint i = 0; i < n_blocks; i++)
    {
      QdBlock *block = blocks[i];
      char *path = qd_block_get_path (block);
      gboolean ok = TRUE;

      if (block->parent != system || block->parent == NULL
          || qd_document_find_block (self, block->id) != block)
        {
          char *first = qd_block_get_path (blocks[0]);

          g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                       _("%s: is not in the same system as %s; group blocks "
                         "of one system at a time"),
                       path, first);
          g_free (first);
          ok = FALSE;
        }
      else if (strcmp (block->type, QD_TYPE_INPORT) == 0
               || strcmp (block->type, QD_TYPE_OUTPORT) == 0)
        {
          /* Inside the new subsystem it would become one of its ports,
           * numbered against the ports that grouping creates. */
          g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                       _("%s: an Inport or Outport cannot be grouped; leave "
                         "it out of the selection"),
                       path);
          ok = FALSE;
        }
      g_free (path);
      if (!ok)
        return FALSE;
      g_hash_table_add (selected, block->id);
    }
  return TRUE;
}

/* What grouping works on: the selection's system, the selection, its
 * extent, and the subsystem made for it. */
typedef struct
{
  QdDocument *self;
  QdSystem   *system;
  GHashTable *selected;     /* the selected blocks' ids */
  double      minx, miny, maxx, maxy;
  QdBlock    *sub;
  QdSystem   *inner;
} Group;

/* Whether @name may name a new block of @system; @error says why not. */
static gboolean
check_group_name (QdSystem    *system,
                  const char  *name,
                  GError     **error)
{
  char *where = qd_system_get_path (system);
  gboolean ok;

  if (where[0] == '\0')
    {
      g_free (where);
      where = g_strdup ("/");
    }
  ok = qd_document_check_name (system, where, name, error);
  g_free (where);
  return ok;
}

/* @link, the @seq-th of the system, as a crossing of the selection's
 * boundary, placed where its block inside is; NULL when it does not
 * cross: *@internal then says whether it lies wholly inside. */
static Crossing *
crossing_of (const Group *g,
             QdLink      *link,
             guint        seq,
             gboolean    *internal)
{
  gboolean src_in = g_hash_table_contains (g->selected, link->src.block);
  guint n_targets_in = 0;
  Crossing *crossing;

  for (guint j = 0; j < link->n_targets; j++)
    if (g_hash_table_contains (g->selected, link->targets[j]->dst.block))
      n_targets_in++;
  *internal = src_in && n_targets_in == link->n_targets;
  if (*internal || (!src_in && n_targets_in == 0))
    return NULL;

  crossing = g_new0 (Crossing, 1);
  crossing->link = link;
  crossing->inward = !src_in;
  crossing->seq = seq;
  crossing->y = G_MAXDOUBLE;
  crossing->x = G_MAXDOUBLE;
  if (src_in)
    {
      QdBlock *src = qd_system_find_block (g->system, link->src.block);

      crossing->y = src->y + link->src.port;
      crossing->x = src->x;
      return crossing;
    }
  for (guint j = 0; j < link->n_targets; j++)
    {
      QdLinkTarget *target = link->targets[j];
      QdBlock *dst = qd_system_find_block (g->system, target->dst.block);

      if (!g_hash_table_contains (g->selected, target->dst.block))
        continue;
      /* The port within the block breaks ties between two inputs of one
       * block, top to bottom. */
      if (dst->y + target->dst.port < crossing->y)
        {
          crossing->y = dst->y + target->dst.port;
          crossing->x = dst->x;
        }
    }
  return crossing;
}

/* An inward crossing: inside, a new Inport drives what the link drove in
 * there; outside, the link drives the subsystem's input instead. */
static void
join_inward (const Group    *g,
             const Crossing *crossing,
             const char     *link_id)
{
  QdDocument *self = g->self;
  QdLink *link = crossing->link;
  QdBlock *port = new_port_block (self, g->inner, QD_TYPE_INPORT, "In",
                                  crossing->port, g->minx - 80,
                                  g->miny + 40.0 * (crossing->port - 1));
  QdLink *in_link = qd_link_new (link_id, port->id, 0);
  guint first_in = G_MAXUINT;

  for (guint j = 0; j < link->n_targets; j++)
    {
      QdLinkTarget *target = link->targets[j];

      if (!g_hash_table_contains (g->selected, target->dst.block))
        continue;
      if (first_in == G_MAXUINT)
        first_in = j;
      qd_link_add_target (in_link, target->dst.block, target->dst.port);
    }
  qd_document_edit_insert_link (self, g->inner, in_link, g->inner->links->len);
  qd_link_unref (in_link);

  qd_document_edit_insert_target (self, link,
                                  qd_link_target_new (g->sub->id, crossing->port - 1,
                                                      NULL, 0),
                                  first_in);
  for (guint j = link->n_targets; j > 0; j--)
    if (g_hash_table_contains (g->selected, link->targets[j - 1]->dst.block))
      qd_document_edit_remove_target (self, link, j - 1);
}

/* An outward crossing: the link goes inside with its source and ends at a
 * new Outport; a new link from the subsystem's output drives what it
 * drove out here, along the same points. */
static void
join_outward (const Group    *g,
              const Crossing *crossing,
              const char     *link_id)
{
  QdDocument *self = g->self;
  QdLink *link = crossing->link;
  QdBlock *port = new_port_block (self, g->inner, QD_TYPE_OUTPORT, "Out",
                                  crossing->port, g->maxx + 40,
                                  g->miny + 40.0 * (crossing->port - 1));
  QdLink *out_link = qd_link_new (link_id, g->sub->id, crossing->port - 1);

  for (guint j = 0; j < link->n_targets; j++)
    {
      QdLinkTarget *target = link->targets[j];

      if (g_hash_table_contains (g->selected, target->dst.block))
        continue;
      qd_link_insert_target (out_link, out_link->n_targets,
                             qd_link_target_new (target->dst.block,
                                                 target->dst.port,
                                                 target->points != NULL
                                                 ? (const QdPoint *) target->points->data : NULL,
                                                 qd_link_target_n_points (target)));
    }
  qd_document_edit_insert_link (self, g->system, out_link, g->system->links->len);
  qd_link_unref (out_link);

  qd_document_edit_insert_target (self, link,
                                  qd_link_target_new (port->id, 0, NULL, 0),
                                  link->n_targets);
  for (guint j = link->n_targets; j > 0; j--)
    {
      QdLinkTarget *target = link->targets[j - 1];

      if (!g_hash_table_contains (g->selected, target->dst.block)
          && strcmp (target->dst.block, port->id) != 0)
        qd_document_edit_remove_target (self, link, j - 1);
    }
  qd_link_ref (link);
  qd_document_edit_remove_link (self, link);
  qd_document_edit_insert_link (self, g->inner, link, g->inner->links->len);
  qd_link_unref (link);
}

/* The subsystem for @g's selection, named @name or a free "Subsystem"
 * name, tall enough for its ports and at the selection's centre. */
static QdBlock *
new_subsystem (const Group *g,
               const char  *name,
               guint        n_ports)
{
  char *chosen = name != NULL ? g_strdup (name)
                              : qd_document_unique_name (g->system, _("Subsystem"));
  char *id = qd_document_new_id (g->self, "b");
  QdBlock *sub = qd_block_new (id, QD_TYPE_SUBSYSTEM, chosen);

  sub->height = MAX (sub->height, 20.0 * n_ports + 20.0);
  sub->x = (g->minx + g->maxx) / 2 - sub->width / 2;
  sub->y = (g->miny + g->maxy) / 2 - sub->height / 2;
  g_free (id);
  g_free (chosen);
  return sub;
}

QdBlock *
qd_document_group (QdDocument  *self,
                   QdBlock    **blocks,
                   guint        n_blocks,
                   const char  *name,
                   GError     **error)
{
  Group g = {
    .self = self,
    .minx = G_MAXDOUBLE, .miny = G_MAXDOUBLE,
    .maxx = -G_MAXDOUBLE, .maxy = -G_MAXDOUBLE,
  };
  GPtrArray *moved, *internal, *crossings;
  guint first_index = G_MAXUINT, n_in = 0, n_out = 0;

  g_return_val_if_fail (QD_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (blocks != NULL || n_blocks == 0, NULL);

  g.selected = g_hash_table_new (g_str_hash, g_str_equal);
  if (!check_selection (self, blocks, n_blocks, g.selected, error)
      || (name != NULL && !check_group_name (blocks[0]->parent, name, error)))
    {
      g_hash_table_unref (g.selected);
      return NULL;
    }
  g.system = blocks[0]->parent;

  /* The blocks in priority order, and the place of the first one, where
   * the subsystem goes so that the flattened order changes least. */
  moved = g_ptr_array_new ();
  for (guint i = 0; i < g.system->blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (g.system->blocks, i);

      if (!g_hash_table_contains (g.selected, block->id))
        continue;
      if (first_index == G_MAXUINT)
        first_index = i;
      g_ptr_array_add (moved, block);
      g.minx = MIN (g.minx, block->x);
      g.miny = MIN (g.miny, block->y);
      g.maxx = MAX (g.maxx, block->x + block->width);
      g.maxy = MAX (g.maxy, block->y + block->height);
    }

  /* Sort the links: wholly inside, crossing, or not concerned; number
   * the crossings' ports by vertical position, inputs and outputs apart. */
  internal = g_ptr_array_new ();
  crossings = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < g.system->links->len; i++)
    {
      QdLink *link = g_ptr_array_index (g.system->links, i);
      gboolean inside;
      Crossing *crossing = crossing_of (&g, link, i, &inside);

      if (inside)
        g_ptr_array_add (internal, link);
      else if (crossing != NULL)
        g_ptr_array_add (crossings, crossing);
    }
  g_ptr_array_sort (crossings, compare_crossings);
  for (guint i = 0; i < crossings->len; i++)
    {
      Crossing *crossing = g_ptr_array_index (crossings, i);

      crossing->port = crossing->inward ? ++n_in : ++n_out;
    }

  g.sub = new_subsystem (&g, name, MAX (n_in, n_out));
  g.inner = g.sub->inner;

  qd_document_begin (self, _("Group into Subsystem"));
  qd_document_edit_insert_block (self, g.system, g.sub, first_index);
  /* The blocks keep their ids and their coordinates. */
  for (guint i = 0; i < moved->len; i++)
    {
      QdBlock *block = g_ptr_array_index (moved, i);

      qd_block_ref (block);
      qd_document_edit_remove_block (self, block);
      qd_document_edit_insert_block (self, g.inner, block, g.inner->blocks->len);
      qd_block_unref (block);
    }
  for (guint i = 0; i < internal->len; i++)
    {
      QdLink *link = qd_link_ref (g_ptr_array_index (internal, i));

      qd_document_edit_remove_link (self, link);
      qd_document_edit_insert_link (self, g.inner, link, g.inner->links->len);
      qd_link_unref (link);
    }
  for (guint i = 0; i < crossings->len; i++)
    {
      Crossing *crossing = g_ptr_array_index (crossings, i);
      char *link_id = qd_document_new_id (self, "l");

      if (crossing->inward)
        join_inward (&g, crossing, link_id);
      else
        join_outward (&g, crossing, link_id);
      g_free (link_id);
    }
  qd_document_end (self);

  g_ptr_array_unref (crossings);
  g_ptr_array_unref (internal);
  g_ptr_array_unref (moved);
  g_hash_table_unref (g.selected);
  /* The system holds it now. */
  qd_block_unref (g.sub);
  return g.sub;
}

/* Ungrouping */

typedef struct
{
  char    *block;
  guint    port;
  GArray  *points;
} Dest;

static void
dest_free (gpointer data)
{
  Dest *dest = data;

  g_free (dest->block);
  if (dest->points != NULL)
    g_array_unref (dest->points);
  g_free (dest);
}

typedef struct
{
  QdBlock    *sub;
  QdSystem   *outer;
  QdSystem   *inner;
  GPtrArray  *inports;    /* QdBlock*, by 0-based subsystem input */
  GPtrArray  *outports;   /* QdBlock*, by 0-based subsystem output */
} Ungroup;

static QdBlock *
port_block_of (Ungroup    *u,
               const char *id)
{
  QdBlock *block = qd_system_find_block (u->inner, id);

  if (block != NULL
      && (strcmp (block->type, QD_TYPE_INPORT) == 0
          || strcmp (block->type, QD_TYPE_OUTPORT) == 0))
    return block;
  return NULL;
}

/* Appends to @out the real destinations that a target reaches once the
 * port blocks are gone: the subsystem's input k leads to what inport k
 * drives inside, outport k to what output k drives outside. @seen stops a
 * loop made of port blocks alone (it drives nothing). */
static void
expand (Ungroup          *u,
        QdSystem         *system,
        const QdEndpoint *dst,
        const GArray     *points,
        GPtrArray        *out,
        GHashTable       *seen)
{
  QdLink *next = NULL;
  QdSystem *next_system = NULL;
  char *key;

  if (system == u->outer && strcmp (dst->block, u->sub->id) == 0)
    {
      if (dst->port < u->inports->len)
        {
          QdBlock *port = g_ptr_array_index (u->inports, dst->port);

          next = qd_system_find_source (u->inner, port->id, 0);
        }
      next_system = u->inner;
    }
  else if (system == u->inner && port_block_of (u, dst->block) != NULL)
    {
      QdBlock *port = port_block_of (u, dst->block);
      guint index;

      if (g_ptr_array_find (u->outports, port, &index))
        next = qd_system_find_source (u->outer, u->sub->id, index);
      next_system = u->outer;
    }
  else
    {
      Dest *dest = g_new0 (Dest, 1);

      dest->block = g_strdup (dst->block);
      dest->port = dst->port;
      dest->points = points != NULL ? g_array_copy ((GArray *) points) : NULL;
      g_ptr_array_add (out, dest);
      return;
    }

  if (next == NULL)
    return;
  key = g_strdup_printf ("%s:%u", dst->block, dst->port);
  if (g_hash_table_contains (seen, key))
    {
      g_free (key);
      return;
    }
  g_hash_table_add (seen, key);
  for (guint i = 0; i < next->n_targets; i++)
    {
      QdLinkTarget *target = next->targets[i];

      expand (u, next_system, &target->dst, target->points, out, seen);
    }
}

static gboolean
needs_expansion (Ungroup          *u,
                 QdSystem         *system,
                 const QdEndpoint *dst)
{
  if (system == u->outer)
    return strcmp (dst->block, u->sub->id) == 0;
  return port_block_of (u, dst->block) != NULL;
}

/* Replaces each target of @link that leads to a port by the destinations
 * it reaches; removes the link if nothing is left. */
static void
rejoin_link (QdDocument *self,
             Ungroup    *u,
             QdSystem   *system,
             QdLink     *link)
{
  GPtrArray *plans = g_ptr_array_new ();

  /* Work out every expansion before editing anything: expansions read
   * the links being edited. */
  for (guint j = 0; j < link->n_targets; j++)
    {
      QdLinkTarget *target = link->targets[j];
      GPtrArray *dests = NULL;

      if (needs_expansion (u, system, &target->dst))
        {
          GHashTable *seen = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                    g_free, NULL);

          dests = g_ptr_array_new_with_free_func (dest_free);
          expand (u, system, &target->dst, target->points, dests, seen);
          g_hash_table_unref (seen);
        }
      g_ptr_array_add (plans, dests);
    }

  for (guint j = plans->len; j > 0; j--)
    {
      GPtrArray *dests = g_ptr_array_index (plans, j - 1);

      if (dests == NULL)
        continue;
      qd_document_edit_remove_target (self, link, j - 1);
      for (guint k = 0; k < dests->len; k++)
        {
          Dest *dest = g_ptr_array_index (dests, k);

          qd_document_edit_insert_target (self, link,
                                          qd_link_target_new (dest->block, dest->port,
                                                              dest->points != NULL
                                                              ? (const QdPoint *) dest->points->data : NULL,
                                                              dest->points != NULL ? dest->points->len : 0),
                                          j - 1 + k);
        }
      g_ptr_array_unref (dests);
    }
  g_ptr_array_unref (plans);

  if (link->n_targets == 0)
    qd_document_edit_remove_link (self, link);
}

/* Finds the port blocks, each numbered 1..n exactly once. */
static gboolean
collect_ports (Ungroup     *u,
               const char  *type,
               GPtrArray   *ports,
               GError     **error)
{
  guint n = 0;

  for (guint i = 0; i < u->inner->blocks->len; i++)
    if (strcmp (((QdBlock *) g_ptr_array_index (u->inner->blocks, i))->type, type) == 0)
      n++;
  g_ptr_array_set_size (ports, n);

  for (guint i = 0; i < u->inner->blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (u->inner->blocks, i);
      const char *value;
      char *end = NULL;
      guint64 number;

      if (strcmp (block->type, type) != 0)
        continue;
      value = qd_block_get_param_or_default (block, "port");
      number = value != NULL ? g_ascii_strtoull (value, &end, 10) : 0;
      if (value == NULL || end == value || *end != '\0' || number < 1
          || number > n || g_ptr_array_index (ports, number - 1) != NULL)
        {
          char *path = qd_block_get_path (block);

          g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                       _("%s: port number '%s' is not one of 1 to %u, or is "
                         "used twice; number the ports of the subsystem 1, "
                         "2, ... before ungrouping"),
                       path, value != NULL ? value : "", n);
          g_free (path);
          return FALSE;
        }
      g_ptr_array_index (ports, number - 1) = block;
    }
  return TRUE;
}

gboolean
qd_document_ungroup (QdDocument  *self,
                     QdBlock     *subsystem,
                     GError     **error)
{
  Ungroup u = { 0 };
  GPtrArray *outer_links, *inner_links, *moving;
  guint index;

  g_return_val_if_fail (QD_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (subsystem != NULL, FALSE);

  if (subsystem->inner == NULL || subsystem->parent == NULL)
    {
      char *path = qd_block_get_path (subsystem);

      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("%s: is not a subsystem; only a subsystem can be "
                     "ungrouped"),
                   path);
      g_free (path);
      return FALSE;
    }

  /* Its blocks' expressions may name the mask's parameters, which mean
   * nothing outside it. */
  if (subsystem->inner->mask != NULL)
    {
      g_autofree char *path = qd_block_get_path (subsystem);

      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("%s: is a masked subsystem, whose blocks may use its "
                     "mask parameters; remove its mask (Edit Mask) before "
                     "ungrouping it"), path);
      return FALSE;
    }

  u.sub = subsystem;
  u.outer = subsystem->parent;
  u.inner = subsystem->inner;
  u.inports = g_ptr_array_new ();
  u.outports = g_ptr_array_new ();
  if (!collect_ports (&u, QD_TYPE_INPORT, u.inports, error)
      || !collect_ports (&u, QD_TYPE_OUTPORT, u.outports, error))
    {
      g_ptr_array_unref (u.inports);
      g_ptr_array_unref (u.outports);
      return FALSE;
    }

  /* Snapshot the lists: the edits below change them. */
  outer_links = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_link_unref);
  for (guint i = 0; i < u.outer->links->len; i++)
    g_ptr_array_add (outer_links, qd_link_ref (g_ptr_array_index (u.outer->links, i)));
  inner_links = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_link_unref);
  for (guint i = 0; i < u.inner->links->len; i++)
    g_ptr_array_add (inner_links, qd_link_ref (g_ptr_array_index (u.inner->links, i)));
  moving = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_block_unref);
  for (guint i = 0; i < u.inner->blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (u.inner->blocks, i);

      if (port_block_of (&u, block->id) == NULL)
        g_ptr_array_add (moving, qd_block_ref (block));
    }

  qd_document_begin (self, _("Ungroup Subsystem"));

  /* Every link keeps its id; links from the subsystem's outputs or from
   * inports disappear, their destinations joined to the real source. The
   * expansions read the links from ports, so those go last. */
  for (guint i = 0; i < outer_links->len; i++)
    {
      QdLink *link = g_ptr_array_index (outer_links, i);

      if (strcmp (link->src.block, u.sub->id) != 0)
        rejoin_link (self, &u, u.outer, link);
    }
  for (guint i = 0; i < inner_links->len; i++)
    {
      QdLink *link = g_ptr_array_index (inner_links, i);

      if (port_block_of (&u, link->src.block) != NULL)
        continue;
      rejoin_link (self, &u, u.inner, link);
      if (link->parent == u.inner)
        {
          qd_document_edit_remove_link (self, link);
          qd_document_edit_insert_link (self, u.outer, link, u.outer->links->len);
        }
    }
  for (guint i = 0; i < outer_links->len; i++)
    {
      QdLink *link = g_ptr_array_index (outer_links, i);

      if (link->parent == u.outer && strcmp (link->src.block, u.sub->id) == 0)
        qd_document_edit_remove_link (self, link);
    }

  /* The contents take the subsystem's place in the priority order. */
  if (!g_ptr_array_find (u.outer->blocks, u.sub, &index))
    g_assert_not_reached ();
  qd_document_edit_remove_block (self, u.sub);
  for (guint i = 0; i < moving->len; i++)
    {
      QdBlock *block = g_ptr_array_index (moving, i);

      qd_document_edit_remove_block (self, block);
      if (qd_system_find_block_by_name (u.outer, block->name) != NULL)
        {
          char *name = qd_document_unique_name (u.outer, block->name);

          qd_document_edit_name (self, block, name);
          g_free (name);
        }
      qd_document_edit_insert_block (self, u.outer, block, index + i);
    }

  qd_document_end (self);

  g_ptr_array_unref (moving);
  g_ptr_array_unref (inner_links);
  g_ptr_array_unref (outer_links);
  g_ptr_array_unref (u.inports);
  g_ptr_array_unref (u.outports);
  return TRUE;
}

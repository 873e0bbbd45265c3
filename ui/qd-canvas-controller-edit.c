/* qd-canvas-controller-edit.c: the controller's edits of the selection
 *
 * What keys and menus do to the selected blocks and links: delete,
 * nudge, rotate, flip, align, group and ungroup, add a block; and the
 * clipboard: copy writes the selection (with the links between its
 * blocks) as diagram text, paste and duplicate read it back with fresh
 * names, a step away from the original.
 */
#include <glib/gi18n-lib.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qd-canvas-controller-private.h"

/* Edits of the selection */

/* An edit from a key or a menu while the button is still down (Delete in
 * the middle of a drag) first takes back the gesture, as Escape does:
 * the gesture's transaction would otherwise swallow the edit, and the
 * rest of the drag would go on over what the edit took away (the
 * target of a branch that no longer exists). */
static void
stop_gesture (QdCanvasController *self)
{
  if (self->mode != QD_CANVAS_MODE_IDLE)
    qd_canvas_controller_cancel (self);
}

void
qd_canvas_controller_delete_selection (QdCanvasController *self)
{
  g_autoptr(GPtrArray) blocks = NULL;

  g_return_if_fail (QD_IS_CANVAS_CONTROLLER (self));

  stop_gesture (self);

  if (self->document == NULL || g_hash_table_size (self->selection) == 0)
    return;

  blocks = qd_canvas_controller_get_selected_blocks (self);

  qd_canvas_controller_begin (self, _("Delete"));
  /* Link branches first, from the highest target index down, so that the
   * indexes of the others stay valid. */
  for (guint i = 0; i < self->system->links->len;)
    {
      QdLink *link = g_ptr_array_index (self->system->links, i);
      gboolean removed_link = FALSE;

      for (guint t = link->n_targets; t-- > 0;)
        {
          g_autofree char *key = qd_canvas_link_key (link, t);

          if (g_hash_table_contains (self->selection, key))
            {
              removed_link = link->n_targets == 1;
              qd_document_disconnect (self->document, link, t);
              if (removed_link)
                break;
            }
        }
      if (!removed_link)
        i++;
    }
  for (guint i = 0; i < blocks->len; i++)
    qd_document_remove_block (self->document, g_ptr_array_index (blocks, i));
  qd_canvas_controller_end (self);

  g_hash_table_remove_all (self->selection);
  qd_canvas_controller_selection_changed (self);
  qd_canvas_controller_invalidate_routes (self);
}

static double
next_grid_line (double value,
                double direction)
{
  if (direction > 0)
    return (floor (value / QD_CANVAS_GRID + 1e-9) + 1) * QD_CANVAS_GRID;
  return (ceil (value / QD_CANVAS_GRID - 1e-9) - 1) * QD_CANVAS_GRID;
}

void
qd_canvas_controller_nudge (QdCanvasController *self,
                            double              dx,
                            double              dy,
                            gboolean            snap)
{
  g_autoptr(GPtrArray) blocks = NULL;
  QdBlock *first;

  g_return_if_fail (QD_IS_CANVAS_CONTROLLER (self));

  stop_gesture (self);

  if (self->document == NULL)
    return;
  blocks = qd_canvas_controller_get_selected_blocks (self);
  if (blocks->len == 0)
    return;

  /* The first block lands on the grid; the others keep their places
   * relative to it. */
  first = g_ptr_array_index (blocks, 0);
  if (snap)
    {
      if (dx != 0)
        dx = next_grid_line (first->x, dx) - first->x;
      if (dy != 0)
        dy = next_grid_line (first->y, dy) - first->y;
    }

  qd_canvas_controller_begin (self, _("Move"));
  for (guint i = 0; i < blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (blocks, i);

      qd_document_move_block (self->document, block, block->x + dx, block->y + dy);
    }
  qd_canvas_controller_end (self);
  qd_canvas_controller_invalidate_routes (self);
}

void
qd_canvas_controller_rotate_selection (QdCanvasController *self)
{
  g_autoptr(GPtrArray) blocks = NULL;

  g_return_if_fail (QD_IS_CANVAS_CONTROLLER (self));

  stop_gesture (self);

  if (self->document == NULL)
    return;
  blocks = qd_canvas_controller_get_selected_blocks (self);
  if (blocks->len == 0)
    return;

  qd_canvas_controller_begin (self, _("Rotate"));
  for (guint i = 0; i < blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (blocks, i);
      double cx = block->x + block->width / 2;
      double cy = block->y + block->height / 2;

      /* A quarter turn about the centre: the rectangle turns too. */
      qd_document_set_geometry (self->document, block,
                                qd_canvas_snap (cx - block->height / 2),
                                qd_canvas_snap (cy - block->width / 2),
                                block->height, block->width,
                                (block->rotation + 90) % 360, block->flip, NULL);
    }
  qd_canvas_controller_end (self);
  qd_canvas_controller_invalidate_routes (self);
}

void
qd_canvas_controller_flip_selection (QdCanvasController *self)
{
  g_autoptr(GPtrArray) blocks = NULL;

  g_return_if_fail (QD_IS_CANVAS_CONTROLLER (self));

  stop_gesture (self);

  if (self->document == NULL)
    return;
  blocks = qd_canvas_controller_get_selected_blocks (self);
  if (blocks->len == 0)
    return;

  qd_canvas_controller_begin (self, _("Flip"));
  for (guint i = 0; i < blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (blocks, i);

      qd_document_set_geometry (self->document, block, block->x, block->y,
                                block->width, block->height, block->rotation,
                                !block->flip, NULL);
    }
  qd_canvas_controller_end (self);
  qd_canvas_controller_invalidate_routes (self);
}

void
qd_canvas_controller_align_selection (QdCanvasController *self,
                                      QdCanvasAlign       align)
{
  g_autoptr(GPtrArray) blocks = NULL;
  double left = G_MAXDOUBLE, top = G_MAXDOUBLE;
  double right = -G_MAXDOUBLE, bottom = -G_MAXDOUBLE;

  g_return_if_fail (QD_IS_CANVAS_CONTROLLER (self));

  stop_gesture (self);

  if (self->document == NULL)
    return;
  blocks = qd_canvas_controller_get_selected_blocks (self);
  if (blocks->len < 2)
    return;

  for (guint i = 0; i < blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (blocks, i);

      left = MIN (left, block->x);
      top = MIN (top, block->y);
      right = MAX (right, block->x + block->width);
      bottom = MAX (bottom, block->y + block->height);
    }

  qd_canvas_controller_begin (self, _("Align"));
  for (guint i = 0; i < blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (blocks, i);
      double x = block->x, y = block->y;

      switch (align)
        {
        case QD_CANVAS_ALIGN_LEFT:
          x = left;
          break;
        case QD_CANVAS_ALIGN_RIGHT:
          x = right - block->width;
          break;
        case QD_CANVAS_ALIGN_TOP:
          y = top;
          break;
        case QD_CANVAS_ALIGN_BOTTOM:
          y = bottom - block->height;
          break;
        case QD_CANVAS_ALIGN_CENTER:
          x = qd_canvas_snap ((left + right) / 2 - block->width / 2);
          break;
        case QD_CANVAS_ALIGN_MIDDLE:
          y = qd_canvas_snap ((top + bottom) / 2 - block->height / 2);
          break;
        default:
          break;
        }
      if (x != block->x || y != block->y)
        qd_document_move_block (self->document, block, x, y);
    }
  qd_canvas_controller_end (self);
  qd_canvas_controller_invalidate_routes (self);
}

/* Clipboard */

/* The first line of what Copy puts on the clipboard for links selected
 * without their blocks. The rest is a diagram of those links and of the
 * blocks at their ends, but Paste re-creates the links between the
 * blocks already there instead of adding blocks. */
#define LINKS_HEADER "# QDevs links\n"

static QdSystem *clone_system (const QdSystem *system,
                               GHashTable     *only,
                               GHashTable     *targets);

static QdBlock *
clone_block (const QdBlock *block)
{
  QdBlock *copy = qd_block_new (block->id, block->type, block->name);

  copy->x = block->x;
  copy->y = block->y;
  copy->width = block->width;
  copy->height = block->height;
  copy->rotation = block->rotation;
  copy->flip = block->flip;
  for (guint i = 0; block->params != NULL && i < block->params->len; i++)
    {
      const QdParam *param = &g_array_index (block->params, QdParam, i);

      qd_block_set_param_raw (copy, param->name, param->value);
    }
  if (block->inner != NULL)
    {
      QdSystem *inner = clone_system (block->inner, NULL, NULL);

      /* The new subsystem came with an empty inner system: fill it. */
      for (guint i = 0; i < inner->blocks->len; i++)
        {
          QdBlock *b = g_ptr_array_index (inner->blocks, i);

          qd_system_append_block (copy->inner, qd_block_ref (b));
        }
      for (guint i = 0; i < inner->links->len; i++)
        qd_system_append_link (copy->inner, qd_link_ref (g_ptr_array_index (inner->links, i)));
      qd_system_unref (inner);
      qd_system_take_mask (copy->inner, qd_mask_copy (qd_block_get_mask (block)));
    }
  return copy;
}

/* A copy of @system with only the blocks in @only (all when NULL) and the
 * link branches between them; with @targets, only the branches whose
 * keys (qd_canvas_link_key()) it holds. */
static QdSystem *
clone_system (const QdSystem *system,
              GHashTable     *only,
              GHashTable     *targets)
{
  QdSystem *copy = qd_system_new ();

  for (guint i = 0; i < system->blocks->len; i++)
    {
      const QdBlock *block = g_ptr_array_index (system->blocks, i);

      if (only == NULL || g_hash_table_contains (only, block->id))
        qd_system_append_block (copy, clone_block (block));
    }
  for (guint i = 0; i < system->links->len; i++)
    {
      const QdLink *link = g_ptr_array_index (system->links, i);
      QdLink *clone = NULL;

      if (only != NULL && !g_hash_table_contains (only, link->src.block))
        continue;
      for (guint t = 0; t < link->n_targets; t++)
        {
          const QdLinkTarget *target = link->targets[t];
          QdLinkTarget *ct;

          if (only != NULL && !g_hash_table_contains (only, target->dst.block))
            continue;
          if (targets != NULL)
            {
              g_autofree char *key = qd_canvas_link_key (link, t);

              if (!g_hash_table_contains (targets, key))
                continue;
            }
          if (clone == NULL)
            clone = qd_link_new (link->id, link->src.block, link->src.port);
          ct = qd_link_add_target (clone, target->dst.block, target->dst.port);
          if (target->points != NULL && target->points->len > 0)
            g_array_append_vals (ct->points, target->points->data, target->points->len);
        }
      if (clone != NULL)
        qd_system_append_link (copy, clone);
    }
  return copy;
}

/* Links selected without blocks: LINKS_HEADER, then a diagram of them
 * and of the blocks at their ends; NULL when no link is selected. */
static char *
copy_links (QdCanvasController *self)
{
  g_autoptr(GHashTable) ends = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) targets = g_hash_table_new_full (g_str_hash, g_str_equal,
                                                         g_free, NULL);
  g_autoptr(QdDocument) clip = NULL;
  g_autofree char *text = NULL;

  for (guint i = 0; i < self->system->links->len; i++)
    {
      QdLink *link = g_ptr_array_index (self->system->links, i);

      for (guint t = 0; t < link->n_targets; t++)
        {
          QdLinkTarget *target = link->targets[t];
          char *key = qd_canvas_link_key (link, t);

          if (!g_hash_table_contains (self->selection, key))
            {
              g_free (key);
              continue;
            }
          g_hash_table_add (targets, key);
          g_hash_table_add (ends, link->src.block);
          g_hash_table_add (ends, target->dst.block);
        }
    }
  if (g_hash_table_size (targets) == 0)
    return NULL;
  clip = qd_document_new ();
  qd_document_take_root (clip, clone_system (self->system, ends, targets));
  text = qd_document_to_data (clip, NULL);
  return g_strconcat (LINKS_HEADER, text, NULL);
}

char *
qd_canvas_controller_copy (QdCanvasController *self)
{
  g_autoptr(GHashTable) only = NULL;
  g_autoptr(GPtrArray) blocks = NULL;
  g_autoptr(QdDocument) clip = NULL;

  g_return_val_if_fail (QD_IS_CANVAS_CONTROLLER (self), NULL);

  if (self->system == NULL)
    return NULL;
  blocks = qd_canvas_controller_get_selected_blocks (self);
  if (blocks->len == 0)
    return copy_links (self);

  only = g_hash_table_new (g_str_hash, g_str_equal);
  for (guint i = 0; i < blocks->len; i++)
    g_hash_table_add (only, ((QdBlock *) g_ptr_array_index (blocks, i))->id);

  /* The clipboard holds an ordinary diagram file: readable, and pasted by
   * the same loader that opens files. */
  clip = qd_document_new ();
  qd_document_take_root (clip, clone_system (self->system, only, NULL));
  return qd_document_to_data (clip, NULL);
}

/* @name, or the first of "base 2", "base 3"... free in @system, where
 * base is @name without a number at its end. */
static char *
unique_name (QdSystem   *system,
             const char *name)
{
  g_autofree char *base = NULL;
  const char *end;

  if (qd_system_find_block_by_name (system, name) == NULL)
    return g_strdup (name);

  end = name + strlen (name);
  while (end > name && g_ascii_isdigit (end[-1]))
    end--;
  if (end > name && end < name + strlen (name) && end[-1] == ' ')
    base = g_strndup (name, end - 1 - name);
  else
    base = g_strdup (name);

  for (guint n = 2;; n++)
    {
      char *candidate = g_strdup_printf ("%s %u", base, n);

      if (qd_system_find_block_by_name (system, candidate) == NULL)
        return candidate;
      g_free (candidate);
    }
}

/* The bend points of @target, moved by @offset, on the last target of
 * @made. */
static void
paste_points (QdCanvasController *self,
              QdLink             *made,
              const QdLinkTarget *target,
              double              offset)
{
  g_autofree QdPoint *points = NULL;

  if (target->points == NULL || target->points->len == 0)
    return;
  points = g_new (QdPoint, target->points->len);
  for (guint k = 0; k < target->points->len; k++)
    {
      points[k] = g_array_index (target->points, QdPoint, k);
      points[k].x += offset;
      points[k].y += offset;
    }
  qd_document_set_link_points (self->document, made, made->n_targets - 1,
                               points, target->points->len);
}

static gboolean
paste_system (QdCanvasController *self,
              const QdSystem     *from,
              QdSystem           *into,
              double              offset,
              GPtrArray          *added,
              GError            **error)
{
  g_autoptr(GHashTable) ids = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);

  for (guint i = 0; i < from->blocks->len; i++)
    {
      const QdBlock *block = g_ptr_array_index (from->blocks, i);
      g_autofree char *name = unique_name (into, block->name);
      QdBlock *copy;

      copy = qd_document_add_block (self->document, into, block->type, name,
                                    block->x + offset, block->y + offset, error);
      if (copy == NULL)
        return FALSE;
      if (!qd_document_set_geometry (self->document, copy, copy->x, copy->y,
                                     block->width, block->height,
                                     block->rotation, block->flip, error))
        return FALSE;
      for (guint k = 0; block->params != NULL && k < block->params->len; k++)
        {
          const QdParam *param = &g_array_index (block->params, QdParam, k);

          if (!qd_document_set_param (self->document, copy, param->name,
                                      param->value, error))
            return FALSE;
        }
      if (block->inner != NULL && copy->inner != NULL &&
          !paste_system (self, block->inner, copy->inner, 0, NULL, error))
        return FALSE;
      if (qd_block_get_mask (block) != NULL
          && !qd_document_set_mask (self->document, copy, qd_block_get_mask (block), error))
        return FALSE;
      g_hash_table_insert (ids, block->id, g_strdup (copy->id));
      if (added != NULL)
        g_ptr_array_add (added, g_strdup (copy->id));
    }

  for (guint i = 0; i < from->links->len; i++)
    {
      const QdLink *link = g_ptr_array_index (from->links, i);
      const char *src = g_hash_table_lookup (ids, link->src.block);

      for (guint t = 0; t < link->n_targets; t++)
        {
          const QdLinkTarget *target = link->targets[t];
          const char *dst = g_hash_table_lookup (ids, target->dst.block);
          QdLink *made;

          if (src == NULL || dst == NULL)
            continue;
          made = qd_document_connect (self->document, into, src, link->src.port,
                                      dst, target->dst.port, error);
          if (made == NULL)
            return FALSE;
          paste_points (self, made, target, offset);
        }
    }
  return TRUE;
}

/* Pastes the links of @from (LINKS_HEADER's diagram) between the blocks
 * of the system shown that have their ids and types, where the input is
 * free. Their keys go to @added. When none can be, says why. */
static gboolean
paste_links (QdCanvasController *self,
             const QdSystem     *from,
             GPtrArray          *added,
             GError            **error)
{
  g_autofree char *why = NULL;

  for (guint i = 0; i < from->links->len; i++)
    {
      const QdLink *link = g_ptr_array_index (from->links, i);
      QdBlock *src = qd_system_find_block (self->system, link->src.block);
      QdBlock *src_was = qd_system_find_block ((QdSystem *) from, link->src.block);

      for (guint t = 0; t < link->n_targets; t++)
        {
          const QdLinkTarget *target = link->targets[t];
          QdBlock *dst = qd_system_find_block (self->system, target->dst.block);
          QdBlock *dst_was = qd_system_find_block ((QdSystem *) from, target->dst.block);
          g_autoptr(GError) local = NULL;
          QdLink *made;

          if (src == NULL || dst == NULL || src_was == NULL || dst_was == NULL
              || strcmp (src->type, src_was->type) != 0
              || strcmp (dst->type, dst_was->type) != 0)
            {
              if (why == NULL)
                why = g_strdup (_("the blocks the copied link joined are not "
                                  "here; paste it where they are, or copy it "
                                  "with its blocks"));
              continue;
            }
          if (qd_system_find_driver (self->system, dst->id, target->dst.port, NULL) != NULL)
            {
              g_autofree char *path = qd_block_get_path (dst);

              if (why == NULL)
                why = g_strdup_printf (_("input %u of %s is connected already; "
                                         "delete that link first"),
                                       target->dst.port + 1, path);
              continue;
            }
          made = qd_document_connect (self->document, self->system, src->id,
                                      link->src.port, dst->id, target->dst.port,
                                      &local);
          if (made == NULL)
            {
              if (why == NULL)
                why = g_strdup (local->message);
              continue;
            }
          paste_points (self, made, target, 0);
          g_ptr_array_add (added, qd_canvas_link_key (made, made->n_targets - 1));
        }
    }
  if (added->len == 0)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("%s: nothing pasted: %s"), _("clipboard"),
                   why != NULL ? why : _("it holds no link"));
      return FALSE;
    }
  return TRUE;
}

gboolean
qd_canvas_controller_paste (QdCanvasController  *self,
                            const char          *text,
                            GError             **error)
{
  gboolean links = g_str_has_prefix (text, LINKS_HEADER);
  const char *data = links ? text + strlen (LINKS_HEADER) : text;
  g_autoptr(QdDocument) clip = NULL;
  g_autoptr(GPtrArray) added = NULL;
  GError *local = NULL;
  QdSystem *from;
  double offset;
  gboolean ok;

  g_return_val_if_fail (QD_IS_CANVAS_CONTROLLER (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  stop_gesture (self);

  if (self->document == NULL || self->system == NULL)
    return FALSE;

  /* TRANSLATORS: the name of the clipboard in error messages */
  clip = qd_document_load_data (data, strlen (data), _("clipboard"), error);
  if (clip == NULL)
    return FALSE;
  from = qd_document_get_root (clip);
  if (from->blocks->len == 0)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("%s: the clipboard holds no blocks; copy some blocks first"),
                   _("clipboard"));
      return FALSE;
    }

  if (g_strcmp0 (self->last_paste, text) == 0)
    self->paste_count++;
  else
    {
      g_free (self->last_paste);
      self->last_paste = g_strdup (text);
      self->paste_count = 1;
    }
  offset = 20.0 * self->paste_count;

  added = g_ptr_array_new_with_free_func (g_free);
  qd_canvas_controller_begin (self, _("Paste"));
  if (links)
    ok = paste_links (self, from, added, &local);
  else
    ok = paste_system (self, from, self->system, offset, added, &local);
  qd_canvas_controller_end (self);
  if (!ok)
    {
      /* Take back the half-done paste (a refused paste of links has
       * done nothing). */
      if (!links)
        qd_document_undo (self->document);
      g_propagate_error (error, local);
      return FALSE;
    }

  g_hash_table_remove_all (self->selection);
  for (guint i = 0; i < added->len; i++)
    g_hash_table_add (self->selection, g_strdup (g_ptr_array_index (added, i)));
  /* The links among the pasted blocks are selected too. */
  for (guint i = 0; i < self->system->links->len; i++)
    {
      QdLink *link = g_ptr_array_index (self->system->links, i);

      if (!g_hash_table_contains (self->selection, link->src.block))
        continue;
      for (guint t = 0; t < link->n_targets; t++)
        {
          QdLinkTarget *target = link->targets[t];

          if (g_hash_table_contains (self->selection, target->dst.block))
            g_hash_table_add (self->selection, qd_canvas_link_key (link, t));
        }
    }
  qd_canvas_controller_selection_changed (self);
  qd_canvas_controller_invalidate_routes (self);
  return TRUE;
}

void
qd_canvas_controller_duplicate (QdCanvasController *self)
{
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (QD_IS_CANVAS_CONTROLLER (self));

  text = qd_canvas_controller_copy (self);
  if (text == NULL)
    return;
  if (!qd_canvas_controller_paste (self, text, &error))
    g_signal_emit (self, qd_canvas_controller_signals[MESSAGE], 0, error->message);
}

gboolean
qd_canvas_controller_group (QdCanvasController *self)
{
  g_autoptr(GPtrArray) blocks = NULL;
  g_autoptr(GError) error = NULL;
  QdBlock *sub;

  g_return_val_if_fail (QD_IS_CANVAS_CONTROLLER (self), FALSE);

  stop_gesture (self);

  if (self->document == NULL)
    return FALSE;
  blocks = qd_canvas_controller_get_selected_blocks (self);
  if (blocks->len == 0)
    {
      g_autofree char *where = qd_system_get_path (self->system);

      qd_canvas_controller_report (self, _("%s: select the blocks to put into a subsystem first"),
                                   where[0] != '\0' ? where : "/");
      return FALSE;
    }
  sub = qd_document_group (self->document, (QdBlock **) blocks->pdata,
                           blocks->len, NULL, &error);
  if (sub == NULL)
    {
      g_signal_emit (self, qd_canvas_controller_signals[MESSAGE], 0, error->message);
      return FALSE;
    }
  qd_canvas_controller_select (self, sub->id, FALSE);
  qd_canvas_controller_invalidate_routes (self);
  return TRUE;
}

gboolean
qd_canvas_controller_ungroup (QdCanvasController *self)
{
  g_autoptr(GPtrArray) blocks = NULL;
  g_autoptr(GPtrArray) subsystems = g_ptr_array_new ();
  gboolean ok = TRUE;

  g_return_val_if_fail (QD_IS_CANVAS_CONTROLLER (self), FALSE);

  stop_gesture (self);

  if (self->document == NULL)
    return FALSE;
  blocks = qd_canvas_controller_get_selected_blocks (self);
  for (guint i = 0; i < blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (blocks, i);

      if (block->inner != NULL)
        g_ptr_array_add (subsystems, block);
    }
  if (subsystems->len == 0)
    {
      g_autofree char *where = qd_system_get_path (self->system);

      qd_canvas_controller_report (self, _("%s: select a subsystem to ungroup first"),
                                   where[0] != '\0' ? where : "/");
      return FALSE;
    }

  qd_canvas_controller_begin (self, _("Ungroup"));
  for (guint i = 0; ok && i < subsystems->len; i++)
    {
      g_autoptr(GError) error = NULL;

      if (!qd_document_ungroup (self->document, g_ptr_array_index (subsystems, i), &error))
        {
          g_signal_emit (self, qd_canvas_controller_signals[MESSAGE], 0, error->message);
          ok = FALSE;
        }
    }
  qd_canvas_controller_end (self);
  g_hash_table_remove_all (self->selection);
  qd_canvas_controller_selection_changed (self);
  qd_canvas_controller_invalidate_routes (self);
  return ok;
}

QdBlock *
qd_canvas_controller_add_block (QdCanvasController *self,
                                const char         *type,
                                double              x,
                                double              y)
{
  g_autoptr(GError) error = NULL;
  QdBlock *block;
  double nx, ny;

  g_return_val_if_fail (QD_IS_CANVAS_CONTROLLER (self), NULL);
  g_return_val_if_fail (type != NULL, NULL);

  stop_gesture (self);

  if (self->document == NULL || self->system == NULL)
    return NULL;

  qd_canvas_controller_begin (self, _("Add Block"));
  block = qd_document_add_block (self->document, self->system, type, NULL,
                                 qd_canvas_snap (x), qd_canvas_snap (y), &error);
  if (block != NULL)
    {
      double w, h;

      /* The type's own size, centred on the point. */
      qd_canvas_default_block_size (type, &w, &h);
      nx = qd_canvas_snap (x - w / 2);
      ny = qd_canvas_snap (y - h / 2);
      if (w != block->width || h != block->height)
        qd_document_set_geometry (self->document, block, nx, ny, w, h,
                                  block->rotation, block->flip, NULL);
      else if (nx != block->x || ny != block->y)
        qd_document_move_block (self->document, block, nx, ny);
    }
  qd_canvas_controller_end (self);

  if (block == NULL)
    {
      g_signal_emit (self, qd_canvas_controller_signals[MESSAGE], 0, error->message);
      return NULL;
    }
  qd_canvas_controller_select (self, block->id, FALSE);
  qd_canvas_controller_invalidate_routes (self);
  return block;
}

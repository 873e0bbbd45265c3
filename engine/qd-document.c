/* qd-document.c: a diagram and the commands that edit it
 *
 * Every command validates first, then applies itself as a sequence of
 * primitive edits (insert or remove a block, a link or a link target, set a
 * field...), each recorded on the history with references to what it
 * touches, so that removed blocks live on in the history and undo puts back
 * the very same objects. A command runs in its own transaction, which nests
 * into the caller's when there is one; "changed" fires once when the
 * outermost transaction closes.
 *
 * The document's indexes and ids are in qd-document-index.c, its
 * settings, variables, title and description in qd-document-settings.c,
 * the primitive edits in qd-document-edits.c.
 */
#include <glib/gi18n-lib.h>

#include <math.h>
#include <string.h>

#include "qd-document.h"
#include "qd-document-private.h"
#include "qd-expr.h"
#include "qd-history.h"
#include "qd-registry.h"


enum
{
  PROP_0,
  PROP_CAN_UNDO,
  PROP_CAN_REDO,
  PROP_MODIFIED,
  PROP_TITLE,
  N_PROPS
};

enum
{
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (QdDocument, qd_document, G_TYPE_OBJECT)

/* Change notification */

static void
emit_changes (QdDocument *self)
{
  gboolean can_undo, can_redo, modified;

  g_signal_emit (self, signals[CHANGED], 0);

  can_undo = qd_history_can_undo (self->history);
  can_redo = qd_history_can_redo (self->history);
  modified = qd_document_get_modified (self);
  if (can_undo != self->can_undo)
    {
      self->can_undo = can_undo;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_UNDO]);
    }
  if (can_redo != self->can_redo)
    {
      self->can_redo = can_redo;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_CAN_REDO]);
    }
  if (modified != self->modified)
    {
      self->modified = modified;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODIFIED]);
    }
  if (self->title_changed)
    {
      self->title_changed = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
    }
}

/* The primitive edits */

void
qd_document_record (QdDocument *self,
                    QdEdit     *edit)
{
  edit->klass->apply (edit, self, FALSE);
  qd_history_record (self->history, edit);
}

void
qd_document_edit_record (QdDocument *self,
                         QdEdit     *edit)
{
  g_return_if_fail (QD_IS_DOCUMENT (self));
  g_return_if_fail (qd_history_get_depth (self->history) > 0);

  qd_document_record (self, edit);
}

/* Helpers shared by the commands */

/* Where a message about a system starts: its path, "/" for the root. */
static char *
system_where (QdSystem *system)
{
  char *path = qd_system_get_path (system);

  if (path[0] == '\0')
    {
      g_free (path);
      return g_strdup ("/");
    }
  return path;
}

static void
set_block_error (GError        **error,
                 const QdBlock  *block,
                 QdErrorCode     code,
                 const char     *message)
{
  char *path = qd_block_get_path (block);

  g_set_error (error, QD_ERROR, code, "%s: %s", path, message);
  g_free (path);
}

static void
prefix_block_error (GError        **error,
                    GError         *local,
                    const QdBlock  *block)
{
  char *path = qd_block_get_path (block);

  g_propagate_prefixed_error (error, local, "%s: ", path);
  g_free (path);
}

/* Removes target @index of @link, or the whole link for its last one. */
void
qd_document_edit_remove_target_or_link (QdDocument *self,
                                        QdLink     *link,
                                        guint       index)
{
  if (link->n_targets <= 1)
    qd_document_edit_remove_link (self, link);
  else
    qd_document_edit_remove_target (self, link, index);
}

/* Removes every link or target whose block id matches and whose port
 * passes the limit (all ports when @max_in / @max_out is 0). */
static void
remove_links_of (QdDocument *self,
                 QdSystem   *system,
                 const char *id,
                 guint       max_in,
                 guint       max_out)
{
  for (guint i = system->links->len; i > 0; i--)
    {
      QdLink *link = g_ptr_array_index (system->links, i - 1);

      if (strcmp (link->src.block, id) == 0 && link->src.port >= max_out)
        {
          qd_document_edit_remove_link (self, link);
          continue;
        }
      for (guint j = link->n_targets; j > 0; j--)
        {
          QdLinkTarget *target = link->targets[j - 1];

          if (strcmp (target->dst.block, id) == 0 && target->dst.port >= max_in)
            {
              gboolean last = link->n_targets == 1;

              qd_document_edit_remove_target_or_link (self, link, j - 1);
              if (last)
                break;
            }
        }
    }
}

void
qd_document_prune_ports (QdDocument *self,
                         QdBlock    *block)
{
  guint n_in, n_out;

  if (block->parent == NULL
      || !qd_block_count_ports (block, &n_in, &n_out, NULL))
    return;
  remove_links_of (self, block->parent, block->id, n_in, n_out);
}

gboolean
qd_document_check_name (QdSystem    *system,
                        const char  *where,
                        const char  *name,
                        GError     **error)
{
  if (name[0] == '\0' || strchr (name, '/') != NULL)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("%s: '%s' cannot name a block; use a name that is not "
                     "empty and has no '/'"),
                   where, name);
      return FALSE;
    }
  if (qd_system_find_block_by_name (system, name) != NULL)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_DUPLICATE,
                   _("%s: a block named '%s' already exists here; choose "
                     "another name"),
                   where, name);
      return FALSE;
    }
  return TRUE;
}

/* "Integrator", then "Integrator 2", "Integrator 3"... */
char *
qd_document_unique_name (QdSystem   *system,
                         const char *base)
{
  if (qd_system_find_block_by_name (system, base) == NULL)
    return g_strdup (base);
  for (guint n = 2;; n++)
    {
      char *name = g_strdup_printf ("%s %u", base, n);

      if (qd_system_find_block_by_name (system, name) == NULL)
        return name;
      g_free (name);
    }
}

/* GObject */

static void
qd_document_finalize (GObject *object)
{
  QdDocument *self = QD_DOCUMENT (object);

  /* The history first: its edits hold references into the diagram. */
  qd_history_free (self->history);
  qd_system_unref (self->root);
  g_hash_table_unref (self->block_index);
  g_hash_table_unref (self->link_index);
  g_hash_table_unref (self->drivers);
  g_hash_table_unref (self->sources);
  g_hash_table_unref (self->id_counters);
  g_ptr_array_unref (self->variables);
  qd_settings_clear (&self->settings);
  g_free (self->title);
  g_free (self->description);

  G_OBJECT_CLASS (qd_document_parent_class)->finalize (object);
}

static void
qd_document_get_property (GObject    *object,
                          guint       prop_id,
                          GValue     *value,
                          GParamSpec *pspec)
{
  QdDocument *self = QD_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_CAN_UNDO:
      g_value_set_boolean (value, qd_document_can_undo (self));
      break;
    case PROP_CAN_REDO:
      g_value_set_boolean (value, qd_document_can_redo (self));
      break;
    case PROP_MODIFIED:
      g_value_set_boolean (value, qd_document_get_modified (self));
      break;
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
qd_document_set_property (GObject      *object,
                          guint         prop_id,
                          const GValue *value,
                          GParamSpec   *pspec)
{
  QdDocument *self = QD_DOCUMENT (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      qd_document_set_title (self, g_value_get_string (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
qd_document_class_init (QdDocumentClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = qd_document_finalize;
  object_class->get_property = qd_document_get_property;
  object_class->set_property = qd_document_set_property;

  properties[PROP_CAN_UNDO] =
    g_param_spec_boolean ("can-undo", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_CAN_REDO] =
    g_param_spec_boolean ("can-redo", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_MODIFIED] =
    g_param_spec_boolean ("modified", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /* Setting it is the Change Title command. */
  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, "",
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /* Once after each outermost command or transaction, undo and redo, and
   * when the loader installs a new diagram. */
  signals[CHANGED] =
    g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
qd_document_init (QdDocument *self)
{
  self->root = qd_system_new ();
  self->title = g_strdup ("");
  self->description = g_strdup ("");
  qd_document_init_settings (&self->settings);
  self->variables = g_ptr_array_new_with_free_func (qd_document_variable_free);
  self->history = qd_history_new ();
  self->block_index = g_hash_table_new (g_str_hash, g_str_equal);
  self->link_index = g_hash_table_new (g_str_hash, g_str_equal);
  self->drivers = qd_document_endpoint_index_new ();
  self->sources = qd_document_endpoint_index_new ();
  self->id_counters = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

QdDocument *
qd_document_new (void)
{
  return g_object_new (QD_TYPE_DOCUMENT, NULL);
}

/* Reading */

QdSystem *
qd_document_get_root (QdDocument *self)
{
  g_return_val_if_fail (QD_IS_DOCUMENT (self), NULL);

  return self->root;
}

const char *
qd_document_get_title (QdDocument *self)
{
  g_return_val_if_fail (QD_IS_DOCUMENT (self), NULL);

  return self->title;
}

const char *
qd_document_get_description (QdDocument *self)
{
  g_return_val_if_fail (QD_IS_DOCUMENT (self), NULL);

  return self->description;
}

const QdSettings *
qd_document_get_settings (QdDocument *self)
{
  g_return_val_if_fail (QD_IS_DOCUMENT (self), NULL);

  return &self->settings;
}

GPtrArray *
qd_document_get_variables (QdDocument *self)
{
  g_return_val_if_fail (QD_IS_DOCUMENT (self), NULL);

  return self->variables;
}

/* Transactions and history */

void
qd_document_begin (QdDocument *self,
                   const char *label)
{
  g_return_if_fail (QD_IS_DOCUMENT (self));

  qd_history_begin (self->history, label);
}

void
qd_document_end (QdDocument *self)
{
  g_return_if_fail (QD_IS_DOCUMENT (self));
  g_return_if_fail (qd_history_get_depth (self->history) > 0);

  if (qd_history_end (self->history))
    emit_changes (self);
}

gboolean
qd_document_can_undo (QdDocument *self)
{
  g_return_val_if_fail (QD_IS_DOCUMENT (self), FALSE);

  return qd_history_can_undo (self->history);
}

gboolean
qd_document_can_redo (QdDocument *self)
{
  g_return_val_if_fail (QD_IS_DOCUMENT (self), FALSE);

  return qd_history_can_redo (self->history);
}

const char *
qd_document_get_undo_label (QdDocument *self)
{
  g_return_val_if_fail (QD_IS_DOCUMENT (self), NULL);

  return qd_history_get_undo_label (self->history);
}

const char *
qd_document_get_redo_label (QdDocument *self)
{
  g_return_val_if_fail (QD_IS_DOCUMENT (self), NULL);

  return qd_history_get_redo_label (self->history);
}

gboolean
qd_document_undo (QdDocument *self)
{
  g_return_val_if_fail (QD_IS_DOCUMENT (self), FALSE);

  if (!qd_history_undo (self->history, self))
    return FALSE;
  emit_changes (self);
  return TRUE;
}

gboolean
qd_document_redo (QdDocument *self)
{
  g_return_val_if_fail (QD_IS_DOCUMENT (self), FALSE);

  if (!qd_history_redo (self->history, self))
    return FALSE;
  emit_changes (self);
  return TRUE;
}

gboolean
qd_document_get_modified (QdDocument *self)
{
  g_return_val_if_fail (QD_IS_DOCUMENT (self), FALSE);

  return qd_history_get_state (self->history) != self->saved_state;
}

void
qd_document_set_saved (QdDocument *self)
{
  g_return_if_fail (QD_IS_DOCUMENT (self));

  self->saved_state = qd_history_get_state (self->history);
  if (self->modified)
    {
      self->modified = FALSE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODIFIED]);
    }
}

void
qd_document_set_unsaved (QdDocument *self)
{
  g_return_if_fail (QD_IS_DOCUMENT (self));

  /* A state no step ever reaches: serials count up from the start. */
  self->saved_state = G_MAXUINT64;
  if (!self->modified)
    {
      self->modified = TRUE;
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_MODIFIED]);
    }
}

/* Commands: blocks */

/* The smallest port number that no block of @type in @system uses. */
static guint
first_free_port (QdSystem   *system,
                 const char *type)
{
  for (guint n = 1;; n++)
    {
      gboolean used = FALSE;

      for (guint i = 0; i < system->blocks->len && !used; i++)
        {
          QdBlock *block = g_ptr_array_index (system->blocks, i);

          used = strcmp (block->type, type) == 0
                 && g_ascii_strtoull (qd_block_get_param_or_default (block, "port"),
                                      NULL, 10) == n;
        }
      if (!used)
        return n;
    }
}

QdBlock *
qd_document_add_block (QdDocument  *self,
                       QdSystem    *system,
                       const char  *type,
                       const char  *name,
                       double       x,
                       double       y,
                       GError     **error)
{
  const QdBlockType *info;
  char *where, *id, *chosen;
  QdBlock *block;

  g_return_val_if_fail (QD_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (system != NULL, NULL);
  g_return_val_if_fail (type != NULL, NULL);

  where = system_where (system);
  info = qd_registry_lookup (type);
  if (info == NULL)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_UNKNOWN_TYPE,
                   _("%s: there is no block type '%s'; pick one from the "
                     "palette or the list of `qdevs-cli blocks`"),
                   where, type);
      g_free (where);
      return NULL;
    }
  if (name != NULL && !qd_document_check_name (system, where, name, error))
    {
      g_free (where);
      return NULL;
    }
  g_free (where);

  chosen = name != NULL ? g_strdup (name) : qd_document_unique_name (system, _(info->name));
  id = qd_document_new_id (self, "b");
  block = qd_block_new (id, type, chosen);
  block->x = x;
  block->y = y;
  if (strcmp (type, QD_TYPE_INPORT) == 0 || strcmp (type, QD_TYPE_OUTPORT) == 0)
    {
      /* A new port of the subsystem: the first free number, so that the
       * ports stay numbered 1 to their count (1 is the default and stays
       * unset). */
      guint free_port = first_free_port (system, type);
      char number[16];

      g_snprintf (number, sizeof number, "%u", free_port);
      if (free_port != 1)
        qd_block_set_param_raw (block, "port", number);
    }

  qd_document_begin (self, _("Add Block"));
  qd_document_edit_insert_block (self, system, block, system->blocks->len);
  qd_document_end (self);

  g_free (id);
  g_free (chosen);
  /* The system holds it now; the caller borrows. */
  qd_block_unref (block);
  return block;
}

void
qd_document_remove_block (QdDocument *self,
                          QdBlock    *block)
{
  QdSystem *system;
  QdBlock *owner;
  gboolean is_port;

  g_return_if_fail (QD_IS_DOCUMENT (self));
  g_return_if_fail (block != NULL && block->parent != NULL);

  system = block->parent;
  owner = system->owner;
  is_port = strcmp (block->type, QD_TYPE_INPORT) == 0
            || strcmp (block->type, QD_TYPE_OUTPORT) == 0;

  qd_document_begin (self, _("Delete Block"));
  remove_links_of (self, system, block->id, 0, 0);
  qd_document_edit_remove_block (self, block);
  /* One port fewer on the subsystem: its outer links to a port that is
   * gone would dangle. */
  if (is_port && owner != NULL)
    qd_document_prune_ports (self, owner);
  qd_document_end (self);
}

void
qd_document_move_block (QdDocument *self,
                        QdBlock    *block,
                        double      x,
                        double      y)
{
  g_return_if_fail (QD_IS_DOCUMENT (self));
  g_return_if_fail (block != NULL);

  if (block->x == x && block->y == y)
    return;
  qd_document_begin (self, _("Move"));
  qd_document_edit_geometry (self, block, x, y, block->width, block->height,
                             block->rotation, block->flip);
  qd_document_end (self);
}

gboolean
qd_document_set_geometry (QdDocument  *self,
                          QdBlock     *block,
                          double       x,
                          double       y,
                          double       width,
                          double       height,
                          int          rotation,
                          gboolean     flip,
                          GError     **error)
{
  g_return_val_if_fail (QD_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (block != NULL, FALSE);

  if (rotation != 0 && rotation != 90 && rotation != 180 && rotation != 270)
    {
      char *message = g_strdup_printf (_("a rotation of %d degrees is not "
                                         "possible; use 0, 90, 180 or 270"),
                                       rotation);

      set_block_error (error, block, QD_ERROR_INVALID, message);
      g_free (message);
      return FALSE;
    }
  if (!(width > 0) || !(height > 0) || !isfinite (width) || !isfinite (height)
      || !isfinite (x) || !isfinite (y))
    {
      char *message = g_strdup_printf (_("a size of %g by %g at %g, %g is not "
                                         "possible; width and height must be "
                                         "positive"),
                                       width, height, x, y);

      set_block_error (error, block, QD_ERROR_INVALID, message);
      g_free (message);
      return FALSE;
    }

  flip = flip != FALSE;
  if (block->x == x && block->y == y && block->width == width
      && block->height == height && block->rotation == rotation
      && block->flip == flip)
    return TRUE;

  qd_document_begin (self, _("Change Geometry"));
  qd_document_edit_geometry (self, block, x, y, width, height, rotation, flip);
  qd_document_end (self);
  return TRUE;
}

gboolean
qd_document_rename_block (QdDocument  *self,
                          QdBlock     *block,
                          const char  *name,
                          GError     **error)
{
  char *where;
  gboolean ok;

  g_return_val_if_fail (QD_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (block != NULL && block->parent != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (strcmp (block->name, name) == 0)
    return TRUE;

  where = qd_block_get_path (block);
  ok = qd_document_check_name (block->parent, where, name, error);
  g_free (where);
  if (!ok)
    return FALSE;

  qd_document_begin (self, _("Rename Block"));
  qd_document_record_text_field_edit (self, block, NULL, name);
  qd_document_end (self);
  return TRUE;
}

/* A per-input list (QD_PARAM_PER_INPUT) for @n inputs: its first @n
 * elements exactly as written, then, for each new input, the last
 * element of the default. NULL when the schema gives no such element. */
static char *
per_input_text (const QdParamSpec *spec,
                const char        *text,
                guint              n)
{
  g_auto(GStrv) elements = qd_expr_split_vector (text);
  g_auto(GStrv) defaults =
    qd_expr_split_vector (spec->default_value != NULL ? spec->default_value : "");
  guint n_elements = g_strv_length (elements);
  guint n_defaults = g_strv_length (defaults);
  GString *out;

  g_return_val_if_fail (n_defaults > 0, NULL);

  out = g_string_new (NULL);
  for (guint i = 0; i < n; i++)
    {
      /* The kept elements carry their own blanks after the comma. */
      if (i > 0)
        g_string_append_c (out, ',');
      if (i < n_elements)
        g_string_append (out, elements[i]);
      else
        {
          if (i > 0)
            g_string_append_c (out, ' ');
          g_string_append (out, g_strstrip (defaults[n_defaults - 1]));
        }
    }
  /* "1 , 2" cut to one is "1", not "1 ". */
  return g_strchomp (g_string_free (out, FALSE));
}

/* The per-input lists of @block follow its new input count @n_in, in the
 * command under way, so that one Undo gives back the count and the lists
 * together. */
static void
follow_input_count (QdDocument *self,
                    QdBlock    *block,
                    guint       n_in)
{
  const QdBlockType *type = qd_block_get_type_info (block);

  for (guint i = 0; type != NULL && i < type->n_params; i++)
    {
      const QdParamSpec *spec = &type->params[i];
      const char *old;
      g_autofree char *text = NULL;

      if (!(spec->flags & QD_PARAM_PER_INPUT))
        continue;
      old = qd_block_get_param_or_default (block, spec->name);
      text = per_input_text (spec, old != NULL ? old : "", n_in);
      if (text != NULL && g_strcmp0 (text, old) != 0)
        qd_document_edit_param (self, block, spec->name, text);
    }
}

gboolean
qd_document_set_param (QdDocument  *self,
                       QdBlock     *block,
                       const char  *name,
                       const char  *value,
                       GError     **error)
{
  GError *local = NULL;
  const char *old;
  guint old_in, old_out, new_in, new_out;

  g_return_val_if_fail (QD_IS_DOCUMENT (self), FALSE);
  g_return_val_if_fail (block != NULL, FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  if (!qd_block_check_param (block, name, value, &local))
    {
      prefix_block_error (error, local, block);
      return FALSE;
    }

  old = qd_block_get_param (block, name);
  if (g_strcmp0 (old, value) == 0)
    return TRUE;

  /* A count that was invalid before (the loader does not check) counts as
   * shrinking, so that links to ports that never existed go too. */
  if (!qd_block_count_ports (block, &old_in, &old_out, NULL))
    old_in = old_out = G_MAXUINT;

  qd_document_begin (self, _("Change Parameter"));
  qd_document_edit_param (self, block, name, value);
  if (qd_block_count_ports (block, &new_in, &new_out, NULL))
    {
      if (new_in != old_in)
        follow_input_count (self, block, new_in);
      if (new_in < old_in || new_out < old_out)
        qd_document_prune_ports (self, block);
    }
  qd_document_end (self);
  return TRUE;
}

void
qd_document_set_priority (QdDocument *self,
                          QdBlock    *block,
                          guint       index)
{
  OrderEdit *edit;
  QdSystem *system;
  guint from;

  g_return_if_fail (QD_IS_DOCUMENT (self));
  g_return_if_fail (block != NULL && block->parent != NULL);

  system = block->parent;
  if (!g_ptr_array_find (system->blocks, block, &from))
    g_return_if_reached ();
  index = MIN (index, system->blocks->len - 1);
  if (index == from)
    return;

  edit = g_new0 (OrderEdit, 1);
  edit->base.klass = &qd_order_edit_class;
  edit->system = qd_system_ref (system);
  edit->block = qd_block_ref (block);
  edit->from = from;
  edit->to = index;
  qd_document_begin (self, _("Change Priority"));
  qd_document_record (self, &edit->base);
  qd_document_end (self);
}

/* Commands: links */

static const char *
plural_inputs (guint n)
{
  return g_dngettext (GETTEXT_PACKAGE, "input", "inputs", n);
}

static const char *
plural_outputs (guint n)
{
  return g_dngettext (GETTEXT_PACKAGE, "output", "outputs", n);
}

QdLink *
qd_document_connect (QdDocument  *self,
                     QdSystem    *system,
                     const char  *src_block,
                     guint        src_port,
                     const char  *dst_block,
                     guint        dst_port,
                     GError     **error)
{
  QdBlock *src, *dst;
  QdLink *link;
  GError *local = NULL;
  guint n_in, n_out;
  const char *ids[2] = { src_block, dst_block };

  g_return_val_if_fail (QD_IS_DOCUMENT (self), NULL);
  g_return_val_if_fail (system != NULL, NULL);
  g_return_val_if_fail (src_block != NULL && dst_block != NULL, NULL);

  for (guint i = 0; i < 2; i++)
    if (qd_system_find_block (system, ids[i]) == NULL)
      {
        QdBlock *elsewhere = qd_document_find_block (self, ids[i]);
        char *where = system_where (system);

        if (elsewhere != NULL)
          {
            char *path = qd_block_get_path (elsewhere);

            g_set_error (error, QD_ERROR, QD_ERROR_LINK,
                         _("%s: is not in the system %s; a link joins blocks "
                           "of one system (cross a subsystem boundary through "
                           "an Inport or Outport)"),
                         path, where);
            g_free (path);
          }
        else
          g_set_error (error, QD_ERROR, QD_ERROR_LINK,
                       _("%s: there is no block with id '%s' to connect"),
                       where, ids[i]);
        g_free (where);
        return NULL;
      }
  src = qd_system_find_block (system, src_block);
  dst = qd_system_find_block (system, dst_block);

  if (!qd_block_count_ports (src, NULL, &n_out, &local))
    {
      prefix_block_error (error, local, src);
      return NULL;
    }
  if (src_port >= n_out)
    {
      char *message;

      if (n_out == 0)
        message = g_strdup (_("has no outputs; a link starts at an output"));
      else
        message = g_strdup_printf (_("there is no output %u (the block has "
                                     "%u %s); start the link at an existing "
                                     "output"),
                                   src_port + 1, n_out, plural_outputs (n_out));
      set_block_error (error, src, QD_ERROR_LINK, message);
      g_free (message);
      return NULL;
    }

  if (!qd_block_count_ports (dst, &n_in, NULL, &local))
    {
      prefix_block_error (error, local, dst);
      return NULL;
    }
  if (dst_port >= n_in)
    {
      char *message;

      if (n_in == 0)
        message = g_strdup (_("has no inputs; a link ends at an input"));
      else
        message = g_strdup_printf (_("there is no input %u (the block has "
                                     "%u %s); end the link at an existing "
                                     "input"),
                                   dst_port + 1, n_in, plural_inputs (n_in));
      set_block_error (error, dst, QD_ERROR_LINK, message);
      g_free (message);
      return NULL;
    }

  link = qd_document_find_driver (self, dst_block, dst_port);
  if (link != NULL)
    {
      QdBlock *driver = qd_system_find_block (system, link->src.block);
      char *dst_path = qd_block_get_path (dst);
      char *driver_path = driver != NULL ? qd_block_get_path (driver)
                                         : g_strdup (link->src.block);

      g_set_error (error, QD_ERROR, QD_ERROR_LINK,
                   _("input %u of %s is already driven by %s; disconnect it "
                     "first"),
                   dst_port + 1, dst_path, driver_path);
      g_free (dst_path);
      g_free (driver_path);
      return NULL;
    }

  qd_document_begin (self, _("Connect"));
  link = qd_document_find_source (self, src_block, src_port);
  if (link != NULL)
    qd_document_edit_insert_target (self, link,
                                    qd_link_target_new_from_block (dst, dst_port),
                                    link->n_targets);
  else
    {
      char *id = qd_document_new_id (self, "l");

      /* The ends name the blocks by the blocks' own id texts: block ids
       * are not in the table of shared texts (qd-diagram.c). */
      link = qd_link_new_from_block (id, src, src_port);
      qd_link_add_target_block (link, dst, dst_port);
      qd_document_edit_insert_link (self, system, link, system->links->len);
      qd_link_unref (link);
      g_free (id);
    }
  qd_document_end (self);

  return link;
}

void
qd_document_disconnect (QdDocument *self,
                        QdLink     *link,
                        guint       target_index)
{
  g_return_if_fail (QD_IS_DOCUMENT (self));
  g_return_if_fail (link != NULL && link->parent != NULL);
  g_return_if_fail (target_index < link->n_targets);

  qd_document_begin (self, _("Disconnect"));
  qd_document_edit_remove_target_or_link (self, link, target_index);
  qd_document_end (self);
}

void
qd_document_remove_link (QdDocument *self,
                         QdLink     *link)
{
  g_return_if_fail (QD_IS_DOCUMENT (self));
  g_return_if_fail (link != NULL && link->parent != NULL);

  qd_document_begin (self, _("Delete Link"));
  qd_document_edit_remove_link (self, link);
  qd_document_end (self);
}

void
qd_document_set_link_points (QdDocument    *self,
                             QdLink        *link,
                             guint          target_index,
                             const QdPoint *points,
                             guint          n_points)
{
  QdLinkTarget *target;
  PointsEdit *edit;

  g_return_if_fail (QD_IS_DOCUMENT (self));
  g_return_if_fail (link != NULL);
  g_return_if_fail (target_index < link->n_targets);
  g_return_if_fail (points != NULL || n_points == 0);

  target = link->targets[target_index];
  if (qd_link_target_n_points (target) == n_points
      && (n_points == 0
          || memcmp (target->points->data, points, n_points * sizeof (QdPoint)) == 0))
    return;

  edit = g_new0 (PointsEdit, 1);
  edit->base.klass = &qd_points_edit_class;
  edit->link = qd_link_ref (link);
  edit->index = target_index;
  edit->before = target->points != NULL
                 ? g_array_copy (target->points)
                 : g_array_new (FALSE, FALSE, sizeof (QdPoint));
  edit->after = g_array_sized_new (FALSE, FALSE, sizeof (QdPoint), n_points);
  if (n_points > 0)
    g_array_append_vals (edit->after, points, n_points);

  qd_document_begin (self, _("Reshape Link"));
  qd_document_record (self, &edit->base);
  qd_document_end (self);
}

void
qd_document_take_root (QdDocument *self,
                       QdSystem   *root)
{
  g_return_if_fail (QD_IS_DOCUMENT (self));
  g_return_if_fail (root != NULL);
  g_return_if_fail (qd_history_get_depth (self->history) == 0);

  /* The history may refer to the old root's blocks: drop it first. */
  qd_history_clear (self->history);
  qd_system_unref (self->root);
  self->root = root;
  root->owner = NULL;
  self->index_dirty = TRUE;

  g_hash_table_remove_all (self->id_counters);
  qd_document_note_root_ids (self, root);

  self->saved_state = qd_history_get_state (self->history);
  emit_changes (self);
}

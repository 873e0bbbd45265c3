/* qd-document-edits.c: the primitive edits of a document
 *
 * Each is a QdEdit class (qd-history.h) that applies itself forwards and
 * backwards; qd-document.c makes the commands out of them.
 */
#include "qd-document-private.h"

/* Insert or remove a block at an index of a system. */
typedef struct
{
  QdEdit    base;
  QdSystem *system;
  QdBlock  *block;
  guint     index;
  gboolean  insert;
} BlockEdit;

static void
block_edit_apply (QdEdit   *edit,
                  gpointer  target,
                  gboolean  undo)
{
  BlockEdit *self = (BlockEdit *) edit;
  QdDocument *doc = target;

  if (self->insert != undo)
    {
      g_ptr_array_insert (self->system->blocks, (gint) self->index,
                          qd_block_ref (self->block));
      if (self->system->by_id != NULL)
        g_hash_table_insert (self->system->by_id, self->block->id, self->block);
      self->block->parent = self->system;
      qd_system_name_added (self->system, self->block);
      if (qd_document_indexed (doc, self->system))
        qd_document_index_block (doc, self->block, TRUE);
    }
  else
    {
      g_assert (g_ptr_array_index (self->system->blocks, self->index) == self->block);
      if (qd_document_indexed (doc, self->system))
        qd_document_index_block (doc, self->block, FALSE);
      if (self->system->by_id != NULL)
        g_hash_table_remove (self->system->by_id, self->block->id);
      self->block->parent = NULL;
      g_ptr_array_remove_index (self->system->blocks, self->index);
      /* After the removal, so that a namesake left behind is found. */
      qd_system_name_removed (self->system, self->block);
    }
}

static void
block_edit_free (QdEdit *edit)
{
  BlockEdit *self = (BlockEdit *) edit;

  qd_system_unref (self->system);
  qd_block_unref (self->block);
  g_free (self);
}

static const QdEditClass block_edit_class = { block_edit_apply, block_edit_free };

static void
record_block_edit (QdDocument *self,
                   QdSystem   *system,
                   QdBlock    *block,
                   guint       index,
                   gboolean    insert)
{
  BlockEdit *edit = g_new0 (BlockEdit, 1);

  edit->base.klass = &block_edit_class;
  edit->system = qd_system_ref (system);
  edit->block = qd_block_ref (block);
  edit->index = index;
  edit->insert = insert;
  block_edit_apply (&edit->base, self, FALSE);
  qd_history_record (self->history, &edit->base);
}

void
qd_document_edit_insert_block (QdDocument *self,
                               QdSystem   *system,
                               QdBlock    *block,
                               guint       index)
{
  record_block_edit (self, system, block, MIN (index, system->blocks->len), TRUE);
}

void
qd_document_edit_remove_block (QdDocument *self,
                               QdBlock    *block)
{
  QdSystem *system = block->parent;
  guint index;

  g_return_if_fail (system != NULL);
  if (!g_ptr_array_find (system->blocks, block, &index))
    g_return_if_reached ();
  record_block_edit (self, system, block, index, FALSE);
}


static void
order_edit_apply (QdEdit   *edit,
                  gpointer  target,
                  gboolean  undo)
{
  OrderEdit *self = (OrderEdit *) edit;
  guint from = undo ? self->to : self->from;
  guint to = undo ? self->from : self->to;
  gpointer block = g_ptr_array_steal_index (self->system->blocks, from);

  g_assert (block == self->block);
  g_ptr_array_insert (self->system->blocks, (gint) to, block);
}

static void
order_edit_free (QdEdit *edit)
{
  OrderEdit *self = (OrderEdit *) edit;

  qd_system_unref (self->system);
  qd_block_unref (self->block);
  g_free (self);
}

const QdEditClass qd_order_edit_class = { order_edit_apply, order_edit_free };


typedef struct
{
  QdEdit    base;
  QdBlock  *block;
  Geometry  before, after;
} GeometryEdit;

static void
geometry_edit_apply (QdEdit   *edit,
                     gpointer  target,
                     gboolean  undo)
{
  GeometryEdit *self = (GeometryEdit *) edit;
  const Geometry *g = undo ? &self->before : &self->after;

  self->block->x = g->x;
  self->block->y = g->y;
  self->block->width = g->width;
  self->block->height = g->height;
  self->block->rotation = g->rotation;
  self->block->flip = g->flip;
}

static void
geometry_edit_free (QdEdit *edit)
{
  GeometryEdit *self = (GeometryEdit *) edit;

  qd_block_unref (self->block);
  g_free (self);
}

static const QdEditClass geometry_edit_class = { geometry_edit_apply, geometry_edit_free };

void
qd_document_edit_geometry (QdDocument *self,
                           QdBlock    *block,
                           double      x,
                           double      y,
                           double      width,
                           double      height,
                           int         rotation,
                           gboolean    flip)
{
  GeometryEdit *edit = g_new0 (GeometryEdit, 1);

  edit->base.klass = &geometry_edit_class;
  edit->block = qd_block_ref (block);
  edit->before = (Geometry) { block->x, block->y, block->width, block->height,
                              block->rotation, block->flip };
  edit->after = (Geometry) { x, y, width, height, rotation, flip != FALSE };
  geometry_edit_apply (&edit->base, self, FALSE);
  qd_history_record (self->history, &edit->base);
}

/* A block's name, or one of its parameters (NULL: the default). */
typedef struct
{
  QdEdit   base;
  QdBlock *block;
  char    *param;    /* NULL for the name */
  char    *before;
  char    *after;
} TextFieldEdit;

static void
text_field_edit_apply (QdEdit   *edit,
                       gpointer  target,
                       gboolean  undo)
{
  TextFieldEdit *self = (TextFieldEdit *) edit;
  const char *value = undo ? self->before : self->after;

  if (self->param != NULL)
    qd_block_set_param_raw (self->block, self->param, value);
  else
    {
      QdSystem *parent = self->block->parent;

      if (parent != NULL)
        qd_system_name_removed (parent, self->block);
      qd_block_set_name_raw (self->block, value);
      if (parent != NULL)
        qd_system_name_added (parent, self->block);
    }
}

static void
text_field_edit_free (QdEdit *edit)
{
  TextFieldEdit *self = (TextFieldEdit *) edit;

  qd_block_unref (self->block);
  g_free (self->param);
  g_free (self->before);
  g_free (self->after);
  g_free (self);
}

static const QdEditClass text_field_edit_class = { text_field_edit_apply, text_field_edit_free };

void
qd_document_record_text_field_edit (QdDocument *self,
                        QdBlock    *block,
                        const char *param,
                        const char *value)
{
  TextFieldEdit *edit = g_new0 (TextFieldEdit, 1);

  edit->base.klass = &text_field_edit_class;
  edit->block = qd_block_ref (block);
  edit->param = g_strdup (param);
  edit->before = g_strdup (param != NULL ? qd_block_get_param (block, param)
                                         : block->name);
  edit->after = g_strdup (value);
  text_field_edit_apply (&edit->base, self, FALSE);
  qd_history_record (self->history, &edit->base);
}

void
qd_document_edit_name (QdDocument *self,
                       QdBlock    *block,
                       const char *name)
{
  qd_document_record_text_field_edit (self, block, NULL, name);
}

void
qd_document_edit_param (QdDocument *self,
                        QdBlock    *block,
                        const char *name,
                        const char *value)
{
  qd_document_record_text_field_edit (self, block, name, value);
}

/* Insert or remove a link at an index of a system. */
typedef struct
{
  QdEdit    base;
  QdSystem *system;
  QdLink   *link;
  guint     index;
  gboolean  insert;
} LinkEdit;

static void
link_edit_apply (QdEdit   *edit,
                 gpointer  target,
                 gboolean  undo)
{
  LinkEdit *self = (LinkEdit *) edit;
  QdDocument *doc = target;

  if (self->insert != undo)
    {
      g_ptr_array_insert (self->system->links, (gint) self->index,
                          qd_link_ref (self->link));
      self->link->parent = self->system;
      if (qd_document_indexed (doc, self->system))
        qd_document_index_link (doc, self->link, TRUE);
    }
  else
    {
      g_assert (g_ptr_array_index (self->system->links, self->index) == self->link);
      if (qd_document_indexed (doc, self->system))
        qd_document_index_link (doc, self->link, FALSE);
      self->link->parent = NULL;
      g_ptr_array_remove_index (self->system->links, self->index);
    }
}

static void
link_edit_free (QdEdit *edit)
{
  LinkEdit *self = (LinkEdit *) edit;

  qd_system_unref (self->system);
  qd_link_unref (self->link);
  g_free (self);
}

static const QdEditClass link_edit_class = { link_edit_apply, link_edit_free };

static void
record_link_edit (QdDocument *self,
                  QdSystem   *system,
                  QdLink     *link,
                  guint       index,
                  gboolean    insert)
{
  LinkEdit *edit = g_new0 (LinkEdit, 1);

  edit->base.klass = &link_edit_class;
  edit->system = qd_system_ref (system);
  edit->link = qd_link_ref (link);
  edit->index = index;
  edit->insert = insert;
  link_edit_apply (&edit->base, self, FALSE);
  qd_history_record (self->history, &edit->base);
}

void
qd_document_edit_insert_link (QdDocument *self,
                              QdSystem   *system,
                              QdLink     *link,
                              guint       index)
{
  record_link_edit (self, system, link, MIN (index, system->links->len), TRUE);
}

void
qd_document_edit_remove_link (QdDocument *self,
                              QdLink     *link)
{
  QdSystem *system = link->parent;
  guint index;

  g_return_if_fail (system != NULL);
  if (!g_ptr_array_find (system->links, link, &index))
    g_return_if_reached ();
  record_link_edit (self, system, link, index, FALSE);
}

/* Insert or remove one target of a link. The target belongs to the link
 * while it is in it, and to this edit while it is not. */
typedef struct
{
  QdEdit        base;
  QdLink       *link;
  QdLinkTarget *target;
  guint         index;
  gboolean      insert;
  gboolean      attached;
} TargetEdit;

static void
target_edit_apply (QdEdit   *edit,
                   gpointer  target,
                   gboolean  undo)
{
  TargetEdit *self = (TargetEdit *) edit;
  QdDocument *doc = target;
  gboolean follow = self->link->parent != NULL && qd_document_indexed (doc, self->link->parent);

  if (self->insert != undo)
    {
      qd_link_insert_target (self->link, self->index, self->target);
      self->attached = TRUE;
      if (follow)
        qd_document_index_target (doc, self->link, self->target, TRUE);
    }
  else
    {
      QdLinkTarget *removed = qd_link_steal_target (self->link, self->index);

      g_assert (removed == self->target);
      self->attached = FALSE;
      if (follow)
        qd_document_index_target (doc, self->link, self->target, FALSE);
    }
}

static void
target_edit_free (QdEdit *edit)
{
  TargetEdit *self = (TargetEdit *) edit;

  if (!self->attached)
    qd_link_target_free (self->target);
  qd_link_unref (self->link);
  g_free (self);
}

static const QdEditClass target_edit_class = { target_edit_apply, target_edit_free };

static void
record_target_edit (QdDocument   *self,
                    QdLink       *link,
                    QdLinkTarget *target,
                    guint         index,
                    gboolean      insert)
{
  TargetEdit *edit = g_new0 (TargetEdit, 1);

  edit->base.klass = &target_edit_class;
  edit->link = qd_link_ref (link);
  edit->target = target;
  edit->index = index;
  edit->insert = insert;
  edit->attached = !insert;
  target_edit_apply (&edit->base, self, FALSE);
  qd_history_record (self->history, &edit->base);
}

void
qd_document_edit_insert_target (QdDocument   *self,
                                QdLink       *link,
                                QdLinkTarget *target,
                                guint         index)
{
  record_target_edit (self, link, target, MIN (index, link->n_targets), TRUE);
}

void
qd_document_edit_remove_target (QdDocument *self,
                                QdLink     *link,
                                guint       index)
{
  g_return_if_fail (index < link->n_targets);

  record_target_edit (self, link, link->targets[index],
                      index, FALSE);
}

/* The source of a link or the destination of one of its targets. */
typedef struct
{
  QdEdit  base;
  QdLink *link;
  int     target_index;
  char   *before_block, *after_block;
  guint   before_port, after_port;
} EndpointEdit;

static void
endpoint_edit_apply (QdEdit   *edit,
                     gpointer  target,
                     gboolean  undo)
{
  EndpointEdit *self = (EndpointEdit *) edit;
  QdDocument *doc = target;
  gboolean follow = self->link->parent != NULL && qd_document_indexed (doc, self->link->parent);
  QdLinkTarget *link_target = NULL;
  QdEndpoint *endpoint;

  if (self->target_index < 0)
    endpoint = &self->link->src;
  else
    {
      link_target = self->link->targets[self->target_index];
      endpoint = &link_target->dst;
    }

  if (follow && link_target != NULL)
    qd_document_index_target (doc, self->link, link_target, FALSE);
  else if (follow)
    qd_document_index_source (doc, self->link, FALSE);

  qd_endpoint_set_block (endpoint, undo ? self->before_block : self->after_block);
  endpoint->port = undo ? self->before_port : self->after_port;

  if (follow && link_target != NULL)
    qd_document_index_target (doc, self->link, link_target, TRUE);
  else if (follow)
    qd_document_index_source (doc, self->link, TRUE);
}

static void
endpoint_edit_free (QdEdit *edit)
{
  EndpointEdit *self = (EndpointEdit *) edit;

  qd_link_unref (self->link);
  g_free (self->before_block);
  g_free (self->after_block);
  g_free (self);
}

static const QdEditClass endpoint_edit_class = { endpoint_edit_apply, endpoint_edit_free };

void
qd_document_edit_endpoint (QdDocument *self,
                           QdLink     *link,
                           int         target_index,
                           const char *block,
                           guint       port)
{
  EndpointEdit *edit = g_new0 (EndpointEdit, 1);
  const QdEndpoint *endpoint;

  g_return_if_fail (target_index < (int) link->n_targets);

  if (target_index < 0)
    endpoint = &link->src;
  else
    endpoint = &((QdLinkTarget *) link->targets[target_index])->dst;
  edit->base.klass = &endpoint_edit_class;
  edit->link = qd_link_ref (link);
  edit->target_index = target_index;
  edit->before_block = g_strdup (endpoint->block);
  edit->before_port = endpoint->port;
  edit->after_block = g_strdup (block);
  edit->after_port = port;
  endpoint_edit_apply (&edit->base, self, FALSE);
  qd_history_record (self->history, &edit->base);
}


static void
points_edit_apply (QdEdit   *edit,
                   gpointer  target,
                   gboolean  undo)
{
  PointsEdit *self = (PointsEdit *) edit;
  QdLinkTarget *t = self->link->targets[self->index];
  GArray *points = undo ? self->before : self->after;

  qd_link_target_set_points (t, (const QdPoint *) points->data, points->len);
}

static void
points_edit_free (QdEdit *edit)
{
  PointsEdit *self = (PointsEdit *) edit;

  qd_link_unref (self->link);
  g_array_unref (self->before);
  g_array_unref (self->after);
  g_free (self);
}

const QdEditClass qd_points_edit_class = { points_edit_apply, points_edit_free };


static void
variable_edit_apply (QdEdit   *edit,
                     gpointer  target,
                     gboolean  undo)
{
  VariableEdit *self = (VariableEdit *) edit;
  QdDocument *doc = target;
  const char *from = undo ? self->after : self->before;
  const char *to = undo ? self->before : self->after;

  if (from == NULL)
    {
      QdVariable *variable = g_new0 (QdVariable, 1);

      variable->name = g_strdup (self->name);
      variable->value = g_strdup (to);
      g_ptr_array_insert (doc->variables, (gint) self->index, variable);
    }
  else if (to == NULL)
    g_ptr_array_remove_index (doc->variables, self->index);
  else
    {
      QdVariable *variable = g_ptr_array_index (doc->variables, self->index);

      g_free (variable->value);
      variable->value = g_strdup (to);
    }
}

static void
variable_edit_free (QdEdit *edit)
{
  VariableEdit *self = (VariableEdit *) edit;

  g_free (self->name);
  g_free (self->before);
  g_free (self->after);
  g_free (self);
}

const QdEditClass qd_variable_edit_class = { variable_edit_apply, variable_edit_free };


static void
settings_edit_apply (QdEdit   *edit,
                     gpointer  target,
                     gboolean  undo)
{
  SettingsEdit *self = (SettingsEdit *) edit;
  QdDocument *doc = target;

  qd_settings_copy (&doc->settings, undo ? &self->before : &self->after);
}

static void
settings_edit_free (QdEdit *edit)
{
  SettingsEdit *self = (SettingsEdit *) edit;

  qd_settings_clear (&self->before);
  qd_settings_clear (&self->after);
  g_free (self);
}

const QdEditClass qd_settings_edit_class = { settings_edit_apply, settings_edit_free };


static void
info_edit_apply (QdEdit   *edit,
                 gpointer  target,
                 gboolean  undo)
{
  InfoEdit *self = (InfoEdit *) edit;
  QdDocument *doc = target;
  char **field = self->is_title ? &doc->title : &doc->description;

  g_free (*field);
  *field = g_strdup (undo ? self->before : self->after);
  if (self->is_title)
    doc->title_changed = TRUE;
}

static void
info_edit_free (QdEdit *edit)
{
  InfoEdit *self = (InfoEdit *) edit;

  g_free (self->before);
  g_free (self->after);
  g_free (self);
}

const QdEditClass qd_info_edit_class = { info_edit_apply, info_edit_free };

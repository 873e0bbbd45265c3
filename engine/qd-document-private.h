/* qd-document-private.h: what qd-document.c, the edits of the document
 * (qd-document-edits.c), its indexes (qd-document-index.c) and its
 * settings (qd-document-settings.c) share; private to the engine
 */
#pragma once

#include "qd-document.h"
#include "qd-history.h"

G_BEGIN_DECLS

struct _QdDocument
{
  GObject     parent_instance;

  QdSystem   *root;
  char       *title;
  char       *description;
  QdSettings  settings;
  GPtrArray  *variables;     /* QdVariable* */

  QdHistory  *history;
  guint64     saved_state;

  /* Document-wide indexes of what is reachable from the root, kept up to
   * date by the edits that attach and detach blocks and links (rebuilt
   * whole only after the loader installs a root). */
  GHashTable *block_index;   /* id -> QdBlock* */
  GHashTable *link_index;    /* id -> QdLink* */
  GHashTable *drivers;       /* "block:port" of an input -> QdLink* */
  GHashTable *sources;       /* "block:port" of an output -> QdLink* */
  gboolean    index_dirty;
  /* prefix -> the largest numeric suffix handed out or seen */
  GHashTable *id_counters;

  /* What the last "changed" told the listeners. */
  gboolean    can_undo;
  gboolean    can_redo;
  gboolean    modified;
  gboolean    title_changed;
};

/* Position, size, rotation and flip of a block. */
typedef struct
{
  double   x, y, width, height;
  int      rotation;
  gboolean flip;
} Geometry;

/* Move a block to another place in the priority order. */
typedef struct
{
  QdEdit    base;
  QdSystem *system;
  QdBlock  *block;
  guint     from, to;
} OrderEdit;

/* The bend points of one target. */
typedef struct
{
  QdEdit  base;
  QdLink *link;
  guint   index;
  GArray *before, *after;
} PointsEdit;

/* A model variable: added (before is NULL), removed (after is NULL) or
 * changed, at its index in the ordered list. */
typedef struct
{
  QdEdit  base;
  char   *name;
  guint   index;
  char   *before, *after;
} VariableEdit;

/* The simulation settings, whole. */
typedef struct
{
  QdEdit     base;
  QdSettings before, after;
} SettingsEdit;

/* The title or the description. */
typedef struct
{
  QdEdit    base;
  gboolean  is_title;
  char     *before, *after;
} InfoEdit;

/* The edit classes that qd-document.c records directly. */
extern const QdEditClass qd_order_edit_class;
extern const QdEditClass qd_points_edit_class;
extern const QdEditClass qd_variable_edit_class;
extern const QdEditClass qd_settings_edit_class;
extern const QdEditClass qd_info_edit_class;

void qd_document_index_block (QdDocument *self,
                              QdBlock    *block,
                              gboolean    add);
void qd_document_index_link (QdDocument *self,
                             QdLink     *link,
                             gboolean    add);
void qd_document_index_source (QdDocument *self,
                               QdLink     *link,
                               gboolean    add);
void qd_document_index_target (QdDocument         *self,
                               QdLink             *link,
                               const QdLinkTarget *target,
                               gboolean            add);
gboolean qd_document_indexed (QdDocument *self,
                              QdSystem   *system);
void qd_settings_copy (QdSettings       *dst,
                       const QdSettings *src);
void qd_document_record_text_field_edit (QdDocument *self,
                                         QdBlock    *block,
                                         const char *param,
                                         const char *value);

/* qd-document.c: applies @edit and records it on the history. */
void        qd_document_record          (QdDocument *self,
                                         QdEdit     *edit);

/* qd-document-index.c */
/* An index of drivers or sources: "block:port" -> QdLink*. */
GHashTable *qd_document_endpoint_index_new (void);
/* The link driving input @port of block @id, or NULL. */
QdLink     *qd_document_find_driver     (QdDocument *self,
                                         const char *id,
                                         guint       port);
/* A link from output @port of block @id, or NULL. */
QdLink     *qd_document_find_source     (QdDocument *self,
                                         const char *id,
                                         guint       port);
/* Notes the ids of everything under @root, so that new ids do not reuse
 * them. */
void        qd_document_note_root_ids   (QdDocument *self,
                                         QdSystem   *root);

/* qd-document-settings.c: frees a QdVariable. */
void        qd_document_variable_free   (gpointer    data);

G_END_DECLS

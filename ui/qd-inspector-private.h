/* qd-inspector-private.h: what the files of the inspector share
 *
 *   qd-inspector.c        the panel: its document and block, the shape
 *                         that decides between a rebuild and a refresh,
 *                         focus, size, signals and the public calls
 *   qd-inspector-check.c  a field's text: read, shown, checked, applied
 *   qd-inspector-form.c   the form built for a block or the model, and
 *                         its fields' events
 *
 * A Field is the data of one row of the form; it lives on its editor
 * widget (see qd-inspector.c).
 */
#pragma once

#include "qd-inspector.h"

G_BEGIN_DECLS

typedef enum
{
  ROLE_PARAM,
  ROLE_NAME,
  ROLE_TITLE,
  ROLE_DESCRIPTION,
  ROLE_SETTING,
  ROLE_VAR_VALUE,
  ROLE_VAR_NAME,
  ROLE_MASK_VALUE,   /* a masked subsystem's parameter (qd-mask.h) */
} FieldRole;

typedef enum
{
  WIDGET_ENTRY,
  WIDGET_DROPDOWN,
  WIDGET_SWITCH,
  WIDGET_TEXT,
} WidgetKind;

typedef struct
{
  QdInspector       *self;
  char              *key;
  FieldRole          role;
  WidgetKind         kind;
  const QdParamSpec *spec;      /* ROLE_PARAM */
  char              *arg;       /* parameter, setting or variable name */
  GtkWidget         *editor;
  GtkWidget         *container;  /* what goes in the grid: the editor or
                                  * a scroller around it */
  GtkWidget         *error_label;
  GtkWidget         *summary;   /* a vector's values (qd-inspector-vector.c) */
  GPtrArray         *values;    /* WIDGET_DROPDOWN: the text of each item */
  gboolean           inherit;   /* the first drop-down item is "inherit" */
  gboolean           dirty;     /* typed since the last apply or refresh */
  gboolean           dead;      /* no longer in the form */
} Field;

struct _QdInspector
{
  GtkWidget    parent_instance;

  /* Template children */
  GtkWidget   *scroller;
  GtkLabel    *heading;
  GtkLabel    *doc_label;
  GtkGrid     *form;

  QdDocument  *document;
  gulong       changed_id;
  GtkWidget   *extra;         /* weak: qd_inspector_set_extra() */
  char        *block_id;      /* the block edited, NULL for the model */
  guint        n_selected;    /* > 1: several blocks, nothing to edit */
  char        *shape;         /* what the form was built for */
  GHashTable  *fields;        /* key -> Field* (owned by the editors) */
  GPtrArray   *order;         /* Field*, in form order */
  int          row;           /* next free grid row while building */
  gboolean     refreshing;    /* values are being set from the document */
  char        *focus_key;     /* the field to focus after a rebuild */
  gboolean     focus_moving;  /* a field applies as the focus leaves it */
  guint        rebuild_id;    /* a rebuild waiting for that move to end */
};

enum
{
  NOTICE,
  N_SIGNALS
};

extern guint qd_inspector_signals[N_SIGNALS];

/* qd-inspector.c */
QdBlock *qd_inspector_current_block (QdInspector *self);
char    *qd_inspector_format_double (double value);
void     qd_inspector_rebuild (QdInspector *self);

/* qd-inspector-check.c */
char    *qd_inspector_field_get_text (Field *field);
void     qd_inspector_field_set_text (Field      *field,
                                      const char *text);
void     qd_inspector_field_show_error (Field      *field,
                                        const char *message);
char    *qd_inspector_field_document_text (Field *field);
gboolean qd_inspector_field_check (Field       *field,
                                   const char  *text,
                                   GError     **error);
void     qd_inspector_field_apply (Field *field);

/* qd-inspector-form.c */
void     qd_inspector_form_clear (QdInspector *self);
gboolean qd_inspector_field_is_script (const Field *field);
void     qd_inspector_update_placeholder (Field *field);
char    *qd_inspector_dup_port_summary (const QdBlock  *block,
                                        const char     *port_type,
                                        char          **duplicate);
void     qd_inspector_build_block_form (QdInspector *self,
                                        QdBlock     *block);
void     qd_inspector_build_model_form (QdInspector *self);

G_END_DECLS

/* qd-diagram.h: the plain data of a diagram: blocks, links, systems
 *
 * A system is the inside of a coupled model: its blocks, in priority order
 * (simultaneous events go to the earlier block first), and the links between
 * them. A subsystem block owns an inner system whose "inport" and "outport"
 * blocks (parameter "port", 1-based) are the subsystem's ports.
 *
 * These structures belong to a QdDocument. Read them freely; change them
 * only through the document's commands (qd-document.h), which record undo
 * and emit "changed". Blocks, links and systems are reference counted so
 * that the edit history can keep removed ones alive.
 *
 * A model can have millions of blocks, so texts that repeat (type ids,
 * parameter names and values, the block ids that link endpoints name) are
 * stored once and shared, and so are equal parameter arrays: never free
 * or write them, only replace them through the functions below.
 */
#pragma once

#include <glib.h>

#include "qd-version-macros.h"
#include "qd-block-type.h"

G_BEGIN_DECLS

typedef struct _QdBlock      QdBlock;
typedef struct _QdLink       QdLink;
typedef struct _QdLinkTarget QdLinkTarget;
typedef struct _QdSystem     QdSystem;

typedef struct
{
  double x, y;
} QdPoint;

typedef struct
{
  char  *block;   /* block id, in the same system */
  guint  port;    /* 0-based port index */
} QdEndpoint;

typedef struct
{
  char  *name;
  char  *value;   /* as written: "10", "1/(R*C)", "QSS2", "true" */
} QdParam;

struct _QdBlock
{
  /*< read-only >*/
  char        *id;        /* stable, unique in the document: "b12" */
  char        *type;      /* registry id: "integrator" */
  char        *name;      /* unique among its siblings: "Integrator 2" */
  GArray      *params;    /* QdParam, only those set; others take the default.
                           * Shared by blocks with the same set: read only */
  double       x, y;      /* top-left corner, canvas units */
  double       width, height;
  QdSystem    *inner;     /* subsystem blocks only: the contents */
  QdSystem    *parent;    /* the system holding this block (weak) */
  /*< private >*/
  gint         ref_count;
  /*< read-only >*/
  /* Small fields packed after the rest: a model can have millions of
   * blocks, and these 8 bytes take the place of 24. */
  gint16       rotation;  /* 0, 90, 180 or 270 degrees, clockwise */
  guint8       flip;      /* mirrored left-right before rotation (0 or 1) */
  /*< private >*/
  /* A block whose type is missing (a Lua library block or a plugin not
   * installed here), loaded from a file as a placeholder: it keeps its
   * parameters as written and the ports its links use (counted out of
   * the structure: qd_block_placeholder_ports()), so that the diagram
   * opens and saves back unchanged (qd-file.c). */
  guint8       placeholder;
};

struct _QdLinkTarget
{
  QdEndpoint  dst;
  GArray     *points;     /* QdPoint bend points, from the source side, or
                           * NULL when there are none (most targets: a
                           * model of millions of links keeps no empty
                           * arrays); change them through
                           * qd_link_target_set_points() */
};

struct _QdLink
{
  /*< read-only >*/
  char          *id;        /* stable, unique in the document: "l3" */
  QdEndpoint     src;       /* an output port */
  QdLinkTarget **targets;   /* n_targets of them, one per driven input */
  guint          n_targets; /* never 0 in a document */
  /*< private >*/
  gint           ref_count;
  /*< read-only >*/
  QdSystem      *parent;    /* (weak) */
  /*< private >*/
  /* The array of targets while it has one (most links of a large model):
   * no allocation of its own. More targets move it out. */
  QdLinkTarget  *one_target;
};

struct _QdSystem
{
  /*< read-only >*/
  GPtrArray   *blocks;    /* QdBlock*, in priority order */
  GPtrArray   *links;     /* QdLink* */
  QdBlock     *owner;     /* the subsystem block, NULL for the root (weak) */
  /*< private >*/
  GHashTable  *by_id;     /* id -> QdBlock* of this system; NULL until
                           * the first qd_system_find_block() */
  gint         ref_count;
  GHashTable  *by_name;   /* name -> QdBlock*; NULL until the first
                           * qd_system_find_block_by_name() */
  /* A subsystem's mask (qd-mask.h), or NULL. */
  struct _QdMask *mask;
};

QD_API QdBlock     *qd_block_ref            (QdBlock       *block);
QD_API void         qd_block_unref          (QdBlock       *block);
/* The value set for @name, or NULL when it takes its default. */
QD_API const char  *qd_block_get_param      (const QdBlock *block,
                                             const char    *name);
/* The value set for @name, or the schema default (NULL if no such param). */
QD_API const char  *qd_block_get_param_or_default (const QdBlock *block,
                                                   const char    *name);
QD_API const QdBlockType *qd_block_get_type_info (const QdBlock *block);
/* Port counts, from the type (a port-sizing parameter must be a whole
 * number literal) or, for a subsystem, from its port blocks. FALSE with
 * @error when a sizing parameter is not a valid count or the type is
 * unknown (the message does not name the block). */
QD_API gboolean     qd_block_count_ports    (const QdBlock *block,
                                             guint         *n_inputs,
                                             guint         *n_outputs,
                                             GError       **error);
/* What the block's type shows of its parameters on the canvas
 * (QdBlockType.describe_params): a new text for under the block or NULL,
 * and, when @input_labels is not NULL, a new NULL-terminated array of
 * texts for its input ports or NULL. Nothing for a type without the hook
 * or a block whose ports cannot be counted. */
QD_API char        *qd_block_describe_params (const QdBlock *block,
                                              char        ***input_labels);
/* "/Plant/Integrator 2": the names from the root down. */
QD_API char        *qd_block_get_path       (const QdBlock *block);
/* Checks one parameter value against the block type's schema: that the
 * parameter exists, a CHOICE names a choice ("" allowed for a
 * QD_PARAM_INHERIT parameter), a BOOLEAN is "true" or "false", a NUMBER,
 * INTEGER or FUNCTION parses as an expression and a VECTOR as
 * comma-separated expressions, and a port-sizing INTEGER is a whole number
 * literal from 0 to 64 (narrowed by the schema's min and max). A NULL
 * @value (the default) is always valid. The
 * message does not name the block; callers put its path in front. */
QD_API gboolean     qd_block_check_param    (const QdBlock *block,
                                             const char    *name,
                                             const char    *value,
                                             GError       **error);

QD_API QdLink      *qd_link_ref             (QdLink        *link);
QD_API void         qd_link_unref           (QdLink        *link);

QD_API QdSystem    *qd_system_ref           (QdSystem      *system);
QD_API void         qd_system_unref         (QdSystem      *system);
QD_API QdBlock     *qd_system_find_block    (QdSystem      *system,
                                             const char    *id);
QD_API QdBlock     *qd_system_find_block_by_name (QdSystem   *system,
                                                  const char *name);
/* The link whose target drives input @port of block @id, or NULL;
 * @target_index receives the target's index in the link. */
QD_API QdLink      *qd_system_find_driver   (QdSystem      *system,
                                             const char    *id,
                                             guint          port,
                                             guint         *target_index);
/* The link leaving output @port of block @id, or NULL. */
QD_API QdLink      *qd_system_find_source   (QdSystem      *system,
                                             const char    *id,
                                             guint          port);
/* The path of the system itself: "" for the root, "/Plant" inside Plant. */
QD_API char        *qd_system_get_path      (const QdSystem *system);

/* What a diagram holds, counted over the whole hierarchy. */
typedef struct
{
  guint blocks;       /* every block, a Subsystem and each block inside it */
  guint subsystems;   /* the blocks that hold a system */
  guint links;        /* a link with branches is one link, as in the file */
  guint connections;  /* the inputs the links drive: a link's targets */
} QdSystemCounts;

/* Fills @counts with what @system and its subsystems hold: the one count
 * that `qdevs-cli check` and the editor's diagram information show. */
QD_API void         qd_system_count         (const QdSystem *system,
                                             QdSystemCounts *counts);

/* For engine use (loader, commands): construction without undo.
 *
 * Every constructor returns a new reference. A block of type "subsystem"
 * comes with an empty inner system (block->inner) to fill. A new block is
 * 60x40 (a subsystem 80x60) at 0,0 with no parameter set. */
QD_API QdSystem    *qd_system_new           (void);
QD_API QdBlock     *qd_block_new            (const char    *id,
                                             const char    *type,
                                             const char    *name);
/* Sets the text of parameter @name, unchecked; NULL unsets it. */
QD_API void         qd_block_set_param_raw  (QdBlock       *block,
                                             const char    *name,
                                             const char    *value);
/* The number of bend points of @target (0 when target->points is NULL). */
QD_API guint        qd_link_target_n_points (const QdLinkTarget *target);
/* Replaces @target's bend points by @n_points @points (none frees the
 * array). */
QD_API void         qd_link_target_set_points (QdLinkTarget  *target,
                                               const QdPoint *points,
                                               guint          n_points);
/* Appends @point to @target's bend points. */
QD_API void         qd_link_target_append_point (QdLinkTarget  *target,
                                                 const QdPoint *point);
QD_API QdLink      *qd_link_new             (const char    *id,
                                             const char    *src_block,
                                             guint          src_port);
/* Adds a target with no bend points; the link owns it, the caller may
 * fill its points array. */
QD_API QdLinkTarget *qd_link_add_target     (QdLink        *link,
                                             const char    *dst_block,
                                             guint          dst_port);
/* The same as qd_link_new() and qd_link_add_target() with @src's and
 * @dst's ids, without looking the texts up in the table of shared texts:
 * for a builder that holds the blocks (a file's loader, a large model
 * built in code), where a million-block model would otherwise spend a
 * look-up in a table of millions on every end of every link. */
QD_API QdLink      *qd_link_new_from_block  (const char    *id,
                                             const QdBlock *src,
                                             guint          src_port);
QD_API QdLinkTarget *qd_link_add_target_block (QdLink        *link,
                                               const QdBlock *dst,
                                               guint          dst_port);
/* Both take over the caller's reference to @block or @link. */
QD_API void         qd_system_append_block  (QdSystem      *system,
                                             QdBlock       *block);
QD_API void         qd_system_append_link   (QdSystem      *system,
                                             QdLink        *link);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (QdBlock, qd_block_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (QdLink, qd_link_unref)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (QdSystem, qd_system_unref)

G_END_DECLS

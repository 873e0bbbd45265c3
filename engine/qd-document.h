/* qd-document.h: a diagram and the commands that edit it
 *
 * A QdDocument is a hierarchical coupled model: a root system of blocks and
 * links (qd-diagram.h), model variables (name = expression, in order: a
 * variable may use those before it), simulation settings, a title and a
 * description.
 *
 * Every edit is a command: it applies at once, records its inverse on the
 * history, and emits "changed". Commands between qd_document_begin() and
 * qd_document_end() form one transaction, undone and redone as one step
 * (begin/end nest; the outermost pair counts). A command that fails changes
 * nothing and sets @error. The CLI, the tests and the canvas all edit
 * through these functions.
 */
#pragma once

#include <glib-object.h>

#include "qd-version-macros.h"
#include "qd-diagram.h"

G_BEGIN_DECLS

#define QD_FORMAT_NAME    "qdevs"
#define QD_FORMAT_VERSION 1

typedef struct
{
  double   start_time;          /* default 0 */
  double   final_time;          /* default 10 */
  char    *method;              /* default integration method: "QSS1"... */
  double   dqmin;               /* default absolute quantum, 1e-6 */
  double   dqrel;               /* default relative quantum, 1e-3 */
  guint64  illegitimacy_limit;  /* transitions without time advancing, 1e6 */
  /* The solver family (qd-classic.h): "qss" (default), each Integrator
   * with its own QSS method, or a classic ODE solver by name ("cvode-bdf",
   * "rk4"...) with its options; these are ignored under "qss". */
  char    *solver;
  double   rtol;                /* relative tolerance, 1e-6 */
  double   atol;                /* absolute tolerance, 1e-8 */
  double   max_step;            /* largest step, 0 for no limit */
  double   h;                   /* fixed step, 0 for adaptive */
} QdSettings;

typedef struct
{
  char *name;
  char *value;                  /* an expression */
} QdVariable;

#define QD_TYPE_DOCUMENT (qd_document_get_type ())
QD_API G_DECLARE_FINAL_TYPE (QdDocument, qd_document, QD, DOCUMENT, GObject)

QD_API QdDocument       *qd_document_new            (void);

/* qd_block_describe_params() (qd-diagram.h) for a block of a model with
 * @settings: a method left to the model is shown as the model's, "QSS2
 * (model)". NULL @settings: as qd_block_describe_params(). */
QD_API char             *qd_block_describe_params_with (const QdBlock    *block,
                                                        const QdSettings *settings,
                                                        char           ***input_labels);

/* Reading */
QD_API QdSystem         *qd_document_get_root       (QdDocument  *self);
QD_API const char       *qd_document_get_title      (QdDocument  *self);
QD_API const char       *qd_document_get_description (QdDocument *self);
QD_API const QdSettings *qd_document_get_settings   (QdDocument  *self);
/* QdVariable*, in order. */
QD_API GPtrArray        *qd_document_get_variables  (QdDocument  *self);
QD_API const char       *qd_document_get_variable   (QdDocument  *self,
                                                     const char  *name);
/* Any block of the hierarchy by its id. */
QD_API QdBlock          *qd_document_find_block     (QdDocument  *self,
                                                     const char  *id);
/* A block by path: "/Plant/Integrator 2". */
QD_API QdBlock          *qd_document_find_block_by_path (QdDocument *self,
                                                         const char *path);
QD_API QdLink           *qd_document_find_link      (QdDocument  *self,
                                                     const char  *id);
/* A fresh id with @prefix ("b" for blocks, "l" for links). */
QD_API char             *qd_document_new_id         (QdDocument  *self,
                                                     const char  *prefix);

/* Transactions and history */
QD_API void        qd_document_begin          (QdDocument  *self,
                                               const char  *label);
QD_API void        qd_document_end            (QdDocument  *self);
QD_API gboolean    qd_document_can_undo       (QdDocument  *self);
QD_API gboolean    qd_document_can_redo       (QdDocument  *self);
QD_API const char *qd_document_get_undo_label (QdDocument  *self);
QD_API const char *qd_document_get_redo_label (QdDocument  *self);
QD_API gboolean    qd_document_undo           (QdDocument  *self);
QD_API gboolean    qd_document_redo           (QdDocument  *self);
/* Modified since the last qd_document_set_saved() (undo back to the saved
 * state clears it again). */
QD_API gboolean    qd_document_get_modified   (QdDocument  *self);
QD_API void        qd_document_set_saved      (QdDocument  *self);
/* Marks the document as differing from its file until the next
 * qd_document_set_saved(), whatever is undone or redone: a diagram
 * recovered after a crash holds changes its file never had. */
QD_API void        qd_document_set_unsaved    (QdDocument  *self);

/* Commands: blocks. A NULL @name picks a unique one from the type's display
 * name ("Integrator", "Integrator 2", ...). The block returned belongs to
 * @system (transfer none). */
QD_API QdBlock  *qd_document_add_block     (QdDocument   *self,
                                            QdSystem     *system,
                                            const char   *type,
                                            const char   *name,
                                            double        x,
                                            double        y,
                                            GError      **error);
/* Removes the block and every link target touching it. */
QD_API void      qd_document_remove_block  (QdDocument   *self,
                                            QdBlock      *block);
QD_API void      qd_document_move_block    (QdDocument   *self,
                                            QdBlock      *block,
                                            double        x,
                                            double        y);
QD_API gboolean  qd_document_set_geometry  (QdDocument   *self,
                                            QdBlock      *block,
                                            double        x,
                                            double        y,
                                            double        width,
                                            double        height,
                                            int           rotation,
                                            gboolean      flip,
                                            GError      **error);
QD_API gboolean  qd_document_rename_block  (QdDocument   *self,
                                            QdBlock      *block,
                                            const char   *name,
                                            GError      **error);
/* Sets a parameter's text (NULL resets it to the default). Checks that the
 * parameter exists, that a CHOICE names a choice and a BOOLEAN is true or
 * false, that an expression parses, and that a port-sizing value is a
 * count; whether names resolve is checked at compile time. Changing a
 * port count removes the links of ports that no longer exist, and cuts or
 * lengthens the parameters that hold one value per input
 * (QD_PARAM_PER_INPUT) to the new count, in the same undo step. */
QD_API gboolean  qd_document_set_param     (QdDocument   *self,
                                            QdBlock      *block,
                                            const char   *name,
                                            const char   *value,
                                            GError      **error);
/* Moves @block to position @index of its system's priority order. */
QD_API void      qd_document_set_priority  (QdDocument   *self,
                                            QdBlock      *block,
                                            guint         index);

/* Commands: links. Connecting from an output that already has a link adds
 * a target (a branch) to that link. Refused: a missing block or port, an
 * input that is already driven, blocks in different systems. Ports are
 * 0-based here and 1-based in messages. The link returned belongs to
 * @system (transfer none). */
QD_API QdLink   *qd_document_connect       (QdDocument   *self,
                                            QdSystem     *system,
                                            const char   *src_block,
                                            guint         src_port,
                                            const char   *dst_block,
                                            guint         dst_port,
                                            GError      **error);
/* Removes one target of @link; the link goes when no target is left. */
QD_API void      qd_document_disconnect    (QdDocument   *self,
                                            QdLink       *link,
                                            guint         target_index);
QD_API void      qd_document_remove_link   (QdDocument   *self,
                                            QdLink       *link);
QD_API void      qd_document_set_link_points (QdDocument    *self,
                                              QdLink        *link,
                                              guint          target_index,
                                              const QdPoint *points,
                                              guint          n_points);

/* Commands: hierarchy. Group moves @blocks (all in one system) into a new
 * subsystem block named @name (NULL: "Subsystem"); every link that crosses
 * the boundary is cut and joined through a new inport or outport, so the
 * model computes the same thing. Ungroup is the reverse: the contents go
 * back into the parent, port blocks are removed and their links joined.
 * Blocks and links keep their ids; the new subsystem's ports are numbered
 * by the vertical position of the blocks they serve. The subsystem
 * returned belongs to its system (transfer none). */
QD_API QdBlock  *qd_document_group         (QdDocument   *self,
                                            QdBlock     **blocks,
                                            guint         n_blocks,
                                            const char   *name,
                                            GError      **error);
QD_API gboolean  qd_document_ungroup       (QdDocument   *self,
                                            QdBlock      *subsystem,
                                            GError      **error);

/* Commands: the model. A NULL @value removes the variable. */
QD_API gboolean  qd_document_set_variable  (QdDocument   *self,
                                            const char   *name,
                                            const char   *value,
                                            GError      **error);
QD_API gboolean  qd_document_set_settings  (QdDocument   *self,
                                            const QdSettings *settings,
                                            GError      **error);
QD_API void      qd_document_set_title     (QdDocument   *self,
                                            const char   *title);
QD_API void      qd_document_set_description (QdDocument *self,
                                              const char *description);

/* For the loader only: installs a root built without commands (taking over
 * the caller's reference), clears the history, marks the document saved
 * and emits "changed". */
QD_API void      qd_document_take_root     (QdDocument   *self,
                                            QdSystem     *root);
QD_API void      qd_document_init_settings (QdSettings   *settings);
QD_API void      qd_settings_clear         (QdSettings   *settings);

G_END_DECLS

/* qd-mask.h: masked subsystems
 *
 * A mask turns a subsystem into a block of its own, as in Simulink and
 * Xcos: it declares parameters (a name, a default expression and a
 * description) that the expressions of the blocks inside may use, the
 * values the user gives them (expressions over the enclosing model's
 * variables, or the enclosing mask's parameters), and the text drawn on
 * the block in place of the generic subsystem look ("PI\nKp={Kp}": each
 * {name} shows that parameter's value).
 *
 * Scoping is resolved by the compiler (qd-compile-params.c): an inner
 * block's expression sees its subsystem's mask parameters first, then
 * those of the masks around it, then the model variables.
 *
 * The mask lives on the subsystem's inner system; the file keeps it
 * under the subsystem's optional "mask" key (docs/file-format.md).
 */
#pragma once

#include "qd-document.h"

G_BEGIN_DECLS

typedef struct
{
  char *name;           /* a valid expression name, unique in the mask */
  char *default_value;  /* an expression */
  char *description;    /* "" when none */
  char *value;          /* set by the user, or NULL: the default */
} QdMaskParam;

typedef struct _QdMask QdMask;

struct _QdMask
{
  GPtrArray *params;    /* QdMaskParam*, in the order of the dialog */
  char      *icon;      /* the text on the block, or NULL */
};

QD_API QdMask            *qd_mask_new          (void);
QD_API QdMask            *qd_mask_copy         (const QdMask *mask);
QD_API void               qd_mask_free         (QdMask       *mask);
QD_API gboolean           qd_mask_equal        (const QdMask *a,
                                                const QdMask *b);
/* Appends a parameter (the mask owns it; transfer none). */
QD_API QdMaskParam       *qd_mask_add_param    (QdMask       *mask,
                                                const char   *name,
                                                const char   *default_value,
                                                const char   *description);
QD_API const QdMaskParam *qd_mask_find_param   (const QdMask *mask,
                                                const char   *name);
/* The value in force: the one set, or the default. */
QD_API const char        *qd_mask_param_get_value (const QdMaskParam *param);
/* Checks that every name is a valid expression name, not t, y or an
 * input name (u0, u1...: the names a function parameter gives its
 * inputs), and used once, and that every default and value parses. The
 * message names the parameter; callers put the block path in front. */
QD_API gboolean           qd_mask_check        (const QdMask *mask,
                                                GError      **error);
/* The icon text with each {name} of a parameter replaced by its value
 * (new; NULL when the mask has no icon text). */
QD_API char              *qd_mask_format_icon  (const QdMask *mask);

/* The mask of subsystem @block, or NULL for an unmasked subsystem or any
 * other block. */
QD_API const QdMask      *qd_block_get_mask    (const QdBlock *block);

/* Puts in front of @names (char*) and @values (double), the names and
 * values of the model variables, the mask parameters that @block's
 * expressions see, innermost first, each evaluated as the compiler does
 * (NaN when it cannot be): for editors that try an expression out where
 * it is typed. The names are the masks' own (valid until they change). */
QD_API void               qd_mask_add_scope    (const QdBlock *block,
                                                GPtrArray     *names,
                                                GArray        *values);

/* Commands, each one undoable step. Set Mask replaces the whole mask of
 * subsystem @block (NULL removes it) after qd_mask_check(); a value of a
 * parameter that keeps its name is the caller's to carry over. Set Mask
 * Value sets what the user gives parameter @name (NULL: its default),
 * which must parse. Both refuse a block that is no subsystem. */
QD_API gboolean           qd_document_set_mask (QdDocument   *document,
                                                QdBlock      *block,
                                                const QdMask *mask,
                                                GError      **error);
QD_API gboolean           qd_document_set_mask_value (QdDocument *document,
                                                      QdBlock    *block,
                                                      const char *name,
                                                      const char *value,
                                                      GError    **error);

/* For the loader and copies: installs @mask (taken over; NULL removes)
 * without undo. */
QD_API void               qd_system_take_mask  (QdSystem     *system,
                                                QdMask       *mask);
QD_API const QdMask      *qd_system_get_mask   (const QdSystem *system);

G_END_DECLS

/* qd-mask-private.h: what the compiler uses of masks; private to the
 * engine
 */
#pragma once

#include "qd-mask.h"

G_BEGIN_DECLS

/* @text, an expression, with each of the @n_names @names it uses as a
 * name replaced by its value in @values (as a parenthesised literal that
 * reads back exactly): how a function parameter, which its block
 * evaluates at run time over the model variables only, gets the mask
 * parameters of its subsystems. Free the result. */
char *qd_mask_substitute (const char        *text,
                          const char *const *names,
                          const double      *values,
                          guint              n_names);
/* The same for each expression of "name = expression; ..." @text (a
 * QD_PARAM_ASSIGNMENTS parameter): the names on the left stay as they
 * are, and an item without '=' is kept for its block to report. */
char *qd_mask_substitute_assignments (const char        *text,
                                      const char *const *names,
                                      const double      *values,
                                      guint              n_names);

G_END_DECLS

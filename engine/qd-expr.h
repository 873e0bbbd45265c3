/* qd-expr.h: parameter and function expressions
 *
 * Parameter values are expressions: numbers, + - * / ^ (right-associative,
 * binding tighter than unary minus as in -2^2 = -4), parentheses, the math
 * functions sqrt exp log sin cos tan asin acos atan atan2 sinh cosh tanh abs
 * sign min max pow floor ceil, the constants pi and e, and names bound by the
 * caller (model variables, or u0..u(n-1) and t in an NLFunction block).
 *
 * An expression is parsed once, then bound to an ordered list of names
 * (each name becomes a slot index) and evaluated many times, either on plain
 * doubles or on truncated Taylor series (QdTaylor) so that static blocks emit
 * the exact Taylor coefficients of f applied to polynomial inputs.
 *
 * Errors are GErrors in QD_ERROR whose message starts with "column N: "
 * (1-based, counted in characters); callers put the block path and the
 * parameter name in front.
 */
#pragma once

#include <glib.h>

#include "qd-version-macros.h"
#include "qd-types.h"

G_BEGIN_DECLS

typedef struct _QdExpr QdExpr;

/* A truncated Taylor series: v(t0 + s) = c[0] + c[1] s + c[2] s^2 + c[3] s^3. */
typedef struct
{
  double c[QD_MAX_ORDER + 1];
} QdTaylor;

QD_API QdExpr     *qd_expr_parse        (const char    *text,
                                         GError       **error);
QD_API void        qd_expr_free         (QdExpr        *expr);
QD_API const char *qd_expr_get_text     (const QdExpr  *expr);

/* The identifiers the expression uses (not functions, not pi or e), each
 * once, in order of first appearance. Owned by @expr. */
QD_API const char *const *qd_expr_get_identifiers (const QdExpr *expr,
                                                   guint        *n_identifiers);

/* Resolves each identifier to the index of the same name in @names; fails,
 * naming the column of the first unknown identifier, if one is missing. */
QD_API gboolean    qd_expr_bind         (QdExpr             *expr,
                                         const char *const  *names,
                                         guint               n_names,
                                         GError            **error);

/* TRUE when the expression is a plain number literal (optionally signed). */
QD_API gboolean    qd_expr_is_constant  (const QdExpr  *expr);

/* Evaluates a bound expression; @slots holds one value per bound name.
 * Domain errors give NaN or infinity, as in C; callers check. */
QD_API double      qd_expr_eval         (const QdExpr  *expr,
                                         const double  *slots);

/* Evaluates a bound expression on truncated Taylor series of order @order
 * (0..3): @out receives the exact Taylor coefficients, up to @order, of the
 * expression applied to the input series (coefficients above @order are set
 * to zero). Only coefficients 0..@order of the slots are read. The first
 * call after binding compiles the expression into a straight-line program
 * over series, kept in @expr with its registers: not thread-safe per
 * expression, so give each block instance its own QdExpr. */
QD_API void        qd_expr_eval_taylor  (QdExpr         *expr,
                                         const QdTaylor *slots,
                                         int             order,
                                         QdTaylor       *out);

/* Declares that slot @slot of a bound expression holds the constant
 * @value at every qd_expr_eval_taylor() call, as a model variable does:
 * the Taylor evaluation then folds it into the expression (u*k is scaled,
 * not multiplied as two series) and no longer reads that slot. The results
 * are the same bits as with the value passed in the slot (for finite
 * inputs). qd_expr_eval() still reads every slot. Binding again forgets
 * the declarations. */
QD_API void        qd_expr_set_slot_constant (QdExpr *expr,
                                              guint   slot,
                                              double  value);

/* Where an operation of an expression leaves its domain; the message of
 * each (qd_expr_domain_message()) is the one the Math blocks of the same
 * function give, so that a formula and its blocks stop alike. */
typedef enum
{
  QD_EXPR_DOMAIN_NONE,
  QD_EXPR_DOMAIN_INVERSE,        /* 1/u at u = 0 */
  QD_EXPR_DOMAIN_DIVISOR,        /* a/b at b = 0 */
  QD_EXPR_DOMAIN_LOG,            /* log, log10 of u <= 0 */
  QD_EXPR_DOMAIN_SQRT,           /* sqrt of u < 0, or of a changing 0 */
  QD_EXPR_DOMAIN_POW,            /* u^a: u < 0 and a not whole, u = 0
                                    and a not positive */
  QD_EXPR_DOMAIN_POW_OVERFLOW,   /* u^a too large (10^400) */
  QD_EXPR_DOMAIN_EXP_OVERFLOW,   /* exp too large */
} QdExprDomain;

/* What the domain requires, translated: "log needs a positive input; ..." */
QD_API const char *qd_expr_domain_message (QdExprDomain domain);

/* Whether a bound expression has an operation that is singular where an
 * operand that is not constant reaches 0 (a divisor, the argument of log,
 * log10 or sqrt, the base of a power other than a whole constant of 0
 * or more); constants include the slots declared with
 * qd_expr_set_slot_constant(). */
QD_API gboolean    qd_expr_has_singularities (QdExpr *expr);

/* After qd_expr_eval_taylor(): the first operation, in evaluation order,
 * whose result was not finite (the others carry its NaN or infinity on),
 * and in @value the value of its operand (the divisor, the argument, the
 * base); QD_EXPR_DOMAIN_NONE when every result was finite. */
QD_API QdExprDomain qd_expr_get_domain_error (const QdExpr *expr,
                                              double       *value);

/* After qd_expr_eval_taylor(): the first s > 0 at which the operand of a
 * singular operation (see qd_expr_has_singularities()) reaches 0, from
 * its series in that evaluation, and in @domain which operation; QD_INF
 * (and QD_EXPR_DOMAIN_NONE) when none does. Between its input events a
 * static block's output is the polynomial of the last one: at that time
 * it must stop rather than carry it through the singularity. */
QD_API double      qd_expr_next_singularity (const QdExpr *expr,
                                             QdExprDomain *domain);

/* The expression's own array of slots for qd_expr_eval_taylor(), one
 * series per name given to qd_expr_bind(), valid until the next bind or
 * qd_expr_free(). A caller that fills it in place and passes it as @slots
 * spares qd_expr_eval_taylor() copying the slots in. */
QD_API QdTaylor   *qd_expr_get_taylor_slots (QdExpr *expr);

/* Convenience: parse and evaluate an expression without names. */
QD_API gboolean    qd_expr_eval_string  (const char    *text,
                                         double        *value,
                                         GError       **error);

/* TRUE when @name is a valid identifier and not a function or constant. */
QD_API gboolean    qd_expr_is_valid_name (const char   *name);

/* Function parameters (QD_PARAM_FUNCTION) name their block's inputs u0,
 * u1, ...: k for the name "uk" (G_MAXINT when k is larger), -1 for any
 * other name, "u01" included. */
QD_API int         qd_expr_input_index  (const char   *name);

/* The 1-based column (in characters) of the first whole-word occurrence
 * of @name in @text, where the parser first met the identifier; 1 when
 * there is none. */
QD_API int         qd_expr_name_column  (const char   *text,
                                         const char   *name);

/* The message for @name in the function expression @text of a block with
 * @n_inputs inputs when it is none of them, not t and no model variable:
 * "column C: unknown name 'x': it is not ..." (free it). */
QD_API char       *qd_expr_unknown_name_message (const char *text,
                                                 const char *name,
                                                 guint       n_inputs);

/* The message for the input @name (u<k>, k >= @n_inputs) in @text of a
 * block with @n_inputs inputs: "column C: input u2 does not exist (the
 * block has 2 inputs)" (free it). */
QD_API char       *qd_expr_missing_input_message (const char *text,
                                                  const char *name,
                                                  guint       n_inputs);

/* @message, an error of an expression that is part of a longer text (an
 * element of a vector), with its "column N: " (in the user's language)
 * moved on by @offset characters so that it counts from the start of the
 * whole text; a copy of @message when it has no column (free it). */
QD_API char       *qd_expr_shift_error_column (const char *message,
                                               glong       offset);

/* When @text is a plain number ("1", "-0.5", " 1e-3 "), sets @value to it,
 * read exactly as qd_expr_parse() reads numbers (a leading minus is the
 * parser's exact negation), and returns TRUE; FALSE for anything else,
 * and for a literal that is not finite. Spares the parse of the common
 * parameter that is just a number. */
QD_API gboolean    qd_expr_parse_literal (const char   *text,
                                          double       *value);

/* The elements of a vector parameter's text (QD_PARAM_VECTOR), each as
 * written, blanks included: the text cut at each comma outside
 * parentheses, so that "max(a, b), 2" has two. A blank text is the empty
 * vector: no element. Free with g_strfreev(). */
QD_API char      **qd_expr_split_vector (const char   *text);

/* The element texts of a matrix written as in MATLAB, "[1 0; 0 2]"
 * (rows separated by ';', elements by ',' or by spaces, a space beside
 * a binary operator joining: "[1 -2]" is two elements, "[1 - 2]" one),
 * or as a list of rows, "[[1, 0], [0, 2]]": an array of rows, each a
 * NULL-terminated array of texts, every row as long. NULL and @error
 * when it is not a matrix. Free with g_ptr_array_unref(). */
QD_API GPtrArray  *qd_expr_split_matrix (const char   *text,
                                         GError      **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (QdExpr, qd_expr_free)

G_END_DECLS

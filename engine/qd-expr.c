/* qd-expr.c: parameter and function expressions
 *
 * The parser (qd-expr-parse.c) turns the text into postfix code for a
 * small stack machine. Names become LOAD instructions whose slot index is
 * filled in by qd_expr_bind(), so evaluation never looks at a string and
 * never allocates: it is one switch per instruction on doubles.
 *
 * This file holds the expression once parsed: binding, scalar
 * evaluation, splitting a vector's text into its elements, and the
 * messages about names and inputs. Taylor evaluation, a second program
 * compiled from the same code, and the domains it watches are in
 * qd-expr-taylor.c; qd-expr-private.h lists what the three share.
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qd-error.h"
#include "qd-expr-private.h"

int
qd_expr_op_arity (QdOp op)
{
  switch (op)
    {
    case OP_CONST:
    case OP_LOAD:
      return 0;
    case OP_ADD:
    case OP_SUB:
    case OP_MUL:
    case OP_DIV:
    case OP_POW:
    case OP_ATAN2:
    case OP_MIN:
    case OP_MAX:
      return 2;
    default:
      return 1;
    }
}

/* x^m for a whole m by binary powering: much cheaper than pow() for the
 * squares and cubes that models are full of. */
static inline double
powi (double x,
      int    m)
{
  unsigned int e = m < 0 ? (unsigned int) -m : (unsigned int) m;
  double r = 1.0;

  while (e != 0)
    {
      if (e & 1)
        r *= x;
      e >>= 1;
      x *= x;
    }
  return m < 0 ? 1.0 / r : r;
}

double
qd_expr_apply_scalar (QdOp   op,
                      double a,
                      double b)
{
  switch (op)
    {
    case OP_NEG: return -a;
    case OP_ADD: return a + b;
    case OP_SUB: return a - b;
    case OP_MUL: return a * b;
    case OP_DIV: return a / b;
    case OP_POW: return pow (a, b);
    case OP_SQRT: return sqrt (a);
    case OP_EXP: return exp (a);
    case OP_LOG: return log (a);
    case OP_LOG10: return log10 (a);
    case OP_SIN: return sin (a);
    case OP_COS: return cos (a);
    case OP_TAN: return tan (a);
    case OP_ASIN: return asin (a);
    case OP_ACOS: return acos (a);
    case OP_ATAN: return atan (a);
    case OP_ATAN2: return atan2 (a, b);
    case OP_SINH: return sinh (a);
    case OP_COSH: return cosh (a);
    case OP_TANH: return tanh (a);
    case OP_ABS: return fabs (a);
    case OP_SIGN: return isnan (a) ? a : (double) ((a > 0) - (a < 0));
    /* NaN propagates through min and max, unlike fmin and fmax. */
    case OP_MIN: return (a <= b || isnan (a)) ? a : b;
    case OP_MAX: return (a >= b || isnan (a)) ? a : b;
    case OP_FLOOR: return floor (a);
    case OP_CEIL: return ceil (a);
    case OP_CONST:
    case OP_LOAD:
    default:
      g_assert_not_reached ();
    }
  return NAN;
}

void
qd_expr_free (QdExpr *expr)
{
  if (expr == NULL)
    return;
  g_free (expr->text);
  g_free (expr->code);
  g_strfreev (expr->idents);
  g_free (expr->ident_cols);
  g_free (expr->slot_fixed);
  g_free (expr->slot_value);
  g_free (expr->tprog);
  g_free (expr->tconst);
  g_free (expr->tregs);
  g_free (expr->twatch);
  g_free (expr->tslots);
  g_free (expr);
}

const char *
qd_expr_get_text (const QdExpr *expr)
{
  g_return_val_if_fail (expr != NULL, NULL);
  return expr->text;
}

const char *const *
qd_expr_get_identifiers (const QdExpr *expr,
                         guint        *n_identifiers)
{
  g_return_val_if_fail (expr != NULL, NULL);
  if (n_identifiers != NULL)
    *n_identifiers = expr->n_idents;
  return (const char *const *) expr->idents;
}

gboolean
qd_expr_bind (QdExpr             *expr,
              const char *const  *names,
              guint               n_names,
              GError            **error)
{
  guint32 *slot_of;

  g_return_val_if_fail (expr != NULL, FALSE);
  g_return_val_if_fail (names != NULL || n_names == 0, FALSE);

  slot_of = g_alloca ((expr->n_idents + 1) * sizeof (guint32));

  for (guint i = 0; i < expr->n_idents; i++)
    {
      guint j;

      for (j = 0; j < n_names; j++)
        if (g_strcmp0 (names[j], expr->idents[i]) == 0)
          break;
      if (j == n_names)
        {
          g_set_error (error, QD_ERROR, QD_ERROR_EXPR,
                       _("column %d: unknown name '%s'"),
                       expr->ident_cols[i], expr->idents[i]);
          return FALSE;
        }
      slot_of[i] = j;
    }
  for (guint k = 0; k < expr->n_code; k++)
    if (expr->code[k].op == OP_LOAD)
      expr->code[k].arg = slot_of[expr->code[k].ident];
  expr->bound = TRUE;

  /* The slots are new: none is constant until declared so. */
  g_free (expr->slot_fixed);
  g_free (expr->slot_value);
  expr->n_slots = n_names;
  expr->slot_fixed = g_new0 (gboolean, MAX (n_names, 1));
  expr->slot_value = g_new0 (double, MAX (n_names, 1));
  g_free (expr->tslots);
  expr->tslots = g_new0 (QdTaylor, MAX (n_names, 1));
  expr->tprog_ready = FALSE;

  return TRUE;
}

gboolean
qd_expr_is_constant (const QdExpr *expr)
{
  g_return_val_if_fail (expr != NULL, FALSE);
  return expr->literal;
}

double
qd_expr_eval (const QdExpr *expr,
              const double *slots)
{
  double local[32];
  double *stack;
  int sp = -1;

  g_return_val_if_fail (expr != NULL, NAN);
  g_return_val_if_fail (expr->bound, NAN);

  stack = expr->max_depth <= G_N_ELEMENTS (local)
    ? local : g_alloca (expr->max_depth * sizeof (double));

  for (guint k = 0; k < expr->n_code; k++)
    {
      const QdInstr *ins = &expr->code[k];

      switch ((QdOp) ins->op)
        {
        case OP_CONST:
          stack[++sp] = ins->value;
          break;
        case OP_LOAD:
          stack[++sp] = slots[ins->arg];
          break;
        case OP_ADD:
          sp--;
          stack[sp] += stack[sp + 1];
          break;
        case OP_SUB:
          sp--;
          stack[sp] -= stack[sp + 1];
          break;
        case OP_MUL:
          sp--;
          stack[sp] *= stack[sp + 1];
          break;
        case OP_DIV:
          sp--;
          stack[sp] /= stack[sp + 1];
          break;
        case OP_NEG:
          stack[sp] = -stack[sp];
          break;
        case OP_POWI:
          stack[sp] = powi (stack[sp], (int) ins->value);
          break;
        case OP_POW:
        case OP_ATAN2:
        case OP_MIN:
        case OP_MAX:
          sp--;
          stack[sp] = qd_expr_apply_scalar (ins->op, stack[sp], stack[sp + 1]);
          break;
        default:
          stack[sp] = qd_expr_apply_scalar (ins->op, stack[sp], 0.0);
          break;
        }
    }

  return stack[0];
}

void
qd_expr_set_slot_constant (QdExpr *expr,
                           guint   slot,
                           double  value)
{
  g_return_if_fail (expr != NULL);
  g_return_if_fail (expr->bound);
  g_return_if_fail (slot < expr->n_slots);

  expr->slot_fixed[slot] = TRUE;
  expr->slot_value[slot] = value;
  expr->tprog_ready = FALSE;
}

QdTaylor *
qd_expr_get_taylor_slots (QdExpr *expr)
{
  g_return_val_if_fail (expr != NULL, NULL);
  g_return_val_if_fail (expr->bound, NULL);

  return expr->tslots;
}

char **
qd_expr_split_vector (const char *text)
{
  GPtrArray *elements = g_ptr_array_new ();
  const char *start = text;
  int depth = 0;

  g_return_val_if_fail (text != NULL, NULL);

  if (text[strspn (text, " \t\n\r\f\v")] != '\0')
    for (const char *p = text;; p++)
      {
        /* A stray ')' does not open a way for a later comma to split
         * inside a '(': the element is wrong either way, and the parser
         * says where. */
        if (*p == '(')
          depth++;
        else if (*p == ')' && depth > 0)
          depth--;
        else if ((*p == ',' && depth == 0) || *p == '\0')
          {
            g_ptr_array_add (elements, g_strndup (start, (gsize) (p - start)));
            if (*p == '\0')
              break;
            start = p + 1;
          }
      }
  g_ptr_array_add (elements, NULL);
  return (char **) g_ptr_array_free (elements, FALSE);
}

gboolean
qd_expr_eval_string (const char  *text,
                     double      *value,
                     GError     **error)
{
  g_autoptr(QdExpr) expr = NULL;

  g_return_val_if_fail (text != NULL, FALSE);

  expr = qd_expr_parse (text, error);
  if (expr == NULL)
    return FALSE;
  if (!qd_expr_bind (expr, NULL, 0, error))
    return FALSE;
  if (value != NULL)
    *value = qd_expr_eval (expr, NULL);

  return TRUE;
}

int
qd_expr_input_index (const char *name)
{
  const char *p = name + 1;
  guint64 v = 0;

  if (name[0] != 'u' || !g_ascii_isdigit (*p) || (p[0] == '0' && p[1] != '\0'))
    return -1;
  for (; *p != '\0'; p++)
    {
      if (!g_ascii_isdigit (*p))
        return -1;
      v = v * 10 + (*p - '0');
      if (v > G_MAXINT)
        return G_MAXINT;
    }
  return (int) v;
}

int
qd_expr_name_column (const char *text,
                     const char *name)
{
  gsize len = strlen (name);

  for (const char *p = strstr (text, name); p != NULL; p = strstr (p + 1, name))
    {
      gboolean before = p > text && (g_ascii_isalnum (p[-1]) || p[-1] == '_');
      gboolean after = g_ascii_isalnum (p[len]) || p[len] == '_';

      if (!before && !after)
        return (int) g_utf8_pointer_to_offset (text, p) + 1;
    }
  return 1;
}

char *
qd_expr_unknown_name_message (const char *text,
                              const char *name,
                              guint       n_inputs)
{
  int column = qd_expr_name_column (text, name);

  /* Whole sentences, so that each translates as one. */
  if (n_inputs == 0)
    return g_strdup_printf (_("column %d: unknown name '%s': it is not t or "
                              "a model variable; define it in the model's "
                              "variables"), column, name);
  if (n_inputs == 1)
    return g_strdup_printf (_("column %d: unknown name '%s': it is not the "
                              "input u0, t or a model variable; define it "
                              "in the model's variables"), column, name);
  return g_strdup_printf (_("column %d: unknown name '%s': it is not an "
                            "input (u0 to u%u), t or a model variable; "
                            "define it in the model's variables"),
                          column, name, n_inputs - 1);
}

char *
qd_expr_missing_input_message (const char *text,
                               const char *name,
                               guint       n_inputs)
{
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "column %d: input %s does not exist (the "
                                       "block has %u input)",
                                       "column %d: input %s does not exist (the "
                                       "block has %u inputs)", n_inputs),
                          qd_expr_name_column (text, name), name, n_inputs);
}


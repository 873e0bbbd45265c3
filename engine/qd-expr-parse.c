/* qd-expr-parse.c: the parser of parameter and function expressions
 *
 * A recursive-descent parser turns the text into postfix code for the
 * stack machine of qd-expr.c; constant subexpressions are folded while
 * the code is emitted (in postfix, an operator whose operands are all
 * constants follows exactly those constant instructions). Names become
 * LOAD instructions whose slot index qd_expr_bind() fills in. Errors
 * name the column and say what to write instead (a decimal comma, an
 * operator of another language, a missing operand).
 *
 * Grammar (lowest precedence first):
 *
 *   expr    := term (('+' | '-') term)*
 *   term    := unary (('*' | '/') unary)*
 *   unary   := ('+' | '-') unary | power
 *   power   := primary ('^' unary)?          right-associative; -2^2 = -4
 *   primary := number | name | name '(' [expr (',' expr)*] ')' | '(' expr ')'
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qd-error.h"
#include "qd-expr-private.h"

typedef struct
{
  const char *name;
  int         min_args;
  int         max_args;   /* -1: any number from min_args */
  QdOp        op;
} QdFunction;

/* min and max take any number of arguments: they are emitted as a chain of
 * binary operations. */
static const QdFunction functions[] = {
  { "sqrt", 1, 1, OP_SQRT },
  { "exp", 1, 1, OP_EXP },
  { "log", 1, 1, OP_LOG },
  { "log10", 1, 1, OP_LOG10 },
  { "sin", 1, 1, OP_SIN },
  { "cos", 1, 1, OP_COS },
  { "tan", 1, 1, OP_TAN },
  { "asin", 1, 1, OP_ASIN },
  { "acos", 1, 1, OP_ACOS },
  { "atan", 1, 1, OP_ATAN },
  { "atan2", 2, 2, OP_ATAN2 },
  { "sinh", 1, 1, OP_SINH },
  { "cosh", 1, 1, OP_COSH },
  { "tanh", 1, 1, OP_TANH },
  { "abs", 1, 1, OP_ABS },
  { "sign", 1, 1, OP_SIGN },
  { "min", 2, -1, OP_MIN },
  { "max", 2, -1, OP_MAX },
  { "pow", 2, 2, OP_POW },
  { "floor", 1, 1, OP_FLOOR },
  { "ceil", 1, 1, OP_CEIL },
};


/* Parentheses and calls nest at most this deep, so that hostile input
 * cannot exhaust the C stack. */
#define MAX_NESTING 200


typedef struct
{
  const char  *text;
  const char  *p;
  GArray      *code;
  GPtrArray   *idents;
  GArray      *ident_cols;
  int          depth;
  int          max_depth;
  int          nesting;
  GError     **error;
  gboolean     failed;
} QdParser;


/* ---- parser ----------------------------------------------------------- */

static int
column_of (QdParser   *P,
           const char *at)
{
  return (int) g_utf8_pointer_to_offset (P->text, at) + 1;
}

static void
fail (QdParser   *P,
      const char *at,
      QdErrorCode code,
      const char *format,
      ...) G_GNUC_PRINTF (4, 5);

static void
fail (QdParser   *P,
      const char *at,
      QdErrorCode code,
      const char *format,
      ...)
{
  va_list args;
  char *message;

  if (P->failed)
    return;
  P->failed = TRUE;
  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  g_set_error (P->error, QD_ERROR, code, _("column %d: %s"),
               column_of (P, at), message);
  g_free (message);
}

char *
qd_expr_shift_error_column (const char *message,
                            glong       offset)
{
  /* The message was written with this format, translated: what comes
   * before its %d and between its %d and %s is what to look for. */
  /* TRANSLATORS: translate every "column %d: ..." message with the same
   * words before and after the %d as this one: they are looked for. */
  const char *format = _("column %d: %s");
  const char *d = strstr (format, "%d");
  const char *s = d != NULL ? strstr (d + 2, "%s") : NULL;
  const char *digits;
  char *end;
  guint64 column;

  if (s == NULL || strncmp (message, format, (gsize) (d - format)) != 0)
    return g_strdup (message);
  digits = message + (d - format);
  column = g_ascii_strtoull (digits, &end, 10);
  if (end == digits || strncmp (end, d + 2, (gsize) (s - d - 2)) != 0)
    return g_strdup (message);
  return g_strdup_printf (_("column %d: %s"), (int) ((glong) column + offset),
                          end + (s - d - 2));
}

static void
skip_space (QdParser *P)
{
  while (*P->p != '\0' && g_ascii_isspace (*P->p))
    P->p++;
}

static gboolean
is_name_start (char c)
{
  return g_ascii_isalpha (c) || c == '_';
}

static gboolean
is_name_char (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

static const QdFunction *
find_function (const char *name,
               gsize       len)
{
  for (guint i = 0; i < G_N_ELEMENTS (functions); i++)
    if (strlen (functions[i].name) == len
        && strncmp (functions[i].name, name, len) == 0)
      return &functions[i];
  return NULL;
}

static gboolean
is_constant_name (const char *name,
                  gsize       len,
                  double     *value)
{
  if (len == 2 && strncmp (name, "pi", 2) == 0)
    {
      *value = G_PI;
      return TRUE;
    }
  if (len == 1 && name[0] == 'e')
    {
      *value = G_E;
      return TRUE;
    }
  return FALSE;
}

/* Scans a number (1, 1.5, .5, 1e-3, 2.5E+6); returns the end, or NULL
 * when an exponent has no digits. */
static const char *
scan_number (const char *p)
{
  gboolean digits = FALSE;

  while (g_ascii_isdigit (*p))
    {
      p++;
      digits = TRUE;
    }
  if (*p == '.')
    {
      p++;
      while (g_ascii_isdigit (*p))
        {
          p++;
          digits = TRUE;
        }
    }
  if (!digits)
    return NULL;
  if (*p == 'e' || *p == 'E')
    {
      const char *q = p + 1;

      if (*q == '+' || *q == '-')
        q++;
      if (!g_ascii_isdigit (*q))
        return NULL;
      while (g_ascii_isdigit (*q))
        q++;
      p = q;
    }
  return p;
}

gboolean
qd_expr_parse_literal (const char *text,
                       double     *value)
{
  const char *p = text, *start, *end;
  gboolean minus = FALSE;
  double v;

  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (value != NULL, FALSE);

  /* Spaces around, as in the items of "1, -1". */
  while (*p == ' ')
    p++;
  if (*p == '-')
    {
      minus = TRUE;
      p++;
    }
  start = p;
  end = scan_number (p);
  if (end == NULL)
    return FALSE;
  for (p = end; *p == ' '; p++)
    ;
  if (*p != '\0')
    return FALSE;
  v = g_ascii_strtod (start, NULL);
  if (!isfinite (v))
    return FALSE;
  *value = minus ? -v : v;
  return TRUE;
}

/* The token at @p as the user would name it: a whole word or number, an
 * operator, or one (UTF-8) character. */
static char *
token_at (const char *p)
{
  const char *q = p;

  if (is_name_char (*q) || *q == '.')
    {
      while (is_name_char (*q) || *q == '.')
        q++;
      return g_strndup (p, q - p);
    }
  return g_strndup (p, g_utf8_next_char (p) - p);
}

/* Comparison and logic have no place in expressions; returns the operator
 * spelled at @p, or NULL. */
static const char *
unsupported_operator (const char *p)
{
  static const char *const ops[] = {
    "<=", ">=", "==", "!=", "&&", "||", "<", ">", "=", "!", "&", "|", "?", ":",
  };

  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (strncmp (p, ops[i], strlen (ops[i])) == 0)
      return ops[i];
  return NULL;
}

/* A character that can start or continue some valid token. */
static gboolean
is_language_char (char c)
{
  return is_name_char (c) || strchr ("+-*/^().,", c) != NULL;
}

/* A ',' between digits, as in "0,5". */
static gboolean
decimal_comma_between_digits (QdParser   *P,
                              const char *at)
{
  return *at == ',' && at > P->text && g_ascii_isdigit (at[-1])
         && g_ascii_isdigit (at[1]);
}

/* A number written with a decimal comma, as a Spanish or German
 * keyboard and locale suggest. Expressions keep the point whatever the
 * locale, so that a file means the same everywhere; returns the number
 * as written ("0,5"), or NULL. */
static char *
decimal_comma_at (QdParser   *P,
                  const char *at)
{
  const char *begin = at, *end = at + 1;

  if (!decimal_comma_between_digits (P, at))
    return NULL;
  while (begin > P->text && (g_ascii_isdigit (begin[-1]) || begin[-1] == '.'))
    begin--;
  while (g_ascii_isdigit (*end))
    end++;
  return g_strndup (begin, end - begin);
}

/* Fails at a decimal comma, telling how to write the number; FALSE when
 * @at is not one. */
static gboolean
fail_decimal_comma (QdParser   *P,
                    const char *at)
{
  g_autofree char *number = decimal_comma_at (P, at);
  g_autofree char *fixed = NULL;

  if (number == NULL)
    return FALSE;
  fixed = g_strdup (number);
  g_strdelimit (fixed, ",", '.');
  /* The column of the number, not of its comma. */
  fail (P, at - (strchr (number, ',') - number), QD_ERROR_SYNTAX,
        _("'%s' is not a number: use a point as the decimal separator: %s"),
        number, fixed);
  return TRUE;
}

/* Reports a bad character, an unsupported operator or the end of the
 * text; returns FALSE when none applies, so the caller can say what it
 * expected. */
static gboolean
fail_common (QdParser   *P,
             const char *at)
{
  const char *op = unsupported_operator (at);

  if (op != NULL)
    {
      fail (P, at, QD_ERROR_SYNTAX,
            _("'%s' is not supported: expressions have no comparisons, "
              "logic or conditions; use min, max, abs or sign for piecewise "
              "functions"), op);
      return TRUE;
    }
  if (*at == '*' && at[1] == '*')
    {
      fail (P, at, QD_ERROR_SYNTAX,
            _("'**' is not supported: write ^ for a power, as in x^2"));
      return TRUE;
    }
  if (*at != '\0' && !is_language_char (*at))
    {
      g_autofree char *tok = token_at (at);

      fail (P, at, QD_ERROR_SYNTAX, _("unexpected character '%s'"), tok);
      return TRUE;
    }
  return FALSE;
}

static void
emit (QdParser *P,
      QdOp      op,
      guint32   ident,
      double    value)
{
  int arity = qd_expr_op_arity (op);
  QdInstr ins = { op, 0, ident, value };

  /* Constant folding: the operands of an operator end the code; when they
   * are all constants, replace them by the result. */
  /* u ^ k for a small whole constant k: a unary operation on u. */
  if (op == OP_POW && P->code->len >= 2)
    {
      QdInstr *last = &g_array_index (P->code, QdInstr, P->code->len - 1);

      if (last[0].op == OP_CONST && last[-1].op != OP_CONST
          && last[0].value == floor (last[0].value)
          && fabs (last[0].value) <= 64)
        {
          ins.op = OP_POWI;
          ins.value = last[0].value;
          g_array_set_size (P->code, P->code->len - 1);
          P->depth--;
          g_array_append_val (P->code, ins);
          return;
        }
    }

  if (arity > 0 && P->code->len >= (guint) arity)
    {
      QdInstr *last = &g_array_index (P->code, QdInstr, P->code->len - arity);
      gboolean all_const = TRUE;

      for (int i = 0; i < arity; i++)
        all_const = all_const && last[i].op == OP_CONST;
      if (all_const)
        {
          double v = qd_expr_apply_scalar (op, last[0].value,
                                           arity == 2 ? last[1].value : 0.0);

          g_array_set_size (P->code, P->code->len - arity);
          ins.op = OP_CONST;
          ins.value = v;
        }
    }
  g_array_append_val (P->code, ins);

  /* Depth as the unfolded code would have it: an upper bound. */
  P->depth += 1 - arity;
  P->max_depth = MAX (P->max_depth, P->depth);
}

static void parse_expr (QdParser *P);
static void parse_unary (QdParser *P);

/* Reports what is wrong where an operand should start. */
static void
fail_operand (QdParser *P)
{
  if (fail_common (P, P->p))
    return;
  if (*P->p == '\0')
    fail (P, P->p, QD_ERROR_SYNTAX, _("unexpected end of the expression"));
  else
    {
      g_autofree char *tok = token_at (P->p);

      fail (P, P->p, QD_ERROR_SYNTAX,
            _("expected a number, a name or '(', found '%s'"), tok);
    }
}

/* Reports what is wrong where an operator should be; @open is the '(' being
 * closed (NULL at the top level), @in_call whether a ',' could come. */
static void
fail_operator (QdParser   *P,
               const char *open,
               gboolean    in_call)
{
  if (fail_common (P, P->p))
    return;
  if (*P->p == '\0' && open != NULL)
    fail (P, P->p, QD_ERROR_SYNTAX,
          _("missing ')' to close the '(' at column %d"),
          column_of (P, open));
  else if (open == NULL && *P->p == ')')
    fail (P, P->p, QD_ERROR_SYNTAX, _("')' without a matching '('"));
  else if (!in_call && fail_decimal_comma (P, P->p))
    return;
  else if (!in_call && *P->p == ',')
    fail (P, P->p, QD_ERROR_SYNTAX,
          _("',' outside the arguments of a function"));
  else
    {
      g_autofree char *tok = token_at (P->p);

      if (in_call)
        fail (P, P->p, QD_ERROR_SYNTAX,
              _("expected an operator, ',' or ')', found '%s'"), tok);
      else if (open != NULL)
        fail (P, P->p, QD_ERROR_SYNTAX,
              _("expected an operator or ')', found '%s'"), tok);
      else
        fail (P, P->p, QD_ERROR_SYNTAX,
              _("expected an operator, found '%s'"), tok);
    }
}

static void
parse_call (QdParser         *P,
            const char       *name_at,
            const QdFunction *fn)
{
  const char *open = P->p;
  const char *comma = NULL;   /* the first ',' between digits */
  int n_args = 0;

  P->p++;  /* '(' */
  skip_space (P);
  if (*P->p != ')')
    {
      for (;;)
        {
          parse_expr (P);
          if (P->failed)
            return;
          n_args++;
          if (fn->op == OP_MIN || fn->op == OP_MAX)
            {
              if (n_args >= 2)
                emit (P, fn->op, 0, 0.0);
            }
          skip_space (P);
          if (*P->p == ',')
            {
              if (comma == NULL && decimal_comma_between_digits (P, P->p))
                comma = P->p;
              P->p++;
              continue;
            }
          if (*P->p == ')')
            break;
          fail_operator (P, open, TRUE);
          return;
        }
    }
  P->p++;  /* ')' */

  if (n_args < fn->min_args || (fn->max_args >= 0 && n_args > fn->max_args))
    {
      /* sin(0,5) is more likely a decimal comma than two arguments. */
      if (comma != NULL && fail_decimal_comma (P, comma))
        return;
      if (fn->max_args < 0)
        fail (P, name_at, QD_ERROR_EXPR,
              _("%s takes %d or more arguments, not %d"),
              fn->name, fn->min_args, n_args);
      else
        fail (P, name_at, QD_ERROR_EXPR,
              g_dngettext (GETTEXT_PACKAGE, "%s takes %d argument, not %d",
                           "%s takes %d arguments, not %d", fn->min_args),
              fn->name, fn->min_args, n_args);
      return;
    }
  if (fn->op != OP_MIN && fn->op != OP_MAX)
    emit (P, fn->op, 0, 0.0);
}

static void
parse_primary (QdParser *P)
{
  const char *start;
  double value;

  skip_space (P);
  start = P->p;

  if (g_ascii_isdigit (*P->p) || (*P->p == '.' && g_ascii_isdigit (P->p[1])))
    {
      const char *end = scan_number (P->p);
      g_autofree char *copy = NULL;

      if (end == NULL)
        {
          g_autofree char *tok = token_at (start);

          fail (P, start, QD_ERROR_SYNTAX,
                _("malformed number '%s': an exponent needs digits, as in 1e-3"),
                tok);
          return;
        }
      copy = g_strndup (start, end - start);
      value = g_ascii_strtod (copy, NULL);
      if (!isfinite (value))
        {
          /* 1e400 would be infinity, and everything computed from it
           * infinity or NaN, far from where the number was written. */
          fail (P, start, QD_ERROR_SYNTAX,
                _("the number %s is too large for a double (at most about "
                  "1.8e308)"), copy);
          return;
        }
      emit (P, OP_CONST, 0, value);
      P->p = end;
      return;
    }

  if (is_name_start (*P->p))
    {
      const QdFunction *fn;
      gsize len;

      while (is_name_char (*P->p))
        P->p++;
      len = P->p - start;
      fn = find_function (start, len);
      skip_space (P);

      if (*P->p == '(')
        {
          if (fn == NULL)
            {
              g_autofree char *name = g_strndup (start, len);

              if (is_constant_name (start, len, &value))
                fail (P, start, QD_ERROR_EXPR,
                      _("'%s' is a constant, not a function"), name);
              else
                fail (P, start, QD_ERROR_EXPR,
                      _("unknown function '%s'"), name);
              return;
            }
          if (++P->nesting > MAX_NESTING)
            {
              fail (P, P->p, QD_ERROR_SYNTAX,
                    _("the expression is nested too deeply"));
              return;
            }
          parse_call (P, start, fn);
          P->nesting--;
          return;
        }

      if (fn != NULL)
        {
          fail (P, start, QD_ERROR_EXPR,
                _("'%s' is a function: give its arguments in parentheses, "
                  "as in %s(x)"), fn->name, fn->name);
          return;
        }
      if (is_constant_name (start, len, &value))
        {
          emit (P, OP_CONST, 0, value);
          return;
        }

      {
        guint i;

        for (i = 0; i < P->idents->len; i++)
          {
            const char *id = g_ptr_array_index (P->idents, i);

            if (strlen (id) == len && strncmp (id, start, len) == 0)
              break;
          }
        if (i == P->idents->len)
          {
            int col = column_of (P, start);

            g_ptr_array_add (P->idents, g_strndup (start, len));
            g_array_append_val (P->ident_cols, col);
          }
        emit (P, OP_LOAD, i, 0.0);
      }
      return;
    }

  if (*P->p == '(')
    {
      const char *open = P->p;

      if (++P->nesting > MAX_NESTING)
        {
          fail (P, P->p, QD_ERROR_SYNTAX,
                _("the expression is nested too deeply"));
          return;
        }
      P->p++;
      parse_expr (P);
      if (P->failed)
        return;
      skip_space (P);
      if (*P->p != ')')
        {
          fail_operator (P, open, FALSE);
          return;
        }
      P->p++;
      P->nesting--;
      return;
    }

  fail_operand (P);
}

static void
parse_power (QdParser *P)
{
  parse_primary (P);
  if (P->failed)
    return;
  skip_space (P);
  if (*P->p == '^')
    {
      P->p++;
      /* The exponent is a unary so that 2^-1 works; recursing through
       * unary makes ^ right-associative. */
      parse_unary (P);
      if (P->failed)
        return;
      emit (P, OP_POW, 0, 0.0);
    }
}

static void
parse_unary (QdParser *P)
{
  skip_space (P);
  if (*P->p == '-' || *P->p == '+')
    {
      gboolean negate = *P->p == '-';

      P->p++;
      if (++P->nesting > MAX_NESTING)
        {
          fail (P, P->p, QD_ERROR_SYNTAX,
                _("the expression is nested too deeply"));
          return;
        }
      parse_unary (P);
      P->nesting--;
      if (!P->failed && negate)
        emit (P, OP_NEG, 0, 0.0);
      return;
    }
  parse_power (P);
}

static void
parse_term (QdParser *P)
{
  parse_unary (P);
  while (!P->failed)
    {
      char c;

      skip_space (P);
      c = *P->p;
      if (c != '*' && c != '/')
        return;
      if (c == '*' && P->p[1] == '*')
        {
          fail_common (P, P->p);
          return;
        }
      P->p++;
      parse_unary (P);
      if (!P->failed)
        emit (P, c == '*' ? OP_MUL : OP_DIV, 0, 0.0);
    }
}

static void
parse_expr (QdParser *P)
{
  parse_term (P);
  while (!P->failed)
    {
      char c;

      skip_space (P);
      c = *P->p;
      if (c != '+' && c != '-')
        return;
      P->p++;
      parse_term (P);
      if (!P->failed)
        emit (P, c == '+' ? OP_ADD : OP_SUB, 0, 0.0);
    }
}

/* A plain number literal, optionally signed: what qd_expr_is_constant()
 * reports. */
static gboolean
is_literal (const char *p)
{
  while (g_ascii_isspace (*p))
    p++;
  if (*p == '+' || *p == '-')
    p++;
  while (g_ascii_isspace (*p))
    p++;
  p = scan_number (p);
  if (p == NULL)
    return FALSE;
  while (g_ascii_isspace (*p))
    p++;
  return *p == '\0';
}

QdExpr *
qd_expr_parse (const char  *text,
               GError     **error)
{
  QdParser P = { 0 };
  const char *bad;
  QdExpr *expr;

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!g_utf8_validate (text, -1, &bad))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_SYNTAX,
                   _("column %d: the text is not valid UTF-8"),
                   (int) g_utf8_pointer_to_offset (text, bad) + 1);
      return NULL;
    }

  P.text = text;
  P.p = text;
  P.error = error;
  P.code = g_array_new (FALSE, FALSE, sizeof (QdInstr));
  P.idents = g_ptr_array_new_with_free_func (g_free);
  P.ident_cols = g_array_new (FALSE, FALSE, sizeof (int));

  skip_space (&P);
  if (*P.p == '\0')
    fail (&P, text, QD_ERROR_SYNTAX,
          _("the expression is empty: write a number or a formula"));
  else
    {
      parse_expr (&P);
      skip_space (&P);
      if (!P.failed && *P.p != '\0')
        fail_operator (&P, NULL, FALSE);
    }

  if (P.failed)
    {
      g_array_unref (P.code);
      g_ptr_array_unref (P.idents);
      g_array_unref (P.ident_cols);
      return NULL;
    }

  expr = g_new0 (QdExpr, 1);
  expr->text = g_strdup (text);
  expr->n_code = P.code->len;
  expr->code = (QdInstr *) g_array_free (P.code, FALSE);
  expr->n_idents = P.idents->len;
  g_ptr_array_add (P.idents, NULL);
  expr->idents = (char **) g_ptr_array_free (P.idents, FALSE);
  expr->ident_cols = (int *) g_array_free (P.ident_cols, FALSE);
  expr->max_depth = MAX (P.max_depth, 1);
  expr->literal = is_literal (text);
  expr->bound = expr->n_idents == 0;

  return expr;
}


gboolean
qd_expr_is_valid_name (const char *name)
{
  double value;
  gsize len;

  if (name == NULL || !is_name_start (name[0]))
    return FALSE;
  for (len = 1; name[len] != '\0'; len++)
    if (!is_name_char (name[len]))
      return FALSE;

  return find_function (name, len) == NULL
         && !is_constant_name (name, len, &value);
}

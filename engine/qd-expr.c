/* qd-expr.c: parameter and function expressions
 *
 * A recursive-descent parser turns the text into postfix code for a small
 * stack machine; constant subexpressions are folded while the code is
 * emitted (in postfix, an operator whose operands are all constants
 * follows exactly those constant instructions). Names become LOAD
 * instructions whose slot index is filled in by qd_expr_bind(), so
 * evaluation never looks at a string and never allocates: it is one switch
 * per instruction on doubles.
 *
 * Taylor evaluation runs a second, register-based program compiled from the
 * postfix code on first use (see "Taylor program" below): operands are read
 * where they are (a slot, a constant, a register), only the coefficients up
 * to the order asked for are computed, constant operands (literals and the
 * slots declared constant with qd_expr_set_slot_constant()) are folded or
 * turn an operation into a cheaper one, and the common operations are done
 * inline. Each inline operation gives the same bits as the qd_taylor_*
 * function it replaces (see taylor_exec()).
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
#include "qd-expr.h"
#include "qd-poly.h"
#include "qd-taylor.h"

typedef enum
{
  OP_CONST,
  OP_LOAD,
  OP_NEG,
  OP_ADD,
  OP_SUB,
  OP_MUL,
  OP_DIV,
  OP_POW,
  OP_POWI,   /* ^ a small whole constant, kept in value */
  OP_SQRT,
  OP_EXP,
  OP_LOG,
  OP_LOG10,
  OP_SIN,
  OP_COS,
  OP_TAN,
  OP_ASIN,
  OP_ACOS,
  OP_ATAN,
  OP_ATAN2,
  OP_SINH,
  OP_COSH,
  OP_TANH,
  OP_ABS,
  OP_SIGN,
  OP_MIN,
  OP_MAX,
  OP_FLOOR,
  OP_CEIL,
} QdOp;

typedef struct
{
  guint32 op;
  guint32 arg;     /* OP_LOAD: slot after binding */
  guint32 ident;   /* OP_LOAD: index into the identifier list */
  double  value;   /* OP_CONST: the constant; OP_POWI: the exponent */
} QdInstr;

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

/* Where an operand of the Taylor program is while it is compiled: an
 * input slot, a constant or a register. */
enum
{
  T_SLOT,
  T_CONST,
  T_REG,
};

typedef enum
{
  T_ADD,      /* a + b */
  T_SUB,      /* a - b */
  T_NEG,      /* -a */
  T_MUL,      /* a b, both series */
  T_SCALE,    /* k a: a series times a constant */
  T_ADDC,     /* a + k */
  T_SUBC,     /* a - k */
  T_CSUB,     /* k - a */
  T_GENERIC,  /* anything else, through the qd_taylor_* functions */
  T_WATCHED,  /* T_GENERIC with a domain to watch (QdTWatch) */
  T_END,      /* the last instruction: spares a counter */
} QdTOp;

/* An operation that can leave its domain (a division, log, sqrt, a
 * power, exp), as the Taylor program last ran it: the operand whose
 * domain matters, copied before the operation (its register may take the
 * result), and whether the result was finite. */
typedef struct
{
  QdTaylor      at;      /* the operand; 0 above the evaluation's order */
  guint8        domain;  /* QdExprDomain */
  guint8        use_b;   /* the operand is b (the divisor), not a */
  guint8        zero;    /* its zeros matter: it is not a constant, and
                            the operation is singular at 0 */
  guint8        bad;     /* the result was not finite */
  guint8        whole;   /* a power's exponent is a whole constant */
} QdTWatch;

/* An instruction of the Taylor program. The operands are pointers into
 * the expression's own slots, constants and registers, all allocated
 * before the program runs, so that an instruction finds them without
 * looking anything up. */
typedef struct
{
  guint8          op;    /* QdTOp */
  guint8          gen;   /* T_GENERIC: the QdOp */
  const QdTaylor *a;
  const QdTaylor *b;
  QdTaylor       *r;
  double          k;     /* the constant of T_SCALE, T_ADDC, T_SUBC,
                            T_CSUB; the exponent of a generic OP_POWI */
  QdTWatch       *w;     /* T_WATCHED */
} QdTInstr;

/* Parentheses and calls nest at most this deep, so that hostile input
 * cannot exhaust the C stack. */
#define MAX_NESTING 200

struct _QdExpr
{
  char      *text;
  QdInstr   *code;
  guint      n_code;
  char     **idents;       /* NULL-terminated */
  int       *ident_cols;   /* column of the first appearance */
  guint      n_idents;
  guint      max_depth;
  gboolean   bound;
  gboolean   literal;

  /* Slots declared constant for the Taylor program, n_slots of them (the
   * names given to qd_expr_bind). */
  guint      n_slots;
  gboolean  *slot_fixed;
  double    *slot_value;

  /* The Taylor program, compiled on first use after a change. */
  QdTaylor  *tslots;       /* n_slots input series, from qd_expr_bind */
  gboolean   tprog_ready;
  QdTInstr  *tprog;
  guint      n_tprog;
  QdTaylor  *tconst;       /* constant operands */
  QdTaylor  *tregs;        /* registers: the results of operations */
  const QdTaylor *tresult; /* where the result is */
  QdTWatch  *twatch;       /* the T_WATCHED operations, in program order */
  guint      n_twatch;
  int        torder;       /* the order of the last evaluation */
};

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

static int
op_arity (QdOp op)
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

static double
apply_scalar (QdOp   op,
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
  int arity = op_arity (op);
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
          double v = apply_scalar (op, last[0].value,
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
          stack[sp] = apply_scalar (ins->op, stack[sp], stack[sp + 1]);
          break;
        default:
          stack[sp] = apply_scalar (ins->op, stack[sp], 0.0);
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

/* ---- Taylor program --------------------------------------------------- */

/* One operation of the postfix code on series, through the qd_taylor_*
 * functions: what the Taylor program does for the operations it does not
 * do inline, and how it folds constants. */
static void
taylor_apply (QdOp            op,
              double          value,
              QdTaylor       *r,
              const QdTaylor *a,
              const QdTaylor *b,
              int             n)
{
  switch (op)
    {
    case OP_NEG: qd_taylor_neg (r, a, n); break;
    case OP_ADD: qd_taylor_add (r, a, b, n); break;
    case OP_SUB: qd_taylor_sub (r, a, b, n); break;
    case OP_MUL: qd_taylor_mul (r, a, b, n); break;
    case OP_DIV: qd_taylor_div (r, a, b, n); break;
    case OP_POW: qd_taylor_pow (r, a, b, n); break;
    case OP_POWI: qd_taylor_pow_const (r, a, value, n); break;
    case OP_ATAN2: qd_taylor_atan2 (r, a, b, n); break;
    case OP_MIN: qd_taylor_min (r, a, b, n); break;
    case OP_MAX: qd_taylor_max (r, a, b, n); break;
    case OP_SQRT: qd_taylor_sqrt (r, a, n); break;
    case OP_EXP: qd_taylor_exp (r, a, n); break;
    case OP_LOG: qd_taylor_log (r, a, n); break;
    case OP_LOG10: qd_taylor_log10 (r, a, n); break;
    case OP_SIN: qd_taylor_sin (r, a, n); break;
    case OP_COS: qd_taylor_cos (r, a, n); break;
    case OP_TAN: qd_taylor_tan (r, a, n); break;
    case OP_ASIN: qd_taylor_asin (r, a, n); break;
    case OP_ACOS: qd_taylor_acos (r, a, n); break;
    case OP_ATAN: qd_taylor_atan (r, a, n); break;
    case OP_SINH: qd_taylor_sinh (r, a, n); break;
    case OP_COSH: qd_taylor_cosh (r, a, n); break;
    case OP_TANH: qd_taylor_tanh (r, a, n); break;
    case OP_ABS: qd_taylor_abs (r, a, n); break;
    case OP_SIGN: qd_taylor_sign (r, a, n); break;
    case OP_FLOOR: qd_taylor_floor (r, a, n); break;
    case OP_CEIL: qd_taylor_ceil (r, a, n); break;
    case OP_CONST:
    case OP_LOAD:
    default:
      g_assert_not_reached ();
    }
}

typedef struct
{
  guint8  kind;
  guint32 index;
} QdTOperand;

/* An instruction before its operands are resolved to pointers (the
 * constants move while they are appended). */
typedef struct
{
  QdTOp      op;
  QdOp       gen;
  QdTOperand a, b;
  guint32    dst;
  double     k;
  int        watch;     /* T_WATCHED: index into QdTCompiler.watches */
} QdTPending;

typedef struct
{
  GArray     *prog;     /* QdTPending */
  GArray     *consts;   /* QdTaylor */
  GArray     *watches;  /* QdTWatch */
  QdTOperand *stack;
} QdTCompiler;

/* A constant whose higher coefficients are all +0, as a literal's are:
 * only such a constant may turn an operation into T_SCALE, T_ADDC, T_SUBC
 * or T_CSUB, whose bits rest on those zeros (a -0 would change the sign
 * of a zero result), or be folded with another. */
static gboolean
is_plain_constant (const QdTaylor *c)
{
  for (int k = 1; k <= QD_MAX_ORDER; k++)
    if (c->c[k] != 0.0 || signbit (c->c[k]))
      return FALSE;
  return TRUE;
}

static QdTOperand
add_constant (QdTCompiler    *C,
              const QdTaylor *value)
{
  QdTOperand o = { T_CONST, C->consts->len };

  g_array_append_vals (C->consts, value, 1);
  return o;
}

static const QdTaylor *
constant_of (QdTCompiler *C,
             QdTOperand   o)
{
  return o.kind == T_CONST ? &g_array_index (C->consts, QdTaylor, o.index) : NULL;
}

static void
emit_t (QdTCompiler *C,
        QdTOp        op,
        guint32      dst,
        QdTOperand   a,
        QdTOperand   b,
        double       k,
        QdOp         gen)
{
  QdTPending in = { op, gen, a, b, dst, k, -1 };

  g_array_append_val (C->prog, in);
}

/* Whether the operation @op (on @a and @b, with @value for OP_POWI) can
 * leave its domain; if so, appends its QdTWatch to C->watches. Its zeros
 * matter where the function is singular at 0: a divisor, the argument
 * of log, log10 and sqrt, the base of a power other than a whole
 * constant of 0 or more. Exp only overflows. */
static gboolean
watch_operation (QdTCompiler *C,
                 QdOp         op,
                 double       value,
                 QdTOperand   a,
                 QdTOperand   b)
{
  const QdTaylor *ca = constant_of (C, a), *cb = constant_of (C, b);
  QdTWatch w = { { { 0 } }, QD_EXPR_DOMAIN_NONE, FALSE, FALSE, FALSE, FALSE };
  gboolean singular = TRUE;

  switch (op)
    {
    case OP_DIV:
      /* 1/u says what the Inverse block says. */
      w.domain = ca != NULL && is_plain_constant (ca) && ca->c[0] == 1.0
                 ? QD_EXPR_DOMAIN_INVERSE : QD_EXPR_DOMAIN_DIVISOR;
      w.use_b = TRUE;
      break;
    case OP_LOG:
    case OP_LOG10:
      w.domain = QD_EXPR_DOMAIN_LOG;
      break;
    case OP_SQRT:
      w.domain = QD_EXPR_DOMAIN_SQRT;
      break;
    case OP_POWI:
      w.domain = QD_EXPR_DOMAIN_POW;
      w.whole = TRUE;
      /* u^0 is 1, even at 0. */
      singular = value < 0.0;
      break;
    case OP_POW:
      w.domain = QD_EXPR_DOMAIN_POW;
      w.whole = cb != NULL && is_plain_constant (cb)
                && cb->c[0] == floor (cb->c[0]);
      singular = !(w.whole && cb->c[0] >= 0.0);
      break;
    case OP_EXP:
      w.domain = QD_EXPR_DOMAIN_EXP_OVERFLOW;
      singular = FALSE;
      break;
    default:
      return FALSE;
    }
  w.zero = singular && (w.use_b ? b : a).kind != T_CONST;
  g_array_append_val (C->watches, w);
  return TRUE;
}

/* Compiles the operation @ins whose operands are at stack positions @p
 * (and @p + 1 for a binary one); the result goes to register @p, and
 * register @p + 1 may serve as a temporary. */
static QdTOperand
compile_op (QdTCompiler   *C,
            const QdInstr *ins,
            guint          p)
{
  QdOp op = ins->op;
  int arity = op_arity (op);
  QdTOperand a = C->stack[p];
  QdTOperand b = arity == 2 ? C->stack[p + 1] : a;
  QdTOperand r = { T_REG, p }, tmp = { T_REG, p + 1 };
  const QdTaylor *ca = constant_of (C, a), *cb = constant_of (C, b);
  gboolean pa = ca != NULL && is_plain_constant (ca);
  gboolean pb = cb != NULL && is_plain_constant (cb);

  /* All operands plain constants: fold, with the same function at full
   * order. For such operands every coefficient up to n depends only on
   * the lower ones and no branch depends on n, so truncating the folded
   * series later gives what evaluating at order n would. */
  if (pa && (arity == 1 || pb))
    {
      QdTaylor v;

      taylor_apply (op, ins->value, &v, ca, cb, QD_MAX_ORDER);
      return add_constant (C, &v);
    }

  switch (op)
    {
    case OP_NEG:
      emit_t (C, T_NEG, p, a, a, 0.0, op);
      return r;
    case OP_ADD:
      if (pa || pb)
        emit_t (C, T_ADDC, p, pa ? b : a, pa ? b : a,
                pa ? ca->c[0] : cb->c[0], op);
      else
        emit_t (C, T_ADD, p, a, b, 0.0, op);
      return r;
    case OP_SUB:
      if (pb)
        emit_t (C, T_SUBC, p, a, a, cb->c[0], op);
      else if (pa)
        emit_t (C, T_CSUB, p, b, b, ca->c[0], op);
      else
        emit_t (C, T_SUB, p, a, b, 0.0, op);
      return r;
    case OP_MUL:
      if (pa || pb)
        emit_t (C, T_SCALE, p, pa ? b : a, pa ? b : a,
                pa ? ca->c[0] : cb->c[0], op);
      else
        emit_t (C, T_MUL, p, a, b, 0.0, op);
      return r;
    case OP_POWI:
      /* The products qd_taylor_pow_const's binary powering forms, with
       * its first product by the series 1 left out: a Cauchy product's
       * bits do not depend on the signs of zeros in its operands. */
      if (ins->value == 2.0)
        {
          emit_t (C, T_MUL, p, a, a, 0.0, op);
          return r;
        }
      if (ins->value == 3.0)
        {
          emit_t (C, T_MUL, p + 1, a, a, 0.0, op);
          emit_t (C, T_MUL, p, a, tmp, 0.0, op);
          return r;
        }
      if (ins->value == 4.0)
        {
          emit_t (C, T_MUL, p + 1, a, a, 0.0, op);
          emit_t (C, T_MUL, p, tmp, tmp, 0.0, op);
          return r;
        }
      break;
    default:
      break;
    }
  if (watch_operation (C, op, ins->value, a, b))
    {
      emit_t (C, T_WATCHED, p, a, b, ins->value, op);
      g_array_index (C->prog, QdTPending, C->prog->len - 1).watch =
        C->watches->len - 1;
      return r;
    }
  emit_t (C, T_GENERIC, p, a, b, ins->value, op);
  return r;
}

static const QdTaylor *
operand_pointer (QdExpr     *expr,
                 QdTOperand  o)
{
  switch (o.kind)
    {
    case T_SLOT: return &expr->tslots[o.index];
    case T_CONST: return &expr->tconst[o.index];
    default: return &expr->tregs[o.index];
    }
}

/* Turns the postfix code into the Taylor program. The operand stack holds
 * references instead of series; operations whose operands are all plain
 * constants are folded at full order. Out of line: inlined, it made every
 * evaluation save more registers. */
static G_NO_INLINE void
taylor_compile (QdExpr *expr)
{
  QdTCompiler C;
  guint sp = 0;

  C.prog = g_array_new (FALSE, FALSE, sizeof (QdTPending));
  C.consts = g_array_new (FALSE, FALSE, sizeof (QdTaylor));
  C.watches = g_array_new (FALSE, FALSE, sizeof (QdTWatch));
  C.stack = g_new0 (QdTOperand, expr->max_depth + 1);

  for (guint k = 0; k < expr->n_code; k++)
    {
      const QdInstr *ins = &expr->code[k];
      QdTaylor v;

      switch ((QdOp) ins->op)
        {
        case OP_CONST:
          qd_taylor_constant (&v, ins->value);
          C.stack[sp++] = add_constant (&C, &v);
          break;
        case OP_LOAD:
          if (expr->slot_fixed[ins->arg])
            {
              qd_taylor_constant (&v, expr->slot_value[ins->arg]);
              C.stack[sp++] = add_constant (&C, &v);
            }
          else
            C.stack[sp++] = (QdTOperand) { T_SLOT, ins->arg };
          break;
        default:
          sp -= op_arity (ins->op);
          C.stack[sp] = compile_op (&C, ins, sp);
          sp++;
          break;
        }
    }

  g_free (expr->tprog);
  g_free (expr->tconst);
  g_free (expr->tregs);
  g_free (expr->twatch);
  expr->n_twatch = C.watches->len;
  expr->twatch = (QdTWatch *) g_array_free (C.watches, FALSE);
  expr->tconst = (QdTaylor *) g_array_free (C.consts, FALSE);
  /* Registers 0..max_depth: the stack positions and one temporary. */
  expr->tregs = g_new0 (QdTaylor, expr->max_depth + 1);
  expr->n_tprog = C.prog->len;
  expr->tprog = g_new0 (QdTInstr, C.prog->len + 1);
  expr->tprog[C.prog->len].op = T_END;
  for (guint i = 0; i < C.prog->len; i++)
    {
      const QdTPending *pi = &g_array_index (C.prog, QdTPending, i);
      QdTInstr *in = &expr->tprog[i];

      in->op = pi->op;
      in->gen = pi->gen;
      in->a = operand_pointer (expr, pi->a);
      in->b = operand_pointer (expr, pi->b);
      in->r = &expr->tregs[pi->dst];
      in->k = pi->k;
      in->w = pi->watch >= 0 ? &expr->twatch[pi->watch] : NULL;
    }
  expr->tresult = operand_pointer (expr, C.stack[0]);
  expr->tprog_ready = TRUE;
  g_array_unref (C.prog);
  g_free (C.stack);
}

/* Runs the Taylor program at order n. The inline operations reproduce the
 * qd_taylor_* function each replaces bit for bit, for finite inputs:
 *  - T_MUL is qd_taylor_mul's Cauchy product, summed in the same order
 *    from 0.0;
 *  - T_SCALE is qd_taylor_mul by a plain constant k: its other terms are
 *    zeros, and a sum from 0.0 of zeros and one term x is x + 0.0 (the
 *    0.0 turns a -0 into +0, as the sum did);
 *  - T_ADDC, T_SUBC and T_CSUB are qd_taylor_add and qd_taylor_sub with a
 *    plain constant, whose higher coefficients are +0.
 * (An infinite or NaN coefficient below k made the zero terms NaN in the
 * full product; T_SCALE does not see them.) Only coefficients 0..n are
 * read or written, so operands need no truncation and registers no
 * clearing; the result is truncated once, on output. */
static inline G_ALWAYS_INLINE void
taylor_run (const QdExpr *expr,
            const int     n)
{
  for (const QdTInstr *in = expr->tprog;; in++)
    {
      const QdTaylor *a = in->a, *b = in->b;
      QdTaylor *r = in->r;
      double k = in->k;

      switch ((QdTOp) in->op)
        {
        case T_ADD:
          for (int j = 0; j <= n; j++)
            r->c[j] = a->c[j] + b->c[j];
          break;
        case T_SUB:
          for (int j = 0; j <= n; j++)
            r->c[j] = a->c[j] - b->c[j];
          break;
        case T_NEG:
          for (int j = 0; j <= n; j++)
            r->c[j] = -a->c[j];
          break;
        case T_SCALE:
          for (int j = 0; j <= n; j++)
            r->c[j] = k * a->c[j] + 0.0;
          break;
        case T_ADDC:
          r->c[0] = a->c[0] + k;
          for (int j = 1; j <= n; j++)
            r->c[j] = a->c[j] + 0.0;
          break;
        case T_SUBC:
          r->c[0] = a->c[0] - k;
          for (int j = 1; j <= n; j++)
            r->c[j] = a->c[j];
          break;
        case T_CSUB:
          r->c[0] = k - a->c[0];
          for (int j = 1; j <= n; j++)
            r->c[j] = 0.0 - a->c[j];
          break;
        case T_MUL:
          {
            /* Into locals first: r may be a or b. */
            double a0 = a->c[0], a1 = a->c[1], a2 = a->c[2], a3 = a->c[3];
            double b0 = b->c[0], b1 = b->c[1], b2 = b->c[2], b3 = b->c[3];

            switch (n)
              {
              case 3:
                r->c[3] = 0.0 + a0 * b3 + a1 * b2 + a2 * b1 + a3 * b0;
                G_GNUC_FALLTHROUGH;
              case 2:
                r->c[2] = 0.0 + a0 * b2 + a1 * b1 + a2 * b0;
                G_GNUC_FALLTHROUGH;
              case 1:
                r->c[1] = 0.0 + a0 * b1 + a1 * b0;
                G_GNUC_FALLTHROUGH;
              default:
                r->c[0] = 0.0 + a0 * b0;
                break;
              }
          }
          break;
        case T_GENERIC:
          taylor_apply (in->gen, k, r, a, b, n);
          break;
        case T_WATCHED:
          {
            QdTWatch *w = in->w;
            const QdTaylor *u = w->use_b ? b : a;
            gboolean finite = TRUE;

            for (int j = 0; j <= QD_MAX_ORDER; j++)
              w->at.c[j] = j <= n ? u->c[j] : 0.0;
            taylor_apply (in->gen, k, r, a, b, n);
            for (int j = 0; j <= n; j++)
              finite = finite && isfinite (r->c[j]);
            w->bad = !finite;
          }
          break;
        case T_END:
          return;
        default:
          /* Only the operations above are compiled; saying so spares
           * the switch its range check. */
          __builtin_unreachable ();
        }
    }
}

/* taylor_run with n a constant in each call, so that its loops unroll. */
static void
taylor_exec (const QdExpr *expr,
             int           n,
             QdTaylor     *out)
{
  const QdTaylor *res = expr->tresult;

  switch (n)
    {
    case 0: taylor_run (expr, 0); break;
    case 1: taylor_run (expr, 1); break;
    case 2: taylor_run (expr, 2); break;
    default: taylor_run (expr, 3); break;
    }

  for (int j = 0; j <= QD_MAX_ORDER; j++)
    out->c[j] = j <= n ? res->c[j] : 0.0;
}

void
qd_expr_eval_taylor (QdExpr         *expr,
                     const QdTaylor *slots,
                     int             order,
                     QdTaylor       *out)
{
  g_return_if_fail (expr != NULL);
  g_return_if_fail (expr->bound);

  if (G_UNLIKELY (!expr->tprog_ready))
    taylor_compile (expr);
  /* The program reads the expression's own slots; a caller that filled
   * them in place (qd_expr_get_taylor_slots) spares this copy. */
  if (slots != expr->tslots && expr->n_slots > 0)
    memcpy (expr->tslots, slots, expr->n_slots * sizeof (QdTaylor));
  expr->torder = CLAMP (order, 0, QD_MAX_ORDER);
  taylor_exec (expr, expr->torder, out);
}

/* ---- domains ----------------------------------------------------------- */

const char *
qd_expr_domain_message (QdExprDomain domain)
{
  switch (domain)
    {
    case QD_EXPR_DOMAIN_INVERSE:
      return _("1/u needs a nonzero input");
    case QD_EXPR_DOMAIN_DIVISOR:
      return _("a divisor is zero; keep it away from zero");
    case QD_EXPR_DOMAIN_LOG:
      return _("log needs a positive input; keep it above zero (add an "
               "offset or use abs)");
    case QD_EXPR_DOMAIN_SQRT:
      return _("sqrt needs an input of zero or more, and above zero while "
               "it changes (its slope is infinite at zero)");
    case QD_EXPR_DOMAIN_POW:
      return _("the power is not defined there (a negative base needs a "
               "whole exponent, a zero base a positive one)");
    case QD_EXPR_DOMAIN_POW_OVERFLOW:
      return _("the power overflows; check the input's scale");
    case QD_EXPR_DOMAIN_EXP_OVERFLOW:
      return _("the exponential overflows; check the input's scale");
    case QD_EXPR_DOMAIN_NONE:
    default:
      return "";
    }
}

static void
ensure_compiled (QdExpr *expr)
{
  if (G_UNLIKELY (!expr->tprog_ready))
    taylor_compile (expr);
}

gboolean
qd_expr_has_singularities (QdExpr *expr)
{
  g_return_val_if_fail (expr != NULL, FALSE);
  g_return_val_if_fail (expr->bound, FALSE);

  ensure_compiled (expr);
  for (guint i = 0; i < expr->n_twatch; i++)
    if (expr->twatch[i].zero)
      return TRUE;
  return FALSE;
}

QdExprDomain
qd_expr_get_domain_error (const QdExpr *expr,
                          double       *value)
{
  g_return_val_if_fail (expr != NULL, QD_EXPR_DOMAIN_NONE);

  /* The first in program order: what follows only carries its NaN or
   * infinity on. */
  for (guint i = 0; i < expr->n_twatch; i++)
    {
      const QdTWatch *w = &expr->twatch[i];

      if (w->bad)
        {
          double u = w->at.c[0];

          if (value != NULL)
            *value = u;
          /* A base inside the power's domain (positive, or any but 0
           * under a whole exponent) overflowed, as 10^400 does: what
           * the Power block says. */
          if (w->domain == QD_EXPR_DOMAIN_POW && u != 0.0
              && (u > 0.0 || w->whole))
            return QD_EXPR_DOMAIN_POW_OVERFLOW;
          return (QdExprDomain) w->domain;
        }
    }
  return QD_EXPR_DOMAIN_NONE;
}

double
qd_expr_next_singularity (const QdExpr *expr,
                          QdExprDomain *domain)
{
  double first = QD_INF;

  g_return_val_if_fail (expr != NULL, QD_INF);

  if (domain != NULL)
    *domain = QD_EXPR_DOMAIN_NONE;
  for (guint i = 0; i < expr->n_twatch; i++)
    {
      const QdTWatch *w = &expr->twatch[i];
      double s;

      if (!w->zero)
        continue;
      /* Identically zero: no crossing (and its value is the operation's
       * own business, sqrt(0) being fine). */
      if (w->at.c[0] == 0.0 && w->at.c[1] == 0.0 && w->at.c[2] == 0.0
          && w->at.c[3] == 0.0)
        continue;
      s = qd_poly_first_root (w->at.c, expr->torder);
      if (s < first)
        {
          first = s;
          if (domain != NULL)
            *domain = (QdExprDomain) w->domain;
        }
    }
  return first;
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

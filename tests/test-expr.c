/* test-expr.c: the expression language: syntax, precedence, functions,
 * binding, and every error message with its column */
#include <math.h>
#include <string.h>

#include "qd-test-util.h"

static double
eval_ok (const char *text)
{
  g_autoptr(GError) error = NULL;
  double value = NAN;

  if (!qd_expr_eval_string (text, &value, &error))
    g_error ("'%s' failed: %s", text, error->message);
  return value;
}

static void
assert_value (const char *text,
              double      expected)
{
  double value = eval_ok (text);

  if (!(fabs (value - expected) <= 1e-14 * MAX (1.0, fabs (expected))))
    g_error ("'%s' gave %.17g, expected %.17g", text, value, expected);
}

/* Parsing @text fails with exactly @message. */
static void
assert_parse_error (const char  *text,
                    int          code,
                    const char  *message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QdExpr) expr = qd_expr_parse (text, &error);

  g_assert_null (expr);
  g_assert_error (error, QD_ERROR, code);
  g_assert_cmpstr (error->message, ==, message);
}

static void
test_precedence (void)
{
  assert_value ("1 + 2 * 3", 7);
  assert_value ("(1 + 2) * 3", 9);
  assert_value ("10 - 4 - 3", 3);           /* left-associative */
  assert_value ("24 / 4 / 2", 3);
  assert_value ("2 ^ 3 ^ 2", 512);          /* right-associative */
  assert_value ("(2 ^ 3) ^ 2", 64);
  assert_value ("-2^2", -4);                /* ^ binds tighter than unary - */
  assert_value ("(-2)^2", 4);
  assert_value ("2^-1", 0.5);
  assert_value ("2^-1^2", 0.5);             /* 2^(-(1^2)) */
  assert_value ("--3", 3);
  assert_value ("+-+3", -3);
  assert_value ("2 * -3", -6);
  assert_value ("1 - -1", 2);
  assert_value ("6 / 2 * 3", 9);
  assert_value ("2 * 3 ^ 2", 18);
  assert_value ("-3 ^ 2 + 1", -8);
  assert_value ("  \t7\n", 7);
}

static void
test_numbers (void)
{
  assert_value ("1", 1);
  assert_value ("1.5", 1.5);
  assert_value (".5", 0.5);
  assert_value ("5.", 5);
  assert_value ("1e-3", 1e-3);
  assert_value ("2.5E+6", 2.5e6);
  assert_value ("3e2", 300);
  assert_value ("0.1 + 0.2", 0.1 + 0.2);
}

static void
test_functions (void)
{
  assert_value ("sqrt(2)", sqrt (2));
  assert_value ("exp(1.5)", exp (1.5));
  assert_value ("log(10)", log (10));
  assert_value ("log10(1000)", 3);
  assert_value ("sin(0.3)", sin (0.3));
  assert_value ("cos(0.3)", cos (0.3));
  assert_value ("tan(0.3)", tan (0.3));
  assert_value ("asin(0.3)", asin (0.3));
  assert_value ("acos(0.3)", acos (0.3));
  assert_value ("atan(3)", atan (3));
  assert_value ("atan2(1, -1)", atan2 (1, -1));
  assert_value ("atan2(-1, -1)", atan2 (-1, -1));
  assert_value ("sinh(0.7)", sinh (0.7));
  assert_value ("cosh(0.7)", cosh (0.7));
  assert_value ("tanh(0.7)", tanh (0.7));
  assert_value ("abs(-2.5)", 2.5);
  assert_value ("sign(-2.5)", -1);
  assert_value ("sign(0)", 0);
  assert_value ("sign(3)", 1);
  assert_value ("min(3, 1, 2)", 1);
  assert_value ("max(3, 1, 2, 7, -1)", 7);
  assert_value ("min(4, 9)", 4);
  assert_value ("pow(2, 10)", 1024);
  assert_value ("pow(-2, 3)", -8);
  assert_value ("floor(-1.5)", -2);
  assert_value ("ceil(-1.5)", -1);
  assert_value ("sin (0.3)", sin (0.3));    /* a space before '(' */
  assert_value ("sqrt(abs(-16)) + max(1, min(5, 3))", 7);
  /* Domain errors follow C. */
  g_assert_true (isnan (eval_ok ("sqrt(-1)")));
  g_assert_true (isinf (eval_ok ("1/0")));
}

static void
test_constants (void)
{
  g_autoptr(QdExpr) expr = NULL;
  guint n = 99;

  assert_value ("pi", G_PI);
  assert_value ("2*pi", 2 * G_PI);
  assert_value ("e", G_E);
  assert_value ("e^2", exp (2));
  assert_value ("log(e)", 1);

  expr = qd_expr_parse ("pi + e", NULL);
  g_assert_nonnull (expr);
  qd_expr_get_identifiers (expr, &n);
  g_assert_cmpuint (n, ==, 0);
}

static void
test_is_constant (void)
{
  static const struct { const char *text; gboolean literal; } cases[] = {
    { "3", TRUE }, { "-3.5", TRUE }, { " + 1e-3 ", TRUE }, { ".5", TRUE },
    { "2*3", FALSE }, { "pi", FALSE }, { "(3)", FALSE }, { "k", FALSE },
    { "--3", FALSE },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(QdExpr) expr = qd_expr_parse (cases[i].text, NULL);

      g_assert_nonnull (expr);
      g_assert_cmpint (qd_expr_is_constant (expr), ==, cases[i].literal);
    }
}

static void
test_identifiers_and_bind (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QdExpr) expr = qd_expr_parse ("k*x + x/m - k_2 + sin(x)", &error);
  const char *const *ids;
  const char *const names[] = { "m", "unused", "x", "k", "k_2" };
  double slots[] = { 4.0, -100.0, 2.0, 3.0, 0.5 };
  guint n;

  g_assert_no_error (error);
  ids = qd_expr_get_identifiers (expr, &n);
  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpstr (ids[0], ==, "k");
  g_assert_cmpstr (ids[1], ==, "x");
  g_assert_cmpstr (ids[2], ==, "m");
  g_assert_cmpstr (ids[3], ==, "k_2");
  g_assert_null (ids[4]);
  g_assert_cmpstr (qd_expr_get_text (expr), ==, "k*x + x/m - k_2 + sin(x)");

  g_assert_true (qd_expr_bind (expr, names, G_N_ELEMENTS (names), &error));
  g_assert_no_error (error);
  g_assert_cmpfloat_with_epsilon (qd_expr_eval (expr, slots),
                                  3.0 * 2 + 2.0 / 4 - 0.5 + sin (2.0), 1e-15);

  /* Binding again to another order of names moves the slots. */
  {
    const char *const names2[] = { "k_2", "k", "x", "m" };
    double slots2[] = { 0.5, 3.0, 2.0, 4.0 };

    g_assert_true (qd_expr_bind (expr, names2, 4, &error));
    g_assert_cmpfloat_with_epsilon (qd_expr_eval (expr, slots2),
                                    3.0 * 2 + 2.0 / 4 - 0.5 + sin (2.0), 1e-15);
  }
}

static void
test_bind_unknown (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QdExpr) expr = qd_expr_parse ("R1 + 2*R2 + R2", &error);
  const char *const names[] = { "R1", "C" };

  g_assert_no_error (error);
  g_assert_false (qd_expr_bind (expr, names, 2, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_EXPR);
  g_assert_cmpstr (error->message, ==, "column 8: unknown name 'R2'");
}

static void
test_eval_string (void)
{
  g_autoptr(GError) error = NULL;
  double value = 0;

  g_assert_true (qd_expr_eval_string ("2*(3+4)", &value, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (value, ==, 14);

  g_assert_false (qd_expr_eval_string ("1 + tau", &value, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_EXPR);
  g_assert_cmpstr (error->message, ==, "column 5: unknown name 'tau'");
  g_clear_error (&error);

  g_assert_false (qd_expr_eval_string ("1 +", &value, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_SYNTAX);
  g_assert_cmpstr (error->message, ==, "column 4: unexpected end of the expression");
}

static void
test_valid_name (void)
{
  g_assert_true (qd_expr_is_valid_name ("k"));
  g_assert_true (qd_expr_is_valid_name ("_x1"));
  g_assert_true (qd_expr_is_valid_name ("R_load2"));
  g_assert_true (qd_expr_is_valid_name ("exp2"));
  g_assert_true (qd_expr_is_valid_name ("E"));
  g_assert_true (qd_expr_is_valid_name ("pie"));
  g_assert_false (qd_expr_is_valid_name (""));
  g_assert_false (qd_expr_is_valid_name (NULL));
  g_assert_false (qd_expr_is_valid_name ("1x"));
  g_assert_false (qd_expr_is_valid_name ("a b"));
  g_assert_false (qd_expr_is_valid_name ("a-b"));
  g_assert_false (qd_expr_is_valid_name ("pi"));
  g_assert_false (qd_expr_is_valid_name ("e"));
  g_assert_false (qd_expr_is_valid_name ("sin"));
  g_assert_false (qd_expr_is_valid_name ("atan2"));
  g_assert_false (qd_expr_is_valid_name ("min"));
  g_assert_false (qd_expr_is_valid_name ("λ"));
}

static void
test_errors (void)
{
  assert_parse_error ("", QD_ERROR_SYNTAX,
                      "column 1: the expression is empty: write a number or a formula");
  assert_parse_error ("  ", QD_ERROR_SYNTAX,
                      "column 1: the expression is empty: write a number or a formula");
  assert_parse_error ("2 +", QD_ERROR_SYNTAX,
                      "column 4: unexpected end of the expression");
  assert_parse_error ("1 + #", QD_ERROR_SYNTAX,
                      "column 5: unexpected character '#'");
  /* Columns count characters, not bytes. */
  assert_parse_error ("x·2", QD_ERROR_SYNTAX,
                      "column 2: unexpected character '·'");
  assert_parse_error ("π + $", QD_ERROR_SYNTAX,
                      "column 1: unexpected character 'π'");
  assert_parse_error ("((1+2)", QD_ERROR_SYNTAX,
                      "column 7: missing ')' to close the '(' at column 1");
  assert_parse_error ("3*sin(1", QD_ERROR_SYNTAX,
                      "column 8: missing ')' to close the '(' at column 6");
  assert_parse_error ("2*foo(3)", QD_ERROR_EXPR,
                      "column 3: unknown function 'foo'");
  assert_parse_error ("pi(2)", QD_ERROR_EXPR,
                      "column 1: 'pi' is a constant, not a function");
  assert_parse_error ("1 + sin(1, 2)", QD_ERROR_EXPR,
                      "column 5: sin takes 1 argument, not 2");
  assert_parse_error ("atan2(1)", QD_ERROR_EXPR,
                      "column 1: atan2 takes 2 arguments, not 1");
  assert_parse_error ("pow()", QD_ERROR_EXPR,
                      "column 1: pow takes 2 arguments, not 0");
  assert_parse_error ("max(x)", QD_ERROR_EXPR,
                      "column 1: max takes 2 or more arguments, not 1");
  assert_parse_error ("2 * cos", QD_ERROR_EXPR,
                      "column 5: 'cos' is a function: give its arguments in "
                      "parentheses, as in cos(x)");
  assert_parse_error ("x < 1", QD_ERROR_SYNTAX,
                      "column 3: '<' is not supported: expressions have no "
                      "comparisons, logic or conditions; use min, max, abs or "
                      "sign for piecewise functions");
  assert_parse_error ("x >= 1", QD_ERROR_SYNTAX,
                      "column 3: '>=' is not supported: expressions have no "
                      "comparisons, logic or conditions; use min, max, abs or "
                      "sign for piecewise functions");
  assert_parse_error ("a && b", QD_ERROR_SYNTAX,
                      "column 3: '&&' is not supported: expressions have no "
                      "comparisons, logic or conditions; use min, max, abs or "
                      "sign for piecewise functions");
  assert_parse_error ("x ? 1 : 0", QD_ERROR_SYNTAX,
                      "column 3: '?' is not supported: expressions have no "
                      "comparisons, logic or conditions; use min, max, abs or "
                      "sign for piecewise functions");
  assert_parse_error ("x = 1", QD_ERROR_SYNTAX,
                      "column 3: '=' is not supported: expressions have no "
                      "comparisons, logic or conditions; use min, max, abs or "
                      "sign for piecewise functions");
  assert_parse_error ("2**3", QD_ERROR_SYNTAX,
                      "column 2: '**' is not supported: write ^ for a power, as in x^2");
  assert_parse_error ("2 3", QD_ERROR_SYNTAX,
                      "column 3: expected an operator, found '3'");
  assert_parse_error ("2x", QD_ERROR_SYNTAX,
                      "column 2: expected an operator, found 'x'");
  assert_parse_error ("(2 y)", QD_ERROR_SYNTAX,
                      "column 4: expected an operator or ')', found 'y'");
  assert_parse_error ("min(1 2)", QD_ERROR_SYNTAX,
                      "column 7: expected an operator, ',' or ')', found '2'");
  assert_parse_error ("2*)", QD_ERROR_SYNTAX,
                      "column 3: expected a number, a name or '(', found ')'");
  assert_parse_error ("1)", QD_ERROR_SYNTAX,
                      "column 2: ')' without a matching '('");
  assert_parse_error ("1, 2", QD_ERROR_SYNTAX,
                      "column 2: ',' outside the arguments of a function");
  assert_parse_error ("1e+", QD_ERROR_SYNTAX,
                      "column 1: malformed number '1e': an exponent needs "
                      "digits, as in 1e-3");
}

/* A decimal comma ("0,5", as a Spanish or German keyboard types it) is
 * refused with the fix in plain words, at the number's column, also
 * where it would read as two arguments; a comma between arguments that
 * fit the function is still a separator. */
static void
test_decimal_comma (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QdExpr) expr = NULL;

  assert_parse_error ("0,5", QD_ERROR_SYNTAX,
                      "column 1: '0,5' is not a number: use a point as the "
                      "decimal separator: 0.5");
  assert_parse_error ("2*12,25 + 1", QD_ERROR_SYNTAX,
                      "column 3: '12,25' is not a number: use a point as the "
                      "decimal separator: 12.25");
  assert_parse_error ("(1 - 0,75)", QD_ERROR_SYNTAX,
                      "column 6: '0,75' is not a number: use a point as the "
                      "decimal separator: 0.75");
  assert_parse_error ("sin(0,5)", QD_ERROR_SYNTAX,
                      "column 5: '0,5' is not a number: use a point as the "
                      "decimal separator: 0.5");
  /* Not between digits: the comma is misplaced, not a decimal sign. */
  assert_parse_error ("x,5", QD_ERROR_SYNTAX,
                      "column 2: ',' outside the arguments of a function");
  expr = qd_expr_parse ("min(1,5)", &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (qd_expr_eval (expr, NULL), ==, 1.0);
}

static void
test_deep_nesting (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(QdExpr) expr = NULL;

  for (int i = 0; i < 100000; i++)
    g_string_append_c (text, '(');
  expr = qd_expr_parse (text->str, &error);
  g_assert_null (expr);
  g_assert_error (error, QD_ERROR, QD_ERROR_SYNTAX);
  g_assert_cmpstr (error->message, ==,
                   "column 201: the expression is nested too deeply");
}

/* Whole constant exponents are computed by multiplication; the results
 * must agree with pow (), including negative bases and exponents. */
static void
test_whole_powers (void)
{
  static const struct { const char *text; double expected; } cases[] = {
    { "x^2", 2.25 }, { "x^3", -3.375 }, { "x^0", 1 }, { "x^1", -1.5 },
    { "x^-2", 1 / 2.25 }, { "x^-3", -1 / 3.375 }, { "(x+3)^5", 7.59375 },
    { "2*x^2^2", 2 * 5.0625 }, { "-x^2", -2.25 },
  };
  const char *const names[] = { "x" };
  double x = -1.5;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(QdExpr) expr = qd_expr_parse (cases[i].text, NULL);

      g_assert_true (qd_expr_bind (expr, names, 1, NULL));
      g_assert_cmpfloat_with_epsilon (qd_expr_eval (expr, &x),
                                      cases[i].expected, 1e-14);
    }
  {
    g_autoptr(QdExpr) expr = qd_expr_parse ("x^64 + x^2.5", NULL);
    double y = 1.5;

    g_assert_true (qd_expr_bind (expr, names, 1, NULL));
    g_assert_cmpfloat_with_epsilon (qd_expr_eval (expr, &y) / (pow (1.5, 64) + pow (1.5, 2.5)),
                                    1.0, 1e-14);
    g_assert_true (isnan (qd_expr_eval (expr, &x)));
  }
}

/* Constant parts are folded, and repeated evaluation gives the same value
 * for a long chain of names (the stack is reused). */
static void
test_long_expression (void)
{
  g_autoptr(GString) text = g_string_new ("0");
  g_autoptr(QdExpr) expr = NULL;
  const char *const names[] = { "x" };
  double x = 0.5, sum = 0.0;

  for (int i = 1; i <= 200; i++)
    {
      g_string_append_printf (text, " + %d*x^%d", i, i % 5);
      sum += i * pow (x, i % 5);
    }
  expr = qd_expr_parse (text->str, NULL);
  g_assert_nonnull (expr);
  g_assert_true (qd_expr_bind (expr, names, 1, NULL));
  for (int k = 0; k < 3; k++)
    g_assert_cmpfloat_with_epsilon (qd_expr_eval (expr, &x), sum, 1e-10);
}

/* A plain literal reads to the same double as the parser gives, and
 * anything else is left to the parser. */
static void
test_parse_literal (void)
{
  static const char *const literals[] = {
    "1", "-0.5", " 1e-3 ", ".5", "2.5E+6", "-7e-310", "0.1", "123456789.123456789",
  };
  static const char *const others[] = {
    "", " ", "-", "1e", "1e+", "1.5.2", "1 2", "x", "2*3", "--1", "+1", "1e999", "1,",
  };

  for (guint i = 0; i < G_N_ELEMENTS (literals); i++)
    {
      double a = NAN, b = NAN;

      g_assert_true (qd_expr_parse_literal (literals[i], &a));
      g_assert_true (qd_expr_eval_string (literals[i], &b, NULL));
      g_assert_true (memcmp (&a, &b, sizeof a) == 0);
    }
  for (guint i = 0; i < G_N_ELEMENTS (others); i++)
    {
      double a = 42;

      g_assert_false (qd_expr_parse_literal (others[i], &a));
      g_assert_cmpfloat (a, ==, 42);
    }
}

/* A literal beyond the largest double is refused where it is written,
 * not left to turn a result into infinity or NaN at run time. */
static void
test_huge_literal (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QdExpr) expr = qd_expr_parse ("2 * -1e400*u0", &error);
  g_autoptr(QdExpr) largest = qd_expr_parse ("1.7976931348623157e308", NULL);

  g_assert_null (expr);
  g_assert_error (error, QD_ERROR, QD_ERROR_SYNTAX);
  g_assert_cmpstr (error->message, ==, "column 6: the number 1e400 is too large "
                   "for a double (at most about 1.8e308)");
  g_assert_nonnull (largest);
}

/* The names of a function parameter: inputs, their columns, and the
 * message for a name that is none of them, in its three forms. */
static void
test_function_names (void)
{
  g_autofree char *none = qd_expr_unknown_name_message ("2*t + k", "k", 0);
  g_autofree char *one = qd_expr_unknown_name_message ("u0 + k", "k", 1);
  g_autofree char *three = qd_expr_unknown_name_message ("uk + u1 + k", "k", 3);

  g_assert_cmpint (qd_expr_input_index ("u0"), ==, 0);
  g_assert_cmpint (qd_expr_input_index ("u12"), ==, 12);
  g_assert_cmpint (qd_expr_input_index ("u01"), ==, -1);
  g_assert_cmpint (qd_expr_input_index ("u"), ==, -1);
  g_assert_cmpint (qd_expr_input_index ("u1x"), ==, -1);
  g_assert_cmpint (qd_expr_input_index ("x1"), ==, -1);
  g_assert_cmpint (qd_expr_input_index ("u99999999999"), ==, G_MAXINT);
  /* Whole words only: "k" inside "uk" is not it. */
  g_assert_cmpint (qd_expr_name_column ("uk + u1 + k", "k"), ==, 11);
  g_assert_cmpint (qd_expr_name_column ("sin(θ) + k", "k"), ==, 10);
  g_assert_cmpint (qd_expr_name_column ("u0", "k"), ==, 1);
  g_assert_cmpstr (none, ==, "column 7: unknown name 'k': it is not t or a "
                   "model variable; define it in the model's variables");
  g_assert_cmpstr (one, ==, "column 6: unknown name 'k': it is not the input "
                   "u0, t or a model variable; define it in the model's "
                   "variables");
  g_assert_cmpstr (three, ==, "column 11: unknown name 'k': it is not an input "
                   "(u0 to u2), t or a model variable; define it in the "
                   "model's variables");
}

/* The elements of a vector parameter, as the document, the inspector and
 * the compiler all cut them: at the commas outside parentheses, each
 * element as written. */
static void
test_split_vector (void)
{
  static const struct { const char *text; const char *const elements[4]; } cases[] = {
    { "", { NULL } },
    { " \t ", { NULL } },
    { "1", { "1", NULL } },
    { "eps, alpha, -sigma", { "eps", " alpha", " -sigma", NULL } },
    { "max(a, b), 2", { "max(a, b)", " 2", NULL } },
    { "atan2(min(a, b), c),1 ,", { "atan2(min(a, b), c)", "1 ", "", NULL } },
    { "a), (b, c", { "a)", " (b, c", NULL } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(GStrv) elements = qd_expr_split_vector (cases[i].text);

      g_test_message ("'%s'", cases[i].text);
      g_assert_true (g_strv_equal ((const char *const *) elements,
                                   cases[i].elements));
    }
}

/* Which formulas have an operand to watch for zeros (NLFunction keeps
 * the static fast path for the others), and where the first one is:
 * u0 = 1 - s, u1 = 2 + s; k is a model variable (a constant). */
static void
test_singularities (void)
{
  static const struct { const char *text; double zero; } cases[] = {
    { "2*u0 + sin(u1) - u0^3", QD_INF },
    { "u0/k + exp(u0) + abs(u0)", QD_INF },
    { "u0^2.0 * pow(u1, 3)", QD_INF },
    { "1/u0", 1.0 },
    { "u1/(u0 - 0.5)", 0.5 },
    { "log(4 - u1)", 2.0 },
    { "sqrt(u1) + log10(u0 + 1)", 2.0 },
    { "u0^-1", 1.0 },
    { "u0^0 + pow(u1, 0)", QD_INF },
    { "u0^k", 1.0 },               /* k = 0.5: the base matters */
  };
  static const char *const names[] = { "u0", "u1", "k" };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(QdExpr) expr = qd_expr_parse (cases[i].text, &error);
      QdTaylor slots[3] = { { { 1, -1, 0, 0 } }, { { 2, 1, 0, 0 } },
                            { { 0.5, 0, 0, 0 } } };
      QdTaylor out;
      QdExprDomain domain;
      double zero;

      g_assert_no_error (error);
      g_assert_true (qd_expr_bind (expr, names, 3, &error));
      qd_expr_set_slot_constant (expr, 2, 0.5);
      qd_expr_eval_taylor (expr, slots, 1, &out);
      zero = qd_expr_next_singularity (expr, &domain);
      g_test_message ("%s: %g", cases[i].text, zero);
      g_assert_cmpint (qd_expr_has_singularities (expr), ==,
                       cases[i].zero < QD_INF);
      if (cases[i].zero < QD_INF)
        {
          g_assert_cmpfloat (fabs (zero - cases[i].zero), <, 1e-12);
          g_assert_cmpint (domain, !=, QD_EXPR_DOMAIN_NONE);
        }
      g_assert_cmpint (qd_expr_get_domain_error (expr, NULL), ==,
                       QD_EXPR_DOMAIN_NONE);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/expr/precedence", test_precedence);
  g_test_add_func ("/expr/singularities", test_singularities);
  g_test_add_func ("/expr/numbers", test_numbers);
  g_test_add_func ("/expr/functions", test_functions);
  g_test_add_func ("/expr/constants", test_constants);
  g_test_add_func ("/expr/is-constant", test_is_constant);
  g_test_add_func ("/expr/identifiers-and-bind", test_identifiers_and_bind);
  g_test_add_func ("/expr/bind-unknown", test_bind_unknown);
  g_test_add_func ("/expr/eval-string", test_eval_string);
  g_test_add_func ("/expr/valid-name", test_valid_name);
  g_test_add_func ("/expr/errors", test_errors);
  g_test_add_func ("/expr/decimal-comma", test_decimal_comma);
  g_test_add_func ("/expr/whole-powers", test_whole_powers);
  g_test_add_func ("/expr/deep-nesting", test_deep_nesting);
  g_test_add_func ("/expr/long-expression", test_long_expression);

  g_test_add_func ("/expr/parse-literal", test_parse_literal);
  g_test_add_func ("/expr/function-names", test_function_names);
  g_test_add_func ("/expr/huge-literal", test_huge_literal);
  g_test_add_func ("/expr/split-vector", test_split_vector);

  return g_test_run ();
}

/* test-taylor.c: truncated Taylor arithmetic against analytic series
 *
 * For a smooth f and an input u(s) = a + b s + c s^2 + d s^3, the chain
 * rule (Faa di Bruno) gives the coefficients of f(u(s)) from f's own
 * derivatives at a:
 *
 *   r0 = f(a)
 *   r1 = f'(a) b
 *   r2 = f'(a) c + f''(a) b^2 / 2
 *   r3 = f'(a) d + f''(a) b c + f'''(a) b^3 / 6
 *
 * The derivatives of each function are written out by hand below, so the
 * reference does not share any code with the recurrences under test. A
 * composite expression is checked against Cauchy's integral formula,
 * evaluated with complex arithmetic on a circle: a numerically independent
 * method that is accurate to rounding.
 */
#include <complex.h>
#include <math.h>
#include <string.h>

#include "qd-test-util.h"

#define REL_TOL 1e-12

static void
assert_coeffs (const char     *what,
               const QdTaylor *got,
               const double   *expected,
               int             n)
{
  for (int k = 0; k <= QD_MAX_ORDER; k++)
    {
      double want = k <= n ? expected[k] : 0.0;
      double tol = REL_TOL * MAX (fabs (want), 1e-3);

      if (!(fabs (got->c[k] - want) <= tol))
        g_error ("%s (order %d): c[%d] = %.17g, expected %.17g",
                 what, n, k, got->c[k], want);
    }
}

/* Derivatives f, f', f'', f''' at x. */
typedef void (*Derivs) (double x, double *f);

static void d_sin (double x, double *f) { f[0] = sin (x); f[1] = cos (x); f[2] = -sin (x); f[3] = -cos (x); }
static void d_cos (double x, double *f) { f[0] = cos (x); f[1] = -sin (x); f[2] = -cos (x); f[3] = sin (x); }
static void d_exp (double x, double *f) { f[0] = f[1] = f[2] = f[3] = exp (x); }
static void d_log (double x, double *f) { f[0] = log (x); f[1] = 1 / x; f[2] = -1 / (x * x); f[3] = 2 / (x * x * x); }
static void d_log10 (double x, double *f) { d_log (x, f); f[0] = log10 (x); for (int k = 1; k < 4; k++) f[k] /= log (10.0); }
static void d_sqrt (double x, double *f) { double r = sqrt (x); f[0] = r; f[1] = 0.5 / r; f[2] = -0.25 / (x * r); f[3] = 0.375 / (x * x * r); }
static void
d_tan (double x, double *f)
{
  double t = tan (x), s2 = 1 + t * t;

  f[0] = t;
  f[1] = s2;
  f[2] = 2 * t * s2;
  f[3] = s2 * (2 + 6 * t * t);
}
static void
d_asin (double x, double *f)
{
  double q = 1 - x * x;

  f[0] = asin (x);
  f[1] = 1 / sqrt (q);
  f[2] = x / pow (q, 1.5);
  f[3] = (1 + 2 * x * x) / pow (q, 2.5);
}
static void d_acos (double x, double *f) { d_asin (x, f); f[0] = acos (x); for (int k = 1; k < 4; k++) f[k] = -f[k]; }
static void
d_atan (double x, double *f)
{
  double q = 1 + x * x;

  f[0] = atan (x);
  f[1] = 1 / q;
  f[2] = -2 * x / (q * q);
  f[3] = (6 * x * x - 2) / (q * q * q);
}
static void d_sinh (double x, double *f) { f[0] = sinh (x); f[1] = cosh (x); f[2] = sinh (x); f[3] = cosh (x); }
static void d_cosh (double x, double *f) { f[0] = cosh (x); f[1] = sinh (x); f[2] = cosh (x); f[3] = sinh (x); }
static void
d_tanh (double x, double *f)
{
  double t = tanh (x), s = 1 - t * t;

  f[0] = t;
  f[1] = s;
  f[2] = -2 * t * s;
  f[3] = s * (6 * t * t - 2);
}
static void d_recip (double x, double *f) { f[0] = 1 / x; f[1] = -1 / (x * x); f[2] = 2 / (x * x * x); f[3] = -6 / (x * x * x * x); }

static double pow_alpha;
static void
d_pow (double x, double *f)
{
  double a = pow_alpha;

  f[0] = pow (x, a);
  f[1] = a * pow (x, a - 1);
  f[2] = a * (a - 1) * pow (x, a - 2);
  f[3] = a * (a - 1) * (a - 2) * pow (x, a - 3);
}

static void
chain_rule (Derivs        derivs,
            const double *u,
            double       *r)
{
  double f[4];

  derivs (u[0], f);
  r[0] = f[0];
  r[1] = f[1] * u[1];
  r[2] = f[1] * u[2] + f[2] * u[1] * u[1] / 2;
  r[3] = f[1] * u[3] + f[2] * u[1] * u[2] + f[3] * u[1] * u[1] * u[1] / 6;
}

typedef void (*Unary) (QdTaylor *r, const QdTaylor *a, int n);

static void
check_unary (const char *name,
             Unary       fn,
             Derivs      derivs,
             const double *u)
{
  for (int n = 0; n <= 3; n++)
    {
      QdTaylor in = { { 0 } }, out;
      double expected[4];
      double ut[4] = { 0 };

      /* The input as a segment of order n: higher coefficients zero. */
      for (int k = 0; k <= n; k++)
        in.c[k] = ut[k] = u[k];
      chain_rule (derivs, ut, expected);
      fn (&out, &in, n);
      assert_coeffs (name, &out, expected, n);

      /* In place, as the expression stack uses it. */
      fn (&in, &in, n);
      assert_coeffs (name, &in, expected, n);
    }
}

/* The textbook example, written out: sin(a + b s). */
static void
test_sin_linear (void)
{
  double a = 0.7, b = -1.3;
  QdTaylor u = { { a, b, 0, 0 } }, r;
  double expected[4] = {
    sin (a), b * cos (a), -b * b * sin (a) / 2, -b * b * b * cos (a) / 6,
  };

  qd_taylor_sin (&r, &u, 3);
  assert_coeffs ("sin", &r, expected, 3);
}

/* exp(a + b s + c s^2) = e^a (1 + b s + (c + b^2/2) s^2 + (b c + b^3/6) s^3). */
static void
test_exp_quadratic (void)
{
  double a = -0.4, b = 0.9, c = 1.7;
  QdTaylor u = { { a, b, c, 0 } }, r;
  double ea = exp (a);
  double expected[4] = {
    ea, ea * b, ea * (c + b * b / 2), ea * (b * c + b * b * b / 6),
  };

  qd_taylor_exp (&r, &u, 3);
  assert_coeffs ("exp", &r, expected, 3);
}

static void
test_unary_functions (void)
{
  const double cubic[4] = { 0.4, -0.8, 0.35, 1.1 };
  const double positive[4] = { 2.3, 0.7, -0.45, 0.2 };
  const double small[4] = { 0.3, 0.25, -0.15, 0.1 };

  check_unary ("sin", qd_taylor_sin, d_sin, cubic);
  check_unary ("cos", qd_taylor_cos, d_cos, cubic);
  check_unary ("tan", qd_taylor_tan, d_tan, cubic);
  check_unary ("exp", qd_taylor_exp, d_exp, cubic);
  check_unary ("log", qd_taylor_log, d_log, positive);
  check_unary ("log10", qd_taylor_log10, d_log10, positive);
  check_unary ("sqrt", qd_taylor_sqrt, d_sqrt, positive);
  check_unary ("asin", qd_taylor_asin, d_asin, small);
  check_unary ("acos", qd_taylor_acos, d_acos, small);
  check_unary ("atan", qd_taylor_atan, d_atan, cubic);
  check_unary ("sinh", qd_taylor_sinh, d_sinh, cubic);
  check_unary ("cosh", qd_taylor_cosh, d_cosh, cubic);
  check_unary ("tanh", qd_taylor_tanh, d_tanh, cubic);
}

static void
test_sincos_jointly (void)
{
  QdTaylor u = { { 1.2, 0.5, -0.3, 0.8 } }, s, c;
  double es[4], ec[4];

  chain_rule (d_sin, u.c, es);
  chain_rule (d_cos, u.c, ec);
  qd_taylor_sincos (&s, &c, &u, 3);
  assert_coeffs ("sincos/sin", &s, es, 3);
  assert_coeffs ("sincos/cos", &c, ec, 3);
  qd_taylor_sinhcosh (&s, &c, &u, 3);
  chain_rule (d_sinh, u.c, es);
  chain_rule (d_cosh, u.c, ec);
  assert_coeffs ("sinhcosh/sinh", &s, es, 3);
  assert_coeffs ("sinhcosh/cosh", &c, ec, 3);
}

static void
pow_const_fn (QdTaylor *r, const QdTaylor *a, int n)
{
  qd_taylor_pow_const (r, a, pow_alpha, n);
}

static void
test_powers (void)
{
  const double positive[4] = { 1.6, -0.7, 0.45, 0.3 };
  const double negative[4] = { -1.4, 0.6, 0.2, -0.5 };
  const double alphas[] = { 2.5, -1.5, 0.5, 1.0 / 3.0, 3, -2, 0, 1, 7 };
  const double whole[] = { 2, 3, -1, -3, 5 };

  for (guint i = 0; i < G_N_ELEMENTS (alphas); i++)
    {
      pow_alpha = alphas[i];
      check_unary ("pow_const", pow_const_fn, d_pow, positive);
    }
  /* Whole exponents of a negative base are defined. */
  for (guint i = 0; i < G_N_ELEMENTS (whole); i++)
    {
      pow_alpha = whole[i];
      check_unary ("pow_const (negative base)", pow_const_fn, d_pow, negative);
    }
  pow_alpha = -1;
  check_unary ("1/u via pow", pow_const_fn, d_recip, positive);
}

/* Whole powers stay exact where u(t0) = 0: (2s + s^2)^2 = 4s^2 + 4s^3 + ... */
static void
test_power_at_zero (void)
{
  QdTaylor u = { { 0, 2, 1, 0 } }, r;
  const double sq[4] = { 0, 0, 4, 4 };
  const double cube[4] = { 0, 0, 0, 8 };

  qd_taylor_pow_const (&r, &u, 2, 3);
  assert_coeffs ("u^2 at 0", &r, sq, 3);
  qd_taylor_pow_const (&r, &u, 3, 3);
  assert_coeffs ("u^3 at 0", &r, cube, 3);
  qd_taylor_sqrt (&r, &(QdTaylor) { { 0 } }, 3);
  assert_coeffs ("sqrt(0)", &r, (double[4]) { 0 }, 3);
}

/* 2^u = exp(u ln 2); u^u for u = a + b s, from the derivatives of
 * g(x) = x^x: g' = g (L), g'' = g (L^2 + 1/x), g''' = g (L^3 + 3L/x - 1/x^2)
 * with L = log x + 1. */
static void
test_series_exponent (void)
{
  double a = 1.3, b = 0.6;
  QdTaylor u = { { a, b, 0, 0 } }, two, r;
  double g = pow (a, a), L = log (a) + 1;
  double expected[4] = {
    g,
    g * L * b,
    g * (L * L + 1 / a) * b * b / 2,
    g * (L * L * L + 3 * L / a - 1 / (a * a)) * b * b * b / 6,
  };
  double l2 = log (2.0), e2[4];

  qd_taylor_pow (&r, &u, &u, 3);
  assert_coeffs ("u^u", &r, expected, 3);

  qd_taylor_constant (&two, 2.0);
  qd_taylor_pow (&r, &two, &u, 3);
  e2[0] = pow (2, a);
  e2[1] = e2[0] * l2 * b;
  e2[2] = e2[0] * l2 * l2 * b * b / 2;
  e2[3] = e2[0] * l2 * l2 * l2 * b * b * b / 6;
  assert_coeffs ("2^u", &r, e2, 3);
}

/* Products and quotients of polynomials, expanded by hand. */
static void
test_mul_div (void)
{
  /* (1 + 2s - s^2)(3 - s + 4s^3) = 3 + 5s - 5s^2 + 5s^3 + ... */
  QdTaylor p = { { 1, 2, -1, 0 } }, q = { { 3, -1, 0, 4 } }, r;
  const double prod[4] = { 3, 5, -5, 5 };
  /* 1/(1 - s) = 1 + s + s^2 + s^3; (1 + 2s)/(1 - s) = 1 + 3s + 3s^2 + 3s^3 */
  QdTaylor one = { { 1, 0, 0, 0 } }, den = { { 1, -1, 0, 0 } }, num = { { 1, 2, 0, 0 } };
  const double geo[4] = { 1, 1, 1, 1 };
  const double quot[4] = { 1, 3, 3, 3 };
  /* 1/(a + b s) = 1/a - b/a^2 s + b^2/a^3 s^2 - b^3/a^4 s^3 */
  double a = 2.5, b = -0.8;
  QdTaylor lin = { { a, b, 0, 0 } };
  const double recip[4] = { 1 / a, -b / (a * a), b * b / (a * a * a), -b * b * b / (a * a * a * a) };

  for (int n = 0; n <= 3; n++)
    {
      qd_taylor_mul (&r, &p, &q, n);
      assert_coeffs ("product", &r, prod, n);
      qd_taylor_div (&r, &one, &den, n);
      assert_coeffs ("geometric", &r, geo, n);
      qd_taylor_div (&r, &num, &den, n);
      assert_coeffs ("quotient", &r, quot, n);
      qd_taylor_div (&r, &one, &lin, n);
      assert_coeffs ("reciprocal", &r, recip, n);
    }
  /* Division undoes multiplication. */
  qd_taylor_mul (&r, &p, &q, 3);
  qd_taylor_div (&r, &r, &q, 3);
  assert_coeffs ("(p q)/q", &r, (double[4]) { 1, 2, -1, 0 }, 3);
}

/* atan2(k sin u, k cos u) = u (in the principal range), for any k > 0. */
static void
test_atan2 (void)
{
  QdTaylor u = { { 2.9, 0.8, -0.6, 0.3 } }, s, c, r;

  qd_taylor_sincos (&s, &c, &u, 3);
  qd_taylor_scale (&s, &s, 3.5, 3);
  qd_taylor_scale (&c, &c, 3.5, 3);
  qd_taylor_atan2 (&r, &s, &c, 3);
  assert_coeffs ("atan2", &r, u.c, 3);

  /* atan2(y, x) = atan(y/x) for x > 0: y = 0.5 + s, x = 2 - s. */
  {
    QdTaylor y = { { 0.5, 1, 0, 0 } }, x = { { 2, -1, 0, 0 } }, q, ref;

    qd_taylor_div (&q, &y, &x, 3);
    qd_taylor_atan (&ref, &q, 3);
    qd_taylor_atan2 (&r, &y, &x, 3);
    assert_coeffs ("atan2 vs atan", &r, ref.c, 3);
  }
}

/* Piecewise functions take the branch that holds just after t0. */
static void
test_piecewise (void)
{
  QdTaylor r;
  QdTaylor a = { { 1, 1, 1, 0 } }, b = { { 1, 1, 0, -1 } };

  qd_taylor_min (&r, &a, &b, 3);
  assert_coeffs ("min", &r, b.c, 3);
  qd_taylor_max (&r, &a, &b, 3);
  assert_coeffs ("max", &r, a.c, 3);
  qd_taylor_min (&r, &a, &b, 1);           /* equal to order 1 */
  assert_coeffs ("min order 1", &r, (double[4]) { 1, 1 }, 1);
  qd_taylor_min (&r, &(QdTaylor) { { 2, -5 } }, &(QdTaylor) { { 1, 9 } }, 1);
  assert_coeffs ("min by value", &r, (double[4]) { 1, 9 }, 1);

  qd_taylor_abs (&r, &(QdTaylor) { { -1, 1, 0, 2 } }, 3);
  assert_coeffs ("abs negative", &r, (double[4]) { 1, -1, 0, -2 }, 3);
  qd_taylor_abs (&r, &(QdTaylor) { { 0, -2, 1, 0 } }, 3);
  assert_coeffs ("abs at 0, falling", &r, (double[4]) { 0, 2, -1, 0 }, 3);
  qd_taylor_abs (&r, &(QdTaylor) { { 0, 0, 3, -1 } }, 3);
  assert_coeffs ("abs at 0, rising", &r, (double[4]) { 0, 0, 3, -1 }, 3);

  qd_taylor_sign (&r, &(QdTaylor) { { 0, -1 } }, 1);
  assert_coeffs ("sign at 0, falling", &r, (double[4]) { -1 }, 1);
  qd_taylor_sign (&r, &(QdTaylor) { { 0, 0, 2 } }, 2);
  assert_coeffs ("sign at 0, rising", &r, (double[4]) { 1 }, 2);
  qd_taylor_sign (&r, &(QdTaylor) { { 0 } }, 3);
  assert_coeffs ("sign of 0", &r, (double[4]) { 0 }, 3);
  qd_taylor_sign (&r, &(QdTaylor) { { -0.1, 5, 5, 5 } }, 3);
  assert_coeffs ("sign negative", &r, (double[4]) { -1 }, 3);

  qd_taylor_floor (&r, &(QdTaylor) { { 2.5, 1 } }, 1);
  assert_coeffs ("floor", &r, (double[4]) { 2 }, 1);
  qd_taylor_floor (&r, &(QdTaylor) { { 2, -1 } }, 1);
  assert_coeffs ("floor at a step, falling", &r, (double[4]) { 1 }, 1);
  qd_taylor_floor (&r, &(QdTaylor) { { 2, -1 } }, 0);
  assert_coeffs ("floor order 0", &r, (double[4]) { 2 }, 0);
  qd_taylor_ceil (&r, &(QdTaylor) { { 2, 0, 1 } }, 2);
  assert_coeffs ("ceil at a step, rising", &r, (double[4]) { 3 }, 2);
  qd_taylor_ceil (&r, &(QdTaylor) { { -2.5, 3 } }, 1);
  assert_coeffs ("ceil", &r, (double[4]) { -2 }, 1);
}

/* The composite f(s) = sin(u0) exp(-u1) / (1 + u0^2), through the
 * expression evaluator, against Cauchy's formula
 *   c_k = 1/(2 pi i) \oint f(z) / z^(k+1) dz
 *       ~ 1/(N r^k) sum_j f(r w^j) w^(-jk),  w = exp(2 pi i / N),
 * whose error is rounding plus aliasing c_(k+N) r^N, negligible here: the
 * nearest singularity (1 + u0^2 = 0) is about 1.4 away and r = 0.3. */
static double complex
composite (double complex s,
           const double  *u0,
           const double  *u1)
{
  double complex x = u0[0] + s * (u0[1] + s * (u0[2] + s * u0[3]));
  double complex y = u1[0] + s * (u1[1] + s * (u1[2] + s * u1[3]));

  return csin (x) * cexp (-y) / (1 + x * x);
}

static void
test_composite (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QdExpr) expr = qd_expr_parse ("sin(u0)*exp(-u1)/(1+u0^2)", &error);
  const char *const names[] = { "u0", "u1" };
  const double u0[4] = { 0.3, 0.7, -0.4, 0.25 };
  const double u1[4] = { -0.2, 1.1, 0.5, -0.3 };
  QdTaylor slots[2], out;
  const int N = 64;
  const double r = 0.3;
  double ref[4];

  g_assert_no_error (error);
  g_assert_true (qd_expr_bind (expr, names, 2, &error));

  for (int k = 0; k <= 3; k++)
    {
      double complex sum = 0;

      for (int j = 0; j < N; j++)
        {
          double complex w = cexp (2 * G_PI * I * j / N);

          sum += composite (r * w, u0, u1) * cexp (-2 * G_PI * I * j * k / N);
        }
      ref[k] = creal (sum) / (N * pow (r, k));
    }

  for (int n = 0; n <= 3; n++)
    {
      for (int k = 0; k <= 3; k++)
        {
          slots[0].c[k] = k <= n ? u0[k] : 0.0;
          slots[1].c[k] = k <= n ? u1[k] : 0.0;
        }
      /* The reference is for the full cubic inputs; at lower orders the
       * missing input terms do not affect coefficients up to n. */
      qd_expr_eval_taylor (expr, slots, n, &out);
      assert_coeffs ("composite", &out, ref, n);
    }

  /* The plain evaluation agrees with the order 0 coefficient. */
  {
    double x[2] = { u0[0], u1[0] };

    g_assert_cmpfloat_with_epsilon (qd_expr_eval (expr, x), ref[0], 1e-14);
  }
}

/* Through the expression: every operator and function in one pass, with a
 * slot of higher order than requested (it must be truncated), and constant
 * subexpressions folded. */
static void
test_expr_taylor (void)
{
  g_autoptr(QdExpr) expr = qd_expr_parse ("2*u^2 - u/4 + 3 + 0*sin(1)", NULL);
  const char *const names[] = { "u" };
  QdTaylor u = { { 1, 1, 1, 1 } }, out;

  g_assert_nonnull (expr);
  g_assert_true (qd_expr_bind (expr, names, 1, NULL));
  /* u truncated to order 1: 1 + s; 2(1 + s)^2 - (1 + s)/4 + 3 */
  qd_expr_eval_taylor (expr, &u, 1, &out);
  assert_coeffs ("expr order 1", &out, (double[4]) { 4.75, 3.75 }, 1);
  /* order 3: u = 1 + s + s^2 + s^3, u^2 = 1 + 2s + 3s^2 + 4s^3 */
  qd_expr_eval_taylor (expr, &u, 3, &out);
  assert_coeffs ("expr order 3", &out,
                 (double[4]) { 4.75, 3.75, 5.75, 7.75 }, 3);

  /* Whole and fractional constant exponents through the expression:
   * u^-2 + u^3 - u^0.5 against the chain rule. */
  {
    g_autoptr(QdExpr) e = qd_expr_parse ("u^-2 + u^3 - u^0.5", NULL);
    QdTaylor v = { { 1.7, -0.6, 0.3, 0.45 } };
    const double alphas[] = { -2, 3, 0.5 }, signs[] = { 1, 1, -1 };
    double expected[4] = { 0 };

    for (guint i = 0; i < G_N_ELEMENTS (alphas); i++)
      {
        double part[4];

        pow_alpha = alphas[i];
        chain_rule (d_pow, v.c, part);
        for (int k = 0; k < 4; k++)
          expected[k] += signs[i] * part[k];
      }
    g_assert_true (qd_expr_bind (e, names, 1, NULL));
    qd_expr_eval_taylor (e, &v, 3, &out);
    assert_coeffs ("u^-2 + u^3 - u^0.5", &out, expected, 3);
  }

  /* A constant expression has zero higher coefficients. */
  {
    g_autoptr(QdExpr) c = qd_expr_parse ("pi/2", NULL);

    qd_expr_eval_taylor (c, NULL, 3, &out);
    assert_coeffs ("constant", &out, (double[4]) { G_PI / 2 }, 3);
  }

  /* t as a slot: sin(w t) at t0 = 0.5 gives the chain rule with b = w. */
  {
    g_autoptr(QdExpr) e = qd_expr_parse ("sin(w*t) + pow(t, 3)", NULL);
    const char *const n2[] = { "t", "w" };
    QdTaylor s[2] = { { { 0.5, 1 } }, { { 2.0 } } };
    double w = 2.0, t0 = 0.5;
    double expected[4] = {
      sin (w * t0) + t0 * t0 * t0,
      w * cos (w * t0) + 3 * t0 * t0,
      -w * w * sin (w * t0) / 2 + 3 * t0,
      -w * w * w * cos (w * t0) / 6 + 1,
    };

    g_assert_true (qd_expr_bind (e, n2, 2, NULL));
    qd_expr_eval_taylor (e, s, 3, &out);
    assert_coeffs ("sin(w t) + t^3", &out, expected, 3);
  }
}

/* Every function of the expression language through the compiled Taylor
 * program, against the chain rule: "f(u)" alone, and "k*f(u) - c" with k
 * and c declared constant (the program scales and shifts the series
 * inline). The input carries nonzero coefficients above the order asked
 * for, which must not be read. */
static void
test_expr_functions (void)
{
  static const double cubic[4] = { 0.4, -0.8, 0.35, 1.1 };
  static const double positive[4] = { 2.3, 0.7, -0.45, 0.2 };
  static const double small[4] = { 0.3, 0.25, -0.15, 0.1 };
  static const struct
  {
    const char   *name;
    Derivs        derivs;
    const double *u;
  } fns[] = {
    { "sin", d_sin, cubic },
    { "cos", d_cos, cubic },
    { "tan", d_tan, cubic },
    { "exp", d_exp, cubic },
    { "log", d_log, positive },
    { "log10", d_log10, positive },
    { "sqrt", d_sqrt, positive },
    { "asin", d_asin, small },
    { "acos", d_acos, small },
    { "atan", d_atan, cubic },
    { "sinh", d_sinh, cubic },
    { "cosh", d_cosh, cubic },
    { "tanh", d_tanh, cubic },
  };
  const char *const names[] = { "u", "k", "c" };
  const double k = -1.75, c = 0.625;

  for (guint i = 0; i < G_N_ELEMENTS (fns); i++)
    {
      g_autofree char *plain_text = g_strdup_printf ("%s(u)", fns[i].name);
      g_autofree char *scaled_text = g_strdup_printf ("k*%s(u) - c",
                                                      fns[i].name);
      g_autoptr(QdExpr) plain = qd_expr_parse (plain_text, NULL);
      g_autoptr(QdExpr) scaled = qd_expr_parse (scaled_text, NULL);

      g_assert_true (qd_expr_bind (plain, names, 3, NULL));
      g_assert_true (qd_expr_bind (scaled, names, 3, NULL));
      qd_expr_set_slot_constant (scaled, 1, k);
      qd_expr_set_slot_constant (scaled, 2, c);
      for (int n = 0; n <= 3; n++)
        {
          QdTaylor slots[3] = { { { 0 } } }, out;
          double ut[4] = { 0 }, expected[4];

          for (int j = 0; j <= 3; j++)
            {
              slots[0].c[j] = j <= n ? fns[i].u[j] : 100.0 + j;
              ut[j] = j <= n ? fns[i].u[j] : 0.0;
            }
          chain_rule (fns[i].derivs, ut, expected);
          qd_expr_eval_taylor (plain, slots, n, &out);
          assert_coeffs (plain_text, &out, expected, n);

          /* The constant slots are not read: leave garbage in them. */
          slots[1].c[0] = slots[2].c[0] = 1e300;
          for (int j = 0; j <= 3; j++)
            expected[j] *= k;
          expected[0] -= c;
          qd_expr_eval_taylor (scaled, slots, n, &out);
          assert_coeffs (scaled_text, &out, expected, n);
        }
    }

  /* Whole powers, done as products in the program, and a product of
   * series, against the chain rule for u^m. */
  for (int m = 1; m <= 5; m++)
    {
      g_autofree char *text = g_strdup_printf ("u^%d", m);
      g_autoptr(QdExpr) e = qd_expr_parse (text, NULL);
      g_autoptr(QdExpr) prod = qd_expr_parse ("u*u*u", NULL);
      const double u[4] = { -1.3, 0.9, 0.4, -0.7 };
      QdTaylor slot = { { u[0], u[1], u[2], u[3] } }, out;
      double expected[4];

      pow_alpha = m;
      chain_rule (d_pow, u, expected);
      g_assert_true (qd_expr_bind (e, names, 1, NULL));
      qd_expr_eval_taylor (e, &slot, 3, &out);
      assert_coeffs (text, &out, expected, 3);

      pow_alpha = 3;
      chain_rule (d_pow, u, expected);
      g_assert_true (qd_expr_bind (prod, names, 1, NULL));
      qd_expr_eval_taylor (prod, &slot, 3, &out);
      assert_coeffs ("u*u*u", &out, expected, 3);
    }
}

/* Declaring a slot constant changes how the program computes (a scaling
 * instead of a product of series, a shift instead of a sum), never the
 * result: the same bits as with the value passed in the slot, at every
 * order. The expressions cover each inline operation with the constant on
 * either side, folding of constants into constants, and the powers. */
static void
test_expr_slot_constants (void)
{
  static const char *const texts[] = {
    "k*u - u*k",
    "(u + k) - (k - u) + (u - k) + (k + u)",
    "-u*k + k*(u + k)^3 - (u/k)^4 + (k*k - 1)*u^2",
    "(u - v)*k - m*v*(v - a)*(v - 1)",
    "sin(k*u) + exp(u - k) * cos(v + k^2) / (1 + u^2)",
    "min(u, k) + max(k*v, u) + abs(u - k) + atan2(u, k)",
    "sqrt(k*k + u*u) + log(k) * v - pow(u, k)",
    "k",
    "u",
  };
  const char *const names[] = { "u", "v", "k", "m", "a" };
  const double values[5][4] = {
    { 0.7, -0.3, 0.25, 0.125 },
    { -0.4, 0.6, -0.2, 0.05 },
    { 1.5 }, { 1000.0 }, { 0.5 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (texts); i++)
    {
      g_autoptr(QdExpr) series = qd_expr_parse (texts[i], NULL);
      g_autoptr(QdExpr) fixed = qd_expr_parse (texts[i], NULL);
      QdTaylor *own;

      g_assert_true (qd_expr_bind (series, names, 5, NULL));
      g_assert_true (qd_expr_bind (fixed, names, 5, NULL));
      for (guint s = 2; s < 5; s++)
        qd_expr_set_slot_constant (fixed, s, values[s][0]);
      /* The fixed expression reads its own slots, filled in place. */
      own = qd_expr_get_taylor_slots (fixed);
      g_assert_nonnull (own);

      for (int n = 0; n <= 3; n++)
        {
          QdTaylor slots[5] = { { { 0 } } }, a, b;

          for (guint s = 0; s < 5; s++)
            memcpy (slots[s].c, values[s], sizeof slots[s].c);
          memcpy (own, slots, sizeof slots);
          qd_expr_eval_taylor (series, slots, n, &a);
          qd_expr_eval_taylor (fixed, own, n, &b);
          for (int j = 0; j <= 3; j++)
            if (memcmp (&a.c[j], &b.c[j], sizeof (double)) != 0)
              g_error ("%s (order %d): c[%d] = %.17g with the constants "
                       "in slots, %.17g with them declared", texts[i], n, j,
                       a.c[j], b.c[j]);
          /* Above the order, zeros. */
          for (int j = n + 1; j <= 3; j++)
            g_assert_cmpfloat (b.c[j], ==, 0.0);
        }
    }

  /* The values are folded: changing the slot afterwards does nothing,
   * declaring it again does. */
  {
    g_autoptr(QdExpr) e = qd_expr_parse ("k*u + k", NULL);
    QdTaylor slots[3] = { { { 2.0, 1.0 } }, { { 0 } }, { { 5.0 } } }, out;

    g_assert_true (qd_expr_bind (e, names + 1, 2, NULL) == FALSE);
    g_assert_true (qd_expr_bind (e, (const char *const[]) { "u", "x", "k" },
                                 3, NULL));
    qd_expr_set_slot_constant (e, 2, 3.0);
    qd_expr_eval_taylor (e, slots, 1, &out);
    assert_coeffs ("k*u + k, k = 3", &out, (double[4]) { 9.0, 3.0 }, 1);
    qd_expr_set_slot_constant (e, 2, -1.0);
    qd_expr_eval_taylor (e, slots, 1, &out);
    assert_coeffs ("k*u + k, k = -1", &out, (double[4]) { -3.0, -1.0 }, 1);
    /* Binding again forgets the declaration: k is read from its slot. */
    g_assert_true (qd_expr_bind (e, (const char *const[]) { "u", "x", "k" },
                                 3, NULL));
    qd_expr_eval_taylor (e, slots, 1, &out);
    assert_coeffs ("k*u + k, k in the slot", &out,
                   (double[4]) { 15.0, 5.0 }, 1);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/taylor/sin-linear", test_sin_linear);
  g_test_add_func ("/taylor/exp-quadratic", test_exp_quadratic);
  g_test_add_func ("/taylor/unary-functions", test_unary_functions);
  g_test_add_func ("/taylor/sincos-jointly", test_sincos_jointly);
  g_test_add_func ("/taylor/powers", test_powers);
  g_test_add_func ("/taylor/power-at-zero", test_power_at_zero);
  g_test_add_func ("/taylor/series-exponent", test_series_exponent);
  g_test_add_func ("/taylor/mul-div", test_mul_div);
  g_test_add_func ("/taylor/atan2", test_atan2);
  g_test_add_func ("/taylor/piecewise", test_piecewise);
  g_test_add_func ("/taylor/composite", test_composite);
  g_test_add_func ("/taylor/expr", test_expr_taylor);
  g_test_add_func ("/taylor/expr-functions", test_expr_functions);
  g_test_add_func ("/taylor/expr-slot-constants", test_expr_slot_constants);

  return g_test_run ();
}

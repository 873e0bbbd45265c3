/* qd-taylor.c: truncated Taylor series arithmetic
 *
 * The recurrences are those of automatic differentiation in Taylor mode
 * (Griewank and Walther, "Evaluating Derivatives", ch. 13). For a series
 * a(s) = sum a_k s^k the derivative is a'(s) = sum k a_k s^(k-1), so an
 * ODE-like identity between series, such as r' = r a' for r = exp(a), gives
 * by comparing the coefficients of s^(k-1) an explicit formula for r_k in
 * terms of r_0..r_(k-1). Each function below states the identity it uses.
 *
 * Every function computes into a local series and copies it out at the
 * end, so the result may alias an operand. Orders are at most 3: the loops
 * are tiny, and nothing allocates.
 */
#include <math.h>
#include <string.h>

#include "qd-taylor.h"

static inline void
clear_above (QdTaylor *r,
             int       n)
{
  for (int k = n + 1; k <= QD_MAX_ORDER; k++)
    r->c[k] = 0.0;
}

void
qd_taylor_constant (QdTaylor *r,
                    double    value)
{
  r->c[0] = value;
  for (int k = 1; k <= QD_MAX_ORDER; k++)
    r->c[k] = 0.0;
}

void
qd_taylor_truncate (QdTaylor       *r,
                    const QdTaylor *a,
                    int             n)
{
  if (r != a)
    *r = *a;
  clear_above (r, n);
}

void
qd_taylor_add (QdTaylor       *r,
               const QdTaylor *a,
               const QdTaylor *b,
               int             n)
{
  for (int k = 0; k <= n; k++)
    r->c[k] = a->c[k] + b->c[k];
  clear_above (r, n);
}

void
qd_taylor_sub (QdTaylor       *r,
               const QdTaylor *a,
               const QdTaylor *b,
               int             n)
{
  for (int k = 0; k <= n; k++)
    r->c[k] = a->c[k] - b->c[k];
  clear_above (r, n);
}

void
qd_taylor_neg (QdTaylor       *r,
               const QdTaylor *a,
               int             n)
{
  for (int k = 0; k <= n; k++)
    r->c[k] = -a->c[k];
  clear_above (r, n);
}

void
qd_taylor_scale (QdTaylor       *r,
                 const QdTaylor *a,
                 double          f,
                 int             n)
{
  for (int k = 0; k <= n; k++)
    r->c[k] = f * a->c[k];
  clear_above (r, n);
}

/* Cauchy product: qd_taylor_mul_inline() (qd-taylor.h). */
void
qd_taylor_mul (QdTaylor       *r,
               const QdTaylor *a,
               const QdTaylor *b,
               int             n)
{
  qd_taylor_mul_inline (r, a, b, n);
}

/* r = a / b, from r b = a: r_k = (a_k - sum_{j=1..k} b_j r_(k-j)) / b_0. */
void
qd_taylor_div (QdTaylor       *r,
               const QdTaylor *a,
               const QdTaylor *b,
               int             n)
{
  QdTaylor t = { { 0 } };

  for (int k = 0; k <= n; k++)
    {
      double sum = a->c[k];

      for (int j = 1; j <= k; j++)
        sum -= b->c[j] * t.c[k - j];
      t.c[k] = sum / b->c[0];
    }
  *r = t;
}

static gboolean
is_zero (const QdTaylor *a,
         int             n)
{
  for (int k = 0; k <= n; k++)
    if (a->c[k] != 0.0)
      return FALSE;
  return TRUE;
}

/* a^m for a whole m, by binary powering: exact even where a(t0) = 0, where
 * the real-exponent recurrence below would divide by zero. */
static void
pow_int (QdTaylor       *r,
         const QdTaylor *a,
         long            m,
         int             n)
{
  QdTaylor base = *a, acc;
  unsigned long e = m < 0 ? (unsigned long) -m : (unsigned long) m;

  qd_taylor_constant (&acc, 1.0);
  clear_above (&base, n);
  while (e != 0)
    {
      if (e & 1)
        qd_taylor_mul (&acc, &acc, &base, n);
      e >>= 1;
      if (e != 0)
        qd_taylor_mul (&base, &base, &base, n);
    }
  if (m < 0)
    {
      QdTaylor one;

      qd_taylor_constant (&one, 1.0);
      qd_taylor_div (&acc, &one, &acc, n);
    }
  *r = acc;
}

/* r = a^alpha, from a r' = alpha r a' (both sides are alpha a^alpha a'/1):
 * comparing coefficients of s^(k-1),
 *   r_k = 1/(k a_0) sum_{j=0..k-1} (alpha (k-j) - j) a_(k-j) r_j. */
void
qd_taylor_pow_const (QdTaylor       *r,
                     const QdTaylor *a,
                     double          alpha,
                     int             n)
{
  QdTaylor t = { { 0 } };

  if (alpha == floor (alpha) && fabs (alpha) <= 1e9)
    {
      pow_int (r, a, (long) alpha, n);
      return;
    }
  if (alpha > 0.0 && is_zero (a, n))
    {
      qd_taylor_constant (r, 0.0);
      return;
    }

  t.c[0] = pow (a->c[0], alpha);
  for (int k = 1; k <= n; k++)
    {
      double sum = 0.0;

      for (int j = 0; j < k; j++)
        sum += (alpha * (k - j) - j) * a->c[k - j] * t.c[j];
      t.c[k] = sum / (k * a->c[0]);
    }
  *r = t;
}

void
qd_taylor_pow (QdTaylor       *r,
               const QdTaylor *a,
               const QdTaylor *b,
               int             n)
{
  QdTaylor t;

  /* A constant exponent keeps whole powers exact and defined for a
   * negative base, as C's pow does. */
  if (n == 0 || is_zero (&(QdTaylor) { { 0.0, b->c[1], b->c[2], b->c[3] } }, n))
    {
      qd_taylor_pow_const (r, a, b->c[0], n);
      return;
    }
  /* a^b = exp (b log a) */
  qd_taylor_log (&t, a, n);
  qd_taylor_mul (&t, &t, b, n);
  qd_taylor_exp (r, &t, n);
}

/* r = sqrt (a), from r r = a: r_k = (a_k - sum_{j=1..k-1} r_j r_(k-j)) / (2 r_0). */
void
qd_taylor_sqrt (QdTaylor       *r,
                const QdTaylor *a,
                int             n)
{
  QdTaylor t = { { 0 } };

  if (is_zero (a, n))
    {
      qd_taylor_constant (r, 0.0);
      return;
    }
  t.c[0] = sqrt (a->c[0]);
  for (int k = 1; k <= n; k++)
    {
      double sum = a->c[k];

      for (int j = 1; j < k; j++)
        sum -= t.c[j] * t.c[k - j];
      t.c[k] = sum / (2.0 * t.c[0]);
    }
  *r = t;
}

/* r = exp (a), from r' = r a': r_k = 1/k sum_{j=1..k} j a_j r_(k-j). */
void
qd_taylor_exp (QdTaylor       *r,
               const QdTaylor *a,
               int             n)
{
  QdTaylor t = { { 0 } };

  t.c[0] = exp (a->c[0]);
  for (int k = 1; k <= n; k++)
    {
      double sum = 0.0;

      for (int j = 1; j <= k; j++)
        sum += j * a->c[j] * t.c[k - j];
      t.c[k] = sum / k;
    }
  *r = t;
}

/* r = log (a), from a r' = a':
 *   r_k = (a_k - 1/k sum_{j=1..k-1} j r_j a_(k-j)) / a_0. */
void
qd_taylor_log (QdTaylor       *r,
               const QdTaylor *a,
               int             n)
{
  QdTaylor t = { { 0 } };

  t.c[0] = log (a->c[0]);
  for (int k = 1; k <= n; k++)
    {
      double sum = 0.0;

      for (int j = 1; j < k; j++)
        sum += j * t.c[j] * a->c[k - j];
      t.c[k] = (a->c[k] - sum / k) / a->c[0];
    }
  *r = t;
}

void
qd_taylor_log10 (QdTaylor       *r,
                 const QdTaylor *a,
                 int             n)
{
  double a0 = a->c[0];

  qd_taylor_log (r, a, n);
  r->c[0] = log10 (a0);  /* exact at powers of ten */
  for (int k = 1; k <= n; k++)
    r->c[k] /= G_LN10;
}

/* s = sin (a), c = cos (a), from s' = c a' and c' = -s a':
 *   s_k = 1/k sum_{j=1..k} j a_j c_(k-j),  c_k = -1/k sum_{j=1..k} j a_j s_(k-j).
 * With sign = +1 in the second identity the same loop gives sinh and cosh. */
static void
sincos_like (QdTaylor       *rs,
             QdTaylor       *rc,
             const QdTaylor *a,
             int             n,
             gboolean        hyperbolic)
{
  QdTaylor s = { { 0 } }, c = { { 0 } };
  double sign = hyperbolic ? 1.0 : -1.0;

  /* At order 0 only the requested value is computed. */
  if (rs != NULL || n > 0)
    s.c[0] = hyperbolic ? sinh (a->c[0]) : sin (a->c[0]);
  if (rc != NULL || n > 0)
    c.c[0] = hyperbolic ? cosh (a->c[0]) : cos (a->c[0]);
  for (int k = 1; k <= n; k++)
    {
      double ss = 0.0, sc = 0.0;

      for (int j = 1; j <= k; j++)
        {
          ss += j * a->c[j] * c.c[k - j];
          sc += j * a->c[j] * s.c[k - j];
        }
      s.c[k] = ss / k;
      c.c[k] = sign * sc / k;
    }
  if (rs != NULL)
    *rs = s;
  if (rc != NULL)
    *rc = c;
}

void
qd_taylor_sincos (QdTaylor       *rs,
                  QdTaylor       *rc,
                  const QdTaylor *a,
                  int             n)
{
  sincos_like (rs, rc, a, n, FALSE);
}

void
qd_taylor_sin (QdTaylor       *r,
               const QdTaylor *a,
               int             n)
{
  sincos_like (r, NULL, a, n, FALSE);
}

void
qd_taylor_cos (QdTaylor       *r,
               const QdTaylor *a,
               int             n)
{
  sincos_like (NULL, r, a, n, FALSE);
}

void
qd_taylor_sinhcosh (QdTaylor       *rs,
                    QdTaylor       *rc,
                    const QdTaylor *a,
                    int             n)
{
  sincos_like (rs, rc, a, n, TRUE);
}

void
qd_taylor_sinh (QdTaylor       *r,
                const QdTaylor *a,
                int             n)
{
  sincos_like (r, NULL, a, n, TRUE);
}

void
qd_taylor_cosh (QdTaylor       *r,
                const QdTaylor *a,
                int             n)
{
  sincos_like (NULL, r, a, n, TRUE);
}

/* r = tan (a) or tanh (a), from r' = w a' with w = 1 + r^2 (tan) or
 * w = 1 - r^2 (tanh): r_k = 1/k sum_{j=1..k} j a_j w_(k-j), and w_k
 * follows from r_0..r_k. */
static void
tan_like (QdTaylor       *r,
          const QdTaylor *a,
          int             n,
          double          sign)
{
  QdTaylor t = { { 0 } }, w = { { 0 } };

  t.c[0] = sign > 0 ? tan (a->c[0]) : tanh (a->c[0]);
  w.c[0] = 1.0 + sign * t.c[0] * t.c[0];
  for (int k = 1; k <= n; k++)
    {
      double sum = 0.0;

      for (int j = 1; j <= k; j++)
        sum += j * a->c[j] * w.c[k - j];
      t.c[k] = sum / k;

      sum = 0.0;
      for (int j = 0; j <= k; j++)
        sum += t.c[j] * t.c[k - j];
      w.c[k] = sign * sum;
    }
  *r = t;
}

void
qd_taylor_tan (QdTaylor       *r,
               const QdTaylor *a,
               int             n)
{
  tan_like (r, a, n, 1.0);
}

void
qd_taylor_tanh (QdTaylor       *r,
                const QdTaylor *a,
                int             n)
{
  tan_like (r, a, n, -1.0);
}

/* Given r_0, solves q r' = g' for r_1..r_n, where g' has the coefficients
 * dg[0..n-1]: comparing coefficients of s^(k-1),
 *   sum_{j=1..k} j r_j q_(k-j) = dg_(k-1),
 *   r_k = (dg_(k-1) - sum_{j=1..k-1} j r_j q_(k-j)) / (k q_0).
 * asin, acos, atan and atan2 all have this shape. */
static void
solve_derivative (QdTaylor       *t,
                  const QdTaylor *q,
                  const double   *dg,
                  int             n)
{
  for (int k = 1; k <= n; k++)
    {
      double sum = dg[k - 1];

      for (int j = 1; j < k; j++)
        sum -= j * t->c[j] * q->c[k - j];
      t->c[k] = sum / (k * q->c[0]);
    }
}

/* The coefficients of a': (k+1) a_(k+1). */
static void
derivative (double         *da,
            const QdTaylor *a,
            int             n)
{
  for (int k = 0; k < n; k++)
    da[k] = (k + 1) * a->c[k + 1];
}

/* asin: sqrt (1 - a^2) r' = a'. */
void
qd_taylor_asin (QdTaylor       *r,
                const QdTaylor *a,
                int             n)
{
  QdTaylor t = { { 0 } }, q, one;
  double da[QD_MAX_ORDER];

  qd_taylor_constant (&one, 1.0);
  qd_taylor_mul (&q, a, a, n);
  qd_taylor_sub (&q, &one, &q, n);
  qd_taylor_sqrt (&q, &q, n);
  derivative (da, a, n);
  t.c[0] = asin (a->c[0]);
  solve_derivative (&t, &q, da, n);
  *r = t;
}

/* acos (a) = pi/2 - asin (a). */
void
qd_taylor_acos (QdTaylor       *r,
                const QdTaylor *a,
                int             n)
{
  double a0 = a->c[0];

  qd_taylor_asin (r, a, n);
  qd_taylor_neg (r, r, n);
  r->c[0] = acos (a0);
}

/* atan: (1 + a^2) r' = a'. */
void
qd_taylor_atan (QdTaylor       *r,
                const QdTaylor *a,
                int             n)
{
  QdTaylor t = { { 0 } }, q;
  double da[QD_MAX_ORDER];

  qd_taylor_mul (&q, a, a, n);
  q.c[0] += 1.0;
  derivative (da, a, n);
  t.c[0] = atan (a->c[0]);
  solve_derivative (&t, &q, da, n);
  *r = t;
}

/* atan2 (y, x): (x^2 + y^2) r' = x y' - y x'. */
void
qd_taylor_atan2 (QdTaylor       *r,
                 const QdTaylor *y,
                 const QdTaylor *x,
                 int             n)
{
  QdTaylor t = { { 0 } }, q, yy;
  double dx[QD_MAX_ORDER], dy[QD_MAX_ORDER], g[QD_MAX_ORDER];

  qd_taylor_mul (&q, x, x, n);
  qd_taylor_mul (&yy, y, y, n);
  qd_taylor_add (&q, &q, &yy, n);
  derivative (dx, x, n);
  derivative (dy, y, n);
  for (int m = 0; m < n; m++)
    {
      double sum = 0.0;

      for (int i = 0; i <= m; i++)
        sum += x->c[i] * dy[m - i] - y->c[i] * dx[m - i];
      g[m] = sum;
    }
  t.c[0] = atan2 (y->c[0], x->c[0]);
  solve_derivative (&t, &q, g, n);
  *r = t;
}

int
qd_taylor_sign_of (const QdTaylor *a,
                   int             n)
{
  for (int k = 0; k <= n; k++)
    {
      if (a->c[k] > 0.0)
        return 1;
      if (a->c[k] < 0.0)
        return -1;
    }
  return 0;
}

void
qd_taylor_abs (QdTaylor       *r,
               const QdTaylor *a,
               int             n)
{
  if (qd_taylor_sign_of (a, n) < 0)
    qd_taylor_neg (r, a, n);
  else
    qd_taylor_truncate (r, a, n);
}

void
qd_taylor_sign (QdTaylor       *r,
                const QdTaylor *a,
                int             n)
{
  if (isnan (a->c[0]))
    qd_taylor_constant (r, a->c[0]);
  else
    qd_taylor_constant (r, qd_taylor_sign_of (a, n));
}

/* The sign of a - b just to the right of t0: the first nonzero difference
 * of coefficients (a lexicographic comparison). */
static int
compare (const QdTaylor *a,
         const QdTaylor *b,
         int             n)
{
  for (int k = 0; k <= n; k++)
    {
      if (a->c[k] < b->c[k])
        return -1;
      if (a->c[k] > b->c[k])
        return 1;
    }
  return 0;
}

void
qd_taylor_min (QdTaylor       *r,
               const QdTaylor *a,
               const QdTaylor *b,
               int             n)
{
  qd_taylor_truncate (r, compare (a, b, n) <= 0 ? a : b, n);
}

void
qd_taylor_max (QdTaylor       *r,
               const QdTaylor *a,
               const QdTaylor *b,
               int             n)
{
  qd_taylor_truncate (r, compare (a, b, n) >= 0 ? a : b, n);
}

/* floor and ceil are piecewise constant. At a whole value the step is taken
 * on the side the signal moves to: floor (2 - s) is 1 just after t0. */
void
qd_taylor_floor (QdTaylor       *r,
                 const QdTaylor *a,
                 int             n)
{
  double v = floor (a->c[0]);

  if (v == a->c[0] && n > 0)
    {
      QdTaylor d = *a;

      d.c[0] = 0.0;
      if (qd_taylor_sign_of (&d, n) < 0)
        v -= 1.0;
    }
  qd_taylor_constant (r, v);
}

void
qd_taylor_ceil (QdTaylor       *r,
                const QdTaylor *a,
                int             n)
{
  double v = ceil (a->c[0]);

  if (v == a->c[0] && n > 0)
    {
      QdTaylor d = *a;

      d.c[0] = 0.0;
      if (qd_taylor_sign_of (&d, n) > 0)
        v += 1.0;
    }
  qd_taylor_constant (r, v);
}

/* qd-block-math.c: Product, Division and the one-input math functions
 *
 * All are static functions in the DEVS sense: an input event schedules an
 * output at the same time (ta = 0), computed from every input advanced to
 * that time. The output carries the exact Taylor coefficients of the
 * function applied to the input polynomials (truncated Taylor arithmetic,
 * qd-taylor.h), up to the highest input order, so QSS2 and QSS3 signals
 * keep their order through these blocks.
 *
 * Zero crossings. Between input events the output is a polynomial
 * computed at the last one, and the input's own polynomial may reach 0
 * meanwhile. Absolute value then changes branch; Log, Sqrt, Inverse,
 * Division (its divisor) and Power (of an exponent that is not a
 * positive whole number) leave their domain, where the run must stop
 * with the block's error rather than carry the old polynomial through
 * the singularity. These blocks therefore watch that input: dint
 * schedules an internal event at its next zero (solved from the input
 * polynomial), where lambda takes the input as exactly 0. Abs emits the
 * new branch there; the others stop the run. Watching needs a time
 * advance of their own, so these blocks are not QD_BLOCK_STATIC. Under a
 * classic ODE solver that zero is a root function of the solver instead
 * (qd-block-fast-private.h), which stops there.
 */
#include <math.h>

#include "qd-blocks-private.h"
#include "qd-block-fast-private.h"
#include "qd-poly.h"
#include "qd-taylor.h"

typedef void (*QdUnaryFunc) (QdTaylor       *r,
                             const QdTaylor *a,
                             int             n);

typedef struct
{
  double       sigma;
  QdUnaryFunc  func;      /* one-input blocks */
  double       exponent;  /* Power */
  const char  *domain;    /* what the function needs of its input,
                             translated */
  gboolean     at_zero;   /* the event is the watched input's zero */
  int          watch;     /* the input whose zeros matter, or -1 */
} MathState;

/* ---- the static-function pattern, shared by every block here --------- */

static double
math_ta (QdAtomic *self)
{
  MathState *st = self->state;

  return st->sigma;
}

static void
math_dext (QdAtomic       *self,
           double          t,
           double          e,
           guint           port,
           const QdSignal *x)
{
  MathState *st = self->state;

  /* Recompute the output now, at the time of the event. */
  st->sigma = 0.0;
  st->at_zero = FALSE;
}

static void
math_dint (QdAtomic *self,
           double    t)
{
  MathState *st = self->state;
  gboolean at_zero = st->at_zero;

  st->sigma = QD_INF;
  st->at_zero = FALSE;
  /* The watched input's next zero (see the top of the file): an internal
   * event at that exact time, instead of the old polynomial lasting
   * until the next input event. */
  if (st->watch >= 0)
    {
      QdSignal u;

      qd_signal_advance (self->in[st->watch], t, &u);
      /* Leaving the crossing just handled, not finding it again. */
      if (at_zero)
        u.c[0] = 0.0;
      st->sigma = qd_poly_first_root (u.c, CLAMP (u.order, 0, QD_MAX_ORDER));
      st->at_zero = st->sigma < QD_INF;
    }
}

/* The watched input's zero as a root function of a classic solver: the
 * internal transition at the time the solver found takes the input as
 * exactly 0, as at a zero the block solves for itself. */
static guint
math_crossing_levels (QdAtomic *self,
                      double    t,
                      double   *levels)
{
  MathState *st = self->state;

  if (st->watch < 0)
    return 0;
  levels[0] = 0.0;
  return 1;
}

static double
math_crossing_signal (QdAtomic *self,
                      double    t)
{
  MathState *st = self->state;

  return st->watch >= 0 ? qd_signal_eval (self->in[st->watch], t) : 1.0;
}

static gboolean
math_cross_at (QdAtomic *self,
               double    t,
               double    e,
               double    level)
{
  MathState *st = self->state;

  if (st->watch < 0 || st->sigma == 0.0)
    return FALSE;
  st->sigma = e;
  st->at_zero = e < QD_INF;
  return TRUE;
}

/* Reads input @i advanced to @t; returns its order. */
static int
read_input (QdAtomic *self,
            guint     i,
            double    t,
            QdTaylor *u)
{
  QdSignal s;

  qd_signal_advance (self->in[i], t, &s);
  for (int k = 0; k <= QD_MAX_ORDER; k++)
    u->c[k] = s.c[k];
  return CLAMP (s.order, 0, QD_MAX_ORDER);
}

/* A value outside the function's domain (a coefficient of @c that is not
 * finite) stops the run with @domain, after the input value that caused
 * it. */
static void
check_domain (QdAtomic       *self,
              double          t,
              const double   *c,
              const QdTaylor *u,
              const char     *domain)
{
  /* Every coefficient: sqrt at a changing zero input has a finite value
   * and an infinite slope, which is as much outside its domain. */
  if (domain != NULL
      && !(isfinite (c[0]) && isfinite (c[1]) && isfinite (c[2])
           && isfinite (c[3])))
    qd_atomic_fail (self, QD_ERROR_NUMERIC,
                    _("at t = %g the input is %g: %s"),
                    t, u->c[0], domain);
}

/* Writes the output segment; a value outside the function's domain (a
 * coefficient that is not finite) stops the run with @domain, after the
 * input value that caused it. */
static guint64
write_output (QdAtomic       *self,
              double          t,
              const QdTaylor *r,
              int             order,
              const QdTaylor *u,
              const char     *domain)
{
  QdSignal *y = &self->out[0];

  y->t = t;
  y->order = order;
  y->tag = 0;
  for (int k = 0; k <= QD_MAX_ORDER; k++)
    y->c[k] = k <= order ? r->c[k] : 0.0;
  check_domain (self, t, y->c, u, domain);
  return 1;
}

/* The output value at order 0 of @r (computed from constant inputs
 * @u), checked as write_output() checks a segment: the classic solvers'
 * evaluation (QdBlockFastPaths.eval0). */
static double
output0 (QdAtomic       *self,
         double          t,
         const QdTaylor *r,
         const QdTaylor *u,
         const char     *domain)
{
  const double c[QD_MAX_ORDER + 1] = { r->c[0] };

  check_domain (self, t, c, u, domain);
  return r->c[0];
}

/* ---- one-input functions ---------------------------------------------- */

static void
square (QdTaylor       *r,
        const QdTaylor *a,
        int             n)
{
  qd_taylor_mul (r, a, a, n);
}

static void
inverse (QdTaylor       *r,
         const QdTaylor *a,
         int             n)
{
  QdTaylor one;

  qd_taylor_constant (&one, 1.0);
  qd_taylor_div (r, &one, a, n);
}

/* The domains' messages are the expressions' (qd-expr.h), so that an
 * NLFunction of the same formula stops with the same words. */
static const struct
{
  const QdBlockType *type;
  QdUnaryFunc        func;
  QdExprDomain       domain;
} unary_funcs[] = {
  { &qd_block_sin, qd_taylor_sin, QD_EXPR_DOMAIN_NONE },
  { &qd_block_cos, qd_taylor_cos, QD_EXPR_DOMAIN_NONE },
  { &qd_block_exp, qd_taylor_exp, QD_EXPR_DOMAIN_EXP_OVERFLOW },
  { &qd_block_log, qd_taylor_log, QD_EXPR_DOMAIN_LOG },
  { &qd_block_sqrt, qd_taylor_sqrt, QD_EXPR_DOMAIN_SQRT },
  { &qd_block_abs, qd_taylor_abs, QD_EXPR_DOMAIN_NONE },
  { &qd_block_square, square, QD_EXPR_DOMAIN_NONE },
  { &qd_block_pow, NULL, QD_EXPR_DOMAIN_POW },
  { &qd_block_power_n, NULL, QD_EXPR_DOMAIN_POW },
  { &qd_block_inverse, inverse, QD_EXPR_DOMAIN_INVERSE },
};

/* Power and Power n: one function, the exponent their only parameter. */
static inline gboolean
is_power (const QdBlockType *type)
{
  return type == &qd_block_pow || type == &qd_block_power_n;
}

static void
unary_init (QdAtomic *self,
            double    t)
{
  MathState *st = self->state;

  st->sigma = QD_INF;
  for (guint i = 0; i < G_N_ELEMENTS (unary_funcs); i++)
    if (unary_funcs[i].type == self->type)
      {
        st->func = unary_funcs[i].func;
        st->domain = unary_funcs[i].domain != QD_EXPR_DOMAIN_NONE
                     ? qd_expr_domain_message (unary_funcs[i].domain)
                     : NULL;
      }
  if (is_power (self->type))
    st->exponent = self->params[0].number;
  /* Abs changes branch at 0; the others are singular there, except a
   * power of a positive whole exponent. */
  st->watch = -1;
  if (self->type == &qd_block_abs || self->type == &qd_block_log
      || self->type == &qd_block_sqrt || self->type == &qd_block_inverse
      || (is_power (self->type)
          && !(st->exponent > 0.0 && st->exponent == floor (st->exponent))))
    st->watch = 0;
}

/* What a non-finite output means: outside the function's domain, or,
 * for a power whose base is inside it (positive, or any but 0 under a
 * whole exponent), an overflow (10^400). */
static const char *
pow_domain (QdAtomic       *self,
            const QdTaylor *u)
{
  MathState *st = self->state;

  if (is_power (self->type) && u->c[0] != 0.0
      && (u->c[0] > 0.0 || st->exponent == floor (st->exponent)))
    return qd_expr_domain_message (QD_EXPR_DOMAIN_POW_OVERFLOW);
  return st->domain;
}

/* The function of the block (of state @st) on @u, to order @order. */
static inline void
unary_apply (MathState      *st,
             QdTaylor       *r,
             const QdTaylor *u,
             int             order)
{
  if (st->func != NULL)
    st->func (r, u, order);
  else
    qd_taylor_pow_const (r, u, st->exponent, order);
}

static guint64
unary_lambda (QdAtomic *self,
              double    t)
{
  MathState *st = self->state;
  QdTaylor u, r;
  int order = read_input (self, 0, t, &u);

  /* At the crossing the input is zero by construction; the rounded value
   * left by t = tl + sigma could pick the old branch. Exactly zero, abs
   * takes the branch the input moves into. */
  if (st->at_zero)
    u.c[0] = 0.0;
  unary_apply (st, &r, &u, order);
  return write_output (self, t, &r, order, &u, pow_domain (self, &u));
}

/* Under a classic solver (QdBlockFastPaths.eval0): what dext, which
 * clears at_zero, then lambda give on a constant input. */
static inline double
unary_eval0 (QdAtomic      *self,
             gconstpointer  data,
             double         t,
             const double  *v,
             const guint32 *in,
             guint          n_in)
{
  QdTaylor u, r;

  qd_taylor_constant (&u, v[in[0]]);
  unary_apply (self->state, &r, &u, 0);
  return output0 (self, t, &r, &u, pow_domain (self, &u));
}

QD_DEFINE_EVAL0_RUN (unary_eval0_run, unary_eval0)

static const QdBlockFastPaths unary_fast = {
  .eval0 = unary_eval0,
  .eval0_run = unary_eval0_run,
  .crossing_levels = math_crossing_levels,
  .crossing_signal = math_crossing_signal,
  .cross_at = math_cross_at,
};

/* The unary blocks that watch no zero (see the top of the file) are
 * static in the sense of QD_BLOCK_STATIC: dext only makes the output due
 * and dint makes it passive. The others' dint schedules the input's next
 * zero, so their state is more than that. */
#define UNARY_BLOCK(var, ID, NAME, GLYPH, DOC, OUT_DOC, PARAMS, N_PARAMS) \
  UNARY_BLOCK_FLAGS (var, ID, NAME, GLYPH, DOC, OUT_DOC, PARAMS, N_PARAMS,  \
                     QD_BLOCK_FEEDTHROUGH | QD_BLOCK_STATIC)
#define UNARY_BLOCK_FLAGS(var, ID, NAME, GLYPH, DOC, OUT_DOC, PARAMS,      \
                          N_PARAMS, FLAGS)                                \
  const QdBlockType var = {                                               \
    .id = ID,                                                             \
    .category = N_("Math"),                                               \
    .name = NAME,                                                         \
    .glyph = GLYPH,                                                       \
    .doc = DOC,                                                           \
    .inputs = { .count = 1, .name_prefix = "u",                           \
                .doc = N_("The argument u.") },                           \
    .outputs = { .count = 1, .name_prefix = "y", .doc = OUT_DOC },        \
    .params = PARAMS,                                                     \
    .n_params = N_PARAMS,                                                 \
    .flags = FLAGS,                                                       \
    .state_size = sizeof (MathState),                                     \
    .init = unary_init,                                                   \
    .ta = math_ta,                                                        \
    .dint = math_dint,                                                    \
    .dext = math_dext,                                                    \
    .lambda = unary_lambda,                                               \
    .fast = &unary_fast,                                                  \
  }

UNARY_BLOCK (qd_block_sin, "sin", N_("Sine"), "sin",
             N_("The sine of its input (in radians): y = sin(u). The output "
                "follows each input event at once and carries the exact "
                "Taylor coefficients of sin applied to the input polynomial, "
                "so QSS2 and QSS3 keep their order."),
             N_("sin(u)"), NULL, 0);

UNARY_BLOCK (qd_block_cos, "cos", N_("Cosine"), "cos",
             N_("The cosine of its input (in radians): y = cos(u), with the "
                "exact Taylor coefficients of the composition up to the "
                "input's order."),
             N_("cos(u)"), NULL, 0);

UNARY_BLOCK (qd_block_exp, "exp", N_("Exponential"), "eˣ",
             N_("The exponential of its input: y = e^u, with the exact "
                "Taylor coefficients of the composition up to the input's "
                "order."),
             N_("e^u"), NULL, 0);

UNARY_BLOCK_FLAGS (qd_block_log, "log", N_("Logarithm"), "log",
                   N_("The natural logarithm of its input: y = log(u). The "
                      "input must stay positive: the run stops with an error "
                      "naming this block at the time it reaches zero (solved "
                      "from the input polynomial) or arrives at or below it."),
                   N_("log(u)"), NULL, 0, QD_BLOCK_FEEDTHROUGH);

UNARY_BLOCK_FLAGS (qd_block_sqrt, "sqrt", N_("Square root"), "√",
                   N_("The square root of its input: y = √u. The input must "
                      "not be negative; at exactly zero the slope is infinite "
                      "unless the input is identically zero, so the run stops "
                      "with an error naming this block at the time a changing "
                      "input reaches zero (solved from the input polynomial)."),
                   N_("√u"), NULL, 0, QD_BLOCK_FEEDTHROUGH);

UNARY_BLOCK_FLAGS (qd_block_abs, "abs", N_("Absolute value"), "|u|",
                   N_("The absolute value of its input: y = |u|. The output "
                      "changes branch at the exact time the input crosses "
                      "zero (solved from the input polynomial), and there "
                      "follows the branch the input moves into."),
                   N_("|u|"), NULL, 0, QD_BLOCK_FEEDTHROUGH);

UNARY_BLOCK (qd_block_square, "square", N_("Square"), "u²",
             N_("The square of its input: y = u², exact on every Taylor "
                "coefficient up to the input's order."),
             N_("u²"), NULL, 0);

static const QdParamSpec pow_params[] = {
  { "exponent", N_("Exponent"), QD_PARAM_NUMBER, "2", -QD_INF, QD_INF, NULL,
    N_("The power a in y = u^a. A whole exponent works for any input; "
       "a fractional one needs a positive input."), NULL, 0 },
};

UNARY_BLOCK_FLAGS (qd_block_pow, "pow", N_("Power"), "uᵃ",
                   N_("Raises its input to a constant power: y = u^a. Whole "
                      "exponents are computed by exact multiplication; others "
                      "with the power recurrence, which needs u > 0. Unless "
                      "a is a positive whole number, the run stops with an "
                      "error naming this block at the time the input reaches "
                      "zero (solved from the input polynomial)."),
                   N_("u^a"), pow_params, G_N_ELEMENTS (pow_params),
                   QD_BLOCK_FEEDTHROUGH);

/* PowerDEVS's Power n (xpowern), with its parameter's name and default. */
static const QdParamSpec power_n_params[] = {
  { "n", N_("Exponent"), QD_PARAM_NUMBER, "3", -QD_INF, QD_INF, NULL,
    N_("The power n in y = u^n. A whole n works for any input; a "
       "fractional one needs a positive input."), NULL, 0 },
};

UNARY_BLOCK_FLAGS (qd_block_power_n, "power_n", N_("Power n"), "uⁿ",
                   N_("Raises its input to the power n: y = u^n, as "
                      "PowerDEVS's Power n block (default n = 3). The same "
                      "function as the Power block: exact multiplication "
                      "for a whole n, the power recurrence otherwise (which "
                      "needs u > 0), and unless n is a positive whole number "
                      "the run stops with an error naming this block at the "
                      "time the input reaches zero."),
                   N_("u^n"), power_n_params, G_N_ELEMENTS (power_n_params),
                   QD_BLOCK_FEEDTHROUGH);

UNARY_BLOCK_FLAGS (qd_block_inverse, "inverse", N_("Inverse"), "1/u",
                   N_("The reciprocal of its input: y = 1/u. The input must "
                      "not be zero: the run stops with an error naming this "
                      "block at the time it reaches zero (solved from the "
                      "input polynomial)."),
                   N_("1/u"), NULL, 0, QD_BLOCK_FEEDTHROUGH);

/* ---- Product ----------------------------------------------------------- */

static void
product_init (QdAtomic *self,
              double    t)
{
  MathState *st = self->state;

  st->sigma = self->n_in > 0 ? QD_INF : 0.0;
  st->watch = -1;
}

/* product_lambda() of two inputs, the common case, with everything it
 * calls inlined: the same operations in the same order (each input
 * advanced to @t, their product at the higher order, the output
 * written), which were three calls and two copies of each input, two
 * thirds of the block's time in Lotka–Volterra. Out of line, as
 * product_any() is, so that product_lambda() only jumps to either and
 * this one saves no registers for the other's loop. */
G_NO_INLINE static guint64
product_two (QdAtomic *self,
             double    t)
{
  QdSignal a, b;
  QdTaylor p, u;
  int order;

  qd_signal_advance (self->in[0], t, &a);
  qd_signal_advance (self->in[1], t, &b);
  order = MAX (CLAMP (a.order, 0, QD_MAX_ORDER),
               CLAMP (b.order, 0, QD_MAX_ORDER));
  memcpy (p.c, a.c, sizeof p.c);
  memcpy (u.c, b.c, sizeof u.c);
  qd_taylor_mul_inline (&p, &p, &u, order);
  return write_output (self, t, &p, order, &p, NULL);
}

/* product_lambda() of other than two inputs. */
G_NO_INLINE static guint64
product_any (QdAtomic *self,
             double    t)
{
  QdTaylor p, u;
  int order = read_input (self, 0, t, &p);

  /* The first factor as it is, then each other one at the full order
   * (inputs are zero above their own order), the last at the highest
   * input order: the coefficients up to an order do not depend on those
   * above it, and the output is truncated to it. */
  for (guint i = 1; i < self->n_in; i++)
    {
      order = MAX (order, read_input (self, i, t, &u));
      qd_taylor_mul (&p, &p, &u, i + 1 == self->n_in ? order : QD_MAX_ORDER);
    }
  return write_output (self, t, &p, order, &p, NULL);
}

static guint64
product_lambda (QdAtomic *self,
                double    t)
{
  return self->n_in == 2 ? product_two (self, t) : product_any (self, t);
}

/* Under a classic solver: product_lambda() on constant inputs. */
static inline double
product_eval0 (QdAtomic      *self,
               gconstpointer  data,
               double         t,
               const double  *v,
               const guint32 *in,
               guint          n_in)
{
  QdTaylor p, u;

  qd_taylor_constant (&p, 1.0);
  for (guint i = 0; i < n_in; i++)
    {
      qd_taylor_constant (&u, v[in[i]]);
      qd_taylor_mul (&p, &p, &u, 0);
    }
  return output0 (self, t, &p, &p, NULL);
}

QD_DEFINE_EVAL0_RUN (product_eval0_run, product_eval0)

static const QdBlockFastPaths product_fast = {
  .eval0 = product_eval0,
  .eval0_run = product_eval0_run,
};

static const QdParamSpec product_params[] = {
  { "n", N_("Inputs"), QD_PARAM_INTEGER, "2", 1, 64, NULL,
    N_("The number of factors (inputs)."), NULL, 0 },
};

const QdBlockType qd_block_product = {
  .id = "product",
  .category = N_("Math"),
  .name = N_("Product"),
  .glyph = "×",
  .doc = N_("Multiplies its inputs: y = u0·u1·…. The product is exact on "
            "every Taylor coefficient up to the highest input order, so a "
            "product of QSS2 or QSS3 signals keeps its order."),
  .inputs = { .size_param = "n", .name_prefix = "u",
              .doc = N_("The factors.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The product of the inputs.") },
  .params = product_params,
  .n_params = G_N_ELEMENTS (product_params),
  .flags = QD_BLOCK_FEEDTHROUGH | QD_BLOCK_STATIC,
  .state_size = sizeof (MathState),
  .init = product_init,
  .ta = math_ta,
  .dint = math_dint,
  .dext = math_dext,
  .lambda = product_lambda,
  .fast = &product_fast,
};

/* ---- Division ---------------------------------------------------------- */

static void
division_init (QdAtomic *self,
               double    t)
{
  MathState *st = self->state;

  st->sigma = QD_INF;
  st->domain = _("the divisor u1 is zero; keep it away from zero");
  st->watch = 1;
}

static guint64
division_lambda (QdAtomic *self,
                 double    t)
{
  MathState *st = self->state;
  QdTaylor a, b, r;
  int order = MAX (read_input (self, 0, t, &a), read_input (self, 1, t, &b));

  /* At the divisor's zero (see the top of the file). */
  if (st->at_zero)
    b.c[0] = 0.0;
  qd_taylor_div (&r, &a, &b, order);
  return write_output (self, t, &r, order, &b, st->domain);
}

/* Under a classic solver: what dext (which clears at_zero), then
 * division_lambda() give on constant inputs. */
static inline double
division_eval0 (QdAtomic      *self,
                gconstpointer  data,
                double         t,
                const double  *v,
                const guint32 *in,
                guint          n_in)
{
  MathState *st = self->state;
  QdTaylor a, b, r;

  qd_taylor_constant (&a, v[in[0]]);
  qd_taylor_constant (&b, v[in[1]]);
  qd_taylor_div (&r, &a, &b, 0);
  return output0 (self, t, &r, &b, st->domain);
}

QD_DEFINE_EVAL0_RUN (division_eval0_run, division_eval0)

static const QdBlockFastPaths division_fast = {
  .eval0 = division_eval0,
  .eval0_run = division_eval0_run,
  .crossing_levels = math_crossing_levels,
  .crossing_signal = math_crossing_signal,
  .cross_at = math_cross_at,
};

const QdBlockType qd_block_division = {
  .id = "division",
  .category = N_("Math"),
  .name = N_("Division"),
  .glyph = "÷",
  .doc = N_("Divides its first input by its second: y = u0/u1, with the "
            "exact Taylor coefficients of the quotient (series division) up "
            "to the highest input order. The run stops with an error naming "
            "this block at the time the divisor reaches zero (solved from "
            "its polynomial)."),
  .inputs = { .count = 2, .name_prefix = "u",
              .doc = N_("u0 is the dividend, u1 the divisor.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The quotient u0/u1.") },
  /* Not QD_BLOCK_STATIC: it watches its divisor's zeros. */
  .flags = QD_BLOCK_FEEDTHROUGH,
  .state_size = sizeof (MathState),
  .init = division_init,
  .ta = math_ta,
  .dint = math_dint,
  .dext = math_dext,
  .lambda = division_lambda,
  .fast = &division_fast,
};

/* qd-block-implicit.c: Implicit Function, y such that g(u0, ..., y) = 0
 *
 * A static block whose output is defined implicitly by a formula: at each
 * input event, y(t) is found by Newton's iteration on g(u(t), y) = 0,
 * started from the last solution (the initial guess y0 the first time),
 * with ∂g/∂y from the same Taylor evaluation that gives g (the formula
 * evaluated on the series y + s: its coefficient of s is ∂g/∂y exactly).
 *
 * Its higher Taylor coefficients follow from the implicit function
 * theorem: g(u(t + s), y(t + s)) = 0 for all s, so each coefficient of s^k
 * of g vanishes. That coefficient is linear in y_k, with slope ∂g/∂y:
 * evaluating g on the series with y_k = 0 gives the rest, R_k, and
 * y_k = −R_k / (∂g/∂y). One Taylor evaluation per order, as exact as the
 * NLFunction's, so QSS2 and QSS3 keep their order through the block.
 *
 * When Newton's iteration does not converge (∂g/∂y vanishes, a value is
 * not finite, or the iteration limit is reached) the run stops with an
 * error naming the block and the parameter to change.
 */
#include <math.h>
#include <string.h>

#include "qd-blocks-private.h"
#include "qd-taylor.h"

#define NEWTON_MAX_ITERATIONS 50

enum
{
  PARAM_N,
  PARAM_EXPRESSION,
  PARAM_Y0,
  PARAM_TOLERANCE,
};

typedef struct
{
  double    sigma;
  QdExpr   *expr;     /* owned */
  QdTaylor *slots;    /* u0..u(n-1), t, y, then the model variables */
  double    guess;    /* where the next iteration starts */
} Implicit;

static gboolean
implicit_check (const QdBlockType  *type,
                const QdParamValue *params,
                guint               n_inputs,
                guint               n_outputs,
                GError            **error)
{
  const char *text = params[PARAM_EXPRESSION].text;
  g_autoptr(QdExpr) expr = NULL;
  const char *const *ids;
  guint n_ids;
  gboolean has_y = FALSE;

  if (!qd_formula_check (text, n_inputs, error))
    return FALSE;
  expr = qd_expr_parse (text, NULL);
  ids = qd_expr_get_identifiers (expr, &n_ids);
  for (guint i = 0; i < n_ids; i++)
    has_y = has_y || strcmp (ids[i], "y") == 0;
  if (!has_y)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_EXPR,
                   _("parameter 'expression' does not use y: write g(u0, "
                     "…, y) whose zero is the output, e.g. \"y^3 + y - "
                     "u0\""));
      return FALSE;
    }
  if (!(params[PARAM_TOLERANCE].number > 0.0))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("parameter 'tolerance' must be greater than 0 (it is "
                     "%g)"), params[PARAM_TOLERANCE].number);
      return FALSE;
    }
  return TRUE;
}

static void
implicit_init (QdAtomic *self,
               double    t)
{
  Implicit *st = self->state;
  static const char *const y_name[] = { "y", NULL };

  st->sigma = QD_INF;
  st->guess = self->params[PARAM_Y0].number;
  st->expr = qd_formula_bind (self, self->params[PARAM_EXPRESSION].text,
                              y_name, TRUE);
  st->slots = st->expr != NULL ? qd_expr_get_taylor_slots (st->expr) : NULL;
}

static double
implicit_ta (QdAtomic *self)
{
  Implicit *st = self->state;

  return st->sigma;
}

static void
implicit_dext (QdAtomic       *self,
               double          t,
               double          e,
               guint           port,
               const QdSignal *x)
{
  Implicit *st = self->state;

  st->sigma = 0.0;
}

/* Newton's iteration on y at @t with the inputs' values in the slots
 * (their coefficient 0 only); returns FALSE when it fails, with the last
 * iterate in *@y and ∂g/∂y in *@slope. */
static gboolean
newton (QdAtomic *self,
        double   *y,
        double   *slope)
{
  Implicit *st = self->state;
  QdTaylor *ys = &st->slots[self->n_in + 1];
  double tol = self->params[PARAM_TOLERANCE].number;

  for (int it = 0; it < NEWTON_MAX_ITERATIONS; it++)
    {
      QdTaylor r;
      double step;

      ys->c[0] = *y;
      ys->c[1] = 1.0;
      qd_expr_eval_taylor (st->expr, st->slots, 1, &r);
      *slope = r.c[1];
      if (!isfinite (r.c[0]) || !isfinite (r.c[1]) || r.c[1] == 0.0)
        return FALSE;
      step = r.c[0] / r.c[1];
      *y -= step;
      if (!isfinite (*y))
        return FALSE;
      if (fabs (step) <= tol * (1.0 + fabs (*y)))
        {
          /* One more step at no cost in accuracy: the residual is then at
           * rounding level when the iteration converges quadratically. */
          ys->c[0] = *y;
          qd_expr_eval_taylor (st->expr, st->slots, 1, &r);
          if (isfinite (r.c[0]) && isfinite (r.c[1]) && r.c[1] != 0.0)
            {
              *y -= r.c[0] / r.c[1];
              *slope = r.c[1];
            }
          return TRUE;
        }
    }
  return FALSE;
}

static guint64
implicit_lambda (QdAtomic *self,
                 double    t)
{
  Implicit *st = self->state;
  QdSignal *out = &self->out[0];
  QdTaylor *ys, *ts;
  double y = st->guess, slope = 0.0;
  int order = 0;

  if (st->expr == NULL)
    return 0;
  ts = &st->slots[self->n_in];
  ys = &st->slots[self->n_in + 1];
  /* Newton on the values alone: every slot a constant. */
  for (guint i = 0; i < self->n_in; i++)
    {
      QdSignal u;

      qd_signal_advance (self->in[i], t, &u);
      qd_taylor_constant (&st->slots[i], u.c[0]);
      order = MAX (order, u.order);
    }
  qd_taylor_constant (ts, t);
  qd_taylor_constant (ys, 0.0);
  if (!newton (self, &y, &slope))
    {
      qd_atomic_fail (self, QD_ERROR_NUMERIC,
                      _("at t = %g Newton's iteration on parameter "
                        "'expression' does not converge (from y = %g it "
                        "reached y = %g, ∂g/∂y = %g): give a closer initial "
                        "guess 'y0', or a formula with one root"),
                      t, st->guess, y, slope);
      return 0;
    }

  /* The Taylor coefficients, order by order (see the top of the file). */
  order = CLAMP (order, 0, QD_MAX_ORDER);
  for (guint i = 0; i < self->n_in; i++)
    {
      QdSignal u;

      qd_signal_advance (self->in[i], t, &u);
      memcpy (st->slots[i].c, u.c, sizeof u.c);
    }
  ts->c[1] = 1.0;
  qd_taylor_constant (ys, y);
  for (int k = 1; k <= order; k++)
    {
      QdTaylor r;

      ys->c[k] = 0.0;
      qd_expr_eval_taylor (st->expr, st->slots, k, &r);
      ys->c[k] = -r.c[k] / slope;
    }
  /* The solution starts the next iteration: a warm start only, so a
   * static block's lambda may keep it (the result does not depend on it
   * beyond the tolerance, when the root is unique). */
  st->guess = y;
  out->t = t;
  out->order = order;
  out->tag = 0;
  for (int k = 0; k <= QD_MAX_ORDER; k++)
    out->c[k] = k <= order ? ys->c[k] : 0.0;
  if (!(isfinite (out->c[0]) && isfinite (out->c[1]) && isfinite (out->c[2])
        && isfinite (out->c[3])))
    qd_atomic_fail (self, QD_ERROR_NUMERIC,
                    _("at t = %g the derivatives of y from parameter "
                      "'expression' are not finite"), t);
  return 1;
}

static void
implicit_dint (QdAtomic *self,
               double    t)
{
  Implicit *st = self->state;

  st->sigma = QD_INF;
}

static void
implicit_exit (QdAtomic *self,
               double    t)
{
  Implicit *st = self->state;

  g_clear_pointer (&st->expr, qd_expr_free);
  st->slots = NULL;
}

static const QdParamSpec implicit_params[] = {
  { "n", N_("Inputs"), QD_PARAM_INTEGER, "1", 1, 64, NULL,
    N_("The number of inputs, named u0 to u(n-1) in the expression."),
    NULL, 0 },
  { "expression", N_("Expression"), QD_PARAM_FUNCTION, "y^3 + y - u0",
    -QD_INF, QD_INF, NULL,
    N_("The function g(u0, …, y) whose zero in y is the output, a formula "
       "of the inputs, y, the time t and the model variables (the "
       "NLFunction's operators and functions)."), NULL, QD_PARAM_NAMES_Y },
  { "y0", N_("Initial guess"), QD_PARAM_NUMBER, "1", -QD_INF, QD_INF, NULL,
    N_("Where Newton's iteration starts at the first event; each later "
       "one starts from the last solution."), NULL, 0 },
  { "tolerance", N_("Tolerance"), QD_PARAM_NUMBER, "1e-12", 0, QD_INF, NULL,
    N_("Newton's iteration stops when its step is below tolerance·(1 + "
       "|y|)."), NULL, 0 },
};

const QdBlockType qd_block_implicit_function = {
  .id = "implicit_function",
  .category = N_("Math"),
  .name = N_("Implicit Function"),
  .glyph = "g(u,y)=0",
  .doc = N_("The y that solves g(u0, …, y) = 0, at each input event: "
            "Newton's iteration from the last solution (the initial guess "
            "at the first event) gives y, and the implicit function "
            "theorem its exact Taylor coefficients up to the inputs' "
            "order, so QSS2 and QSS3 keep their order. Where the iteration "
            "fails (∂g/∂y = 0, values not finite, no convergence in 50 "
            "steps), the run stops with an error naming this block."),
  .inputs = { .size_param = "n", .name_prefix = "u",
              .doc = N_("The arguments u0, u1… of g.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The root y of g.") },
  .params = implicit_params,
  .n_params = G_N_ELEMENTS (implicit_params),
  .flags = QD_BLOCK_FEEDTHROUGH | QD_BLOCK_STATIC,
  .state_size = sizeof (Implicit),
  .check = implicit_check,
  .init = implicit_init,
  .ta = implicit_ta,
  .dint = implicit_dint,
  .dext = implicit_dext,
  .lambda = implicit_lambda,
  .exit = implicit_exit,
};

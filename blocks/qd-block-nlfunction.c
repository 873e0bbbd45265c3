/* qd-block-nlfunction.c: NLFunction, y = f(u0, ..., u(n-1), t)
 *
 * A static function given by an expression over its inputs u0..u(n-1), the
 * time t and the model variables. The expression is parsed and bound once
 * per block instance at init; the model variables are read then and kept
 * as constant slots. Each output carries the exact Taylor coefficients of f
 * applied to the input polynomials (qd_expr_eval_taylor), up to the highest
 * input order, so QSS2 and QSS3 keep their order through any formula. This
 * is where QDevs differs from PowerDEVS, which estimates the output's
 * derivatives by finite differences.
 *
 * Singularities. Between input events the output is the polynomial of
 * the last one, and a divisor or the argument of log, sqrt or a power
 * inside the formula may reach 0 meanwhile: 1/u0 of a ramp towards 0
 * would go on through the pole. As the Log, Sqrt, Inverse, Division and
 * Power blocks do (qd-block-math.c), the block then watches: dint
 * schedules the first time such an operand's polynomial reaches 0
 * (qd_expr_next_singularity), where the run stops with the same message
 * as the block of that function; and an output that is not finite at an
 * input event stops it as those blocks do. A formula with nothing to
 * watch (most of them) keeps the static block's fast path; one with
 * something needs a time advance of its own, so it answers FALSE to
 * is_static.
 */
#include <math.h>
#include <string.h>

#include "qd-blocks-private.h"
#include "qd-block-fast-private.h"
#include "qd-expr.h"
#include "qd-simulation.h"
#include "qd-taylor.h"

enum
{
  PARAM_N,
  PARAM_EXPRESSION,
};

typedef struct
{
  double    sigma;
  QdExpr   *expr;    /* owned: it keeps the Taylor program and its registers */
  QdTaylor *slots;   /* u0..u(n-1), t, then the model variables: the
                        expression's own slots, filled in place */
  gboolean  uses_t;  /* whether the t slot needs filling at each output */
  gboolean  watch;   /* the formula has a singularity to watch */
  QdExprDomain zero; /* the one whose zero is scheduled, or NONE */
} NLFunction;

/* The expression's names in slot order: the inputs, t, the @extra
 * names, then every other identifier (the model variables). Returns the
 * number of variables. */
static GPtrArray *
slot_names (const QdExpr       *expr,
            guint               n_in,
            const char *const  *extra,
            guint               n_extra,
            guint              *n_variables)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *const *ids;
  guint n_ids;

  for (guint i = 0; i < n_in; i++)
    g_ptr_array_add (names, g_strdup_printf ("u%u", i));
  g_ptr_array_add (names, g_strdup ("t"));
  for (guint i = 0; i < n_extra; i++)
    g_ptr_array_add (names, g_strdup (extra[i]));

  *n_variables = 0;
  ids = qd_expr_get_identifiers (expr, &n_ids);
  for (guint i = 0; i < n_ids; i++)
    if (strcmp (ids[i], "t") != 0 && qd_expr_input_index (ids[i]) < 0
        && (extra == NULL || !g_strv_contains (extra, ids[i])))
      {
        g_ptr_array_add (names, g_strdup (ids[i]));
        (*n_variables)++;
      }
  return names;
}

gboolean
qd_formula_check (const char  *text,
                  guint        n_inputs,
                  GError     **error)
{
  g_autoptr(GError) local = NULL;
  g_autoptr(QdExpr) expr = qd_expr_parse (text, &local);
  const char *const *ids;
  guint n_ids;

  if (expr == NULL)
    {
      g_set_error (error, QD_ERROR, local->code,
                   _("parameter 'expression': %s"), local->message);
      return FALSE;
    }
  /* Model variables are not known here: only the inputs can be checked. */
  ids = qd_expr_get_identifiers (expr, &n_ids);
  for (guint i = 0; i < n_ids; i++)
    {
      int k = qd_expr_input_index (ids[i]);

      if (k >= 0 && (guint) k >= n_inputs)
        {
          g_autofree char *message =
            qd_expr_missing_input_message (text, ids[i], n_inputs);

          g_set_error (error, QD_ERROR, QD_ERROR_EXPR,
                       _("parameter 'expression': %s"), message);
          return FALSE;
        }
    }
  return TRUE;
}

static gboolean
nlfunction_check (const QdBlockType  *type,
                  const QdParamValue *params,
                  guint               n_inputs,
                  guint               n_outputs,
                  GError            **error)
{
  return qd_formula_check (params[PARAM_EXPRESSION].text, n_inputs, error);
}

QdExpr *
qd_formula_bind (QdAtomic          *self,
                 const char        *text,
                 const char *const *extra,
                 gboolean           fail)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) names = NULL;
  guint n_extra = extra != NULL ? g_strv_length ((char **) extra) : 0;
  guint n_vars, first_var = self->n_in + 1 + n_extra;
  QdExpr *expr = qd_expr_parse (text, &error);
  QdTaylor *slots;

  if (expr == NULL)
    {
      if (fail)
        qd_atomic_fail (self, QD_ERROR_EXPR, _("parameter 'expression': %s"),
                        error->message);
      return NULL;
    }
  names = slot_names (expr, self->n_in, extra, n_extra, &n_vars);
  if (!qd_expr_bind (expr, (const char *const *) names->pdata,
                     names->len, &error))
    {
      /* Only an input beyond the last can be unbound here. */
      if (fail)
        qd_atomic_fail (self, QD_ERROR_EXPR,
                      _("parameter 'expression': %s: the block has %u inputs, "
                        "u0 to u%u"),
                      error->message, self->n_in, self->n_in - 1);
      qd_expr_free (expr);
      return NULL;
    }

  slots = qd_expr_get_taylor_slots (expr);
  for (guint i = 0; i < n_vars; i++)
    {
      const char *name = g_ptr_array_index (names, first_var + i);
      double v = qd_simulation_get_variable (self->sim, name);

      if (isnan (v))
        {
          g_autofree char *message =
            qd_expr_unknown_name_message (text, name, self->n_in);

          if (fail)
            qd_atomic_fail (self, QD_ERROR_EXPR,
                            _("parameter 'expression': %s"), message);
          qd_expr_free (expr);
          return NULL;
        }
      qd_taylor_constant (&slots[first_var + i], v);
      /* Fixed for the whole run: folded into the Taylor program. */
      qd_expr_set_slot_constant (expr, first_var + i, v);
    }
  return expr;
}

/* Binds the formula into st->expr and st->slots; on failure stops the
 * run (when @fail) and leaves st->expr NULL. */
static void
nlfunction_prepare (QdAtomic *self,
                    gboolean  fail)
{
  NLFunction *st = self->state;
  guint n_ids;
  const char *const *ids;

  st->expr = qd_formula_bind (self, self->params[PARAM_EXPRESSION].text,
                              NULL, fail);
  st->slots = st->expr != NULL ? qd_expr_get_taylor_slots (st->expr) : NULL;
  st->uses_t = FALSE;
  if (st->expr == NULL)
    return;
  ids = qd_expr_get_identifiers (st->expr, &n_ids);
  for (guint i = 0; i < n_ids; i++)
    st->uses_t = st->uses_t || strcmp (ids[i], "t") == 0;
}

static gboolean
nlfunction_is_static (QdAtomic *self)
{
  NLFunction *st = self->state;
  gboolean watch;

  /* Asked before init, on the zeroed state: a formula that does not bind
   * fails in init, static or not. */
  nlfunction_prepare (self, FALSE);
  watch = st->expr != NULL && qd_expr_has_singularities (st->expr);
  g_clear_pointer (&st->expr, qd_expr_free);
  st->slots = NULL;
  return !watch;
}

static void
nlfunction_init (QdAtomic *self,
                 double    t)
{
  NLFunction *st = self->state;

  st->sigma = self->n_in > 0 ? QD_INF : 0.0;
  st->zero = QD_EXPR_DOMAIN_NONE;
  nlfunction_prepare (self, TRUE);
  st->watch = st->expr != NULL && qd_expr_has_singularities (st->expr);
}

static double
nlfunction_ta (QdAtomic *self)
{
  NLFunction *st = self->state;

  return st->sigma;
}

static void
nlfunction_dext (QdAtomic       *self,
                 double          t,
                 double          e,
                 guint           port,
                 const QdSignal *x)
{
  NLFunction *st = self->state;

  st->sigma = 0.0;
  st->zero = QD_EXPR_DOMAIN_NONE;
}

/* The formula on the inputs now in st->slots, to @order, into @r; a
 * value outside a function's domain stops the run with the message its
 * block would give. */
static void
nlfunction_compute (QdAtomic *self,
                    double    t,
                    int       order,
                    QdTaylor *r)
{
  NLFunction *st = self->state;

  /* t itself is the series t + s. */
  if (st->uses_t)
    {
      st->slots[self->n_in].c[0] = t;
      st->slots[self->n_in].c[1] = 1.0;
      st->slots[self->n_in].c[2] = st->slots[self->n_in].c[3] = 0.0;
    }

  qd_expr_eval_taylor (st->expr, st->slots, order, r);

  if (G_UNLIKELY (!(isfinite (r->c[0]) && isfinite (r->c[1])
                    && isfinite (r->c[2]) && isfinite (r->c[3]))))
    {
      double u = 0.0;
      QdExprDomain d = qd_expr_get_domain_error (st->expr, &u);

      if (d != QD_EXPR_DOMAIN_NONE)
        qd_atomic_fail (self, QD_ERROR_NUMERIC,
                        _("at t = %g the input is %g: %s"),
                        t, u, qd_expr_domain_message (d));
    }
}

static guint64
nlfunction_lambda (QdAtomic *self,
                   double    t)
{
  NLFunction *st = self->state;
  QdSignal *y = &self->out[0];
  QdTaylor r;
  int order = 0;

  if (st->expr == NULL)
    return 0;
  /* At a watched operand's zero (see the top of the file). */
  if (st->zero != QD_EXPR_DOMAIN_NONE)
    {
      qd_atomic_fail (self, QD_ERROR_NUMERIC, _("at t = %g the input is %g: %s"),
                      t, 0.0, qd_expr_domain_message (st->zero));
      return 0;
    }

  for (guint i = 0; i < self->n_in; i++)
    {
      QdSignal u;

      qd_signal_advance (self->in[i], t, &u);
      memcpy (st->slots[i].c, u.c, sizeof u.c);
      order = MAX (order, u.order);
    }
  /* Clamped once: the maximum of clamped orders is the clamped maximum. */
  order = CLAMP (order, 0, QD_MAX_ORDER);
  nlfunction_compute (self, t, order, &r);

  y->t = t;
  y->order = order;
  y->tag = 0;
  memcpy (y->c, r.c, sizeof y->c);
  return 1;
}

/* Under a classic solver (QdBlockFastPaths.eval0): what dext, which
 * clears the watched zero, then lambda give on constant inputs. The
 * slots are the expression's scratch space, which lambda refills. */
static inline double
nlfunction_eval0 (QdAtomic      *self,
                  gconstpointer  data,
                  double         t,
                  const double  *v,
                  const guint32 *in,
                  guint          n_in)
{
  NLFunction *st = self->state;
  QdTaylor r;

  if (st->expr == NULL)
    return NAN;
  for (guint i = 0; i < n_in; i++)
    qd_taylor_constant (&st->slots[i], v[in[i]]);
  nlfunction_compute (self, t, 0, &r);
  return r.c[0];
}

QD_DEFINE_EVAL0_RUN (nlfunction_eval0_run, nlfunction_eval0)

static const QdBlockFastPaths nlfunction_fast = {
  .eval0 = nlfunction_eval0,
  .eval0_run = nlfunction_eval0_run,
};

static void
nlfunction_dint (QdAtomic *self,
                 double    t)
{
  NLFunction *st = self->state;

  st->sigma = QD_INF;
  st->zero = QD_EXPR_DOMAIN_NONE;
  if (st->watch && st->expr != NULL)
    {
      st->sigma = qd_expr_next_singularity (st->expr, &st->zero);
      if (!(st->sigma < QD_INF))
        st->zero = QD_EXPR_DOMAIN_NONE;
    }
}

static void
nlfunction_exit (QdAtomic *self,
                 double    t)
{
  NLFunction *st = self->state;

  g_clear_pointer (&st->expr, qd_expr_free);
  st->slots = NULL;  /* they were the expression's */
}

static const QdParamSpec nlfunction_params[] = {
  { "n", N_("Inputs"), QD_PARAM_INTEGER, "1", 1, 64, NULL,
    N_("The number of inputs, named u0 to u(n-1) in the expression."),
    NULL, 0 },
  { "expression", N_("Expression"), QD_PARAM_FUNCTION, "u0", -QD_INF, QD_INF,
    NULL,
    N_("The output as a formula of the inputs u0, u1…, the time t and the "
       "model variables, e.g. \"k*sin(u0) - u1^2\". Operators + - * / ^ and "
       "the functions sqrt exp log log10 sin cos tan asin acos atan atan2 "
       "sinh cosh tanh abs sign min max pow floor ceil; constants pi and e."),
    NULL, 0 },
};

const QdBlockType qd_block_nlfunction = {
  .id = "nlfunction",
  .category = N_("Math"),
  .name = N_("NLFunction"),
  .glyph = "f(u)",
  .doc = N_("A static function given by a formula: y = f(u0, …, u(n-1), t). "
            "The output follows each input event at once and carries the "
            "exact Taylor coefficients of the formula applied to the input "
            "polynomials, up to the highest input order, so QSS2 and QSS3 "
            "keep their accuracy through it. Between input events the "
            "output is not recomputed, so a formula in t alone changes only "
            "when an input does. Where a divisor, the argument of log or "
            "sqrt or the base of a power in the formula reaches zero "
            "(solved from its polynomial), or the output is not finite, the "
            "run stops with an error naming this block, in the words of the "
            "block of that function."),
  .inputs = { .size_param = "n", .name_prefix = "u",
              .doc = N_("The arguments u0, u1… of the formula.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The value of the formula.") },
  .params = nlfunction_params,
  .n_params = G_N_ELEMENTS (nlfunction_params),
  .flags = QD_BLOCK_FEEDTHROUGH | QD_BLOCK_STATIC,
  .state_size = sizeof (NLFunction),
  .check = nlfunction_check,
  .init = nlfunction_init,
  .ta = nlfunction_ta,
  .dint = nlfunction_dint,
  .dext = nlfunction_dext,
  .lambda = nlfunction_lambda,
  .exit = nlfunction_exit,
  .is_static = nlfunction_is_static,
  .fast = &nlfunction_fast,
};

/* qd-block-linear.c: State Space, Transfer Function and PID, linear systems
 * realised as quantized integrators inside one block
 *
 * A State Space block is dx/dt = A x + B u, y = C x + D u with n states.
 * Each state is a quantized integrator of its own, with the Integrator
 * block's own code: the block holds n Integrator instances (their
 * QdAtomic, state and ports, private to it) and drives them through
 * qd_block_integrator's DEVS functions, as the event loop would drive n
 * Integrator blocks wired to Weighted Sums. So every method of the
 * Integrator (QSS1-3, the LIQSS family, BQSS, CQSS, inputs above the
 * method's order) works here unchanged, and the states requantize on
 * their own: one state's internal transition updates the derivatives of
 * the states that depend on it (a nonzero A[j][i]) at the same instant,
 * which is also the answer the linearly implicit methods read.
 *
 * The output y = C q + D u is emitted at every change of a q or, when D
 * is not zero, of an input: each element as the exact polynomial sum of
 * the segments.
 *
 * Transfer Function realises num(s)/den(s) in controllable canonical
 * form on the same machinery; PID realises kp + ki/s + kd s/(1 + s/N) as
 * a State Space of two states (the integral, and the derivative's first
 * order filter), its output optionally limited to [lower, upper] with the
 * times where it reaches a limit found exactly from the output's
 * polynomial.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "qd-blocks-private.h"
#include "qd-poly.h"

/* The Integrator's parameters, in its schema order. */
enum
{
  SUB_X0,
  SUB_METHOD,
  SUB_DQMIN,
  SUB_DQREL,
  SUB_N_PARAMS,
};

typedef struct
{
  guint          n, m, p;
  double        *a, *b, *c, *d;     /* row-major n×n, n×m, p×n, p×m */
  QdAtomic      *sub;               /* n integrators */
  QdParamValue  *sub_params;        /* n × SUB_N_PARAMS */
  QdSignal      *deriv;             /* n: the derivative each one reads */
  const QdSignal **deriv_ptr;       /* n: its input port */
  QdSignal      *q;                 /* n: the q each one emitted last */
  QdSignal      *q_new;             /* n: its output port */
  double        *tn;                /* n: each one's next event */
  gboolean      *changed;           /* n: scratch */
  double         t_last;
  gboolean       out_due;
  /* PID's output limits. */
  gboolean       limited;
  double         lower, upper;
  double         t_limit;           /* the unlimited y reaches a limit */
} Linear;

/* -------------------------------------------------------------------- */
/* The machinery shared by the three blocks */

/* The integrators' parameters taken from the block's, at @first: method,
 * dqmin, dqrel (the schema order of the three blocks' last parameters). */
static void
linear_setup (QdAtomic     *self,
              guint         n,
              guint         m,
              guint         p,
              const double *x0,
              guint         n_x0,
              guint         first)
{
  Linear *st = self->state;

  st->n = n;
  st->m = m;
  st->p = p;
  st->a = qd_atomic_alloc (self, (n * n + 1) * sizeof (double));
  st->b = qd_atomic_alloc (self, (n * m + 1) * sizeof (double));
  st->c = qd_atomic_alloc (self, (p * n + 1) * sizeof (double));
  st->d = qd_atomic_alloc (self, (p * m + 1) * sizeof (double));
  st->sub = qd_atomic_alloc (self, (n + 1) * sizeof (QdAtomic));
  st->sub_params = qd_atomic_alloc (self, (n * SUB_N_PARAMS + 1)
                                          * sizeof (QdParamValue));
  st->deriv = qd_atomic_alloc (self, (n + 1) * sizeof (QdSignal));
  st->deriv_ptr = qd_atomic_alloc (self, (n + 1) * sizeof (QdSignal *));
  st->q = qd_atomic_alloc (self, (n + 1) * sizeof (QdSignal));
  st->q_new = qd_atomic_alloc (self, (n + 1) * sizeof (QdSignal));
  st->tn = qd_atomic_alloc (self, (n + 1) * sizeof (double));
  st->changed = qd_atomic_alloc (self, (n + 1) * sizeof (gboolean));
  for (guint i = 0; i < n; i++)
    {
      QdAtomic *sub = &st->sub[i];
      QdParamValue *sp = &st->sub_params[i * SUB_N_PARAMS];

      sp[SUB_X0].number = n_x0 == 0 ? 0.0 : x0[n_x0 == 1 ? 0 : i];
      sp[SUB_X0].text = "";
      for (guint k = 0; k < 3; k++)
        sp[SUB_METHOD + k] = self->params[first + k];
      st->deriv_ptr[i] = &st->deriv[i];
      sub->state = qd_atomic_alloc (self, qd_block_integrator.state_size);
      sub->in = &st->deriv_ptr[i];
      sub->out = &st->q_new[i];
      sub->params = sp;
      sub->type = &qd_block_integrator;
      sub->sim = self->sim;
      sub->path = self->path;
      sub->n_in = 1;
      sub->n_out = 1;
      sub->index = self->index;
    }
}

/* Sum of k·segment over a row, advanced to @t, into @r. */
static void
accumulate (QdSignal       *r,
            double          t,
            double          k,
            const QdSignal *x)
{
  QdSignal v;

  if (k == 0.0)
    return;
  qd_signal_advance (x, t, &v);
  for (int j = 0; j <= QD_MAX_ORDER; j++)
    r->c[j] += k * v.c[j];
  r->order = MAX (r->order, v.order);
}

/* Row @row of M·q + N·u at @t, with @q the states' segments. */
static void
row_value (QdAtomic       *self,
           const double   *mq,
           const double   *nu,
           const QdSignal *q,
           double          t,
           QdSignal       *r)
{
  Linear *st = self->state;

  qd_signal_set_constant (r, t, 0.0);
  for (guint k = 0; k < st->n; k++)
    accumulate (r, t, mq[k], &q[k]);
  for (guint l = 0; l < st->m; l++)
    accumulate (r, t, nu[l], self->in[l]);
}

/* Whether the output is at a limit and stays there, and which. */
static int
limit_side (const Linear   *st,
            const QdSignal *y)
{
  double tol = 8.0 * DBL_EPSILON * (fabs (st->lower) + fabs (st->upper)
                                    + 1.0);
  double slope = y->c[1] != 0.0 ? y->c[1] : y->c[2] != 0.0 ? y->c[2]
                                                           : y->c[3];

  if (y->c[0] > st->upper + tol
      || (y->c[0] >= st->upper - tol && slope >= 0.0))
    return 1;
  if (y->c[0] < st->lower - tol
      || (y->c[0] <= st->lower + tol && slope <= 0.0))
    return -1;
  return 0;
}

/* The outputs at @t, from the states' @q. */
static void
linear_output (QdAtomic       *self,
               const QdSignal *q,
               double          t)
{
  Linear *st = self->state;

  for (guint r = 0; r < st->p; r++)
    {
      QdSignal *y = &self->out[r];

      row_value (self, &st->c[r * st->n], &st->d[r * st->m], q, t, y);
      if (st->limited)
        {
          int side = limit_side (st, y);

          if (side != 0)
            qd_signal_set_constant (y, t, side > 0 ? st->upper : st->lower);
        }
    }
}

/* When the unlimited output first reaches a limit after @t. */
static void
linear_plan_limit (QdAtomic *self,
                   double    t)
{
  Linear *st = self->state;
  QdSignal y;
  double d[QD_MAX_ORDER + 1], s = QD_INF;
  int side;

  st->t_limit = QD_INF;
  if (!st->limited)
    return;
  row_value (self, st->c, st->d, st->q, t, &y);
  side = limit_side (st, &y);
  memcpy (d, y.c, sizeof d);
  /* Inside: the first touch of either limit; at a limit: the time it
   * comes back inside. */
  if (side <= 0)
    {
      d[0] = side < 0 ? MAX (y.c[0] - st->lower, 0.0) : y.c[0] - st->lower;
      s = MIN (s, qd_poly_first_root (d, QD_MAX_ORDER));
    }
  if (side >= 0)
    {
      d[0] = side > 0 ? MIN (y.c[0] - st->upper, 0.0) : y.c[0] - st->upper;
      s = MIN (s, qd_poly_first_root (d, QD_MAX_ORDER));
    }
  st->t_limit = t + s;
}

/* The derivative of state @j at @t, given to its integrator. */
static void
linear_feed (QdAtomic *self,
             guint     j,
             double    t)
{
  Linear *st = self->state;
  QdAtomic *sub = &st->sub[j];

  row_value (self, &st->a[j * st->n], &st->b[j * st->m], st->q, t,
             &st->deriv[j]);
  qd_block_integrator.dext (sub, t, 0.0, 0, &st->deriv[j]);
  st->tn[j] = t + qd_block_integrator.ta (sub);
}

static void
linear_start (QdAtomic *self,
              double    t)
{
  Linear *st = self->state;

  for (guint i = 0; i < st->n; i++)
    {
      QdAtomic *sub = &st->sub[i];

      qd_signal_set_constant (&st->deriv[i], t, 0.0);
      qd_block_integrator.init (sub, t);
      qd_signal_set_constant (&st->q[i], t,
                              st->sub_params[i * SUB_N_PARAMS].number);
      st->tn[i] = t + qd_block_integrator.ta (sub);
    }
  st->t_last = t;
  st->out_due = TRUE;
  st->t_limit = QD_INF;
}

static double
linear_ta (QdAtomic *self)
{
  Linear *st = self->state;
  double next = st->t_limit;

  if (st->out_due)
    return 0.0;
  for (guint i = 0; i < st->n; i++)
    next = MIN (next, st->tn[i]);
  return MAX (0.0, next - st->t_last);
}

static guint64
linear_lambda (QdAtomic *self,
               double    t)
{
  Linear *st = self->state;

  /* The q the imminent integrators emit now, with the others' last. */
  for (guint i = 0; i < st->n; i++)
    if (st->tn[i] <= t)
      qd_block_integrator.lambda (&st->sub[i], t);
    else
      st->q_new[i] = st->q[i];
  linear_output (self, st->q_new, t);
  return st->p >= 64 ? G_MAXUINT64 : (G_GUINT64_CONSTANT (1) << st->p) - 1;
}

static void
linear_dint (QdAtomic *self,
             double    t)
{
  Linear *st = self->state;

  for (guint i = 0; i < st->n; i++)
    {
      st->changed[i] = st->tn[i] <= t;
      if (st->changed[i])
        {
          QdAtomic *sub = &st->sub[i];

          qd_block_integrator.lambda (sub, t);
          qd_block_integrator.dint (sub, t);
          st->q[i] = st->q_new[i];
          st->tn[i] = t + qd_block_integrator.ta (sub);
        }
    }
  /* The derivatives that read a q that changed. */
  for (guint j = 0; j < st->n; j++)
    {
      gboolean reads = FALSE;

      for (guint i = 0; i < st->n && !reads; i++)
        reads = st->changed[i] && st->a[j * st->n + i] != 0.0;
      if (reads)
        linear_feed (self, j, t);
    }
  st->t_last = t;
  st->out_due = FALSE;
  linear_plan_limit (self, t);
}

static void
linear_dext (QdAtomic       *self,
             double          t,
             double          e,
             guint           port,
             const QdSignal *x)
{
  Linear *st = self->state;

  for (guint j = 0; j < st->n; j++)
    if (st->b[j * st->m + port] != 0.0)
      linear_feed (self, j, t);
  for (guint r = 0; r < st->p; r++)
    if (st->d[r * st->m + port] != 0.0)
      st->out_due = TRUE;
  st->t_last = t;
  linear_plan_limit (self, t);
}

/* A vector parameter's length check, in the words of the others. */
static gboolean
check_length (const char  *name,
              guint        got,
              guint        want,
              const char  *what,
              GError     **error)
{
  if (got == want)
    return TRUE;
  g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
               _("parameter '%s' has %u elements; it needs %u (%s)"),
               name, got, want, what);
  return FALSE;
}

static void
quantum_check_message (GError **error)
{
  g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
               _("dqmin and dqrel are both 0: set one of them"));
}

/* -------------------------------------------------------------------- */
/* State Space */

enum
{
  SS_A,
  SS_B,
  SS_C,
  SS_D,
  SS_X0,
  SS_INPUTS,
  SS_OUTPUTS,
  SS_METHOD,
  SS_DQMIN,
  SS_DQREL,
};

/* The number of states, from A's n² elements; 0 when not a square. */
static guint
states_of (const QdParamValue *a)
{
  guint n = (guint) llround (sqrt ((double) a->n_vector));

  return n * n == a->n_vector ? n : 0;
}

static gboolean
state_space_check (const QdBlockType  *type,
                   const QdParamValue *params,
                   guint               n_inputs,
                   guint               n_outputs,
                   GError            **error)
{
  guint n = states_of (&params[SS_A]);
  guint m = n_inputs, p = n_outputs;
  guint nd = params[SS_D].n_vector, nx = params[SS_X0].n_vector;

  if (n == 0)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("parameter 'A' has %u elements: it must be a square "
                     "matrix of n × n, given row by row"),
                   params[SS_A].n_vector);
      return FALSE;
    }
  if (!check_length ("B", params[SS_B].n_vector, n * m,
                     _("n × inputs, row by row"), error)
      || !check_length ("C", params[SS_C].n_vector, p * n,
                        _("outputs × n, row by row"), error))
    return FALSE;
  if (nd != 1 && !check_length ("D", nd, p * m,
                                _("outputs × inputs, or one 0"), error))
    return FALSE;
  if (nd == 1 && p * m != 1 && params[SS_D].vector[0] != 0.0)
    return check_length ("D", nd, p * m, _("outputs × inputs, or one 0"),
                         error);
  if (nx != 1 && !check_length ("x0", nx, n, _("one per state, or one for "
                                              "all"), error))
    return FALSE;
  if (params[SS_DQMIN].number == 0.0 && params[SS_DQREL].number == 0.0)
    {
      quantum_check_message (error);
      return FALSE;
    }
  return TRUE;
}

static void
copy_or_zero (double             *dst,
              const QdParamValue *v,
              guint               count)
{
  for (guint i = 0; i < count; i++)
    dst[i] = v->n_vector == count ? v->vector[i] : 0.0;
}

static void
state_space_init (QdAtomic *self,
                  double    t)
{
  Linear *st = self->state;
  const QdParamValue *p = self->params;
  guint n = states_of (&p[SS_A]);

  linear_setup (self, n, self->n_in, self->n_out, p[SS_X0].vector,
                p[SS_X0].n_vector, SS_METHOD);
  copy_or_zero (st->a, &p[SS_A], n * n);
  copy_or_zero (st->b, &p[SS_B], n * st->m);
  copy_or_zero (st->c, &p[SS_C], st->p * n);
  copy_or_zero (st->d, &p[SS_D], st->p * st->m);
  st->limited = FALSE;
  linear_start (self, t);
}

static const char *const method_choices[] = {
  "QSS1", "QSS2", "QSS3", "LIQSS1", "LIQSS2", "LIQSS3", "BQSS", "CQSS", NULL
};

#define METHOD_PARAMS                                                      \
  { "method", N_("Method"), QD_PARAM_CHOICE, "", -QD_INF, QD_INF, NULL,    \
    N_("The quantized-state method of the block's integrators (see "       \
       "Integrator). Empty uses the model's setting."),                    \
    method_choices, QD_PARAM_INHERIT },                                    \
  { "dqmin", N_("Absolute quantum"), QD_PARAM_NUMBER, "", 0, QD_INF, NULL, \
    N_("The smallest quantum of each state. Empty uses the model's "       \
       "setting."), NULL, QD_PARAM_INHERIT },                              \
  { "dqrel", N_("Relative quantum"), QD_PARAM_NUMBER, "", 0, QD_INF, NULL, \
    N_("The quantum relative to each |x|. Empty uses the model's "         \
       "setting."), NULL, QD_PARAM_INHERIT }

static const QdParamSpec state_space_params[] = {
  { "A", N_("A"), QD_PARAM_VECTOR, "-1", -QD_INF, QD_INF, NULL,
    N_("The n × n state matrix, row by row: \"0, 1, -1, 0\" is "
       "[[0, 1], [−1, 0]]. Its size sets the number of states."), NULL, 0 },
  { "B", N_("B"), QD_PARAM_VECTOR, "1", -QD_INF, QD_INF, NULL,
    N_("The n × inputs input matrix, row by row."), NULL, 0 },
  { "C", N_("C"), QD_PARAM_VECTOR, "1", -QD_INF, QD_INF, NULL,
    N_("The outputs × n output matrix, row by row."), NULL, 0 },
  { "D", N_("D"), QD_PARAM_VECTOR, "0", -QD_INF, QD_INF, NULL,
    N_("The outputs × inputs feedthrough matrix, row by row; a single 0 "
       "for none."), NULL, 0 },
  { "x0", N_("Initial state"), QD_PARAM_VECTOR, "0", -QD_INF, QD_INF, NULL,
    N_("The initial state, one value per state (or one for all)."),
    NULL, 0 },
  { "inputs", N_("Inputs"), QD_PARAM_INTEGER, "1", 1, 64, NULL,
    N_("The number of inputs u."), NULL, 0 },
  { "outputs", N_("Outputs"), QD_PARAM_INTEGER, "1", 1, 64, NULL,
    N_("The number of outputs y."), NULL, 0 },
  METHOD_PARAMS,
};

const QdBlockType qd_block_state_space = {
  .id = "state_space",
  .category = N_("Continuous"),
  .name = N_("State Space"),
  .glyph = "ẋ=Ax+Bu",
  .doc = N_("A linear system dx/dt = A x + B u, y = C x + D u. Each state "
            "is a quantized integrator of the chosen method, requantized "
            "on its own as an Integrator block is; the outputs are the "
            "exact polynomial sums C q + D u, emitted whenever a state's "
            "q, or an input read through D, changes. Matrices are given "
            "row by row as comma-separated lists."),
  .inputs = { .size_param = "inputs", .name_prefix = "u",
              .doc = N_("The inputs u.") },
  .outputs = { .size_param = "outputs", .name_prefix = "y",
               .doc = N_("The outputs y = C x + D u.") },
  .params = state_space_params,
  .n_params = G_N_ELEMENTS (state_space_params),
  .flags = QD_BLOCK_INTEGRATOR,
  .state_size = sizeof (Linear),
  .check = state_space_check,
  .init = state_space_init,
  .ta = linear_ta,
  .dint = linear_dint,
  .dext = linear_dext,
  .lambda = linear_lambda,
};

/* -------------------------------------------------------------------- */
/* Transfer Function */

enum
{
  TF_NUM,
  TF_DEN,
  TF_METHOD,
  TF_DQMIN,
  TF_DQREL,
};

/* The degree of a coefficient list (highest power first), leading zeros
 * left out; -1 for all zeros. */
static int
degree_of (const QdParamValue *v,
           guint              *lead)
{
  for (guint i = 0; i < v->n_vector; i++)
    if (v->vector[i] != 0.0)
      {
        *lead = i;
        return (int) (v->n_vector - 1 - i);
      }
  *lead = v->n_vector;
  return -1;
}

static gboolean
transfer_function_check (const QdBlockType  *type,
                         const QdParamValue *params,
                         guint               n_inputs,
                         guint               n_outputs,
                         GError            **error)
{
  guint lead;
  int dn = degree_of (&params[TF_NUM], &lead);
  int dd = degree_of (&params[TF_DEN], &lead);

  if (dd < 0)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("parameter 'den' is zero: give the denominator's "
                     "coefficients, highest power of s first"));
      return FALSE;
    }
  if (dn > dd)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("parameter 'num' has degree %d, above the "
                     "denominator's %d: the transfer function must be "
                     "proper"), dn, dd);
      return FALSE;
    }
  if (params[TF_DQMIN].number == 0.0 && params[TF_DQREL].number == 0.0)
    {
      quantum_check_message (error);
      return FALSE;
    }
  return TRUE;
}

static void
transfer_function_init (QdAtomic *self,
                        double    t)
{
  Linear *st = self->state;
  const QdParamValue *num = &self->params[TF_NUM];
  const QdParamValue *den = &self->params[TF_DEN];
  guint lead;
  int n = degree_of (den, &lead);
  const double *a = &den->vector[lead];   /* a[0] s^n + ... + a[n] */
  double *bb = qd_atomic_alloc (self, (n + 1) * sizeof (double));

  linear_setup (self, n, 1, 1, NULL, 0, TF_METHOD);
  /* The numerator aligned on the powers of the denominator, divided by
   * its leading coefficient. */
  for (guint i = 0; i < num->n_vector && (int) i <= n; i++)
    bb[n - i] = num->vector[num->n_vector - 1 - i] / a[0];
  /* Controllable canonical form: x_k' = x_{k+1}, x_n' = u − Σ a_i x_{n+1−i}
   * (a normalised), y = Σ (b_i − b_0 a_i) x_{n+1−i} + b_0 u. */
  for (int k = 0; k + 1 < n; k++)
    st->a[k * n + k + 1] = 1.0;
  for (int i = 1; i <= n; i++)
    {
      st->a[(n - 1) * n + (n - i)] = -a[i] / a[0];
      st->c[n - i] = bb[i] - bb[0] * a[i] / a[0];
    }
  if (n > 0)
    st->b[n - 1] = 1.0;
  st->d[0] = bb[0];
  st->limited = FALSE;
  linear_start (self, t);
}

static const QdParamSpec transfer_function_params[] = {
  { "num", N_("Numerator"), QD_PARAM_VECTOR, "1", -QD_INF, QD_INF, NULL,
    N_("The numerator's coefficients, highest power of s first: \"2, 1\" "
       "is 2s + 1."), NULL, 0 },
  { "den", N_("Denominator"), QD_PARAM_VECTOR, "1, 1", -QD_INF, QD_INF,
    NULL, N_("The denominator's coefficients, highest power of s first: "
             "\"1, 1\" is s + 1. Its degree is the number of states."),
    NULL, 0 },
  METHOD_PARAMS,
};

const QdBlockType qd_block_transfer_function = {
  .id = "transfer_function",
  .category = N_("Continuous"),
  .name = N_("Transfer Function"),
  .glyph = "N(s)/D(s)",
  .doc = N_("A linear system given by its transfer function num(s)/den(s), "
            "proper (the numerator's degree at most the denominator's), "
            "from zero initial state. It is realised in controllable "
            "canonical form as quantized integrators inside the block, one "
            "per power of the denominator (see State Space)."),
  .inputs = { .count = 1, .name_prefix = "u",
              .doc = N_("The input u.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The output y.") },
  .params = transfer_function_params,
  .n_params = G_N_ELEMENTS (transfer_function_params),
  .flags = QD_BLOCK_INTEGRATOR,
  .state_size = sizeof (Linear),
  .check = transfer_function_check,
  .init = transfer_function_init,
  .ta = linear_ta,
  .dint = linear_dint,
  .dext = linear_dext,
  .lambda = linear_lambda,
};

/* -------------------------------------------------------------------- */
/* PID */

enum
{
  PID_KP,
  PID_KI,
  PID_KD,
  PID_N,
  PID_LIMIT,
  PID_LOWER,
  PID_UPPER,
  PID_METHOD,
  PID_DQMIN,
  PID_DQREL,
};

static gboolean
pid_check (const QdBlockType  *type,
           const QdParamValue *params,
           guint               n_inputs,
           guint               n_outputs,
           GError            **error)
{
  if (params[PID_KD].number != 0.0 && !(params[PID_N].number > 0.0))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("parameter 'n' must be greater than 0 when 'kd' is "
                     "not 0 (it is %g)"), params[PID_N].number);
      return FALSE;
    }
  if (params[PID_LIMIT].number != 0.0
      && !(params[PID_LOWER].number < params[PID_UPPER].number))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("parameter 'lower' (%g) must be below parameter "
                     "'upper' (%g)"), params[PID_LOWER].number,
                   params[PID_UPPER].number);
      return FALSE;
    }
  if (params[PID_DQMIN].number == 0.0 && params[PID_DQREL].number == 0.0)
    {
      quantum_check_message (error);
      return FALSE;
    }
  return TRUE;
}

static void
pid_init (QdAtomic *self,
          double    t)
{
  Linear *st = self->state;
  const QdParamValue *p = self->params;
  double kp = p[PID_KP].number, ki = p[PID_KI].number;
  double kd = p[PID_KD].number, nf = p[PID_N].number;

  /* x1 = ∫e; x2 the filter state, x2' = N (e − x2); the derivative term
   * kd N (e − x2) is kd s/(1 + s/N) applied to e. */
  linear_setup (self, 2, 1, 1, NULL, 0, PID_METHOD);
  st->a[3] = kd != 0.0 ? -nf : 0.0;
  st->b[0] = 1.0;
  st->b[1] = kd != 0.0 ? nf : 0.0;
  st->c[0] = ki;
  st->c[1] = kd != 0.0 ? -kd * nf : 0.0;
  st->d[0] = kp + (kd != 0.0 ? kd * nf : 0.0);
  st->limited = p[PID_LIMIT].number != 0.0;
  st->lower = p[PID_LOWER].number;
  st->upper = p[PID_UPPER].number;
  linear_start (self, t);
}

static const QdParamSpec pid_params[] = {
  { "kp", N_("Proportional gain"), QD_PARAM_NUMBER, "1", -QD_INF, QD_INF,
    NULL, N_("The gain kp of the error e."), NULL, 0 },
  { "ki", N_("Integral gain"), QD_PARAM_NUMBER, "0", -QD_INF, QD_INF, NULL,
    N_("The gain ki of the integral of e."), NULL, 0 },
  { "kd", N_("Derivative gain"), QD_PARAM_NUMBER, "0", -QD_INF, QD_INF,
    NULL, N_("The gain kd of the filtered derivative of e."), NULL, 0 },
  { "n", N_("Filter coefficient"), QD_PARAM_NUMBER, "100", 0, QD_INF,
    "1/s", N_("The derivative's filter: kd s/(1 + s/N), a pure "
              "derivative as N grows."), NULL, 0 },
  { "limit", N_("Limit output"), QD_PARAM_BOOLEAN, "false", 0, 1, NULL,
    N_("Whether the output is held within [lower, upper]."), NULL, 0 },
  { "lower", N_("Lower limit"), QD_PARAM_NUMBER, "-1", -QD_INF, QD_INF,
    NULL, N_("The lowest output, when limited."), NULL, 0 },
  { "upper", N_("Upper limit"), QD_PARAM_NUMBER, "1", -QD_INF, QD_INF,
    NULL, N_("The highest output, when limited."), NULL, 0 },
  METHOD_PARAMS,
};

const QdBlockType qd_block_pid = {
  .id = "pid",
  .category = N_("Continuous"),
  .name = N_("PID Controller"),
  .glyph = "PID",
  .doc = N_("A PID controller of the error e at its input: y = kp e + ki "
            "∫e dt + kd·D, with D the derivative of e through the first "
            "order filter s/(1 + s/N). The integral and the filter are two "
            "quantized integrators inside the block (see State Space). "
            "With the limit on, the output is held within [lower, upper] "
            "and the times where it reaches a limit or leaves it are found "
            "exactly (the integral is not held: no anti-windup)."),
  .inputs = { .count = 1, .name_prefix = "e",
              .doc = N_("The error e.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The control y.") },
  .params = pid_params,
  .n_params = G_N_ELEMENTS (pid_params),
  .flags = QD_BLOCK_INTEGRATOR,
  .state_size = sizeof (Linear),
  .check = pid_check,
  .init = pid_init,
  .ta = linear_ta,
  .dint = linear_dint,
  .dext = linear_dext,
  .lambda = linear_lambda,
};

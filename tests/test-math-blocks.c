/* test-math-blocks.c: the static-function math blocks and NLFunction
 *
 * The one-input blocks, Product and Division are driven directly: a
 * QdAtomic is assembled by hand, and init, dext, ta, lambda and dint are
 * called as the event loop would. Outputs are compared with the Taylor
 * series of the function worked out by hand. NLFunction needs the
 * simulation's services (memory, model variables), so it runs inside a
 * small compiled model.
 */
#include <math.h>
#include <string.h>

#include "qd-test-util.h"

#define MAX_IN 4

typedef struct
{
  QdAtomic        atomic;
  QdSignal        inputs[MAX_IN];
  const QdSignal *in_ptrs[MAX_IN];
  QdSignal        out;
  QdParamValue    params[4];
  gpointer        state;
} Harness;

static void
harness_init (Harness           *h,
              const char        *id,
              guint              n_in,
              const double      *numbers,
              guint              n_params)
{
  const QdBlockType *type = qd_registry_lookup (id);

  g_assert_nonnull (type);
  g_assert_cmpuint (n_params, ==, type->n_params);
  memset (h, 0, sizeof *h);
  h->state = g_malloc0 (type->state_size);
  for (guint i = 0; i < n_in; i++)
    h->in_ptrs[i] = &h->inputs[i];
  for (guint i = 0; i < n_params; i++)
    {
      h->params[i].number = numbers[i];
      h->params[i].text = "";
    }
  h->atomic.state = h->state;
  h->atomic.in = h->in_ptrs;
  h->atomic.out = &h->out;
  h->atomic.n_in = n_in;
  h->atomic.n_out = 1;
  h->atomic.params = h->params;
  h->atomic.type = type;
  h->atomic.path = "/Test";
  type->init (&h->atomic, 0.0);
  g_assert_cmpfloat (type->ta (&h->atomic), ==, QD_INF);
}

static void
harness_clear (Harness *h)
{
  if (h->atomic.type->exit != NULL)
    h->atomic.type->exit (&h->atomic, 10.0);
  g_free (h->state);
}

/* An event on input @port at time @t; the block must answer at once. */
static void
harness_event (Harness *h,
               guint    port,
               double   t)
{
  const QdBlockType *type = h->atomic.type;

  type->dext (&h->atomic, t, 0.0, port, &h->inputs[port]);
  g_assert_cmpfloat (type->ta (&h->atomic), ==, 0.0);
  g_assert_cmpuint (type->lambda (&h->atomic, t), ==, 1);
  type->dint (&h->atomic, t);
  /* Passive, or (the blocks that watch an input's zero) due when it is
   * reached. */
  if (type->flags & QD_BLOCK_STATIC)
    g_assert_cmpfloat (type->ta (&h->atomic), ==, QD_INF);
  else
    g_assert_cmpfloat (type->ta (&h->atomic), >, 0.0);
  g_assert_cmpfloat (h->out.t, ==, t);
}

static void
set_input (Harness      *h,
           guint         port,
           double        t,
           int           order,
           const double *c)
{
  QdSignal *s = &h->inputs[port];

  s->t = t;
  s->order = order;
  for (int k = 0; k <= QD_MAX_ORDER; k++)
    s->c[k] = k <= order ? c[k] : 0.0;
}

static void
assert_output (Harness      *h,
               int           order,
               const double *expected)
{
  g_assert_cmpint (h->out.order, ==, order);
  for (int k = 0; k <= QD_MAX_ORDER; k++)
    {
      double want = k <= order ? expected[k] : 0.0;

      if (!(fabs (h->out.c[k] - want) <= 1e-12 * MAX (1.0, fabs (want))))
        g_error ("%s: c[%d] = %.17g, expected %.17g",
                 h->atomic.type->id, k, h->out.c[k], want);
    }
}

static void
test_descriptors (void)
{
  static const char *const ids[] = {
    "product", "division", "sin", "cos", "exp", "log", "sqrt", "abs",
    "square", "pow", "inverse", "nlfunction",
  };

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      const QdBlockType *type = qd_registry_lookup (ids[i]);

      g_assert_nonnull (type);
      g_assert_cmpstr (type->id, ==, ids[i]);
      g_assert_cmpstr (type->category, ==, "Math");
      g_assert_true (type->flags & QD_BLOCK_FEEDTHROUGH);
      g_assert_nonnull (type->doc);
      g_assert_nonnull (type->glyph);
      g_assert_nonnull (type->inputs.doc);
      g_assert_nonnull (type->outputs.doc);
      g_assert_cmpuint (type->outputs.count, ==, 1);
      g_assert_nonnull (type->lambda);
    }

  /* Port counts that follow "n". */
  g_assert_cmpstr (qd_registry_lookup ("product")->inputs.size_param, ==, "n");
  g_assert_cmpstr (qd_registry_lookup ("nlfunction")->inputs.size_param, ==, "n");
  g_assert_cmpuint (qd_registry_lookup ("division")->inputs.count, ==, 2);
  g_assert_cmpuint (qd_registry_lookup ("sin")->inputs.count, ==, 1);
  {
    const QdBlockType *pw = qd_registry_lookup ("pow");
    const QdBlockType *nl = qd_registry_lookup ("nlfunction");
    int k = qd_block_type_find_param (pw, "exponent");

    g_assert_cmpint (k, ==, 0);
    g_assert_cmpint (pw->params[k].kind, ==, QD_PARAM_NUMBER);
    g_assert_cmpstr (pw->params[k].default_value, ==, "2");
    g_assert_cmpint (nl->params[qd_block_type_find_param (nl, "expression")].kind,
                     ==, QD_PARAM_FUNCTION);
    g_assert_cmpstr (nl->params[qd_block_type_find_param (nl, "n")].default_value,
                     ==, "1");
    g_assert_cmpstr (qd_registry_lookup ("product")->params[0].default_value,
                     ==, "2");
  }
}

/* Three factors of orders 1, 2 and 0, given at earlier times: the product
 * is taken at the event time, with order 2. */
static void
test_product (void)
{
  Harness h;
  double n = 3;
  /* u0 = 1 + 2 (t - 1)      at t = 2: 3 + 2 s
   * u1 = (t - 0)^2 - 1      at t = 2: 3 + 4 s + s^2
   * u2 = -0.5 */
  const double u0[] = { 1, 2 }, u1[] = { -1, 0, 1 }, u2[] = { -0.5 };
  /* (3 + 2s)(3 + 4s + s^2)(-0.5) = -0.5 (9 + 18 s + 11 s^2 + 2 s^3) */
  const double expected[] = { -4.5, -9, -5.5 };

  harness_init (&h, "product", 3, &n, 1);
  set_input (&h, 0, 1.0, 1, u0);
  set_input (&h, 1, 0.0, 2, u1);
  set_input (&h, 2, 1.5, 0, u2);
  harness_event (&h, 2, 2.0);
  assert_output (&h, 2, expected);

  /* Raising one input to order 3 raises the output's. */
  {
    const double u1c[] = { -1, 0, 1, 1 };    /* t^3 + t^2 - 1 at 2: 11 + 16s + 7s^2 + s^3 */
    const double e3[] = { -0.5 * 33, -0.5 * (48 + 22), -0.5 * (21 + 32), -0.5 * (3 + 14) };

    set_input (&h, 1, 0.0, 3, u1c);
    harness_event (&h, 1, 2.0);
    assert_output (&h, 3, e3);
  }
  harness_clear (&h);

  /* Two factors of order 1 and a last one of order 2: the first two's
   * product has an s^2 term, which the output keeps although neither of
   * them has one. (1 + s)(1 + s)(1 + s^2) = 1 + 2s + 2s^2 + ... */
  {
    const double r[] = { 1, 1 }, q[] = { 1, 0, 1 };
    const double e[] = { 1, 2, 2 };

    harness_init (&h, "product", 3, &n, 1);
    set_input (&h, 0, 0.0, 1, r);
    set_input (&h, 1, 0.0, 1, r);
    set_input (&h, 2, 0.0, 2, q);
    harness_event (&h, 2, 0.0);
    assert_output (&h, 2, e);
    harness_clear (&h);
  }

  /* Two factors, the common case the block computes inline: orders 1 and
   * 2 given at earlier times, then 3 and 0, bit for bit what advancing
   * each to the event time and qd_taylor_mul() give.
   * (3 + 2s)(3 + 4s + s^2) = 9 + 18 s + 11 s^2 + 2 s^3, at order 2. */
  {
    const double u1c[] = { 0.1, -0.3, 0.7, 1.1 }, u0c[] = { 0.25 };
    const double e[] = { 9, 18, 11 };
    double two = 2;

    harness_init (&h, "product", 2, &two, 1);
    set_input (&h, 0, 1.0, 1, u0);
    set_input (&h, 1, 0.0, 2, u1);
    harness_event (&h, 1, 2.0);
    assert_output (&h, 2, e);
    for (int k = 0; k < 2; k++)
      {
        QdSignal a, b;
        QdTaylor p, q;

        set_input (&h, 0, 0.5, k == 0 ? 3 : 0, k == 0 ? u1c : u0c);
        set_input (&h, 1, 1.25, k == 0 ? 0 : 3, k == 0 ? u0c : u1c);
        harness_event (&h, 0, 1.75);
        qd_signal_advance (&h.inputs[0], 1.75, &a);
        qd_signal_advance (&h.inputs[1], 1.75, &b);
        memcpy (p.c, a.c, sizeof p.c);
        memcpy (q.c, b.c, sizeof q.c);
        qd_taylor_mul (&p, &p, &q, 3);
        g_assert_cmpint (h.out.order, ==, 3);
        g_assert_cmpmem (h.out.c, sizeof h.out.c, p.c, sizeof p.c);
      }
    harness_clear (&h);
  }
}

static void
test_division (void)
{
  Harness h;
  /* (1 + 2s) / (1 - s) = 1 + 3s + 3s^2 + 3s^3 */
  const double num[] = { 1, 2 }, den[] = { 1, -1, 0 };
  const double expected[] = { 1, 3, 3 };

  harness_init (&h, "division", 2, NULL, 0);
  set_input (&h, 0, 4.0, 1, num);
  set_input (&h, 1, 4.0, 2, den);
  harness_event (&h, 0, 4.0);
  assert_output (&h, 2, expected);
  harness_clear (&h);
}

typedef struct
{
  const char *id;
  double      exponent;   /* "pow" only */
  double      u0;
  /* f, f', f'', f''' at u0 */
  double      f[4];
} UnaryCase;

/* Each block on u = u0 + b s + c s^2 (order 2), against the chain rule
 * r1 = f' b, r2 = f' c + f'' b^2 / 2. */
static void
test_unary (void)
{
  const double b = 0.6, c = -0.35;
  const UnaryCase cases[] = {
    { "sin", 0, 0.8, { sin (0.8), cos (0.8), -sin (0.8) } },
    { "cos", 0, 0.8, { cos (0.8), -sin (0.8), -cos (0.8) } },
    { "exp", 0, -0.3, { exp (-0.3), exp (-0.3), exp (-0.3) } },
    { "log", 0, 2.0, { log (2.0), 0.5, -0.25 } },
    { "sqrt", 0, 4.0, { 2.0, 0.25, -1.0 / 32 } },
    { "abs", 0, -1.5, { 1.5, -1, 0 } },
    { "square", 0, -1.5, { 2.25, -3, 2 } },
    { "pow", 2.5, 4.0, { 32, 2.5 * 8, 2.5 * 1.5 * 2 } },
    { "pow", -2, -2.0, { 0.25, -2 * -0.125, 6 * 0.0625 } },
    { "inverse", 0, 0.5, { 2, -4, 16 } },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const UnaryCase *uc = &cases[i];
      const QdBlockType *type = qd_registry_lookup (uc->id);
      Harness h;
      const double u[] = { uc->u0, b, c };
      const double expected[] = {
        uc->f[0], uc->f[1] * b, uc->f[1] * c + uc->f[2] * b * b / 2,
      };

      harness_init (&h, uc->id, 1, &uc->exponent, type->n_params);
      set_input (&h, 0, 1.0, 2, u);
      harness_event (&h, 0, 1.0);
      assert_output (&h, 2, expected);

      /* The same input seen as order 0 gives order 0. */
      set_input (&h, 0, 1.0, 0, u);
      harness_event (&h, 0, 1.0);
      assert_output (&h, 0, expected);
      harness_clear (&h);
    }
}

static void
test_nlfunction_check (void)
{
  const QdBlockType *nl = qd_registry_lookup ("nlfunction");
  QdParamValue params[2] = { { .number = 2, .text = "2" }, { .text = NULL } };
  g_autoptr(GError) error = NULL;

  params[1].text = "k*sin(u0) - u1^2 + t";
  g_assert_true (nl->check (nl, params, 2, 1, &error));
  g_assert_no_error (error);

  params[1].text = "u0 + 2*u3";
  g_assert_false (nl->check (nl, params, 2, 1, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_EXPR);
  g_assert_cmpstr (error->message, ==,
                   "parameter 'expression': column 8: input u3 does not "
                   "exist (the block has 2 inputs)");
  g_clear_error (&error);

  /* "u1" inside "xu1" is another name. */
  params[1].text = "xu1 + u1";
  g_assert_false (nl->check (nl, params, 1, 1, &error));
  g_assert_cmpstr (error->message, ==,
                   "parameter 'expression': column 7: input u1 does not "
                   "exist (the block has 1 input)");
  g_clear_error (&error);

  params[1].text = "sin(u0";
  g_assert_false (nl->check (nl, params, 1, 1, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_SYNTAX);
  g_assert_cmpstr (error->message, ==,
                   "parameter 'expression': column 7: missing ')' to close "
                   "the '(' at column 4");
}

/* A QSS3 integrator of x' = -x, x(0) = 1, emits parabolas q; NLFunction
 * "k*sin(u0) + t" with k = 2 must output, at each event time t0 where the
 * input is a + b s + c s^2, the series of 2 sin(a + b s + c s^2) + t0 + s:
 *   r0 = 2 sin a + t0,  r1 = 2 b cos a + 1,  r2 = 2 (c cos a - b^2 sin a / 2).
 * A scope records both x and y. */
static const char nl_model[] =
  "{\"format\": \"qdevs\", \"version\": 1, \"title\": \"nl\","
  " \"simulation\": {\"start\": 0, \"final\": 2, \"method\": \"QSS3\","
  "   \"dqmin\": 1e-6, \"dqrel\": 0},"
  " \"variables\": {\"k\": \"2\"},"
  " \"blocks\": ["
  "  {\"id\": \"i\", \"type\": \"integrator\", \"name\": \"X\", \"params\": {\"x0\": \"1\"}},"
  "  {\"id\": \"g\", \"type\": \"gain\", \"name\": \"G\", \"params\": {\"k\": \"-1\"}},"
  "  {\"id\": \"f\", \"type\": \"nlfunction\", \"name\": \"F\","
  "   \"params\": {\"n\": \"1\", \"expression\": \"%s\"}},"
  "  {\"id\": \"s\", \"type\": \"scope\", \"name\": \"Scope\", \"params\": {\"n\": \"2\", \"names\": \"x, y\"}}"
  " ],"
  " \"links\": ["
  "  {\"id\": \"l1\", \"from\": {\"block\": \"i\", \"port\": 0}, \"to\": [{\"block\": \"g\", \"port\": 0},"
  "    {\"block\": \"f\", \"port\": 0}, {\"block\": \"s\", \"port\": 0}]},"
  "  {\"id\": \"l2\", \"from\": {\"block\": \"g\", \"port\": 0}, \"to\": [{\"block\": \"i\", \"port\": 0}]},"
  "  {\"id\": \"l3\", \"from\": {\"block\": \"f\", \"port\": 0}, \"to\": [{\"block\": \"s\", \"port\": 1}]}"
  " ]}";

static QdSimulation *
nl_simulation (const char  *expression,
               GError     **error)
{
  g_autofree char *text = g_strdup_printf (nl_model, expression);
  g_autoptr(QdDocument) doc = qd_document_load_data (text, strlen (text),
                                                     "<test>", error);

  if (doc == NULL)
    return NULL;
  return qd_simulation_new (doc, NULL, NULL, error);
}

static void
test_nlfunction_run (void)
{
  g_autoptr(GError) error = NULL;
  QdSimulation *sim = nl_simulation ("k*sin(u0) + t", &error);
  GPtrArray *traces;
  QdTrace *xt, *yt;
  gsize nx, ny;
  guint checked = 0;

  g_assert_no_error (error);
  g_assert_nonnull (sim);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
  g_assert_no_error (error);

  traces = qd_simulation_get_traces (sim);
  g_assert_cmpuint (traces->len, ==, 2);
  xt = g_ptr_array_index (traces, 0);
  yt = g_ptr_array_index (traces, 1);
  nx = qd_trace_get_length (xt);
  ny = qd_trace_get_length (yt);
  g_assert_cmpuint (ny, >, 10);
  for (gsize i = 0; i < ny; i++)
    {
      const QdSignal *y = qd_trace_get (yt, i);
      gssize j = qd_trace_find (xt, nx, y->t);
      QdSignal x;
      double t0 = y->t, a, b, c;

      if (y->order == 0 || j < 0)
        continue;    /* the initial zero segment, before any input */
      qd_signal_advance (qd_trace_get (xt, j), t0, &x);
      a = x.c[0];
      b = x.c[1];
      c = x.c[2];
      g_assert_cmpint (y->order, ==, 2);
      g_assert_cmpint (x.order, ==, 2);
      g_assert_cmpfloat_with_epsilon (y->c[0], 2 * sin (a) + t0, 1e-12);
      g_assert_cmpfloat_with_epsilon (y->c[1], 2 * b * cos (a) + 1, 1e-12);
      g_assert_cmpfloat_with_epsilon (y->c[2],
                                      2 * (c * cos (a) - b * b * sin (a) / 2),
                                      1e-12);
      g_assert_cmpfloat (y->c[3], ==, 0.0);
      checked++;
    }
  g_assert_cmpuint (checked, >, 10);
  qd_simulation_free (sim);
}

/* A name that is no input, not t and no model variable: found when the
 * model is compiled (so that checking a model finds it, not only running
 * it), with the block path and the column. */
static void
test_nlfunction_unknown_variable (void)
{
  g_autoptr(GError) error = NULL;
  QdSimulation *sim = nl_simulation ("k2*u0", &error);

  g_assert_null (sim);
  g_assert_nonnull (error);
  g_assert_cmpstr (error->message, ==,
                   "/F: parameter 'expression': column 1: unknown name 'k2': "
                   "it is not the input u0, t or a model variable; "
                   "define it in the model's variables");
}

/* Check and Run count WSum's weights as the editor does, at the commas
 * outside parentheses, and want one per input. */
static const char wsum_model[] =
  "{\"format\": \"qdevs\", \"version\": 1, \"title\": \"wsum\","
  " \"simulation\": {\"start\": 0, \"final\": 1},"
  " \"blocks\": ["
  "  {\"id\": \"a\", \"type\": \"constant\", \"name\": \"A\"},"
  "  {\"id\": \"s\", \"type\": \"wsum\", \"name\": \"S\","
  "   \"params\": {\"n\": \"2\", \"weights\": \"%s\"}}"
  " ],"
  " \"links\": ["
  "  {\"id\": \"l1\", \"from\": {\"block\": \"a\", \"port\": 0},"
  "   \"to\": [{\"block\": \"s\", \"port\": 0}, {\"block\": \"s\", \"port\": 1}]}"
  " ]}";

static void
test_wsum_weights (void)
{
  static const struct { const char *weights, *message; } cases[] = {
    { "1, max(2, 3)", NULL },
    { "1, max(2, 3), 4", "/S: parameter 'weights' has 3 values but the block "
                         "has 2 inputs: give one value per input" },
    { "min(1, 2)", "/S: parameter 'weights' has 1 value but the block "
                   "has 2 inputs: give one value per input" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *text = g_strdup_printf (wsum_model, cases[i].weights);
      g_autoptr(GError) error = NULL;
      g_autoptr(QdDocument) doc = qd_document_load_data (text, strlen (text),
                                                         "<test>", &error);
      QdSimulation *sim;

      g_assert_no_error (error);
      sim = qd_simulation_new (doc, NULL, NULL, &error);
      if (cases[i].message == NULL)
        {
          g_assert_no_error (error);
          g_assert_nonnull (sim);
          qd_simulation_free (sim);
        }
      else
        {
          g_assert_null (sim);
          g_assert_error (error, QD_ERROR, QD_ERROR_PARAM);
          g_assert_cmpstr (error->message, ==, cases[i].message);
        }
    }
}

/* A Ramp from 1 with slope -1 reaches 0 at t = 1 and is emitted once, so
 * no input event arrives there: each block that is singular at 0 must
 * stop the run at t = 1 itself (it schedules the zero), naming itself
 * and its domain, not carry its tangent through (1/u gave 1, 2, 3, ...
 * before, log(u) ran on to -5). A power of a positive whole exponent and Square go on.
 * The Ramp feeds the Division's divisor; its dividend is a Constant 1. */
static void
test_singular_zero (void)
{
  static const struct { const char *type, *exponent, *message; } cases[] = {
    { "inverse", NULL, "/D: at t = 1 the input is 0: 1/u needs a nonzero input" },
    { "log", NULL, "/D: at t = 1 the input is 0: log needs a positive input; "
                   "keep it above zero (add an offset or use abs)" },
    { "sqrt", NULL, "/D: at t = 1 the input is 0: sqrt needs an input of zero or "
                    "more, and above zero while it changes (its slope is "
                    "infinite at zero)" },
    { "pow", "-2", "/D: at t = 1 the input is 0: the power is not defined "
                   "there (a negative base needs a whole exponent, a zero "
                   "base a positive one)" },
    { "pow", "0.5", "/D: at t = 1 the input is 0: the power is not defined "
                    "there (a negative base needs a whole exponent, a zero "
                    "base a positive one)" },
    { "division", NULL, "/D: at t = 1 the input is 0: the divisor u1 is zero; "
                        "keep it away from zero" },
    { "pow", "3", NULL },
    { "square", NULL, NULL },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(QdDocument) doc = qd_document_new ();
      QdBlock *ramp = qd_test_add_block (doc, "ramp", "Ramp");
      QdBlock *block = qd_test_add_block (doc, cases[i].type, "D");
      QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
      g_autoptr(GError) error = NULL;
      QdSimulation *sim;
      QdRunStatus status;

      qd_test_set_param (doc, ramp, "initial", "1");
      qd_test_set_param (doc, ramp, "slope", "-1");
      if (cases[i].exponent != NULL)
        qd_test_set_param (doc, block, "exponent", cases[i].exponent);
      if (strcmp (cases[i].type, "division") == 0)
        {
          QdBlock *one = qd_test_add_block (doc, "constant", "One");

          qd_test_set_param (doc, one, "value", "1");
          qd_test_connect (doc, one, 0, block, 0);
          qd_test_connect (doc, ramp, 0, block, 1);
        }
      else
        qd_test_connect (doc, ramp, 0, block, 0);
      qd_test_connect (doc, block, 0, scope, 0);
      qd_test_set_final_time (doc, 5.0);
      sim = qd_test_compile (doc);
      status = qd_simulation_run (sim, &error);
      g_test_message ("%s %s: %s", cases[i].type,
                      cases[i].exponent != NULL ? cases[i].exponent : "",
                      error != NULL ? error->message : "done");
      if (cases[i].message != NULL)
        {
          g_assert_cmpint (status, ==, QD_RUN_ERROR);
          g_assert_cmpstr (error->message, ==, cases[i].message);
        }
      else
        {
          g_assert_cmpint (status, ==, QD_RUN_DONE);
          g_assert_no_error (error);
        }
      qd_simulation_free (sim);
    }
}

/* A power whose base is in its domain but whose value is beyond a double
 * says so, not that the power is undefined there. */
static void
test_pow_overflow (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *ten = qd_test_add_block (doc, "constant", "Ten");
  QdBlock *pow = qd_test_add_block (doc, "pow", "D");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  g_autoptr(GError) error = NULL;
  QdSimulation *sim;

  qd_test_set_param (doc, ten, "value", "10");
  qd_test_set_param (doc, pow, "exponent", "400");
  qd_test_connect (doc, ten, 0, pow, 0);
  qd_test_connect (doc, pow, 0, scope, 0);
  sim = qd_test_compile (doc);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_ERROR);
  g_assert_cmpstr (error->message, ==, "/D: at t = 0 the input is 10: the power "
                   "overflows; check the input's scale");
  qd_simulation_free (sim);
}

/* Runs Source -> D -> Scope to t = 5, D of @type (with @param = @value
 * when @param is not NULL), the source a Ramp 1 - t or, with @constant
 * not NULL, a Constant of that value. Returns the status; @message gets
 * the error's message or NULL, @time the time the run reached. */
static QdRunStatus
run_one_input (const char  *type,
               const char  *param,
               const char  *value,
               const char  *constant,
               char       **message,
               double      *time)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *src = qd_test_add_block (doc, constant != NULL ? "constant" : "ramp",
                                    "Source");
  QdBlock *block = qd_test_add_block (doc, type, "D");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  g_autoptr(GError) error = NULL;
  QdSimulation *sim;
  QdRunStatus status;

  if (constant != NULL)
    qd_test_set_param (doc, src, "value", constant);
  else
    {
      qd_test_set_param (doc, src, "initial", "1");
      qd_test_set_param (doc, src, "slope", "-1");
    }
  if (param != NULL)
    qd_test_set_param (doc, block, param, value);
  qd_test_connect (doc, src, 0, block, 0);
  qd_test_connect (doc, block, 0, scope, 0);
  qd_test_set_final_time (doc, 5.0);
  sim = qd_test_compile (doc);
  status = qd_simulation_run (sim, &error);
  *message = error != NULL ? g_strdup (error->message) : NULL;
  *time = qd_simulation_get_time (sim);
  qd_simulation_free (sim);
  return status;
}

/* The same function as a block and as an NLFunction formula stops alike:
 * at the time the input reaches 0 (the Ramp 1 - t is emitted once, so
 * the formula must schedule the zero itself, as the blocks do; it ran on
 * through the pole before, 1/u0 giving 1, 2, 3 ...), or at once on an
 * input outside the domain, with the same message. The zero of a
 * subexpression is found too (a divisor u0 - 0.25 at t = 0.75), and a
 * function with nothing singular at 0 (u0^3) runs to the end. */
static void
test_nlfunction_singular (void)
{
  static const struct
  {
    const char *formula, *type, *exponent, *constant;
  } cases[] = {
    { "1/u0", "inverse", NULL, NULL },
    { "log(u0)", "log", NULL, NULL },
    { "sqrt(u0)", "sqrt", NULL, NULL },
    { "u0^-2", "pow", "-2", NULL },
    { "u0^0.5", "pow", "0.5", NULL },
    { "pow(u0, 1.5)", "pow", "1.5", NULL },
    { "u0^3", "pow", "3", NULL },
    { "log(u0)", "log", NULL, "-1" },
    { "1/u0", "inverse", NULL, "0" },
    { "sqrt(u0)", "sqrt", NULL, "-4" },
    { "u0^0.5", "pow", "0.5", "-4" },
    { "u0^400", "pow", "400", "10" },
    { "exp(u0)", "exp", NULL, "1000" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *as_block = NULL, *as_formula = NULL;
      double t_block, t_formula;
      QdRunStatus s_block, s_formula;

      s_block = run_one_input (cases[i].type, cases[i].exponent ? "exponent" : NULL,
                               cases[i].exponent, cases[i].constant,
                               &as_block, &t_block);
      s_formula = run_one_input ("nlfunction", "expression", cases[i].formula,
                                 cases[i].constant, &as_formula, &t_formula);
      g_test_message ("%s: %s | %s", cases[i].formula,
                      as_block ? as_block : "done",
                      as_formula ? as_formula : "done");
      g_assert_cmpint (s_formula, ==, s_block);
      g_assert_cmpstr (as_formula, ==, as_block);
      g_assert_cmpfloat (t_formula, ==, t_block);
      if (strcmp (cases[i].formula, "u0^3") == 0)
        g_assert_cmpint (s_block, ==, QD_RUN_DONE);
      else
        g_assert_cmpint (s_block, ==, QD_RUN_ERROR);
    }

  {
    g_autofree char *message = NULL;
    double t;

    g_assert_cmpint (run_one_input ("nlfunction", "expression",
                                    "u0/(u0 - 0.25) + log(u0 + 2)", NULL,
                                    &message, &t), ==, QD_RUN_ERROR);
    g_assert_cmpstr (message, ==, "/D: at t = 0.75 the input is 0: a divisor "
                     "is zero; keep it away from zero");
    g_assert_cmpfloat (t, ==, 0.75);
  }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  g_test_add_func ("/math-blocks/descriptors", test_descriptors);
  g_test_add_func ("/math-blocks/product", test_product);
  g_test_add_func ("/math-blocks/division", test_division);
  g_test_add_func ("/math-blocks/unary", test_unary);
  g_test_add_func ("/math-blocks/nlfunction-check", test_nlfunction_check);
  g_test_add_func ("/math-blocks/nlfunction-run", test_nlfunction_run);
  g_test_add_func ("/math-blocks/nlfunction-unknown-variable",
                   test_nlfunction_unknown_variable);
  g_test_add_func ("/math-blocks/wsum-weights", test_wsum_weights);

  g_test_add_func ("/math-blocks/singular-zero", test_singular_zero);
  g_test_add_func ("/math-blocks/pow-overflow", test_pow_overflow);
  g_test_add_func ("/math-blocks/nlfunction-singular", test_nlfunction_singular);

  return g_test_run ();
}

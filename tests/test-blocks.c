/* test-blocks.c: the basic blocks, driven directly through their DEVS
 * functions
 *
 * Each test builds a QdAtomic by hand (parameters, inputs, outputs, state)
 * and calls init, ta, dext, lambda and dint as the event loop would, so
 * the blocks are checked without the simulation around them.
 */
#include "qd-test-util.h"
#include "qd-blocks-private.h"
#include "qd-block-fast-private.h"
#include "qd-integrator-input.h"

#include <math.h>
#include <string.h>

#define MAX_PORTS 8

typedef struct
{
  QdAtomic        atomic;
  QdParamValue    params[8];
  QdSignal        in_segments[MAX_PORTS];
  const QdSignal *in[MAX_PORTS];
  QdSignal        out[MAX_PORTS];
} Harness;

static Harness *
harness_new (const QdBlockType *type,
             guint              n_in,
             guint              n_out)
{
  Harness *h = g_new0 (Harness, 1);

  for (guint i = 0; i < MAX_PORTS; i++)
    h->in[i] = &h->in_segments[i];
  for (guint i = 0; i < G_N_ELEMENTS (h->params); i++)
    h->params[i].text = "";
  h->atomic.state = g_malloc0 (type->state_size);
  h->atomic.in = h->in;
  h->atomic.out = h->out;
  h->atomic.n_in = n_in;
  h->atomic.n_out = n_out;
  h->atomic.params = h->params;
  h->atomic.type = type;
  h->atomic.path = "/Test";
  return h;
}

static void
harness_free (Harness *h)
{
  g_free (h->atomic.state);
  g_free (h);
}

static void
set_number (Harness    *h,
            const char *name,
            double      value)
{
  int i = -1;

  for (guint k = 0; k < h->atomic.type->n_params; k++)
    if (g_str_equal (h->atomic.type->params[k].name, name))
      i = k;
  g_assert_cmpint (i, >=, 0);
  h->params[i].number = value;
}

/* Delivers @x on @port at @t, as the event loop does: the input pointer
 * first, then dext. */
static void
deliver (Harness        *h,
         guint           port,
         double          t,
         double          e,
         const QdSignal *x)
{
  h->in_segments[port] = *x;
  h->atomic.type->dext (&h->atomic, t, e, port, &h->in_segments[port]);
}

static QdSignal
segment (double t,
         int    order,
         double c0,
         double c1,
         double c2,
         double c3)
{
  QdSignal s = { .t = t, .order = order, .c = { c0, c1, c2, c3 } };

  return s;
}

static void
test_gain (void)
{
  Harness *h = harness_new (&qd_block_gain, 1, 1);
  QdAtomic *a = &h->atomic;
  QdSignal u = segment (1.0, 2, 1.5, -2.0, 0.25, 0.0);
  QdSignal expect;

  set_number (h, "k", -2.5);
  a->type->init (a, 0.0);
  g_assert_cmpfloat (a->type->ta (a), ==, QD_INF);

  deliver (h, 0, 1.0, 1.0, &u);
  g_assert_cmpfloat (a->type->ta (a), ==, 0.0);
  /* The output at a later time is the advanced input, scaled exactly. */
  g_assert_cmpuint (a->type->lambda (a, 1.5), ==, 1);
  qd_signal_advance (&u, 1.5, &expect);
  g_assert_cmpfloat (h->out[0].t, ==, 1.5);
  g_assert_cmpint (h->out[0].order, ==, 2);
  for (int k = 0; k <= QD_MAX_ORDER; k++)
    g_assert_cmpfloat (h->out[0].c[k], ==, -2.5 * expect.c[k]);
  a->type->dint (a, 1.5);
  g_assert_cmpfloat (a->type->ta (a), ==, QD_INF);

  harness_free (h);
}

static void
test_wsum (void)
{
  static const double weights[] = { 1.0, -1.0, 0.5 };
  Harness *h = harness_new (&qd_block_wsum, 3, 1);
  QdAtomic *a = &h->atomic;
  QdSignal u0 = segment (0.0, 0, 3.0, 0, 0, 0);
  QdSignal u1 = segment (0.5, 1, -1.0, 4.0, 0, 0);
  QdSignal u2 = segment (1.0, 3, 2.0, 1.0, -3.0, 0.75);
  QdSignal e0, e1, e2;
  double t = 2.0;

  set_number (h, "n", 3);
  h->params[1].vector = weights;
  h->params[1].n_vector = 3;
  h->params[1].text = "1, -1, 0.5";

  a->type->init (a, 0.0);
  g_assert_cmpfloat (a->type->ta (a), ==, QD_INF);
  deliver (h, 0, 0.0, 0.0, &u0);
  deliver (h, 1, 0.5, 0.5, &u1);
  g_assert_cmpfloat (a->type->ta (a), ==, 0.0);
  /* Order of the output: the highest of the inputs. */
  a->type->lambda (a, 0.5);
  g_assert_cmpint (h->out[0].order, ==, 1);
  a->type->dint (a, 0.5);
  deliver (h, 2, 1.0, 0.5, &u2);

  g_assert_cmpuint (a->type->lambda (a, t), ==, 1);
  qd_signal_advance (&u0, t, &e0);
  qd_signal_advance (&u1, t, &e1);
  qd_signal_advance (&u2, t, &e2);
  g_assert_cmpint (h->out[0].order, ==, 3);
  g_assert_cmpfloat (h->out[0].t, ==, t);
  for (int k = 0; k <= QD_MAX_ORDER; k++)
    {
      double expect = 0.0;

      expect += 1.0 * e0.c[k];
      expect += -1.0 * e1.c[k];
      expect += 0.5 * e2.c[k];
      g_assert_cmpfloat (h->out[0].c[k], ==, expect);
    }
  /* Spot check against the plain value: 3 - (-1 + 4*1.5) + 0.5 u2(2). */
  g_assert_cmpfloat_with_epsilon (h->out[0].c[0],
                                  3.0 - 5.0 + 0.5 * (2.0 + 1.0 - 3.0 + 0.75),
                                  1e-15);
  harness_free (h);
}

/* WSum's weights are one per input by the schema (QD_PARAM_PER_INPUT),
 * which Check and Run, the inspector and the document all follow. */
static void
test_wsum_check (void)
{
  int i = qd_block_type_find_param (&qd_block_wsum, "weights");
  const QdParamSpec *weights;
  GError *error = NULL;

  g_assert_cmpint (i, >=, 0);
  weights = &qd_block_wsum.params[i];
  g_assert_true (weights->flags & QD_PARAM_PER_INPUT);
  g_assert_cmpstr (qd_block_wsum.inputs.size_param, ==, "n");

  g_assert_false (qd_param_spec_check_per_input (weights, 3, 2, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_PARAM);
  g_assert_cmpstr (error->message, ==,
                   "parameter 'weights' has 3 values but the block has 2 "
                   "inputs: give one value per input");
  g_clear_error (&error);

  g_assert_true (qd_param_spec_check_per_input (weights, 3, 3, &error));
  g_assert_no_error (error);
}

static void
test_step (void)
{
  Harness *h = harness_new (&qd_block_step, 0, 1);
  QdAtomic *a = &h->atomic;

  set_number (h, "time", 1.76);
  set_number (h, "initial", -2.0);
  set_number (h, "final", 10.0);

  a->type->init (a, 0.0);
  g_assert_cmpfloat (a->type->ta (a), ==, 0.0);
  g_assert_cmpuint (a->type->lambda (a, 0.0), ==, 1);
  g_assert_cmpfloat (h->out[0].c[0], ==, -2.0);
  g_assert_cmpint (h->out[0].order, ==, 0);
  a->type->dint (a, 0.0);
  /* From start 0 the step lands exactly on its time. */
  g_assert_cmpfloat (0.0 + a->type->ta (a), ==, 1.76);
  g_assert_cmpuint (a->type->lambda (a, 1.76), ==, 1);
  g_assert_cmpfloat (h->out[0].t, ==, 1.76);
  g_assert_cmpfloat (h->out[0].c[0], ==, 10.0);
  a->type->dint (a, 1.76);
  g_assert_cmpfloat (a->type->ta (a), ==, QD_INF);

  /* A step at or before the start: only the final value, at the start. */
  a->type->init (a, 2.0);
  g_assert_cmpfloat (a->type->ta (a), ==, 0.0);
  a->type->lambda (a, 2.0);
  g_assert_cmpfloat (h->out[0].c[0], ==, 10.0);
  a->type->dint (a, 2.0);
  g_assert_cmpfloat (a->type->ta (a), ==, QD_INF);

  harness_free (h);
}

static void
test_constant (void)
{
  Harness *h = harness_new (&qd_block_constant, 0, 1);
  QdAtomic *a = &h->atomic;

  set_number (h, "value", 4.25);
  a->type->init (a, 0.5);
  g_assert_cmpfloat (a->type->ta (a), ==, 0.0);
  g_assert_cmpuint (a->type->lambda (a, 0.5), ==, 1);
  g_assert_cmpfloat (h->out[0].t, ==, 0.5);
  g_assert_cmpfloat (h->out[0].c[0], ==, 4.25);
  g_assert_cmpfloat (h->out[0].c[1], ==, 0.0);
  a->type->dint (a, 0.5);
  g_assert_cmpfloat (a->type->ta (a), ==, QD_INF);
  harness_free (h);
}

static Harness *
integrator_new (int    method,
                double x0,
                double dqmin,
                double dqrel)
{
  Harness *h = harness_new (&qd_block_integrator, 1, 1);

  set_number (h, "x0", x0);
  set_number (h, "method", method);
  set_number (h, "dqmin", dqmin);
  set_number (h, "dqrel", dqrel);
  h->atomic.type->init (&h->atomic, 0.0);
  return h;
}

/* One internal event of the integrator at its scheduled time; returns it. */
static double
fire (Harness *h,
      double   tl)
{
  QdAtomic *a = &h->atomic;
  double t = tl + a->type->ta (a);

  g_assert_cmpuint (a->type->lambda (a, t), ==, 1);
  a->type->dint (a, t);
  return t;
}

static void
test_integrator_qss1 (void)
{
  Harness *h = integrator_new (0, 10.0, 1.0, 0.0);
  QdAtomic *a = &h->atomic;
  QdSignal u = segment (0.0, 0, -10.0, 0, 0, 0);
  double t;

  /* The initial q at the start time, then passive until a derivative. */
  g_assert_cmpfloat (a->type->ta (a), ==, 0.0);
  t = fire (h, 0.0);
  g_assert_cmpfloat (h->out[0].c[0], ==, 10.0);
  g_assert_cmpint (h->out[0].order, ==, 0);
  g_assert_cmpfloat (a->type->ta (a), ==, QD_INF);

  deliver (h, 0, 0.0, 0.0, &u);
  g_assert_cmpfloat_with_epsilon (a->type->ta (a), 0.1, 1e-15);
  t = fire (h, t);
  g_assert_cmpfloat (h->out[0].c[0], ==, 9.0);
  g_assert_cmpfloat (h->out[0].c[1], ==, 0.0);

  /* Hysteresis: the derivative turns round; q stays until x is a full
   * quantum above it, 9 + 1, i.e. 1/2 later at slope 2. */
  u = segment (t, 0, 2.0, 0, 0, 0);
  deliver (h, 0, t, 0.0, &u);
  g_assert_cmpfloat_with_epsilon (a->type->ta (a), 0.5, 1e-15);
  /* Half way there the slope halves: the remaining 0.5 takes 0.5. */
  u = segment (t + 0.25, 0, 1.0, 0, 0, 0);
  deliver (h, 0, t + 0.25, 0.25, &u);
  g_assert_cmpfloat_with_epsilon (a->type->ta (a), 0.5, 1e-15);
  fire (h, t + 0.25);
  g_assert_cmpfloat_with_epsilon (h->out[0].c[0], 10.0, 1e-14);

  /* A zero derivative: passive. */
  u = segment (t + 0.75, 0, 0.0, 0, 0, 0);
  deliver (h, 0, t + 0.75, 0.0, &u);
  g_assert_cmpfloat (a->type->ta (a), ==, QD_INF);
  harness_free (h);
}

/* A derivative that arrives at the start time before the integrator has
 * emitted its initial q (a block of higher priority fired first) must not
 * cancel that emission. */
static void
test_integrator_initial (void)
{
  /* QSS1 to QSS4, then LIQSS1 (the indices of the method's choices). */
  for (int method = 0; method <= 4; method++)
    {
      Harness *h = integrator_new (method, 10.0, 1.0, 0.0);
      QdAtomic *a = &h->atomic;
      QdSignal u = segment (0.0, 0, 0.0, 0, 0, 0);

      deliver (h, 0, 0.0, 0.0, &u);
      g_assert_cmpfloat (a->type->ta (a), ==, 0.0);
      fire (h, 0.0);
      g_assert_cmpfloat (h->out[0].c[0], ==, 10.0);
      g_assert_cmpfloat (a->type->ta (a), ==, QD_INF);
      u = segment (0.0, 0, -10.0, 0, 0, 0);
      deliver (h, 0, 0.0, 0.0, &u);
      /* LIQSS1 starts with q = x, so x moves away: 2 dQ to the event. */
      g_assert_cmpfloat_with_epsilon (a->type->ta (a),
                                      (method == 4 ? 0.2 : 0.1), 1e-15);
      /* Then LIQSS1 places q a quantum ahead of x = 8, where it heads. */
      fire (h, 0.0);
      g_assert_cmpfloat_with_epsilon (h->out[0].c[0],
                                      (method == 4 ? 7.0 : 9.0), 1e-14);
      harness_free (h);
    }
}

static void
test_integrator_qss2 (void)
{
  /* dqrel = 0.01 with x0 = 0 uses dqmin = 1e-3 at the start. */
  Harness *h = integrator_new (1, 0.0, 1e-3, 0.01);
  QdAtomic *a = &h->atomic;
  QdSignal u = segment (0.0, 1, 1.0, 2.0, 0, 0);   /* u = 1 + 2t */
  double t, x;

  t = fire (h, 0.0);
  g_assert_cmpint (h->out[0].order, ==, 1);
  deliver (h, 0, 0.0, 0.0, &u);
  /* q has slope 0 (Kofman's m0 = 0): x - q = s + s^2 = 1e-3 */
  g_assert_cmpfloat_with_epsilon (a->type->ta (a),
                                  (-1.0 + sqrt (1.0 + 4e-3)) / 2.0, 1e-15);
  t = fire (h, t);
  x = t + t * t;
  g_assert_cmpfloat_with_epsilon (h->out[0].c[0], x, 1e-15);
  g_assert_cmpfloat_with_epsilon (h->out[0].c[1], 1.0 + 2.0 * t, 1e-15);
  /* After a requantization x - q = (mu/2) s^2: sigma' = sqrt(2 dQ / mu)
   * with dQ = max(0.01 |x|, 1e-3) taken at the new x. */
  g_assert_cmpfloat_with_epsilon (a->type->ta (a),
                                  sqrt (2.0 * fmax (0.01 * x, 1e-3) / 2.0),
                                  1e-15);
  harness_free (h);
}

static void
test_integrator_qss3 (void)
{
  Harness *h = integrator_new (2, 1.0, 1e-6, 0.0);
  QdAtomic *a = &h->atomic;
  QdSignal u = segment (0.0, 2, 0.0, 0.0, 3.0, 0);   /* u = 3t^2 */
  double t;

  t = fire (h, 0.0);
  deliver (h, 0, 0.0, 0.0, &u);
  /* x = 1 + t^3, q = 1: crossing at t = 1e-2 */
  g_assert_cmpfloat_with_epsilon (a->type->ta (a), 1e-2, 1e-15);
  t = fire (h, t);
  g_assert_cmpint (h->out[0].order, ==, 2);
  g_assert_cmpfloat_with_epsilon (h->out[0].c[0], 1.0 + 1e-6, 1e-15);
  g_assert_cmpfloat_with_epsilon (h->out[0].c[1], 3e-4, 1e-15);
  g_assert_cmpfloat_with_epsilon (h->out[0].c[2], 3e-2, 1e-15);
  /* x - q = s^3 after requantization: sigma = cbrt(1e-6) */
  g_assert_cmpfloat_with_epsilon (a->type->ta (a), 1e-2, 1e-15);
  harness_free (h);
}

/* LIQSS1 on ẋ = −2 (q − 4.5), closing the loop by hand: the block must
 * learn a = −2 from its own outputs, step q ahead of x while the
 * derivative at q + dQ still points up, and then put q on the
 * equilibrium 4.5, where the derivative vanishes and it stops. */
static void
test_integrator_liqss1 (void)
{
  Harness *h = integrator_new (4, 0.0, 1.0, 0.0);   /* LIQSS1 */
  QdAtomic *a = &h->atomic;
  const double expect_q[] = { 0.0, 3.0, 4.0, 4.5 };
  const double expect_t[] = { 0.0, 2.0 / 9.0, 2.0 / 9.0 + 1.0 / 3.0,
                              2.0 / 9.0 + 1.0 / 3.0 + 1.0 };
  double t = 0.0;

  for (guint i = 0; i < G_N_ELEMENTS (expect_q); i++)
    {
      QdSignal u;

      t = fire (h, t);
      g_assert_cmpfloat_with_epsilon (t, expect_t[i], 1e-14);
      g_assert_cmpfloat_with_epsilon (h->out[0].c[0], expect_q[i], 1e-14);
      g_assert_cmpint (h->out[0].order, ==, 0);
      u = segment (t, 0, -2.0 * (h->out[0].c[0] - 4.5), 0, 0, 0);
      deliver (h, 0, t, 0.0, &u);
    }
  g_assert_cmpfloat (a->type->ta (a), ==, QD_INF);
  harness_free (h);
}

static void
test_integrator_check (void)
{
  QdParamValue params[4] = { { 0, } };
  GError *error = NULL;

  for (int i = 0; i < 4; i++)
    params[i].text = "";
  params[1].number = 0;
  params[1].text = "QSS1";

  g_assert_false (qd_block_integrator.check (&qd_block_integrator, params,
                                             1, 1, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_PARAM);
  g_assert_cmpstr (error->message, ==,
                   "dqmin and dqrel are both 0: set one of them");
  g_clear_error (&error);

  params[3].number = 1e-3;
  g_assert_true (qd_block_integrator.check (&qd_block_integrator, params,
                                            1, 1, &error));
  params[1].number = 3;
  params[1].text = "LIQSS1";
  g_assert_true (qd_block_integrator.check (&qd_block_integrator, params,
                                            1, 1, &error));
  /* Every method is implemented: the stiff ones too. */
  params[1].number = 6;
  params[1].text = "BQSS";
  g_assert_true (qd_block_integrator.check (&qd_block_integrator, params,
                                            1, 1, &error));
  g_assert_no_error (error);
}

/* The index of the Integrator's method @name among its choices. */
static int
integrator_method_index (const char *name)
{
  const QdParamSpec *spec =
    &qd_block_integrator.params[qd_block_type_find_param (&qd_block_integrator,
                                                          "method")];

  for (int i = 0; spec->choices[i] != NULL; i++)
    if (g_str_equal (spec->choices[i], name))
      return i;
  g_assert_not_reached ();
}

/* The record of a QSS Integrator is the 128 bytes of its core, two cache
 * lines: what a transition of QSS1-4 reads and writes. Lambda's x for
 * dint, and a derivative above the method's order, are kept out of line
 * (a large scalar model's Integrator records were a third of its
 * memory, docs/performance.md); the other methods keep their own state
 * after the core. */
static void
test_integrator_record_size (void)
{
  const QdParamSpec *spec =
    &qd_block_integrator.params[qd_block_type_find_param (&qd_block_integrator,
                                                          "method")];
  QdParamValue params[8] = { { 0 } };
  int method = qd_block_type_find_param (&qd_block_integrator, "method");

  g_assert_cmpuint (sizeof (QdIntegratorCore), <=, 128);
  for (int i = 0; spec->choices[i] != NULL; i++)
    {
      const char *name = spec->choices[i];
      gboolean qss = g_str_equal (name, "QSS1") || g_str_equal (name, "QSS2")
                     || g_str_equal (name, "QSS3") || g_str_equal (name, "QSS4");
      gsize size;

      params[method].number = i;
      size = qd_block_integrator.fast->state_size (params);
      g_test_message ("%s: %" G_GSIZE_FORMAT " bytes", name, size);
      if (qss)
        g_assert_cmpuint (size, ==, 128);
      else
        g_assert_cmpuint (size, ==, qd_block_integrator.state_size);
      g_assert_cmpuint (size, <=, qd_block_integrator.state_size);
    }
  /* The other methods' state fits in two more lines and a pointer. */
  g_assert_cmpuint (qd_block_integrator.state_size, <=, 4 * 64 + 8);
}

/* A QSS2 Integrator on a record of its instance's size (as the compiler
 * makes it: 128 bytes): x0 = @k, derivative @k (0.5 t - 2), dQ 1e-3 @k.
 * For @k a power of 2 every value is @k times that of k = 1, exactly, and
 * every time the same. */
static Harness *
integrator_qss2_record (double k)
{
  Harness *h = harness_new (&qd_block_integrator, 1, 1);
  QdSignal u = segment (0.0, 1, -2.0 * k, 0.5 * k, 0, 0);
  double t;

  set_number (h, "x0", k);
  set_number (h, "method", integrator_method_index ("QSS2"));
  set_number (h, "dqmin", 1e-3 * k);
  set_number (h, "dqrel", 0.0);
  g_free (h->atomic.state);
  h->atomic.state = g_malloc0 (qd_block_integrator.fast->state_size (h->params));
  h->atomic.type->init (&h->atomic, 0.0);
  t = fire (h, 0.0);
  deliver (h, 0, t, 0.0, &u);
  return h;
}

/* Lambda leaves x and its quantum for dint at the same instant, one
 * block at a time, keyed by the block (IntegratorCache,
 * qd-block-integrator.c): when another integrator's lambda at the same
 * time comes in between, as the debugger or a plug-in may call them,
 * dint computes them again instead of taking the other's. Either way the
 * step is the fused one's (the event loop's integrator_fire()) to the
 * bit: the same output and the same state. Here b is twice a, on the
 * same times. */
static void
test_integrator_lambda_cache (void)
{
  Harness *a = integrator_qss2_record (1.0);
  Harness *b = integrator_qss2_record (2.0);
  Harness *fa = integrator_qss2_record (1.0);
  Harness *fb = integrator_qss2_record (2.0);
  double tl = 0.0;

  for (int step = 0; step < 20; step++)
    {
      double t = tl + a->atomic.type->ta (&a->atomic);
      double ta_fused, tb_fused;

      g_assert_cmpfloat (t, <, QD_INF);
      g_assert_cmpfloat (tl + b->atomic.type->ta (&b->atomic), ==, t);
      /* a's lambda, b's, then a's dint (the x kept is b's), then b's. */
      g_assert_cmpuint (a->atomic.type->lambda (&a->atomic, t), ==, 1);
      g_assert_cmpuint (b->atomic.type->lambda (&b->atomic, t), ==, 1);
      a->atomic.type->dint (&a->atomic, t);
      b->atomic.type->dint (&b->atomic, t);
      g_assert_cmpuint (qd_block_integrator.fast->fire (&fa->atomic, t,
                                                        &ta_fused), ==, 1);
      g_assert_cmpuint (qd_block_integrator.fast->fire (&fb->atomic, t,
                                                        &tb_fused), ==, 1);
      g_assert_cmpmem (&a->out[0], sizeof (QdSignal), &fa->out[0], sizeof (QdSignal));
      g_assert_cmpmem (&b->out[0], sizeof (QdSignal), &fb->out[0], sizeof (QdSignal));
      g_assert_cmpmem (a->atomic.state, sizeof (QdIntegratorCore),
                       fa->atomic.state, sizeof (QdIntegratorCore));
      g_assert_cmpmem (b->atomic.state, sizeof (QdIntegratorCore),
                       fb->atomic.state, sizeof (QdIntegratorCore));
      g_assert_cmpfloat (a->atomic.type->ta (&a->atomic), ==, ta_fused);
      g_assert_cmpfloat (b->atomic.type->ta (&b->atomic), ==, tb_fused);
      g_assert_cmpfloat (b->out[0].c[0], ==, 2.0 * a->out[0].c[0]);
      tl = t;
    }
  g_assert_cmpfloat (a->out[0].c[0], <, 1.0 - 0.01);
  harness_free (a);
  harness_free (b);
  harness_free (fa);
  harness_free (fb);
}

static void
test_descriptors (void)
{
  const QdBlockType *types[] = {
    &qd_block_integrator, &qd_block_integrator_reset, &qd_block_gain,
    &qd_block_wsum, &qd_block_constant, &qd_block_step,
    &qd_block_cross_detect, &qd_block_switch, &qd_block_comparator,
    &qd_block_sign, &qd_block_hysteresis, &qd_block_relay,
    &qd_block_saturation, &qd_block_quantizer, &qd_block_sample_hold,
    &qd_block_commanded_sampler,
  };

  /* Every block documents itself and its parameters; the parameter
   * defaults lie in their ranges. */
  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      const QdBlockType *t = types[i];

      g_assert_nonnull (t->doc);
      g_assert_nonnull (t->glyph);
      g_assert_nonnull (t->init);
      g_assert_nonnull (t->ta);
      g_assert_nonnull (t->lambda);
      g_assert_nonnull (t->dint);
      for (guint k = 0; k < t->n_params; k++)
        {
          const QdParamSpec *p = &t->params[k];

          g_assert_nonnull (p->doc);
          g_assert_nonnull (p->label);
          if ((p->kind == QD_PARAM_NUMBER || p->kind == QD_PARAM_INTEGER)
              && *p->default_value != '\0')
            {
              double v = g_ascii_strtod (p->default_value, NULL);

              g_assert_cmpfloat (v, >=, p->min);
              g_assert_cmpfloat (v, <=, p->max);
            }
        }
    }
  g_assert_cmpint (qd_block_type_find_param (&qd_block_integrator, "dqrel"), ==, 3);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/blocks/gain", test_gain);
  g_test_add_func ("/blocks/wsum", test_wsum);
  g_test_add_func ("/blocks/wsum-check", test_wsum_check);
  g_test_add_func ("/blocks/step", test_step);
  g_test_add_func ("/blocks/constant", test_constant);
  g_test_add_func ("/blocks/integrator/qss1", test_integrator_qss1);
  g_test_add_func ("/blocks/integrator/initial", test_integrator_initial);
  g_test_add_func ("/blocks/integrator/qss2", test_integrator_qss2);
  g_test_add_func ("/blocks/integrator/qss3", test_integrator_qss3);
  g_test_add_func ("/blocks/integrator/liqss1", test_integrator_liqss1);
  g_test_add_func ("/blocks/integrator/check", test_integrator_check);
  g_test_add_func ("/blocks/integrator/record-size",
                   test_integrator_record_size);
  g_test_add_func ("/blocks/integrator/lambda-cache",
                   test_integrator_lambda_cache);
  g_test_add_func ("/blocks/descriptors", test_descriptors);

  return g_test_run ();
}

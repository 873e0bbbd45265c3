/* test-sources.c: the Sources library
 *
 * Each source is first driven directly: a QdAtomic is assembled by hand
 * and init, ta, lambda and dint are called as the event loop would, the
 * next event time being the last one plus ta. Breakpoint times and the
 * coefficients of the piecewise linear sources are compared with the
 * values worked out by hand; the Sine's drift from the true sine is
 * sampled densely between events for every order, and its event count
 * compared with the Taylor remainder bound; the stochastic sources must
 * repeat bit for bit with the same seed. Then whole models (source →
 * Scope) run through the engine, which is also the only way to exercise
 * From CSV and its error messages (they need the simulation's services).
 */
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "qd-test-util.h"

#define MAX_PARAMS 8

typedef struct
{
  QdAtomic        atomic;
  QdSignal        out;
  QdParamValue    params[MAX_PARAMS];
  gpointer        state;
} Harness;

/* A harness for source @id with every parameter at its default. */
static Harness *
harness_new (const char *id)
{
  const QdBlockType *type = qd_registry_lookup (id);
  Harness *h;

  g_assert_nonnull (type);
  g_assert_cmpuint (type->n_params, <=, MAX_PARAMS);
  h = g_new0 (Harness, 1);
  h->state = g_malloc0 (type->state_size);
  for (guint i = 0; i < type->n_params; i++)
    {
      const QdParamSpec *spec = &type->params[i];
      const char *text = spec->default_value;

      h->params[i].text = text;
      switch (spec->kind)
        {
        case QD_PARAM_BOOLEAN:
          h->params[i].number = g_str_equal (text, "true");
          break;
        case QD_PARAM_CHOICE:
          for (guint k = 0; spec->choices[k] != NULL; k++)
            if (g_str_equal (spec->choices[k], text))
              h->params[i].number = k;
          break;
        default:
          h->params[i].number = g_ascii_strtod (text, NULL);
          break;
        }
    }
  h->atomic.state = h->state;
  h->atomic.out = &h->out;
  h->atomic.n_out = 1;
  h->atomic.params = h->params;
  h->atomic.type = type;
  h->atomic.path = "/Test";
  return h;
}

static void
harness_free (Harness *h)
{
  if (h->atomic.type->exit != NULL)
    h->atomic.type->exit (&h->atomic, 0.0);
  g_free (h->state);
  g_free (h);
}

static void
set_number (Harness    *h,
            const char *name,
            double      value)
{
  int i = qd_block_type_find_param (h->atomic.type, name);

  g_assert_cmpint (i, >=, 0);
  h->params[i].number = value;
}

/* Runs the block alone from @t0, as the event loop would, and returns
 * the segments it emits at times ≤ @t1 (at most @max of them). */
static GArray *
run_block (Harness *h,
           double   t0,
           double   t1,
           guint    max)
{
  const QdBlockType *type = h->atomic.type;
  GArray *out = g_array_new (FALSE, FALSE, sizeof (QdSignal));
  double t = t0;

  type->init (&h->atomic, t0);
  while (out->len < max)
    {
      double ta = type->ta (&h->atomic);

      g_assert_cmpfloat (ta, >=, 0.0);
      t += ta;
      if (t > t1)
        break;
      g_assert_cmpuint (type->lambda (&h->atomic, t), ==, 1);
      g_assert_cmpfloat (h->out.t, ==, t);
      for (int k = h->out.order + 1; k <= QD_MAX_ORDER; k++)
        g_assert_cmpfloat (h->out.c[k], ==, 0.0);
      g_array_append_val (out, h->out);
      type->dint (&h->atomic, t);
    }
  return out;
}

#define SEG(a, i) (&g_array_index ((a), QdSignal, (i)))

static void
assert_close (double      got,
              double      want,
              double      rel,
              const char *what)
{
  if (!(fabs (got - want) <= rel * MAX (1.0, fabs (want))))
    g_error ("%s: %.17g, expected %.17g", what, got, want);
}

/* Segment @i is (t, order, c0, c1), to 1e-12 relative. */
static void
assert_segment (GArray *segs,
                guint   i,
                double  t,
                int     order,
                double  c0,
                double  c1)
{
  const QdSignal *s;
  char what[64];

  g_assert_cmpuint (i, <, segs->len);
  s = SEG (segs, i);
  g_snprintf (what, sizeof what, "segment %u time", i);
  assert_close (s->t, t, 1e-12, what);
  g_assert_cmpint (s->order, ==, order);
  g_snprintf (what, sizeof what, "segment %u c0", i);
  assert_close (s->c[0], c0, 1e-12, what);
  g_snprintf (what, sizeof what, "segment %u c1", i);
  assert_close (s->c[1], c1, 1e-12, what);
}

/* -------------------------------------------------------------------- */
/* Descriptors and parameter checks */

static const char *const source_ids[] = {
  "ramp", "pulse", "square_wave", "sine", "triangle", "sawtooth",
  "trapezoid", "time", "random", "poisson", "from_csv",
};

static void
test_descriptors (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (source_ids); i++)
    {
      const QdBlockType *type = qd_registry_lookup (source_ids[i]);

      g_assert_nonnull (type);
      g_assert_cmpstr (type->id, ==, source_ids[i]);
      g_assert_cmpstr (type->category, ==, "Sources");
      g_assert_nonnull (type->name);
      g_assert_nonnull (type->glyph);
      g_assert_true (strlen (type->doc) > 60);
      g_assert_cmpuint (type->inputs.count, ==, 0);
      g_assert_null (type->inputs.size_param);
      g_assert_cmpuint (type->outputs.count, ==, 1);
      g_assert_nonnull (type->outputs.doc);
      g_assert_true (type->init != NULL && type->ta != NULL
                     && type->lambda != NULL && type->dint != NULL);
      g_assert_null (type->dext);
      for (guint k = 0; k < type->n_params; k++)
        {
          const QdParamSpec *spec = &type->params[k];

          g_assert_nonnull (spec->label);
          g_assert_nonnull (spec->doc);
          g_assert_nonnull (spec->default_value);
          if (spec->kind == QD_PARAM_CHOICE)
            g_assert_nonnull (spec->choices);
        }
    }

  /* Units where they matter; the Sine's quanta follow the model. */
  {
    const QdBlockType *sine = qd_registry_lookup ("sine");
    const QdParamSpec *order = &sine->params[qd_block_type_find_param (sine, "order")];

    g_assert_cmpstr (sine->params[qd_block_type_find_param (sine, "frequency")].unit,
                     ==, "Hz");
    g_assert_cmpstr (sine->params[qd_block_type_find_param (sine, "phase")].unit,
                     ==, "rad");
    g_assert_cmpint (order->kind, ==, QD_PARAM_CHOICE);
    g_assert_cmpstr (order->default_value, ==, "2");
    g_assert_cmpstr (order->choices[3], ==, "3");
    g_assert_true (sine->params[qd_block_type_find_param (sine, "dqmin")].flags
                   & QD_PARAM_INHERIT);
    g_assert_true (sine->params[qd_block_type_find_param (sine, "dqrel")].flags
                   & QD_PARAM_INHERIT);
  }
}

/* check() of @id with the defaults changed by @name = @value; returns the
 * message, or NULL when the parameters are accepted. */
static char *
check_message (const char *id,
               const char *name,
               double      value,
               const char *name2,
               double      value2)
{
  Harness *h = harness_new (id);
  const QdBlockType *type = h->atomic.type;
  GError *error = NULL;
  char *message = NULL;

  set_number (h, name, value);
  if (name2 != NULL)
    set_number (h, name2, value2);
  g_assert_nonnull (type->check);
  if (!type->check (type, h->params, 0, 1, &error))
    {
      g_assert_nonnull (error);
      g_assert_true (error->domain == QD_ERROR);
      g_assert_cmpint (error->code, ==, QD_ERROR_PARAM);
      message = g_strdup (error->message);
      g_error_free (error);
    }
  else
    g_assert_no_error (error);
  g_free (h->state);
  g_free (h);
  return message;
}

static void
assert_check (const char *id,
              const char *name,
              double      value,
              const char *name2,
              double      value2,
              const char *expected)
{
  char *message = check_message (id, name, value, name2, value2);

  g_assert_cmpstr (message, ==, expected);
  g_free (message);
}

static void
test_check (void)
{
  assert_check ("square_wave", "frequency", 0, NULL, 0,
                "parameter 'frequency' must be greater than 0 (it is 0)");
  assert_check ("square_wave", "frequency", 2, NULL, 0, NULL);
  assert_check ("triangle", "frequency", 0, NULL, 0,
                "parameter 'frequency' must be greater than 0 (it is 0)");
  assert_check ("sawtooth", "frequency", 0, NULL, 0,
                "parameter 'frequency' must be greater than 0 (it is 0)");
  assert_check ("sine", "frequency", 0, NULL, 0,
                "parameter 'frequency' must be greater than 0 (it is 0)");
  assert_check ("sine", "dqmin", 0, "dqrel", 0,
                "dqmin and dqrel are both 0: set one of them");
  assert_check ("sine", "dqmin", 0, "dqrel", 1e-3, NULL);
  assert_check ("trapezoid", "rise", 0, "high_time", 0,
                NULL);   /* fall and low time are still 0.1 and 0.4 */
  {
    Harness *h = harness_new ("trapezoid");
    GError *error = NULL;

    set_number (h, "rise", 0);
    set_number (h, "high_time", 0);
    set_number (h, "fall", 0);
    set_number (h, "low_time", 0);
    g_assert_false (h->atomic.type->check (h->atomic.type, h->params, 0, 1,
                                           &error));
    g_assert_error (error, QD_ERROR, QD_ERROR_PARAM);
    g_assert_cmpstr (error->message, ==,
                     "parameters 'rise', 'high_time', 'fall' and 'low_time' "
                     "add up to a period of 0: make one of them greater "
                     "than 0, or set 'periodic' to false");
    g_clear_error (&error);
    /* A single trapezoid of zero duration is a jump, allowed. */
    set_number (h, "periodic", 0);
    g_assert_true (h->atomic.type->check (h->atomic.type, h->params, 0, 1,
                                          &error));
    g_assert_no_error (error);
    g_free (h->state);
    g_free (h);
  }
  assert_check ("random", "period", 0, NULL, 0,
                "parameter 'period' must be greater than 0 (it is 0)");
  assert_check ("random", "min", 2, "max", 1,
                "parameter 'min' (2) is greater than parameter 'max' (1): "
                "swap them");
  /* min > max does not matter to the normal distribution. */
  assert_check ("random", "min", 2, "distribution", 1, NULL);
  assert_check ("poisson", "rate", 0, NULL, 0,
                "parameter 'rate' must be greater than 0 (it is 0)");
  assert_check ("from_csv", "time_column", 2, "value_column", 2,
                "parameters 'time_column' and 'value_column' are both 2: "
                "the time and the value must come from different columns");
}

/* -------------------------------------------------------------------- */
/* The piecewise linear sources, driven directly */

static void
test_ramp (void)
{
  Harness *h = harness_new ("ramp");
  GArray *segs;

  set_number (h, "start", 2.0);
  set_number (h, "slope", 3.0);
  set_number (h, "initial", -1.0);
  segs = run_block (h, 0.0, 100.0, 10);
  g_assert_cmpuint (segs->len, ==, 2);
  assert_segment (segs, 0, 0.0, 0, -1.0, 0.0);
  assert_segment (segs, 1, 2.0, 1, -1.0, 3.0);
  g_assert_cmpfloat (SEG (segs, 1)->t, ==, 2.0);
  g_array_unref (segs);

  /* Starting after the start time: the line, taken at the start. */
  segs = run_block (h, 5.0, 100.0, 10);
  g_assert_cmpuint (segs->len, ==, 1);
  assert_segment (segs, 0, 5.0, 1, 8.0, 3.0);
  g_array_unref (segs);
  harness_free (h);
}

static void
test_pulse (void)
{
  Harness *h = harness_new ("pulse");
  GArray *segs;

  set_number (h, "amplitude", 2.0);
  set_number (h, "start", 1.0);
  set_number (h, "width", 0.5);
  set_number (h, "base", 1.0);
  segs = run_block (h, 0.0, 100.0, 10);
  g_assert_cmpuint (segs->len, ==, 3);
  assert_segment (segs, 0, 0.0, 0, 1.0, 0.0);
  assert_segment (segs, 1, 1.0, 0, 3.0, 0.0);
  assert_segment (segs, 2, 1.5, 0, 1.0, 0.0);
  g_array_unref (segs);

  /* Starting inside the pulse. */
  segs = run_block (h, 1.25, 100.0, 10);
  g_assert_cmpuint (segs->len, ==, 2);
  assert_segment (segs, 0, 1.25, 0, 3.0, 0.0);
  assert_segment (segs, 1, 1.5, 0, 1.0, 0.0);
  g_array_unref (segs);

  /* Width 0: never at the top. */
  set_number (h, "width", 0.0);
  segs = run_block (h, 0.0, 100.0, 10);
  for (guint i = 0; i < segs->len; i++)
    g_assert_cmpfloat (SEG (segs, i)->c[0], ==, 1.0);
  g_array_unref (segs);
  harness_free (h);
}

static void
test_square (void)
{
  Harness *h = harness_new ("square_wave");
  GArray *segs;
  const guint periods = 1000;

  set_number (h, "amplitude", 2.0);
  set_number (h, "frequency", 4.0);
  set_number (h, "duty", 25.0);
  set_number (h, "offset", 1.0);
  set_number (h, "delay", 0.1);
  segs = run_block (h, 0.0, 0.1 + periods * 0.25 - 1e-9, 10 * periods);
  /* The low level before the delay, then two edges per period. */
  g_assert_cmpuint (segs->len, ==, 1 + 2 * periods);
  assert_segment (segs, 0, 0.0, 0, -1.0, 0.0);
  for (guint k = 0; k < periods; k++)
    {
      assert_segment (segs, 1 + 2 * k, 0.1 + k * 0.25, 0, 3.0, 0.0);
      assert_segment (segs, 2 + 2 * k, 0.1 + k * 0.25 + 0.0625, 0, -1.0, 0.0);
    }
  g_array_unref (segs);

  /* Duty 100 %: high from the delay on, one event per period; 0 %: low. */
  set_number (h, "duty", 100.0);
  segs = run_block (h, 0.0, 1.0, 100);
  g_assert_cmpuint (segs->len, ==, 5);
  for (guint i = 1; i < segs->len; i++)
    assert_segment (segs, i, 0.1 + (i - 1) * 0.25, 0, 3.0, 0.0);
  g_array_unref (segs);
  set_number (h, "duty", 0.0);
  segs = run_block (h, 0.0, 1.0, 100);
  for (guint i = 0; i < segs->len; i++)
    g_assert_cmpfloat (SEG (segs, i)->c[0], ==, -1.0);
  g_array_unref (segs);
  harness_free (h);
}

/* The continuous waves: each new segment starts where the previous one
 * ends (to 1e-12), so no corner is lost or doubled. */
static void
assert_continuous (GArray *segs)
{
  for (guint i = 1; i < segs->len; i++)
    assert_close (qd_signal_eval (SEG (segs, i - 1), SEG (segs, i)->t),
                  SEG (segs, i)->c[0], 1e-11, "continuity");
}

static void
test_triangle (void)
{
  Harness *h = harness_new ("triangle");
  GArray *segs;
  const guint periods = 500;

  set_number (h, "amplitude", 2.0);
  set_number (h, "frequency", 0.5);
  set_number (h, "offset", 1.0);
  segs = run_block (h, 0.0, periods * 2.0 - 1e-9, 10 * periods);
  g_assert_cmpuint (segs->len, ==, 3 * periods);
  for (guint k = 0; k < periods; k++)
    {
      assert_segment (segs, 3 * k, 2.0 * k, 1, 1.0, 4.0 * 2.0 * 0.5);
      assert_segment (segs, 3 * k + 1, 2.0 * k + 0.5, 1, 3.0, -2.0 * 2.0);
      assert_segment (segs, 3 * k + 2, 2.0 * k + 1.5, 1, -1.0, 2.0 * 2.0);
    }
  assert_continuous (segs);
  g_array_unref (segs);

  /* From the middle of a falling piece: 1 + 2 − 4·0.5 at t = 1001. */
  segs = run_block (h, 1001.0, 1002.0, 10);
  assert_segment (segs, 0, 1001.0, 1, 1.0, -4.0);
  assert_segment (segs, 1, 1001.5, 1, -1.0, 4.0);
  g_array_unref (segs);
  harness_free (h);
}

static void
test_sawtooth (void)
{
  Harness *h = harness_new ("sawtooth");
  GArray *segs;
  const guint periods = 10000;

  set_number (h, "amplitude", 1.5);
  set_number (h, "frequency", 10.0);
  set_number (h, "offset", 0.5);
  segs = run_block (h, 0.0, periods / 10.0 - 1e-9, 2 * periods);
  g_assert_cmpuint (segs->len, ==, periods);
  for (guint k = 0; k < periods; k++)
    assert_segment (segs, k, k / 10.0, 1, -1.0, 30.0);
  /* Each tooth ends at the top before the drop. */
  for (guint k = 1; k < periods; k++)
    assert_close (qd_signal_eval (SEG (segs, k - 1), SEG (segs, k)->t), 2.0,
                  1e-10, "top of a tooth");
  g_array_unref (segs);
  harness_free (h);
}

static void
test_trapezoid (void)
{
  Harness *h = harness_new ("trapezoid");
  GArray *segs;

  /* The QSS2 paper's transmission line input: 0 → 1 V in 10 ps, held
   * 1 ns, back to 0 in 10 ps, once. */
  set_number (h, "low", 0.0);
  set_number (h, "high", 1.0);
  set_number (h, "delay", 0.0);
  set_number (h, "rise", 1e-11);
  set_number (h, "high_time", 1e-9);
  set_number (h, "fall", 1e-11);
  set_number (h, "low_time", 0.0);
  set_number (h, "periodic", 0.0);
  segs = run_block (h, 0.0, 1.0, 10);
  g_assert_cmpuint (segs->len, ==, 4);
  assert_segment (segs, 0, 0.0, 1, 0.0, 1e11);
  assert_segment (segs, 1, 1e-11, 0, 1.0, 0.0);
  assert_segment (segs, 2, 1.01e-9, 1, 1.0, -1e11);
  assert_segment (segs, 3, 1.02e-9, 0, 0.0, 0.0);
  g_assert_true (fabs (SEG (segs, 3)->t - 1.02e-9) <= 1e-12 * 1.02e-9);
  assert_continuous (segs);
  g_array_unref (segs);

  /* Periodic, with a delay and an instantaneous rise. */
  set_number (h, "low", -1.0);
  set_number (h, "high", 2.0);
  set_number (h, "delay", 0.5);
  set_number (h, "rise", 0.0);
  set_number (h, "high_time", 0.25);
  set_number (h, "fall", 0.5);
  set_number (h, "low_time", 0.25);
  set_number (h, "periodic", 1.0);
  segs = run_block (h, 0.0, 0.5 + 300 * 1.0 - 1e-9, 2000);
  g_assert_cmpuint (segs->len, ==, 1 + 3 * 300);
  assert_segment (segs, 0, 0.0, 0, -1.0, 0.0);
  for (guint k = 0; k < 300; k++)
    {
      assert_segment (segs, 1 + 3 * k, 0.5 + k, 0, 2.0, 0.0);
      assert_segment (segs, 2 + 3 * k, 0.75 + k, 1, 2.0, -6.0);
      assert_segment (segs, 3 + 3 * k, 1.25 + k, 0, -1.0, 0.0);
    }
  g_array_unref (segs);
  harness_free (h);
}

static void
test_time (void)
{
  Harness *h = harness_new ("time");
  GArray *segs = run_block (h, 3.0, 1e9, 10);

  g_assert_cmpuint (segs->len, ==, 1);
  assert_segment (segs, 0, 3.0, 1, 3.0, 1.0);
  g_array_unref (segs);
  segs = run_block (h, -2.0, 1e9, 10);
  g_assert_cmpuint (segs->len, ==, 1);
  assert_segment (segs, 0, -2.0, 1, -2.0, 1.0);
  g_array_unref (segs);
  harness_free (h);
}

/* -------------------------------------------------------------------- */
/* Sine */

/* Runs a Sine of amplitude 3, frequency 2 Hz, phase 0.3 and offset -1
 * over [0, 1.5 s] with the quantum @dq and checks the drift between
 * events against the true sine; returns the number of events. */
static guint
check_sine (int    order,
            double dq,
            double *max_drift)
{
  const double a = 3.0, f = 2.0, phase = 0.3, offset = -1.0, t_end = 1.5;
  const double omega = 2 * G_PI * f;
  const double fact[] = { 1, 1, 2, 6, 24 };
  Harness *h = harness_new ("sine");
  GArray *segs;
  double h_step, worst = 0.0;
  guint n;

  set_number (h, "amplitude", a);
  set_number (h, "frequency", f);
  set_number (h, "phase", phase);
  set_number (h, "offset", offset);
  set_number (h, "order", order);
  set_number (h, "dqmin", dq);
  set_number (h, "dqrel", 0.0);
  segs = run_block (h, 0.0, t_end, 10000000);
  n = segs->len;

  for (guint i = 0; i < n; i++)
    {
      const QdSignal *s = SEG (segs, i);
      double t_next = i + 1 < n ? SEG (segs, i + 1)->t : t_end;
      double theta = omega * s->t + phase;

      g_assert_cmpint (s->order, ==, order);
      /* The coefficients are the Taylor series of the sine. */
      assert_close (s->c[0], offset + a * sin (theta), 1e-12, "c0");
      if (order >= 1)
        assert_close (s->c[1], a * omega * cos (theta), 1e-11, "c1");
      if (order >= 2)
        assert_close (s->c[2], -a * omega * omega * sin (theta) / 2, 1e-11,
                      "c2");
      if (order >= 3)
        assert_close (s->c[3], -a * pow (omega, 3) * cos (theta) / 6, 1e-11,
                      "c3");
      /* Sampled densely up to the next event. */
      for (int j = 1; j <= 40; j++)
        {
          double t = s->t + (t_next - s->t) * j / 40.0;
          double drift = fabs (qd_signal_eval (s, t)
                               - (offset + a * sin (omega * t + phase)));

          worst = MAX (worst, drift);
        }
    }
  if (!(worst <= dq * (1 + 1e-6) + 1e-13))
    g_error ("order %d, dQ %g: drift %g", order, dq, worst);

  /* Evenly spaced by the remainder bound. */
  h_step = pow (fact[order + 1] * dq / (a * pow (omega, order + 1)),
                1.0 / (order + 1));
  for (guint i = 0; i < n; i++)
    assert_close (SEG (segs, i)->t, i * h_step, 1e-12, "event time");
  g_assert_cmpint (n, ==, (guint) floor (t_end / h_step) + 1);

  g_array_unref (segs);
  harness_free (h);
  *max_drift = worst;
  return n;
}

static void
test_sine (void)
{
  const double quanta[] = { 1e-2, 1e-3, 1e-4 };

  for (int order = 0; order <= 3; order++)
    {
      guint counts[G_N_ELEMENTS (quanta)];

      for (guint q = 0; q < G_N_ELEMENTS (quanta); q++)
        {
          double drift;

          counts[q] = check_sine (order, quanta[q], &drift);
          /* The bound is attained where the next derivative peaks: the
           * drift gets close to dQ, the events are not wasted. */
          g_assert_cmpfloat (drift, >, 0.5 * quanta[q]);
          g_test_message ("order %d, dQ %g: %u events, drift %.3g dQ",
                          order, quanta[q], counts[q], drift / quanta[q]);
        }
      /* Ten times smaller a quantum: 10^(1/(n+1)) times more events. */
      for (guint q = 1; q < G_N_ELEMENTS (quanta); q++)
        {
          double ratio = (double) counts[q] / counts[q - 1];
          double law = pow (10.0, 1.0 / (order + 1));

          g_assert_cmpfloat (fabs (ratio / law - 1), <, 0.1);
        }
    }

  /* The default dqrel scales with the amplitude. */
  {
    Harness *h = harness_new ("sine");
    GArray *segs;
    double omega = 2 * G_PI;

    set_number (h, "amplitude", -5.0);
    set_number (h, "dqmin", 0.0);
    set_number (h, "dqrel", 1e-3);
    segs = run_block (h, 0.0, 1.0, 100000);
    /* order 2: h = (6 · 5e-3 / (5 ω³))^(1/3) */
    assert_close (SEG (segs, 1)->t, cbrt (6 * 5e-3 / (5 * pow (omega, 3))),
                  1e-12, "step from dqrel");
    assert_close (SEG (segs, 0)->c[1], -5.0 * omega, 1e-12, "negative amplitude");
    g_array_unref (segs);
    harness_free (h);
  }
}

/* -------------------------------------------------------------------- */
/* Random and Poisson */

static GArray *
run_random (const char *distribution_param,
            double      distribution,
            guint32     seed,
            guint       n)
{
  Harness *h = harness_new ("random");
  GArray *segs;

  set_number (h, distribution_param, distribution);
  set_number (h, "seed", seed);
  set_number (h, "min", -2.0);
  set_number (h, "max", 3.0);
  set_number (h, "mean", 10.0);
  set_number (h, "stddev", 2.0);
  set_number (h, "period", 0.1);
  segs = run_block (h, 0.0, 1e9, n);
  harness_free (h);
  return segs;
}

static gboolean
same_values (GArray *a,
             GArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    if (memcmp (&SEG (a, i)->c[0], &SEG (b, i)->c[0], sizeof (double)) != 0)
      return FALSE;
  return TRUE;
}

static void
test_random (void)
{
  const guint n = 20000;

  for (int dist = 0; dist <= 1; dist++)
    {
      GArray *a = run_random ("distribution", dist, 42, n);
      GArray *b = run_random ("distribution", dist, 42, n);
      GArray *c = run_random ("distribution", dist, 43, n);
      double sum = 0, sum2 = 0;

      g_assert_true (same_values (a, b));
      g_assert_false (same_values (a, c));
      for (guint i = 0; i < n; i++)
        {
          const QdSignal *s = SEG (a, i);

          g_assert_cmpint (s->order, ==, 0);
          /* Sample times k·period, not accumulated. */
          assert_close (s->t, i * 0.1, 1e-12, "sample time");
          sum += s->c[0];
          sum2 += s->c[0] * s->c[0];
          if (dist == 0)
            g_assert_true (s->c[0] >= -2.0 && s->c[0] < 3.0);
        }
      {
        double mean = sum / n, sd = sqrt (sum2 / n - mean * mean);
        double want_mean = dist == 0 ? 0.5 : 10.0;
        double want_sd = dist == 0 ? 5.0 / sqrt (12.0) : 2.0;

        g_assert_cmpfloat (fabs (mean - want_mean), <, 0.05);
        g_assert_cmpfloat (fabs (sd / want_sd - 1), <, 0.03);
      }
      g_array_unref (a);
      g_array_unref (b);
      g_array_unref (c);
    }
}

static GArray *
run_poisson (guint32 seed,
             double  rate,
             guint   n)
{
  Harness *h = harness_new ("poisson");
  GArray *segs;

  set_number (h, "seed", seed);
  set_number (h, "rate", rate);
  set_number (h, "value", 7.0);
  segs = run_block (h, 0.0, QD_INF, n);
  harness_free (h);
  return segs;
}

static gboolean
same_times (GArray *a,
            GArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint i = 0; i < a->len; i++)
    if (memcmp (&SEG (a, i)->t, &SEG (b, i)->t, sizeof (double)) != 0)
      return FALSE;
  return TRUE;
}

static void
test_poisson (void)
{
  const guint n = 20001;   /* the start event and 20000 arrivals */
  const double rate = 250.0;
  GArray *a = run_poisson (7, rate, n);
  GArray *b = run_poisson (7, rate, n);
  GArray *c = run_poisson (8, rate, n);
  double t_last, mean_gap, sum2 = 0;

  g_assert_true (same_times (a, b));
  g_assert_false (same_times (a, c));

  /* At the start: 0, tag 0. Then arrival k carries 7 and tag k. */
  g_assert_cmpfloat (SEG (a, 0)->t, ==, 0.0);
  g_assert_cmpfloat (SEG (a, 0)->c[0], ==, 0.0);
  g_assert_cmpuint (SEG (a, 0)->tag, ==, 0);
  for (guint k = 1; k < n; k++)
    {
      double gap = SEG (a, k)->t - SEG (a, k - 1)->t;

      g_assert_cmpint (SEG (a, k)->order, ==, 0);
      g_assert_cmpfloat (SEG (a, k)->c[0], ==, 7.0);
      g_assert_cmpuint (SEG (a, k)->tag, ==, k);
      g_assert_cmpfloat (gap, >=, 0.0);
      sum2 += gap * gap;
    }
  /* 20000 arrivals: the rate within 5 %; exponential gaps have a
   * second moment of 2/rate². */
  t_last = SEG (a, n - 1)->t;
  mean_gap = t_last / (n - 1);
  g_test_message ("measured rate %.2f/s for %.0f/s", 1 / mean_gap, rate);
  g_assert_cmpfloat (fabs ((n - 1) / t_last / rate - 1), <, 0.05);
  g_assert_cmpfloat (fabs (sum2 / (n - 1) * rate * rate / 2 - 1), <, 0.1);
  g_array_unref (a);
  g_array_unref (b);
  g_array_unref (c);
}

/* -------------------------------------------------------------------- */
/* Whole models: source → Scope */

/* A document with one source of type @type, named "Source", wired to a
 * Scope, running to @final_time; @params is NULL-terminated name, value
 * pairs. */
static QdDocument *
source_document (const char *type,
                 double      final_time,
                 ...)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *source = qd_test_add_block (doc, type, "Source");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSettings settings = *qd_document_get_settings (doc);
  GError *error = NULL;
  va_list args;

  va_start (args, final_time);
  for (const char *name = va_arg (args, const char *); name != NULL;
       name = va_arg (args, const char *))
    qd_test_set_param (doc, source, name, va_arg (args, const char *));
  va_end (args);
  qd_test_set_param (doc, scope, "names", "y");
  g_assert_nonnull (qd_document_connect (doc, qd_document_get_root (doc),
                                         source->id, 0, scope->id, 0,
                                         &error));
  g_assert_no_error (error);
  settings.final_time = final_time;
  g_assert_true (qd_document_set_settings (doc, &settings, &error));
  g_assert_no_error (error);
  return doc;
}

/* Runs @doc and returns a copy of the Scope's trace. */
static GArray *
run_document (QdDocument *doc)
{
  GError *error = NULL;
  QdSimulation *sim = qd_simulation_new (doc, NULL, NULL, &error);
  GArray *segs = g_array_new (FALSE, FALSE, sizeof (QdSignal));
  QdTrace *trace;

  g_assert_no_error (error);
  g_assert_nonnull (sim);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
  g_assert_no_error (error);
  trace = g_ptr_array_index (qd_simulation_get_traces (sim), 0);
  for (gsize i = 0; i < qd_trace_get_length (trace); i++)
    g_array_append_val (segs, *qd_trace_get (trace, i));
  qd_simulation_free (sim);
  return segs;
}

/* The message of the error that stops @doc from compiling or starting. */
static char *
document_error (QdDocument *doc)
{
  GError *error = NULL;
  QdSimulation *sim = qd_simulation_new (doc, NULL, NULL, &error);
  char *message;

  g_assert_null (sim);
  g_assert_nonnull (error);
  message = g_strdup (error->message);
  g_error_free (error);
  return message;
}

static void
test_model_waves (void)
{
  QdDocument *doc;
  GArray *segs;

  /* The transmission line's input through the engine. */
  doc = source_document ("trapezoid", 5e-9,
                         "low", "0", "high", "1", "delay", "0",
                         "rise", "10e-12", "high_time", "1e-9",
                         "fall", "10e-12", "low_time", "0",
                         "periodic", "false", NULL);
  segs = run_document (doc);
  g_assert_cmpuint (segs->len, ==, 4);
  assert_segment (segs, 0, 0.0, 1, 0.0, 1e11);
  assert_segment (segs, 1, 1e-11, 0, 1.0, 0.0);
  assert_segment (segs, 2, 1.01e-9, 1, 1.0, -1e11);
  assert_segment (segs, 3, 1.02e-9, 0, 0.0, 0.0);
  g_array_unref (segs);
  g_object_unref (doc);

  /* A Sine with the model's quanta: dqrel 1e-3 of the amplitude 2. */
  doc = source_document ("sine", 1.0, "amplitude", "2", "order", "1", NULL);
  {
    QdSettings settings = *qd_document_get_settings (doc);
    GError *error = NULL;
    double step = sqrt (2 * 2e-3 / (2 * pow (2 * G_PI, 2)));

    settings.dqrel = 1e-3;
    settings.dqmin = 1e-9;
    g_assert_true (qd_document_set_settings (doc, &settings, &error));
    segs = run_document (doc);
    /* Events strictly before the final time. */
    g_assert_cmpuint (segs->len, ==, (guint) ceil (1.0 / step));
    for (guint i = 0; i < segs->len; i++)
      {
        const QdSignal *s = SEG (segs, i);

        assert_close (s->t, i * step, 1e-12, "sine event");
        assert_close (s->c[0], 2 * sin (2 * G_PI * s->t), 1e-12, "sine c0");
      }
    g_array_unref (segs);
  }
  g_object_unref (doc);

  /* Square wave edges land on delay + k/f + duty share. */
  doc = source_document ("square_wave", 10.0, "frequency", "3",
                         "duty", "40", "delay", "0.2", NULL);
  segs = run_document (doc);
  /* k = 0..29: the last fall at 0.2 + 29/3 + 0.4/3 ≈ 9.999 < 10. */
  g_assert_cmpuint (segs->len, ==, 1 + 2 * 30);
  for (guint k = 0; k < 30; k++)
    {
      assert_segment (segs, 1 + 2 * k, 0.2 + k / 3.0, 0, 1.0, 0.0);
      assert_segment (segs, 2 + 2 * k, 0.2 + k / 3.0 + 0.4 / 3.0, 0, -1.0,
                      0.0);
    }
  g_array_unref (segs);
  g_object_unref (doc);

  /* A schema range and a check(), named by the block's path. */
  doc = source_document ("square_wave", 1.0, "duty", "150", NULL);
  {
    char *message = document_error (doc);

    g_assert_nonnull (strstr (message,
                              "parameter 'duty' must be at most 100 (it is 150)"));
    g_free (message);
  }
  g_object_unref (doc);
  doc = source_document ("triangle", 1.0, "frequency", "0", NULL);
  {
    char *message = document_error (doc);

    g_assert_nonnull (strstr (message, "/Source"));
    g_assert_nonnull (strstr (message,
                              "parameter 'frequency' must be greater than 0"));
    g_free (message);
  }
  g_object_unref (doc);
}

/* Sources feeding an integrator keep their order: ∫ t dt = t²/2 exactly
 * (QSS2, whose input is the Time block's order 1 line), and ∫ sin is
 * (1 − cos ωt)/ω within the quanta (QSS3 driven by an order 2 Sine). */
static void
test_model_integrate (void)
{
  const char *const sources[] = { "time", "sine" };

  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    {
      QdDocument *doc = qd_document_new ();
      QdSystem *root = qd_document_get_root (doc);
      QdBlock *source = qd_test_add_block (doc, sources[i], "Source");
      QdBlock *integ = qd_test_add_block (doc, "integrator", "Integrator");
      QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
      QdSettings settings = *qd_document_get_settings (doc);
      GError *error = NULL;
      GArray *segs;
      double worst = 0.0;

      g_assert_nonnull (qd_document_connect (doc, root, source->id, 0,
                                             integ->id, 0, &error));
      g_assert_nonnull (qd_document_connect (doc, root, integ->id, 0,
                                             scope->id, 0, &error));
      g_assert_no_error (error);
      settings.final_time = 3.0;
      g_assert_true (qd_document_set_settings (doc, &settings, &error));
      g_assert_no_error (error);
      qd_test_set_param (doc, integ, "method", i == 0 ? "QSS2" : "QSS3");
      qd_test_set_param (doc, integ, "dqmin", "1e-5");
      qd_test_set_param (doc, integ, "dqrel", "0");
      if (i == 1)
        {
          qd_test_set_param (doc, source, "dqmin", "1e-6");
          qd_test_set_param (doc, source, "dqrel", "0");
        }
      segs = run_document (doc);
      for (guint k = 0; k < segs->len; k++)
        {
          const QdSignal *q = SEG (segs, k);
          double t_next = k + 1 < segs->len ? SEG (segs, k + 1)->t : 3.0;

          for (int j = 0; j <= 10; j++)
            {
              double t = q->t + (t_next - q->t) * j / 10.0;
              double x = i == 0 ? t * t / 2
                                : (1 - cos (2 * G_PI * t)) / (2 * G_PI);

              worst = MAX (worst, fabs (qd_signal_eval (q, t) - x));
            }
        }
      g_test_message ("%s: %u integrator outputs, error %.3g", sources[i],
                      segs->len, worst);
      /* QSS2 on a linear input has its x exact: |q − x| ≤ dQ; the Sine
       * adds its own drift of up to 1e-6, integrated over 3 s. */
      g_assert_cmpfloat (worst, <=, i == 0 ? 1.0001e-5 : 1e-5 + 3.0 * 1e-6);
      g_array_unref (segs);
      g_object_unref (doc);
    }
}

static void
test_model_random (void)
{
  QdDocument *doc = source_document ("poisson", 50.0, "rate", "20",
                                     "seed", "123", NULL);
  GArray *a = run_document (doc);
  GArray *b = run_document (doc);

  /* About 1000 arrivals, the same twice. */
  g_assert_cmpuint (a->len, >, 800);
  g_assert_cmpuint (a->len, <, 1200);
  g_assert_true (same_times (a, b));
  g_assert_cmpuint (SEG (a, a->len - 1)->tag, ==, a->len - 1);
  g_array_unref (a);
  g_array_unref (b);
  g_object_unref (doc);

  doc = source_document ("random", 10.0, "distribution", "normal",
                         "seed", "5", "period", "0.5", NULL);
  a = run_document (doc);
  b = run_document (doc);
  g_assert_cmpuint (a->len, ==, 20);
  g_assert_true (same_values (a, b));
  g_array_unref (a);
  g_array_unref (b);
  g_object_unref (doc);
}

/* -------------------------------------------------------------------- */
/* From CSV */

static char *
write_csv (const char *dir,
           const char *name,
           const char *contents)
{
  char *path = g_build_filename (dir, name, NULL);
  GError *error = NULL;

  g_assert_true (g_file_set_contents (path, contents, -1, &error));
  g_assert_no_error (error);
  return path;
}

static void
test_from_csv (void)
{
  GError *error = NULL;
  char *dir = g_dir_make_tmp ("qdevs-sources-XXXXXX", &error);
  char *path;
  QdDocument *doc;
  GArray *segs;

  g_assert_no_error (error);

  /* A header, CRLF ends, a comment, a blank line, a jump at t = 2. */
  path = write_csv (dir, "data.csv",
                    "time,flow,value\r\n"
                    "0.5,9,1\r\n"
                    "# calibration\r\n"
                    "1.0,9,3\r\n"
                    "\r\n"
                    "2.0,9,-1\r\n"
                    "2.0,9,4\r\n"
                    "4.0,9,0\r\n");

  doc = source_document ("from_csv", 10.0, "file", path,
                         "value_column", "3", NULL);
  segs = run_document (doc);
  g_assert_cmpuint (segs->len, ==, 5);
  assert_segment (segs, 0, 0.0, 0, 1.0, 0.0);   /* the first value before */
  assert_segment (segs, 1, 0.5, 0, 1.0, 0.0);
  assert_segment (segs, 2, 1.0, 0, 3.0, 0.0);
  assert_segment (segs, 3, 2.0, 0, 4.0, 0.0);   /* the later row wins */
  assert_segment (segs, 4, 4.0, 0, 0.0, 0.0);
  g_array_unref (segs);

  qd_test_set_param (doc,
                     qd_system_find_block_by_name (qd_document_get_root (doc),
                                                   "Source"),
                     "interpolation", "linear");
  segs = run_document (doc);
  g_assert_cmpuint (segs->len, ==, 5);
  assert_segment (segs, 0, 0.0, 0, 1.0, 0.0);
  assert_segment (segs, 1, 0.5, 1, 1.0, 4.0);
  assert_segment (segs, 2, 1.0, 1, 3.0, -4.0);
  assert_segment (segs, 3, 2.0, 1, 4.0, -2.0);
  assert_segment (segs, 4, 4.0, 0, 0.0, 0.0);
  /* Exact values in between: 3 − 4·0.25 at t = 1.25. */
  assert_close (qd_signal_eval (SEG (segs, 2), 1.25), 2.0, 1e-14, "linear");
  g_array_unref (segs);
  g_object_unref (doc);
  g_free (path);

  /* Columns chosen by number; semicolons; starting between rows. */
  path = write_csv (dir, "swapped.csv", "10;0\n20;1\n40;2\n");
  doc = source_document ("from_csv", 3.0, "file", path,
                         "time_column", "2", "value_column", "1",
                         "interpolation", "linear", NULL);
  {
    QdSettings settings = *qd_document_get_settings (doc);

    settings.start_time = 0.5;
    g_assert_true (qd_document_set_settings (doc, &settings, &error));
    g_assert_no_error (error);
  }
  segs = run_document (doc);
  g_assert_cmpuint (segs->len, ==, 3);
  assert_segment (segs, 0, 0.5, 1, 15.0, 10.0);
  assert_segment (segs, 1, 1.0, 1, 20.0, 20.0);
  assert_segment (segs, 2, 2.0, 0, 40.0, 0.0);
  g_array_unref (segs);
  g_object_unref (doc);
  g_free (path);

  g_rmdir (dir);
  g_free (dir);
}

/* The error of @contents read by a From CSV, with the file's path
 * replaced by "data.csv" (the message names the file as given). */
static char *
csv_error (const char *dir,
           const char *contents,
           const char *header)
{
  char *path = write_csv (dir, "data.csv", contents);
  QdDocument *doc = source_document ("from_csv", 1.0, "file", path,
                                     "header", header, NULL);
  char *message = document_error (doc);
  char *prefix = g_strconcat ("/Source: ", path, NULL);
  char *result;

  g_assert_true (g_str_has_prefix (message, prefix));
  result = g_strconcat ("data.csv", message + strlen (prefix), NULL);
  g_object_unref (doc);
  g_remove (path);
  g_free (prefix);
  g_free (message);
  g_free (path);
  return result;
}

static void
assert_csv_error (const char *dir,
                  const char *contents,
                  const char *header,
                  const char *expected)
{
  char *message = csv_error (dir, contents, header);

  g_assert_cmpstr (message, ==, expected);
  g_free (message);
}

static void
test_from_csv_errors (void)
{
  GError *error = NULL;
  char *dir = g_dir_make_tmp ("qdevs-sources-XXXXXX", &error);

  g_assert_no_error (error);

  assert_csv_error (dir, "t,y\n0,1\n0.5,2\n1,abc\n", "true",
                    "data.csv:4: expected a number in column 2, found 'abc'");
  /* Line numbers count the blank and comment lines too. */
  assert_csv_error (dir, "0,1\n\n# note\n0.7,2\n0.5,3\n", "true",
                    "data.csv:5: time 0.5 is before the previous 0.7; sort "
                    "the rows by time");
  /* Without header skipping, a header is an error on line 1. */
  assert_csv_error (dir, "time,value\n0,1\n", "false",
                    "data.csv:1: expected a number in column 1, found 'time'");
  /* Only the first line may be a header. */
  assert_csv_error (dir, "time,value\n0,1\ntime,value\n", "true",
                    "data.csv:3: expected a number in column 1, found 'time'");
  assert_csv_error (dir, "0,1\n1\n", "true",
                    "data.csv:2: expected a number in column 2, found the "
                    "end of the line; check the column parameters");
  assert_csv_error (dir, "0,\n", "true",
                    "data.csv:1: expected a number in column 2, found ''");
  assert_csv_error (dir, "0,nan\n", "true",
                    "data.csv:1: expected a number in column 2, found 'nan'");
  assert_csv_error (dir, "time,value\n\n", "true",
                    "data.csv: no data rows; the file needs lines of time "
                    "and value, like \"0.5,1.2\"");

  /* A missing file. */
  {
    char *path = g_build_filename (dir, "missing.csv", NULL);
    QdDocument *doc = source_document ("from_csv", 1.0, "file", path, NULL);
    char *message = document_error (doc);
    char *start = g_strdup_printf ("/Source: cannot read '%s': ", path);

    g_assert_true (g_str_has_prefix (message, start));
    g_assert_true (g_str_has_suffix (message,
                                     "; check the file name (a relative path "
                                     "is relative to the working directory)"));
    /* As a problem: on the block (its path and id, so that the editor's
     * messages panel selects it), the message without the path. */
    {
      g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
      g_autoptr(GError) init_error = NULL;
      QdBlock *source = qd_document_find_block_by_path (doc, "/Source");
      const QdProblem *problem;

      g_assert_null (qd_simulation_new (doc, NULL, problems, &init_error));
      g_assert_cmpuint (problems->len, ==, 1);
      problem = g_ptr_array_index (problems, 0);
      g_assert_cmpstr (problem->path, ==, "/Source");
      g_assert_cmpstr (problem->block_id, ==, source->id);
      g_assert_true (g_str_has_prefix (problem->message, start + strlen ("/Source: ")));
    }
    g_free (start);
    g_free (message);
    g_object_unref (doc);
    g_free (path);
  }

  g_rmdir (dir);
  g_free (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  g_test_add_func ("/sources/descriptors", test_descriptors);
  g_test_add_func ("/sources/check", test_check);
  g_test_add_func ("/sources/ramp", test_ramp);
  g_test_add_func ("/sources/pulse", test_pulse);
  g_test_add_func ("/sources/square", test_square);
  g_test_add_func ("/sources/triangle", test_triangle);
  g_test_add_func ("/sources/sawtooth", test_sawtooth);
  g_test_add_func ("/sources/trapezoid", test_trapezoid);
  g_test_add_func ("/sources/time", test_time);
  g_test_add_func ("/sources/sine", test_sine);
  g_test_add_func ("/sources/random", test_random);
  g_test_add_func ("/sources/poisson", test_poisson);
  g_test_add_func ("/sources/model/waves", test_model_waves);
  g_test_add_func ("/sources/model/integrate", test_model_integrate);
  g_test_add_func ("/sources/model/random", test_model_random);
  g_test_add_func ("/sources/from-csv", test_from_csv);
  g_test_add_func ("/sources/from-csv/errors", test_from_csv_errors);

  return g_test_run ();
}

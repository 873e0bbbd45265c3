/* qd-block-source-sine.c: Sine, a sine wave as Taylor polynomials
 *
 * y(t) = offset + A sin(ωt + φ), ω = 2πf. At each event the block emits
 * the exact Taylor coefficients of y at the event time up to the chosen
 * order n (0 to 3):
 *
 *   c0 = offset + A sin θ,  c_k = A ω^k sin(θ + kπ/2) / k!,  θ = ωt + φ.
 *
 * The truncated polynomial then drifts away from the sine; by Taylor's
 * theorem with the Lagrange remainder, after s seconds
 *
 *   |y(t + s) − p(s)| ≤ A ω^(n+1) s^(n+1) / (n+1)!,
 *
 * so the next segment is emitted after the s that makes this bound equal
 * to the quantum dQ = max(dqrel·|A|, dqmin):
 *
 *   h = ((n+1)! dQ / (A ω^(n+1)))^(1/(n+1)).
 *
 * The bound does not depend on t, so the events fall on a regular grid
 * t_start + j·h (computed from j, not accumulated), and the output never
 * differs from the true sine by more than dQ. Like a QSS integrator of
 * order n + 1, the number of events over a time T is about T / h, which
 * grows as dQ^(−1/(n+1)).
 *
 * θ is reduced as 2π·frac(f t) + φ, so late times keep their phase
 * accuracy.
 */
#include <math.h>

#include "qd-blocks-private.h"

enum
{
  PARAM_AMPLITUDE,
  PARAM_FREQUENCY,
  PARAM_PHASE,
  PARAM_OFFSET,
  PARAM_ORDER,
  PARAM_DQMIN,
  PARAM_DQREL,
};

typedef struct
{
  double  amplitude, frequency, phase, offset;
  int     order;
  double  h;          /* the time between events */
  double  t_first;    /* the start time */
  double  j;          /* events done since the start */
  double  sigma;
} Sine;

static const double factorial[] = { 1, 1, 2, 6, 24 };

static void
sine_init (QdAtomic *self,
           double    t)
{
  Sine *st = self->state;
  const QdParamValue *p = self->params;
  double a, omega, dq;
  int n;

  st->amplitude = p[PARAM_AMPLITUDE].number;
  st->frequency = p[PARAM_FREQUENCY].number;
  st->phase = p[PARAM_PHASE].number;
  st->offset = p[PARAM_OFFSET].number;
  st->order = n = CLAMP ((int) p[PARAM_ORDER].number, 0, QD_MAX_ORDER);
  a = fabs (st->amplitude);
  omega = 2.0 * G_PI * st->frequency;
  dq = fmax (p[PARAM_DQREL].number * a, p[PARAM_DQMIN].number);
  if (a == 0.0 || omega == 0.0)
    st->h = QD_INF;
  else
    st->h = pow (factorial[n + 1] * dq / (a * pow (omega, n + 1)),
                 1.0 / (n + 1));
  st->t_first = t;
  st->j = 0.0;
  st->sigma = 0.0;
}

static double
sine_ta (QdAtomic *self)
{
  Sine *st = self->state;

  return st->sigma;
}

static guint64
sine_lambda (QdAtomic *self,
             double    t)
{
  Sine *st = self->state;
  QdSignal *y = &self->out[0];
  double omega = 2.0 * G_PI * st->frequency;
  double theta = 2.0 * G_PI * fmod (st->frequency * t, 1.0) + st->phase;
  double s = sin (theta), c = cos (theta);
  /* sin(θ + kπ/2) for k = 0..3 */
  double d[4] = { s, c, -s, -c };
  double scale = st->amplitude;

  qd_signal_set_constant (y, t, st->offset);
  if (st->amplitude == 0.0)
    return 1;
  y->order = st->order;
  for (int k = 0; k <= st->order; k++)
    {
      y->c[k] += scale * d[k] / factorial[k];
      scale *= omega;
    }
  return 1;
}

static void
sine_dint (QdAtomic *self,
           double    t)
{
  Sine *st = self->state;

  if (isinf (st->h))
    {
      st->sigma = QD_INF;
      return;
    }
  st->j += 1.0;
  st->sigma = MAX (0.0, st->t_first + st->j * st->h - t);
}

static gboolean
sine_check (const QdBlockType  *type,
            const QdParamValue *params,
            guint               n_inputs,
            guint               n_outputs,
            GError            **error)
{
  if (!(params[PARAM_FREQUENCY].number > 0.0))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("parameter 'frequency' must be greater than 0 (it is "
                     "%g)"), params[PARAM_FREQUENCY].number);
      return FALSE;
    }
  if (params[PARAM_AMPLITUDE].number != 0.0
      && params[PARAM_DQMIN].number == 0.0
      && params[PARAM_DQREL].number == 0.0)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("dqmin and dqrel are both 0: set one of them"));
      return FALSE;
    }
  return TRUE;
}

static const char *const order_choices[] = { "0", "1", "2", "3", NULL };

static const QdParamSpec sine_params[] = {
  { "amplitude", N_("Amplitude"), QD_PARAM_NUMBER, "1", -QD_INF, QD_INF,
    NULL, N_("The peak deviation from the offset."), NULL, 0 },
  { "frequency", N_("Frequency"), QD_PARAM_NUMBER, "1", 0, QD_INF, "Hz",
    N_("Periods per second; must be greater than 0."), NULL, 0 },
  { "phase", N_("Phase"), QD_PARAM_NUMBER, "0", -QD_INF, QD_INF, "rad",
    N_("The angle of the sine at t = 0."), NULL, 0 },
  { "offset", N_("Offset"), QD_PARAM_NUMBER, "0", -QD_INF, QD_INF, NULL,
    N_("Added to the sine."), NULL, 0 },
  { "order", N_("Order"), QD_PARAM_CHOICE, "2", -QD_INF, QD_INF, NULL,
    N_("The order of the emitted polynomial segments: 0 for QSS1 models, "
       "1 for QSS2, 2 for QSS3 (3 is accepted too). Higher orders need "
       "far fewer events."), order_choices, 0 },
  { "dqmin", N_("Absolute quantum"), QD_PARAM_NUMBER, "", 0, QD_INF, NULL,
    N_("The largest drift allowed between the emitted polynomial and the "
       "sine is max(dqrel·|amplitude|, dqmin). Empty uses the model's "
       "setting."), NULL, QD_PARAM_INHERIT },
  { "dqrel", N_("Relative quantum"), QD_PARAM_NUMBER, "", 0, QD_INF, NULL,
    N_("The allowed drift relative to the amplitude. Empty uses the "
       "model's setting."), NULL, QD_PARAM_INHERIT },
};

const QdBlockType qd_block_sine = {
  .id = "sine",
  .category = N_("Sources"),
  .name = N_("Sine"),
  .glyph = "∿",
  .doc = N_("A sine wave, y = offset + amplitude·sin(2π·frequency·t + "
            "phase), emitted as polynomial segments: at each event the "
            "exact Taylor coefficients of the sine up to the chosen order. "
            "A new segment comes when the polynomial could have drifted a "
            "quantum dQ = max(dqrel·|amplitude|, dqmin) from the sine, by "
            "the bound of the Taylor remainder A·ω^(n+1)·s^(n+1)/(n+1)! "
            "(A = |amplitude|, ω = 2π·frequency, n the order); the events "
            "are therefore "
            "evenly spaced by ((n+1)!·dQ/(A·ω^(n+1)))^(1/(n+1)) and the "
            "output is never more than dQ away from the sine."),
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The sine wave, as polynomial segments.") },
  .params = sine_params,
  .n_params = G_N_ELEMENTS (sine_params),
  .state_size = sizeof (Sine),
  .check = sine_check,
  .init = sine_init,
  .ta = sine_ta,
  .dint = sine_dint,
  .lambda = sine_lambda,
};

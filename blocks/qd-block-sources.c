/* qd-block-sources.c: the piecewise linear sources
 *
 * Ramp, Pulse, Square, Triangle, Sawtooth, Trapezoid and Time all output
 * piecewise linear signals, so they share one engine: a waveform is a
 * list of pieces, piece i starting at t0 + k·period + start[i] with the
 * value value[i] and the slope slope[i] (k counts periods; a period of 0
 * means the waveform is not periodic and its last piece lasts forever).
 * Before the first piece an optional constant "pre" value holds (a delay
 * or a start time).
 *
 * Each piece is emitted exactly, as an order 1 segment (order 0 when its
 * slope is 0), at the time it starts. Breakpoint times are computed from
 * the period count k and the piece's offset, never by adding time
 * advances, so the millionth period lands where the first one did. The
 * block keeps the piece it is in as (k, i) instead of finding it again
 * from t, so an event that lands an ulp early or late still emits the
 * right piece. A piece of zero length (a rise time of 0, a duty cycle of
 * 0 %) is skipped: the output jumps straight to the next one.
 *
 * From CSV (qd-block-source-csv.c) drives the same engine with pieces read
 * from a file.
 */
#include <math.h>

#include "qd-blocks-private.h"
#include "qd-block-source-pwl.h"

/* -------------------------------------------------------------------- */
/* The piecewise linear engine */

static inline double
pwl_piece_time (const QdPwl *p,
                double       k,
                int          i)
{
  return p->t0 + k * p->period + p->start[i];
}

static inline double
pwl_duration (const QdPwl *p,
              int          i)
{
  if (i < 0)
    return QD_INF;
  if ((guint) i + 1 < p->n)
    return p->start[i + 1] - p->start[i];
  return p->period > 0.0 ? p->period - p->start[i] : QD_INF;
}

/* Moves (k, i) to the piece that starts after the current one, skipping
 * pieces of zero length; FALSE when the current piece is the last. */
static gboolean
pwl_advance (QdPwl *p)
{
  /* A period holds at least one piece of positive length (check() makes
   * sure), so two rounds are enough to find one. */
  for (guint guard = 0; guard <= 2 * p->n + 1; guard++)
    {
      if (p->i < 0)
        p->i = 0;
      else if ((guint) p->i + 1 < p->n)
        p->i++;
      else if (p->period > 0.0)
        {
          p->i = 0;
          p->k += 1.0;
        }
      else
        return FALSE;
      if (pwl_duration (p, p->i) > 0.0)
        return TRUE;
    }
  return FALSE;
}

void
qd_pwl_locate (QdPwl  *p,
               double  t)
{
  double off;
  guint lo, hi;

  p->k = 0.0;
  if (p->has_pre && t < pwl_piece_time (p, 0.0, 0))
    {
      p->i = -1;
      return;
    }
  off = t - p->t0;
  if (p->period > 0.0)
    {
      p->k = floor (off / p->period);
      off -= p->k * p->period;
      /* Rounding may leave off a hair outside [0, period). */
      if (off < 0.0)
        off = 0.0;
    }
  /* The last piece that has started: binary search, for long tables. */
  lo = 0;
  hi = p->n;
  while (hi - lo > 1)
    {
      guint mid = (lo + hi) / 2;

      if (p->start[mid] <= off)
        lo = mid;
      else
        hi = mid;
    }
  p->i = (int) lo;
  /* Only a last piece of zero length can still be empty here. */
  if (pwl_duration (p, p->i) <= 0.0)
    pwl_advance (p);
}

void
qd_pwl_emit (const QdPwl *p,
             double       t,
             QdSignal    *y)
{
  if (p->i < 0)
    {
      qd_signal_set_constant (y, t, p->pre_value);
      return;
    }
  {
    double slope = p->slope[p->i];
    double t_piece = pwl_piece_time (p, p->k, p->i);

    qd_signal_set_constant (y, t, p->value[p->i] + slope * (t - t_piece));
    y->c[1] = slope;
    y->order = slope != 0.0 ? 1 : 0;
  }
}

double
qd_pwl_next (QdPwl  *p,
             double  t)
{
  if (!pwl_advance (p))
    return QD_INF;
  return MAX (0.0, pwl_piece_time (p, p->k, p->i) - t);
}

/* Points the engine at the arrays inside @p itself; for the fixed
 * waveforms of this file. */
static void
pwl_use_inline (QdPwl *p,
                guint  n)
{
  p->start = p->inline_start;
  p->value = p->inline_value;
  p->slope = p->inline_slope;
  p->n = n;
}

/* The DEVS functions every source of this file shares; each block's init
 * fills in the waveform, then calls pwl_begin(). */
static void
pwl_begin (QdAtomic *self,
           double    t)
{
  QdPwl *p = self->state;

  qd_pwl_locate (p, t);
  p->sigma = 0.0;
}

static double
pwl_ta (QdAtomic *self)
{
  QdPwl *p = self->state;

  return p->sigma;
}

static guint64
pwl_lambda (QdAtomic *self,
            double    t)
{
  QdPwl *p = self->state;

  qd_pwl_emit (p, t, &self->out[0]);
  return 1;
}

static void
pwl_dint (QdAtomic *self,
          double    t)
{
  QdPwl *p = self->state;

  p->sigma = qd_pwl_next (p, t);
}

static gboolean
check_positive (const QdParamValue *params,
                int                 index,
                const char         *name,
                GError            **error)
{
  if (params[index].number > 0.0)
    return TRUE;
  g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
               _("parameter '%s' must be greater than 0 (it is %g)"),
               name, params[index].number);
  return FALSE;
}

#define OUTPUT_PORT(text) { .count = 1, .name_prefix = "y", .doc = text }

/* -------------------------------------------------------------------- */
/* Ramp */

enum
{
  RAMP_START,
  RAMP_SLOPE,
  RAMP_INITIAL,
};

static void
ramp_init (QdAtomic *self,
           double    t)
{
  QdPwl *p = self->state;
  const QdParamValue *v = self->params;

  pwl_use_inline (p, 1);
  p->t0 = v[RAMP_START].number;
  p->period = 0.0;
  p->has_pre = TRUE;
  p->pre_value = v[RAMP_INITIAL].number;
  p->inline_start[0] = 0.0;
  p->inline_value[0] = v[RAMP_INITIAL].number;
  p->inline_slope[0] = v[RAMP_SLOPE].number;
  pwl_begin (self, t);
}

static const QdParamSpec ramp_params[] = {
  { "start", N_("Start time"), QD_PARAM_NUMBER, "0", -QD_INF, QD_INF, "s",
    N_("When the output starts to rise."), NULL, 0 },
  { "slope", N_("Slope"), QD_PARAM_NUMBER, "1", -QD_INF, QD_INF, "1/s",
    N_("The rate of change of the output after the start time, in output "
       "units per second."), NULL, 0 },
  { "initial", N_("Initial output"), QD_PARAM_NUMBER, "0", -QD_INF, QD_INF,
    NULL, N_("The output up to the start time."), NULL, 0 },
};

const QdBlockType qd_block_ramp = {
  .id = "ramp",
  .category = N_("Sources"),
  .name = N_("Ramp"),
  .glyph = "╱",
  .doc = N_("Outputs the initial value until the start time, then a "
            "straight line rising with the given slope: y = initial + "
            "slope·(t − start). The line is emitted once, exactly, as an "
            "order 1 segment at the start time."),
  .outputs = OUTPUT_PORT (N_("The ramp signal.")),
  .params = ramp_params,
  .n_params = G_N_ELEMENTS (ramp_params),
  .state_size = sizeof (QdPwl),
  .init = ramp_init,
  .ta = pwl_ta,
  .dint = pwl_dint,
  .lambda = pwl_lambda,
};

/* -------------------------------------------------------------------- */
/* Pulse */

enum
{
  PULSE_AMPLITUDE,
  PULSE_START,
  PULSE_WIDTH,
  PULSE_BASE,
};

static void
pulse_init (QdAtomic *self,
            double    t)
{
  QdPwl *p = self->state;
  const QdParamValue *v = self->params;
  double base = v[PULSE_BASE].number;

  pwl_use_inline (p, 2);
  p->t0 = v[PULSE_START].number;
  p->period = 0.0;
  p->has_pre = TRUE;
  p->pre_value = base;
  p->inline_start[0] = 0.0;
  p->inline_value[0] = base + v[PULSE_AMPLITUDE].number;
  p->inline_start[1] = v[PULSE_WIDTH].number;
  p->inline_value[1] = base;
  p->inline_slope[0] = p->inline_slope[1] = 0.0;
  pwl_begin (self, t);
}

static const QdParamSpec pulse_params[] = {
  { "amplitude", N_("Amplitude"), QD_PARAM_NUMBER, "1", -QD_INF, QD_INF,
    NULL, N_("The height of the pulse above the base level."), NULL, 0 },
  { "start", N_("Start time"), QD_PARAM_NUMBER, "1", -QD_INF, QD_INF, "s",
    N_("When the pulse begins."), NULL, 0 },
  { "width", N_("Width"), QD_PARAM_NUMBER, "1", 0, QD_INF, "s",
    N_("How long the pulse lasts; 0 gives no pulse."), NULL, 0 },
  { "base", N_("Base level"), QD_PARAM_NUMBER, "0", -QD_INF, QD_INF, NULL,
    N_("The output before and after the pulse."), NULL, 0 },
};

const QdBlockType qd_block_pulse = {
  .id = "pulse",
  .category = N_("Sources"),
  .name = N_("Pulse"),
  .glyph = "⊓",
  .doc = N_("A single rectangular pulse: the output is at the base level, "
            "jumps to base + amplitude at the start time and back to the "
            "base level at start + width. Both jumps are events at exactly "
            "those times."),
  .outputs = OUTPUT_PORT (N_("The pulse signal.")),
  .params = pulse_params,
  .n_params = G_N_ELEMENTS (pulse_params),
  .state_size = sizeof (QdPwl),
  .init = pulse_init,
  .ta = pwl_ta,
  .dint = pwl_dint,
  .lambda = pwl_lambda,
};

/* -------------------------------------------------------------------- */
/* Square */

enum
{
  SQUARE_AMPLITUDE,
  SQUARE_FREQUENCY,
  SQUARE_DUTY,
  SQUARE_OFFSET,
  SQUARE_DELAY,
};

static void
square_init (QdAtomic *self,
             double    t)
{
  QdPwl *p = self->state;
  const QdParamValue *v = self->params;
  double a = v[SQUARE_AMPLITUDE].number, offset = v[SQUARE_OFFSET].number;

  pwl_use_inline (p, 2);
  p->t0 = v[SQUARE_DELAY].number;
  p->period = 1.0 / v[SQUARE_FREQUENCY].number;
  p->has_pre = TRUE;
  p->pre_value = offset - a;
  p->inline_start[0] = 0.0;
  p->inline_value[0] = offset + a;
  p->inline_start[1] = v[SQUARE_DUTY].number / 100.0 * p->period;
  p->inline_value[1] = offset - a;
  p->inline_slope[0] = p->inline_slope[1] = 0.0;
  pwl_begin (self, t);
}

static gboolean
square_check (const QdBlockType  *type,
              const QdParamValue *params,
              guint               n_inputs,
              guint               n_outputs,
              GError            **error)
{
  return check_positive (params, SQUARE_FREQUENCY, "frequency", error);
}

static const QdParamSpec square_params[] = {
  { "amplitude", N_("Amplitude"), QD_PARAM_NUMBER, "1", -QD_INF, QD_INF,
    NULL, N_("The output swings between offset + amplitude and offset − "
             "amplitude."), NULL, 0 },
  { "frequency", N_("Frequency"), QD_PARAM_NUMBER, "1", 0, QD_INF, "Hz",
    N_("Periods per second; must be greater than 0."), NULL, 0 },
  { "duty", N_("Duty cycle"), QD_PARAM_NUMBER, "50", 0, 100, "%",
    N_("The part of each period spent at the high level, in percent."),
    NULL, 0 },
  { "offset", N_("Offset"), QD_PARAM_NUMBER, "0", -QD_INF, QD_INF, NULL,
    N_("The middle level of the wave."), NULL, 0 },
  { "delay", N_("Delay"), QD_PARAM_NUMBER, "0", 0, QD_INF, "s",
    N_("When the first period begins; before it the output is at the low "
       "level. Shifts the phase of the wave."), NULL, 0 },
};

const QdBlockType qd_block_square_wave = {
  .id = "square_wave",
  .category = N_("Sources"),
  .name = N_("Square Wave"),
  .glyph = "⊓⊔",
  .doc = N_("A square wave: from the delay on, each period of 1/frequency "
            "begins at offset + amplitude and drops to offset − amplitude "
            "after the duty cycle's share of the period. Before the delay "
            "the output is offset − amplitude. Every edge is an event at "
            "exactly delay + k/frequency (+ duty/100 of a period)."),
  .outputs = OUTPUT_PORT (N_("The square wave.")),
  .params = square_params,
  .n_params = G_N_ELEMENTS (square_params),
  .state_size = sizeof (QdPwl),
  .check = square_check,
  .init = square_init,
  .ta = pwl_ta,
  .dint = pwl_dint,
  .lambda = pwl_lambda,
};

/* -------------------------------------------------------------------- */
/* Triangle and Sawtooth */

enum
{
  WAVE_AMPLITUDE,
  WAVE_FREQUENCY,
  WAVE_OFFSET,
};

static void
triangle_init (QdAtomic *self,
               double    t)
{
  QdPwl *p = self->state;
  const QdParamValue *v = self->params;
  double a = v[WAVE_AMPLITUDE].number, f = v[WAVE_FREQUENCY].number;
  double offset = v[WAVE_OFFSET].number;

  /* In phase with a sine: up from the offset, the peak at a quarter
   * period, the trough at three quarters. */
  pwl_use_inline (p, 3);
  p->t0 = 0.0;
  p->period = 1.0 / f;
  p->has_pre = FALSE;
  p->inline_start[0] = 0.0;
  p->inline_start[1] = 0.25 / f;
  p->inline_start[2] = 0.75 / f;
  p->inline_value[0] = offset;
  p->inline_value[1] = offset + a;
  p->inline_value[2] = offset - a;
  p->inline_slope[0] = 4.0 * a * f;
  p->inline_slope[1] = -4.0 * a * f;
  p->inline_slope[2] = 4.0 * a * f;
  pwl_begin (self, t);
}

static void
sawtooth_init (QdAtomic *self,
               double    t)
{
  QdPwl *p = self->state;
  const QdParamValue *v = self->params;
  double a = v[WAVE_AMPLITUDE].number, f = v[WAVE_FREQUENCY].number;

  pwl_use_inline (p, 1);
  p->t0 = 0.0;
  p->period = 1.0 / f;
  p->has_pre = FALSE;
  p->inline_start[0] = 0.0;
  p->inline_value[0] = v[WAVE_OFFSET].number - a;
  p->inline_slope[0] = 2.0 * a * f;
  pwl_begin (self, t);
}

static gboolean
wave_check (const QdBlockType  *type,
            const QdParamValue *params,
            guint               n_inputs,
            guint               n_outputs,
            GError            **error)
{
  return check_positive (params, WAVE_FREQUENCY, "frequency", error);
}

static const QdParamSpec wave_params[] = {
  { "amplitude", N_("Amplitude"), QD_PARAM_NUMBER, "1", -QD_INF, QD_INF,
    NULL, N_("The wave goes from offset − amplitude to offset + "
             "amplitude."), NULL, 0 },
  { "frequency", N_("Frequency"), QD_PARAM_NUMBER, "1", 0, QD_INF, "Hz",
    N_("Periods per second; must be greater than 0."), NULL, 0 },
  { "offset", N_("Offset"), QD_PARAM_NUMBER, "0", -QD_INF, QD_INF, NULL,
    N_("The middle level of the wave."), NULL, 0 },
};

const QdBlockType qd_block_triangle = {
  .id = "triangle",
  .category = N_("Sources"),
  .name = N_("Triangle"),
  .glyph = "⋀",
  .doc = N_("A triangle wave in phase with a sine of the same frequency: "
            "it rises from the offset at t = 0 to offset + amplitude at a "
            "quarter period, falls to offset − amplitude at three quarters "
            "and rises back to the offset at the end of the period. Each "
            "straight piece is emitted exactly, as an order 1 segment, at "
            "its corner."),
  .outputs = OUTPUT_PORT (N_("The triangle wave.")),
  .params = wave_params,
  .n_params = G_N_ELEMENTS (wave_params),
  .state_size = sizeof (QdPwl),
  .check = wave_check,
  .init = triangle_init,
  .ta = pwl_ta,
  .dint = pwl_dint,
  .lambda = pwl_lambda,
};

const QdBlockType qd_block_sawtooth = {
  .id = "sawtooth",
  .category = N_("Sources"),
  .name = N_("Sawtooth"),
  .glyph = "◿◿",
  .doc = N_("A sawtooth wave: in each period, starting at t = 0, the "
            "output rises in a straight line from offset − amplitude to "
            "offset + amplitude, then drops back. Each rise is emitted "
            "exactly, as an order 1 segment, at t = k/frequency."),
  .outputs = OUTPUT_PORT (N_("The sawtooth wave.")),
  .params = wave_params,
  .n_params = G_N_ELEMENTS (wave_params),
  .state_size = sizeof (QdPwl),
  .check = wave_check,
  .init = sawtooth_init,
  .ta = pwl_ta,
  .dint = pwl_dint,
  .lambda = pwl_lambda,
};

/* -------------------------------------------------------------------- */
/* Trapezoid */

enum
{
  TRAP_LOW,
  TRAP_HIGH,
  TRAP_DELAY,
  TRAP_RISE,
  TRAP_HIGH_TIME,
  TRAP_FALL,
  TRAP_LOW_TIME,
  TRAP_PERIODIC,
};

static void
trapezoid_init (QdAtomic *self,
                double    t)
{
  QdPwl *p = self->state;
  const QdParamValue *v = self->params;
  double low = v[TRAP_LOW].number, high = v[TRAP_HIGH].number;
  double rise = v[TRAP_RISE].number, fall = v[TRAP_FALL].number;
  double high_time = v[TRAP_HIGH_TIME].number;

  pwl_use_inline (p, 4);
  p->t0 = v[TRAP_DELAY].number;
  p->period = v[TRAP_PERIODIC].number != 0.0
              ? rise + high_time + fall + v[TRAP_LOW_TIME].number : 0.0;
  p->has_pre = TRUE;
  p->pre_value = low;
  p->inline_start[0] = 0.0;
  p->inline_start[1] = rise;
  p->inline_start[2] = rise + high_time;
  p->inline_start[3] = rise + high_time + fall;
  p->inline_value[0] = low;
  p->inline_value[1] = high;
  p->inline_value[2] = high;
  p->inline_value[3] = low;
  /* An edge of zero duration is a piece of zero length, skipped, so its
   * slope is never used. */
  p->inline_slope[0] = rise > 0.0 ? (high - low) / rise : 0.0;
  p->inline_slope[1] = 0.0;
  p->inline_slope[2] = fall > 0.0 ? (low - high) / fall : 0.0;
  p->inline_slope[3] = 0.0;
  pwl_begin (self, t);
}

static gboolean
trapezoid_check (const QdBlockType  *type,
                 const QdParamValue *params,
                 guint               n_inputs,
                 guint               n_outputs,
                 GError            **error)
{
  double period = params[TRAP_RISE].number + params[TRAP_HIGH_TIME].number
                  + params[TRAP_FALL].number + params[TRAP_LOW_TIME].number;

  if (params[TRAP_PERIODIC].number != 0.0 && !(period > 0.0))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("parameters 'rise', 'high_time', 'fall' and "
                     "'low_time' add up to a period of 0: make one of "
                     "them greater than 0, or set 'periodic' to false"));
      return FALSE;
    }
  return TRUE;
}

static const QdParamSpec trapezoid_params[] = {
  { "low", N_("Low level"), QD_PARAM_NUMBER, "0", -QD_INF, QD_INF, NULL,
    N_("The output before the delay and during the low time."), NULL, 0 },
  { "high", N_("High level"), QD_PARAM_NUMBER, "1", -QD_INF, QD_INF, NULL,
    N_("The output during the high time."), NULL, 0 },
  { "delay", N_("Start delay"), QD_PARAM_NUMBER, "0", 0, QD_INF, "s",
    N_("When the first rise begins."), NULL, 0 },
  { "rise", N_("Rise time"), QD_PARAM_NUMBER, "0.1", 0, QD_INF, "s",
    N_("How long the output takes to go from low to high; 0 jumps."),
    NULL, 0 },
  { "high_time", N_("High time"), QD_PARAM_NUMBER, "0.4", 0, QD_INF, "s",
    N_("How long the output stays high."), NULL, 0 },
  { "fall", N_("Fall time"), QD_PARAM_NUMBER, "0.1", 0, QD_INF, "s",
    N_("How long the output takes to go from high to low; 0 jumps."),
    NULL, 0 },
  { "low_time", N_("Low time"), QD_PARAM_NUMBER, "0.4", 0, QD_INF, "s",
    N_("How long the output stays low before the next rise (periodic "
       "only)."), NULL, 0 },
  { "periodic", N_("Periodic"), QD_PARAM_BOOLEAN, "true", -QD_INF, QD_INF,
    NULL, N_("Repeat with a period of rise + high + fall + low time; "
             "false makes a single trapezoid that stays low afterwards."),
    NULL, 0 },
};

const QdBlockType qd_block_trapezoid = {
  .id = "trapezoid",
  .category = N_("Sources"),
  .name = N_("Trapezoid"),
  .glyph = "╱▔╲",
  .doc = N_("A trapezoidal pulse train: the low level until the start "
            "delay, then a straight rise to the high level over the rise "
            "time, the high level for the high time, a straight fall over "
            "the fall time and the low level for the low time; periodic "
            "with period rise + high + fall + low time, or once. Each "
            "piece is emitted exactly, as an order 1 or 0 segment, at its "
            "corner. A pulse of 0 to 1 V rising in 10 ps, held 1 ns and "
            "falling in 10 ps drives the transmission line of the QSS2 "
            "paper."),
  .outputs = OUTPUT_PORT (N_("The trapezoidal signal.")),
  .params = trapezoid_params,
  .n_params = G_N_ELEMENTS (trapezoid_params),
  .state_size = sizeof (QdPwl),
  .check = trapezoid_check,
  .init = trapezoid_init,
  .ta = pwl_ta,
  .dint = pwl_dint,
  .lambda = pwl_lambda,
};

/* -------------------------------------------------------------------- */
/* Time */

static void
time_init (QdAtomic *self,
           double    t)
{
  QdPwl *p = self->state;

  /* One piece through the origin with slope 1, for every t. */
  pwl_use_inline (p, 1);
  p->t0 = 0.0;
  p->period = 0.0;
  p->has_pre = FALSE;
  p->inline_start[0] = 0.0;
  p->inline_value[0] = 0.0;
  p->inline_slope[0] = 1.0;
  pwl_begin (self, t);
}

const QdBlockType qd_block_time = {
  .id = "time",
  .category = N_("Sources"),
  .name = N_("Time"),
  .glyph = "t",
  .doc = N_("Outputs the simulation time, y = t, as one exact order 1 "
            "segment emitted at the start time."),
  .outputs = OUTPUT_PORT (N_("The simulation time.")),
  .params = NULL,
  .n_params = 0,
  .state_size = sizeof (QdPwl),
  .init = time_init,
  .ta = pwl_ta,
  .dint = pwl_dint,
  .lambda = pwl_lambda,
};

/* The DEVS functions From CSV borrows. */
double
qd_pwl_ta (QdAtomic *self)
{
  return pwl_ta (self);
}

guint64
qd_pwl_lambda (QdAtomic *self,
               double    t)
{
  return pwl_lambda (self, t);
}

void
qd_pwl_dint (QdAtomic *self,
             double    t)
{
  pwl_dint (self, t);
}

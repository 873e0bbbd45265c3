/* qd-block-hybrid.c: blocks with discontinuities located exactly: Cross
 * Detect, Switch, Comparator, Sign, Hysteresis, Relay, Saturation,
 * Quantizer and 1-D Lookup Table
 *
 * Each of these blocks has a discrete mode (which side of a level its
 * input is on, which input is selected, which quantization level is held)
 * and watches one polynomial signal against a few levels that depend on
 * the mode. Discontinuities are never found by stepping time: when an
 * input segment arrives, the block solves for the first time the watched
 * polynomial reaches each level (qd_poly_first_root() on the segment minus
 * the level) and schedules an internal event there; every new segment
 * recomputes it. This is how QSS handles discontinuities (Kofman 2004,
 * "Discrete event simulation of hybrid systems"): since the signals are
 * polynomials, the crossing times are known in advance, to rounding.
 *
 * The side of a level the input is on "just after now" is the sign of the
 * first nonzero Taylor coefficient of (input - level): a value exactly on
 * the level takes the side its motion leads to. At the scheduled event the
 * input equals the level by construction, but t = tl + sigma and the
 * re-expansion of the segment are rounded, so the computed difference is
 * a few ulps off, on either side. The block therefore remembers which
 * level it scheduled and sets that difference to exactly zero there: the
 * side then comes from the slope, the mode changes exactly once, and the
 * next root search skips the crossing just handled.
 *
 * A jump of an input across a level at an input event (piecewise
 * polynomial signals jump) changes the mode at that event, with an output
 * at once (ta = 0).
 *
 * The shared machinery is a small class per block type: which signal is
 * watched, one step of the mode towards the state of the input (repeated
 * until the mode is stable, so a jump across several quantization levels
 * is followed in one event), and the output of a mode.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "qd-blocks-private.h"
#include "qd-block-fast-private.h"
#include "qd-poly.h"

/* The mode before the first input: there is no transition to report. */
#define MODE_NONE G_MININT

typedef struct _HybridClass HybridClass;

typedef struct
{
  const HybridClass *klass;
  double   tl;        /* time of the last transition */
  double   t_next;    /* time of the next level crossing, or QD_INF */
  double   level;     /* the level reached at t_next */
  int      mode;      /* the discrete state; its meaning is per block */
  int      from;      /* the mode before a pending output */
  gboolean emit;      /* an output is due now (ta = 0) */
  gboolean started;   /* an input has arrived */
} Hybrid;

/* The watched signal at one instant, and what the levels tell. */
typedef struct
{
  double w[QD_MAX_ORDER + 1];   /* w(t + s) = sum w[k] s^k */
  int    n;                     /* its degree */
  double snap;                  /* the level w is exactly on now, or NaN */
  gboolean first;               /* classifying the first input */
  double root;                  /* earliest crossing of a probed level */
  double root_level;            /* and that level */
  double *record;               /* when not NULL: the levels probed */
  guint n_record;               /* (at most QD_MAX_CROSSINGS) */
} Probe;

struct _HybridClass
{
  const QdBlockType *type;
  /* Writes the watched signal at @t into @w; returns its degree. */
  int     (*watched) (QdAtomic *self,
                      double    t,
                      double   *w);
  /* One step from @mode towards the state of the signal in @probe: the
   * new mode, or @mode itself when it is stable. Probes (probe_side())
   * every level that can end the returned mode. */
  int     (*step)    (QdAtomic *self,
                      int       mode,
                      Probe    *probe);
  /* Writes the output for a change @from -> @to at @t (@from is
   * MODE_NONE for the first output); returns the port mask. */
  guint64 (*output)  (QdAtomic *self,
                      double    t,
                      int       from,
                      int       to);
  /* The mode from which the first input is classified. */
  int       initial_mode;
  /* Inputs that the watched signal depends on (bit per port). */
  guint64   watch_mask;
  /* Returns TRUE when the output follows an event on @port in @mode
   * (a passed-through input), even when the mode does not change. */
  gboolean (*follows) (QdAtomic *self,
                       int       mode,
                       guint     port);
};

static const HybridClass *hybrid_class (const QdBlockType *type);

static inline int
sign_of (double v)
{
  return (v > 0.0) - (v < 0.0);
}

/* The side of @level that the watched signal is on just after now (-1, 0
 * when it stays exactly on it, +1); also records when it next reaches
 * the level. */
static int
probe_side (Probe  *probe,
            double  level)
{
  double p[QD_MAX_ORDER + 1];
  double r;
  int side = 0;

  if (probe->record != NULL && probe->n_record < QD_MAX_CROSSINGS)
    probe->record[probe->n_record++] = level;
  memcpy (p, probe->w, sizeof p);
  p[0] -= level;
  if (level == probe->snap)
    p[0] = 0.0;
  for (int k = 0; k <= probe->n && side == 0; k++)
    side = sign_of (p[k]);
  /* Listing the levels (hybrid_crossing_levels()) needs no crossing
   * time. */
  if (probe->record != NULL)
    return side;

  r = qd_poly_first_root (p, probe->n);
  if (r < probe->root)
    {
      probe->root = r;
      probe->root_level = level;
    }
  return side;
}

/* Input @port advanced to @t; returns its order. */
static int
read_input (QdAtomic *self,
            guint     port,
            double    t,
            double   *c)
{
  QdSignal v;

  qd_signal_advance (self->in[port], t, &v);
  memcpy (c, v.c, sizeof v.c);
  return CLAMP (v.order, 0, QD_MAX_ORDER);
}

typedef struct
{
  int    mode;
  double root;         /* time from now to the next crossing */
  double root_level;
} Eval;

/* The mode of the block at @t given its inputs, from @mode, and when the
 * next crossing is. @snap is the level the watched signal is exactly on
 * (the scheduled crossing), or NaN. */
static Eval
evaluate (QdAtomic *self,
          double    t,
          int       mode,
          double    snap)
{
  const HybridClass *klass = ((Hybrid *) self->state)->klass;
  Probe probe;
  Eval e;

  probe.n = klass->watched (self, t, probe.w);
  probe.snap = snap;
  probe.first = !((Hybrid *) self->state)->started;
  probe.record = NULL;
  /* A handful of steps is the common case; the cap only guarantees the
   * event ends whatever the input. */
  for (int i = 0; i < 256; i++)
    {
      int next;

      probe.root = QD_INF;
      probe.root_level = 0.0;
      next = klass->step (self, mode, &probe);
      if (next == mode)
        break;
      mode = next;
    }
  e.mode = mode;
  e.root = probe.root;
  e.root_level = probe.root_level;
  return e;
}

static void
hybrid_init (QdAtomic *self,
             double    t)
{
  Hybrid *st = self->state;

  st->klass = hybrid_class (self->type);
  st->tl = t;
  st->t_next = QD_INF;
  st->level = 0.0;
  st->mode = st->klass->initial_mode;
  st->from = MODE_NONE;
  st->emit = FALSE;
  st->started = FALSE;
}

static double
hybrid_ta (QdAtomic *self)
{
  Hybrid *st = self->state;

  if (st->emit)
    return 0.0;
  if (st->t_next == QD_INF)
    return QD_INF;
  return fmax (st->t_next - st->tl, 0.0);
}

static guint64
hybrid_lambda (QdAtomic *self,
               double    t)
{
  Hybrid *st = self->state;
  const HybridClass *klass = st->klass;
  Eval e;

  if (st->emit)
    return klass->output (self, t, st->from, st->mode);

  /* The scheduled crossing: the mode the block is about to enter. */
  e = evaluate (self, t, st->mode, st->level);
  if (e.mode == st->mode)
    return 0;
  return klass->output (self, t, st->mode, e.mode);
}

static void
hybrid_dint (QdAtomic *self,
             double    t)
{
  Hybrid *st = self->state;

  if (st->emit)
    {
      /* The crossing scheduled with the mode still holds: the inputs have
       * not changed since. */
      st->emit = FALSE;
      st->from = MODE_NONE;
    }
  else
    {
      Eval e = evaluate (self, t, st->mode, st->level);

      st->mode = e.mode;
      st->t_next = t + e.root;
      st->level = e.root_level;
    }
  st->tl = t;
}

static void
hybrid_dext (QdAtomic       *self,
             double          t,
             double          e,
             guint           port,
             const QdSignal *x)
{
  Hybrid *st = self->state;
  const HybridClass *klass = st->klass;
  int before = st->mode;

  st->tl = t;
  if (!st->started || (klass->watch_mask & (G_GUINT64_CONSTANT (1) << port)))
    {
      Eval ev = evaluate (self, t, st->mode, NAN);

      st->mode = ev.mode;
      st->t_next = t + ev.root;
      st->level = ev.root_level;
    }

  if (!st->started || st->mode != before
      || (klass->follows != NULL && klass->follows (self, st->mode, port)))
    {
      /* Several inputs may arrive at one instant: the output reports the
       * change from the mode before the first of them. */
      if (!st->emit)
        st->from = st->started ? before : MODE_NONE;
      st->emit = TRUE;
    }
  st->started = TRUE;
}

/* A constant output segment on port 0. */
static guint64
output_constant (QdAtomic *self,
                 double    t,
                 double    value)
{
  qd_signal_set_constant (&self->out[0], t, value);
  return 1;
}

/* Input @port passed through at @t, with its order. */
static guint64
output_input (QdAtomic *self,
              double    t,
              guint     port)
{
  QdSignal *y = &self->out[0];

  qd_signal_advance (self->in[port], t, y);
  y->tag = 0;
  return 1;
}

static int
watch_input0 (QdAtomic *self,
              double    t,
              double   *w)
{
  return read_input (self, 0, t, w);
}

/* The output of the current mode for the inputs now (a classic solver's
 * right-hand side, qd-block-type.h); before the first input, of the mode
 * the inputs put the block in. */
static guint64
hybrid_frozen_output (QdAtomic *self,
                      double    t)
{
  Hybrid *st = self->state;
  int mode = st->mode;

  if (!st->started)
    mode = evaluate (self, t, st->mode, NAN).mode;
  return st->klass->output (self, t, mode, mode);
}

/* The crossings as root functions of a classic solver
 * (qd-block-fast-private.h): the levels are those the mode's own step
 * probes, so the solver watches exactly what the block would solve for
 * on a polynomial, and its transition at the root is the block's own
 * internal transition, with the level snapped as at any crossing. */
static guint
hybrid_crossing_levels (QdAtomic *self,
                        double    t,
                        double   *levels)
{
  Hybrid *st = self->state;
  Probe probe;

  if (!st->started)
    return 0;
  probe.n = st->klass->watched (self, t, probe.w);
  probe.snap = NAN;
  probe.first = FALSE;
  probe.root = QD_INF;
  probe.root_level = 0.0;
  probe.record = levels;
  probe.n_record = 0;
  st->klass->step (self, st->mode, &probe);
  return probe.n_record;
}

static double
hybrid_crossing_signal (QdAtomic *self,
                        double    t)
{
  double w[QD_MAX_ORDER + 1];

  ((Hybrid *) self->state)->klass->watched (self, t, w);
  return w[0];
}

static gboolean
hybrid_cross_at (QdAtomic *self,
                 double    t,
                 double    e,
                 double    level)
{
  Hybrid *st = self->state;

  if (st->emit)
    return FALSE;   /* an output due now comes first */
  st->t_next = t;
  st->level = level;
  return TRUE;
}

static const QdBlockFastPaths hybrid_fast = {
  .crossing_levels = hybrid_crossing_levels,
  .crossing_signal = hybrid_crossing_signal,
  .cross_at = hybrid_cross_at,
};

#define HYBRID_FUNCS              \
  .fast = &hybrid_fast,           \
  .frozen_output = hybrid_frozen_output, \
  .init = hybrid_init,            \
  .ta = hybrid_ta,                \
  .dint = hybrid_dint,            \
  .dext = hybrid_dext,            \
  .lambda = hybrid_lambda

static gboolean
check_less (const QdBlockType  *type,
            const QdParamValue *params,
            int                 lo,
            int                 hi,
            gboolean            strict,
            GError            **error)
{
  double a = params[lo].number, b = params[hi].number;

  if (strict ? a < b : a <= b)
    return TRUE;
  g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
               strict ? _("parameter '%s' (%g) must be less than '%s' (%g); "
                          "swap or correct them")
                      : _("parameter '%s' (%g) must not exceed '%s' (%g); "
                          "swap or correct them"),
               type->params[lo].name, a, type->params[hi].name, b);
  return FALSE;
}

/* ---- Cross Detect ------------------------------------------------------ */

enum
{
  CROSS_LEVEL,
  CROSS_DIRECTION,
  CROSS_VALUE,
};

enum
{
  DIRECTION_RISING,
  DIRECTION_FALLING,
  DIRECTION_BOTH,
};

/* The mode is the side of the level the input is on. */
static int
cross_step (QdAtomic *self,
            int       mode,
            Probe    *probe)
{
  return probe_side (probe, self->params[CROSS_LEVEL].number);
}

static guint64
cross_output (QdAtomic *self,
              double    t,
              int       from,
              int       to)
{
  int direction = (int) self->params[CROSS_DIRECTION].number;
  gboolean rising = from < 0 && to >= 0;
  gboolean falling = from > 0 && to <= 0;

  /* The first input only tells where the signal starts. */
  if (from == MODE_NONE)
    return 0;
  if ((direction == DIRECTION_RISING && !rising)
      || (direction == DIRECTION_FALLING && !falling)
      || (direction == DIRECTION_BOTH && !rising && !falling))
    return 0;
  return output_constant (self, t, self->params[CROSS_VALUE].number);
}

static const char *const direction_choices[] = {
  "rising", "falling", "both", NULL
};

static const QdParamSpec cross_params[] = {
  { "level", N_("Level"), QD_PARAM_NUMBER, "0", -QD_INF, QD_INF, NULL,
    N_("The value whose crossing is detected."), NULL, 0 },
  { "direction", N_("Direction"), QD_PARAM_CHOICE, "both", -QD_INF, QD_INF,
    NULL,
    N_("Which crossings emit an event: rising (from below the level to it "
       "or above), falling (from above to it or below), or both."),
    direction_choices, 0 },
  { "value", N_("Output value"), QD_PARAM_NUMBER, "1", -QD_INF, QD_INF, NULL,
    N_("The value of the event emitted at each crossing."), NULL, 0 },
};

const QdBlockType qd_block_cross_detect = {
  .id = "cross_detect",
  .category = N_("Hybrid"),
  .name = N_("Cross Detect"),
  .glyph = "⤯",
  .doc = N_("Emits an event at the exact time its input crosses the "
            "level, in the chosen direction. The crossing time is solved "
            "from the input polynomial when each input segment arrives (no "
            "time stepping), so it is exact to rounding for inputs of any "
            "order. A jump of the input across the level emits the event at "
            "the time of the jump; a touch without crossing emits nothing. "
            "Use it to reset integrators (Integrator with Reset) or to "
            "trigger samplers."),
  .inputs = { .count = 1, .name_prefix = "u",
              .doc = N_("The watched signal.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("An event (order 0, the output value) at each "
                         "crossing.") },
  .params = cross_params,
  .n_params = G_N_ELEMENTS (cross_params),
  .flags = QD_BLOCK_FEEDTHROUGH,
  .state_size = sizeof (Hybrid),
  HYBRID_FUNCS,
};

/* ---- Switch ------------------------------------------------------------ */

/* Mode 1 passes u0 (u1 above the level), mode 0 passes u2. */
static int
switch_watched (QdAtomic *self,
                double    t,
                double   *w)
{
  return read_input (self, 1, t, w);
}

static int
switch_step (QdAtomic *self,
             int       mode,
             Probe    *probe)
{
  return probe_side (probe, self->params[0].number) > 0;
}

static guint64
switch_output (QdAtomic *self,
               double    t,
               int       from,
               int       to)
{
  return output_input (self, t, to ? 0 : 2);
}

static gboolean
switch_follows (QdAtomic *self,
                int       mode,
                guint     port)
{
  return port == (mode ? 0u : 2u);
}

static const QdParamSpec switch_params[] = {
  { "level", N_("Threshold"), QD_PARAM_NUMBER, "0", -QD_INF, QD_INF, NULL,
    N_("The output is u0 while u1 is above this level, u2 otherwise."),
    NULL, 0 },
};

const QdBlockType qd_block_switch = {
  .id = "switch",
  .category = N_("Hybrid"),
  .name = N_("Switch"),
  .glyph = "⇆",
  .doc = N_("Passes u0 through while the control input u1 is above the "
            "threshold, and u2 otherwise. The selected input's polynomial "
            "is passed with its order, and the switch happens at the exact "
            "time u1 crosses the threshold, solved from u1's polynomial."),
  .inputs = { .count = 3, .name_prefix = "u",
              .doc = N_("u0 is passed while u1 > threshold, u2 otherwise; "
                        "u1 is the control.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The selected input.") },
  .params = switch_params,
  .n_params = G_N_ELEMENTS (switch_params),
  .flags = QD_BLOCK_FEEDTHROUGH,
  .state_size = sizeof (Hybrid),
  HYBRID_FUNCS,
};

/* ---- Comparator -------------------------------------------------------- */

enum
{
  COMPARATOR_HIGH,
  COMPARATOR_LOW,
};

/* The difference u0 - u1; mode 1 when it is positive. */
static int
comparator_watched (QdAtomic *self,
                    double    t,
                    double   *w)
{
  double b[QD_MAX_ORDER + 1];
  int n = read_input (self, 0, t, w);

  n = MAX (n, read_input (self, 1, t, b));
  for (int k = 0; k <= QD_MAX_ORDER; k++)
    w[k] -= b[k];
  return n;
}

static int
comparator_step (QdAtomic *self,
                 int       mode,
                 Probe    *probe)
{
  return probe_side (probe, 0.0) > 0;
}

static guint64
comparator_output (QdAtomic *self,
                   double    t,
                   int       from,
                   int       to)
{
  return output_constant (self, t,
                          self->params[to ? COMPARATOR_HIGH
                                          : COMPARATOR_LOW].number);
}

static const QdParamSpec comparator_params[] = {
  { "high", N_("High value"), QD_PARAM_NUMBER, "1", -QD_INF, QD_INF, NULL,
    N_("The output while u0 > u1."), NULL, 0 },
  { "low", N_("Low value"), QD_PARAM_NUMBER, "0", -QD_INF, QD_INF, NULL,
    N_("The output while u0 ≤ u1."), NULL, 0 },
};

const QdBlockType qd_block_comparator = {
  .id = "comparator",
  .category = N_("Hybrid"),
  .name = N_("Comparator"),
  .glyph = ">",
  .doc = N_("Outputs the high value while u0 > u1 and the low value "
            "otherwise, switching at the exact time the difference u0 − u1 "
            "changes sign (solved from the input polynomials)."),
  .inputs = { .count = 2, .name_prefix = "u",
              .doc = N_("The two signals compared.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The high or the low value (order 0).") },
  .params = comparator_params,
  .n_params = G_N_ELEMENTS (comparator_params),
  .flags = QD_BLOCK_FEEDTHROUGH,
  .state_size = sizeof (Hybrid),
  HYBRID_FUNCS,
};

/* ---- Sign -------------------------------------------------------------- */

static int
sign_step (QdAtomic *self,
           int       mode,
           Probe    *probe)
{
  return probe_side (probe, 0.0);
}

static guint64
sign_output (QdAtomic *self,
             double    t,
             int       from,
             int       to)
{
  return output_constant (self, t, to);
}

const QdBlockType qd_block_sign = {
  .id = "sign",
  .category = N_("Hybrid"),
  .name = N_("Sign"),
  .glyph = "sgn",
  .doc = N_("Outputs 1 while its input is positive, −1 while it is "
            "negative and 0 while it stays at zero. The output changes at "
            "the exact times the input crosses zero; at a zero crossing it "
            "takes the sign the input moves to."),
  .inputs = { .count = 1, .name_prefix = "u",
              .doc = N_("The signal whose sign is taken.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("sign(u): −1, 0 or 1 (order 0).") },
  .flags = QD_BLOCK_FEEDTHROUGH,
  .state_size = sizeof (Hybrid),
  HYBRID_FUNCS,
};

/* ---- Hysteresis and Relay ---------------------------------------------- */

/* Both have the parameters (low threshold, high threshold, low output,
 * high output) in this order. Mode 1 is high. */
enum
{
  HYST_XL,
  HYST_XU,
  HYST_YL,
  HYST_YU,
};

static int
hysteresis_step (QdAtomic *self,
                 int       mode,
                 Probe    *probe)
{
  const QdParamValue *p = self->params;

  if (mode)
    return probe_side (probe, p[HYST_XL].number) >= 0;
  return probe_side (probe, p[HYST_XU].number) > 0;
}

static guint64
hysteresis_output (QdAtomic *self,
                   double    t,
                   int       from,
                   int       to)
{
  return output_constant (self, t,
                          self->params[to ? HYST_YU : HYST_YL].number);
}

static gboolean
hysteresis_check (const QdBlockType  *type,
                  const QdParamValue *params,
                  guint               n_inputs,
                  guint               n_outputs,
                  GError            **error)
{
  /* Hysteresis needs a band; the relay, as Simulink's, allows the
   * switch-on and switch-off points to coincide. */
  return check_less (type, params, HYST_XL, HYST_XU,
                     type == &qd_block_hysteresis, error);
}

static const QdParamSpec hysteresis_params[] = {
  { "xl", N_("Lower threshold"), QD_PARAM_NUMBER, "-1", -QD_INF, QD_INF,
    NULL, N_("When the output is high, it goes low once the input falls "
             "below this level."), NULL, 0 },
  { "xu", N_("Upper threshold"), QD_PARAM_NUMBER, "1", -QD_INF, QD_INF,
    NULL, N_("When the output is low, it goes high once the input rises "
             "above this level. Must be greater than xl."), NULL, 0 },
  { "yl", N_("Low output"), QD_PARAM_NUMBER, "0", -QD_INF, QD_INF, NULL,
    N_("The output in the low state."), NULL, 0 },
  { "yu", N_("High output"), QD_PARAM_NUMBER, "1", -QD_INF, QD_INF, NULL,
    N_("The output in the high state."), NULL, 0 },
};

const QdBlockType qd_block_hysteresis = {
  .id = "hysteresis",
  .category = N_("Hybrid"),
  .name = N_("Hysteresis"),
  .glyph = "⊐",
  .doc = N_("A two-state element with hysteresis: the output becomes yu "
            "when the input rises through xu and yl when it falls through "
            "xl, at the exact crossing times. It starts high if the first "
            "input is above xu, low otherwise."),
  .inputs = { .count = 1, .name_prefix = "u",
              .doc = N_("The input signal.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("yl or yu (order 0).") },
  .params = hysteresis_params,
  .n_params = G_N_ELEMENTS (hysteresis_params),
  .flags = QD_BLOCK_FEEDTHROUGH,
  .state_size = sizeof (Hybrid),
  .check = hysteresis_check,
  HYBRID_FUNCS,
};

static const QdParamSpec relay_params[] = {
  { "off_point", N_("Switch-off point"), QD_PARAM_NUMBER, "-0.5", -QD_INF,
    QD_INF, NULL, N_("When on, the relay switches off once the input falls "
                     "below this level."), NULL, 0 },
  { "on_point", N_("Switch-on point"), QD_PARAM_NUMBER, "0.5", -QD_INF,
    QD_INF, NULL, N_("When off, the relay switches on once the input rises "
                     "above this level. Must not be below the switch-off "
                     "point."), NULL, 0 },
  { "off_value", N_("Output when off"), QD_PARAM_NUMBER, "0", -QD_INF,
    QD_INF, NULL, N_("The output while the relay is off."), NULL, 0 },
  { "on_value", N_("Output when on"), QD_PARAM_NUMBER, "1", -QD_INF,
    QD_INF, NULL, N_("The output while the relay is on."), NULL, 0 },
};

const QdBlockType qd_block_relay = {
  .id = "relay",
  .category = N_("Hybrid"),
  .name = N_("Relay"),
  .glyph = "⊏",
  .doc = N_("A relay with the parameters of Simulink's Relay: it switches on "
            "when the input rises above the switch-on point and off when "
            "it falls below the switch-off point, at the exact crossing "
            "times. It starts on if the first input is above the switch-on "
            "point, off otherwise."),
  .inputs = { .count = 1, .name_prefix = "u",
              .doc = N_("The input signal.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The on or off value (order 0).") },
  .params = relay_params,
  .n_params = G_N_ELEMENTS (relay_params),
  .flags = QD_BLOCK_FEEDTHROUGH,
  .state_size = sizeof (Hybrid),
  .check = hysteresis_check,
  HYBRID_FUNCS,
};

/* ---- Saturation -------------------------------------------------------- */

enum
{
  SAT_LOWER,
  SAT_UPPER,
};

/* Mode -1 below, 0 between (passing the input), 1 above. */
static int
saturation_step (QdAtomic *self,
                 int       mode,
                 Probe    *probe)
{
  const QdParamValue *p = self->params;
  int below = probe_side (probe, p[SAT_LOWER].number);
  int above = probe_side (probe, p[SAT_UPPER].number);

  if (above > 0)
    return 1;
  if (below < 0)
    return -1;
  return 0;
}

static guint64
saturation_output (QdAtomic *self,
                   double    t,
                   int       from,
                   int       to)
{
  const QdParamValue *p = self->params;
  QdSignal *y = &self->out[0];

  if (to > 0)
    return output_constant (self, t, p[SAT_UPPER].number);
  if (to < 0)
    return output_constant (self, t, p[SAT_LOWER].number);
  output_input (self, t, 0);
  /* Entering the band at a limit, the value is the limit itself to
   * rounding: keep the output continuous. */
  y->c[0] = CLAMP (y->c[0], p[SAT_LOWER].number, p[SAT_UPPER].number);
  return 1;
}

static gboolean
saturation_follows (QdAtomic *self,
                    int       mode,
                    guint     port)
{
  return mode == 0;
}

static gboolean
saturation_check (const QdBlockType  *type,
                  const QdParamValue *params,
                  guint               n_inputs,
                  guint               n_outputs,
                  GError            **error)
{
  return check_less (type, params, SAT_LOWER, SAT_UPPER, TRUE, error);
}

static const QdParamSpec saturation_params[] = {
  { "lower", N_("Lower limit"), QD_PARAM_NUMBER, "-1", -QD_INF, QD_INF, NULL,
    N_("The output never goes below this value."), NULL, 0 },
  { "upper", N_("Upper limit"), QD_PARAM_NUMBER, "1", -QD_INF, QD_INF, NULL,
    N_("The output never goes above this value. Must be greater than the "
       "lower limit."), NULL, 0 },
};

const QdBlockType qd_block_saturation = {
  .id = "saturation",
  .category = N_("Hybrid"),
  .name = N_("Saturation"),
  .glyph = "⊓",
  .doc = N_("Limits its input to [lower, upper]. Between the limits the "
            "input polynomial passes through with its order; the times the "
            "input reaches and leaves a limit are solved exactly from its "
            "polynomial, and outside the limits the output is the constant "
            "limit."),
  .inputs = { .count = 1, .name_prefix = "u",
              .doc = N_("The signal to limit.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The limited signal.") },
  .params = saturation_params,
  .n_params = G_N_ELEMENTS (saturation_params),
  .flags = QD_BLOCK_FEEDTHROUGH,
  .state_size = sizeof (Hybrid),
  .check = saturation_check,
  HYBRID_FUNCS,
};

/* ---- Quantizer --------------------------------------------------------- */

enum
{
  QUANT_QUANTUM,
  QUANT_HYSTERESIS,
};

/* The mode is the index k of the level k·Q held. Without hysteresis the
 * output is the nearest level: the switching points are (k ± 1/2)·Q.
 * With hysteresis it is the quantization of Kofman and Junco (2001) with
 * a hysteresis of one quantum: k·Q goes to (k+1)·Q when the input rises
 * through (k+1)·Q and to (k−1)·Q when it falls through (k−1)·Q; it
 * starts at the level below the input.
 *
 * The levels are computed the same way from every mode ((j + 1/2)·Q for
 * one switching point, whichever side it is approached from), so that the
 * level snapped at a crossing matches the one probed afterwards. */
static int
quantizer_step (QdAtomic *self,
                int       mode,
                Probe    *probe)
{
  double q = self->params[QUANT_QUANTUM].number;
  double k = mode;
  double v = probe->w[0] / q;

  if (self->params[QUANT_HYSTERESIS].number != 0.0)
    {
      /* The first level is the one at or below the input. */
      if (probe->first && k != floor (v))
        return (int) CLAMP (floor (v), G_MININT + 2, G_MAXINT - 2);
      /* A jump far away starts next to its destination; the probes below
       * settle the last level. */
      if (v >= k + 2.0)
        return (int) CLAMP (floor (v) - 1.0, G_MININT + 2, G_MAXINT - 2);
      if (v <= k - 2.0)
        return (int) CLAMP (ceil (v) + 1.0, G_MININT + 2, G_MAXINT - 2);
      if (probe_side (probe, (k + 1.0) * q) > 0)
        return mode + 1;
      if (probe_side (probe, (k - 1.0) * q) < 0)
        return mode - 1;
      return mode;
    }

  if (fabs (v - k) >= 2.0)
    return (int) CLAMP (nearbyint (v), G_MININT + 2, G_MAXINT - 2);
  if (probe_side (probe, (k + 0.5) * q) > 0)
    return mode + 1;
  if (probe_side (probe, (k - 1.0 + 0.5) * q) < 0)
    return mode - 1;
  return mode;
}

static guint64
quantizer_output (QdAtomic *self,
                  double    t,
                  int       from,
                  int       to)
{
  return output_constant (self, t, to * self->params[QUANT_QUANTUM].number);
}

static gboolean
quantizer_check (const QdBlockType  *type,
                 const QdParamValue *params,
                 guint               n_inputs,
                 guint               n_outputs,
                 GError            **error)
{
  if (params[QUANT_QUANTUM].number > 0.0)
    return TRUE;
  g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
               _("parameter 'quantum' (%g) must be greater than 0"),
               params[QUANT_QUANTUM].number);
  return FALSE;
}

static const QdParamSpec quantizer_params[] = {
  { "quantum", N_("Quantum"), QD_PARAM_NUMBER, "1", 0, QD_INF, NULL,
    N_("The distance between output levels: the output is a whole "
       "multiple of it."), NULL, 0 },
  { "hysteresis", N_("Hysteresis"), QD_PARAM_BOOLEAN, "false", 0, 1, NULL,
    N_("Without hysteresis the output is the multiple nearest to the "
       "input. With it, the output moves to the next level only when the "
       "input reaches that level, and back only when the input is a full "
       "quantum below it (the quantization of QSS1)."), NULL, 0 },
};

const QdBlockType qd_block_quantizer = {
  .id = "quantizer",
  .category = N_("Hybrid"),
  .name = N_("Quantizer"),
  .glyph = "⌊u⌋",
  .doc = N_("Quantizes its input to whole multiples of the quantum, with "
            "events at the exact times the input reaches a switching level "
            "(solved from its polynomial). Without hysteresis the output is "
            "the nearest multiple; with hysteresis it is the quantization "
            "function with hysteresis of QSS1."),
  .inputs = { .count = 1, .name_prefix = "u",
              .doc = N_("The signal to quantize.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The quantized signal (order 0).") },
  .params = quantizer_params,
  .n_params = G_N_ELEMENTS (quantizer_params),
  .flags = QD_BLOCK_FEEDTHROUGH,
  .state_size = sizeof (Hybrid),
  .check = quantizer_check,
  HYBRID_FUNCS,
};

/* ---- 1-D Lookup Table -------------------------------------------------- */

enum
{
  LOOKUP_BREAKPOINTS,
  LOOKUP_VALUES,
  LOOKUP_EXTRAPOLATION,
};

enum
{
  EXTRAPOLATION_LINEAR,
  EXTRAPOLATION_CLIP,
};

/* The mode j is the interval of the input among the n breakpoints b:
 * 0 below b[0], j in 1..n-1 in [b[j-1], b[j]), n at or above b[n-1]. A
 * breakpoint belongs to the interval above it: f is continuous, so the
 * value is the same from either side, and a constant input on it is
 * stable there. */
static int
lookup_step (QdAtomic *self,
             int       mode,
             Probe    *probe)
{
  const QdParamValue *bp = &self->params[LOOKUP_BREAKPOINTS];
  const double *b = bp->vector;
  int n = (int) bp->n_vector, lo = 0, hi = n;

  /* Far from the current interval (the first input, a jump): straight to
   * the interval of the value by bisection; the probes settle the rest. */
  while (lo < hi)
    {
      int mid = lo + (hi - lo) / 2;

      if (b[mid] <= probe->w[0])
        lo = mid + 1;
      else
        hi = mid;
    }
  if (ABS (lo - mode) >= 2)
    return lo;
  if (mode < n && probe_side (probe, b[mode]) >= 0)
    return mode + 1;
  if (mode > 0 && probe_side (probe, b[mode - 1]) < 0)
    return mode - 1;
  return mode;
}

/* The linear piece used in @mode: its index i (between b[i] and
 * b[i + 1]), or -1 when the output is clipped there. */
static int
lookup_piece (QdAtomic *self,
              int       mode)
{
  int n = (int) self->params[LOOKUP_BREAKPOINTS].n_vector;
  gboolean clip = (int) self->params[LOOKUP_EXTRAPOLATION].number
                  == EXTRAPOLATION_CLIP;

  if (mode <= 0)
    return clip ? -1 : 0;
  if (mode >= n)
    return clip ? -1 : n - 2;
  return mode - 1;
}

static guint64
lookup_output (QdAtomic *self,
               double    t,
               int       from,
               int       to)
{
  const double *b = self->params[LOOKUP_BREAKPOINTS].vector;
  const double *v = self->params[LOOKUP_VALUES].vector;
  int n = (int) self->params[LOOKUP_BREAKPOINTS].n_vector;
  int i = lookup_piece (self, to);
  QdSignal *y = &self->out[0];
  double slope;

  if (i < 0)
    return output_constant (self, t, to <= 0 ? v[0] : v[n - 1]);
  output_input (self, t, 0);
  slope = (v[i + 1] - v[i]) / (b[i + 1] - b[i]);
  /* y = v[i] + slope (u − b[i]) on every coefficient: exact. At a
   * breakpoint reached now (to rounding: the crossing's time is rounded)
   * the value is the table's own, so the output is continuous. */
  {
    /* MODE_NONE (the first output) is INT_MIN: no neighbour of it. */
    int k = from == MODE_NONE ? -1
            : to == from + 1 ? from : to == from - 1 ? to : -1;
    double u = y->c[0];

    y->c[0] = v[i] + slope * (u - b[i]);
    if (from != MODE_NONE && k >= 0 && k < n
        && fabs (u - b[k]) <= 16.0 * DBL_EPSILON * (fabs (u) + fabs (b[k])))
      y->c[0] = v[k];
  }
  for (int k = 1; k <= QD_MAX_ORDER; k++)
    y->c[k] *= slope;
  if (slope == 0.0)
    y->order = 0;
  return 1;
}

static gboolean
lookup_follows (QdAtomic *self,
                int       mode,
                guint     port)
{
  return lookup_piece (self, mode) >= 0;
}

static gboolean
lookup_check (const QdBlockType  *type,
              const QdParamValue *params,
              guint               n_inputs,
              guint               n_outputs,
              GError            **error)
{
  const QdParamValue *b = &params[LOOKUP_BREAKPOINTS];
  const QdParamValue *v = &params[LOOKUP_VALUES];

  if (b->n_vector < 2)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("parameter 'breakpoints' has %u element(s): give at "
                     "least 2"), b->n_vector);
      return FALSE;
    }
  for (guint i = 1; i < b->n_vector; i++)
    if (!(b->vector[i] > b->vector[i - 1]))
      {
        g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                     _("parameter 'breakpoints' must be strictly increasing "
                       "(element %u, %g, is not above %g)"),
                     i + 1, b->vector[i], b->vector[i - 1]);
        return FALSE;
      }
  if (v->n_vector != b->n_vector)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("parameter 'values' has %u elements; it needs one per "
                     "breakpoint (%u)"), v->n_vector, b->n_vector);
      return FALSE;
    }
  return TRUE;
}

static const char *const extrapolation_choices[] = { "linear", "clip", NULL };

static const QdParamSpec lookup_params[] = {
  { "breakpoints", N_("Breakpoints"), QD_PARAM_VECTOR, "0, 1", -QD_INF,
    QD_INF, NULL, N_("The input values of the table, strictly increasing."),
    NULL, 0 },
  { "values", N_("Values"), QD_PARAM_VECTOR, "0, 1", -QD_INF, QD_INF, NULL,
    N_("The output at each breakpoint, as many as breakpoints."), NULL, 0 },
  { "extrapolation", N_("Extrapolation"), QD_PARAM_CHOICE, "linear",
    -QD_INF, QD_INF, NULL,
    N_("Outside the breakpoints: linear continues the first and last "
       "pieces; clip holds the first and last values."),
    extrapolation_choices, 0 },
};

const QdBlockType qd_block_lookup_1d = {
  .id = "lookup_1d",
  .category = N_("Hybrid"),
  .name = N_("1-D Lookup Table"),
  .glyph = "⟋⟍",
  .doc = N_("The piecewise linear function of its input through the table "
            "(breakpoints, values): linear interpolation between "
            "breakpoints, linear or clipped outside them. Within a piece "
            "the output is the input polynomial scaled and shifted, exact "
            "to its order; the times the input reaches a breakpoint are "
            "solved from its polynomial, as the Hybrid blocks' crossings, "
            "and there the output changes piece."),
  .inputs = { .count = 1, .name_prefix = "u",
              .doc = N_("The input looked up in the table.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The interpolated value.") },
  .params = lookup_params,
  .n_params = G_N_ELEMENTS (lookup_params),
  .flags = QD_BLOCK_FEEDTHROUGH,
  .state_size = sizeof (Hybrid),
  .check = lookup_check,
  HYBRID_FUNCS,
};

/* ---- the classes ------------------------------------------------------- */

static const HybridClass hybrid_classes[] = {
  { &qd_block_cross_detect, watch_input0, cross_step, cross_output,
    0, 1 << 0, NULL },
  { &qd_block_switch, switch_watched, switch_step, switch_output,
    0, 1 << 1, switch_follows },
  { &qd_block_comparator, comparator_watched, comparator_step,
    comparator_output, 0, (1 << 0) | (1 << 1), NULL },
  { &qd_block_sign, watch_input0, sign_step, sign_output, 0, 1 << 0, NULL },
  { &qd_block_hysteresis, watch_input0, hysteresis_step, hysteresis_output,
    0, 1 << 0, NULL },
  { &qd_block_relay, watch_input0, hysteresis_step, hysteresis_output,
    0, 1 << 0, NULL },
  { &qd_block_saturation, watch_input0, saturation_step, saturation_output,
    0, 1 << 0, saturation_follows },
  { &qd_block_quantizer, watch_input0, quantizer_step, quantizer_output,
    0, 1 << 0, NULL },
  { &qd_block_lookup_1d, watch_input0, lookup_step, lookup_output,
    0, 1 << 0, lookup_follows },
};

static const HybridClass *
hybrid_class (const QdBlockType *type)
{
  for (guint i = 0; i < G_N_ELEMENTS (hybrid_classes); i++)
    if (hybrid_classes[i].type == type)
      return &hybrid_classes[i];
  g_assert_not_reached ();
  return NULL;
}

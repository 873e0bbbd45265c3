/* qd-block-sinks.c: Event Counter, Time Counter, Statistics and Terminator
 *
 * Sinks that report numbers instead of traces, through the run's block
 * statistics (qd-stats.h), set when the run ends.
 *
 * Statistics follows its input exactly: the signal is a piecewise
 * polynomial, so over each piece [a, b) its integral is the integral of
 * the polynomial and its extremes are at a, at b (as a limit: a
 * continuous signal reaches it) or at a root of the derivative inside,
 * found from the quadratic formula. The time average is the integral over
 * the run divided by its length. Before its first event the input is the
 * zero segment, as for every block; a piece of zero length adds nothing.
 */
#include <math.h>

#include "qd-blocks-private.h"
#include "qd-stats.h"

/* -------------------------------------------------------------------- */
/* Event Counter */

enum
{
  EVENT_COUNTER_N,
};

typedef struct
{
  guint64 *counts;
} EventCounter;

static void
event_counter_init (QdAtomic *self,
                    double    t)
{
  EventCounter *st = self->state;

  st->counts = qd_atomic_alloc (self, MAX (self->n_in, 1) * sizeof (guint64));
}

static void
event_counter_dext (QdAtomic       *self,
                    double          t,
                    double          e,
                    guint           port,
                    const QdSignal *x)
{
  EventCounter *st = self->state;

  st->counts[port]++;
}

static void
event_counter_exit (QdAtomic *self,
                    double    t)
{
  EventCounter *st = self->state;
  guint64 total = 0;

  if (st->counts == NULL)
    return;
  for (guint k = 0; k < self->n_in; k++)
    {
      char name[32];

      g_snprintf (name, sizeof name, "events_u%u", k);
      qd_atomic_set_stat (self, name, (double) st->counts[k]);
      total += st->counts[k];
    }
  qd_atomic_set_stat (self, "events", (double) total);
}

static const QdParamSpec event_counter_params[] = {
  { "n", N_("Inputs"), QD_PARAM_INTEGER, "1", 1, 64, NULL,
    N_("The number of inputs, each counted on its own."), NULL, 0 },
};

const QdBlockType qd_block_event_counter = {
  .id = "event_counter",
  .category = N_("Sinks"),
  .name = N_("Event Counter"),
  .glyph = "Σ#",
  .doc = N_("Counts the events arriving on each input and reports them at "
            "the end of the run as the statistics events_u0, events_u1, "
            "... and their sum, events."),
  .inputs = { .size_param = "n", .name_prefix = "u",
              .doc = N_("The events to count.") },
  .params = event_counter_params,
  .n_params = G_N_ELEMENTS (event_counter_params),
  .state_size = sizeof (EventCounter),
  .init = event_counter_init,
  .dext = event_counter_dext,
  .exit = event_counter_exit,
};

/* -------------------------------------------------------------------- */
/* Time Counter */

enum
{
  TIME_COUNTER_UNTIL,
};

typedef struct
{
  gint64   start_us;     /* monotonic clock at the start of the run */
  double   t0;
  double   sigma;
  gboolean done;
} TimeCounter;

static void
time_counter_init (QdAtomic *self,
                   double    t)
{
  TimeCounter *st = self->state;
  double until = self->params[TIME_COUNTER_UNTIL].number;

  st->start_us = g_get_monotonic_time ();
  st->t0 = t;
  st->sigma = until > 0.0 ? until : QD_INF;
  st->done = FALSE;
}

static double
time_counter_ta (QdAtomic *self)
{
  TimeCounter *st = self->state;

  return st->sigma;
}

/* The wall time since the start, and the simulated span it took. */
static void
time_counter_report (QdAtomic *self,
                     double    t)
{
  TimeCounter *st = self->state;

  if (st->done)
    return;
  st->done = TRUE;
  qd_atomic_set_stat (self, "wall_s",
                      (g_get_monotonic_time () - st->start_us) / 1e6);
  qd_atomic_set_stat (self, "simulated_s", t - st->t0);
}

static void
time_counter_dint (QdAtomic *self,
                   double    t)
{
  TimeCounter *st = self->state;

  time_counter_report (self, t);
  st->sigma = QD_INF;
}

static guint64
time_counter_lambda (QdAtomic *self,
                     double    t)
{
  return 0;
}

static void
time_counter_exit (QdAtomic *self,
                   double    t)
{
  time_counter_report (self, t);
}

static const QdParamSpec time_counter_params[] = {
  { "until", N_("Until"), QD_PARAM_NUMBER, "0", 0, QD_INF, "s",
    N_("The simulated time, from the start, at which the clock is read; "
       "0 reads it at the end of the run."), NULL, 0 },
};

const QdBlockType qd_block_time_counter = {
  .id = "time_counter",
  .category = N_("Sinks"),
  .name = N_("Time Counter"),
  .glyph = "⏱",
  .doc = N_("Measures how long the simulation takes, as PowerDEVS's Time "
            "Counter: the wall-clock time from the start of the run until "
            "the simulated time reaches start + until (or the end of the "
            "run), reported as the statistics wall_s and simulated_s (the "
            "simulated span measured). It has no ports: drop it anywhere "
            "in the diagram."),
  .params = time_counter_params,
  .n_params = G_N_ELEMENTS (time_counter_params),
  .state_size = sizeof (TimeCounter),
  .init = time_counter_init,
  .ta = time_counter_ta,
  .dint = time_counter_dint,
  .lambda = time_counter_lambda,
  .exit = time_counter_exit,
};

/* -------------------------------------------------------------------- */
/* Statistics */

typedef struct
{
  QdSignal  cur;        /* the input since seg_start */
  double    seg_start;
  double    t0;
  double    integral;
  double    min, max;
  gboolean  seen;       /* min and max hold a piece of positive length */
} Statistics;

static void
statistics_extreme (Statistics *st,
                    double      v)
{
  st->min = MIN (st->min, v);
  st->max = MAX (st->max, v);
}

/* Adds the piece of st->cur over [seg_start, @b]. */
static void
statistics_accumulate (Statistics *st,
                       double      b)
{
  double h = b - st->seg_start;
  QdSignal p;
  double c0, c1, c2, c3;
  double roots[2];
  guint n_roots = 0;

  if (!(h > 0.0))
    return;
  /* Taylor coefficients at the start of the piece: s runs over [0, h]. */
  qd_signal_advance (&st->cur, st->seg_start, &p);
  c0 = p.c[0], c1 = p.c[1], c2 = p.c[2], c3 = p.c[3];
  st->integral += h * (c0 + h * (c1 / 2.0 + h * (c2 / 3.0 + h * c3 / 4.0)));

  if (!st->seen)
    {
      st->min = st->max = c0;
      st->seen = TRUE;
    }
  statistics_extreme (st, c0);
  statistics_extreme (st, qd_signal_eval (&p, b));

  /* p'(s) = c1 + 2 c2 s + 3 c3 s². */
  if (c3 == 0.0)
    {
      if (c2 != 0.0)
        roots[n_roots++] = -c1 / (2.0 * c2);
    }
  else
    {
      double a = 3.0 * c3, bb = 2.0 * c2, disc = bb * bb - 4.0 * a * c1;

      if (disc >= 0.0)
        {
          /* The form without cancellation. */
          double q = -0.5 * (bb + copysign (sqrt (disc), bb));

          if (q != 0.0)
            {
              roots[n_roots++] = q / a;
              roots[n_roots++] = c1 / q;
            }
          else
            roots[n_roots++] = 0.0;
        }
    }
  for (guint k = 0; k < n_roots; k++)
    if (roots[k] > 0.0 && roots[k] < h)
      statistics_extreme (st, qd_signal_eval (&p, st->seg_start + roots[k]));
}

static void
statistics_init (QdAtomic *self,
                 double    t)
{
  Statistics *st = self->state;

  st->cur = *self->in[0];
  st->seg_start = st->t0 = t;
  st->integral = 0.0;
  st->min = st->max = 0.0;
  st->seen = FALSE;
}

static void
statistics_dext (QdAtomic       *self,
                 double          t,
                 double          e,
                 guint           port,
                 const QdSignal *x)
{
  Statistics *st = self->state;

  statistics_accumulate (st, t);
  st->cur = *x;
  st->seg_start = t;
}

static void
statistics_exit (QdAtomic *self,
                 double    t)
{
  Statistics *st = self->state;
  double final;

  statistics_accumulate (st, t);
  final = qd_signal_eval (&st->cur, t);
  if (!st->seen)
    st->min = st->max = final;
  qd_atomic_set_stat (self, "min", st->min);
  qd_atomic_set_stat (self, "max", st->max);
  qd_atomic_set_stat (self, "mean",
                      t > st->t0 ? st->integral / (t - st->t0) : final);
  qd_atomic_set_stat (self, "final", final);
}

const QdBlockType qd_block_statistics = {
  .id = "statistics",
  .category = N_("Sinks"),
  .name = N_("Statistics"),
  .glyph = "x̄",
  .doc = N_("Reports, at the end of the run, the minimum, the maximum, the "
            "time average and the final value of its input over the run "
            "(statistics min, max, mean and final), computed exactly from "
            "the input's polynomial segments."),
  .inputs = { .count = 1, .name_prefix = "u",
              .doc = N_("The signal to measure.") },
  .state_size = sizeof (Statistics),
  .init = statistics_init,
  .dext = statistics_dext,
  .exit = statistics_exit,
};

/* -------------------------------------------------------------------- */
/* Terminator */

static const QdParamSpec terminator_params[] = {
  { "n", N_("Inputs"), QD_PARAM_INTEGER, "1", 1, 64, NULL,
    N_("The number of inputs."), NULL, 0 },
};

const QdBlockType qd_block_terminator = {
  .id = "terminator",
  .category = N_("Sinks"),
  .name = N_("Terminator"),
  .glyph = "⊣",
  .doc = N_("Accepts events and ignores them: it closes outputs that are "
            "not used, so that every output in a diagram goes somewhere."),
  .inputs = { .size_param = "n", .name_prefix = "u",
              .doc = N_("The signals to ignore.") },
  .params = terminator_params,
  .n_params = G_N_ELEMENTS (terminator_params),
};

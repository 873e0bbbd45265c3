/* qd-block-source-random.c: Random and Poisson, the stochastic sources
 *
 * Both draw from GLib's GRand, a Mersenne Twister (MT19937) seeded with
 * g_rand_new_with_seed(seed): the same seed gives the same sequence on
 * every platform and run, so a stochastic model is reproducible bit for
 * bit; another seed gives another sequence.
 *
 * Random holds a sample for one sample period: uniform samples come from
 * g_rand_double_range(); normal ones from the Box–Muller transform of
 * two uniforms, z = sqrt(−2 ln u1)·cos(2π u2) and, for the next sample,
 * sqrt(−2 ln u1)·sin(2π u2). The sample times are start + k·period,
 * computed from k so they do not drift.
 *
 * Poisson emits arrivals of a Poisson process: inter-arrival times are
 * exponential, −ln(1 − u)/rate with u uniform in [0, 1). Each arrival is
 * an order 0 segment holding the output value, with the number of the
 * arrival (1, 2, ...) in its tag; at the start time the block emits 0
 * with tag 0 (no arrival yet), so receivers know the signal from the
 * start.
 */
#include <math.h>

#include "qd-blocks-private.h"

/* -------------------------------------------------------------------- */
/* Random */

enum
{
  RANDOM_DISTRIBUTION,
  RANDOM_MIN,
  RANDOM_MAX,
  RANDOM_MEAN,
  RANDOM_STDDEV,
  RANDOM_PERIOD,
  RANDOM_SEED,
};

enum
{
  DISTRIBUTION_UNIFORM,
  DISTRIBUTION_NORMAL,
};

typedef struct
{
  GRand    *rand;
  double    value;        /* the sample the next event emits */
  double    spare;        /* Box–Muller's second normal sample */
  gboolean  has_spare;
  double    t_first;
  double    k;            /* sample periods since the start */
  double    sigma;
} Random;

/* Normal Random's parameters (PowerDEVS's NRGen, in its order). */
enum
{
  NORMAL_MEAN,
  NORMAL_VARIANCE,
  NORMAL_PERIOD,
  NORMAL_SEED,
};

/* A standard normal sample (Box–Muller, two per pair of uniforms). */
static double
standard_normal (Random *st)
{
  double u1, u2, r;

  if (st->has_spare)
    {
      st->has_spare = FALSE;
      return st->spare;
    }
  /* u1 in (0, 1], so the logarithm is finite. */
  u1 = 1.0 - g_rand_double (st->rand);
  u2 = g_rand_double (st->rand);
  r = sqrt (-2.0 * log (u1));
  st->spare = r * sin (2.0 * G_PI * u2);
  st->has_spare = TRUE;
  return r * cos (2.0 * G_PI * u2);
}

static double
random_draw (QdAtomic *self)
{
  Random *st = self->state;
  const QdParamValue *p = self->params;

  if (self->type == &qd_block_normal_random)
    return p[NORMAL_MEAN].number
           + sqrt (p[NORMAL_VARIANCE].number) * standard_normal (st);
  if ((int) p[RANDOM_DISTRIBUTION].number == DISTRIBUTION_UNIFORM)
    return g_rand_double_range (st->rand, p[RANDOM_MIN].number,
                                p[RANDOM_MAX].number);
  return p[RANDOM_MEAN].number + p[RANDOM_STDDEV].number
         * standard_normal (st);
}

/* The sample period and the seed, wherever the type keeps them. */
static double
random_period (QdAtomic *self)
{
  return self->params[self->type == &qd_block_normal_random
                      ? NORMAL_PERIOD : RANDOM_PERIOD].number;
}

static void
random_init (QdAtomic *self,
             double    t)
{
  Random *st = self->state;

  if (st->rand != NULL)
    g_rand_free (st->rand);
  st->rand = g_rand_new_with_seed ((guint32) self->params[
    self->type == &qd_block_normal_random ? NORMAL_SEED : RANDOM_SEED].number);
  st->has_spare = FALSE;
  st->t_first = t;
  st->k = 0.0;
  st->sigma = 0.0;
  st->value = random_draw (self);
}

static double
random_ta (QdAtomic *self)
{
  Random *st = self->state;

  return st->sigma;
}

static guint64
random_lambda (QdAtomic *self,
               double    t)
{
  Random *st = self->state;

  qd_signal_set_constant (&self->out[0], t, st->value);
  return 1;
}

static void
random_dint (QdAtomic *self,
             double    t)
{
  Random *st = self->state;

  st->k += 1.0;
  st->sigma = MAX (0.0, st->t_first + st->k * random_period (self) - t);
  st->value = random_draw (self);
}

static void
random_exit (QdAtomic *self,
             double    t)
{
  Random *st = self->state;

  g_clear_pointer (&st->rand, g_rand_free);
}

static gboolean
random_check (const QdBlockType  *type,
              const QdParamValue *params,
              guint               n_inputs,
              guint               n_outputs,
              GError            **error)
{
  if (!(params[RANDOM_PERIOD].number > 0.0))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("parameter 'period' must be greater than 0 (it is %g)"),
                   params[RANDOM_PERIOD].number);
      return FALSE;
    }
  if ((int) params[RANDOM_DISTRIBUTION].number == DISTRIBUTION_UNIFORM
      && params[RANDOM_MIN].number > params[RANDOM_MAX].number)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("parameter 'min' (%g) is greater than parameter 'max' "
                     "(%g): swap them"),
                   params[RANDOM_MIN].number, params[RANDOM_MAX].number);
      return FALSE;
    }
  return TRUE;
}

static const char *const distribution_choices[] = {
  "uniform", "normal", NULL
};

static const QdParamSpec random_params[] = {
  { "distribution", N_("Distribution"), QD_PARAM_CHOICE, "uniform",
    -QD_INF, QD_INF, NULL,
    N_("uniform draws between min and max; normal draws from a Gaussian "
       "of the given mean and standard deviation."),
    distribution_choices, 0 },
  { "min", N_("Minimum"), QD_PARAM_NUMBER, "0", -QD_INF, QD_INF, NULL,
    N_("The lower end of the uniform distribution."), NULL, 0 },
  { "max", N_("Maximum"), QD_PARAM_NUMBER, "1", -QD_INF, QD_INF, NULL,
    N_("The upper end of the uniform distribution."), NULL, 0 },
  { "mean", N_("Mean"), QD_PARAM_NUMBER, "0", -QD_INF, QD_INF, NULL,
    N_("The mean of the normal distribution."), NULL, 0 },
  { "stddev", N_("Standard deviation"), QD_PARAM_NUMBER, "1", 0, QD_INF,
    NULL, N_("The standard deviation of the normal distribution."),
    NULL, 0 },
  { "period", N_("Sampling period"), QD_PARAM_NUMBER, "0.1", 0, QD_INF, "s",
    N_("How long each sample is held; must be greater than 0."), NULL, 0 },
  { "seed", N_("Seed"), QD_PARAM_INTEGER, "1", 0, 4294967295.0, NULL,
    N_("The seed of the generator: the same seed gives the same "
       "samples."), NULL, QD_PARAM_SEED },
};

const QdBlockType qd_block_random = {
  .id = "random",
  .category = N_("Sources"),
  .name = N_("Random"),
  .glyph = "⚄",
  .doc = N_("A piecewise constant random signal: a new sample at the start "
            "time and every sample period after it, uniform between min "
            "and max or normal with the given mean and standard deviation "
            "(Box–Muller). The generator is GLib's Mersenne Twister seeded "
            "with the seed, so the same seed gives the same signal, bit "
            "for bit, on every run."),
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The random signal.") },
  .params = random_params,
  .n_params = G_N_ELEMENTS (random_params),
  .state_size = sizeof (Random),
  .check = random_check,
  .init = random_init,
  .ta = random_ta,
  .dint = random_dint,
  .lambda = random_lambda,
  .exit = random_exit,
};

/* -------------------------------------------------------------------- */
/* Normal Random */

static gboolean
normal_random_check (const QdBlockType  *type,
                     const QdParamValue *params,
                     guint               n_inputs,
                     guint               n_outputs,
                     GError            **error)
{
  if (!(params[NORMAL_PERIOD].number > 0.0))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("parameter 'period' must be greater than 0 (it is %g)"),
                   params[NORMAL_PERIOD].number);
      return FALSE;
    }
  return TRUE;
}

static const QdParamSpec normal_random_params[] = {
  { "mean", N_("Mean"), QD_PARAM_NUMBER, "0", -QD_INF, QD_INF, NULL,
    N_("The mean of the samples."), NULL, 0 },
  { "variance", N_("Variance"), QD_PARAM_NUMBER, "1", 0, QD_INF, NULL,
    N_("The variance of the samples (the square of their standard "
       "deviation)."), NULL, 0 },
  { "period", N_("Sampling period"), QD_PARAM_NUMBER, "0.1", 0, QD_INF, "s",
    N_("How long each sample is held; must be greater than 0."), NULL, 0 },
  { "seed", N_("Seed"), QD_PARAM_INTEGER, "1", 0, 4294967295.0, NULL,
    N_("The seed of the generator: the same seed gives the same "
       "samples."), NULL, QD_PARAM_SEED },
  { "size", N_("Size"), QD_PARAM_INTEGER, "1", 1, QD_INF, NULL,
    N_("The number of generators: above 1, the block is a vector of that "
       "many independent sources, element k drawing with seed + k − 1 "
       "(PowerDEVS's Vector NRGen)."), NULL, QD_PARAM_COMPILE_ONLY },
};

const QdBlockType qd_block_normal_random = {
  .id = "normal_random",
  .category = N_("Sources"),
  .name = N_("Normal Random"),
  .glyph = "𝒩",
  .doc = N_("PowerDEVS's normal random generator (NRGen): a piecewise "
            "constant signal, a new sample from a normal distribution of "
            "the given mean and variance at the start time and every "
            "sample period after it. The samples are those of the Random "
            "block's normal distribution (Box–Muller on GLib's Mersenne "
            "Twister), so the same seed gives the same signal, bit for "
            "bit."),
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The random signal.") },
  .params = normal_random_params,
  .n_params = G_N_ELEMENTS (normal_random_params),
  .state_size = sizeof (Random),
  .check = normal_random_check,
  .init = random_init,
  .ta = random_ta,
  .dint = random_dint,
  .lambda = random_lambda,
  .exit = random_exit,
};

/* -------------------------------------------------------------------- */
/* Poisson */

enum
{
  POISSON_RATE,
  POISSON_SEED,
  POISSON_VALUE,
};

typedef struct
{
  GRand    *rand;
  guint32   count;        /* arrivals emitted so far */
  gboolean  started;      /* the start event is done */
  double    sigma;
} Poisson;

static void
poisson_init (QdAtomic *self,
              double    t)
{
  Poisson *st = self->state;

  if (st->rand != NULL)
    g_rand_free (st->rand);
  st->rand = g_rand_new_with_seed ((guint32) self->params[POISSON_SEED].number);
  st->count = 0;
  st->started = FALSE;
  st->sigma = 0.0;
}

static double
poisson_ta (QdAtomic *self)
{
  Poisson *st = self->state;

  return st->sigma;
}

static guint64
poisson_lambda (QdAtomic *self,
                double    t)
{
  Poisson *st = self->state;
  QdSignal *y = &self->out[0];

  if (!st->started)
    {
      qd_signal_set_constant (y, t, 0.0);
      return 1;
    }
  qd_signal_set_constant (y, t, self->params[POISSON_VALUE].number);
  y->tag = st->count + 1;
  return 1;
}

static void
poisson_dint (QdAtomic *self,
              double    t)
{
  Poisson *st = self->state;
  double u = g_rand_double (st->rand);

  if (st->started)
    st->count++;
  st->started = TRUE;
  /* 1 − u is in (0, 1]: the interval is finite and never negative. */
  st->sigma = -log1p (-u) / self->params[POISSON_RATE].number;
}

static void
poisson_exit (QdAtomic *self,
              double    t)
{
  Poisson *st = self->state;

  g_clear_pointer (&st->rand, g_rand_free);
}

static gboolean
poisson_check (const QdBlockType  *type,
               const QdParamValue *params,
               guint               n_inputs,
               guint               n_outputs,
               GError            **error)
{
  if (!(params[POISSON_RATE].number > 0.0))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("parameter 'rate' must be greater than 0 (it is %g)"),
                   params[POISSON_RATE].number);
      return FALSE;
    }
  return TRUE;
}

static const QdParamSpec poisson_params[] = {
  { "rate", N_("Rate"), QD_PARAM_NUMBER, "1", 0, QD_INF, "1/s",
    N_("The mean number of arrivals per second; must be greater than 0."),
    NULL, 0 },
  { "seed", N_("Seed"), QD_PARAM_INTEGER, "1", 0, 4294967295.0, NULL,
    N_("The seed of the generator: the same seed gives the same "
       "arrivals."), NULL, QD_PARAM_SEED },
  { "value", N_("Output value"), QD_PARAM_NUMBER, "1", -QD_INF, QD_INF,
    NULL, N_("The value each arrival carries."), NULL, 0 },
};

const QdBlockType qd_block_poisson = {
  .id = "poisson",
  .category = N_("Sources"),
  .name = N_("Poisson Events"),
  .glyph = "⁞",
  .doc = N_("Events at the arrivals of a Poisson process of the given "
            "rate: the times between them are exponential with mean "
            "1/rate. Each arrival is an order 0 event holding the output "
            "value, with its number (1, 2, 3, ...) in the event's tag; at "
            "the start time the output is 0 with tag 0. The generator is "
            "GLib's Mersenne Twister seeded with the seed, so the same "
            "seed gives the same arrivals on every run."),
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The arrivals: the output value, numbered in the "
                         "tag.") },
  .params = poisson_params,
  .n_params = G_N_ELEMENTS (poisson_params),
  .state_size = sizeof (Poisson),
  .check = poisson_check,
  .init = poisson_init,
  .ta = poisson_ta,
  .dint = poisson_dint,
  .lambda = poisson_lambda,
  .exit = poisson_exit,
};

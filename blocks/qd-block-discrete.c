/* qd-block-discrete.c: Generator, Queue and Server, the queueing blocks
 *
 * Entities are order 0 events whose tag is the entity's id (1, 2, 3, ...,
 * given by the Generator) and whose value is the same id, so a Scope
 * shows a staircase of arrivals. The blocks keep the id as the entity
 * moves on.
 *
 * The queue–server handshake. A server takes one entity at a time and the
 * queue must not push the next one before the server is done, so the
 * server tells the queue when it is free:
 *
 *   Generator.y0 → Queue.in0 (entities)       Queue.y0 → Server.in0
 *   Server.y1 ("ready") → Queue.in1 ("ready")  Server.y0 → downstream
 *
 * The server emits one "ready" pulse at the start time (it starts idle)
 * and one with each served entity. The queue remembers that the server
 * is free; when it holds an entity and the server is free it emits the
 * head of the line at once (time advance 0) and marks the server busy.
 * So an entity that finds the server idle goes through the queue in zero
 * time, and a busy server is never offered a second entity. This is the
 * textbook's event scheduling workflow (Generate_Job, Process_Job) cut
 * into DEVS atomic models; the priority order decides between events at
 * the same instant, which changes no statistic.
 *
 * An entity reaching a busy server without a queue in front is lost (the
 * server counts it): a Generator wired straight to a Server is a loss
 * system.
 *
 * Random times come from GLib's GRand (MT19937) seeded with the block's
 * seed, so a run repeats bit for bit; exponential times are
 * −mean·ln(1 − u) with u uniform in [0, 1).
 *
 * Statistics (qd_atomic_set_stat, at the end of the run, over the whole
 * run from the start time):
 *   Generator: entities.
 *   Queue: arrivals, drops, departures, mean_length (time average of the
 *     number waiting), max_length, mean_wait (over the entities that left),
 *     throughput (departures per unit of time).
 *   Server: served, lost, utilisation (fraction of time busy), throughput
 *     (served per unit of time), mean_service.
 * The mean number in an M/M/1 system is the queue's mean_length plus the
 * server's utilisation.
 */
#include <math.h>

#include "qd-blocks-private.h"
#include "qd-stats.h"

enum
{
  DISTRIBUTION_DETERMINISTIC,
  DISTRIBUTION_EXPONENTIAL,
};

static const char *const distribution_choices[] = {
  "deterministic", "exponential", NULL
};

/* A time drawn from @distribution (DISTRIBUTION_*) with mean @mean. */
static double
draw_time (GRand  *rand,
           int     distribution,
           double  mean)
{
  if (distribution == DISTRIBUTION_DETERMINISTIC)
    return mean;
  /* 1 − u is in (0, 1]: the time is finite and never negative. */
  return -mean * log1p (-g_rand_double (rand));
}

static double
safe_ratio (double num,
            double den)
{
  return den > 0.0 ? num / den : 0.0;
}

/* -------------------------------------------------------------------- */
/* Generator */

enum
{
  GENERATOR_DISTRIBUTION,
  GENERATOR_PERIOD,
  GENERATOR_SEED,
};

typedef struct
{
  GRand   *rand;
  guint32  count;       /* entities emitted so far */
  double   t0;
  double   sigma;
} Generator;

static void
generator_next (QdAtomic *self,
                double    t)
{
  Generator *st = self->state;
  const QdParamValue *p = self->params;
  int distribution = (int) p[GENERATOR_DISTRIBUTION].number;

  /* Deterministic arrivals fall on t0 + k·period, computed from k so
   * that they do not drift. */
  if (distribution == DISTRIBUTION_DETERMINISTIC)
    st->sigma = MAX (0.0, st->t0 + (st->count + 1.0) * p[GENERATOR_PERIOD].number
                          - t);
  else
    st->sigma = draw_time (st->rand, distribution, p[GENERATOR_PERIOD].number);
}

static void
generator_init (QdAtomic *self,
                double    t)
{
  Generator *st = self->state;

  if (st->rand != NULL)
    g_rand_free (st->rand);
  st->rand = g_rand_new_with_seed ((guint32) self->params[GENERATOR_SEED].number);
  st->count = 0;
  st->t0 = t;
  generator_next (self, t);
}

static double
generator_ta (QdAtomic *self)
{
  Generator *st = self->state;

  return st->sigma;
}

static guint64
generator_lambda (QdAtomic *self,
                  double    t)
{
  Generator *st = self->state;

  qd_signal_set_constant (&self->out[0], t, st->count + 1.0);
  self->out[0].tag = st->count + 1;
  return 1;
}

static void
generator_dint (QdAtomic *self,
                double    t)
{
  Generator *st = self->state;

  st->count++;
  generator_next (self, t);
}

static void
generator_exit (QdAtomic *self,
                double    t)
{
  Generator *st = self->state;

  qd_atomic_set_stat (self, "entities", st->count);
  g_clear_pointer (&st->rand, g_rand_free);
}

static gboolean
generator_check (const QdBlockType  *type,
                 const QdParamValue *params,
                 guint               n_inputs,
                 guint               n_outputs,
                 GError            **error)
{
  if (!(params[GENERATOR_PERIOD].number > 0.0))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("parameter 'period' must be greater than 0 (it is %g)"),
                   params[GENERATOR_PERIOD].number);
      return FALSE;
    }
  return TRUE;
}

static const QdParamSpec generator_params[] = {
  { "distribution", N_("Inter-arrival times"), QD_PARAM_CHOICE,
    "exponential", -QD_INF, QD_INF, NULL,
    N_("deterministic: an entity every period; exponential: a Poisson "
       "stream whose mean time between entities is the period."),
    distribution_choices, 0 },
  { "period", N_("Period or mean"), QD_PARAM_NUMBER, "1", 0, QD_INF, "s",
    N_("The time between entities, or its mean; must be greater than 0 "
       "(the arrival rate is 1/period)."), NULL, 0 },
  { "seed", N_("Seed"), QD_PARAM_INTEGER, "1", 0, 4294967295.0, NULL,
    N_("The seed of the random generator: the same seed gives the same "
       "arrivals."), NULL, QD_PARAM_SEED },
};

const QdBlockType qd_block_generator = {
  .id = "generator",
  .category = N_("Discrete"),
  .name = N_("Generator"),
  .glyph = "⇶",
  .doc = N_("Creates entities: the first one inter-arrival time after the "
            "start time, then one every inter-arrival time, deterministic or "
            "exponential. Each entity is an order 0 event whose tag and "
            "value are its id, 1, 2, 3, ... Reports the number of entities "
            "as the statistic 'entities'."),
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The entities, numbered in the tag.") },
  .params = generator_params,
  .n_params = G_N_ELEMENTS (generator_params),
  .state_size = sizeof (Generator),
  .check = generator_check,
  .init = generator_init,
  .ta = generator_ta,
  .dint = generator_dint,
  .lambda = generator_lambda,
  .exit = generator_exit,
};

/* -------------------------------------------------------------------- */
/* Queue */

enum
{
  QUEUE_CAPACITY,
};

enum
{
  QUEUE_IN,
  QUEUE_READY,
};

#define QUEUE_INITIAL_SLOTS 64

typedef struct
{
  double  t;          /* arrival time */
  double  value;
  guint32 tag;
} Entity;

typedef struct
{
  Entity   *items;        /* a ring of n_slots */
  guint     n_slots;
  guint     head;
  guint     len;
  guint     capacity;     /* 0: unbounded */
  gboolean  server_free;
  double    t0;
  double    tl;           /* the last change of len */
  double    area;         /* ∫ len dt from t0 to tl */
  guint     max_len;
  guint64   arrivals;
  guint64   drops;
  guint64   departures;
  double    wait_sum;
} Queue;

static void
queue_init (QdAtomic *self,
            double    t)
{
  Queue *st = self->state;

  st->capacity = (guint) self->params[QUEUE_CAPACITY].number;
  st->n_slots = st->capacity > 0 ? MIN (st->capacity, QUEUE_INITIAL_SLOTS)
                                 : QUEUE_INITIAL_SLOTS;
  g_free (st->items);
  st->items = g_new (Entity, st->n_slots);
  st->head = st->len = 0;
  st->server_free = FALSE;
  st->t0 = st->tl = t;
  st->area = 0.0;
  st->max_len = 0;
  st->arrivals = st->drops = st->departures = 0;
  st->wait_sum = 0.0;
}

static void
queue_account (Queue  *st,
               double  t)
{
  st->area += st->len * (t - st->tl);
  st->tl = t;
}

/* A queue doubles its ring when full. This is the one allocation in a
 * transition: it happens log2(longest queue) times in a run, and a large
 * capacity is a bound, not a size to allocate at init. */
static void
queue_grow (Queue *st)
{
  guint n = st->n_slots * 2;
  Entity *items = g_new (Entity, n);

  for (guint k = 0; k < st->len; k++)
    items[k] = st->items[(st->head + k) % st->n_slots];
  g_free (st->items);
  st->items = items;
  st->n_slots = n;
  st->head = 0;
}

static double
queue_ta (QdAtomic *self)
{
  Queue *st = self->state;

  return st->len > 0 && st->server_free ? 0.0 : QD_INF;
}

static guint64
queue_lambda (QdAtomic *self,
              double    t)
{
  Queue *st = self->state;
  const Entity *e = &st->items[st->head];

  qd_signal_set_constant (&self->out[0], t, e->value);
  self->out[0].tag = e->tag;
  return 1;
}

static void
queue_dint (QdAtomic *self,
            double    t)
{
  Queue *st = self->state;

  queue_account (st, t);
  st->wait_sum += t - st->items[st->head].t;
  st->head = (st->head + 1) % st->n_slots;
  st->len--;
  st->departures++;
  st->server_free = FALSE;
}

static void
queue_dext (QdAtomic       *self,
            double          t,
            double          e,
            guint           port,
            const QdSignal *x)
{
  Queue *st = self->state;
  Entity *slot;

  if (port == QUEUE_READY)
    {
      st->server_free = TRUE;
      return;
    }

  st->arrivals++;
  if (st->capacity > 0 && st->len >= st->capacity)
    {
      st->drops++;
      return;
    }
  if (st->len == st->n_slots)
    queue_grow (st);
  queue_account (st, t);
  slot = &st->items[(st->head + st->len) % st->n_slots];
  slot->t = t;
  slot->value = qd_signal_eval (x, t);
  slot->tag = x->tag;
  st->len++;
  st->max_len = MAX (st->max_len, st->len);
}

static void
queue_exit (QdAtomic *self,
            double    t)
{
  Queue *st = self->state;
  double span = t - st->t0;

  if (st->items == NULL)
    return;
  queue_account (st, t);
  qd_atomic_set_stat (self, "arrivals", (double) st->arrivals);
  qd_atomic_set_stat (self, "drops", (double) st->drops);
  qd_atomic_set_stat (self, "departures", (double) st->departures);
  qd_atomic_set_stat (self, "mean_length", safe_ratio (st->area, span));
  qd_atomic_set_stat (self, "max_length", st->max_len);
  qd_atomic_set_stat (self, "mean_wait",
                      safe_ratio (st->wait_sum, (double) st->departures));
  qd_atomic_set_stat (self, "throughput",
                      safe_ratio ((double) st->departures, span));
  g_clear_pointer (&st->items, g_free);
}

static const QdParamSpec queue_params[] = {
  { "capacity", N_("Capacity"), QD_PARAM_INTEGER, "0", 0, 1e9, NULL,
    N_("The most entities that can wait; an entity arriving at a full "
       "queue is dropped and counted. 0 is unbounded."), NULL, 0 },
};

/* For the debugger (qd-debug.h). */
static const char *
queue_describe_phase (QdAtomic *self)
{
  Queue *st = self->state;

  if (st->len == 0)
    return N_("empty: waiting for an arrival");
  if (st->server_free)
    return N_("sending the head of the line");
  return N_("waiting for the server");
}

static void
queue_describe_state (QdAtomic   *self,
                      double      t,
                      QdStateFunc add,
                      gpointer    user_data)
{
  Queue *st = self->state;
  g_autoptr(GString) items = g_string_new (NULL);

  for (guint k = 0; k < st->len && k < 20; k++)
    g_string_append_printf (items, "%s%g", k > 0 ? ", " : "",
                            st->items[(st->head + k) % st->n_slots].value);
  if (st->len > 20)
    g_string_append (items, ", …");
  add (N_("length"), st->len, NULL, user_data);
  add (N_("entities"), st->len, items->str, user_data);
  add (N_("server"), st->server_free, st->server_free ? N_("free") : N_("busy"),
       user_data);
}

const QdBlockType qd_block_queue = {
  .id = "queue",
  .category = N_("Discrete"),
  .name = N_("Queue"),
  .glyph = "▥",
  .doc = N_("A first-in first-out queue in front of a Server. Entities "
            "arrive on in0; the server's ready output goes to in1. Whenever "
            "the server is free and an entity waits, the queue sends the "
            "head of the line to the server at once and then holds the "
            "next one until the server is ready again. Reports arrivals, "
            "drops, departures, mean_length (time average of the number "
            "waiting), max_length, mean_wait and throughput."),
  .inputs = { .count = 2, .name_prefix = "in",
              .doc = N_("in0: the arriving entities; in1 (ready): an event "
                        "from the server each time it becomes free.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The entity sent to the server.") },
  .params = queue_params,
  .n_params = G_N_ELEMENTS (queue_params),
  .state_size = sizeof (Queue),
  .init = queue_init,
  .ta = queue_ta,
  .dint = queue_dint,
  .dext = queue_dext,
  .lambda = queue_lambda,
  .exit = queue_exit,
  .describe_phase = queue_describe_phase,
  .describe_state = queue_describe_state,
};

/* -------------------------------------------------------------------- */
/* Server */

enum
{
  SERVER_DISTRIBUTION,
  SERVER_MEAN,
  SERVER_SEED,
};

enum
{
  SERVER_OUT,
  SERVER_READY,
};

typedef enum
{
  PHASE_ANNOUNCE,   /* idle, and says so once, at the start */
  PHASE_IDLE,
  PHASE_BUSY,
} Phase;

typedef struct
{
  GRand   *rand;
  Phase    phase;
  double   sigma;
  double   value;          /* the entity in service */
  guint32  tag;
  double   t0;
  double   busy_since;
  double   busy_time;      /* of the completed services */
  guint64  served;
  guint64  lost;
} Server;

static void
server_init (QdAtomic *self,
             double    t)
{
  Server *st = self->state;

  if (st->rand != NULL)
    g_rand_free (st->rand);
  st->rand = g_rand_new_with_seed ((guint32) self->params[SERVER_SEED].number);
  st->phase = PHASE_ANNOUNCE;
  st->sigma = 0.0;
  st->t0 = t;
  st->busy_time = 0.0;
  st->served = st->lost = 0;
}

static double
server_ta (QdAtomic *self)
{
  Server *st = self->state;

  return st->sigma;
}

static guint64
server_lambda (QdAtomic *self,
               double    t)
{
  Server *st = self->state;

  qd_signal_set_constant (&self->out[SERVER_READY], t, 1.0);
  if (st->phase != PHASE_BUSY)
    return 1 << SERVER_READY;
  qd_signal_set_constant (&self->out[SERVER_OUT], t, st->value);
  self->out[SERVER_OUT].tag = st->tag;
  return (1 << SERVER_OUT) | (1 << SERVER_READY);
}

static void
server_dint (QdAtomic *self,
             double    t)
{
  Server *st = self->state;

  if (st->phase == PHASE_BUSY)
    {
      st->busy_time += t - st->busy_since;
      st->served++;
    }
  st->phase = PHASE_IDLE;
  st->sigma = QD_INF;
}

static void
server_dext (QdAtomic       *self,
             double          t,
             double          e,
             guint           port,
             const QdSignal *x)
{
  Server *st = self->state;
  const QdParamValue *p = self->params;

  if (st->phase == PHASE_BUSY)
    {
      st->lost++;
      st->sigma = MAX (0.0, st->sigma - e);
      return;
    }
  /* An entity before the start announcement: the server is taken, and
   * says it is ready when this entity is done. */
  st->phase = PHASE_BUSY;
  st->value = qd_signal_eval (x, t);
  st->tag = x->tag;
  st->busy_since = t;
  st->sigma = draw_time (st->rand, (int) p[SERVER_DISTRIBUTION].number,
                         p[SERVER_MEAN].number);
}

static void
server_exit (QdAtomic *self,
             double    t)
{
  Server *st = self->state;
  double span = t - st->t0;
  double busy = st->busy_time;

  if (st->rand == NULL)
    return;
  if (st->phase == PHASE_BUSY)
    busy += t - st->busy_since;
  qd_atomic_set_stat (self, "served", (double) st->served);
  qd_atomic_set_stat (self, "lost", (double) st->lost);
  qd_atomic_set_stat (self, "utilisation", safe_ratio (busy, span));
  qd_atomic_set_stat (self, "throughput",
                      safe_ratio ((double) st->served, span));
  qd_atomic_set_stat (self, "mean_service",
                      safe_ratio (st->busy_time, (double) st->served));
  g_clear_pointer (&st->rand, g_rand_free);
}

static gboolean
server_check (const QdBlockType  *type,
              const QdParamValue *params,
              guint               n_inputs,
              guint               n_outputs,
              GError            **error)
{
  if (!(params[SERVER_MEAN].number > 0.0))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   _("parameter 'mean' must be greater than 0 (it is %g)"),
                   params[SERVER_MEAN].number);
      return FALSE;
    }
  return TRUE;
}

static const QdParamSpec server_params[] = {
  { "distribution", N_("Service times"), QD_PARAM_CHOICE, "exponential",
    -QD_INF, QD_INF, NULL,
    N_("deterministic: every service takes the mean time; exponential: "
       "service times are exponential with that mean."),
    distribution_choices, 0 },
  { "mean", N_("Mean service time"), QD_PARAM_NUMBER, "1", 0, QD_INF, "s",
    N_("The (mean) time one entity takes; must be greater than 0 (the "
       "service rate is 1/mean)."), NULL, 0 },
  { "seed", N_("Seed"), QD_PARAM_INTEGER, "2", 0, 4294967295.0, NULL,
    N_("The seed of the random generator: the same seed gives the same "
       "service times."), NULL, QD_PARAM_SEED },
};

/* For the debugger (qd-debug.h). */
static const char *
server_describe_phase (QdAtomic *self)
{
  Server *st = self->state;

  switch (st->phase)
    {
    case PHASE_ANNOUNCE:
      return N_("idle: announcing it is free");
    case PHASE_BUSY:
      return N_("busy: service ends at t + σ");
    default:
      return N_("idle: waiting for an entity");
    }
}

static void
server_describe_state (QdAtomic   *self,
                       double      t,
                       QdStateFunc add,
                       gpointer    user_data)
{
  Server *st = self->state;
  gboolean busy = st->phase == PHASE_BUSY;

  add (N_("server"), busy, busy ? N_("busy") : N_("idle"), user_data);
  if (busy)
    add (N_("entity in service"), st->value, NULL, user_data);
  add (N_("served"), st->served, NULL, user_data);
}

const QdBlockType qd_block_server = {
  .id = "server",
  .category = N_("Discrete"),
  .name = N_("Server"),
  .glyph = "⚙",
  .doc = N_("Serves one entity at a time, for a deterministic or "
            "exponential service time. Emits on y1 (ready) at the start "
            "time and each time it finishes an entity, which it emits on "
            "y0; wire y1 to the ready input of the Queue in front of it. "
            "An entity arriving while the server is busy is lost. Reports "
            "served, lost, utilisation (the fraction of the time busy), "
            "throughput and mean_service."),
  .inputs = { .count = 1, .name_prefix = "in",
              .doc = N_("The entity to serve.") },
  .outputs = { .count = 2, .name_prefix = "y",
               .doc = N_("y0: the served entities; y1 (ready): an event "
                         "each time the server becomes free.") },
  .params = server_params,
  .n_params = G_N_ELEMENTS (server_params),
  .state_size = sizeof (Server),
  .check = server_check,
  .init = server_init,
  .ta = server_ta,
  .dint = server_dint,
  .dext = server_dext,
  .lambda = server_lambda,
  .exit = server_exit,
  .describe_phase = server_describe_phase,
  .describe_state = server_describe_state,
};

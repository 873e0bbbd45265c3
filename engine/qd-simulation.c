/* qd-simulation.c: the DEVS event loop of a compiled diagram
 *
 * One event, at time t, of the imminent block i (the block with the
 * earliest next time; among equal times the lowest index, i.e. the highest
 * priority):
 *
 *   mask = lambda (i, t); dint (i, t); tl[i] = t; reschedule i;
 *   for each port p in mask, for each receiver (j, q) of output p, in
 *   receiver order:
 *     dext (j, t, t - tl[j], q, &out[p]); tl[j] = t; reschedule j.
 *
 * Scheduling. Next event times live in two structures:
 *
 *  - the time heap (qd-heap.h), an indexed 4-ary heap of (time, index)
 *    whose keys change in place; passive blocks (ta = QD_INF) are not in
 *    it;
 *  - the "now" queue: blocks whose next event is at the current event time
 *    (ta = 0 after a transition), a small binary min-heap of block indices.
 *
 * A zero-time cascade through static blocks (integrator -> WSum ->
 * integrator) is the common case; with the now queue it costs no main
 * heap operation: the static block goes from passive into the now queue
 * and back to passive. The imminent is the lower index of the now queue's
 * top and the heap's top when the heap's top is at the current time.
 *
 * Entries of the now queue are removed lazily: when a block in it is
 * rescheduled elsewhere, only where[i] changes, and the stale entry is
 * dropped when it reaches the top (in_now[i] says an entry exists, so a
 * block is never queued twice).
 *
 * Nothing here allocates once the simulation is initialized.
 *
 * Progress for other threads: the loop keeps its counters in locals and
 * publishes them (and the time, as its bit pattern) every 1024 events and
 * on return, with relaxed 64-bit atomic stores; readers use relaxed atomic
 * loads. The same check reads the stop flag.
 */
#include <glib/gi18n-lib.h>
#include <string.h>

#include "qd-simulation-private.h"

#define CHECK_INTERVAL 1024
#define MAX_LOOP_PATHS 10

/* -------------------------------------------------------------------- */
/* The now queue */

static inline void
now_push (QdSimulation *sim,
          guint32       i)
{
  guint32 *q = sim->now_queue;
  guint hole = sim->now_len++;

  while (hole > 0)
    {
      guint parent = (hole - 1) / 2;

      if (q[parent] < i)
        break;
      q[hole] = q[parent];
      hole = parent;
    }
  q[hole] = i;
}

static inline void
now_pop (QdSimulation *sim)
{
  guint32 *q = sim->now_queue;
  guint n = --sim->now_len;
  guint32 last = q[n];
  guint hole = 0;

  for (;;)
    {
      guint child = 2 * hole + 1;

      if (child >= n)
        break;
      if (child + 1 < n && q[child + 1] < q[child])
        child++;
      if (last < q[child])
        break;
      q[hole] = q[child];
      hole = child;
    }
  if (n > 0)
    q[hole] = last;
}

/* -------------------------------------------------------------------- */

static void
set_fail (QdSimulation *sim,
          QdErrorCode   code,
          const char   *format,
          ...) G_GNUC_PRINTF (3, 4);

static void
set_fail (QdSimulation *sim,
          QdErrorCode   code,
          const char   *format,
          ...)
{
  va_list args;

  if (sim->fail_error != NULL)
    return;
  va_start (args, format);
  sim->fail_error = g_error_new_valist (QD_ERROR, code, format, args);
  va_end (args);
}

/* Puts block @i, which just had a transition at @t, where its next event
 * belongs. */
static inline void
schedule (QdSimulation *sim,
          guint         i,
          double        t,
          double        ta)
{
  double tn = t + ta;

  if (G_UNLIKELY (!(ta >= 0)))
    {
      set_fail (sim, QD_ERROR_NUMERIC,
                _("%s: the time advance is %g at t = %g; it must be 0 or "
                  "more, check the parameters and the inputs of this block"),
                sim->atomics[i].path, ta, t);
      tn = QD_INF;
    }
  if (tn == t)
    {
      if (sim->where[i] == QD_SCHED_HEAP)
        qd_heap_remove (&sim->heap, i);
      sim->where[i] = QD_SCHED_NOW;
      if (!sim->in_now[i])
        {
          sim->in_now[i] = 1;
          now_push (sim, i);
        }
    }
  else if (tn == QD_INF)
    {
      if (sim->where[i] == QD_SCHED_HEAP)
        qd_heap_remove (&sim->heap, i);
      sim->where[i] = QD_SCHED_NONE;
    }
  else
    {
      qd_heap_update (&sim->heap, i, tn);
      sim->where[i] = QD_SCHED_HEAP;
    }
}

/* Drops stale entries from the top of the now queue. */
static inline void
now_clean (QdSimulation *sim)
{
  while (sim->now_len > 0)
    {
      guint32 top = sim->now_queue[0];

      if (sim->where[top] == QD_SCHED_NOW)
        break;
      sim->in_now[top] = 0;
      now_pop (sim);
    }
}

/* The imminent block and its time; FALSE when every block is passive.
 * *@from_now tells whether it is the now queue's top. */
static inline gboolean
imminent (QdSimulation *sim,
          double       *t,
          guint        *i,
          gboolean     *from_now)
{
  now_clean (sim);
  if (sim->now_len > 0)
    {
      guint32 a = sim->now_queue[0];

      if (!qd_heap_is_empty (&sim->heap)
          && qd_heap_top_time (&sim->heap) == sim->t_event
          && qd_heap_top_id (&sim->heap) < a)
        {
          *i = qd_heap_top_id (&sim->heap);
          *from_now = FALSE;
        }
      else
        {
          *i = a;
          *from_now = TRUE;
        }
      *t = sim->t_event;
      return TRUE;
    }
  if (qd_heap_is_empty (&sim->heap))
    return FALSE;
  *t = qd_heap_top_time (&sim->heap);
  *i = qd_heap_top_id (&sim->heap);
  *from_now = FALSE;
  return TRUE;
}

static void
publish (QdSimulation *sim)
{
  guint64 bits;

  memcpy (&bits, &sim->time, sizeof bits);
  __atomic_store_n (&sim->pub_time, bits, __ATOMIC_RELAXED);
  __atomic_store_n (&sim->pub_events, sim->events, __ATOMIC_RELAXED);
  __atomic_store_n (&sim->pub_transitions, sim->transitions, __ATOMIC_RELAXED);
  __atomic_store_n (&sim->pub_steps, sim->integrator_steps, __ATOMIC_RELAXED);
}

static int
compare_guint32 (gconstpointer a,
                 gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

static void
fail_illegitimate (QdSimulation *sim,
                   double        t)
{
  guint n = (guint) MIN (sim->illegitimacy_limit, (guint64) QD_RECENT_SIZE);
  guint32 blocks[QD_RECENT_SIZE];
  GString *names = g_string_new (NULL);
  guint shown = 0;

  /* The distinct blocks of the last transitions, in priority order. */
  for (guint k = 0; k < n; k++)
    blocks[k] = sim->recent[(sim->recent_pos - 1 - k) % QD_RECENT_SIZE];
  qsort (blocks, n, sizeof (guint32), compare_guint32);
  for (guint k = 0; k < n && shown < MAX_LOOP_PATHS; k++)
    {
      if (k > 0 && blocks[k] == blocks[k - 1])
        continue;
      if (shown++ > 0)
        g_string_append (names, ", ");
      g_string_append (names, sim->atomics[blocks[k]].path);
    }
  set_fail (sim, QD_ERROR_ILLEGITIMATE,
            _("illegitimate model: more than %" G_GUINT64_FORMAT
              " transitions at t = %g without time advancing, among %s; "
              "look for a zero-time loop, or raise the limit in the "
              "simulation settings"),
            sim->illegitimacy_limit, t, names->str);
  g_string_free (names, TRUE);
}

static void
fail_numeric (QdSimulation   *sim,
              guint           i,
              const QdSignal *sig,
              double          t)
{
  gboolean nan = FALSE;

  for (guint k = 0; k <= QD_MAX_ORDER; k++)
    nan |= isnan (sig->c[k]);
  if (nan)
    set_fail (sim, QD_ERROR_NUMERIC,
              _("%s: produced NaN at t = %g; check the parameters and the "
                "inputs of this block"), sim->atomics[i].path, t);
  else
    set_fail (sim, QD_ERROR_NUMERIC,
              _("%s: produced infinity at t = %g; check the parameters and "
                "the inputs of this block"), sim->atomics[i].path, t);
}

/* The loop: events with time < @t_limit, at most @max_events of them. */
static QdRunStatus
run_loop (QdSimulation *sim,
          double        t_limit,
          guint64       max_events,
          GError      **error)
{
  QdAtomic *atomics = sim->atomics;
  QdSignal *signals = sim->signals;
  const guint32 *out_base = sim->out_base;
  const guint32 *fan_start = sim->fan_start;
  const QdFanout *fanout = sim->fanout;
  double *tl = sim->tl;
  guint64 *n_internal = sim->n_internal;
  guint64 *n_external = sim->n_external;
  const guint8 *is_integrator = sim->is_integrator;
  /* Counters in locals: the blocks' functions, called through pointers,
   * could otherwise make the compiler reload and store them each time. */
  guint64 events = sim->events;
  guint64 transitions = sim->transitions;
  guint64 steps = sim->integrator_steps;
  guint64 done = 0;
  guint countdown = CHECK_INTERVAL;
  QdRunStatus status = QD_RUN_DONE;

  if (g_atomic_int_compare_and_exchange (&sim->stop_requested, 1, 0))
    return QD_RUN_STOPPED;

  for (;;)
    {
      double t;
      guint i;
      gboolean from_now;
      QdAtomic *a;
      const QdBlockType *type;
      guint64 mask;

      if (done >= max_events)
        {
          status = QD_RUN_STEPPED;
          break;
        }
      if (!imminent (sim, &t, &i, &from_now) || !(t < t_limit))
        break;

      if (t > sim->t_event)
        {
          sim->t_event = t;
          sim->time = t;
          sim->same_time = 0;
        }
      if (G_UNLIKELY (++sim->same_time > sim->illegitimacy_limit))
        {
          sim->same_time--;
          fail_illegitimate (sim, t);
          status = QD_RUN_ERROR;
          break;
        }
      sim->recent[sim->recent_pos++ % QD_RECENT_SIZE] = i;
      if (from_now)
        {
          sim->in_now[i] = 0;
          now_pop (sim);
        }

      /* Output, internal transition, and the fan-out. */
      a = &atomics[i];
      type = a->type;
      mask = type->lambda != NULL ? type->lambda (a, t) : 0;
      if (type->dint != NULL)
        type->dint (a, t);
      tl[i] = t;
      n_internal[i]++;
      events++;
      transitions++;
      steps += is_integrator[i];
      done++;
      schedule (sim, i, t, type->ta != NULL ? type->ta (a) : QD_INF);

      while (mask != 0)
        {
          guint p = (guint) __builtin_ctzll (mask);
          guint s = out_base[i] + p;
          const QdSignal *sig = &signals[s];

          mask &= mask - 1;
          if (G_UNLIKELY (p >= a->n_out))
            break;
          /* x - x is 0 for a finite x and NaN otherwise. */
          if (G_UNLIKELY ((sig->c[0] - sig->c[0]) + (sig->c[1] - sig->c[1])
                          + (sig->c[2] - sig->c[2]) + (sig->c[3] - sig->c[3])
                          != 0.0))
            {
              fail_numeric (sim, i, sig, t);
              break;
            }
          for (guint e = fan_start[s], end = fan_start[s + 1]; e < end; e++)
            {
              guint j = fanout[e].receiver;
              QdAtomic *b = &atomics[j];

              if (b->type->dext != NULL)
                b->type->dext (b, t, t - tl[j], fanout[e].port, sig);
              tl[j] = t;
              n_external[j]++;
              transitions++;
              schedule (sim, j, t, b->type->ta != NULL ? b->type->ta (b) : QD_INF);
            }
        }

      if (G_UNLIKELY (sim->fail_error != NULL))
        {
          status = QD_RUN_ERROR;
          break;
        }
      if (G_UNLIKELY (--countdown == 0))
        {
          countdown = CHECK_INTERVAL;
          sim->events = events;
          sim->transitions = transitions;
          sim->integrator_steps = steps;
          publish (sim);
          if (g_atomic_int_compare_and_exchange (&sim->stop_requested, 1, 0))
            {
              status = QD_RUN_STOPPED;
              break;
            }
        }
    }

  sim->events = events;
  sim->transitions = transitions;
  sim->integrator_steps = steps;
  if (status == QD_RUN_ERROR)
    {
      g_clear_error (&sim->error);
      sim->error = g_steal_pointer (&sim->fail_error);
      if (error != NULL)
        *error = g_error_copy (sim->error);
    }
  publish (sim);
  return status;
}

/* An earlier error ends every later run. */
static gboolean
check_sticky (QdSimulation  *self,
              GError       **error)
{
  if (self->error == NULL)
    return FALSE;
  if (error != NULL)
    *error = g_error_copy (self->error);
  return TRUE;
}

QdRunStatus
qd_simulation_run_until (QdSimulation  *self,
                         double         t_stop,
                         GError       **error)
{
  QdRunStatus status;

  g_return_val_if_fail (self != NULL, QD_RUN_ERROR);

  if (check_sticky (self, error))
    return QD_RUN_ERROR;
  if (self->finished)
    return QD_RUN_DONE;
  t_stop = MIN (t_stop, self->final_time);
  status = run_loop (self, t_stop, G_MAXUINT64, error);
  if (status == QD_RUN_DONE && t_stop > self->time)
    {
      self->time = t_stop;
      publish (self);
    }
  return status;
}

QdRunStatus
qd_simulation_step (QdSimulation  *self,
                    guint64        n_events,
                    GError       **error)
{
  g_return_val_if_fail (self != NULL, QD_RUN_ERROR);

  if (check_sticky (self, error))
    return QD_RUN_ERROR;
  if (self->finished)
    return QD_RUN_DONE;
  return run_loop (self, self->final_time, n_events, error);
}

/* A stopped run is not finished, so that it can be resumed. */
QdRunStatus
qd_simulation_run (QdSimulation  *self,
                   GError       **error)
{
  QdRunStatus status;

  g_return_val_if_fail (self != NULL, QD_RUN_ERROR);

  status = qd_simulation_run_until (self, self->final_time, error);
  if (status != QD_RUN_STOPPED)
    qd_simulation_finish (self);
  return status;
}

void
qd_simulation_finish (QdSimulation *self)
{
  g_return_if_fail (self != NULL);

  if (self->finished || !self->initialized)
    return;
  self->finished = TRUE;
  for (guint i = 0; i < self->n_atomics; i++)
    {
      QdAtomic *a = &self->atomics[i];

      if (a->type->exit != NULL)
        a->type->exit (a, self->time);
    }
  for (guint k = 0; k < self->traces->len; k++)
    {
      QdTrace *trace = g_ptr_array_index (self->traces, k);

      if (!qd_trace_is_closed (trace, NULL))
        qd_trace_close (trace, self->time);
    }
}

void
qd_simulation_request_stop (QdSimulation *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_int_set (&self->stop_requested, 1);
}

/* -------------------------------------------------------------------- */
/* Creation */

/* Runs every block's init, then schedules its first event. */
static gboolean
initialize (QdSimulation  *sim,
            GPtrArray     *problems,
            GError       **error)
{
  guint n = sim->n_atomics;
  double t0 = sim->start_time;

  sim->tl = g_new (double, MAX (n, 1));
  sim->where = g_new0 (guint8, MAX (n, 1));
  sim->in_now = g_new0 (guint8, MAX (n, 1));
  sim->now_queue = g_new (guint32, MAX (n, 1));
  sim->n_internal = g_new0 (guint64, MAX (n, 1));
  sim->n_external = g_new0 (guint64, MAX (n, 1));
  qd_heap_init (&sim->heap, n);
  sim->t_event = sim->time = t0;
  sim->initialized = TRUE;

  for (guint i = 0; i < n; i++)
    {
      QdAtomic *a = &sim->atomics[i];

      if (a->type->init != NULL)
        a->type->init (a, t0);
    }
  for (guint i = 0; i < n; i++)
    {
      QdAtomic *a = &sim->atomics[i];

      sim->tl[i] = t0;
      schedule (sim, i, t0, a->type->ta != NULL ? a->type->ta (a) : QD_INF);
    }
  publish (sim);

  if (sim->fail_error != NULL)
    {
      if (problems != NULL)
        g_ptr_array_add (problems,
                         qd_problem_new ((QdErrorCode) sim->fail_error->code,
                                         "", NULL, "%s",
                                         sim->fail_error->message));
      g_propagate_error (error, g_steal_pointer (&sim->fail_error));
      return FALSE;
    }
  return TRUE;
}

QdSimulation *
qd_simulation_new (QdDocument        *document,
                   const char *const *overrides,
                   GPtrArray         *problems,
                   GError           **error)
{
  QdSimulation *sim;

  g_return_val_if_fail (document != NULL, NULL);

  sim = qd_compile (document, overrides, problems, error);
  if (sim == NULL)
    return NULL;
  if (!initialize (sim, problems, error))
    {
      qd_simulation_free (sim);
      return NULL;
    }
  return sim;
}

gboolean
qd_document_check (QdDocument        *document,
                   const char *const *overrides,
                   GPtrArray         *problems)
{
  QdSimulation *sim = qd_compile (document, overrides, problems, NULL);

  if (sim == NULL)
    return FALSE;
  qd_simulation_free (sim);
  return TRUE;
}

void
qd_simulation_free (QdSimulation *self)
{
  if (self == NULL)
    return;
  qd_simulation_finish (self);

  g_free (self->atomics);
  g_free (self->is_integrator);
  g_free (self->signals);
  g_free (self->out_base);
  g_free (self->inputs);
  g_free (self->fan_start);
  g_free (self->fanout);
  if (self->arena != NULL)
    g_aligned_free (self->arena);
  g_free (self->param_values);
  if (self->strings != NULL)
    g_string_chunk_free (self->strings);
  if (self->allocs != NULL)
    g_ptr_array_unref (self->allocs);
  g_strfreev (self->block_ids);
  g_strfreev (self->variable_names);
  g_free (self->variable_values);
  if (self->traces != NULL)
    g_ptr_array_unref (self->traces);
  if (self->stats != NULL)
    g_ptr_array_unref (self->stats);
  g_free (self->tl);
  g_free (self->where);
  g_free (self->in_now);
  g_free (self->now_queue);
  qd_heap_clear (&self->heap);
  g_free (self->n_internal);
  g_free (self->n_external);
  g_clear_error (&self->fail_error);
  g_clear_error (&self->error);
  g_free (self);
}

/* -------------------------------------------------------------------- */
/* Getters */

double
qd_simulation_get_time (QdSimulation *self)
{
  guint64 bits = __atomic_load_n (&self->pub_time, __ATOMIC_RELAXED);
  double t;

  memcpy (&t, &bits, sizeof t);
  return t;
}

double
qd_simulation_get_next_time (QdSimulation *self)
{
  double t = QD_INF;

  for (guint k = 0; k < self->now_len; k++)
    if (self->where[self->now_queue[k]] == QD_SCHED_NOW)
      return self->t_event;
  if (!qd_heap_is_empty (&self->heap))
    t = qd_heap_top_time (&self->heap);
  return t;
}

double
qd_simulation_get_start_time (QdSimulation *self)
{
  return self->start_time;
}

double
qd_simulation_get_final_time (QdSimulation *self)
{
  return self->final_time;
}

guint64
qd_simulation_get_events (QdSimulation *self)
{
  return __atomic_load_n (&self->pub_events, __ATOMIC_RELAXED);
}

guint64
qd_simulation_get_transitions (QdSimulation *self)
{
  return __atomic_load_n (&self->pub_transitions, __ATOMIC_RELAXED);
}

guint64
qd_simulation_get_integrator_steps (QdSimulation *self)
{
  return __atomic_load_n (&self->pub_steps, __ATOMIC_RELAXED);
}

guint
qd_simulation_get_n_atomics (QdSimulation *self)
{
  return self->n_atomics;
}

const QdAtomic *
qd_simulation_get_atomic (QdSimulation *self,
                          guint         index)
{
  g_return_val_if_fail (index < self->n_atomics, NULL);
  return &self->atomics[index];
}

void
qd_simulation_get_block_stats (QdSimulation *self,
                               guint         index,
                               guint64      *n_internal,
                               guint64      *n_external)
{
  g_return_if_fail (index < self->n_atomics);
  if (n_internal != NULL)
    *n_internal = self->n_internal[index];
  if (n_external != NULL)
    *n_external = self->n_external[index];
}

GPtrArray *
qd_simulation_get_traces (QdSimulation *self)
{
  return self->traces;
}

double
qd_simulation_get_variable (QdSimulation *self,
                            const char   *name)
{
  g_return_val_if_fail (name != NULL, NAN);

  for (guint i = 0; i < self->n_variables; i++)
    if (strcmp (self->variable_names[i], name) == 0)
      return self->variable_values[i];
  return NAN;
}

/* -------------------------------------------------------------------- */
/* Services for the blocks (qd-block-type.h) */

gpointer
qd_atomic_alloc (QdAtomic *self,
                 gsize     size)
{
  gpointer mem = g_malloc0 (MAX (size, 1));

  g_ptr_array_add (self->sim->allocs, mem);
  return mem;
}

QdTrace *
qd_atomic_add_trace (QdAtomic   *self,
                     const char *name)
{
  g_autofree char *full = g_strconcat (self->path, "/", name, NULL);
  QdTrace *trace = qd_trace_new (full);

  g_ptr_array_add (self->sim->traces, trace);
  return trace;
}

void
qd_atomic_fail (QdAtomic    *self,
                QdErrorCode  code,
                const char  *format,
                ...)
{
  va_list args;
  char *message;

  va_start (args, format);
  message = g_strdup_vprintf (format, args);
  va_end (args);
  set_fail (self->sim, code, "%s: %s", self->path, message);
  g_free (message);
}

double
qd_atomic_get_start_time (QdAtomic *self)
{
  return self->sim->start_time;
}

double
qd_atomic_get_final_time (QdAtomic *self)
{
  return self->sim->final_time;
}

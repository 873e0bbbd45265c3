/* qd-simulation-run.c: running a simulation from outside the loop
 *
 * The public run calls (qd_simulation_run() and its kin) and the
 * services of the classic solver's driver, on top of the event loop
 * (qd_simulation_run_loop(), qd-simulation.c); the getters and
 * statistics of a simulation; the services for the blocks
 * (qd-block-type.h); and what the loop calls out of line to report:
 * the messages of a failed run and the event log's entries.
 */
#include <inttypes.h>
#include <glib/gi18n-lib.h>
#include <string.h>

#include "qd-classic-private.h"
#include "qd-classic-rhs-private.h"
#include "qd-simulation-private.h"
#include "qd-compile-vector.h"

#define MAX_LOOP_PATHS 10

void
qd_simulation_set_fail (QdSimulation *sim,
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

static int
compare_guint32 (gconstpointer a,
                 gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

G_NO_INLINE void
qd_simulation_fail_illegitimate (QdSimulation *sim,
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
  if (sim->lost_block != QD_NO_BLOCK && sim->lost_t >= sim->t_anchor)
    {
      /* Not a zero-time loop of the model: a positive time advance was
       * lost in rounding (t + ta = t), so the events pile up at t, or was
       * below the guard's tick (see t_anchor). Either the clock is too
       * coarse for the run (far from time 0, its resolution is a fair
       * part of the run's length), or the time advances shrank towards
       * zero (a solution that blows up in finite time, events that
       * accumulate, a tiny sample period): the advice differs. */
      double resolution = MAX (nextafter (fabs (t), QD_INF) - fabs (t),
                               sim->tick);
      const char *path = sim->atomics[sim->lost_block].path;

      if (resolution * 1e6 >= sim->final_time - sim->start_time)
        qd_simulation_set_fail (sim, QD_ERROR_ILLEGITIMATE,
                                _("%s: its time advance %g is lost in "
                                  "rounding at t = %g, where the clock's "
                                  "resolution is %g, so time cannot "
                                  "advance (more than %" PRIu64
                                  " transitions at that time, among %s); "
                                  "start the simulation nearer time 0, end "
                                  "it earlier, or raise the quanta of this "
                                  "block"),
                                path, sim->lost_ta, t, resolution,
                                sim->illegitimacy_limit, names->str);
      else if (t == sim->t_anchor)
        qd_simulation_set_fail (sim, QD_ERROR_ILLEGITIMATE,
                                _("%s: its time advance has shrunk to %g at "
                                  "t = %g, below the clock's resolution "
                                  "there (%g), so time cannot advance (more "
                                  "than %" PRIu64 " transitions at that "
                                  "time, among %s); the model may have a "
                                  "solution that grows without bound near "
                                  "this time, or events that accumulate: "
                                  "check its equations and parameters"),
                                path, sim->lost_ta, t, resolution,
                                sim->illegitimacy_limit, names->str);
      else
        /* The clock moved, by less than it can resolve at the final
         * time: no run to there could be made of such advances. */
        qd_simulation_set_fail (sim, QD_ERROR_ILLEGITIMATE,
                                _("%s: its time advance has shrunk to %g at "
                                  "t = %g, below the clock's resolution "
                                  "over the run (%g), so the run cannot "
                                  "reach its final time (more than %"
                                  PRIu64 " transitions since t = %g, among "
                                  "%s); the model may have a solution that "
                                  "grows without bound near this time, or "
                                  "events that accumulate (a sample period "
                                  "or a delay that short): check its "
                                  "equations and parameters"),
                                path, sim->lost_ta, t, resolution,
                                sim->illegitimacy_limit, sim->t_anchor,
                                names->str);
    }
  else
    qd_simulation_set_fail (sim, QD_ERROR_ILLEGITIMATE,
                            _("illegitimate model: more than %" PRIu64
                              " transitions at t = %g without time "
                              "advancing, among %s; look for a zero-time "
                              "loop, or raise the limit in the simulation "
                              "settings"),
                            sim->illegitimacy_limit, t, names->str);
  g_string_free (names, TRUE);
}

G_NO_INLINE void
qd_simulation_fail_numeric (QdSimulation   *sim,
                            guint           i,
                            const QdSignal *sig,
                            double          t)
{
  gboolean nan = FALSE;
  /* A native vector block's element by its own path (/x[3]). */
  g_autofree char *element = qd_vector_native_element_path (sim, i, sig);
  const char *path = element != NULL ? element : sim->atomics[i].path;

  for (guint k = 0; k <= QD_MAX_ORDER; k++)
    nan |= isnan (sig->c[k]);
  if (nan)
    qd_simulation_set_fail (sim, QD_ERROR_NUMERIC,
                            _("%s: produced NaN at t = %g; check the "
                              "parameters and the inputs of this block"),
                            path, t);
  else
    qd_simulation_set_fail (sim, QD_ERROR_NUMERIC,
                            _("%s: produced infinity at t = %g; check the "
                              "parameters and the inputs of this block"),
                            path, t);
}

/* The event log's entries (qd-event-log.h). Out of line: only the loop
 * compiled for a log (run_loop_logged()) calls them. */

/* @sig with its origin at @t: itself when it starts there (so that a
 * segment that is not finite keeps its infinities, which 0 · inf would
 * make NaN), else re-expanded into @tmp. */
static const QdSignal *
segment_at (const QdSignal *sig,
            double          t,
            QdSignal       *tmp)
{
  if (sig->t == t)
    return sig;
  qd_signal_advance (sig, t, tmp);
  return tmp;
}

/* A transition of block @i at @t (with the segment that caused it, for
 * an external one) and its time advance @ta after it. */
G_NO_INLINE void
qd_simulation_log_transition (QdSimulation   *sim,
                              QdLogKind       kind,
                              guint64         event,
                              guint           i,
                              double          t,
                              guint           port,
                              const QdSignal *sig,
                              double          ta)
{
  QdLogEntry entry = { kind, event, t, i, port, NAN, ta, NULL };
  QdSignal at_t;

  /* Taken off during the run (by the log's own function, on the thread
   * that runs the loop): the loop goes on until its next check. */
  if (sim->log_func == NULL)
    return;
  entry.elapsed = t - sim->log_tl[i];
  if (sig != NULL)
    entry.segment = segment_at (sig, t, &at_t);
  sim->log_tl[i] = t;
  sim->log_func (&entry, sim->log_data);
}

/* Internal event @event of block @i at @t: its outputs @mask, each with
 * its segment, then its internal transition, after which its time advance
 * is @ta. */
G_NO_INLINE void
qd_simulation_log_event (QdSimulation *sim,
                         guint64       event,
                         guint         i,
                         double        t,
                         guint64       mask,
                         double        ta)
{
  const QdHot *h = &sim->hot[i];

  while (mask != 0)
    {
      guint p = (guint) __builtin_ctzll (mask);
      const QdSignal *sig = &sim->signals[h->out_base + p];
      QdLogEntry entry = { QD_LOG_OUTPUT, event, t, i, p, NAN, NAN, NULL };
      QdSignal at_t;

      mask &= mask - 1;
      if (p >= h->n_out || sim->log_func == NULL)
        break;
      entry.segment = segment_at (sig, t, &at_t);
      sim->log_func (&entry, sim->log_data);
    }
  qd_simulation_log_transition (sim, QD_LOG_INTERNAL, event, i, t, 0, NULL,
                                ta);
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
  if (self->classic != NULL)
    status = qd_classic_run (self->classic, t_stop, G_MAXUINT64, error);
  else
    status = qd_simulation_run_loop (self, t_stop, G_MAXUINT64, error);
  if (status == QD_RUN_DONE && t_stop > self->time)
    {
      self->time = t_stop;
      qd_simulation_publish (self);
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
  /* Under a classic solver, @n_events steps of the solver. */
  if (self->classic != NULL)
    return qd_classic_run (self->classic, self->final_time, n_events, error);
  return qd_simulation_run_loop (self, self->final_time, n_events, error);
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

/* The services of the classic solver's driver (qd-classic-private.h). */
QdRunStatus
qd_simulation_run_events (QdSimulation *sim,
                          double        t_limit,
                          GError      **error)
{
  return qd_simulation_run_loop (sim, t_limit, G_MAXUINT64, error);
}

void
qd_simulation_schedule_at (QdSimulation *sim,
                           guint         i,
                           double        tn)
{
  QdHot *h = &sim->hot[i];

  if (tn < QD_INF)
    {
      qd_heap_update (&sim->heap, i, tn);
      h->where = QD_SCHED_HEAP;
    }
  else
    {
      if (h->where == QD_SCHED_HEAP)
        qd_heap_remove (&sim->heap, i);
      h->where = QD_SCHED_NONE;
    }
}

void
qd_simulation_fail (QdSimulation *sim,
                    GError       *error)
{
  g_clear_error (&sim->fail_error);
  g_clear_error (&sim->error);
  sim->error = error;
  qd_simulation_publish (sim);
}

/* The clock at @t as the loop moves it to an event there (with the
 * illegitimacy guard's window), for transitions made outside the loop
 * (qd-classic-rhs.c). */
void
qd_simulation_direct_clock (QdSimulation *sim,
                            double        t)
{
  if (!(t > sim->t_event))
    return;
  if (t >= sim->t_reset)
    {
      sim->same_time = 0;
      sim->t_anchor = t;
      sim->t_reset = t + sim->tick;
    }
  sim->t_event = t;
  sim->t_event_key = qd_heap_key (t);
  sim->time = t;
}

/* Transitions made outside the loop, added to its totals (the blocks'
 * own counts are the classic driver's, qd_classic_add_block_stats()). */
void
qd_simulation_direct_count (QdSimulation *sim,
                            guint64       events,
                            guint64       transitions,
                            guint64       steps)
{
  sim->events += events;
  sim->transitions += transitions;
  sim->integrator_steps += steps;
}

/* Whether a block failed outside the loop (qd_atomic_fail()): the run
 * then ends with its error, as the loop would end it. */
QdRunStatus
qd_simulation_direct_status (QdSimulation  *sim,
                             GError       **error)
{
  if (G_LIKELY (sim->fail_error == NULL))
    return QD_RUN_DONE;
  g_clear_error (&sim->error);
  sim->error = g_steal_pointer (&sim->fail_error);
  if (error != NULL)
    *error = g_error_copy (sim->error);
  qd_simulation_publish (sim);
  return QD_RUN_ERROR;
}

gboolean
qd_simulation_get_classic_stats (QdSimulation   *self,
                                 QdClassicStats *stats)
{
  g_return_val_if_fail (self != NULL && stats != NULL, FALSE);

  if (self->classic == NULL)
    return FALSE;
  qd_classic_get_stats (self->classic, stats);
  return TRUE;
}

void
qd_simulation_request_stop (QdSimulation *self)
{
  g_return_if_fail (self != NULL);
  g_atomic_int_set (&self->stop_requested, 1);
}

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
    if (self->hot[self->now_queue[k]].where == QD_SCHED_NOW)
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

/* The block whose output drives input @port of block @j, or
 * QD_NO_RECEIVER (unconnected); by its segment's place in signals. */
static guint
driver_of (QdSimulation *sim,
           guint         j,
           guint         port)
{
  /* As integers: an unconnected input's segment is not in the array. */
  guintptr sig = (guintptr) sim->atomics[j].in[port];
  guintptr first = (guintptr) sim->signals;
  guint s, lo = 0, hi = sim->n_atomics;

  if (sig < first || sig >= first + sim->n_signals * sizeof (QdSignal))
    return QD_NO_RECEIVER;
  s = (guint) ((sig - first) / sizeof (QdSignal));
  /* The last block whose outputs start at or before s. */
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (sim->out_base[mid] <= s)
        lo = mid;
      else
        hi = mid;
    }
  return lo;
}

/* The transitions of block @index that cascade kernels left to
 * QdHot.kernel_runs (run_kernel()): a static block's own runs, each an
 * external and an internal transition, and, for a receiver of such
 * blocks, one external transition per run of each. */
static void
kernel_transitions (QdSimulation *sim,
                    guint         index,
                    guint64      *internal,
                    guint64      *external)
{
  const QdHot *h = &sim->hot[index];

  *internal = *external = 0;
  if (h->is_static)
    {
      *internal = *external = h->kernel_runs;
      return;
    }
  for (guint p = 0; p < sim->atomics[index].n_in; p++)
    {
      guint w = driver_of (sim, index, p);

      if (w != QD_NO_RECEIVER && sim->hot[w].is_static
          && sim->hot[w].sole_receiver == index
          && sim->hot[w].sole_port == p)
        *external += sim->hot[w].kernel_runs;
    }
}

void
qd_simulation_get_block_stats (QdSimulation *self,
                               guint         index,
                               guint64      *n_internal,
                               guint64      *n_external)
{
  const QdHot *h;
  guint64 internal, external;

  g_return_if_fail (index < self->n_atomics);
  h = &self->hot[index];
  kernel_transitions (self, index, &internal, &external);
  qd_simulation_chain_stats (self, index, &internal, &external);
  if (self->classic != NULL)
    qd_classic_add_block_stats (self->classic, index, &internal, &external);
  if (n_internal != NULL)
    *n_internal = ((guint64) self->n_internal_hi[index] << 32
                   | h->n_internal) + internal;
  if (n_external != NULL)
    *n_external = ((guint64) self->n_external_hi[index] << 32
                   | h->n_external) + external;
}

GPtrArray *
qd_simulation_get_traces (QdSimulation *self)
{
  return self->traces;
}

void
qd_simulation_set_event_log (QdSimulation *self,
                             QdLogFunc     func,
                             gpointer      user_data)
{
  g_return_if_fail (self != NULL);
  /* Attached before the first event, so that every elapsed time it
   * reports is right; taken off at any time. */
  g_return_if_fail (func == NULL || self->events == 0);

  self->log_func = func;
  self->log_data = user_data;
  g_clear_pointer (&self->log_tl, g_free);
  if (func == NULL)
    return;
  self->log_tl = g_new (double, MAX (self->n_atomics, 1));
  for (guint i = 0; i < self->n_atomics; i++)
    self->log_tl[i] = self->start_time;
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

gpointer
qd_atomic_get_shared (QdAtomic       *self,
                      const char     *key,
                      gpointer      (*create) (QdAtomic *self),
                      GDestroyNotify  destroy)
{
  gpointer data = g_datalist_get_data (&self->sim->shared, key);

  if (data == NULL && (data = create (self)) != NULL)
    g_datalist_set_data_full (&self->sim->shared, key, data, destroy);
  return data;
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
  if (self->sim->fail_error == NULL)
    self->sim->fail_atomic = self;
  qd_simulation_set_fail (self->sim, code, "%s: %s", self->path, message);
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

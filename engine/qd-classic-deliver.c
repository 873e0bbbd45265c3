/* qd-classic-deliver.c: a classic solver's steps delivered without the
 * event loop
 *
 * Each accepted step's Hermite segments are the Integrators' outputs;
 * through the event loop they cost a heap operation per Integrator and a
 * zero-time cascade through every block they reach. When those blocks
 * are only static functions, Integrators' derivatives and sinks (nothing
 * that could make an event of its own out of them),
 * qd_classic_rhs_deliver() writes the segments, runs each static block's
 * lambda once in dependency order and gives the sinks their external
 * transitions, counting the transitions as the loop does. (The loop,
 * which takes blocks by priority, may run a static block twice in one
 * cascade, its first output on an input not yet updated; the counts of
 * transitions then differ, the segments do not.) A static block whose
 * output reaches no sink (only derivatives, which f computes) runs only
 * when the run returns (qd_classic_rhs_refresh()), so that whoever looks
 * at its output then finds the last step's. With an event log, every
 * static block runs at each delivery, and the delivery reports the
 * transitions it counts (log_delivery()): a run with a log is the run
 * without one.
 */
#include "qd-classic-rhs-program.h"

/* Whether block @j, a receiver of the Integrators' outputs through
 * static blocks, lets the delivery do without the loop: an Integrator's
 * derivative, a static block of one output or a sink. */
static gboolean
direct_receiver (QdSimulation *sim,
                 guint         j,
                 guint         port)
{
  const QdHot *h = &sim->hot[j];

  if (h->is_integrator)
    return port == 0;           /* not a reset */
  if (h->is_static)
    return sim->atomics[j].n_out == 1;
  return sim->atomics[j].n_out == 0;
}

/* The static blocks the Integrators reach, in dependency order (Kahn's:
 * @indeg counts each one's links from the Integrators and from each
 * other), into self->emit; the sinks' links into self->sinks. */
static void
order_direct (QdClassicRhs *self,
              guint        *indeg,
              guint        *queue)
{
  QdSimulation *sim = self->sim;
  GArray *sinks = g_array_new (FALSE, FALSE, sizeof (guint32));
  guint head = 0, tail = 0;

  for (guint k = 0; k < self->n; k++)
    queue[tail++] = self->states[k];
  while (head < tail)
    {
      guint i = queue[head++];

      if (!sim->hot[i].is_integrator)
        self->emit[self->n_emit++] = i;
      self->d_internal[i] = 1;
      for (guint s = sim->out_base[i]; s < sim->out_base[i + 1]; s++)
        for (guint e = sim->fan_start[s]; e < sim->fan_start[s + 1]; e++)
          {
            guint j = sim->fanout[e].receiver;
            guint32 link[2] = { e, s };

            self->d_external[j]++;
            self->d_transitions++;
            if (sim->hot[j].is_static)
              {
                if (--indeg[j] == 0)
                  queue[tail++] = j;
              }
            else if (!sim->hot[j].is_integrator)
              g_array_append_vals (sinks, link, 2);
          }
    }
  self->d_transitions += tail;
  self->n_sinks = sinks->len / 2;
  self->sinks = (guint32 *) g_array_free (sinks, FALSE);
}

/* Puts first, keeping their order, the static blocks whose outputs
 * reach a sink (through others): each delivery runs them; the others
 * only feed derivatives, which f computes, and run when their outputs
 * may be looked at (qd_classic_rhs_refresh()). @mark is scratch space,
 * one byte per block. */
static void
sort_needed (QdClassicRhs *self,
             guint8       *mark)
{
  QdSimulation *sim = self->sim;
  g_autofree guint32 *rest = g_new (guint32, MAX (self->n_emit, 1));
  guint n_rest = 0;

  memset (mark, 0, sim->n_atomics);
  for (guint r = self->n_emit; r-- > 0;)
    {
      guint i = self->emit[r];

      for (guint s = sim->out_base[i]; s < sim->out_base[i + 1]; s++)
        for (guint e = sim->fan_start[s]; e < sim->fan_start[s + 1]; e++)
          {
            guint j = sim->fanout[e].receiver;

            if (mark[j] || (!sim->hot[j].is_static && !sim->hot[j].is_integrator))
              mark[i] = 1;
          }
    }
  for (guint r = 0; r < self->n_emit; r++)
    {
      guint i = self->emit[r];

      if (mark[i])
        self->emit[self->n_needed++] = i;
      else
        rest[n_rest++] = i;
    }
  memcpy (self->emit + self->n_needed, rest, n_rest * sizeof (guint32));
}

static gboolean
find_direct (QdClassicRhs *self)
{
  QdSimulation *sim = self->sim;
  guint n = sim->n_atomics;
  g_autofree guint8 *seen = g_new0 (guint8, MAX (n, 1));
  g_autofree guint *indeg = g_new0 (guint, MAX (n, 1));
  g_autofree guint *queue = g_new (guint, MAX (n, 1));
  guint head = 0, tail = 0, n_static = 0;

  for (guint k = 0; k < self->n; k++)
    {
      seen[self->states[k]] = 1;
      queue[tail++] = self->states[k];
    }
  while (head < tail)
    {
      guint i = queue[head++];

      for (guint s = sim->out_base[i]; s < sim->out_base[i + 1]; s++)
        for (guint e = sim->fan_start[s]; e < sim->fan_start[s + 1]; e++)
          {
            guint j = sim->fanout[e].receiver;

            if (!direct_receiver (sim, j, sim->fanout[e].port))
              return FALSE;
            if (!sim->hot[j].is_static)
              continue;
            indeg[j]++;
            if (!seen[j])
              {
                seen[j] = 1;
                queue[tail++] = j;
                n_static++;
              }
          }
    }
  self->emit = g_new (guint32, MAX (n_static, 1));
  self->d_internal = g_new0 (guint8, MAX (n, 1));
  self->d_external = g_new0 (guint32, MAX (n, 1));
  order_direct (self, indeg, queue);
  sort_needed (self, seen);
  return TRUE;
}

gboolean
qd_classic_rhs_can_deliver (QdClassicRhs *self,
                            gboolean      allowed)
{
  if (self->direct < 0)
    self->direct = find_direct (self);
  return allowed && self->direct;
}

/* The delivery at @t to the event log, as the events it counts: each
 * Integrator's output and internal transition, then each static block's
 * in the order they ran, each followed by the external transitions of its
 * receivers (static blocks: due now; sinks: their time advance;
 * Integrators: their derivative, which the solver reads, and no event of
 * their own). Numbered after the events before it. */
static void
log_delivery (QdClassicRhs *self,
              double        t)
{
  QdSimulation *sim = self->sim;
  guint64 event = sim->events;

  for (guint r = 0; r < self->n + self->n_emit && sim->log_func != NULL; r++)
    {
      guint i = r < self->n ? self->states[r] : self->emit[r - self->n];
      guint n_out = sim->out_base[i + 1] - sim->out_base[i];

      qd_simulation_log_event (sim, ++event, i, t,
                               (G_GUINT64_CONSTANT (1) << n_out) - 1, QD_INF);
      for (guint s = sim->out_base[i]; s < sim->out_base[i + 1]; s++)
        for (guint e = sim->fan_start[s]; e < sim->fan_start[s + 1]; e++)
          {
            guint j = sim->fanout[e].receiver, port = sim->fanout[e].port;
            double ta = sim->hot[j].is_static ? 0.0
                        : sim->hot[j].is_integrator ? QD_INF
                        : self->sink_ta[e];

            qd_simulation_log_transition (sim, QD_LOG_EXTERNAL, event, j, t,
                                          port, &sim->signals[s], ta);
          }
    }
}

gboolean
qd_classic_rhs_deliver (QdClassicRhs   *self,
                        double          t,
                        const QdSignal *segs)
{
  QdSimulation *sim = self->sim;
  gboolean logged = sim->log_func != NULL;
  /* With a log every static block runs, so that each reported output is
   * the one it gives. */
  guint n_run = logged ? self->n_emit : self->n_needed;

  /* Every output first, so that no transition has happened when one is
   * not finite: the loop then makes them again and reports it. */
  for (guint k = 0; k < self->n; k++)
    qd_signal_advance (&segs[k], t,
                       &sim->signals[sim->out_base[self->states[k]]]);
  for (guint r = 0; r < n_run; r++)
    {
      guint i = self->emit[r];
      const double *c = sim->signals[sim->out_base[i]].c;

      /* Those that only feed derivatives are not looked at here, with a
       * log or without: a value of theirs that is not finite is the
       * right-hand side's to report. */
      if (sim->hot[i].lambda (&sim->atomics[i], t) != 1
          || (r < self->n_needed
              && !(isfinite (c[0]) && isfinite (c[1]) && isfinite (c[2])
                   && isfinite (c[3]))))
        return FALSE;
    }

  qd_simulation_direct_clock (sim, t);
  if (logged && self->sink_ta == NULL)
    self->sink_ta = g_new (double, MAX (sim->fan_start[sim->n_signals], 1));
  for (guint k = 0; k < self->n_sinks; k++)
    {
      guint e = self->sinks[2 * k];
      double ta = qd_simulation_direct_external (sim, sim->fanout[e].receiver,
                                                 sim->fanout[e].port,
                                                 &sim->signals[self->sinks[2 * k + 1]],
                                                 t);

      if (logged)
        self->sink_ta[e] = ta;
    }
  if (G_UNLIKELY (logged))
    log_delivery (self, t);
  /* The blocks' counts are added when asked for
   * (qd_classic_rhs_add_block_stats()), and the outputs that only feed
   * derivatives computed when they may be looked at. */
  self->stale = n_run < self->n_emit;
  self->t_delivered = t;
  self->n_delivered++;
  qd_simulation_direct_count (sim, self->n + self->n_emit,
                              self->d_transitions, self->n);
  return TRUE;
}

void
qd_classic_rhs_refresh (QdClassicRhs *self)
{
  QdSimulation *sim = self->sim;

  if (!self->stale)
    return;
  self->stale = FALSE;
  for (guint r = self->n_needed; r < self->n_emit; r++)
    {
      guint i = self->emit[r];

      sim->hot[i].lambda (&sim->atomics[i], self->t_delivered);
    }
}

void
qd_classic_rhs_add_block_stats (QdClassicRhs *self,
                                guint         i,
                                guint64      *internal,
                                guint64      *external)
{
  if (self->direct <= 0)
    return;
  *internal += self->n_delivered * self->d_internal[i];
  *external += self->n_delivered * self->d_external[i];
}

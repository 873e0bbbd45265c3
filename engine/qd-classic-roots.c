/* qd-classic-roots.c: the crossings of hybrid blocks as root functions of
 * a classic ODE solver
 *
 * A block with a discrete mode that a level crossing ends (a Cross
 * Detect, a Switch, a Comparator, a Hysteresis, a Saturation..., or a
 * Math block watching its input's zero: Abs, Division...) gives
 * through its fast paths (qd-block-fast-private.h) the levels its current
 * mode watches and the watched signal. Each level becomes a root
 * function g = w(t, y) - level of the solver (CVodeRootInit,
 * ARKStepRootInit), evaluated through the blocks' own functions, as the
 * right-hand side is: the Integrators' outputs set to y, the
 * direct-feedthrough blocks between them and the block in dependency
 * order, then the block's watched signal. The solver locates a sign
 * change to its root tolerance (about 100 ulps of t) and returns there;
 * the block's own internal transition is then scheduled at that time
 * with the level as its crossing, so it changes mode through its usual
 * code (the level snapped, the side taken from the slope), and when that
 * reaches an Integrator the solver restarts there (qd-classic.c).
 *
 * The block's own search of its input polynomial (the step's cubic
 * Hermite segment) is then overridden: what the solver found in the step
 * is the block's next event, or nothing. A root function needs its
 * value at any trial (t, y), so a block is watched this way only when
 * everything upstream of it, up to the Integrators, is a static block or
 * a block with a frozen output (whose outputs are functions of their
 * inputs), and the blocks upstream not driven by an Integrator (sources)
 * are times the solver stops at, so that their segments hold through
 * each step. Any other block with a crossing (a Lua block, one fed
 * through a delay, a sampler or an Abs) keeps the interpolant path: it
 * finds its crossings on the step's Hermite segment, as under QSS, and
 * the step is cut there; that path carries the segment's own error
 * (h^4) besides the solver's, which is why it is only the fallback, for
 * blocks whose crossing no root function can compute. The root
 * functions' count is fixed for the run; when a
 * block's mode changes its levels anywhere but at a root the solver has
 * just returned (where the solver re-evaluates its functions), the
 * solver is restarted so that its memory of their signs is not stale.
 */
#include <math.h>
#include <string.h>

#include "qd-classic-roots.h"
#include "qd-block-fast-private.h"

struct _QdClassicRoots
{
  QdSimulation *sim;
  guint         n_states;
  const guint  *block;       /* per state: its Integrator */
  guint        *watch;       /* the blocks whose crossings are roots */
  guint         n_watch;
  guint        *chain;       /* the blocks between the Integrators and
                                them, in dependency order */
  guint         n_chain;
  double       *levels;      /* per watched block: QD_MAX_CROSSINGS */
  guint8       *n_levels;
  int          *found;       /* per function: the solver's root info */
  double        t_found;     /* where the solver returned roots, or NaN */
  guint64       n_evals;     /* calls of qd_classic_roots_eval() */
};

static gboolean
has_crossings (const QdAtomic *a)
{
  const QdBlockFastPaths *fast = a->type->fast;

  return fast != NULL && fast->crossing_levels != NULL
         && fast->crossing_signal != NULL && fast->cross_at != NULL;
}

/* A block whose output the root functions can compute from its inputs at
 * any instant. */
static gboolean
is_function (QdSimulation *sim,
             guint         i)
{
  const QdBlockType *type = sim->atomics[i].type;

  return (type->flags & QD_BLOCK_FEEDTHROUGH) != 0
         && (sim->hot[i].is_static || type->frozen_output != NULL);
}

/* Per block: its senders (CSR, @start has n + 1 entries). */
static guint *
senders (QdSimulation  *sim,
         guint        **start)
{
  guint n = sim->n_atomics;
  guint *count = g_new0 (guint, n + 1);
  guint *list;

  for (guint i = 0; i < n; i++)
    for (guint s = sim->out_base[i]; s < sim->out_base[i + 1]; s++)
      for (guint e = sim->fan_start[s]; e < sim->fan_start[s + 1]; e++)
        count[sim->fanout[e].receiver + 1]++;
  for (guint i = 0; i < n; i++)
    count[i + 1] += count[i];
  list = g_new (guint, MAX (count[n], 1));
  {
    g_autofree guint *fill = g_memdup2 (count, (n + 1) * sizeof (guint));

    for (guint i = 0; i < n; i++)
      for (guint s = sim->out_base[i]; s < sim->out_base[i + 1]; s++)
        for (guint e = sim->fan_start[s]; e < sim->fan_start[s + 1]; e++)
          list[fill[sim->fanout[e].receiver]++] = i;
  }
  *start = count;
  return list;
}

/* Whether block @w can be watched: everything upstream of it up to the
 * Integrators is a function of its inputs or not driven by an
 * Integrator. Marks what it visits in @seen (with @mark) and lists it
 * in @visited. */
static gboolean
upstream_ok (QdSimulation  *sim,
             guint          w,
             const guint   *start,
             const guint   *from,
             const guint8  *derived,
             const gint    *state_of,
             guint         *seen,
             guint          mark,
             guint         *stack,
             GArray        *visited)
{
  guint top = 0;

  g_array_set_size (visited, 0);
  stack[top++] = w;
  seen[w] = mark;
  while (top > 0)
    {
      guint i = stack[--top];

      for (guint e = start[i]; e < start[i + 1]; e++)
        {
          guint j = from[e];

          if (seen[j] == mark || state_of[j] >= 0)
            continue;
          if (derived[j] && !is_function (sim, j))
            return FALSE;
          seen[j] = mark;
          stack[top++] = j;
          g_array_append_val (visited, j);
        }
    }
  return TRUE;
}

/* The blocks driven by an Integrator, through any blocks. */
static guint8 *
find_derived (QdSimulation *sim,
              guint         n_states,
              const guint  *block,
              const gint   *state_of)
{
  guint n = sim->n_atomics;
  guint8 *derived = g_new0 (guint8, MAX (n, 1));
  g_autofree guint *stack = g_new (guint, MAX (n, 1) + n_states);
  guint top = 0;

  for (guint k = 0; k < n_states; k++)
    stack[top++] = block[k];
  while (top > 0)
    {
      guint i = stack[--top];

      for (guint s = sim->out_base[i]; s < sim->out_base[i + 1]; s++)
        for (guint e = sim->fan_start[s]; e < sim->fan_start[s + 1]; e++)
          {
            guint j = sim->fanout[e].receiver;

            if (!derived[j] && state_of[j] < 0)
              {
                derived[j] = 1;
                stack[top++] = j;
              }
          }
    }
  return derived;
}

/* The chain: the derived blocks upstream of the watched ones (@upstream
 * set), in dependency order (Kahn's; the compiler refused algebraic
 * loops). */
static void
order_chain (QdClassicRoots *self,
             const guint8   *upstream)
{
  self->chain = g_new (guint, MAX (self->sim->n_atomics, 1));
  self->n_chain = qd_classic_order_blocks (self->sim, upstream, self->chain);
}

QdClassicRoots *
qd_classic_roots_new (QdSimulation *sim,
                      guint         n_states,
                      const guint  *block,
                      const gint   *state_of,
                      guint8       *stops)
{
  guint n = sim->n_atomics;
  g_autofree guint8 *derived = find_derived (sim, n_states, block, state_of);
  g_autofree guint *start = NULL;
  g_autofree guint *from = senders (sim, &start);
  g_autofree guint *seen = g_new0 (guint, MAX (n, 1));
  g_autofree guint *stack = g_new (guint, MAX (n, 1));
  g_autofree guint8 *upstream = g_new0 (guint8, MAX (n, 1));
  g_autoptr(GArray) visited = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *watch = g_array_new (FALSE, FALSE, sizeof (guint));
  QdClassicRoots *self;

  for (guint i = 0; i < n; i++)
    {
      if (!derived[i] || sim->hot[i].is_static
          || !has_crossings (&sim->atomics[i])
          || !upstream_ok (sim, i, start, from, derived, state_of, seen,
                           i + 1, stack, visited))
        continue;
      g_array_append_val (watch, i);
      for (guint v = 0; v < visited->len; v++)
        {
          guint j = g_array_index (visited, guint, v);

          if (derived[j])
            upstream[j] = 1;
          else
            stops[j] = 1;
        }
    }
  if (watch->len == 0)
    {
      g_array_free (watch, TRUE);
      return NULL;
    }
  self = g_new0 (QdClassicRoots, 1);
  self->sim = sim;
  self->n_states = n_states;
  self->block = block;
  self->n_watch = watch->len;
  self->watch = (guint *) g_array_free (watch, FALSE);
  self->levels = g_new0 (double, self->n_watch * QD_MAX_CROSSINGS);
  self->n_levels = g_new0 (guint8, self->n_watch);
  self->found = g_new0 (int, self->n_watch * QD_MAX_CROSSINGS);
  self->t_found = NAN;
  order_chain (self, upstream);
  return self;
}

void
qd_classic_roots_free (QdClassicRoots *self)
{
  if (self == NULL)
    return;
  g_free (self->watch);
  g_free (self->chain);
  g_free (self->levels);
  g_free (self->n_levels);
  g_free (self->found);
  g_free (self);
}

guint
qd_classic_roots_count (QdClassicRoots *self)
{
  return self->n_watch * QD_MAX_CROSSINGS;
}

void
qd_classic_roots_eval (QdClassicRoots *self,
                       double          t,
                       const double   *y,
                       double         *g)
{
  QdSimulation *sim = self->sim;

  self->n_evals++;
  for (guint k = 0; k < self->n_states; k++)
    qd_signal_set_constant (&sim->signals[sim->out_base[self->block[k]]],
                            t, y[k]);
  for (guint c = 0; c < self->n_chain; c++)
    {
      guint i = self->chain[c];
      QdAtomic *a = &sim->atomics[i];

      if (sim->hot[i].is_static)
        sim->hot[i].lambda (a, t);
      else
        a->type->frozen_output (a, t);
    }
  for (guint w = 0; w < self->n_watch; w++)
    {
      QdAtomic *a = &sim->atomics[self->watch[w]];
      double v = a->type->fast->crossing_signal (a, t);
      const double *level = &self->levels[w * QD_MAX_CROSSINGS];
      double *out = &g[w * QD_MAX_CROSSINGS];

      /* A slot the mode does not use is never a root. */
      for (guint j = 0; j < QD_MAX_CROSSINGS; j++)
        out[j] = j < self->n_levels[w] ? v - level[j] : 1.0;
    }
}

int *
qd_classic_roots_info (QdClassicRoots *self)
{
  return self->found;
}

void
qd_classic_roots_found (QdClassicRoots *self,
                        double          t)
{
  self->t_found = t;
}

guint64
qd_classic_roots_get_evals (QdClassicRoots *self)
{
  return self != NULL ? self->n_evals : 0;
}

gboolean
qd_classic_roots_at_root (QdClassicRoots *self,
                          double          t)
{
  return self != NULL && t == self->t_found;
}

void
qd_classic_roots_schedule (QdClassicRoots *self)
{
  QdSimulation *sim = self->sim;

  for (guint w = 0; w < self->n_watch; w++)
    {
      guint i = self->watch[w];
      QdAtomic *a = &sim->atomics[i];
      double t = QD_INF, level = 0.0;

      if (!isnan (self->t_found))
        for (guint j = 0; j < self->n_levels[w]; j++)
          if (self->found[w * QD_MAX_CROSSINGS + j] != 0)
            {
              t = self->t_found;
              level = self->levels[w * QD_MAX_CROSSINGS + j];
              break;
            }
      /* At the very time the solver returned, not tl + (t - tl). */
      if (a->type->fast->cross_at (a, t, t - sim->hot[i].tl, level))
        qd_simulation_schedule_at (sim, i, t);
    }
}

gboolean
qd_classic_roots_refresh (QdClassicRoots *self,
                          double          t)
{
  QdSimulation *sim = self->sim;
  gboolean changed = FALSE;

  for (guint w = 0; w < self->n_watch; w++)
    {
      QdAtomic *a = &sim->atomics[self->watch[w]];
      double level[QD_MAX_CROSSINGS] = { 0 };
      guint n = a->type->fast->crossing_levels (a, t, level);

      n = MIN (n, QD_MAX_CROSSINGS);
      if (n != self->n_levels[w]
          || memcmp (level, &self->levels[w * QD_MAX_CROSSINGS],
                     n * sizeof (double)) != 0)
        {
          changed = TRUE;
          self->n_levels[w] = (guint8) n;
          memcpy (&self->levels[w * QD_MAX_CROSSINGS], level,
                  n * sizeof (double));
        }
    }
  return changed;
}

/* The path of the watched block whose crossing function lies nearest to
 * 0 at (@t, @y), or NULL without one: where the solver finds a root again
 * at once, the block that switches back and forth. */
const char *
qd_classic_roots_nearest (QdClassicRoots *self,
                          double          t,
                          const double   *y)
{
  guint n = self->n_watch * QD_MAX_CROSSINGS, best = G_MAXUINT;
  g_autofree double *g = g_new (double, MAX (n, 1));

  if (self->n_watch == 0)
    return NULL;
  qd_classic_roots_eval (self, t, y, g);
  for (guint r = 0; r < n; r++)
    if (best == G_MAXUINT || fabs (g[r]) < fabs (g[best]))
      best = r;
  return self->sim->atomics[self->watch[best / QD_MAX_CROSSINGS]].path;
}


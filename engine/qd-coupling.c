/* qd-coupling.c: which Integrators depend on each other through static
 * blocks (qd_atomic_get_coupled(), qd-block-type.h)
 *
 * Integrator k reaches integrator i when a path of links leads from k's
 * output to i's input 0 (its derivative) through blocks that pass their
 * inputs on at once (QD_BLOCK_FEEDTHROUGH) and are not integrators
 * themselves: then a change of k's q changes i's derivative in the same
 * zero-time cascade. Two integrators that reach each other are coupled.
 * Methods that work on pairs of states (mLIQSS) ask for the list; it is
 * built the first time one asks, so that models whose methods never ask
 * pay nothing.
 *
 * An integrator that reaches more than QD_COUPLED_MAX others (a sum of
 * all the states fed back to all of them) is given no partners: pairs
 * mean nothing among so many, and the lists would grow with the square
 * of the model; its walk stops as soon as it finds one too many.
 */
#include "qd-simulation-private.h"

#define QD_COUPLED_MAX 64

static inline gboolean
passes_on (const QdAtomic *a)
{
  QdBlockFlags flags = a->type->flags;

  return (flags & QD_BLOCK_FEEDTHROUGH) && !(flags & QD_BLOCK_INTEGRATOR);
}

/* Appends to @found the integrators that @from reaches (qd-coupling.c's
 * header), each once; @stamp marks the blocks visited in this walk by
 * the value @mark. Appends none when there are more than
 * QD_COUPLED_MAX. */
static void
walk_reached (QdSimulation *sim,
              guint         from,
              GArray       *found,
              guint32      *stamp,
              guint32       mark,
              GArray       *stack)
{
  guint first = found->len;

  g_array_set_size (stack, 0);
  g_array_append_val (stack, from);
  stamp[from] = mark;
  while (stack->len > 0)
    {
      guint b = g_array_index (stack, guint, stack->len - 1);

      g_array_set_size (stack, stack->len - 1);
      for (guint32 s = sim->out_base[b]; s < sim->out_base[b + 1]; s++)
        for (guint32 f = sim->fan_start[s]; f < sim->fan_start[s + 1]; f++)
          {
            guint r = sim->fanout[f].receiver;

            if (sim->is_integrator[r])
              {
                /* Input 0 is the derivative; the others reset x. */
                if (sim->fanout[f].port == 0 && r != from
                    && stamp[r] != mark)
                  {
                    stamp[r] = mark;
                    g_array_append_val (found, r);
                    if (found->len - first > QD_COUPLED_MAX)
                      {
                        g_array_set_size (found, first);
                        return;
                      }
                  }
              }
            else if (stamp[r] != mark && passes_on (&sim->atomics[r]))
              {
                stamp[r] = mark;
                g_array_append_val (stack, r);
              }
          }
    }
}

static gboolean
reaches (const guint32 *start,
         const guint32 *reached,
         guint          k,
         guint          i)
{
  for (guint32 m = start[k]; m < start[k + 1]; m++)
    if (reached[m] == i)
      return TRUE;
  return FALSE;
}

static void
build_coupling (QdSimulation *sim)
{
  guint n = sim->n_atomics;
  g_autofree guint32 *stamp = g_new0 (guint32, n);
  g_autofree guint32 *start = g_new0 (guint32, n + 1);
  g_autoptr (GArray) reached = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GArray) stack = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr (GPtrArray) coupled = g_ptr_array_new ();
  guint32 *cstart = g_new0 (guint32, n + 1);

  for (guint i = 0; i < n; i++)
    {
      start[i] = reached->len;
      if (sim->is_integrator[i])
        walk_reached (sim, i, reached, stamp, i + 1, stack);
    }
  start[n] = reached->len;
  for (guint i = 0; i < n; i++)
    {
      cstart[i] = coupled->len;
      for (guint32 m = start[i]; m < start[i + 1]; m++)
        {
          guint k = g_array_index (reached, guint, m);

          if (reaches (start, (const guint32 *) reached->data, k, i))
            g_ptr_array_add (coupled, &sim->atomics[k]);
        }
    }
  cstart[n] = coupled->len;
  sim->coupled_start = cstart;
  sim->coupled = (QdAtomic **) g_ptr_array_free (g_steal_pointer (&coupled),
                                                 FALSE);
}

QdAtomic *const *
qd_atomic_get_coupled (const QdAtomic *self,
                       guint          *n)
{
  QdSimulation *sim = self->sim;
  guint i = self->index;

  if (sim->coupled_start == NULL)
    build_coupling (sim);
  *n = sim->coupled_start[i + 1] - sim->coupled_start[i];
  return sim->coupled + sim->coupled_start[i];
}

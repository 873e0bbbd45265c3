/* qd-compile-loops.c: algebraic loops in a compiled document
 *
 * Step 5 of the compiler (qd-compile.c): once the flat model is wired,
 * the loops of direct-feedthrough blocks, each reported once with its
 * blocks.
 */
#include <glib/gi18n-lib.h>

#include "qd-compile-private.h"

/* -------------------------------------------------------------------- */
/* Algebraic loops: Tarjan's SCC, iterative (chains of static blocks can be
 * long), over the feedthrough blocks with the fan-out arrays as edges. */

typedef struct
{
  guint v;
  guint edge;   /* next fan-out entry to visit */
  guint edge_end;
  guint port;   /* next output port */
} Frame;

static int
compare_guint (gconstpointer a,
               gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

#define FEEDTHROUGH(sim, i) \
  (((sim)->atomics[i].type->flags & QD_BLOCK_FEEDTHROUGH) != 0)
#define UNVISITED G_MAXUINT

/* The search's state: Tarjan's numbering, its stack of blocks, and the
 * loops found, their blocks one after the other (loops) and where each
 * begins (loop_starts). */
typedef struct
{
  const QdSimulation *sim;
  guint              *index;
  guint              *low;
  gboolean           *on_stack;
  guint              *stack;
  guint               sp;
  guint               counter;
  GArray             *loops;
  GArray             *loop_starts;
} Search;

/* Whether block @v drives one of its own inputs. */
static gboolean
drives_itself (const QdSimulation *sim,
               guint               v)
{
  for (guint p = 0; p < sim->atomics[v].n_out; p++)
    {
      guint s = sim->out_base[v] + p;

      for (guint e = sim->fan_start[s]; e < sim->fan_start[s + 1]; e++)
        if (sim->fanout[e].receiver == v)
          return TRUE;
    }
  return FALSE;
}

/* @v, a component's root, is done: its component off the stack, kept as a
 * loop when it has several blocks or one that drives itself. */
static void
pop_component (Search *search,
               guint   v)
{
  GArray *loops = search->loops;
  guint first = loops->len, size = 0;

  do
    {
      guint w = search->stack[--search->sp];

      search->on_stack[w] = FALSE;
      g_array_append_val (loops, w);
      size++;
    }
  while (loops->len > 0 && g_array_index (loops, guint, loops->len - 1) != v);

  if (size > 1 || drives_itself (search->sim, v))
    g_array_append_val (search->loop_starts, first);
  else
    g_array_set_size (loops, first);
}

/* Numbers @v and puts it on the stack and in @frame. */
static void
visit (Search *search,
       guint   v,
       Frame  *frame)
{
  search->index[v] = search->low[v] = search->counter++;
  search->stack[search->sp++] = v;
  search->on_stack[v] = TRUE;
  *frame = (Frame) { v, 0, 0, 0 };
}

/* The next feedthrough block that @f's block drives and the search has not
 * seen, or UNVISITED when it has none left; lowers its low link on the
 * way by the blocks on the stack that it drives. */
static guint
next_unvisited (Search *search,
                Frame  *f)
{
  const QdSimulation *sim = search->sim;
  guint v = f->v;

  for (;;)
    {
      guint w;

      if (f->edge >= f->edge_end)
        {
          guint s;

          if (f->port >= sim->atomics[v].n_out)
            return UNVISITED;
          s = sim->out_base[v] + f->port++;
          f->edge = sim->fan_start[s];
          f->edge_end = sim->fan_start[s + 1];
          continue;
        }
      w = sim->fanout[f->edge++].receiver;
      if (!FEEDTHROUGH (sim, w))
        continue;
      if (search->index[w] == UNVISITED)
        return w;
      if (search->on_stack[w])
        search->low[v] = MIN (search->low[v], search->index[w]);
    }
}

/* The components reached from @root, depth first without recursion. */
static void
search_from (Search *search,
             guint   root,
             Frame  *frames)
{
  guint depth = 0;

  visit (search, root, &frames[depth++]);
  while (depth > 0)
    {
      Frame *f = &frames[depth - 1];
      guint v = f->v, w = next_unvisited (search, f);

      if (w != UNVISITED)
        {
          visit (search, w, &frames[depth++]);
          continue;
        }
      if (search->low[v] == search->index[v])
        pop_component (search, v);
      depth--;
      if (depth > 0)
        {
          guint parent = frames[depth - 1].v;

          search->low[parent] = MIN (search->low[parent], search->low[v]);
        }
    }
}

/* One problem per loop of @loops, the blocks in priority order; loops in
 * the order of their first block. */
static void
report_loops (Compiler *c,
              Node    **atomic_nodes,
              GArray   *loops,
              GArray   *loop_starts)
{
  QdSimulation *sim = c->sim;
  guint n_loops = loop_starts->len;
  g_autofree guint *order = g_new (guint, MAX (n_loops, 1));

#define LOOP_END(k) \
  ((k) + 1 < n_loops ? g_array_index (loop_starts, guint, (k) + 1) : loops->len)
  for (guint k = 0; k < n_loops; k++)
    {
      guint start = g_array_index (loop_starts, guint, k);

      qsort (&g_array_index (loops, guint, start), LOOP_END (k) - start,
             sizeof (guint), compare_guint);
      order[k] = k;
    }
  /* Sort the loops by their smallest member (insertion sort: few). */
  for (guint a = 1; a < n_loops; a++)
    for (guint b = a; b > 0; b--)
      {
        guint sa = g_array_index (loops, guint,
                                  g_array_index (loop_starts, guint, order[b]));
        guint sb = g_array_index (loops, guint,
                                  g_array_index (loop_starts, guint, order[b - 1]));
        guint tmp;

        if (sa >= sb)
          break;
        tmp = order[b];
        order[b] = order[b - 1];
        order[b - 1] = tmp;
      }
  for (guint k = 0; k < n_loops; k++)
    {
      guint j = order[k];
      guint start = g_array_index (loop_starts, guint, j), end = LOOP_END (j);
      GString *names = g_string_new (NULL);
      Node *first = atomic_nodes[g_array_index (loops, guint, start)];

      for (guint m = start; m < end; m++)
        {
          if (m > start)
            g_string_append (names, ", ");
          g_string_append (names,
                           sim->atomics[g_array_index (loops, guint, m)].path);
        }
      /* A model problem (empty path, since it is about several blocks)
       * that still carries the first block's id for selection. */
      g_ptr_array_add (c->problems,
                       qd_problem_new (QD_ERROR_ALGEBRAIC_LOOP, "",
                                       qd_atomic_block_id (&sim->atomics[first->atomic]),
                                       _("algebraic loop through %s: break "
                                         "it with an integrator or a delay"),
                                       names->str));
      g_string_free (names, TRUE);
    }
#undef LOOP_END
}

void
qd_compile_find_algebraic_loops (Compiler *c,
                                 Node    **atomic_nodes)
{
  QdSimulation *sim = c->sim;
  guint n = sim->n_atomics;
  g_autofree guint *index = g_new (guint, n);
  g_autofree guint *low = g_new (guint, n);
  g_autofree gboolean *on_stack = g_new0 (gboolean, n);
  g_autofree guint *stack = g_new (guint, n);
  g_autofree Frame *frames = g_new (Frame, n);
  Search search = {
    .sim = sim, .index = index, .low = low, .on_stack = on_stack,
    .stack = stack,
    .loops = g_array_new (FALSE, FALSE, sizeof (guint)),
    .loop_starts = g_array_new (FALSE, FALSE, sizeof (guint)),
  };

  for (guint i = 0; i < n; i++)
    index[i] = UNVISITED;
  for (guint root = 0; root < n; root++)
    if (FEEDTHROUGH (sim, root) && index[root] == UNVISITED)
      search_from (&search, root, frames);
  report_loops (c, atomic_nodes, search.loops, search.loop_starts);
  g_array_unref (search.loops);
  g_array_unref (search.loop_starts);
}

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
  GArray *loops = g_array_new (FALSE, FALSE, sizeof (guint)); /* flattened */
  GArray *loop_starts = g_array_new (FALSE, FALSE, sizeof (guint));
  guint counter = 0, sp = 0;

#define FEEDTHROUGH(i) ((sim->atomics[i].type->flags & QD_BLOCK_FEEDTHROUGH) != 0)
#define UNVISITED G_MAXUINT

  for (guint i = 0; i < n; i++)
    index[i] = UNVISITED;

  for (guint root = 0; root < n; root++)
    {
      guint depth = 0;

      if (!FEEDTHROUGH (root) || index[root] != UNVISITED)
        continue;
      frames[depth++] = (Frame) { root, 0, 0, 0 };
      index[root] = low[root] = counter++;
      stack[sp++] = root;
      on_stack[root] = TRUE;

      while (depth > 0)
        {
          Frame *f = &frames[depth - 1];
          guint v = f->v;
          gboolean pushed = FALSE;

          for (;;)
            {
              if (f->edge >= f->edge_end)
                {
                  guint s;

                  if (f->port >= sim->atomics[v].n_out)
                    break;
                  s = sim->out_base[v] + f->port++;
                  f->edge = sim->fan_start[s];
                  f->edge_end = sim->fan_start[s + 1];
                  continue;
                }
              {
                guint w = sim->fanout[f->edge++].receiver;

                if (!FEEDTHROUGH (w))
                  continue;
                if (index[w] == UNVISITED)
                  {
                    index[w] = low[w] = counter++;
                    stack[sp++] = w;
                    on_stack[w] = TRUE;
                    frames[depth++] = (Frame) { w, 0, 0, 0 };
                    pushed = TRUE;
                    break;
                  }
                if (on_stack[w])
                  low[v] = MIN (low[v], index[w]);
              }
            }
          if (pushed)
            continue;

          /* v is done. */
          if (low[v] == index[v])
            {
              guint first = loops->len;
              guint size = 0;
              gboolean self_loop = FALSE;

              do
                {
                  guint w = stack[--sp];

                  on_stack[w] = FALSE;
                  g_array_append_val (loops, w);
                  size++;
                }
              while (loops->len > 0
                     && g_array_index (loops, guint, loops->len - 1) != v);

              if (size == 1)
                for (guint p = 0; p < sim->atomics[v].n_out && !self_loop; p++)
                  {
                    guint s = sim->out_base[v] + p;

                    for (guint e = sim->fan_start[s]; e < sim->fan_start[s + 1]; e++)
                      if (sim->fanout[e].receiver == v)
                        self_loop = TRUE;
                  }
              if (size > 1 || self_loop)
                g_array_append_val (loop_starts, first);
              else
                g_array_set_size (loops, first);
            }
          depth--;
          if (depth > 0)
            {
              guint parent = frames[depth - 1].v;

              low[parent] = MIN (low[parent], low[v]);
            }
        }
    }

  /* One problem per loop, the blocks in priority order; loops in the order
   * of their first block. */
  {
    guint n_loops = loop_starts->len;
    g_autofree guint *order = g_new (guint, MAX (n_loops, 1));

    for (guint k = 0; k < n_loops; k++)
      {
        guint start = g_array_index (loop_starts, guint, k);
        guint end = k + 1 < n_loops ? g_array_index (loop_starts, guint, k + 1)
                                    : loops->len;

        qsort (&g_array_index (loops, guint, start), end - start,
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
        guint start = g_array_index (loop_starts, guint, j);
        guint end = j + 1 < n_loops ? g_array_index (loop_starts, guint, j + 1)
                                    : loops->len;
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
  }
  g_array_unref (loops);
  g_array_unref (loop_starts);
#undef FEEDTHROUGH
#undef UNVISITED
}


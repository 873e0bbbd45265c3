/* test-run-memory.c: all the runs an editor keeps share one trace budget
 *
 * Runs of two traces of 16 384 segments each (about 1.5 MiB a run) under
 * a budget of 4 MiB, no display: the earlier runs may hold half of it,
 * so the third run decimates the two before it, oldest first, and later
 * runs drop the oldest; the runs together never pass the budget, and a
 * decimated trace still ends with its exact last events.
 */
#include <math.h>

#include "qd-run-memory.h"
#include "qd-test-util.h"

#define LIMIT      ((gsize) 4 << 20)
#define N_SEGMENTS 16384

typedef struct
{
  GHashTable *traces;      /* QdTraceBudget* -> GPtrArray of the run */
  guint       n_decimated;
  guint       n_dropped;
  gsize       peak;        /* the most all runs held at once */
} Fixture;

static void
on_decimated (QdRunMemory   *memory,
              QdTraceBudget *budget,
              Fixture       *f)
{
  f->n_decimated++;
}

static void
on_dropped (QdRunMemory   *memory,
            QdTraceBudget *budget,
            Fixture       *f)
{
  /* As a plot does: lets go of the run's traces. */
  g_assert_true (g_hash_table_remove (f->traces, budget));
  f->n_dropped++;
}

/* One run: two traces, written and closed, as a simulation does. */
static void
run (QdRunMemory *memory,
     Fixture     *f,
     guint        number)
{
  GPtrArray *traces = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_trace_unref);

  for (guint k = 0; k < 2; k++)
    {
      g_autofree char *name = g_strdup_printf ("/Scope/x%u (run %u)", k + 1, number);

      g_ptr_array_add (traces, qd_trace_new (name));
    }
  qd_run_memory_begin_run (memory, traces);
  for (guint k = 0; k < traces->len; k++)
    {
      QdTrace *trace = g_ptr_array_index (traces, k);

      for (guint i = 0; i < N_SEGMENTS; i++)
        {
          QdSignal s = { .t = i, .c = { (double) i * (k + 1), k + 1.0 }, .order = 1 };

          qd_trace_append (trace, &s);
          if (i % 1024 == 0)
            f->peak = MAX (f->peak, qd_run_memory_get_used (memory));
        }
      qd_trace_close (trace, N_SEGMENTS);
    }
  f->peak = MAX (f->peak, qd_run_memory_get_used (memory));
  g_test_message ("run %u: %u runs kept, %" G_GSIZE_FORMAT " bytes in all; "
                  "%u decimated, %u dropped so far", number,
                  qd_run_memory_get_n_runs (memory), qd_run_memory_get_used (memory),
                  f->n_decimated, f->n_dropped);
  if (qd_run_memory_get_n_runs (memory) == 0)
    {
      /* No limit: nothing kept count of. */
      g_ptr_array_unref (traces);
      return;
    }
  g_hash_table_insert (f->traces, qd_run_memory_get_budget (memory,
                                                            qd_run_memory_get_n_runs (memory) - 1),
                       traces);
}

static void
test_share (void)
{
  g_autoptr(QdRunMemory) memory = qd_run_memory_new ();
  Fixture f = { 0 };
  gsize one_run;

  f.traces = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) g_ptr_array_unref);
  g_signal_connect (memory, "decimated", G_CALLBACK (on_decimated), &f);
  g_signal_connect (memory, "dropped", G_CALLBACK (on_dropped), &f);
  qd_run_memory_set_limit (memory, LIMIT);

  /* Two runs fit: the first is kept exact (it holds less than half). */
  run (memory, &f, 1);
  one_run = qd_run_memory_get_used (memory);
  g_assert_cmpuint (one_run, >, LIMIT / 3);
  g_assert_cmpuint (one_run, <, LIMIT / 2);
  run (memory, &f, 2);
  g_assert_cmpuint (qd_run_memory_get_n_runs (memory), ==, 2);
  g_assert_cmpint (qd_run_memory_get_state (memory, 0), ==, QD_RUN_MEMORY_EXACT);
  g_assert_cmpuint (f.n_decimated, ==, 0);
  /* The second run's own budget is what the first left. */
  g_assert_cmpuint (qd_trace_budget_get_limit (qd_run_memory_get_budget (memory, 1)), ==,
                    LIMIT - one_run);

  /* The third: the two earlier hold more than half; the oldest is
   * decimated first, then the next. */
  run (memory, &f, 3);
  g_assert_cmpuint (qd_run_memory_get_n_runs (memory), ==, 3);
  g_assert_cmpint (qd_run_memory_get_state (memory, 0), ==, QD_RUN_MEMORY_DECIMATED);
  g_assert_cmpint (qd_run_memory_get_state (memory, 1), ==, QD_RUN_MEMORY_DECIMATED);
  g_assert_cmpint (qd_run_memory_get_state (memory, 2), ==, QD_RUN_MEMORY_EXACT);
  g_assert_cmpuint (f.n_decimated, ==, 2);
  g_assert_cmpuint (f.n_dropped, ==, 0);
  {
    GPtrArray *first = g_hash_table_lookup (f.traces, qd_run_memory_get_budget (memory, 0));
    QdTrace *trace = g_ptr_array_index (first, 1);
    double from, to;

    /* Decimated: its start is history, its newest events exact. */
    g_assert_true (qd_trace_get_dropped (trace, &from, &to));
    g_assert_cmpfloat (from, ==, 0);
    g_assert_cmpfloat (to, >, 0);
    g_assert_cmpfloat (to, <, N_SEGMENTS);
    g_assert_cmpfloat (qd_trace_eval (trace, N_SEGMENTS - 0.5), ==,
                       2.0 * (N_SEGMENTS - 1) + 2.0 * 0.5);
    g_assert_cmpuint (qd_trace_get_bytes (trace), <, one_run / 4);
  }

  /* More runs: once every earlier run is decimated and they still hold
   * more than half, the oldest are dropped. */
  for (guint n = 4; n <= 8; n++)
    run (memory, &f, n);
  g_assert_cmpuint (f.n_dropped, >, 0);
  g_assert_cmpuint (qd_run_memory_get_n_runs (memory) + f.n_dropped, ==, 8);
  g_assert_cmpuint (g_hash_table_size (f.traces), ==, qd_run_memory_get_n_runs (memory));
  for (guint i = 0; i + 1 < qd_run_memory_get_n_runs (memory); i++)
    g_assert_cmpint (qd_run_memory_get_state (memory, i), ==, QD_RUN_MEMORY_DECIMATED);
  /* All runs together, at every moment, within the budget. */
  g_assert_cmpuint (f.peak, <=, LIMIT);

  /* No limit: nothing is shared or decimated any more. */
  qd_run_memory_set_limit (memory, 0);
  run (memory, &f, 9);
  g_assert_cmpuint (qd_run_memory_get_n_runs (memory), ==, 0);

  g_hash_table_unref (f.traces);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/run-memory/share", test_share);
  return g_test_run ();
}

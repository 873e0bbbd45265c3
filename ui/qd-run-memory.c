/* qd-run-memory.c: one trace memory budget for all the runs an editor keeps */
#include "qd-run-memory.h"

typedef struct
{
  QdTraceBudget    *budget;
  QdRunMemoryState  state;
} Run;

struct _QdRunMemory
{
  GObject    parent_instance;

  gsize      limit;
  GPtrArray *runs;          /* Run*, oldest first */
};

enum
{
  SIGNAL_DECIMATED,
  SIGNAL_DROPPED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (QdRunMemory, qd_run_memory, G_TYPE_OBJECT)

static void
run_free (gpointer data)
{
  Run *run = data;

  qd_trace_budget_unref (run->budget);
  g_free (run);
}

static void
qd_run_memory_finalize (GObject *object)
{
  QdRunMemory *self = QD_RUN_MEMORY (object);

  g_ptr_array_unref (self->runs);
  G_OBJECT_CLASS (qd_run_memory_parent_class)->finalize (object);
}

static void
qd_run_memory_class_init (QdRunMemoryClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = qd_run_memory_finalize;

  /* A run's traces were decimated; the argument is its QdTraceBudget. */
  signals[SIGNAL_DECIMATED] =
    g_signal_new ("decimated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
  /* A run is dropped: let go of the traces under this QdTraceBudget. */
  signals[SIGNAL_DROPPED] =
    g_signal_new ("dropped", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_POINTER);
}

static void
qd_run_memory_init (QdRunMemory *self)
{
  self->runs = g_ptr_array_new_with_free_func (run_free);
}

QdRunMemory *
qd_run_memory_new (void)
{
  return g_object_new (QD_TYPE_RUN_MEMORY, NULL);
}

void
qd_run_memory_set_limit (QdRunMemory *self,
                         gsize        limit_bytes)
{
  g_return_if_fail (QD_IS_RUN_MEMORY (self));

  self->limit = limit_bytes;
}

gsize
qd_run_memory_get_limit (QdRunMemory *self)
{
  g_return_val_if_fail (QD_IS_RUN_MEMORY (self), 0);

  return self->limit;
}

gsize
qd_run_memory_get_used (QdRunMemory *self)
{
  gsize used = 0;

  g_return_val_if_fail (QD_IS_RUN_MEMORY (self), 0);

  for (guint i = 0; i < self->runs->len; i++)
    used += qd_trace_budget_get_used (((Run *) g_ptr_array_index (self->runs, i))->budget);
  return used;
}

/* Brings the earlier runs within @room bytes: decimates the oldest exact
 * one at a time, then drops the oldest. */
static void
make_room (QdRunMemory *self,
           gsize        room)
{
  /* Runs whose traces all went (their plots were cleared) hold nothing
   * and show nothing: forgotten. */
  for (guint i = self->runs->len; i > 0; i--)
    if (qd_trace_budget_get_used (((Run *) g_ptr_array_index (self->runs, i - 1))->budget) == 0)
      g_ptr_array_remove_index (self->runs, i - 1);

  for (guint i = 0; i < self->runs->len && qd_run_memory_get_used (self) > room; i++)
    {
      Run *run = g_ptr_array_index (self->runs, i);

      if (run->state != QD_RUN_MEMORY_EXACT)
        continue;
      qd_trace_budget_shrink (run->budget, 0);
      run->state = QD_RUN_MEMORY_DECIMATED;
      g_signal_emit (self, signals[SIGNAL_DECIMATED], 0, run->budget);
    }
  while (self->runs->len > 0 && qd_run_memory_get_used (self) > room)
    {
      /* Its handlers let go of the traces; the record goes in any case,
       * so that something else holding them cannot keep this going. */
      Run *run = g_ptr_array_steal_index (self->runs, 0);

      g_signal_emit (self, signals[SIGNAL_DROPPED], 0, run->budget);
      run_free (run);
    }
}

void
qd_run_memory_begin_run (QdRunMemory *self,
                         GPtrArray   *traces)
{
  Run *run;
  gsize used;

  g_return_if_fail (QD_IS_RUN_MEMORY (self));
  g_return_if_fail (traces != NULL);

  if (self->limit == 0)
    {
      /* No limit: nothing to share, nothing to keep count of. */
      g_ptr_array_set_size (self->runs, 0);
      return;
    }
  /* Half for the earlier runs at most, so that a new run always has at
   * least half of the memory for itself. */
  make_room (self, self->limit / 2);
  used = qd_run_memory_get_used (self);
  run = g_new0 (Run, 1);
  run->budget = qd_trace_budget_new (self->limit - MIN (used, self->limit));
  run->state = QD_RUN_MEMORY_EXACT;
  for (guint i = 0; i < traces->len; i++)
    qd_trace_budget_add (run->budget, g_ptr_array_index (traces, i));
  g_ptr_array_add (self->runs, run);
}

void
qd_run_memory_clear (QdRunMemory *self)
{
  g_return_if_fail (QD_IS_RUN_MEMORY (self));

  g_ptr_array_set_size (self->runs, 0);
}

guint
qd_run_memory_get_n_runs (QdRunMemory *self)
{
  g_return_val_if_fail (QD_IS_RUN_MEMORY (self), 0);

  return self->runs->len;
}

QdRunMemoryState
qd_run_memory_get_state (QdRunMemory *self,
                         guint        index)
{
  g_return_val_if_fail (QD_IS_RUN_MEMORY (self), QD_RUN_MEMORY_EXACT);
  g_return_val_if_fail (index < self->runs->len, QD_RUN_MEMORY_EXACT);

  return ((Run *) g_ptr_array_index (self->runs, index))->state;
}

QdTraceBudget *
qd_run_memory_get_budget (QdRunMemory *self,
                          guint        index)
{
  g_return_val_if_fail (QD_IS_RUN_MEMORY (self), NULL);
  g_return_val_if_fail (index < self->runs->len, NULL);

  return ((Run *) g_ptr_array_index (self->runs, index))->budget;
}

/* fuzz-run.c: a libFuzzer target for the compiler and the event loop
 *
 * fuzz-load.c holds the loader to "a document or an error". This target
 * goes on where a document loads: it is compiled, and when that succeeds
 * it runs for a bounded number of events and is finished. Whatever the
 * diagram (odd parameters, expressions that overflow, quanta of zero,
 * algebraic loops, illegitimate models), each step must end in a value or
 * an error that names the file or the block, never a crash, a hang, a
 * leak or a sanitizer report. Diagrams with blocks that touch files (To
 * CSV writes one, From CSV reads one) are compiled but not run: a
 * fuzzer must not write where its inputs say.
 *
 * Each run is made twice: as it runs by default, and with an event log
 * (qd-event-log.h), which runs the loop compiled for it, every zero-time
 * cascade one transition at a time. The two must end alike (status,
 * error message, clock, totals, every block's counts), and the log must
 * count what the statistics count: a difference is a bug of the fused
 * cascades or of the log, whatever the diagram.
 */
#include <string.h>

#include "fuzz-common.h"

/* Enough events for every block of a small diagram to fire many times
 * (the integrators' steps, the sources' changes, the cascades between),
 * few enough that one input takes milliseconds. */
#define FUZZ_MAX_EVENTS 20000

/* The block types that read or write a file named in the diagram. */
static const char *const file_types[] = { "to_csv", "from_csv" };

static gboolean
touches_files (QdSimulation *sim)
{
  for (guint i = 0; i < qd_simulation_get_n_atomics (sim); i++)
    {
      const char *id = qd_simulation_get_atomic (sim, i)->type->id;

      for (guint k = 0; k < G_N_ELEMENTS (file_types); k++)
        if (strcmp (id, file_types[k]) == 0)
          return TRUE;
    }
  return FALSE;
}

/* A renamed type must not switch the guard off unnoticed. */
static void
check_file_types (void)
{
  static gboolean checked = FALSE;

  if (checked)
    return;
  checked = TRUE;
  for (guint k = 0; k < G_N_ELEMENTS (file_types); k++)
    if (qd_registry_lookup (file_types[k]) == NULL)
      {
        g_printerr ("fuzz-run: no block type '%s'\n", file_types[k]);
        abort ();
      }
}

/* What a run came to, for comparing two runs of one diagram. */
typedef struct
{
  QdRunStatus status;
  char       *message;
  double      time;
  guint64     events;
  guint64     transitions;
  guint64     steps;
  guint64    *counts;       /* per block: internal, external */
  guint64    *log_counts;   /* the same from the log, or NULL */
  guint       n;
} Outcome;

static void
count_entry (const QdLogEntry *entry,
             gpointer          user_data)
{
  guint64 *counts = user_data;

  if (entry->kind == QD_LOG_INTERNAL)
    counts[2 * entry->block]++;
  else if (entry->kind == QD_LOG_EXTERNAL)
    counts[2 * entry->block + 1]++;
}

static void
outcome_clear (Outcome *o)
{
  g_free (o->message);
  g_free (o->counts);
  g_free (o->log_counts);
}

/* An error must say where: in the file, or at a block's path. */
static void
check_error (const GError *error)
{
  if (error == NULL || error->domain != QD_ERROR || error->message[0] == '\0')
    abort ();
}

/* Runs @sim for at most FUZZ_MAX_EVENTS events, with a log when
 * @logged, into @o. */
static void
run_bounded (QdSimulation *sim,
             gboolean      logged,
             Outcome      *o)
{
  GError *error = NULL;

  memset (o, 0, sizeof *o);
  o->n = qd_simulation_get_n_atomics (sim);
  o->counts = g_new0 (guint64, 2 * o->n + 1);
  if (logged)
    {
      o->log_counts = g_new0 (guint64, 2 * o->n + 1);
      qd_simulation_set_event_log (sim, count_entry, o->log_counts);
    }
  o->status = qd_simulation_step (sim, FUZZ_MAX_EVENTS, &error);
  if (o->status == QD_RUN_ERROR)
    {
      check_error (error);
      o->message = g_strdup (error->message);
      g_clear_error (&error);
    }
  else if (error != NULL)
    abort ();
  o->time = qd_simulation_get_time (sim);
  /* The clock never runs backwards, and a finished run stays put. */
  if (!(o->time >= qd_simulation_get_start_time (sim)))
    abort ();
  o->events = qd_simulation_get_events (sim);
  o->transitions = qd_simulation_get_transitions (sim);
  o->steps = qd_simulation_get_integrator_steps (sim);
  for (guint i = 0; i < o->n; i++)
    qd_simulation_get_block_stats (sim, i, &o->counts[2 * i], &o->counts[2 * i + 1]);
  if (logged)
    qd_simulation_set_event_log (sim, NULL, NULL);
}

static void
check_same (const Outcome *a,
            const Outcome *b)
{
  if (a->status != b->status || g_strcmp0 (a->message, b->message) != 0
      || memcmp (&a->time, &b->time, sizeof a->time) != 0
      || a->events != b->events || a->transitions != b->transitions
      || a->steps != b->steps || a->n != b->n
      || memcmp (a->counts, b->counts, 2 * a->n * sizeof (guint64)) != 0
      || memcmp (b->counts, b->log_counts, 2 * b->n * sizeof (guint64)) != 0)
    {
      g_printerr ("fuzz-run: the run with an event log differs: status %d/%d, "
                  "events %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT ", t %.17g/%.17g, "
                  "%s / %s\n", a->status, b->status, a->events, b->events,
                  a->time, b->time, a->message ? a->message : "-",
                  b->message ? b->message : "-");
      abort ();
    }
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr (GPtrArray) problems = NULL;
  QdDocument *doc = fuzz_load (data, size);
  QdSimulation *sim;
  GError *error = NULL;

  check_file_types ();
  if (doc == NULL)
    return 0;

  problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  sim = qd_simulation_new (doc, NULL, problems, &error);
  if (sim == NULL)
    {
      check_error (error);
      if (problems->len == 0)
        abort ();
      g_error_free (error);
      g_object_unref (doc);
      return 0;
    }
  if (error != NULL || problems->len != 0)
    abort ();

  if (!touches_files (sim))
    {
      Outcome plain, logged;
      QdSimulation *again;

      run_bounded (sim, FALSE, &plain);
      again = qd_simulation_new (doc, NULL, NULL, &error);
      if (again == NULL || error != NULL)
        abort ();
      run_bounded (again, TRUE, &logged);
      check_same (&plain, &logged);
      qd_simulation_finish (again);
      qd_simulation_free (again);
      outcome_clear (&plain);
      outcome_clear (&logged);
    }
  qd_simulation_finish (sim);
  qd_simulation_free (sim);
  g_object_unref (doc);
  return 0;
}

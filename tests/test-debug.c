/* test-debug.c: the debugger's queries of a paused simulation (qd-debug.h)
 *
 * The pending events must be what the event loop then does: at every
 * step of a run, the first pending event is the next internal transition
 * of the event log (the log `qdevs-cli run --events` writes), and every
 * pending block's time is that of its next internal transition unless an
 * external one comes first.
 */
#include <math.h>
#include <string.h>

#include "qd-test-util.h"

typedef struct
{
  QdLogKind kind;
  guint64   event;
  double    t;
  guint     block;
} Entry;

static void
record (const QdLogEntry *entry,
        gpointer          user_data)
{
  GArray *log = user_data;
  Entry e = { entry->kind, entry->event, entry->t, entry->block };

  g_array_append_val (log, e);
}

static QdSimulation *
load (const char *example)
{
  g_autofree char *path = qd_test_source_path ("data", "examples", example, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) doc = qd_document_load (path, &error);

  g_assert_no_error (error);
  return qd_test_compile (doc);
}

/* The first entry of block @b's transitions after event @k (an internal
 * or external one; OUTPUT entries are not transitions), or NULL. */
static const Entry *
next_transition (GArray  *log,
                 guint   *from,
                 guint64  k,
                 guint    b)
{
  while (*from < log->len && g_array_index (log, Entry, *from).event <= k)
    (*from)++;
  for (guint j = *from; j < log->len; j++)
    {
      const Entry *e = &g_array_index (log, Entry, j);

      if (e->block == b && e->kind != QD_LOG_OUTPUT)
        return e;
    }
  return NULL;
}

/* The pending events of @sim after @k events against the log. */
static void
check_state (QdSimulation *sim,
             GArray       *log,
             guint        *from,
             guint64       k)
{
  g_autoptr(GArray) pending = qd_simulation_dup_pending (sim);
  guint n = qd_simulation_get_n_atomics (sim);
  const Entry *next_internal = NULL;

  for (guint j = *from; j < log->len; j++)
    if (g_array_index (log, Entry, j).event > k
        && g_array_index (log, Entry, j).kind == QD_LOG_INTERNAL)
      {
        next_internal = &g_array_index (log, Entry, j);
        break;
      }
  if (next_internal == NULL)
    return;
  /* The head of the list is the next event the loop takes. */
  g_assert_cmpuint (pending->len, >, 0);
  g_assert_cmpuint (g_array_index (pending, QdPendingEvent, 0).block, ==,
                    next_internal->block);
  g_assert_cmpfloat (g_array_index (pending, QdPendingEvent, 0).time, ==,
                     next_internal->t);

  /* Every block: pending at T means its next transition is an internal
   * one at T, or an external one first; passive means its next
   * transition is not an internal one. */
  for (guint b = 0; b < n; b++)
    {
      double tn = qd_simulation_get_block_next_time (sim, b);
      const Entry *e = next_transition (log, from, k, b);
      const char *phase = qd_simulation_get_block_phase (sim, b);

      g_assert_nonnull (phase);
      if (tn == QD_INF)
        g_assert_cmpstr (phase, !=, "output due now");
      if (e == NULL)
        continue;
      if (e->kind == QD_LOG_INTERNAL)
        g_assert_cmpfloat (e->t, ==, tn);
      else
        g_assert_cmpfloat (e->t, <=, tn);
    }
  /* Sorted as the scheduler takes them: by time, then priority. */
  for (guint j = 1; j < pending->len; j++)
    {
      const QdPendingEvent *a = &g_array_index (pending, QdPendingEvent, j - 1);
      const QdPendingEvent *c = &g_array_index (pending, QdPendingEvent, j);

      g_assert_true (a->time < c->time
                     || (a->time == c->time && a->block < c->block));
    }
}

static void
check_pending_follows_log (const char *example)
{
  g_autoptr(GArray) log = g_array_new (FALSE, FALSE, sizeof (Entry));
  QdSimulation *sim;
  g_autoptr(GError) error = NULL;
  guint from = 0;
  guint64 steps = 0;

  /* The reference: one run with the event log. */
  sim = load (example);
  qd_simulation_set_event_log (sim, record, log);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
  g_assert_no_error (error);
  qd_simulation_free (sim);
  g_assert_cmpuint (log->len, >, 10);

  /* The same model stepped one event at a time, without a log, checked
   * before the first step and after each. */
  sim = load (example);
  for (;;)
    {
      guint64 k = qd_simulation_get_events (sim);
      QdRunStatus status;

      g_assert_cmpuint (k, ==, steps);
      check_state (sim, log, &from, k);
      status = qd_simulation_step (sim, 1, &error);
      g_assert_no_error (error);
      if (status == QD_RUN_DONE)
        break;
      g_assert_cmpint (status, ==, QD_RUN_STEPPED);
      steps++;
    }
  g_assert_cmpuint (steps, >, 5);
  qd_simulation_free (sim);
}

static void
test_pending_cellier (void)
{
  check_pending_follows_log ("cellier-first-order.qdevs");
}

static void
test_pending_queue_server (void)
{
  check_pending_follows_log ("queue-server.qdevs");
}

static void
test_pending_lotka_volterra (void)
{
  check_pending_follows_log ("lotka-volterra.qdevs");
}

typedef struct
{
  GHashTable *values;   /* name -> double* */
  GHashTable *texts;    /* name -> text */
} Described;

static void
add_var (const char *name,
         double      value,
         const char *text,
         gpointer    user_data)
{
  Described *d = user_data;

  g_hash_table_insert (d->values, (gpointer) name, g_memdup2 (&value, sizeof value));
  if (text != NULL)
    g_hash_table_insert (d->texts, (gpointer) name, g_strdup (text));
}

static guint
find_block (QdSimulation *sim,
            const char   *path)
{
  for (guint i = 0; i < qd_simulation_get_n_atomics (sim); i++)
    if (g_strcmp0 (qd_simulation_get_atomic (sim, i)->path, path) == 0)
      return i;
  g_assert_not_reached ();
}

/* Cellier's example, QSS1, ΔQ = 1: after the integrator's first output at
 * t = 0 the state is x = 10 moving down at dx/dt = -10 and the next step
 * is due at 0.1, when x reaches 9. */
static void
test_integrator_state (void)
{
  QdSimulation *sim = load ("cellier-first-order.qdevs");
  g_autoptr(GError) error = NULL;
  guint integ = find_block (sim, "/Integrator");
  Described d = { g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free),
                  g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free) };
  gboolean reached = FALSE;

  for (guint s = 0; s < 20 && !reached; s++)
    {
      g_assert_cmpint (qd_simulation_step (sim, 1, &error), ==, QD_RUN_STEPPED);
      g_assert_no_error (error);
      reached = qd_simulation_get_block_next_time (sim, integ) > 0.0
                && qd_simulation_get_block_next_time (sim, integ) < QD_INF;
    }
  g_assert_true (reached);
  g_assert_cmpfloat_with_epsilon (qd_simulation_get_block_next_time (sim, integ), 0.1, 1e-12);
  g_assert_cmpstr (qd_simulation_get_block_phase (sim, integ), ==, "waiting for ΔQ crossing");
  g_assert_true (qd_simulation_describe_block_state (sim, integ, add_var, &d));
  g_assert_cmpfloat (*(double *) g_hash_table_lookup (d.values, "x"), ==, 10.0);
  g_assert_cmpfloat (*(double *) g_hash_table_lookup (d.values, "q"), ==, 10.0);
  g_assert_cmpfloat (*(double *) g_hash_table_lookup (d.values, "ΔQ"), ==, 1.0);
  g_assert_cmpfloat (*(double *) g_hash_table_lookup (d.values, "derivative"), ==, -10.0);
  g_assert_cmpfloat_with_epsilon (*(double *) g_hash_table_lookup (d.values, "σ (time to next step)"),
                                  0.1, 1e-12);
  /* A static block has no description of its own: generic words. */
  g_assert_false (qd_simulation_describe_block_state (sim, find_block (sim, "/Gain"),
                                                      add_var, &d));
  g_hash_table_unref (d.values);
  g_hash_table_unref (d.texts);
  qd_simulation_free (sim);
}

/* Nothing is pending once the run is over. */
static void
test_pending_outside_run (void)
{
  QdSimulation *sim = load ("cellier-first-order.qdevs");
  g_autoptr(GArray) after = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
  after = qd_simulation_dup_pending (sim);
  g_assert_cmpuint (after->len, ==, 0);
  g_assert_cmpstr (qd_simulation_get_block_phase (sim, 0), ==, "passive");
  qd_simulation_free (sim);
}

/* Cellier's example, QSS1, ΔQ = 1: q falls from 6 to 5 when x, moving
 * at -6 from 6, reaches 5, at 0.1 + 1/9 + 1/8 + 1/7 + 1/6: a breakpoint
 * on q crossing 5.5 stops right after that event. */
static void
test_break_jump (void)
{
  QdSimulation *sim = load ("cellier-first-order.qdevs");
  QdBreak b = { QD_BREAK_CROSSING, find_block (sim, "/Integrator"), 0, 5.5 };
  QdBreakHit hit;
  g_autoptr(GError) error = NULL;
  double expected = 0.1 + 1.0 / 9 + 1.0 / 8 + 1.0 / 7 + 1.0 / 6;

  g_assert_true (qd_simulation_run_to_break (sim, &b, 1, G_MAXUINT64, &hit, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (hit.index, ==, 0);
  g_assert_true (isnan (hit.t));
  g_assert_cmpuint (hit.events, ==, qd_simulation_get_events (sim));
  g_assert_cmpfloat_with_epsilon (qd_simulation_get_time (sim), expected, 1e-12);
  g_assert_cmpfloat (qd_signal_eval (&qd_simulation_get_atomic (sim, b.block)->out[0],
                                     qd_simulation_get_time (sim)), ==, 5.0);
  /* Searching again finds the way back up, through 5.5 after the step at
   * 1.76 has turned the derivative round. */
  g_assert_true (qd_simulation_run_to_break (sim, &b, 1, G_MAXUINT64, &hit, &error));
  g_assert_cmpfloat (qd_simulation_get_time (sim), >, 1.76);
  g_assert_cmpfloat (qd_signal_eval (&qd_simulation_get_atomic (sim, b.block)->out[0],
                                     qd_simulation_get_time (sim)), ==, 6.0);
  qd_simulation_free (sim);
}

/* x' = 2 from x = 0 under QSS2: q is the ramp 2t itself, which crosses 3
 * inside a segment at t = 1.5, found from its polynomial. */
static void
test_break_crossing_in_segment (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *c = qd_test_add_block (doc, "constant", "C");
  QdBlock *integ = qd_test_add_block (doc, "integrator", "I");
  QdBlock *scope = qd_test_add_block (doc, "scope", "S");
  QdSimulation *sim;
  QdBreak b[2];
  QdBreakHit hit;
  g_autoptr(GError) error = NULL;

  qd_test_set_param (doc, c, "value", "2");
  qd_test_set_param (doc, integ, "method", "QSS2");
  qd_test_set_param (doc, integ, "x0", "0");
  qd_test_connect (doc, c, 0, integ, 0);
  qd_test_connect (doc, integ, 0, scope, 0);
  qd_test_set_final_time (doc, 10);
  sim = qd_test_compile (doc);
  b[0] = (QdBreak) { QD_BREAK_TIME, 0, 0, 4.0 };
  b[1] = (QdBreak) { QD_BREAK_CROSSING, find_block (sim, "/I"), 0, 3.0 };
  g_assert_true (qd_simulation_run_to_break (sim, b, 2, G_MAXUINT64, &hit, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (hit.index, ==, 1);
  g_assert_cmpfloat_with_epsilon (hit.t, 1.5, 1e-14);
  g_assert_cmpfloat (qd_simulation_get_time (sim), ==, hit.t);
  /* Once past it, the next stop is the time breakpoint. */
  g_assert_true (qd_simulation_run_to_break (sim, b, 2, G_MAXUINT64, &hit, &error));
  g_assert_cmpuint (hit.index, ==, 0);
  g_assert_cmpfloat (qd_simulation_get_time (sim), ==, 4.0);
  qd_simulation_free (sim);
}

/* A breakpoint on the Integrator's internal transitions stops after each
 * of its steps, and the event counts agree with a plain stepped run. */
static void
test_break_internal (void)
{
  QdSimulation *sim = load ("cellier-first-order.qdevs");
  guint integ = find_block (sim, "/Integrator");
  QdBreak b = { QD_BREAK_INTERNAL, integ, 0, 0 };
  QdBreakHit hit;
  g_autoptr(GError) error = NULL;
  guint hits = 0;

  while (qd_simulation_run_to_break (sim, &b, 1, G_MAXUINT64, &hit, &error))
    {
      guint64 ni;

      hits++;
      qd_simulation_get_block_stats (sim, integ, &ni, NULL);
      g_assert_cmpuint (ni, ==, hits);
    }
  g_assert_no_error (error);
  /* Cellier's 17 steps. */
  g_assert_cmpuint (hits, ==, 17);
  qd_simulation_free (sim);
}

/* An error breakpoint stops before the event that fails, with the
 * search ending there; without one the error is reported. */
static void
test_break_error (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) doc = qd_document_load_data (qd_test_model_division, strlen (qd_test_model_division),
                                                        "division.qdevs", &error);
  QdSimulation *sim;
  QdBreak b = { QD_BREAK_ERROR, 0, 0, 0 };
  QdBreakHit hit;

  g_assert_no_error (error);
  sim = qd_test_compile (doc);
  g_assert_true (qd_simulation_run_to_break (sim, &b, 1, G_MAXUINT64, &hit, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (hit.index, ==, 0);
  qd_simulation_free (sim);

  sim = qd_test_compile (doc);
  g_assert_false (qd_simulation_run_to_break (sim, NULL, 0, G_MAXUINT64, &hit, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "/Division"));
  qd_simulation_free (sim);
}

/* Breakpoints are saved with the diagram and read back the same, byte
 * for byte; a diagram without any is written as before them. */
static void
test_breakpoints_round_trip (void)
{
  g_autofree char *path = qd_test_source_path ("data", "examples", "cellier-first-order.qdevs", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) doc = qd_document_load (path, &error);
  g_autoptr(QdDocument) back = NULL;
  g_autoptr(GPtrArray) list = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_breakpoint_free);
  g_autofree char *before = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  GPtrArray *read;
  gsize len = 0;

  g_assert_no_error (error);
  before = qd_document_to_data (doc, &len);
  g_assert_null (strstr (before, "breakpoints"));
  g_assert_false (qd_document_get_modified (doc));

  g_ptr_array_add (list, qd_breakpoint_new (QD_BREAK_CROSSING, "/Integrator", 0, 5.5));
  g_ptr_array_add (list, qd_breakpoint_new (QD_BREAK_INTERNAL, "/Sum", 0, 0));
  g_ptr_array_add (list, qd_breakpoint_new (QD_BREAK_TIME, NULL, 0, 2.25));
  g_ptr_array_add (list, qd_breakpoint_new (QD_BREAK_ERROR, NULL, 0, 0));
  qd_document_set_breakpoints (doc, list);
  g_assert_true (qd_document_get_modified (doc));
  first = qd_document_to_data (doc, &len);
  g_assert_nonnull (strstr (first, "\"breakpoints\": [\n"
                                   "    { \"kind\": \"crossing\", \"block\": \"/Integrator\", \"port\": 0, \"value\": 5.5 },\n"));

  back = qd_document_load_data (first, len, "saved.qdevs", &error);
  g_assert_no_error (error);
  read = qd_document_get_breakpoints (back);
  g_assert_cmpuint (read->len, ==, 4);
  g_assert_cmpint (((QdBreakpoint *) g_ptr_array_index (read, 0))->kind, ==, QD_BREAK_CROSSING);
  g_assert_cmpstr (((QdBreakpoint *) g_ptr_array_index (read, 0))->block, ==, "/Integrator");
  g_assert_cmpfloat (((QdBreakpoint *) g_ptr_array_index (read, 0))->value, ==, 5.5);
  g_assert_cmpstr (((QdBreakpoint *) g_ptr_array_index (read, 1))->block, ==, "/Sum");
  g_assert_cmpfloat (((QdBreakpoint *) g_ptr_array_index (read, 2))->value, ==, 2.25);
  g_assert_null (((QdBreakpoint *) g_ptr_array_index (read, 3))->block);
  g_assert_false (qd_document_get_modified (back));
  second = qd_document_to_data (back, &len);
  g_assert_cmpstr (second, ==, first);
}

/* A bad breakpoint is refused with the file, the breakpoint and the key. */
static void
test_breakpoints_bad (void)
{
  static const struct { const char *json, *message; } cases[] = {
    { "[{\"kind\": \"sometimes\"}]", "bad.qdevs: breakpoint 1: \"kind\" must be one of" },
    { "[{\"kind\": \"internal\"}]", "bad.qdevs: breakpoint 1: \"block\" must be the path" },
    { "[{\"kind\": \"time\"}]", "bad.qdevs: breakpoint 1: \"value\" must be a number" },
    { "[{\"kind\": \"time\", \"value\": 1}, {\"kind\": \"error\", \"when\": 1}]",
      "bad.qdevs: breakpoint 2: unknown key \"when\"" },
    { "{}", "bad.qdevs: \"breakpoints\" must be an array" },
  };

  for (guint k = 0; k < G_N_ELEMENTS (cases); k++)
    {
      g_autofree char *text = g_strdup_printf ("{\"format\": \"qdevs\", \"version\": 1, "
                                               "\"blocks\": [], \"links\": [], "
                                               "\"breakpoints\": %s}", cases[k].json);
      g_autoptr(GError) error = NULL;
      g_autoptr(QdDocument) doc = qd_document_load_data (text, strlen (text), "bad.qdevs", &error);

      g_assert_null (doc);
      g_assert_nonnull (error);
      if (!g_str_has_prefix (error->message, cases[k].message))
        g_error ("case %u: %s", k, error->message);
    }
}

int
main (int argc, char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();
  g_test_add_func ("/debug/pending/cellier", test_pending_cellier);
  g_test_add_func ("/debug/pending/queue-server", test_pending_queue_server);
  g_test_add_func ("/debug/pending/lotka-volterra", test_pending_lotka_volterra);
  g_test_add_func ("/debug/pending/outside-run", test_pending_outside_run);
  g_test_add_func ("/debug/integrator-state", test_integrator_state);
  g_test_add_func ("/debug/break/jump", test_break_jump);
  g_test_add_func ("/debug/break/crossing-in-segment", test_break_crossing_in_segment);
  g_test_add_func ("/debug/break/internal", test_break_internal);
  g_test_add_func ("/debug/break/error", test_break_error);
  g_test_add_func ("/debug/breakpoints/round-trip", test_breakpoints_round_trip);
  g_test_add_func ("/debug/breakpoints/bad", test_breakpoints_bad);
  return g_test_run ();
}

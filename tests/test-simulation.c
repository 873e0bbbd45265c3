/* test-simulation.c: running the DEVS event loop
 *
 * Event order, flattening of subsystems, priorities, static blocks,
 * illegitimate models, failures, pieces and stopping. The models use the
 * test-only block types of qd-test-sim.h (each logging its transitions),
 * so that these tests do not depend on the block library; compiling is
 * tested in test-simulation-compile.c.
 */
#include <string.h>

#include "qd-test-sim.h"

/* -------------------------------------------------------------------- */
/* Running */

static void
run_ok (QdSimulation *sim)
{
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
  g_assert_no_error (error);
}

static void
test_run_counts (void)
{
  QdDocument *doc = qd_test_small_model ();
  QdSimulation *sim = qd_test_compile_ok (doc, NULL);
  guint64 ni, ne;
  QdTrace *trace;
  double end = 0;
  const guint64 expect[4][2] = { { 3, 0 }, { 3, 3 }, { 0, 6 }, { 9, 0 } };

  qd_test_log_reset ();
  g_assert_cmpuint (qd_simulation_get_n_atomics (sim), ==, 4);
  g_assert_cmpfloat (qd_simulation_get_next_time (sim), ==, 1.0);
  run_ok (sim);

  for (guint i = 0; i < 4; i++)
    {
      qd_simulation_get_block_stats (sim, i, &ni, &ne);
      g_assert_cmpuint (ni, ==, expect[i][0]);
      g_assert_cmpuint (ne, ==, expect[i][1]);
    }
  /* The clock's event at t = 10 is not run: events go up to the final
   * time, excluded. */
  g_assert_cmpuint (qd_simulation_get_events (sim), ==, 15);
  g_assert_cmpuint (qd_simulation_get_transitions (sim), ==, 24);
  g_assert_cmpuint (qd_simulation_get_integrator_steps (sim), ==, 9);
  g_assert_cmpfloat (qd_simulation_get_time (sim), ==, 10.0);

  /* The sink saw 1, 2, 3 through Pass, read via in[] at the right time. */
  g_assert_cmpuint (qd_simulation_get_traces (sim)->len, ==, 1);
  trace = g_ptr_array_index (qd_simulation_get_traces (sim), 0);
  g_assert_cmpstr (qd_trace_get_name (trace), ==, "/Sink/in");
  g_assert_cmpuint (qd_trace_get_length (trace), ==, 3);
  g_assert_cmpfloat (qd_trace_eval (trace, 2.5), ==, 2.0);
  g_assert_true (qd_trace_is_closed (trace, &end));
  g_assert_cmpfloat (end, ==, 10.0);

  /* exit once per block, however often finish is called. */
  g_assert_cmpuint (qd_test_exit_count, ==, 4);
  qd_simulation_finish (sim);
  qd_simulation_free (sim);
  g_assert_cmpuint (qd_test_exit_count, ==, 4);
  g_object_unref (doc);
}

/* Within one event: Gen's output goes to Pass (port 0) then Sink (port 1),
 * in receiver order; Pass's own event follows at the same time. */
static void
test_run_event_order (void)
{
  QdDocument *doc = qd_test_small_model ();
  QdSimulation *sim = qd_test_compile_ok (doc, NULL);
  const struct { double t; const char *path; char kind; guint port; } expect[] = {
    { 1, "/Gen", 'i', 0 }, { 1, "/Pass", 'e', 0 }, { 1, "/Sink", 'e', 1 },
    { 1, "/Pass", 'i', 0 }, { 1, "/Sink", 'e', 0 }, { 1, "/Clock", 'i', 0 },
    { 2, "/Gen", 'i', 0 },
  };

  qd_test_log_reset ();
  run_ok (sim);
  for (guint k = 0; k < G_N_ELEMENTS (expect); k++)
    {
      QdTestLogEntry *e = &g_array_index (qd_test_transition_log, QdTestLogEntry, k);

      g_assert_cmpfloat (e->t, ==, expect[k].t);
      g_assert_cmpstr (g_quark_to_string (e->path), ==, expect[k].path);
      g_assert_cmpint (e->kind, ==, expect[k].kind);
      g_assert_cmpuint (e->port, ==, expect[k].port);
    }
  qd_simulation_free (sim);
  g_object_unref (doc);
}

/* The same model flat and with Pass inside two nested subsystems gives the
 * same transitions. */
static void
test_run_flattening (void)
{
  QdTestModel m;
  QdSystem *outer, *inner;
  QdSimulation *sim;
  g_autoptr(GArray) flat = NULL;
  g_autoptr(GArray) nested = NULL;
  QdDocument *doc = qd_test_small_model ();

  sim = qd_test_compile_ok (doc, NULL);
  qd_test_log_reset ();
  run_ok (sim);
  flat = qd_test_log_take ();
  qd_simulation_free (sim);
  g_object_unref (doc);

  qd_test_model_init (&m);
  qd_block_set_param_raw (qd_test_model_add_block (m.root, "test-gen", "Gen"), "times", "1, 2, 3");
  outer = qd_test_model_add_block (m.root, QD_TYPE_SUBSYSTEM, "Outer")->inner;
  qd_test_model_add_block (outer, QD_TYPE_INPORT, "In");
  inner = qd_test_model_add_block (outer, QD_TYPE_SUBSYSTEM, "Inner")->inner;
  qd_test_model_add_block (outer, QD_TYPE_OUTPORT, "Out");
  qd_test_model_add_block (inner, QD_TYPE_INPORT, "In 2");
  qd_test_model_add_block (inner, "test-pass", "Pass");
  qd_test_model_add_block (inner, QD_TYPE_OUTPORT, "Out 2");
  qd_test_model_connect (&m, inner, "In 2", 0, "Pass", 0);
  qd_test_model_connect (&m, inner, "Pass", 0, "Out 2", 0);
  qd_test_model_connect (&m, outer, "In", 0, "Inner", 0);
  qd_test_model_connect (&m, outer, "Inner", 0, "Out", 0);
  qd_block_set_param_raw (qd_test_model_add_block (m.root, "test-sink", "Sink"), "n", "2");
  qd_test_model_add_block (m.root, "test-clock", "Clock");
  qd_test_model_connect (&m, m.root, "Gen", 0, "Outer", 0);
  qd_test_model_connect (&m, m.root, "Outer", 0, "Sink", 0);
  qd_test_model_connect (&m, m.root, "Gen", 0, "Sink", 1);
  qd_test_model_finish (&m);

  sim = qd_test_compile_ok (m.doc, NULL);
  g_assert_cmpuint (qd_simulation_get_n_atomics (sim), ==, 4);
  g_assert_cmpstr (qd_simulation_get_atomic (sim, 1)->path, ==, "/Outer/Inner/Pass");
  run_ok (sim);
  nested = qd_test_log_take ();
  qd_simulation_free (sim);

  g_assert_cmpuint (flat->len, ==, 3 * 5 + 9);
  /* Same indices, kinds, ports, values; the paths differ only for Pass. */
  for (guint k = 0; k < flat->len; k++)
    {
      QdTestLogEntry *x = &g_array_index (flat, QdTestLogEntry, k);
      QdTestLogEntry *y = &g_array_index (nested, QdTestLogEntry, k);

      if (x->index == 1)
        y->path = x->path;
    }
  qd_test_assert_logs_equal (flat, nested);

  /* Given up to qd_simulation_new_taking(), the document's links are
   * freed once read, in every nested system: the same run. */
  {
    g_autoptr(GArray) taken = NULL;
    g_autoptr(GError) error = NULL;

    sim = qd_simulation_new_taking (g_steal_pointer (&m.doc), NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (qd_simulation_get_atomic (sim, 1)->path, ==, "/Outer/Inner/Pass");
    qd_test_log_reset ();
    run_ok (sim);
    taken = qd_test_log_take ();
    qd_simulation_free (sim);
    g_assert_cmpuint (taken->len, ==, flat->len);
    for (guint k = 0; k < taken->len; k++)
      if (g_array_index (taken, QdTestLogEntry, k).index == 1)
        g_array_index (taken, QdTestLogEntry, k).path = g_array_index (flat, QdTestLogEntry, k).path;
    qd_test_assert_logs_equal (flat, taken);
  }
}

/* Simultaneous events go by priority: swapping the block order swaps the
 * order of their transitions. */
static void
test_run_priority (void)
{
  for (guint swap = 0; swap < 2; swap++)
    {
      QdTestModel m;
      QdSimulation *sim;
      const char *first = swap ? "B" : "A", *second = swap ? "A" : "B";

      qd_test_model_init (&m);
      qd_block_set_param_raw (qd_test_model_add_block (m.root, "test-gen", first), "times", "1, 2");
      qd_block_set_param_raw (qd_test_model_add_block (m.root, "test-gen", second), "times", "1, 2");
      qd_test_model_finish (&m);
      sim = qd_test_compile_ok (m.doc, NULL);
      qd_test_log_reset ();
      run_ok (sim);
      g_assert_cmpuint (qd_test_transition_log->len, ==, 4);
      for (guint k = 0; k < 4; k++)
        {
          QdTestLogEntry *e = &g_array_index (qd_test_transition_log, QdTestLogEntry, k);

          g_assert_cmpstr (g_quark_to_string (e->path) + 1, ==,
                           k % 2 == 0 ? first : second);
          g_assert_cmpuint (e->index, ==, k % 2);
        }
      qd_simulation_free (sim);
      g_object_unref (m.doc);
    }
}

/* A now-queue block and a heap block due at the same time: the lower
 * index goes first whichever structure holds it. */
static void
test_run_priority_now_queue (void)
{
  QdTestModel m;
  QdSimulation *sim;
  const struct { const char *path; char kind; } expect[] = {
    { "/Gen", 'i' }, { "/Early", 'e' }, { "/Late", 'e' },
    { "/Tick", 'i' }, { "/Early", 'i' }, { "/Late", 'i' },
  };

  /* At t = 1, Gen (index 0) fires into Late and Early, which then wait in
   * the now queue (ta = 0); Tick (index 1) is in the time heap at t = 1
   * and must still go before them. Gen's fan-out follows the receivers'
   * order (Early, index 2, first), not the order of the connections. */
  qd_test_model_init (&m);
  qd_block_set_param_raw (qd_test_model_add_block (m.root, "test-gen", "Gen"), "times", "1");
  qd_block_set_param_raw (qd_test_model_add_block (m.root, "test-clock", "Tick"), "period", "1");
  qd_test_model_add_block (m.root, "test-pass", "Early");
  qd_test_model_add_block (m.root, "test-pass", "Late");
  qd_test_model_connect (&m, m.root, "Gen", 0, "Late", 0);
  qd_test_model_connect (&m, m.root, "Gen", 0, "Early", 0);
  qd_test_set_settings (m.doc, 1.5, 0);
  qd_test_model_finish (&m);

  sim = qd_test_compile_ok (m.doc, NULL);
  qd_test_log_reset ();
  run_ok (sim);
  g_assert_cmpuint (qd_test_transition_log->len, ==, G_N_ELEMENTS (expect));
  for (guint k = 0; k < G_N_ELEMENTS (expect); k++)
    {
      QdTestLogEntry *e = &g_array_index (qd_test_transition_log, QdTestLogEntry, k);

      g_assert_cmpstr (g_quark_to_string (e->path), ==, expect[k].path);
      g_assert_cmpint (e->kind, ==, expect[k].kind);
    }
  qd_simulation_free (sim);
  g_object_unref (m.doc);
}

static QdDocument *
ping_pong_model (guint64 limit)
{
  QdTestModel m;

  qd_test_model_init (&m);
  qd_block_set_param_raw (qd_test_model_add_block (m.root, "test-gen", "Gen"), "times", "0");
  qd_block_set_param_raw (qd_test_model_add_block (m.root, "test-ping", "Ping A"), "start", "true");
  qd_test_model_add_block (m.root, "test-ping", "Ping B");
  qd_test_model_connect (&m, m.root, "Ping A", 0, "Ping B", 0);
  qd_test_model_connect (&m, m.root, "Ping B", 0, "Ping A", 0);
  qd_test_set_settings (m.doc, 10, limit);
  qd_test_model_finish (&m);
  return m.doc;
}

/* Gen fans out to P1 and P2; P1 drives P3; P3, P2 and Gen drive the
 * sink's ports 0, 1 and 2. Every P is of @type. */
static QdDocument *
cascade_model (const char *type,
               guint64     limit)
{
  QdTestModel m;
  QdBlock *gen;

  qd_test_model_init (&m);
  gen = qd_test_model_add_block (m.root, "test-gen", "Gen");
  qd_block_set_param_raw (gen, "times", "1, 2, 2, 3.5");
  qd_test_model_add_block (m.root, type, "P1");
  qd_test_model_add_block (m.root, type, "P2");
  qd_test_model_add_block (m.root, type, "P3");
  qd_block_set_param_raw (qd_test_model_add_block (m.root, "test-sink", "Sink"), "n", "3");
  qd_test_model_connect (&m, m.root, "Gen", 0, "P1", 0);
  qd_test_model_connect (&m, m.root, "Gen", 0, "P2", 0);
  qd_test_model_connect (&m, m.root, "P1", 0, "P3", 0);
  qd_test_model_connect (&m, m.root, "P3", 0, "Sink", 0);
  qd_test_model_connect (&m, m.root, "P2", 0, "Sink", 1);
  qd_test_model_connect (&m, m.root, "Gen", 0, "Sink", 2);
  qd_test_model_finish (&m);
  qd_test_set_settings (m.doc, 10, limit);
  return m.doc;
}

/* Static blocks (QD_BLOCK_STATIC) take the loop's cascade path: the same
 * transitions, in the same order, with the same counts and outputs as
 * the same blocks without the flag; and an illegitimate cascade is
 * reported the same way. */
static void
test_run_static_blocks (void)
{
  const char *types[] = { "test-pass-logged", "test-pass-static" };
  GArray *logs[2];
  guint64 stats[2][5][2], events[2], transitions[2];
  char *messages[2];
  const struct { double t; const char *path; char kind; guint port; } expect[] = {
    { 1, "/Gen", 'i', 0 }, { 1, "/Sink", 'e', 2 }, { 1, "/P1", 'o', 0 },
    { 1, "/P2", 'o', 0 }, { 1, "/Sink", 'e', 1 }, { 1, "/P3", 'o', 0 },
    { 1, "/Sink", 'e', 0 }, { 2, "/Gen", 'i', 0 },
  };

  for (guint k = 0; k < 2; k++)
    {
      QdDocument *doc = cascade_model (types[k], 0);
      QdSimulation *sim = qd_test_compile_ok (doc, NULL);

      qd_test_log_reset ();
      run_ok (sim);
      logs[k] = qd_test_log_take ();
      for (guint i = 0; i < 5; i++)
        qd_simulation_get_block_stats (sim, i, &stats[k][i][0], &stats[k][i][1]);
      events[k] = qd_simulation_get_events (sim);
      transitions[k] = qd_simulation_get_transitions (sim);
      qd_simulation_free (sim);
      g_object_unref (doc);
    }

  qd_test_assert_logs_equal (logs[0], logs[1]);

  /* One event at a time: the cascade stops after each. */
  {
    QdDocument *doc = cascade_model (types[1], 0);
    QdSimulation *sim = qd_test_compile_ok (doc, NULL);
    g_autoptr(GArray) stepped = NULL;
    guint n_steps = 0;

    qd_test_log_reset ();
    while (qd_simulation_step (sim, 1, NULL) == QD_RUN_STEPPED)
      g_assert_cmpuint (qd_simulation_get_events (sim), ==, ++n_steps);
    g_assert_cmpuint (n_steps, ==, 13);
    stepped = qd_test_log_take ();
    qd_test_assert_logs_equal (stepped, logs[1]);
    qd_simulation_free (sim);
    g_object_unref (doc);
  }

  for (guint k = 0; k < G_N_ELEMENTS (expect); k++)
    {
      QdTestLogEntry *e = &g_array_index (logs[1], QdTestLogEntry, k);

      g_assert_cmpfloat (e->t, ==, expect[k].t);
      g_assert_cmpstr (g_quark_to_string (e->path), ==, expect[k].path);
      g_assert_cmpint (e->kind, ==, expect[k].kind);
      g_assert_cmpuint (e->port, ==, expect[k].port);
    }
  /* Four outputs of Gen, two of them at t = 2: Gen (index 0) fires
   * again before the P's, so P1 and P2 have four external transitions
   * and three internal ones, P3 three of each; the sink 3 + 3 + 4
   * external ones. */
  g_assert_cmpuint (stats[1][0][0], ==, 4);
  for (guint i = 1; i <= 3; i++)
    {
      g_assert_cmpuint (stats[1][i][0], ==, 3);
      g_assert_cmpuint (stats[1][i][1], ==, i < 3 ? 4 : 3);
    }
  g_assert_cmpuint (stats[1][4][1], ==, 10);
  g_assert_true (memcmp (stats[0], stats[1], sizeof stats[0]) == 0);
  g_assert_cmpuint (events[1], ==, 13);
  g_assert_cmpuint (transitions[1], ==, 34);
  g_assert_cmpuint (events[0], ==, events[1]);
  g_assert_cmpuint (transitions[0], ==, transitions[1]);
  g_array_unref (logs[0]);
  g_array_unref (logs[1]);

  /* At t = 2 there are five internal transitions (Gen twice, then the
   * P's); with a limit of 4 the fifth, in the cascade, is refused at the
   * same place either way. */
  qd_test_log_enabled = FALSE;
  for (guint k = 0; k < 2; k++)
    {
      QdDocument *doc = cascade_model (types[k], 4);
      QdSimulation *sim = qd_test_compile_ok (doc, NULL);
      g_autoptr(GError) error = NULL;

      g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_ERROR);
      g_assert_error (error, QD_ERROR, QD_ERROR_ILLEGITIMATE);
      messages[k] = g_strdup (error->message);
      events[k] = qd_simulation_get_events (sim);
      qd_simulation_free (sim);
      g_object_unref (doc);
    }
  qd_test_log_enabled = TRUE;
  g_assert_cmpstr (messages[1], ==,
                   "illegitimate model: more than 4 transitions at t = 2 "
                   "without time advancing, among /Gen, /P1, /P2; look for a "
                   "zero-time loop, or raise the limit in the simulation "
                   "settings");
  g_assert_cmpstr (messages[0], ==, messages[1]);
  g_assert_cmpuint (events[1], ==, 8);
  g_assert_cmpuint (events[0], ==, events[1]);
  g_free (messages[0]);
  g_free (messages[1]);
}

/* A static block without inputs whose init leaves its output due (a
 * function of t alone) emits once at the start time, in priority order,
 * and is then passive: as the same block without QD_BLOCK_STATIC. The
 * static blocks of the library (WSum, Gain, NLFunction, the math blocks
 * that watch no zero of an input) declare the flag. */
static void
test_run_static_start (void)
{
  const char *types[] = { "test-const", "test-const-static" };
  const char *static_ids[] = {
    "wsum", "gain", "nlfunction", "product", "sin", "cos", "exp", "square",
  };
  /* They schedule the time their input reaches zero (qd-block-math.c). */
  const char *watching_ids[] = {
    "abs", "division", "log", "sqrt", "pow", "inverse",
  };
  const struct { const char *path; char kind; guint port; } expect[] = {
    { "/Gen", 'i', 0 }, { "/Sink", 'e', 1 }, { "/C", 'o', 0 },
    { "/Sink", 'e', 0 },
  };
  GArray *logs[2];

  for (guint k = 0; k < G_N_ELEMENTS (static_ids); k++)
    g_assert_true (qd_registry_lookup (static_ids[k])->flags & QD_BLOCK_STATIC);
  for (guint k = 0; k < G_N_ELEMENTS (watching_ids); k++)
    g_assert_false (qd_registry_lookup (watching_ids[k])->flags & QD_BLOCK_STATIC);
  g_assert_false (qd_registry_lookup ("integrator")->flags & QD_BLOCK_STATIC);

  for (guint k = 0; k < 2; k++)
    {
      QdTestModel m;
      QdSimulation *sim;
      guint64 n_int, n_ext;

      qd_test_model_init (&m);
      qd_block_set_param_raw (qd_test_model_add_block (m.root, "test-gen", "Gen"), "times", "0");
      qd_test_model_add_block (m.root, types[k], "C");
      qd_block_set_param_raw (qd_test_model_add_block (m.root, "test-sink", "Sink"), "n", "2");
      qd_test_model_connect (&m, m.root, "C", 0, "Sink", 0);
      qd_test_model_connect (&m, m.root, "Gen", 0, "Sink", 1);
      qd_test_set_settings (m.doc, 5, 0);
      qd_test_model_finish (&m);

      sim = qd_test_compile_ok (m.doc, NULL);
      qd_test_log_reset ();
      run_ok (sim);
      logs[k] = qd_test_log_take ();
      g_assert_cmpuint (logs[k]->len, ==, G_N_ELEMENTS (expect));
      for (guint e = 0; e < G_N_ELEMENTS (expect); e++)
        {
          QdTestLogEntry *l = &g_array_index (logs[k], QdTestLogEntry, e);

          g_assert_cmpfloat (l->t, ==, 0.0);
          g_assert_cmpstr (g_quark_to_string (l->path), ==, expect[e].path);
          g_assert_cmpint (l->kind, ==, expect[e].kind);
          g_assert_cmpuint (l->port, ==, expect[e].port);
        }
      g_assert_cmpfloat (g_array_index (logs[k], QdTestLogEntry, 3).value, ==, 7.0);
      qd_simulation_get_block_stats (sim, 1, &n_int, &n_ext);
      g_assert_cmpuint (n_int, ==, 1);
      g_assert_cmpuint (n_ext, ==, 0);
      g_assert_cmpuint (qd_simulation_get_events (sim), ==, 2);
      g_assert_cmpuint (qd_simulation_get_transitions (sim), ==, 4);
      qd_simulation_free (sim);
      g_object_unref (m.doc);
    }
  qd_test_assert_logs_equal (logs[0], logs[1]);
  g_array_unref (logs[0]);
  g_array_unref (logs[1]);
}

static void
test_run_illegitimate (void)
{
  QdDocument *doc = ping_pong_model (1000);
  QdSimulation *sim = qd_test_compile_ok (doc, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) again = NULL;

  qd_test_log_enabled = FALSE;
  g_assert_cmpint (qd_simulation_run_until (sim, 5, &error), ==, QD_RUN_ERROR);
  g_assert_error (error, QD_ERROR, QD_ERROR_ILLEGITIMATE);
  /* Gen fired at t = 0 too, but not among the last transitions. */
  g_assert_cmpstr (error->message, ==,
                   "illegitimate model: more than 1000 transitions at t = 0 "
                   "without time advancing, among /Ping A, /Ping B; look for "
                   "a zero-time loop, or raise the limit in the simulation "
                   "settings");
  g_assert_cmpuint (qd_simulation_get_events (sim), ==, 1000);
  /* The error stays. */
  g_assert_cmpint (qd_simulation_step (sim, 1, &again), ==, QD_RUN_ERROR);
  g_assert_error (again, QD_ERROR, QD_ERROR_ILLEGITIMATE);
  qd_test_log_enabled = TRUE;
  qd_simulation_free (sim);
  g_object_unref (doc);
}

/* dx/dt = f(x), x(0) = @x0, under QSS2: f the block @type (a gain of -1,
 * or a square). */
static QdDocument *
feedback_model (const char *type,
                double      x0,
                double      start)
{
  QdTestModel m;
  QdSettings s;
  QdBlock *b;
  g_autofree char *x0_text = g_strdup_printf ("%g", x0);
  g_autoptr(GError) error = NULL;

  qd_test_model_init (&m);
  b = qd_test_model_add_block (m.root, "integrator", "Integrator");
  qd_block_set_param_raw (b, "x0", x0_text);
  qd_block_set_param_raw (b, "method", "QSS2");
  qd_block_set_param_raw (b, "dqmin", "1e-4");
  qd_block_set_param_raw (b, "dqrel", "0");
  b = qd_test_model_add_block (m.root, type, "F");
  if (strcmp (type, "gain") == 0)
    qd_block_set_param_raw (b, "k", "-1");
  qd_test_model_connect (&m, m.root, "Integrator", 0, "F", 0);
  qd_test_model_connect (&m, m.root, "F", 0, "Integrator", 0);
  s = *qd_document_get_settings (m.doc);
  s.start_time = start;
  s.final_time = start + 100;
  s.illegitimacy_limit = 1000;
  g_assert_true (qd_document_set_settings (m.doc, &s, &error));
  g_assert_no_error (error);
  return qd_test_model_finish (&m);
}

/* Time stops for a reason the illegitimacy report names. dx/dt = -x
 * started where the spacing of doubles (16 at 1e17) is far coarser than
 * the integrator's time advances (about 0.01): t + ta rounds to t, and
 * the report blames the clock, not a zero-time loop that the model does
 * not have. (Only the integrator fires: due now again after each of its
 * events, it comes before the gain it made due, by priority.) Near time
 * 0 the same model runs. And dx/dt = x², x(0) = 0.5, whose solution
 * 1/(2 - t) blows up at t = 2: the time advances shrink until they are
 * lost, and the report says the solution may grow without bound. */
static void
test_run_lost_time_advance (void)
{
  QdDocument *doc = feedback_model ("gain", 1.0, 1e17);
  QdSimulation *sim = qd_test_compile_ok (doc, NULL);
  g_autoptr(GError) error = NULL;
  double t;

  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_ERROR);
  g_assert_error (error, QD_ERROR, QD_ERROR_ILLEGITIMATE);
  g_assert_true (g_str_has_prefix (error->message,
                                   "/Integrator: its time advance 0.0"));
  g_assert_nonnull (strstr (error->message,
                            "is lost in rounding at t = 1e+17, where the "
                            "clock's resolution is 16, so time cannot "
                            "advance (more than 1000 transitions at that "
                            "time, among /Integrator); start the "
                            "simulation nearer time 0"));
  g_assert_cmpfloat (qd_simulation_get_time (sim), ==, 1e17);
  g_clear_error (&error);
  qd_simulation_free (sim);
  g_object_unref (doc);

  doc = feedback_model ("gain", 1.0, 0.0);
  sim = qd_test_compile_ok (doc, NULL);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
  g_assert_no_error (error);
  g_assert_cmpuint (qd_simulation_get_integrator_steps (sim), >, 100);
  qd_simulation_free (sim);
  g_object_unref (doc);

  doc = feedback_model ("square", 0.5, 0.0);
  sim = qd_test_compile_ok (doc, NULL);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_ERROR);
  g_assert_error (error, QD_ERROR, QD_ERROR_ILLEGITIMATE);
  g_assert_true (g_str_has_prefix (error->message,
                                   "/Integrator: its time advance has "
                                   "shrunk to "));
  g_assert_nonnull (strstr (error->message,
                            "the model may have a solution that grows "
                            "without bound near this time"));
  t = qd_simulation_get_time (sim);
  g_assert_cmpfloat (fabs (t - 2.0), <, 0.01);
  qd_simulation_free (sim);
  g_object_unref (doc);
}

static void
test_run_nan (void)
{
  QdTestModel m;
  QdSimulation *sim;
  QdBlock *bad;
  g_autoptr(GError) error = NULL;

  qd_test_model_init (&m);
  bad = qd_test_model_add_block (m.root, "test-gen", "Bad");
  qd_block_set_param_raw (bad, "times", "0.5");
  qd_block_set_param_raw (bad, "nan", "true");
  qd_test_model_add_block (m.root, "test-sink", "Sink");
  qd_test_model_connect (&m, m.root, "Bad", 0, "Sink", 0);
  qd_test_model_finish (&m);

  sim = qd_test_compile_ok (m.doc, NULL);
  qd_test_log_reset ();
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_ERROR);
  g_assert_error (error, QD_ERROR, QD_ERROR_NUMERIC);
  g_assert_cmpstr (error->message, ==,
                   "/Bad: produced NaN at t = 0.5; check the parameters and "
                   "the inputs of this block");
  /* The NaN never reached the sink. */
  g_assert_cmpuint (qd_test_transition_log->len, ==, 1);
  qd_simulation_free (sim);
  g_object_unref (m.doc);
}

static void
test_run_fail (void)
{
  QdTestModel m;
  QdSimulation *sim;
  g_autoptr(GError) error = NULL;

  qd_test_model_init (&m);
  qd_test_model_add_block (m.root, "test-failer", "Writer");
  qd_block_set_param_raw (qd_test_model_add_block (m.root, "test-gen", "Gen"), "times", "1, 2");
  qd_test_model_finish (&m);

  sim = qd_test_compile_ok (m.doc, NULL);
  qd_test_log_reset ();
  g_assert_cmpint (qd_simulation_run_until (sim, 5, &error), ==, QD_RUN_ERROR);
  g_assert_error (error, QD_ERROR, QD_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==,
                   "/Writer: cannot write 'out.csv'; check the folder");
  /* The failing transition completed; Gen's event at the same time (lower
   * priority) did not run. */
  g_assert_cmpuint (qd_simulation_get_events (sim), ==, 1);
  g_assert_cmpfloat (qd_simulation_get_time (sim), ==, 1.0);
  qd_simulation_free (sim);
  g_object_unref (m.doc);
}

/* A richer model: generators with simultaneous events, a static chain, a
 * finite zero-time ping cascade, two clocks. */
static QdDocument *
pieces_model (void)
{
  QdTestModel m;

  qd_test_model_init (&m);
  qd_block_set_param_raw (qd_test_model_add_block (m.root, "test-gen", "G1"), "times",
                          "0, 0.1, 0.1, 0.25, 0.5, 1, 1, 1.5, 2, 2.75, 3");
  qd_block_set_param_raw (qd_test_model_add_block (m.root, "test-gen", "G2"), "times",
                          "0.1, 0.5, 0.5, 2, 3.5");
  qd_test_model_add_block (m.root, "test-sum", "Sum");
  qd_test_model_add_block (m.root, "test-pass", "Pass");
  qd_block_set_param_raw (qd_test_model_add_block (m.root, "test-ping", "P1"), "limit", "3");
  qd_block_set_param_raw (qd_test_model_add_block (m.root, "test-ping", "P2"), "limit", "3");
  qd_block_set_param_raw (qd_test_model_add_block (m.root, "test-sink", "Sink"), "n", "3");
  qd_block_set_param_raw (qd_test_model_add_block (m.root, "test-clock", "C1"), "period", "0.3");
  qd_block_set_param_raw (qd_test_model_add_block (m.root, "test-clock", "C2"), "period", "0.125");
  qd_test_model_connect (&m, m.root, "G1", 0, "Sum", 0);
  qd_test_model_connect (&m, m.root, "G2", 0, "Sum", 1);
  qd_test_model_connect (&m, m.root, "Sum", 0, "Pass", 0);
  qd_test_model_connect (&m, m.root, "Pass", 0, "Sink", 0);
  qd_test_model_connect (&m, m.root, "G2", 0, "P1", 0);
  qd_test_model_connect (&m, m.root, "P1", 0, "P2", 0);
  qd_test_model_connect (&m, m.root, "P2", 0, "Sink", 1);
  qd_test_model_connect (&m, m.root, "C2", 0, "Sink", 2);
  qd_test_set_settings (m.doc, 4, 0);
  qd_test_model_finish (&m);
  return m.doc;
}

static void
test_run_pieces (void)
{
  QdDocument *doc = pieces_model ();
  QdSimulation *sim;
  g_autoptr(GArray) whole = NULL;
  g_autoptr(GArray) pieces = NULL;
  g_autoptr(GError) error = NULL;
  guint64 events;

  sim = qd_test_compile_ok (doc, NULL);
  qd_test_log_reset ();
  run_ok (sim);
  events = qd_simulation_get_events (sim);
  whole = qd_test_log_take ();
  qd_simulation_free (sim);

  sim = qd_test_compile_ok (doc, NULL);
  g_assert_cmpint (qd_simulation_run_until (sim, 0.1, &error), ==, QD_RUN_DONE);
  g_assert_cmpfloat (qd_simulation_get_time (sim), ==, 0.1);
  g_assert_cmpint (qd_simulation_step (sim, 1, &error), ==, QD_RUN_STEPPED);
  g_assert_cmpint (qd_simulation_step (sim, 3, &error), ==, QD_RUN_STEPPED);
  g_assert_cmpint (qd_simulation_run_until (sim, 0.1, &error), ==, QD_RUN_DONE);
  g_assert_cmpint (qd_simulation_step (sim, 2, &error), ==, QD_RUN_STEPPED);
  g_assert_cmpint (qd_simulation_run_until (sim, 0.5, &error), ==, QD_RUN_DONE);
  for (guint k = 0; k < 7; k++)
    g_assert_cmpint (qd_simulation_step (sim, 1, &error), ==, QD_RUN_STEPPED);
  g_assert_cmpint (qd_simulation_run_until (sim, 2.0, &error), ==, QD_RUN_DONE);
  g_assert_cmpfloat (qd_simulation_get_time (sim), ==, 2.0);
  g_assert_cmpint (qd_simulation_step (sim, 10, &error), ==, QD_RUN_STEPPED);
  /* Beyond the final time: clamped. */
  g_assert_cmpint (qd_simulation_run_until (sim, 100, &error), ==, QD_RUN_DONE);
  g_assert_cmpfloat (qd_simulation_get_time (sim), ==, 4.0);
  g_assert_cmpint (qd_simulation_step (sim, 10, &error), ==, QD_RUN_DONE);
  run_ok (sim);
  g_assert_no_error (error);
  g_assert_cmpuint (qd_simulation_get_events (sim), ==, events);
  pieces = qd_test_log_take ();
  qd_simulation_free (sim);

  g_assert_cmpuint (whole->len, >, 100);
  qd_test_assert_logs_equal (whole, pieces);

  /* One event at a time, all the way. */
  sim = qd_test_compile_ok (doc, NULL);
  while (qd_simulation_step (sim, 1, &error) == QD_RUN_STEPPED)
    ;
  g_assert_no_error (error);
  run_ok (sim);
  g_clear_pointer (&pieces, g_array_unref);
  pieces = qd_test_log_take ();
  qd_test_assert_logs_equal (whole, pieces);
  qd_simulation_free (sim);
  g_object_unref (doc);
}

typedef struct
{
  QdSimulation *sim;
  guint64       seen;
} StopData;

/* Waits for progress (read from this thread) and asks for a stop. */
static gpointer
stopper_thread (gpointer data)
{
  StopData *d = data;
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  while (qd_simulation_get_events (d->sim) < 100000
         && g_get_monotonic_time () < deadline)
    g_usleep (1000);
  d->seen = qd_simulation_get_events (d->sim);
  qd_simulation_request_stop (d->sim);
  return NULL;
}

static void
test_run_stop (void)
{
  QdTestModel m;
  StopData d;
  GThread *thread;
  g_autoptr(GError) error = NULL;
  guint64 at_stop;

  qd_test_model_init (&m);
  qd_block_set_param_raw (qd_test_model_add_block (m.root, "test-clock", "Fast"), "period", "1e-9");
  qd_test_model_add_block (m.root, "test-pass", "Pass");
  qd_test_model_add_block (m.root, "test-sink", "Sink");
  qd_test_model_connect (&m, m.root, "Fast", 0, "Pass", 0);
  qd_test_model_connect (&m, m.root, "Pass", 0, "Sink", 0);
  qd_test_set_settings (m.doc, 1e9, 0);
  qd_test_model_finish (&m);

  qd_test_log_enabled = FALSE;
  d.sim = qd_test_compile_ok (m.doc, NULL);
  thread = g_thread_new ("stopper", stopper_thread, &d);
  g_assert_cmpint (qd_simulation_run (d.sim, &error), ==, QD_RUN_STOPPED);
  g_assert_no_error (error);
  g_thread_join (thread);
  at_stop = qd_simulation_get_events (d.sim);
  g_assert_cmpuint (d.seen, >=, 100000);
  g_assert_cmpuint (at_stop, >=, d.seen);
  /* Within a few thousand events of the request. */
  g_assert_cmpuint (at_stop - d.seen, <, 1000000);
  g_assert_cmpfloat (qd_simulation_get_time (d.sim), <, 1e9);

  /* Stopped, not finished: it resumes. */
  g_assert_cmpint (qd_simulation_step (d.sim, 5000, &error), ==, QD_RUN_STEPPED);
  g_assert_cmpuint (qd_simulation_get_events (d.sim), ==, at_stop + 5000);
  qd_test_log_enabled = TRUE;
  qd_simulation_free (d.sim);
  g_object_unref (m.doc);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  qd_test_register_sim_blocks ();

  g_test_add_func ("/run/counts", test_run_counts);
  g_test_add_func ("/run/event-order", test_run_event_order);
  g_test_add_func ("/run/flattening", test_run_flattening);
  g_test_add_func ("/run/priority", test_run_priority);
  g_test_add_func ("/run/priority-now-queue", test_run_priority_now_queue);
  g_test_add_func ("/run/static-blocks", test_run_static_blocks);
  g_test_add_func ("/run/static-start", test_run_static_start);
  g_test_add_func ("/run/illegitimate", test_run_illegitimate);
  g_test_add_func ("/run/lost-time-advance", test_run_lost_time_advance);
  g_test_add_func ("/run/nan", test_run_nan);
  g_test_add_func ("/run/fail", test_run_fail);
  g_test_add_func ("/run/pieces", test_run_pieces);
  g_test_add_func ("/run/stop", test_run_stop);

  return g_test_run ();
}

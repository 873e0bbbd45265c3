/* test-lua.c: Lua Atomic blocks and the user's library of Lua blocks
 *
 * The templates are held to the built-in blocks they mirror: the
 * textbook's generator → processor in Lua gives the same event times,
 * values and transition counts as the built-in Generator → Server, and
 * the Lua QSS1 integrator gives Cellier's 17 steps exactly as the
 * built-in Integrator does. Every way out of the sandbox is refused with
 * its message and the script line, every error of a script stops the run
 * at the block with its line, and library blocks are registered, run,
 * round-trip through a file and are listed by `qdevs-cli blocks --json`.
 */
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "qd-test-util.h"

static char *
template_text (const char *name)
{
  g_autofree char *path = qd_test_source_path ("data", "lua-templates", name, NULL);
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* A Lua Atomic named @name running the template @file. */
static QdBlock *
add_lua_template (QdDocument *doc,
                  const char *name,
                  const char *file,
                  const char *values)
{
  g_autofree char *script = template_text (file);
  QdBlock *block = qd_test_add_block (doc, "lua", name);

  qd_test_set_param (doc, block, "script", script);
  qd_test_set_param (doc, block, "values", values);
  return block;
}

static void
block_stats (QdSimulation *sim,
             const char   *path,
             guint64      *n_int,
             guint64      *n_ext)
{
  for (guint i = 0; i < qd_simulation_get_n_atomics (sim); i++)
    if (strcmp (qd_simulation_get_atomic (sim, i)->path, path) == 0)
      {
        qd_simulation_get_block_stats (sim, i, n_int, n_ext);
        return;
      }
  g_assert_not_reached ();
}

/* The statistic @name of the block at @path (after the run). */
static double
stat_value (QdSimulation *sim,
            const char   *path,
            const char   *name)
{
  GPtrArray *stats = qd_simulation_get_stats (sim);

  for (guint i = 0; i < stats->len; i++)
    {
      const QdStat *stat = g_ptr_array_index (stats, i);

      if (strcmp (stat->path, path) == 0 && strcmp (stat->name, name) == 0)
        return stat->value;
    }
  g_error ("no statistic %s of %s", name, path);
}

/* -------------------------------------------------------------------- */
/* The templates against the built-in blocks */

static QdSimulation *
run_generator_processor (gboolean lua)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *gen, *proc, *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;

  if (lua)
    {
      gen = add_lua_template (doc, "Generator", "generator.lua", "period = 0.7");
      proc = add_lua_template (doc, "Processor", "processor.lua", "time = 1.5");
    }
  else
    {
      gen = qd_test_add_block (doc, "generator", "Generator");
      qd_test_set_param (doc, gen, "distribution", "deterministic");
      qd_test_set_param (doc, gen, "period", "0.7");
      proc = qd_test_add_block (doc, "server", "Processor");
      qd_test_set_param (doc, proc, "distribution", "deterministic");
      qd_test_set_param (doc, proc, "mean", "1.5");
    }
  qd_test_connect (doc, gen, 0, proc, 0);
  qd_test_connect (doc, proc, 0, scope, 0);
  qd_test_set_final_time (doc, 50.0);
  sim = qd_test_compile (doc);
  qd_test_run (sim);
  g_object_unref (doc);
  return sim;
}

static void
test_generator_processor (void)
{
  QdSimulation *builtin = run_generator_processor (FALSE);
  QdSimulation *lua = run_generator_processor (TRUE);
  QdTrace *a = qd_test_find_trace (builtin, "/Scope/x1");
  QdTrace *b = qd_test_find_trace (lua, "/Scope/x1");
  guint64 int_a, ext_a, int_b, ext_b;

  /* 71 jobs by t = 50 (every 0.7), one in three served (1.5 s each,
   * the two arriving meanwhile ignored). */
  g_assert_cmpuint (qd_trace_get_length (a), >, 20);
  g_assert_cmpuint (qd_trace_get_length (b), ==, qd_trace_get_length (a));
  for (gsize i = 0; i < qd_trace_get_length (a); i++)
    {
      const QdSignal *sa = qd_trace_get (a, i), *sb = qd_trace_get (b, i);

      g_assert_cmpfloat (sb->t, ==, sa->t);
      g_assert_cmpfloat (sb->c[0], ==, sa->c[0]);
    }

  block_stats (builtin, "/Generator", &int_a, &ext_a);
  block_stats (lua, "/Generator", &int_b, &ext_b);
  g_assert_cmpuint (int_a, ==, 71);
  g_assert_cmpuint (int_b, ==, int_a);
  g_assert_cmpuint (ext_b, ==, ext_a);
  block_stats (builtin, "/Processor", &int_a, &ext_a);
  block_stats (lua, "/Processor", &int_b, &ext_b);
  g_assert_cmpuint (ext_b, ==, ext_a);
  /* The Server also says "ready" once at the start. */
  g_assert_cmpuint (int_b, ==, int_a - 1);
  g_assert_cmpuint (int_b, ==, qd_trace_get_length (b));
  /* The template's exit reports what the Server reports. */
  g_assert_cmpfloat (stat_value (lua, "/Processor", "served"), ==,
                     stat_value (builtin, "/Processor", "served"));
  g_assert_cmpfloat (stat_value (lua, "/Processor", "ignored"), ==,
                     stat_value (builtin, "/Processor", "lost"));
  g_assert_cmpfloat (stat_value (lua, "/Processor", "served"), ==, int_b);

  qd_simulation_free (builtin);
  qd_simulation_free (lua);
}

/* The queue template loses no job: jobs every 0.5 served in 1 each
 * leave at 0.5 + k, in order. */
static void
test_queue (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *gen = add_lua_template (doc, "Generator", "generator.lua", "period = 0.5");
  QdBlock *queue = add_lua_template (doc, "Queue", "queue.lua", "time = 1");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;
  QdTrace *trace;

  qd_test_connect (doc, gen, 0, queue, 0);
  qd_test_connect (doc, queue, 0, scope, 0);
  qd_test_set_final_time (doc, 10.25);
  sim = qd_test_compile (doc);
  trace = qd_test_run_and_find (sim, "/Scope/x1");
  g_assert_cmpuint (qd_trace_get_length (trace), ==, 9);
  for (guint k = 1; k <= 9; k++)
    {
      g_assert_cmpfloat (qd_trace_get (trace, k - 1)->t, ==, 0.5 + k);
      g_assert_cmpfloat (qd_trace_get (trace, k - 1)->c[0], ==, k);
    }
  qd_simulation_free (sim);
  g_object_unref (doc);
}

/* Cellier's first-order example with the built-in Integrator or the Lua
 * QSS1 template in its place. */
static QdSimulation *
run_cellier (gboolean lua)
{
  g_autofree char *path = qd_test_source_path ("data", "examples",
                                               "cellier-first-order.qdevs", NULL);
  g_autoptr(GError) error = NULL;
  QdDocument *doc = qd_document_load (path, &error);
  QdSystem *root;
  QdBlock *integ, *sum, *gain, *scope;
  QdSimulation *sim;

  g_assert_no_error (error);
  root = qd_document_get_root (doc);
  if (lua)
    {
      sum = qd_system_find_block_by_name (root, "Sum");
      gain = qd_system_find_block_by_name (root, "Gain");
      scope = qd_system_find_block_by_name (root, "Scope");
      qd_document_remove_block (doc, qd_system_find_block_by_name (root, "Integrator"));
      integ = add_lua_template (doc, "Integrator", "qss1-integrator.lua",
                                "x0 = 10; dq = 1");
      qd_test_connect (doc, sum, 0, integ, 0);
      qd_test_connect (doc, integ, 0, gain, 0);
      qd_test_connect (doc, integ, 0, scope, 0);
    }
  sim = qd_test_compile (doc);
  qd_test_run (sim);
  g_object_unref (doc);
  return sim;
}

static void
test_cellier (void)
{
  QdSimulation *builtin = run_cellier (FALSE);
  QdSimulation *lua = run_cellier (TRUE);
  QdTrace *a = qd_test_find_trace (builtin, "/Scope/x");
  QdTrace *b = qd_test_find_trace (lua, "/Scope/x");
  guint64 n_int, n_ext;

  g_assert_cmpuint (qd_trace_get_length (a), ==, 17);
  g_assert_cmpuint (qd_trace_get_length (b), ==, 17);
  for (guint i = 0; i < 17; i++)
    {
      const QdSignal *sa = qd_trace_get (a, i), *sb = qd_trace_get (b, i);

      g_assert_cmpfloat_with_epsilon (sb->t, sa->t, 1e-12);
      /* The levels are exact: 10, 9, ..., 2, 3, ..., 10. */
      g_assert_cmpfloat (sb->c[0], ==, sa->c[0]);
      g_assert_cmpint (sb->order, ==, 0);
    }
  g_assert_cmpfloat_with_epsilon (qd_trace_get (b, 1)->t, 0.1, 1e-15);
  block_stats (lua, "/Integrator", &n_int, &n_ext);
  g_assert_cmpuint (n_int, ==, 17);

  qd_simulation_free (builtin);
  qd_simulation_free (lua);
}

/* -------------------------------------------------------------------- */
/* Errors and the sandbox */

/* A source whose dint (line 7) runs @body; the other functions are
 * trivial. */
#define SCRIPT_HEAD "--@inputs 0\n--@outputs 1\n" SCRIPT_FUNCS
#define SCRIPT_FUNCS \
  "function init(p) return { n = 0 } end\n" \
  "function ta(s) return 1 end\n" \
  "function lambda(s, t) out(0, s.n) end\n" \
  "function dext(s, t, e, port, x) end\n"

/* A model of one Lua Atomic @name running @script, into a Terminator. */
static QdDocument *
script_model (const char *name,
              const char *script)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *lua = qd_test_add_block (doc, "lua", name);
  QdBlock *term = qd_test_add_block (doc, "terminator", "End");

  qd_test_set_param (doc, lua, "script", script);
  qd_test_connect (doc, lua, 0, term, 0);
  return doc;
}

/* Runs a one-block model with @script; returns the message of the error
 * that stopped it (at the start or during the run), or NULL. */
static char *
run_script (const char *script)
{
  QdDocument *doc = script_model ("Lua", script);
  g_autoptr(GError) error = NULL;
  QdSimulation *sim;
  char *message = NULL;

  qd_test_set_final_time (doc, 5.0);
  sim = qd_simulation_new (doc, NULL, NULL, &error);
  if (sim != NULL && qd_simulation_run (sim, &error) != QD_RUN_ERROR)
    g_clear_error (&error);
  if (error != NULL)
    message = g_strdup (error->message);
  g_clear_pointer (&sim, qd_simulation_free);
  g_object_unref (doc);
  return message;
}

static void
assert_script_error (const char *script,
                     const char *expected)
{
  g_autofree char *message = run_script (script);

  if (message == NULL || strstr (message, expected) == NULL)
    g_error ("expected an error with \"%s\", got \"%s\"", expected,
             message != NULL ? message : "(none)");
}

static void
assert_dint_error (const char *body,
                   const char *expected)
{
  g_autofree char *script = g_strconcat (SCRIPT_HEAD,
                                         "function dint(s, t)\n", body,
                                         "\nend\n", NULL);
  g_autofree char *full = g_strconcat ("/Lua: script line 8: ", expected, NULL);

  assert_script_error (script, full);
}

static void
test_sandbox (void)
{
  assert_dint_error ("  os.execute('touch escaped')", "'os' is not available");
  assert_dint_error ("  local f = io.open('/etc/passwd')", "'io' is not available");
  assert_dint_error ("  local m = require('socket')", "'require' is not available");
  assert_dint_error ("  load('return 1')()", "'load' is not available");
  assert_dint_error ("  dofile('x.lua')", "'dofile' is not available");
  assert_dint_error ("  debug.sethook()", "'debug' is not available");
  assert_dint_error ("  local b = string.rep('x', 1 << 30)",
                     "the Lua blocks of this run used more than their 256 MiB of memory");
  assert_dint_error ("  local t = {} for i = 1, 1e9 do t[i] = i end",
                     "the Lua blocks of this run used more than their 256 MiB of memory");
  assert_dint_error ("  while true do end", "the call ran more than 50000000 "
                     "instructions (an endless loop?)");
  /* A coroutine is held to the same budget. */
  assert_dint_error ("  coroutine.wrap(function() while true do end end)()",
                     "the call ran more than 50000000 instructions (an "
                     "endless loop?)");
  /* string.dump would give bytecode; it is gone too. */
  assert_dint_error ("  string.dump(ta)", "attempt to call a nil value");
  g_assert_false (g_file_test ("escaped", G_FILE_TEST_EXISTS));
}

static void
test_script_errors (void)
{
  assert_dint_error ("  error('the queue is full')", "the queue is full");
  assert_dint_error ("  local x = s.missing.field",
                     "attempt to index a nil value (field 'missing')");
  /* Through a coroutine: the line of the error, not of the call. */
  assert_script_error (SCRIPT_HEAD "function dint(s, t)\n"
                       "  local co = coroutine.wrap(function()\n"
                       "    error('deep')\n"
                       "  end)\n"
                       "  co()\n"
                       "end\n",
                       "/Lua: script line 9: deep");
  /* Errors found in C: the line of the function's definition. */
  assert_script_error ("--@inputs 0\n--@outputs 1\n"
                       "function init(p) return {} end\n"
                       "function ta(s) return -1 end\n"
                       "function lambda(s, t) end\n"
                       "function dint(s, t) end\n"
                       "function dext(s, t, e, port, x) end\n",
                       "/Lua: script line 4: ta returned -1; a time advance is 0 or more");
  assert_script_error ("--@inputs 0\n--@outputs 1\n"
                       "function init(p) return {} end\n"
                       "function ta(s) return 0/0 end\n"
                       "function lambda(s, t) end\n"
                       "function dint(s, t) end\n"
                       "function dext(s, t, e, port, x) end\n",
                       "/Lua: script line 4: ta returned NaN");
  assert_script_error ("--@inputs 0\n--@outputs 1\n"
                       "function init(p) return {} end\n"
                       "function ta(s) return 'soon' end\n"
                       "function lambda(s, t) end\n"
                       "function dint(s, t) end\n"
                       "function dext(s, t, e, port, x) end\n",
                       "/Lua: script line 4: ta returned a string");
  assert_script_error ("--@inputs 0\n--@outputs 1\n"
                       "function init(p) return {} end\n"
                       "function ta(s) return 1 end\n"
                       "function lambda(s, t)\n"
                       "  out(0, 0/0)\n"
                       "end\n"
                       "function dint(s, t) end\n"
                       "function dext(s, t, e, port, x) end\n",
                       "/Lua: script line 6: output 0 is NaN");
  assert_script_error ("--@inputs 0\n--@outputs 1\n"
                       "function init(p) return {} end\n"
                       "function ta(s) return 1 end\n"
                       "function lambda(s, t)\n"
                       "  return { [0] = 1, [3] = 2 }\n"
                       "end\n"
                       "function dint(s, t) end\n"
                       "function dext(s, t, e, port, x) end\n",
                       "/Lua: script line 5: output port 3 does not exist");
  assert_script_error ("--@inputs 0\n--@outputs 1\n"
                       "function init(p) return {} end\n"
                       "function ta(s) return 1 end\n"
                       "function lambda(s, t)\n"
                       "  return { [0] = { 1, 2, 3, 4, 5 } }\n"
                       "end\n"
                       "function dint(s, t) end\n"
                       "function dext(s, t, e, port, x) end\n",
                       "/Lua: script line 5: output 0 is a table of 5 coefficients");
  /* A syntax error, and a function missing: found before the run. */
  assert_script_error (SCRIPT_HEAD "function dint(s, t)\n  s.n = s.n +\nend\n",
                       "/Lua: script line 9: unexpected symbol near 'end'");
  assert_script_error (SCRIPT_HEAD, "/Lua: script: the script defines no function dint");
  assert_script_error ("--@colour red\n" SCRIPT_HEAD "function dint(s, t) end\n",
                       "/Lua: script line 1: unknown header line --@colour");
}

/* The header declares the ports: the block has them, Check and Run too,
 * and a script with fewer takes the links of the ports gone with it (one
 * command, undone as one). */
static void
test_ports_from_header (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *lua = qd_test_add_block (doc, "lua", "Lua");
  QdBlock *one = qd_test_add_block (doc, "constant", "One");
  QdBlock *two = qd_test_add_block (doc, "constant", "Two");
  QdBlock *end0 = qd_test_add_block (doc, "terminator", "End 0");
  QdBlock *end1 = qd_test_add_block (doc, "terminator", "End 1");
  QdBlock *end2 = qd_test_add_block (doc, "terminator", "End 2");
  guint n_in = 0, n_out = 0;
  QdSimulation *sim;

  /* Without a declaration: one input, one output. */
  qd_test_set_param (doc, lua, "script", SCRIPT_FUNCS "function dint(s, t) end\n");
  g_assert_true (qd_block_count_ports (lua, &n_in, &n_out, NULL));
  g_assert_cmpuint (n_in, ==, 1);
  g_assert_cmpuint (n_out, ==, 1);

  qd_test_set_param (doc, lua, "script",
                     "--@inputs 2\n--@outputs 3\n" SCRIPT_FUNCS
                     "function dint(s, t) end\n");
  g_assert_true (qd_block_count_ports (lua, &n_in, &n_out, NULL));
  g_assert_cmpuint (n_in, ==, 2);
  g_assert_cmpuint (n_out, ==, 3);
  qd_test_connect (doc, one, 0, lua, 0);
  qd_test_connect (doc, two, 0, lua, 1);
  qd_test_connect (doc, lua, 0, end0, 0);
  qd_test_connect (doc, lua, 1, end1, 0);
  qd_test_connect (doc, lua, 2, end2, 0);
  sim = qd_test_compile (doc);
  qd_test_run (sim);
  qd_simulation_free (sim);

  /* One input, one output: the other links go, in the same command. */
  qd_test_set_param (doc, lua, "script",
                     "--@inputs 1\n--@outputs 1\n" SCRIPT_FUNCS
                     "function dint(s, t) end\n");
  g_assert_true (qd_block_count_ports (lua, &n_in, &n_out, NULL));
  g_assert_cmpuint (n_in, ==, 1);
  g_assert_cmpuint (n_out, ==, 1);
  g_assert_null (qd_system_find_driver (qd_document_get_root (doc), lua->id, 1, NULL));
  g_assert_null (qd_system_find_driver (qd_document_get_root (doc), end2->id, 0, NULL));
  g_assert_nonnull (qd_system_find_driver (qd_document_get_root (doc), end0->id, 0, NULL));
  g_assert_true (qd_document_undo (doc));
  g_assert_nonnull (qd_system_find_driver (qd_document_get_root (doc), end2->id, 0, NULL));
  g_assert_nonnull (qd_system_find_driver (qd_document_get_root (doc), lua->id, 1, NULL));
  g_object_unref (doc);
}

/* math.random starts from the same seed in every run: two runs of a
 * source with random times give the same events. */
static double
random_run_sum (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *lua = qd_test_add_block (doc, "lua", "Lua");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;
  QdTrace *trace;
  double sum = 0;

  qd_test_set_param (doc, lua, "script",
                     "--@inputs 0\n--@outputs 1\n"
                     "function init(p) return { sigma = math.random() } end\n"
                     "function ta(s) return s.sigma end\n"
                     "function lambda(s, t) out(0, t) end\n"
                     "function dint(s, t) s.sigma = math.random() end\n"
                     "function dext(s, t, e, port, x) end\n");
  qd_test_connect (doc, lua, 0, scope, 0);
  sim = qd_test_compile (doc);
  trace = qd_test_run_and_find (sim, "/Scope/x1");
  g_assert_cmpuint (qd_trace_get_length (trace), >, 10);
  for (gsize i = 0; i < qd_trace_get_length (trace); i++)
    sum += qd_trace_get (trace, i)->t;
  qd_simulation_free (sim);
  g_object_unref (doc);
  return sum;
}

static void
test_random_repeats (void)
{
  g_assert_cmpfloat (random_run_sum (), ==, random_run_sum ());
}

/* The Lua blocks of a run share one interpreter, each script in its own
 * globals: two blocks running the same script keep their own global
 * variables and functions, their own library tables and their own
 * random sequence, whichever of them runs first. */
#define ISOLATION_SCRIPT \
  "--@inputs 0\n--@outputs 1\n--@param period 1 \"\"\n" \
  "count = 0\n" \
  "function init(p)\n" \
  "  period = p.period\n" \
  "  if period == 1 then math.pi = 3; string.upper = nil end\n" \
  "  first = math.random()\n" \
  "end\n" \
  "function ta(s) return period end\n" \
  "function lambda(s, t) out(0, count) end\n" \
  "function dint(s, t) count = count + 1 end\n" \
  "function dext(s, t, e, port, x) end\n" \
  "function exit(s, t)\n" \
  "  stat('count', count)\n" \
  "  stat('pi', math.pi)\n" \
  "  stat('upper', string.upper and #string.upper('ab') or 0)\n" \
  "  stat('method', #(('ab'):upper()))\n" \
  "  stat('first', first)\n" \
  "  stat('metatable', getmetatable('') == false and 1 or 0)\n" \
  "end\n"

static void
test_globals_apart (void)
{
  QdDocument *doc = qd_document_new ();
  const char *names[] = { "Every 1", "Every 3" };
  QdSimulation *sim;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      QdBlock *lua = qd_test_add_block (doc, "lua", names[i]);
      QdBlock *term = qd_test_add_block (doc, "terminator", i == 0 ? "End 1" : "End 3");

      qd_test_set_param (doc, lua, "script", ISOLATION_SCRIPT);
      qd_test_set_param (doc, lua, "values", i == 0 ? "period = 1" : "period = 3");
      qd_test_connect (doc, lua, 0, term, 0);
    }
  qd_test_set_final_time (doc, 10.5);
  sim = qd_test_compile (doc);
  qd_test_run (sim);
  qd_simulation_finish (sim);

  g_assert_cmpfloat (stat_value (sim, "/Every 1", "count"), ==, 10);
  g_assert_cmpfloat (stat_value (sim, "/Every 3", "count"), ==, 3);
  /* The first block changed its math and string tables, not the other's,
   * and not the strings' methods. */
  g_assert_cmpfloat (stat_value (sim, "/Every 1", "pi"), ==, 3);
  g_assert_cmpfloat (stat_value (sim, "/Every 3", "pi"), ==, G_PI);
  g_assert_cmpfloat (stat_value (sim, "/Every 1", "upper"), ==, 0);
  g_assert_cmpfloat (stat_value (sim, "/Every 3", "upper"), ==, 2);
  g_assert_cmpfloat (stat_value (sim, "/Every 1", "method"), ==, 2);
  g_assert_cmpfloat (stat_value (sim, "/Every 1", "metatable"), ==, 1);
  /* Each block's random sequence starts from the same seed. */
  g_assert_cmpfloat (stat_value (sim, "/Every 1", "first"), ==,
                     stat_value (sim, "/Every 3", "first"));
  qd_simulation_free (sim);
  g_object_unref (doc);
}

/* Values of the script's parameters: header defaults, replaced by the
 * block's "values", expressions over the model variables. */
static void
test_values (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *gen = add_lua_template (doc, "Generator", "generator.lua",
                                   "period = 2 * k");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  g_autoptr(GError) error = NULL;
  QdSimulation *sim;
  QdTrace *trace;

  g_assert_true (qd_document_set_variable (doc, "k", "0.25", &error));
  g_assert_no_error (error);
  qd_test_connect (doc, gen, 0, scope, 0);
  qd_test_set_final_time (doc, 2.2);
  sim = qd_test_compile (doc);
  trace = qd_test_run_and_find (sim, "/Scope/x1");
  /* every 0.5: at 0.5, 1, 1.5, 2 */
  g_assert_cmpuint (qd_trace_get_length (trace), ==, 4);
  g_assert_cmpfloat (qd_trace_get (trace, 3)->t, ==, 2.0);
  g_assert_cmpfloat (qd_trace_get (trace, 3)->c[0], ==, 4.0);
  qd_simulation_free (sim);

  qd_test_set_param (doc, gen, "values", "period = 2 * kk");
  sim = qd_simulation_new (doc, NULL, NULL, &error);
  g_assert_null (sim);
  g_assert_nonnull (strstr (error->message,
                            "/Generator: script: parameter 'period' = '2 * kk': "
                            "unknown name 'kk'"));
  g_object_unref (doc);
}

/* -------------------------------------------------------------------- */
/* The user's library */

static const char library_gain[] =
  "--@name Twice\n"
  "--@category Custom\n"
  "--@glyph 2×\n"
  "--@doc Emits its input times k.\n"
  "--@inputs 1\n"
  "--@outputs 1\n"
  "--@param k 2 \"The factor\"\n"
  "function init(p) return { k = p.k, v = 0, sigma = math.huge } end\n"
  "function ta(s) return s.sigma end\n"
  "function dext(s, t, e, port, x) s.v, s.sigma = s.k * x, 0 end\n"
  "function lambda(s, t) return { [0] = s.v } end\n"
  "function dint(s, t) s.sigma = math.huge end\n";

static char *
make_library (void)
{
  g_autoptr(GError) error = NULL;
  char *home = g_dir_make_tmp ("qdevs-lua-XXXXXX", &error);
  g_autofree char *dir = g_build_filename (home, "qdevs", "blocks", NULL);
  g_autofree char *good = g_build_filename (dir, "twice.lua", NULL);
  g_autofree char *bad = g_build_filename (dir, "broken.lua", NULL);

  g_assert_no_error (error);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (good, library_gain, -1, NULL));
  g_assert_true (g_file_set_contents (bad, "--@inputs 1\nfunction init(p)\n", -1, NULL));
  return home;
}

static void
remove_library (const char *home)
{
  g_autofree char *dir = g_build_filename (home, "qdevs", "blocks", NULL);
  g_autofree char *good = g_build_filename (dir, "twice.lua", NULL);
  g_autofree char *bad = g_build_filename (dir, "broken.lua", NULL);
  g_autofree char *mid = g_build_filename (home, "qdevs", NULL);

  g_remove (good);
  g_remove (bad);
  g_rmdir (dir);
  g_rmdir (mid);
  g_rmdir (home);
}

static void
test_library (void)
{
  g_autofree char *home = make_library ();
  g_autofree char *dir = g_build_filename (home, "qdevs", "blocks", NULL);
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  const QdBlockType *type;
  QdDocument *doc, *again;
  QdBlock *step, *twice, *scope;
  QdSimulation *sim;
  QdTrace *trace;
  g_autofree char *data = NULL;
  g_autofree char *data_again = NULL;

  g_assert_cmpuint (qd_blocks_load_library (dir, problems), ==, 1);
  g_assert_cmpuint (problems->len, ==, 1);
  g_assert_nonnull (strstr (g_ptr_array_index (problems, 0), "broken.lua: script line 3:"));
  type = qd_registry_lookup ("lua:twice");
  g_assert_nonnull (type);
  g_assert_cmpstr (type->name, ==, "Twice");
  g_assert_cmpstr (type->glyph, ==, "2×");
  g_assert_cmpuint (type->inputs.count, ==, 1);
  g_assert_cmpuint (type->n_params, ==, 1);
  g_assert_cmpstr (type->params[0].name, ==, "k");
  g_assert_cmpstr (type->params[0].doc, ==, "The factor");
  /* Loading again adds nothing. */
  g_assert_cmpuint (qd_blocks_load_library (dir, NULL), ==, 0);

  doc = qd_document_new ();
  step = qd_test_add_block (doc, "step", "Step");
  twice = qd_test_add_block (doc, "lua:twice", "Twice");
  scope = qd_test_add_block (doc, "scope", "Scope");
  qd_test_set_param (doc, step, "final", "3");
  qd_test_set_param (doc, twice, "k", "-1.5");
  qd_test_connect (doc, step, 0, twice, 0);
  qd_test_connect (doc, twice, 0, scope, 0);

  /* The file names the library block; it loads back the same. */
  data = qd_document_to_data (doc, NULL);
  g_assert_nonnull (strstr (data, "\"type\": \"lua:twice\""));
  again = qd_document_load_data (data, strlen (data), "twice.qdevs", &error);
  g_assert_no_error (error);
  data_again = qd_document_to_data (again, NULL);
  g_assert_cmpstr (data_again, ==, data);

  sim = qd_test_compile (again);
  trace = qd_test_run_and_find (sim, "/Scope/x1");
  g_assert_cmpfloat (qd_trace_eval (trace, qd_simulation_get_final_time (sim)), ==, -4.5);
  qd_simulation_free (sim);
  g_object_unref (again);
  g_object_unref (doc);
  remove_library (home);
}

/* A diagram with a library block that is not installed opens, keeps
 * the block (its ports and parameters) as a placeholder, saves back
 * byte for byte, and does not run: Check says what is missing and
 * where it was looked for. */
static void
test_placeholder (void)
{
  g_autofree char *home = make_library ();
  g_autofree char *dir = g_build_filename (home, "qdevs", "blocks", NULL);
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) text = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *expected = NULL;
  QdDocument *doc;
  QdBlock *step, *twice, *scope;
  const QdProblem *problem;
  guint n_in = 0, n_out = 0;

  qd_blocks_load_library (dir, NULL);
  doc = qd_document_new ();
  step = qd_test_add_block (doc, "step", "Step");
  twice = qd_test_add_block (doc, "lua:twice", "Twice");
  scope = qd_test_add_block (doc, "scope", "Scope");
  qd_test_set_param (doc, twice, "k", "3*2");
  qd_test_connect (doc, step, 0, twice, 0);
  qd_test_connect (doc, twice, 0, scope, 0);
  saved = qd_document_to_data (doc, NULL);
  text = g_string_new (saved);
  g_clear_pointer (&saved, g_free);
  g_object_unref (doc);
  g_string_replace (text, "lua:twice", "lua:absent", 0);

  doc = qd_document_load_data (text->str, text->len, "absent.qdevs", &error);
  g_assert_no_error (error);
  twice = qd_system_find_block_by_name (qd_document_get_root (doc), "Twice");
  g_assert_null (qd_block_get_type_info (twice));
  g_assert_true (qd_block_count_ports (twice, &n_in, &n_out, NULL));
  g_assert_cmpuint (n_in, ==, 1);
  g_assert_cmpuint (n_out, ==, 1);
  g_assert_cmpstr (qd_block_get_param (twice, "k"), ==, "3*2");
  saved = qd_document_to_data (doc, NULL);
  g_assert_cmpstr (saved, ==, text->str);

  g_assert_false (qd_document_check (doc, NULL, problems));
  g_assert_cmpuint (problems->len, ==, 1);
  problem = g_ptr_array_index (problems, 0);
  g_assert_cmpstr (problem->path, ==, "/Twice");
  g_test_message ("%s", problem->message);
  g_assert_true (g_str_has_prefix (problem->message,
                                   "block type 'lua:absent' is missing (a Lua "
                                   "library block, looked for as "));
  expected = g_strdup_printf ("%s/absent.lua", dir);
  g_assert_nonnull (strstr (problem->message, expected));
  g_assert_null (qd_simulation_new (doc, NULL, NULL, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_UNKNOWN_TYPE);
  g_object_unref (doc);

  /* Any other unknown type is still a mistake in the file. */
  g_string_replace (text, "lua:absent", "twice", 0);
  g_clear_error (&error);
  g_assert_null (qd_document_load_data (text->str, text->len, "typo.qdevs", &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_UNKNOWN_TYPE);
  remove_library (home);
}

static void
test_cli_blocks (void)
{
  g_autofree char *home = make_library ();
  g_auto(GStrv) env = g_environ_setenv (g_get_environ (), "XDG_DATA_HOME", home, TRUE);
  g_autofree char *cli = g_build_filename (g_getenv ("QD_BUILD_DIR"), "app",
                                           "qdevs-cli", NULL);
  char *argv[] = { cli, "blocks", "--json", NULL };
  g_auto(QdCliResult) r = { 0 };

  qd_test_spawn (&r, NULL, env, argv);
  g_assert_cmpint (r.status, ==, 0);
  g_assert_nonnull (strstr (r.out, "\"id\": \"lua:twice\""));
  g_assert_nonnull (strstr (r.out, "\"id\": \"lua\""));
  /* The broken one is left out, and says why. */
  g_assert_null (strstr (r.out, "lua:broken"));
  g_assert_nonnull (strstr (r.err, "broken.lua: script line 3:"));
  remove_library (home);
}

/* Saves a one-block model whose Lua Atomic "Faulty" runs @script. */
static char *
save_script_model (const char *script)
{
  QdDocument *doc = script_model ("Faulty", script);
  g_autoptr(GError) error = NULL;
  char *path = g_build_filename (g_get_tmp_dir (), "qdevs-lua-error.qdevs", NULL);

  g_assert_true (qd_document_save (doc, path, &error));
  g_assert_no_error (error);
  g_object_unref (doc);
  return path;
}

/* `qdevs-cli run` on @script: exit status 3 and @expected (after the
 * file name) on standard error, whether the error is found by Check,
 * in init or during the run. */
static void
assert_cli_run_error (const char *script,
                      const char *expected)
{
  g_autofree char *path = save_script_model (script);
  g_autofree char *full = g_strconcat (path, ": ", expected, NULL);
  g_auto(QdCliResult) r = { 0 };

  qd_test_run_cli (&r, NULL, "run", path, NULL);
  g_assert_cmpint (r.status, ==, 3);
  if (strstr (r.err, full) == NULL)
    g_error ("expected \"%s\" on standard error, got \"%s\"", full, r.err);
  g_remove (path);
}

/* qdevs-cli run: every script error is exit status 3 and names the
 * block and the line, a syntax or header error found before the run as
 * much as an error during it. */
static void
test_cli_run_error (void)
{
  assert_cli_run_error (SCRIPT_HEAD "function dint(s, t)\n  s.n = s.n + nil\nend\n",
                        "/Faulty: script line 8: attempt to perform "
                        "arithmetic on a nil value");
  assert_cli_run_error (SCRIPT_HEAD "function dint(s, t)\n  s.n = s.n +\nend\n",
                        "/Faulty: script line 9: unexpected symbol near 'end'");
  assert_cli_run_error ("--@colour red\n" SCRIPT_HEAD "function dint(s, t) end\n",
                        "/Faulty: script line 1: unknown header line --@colour");
  assert_cli_run_error ("--@inputs 0\n--@outputs 1\n"
                        "function init(p) return p.missing.x end\n"
                        "function ta(s) return 1 end\n"
                        "function lambda(s, t) end\n"
                        "function dext(s, t, e, port, x) end\n"
                        "function dint(s, t) end\n",
                        "/Faulty: script line 3: attempt to index a nil value");
  assert_cli_run_error (SCRIPT_HEAD, "/Faulty: script: the script defines no function dint");
}

/* qdevs-cli check still finds a syntax error before any run: the model
 * is wrong (exit status 1), with the block and the line. */
static void
test_cli_check_error (void)
{
  g_autofree char *path = save_script_model (SCRIPT_HEAD "function dint(s, t)\n  s.n = s.n +\nend\n");
  g_auto(QdCliResult) r = { 0 };

  qd_test_run_cli (&r, NULL, "check", path, NULL);
  g_assert_cmpint (r.status, ==, 1);
  g_assert_nonnull (strstr (r.err, "/Faulty: script line 9: unexpected symbol near 'end'"));
  g_remove (path);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  g_test_add_func ("/lua/generator-processor", test_generator_processor);
  g_test_add_func ("/lua/queue", test_queue);
  g_test_add_func ("/lua/cellier", test_cellier);
  g_test_add_func ("/lua/sandbox", test_sandbox);
  g_test_add_func ("/lua/script-errors", test_script_errors);
  g_test_add_func ("/lua/values", test_values);
  g_test_add_func ("/lua/ports-from-header", test_ports_from_header);
  g_test_add_func ("/lua/random-repeats", test_random_repeats);
  g_test_add_func ("/lua/globals-apart", test_globals_apart);
  g_test_add_func ("/lua/library", test_library);
  g_test_add_func ("/lua/placeholder", test_placeholder);
  g_test_add_func ("/lua/cli-blocks", test_cli_blocks);
  g_test_add_func ("/lua/cli-run-error", test_cli_run_error);
  g_test_add_func ("/lua/cli-check-error", test_cli_check_error);
  return g_test_run ();
}

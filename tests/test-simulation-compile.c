/* test-simulation-compile.c: compiling documents into simulations
 *
 * The problems compiling finds (unknown types, bad parameters and
 * values, unconnected inputs, algebraic loops) and the values it gives
 * the blocks (defaults, inherited settings, choices, vectors,
 * variables). The models use the test-only block types of
 * qd-test-sim.h, so that these tests do not depend on the block library.
 */
#include <string.h>

#include "qd-test-sim.h"

/* -------------------------------------------------------------------- */
/* Compile problems */

/* qd_simulation_new_taking() drops the document once compiled (the
 * command line's runs, so that a large model's document and flat model
 * are not in memory at once): the document is gone before the run, which
 * is that of qd_simulation_new(); a model that does not compile reports
 * its problems and drops the document too. */
static void
test_compile_taking (void)
{
  g_autoptr(GPtrArray) problems =
    g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  g_autoptr(GError) error = NULL;
  QdDocument *doc = qd_test_small_model ();
  QdSimulation *sim;
  QdTrace *trace;
  QdTestModel m;

  g_object_add_weak_pointer (G_OBJECT (doc), (gpointer *) &doc);
  sim = qd_simulation_new_taking (doc, NULL, problems, &error);
  g_assert_no_error (error);
  g_assert_nonnull (sim);
  g_assert_null (doc);
  qd_test_run (sim);
  g_assert_cmpuint (qd_simulation_get_events (sim), ==, 15);
  g_assert_cmpuint (qd_simulation_get_transitions (sim), ==, 24);
  trace = g_ptr_array_index (qd_simulation_get_traces (sim), 0);
  g_assert_cmpstr (qd_trace_get_name (trace), ==, "/Sink/in");
  g_assert_cmpfloat (qd_trace_eval (trace, 2.5), ==, 2.0);
  qd_simulation_free (sim);

  qd_test_model_init (&m);
  qd_test_model_add_block (m.root, "no-such-type", "Mystery");
  qd_test_model_finish (&m);
  g_object_add_weak_pointer (G_OBJECT (m.doc), (gpointer *) &m.doc);
  g_assert_null (qd_simulation_new_taking (m.doc, NULL, problems, &error));
  g_assert_null (m.doc);
  g_assert_error (error, QD_ERROR, QD_ERROR_UNKNOWN_TYPE);
  g_assert_cmpuint (problems->len, ==, 1);
  g_assert_cmpstr (((QdProblem *) g_ptr_array_index (problems, 0))->path, ==, "/Mystery");
}

static void
test_compile_unknown_type (void)
{
  QdTestModel m;
  g_autoptr(GPtrArray) texts = NULL;
  g_autoptr(GPtrArray) problems =
    g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  QdProblem *p;

  qd_test_model_init (&m);
  qd_test_model_add_block (m.root, "no-such-type", "Mystery");
  qd_test_model_finish (&m);

  texts = qd_test_compile_problems (m.doc, NULL);
  g_assert_cmpuint (texts->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (texts, 0), ==,
                   "/Mystery: unknown block type 'no-such-type'; replace the "
                   "block, or load the library that provides this type");
  g_assert_false (qd_document_check (m.doc, NULL, problems));
  p = g_ptr_array_index (problems, 0);
  g_assert_cmpint (p->code, ==, QD_ERROR_UNKNOWN_TYPE);
  g_assert_cmpstr (p->path, ==, "/Mystery");
  g_assert_cmpstr (p->block_id, ==, "Mystery");
  g_object_unref (m.doc);
}

static void
test_compile_parameters (void)
{
  QdTestModel m;
  g_autoptr(GPtrArray) texts = NULL;
  QdBlock *b;
  g_autoptr(GError) error = NULL;

  qd_test_model_init (&m);
  b = qd_test_model_add_block (m.root, "test-params", "Unresolved");
  qd_block_set_param_raw (b, "k", "2*R2");
  b = qd_test_model_add_block (m.root, "test-params", "Range");
  qd_block_set_param_raw (b, "dqmin", "-1");
  b = qd_test_model_add_block (m.root, "test-params", "Whole");
  qd_block_set_param_raw (b, "n", "2.5");
  b = qd_test_model_add_block (m.root, "test-params", "Big");
  qd_block_set_param_raw (b, "n", "11");
  b = qd_test_model_add_block (m.root, "test-params", "Choice");
  qd_block_set_param_raw (b, "method", "QSS9");
  b = qd_test_model_add_block (m.root, "test-params", "Bool");
  qd_block_set_param_raw (b, "flag", "yes");
  b = qd_test_model_add_block (m.root, "test-params", "Vector");
  qd_block_set_param_raw (b, "w", "1, max(2, 3), 4*Q");
  b = qd_test_model_add_block (m.root, "test-params", "Checked");
  qd_block_set_param_raw (b, "w", "1, 2, 3");
  b = qd_test_model_add_block (m.root, "test-params", "Fine");
  qd_block_set_param_raw (b, "k", "R");
  g_assert_true (qd_document_set_variable (m.doc, "R", "4", &error));
  qd_test_model_finish (&m);

  texts = qd_test_compile_problems (m.doc, NULL);
  qd_test_assert_has_problem (texts, "/Unresolved: parameter 'k': column 3: unknown name 'R2'");
  qd_test_assert_has_problem (texts, "/Range: parameter 'dqmin' must be at least 0 (it is -1)");
  qd_test_assert_has_problem (texts, "/Whole: parameter 'n' must be a whole number (it is 2.5)");
  qd_test_assert_has_problem (texts, "/Big: parameter 'n' must be at most 10 (it is 11)");
  qd_test_assert_has_problem (texts, "/Choice: parameter 'method' must be one of QSS1, "
                             "QSS2, QSS3 (it is 'QSS9')");
  qd_test_assert_has_problem (texts, "/Bool: parameter 'flag' must be true or false (it is 'yes')");
  /* Columns count in the whole vector text. */
  qd_test_assert_has_problem (texts, "/Vector: parameter 'w': column 17: unknown name 'Q'");
  qd_test_assert_has_problem (texts, "/Checked: parameter 'w' must have 2 elements (it has 3)");
  /* Every problem, in block order; nothing about the fine block. */
  g_assert_cmpuint (texts->len, ==, 8);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (texts, 0), "/Unresolved: "));
  g_assert_true (g_str_has_prefix (g_ptr_array_index (texts, 7), "/Checked: "));
  g_object_unref (m.doc);
}

/* Values: defaults, inherited settings, choices, vectors, variables. */
static void
test_compile_values (void)
{
  QdTestModel m;
  QdSimulation *sim;
  const QdAtomic *a;
  const char *const overrides[] = { "R=5", "Z = R*2", NULL };
  QdSettings s;
  QdBlock *b;
  g_autoptr(GError) error = NULL;

  qd_test_model_init (&m);
  b = qd_test_model_add_block (m.root, "test-params", "P");
  qd_block_set_param_raw (b, "k", "R + C");
  qd_block_set_param_raw (b, "w", "R, -1, max(1, 2) * 2");
  qd_block_set_param_raw (b, "n", "3");
  qd_block_set_param_raw (b, "flag", "true");
  g_assert_true (qd_document_set_variable (m.doc, "R", "1", &error));
  g_assert_true (qd_document_set_variable (m.doc, "C", "R * 10", &error));
  s = *qd_document_get_settings (m.doc);
  s.dqmin = 0.25;
  s.method = (char *) "QSS3";
  g_assert_true (qd_document_set_settings (m.doc, &s, &error));
  g_assert_no_error (error);
  qd_test_model_finish (&m);

  /* Without overrides. */
  sim = qd_test_compile_ok (m.doc, NULL);
  a = qd_simulation_get_atomic (sim, 0);
  g_assert_cmpfloat (a->params[0].number, ==, 11.0);
  g_assert_cmpstr (a->params[0].text, ==, "R + C");
  g_assert_cmpfloat (a->params[2].number, ==, 0.25);   /* inherited */
  g_assert_cmpfloat (a->params[3].number, ==, 2);      /* QSS3 */
  g_assert_cmpstr (a->params[3].text, ==, "QSS3");
  g_assert_cmpfloat (a->params[4].number, ==, 1);
  g_assert_cmpuint (a->params[5].n_vector, ==, 3);
  g_assert_cmpfloat (a->params[5].vector[0], ==, 1);
  g_assert_cmpfloat (a->params[5].vector[1], ==, -1);
  g_assert_cmpfloat (a->params[5].vector[2], ==, 4);
  g_assert_cmpstr (a->params[6].text, ==, "out.csv");
  g_assert_cmpfloat (qd_simulation_get_variable (sim, "C"), ==, 10);
  g_assert_true (isnan (qd_simulation_get_variable (sim, "Z")));
  g_assert_cmpstr (a->path, ==, "/P");
  qd_simulation_free (sim);

  /* An override replaces R in place (C sees it) and adds Z. */
  sim = qd_test_compile_ok (m.doc, overrides);
  a = qd_simulation_get_atomic (sim, 0);
  g_assert_cmpfloat (qd_simulation_get_variable (sim, "R"), ==, 5);
  g_assert_cmpfloat (qd_simulation_get_variable (sim, "C"), ==, 50);
  g_assert_cmpfloat (qd_simulation_get_variable (sim, "Z"), ==, 10);
  g_assert_cmpfloat (a->params[0].number, ==, 55);
  g_assert_cmpfloat (a->params[5].vector[0], ==, 5);
  qd_simulation_free (sim);
  g_object_unref (m.doc);
}

/* Blocks whose parameters evaluate to the same values share one array
 * (whether each set them or left them at their defaults); a block with
 * another value, or another vector, has its own. The masks' test keeps
 * one text with two values apart (test-mask: /mask/scope). */
static void
test_compile_shared_params (void)
{
  QdTestModel m;
  QdSimulation *sim;
  const QdAtomic *a[5];
  QdBlock *b;

  qd_test_model_init (&m);
  b = qd_test_model_add_block (m.root, "test-params", "A");
  qd_block_set_param_raw (b, "k", "2");
  b = qd_test_model_add_block (m.root, "test-params", "B");
  qd_block_set_param_raw (b, "k", "2");
  qd_block_set_param_raw (b, "w", "1, 2");
  b = qd_test_model_add_block (m.root, "test-params", "C");
  qd_block_set_param_raw (b, "k", "3");
  b = qd_test_model_add_block (m.root, "test-params", "D");
  qd_block_set_param_raw (b, "k", "2");
  qd_block_set_param_raw (b, "w", "1, 3");
  b = qd_test_model_add_block (m.root, "test-params", "E");
  qd_block_set_param_raw (b, "k", "2");
  qd_test_model_finish (&m);

  sim = qd_test_compile_ok (m.doc, NULL);
  for (guint i = 0; i < G_N_ELEMENTS (a); i++)
    a[i] = qd_simulation_get_atomic (sim, i);
  g_assert_true (a[0]->params == a[1]->params);
  g_assert_true (a[0]->params == a[4]->params);
  g_assert_true (a[2]->params != a[0]->params);
  g_assert_true (a[3]->params != a[0]->params);
  g_assert_cmpfloat (a[0]->params[0].number, ==, 2);
  g_assert_cmpfloat (a[2]->params[0].number, ==, 3);
  g_assert_cmpfloat (a[0]->params[5].vector[1], ==, 2);
  g_assert_cmpfloat (a[3]->params[5].vector[1], ==, 3);
  g_assert_cmpfloat (a[3]->params[0].number, ==, 2);
  qd_simulation_free (sim);
  g_object_unref (m.doc);
}

static void
test_compile_variables (void)
{
  QdTestModel m;
  g_autoptr(GPtrArray) texts = NULL;
  g_autoptr(GPtrArray) texts2 = NULL;
  g_autoptr(GError) error = NULL;
  const char *const bad_overrides[] = { "nonsense", "2x=1", NULL };
  QdBlock *b;

  qd_test_model_init (&m);
  g_assert_true (qd_document_set_variable (m.doc, "R", "1", &error));
  /* Uses a variable defined after it. */
  g_assert_true (qd_document_set_variable (m.doc, "C", "2*Q", &error));
  g_assert_true (qd_document_set_variable (m.doc, "Q", "3", &error));
  g_assert_true (qd_document_set_variable (m.doc, "D", "1/0", &error));
  /* Uses C, which failed: no second problem. */
  b = qd_test_model_add_block (m.root, "test-params", "P");
  qd_block_set_param_raw (b, "k", "C + 1");
  qd_test_model_finish (&m);

  texts = qd_test_compile_problems (m.doc, NULL);
  g_assert_cmpuint (texts->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (texts, 0), ==,
                   "variable 'C' uses 'Q', which is defined after it; a "
                   "variable can use only those above it, so move 'Q' up");
  g_assert_cmpstr (g_ptr_array_index (texts, 1), ==,
                   "variable 'D' is not a finite number (it is inf); check "
                   "its expression");

  texts2 = qd_test_compile_problems (m.doc, bad_overrides);
  qd_test_assert_has_problem (texts2, "override 'nonsense': expected NAME=EXPRESSION");
  qd_test_assert_has_problem (texts2, "override '2x=1': '2x' is not a valid variable name");
  g_object_unref (m.doc);

  /* One that uses itself; one whose name is nowhere. */
  {
    g_autoptr(GPtrArray) texts3 = NULL;

    qd_test_model_init (&m);
    g_assert_true (qd_document_set_variable (m.doc, "S", "S + 1", &error));
    g_assert_true (qd_document_set_variable (m.doc, "U", "2*W", &error));
    qd_test_model_finish (&m);
    texts3 = qd_test_compile_problems (m.doc, NULL);
    qd_test_assert_has_problem (texts3, "variable 'S' uses itself; give it a value "
                        "that does not");
    qd_test_assert_has_problem (texts3, "variable 'U': column 3: unknown name 'W'");
    g_object_unref (m.doc);
  }
}

static void
test_compile_settings (void)
{
  QdTestModel m;
  g_autoptr(GPtrArray) texts = NULL;
  QdSettings s;
  QdProblem *p;
  g_autoptr(GPtrArray) problems =
    g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);

  qd_test_model_init (&m);
  qd_test_model_finish (&m);
  /* The document's commands refuse such settings; the compiler must not
   * rely on that, so the test breaks them behind the document's back. */
  s = *qd_document_get_settings (m.doc);
  ((QdSettings *) qd_document_get_settings (m.doc))->final_time = -1;
  texts = qd_test_compile_problems (m.doc, NULL);
  g_assert_cmpstr (g_ptr_array_index (texts, 0), ==,
                   "the final time (-1) must be greater than the start time "
                   "(0); change the simulation settings");
  g_assert_false (qd_document_check (m.doc, NULL, problems));
  p = g_ptr_array_index (problems, 0);
  g_assert_cmpstr (p->path, ==, "");
  g_assert_null (p->block_id);
  ((QdSettings *) qd_document_get_settings (m.doc))->final_time = s.final_time;
  g_assert_true (qd_document_check (m.doc, NULL, NULL));
  g_object_unref (m.doc);
}

static void
test_compile_unconnected (void)
{
  QdTestModel m;
  g_autoptr(GPtrArray) texts = NULL;
  g_autoptr(GPtrArray) problems =
    g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);

  qd_test_model_init (&m);
  qd_test_model_add_block (m.root, "test-gen", "Gen");
  qd_test_model_add_block (m.root, "test-sum", "Sum");
  qd_test_model_add_block (m.root, "test-sink", "Sink");   /* optional inputs: fine */
  qd_test_model_connect (&m, m.root, "Gen", 0, "Sum", 0);
  qd_test_model_finish (&m);

  texts = qd_test_compile_problems (m.doc, NULL);
  g_assert_cmpuint (texts->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (texts, 0), ==,
                   "/Sum: input 2 is not connected; connect it or delete the block");
  g_assert_false (qd_document_check (m.doc, NULL, problems));
  g_assert_cmpint (((QdProblem *) problems->pdata[0])->code, ==, QD_ERROR_UNCONNECTED);
  g_object_unref (m.doc);
}

static void
test_compile_algebraic_loop (void)
{
  QdTestModel m;
  g_autoptr(GPtrArray) texts = NULL;
  QdSystem *inner;
  QdBlock *sub;

  /* /A -> /Sub/B -> /C -> /A (through the subsystem), /D -> /D, and
   * /E -> /F -> /G outside any loop. */
  qd_test_model_init (&m);
  qd_test_model_add_block (m.root, "test-gen", "Gen");
  qd_test_model_add_block (m.root, "test-sum", "A");
  sub = qd_test_model_add_block (m.root, QD_TYPE_SUBSYSTEM, "Sub");
  inner = sub->inner;
  qd_block_set_param_raw (qd_test_model_add_block (inner, QD_TYPE_INPORT, "In"), "port", "1");
  qd_test_model_add_block (inner, "test-pass", "B");
  qd_block_set_param_raw (qd_test_model_add_block (inner, QD_TYPE_OUTPORT, "Out"), "port", "1");
  qd_test_model_connect (&m, inner, "In", 0, "B", 0);
  qd_test_model_connect (&m, inner, "B", 0, "Out", 0);
  qd_test_model_add_block (m.root, "test-pass", "C");
  qd_test_model_add_block (m.root, "test-pass", "D");
  qd_test_model_add_block (m.root, "test-pass", "E");
  qd_test_model_add_block (m.root, "test-pass", "F");
  qd_test_model_connect (&m, m.root, "Gen", 0, "A", 0);
  qd_test_model_connect (&m, m.root, "A", 0, "Sub", 0);
  qd_test_model_connect (&m, m.root, "Sub", 0, "C", 0);
  qd_test_model_connect (&m, m.root, "C", 0, "A", 1);
  qd_test_model_connect (&m, m.root, "D", 0, "D", 0);
  qd_test_model_connect (&m, m.root, "Gen", 0, "E", 0);
  qd_test_model_connect (&m, m.root, "E", 0, "F", 0);
  qd_test_model_finish (&m);

  texts = qd_test_compile_problems (m.doc, NULL);
  g_assert_cmpuint (texts->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (texts, 0), ==,
                   "algebraic loop through /A, /Sub/B, /C: break it with an "
                   "integrator or a delay");
  g_assert_cmpstr (g_ptr_array_index (texts, 1), ==,
                   "algebraic loop through /D: break it with an integrator or "
                   "a delay");
  g_object_unref (m.doc);
}

/* The one problem qd_simulation_new_taking() finds in @m's document, of
 * code @code, with the error's message, once the document is gone. */
static QdProblem *
taking_problem (QdTestModel  *m,
                QdErrorCode   code,
                char        **message)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;

  qd_test_model_finish (m);
  g_object_add_weak_pointer (G_OBJECT (m->doc), (gpointer *) &m->doc);
  g_assert_null (qd_simulation_new_taking (m->doc, NULL, problems, &error));
  g_assert_null (m->doc);
  g_assert_error (error, QD_ERROR, (gint) code);
  g_assert_cmpuint (problems->len, ==, 1);
  *message = g_strdup (error->message);
  return g_ptr_array_index (problems, 0);
}

/* Problems found after qd_simulation_new_taking() has freed the atomic
 * blocks of the document it was given (an unconnected input, an
 * algebraic loop) still name each block by its path and id. */
static void
test_compile_taking_problems (void)
{
  g_autofree char *unconnected = NULL;
  g_autofree char *loop = NULL;
  QdTestModel m;
  QdSystem *inner;
  QdProblem *p;

  qd_test_model_init (&m);
  qd_test_model_add_block (m.root, "test-gen", "Gen");
  inner = qd_test_model_add_block (m.root, QD_TYPE_SUBSYSTEM, "Plant")->inner;
  qd_block_set_param_raw (qd_test_model_add_block (inner, QD_TYPE_INPORT, "In"), "port", "1");
  qd_test_model_add_block (inner, "test-sum", "Sum 2");
  qd_test_model_connect (&m, inner, "In", 0, "Sum 2", 0);
  qd_test_model_connect (&m, m.root, "Gen", 0, "Plant", 0);
  p = taking_problem (&m, QD_ERROR_UNCONNECTED, &unconnected);
  g_assert_cmpstr (p->path, ==, "/Plant/Sum 2");
  g_assert_cmpstr (p->block_id, ==, "Sum 2");
  g_assert_cmpstr (unconnected, ==,
                   "/Plant/Sum 2: input 2 is not connected; connect it or "
                   "delete the block");
  qd_problem_free (p);

  qd_test_model_init (&m);
  qd_test_model_add_block (m.root, "test-pass", "Before");
  qd_test_model_add_block (m.root, "test-pass", "Echo");
  qd_test_model_connect (&m, m.root, "Echo", 0, "Echo", 0);
  qd_test_model_connect (&m, m.root, "Echo", 0, "Before", 0);
  p = taking_problem (&m, QD_ERROR_ALGEBRAIC_LOOP, &loop);
  g_assert_cmpstr (p->block_id, ==, "Echo");
  g_assert_cmpstr (loop, ==,
                   "algebraic loop through /Echo: break it with an "
                   "integrator or a delay");
  qd_problem_free (p);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  qd_test_register_sim_blocks ();

  g_test_add_func ("/compile/unknown-type", test_compile_unknown_type);
  g_test_add_func ("/compile/taking", test_compile_taking);
  g_test_add_func ("/compile/taking-problems", test_compile_taking_problems);
  g_test_add_func ("/compile/parameters", test_compile_parameters);
  g_test_add_func ("/compile/values", test_compile_values);
  g_test_add_func ("/compile/shared-params", test_compile_shared_params);
  g_test_add_func ("/compile/variables", test_compile_variables);
  g_test_add_func ("/compile/settings", test_compile_settings);
  g_test_add_func ("/compile/unconnected", test_compile_unconnected);
  g_test_add_func ("/compile/algebraic-loop", test_compile_algebraic_loop);

  return g_test_run ();
}

/* test-every-block.c: every registered block type against the block
 * library's contract
 *
 * Nothing here names a block under test, except the fixture table (blocks
 * that read or write a file) and the exceptions table: the tests walk
 * qd_registry_list() after qd_init(), so a block added to the library is
 * held to the same rules the day it is registered:
 *
 *   doc       the descriptor documents itself: name, category, glyph, a
 *             paragraph, a label and a doc for every parameter, a doc for
 *             every port group, choices with a default among them, numeric
 *             defaults within the declared range.
 *   defaults  the block with its default parameters, its inputs driven by a
 *             Constant and its outputs into a Terminator, compiles and runs
 *             to the final time; also driven by a Sine (between 1 and 3,
 *             inside every function's domain), and from a start time > 0.
 *   feedback  the block in a loop dx/dt = f(x) through an Integrator, its
 *             output the derivative, runs or stops at a block, whatever
 *             values the dynamics take it to.
 *   resume    the outputs (into a Scope) are the same, bit for bit, when
 *             the run is cut into run_until and step calls.
 *   choices   every choice of a CHOICE and both BOOLEAN values run.
 *   unconnected  open inputs run when declared optional, and are otherwise
 *             an unconnected-input problem at the block.
 *   ports     a port-sizing parameter set to 1 and to 3 gives that many
 *             ports; when check() refuses a companion parameter, its message
 *             names that parameter, and fixing it makes the model compile.
 *   range     a value outside a numeric parameter's range is a problem at
 *             the block's path naming the parameter.
 *   bounds    a value at the edge of the range runs, or is refused naming
 *             a parameter, or stops the run at the block; never a crash or
 *             an allocation of gigabytes.
 *   syntax    a malformed expression is refused when it is set, naming the
 *             block and the parameter.
 *   unknown   an unknown name in a NUMBER, INTEGER or VECTOR parameter is
 *             a problem naming the parameter and the column (counted from
 *             the start of the whole text for a vector).
 *   cli       `qdevs-cli blocks --json` lists every type with its params.
 *
 * Failures do not stop at the first: each case lists everything wrong with
 * its block, and the program keeps going after a failed case, so one run
 * shows the whole picture.
 */
#include "qd-test-util.h"

#include <json-c/json.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#define BLOCK_NAME "Under test"
#define BLOCK_PATH "/" BLOCK_NAME
#define FINAL_TIME 1.0

/* Blocks that need a real file for their defaults to run: the parameter to
 * set and what to put there. */
typedef enum
{
  FIXTURE_INPUT_CSV,    /* a small table of times and values */
  FIXTURE_OUTPUT_FILE,  /* a file in a fresh temporary directory */
} FixtureKind;

static const struct
{
  const char  *type;
  const char  *param;
  FixtureKind  kind;
} fixtures[] = {
  { "from_csv", "file", FIXTURE_INPUT_CSV },
  { "to_csv", "file", FIXTURE_OUTPUT_FILE },
};

/* Types whose defaults genuinely cannot run alone, with the reason (the
 * defaults, start-time and resume cases skip them). Empty: every block of
 * the library runs alone; the sentinel keeps the array valid C. */
static const struct
{
  const char *type;
  const char *reason;
} defaults_exceptions[] = {
  { NULL, NULL },
};

static char *tmp_dir;

/* What is wrong with the block of the current case, one line each; the
 * case fails once, at its end, with all of them. */
static GString *failures;

static void fail (const QdBlockType *type,
                  const char        *format,
                  ...) G_GNUC_PRINTF (2, 3);

static void
fail (const QdBlockType *type,
      const char        *format,
      ...)
{
  va_list args;

  g_string_append_printf (failures, failures->len > 0 ? " | %s: " : "%s: ",
                          type->id);
  va_start (args, format);
  g_string_append_vprintf (failures, format, args);
  va_end (args);
}

#define CHECK(type, cond, ...)                                        \
  G_STMT_START {                                                      \
    if (!(cond))                                                      \
      fail ((type), __VA_ARGS__);                                     \
  } G_STMT_END

static gboolean
is_empty (const char *text)
{
  return text == NULL || text[0] == '\0';
}

static gboolean
is_numeric_kind (QdParamKind kind)
{
  return kind == QD_PARAM_NUMBER || kind == QD_PARAM_INTEGER;
}

static GPtrArray *
problems_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
}

static char *
problems_text (GPtrArray *problems)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      g_autofree char *line = qd_problem_to_string (problems->pdata[i]);

      g_string_append_printf (text, "%s%s", text->len > 0 ? "; " : " ", line);
    }
  return g_string_free (text, FALSE);
}

/* The value a fixture puts into @param of @type, or NULL. */
static char *
fixture_value (const QdBlockType *type,
               const char        *param)
{
  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      if (!g_str_equal (fixtures[i].type, type->id)
          || !g_str_equal (fixtures[i].param, param))
        continue;
      if (fixtures[i].kind == FIXTURE_INPUT_CSV)
        {
          char *path = g_build_filename (tmp_dir, "input.csv", NULL);
          GError *error = NULL;

          /* No line of column names: it reads the same with and without
           * the header option. */
          g_file_set_contents (path, "# t, y\n0,1\n0.25,2\n0.5,-1\n",
                               -1, &error);
          g_assert_no_error (error);
          return path;
        }
      return g_build_filename (tmp_dir, "output.csv", NULL);
    }
  return NULL;
}

/* A document with the block under test (@params: NULL-terminated name,
 * value pairs set after the fixtures), one block of @source_type driving
 * every input (none when NULL) and one of @sink_type, sized to match,
 * taking every output. NULL when a parameter is refused (@error set). */
static QdDocument *
harness_new_full (const QdBlockType  *type,
                  const char         *source_type,
                  const char         *sink_type,
                  const char *const  *params,
                  QdBlock           **block_out,
                  GError            **error)
{
  g_autoptr (QdDocument) doc = qd_document_new ();
  QdSystem *root = qd_document_get_root (doc);
  QdSettings settings = *qd_document_get_settings (doc);
  QdBlock *block;
  guint n_in = 0, n_out = 0;

  settings.final_time = FINAL_TIME;
  g_assert_true (qd_document_set_settings (doc, &settings, NULL));

  block = qd_document_add_block (doc, root, type->id, BLOCK_NAME, 100, 100,
                                 error);
  if (block == NULL)
    return NULL;
  for (guint p = 0; p < type->n_params; p++)
    {
      g_autofree char *value = fixture_value (type, type->params[p].name);

      if (value != NULL
          && !qd_document_set_param (doc, block, type->params[p].name, value,
                                     error))
        return NULL;
    }
  for (guint i = 0; params != NULL && params[i] != NULL; i += 2)
    if (!qd_document_set_param (doc, block, params[i], params[i + 1], error))
      return NULL;
  if (!qd_block_count_ports (block, &n_in, &n_out, error))
    return NULL;

  if (n_in > 0 && source_type != NULL)
    {
      QdBlock *source = qd_document_add_block (doc, root, source_type,
                                               "Source", 0, 100, error);

      /* A sine between 1 and 3 stays inside every function's domain
       * (log, sqrt, 1/u, division), so a failure is the block's own. */
      if (source == NULL
          || (g_str_equal (source_type, "sine")
              && !qd_document_set_param (doc, source, "offset", "2", error)))
        return NULL;
      for (guint i = 0; i < n_in; i++)
        if (qd_document_connect (doc, root, source->id, 0, block->id, i,
                                 error) == NULL)
          return NULL;
    }
  if (n_out > 0)
    {
      const QdBlockType *sink_info = qd_registry_lookup (sink_type);
      g_autofree char *count = g_strdup_printf ("%u", n_out);
      QdBlock *sink = qd_document_add_block (doc, root, sink_type, "Sink",
                                             200, 100, error);

      if (sink == NULL
          || !qd_document_set_param (doc, sink, sink_info->inputs.size_param,
                                     count, error))
        return NULL;
      for (guint i = 0; i < n_out; i++)
        if (qd_document_connect (doc, root, block->id, i, sink->id, i,
                                 error) == NULL)
          return NULL;
    }
  if (block_out != NULL)
    *block_out = block;
  return g_steal_pointer (&doc);
}

static QdDocument *
harness_new (const QdBlockType  *type,
             const char *const  *params,
             QdBlock           **block_out,
             GError            **error)
{
  return harness_new_full (type, "constant", "terminator", params, block_out,
                           error);
}

/* "parameter 'k'", or "parameters 'a' and 'k'" for a combination. */
static gboolean
message_names (const char *message,
               const char *param)
{
  g_autofree char *needle = g_strdup_printf ("parameter '%s'", param);
  g_autofree char *quoted = g_strdup_printf ("'%s'", param);

  return strstr (message, needle) != NULL
         || (strstr (message, "parameters '") != NULL
             && strstr (message, quoted) != NULL);
}

/* Documentation */

static void
check_port_doc (const QdBlockType *type,
                const QdPortSpec  *ports,
                const char        *what)
{
  if (ports->size_param != NULL)
    {
      int i = qd_block_type_find_param (type, ports->size_param);

      CHECK (type, i >= 0, "%s sized by '%s', which is not a parameter",
             what, ports->size_param);
      if (i >= 0)
        CHECK (type, type->params[i].kind == QD_PARAM_INTEGER,
               "%s sized by '%s', which is not an INTEGER", what,
               ports->size_param);
    }
  if (ports->size_param != NULL || ports->count > 0)
    CHECK (type, !is_empty (ports->doc), "%s have no doc", what);
}

static void
test_doc (gconstpointer data)
{
  const QdBlockType *type = data;

  CHECK (type, !is_empty (type->name), "no display name");
  CHECK (type, !is_empty (type->category), "no category");
  CHECK (type, !is_empty (type->glyph), "no glyph");
  CHECK (type, !is_empty (type->doc), "no doc");
  check_port_doc (type, &type->inputs, "inputs");
  check_port_doc (type, &type->outputs, "outputs");

  for (guint p = 0; p < type->n_params; p++)
    {
      const QdParamSpec *spec = &type->params[p];

      CHECK (type, !is_empty (spec->name), "parameter %u has no name", p);
      CHECK (type, !is_empty (spec->label), "parameter '%s' has no label",
             spec->name);
      CHECK (type, !is_empty (spec->doc), "parameter '%s' has no doc",
             spec->name);
      CHECK (type, spec->default_value != NULL,
             "parameter '%s' has no default", spec->name);
      CHECK (type, spec->min <= spec->max, "parameter '%s': min > max",
             spec->name);
      if (spec->kind == QD_PARAM_CHOICE)
        {
          gboolean found = FALSE;

          CHECK (type, spec->choices != NULL && spec->choices[0] != NULL,
                 "CHOICE parameter '%s' has no choices", spec->name);
          for (guint c = 0; spec->choices != NULL && spec->choices[c]; c++)
            if (g_strcmp0 (spec->choices[c], spec->default_value) == 0)
              found = TRUE;
          if (g_strcmp0 (spec->default_value, "") == 0)
            found = (spec->flags & QD_PARAM_INHERIT) != 0;
          CHECK (type, found,
                 "CHOICE parameter '%s': default '%s' is not a choice",
                 spec->name, spec->default_value);
        }
      if (spec->flags & QD_PARAM_INHERIT)
        CHECK (type, g_strcmp0 (spec->default_value, "") == 0,
               "inherited parameter '%s' has default '%s', not \"\"",
               spec->name, spec->default_value);
      /* The document lengthens such a list with the default's last
       * element, and counts it against the inputs. */
      if (spec->flags & QD_PARAM_PER_INPUT)
        {
          g_auto(GStrv) elements =
            qd_expr_split_vector (spec->default_value != NULL
                                  ? spec->default_value : "");

          CHECK (type, spec->kind == QD_PARAM_VECTOR,
                 "per-input parameter '%s' is not a VECTOR", spec->name);
          CHECK (type, type->inputs.size_param != NULL,
                 "per-input parameter '%s', but the inputs are not sized "
                 "by a parameter", spec->name);
          CHECK (type, elements[0] != NULL,
                 "per-input parameter '%s' has an empty default", spec->name);
        }
      if (is_numeric_kind (spec->kind) && !is_empty (spec->default_value))
        {
          char *end;
          double v = g_ascii_strtod (spec->default_value, &end);

          /* An expression default is checked by the defaults case. */
          if (*end == '\0')
            CHECK (type, v >= spec->min && v <= spec->max,
                   "parameter '%s': default %s outside [%g, %g]",
                   spec->name, spec->default_value, spec->min, spec->max);
        }
      for (guint q = 0; q < p; q++)
        CHECK (type, g_strcmp0 (type->params[q].name, spec->name) != 0,
               "parameter '%s' declared twice", spec->name);
    }
}

/* Defaults compile and run */

static const char *
defaults_exception (const QdBlockType *type)
{
  for (guint i = 0; i < G_N_ELEMENTS (defaults_exceptions); i++)
    if (g_strcmp0 (defaults_exceptions[i].type, type->id) == 0)
      return defaults_exceptions[i].reason;
  return NULL;
}

/* Compiles @doc and runs it to the final time; TRUE when both work,
 * otherwise a failure naming @what. */
static gboolean
compile_and_run (const QdBlockType *type,
                 QdDocument        *doc,
                 const char        *what)
{
  g_autoptr (GPtrArray) problems = problems_new ();
  g_autoptr (GError) error = NULL;
  QdSimulation *sim = qd_simulation_new (doc, NULL, problems, &error);
  QdRunStatus status;

  if (sim == NULL)
    {
      g_autofree char *text = problems_text (problems);

      fail (type, "%s does not compile:%s", what, text);
      return FALSE;
    }
  status = qd_simulation_run (sim, &error);
  CHECK (type, status == QD_RUN_DONE, "%s: run ends with status %d: %s",
         what, status, error ? error->message : "no error");
  if (status == QD_RUN_DONE)
    CHECK (type, qd_simulation_get_time (sim) == FINAL_TIME,
           "%s: run stops at %g, not at the final time %g", what,
           qd_simulation_get_time (sim), FINAL_TIME);
  qd_simulation_free (sim);
  return status == QD_RUN_DONE;
}

static void
test_defaults (gconstpointer data)
{
  const QdBlockType *type = data;
  const char *reason = defaults_exception (type);
  g_autoptr (GError) error = NULL;
  g_autoptr (QdDocument) doc = NULL;

  if (reason != NULL)
    {
      g_test_skip (reason);
      return;
    }
  doc = harness_new (type, NULL, NULL, &error);
  if (doc == NULL)
    {
      fail (type, "the default block cannot be wired: %s", error->message);
      return;
    }
  compile_and_run (type, doc, "the default block");
}

/* The same with a signal that changes all the time: a Sine's polynomial
 * segments, several per second, instead of one constant event. */
static void
test_defaults_varying (gconstpointer data)
{
  const QdBlockType *type = data;
  const char *reason = defaults_exception (type);
  g_autoptr (GError) error = NULL;
  g_autoptr (QdDocument) doc = NULL;

  if (reason != NULL)
    {
      g_test_skip (reason);
      return;
    }
  doc = harness_new_full (type, "sine", "terminator", NULL, NULL, &error);
  if (doc == NULL)
    {
      fail (type, "the default block cannot be wired: %s", error->message);
      return;
    }
  compile_and_run (type, doc, "the default block driven by a Sine");
}

/* The block inside the dynamics: an Integrator (x(0) = 0.5) drives every
 * input and integrates output 0, dx/dt = f(x), so the block sees whatever
 * values the loop takes it to: a blow-up in finite time (x², exp), a
 * domain left (log, sqrt), a count that grows without bound (a Place).
 * Run for a bounded number of events, it must end at the final time or
 * stop with an error at a block, never crash or trip a sanitizer: the
 * sanitizer build of the suite found a Place whose 64-bit count
 * overflowed this way. */
#define FEEDBACK_FINAL_TIME 10.0
#define FEEDBACK_MAX_EVENTS 200000

static void
test_feedback (gconstpointer data)
{
  const QdBlockType *type = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (QdDocument) doc = NULL;
  g_autoptr (GPtrArray) problems = problems_new ();
  QdSettings settings;
  QdSimulation *sim;
  QdRunStatus status;
  QdBlock *block = NULL, *x;
  guint n_in = 0, n_out = 0;

  doc = harness_new_full (type, NULL, "terminator", NULL, &block, &error);
  if (doc == NULL)
    {
      fail (type, "the default block cannot be wired: %s", error->message);
      return;
    }
  g_assert_true (qd_block_count_ports (block, &n_in, &n_out, NULL));
  if (n_in == 0 || n_out == 0 || (type->flags & QD_BLOCK_INTEGRATOR))
    {
      g_test_skip ("no input and output to put in a loop");
      return;
    }
  settings = *qd_document_get_settings (doc);
  settings.final_time = FEEDBACK_FINAL_TIME;
  g_assert_true (qd_document_set_settings (doc, &settings, NULL));
  x = qd_document_add_block (doc, qd_document_get_root (doc), "integrator",
                             "X", 0, 100, &error);
  g_assert_no_error (error);
  g_assert_true (qd_document_set_param (doc, x, "x0", "0.5", &error));
  for (guint i = 0; i < n_in; i++)
    g_assert_nonnull (qd_document_connect (doc, qd_document_get_root (doc),
                                           x->id, 0, block->id, i, &error));
  g_assert_nonnull (qd_document_connect (doc, qd_document_get_root (doc),
                                         block->id, 0, x->id, 0, &error));
  g_assert_no_error (error);

  sim = qd_simulation_new (doc, NULL, problems, &error);
  if (sim == NULL)
    {
      g_autofree char *text = problems_text (problems);

      fail (type, "the loop does not compile:%s", text);
      return;
    }
  status = qd_simulation_step (sim, FEEDBACK_MAX_EVENTS, &error);
  if (status == QD_RUN_ERROR)
    {
      g_test_message ("%s", error->message);
      CHECK (type, g_str_has_prefix (error->message, BLOCK_PATH ": ")
                   || g_str_has_prefix (error->message, "/X: "),
             "the loop stops the run with a message at no block: %s",
             error->message);
    }
  else
    CHECK (type, status == QD_RUN_DONE || status == QD_RUN_STEPPED,
           "the loop ends with status %d", status);
  qd_simulation_free (sim);
}

/* A run that starts later than 0: nothing may assume the start time. */
static void
test_start_time (gconstpointer data)
{
  const QdBlockType *type = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (QdDocument) doc = NULL;
  QdSettings settings;

  if (defaults_exception (type) != NULL)
    {
      g_test_skip (defaults_exception (type));
      return;
    }
  doc = harness_new_full (type, "sine", "terminator", NULL, NULL, &error);
  g_assert_no_error (error);
  settings = *qd_document_get_settings (doc);
  settings.start_time = FINAL_TIME - 0.5;
  g_assert_true (qd_document_set_settings (doc, &settings, NULL));
  compile_and_run (type, doc, "a run starting at 0.5");
}

/* Runs may be resumed: any sequence of run_until and step gives the same
 * outputs, bit for bit, as one run. The outputs go into a Scope. */
static GPtrArray *
record_outputs (const QdBlockType *type,
                QdDocument        *doc,
                gboolean           in_pieces)
{
  g_autoptr (GError) error = NULL;
  QdSimulation *sim = qd_simulation_new (doc, NULL, NULL, &error);
  GPtrArray *traces;

  g_assert_no_error (error);
  if (in_pieces)
    {
      g_assert_cmpint (qd_simulation_run_until (sim, 0.3, &error), !=,
                       QD_RUN_ERROR);
      g_assert_cmpint (qd_simulation_step (sim, 7, &error), !=, QD_RUN_ERROR);
      g_assert_cmpint (qd_simulation_run_until (sim, 0.3, &error), !=,
                       QD_RUN_ERROR);
      g_assert_cmpint (qd_simulation_step (sim, 1, &error), !=, QD_RUN_ERROR);
      g_assert_cmpint (qd_simulation_run_until (sim, 0.77, &error), !=,
                       QD_RUN_ERROR);
    }
  CHECK (type, qd_simulation_run (sim, &error) == QD_RUN_DONE,
         "the run fails: %s", error ? error->message : "");
  /* The traces outlive the simulation by their references. */
  traces = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_trace_unref);
  for (guint i = 0; i < qd_simulation_get_traces (sim)->len; i++)
    g_ptr_array_add (traces,
                     qd_trace_ref (qd_simulation_get_traces (sim)->pdata[i]));
  qd_simulation_free (sim);
  return traces;
}

static void
test_resume (gconstpointer data)
{
  const QdBlockType *type = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (QdDocument) doc = NULL;
  GPtrArray *whole, *pieces;
  guint n_in = 0, n_out = 0;
  QdBlock *block = NULL;

  if (defaults_exception (type) != NULL)
    {
      g_test_skip (defaults_exception (type));
      return;
    }
  doc = harness_new_full (type, "sine", "scope", NULL, &block, &error);
  g_assert_no_error (error);
  g_assert_true (qd_block_count_ports (block, &n_in, &n_out, NULL));
  if (n_out == 0)
    {
      g_test_skip ("no output to compare");
      return;
    }
  whole = record_outputs (type, doc, FALSE);
  pieces = record_outputs (type, doc, TRUE);
  CHECK (type, whole->len == pieces->len && whole->len >= n_out,
         "%u traces in one run, %u in pieces", whole->len, pieces->len);
  for (guint i = 0; i < MIN (whole->len, pieces->len); i++)
    {
      QdTrace *a = whole->pdata[i], *b = pieces->pdata[i];
      gsize n = qd_trace_get_length (a);

      if (n != qd_trace_get_length (b))
        {
          fail (type, "%s: %zu segments in one run, %zu in pieces",
                qd_trace_get_name (a), n, qd_trace_get_length (b));
          continue;
        }
      for (gsize k = 0; k < n; k++)
        if (memcmp (qd_trace_get (a, k), qd_trace_get (b, k),
                    sizeof (QdSignal)) != 0)
          {
            fail (type, "%s: segment %zu differs when the run is resumed",
                  qd_trace_get_name (a), k);
            break;
          }
    }
  g_ptr_array_unref (whole);
  g_ptr_array_unref (pieces);
}

static char *
format_value (double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.17g", value));
}

/* A value at the edge of a parameter's range is allowed, so it must either
 * run, or be refused by check() naming a parameter, or stop the run with
 * a message at the block: never crash or run away. */
static void
check_bound (const QdBlockType *type,
             const char        *param,
             double             bound)
{
  g_autofree char *value = format_value (bound);
  const char *params[] = { param, value, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (QdDocument) doc = harness_new_full (type, "sine", "terminator",
                                                 params, NULL, &error);
  g_autoptr (GPtrArray) problems = problems_new ();
  QdSettings settings;
  QdSimulation *sim;

  if (doc == NULL)
    {
      /* A port count of 0 where the schema allows it, for instance. */
      fail (type, "%s = %s, inside its range, is refused: %s", param, value,
            error->message);
      return;
    }
  settings = *qd_document_get_settings (doc);
  settings.illegitimacy_limit = 100000;
  g_assert_true (qd_document_set_settings (doc, &settings, NULL));
  sim = qd_simulation_new (doc, NULL, problems, &error);
  if (sim == NULL)
    {
      g_autoptr(GPtrArray) compile_problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
      /* The model compiled and a block's init refused it (a file that
       * does not fit the columns): the problem is the block's own. */
      gboolean init_failed = qd_document_check (doc, NULL, compile_problems);

      for (guint i = 0; i < problems->len; i++)
        {
          const QdProblem *problem = problems->pdata[i];
          gboolean named = FALSE;

          g_test_message ("%s = %s: %s: %s", param, value, problem->path,
                          problem->message);
          for (guint p = 0; p < type->n_params; p++)
            named |= message_names (problem->message, type->params[p].name);
          if (init_failed && g_strcmp0 (problem->path, BLOCK_PATH) == 0
              && problem->block_id != NULL)
            continue;
          CHECK (type, named && g_strcmp0 (problem->path, BLOCK_PATH) == 0,
                 "%s = %s: a problem names no parameter of the block: "
                 "%s: %s", param, value, problem->path, problem->message);
        }
      return;
    }
  if (qd_simulation_run (sim, &error) == QD_RUN_ERROR)
    {
      g_test_message ("%s = %s: %s", param, value, error->message);
      CHECK (type, g_str_has_prefix (error->message, BLOCK_PATH ": "),
             "%s = %s stops the run with a message not at the block: %s",
             param, value, error->message);
    }
  qd_simulation_free (sim);
}

static void
test_bounds (gconstpointer data)
{
  const QdBlockType *type = data;
  guint n_checked = 0;

  for (guint p = 0; p < type->n_params; p++)
    {
      const QdParamSpec *spec = &type->params[p];

      if (!is_numeric_kind (spec->kind))
        continue;
      if (isfinite (spec->min))
        check_bound (type, spec->name, spec->min), n_checked++;
      if (isfinite (spec->max))
        check_bound (type, spec->name, spec->max), n_checked++;
    }
  if (n_checked == 0)
    g_test_skip ("no bounded numeric parameter");
}

/* Inputs left unconnected: a block that declares them optional runs (they
 * read 0); any other is refused with a problem at the block. */
static void
test_unconnected (gconstpointer data)
{
  const QdBlockType *type = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (QdDocument) doc = NULL;
  g_autoptr (GPtrArray) problems = problems_new ();
  QdBlock *block = NULL;
  guint n_in = 0, n_out = 0;
  gboolean found = FALSE;

  doc = harness_new_full (type, NULL, "terminator", NULL, &block, &error);
  g_assert_no_error (error);
  g_assert_true (qd_block_count_ports (block, &n_in, &n_out, NULL));
  if (n_in == 0)
    {
      g_test_skip ("no input");
      return;
    }
  if (type->flags & QD_BLOCK_OPTIONAL_INPUTS)
    {
      compile_and_run (type, doc, "the block with its optional inputs open");
      return;
    }
  if (qd_document_check (doc, NULL, problems))
    {
      fail (type, "compiles with its inputs open, but they are not "
            "declared optional");
      return;
    }
  for (guint i = 0; i < problems->len; i++)
    {
      const QdProblem *problem = problems->pdata[i];

      if (problem->code == QD_ERROR_UNCONNECTED
          && g_strcmp0 (problem->path, BLOCK_PATH) == 0)
        {
          g_test_message ("%s", problem->message);
          found = TRUE;
        }
    }
  if (!found)
    {
      g_autofree char *text = problems_text (problems);

      fail (type, "open inputs give no unconnected problem at the block:%s",
            text);
    }
}

/* Every choice of a CHOICE parameter and both values of a BOOLEAN, the
 * others at their defaults, compile and run. */
static void
test_choices (gconstpointer data)
{
  const QdBlockType *type = data;
  static const char *const booleans[] = { "true", "false", NULL };
  guint n_checked = 0;

  for (guint p = 0; p < type->n_params; p++)
    {
      const QdParamSpec *spec = &type->params[p];
      const char *const *values;

      if (spec->kind == QD_PARAM_CHOICE)
        values = spec->choices;
      else if (spec->kind == QD_PARAM_BOOLEAN)
        values = booleans;
      else
        continue;
      for (guint v = 0; values != NULL && values[v] != NULL; v++)
        {
          const char *params[] = { spec->name, values[v], NULL };
          g_autofree char *what = g_strdup_printf ("%s = %s", spec->name,
                                                   values[v]);
          g_autoptr (GError) error = NULL;
          g_autoptr (QdDocument) doc = harness_new_full (type, "sine",
                                                         "terminator", params,
                                                         NULL, &error);

          n_checked++;
          if (doc == NULL)
            fail (type, "%s is refused: %s", what, error->message);
          else
            compile_and_run (type, doc, what);
        }
    }
  if (n_checked == 0)
    g_test_skip ("no CHOICE or BOOLEAN parameter");
}

/* Port counts follow the sizing parameter */

/* For each problem of a refused compile, the parameter its message names:
 * a VECTOR one gets @n ones (a companion that must match the port count),
 * anything else is a failure. FALSE when nothing could be fixed. */
static gboolean
fix_companions (const QdBlockType *type,
                QdDocument        *doc,
                QdBlock           *block,
                GPtrArray         *problems,
                guint              n)
{
  gboolean fixed = FALSE;

  for (guint i = 0; i < problems->len; i++)
    {
      const QdProblem *problem = problems->pdata[i];
      const QdParamSpec *named = NULL;

      for (guint p = 0; p < type->n_params; p++)
        {
          g_autofree char *needle = g_strdup_printf ("parameter '%s'",
                                                     type->params[p].name);
          g_autofree char *needle2 = g_strdup_printf ("'%s'",
                                                      type->params[p].name);

          if (strstr (problem->message, needle) != NULL
              || (strstr (problem->message, "parameters ") != NULL
                  && strstr (problem->message, needle2) != NULL))
            named = &type->params[p];
        }
      CHECK (type, named != NULL,
             "with %u ports, a problem names no parameter: %s: %s", n,
             problem->path, problem->message);
      CHECK (type, g_strcmp0 (problem->path, BLOCK_PATH) == 0,
             "with %u ports, a problem is at '%s', not at " BLOCK_PATH,
             n, problem->path);
      if (named != NULL && named->kind == QD_PARAM_VECTOR)
        {
          g_autoptr (GString) ones = g_string_new ("1");
          g_autoptr (GError) error = NULL;

          for (guint k = 1; k < n; k++)
            g_string_append (ones, ", 1");
          g_assert_true (qd_document_set_param (doc, block, named->name,
                                                ones->str, &error));
          fixed = TRUE;
        }
    }
  return fixed;
}

static void
check_port_size (const QdBlockType *type,
                 const QdPortSpec  *ports,
                 gboolean           inputs,
                 guint              n)
{
  g_autofree char *count = g_strdup_printf ("%u", n);
  const char *params[] = { ports->size_param, count, NULL };
  g_autofree char *what = g_strdup_printf ("%s = %u", ports->size_param, n);
  g_autoptr (GError) error = NULL;
  g_autoptr (QdDocument) doc = NULL;
  g_autoptr (GPtrArray) problems = problems_new ();
  QdBlock *block = NULL;
  guint n_in = 0, n_out = 0;

  doc = harness_new (type, params, &block, &error);
  if (doc == NULL)
    {
      fail (type, "%s refused: %s", what,
                          error->message);
      return;
    }
  g_assert_true (qd_block_count_ports (block, &n_in, &n_out, NULL));
  CHECK (type, (inputs ? n_in : n_out) == n, "%s gives %u %s", what,
         inputs ? n_in : n_out, inputs ? "inputs" : "outputs");

  /* Companion parameters: at most one round of fixes per problem. */
  for (guint round = 0; round < 3; round++)
    {
      g_ptr_array_set_size (problems, 0);
      if (qd_document_check (doc, NULL, problems))
        break;
      if (!fix_companions (type, doc, block, problems, n))
        break;
    }
  if (problems->len > 0)
    {
      g_autofree char *text = problems_text (problems);

      fail (type, "%s does not compile:%s", what, text);
      return;
    }
  if (compile_and_run (type, doc, what))
    {
      QdSimulation *sim = qd_simulation_new (doc, NULL, NULL, NULL);

      for (guint i = 0; i < qd_simulation_get_n_atomics (sim); i++)
        {
          const QdAtomic *atomic = qd_simulation_get_atomic (sim, i);

          if (g_str_equal (atomic->path, BLOCK_PATH))
            CHECK (type, (inputs ? atomic->n_in : atomic->n_out) == n,
                   "%s compiles to %u %s", what,
                   inputs ? atomic->n_in : atomic->n_out,
                   inputs ? "inputs" : "outputs");
        }
      qd_simulation_free (sim);
    }
}

static void
test_ports (gconstpointer data)
{
  const QdBlockType *type = data;
  gboolean sized = FALSE;

  for (int side = 0; side < 2; side++)
    {
      const QdPortSpec *ports = side == 0 ? &type->inputs : &type->outputs;
      int i;

      if (ports->size_param == NULL)
        continue;
      sized = TRUE;
      i = qd_block_type_find_param (type, ports->size_param);
      g_assert_cmpint (i, >=, 0);
      for (guint n = 1; n <= 3; n += 2)
        if (n >= type->params[i].min && n <= type->params[i].max)
          check_port_size (type, ports, side == 0, n);
    }
  if (!sized)
    g_test_skip ("no port-sizing parameter");
}

/* Parameter validation */

/* A compile of @type with @param = @value must fail with a problem at the
 * block naming the parameter (and containing @also, when not NULL); or the
 * value is refused when set, with a message naming block and parameter. */
static void
expect_param_problem (const QdBlockType *type,
                      const char        *param,
                      const char        *value,
                      const char        *also)
{
  const char *params[] = { param, value, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (QdDocument) doc = harness_new (type, params, NULL, &error);
  g_autoptr (GPtrArray) problems = problems_new ();
  g_autoptr (GError) compile_error = NULL;
  QdSimulation *sim;
  gboolean found = FALSE;

  if (doc == NULL)
    {
      g_test_message ("%s", error->message);
      CHECK (type, strstr (error->message, BLOCK_PATH) != NULL
                   && message_names (error->message, param),
             "%s = '%s' is refused without naming the block and the "
             "parameter: %s", param, value, error->message);
      return;
    }
  sim = qd_simulation_new (doc, NULL, problems, &compile_error);
  if (sim != NULL)
    {
      fail (type, "%s = '%s' compiles", param, value);
      qd_simulation_free (sim);
      return;
    }
  for (guint i = 0; i < problems->len; i++)
    {
      const QdProblem *problem = problems->pdata[i];

      if (g_strcmp0 (problem->path, BLOCK_PATH) == 0
          && message_names (problem->message, param)
          && (also == NULL || strstr (problem->message, also) != NULL))
        {
          g_autofree char *text = qd_problem_to_string (problem);

          g_test_message ("%s", text);
          found = TRUE;
        }
    }
  if (!found)
    {
      g_autofree char *text = problems_text (problems);

      fail (type, "%s = '%s': no problem at " BLOCK_PATH
            " naming parameter '%s'%s%s; got:%s", param, value, param,
            also ? " and " : "", also ? also : "", text);
    }
}


static void
test_range (gconstpointer data)
{
  const QdBlockType *type = data;
  guint n_checked = 0;

  for (guint p = 0; p < type->n_params; p++)
    {
      const QdParamSpec *spec = &type->params[p];

      if (!is_numeric_kind (spec->kind))
        continue;
      if (isfinite (spec->min))
        {
          double out = spec->min - fmax (1.0, fabs (spec->min));
          g_autofree char *below = format_value (out);

          expect_param_problem (type, spec->name, below, NULL);
          n_checked++;
        }
      if (isfinite (spec->max))
        {
          double out = spec->max + fmax (1.0, fabs (spec->max));
          g_autofree char *above = format_value (out);

          expect_param_problem (type, spec->name, above, NULL);
          n_checked++;
        }
    }
  if (n_checked == 0)
    g_test_skip ("no bounded numeric parameter");
}

static void
test_syntax (gconstpointer data)
{
  const QdBlockType *type = data;
  guint n_checked = 0;

  for (guint p = 0; p < type->n_params; p++)
    {
      const QdParamSpec *spec = &type->params[p];
      g_autoptr (QdDocument) doc = NULL;
      g_autoptr (GError) error = NULL;
      QdBlock *block = NULL;

      if (!is_numeric_kind (spec->kind) && spec->kind != QD_PARAM_VECTOR)
        continue;
      n_checked++;
      doc = harness_new (type, NULL, &block, &error);
      g_assert_no_error (error);
      if (qd_document_set_param (doc, block, spec->name, "1+*", &error))
        {
          fail (type, "%s = '1+*' is accepted",
                          spec->name);
          continue;
        }
      g_test_message ("%s", error->message);
      CHECK (type, strstr (error->message, BLOCK_PATH) != NULL
                   && message_names (error->message, spec->name),
             "%s = '1+*' refused without naming the block and the "
             "parameter: %s", spec->name, error->message);
      CHECK (type,
             g_strcmp0 (qd_block_get_param (block, spec->name), "1+*") != 0,
             "%s = '1+*' is refused but kept", spec->name);
    }
  if (n_checked == 0)
    g_test_skip ("no expression parameter");
}

static void
test_unknown_name (gconstpointer data)
{
  const QdBlockType *type = data;
  guint n_checked = 0;

  for (guint p = 0; p < type->n_params; p++)
    {
      const QdParamSpec *spec = &type->params[p];

      if (!is_numeric_kind (spec->kind) && spec->kind != QD_PARAM_VECTOR)
        continue;
      n_checked++;
      /* "nosuchname" starts at column 5; in a vector, at column 8 of the
       * whole text, not of its element. */
      if (spec->kind == QD_PARAM_VECTOR)
        expect_param_problem (type, spec->name, "1, 1 + nosuchname",
                              "column 8");
      else
        expect_param_problem (type, spec->name, "1 + nosuchname",
                              "column 5");
    }
  if (n_checked == 0)
    g_test_skip ("no expression parameter");
}

/* The command line's reference */

static void
test_cli_json (void)
{
  g_autofree char *cli = g_build_filename (g_getenv ("QD_BUILD_DIR"), "app",
                                           "qdevs-cli", NULL);
  const char *argv[] = { cli, "blocks", "--json", NULL };
  g_autofree char *out = NULL, *err = NULL;
  g_autoptr (GError) error = NULL;
  const QdBlockType *const *types;
  json_object *root;
  int status = -1;
  guint n;

  if (g_getenv ("QD_BUILD_DIR") == NULL)
    {
      g_test_skip ("QD_BUILD_DIR is not set");
      return;
    }
  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_DEFAULT, NULL, NULL,
                &out, &err, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  g_assert_cmpstr (err, ==, "");

  root = json_tokener_parse (out);
  g_assert_nonnull (root);
  g_assert_true (json_object_is_type (root, json_type_array));

  types = qd_registry_list (&n);
  g_assert_cmpuint (json_object_array_length (root), ==, n);
  for (guint i = 0; i < n; i++)
    {
      const QdBlockType *type = types[i];
      json_object *entry = NULL, *params, *field;

      for (size_t k = 0; k < json_object_array_length (root); k++)
        {
          json_object *obj = json_object_array_get_idx (root, k);

          if (json_object_object_get_ex (obj, "id", &field)
              && g_str_equal (json_object_get_string (field), type->id))
            entry = obj;
        }
      if (entry == NULL)
        {
          g_test_fail_printf ("%s: missing from blocks --json", type->id);
          continue;
        }
      g_assert_true (json_object_object_get_ex (entry, "name", &field));
      g_assert_cmpstr (json_object_get_string (field), ==, type->name);
      g_assert_true (json_object_object_get_ex (entry, "category", &field));
      g_assert_cmpstr (json_object_get_string (field), ==, type->category);
      g_assert_true (json_object_object_get_ex (entry, "params", &params));
      g_assert_cmpuint (json_object_array_length (params), ==, type->n_params);
      for (guint p = 0; p < type->n_params; p++)
        {
          json_object *param = json_object_array_get_idx (params, p);

          g_assert_true (json_object_object_get_ex (param, "name", &field));
          g_assert_cmpstr (json_object_get_string (field), ==,
                           type->params[p].name);
          g_assert_true (json_object_object_get_ex (param, "default", &field));
          g_assert_cmpstr (json_object_get_string (field), ==,
                           type->params[p].default_value);
          g_assert_true (json_object_object_get_ex (param, "doc", &field));
          g_assert_cmpstr (json_object_get_string (field), ==,
                           type->params[p].doc);
        }
    }
  json_object_put (root);
}

/* One case for one block type: runs it, then fails once with everything
 * it found wrong. */
typedef struct
{
  const QdBlockType *type;
  GTestDataFunc      func;
} Case;

static void
run_case (gconstpointer data)
{
  const Case *c = data;

  g_string_truncate (failures, 0);
  c->func (c->type);
  if (failures->len > 0)
    g_test_fail_printf ("%s", failures->str);
}

static void
remove_tree (const char *dir)
{
  GDir *d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);

      g_remove (path);
    }
  if (d != NULL)
    g_dir_close (d);
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  static const struct
  {
    const char       *name;
    GTestDataFunc     func;
  } cases[] = {
    { "doc", test_doc },
    { "defaults", test_defaults },
    { "defaults-varying", test_defaults_varying },
    { "feedback", test_feedback },
    { "start-time", test_start_time },
    { "resume", test_resume },
    { "choices", test_choices },
    { "unconnected", test_unconnected },
    { "ports", test_ports },
    { "range", test_range },
    { "bounds", test_bounds },
    { "syntax", test_syntax },
    { "unknown-name", test_unknown_name },
  };
  const QdBlockType *const *types;
  guint n_types, n_blocks = 0;
  char **keep_argv;
  int keep_argc;
  int status;

  /* Keep going after a failed case, so that one run lists every block
   * that breaks the contract, not just the first. */
  keep_argv = g_new0 (char *, argc + 2);
  for (int i = 0; i < argc; i++)
    keep_argv[i] = argv[i];
  keep_argv[argc] = (char *) "--keep-going";
  keep_argc = argc + 1;
  argv = keep_argv;
  g_test_init (&keep_argc, &argv, NULL);
  qd_init ();

  failures = g_string_new (NULL);
  tmp_dir = g_dir_make_tmp ("qd-every-block-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);

  types = qd_registry_list (&n_types);
  for (guint i = 0; i < n_types; i++)
    {
      /* Subsystems and port blocks have no DEVS functions: they vanish
       * when the hierarchy is flattened and cannot run on their own. */
      if (types[i]->flags & QD_BLOCK_STRUCTURAL)
        continue;
      /* A placeholder refuses to run by design (test-import-pdm.c). */
      if (types[i]->flags & QD_BLOCK_PLACEHOLDER)
        continue;
      n_blocks++;
      for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
        {
          g_autofree char *path = g_strdup_printf ("/every-block/%s/%s",
                                                   cases[c].name,
                                                   types[i]->id);
          Case *data = g_new (Case, 1);

          data->type = types[i];
          data->func = cases[c].func;
          g_test_add_data_func_full (path, data, run_case, g_free);
        }
    }
  /* The library is not empty: a broken registration would pass vacuously. */
  g_assert_cmpuint (n_blocks, >=, 30);
  g_test_add_func ("/every-block/cli-json", test_cli_json);

  status = g_test_run ();
  remove_tree (tmp_dir);
  g_free (tmp_dir);
  g_free (keep_argv);
  g_string_free (failures, TRUE);
  return status;
}

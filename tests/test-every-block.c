/* test-every-block.c: every registered block type against the block
 * library's contract
 *
 * Nothing here names a block, except the small fixture table below (blocks
 * that read or write a file) and the exceptions table: the tests walk
 * qd_registry_list() after qd_init(), so a block added to the library is
 * held to the same rules the day it is registered:
 *
 *   doc       the descriptor documents itself: name, category, glyph, a
 *             paragraph, a label and a doc for every parameter, a doc for
 *             every port group, choices with a default among them, numeric
 *             defaults within the declared range.
 *   defaults  the block with its default parameters, its inputs driven by a
 *             Constant and its outputs into a Terminator, compiles and runs.
 *   ports     a port-sizing parameter set to 1 and to 3 gives that many
 *             ports; when check() refuses a companion parameter, its message
 *             names that parameter, and fixing it makes the model compile.
 *   range     a value outside a numeric parameter's range is a problem at
 *             the block's path naming the parameter.
 *   syntax    a malformed expression is refused when it is set, naming the
 *             block and the parameter.
 *   unknown   an unknown name in a NUMBER parameter is a problem naming the
 *             parameter and the column.
 *   cli       `qdevs-cli blocks --json` lists every type with its params.
 *
 * Failures do not stop at the first: each case lists everything wrong with
 * its block (g_test_fail_printf), so one run shows the whole picture.
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

/* Types whose defaults genuinely cannot run alone, with the reason. None
 * so far: a block that needs this table should say why in a comment. */
static const struct
{
  const char *type;
  const char *reason;
} defaults_exceptions[] = {
  { NULL, NULL },
};

static char *tmp_dir;

#define CHECK(type, cond, ...)                                        \
  G_STMT_START {                                                      \
    if (!(cond))                                                      \
      {                                                               \
        g_autofree char *msg_ = g_strdup_printf (__VA_ARGS__);        \
        g_test_fail_printf ("%s: %s", (type)->id, msg_);              \
      }                                                               \
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

static char *
problems_text (GPtrArray *problems)
{
  GString *text = g_string_new (NULL);

  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      g_autofree char *line = qd_problem_to_string (problems->pdata[i]);

      g_string_append_printf (text, "\n  %s", line);
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

          g_file_set_contents (path, "time,value\n0,1\n0.25,2\n0.5,-1\n",
                               -1, &error);
          g_assert_no_error (error);
          return path;
        }
      return g_build_filename (tmp_dir, "output.csv", NULL);
    }
  return NULL;
}

/* A document with the block under test (@params: NULL-terminated name,
 * value pairs set after the fixtures), a Constant driving every input and
 * a Terminator taking every output. NULL when a parameter is refused
 * (@error set). */
static QdDocument *
harness_new (const QdBlockType  *type,
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

  if (n_in > 0)
    {
      QdBlock *source = qd_document_add_block (doc, root, "constant",
                                               "Source", 0, 100, error);

      if (source == NULL)
        return NULL;
      for (guint i = 0; i < n_in; i++)
        if (qd_document_connect (doc, root, source->id, 0, block->id, i,
                                 error) == NULL)
          return NULL;
    }
  if (n_out > 0)
    {
      const QdBlockType *term = qd_registry_lookup ("terminator");
      g_autofree char *count = g_strdup_printf ("%u", n_out);
      QdBlock *sink = qd_document_add_block (doc, root, "terminator", "Sink",
                                             200, 100, error);

      if (sink == NULL
          || !qd_document_set_param (doc, sink, term->inputs.size_param,
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
  CHECK (type, type->ta != NULL && type->init != NULL,
         "no init or ta function");

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
  g_autoptr (GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  g_autoptr (GError) error = NULL;
  QdSimulation *sim = qd_simulation_new (doc, NULL, problems, &error);
  QdRunStatus status;

  if (sim == NULL)
    {
      g_autofree char *text = problems_text (problems);

      g_test_fail_printf ("%s: %s does not compile:%s", type->id, what, text);
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
      g_test_fail_printf ("%s: the default block cannot be wired: %s",
                          type->id, error->message);
      return;
    }
  compile_and_run (type, doc, "the default block");
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
  g_autoptr (GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  QdBlock *block = NULL;
  guint n_in = 0, n_out = 0;

  doc = harness_new (type, params, &block, &error);
  if (doc == NULL)
    {
      g_test_fail_printf ("%s: %s refused: %s", type->id, what,
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

      g_test_fail_printf ("%s: %s does not compile:%s", type->id, what, text);
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

static gboolean
message_names (const char *message,
               const char *param)
{
  g_autofree char *needle = g_strdup_printf ("parameter '%s'", param);

  return strstr (message, needle) != NULL;
}

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
  g_autoptr (GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  g_autoptr (GError) compile_error = NULL;
  QdSimulation *sim;
  gboolean found = FALSE;

  if (doc == NULL)
    {
      CHECK (type, strstr (error->message, BLOCK_PATH) != NULL
                   && message_names (error->message, param),
             "%s = '%s' is refused without naming the block and the "
             "parameter: %s", param, value, error->message);
      return;
    }
  sim = qd_simulation_new (doc, NULL, problems, &compile_error);
  if (sim != NULL)
    {
      g_test_fail_printf ("%s: %s = '%s' compiles", type->id, param, value);
      qd_simulation_free (sim);
      return;
    }
  for (guint i = 0; i < problems->len; i++)
    {
      const QdProblem *problem = problems->pdata[i];

      if (g_strcmp0 (problem->path, BLOCK_PATH) == 0
          && message_names (problem->message, param)
          && (also == NULL || strstr (problem->message, also) != NULL))
        found = TRUE;
    }
  if (!found)
    {
      g_autofree char *text = problems_text (problems);

      g_test_fail_printf ("%s: %s = '%s': no problem at " BLOCK_PATH
                          " naming parameter '%s'%s%s; got:%s", type->id,
                          param, value, param, also ? " and " : "",
                          also ? also : "", text);
    }
}

static char *
format_value (double value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  return g_strdup (g_ascii_formatd (buf, sizeof buf, "%.17g", value));
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
          g_autofree char *below = format_value (spec->min - fmax (1.0, fabs (spec->min)));

          expect_param_problem (type, spec->name, below, NULL);
          n_checked++;
        }
      if (isfinite (spec->max))
        {
          g_autofree char *above = format_value (spec->max + fmax (1.0, fabs (spec->max)));

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
          g_test_fail_printf ("%s: %s = '1+*' is accepted", type->id,
                              spec->name);
          continue;
        }
      CHECK (type, strstr (error->message, BLOCK_PATH) != NULL
                   && message_names (error->message, spec->name),
             "%s = '1+*' refused without naming the block and the "
             "parameter: %s", spec->name, error->message);
      CHECK (type, g_strcmp0 (qd_block_get_param (block, spec->name), "1+*") != 0,
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

      if (spec->kind != QD_PARAM_NUMBER)
        continue;
      n_checked++;
      /* "nosuchname" starts at column 5. */
      expect_param_problem (type, spec->name, "1 + nosuchname", "column 5");
    }
  if (n_checked == 0)
    g_test_skip ("no NUMBER parameter");
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
    { "ports", test_ports },
    { "range", test_range },
    { "syntax", test_syntax },
    { "unknown-name", test_unknown_name },
  };
  const QdBlockType *const *types;
  guint n_types, n_blocks = 0;
  int status;

  g_test_init (&argc, &argv, NULL);
  qd_init ();

  tmp_dir = g_dir_make_tmp ("qd-every-block-XXXXXX", NULL);
  g_assert_nonnull (tmp_dir);

  types = qd_registry_list (&n_types);
  for (guint i = 0; i < n_types; i++)
    {
      /* Subsystems and port blocks have no DEVS functions: they vanish
       * when the hierarchy is flattened and cannot run on their own. */
      if (types[i]->flags & QD_BLOCK_STRUCTURAL)
        continue;
      n_blocks++;
      for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
        {
          g_autofree char *path = g_strdup_printf ("/every-block/%s/%s",
                                                   cases[c].name,
                                                   types[i]->id);

          g_test_add_data_func (path, types[i], cases[c].func);
        }
    }
  /* The library is not empty: a broken registration would pass vacuously. */
  g_assert_cmpuint (n_blocks, >=, 30);
  g_test_add_func ("/every-block/cli-json", test_cli_json);

  status = g_test_run ();
  remove_tree (tmp_dir);
  g_free (tmp_dir);
  return status;
}

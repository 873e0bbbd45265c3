/* test-file.c: the .qdevs format: round trips, canonical form, errors,
 * truncated input and atomic saving
 *
 * The block types whose exact messages the error tests compare are
 * registered here under test-only ids, so that the expected messages do
 * not change when the block library grows.
 */
#include "qd-test-util.h"
#include "qd-json-writer.h"
#include "qd-file-private.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#define NAME "t.qdevs"
#define HEAD "{\"format\": \"qdevs\", \"version\": 1, "

/* Test block types */

static const QdParamSpec gain_params[] = {
  { "k", "Gain", QD_PARAM_NUMBER, "1", -QD_INF, QD_INF, NULL, NULL, NULL, 0 },
};

static const QdBlockType test_gain = {
  .id = "test-gain", .category = "Test", .name = "Gain",
  .inputs = { .count = 1 }, .outputs = { .count = 1 },
  .params = gain_params, .n_params = G_N_ELEMENTS (gain_params),
  .flags = QD_BLOCK_FEEDTHROUGH,
};

static const QdParamSpec sum_params[] = {
  { "n", "Inputs", QD_PARAM_INTEGER, "2", 1, 8, NULL, NULL, NULL, 0 },
  { "weights", "Weights", QD_PARAM_VECTOR, "1, 1", -QD_INF, QD_INF, NULL, NULL, NULL, 0 },
};

static const QdBlockType test_sum = {
  .id = "test-sum", .category = "Test", .name = "Sum",
  .inputs = { .size_param = "n" }, .outputs = { .count = 1 },
  .params = sum_params, .n_params = G_N_ELEMENTS (sum_params),
  .flags = QD_BLOCK_FEEDTHROUGH,
};

static const QdBlockType test_scope = {
  .id = "test-scope", .category = "Test", .name = "Scope",
  .inputs = { .count = 1 },
};

static const char *const method_choices[] = { "QSS1", "QSS2", "QSS3", NULL };

static const QdParamSpec integrator_params[] = {
  { "x0", "Initial state", QD_PARAM_NUMBER, "0", -QD_INF, QD_INF, NULL, NULL, NULL, 0 },
  { "method", "Method", QD_PARAM_CHOICE, "", -QD_INF, QD_INF, NULL, NULL,
    method_choices, QD_PARAM_INHERIT },
  { "limit", "Limit", QD_PARAM_BOOLEAN, "false", -QD_INF, QD_INF, NULL, NULL, NULL, 0 },
};

static const QdBlockType test_integrator = {
  .id = "test-integrator", .category = "Test", .name = "Integrator",
  .inputs = { .count = 1 }, .outputs = { .count = 1 },
  .params = integrator_params, .n_params = G_N_ELEMENTS (integrator_params),
  .flags = QD_BLOCK_INTEGRATOR,
};

/* Stand-ins for the library types the documentation's example uses,
 * registered only when the library does not provide them. */
static const QdParamSpec lib_integrator_params[] = {
  { "x0", "Initial state", QD_PARAM_NUMBER, "0", -QD_INF, QD_INF, NULL, NULL, NULL, 0 },
};
static const QdBlockType lib_integrator = {
  .id = "integrator", .category = "Test", .name = "Integrator",
  .inputs = { .count = 1 }, .outputs = { .count = 1 },
  .params = lib_integrator_params, .n_params = G_N_ELEMENTS (lib_integrator_params),
};
static const QdBlockType lib_gain = {
  .id = "gain", .category = "Test", .name = "Gain",
  .inputs = { .count = 1 }, .outputs = { .count = 1 },
  .params = gain_params, .n_params = G_N_ELEMENTS (gain_params),
};
static const QdBlockType lib_scope = {
  .id = "scope", .category = "Test", .name = "Scope",
  .inputs = { .count = 1 },
};

static void
register_types (void)
{
  const QdBlockType *lib[] = { &lib_integrator, &lib_gain, &lib_scope };

  qd_registry_register (&test_gain);
  qd_registry_register (&test_sum);
  qd_registry_register (&test_scope);
  qd_registry_register (&test_integrator);
  for (guint i = 0; i < G_N_ELEMENTS (lib); i++)
    if (qd_registry_lookup (lib[i]->id) == NULL)
      qd_registry_register (lib[i]);
}

/* Helpers */

static char *
read_source_file (const char *dir,
                  const char *name,
                  gsize      *length)
{
  g_autofree char *path = qd_test_source_path ("tests", dir, name, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, length, &error);
  g_assert_no_error (error);
  return contents;
}

/* Loads @data, saves it to text, and checks that the text is @expected
 * (when given) and that loading and saving that text changes nothing. */
static void
assert_canonical (const char *data,
                  gsize       length,
                  const char *expected,
                  const char *name)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) doc = NULL;
  g_autoptr(QdDocument) again = NULL;
  g_autofree char *out = NULL;
  g_autofree char *out2 = NULL;
  gsize out_len, out2_len;

  doc = qd_document_load_data (data, length, name, &error);
  g_assert_no_error (error);
  g_assert_nonnull (doc);
  g_assert_false (qd_document_get_modified (doc));

  out = qd_document_to_data (doc, &out_len);
  g_assert_cmpuint (out_len, ==, strlen (out));
  if (expected != NULL)
    g_assert_cmpstr (out, ==, expected);

  again = qd_document_load_data (out, out_len, name, &error);
  g_assert_no_error (error);
  out2 = qd_document_to_data (again, &out2_len);
  g_assert_cmpstr (out2, ==, out);
}

static void
assert_load_error (const char *data,
                   int         code,
                   const char *message)
{
  g_autoptr(GError) error = NULL;
  QdDocument *doc = qd_document_load_data (data, strlen (data), NAME, &error);

  g_assert_null (doc);
  g_assert_nonnull (error);
  g_assert_cmpstr (error->message, ==, message);
  g_assert_error (error, QD_ERROR, code);
}

/* Tests: the writer */

static void
test_number_format (void)
{
  static const struct { double value; const char *text; } cases[] = {
    { 0.1, "0.1" }, { 1e-12, "1e-12" }, { 100.01, "100.01" }, { -0.0, "0" },
    { 0.0, "0" }, { 120, "120" }, { -40, "-40" }, { 1.0 / 3.0, "0.3333333333333333" },
    { 0.30000000000000004, "0.30000000000000004" }, { 1e300, "1e300" },
    { 1.5e-7, "1.5e-7" }, { 123456789012345.0, "123456789012345" },
    { 1e15, "1e15" }, { 2.5, "2.5" }, { -1e-300, "-1e-300" },
    { -999999999999999.0, "-999999999999999" }, { 7, "7" }, { -1, "-1" },
    { NAN, "null" }, { INFINITY, "null" },
  };
  char buf[QD_JSON_NUMBER_BUFSIZE];
  GRand *rand = g_rand_new_with_seed (42);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    g_assert_cmpstr (qd_json_format_number (cases[i].value, buf), ==, cases[i].text);

  /* Random bit patterns: every finite double reads back exactly. */
  for (guint i = 0; i < 100000; i++)
    {
      union { guint64 bits; double d; } u;

      u.bits = ((guint64) g_rand_int (rand) << 32) | g_rand_int (rand);
      if (!isfinite (u.d))
        continue;
      qd_json_format_number (u.d, buf);
      g_assert_cmpfloat (g_ascii_strtod (buf, NULL), ==, u.d);
      g_assert_null (strchr (buf, '+'));
    }
  g_rand_free (rand);
}

static void
test_string_escape (void)
{
  g_autoptr(GString) out = g_string_new (NULL);

  qd_json_append_string (out, "a\"b\\c\n\t\x01\x1f ẋ/−\x7f");
  g_assert_cmpstr (out->str, ==, "\"a\\\"b\\\\c\\n\\t\\u0001\\u001f ẋ/−\x7f\"");

  /* Invalid UTF-8 still gives valid JSON. */
  g_string_truncate (out, 0);
  qd_json_append_string (out, "x\xff");
  g_assert_true (g_utf8_validate (out->str, -1, NULL));
  g_assert_cmpstr (out->str, ==, "\"x\xef\xbf\xbd\"");
}

static void
test_writer_layout (void)
{
  g_autoptr(QdJsonWriter) w = qd_json_writer_new ();
  g_autofree char *text = NULL;
  gsize length;

  qd_json_writer_begin_object (w, FALSE);
  qd_json_writer_key (w, "a");
  qd_json_writer_begin_array (w, FALSE);
  qd_json_writer_end_array (w);
  qd_json_writer_key (w, "b");
  qd_json_writer_begin_object (w, TRUE);
  qd_json_writer_key (w, "c");
  qd_json_writer_point (w, 1, 2);
  qd_json_writer_key (w, "d");
  qd_json_writer_boolean (w, FALSE);
  qd_json_writer_end_object (w);
  qd_json_writer_key (w, "e");
  qd_json_writer_begin_array (w, FALSE);
  qd_json_writer_int (w, -3);
  qd_json_writer_int (w, 0);
  qd_json_writer_int (w, G_MININT64);
  qd_json_writer_uint (w, G_MAXUINT64);
  qd_json_writer_end_array (w);
  qd_json_writer_end_object (w);
  text = qd_json_writer_free_to_data (g_steal_pointer (&w), &length);

  g_assert_cmpstr (text, ==,
                   "{\n"
                   "  \"a\": [],\n"
                   "  \"b\": { \"c\": [1, 2], \"d\": false },\n"
                   "  \"e\": [\n"
                   "    -3,\n"
                   "    0,\n"
                   "    -9223372036854775808,\n"
                   "    18446744073709551615\n"
                   "  ]\n"
                   "}\n");
  g_assert_cmpuint (length, ==, strlen (text));
}

/* Tests: round trips */

static void
test_roundtrip_examples (void)
{
  g_autofree char *dir_path = qd_test_source_path ("data", "examples", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, &error);
  g_autoptr(GPtrArray) not_canonical = g_ptr_array_new_with_free_func (g_free);
  const char *name;
  guint n = 0;

  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *contents = NULL;
      g_autofree char *out = NULL;
      g_autoptr(QdDocument) doc = NULL;
      gsize length;

      if (!g_str_has_suffix (name, QD_FILE_EXTENSION))
        continue;
      n++;
      path = g_build_filename (dir_path, name, NULL);
      g_file_get_contents (path, &contents, &length, &error);
      g_assert_no_error (error);

      /* Loads, and saves to a form that is stable. */
      assert_canonical (contents, length, NULL, name);

      doc = qd_document_load (path, &error);
      g_assert_no_error (error);
      out = qd_document_to_data (doc, NULL);
      if (strcmp (out, contents) != 0)
        g_ptr_array_add (not_canonical, g_strdup (name));
    }
  g_test_message ("%u examples", n);

  /* Examples are shipped in canonical form so that opening and saving one
   * does not show up as a change. */
  if (not_canonical->len > 0)
    {
      g_ptr_array_add (not_canonical, NULL);
      g_autofree char *list = g_strjoinv (", ", (char **) not_canonical->pdata);

      g_test_fail_printf ("not in canonical form (open and save it once): %s",
                          list);
    }
}

static void
test_roundtrip_features (void)
{
  g_autofree char *contents = NULL;
  g_autoptr(QdDocument) doc = NULL;
  g_autoptr(GError) error = NULL;
  gsize length;
  QdBlock *block;
  QdLink *link;
  const QdLinkTarget *target;
  guint n_in, n_out;

  contents = read_source_file ("data", "roundtrip-features.qdevs", &length);
  assert_canonical (contents, length, contents, "roundtrip-features.qdevs");

  /* What was read, not only that it writes back. */
  doc = qd_document_load_data (contents, length, NAME, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (qd_document_get_title (doc), ==, "Übertragung ẋ = −x — 日本語");
  g_assert_nonnull (strstr (qd_document_get_description (doc), "\x1b and a bell \x07."));
  g_assert_cmpfloat (qd_document_get_settings (doc)->final_time, ==, 100.01);
  g_assert_cmpfloat (qd_document_get_settings (doc)->dqmin, ==, 1e-12);
  g_assert_cmpuint (qd_document_get_settings (doc)->illegitimacy_limit, ==, G_MAXUINT64);
  g_assert_cmpstr (qd_document_get_variable (doc, "tau"), ==, "R*C");

  block = qd_document_find_block_by_path (doc, "/Gain ÄÖÜ");
  g_assert_nonnull (block);
  g_assert_cmpint (block->rotation, ==, 90);
  g_assert_true (block->flip);
  g_assert_cmpfloat (block->x, ==, 1e-12);
  g_assert_cmpfloat (block->width, ==, 60.25);
  block = qd_document_find_block_by_path (doc, "/Integrator ∫");
  g_assert_cmpstr (qd_block_get_param (block, "x0"), ==, "-0");

  block = qd_document_find_block_by_path (doc, "/Plant ✓");
  g_assert_nonnull (block);
  g_assert_nonnull (block->inner);
  g_assert_true (qd_block_count_ports (block, &n_in, &n_out, NULL));
  g_assert_cmpuint (n_in, ==, 1);
  g_assert_cmpuint (n_out, ==, 1);
  g_assert_nonnull (qd_document_find_block_by_path (doc, "/Plant ✓/Gain ÄÖÜ"));

  link = qd_document_find_link (doc, "l3");
  g_assert_nonnull (link);
  g_assert_cmpuint (link->n_targets, ==, 3);
  target = link->targets[0];
  g_assert_cmpuint (target->points->len, ==, 3);
  g_assert_cmpfloat (g_array_index (target->points, QdPoint, 1).y, ==, 1e-7);
  target = link->targets[1];
  g_assert_cmpstr (target->dst.block, ==, "b8");
  g_assert_cmpuint (target->dst.port, ==, 2);
  /* A target without bends keeps no array (a large model has millions). */
  g_assert_null (target->points);
  g_assert_cmpuint (qd_link_target_n_points (target), ==, 0);
}

typedef void (*DiagramFunc) (const char *name,
                             const char *contents,
                             gsize       length);

/* Calls @func on each file of the folder @dir_path, and returns how many. */
static guint
for_each_file (const char  *dir_path,
               DiagramFunc  func)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, &error);
  const char *name;
  guint n = 0;

  g_assert_no_error (error);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir_path, name, NULL);
      g_autofree char *contents = NULL;
      gsize length;

      g_file_get_contents (path, &contents, &length, &error);
      g_assert_no_error (error);
      func (name, contents, length);
      n++;
    }
  return n;
}

static void
assert_canonical_seed (const char *name,
                       const char *contents,
                       gsize       length)
{
  assert_canonical (contents, length, NULL, name);
}

/* The fuzzer's seeds are valid diagrams of the real block library, so
 * that it starts from inputs that reach every part of the loader. */
static void
test_fuzz_seeds (void)
{
  g_autofree char *dir_path = qd_test_source_path ("tests", "fuzz", "corpus", NULL);

  g_assert_cmpuint (for_each_file (dir_path, assert_canonical_seed), >=, 5);
}

/* The first ```json block of docs/file-format.md is the complete example
 * the page promises: it loads, it is what QDevs writes, and it is the
 * model it says it is. */
static void
test_docs_example (void)
{
  g_autofree char *example = qd_test_file_format_example ();
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) doc = NULL;
  QdSystem *root;
  QdBlock *gain;
  QdLink *link;

  assert_canonical (example, strlen (example), example, "file-format.md");

  doc = qd_document_load_data (example, strlen (example), "file-format.md", &error);
  g_assert_no_error (error);
  root = qd_document_get_root (doc);
  g_assert_cmpuint (root->blocks->len, ==, 3);
  g_assert_cmpuint (root->links->len, ==, 2);
  gain = qd_system_find_block_by_name (root, "Gain");
  g_assert_nonnull (gain);
  g_assert_cmpstr (gain->type, ==, "gain");
  g_assert_cmpstr (qd_block_get_param (gain, "k"), ==, "-1");
  /* The loop: Integrator -> Gain -> Integrator. */
  link = qd_system_find_driver (root, gain->id, 0, NULL);
  g_assert_nonnull (link);
  g_assert_cmpstr (link->src.block, ==, "b1");
  link = qd_system_find_driver (root, "b1", 0, NULL);
  g_assert_nonnull (link);
  g_assert_cmpstr (link->src.block, ==, gain->id);
  g_assert_cmpfloat (qd_document_get_settings (doc)->final_time, ==, 5);
}

static void
test_canonicalise (void)
{
  g_autofree char *hand = NULL;
  g_autofree char *expected = NULL;
  gsize length;

  hand = read_source_file ("data", "handwritten.qdevs", &length);
  expected = read_source_file ("data", "handwritten.canonical.qdevs", NULL);
  g_assert_cmpstr (hand, !=, expected);
  assert_canonical (hand, length, expected, "handwritten.qdevs");
}

/* Tests: errors */

static void
test_syntax_errors (void)
{
  assert_load_error ("{\n  \"format\": \"qdevs\",\n  \"version\": 1,,\n}",
                     QD_ERROR_SYNTAX,
                     NAME ":3:16: JSON syntax error: expected a key in double quotes");
  /* Columns count characters, not bytes. */
  assert_load_error ("{\n  \"title\": \"ẋ−x\" x\n}",
                     QD_ERROR_SYNTAX,
                     NAME ":2:18: JSON syntax error: expected ',' or '}' in an object");
  assert_load_error ("{\"format\"",
                     QD_ERROR_SYNTAX,
                     NAME ":1:10: JSON syntax error: unexpected end of the file; "
                     "is the file cut short?");
  assert_load_error ("", QD_ERROR_SYNTAX,
                     NAME ":1:1: JSON syntax error: the file is empty");
  assert_load_error ("{} x", QD_ERROR_SYNTAX,
                     NAME ":1:4: JSON syntax error: unexpected character 'x'");
  assert_load_error ("[1, 2,]", QD_ERROR_SYNTAX,
                     NAME ":1:7: JSON syntax error: unexpected character ']'");
  assert_load_error ("{\"title\": \"\xff\"}", QD_ERROR_SYNTAX,
                     NAME ":1:12: JSON syntax error: the text is not valid UTF-8; "
                     "save the file as UTF-8");
  /* What json-c's own UTF-8 check lets through: an overlong '/' and a
   * surrogate encoded in three bytes (CESU-8). */
  assert_load_error (HEAD "\n\"title\": \"a\xc0\xaf" "b\"}", QD_ERROR_SYNTAX,
                     NAME ":2:12: JSON syntax error: the text is not valid UTF-8; "
                     "save the file as UTF-8");
  assert_load_error (HEAD "\"title\": \"\xed\xa0\x80\xed\xb0\x80\"}", QD_ERROR_SYNTAX,
                     NAME ":1:45: JSON syntax error: the text is not valid UTF-8; "
                     "save the file as UTF-8");
  /* Escapes that decode to no text. */
  assert_load_error (HEAD "\"title\": \"a\\u0000b\"}", QD_ERROR_SYNTAX,
                     NAME ":1:46: JSON syntax error: \\u0000 would put a NUL "
                     "character in the text, which cannot hold one; remove it");
  assert_load_error (HEAD "\n  \"description\": \"x \\ud83d y\"}", QD_ERROR_SYNTAX,
                     NAME ":2:21: JSON syntax error: \\ud83d is the first half of a "
                     "UTF-16 surrogate pair without the second; write the "
                     "character itself");
  assert_load_error (HEAD "\"title\": \"\\ude00\"}", QD_ERROR_SYNTAX,
                     NAME ":1:45: JSON syntax error: \\ude00 is the second half of "
                     "a UTF-16 surrogate pair without the first; write the "
                     "character itself");
  /* Nesting beyond the parser's 256 levels: the object is the first,
   * the 256th bracket the 257th. */
  {
    GString *deep = g_string_new ("{\"format\": \"qdevs\", \"version\": 1,\n\"title\": ");

    for (int i = 0; i < 300; i++)
      g_string_append_c (deep, '[');
    assert_load_error (deep->str, QD_ERROR_SYNTAX,
                       NAME ":2:265: JSON syntax error: nesting deeper than 256 levels");
    g_string_free (deep, TRUE);
  }
  assert_load_error ("// comment\n{}", QD_ERROR_SYNTAX,
                     NAME ":1:1: JSON syntax error: unexpected character '/'");
  assert_load_error ("null", QD_ERROR_FORMAT,
                     NAME ": not a QDevs diagram (no \"format\": \"qdevs\")");
  assert_load_error ("12", QD_ERROR_FORMAT,
                     NAME ": not a QDevs diagram (no \"format\": \"qdevs\")");
  assert_load_error ("[1, 2", QD_ERROR_SYNTAX,
                     NAME ":1:6: JSON syntax error: unexpected end of the file; "
                     "is the file cut short?");
}

typedef struct
{
  const char *data;
  int         code;
  const char *message;
} ErrorCase;

static void
test_semantic_errors (void)
{
  static const ErrorCase cases[] = {
    /* The document */
    { "[1, 2]", QD_ERROR_FORMAT, NAME ": not a QDevs diagram (no \"format\": \"qdevs\")" },
    { "{\"format\": \"qdevz\", \"version\": 1}", QD_ERROR_FORMAT,
      NAME ": not a QDevs diagram (no \"format\": \"qdevs\")" },
    { "{\"format\": \"qdevs\", \"version\": 7}", QD_ERROR_VERSION,
      NAME ": format version 7 is newer than this QDevs understands (1); "
      "open it with a newer QDevs" },
    { "{\"format\": \"qdevs\", \"version\": \"1\"}", QD_ERROR_FORMAT,
      NAME ": \"version\" must be a whole number (this QDevs writes 1)" },
    { HEAD "\"titel\": \"x\"}", QD_ERROR_FORMAT,
      NAME ": unknown key \"titel\" in the diagram; the keys are format, version, "
      "title, description, simulation, variables, blocks, links, breakpoints, notes" },
    { HEAD "\"title\": 3}", QD_ERROR_FORMAT, NAME ": \"title\" must be a string" },
    { HEAD "\"notes\": {}}", QD_ERROR_FORMAT, NAME ": \"notes\" must be an array of objects" },
    { HEAD "\"notes\": [{\"text\": \"a\"}]}", QD_ERROR_FORMAT,
      NAME ": note 1: \"position\" must be an array of two numbers from -10000000 to 10000000" },
    { HEAD "\"notes\": [{\"position\": [0, 0], \"text\": 1}]}", QD_ERROR_FORMAT,
      NAME ": note 1: \"text\" must be a string" },
    { HEAD "\"blocks\": {}}", QD_ERROR_FORMAT, NAME ": \"blocks\" must be an array of blocks" },

    /* Simulation settings and variables */
    { HEAD "\"simulation\": {\"final\": -1}}", QD_ERROR_INVALID,
      NAME ": settings: the final time (-1) must be later than the start time (0)" },
    { HEAD "\"simulation\": {\"start\": NaN}}", QD_ERROR_FORMAT,
      NAME ": \"simulation\": \"start\" must be a finite number" },
    { HEAD "\"simulation\": {\"final\": 1e999}}", QD_ERROR_FORMAT,
      NAME ": \"simulation\": \"final\" must be a finite number" },
    { HEAD "\"simulation\": {\"illegitimacy_limit\": -5}}", QD_ERROR_FORMAT,
      NAME ": \"simulation\": \"illegitimacy_limit\" must be a whole number from 0 "
      "to 18446744073709551615" },
    { HEAD "\"simulation\": {\"illegitimacy_limit\": 1e30}}", QD_ERROR_FORMAT,
      NAME ": \"simulation\": \"illegitimacy_limit\" must be a whole number from 0 "
      "to 18446744073709551615" },
    { HEAD "\"simulation\": {\"dt\": 1}}", QD_ERROR_FORMAT,
      NAME ": \"simulation\": unknown key \"dt\" in \"simulation\"; the keys are "
      "start, final, method, dqmin, dqrel, illegitimacy_limit, solver, rtol, atol, max_step, h" },
    { HEAD "\"variables\": {\"R\": [1]}}", QD_ERROR_FORMAT,
      NAME ": variable 'R': the value must be an expression in a string, or a number" },

    /* Blocks */
    { HEAD "\"blocks\": [{\"id\": \"p\", \"type\": \"subsystem\", \"name\": \"Plant\", "
      "\"blocks\": [{\"id\": \"x\", \"type\": \"gian\", \"name\": \"Gain 1\"}]}]}",
      QD_ERROR_UNKNOWN_TYPE,
      NAME ": /Plant/Gain 1: unknown block type 'gian'; run 'qdevs-cli blocks' to see "
      "the available types" },
    { HEAD "\"blocks\": [{\"id\": \"b1\", \"type\": \"test-gain\", \"name\": \"Gain\", "
      "\"params\": {\"kk\": \"2\"}}]}",
      QD_ERROR_PARAM, NAME ": /Gain: unknown parameter 'kk' (Gain has: k)" },
    { HEAD "\"blocks\": [{\"id\": \"b1\", \"type\": \"test-scope\", \"name\": \"Scope\", "
      "\"params\": {\"k\": \"2\"}}]}",
      QD_ERROR_PARAM, NAME ": /Scope: unknown parameter 'k' (Scope has no parameters)" },
    { HEAD "\"blocks\": [{\"id\": \"b1\", \"type\": \"test-integrator\", \"name\": \"Integrator\", "
      "\"params\": {\"method\": \"QSS9\"}}]}",
      QD_ERROR_PARAM,
      NAME ": /Integrator: parameter 'method': 'QSS9' is not one of QSS1, QSS2, QSS3 "
      "(or empty for the model's default)" },
    { HEAD "\"blocks\": [{\"id\": \"b1\", \"type\": \"test-integrator\", \"name\": \"Integrator\", "
      "\"params\": {\"limit\": \"yes\"}}]}",
      QD_ERROR_PARAM, NAME ": /Integrator: parameter 'limit': 'yes' is neither true nor false" },
    { HEAD "\"blocks\": [{\"id\": \"b1\", \"type\": \"test-gain\", \"name\": \"Gain\", "
      "\"params\": {\"k\": {}}}]}",
      QD_ERROR_PARAM, NAME ": /Gain: parameter 'k' must be a string, a number, true or false" },
    { HEAD "\"blocks\": [{\"id\": \"b1\", \"type\": \"test-sum\", \"name\": \"Sum\", "
      "\"params\": {\"n\": \"99\"}}]}",
      QD_ERROR_PARAM,
      NAME ": /Sum: parameter 'n': '99' is not a port count; write a whole number from 1 to 8" },
    { HEAD "\"blocks\": [{\"id\": \"b1\", \"type\": \"test-gain\", \"name\": \"Gain\", "
      "\"position\": [1]}]}",
      QD_ERROR_FORMAT, NAME ": /Gain: \"position\" must be an array of two numbers from "
      "-10000000 to 10000000" },
    { HEAD "\"blocks\": [{\"id\": \"b1\", \"type\": \"test-gain\", \"name\": \"Gain\", "
      "\"position\": [1, \"2\"]}]}",
      QD_ERROR_FORMAT, NAME ": /Gain: \"position\" must be an array of two numbers from "
      "-10000000 to 10000000" },
    { HEAD "\"blocks\": [{\"id\": \"b1\", \"type\": \"test-gain\", \"name\": \"Gain\", "
      "\"size\": [0, 40]}]}",
      QD_ERROR_FORMAT, NAME ": /Gain: \"size\" must be an array of two positive numbers up to "
      "10000000" },
    /* Geometry far out of range (the canvas would never draw it). */
    { HEAD "\"blocks\": [{\"id\": \"b1\", \"type\": \"test-gain\", \"name\": \"Gain\", "
      "\"position\": [-9223372036854775809, 0]}]}",
      QD_ERROR_FORMAT, NAME ": /Gain: \"position\" must be an array of two numbers from "
      "-10000000 to 10000000" },
    { HEAD "\"blocks\": [{\"id\": \"p\", \"type\": \"subsystem\", \"name\": \"Plant\", "
      "\"blocks\": [{\"id\": \"b1\", \"type\": \"test-gain\", \"name\": \"Gain\", "
      "\"position\": [0, 1.5e7]}]}]}",
      QD_ERROR_FORMAT, NAME ": /Plant/Gain: \"position\" must be an array of two numbers "
      "from -10000000 to 10000000" },
    { HEAD "\"blocks\": [{\"id\": \"b1\", \"type\": \"test-gain\", \"name\": \"Gain\", "
      "\"size\": [40, 1e300]}]}",
      QD_ERROR_FORMAT, NAME ": /Gain: \"size\" must be an array of two positive numbers up to "
      "10000000" },
    { HEAD "\"blocks\": [{\"id\": \"b1\", \"type\": \"test-gain\", \"name\": \"Gain\", "
      "\"rotation\": 45}]}",
      QD_ERROR_FORMAT, NAME ": /Gain: \"rotation\" must be 0, 90, 180 or 270" },
    { HEAD "\"blocks\": [{\"id\": \"b1\", \"type\": \"test-gain\", \"name\": \"Gain\", "
      "\"flip\": 1}]}",
      QD_ERROR_FORMAT, NAME ": /Gain: \"flip\" must be true or false" },
    { HEAD "\"blocks\": [{\"id\": \"b1\", \"type\": \"test-gain\", \"name\": \"Gain\", "
      "\"positon\": [1, 2]}]}",
      QD_ERROR_FORMAT,
      NAME ": /Gain: unknown key \"positon\" in a block; the keys are id, type, name, "
      "position, size, rotation, flip, params, mask, blocks, links" },
    { HEAD "\"blocks\": [{\"id\": \"b1\", \"type\": \"test-gain\", \"name\": \"Gain\", "
      "\"blocks\": []}]}",
      QD_ERROR_FORMAT,
      NAME ": /Gain: only a subsystem has \"blocks\" and \"links\"; remove them or make "
      "the block a subsystem" },
    { HEAD "\"blocks\": [{\"id\": \"b1\", \"type\": \"test-gain\"}]}",
      QD_ERROR_FORMAT, NAME ": block 1: \"name\" must be a non-empty string without '/'" },
    { HEAD "\"blocks\": [{\"id\": \"p\", \"type\": \"subsystem\", \"name\": \"Plant\", "
      "\"blocks\": [{\"id\": \"b1\", \"type\": \"test-gain\", \"name\": \"a/b\"}]}]}",
      QD_ERROR_FORMAT, NAME ": /Plant, block 1: \"name\" must be a non-empty string without '/'" },
    { HEAD "\"blocks\": [3]}", QD_ERROR_FORMAT, NAME ": block 1: a block must be an object" },
    { HEAD "\"blocks\": [{\"type\": \"test-gain\", \"name\": \"Gain\"}]}",
      QD_ERROR_FORMAT, NAME ": /Gain: \"id\" must be a non-empty string" },
    { HEAD "\"blocks\": [{\"id\": \"b1\", \"name\": \"Gain\"}]}",
      QD_ERROR_FORMAT, NAME ": /Gain: \"type\" must be a non-empty string" },
    { HEAD "\"blocks\": [{\"id\": \"b2\", \"type\": \"test-gain\", \"name\": \"Gain\"}, "
      "{\"id\": \"b2\", \"type\": \"test-scope\", \"name\": \"Scope\"}]}",
      QD_ERROR_DUPLICATE, NAME ": /Scope: id 'b2' is already used by /Gain; ids must be unique" },
    { HEAD "\"blocks\": [{\"id\": \"b2\", \"type\": \"test-gain\", \"name\": \"Gain\"}, "
      "{\"id\": \"p\", \"type\": \"subsystem\", \"name\": \"Plant\", "
      "\"blocks\": [{\"id\": \"b2\", \"type\": \"test-gain\", \"name\": \"Gain\"}]}]}",
      QD_ERROR_DUPLICATE,
      NAME ": /Plant/Gain: id 'b2' is already used by /Gain; ids must be unique" },
    { HEAD "\"blocks\": [{\"id\": \"b1\", \"type\": \"test-gain\", \"name\": \"Gain\"}, "
      "{\"id\": \"b2\", \"type\": \"test-scope\", \"name\": \"Gain\"}]}",
      QD_ERROR_DUPLICATE,
      NAME ": /Gain: another block in the top level has the same name; names must be "
      "unique among the blocks of a system" },
    { HEAD "\"blocks\": [{\"id\": \"p\", \"type\": \"subsystem\", \"name\": \"Plant\", "
      "\"blocks\": [{\"id\": \"b1\", \"type\": \"test-gain\", \"name\": \"G\"}, "
      "{\"id\": \"b2\", \"type\": \"test-gain\", \"name\": \"G\"}]}]}",
      QD_ERROR_DUPLICATE,
      NAME ": /Plant/G: another block in /Plant has the same name; names must be "
      "unique among the blocks of a system" },

    /* Links */
#define TWO_BLOCKS \
    HEAD "\"blocks\": [{\"id\": \"b1\", \"type\": \"test-gain\", \"name\": \"Gain\"}, " \
    "{\"id\": \"b2\", \"type\": \"test-scope\", \"name\": \"Scope\"}], "
    { TWO_BLOCKS "\"links\": [{\"id\": \"l3\", \"from\": {\"block\": \"b9\", \"port\": 0}, "
      "\"to\": [{\"block\": \"b2\", \"port\": 0}]}]}",
      QD_ERROR_LINK, NAME ": link l3: block 'b9' does not exist" },
    { TWO_BLOCKS "\"links\": [{\"id\": \"l3\", \"from\": {\"block\": \"b2\", \"port\": 0}, "
      "\"to\": [{\"block\": \"b1\", \"port\": 3}]}]}",
      QD_ERROR_LINK, NAME ": link l3: /Scope has 0 outputs, so output 1 (\"port\": 0) does not exist" },
    { TWO_BLOCKS "\"links\": [{\"id\": \"l3\", \"from\": {\"block\": \"b1\", \"port\": 0}, "
      "\"to\": [{\"block\": \"b1\", \"port\": 3}]}]}",
      QD_ERROR_LINK, NAME ": link l3: /Gain has 1 input, so input 4 (\"port\": 3) does not exist" },
    { TWO_BLOCKS "\"links\": [{\"id\": \"l1\", \"from\": {\"block\": \"b1\", \"port\": 0}, "
      "\"to\": [{\"block\": \"b2\", \"port\": 0}, {\"block\": \"b2\", \"port\": 0}]}]}",
      QD_ERROR_LINK,
      NAME ": link l1: input 1 (\"port\": 0) of /Scope is already driven by link l1; "
      "an input takes only one link" },
    { TWO_BLOCKS "\"links\": [{\"id\": \"l1\", \"from\": {\"block\": \"b1\", \"port\": 0}, "
      "\"to\": [{\"block\": \"b2\", \"port\": 0}]}, "
      "{\"id\": \"l2\", \"from\": {\"block\": \"b1\", \"port\": 0}, "
      "\"to\": [{\"block\": \"b1\", \"port\": 0}]}]}",
      QD_ERROR_LINK,
      NAME ": link l2: output 1 (\"port\": 0) of /Gain already starts link l1; make this "
      "target another entry in that link's \"to\"" },
    { TWO_BLOCKS "\"links\": [{\"id\": \"l1\", \"from\": {\"block\": \"b1\", \"port\": 0}, "
      "\"to\": [{\"block\": \"b2\", \"port\": 0}]}, "
      "{\"id\": \"l1\", \"from\": {\"block\": \"b2\", \"port\": 0}, "
      "\"to\": [{\"block\": \"b1\", \"port\": 0}]}]}",
      QD_ERROR_DUPLICATE,
      NAME ": link l1: the id is already used by another link; ids must be unique" },
    { TWO_BLOCKS "\"links\": [{\"id\": \"l1\", \"from\": {\"block\": \"b1\", \"port\": 0}, "
      "\"to\": []}]}",
      QD_ERROR_FORMAT,
      NAME ": link l1: \"to\" must be a non-empty array of targets "
      "({ \"block\": ..., \"port\": ... })" },
    { TWO_BLOCKS "\"links\": [{\"id\": \"l1\", \"from\": {\"block\": \"b1\", \"port\": -1}, "
      "\"to\": [{\"block\": \"b2\", \"port\": 0}]}]}",
      QD_ERROR_FORMAT,
      NAME ": link l1: \"port\" in \"from\" must be a port number (0, 1, ...)" },
    { TWO_BLOCKS "\"links\": [{\"id\": \"l1\", \"from\": {\"block\": \"b1\", \"port\": 0}, "
      "\"to\": [{\"block\": \"b2\", \"port\": 0, \"points\": [[1, 2], [3]]}]}]}",
      QD_ERROR_FORMAT, NAME ": link l1: \"points\" must be an array of [x, y] pairs, "
      "each number from -10000000 to 10000000" },
    { TWO_BLOCKS "\"links\": [{\"id\": \"l1\", \"from\": {\"block\": \"b1\", \"port\": 0}, "
      "\"to\": [{\"block\": \"b2\", \"port\": 0, \"points\": [[1, 2], [-1e8, 3]]}]}]}",
      QD_ERROR_FORMAT, NAME ": link l1: \"points\" must be an array of [x, y] pairs, "
      "each number from -10000000 to 10000000" },
    { TWO_BLOCKS "\"links\": [{\"id\": \"l1\", \"form\": {}}]}",
      QD_ERROR_FORMAT,
      NAME ": link l1: unknown key \"form\" in a link; the keys are id, from, to" },
    { TWO_BLOCKS "\"links\": [{\"from\": {\"block\": \"b1\", \"port\": 0}}]}",
      QD_ERROR_FORMAT, NAME ": link 1: \"id\" must be a non-empty string" },
    /* A link inside a subsystem may not reach out of it. */
    { HEAD "\"blocks\": [{\"id\": \"b1\", \"type\": \"test-gain\", \"name\": \"Integrator\"}, "
      "{\"id\": \"p\", \"type\": \"subsystem\", \"name\": \"Plant\", "
      "\"blocks\": [{\"id\": \"b2\", \"type\": \"test-scope\", \"name\": \"S\"}], "
      "\"links\": [{\"id\": \"l7\", \"from\": {\"block\": \"b1\", \"port\": 0}, "
      "\"to\": [{\"block\": \"b2\", \"port\": 0}]}]}]}",
      QD_ERROR_LINK,
      NAME ": /Plant, link l7: block 'b1' is /Integrator, not in /Plant; a link joins "
      "blocks of the same system" },
    /* A subsystem's ports are its port blocks, counted after its inside
     * is loaded. */
    { HEAD "\"blocks\": [{\"id\": \"b1\", \"type\": \"test-gain\", \"name\": \"Gain\"}, "
      "{\"id\": \"p\", \"type\": \"subsystem\", \"name\": \"Plant\", "
      "\"blocks\": [{\"id\": \"i1\", \"type\": \"inport\", \"name\": \"In\"}]}], "
      "\"links\": [{\"id\": \"l1\", \"from\": {\"block\": \"b1\", \"port\": 0}, "
      "\"to\": [{\"block\": \"p\", \"port\": 1}]}]}",
      QD_ERROR_LINK, NAME ": link l1: /Plant has 1 input, so input 2 (\"port\": 1) does not exist" },
#undef TWO_BLOCKS
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_test_message ("case %u: %s", i, cases[i].data);
      assert_load_error (cases[i].data, cases[i].code, cases[i].message);
    }
}

/* Things that look odd but are valid. */
static void
test_accepted_forms (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) doc = NULL;
  const char *ok =
    HEAD "\"blocks\": [{\"id\": \"b1\", \"type\": \"test-gain\", \"name\": \"Gain\"}, "
    "{\"id\": \"p\", \"type\": \"subsystem\", \"name\": \"Plant\", "
    "\"blocks\": [{\"id\": \"i1\", \"type\": \"inport\", \"name\": \"In\"}]}], "
    "\"links\": [{\"id\": \"l1\", \"from\": {\"block\": \"b1\", \"port\": 0.0}, "
    "\"to\": [{\"block\": \"p\", \"port\": 0}]}]}  \n\n";
  g_autofree char *text = NULL;

  doc = qd_document_load_data (ok, strlen (ok), NAME, &error);
  g_assert_no_error (error);
  g_assert_nonnull (qd_document_find_link (doc, "l1"));
  text = qd_document_to_data (doc, NULL);
  g_assert_nonnull (strstr (text, "\"from\": { \"block\": \"b1\", \"port\": 0 }"));
  g_assert_nonnull (strstr (text, "\"links\": []\n"));
}

/* Every prefix of a valid file either loads or fails with a message that
 * starts with the file name; none crashes (the sanitizer build and the
 * fuzzer take this further). */
static void
test_truncated (void)
{
  g_autofree char *contents = NULL;
  gsize length;
  guint n_loaded = 0;

  contents = read_source_file ("data", "roundtrip-features.qdevs", &length);
  for (gsize n = 0; n <= length; n++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *prefix = g_memdup2 (contents, n);
      QdDocument *doc = qd_document_load_data (prefix, n, NAME, &error);

      if (doc != NULL)
        {
          g_assert_no_error (error);
          n_loaded++;
          g_object_unref (doc);
        }
      else
        {
          g_assert_nonnull (error);
          g_assert_true (g_str_has_prefix (error->message, NAME ":"));
          g_assert_error (error, QD_ERROR, QD_ERROR_SYNTAX);
        }
    }
  /* Only the whole file, with or without its final newline. */
  g_assert_cmpuint (n_loaded, ==, 2);
}

/* A file with several bad parameters in several blocks: the strict
 * loader stops at the first; asked for its problems, the loader lists
 * each bad value (with the block's path and id) and opens the diagram,
 * the unknown parameters kept for the check to report and for saving to
 * write back. */
static void
test_load_problems (void)
{
  static const char data[] =
    HEAD "\"blocks\": ["
    "{\"id\": \"c\", \"type\": \"constant\", \"name\": \"C\", "
    " \"params\": {\"value\": \"1+\", \"colour\": \"red\"}},"
    "{\"id\": \"p\", \"type\": \"subsystem\", \"name\": \"Plant\", \"blocks\": ["
    " {\"id\": \"g\", \"type\": \"gain\", \"name\": \"Gain\","
    "  \"params\": {\"kk\": \"2\", \"k\": \"3*\"}},"
    " {\"id\": \"s\", \"type\": \"scope\", \"name\": \"Scope\", \"params\": {\"n\": {}}}],"
    " \"links\": [{\"id\": \"l1\", \"from\": {\"block\": \"g\", \"port\": 0},"
    "  \"to\": [{\"block\": \"s\", \"port\": 0}]}]}]}";
  static const char *const listed[][2] = {
    { "c", "/C: parameter 'value': column 3: unexpected end of the expression" },
    { "g", "/Plant/Gain: parameter 'k': column 3: unexpected end of the expression" },
    { "s", "/Plant/Scope: parameter 'n' must be a string, a number, true or false" },
  };
  g_autoptr(GPtrArray) problems =
    g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) doc = NULL;
  g_autofree char *saved = NULL;
  gboolean unknown_colour = FALSE, unknown_kk = FALSE;
  QdBlock *gain;

  assert_load_error (data, QD_ERROR_SYNTAX,
                     NAME ": /C: parameter 'value': column 3: unexpected end "
                     "of the expression");

  doc = qd_document_load_data_full (data, strlen (data), NAME, problems, &error);
  g_assert_no_error (error);
  g_assert_nonnull (doc);
  g_assert_cmpuint (problems->len, ==, G_N_ELEMENTS (listed));
  for (guint i = 0; i < problems->len; i++)
    {
      const QdProblem *problem = g_ptr_array_index (problems, i);
      g_autofree char *text = qd_problem_to_string (problem);

      g_assert_cmpstr (text, ==, listed[i][1]);
      g_assert_cmpstr (problem->block_id, ==, listed[i][0]);
    }

  /* The bad values are left out; the unknown parameter is kept. */
  gain = qd_document_find_block_by_path (doc, "/Plant/Gain");
  g_assert_nonnull (gain);
  g_assert_null (qd_block_get_param (gain, "k"));
  g_assert_cmpstr (qd_block_get_param (gain, "kk"), ==, "2");
  saved = qd_document_to_data (doc, NULL);
  g_assert_nonnull (strstr (saved, "\"kk\": \"2\""));
  g_assert_nonnull (strstr (saved, "\"colour\": \"red\""));

  /* The check lists the unknown parameters after them. */
  g_assert_false (qd_document_check (doc, NULL, problems));
  for (guint i = G_N_ELEMENTS (listed); i < problems->len; i++)
    {
      g_autofree char *text = qd_problem_to_string (g_ptr_array_index (problems, i));

      g_test_message ("%s", text);
      unknown_colour |= g_str_equal (text, "/C: unknown parameter 'colour' "
                                     "(Constant has: value)");
      unknown_kk |= g_str_equal (text, "/Plant/Gain: unknown parameter 'kk' "
                                 "(Gain has: k)");
    }
  g_assert_true (unknown_colour);
  g_assert_true (unknown_kk);
}

/* Tests: files */

static void
test_load_missing (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("qd-file-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "nothing.qdevs", NULL);
  g_autofree char *expected = g_strdup_printf ("%s: cannot open: %s", path,
                                               g_strerror (ENOENT));

  g_assert_null (qd_document_load (path, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_IO);
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);

  /* A syntax error in a file names the file. */
  g_file_set_contents (path, "{\n  oops\n}\n", -1, &error);
  g_assert_no_error (error);
  g_assert_null (qd_document_load (path, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_SYNTAX);
  g_assert_true (g_str_has_prefix (error->message, path));
  g_assert_nonnull (strstr (error->message, ":2:3: JSON syntax error"));

  g_unlink (path);
  g_rmdir (dir);
}

/* A diagram the program saves over QD_FILE_PLAIN_SIZE opens again, from
 * its path and from a descriptor (standard input), equal to what was
 * saved. The bulk is a description of 64 MiB and a little, so that the
 * test takes a second and a few hundred MB, not the millions of blocks
 * that make such a file in real use. */
static void
test_load_large (void)
{
  g_autofree char *dir = g_dir_make_tmp ("qd-file-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "large.qdevs", NULL);
  g_autofree char *contents = NULL, *saved = NULL, *again = NULL;
  g_autoptr(QdDocument) doc = NULL;
  g_autoptr(GError) error = NULL;
  const char *line = "A long description, line after line: ẋ = −x.\n";
  gsize length, line_length = strlen (line);
  GString *description;
  struct stat st;
  int fd;

  contents = read_source_file ("data", "roundtrip-features.qdevs", &length);
  doc = qd_document_load_data (contents, length, NAME, &error);
  g_assert_no_error (error);
  description = g_string_sized_new (QD_FILE_PLAIN_SIZE + 2 * line_length);
  while (description->len <= QD_FILE_PLAIN_SIZE)
    g_string_append_len (description, line, line_length);
  qd_document_set_description (doc, description->str);
  g_string_free (description, TRUE);
  g_assert_true (qd_document_save (doc, path, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_size, >, QD_FILE_PLAIN_SIZE);
  saved = qd_document_to_data (doc, NULL);
  g_clear_object (&doc);

  doc = qd_document_load (path, &error);
  g_assert_no_error (error);
  g_assert_nonnull (doc);
  again = qd_document_to_data (doc, NULL);
  g_assert_true (strcmp (again, saved) == 0);
  g_clear_object (&doc);
  g_clear_pointer (&again, g_free);

  fd = g_open (path, O_RDONLY, 0);
  g_assert_cmpint (fd, >=, 0);
  doc = qd_document_load_fd (fd, "<stdin>", &error);
  close (fd);
  g_assert_no_error (error);
  again = qd_document_to_data (doc, NULL);
  g_assert_true (strcmp (again, saved) == 0);

  g_unlink (path);
  g_rmdir (dir);
}

/* A chain of @n subsystems, each inside the one before, the innermost
 * holding @leaf ("" for none). */
static char *
nested_subsystems (guint       n,
                   const char *leaf)
{
  GString *s = g_string_new (HEAD "\"blocks\": [");

  for (guint i = 0; i < n; i++)
    g_string_append_printf (s, "{\"id\": \"s%u\", \"type\": \"subsystem\", "
                            "\"name\": \"S%u\", \"blocks\": [", i, i);
  g_string_append (s, leaf);
  for (guint i = 0; i < n; i++)
    g_string_append (s, "]}");
  g_string_append (s, "]}");
  return g_string_free (s, FALSE);
}

/* The blocks and links are read one element at a time (qd-file.c): the
 * errors are still those of the whole file, at the same place, and a
 * syntax error anywhere still comes before an error in what the file
 * means. */
static void
test_stream_errors (void)
{
  g_autofree char *deep = NULL, *leaf_error = NULL;
  g_autoptr(QdDocument) doc = NULL;
  g_autoptr(GError) error = NULL;
  const char *leaf = "{\"id\": \"g\", \"type\": \"test-gain\", \"name\": \"G\"}";

  /* An unknown type in the first block, a missing bracket in the last
   * link: the syntax error is reported. */
  assert_load_error (HEAD "\"blocks\": [{\"id\": \"a\", \"type\": \"nope\", "
                     "\"name\": \"A\"}],\n\"links\": [{\"id\": \"l\"}}]}",
                     QD_ERROR_SYNTAX,
                     NAME ":2:22: JSON syntax error: expected ',' or ']' in an array");
  /* Brackets that match in number but not in kind. */
  assert_load_error (HEAD "\"blocks\": [{\"a\": 1]}, \"links\": []}", QD_ERROR_SYNTAX,
                     NAME ":1:53: JSON syntax error: expected ',' or '}' in an object");
  /* An element that ends in a letter: a number, malformed. */
  assert_load_error (HEAD "\"blocks\": [1x]}", QD_ERROR_SYNTAX,
                     NAME ":1:47: JSON syntax error: malformed number");
  assert_load_error (HEAD "\"blocks\": [1, 2,]}", QD_ERROR_SYNTAX,
                     NAME ":1:51: JSON syntax error: unexpected character ']'");
  assert_load_error (HEAD "\"blocks\": [{\"id\": \"a\"}", QD_ERROR_SYNTAX,
                     NAME ":1:57: JSON syntax error: unexpected end of the file; "
                     "is the file cut short?");
  assert_load_error (HEAD "\"blocks\": [{\"name\": \"\xff\"}]}", QD_ERROR_SYNTAX,
                     NAME ":1:56: JSON syntax error: the text is not valid UTF-8; "
                     "save the file as UTF-8");

  /* The nesting limit counts through the subsystems: 127 of them fit
   * with an empty innermost one (its "blocks" the 256th level), not
   * with a block in it. */
  deep = nested_subsystems (127, "");
  doc = qd_document_load_data (deep, strlen (deep), NAME, &error);
  g_assert_no_error (error);
  g_assert_nonnull (doc);
  g_clear_pointer (&deep, g_free);
  deep = nested_subsystems (127, leaf);
  leaf_error = g_strdup_printf (NAME ":1:%u: JSON syntax error: nesting deeper than "
                                "256 levels", (guint) (strstr (deep, leaf) - deep) + 1);
  assert_load_error (deep, QD_ERROR_SYNTAX, leaf_error);
}

/* A subsystem too large to be parsed in one piece is read element by
 * element too: it loads, and an error deep inside it is where it is. */
static void
test_stream_subsystem (void)
{
  g_autoptr(GString) text = g_string_new (HEAD "\"blocks\": [{\"id\": \"p\", "
                                          "\"type\": \"subsystem\", \"name\": \"Plant\", "
                                          "\"blocks\": [");
  g_autoptr(QdDocument) doc = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *bad = NULL, *expected = NULL;
  const guint n = 2000;
  QdBlock *plant;
  gsize at;

  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "%s{\"id\": \"g%u\", \"type\": \"test-gain\", "
                            "\"name\": \"G%u\"}", i > 0 ? ", " : "", i, i);
  g_string_append (text, "], \"links\": [");
  for (guint i = 0; i + 1 < n; i++)
    g_string_append_printf (text, "%s{\"id\": \"l%u\", \"from\": {\"block\": \"g%u\", "
                            "\"port\": 0}, \"to\": [{\"block\": \"g%u\", \"port\": 0}]}",
                            i > 0 ? ", " : "", i, i, i + 1);
  at = text->len;
  g_string_append (text, "]}]}");
  g_assert_cmpuint (text->len, >, 2 << 16);

  doc = qd_document_load_data (text->str, text->len, NAME, &error);
  g_assert_no_error (error);
  plant = qd_document_find_block_by_path (doc, "/Plant");
  g_assert_nonnull (plant);
  g_assert_cmpuint (plant->inner->blocks->len, ==, n);
  g_assert_cmpuint (plant->inner->links->len, ==, n - 1);
  g_assert_nonnull (qd_document_find_block_by_path (doc, "/Plant/G1999"));

  /* A stray character after the last link inside. */
  bad = g_strdup_printf ("%.*sx%s", (int) at, text->str, text->str + at);
  expected = g_strdup_printf (NAME ":1:%u: JSON syntax error: expected ',' or ']' "
                              "in an array", (guint) at + 1);
  assert_load_error (bad, QD_ERROR_SYNTAX, expected);
}

/* Loads @data with elements parsed whole and member by member: the same
 * document, or the same error. */
static void
assert_same_both_ways (const char *data,
                       gsize       length)
{
  g_autoptr(GError) whole_error = NULL, pieces_error = NULL;
  g_autoptr(QdDocument) whole = NULL, pieces = NULL;

  whole = qd_document_load_data (data, length, NAME, &whole_error);
  qd_file_set_whole_element (0);
  pieces = qd_document_load_data (data, length, NAME, &pieces_error);
  qd_file_set_whole_element (64 << 10);
  if (whole == NULL)
    {
      g_assert_null (pieces);
      g_assert_nonnull (pieces_error);
      g_assert_cmpstr (pieces_error->message, ==, whole_error->message);
    }
  else
    {
      g_autofree char *a = qd_document_to_data (whole, NULL);
      g_autofree char *b = NULL;

      g_assert_no_error (pieces_error);
      b = qd_document_to_data (pieces, NULL);
      g_assert_cmpstr (a, ==, b);
    }
}

/* @contents and copies of it cut short, missing a byte, or with one
 * more, loaded both ways. */
static void
assert_damaged_same_both_ways (const char *name,
                               const char *contents,
                               gsize       length)
{
  static const char *const extra[] = { ",", "]", "}", "x", "\xff", "\"", " 1", "[", NULL };

  if (!g_str_has_suffix (name, QD_FILE_EXTENSION))
    return;
  assert_same_both_ways (contents, length);
  for (gsize at = 0; at < length; at += 41)
    {
      g_autofree char *shorter = g_strndup (contents, at);
      g_autofree char *less = g_strdup_printf ("%.*s%s", (int) at, contents,
                                               contents + at + 1);

      assert_same_both_ways (shorter, at);
      assert_same_both_ways (less, length - 1);
      for (guint k = 0; extra[k] != NULL; k++)
        {
          g_autofree char *more = g_strdup_printf ("%.*s%s%s", (int) at, contents,
                                                   extra[k], contents + at);

          assert_same_both_ways (more, strlen (more));
        }
    }
}

/* Every element read member by member (as a large subsystem is) gives
 * what json-c gives for it in one piece: on the examples and the
 * fuzzer's seeds, and on damaged copies of them. */
static void
test_stream_pieces (void)
{
  g_autofree char *examples = qd_test_source_path ("data", "examples", NULL);
  g_autofree char *seeds = qd_test_source_path ("tests", "fuzz", "corpus", NULL);

  g_assert_cmpuint (for_each_file (examples, assert_damaged_same_both_ways), >=, 10);
  g_assert_cmpuint (for_each_file (seeds, assert_damaged_same_both_ways), >=, 5);
}

/* Loading a large diagram never holds the JSON tree of the whole file:
 * a child loads one of 20 000 blocks (4.4 MB) and its peak resident
 * memory grows by some 5 times the file (the bytes, the document, the
 * loader's tables), where it grew by 30 times with the tree. Measured in
 * a child of its own; not under AddressSanitizer, whose quarantine keeps
 * what the loader frees. */
static void
test_stream_memory (void)
{
  const guint n = 20000;

#if defined(__SANITIZE_ADDRESS__)
  g_test_skip ("AddressSanitizer keeps freed memory");
  return;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  g_test_skip ("AddressSanitizer keeps freed memory");
  return;
#endif
#endif
  if (g_test_subprocess ())
    {
      const char *path = g_getenv ("QD_TEST_STREAM_FILE");
      g_autoptr(QdDocument) doc = NULL;
      g_autoptr(GError) error = NULL;
      struct rusage before, after;
      struct stat st;

      g_assert_cmpint (g_stat (path, &st), ==, 0);
      g_assert_cmpint (getrusage (RUSAGE_SELF, &before), ==, 0);
      doc = qd_document_load (path, &error);
      g_assert_no_error (error);
      g_assert_cmpuint (qd_document_get_root (doc)->blocks->len, ==, n);
      g_assert_cmpuint (qd_document_get_root (doc)->links->len, ==, n - 1);
      g_assert_cmpint (getrusage (RUSAGE_SELF, &after), ==, 0);
      g_test_message ("file %ld kB, peak grew by %ld kB", (long) st.st_size / 1024,
                      after.ru_maxrss - before.ru_maxrss);
      g_assert_cmpint (after.ru_maxrss - before.ru_maxrss, <, 10 * st.st_size / 1024);
      return;
    }
  else
    {
      g_autofree char *dir = g_dir_make_tmp ("qd-file-XXXXXX", NULL);
      g_autofree char *path = NULL;
      g_autoptr(GString) text = g_string_new (HEAD "\"blocks\": [\n");
      g_autoptr(GError) error = NULL;

      path = g_build_filename (dir, "chain.qdevs", NULL);
      for (guint i = 0; i < n; i++)
        g_string_append_printf (text, "%s{\"id\": \"b%u\", \"type\": \"test-gain\", "
                                "\"name\": \"Gain %u\", \"position\": [%u, %u], "
                                "\"size\": [60, 40], \"params\": {\"k\": \"%u\"}}\n",
                                i > 0 ? "," : "", i, i, 80 * (i % 100), 60 * (i / 100), i);
      g_string_append (text, "],\n\"links\": [\n");
      for (guint i = 0; i + 1 < n; i++)
        g_string_append_printf (text, "%s{\"id\": \"l%u\", \"from\": {\"block\": \"b%u\", "
                                "\"port\": 0}, \"to\": [{\"block\": \"b%u\", \"port\": 0}]}\n",
                                i > 0 ? "," : "", i, i, i + 1);
      g_string_append (text, "]}\n");
      g_file_set_contents (path, text->str, text->len, &error);
      g_assert_no_error (error);
      g_setenv ("QD_TEST_STREAM_FILE", path, TRUE);
      g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
      g_unsetenv ("QD_TEST_STREAM_FILE");
      g_unlink (path);
      g_rmdir (dir);
      g_test_trap_assert_passed ();
    }
}

static guint
count_dir_entries (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  guint n = 0;

  g_assert_nonnull (dir);
  while (g_dir_read_name (dir) != NULL)
    n++;
  return n;
}

static void
test_save_atomic (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) doc = NULL;
  g_autofree char *dir = g_dir_make_tmp ("qd-file-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "model.qdevs", NULL);
  g_autofree char *missing = g_build_filename (dir, "no-such-dir", "model.qdevs", NULL);
  g_autofree char *expected = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *canonical = NULL;
  g_autofree char *text = NULL;
  GStatBuf st;
  gsize length;
  mode_t old_umask = umask (022);

  contents = read_source_file ("data", "roundtrip-features.qdevs", &length);
  doc = qd_document_load_data (contents, length, NAME, &error);
  g_assert_no_error (error);

  /* A new file, mode 0644. */
  g_assert_true (qd_document_save (doc, path, &error));
  g_assert_no_error (error);
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, contents);
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0644);
  g_clear_pointer (&text, g_free);

  /* Over an existing file: replaced whole, permissions kept, no
   * temporary file left behind, the document marked saved. */
  g_assert_cmpint (g_chmod (path, 0600), ==, 0);
  qd_document_set_title (doc, "Changed");
  g_assert_true (qd_document_get_modified (doc));
  g_assert_true (qd_document_save (doc, path, &error));
  g_assert_no_error (error);
  g_assert_false (qd_document_get_modified (doc));
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  canonical = qd_document_to_data (doc, NULL);
  g_assert_cmpstr (text, ==, canonical);
  g_assert_nonnull (strstr (text, "\"title\": \"Changed\""));
  g_assert_cmpint (g_stat (path, &st), ==, 0);
  g_assert_cmpint (st.st_mode & 0777, ==, 0600);
  g_assert_cmpuint (count_dir_entries (dir), ==, 1);

  /* Into a missing folder: an error naming the file and the reason, and
   * nothing written anywhere; the document stays modified. */
  qd_document_set_title (doc, "Changed again");
  g_assert_false (qd_document_save (doc, missing, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_IO);
  expected = g_strdup_printf ("%s: cannot save: %s", missing, g_strerror (ENOENT));
  g_assert_cmpstr (error->message, ==, expected);
  g_clear_error (&error);
  g_assert_true (qd_document_get_modified (doc));
  g_assert_cmpuint (count_dir_entries (dir), ==, 1);

  /* Over a directory: the rename fails after the temporary file was
   * written; it must be cleaned up, and the directory left alone. */
  g_assert_false (qd_document_save (doc, dir, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_IO);
  g_assert_true (g_str_has_prefix (error->message, dir));
  g_assert_nonnull (strstr (error->message, ": cannot save: "));
  g_clear_error (&error);
  g_assert_true (g_file_test (dir, G_FILE_TEST_IS_DIR));
  g_assert_cmpuint (count_dir_entries (dir), ==, 1);
  g_clear_pointer (&text, g_free);
  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, canonical);

  /* Through a symbolic link: the file it points at is replaced and the
   * link stays a link. */
  {
    g_autofree char *link_path = g_build_filename (dir, "link.qdevs", NULL);
    g_autofree char *through = NULL;

    g_assert_cmpint (symlink ("model.qdevs", link_path), ==, 0);
    qd_document_set_title (doc, "Through a link");
    g_assert_true (qd_document_save (doc, link_path, &error));
    g_assert_no_error (error);
    g_assert_true (g_file_test (link_path, G_FILE_TEST_IS_SYMLINK));
    g_file_get_contents (path, &through, NULL, &error);
    g_assert_no_error (error);
    g_assert_nonnull (strstr (through, "\"title\": \"Through a link\""));
    g_assert_cmpuint (count_dir_entries (dir), ==, 2);
    g_unlink (link_path);
  }

  umask (old_umask);
  g_unlink (path);
  g_rmdir (dir);
}

/* Notes: kept through a save and a load, each command one undo step,
 * and a diagram without notes written with no "notes" key. */
static void
test_notes (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  g_autoptr(QdDocument) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *plain = qd_document_to_data (doc, NULL);
  g_autofree char *text = NULL;
  GPtrArray *notes;
  const QdNote *note;

  g_assert_null (strstr (plain, "notes"));
  g_assert_cmpuint (qd_document_add_note (doc, 10, 20, "first\nline two"), ==, 0);
  g_assert_cmpuint (qd_document_add_note (doc, -5.5, 300, "second"), ==, 1);
  g_assert_true (qd_document_set_note_text (doc, 1, "second, edited"));
  g_assert_false (qd_document_set_note_text (doc, 1, "second, edited"));
  g_assert_false (qd_document_remove_note (doc, 2));

  text = qd_document_to_data (doc, NULL);
  back = qd_document_load_data (text, strlen (text), NAME, &error);
  g_assert_no_error (error);
  notes = qd_document_get_notes (back);
  g_assert_cmpuint (notes->len, ==, 2);
  note = g_ptr_array_index (notes, 0);
  g_assert_cmpfloat (note->x, ==, 10);
  g_assert_cmpfloat (note->y, ==, 20);
  g_assert_cmpstr (note->text, ==, "first\nline two");
  note = g_ptr_array_index (notes, 1);
  g_assert_cmpfloat (note->x, ==, -5.5);
  g_assert_cmpstr (note->text, ==, "second, edited");
  /* Loading is not an edit. */
  g_assert_false (qd_document_can_undo (back));

  /* Undo walks back the edit, then the additions; redo brings them back. */
  notes = qd_document_get_notes (doc);
  g_assert_true (qd_document_undo (doc));
  g_assert_cmpstr (((QdNote *) g_ptr_array_index (notes, 1))->text, ==, "second");
  g_assert_true (qd_document_undo (doc));
  g_assert_cmpuint (notes->len, ==, 1);
  g_assert_true (qd_document_redo (doc));
  g_assert_cmpuint (notes->len, ==, 2);
  g_assert_true (qd_document_remove_note (doc, 0));
  g_assert_cmpuint (notes->len, ==, 1);
  g_assert_cmpstr (((QdNote *) g_ptr_array_index (notes, 0))->text, ==, "second");
  g_assert_true (qd_document_undo (doc));
  g_assert_cmpuint (notes->len, ==, 2);
  g_assert_cmpstr (((QdNote *) g_ptr_array_index (notes, 0))->text, ==, "first\nline two");
  g_assert_true (qd_document_move_note (doc, 0, 50, 60));
  g_assert_cmpfloat (((QdNote *) g_ptr_array_index (notes, 0))->x, ==, 50);
  g_assert_true (qd_document_undo (doc));
  g_assert_cmpfloat (((QdNote *) g_ptr_array_index (notes, 0))->x, ==, 10);
  while (qd_document_undo (doc))
    ;
  g_clear_pointer (&text, g_free);
  text = qd_document_to_data (doc, NULL);
  /* With no notes left, the file is the same as before any. */
  g_assert_cmpstr (text, ==, plain);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();
  register_types ();

  g_test_add_func ("/file/number-format", test_number_format);
  g_test_add_func ("/file/string-escape", test_string_escape);
  g_test_add_func ("/file/writer-layout", test_writer_layout);
  g_test_add_func ("/file/roundtrip/examples", test_roundtrip_examples);
  g_test_add_func ("/file/roundtrip/features", test_roundtrip_features);
  g_test_add_func ("/file/roundtrip/docs-example", test_docs_example);
  g_test_add_func ("/file/canonicalise", test_canonicalise);
  g_test_add_func ("/file/fuzz-seeds", test_fuzz_seeds);
  g_test_add_func ("/file/errors/syntax", test_syntax_errors);
  g_test_add_func ("/file/errors/semantic", test_semantic_errors);
  g_test_add_func ("/file/accepted-forms", test_accepted_forms);
  g_test_add_func ("/file/truncated", test_truncated);
  g_test_add_func ("/file/load-missing", test_load_missing);
  g_test_add_func ("/file/load-problems", test_load_problems);
  g_test_add_func ("/file/load-large", test_load_large);
  g_test_add_func ("/file/stream/errors", test_stream_errors);
  g_test_add_func ("/file/stream/subsystem", test_stream_subsystem);
  g_test_add_func ("/file/stream/pieces", test_stream_pieces);
  g_test_add_func ("/file/stream/memory", test_stream_memory);
  g_test_add_func ("/file/save-atomic", test_save_atomic);
  g_test_add_func ("/file/notes", test_notes);

  return g_test_run ();
}

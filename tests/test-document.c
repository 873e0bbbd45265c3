/* test-document.c: the document model, its commands, undo and redo
 *
 * Each command is checked three ways: what it does to the structure, that
 * undo gives back exactly the structure before (compared as a full text
 * dump) and that redo gives back exactly the structure after. Refusals are
 * checked by their exact message. The blocks used are test-only types, so
 * that the test depends on the engine alone.
 */
#include "qd-history.h"
#include "qd-test-util.h"

#include <string.h>

/* Test-only block types */

static const char *const test_methods[] = { "QSS1", "QSS2", "QSS3", NULL };

static const QdParamSpec gain_params[] = {
  { "k", "Gain", QD_PARAM_NUMBER, "1", -QD_INF, QD_INF, NULL, "", NULL, 0 },
  { "method", "Method", QD_PARAM_CHOICE, "", 0, 0, NULL, "", test_methods,
    QD_PARAM_INHERIT },
  { "saturate", "Saturate", QD_PARAM_BOOLEAN, "false", 0, 1, NULL, "", NULL, 0 },
  { "w", "Weights", QD_PARAM_VECTOR, "1", -QD_INF, QD_INF, NULL, "", NULL, 0 },
  { "label", "Label", QD_PARAM_STRING, "", 0, 0, NULL, "", NULL, 0 },
};

static const QdBlockType test_gain = {
  .id = "test-gain",
  .category = "Test",
  .name = "Test Gain",
  .inputs = { .count = 1 },
  .outputs = { .count = 1 },
  .params = gain_params,
  .n_params = G_N_ELEMENTS (gain_params),
  .flags = QD_BLOCK_FEEDTHROUGH,
};

static const QdParamSpec sum_params[] = {
  { "n", "Inputs", QD_PARAM_INTEGER, "2", 1, 64, NULL, "", NULL, 0 },
};

static const QdBlockType test_sum = {
  .id = "test-sum",
  .category = "Test",
  .name = "Test Sum",
  .inputs = { .size_param = "n" },
  .outputs = { .count = 1 },
  .params = sum_params,
  .n_params = G_N_ELEMENTS (sum_params),
};

/* A weighted sum: one weight per input, as WSum's. */
static const QdParamSpec wsum_params[] = {
  { "n", "Inputs", QD_PARAM_INTEGER, "2", 1, 64, NULL, "", NULL, 0 },
  { "w", "Weights", QD_PARAM_VECTOR, "1, 1", -QD_INF, QD_INF, NULL, "", NULL,
    QD_PARAM_PER_INPUT },
};

static const QdBlockType test_wsum = {
  .id = "test-wsum",
  .category = "Test",
  .name = "Test Weighted Sum",
  .inputs = { .size_param = "n" },
  .outputs = { .count = 1 },
  .params = wsum_params,
  .n_params = G_N_ELEMENTS (wsum_params),
};

static const QdBlockType test_source = {
  .id = "test-source",
  .category = "Test",
  .name = "Test Source",
  .outputs = { .count = 1 },
};

static const QdBlockType test_sink = {
  .id = "test-sink",
  .category = "Test",
  .name = "Test Sink",
  .inputs = { .count = 1 },
};

static void
register_test_types (void)
{
  qd_registry_register (&test_gain);
  qd_registry_register (&test_sum);
  qd_registry_register (&test_wsum);
  qd_registry_register (&test_source);
  qd_registry_register (&test_sink);
}

/* Helpers */

static void
count_signal (QdDocument *document,
              guint      *count)
{
  (*count)++;
}

static QdBlock *
add (QdDocument *document,
     const char *type,
     const char *name,
     double      x,
     double      y)
{
  GError *error = NULL;
  QdBlock *block;

  block = qd_document_add_block (document, qd_document_get_root (document),
                                 type, name, x, y, &error);
  g_assert_no_error (error);
  g_assert_nonnull (block);
  return block;
}

static QdLink *
connect (QdDocument *document,
         QdBlock    *src,
         guint       src_port,
         QdBlock    *dst,
         guint       dst_port)
{
  GError *error = NULL;
  QdLink *link;

  link = qd_document_connect (document, src->parent, src->id, src_port,
                              dst->id, dst_port, &error);
  g_assert_no_error (error);
  g_assert_nonnull (link);
  return link;
}

/* Undo gives @before back, redo gives what the document holds now. */
static void
assert_undo_redo (QdDocument *document,
                  const char *before)
{
  char *after = qd_test_dump_document (document);
  char *dump;

  g_assert_true (qd_document_undo (document));
  dump = qd_test_dump_document (document);
  g_assert_cmpstr (dump, ==, before);
  g_free (dump);

  g_assert_true (qd_document_redo (document));
  dump = qd_test_dump_document (document);
  g_assert_cmpstr (dump, ==, after);
  g_free (dump);
  g_free (after);
}

static void
assert_error (GError     *error,
              QdErrorCode code,
              const char *message)
{
  g_assert_error (error, QD_ERROR, (int) code);
  g_assert_cmpstr (error->message, ==, message);
}

/* A source feeding a gain feeding a sink, and the gain branching into a
 * sum's second input. */
typedef struct
{
  QdDocument *doc;
  QdBlock    *src, *gain, *sum, *sink;
  QdLink     *l_src, *l_gain;
} Chain;

static void
chain_init (Chain *c)
{
  c->doc = qd_document_new ();
  c->src = add (c->doc, "test-source", NULL, 0, 0);
  c->gain = add (c->doc, "test-gain", "Gain", 100, 0);
  c->sum = add (c->doc, "test-sum", "Sum", 200, 0);
  c->sink = add (c->doc, "test-sink", NULL, 300, 0);
  c->l_src = connect (c->doc, c->src, 0, c->gain, 0);
  c->l_gain = connect (c->doc, c->gain, 0, c->sink, 0);
  g_assert_true (connect (c->doc, c->gain, 0, c->sum, 1) == c->l_gain);
}

/* Tests */

static void
test_add_block (void)
{
  QdDocument *doc = qd_document_new ();
  QdSystem *root = qd_document_get_root (doc);
  GError *error = NULL;
  QdBlock *a, *b, *sub;
  char *empty, *before, *path;

  empty = qd_test_dump_document (doc);
  g_assert_false (qd_document_can_undo (doc));

  a = add (doc, "test-gain", NULL, 10, 20);
  g_assert_cmpstr (a->id, ==, "b1");
  g_assert_cmpstr (a->name, ==, "Test Gain");
  g_assert_cmpfloat (a->x, ==, 10);
  g_assert_cmpfloat (a->y, ==, 20);
  g_assert_cmpfloat (a->width, ==, 60);
  g_assert_cmpfloat (a->height, ==, 40);
  g_assert_cmpuint (a->params->len, ==, 0);
  g_assert_true (a->parent == root);
  g_assert_cmpstr (qd_document_get_undo_label (doc), ==, "Add Block");
  g_assert_true (qd_document_find_block (doc, "b1") == a);
  assert_undo_redo (doc, empty);

  before = qd_test_dump_document (doc);
  b = add (doc, "test-gain", NULL, 10, 80);
  g_assert_cmpstr (b->id, ==, "b2");
  g_assert_cmpstr (b->name, ==, "Test Gain 2");
  assert_undo_redo (doc, before);
  g_free (before);

  sub = add (doc, "subsystem", NULL, 0, 0);
  g_assert_cmpstr (sub->name, ==, "Subsystem");
  g_assert_cmpfloat (sub->width, ==, 80);
  g_assert_cmpfloat (sub->height, ==, 60);
  g_assert_nonnull (sub->inner);
  g_assert_true (sub->inner->owner == sub);

  /* Inside a subsystem, and paths */
  b = qd_document_add_block (doc, sub->inner, "test-gain", "Inner", 0, 0, &error);
  g_assert_no_error (error);
  path = qd_block_get_path (b);
  g_assert_cmpstr (path, ==, "/Subsystem/Inner");
  g_free (path);
  path = qd_system_get_path (sub->inner);
  g_assert_cmpstr (path, ==, "/Subsystem");
  g_free (path);
  path = qd_system_get_path (root);
  g_assert_cmpstr (path, ==, "");
  g_free (path);
  g_assert_true (qd_document_find_block_by_path (doc, "/Subsystem/Inner") == b);
  g_assert_true (qd_document_find_block_by_path (doc, "/Test Gain 2") != NULL);
  g_assert_null (qd_document_find_block_by_path (doc, "/Subsystem/Nope"));
  g_assert_null (qd_document_find_block_by_path (doc, "/Test Gain/Inner"));
  g_assert_true (qd_document_find_block (doc, b->id) == b);

  /* Refusals change nothing */
  before = qd_test_dump_document (doc);
  g_assert_null (qd_document_add_block (doc, root, "no-such-type", NULL, 0, 0, &error));
  assert_error (error, QD_ERROR_UNKNOWN_TYPE,
                "/: there is no block type 'no-such-type'; pick one from the "
                "palette or the list of `qdevs-cli blocks`");
  g_clear_error (&error);
  g_assert_null (qd_document_add_block (doc, sub->inner, "test-gain", "Inner", 0, 0, &error));
  assert_error (error, QD_ERROR_DUPLICATE,
                "/Subsystem: a block named 'Inner' already exists here; "
                "choose another name");
  g_clear_error (&error);
  g_assert_null (qd_document_add_block (doc, root, "test-gain", "a/b", 0, 0, &error));
  assert_error (error, QD_ERROR_INVALID,
                "/: 'a/b' cannot name a block; use a name that is not empty "
                "and has no '/'");
  g_clear_error (&error);
  empty = (g_free (empty), qd_test_dump_document (doc));
  g_assert_cmpstr (empty, ==, before);

  g_free (before);
  g_free (empty);
  g_object_unref (doc);
}

static void
test_remove_block (void)
{
  Chain c;
  char *before;
  QdBlock *gain;

  chain_init (&c);
  before = qd_test_dump_document (c.doc);
  gain = qd_block_ref (c.gain);

  qd_document_remove_block (c.doc, c.gain);
  g_assert_null (qd_document_find_block (c.doc, gain->id));
  g_assert_null (gain->parent);
  /* Both links touched the gain: the one into it and the one out of it. */
  g_assert_cmpuint (qd_document_get_root (c.doc)->links->len, ==, 0);
  g_assert_null (qd_document_find_link (c.doc, c.l_gain->id));
  g_assert_cmpstr (qd_document_get_undo_label (c.doc), ==, "Delete Block");

  /* Undo puts back the very same block. */
  assert_undo_redo (c.doc, before);
  g_assert_true (qd_document_undo (c.doc));
  g_assert_true (qd_document_find_block (c.doc, gain->id) == gain);
  g_assert_true (gain->parent == qd_document_get_root (c.doc));

  /* Removing one target of a branching link keeps the link. */
  qd_document_remove_block (c.doc, c.sink);
  g_assert_cmpuint (c.l_gain->n_targets, ==, 1);
  g_assert_cmpstr (((QdLinkTarget *) c.l_gain->targets[0])->dst.block,
                   ==, c.sum->id);
  assert_undo_redo (c.doc, before);

  qd_block_unref (gain);
  g_free (before);
  g_object_unref (c.doc);
}

static void
test_geometry (void)
{
  Chain c;
  GError *error = NULL;
  char *before;
  guint changed = 0;

  chain_init (&c);
  g_signal_connect (c.doc, "changed", G_CALLBACK (count_signal), &changed);

  before = qd_test_dump_document (c.doc);
  qd_document_move_block (c.doc, c.gain, 120, 40);
  g_assert_cmpfloat (c.gain->x, ==, 120);
  g_assert_cmpfloat (c.gain->y, ==, 40);
  g_assert_cmpstr (qd_document_get_undo_label (c.doc), ==, "Move");
  g_assert_cmpuint (changed, ==, 1);
  assert_undo_redo (c.doc, before);
  g_assert_cmpuint (changed, ==, 3);

  /* Moving to where it is records nothing. */
  qd_document_move_block (c.doc, c.gain, 120, 40);
  g_assert_cmpuint (changed, ==, 3);
  g_free (before);

  before = qd_test_dump_document (c.doc);
  g_assert_true (qd_document_set_geometry (c.doc, c.gain, 1, 2, 70, 50, 90, TRUE, &error));
  g_assert_no_error (error);
  g_assert_cmpint (c.gain->rotation, ==, 90);
  g_assert_true (c.gain->flip);
  g_assert_cmpfloat (c.gain->width, ==, 70);
  assert_undo_redo (c.doc, before);
  g_free (before);

  before = qd_test_dump_document (c.doc);
  g_assert_false (qd_document_set_geometry (c.doc, c.gain, 1, 2, 70, 50, 45, FALSE, &error));
  assert_error (error, QD_ERROR_INVALID,
                "/Gain: a rotation of 45 degrees is not possible; use 0, 90, "
                "180 or 270");
  g_clear_error (&error);
  g_assert_false (qd_document_set_geometry (c.doc, c.gain, 1, 2, 0, 50, 0, FALSE, &error));
  assert_error (error, QD_ERROR_INVALID,
                "/Gain: a size of 0 by 50 at 1, 2 is not possible; width and "
                "height must be positive");
  g_clear_error (&error);
  {
    char *dump = qd_test_dump_document (c.doc);

    g_assert_cmpstr (dump, ==, before);
    g_free (dump);
  }

  g_free (before);
  g_object_unref (c.doc);
}

static void
test_rename (void)
{
  Chain c;
  GError *error = NULL;
  char *before, *path;

  chain_init (&c);
  before = qd_test_dump_document (c.doc);

  g_assert_true (qd_document_rename_block (c.doc, c.gain, "Amplifier", &error));
  g_assert_no_error (error);
  path = qd_block_get_path (c.gain);
  g_assert_cmpstr (path, ==, "/Amplifier");
  g_free (path);
  g_assert_cmpstr (qd_document_get_undo_label (c.doc), ==, "Rename Block");
  assert_undo_redo (c.doc, before);
  g_assert_true (qd_document_undo (c.doc));

  g_assert_false (qd_document_rename_block (c.doc, c.gain, "Sum", &error));
  assert_error (error, QD_ERROR_DUPLICATE,
                "/Gain: a block named 'Sum' already exists here; choose "
                "another name");
  g_clear_error (&error);
  g_assert_false (qd_document_rename_block (c.doc, c.gain, "", &error));
  assert_error (error, QD_ERROR_INVALID,
                "/Gain: '' cannot name a block; use a name that is not empty "
                "and has no '/'");
  g_clear_error (&error);
  g_assert_cmpstr (c.gain->name, ==, "Gain");

  g_free (before);
  g_object_unref (c.doc);
}

static void
test_set_param (void)
{
  Chain c;
  GError *error = NULL;
  char *before;

  chain_init (&c);
  before = qd_test_dump_document (c.doc);

  g_assert_cmpstr (qd_block_get_param_or_default (c.gain, "k"), ==, "1");
  g_assert_null (qd_block_get_param (c.gain, "k"));
  g_assert_true (qd_document_set_param (c.doc, c.gain, "k", "2*pi", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (qd_block_get_param (c.gain, "k"), ==, "2*pi");
  g_assert_cmpstr (qd_document_get_undo_label (c.doc), ==, "Change Parameter");
  assert_undo_redo (c.doc, before);

  /* NULL goes back to the default. */
  g_assert_true (qd_document_set_param (c.doc, c.gain, "k", NULL, &error));
  g_assert_null (qd_block_get_param (c.gain, "k"));
  {
    char *dump = qd_test_dump_document (c.doc);

    g_assert_cmpstr (dump, ==, before);
    g_free (dump);
  }

  /* Each kind accepts what it should. */
  g_assert_true (qd_document_set_param (c.doc, c.gain, "method", "QSS2", &error));
  g_assert_true (qd_document_set_param (c.doc, c.gain, "method", "", &error));
  g_assert_true (qd_document_set_param (c.doc, c.gain, "saturate", "true", &error));
  g_assert_true (qd_document_set_param (c.doc, c.gain, "w", "1, max(a, 2), -3", &error));
  g_assert_true (qd_document_set_param (c.doc, c.gain, "label", "any text, (", &error));
  g_assert_no_error (error);

  /* ... and refuses the rest with its exact reason. */
  g_assert_false (qd_document_set_param (c.doc, c.gain, "kk", "1", &error));
  assert_error (error, QD_ERROR_PARAM,
                "/Gain: unknown parameter 'kk' (Test Gain has: k, method, "
                "saturate, w, label)");
  g_clear_error (&error);
  g_assert_false (qd_document_set_param (c.doc, c.src, "k", "1", &error));
  assert_error (error, QD_ERROR_PARAM,
                "/Test Source: unknown parameter 'k' (Test Source has no "
                "parameters)");
  g_clear_error (&error);
  g_assert_false (qd_document_set_param (c.doc, c.gain, "method", "QSS9", &error));
  assert_error (error, QD_ERROR_PARAM,
                "/Gain: parameter 'method': 'QSS9' is not one of QSS1, QSS2, "
                "QSS3 (or empty for the model's default)");
  g_clear_error (&error);
  g_assert_false (qd_document_set_param (c.doc, c.gain, "saturate", "yes", &error));
  assert_error (error, QD_ERROR_PARAM,
                "/Gain: parameter 'saturate': 'yes' is neither true nor false");
  g_clear_error (&error);
  g_assert_false (qd_document_set_param (c.doc, c.gain, "k", "2*", &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_SYNTAX);
  g_assert_true (g_str_has_prefix (error->message, "/Gain: parameter 'k': column 3: "));
  g_clear_error (&error);
  /* In a vector, columns count from the start of the whole value. */
  g_assert_false (qd_document_set_param (c.doc, c.gain, "w", "1, 2, 3*", &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_SYNTAX);
  g_assert_true (g_str_has_prefix (error->message, "/Gain: parameter 'w': column 9: "));
  g_clear_error (&error);
  g_assert_false (qd_document_set_param (c.doc, c.sum, "n", "k", &error));
  assert_error (error, QD_ERROR_PARAM,
                "/Sum: parameter 'n': 'k' is not a port count; write a whole "
                "number from 1 to 64");
  g_clear_error (&error);
  g_assert_false (qd_document_set_param (c.doc, c.sum, "n", "65", &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_PARAM);
  g_clear_error (&error);
  g_assert_false (qd_document_set_param (c.doc, c.sum, "n", "2.5", &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_PARAM);
  g_clear_error (&error);

  g_free (before);
  g_object_unref (c.doc);
}

static void
test_port_count (void)
{
  Chain c;
  GError *error = NULL;
  guint n_in = 0, n_out = 0;
  char *before;

  chain_init (&c);
  g_assert_true (qd_block_count_ports (c.sum, &n_in, &n_out, &error));
  g_assert_cmpuint (n_in, ==, 2);
  g_assert_cmpuint (n_out, ==, 1);

  g_assert_true (qd_document_set_param (c.doc, c.sum, "n", "3", &error));
  g_assert_true (qd_block_count_ports (c.sum, &n_in, NULL, &error));
  g_assert_cmpuint (n_in, ==, 3);
  connect (c.doc, c.src, 0, c.sum, 2);
  g_assert_cmpuint (c.l_src->n_targets, ==, 2);

  /* Shrinking to one input drops the links into inputs 2 and 3, in the
   * same undo step. */
  before = qd_test_dump_document (c.doc);
  g_assert_true (qd_document_set_param (c.doc, c.sum, "n", "1", &error));
  g_assert_no_error (error);
  g_assert_cmpuint (c.l_src->n_targets, ==, 1);
  g_assert_cmpuint (c.l_gain->n_targets, ==, 1);
  g_assert_null (qd_system_find_driver (c.sum->parent, c.sum->id, 1, NULL));
  g_assert_null (qd_system_find_driver (c.sum->parent, c.sum->id, 2, NULL));
  assert_undo_redo (c.doc, before);
  g_assert_true (qd_document_undo (c.doc));
  {
    guint index = 99;

    g_assert_true (qd_system_find_driver (c.sum->parent, c.sum->id, 2, &index) == c.l_src);
    g_assert_cmpuint (index, ==, 1);
  }

  /* A port count the loader put in unchecked is reported. */
  qd_block_set_param_raw (c.sum, "n", "x");
  g_assert_false (qd_block_count_ports (c.sum, &n_in, &n_out, &error));
  assert_error (error, QD_ERROR_PARAM,
                "parameter 'n': 'x' is not a port count; write a whole number "
                "from 1 to 64");
  g_clear_error (&error);

  g_free (before);
  g_object_unref (c.doc);
}

/* Sets @block's "n" to @n in one command; asserts that its weights
 * became @weights and that one undo gives back what was before, weights
 * and links included, and redo what is after. */
static void
assert_count_follows (QdDocument *doc,
                      QdBlock    *block,
                      const char *n,
                      const char *weights)
{
  g_autofree char *before = qd_test_dump_document (doc);
  GError *error = NULL;

  g_assert_true (qd_document_set_param (doc, block, "n", n, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (qd_block_get_param (block, "w"), ==, weights);
  assert_undo_redo (doc, before);
}

/* The weights of a weighted sum follow its number of inputs, as a
 * Simulink or Xcos user expects: lowering it keeps the first weights as
 * written, raising it gives each new input the default's weight. */
static void
test_per_input (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *sum = add (doc, "test-wsum", "Sum", 0, 0);
  QdBlock *src = add (doc, "test-source", "Src", -100, 0);
  GError *error = NULL;

  connect (doc, src, 0, sum, 0);
  g_assert_true (qd_document_set_param (doc, sum, "n", "3", NULL));
  connect (doc, src, 0, sum, 2);
  g_assert_true (qd_document_set_param (doc, sum, "w", "eps, alpha, -sigma",
                                        &error));
  g_assert_no_error (error);

  /* Lowered: the first weights, exactly as written; the link into the
   * input that went comes back with them on undo. */
  assert_count_follows (doc, sum, "2", "eps, alpha");
  g_assert_true (qd_document_undo (doc));
  g_assert_cmpstr (qd_block_get_param (sum, "w"), ==, "eps, alpha, -sigma");
  g_assert_cmpstr (qd_block_get_param (sum, "n"), ==, "3");
  g_assert_nonnull (qd_system_find_driver (sum->parent, sum->id, 2, NULL));

  /* Raised: a 1 for each new input. */
  g_assert_true (qd_document_set_param (doc, sum, "w", "1, -1", NULL));
  g_assert_true (qd_document_set_param (doc, sum, "n", "2", NULL));
  g_assert_cmpstr (qd_block_get_param (sum, "w"), ==, "1, -1");
  assert_count_follows (doc, sum, "3", "1, -1, 1");
  assert_count_follows (doc, sum, "5", "1, -1, 1, 1, 1");

  /* A comma inside parentheses does not part two weights. */
  g_assert_true (qd_document_set_param (doc, sum, "w", "max(a, b), 2 ,-3",
                                        NULL));
  g_assert_true (qd_document_set_param (doc, sum, "n", "3", NULL));
  g_assert_cmpstr (qd_block_get_param (sum, "w"), ==, "max(a, b), 2 ,-3");
  assert_count_follows (doc, sum, "2", "max(a, b), 2");
  assert_count_follows (doc, sum, "1", "max(a, b)");

  /* The default weights, never set, follow too; so does a list that did
   * not match its count before (a file written by hand). */
  g_assert_true (qd_document_set_param (doc, sum, "w", NULL, NULL));
  g_assert_true (qd_document_set_param (doc, sum, "n", "2", NULL));
  g_assert_null (qd_block_get_param (sum, "w"));
  assert_count_follows (doc, sum, "3", "1, 1, 1");
  qd_block_set_param_raw (sum, "w", "1, 2, 3, 4");
  assert_count_follows (doc, sum, "2", "1, 2");

  /* The count written another way is the same count: the weights stay. */
  qd_block_set_param_raw (sum, "w", "7");
  g_assert_true (qd_document_set_param (doc, sum, "n", "02", NULL));
  g_assert_cmpstr (qd_block_get_param (sum, "w"), ==, "7");

  g_object_unref (doc);
}

static void
test_check_param (void)
{
  QdBlock *block = qd_block_new ("b1", "test-gain", "G");
  QdBlock *unknown = qd_block_new ("b2", "no-such", "U");
  GError *error = NULL;

  g_assert_true (qd_block_check_param (block, "k", "-3e-2", &error));
  g_assert_true (qd_block_check_param (block, "k", NULL, &error));
  g_assert_true (qd_block_check_param (block, "w", "  ", &error));
  g_assert_no_error (error);
  g_assert_true (qd_block_check_param (block, "method", "", NULL));
  g_assert_false (qd_block_check_param (block, "method", "qss1", &error));
  assert_error (error, QD_ERROR_PARAM,
                "parameter 'method': 'qss1' is not one of QSS1, QSS2, QSS3 "
                "(or empty for the model's default)");
  g_clear_error (&error);
  g_assert_false (qd_block_check_param (unknown, "k", "1", &error));
  assert_error (error, QD_ERROR_UNKNOWN_TYPE,
                "unknown block type 'no-such'; replace the block with one "
                "from the palette");
  g_clear_error (&error);

  qd_block_unref (block);
  qd_block_unref (unknown);
}

static void
test_connect (void)
{
  Chain c;
  GError *error = NULL;
  QdBlock *other, *sub, *inner;
  QdLink *link;
  char *before;

  chain_init (&c);
  before = qd_test_dump_document (c.doc);

  /* A second target from the same output is a branch of the same link. */
  g_assert_cmpuint (c.l_gain->n_targets, ==, 2);
  other = add (c.doc, "test-sink", "Other", 0, 200);
  g_free (before);
  before = qd_test_dump_document (c.doc);
  link = connect (c.doc, c.src, 0, other, 0);
  g_assert_true (link == c.l_src);
  g_assert_cmpuint (link->n_targets, ==, 2);
  g_assert_cmpstr (qd_document_get_undo_label (c.doc), ==, "Connect");
  assert_undo_redo (c.doc, before);
  g_free (before);

  /* Branches share the link and its id. */
  before = qd_test_dump_document (c.doc);
  link = connect (c.doc, c.src, 0, c.sum, 0);
  g_assert_true (link == c.l_src);
  g_assert_true (qd_document_find_link (c.doc, c.l_gain->id) == c.l_gain);
  g_assert_cmpstr (c.l_src->id, ==, "l1");
  g_assert_cmpstr (c.l_gain->id, ==, "l2");
  g_free (before);

  before = qd_test_dump_document (c.doc);
  g_assert_null (qd_document_connect (c.doc, c.src->parent, "b99", 0, c.sink->id, 0, &error));
  assert_error (error, QD_ERROR_LINK, "/: there is no block with id 'b99' to connect");
  g_clear_error (&error);
  g_assert_null (qd_document_connect (c.doc, c.src->parent, c.src->id, 1, c.sink->id, 0, &error));
  assert_error (error, QD_ERROR_LINK,
                "/Test Source: there is no output 2 (the block has 1 output); "
                "start the link at an existing output");
  g_clear_error (&error);
  g_assert_null (qd_document_connect (c.doc, c.src->parent, c.gain->id, 0, c.sum->id, 2, &error));
  assert_error (error, QD_ERROR_LINK,
                "/Sum: there is no input 3 (the block has 2 inputs); end the "
                "link at an existing input");
  g_clear_error (&error);
  /* Output to output, input to input. */
  g_assert_null (qd_document_connect (c.doc, c.src->parent, c.sink->id, 0, c.gain->id, 0, &error));
  assert_error (error, QD_ERROR_LINK,
                "/Test Sink: has no outputs; a link starts at an output");
  g_clear_error (&error);
  g_assert_null (qd_document_connect (c.doc, c.src->parent, c.gain->id, 0, c.src->id, 0, &error));
  assert_error (error, QD_ERROR_LINK,
                "/Test Source: has no inputs; a link ends at an input");
  g_clear_error (&error);
  g_assert_null (qd_document_connect (c.doc, c.src->parent, c.src->id, 0, c.sum->id, 1, &error));
  assert_error (error, QD_ERROR_LINK,
                "input 2 of /Sum is already driven by /Gain; disconnect it first");
  g_clear_error (&error);

  sub = add (c.doc, "subsystem", "Plant", 0, 300);
  inner = qd_document_add_block (c.doc, sub->inner, "test-sink", "Deep", 0, 0, &error);
  g_assert_no_error (error);
  g_free (before);
  before = qd_test_dump_document (c.doc);
  g_assert_null (qd_document_connect (c.doc, c.src->parent, c.src->id, 0, inner->id, 0, &error));
  assert_error (error, QD_ERROR_LINK,
                "/Plant/Deep: is not in the system /; a link joins blocks of "
                "one system (cross a subsystem boundary through an Inport or "
                "Outport)");
  g_clear_error (&error);
  {
    char *dump = qd_test_dump_document (c.doc);

    g_assert_cmpstr (dump, ==, before);
    g_free (dump);
  }

  g_free (before);
  g_object_unref (c.doc);
}

static void
test_disconnect (void)
{
  Chain c;
  QdPoint points[] = { { 150, 10 }, { 150, 60 } };
  char *before;
  QdLink *l_src;

  chain_init (&c);

  /* One target of two: the link stays. */
  before = qd_test_dump_document (c.doc);
  qd_document_disconnect (c.doc, c.l_gain, 0);
  g_assert_cmpuint (c.l_gain->n_targets, ==, 1);
  g_assert_true (qd_document_find_link (c.doc, c.l_gain->id) == c.l_gain);
  g_assert_cmpstr (qd_document_get_undo_label (c.doc), ==, "Disconnect");
  assert_undo_redo (c.doc, before);
  g_free (before);
  g_assert_true (qd_document_undo (c.doc));

  /* The last target: the link goes. */
  before = qd_test_dump_document (c.doc);
  l_src = qd_link_ref (c.l_src);
  qd_document_disconnect (c.doc, c.l_src, 0);
  g_assert_null (qd_document_find_link (c.doc, l_src->id));
  assert_undo_redo (c.doc, before);
  g_free (before);
  g_assert_true (qd_document_undo (c.doc));
  g_assert_true (qd_document_find_link (c.doc, l_src->id) == l_src);
  qd_link_unref (l_src);

  before = qd_test_dump_document (c.doc);
  qd_document_remove_link (c.doc, c.l_gain);
  g_assert_cmpuint (qd_document_get_root (c.doc)->links->len, ==, 1);
  g_assert_cmpstr (qd_document_get_undo_label (c.doc), ==, "Delete Link");
  assert_undo_redo (c.doc, before);
  g_free (before);
  g_assert_true (qd_document_undo (c.doc));

  before = qd_test_dump_document (c.doc);
  qd_document_set_link_points (c.doc, c.l_gain, 1, points, 2);
  {
    QdLinkTarget *target = c.l_gain->targets[1];

    g_assert_cmpuint (target->points->len, ==, 2);
    g_assert_cmpfloat (g_array_index (target->points, QdPoint, 1).y, ==, 60);
  }
  assert_undo_redo (c.doc, before);
  g_free (before);
  /* Undone, the target has no bends again and keeps no array for them;
   * redone, it has them back. */
  {
    QdLinkTarget *target = c.l_gain->targets[1];

    g_assert_true (qd_document_undo (c.doc));
    g_assert_null (target->points);
    g_assert_true (qd_document_redo (c.doc));
    g_assert_cmpuint (qd_link_target_n_points (target), ==, 2);
    qd_document_set_link_points (c.doc, c.l_gain, 1, NULL, 0);
    g_assert_null (target->points);
  }

  g_object_unref (c.doc);
}

static void
test_priority (void)
{
  Chain c;
  QdSystem *root;
  char *before;

  chain_init (&c);
  root = qd_document_get_root (c.doc);
  before = qd_test_dump_document (c.doc);

  qd_document_set_priority (c.doc, c.sink, 0);
  g_assert_true (g_ptr_array_index (root->blocks, 0) == c.sink);
  g_assert_true (g_ptr_array_index (root->blocks, 1) == c.src);
  g_assert_true (g_ptr_array_index (root->blocks, 3) == c.sum);
  assert_undo_redo (c.doc, before);
  g_assert_true (qd_document_undo (c.doc));

  qd_document_set_priority (c.doc, c.src, 100);
  g_assert_true (g_ptr_array_index (root->blocks, 3) == c.src);
  assert_undo_redo (c.doc, before);

  g_free (before);
  g_object_unref (c.doc);
}

static void
test_transactions (void)
{
  QdDocument *doc = qd_document_new ();
  guint changed = 0;
  QdBlock *a, *b;
  char *empty, *dump;

  g_signal_connect (doc, "changed", G_CALLBACK (count_signal), &changed);
  empty = qd_test_dump_document (doc);

  qd_document_begin (doc, "Build");
  a = add (doc, "test-source", NULL, 0, 0);
  qd_document_begin (doc, "Inner");
  b = add (doc, "test-sink", NULL, 100, 0);
  connect (doc, a, 0, b, 0);
  qd_document_end (doc);
  g_assert_cmpuint (changed, ==, 0);
  /* No undo in the middle of a transaction. */
  g_assert_false (qd_document_undo (doc));
  qd_document_move_block (doc, b, 100, 50);
  qd_document_end (doc);
  g_assert_cmpuint (changed, ==, 1);

  g_assert_cmpstr (qd_document_get_undo_label (doc), ==, "Build");
  g_assert_true (qd_document_undo (doc));
  g_assert_cmpuint (changed, ==, 2);
  dump = qd_test_dump_document (doc);
  g_assert_cmpstr (dump, ==, empty);
  g_free (dump);
  g_assert_false (qd_document_can_undo (doc));
  g_assert_true (qd_document_can_redo (doc));
  g_assert_cmpstr (qd_document_get_redo_label (doc), ==, "Build");

  g_assert_true (qd_document_redo (doc));
  g_assert_cmpuint (changed, ==, 3);
  g_assert_cmpuint (qd_document_get_root (doc)->blocks->len, ==, 2);
  g_assert_cmpuint (qd_document_get_root (doc)->links->len, ==, 1);
  g_assert_cmpfloat (b->y, ==, 50);
  g_assert_false (qd_document_redo (doc));

  /* An empty transaction is no step and no signal. */
  qd_document_begin (doc, "Nothing");
  qd_document_end (doc);
  g_assert_cmpuint (changed, ==, 3);
  g_assert_cmpstr (qd_document_get_undo_label (doc), ==, "Build");

  /* A new edit throws the redo stack away. */
  g_assert_true (qd_document_undo (doc));
  g_assert_true (qd_document_can_redo (doc));
  add (doc, "test-gain", NULL, 0, 0);
  g_assert_false (qd_document_can_redo (doc));
  g_assert_false (qd_document_redo (doc));
  g_assert_cmpuint (changed, ==, 5);

  /* A refused command inside a transaction keeps the rest. */
  qd_document_begin (doc, "Mixed");
  add (doc, "test-gain", "X", 0, 0);
  g_assert_null (qd_document_add_block (doc, qd_document_get_root (doc),
                                        "test-gain", "X", 0, 0, NULL));
  qd_document_end (doc);
  g_assert_cmpuint (qd_document_get_root (doc)->blocks->len, ==, 2);
  g_assert_cmpuint (changed, ==, 6);

  g_free (empty);
  g_object_unref (doc);
}

static void
count_notify (GObject    *object,
              GParamSpec *pspec,
              guint      *count)
{
  (*count)++;
}

static void
test_modified (void)
{
  QdDocument *doc = qd_document_new ();
  guint modified_notes = 0, undo_notes = 0, title_notes = 0;
  gboolean value;

  g_signal_connect (doc, "notify::modified", G_CALLBACK (count_notify), &modified_notes);
  g_signal_connect (doc, "notify::can-undo", G_CALLBACK (count_notify), &undo_notes);
  g_signal_connect (doc, "notify::title", G_CALLBACK (count_notify), &title_notes);

  g_assert_false (qd_document_get_modified (doc));
  add (doc, "test-gain", NULL, 0, 0);
  g_assert_true (qd_document_get_modified (doc));
  g_object_get (doc, "modified", &value, NULL);
  g_assert_true (value);
  g_assert_cmpuint (modified_notes, ==, 1);
  g_assert_cmpuint (undo_notes, ==, 1);

  qd_document_set_saved (doc);
  g_assert_false (qd_document_get_modified (doc));
  g_assert_cmpuint (modified_notes, ==, 2);

  add (doc, "test-gain", NULL, 0, 0);
  g_assert_true (qd_document_get_modified (doc));
  g_assert_true (qd_document_undo (doc));
  g_assert_false (qd_document_get_modified (doc));
  g_assert_true (qd_document_undo (doc));
  g_assert_true (qd_document_get_modified (doc));
  g_assert_true (qd_document_redo (doc));
  g_assert_false (qd_document_get_modified (doc));
  g_assert_cmpuint (modified_notes, ==, 6);
  /* can-undo changed only on the way to the empty stack and back. */
  g_assert_cmpuint (undo_notes, ==, 1 + 2);

  /* The saved state thrown away with the redo stack is never reached
   * again. */
  g_assert_true (qd_document_redo (doc));
  g_assert_true (qd_document_undo (doc));
  g_assert_true (qd_document_undo (doc));
  add (doc, "test-sink", NULL, 0, 0);
  g_assert_true (qd_document_get_modified (doc));
  g_assert_true (qd_document_undo (doc));
  g_assert_true (qd_document_get_modified (doc));

  /* Title: a command, with notify and undo. */
  g_object_set (doc, "title", "Bouncing ball", NULL);
  g_assert_cmpstr (qd_document_get_title (doc), ==, "Bouncing ball");
  g_assert_cmpuint (title_notes, ==, 1);
  g_assert_cmpstr (qd_document_get_undo_label (doc), ==, "Change Title");
  g_assert_true (qd_document_undo (doc));
  g_assert_cmpstr (qd_document_get_title (doc), ==, "");
  g_assert_cmpuint (title_notes, ==, 2);

  g_object_unref (doc);
}

static void
test_model (void)
{
  QdDocument *doc = qd_document_new ();
  const QdSettings *settings = qd_document_get_settings (doc);
  QdSettings changed;
  GError *error = NULL;
  char *empty, *before;

  g_assert_cmpfloat (settings->start_time, ==, 0);
  g_assert_cmpfloat (settings->final_time, ==, 10);
  g_assert_cmpstr (settings->method, ==, "QSS1");
  g_assert_cmpfloat (settings->dqmin, ==, 1e-6);
  g_assert_cmpfloat (settings->dqrel, ==, 1e-3);
  g_assert_cmpuint (settings->illegitimacy_limit, ==, 1000000);

  empty = qd_test_dump_document (doc);
  g_assert_true (qd_document_set_variable (doc, "R", "10", &error));
  g_assert_true (qd_document_set_variable (doc, "C", "1e-3", &error));
  g_assert_true (qd_document_set_variable (doc, "tau", "R*C", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (qd_document_get_variable (doc, "tau"), ==, "R*C");
  g_assert_cmpstr (qd_document_get_undo_label (doc), ==, "Set Variable");

  /* Changing keeps the place; removing and undoing puts it back there. */
  before = qd_test_dump_document (doc);
  g_assert_true (qd_document_set_variable (doc, "R", "20", &error));
  g_assert_cmpstr (((QdVariable *) g_ptr_array_index (qd_document_get_variables (doc), 0))->value,
                   ==, "20");
  assert_undo_redo (doc, before);
  g_assert_true (qd_document_undo (doc));
  g_assert_true (qd_document_set_variable (doc, "C", NULL, &error));
  g_assert_null (qd_document_get_variable (doc, "C"));
  g_assert_cmpuint (qd_document_get_variables (doc)->len, ==, 2);
  g_assert_cmpstr (qd_document_get_undo_label (doc), ==, "Remove Variable");
  assert_undo_redo (doc, before);
  g_free (before);

  g_assert_false (qd_document_set_variable (doc, "2x", "1", &error));
  assert_error (error, QD_ERROR_INVALID,
                "variable '2x': not a valid name; use letters, digits and "
                "'_', starting with a letter, and no function or constant "
                "name");
  g_clear_error (&error);
  g_assert_false (qd_document_set_variable (doc, "sin", "1", &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_INVALID);
  g_clear_error (&error);
  g_assert_false (qd_document_set_variable (doc, "x", "1+", &error));
  g_assert_true (g_str_has_prefix (error->message, "variable 'x': column "));
  g_clear_error (&error);

  /* Settings */
  before = qd_test_dump_document (doc);
  changed = *settings;
  changed.final_time = 50;
  changed.method = "QSS2";
  g_assert_true (qd_document_set_settings (doc, &changed, &error));
  g_assert_no_error (error);
  g_assert_cmpfloat (qd_document_get_settings (doc)->final_time, ==, 50);
  g_assert_cmpstr (qd_document_get_settings (doc)->method, ==, "QSS2");
  assert_undo_redo (doc, before);
  g_free (before);

  changed.final_time = -1;
  g_assert_false (qd_document_set_settings (doc, &changed, &error));
  assert_error (error, QD_ERROR_INVALID,
                "settings: the final time (-1) must be later than the start "
                "time (0)");
  g_clear_error (&error);
  changed.final_time = 5;
  changed.method = "RK4";
  g_assert_false (qd_document_set_settings (doc, &changed, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_INVALID);
  g_assert_true (g_str_has_prefix (error->message, "settings: method 'RK4' is not one of QSS1, "));
  g_clear_error (&error);
  changed.method = "QSS2";
  changed.dqmin = 0;
  g_assert_false (qd_document_set_settings (doc, &changed, &error));
  assert_error (error, QD_ERROR_INVALID,
                "settings: the absolute quantum dqmin (0) must be positive, "
                "e.g. 1e-6");
  g_clear_error (&error);

  /* Description */
  before = qd_test_dump_document (doc);
  qd_document_set_description (doc, "An RC circuit.");
  g_assert_cmpstr (qd_document_get_description (doc), ==, "An RC circuit.");
  assert_undo_redo (doc, before);
  g_free (before);

  /* Everything undoes back to the empty document. */
  while (qd_document_undo (doc))
    ;
  before = qd_test_dump_document (doc);
  g_assert_cmpstr (before, ==, empty);
  g_free (before);

  g_free (empty);
  g_object_unref (doc);
}

/* A link made from the blocks themselves (as the loader and the
 * benchmark's builder make them) names them by the blocks' own id
 * strings, holds its own use of them, and is the link qd_link_new()
 * makes from the texts: found as the block's source, its target's bend
 * points editable. */
static void
test_link_from_block (void)
{
  QdDocument *doc = qd_document_new ();
  QdSystem *root = qd_system_new ();
  QdBlock *a = qd_block_new ("b2", "test-source", "Source");
  QdBlock *b = qd_block_new ("b12", "test-sink", "Sink");
  QdLink *link = qd_link_new_from_block ("l3", a, 0);
  QdLink *by_text = qd_link_new ("l4", "b2", 0);
  QdLinkTarget *target = qd_link_add_target_block (link, b, 0);
  QdPoint bend = { 150, 10 };

  g_assert_true (link->src.block == a->id);
  /* A block's id lives in the block's allocation, outside the table of
   * shared texts: a link naming it by text gets an equal text. */
  g_assert_true (by_text->src.block != a->id);
  g_assert_cmpstr (by_text->src.block, ==, a->id);
  g_assert_true (target == link->targets[0]);
  g_assert_true (target->dst.block == b->id);
  g_assert_cmpuint (qd_link_target_n_points (target), ==, 0);
  qd_link_target_append_point (target, &bend);
  g_assert_cmpuint (qd_link_target_n_points (target), ==, 1);
  qd_link_unref (by_text);

  qd_system_append_block (root, a);
  qd_system_append_block (root, b);
  qd_system_append_link (root, link);
  qd_document_take_root (doc, root);
  g_assert_true (qd_system_find_source (root, "b2", 0) == link);

  /* The link's uses of the texts outlive the blocks. */
  qd_link_ref (link);
  g_object_unref (doc);
  g_assert_cmpstr (link->src.block, ==, "b2");
  g_assert_cmpstr (target->dst.block, ==, "b12");
  qd_link_unref (link);
}

static void
test_take_root (void)
{
  QdDocument *doc = qd_document_new ();
  QdSystem *root = qd_system_new ();
  QdBlock *sub = qd_block_new ("b7", "subsystem", "Plant");
  QdBlock *a = qd_block_new ("b2", "test-source", "Source");
  QdBlock *b = qd_block_new ("b12", "test-sink", "Sink");
  QdLink *link = qd_link_new ("l3", "b2", 0);
  guint changed = 0;
  char *id;

  g_signal_connect (doc, "changed", G_CALLBACK (count_signal), &changed);
  qd_document_set_title (doc, "Loaded");
  g_assert_true (qd_document_can_undo (doc));

  qd_link_add_target (link, "b12", 0);
  qd_system_append_block (sub->inner, a);
  qd_system_append_block (sub->inner, b);
  qd_system_append_link (sub->inner, link);
  qd_system_append_block (root, sub);
  qd_document_take_root (doc, root);

  g_assert_cmpuint (changed, ==, 2);
  g_assert_false (qd_document_can_undo (doc));
  g_assert_false (qd_document_get_modified (doc));
  g_assert_cmpstr (qd_document_get_title (doc), ==, "Loaded");
  g_assert_true (qd_document_find_block (doc, "b12") == b);
  g_assert_true (qd_document_find_link (doc, "l3") == link);
  g_assert_true (qd_document_find_block_by_path (doc, "/Plant/Sink") == b);
  g_assert_true (qd_system_find_source (sub->inner, "b2", 0) == link);
  g_assert_null (qd_system_find_source (sub->inner, "b2", 1));

  /* New ids continue after the largest in use. */
  id = qd_document_new_id (doc, "b");
  g_assert_cmpstr (id, ==, "b13");
  g_free (id);
  id = qd_document_new_id (doc, "l");
  g_assert_cmpstr (id, ==, "l4");
  g_free (id);
  id = qd_document_new_id (doc, "x");
  g_assert_cmpstr (id, ==, "x1");
  g_free (id);

  {
    guint n_in = 9, n_out = 9;
    QdBlock *in = qd_block_new ("b20", "inport", "In 1");

    /* A subsystem's ports are its port blocks. */
    g_assert_true (qd_block_count_ports (sub, &n_in, &n_out, NULL));
    g_assert_cmpuint (n_in, ==, 0);
    g_assert_cmpuint (n_out, ==, 0);
    qd_system_append_block (sub->inner, in);
    g_assert_true (qd_block_count_ports (sub, &n_in, &n_out, NULL));
    g_assert_cmpuint (n_in, ==, 1);
    g_assert_cmpuint (n_out, ==, 0);
  }

  g_object_unref (doc);
}

static void
test_remove_port_block (void)
{
  QdDocument *doc = qd_document_new ();
  GError *error = NULL;
  QdBlock *src, *sub, *in1, *in2;
  char *before;

  src = add (doc, "test-source", NULL, 0, 0);
  sub = add (doc, "subsystem", "Plant", 100, 0);
  in1 = qd_document_add_block (doc, sub->inner, "inport", "In 1", 0, 0, &error);
  in2 = qd_document_add_block (doc, sub->inner, "inport", "In 2", 0, 50, &error);
  g_assert_no_error (error);
  g_assert_true (qd_document_set_param (doc, in2, "port", "2", &error));
  connect (doc, src, 0, sub, 0);
  connect (doc, src, 0, sub, 1);

  /* One port fewer: the link into the port that is gone goes too. */
  before = qd_test_dump_document (doc);
  qd_document_remove_block (doc, in2);
  g_assert_cmpuint (((QdLink *) g_ptr_array_index (qd_document_get_root (doc)->links, 0))->n_targets,
                    ==, 1);
  assert_undo_redo (doc, before);
  g_assert_nonnull (in1);

  g_free (before);
  g_object_unref (doc);
}

/* A system frees the blocks and links only it holds in one sweep
 * (qd-diagram.c, release_owned()): blocks and links held elsewhere (the
 * history) keep their ids, types and parameters, and the uses of shared
 * parameter sets and texts stay counted, whatever order the blocks come
 * in. */
static void
test_system_release (void)
{
  QdSystem *root = qd_system_new ();
  QdBlock *kept, *later;
  QdLink *kept_link;

  for (guint i = 0; i < 6; i++)
    {
      g_autofree char *id = g_strdup_printf ("b%u", i + 1);
      QdBlock *block = qd_block_new (id, "test-gain", id);
      QdLink *link = qd_link_new (id, id, 0);

      /* Runs of one set, another, none, then the first again. */
      if (i != 3)
        qd_block_set_param_raw (block, "w", i < 2 || i == 5 ? "1, -1" : "2");
      qd_link_add_target (link, "b1", 0);
      qd_system_append_block (root, block);
      qd_system_append_link (root, link);
    }
  kept = qd_block_ref (g_ptr_array_index (root->blocks, 1));
  kept_link = qd_link_ref (g_ptr_array_index (root->links, 2));
  qd_system_unref (root);

  g_assert_cmpstr (kept->id, ==, "b2");
  g_assert_cmpstr (kept->type, ==, "test-gain");
  g_assert_cmpstr (qd_block_get_param (kept, "w"), ==, "1, -1");
  g_assert_cmpstr (kept_link->src.block, ==, "b3");
  g_assert_cmpstr (((QdLinkTarget *) kept_link->targets[0])->dst.block, ==, "b1");
  /* The set is still in the table with its one remaining use: a new
   * block with the same value shares it, and both release it. */
  later = qd_block_new ("b9", "test-gain", "Later");
  qd_block_set_param_raw (later, "w", "1, -1");
  g_assert_true (later->params == kept->params);
  qd_block_unref (kept);
  g_assert_cmpstr (qd_block_get_param (later, "w"), ==, "1, -1");
  qd_block_unref (later);
  qd_link_unref (kept_link);
}

/* The compact storage of a large model: texts shared between blocks and
 * links, parameter arrays shared until written, names kept with the block
 * until a rename, and the per-system indexes made on the first search.
 * None of it may show through the API. */
static void
test_compact_storage (void)
{
  QdDocument *doc = qd_document_new ();
  QdSystem *root = qd_system_new ();
  QdBlock *a = qd_block_new ("b1", "test-gain", "A");
  QdBlock *b = qd_block_new ("b2", "test-gain", "B");
  QdBlock *c = qd_block_new ("b3", "test-gain", NULL);
  QdLink *link = qd_link_new ("l4", "b1", 0);
  g_autofree char *long_id = g_strnfill (200, 'z');
  QdLink *long_link = qd_link_new (long_id, "b2", 0);
  GError *error = NULL;

  /* Equal texts are one string; a block's id is not in their table (it
   * lives in the block's allocation), so links made by text share a copy
   * of it between them. */
  qd_link_add_target (link, "b2", 0);
  qd_link_add_target (link, "b3", 0);
  g_assert_cmpstr (link->src.block, ==, a->id);
  g_assert_true (link->targets[0]->dst.block == qd_link_add_target (long_link, "b2", 1)->dst.block);
  g_assert_true (a->type == b->type);
  g_assert_cmpstr (link->id, ==, "l4");
  g_assert_cmpstr (long_link->id, ==, long_id);
  g_assert_cmpstr (c->name, ==, "");

  /* Blocks with no parameter set share one empty array: writing to one
   * must not show in the others. */
  g_assert_true (a->params == b->params);
  qd_block_set_param_raw (a, "k", "2.5");
  qd_block_set_param_raw (a, "w", "1, -1");
  g_assert_cmpuint (a->params->len, ==, 2);
  g_assert_cmpuint (b->params->len, ==, 0);
  g_assert_cmpuint (c->params->len, ==, 0);
  g_assert_null (qd_block_get_param (b, "k"));
  g_assert_cmpstr (qd_block_get_param_or_default (b, "k"), ==, "1");
  qd_block_set_param_raw (b, "w", "1, -1");
  g_assert_true (qd_block_get_param (a, "w") == qd_block_get_param (b, "w"));
  /* Changing one block's shared value leaves the other's alone. */
  qd_block_set_param_raw (a, "w", "3");
  g_assert_cmpstr (qd_block_get_param (a, "w"), ==, "3");
  g_assert_cmpstr (qd_block_get_param (b, "w"), ==, "1, -1");
  qd_block_set_param_raw (a, "k", NULL);
  g_assert_null (qd_block_get_param (a, "k"));
  g_assert_cmpuint (a->params->len, ==, 1);
  /* Equal parameter sets are one array, until one block changes. */
  qd_block_set_param_raw (a, "w", "1, -1");
  g_assert_true (a->params == b->params);
  qd_block_set_param_raw (b, "k", "7");
  g_assert_false (a->params == b->params);
  g_assert_cmpuint (a->params->len, ==, 1);
  g_assert_null (qd_block_get_param (a, "k"));
  g_assert_cmpstr (qd_block_get_param (b, "k"), ==, "7");
  g_assert_cmpstr (qd_block_get_param (b, "w"), ==, "1, -1");
  qd_block_set_param_raw (b, "k", NULL);
  qd_block_set_param_raw (a, "w", "3");

  qd_system_append_block (root, a);
  qd_system_append_block (root, b);
  qd_system_append_link (root, link);
  qd_system_append_link (root, long_link);
  g_assert_null (root->by_id);
  g_assert_null (root->by_name);
  /* Built on the first search, then kept up to date by appends. */
  g_assert_true (qd_system_find_block (root, "b2") == b);
  g_assert_true (qd_system_find_block_by_name (root, "A") == a);
  qd_system_append_block (root, c);
  g_assert_true (qd_system_find_block (root, "b3") == c);
  g_assert_true (qd_system_find_block_by_name (root, "") == c);
  g_assert_null (qd_system_find_block (root, "b4"));

  qd_document_take_root (doc, root);
  g_assert_true (qd_document_find_link (doc, "l4") == link);
  g_assert_true (qd_system_find_driver (root, "b3", 0, NULL) == link);

  /* A rename moves the name out of the block's own allocation; the old
   * name is free again and the new one is found. */
  g_assert_true (qd_document_rename_block (doc, c, "C", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (c->name, ==, "C");
  g_assert_true (qd_system_find_block_by_name (root, "C") == c);
  g_assert_null (qd_system_find_block_by_name (root, ""));
  g_assert_true (qd_document_rename_block (doc, a, "Renamed A", &error));
  g_assert_true (qd_document_undo (doc));
  g_assert_true (qd_document_undo (doc));
  g_assert_cmpstr (a->name, ==, "A");
  g_assert_cmpstr (c->name, ==, "");
  g_assert_true (qd_system_find_block_by_name (root, "A") == a);
  g_assert_true (qd_system_find_block_by_name (root, "") == c);

  g_object_unref (doc);
}

/* A model has millions of blocks and links, and a document's size is a
 * floor of a run's peak memory (docs/performance.md): a block is one
 * allocation with its id and first name, and a link one with its id and
 * the array of its first target. A field added to these structures moves
 * every block or link into a larger malloc chunk (16-byte steps), so
 * their sizes are checked here; measure rss_after_build_kb of
 * `qdevs-cli bench --model lcline --json` before changing them. */
static void
test_layout (void)
{
  QdBlock *block = qd_block_new ("b1", "test-source", "Source");
  QdLink *link = qd_link_new_from_block ("l2", block, 0);
  QdLinkTarget *first, *second;
  guint *ports;

#if GLIB_SIZEOF_VOID_P == 8
  g_assert_cmpuint (sizeof (QdBlock), ==, 88);
  g_assert_cmpuint (sizeof (QdLink), ==, 56);
  g_assert_cmpuint (sizeof (QdLinkTarget), ==, 24);
#endif
  /* The id, then the name, right after the block. */
  g_assert_true (block->id == (char *) (block + 1) + sizeof (guint32));
  g_assert_true (block->name == block->id + strlen (block->id) + 1);
  g_assert_cmpstr (block->name, ==, "Source");
  g_assert_null (qd_block_placeholder_ports (block));

  /* One target: its array is inside the link; two move it out, and
   * back when one is left. */
  first = qd_link_add_target_block (link, block, 0);
  g_assert_true ((char *) link->targets > (char *) link
                 && (char *) link->targets < (char *) (link + 1));
  second = qd_link_add_target_block (link, block, 1);
  g_assert_false ((char *) link->targets > (char *) link
                  && (char *) link->targets < (char *) (link + 1));
  g_assert_cmpuint (link->n_targets, ==, 2);
  g_assert_true (link->targets[0] == first && link->targets[1] == second);
  g_assert_true (qd_link_steal_target (link, 0) == first);
  g_assert_cmpuint (link->n_targets, ==, 1);
  g_assert_true (link->targets[0] == second);
  g_assert_true ((char *) link->targets > (char *) link
                 && (char *) link->targets < (char *) (link + 1));
  qd_link_insert_target (link, 0, first);
  g_assert_true (link->targets[0] == first && link->targets[1] == second);
  qd_link_unref (link);
  qd_block_unref (block);

  /* A placeholder's port counts sit between its id and its name. */
  block = qd_block_new_placeholder ("b123", "missing-type", "Lost");
  ports = qd_block_placeholder_ports (block);
  g_assert_nonnull (ports);
  g_assert_cmpuint (ports[0], ==, 0);
  g_assert_cmpuint (ports[1], ==, 0);
  ports[0] = 3;
  ports[1] = 2;
  g_assert_cmpstr (block->id, ==, "b123");
  g_assert_cmpstr (block->name, ==, "Lost");
  g_assert_cmpuint (qd_block_placeholder_ports (block)[0], ==, 3);
  qd_block_unref (block);
}

/* A link of many targets with bend points, through the commands, a save
 * and a load, and undo and redo of taking targets out and putting them
 * back (the array of targets moves out of the link and back into it). */
static void
test_many_targets (void)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  g_autoptr(QdDocument) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *data = NULL, *dump = NULL, *dump_loaded = NULL;
  g_autofree char *dump_one = NULL, *dump_again = NULL;
  QdSystem *root = qd_document_get_root (doc);
  QdBlock *src;
  QdLink *link = NULL;
  gsize length;

  src = qd_document_add_block (doc, root, "test-source", "Source", 0, 0, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 9; i++)
    {
      g_autofree char *name = g_strdup_printf ("Sink %u", i + 1);
      QdBlock *sink = qd_document_add_block (doc, root, "test-sink", name,
                                             200, 50.0 * i, &error);
      QdPoint bends[3] = { { 100, 0 }, { 100, 50.0 * i }, { 150 + i, 50.0 * i } };

      g_assert_no_error (error);
      link = qd_document_connect (doc, root, src->id, 0, sink->id, 0, &error);
      g_assert_no_error (error);
      /* Ends named by the blocks' own id texts. */
      g_assert_true (link->src.block == src->id);
      g_assert_true (link->targets[i]->dst.block == sink->id);
      if (i % 2 == 0)
        qd_document_set_link_points (doc, link, i, bends, 1 + i % 3);
    }
  g_assert_cmpuint (root->links->len, ==, 1);
  g_assert_cmpuint (link->n_targets, ==, 9);
  g_assert_cmpuint (qd_link_target_n_points (link->targets[4]), ==, 2);
  g_assert_cmpuint (qd_link_target_n_points (link->targets[5]), ==, 0);

  dump = qd_test_dump_document (doc);
  data = qd_document_to_data (doc, &length);
  loaded = qd_document_load_data (data, length, "many-targets.qdevs", &error);
  g_assert_no_error (error);
  dump_loaded = qd_test_dump_document (loaded);
  g_assert_cmpstr (dump_loaded, ==, dump);

  /* Down to one target, from the front, the middle and the end. */
  link = g_ptr_array_index (qd_document_get_root (loaded)->links, 0);
  qd_document_disconnect (loaded, link, 0);
  qd_document_disconnect (loaded, link, 3);
  qd_document_disconnect (loaded, link, link->n_targets - 1);
  while (link->n_targets > 1)
    qd_document_disconnect (loaded, link, link->n_targets / 2);
  g_assert_cmpstr (link->targets[0]->dst.block, ==,
                   qd_document_find_block_by_path (loaded, "/Sink 2")->id);
  dump_one = qd_test_dump_document (loaded);
  while (qd_document_can_undo (loaded))
    g_assert_true (qd_document_undo (loaded));
  dump_again = qd_test_dump_document (loaded);
  g_assert_cmpstr (dump_again, ==, dump);
  while (qd_document_can_redo (loaded))
    g_assert_true (qd_document_redo (loaded));
  g_clear_pointer (&dump_again, g_free);
  dump_again = qd_test_dump_document (loaded);
  g_assert_cmpstr (dump_again, ==, dump_one);
  g_assert_cmpuint (link->n_targets, ==, 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();
  register_test_types ();

  g_test_add_func ("/document/add-block", test_add_block);
  g_test_add_func ("/document/remove-block", test_remove_block);
  g_test_add_func ("/document/system-release", test_system_release);
  g_test_add_func ("/document/geometry", test_geometry);
  g_test_add_func ("/document/rename", test_rename);
  g_test_add_func ("/document/set-param", test_set_param);
  g_test_add_func ("/document/port-count", test_port_count);
  g_test_add_func ("/document/per-input", test_per_input);
  g_test_add_func ("/document/check-param", test_check_param);
  g_test_add_func ("/document/connect", test_connect);
  g_test_add_func ("/document/disconnect", test_disconnect);
  g_test_add_func ("/document/priority", test_priority);
  g_test_add_func ("/document/transactions", test_transactions);
  g_test_add_func ("/document/modified", test_modified);
  g_test_add_func ("/document/model", test_model);
  g_test_add_func ("/document/take-root", test_take_root);
  g_test_add_func ("/document/link-from-block", test_link_from_block);
  g_test_add_func ("/document/remove-port-block", test_remove_port_block);
  g_test_add_func ("/document/compact-storage", test_compact_storage);
  g_test_add_func ("/document/layout", test_layout);
  g_test_add_func ("/document/many-targets", test_many_targets);

  return g_test_run ();
}

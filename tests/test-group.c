/* test-group.c: grouping blocks into a subsystem, and ungrouping
 *
 * Checks the structure grouping builds (the subsystem, its port blocks,
 * their numbering by vertical position, the links cut and joined through
 * them, ids kept), that ungrouping gives back the original connectivity,
 * and that undo of either gives back exactly the structure before.
 */
#include "qd-test-util.h"

#include <stdlib.h>
#include <string.h>

static const QdParamSpec sum_params[] = {
  { "n", "Inputs", QD_PARAM_INTEGER, "2", 0, 64, NULL, "", NULL, 0 },
};

static const QdBlockType group_gain = {
  .id = "group-gain",
  .category = "Test",
  .name = "Gain",
  .inputs = { .count = 1 },
  .outputs = { .count = 1 },
  .flags = QD_BLOCK_FEEDTHROUGH,
};

static const QdBlockType group_sum = {
  .id = "group-sum",
  .category = "Test",
  .name = "Sum",
  .inputs = { .size_param = "n" },
  .outputs = { .count = 1 },
  .params = sum_params,
  .n_params = G_N_ELEMENTS (sum_params),
};

static const QdBlockType group_source = {
  .id = "group-source",
  .category = "Test",
  .name = "Source",
  .outputs = { .count = 1 },
};

static const QdBlockType group_sink = {
  .id = "group-sink",
  .category = "Test",
  .name = "Sink",
  .inputs = { .count = 1 },
};

/* Helpers */

static QdBlock *
add_in (QdDocument *document,
        QdSystem   *system,
        const char *type,
        const char *name,
        double      x,
        double      y)
{
  GError *error = NULL;
  QdBlock *block;

  block = qd_document_add_block (document, system, type, name, x, y, &error);
  g_assert_no_error (error);
  return block;
}

static QdBlock *
add (QdDocument *document,
     const char *type,
     const char *name,
     double      x,
     double      y)
{
  return add_in (document, qd_document_get_root (document), type, name, x, y);
}

static void
wire (QdDocument *document,
      QdBlock    *src,
      guint       src_port,
      QdBlock    *dst,
      guint       dst_port)
{
  GError *error = NULL;

  qd_document_connect (document, src->parent, src->id, src_port, dst->id,
                       dst_port, &error);
  g_assert_no_error (error);
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char **) a, *(const char **) b);
}

/* The connections of @system by block names, one "A:0 -> B:1" per line,
 * sorted: what the model computes, whatever the ids and link grouping. */
static char *
connectivity (QdSystem *system)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < system->links->len; i++)
    {
      QdLink *link = g_ptr_array_index (system->links, i);
      QdBlock *src = qd_system_find_block (system, link->src.block);

      g_assert_nonnull (src);
      for (guint j = 0; j < link->n_targets; j++)
        {
          QdLinkTarget *target = link->targets[j];
          QdBlock *dst = qd_system_find_block (system, target->dst.block);

          g_assert_nonnull (dst);
          g_ptr_array_add (lines, g_strdup_printf ("%s:%u -> %s:%u", src->name,
                                                   link->src.port, dst->name,
                                                   target->dst.port));
        }
    }
  g_ptr_array_sort (lines, compare_strings);
  for (guint i = 0; i < lines->len; i++)
    {
      g_string_append (out, g_ptr_array_index (lines, i));
      g_string_append_c (out, '\n');
    }
  g_ptr_array_unref (lines);

  return g_string_free (out, FALSE);
}

static void
assert_connectivity (QdSystem   *system,
                     const char *expected)
{
  char *text = connectivity (system);

  g_assert_cmpstr (text, ==, expected);
  g_free (text);
}

static void
assert_dump (QdDocument *document,
             const char *expected)
{
  char *dump = qd_test_dump_document (document);

  g_assert_cmpstr (dump, ==, expected);
  g_free (dump);
}

static void
count_signal (QdDocument *document,
              guint      *count)
{
  (*count)++;
}

/* The example: Src drives A and (a branch) D2 outside; A drives B inside
 * and (a branch) C outside; B drives Sum inside; Src2 drives Sum's second
 * input; Sum drives D outside. A, B and Sum are grouped: links cross in
 * both directions, and two of them branch across the boundary. */
typedef struct
{
  QdDocument *doc;
  QdBlock    *src, *a, *b, *c, *src2, *sum, *d, *d2;
} Example;

static const char example_connectivity[] =
  "A:0 -> B:0\n"
  "A:0 -> C:0\n"
  "B:0 -> Sum:0\n"
  "Src2:0 -> Sum:1\n"
  "Src:0 -> A:0\n"
  "Src:0 -> D2:0\n"
  "Sum:0 -> D:0\n";

static void
example_init (Example *e)
{
  e->doc = qd_document_new ();
  e->src = add (e->doc, "group-source", "Src", 0, 0);
  e->a = add (e->doc, "group-gain", "A", 100, 0);
  e->b = add (e->doc, "group-gain", "B", 200, 100);
  e->c = add (e->doc, "group-sink", "C", 300, 0);
  e->src2 = add (e->doc, "group-source", "Src2", 0, 200);
  e->sum = add (e->doc, "group-sum", "Sum", 200, 200);
  e->d = add (e->doc, "group-sink", "D", 300, 200);
  e->d2 = add (e->doc, "group-sink", "D2", 100, 300);
  wire (e->doc, e->src, 0, e->a, 0);
  wire (e->doc, e->src, 0, e->d2, 0);
  wire (e->doc, e->a, 0, e->b, 0);
  wire (e->doc, e->a, 0, e->c, 0);
  wire (e->doc, e->b, 0, e->sum, 0);
  wire (e->doc, e->src2, 0, e->sum, 1);
  wire (e->doc, e->sum, 0, e->d, 0);
  assert_connectivity (qd_document_get_root (e->doc), example_connectivity);
}

/* Tests */

static void
test_group (void)
{
  Example e;
  QdBlock *selection[3];
  QdSystem *root;
  QdBlock *sub, *port;
  GError *error = NULL;
  char *before, *after;
  guint changed = 0, n_in, n_out;

  example_init (&e);
  root = qd_document_get_root (e.doc);
  before = qd_test_dump_document (e.doc);
  g_signal_connect (e.doc, "changed", G_CALLBACK (count_signal), &changed);

  /* The selection's order does not matter. */
  selection[0] = e.sum;
  selection[1] = e.a;
  selection[2] = e.b;
  sub = qd_document_group (e.doc, selection, 3, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (sub);
  g_assert_cmpuint (changed, ==, 1);
  g_assert_cmpstr (qd_document_get_undo_label (e.doc), ==, "Group into Subsystem");

  g_assert_cmpstr (sub->type, ==, QD_TYPE_SUBSYSTEM);
  g_assert_cmpstr (sub->name, ==, "Subsystem");
  g_assert_true (sub->parent == root);
  /* In the place of the first grouped block in the priority order. */
  g_assert_true (g_ptr_array_index (root->blocks, 1) == sub);
  g_assert_cmpuint (root->blocks->len, ==, 6);
  /* Centred on the selection's bounding box (100,0)-(260,240). */
  g_assert_cmpfloat (sub->x + sub->width / 2, ==, 180);
  g_assert_cmpfloat (sub->y + sub->height / 2, ==, 120);

  /* The blocks moved with their ids. */
  g_assert_true (e.a->parent == sub->inner);
  g_assert_true (qd_document_find_block (e.doc, e.a->id) == e.a);
  g_assert_true (qd_document_find_block_by_path (e.doc, "/Subsystem/Sum") == e.sum);
  g_assert_null (qd_system_find_block (root, e.b->id));

  g_assert_true (qd_block_count_ports (sub, &n_in, &n_out, &error));
  g_assert_cmpuint (n_in, ==, 2);
  g_assert_cmpuint (n_out, ==, 2);

  /* Ports by vertical position: In 1 feeds A (y 0), In 2 Sum (y 200);
   * Out 1 is fed by A, Out 2 by Sum. */
  port = qd_document_find_block_by_path (e.doc, "/Subsystem/In 1");
  g_assert_nonnull (port);
  g_assert_cmpstr (port->type, ==, QD_TYPE_INPORT);
  g_assert_cmpstr (qd_block_get_param (port, "port"), ==, "1");
  port = qd_document_find_block_by_path (e.doc, "/Subsystem/Out 2");
  g_assert_nonnull (port);
  g_assert_cmpstr (port->type, ==, QD_TYPE_OUTPORT);
  g_assert_cmpstr (qd_block_get_param (port, "port"), ==, "2");

  assert_connectivity (root,
                       "Src2:0 -> Subsystem:1\n"
                       "Src:0 -> D2:0\n"
                       "Src:0 -> Subsystem:0\n"
                       "Subsystem:0 -> C:0\n"
                       "Subsystem:1 -> D:0\n");
  assert_connectivity (sub->inner,
                       "A:0 -> B:0\n"
                       "A:0 -> Out 1:0\n"
                       "B:0 -> Sum:0\n"
                       "In 1:0 -> A:0\n"
                       "In 2:0 -> Sum:1\n"
                       "Sum:0 -> Out 2:0\n");

  /* The outside link from Src keeps its id and now drives the input. */
  g_assert_true (qd_system_find_source (root, e.src->id, 0)
                 == qd_system_find_driver (root, sub->id, 0, NULL));
  /* The link from A went inside with it. */
  g_assert_nonnull (qd_system_find_source (sub->inner, e.a->id, 0));

  /* Undo gives back exactly the structure before; redo the one after. */
  after = qd_test_dump_document (e.doc);
  g_assert_true (qd_document_undo (e.doc));
  assert_dump (e.doc, before);
  g_assert_true (e.a->parent == root);
  g_assert_null (qd_document_find_block (e.doc, sub->id));
  g_assert_true (qd_document_redo (e.doc));
  assert_dump (e.doc, after);
  g_assert_cmpuint (changed, ==, 3);

  g_free (before);
  g_free (after);
  g_object_unref (e.doc);
}

static void
test_ungroup (void)
{
  Example e;
  QdBlock *selection[3];
  QdSystem *root;
  QdBlock *sub;
  GError *error = NULL;
  char *grouped, *original_ids;
  guint changed = 0;

  example_init (&e);
  root = qd_document_get_root (e.doc);
  selection[0] = e.a;
  selection[1] = e.b;
  selection[2] = e.sum;
  sub = qd_document_group (e.doc, selection, 3, "Plant", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (sub->name, ==, "Plant");
  grouped = qd_test_dump_document (e.doc);
  g_signal_connect (e.doc, "changed", G_CALLBACK (count_signal), &changed);

  qd_block_ref (sub);
  g_assert_true (qd_document_ungroup (e.doc, sub, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (changed, ==, 1);
  g_assert_cmpstr (qd_document_get_undo_label (e.doc), ==, "Ungroup Subsystem");

  /* The same blocks, back in the subsystem's place, no port blocks. */
  assert_connectivity (root, example_connectivity);
  g_assert_null (qd_document_find_block (e.doc, sub->id));
  g_assert_cmpuint (root->blocks->len, ==, 8);
  g_assert_true (e.a->parent == root);
  g_assert_true (g_ptr_array_index (root->blocks, 1) == e.a);
  g_assert_true (g_ptr_array_index (root->blocks, 2) == e.b);
  g_assert_true (g_ptr_array_index (root->blocks, 3) == e.sum);
  g_assert_null (qd_document_find_block_by_path (e.doc, "/In 1"));
  original_ids = g_strdup_printf ("%s %s %s", e.a->id, e.b->id, e.sum->id);
  g_assert_cmpstr (original_ids, ==, "b2 b3 b6");
  g_free (original_ids);

  g_assert_true (qd_document_undo (e.doc));
  assert_dump (e.doc, grouped);
  g_assert_true (qd_document_find_block (e.doc, sub->id) == sub);
  g_assert_true (qd_document_redo (e.doc));
  assert_connectivity (root, example_connectivity);

  /* Undoing both gives the very first structure. */
  g_assert_true (qd_document_undo (e.doc));
  g_assert_true (qd_document_undo (e.doc));
  assert_connectivity (root, example_connectivity);
  g_assert_cmpuint (root->blocks->len, ==, 8);

  qd_block_unref (sub);
  g_free (grouped);
  g_object_unref (e.doc);
}

static void
test_port_order (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *s1, *s2, *low, *high, *selection[2], *sub, *port;
  QdLink *link;
  GError *error = NULL;

  /* "low" comes first in the priority order but sits lower. */
  s1 = add (doc, "group-source", "S1", 0, 0);
  s2 = add (doc, "group-source", "S2", 0, 100);
  low = add (doc, "group-gain", "Low", 100, 100);
  high = add (doc, "group-gain", "High", 100, 0);
  wire (doc, s2, 0, low, 0);
  wire (doc, s1, 0, high, 0);

  selection[0] = low;
  selection[1] = high;
  sub = qd_document_group (doc, selection, 2, NULL, &error);
  g_assert_no_error (error);

  port = qd_document_find_block_by_path (doc, "/Subsystem/In 1");
  link = qd_system_find_source (sub->inner, port->id, 0);
  g_assert_cmpstr (((QdLinkTarget *) link->targets[0])->dst.block,
                   ==, high->id);
  assert_connectivity (qd_document_get_root (doc),
                       "S1:0 -> Subsystem:0\n"
                       "S2:0 -> Subsystem:1\n");
  /* Nothing leaves the selection: no outputs. */
  g_assert_null (qd_document_find_block_by_path (doc, "/Subsystem/Out 1"));

  g_object_unref (doc);
}

/* A port block added inside a subsystem takes the first free number, and
 * a number used twice (or beyond the count) is a problem of the block. */
static void
test_port_numbers (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *s1, *g, *selection[1], *sub, *extra, *first;
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  GError *error = NULL;
  g_autofree char *text = NULL;

  s1 = add (doc, "group-source", "S1", 0, 0);
  g = add (doc, "group-gain", "G", 100, 0);
  wire (doc, s1, 0, g, 0);
  selection[0] = g;
  sub = qd_document_group (doc, selection, 1, NULL, &error);
  g_assert_no_error (error);

  first = qd_document_find_block_by_path (doc, "/Subsystem/In 1");
  g_assert_cmpstr (qd_block_get_param_or_default (first, "port"), ==, "1");
  extra = qd_document_add_block (doc, sub->inner, "inport", "In X", 0, 50, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (qd_block_get_param_or_default (extra, "port"), ==, "2");
  extra = qd_document_add_block (doc, sub->inner, "outport", NULL, 200, 50, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (qd_block_get_param_or_default (extra, "port"), ==, "1");

  /* Renumber In X to 1: the check names it and the one it repeats. */
  extra = qd_document_find_block_by_path (doc, "/Subsystem/In X");
  g_assert_true (qd_document_set_param (doc, extra, "port", "1", &error));
  g_assert_no_error (error);
  g_assert_false (qd_document_check (doc, NULL, problems));
  text = qd_problem_to_string (g_ptr_array_index (problems, 0));
  g_assert_cmpstr (text, ==,
                   "/Subsystem/In X: port number 1 is also used by "
                   "/Subsystem/In 1; number the ports of this subsystem from "
                   "1 to 2, each once");
  g_ptr_array_set_size (problems, 0);
  g_clear_pointer (&text, g_free);

  /* Beyond the count. */
  g_assert_true (qd_document_set_param (doc, extra, "port", "5", &error));
  g_assert_false (qd_document_check (doc, NULL, problems));
  text = qd_problem_to_string (g_ptr_array_index (problems, 0));
  g_assert_cmpstr (text, ==,
                   "/Subsystem/In X: port number 5, but its subsystem has 2 "
                   "such ports; number them from 1 to 2");

  g_object_unref (doc);
}

static void
test_refusals (void)
{
  Example e;
  QdBlock *selection[2], *sub, *deep;
  GError *error = NULL;
  char *before;

  example_init (&e);
  sub = add (e.doc, "subsystem", "Plant", 0, 400);
  deep = add_in (e.doc, sub->inner, "group-gain", "Deep", 0, 0);
  before = qd_test_dump_document (e.doc);

  g_assert_null (qd_document_group (e.doc, selection, 0, NULL, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==,
                   "nothing to group; select the blocks to put into the "
                   "subsystem first");
  g_clear_error (&error);

  selection[0] = e.a;
  selection[1] = deep;
  g_assert_null (qd_document_group (e.doc, selection, 2, NULL, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==,
                   "/Plant/Deep: is not in the same system as /A; group "
                   "blocks of one system at a time");
  g_clear_error (&error);

  selection[1] = e.b;
  g_assert_null (qd_document_group (e.doc, selection, 2, "C", &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_DUPLICATE);
  g_assert_cmpstr (error->message, ==,
                   "/: a block named 'C' already exists here; choose another "
                   "name");
  g_clear_error (&error);

  g_assert_false (qd_document_ungroup (e.doc, e.a, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==,
                   "/A: is not a subsystem; only a subsystem can be ungrouped");
  g_clear_error (&error);

  /* Two inports numbered 1: which input is which cannot be told. */
  add_in (e.doc, sub->inner, "inport", "In 1", 0, 0);
  g_assert_true (qd_document_set_param (e.doc,
                                        add_in (e.doc, sub->inner, "inport",
                                                "In 2", 0, 50),
                                        "port", "1", NULL));
  g_free (before);
  before = qd_test_dump_document (e.doc);
  g_assert_false (qd_document_ungroup (e.doc, sub, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==,
                   "/Plant/In 2: port number '1' is not one of 1 to 2, or is "
                   "used twice; number the ports of the subsystem 1, 2, ... "
                   "before ungrouping");
  g_clear_error (&error);

  /* A port block stays where it is. */
  selection[0] = qd_document_find_block_by_path (e.doc, "/Plant/In 1");
  g_assert_null (qd_document_group (e.doc, selection, 1, NULL, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_INVALID);
  g_assert_cmpstr (error->message, ==,
                   "/Plant/In 1: an Inport or Outport cannot be grouped; "
                   "leave it out of the selection");
  g_clear_error (&error);

  assert_dump (e.doc, before);

  g_free (before);
  g_object_unref (e.doc);
}

static void
test_ungroup_joins (void)
{
  QdDocument *doc = qd_document_new ();
  QdSystem *root = qd_document_get_root (doc);
  QdBlock *src, *sink, *gain, *sub, *in1, *in2, *out1, *out2, *inner_gain;
  GError *error = NULL;
  char *before;

  /* Input 1 passes straight to output 1; output 2 feeds back into
   * input 2 through an inner gain; an outer "Gain" clashes by name with
   * the inner one. */
  src = add (doc, "group-source", "Src", 0, 0);
  sub = add (doc, "subsystem", "Plant", 100, 0);
  sink = add (doc, "group-sink", "Sink", 200, 0);
  gain = add (doc, "group-gain", "Gain", 0, 100);
  in1 = add_in (doc, sub->inner, "inport", "In 1", 0, 0);
  in2 = add_in (doc, sub->inner, "inport", "In 2", 0, 50);
  out1 = add_in (doc, sub->inner, "outport", "Out 1", 200, 0);
  out2 = add_in (doc, sub->inner, "outport", "Out 2", 200, 50);
  inner_gain = add_in (doc, sub->inner, "group-gain", "Gain", 100, 50);
  g_assert_true (qd_document_set_param (doc, in2, "port", "2", &error));
  g_assert_true (qd_document_set_param (doc, out2, "port", "2", &error));
  g_assert_no_error (error);
  wire (doc, in1, 0, out1, 0);
  wire (doc, in2, 0, inner_gain, 0);
  wire (doc, inner_gain, 0, out2, 0);
  wire (doc, src, 0, sub, 0);
  wire (doc, sub, 0, sink, 0);
  wire (doc, sub, 1, sub, 1);
  wire (doc, sub, 1, gain, 0);

  before = qd_test_dump_document (doc);
  g_assert_true (qd_document_ungroup (doc, sub, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (inner_gain->name, ==, "Gain 2");
  assert_connectivity (root,
                       "Gain 2:0 -> Gain 2:0\n"
                       "Gain 2:0 -> Gain:0\n"
                       "Src:0 -> Sink:0\n");
  g_assert_true (qd_document_undo (doc));
  assert_dump (doc, before);
  g_assert_cmpstr (inner_gain->name, ==, "Gain");

  g_free (before);
  g_object_unref (doc);
}

static void
test_group_nested (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *plant, *in, *g1, *g2, *out, *selection[2], *sub;
  GError *error = NULL;
  char *before, *path;

  plant = add (doc, "subsystem", "Plant", 0, 0);
  in = add_in (doc, plant->inner, "inport", "In 1", 0, 0);
  g1 = add_in (doc, plant->inner, "group-gain", "G1", 100, 0);
  g2 = add_in (doc, plant->inner, "group-gain", "G2", 200, 0);
  out = add_in (doc, plant->inner, "outport", "Out 1", 300, 0);
  wire (doc, in, 0, g1, 0);
  wire (doc, g1, 0, g2, 0);
  wire (doc, g2, 0, out, 0);
  before = qd_test_dump_document (doc);

  selection[0] = g1;
  selection[1] = g2;
  sub = qd_document_group (doc, selection, 2, "Core", &error);
  g_assert_no_error (error);
  path = qd_block_get_path (g2);
  g_assert_cmpstr (path, ==, "/Plant/Core/G2");
  g_free (path);
  assert_connectivity (plant->inner,
                       "Core:0 -> Out 1:0\n"
                       "In 1:0 -> Core:0\n");
  assert_connectivity (sub->inner,
                       "G1:0 -> G2:0\n"
                       "G2:0 -> Out 1:0\n"
                       "In 1:0 -> G1:0\n");

  g_assert_true (qd_document_ungroup (doc, sub, &error));
  g_assert_no_error (error);
  assert_connectivity (plant->inner,
                       "G1:0 -> G2:0\n"
                       "G2:0 -> Out 1:0\n"
                       "In 1:0 -> G1:0\n");
  g_assert_true (qd_document_undo (doc));
  g_assert_true (qd_document_undo (doc));
  assert_dump (doc, before);

  g_free (before);
  g_object_unref (doc);
}

/* Picks a random block of @system, or NULL when it has none. */
static QdBlock *
random_block (GRand    *rng,
              QdSystem *system)
{
  if (system->blocks->len == 0)
    return NULL;
  return g_ptr_array_index (system->blocks,
                            g_rand_int_range (rng, 0, (gint32) system->blocks->len));
}

/* A random system of the document: the root or a subsystem's inside. */
static QdSystem *
random_system (GRand      *rng,
               QdDocument *doc)
{
  QdSystem *system = qd_document_get_root (doc);

  for (;;)
    {
      QdBlock *block = random_block (rng, system);

      if (block == NULL || block->inner == NULL || g_rand_boolean (rng))
        return system;
      system = block->inner;
    }
}

/* What must hold after every command: blocks know their system and are
 * found by id, names are unique among siblings, links join existing ports
 * of their own system and no input is driven twice. */
static void
check_system (QdDocument *doc,
              QdSystem   *system,
              GHashTable *ids)
{
  GHashTable *names = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTable *driven = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  for (guint i = 0; i < system->blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (system->blocks, i);

      g_assert_true (block->parent == system);
      g_assert_true (qd_document_find_block (doc, block->id) == block);
      g_assert_true (qd_system_find_block (system, block->id) == block);
      g_assert_false (g_hash_table_contains (names, block->name));
      g_hash_table_add (names, block->name);
      g_assert_true (qd_system_find_block_by_name (system, block->name) == block);
      g_assert_false (g_hash_table_contains (ids, block->id));
      g_hash_table_add (ids, block->id);
      if (block->inner != NULL)
        {
          g_assert_true (block->inner->owner == block);
          check_system (doc, block->inner, ids);
        }
    }
  /* The index is made on the first search; once made, nothing stale. */
  if (system->by_id != NULL)
    g_assert_cmpuint (g_hash_table_size (system->by_id), ==, system->blocks->len);

  for (guint i = 0; i < system->links->len; i++)
    {
      QdLink *link = g_ptr_array_index (system->links, i);
      QdBlock *src = qd_system_find_block (system, link->src.block);
      guint n_out;

      g_assert_true (link->parent == system);
      g_assert_true (qd_document_find_link (doc, link->id) == link);
      g_assert_false (g_hash_table_contains (ids, link->id));
      g_hash_table_add (ids, link->id);
      g_assert_nonnull (src);
      g_assert_true (qd_block_count_ports (src, NULL, &n_out, NULL));
      g_assert_cmpuint (link->src.port, <, n_out);
      g_assert_cmpuint (link->n_targets, >, 0);
      for (guint j = 0; j < link->n_targets; j++)
        {
          QdLinkTarget *target = link->targets[j];
          QdBlock *dst = qd_system_find_block (system, target->dst.block);
          guint n_in;
          char *key;

          g_assert_nonnull (dst);
          g_assert_true (qd_block_count_ports (dst, &n_in, NULL, NULL));
          g_assert_cmpuint (target->dst.port, <, n_in);
          key = g_strdup_printf ("%s:%u", target->dst.block, target->dst.port);
          g_assert_false (g_hash_table_contains (driven, key));
          g_hash_table_add (driven, key);
        }
    }

  g_hash_table_unref (driven);
  g_hash_table_unref (names);
}

/* @ever collects every id seen so far: one not in the diagram now (the
 * history may keep it) must not be found. */
static void
check_document (QdDocument *doc,
                GHashTable *ever)
{
  GHashTable *ids = g_hash_table_new (g_str_hash, g_str_equal);
  GHashTableIter iter;
  gpointer key;

  check_system (doc, qd_document_get_root (doc), ids);
  g_hash_table_iter_init (&iter, ids);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_hash_table_add (ever, g_strdup (key));
  g_hash_table_iter_init (&iter, ever);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (!g_hash_table_contains (ids, key))
      {
        g_assert_null (qd_document_find_block (doc, key));
        g_assert_null (qd_document_find_link (doc, key));
      }
  g_hash_table_unref (ids);
}

/* The flattened model: every connection from a real block's output to a
 * real block's input, followed through subsystems and their port blocks,
 * one "b1:0 -> b7:0" per line, sorted. Grouping and ungrouping must not
 * change it. */
static void
flatten_target (QdSystem         *system,
                const QdEndpoint *dst,
                const char       *src,
                GPtrArray        *lines,
                GHashTable       *seen)
{
  QdBlock *block = qd_system_find_block (system, dst->block);
  char *key = g_strdup_printf ("%s:%u", dst->block, dst->port);

  if (g_hash_table_contains (seen, key))
    {
      g_free (key);
      return;
    }
  g_hash_table_add (seen, key);

  if (block->inner != NULL)
    {
      for (guint i = 0; i < block->inner->blocks->len; i++)
        {
          QdBlock *port = g_ptr_array_index (block->inner->blocks, i);
          QdLink *link;

          if (strcmp (port->type, QD_TYPE_INPORT) != 0
              || atoi (qd_block_get_param_or_default (port, "port")) != (int) dst->port + 1)
            continue;
          link = qd_system_find_source (block->inner, port->id, 0);
          for (guint j = 0; link != NULL && j < link->n_targets; j++)
            flatten_target (block->inner,
                            &((QdLinkTarget *) link->targets[j])->dst,
                            src, lines, seen);
        }
    }
  else if (strcmp (block->type, QD_TYPE_OUTPORT) == 0)
    {
      QdBlock *owner = system->owner;
      QdLink *link;
      int port = atoi (qd_block_get_param_or_default (block, "port")) - 1;

      if (owner == NULL || port < 0)
        return;
      link = qd_system_find_source (owner->parent, owner->id, (guint) port);
      for (guint j = 0; link != NULL && j < link->n_targets; j++)
        flatten_target (owner->parent,
                        &((QdLinkTarget *) link->targets[j])->dst,
                        src, lines, seen);
    }
  else
    g_ptr_array_add (lines, g_strdup_printf ("%s -> %s:%u", src, dst->block, dst->port));
}

static void
flatten_system (QdSystem  *system,
                GPtrArray *lines)
{
  for (guint i = 0; i < system->blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (system->blocks, i);

      if (block->inner != NULL)
        flatten_system (block->inner, lines);
    }
  for (guint i = 0; i < system->links->len; i++)
    {
      QdLink *link = g_ptr_array_index (system->links, i);
      QdBlock *src = qd_system_find_block (system, link->src.block);
      GHashTable *seen;
      char *key;

      if (src->inner != NULL || strcmp (src->type, QD_TYPE_INPORT) == 0)
        continue;
      seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      key = g_strdup_printf ("%s:%u", link->src.block, link->src.port);
      for (guint j = 0; j < link->n_targets; j++)
        flatten_target (system,
                        &((QdLinkTarget *) link->targets[j])->dst,
                        key, lines, seen);
      g_free (key);
      g_hash_table_unref (seen);
    }
}

static char *
flatten (QdDocument *doc)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  char *text;

  flatten_system (qd_document_get_root (doc), lines);
  g_ptr_array_sort (lines, compare_strings);
  g_ptr_array_add (lines, NULL);
  text = g_strjoinv ("\n", (char **) lines->pdata);
  g_ptr_array_unref (lines);

  return text;
}

/* Random commands on a growing hierarchy; after each, the invariants
 * hold, and a command that changed nothing recorded nothing. Then undo
 * walks back through every state and redo forwards again. */
static void
random_edits (guint32 seed,
              guint   steps)
{
  GRand *rng = g_rand_new_with_seed (seed);
  GHashTable *ever = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  static const char *const types[] = {
    "group-gain", "group-sum", "group-source", "group-sink", "subsystem",
    "inport", "outport",
  };
  QdDocument *doc = qd_document_new ();
  GPtrArray *dumps = g_ptr_array_new_with_free_func (g_free);
  guint n_changed = 0, n_grouped = 0, n_ungrouped = 0, n_connected = 0;

  g_signal_connect (doc, "changed", G_CALLBACK (count_signal), &n_changed);

  g_ptr_array_add (dumps, qd_test_dump_document (doc));
  for (guint i = 0; i < steps; i++)
    {
      QdSystem *system = random_system (rng, doc);
      QdBlock *a = random_block (rng, system);
      QdBlock *b = random_block (rng, system);
      GError *error = NULL;
      guint signals_before = n_changed;
      char *dump_before = qd_test_dump_document (doc);
      char *dump;
      gboolean changed = TRUE;

      switch (g_rand_int_range (rng, 0, 14))
        {
        case 0:
        case 1:
          qd_document_add_block (doc, system,
                                 types[g_rand_int_range (rng, 0, G_N_ELEMENTS (types))],
                                 NULL, g_rand_int_range (rng, 0, 500),
                                 g_rand_int_range (rng, 0, 500), &error);
          break;
        case 2:
          if (a != NULL)
            qd_document_remove_block (doc, a);
          break;
        case 3:
        case 4:
        case 10:
        case 11:
        case 12:
        case 13:
          /* Mostly valid ports, so that links pile up. */
          if (a != NULL && b != NULL)
            qd_document_connect (doc, system, a->id, g_rand_int_range (rng, 0, 10) == 0,
                                 b->id, g_rand_int_range (rng, 0, 3) / 2, &error);
          break;
        case 5:
          if (system->links->len > 0)
            {
              QdLink *link = g_ptr_array_index (system->links, 0);

              qd_document_disconnect (doc, link, link->n_targets - 1);
            }
          break;
        case 6:
          if (a != NULL && strcmp (a->type, "group-sum") == 0)
            {
              char *n = g_strdup_printf ("%d", g_rand_int_range (rng, 0, 4));

              qd_document_set_param (doc, a, "n", n, &error);
              g_free (n);
            }
          else if (a != NULL)
            qd_document_move_block (doc, a, a->x + 10, a->y);
          break;
        case 7:
          if (a != NULL)
            qd_document_set_priority (doc, a, g_rand_int_range (rng, 0, 5));
          break;
        case 8:
          if (a != NULL && b != NULL)
            {
              QdBlock *selection[2] = { a, b };

              char *model = flatten (doc);

              if (qd_document_group (doc, selection, a == b ? 1 : 2, NULL, &error))
                {
                  char *grouped = flatten (doc);

                  g_assert_cmpstr (grouped, ==, model);
                  g_free (grouped);
                  n_grouped++;
                  n_connected += model[0] != '\0';
                }
              g_free (model);
            }
          break;
        case 9:
          if (a != NULL && a->inner != NULL)
            {
              char *model = flatten (doc);

              if (qd_document_ungroup (doc, a, &error))
                {
                  char *ungrouped = flatten (doc);

                  g_assert_cmpstr (ungrouped, ==, model);
                  g_free (ungrouped);
                  n_ungrouped++;
                }
              g_free (model);
            }
          break;
        }
      g_clear_error (&error);

      /* Record the state after each step that changed something. */
      dump = qd_test_dump_document (doc);
      if (strcmp (dump, dump_before) == 0)
        changed = FALSE;
      check_document (doc, ever);
      if (changed)
        {
          g_assert_cmpuint (n_changed, ==, signals_before + 1);
          g_ptr_array_add (dumps, dump);
        }
      else
        {
          /* Nothing changed: no step may have been recorded either. */
          g_assert_cmpuint (n_changed, ==, signals_before);
          g_free (dump);
        }
      g_free (dump_before);
    }

  g_test_message ("seed %u, %u steps: %u changes, %u groups (%u of a "
                  "connected model), %u ungroups",
                  seed, steps, dumps->len - 1, n_grouped, n_connected,
                  n_ungrouped);
  /* The walk must have done something worth checking. */
  g_assert_cmpuint (n_connected, >, 0);
  g_assert_cmpuint (n_ungrouped, >, 0);

  /* Undo walks back through every recorded state, redo forwards. */
  for (guint i = dumps->len - 1; i > 0; i--)
    {
      char *dump;

      g_assert_true (qd_document_undo (doc));
      check_document (doc, ever);
      dump = qd_test_dump_document (doc);
      g_assert_cmpstr (dump, ==, g_ptr_array_index (dumps, i - 1));
      g_free (dump);
    }
  g_assert_false (qd_document_undo (doc));
  for (guint i = 1; i < dumps->len; i++)
    {
      char *dump;

      g_assert_true (qd_document_redo (doc));
      check_document (doc, ever);
      dump = qd_test_dump_document (doc);
      g_assert_cmpstr (dump, ==, g_ptr_array_index (dumps, i));
      g_free (dump);
    }
  g_assert_false (qd_document_redo (doc));

  g_ptr_array_unref (dumps);
  g_object_unref (doc);
  g_hash_table_unref (ever);
  g_rand_free (rng);
}

static void
test_random_edits (void)
{
  /* Fixed seeds keep the test repeatable; -m slow walks further. */
  guint n_seeds = g_test_slow () ? 20 : 4;

  for (guint32 seed = 1; seed <= n_seeds; seed++)
    random_edits (seed, g_test_slow () ? 2000 : 600);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();
  qd_registry_register (&group_gain);
  qd_registry_register (&group_sum);
  qd_registry_register (&group_source);
  qd_registry_register (&group_sink);

  g_test_add_func ("/group/group", test_group);
  g_test_add_func ("/group/ungroup", test_ungroup);
  g_test_add_func ("/group/port-order", test_port_order);
  g_test_add_func ("/group/port-numbers", test_port_numbers);
  g_test_add_func ("/group/refusals", test_refusals);
  g_test_add_func ("/group/ungroup-joins", test_ungroup_joins);
  g_test_add_func ("/group/nested", test_group_nested);
  g_test_add_func ("/group/random-edits", test_random_edits);

  return g_test_run ();
}

/* test-canvas-edit.c: editing the diagram through the canvas controller
 *
 * Drives the canvas's edits (connecting, rewiring, selecting, moving,
 * copy and paste, grouping, dragging notes) with canvas coordinates, as
 * the widget does with real pointer events, and checks the document
 * afterwards (and that one undo restores its exact text). Runs under a
 * display (xvfb-run in CI); without one the test is skipped.
 */
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qd-application.h"
#include "qd-canvas.h"
#include "qd-canvas-notes.h"
#include "qd-canvas-render.h"
#include "qd-test-gtk-util.h"
#include "qd-test-util.h"
#include "qd-window.h"

static QdApplication *app;

/* The diagram of every test: see qd-test-gtk-util.h. */
typedef QdTestCanvasFixture Fixture;

/* The document as text, to compare with after an undo. */
static char *
text_of (Fixture *f)
{
  return qd_document_to_data (f->document, NULL);
}

static void
click_drag (Fixture          *f,
            double            x0,
            double            y0,
            double            x1,
            double            y1,
            QdCanvasModifiers mods)
{
  qd_canvas_controller_press (f->controller, x0, y0, mods);
  qd_canvas_controller_drag (f->controller, (x0 + x1) / 2, (y0 + y1) / 2);
  qd_canvas_controller_drag (f->controller, x1, y1);
  qd_canvas_controller_release (f->controller, x1, y1);
}
/* Controller: links */

static void
test_connect (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *before = text_of (f);
  g_autofree char *after = NULL;
  QdCanvasFeedback feedback;
  QdLink *link;

  qd_canvas_controller_press (f->controller, 160.5, 120, 0);
  g_assert_cmpint (qd_canvas_controller_get_mode (f->controller), ==, QD_CANVAS_MODE_CONNECT);
  qd_canvas_controller_drag (f->controller, 250, 110);
  qd_canvas_controller_drag (f->controller, 301, 121);
  qd_canvas_controller_get_feedback (f->controller, &feedback);
  g_assert_nonnull (feedback.pending_route);
  g_assert_true (feedback.mark_block == f->integrator);
  g_assert_false (feedback.mark_bad);
  qd_canvas_controller_release (f->controller, 301, 121);

  link = qd_system_find_driver (f->root, f->integrator->id, 0, NULL);
  g_assert_nonnull (link);
  g_assert_cmpstr (link->src.block, ==, f->gain->id);
  g_assert_cmpuint (f->n_messages, ==, 0);
  g_assert_cmpint (qd_canvas_controller_get_mode (f->controller), ==, QD_CANVAS_MODE_IDLE);

  /* Dragged the other way, from an input to an output, works too. */
  click_drag (f, 300, 270, 160, 270, 0);
  link = qd_system_find_driver (f->root, f->gain2->id, 0, NULL);
  g_assert_nonnull (link);
  g_assert_cmpstr (link->src.block, ==, f->constant->id);

  /* Each connection is one undo step. */
  qd_document_undo (f->document);
  qd_document_undo (f->document);
  after = text_of (f);
  g_assert_cmpstr (after, ==, before);
}

static void
test_connect_refused (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *before = text_of (f);
  g_autofree char *after = NULL;
  QdCanvasFeedback feedback;

  /* Output onto output: the target is marked bad during the drag, and
   * the release explains. */
  qd_canvas_controller_press (f->controller, 160, 120, 0);
  qd_canvas_controller_drag (f->controller, 360, 121);
  qd_canvas_controller_get_feedback (f->controller, &feedback);
  g_assert_true (feedback.mark_block == f->integrator);
  g_assert_cmpint (feedback.mark_kind, ==, QD_CANVAS_PORT_OUTPUT);
  g_assert_true (feedback.mark_bad);
  g_assert_true (feedback.pending_bad);
  qd_canvas_controller_release (f->controller, 360, 121);
  g_assert_cmpuint (f->n_messages, ==, 1);
  g_assert_cmpstr (f->message, ==,
                   "/Gain: output 1 cannot be joined to output 1 of /Integrator; "
                   "a link goes from an output to an input, so drop it on an "
                   "input port");

  /* Onto an input that is already driven (Gain drives Integrator). */
  qd_canvas_controller_press (f->controller, 160, 270, 0);
  qd_canvas_controller_drag (f->controller, 299, 119);
  qd_canvas_controller_get_feedback (f->controller, &feedback);
  g_assert_true (feedback.mark_bad);
  qd_canvas_controller_release (f->controller, 299, 119);
  g_assert_cmpuint (f->n_messages, ==, 2);
  g_assert_cmpstr (f->message, ==,
                   "/Integrator: input 1 is already driven by /Gain; delete "
                   "that link first, or drop on a free input");

  /* Input onto input. */
  click_drag (f, 300, 270, 300, 120, 0);
  g_assert_cmpuint (f->n_messages, ==, 3);
  g_assert_cmpstr (f->message, ==,
                   "/Gain 2: input 1 cannot be joined to input 1 of /Integrator; "
                   "a link goes from an output to an input, so drop it on an "
                   "output port or on a link");

  /* Released on nothing: no link, no message. */
  click_drag (f, 160, 270, 220, 400, 0);
  g_assert_cmpuint (f->n_messages, ==, 3);

  after = text_of (f);
  g_assert_cmpstr (after, ==, before);
  g_assert_false (qd_document_can_redo (f->document));
}

static void
test_branch (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *before = text_of (f);
  g_autofree char *after = NULL;
  QdLink *link = qd_system_find_source (f->root, f->gain->id, 0);
  QdLinkTarget *target;

  /* From the free input of Gain 2 onto the middle of the link. */
  click_drag (f, 300, 270, 230, 121, 0);
  g_assert_cmpuint (f->n_messages, ==, 0);
  g_assert_cmpuint (f->root->links->len, ==, 1);
  g_assert_cmpuint (link->n_targets, ==, 2);
  target = link->targets[1];
  g_assert_cmpstr (target->dst.block, ==, f->gain2->id);
  g_assert_cmpuint (target->dst.port, ==, 0);

  /* Ctrl-drag from the link to a free input branches it as well. */
  qd_document_undo (f->document);
  click_drag (f, 230, 120, 300, 270, QD_CANVAS_MODIFIER_CONTROL);
  g_assert_cmpuint (link->n_targets, ==, 2);

  qd_document_undo (f->document);
  after = text_of (f);
  g_assert_cmpstr (after, ==, before);
}

static void
test_bend_drag (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *before = text_of (f);
  g_autofree char *after = NULL;
  g_autoptr(GArray) route = NULL;
  QdLink *link = qd_system_find_source (f->root, f->gain->id, 0);
  QdLinkTarget *target = link->targets[0];

  /* Dragging the straight link down moves its middle, snapped, and keeps
   * both ends on their ports. */
  click_drag (f, 230, 121, 233, 163, 0);
  g_assert_cmpuint (target->points->len, >, 0);
  route = qd_canvas_route_target (f->root, link, 0);
  qd_test_assert_orthogonal (route);
  qd_test_assert_point (g_array_index (route, QdPoint, 0), 160, 120);
  qd_test_assert_point (g_array_index (route, QdPoint, route->len - 1), 300, 120);
  {
    gboolean lowered = FALSE;

    for (guint k = 0; k + 1 < route->len; k++)
      if (g_array_index (route, QdPoint, k).y == 160 &&
          g_array_index (route, QdPoint, k + 1).y == 160)
        lowered = TRUE;
    g_assert_true (lowered);
  }

  qd_document_undo (f->document);
  after = text_of (f);
  g_assert_cmpstr (after, ==, before);
}

static void
test_rewire (Fixture       *f,
             gconstpointer  data)
{
  g_autofree char *before = text_of (f);
  g_autofree char *after = NULL;
  QdLink *link;

  /* The end of Gain's link taken from Integrator to Gain 2. */
  click_drag (f, 300, 120, 300, 270, 0);
  g_assert_cmpuint (f->n_messages, ==, 0);
  g_assert_null (qd_system_find_driver (f->root, f->integrator->id, 0, NULL));
  link = qd_system_find_driver (f->root, f->gain2->id, 0, NULL);
  g_assert_nonnull (link);
  g_assert_cmpstr (link->src.block, ==, f->gain->id);
  qd_document_undo (f->document);
  after = text_of (f);
  g_assert_cmpstr (after, ==, before);

  /* Integrator's input taken to another source: Constant replaces Gain. */
  click_drag (f, 300, 120, 160, 270, 0);
  g_assert_cmpuint (f->n_messages, ==, 0);
  link = qd_system_find_driver (f->root, f->integrator->id, 0, NULL);
  g_assert_nonnull (link);
  g_assert_cmpstr (link->src.block, ==, f->constant->id);
  g_assert_null (qd_system_find_source (f->root, f->gain->id, 0));
  qd_document_undo (f->document);
  g_clear_pointer (&after, g_free);
  after = text_of (f);
  g_assert_cmpstr (after, ==, before);

  /* Back onto its own source: nothing to do. */
  click_drag (f, 300, 120, 160, 120, 0);
  g_assert_cmpuint (f->n_messages, ==, 0);
  g_clear_pointer (&after, g_free);
  after = text_of (f);
  g_assert_cmpstr (after, ==, before);
}

/* Controller: selection and moves */

static void
test_move_with_links (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *before = text_of (f);
  g_autofree char *after = NULL;
  g_autoptr(GArray) route = NULL;
  QdLink *link = qd_system_find_source (f->root, f->gain->id, 0);
  QdPoint out, in;

  /* Drag Gain by (33, 17): it lands on the grid at (130, 120). */
  click_drag (f, 130, 120, 163, 137, 0);
  g_assert_true (qd_canvas_controller_is_selected (f->controller, f->gain->id));
  g_assert_cmpfloat (f->gain->x, ==, 130);
  g_assert_cmpfloat (f->gain->y, ==, 120);

  /* The link follows: its route starts and ends on the moved ports. */
  qd_canvas_port_position (f->gain, QD_CANVAS_PORT_OUTPUT, 0, &out, NULL);
  qd_canvas_port_position (f->integrator, QD_CANVAS_PORT_INPUT, 0, &in, NULL);
  route = qd_canvas_controller_get_route (f->controller, link, 0);
  qd_test_assert_orthogonal (route);
  qd_test_assert_point (g_array_index (route, QdPoint, 0), out.x, out.y);
  qd_test_assert_point (g_array_index (route, QdPoint, route->len - 1), in.x, in.y);
  qd_test_assert_point (out, 190, 140);

  /* Moving two blocks through many pointer positions is one undo step. */
  qd_canvas_controller_select (f->controller, f->integrator->id, TRUE);
  qd_canvas_controller_press (f->controller, 320, 110, 0);
  for (int i = 1; i <= 20; i++)
    qd_canvas_controller_drag (f->controller, 320 + 3 * i, 110 + 2 * i);
  qd_canvas_controller_release (f->controller, 380, 150);
  g_assert_cmpfloat (f->integrator->x, ==, 360);
  g_assert_cmpfloat (f->integrator->y, ==, 140);
  g_assert_cmpfloat (f->gain->x, ==, 190);
  g_assert_cmpfloat (f->gain->y, ==, 160);

  qd_document_undo (f->document);
  g_assert_cmpfloat (f->gain->x, ==, 130);
  g_assert_cmpfloat (f->integrator->x, ==, 300);
  qd_document_undo (f->document);
  after = text_of (f);
  g_assert_cmpstr (after, ==, before);
}

static void
test_click_selection (Fixture       *f,
                      gconstpointer  data)
{
  GHashTable *selection = qd_canvas_controller_get_selection (f->controller);
  g_autofree char *link_key = NULL;

  click_drag (f, 130, 120, 130, 120, 0);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 1);
  g_assert_true (qd_canvas_controller_is_selected (f->controller, f->gain->id));

  /* Shift adds, Ctrl toggles off. */
  click_drag (f, 330, 120, 330, 120, QD_CANVAS_MODIFIER_SHIFT);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 2);
  click_drag (f, 130, 120, 130, 120, QD_CANVAS_MODIFIER_CONTROL);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 1);
  g_assert_true (qd_canvas_controller_is_selected (f->controller, f->integrator->id));

  /* A click on a link selects that branch. */
  click_drag (f, 230, 120, 230, 120, 0);
  link_key = qd_canvas_link_key (qd_system_find_source (f->root, f->gain->id, 0), 0);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 1);
  g_assert_true (qd_canvas_controller_is_selected (f->controller, link_key));

  /* A click on empty space clears; Select All takes everything. */
  click_drag (f, 600, 600, 600, 600, 0);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 0);
  qd_canvas_controller_select_all (f->controller);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 5);
}

/* A secondary click selects what the context menu will act on: the
 * link under the pointer (Delete then removes that link), a block; over
 * empty space it clears the selection, so that the menu's edits never
 * reach a block far from the pointer. */
static void
test_context_selection (Fixture       *f,
                        gconstpointer  data)
{
  GHashTable *selection = qd_canvas_controller_get_selection (f->controller);
  QdLink *link = qd_system_find_source (f->root, f->gain->id, 0);
  g_autofree char *link_key = qd_canvas_link_key (link, 0);
  QdCanvasHit hit;

  /* On the link between Gain and Integrator (y = 120). */
  qd_canvas_controller_select (f->controller, f->constant->id, FALSE);
  hit = qd_canvas_controller_context_press (f->controller, 230, 120);
  g_assert_cmpint (hit.kind, ==, QD_CANVAS_HIT_LINK);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 1);
  g_assert_true (qd_canvas_controller_is_selected (f->controller, link_key));
  g_assert_cmpint (qd_canvas_controller_get_mode (f->controller), ==, QD_CANVAS_MODE_IDLE);
  /* The menu's Delete acts on it. */
  qd_canvas_controller_delete_selection (f->controller);
  g_assert_null (qd_system_find_source (f->root, f->gain->id, 0));
  g_assert_cmpuint (f->root->blocks->len, ==, 4);
  qd_document_undo (f->document);
  link = qd_system_find_source (f->root, f->gain->id, 0);
  g_assert_nonnull (link);

  /* On one of several selected blocks: the selection stays whole. */
  qd_canvas_controller_select (f->controller, f->gain->id, FALSE);
  qd_canvas_controller_select (f->controller, f->gain2->id, TRUE);
  hit = qd_canvas_controller_context_press (f->controller, 130, 110);
  g_assert_cmpint (hit.kind, ==, QD_CANVAS_HIT_BLOCK);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 2);
  /* On a block not selected: it alone. */
  hit = qd_canvas_controller_context_press (f->controller, 130, 270);
  g_assert_true (hit.block == f->constant);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 1);
  g_assert_true (qd_canvas_controller_is_selected (f->controller, f->constant->id));
  /* On a link while a block is selected: the link alone. */
  qd_canvas_controller_context_press (f->controller, 230, 120);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 1);
  g_assert_true (qd_canvas_controller_is_selected (f->controller, link_key));

  /* On empty space: nothing selected, so Delete has nothing to act on. */
  qd_canvas_controller_select (f->controller, f->gain->id, FALSE);
  hit = qd_canvas_controller_context_press (f->controller, 600, 600);
  g_assert_cmpint (hit.kind, ==, QD_CANVAS_HIT_NONE);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 0);
  qd_canvas_controller_delete_selection (f->controller);
  g_assert_cmpuint (f->root->blocks->len, ==, 4);
}

/* A port block dropped from the palette has the size Create Subsystem
 * gives the port blocks it makes; other blocks keep the document's. */
static void
test_add_block_size (Fixture       *f,
                     gconstpointer  data)
{
  const char *types[] = { QD_TYPE_INPORT, QD_TYPE_OUTPORT };
  QdBlock *block, *sub = NULL, *made_in = NULL;
  double w, h;

  /* The Integrator, fed by Gain: its subsystem gets an Inport. */
  qd_canvas_controller_select (f->controller, f->integrator->id, FALSE);
  g_assert_true (qd_canvas_controller_group (f->controller));
  for (guint i = 0; i < f->root->blocks->len; i++)
    if (((QdBlock *) g_ptr_array_index (f->root->blocks, i))->inner != NULL)
      sub = g_ptr_array_index (f->root->blocks, i);
  g_assert_nonnull (sub);
  for (guint i = 0; i < sub->inner->blocks->len; i++)
    if (g_str_equal (((QdBlock *) g_ptr_array_index (sub->inner->blocks, i))->type,
                     QD_TYPE_INPORT))
      made_in = g_ptr_array_index (sub->inner->blocks, i);
  g_assert_nonnull (made_in);

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      block = qd_canvas_controller_add_block (f->controller, types[i], 503, 497);
      g_assert_nonnull (block);
      g_assert_cmpfloat (block->width, ==, made_in->width);
      g_assert_cmpfloat (block->height, ==, made_in->height);
      g_assert_cmpfloat (block->width, ==, 40);
      g_assert_cmpfloat (block->height, ==, 20);
      /* Centred on the point, on the grid, in one undo step. */
      g_assert_cmpfloat (block->x, ==, 480);
      g_assert_cmpfloat (block->y, ==, 490);
      qd_canvas_default_block_size (types[i], &w, &h);
      g_assert_cmpfloat (w, ==, 40);
      g_assert_cmpfloat (h, ==, 20);
      g_assert_true (qd_document_undo (f->document));
      g_assert_null (qd_system_find_block (f->root, block->id));
    }
  block = qd_canvas_controller_add_block (f->controller, "gain", 503, 497);
  g_assert_cmpfloat (block->width, ==, 60);
  g_assert_cmpfloat (block->height, ==, 40);
}

static void
test_rubber_band (Fixture       *f,
                  gconstpointer  data)
{
  GHashTable *selection = qd_canvas_controller_get_selection (f->controller);
  g_autofree char *link_key = qd_canvas_link_key (qd_system_find_source (f->root, f->gain->id, 0), 0);
  QdCanvasFeedback feedback;

  qd_canvas_controller_press (f->controller, 50, 50, 0);
  qd_canvas_controller_drag (f->controller, 400, 170);
  qd_canvas_controller_get_feedback (f->controller, &feedback);
  g_assert_true (feedback.has_rubber_band);
  g_assert_cmpfloat (feedback.rubber_band.width, ==, 350);
  qd_canvas_controller_release (f->controller, 400, 170);

  /* Gain and Integrator lie wholly inside, and so does their link. */
  g_assert_cmpuint (g_hash_table_size (selection), ==, 3);
  g_assert_true (qd_canvas_controller_is_selected (f->controller, f->gain->id));
  g_assert_true (qd_canvas_controller_is_selected (f->controller, f->integrator->id));
  g_assert_true (qd_canvas_controller_is_selected (f->controller, link_key));

  /* A band that only touches a block does not take it; Shift extends. */
  click_drag (f, 50, 240, 130, 300, QD_CANVAS_MODIFIER_SHIFT);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 3);
  click_drag (f, 50, 240, 170, 300, QD_CANVAS_MODIFIER_SHIFT);
  g_assert_cmpuint (g_hash_table_size (selection), ==, 4);
  g_assert_true (qd_canvas_controller_is_selected (f->controller, f->constant->id));

  /* A rubber band changes nothing in the document. */
  g_assert_false (qd_document_can_redo (f->document));
}

/* A masked subsystem is copied and pasted with its mask (declared
 * parameters, values, icon text), and the paste is one undo step. */
static void
test_copy_paste_mask (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) pasted = NULL;
  g_autofree char *text = NULL;
  g_autofree char *id = NULL;
  QdBlock *sub = qd_document_add_block (f->document, f->root, "subsystem", "PI",
                                        400, 300, &error);
  QdMask *mask = qd_mask_new ();
  const QdMask *copy;

  g_assert_no_error (error);
  qd_mask_add_param (mask, "Kp", "2", "gain")->value = g_strdup ("3");
  mask->icon = g_strdup ("PI\nKp={Kp}");
  g_assert_true (qd_document_set_mask (f->document, sub, mask, &error));
  qd_canvas_controller_select (f->controller, sub->id, FALSE);
  text = qd_canvas_controller_copy (f->controller);
  g_assert_nonnull (strstr (text, "\"mask\""));
  g_assert_true (qd_canvas_controller_paste (f->controller, text, &error));
  g_assert_no_error (error);
  pasted = qd_canvas_controller_get_selected_blocks (f->controller);
  g_assert_cmpuint (pasted->len, ==, 1);
  g_assert_true (g_ptr_array_index (pasted, 0) != sub);
  copy = qd_block_get_mask (g_ptr_array_index (pasted, 0));
  g_assert_nonnull (copy);
  g_assert_true (qd_mask_equal (copy, mask));
  id = g_strdup (((QdBlock *) g_ptr_array_index (pasted, 0))->id);
  g_assert_true (qd_document_undo (f->document));
  g_assert_null (qd_document_find_block (f->document, id));
  qd_mask_free (mask);
}

static void
test_copy_paste (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *before = text_of (f);
  g_autofree char *after = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) pasted = NULL;
  g_autoptr(GError) error = NULL;
  QdBlock *g, *i;
  QdLink *link;

  qd_canvas_controller_select (f->controller, f->gain->id, FALSE);
  qd_canvas_controller_select (f->controller, f->integrator->id, TRUE);
  text = qd_canvas_controller_copy (f->controller);
  g_assert_nonnull (text);
  g_assert_nonnull (strstr (text, "\"format\": \"qdevs\""));
  /* Only what was selected: not Gain 2 nor Constant. */
  g_assert_null (strstr (text, "Gain 2"));
  g_assert_null (strstr (text, "Constant"));

  g_assert_true (qd_canvas_controller_paste (f->controller, text, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->root->blocks->len, ==, 6);

  /* The pasted blocks are selected, with fresh ids and unique names,
   * 20 units down and right; the link among them came along. */
  pasted = qd_canvas_controller_get_selected_blocks (f->controller);
  g_assert_cmpuint (pasted->len, ==, 2);
  g = g_ptr_array_index (pasted, 0);
  i = g_ptr_array_index (pasted, 1);
  g_assert_cmpstr (g->type, ==, "gain");
  g_assert_cmpstr (g->name, ==, "Gain 3");
  g_assert_cmpstr (i->name, ==, "Integrator 2");
  g_assert_cmpstr (g->id, !=, f->gain->id);
  g_assert_cmpstr (i->id, !=, f->integrator->id);
  g_assert_cmpfloat (g->x, ==, 120);
  g_assert_cmpfloat (g->y, ==, 120);
  link = qd_system_find_driver (f->root, i->id, 0, NULL);
  g_assert_nonnull (link);
  g_assert_cmpstr (link->src.block, ==, g->id);

  /* Pasting again steps further away. */
  g_assert_true (qd_canvas_controller_paste (f->controller, text, &error));
  pasted = (g_ptr_array_unref (pasted), qd_canvas_controller_get_selected_blocks (f->controller));
  g_assert_cmpfloat (((QdBlock *) g_ptr_array_index (pasted, 0))->x, ==, 140);
  g_assert_cmpstr (((QdBlock *) g_ptr_array_index (pasted, 0))->name, ==, "Gain 4");

  /* Each paste is one undo step. */
  qd_document_undo (f->document);
  qd_document_undo (f->document);
  after = text_of (f);
  g_assert_cmpstr (after, ==, before);

  /* Text that is not a diagram is refused, and nothing changes. */
  g_assert_false (qd_canvas_controller_paste (f->controller, "hello", &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_assert_cmpuint (f->root->blocks->len, ==, 4);
}

/* A link selected without its blocks: Copy puts it on the clipboard
 * with the blocks at its ends; Paste joins those same blocks again where
 * they are and the input is free, and otherwise says why nothing was
 * pasted. */
static void
test_copy_paste_link (Fixture       *f,
                      gconstpointer  data)
{
  QdLink *link = qd_system_find_driver (f->root, f->integrator->id, 0, NULL);
  g_autofree char *key = qd_canvas_link_key (link, 0);
  g_autofree char *before = text_of (f);
  g_autofree char *text = NULL;
  g_autofree char *after = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) other = qd_document_new ();
  g_autoptr(QdCanvasController) elsewhere = qd_canvas_controller_new ();
  g_autofree char *new_key = NULL;
  QdLink *made;

  qd_canvas_controller_select (f->controller, key, FALSE);
  text = qd_canvas_controller_copy (f->controller);
  g_assert_nonnull (text);
  g_assert_true (g_str_has_prefix (text, "# QDevs links\n"));
  /* The link's ends, not the other blocks. */
  g_assert_nonnull (strstr (text, "\"Integrator\""));
  g_assert_null (strstr (text, "Gain 2"));

  /* While the link is there, its input is taken: nothing pasted, no
   * undo step. */
  g_assert_false (qd_canvas_controller_paste (f->controller, text, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_INVALID);
  g_assert_nonnull (strstr (error->message, "nothing pasted"));
  g_assert_nonnull (strstr (error->message, "input 1 of /Integrator"));
  g_clear_error (&error);
  g_assert_cmpuint (f->root->links->len, ==, 1);
  g_assert_cmpuint (f->root->blocks->len, ==, 4);

  /* Cut (Copy, then Delete): the link goes in one undo step; Paste
   * brings it back between the same blocks, selected, in one step. */
  qd_canvas_controller_delete_selection (f->controller);
  g_assert_null (qd_system_find_driver (f->root, f->integrator->id, 0, NULL));
  g_assert_true (qd_canvas_controller_paste (f->controller, text, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->root->blocks->len, ==, 4);
  made = qd_system_find_driver (f->root, f->integrator->id, 0, NULL);
  g_assert_nonnull (made);
  g_assert_cmpstr (made->src.block, ==, f->gain->id);
  new_key = qd_canvas_link_key (made, 0);
  g_assert_true (qd_canvas_controller_is_selected (f->controller, new_key));
  g_assert_cmpuint (g_hash_table_size (qd_canvas_controller_get_selection (f->controller)), ==, 1);
  g_assert_cmpstr (qd_document_get_undo_label (f->document), ==, _("Paste"));
  qd_document_undo (f->document);
  g_assert_null (qd_system_find_driver (f->root, f->integrator->id, 0, NULL));
  qd_document_undo (f->document);
  after = text_of (f);
  g_assert_cmpstr (after, ==, before);

  /* In a diagram without those blocks: nothing pasted, and why. */
  qd_canvas_controller_set_document (elsewhere, other);
  g_assert_false (qd_canvas_controller_paste (elsewhere, text, &error));
  g_assert_nonnull (strstr (error->message, "are not here"));
  g_clear_error (&error);
  g_assert_cmpuint (qd_document_get_root (other)->blocks->len, ==, 0);
  g_assert_false (qd_document_can_undo (other));
}

/* An edit made while a gesture is in progress (Delete, Cut, Paste...
 * with the button still down) first takes the gesture back, as Escape
 * would, then applies to the diagram as it was: the rest of the drag
 * changes nothing, and the edit is an undo step of its own. */
static void
test_edit_during_gesture (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) route = NULL;
  g_autofree char *branch = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  QdLink *link;
  QdPoint a, b;

  /* Gain drives the Integrator and, through a branch, Gain 2. */
  link = qd_document_connect (f->document, f->root, f->gain->id, 0,
                              f->gain2->id, 0, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (link->n_targets, ==, 2);
  branch = qd_canvas_link_key (link, 1);
  route = qd_canvas_route_target (f->root, link, 1);
  /* Its own segment: down towards Gain 2, before the last step in. */
  g_assert_cmpuint (route->len, >=, 3);
  a = g_array_index (route, QdPoint, route->len - 3);
  b = g_array_index (route, QdPoint, route->len - 2);
  g_assert_cmpfloat (fabs (a.y - b.y), >, 50);
  before = text_of (f);

  /* Bending the branch, it is deleted half way. */
  qd_canvas_controller_press (f->controller, (a.x + b.x) / 2, (a.y + b.y) / 2, 0);
  qd_canvas_controller_drag (f->controller, (a.x + b.x) / 2 + 30, (a.y + b.y) / 2 + 40);
  g_assert_cmpint (qd_canvas_controller_get_mode (f->controller), ==, QD_CANVAS_MODE_BEND);
  qd_canvas_controller_select (f->controller, branch, FALSE);
  qd_canvas_controller_delete_selection (f->controller);
  g_assert_cmpint (qd_canvas_controller_get_mode (f->controller), ==, QD_CANVAS_MODE_IDLE);
  qd_canvas_controller_drag (f->controller, (a.x + b.x) / 2 + 60, (a.y + b.y) / 2 + 80);
  qd_canvas_controller_release (f->controller, (a.x + b.x) / 2 + 60, (a.y + b.y) / 2 + 80);
  g_assert_cmpuint (link->n_targets, ==, 1);
  g_assert_cmpstr (qd_document_get_undo_label (f->document), ==, _("Delete"));
  qd_document_undo (f->document);
  after = text_of (f);
  g_assert_cmpstr (after, ==, before);

  /* Moving Gain 2, it is cut half way. */
  qd_canvas_controller_press (f->controller, 330, 270, 0);
  qd_canvas_controller_drag (f->controller, 380, 320);
  g_assert_cmpint (qd_canvas_controller_get_mode (f->controller), ==, QD_CANVAS_MODE_MOVE);
  g_free (qd_canvas_controller_copy (f->controller));
  qd_canvas_controller_delete_selection (f->controller);
  qd_canvas_controller_drag (f->controller, 420, 360);
  qd_canvas_controller_release (f->controller, 420, 360);
  g_assert_null (qd_system_find_block (f->root, f->gain2->id));
  g_assert_cmpstr (qd_document_get_undo_label (f->document), ==, _("Delete"));
  qd_document_undo (f->document);
  g_free (after);
  after = text_of (f);
  g_assert_cmpstr (after, ==, before);
}

static void
test_group (Fixture       *f,
            gconstpointer  data)
{
  g_autofree char *before = text_of (f);
  g_autofree char *after = NULL;
  g_autoptr(GPtrArray) selected = NULL;
  QdBlock *sub;

  qd_canvas_controller_select (f->controller, f->gain->id, FALSE);
  qd_canvas_controller_select (f->controller, f->integrator->id, TRUE);
  g_assert_true (qd_canvas_controller_group (f->controller));
  g_assert_cmpuint (f->root->blocks->len, ==, 3);

  selected = qd_canvas_controller_get_selected_blocks (f->controller);
  g_assert_cmpuint (selected->len, ==, 1);
  sub = g_ptr_array_index (selected, 0);
  g_assert_nonnull (sub->inner);
  g_assert_nonnull (qd_system_find_block (sub->inner, f->gain->id));

  /* A copied subsystem comes back whole: its inside, with its own port
   * blocks and links, under fresh ids. */
  {
    g_autofree char *text = qd_canvas_controller_copy (f->controller);
    g_autoptr(GPtrArray) pasted = NULL;
    g_autoptr(GError) error = NULL;
    QdBlock *copy;

    g_assert_true (qd_canvas_controller_paste (f->controller, text, &error));
    g_assert_no_error (error);
    pasted = qd_canvas_controller_get_selected_blocks (f->controller);
    g_assert_cmpuint (pasted->len, ==, 1);
    copy = g_ptr_array_index (pasted, 0);
    g_assert_nonnull (copy->inner);
    g_assert_cmpstr (copy->id, !=, sub->id);
    g_assert_cmpuint (copy->inner->blocks->len, ==, sub->inner->blocks->len);
    g_assert_cmpuint (copy->inner->links->len, ==, sub->inner->links->len);
    g_assert_null (qd_system_find_block (copy->inner, f->gain->id));
    qd_document_undo (f->document);
    qd_canvas_controller_select (f->controller, sub->id, FALSE);
  }

  /* Double-click opens it in the same canvas. */
  g_assert_true (qd_canvas_controller_activate (f->controller,
                                                sub->x + sub->width / 2,
                                                sub->y + sub->height / 2));
  g_assert_true (qd_canvas_controller_get_system (f->controller) == sub->inner);

  /* Undo takes the subsystem away: the canvas goes back to the root. */
  qd_document_undo (f->document);
  g_assert_true (qd_canvas_controller_get_system (f->controller) == f->root);
  after = text_of (f);
  g_assert_cmpstr (after, ==, before);

  /* Nothing selected: refused with a message. */
  qd_canvas_controller_clear_selection (f->controller);
  g_assert_false (qd_canvas_controller_group (f->controller));
  g_assert_cmpstr (f->message, ==, "/: select the blocks to put into a subsystem first");
}

typedef void (*EditFunc) (Fixture *f);

static void edit_rotate (Fixture *f) { qd_canvas_controller_rotate_selection (f->controller); }
static void edit_flip (Fixture *f) { qd_canvas_controller_flip_selection (f->controller); }
static void edit_delete (Fixture *f) { qd_canvas_controller_delete_selection (f->controller); }
static void edit_nudge (Fixture *f) { qd_canvas_controller_nudge (f->controller, 10, 0, TRUE); }
static void edit_align (Fixture *f) { qd_canvas_controller_align_selection (f->controller, QD_CANVAS_ALIGN_TOP); }
static void edit_duplicate (Fixture *f) { qd_canvas_controller_duplicate (f->controller); }
static void edit_ungroup (Fixture *f) { qd_canvas_controller_ungroup (f->controller); }
static void edit_add (Fixture *f) { qd_canvas_controller_add_block (f->controller, "gain", 503, 497); }

static void
test_undo_each (Fixture       *f,
                gconstpointer  data)
{
  static const struct
  {
    const char *name;
    EditFunc    edit;
  } edits[] = {
    { "rotate", edit_rotate },
    { "flip", edit_flip },
    { "delete", edit_delete },
    { "nudge", edit_nudge },
    { "align", edit_align },
    { "duplicate", edit_duplicate },
    { "add", edit_add },
  };

  for (guint k = 0; k < G_N_ELEMENTS (edits); k++)
    {
      g_autofree char *before = NULL;
      g_autofree char *changed = NULL;
      g_autofree char *after = NULL;

      g_test_message ("edit: %s", edits[k].name);
      qd_canvas_controller_select (f->controller, f->gain->id, FALSE);
      qd_canvas_controller_select (f->controller, f->gain2->id, TRUE);
      before = text_of (f);
      edits[k].edit (f);
      changed = text_of (f);
      g_assert_cmpstr (changed, !=, before);
      qd_document_undo (f->document);
      after = text_of (f);
      g_assert_cmpstr (after, ==, before);
    }

  /* Ungroup of a subsystem made by the canvas. */
  {
    g_autofree char *before = NULL;
    g_autofree char *after = NULL;

    qd_canvas_controller_select (f->controller, f->gain->id, FALSE);
    qd_canvas_controller_select (f->controller, f->integrator->id, TRUE);
    g_assert_true (qd_canvas_controller_group (f->controller));
    before = text_of (f);
    edit_ungroup (f);
    g_assert_cmpuint (f->root->blocks->len, ==, 4);
    qd_document_undo (f->document);
    after = text_of (f);
    g_assert_cmpstr (after, ==, before);
  }
}

static void
test_geometry_edits (Fixture       *f,
                     gconstpointer  data)
{
  qd_canvas_controller_select (f->controller, f->gain->id, FALSE);

  /* Rotating turns the rectangle about its centre. */
  qd_canvas_controller_rotate_selection (f->controller);
  g_assert_cmpint (f->gain->rotation, ==, 90);
  g_assert_cmpfloat (f->gain->width, ==, 40);
  g_assert_cmpfloat (f->gain->height, ==, 60);
  g_assert_cmpfloat (f->gain->x + f->gain->width / 2, ==, 130);
  g_assert_cmpfloat (f->gain->y + f->gain->height / 2, ==, 120);
  qd_canvas_controller_flip_selection (f->controller);
  g_assert_true (f->gain->flip);

  /* Arrows step to the next grid line; Shift+arrow by one unit. */
  qd_canvas_controller_nudge (f->controller, 1, 0, FALSE);
  g_assert_cmpfloat (f->gain->x, ==, 111);
  qd_canvas_controller_nudge (f->controller, 10, 0, TRUE);
  g_assert_cmpfloat (f->gain->x, ==, 120);
  qd_canvas_controller_nudge (f->controller, -10, 0, TRUE);
  g_assert_cmpfloat (f->gain->x, ==, 110);
  qd_canvas_controller_nudge (f->controller, 0, 10, TRUE);
  g_assert_cmpfloat (f->gain->y, ==, 100);

  /* Align left and top to the selection's edges. */
  qd_canvas_controller_select (f->controller, f->gain2->id, TRUE);
  qd_canvas_controller_align_selection (f->controller, QD_CANVAS_ALIGN_LEFT);
  g_assert_cmpfloat (f->gain2->x, ==, 110);
  qd_canvas_controller_align_selection (f->controller, QD_CANVAS_ALIGN_TOP);
  g_assert_cmpfloat (f->gain2->y, ==, 100);

  /* A dropped block is centred on the drop point, on the grid. */
  {
    QdBlock *block = qd_canvas_controller_add_block (f->controller, "integrator", 503, 497);

    g_assert_nonnull (block);
    g_assert_cmpfloat (block->x, ==, 470);
    g_assert_cmpfloat (block->y, ==, 480);
    g_assert_true (qd_canvas_controller_is_selected (f->controller, block->id));
  }
}

/* Notes */

/* Dragging a note: it follows the pointer snapped to the grid, and the
 * whole drag is one undo step; a press without motion changes nothing;
 * a press beside every note drags none. */
static void
test_note_drag (Fixture       *f,
                gconstpointer  data)
{
  GPtrArray *notes = qd_document_get_notes (f->document);
  QdNoteDrag drag;
  const QdNote *note;
  guint index = qd_document_add_note (f->document, 500, 400, "Look here");

  g_assert_false (qd_canvas_notes_drag_begin (&drag, f->document, notes, 300, 300));
  g_assert_null (drag.document);

  g_assert_true (qd_canvas_notes_drag_begin (&drag, f->document, notes, 505, 405));
  qd_canvas_notes_drag_end (&drag);
  g_assert_cmpstr (qd_document_get_undo_label (f->document), ==, "Add Note");

  g_assert_true (qd_canvas_notes_drag_begin (&drag, f->document, notes, 505, 405));
  qd_canvas_notes_drag_update (&drag, 540, 433);
  qd_canvas_notes_drag_update (&drag, 600, 467);
  qd_canvas_notes_drag_end (&drag);
  note = g_ptr_array_index (notes, index);
  /* 500 + 95 and 400 + 62, each to the nearest grid line. */
  g_assert_cmpfloat (note->x, ==, qd_canvas_snap (595));
  g_assert_cmpfloat (note->y, ==, qd_canvas_snap (462));
  g_assert_cmpfloat (fmod (note->x, 10), ==, 0);
  g_assert_cmpstr (qd_document_get_undo_label (f->document), ==, "Move Note");
  g_assert_true (qd_document_undo (f->document));
  note = g_ptr_array_index (notes, index);
  g_assert_cmpfloat (note->x, ==, 500);
  g_assert_cmpfloat (note->y, ==, 400);
  g_assert_cmpstr (qd_document_get_undo_label (f->document), ==, "Add Note");
}


int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  int status;

  if (!qd_test_gtk_init (&argc, &argv, FALSE))
    return 0;

  app = qd_application_new (G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

#define ADD(path, func, linked) \
  g_test_add ("/canvas/" path, Fixture, GINT_TO_POINTER (linked), \
              qd_test_canvas_fixture_setup, func, \
              qd_test_canvas_fixture_teardown)

  ADD ("controller/connect", test_connect, FALSE);
  ADD ("controller/connect-refused", test_connect_refused, TRUE);
  ADD ("controller/branch", test_branch, TRUE);
  ADD ("controller/bend", test_bend_drag, TRUE);
  ADD ("controller/rewire", test_rewire, TRUE);
  ADD ("controller/move", test_move_with_links, TRUE);
  ADD ("controller/click", test_click_selection, TRUE);
  ADD ("controller/context", test_context_selection, TRUE);
  ADD ("controller/add-size", test_add_block_size, TRUE);
  ADD ("controller/rubber-band", test_rubber_band, TRUE);
  ADD ("controller/copy-paste", test_copy_paste, TRUE);
  ADD ("controller/copy-paste-mask", test_copy_paste_mask, TRUE);
  ADD ("controller/copy-paste-link", test_copy_paste_link, TRUE);
  ADD ("controller/edit-during-gesture", test_edit_during_gesture, TRUE);
  ADD ("controller/group", test_group, TRUE);
  ADD ("controller/undo-each", test_undo_each, TRUE);
  ADD ("controller/geometry-edits", test_geometry_edits, TRUE);
  ADD ("notes/drag", test_note_drag, FALSE);

  status = g_test_run ();
  g_clear_object (&app);
  return status;
}

/* qd-debugger-overlay.c: what the debugger draws over the canvas
 *
 * Drawn at each frame of the canvas in canvas units, from the debugger's
 * position; it keeps nothing between frames. The colours are the same in
 * light and dark styles: they are marks to be seen from the back of a
 * classroom, not part of the diagram.
 */
#include <glib/gi18n-lib.h>
#include <math.h>

#include "qd-canvas-geometry.h"
#include "qd-debugger-overlay.h"

static const double colour_internal[3] = { 0.96, 0.55, 0.05 };
static const double colour_external[3] = { 0.15, 0.45, 0.95 };

/* The block of @system that shows @block: itself, or the subsystem of
 * @system that holds it. */
static QdBlock *
block_in_system (QdBlock  *block,
                 QdSystem *system)
{
  while (block != NULL && block->parent != system)
    block = block->parent != NULL ? block->parent->owner : NULL;
  return block;
}

static void
text_box (cairo_t      *cr,
          double        x,
          double        y,
          const char   *text,
          const double *colour)
{
  cairo_text_extents_t ext;

  cairo_save (cr);
  cairo_select_font_face (cr, "Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
  cairo_set_font_size (cr, 10);
  cairo_text_extents (cr, text, &ext);
  cairo_rectangle (cr, x - ext.width / 2 - 3, y - ext.height - 3, ext.width + 6, ext.height + 6);
  cairo_set_source_rgba (cr, 1, 1, 1, 0.92);
  cairo_fill_preserve (cr);
  cairo_set_source_rgb (cr, colour[0], colour[1], colour[2]);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
  cairo_move_to (cr, x - ext.width / 2 - ext.x_bearing, y - ext.height - ext.y_bearing);
  cairo_show_text (cr, text);
  cairo_restore (cr);
}

/* The point at @fraction of the length of @route (QdPoint). */
static QdPoint
route_point (const GArray *route,
             double        fraction)
{
  double total = 0, goal, done = 0;

  for (guint k = 1; k < route->len; k++)
    {
      QdPoint a = g_array_index (route, QdPoint, k - 1);
      QdPoint b = g_array_index (route, QdPoint, k);

      total += hypot (b.x - a.x, b.y - a.y);
    }
  goal = total * CLAMP (fraction, 0.0, 1.0);
  for (guint k = 1; k < route->len; k++)
    {
      QdPoint a = g_array_index (route, QdPoint, k - 1);
      QdPoint b = g_array_index (route, QdPoint, k);
      double len = hypot (b.x - a.x, b.y - a.y);

      if (done + len >= goal && len > 0)
        {
          double f = (goal - done) / len;

          return (QdPoint) { a.x + f * (b.x - a.x), a.y + f * (b.y - a.y) };
        }
      done += len;
    }
  return route->len > 0 ? g_array_index (route, QdPoint, route->len - 1) : (QdPoint) { 0, 0 };
}

static char *
format_value (const QdSignal *seg,
              double          t)
{
  double v = isnan (t) ? seg->c[0] : qd_signal_eval (seg, t);

  if (seg->tag != 0)
    return g_strdup_printf ("%.4g #%u", v, (guint) seg->tag);
  return g_strdup_printf ("%.4g", v);
}

static void
draw_highlight (cairo_t          *cr,
                QdBlock          *shown,
                const QdLogEntry *entry)
{
  QdRect r = qd_canvas_block_rect (shown);
  const double *c = entry->kind == QD_LOG_EXTERNAL ? colour_external : colour_internal;
  g_autofree char *label = NULL;

  cairo_save (cr);
  cairo_rectangle (cr, r.x - 6, r.y - 6, r.width + 12, r.height + 12);
  cairo_set_source_rgba (cr, c[0], c[1], c[2], 0.18);
  cairo_fill_preserve (cr);
  cairo_set_source_rgb (cr, c[0], c[1], c[2]);
  cairo_set_line_width (cr, 3);
  cairo_stroke (cr);
  cairo_restore (cr);
  switch (entry->kind)
    {
    case QD_LOG_OUTPUT:
      /* TRANSLATORS: an output event λ on output port %u */
      label = g_strdup_printf (_("λ out %u"), entry->port + 1);
      break;
    case QD_LOG_INTERNAL:
      label = g_strdup (_("δint"));
      break;
    default:
      /* TRANSLATORS: an external transition δext on input port %u */
      label = g_strdup_printf (_("δext in %u"), entry->port + 1);
      break;
    }
  text_box (cr, r.x + r.width / 2, r.y - 10, label, c);
}

/* The message of an output on its way to every receiver. */
static void
draw_message (cairo_t          *cr,
              QdSystem         *system,
              QdBlock          *block,
              const QdLogEntry *entry,
              double            progress)
{
  g_autofree char *value = format_value (entry->segment, NAN);

  for (guint i = 0; i < system->links->len; i++)
    {
      QdLink *link = g_ptr_array_index (system->links, i);

      if (g_strcmp0 (link->src.block, block->id) != 0 || link->src.port != entry->port)
        continue;
      for (guint k = 0; k < link->n_targets; k++)
        {
          g_autoptr(GArray) route = qd_canvas_route_target (system, link, k);
          QdPoint p;

          if (route->len < 2)
            continue;
          p = route_point (route, progress);
          cairo_save (cr);
          cairo_arc (cr, p.x, p.y, 5, 0, 2 * G_PI);
          cairo_set_source_rgb (cr, colour_internal[0], colour_internal[1], colour_internal[2]);
          cairo_fill (cr);
          cairo_restore (cr);
          text_box (cr, p.x, p.y - 8, value, colour_internal);
        }
    }
}

static void
draw_link_values (QdDebugger *self,
                  cairo_t    *cr,
                  QdSystem   *system)
{
  g_autoptr(GHashTable) values = qd_debugger_dup_link_values (self);
  double t = qd_debugger_get_time (self);
  static const double grey[3] = { 0.3, 0.3, 0.3 };

  for (guint i = 0; i < system->links->len; i++)
    {
      QdLink *link = g_ptr_array_index (system->links, i);
      QdBlock *src = qd_system_find_block (system, link->src.block);
      g_autofree char *path = src != NULL ? qd_block_get_path (src) : NULL;
      g_autofree char *key = NULL;
      g_autoptr(GArray) route = NULL;
      const QdSignal *seg;
      g_autofree char *text = NULL;

      if (path == NULL)
        continue;
      key = g_strdup_printf ("%s:%u", path, link->src.port);
      seg = g_hash_table_lookup (values, key);
      if (seg == NULL)
        continue;
      route = qd_canvas_route_target (system, link, 0);
      if (route->len < 2)
        continue;
      text = format_value (seg, t);
      {
        QdPoint p = route_point (route, 0.5);

        text_box (cr, p.x, p.y - 4, text, grey);
      }
    }
}

/* A run that simply went to its end, nobody stepping back through it:
 * its last transition is no news, and a ring on some block after every
 * run would only puzzle. Stepping back from the end shows it again. */
static gboolean
run_ended_unwatched (QdDebugger   *self,
                     QdRunSession *session)
{
  QdRunner *runner = qd_run_session_get_runner (session);
  QdRunnerState state = runner != NULL ? qd_runner_get_state (runner) : QD_RUNNER_IDLE;
  guint n_rows = qd_event_view_get_n_rows (qd_run_session_get_event_view (session));

  if (state != QD_RUNNER_FINISHED && state != QD_RUNNER_STOPPED && state != QD_RUNNER_FAILED)
    return FALSE;
  return n_rows == 0 || qd_debugger_get_position (self) + 1 >= n_rows;
}

void
qd_debugger_overlay_draw (QdDebugger *self,
                          QdCanvas   *canvas,
                          cairo_t    *cr,
                          QdSystem   *system)
{
  QdRunSession *session = qd_debugger_get_session (self);
  QdDocument *doc = session != NULL ? qd_run_session_get_document (session) : NULL;
  QdLogEntry entry;
  QdSignal seg;
  QdBlock *block, *shown;
  double progress;

  if (doc == NULL)
    return;
  if (qd_debugger_get_link_values (self))
    draw_link_values (self, cr, system);
  if (!qd_debugger_get_entry (self, &entry, &seg))
    return;
  if (run_ended_unwatched (self, session))
    return;
  block = qd_document_find_block_by_path (doc, qd_debugger_get_block_path (self, entry.block));
  shown = block_in_system (block, system);
  if (shown == NULL)
    return;
  draw_highlight (cr, shown, &entry);
  progress = qd_debugger_get_animation (self);
  if (entry.kind == QD_LOG_OUTPUT && progress >= 0 && shown == block)
    draw_message (cr, system, block, &entry, progress);
}

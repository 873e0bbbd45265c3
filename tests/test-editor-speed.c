/* test-editor-speed.c: how fast the editor opens and redraws a large diagram
 *
 * A benchmark, not a test of time: it generates a diagram of 1,000 blocks
 * and 1,500 connections (rows of Weighted Sum → Gain → Integrator loops,
 * chained along each row and tied to the row above), saves it, opens it in
 * the real editor window, and prints what a person would feel: the time
 * from opening the file to the first frame on screen, the frame times
 * while panning, zooming, dragging a block and editing with the arrow
 * keys, and the cost of routing the links after an edit. It asserts only
 * what the figures depend on (the diagram has the size it claims, a drag
 * moves the block and one undo takes it back), never a duration.
 *
 * Run it on demand: meson test -C BUILDDIR --benchmark editor-speed -v
 * (under xvfb-run without a display). Each frame's work is measured on the
 * frame clock, from the tick that changes the view to the end of the paint;
 * the pure cost of drawing the diagram with Cairo is measured apart.
 */
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "qd-application.h"
#include "qd-canvas.h"
#include "qd-canvas-render.h"
#include "qd-test-gtk-util.h"
#include "qd-test-util.h"
#include "qd-window.h"

#define N_ROWS      25
#define N_TRIPLES   13          /* per row; each row also has a Constant */
#define N_CROSS     200         /* sums with a third input from the row above */
#define N_FRAMES    120         /* measured frames per scenario */
#define N_WARMUP    5           /* frames left out of the figures */

static QdApplication *app;

/* The diagram */

static QdBlock *
add_block (QdDocument *document,
           const char *type,
           double      x,
           double      y)
{
  g_autoptr(GError) error = NULL;
  QdBlock *block = qd_document_add_block (document, qd_document_get_root (document),
                                          type, NULL, x, y, &error);

  g_assert_no_error (error);
  return block;
}

static void
link_blocks (QdDocument    *document,
         const QdBlock *src,
         const QdBlock *dst,
         guint          port)
{
  g_autoptr(GError) error = NULL;

  qd_document_connect (document, qd_document_get_root (document),
                       src->id, 0, dst->id, port, &error);
  g_assert_no_error (error);
}

static void
set_param (QdDocument *document,
           QdBlock    *block,
           const char *name,
           const char *value)
{
  g_autoptr(GError) error = NULL;

  qd_document_set_param (document, block, name, value, &error);
  g_assert_no_error (error);
}

/* Each row: Constant, then N_TRIPLES loops of Weighted Sum → Gain →
 * Integrator with the integrator fed back into the sum's second input and
 * forward into the next sum's first. The first N_CROSS sums below the top
 * row take a third input from the integrator above them, so links run
 * across rows as well as along them. */
static QdDocument *
generate_diagram (guint *n_connections)
{
  QdDocument *document = qd_document_new ();
  QdBlock *integrators[N_ROWS][N_TRIPLES];
  guint n_cross = 0;

  *n_connections = 0;
  qd_document_set_title (document, "Editor speed: 1000 blocks");
  qd_document_begin (document, "generate");
  for (guint row = 0; row < N_ROWS; row++)
    {
      double y = 40 + row * 110.0;
      QdBlock *previous = add_block (document, "constant", 0, y);

      for (guint k = 0; k < N_TRIPLES; k++)
        {
          double x = 120 + k * 360.0;
          gboolean cross = row > 0 && n_cross < N_CROSS;
          QdBlock *sum = add_block (document, "wsum", x, y);
          QdBlock *gain = add_block (document, "gain", x + 120, y);
          QdBlock *integrator = add_block (document, "integrator", x + 240, y);

          if (cross)
            {
              set_param (document, sum, "n", "3");
              set_param (document, sum, "weights", "1, -1, 0.5");
            }
          else
            set_param (document, sum, "weights", "1, -1");
          link_blocks (document, previous, sum, 0);
          link_blocks (document, sum, gain, 0);
          link_blocks (document, gain, integrator, 0);
          link_blocks (document, integrator, sum, 1);
          *n_connections += 4;
          if (cross)
            {
              link_blocks (document, integrators[row - 1][k], sum, 2);
              (*n_connections)++;
              n_cross++;
            }
          integrators[row][k] = integrator;
          previous = integrator;
        }
    }
  qd_document_end (document);
  return document;
}

static void
count_diagram (QdDocument *document,
               guint      *n_blocks,
               guint      *n_links,
               guint      *n_targets)
{
  QdSystem *root = qd_document_get_root (document);

  *n_blocks = root->blocks->len;
  *n_links = root->links->len;
  *n_targets = 0;
  for (guint i = 0; i < root->links->len; i++)
    *n_targets += ((QdLink *) g_ptr_array_index (root->links, i))->n_targets;
}

/* CPU time of the calling thread, in microseconds. The machines that run
 * this are often busy with other work; what the editor itself spends on
 * a frame is its main thread's CPU time, which other processes do not
 * inflate the way they inflate the time on the clock. */
static gint64
thread_cpu_time (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

/* Statistics */

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Nearest-rank percentile of @values (sorted in place). */
static double
percentile (GArray *values,
            double  p)
{
  guint rank;

  g_assert_cmpuint (values->len, >, 0);
  qsort (values->data, values->len, sizeof (double), compare_doubles);
  rank = (guint) ceil (p / 100.0 * values->len);
  rank = CLAMP (rank, 1, values->len);
  return g_array_index (values, double, rank - 1);
}

static void
report (const char *what,
        GArray     *work,
        GArray     *cpu,
        GArray     *intervals)
{
  double median = percentile (work, 50), p95 = percentile (work, 95);
  double cpu_median = percentile (cpu, 50), cpu_p95 = percentile (cpu, 95);
  double cpu_max = percentile (cpu, 100);

  g_test_message ("%-20s frame CPU: median %6.2f ms, 95th %6.2f ms, worst %6.2f ms; on the clock: "
                  "median %6.2f ms, 95th %6.2f ms; frame interval median %6.2f ms (%u frames)",
                  what, cpu_median, cpu_p95, cpu_max, median, p95,
                  intervals->len > 0 ? percentile (intervals, 50) : 0.0, work->len);
  /* One machine-readable line per scenario, for the performance notes. */
  g_print ("# RESULT %s cpu_median_ms=%.2f cpu_p95_ms=%.2f cpu_max_ms=%.2f "
           "wall_median_ms=%.2f wall_p95_ms=%.2f\n",
           what, cpu_median, cpu_p95, cpu_max, median, p95);
}

/* Frames: a tick callback changes the view once per frame, the frame
 * clock's after-paint closes the frame's measurement. */

typedef struct _Run Run;
typedef void (*StepFunc) (Run *run, guint frame);

struct _Run
{
  QdCanvas   *canvas;
  StepFunc    step;
  guint       frame;
  guint       n_frames;
  gint64      tick_time;
  gint64      tick_cpu;
  gint64      last_paint;
  GArray     *work;          /* ms from the tick to the end of the paint */
  GArray     *cpu;           /* the main thread's CPU time over the same */
  GArray     *intervals;     /* ms between the ends of two paints */
  gboolean    done;

  /* Scenario data */
  double      dx, dy;
  double      zoom_factor;
  QdBlock    *block;
  double      grab_x, grab_y;
};

static gboolean
run_tick (GtkWidget     *widget,
          GdkFrameClock *clock,
          gpointer       user_data)
{
  Run *run = user_data;

  if (run->frame >= run->n_frames)
    {
      run->done = TRUE;
      return G_SOURCE_REMOVE;
    }
  run->tick_time = g_get_monotonic_time ();
  run->tick_cpu = thread_cpu_time ();
  run->step (run, run->frame);
  gtk_widget_queue_draw (widget);
  return G_SOURCE_CONTINUE;
}

static void
on_after_paint (GdkFrameClock *clock,
                Run           *run)
{
  gint64 now = g_get_monotonic_time ();

  if (run->tick_time == 0)
    return;
  if (run->frame >= N_WARMUP)
    {
      double work = (now - run->tick_time) / 1000.0;
      double cpu = (thread_cpu_time () - run->tick_cpu) / 1000.0;

      g_array_append_val (run->work, work);
      g_array_append_val (run->cpu, cpu);
      if (run->last_paint != 0)
        {
          double interval = (now - run->last_paint) / 1000.0;

          g_array_append_val (run->intervals, interval);
        }
    }
  run->last_paint = now;
  run->tick_time = 0;
  run->frame++;
}

static void
run_frames (Run *run)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (GTK_WIDGET (run->canvas));
  gulong handler;

  g_assert_nonnull (clock);
  run->work = g_array_new (FALSE, FALSE, sizeof (double));
  run->cpu = g_array_new (FALSE, FALSE, sizeof (double));
  run->intervals = g_array_new (FALSE, FALSE, sizeof (double));
  handler = g_signal_connect (clock, "after-paint", G_CALLBACK (on_after_paint), run);
  gtk_widget_add_tick_callback (GTK_WIDGET (run->canvas), run_tick, run, NULL);
  while (!run->done)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (clock, handler);
}

static void
finish_run (Run        *run,
            const char *what)
{
  report (what, run->work, run->cpu, run->intervals);
  g_array_unref (run->work);
  g_array_unref (run->cpu);
  g_array_unref (run->intervals);
}

/* Panning moves the view by whole pixels with the zoom unchanged, as the
 * scroll wheel does. The canvas offers zoom about an anchor: zooming in by
 * two about one point and back about another moves the view by half the
 * distance between the anchors, and nothing else. */
static void
pan_by (QdCanvas *canvas,
        double    dx,
        double    dy)
{
  double zoom = qd_canvas_get_zoom (canvas);
  double cx = gtk_widget_get_width (GTK_WIDGET (canvas)) / 2.0;
  double cy = gtk_widget_get_height (GTK_WIDGET (canvas)) / 2.0;

  g_assert_cmpfloat (zoom * 2, <=, QD_CANVAS_ZOOM_MAX);
  qd_canvas_set_zoom (canvas, zoom * 2, cx + dx, cy + dy);
  qd_canvas_set_zoom (canvas, zoom, cx - dx, cy - dy);
}

static void
step_pan (Run   *run,
          guint  frame)
{
  /* Back and forth, so the view stays over the diagram. */
  double sign = (frame / 30) % 2 == 0 ? 1 : -1;

  pan_by (run->canvas, sign * run->dx, sign * run->dy);
}

/* Panning on and on one way, as when looking along a long diagram: the
 * view leaves the part of the diagram drawn ahead every few frames. */
static void
step_pan_far (Run   *run,
              guint  frame)
{
  pan_by (run->canvas, run->dx, run->dy);
}

/* Arrow-key edits: each frame moves the selected block one grid step, a
 * document edit that routes links and draws the diagram again. */
static void
step_nudge (Run   *run,
            guint  frame)
{
  double sign = (frame / 10) % 2 == 0 ? 1 : -1;

  qd_canvas_controller_nudge (qd_canvas_get_controller (run->canvas), sign * QD_CANVAS_GRID, 0,
                              TRUE);
}

static void
step_zoom (Run   *run,
           guint  frame)
{
  double factor = (frame / 30) % 2 == 0 ? run->zoom_factor : 1 / run->zoom_factor;

  qd_canvas_set_zoom (run->canvas, qd_canvas_get_zoom (run->canvas) * factor,
                      gtk_widget_get_width (GTK_WIDGET (run->canvas)) / 2.0,
                      gtk_widget_get_height (GTK_WIDGET (run->canvas)) / 2.0);
}

/* A drag along a wave: the block and its links move every frame, and
 * the block ends far enough away that snapping to the grid cannot put
 * it back where it was. */
static double
drag_x (Run   *run,
        guint  frame)
{
  return run->grab_x + 1.5 * frame;
}

static double
drag_y (Run   *run,
        guint  frame)
{
  return run->grab_y + 40 * sin (frame * 0.1);
}

static void
step_drag (Run   *run,
           guint  frame)
{
  QdCanvasController *controller = qd_canvas_get_controller (run->canvas);

  qd_canvas_controller_drag (controller, drag_x (run, frame), drag_y (run, frame));
}

/* The block whose centre is nearest the centre of the view. */
static QdBlock *
block_at_view_centre (QdCanvas *canvas)
{
  QdSystem *system = qd_canvas_get_system (canvas);
  QdBlock *best = NULL;
  double cx, cy, best_d = G_MAXDOUBLE;

  qd_canvas_widget_to_canvas (canvas, gtk_widget_get_width (GTK_WIDGET (canvas)) / 2.0,
                              gtk_widget_get_height (GTK_WIDGET (canvas)) / 2.0, &cx, &cy);
  for (guint i = 0; i < system->blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (system->blocks, i);
      double d = hypot (block->x + block->width / 2 - cx, block->y + block->height / 2 - cy);

      if (d < best_d)
        {
          best_d = d;
          best = block;
        }
    }
  return best;
}

static void
measure_drag (QdCanvas   *canvas,
              QdDocument *document,
              const char *what)
{
  QdCanvasController *controller = qd_canvas_get_controller (canvas);
  Run run = { .canvas = canvas, .step = step_drag, .n_frames = N_FRAMES + N_WARMUP };
  double x0, y0;

  run.block = block_at_view_centre (canvas);
  g_assert_nonnull (run.block);
  x0 = run.block->x;
  y0 = run.block->y;
  /* Grab the block left of its glyph, clear of its ports. */
  run.grab_x = run.block->x + run.block->width / 2;
  run.grab_y = run.block->y + run.block->height / 4;
  qd_canvas_controller_press (controller, run.grab_x, run.grab_y, QD_CANVAS_MODIFIER_NONE);
  run_frames (&run);
  qd_canvas_controller_release (controller, drag_x (&run, run.frame), drag_y (&run, run.frame));
  g_assert_cmpint (qd_canvas_controller_get_mode (controller), ==, QD_CANVAS_MODE_IDLE);
  /* The drag moved the block; it is one undo step. */
  g_assert_true (run.block->x != x0 || run.block->y != y0);
  g_assert_true (qd_document_undo (document));
  g_assert_cmpfloat (run.block->x, ==, x0);
  g_assert_cmpfloat (run.block->y, ==, y0);
  finish_run (&run, what);
}

static void
measure_pan (QdCanvas   *canvas,
             const char *what)
{
  Run run = { .canvas = canvas, .step = step_pan, .n_frames = N_FRAMES + N_WARMUP,
              .dx = 8, .dy = 3 };

  run_frames (&run);
  finish_run (&run, what);
}

static void
measure_pan_far (QdCanvas   *canvas,
                 const char *what)
{
  Run run = { .canvas = canvas, .step = step_pan_far, .n_frames = N_FRAMES + N_WARMUP,
              .dx = 12, .dy = 2 };

  run_frames (&run);
  finish_run (&run, what);
}

static void
measure_nudge (QdCanvas   *canvas,
               QdDocument *document,
               const char *what)
{
  QdCanvasController *controller = qd_canvas_get_controller (canvas);
  Run run = { .canvas = canvas, .step = step_nudge, .n_frames = N_FRAMES + N_WARMUP };
  QdBlock *block = block_at_view_centre (canvas);
  double x0 = block->x;

  qd_canvas_controller_select (controller, block->id, FALSE);
  run_frames (&run);
  /* Each nudge is one undo step. */
  for (guint i = 0; i < run.n_frames; i++)
    g_assert_true (qd_document_undo (document));
  g_assert_cmpfloat (block->x, ==, x0);
  qd_canvas_controller_clear_selection (controller);
  finish_run (&run, what);
}

static void
measure_zoom (QdCanvas   *canvas,
              const char *what)
{
  Run run = { .canvas = canvas, .step = step_zoom, .n_frames = N_FRAMES + N_WARMUP,
              .zoom_factor = 1.05 };

  run_frames (&run);
  finish_run (&run, what);
}

static GArray *
route_from_controller (const QdSystem *system,
                       const QdLink   *link,
                       guint           target,
                       gpointer        user_data)
{
  return qd_canvas_controller_get_route (user_data, link, target);
}

/* Laying out every link of the diagram from scratch, as after loading. */
static void
measure_routing (QdCanvas *canvas)
{
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; i < 5; i++)
    {
      gint64 start = thread_cpu_time ();
      g_autoptr(GHashTable) routes = qd_canvas_route_system (qd_canvas_get_system (canvas));
      double ms = (thread_cpu_time () - start) / 1000.0;

      g_assert_cmpuint (g_hash_table_size (routes), ==, 1500);
      g_array_append_val (times, ms);
    }
  g_test_message ("%-20s all 1500 routes: CPU median %6.2f ms", "route-all", percentile (times, 50));
  g_print ("# RESULT route-all cpu_median_ms=%.2f\n", percentile (times, 50));
}

/* Routing after an edit: one block moved, then the move undone; only
 * the routes the edit can change are laid again. */
static void
measure_route_edit (QdCanvas *canvas)
{
  QdSystem *system = qd_canvas_get_system (canvas);
  QdDocument *document = qd_canvas_get_document (canvas);
  g_autoptr(QdCanvasRouter) router = qd_canvas_router_new ();
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) counts = g_array_new (FALSE, FALSE, sizeof (double));
  guint n_laid;

  g_hash_table_unref (qd_canvas_router_update (router, system, &n_laid, NULL));
  g_assert_cmpuint (n_laid, ==, 1500);
  for (guint i = 0; i < 40; i++)
    {
      QdBlock *block = g_ptr_array_index (system->blocks, (i * 97) % system->blocks->len);
      gint64 start;
      double ms, count;

      if (i % 2 == 0)
        qd_document_move_block (document, block, block->x + 30, block->y + 20);
      else
        g_assert_true (qd_document_undo (document));
      start = thread_cpu_time ();
      g_hash_table_unref (qd_canvas_router_update (router, system, &n_laid, NULL));
      ms = (thread_cpu_time () - start) / 1000.0;
      count = n_laid;
      g_array_append_val (times, ms);
      g_array_append_val (counts, count);
    }
  g_test_message ("%-20s after moving one block: CPU median %6.2f ms, worst %6.2f ms; "
                  "routes laid median %.0f, most %.0f of 1500", "route-edit",
                  percentile (times, 50), percentile (times, 100),
                  percentile (counts, 50), percentile (counts, 100));
  g_print ("# RESULT route-edit cpu_median_ms=%.2f cpu_max_ms=%.2f laid_median=%.0f laid_max=%.0f\n",
           percentile (times, 50), percentile (times, 100),
           percentile (counts, 50), percentile (counts, 100));
}

/* The drawing alone: the canvas's renderer into an image the size of the
 * canvas, with the canvas's view and its cached routes, no GTK in
 * between. */
static void
measure_render (QdCanvas   *canvas,
                const char *what,
                gboolean    grid)
{
  int width = gtk_widget_get_width (GTK_WIDGET (canvas));
  int height = gtk_widget_get_height (GTK_WIDGET (canvas));
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
  QdCanvasRenderOptions options;
  QdCanvasStyle style;
  double cx, cy;

  qd_canvas_style_init_light (&style);
  qd_canvas_render_options_init (&options);
  options.zoom = qd_canvas_get_zoom (canvas);
  qd_canvas_widget_to_canvas (canvas, 0, 0, &cx, &cy);
  options.origin_x = cx;
  options.origin_y = cy;
  options.style = &style;
  options.draw_grid = grid;
  options.route_func = route_from_controller;
  options.route_data = qd_canvas_get_controller (canvas);
  for (guint i = 0; i < 30; i++)
    {
      cairo_t *cr = cairo_create (surface);
      gint64 start = thread_cpu_time ();
      double ms;

      qd_canvas_render (cr, qd_canvas_get_system (canvas), &options, width, height);
      cairo_surface_flush (surface);
      ms = (thread_cpu_time () - start) / 1000.0;
      cairo_destroy (cr);
      if (i >= 3)
        g_array_append_val (times, ms);
    }
  cairo_surface_destroy (surface);
  g_test_message ("%-20s render only: CPU median %6.2f ms, 95th %6.2f ms (%dx%d px)",
                  what, percentile (times, 50), percentile (times, 95), width, height);
  g_print ("# RESULT %s cpu_median_ms=%.2f cpu_p95_ms=%.2f\n", what,
           percentile (times, 50), percentile (times, 95));
}

static void
settle (void)
{
  /* Let pending idles (layout, the stack's crossfade) run out. */
  for (guint i = 0; i < 20; i++)
    while (g_main_context_iteration (NULL, FALSE))
      ;
}

static void
test_large_diagram (void)
{
  g_autoptr(QdDocument) generated = NULL;
  g_autoptr(QdDocument) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *path = NULL;
  guint n_connections, n_blocks, n_links, n_targets;
  gint64 start;
  double load_ms, open_ms, gen_ms;
  QdWindow *window;
  QdCanvas *canvas;
  QdDocument *document;
  char load_text[64];

  start = g_get_monotonic_time ();
  generated = generate_diagram (&n_connections);
  gen_ms = (g_get_monotonic_time () - start) / 1000.0;
  count_diagram (generated, &n_blocks, &n_links, &n_targets);
  g_assert_cmpuint (n_blocks, ==, 1000);
  g_assert_cmpuint (n_targets, ==, 1500);
  g_assert_cmpuint (n_connections, ==, 1500);

  dir = g_dir_make_tmp ("qd-editor-speed-XXXXXX", &error);
  g_assert_no_error (error);
  path = g_build_filename (dir, "large.qdevs", NULL);
  g_assert_true (qd_document_save (generated, path, &error));
  g_assert_no_error (error);

  /* Loading alone, as the CLI does. */
  start = g_get_monotonic_time ();
  loaded = qd_document_load (path, &error);
  load_ms = (g_get_monotonic_time () - start) / 1000.0;
  g_assert_no_error (error);
  count_diagram (loaded, &n_blocks, &n_links, &n_targets);
  g_assert_cmpuint (n_blocks, ==, 1000);
  g_assert_cmpuint (n_targets, ==, 1500);

  /* The editor: an empty window already on screen, as after starting
   * it; then the file opens, and the clock stops when its first frame is
   * painted. */
  window = qd_window_new (GTK_APPLICATION (app));
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  qd_test_wait_for_paint (GTK_WIDGET (window));
  settle ();

  file = g_file_new_for_path (path);
  start = g_get_monotonic_time ();
  g_assert_true (qd_window_open_file (window, file, &error));
  g_assert_no_error (error);
  qd_test_wait_for_paint (GTK_WIDGET (window));
  open_ms = (g_get_monotonic_time () - start) / 1000.0;

  document = qd_window_get_document (window);
  canvas = QD_CANVAS (gtk_widget_get_template_child (GTK_WIDGET (window), QD_TYPE_WINDOW,
                                                     "canvas"));
  g_assert_true (qd_canvas_get_document (canvas) == document);
  settle ();

  g_test_message ("diagram: %u blocks, %u links with %u targets (connections)",
                  n_blocks, n_links, n_targets);
  g_test_message ("generate with commands: %.1f ms", gen_ms);
  g_test_message ("load file: %.1f ms; open in the editor to first frame: %.1f ms",
                  load_ms, open_ms);
  g_test_message ("canvas: %dx%d px, fitted zoom %.3f, renderer %s",
                  gtk_widget_get_width (GTK_WIDGET (canvas)),
                  gtk_widget_get_height (GTK_WIDGET (canvas)),
                  qd_canvas_get_zoom (canvas),
                  G_OBJECT_TYPE_NAME (gtk_native_get_renderer (GTK_NATIVE (window))));
  g_snprintf (load_text, sizeof load_text, "%.1f", open_ms);
  g_print ("# RESULT open-to-first-frame ms=%s load_ms=%.1f\n", load_text, load_ms);

  /* The whole diagram in view: the worst case for drawing. */
  measure_routing (canvas);
  measure_route_edit (canvas);
  measure_render (canvas, "render-fit", TRUE);
  measure_render (canvas, "render-fit-no-grid", FALSE);
  measure_pan (canvas, "pan-fit");
  measure_nudge (canvas, document, "nudge-fit");

  /* At 100 %, where people edit. */
  gtk_widget_activate_action (GTK_WIDGET (canvas), "canvas.zoom-100", NULL);
  g_assert_cmpfloat (qd_canvas_get_zoom (canvas), ==, 1.0);
  measure_render (canvas, "render-100", TRUE);
  measure_render (canvas, "render-100-no-grid", FALSE);
  measure_pan (canvas, "pan-100");
  measure_pan_far (canvas, "pan-far-100");
  measure_drag (canvas, document, "drag-100");

  /* Zooming in and out in steps from the fitted view. */
  qd_canvas_zoom_fit (canvas);
  measure_zoom (canvas, "zoom-steps");

  /* The benchmark's edits are all undone: closing asks nothing. */
  g_assert_false (qd_document_get_modified (document));
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
  g_rmdir (dir);
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  double load[3] = { 0 };
  int status;

  if (!qd_test_gtk_init (&argc, &argv, FALSE))
    return 0;

  /* The load average says how much the figures can be trusted. */
  {
    g_autofree char *text = NULL;

    if (g_file_get_contents ("/proc/loadavg", &text, NULL, NULL))
      sscanf (text, "%lf %lf %lf", &load[0], &load[1], &load[2]);
    g_test_message ("load average %.2f %.2f %.2f, %u processors",
                    load[0], load[1], load[2], g_get_num_processors ());
  }

  app = qd_application_new (G_APPLICATION_NON_UNIQUE);
  g_application_register (G_APPLICATION (app), NULL, &error);
  g_assert_no_error (error);

  g_test_add_func ("/editor-speed/large-diagram", test_large_diagram);

  status = g_test_run ();
  g_clear_object (&app);
  return status;
}

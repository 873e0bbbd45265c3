/* plot-demo.c: a window with a live plot fed by a worker thread
 *
 * Not a test: a program to look at the plot widget by itself. A worker
 * thread appends QSS2-like segments (parabolas between quantum
 * crossings) of a damped oscillator's position and velocity and a QSS1-
 * like staircase of a slow input, paced against the wall clock so the
 * curves grow on screen. When a run ends, a second one starts with a ten
 * times larger quantum, and the first stays in a lighter shade.
 *
 *   plot-demo [--xy] [--mode=exact|lines|steps|events] [--big=N]
 *
 * --big=N adds a trace of N tiny segments (noise on a slow wave).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "qd-plot.h"
#include "qd-blocks.h"

#define RUN_TIME   20.0   /* simulated seconds */
#define SPEED      2.5    /* simulated seconds per wall-clock second */

typedef struct
{
  QdTrace *x, *v, *u, *big;
  double   quantum;
  guint    big_n;
} Run;

static QdPlot *plot;
static GtkWidget *window;
static gboolean xy_mode;
static guint big_n;
static guint run_count;

/* x(t) = exp(-a t) cos(w t) and its derivatives, from the complex
 * exponential: d^k/dt^k Re(e^{(-a + i w) t}) = Re((-a + i w)^k e^{...}). */
static void
oscillator (double  t,
            double  d[5])
{
  const double a = 0.15, w = 2.0;
  double re = exp (-a * t) * cos (w * t), im = exp (-a * t) * sin (w * t);

  for (int k = 0; k < 5; k++)
    {
      double nre = -a * re - w * im, nim = -a * im + w * re;

      d[k] = re;
      re = nre;
      im = nim;
    }
}

/* One QSS2-like segment at @t of a function with derivatives @d: the
 * second-order Taylor polynomial, held until its error reaches the
 * quantum (|x'''| s^3 / 6 = dq). */
static double
append_order2 (QdTrace      *trace,
               double        t,
               const double *d,
               double        dq)
{
  QdSignal s = { t, { d[0], d[1], d[2] / 2.0, 0.0 }, 2, 0 };
  double third = fabs (d[3]) / 6.0;
  gsize n = qd_trace_get_length (trace);

  /* As in QSS2, the state is continuous: the new piece starts where the
   * old one has got to, only its slope and curvature are renewed. */
  if (n > 0)
    s.c[0] = qd_signal_eval (qd_trace_get (trace, n - 1), t);

  qd_trace_append (trace, &s);
  return third > 0.0 ? MIN (cbrt (dq / third), 0.5) : 0.5;
}

static gpointer
worker (gpointer data)
{
  Run *run = data;
  gint64 start = g_get_monotonic_time ();
  double tx = 0.0, tv = 0.0, tu = 0.0;
  double u_last = NAN;

  while (MIN (MIN (tx, tv), tu) < RUN_TIME)
    {
      double now = (g_get_monotonic_time () - start) / 1e6 * SPEED;
      double d[5];

      /* Whatever has become due by now, in time order per trace. */
      while (tx < MIN (now, RUN_TIME))
        {
          oscillator (tx, d);
          tx += append_order2 (run->x, tx, d, run->quantum);
        }
      while (tv < MIN (now, RUN_TIME))
        {
          /* The velocity's derivatives are the position's, shifted. */
          oscillator (tv, d);
          tv += append_order2 (run->v, tv, d + 1, run->quantum);
        }
      while (tu < MIN (now, RUN_TIME))
        {
          /* A QSS1 staircase of a slow sine: a new level each quantum. */
          double value = 0.8 * sin (0.6 * tu) + (tu > 10.0 ? 0.3 : 0.0);
          double q = run_count == 1 ? 0.05 : 0.2;
          double level = q * round (value / q);
          QdSignal s;

          if (level != u_last)
            {
              qd_signal_set_constant (&s, tu, level);
              qd_trace_append (run->u, &s);
              u_last = level;
            }
          tu += 0.01;
        }
      if (run->big != NULL && qd_trace_get_length (run->big) < run->big_n)
        {
          /* Many tiny segments: noise on a slow wave. */
          gsize n = qd_trace_get_length (run->big);
          double h = RUN_TIME / run->big_n;

          for (; n < run->big_n && n * h < now; n++)
            {
              double t = n * h;
              QdSignal s = { t, { -1.0 + 0.3 * sin (0.9 * t) + 0.05 * g_random_double (),
                                  0.0, 0.0, 0.0 }, 0, 0 };

              qd_trace_append (run->big, &s);
            }
        }
      g_usleep (4000);
    }
  qd_trace_close (run->x, RUN_TIME);
  qd_trace_close (run->v, RUN_TIME);
  qd_trace_close (run->u, RUN_TIME);
  if (run->big != NULL)
    qd_trace_close (run->big, RUN_TIME);
  return run;
}

static gboolean start_run (gpointer data);

static gboolean
run_finished (gpointer data)
{
  Run *run = data;

  qd_trace_unref (run->x);
  qd_trace_unref (run->v);
  qd_trace_unref (run->u);
  if (run->big != NULL)
    qd_trace_unref (run->big);
  g_free (run);
  /* Compare: a second run with a coarser quantum. */
  if (run_count < 2)
    g_timeout_add (1500, start_run, NULL);
  return G_SOURCE_REMOVE;
}

static gpointer
worker_main (gpointer data)
{
  worker (data);
  g_idle_add (run_finished, data);
  return NULL;
}

static gboolean
start_run (gpointer data)
{
  Run *run = g_new0 (Run, 1);

  run_count++;
  run->quantum = run_count == 1 ? 1e-4 : 1e-2;
  run->x = qd_trace_new ("/Oscillator/x");
  run->v = qd_trace_new ("/Oscillator/v");
  run->u = qd_trace_new ("/Input/u");
  if (big_n > 0)
    {
      run->big = qd_trace_new ("/Noise/n");
      run->big_n = big_n;
    }
  qd_plot_begin_run (plot);
  qd_plot_add_trace (plot, run->x, "x", NULL);
  qd_plot_add_trace (plot, run->v, "v", NULL);
  qd_plot_add_trace (plot, run->u, "u", NULL);
  if (run->big != NULL)
    qd_plot_add_trace (plot, run->big, "noise", NULL);
  if (xy_mode)
    qd_plot_set_xy (plot, 0, 1);
  g_thread_unref (g_thread_new ("qd-demo-run", worker_main, run));
  return G_SOURCE_REMOVE;
}

static void
on_mode_changed (GtkDropDown *dropdown,
                 GParamSpec  *pspec,
                 gpointer     user_data)
{
  qd_plot_set_mode (plot, (QdPlotMode) gtk_drop_down_get_selected (dropdown));
}

static void
on_xy_toggled (GtkToggleButton *button,
               gpointer         user_data)
{
  xy_mode = gtk_toggle_button_get_active (button);
  if (xy_mode)
    qd_plot_set_xy (plot, 0, 1);
  else
    qd_plot_set_xy (plot, -1, -1);
}

static void
on_clear_runs (GtkButton *button,
               gpointer   user_data)
{
  qd_plot_clear_runs (plot);
}

static void
on_export (GtkButton *button,
           gpointer   user_data)
{
  g_autoptr(GError) error = NULL;

  if (!qd_plot_export (plot, "plot-demo.png", QD_IMAGE_FORMAT_PNG, 1200, 700, &error)
      || !qd_plot_export (plot, "plot-demo.svg", QD_IMAGE_FORMAT_SVG, 1200, 700, &error)
      || !qd_plot_export_csv (plot, "plot-demo.csv", 0.0, &error))
    g_printerr ("%s\n", error->message);
  else
    g_print ("wrote plot-demo.png, plot-demo.svg and plot-demo.csv\n");
}

static void
on_destroy (GtkWidget *widget,
            gpointer   data)
{
  *(gboolean *) data = TRUE;
}

int
main (int    argc,
      char **argv)
{
  static const char *modes[] = { "Exact", "Lines", "Steps", "Events", NULL };
  GtkWidget *box, *bar, *dropdown, *button;
  gboolean done = FALSE;
  QdPlotMode mode = QD_PLOT_MODE_EXACT;

  for (int i = 1; i < argc; i++)
    {
      if (strcmp (argv[i], "--xy") == 0)
        xy_mode = TRUE;
      else if (g_str_has_prefix (argv[i], "--big="))
        big_n = (guint) strtoul (argv[i] + 6, NULL, 10);
      else if (g_str_has_prefix (argv[i], "--mode="))
        {
          for (guint m = 0; modes[m] != NULL; m++)
            if (g_ascii_strcasecmp (argv[i] + 7, modes[m]) == 0)
              mode = (QdPlotMode) m;
        }
    }

  gtk_init ();
  qd_init ();

  window = gtk_window_new ();
  gtk_window_set_title (GTK_WINDOW (window), "QDevs plot demo");
  gtk_window_set_default_size (GTK_WINDOW (window), 1100, 640);
  g_signal_connect (window, "destroy", G_CALLBACK (on_destroy), &done);

  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  gtk_widget_set_margin_start (bar, 6);
  gtk_widget_set_margin_end (bar, 6);
  gtk_widget_set_margin_top (bar, 6);
  gtk_widget_set_margin_bottom (bar, 6);

  dropdown = gtk_drop_down_new_from_strings (modes);
  gtk_drop_down_set_selected (GTK_DROP_DOWN (dropdown), mode);
  g_signal_connect (dropdown, "notify::selected", G_CALLBACK (on_mode_changed), NULL);
  gtk_box_append (GTK_BOX (bar), dropdown);

  button = gtk_toggle_button_new_with_label ("XY (v against x)");
  gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (button), xy_mode);
  g_signal_connect (button, "toggled", G_CALLBACK (on_xy_toggled), NULL);
  gtk_box_append (GTK_BOX (bar), button);

  button = gtk_button_new_with_label ("Clear earlier runs");
  g_signal_connect (button, "clicked", G_CALLBACK (on_clear_runs), NULL);
  gtk_box_append (GTK_BOX (bar), button);

  button = gtk_button_new_with_label ("Export");
  g_signal_connect (button, "clicked", G_CALLBACK (on_export), NULL);
  gtk_box_append (GTK_BOX (bar), button);

  plot = QD_PLOT (qd_plot_new ());
  qd_plot_set_mode (plot, mode);
  gtk_widget_set_vexpand (GTK_WIDGET (plot), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (plot), TRUE);
  gtk_box_append (GTK_BOX (box), bar);
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (plot));
  gtk_window_set_child (GTK_WINDOW (window), box);
  gtk_window_present (GTK_WINDOW (window));

  start_run (NULL);

  while (!done)
    g_main_context_iteration (NULL, TRUE);
  return 0;
}

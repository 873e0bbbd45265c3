/* qd-quant-view.c: the quantization of one Integrator, as the texts draw it
 *
 * The data come from a run of a copy of the simulation with the event
 * log, kept for the Integrator alone: its outputs (the segments of q),
 * its internal transitions (the steps, with the quantum ΔQ then, read
 * from the block's description of its state), and the derivative
 * segments it received. x is the integral of those segments from x0,
 * exactly as the block computes it: a polynomial between any two
 * transitions of the block. An event on another input sets x to its
 * value (the Integrator's reset).
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qd-quant-view.h"

/* The copy runs at most this many events: a quantization view is for
 * the models of a lesson. */
#define MAX_EVENTS 2000000

typedef struct
{
  double   t;
  QdSignal seg;    /* q from t on */
  double   dq;     /* the quantum after the step at t (NaN: unknown) */
} QPiece;

typedef struct
{
  double   t;
  double   x;      /* x(t) */
  QdSignal d;      /* dx/dt from t on, origin at t */
} XPiece;

struct _QdQuantView
{
  GtkWidget   parent_instance;

  QdDebugger *debugger;   /* owned, may be NULL */
  char       *path;       /* the Integrator shown */
  char       *problem;    /* why nothing is shown, or NULL */
  GArray     *q;          /* QPiece */
  GArray     *x;          /* XPiece */
  GArray     *steps;      /* double: times of the internal transitions */
  double      t0, t1;
  double      y0, y1;
  double      last_dq;
  guint       block;
};

G_DEFINE_FINAL_TYPE (QdQuantView, qd_quant_view, GTK_TYPE_WIDGET)

/* -------------------------------------------------------------------- */
/* Collecting */

typedef struct
{
  QdQuantView  *view;
  QdSimulation *sim;
} Collect;

static double
x_at (QdQuantView *self,
      double       t)
{
  const XPiece *p = NULL;
  double s, sum = 0;

  for (guint k = self->x->len; k > 0; k--)
    if (g_array_index (self->x, XPiece, k - 1).t <= t)
      {
        p = &g_array_index (self->x, XPiece, k - 1);
        break;
      }
  if (p == NULL)
    return self->x->len > 0 ? g_array_index (self->x, XPiece, 0).x : NAN;
  s = t - p->t;
  /* ∫0^s Σ c_j u^j du = Σ c_j s^(j+1) / (j + 1), by Horner. */
  for (int j = QD_MAX_ORDER; j >= 0; j--)
    sum = sum * s + p->d.c[j] / (j + 1);
  return p->x + sum * s;
}

/* One of the state variables a block describes, by name. */
typedef struct
{
  const char *name;
  double      value;
} Named;

static void
find_named (const char *name,
            double      value,
            const char *text,
            gpointer    user_data)
{
  Named *want = user_data;

  if (g_str_equal (name, want->name))
    want->value = value;
}

static void
on_log (const QdLogEntry *entry,
        gpointer          user_data)
{
  Collect *c = user_data;
  QdQuantView *self = c->view;

  if (entry->block != self->block)
    return;
  switch (entry->kind)
    {
    case QD_LOG_OUTPUT:
      if (entry->port == 0)
        {
          QPiece p = { entry->t, *entry->segment, self->last_dq };

          g_array_append_val (self->q, p);
        }
      break;
    case QD_LOG_INTERNAL:
      g_array_append_val (self->steps, entry->t);
      /* The quantum the step chose; the state's other figures are not
       * read here, inside the event. */
      {
        Named dq = { "ΔQ", self->last_dq };

        qd_simulation_describe_block_state (c->sim, entry->block, find_named, &dq);
        self->last_dq = dq.value;
      }
      if (self->q->len > 0)
        g_array_index (self->q, QPiece, self->q->len - 1).dq = self->last_dq;
      break;
    default:
      {
        XPiece p = { entry->t, x_at (self, entry->t), { 0 } };

        if (entry->port == 0)
          p.d = *entry->segment;
        else
          {
            /* A reset: x jumps to the value; the derivative stays. */
            p.x = entry->segment->c[0];
            if (self->x->len > 0)
              p.d = g_array_index (self->x, XPiece, self->x->len - 1).d;
          }
        p.d.t = entry->t;
        g_array_append_val (self->x, p);
      }
      break;
    }
}

static void
set_problem (QdQuantView *self,
             const char  *text)
{
  g_free (self->problem);
  self->problem = g_strdup (text);
}

/* A vector Integrator, run as one block or expanded into its elements:
 * its element events interleave, and one state's quantization is not
 * among them by itself. */
static void
set_vector_problem (QdQuantView *self,
                    guint        n_states)
{
  /* TRANSLATORS: %s is a block path, %u a number of states */
  g_autofree char *text = g_strdup_printf (_("%s is a vector of %u states; the quantization view shows a scalar Integrator."),
                                           self->path, n_states);

  set_problem (self, text);
}

/* The block to show for @path: an Integrator itself, or the one that
 * drives the first input of a sink (a block without outputs: a Scope). */
static char *
resolve_path (QdDocument *document,
              const char *path)
{
  QdBlock *block = qd_document_find_block_by_path (document, path);
  const QdBlockType *type = block != NULL ? qd_block_get_type_info (block) : NULL;

  if (type != NULL && !(type->flags & QD_BLOCK_INTEGRATOR) && block->parent != NULL
      && type->outputs.count == 0 && type->outputs.size_param == NULL)
    {
      QdLink *link = qd_system_find_driver (block->parent, block->id, 0, NULL);
      QdBlock *src = link != NULL ? qd_system_find_block (block->parent, link->src.block) : NULL;

      if (src != NULL && (qd_block_get_type_info (src)->flags & QD_BLOCK_INTEGRATOR))
        return qd_block_get_path (src);
    }
  return g_strdup (path);
}

static void
collect (QdQuantView *self,
         QdDocument  *document)
{
  g_autoptr(GError) error = NULL;
  QdSimulation *sim = qd_simulation_new (document, NULL, NULL, &error);
  Collect c = { self, sim };
  int index = -1;
  guint n_elements = 0;

  if (sim == NULL)
    {
      set_problem (self, error != NULL ? error->message : _("The model does not compile."));
      return;
    }
  for (guint i = 0; i < qd_simulation_get_n_atomics (sim); i++)
    {
      const char *path = qd_simulation_get_atomic (sim, i)->path;

      if (g_strcmp0 (path, self->path) == 0)
        index = (int) i;
      else if (g_str_has_prefix (path, self->path) && path[strlen (self->path)] == '['
               && (qd_simulation_get_atomic (sim, i)->type->flags & QD_BLOCK_INTEGRATOR))
        n_elements++;   /* an element of the vector, expanded (/x[3]) */
    }
  if (index < 0 && n_elements > 0)
    {
      set_vector_problem (self, n_elements);
      qd_simulation_free (sim);
      return;
    }
  if (index < 0 || !(qd_simulation_get_atomic (sim, (guint) index)->type->flags & QD_BLOCK_INTEGRATOR))
    {
      /* TRANSLATORS: %s is a block path */
      g_autofree char *text = g_strdup_printf (_("%s is not an Integrator, nor a Scope fed by one."),
                                               self->path);

      set_problem (self, text);
      qd_simulation_free (sim);
      return;
    }
  if (qd_simulation_get_block_width (sim, (guint) index) > 1)
    {
      set_vector_problem (self, qd_simulation_get_block_width (sim, (guint) index));
      qd_simulation_free (sim);
      return;
    }
  self->block = (guint) index;
  self->t0 = qd_simulation_get_start_time (sim);
  self->t1 = qd_simulation_get_final_time (sim);
  /* x0 and the first quantum: the state the block's init set, before
   * any event. */
  {
    Named x = { "x", NAN }, dq = { "ΔQ", NAN };
    XPiece p = { self->t0, NAN, { 0 } };

    qd_simulation_describe_block_state (sim, self->block, find_named, &x);
    qd_simulation_describe_block_state (sim, self->block, find_named, &dq);
    p.x = x.value;
    self->last_dq = dq.value;

    g_array_append_val (self->x, p);
  }
  qd_simulation_set_event_log (sim, on_log, &c);
  if (qd_simulation_step (sim, MAX_EVENTS, &error) == QD_RUN_ERROR)
    set_problem (self, error->message);
  qd_simulation_free (sim);
}

static void
qd_quant_view_dispose (GObject *object)
{
  QdQuantView *self = QD_QUANT_VIEW (object);

  if (self->debugger != NULL)
    g_signal_handlers_disconnect_by_data (self->debugger, self);
  g_clear_object (&self->debugger);

  G_OBJECT_CLASS (qd_quant_view_parent_class)->dispose (object);
}

static void
qd_quant_view_finalize (GObject *object)
{
  QdQuantView *self = QD_QUANT_VIEW (object);

  g_free (self->path);
  g_free (self->problem);
  g_array_unref (self->q);
  g_array_unref (self->x);
  g_array_unref (self->steps);

  G_OBJECT_CLASS (qd_quant_view_parent_class)->finalize (object);
}

/* -------------------------------------------------------------------- */
/* Drawing */

#define MARGIN_LEFT 64.0
#define MARGIN_RIGHT 16.0
#define MARGIN_TOP 40.0
#define MARGIN_BOTTOM 36.0

typedef struct
{
  double x0, y0, w, h;   /* the plot area in widget pixels */
  double t0, t1, v0, v1;
} Frame;

static double
fx (const Frame *f,
    double       t)
{
  return f->x0 + (t - f->t0) / (f->t1 - f->t0) * f->w;
}

static double
fy (const Frame *f,
    double       v)
{
  return f->y0 + f->h - (v - f->v0) / (f->v1 - f->v0) * f->h;
}

/* The end of q piece @k: the next piece's start, or the end of the run. */
static double
piece_end (QdQuantView *self,
           guint        k)
{
  return k + 1 < self->q->len ? g_array_index (self->q, QPiece, k + 1).t : self->t1;
}

static void
compute_range (QdQuantView *self)
{
  double lo = QD_INF, hi = -QD_INF;

  for (guint k = 0; k < self->q->len; k++)
    {
      const QPiece *p = &g_array_index (self->q, QPiece, k);
      double te = piece_end (self, k);
      double dq = isnan (p->dq) ? 0 : p->dq;

      for (int i = 0; i <= 8; i++)
        {
          double t = p->t + (te - p->t) * i / 8;
          double q = qd_signal_eval (&p->seg, t);
          double x = x_at (self, t);

          lo = MIN (lo, MIN (q - dq, x));
          hi = MAX (hi, MAX (q + dq, x));
        }
    }
  if (!(hi > lo))
    {
      lo = isfinite (lo) ? lo - 1 : -1;
      hi = isfinite (hi) ? hi + 1 : 1;
    }
  self->y0 = lo - 0.05 * (hi - lo);
  self->y1 = hi + 0.05 * (hi - lo);
}

/* A step of 1, 2 or 5 times a power of ten giving about @n ticks. */
static double
nice_step (double span,
           int    n)
{
  double raw = span / n, p = pow (10, floor (log10 (raw))), m = raw / p;

  return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

static void
draw_axes (cairo_t     *cr,
           const Frame *f,
           GdkRGBA     *fg)
{
  double step;
  char text[32];

  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, 0.8);
  cairo_set_line_width (cr, 1);
  cairo_rectangle (cr, f->x0 + 0.5, f->y0 + 0.5, f->w, f->h);
  cairo_stroke (cr);
  cairo_set_font_size (cr, 11);
  step = nice_step (f->t1 - f->t0, 8);
  for (double t = ceil (f->t0 / step) * step; t <= f->t1 + step * 1e-9; t += step)
    {
      cairo_text_extents_t ext;

      g_snprintf (text, sizeof text, "%g", fabs (t) < step * 1e-9 ? 0 : t);
      cairo_text_extents (cr, text, &ext);
      cairo_move_to (cr, fx (f, t) - ext.width / 2, f->y0 + f->h + 16);
      cairo_show_text (cr, text);
      cairo_move_to (cr, fx (f, t), f->y0 + f->h);
      cairo_rel_line_to (cr, 0, 4);
      cairo_stroke (cr);
    }
  step = nice_step (f->v1 - f->v0, 6);
  for (double v = ceil (f->v0 / step) * step; v <= f->v1; v += step)
    {
      cairo_text_extents_t ext;

      g_snprintf (text, sizeof text, "%g", fabs (v) < step * 1e-9 ? 0 : v);
      cairo_text_extents (cr, text, &ext);
      cairo_move_to (cr, f->x0 - ext.width - 8, fy (f, v) + ext.height / 2);
      cairo_show_text (cr, text);
      cairo_move_to (cr, f->x0 - 4, fy (f, v));
      cairo_rel_line_to (cr, 4, 0);
      cairo_stroke (cr);
    }
  cairo_move_to (cr, f->x0 + f->w - 8, f->y0 + f->h + 30);
  cairo_show_text (cr, "t");
}

static void
draw_band_and_q (QdQuantView *self,
                 cairo_t     *cr,
                 const Frame *f)
{
  for (guint k = 0; k < self->q->len; k++)
    {
      const QPiece *p = &g_array_index (self->q, QPiece, k);
      double te = piece_end (self, k);
      double dq = isnan (p->dq) ? 0 : p->dq;
      const int n = p->seg.order > 0 ? 24 : 1;

      if (te <= p->t)
        continue;
      /* The band q ± ΔQ: x leaving it is the next step. */
      cairo_move_to (cr, fx (f, p->t), fy (f, qd_signal_eval (&p->seg, p->t) + dq));
      for (int i = 1; i <= n; i++)
        {
          double t = p->t + (te - p->t) * i / n;

          cairo_line_to (cr, fx (f, t), fy (f, qd_signal_eval (&p->seg, t) + dq));
        }
      for (int i = n; i >= 0; i--)
        {
          double t = p->t + (te - p->t) * i / n;

          cairo_line_to (cr, fx (f, t), fy (f, qd_signal_eval (&p->seg, t) - dq));
        }
      cairo_close_path (cr);
      cairo_set_source_rgba (cr, 0.96, 0.55, 0.05, 0.15);
      cairo_fill (cr);
    }
  /* q, with its jumps drawn as the vertical steps of the staircase. */
  cairo_set_source_rgb (cr, 0.90, 0.45, 0.0);
  cairo_set_line_width (cr, 2);
  for (guint k = 0; k < self->q->len; k++)
    {
      const QPiece *p = &g_array_index (self->q, QPiece, k);
      double te = piece_end (self, k);
      const int n = p->seg.order > 0 ? 24 : 1;

      if (k == 0)
        cairo_move_to (cr, fx (f, p->t), fy (f, qd_signal_eval (&p->seg, p->t)));
      else
        cairo_line_to (cr, fx (f, p->t), fy (f, qd_signal_eval (&p->seg, p->t)));
      for (int i = 1; i <= n; i++)
        {
          double t = p->t + (te - p->t) * i / n;

          cairo_line_to (cr, fx (f, t), fy (f, qd_signal_eval (&p->seg, t)));
        }
    }
  cairo_stroke (cr);
}

static void
draw_x_and_steps (QdQuantView *self,
                  cairo_t     *cr,
                  const Frame *f)
{
  const int n = 400;

  /* x, sampled finely enough for a curve: it is exact at each sample. */
  cairo_set_source_rgb (cr, 0.15, 0.40, 0.90);
  cairo_set_line_width (cr, 1.5);
  for (int i = 0; i <= n; i++)
    {
      double t = f->t0 + (f->t1 - f->t0) * i / n;

      if (i == 0)
        cairo_move_to (cr, fx (f, t), fy (f, x_at (self, t)));
      else
        cairo_line_to (cr, fx (f, t), fy (f, x_at (self, t)));
    }
  cairo_stroke (cr);
  /* Each step: a dot on the new q, and the side q took of x (LIQSS puts
   * it ahead of x; QSS on x). */
  for (guint k = 0; k < self->q->len; k++)
    {
      const QPiece *p = &g_array_index (self->q, QPiece, k);
      double q = qd_signal_eval (&p->seg, p->t);
      double x = x_at (self, p->t);
      double dq = isnan (p->dq) ? 0 : p->dq;

      cairo_set_source_rgb (cr, 0.90, 0.45, 0.0);
      cairo_arc (cr, fx (f, p->t), fy (f, q), 3.5, 0, 2 * G_PI);
      cairo_fill (cr);
      if (dq > 0 && fabs (q - x) > dq * 1e-6)
        {
          double y = fy (f, q), dir = q > x ? -1 : 1;

          cairo_move_to (cr, fx (f, p->t), y + dir * 5);
          cairo_rel_line_to (cr, -4, dir * 6);
          cairo_rel_line_to (cr, 8, 0);
          cairo_close_path (cr);
          cairo_fill (cr);
        }
      cairo_move_to (cr, fx (f, p->t), f->y0 + f->h);
      cairo_rel_line_to (cr, 0, -6);
      cairo_set_line_width (cr, 1);
      cairo_stroke (cr);
    }
}

static void
draw_legend (QdQuantView *self,
             cairo_t     *cr,
             const Frame *f,
             GdkRGBA     *fg)
{
  g_autofree char *title = NULL;
  const struct { double r, g, b, a; const char *text; } items[] = {
    { 0.15, 0.40, 0.90, 1.0, N_("x(t) exact") },
    { 0.90, 0.45, 0.00, 1.0, N_("q(t) sent") },
    { 0.96, 0.55, 0.05, 0.3, N_("q ± ΔQ") },
  };
  double x = f->x0;

  /* TRANSLATORS: %s is an Integrator's path, %u its number of steps */
  title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s: %u step", "%s: %u steps",
                                        self->steps->len),
                           self->path, self->steps->len);
  cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, fg->alpha);
  cairo_set_font_size (cr, 13);
  cairo_move_to (cr, f->x0, 18);
  cairo_show_text (cr, title);
  cairo_set_font_size (cr, 11);
  x = f->x0;
  for (guint k = 0; k < G_N_ELEMENTS (items); k++)
    {
      cairo_text_extents_t ext;

      cairo_set_source_rgba (cr, items[k].r, items[k].g, items[k].b, items[k].a);
      cairo_rectangle (cr, x, 26, 14, 6);
      cairo_fill (cr);
      cairo_set_source_rgba (cr, fg->red, fg->green, fg->blue, fg->alpha);
      cairo_move_to (cr, x + 18, 33);
      cairo_show_text (cr, _(items[k].text));
      cairo_text_extents (cr, _(items[k].text), &ext);
      x += 18 + ext.x_advance + 16;
    }
}

static void
qd_quant_view_snapshot (GtkWidget   *widget,
                        GtkSnapshot *snapshot)
{
  QdQuantView *self = QD_QUANT_VIEW (widget);
  double width = gtk_widget_get_width (widget);
  double height = gtk_widget_get_height (widget);
  Frame f = { MARGIN_LEFT, MARGIN_TOP, width - MARGIN_LEFT - MARGIN_RIGHT,
              height - MARGIN_TOP - MARGIN_BOTTOM, self->t0, self->t1, self->y0, self->y1 };
  GdkRGBA fg;
  cairo_t *cr;

  if (f.w < 20 || f.h < 20)
    return;
  /* gtk_widget_get_color() is 4.10. */
  G_GNUC_BEGIN_IGNORE_DEPRECATIONS
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &fg);
  G_GNUC_END_IGNORE_DEPRECATIONS
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  if (self->problem != NULL || self->q->len == 0 || !(self->t1 > self->t0))
    {
      cairo_set_source_rgba (cr, fg.red, fg.green, fg.blue, fg.alpha);
      cairo_set_font_size (cr, 13);
      cairo_move_to (cr, 16, 24);
      cairo_show_text (cr, self->problem != NULL ? self->problem : _("The Integrator sent nothing."));
      cairo_destroy (cr);
      return;
    }
  draw_axes (cr, &f, &fg);
  cairo_save (cr);
  cairo_rectangle (cr, f.x0, f.y0, f.w, f.h);
  cairo_clip (cr);
  draw_band_and_q (self, cr, &f);
  draw_x_and_steps (self, cr, &f);
  if (self->debugger != NULL && isfinite (qd_debugger_get_time (self->debugger)))
    {
      /* The debugger's position. */
      double t = qd_debugger_get_time (self->debugger);

      cairo_set_source_rgba (cr, 0.4, 0.4, 0.4, 0.9);
      cairo_set_line_width (cr, 1.5);
      cairo_set_dash (cr, (double[]) { 4, 3 }, 2, 0);
      cairo_move_to (cr, fx (&f, t), f.y0);
      cairo_line_to (cr, fx (&f, t), f.y0 + f.h);
      cairo_stroke (cr);
    }
  cairo_restore (cr);
  draw_legend (self, cr, &f, &fg);
  cairo_destroy (cr);
}

static void
qd_quant_view_class_init (QdQuantViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = qd_quant_view_dispose;
  object_class->finalize = qd_quant_view_finalize;
  widget_class->snapshot = qd_quant_view_snapshot;
  gtk_widget_class_set_css_name (widget_class, "qd-quant-view");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
qd_quant_view_init (QdQuantView *self)
{
  self->q = g_array_new (FALSE, FALSE, sizeof (QPiece));
  self->x = g_array_new (FALSE, FALSE, sizeof (XPiece));
  self->steps = g_array_new (FALSE, FALSE, sizeof (double));
  self->last_dq = NAN;
  gtk_widget_set_size_request (GTK_WIDGET (self), 360, 220);
}

GtkWidget *
qd_quant_view_new (QdDocument *document,
                   const char *path,
                   QdDebugger *debugger)
{
  QdQuantView *self;

  g_return_val_if_fail (QD_IS_DOCUMENT (document), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  self = g_object_new (QD_TYPE_QUANT_VIEW, NULL);
  self->path = resolve_path (document, path);
  collect (self, document);
  compute_range (self);
  if (debugger != NULL)
    {
      self->debugger = g_object_ref (debugger);
      g_signal_connect_swapped (debugger, "changed", G_CALLBACK (gtk_widget_queue_draw), self);
    }
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Quantization view"), -1);
  return GTK_WIDGET (self);
}

void
qd_quant_view_present (QdDebugger *debugger,
                       const char *path,
                       GtkWindow  *parent)
{
  QdDocument *doc;
  GtkWidget *window, *view;
  g_autofree char *title = NULL;

  g_return_if_fail (QD_IS_DEBUGGER (debugger));

  doc = qd_run_session_get_document (qd_debugger_get_session (debugger));
  if (doc == NULL || path == NULL)
    return;
  view = qd_quant_view_new (doc, path, debugger);
  window = gtk_window_new ();
  /* TRANSLATORS: a window title; %s is an Integrator's path */
  title = g_strdup_printf (_("Quantization of %s"), QD_QUANT_VIEW (view)->path);
  gtk_window_set_title (GTK_WINDOW (window), title);
  gtk_window_set_default_size (GTK_WINDOW (window), 720, 420);
  if (parent != NULL)
    gtk_window_set_transient_for (GTK_WINDOW (window), parent);
  gtk_window_set_destroy_with_parent (GTK_WINDOW (window), TRUE);
  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_present (GTK_WINDOW (window));
}

guint
qd_quant_view_get_n_steps (QdQuantView *self)
{
  g_return_val_if_fail (QD_IS_QUANT_VIEW (self), 0);

  return self->problem != NULL ? 0 : self->steps->len;
}

const char *
qd_quant_view_get_problem (QdQuantView *self)
{
  g_return_val_if_fail (QD_IS_QUANT_VIEW (self), NULL);

  return self->problem;
}

double
qd_quant_view_get_step_time (QdQuantView *self,
                             guint        k)
{
  g_return_val_if_fail (QD_IS_QUANT_VIEW (self), NAN);
  g_return_val_if_fail (k < self->steps->len, NAN);

  return g_array_index (self->steps, double, k);
}

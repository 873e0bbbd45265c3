/* qd-reference-lcline-liqss2-solver.c: the LC line under LIQSS2, written
 * for that model alone
 *
 * The LIQSS2 counterpart of qd-reference-lcline-solver.c (read that
 * file's description first): the same model, order of events, start,
 * pulse and heap, and the engine's LIQSS2 (blocks/qd-integrator-stiff.c)
 * written out for it, operation for operation, so that it takes the
 * engine's steps to the engine's states. What it leaves out is the block
 * diagram: no blocks, signals, method tables or function pointers.
 *
 * The state. Slot i (1..N) of one array of 192-byte records (three lines:
 * LIQSS2 keeps its self-dependence a, the affine term u and its value at
 * the next requantization besides x and q) is state i:
 *   x(tl + s) = x0 + x1 s + x2 s²,  q(tl + s) = q0 + q1 s,
 *   dx/dt ≈ a q + u(s), u(tu + s) = u0 + u1 s, u_next = u at tl + sigma,
 *   y(ty + s) = y0 + y1 s           q as emitted, which the neighbours read;
 * and, as the engine's Integrator, the q and dx/dt just before its last
 * output (q_old, dx_old), that output's time and whether a derivative
 * answering it at that instant is still awaited. The estimate of a
 * comes from such an answer; on the LC line a state's derivative does
 * not depend on its own q, so a stays 0 but for the rare instants where
 * a neighbour fires at the same time.
 *
 * The crossings are the engine's root finders (qd-poly.h), as in the QSS3
 * solver: the arithmetic the method needs, not what this program measures
 * the engine against.
 */
#include <math.h>
#include <string.h>

#include "qd-poly.h"
#include "qd-reference-heap.h"
#include "qd-reference-line.h"
#include "qd-reference-lcline-liqss2-solver.h"

typedef struct
{
  double   x0, x1, x2;
  double   q0, q1;
  double   tl, dq;
  double   a, u0, u1, tu, un0, un1;
  double   t_out, q_old, dx_old;
  double   y0, y1, ty;
  int      y_order;    /* 0 until the first emission, then 1; the pulse's 0 */
  gboolean awaiting;   /* the next derivative at t_out answers the output */
  gboolean initial;    /* the initial q is still to be emitted */
} __attribute__ ((aligned (64))) State;

G_STATIC_ASSERT (sizeof (State) == 192);

struct _QdRefLclineLiqss2
{
  guint     n;
  State    *st;       /* n + 2 slots */
  QdRefHeap heap;
  double   *x_init;   /* the initial states, for each reset */
  gboolean  fallen;   /* the pulse's fall at t = 1 is done */
};

/* u_next: u moved to @s after tu (the engine's shift() of order 1). */
static inline void
u_next_at (State  *s,
           double  at)
{
  double e = at - s->tu;

  s->un0 = s->u0;
  s->un1 = s->u1;
  if (e != 0.0)
    s->un0 += e * s->un1;
}

/* No derivative answered the last output at its instant and time has
 * moved on to @t: a = 0 and u is the derivative itself (the engine's
 * settle_unanswered() and liqss_unanswered()). */
static inline void
settle_unanswered (State  *s,
                   double  t)
{
  if (!(s->awaiting && t > s->t_out))
    return;
  if (s->q0 != s->q_old)
    {
      s->a = 0.0;
      s->u0 = 1.0 * s->x1;
      s->u1 = 2.0 * s->x2;
      s->tu = s->tl;
      u_next_at (s, t);
    }
  s->awaiting = FALSE;
}

/* x - q's next root or crossing of the band of 2 dQ, and u at that time
 * (the engine's liqss_reschedule() for n = 2). */
static inline double
reschedule (State *s)
{
  double d[3] = { s->x0 - s->q0, s->x1 - s->q1, s->x2 };
  double band = 2.0 * s->dq, root, cross, sigma;

  if (d[2] != 0.0 && isfinite (d[0] + d[1] + d[2]))
    root = qd_poly_first_root_quadratic (d[0], d[1], d[2]);
  else
    root = qd_poly_first_root (d, 2);
  cross = -1.0;
  if (fabs (d[0]) < band && d[2] != 0.0 && band >= 0.0)
    cross = qd_poly_crossing_quadratic (d[0], d[1], d[2], band);
  if (!(cross > 0.0 && cross < INFINITY))
    cross = qd_poly_first_crossing (d, 2, band);
  sigma = root < cross ? root : cross;
  if (sigma < INFINITY)
    u_next_at (s, s->tl + sigma);
  return sigma;
}

/* a q1 + u1 with q1 = a q0 + u0, u at the requantization: x's second
 * derivative once the loop has answered q0 (the engine's
 * nth_derivative() for n = 2). */
static inline double
second_derivative (const State *s,
                   double       q0)
{
  return s->a * (s->a * q0 + s->un0) + s->un1;
}

/* The requantization of @s at @t (the engine's integrator_dint() with
 * liqss_requantize()); returns the time to the next one. */
static inline double
requantize (State  *s,
            double  t)
{
  double e = t - s->tl, x0, dq, target;

  settle_unanswered (s, t);
  if (e != 0.0)
    {
      s->x1 += e * s->x2;
      s->x0 += e * s->x1;
      s->x1 += e * s->x2;
      s->q0 += e * s->q1;
    }
  s->tl = t;
  s->q_old = s->q0;
  s->dx_old = s->x1;
  s->t_out = t;
  s->awaiting = TRUE;
  x0 = s->x0;
  s->dq = dq = qd_ref_quantum (x0);
  if (s->initial)
    {
      s->q0 = x0;
      s->q1 = s->x1;
    }
  else
    {
      gboolean up = second_derivative (s, x0 + dq) > 0.0;
      gboolean down = second_derivative (s, x0 - dq) < 0.0;

      if (up && !down)
        target = x0 + dq;
      else if (down && !up)
        target = x0 - dq;
      else
        {
          double slope = pow (s->a, 2) / 1.0;
          double qhat = slope != 0.0 ? x0 - second_derivative (s, x0) / slope : x0;

          target = isfinite (qhat) ? CLAMP (qhat, x0 - dq, x0 + dq) : x0;
        }
      s->q0 = target;
      s->q1 = s->a * target + s->un0;
    }
  s->initial = FALSE;
  s->y0 = s->q0;
  s->y1 = s->q1;
  s->ty = t;
  s->y_order = 1;
  return reschedule (s);
}

/* One input of a WSum, as the engine's WSum adds a segment of its order. */
static inline void
add_input (const State *u,
           double       w,
           double       t,
           double      *c0,
           double      *c1)
{
  if (u->y_order == 0)
    *c0 += w * u->y0;
  else
    {
      *c0 += w * (u->y0 + (t - u->ty) * u->y1);
      *c1 += w * u->y1;
    }
}

/* State @s's new derivative at @t from its neighbours' emitted segments
 * (the engine's LIQSS2 dext: other_dext_ta() and liqss_derivative(), the
 * segment taken @us = 0 after its time), then its time advance. */
static inline double
derivative (State    *s,
            double    t,
            gboolean  last)
{
  const double us = 0.0, c2 = 0.0, c3 = 0.0;
  double e = t - s->tl, x0 = s->x0, x1 = s->x1, x2 = s->x2, q0 = s->q0;
  double c0 = 0.0, c1 = 0.0, v0, v1;

  settle_unanswered (s, t);
  if (e != 0.0)
    {
      x1 += e * x2;
      x0 += e * x1;
      q0 += e * s->q1;
    }
  s->x0 = x0;
  s->q0 = q0;
  s->tl = t;
  add_input (s - 1, 1.0, t, &c0, &c1);
  if (!last)
    add_input (s + 1, -1.0, t, &c0, &c1);
  s->x1 = c0 + us * (c1 + us * (c2 + us * c3));
  s->x2 = (c1 + us * (2.0 * c2 + 3.0 * us * c3)) * 0.5;

  v0 = s->x1;
  v1 = 2.0 * s->x2;
  if (s->awaiting && t == s->t_out)
    {
      double dq = s->q0 - s->q_old;

      if (dq != 0.0)
        s->a = (v0 - s->dx_old) / dq;
    }
  s->awaiting = FALSE;
  s->u0 = v0 - s->a * s->q0;
  s->u1 = v1 - s->a * s->q1;
  s->tu = t;
  return s->initial ? 0.0 : reschedule (s);
}

/* The events before @limit. */
static guint64
run_before (QdRefLclineLiqss2 *self,
            double             limit)
{
  QdRefEntry *h = self->heap.entries;
  State *st = self->st;
  guint n = self->n;
  guint64 limit_key = qd_ref_key_of (limit), steps = 0;

  while (h[0].key < limit_key)
    {
      guint i = (guint) h[0].id;
      double t = qd_ref_time_of (h[0].key);
      State *s = &st[i];

      qd_ref_heap_replace_top (&self->heap,
                               (QdRefEntry) { i, qd_ref_key_of (t + requantize (s, t)) });
      if (i > 1)
        qd_ref_heap_update (&self->heap, i - 1, t + derivative (s - 1, t, FALSE));
      if (i < n)
        qd_ref_heap_update (&self->heap, i + 1, t + derivative (s + 1, t, i + 1 == n));
      steps++;
    }
  return steps;
}

guint64
qd_ref_lcline_liqss2_start (QdRefLclineLiqss2 *self)
{
  State *st = self->st;
  QdRefEntry *h = self->heap.entries;
  guint n = self->n;
  guint64 steps = 0;

  self->fallen = FALSE;
  /* t = 0, as the QSS2 solver's start. */
  st[0].y0 = 1.0;
  st[0].ty = 0.0;
  derivative (&st[1], 0.0, n == 1);
  for (guint i = 1; i <= n; i++)
    {
      h[i - 1].id = i;
      h[i - 1].key = qd_ref_key_of (0.0 + requantize (&st[i], 0.0));
      if (i > 1)
        h[i - 2].key = qd_ref_key_of (0.0 + derivative (&st[i - 1], 0.0, FALSE));
      if (i < n)
        derivative (&st[i + 1], 0.0, i + 1 == n);
      steps++;
    }
  qd_ref_heap_build (&self->heap);
  return steps;
}

guint64
qd_ref_lcline_liqss2_advance (QdRefLclineLiqss2 *self,
                              double             until)
{
  State *st = self->st;
  guint64 steps = 0;

  if (!self->fallen)
    {
      steps += run_before (self, MIN (until, 1.0));
      if (!(until > 1.0))
        return steps;
      /* The fall: the pulse comes before any state due at 1. */
      st[0].y0 = 0.0;
      st[0].ty = 1.0;
      qd_ref_heap_update (&self->heap, 1, 1.0 + derivative (&st[1], 1.0, self->n == 1));
      self->fallen = TRUE;
    }
  return steps + run_before (self, until);
}

void
qd_ref_lcline_liqss2_reset (QdRefLclineLiqss2 *self)
{
  /* As the QSS3 solver's reset; every state starts waiting for its
   * initial emission. */
  memset (self->st, 0, (self->n + 2) * sizeof (State));
  for (guint i = 1; i <= self->n; i++)
    {
      self->st[i].x0 = self->st[i].q0 = self->x_init[i - 1];
      self->st[i].dq = qd_ref_quantum (self->x_init[i - 1]);
      self->st[i].initial = TRUE;
    }
}

QdRefLclineLiqss2 *
qd_ref_lcline_liqss2_new (guint    n,
                          gboolean random_start)
{
  QdRefLclineLiqss2 *self;

  g_return_val_if_fail (n >= 1 && n < G_MAXUINT32 - 8, NULL);
  self = g_new0 (QdRefLclineLiqss2, 1);
  self->n = n;
  self->st = g_aligned_alloc0 (n + 2, sizeof (State), 64);
  qd_ref_heap_init (&self->heap, n);
  self->x_init = qd_ref_initial_states (n, random_start);
  qd_ref_lcline_liqss2_reset (self);
  return self;
}

void
qd_ref_lcline_liqss2_free (QdRefLclineLiqss2 *self)
{
  if (self == NULL)
    return;
  g_aligned_free (self->st);
  qd_ref_heap_clear (&self->heap);
  g_free (self->x_init);
  g_free (self);
}

double
qd_ref_lcline_liqss2_state_at (const QdRefLclineLiqss2 *self,
                               guint                    i,
                               double                   t)
{
  const State *s;
  double e;

  g_return_val_if_fail (i < self->n, NAN);
  s = &self->st[i + 1];
  e = t - s->tl;
  return s->x0 + e * (s->x1 + e * s->x2);
}

gsize
qd_ref_lcline_liqss2_bytes_per_state (void)
{
  return sizeof (State) + sizeof (QdRefEntry) + sizeof (guint32);
}

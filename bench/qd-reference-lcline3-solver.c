/* qd-reference-lcline3-solver.c: the LC line under QSS3, written for that
 * model alone
 *
 * The QSS3 counterpart of qd-reference-lcline-solver.c (read that file's
 * description first): the same model, the same order of events, the same
 * start and pulse, the same heap (qd-reference-heap.h), the arithmetic of
 * the engine's WSum + Integrator pairs under QSS3, and nothing more. So
 * it takes the engine's steps to the engine's states, and its time per
 * step is what QSS3 costs on this model without a block diagram around
 * it.
 *
 * The state. Slot i (1..N) of one array of 128-byte records is state i:
 *   x(tl + s) = x0 + x1 s + x2 s² + x3 s³   the state;
 *   q(tl + s) = q0 + q1 s + q2 s²           its own copy of q, shifted
 *                                           along with x;
 *   y(ty + s) = y0 + y1 s + y2 s²           q as it was emitted at ty,
 *                                           which the neighbours read.
 * A record is two lines: QSS3 keeps 12 numbers per state. The order of
 * the emitted segment is kept too: until a state first emits, its segment
 * is the engine's zero segment of order 0, and the pulse's is of order 0
 * always; a WSum adds a segment of order 0 by its value alone, which
 * differs from adding zeros of a higher order in the sign of a zero.
 *
 * The crossings after an input are the engine's cubic root finder
 * (qd_poly_crossing_cubic(), with qd_poly_first_crossing() where it gives
 * up): the arithmetic any QSS3 solver needs, robust as the issue asks,
 * and not what this program measures the engine against. After a
 * requantization x - q = x3 s³, and the crossing is ∛(dQ / |x3|).
 */
#include <math.h>
#include <string.h>

#include "qd-poly.h"
#include "qd-reference-heap.h"
#include "qd-reference-line.h"
#include "qd-reference-lcline3-solver.h"

typedef struct
{
  double x0, x1, x2, x3;
  double q0, q1, q2;
  double tl;
  double y0, y1, y2, ty;
  int    y_order;   /* 0 until the first emission, then 2; the pulse's 0 */
} __attribute__ ((aligned (64))) State;

G_STATIC_ASSERT (sizeof (State) == 128);

struct _QdRefLcline3
{
  guint     n;
  State    *st;       /* n + 2 slots */
  QdRefHeap heap;
  double   *x_init;   /* the initial states, for each reset */
  guint64   fallbacks;
  gboolean  fallen;   /* the pulse's fall at t = 1 is done */
};

/* x moved on by @e along its cubic, as the engine's shift() for n = 3
 * does it, in the same order of operations. */
static inline void
shift_x (double  e,
         double *x0,
         double *x1,
         double *x2,
         double  x3)
{
  *x2 += e * x3;
  *x1 += e * *x2;
  *x0 += e * *x1;
  *x2 += e * x3;
  *x1 += e * *x2;
  *x2 += e * x3;
}

/* One input of a WSum added with weight @w (1 or -1), as the engine's
 * WSum adds a segment of its order: its value and first two derivatives
 * at @t, divided down as a Taylor series is. */
static inline void
add_input (const State *u,
           double       w,
           double       t,
           double      *c0,
           double      *c1,
           double      *c2)
{
  double s = t - u->ty;

  if (u->y_order == 0)
    *c0 += w * u->y0;
  else
    {
      *c0 += w * (u->y0 + s * (u->y1 + s * u->y2));
      *c1 += w * (u->y1 + s * (2.0 * u->y2));
      *c2 += w * u->y2;
    }
}

/* State @s's new derivative at @t from its neighbours' emitted segments,
 * ẋ = y(left) - y(right) (the last state has no right neighbour; its WSum
 * has one input): x and q moved to t along their old polynomials (the
 * engine's shift, skipped for e = 0), then x's slope, curvature and third
 * coefficient from the sum's Taylor coefficients, as the engine's QSS3
 * derivative computes them from a segment taken @us = 0 after its time. */
static inline void
new_derivative (State  *s,
                double  t,
                gboolean last)
{
  const double us = 0.0, c3 = 0.0;
  double e = t - s->tl;
  double x0 = s->x0, x1 = s->x1, x2 = s->x2, x3 = s->x3;
  double q0 = s->q0, q1 = s->q1, q2 = s->q2;
  double c0 = 0.0, c1 = 0.0, c2 = 0.0;

  if (e != 0.0)
    {
      shift_x (e, &x0, &x1, &x2, x3);
      q1 += e * q2;
      q0 += e * q1;
      q1 += e * q2;
    }
  add_input (s - 1, 1.0, t, &c0, &c1, &c2);
  if (!last)
    add_input (s + 1, -1.0, t, &c0, &c1, &c2);
  s->x0 = x0;
  s->x1 = c0 + us * (c1 + us * (c2 + us * c3));
  s->x2 = (c1 + us * (2.0 * c2 + 3.0 * us * c3)) * 0.5;
  s->x3 = (c2 + 3.0 * us * c3) / 3.0;
  s->q0 = q0;
  s->q1 = q1;
  s->tl = t;
}

/* new_derivative(), then the time to the next crossing of |x - q| = dQ:
 * the cubic search when x - q is strictly inside the band and x has a
 * third coefficient, otherwise (or when that search gives up) the
 * general one, as the engine's QSS3 does. */
static inline double
derivative (QdRefLcline3 *self,
            State        *s,
            double        t,
            gboolean      last)
{
  double dq = qd_ref_quantum (s->y0), a0, r;

  new_derivative (s, t, last);
  a0 = s->x0 - s->q0;
  r = -1.0;
  if (fabs (a0) < dq && s->x3 != 0.0)
    r = qd_poly_crossing_cubic (a0, s->x1 - s->q1, s->x2 - s->q2, s->x3, dq);
  if (!(r > 0.0 && r < INFINITY))
    {
      double d[4] = { a0, s->x1 - s->q1, s->x2 - s->q2, s->x3 };

      self->fallbacks++;
      r = qd_poly_first_crossing (d, 3, dq);
    }
  return r;
}

/* The requantization of @s at @t: x moved to t, q takes its value and
 * first two derivatives, and is emitted; returns the time to the next
 * one, ∛(dQ / |x3|) (+inf for x3 = 0). */
static inline double
requantize (State  *s,
            double  t)
{
  double e = t - s->tl;
  double x0 = s->x0, x1 = s->x1, x2 = s->x2, x3 = s->x3;
  double c = fabs (x3), dq;

  if (e != 0.0)
    shift_x (e, &x0, &x1, &x2, x3);
  dq = qd_ref_quantum (x0);
  s->x0 = s->q0 = s->y0 = x0;
  s->x1 = s->q1 = s->y1 = x1;
  s->x2 = s->q2 = s->y2 = x2;
  s->y_order = 2;
  s->tl = s->ty = t;
  return c == 0.0 ? INFINITY : cbrt (dq / c);
}

/* The events before @limit. */
static guint64
run_before (QdRefLcline3 *self,
            double        limit)
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
      {
        /* As in the QSS2 solver: the next state's records and its
         * neighbours' while the updates compute (two lines each). */
        const State *next = &st[h[0].id];

        __builtin_prefetch (next - 1);
        __builtin_prefetch (next);
        __builtin_prefetch (next + 1);
        __builtin_prefetch ((const char *) (next - 1) + 64);
        __builtin_prefetch ((const char *) next + 64);
        __builtin_prefetch ((const char *) (next + 1) + 64);
      }
      if (i > 1)
        qd_ref_heap_update (&self->heap, i - 1, t + derivative (self, s - 1, t, FALSE));
      if (i < n)
        qd_ref_heap_update (&self->heap, i + 1, t + derivative (self, s + 1, t, i + 1 == n));
      steps++;
    }
  return steps;
}

guint64
qd_ref_lcline3_start (QdRefLcline3 *self)
{
  State *st = self->st;
  QdRefEntry *h = self->heap.entries;
  guint n = self->n;
  guint64 steps = 0;

  self->fallbacks = 0;
  self->fallen = FALSE;
  /* t = 0, as the QSS2 solver's start: the pulse rises, then each state
   * emits its initial q in order. */
  st[0].y0 = 1.0;
  st[0].ty = 0.0;
  new_derivative (&st[1], 0.0, n == 1);
  for (guint i = 1; i <= n; i++)
    {
      h[i - 1].id = i;
      h[i - 1].key = qd_ref_key_of (0.0 + requantize (&st[i], 0.0));
      if (i > 1)
        h[i - 2].key = qd_ref_key_of (0.0 + derivative (self, &st[i - 1], 0.0, FALSE));
      if (i < n)
        new_derivative (&st[i + 1], 0.0, i + 1 == n);
      steps++;
    }
  qd_ref_heap_build (&self->heap);
  return steps;
}

guint64
qd_ref_lcline3_advance (QdRefLcline3 *self,
                        double        until)
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
      qd_ref_heap_update (&self->heap, 1,
                          1.0 + derivative (self, &st[1], 1.0, self->n == 1));
      self->fallen = TRUE;
    }
  return steps + run_before (self, until);
}

void
qd_ref_lcline3_reset (QdRefLcline3 *self)
{
  /* Slot 0 (the pulse, before its rise) and slot n + 1 read as 0, and so
   * does every state's emitted segment until its first requantization:
   * the engine's signals start as zeros of order 0. */
  memset (self->st, 0, (self->n + 2) * sizeof (State));
  for (guint i = 1; i <= self->n; i++)
    self->st[i].x0 = self->st[i].q0 = self->x_init[i - 1];
}

QdRefLcline3 *
qd_ref_lcline3_new (guint    n,
                    gboolean random_start)
{
  QdRefLcline3 *self;

  g_return_val_if_fail (n >= 1 && n < G_MAXUINT32 - 8, NULL);
  self = g_new0 (QdRefLcline3, 1);
  self->n = n;
  self->st = g_aligned_alloc0 (n + 2, sizeof (State), 64);
  qd_ref_heap_init (&self->heap, n);
  self->x_init = qd_ref_initial_states (n, random_start);
  qd_ref_lcline3_reset (self);
  return self;
}

void
qd_ref_lcline3_free (QdRefLcline3 *self)
{
  if (self == NULL)
    return;
  g_aligned_free (self->st);
  qd_ref_heap_clear (&self->heap);
  g_free (self->x_init);
  g_free (self);
}

double
qd_ref_lcline3_state_at (const QdRefLcline3 *self,
                         guint               i,
                         double              t)
{
  const State *s;
  double e;

  g_return_val_if_fail (i < self->n, NAN);
  s = &self->st[i + 1];
  e = t - s->tl;
  return s->x0 + e * (s->x1 + e * (s->x2 + e * s->x3));
}

guint64
qd_ref_lcline3_fallbacks (const QdRefLcline3 *self)
{
  return self->fallbacks;
}

gsize
qd_ref_lcline3_bytes_per_state (void)
{
  return sizeof (State) + sizeof (QdRefEntry) + sizeof (guint32);
}

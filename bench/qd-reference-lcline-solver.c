/* qd-reference-lcline-solver.c: the LC line under QSS2, written for that
 * model alone
 *
 * What a tight, specialised program achieves on the model of `qdevs-cli
 * bench --model lcline[-random] --method QSS2`, so that the engine's
 * nanoseconds per integrator step have a floor to be read against. It
 * does the same arithmetic as the engine's WSum + Integrator pairs, in the
 * same order of simultaneous events, so that both take the same steps to
 * the same states (tests/test-reference.c holds them to it), and nothing
 * more: no blocks, no signals, no function pointers, no allocation once
 * made.
 *
 * The state. Slot i (1..N) of one array of 64-byte records is state i:
 *   x(tl + s) = x0 + x1 s + x2 s²       the state, as the Integrator keeps it;
 *   q(tl + s) = q0 + q1 s               its own copy of q, shifted along with x
 *                                       (the engine's Integrator q[]);
 *   y(ty + s) = y0 + q1 s               q as it was emitted at ty, which is
 *                                       what the neighbours' WSums read.
 * Both copies of q are kept because the engine computes them with
 * different roundings (a chain of shifts against one product), and the
 * crossing times depend on the last bits. The quantum is not stored: it
 * is max(dqrel |y0|, dqmin), y0 being x's value at the requantization,
 * recomputed in three operations where it is needed. Slot 0 is the pulse
 * d (y0 = d, q1 = 0) and slot N + 1 a segment that stays 0, so state 1
 * and state N read their neighbours as every other state does, without a
 * test.
 *
 * Why one record is one cache line: on a large line the events spread over
 * all states, and each record read is a miss; a step reads the fired
 * state, its two neighbours and theirs (five consecutive lines, which the
 * hardware prefetcher sees coming).
 *
 * The schedule is qd-reference-heap.h's indexed 4-ary heap of (time,
 * slot), in the engine's order of simultaneous events.
 *
 * The pulse is the model's input: its rise at t = 0 is the first event of
 * a run, and its fall at t = 1 splits the run into the events before 1
 * and those from 1 on, with the fall (which reaches state 1's derivative)
 * between them; so the loop itself has no test for it.
 *
 * The start, as the engine does it: every Integrator emits its initial q
 * at t = 0, in order, each with the derivative its left neighbour's
 * emission (or the pulse's) has just given it, while its right
 * neighbour's output is still the zero signal it was allocated as; then
 * the state to its left, already emitted, gets its full derivative and
 * its first crossing. Those N requantizations are integrator steps in
 * the engine's count too.
 */
#include <float.h>
#include <math.h>
#include <string.h>

#include "qd-reference-heap.h"
#include "qd-reference-line.h"
#include "qd-reference-lcline-solver.h"

typedef struct
{
  double x0, x1, x2;
  double q0, q1;
  double tl;
  double y0, ty;
} __attribute__ ((aligned (64))) State;

G_STATIC_ASSERT (sizeof (State) == 64);


struct _QdRefLcline
{
  guint    n;
  State   *st;          /* n + 2 slots */
  QdRefHeap heap;
  double  *x_init;      /* the initial states, for each reset */
  guint64  fallbacks;
  gboolean fallen;      /* the pulse's fall at t = 1 is done */
};

/* The first s > 0 with |a0 + a1 s + a2 s²| = dq, for |a0| < dq and a2 != 0,
 * in closed form: the engine's qd_poly_crossing_quadratic(), the same
 * operations on the same operands (so the same bits), without its
 * branches. With a2 made positive (an exact negation of all three), the
 * crossing is
 *   a1 >= 0:  d rises to dq:             -2 c↑ / (|a1| + √D↑)
 *   a1 < 0:   d falls to -dq if it gets   2 c↓ / (|a1| + √D↓)
 *             there (D↓ >= 0), else rises (|a1| + √D↑) / (2 a2)
 * with c↑ = a0 - dq, c↓ = a0 + dq, D = a1² - 4 a2 c (a D↓ negative by no
 * more than its rounding is a tangency, 0). Each case is one quotient
 * whose operands share the one square root, so the case only selects
 * operands: one sqrt, one division, no branch on the sign of a1, which
 * is random from step to step. May give NaN or a non-positive time when
 * rounding defeats it; the caller then asks crossing_general(). */
static inline double
quadratic_crossing (double a0,
                    double a1,
                    double a2,
                    double dq)
{
  double sign = copysign (1.0, a2);
  double b0 = a0 * sign, b1 = a1 * sign, b2 = a2 * sign;
  double b = fabs (b1), bb = b1 * b1;
  double c_up = b0 - dq, c_down = b0 + dq;
  double d_up = bb - 4.0 * b2 * c_up;
  double d_down = bb - 4.0 * b2 * c_down;
  gboolean falling = b1 < 0.0, down;
  double r, num, den;

  if (d_down < 0.0 && -d_down <= 8.0 * DBL_EPSILON * (bb + 4.0 * b2 * c_down))
    d_down = 0.0;
  down = falling & (d_down >= 0.0);
  r = b + sqrt (down ? d_down : d_up);
  num = down ? 2.0 * c_down : falling ? r : -2.0 * c_up;
  den = (falling & !down) ? 2.0 * b2 : r;
  return num / den;
}

/* The smallest s > 0 with c0 + c1 s + c2 s² = 0, or +inf; the stable
 * roots (q = -(c1 + sign(c1) √disc) / 2 gives q / c2 and c0 / q, neither
 * by cancellation), a discriminant negative by its rounding alone being a
 * double root. */
static double
first_root (double c0,
            double c1,
            double c2)
{
  double disc, q, r1, r2, lo, hi;

  if (c2 == 0.0)
    {
      double s;

      if (c1 == 0.0 || !isfinite (c0) || !isfinite (c1))
        return INFINITY;
      s = -c0 / c1;
      return s > 0.0 && isfinite (s) ? s : INFINITY;
    }
  if (!isfinite (c0) || !isfinite (c1) || !isfinite (c2))
    return INFINITY;
  disc = c1 * c1 - 4.0 * c2 * c0;
  if (disc < 0.0)
    {
      if (!(-disc <= 8.0 * DBL_EPSILON * (c1 * c1 + fabs (4.0 * c2 * c0))))
        return INFINITY;
      disc = 0.0;
    }
  if (disc == 0.0)
    {
      r1 = -c1 / (2.0 * c2);
      return r1 > 0.0 && isfinite (r1) ? r1 : INFINITY;
    }
  q = -0.5 * (c1 + copysign (sqrt (disc), c1));
  r1 = q / c2;
  r2 = q != 0.0 ? c0 / q : 0.0;
  lo = r1 > r2 ? r2 : r1;
  hi = r1 > r2 ? r1 : r2;
  if (lo > 0.0 && isfinite (lo))
    return lo;
  return hi > 0.0 && isfinite (hi) ? hi : INFINITY;
}

static inline int
sign_of (double v)
{
  return (v > 0.0) - (v < 0.0);
}

/* The general search for |a0 + a1 s + a2 s²| = dq (the engine's
 * qd_poly_first_crossing() for degree 2, reimplemented): on or past the
 * edge of the band, now or never; inside it, the closed forms, and when
 * rounding defeats them the first roots of d - dq and d + dq. Rare
 * (lcline N = 1000 to t = 200 asks it 998 times in 2.8 million crossings,
 * lcline-random never), so out of the loop. */
G_GNUC_NO_INLINE static double
crossing_general (double a0,
                  double a1,
                  double a2,
                  double dq)
{
  if (fabs (a0) >= dq)
    {
      int dir;

      if (fabs (a0) > dq)
        return 0.0;
      /* On the edge: leaving now if x - q moves outward. */
      dir = a1 != 0.0 ? sign_of (a1) : sign_of (a2);
      if (dir == 0)
        return INFINITY;
      if (dir == sign_of (a0) || a0 == 0.0)
        return 0.0;
    }
  else
    {
      double s;

      if (a2 != 0.0)
        s = quadratic_crossing (a0, a1, a2, dq);
      else if (a1 != 0.0)
        s = (copysign (dq, a1) - a0) / a1;
      else
        return INFINITY;
      if (s > 0.0 && s < INFINITY)
        return s;
    }
  return fmin (first_root (a0 - dq, a1, a2), first_root (a0 + dq, a1, a2));
}

/* The next crossing after x or q changed: the closed form when the state
 * is inside its band and x has a curvature, as nearly always. */
static inline double
crossing (QdRefLcline *self,
          double       a0,
          double       a1,
          double       a2,
          double       dq)
{
  if (G_LIKELY (fabs (a0) < dq && a2 != 0.0))
    {
      double s = quadratic_crossing (a0, a1, a2, dq);

      if (G_LIKELY (s > 0.0 && s < INFINITY))
        return s;
    }
  self->fallbacks++;
  return crossing_general (a0, a1, a2, dq);
}

/* State @s's new derivative at @t from its neighbours' emitted segments,
 * ẋ = y(left) - y(right) as the WSum sums them: x and q are first moved to
 * t along their old polynomials (x1 + e x2 then x0 + e x1, q0 + e q1, as
 * the engine's shift does; the engine skips them for e = 0, where they
 * change nothing but the sign of a zero), then x's slope is the sum's
 * value and its curvature half the sum's slope. */
static inline void
new_derivative (State  *s,
                double  t)
{
  const State *l = s - 1, *r = s + 1;
  double e = t - s->tl;
  double x1 = s->x1 + e * s->x2;

  s->x0 += e * x1;
  s->q0 += e * s->q1;
  s->x1 = (l->y0 + (t - l->ty) * l->q1) - (r->y0 + (t - r->ty) * r->q1);
  s->x2 = (l->q1 - r->q1) * 0.5;
  s->tl = t;
}

/* new_derivative(), then the time to the next crossing of |x - q| = dQ. */
static inline double
derivative (QdRefLcline *self,
            State       *s,
            double       t)
{
  new_derivative (s, t);
  return crossing (self, s->x0 - s->q0, s->x1 - s->q1, s->x2,
                   qd_ref_quantum (s->y0));
}

/* The requantization of @s at @t: x moved to t, q takes its value and
 * slope, and is emitted; returns the time to the next one, where
 * x - q = x2 s² reaches the new quantum: √(dQ / |x2|) (+inf for x2 = 0,
 * as dQ / 0 is). */
static inline double
requantize (State  *s,
            double  t)
{
  double e = t - s->tl;
  double x1 = s->x1 + e * s->x2;
  double x0 = s->x0 + e * x1;

  x1 += e * s->x2;
  s->x0 = s->q0 = s->y0 = x0;
  s->x1 = s->q1 = x1;
  s->tl = s->ty = t;
  return sqrt (qd_ref_quantum (x0) / fabs (s->x2));
}

/* The events before @limit. */
static guint64
run_before (QdRefLcline *self,
            double       limit)
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
        /* The top now is most likely the next state to fire (the
         * neighbours' updates below seldom go before it): start loading
         * the records its step reads, and its neighbours' heap
         * positions, while those updates compute. On a large line they
         * are misses, and the updates take about as long as one. */
        const State *next = &st[h[0].id];

        __builtin_prefetch (next - 2);
        __builtin_prefetch (next - 1);
        __builtin_prefetch (next);
        __builtin_prefetch (next + 1);
        __builtin_prefetch (next + 2);
        __builtin_prefetch (&self->heap.pos[h[0].id]);
      }
      if (i > 1)
        qd_ref_heap_update (&self->heap, i - 1, t + derivative (self, s - 1, t));
      if (i < n)
        qd_ref_heap_update (&self->heap, i + 1, t + derivative (self, s + 1, t));
      steps++;
    }
  return steps;
}

guint64
qd_ref_lcline_start (QdRefLcline *self)
{
  State *st = self->st;
  QdRefEntry *h = self->heap.entries;
  guint n = self->n;
  guint64 steps = 0;

  self->fallbacks = 0;
  self->fallen = FALSE;

  /* t = 0: the pulse rises, then each state emits its initial q in
   * order (see the top of the file). The times go straight into the heap
   * array, entry i - 1 for state i, which is made a heap after. */
  st[0].y0 = 1.0;
  st[0].ty = 0.0;
  new_derivative (&st[1], 0.0);
  for (guint i = 1; i <= n; i++)
    {
      h[i - 1].id = i;
      h[i - 1].key = qd_ref_key_of (0.0 + requantize (&st[i], 0.0));
      if (i > 1)
        h[i - 2].key = qd_ref_key_of (0.0 + derivative (self, &st[i - 1], 0.0));
      if (i < n)
        new_derivative (&st[i + 1], 0.0);
      steps++;
    }
  qd_ref_heap_build (&self->heap);
  return steps;
}

guint64
qd_ref_lcline_advance (QdRefLcline *self,
                       double       until)
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
      qd_ref_heap_update (&self->heap, 1, 1.0 + derivative (self, &st[1], 1.0));
      self->fallen = TRUE;
    }
  return steps + run_before (self, until);
}

guint64
qd_ref_lcline_run (QdRefLcline *self,
                   double       until)
{
  g_return_val_if_fail (until > 0.0, 0);
  return qd_ref_lcline_start (self) + qd_ref_lcline_advance (self, until);
}

void
qd_ref_lcline_reset (QdRefLcline *self)
{
  /* Slot 0 (the pulse, before its rise) and slot n + 1 read as 0, and so
   * does every state's emitted segment until its first requantization:
   * the engine's signals start as zeros. */
  memset (self->st, 0, (self->n + 2) * sizeof (State));
  for (guint i = 1; i <= self->n; i++)
    self->st[i].x0 = self->st[i].q0 = self->x_init[i - 1];
}

QdRefLcline *
qd_ref_lcline_new (guint    n,
                   gboolean random_start)
{
  QdRefLcline *self;

  g_return_val_if_fail (n >= 1 && n < G_MAXUINT32 - 8, NULL);
  self = g_new0 (QdRefLcline, 1);
  self->n = n;
  self->st = g_aligned_alloc0 (n + 2, sizeof (State), 64);
  qd_ref_heap_init (&self->heap, n);
  self->x_init = qd_ref_initial_states (n, random_start);
  qd_ref_lcline_reset (self);
  return self;
}

void
qd_ref_lcline_free (QdRefLcline *self)
{
  if (self == NULL)
    return;
  g_aligned_free (self->st);
  qd_ref_heap_clear (&self->heap);
  g_free (self->x_init);
  g_free (self);
}

double
qd_ref_lcline_state_at (const QdRefLcline *self,
                        guint              i,
                        double             t)
{
  const State *s;
  double e;

  g_return_val_if_fail (i < self->n, NAN);
  s = &self->st[i + 1];
  e = t - s->tl;
  return s->x0 + e * (s->x1 + e * s->x2);
}

guint64
qd_ref_lcline_fallbacks (const QdRefLcline *self)
{
  return self->fallbacks;
}

gsize
qd_ref_lcline_bytes_per_state (void)
{
  return sizeof (State) + sizeof (QdRefEntry) + sizeof (guint32);
}

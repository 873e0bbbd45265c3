/* test-hybrid.c: the hybrid blocks and the Integrator with Reset
 *
 * The blocks are driven through their DEVS functions with polynomial
 * input segments of order 0 to 3 whose crossing times are known: either
 * built from their roots (Cross Detect), or found here independently by
 * bisection in long double on the global polynomial. Every event time must
 * match to 1e-9 relative, for every input order. Whole simulations check a
 * Sine source through a Cross Detect, and a bouncing ball (Integrator with
 * Reset, Cross Detect, Commanded Sampler, Gain) against the analytic
 * bounce times.
 */
#include "qd-test-util.h"
#include "qd-blocks-private.h"

#include <math.h>
#include <string.h>

#define MAX_PORTS 4
#define REL_TOL 1e-9

/* ---- a block driven by hand -------------------------------------------- */

typedef struct
{
  QdAtomic        atomic;
  QdParamValue    params[8];
  QdSignal        in_segments[MAX_PORTS];
  const QdSignal *in[MAX_PORTS];
  QdSignal        out[MAX_PORTS];
  double          tl;
} Harness;

typedef struct
{
  double   t;
  guint    port;
  QdSignal seg;
} InEvent;

static Harness *
harness_new (const QdBlockType *type,
             guint              n_in)
{
  Harness *h = g_new0 (Harness, 1);

  for (guint i = 0; i < MAX_PORTS; i++)
    h->in[i] = &h->in_segments[i];
  for (guint i = 0; i < G_N_ELEMENTS (h->params); i++)
    h->params[i].text = "";
  h->atomic.state = g_malloc0 (type->state_size);
  h->atomic.in = h->in;
  h->atomic.out = h->out;
  h->atomic.n_in = n_in;
  h->atomic.n_out = 1;
  h->atomic.params = h->params;
  h->atomic.type = type;
  h->atomic.path = "/Test";
  return h;
}

static void
harness_free (Harness *h)
{
  g_free (h->atomic.state);
  g_free (h);
}

static void
set_number (Harness    *h,
            const char *name,
            double      value)
{
  int i = qd_block_type_find_param (h->atomic.type, name);

  g_assert_cmpint (i, >=, 0);
  h->params[i].number = value;
}

/* Runs the block from t = 0 to @t_end with the input events @in (sorted
 * by time), as the event loop would; returns the output segments. Inputs
 * due at the time of an internal event go first, as from sources of
 * higher priority. */
static GArray *
drive (Harness       *h,
       const InEvent *in,
       guint          n_in,
       double         t_end)
{
  QdAtomic *a = &h->atomic;
  GArray *out = g_array_new (FALSE, FALSE, sizeof (QdSignal));
  guint i = 0;

  a->type->init (a, 0.0);
  h->tl = 0.0;
  for (int guard = 0; guard < 100000; guard++)
    {
      double ta = a->type->ta (a);
      double t_int = h->tl + ta;
      double t_ext = i < n_in ? in[i].t : QD_INF;

      g_assert_cmpfloat (ta, >=, 0.0);
      if (t_int > t_end && t_ext > t_end)
        return out;
      if (t_int < t_ext)
        {
          if (a->type->lambda (a, t_int) & 1)
            g_array_append_val (out, h->out[0]);
          a->type->dint (a, t_int);
          h->tl = t_int;
        }
      else
        {
          h->in_segments[in[i].port] = in[i].seg;
          a->type->dext (a, t_ext, t_ext - h->tl, in[i].port,
                         &h->in_segments[in[i].port]);
          h->tl = t_ext;
          i++;
        }
    }
  g_assert_not_reached ();
  return out;
}

/* ---- polynomials in global time ---------------------------------------- */

typedef struct
{
  long double a[QD_MAX_ORDER + 1];   /* u(t) = sum a[k] t^k */
  int         order;
} Poly;

static long double
poly_at (const Poly  *p,
         long double  t)
{
  long double v = 0.0L;

  for (int k = p->order; k >= 0; k--)
    v = v * t + p->a[k];
  return v;
}

/* level + k (t - r0)(t - r1)...: a polynomial whose crossings of @level
 * are known exactly. */
static Poly
poly_from_roots (double        level,
                 double        k,
                 const double *roots,
                 int           n)
{
  Poly p = { { k, 0, 0, 0 }, 0 };

  for (int i = 0; i < n; i++)
    {
      /* Multiply by (t - r). */
      for (int j = p.order + 1; j >= 0; j--)
        p.a[j] = (j > 0 ? p.a[j - 1] : 0.0L) - roots[i] * p.a[j];
      p.order++;
    }
  p.a[0] += level;
  return p;
}

static Poly
poly_new (int    order,
          double a0,
          double a1,
          double a2,
          double a3)
{
  Poly p = { { a0, a1, a2, a3 }, order };

  return p;
}

/* The segment of @p starting at @t0: Taylor coefficients there. */
static QdSignal
segment_at (const Poly *p,
            double      t0)
{
  QdSignal s = { .t = t0, .order = p->order };
  static const int binomial[4][4] = {
    { 1, 0, 0, 0 }, { 1, 1, 0, 0 }, { 1, 2, 1, 0 }, { 1, 3, 3, 1 }
  };

  for (int j = 0; j <= p->order; j++)
    {
      long double c = 0.0L;

      for (int k = j; k <= p->order; k++)
        c += p->a[k] * binomial[k][j] * powl (t0, k - j);
      s.c[j] = (double) c;
    }
  return s;
}

static InEvent
input (double      t,
       guint       port,
       const Poly *p)
{
  InEvent e = { t, port, segment_at (p, t) };

  return e;
}

/* The crossings of @level by @p in (t0, t1), found by scanning for sign
 * changes and bisecting in long double; each with its direction. */
static guint
ref_crossings (const Poly *p,
               double      level,
               double      t0,
               double      t1,
               double     *times,
               int        *dirs,
               guint       max)
{
  const int n_grid = 20000;
  guint n = 0;
  /* The last grid point where p was off the level, and its side. */
  long double prev_t = t0, prev_v = poly_at (p, t0) - level;

  for (int i = 1; i <= n_grid; i++)
    {
      long double t = t0 + (t1 - t0) * (long double) i / n_grid;
      long double v = poly_at (p, t) - level;

      if (v == 0)
        continue;
      if (prev_v != 0 && (prev_v < 0) != (v < 0))
        {
          long double lo = prev_t, hi = t;

          for (int j = 0; j < 200; j++)
            {
              long double mid = 0.5L * (lo + hi);
              long double vm = poly_at (p, mid) - level;

              if (vm == 0)
                lo = hi = mid;
              else if ((vm < 0) == (prev_v < 0))
                lo = mid;
              else
                hi = mid;
            }
          g_assert_cmpuint (n, <, max);
          times[n] = (double) (0.5L * (lo + hi));
          dirs[n] = prev_v < 0 ? 1 : -1;
          n++;
        }
      prev_t = t;
      prev_v = v;
    }
  return n;
}

static void
assert_time (double got,
             double want)
{
  if (!(fabs (got - want) <= REL_TOL * fabs (want)))
    g_error ("event at %.17g, expected %.17g (error %.3g)", got, want,
             got - want);
}

/* The output segment equals @p at its time, with @p's order. */
static void
assert_passes (const QdSignal *y,
               const Poly     *p)
{
  QdSignal want = segment_at (p, y->t);

  g_assert_cmpint (y->order, ==, p->order);
  for (int k = 0; k <= QD_MAX_ORDER; k++)
    if (!(fabs (y->c[k] - want.c[k]) <= 1e-9 * MAX (1.0, fabs (want.c[k]))))
      g_error ("at t = %.17g coefficient %d is %.17g, expected %.17g",
               y->t, k, y->c[k], want.c[k]);
}

/* ---- Cross Detect ------------------------------------------------------ */

static void
check_cross_detect (const Poly   *p,
                    double        level,
                    const double *roots,
                    int           n_roots,
                    double        t_end)
{
  for (int direction = 0; direction < 3; direction++)
    {
      Harness *h = harness_new (&qd_block_cross_detect, 1);
      /* The same polynomial again, re-expanded mid-way: re-scheduling
       * from a new segment must neither add nor lose a crossing. */
      InEvent in[2] = { input (0.0, 0, p), input (0.37 * t_end, 0, p) };
      GArray *out;
      guint j = 0;

      set_number (h, "level", level);
      set_number (h, "direction", direction);
      set_number (h, "value", 7.0);
      out = drive (h, in, 2, t_end);
      for (int i = 0; i < n_roots; i++)
        {
          int dir = poly_at (p, roots[i] + 1e-6) > level ? 1 : -1;
          const QdSignal *y;

          if ((direction == 0 && dir < 0) || (direction == 1 && dir > 0))
            continue;
          g_assert_cmpuint (j, <, out->len);
          y = &g_array_index (out, QdSignal, j++);
          assert_time (y->t, roots[i]);
          g_assert_cmpint (y->order, ==, 0);
          g_assert_cmpfloat (y->c[0], ==, 7.0);
        }
      g_assert_cmpuint (j, ==, out->len);
      g_array_unref (out);
      harness_free (h);
    }
}

static void
test_cross_detect (void)
{
  static const double roots1[] = { 1.25 };
  static const double roots2[] = { 0.5, 3.75 };
  static const double roots3[] = { 0.3, 1.7, 2.9 };
  static const double close3[] = { 1.0, 1.001, 5.0 };
  static const double wide3[] = { 1e-3, 2.0, 40.0 };

  for (int sign = -1; sign <= 1; sign += 2)
    {
      Poly p1 = poly_from_roots (0.7, 2.0 * sign, roots1, 1);
      Poly p2 = poly_from_roots (-0.2, 0.5 * sign, roots2, 2);
      Poly p3 = poly_from_roots (3.0, 1.5 * sign, roots3, 3);
      Poly pc = poly_from_roots (0.0, 1e3 * sign, close3, 3);
      Poly pw = poly_from_roots (-5.0, 0.01 * sign, wide3, 3);

      check_cross_detect (&p1, 0.7, roots1, 1, 5.0);
      check_cross_detect (&p2, -0.2, roots2, 2, 5.0);
      check_cross_detect (&p3, 3.0, roots3, 3, 5.0);
      check_cross_detect (&pc, 0.0, close3, 3, 6.0);
      check_cross_detect (&pw, -5.0, wide3, 3, 50.0);
    }
}

/* Order 0: crossings are jumps, reported at the jump; a touch (a segment
 * ending exactly on the level) is not a crossing; the first input only
 * sets the side. */
static void
test_cross_detect_jumps (void)
{
  Poly above = poly_new (0, 2.0, 0, 0, 0);
  Poly below = poly_new (0, -1.0, 0, 0, 0);
  Poly on = poly_new (0, 0.5, 0, 0, 0);
  InEvent in[] = {
    input (0.0, 0, &above), input (1.0, 0, &below), input (2.0, 0, &on),
    input (3.0, 0, &above), input (4.0, 0, &above),
  };
  static const double want[3][3] = {
    { 2.0, -1, -1 },          /* rising: below -> on */
    { 1.0, -1, -1 },          /* falling: above -> below */
    { 1.0, 2.0, -1 },         /* both */
  };

  for (int direction = 0; direction < 3; direction++)
    {
      Harness *h = harness_new (&qd_block_cross_detect, 1);
      GArray *out;
      guint n = 0;

      set_number (h, "level", 0.5);
      set_number (h, "direction", direction);
      set_number (h, "value", 1.0);
      out = drive (h, in, G_N_ELEMENTS (in), 5.0);
      for (int i = 0; i < 3 && want[direction][i] >= 0; i++, n++)
        {
          g_assert_cmpuint (n, <, out->len);
          g_assert_cmpfloat (g_array_index (out, QdSignal, n).t, ==,
                             want[direction][i]);
        }
      g_assert_cmpuint (out->len, ==, n);
      g_array_unref (out);
      harness_free (h);
    }
}

/* ---- Switch ------------------------------------------------------------ */

/* u1 crosses the threshold at known times, for each order; the output
 * is the selected input, passed with its order, from the exact crossing
 * time. A new u0 at t = 2.5 is output only if u0 is selected then. */
static void
test_switch (void)
{
  static const double roots[3][3] = {
    { 1.5 }, { 1.0, 3.0 }, { 0.8, 2.2, 3.6 }
  };
  Poly u0 = poly_new (2, 1.0, -0.5, 0.25, 0.0);
  Poly u2 = poly_new (1, -3.0, 2.0, 0.0, 0.0);
  Poly u0b = poly_new (3, 0.5, 0.5, 0.5, 0.5);

  for (int order = 1; order <= 3; order++)
    {
      Poly u1 = poly_from_roots (0.25, order == 2 ? -1.0 : 1.0,
                                 roots[order - 1], order);
      InEvent in[] = {
        input (0.0, 0, &u0), input (0.0, 1, &u1), input (0.0, 2, &u2),
        input (2.5, 0, &u0b),
      };
      Harness *h = harness_new (&qd_block_switch, 3);
      double times[8];
      guint n = 0;
      GArray *out;

      set_number (h, "level", 0.25);
      out = drive (h, in, G_N_ELEMENTS (in), 4.0);

      /* The expected output times: the start, each crossing, and 2.5
       * when u0 is selected there. */
      times[n++] = 0.0;
      for (int i = 0; i < order; i++)
        {
          const double *r = roots[order - 1];

          if (r[i] > 2.5 && (i == 0 || r[i - 1] < 2.5)
              && poly_at (&u1, 2.5) > 0.25)
            times[n++] = 2.5;
          times[n++] = roots[order - 1][i];
        }
      if (roots[order - 1][order - 1] < 2.5 && poly_at (&u1, 2.5) > 0.25)
        times[n++] = 2.5;

      g_assert_cmpuint (out->len, ==, n);
      for (guint i = 0; i < n; i++)
        {
          const QdSignal *y = &g_array_index (out, QdSignal, i);
          /* Which input is selected just after the event. */
          gboolean sel0 = poly_at (&u1, times[i] + 1e-6) > 0.25;

          if (times[i] == 0.0 || times[i] == 2.5)
            g_assert_cmpfloat (y->t, ==, times[i]);
          else
            assert_time (y->t, times[i]);
          assert_passes (y, sel0 ? (times[i] >= 2.5 ? &u0b : &u0) : &u2);
        }
      g_array_unref (out);
      harness_free (h);
    }
}

/* ---- Saturation -------------------------------------------------------- */

static void
check_saturation (const Poly *p,
                  double      lower,
                  double      upper,
                  double      t_end)
{
  Harness *h = harness_new (&qd_block_saturation, 1);
  InEvent in[] = { input (0.0, 0, p) };
  double times[16], all[16];
  int dirs[16];
  guint n_lo, n_hi, n = 0;
  GArray *out;

  set_number (h, "lower", lower);
  set_number (h, "upper", upper);
  out = drive (h, in, 1, t_end);

  /* Every crossing of either limit changes the mode: one output each. */
  n_lo = ref_crossings (p, lower, 0.0, t_end, times, dirs, 8);
  for (guint i = 0; i < n_lo; i++)
    all[n++] = times[i];
  n_hi = ref_crossings (p, upper, 0.0, t_end, times, dirs, 8);
  for (guint i = 0; i < n_hi; i++)
    all[n++] = times[i];
  g_assert_cmpuint (n, >, 0);
  for (guint i = 0; i < n; i++)
    for (guint k = i + 1; k < n; k++)
      if (all[k] < all[i])
        {
          double tmp = all[i];
          all[i] = all[k];
          all[k] = tmp;
        }

  g_assert_cmpuint (out->len, ==, n + 1);
  for (guint i = 0; i <= n; i++)
    {
      const QdSignal *y = &g_array_index (out, QdSignal, i);
      double after;
      long double v;

      if (i == 0)
        g_assert_cmpfloat (y->t, ==, 0.0);
      else
        assert_time (y->t, all[i - 1]);
      after = i < n ? 0.5 * (y->t + all[i]) : 0.5 * (y->t + t_end);
      v = poly_at (p, after);
      if (v > upper || v < lower)
        {
          g_assert_cmpint (y->order, ==, 0);
          g_assert_cmpfloat (y->c[0], ==, v > upper ? upper : lower);
        }
      else
        {
          /* Between the limits: the input's polynomial, order and all,
           * starting on the limit it came from. */
          assert_passes (y, p);
          g_assert_cmpfloat (y->c[0], >=, lower);
          g_assert_cmpfloat (y->c[0], <=, upper);
        }
    }
  g_array_unref (out);
  harness_free (h);
}

static void
test_saturation (void)
{
  Poly p1 = poly_new (1, -1.0, 1.0, 0, 0);
  Poly p2 = poly_new (2, 0.0, 4.0, -1.0, 0);
  Poly p3 = poly_new (3, -1.0, 3.0, -3.0, 1.0);                   /* (t-1)^3 */
  static const double r3[] = { 0.5, 2.0, 3.5 };
  Poly p3b = poly_from_roots (0.0, 1.0, r3, 3);

  check_saturation (&p1, -0.5, 2.0, 4.0);
  check_saturation (&p2, 0.5, 3.0, 4.0);
  check_saturation (&p3, -0.5, 1.0, 3.0);
  check_saturation (&p3b, -0.4, 0.3, 4.0);
}

/* Order 0: a jump out of the band outputs the limit at once; within the
 * band each new segment passes through. */
static void
test_saturation_jumps (void)
{
  Poly a = poly_new (0, 0.5, 0, 0, 0), b = poly_new (0, 5.0, 0, 0, 0);
  Poly c = poly_new (0, 7.0, 0, 0, 0), d = poly_new (0, -2.0, 0, 0, 0);
  InEvent in[] = {
    input (0.0, 0, &a), input (1.0, 0, &b), input (2.0, 0, &c),
    input (3.0, 0, &d),
  };
  Harness *h = harness_new (&qd_block_saturation, 1);
  GArray *out;

  set_number (h, "lower", -1.0);
  set_number (h, "upper", 1.0);
  out = drive (h, in, G_N_ELEMENTS (in), 4.0);
  /* 7 after 5 is still the upper limit: no output at t = 2. */
  g_assert_cmpuint (out->len, ==, 3);
  g_assert_cmpfloat (g_array_index (out, QdSignal, 0).c[0], ==, 0.5);
  g_assert_cmpfloat (g_array_index (out, QdSignal, 1).t, ==, 1.0);
  g_assert_cmpfloat (g_array_index (out, QdSignal, 1).c[0], ==, 1.0);
  g_assert_cmpfloat (g_array_index (out, QdSignal, 2).t, ==, 3.0);
  g_assert_cmpfloat (g_array_index (out, QdSignal, 2).c[0], ==, -1.0);
  g_array_unref (out);
  harness_free (h);
}

/* ---- Hysteresis and Relay ---------------------------------------------- */

/* The expected switching times: rising through xu when low, falling
 * through xl when high, from the state the first input implies. */
static guint
ref_hysteresis (const Poly *p,
                double      xl,
                double      xu,
                double      t_end,
                double     *times,
                int        *states)
{
  double tu[16], tl[16];
  int du[16], dl[16];
  guint nu = ref_crossings (p, xu, 0.0, t_end, tu, du, 16);
  guint nl = ref_crossings (p, xl, 0.0, t_end, tl, dl, 16);
  guint iu = 0, il = 0, n = 0;
  int high = poly_at (p, 0.0) > xu;

  while (iu < nu || il < nl)
    {
      gboolean take_u = il >= nl || (iu < nu && tu[iu] < tl[il]);

      if (take_u)
        {
          if (!high && du[iu] > 0)
            {
              high = 1;
              times[n] = tu[iu];
              states[n++] = 1;
            }
          iu++;
        }
      else
        {
          if (high && dl[il] < 0)
            {
              high = 0;
              times[n] = tl[il];
              states[n++] = 0;
            }
          il++;
        }
    }
  return n;
}

static void
check_hysteresis (const QdBlockType *type,
                  const Poly        *p,
                  double             t_end)
{
  const double xl = -0.5, xu = 0.5, yl = -2.0, yu = 3.0;
  Harness *h = harness_new (type, 1);
  InEvent in[] = { input (0.0, 0, p) };
  double times[16];
  int states[16];
  guint n;
  GArray *out;

  if (type == &qd_block_hysteresis)
    {
      set_number (h, "xl", xl);
      set_number (h, "xu", xu);
      set_number (h, "yl", yl);
      set_number (h, "yu", yu);
    }
  else
    {
      set_number (h, "off_point", xl);
      set_number (h, "on_point", xu);
      set_number (h, "off_value", yl);
      set_number (h, "on_value", yu);
    }
  out = drive (h, in, 1, t_end);
  n = ref_hysteresis (p, xl, xu, t_end, times, states);
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpuint (out->len, ==, n + 1);
  g_assert_cmpfloat (g_array_index (out, QdSignal, 0).c[0], ==,
                     poly_at (p, 0.0) > xu ? yu : yl);
  for (guint i = 0; i < n; i++)
    {
      const QdSignal *y = &g_array_index (out, QdSignal, i + 1);

      assert_time (y->t, times[i]);
      g_assert_cmpint (y->order, ==, 0);
      g_assert_cmpfloat (y->c[0], ==, states[i] ? yu : yl);
    }
  g_array_unref (out);
  harness_free (h);
}

static void
test_hysteresis (void)
{
  /* Crossings of both thresholds in both directions, some ignored. */
  static const double r2[] = { 0.4, 3.3 };
  static const double r3[] = { 0.5, 2.5, 4.5 };
  Poly p1 = poly_new (1, -1.0, 0.75, 0, 0);
  Poly p2 = poly_from_roots (-0.7, -1.0, r2, 2);
  Poly p3 = poly_from_roots (0.1, 0.3, r3, 3);
  Poly p3b = poly_from_roots (0.1, -0.3, r3, 3);

  for (int i = 0; i < 2; i++)
    {
      const QdBlockType *type = i ? &qd_block_relay : &qd_block_hysteresis;

      check_hysteresis (type, &p1, 3.0);
      check_hysteresis (type, &p2, 4.0);
      check_hysteresis (type, &p3, 5.0);
      check_hysteresis (type, &p3b, 5.0);
    }
}

/* Order 0 inputs: switching happens at the jumps; a jump onto a
 * threshold is not past it. */
static void
test_order0_jumps (void)
{
  Poly c[] = {
    poly_new (0, 0.0, 0, 0, 0), poly_new (0, 1.0, 0, 0, 0),
    poly_new (0, 0.0, 0, 0, 0), poly_new (0, -1.0, 0, 0, 0),
    poly_new (0, 0.5, 0, 0, 0),
  };
  Poly u0 = poly_new (1, 1.0, 1.0, 0, 0), u2 = poly_new (2, 0, 0, 1.0, 0);
  Poly k[] = {
    poly_new (0, 1.0, 0, 0, 0), poly_new (0, -1.0, 0, 0, 0),
    poly_new (0, 0.25, 0, 0, 0), poly_new (0, 2.0, 0, 0, 0),
  };
  InEvent hyst_in[] = {
    input (0.0, 0, &c[0]), input (1.0, 0, &c[1]), input (2.0, 0, &c[2]),
    input (3.0, 0, &c[3]), input (4.0, 0, &c[2]), input (5.0, 0, &c[4]),
  };
  InEvent switch_in[] = {
    input (0.0, 0, &u0), input (0.0, 1, &k[0]), input (0.0, 2, &u2),
    input (1.0, 1, &k[1]), input (2.0, 1, &k[2]), input (3.0, 1, &k[3]),
  };
  Harness *h = harness_new (&qd_block_hysteresis, 1);
  GArray *out;

  set_number (h, "xl", -0.5);
  set_number (h, "xu", 0.5);
  set_number (h, "yl", 10.0);
  set_number (h, "yu", 20.0);
  out = drive (h, hyst_in, G_N_ELEMENTS (hyst_in), 6.0);
  g_assert_cmpuint (out->len, ==, 3);
  g_assert_cmpfloat (g_array_index (out, QdSignal, 0).c[0], ==, 10.0);
  g_assert_cmpfloat (g_array_index (out, QdSignal, 1).t, ==, 1.0);
  g_assert_cmpfloat (g_array_index (out, QdSignal, 1).c[0], ==, 20.0);
  g_assert_cmpfloat (g_array_index (out, QdSignal, 2).t, ==, 3.0);
  g_assert_cmpfloat (g_array_index (out, QdSignal, 2).c[0], ==, 10.0);
  g_array_unref (out);
  harness_free (h);

  h = harness_new (&qd_block_switch, 3);
  set_number (h, "level", 0.25);
  out = drive (h, switch_in, G_N_ELEMENTS (switch_in), 4.0);
  g_assert_cmpuint (out->len, ==, 3);
  g_assert_cmpfloat (g_array_index (out, QdSignal, 0).t, ==, 0.0);
  assert_passes (&g_array_index (out, QdSignal, 0), &u0);
  g_assert_cmpfloat (g_array_index (out, QdSignal, 1).t, ==, 1.0);
  assert_passes (&g_array_index (out, QdSignal, 1), &u2);
  g_assert_cmpfloat (g_array_index (out, QdSignal, 2).t, ==, 3.0);
  assert_passes (&g_array_index (out, QdSignal, 2), &u0);
  g_array_unref (out);
  harness_free (h);
}

/* ---- Quantizer --------------------------------------------------------- */

static void
test_quantizer (void)
{
  /* u = 0.9 (2t − t²): up to 0.9 at t = 1, back to 0 at t = 2, then
   * below; u = v at t = 1 ∓ sqrt(1 − v/0.9). */
  Poly p = poly_new (2, 0.0, 1.8, -0.9, 0.0);
  const double q = 0.25;
  InEvent in[] = { input (0.0, 0, &p) };

  for (int hyst = 0; hyst <= 1; hyst++)
    {
      Harness *h = harness_new (&qd_block_quantizer, 1);
      GArray *out;
      /* (switching level, output level after, rising?) */
      double want[16][3];
      guint n = 0;

      if (!hyst)
        {
          /* Nearest multiple: switches at (k + 1/2) q; 0.9 is past
           * 3.5 q, and u(2.2) = −0.396 past −1.5 q. */
          for (int k = 0; k <= 3; k++)
            {
              want[n][0] = (k + 0.5) * q;
              want[n][1] = (k + 1) * q;
              want[n++][2] = 1;
            }
          for (int k = 3; k >= -2; k--)
            {
              want[n][0] = (k + 0.5) * q;
              want[n][1] = k * q;
              want[n++][2] = 0;
            }
        }
      else
        {
          /* Up at each level reached, down a full quantum later. */
          for (int k = 1; k <= 3; k++)
            {
              want[n][0] = k * q;
              want[n][1] = k * q;
              want[n++][2] = 1;
            }
          for (int k = 2; k >= -1; k--)
            {
              want[n][0] = k * q;
              want[n][1] = k * q;
              want[n++][2] = 0;
            }
        }

      set_number (h, "quantum", q);
      set_number (h, "hysteresis", hyst);
      out = drive (h, in, 1, 2.2);
      g_assert_cmpuint (out->len, ==, n + 1);
      g_assert_cmpfloat (g_array_index (out, QdSignal, 0).c[0], ==, 0.0);
      for (guint i = 0; i < n; i++)
        {
          const QdSignal *y = &g_array_index (out, QdSignal, i + 1);
          double r = sqrt (1.0 - want[i][0] / 0.9);
          double t = want[i][2] ? 1.0 - r : 1.0 + r;

          assert_time (y->t, t);
          g_assert_cmpint (y->order, ==, 0);
          g_assert_cmpfloat (y->c[0], ==, want[i][1]);
        }
      g_array_unref (out);
      harness_free (h);
    }
}

/* A jump across many levels lands on the right one in one event. */
static void
test_quantizer_jumps (void)
{
  Poly a = poly_new (0, -0.4, 0, 0, 0), b = poly_new (0, 10.3, 0, 0, 0);
  Poly c = poly_new (0, -4.6, 0, 0, 0);
  InEvent in[] = { input (0.0, 0, &a), input (1.0, 0, &b), input (2.0, 0, &c) };
  /* Nearest: 0, 10, -5; with hysteresis: the level below at the start,
   * then floor going up and ceil going down: -1, 10, -4. */
  static const double want[2][3] = { { 0, 10, -5 }, { -1, 10, -4 } };

  for (int hyst = 0; hyst <= 1; hyst++)
    {
      Harness *h = harness_new (&qd_block_quantizer, 1);
      GArray *out;

      set_number (h, "quantum", 1.0);
      set_number (h, "hysteresis", hyst);
      out = drive (h, in, G_N_ELEMENTS (in), 3.0);
      g_assert_cmpuint (out->len, ==, 3);
      for (guint i = 0; i < 3; i++)
        {
          g_assert_cmpfloat (g_array_index (out, QdSignal, i).t, ==, i);
          g_assert_cmpfloat (g_array_index (out, QdSignal, i).c[0], ==,
                             want[hyst][i]);
        }
      g_array_unref (out);
      harness_free (h);
    }
}

/* ---- Comparator and Sign ----------------------------------------------- */

static void
test_comparator_sign (void)
{
  static const double roots[] = { 0.6, 1.9, 3.1 };
  /* u0 - u1 = 2 (t - 0.6)(t - 1.9)(t - 3.1), spread over both inputs. */
  Poly diff = poly_from_roots (0.0, 2.0, roots, 3);
  Poly u1 = poly_new (2, 1.0, -2.0, 0.5, 0.0);
  Poly u0 = diff;
  Harness *h;
  GArray *out;

  for (int k = 0; k <= 2; k++)
    u0.a[k] += u1.a[k];
  {
    InEvent in[] = { input (0.0, 0, &u0), input (0.0, 1, &u1) };

    h = harness_new (&qd_block_comparator, 2);
    set_number (h, "high", 5.0);
    set_number (h, "low", -5.0);
    out = drive (h, in, 2, 4.0);
    g_assert_cmpuint (out->len, ==, 4);
    g_assert_cmpfloat (g_array_index (out, QdSignal, 0).c[0], ==, -5.0);
    for (int i = 0; i < 3; i++)
      {
        const QdSignal *y = &g_array_index (out, QdSignal, i + 1);

        assert_time (y->t, roots[i]);
        g_assert_cmpfloat (y->c[0], ==, i % 2 ? -5.0 : 5.0);
      }
    g_array_unref (out);
    harness_free (h);
  }
  {
    InEvent in[] = { input (0.0, 0, &diff) };

    h = harness_new (&qd_block_sign, 1);
    out = drive (h, in, 1, 4.0);
    g_assert_cmpuint (out->len, ==, 4);
    g_assert_cmpfloat (g_array_index (out, QdSignal, 0).c[0], ==, -1.0);
    for (int i = 0; i < 3; i++)
      {
        const QdSignal *y = &g_array_index (out, QdSignal, i + 1);

        assert_time (y->t, roots[i]);
        g_assert_cmpfloat (y->c[0], ==, i % 2 ? -1.0 : 1.0);
      }
    g_array_unref (out);
    harness_free (h);
  }
}

/* Absolute value switches branch at the exact zero crossing. */
static void
test_abs (void)
{
  static const double roots[] = { 0.7, 2.2 };
  Poly p = poly_from_roots (0.0, 1.0, roots, 2);
  Poly neg = p;
  InEvent in[] = { input (0.0, 0, &p) };
  Harness *h = harness_new (&qd_block_abs, 1);
  GArray *out;

  for (int k = 0; k <= 2; k++)
    neg.a[k] = -p.a[k];
  out = drive (h, in, 1, 3.0);
  g_assert_cmpuint (out->len, ==, 3);
  assert_passes (&g_array_index (out, QdSignal, 0), &p);
  assert_time (g_array_index (out, QdSignal, 1).t, 0.7);
  assert_passes (&g_array_index (out, QdSignal, 1), &neg);
  assert_time (g_array_index (out, QdSignal, 2).t, 2.2);
  assert_passes (&g_array_index (out, QdSignal, 2), &p);
  g_array_unref (out);
  harness_free (h);
}

/* ---- samplers ---------------------------------------------------------- */

static void
test_sample_hold (void)
{
  Poly p = poly_new (3, 0.3, -1.0, 0.7, -0.2);
  InEvent in[] = { input (0.0, 0, &p) };
  Harness *h = harness_new (&qd_block_sample_hold, 1);
  GArray *out;

  set_number (h, "period", 0.3);
  set_number (h, "phase", 0.1);
  out = drive (h, in, 1, 3.0);
  /* 0.1, 0.4, ..., 2.8: ten samples, at phase + k·period exactly. */
  g_assert_cmpuint (out->len, ==, 10);
  for (guint k = 0; k < out->len; k++)
    {
      const QdSignal *y = &g_array_index (out, QdSignal, k);
      double want = (double) poly_at (&p, y->t);

      g_assert_cmpfloat (y->t, ==, 0.1 + k * 0.3);
      g_assert_cmpint (y->order, ==, 0);
      g_assert_cmpfloat (fabs (y->c[0] - want), <=, 1e-14 * fabs (want));
    }
  g_array_unref (out);
  harness_free (h);

  /* A sample due before the input arrives is taken when it does. */
  {
    InEvent late[] = { input (0.05, 0, &p) };

    h = harness_new (&qd_block_sample_hold, 1);
    set_number (h, "period", 1.0);
    set_number (h, "phase", 0.0);
    out = drive (h, late, 1, 1.5);
    g_assert_cmpuint (out->len, ==, 2);
    g_assert_cmpfloat (g_array_index (out, QdSignal, 0).t, ==, 0.05);
    g_assert_cmpfloat (g_array_index (out, QdSignal, 1).t, ==, 1.0);
    g_array_unref (out);
    harness_free (h);
  }
}

static void
test_commanded_sampler (void)
{
  Poly p = poly_new (2, 1.0, 2.0, -1.0, 0.0);
  Poly cmd = poly_new (0, 1.0, 0, 0, 0);
  Poly p2 = poly_new (1, 4.0, 1.0, 0, 0);
  InEvent in[] = {
    input (0.0, 0, &p), input (0.5, 1, &cmd), input (1.0, 0, &p2),
    input (1.75, 1, &cmd),
  };
  Harness *h = harness_new (&qd_block_commanded_sampler, 2);
  GArray *out = drive (h, in, G_N_ELEMENTS (in), 3.0);

  /* A change of u0 alone is not an output. */
  g_assert_cmpuint (out->len, ==, 2);
  g_assert_cmpfloat (g_array_index (out, QdSignal, 0).t, ==, 0.5);
  g_assert_cmpfloat (g_array_index (out, QdSignal, 0).c[0], ==, 1.75);
  g_assert_cmpfloat (g_array_index (out, QdSignal, 1).t, ==, 1.75);
  g_assert_cmpfloat (g_array_index (out, QdSignal, 1).c[0], ==, 5.75);
  g_array_unref (out);
  harness_free (h);
}

/* ---- parameter checks -------------------------------------------------- */

static void
expect_check_error (const QdBlockType *type,
                    const double      *values,
                    const char        *message)
{
  QdParamValue params[8] = { { 0, } };
  GError *error = NULL;

  for (guint i = 0; i < type->n_params; i++)
    {
      params[i].number = values[i];
      params[i].text = "";
    }
  g_assert_false (type->check (type, params, type->inputs.count, 1, &error));
  g_assert_error (error, QD_ERROR, QD_ERROR_PARAM);
  g_assert_cmpstr (error->message, ==, message);
  g_clear_error (&error);
}

static void
test_checks (void)
{
  static const double hyst[] = { 1, 1, 0, 1 };
  static const double relay_ok[] = { 0.5, 0.5, 0, 1 };
  static const double relay[] = { 1, 0.5, 0, 1 };
  static const double sat[] = { 2, -2 };
  static const double quant[] = { 0, 0 };
  static const double sh[] = { 0, 0 };
  QdParamValue params[4] = { { 0, } };

  expect_check_error (&qd_block_hysteresis, hyst,
                      "parameter 'xl' (1) must be less than 'xu' (1); "
                      "swap or correct them");
  expect_check_error (&qd_block_relay, relay,
                      "parameter 'off_point' (1) must not exceed "
                      "'on_point' (0.5); swap or correct them");
  expect_check_error (&qd_block_saturation, sat,
                      "parameter 'lower' (2) must be less than 'upper' (-2); "
                      "swap or correct them");
  expect_check_error (&qd_block_quantizer, quant,
                      "parameter 'quantum' (0) must be greater than 0");
  expect_check_error (&qd_block_sample_hold, sh,
                      "parameter 'period' (0) must be a positive, finite "
                      "time");
  for (guint i = 0; i < 4; i++)
    {
      params[i].number = relay_ok[i];
      params[i].text = "";
    }
  g_assert_true (qd_block_relay.check (&qd_block_relay, params, 1, 1, NULL));

  /* The defaults of every hybrid block pass its check. */
  {
    const QdBlockType *types[] = {
      &qd_block_cross_detect, &qd_block_switch, &qd_block_comparator,
      &qd_block_sign, &qd_block_hysteresis, &qd_block_relay,
      &qd_block_saturation, &qd_block_quantizer, &qd_block_sample_hold,
      &qd_block_commanded_sampler,
    };

    for (guint i = 0; i < G_N_ELEMENTS (types); i++)
      {
        const QdBlockType *t = types[i];
        QdParamValue defaults[8] = { { 0, } };
        GError *error = NULL;

        g_assert_cmpstr (t->category, ==, "Hybrid");
        g_assert_cmpuint (t->n_params, <=, G_N_ELEMENTS (defaults));
        for (guint k = 0; k < t->n_params; k++)
          {
            const QdParamSpec *spec = &t->params[k];

            defaults[k].text = spec->default_value;
            if (spec->kind == QD_PARAM_BOOLEAN)
              defaults[k].number = g_str_equal (spec->default_value, "true");
            else if (spec->kind == QD_PARAM_CHOICE)
              {
                /* The default is one of the choices; its index. */
                g_assert_true (g_strv_contains (spec->choices,
                                                spec->default_value));
                for (guint c = 0; spec->choices[c] != NULL; c++)
                  if (g_str_equal (spec->choices[c], spec->default_value))
                    defaults[k].number = c;
              }
            else
              defaults[k].number = g_ascii_strtod (spec->default_value, NULL);
          }
        if (t->check != NULL)
          g_assert_true (t->check (t, defaults, t->inputs.count, 1, &error));
        g_assert_no_error (error);
      }
  }
}

/* ---- Integrator with Reset ------------------------------------------- */

/* ẋ = 1 from x(0) = 0 (QSS2, so q carries x exactly); a reset to 5 at
 * t = 0.5 emits q = 5 + (t − 0.5) at once, the slope going on. */
static void
test_integrator_reset (void)
{
  Poly one = poly_new (0, 1.0, 0, 0, 0);
  Poly five = poly_new (0, 5.0, 0, 0, 0);
  InEvent in[] = { input (0.0, 0, &one), input (0.5, 1, &five) };
  Harness *h = harness_new (&qd_block_integrator_reset, 2);
  GArray *out;
  const QdSignal *y;

  set_number (h, "x0", 0.0);
  set_number (h, "method", 1);
  set_number (h, "dqmin", 1e-3);
  set_number (h, "dqrel", 0.0);
  out = drive (h, in, G_N_ELEMENTS (in), 1.0);
  /* The initial q at 0 (before or after the derivative), then the reset:
   * no requantization in between, since q = x exactly. */
  g_assert_cmpuint (out->len, >=, 2);
  y = &g_array_index (out, QdSignal, out->len - 1);
  g_assert_cmpfloat (y->t, ==, 0.5);
  g_assert_cmpint (y->order, ==, 1);
  g_assert_cmpfloat (y->c[0], ==, 5.0);
  g_assert_cmpfloat (y->c[1], ==, 1.0);
  for (guint i = 0; i + 1 < out->len; i++)
    g_assert_cmpfloat (g_array_index (out, QdSignal, i).t, ==, 0.0);
  g_assert_cmpfloat (h->atomic.type->ta (&h->atomic), ==, QD_INF);
  g_array_unref (out);
  harness_free (h);
}

/* ---- whole simulations ------------------------------------------------- */

/* A Sine source (order 0 to 3, a small quantum) through a Cross Detect:
 * the events at sin(2πt) = 0.5, t = 1/12 + k and 5/12 + k. */
static void
test_sine_crossings (void)
{
  if (qd_registry_lookup ("sine") == NULL)
    {
      g_test_skip ("no Sine block");
      return;
    }
  for (int order = 0; order <= 3; order++)
    {
      QdDocument *doc = qd_document_new ();
      QdBlock *sine = qd_test_add_block (doc, "sine", "Sine");
      QdBlock *cross = qd_test_add_block (doc, "cross_detect", "Cross");
      QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
      char text[8];
      QdSimulation *sim;
      QdTrace *trace;
      /* The source is within dQ of the sine, so its crossings are
       * within dQ / |slope| (slope 2π cos(π/6) ≈ 5.4) of the sine's: the
       * quanta keep that below 1e-9 relative with a moderate number of
       * segments. Order 0 is a staircase whose crossings are its jumps,
       * within one step of the sine's: checked to 1e-3 only (1e-9 would
       * take 1e9 steps). */
      static const char *const dqs[] = { "1e-4", "1e-10", "1e-11", "1e-12" };
      const char *dq = dqs[order];
      double tol = order == 0 ? 1e-3 : REL_TOL;

      g_snprintf (text, sizeof text, "%d", order);
      qd_test_set_param (doc, sine, "order", text);
      qd_test_set_param (doc, sine, "dqmin", dq);
      qd_test_set_param (doc, sine, "dqrel", "0");
      qd_test_set_param (doc, cross, "level", "0.5");
      qd_test_set_param (doc, scope, "names", "c");
      qd_test_connect (doc, sine, 0, cross, 0);
      qd_test_connect (doc, cross, 0, scope, 0);
      qd_test_set_final_time (doc, 2.9);
      sim = qd_test_compile (doc);
      trace = qd_test_run_and_find (sim, "/Scope/c");
      g_assert_cmpuint (qd_trace_get_length (trace), ==, 6);
      for (guint i = 0; i < 6; i++)
        {
          double want = i / 2 + (i % 2 ? 5.0 / 12.0 : 1.0 / 12.0);
          double got = qd_trace_get (trace, i)->t;

          if (!(fabs (got - want) <= tol * want))
            g_error ("order %d: crossing at %.17g, expected %.17g", order,
                     got, want);
        }
      qd_simulation_free (sim);
      g_object_unref (doc);
    }
}

/* The bouncing ball: ẏ = v, v̇ = −g; when y falls through 0, v := −e·v.
 * A Cross Detect on y commands a sampler of v whose value, times −e,
 * resets v. From y(0) = h, the first impact is at t1 = sqrt(2h/g) and
 * each flight lasts e times the one before: 2 e^k t1. */
static void
test_bouncing_ball (gconstpointer data)
{
  const char *method = data;
  const double g = 9.81, h0 = 10.0, e = 0.8, final_time = 10.0;
  QdDocument *doc = qd_document_new ();
  QdBlock *grav = qd_test_add_block (doc, "constant", "Gravity");
  QdBlock *v = qd_test_add_block (doc, "integrator_reset", "v");
  QdBlock *y = qd_test_add_block (doc, "integrator", "y");
  QdBlock *cross = qd_test_add_block (doc, "cross_detect", "Ground");
  QdBlock *sampler = qd_test_add_block (doc, "commanded_sampler",
                                       "Impact speed");
  QdBlock *gain = qd_test_add_block (doc, "gain", "Restitution");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  QdSimulation *sim;
  QdTrace *bounces, *height;
  double t1 = sqrt (2.0 * h0 / g), want = t1, flight = 2.0 * e * t1;
  guint n = 0;

  qd_test_set_param (doc, grav, "value", "-9.81");
  qd_test_set_param (doc, y, "x0", "10");
  for (int i = 0; i < 2; i++)
    {
      QdBlock *integ = i ? y : v;

      qd_test_set_param (doc, integ, "method", method);
      qd_test_set_param (doc, integ, "dqmin", "1e-9");
      qd_test_set_param (doc, integ, "dqrel", "0");
    }
  qd_test_set_param (doc, cross, "level", "0");
  qd_test_set_param (doc, cross, "direction", "falling");
  qd_test_set_param (doc, gain, "k", "-0.8");
  qd_test_set_param (doc, scope, "n", "2");
  qd_test_set_param (doc, scope, "names", "bounce, y");
  qd_test_connect (doc, grav, 0, v, 0);
  qd_test_connect (doc, v, 0, y, 0);
  qd_test_connect (doc, y, 0, cross, 0);
  qd_test_connect (doc, cross, 0, sampler, 1);
  qd_test_connect (doc, v, 0, sampler, 0);
  qd_test_connect (doc, sampler, 0, gain, 0);
  qd_test_connect (doc, gain, 0, v, 1);
  qd_test_connect (doc, cross, 0, scope, 0);
  qd_test_connect (doc, y, 0, scope, 1);
  qd_test_set_final_time (doc, final_time);

  sim = qd_test_compile (doc);
  bounces = qd_test_run_and_find (sim, "/Scope/bounce");
  height = qd_test_run_and_find (sim, "/Scope/y");
  while (want < final_time)
    {
      double got;

      g_assert_cmpuint (n, <, qd_trace_get_length (bounces));
      got = qd_trace_get (bounces, n)->t;
      g_test_message ("%s bounce %u at %.12f, analytic %.12f", method, n + 1,
                      got, want);
      g_assert_cmpfloat (fabs (got - want), <=, 1e-6);
      n++;
      want += flight;
      flight *= e;
    }
  g_assert_cmpuint (qd_trace_get_length (bounces), ==, n);
  g_assert_cmpuint (n, ==, 7);
  /* The ball stays above the ground (to the quantum). */
  for (gsize i = 0; i < qd_trace_get_length (height); i++)
    g_assert_cmpfloat (qd_trace_get (height, i)->c[0], >=, -1e-6);
  qd_simulation_free (sim);
  g_object_unref (doc);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  g_test_add_func ("/hybrid/cross-detect", test_cross_detect);
  g_test_add_func ("/hybrid/cross-detect-jumps", test_cross_detect_jumps);
  g_test_add_func ("/hybrid/switch", test_switch);
  g_test_add_func ("/hybrid/saturation", test_saturation);
  g_test_add_func ("/hybrid/saturation-jumps", test_saturation_jumps);
  g_test_add_func ("/hybrid/hysteresis", test_hysteresis);
  g_test_add_func ("/hybrid/order0-jumps", test_order0_jumps);
  g_test_add_func ("/hybrid/quantizer", test_quantizer);
  g_test_add_func ("/hybrid/quantizer-jumps", test_quantizer_jumps);
  g_test_add_func ("/hybrid/comparator-sign", test_comparator_sign);
  g_test_add_func ("/hybrid/abs", test_abs);
  g_test_add_func ("/hybrid/sample-hold", test_sample_hold);
  g_test_add_func ("/hybrid/commanded-sampler", test_commanded_sampler);
  g_test_add_func ("/hybrid/checks", test_checks);
  g_test_add_func ("/hybrid/integrator-reset", test_integrator_reset);
  g_test_add_func ("/hybrid/sine-crossings", test_sine_crossings);
  g_test_add_data_func ("/hybrid/bouncing-ball/QSS3", "QSS3",
                        test_bouncing_ball);
  g_test_add_data_func ("/hybrid/bouncing-ball/QSS2", "QSS2",
                        test_bouncing_ball);

  return g_test_run ();
}

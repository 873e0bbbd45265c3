/* test-classic-fast.c: the classic solvers' fast paths against the DEVS
 * path they replace
 *
 * Under a classic solver the right-hand side runs as a flat program over
 * the blocks' order-0 evaluations (QdBlockFastPaths.eval0), and a step's
 * segments reach static blocks and sinks without the event loop
 * (qd-classic-rhs.c). With both turned off (qd_classic_set_fast_paths())
 * every block runs through its DEVS functions and every step through the
 * loop, as before them. The two must take the same steps, evaluate the
 * same right-hand sides and draw the same traces: on the LC line (all of
 * it flat and delivered directly), on a model that mixes flat blocks with
 * a hybrid block inside the right-hand side, and on every example.
 *
 * Runs of blocks of one type whose values lie at affine places go through
 * their type's eval0_affine as loops over arrays (qd-classic-rhs.c): the
 * LC line's sums; the same line broken by irregular blocks, with its
 * states in the opposite order to its sums (the run turned round), its
 * blocks shuffled; sums reading forwards and backwards at once feeding
 * gains; sums of the same weights other than 1 and −1; the
 * derivatives' finiteness test and the signs of zeros on chosen states;
 * and all of it again through the loops for processors without AVX2.
 */
#include "qd-test-util.h"

#include <math.h>
#include <string.h>

#include "qd-classic-rhs-private.h"
#include "qd-simulation-private.h"

typedef struct
{
  QdSimulation   *sim;
  QdClassicStats  stats;
  guint           n_flat;
  guint64         direct_steps;
  guint           n_affine;   /* blocks in affine runs */
  guint           affine_runs;
  guint           to_dy;      /* of them writing the derivatives */
  guint           calls;      /* per evaluation, to the blocks' code */
  guint           lone;       /* blocks alone writing a derivative */
  guint           extra;      /* blocks alone an affine run takes along */
  guint64         reused;     /* end derivatives from the solver's own f */
  char           *error;      /* the run's error, or NULL */
} Run;

static void
run_clear (Run *run)
{
  g_clear_pointer (&run->sim, qd_simulation_free);
  g_clear_pointer (&run->error, g_free);
}

static void
set_solver (QdDocument *doc,
            const char *solver)
{
  QdSettings settings = *qd_document_get_settings (doc);
  g_autoptr(GError) error = NULL;

  settings.solver = (char *) solver;
  if (strcmp (solver, "rk4") == 0)
    settings.h = 0.01;
  else
    settings.h = 0.0;
  g_assert_true (qd_document_set_settings (doc, &settings, &error));
  g_assert_no_error (error);
}

/* Runs @doc under its settings with the fast paths @fast; FALSE when it
 * does not compile (a model the classic solvers refuse). */
static gboolean
run_doc (QdDocument *doc,
         gboolean    fast,
         Run        *run)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  g_autoptr(GError) error = NULL;

  memset (run, 0, sizeof *run);
  run->sim = qd_simulation_new (doc, NULL, problems, &error);
  if (run->sim == NULL)
    return FALSE;
  qd_classic_set_fast_paths (run->sim, fast);
  if (qd_simulation_run (run->sim, &error) == QD_RUN_ERROR)
    run->error = g_strdup (error->message);
  g_assert_true (qd_simulation_get_classic_stats (run->sim, &run->stats));
  qd_classic_get_fast_counts (run->sim, &run->n_flat, &run->direct_steps);
  qd_classic_get_affine_counts (run->sim, &run->n_affine, &run->affine_runs,
                                &run->to_dy);
  run->reused = qd_classic_get_reused_ends (run->sim);
  run->calls = qd_classic_get_n_calls (run->sim);
  run->lone = qd_classic_get_n_lone (run->sim);
  run->extra = qd_classic_get_n_extra (run->sim);
  return TRUE;
}

/* The last segment of @trace at each time from @i on: the loop may give
 * a static block's output twice at one time (first on an input not yet
 * updated), the direct delivery once. Returns the index after it. */
static gsize
last_at_time (QdTrace *trace,
              gsize    i)
{
  gsize n = qd_trace_get_length (trace);

  while (i + 1 < n && qd_trace_get (trace, i + 1)->t == qd_trace_get (trace, i)->t)
    i++;
  return i;
}

/* Same solver counts, same traces: every segment, coefficient for
 * coefficient. */
static void
assert_same_runs (const Run *fast,
                  const Run *slow)
{
  GPtrArray *ft = qd_simulation_get_traces (fast->sim);
  GPtrArray *st = qd_simulation_get_traces (slow->sim);

  g_assert_cmpstr (fast->error, ==, slow->error);
  g_assert_cmpuint (fast->stats.steps, ==, slow->stats.steps);
  g_assert_cmpuint (fast->stats.failed_steps, ==, slow->stats.failed_steps);
  /* The fast path evaluates f once less per step whose end derivative
   * the solver's own last evaluation gave. */
  g_assert_cmpuint (fast->stats.rhs_evals + fast->reused, ==,
                    slow->stats.rhs_evals);
  g_assert_cmpuint (fast->stats.jac_evals, ==, slow->stats.jac_evals);
  g_assert_cmpuint (fast->stats.root_stops, ==, slow->stats.root_stops);
  g_assert_cmpuint (fast->stats.time_events, ==, slow->stats.time_events);
  g_assert_cmpuint (fast->stats.restarts, ==, slow->stats.restarts);
  g_assert_cmpuint (qd_simulation_get_integrator_steps (fast->sim), ==,
                    qd_simulation_get_integrator_steps (slow->sim));
  /* The slow path runs no block through eval0, nothing without the loop. */
  g_assert_cmpuint (slow->n_flat, ==, 0);
  g_assert_cmpuint (slow->n_affine, ==, 0);
  g_assert_cmpuint (slow->reused, ==, 0);
  g_assert_cmpuint (slow->direct_steps, ==, 0);

  /* Every block's outputs as a run that ended left them. */
  for (guint i = 0; fast->error == NULL && i < fast->sim->n_atomics; i++)
    for (guint s = fast->sim->out_base[i]; s < fast->sim->out_base[i + 1]; s++)
      {
        double t = qd_simulation_get_time (fast->sim);

        g_assert_cmpfloat (qd_signal_eval (&fast->sim->signals[s], t), ==,
                           qd_signal_eval (&slow->sim->signals[s], t));
      }

  g_assert_cmpuint (ft->len, ==, st->len);
  for (guint k = 0; k < ft->len; k++)
    {
      QdTrace *a = g_ptr_array_index (ft, k), *b = g_ptr_array_index (st, k);
      gsize i = 0, j = 0;

      g_assert_cmpstr (qd_trace_get_name (a), ==, qd_trace_get_name (b));
      while (i < qd_trace_get_length (a) && j < qd_trace_get_length (b))
        {
          const QdSignal *x, *y;

          i = last_at_time (a, i);
          j = last_at_time (b, j);
          x = qd_trace_get (a, i);
          y = qd_trace_get (b, j);
          g_assert_cmpfloat (x->t, ==, y->t);
          g_assert_cmpint (x->order, ==, y->order);
          for (int c = 0; c <= QD_MAX_ORDER; c++)
            g_assert_cmpfloat (x->c[c], ==, y->c[c]);
          i++;
          j++;
        }
      g_assert_cmpuint (i, ==, qd_trace_get_length (a));
      g_assert_cmpuint (j, ==, qd_trace_get_length (b));
    }
}

/* Runs @doc under @solver with the fast paths and without: the same
 * results, no error. */
static void
run_both (QdDocument *doc,
          const char *solver,
          Run        *fast,
          Run        *slow)
{
  set_solver (doc, solver);
  g_assert_true (run_doc (doc, TRUE, fast));
  g_assert_true (run_doc (doc, FALSE, slow));
  g_assert_null (fast->error);
  assert_same_runs (fast, slow);
}

/* ---- the LC line: all flat, delivered without the loop ----------------- */

/* How lcline_document_with() lays out the line. */
typedef enum
{
  LC_PLAIN,             /* dx1, x1, dx2, x2, ... as the bench builds it */
  LC_STATES_REVERSED,   /* dx1 ... dxN, then xN ... x1 */
  LC_SHUFFLED           /* all of them in an order drawn with a fixed seed */
} LcLayout;

/* ẋ1 = d − x2, ẋi = x(i−1) − x(i+1), ẋN = x(N−1), d a unit pulse on
 * [0, 1), as `qdevs-cli bench` builds it, its blocks made in the order of
 * @layout; Scopes on x1, xN and dx1. With @nl_at >= 0, dx(nl_at + 1) is
 * an NLFunction of the same value (a block of another type amid the
 * sums); from @weights_from on (>= 0), the sums weigh their second input
 * by −(1 + i/100), each its own; the others weigh theirs by @weights
 * (NULL: "1, -1"). */
static QdDocument *
lcline_document_with (guint       n,
                      LcLayout    layout,
                      gint        nl_at,
                      gint        weights_from,
                      const char *weights)
{
  QdDocument *doc = qd_document_new ();
  g_autofree QdBlock **x = g_new0 (QdBlock *, n);
  g_autofree QdBlock **dx = g_new0 (QdBlock *, n);
  g_autofree guint *order = g_new (guint, 2 * n);
  g_autoptr(GRand) rand = g_rand_new_with_seed (19);
  QdBlock *pulse = qd_test_add_block (doc, "pulse", "Pulse");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");

  qd_test_set_param (doc, pulse, "width", "1");
  qd_test_set_param (doc, scope, "n", "3");
  qd_test_set_param (doc, scope, "names", "x1, xN, dx1");
  /* order[m] < n: dx(order[m] + 1); otherwise x(order[m] − n + 1). */
  for (guint i = 0; i < n; i++)
    {
      order[2 * i] = i;
      order[2 * i + 1] = n + i;
    }
  if (layout == LC_STATES_REVERSED)
    for (guint i = 0; i < n; i++)
      {
        order[i] = i;
        order[n + i] = 2 * n - 1 - i;
      }
  else if (layout == LC_SHUFFLED)
    for (guint m = 2 * n - 1; m > 0; m--)
      {
        guint k = g_rand_int_range (rand, 0, m + 1), tmp = order[m];

        order[m] = order[k];
        order[k] = tmp;
      }
  for (guint m = 0; m < 2 * n; m++)
    {
      guint i = order[m] % n;
      g_autofree char *xn = g_strdup_printf ("x%u", i + 1);
      g_autofree char *dn = g_strdup_printf ("dx%u", i + 1);

      if (order[m] >= n)
        x[i] = qd_test_add_block (doc, "integrator", xn);
      else if ((gint) i == nl_at)
        {
          dx[i] = qd_test_add_block (doc, "nlfunction", dn);
          qd_test_set_param (doc, dx[i], "n", "2");
          qd_test_set_param (doc, dx[i], "expression", "u0 - u1");
        }
      else if (i + 1 == n)
        {
          dx[i] = qd_test_add_block (doc, "wsum", dn);
          qd_test_set_param (doc, dx[i], "n", "1");
          qd_test_set_param (doc, dx[i], "weights", "1");
        }
      else
        {
          g_autofree char *w = g_strdup_printf ("1, %.2f", -1.0 - i / 100.0);

          dx[i] = qd_test_add_block (doc, "wsum", dn);
          qd_test_set_param (doc, dx[i], "weights",
                             weights_from >= 0 && (gint) i >= weights_from
                             ? w : weights != NULL ? weights : "1, -1");
        }
    }
  for (guint i = 0; i < n; i++)
    {
      qd_test_connect (doc, dx[i], 0, x[i], 0);
      qd_test_connect (doc, i == 0 ? pulse : x[i - 1], 0, dx[i], 0);
      if (i + 1 < n)
        qd_test_connect (doc, x[i + 1], 0, dx[i], 1);
    }
  qd_test_connect (doc, x[0], 0, scope, 0);
  qd_test_connect (doc, x[n - 1], 0, scope, 1);
  qd_test_connect (doc, dx[0], 0, scope, 2);
  qd_test_set_final_time (doc, 10.0);
  return doc;
}

static QdDocument *
lcline_document (guint n)
{
  return lcline_document_with (n, LC_PLAIN, -1, -1, NULL);
}

static void
test_lcline (gconstpointer data)
{
  const char *solver = data;
  g_autoptr(QdDocument) doc = lcline_document (40);
  Run fast, slow;
  guint64 internal_fast, internal_slow;

  run_both (doc, solver, &fast, &slow);
  /* Every Weighted Sum through its eval0, every step without the loop
   * (only the first output, at the start, goes through it). */
  g_assert_cmpuint (fast.n_flat, ==, 40);
  g_assert_cmpuint (fast.direct_steps, ==, fast.stats.steps);
  /* dx2 ... dx39 in one loop writing the derivatives (dx1 reads the
   * Pulse, dx40 has one input). */
  g_assert_cmpuint (fast.n_affine, ==, 38);
  g_assert_cmpuint (fast.affine_runs, ==, 1);
  g_assert_cmpuint (fast.to_dy, ==, 38);
  /* dx1 and dx40, which fit no pattern, go along with the run, each
   * straight into its derivative: one call for all 40 sums. */
  g_assert_cmpuint (fast.lone, ==, 0);
  g_assert_cmpuint (fast.extra, ==, 2);
  g_assert_cmpuint (fast.calls, ==, 1);
  g_assert_cmpuint (fast.stats.steps, >, 10);
  /* Under RKF45 (last node 1/2) ARKStep's own f at each step's end gives
   * the segment's end derivative, but for the steps that end at a stop
   * time (where ARKStep evaluates none): the Pulse's events at t = 1 and
   * 2, and the end (Cash-Karp likewise); RK4 and forward Euler (last
   * node 1) and CVODE have none to give. */
  if (strcmp (solver, "rkf45") == 0 || strcmp (solver, "cash-karp") == 0)
    g_assert_cmpuint (fast.reused, ==, fast.stats.steps - 3);
  else
    g_assert_cmpuint (fast.reused, ==, 0);
  /* An Integrator's outputs counted as the loop counts them. */
  for (guint i = 0; i < qd_simulation_get_n_atomics (fast.sim); i++)
    if (qd_simulation_get_atomic (fast.sim, i)->type->flags & QD_BLOCK_INTEGRATOR)
      {
        qd_simulation_get_block_stats (fast.sim, i, &internal_fast, NULL);
        qd_simulation_get_block_stats (slow.sim, i, &internal_slow, NULL);
        g_assert_cmpuint (internal_fast, ==, internal_slow);
        g_assert_cmpuint (internal_fast, ==, fast.stats.steps + 1);
      }
  run_clear (&fast);
  run_clear (&slow);
}

/* ---- flat blocks around a hybrid one ----------------------------------- */

/* A damped pendulum whose torque saturates: θ' = ω,
 * ω' = −k·sin θ / (1 + 0.1·θ²) · 1 − c·ω·|…| + sat(u), with Gain, Sine,
 * Product, Division, NLFunction and Weighted Sum in the right-hand side
 * (flat) and a Saturation (a hybrid block, on the DEVS path) between
 * them, so that flat outputs must be written for it and its output read
 * back. A Scope on θ, ω and the Saturation. */
static QdDocument *
mixed_document (void)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *th = qd_test_add_block (doc, "integrator", "theta");
  QdBlock *om = qd_test_add_block (doc, "integrator", "omega");
  QdBlock *sn = qd_test_add_block (doc, "sin", "Sine");
  QdBlock *gain = qd_test_add_block (doc, "gain", "Gain");
  QdBlock *sq = qd_test_add_block (doc, "nlfunction", "Denominator");
  QdBlock *div = qd_test_add_block (doc, "division", "Division");
  QdBlock *prod = qd_test_add_block (doc, "product", "Product");
  QdBlock *sat = qd_test_add_block (doc, "saturation", "Saturation");
  QdBlock *sum = qd_test_add_block (doc, "wsum", "Sum");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");

  qd_test_set_param (doc, th, "x0", "2.5");
  qd_test_set_param (doc, gain, "k", "-4");
  qd_test_set_param (doc, sq, "expression", "1 + 0.1*u0^2");
  qd_test_set_param (doc, sum, "n", "3");
  qd_test_set_param (doc, sum, "weights", "1, -0.2, 1");
  qd_test_set_param (doc, sat, "lower", "-0.5");
  qd_test_set_param (doc, sat, "upper", "0.5");
  qd_test_set_param (doc, scope, "n", "3");
  qd_test_set_param (doc, scope, "names", "theta, omega, sat");
  qd_test_connect (doc, om, 0, th, 0);
  qd_test_connect (doc, th, 0, sn, 0);
  qd_test_connect (doc, sn, 0, gain, 0);
  qd_test_connect (doc, th, 0, sq, 0);
  qd_test_connect (doc, gain, 0, div, 0);
  qd_test_connect (doc, sq, 0, div, 1);
  qd_test_connect (doc, om, 0, prod, 0);
  qd_test_connect (doc, th, 0, prod, 1);
  qd_test_connect (doc, div, 0, sum, 0);
  qd_test_connect (doc, prod, 0, sum, 1);
  qd_test_connect (doc, gain, 0, sat, 0);
  qd_test_connect (doc, sat, 0, sum, 2);
  qd_test_connect (doc, sum, 0, om, 0);
  qd_test_connect (doc, th, 0, scope, 0);
  qd_test_connect (doc, om, 0, scope, 1);
  qd_test_connect (doc, sat, 0, scope, 2);
  qd_test_set_final_time (doc, 20.0);
  return doc;
}

static void
test_mixed (gconstpointer data)
{
  const char *solver = data;
  g_autoptr(QdDocument) doc = mixed_document ();
  Run fast, slow;

  run_both (doc, solver, &fast, &slow);
  /* Sine, Gain, NLFunction, Division, Product and Sum flat; the
   * Saturation's crossings need the loop. */
  g_assert_cmpuint (fast.n_flat, ==, 6);
  g_assert_cmpuint (fast.direct_steps, ==, 0);
  g_assert_cmpuint (fast.stats.root_stops, >, 0);
  run_clear (&fast);
  run_clear (&slow);
}

/* ---- affine runs -------------------------------------------------------- */

/* Fast against slow on @doc under @solver; the fast run's counts into
 * *@counts (n_affine, affine_runs, to_dy, lone, extra). */
static void
assert_same_affine (QdDocument *doc,
                    const char *solver,
                    guint      *counts)
{
  Run fast, slow;

  run_both (doc, solver, &fast, &slow);
  g_assert_cmpuint (fast.stats.steps, >, 10);
  counts[0] = fast.n_affine;
  counts[1] = fast.affine_runs;
  counts[2] = fast.to_dy;
  counts[3] = fast.lone;
  counts[4] = fast.extra;
  run_clear (&fast);
  run_clear (&slow);
}

/* The line's sums broken by an NLFunction at dx21, and from dx31 on
 * weighing each its own: dx2 ... dx20 (19), dx22 ... dx30 (9, the same
 * weights), dx31 ... dx39 (9, weights read with a stride). */
static void
test_affine_broken (gconstpointer data)
{
  g_autoptr(QdDocument) doc = lcline_document_with (40, LC_PLAIN, 20, 30, NULL);
  guint counts[5];

  assert_same_affine (doc, data, counts);
  g_assert_cmpuint (counts[0], ==, 19 + 9 + 9);
  g_assert_cmpuint (counts[1], ==, 3);
  g_assert_cmpuint (counts[2], ==, 19 + 9 + 9);
  /* dx21 alone (no eval0_run of another NLFunction beside it); dx1 and
   * dx40 with the first run. */
  g_assert_cmpuint (counts[3], ==, 1);
  g_assert_cmpuint (counts[4], ==, 2);
}

/* The states in the opposite order to the sums: the run reads them with
 * strides −1, is turned round, and still writes the derivatives itself.
 * dx1 joins it: the Pulse's value has the slot after the states, where
 * x0 would be (the run then reads the states in the slots). */
static void
test_affine_reversed (gconstpointer data)
{
  g_autoptr(QdDocument) doc = lcline_document_with (40, LC_STATES_REVERSED, -1, -1, NULL);
  guint counts[5];

  assert_same_affine (doc, data, counts);
  g_assert_cmpuint (counts[0], ==, 39);
  g_assert_cmpuint (counts[1], ==, 1);
  g_assert_cmpuint (counts[2], ==, 39);
  /* dx40, with the run, into its derivative. */
  g_assert_cmpuint (counts[3], ==, 0);
  g_assert_cmpuint (counts[4], ==, 1);
}

/* The same weights for every sum but not 1 and −1: the loop that
 * multiplies (ẋi = 0.5 x(i−1) − 2 x(i+1), an oscillation still). */
static void
test_affine_weighted (gconstpointer data)
{
  g_autoptr(QdDocument) doc = lcline_document_with (40, LC_PLAIN, -1, -1, "0.5, -2");
  guint counts[5];

  assert_same_affine (doc, data, counts);
  g_assert_cmpuint (counts[0], ==, 38);
  g_assert_cmpuint (counts[1], ==, 1);
  g_assert_cmpuint (counts[2], ==, 38);
}

/* Blocks in shuffled order: whatever runs it finds, the same results. */
static void
test_affine_shuffled (gconstpointer data)
{
  g_autoptr(QdDocument) doc = lcline_document_with (40, LC_SHUFFLED, -1, -1, NULL);
  guint counts[5];

  assert_same_affine (doc, data, counts);
  g_test_message ("shuffled: %u blocks in %u affine runs", counts[0], counts[1]);
  g_assert_cmpuint (counts[0], <=, 38);
}

/* @n blocks of @type named @prefix1 ... @prefixN, each with @param set to
 * @value when @param is not NULL. */
static QdBlock **
add_numbered (QdDocument *doc,
              const char *type,
              const char *prefix,
              guint       n,
              const char *param,
              const char *value)
{
  QdBlock **blocks = g_new0 (QdBlock *, n);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *name = g_strdup_printf ("%s%u", prefix, i + 1);

      blocks[i] = qd_test_add_block (doc, type, name);
      if (param != NULL)
        qd_test_set_param (doc, blocks[i], param, value);
    }
  return blocks;
}

/* Integrators x1 ... xN, xi starting at 0.1 i. */
static QdBlock **
add_integrators (QdDocument *doc,
                 guint       n)
{
  QdBlock **x = add_numbered (doc, "integrator", "x", n, NULL, NULL);

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *x0 = g_strdup_printf ("%g", 0.1 * (i + 1));

      qd_test_set_param (doc, x[i], "x0", x0);
    }
  return x;
}

/* ẋi = 0.8 (0.5 x(N+1−i) − xi): sums reading x forwards and backwards
 * (strides 1 and −1: not turned round, their loop with strides), into
 * gains that read the sums' outputs and write the derivatives. */
static void
test_affine_mirror (gconstpointer data)
{
  const guint n = 24;
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  g_autofree QdBlock **s = add_numbered (doc, "wsum", "s", n, "weights", "-1, 0.5");
  g_autofree QdBlock **g = add_numbered (doc, "gain", "g", n, "k", "0.8");
  g_autofree QdBlock **x = add_integrators (doc, n);
  guint counts[5];

  qd_test_set_param (doc, scope, "n", "2");
  for (guint i = 0; i < n; i++)
    {
      qd_test_connect (doc, x[i], 0, s[i], 0);
      qd_test_connect (doc, x[n - 1 - i], 0, s[i], 1);
      qd_test_connect (doc, s[i], 0, g[i], 0);
      qd_test_connect (doc, g[i], 0, x[i], 0);
    }
  qd_test_connect (doc, x[0], 0, scope, 0);
  qd_test_connect (doc, x[n - 1], 0, scope, 1);
  qd_test_set_final_time (doc, 5.0);

  assert_same_affine (doc, data, counts);
  g_assert_cmpuint (counts[0], ==, 2 * n);
  g_assert_cmpuint (counts[1], ==, 2);
  g_assert_cmpuint (counts[2], ==, n);
  g_assert_cmpuint (counts[3], ==, 0);
}

/* Gains taken along by their run: ẋi = 0.5 x(i+1) for i < 9 (a run of
 * eight into the derivatives), ẋ9 = 0.5 x1 (out of the pattern, which
 * would read x10: the run's extra block) and ẋ10 = 0.5 (x1 + x2) (its
 * Gain reads a sum f computes: it stays alone, after the program). */
static void
test_affine_extra (gconstpointer data)
{
  const guint n = 10;
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *sum = qd_test_add_block (doc, "wsum", "Sum");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  g_autofree QdBlock **g = add_numbered (doc, "gain", "g", n, "k", "0.5");
  g_autofree QdBlock **x = add_integrators (doc, n);
  guint counts[5];

  qd_test_set_param (doc, scope, "n", "2");
  for (guint i = 0; i < n; i++)
    qd_test_connect (doc, g[i], 0, x[i], 0);
  for (guint i = 0; i + 2 < n; i++)
    qd_test_connect (doc, x[i + 1], 0, g[i], 0);
  qd_test_connect (doc, x[0], 0, g[n - 2], 0);
  qd_test_connect (doc, x[0], 0, sum, 0);
  qd_test_connect (doc, x[1], 0, sum, 1);
  qd_test_connect (doc, sum, 0, g[n - 1], 0);
  qd_test_connect (doc, x[0], 0, scope, 0);
  qd_test_connect (doc, x[n - 2], 0, scope, 1);
  qd_test_set_final_time (doc, 3.0);

  assert_same_affine (doc, data, counts);
  g_assert_cmpuint (counts[0], ==, n - 2);
  g_assert_cmpuint (counts[1], ==, 1);
  g_assert_cmpuint (counts[2], ==, n - 2);
  g_assert_cmpuint (counts[3], ==, 1);
  g_assert_cmpuint (counts[4], ==, 1);
}

/* f of the LC line of @n states on chosen states, through the affine
 * run: the line's values; FALSE when a derivative is infinite or NaN,
 * TRUE when they are all finite though their sum overflows. With an odd
 * @n the run's last sums are a vector that overlaps the one before it:
 * the same values, and a derivative there that is not finite is found. */
static void
check_affine_finite (guint n)
{
  g_autoptr(QdDocument) doc = lcline_document (n);
  g_autofree double *y = g_new (double, n);
  g_autofree double *dy = g_new (double, n);
  QdSimulation *sim;
  guint n_affine, runs, to_dy, minus_zero = 0;

  set_solver (doc, "rkf45");
  sim = qd_simulation_new (doc, NULL, NULL, NULL);
  g_assert_nonnull (sim);
  g_assert_cmpint (qd_simulation_step (sim, 1, NULL), !=, QD_RUN_ERROR);
  qd_classic_get_affine_counts (sim, &n_affine, &runs, &to_dy);
  g_assert_cmpuint (n_affine, ==, n - 2);
  /* dx1 (fed by the Pulse) and dxN, at the two ends, with the run. */
  g_assert_cmpuint (qd_classic_get_n_lone (sim), ==, 0);
  g_assert_cmpuint (qd_classic_get_n_extra (sim), ==, 2);

  for (guint i = 0; i < n; i++)
    y[i] = 0.25 * i - 3.0;
  g_assert_true (qd_simulation_eval_classic_rhs (sim, 0.5, y, dy));
  /* d, the Pulse, is what the first step left it. */
  g_assert_true (dy[0] == 1.0 - y[1] || dy[0] == 0.0 - y[1]);
  for (guint i = 1; i + 1 < n; i++)
    g_assert_cmpfloat (dy[i], ==, y[i - 1] - y[i + 1]);
  g_assert_cmpfloat (dy[n - 1], ==, y[n - 2]);

  /* Derivatives of ±0.9e308 every 16 states: their sums overflow. */
  for (guint i = 0; i < n; i++)
    y[i] = i % 16 == 0 ? 0.9e308 : 0.0;
  g_assert_true (qd_simulation_eval_classic_rhs (sim, 0.5, y, dy));
  g_assert_cmpfloat (dy[17], ==, 0.9e308);
  g_assert_cmpfloat (dy[15], ==, -0.9e308);

  /* dx1 and dxN, written into dy alone, finite though their sum is not;
   * a NaN in the state dxN reads (and one of the run's sums). */
  y[1] = -0.9e308;
  y[n - 2] = 0.9e308;
  g_assert_true (qd_simulation_eval_classic_rhs (sim, 0.5, y, dy));
  g_assert_cmpfloat (dy[n - 1], ==, 0.9e308);
  g_assert_cmpfloat (dy[0], >=, 0.9e308);
  y[n - 2] = NAN;
  g_assert_false (qd_simulation_eval_classic_rhs (sim, 0.5, y, dy));
  g_assert_true (isnan (dy[n - 1]));
  y[1] = y[n - 2] = 0.0;

  /* One infinite (an overflow), one NaN, one infinite state. */
  y[50] = -0.9e308;
  y[52] = 0.9e308;
  g_assert_false (qd_simulation_eval_classic_rhs (sim, 0.5, y, dy));
  y[50] = y[52] = 0.0;
  y[70] = NAN;
  g_assert_false (qd_simulation_eval_classic_rhs (sim, 0.5, y, dy));
  y[70] = 0.0;
  y[98] = INFINITY;
  g_assert_false (qd_simulation_eval_classic_rhs (sim, 0.5, y, dy));
  y[98] = 0.0;
  g_assert_true (qd_simulation_eval_classic_rhs (sim, 0.5, y, dy));

  /* Zeros of both signs: the Weighted Sum's 0 + a − b, whose zero is
   * never −0, where a − b alone gives −0 for a = −0, b = +0. */
  for (guint i = 0; i < n; i++)
    y[i] = (i / 2) % 2 == 0 ? -0.0 : 0.0;
  g_assert_true (qd_simulation_eval_classic_rhs (sim, 0.5, y, dy));
  for (guint i = 1; i + 1 < n; i++)
    {
      volatile double zero = 0.0;

      g_assert_cmpint (signbit (dy[i]), ==, signbit ((zero + y[i - 1]) - y[i + 1]));
      g_assert_false (signbit (dy[i]));
      minus_zero += signbit (y[i - 1] - y[i + 1]) != 0;
    }
  g_assert_cmpuint (minus_zero, >=, n / 4);

  /* The run's last sum alone not finite, then all finite again. */
  for (guint i = 0; i < n; i++)
    y[i] = 0.5 * i - 7.0;
  y[n - 1] = NAN;
  g_assert_false (qd_simulation_eval_classic_rhs (sim, 0.5, y, dy));
  y[n - 1] = -INFINITY;
  g_assert_false (qd_simulation_eval_classic_rhs (sim, 0.5, y, dy));
  y[n - 1] = 1.0;
  g_assert_true (qd_simulation_eval_classic_rhs (sim, 0.5, y, dy));
  for (guint i = 1; i + 1 < n; i++)
    g_assert_cmpfloat (dy[i], ==, y[i - 1] - y[i + 1]);
  qd_simulation_free (sim);
}

/* Two states whose derivatives are blocks alone, a Weighted Sum that
 * reads the Pulse and a Gain: ẋ1 = d − x2, ẋ2 = 1.5 x1. Written straight
 * into dy, the same results as through the DEVS functions; a derivative
 * that is not finite is found, two finite ones whose sum overflows are
 * not taken for one. */
static void
test_lone (gconstpointer data)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  QdBlock *pulse = qd_test_add_block (doc, "pulse", "Pulse");
  QdBlock *dx1 = qd_test_add_block (doc, "wsum", "dx1");
  QdBlock *dx2 = qd_test_add_block (doc, "gain", "dx2");
  QdBlock *x1 = qd_test_add_block (doc, "integrator", "x1");
  QdBlock *x2 = qd_test_add_block (doc, "integrator", "x2");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");
  double y[2], dy[2];
  Run fast, slow;

  qd_test_set_param (doc, pulse, "width", "1");
  qd_test_set_param (doc, dx1, "weights", "1, -1");
  qd_test_set_param (doc, dx2, "k", "1.5");
  qd_test_set_param (doc, x1, "x0", "0.25");
  qd_test_set_param (doc, scope, "n", "2");
  qd_test_connect (doc, pulse, 0, dx1, 0);
  qd_test_connect (doc, x2, 0, dx1, 1);
  qd_test_connect (doc, dx1, 0, x1, 0);
  qd_test_connect (doc, x1, 0, dx2, 0);
  qd_test_connect (doc, dx2, 0, x2, 0);
  qd_test_connect (doc, x1, 0, scope, 0);
  qd_test_connect (doc, x2, 0, scope, 1);
  qd_test_set_final_time (doc, 5.0);
  run_both (doc, data, &fast, &slow);
  g_assert_cmpuint (fast.stats.steps, >, 10);
  g_assert_cmpuint (fast.lone, ==, 2);
  g_assert_cmpuint (fast.n_affine, ==, 0);
  g_assert_cmpuint (fast.calls, ==, 2);
  run_clear (&fast);
  run_clear (&slow);

  /* One step on, the solver set up and the blocks not yet ended. */
  fast.sim = qd_simulation_new (doc, NULL, NULL, NULL);
  g_assert_nonnull (fast.sim);
  g_assert_cmpint (qd_simulation_step (fast.sim, 1, NULL), !=, QD_RUN_ERROR);
  y[0] = 0.5;
  y[1] = 2.0;
  g_assert_true (qd_simulation_eval_classic_rhs (fast.sim, 0.5, y, dy));
  g_assert_true (dy[0] == 1.0 - 2.0 || dy[0] == 0.0 - 2.0);
  g_assert_cmpfloat (dy[1], ==, 0.75);
  y[1] = NAN;
  g_assert_false (qd_simulation_eval_classic_rhs (fast.sim, 0.5, y, dy));
  y[1] = 2.0;
  y[0] = 1.5e308;
  g_assert_false (qd_simulation_eval_classic_rhs (fast.sim, 0.5, y, dy));
  g_assert_true (isinf (dy[1]));
  /* 0.9e308 and 1.35e308: finite, their sum is not. */
  y[0] = 0.9e308;
  y[1] = -0.9e308;
  g_assert_true (qd_simulation_eval_classic_rhs (fast.sim, 0.5, y, dy));
  g_assert_cmpfloat (dy[0], >=, 0.9e308);
  g_assert_cmpfloat (dy[1], ==, 1.5 * 0.9e308);
  run_clear (&fast);
}

static void
test_affine_finite (void)
{
  check_affine_finite (100);
  check_affine_finite (101);
}

/* The loops for the baseline instruction set, which a processor with AVX2
 * leaves aside: the same results (the LC line's sums, sums that
 * multiply, gains) and the same finiteness test. */
static void
test_affine_baseline (void)
{
#ifdef QD_HAVE_AVX2
  qd_fast_avx2_off = TRUE;
  test_lcline ("rkf45");
  test_affine_weighted ("rkf45");
  test_affine_mirror ("rkf45");
  test_affine_extra ("rkf45");
  test_affine_finite ();
  qd_fast_avx2_off = FALSE;
#else
  g_test_skip ("the baseline loops are the only ones");
#endif
}

/* ---- every example ------------------------------------------------------ */

static void
test_examples (gconstpointer data)
{
  const char *solver = data;
  g_autofree char *dir = qd_test_source_path ("data", "examples", NULL);
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;
  guint ran = 0, flat = 0, direct = 0;

  g_assert_nonnull (d);
  while ((name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr(QdDocument) doc = NULL;
      g_autoptr(GError) error = NULL;
      Run fast, slow;

      if (!g_str_has_suffix (name, ".qdevs"))
        continue;
      doc = qd_document_load (path, &error);
      g_assert_no_error (error);
      set_solver (doc, solver);
      if (!run_doc (doc, TRUE, &fast))
        continue;     /* refused by the classic solvers */
      g_test_message ("%s: %s", name, fast.error != NULL ? fast.error : "ok");
      g_assert_true (run_doc (doc, FALSE, &slow));
      assert_same_runs (&fast, &slow);
      ran++;
      flat += fast.n_flat > 0;
      direct += fast.direct_steps > 0;
      run_clear (&fast);
      run_clear (&slow);
    }
  g_assert_cmpuint (ran, >=, 10);
  g_assert_cmpuint (flat, >=, 10);
  g_assert_cmpuint (direct, >=, 3);
}

/* ---- stepping ----------------------------------------------------------- */

static void
count_entry (const QdLogEntry *entry,
             gpointer          user_data)
{
  (*(guint64 *) user_data)++;
}

/* Each block's internal and external transitions in the log, into
 * @user_data (2 per block). */
static void
count_block_entry (const QdLogEntry *entry,
                   gpointer          user_data)
{
  guint64 *counts = user_data;

  if (entry->kind == QD_LOG_INTERNAL)
    counts[2 * entry->block]++;
  else if (entry->kind == QD_LOG_EXTERNAL)
    counts[2 * entry->block + 1]++;
}

/* qd_simulation_step() of @doc, as many solver steps as it takes, with an
 * event log (every step through the loop) or without (the fast paths): its
 * status, clock and counts. */
static QdRunStatus
step_doc (QdDocument *doc,
          gboolean    logged,
          double     *time,
          guint64    *events,
          guint64    *transitions)
{
  g_autoptr(GError) error = NULL;
  QdSimulation *sim = qd_simulation_new (doc, NULL, NULL, &error);
  guint64 logged_rows = 0;
  QdRunStatus status;

  g_assert_no_error (error);
  if (logged)
    qd_simulation_set_event_log (sim, count_entry, &logged_rows);
  status = qd_simulation_step (sim, 20000, &error);
  g_assert_no_error (error);
  *time = qd_simulation_get_time (sim);
  *events = qd_simulation_get_events (sim);
  *transitions = qd_simulation_get_transitions (sim);
  if (logged)
    g_assert_cmpuint (logged_rows, >, *events);
  qd_simulation_free (sim);
  return status;
}

/* Stepping ends alike with the steps delivered directly and with every
 * step through the event loop: the clock at the last step's events, and
 * the counts the run's, as the loop publishes them. Forward Euler's
 * stability example (h = 0.21 to t = 5: 24 steps, the last from 4.83 to
 * 5): delivered directly, the clock read 4.62 and the events 48, the
 * published values of one step before. */
static void
test_step_counts (void)
{
  g_autofree char *path = qd_test_source_path ("data", "examples",
                                               "euler-stability.qdevs", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) doc = qd_document_load (path, &error);
  double t_fast, t_logged;
  guint64 events_fast, events_logged, transitions_fast, transitions_logged;

  g_assert_no_error (error);
  g_assert_cmpint (step_doc (doc, FALSE, &t_fast, &events_fast, &transitions_fast),
                   ==, QD_RUN_DONE);
  g_assert_cmpint (step_doc (doc, TRUE, &t_logged, &events_logged, &transitions_logged),
                   ==, QD_RUN_DONE);
  g_assert_cmpfloat (t_fast, ==, t_logged);
  g_assert_cmpfloat_with_epsilon (t_fast, 23 * 0.21, 1e-12);
  g_assert_cmpuint (events_fast, ==, events_logged);
  g_assert_cmpuint (events_fast, ==, 2 * 25);
  g_assert_cmpuint (transitions_fast, ==, transitions_logged);
}

/* A run of @doc to its end, with an event log when @logged: its clock,
 * events, transitions and steps delivered without the loop; each block's
 * internal and external transitions (2 per block, *@n blocks), and with
 * a log, *@rows, those the log reports. */
static guint64 *
run_counted (QdDocument  *doc,
             gboolean     logged,
             double      *time,
             guint64     *events,
             guint64     *transitions,
             guint64     *direct_steps,
             guint       *n,
             guint64    **rows)
{
  g_autoptr(GError) error = NULL;
  QdSimulation *sim = qd_simulation_new (doc, NULL, NULL, &error);
  guint64 *counts;
  guint n_flat;

  g_assert_no_error (error);
  *n = qd_simulation_get_n_atomics (sim);
  counts = g_new0 (guint64, 2 * *n);
  *rows = logged ? g_new0 (guint64, 2 * *n) : NULL;
  if (logged)
    qd_simulation_set_event_log (sim, count_block_entry, *rows);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
  *time = qd_simulation_get_time (sim);
  *events = qd_simulation_get_events (sim);
  *transitions = qd_simulation_get_transitions (sim);
  for (guint i = 0; i < *n; i++)
    qd_simulation_get_block_stats (sim, i, &counts[2 * i], &counts[2 * i + 1]);
  qd_classic_get_fast_counts (sim, &n_flat, direct_steps);
  qd_simulation_free (sim);
  return counts;
}

/* A run with an event log is the run without one, under a classic solver
 * too: its steps delivered without the loop report the transitions they
 * count (each static block once a step), rather than going through the
 * loop, which takes more (the examples here used to count up to a third
 * more events with a log). */
static void
test_logged (gconstpointer data)
{
  static const char *const examples[] = { "lotka-volterra.qdevs",
                                          "transmission-line.qdevs",
                                          "second-order.qdevs" };

  for (guint x = 0; x < G_N_ELEMENTS (examples); x++)
    {
      g_autofree char *path = qd_test_source_path ("data", "examples",
                                                   examples[x], NULL);
      g_autoptr(GError) error = NULL;
      g_autoptr(QdDocument) doc = qd_document_load (path, &error);
      g_autofree guint64 *plain = NULL, *logged = NULL, *rows = NULL, *none = NULL;
      double t_plain, t_logged;
      guint64 e_plain, e_logged, tr_plain, tr_logged, d_plain, d_logged;
      guint n, n_logged;

      g_assert_no_error (error);
      set_solver (doc, data);
      plain = run_counted (doc, FALSE, &t_plain, &e_plain, &tr_plain, &d_plain,
                           &n, &none);
      logged = run_counted (doc, TRUE, &t_logged, &e_logged, &tr_logged,
                            &d_logged, &n_logged, &rows);
      g_test_message ("%s: %" G_GUINT64_FORMAT " events, %" G_GUINT64_FORMAT
                      " steps delivered directly", examples[x], e_plain, d_plain);
      g_assert_cmpuint (d_plain, >, 0);
      g_assert_cmpuint (d_logged, ==, d_plain);
      g_assert_cmpfloat (t_logged, ==, t_plain);
      g_assert_cmpuint (e_logged, ==, e_plain);
      g_assert_cmpuint (tr_logged, ==, tr_plain);
      g_assert_cmpuint (n_logged, ==, n);
      g_assert_true (memcmp (logged, plain, 2 * n * sizeof (guint64)) == 0);
      g_assert_true (memcmp (rows, plain, 2 * n * sizeof (guint64)) == 0);
    }
}

int
main (int    argc,
      char **argv)
{
  static const char *const solvers[] = { "rkf45", "cvode-bdf", "rk4",
                                         "cash-karp", "euler" };
  /* Each test under the first solvers: the affine ones under the first
   * two, every one under RKF45, BDF and RK4, the LC line and the mixed
   * model under Cash-Karp (last node 7/8: ARKStep evaluates f at each
   * step's end) and adaptive forward Euler (its embedding's last node
   * is 1: it does not) too. */
  static const struct
  {
    const char     *path;
    GTestDataFunc   func;
    guint           n_solvers;
  } tests[] = {
    { "lcline", test_lcline, 5 },
    { "mixed", test_mixed, 5 },
    { "examples", test_examples, 3 },
    { "affine/broken", test_affine_broken, 2 },
    { "affine/reversed", test_affine_reversed, 2 },
    { "affine/shuffled", test_affine_shuffled, 2 },
    { "affine/weighted", test_affine_weighted, 2 },
    { "affine/mirror", test_affine_mirror, 2 },
    { "affine/extra", test_affine_extra, 2 },
    { "lone", test_lone, 2 },
    { "logged", test_logged, 3 },
  };

  g_test_init (&argc, &argv, NULL);
  qd_init ();
  for (guint t = 0; t < G_N_ELEMENTS (tests); t++)
    for (guint i = 0; i < tests[t].n_solvers; i++)
      {
        g_autofree char *path = g_strdup_printf ("/classic-fast/%s/%s",
                                                 tests[t].path, solvers[i]);

        g_test_add_data_func (path, solvers[i], tests[t].func);
      }
  g_test_add_func ("/classic-fast/affine/finite", test_affine_finite);
  g_test_add_func ("/classic-fast/affine/baseline", test_affine_baseline);
  g_test_add_func ("/classic-fast/step-counts", test_step_counts);
  return g_test_run ();
}

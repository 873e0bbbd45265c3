/* qd-reference-lcline-classic.c: the LC line's right-hand side by hand,
 * and ARKODE's RKF45 driving it (qd-reference-lcline-classic.h)
 *
 * What the engine does on top of this is the price of running the
 * diagram: every RHS evaluation goes through the blocks' own functions,
 * and every step is stored as a segment. The driver here does what the
 * engine asks of ARKODE and nothing more: the same table, tolerances and
 * stop at t = 1, in one call per span (ARK_NORMAL), through
 * ARKStep as the engine.
 */
#include <stdio.h>
#include <string.h>

#include <arkode/arkode_arkstep.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>

#include "qd-bench-timing.h"
#include "qd-reference-line.h"
#include "qd-reference-lcline-classic.h"

void
qd_ref_lcline_rhs (double        t,
                   const double *x,
                   double       *dx,
                   guint         n)
{
  double d = t >= 0.0 && t < 1.0 ? 1.0 : 0.0;

  if (n == 1)
    {
      dx[0] = d;
      return;
    }
  dx[0] = d - x[1];
  for (guint i = 1; i + 1 < n; i++)
    dx[i] = x[i - 1] - x[i + 1];
  dx[n - 1] = x[n - 2];
}

typedef struct
{
  guint   n;
  guint64 evals;
  double  t_edge;     /* the span's side of the pulse edge */
} Line;

static int
rhs (sunrealtype  t,
     N_Vector     y,
     N_Vector     ydot,
     void        *data)
{
  Line *line = data;

  line->evals++;
  /* Within a span d is that span's constant, as the diagram's Pulse
   * holds its value between its events. */
  qd_ref_lcline_rhs (line->t_edge, N_VGetArrayPointer (y),
                     N_VGetArrayPointer (ydot), line->n);
  return 0;
}

/* The RHS alone, @calls times, on a state like the run's: ns per call. */
static double
time_rhs (guint   n,
          guint64 calls)
{
  g_autofree double *x = qd_ref_initial_states (n, TRUE);
  g_autofree double *dx = g_new0 (double, n);
  double start = qd_bench_cpu_time ();
  volatile double sink = 0.0;

  for (guint64 c = 0; c < calls; c++)
    {
      qd_ref_lcline_rhs (0.5, x, dx, n);
      /* Feed the result back so that no call can be left out. */
      x[c % n] += 1e-300 * dx[(c + 1) % n];
    }
  sink = dx[n / 2];
  (void) sink;
  return calls > 0 ? (qd_bench_cpu_time () - start) * 1e9 / (double) calls : 0.0;
}

gboolean
qd_ref_lcline_rkf45 (guint               n,
                     gboolean            random_start,
                     double              rtol,
                     double              atol,
                     double              until,
                     QdRefClassicResult *result)
{
  SUNContext ctx = NULL;
  N_Vector y = NULL;
  void *mem = NULL;
  Line line = { n, 0, 0.0 };
  g_autofree double *x0 = qd_ref_initial_states (n, random_start);
  double spans[2] = { MIN (1.0, until), until };
  double t = 0.0, start;
  long steps = 0, attempts = 0;
  int flag = 0;

  memset (result, 0, sizeof *result);
  if (SUNContext_Create (NULL, &ctx) != 0)
    return FALSE;
  y = N_VNew_Serial ((sunindextype) n, ctx);
  memcpy (N_VGetArrayPointer (y), x0, n * sizeof (double));

  start = qd_bench_cpu_time ();
  /* ARKStep, the module the engine drives, with the same table. */
  mem = ARKStepCreate (rhs, NULL, 0.0, y, ctx);
  flag |= ARKStepSetTableNum (mem, ARKODE_DIRK_NONE, ARKODE_FEHLBERG_6_4_5);
  flag |= ARKStepSStolerances (mem, rtol, atol);
  flag |= ARKStepSetUserData (mem, &line);
  flag |= ARKStepSetMaxNumSteps (mem, -1);
  for (guint s = 0; s < 2 && flag >= 0 && t < until; s++)
    {
      line.t_edge = s == 0 ? 0.5 : 1.5;
      if (s > 0)
        {
          long n_steps = 0, n_attempts = 0;

          /* A re-initialisation zeroes the counters: keep the span's. */
          ARKStepGetNumSteps (mem, &n_steps);
          ARKStepGetNumStepAttempts (mem, &n_attempts);
          steps += n_steps;
          attempts += n_attempts;
          flag = ARKStepReInit (mem, rhs, NULL, t, y);
        }
      if (flag >= 0)
        flag = ARKStepSetStopTime (mem, spans[s]);
      if (flag >= 0)
        flag = ARKStepEvolve (mem, spans[s], y, &t, ARK_NORMAL);
    }
  result->cpu_s = qd_bench_cpu_time () - start;
  {
    long n_steps = 0, n_attempts = 0;

    ARKStepGetNumSteps (mem, &n_steps);
    ARKStepGetNumStepAttempts (mem, &n_attempts);
    steps += n_steps;
    attempts += n_attempts;
  }
  if (flag < 0)
    g_snprintf (result->message, sizeof result->message,
                "ARKODE failed (flag %d) at t = %g", flag, t);
  result->steps = (guint64) steps;
  result->failed = attempts > steps ? (guint64) (attempts - steps) : 0;
  result->rhs_evals = line.evals;
  ARKStepFree (&mem);
  N_VDestroy (y);
  SUNContext_Free (&ctx);
  result->rhs_ns = time_rhs (n, MAX (line.evals, 1000));
  return flag >= 0;
}

/* qd-reference-lcline-classic.c: the LC line's right-hand side by hand,
 * and SUNDIALS driving it (qd-reference-lcline-classic.h): ARKODE's RKF45
 * and CVODE's BDF
 *
 * What the engine does on top of this is the price of running the
 * diagram: every RHS evaluation goes through the blocks' own functions,
 * and every step is stored as a segment. The driver here does what the
 * engine asks of SUNDIALS and nothing more: the same method, tolerances
 * (and for BDF the same dense linear solver with a finite-difference
 * Jacobian) and restart at t = 1, in one call per span (ARK_NORMAL,
 * CV_NORMAL), through ARKStep and CVODE as the engine.
 */
#include <stdio.h>
#include <string.h>

#include <arkode/arkode_arkstep.h>
#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "qd-bench-timing.h"
#include "qd-reference-line.h"
#include "qd-reference-lcline-classic.h"

/* Built as QD_REF_RHS_BUILD says. */
QD_REF_RHS_BUILD void
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

double
qd_ref_lcline_time_rhs (double  *x,
                        double  *dx,
                        guint    n,
                        guint64  calls)
{
  double ns;

  QD_BENCH_TIME_RHS (ns, qd_ref_lcline_rhs (0.5, x, dx, n), x, dx, n, calls);
  return ns;
}

/* What the spans' loop needs of CVODE or ARKStep. */
typedef struct
{
  /* Accepted and failed steps since the last (re)initialisation. */
  void (*counts)  (void *mem, long *steps, long *failed);
  int  (*reinit)  (void *mem, double t, N_Vector y);
  /* On to @tout, stopping exactly there. */
  int  (*advance) (void *mem, double tout, N_Vector y, double *t);
} Driver;

static void
cvode_counts (void *mem,
              long *steps,
              long *failed)
{
  CVodeGetNumSteps (mem, steps);
  CVodeGetNumErrTestFails (mem, failed);
}

static int
cvode_reinit (void     *mem,
              double    t,
              N_Vector  y)
{
  return CVodeReInit (mem, t, y);
}

static int
cvode_advance (void     *mem,
               double    tout,
               N_Vector  y,
               double   *t)
{
  int flag = CVodeSetStopTime (mem, tout);

  return flag < 0 ? flag : CVode (mem, tout, y, t, CV_NORMAL);
}

static void
ark_counts (void *mem,
            long *steps,
            long *failed)
{
  long attempts = 0;

  ARKStepGetNumSteps (mem, steps);
  ARKStepGetNumStepAttempts (mem, &attempts);
  *failed = attempts > *steps ? attempts - *steps : 0;
}

static int
ark_reinit (void     *mem,
            double    t,
            N_Vector  y)
{
  return ARKStepReInit (mem, rhs, NULL, t, y);
}

static int
ark_advance (void     *mem,
             double    tout,
             N_Vector  y,
             double   *t)
{
  int flag = ARKStepSetStopTime (mem, tout);

  return flag < 0 ? flag : ARKStepEvolve (mem, tout, y, t, ARK_NORMAL);
}

static const Driver cvode_driver = { cvode_counts, cvode_reinit, cvode_advance };
static const Driver ark_driver = { ark_counts, ark_reinit, ark_advance };

/* The two spans, [0, 1) with the pulse on and the rest, with a restart
 * between as the engine's at the pulse's edge; the counts into
 * @result. */
static int
run_spans (const Driver       *driver,
           void               *mem,
           Line               *line,
           N_Vector            y,
           const double       *spans,
           double              until,
           QdRefClassicResult *result)
{
  double t = 0.0;
  long steps = 0, failed = 0, n_steps = 0, n_failed = 0;
  int flag = 0;

  for (guint s = 0; s < 2 && flag >= 0 && t < until; s++)
    {
      line->t_edge = s == 0 ? 0.5 : 1.5;
      if (s > 0)
        {
          /* A re-initialisation zeroes the counters: keep the span's. */
          driver->counts (mem, &n_steps, &n_failed);
          steps += n_steps;
          failed += n_failed;
          flag = driver->reinit (mem, t, y);
        }
      if (flag >= 0)
        flag = driver->advance (mem, spans[s], y, &t);
    }
  driver->counts (mem, &n_steps, &n_failed);
  result->steps = (guint64) (steps + n_steps);
  result->failed = (guint64) (failed + n_failed);
  return flag;
}

/* CVODE BDF, as the engine's "cvode-bdf". */
static int
run_bdf (Line               *line,
         N_Vector            y,
         double              rtol,
         double              atol,
         const double       *spans,
         double              until,
         SUNContext          ctx,
         QdRefClassicResult *result)
{
  SUNMatrix A = SUNDenseMatrix ((sunindextype) line->n, (sunindextype) line->n, ctx);
  SUNLinearSolver ls = SUNLinSol_Dense (y, A, ctx);
  void *mem = CVodeCreate (CV_BDF, ctx);
  int flag = 0;

  flag |= CVodeInit (mem, rhs, 0.0, y);
  flag |= CVodeSetUserData (mem, line);
  flag |= CVodeSStolerances (mem, rtol, atol);
  flag |= CVodeSetLinearSolver (mem, ls, A);
  flag |= CVodeSetMaxNumSteps (mem, -1);
  if (flag >= 0)
    flag = run_spans (&cvode_driver, mem, line, y, spans, until, result);
  CVodeFree (&mem);
  SUNLinSolFree (ls);
  SUNMatDestroy (A);
  return flag;
}

/* ARKStep Fehlberg, as the engine's "rkf45". */
static int
run_rkf45 (Line               *line,
           N_Vector            y,
           double              rtol,
           double              atol,
           const double       *spans,
           double              until,
           SUNContext          ctx,
           QdRefClassicResult *result)
{
  void *mem = ARKStepCreate (rhs, NULL, 0.0, y, ctx);
  int flag = 0;

  /* ARKStep, the module the engine drives, with the same table. */
  flag |= ARKStepSetTableNum (mem, ARKODE_DIRK_NONE, ARKODE_FEHLBERG_6_4_5);
  flag |= ARKStepSStolerances (mem, rtol, atol);
  flag |= ARKStepSetUserData (mem, line);
  flag |= ARKStepSetMaxNumSteps (mem, -1);
  if (flag >= 0)
    flag = run_spans (&ark_driver, mem, line, y, spans, until, result);
  ARKStepFree (&mem);
  return flag;
}

gboolean
qd_ref_lcline_classic (const char         *method,
                       guint               n,
                       gboolean            random_start,
                       double              rtol,
                       double              atol,
                       double              until,
                       QdRefClassicResult *result)
{
  SUNContext ctx = NULL;
  N_Vector y = NULL;
  Line line = { n, 0, 0.0 };
  g_autofree double *x0 = qd_ref_initial_states (n, random_start);
  double spans[2] = { MIN (1.0, until), until };
  gboolean bdf = g_strcmp0 (method, "cvode-bdf") == 0;
  double start;
  int flag;

  memset (result, 0, sizeof *result);
  if (!bdf && g_strcmp0 (method, "rkf45") != 0)
    return FALSE;
  if (SUNContext_Create (NULL, &ctx) != 0)
    return FALSE;
  y = N_VNew_Serial ((sunindextype) n, ctx);
  memcpy (N_VGetArrayPointer (y), x0, n * sizeof (double));

  start = qd_bench_cpu_time ();
  flag = (bdf ? run_bdf : run_rkf45) (&line, y, rtol, atol, spans, until,
                                      ctx, result);
  result->cpu_s = qd_bench_cpu_time () - start;
  if (flag < 0)
    g_snprintf (result->message, sizeof result->message,
                "SUNDIALS failed (flag %d)", flag);
  result->rhs_evals = line.evals;
  N_VDestroy (y);
  SUNContext_Free (&ctx);
  return flag >= 0;
}

/* qd-classic.c: a classic ODE solver (SUNDIALS CVODE or ARKODE) as the way
 * the Integrators of a diagram advance
 *
 * The DEVS event loop stays the driver of everything discrete; the solver
 * replaces only the Integrators' quantized-state methods:
 *
 *   - The state vector y holds every Integrator's x. The right-hand side
 *     f(t, y) sets each Integrator's output to y_i (an order-0 segment at
 *     t), runs the blocks between the Integrators' outputs and their
 *     derivative inputs in dependency order through their own functions
 *     (a static block's lambda; any other direct-feedthrough block, such
 *     as a Switch or a Saturation, an external transition on its inputs
 *     and, when that makes an output due, its lambda, with its state
 *     copied before and put back after, so the evaluation leaves no
 *     trace in it), and reads each Integrator's derivative input at t.
 *
 *   - The solver takes one step at a time, never past the next event of
 *     the rest of the model (a source's breakpoint, a sampler, a queue:
 *     the event loop's next time is the solver's stop time), so time
 *     events happen exactly. The accepted step [t0, t1] becomes, for
 *     each Integrator, the cubic Hermite segment through y and y' at both
 *     ends, which the Integrator emits at t0 as an ordinary event: the
 *     static blocks, the hybrid blocks and the sinks receive it as they
 *     would a QSS3 output, so traces draw the solver's own dense output
 *     and the event markers show its steps.
 *
 *   - A hybrid block with crossing levels (a Comparator, a Switch...,
 *     driven by the Integrators through blocks that are functions of
 *     their inputs) has them as root functions of the solver
 *     (qd-classic-roots.c): the solver ends the step at a sign change,
 *     located to its root tolerance on its own interpolant, and the
 *     block's internal transition happens there; when it reaches an
 *     Integrator (a switched derivative, a reset), the solver restarts.
 *
 *   - Any other block that receives the segments (and every hybrid block
 *     under the ARKODE tables of order below 4, see
 *     qd_classic_prepare()) finds its crossings on them as under QSS
 *     (the crossing of a polynomial, to rounding); the events of the
 *     loop inside (t0, t1) then run in order. When one of them reaches
 *     an Integrator, the step is cut there: y is taken from the segments
 *     at that time, resets applied, and the solver restarts. Such a
 *     crossing is located on the cubic Hermite segment, whose error is
 *     that of the step's ends plus the segment's own (h^4). Either way
 *     the integration never steps across a discontinuity it has seen.
 *
 * An Integrator type (QD_BLOCK_INTEGRATOR) is driven through its
 * descriptor's conventions: its parameter "x0" is the initial state,
 * input 0 the derivative, and an event on any other input sets the state
 * to the event's value.
 */
#include <glib/gi18n-lib.h>
#include <float.h>
#include <math.h>
#include <string.h>

#include <arkode/arkode_arkstep.h>
#include <cvode/cvode.h>
#include <nvector/nvector_serial.h>
#include <sundials/sundials_context.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunmatrix/sunmatrix_dense.h>

#include "qd-classic-private.h"
#include "qd-classic-roots.h"
#include "qd-classic-rhs-private.h"
#include "qd-simulation-private.h"

/* The most states an implicit method runs with its dense Jacobian (800
 * MB). */
#define QD_CLASSIC_MAX_DENSE 10000

/* Newton's iterations an implicit method with a fixed step may take per
 * stage (ARKODE's default: 3); see create_solver(). */
#define FIXED_STEP_NEWTON_ITERS 10

struct _QdClassic
{
  const QdClassicMethod *method;
  double          rtol, atol, max_step, h;

  QdSimulation   *sim;
  guint           n;                /* states */
  guint          *block;            /* per state: its Integrator */
  gint           *state_of;         /* per block: its state, or -1 */
  guint          *rhs;              /* the right-hand side's blocks, in
                                       dependency order */
  guint           n_rhs;
  guint64        *rhs_ports;        /* per block of the right-hand side:
                                       its inputs driven by an Integrator
                                       or another of them */
  QdClassicRhs   *prog;             /* f(t, y) as a flat program
                                       (qd-classic-rhs.c), from the
                                       solver's set-up on */
  gboolean        slow;             /* no flat program, no delivery
                                       without the loop */
  guint64         direct_steps;     /* steps delivered without it */
  guint8         *stops;            /* per block: its events are times
                                       the solver stops at
                                       (find_stopping_blocks()) */
  QdClassicRoots *roots;            /* the crossings the solver locates,
                                       or NULL (qd-classic-roots.c) */

  SUNContext      ctx;
  void           *mem;              /* CVODE or ARKStep */
  N_Vector        y, dky;
  const double   *end_dy;           /* y' at the step's end: dky's, or
                                       ARKODE's own (take_step()) */
  SUNMatrix       A;
  SUNLinearSolver ls;
  ARKodeButcherTable table;
  gboolean        solver_ready;     /* created and initialised at t */

  double          t;                /* where the event loop is; the
                                       solver is there or one step on */
  double          t_end;            /* end of the current step (<= t:
                                       none) */
  gboolean        events_done;      /* the loop's events at t have run */
  QdSignal       *seg;              /* per state: this step's segment */
  double         *y0, *yp0;         /* y and y' at t (the step's start) */
  double         *reset;            /* per state: a pending reset's value */
  guint8         *reset_pending;
  guint8         *emit_pending;     /* per state: its output is due at t */
  gboolean        emitting;         /* the Integrators' own outputs run */
  gboolean        discontinuity;    /* an Integrator received an event */

  /* The last evaluation of f, which may be the segment's end derivative
   * (end_derivative_known()). */
  double          last_t;
  N_Vector        last_y, last_dy;
  gboolean        last_ok;
  gboolean        reuse_end;        /* the table's last node is not 1 */
  guint64         reused_ends;

  QdClassicStats  stats;
  guint64         failed_before;    /* the solver's counters before its */
  guint64         jac_before;       /* last re-initialisation */
  char           *solver_message;   /* the solver's last error text */
  double          t_chatter;        /* the clock at the last check of the
                                       root stops (root_stop()) */
};

QdClassic *
qd_classic_new (const QdSettings *settings)
{
  const QdClassicMethod *m = qd_classic_find_method (settings->solver);
  QdClassic *self;

  if (m == NULL)
    return NULL;
  self = g_new0 (QdClassic, 1);
  self->method = m;
  self->rtol = settings->rtol;
  self->atol = settings->atol;
  self->max_step = settings->max_step;
  self->h = settings->h;
  self->stats.method = m->name;
  return self;
}

gboolean
qd_classic_check_size (QdClassic  *self,
                       guint       n_states,
                       GError    **error)
{
  const QdClassicMethod *m = self->method;

  /* The dense Jacobian of the implicit methods holds n^2 numbers. */
  if (m->family == QD_CLASSIC_ERK || n_states <= QD_CLASSIC_MAX_DENSE)
    return TRUE;
  g_set_error (error, QD_ERROR, QD_ERROR_FAILED,
               _("the solver %s would need a dense Jacobian of %u states "
                 "(%.1f GiB); for more than %u states choose an explicit "
                 "method (dormand-prince, rk4...) or QSS"),
               m->name, n_states,
               (double) n_states * n_states * sizeof (double) / (1 << 30),
               QD_CLASSIC_MAX_DENSE);
  return FALSE;
}

void
qd_classic_free (QdClassic *self)
{
  if (self == NULL)
    return;
  if (self->mem != NULL)
    {
      if (self->method->family == QD_CLASSIC_CVODE)
        CVodeFree (&self->mem);
      else
        ARKStepFree (&self->mem);
    }
  if (self->table != NULL)
    ARKodeButcherTable_Free (self->table);
  if (self->ls != NULL)
    SUNLinSolFree (self->ls);
  if (self->A != NULL)
    SUNMatDestroy (self->A);
  if (self->y != NULL)
    N_VDestroy (self->y);
  if (self->dky != NULL)
    N_VDestroy (self->dky);
  if (self->ctx != NULL)
    SUNContext_Free (&self->ctx);
  g_free (self->block);
  g_free (self->state_of);
  g_free (self->rhs);
  g_free (self->rhs_ports);
  qd_classic_rhs_free (self->prog);
  g_free (self->stops);
  qd_classic_roots_free (self->roots);
  g_free (self->seg);
  g_free (self->y0);
  g_free (self->yp0);
  g_free (self->reset);
  g_free (self->reset_pending);
  g_free (self->emit_pending);
  g_free (self->solver_message);
  g_free (self);
}

/* -------------------------------------------------------------------- */
/* The Integrators in the event loop */

/* An Integrator's event: the segment of the current step. */
static guint64
classic_fire (QdAtomic *a,
              double    t,
              double   *ta)
{
  QdClassic *self = a->sim->classic;
  int k = self->state_of[a->index];

  self->emit_pending[k] = 0;
  qd_signal_advance (&self->seg[k], t, &a->out[0]);
  *ta = QD_INF;
  return 1;
}

/* An event on an Integrator's input: the derivative is read by the
 * right-hand side; a reset is kept for the restart. Either way, outside
 * the Integrators' own outputs, the solver's past is no longer valid. */
static double
classic_dext_ta (QdAtomic       *a,
                 double          t,
                 double          e,
                 guint           port,
                 const QdSignal *x)
{
  QdClassic *self = a->sim->classic;
  int k = self->state_of[a->index];

  if (port != 0)
    {
      self->reset[k] = qd_signal_eval (x, t);
      self->reset_pending[k] = 1;
    }
  if (!self->emitting || port != 0)
    self->discontinuity = TRUE;
  /* Its own output may still be due now. */
  return self->emit_pending[k] ? 0.0 : QD_INF;
}

static gboolean
is_feedthrough (const QdAtomic *a)
{
  return (a->type->flags & QD_BLOCK_FEEDTHROUGH) != 0
         && (a->type->flags & QD_BLOCK_INTEGRATOR) == 0;
}

guint
qd_classic_order_blocks (QdSimulation *sim,
                         const guint8 *in_set,
                         guint        *order)
{
  guint n = sim->n_atomics;
  g_autofree guint *indeg = g_new0 (guint, MAX (n, 1));
  guint head = 0, tail = 0;

  for (guint i = 0; i < n; i++)
    if (in_set[i])
      for (guint s = sim->out_base[i]; s < sim->out_base[i + 1]; s++)
        for (guint e = sim->fan_start[s]; e < sim->fan_start[s + 1]; e++)
          if (in_set[sim->fanout[e].receiver])
            indeg[sim->fanout[e].receiver]++;
  for (guint i = 0; i < n; i++)
    if (in_set[i] && indeg[i] == 0)
      order[tail++] = i;
  while (head < tail)
    {
      guint i = order[head++];

      for (guint s = sim->out_base[i]; s < sim->out_base[i + 1]; s++)
        for (guint e = sim->fan_start[s]; e < sim->fan_start[s + 1]; e++)
          {
            guint j = sim->fanout[e].receiver;

            if (in_set[j] && --indeg[j] == 0)
              order[tail++] = j;
          }
    }
  return tail;
}

/* The blocks of the right-hand side: direct-feedthrough blocks reached
 * from an Integrator's output that reach an Integrator's derivative, in
 * dependency order (the compiler has refused algebraic loops). */
static void
find_rhs_blocks (QdClassic *self)
{
  QdSimulation *sim = self->sim;
  guint n = sim->n_atomics;
  g_autofree guint8 *fwd = g_new0 (guint8, n);
  g_autofree guint8 *bwd = g_new0 (guint8, n);
  g_autofree guint *indeg = g_new0 (guint, n);
  g_autofree guint *queue = g_new (guint, MAX (n, 1));
  gboolean changed = TRUE;
  guint tail;

  /* Forward, in index order until nothing changes (the chains are
   * short). */
  for (guint k = 0; k < self->n; k++)
    fwd[self->block[k]] = 2;   /* 2: an Integrator */
  while (changed)
    {
      changed = FALSE;
      for (guint i = 0; i < n; i++)
        {
          if (!fwd[i])
            continue;
          for (guint s = sim->out_base[i]; s < sim->out_base[i + 1]; s++)
            for (guint e = sim->fan_start[s]; e < sim->fan_start[s + 1]; e++)
              {
                guint j = sim->fanout[e].receiver;

                if (!fwd[j] && is_feedthrough (&sim->atomics[j]))
                  fwd[j] = changed = 1;
              }
        }
    }
  /* Backward: those whose output reaches a derivative. */
  changed = TRUE;
  while (changed)
    {
      changed = FALSE;
      for (guint i = 0; i < n; i++)
        {
          if (fwd[i] != 1 || bwd[i])
            continue;
          for (guint s = sim->out_base[i]; s < sim->out_base[i + 1]; s++)
            for (guint e = sim->fan_start[s]; e < sim->fan_start[s + 1]; e++)
              {
                guint j = sim->fanout[e].receiver;

                if ((fwd[j] == 2 && sim->fanout[e].port == 0) || bwd[j])
                  bwd[i] = changed = 1;
              }
        }
    }
  tail = qd_classic_order_blocks (sim, bwd, queue);
  self->n_rhs = tail;
  self->rhs = g_new (guint, MAX (tail, 1));
  memcpy (self->rhs, queue, tail * sizeof (guint));

  /* Their inputs that the right-hand side sets; indeg[] becomes each
   * block's place in it. */
  self->rhs_ports = g_new0 (guint64, MAX (tail, 1));
  for (guint i = 0; i < n; i++)
    indeg[i] = G_MAXUINT;
  for (guint r = 0; r < tail; r++)
    indeg[self->rhs[r]] = r;
  for (guint i = 0; i < n; i++)
    {
      if (fwd[i] != 2 && indeg[i] == G_MAXUINT)
        continue;
      for (guint s = sim->out_base[i]; s < sim->out_base[i + 1]; s++)
        for (guint e = sim->fan_start[s]; e < sim->fan_start[s + 1]; e++)
          {
            guint r = indeg[sim->fanout[e].receiver];

            if (r != G_MAXUINT && sim->fanout[e].port < 64)
              self->rhs_ports[r] |= G_GUINT64_CONSTANT (1)
                                    << sim->fanout[e].port;
          }
    }
}

/* Which blocks' events the solver stops at (stops[i]). A block downstream
 * of the Integrators, through any blocks, has events that depend on the
 * solution (a crossing, a sample of a state): they are found on the
 * steps' segments, inside a step. A block whose output reaches no
 * Integrator cannot change the ODE: its events (a source that only feeds
 * a Scope) run inside the steps too. The rest, the sources and clocks of
 * the ODE, are times the solver stops at. */
static void
find_stopping_blocks (QdClassic *self)
{
  QdSimulation *sim = self->sim;
  guint n = sim->n_atomics;
  g_autofree guint *stack = g_new (guint, MAX (n, 1));
  g_autofree guint8 *derived = g_new0 (guint8, MAX (n, 1));
  g_autofree guint8 *reaches = g_new0 (guint8, MAX (n, 1));
  gboolean changed = TRUE;
  guint top = 0;

  for (guint k = 0; k < self->n; k++)
    stack[top++] = self->block[k];
  while (top > 0)
    {
      guint i = stack[--top];

      for (guint s = sim->out_base[i]; s < sim->out_base[i + 1]; s++)
        for (guint e = sim->fan_start[s]; e < sim->fan_start[s + 1]; e++)
          {
            guint j = sim->fanout[e].receiver;

            if (!derived[j] && self->state_of[j] < 0)
              {
                derived[j] = 1;
                stack[top++] = j;
              }
          }
    }
  /* Backward from the Integrators, until nothing changes (the chains
   * from a source to an Integrator are short). */
  for (guint k = 0; k < self->n; k++)
    reaches[self->block[k]] = 1;
  while (changed)
    {
      changed = FALSE;
      for (guint i = n; i-- > 0;)
        {
          if (reaches[i])
            continue;
          for (guint s = sim->out_base[i]; s < sim->out_base[i + 1] && !reaches[i]; s++)
            for (guint e = sim->fan_start[s]; e < sim->fan_start[s + 1]; e++)
              if (reaches[sim->fanout[e].receiver])
                {
                  reaches[i] = changed = 1;
                  break;
                }
        }
    }
  self->stops = g_new0 (guint8, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    self->stops[i] = !derived[i] && reaches[i] && self->state_of[i] < 0;
}

/* The next time the solver must stop at: the earliest event of a block
 * that stops it. */
static double
next_time_event (QdClassic *self)
{
  const QdHeap *heap = &self->sim->heap;
  double t = QD_INF;

  if (qd_heap_is_empty (heap))
    return QD_INF;
  if (self->stops[qd_heap_top_id (heap)])
    return qd_heap_top_time (heap);
  for (guint e = 0; e < heap->n; e++)
    if (self->stops[heap->entries[e].id])
      t = MIN (t, qd_heap_key_time (heap->entries[e].key));
  return t;
}

void
qd_classic_prepare (QdClassic    *self,
                    QdSimulation *sim)
{
  guint n = sim->n_atomics;
  GArray *blocks = g_array_new (FALSE, FALSE, sizeof (guint));

  self->sim = sim;
  self->state_of = g_new (gint, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      self->state_of[i] = -1;
      if (sim->is_integrator[i])
        {
          self->state_of[i] = (gint) blocks->len;
          g_array_append_val (blocks, i);
          sim->hot[i].fire = classic_fire;
          sim->hot[i].dext_ta = classic_dext_ta;
        }
    }
  self->n = blocks->len;
  self->block = (guint *) g_array_free (blocks, FALSE);
  self->seg = g_new0 (QdSignal, MAX (self->n, 1));
  self->y0 = g_new0 (double, MAX (self->n, 1));
  self->yp0 = g_new0 (double, MAX (self->n, 1));
  self->reset = g_new0 (double, MAX (self->n, 1));
  self->reset_pending = g_new0 (guint8, MAX (self->n, 1));
  self->emit_pending = g_new0 (guint8, MAX (self->n, 1));
  self->stats.n_states = self->n;
  /* The cascade kernels call an Integrator's own functions. */
  qd_simulation_set_fused_cascades (sim, FALSE);
  find_rhs_blocks (self);
  find_stopping_blocks (self);
  /* ARKODE 6.4 limits its dense output, where a root is located and
   * returned, to degree q - 1 for a table of order q: the step's end
   * state for forward and backward Euler (a crossing then loops at one
   * instant), a line for Heun and the trapezoidal rule, which located
   * the bouncing-ball example's contacts 7 times worse than the cubic
   * segments the Integrators emit, a parabola for Bogacki-Shampine.
   * Those tables keep finding crossings on the segments; from order 4
   * on the dense output is at least that cubic. CVODE's is its own
   * polynomial of the method's order. */
  if (self->method->family == QD_CLASSIC_CVODE || self->method->order >= 4)
    self->roots = qd_classic_roots_new (sim, self->n, self->block,
                                        self->state_of, self->stops);
}

void
qd_classic_start (QdClassic *self)
{
  QdSimulation *sim = self->sim;

  self->t = sim->start_time;
  self->t_end = self->t;
  for (guint k = 0; k < self->n; k++)
    {
      const QdAtomic *a = &sim->atomics[self->block[k]];
      int x0 = qd_block_type_find_param (a->type, "x0");

      self->y0[k] = x0 >= 0 ? a->params[x0].number : 0.0;
      /* The initial state goes out at the start, as an Integrator's
       * first output does under QSS, so that the blocks it feeds have
       * their inputs before the first step. */
      qd_signal_set_constant (&self->seg[k], self->t, self->y0[k]);
      self->emit_pending[k] = 1;
      qd_simulation_schedule_at (sim, self->block[k], self->t);
    }
}

/* -------------------------------------------------------------------- */
/* The right-hand side */

/* f(t, y) through the flat program (qd-classic-rhs.c). */
static int
rhs (sunrealtype  t,
     N_Vector     y,
     N_Vector     ydot,
     void        *data)
{
  QdClassic *self = data;

  self->stats.rhs_evals++;
  self->last_t = t;
  self->last_y = y;
  self->last_dy = ydot;
  /* The solver's vectors are clones of serial ones: their data without
   * a call into the library each. */
  self->last_ok = qd_classic_rhs_eval (self->prog, t, NV_DATA_S (y),
                                       NV_DATA_S (ydot));
  /* Not finite: recoverable, the solver tries a smaller step. */
  return self->last_ok ? 0 : 1;
}

/* Whether the last evaluation of f was f(@t1, @state), @state the
 * solution ARKStep's step left, so that its value is the segment's end
 * derivative without evaluating f again. After an accepted step ARKStep
 * evaluates f there itself, for its own interpolant, when the table's
 * last node c_s is not 1 (RKF45, Cash-Karp, forward Euler): that
 * evaluation is the step's last, on its solution vector at its time,
 * and what it wrote stays until the next step. With c_s = 1 it copies
 * the last stage instead, whose y is the solution only to rounding: the
 * driver then evaluates f itself, as it does after a root or when the
 * step's end moved to the stop time. */
static gboolean
end_derivative_known (QdClassic *self,
                      double     t1,
                      N_Vector   state)
{
  return self->reuse_end && self->last_ok && self->last_y == state
         && self->last_t == t1 && self->last_dy != self->dky;
}

/* The hybrid blocks' crossings (qd-classic-roots.c). */
static int
root_functions (sunrealtype  t,
                N_Vector     y,
                sunrealtype *g,
                void        *data)
{
  QdClassic *self = data;

  qd_classic_roots_eval (self->roots, t, N_VGetArrayPointer (y), g);
  return 0;
}

/* -------------------------------------------------------------------- */
/* The solver */

static void
error_handler (int         error_code,
               const char *module,
               const char *function,
               char       *msg,
               void       *data)
{
  QdClassic *self = data;

  g_free (self->solver_message);
  self->solver_message = g_strdup (msg);
}

static gboolean
create_solver (QdClassic  *self,
               GError    **error)
{
  const QdClassicMethod *m = self->method;
  double t = self->t;
  int flag = 0;

  if (!qd_classic_check_size (self, self->n, error))
    return FALSE;
  /* After every block's init: an evaluation may need what init set up
   * (an NLFunction's formula). */
  self->prog = qd_classic_rhs_new (self->sim, self->block, self->n, self->rhs,
                                   self->n_rhs, self->rhs_ports, !self->slow);
  if (SUNContext_Create (NULL, &self->ctx) != 0)
    goto fail;
  self->y = N_VNew_Serial ((sunindextype) self->n, self->ctx);
  self->dky = N_VNew_Serial ((sunindextype) self->n, self->ctx);
  memcpy (N_VGetArrayPointer (self->y), self->y0, self->n * sizeof (double));
  if (m->family != QD_CLASSIC_ERK)
    {
      self->A = SUNDenseMatrix ((sunindextype) self->n,
                                (sunindextype) self->n, self->ctx);
      self->ls = SUNLinSol_Dense (self->y, self->A, self->ctx);
    }
  if (m->family == QD_CLASSIC_CVODE)
    {
      self->mem = CVodeCreate (strcmp (m->name, "cvode-bdf") == 0
                               ? CV_BDF : CV_ADAMS, self->ctx);
      if (self->mem == NULL)
        goto fail;
      flag |= CVodeSetErrHandlerFn (self->mem, error_handler, self);
      flag |= CVodeInit (self->mem, rhs, t, self->y);
      flag |= CVodeSetUserData (self->mem, self);
      flag |= CVodeSStolerances (self->mem, self->rtol, self->atol);
      flag |= CVodeSetLinearSolver (self->mem, self->ls, self->A);
      if (self->max_step > 0)
        flag |= CVodeSetMaxStep (self->mem, self->max_step);
    }
  else
    {
      gboolean implicit = m->family == QD_CLASSIC_DIRK;
      int q = 0, p = 0;

      self->mem = ARKStepCreate (implicit ? NULL : rhs, implicit ? rhs : NULL,
                                 t, self->y, self->ctx);
      if (self->mem == NULL)
        goto fail;
      flag |= ARKStepSetErrHandlerFn (self->mem, error_handler, self);
      flag |= ARKStepSetUserData (self->mem, self);
      self->table = qd_classic_table_new (m, self->h > 0, &q, &p);
      self->reuse_end = !implicit && !self->slow && self->table != NULL
                        && self->table->c[self->table->stages - 1] != 1.0;
      flag |= ARKStepSetTables (self->mem, q, p,
                                implicit ? self->table : NULL,
                                implicit ? NULL : self->table);
      if (implicit)
        flag |= ARKStepSetLinearSolver (self->mem, self->ls, self->A);
      if (self->h > 0)
        {
          flag |= ARKStepSetFixedStep (self->mem, self->h);
          /* A fixed step cannot be shortened when Newton's iteration does
           * not converge, which ends the run. The Jacobian, by difference
           * quotients, is rough where the states are 0, as they often are
           * at the start: SUNDIALS's increment is then about
           * 1000·h·u·N·|f|, some 5e-16 on the transmission line example
           * at h = 1e-11, where |f| reaches 5e7, so that rounding errs by
           * a good part of J. Newton with it converges, but slowly: that
           * example's first step failed with ARKODE's 3 iterations (at any
           * h from 1e-11 to 1e-9) and runs with 5. */
          if (implicit)
            flag |= ARKStepSetMaxNonlinIters (self->mem, FIXED_STEP_NEWTON_ITERS);
        }
      else
        {
          flag |= ARKStepSStolerances (self->mem, self->rtol, self->atol);
          /* An embedding of higher order than the method (backward and
           * forward Euler) estimates the method's error: the controller
           * must use the method's order. */
          if (p > q)
            flag |= ARKStepSetAdaptivityMethod (self->mem, 0, 1, 1, NULL);
        }
      if (self->max_step > 0)
        flag |= ARKStepSetMaxStep (self->mem, self->max_step);
    }
  if (self->roots != NULL)
    {
      int nr = (int) qd_classic_roots_count (self->roots);

      if (m->family == QD_CLASSIC_CVODE)
        flag |= CVodeRootInit (self->mem, nr, root_functions)
                | CVodeSetNoInactiveRootWarn (self->mem);
      else
        flag |= ARKStepRootInit (self->mem, nr, root_functions)
                | ARKStepSetNoInactiveRootWarn (self->mem);
    }
  if (flag != 0)
    goto fail;
  self->solver_ready = TRUE;
  return TRUE;

fail:
  g_set_error (error, QD_ERROR, QD_ERROR_FAILED,
               _("the solver %s could not be set up: %s"), m->name,
               self->solver_message != NULL ? self->solver_message
                                            : _("out of memory"));
  return FALSE;
}

/* The failure and Jacobian counts, which a re-initialisation zeroes. */
static void
solver_counts (QdClassic *self,
               guint64   *failed,
               guint64   *jac)
{
  long a = 0, b = 0, c = 0;

  if (self->mem == NULL)
    {
      *failed = *jac = 0;
      return;
    }
  if (self->method->family == QD_CLASSIC_CVODE)
    {
      CVodeGetNumErrTestFails (self->mem, &a);
      CVodeGetNumNonlinSolvConvFails (self->mem, &b);
      CVodeGetNumJacEvals (self->mem, &c);
    }
  else
    {
      ARKStepGetNumErrTestFails (self->mem, &a);
      if (self->method->family == QD_CLASSIC_DIRK)
        {
          ARKStepGetNumNonlinSolvConvFails (self->mem, &b);
          ARKStepGetNumJacEvals (self->mem, &c);
        }
    }
  *failed = (guint64) (a + b);
  *jac = (guint64) c;
}

/* (Re)starts the solver at t from y0, and evaluates y' there. */
static gboolean
restart (QdClassic  *self,
         GError    **error)
{
  N_Vector yp;
  int flag;

  if (!self->solver_ready)
    {
      if (!create_solver (self, error))
        return FALSE;
    }
  else
    {
      guint64 failed, jac;

      solver_counts (self, &failed, &jac);
      self->failed_before += failed;
      self->jac_before += jac;
      memcpy (N_VGetArrayPointer (self->y), self->y0,
              self->n * sizeof (double));
      if (self->method->family == QD_CLASSIC_CVODE)
        flag = CVodeReInit (self->mem, self->t, self->y);
      else if (self->method->family == QD_CLASSIC_DIRK)
        flag = ARKStepReInit (self->mem, NULL, rhs, self->t, self->y);
      else
        flag = ARKStepReInit (self->mem, rhs, NULL, self->t, self->y);
      self->stats.restarts++;
      if (flag != 0)
        {
          g_set_error (error, QD_ERROR, QD_ERROR_NUMERIC,
                       _("the solver %s could not restart at t = %g: %s"),
                       self->method->name, self->t,
                       self->solver_message != NULL ? self->solver_message : "");
          return FALSE;
        }
    }
  yp = self->dky;
  if (rhs (self->t, self->y, yp, self) != 0)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_NUMERIC,
                   _("the derivatives of the Integrators are not finite "
                     "(NaN or infinity) at t = %g; check the blocks that "
                     "compute them"), self->t);
      return FALSE;
    }
  memcpy (self->yp0, N_VGetArrayPointer (yp), self->n * sizeof (double));
  return TRUE;
}

static const char *
failure_reason (int flag)
{
  switch (flag)
    {
    case CV_TOO_MUCH_WORK:
      return _("too much work: the solver took too many steps");
    case CV_TOO_MUCH_ACC:
      return _("the tolerances are too small for the precision of the "
               "computer; raise rtol or atol");
    case CV_ERR_FAILURE:
      return _("the error test failed repeatedly (the step became as small "
               "as it can be); the model may be discontinuous or stiff: try "
               "an implicit method, looser tolerances or a maximum step");
    case CV_CONV_FAILURE:
      return _("the Newton iteration failed to converge repeatedly; the "
               "model may be stiff or its Jacobian singular");
    case CV_LSETUP_FAIL:
    case CV_LSOLVE_FAIL:
      return _("the linear solver failed: the Jacobian is singular");
    case CV_RHSFUNC_FAIL:
    case CV_REPTD_RHSFUNC_ERR:
    case CV_UNREC_RHSFUNC_ERR:
    case CV_FIRST_RHSFUNC_ERR:
      return _("the derivatives of the Integrators are not finite (NaN or "
               "infinity), even with smaller steps; the solution grows "
               "without bound or a block divides by zero");
    default:
      return NULL;
    }
}

/* The block that switches back and forth at one level at self->t, named,
 * and what to do; NULL when no block's crossing is near. */
static char *
chatter_message (QdClassic *self)
{
  const char *path = qd_classic_roots_nearest (self->roots, self->t, self->y0);

  if (path == NULL)
    return NULL;
  return g_strdup_printf (_("%s switches back and forth at one level at "
                            "t = %g (its crossing is found again at "
                            "once), which the solver %s cannot follow; "
                            "give the block a band between its levels "
                            "(such as a Relay's switch-on and switch-off "
                            "points) or run the model under QSS"),
                          path, self->t, self->method->name);
}

/* Why the solver stopped at self->t with @flag, in words, with the block
 * to blame where there is one. SUNDIALS stops with ILL_INPUT and "Root
 * found at and very near t" when a crossing function is 0 again just
 * after the restart at its root: the block switches back and forth at one
 * level (a Relay whose on and off points are equal, in a sliding mode). */
static char *
failure_message (QdClassic *self,
                 int        flag)
{
  const char *reason = failure_reason (flag);
  const char *message = self->solver_message;

  if (flag == CV_ILL_INPUT && self->roots != NULL && message != NULL
      && strstr (message, "Root found at and very near") != NULL)
    {
      char *chatter = chatter_message (self);

      if (chatter != NULL)
        return chatter;
    }
  if (reason == NULL)
    reason = message != NULL ? message : _("it stopped");
  return g_strdup_printf (_("the solver %s failed at t = %g: %s"),
                          self->method->name, self->t, reason);
}

/* One accepted step from t, not past @t_target; fills the segments. */
static gboolean
take_step (QdClassic  *self,
           double      t_target,
           GError    **error)
{
  double t1 = self->t, h, *y1;
  const double *yp1;
  double *end_dy = N_VGetArrayPointer (self->dky);
  int flag;

  if (self->method->family == QD_CLASSIC_CVODE)
    {
      CVodeSetStopTime (self->mem, t_target);
      flag = CVode (self->mem, t_target, self->y, &t1, CV_ONE_STEP);
      if (flag == CV_ROOT_RETURN)
        CVodeGetRootInfo (self->mem, qd_classic_roots_info (self->roots));
      /* y' at the end is f(t1, y1), not the derivative of CVODE's
       * interpolating polynomial: the next step starts from the same
       * value the blocks compute. */
      if (flag >= 0 && rhs (t1, self->y, self->dky, self) != 0)
        flag = CV_RHSFUNC_FAIL;
    }
  else
    {
      /* At a stop time ARKODE returns its interpolant there, which in
       * SUNDIALS 6.4 is wrong for first-order tables (it gives the middle
       * of the last step): the state is taken as the step left it, a
       * few rounding errors before the stop time, and y' at the end is
       * f(t1, y1). */
      N_Vector state = NULL;

      /* With a fixed step and a stop time, ARKODE 6.4 returned the state
       * of the middle of the last step (forward Euler, h = 0.05): the
       * last step is shortened here instead. */
      if (self->h > 0)
        ARKStepSetFixedStep (self->mem, MIN (self->h, t_target - self->t));
      else
        ARKStepSetStopTime (self->mem, t_target);
      self->last_y = NULL;
      flag = ARKStepEvolve (self->mem, t_target, self->y, &t1, ARK_ONE_STEP);
      if (flag == ARK_ROOT_RETURN)
        {
          /* At a root, y is the solver's interpolant there. */
          ARKStepGetRootInfo (self->mem, qd_classic_roots_info (self->roots));
          if (rhs (t1, self->y, self->dky, self) != 0)
            flag = ARK_RHSFUNC_FAIL;
        }
      else if (flag >= 0)
        {
          ARKStepGetCurrentTime (self->mem, &t1);
          ARKStepGetCurrentState (self->mem, &state);
          N_VScale (1.0, state, self->y);
          if (fabs (t_target - t1) <= 64 * DBL_EPSILON * fabs (t_target))
            t1 = t_target;
          if (end_derivative_known (self, t1, state))
            {
              /* Read where ARKODE keeps it, until its next step. */
              end_dy = N_VGetArrayPointer (self->last_dy);
              self->reused_ends++;
            }
          else if (rhs (t1, self->y, self->dky, self) != 0)
            flag = ARK_RHSFUNC_FAIL;
        }
    }
  /* ARKODE's error values are CVODE's. */
  G_STATIC_ASSERT (ARK_ERR_FAILURE == CV_ERR_FAILURE
                   && ARK_CONV_FAILURE == CV_CONV_FAILURE
                   && ARK_LSETUP_FAIL == CV_LSETUP_FAIL
                   && ARK_RHSFUNC_FAIL == CV_RHSFUNC_FAIL
                   && ARK_ROOT_RETURN == CV_ROOT_RETURN);
  if (flag < 0)
    {
      g_autofree char *message = failure_message (self, flag);

      g_set_error_literal (error, QD_ERROR, QD_ERROR_NUMERIC, message);
      return FALSE;
    }
  if (t1 > t_target)
    t1 = t_target;
  if (self->roots != NULL)
    qd_classic_roots_found (self->roots, flag == CV_ROOT_RETURN ? t1 : NAN);
  self->stats.steps++;
  h = t1 - self->t;
  y1 = N_VGetArrayPointer (self->y);
  yp1 = self->end_dy = end_dy;
  for (guint k = 0; k < self->n; k++)
    {
      QdSignal *s = &self->seg[k];
      double y0 = self->y0[k], d0 = self->yp0[k], d1 = yp1[k];
      double slope = h > 0 ? (y1[k] - y0) / h : 0.0;

      /* The cubic Hermite segment: y and y' at both ends. */
      s->t = self->t;
      s->c[0] = y0;
      s->c[1] = d0;
      s->c[2] = h > 0 ? (3.0 * slope - 2.0 * d0 - d1) / h : 0.0;
      s->c[3] = h > 0 ? (d0 + d1 - 2.0 * slope) / (h * h) : 0.0;
      s->order = 3;
      s->tag = 0;
    }
  self->t_end = t1;
  return TRUE;
}

/* -------------------------------------------------------------------- */
/* The run */

static QdRunStatus
fail (QdClassic  *self,
      GError     *local,
      GError    **error)
{
  if (error != NULL)
    *error = g_error_copy (local);
  qd_simulation_fail (self->sim, local);
  return QD_RUN_ERROR;
}

/* A stop at a root: counted, and every CHATTER_STOPS stops the clock is
 * held to have moved. In a sliding mode (a Relay whose two points are
 * equal, driving its own input back across its level) the solver stops at
 * the crossing again and again, each step shorter: SUNDIALS sometimes
 * refuses (root_stop() is then not reached, see failure_message()), and
 * otherwise the run goes on for ever, 170 000 stops a second with the
 * clock still at 1.00000003 on x' = Relay(x). A run that moves less than
 * 1e-9 of its span in CHATTER_STOPS stops ends with the block named. */
#define CHATTER_STOPS 100000

static QdRunStatus
root_stop (QdClassic  *self,
           GError    **error)
{
  QdSimulation *sim = self->sim;
  double span = fabs (sim->final_time - sim->start_time);
  char *message;

  if (++self->stats.root_stops % CHATTER_STOPS != 0)
    return QD_RUN_DONE;
  if (self->stats.root_stops > CHATTER_STOPS
      && !(self->t - self->t_chatter > 1e-9 * span)
      && (message = chatter_message (self)) != NULL)
    {
      /* fail() gives the error to the simulation. */
      GError *local = g_error_new_literal (QD_ERROR, QD_ERROR_NUMERIC, message);

      g_free (message);
      return fail (self, local, error);
    }
  self->t_chatter = self->t;
  return QD_RUN_DONE;
}

/* The solver restarts at t from y0, with the pending resets. */
static QdRunStatus
restart_here (QdClassic  *self,
              GError    **error)
{
  GError *local = NULL;

  for (guint k = 0; k < self->n; k++)
    if (self->reset_pending[k])
      {
        self->y0[k] = self->reset[k];
        self->reset_pending[k] = 0;
      }
  self->t_end = self->t;
  if (!restart (self, &local))
    return fail (self, local, error);
  return QD_RUN_DONE;
}

/* Whether the events at t, which reached an Integrator's derivative but
 * reset none, left f(t, y) as it was within the tolerances: a source that
 * starts a new polynomial segment where the last one ended (a Sine's
 * next piece). The solver then goes on without a restart, which would
 * cost it its order and its step size. */
static gboolean
derivative_continuous (QdClassic *self)
{
  double *f = N_VGetArrayPointer (self->dky);

  for (guint k = 0; k < self->n; k++)
    if (self->reset_pending[k])
      return FALSE;
  if (rhs (self->t, self->y, self->dky, self) != 0)
    return FALSE;
  for (guint k = 0; k < self->n; k++)
    if (!(fabs (f[k] - self->yp0[k])
          <= self->rtol * fabs (self->yp0[k]) + self->atol))
      return FALSE;
  memcpy (self->yp0, f, self->n * sizeof (double));
  return TRUE;
}

/* The loop's events at t; restarts the solver when they reached an
 * Integrator (or it has not started). */
static QdRunStatus
events_at_t (QdClassic  *self,
             GError    **error)
{
  QdRunStatus status;
  gboolean at_root, stale;

  self->discontinuity = FALSE;
  status = qd_simulation_run_events (self->sim, nextafter (self->t, QD_INF),
                                     error);
  if (status != QD_RUN_DONE)
    return status;
  self->events_done = TRUE;
  at_root = qd_classic_roots_at_root (self->roots, self->t);
  /* New crossing levels leave the solver's memory of its root
   * functions' signs stale, except at a root it has just returned,
   * where it evaluates them again itself. At a root its internal step
   * has gone on past t with the old right-hand side: any change of it
   * is a restart, even a continuous one. */
  stale = self->roots != NULL
          && qd_classic_roots_refresh (self->roots, self->t) && !at_root;
  if (self->solver_ready && !stale
      && (!self->discontinuity
          || (!at_root && derivative_continuous (self))))
    return QD_RUN_DONE;
  if (self->solver_ready && self->discontinuity && at_root)
    {
      status = root_stop (self, error);
      if (status != QD_RUN_DONE)
        return status;
    }
  return restart_here (self, error);
}

/* Whether the derivatives the Integrators received with their outputs at
 * t are those the step started from: a block whose mode the outputs
 * changed at once (a level reached exactly at t) makes them differ. */
static gboolean
emitted_consistently (QdClassic *self)
{
  QdSimulation *sim = self->sim;

  for (guint k = 0; k < self->n; k++)
    {
      double d = qd_signal_eval (sim->atomics[self->block[k]].in[0], self->t);

      if (!(fabs (d - self->yp0[k])
            <= 1e-9 * (fabs (d) + fabs (self->yp0[k])) + 1e-300))
        return FALSE;
    }
  return TRUE;
}

/* A new step from t, and the Integrators' outputs for it. */
static QdRunStatus
step_and_emit (QdClassic  *self,
               GError    **error)
{
  QdSimulation *sim = self->sim;
  double target = MIN (next_time_event (self), sim->final_time);

  if (!(target > self->t))
    target = sim->final_time;
  /* Three tries at most: a restart makes the derivatives those of the
   * new modes, which the next outputs then give again. */
  for (int attempt = 0; ; attempt++)
    {
      GError *local = NULL;
      QdRunStatus status;

      if (!take_step (self, target, &local))
        return fail (self, local, error);
      /* Nothing but static blocks and sinks to receive the segments: no
       * block can change a mode on them, and the loop is not needed. */
      if (qd_classic_rhs_can_deliver (self->prog, !self->slow)
          && qd_classic_rhs_deliver (self->prog, self->t, self->seg))
        {
          self->direct_steps++;
          status = qd_simulation_direct_status (sim, error);
          if (status == QD_RUN_DONE
              && qd_simulation_get_next_time (sim) <= self->t)
            status = qd_simulation_run_events (sim,
                                               nextafter (self->t, QD_INF),
                                               error);
          if (status != QD_RUN_DONE)
            return status;
          break;
        }
      for (guint k = 0; k < self->n; k++)
        {
          self->emit_pending[k] = 1;
          qd_simulation_schedule_at (sim, self->block[k], self->t);
        }
      self->emitting = TRUE;
      status = qd_simulation_run_events (sim, nextafter (self->t, QD_INF),
                                         error);
      self->emitting = FALSE;
      if (status != QD_RUN_DONE)
        return status;
      /* A mode that the outputs changed at once has new levels. */
      if (attempt == 2
          || ((self->roots == NULL
               || !qd_classic_roots_refresh (self->roots, self->t))
              && emitted_consistently (self)))
        break;
      status = restart_here (self, error);
      if (status != QD_RUN_DONE)
        return status;
    }
  if (self->roots != NULL)
    qd_classic_roots_schedule (self->roots);
  if (self->t_end == target && target < sim->final_time)
    self->stats.time_events++;
  return QD_RUN_DONE;
}

static QdRunStatus
run_steps (QdClassic  *self,
           double      t_stop,
           guint64     max_steps,
           GError    **error)
{
  QdSimulation *sim = self->sim;

  if (max_steps == 0)
    return QD_RUN_STEPPED;
  if (self->n == 0)
    return qd_simulation_run_events (sim, t_stop, error);
  while (self->t < t_stop)
    {
      QdRunStatus status;
      double t_next;

      if (!self->events_done)
        {
          status = events_at_t (self, error);
          if (status != QD_RUN_DONE)
            return status;
        }
      if (!(self->t_end > self->t))
        {
          status = step_and_emit (self, error);
          if (status != QD_RUN_DONE)
            return status;
        }

      /* The events inside the step, up to the first that reaches an
       * Integrator. */
      t_next = qd_simulation_get_next_time (sim);
      if (t_next < self->t_end)
        {
          if (!(t_next < t_stop))
            return QD_RUN_DONE;
          self->t = t_next;
          self->discontinuity = FALSE;
          status = qd_simulation_run_events (sim, nextafter (t_next, QD_INF),
                                             error);
          if (status != QD_RUN_DONE)
            return status;
          if (self->discontinuity)
            {
              /* Cut the step here: the state from the segments the
               * block found its crossing on. */
              for (guint k = 0; k < self->n; k++)
                self->y0[k] = qd_signal_eval (&self->seg[k], t_next);
              status = root_stop (self, error);
              if (status == QD_RUN_DONE)
                status = restart_here (self, error);
              if (status != QD_RUN_DONE)
                return status;
            }
          continue;
        }
      if (self->t_end > t_stop)
        return QD_RUN_DONE;
      self->t = self->t_end;
      memcpy (self->y0, N_VGetArrayPointer (self->y),
              self->n * sizeof (double));
      memcpy (self->yp0, self->end_dy, self->n * sizeof (double));
      self->events_done = FALSE;
      if (--max_steps == 0)
        {
          /* The clock at the step's end, and what happens there. */
          sim->time = self->t;
          status = events_at_t (self, error);
          return status == QD_RUN_DONE ? QD_RUN_STEPPED : status;
        }
    }
  return QD_RUN_DONE;
}

QdRunStatus
qd_classic_run (QdClassic  *self,
                double      t_stop,
                guint64     max_steps,
                GError    **error)
{
  QdRunStatus status = run_steps (self, t_stop, max_steps, error);

  /* Whoever looks at the blocks' outputs now finds the last step's. */
  if (self->prog != NULL)
    qd_classic_rhs_refresh (self->prog);
  /* And the clock and the counts are the run's: the steps delivered
   * without the event loop (qd_classic_rhs_deliver()) move them without
   * publishing them, which the loop does on its way out. */
  qd_simulation_publish (self->sim);
  return status;
}

void
qd_classic_get_stats (QdClassic      *self,
                      QdClassicStats *stats)
{
  guint64 failed = 0, jac = 0;

  solver_counts (self, &failed, &jac);
  *stats = self->stats;
  stats->failed_steps = self->failed_before + failed;
  stats->jac_evals = self->jac_before + jac;
  stats->root_evals = qd_classic_roots_get_evals (self->roots);
}

void
qd_classic_set_fast_paths (QdSimulation *sim,
                           gboolean      on)
{
  g_return_if_fail (sim != NULL && sim->classic != NULL
                    && sim->classic->prog == NULL);

  sim->classic->slow = !on;
}

void
qd_classic_get_fast_counts (QdSimulation *sim,
                            guint        *n_flat,
                            guint64      *direct_steps)
{
  QdClassic *self = sim->classic;

  *n_flat = self != NULL && self->prog != NULL
            ? qd_classic_rhs_n_flat (self->prog) : 0;
  *direct_steps = self != NULL ? self->direct_steps : 0;
}

guint64
qd_classic_get_reused_ends (QdSimulation *sim)
{
  return sim->classic != NULL ? sim->classic->reused_ends : 0;
}

void
qd_classic_get_affine_counts (QdSimulation *sim,
                              guint        *n_blocks,
                              guint        *n_runs,
                              guint        *n_to_dy)
{
  QdClassic *self = sim->classic;

  *n_blocks = *n_runs = *n_to_dy = 0;
  if (self != NULL && self->prog != NULL)
    qd_classic_rhs_affine_counts (self->prog, n_blocks, n_runs, n_to_dy);
}

/* The run's right-hand side, or NULL (under QSS, or not yet set up). */
static const QdClassicRhs *
prog_of (QdSimulation *sim)
{
  return sim->classic != NULL ? sim->classic->prog : NULL;
}

guint
qd_classic_get_n_calls (QdSimulation *sim)
{
  const QdClassicRhs *prog = prog_of (sim);

  return prog != NULL ? qd_classic_rhs_n_calls (prog) : 0;
}

guint
qd_classic_get_n_lone (QdSimulation *sim)
{
  const QdClassicRhs *prog = prog_of (sim);

  return prog != NULL ? qd_classic_rhs_n_lone (prog) : 0;
}

guint
qd_classic_get_n_extra (QdSimulation *sim)
{
  const QdClassicRhs *prog = prog_of (sim);

  return prog != NULL ? qd_classic_rhs_n_extra (prog) : 0;
}

gboolean
qd_simulation_eval_classic_rhs (QdSimulation *sim,
                                double        t,
                                const double *y,
                                double       *dy)
{
  g_return_val_if_fail (sim != NULL && y != NULL && dy != NULL, FALSE);

  /* After the run the blocks' exit has freed what they evaluate with. */
  if (sim->classic == NULL || sim->classic->prog == NULL || sim->finished)
    return FALSE;
  return qd_classic_rhs_eval (sim->classic->prog, t, y, dy);
}

void
qd_classic_add_block_stats (QdClassic *self,
                            guint      i,
                            guint64   *internal,
                            guint64   *external)
{
  if (self->prog != NULL)
    qd_classic_rhs_add_block_stats (self->prog, i, internal, external);
}

/* qd-classic-rhs.c: a classic solver's right-hand side as a flat program
 * (its steps' delivery without the event loop: qd-classic-deliver.c)
 *
 * The right-hand side f(t, y) of the Integrators' states runs the
 * direct-feedthrough blocks between their outputs and their derivatives
 * (qd-classic.c finds them, in dependency order). Through the blocks'
 * DEVS functions that means, per block, a lambda called by pointer on
 * segments, and the Integrators' outputs written as segments first: most
 * of an evaluation's time in a large model. Here the blocks are compiled,
 * when the solver is set up, into a program over one array of values:
 *
 *   slots   [ y (one per state) | outputs of the blocks | values from
 *             outside (sources, blocks that are not part of f) ]
 *   eops    per block, in dependency order (QdEval0Op): the slots of
 *           its inputs, the slot of its output, and what its type's
 *           order-0 evaluation (QdBlockFastPaths.eval0) reads of its
 *           parameters, copied in program order
 *   runs    the blocks of one type that follow each other, one call of
 *           the type's eval0_run each, which inlines its eval0; or,
 *           when their values lie at affine places, one loop over
 *           arrays (eval0_affine, "Affine runs" below)
 *   deriv   per state, the slot of its derivative
 *   lone    the blocks alone whose output is one derivative and no
 *           block's input: after the runs, each its eval0 straight
 *           into dy; or, when they read only states and values from
 *           outside, in the call of an affine run of their type, as its
 *           extra blocks (the LC line's dx1 and dxN)
 *
 * so an evaluation is a copy of the states the slots need, a call per
 * run of blocks reading the array where the values are, one per block
 * alone, and copies of the derivatives that neither wrote in place. The
 * blocks' own code computes every value (eval0 is the order-0 case of
 * their lambda, the same operations in the same order). A block whose
 * type has no eval0 (a plugin's, a Lua block, a Switch with a mode)
 * keeps the DEVS path: its inputs are written as segments before it
 * runs, its outputs read back after.
 */
#include <math.h>
#include <string.h>

#include "qd-classic-rhs-program.h"

#ifdef QD_HAVE_AVX2
gboolean qd_fast_avx2_off = FALSE;
#endif

/* Whether the sum of @x[0 ... @n - 1] is finite, in @lanes independent
 * lanes: a loop that vectorises, one addition per value, with enough
 * chains of them in flight to hide an addition's latency. Defined twice:
 * for the baseline instruction set (sixteen lanes, eight SSE2 vectors)
 * and, where the processor has them, for AVX2's vectors of four
 * (thirty-two lanes): this pass over the derivatives is the only work
 * of an evaluation beyond the blocks' own. */
#define DEFINE_FINITE_SUM(name, lanes, ...)                                 \
  __VA_ARGS__ static gboolean                                               \
  name (const double *x,                                                    \
        gsize         n)                                                    \
  {                                                                         \
    double s[lanes] = { 0.0 }, sum = 0.0;                                   \
    gsize j = 0;                                                            \
                                                                            \
    for (; j + (lanes) <= n; j += (lanes))                                  \
      for (guint u = 0; u < (lanes); u++)                                   \
        s[u] += x[j + u];                                                   \
    for (guint w = (lanes) / 2; w > 0; w /= 2)                              \
      for (guint u = 0; u < w; u++)                                         \
        s[u] += s[u + w];                                                   \
    sum = s[0];                                                             \
    for (; j < n; j++)                                                      \
      sum += x[j];                                                          \
    return isfinite (sum);                                                  \
  }

DEFINE_FINITE_SUM (finite_sum, 16)
#if defined(__x86_64__) && defined(__GNUC__)
#define HAVE_FINITE_SUM_AVX2 1
DEFINE_FINITE_SUM (finite_sum_avx2, 32, __attribute__ ((target ("avx2"))))
#endif

/* -------------------------------------------------------------------- */
/* Building the program */

typedef struct
{
  QdClassicRhs *rhs;
  guint32      *slot_of;        /* per signal: its slot, or NO_SLOT */
  GArray       *in_slots;
  GArray       *readback;
  GArray       *outside;
  GArray       *published;
  GArray       *packed;         /* the copies of eval0 data */
  guint32      *packed_at;      /* per block: its copy's offset, or
                                   NO_SLOT */
} Builder;

static guint32
new_slot (QdClassicRhs *self)
{
  return self->n_slots++;
}

/* The slot that holds the value of @sig during an evaluation; a signal
 * f does not compute is read from outside, once per evaluation. */
static guint32
slot_for (Builder        *b,
          const QdSignal *sig)
{
  QdSimulation *sim = b->rhs->sim;
  gboolean inside = sig >= sim->signals && sig < sim->signals + sim->n_signals;
  Outside o;

  if (inside && b->slot_of[sig - sim->signals] != NO_SLOT)
    return b->slot_of[sig - sim->signals];
  o.slot = new_slot (b->rhs);
  o.signal = sig;
  g_array_append_val (b->outside, o);
  if (inside)
    b->slot_of[sig - sim->signals] = o.slot;
  return o.slot;
}

static const QdBlockFastPaths *
eval0_of (const QdAtomic *a,
          gboolean        flat)
{
  const QdBlockType *type = a->type;

  /* A block with a mode holds it between crossings (frozen_output):
   * eval0 would let it follow the inputs. */
  if (!flat || type->fast == NULL || type->fast->eval0 == NULL
      || type->frozen_output != NULL || a->n_out != 1)
    return NULL;
  return type->fast;
}

/* Marks what block @r, on the DEVS path, reads from f: the states'
 * segments and the flat blocks' outputs must then be written. */
static void
mark_read (Builder *b,
           guint    r)
{
  QdClassicRhs *self = b->rhs;
  QdSimulation *sim = self->sim;
  const QdAtomic *a = self->eops[r].atomic;

  for (guint p = 0; p < a->n_in && p < 64; p++)
    {
      const QdSignal *sig = a->in[p];
      guint32 slot;

      if (!(self->ops[r].ports & (G_GUINT64_CONSTANT (1) << p))
          || !(sig >= sim->signals && sig < sim->signals + sim->n_signals))
        continue;
      slot = b->slot_of[sig - sim->signals];
      if (slot == NO_SLOT)
        continue;
      if (slot < self->n)
        {
          gboolean seen = FALSE;

          for (guint k = 0; k < b->published->len && !seen; k++)
            seen = g_array_index (b->published, guint32, k) == slot;
          if (!seen)
            g_array_append_val (b->published, slot);
          continue;
        }
      for (guint k = 0; k < r; k++)
        if (self->ops[k].eval0 != NULL && self->eops[k].out == slot)
          self->ops[k].publish = 1;
    }
}

/* Block @r of the program. */
static void
add_block (Builder       *b,
           guint          r,
           guint          i,
           guint64        ports,
           gboolean       flat,
           gsize         *max_state)
{
  QdClassicRhs *self = b->rhs;
  QdSimulation *sim = self->sim;
  QdAtomic *a = &sim->atomics[i];
  const QdBlockFastPaths *fast = eval0_of (a, flat);
  QdEval0Op *eop = &self->eops[r];
  Op *op = &self->ops[r];

  eop->atomic = a;
  op->signal = sim->out_base[i];
  op->ports = ports;
  if (fast != NULL)
    {
      op->eval0 = fast->eval0;
      b->packed_at[r] = NO_SLOT;
      if (fast->eval0_data != NULL)
        {
          gsize size = 0;

          eop->data = fast->eval0_data (a, &size);
          /* A copy among the others', in doubles so that it stays
           * aligned. */
          if (size > 0 && size <= 512)
            {
              b->packed_at[r] = b->packed->len;
              if (size % sizeof (double) == 0)
                op->data_size = (guint16) size;
              g_array_set_size (b->packed, b->packed->len
                                + (size + sizeof (double) - 1) / sizeof (double));
              memcpy (&g_array_index (b->packed, double, b->packed_at[r]),
                      eop->data, size);
            }
        }
      /* An index until the array is final (qd_classic_rhs_new()). */
      eop->in = GUINT_TO_POINTER (b->in_slots->len);
      eop->n_in = a->n_in;
      for (guint p = 0; p < a->n_in; p++)
        {
          guint32 slot = slot_for (b, a->in[p]);

          g_array_append_val (b->in_slots, slot);
        }
      eop->out = new_slot (self);
      b->slot_of[op->signal] = eop->out;
      self->n_flat++;
      return;
    }
  /* The DEVS path: its outputs read back into slots of their own. */
  if (!sim->hot[i].is_static && a->type->frozen_output == NULL)
    *max_state = MAX (*max_state, a->type->state_size);
  op->readback = b->readback->len / 2;
  op->n_readback = a->n_out;
  for (guint q = 0; q < a->n_out; q++)
    {
      guint32 pair[2] = { op->signal + q, new_slot (self) };

      g_array_append_vals (b->readback, pair, 2);
      b->slot_of[op->signal + q] = pair[1];
    }
  mark_read (b, r);
}

/* The runs of blocks that one call of their type's eval0_run takes. */
static void
find_runs (QdClassicRhs *self)
{
  self->runs = g_new (Run, MAX (self->n_ops, 1));
  for (guint r = 0; r < self->n_ops; r++)
    {
      const QdBlockType *type = self->eops[r].atomic->type;
      QdEval0RunFunc run = self->ops[r].eval0 != NULL && !self->ops[r].publish
                           ? type->fast->eval0_run : NULL;
      Run *last = self->n_runs > 0 ? &self->runs[self->n_runs - 1] : NULL;

      if (self->ops[r].lone)
        continue;
      if (run != NULL && last != NULL && last->run == run
          && last->first + last->n == r)
        last->n++;
      else
        self->runs[self->n_runs++] = (Run) { run, r, 1, NO_SLOT };
    }
}

/* -------------------------------------------------------------------- */
/* Affine runs
 *
 * A large model is mostly blocks of one type that follow each other in
 * the program and read their inputs at affine places: block j of the
 * run reads its input i in slot a_i + s_i j and writes slot o + j (the
 * LC line's sums, x(j−1) − x(j+1); a vector block's elements). Such a
 * run goes through its type's eval0_affine, loops over arrays with no
 * index read per block, reading the states in y itself and writing the
 * derivatives in dy itself when they are its outputs and nothing else
 * reads them. The values are those of eval0, block for block; the
 * blocks of a run are independent of each other (none reads another's
 * output), so that the order in which a loop takes them is free. A run
 * whose inputs all go backwards (the states in the opposite order to
 * the blocks) is turned round, its blocks and their output slots, so
 * that its loops and the derivatives' copy go forwards. Whatever is
 * irregular stays one block at a time. */

/* Fewer blocks than this stay one at a time (a loop costs its set-up). */
#define MIN_AFFINE 4

static gboolean
same_data (const QdEval0Op *a,
           const QdEval0Op *b,
           gsize            size)
{
  return a->data == b->data || (size > 0 && memcmp (a->data, b->data, size) == 0);
}

/* How many blocks from @r0 (before @end, all of one eval0_run) form an
 * affine run, described in *@aff; 1 when not even two do. */
static guint
affine_length (QdClassicRhs *self,
               guint         r0,
               guint         end,
               Affine       *aff)
{
  const QdEval0Op *e0 = &self->eops[r0], *e1 = &self->eops[r0 + 1];
  const Op *o0 = &self->ops[r0];
  guint n_in = e0->n_in, j;

  if (r0 + 1 >= end || n_in > QD_EVAL0_AFFINE_MAX_IN
      || (e0->data != NULL && o0->data_size == 0)
      || e1->n_in != n_in || self->ops[r0 + 1].data_size != o0->data_size
      || e1->out != e0->out + 1)
    return 1;
  memset (aff, 0, sizeof *aff);
  aff->n_in = n_in;
  aff->out = e0->out;
  aff->data = e0->data;
  aff->data_stride = e0->data == NULL || same_data (e0, e1, o0->data_size)
                     ? 0 : (const double *) e1->data - (const double *) e0->data;
  for (guint i = 0; i < n_in; i++)
    {
      aff->in[i] = e0->in[i];
      aff->in_stride[i] = (gint64) e1->in[i] - (gint64) e0->in[i];
    }
  for (j = 1; r0 + j < end; j++)
    {
      const QdEval0Op *e = &self->eops[r0 + j];
      gboolean fits = e->n_in == n_in && e->out == aff->out + j
                      && self->ops[r0 + j].data_size == o0->data_size
                      && (aff->data_stride != 0
                          ? (const double *) e->data
                            == aff->data + (gssize) j * aff->data_stride
                          : e0->data == NULL || same_data (e0, e, o0->data_size));

      for (guint i = 0; i < n_in && fits; i++)
        fits = (gint64) e->in[i] == (gint64) aff->in[i] + (gint64) j * aff->in_stride[i]
               /* Not an output of the run: the blocks are independent. */
               && !(e->in[i] >= aff->out && e->in[i] <= aff->out + j);
      if (!fits)
        break;
    }
  aff->n = j;
  return j;
}

/* The runs of find_runs() whose type has eval0_affine, split into affine
 * runs and what is left between them. */
static void
find_affine (QdClassicRhs *self)
{
  GArray *runs = g_array_new (FALSE, FALSE, sizeof (Run));
  GArray *affine = g_array_new (FALSE, FALSE, sizeof (Affine));

  self->n_affine_blocks = 0;
  for (guint k = 0; k < self->n_runs; k++)
    {
      Run run = self->runs[k];
      const QdBlockFastPaths *fast = run.run != NULL
                                     ? self->eops[run.first].atomic->type->fast
                                     : NULL;
      QdEval0AffineFunc func = fast != NULL ? fast->eval0_affine : NULL;
      guint end = run.first + run.n, r = run.first, rest = run.first;

      while (func != NULL && r < end)
        {
          Affine aff;
          guint len = affine_length (self, r, end, &aff);
          Run whole = { NULL, r, len, affine->len };

          if (len < MIN_AFFINE)
            {
              r++;
              continue;
            }
          if (rest < r)
            g_array_append_val (runs, ((Run) { run.run, rest, r - rest, NO_SLOT }));
          aff.func = func;
          aff.pick = fast->eval0_affine_pick;
          aff.to_dy = NO_SLOT;
          g_array_append_val (affine, aff);
          g_array_append_val (runs, whole);
          self->n_affine_blocks += len;
          r = rest = r + len;
        }
      if (rest < end)
        g_array_append_val (runs, ((Run) { run.run, rest, end - rest, NO_SLOT }));
    }
  g_free (self->runs);
  g_free (self->affine);
  self->n_runs = runs->len;
  self->runs = (Run *) g_array_free (runs, FALSE);
  self->n_affine = affine->len;
  self->affine = (Affine *) g_array_free (affine, FALSE);
}

/* Turns round the affine runs whose inputs all go backwards: their
 * blocks in the program and their output slots. FALSE when there is
 * none. */
static gboolean
turn_round (QdClassicRhs *self)
{
  g_autofree guint32 *perm = NULL;
  gboolean any = FALSE;

  for (guint k = 0; k < self->n_runs; k++)
    {
      const Run *run = &self->runs[k];
      const Affine *aff;
      gboolean back;

      if (run->affine == NO_SLOT)
        continue;
      aff = &self->affine[run->affine];
      back = aff->n_in > 0;
      for (guint i = 0; i < aff->n_in; i++)
        back = back && aff->in_stride[i] < 0;
      if (!back)
        continue;
      if (perm == NULL)
        {
          perm = g_new (guint32, self->n_slots);
          for (guint32 s = 0; s < self->n_slots; s++)
            perm[s] = s;
        }
      for (guint j = 0; j < aff->n; j++)
        perm[aff->out + j] = aff->out + aff->n - 1 - j;
      for (guint j = 0; j < aff->n / 2; j++)
        {
          guint a = run->first + j, b = run->first + aff->n - 1 - j;
          QdEval0Op e = self->eops[a];
          Op o = self->ops[a];

          self->eops[a] = self->eops[b];
          self->eops[b] = e;
          self->ops[a] = self->ops[b];
          self->ops[b] = o;
        }
      any = TRUE;
    }
  if (!any)
    return FALSE;
  for (guint e = 0; e < self->n_in_slots; e++)
    self->in_slots[e] = perm[self->in_slots[e]];
  for (guint r = 0; r < self->n_ops; r++)
    if (self->ops[r].eval0 != NULL)
      self->eops[r].out = perm[self->eops[r].out];
  for (guint k = 0; k < self->n; k++)
    self->deriv[k] = perm[self->deriv[k]];
  return TRUE;
}

/* Moves to the front of the program the blocks one at a time (of no
 * affine run, with an eval0) that read only states, values from outside
 * f or outputs of blocks so moved, when one of them comes after an
 * affine run: the LC line's dx1 and dxN, then side by side, go through
 * one call of their type's eval0_run instead of one each on either side
 * of the run. The order stays one of dependencies: a block moved reads
 * nothing computed after it, and keeps its place among those moved.
 * FALSE when nothing moved. */
static gboolean
hoist_singles (QdClassicRhs *self)
{
  g_autofree guint8 *in_run = g_new0 (guint8, MAX (self->n_ops, 1));
  g_autofree guint8 *early = g_new0 (guint8, MAX (self->n_slots, 1));
  g_autofree guint8 *moved = g_new0 (guint8, MAX (self->n_ops, 1));
  guint first_affine = G_MAXUINT, m = 0;
  gboolean after = FALSE;
  QdEval0Op *eops;
  Op *ops;

  for (guint k = 0; k < self->n_runs; k++)
    if (self->runs[k].affine != NO_SLOT)
      {
        first_affine = MIN (first_affine, self->runs[k].first);
        memset (in_run + self->runs[k].first, 1, self->runs[k].n);
      }
  if (first_affine == G_MAXUINT)
    return FALSE;
  memset (early, 1, MIN (self->n, self->n_slots));
  for (guint e = 0; e < self->n_outside; e++)
    early[self->outside[e].slot] = 1;
  for (guint r = 0; r < self->n_ops; r++)
    {
      const QdEval0Op *e = &self->eops[r];
      gboolean ok = !in_run[r] && self->ops[r].eval0 != NULL;

      for (guint i = 0; i < e->n_in && ok; i++)
        ok = early[e->in[i]];
      if (!ok)
        continue;
      early[e->out] = moved[r] = 1;
      after |= r > first_affine;
    }
  if (!after)
    return FALSE;

  eops = g_new0 (QdEval0Op, self->n_ops + PREFETCH_AHEAD);
  ops = g_new0 (Op, MAX (self->n_ops, 1));
  for (guint pass = 0; pass < 2; pass++)
    for (guint r = 0; r < self->n_ops; r++)
      if (moved[r] == (pass == 0))
        {
          eops[m] = self->eops[r];
          ops[m++] = self->ops[r];
        }
  g_free (self->eops);
  g_free (self->ops);
  self->eops = eops;
  self->ops = ops;
  return TRUE;
}

/* Marks in @need the states that slots @slot + j @stride (j < @n) read. */
static void
need_states (QdClassicRhs *self,
             guint8       *need,
             gint64        slot,
             gint64        stride,
             guint         n)
{
  for (guint j = 0; j < n; j++)
    if (slot + (gint64) j * stride < (gint64) self->n)
      need[slot + (gint64) j * stride] = 1;
}

/* @aff's QdEval0Affine, its addresses in the slots (those in y and dy
 * change from one evaluation to the next). */
static void
fill_run (QdClassicRhs *self,
          Affine       *aff)
{
  QdEval0Affine *run = &aff->run;

  memset (run, 0, sizeof *run);
  for (guint i = 0; i < aff->n_in; i++)
    {
      run->in[i] = aff->in_y[i] ? NULL : self->slots + aff->in[i];
      run->in_stride[i] = (gssize) aff->in_stride[i];
    }
  run->out = aff->to_dy != NO_SLOT ? NULL : self->slots + aff->out;
  run->data = aff->data;
  run->data_stride = aff->data_stride;
  run->n = aff->n;
  run->n_in = aff->n_in;
  if (aff->pick != NULL)
    aff->func = aff->pick (run);
}

/* Per slot, how many read it: blocks through their eval0 and the
 * derivatives; and which state's derivative it is (the first one's),
 * or NO_SLOT. */
static void
count_readers (QdClassicRhs *self,
               guint32      *readers,
               guint32      *deriv_of)
{
  for (guint e = 0; e < self->n_in_slots; e++)
    readers[self->in_slots[e]]++;
  for (guint32 s = 0; s < self->n_slots; s++)
    deriv_of[s] = NO_SLOT;
  for (guint k = self->n; k-- > 0;)
    {
      readers[self->deriv[k]]++;
      deriv_of[self->deriv[k]] = k;
    }
}

/* Marks the blocks of no affine run, through their eval0, whose output
 * is one state's derivative and read by nothing else, and lists them in
 * lone (the LC line's dx1 and dxN). FALSE when there is none. */
static gboolean
find_lone (QdClassicRhs *self)
{
  g_autofree guint32 *readers = g_new0 (guint32, MAX (self->n_slots, 1));
  g_autofree guint32 *deriv_of = g_new (guint32, MAX (self->n_slots, 1));
  g_autofree guint8 *in_affine = g_new0 (guint8, MAX (self->n_ops, 1));
  GArray *lone = g_array_new (FALSE, FALSE, sizeof (Lone));

  count_readers (self, readers, deriv_of);
  for (guint k = 0; k < self->n_runs; k++)
    if (self->runs[k].affine != NO_SLOT)
      memset (in_affine + self->runs[k].first, 1, self->runs[k].n);
  for (guint r = 0; r < self->n_ops; r++)
    {
      Op *op = &self->ops[r];
      const QdEval0Op *e = &self->eops[r];
      Lone l;

      if (op->eval0 == NULL || op->publish || in_affine[r]
          || readers[e->out] != 1 || deriv_of[e->out] == NO_SLOT)
        continue;
      op->lone = 1;
      l = (Lone) { op->eval0, e->atomic, e->data, e->in, e->n_in,
                   deriv_of[e->out] };
      g_array_append_val (lone, l);
    }
  g_free (self->lone);
  self->n_lone = lone->len;
  self->lone = (Lone *) g_array_free (lone, FALSE);
  return self->n_lone > 0;
}

/* Gives the blocks alone (find_lone()) that read only states and values
 * from outside f to an affine run of their type, up to
 * QD_EVAL0_AFFINE_MAX_EXTRA each, which evaluates them in its own call
 * (QdEval0Affine.extra): the LC line's dx1, which reads the Pulse, and
 * dxN, which has one input, then cost no call each after the program.
 * Their inputs are in the slots before the program runs and their
 * outputs are derivatives nothing else reads, so that where they are
 * evaluated changes no value. */
static void
take_extras (QdClassicRhs *self)
{
  g_autofree guint8 *ready = g_new0 (guint8, MAX (self->n_slots, 1));
  guint kept = 0;

  memset (ready, 1, MIN (self->n, self->n_slots));
  for (guint e = 0; e < self->n_outside; e++)
    ready[self->outside[e].slot] = 1;
  for (guint e = 0; e < self->n_lone; e++)
    {
      const Lone *l = &self->lone[e];
      gboolean ok = l->n_in <= QD_EVAL0_AFFINE_MAX_IN;
      Affine *aff = NULL;

      for (guint i = 0; i < l->n_in && ok; i++)
        ok = ready[l->in[i]];
      for (guint r = 0; r < self->n_runs && ok && aff == NULL; r++)
        {
          const Run *run = &self->runs[r];

          if (run->affine != NO_SLOT
              && self->eops[run->first].atomic->type == l->atomic->type
              && self->affine[run->affine].run.n_extra < QD_EVAL0_AFFINE_MAX_EXTRA)
            aff = &self->affine[run->affine];
        }
      if (aff == NULL)
        {
          self->lone[kept++] = *l;
          continue;
        }
      /* They read the slots; dy is set at each evaluation. */
      aff->run.v = self->slots;
      aff->run.extra[aff->run.n_extra++] = (QdEval0Extra) { l->data, l->in, l->n_in, l->k };
    }
  self->n_lone = kept;
}

/* A block alone that writes the derivative of state @k into dy, by
 * itself or taken along by an affine run: marks in @need the states its
 * inputs @in read in the slots, and @k in @covered. */
static void
need_alone (QdClassicRhs  *self,
            guint8        *need,
            guint8        *covered,
            const guint32 *in,
            guint          n_in,
            guint32        k)
{
  for (guint i = 0; i < n_in; i++)
    need_states (self, need, in[i], 0, 1);
  covered[k] = 1;
}

/* Where the affine runs read and write (y, dy or the slots), the
 * derivatives left to copy and the states the slots need. */
static void
place_affine (QdClassicRhs *self)
{
  g_autofree guint32 *readers = g_new0 (guint32, MAX (self->n_slots, 1));
  g_autofree guint32 *deriv_of = g_new (guint32, MAX (self->n_slots, 1));
  g_autofree guint8 *covered = g_new0 (guint8, MAX (self->n, 1));
  g_autofree guint8 *need = g_new0 (guint8, MAX (self->n, 1));
  GArray *copies = g_array_new (FALSE, FALSE, sizeof (Copy));
  GArray *needed = g_array_new (FALSE, FALSE, sizeof (guint32));

  count_readers (self, readers, deriv_of);
  self->n_to_dy = 0;
  for (guint r = 0; r < self->n_runs; r++)
    {
      const Run *run = &self->runs[r];
      Affine *aff = run->affine != NO_SLOT ? &self->affine[run->affine] : NULL;
      guint32 k0;
      gboolean direct;

      if (aff == NULL)
        {
          /* One at a time, reading the slots. */
          for (guint q = run->first; q < run->first + run->n; q++)
            if (self->ops[q].eval0 != NULL)
              for (guint i = 0; i < self->eops[q].n_in; i++)
                need_states (self, need, self->eops[q].in[i], 0, 1);
          continue;
        }
      for (guint i = 0; i < aff->n_in; i++)
        {
          gint64 last = aff->in[i] + (gint64) (aff->n - 1) * aff->in_stride[i];

          aff->in_y[i] = MAX (aff->in[i], last) < (gint64) self->n;
          if (!aff->in_y[i])
            need_states (self, need, aff->in[i], aff->in_stride[i], aff->n);
        }
      k0 = deriv_of[aff->out];
      direct = k0 != NO_SLOT && k0 + aff->n <= self->n;
      for (guint j = 0; j < aff->n && direct; j++)
        direct = readers[aff->out + j] == 1 && self->deriv[k0 + j] == aff->out + j;
      if (!direct)
        continue;
      aff->to_dy = k0;
      memset (covered + k0, 1, aff->n);
      self->n_to_dy += aff->n;
    }

  for (guint r = 0; r < self->n_affine; r++)
    fill_run (self, &self->affine[r]);
  take_extras (self);
  /* The blocks alone that write into dy read the slots, alone or taken
   * along by an affine run. */
  for (guint e = 0; e < self->n_lone; e++)
    need_alone (self, need, covered, self->lone[e].in, self->lone[e].n_in,
                self->lone[e].k);
  for (guint r = 0; r < self->n_affine; r++)
    {
      const QdEval0Affine *run = &self->affine[r].run;

      for (guint e = 0; e < run->n_extra; e++)
        need_alone (self, need, covered, run->extra[e].in,
                    run->extra[e].n_in, run->extra[e].k);
    }

  /* The other derivatives, from consecutive slots at once. */
  for (guint k = 0; k < self->n; k++)
    {
      Copy *last = copies->len > 0 ? &g_array_index (copies, Copy, copies->len - 1) : NULL;

      if (covered[k])
        continue;
      need_states (self, need, self->deriv[k], 0, 1);
      if (last != NULL && last->k + last->n == k
          && last->slot + last->n == self->deriv[k])
        last->n++;
      else
        g_array_append_val (copies, ((Copy) { k, self->deriv[k], 1 }));
    }
  self->n_copies = copies->len;
  self->copies = (Copy *) g_array_free (copies, FALSE);
  /* Those alone first: their loop keeps its sum in a register. */
  self->n_singles = 0;
  for (guint e = 0; e < self->n_copies; e++)
    if (self->copies[e].n == 1)
      {
        Copy c = self->copies[e];

        self->copies[e] = self->copies[self->n_singles];
        self->copies[self->n_singles++] = c;
      }

  for (guint32 k = 0; k < self->n; k++)
    if (need[k])
      g_array_append_val (needed, k);
  /* Many of them: one copy of all is cheaper. */
  self->y_all = needed->len > self->n / 4;
  self->straight = self->n_published == 0 && self->n_copies == 0
                   && self->n_runs == self->n_affine;
  self->n_y_needed = needed->len;
  self->y_needed = (guint32 *) g_array_free (needed, FALSE);
}

/* The runs and affine runs again, once blocks have moved in the program
 * or been marked alone. */
static void
find_runs_again (QdClassicRhs *self)
{
  self->n_runs = 0;
  g_free (self->runs);
  find_runs (self);
  find_affine (self);
}

static void
plan_affine (QdClassicRhs *self)
{
  find_affine (self);
  if (turn_round (self) | hoist_singles (self))
    find_runs_again (self);
  if (find_lone (self))
    find_runs_again (self);
  place_affine (self);
}

QdClassicRhs *
qd_classic_rhs_new (QdSimulation  *sim,
                    const guint   *states,
                    guint          n_states,
                    const guint   *blocks,
                    guint          n_blocks,
                    const guint64 *ports,
                    gboolean       flat)
{
  QdClassicRhs *self = g_new0 (QdClassicRhs, 1);
  Builder b = { self, NULL, NULL, NULL, NULL, NULL, NULL, NULL };
  gsize max_state = 0;

  self->sim = sim;
  self->n = n_states;
  self->states = states;
  self->direct = -1;
  self->finite_sum = finite_sum;
#ifdef HAVE_FINITE_SUM_AVX2
  if (__builtin_cpu_supports ("avx2"))
    self->finite_sum = finite_sum_avx2;
#endif
  b.slot_of = g_new (guint32, MAX (sim->n_signals, 1));
  for (guint s = 0; s < sim->n_signals; s++)
    b.slot_of[s] = NO_SLOT;
  b.in_slots = g_array_new (FALSE, FALSE, sizeof (guint32));
  b.readback = g_array_new (FALSE, FALSE, sizeof (guint32));
  b.outside = g_array_new (FALSE, FALSE, sizeof (Outside));
  b.published = g_array_new (FALSE, FALSE, sizeof (guint32));
  b.packed = g_array_new (FALSE, TRUE, sizeof (double));
  b.packed_at = g_new (guint32, MAX (n_blocks, 1));

  /* The states first: slot k is y[k]. */
  for (guint k = 0; k < n_states; k++)
    b.slot_of[sim->out_base[states[k]]] = new_slot (self);

  self->eops = g_new0 (QdEval0Op, n_blocks + PREFETCH_AHEAD);
  self->ops = g_new0 (Op, MAX (n_blocks, 1));
  self->n_ops = n_blocks;
  for (guint r = 0; r < n_blocks; r++)
    add_block (&b, r, blocks[r], ports[r], flat, &max_state);

  self->deriv = g_new (guint32, MAX (n_states, 1));
  for (guint k = 0; k < n_states; k++)
    self->deriv[k] = slot_for (&b, sim->atomics[states[k]].in[0]);

  self->slots = g_new0 (double, MAX (self->n_slots, 1));
  self->n_in_slots = b.in_slots->len;
  self->in_slots = (guint32 *) g_array_free (b.in_slots, FALSE);
  for (guint r = 0; r < n_blocks; r++)
    if (self->ops[r].eval0 != NULL && self->eops[r].n_in > 0)
      self->eops[r].in = self->in_slots
                         + GPOINTER_TO_UINT (self->eops[r].in);
    else
      self->eops[r].in = NULL;
  self->packed = (double *) g_array_free (b.packed, FALSE);
  for (guint r = 0; r < n_blocks; r++)
    if (self->ops[r].eval0 != NULL && b.packed_at[r] != NO_SLOT)
      self->eops[r].data = self->packed + b.packed_at[r];
  g_free (b.packed_at);
  self->readback = (guint32 *) g_array_free (b.readback, FALSE);
  self->n_outside = b.outside->len;
  self->outside = (Outside *) g_array_free (b.outside, FALSE);
  self->n_published = b.published->len;
  self->published = (guint32 *) g_array_free (b.published, FALSE);
  self->snapshot = g_malloc0 (MAX (max_state, 1));
  g_free (b.slot_of);
  find_runs (self);
  plan_affine (self);
  return self;
}

void
qd_classic_rhs_free (QdClassicRhs *self)
{
  if (self == NULL)
    return;
  g_free (self->slots);
  g_free (self->eops);
  g_free (self->ops);
  g_free (self->runs);
  g_free (self->affine);
  g_free (self->lone);
  g_free (self->copies);
  g_free (self->y_needed);
  g_free (self->in_slots);
  g_free (self->readback);
  g_free (self->outside);
  g_free (self->published);
  g_free (self->deriv);
  g_free (self->snapshot);
  g_free (self->packed);
  g_free (self->emit);
  g_free (self->sinks);
  g_free (self->sink_ta);
  g_free (self->d_internal);
  g_free (self->d_external);
  g_free (self);
}

guint
qd_classic_rhs_n_flat (const QdClassicRhs *self)
{
  return self->n_flat;
}

void
qd_classic_rhs_affine_counts (const QdClassicRhs *self,
                              guint              *n_blocks,
                              guint              *n_runs,
                              guint              *n_to_dy)
{
  *n_blocks = self->n_affine_blocks;
  *n_runs = self->n_affine;
  *n_to_dy = self->n_to_dy;
}

guint
qd_classic_rhs_n_lone (const QdClassicRhs *self)
{
  return self->n_lone;
}

guint
qd_classic_rhs_n_extra (const QdClassicRhs *self)
{
  guint n = 0;

  for (guint r = 0; r < self->n_affine; r++)
    n += self->affine[r].run.n_extra;
  return n;
}

guint
qd_classic_rhs_n_calls (const QdClassicRhs *self)
{
  guint calls = self->n_lone;

  for (guint k = 0; k < self->n_runs; k++)
    calls += self->runs[k].affine != NO_SLOT || self->runs[k].run != NULL
             ? 1 : self->runs[k].n;
  return calls;
}

/* -------------------------------------------------------------------- */
/* Evaluating it */

/* Block @r on the DEVS path, on the segments of its inputs. */
static void
run_devs (QdClassicRhs *self,
          guint         r,
          double        t)
{
  QdSimulation *sim = self->sim;
  const Op *op = &self->ops[r];
  QdAtomic *a = self->eops[r].atomic;
  const QdBlockType *type = a->type;
  double *v = self->slots;

  if (sim->hot[a->index].is_static)
    sim->hot[a->index].lambda (a, t);
  else if (type->frozen_output != NULL)
    type->frozen_output (a, t);
  else
    {
      /* A block with a state: what its transitions would make of the
       * inputs f sets (not of an event input, a command), then its
       * state as it was. */
      memcpy (self->snapshot, a->state, type->state_size);
      for (guint p = 0; p < a->n_in; p++)
        if (op->ports & (G_GUINT64_CONSTANT (1) << p))
          type->dext (a, t, 0.0, p, a->in[p]);
      if (type->ta (a) == 0.0)
        type->lambda (a, t);
      memcpy (a->state, self->snapshot, type->state_size);
    }
  for (guint q = 0; q < op->n_readback; q++)
    {
      const guint32 *pair = &self->readback[2 * (op->readback + q)];

      v[pair[1]] = qd_signal_eval (&sim->signals[pair[0]], t);
    }
}

/* Block @r alone: its eval0, or its DEVS functions. */
static void
run_one (QdClassicRhs *self,
         guint         r,
         double        t)
{
  const Op *op = &self->ops[r];
  const QdEval0Op *eop = &self->eops[r];
  double *v = self->slots, x;

  if (op->eval0 == NULL)
    {
      run_devs (self, r, t);
      return;
    }
  /* The blocks' data are spread over their records: asked for early,
   * they do not each wait for memory. */
  __builtin_prefetch (eop[PREFETCH_AHEAD].data);
  x = op->eval0 (eop->atomic, eop->data, t, v, eop->in, eop->n_in);
  v[eop->out] = x;
  if (G_UNLIKELY (op->publish))
    qd_signal_set_constant (&self->sim->signals[op->signal], t, x);
}

/* Whether every one of @x[0 ... @n - 1] is finite. Many: their sum
 * first, finite when they all are (an infinity or a NaN never cancels
 * out); only when it is not (or it overflowed) are they looked at one
 * by one. */
static gboolean
all_finite (const QdClassicRhs *self,
            const double       *x,
            gsize               n)
{
  gboolean bad = FALSE;

  /* A few: one by one, or-ed (no branch per value). */
  if (n >= 64 && G_LIKELY (self->finite_sum (x, n)))
    return TRUE;
  for (gsize j = 0; j < n; j++)
    bad |= !isfinite (x[j]);
  return !bad;
}

/* Whether the derivatives @aff wrote, its own and its extra blocks',
 * are all finite, when its function's value is not. */
static gboolean
affine_finite (const QdClassicRhs *self,
               const Affine       *aff)
{
  const QdEval0Affine *run = &aff->run;
  gboolean bad = aff->to_dy != NO_SLOT && !all_finite (self, run->out, run->n);

  for (guint e = 0; e < run->n_extra; e++)
    bad |= !isfinite (run->dy[run->extra[e].k]);
  return !bad;
}

/* An affine run, given the addresses of this evaluation's y and dy;
 * FALSE when it wrote derivatives and one of them is not finite. */
static inline gboolean
run_affine (Affine       *aff,
            const double *y,
            double       *dy,
            double        t,
            QdClassicRhs *self)
{
  QdEval0Affine *run = &aff->run;
  guint n_in = aff->n_in;
  double check;

  for (guint i = 0; i < n_in; i++)
    if (aff->in_y[i])
      run->in[i] = y + aff->in[i];
  if (aff->to_dy != NO_SLOT)
    run->out = dy + aff->to_dy;
  run->dy = dy;
  check = aff->func (run, t);
  if ((aff->to_dy == NO_SLOT && run->n_extra == 0) || G_LIKELY (isfinite (check)))
    return TRUE;
  return affine_finite (self, aff);
}

/* Whether the derivatives copied one by one and those of the blocks
 * alone are all finite, when their sum is not: it may have overflowed. */
static gboolean
singles_finite (const QdClassicRhs *self,
                const double       *dy)
{
  gboolean bad = FALSE;

  for (guint e = 0; e < self->n_singles; e++)
    bad |= !isfinite (dy[self->copies[e].k]);
  for (guint e = 0; e < self->n_lone; e++)
    bad |= !isfinite (dy[self->lone[e].k]);
  return !bad;
}

/* The blocks alone or in runs, in program order. */
static gboolean
run_program (QdClassicRhs *self,
             double        t,
             const double *y,
             double       *dy)
{
  const Run *runs = self->runs;
  guint n_runs = self->n_runs;
  gboolean finite = TRUE;

  for (guint k = 0; k < n_runs; k++)
    {
      const Run *run = &runs[k];

      if (run->affine != NO_SLOT)
        finite &= run_affine (&self->affine[run->affine], y, dy, t, self);
      else if (run->run != NULL)
        run->run (&self->eops[run->first], run->n, t, self->slots);
      else
        for (guint r = run->first; r < run->first + run->n; r++)
          run_one (self, r, t);
    }
  return finite;
}

/* qd_signal_eval() of @sig at @t, to the bit: for a constant segment
 * (a source's, the commonest from outside f), c0 + s·0 without Horner's
 * chain of three products and sums, which each evaluation would wait
 * for. The same value: with c1 = c2 = c3 = +0 (as
 * qd_signal_set_constant() writes them), Horner's inner terms are +0 and
 * its last step c0 + s·(+0). Any other segment, Horner. */
static inline double
outside_eval (const QdSignal *sig,
              double          t)
{
  guint64 c1, c2, c3;

  memcpy (&c1, &sig->c[1], sizeof c1);
  memcpy (&c2, &sig->c[2], sizeof c2);
  memcpy (&c3, &sig->c[3], sizeof c3);
  if ((c1 | c2 | c3) == 0)
    return sig->c[0] + (t - sig->t) * 0.0;
  return qd_signal_eval (sig, t);
}

/* The states where the slots are read (affine runs read y), and the
 * values from outside f. Each loop keeps its bounds and arrays in
 * locals: the stores into the slots would otherwise make the compiler
 * read them again at every value. */
static inline void
load_slots (QdClassicRhs *self,
            double        t,
            const double *y)
{
  double *restrict v = self->slots;
  const guint32 *needed = self->y_needed;
  const Outside *outside = self->outside;
  guint n_needed = self->n_y_needed, n_outside = self->n_outside;

  if (G_UNLIKELY (self->y_all))
    memcpy (v, y, self->n * sizeof (double));
  else
    for (guint e = 0; e < n_needed; e++)
      v[needed[e]] = y[needed[e]];
  for (guint e = 0; e < n_outside; e++)
    v[outside[e].slot] = outside_eval (outside[e].signal, t);
}

/* The blocks alone, after the program, into dy: their sum (finite when
 * they all are). */
static inline double
run_lone (QdClassicRhs *self,
          double        t,
          double       *dy)
{
  const double *v = self->slots;
  const Lone *lone = self->lone;
  guint n_lone = self->n_lone;
  double sum = 0.0;

  for (guint e = 0; e < n_lone; e++)
    {
      double x = lone[e].eval0 (lone[e].atomic, lone[e].data, t, v,
                                lone[e].in, lone[e].n_in);

      dy[lone[e].k] = x;
      sum += x;
    }
  return sum;
}

/* qd_classic_rhs_eval() of a program of affine runs and blocks alone
 * (straight: the LC line's), with nothing to publish or to copy after:
 * the runs' functions called one after the other, in program order,
 * without a test per run of what kind it is. */
G_GNUC_NO_INLINE static gboolean
eval_straight (QdClassicRhs *self,
               double        t,
               const double *y,
               double       *dy)
{
  Affine *affine = self->affine;
  guint n_affine = self->n_affine;
  gboolean finite = TRUE;
  double sum;

  load_slots (self, t, y);
  for (guint r = 0; r < n_affine; r++)
    finite &= run_affine (&affine[r], y, dy, t, self);
  sum = run_lone (self, t, dy);
  if (G_UNLIKELY (!isfinite (sum)))
    finite &= singles_finite (self, dy);
  return finite;
}

/* qd_classic_rhs_eval() of any program. */
G_GNUC_NO_INLINE static gboolean
eval_program (QdClassicRhs *self,
              double        t,
              const double *y,
              double       *dy)
{
  QdSimulation *sim = self->sim;
  double *restrict v = self->slots;
  const Copy *copies = self->copies;
  guint n_singles = self->n_singles, n_copies = self->n_copies;
  double sum;
  gboolean finite;

  load_slots (self, t, y);
  for (guint e = 0; e < self->n_published; e++)
    {
      guint k = self->published[e];

      qd_signal_set_constant (&sim->signals[sim->out_base[self->states[k]]],
                              t, y[k]);
    }
  finite = run_program (self, t, y, dy);
  sum = run_lone (self, t, dy);
  /* The runs that write derivatives have tested theirs, the blocks alone
   * are in the sum; the others are tested as they are copied: one alone
   * added to the sum, finite when
   * they all are (looked at one by one only when it is not), several at
   * once as a stretch. */
  for (guint e = 0; e < n_singles; e++)
    {
      double x = v[copies[e].slot];

      dy[copies[e].k] = x;
      sum += x;
    }
  for (guint e = n_singles; e < n_copies; e++)
    {
      const Copy *c = &copies[e];

      memcpy (dy + c->k, v + c->slot, c->n * sizeof (double));
      finite &= all_finite (self, dy + c->k, c->n);
    }
  if (G_UNLIKELY (!isfinite (sum)))
    finite &= singles_finite (self, dy);
  return finite;
}

/* Either of the two, a jump: neither has to keep the other's registers
 * (the straight one, in the LC line of 10² states, does a third of the
 * work of an evaluation beside the loop). */
gboolean
qd_classic_rhs_eval (QdClassicRhs *self,
                     double        t,
                     const double *y,
                     double       *dy)
{
  if (self->straight)
    return eval_straight (self, t, y, dy);
  return eval_program (self, t, y, dy);
}

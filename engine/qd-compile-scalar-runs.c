/* qd-compile-scalar-runs.c: regular runs of scalar blocks compiled as
 * native vector blocks
 *
 * A large model drawn block by block (the LC line of a million sections:
 * dx1, x1, dx2, x2, ...) is mostly runs of the same pair of blocks. Each
 * such run can be one native vector Integrator and one native vector
 * Weighted Sum or Gain (qd-compile-vector-native.c), which cost a
 * fraction of the memory and compile time of a million QdAtomics and run
 * the same events. This file finds the runs in the root system and
 * writes a small document with each run as vector blocks (an Integrator
 * of size K, its x0 list kept aside as numbers; the Weighted Sum; an
 * Index Shift per input read at an offset), the other blocks copied; the
 * native path compiles it.
 *
 * A run is K >= 2 units (a feeder, a Weighted Sum or Gain, and the
 * Integrator it alone feeds, in that order) one after the other in
 * priority order, with nothing else between them:
 *
 *  - the Integrators of one type, with the same parameters but x0 (each
 *    a number, or the same text for all), which the native form accepts
 *    (QSS1 to QSS3);
 *  - the feeders of one type and parameters, except that one at an end
 *    may have fewer inputs when its type says the missing ones read as
 *    zero (QdBlockFastPaths.vector_fewer_inputs: dxN = x(N−1) beside
 *    dxi = x(i−1) − x(i+1));
 *  - input q of every feeder reads the run's Integrator at a constant
 *    offset k >= −1 (element i reads i + k: an Index Shift of −k); the
 *    elements it shifts in read zero (a missing input), or, for k = −1,
 *    one signal from outside the run (the Index Shift's second input);
 *  - nothing outside the run reads its blocks but a Scope or To CSV
 *    reading an Integrator: that port is bound to the element (the
 *    native path's sinks, qd_scalar_runs_bind_sinks()), and shows the
 *    same trace, named as drawn.
 *
 * What does not fit stays scalar, next to the runs: a model may mix
 * both. Only the root system is searched, and only when it has no
 * subsystem, no vector block and a QSS solver: the native path allows
 * neither (docs/vectors.md). Any other block reading an element leaves
 * its run scalar (the native blocks' elements are read only by native
 * blocks and sinks).
 *
 * The runs are taken from QD_VECTOR_NATIVE_MIN elements in all (both
 * blocks of a unit count, as the native path counts them), or with
 * QDEVS_VECTORS=native; never with QDEVS_VECTORS=expand. Below the
 * threshold the scalar model's fused cascades run faster.
 *
 * Why the events are the scalar model's, in its order. At one time the
 * loop takes the due blocks by priority. Scalar, the run is f1, x1, f2,
 * x2, ...; native, it is the vector f and then the vector x, each giving
 * out its due elements by index (qd-compile-vector-native.c). An event
 * of x_i makes f_j due for j = i − k; with k >= −1, j <= i + 1, so
 * scalar every such f_j comes before x(i+1) too: in both orders the due
 * feeders go, by index, before the next Integrator, and the Integrators
 * go by index. An outside signal reaches only f1, the run's first block
 * in both orders. What breaks this, and so stays scalar:
 *
 *  - an offset below −1: x_i makes f(i+2) due, which scalar comes after
 *    x(i+1), native before it;
 *  - one signal that every element reads: its event makes every f_j due
 *    at once, which scalar take turns with the Integrators due then (at
 *    the start, all of them), native not: an f_j then fires once before
 *    x(j−1)'s event and once after, where scalar it fires once (a chain
 *    of 200: 3 287 483 events scalar, 3 287 682 so);
 *  - the Integrator before its feeder (x1, f1, x2, ...): scalar f_i
 *    comes before x(i+1), native after every due x.
 *
 * A run occupies a stretch of the priority order alone, and its vector
 * blocks take its place there, so no outside block changes places with
 * an element. The tests (test-scalar-runs.c) compare every output of
 * both compiles, in order, and the counts.
 *
 * Memory: the document of a large model is most of its memory. Its
 * blocks are read here once (an index of the ids, each input's driver,
 * the runs), the x0 values and names kept, and the caller lets the
 * document go (qd_compile(): a document given up with
 * qd_simulation_new_taking()) before the native model allocates its
 * element state, so that the peak is about the document's size.
 */
#include <string.h>

#include "qd-compile-private.h"
#include "qd-compile-vector-private.h"
#include "qd-compile-vector.h"
#include "qd-expr.h"
#include "qd-history.h"
#include "qd-registry.h"

typedef enum
{
  ROLE_OTHER,
  ROLE_INTEGRATOR,   /* a scalar Integrator with a native form */
  ROLE_FEEDER,       /* a static block with a native form */
  ROLE_SINK,         /* a Scope or To CSV: may show a run's elements */
} Role;

typedef struct
{
  guint32 src;       /* block index + 1, or 0 for nothing */
  guint32 port;
} RDriver;

/* How input q of a run's feeders is driven. */
typedef struct
{
  int      offset;   /* element i reads the Integrator's i + offset */
  RDriver  boundary; /* the element shifted in reads this (or zero) */
} RunInput;

typedef struct
{
  guint32   start;       /* the first block's position */
  guint32   k;           /* units */
  gboolean  feeder_first;
  guint32   ref;         /* the feeder with the most inputs: its position */
  guint     n_in;        /* its inputs */
  RunInput *inputs;
  gboolean  ok;
} Run;

typedef struct
{
  QdSystem          *root;
  const QdSettings  *settings;
  guint32            n;
  QdBlock          **blocks;
  guint8            *role;
  guint32           *in_first;   /* n + 1: each block's first RDriver */
  RDriver           *drivers;
  guint8            *readers;    /* the inputs each block drives, up to 255 */
  guint32           *run_of;     /* run index + 1, or 0 */
  guint32           *slots;      /* block index + 1 by id, open addressing */
  guint32            mask;
  GArray            *runs;       /* Run */
  gboolean           forced;
  /* The last roles found, by parameter array and type (classify()). */
  struct { GArray *params; const QdBlockType *type; Role role; } roles[4];
  guint              next_role;
  /* Types looked up, by id string (blocks of a type share it). */
  const char        *type_ids[8];
  const QdBlockType *types[8];
  guint              next_type;
} Scan;

static const QdBlockType *
scan_type (Scan          *s,
           const QdBlock *block)
{
  const QdBlockType *type;

  for (guint k = 0; k < G_N_ELEMENTS (s->type_ids); k++)
    if (s->type_ids[k] == block->type)
      return s->types[k];
  type = qd_registry_lookup (block->type);
  s->type_ids[s->next_type] = block->type;
  s->types[s->next_type] = type;
  s->next_type = (s->next_type + 1) % G_N_ELEMENTS (s->type_ids);
  return type;
}

/* @block's port counts (as qd_block_count_ports()), from its type when
 * they are fixed. */
static gboolean
count_ports (const QdBlock     *block,
             const QdBlockType *type,
             guint             *n_in,
             guint             *n_out)
{
  if (type->inputs.size_param == NULL && type->outputs.size_param == NULL)
    {
      *n_in = type->inputs.count;
      *n_out = type->outputs.count;
      return TRUE;
    }
  return qd_block_count_ports (block, n_in, n_out, NULL);
}

static Role
classify_block (Scan              *s,
                QdBlock           *block,
                const QdBlockType *type)
{
  g_autofree const char **texts = NULL;

  /* A sink is a block that chooses elements to show, as the vector
   * expansion tells them (qd-compile-vector.c). */
  if (type != NULL && (type->flags & QD_BLOCK_STRUCTURAL) == 0
      && block->inner == NULL && qd_block_type_find_param (type, "elements") >= 0)
    return ROLE_SINK;
  if (type == NULL || block->inner != NULL || block->placeholder
      || type->fast == NULL || type->fast->vector_type == NULL
      || type->fast->vector_accepts == NULL)
    return ROLE_OTHER;
  if ((type->flags & QD_BLOCK_INTEGRATOR) == 0
      && (type->flags & QD_BLOCK_FEEDTHROUGH) == 0)
    return ROLE_OTHER;
  texts = qd_vector_native_param_texts (block, type, s->settings);
  if (!type->fast->vector_accepts (type, texts))
    return ROLE_OTHER;
  return (type->flags & QD_BLOCK_INTEGRATOR) != 0 ? ROLE_INTEGRATOR
                                                  : ROLE_FEEDER;
}

static Role
classify (Scan    *s,
          QdBlock *block)
{
  const QdBlockType *type = scan_type (s, block);
  Role role;

  /* Blocks of one type with one set of parameters share the array: the
   * last few answers are kept. */
  for (guint k = 0; k < G_N_ELEMENTS (s->roles); k++)
    if (s->roles[k].params == block->params && s->roles[k].type == type)
      return s->roles[k].role;
  role = classify_block (s, block, type);
  s->roles[s->next_role].params = block->params;
  s->roles[s->next_role].type = type;
  s->roles[s->next_role].role = role;
  s->next_role = (s->next_role + 1) % G_N_ELEMENTS (s->roles);
  return role;
}


/* ---- The index of ids and the drivers ------------------------------ */

static guint32
find_slot (Scan       *s,
           const char *id)
{
  guint32 h = g_str_hash (id) & s->mask;

  /* A link's end mostly shares its block's id string. */
  while (s->slots[h] != 0 && s->blocks[s->slots[h] - 1]->id != id
         && strcmp (s->blocks[s->slots[h] - 1]->id, id) != 0)
    h = (h + 1) & s->mask;
  return h;
}

/* The block index + 1 of id @id, or 0. */
static guint32
find_block (Scan       *s,
            const char *id)
{
  return id != NULL ? s->slots[find_slot (s, id)] : 0;
}

static gboolean
index_blocks (Scan *s)
{
  guint32 capacity = 16;

  while (capacity < 2 * s->n)
    capacity *= 2;
  s->mask = capacity - 1;
  s->slots = g_new0 (guint32, capacity);
  for (guint32 i = 0; i < s->n; i++)
    {
      guint32 h = find_slot (s, s->blocks[i]->id);

      if (s->slots[h] != 0)
        return FALSE;   /* two blocks with one id: left to the compiler */
      s->slots[h] = i + 1;
    }
  return TRUE;
}

/* Each input's driver, from the links; FALSE when an input has two. */
static gboolean
index_drivers (Scan *s)
{
  GPtrArray *links = s->root->links;
  guint32 *fill;

  s->in_first = g_new0 (guint32, s->n + 1);
  s->readers = g_new0 (guint8, MAX (s->n, 1));
  /* The ports: as many as the highest port driven, + 1. */
  for (guint l = 0; l < links->len; l++)
    {
      QdLink *link = g_ptr_array_index (links, l);

      for (guint t = 0; t < link->n_targets; t++)
        {
          QdLinkTarget *target = link->targets[t];
          guint32 d = find_block (s, target->dst.block);

          if (d != 0 && target->dst.port + 1 > s->in_first[d])
            s->in_first[d] = MIN (target->dst.port + 1, 64u);
        }
    }
  for (guint32 i = 0, sum = 0; i <= s->n; i++)
    {
      guint32 count = i < s->n ? s->in_first[i + 1] : 0;

      s->in_first[i] = sum;
      sum += count;
    }
  s->drivers = g_new0 (RDriver, MAX (s->in_first[s->n], 1));
  fill = s->in_first;
  for (guint l = 0; l < links->len; l++)
    {
      QdLink *link = g_ptr_array_index (links, l);
      guint32 src = find_block (s, link->src.block);

      for (guint t = 0; src != 0 && t < link->n_targets; t++)
        {
          QdLinkTarget *target = link->targets[t];
          guint32 d = find_block (s, target->dst.block);
          RDriver *slot;

          if (d == 0 || target->dst.port >= 64)
            continue;
          slot = &s->drivers[fill[d - 1] + target->dst.port];
          if (slot->src != 0)
            return FALSE;
          slot->src = src;
          slot->port = link->src.port;
          if (s->readers[src - 1] < 255)
            s->readers[src - 1]++;
        }
    }
  return TRUE;
}

static inline guint
n_inputs (Scan   *s,
          guint32 i)
{
  return s->in_first[i + 1] - s->in_first[i];
}

static inline RDriver
driver (Scan   *s,
        guint32 i,
        guint   q)
{
  RDriver none = { 0, 0 };

  return q < n_inputs (s, i) ? s->drivers[s->in_first[i] + q] : none;
}

/* ---- Runs ---------------------------------------------------------- */

/* Whether blocks @a and @b have the same parameters, @skip aside. */
static gboolean
same_params (Scan          *s,
             const QdBlock *a,
             const QdBlock *b,
             const char    *skip)
{
  const QdBlockType *type = scan_type (s, a);

  if (a->params == b->params)
    return TRUE;
  for (guint pass = 0; pass < 2; pass++)
    {
      const QdBlock *x = pass == 0 ? a : b, *y = pass == 0 ? b : a;

      for (guint k = 0; k < x->params->len; k++)
        {
          const QdParam *p = &g_array_index (x->params, QdParam, k);
          const char *other;

          if (skip != NULL && strcmp (p->name, skip) == 0)
            continue;
          other = qd_compile_block_param_text_or_default (y, type, p->name);
          if (strcmp (p->value, other) != 0)
            return FALSE;
        }
    }
  return TRUE;
}

/* The unit at position @p (feeder first or not): its Integrator's
 * position, or -1. */
static gint64
unit_at (Scan     *s,
         guint32   p,
         gboolean  feeder_first)
{
  guint32 f = feeder_first ? p : p + 1, x = feeder_first ? p + 1 : p;
  RDriver d;
  guint n_in, n_out;

  if (p + 1 >= s->n || s->role[f] != ROLE_FEEDER
      || s->role[x] != ROLE_INTEGRATOR || s->readers[f] != 1
      || n_inputs (s, x) != 1)
    return -1;
  d = driver (s, x, 0);
  if (d.src != f + 1 || d.port != 0)
    return -1;
  if (!count_ports (s->blocks[x], scan_type (s, s->blocks[x]), &n_in, &n_out)
      || n_in != 1 || n_out != 1)
    return -1;
  return x;
}

/* Whether feeder @f fits the run whose reference feeder is @ref; @ref
 * becomes @f when @f has more inputs and @ref's are its first. */
static gboolean
feeder_fits (Scan    *s,
             guint32 *ref,
             guint32  f)
{
  QdBlock *a = s->blocks[*ref], *b = s->blocks[f];
  const QdBlockType *type = scan_type (s, a);
  g_autofree const char **ta = NULL, **tb = NULL;

  if (a->type != b->type && strcmp (a->type, b->type) != 0)
    return FALSE;
  if (same_params (s, a, b, NULL))
    return TRUE;
  if (type->fast->vector_fewer_inputs == NULL)
    return FALSE;
  ta = qd_vector_native_param_texts (a, type, s->settings);
  tb = qd_vector_native_param_texts (b, type, s->settings);
  if (type->fast->vector_fewer_inputs (type, ta, tb))
    return TRUE;
  if (type->fast->vector_fewer_inputs (type, tb, ta))
    {
      *ref = f;
      return TRUE;
    }
  return FALSE;
}

/* The text of Integrator @x's x0. */
static inline const char *
x0_text (Scan          *s,
         const QdBlock *x)
{
  return qd_compile_block_param_text_or_default (x, scan_type (s, x), "x0");
}

static inline guint32
feeder_of (const Run *r,
           guint32    i)
{
  return r->start + 2 * i + (r->feeder_first ? 0 : 1);
}

static inline guint32
integrator_of (const Run *r,
               guint32    i)
{
  return r->start + 2 * i + (r->feeder_first ? 1 : 0);
}

/* The candidate runs: units one after the other with the same types and
 * parameters. */
static void
find_runs (Scan *s)
{
  guint32 p = 0;

  while (p + 1 < s->n)
    {
      gboolean ff = s->role[p] == ROLE_FEEDER;
      Run r = { p, 0, ff, ff ? p : p + 1, 0, NULL, TRUE };
      gboolean same_x0 = TRUE, x0_numbers = TRUE;

      /* Feeders first only (the file's header says why). */
      if (!ff)
        {
          p++;
          continue;
        }
      while (unit_at (s, p + 2 * r.k, ff) >= 0)
        {
          guint32 x = integrator_of (&r, r.k), x_first = integrator_of (&r, 0);

          if (r.k > 0
              && (strcmp (s->blocks[x]->type, s->blocks[x_first]->type) != 0
                  || !same_params (s, s->blocks[x], s->blocks[x_first], "x0")
                  || !feeder_fits (s, &r.ref, feeder_of (&r, r.k))))
            break;
          double value;

          same_x0 = same_x0 && strcmp (x0_text (s, s->blocks[x]),
                                       x0_text (s, s->blocks[x_first])) == 0;
          x0_numbers = x0_numbers
                       && qd_expr_parse_literal (x0_text (s, s->blocks[x]), &value);
          r.k++;
        }
      if (r.k >= 2 && (same_x0 || x0_numbers))
        {
          r.n_in = n_inputs (s, r.ref);
          g_array_append_val (s->runs, r);
          for (guint32 i = 0; i < 2 * r.k; i++)
            s->run_of[r.start + i] = s->runs->len;
          p += 2 * r.k;
        }
      else
        p++;
    }
}

/* The element of run @r (index @ri + 1 in run_of) that @d names: its
 * Integrator's index, or -1 for a driver outside every run, -2 for one
 * inside a run otherwise. */
static gint64
element_of (Scan      *s,
            const Run *r,
            guint32    ri,
            RDriver    d)
{
  guint32 b = d.src - 1;

  if (s->run_of[b] == 0)
    return -1;
  if (s->run_of[b] != ri + 1 || d.port != 0
      || (b - r->start) % 2 != (r->feeder_first ? 1u : 0u))
    return -2;
  return (b - r->start) / 2;
}

/* How input @q of run @r's feeders is driven, into @in; FALSE when it
 * does not fit. */
static gboolean
check_input (Scan      *s,
             const Run *r,
             guint32    ri,
             guint      q,
             RunInput  *in)
{
  gboolean have_offset = FALSE, have_boundary = FALSE;

  memset (in, 0, sizeof *in);
  /* The offset: from the first element read from the run. */
  for (guint32 i = 0; i < r->k && !have_offset; i++)
    {
      RDriver d = driver (s, feeder_of (r, i), q);
      gint64 el = d.src != 0 ? element_of (s, r, ri, d) : -1;

      if (el == -2)
        return FALSE;
      if (el >= 0)
        {
          in->offset = (int) (el - (gint64) i);
          have_offset = TRUE;
        }
    }
  /* Not one signal that every element reads, nor an offset below −1
   * (the file's header says why). */
  if (!have_offset || in->offset < -1)
    return FALSE;
  for (guint32 i = 0; i < r->k; i++)
    {
      guint32 f = feeder_of (r, i);
      RDriver d = driver (s, f, q);
      gint64 j = (gint64) i + in->offset;

      if (j >= 0 && j < r->k)
        {
          if (d.src == 0 || element_of (s, r, ri, d) != j)
            return FALSE;
          continue;
        }
      /* Shifted in: one outside signal for all, or zero where the
       * feeder has fewer inputs (and none is connected there). */
      if (d.src == 0)
        {
          if (q < n_inputs (s, f) || f == r->ref)
            return FALSE;
          d.port = 0;
        }
      /* A signal only into the first element (offset −1), which comes
       * first in both orders; the last elements read zero. */
      else if (element_of (s, r, ri, d) != -1 || in->offset != -1)
        return FALSE;
      if (have_boundary
          && (d.src != in->boundary.src || d.port != in->boundary.port))
        return FALSE;
      in->boundary = d;
      have_boundary = TRUE;
    }
  return TRUE;
}

/* Whether run @ri's wiring fits, its inputs noted. */
static gboolean
check_run (Scan    *s,
           guint32  ri)
{
  Run *r = &g_array_index (s->runs, Run, ri);

  g_clear_pointer (&r->inputs, g_free);
  r->inputs = g_new0 (RunInput, MAX (r->n_in, 1));
  for (guint32 i = 0; i < r->k; i++)
    {
      guint32 f = feeder_of (r, i);
      guint n_in, n_out;

      /* Every port of the feeder driven, up to its count. */
      if (!count_ports (s->blocks[f], scan_type (s, s->blocks[f]), &n_in, &n_out)
          || n_in != n_inputs (s, f) || n_out != 1)
        return FALSE;
      for (guint q = 0; q < n_in; q++)
        if (driver (s, f, q).src == 0)
          return FALSE;
    }
  for (guint q = 0; q < r->n_in; q++)
    if (!check_input (s, r, ri, q, &r->inputs[q]))
      return FALSE;
  return TRUE;
}

static void
drop_run (Scan    *s,
          guint32  ri)
{
  Run *r = &g_array_index (s->runs, Run, ri);

  r->ok = FALSE;
  for (guint32 i = 0; i < 2 * r->k; i++)
    s->run_of[r->start + i] = 0;
}

/* Drops the runs that do not fit, until those left all do: a dropped
 * run's blocks are outside signals for the others, which may read them
 * (fine) or be read by them (then those go too). */
static guint64
settle_runs (Scan *s)
{
  gboolean changed = TRUE;
  guint64 elements = 0;

  while (changed)
    {
      changed = FALSE;
      for (guint32 ri = 0; ri < s->runs->len; ri++)
        if (g_array_index (s->runs, Run, ri).ok && !check_run (s, ri))
          {
            drop_run (s, ri);
            changed = TRUE;
          }
      /* Nothing outside a run reads its blocks. */
      for (guint32 b = 0; b < s->n; b++)
        for (guint q = 0; q < n_inputs (s, b); q++)
          {
            RDriver d = driver (s, b, q);
            guint32 owner = d.src != 0 ? s->run_of[d.src - 1] : 0;

            if (owner != 0 && owner != s->run_of[b]
                && !(s->role[b] == ROLE_SINK && s->role[d.src - 1] == ROLE_INTEGRATOR
                     && d.port == 0))
              {
                drop_run (s, owner - 1);
                changed = TRUE;
              }
          }
    }
  for (guint32 ri = 0; ri < s->runs->len; ri++)
    if (g_array_index (s->runs, Run, ri).ok)
      elements += 2 * (guint64) g_array_index (s->runs, Run, ri).k;
  return elements;
}

/* ---- The folded document ------------------------------------------- */

typedef struct
{
  Scan       *s;
  QdSystem   *out;
  QdBlock   **copy;      /* the copy of each block outside the runs */
  GHashTable *native;
  GPtrArray  *presets;
  GArray     *sinks;     /* QdRunSinkPort */
  guint       n_links;
} Fold;

static void
fold_link (Fold          *f,
           const QdBlock *src,
           guint          src_port,
           const QdBlock *dst,
           guint          dst_port)
{
  g_autofree char *id = g_strdup_printf ("run-link-%u", ++f->n_links);
  QdLink *link = qd_link_new_from_block (id, src, src_port);

  qd_link_add_target_block (link, dst, dst_port);
  qd_system_append_link (f->out, link);
}

/* The names of @k blocks from @first, two apart: a prefix and a number
 * when they go so, else a list. */
static QdVectorNames *
run_names (Scan    *s,
           guint32  first,
           guint32  k)
{
  QdVectorNames *names = g_new0 (QdVectorNames, 1);
  const char *name = s->blocks[first]->name;
  gsize len = strlen (name), digits = len;
  gboolean numbered;

  while (digits > 0 && g_ascii_isdigit (name[digits - 1]))
    digits--;
  numbered = digits < len && len - digits < 16 && name[digits] != '0';
  if (numbered)
    {
      names->prefix = g_strndup (name, digits);
      names->first = g_ascii_strtoull (name + digits, NULL, 10);
      for (guint32 i = 0; numbered && i < k; i++)
        {
          const char *n = s->blocks[first + 2 * i]->name;
          char number[24];

          g_snprintf (number, sizeof number, "%" G_GUINT64_FORMAT,
                      names->first + i);
          numbered = strncmp (n, names->prefix, digits) == 0
                     && strcmp (n + digits, number) == 0;
        }
    }
  if (!numbered)
    {
      g_clear_pointer (&names->prefix, g_free);
      names->chunk = g_string_chunk_new (4096);
      names->names = g_new (char *, k);
      for (guint32 i = 0; i < k; i++)
        names->names[i] = g_string_chunk_insert (names->chunk,
                                                 s->blocks[first + 2 * i]->name);
    }
  return names;
}

/* "dx1..dx1000": a vector block's name, after its first and last
 * elements. */
static char *
vector_name (Scan      *s,
             const Run *r,
             gboolean   feeders)
{
  guint32 first = feeders ? feeder_of (r, 0) : integrator_of (r, 0);
  guint32 last = feeders ? feeder_of (r, r->k - 1) : integrator_of (r, r->k - 1);

  return g_strdup_printf ("%s..%s", s->blocks[first]->name, s->blocks[last]->name);
}

/* Run @r's two vector blocks, in its order, their presets in @f->native;
 * the Integrator in *@x, the feeder in *@feeder. */
static void
fold_run_blocks (Fold      *f,
                 const Run *r,
                 QdBlock  **x,
                 QdBlock  **feeder)
{
  Scan *s = f->s;
  QdBlock *x_first = s->blocks[integrator_of (r, 0)];
  g_autofree char *x_name = vector_name (s, r, FALSE);
  g_autofree char *f_name = vector_name (s, r, TRUE);
  g_autofree char *size = g_strdup_printf ("%u", r->k);
  QdVectorNative *px = g_new0 (QdVectorNative, 1);
  QdVectorNative *pf = g_new0 (QdVectorNative, 1);
  gboolean same_x0 = TRUE;

  *feeder = qd_block_new_like (s->blocks[r->ref], s->blocks[feeder_of (r, 0)]->id,
                               f_name);
  *x = qd_block_new_like (x_first, x_first->id, x_name);
  qd_block_set_param_raw (*x, "size", size);
  for (guint32 i = 1; i < r->k && same_x0; i++)
    same_x0 = strcmp (x0_text (s, s->blocks[integrator_of (r, i)]),
                      x0_text (s, x_first)) == 0;
  if (!same_x0)
    {
      px->x0 = g_new (double, r->k);
      for (guint32 i = 0; i < r->k; i++)
        qd_expr_parse_literal (x0_text (s, s->blocks[integrator_of (r, i)]),
                               &px->x0[i]);
      qd_block_set_param_raw (*x, "x0", "0");
    }
  px->names = run_names (s, integrator_of (r, 0), r->k);
  pf->names = run_names (s, feeder_of (r, 0), r->k);
  g_hash_table_insert (f->native, *x, px);
  g_hash_table_insert (f->native, *feeder, pf);
  g_ptr_array_add (f->presets, *x);
  g_ptr_array_add (f->presets, *feeder);
  if (r->feeder_first)
    {
      qd_system_append_block (f->out, qd_block_ref (*feeder));
      qd_system_append_block (f->out, qd_block_ref (*x));
    }
  else
    {
      qd_system_append_block (f->out, qd_block_ref (*x));
      qd_system_append_block (f->out, qd_block_ref (*feeder));
    }
}

/* Run @r's wiring: the Integrator fed by the feeder, each feeder input
 * from the Integrator or an Index Shift of it. */
static void
fold_run_links (Fold      *f,
                const Run *r,
                QdBlock   *x,
                QdBlock   *feeder)
{
  fold_link (f, feeder, 0, x, 0);
  for (guint q = 0; q < r->n_in; q++)
    {
      const RunInput *in = &r->inputs[q];
      g_autofree char *id = NULL, *shift = NULL;
      QdBlock *block;

      if (in->offset == 0)
        {
          fold_link (f, x, 0, feeder, q);
          continue;
        }
      /* Element i reads i + offset: y[i] = u[i − k] with k = −offset. */
      id = g_strdup_printf ("%s.shift%u", feeder->id, q + 1);
      shift = g_strdup_printf ("%d", -in->offset);
      block = qd_block_new (id, "index_shift", id);
      qd_block_set_param_raw (block, "shift", shift);
      qd_system_append_block (f->out, block);
      fold_link (f, x, 0, block, 0);
      if (in->boundary.src != 0)
        fold_link (f, f->copy[in->boundary.src - 1], in->boundary.port, block, 1);
      fold_link (f, block, 0, feeder, q);
    }
}

static QdSystem *
fold_system (Scan       *s,
             GHashTable *native,
             GPtrArray  *presets,
             GArray     *sinks)
{
  Fold f = { s, qd_system_new (), g_new0 (QdBlock *, MAX (s->n, 1)),
             native, presets, sinks, 0 };
  g_autofree QdBlock **run_x = g_new0 (QdBlock *, MAX (s->runs->len, 1));
  g_autofree QdBlock **run_f = g_new0 (QdBlock *, MAX (s->runs->len, 1));

  /* The blocks, in order: a run's two vector blocks in its place. */
  for (guint32 b = 0; b < s->n; b++)
    {
      guint32 ri = s->run_of[b];
      QdBlock *block = s->blocks[b];

      if (ri == 0)
        {
          f.copy[b] = qd_block_new_like (block, block->id, block->name);
          qd_system_append_block (f.out, f.copy[b]);
        }
      else if (g_array_index (s->runs, Run, ri - 1).start == b)
        fold_run_blocks (&f, &g_array_index (s->runs, Run, ri - 1),
                         &run_x[ri - 1], &run_f[ri - 1]);
    }
  /* The links: the outside blocks' as they were (none reads a run). */
  for (guint32 b = 0; b < s->n; b++)
    {
      if (s->run_of[b] != 0)
        continue;
      for (guint q = 0; q < n_inputs (s, b); q++)
        {
          RDriver d = driver (s, b, q);

          if (d.src == 0)
            continue;
          if (s->run_of[d.src - 1] != 0)
            {
              /* A sink showing an element: bound once expanded
               * (qd_scalar_runs_bind_sinks()). */
              const Run *r = &g_array_index (s->runs, Run, s->run_of[d.src - 1] - 1);
              QdRunSinkPort port = { f.copy[b]->id, q,
                                     run_x[s->run_of[d.src - 1] - 1]->id,
                                     (d.src - 1 - r->start) / 2 };

              g_array_append_val (f.sinks, port);
              continue;
            }
          fold_link (&f, f.copy[d.src - 1], d.port, f.copy[b], q);
        }
    }
  for (guint32 ri = 0; ri < s->runs->len; ri++)
    if (run_x[ri] != NULL)
      {
        fold_run_links (&f, &g_array_index (s->runs, Run, ri), run_x[ri], run_f[ri]);
        qd_block_unref (run_x[ri]);
        qd_block_unref (run_f[ri]);
      }
  g_free (f.copy);
  return f.out;
}

static void
scan_clear (Scan *s)
{
  for (guint i = 0; s->runs != NULL && i < s->runs->len; i++)
    g_free (g_array_index (s->runs, Run, i).inputs);
  g_clear_pointer (&s->runs, g_array_unref);
  g_free (s->role);
  g_free (s->in_first);
  g_free (s->drivers);
  g_free (s->readers);
  g_free (s->run_of);
  g_free (s->slots);
}

QdDocument *
qd_scalar_runs_fold (QdDocument *document,
                     GHashTable *native,
                     GPtrArray  *presets,
                     GArray     *sinks)
{
  const char *mode = g_getenv ("QDEVS_VECTORS");
  Scan s = { 0 };
  QdDocument *folded = NULL;
  guint64 elements;
  gboolean any = FALSE;

  s.root = qd_document_get_root (document);
  s.settings = qd_document_get_settings (document);
  if (s.root == NULL || (mode != NULL && strcmp (mode, "expand") == 0)
      || (s.settings->solver != NULL && s.settings->solver[0] != '\0'
          && strcmp (s.settings->solver, "qss") != 0))
    return NULL;
  s.forced = mode != NULL && strcmp (mode, "native") == 0;
  s.n = s.root->blocks->len;
  /* Too few blocks for the threshold: nothing to look at. */
  if (s.n < 4 || (!s.forced && s.n < QD_VECTOR_NATIVE_MIN))
    return NULL;
  s.blocks = (QdBlock **) s.root->blocks->pdata;
  s.role = g_new0 (guint8, s.n);
  s.run_of = g_new0 (guint32, s.n);
  s.runs = g_array_new (FALSE, FALSE, sizeof (Run));
  for (guint32 b = 0; b < s.n; b++)
    {
      /* A subsystem: the native path takes none. */
      if (s.blocks[b]->inner != NULL)
        {
          any = FALSE;
          break;
        }
      s.role[b] = classify (&s, s.blocks[b]);
      any |= s.role[b] == ROLE_INTEGRATOR;
    }
  if (any && index_blocks (&s) && index_drivers (&s))
    {
      find_runs (&s);
      elements = settle_runs (&s);
      if (elements > 0 && (s.forced || elements >= QD_VECTOR_NATIVE_MIN))
        {
          GPtrArray *vars = qd_document_get_variables (document);

          folded = qd_document_new ();
          qd_document_take_root (folded, fold_system (&s, native, presets, sinks));
          qd_document_set_settings (folded, s.settings, NULL);
          for (guint i = 0; vars != NULL && i < vars->len; i++)
            {
              QdVariable *v = g_ptr_array_index (vars, i);

              qd_document_set_variable (folded, v->name, v->value, NULL);
            }
        }
    }
  scan_clear (&s);
  return folded;
}

/* The block of @root with id @id. */
static QdBlock *
find_by_id (QdSystem   *root,
            const char *id)
{
  for (guint i = 0; i < root->blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (root->blocks, i);

      if (strcmp (block->id, id) == 0)
        return block;
    }
  return NULL;
}

void
qd_scalar_runs_bind_sinks (QdDocument *flat,
                           GHashTable *native,
                           GArray     *sinks)
{
  QdSystem *root = qd_document_get_root (flat);

  for (guint k = 0; k < sinks->len; k++)
    {
      const QdRunSinkPort *sp = &g_array_index (sinks, QdRunSinkPort, k);
      QdBlock *sink = find_by_id (root, sp->sink);
      QdBlock *x = find_by_id (root, sp->vector);
      QdVectorNative *v;
      g_autofree char *id = g_strdup_printf ("run-sink-%u", k + 1);
      QdLink *link;
      guint n_in = 0, n_out = 0;

      if (sink == NULL || x == NULL
          || !qd_block_count_ports (sink, &n_in, &n_out, NULL) || sp->port >= n_in)
        continue;
      v = g_hash_table_lookup (native, sink);
      if (v == NULL)
        {
          v = g_new0 (QdVectorNative, 1);
          v->block = sink;
          v->n_ports = n_in;
          v->ports = g_new0 (QdVectorPort, n_in);
          for (guint q = 0; q < n_in; q++)
            v->ports[q].element = -1;
          g_hash_table_insert (native, sink, v);
        }
      /* The port reads element @element where the vector keeps it, and
       * passes on only its events (qd-compile-vector-native.c,
       * bind_sink()). */
      v->ports[sp->port].driver = x;
      v->ports[sp->port].element = (gint) sp->element;
      link = qd_link_new_from_block (id, x, 0);
      qd_link_add_target_block (link, sink, sp->port);
      qd_system_append_link (root, link);
    }
}

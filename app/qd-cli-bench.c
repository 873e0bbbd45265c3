/* qd-cli-bench.c: `qdevs-cli bench`, generated large models, headless
 *
 * Builds large diagrams in memory (with the constructors the file loader
 * uses, or with --commands through the editor's edit commands), compiles
 * and runs them, and reports integrator steps, wall time, nanoseconds per
 * step and peak memory. Each run happens in a child process, so every row's peak memory
 * is that run's own and not the high-water mark of all runs before it.
 *
 * Models:
 *   lcline         the lossless LC transmission line, x(0) = 0, driven by
 *                  a unit pulse d of width 1:
 *                    ẋ1 = d − x2,  ẋi = x(i−1) − x(i+1),  ẋN = x(N−1)
 *   lcline-random  the same line with x(0) uniform in [-1, 1] (fixed seed),
 *                  so every state is active from the start
 *   lcline-vector  the LC line as five vector blocks: an Integrator of size
 *                  N, a Weighted Sum and two Index Shifts; it compiles into
 *                  the flat model of lcline (docs/vectors.md)
 *   advection      the advection–reaction chain (needs NLFunction):
 *                    u̇j = (u(j−1) − uj)·N − μ·uj·(uj − α)·(uj − 1),
 *                  α = 0.5, μ = 1000, u0 = 1, uj(0) = 1 on the first third
 * Every state is one Integrator and one static block (WSum or NLFunction),
 * drawn as blocks of their own or, in lcline-vector, as elements;
 * dqrel = 1e-3, dqmin = 1e-6.
 */
#include <errno.h>
#include <inttypes.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "qd-bench-timing.h"
#include "qd-cli-private.h"
#include "qd-reference-lcline-classic.h"
#include "qd-reference-line.h"

#define BENCH_SEED 20240601
/* The classic solvers' tolerances: those of the quanta, dqrel and dqmin. */
#define BENCH_RTOL 1e-3
#define BENCH_ATOL 1e-6

typedef struct
{
  const char *model;
  guint       n;
  const char *method;
  double      until;
  double      from;       /* time only what follows this time (0: all) */
  gboolean    commands;   /* build through the edit commands */
  gboolean    unfused;    /* every cascade through the now queue */
  guint       repeat;     /* compile and run this many times */
} BenchSpec;

/* What a child sends back through its pipe. */
typedef struct
{
  gboolean ok;
  guint64  integrator_steps;
  guint64  transitions;
  double   wall_s;         /* the run alone (with --repeat, the median) */
  double   cpu_s;          /* CPU time of the run alone (user + system) */
  double   wall_min_s;     /* the least of the repeated runs */
  double   cpu_min_s;
  double   build_s;        /* building the diagram */
  double   compile_s;
  double   build_cpu_s;    /* the same, in CPU time: steadier on a busy machine */
  double   compile_cpu_s;
  long     rss_doc_kb;      /* resident memory once the diagram is built */
  long     rss_sim_kb;      /* ... and once it is compiled and initialized */
  gboolean classic;         /* under a classic solver: the counts below */
  guint64  solver_steps;
  guint64  failed_steps;
  guint64  rhs_evals;
  guint64  time_events;     /* the solver's stops at scheduled events */
  guint64  restarts;
  double   rhs_ns;          /* the diagram's RHS alone, per evaluation */
  double   rhs_min_ns;      /* (the least of the rounds) */
  double   hand_rhs_ns;     /* the hand-written RHS alone, likewise */
  double   hand_rhs_min_ns;
  double   hand_cpu_min_s;  /* the hand-written run's least CPU time */
  double   layout_rhs_ns;   /* the hand-written RHS, its layout read from
                               memory (qd_ref_lcline_rhs_layout()), alone */
  double   layout_rhs_min_ns;
  gboolean hand;            /* the hand-written line under RKF45 ran */
  QdRefClassicResult hand_result; /* (with --repeat, its medians) */
  double   run_ratio[2];    /* the run's CPU time over the hand-written
                               one's: the ratio of the least times, and
                               the median of the rounds' ratios */
  double   rhs_ratio[2];    /* the same for one RHS evaluation alone */
  double   layout_ratio[2]; /* the same for the layout read from memory */
  char     message[512];
} BenchResult;

/* The figures bench_one() keeps per round (see there). */
#define N_ROUND_FIGURES 7

static const char *const models[] = { "lcline", "lcline-random", "advection", "lcline-vector", NULL };
static const char *const default_methods[] = { "QSS1", "QSS2", "QSS3", NULL };

/* The Integrator's methods: the choices of its "method" parameter, so
 * that a method added to the block can be benchmarked at once. */
static const char *const *
integrator_methods (void)
{
  const QdBlockType *type = qd_registry_lookup ("integrator");
  int index = type != NULL ? qd_block_type_find_param (type, "method") : -1;

  return index >= 0 ? type->params[index].choices : default_methods;
}

/* Adds to @list, for each comma-separated item of @arg, the entry of the
 * NULL-terminated @known that it names (in any case); "all" stands for
 * every entry when @all_too. Returns NULL, or the first item that names
 * none (free it). */
static char *
parse_names (const char        *arg,
             const char *const *known,
             gboolean           all_too,
             GPtrArray         *list)
{
  g_auto(GStrv) items = g_strsplit (arg, ",", -1);

  for (guint i = 0; items[i] != NULL; i++)
    {
      const char *item = g_strstrip (items[i]);
      gboolean all = all_too && g_ascii_strcasecmp (item, "all") == 0;
      gboolean found = FALSE;

      for (guint k = 0; known[k] != NULL && !(found && !all); k++)
        if (all || g_ascii_strcasecmp (known[k], item) == 0)
          {
            g_ptr_array_add (list, (gpointer) known[k]);
            found = TRUE;
          }
      if (!found)
        return g_strdup (item);
    }
  return NULL;
}

/* The models of --model, checked. */
static gboolean
parse_models (const char *arg,
              GPtrArray  *list)
{
  g_autofree char *unknown = parse_names (arg, models, FALSE, list);

  if (unknown != NULL)
    qd_cli_usage_error ("bench", _("unknown model '%s' (use lcline, lcline-random, advection or lcline-vector, or several separated by commas)"),
                        unknown);
  return unknown == NULL;
}

/* The methods of --method, checked against the Integrator's. */
static gboolean
parse_methods (const char *arg,
               GPtrArray  *list)
{
  const char *const *known = integrator_methods ();
  g_auto(GStrv) items = g_strsplit (arg, ",", -1);
  g_autofree char *unknown = NULL;

  /* A classic solver by its name ("all" is the QSS methods: a classic
   * one on a large model is asked for, not implied). */
  for (guint i = 0; items[i] != NULL && unknown == NULL; i++)
    {
      const char *item = g_strstrip (items[i]);
      const QdClassicMethod *classic = NULL;
      guint n_classic;
      const QdClassicMethod *all = qd_classic_methods (&n_classic);

      /* In any case, as the QSS methods. */
      for (guint k = 0; k < n_classic; k++)
        if (g_ascii_strcasecmp (all[k].name, item) == 0)
          classic = &all[k];
      if (classic != NULL)
        g_ptr_array_add (list, (gpointer) classic->name);
      else
        unknown = parse_names (item, known, TRUE, list);
    }

  if (unknown != NULL)
    {
      g_autofree char *names = g_strjoinv (", ", (char **) known);

      qd_cli_usage_error ("bench", _("unknown method '%s' (use %s, a classic solver such as cvode-bdf or rk4, several separated by commas, or all)"),
                          unknown, names);
    }
  return unknown == NULL;
}

/* Adds to @list each number of states of the comma-separated @arg. */
static gboolean
parse_sizes (const char *arg,
             GArray     *list)
{
  g_auto(GStrv) items = g_strsplit (arg, ",", -1);

  for (guint i = 0; items[i] != NULL; i++)
    {
      guint64 value;
      guint n;

      if (!g_ascii_string_to_unsigned (g_strstrip (items[i]), 10, 1, G_MAXINT, &value, NULL))
        {
          qd_cli_usage_error ("bench", _("--n must be a positive number of states, or several separated by commas (not '%s')"),
                              items[i]);
          return FALSE;
        }
      n = (guint) value;
      g_array_append_val (list, n);
    }
  return TRUE;
}

static double
default_until (const char *model)
{
  /* The LC line: long enough for the pulse to cross ten sections; the
   * advection front moves one chain length per time unit. */
  return strcmp (model, "advection") == 0 ? 1.0 : 10.0;
}

/* Builds a diagram either through the document's edit commands (what the
 * editor does; --commands) or with the plain constructors the file loader
 * uses, handing the result to the document at the end. Both give the same
 * model; the second does not keep an undo record per edit, so it also
 * scales to a million blocks. */
typedef struct
{
  QdDocument *doc;
  QdSystem   *root;        /* direct construction: the system being built */
  GPtrArray  *out_links;   /* direct: a block's output link, at the number
                              in its id ("b7": 7; add_block()) */
  guint       n_ids;
} Builder;

/* "@prefix@n" into @buf: a million-block model needs millions of ids and
 * names, and a general printf costs more than the rest of making one. */
static const char *
format_name (char        *buf,
             gsize        size,
             const char  *prefix,
             guint        n)
{
  char digits[16];
  gsize len = strlen (prefix), n_digits = 0;

  do
    {
      digits[n_digits++] = (char) ('0' + n % 10);
      n /= 10;
    }
  while (n > 0);
  g_assert (len + n_digits < size);
  memcpy (buf, prefix, len);
  while (n_digits > 0)
    buf[len++] = digits[--n_digits];
  buf[len] = '\0';
  return buf;
}

static QdBlock *
add_block (Builder     *b,
           const char  *type,
           const char  *name,
           double       x,
           double       y,
           GError     **error)
{
  char id[24];
  QdBlock *block;

  if (b->root == NULL)
    return qd_document_add_block (b->doc, qd_document_get_root (b->doc), type, name, x, y, error);

  format_name (id, sizeof id, "b", ++b->n_ids);
  block = qd_block_new (id, type, name);
  /* Not yet in a document: setting the geometry directly is how the
   * loader builds blocks too. */
  block->x = x;
  block->y = y;
  qd_system_append_block (b->root, block);
  return block;
}

static gboolean
set_params (Builder     *b,
            QdBlock     *block,
            GError     **error,
            ...)
{
  const char *name;
  va_list args;
  gboolean ok = TRUE;

  va_start (args, error);
  while (ok && (name = va_arg (args, const char *)) != NULL)
    {
      const char *value = va_arg (args, const char *);

      if (b->root == NULL)
        ok = qd_document_set_param (b->doc, block, name, value, error);
      else
        qd_block_set_param_raw (block, name, value);
    }
  va_end (args);
  return ok;
}

static gboolean
connect (Builder     *b,
         QdBlock     *src,
         QdBlock     *dst,
         guint        dst_port,
         GError     **error)
{
  QdLink *link;
  guint src_number;

  if (b->root == NULL)
    return qd_document_connect (b->doc, qd_document_get_root (b->doc), src->id, 0,
                                dst->id, dst_port, error) != NULL;

  /* One link per output; every further receiver is a branch of it. The
   * links by the number in the block's id, not in a hash table of
   * millions, which cost a tenth of building a million-state LC line. */
  src_number = (guint) strtoul (src->id + 1, NULL, 10);
  if (src_number >= b->out_links->len)
    g_ptr_array_set_size (b->out_links, MAX (src_number + 1,
                                             2 * b->out_links->len));
  link = g_ptr_array_index (b->out_links, src_number);
  if (link == NULL)
    {
      char id[24];

      format_name (id, sizeof id, "l", ++b->n_ids);
      link = qd_link_new_from_block (id, src, 0);
      qd_system_append_link (b->root, link);
      g_ptr_array_index (b->out_links, src_number) = link;
    }
  qd_link_add_target_block (link, dst, dst_port);
  return TRUE;
}

static gboolean
set_settings (QdDocument  *doc,
              const char  *method,
              double       until,
              guint        n,
              GError     **error)
{
  QdSettings settings;
  gboolean ok;

  qd_document_init_settings (&settings);
  settings.start_time = 0.0;
  settings.final_time = until;
  if (qd_classic_find_method (method) != NULL)
    {
      /* Adaptive, with the tolerances of the quanta; RK4 needs a step. */
      g_free (settings.solver);
      settings.solver = g_strdup (method);
      settings.rtol = BENCH_RTOL;
      settings.atol = BENCH_ATOL;
      if (strcmp (method, "rk4") == 0)
        settings.h = 1e-3;
    }
  else
    {
      g_free (settings.method);
      settings.method = g_strdup (method);
    }
  settings.dqmin = 1e-6;
  settings.dqrel = 1e-3;
  /* Every block makes a transition or two at the start time (initial
   * outputs and the static blocks they feed): a million-state model is
   * legitimate, so the limit grows with the model. */
  settings.illegitimacy_limit = MAX (settings.illegitimacy_limit, 20 * (guint64) n);
  ok = qd_document_set_settings (doc, &settings, error);
  qd_settings_clear (&settings);
  return ok;
}

static gboolean
build_lcline (Builder     *b,
              guint        n,
              gboolean     random_start,
              GError     **error)
{
  g_autofree QdBlock **x = g_new0 (QdBlock *, n);
  g_autofree QdBlock **dx = g_new0 (QdBlock *, n);
  g_autoptr(GRand) rand = g_rand_new_with_seed (BENCH_SEED);
  QdBlock *pulse_on, *pulse_off, *pulse;

  /* d, a unit pulse of width 1: the Pulse block where the library has
   * one, otherwise step(t) − step(t − 1) through a WSum. */
  if (qd_registry_lookup ("pulse") != NULL)
    {
      if (!(pulse = add_block (b, "pulse", "Pulse", 100, 40, error))
          || !set_params (b, pulse, error, "amplitude", "1", "start", "0",
                          "width", "1", "base", "0", NULL))
        return FALSE;
    }
  else if (!(pulse_on = add_block (b, "step", "Pulse on", 0, 0, error))
      || !set_params (b, pulse_on, error, "time", "0", "initial", "0", "final", "1", NULL)
      || !(pulse_off = add_block (b, "step", "Pulse off", 0, 80, error))
      || !set_params (b, pulse_off, error, "time", "1", "initial", "0", "final", "1", NULL)
      || !(pulse = add_block (b, "wsum", "Pulse", 100, 40, error))
      || !set_params (b, pulse, error, "n", "2", "weights", "1, -1", NULL)
      || !connect (b, pulse_on, pulse, 0, error)
      || !connect (b, pulse_off, pulse, 1, error))
    return FALSE;

  for (guint i = 0; i < n; i++)
    {
      char x_name[24], dx_name[24], x0[G_ASCII_DTOSTR_BUF_SIZE];
      /* Every state but the last sees two neighbours (or d and x2). */
      gboolean two = i + 1 < n;
      /* Rows of 1000 sections, so that a line of millions stays within
       * the file format's coordinates and a saved one opens again. */
      double col = 160.0 * (i % 1000), row = 120.0 * (i / 1000);

      format_name (x_name, sizeof x_name, "x", i + 1);
      format_name (dx_name, sizeof dx_name, "dx", i + 1);
      /* Parameters at their defaults (two inputs, x0 = 0) stay unset, as
       * the editor and the file format leave them: nothing to store. */
      if (!(dx[i] = add_block (b, "wsum", dx_name, 200 + col, row, error))
          || !(two ? set_params (b, dx[i], error, "weights", "1, -1", NULL)
                   : set_params (b, dx[i], error, "n", "1", "weights", "1", NULL))
          || !(x[i] = add_block (b, "integrator", x_name, 280 + col, row, error))
          || (random_start
              && !set_params (b, x[i], error, "x0",
                              g_ascii_formatd (x0, sizeof x0, "%.17g",
                                               g_rand_double_range (rand, -1.0, 1.0)),
                              NULL)))
        return FALSE;
    }

  /* The links after every block, as the loader makes them: they are then
   * together in memory, and the pages they free once compiled
   * (qd_simulation_new_taking()) go back whole. */
  for (guint i = 0; i < n; i++)
    {
      QdBlock *left = i == 0 ? pulse : x[i - 1];

      if (!connect (b, dx[i], x[i], 0, error)
          || !connect (b, left, dx[i], 0, error))
        return FALSE;
      if (i + 1 < n && !connect (b, x[i + 1], dx[i], 1, error))
        return FALSE;
    }
  return TRUE;
}

/* The LC line of build_lcline() as vector blocks: x = ∫ dx,
 * dx = [d, x1..x(N−1)] − [x2..xN, 0]. Its flat model is build_lcline()'s,
 * element for element and in the same order. */
static gboolean
build_lcline_vector (Builder     *b,
                     guint        n,
                     GError     **error)
{
  char size[16];
  QdBlock *pulse, *dx, *x, *left, *right;

  format_name (size, sizeof size, "", n);
  return (pulse = add_block (b, "pulse", "Pulse", 100, 40, error))
         && set_params (b, pulse, error, "amplitude", "1", "start", "0",
                        "width", "1", "base", "0", NULL)
         && (dx = add_block (b, "wsum", "dx", 200, 0, error))
         && set_params (b, dx, error, "weights", "1, -1", NULL)
         && (x = add_block (b, "integrator", "x", 280, 0, error))
         && set_params (b, x, error, "size", size, NULL)
         && (left = add_block (b, "index_shift", "Left", 200, 80, error))
         && set_params (b, left, error, "shift", "1", NULL)
         && (right = add_block (b, "index_shift", "Right", 200, 160, error))
         && set_params (b, right, error, "shift", "-1", NULL)
         && connect (b, x, left, 0, error)
         && connect (b, pulse, left, 1, error)
         && connect (b, x, right, 0, error)
         && connect (b, left, dx, 0, error)
         && connect (b, right, dx, 1, error)
         && connect (b, dx, x, 0, error);
}

static gboolean
build_advection (Builder     *b,
                 guint        n,
                 GError     **error)
{
  g_autofree QdBlock **u = g_new0 (QdBlock *, n);
  g_autofree QdBlock **f = g_new0 (QdBlock *, n);
  g_autofree char *n_text = g_strdup_printf ("%u", n);
  QdBlock *inflow;

  if (!qd_document_set_variable (b->doc, "N", n_text, error)
      || !qd_document_set_variable (b->doc, "mu", "1000", error)
      || !qd_document_set_variable (b->doc, "alpha", "0.5", error)
      || !(inflow = add_block (b, "constant", "Inflow", 0, 0, error))
      || !set_params (b, inflow, error, "value", "1", NULL))
    return FALSE;

  for (guint j = 0; j < n; j++)
    {
      char u_name[24], f_name[24];

      format_name (u_name, sizeof u_name, "u", j + 1);
      format_name (f_name, sizeof f_name, "f", j + 1);
      /* u0 is the upstream neighbour, u1 the state itself; x0 = 0 is the
       * default and stays unset. */
      if (!(f[j] = add_block (b, "nlfunction", f_name, 100 + 160.0 * j, 0, error))
          || !set_params (b, f[j], error, "n", "2",
                          "expression", "(u0 - u1)*N - mu*u1*(u1 - alpha)*(u1 - 1)", NULL)
          || !(u[j] = add_block (b, "integrator", u_name, 180 + 160.0 * j, 0, error))
          || (3 * j < n && !set_params (b, u[j], error, "x0", "1", NULL))
          || !connect (b, f[j], u[j], 0, error)
          || !connect (b, j == 0 ? inflow : u[j - 1], f[j], 0, error)
          || !connect (b, u[j], f[j], 1, error))
        return FALSE;
    }
  return TRUE;
}

/* The resident memory now (not the peak), in kilobytes: the steps
 * between phases show what the document and the simulation cost. */
static long
current_rss_kb (void)
{
  g_autofree char *text = NULL;
  unsigned long size = 0, resident = 0;

  if (!g_file_get_contents ("/proc/self/statm", &text, NULL, NULL)
      || sscanf (text, "%lu %lu", &size, &resident) != 2)
    return 0;
  return (long) (resident * (unsigned long) sysconf (_SC_PAGESIZE) / 1024);
}

static void
fail (BenchResult *result,
      GError      *error)
{
  result->ok = FALSE;
  g_strlcpy (result->message, error != NULL ? error->message : "failed", sizeof result->message);
}

/* The diagram's right-hand side alone, @calls times on @x into @dx (the
 * arrays the hand-written one is timed on, qd_ref_rhs_arrays()), in a
 * simulation of its own one solver step on (the solver is then set up,
 * and the blocks have not yet ended): CPU ns per call, or 0 when it
 * cannot be evaluated. */
static double
time_diagram_rhs (QdDocument *doc,
                  double     *x,
                  double     *dx,
                  guint       n,
                  guint64     calls)
{
  QdSimulation *sim = qd_simulation_new (doc, NULL, NULL, NULL);
  double ns = 0.0;

  if (sim == NULL)
    return 0.0;
  if (qd_simulation_step (sim, 1, NULL) != QD_RUN_ERROR
      && qd_simulation_eval_classic_rhs (sim, 0.5, x, dx))
    /* The hand-written one's timing loop. */
    QD_BENCH_TIME_RHS (ns, qd_simulation_eval_classic_rhs (sim, 0.5, x, dx),
                       x, dx, n, calls);
  qd_simulation_free (sim);
  return ns;
}

/* The hand-written RHS with its layout read from memory, alone, on @x
 * into @dx: *@ns per call, 0 where the line is too short to have one.
 * FALSE, the benchmark failed, when it does not give the hand-written
 * RHS's values to the bit: it would then time something else. */
static gboolean
time_layout_rhs (double      *x,
                 double      *dx,
                 guint        n,
                 guint64      calls,
                 double      *ns,
                 BenchResult *result)
{
  QdRefLineLayout layout;
  g_autofree double *hand = g_new (double, n);

  *ns = 0.0;
  if (!qd_ref_lcline_layout (&layout, n))
    return TRUE;
  qd_ref_lcline_rhs (0.5, x, hand, n);
  qd_ref_lcline_rhs_layout (&layout, x, dx);
  if (memcmp (hand, dx, n * sizeof (double)) != 0)
    {
      g_snprintf (result->message, sizeof result->message,
                  "the hand-written RHS with its layout in memory does not "
                  "give the hand-written one's values");
      return FALSE;
    }
  *ns = qd_ref_lcline_time_rhs_layout (&layout, x, dx, n, calls);
  return TRUE;
}

/* Compiles *@doc and runs it, the @r-th time: the compiling figures and
 * the counts are those of the first; a later run whose counts differ
 * fails the benchmark, since a run must not depend on what ran before it
 * in the process. The last compile takes *@doc and frees it once
 * compiled, as `qdevs-cli run` does: the peak memory is then not the
 * document and the whole flat model at once. */
static gboolean
compile_and_run (const BenchSpec *spec,
                 QdDocument     **doc,
                 guint            r,
                 BenchResult     *result,
                 double          *wall_s,
                 double          *cpu_s)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  g_autoptr(GError) error = NULL;
  QdSimulation *sim;
  double start_cpu = qd_bench_cpu_time ();
  gint64 start_us = g_get_monotonic_time ();
  guint64 steps, transitions;
  gboolean ok;

  sim = r + 1 < spec->repeat
        ? qd_simulation_new (*doc, NULL, problems, &error)
        : qd_simulation_new_taking (g_steal_pointer (doc), NULL, problems, &error);
  if (r == 0)
    {
      result->compile_s = (double) (g_get_monotonic_time () - start_us) / G_USEC_PER_SEC;
      result->compile_cpu_s = qd_bench_cpu_time () - start_cpu;
      result->rss_sim_kb = current_rss_kb ();
    }
  if (sim == NULL)
    {
      fail (result, error);
      return FALSE;
    }
  if (spec->unfused)
    qd_simulation_set_fused_cascades (sim, FALSE);

  /* --from: the start, untimed and not counted (in the LC lines every
   * state's first output at t = 0, a sweep through all of them). */
  ok = spec->from <= 0.0
       || qd_simulation_run_until (sim, spec->from, &error) != QD_RUN_ERROR;
  steps = qd_simulation_get_integrator_steps (sim);
  transitions = qd_simulation_get_transitions (sim);

  start_us = g_get_monotonic_time ();
  start_cpu = qd_bench_cpu_time ();
  ok = ok && qd_simulation_run (sim, &error) != QD_RUN_ERROR;
  *wall_s = (double) (g_get_monotonic_time () - start_us) / G_USEC_PER_SEC;
  *cpu_s = qd_bench_cpu_time () - start_cpu;
  if (r == 0)
    {
      QdClassicStats st;

      result->classic = qd_simulation_get_classic_stats (sim, &st);
      result->solver_steps = st.steps;
      result->failed_steps = st.failed_steps;
      result->rhs_evals = st.rhs_evals;
      result->time_events = st.time_events;
      result->restarts = st.restarts;
    }
  steps = qd_simulation_get_integrator_steps (sim) - steps;
  transitions = qd_simulation_get_transitions (sim) - transitions;
  qd_simulation_free (sim);
  if (!ok)
    {
      fail (result, error);
      return FALSE;
    }
  if (r == 0)
    {
      result->integrator_steps = steps;
      result->transitions = transitions;
    }
  else if (steps != result->integrator_steps
           || transitions != result->transitions)
    {
      result->ok = FALSE;
      g_snprintf (result->message, sizeof result->message,
                  _("run %u of %u took %" PRIu64 " steps and %"
                    PRIu64 " transitions, the first %"
                    PRIu64 " and %" PRIu64),
                  r + 1, spec->repeat, steps, transitions,
                  result->integrator_steps, result->transitions);
      return FALSE;
    }
  return TRUE;
}

/* Runs in the child: everything from building the diagram to the end of
 * the simulation, so the child's peak memory covers all of it. */
static void
bench_one (const BenchSpec *spec,
           BenchResult     *result)
{
  g_autoptr(QdDocument) doc = qd_document_new ();
  g_autoptr(QdDocument) kept = NULL;
  g_autoptr(GError) error = NULL;
  Builder builder = { .doc = doc };
  g_autofree double *wall = g_new0 (double, spec->repeat);
  g_autofree double *cpu = g_new0 (double, spec->repeat);
  /* Per round: the diagram's RHS alone, the hand-written run's CPU time
   * and RHS alone, their two ratios, the hand-written RHS with its layout
   * read from memory, and its ratio. */
  g_autofree double *round_data = g_new0 (double, N_ROUND_FIGURES * spec->repeat);
  double *rounds[N_ROUND_FIGURES];
  double start_cpu;
  gint64 start_us;
  gboolean ok;

  memset (result, 0, sizeof *result);
  for (guint k = 0; k < N_ROUND_FIGURES; k++)
    rounds[k] = round_data + k * spec->repeat;
  start_us = g_get_monotonic_time ();
  start_cpu = qd_bench_cpu_time ();
  ok = set_settings (doc, spec->method, spec->until, spec->n, &error);
  if (spec->commands)
    /* One transaction: a single undo step rather than millions. */
    qd_document_begin (doc, "bench");
  else
    {
      builder.root = qd_system_new ();
      builder.out_links = g_ptr_array_new ();
    }
  if (ok && strcmp (spec->model, "advection") == 0)
    ok = build_advection (&builder, spec->n, &error);
  else if (ok && strcmp (spec->model, "lcline-vector") == 0)
    ok = build_lcline_vector (&builder, spec->n, &error);
  else if (ok)
    ok = build_lcline (&builder, spec->n, strcmp (spec->model, "lcline-random") == 0, &error);
  if (spec->commands)
    qd_document_end (doc);
  else
    {
      g_ptr_array_unref (builder.out_links);
      qd_document_take_root (doc, builder.root);
    }
  result->build_s = (double) (g_get_monotonic_time () - start_us) / G_USEC_PER_SEC;
  result->build_cpu_s = qd_bench_cpu_time () - start_cpu;
  result->rss_doc_kb = current_rss_kb ();
  if (!ok)
    {
      fail (result, error);
      return;
    }

  /* Under a classic solver the diagram's right-hand side is timed after
   * each run, on the document, which the last compile would free. */
  kept = qd_classic_find_method (spec->method) != NULL ? g_object_ref (doc) : NULL;
  for (guint r = 0; r < spec->repeat && ok; r++)
    {
      double *x = NULL, *dx = NULL;
      g_autofree gpointer arrays = NULL;
      guint64 calls = qd_ref_rhs_calls (spec->n, result->rhs_evals);

      ok = compile_and_run (spec, &doc, r, result, &wall[r], &cpu[r]);
      if (ok && result->classic && spec->n > 0)
        {
          arrays = qd_ref_rhs_arrays (spec->n, r, &x, &dx);
          rounds[0][r] = time_diagram_rhs (kept, x, dx, spec->n, calls);
        }
      /* The floor of the LC line under RKF45 and BDF: the same SUNDIALS
       * method on the hand-written right-hand side, in the same process,
       * in alternate rounds with the diagram's; and that right-hand side
       * alone, on the same arrays as the diagram's. */
      if (ok && spec->from <= 0.0 && g_str_has_prefix (spec->model, "lcline"))
        {
          QdRefClassicResult h;
          double hand_ns = 0.0;

          result->hand = qd_ref_lcline_classic (spec->method, spec->n,
                                                strcmp (spec->model, "lcline-random") == 0,
                                                BENCH_RTOL, BENCH_ATOL, spec->until, &h);
          if (r == 0)
            result->hand_result = h;
          if (arrays != NULL)
            {
              qd_ref_draw_states (x, spec->n);
              hand_ns = qd_ref_lcline_time_rhs (x, dx, spec->n, calls);
              ok = time_layout_rhs (x, dx, spec->n, calls, &rounds[5][r], result);
              rounds[6][r] = hand_ns > 0 ? rounds[5][r] / hand_ns : 0.0;
            }
          rounds[1][r] = h.cpu_s;
          rounds[2][r] = hand_ns;
          rounds[3][r] = h.cpu_s > 0 ? cpu[r] / h.cpu_s : 0.0;
          rounds[4][r] = hand_ns > 0 ? rounds[0][r] / hand_ns : 0.0;
        }
      if (arrays != NULL)
        g_aligned_free (g_steal_pointer (&arrays));
    }
  if (ok)
    {
      result->ok = TRUE;
      result->wall_s = qd_bench_median (wall, spec->repeat, &result->wall_min_s);
      result->cpu_s = qd_bench_median (cpu, spec->repeat, &result->cpu_min_s);
      result->rhs_ns = qd_bench_median (rounds[0], spec->repeat, &result->rhs_min_ns);
    }
  if (ok && result->hand)
    {
      double least;

      result->hand_result.cpu_s = qd_bench_median (rounds[1], spec->repeat, &result->hand_cpu_min_s);
      result->hand_rhs_ns = qd_bench_median (rounds[2], spec->repeat, &result->hand_rhs_min_ns);
      /* The medians of the rounds' ratios, and the least as the ratio of
       * the least times: the least of the ratios would be the round where
       * the hand-written side alone was slowed (a hand's round of 11.6 ns
       * among rounds of 9.0-9.6 makes a ratio of 1.48 among 1.8-2.0), not
       * the diagram's best. */
      result->run_ratio[1] = qd_bench_median (rounds[3], spec->repeat, &least);
      result->rhs_ratio[1] = qd_bench_median (rounds[4], spec->repeat, &least);
      result->run_ratio[0] = result->hand_cpu_min_s > 0
                             ? result->cpu_min_s / result->hand_cpu_min_s : 0.0;
      result->rhs_ratio[0] = result->hand_rhs_min_ns > 0
                             ? result->rhs_min_ns / result->hand_rhs_min_ns : 0.0;
      result->layout_rhs_ns = qd_bench_median (rounds[5], spec->repeat, &result->layout_rhs_min_ns);
      result->layout_ratio[1] = qd_bench_median (rounds[6], spec->repeat, &least);
      result->layout_ratio[0] = result->hand_rhs_min_ns > 0
                                ? result->layout_rhs_min_ns / result->hand_rhs_min_ns : 0.0;
    }
}

static gboolean
bench_in_child (const BenchSpec *spec,
                BenchResult     *result,
                long            *peak_rss_kb)
{
  struct rusage usage;
  int fds[2];
  pid_t pid;
  int status;
  gsize got = 0;

  if (pipe (fds) != 0)
    return FALSE;
  fflush (stdout);
  pid = fork ();
  if (pid < 0)
    {
      close (fds[0]);
      close (fds[1]);
      return FALSE;
    }
  if (pid == 0)
    {
      BenchResult mine;
      gsize done = 0;

      close (fds[0]);
      bench_one (spec, &mine);
      while (done < sizeof mine)
        {
          ssize_t w = write (fds[1], (char *) &mine + done, sizeof mine - done);

          if (w <= 0 && errno != EINTR)
            break;
          if (w > 0)
            done += (gsize) w;
        }
      _exit (0);
    }

  close (fds[1]);
  while (got < sizeof *result)
    {
      ssize_t r = read (fds[0], (char *) result + got, sizeof *result - got);

      if (r == 0 || (r < 0 && errno != EINTR))
        break;
      if (r > 0)
        got += (gsize) r;
    }
  close (fds[0]);

  /* wait4 gives this child's own resource usage: ru_maxrss is its peak
   * resident set in kilobytes. */
  while (wait4 (pid, &status, 0, &usage) < 0 && errno == EINTR)
    ;
  *peak_rss_kb = usage.ru_maxrss;

  if (got < sizeof *result)
    {
      memset (result, 0, sizeof *result);
      g_snprintf (result->message, sizeof result->message,
                  WIFSIGNALED (status) ? _("the run was killed by signal %d") : _("the run ended early (status %d)"),
                  WIFSIGNALED (status) ? WTERMSIG (status) : WEXITSTATUS (status));
    }
  return TRUE;
}

/* Per right-hand-side evaluation: the run's CPU time over its
 * evaluations (the solver's own work included), and per state. */
static double
ns_per_rhs (double  cpu_s,
            guint64 evals)
{
  return evals > 0 ? cpu_s * 1e9 / (double) evals : 0.0;
}

static void
print_classic_text (const BenchSpec   *spec,
                    const BenchResult *result)
{
  const QdRefClassicResult *h = &result->hand_result;
  double per_rhs = ns_per_rhs (result->cpu_s, result->rhs_evals);

  if (!result->classic)
    return;
  g_print (_("    %s: %" PRIu64 " steps (%" PRIu64 " failed), %"
             PRIu64 " RHS evaluations, %.1f ns per evaluation, %.2f ns per "
             "evaluation and state; the RHS alone %.1f ns (%.2f per state)\n"),
           spec->method, result->solver_steps, result->failed_steps, result->rhs_evals,
           per_rhs, per_rhs / spec->n, result->rhs_ns, result->rhs_ns / spec->n);
  if (!result->hand)
    return;
  g_print (_("    hand-written RHS under SUNDIALS %s: %" PRIu64 " steps, %"
             PRIu64 " RHS evaluations, cpu_s %.4f (the diagram %.2f times that, "
             "least %.2f); RHS alone %.1f ns (the diagram's %.2f times that, "
             "least %.2f)\n"),
           spec->method, h->steps, h->rhs_evals, h->cpu_s,
           result->run_ratio[1], result->run_ratio[0],
           result->hand_rhs_ns, result->rhs_ratio[1], result->rhs_ratio[0]);
  if (result->layout_rhs_ns > 0)
    g_print (_("    hand-written RHS with its layout read from memory: %.1f ns "
               "(%.2f times the hand-written one, least %.2f)\n"),
             result->layout_rhs_ns, result->layout_ratio[1], result->layout_ratio[0]);
}

static void
add_classic_json (json_object       *obj,
                  const BenchSpec   *spec,
                  const BenchResult *result)
{
  const QdRefClassicResult *h = &result->hand_result;
  double per_rhs = ns_per_rhs (result->cpu_s, result->rhs_evals);

  if (!result->classic)
    return;
  json_object_object_add (obj, "solver_steps", json_object_new_int64 ((gint64) result->solver_steps));
  json_object_object_add (obj, "failed_steps", json_object_new_int64 ((gint64) result->failed_steps));
  json_object_object_add (obj, "rhs_evals", json_object_new_int64 ((gint64) result->rhs_evals));
  json_object_object_add (obj, "time_events", json_object_new_int64 ((gint64) result->time_events));
  json_object_object_add (obj, "restarts", json_object_new_int64 ((gint64) result->restarts));
  json_object_object_add (obj, "ns_per_rhs", json_object_new_double (per_rhs));
  json_object_object_add (obj, "ns_per_rhs_state", json_object_new_double (per_rhs / spec->n));
  json_object_object_add (obj, "rhs_alone_ns", json_object_new_double (result->rhs_ns));
  json_object_object_add (obj, "rhs_alone_ns_min", json_object_new_double (result->rhs_min_ns));
  if (!result->hand)
    return;
  json_object_object_add (obj, "hand_steps", json_object_new_int64 ((gint64) h->steps));
  json_object_object_add (obj, "hand_rhs_evals", json_object_new_int64 ((gint64) h->rhs_evals));
  json_object_object_add (obj, "hand_cpu_s", json_object_new_double (h->cpu_s));
  json_object_object_add (obj, "hand_cpu_s_min", json_object_new_double (result->hand_cpu_min_s));
  json_object_object_add (obj, "hand_rhs_ns", json_object_new_double (result->hand_rhs_ns));
  json_object_object_add (obj, "hand_rhs_ns_min", json_object_new_double (result->hand_rhs_min_ns));
  json_object_object_add (obj, "run_ratio", json_object_new_double (result->run_ratio[1]));
  json_object_object_add (obj, "run_ratio_min", json_object_new_double (result->run_ratio[0]));
  json_object_object_add (obj, "rhs_ratio", json_object_new_double (result->rhs_ratio[1]));
  json_object_object_add (obj, "rhs_ratio_min", json_object_new_double (result->rhs_ratio[0]));
  if (result->layout_rhs_ns <= 0)
    return;
  json_object_object_add (obj, "layout_rhs_ns", json_object_new_double (result->layout_rhs_ns));
  json_object_object_add (obj, "layout_rhs_ns_min", json_object_new_double (result->layout_rhs_min_ns));
  json_object_object_add (obj, "layout_ratio", json_object_new_double (result->layout_ratio[1]));
  json_object_object_add (obj, "layout_ratio_min", json_object_new_double (result->layout_ratio[0]));
}

static void
print_row (const BenchSpec   *spec,
           const BenchResult *result,
           long               peak_rss_kb,
           gboolean           as_json)
{
  double ns_per_step = result->integrator_steps > 0
                       ? result->wall_s * 1e9 / (double) result->integrator_steps : 0.0;

  if (!result->ok)
    {
      /* no-i18n: the command line that failed, then the message */
      g_printerr ("bench %s n=%u %s: %s\n", spec->model, spec->n, spec->method, result->message);
      return;
    }
  if (as_json)
    {
      json_object *obj = json_object_new_object ();

      json_object_object_add (obj, "model", json_object_new_string (spec->model));
      json_object_object_add (obj, "n", json_object_new_int64 (spec->n));
      json_object_object_add (obj, "method", json_object_new_string (spec->method));
      if (spec->from > 0.0)
        json_object_object_add (obj, "from", json_object_new_double (spec->from));
      json_object_object_add (obj, "integrator_steps", json_object_new_int64 ((gint64) result->integrator_steps));
      json_object_object_add (obj, "transitions", json_object_new_int64 ((gint64) result->transitions));
      json_object_object_add (obj, "wall_s", json_object_new_double (result->wall_s));
      json_object_object_add (obj, "ns_per_step", json_object_new_double (ns_per_step));
      json_object_object_add (obj, "peak_rss_kb", json_object_new_int64 (peak_rss_kb));
      json_object_object_add (obj, "cpu_s", json_object_new_double (result->cpu_s));
      json_object_object_add (obj, "repeat", json_object_new_int64 (spec->repeat));
      json_object_object_add (obj, "wall_s_min", json_object_new_double (result->wall_min_s));
      json_object_object_add (obj, "cpu_s_min", json_object_new_double (result->cpu_min_s));
      json_object_object_add (obj, "build_s", json_object_new_double (result->build_s));
      json_object_object_add (obj, "compile_s", json_object_new_double (result->compile_s));
      json_object_object_add (obj, "build_cpu_s", json_object_new_double (result->build_cpu_s));
      json_object_object_add (obj, "compile_cpu_s", json_object_new_double (result->compile_cpu_s));
      json_object_object_add (obj, "rss_after_build_kb", json_object_new_int64 (result->rss_doc_kb));
      json_object_object_add (obj, "rss_after_compile_kb", json_object_new_int64 (result->rss_sim_kb));
      add_classic_json (obj, spec, result);
      g_print ("%s\n", json_object_to_json_string_ext (obj, JSON_C_TO_STRING_PLAIN));
      json_object_put (obj);
    }
  else
    {
      g_print ("%-14s %8u %-16s %16" G_GUINT64_FORMAT " %14" G_GUINT64_FORMAT
               " %10.3f %12.1f %12ld %9.3f %9.3f %9.3f\n",
               spec->model, spec->n, spec->method, result->integrator_steps,
               result->transitions, result->wall_s, ns_per_step, peak_rss_kb,
               result->cpu_s, result->build_s, result->compile_s);
      print_classic_text (spec, result);
    }
  fflush (stdout);
}

/* --in-process: no child, so that callgrind and perf see the run without
 * following a fork; the peak memory is then the process's high-water
 * mark so far. */
static void
bench_here (const BenchSpec *spec,
            BenchResult     *result,
            long            *peak_rss_kb)
{
  struct rusage usage;

  bench_one (spec, result);
  if (getrusage (RUSAGE_SELF, &usage) == 0)
    *peak_rss_kb = usage.ru_maxrss;
}

static int
run_spec (const BenchSpec *spec,
          gboolean         as_json,
          gboolean         in_process)
{
  BenchResult result;
  long peak_rss_kb = 0;

  if (in_process)
    bench_here (spec, &result, &peak_rss_kb);
  else if (!bench_in_child (spec, &result, &peak_rss_kb))
    {
      g_printerr (_("bench: cannot start a child process: %s\n"), g_strerror (errno));
      return QD_CLI_EXIT_RUN;
    }
  print_row (spec, &result, peak_rss_kb, as_json);
  return result.ok ? QD_CLI_EXIT_OK : QD_CLI_EXIT_RUN;
}

int
qd_cli_bench (int    argc,
              char **argv)
{
  char *model = NULL, *method = NULL, *sizes_arg = NULL;
  double until = NAN, from = 0.0;
  gboolean as_json = FALSE, large = FALSE, commands = FALSE, in_process = FALSE;
  gboolean unfused = FALSE;
  int repeat = 1;
  GOptionEntry entries[] = {
    { "model", 0, 0, G_OPTION_ARG_STRING, &model,
      N_("Models: lcline, lcline-random, advection or lcline-vector, or several separated by commas (default: all four)"), N_("MODEL") },
    { "n", 0, 0, G_OPTION_ARG_STRING, &sizes_arg,
      N_("Numbers of states, separated by commas (default: 10, 100, 1000 and 10000)"), N_("N") },
    { "method", 0, 0, G_OPTION_ARG_STRING, &method,
      N_("Integration methods, separated by commas, or all for every method of the Integrator (default: QSS1, QSS2 and QSS3)"), N_("M") },
    { "until", 0, 0, G_OPTION_ARG_DOUBLE, &until,
      N_("Final time (default 10 for the LC lines, 1 for advection)"), N_("T") },
    { "from", 0, 0, G_OPTION_ARG_DOUBLE, &from,
      N_("Run until T0 first without timing or counting it: the figures are those of the part from T0 to the final time (default 0)"), N_("T0") },
    { "large", 0, 0, G_OPTION_ARG_NONE, &large,
      N_("Add N = 100000 and 1000000 to the table"), NULL },
    { "commands", 0, 0, G_OPTION_ARG_NONE, &commands,
      N_("Build the diagrams through the editor's undoable edit commands instead of the loader's constructors"), NULL },
    { "json", 0, 0, G_OPTION_ARG_NONE, &as_json,
      N_("Print one JSON object per run and line"), NULL },
    { "no-fused-cascades", 0, 0, G_OPTION_ARG_NONE, &unfused,
      N_("Send every zero-time cascade through the general event loop (same results, slower; to measure what fusing them saves)"), NULL },
    { "repeat", 0, 0, G_OPTION_ARG_INT, &repeat,
      N_("Compile and run each model K times in one process and report the median and the least time (default 1)"), N_("K") },
    { "in-process", 0, 0, G_OPTION_ARG_NONE, &in_process,
      N_("Run in this process, not in a child (for valgrind and perf; peak_rss_kb is then cumulative)"), NULL },
    { NULL }
  };
  static const guint sizes[] = { 10, 100, 1000, 10000, 100000, 1000000 };
  GPtrArray *model_list = g_ptr_array_new ();
  GPtrArray *method_list = g_ptr_array_new ();
  GArray *n_list = g_array_new (FALSE, FALSE, sizeof (guint));
  int status_code = QD_CLI_EXIT_OK;

  if (!qd_cli_parse_options ("bench", NULL,
                             _("Run generated large models headless and report speed and memory."),
                             _("Each run is one row: model, n, method, integrator_steps, transitions,\n"
                               "wall_s (the run alone, not building or compiling), ns_per_step\n"
                               "(wall time per integrator step) and peak_rss_kb. Every run happens in\n"
                               "its own child process, so peak_rss_kb is that run's own peak resident\n"
                               "memory (building the diagram, compiling and running), not cumulative.\n"
                               "cpu_s is the CPU time of the run (less than wall_s on a busy machine);\n"
                               "build_s and compile_s are the time to build the diagram and to compile it.\n"
                               "With --json, rss_after_build_kb and rss_after_compile_kb are the resident\n"
                               "memory once the diagram is built and once it is compiled (not peaks),\n"
                               "and build_cpu_s and compile_cpu_s the CPU time of those two phases.\n"
                               "--repeat K compiles and runs each model K times in its process: wall_s,\n"
                               "ns_per_step and cpu_s are then the medians, and the JSON fields wall_s_min\n"
                               "and cpu_s_min the least (the steadiest figure on a shared machine).\n"
                               "--from T0 runs each model until T0 first, untimed and uncounted: the steps,\n"
                               "transitions and times are then those from T0 on (without the LC lines'\n"
                               "start, which passes every state once), and the JSON has a field from.\n"
                               "Benchmarks print figures; they never fail on time.\n\n"
                               "Examples:\n"
                               "  qdevs-cli bench --model lcline --n 1000 --method QSS2 --json\n"
                               "  qdevs-cli bench --model lcline,advection --n 100,10000 --method all"),
                             entries, &argc, &argv))
    {
      status_code = QD_CLI_EXIT_USAGE;
      goto out;
    }

  if (argc > 1)
    status_code = qd_cli_usage_error ("bench", _("unexpected argument '%s'"), argv[1]);
  else if (!isnan (until) && !(until > 0.0))
    status_code = qd_cli_usage_error ("bench", _("--until must be positive"));
  else if (!(from >= 0.0 && from < G_MAXDOUBLE))
    status_code = qd_cli_usage_error ("bench", _("--from must be 0 or more"));
  else if (repeat < 1 || repeat > 1000)
    status_code = qd_cli_usage_error ("bench", _("--repeat must be from 1 to 1000"));
  else if ((model != NULL && !parse_models (model, model_list))
           || (method != NULL && !parse_methods (method, method_list))
           || (sizes_arg != NULL && !parse_sizes (sizes_arg, n_list)))
    status_code = QD_CLI_EXIT_USAGE;
  if (status_code != QD_CLI_EXIT_OK)
    goto out;

  if (model == NULL)
    parse_names ("all", models, TRUE, model_list);
  if (method == NULL)
    parse_names ("all", default_methods, TRUE, method_list);
  if (sizes_arg == NULL)
    g_array_append_vals (n_list, sizes, large ? 6 : 4);

  for (guint m = 0; m < model_list->len; m++)
    {
      const char *model_name = g_ptr_array_index (model_list, m);
      double t_end = isnan (until) ? default_until (model_name) : until;

      if (!(from < t_end))
        {
          status_code = qd_cli_usage_error ("bench", _("--from must be earlier than the final time (%g for %s)"),
                                            t_end, model_name);
          goto out;
        }
    }

  if (!as_json)
    g_print ("%-14s %8s %-16s %16s %14s %10s %12s %12s %9s %9s %9s\n", "model", "n", "method",
             "integrator_steps", "transitions", "wall_s", "ns_per_step", "peak_rss_kb",
             "cpu_s", "build_s", "compile_s");

  for (guint m = 0; m < model_list->len; m++)
    {
      const char *model_name = g_ptr_array_index (model_list, m);

      if (strcmp (model_name, "advection") == 0 && qd_registry_lookup ("nlfunction") == NULL)
        {
          if (model != NULL)
            {
              g_printerr (_("bench: the advection model needs the NLFunction block, which this build does not have\n"));
              status_code = QD_CLI_EXIT_RUN;
            }
          continue;
        }
      for (guint k = 0; k < method_list->len; k++)
        for (guint s = 0; s < n_list->len; s++)
          {
            BenchSpec spec = {
              .model = model_name,
              .n = g_array_index (n_list, guint, s),
              .method = g_ptr_array_index (method_list, k),
              .until = isnan (until) ? default_until (model_name) : until,
              .from = from,
              .commands = commands,
              .unfused = unfused,
              .repeat = (guint) repeat,
            };
            int code = run_spec (&spec, as_json, in_process);

            if (code != QD_CLI_EXIT_OK)
              status_code = code;
          }
    }

out:
  g_ptr_array_unref (model_list);
  g_ptr_array_unref (method_list);
  g_array_unref (n_list);
  g_free (model);
  g_free (method);
  g_free (sizes_arg);
  return status_code;
}

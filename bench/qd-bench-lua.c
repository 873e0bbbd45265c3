/* qd-bench-lua.c: what a transition of a Lua Atomic costs
 *
 *   qdevs-bench-lua [--repeat K]
 *
 * Runs two pairs of models through the engine and prints the CPU time
 * per transition (internal and external transitions of every block),
 * the median of K runs (default 5), and that time over the transitions
 * of the generators, processors and integrators alone:
 *
 *   generator → processor   P pairs of the built-in Generator → Server
 *                           (deterministic, period 1, service 0.5), and
 *                           the same with the Lua templates generator.lua
 *                           → processor.lua
 *   QSS1 integrator         dx/dt = −x, x(0) = 1, dq = 1e-6 through a
 *                           Gain: the built-in Integrator (QSS1), and the
 *                           Lua template qss1-integrator.lua
 *
 * Then the memory a Lua block costs: the heap a simulation of MEMORY_BLOCKS
 * generator.lua → Terminator pairs holds once initialized, less that of
 * the same model with built-in Generators, over MEMORY_BLOCKS.
 *
 * The templates are read from the source tree (QD_SOURCE_DIR, given by
 * meson) or from the installed ones. A benchmark, not a test: it prints
 * figures and fails only when a model does not run.
 */
#include <malloc.h>
#include <stdio.h>
#include <string.h>

#include "qdevs.h"
#include "qd-blocks.h"
#include "qd-bench-timing.h"

#define PAIRS        100
#define PAIRS_UNTIL  5000.0
#define DECAY_UNTIL  5.0
#define MEMORY_BLOCKS 1000

typedef struct
{
  const char *name;
  guint64     transitions;
  guint64     own;          /* those of the blocks measured */
  double      ns;           /* per transition, median */
} Result;

/* The transitions of the blocks under measure: all but the Gain and the
 * Terminators around them. */
static guint64
own_transitions (QdSimulation *sim)
{
  guint64 sum = 0;

  for (guint i = 0; i < qd_simulation_get_n_atomics (sim); i++)
    {
      const QdAtomic *a = qd_simulation_get_atomic (sim, i);
      guint64 n_int, n_ext;

      if (strcmp (a->type->id, "gain") == 0
          || strcmp (a->type->id, "terminator") == 0)
        continue;
      qd_simulation_get_block_stats (sim, i, &n_int, &n_ext);
      sum += n_int + n_ext;
    }
  return sum;
}

static char *
read_template (const char *name)
{
  const char *dirs[] = { QD_SOURCE_DIR "/data/lua-templates",
                         QD_PKGDATADIR "/lua-templates" };
  char *text = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (dirs); i++)
    {
      g_autofree char *path = g_build_filename (dirs[i], name, NULL);

      if (g_file_get_contents (path, &text, NULL, NULL))
        return text;
    }
  g_printerr ("qdevs-bench-lua: template %s not found\n", name);
  exit (1);
}

static QdBlock *
add (QdDocument *doc,
     const char *type,
     const char *name,
     ...)
{
  g_autoptr(GError) error = NULL;
  QdBlock *block = qd_document_add_block (doc, qd_document_get_root (doc),
                                          type, name, 0, 0, &error);
  va_list args;

  if (block == NULL)
    g_error ("%s: %s", name, error->message);
  va_start (args, name);
  for (const char *key = va_arg (args, const char *); key != NULL;
       key = va_arg (args, const char *))
    {
      const char *value = va_arg (args, const char *);

      if (!qd_document_set_param (doc, block, key, value, &error))
        g_error ("%s.%s: %s", name, key, error->message);
    }
  va_end (args);
  return block;
}

static void
wire (QdDocument *doc,
      QdBlock    *src,
      QdBlock    *dst)
{
  g_autoptr(GError) error = NULL;

  if (qd_document_connect (doc, qd_document_get_root (doc), src->id, 0,
                           dst->id, 0, &error) == NULL)
    g_error ("%s → %s: %s", src->name, dst->name, error->message);
}

static void
set_final_time (QdDocument *doc,
                double      final_time)
{
  QdSettings settings = *qd_document_get_settings (doc);
  g_autoptr(GError) error = NULL;

  settings.final_time = final_time;
  if (!qd_document_set_settings (doc, &settings, &error))
    g_error ("%s", error->message);
}

static QdDocument *
pairs_model (gboolean lua)
{
  QdDocument *doc = qd_document_new ();
  g_autofree char *gen_script = lua ? read_template ("generator.lua") : NULL;
  g_autofree char *proc_script = lua ? read_template ("processor.lua") : NULL;

  for (guint i = 0; i < PAIRS; i++)
    {
      g_autofree char *gname = g_strdup_printf ("Generator %u", i);
      g_autofree char *pname = g_strdup_printf ("Processor %u", i);
      g_autofree char *tname = g_strdup_printf ("End %u", i);
      QdBlock *gen, *proc, *end;

      if (lua)
        {
          gen = add (doc, "lua", gname, "script", gen_script,
                     "values", "period = 1", NULL);
          proc = add (doc, "lua", pname, "script", proc_script,
                      "values", "time = 0.5", NULL);
        }
      else
        {
          gen = add (doc, "generator", gname, "distribution", "deterministic",
                     "period", "1", NULL);
          proc = add (doc, "server", pname, "distribution", "deterministic",
                      "mean", "0.5", NULL);
        }
      end = add (doc, "terminator", tname, NULL);
      wire (doc, gen, proc);
      wire (doc, proc, end);
    }
  set_final_time (doc, PAIRS_UNTIL);
  return doc;
}

static QdDocument *
decay_model (gboolean lua)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *integ, *gain;

  if (lua)
    {
      g_autofree char *script = read_template ("qss1-integrator.lua");

      integ = add (doc, "lua", "Integrator", "script", script,
                   "values", "x0 = 1; dq = 1e-6", NULL);
    }
  else
    integ = add (doc, "integrator", "Integrator", "x0", "1", "method", "QSS1",
                 "dqmin", "1e-6", "dqrel", "0", NULL);
  gain = add (doc, "gain", "Gain", "k", "-1", NULL);
  wire (doc, integ, gain);
  wire (doc, gain, integ);
  set_final_time (doc, DECAY_UNTIL);
  return doc;
}

static Result
measure (const char *name,
         QdDocument *doc,
         guint       repeat)
{
  g_autofree double *ns = g_new (double, repeat);
  Result r = { name, 0, 0, 0 };
  double least;

  for (guint k = 0; k < repeat; k++)
    {
      g_autoptr(GError) error = NULL;
      QdSimulation *sim = qd_simulation_new (doc, NULL, NULL, &error);
      double t0;

      if (sim == NULL)
        g_error ("%s: %s", name, error->message);
      t0 = qd_bench_cpu_time ();
      if (qd_simulation_run (sim, &error) != QD_RUN_DONE)
        g_error ("%s: %s", name, error != NULL ? error->message : "stopped");
      ns[k] = (qd_bench_cpu_time () - t0) * 1e9;
      r.transitions = qd_simulation_get_transitions (sim);
      r.own = own_transitions (sim);
      ns[k] /= (double) r.transitions;
      qd_simulation_free (sim);
    }
  r.ns = qd_bench_median (ns, repeat, &least);
  g_object_unref (doc);
  return r;
}

static gsize
heap_in_use (void)
{
  struct mallinfo2 m = mallinfo2 ();

  return m.uordblks + m.hblkhd;
}

/* The heap an initialized simulation of MEMORY_BLOCKS sources (Lua
 * generators or built-in ones), each into a Terminator, holds. */
static double
sources_heap (gboolean lua)
{
  QdDocument *doc = qd_document_new ();
  g_autofree char *script = lua ? read_template ("generator.lua") : NULL;
  g_autoptr(GError) error = NULL;
  QdSimulation *sim;
  gsize before;
  double bytes;

  for (guint i = 0; i < MEMORY_BLOCKS; i++)
    {
      g_autofree char *gname = g_strdup_printf ("Generator %u", i);
      g_autofree char *tname = g_strdup_printf ("End %u", i);
      QdBlock *gen = lua
        ? add (doc, "lua", gname, "script", script, "values", "period = 1", NULL)
        : add (doc, "generator", gname, "distribution", "deterministic",
               "period", "1", NULL);

      wire (doc, gen, add (doc, "terminator", tname, NULL));
    }
  before = heap_in_use ();
  sim = qd_simulation_new (doc, NULL, NULL, &error);
  if (sim == NULL)
    g_error ("memory: %s", error->message);
  bytes = (double) heap_in_use () - (double) before;
  qd_simulation_free (sim);
  g_object_unref (doc);
  return bytes;
}

int
main (int   argc,
      char *argv[])
{
  guint repeat = 5;
  Result r[4];

  if (argc == 3 && strcmp (argv[1], "--repeat") == 0)
    repeat = (guint) MAX (1, atoi (argv[2]));
  else if (argc != 1)
    {
      g_printerr ("Usage: qdevs-bench-lua [--repeat K]\n");
      return 2;
    }
  qd_init ();

  r[0] = measure ("Generator → Server, built-in", pairs_model (FALSE), repeat);
  r[1] = measure ("generator.lua → processor.lua", pairs_model (TRUE), repeat);
  r[2] = measure ("QSS1 Integrator, built-in", decay_model (FALSE), repeat);
  r[3] = measure ("qss1-integrator.lua", decay_model (TRUE), repeat);

  /* ns/transition: the run's CPU time over all its transitions; ns/own:
   * the same time over the transitions of the measured blocks alone (the
   * Gain's and the Terminators' time counted as theirs: an upper bound
   * of what one of their transitions costs). */
  printf ("%-32s %12s %14s %8s %14s\n", "model", "transitions",
          "ns/transition", "ratio", "ns/own trans.");
  for (guint i = 0; i < G_N_ELEMENTS (r); i++)
    {
      double total = r[i].ns * (double) r[i].transitions;

      printf ("%-32s %12" G_GUINT64_FORMAT " %14.1f %8.1f %14.1f\n", r[i].name,
              r[i].transitions, r[i].ns, r[i].ns / r[i - i % 2].ns,
              total / (double) MAX (r[i].own, 1));
    }

  {
    double builtin = sources_heap (FALSE), lua = sources_heap (TRUE);

    printf ("\nmemory, %u sources → Terminators: built-in %.1f KiB, Lua %.1f KiB;"
            " a Lua block %.1f KiB\n", MEMORY_BLOCKS, builtin / 1024, lua / 1024,
            (lua - builtin) / 1024 / MEMORY_BLOCKS);
  }
  return 0;
}

/* fuzz-run.c: a libFuzzer target for the compiler and the event loop
 *
 * fuzz-load.c holds the loader to "a document or an error". This target
 * goes on where a document loads: it is compiled, and when that succeeds
 * it runs for a bounded number of events and is finished. Whatever the
 * diagram (odd parameters, expressions that overflow, quanta of zero,
 * algebraic loops, illegitimate models), each step must end in a value or
 * an error that names the file or the block, never a crash, a hang, a
 * leak or a sanitizer report. Diagrams with blocks that touch files (To
 * CSV writes one, From CSV reads one) are compiled but not run: a
 * fuzzer must not write where its inputs say.
 */
#include <string.h>

#include "fuzz-common.h"

/* Enough events for every block of a small diagram to fire many times
 * (the integrators' steps, the sources' changes, the cascades between),
 * few enough that one input takes milliseconds. */
#define FUZZ_MAX_EVENTS 20000

/* The block types that read or write a file named in the diagram. */
static const char *const file_types[] = { "to_csv", "from_csv" };

static gboolean
touches_files (QdSimulation *sim)
{
  for (guint i = 0; i < qd_simulation_get_n_atomics (sim); i++)
    {
      const char *id = qd_simulation_get_atomic (sim, i)->type->id;

      for (guint k = 0; k < G_N_ELEMENTS (file_types); k++)
        if (strcmp (id, file_types[k]) == 0)
          return TRUE;
    }
  return FALSE;
}

/* A renamed type must not switch the guard off unnoticed. */
static void
check_file_types (void)
{
  static gboolean checked = FALSE;

  if (checked)
    return;
  checked = TRUE;
  for (guint k = 0; k < G_N_ELEMENTS (file_types); k++)
    if (qd_registry_lookup (file_types[k]) == NULL)
      {
        g_printerr ("fuzz-run: no block type '%s'\n", file_types[k]);
        abort ();
      }
}

/* An error must say where: in the file, or at a block's path. */
static void
check_error (const GError *error)
{
  if (error == NULL || error->domain != QD_ERROR || error->message[0] == '\0')
    abort ();
}

int
LLVMFuzzerTestOneInput (const guint8 *data,
                        size_t        size)
{
  g_autoptr (GPtrArray) problems = NULL;
  QdDocument *doc = fuzz_load (data, size);
  QdSimulation *sim;
  GError *error = NULL;

  check_file_types ();
  if (doc == NULL)
    return 0;

  problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  sim = qd_simulation_new (doc, NULL, problems, &error);
  if (sim == NULL)
    {
      check_error (error);
      if (problems->len == 0)
        abort ();
      g_error_free (error);
      g_object_unref (doc);
      return 0;
    }
  if (error != NULL || problems->len != 0)
    abort ();

  if (!touches_files (sim))
    {
      QdRunStatus status = qd_simulation_step (sim, FUZZ_MAX_EVENTS, &error);

      if (status == QD_RUN_ERROR)
        {
          check_error (error);
          g_clear_error (&error);
        }
      else if (error != NULL)
        abort ();
      /* The clock never runs backwards, and a finished run stays put. */
      if (!(qd_simulation_get_time (sim) >= qd_simulation_get_start_time (sim)))
        abort ();
    }
  qd_simulation_finish (sim);
  qd_simulation_free (sim);
  g_object_unref (doc);
  return 0;
}

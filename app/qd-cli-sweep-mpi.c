/* qd-cli-sweep-mpi.c: the runs of a sweep over MPI ranks
 *
 * `mpirun -n P qdevs-cli sweep ...` (or srun under Slurm) starts P copies
 * of the same command; each parses the same arguments and loads the same
 * file. Rank 0 hands out run numbers in small batches to whichever rank
 * asks next (runs may differ in cost by orders of magnitude, so a static
 * split would leave ranks idle), computes runs itself on a thread
 * meanwhile, and collects every record; the other ranks run what they
 * are given and send back each record as bytes. Since a run depends only
 * on its number, the files rank 0 writes are those of a local sweep.
 *
 * Only MPI point-to-point messages: no scheduler, socket or cluster
 * manager of our own.
 */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

#include "qd-cli-sweep-private.h"

enum
{
  TAG_WORK = 1,    /* rank 0 -> worker: guint64 { first, count }; count 0: stop */
  TAG_RESULT = 2,  /* worker -> rank 0: one serialized record */
};

/* Batches hold up to this many runs, and fewer near the end so the last
 * runs spread over every rank. */
#define MAX_BATCH 16

static gboolean mpi_active;

gboolean
qd_cli_sweep_mpi_init (int    *argc,
                       char ***argv,
                       int    *rank)
{
  int provided = 0;

  /* Started by a launcher: Open MPI's mpirun, or PMI / PMIx (srun,
   * MPICH's hydra). A plain `qdevs-cli sweep` does not touch MPI. */
  if (g_getenv ("OMPI_COMM_WORLD_SIZE") == NULL && g_getenv ("PMIX_RANK") == NULL
      && g_getenv ("PMI_RANK") == NULL && g_getenv ("PMI_SIZE") == NULL)
    return FALSE;
  /* Rank 0 computes on a thread while its main thread alone calls MPI. */
  if (MPI_Init_thread (argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS)
    return FALSE;
  mpi_active = TRUE;
  MPI_Comm_rank (MPI_COMM_WORLD, rank);
  return TRUE;
}

void
qd_cli_sweep_mpi_finalize (void)
{
  if (!mpi_active)
    return;
  /* Ranks may be in the middle of a run, rank 0's thread too: the
   * results are written, the rest of the job is ended. */
  if (qd_cli_sweep_interrupt != 0)
    MPI_Abort (MPI_COMM_WORLD, QD_CLI_EXIT_SIGNAL + qd_cli_sweep_interrupt);
  MPI_Finalize ();
  mpi_active = FALSE;
}

static void
worker_loop (QdCliSweepJob *job)
{
  for (;;)
    {
      guint64 batch[2];

      MPI_Recv (batch, 2, MPI_UINT64_T, 0, TAG_WORK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      if (batch[1] == 0)
        return;
      for (guint64 run = batch[0]; run < batch[0] + batch[1]; run++)
        {
          QdSweepResult *result = qd_sweep_run (job->sweep, job->document,
                                                &job->run_options, run);
          g_autoptr(GBytes) bytes = qd_sweep_result_serialize (result);
          gsize size = 0;
          const void *data = g_bytes_get_data (bytes, &size);

          qd_sweep_result_free (result);
          MPI_Send (data, (int) size, MPI_BYTE, 0, TAG_RESULT, MPI_COMM_WORLD);
        }
    }
}

/* What rank 0's thread and its main thread share. */
typedef struct
{
  QdCliSweepJob *job;
  GMutex         lock;
  guint64        next;     /* the first run nobody has */
  int            n_ranks;
  GAsyncQueue   *local;    /* QdSweepResult* from rank 0's thread */
} Dispatch;

/* The next batch for one of @n_workers; its count is 0 when all runs are
 * given out (or the sweep was interrupted). */
static void
take_batch (Dispatch *d,
            guint64   batch[2])
{
  guint64 left;

  g_mutex_lock (&d->lock);
  left = qd_cli_sweep_interrupt != 0 ? 0 : d->job->n_runs - d->next;
  batch[0] = d->next;
  batch[1] = MIN (MAX (left / (4 * (guint64) d->n_ranks), 1), MAX_BATCH);
  batch[1] = MIN (batch[1], left);
  d->next += batch[1];
  g_mutex_unlock (&d->lock);
}

static gpointer
local_thread (gpointer data)
{
  Dispatch *d = data;

  for (;;)
    {
      guint64 batch[2];

      /* One at a time: rank 0 is the one rank that never waits for a
       * message, so it takes the smallest bites. */
      g_mutex_lock (&d->lock);
      batch[0] = d->next;
      batch[1] = qd_cli_sweep_interrupt == 0 && d->next < d->job->n_runs ? 1 : 0;
      d->next += batch[1];
      g_mutex_unlock (&d->lock);
      if (batch[1] == 0)
        break;
      g_async_queue_push (d->local, qd_sweep_run (d->job->sweep, d->job->document,
                                                  &d->job->run_options, batch[0]));
    }
  return NULL;
}

static void
drain_local (Dispatch *d)
{
  QdSweepResult *result;

  while ((result = g_async_queue_try_pop (d->local)) != NULL)
    qd_cli_sweep_job_take (d->job, result);
}

/* Sends @rank its next batch; returns how many runs it now owes. */
static guint64
send_batch (Dispatch *d,
            int       rank)
{
  guint64 batch[2];

  take_batch (d, batch);
  MPI_Send (batch, 2, MPI_UINT64_T, rank, TAG_WORK, MPI_COMM_WORLD);
  return batch[1];
}

static void
receive_result (Dispatch   *d,
                MPI_Status *status)
{
  g_autoptr(GError) error = NULL;
  g_autofree guint8 *data = NULL;
  QdSweepResult *result;
  int size = 0;

  MPI_Get_count (status, MPI_BYTE, &size);
  data = g_malloc (MAX (size, 1));
  MPI_Recv (data, size, MPI_BYTE, status->MPI_SOURCE, TAG_RESULT, MPI_COMM_WORLD,
            MPI_STATUS_IGNORE);
  result = qd_sweep_result_deserialize (data, (gsize) size, &error);
  if (result == NULL)
    g_printerr ("%s: %s\n", d->job->file, error->message);
  else
    qd_cli_sweep_job_take (d->job, result);
}

static void
root_loop (Dispatch *d)
{
  g_autofree guint64 *owed = g_new0 (guint64, d->n_ranks);
  GThread *thread;
  int busy = 0;

  for (int r = 1; r < d->n_ranks; r++)
    if ((owed[r] = send_batch (d, r)) > 0)
      busy++;
  thread = g_thread_new ("sweep-rank0", local_thread, d);
  while (busy > 0)
    {
      /* Interrupted: mpirun ends the ranks soon after it forwards the
       * signal, so the runs done are written now, without waiting for
       * the batches in progress (qd_cli_sweep_mpi_finalize() then ends
       * the job). */
      if (qd_cli_sweep_interrupt != 0)
        {
          drain_local (d);
          return;
        }
      MPI_Status status;
      int flag = 0;

      MPI_Iprobe (MPI_ANY_SOURCE, TAG_RESULT, MPI_COMM_WORLD, &flag, &status);
      if (!flag)
        {
          drain_local (d);
          /* Polling, not a blocking receive: Open MPI spins in one, and
           * on a small machine that core is rank 0's runs'. */
          g_usleep (200);
          continue;
        }
      receive_result (d, &status);
      if (--owed[status.MPI_SOURCE] == 0
          && (owed[status.MPI_SOURCE] = send_batch (d, status.MPI_SOURCE)) == 0)
        busy--;
    }
  g_thread_join (thread);
  drain_local (d);
}

gboolean
qd_cli_sweep_mpi_run (QdCliSweepJob *job)
{
  Dispatch d = { .job = job };
  int rank = 0;

  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &d.n_ranks);
  if (rank != 0)
    {
      worker_loop (job);
      return FALSE;
    }
  g_mutex_init (&d.lock);
  d.local = g_async_queue_new ();
  root_loop (&d);
  g_async_queue_unref (d.local);
  g_mutex_clear (&d.lock);
  return TRUE;
}

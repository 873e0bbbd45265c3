/* qd-event-log-csv.c: a run's event log as a CSV file
 *
 * One row per entry of the simulation's event log (qd-event-log.h), as it
 * comes: the file grows with the run rather than being kept in memory,
 * since a log of millions of transitions is an ordinary request. */
#include "qd-event-log-csv.h"

#include <math.h>

#include "qd-csv-private.h"

struct _QdEventLogCsv
{
  QdSimulation *sim;
  QdCsvFile     file;
  guint64       limit;
  guint64       written;
  gboolean      truncated;
};

static const char *const kind_names[] = {
  [QD_LOG_OUTPUT] = "output",
  [QD_LOG_INTERNAL] = "internal",
  [QD_LOG_EXTERNAL] = "external",
};

void
qd_event_log_csv_append (QdEventLogCsv    *self,
                         const QdLogEntry *entry,
                         const char       *block_path)
{
  FILE *fp;
  const QdSignal *seg;

  g_return_if_fail (self != NULL);
  g_return_if_fail (entry != NULL && block_path != NULL);

  fp = self->file.fp;
  seg = entry->segment;
  self->written++;
  fprintf (fp, "%" G_GUINT64_FORMAT ",", entry->event);
  qd_csv_number (fp, entry->t);
  fputc (',', fp);
  qd_csv_field (fp, block_path);
  fprintf (fp, ",%s,", kind_names[entry->kind]);
  /* Ports numbered from 1, as every message and the editor number them
   * (the entry's port is the engine's index, from 0). */
  if (entry->kind != QD_LOG_INTERNAL)
    fprintf (fp, "%u", entry->port + 1);
  fputc (',', fp);
  qd_csv_number (fp, entry->elapsed);
  fputc (',', fp);
  qd_csv_number (fp, entry->ta);
  fputc (',', fp);
  if (seg != NULL)
    fprintf (fp, "%d", (int) seg->order);
  for (int k = 0; k <= QD_MAX_ORDER; k++)
    {
      fputc (',', fp);
      if (seg != NULL && k <= seg->order)
        qd_csv_number (fp, seg->c[k]);
    }
  fputc (',', fp);
  if (seg != NULL)
    fprintf (fp, "%" G_GUINT32_FORMAT, seg->tag);
  fputc ('\n', fp);
}

/* The simulation's event log. */
static void
write_entry (const QdLogEntry *entry,
             gpointer          user_data)
{
  QdEventLogCsv *self = user_data;

  if (self->limit > 0 && self->written >= self->limit)
    {
      /* Full: the rest of the run goes on without a log, at full speed. */
      self->truncated = TRUE;
      qd_simulation_set_event_log (self->sim, NULL, NULL);
      return;
    }
  qd_event_log_csv_append (self, entry,
                           qd_simulation_get_atomic (self->sim, entry->block)->path);
}

QdEventLogCsv *
qd_event_log_csv_open (const char  *path,
                       GError     **error)
{
  QdEventLogCsv *self;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self = g_new0 (QdEventLogCsv, 1);
  if (!qd_csv_open (&self->file, path, error))
    {
      g_free (self);
      return NULL;
    }
  fputs ("event,time,block,transition,port,elapsed,ta,order,c0,c1,c2,c3,tag\n",
         self->file.fp);
  return self;
}

QdEventLogCsv *
qd_event_log_csv_new (QdSimulation  *sim,
                      const char    *path,
                      guint64        limit,
                      GError       **error)
{
  QdEventLogCsv *self;

  g_return_val_if_fail (sim != NULL, NULL);
  g_return_val_if_fail (qd_simulation_get_events (sim) == 0, NULL);

  self = qd_event_log_csv_open (path, error);
  if (self == NULL)
    return NULL;
  self->sim = sim;
  self->limit = limit;
  qd_simulation_set_event_log (sim, write_entry, self);
  return self;
}

gboolean
qd_event_log_csv_close (QdEventLogCsv  *self,
                        GError        **error)
{
  gboolean ok;

  g_return_val_if_fail (self != NULL, FALSE);

  if (self->sim != NULL)
    qd_simulation_set_event_log (self->sim, NULL, NULL);
  ok = qd_csv_commit (&self->file, error);
  g_free (self);
  return ok;
}

void
qd_event_log_csv_discard (QdEventLogCsv *self)
{
  if (self == NULL)
    return;
  if (self->sim != NULL)
    qd_simulation_set_event_log (self->sim, NULL, NULL);
  qd_csv_abort (&self->file);
  g_free (self);
}

guint64
qd_event_log_csv_get_written (QdEventLogCsv *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->written;
}

gboolean
qd_event_log_csv_get_truncated (QdEventLogCsv *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->truncated;
}

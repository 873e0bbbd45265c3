/* qd-autosave.c: keeping a copy of unsaved changes for after a crash
 *
 * The document is read only on the main thread: the timer takes its text
 * there (a copy, as Save writes it) and hands it to a worker, which does
 * the slow part, the atomic replace with its fsync. One write at a time
 * runs; a change meanwhile is written once it is done.
 *
 * Writes and the removal of the copy are ordered by a mutex and by job
 * numbers: a write only lands when its job is newer than the last one
 * written and than the last removal, so a slow worker never puts back a
 * copy that a save or a close just removed, nor an older text over a
 * newer one (a flush on the main thread may overtake the worker).
 */
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <sys/file.h>
#include <unistd.h>

#include "qd-autosave.h"

struct _QdAutosave
{
  GObject     parent_instance;

  char       *dir;
  char       *data_path;     /* DIR/ID.qdevs */
  char       *info_path;     /* DIR/ID.json */
  char       *lock_path;     /* DIR/ID.lock */

  QdDocument *document;
  gulong      changed_id;
  gulong      modified_id;
  GFile      *file;
  guint       delay_ms;
  guint       timeout_id;
  gboolean    due;           /* a change not yet handed to a write */
  gboolean    in_flight;     /* a worker is writing */
  guint64     n_jobs;        /* main thread: jobs numbered so far */

  /* The files and what follows are guarded by lock. */
  GMutex      lock;
  guint64     written;       /* the newest job written */
  guint64     discarded;     /* jobs up to this one are void */
  int         lock_fd;       /* holds the flock while a copy exists */
  guint       n_writes;
  gboolean    warned;        /* a failure was reported once */
};

G_DEFINE_FINAL_TYPE (QdAutosave, qd_autosave, G_TYPE_OBJECT)

typedef struct
{
  guint64  number;
  char    *text;
  gsize    length;
  char    *info;
} Job;

static void
job_free (gpointer data)
{
  Job *job = data;

  g_free (job->text);
  g_free (job->info);
  g_free (job);
}

char *
qd_autosave_dup_default_dir (void)
{
  return g_build_filename (g_get_user_cache_dir (), "qdevs", "recovery", NULL);
}

/* The sidecar: what the recovery offer shows and where the diagram goes
 * back to. */
static char *
dup_info (QdAutosave *self)
{
  json_object *root = json_object_new_object ();
  g_autofree char *path = self->file != NULL ? g_file_get_path (self->file) : NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *time = g_date_time_format_iso8601 (now);
  const char *title = qd_document_get_title (self->document);
  char *text;

  json_object_object_add (root, "format", json_object_new_string ("qdevs-recovery"));
  json_object_object_add (root, "version", json_object_new_int (1));
  json_object_object_add (root, "file", path != NULL ? json_object_new_string (path) : NULL);
  json_object_object_add (root, "title", json_object_new_string (title != NULL ? title : ""));
  json_object_object_add (root, "time", json_object_new_string (time));
  text = g_strdup (json_object_to_json_string_ext (root, JSON_C_TO_STRING_PRETTY
                                                   | JSON_C_TO_STRING_NOSLASHESCAPE));
  json_object_put (root);
  return text;
}

static Job *
take_job (QdAutosave *self)
{
  Job *job = g_new0 (Job, 1);

  job->number = ++self->n_jobs;
  job->text = qd_document_to_data (self->document, &job->length);
  job->info = dup_info (self);
  self->due = FALSE;
  return job;
}

static void
report_failure (QdAutosave   *self,
                const GError *error)
{
  /* Once: a cache folder that cannot be written stays so. */
  if (!self->warned)
    g_warning (_("Cannot keep a recovery copy of the diagram: %s"), error->message);
  self->warned = TRUE;
}

/* Takes the lock file, so that no other editor offers this copy while we
 * run. Called with the mutex held. */
static void
hold_lock (QdAutosave *self)
{
  if (self->lock_fd >= 0)
    return;
  self->lock_fd = g_open (self->lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (self->lock_fd >= 0 && flock (self->lock_fd, LOCK_EX | LOCK_NB) != 0)
    {
      close (self->lock_fd);
      self->lock_fd = -1;
    }
}

/* Any thread. */
static void
write_job (QdAutosave *self,
           Job        *job)
{
  g_autoptr(GError) error = NULL;

  g_mutex_lock (&self->lock);
  if (job->number <= self->written || job->number <= self->discarded)
    {
      g_mutex_unlock (&self->lock);
      return;
    }
  if (g_mkdir_with_parents (self->dir, 0700) != 0)
    g_set_error (&error, G_FILE_ERROR, g_file_error_from_errno (errno),
                 "%s: %s", self->dir, g_strerror (errno));
  else
    {
      hold_lock (self);
      /* The diagram first: a sidecar always names a complete copy. */
      if (g_file_set_contents_full (self->data_path, job->text, (gssize) job->length,
                                    G_FILE_SET_CONTENTS_CONSISTENT, 0600, &error)
          && g_file_set_contents_full (self->info_path, job->info, -1,
                                       G_FILE_SET_CONTENTS_CONSISTENT, 0600, &error))
        {
          self->written = job->number;
          self->n_writes++;
        }
    }
  if (error != NULL)
    report_failure (self, error);
  g_mutex_unlock (&self->lock);
}

static void
write_in_thread (GTask        *task,
                 gpointer      source,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  write_job (source, task_data);
  g_task_return_boolean (task, TRUE);
}

static void start_write (QdAutosave *self);

static void
on_write_done (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  QdAutosave *self = QD_AUTOSAVE (source);

  self->in_flight = FALSE;
  /* Changes while it wrote whose timer already fired. */
  if (self->due && self->timeout_id == 0 && self->document != NULL)
    start_write (self);
}

static void
start_write (QdAutosave *self)
{
  g_autoptr(GTask) task = NULL;

  if (self->in_flight)
    return;
  self->in_flight = TRUE;
  task = g_task_new (self, NULL, on_write_done, NULL);
  g_task_set_source_tag (task, start_write);
  g_task_set_task_data (task, take_job (self), job_free);
  g_task_run_in_thread (task, write_in_thread);
}

static gboolean
on_timeout (gpointer user_data)
{
  QdAutosave *self = user_data;

  self->timeout_id = 0;
  if (self->due && self->document != NULL)
    start_write (self);
  return G_SOURCE_REMOVE;
}

static void
schedule (QdAutosave *self)
{
  self->due = TRUE;
  /* Restarted at every change: an edit in progress (a drag, typing)
   * is written once it pauses. */
  g_clear_handle_id (&self->timeout_id, g_source_remove);
  self->timeout_id = g_timeout_add (self->delay_ms, on_timeout, self);
}

static void
on_document_changed (QdDocument *document,
                     QdAutosave *self)
{
  if (qd_document_get_modified (document))
    schedule (self);
  else
    qd_autosave_discard (self);
}

static void
on_modified_changed (QdDocument *document,
                     GParamSpec *pspec,
                     QdAutosave *self)
{
  /* Saved: the file holds what the copy did. */
  if (!qd_document_get_modified (document))
    qd_autosave_discard (self);
}

static void
qd_autosave_dispose (GObject *object)
{
  QdAutosave *self = QD_AUTOSAVE (object);

  qd_autosave_set_document (self, NULL, NULL);
  G_OBJECT_CLASS (qd_autosave_parent_class)->dispose (object);
}

static void
qd_autosave_finalize (GObject *object)
{
  QdAutosave *self = QD_AUTOSAVE (object);

  g_free (self->dir);
  g_free (self->data_path);
  g_free (self->info_path);
  g_free (self->lock_path);
  g_mutex_clear (&self->lock);
  G_OBJECT_CLASS (qd_autosave_parent_class)->finalize (object);
}

static void
qd_autosave_class_init (QdAutosaveClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = qd_autosave_dispose;
  object_class->finalize = qd_autosave_finalize;
}

static void
qd_autosave_init (QdAutosave *self)
{
  g_mutex_init (&self->lock);
  self->lock_fd = -1;
  self->delay_ms = QD_AUTOSAVE_DELAY_MS;
}

QdAutosave *
qd_autosave_new (const char *dir)
{
  QdAutosave *self = g_object_new (QD_TYPE_AUTOSAVE, NULL);
  g_autofree char *id = g_uuid_string_random ();
  g_autofree char *data = g_strconcat (id, QD_FILE_EXTENSION, NULL);
  g_autofree char *info = g_strconcat (id, ".json", NULL);
  g_autofree char *lock = g_strconcat (id, ".lock", NULL);

  self->dir = dir != NULL ? g_strdup (dir) : qd_autosave_dup_default_dir ();
  self->data_path = g_build_filename (self->dir, data, NULL);
  self->info_path = g_build_filename (self->dir, info, NULL);
  self->lock_path = g_build_filename (self->dir, lock, NULL);
  return self;
}

void
qd_autosave_set_document (QdAutosave *self,
                          QdDocument *document,
                          GFile      *file)
{
  g_return_if_fail (QD_IS_AUTOSAVE (self));
  g_return_if_fail (document == NULL || QD_IS_DOCUMENT (document));

  qd_autosave_discard (self);
  if (self->document != NULL)
    {
      g_clear_signal_handler (&self->changed_id, self->document);
      g_clear_signal_handler (&self->modified_id, self->document);
      g_clear_object (&self->document);
    }
  g_set_object (&self->file, file);
  if (document == NULL)
    return;
  self->document = g_object_ref (document);
  self->changed_id = g_signal_connect (document, "changed",
                                       G_CALLBACK (on_document_changed), self);
  self->modified_id = g_signal_connect (document, "notify::modified",
                                        G_CALLBACK (on_modified_changed), self);
  if (qd_document_get_modified (document))
    schedule (self);
}

void
qd_autosave_set_file (QdAutosave *self,
                      GFile      *file)
{
  g_return_if_fail (QD_IS_AUTOSAVE (self));

  g_set_object (&self->file, file);
}

void
qd_autosave_set_delay (QdAutosave *self,
                       guint       delay_ms)
{
  g_return_if_fail (QD_IS_AUTOSAVE (self));

  self->delay_ms = delay_ms;
}

void
qd_autosave_flush (QdAutosave *self)
{
  Job *job;

  g_return_if_fail (QD_IS_AUTOSAVE (self));

  if (!self->due || self->document == NULL)
    return;
  g_clear_handle_id (&self->timeout_id, g_source_remove);
  job = take_job (self);
  write_job (self, job);
  job_free (job);
}

void
qd_autosave_discard (QdAutosave *self)
{
  g_return_if_fail (QD_IS_AUTOSAVE (self));

  g_clear_handle_id (&self->timeout_id, g_source_remove);
  self->due = FALSE;
  g_mutex_lock (&self->lock);
  self->discarded = self->n_jobs;
  /* The sidecar first: a copy without one is never offered. The lock
   * goes last, once nothing is left to offer. */
  g_unlink (self->info_path);
  g_unlink (self->data_path);
  if (self->lock_fd >= 0)
    {
      g_unlink (self->lock_path);
      close (self->lock_fd);
      self->lock_fd = -1;
    }
  g_mutex_unlock (&self->lock);
}

const char *
qd_autosave_get_path (QdAutosave *self)
{
  g_return_val_if_fail (QD_IS_AUTOSAVE (self), NULL);

  return self->data_path;
}

guint
qd_autosave_get_n_writes (QdAutosave *self)
{
  guint n;

  g_return_val_if_fail (QD_IS_AUTOSAVE (self), 0);

  g_mutex_lock (&self->lock);
  n = self->n_writes;
  g_mutex_unlock (&self->lock);
  return n;
}

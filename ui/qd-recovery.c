/* qd-recovery.c: finding the copies a crashed editor left behind */
#include <glib/gstdio.h>

#include <fcntl.h>
#include <json-c/json.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "qd-autosave.h"
#include "qd-recovery.h"

void
qd_recovery_file_free (QdRecoveryFile *file)
{
  if (file == NULL)
    return;
  if (file->lock_fd >= 0)
    close (file->lock_fd);
  g_free (file->data_path);
  g_free (file->info_path);
  g_free (file->lock_path);
  g_free (file->file);
  g_free (file->title);
  g_clear_pointer (&file->time, g_date_time_unref);
  g_free (file);
}

/* Removes @path if it is still the file @fd has open: an editor that
 * removed its copy may have made a new lock file there since. */
static void
unlink_lock (const char *path,
             int         fd)
{
  struct stat a, b;

  if (fstat (fd, &a) == 0 && g_stat (path, &b) == 0
      && a.st_dev == b.st_dev && a.st_ino == b.st_ino)
    g_unlink (path);
}

static const char *
get_string (json_object *root,
            const char  *key)
{
  json_object *value;

  if (!json_object_object_get_ex (root, key, &value)
      || !json_object_is_type (value, json_type_string))
    return NULL;
  return json_object_get_string (value);
}

/* Reads the sidecar into @file; FALSE when it is not one of ours. */
static gboolean
read_info (QdRecoveryFile *file)
{
  g_autofree char *text = NULL;
  json_object *root;
  const char *format, *time;
  gboolean ok = FALSE;

  if (!g_file_get_contents (file->info_path, &text, NULL, NULL))
    return FALSE;
  root = json_tokener_parse (text);
  format = root != NULL ? get_string (root, "format") : NULL;
  if (g_strcmp0 (format, "qdevs-recovery") == 0)
    {
      time = get_string (root, "time");
      file->file = g_strdup (get_string (root, "file"));
      file->title = g_strdup (get_string (root, "title"));
      if (file->title == NULL)
        file->title = g_strdup ("");
      file->time = time != NULL ? g_date_time_new_from_iso8601 (time, NULL) : NULL;
      ok = file->time != NULL;
    }
  json_object_put (root);
  return ok;
}

/* The copy whose sidecar is @name in @dir, locked, or NULL when another
 * editor holds it or it is not complete. */
static QdRecoveryFile *
claim (const char *dir,
       const char *name)
{
  g_autoptr(QdRecoveryFile) file = g_new0 (QdRecoveryFile, 1);
  g_autofree char *id = g_strndup (name, strlen (name) - strlen (".json"));
  g_autofree char *data = g_strconcat (id, QD_FILE_EXTENSION, NULL);
  g_autofree char *lock = g_strconcat (id, ".lock", NULL);

  file->lock_fd = -1;
  file->info_path = g_build_filename (dir, name, NULL);
  file->data_path = g_build_filename (dir, data, NULL);
  file->lock_path = g_build_filename (dir, lock, NULL);
  file->lock_fd = g_open (file->lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (file->lock_fd < 0 || flock (file->lock_fd, LOCK_EX | LOCK_NB) != 0)
    return NULL;
  /* Checked once locked: the editor that wrote it may have removed it
   * (a clean close) between the listing and the lock. */
  if (!g_file_test (file->data_path, G_FILE_TEST_IS_REGULAR) || !read_info (file))
    {
      /* Not a copy (any more): the lock file is only ours to remove. */
      if (!g_file_test (file->info_path, G_FILE_TEST_EXISTS))
        unlink_lock (file->lock_path, file->lock_fd);
      return NULL;
    }
  return g_steal_pointer (&file);
}

static int
compare_time (gconstpointer a,
              gconstpointer b)
{
  const QdRecoveryFile *fa = *(QdRecoveryFile *const *) a;
  const QdRecoveryFile *fb = *(QdRecoveryFile *const *) b;

  return g_date_time_compare (fa->time, fb->time);
}

GPtrArray *
qd_recovery_find (const char *dir)
{
  GPtrArray *files = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_recovery_file_free);
  g_autofree char *default_dir = dir == NULL ? qd_autosave_dup_default_dir () : NULL;
  g_autoptr(GDir) listing = NULL;
  const char *name;

  if (dir == NULL)
    dir = default_dir;
  listing = g_dir_open (dir, 0, NULL);
  if (listing == NULL)
    return files;
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      QdRecoveryFile *file;

      if (!g_str_has_suffix (name, ".json") || strlen (name) == strlen (".json"))
        continue;
      file = claim (dir, name);
      if (file != NULL)
        g_ptr_array_add (files, file);
    }
  g_ptr_array_sort (files, compare_time);
  return files;
}

QdDocument *
qd_recovery_file_load (QdRecoveryFile  *file,
                       GError         **error)
{
  g_autoptr(GPtrArray) problems =
    g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  QdDocument *document;

  g_return_val_if_fail (file != NULL, NULL);

  /* As Open does: a parameter whose value is not valid (text an importer
   * could not translate) does not keep the diagram shut; it takes its
   * default, and Check lists what is left to fix. */
  document = qd_document_load_full (file->data_path, problems, error);
  if (document != NULL)
    qd_document_set_unsaved (document);
  return document;
}

void
qd_recovery_file_discard (QdRecoveryFile *file)
{
  g_return_if_fail (file != NULL);

  g_unlink (file->info_path);
  g_unlink (file->data_path);
  if (file->lock_fd >= 0)
    {
      unlink_lock (file->lock_path, file->lock_fd);
      close (file->lock_fd);
      file->lock_fd = -1;
    }
}

/* test-autosave.c: the recovery copy of unsaved changes, without a display
 *
 * QdAutosave writes the copy, qd_recovery_find() finds the copies no
 * running editor holds. The timer is replaced by qd_autosave_flush(),
 * except in the one case that checks the worker thread, which waits for
 * the write to happen rather than for a time. A crash is a subprocess
 * that kills itself with SIGKILL after its copy is written: nothing of
 * its own runs after that, as with a real kill -9.
 */
#include <glib/gstdio.h>
#include <json-c/json.h>
#include <signal.h>
#include <string.h>
#include <unistd.h>

#include "qd-autosave.h"
#include "qd-recovery.h"
#include "qd-test-util.h"

static char *
make_dir (void)
{
  g_autoptr(GError) error = NULL;
  char *dir = g_dir_make_tmp ("qd-autosave-XXXXXX", &error);

  g_assert_no_error (error);
  return dir;
}

/* How many files of @dir end in @suffix. */
static guint
count_files (const char *dir,
             const char *suffix)
{
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n = 0;

  while (listing != NULL && (name = g_dir_read_name (listing)) != NULL)
    if (g_str_has_suffix (name, suffix))
      n++;
  return n;
}

static char *
read_file (const char *path)
{
  char *text = NULL;

  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  return text;
}

/* A change is written by a flush, not before; the copy is the document's
 * own text, and the sidecar names the file; a flush without a change
 * since writes nothing. */
static void
test_write (void)
{
  g_autofree char *dir = make_dir ();
  g_autoptr(QdDocument) doc = qd_document_new ();
  g_autoptr(QdAutosave) autosave = qd_autosave_new (dir);
  g_autoptr(GFile) file = g_file_new_for_path ("/home/someone/model.qdevs");
  g_autofree char *expected = NULL;
  g_autofree char *copy = NULL;
  g_autofree char *info_path = NULL;
  g_autofree char *info = NULL;
  json_object *root, *value;

  qd_autosave_set_document (autosave, doc, file);
  qd_autosave_flush (autosave);
  g_assert_cmpuint (qd_autosave_get_n_writes (autosave), ==, 0);
  g_assert_false (g_file_test (qd_autosave_get_path (autosave), G_FILE_TEST_EXISTS));

  qd_document_set_title (doc, "Tank");
  qd_test_add_block (doc, "integrator", "Level");
  g_assert_false (g_file_test (qd_autosave_get_path (autosave), G_FILE_TEST_EXISTS));
  qd_autosave_flush (autosave);
  g_assert_cmpuint (qd_autosave_get_n_writes (autosave), ==, 1);
  expected = qd_document_to_data (doc, NULL);
  copy = read_file (qd_autosave_get_path (autosave));
  g_assert_cmpstr (copy, ==, expected);

  info_path = g_strdup (qd_autosave_get_path (autosave));
  strcpy (info_path + strlen (info_path) - strlen (QD_FILE_EXTENSION), ".json");
  info = read_file (info_path);
  root = json_tokener_parse (info);
  g_assert_nonnull (root);
  g_assert_true (json_object_object_get_ex (root, "file", &value));
  g_assert_cmpstr (json_object_get_string (value), ==, "/home/someone/model.qdevs");
  g_assert_true (json_object_object_get_ex (root, "title", &value));
  g_assert_cmpstr (json_object_get_string (value), ==, "Tank");
  json_object_put (root);

  qd_autosave_flush (autosave);
  g_assert_cmpuint (qd_autosave_get_n_writes (autosave), ==, 1);

  /* The next change replaces the copy. */
  qd_test_add_block (doc, "gain", "K");
  qd_autosave_flush (autosave);
  g_assert_cmpuint (qd_autosave_get_n_writes (autosave), ==, 2);
  g_free (copy);
  g_free (expected);
  copy = read_file (qd_autosave_get_path (autosave));
  expected = qd_document_to_data (doc, NULL);
  g_assert_cmpstr (copy, ==, expected);
  g_assert_cmpuint (count_files (dir, QD_FILE_EXTENSION), ==, 1);

  g_clear_object (&autosave);
  qd_test_remove_tree (dir);
}

/* Saving, undoing back to the saved state, another document and the
 * end of the object each remove the copy. */
static void
test_removed (void)
{
  g_autofree char *dir = make_dir ();
  g_autofree char *saved = g_build_filename (dir, "saved.qdevs", NULL);
  g_autoptr(QdDocument) doc = qd_document_new ();
  g_autoptr(QdDocument) other = qd_document_new ();
  g_autoptr(GError) error = NULL;
  QdAutosave *autosave = qd_autosave_new (dir);
  const char *path = qd_autosave_get_path (autosave);

  qd_autosave_set_document (autosave, doc, NULL);
  qd_test_add_block (doc, "integrator", "A");
  qd_autosave_flush (autosave);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_true (qd_document_save (doc, saved, &error));
  g_assert_no_error (error);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (count_files (dir, ".json"), ==, 0);
  g_assert_cmpuint (count_files (dir, ".lock"), ==, 0);

  qd_test_add_block (doc, "gain", "B");
  qd_autosave_flush (autosave);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
  g_assert_true (qd_document_undo (doc));
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
  /* Nothing is due any more: a flush writes nothing back. */
  qd_autosave_flush (autosave);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  qd_test_add_block (doc, "gain", "C");
  qd_autosave_flush (autosave);
  qd_autosave_set_document (autosave, other, NULL);
  g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));

  qd_test_add_block (other, "gain", "D");
  qd_autosave_flush (autosave);
  g_assert_true (g_file_test (path, G_FILE_TEST_EXISTS));
  g_object_unref (autosave);
  g_assert_cmpuint (count_files (dir, QD_FILE_EXTENSION), ==, 1);   /* saved.qdevs */
  g_assert_cmpuint (count_files (dir, ".json"), ==, 0);
  qd_test_remove_tree (dir);
}

/* The timer writes on the worker thread once the changes pause. */
static void
test_timer (void)
{
  g_autofree char *dir = make_dir ();
  g_autoptr(QdDocument) doc = qd_document_new ();
  g_autoptr(QdAutosave) autosave = qd_autosave_new (dir);
  g_autofree char *copy = NULL;
  g_autofree char *expected = NULL;

  qd_autosave_set_delay (autosave, 10);
  qd_autosave_set_document (autosave, doc, NULL);
  qd_test_add_block (doc, "integrator", "A");
  qd_test_add_block (doc, "gain", "B");
  while (qd_autosave_get_n_writes (autosave) == 0)
    g_main_context_iteration (NULL, TRUE);
  /* The write's completion, then nothing more is due. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_assert_cmpuint (qd_autosave_get_n_writes (autosave), ==, 1);
  copy = read_file (qd_autosave_get_path (autosave));
  expected = qd_document_to_data (doc, NULL);
  g_assert_cmpstr (copy, ==, expected);

  g_clear_object (&autosave);
  qd_test_remove_tree (dir);
}

/* The child of test_crash: keeps a copy, then dies as under kill -9. */
static void
crash_child (void)
{
  QdDocument *doc;
  QdAutosave *autosave;
  g_autoptr(GFile) file = g_file_new_for_path ("/data/plant.qdevs");
  QdBlock *gain;

  /* Only as test_crash's subprocess: it ends the process. */
  if (!g_test_subprocess ())
    return;
  doc = qd_document_new ();
  autosave = qd_autosave_new (g_getenv ("QD_TEST_AUTOSAVE_DIR"));
  qd_autosave_set_document (autosave, doc, file);
  qd_document_set_title (doc, "Plant");
  gain = qd_test_add_block (doc, "gain", "K");
  qd_test_set_param (doc, gain, "k", "-3");
  qd_autosave_flush (autosave);
  kill (getpid (), SIGKILL);
}

/* A copy is offered only once its editor is gone, and only to one
 * finder at a time; it loads as the edited diagram, modified, and is
 * gone once discarded. */
static void
test_crash (void)
{
  g_autofree char *dir = make_dir ();
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GPtrArray) again = NULL;
  g_autoptr(QdAutosave) alive = qd_autosave_new (dir);
  g_autoptr(QdDocument) doc = qd_document_new ();
  g_autoptr(QdDocument) recovered = NULL;
  g_autoptr(QdDocument) expected = qd_document_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dump = NULL;
  g_autofree char *expected_dump = NULL;
  QdRecoveryFile *file;
  QdBlock *gain;

  /* An editor still running: its copy is not offered. */
  qd_autosave_set_document (alive, doc, NULL);
  qd_test_add_block (doc, "integrator", "Mine");
  qd_autosave_flush (alive);
  found = qd_recovery_find (dir);
  g_assert_cmpuint (found->len, ==, 0);
  g_clear_pointer (&found, g_ptr_array_unref);

  g_setenv ("QD_TEST_AUTOSAVE_DIR", dir, TRUE);
  g_test_trap_subprocess ("/autosave/crash/subprocess", 0, G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();

  found = qd_recovery_find (dir);
  g_assert_cmpuint (found->len, ==, 1);
  file = g_ptr_array_index (found, 0);
  g_assert_cmpstr (file->file, ==, "/data/plant.qdevs");
  g_assert_cmpstr (file->title, ==, "Plant");
  /* Held by this finder: a second one does not offer it too. */
  again = qd_recovery_find (dir);
  g_assert_cmpuint (again->len, ==, 0);

  recovered = qd_recovery_file_load (file, &error);
  g_assert_no_error (error);
  g_assert_true (qd_document_get_modified (recovered));
  qd_document_set_title (expected, "Plant");
  gain = qd_test_add_block (expected, "gain", "K");
  qd_test_set_param (expected, gain, "k", "-3");
  dump = qd_test_dump_document (recovered);
  expected_dump = qd_test_dump_document (expected);
  g_assert_cmpstr (dump, ==, expected_dump);

  qd_recovery_file_discard (file);
  g_clear_pointer (&found, g_ptr_array_unref);
  found = qd_recovery_find (dir);
  g_assert_cmpuint (found->len, ==, 0);
  /* Only the running editor's copy is left. */
  g_assert_cmpuint (count_files (dir, ".json"), ==, 1);

  g_clear_object (&alive);
  g_assert_cmpuint (count_files (dir, ".json"), ==, 0);
  qd_test_remove_tree (dir);
}

/* The child of test_crash_imported: keeps a copy of an imported PowerDEVS
 * model, whose untranslated Scilab text is not a valid expression, then
 * dies as under kill -9. */
static void
crash_imported_child (void)
{
  g_autofree char *path = NULL;
  QdDocument *doc;
  QdAutosave *autosave;

  if (!g_test_subprocess ())
    return;
  path = qd_test_source_path ("tests", "data", "pdm", "rl-circuit.pdm", NULL);
  doc = qd_import_pdm (path, NULL, NULL);
  g_assert_nonnull (doc);
  autosave = qd_autosave_new (g_getenv ("QD_TEST_AUTOSAVE_DIR"));
  qd_autosave_set_document (autosave, doc, NULL);
  qd_document_set_title (doc, "RL");
  qd_autosave_flush (autosave);
  kill (getpid (), SIGKILL);
}

/* A copy holding a parameter that is not valid still recovers: the
 * diagram opens, the bad value taking its default as when it is opened
 * from a file. */
static void
test_crash_imported (void)
{
  g_autofree char *dir = make_dir ();
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(QdDocument) recovered = NULL;
  g_autoptr(GError) error = NULL;

  g_setenv ("QD_TEST_AUTOSAVE_DIR", dir, TRUE);
  g_test_trap_subprocess ("/autosave/crash-imported/subprocess", 0,
                          G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_failed ();

  found = qd_recovery_find (dir);
  g_assert_cmpuint (found->len, ==, 1);
  recovered = qd_recovery_file_load (g_ptr_array_index (found, 0), &error);
  g_assert_no_error (error);
  g_assert_nonnull (recovered);
  g_assert_cmpstr (qd_document_get_title (recovered), ==, "RL");
  g_assert_nonnull (qd_document_find_block_by_path (recovered, "/Plant/Log"));
  g_assert_true (qd_document_get_modified (recovered));
  qd_recovery_file_discard (g_ptr_array_index (found, 0));
  qd_test_remove_tree (dir);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  g_test_add_func ("/autosave/write", test_write);
  g_test_add_func ("/autosave/removed", test_removed);
  g_test_add_func ("/autosave/timer", test_timer);
  g_test_add_func ("/autosave/crash", test_crash);
  g_test_add_func ("/autosave/crash/subprocess", crash_child);
  g_test_add_func ("/autosave/crash-imported", test_crash_imported);
  g_test_add_func ("/autosave/crash-imported/subprocess", crash_imported_child);
  return g_test_run ();
}

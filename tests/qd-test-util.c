/* qd-test-util.c: helpers shared by the tests */
#include "qd-test-util.h"

#include <glib/gstdio.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

char *
qd_test_source_path (const char *first,
                     ...)
{
  const char *root = g_getenv ("QD_SOURCE_DIR");
  GPtrArray *parts = g_ptr_array_new ();
  va_list args;
  char *path;

  g_ptr_array_add (parts, (gpointer) (root != NULL ? root : "."));
  va_start (args, first);
  for (const char *p = first; p != NULL; p = va_arg (args, const char *))
    g_ptr_array_add (parts, (gpointer) p);
  va_end (args);
  g_ptr_array_add (parts, NULL);
  path = g_build_filenamev ((char **) parts->pdata);
  g_ptr_array_unref (parts);

  return path;
}

char *
qd_test_file_format_example (void)
{
  g_autofree char *path = qd_test_source_path ("docs", "file-format.md", NULL);
  g_autofree char *page = NULL;
  g_autoptr(GError) error = NULL;
  const char *start, *end;

  g_file_get_contents (path, &page, NULL, &error);
  g_assert_no_error (error);
  start = strstr (page, "```json\n");
  g_assert_nonnull (start);
  start += strlen ("```json\n");
  end = strstr (start, "\n```");
  g_assert_nonnull (end);
  return g_strndup (start, (gsize) (end - start) + 1);
}

static void
dump_system (GString  *out,
             QdSystem *system,
             int       depth)
{
  for (guint i = 0; i < system->blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (system->blocks, i);

      g_string_append_printf (out, "%*sblock %s %s '%s' %g,%g %gx%g r%d%s",
                              depth * 2, "", block->id, block->type,
                              block->name, block->x, block->y, block->width,
                              block->height, block->rotation,
                              block->flip ? " flip" : "");
      for (guint j = 0; j < block->params->len; j++)
        {
          QdParam *param = &g_array_index (block->params, QdParam, j);

          g_string_append_printf (out, " %s=%s", param->name, param->value);
        }
      g_string_append_c (out, '\n');
      if (block->inner != NULL)
        dump_system (out, block->inner, depth + 1);
    }
  for (guint i = 0; i < system->links->len; i++)
    {
      QdLink *link = g_ptr_array_index (system->links, i);

      g_string_append_printf (out, "%*slink %s %s:%u ->", depth * 2, "",
                              link->id, link->src.block, link->src.port);
      for (guint j = 0; j < link->n_targets; j++)
        {
          QdLinkTarget *target = link->targets[j];

          g_string_append_printf (out, " %s:%u", target->dst.block,
                                  target->dst.port);
          for (guint k = 0; k < qd_link_target_n_points (target); k++)
            {
              QdPoint *point = &g_array_index (target->points, QdPoint, k);

              g_string_append_printf (out, "%s%g,%g", k == 0 ? "[" : " ",
                                      point->x, point->y);
            }
          if (qd_link_target_n_points (target) > 0)
            g_string_append_c (out, ']');
        }
      g_string_append_c (out, '\n');
    }
}

char *
qd_test_dump_document (QdDocument *document)
{
  const QdSettings *settings = qd_document_get_settings (document);
  GPtrArray *variables = qd_document_get_variables (document);
  GString *out = g_string_new (NULL);

  g_string_append_printf (out, "title '%s'\ndescription '%s'\n",
                          qd_document_get_title (document),
                          qd_document_get_description (document));
  g_string_append_printf (out, "settings %g %g %s %g %g %" G_GUINT64_FORMAT "\n",
                          settings->start_time, settings->final_time,
                          settings->method, settings->dqmin, settings->dqrel,
                          settings->illegitimacy_limit);
  for (guint i = 0; i < variables->len; i++)
    {
      QdVariable *variable = g_ptr_array_index (variables, i);

      g_string_append_printf (out, "var %s = %s\n", variable->name,
                              variable->value);
    }
  dump_system (out, qd_document_get_root (document), 0);

  return g_string_free (out, FALSE);
}

QdDocument *
qd_test_load_example (const char *name)
{
  g_autofree char *path = qd_test_source_path ("data", "examples", name, NULL);
  g_autoptr(GError) error = NULL;
  QdDocument *document = qd_document_load (path, &error);

  g_assert_no_error (error);
  g_assert_nonnull (document);
  return document;
}

QdBlock *
qd_test_add_block (QdDocument *doc,
                   const char *type,
                   const char *name)
{
  return qd_test_add_block_at (doc, type, name, 0, 0);
}

QdBlock *
qd_test_add_block_at (QdDocument *doc,
                      const char *type,
                      const char *name,
                      double      x,
                      double      y)
{
  GError *error = NULL;
  QdBlock *block = qd_document_add_block (doc, qd_document_get_root (doc),
                                          type, name, x, y, &error);

  g_assert_no_error (error);
  g_assert_nonnull (block);
  return block;
}

void
qd_test_set_param (QdDocument *doc,
                   QdBlock    *block,
                   const char *name,
                   const char *value)
{
  GError *error = NULL;

  g_assert_true (qd_document_set_param (doc, block, name, value, &error));
  g_assert_no_error (error);
}

void
qd_test_connect (QdDocument *doc,
                 QdBlock    *src,
                 guint       src_port,
                 QdBlock    *dst,
                 guint       dst_port)
{
  GError *error = NULL;
  QdLink *link = qd_document_connect (doc, qd_document_get_root (doc),
                                      src->id, src_port, dst->id, dst_port,
                                      &error);

  g_assert_no_error (error);
  g_assert_nonnull (link);
}

void
qd_test_set_final_time (QdDocument *doc,
                        double      final_time)
{
  QdSettings settings = *qd_document_get_settings (doc);
  GError *error = NULL;

  settings.final_time = final_time;
  g_assert_true (qd_document_set_settings (doc, &settings, &error));
  g_assert_no_error (error);
}

char *
qd_test_illegitimate_chain (void)
{
  GString *text = g_string_new (NULL);

  g_string_append (text,
    "{\"format\": \"qdevs\", \"version\": 1, \"title\": \"\", \"description\": \"\",\n"
    " \"simulation\": {\"start\": 0, \"final\": 1, \"method\": \"QSS1\", \"dqmin\": 1e-06, \"dqrel\": 0.001, \"illegitimacy_limit\": 10},\n"
    " \"variables\": {},\n"
    " \"blocks\": [\n"
    "  {\"id\": \"c\", \"type\": \"constant\", \"name\": \"Constant\", \"position\": [0, 0], \"size\": [60, 40]},\n");
  for (int i = 1; i <= 12; i++)
    g_string_append_printf (text, "  {\"id\": \"g%d\", \"type\": \"gain\", \"name\": \"Gain %d\", \"position\": [%d, 0], \"size\": [60, 40]},\n",
                            i, i, 100 * i);
  g_string_append (text,
    "  {\"id\": \"s\", \"type\": \"scope\", \"name\": \"Scope\", \"position\": [1400, 0], \"size\": [60, 40]}],\n"
    " \"links\": [\n");
  for (int i = 1; i <= 13; i++)
    {
      g_autofree char *src = i == 1 ? g_strdup ("c") : g_strdup_printf ("g%d", i - 1);
      g_autofree char *dst = i == 13 ? g_strdup ("s") : g_strdup_printf ("g%d", i);

      g_string_append_printf (text, "  {\"id\": \"l%d\", \"from\": {\"block\": \"%s\", \"port\": 0}, \"to\": [{\"block\": \"%s\", \"port\": 0}]}%s\n",
                              i, src, dst, i == 13 ? "]}" : ",");
    }
  return g_string_free (text, FALSE);
}

QdDocument *
qd_test_decay_document (double final_time)
{
  QdDocument *doc = qd_document_new ();
  QdBlock *integ = qd_test_add_block (doc, "integrator", "Integrator");
  QdBlock *gain = qd_test_add_block (doc, "gain", "Gain");
  QdBlock *scope = qd_test_add_block (doc, "scope", "Scope");

  qd_test_set_param (doc, integ, "x0", "1");
  qd_test_set_param (doc, gain, "k", "-1");
  qd_test_set_param (doc, scope, "names", "x");
  qd_test_connect (doc, integ, 0, gain, 0);
  qd_test_connect (doc, gain, 0, integ, 0);
  qd_test_connect (doc, integ, 0, scope, 0);
  qd_test_set_final_time (doc, final_time);
  return doc;
}

QdSimulation *
qd_test_compile (QdDocument *doc)
{
  GError *error = NULL;
  QdSimulation *sim = qd_simulation_new (doc, NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_nonnull (sim);
  return sim;
}

void
qd_test_run (QdSimulation *sim)
{
  GError *error = NULL;

  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
  g_assert_no_error (error);
}

QdTrace *
qd_test_find_trace (QdSimulation *sim,
                    const char   *name)
{
  GPtrArray *traces = qd_simulation_get_traces (sim);

  for (guint i = 0; i < traces->len; i++)
    if (g_str_equal (qd_trace_get_name (traces->pdata[i]), name))
      return traces->pdata[i];
  g_error ("no trace named %s", name);
  return NULL;
}

double
qd_test_max_error (QdTrace *trace,
                   double (*exact) (double),
                   double   until)
{
  gsize n = qd_trace_get_length (trace);
  double worst = 0.0;

  for (gsize i = 0; i < n; i++)
    {
      const QdSignal *seg = qd_trace_get (trace, i);
      double end = i + 1 < n ? qd_trace_get (trace, i + 1)->t : until;

      for (int k = 0; k <= 16; k++)
        {
          double t = seg->t + (end - seg->t) * k / 16.0;

          worst = fmax (worst, fabs (qd_signal_eval (seg, t) - exact (t)));
        }
    }
  return worst;
}

QdTrace *
qd_test_run_and_find (QdSimulation *sim,
                      const char   *name)
{
  qd_test_run (sim);
  return qd_test_find_trace (sim, name);
}

const char qd_test_model_division[] =
  "{\"format\": \"qdevs\", \"version\": 1, \"title\": \"\", \"description\": \"\",\n"
  " \"simulation\": {\"start\": 0, \"final\": 1, \"method\": \"QSS1\", \"dqmin\": 1e-06, \"dqrel\": 0.001, \"illegitimacy_limit\": 1000000},\n"
  " \"variables\": {},\n"
  " \"blocks\": [\n"
  "  {\"id\": \"b1\", \"type\": \"constant\", \"name\": \"One\", \"position\": [0, 0], \"size\": [60, 40]},\n"
  "  {\"id\": \"b2\", \"type\": \"constant\", \"name\": \"Zero\", \"position\": [0, 100], \"size\": [60, 40], \"params\": {\"value\": \"0\"}},\n"
  "  {\"id\": \"b3\", \"type\": \"division\", \"name\": \"Division\", \"position\": [100, 0], \"size\": [60, 40]},\n"
  "  {\"id\": \"b4\", \"type\": \"scope\", \"name\": \"Scope\", \"position\": [200, 0], \"size\": [60, 40]}],\n"
  " \"links\": [\n"
  "  {\"id\": \"l1\", \"from\": {\"block\": \"b1\", \"port\": 0}, \"to\": [{\"block\": \"b3\", \"port\": 0}]},\n"
  "  {\"id\": \"l2\", \"from\": {\"block\": \"b2\", \"port\": 0}, \"to\": [{\"block\": \"b3\", \"port\": 1}]},\n"
  "  {\"id\": \"l3\", \"from\": {\"block\": \"b3\", \"port\": 0}, \"to\": [{\"block\": \"b4\", \"port\": 0}]}]}\n";

void
qd_cli_result_clear (QdCliResult *r)
{
  g_clear_pointer (&r->out, g_free);
  g_clear_pointer (&r->err, g_free);
}

char *
qd_test_read_fd (int fd)
{
  GString *text = g_string_new (NULL);
  char buf[4096];
  gssize n;

  while ((n = read (fd, buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0)
      g_string_append_len (text, buf, n);
  close (fd);
  return g_string_free (text, FALSE);
}

void
qd_test_limit_file_size (gpointer user_data)
{
  struct rlimit limit = { 128 << 20, 128 << 20 };

  setrlimit (RLIMIT_FSIZE, &limit);
}

void
qd_test_spawn (QdCliResult  *r,
               const char   *input,
               char        **envp,
               char        **argv)
{
  g_autoptr(GError) error = NULL;
  int in_fd = open (input != NULL ? input : "/dev/null", O_RDONLY);
  int out_fd = -1, err_fd = -1, wait_status = 0;
  GPid pid;

  g_assert_cmpint (in_fd, >=, 0);
  g_assert_true (g_file_test (argv[0], G_FILE_TEST_IS_EXECUTABLE));
  g_assert_true (g_spawn_async_with_pipes_and_fds (NULL, (const char *const *) argv,
                                                   (const char *const *) envp,
                                                   G_SPAWN_DO_NOT_REAP_CHILD,
                                                   qd_test_limit_file_size, NULL, in_fd,
                                                   -1, -1, NULL, NULL, 0,
                                                   &pid, NULL, &out_fd, &err_fd, &error));
  g_assert_no_error (error);
  close (in_fd);
  memset (r, 0, sizeof *r);
  /* Standard error after standard output: what these programs write
   * there is small, well within a pipe's buffer. */
  r->out = qd_test_read_fd (out_fd);
  r->err = qd_test_read_fd (err_fd);
  g_assert_cmpint (waitpid (pid, &wait_status, 0), ==, pid);
  g_spawn_close_pid (pid);
  g_assert_true (WIFEXITED (wait_status));
  r->status = WEXITSTATUS (wait_status);
}

void
qd_test_run_cli (QdCliResult *r,
                 const char  *input,
                 const char  *first,
                 ...)
{
  g_autofree char *cli = g_build_filename (g_getenv ("QD_BUILD_DIR"), "app", "qdevs-cli", NULL);
  g_autoptr(GPtrArray) args = g_ptr_array_new ();
  va_list ap;

  g_ptr_array_add (args, cli);
  va_start (ap, first);
  for (const char *a = first; a != NULL; a = va_arg (ap, const char *))
    g_ptr_array_add (args, (gpointer) a);
  va_end (ap);
  g_ptr_array_add (args, NULL);
  qd_test_spawn (r, input, NULL, (char **) args->pdata);
}

char *
qd_test_read_text (const char *path)
{
  char *text = NULL;
  g_autoptr(GError) error = NULL;

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  return text;
}

double
qd_test_stats_trace_bytes (const char *out)
{
  static const struct { const char *unit; double scale; } units[] = {
    { "bytes", 1.0 }, { "byte", 1.0 }, { "KiB", 1024.0 },
    { "MiB", 1024.0 * 1024.0 }, { "GiB", 1024.0 * 1024.0 * 1024.0 },
  };
  const char *mem = strstr (out, "Trace memory:");
  char *end;
  double value;

  g_assert_nonnull (mem);
  value = g_ascii_strtod (mem + strlen ("Trace memory:"), &end);
  while (*end == ' ' || *end == '\xc2' || *end == '\xa0')
    end++;
  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (g_str_has_prefix (end, units[i].unit))
      return value * units[i].scale;
  g_error ("no unit after the trace memory in: %s", mem);
  return 0.0;
}

void
qd_test_flush_events (void)
{
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

void
qd_test_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR)
          && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        qd_test_remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static void
on_emitted (gboolean *emitted)
{
  *emitted = TRUE;
}

void
qd_test_wait_for_signal (gpointer     instance,
                         const char  *signal,
                         void       (*start) (gpointer instance))
{
  gboolean emitted = FALSE;
  /* Swapped: the flag comes first, whatever the signal's arguments. */
  gulong id = g_signal_connect_swapped (instance, signal, G_CALLBACK (on_emitted), &emitted);

  if (start != NULL)
    start (instance);
  while (!emitted)
    g_main_context_iteration (NULL, TRUE);
  g_signal_handler_disconnect (instance, id);
}

gboolean
qd_test_is_true (gpointer flag)
{
  return *(gboolean *) flag;
}

static gboolean
on_time_up (gpointer data)
{
  *(gboolean *) data = TRUE;
  return G_SOURCE_REMOVE;
}

gboolean
qd_test_iterate_until (gboolean (*done) (gpointer data),
                       gpointer   data,
                       guint      seconds)
{
  gboolean time_up = FALSE;
  guint id = g_timeout_add_seconds (seconds, on_time_up, &time_up);

  while (!done (data) && !time_up)
    g_main_context_iteration (NULL, TRUE);
  if (time_up)
    return FALSE;
  g_source_remove (id);
  return TRUE;
}

void
qd_test_assert_usage_hint (const char *err)
{
  g_autofree char *command = NULL;
  g_autofree char *hint = NULL;

  /* "qdevs-cli COMMAND: message" names a command; "qdevs-cli: message"
   * does not. */
  if (g_str_has_prefix (err, "qdevs-cli ") && strchr (err, ':') != NULL)
    command = g_strndup (err + strlen ("qdevs-cli "),
                         (gsize) (strchr (err, ':') - err) - strlen ("qdevs-cli "));
  hint = command != NULL ? g_strdup_printf ("Try 'qdevs-cli %s --help'\n", command)
                         : g_strdup ("Try 'qdevs-cli --help'\n");
  if (!g_str_has_suffix (err, hint))
    g_error ("the usage error does not end with \"%s\": %s", hint, err);
}

/* A row of loops like a real diagram's, close enough together that
 * routes run past other blocks and along each other. */
QdDocument *
qd_test_routing_diagram (void)
{
  QdDocument *document = qd_document_new ();
  QdSystem *root = qd_document_get_root (document);
  g_autoptr(GError) error = NULL;

  for (guint row = 0; row < 5; row++)
    {
      double y = row * 90.0;
      QdBlock *previous = qd_document_add_block (document, root, "constant", NULL, 0, y, &error);

      for (guint k = 0; k < 4; k++)
        {
          double x = 100 + k * 300.0;
          QdBlock *sum = qd_document_add_block (document, root, "wsum", NULL, x, y, &error);
          QdBlock *gain = qd_document_add_block (document, root, "gain", NULL, x + 100, y, &error);
          QdBlock *integrator = qd_document_add_block (document, root, "integrator", NULL,
                                                       x + 200, y, &error);

          g_assert_no_error (error);
          qd_document_connect (document, root, previous->id, 0, sum->id, 0, &error);
          qd_document_connect (document, root, sum->id, 0, gain->id, 0, &error);
          qd_document_connect (document, root, gain->id, 0, integrator->id, 0, &error);
          qd_document_connect (document, root, integrator->id, 0, sum->id, 1, &error);
          g_assert_no_error (error);
          previous = integrator;
        }
    }
  return document;
}

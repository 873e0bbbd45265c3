/* test-docs.c: the generated documentation stays in step with the code
 *
 * docs/blocks.md is the output of `qdevs-cli blocks --markdown`, committed
 * so that it can be read without building. When a block's descriptor
 * changes and the page is not regenerated, this test fails and says how
 * to regenerate it.
 */
#include "qd-test-util.h"

#include <string.h>
#include <sys/wait.h>

/* The output of `qdevs-cli blocks --markdown`, in the C locale so that
 * nothing in the environment can change it. */
static char *
generate_markdown (void)
{
  g_autofree char *cli = g_build_filename (g_getenv ("QD_BUILD_DIR"), "app", "qdevs-cli", NULL);
  const char *argv[] = { cli, "blocks", "--markdown", NULL };
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GError) error = NULL;
  g_autofree char *err = NULL;
  char *out = NULL;
  int wait_status = 0;

  g_assert_true (g_file_test (cli, G_FILE_TEST_IS_EXECUTABLE));
  envp = g_environ_setenv (envp, "LC_ALL", "C", TRUE);
  envp = g_environ_setenv (envp, "LANGUAGE", "C", TRUE);
  g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_DEFAULT, NULL, NULL,
                &out, &err, &wait_status, &error);
  g_assert_no_error (error);
  g_assert_true (WIFEXITED (wait_status));
  g_assert_cmpint (WEXITSTATUS (wait_status), ==, 0);
  g_assert_cmpstr (err, ==, "");
  return out;
}

/* Line @line (from 1) of @text, without its newline; "" past the end. */
static char *
nth_line (const char *text,
          guint       line)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  if (line - 1 < g_strv_length (lines))
    return g_strdup (lines[line - 1]);
  return g_strdup ("");
}

static void
test_docs_blocks_up_to_date (void)
{
  g_autofree char *path = qd_test_source_path ("docs", "blocks.md", NULL);
  g_autofree char *generated = generate_markdown ();
  g_autofree char *committed = NULL;
  g_autoptr(GError) error = NULL;
  guint line = 1;
  gsize i;

  g_file_get_contents (path, &committed, NULL, &error);
  g_assert_no_error (error);
  if (strcmp (committed, generated) == 0)
    return;

  /* Point at the first line that differs, so that the failure says what
   * changed, then say how to make the page right again. */
  for (i = 0; committed[i] != '\0' && committed[i] == generated[i]; i++)
    if (committed[i] == '\n')
      line++;
  {
    g_autofree char *was = nth_line (committed, line);
    g_autofree char *now = nth_line (generated, line);

    g_test_message ("docs/blocks.md line %u is\n  %s\nbut qdevs-cli blocks --markdown gives\n  %s",
                    line, was, now);
  }
  g_test_fail_printf ("docs/blocks.md is out of date with the block descriptors "
                      "(first difference at line %u); regenerate it from the "
                      "source root: BUILDDIR/app/qdevs-cli blocks --markdown > docs/blocks.md",
                      line);
}

/* The page holds every block type once, under its category, with a
 * parameter row for each parameter: a check that the generator itself
 * leaves nothing out (the comparison above only checks staleness). */
static void
test_docs_blocks_complete (void)
{
  g_autofree char *markdown = generate_markdown ();
  const QdBlockType *const *types;
  guint n = 0;

  types = qd_registry_list (&n);
  g_assert_cmpuint (n, >, 0);
  for (guint i = 0; i < n; i++)
    {
      const QdBlockType *type = types[i];
      g_autofree char *anchor = g_strdup_printf ("<a id=\"%s\"></a>\n\n### ", type->id);
      g_autofree char *category = g_strdup_printf ("\n## %s\n", type->category);
      const char *at = strstr (markdown, anchor);
      const char *next;

      g_assert_nonnull (at);
      g_assert_null (strstr (at + 1, anchor));
      g_assert_nonnull (strstr (markdown, category));
      g_assert_true (strstr (markdown, category) < at);
      /* The rows of this block's table come before the next block. */
      next = strstr (at + 1, "<a id=\"");
      for (guint p = 0; p < type->n_params; p++)
        {
          g_autofree char *row = g_strdup_printf ("\n| `%s` | ", type->params[p].name);
          const char *found = strstr (at, row);

          g_assert_nonnull (found);
          g_assert_true (next == NULL || found < next);
        }
    }

  /* Text that Markdown would take as markup is escaped: |x| in a table
   * cell would otherwise split it. */
  g_assert_nonnull (strstr (markdown, "max(dqrel·\\|x\\|, dqmin)"));
  g_assert_nonnull (strstr (markdown,
                            "| `dqmin` | Absolute quantum | number | *model's setting* | [0, ∞] |  |  | "));
  g_assert_true (g_str_has_suffix (markdown, "\n"));
  g_assert_false (g_str_has_suffix (markdown, "\n\n"));
}

/* The output of @argv (a program of the build tree and its arguments),
 * in the C locale; NULL when it could not run. */
static char *
run_help (const char *const *argv)
{
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GError) error = NULL;
  char *out = NULL;
  int wait_status = 0;

  envp = g_environ_setenv (envp, "LC_ALL", "C", TRUE);
  envp = g_environ_setenv (envp, "LANGUAGE", "C", TRUE);
  if (!g_spawn_sync (NULL, (char **) argv, envp, G_SPAWN_STDERR_TO_DEV_NULL,
                     NULL, NULL, &out, NULL, &wait_status, &error))
    return NULL;
  return out;
}

/* TRUE when @help lists @option ("--until") as an option of its own,
 * followed by "=" or a space, not as the start of a longer one. */
static gboolean
help_lists_option (const char *help,
                   const char *option)
{
  gsize len = strlen (option);

  for (const char *at = strstr (help, option); at != NULL; at = strstr (at + 1, option))
    if (at[len] == '=' || at[len] == ' ' || at[len] == '\n')
      return TRUE;
  return FALSE;
}

/* Every command the performance page gives for reproducing a figure
 * names options that its program has: a figure whose command no longer
 * runs is a figure nobody can check. Each line of a ```sh block that
 * runs qdevs-cli bench or run, or the hand-written reference solver, is
 * read option by option against that program's --help. */
static void
test_docs_performance_commands (void)
{
  g_autofree char *path = qd_test_source_path ("docs", "performance.md", NULL);
  g_autofree char *page = NULL;
  g_autofree char *cli = g_build_filename (g_getenv ("QD_BUILD_DIR"), "app", "qdevs-cli", NULL);
  g_autofree char *reference = g_build_filename (g_getenv ("QD_BUILD_DIR"), "bench",
                                                 "qdevs-reference-lcline", NULL);
  const char *bench_argv[] = { cli, "bench", "--help", NULL };
  const char *run_argv[] = { cli, "run", "--help", NULL };
  const char *reference_argv[] = { reference, "--help", NULL };
  g_autofree char *bench_help = run_help (bench_argv);
  g_autofree char *run_help_text = run_help (run_argv);
  g_autofree char *reference_help = run_help (reference_argv);
  g_auto(GStrv) lines = NULL;
  gboolean in_sh = FALSE;
  guint n_commands = 0, n_options = 0;

  g_assert_nonnull (bench_help);
  g_assert_nonnull (run_help_text);
  g_assert_nonnull (reference_help);
  g_file_get_contents (path, &page, NULL, NULL);
  g_assert_nonnull (page);

  lines = g_strsplit (page, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) words = NULL;
      const char *help = NULL;

      if (g_str_has_prefix (lines[i], "```"))
        {
          in_sh = !in_sh && strcmp (lines[i], "```sh") == 0;
          continue;
        }
      if (!in_sh)
        continue;
      /* A command may be one of several on its line (a for loop). */
      words = g_strsplit_set (lines[i], " ;", -1);
      for (guint w = 0; words[w] != NULL; w++)
        {
          const char *word = words[w];

          if (g_str_has_suffix (word, "/qdevs-cli") && words[w + 1] != NULL)
            {
              help = strcmp (words[w + 1], "bench") == 0 ? bench_help
                     : strcmp (words[w + 1], "run") == 0 ? run_help_text : NULL;
              n_commands += help != NULL;
            }
          else if (g_str_has_suffix (word, "/qdevs-reference-lcline"))
            {
              help = reference_help;
              n_commands++;
            }
          else if (help != NULL && g_str_has_prefix (word, "--"))
            {
              g_auto(GStrv) option = g_strsplit (word, "=", 2);

              if (!help_lists_option (help, option[0]))
                g_test_fail_printf ("docs/performance.md line %u: %s is not an "
                                    "option of its command (see its --help)",
                                    i + 1, option[0]);
              n_options++;
            }
          else if (strcmp (word, "done") == 0 || strcmp (word, "do") == 0)
            help = NULL;
        }
    }
  /* The page's figures come with their commands: bench and the
   * reference solver at least, with their options. */
  g_assert_cmpuint (n_commands, >=, 8);
  g_assert_cmpuint (n_options, >=, 30);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  g_test_add_func ("/docs/blocks-up-to-date", test_docs_blocks_up_to_date);
  g_test_add_func ("/docs/blocks-complete", test_docs_blocks_complete);
  g_test_add_func ("/docs/performance-commands", test_docs_performance_commands);

  return g_test_run ();
}

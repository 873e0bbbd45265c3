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

/* The text of @name in docs/ between the heading @heading and the next
 * heading of its level, every run of white space made one space (a
 * Markdown paragraph may break a phrase anywhere). */
static char *
doc_section (const char *name,
             const char *heading)
{
  g_autofree char *path = qd_test_source_path ("docs", name, NULL);
  g_autoptr(GRegex) spaces = g_regex_new ("\\s+", 0, 0, NULL);
  g_autofree char *page = NULL;
  g_autofree char *text = NULL;
  const char *start, *end;

  g_file_get_contents (path, &page, NULL, NULL);
  g_assert_nonnull (page);
  start = strstr (page, heading);
  g_assert_nonnull (start);
  end = strstr (start + strlen (heading), "\n## ");
  text = end != NULL ? g_strndup (start, (gsize) (end - start)) : g_strdup (start);
  return g_regex_replace_literal (spaces, text, -1, 0, " ", 0, NULL);
}

/* The first ```json block of docs/file-format.md, loaded. */
static QdDocument *
load_file_format_example (void)
{
  g_autofree char *example = qd_test_file_format_example ();
  g_autoptr(GError) error = NULL;
  QdDocument *document;

  document = qd_document_load_data (example, strlen (example), "file-format.md", &error);
  g_assert_no_error (error);
  return document;
}

/* A parameter's text, or the value of the model variable it names: the
 * file sets the Integrator's initial state through `x_init`, which the
 * guide's steps type as the number. */
static const char *
resolve_variable (QdDocument *document,
                  const char *text)
{
  GPtrArray *variables = qd_document_get_variables (document);

  for (guint i = 0; variables != NULL && i < variables->len; i++)
    {
      const QdVariable *variable = g_ptr_array_index (variables, i);

      if (strcmp (variable->name, text) == 0)
        return variable->value;
    }
  return text;
}

/* The user guide's first model and the file format's complete example
 * are the same diagram: every parameter the file sets is one the guide's
 * steps set, named as the inspector labels it ("**Gain** (`k`) to
 * `-1`"), to the same value; every model setting the steps set is the
 * file's. */
static void
test_docs_first_model (void)
{
  g_autofree char *steps = doc_section ("user-guide.md", "## A first model");
  g_autoptr(QdDocument) document = load_file_format_example ();
  QdSystem *root = qd_document_get_root (document);
  const QdSettings *settings = qd_document_get_settings (document);
  g_autofree char *final_time = g_strdup_printf ("%g", settings->final_time);
  g_autofree char *dqmin = g_strdup_printf ("%g", settings->dqmin);
  g_autofree char *dqrel = g_strdup_printf ("%g", settings->dqrel);
  const struct
  {
    const char *label;
    const char *value;
  } model[] = {
    { "Title", qd_document_get_title (document) },
    { "Final time", final_time },
    { "Method", settings->method },
    { "Absolute quantum", dqmin },
    { "Relative quantum", dqrel },
  };
  guint n_params = 0;

  for (guint i = 0; i < root->blocks->len; i++)
    {
      QdBlock *block = g_ptr_array_index (root->blocks, i);
      const QdBlockType *type = qd_block_get_type_info (block);

      g_assert_nonnull (type);
      for (guint p = 0; p < type->n_params; p++)
        {
          const char *text = qd_block_get_param (block, type->params[p].name);
          g_autofree char *step = NULL;

          if (text == NULL)
            continue;
          step = g_strdup_printf ("**%s** (`%s`) to `%s`", type->params[p].label,
                                  type->params[p].name, resolve_variable (document, text));
          if (strstr (steps, step) == NULL)
            g_test_fail_printf ("docs/user-guide.md, A first model: no step \"%s\" "
                                "for %s as docs/file-format.md has it", step, block->name);
          n_params++;
        }
    }
  g_assert_cmpuint (n_params, >=, 2);

  for (guint i = 0; i < G_N_ELEMENTS (model); i++)
    {
      g_autofree char *step = g_strdup_printf ("**%s** to `%s`", model[i].label, model[i].value);

      if (strstr (steps, step) == NULL)
        g_test_fail_printf ("docs/user-guide.md, A first model: no step \"%s\" "
                            "as docs/file-format.md has it", step);
    }
}

/* Wherever the guide names a parameter with its label, "**Label**
 * (`name`)", the label is the one the inspector shows for that name
 * (the parameter's label in its block's descriptor), or a model setting
 * of that name. */
static void
test_docs_guide_labels (void)
{
  g_autofree char *path = qd_test_source_path ("docs", "user-guide.md", NULL);
  g_autofree char *raw = NULL;
  g_autofree char *guide = NULL;
  g_autoptr(GRegex) spaces = g_regex_new ("\\s+", 0, 0, NULL);
  g_autoptr(GRegex) named = g_regex_new ("\\*\\*([^*]+)\\*\\* \\(`([a-z_0-9]+)`\\)", 0, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;
  static const char *const settings[][2] = {
    { "dqmin", "Absolute quantum" }, { "dqrel", "Relative quantum" },
    { "method", "Method" },
  };
  const QdBlockType *const *types;
  guint n_types = 0, n_found = 0;

  g_file_get_contents (path, &raw, NULL, NULL);
  g_assert_nonnull (raw);
  guide = g_regex_replace_literal (spaces, raw, -1, 0, " ", 0, NULL);
  types = qd_registry_list (&n_types);
  g_regex_match (named, guide, 0, &match);
  for (; g_match_info_matches (match); g_match_info_next (match, NULL))
    {
      g_autofree char *label = g_match_info_fetch (match, 1);
      g_autofree char *name = g_match_info_fetch (match, 2);
      gboolean ok = FALSE;

      for (guint t = 0; !ok && t < n_types; t++)
        for (guint p = 0; !ok && p < types[t]->n_params; p++)
          ok = strcmp (types[t]->params[p].name, name) == 0
               && strcmp (types[t]->params[p].label, label) == 0;
      for (guint s = 0; !ok && s < G_N_ELEMENTS (settings); s++)
        ok = strcmp (settings[s][0], name) == 0 && strcmp (settings[s][1], label) == 0;
      if (!ok)
        g_test_fail_printf ("docs/user-guide.md: \"**%s** (`%s`)\": no block "
                            "labels its parameter %s so", label, name, name);
      n_found++;
    }
  g_assert_cmpuint (n_found, >=, 5);
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
  g_test_add_func ("/docs/first-model", test_docs_first_model);
  g_test_add_func ("/docs/guide-labels", test_docs_guide_labels);

  return g_test_run ();
}

/* test-help.c: which user guide F1 opens
 *
 * Yelp's help:qdevs when Yelp is installed and finds the guide; else the
 * HTML guide, the installed one before the build tree's; nothing when
 * neither is there. The choice is a function of what is on the machine,
 * so each case builds that machine in a temporary folder.
 */
#include <glib/gstdio.h>

#include "qd-application.h"
#include "qd-test-util.h"

typedef struct
{
  char *root;
  char *installed;
  char *build;
} Places;

/* An HTML guide in @dir: its index page, as yelp-build writes it. */
static void
make_html_guide (const char *dir)
{
  g_autofree char *index = g_build_filename (dir, "index.html", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_file_set_contents (index, "<html></html>\n", -1, &error);
  g_assert_no_error (error);
}

static void
places_set_up (Places        *places,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  places->root = g_dir_make_tmp ("qdevs-help-XXXXXX", &error);
  g_assert_no_error (error);
  places->installed = g_build_filename (places->root, "share", "qdevs", "help", "html", NULL);
  places->build = g_build_filename (places->root, "build", "help", "html", NULL);
}

static void
places_tear_down (Places        *places,
                  gconstpointer  data)
{
  qd_test_remove_tree (places->root);
  g_free (places->root);
  g_free (places->installed);
  g_free (places->build);
}

static char *
pick (Places     *places,
      gboolean    have_yelp,
      gboolean    mallard_installed,
      const char *page)
{
  const char *dirs[] = { places->installed, places->build, NULL };

  return qd_application_pick_help_uri (have_yelp, mallard_installed, dirs, page);
}

static char *
file_uri (const char *dir,
          const char *name)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);

  return g_filename_to_uri (path, NULL, NULL);
}

/* Yelp with the guide installed where it looks: help:qdevs, whatever
 * HTML there is. */
static void
test_help_yelp (Places        *places,
                gconstpointer  data)
{
  g_autofree char *uri = NULL;
  g_autofree char *page_uri = NULL;

  make_html_guide (places->installed);
  uri = pick (places, TRUE, TRUE, NULL);
  g_assert_cmpstr (uri, ==, "help:qdevs");
  page_uri = pick (places, TRUE, TRUE, "first-model");
  g_assert_cmpstr (page_uri, ==, "help:qdevs/first-model");
}

/* No Yelp, or Yelp without the Mallard pages (the editor run from its
 * build tree): the installed HTML guide comes first. */
static void
test_help_installed_html (Places        *places,
                          gconstpointer  data)
{
  g_autofree char *expected = NULL;
  g_autofree char *expected_page = NULL;
  g_autofree char *no_yelp = NULL;
  g_autofree char *no_pages = NULL;
  g_autofree char *page = NULL;

  make_html_guide (places->installed);
  make_html_guide (places->build);
  expected = file_uri (places->installed, "index.html");
  expected_page = file_uri (places->installed, "running.html");

  no_yelp = pick (places, FALSE, TRUE, NULL);
  g_assert_cmpstr (no_yelp, ==, expected);
  no_pages = pick (places, TRUE, FALSE, NULL);
  g_assert_cmpstr (no_pages, ==, expected);
  page = pick (places, FALSE, FALSE, "running");
  g_assert_cmpstr (page, ==, expected_page);
}

/* Not installed: the build tree's HTML guide. */
static void
test_help_build_tree (Places        *places,
                      gconstpointer  data)
{
  g_autofree char *expected = NULL;
  g_autofree char *uri = NULL;

  make_html_guide (places->build);
  expected = file_uri (places->build, "index.html");
  uri = pick (places, FALSE, FALSE, NULL);
  g_assert_cmpstr (uri, ==, expected);
  g_assert_true (g_str_has_prefix (uri, "file:///"));
}

/* A folder without index.html is no guide (an install that lost it). */
static void
test_help_none (Places        *places,
                gconstpointer  data)
{
  g_autofree char *uri = NULL;
  g_autofree char *empty = NULL;

  g_assert_cmpint (g_mkdir_with_parents (places->installed, 0755), ==, 0);
  uri = pick (places, FALSE, FALSE, NULL);
  g_assert_null (uri);
  empty = qd_application_pick_help_uri (FALSE, FALSE, NULL, NULL);
  g_assert_null (empty);
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/help/yelp", Places, NULL, places_set_up, test_help_yelp, places_tear_down);
  g_test_add ("/help/installed-html", Places, NULL, places_set_up,
              test_help_installed_html, places_tear_down);
  g_test_add ("/help/build-tree", Places, NULL, places_set_up,
              test_help_build_tree, places_tear_down);
  g_test_add ("/help/none", Places, NULL, places_set_up, test_help_none, places_tear_down);

  return g_test_run ();
}

/* qd-example-browser.c: a dialog that lists the examples that come with QDevs
 *
 * Every .qdevs file of the folder is loaded once, to show its title and
 * description (a file that does not load is listed under its name with
 * the loader's message, so a broken example is visible rather than
 * silently missing). The rows are grouped as gallery.json, next to the
 * examples, says (an example it does not name goes under "Other"),
 * sorted by title within a group, each with the thumbnail of its plot
 * that the build drew; the search entry keeps the rows whose title or
 * description holds every word typed.
 */
#include <glib/gi18n-lib.h>
#include <string.h>

#include <json-c/json.h>

#include "qdevs.h"
#include "qd-example-browser.h"

/* The groups in the order they are shown; the ids are those of
 * gallery.json. */
static const struct
{
  const char *id;
  const char *name;
} groups[] = {
  { "qss-basics", N_("QSS basics") },
  { "stiff", N_("Stiff systems") },
  { "hybrid", N_("Hybrid systems") },
  { "discrete-events", N_("Discrete events") },
  { "classic-vs-qss", N_("Classic solvers against QSS") },
};
#define N_GROUPS G_N_ELEMENTS (groups)
#define OTHER_GROUP N_GROUPS

typedef struct
{
  char *path;
  char *title;
  char *description;
  char *haystack;   /* title and description, casefolded, for the search */
  guint group;      /* index into groups[], OTHER_GROUP when unlisted */
} Example;

struct _QdExampleBrowser
{
  GtkWindow   parent_instance;

  GtkListBox     *list;
  GtkWidget      *open_button;
  GtkSearchEntry *search_entry;
  char          **search_words;   /* casefolded words of the search */

  GPtrArray  *examples;   /* Example*, in row order */
  char       *thumbnails; /* folder of NAME.png, or NULL */
};

enum
{
  EXAMPLE_ACTIVATED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (QdExampleBrowser, qd_example_browser, GTK_TYPE_WINDOW)

static void
example_free (gpointer data)
{
  Example *example = data;

  g_free (example->path);
  g_free (example->title);
  g_free (example->description);
  g_free (example->haystack);
  g_free (example);
}

static int
compare_examples (gconstpointer a,
                  gconstpointer b)
{
  const Example *ea = *(const Example *const *) a;
  const Example *eb = *(const Example *const *) b;

  if (ea->group != eb->group)
    return ea->group < eb->group ? -1 : 1;
  return g_utf8_collate (ea->title, eb->title);
}

static Example *
load_example (const char *path,
              GHashTable *group_of)
{
  g_autofree char *basename = g_path_get_basename (path);
  g_autofree char *joined = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) document = qd_document_load (path, &error);
  Example *example = g_new0 (Example, 1);
  const char *title = NULL;

  example->path = g_strdup (path);
  example->group = GPOINTER_TO_UINT (g_hash_table_lookup (group_of, basename));
  example->group = example->group == 0 ? OTHER_GROUP : example->group - 1;
  if (document == NULL)
    {
      example->title = g_strdup (basename);
      example->description = g_strdup (error->message);
    }
  else
    {
      title = qd_document_get_title (document);
      example->title = title != NULL && title[0] != '\0' ? g_strdup (title)
                                                         : g_strdup (basename);
      example->description = g_strdup (qd_document_get_description (document));
    }
  joined = g_strconcat (example->title, " ", example->description, NULL);
  example->haystack = g_utf8_casefold (joined, -1);
  return example;
}

/* gallery.json: { "groups": [ { "id": ID, "examples": [ FILE, ... ] } ] }.
 * Maps each FILE to its group's index + 1. A missing file puts every
 * example under "Other"; a broken one says so and does the same. */
static GHashTable *
read_gallery (const char *folder)
{
  GHashTable *group_of = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *path = g_build_filename (folder, "gallery.json", NULL);
  json_object *root = NULL, *list;

  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    return group_of;
  root = json_object_from_file (path);
  if (root == NULL || !json_object_object_get_ex (root, "groups", &list) ||
      !json_object_is_type (list, json_type_array))
    {
      g_warning ("%s: not a gallery (an object whose \"groups\" is an array); "
                 "the examples are listed under Other", path);
      json_object_put (root);
      return group_of;
    }
  for (size_t i = 0; i < json_object_array_length (list); i++)
    {
      json_object *group = json_object_array_get_idx (list, i), *id, *files;
      guint index = 0;

      if (!json_object_object_get_ex (group, "id", &id) ||
          !json_object_object_get_ex (group, "examples", &files) ||
          !json_object_is_type (files, json_type_array))
        continue;
      while (index < N_GROUPS && g_strcmp0 (groups[index].id, json_object_get_string (id)) != 0)
        index++;
      for (size_t j = 0; j < json_object_array_length (files); j++)
        g_hash_table_insert (group_of,
                             g_strdup (json_object_get_string (json_object_array_get_idx (files, j))),
                             GUINT_TO_POINTER (index + 1));
    }
  json_object_put (root);
  return group_of;
}

static const char *
group_name (guint group)
{
  return group < N_GROUPS ? _(groups[group].name) : _("Other");
}

/* The thumbnail has the example's name with .png; a missing one leaves
 * an empty frame of the same size so that the texts stay aligned. */
static GtkWidget *
create_thumbnail (const QdExampleBrowser *self,
                  const Example          *example)
{
  g_autofree char *basename = g_path_get_basename (example->path);
  g_autofree char *png = NULL;
  g_autofree char *path = NULL;
  GtkWidget *picture = gtk_picture_new ();

  if (self->thumbnails != NULL && g_str_has_suffix (basename, QD_FILE_EXTENSION))
    {
      basename[strlen (basename) - strlen (QD_FILE_EXTENSION)] = '\0';
      png = g_strconcat (basename, ".png", NULL);
      path = g_build_filename (self->thumbnails, png, NULL);
      if (g_file_test (path, G_FILE_TEST_IS_REGULAR))
        gtk_picture_set_filename (GTK_PICTURE (picture), path);
    }
  /* At the size the build drew them (data/examples/meson.build), so
   * that every row's text starts at the same place. */
  gtk_picture_set_can_shrink (GTK_PICTURE (picture), FALSE);
  gtk_widget_set_size_request (picture, 240, 150);
  gtk_widget_set_halign (picture, GTK_ALIGN_START);
  gtk_widget_set_valign (picture, GTK_ALIGN_START);
  gtk_widget_add_css_class (picture, "qd-example-thumbnail");
  return picture;
}

static GtkWidget *
create_row (const QdExampleBrowser *self,
            const Example          *example)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 12);
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  GtkWidget *title = gtk_label_new (example->title);
  g_autofree char *basename = g_path_get_basename (example->path);
  GtkWidget *file = gtk_label_new (basename);

  gtk_widget_set_margin_top (row, 8);
  gtk_widget_set_margin_bottom (row, 8);
  gtk_widget_set_margin_start (row, 12);
  gtk_widget_set_margin_end (row, 12);
  gtk_box_append (GTK_BOX (row), create_thumbnail (self, example));
  gtk_widget_set_hexpand (box, TRUE);
  gtk_box_append (GTK_BOX (row), box);
  gtk_label_set_xalign (GTK_LABEL (title), 0.0f);
  gtk_label_set_wrap (GTK_LABEL (title), TRUE);
  gtk_widget_add_css_class (title, "heading");
  gtk_box_append (GTK_BOX (box), title);
  if (example->description != NULL && example->description[0] != '\0')
    {
      /* The row shows the lesson, the description's first paragraph;
       * the tooltip has the whole description. */
      const char *end = strstr (example->description, "\n\n");
      g_autofree char *lesson = end != NULL ? g_strndup (example->description,
                                                         end - example->description)
                                            : g_strdup (example->description);
      GtkWidget *description = gtk_label_new (lesson);

      gtk_label_set_xalign (GTK_LABEL (description), 0.0f);
      gtk_label_set_wrap (GTK_LABEL (description), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (description), 60);
      gtk_label_set_lines (GTK_LABEL (description), 6);
      gtk_label_set_ellipsize (GTK_LABEL (description), PANGO_ELLIPSIZE_END);
      gtk_widget_set_tooltip_text (description, example->description);
      gtk_box_append (GTK_BOX (box), description);
    }
  gtk_label_set_xalign (GTK_LABEL (file), 0.0f);
  gtk_widget_add_css_class (file, "dim-label");
  gtk_widget_add_css_class (file, "caption");
  gtk_box_append (GTK_BOX (box), file);
  return row;
}

/* A heading above the first row of each group. */
static void
update_header (GtkListBoxRow *row,
               GtkListBoxRow *before,
               gpointer       user_data)
{
  QdExampleBrowser *self = user_data;
  const Example *example = g_ptr_array_index (self->examples, gtk_list_box_row_get_index (row));
  const Example *previous = NULL;
  GtkWidget *label;

  if (before != NULL)
    previous = g_ptr_array_index (self->examples, gtk_list_box_row_get_index (before));
  if (previous != NULL && previous->group == example->group)
    {
      gtk_list_box_row_set_header (row, NULL);
      return;
    }
  label = gtk_label_new (group_name (example->group));
  gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
  gtk_widget_set_margin_top (label, 12);
  gtk_widget_set_margin_bottom (label, 4);
  gtk_widget_set_margin_start (label, 12);
  gtk_widget_add_css_class (label, "title-4");
  gtk_list_box_row_set_header (row, label);
}

/* Every word of the search must occur in the title or description. */
static gboolean
filter_row (GtkListBoxRow *row,
            gpointer       user_data)
{
  QdExampleBrowser *self = user_data;
  const Example *example = g_ptr_array_index (self->examples, gtk_list_box_row_get_index (row));

  for (guint i = 0; self->search_words != NULL && self->search_words[i] != NULL; i++)
    if (self->search_words[i][0] != '\0' && strstr (example->haystack, self->search_words[i]) == NULL)
      return FALSE;
  return TRUE;
}

static void
on_search_changed (QdExampleBrowser *self)
{
  g_autofree char *folded = g_utf8_casefold (gtk_editable_get_text (GTK_EDITABLE (self->search_entry)), -1);

  g_strfreev (self->search_words);
  self->search_words = g_strsplit_set (g_strstrip (folded), " \t", -1);
  gtk_list_box_invalidate_filter (self->list);
}

static void
fill (QdExampleBrowser *self,
      const char       *folder)
{
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) error = NULL;
  const char *name;
  g_autoptr(GHashTable) group_of = NULL;

  dir = g_dir_open (folder, 0, &error);
  if (dir == NULL)
    {
      GtkWidget *label;
      g_autofree char *text = g_strdup_printf (_("%s: cannot list the examples "
                                                 "(%s); reinstall QDevs or set "
                                                 "QD_EXAMPLES_DIR to a folder "
                                                 "of .qdevs files"),
                                               folder, error->message);

      label = gtk_label_new (text);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_widget_set_margin_top (label, 24);
      gtk_widget_set_margin_start (label, 12);
      gtk_widget_set_margin_end (label, 12);
      gtk_list_box_set_placeholder (self->list, label);
      return;
    }

  group_of = read_gallery (folder);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;

      if (!g_str_has_suffix (name, QD_FILE_EXTENSION))
        continue;
      path = g_build_filename (folder, name, NULL);
      g_ptr_array_add (self->examples, load_example (path, group_of));
    }
  g_ptr_array_sort (self->examples, compare_examples);

  for (guint i = 0; i < self->examples->len; i++)
    gtk_list_box_append (self->list, create_row (self, g_ptr_array_index (self->examples, i)));
  if (self->examples->len > 0)
    gtk_list_box_select_row (self->list, gtk_list_box_get_row_at_index (self->list, 0));
}

static void
on_row_activated (GtkListBox       *list,
                  GtkListBoxRow    *row,
                  QdExampleBrowser *self)
{
  qd_example_browser_activate (self, (guint) gtk_list_box_row_get_index (row));
}

static void
on_row_selected (GtkListBox       *list,
                 GtkListBoxRow    *row,
                 QdExampleBrowser *self)
{
  /* Closing disposes the template: the list loses its selection after
   * the button has gone. */
  if (self->open_button != NULL)
    gtk_widget_set_sensitive (self->open_button, row != NULL);
}

static void
on_open_clicked (QdExampleBrowser *self)
{
  GtkListBoxRow *row = gtk_list_box_get_selected_row (self->list);

  if (row != NULL)
    qd_example_browser_activate (self, (guint) gtk_list_box_row_get_index (row));
}

static void
qd_example_browser_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), QD_TYPE_EXAMPLE_BROWSER);

  G_OBJECT_CLASS (qd_example_browser_parent_class)->dispose (object);
}

static void
qd_example_browser_finalize (GObject *object)
{
  QdExampleBrowser *self = QD_EXAMPLE_BROWSER (object);

  g_ptr_array_unref (self->examples);
  g_free (self->thumbnails);
  g_strfreev (self->search_words);

  G_OBJECT_CLASS (qd_example_browser_parent_class)->finalize (object);
}

static void
qd_example_browser_class_init (QdExampleBrowserClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = qd_example_browser_dispose;
  object_class->finalize = qd_example_browser_finalize;

  /* The example chosen (a GFile). */
  signals[EXAMPLE_ACTIVATED] =
    g_signal_new ("example-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_FILE);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/qdevs/Qdevs/ui/qd-example-browser.ui");
  gtk_widget_class_bind_template_child (widget_class, QdExampleBrowser, list);
  gtk_widget_class_bind_template_child (widget_class, QdExampleBrowser, open_button);
  gtk_widget_class_bind_template_child (widget_class, QdExampleBrowser, search_entry);
  gtk_widget_class_bind_template_callback (widget_class, on_search_changed);
  gtk_widget_class_bind_template_callback (widget_class, on_row_activated);
  gtk_widget_class_bind_template_callback (widget_class, on_row_selected);
  gtk_widget_class_bind_template_callback (widget_class, on_open_clicked);
  gtk_widget_class_bind_template_callback_full (widget_class, "gtk_window_close",
                                                G_CALLBACK (gtk_window_close));
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
qd_example_browser_init (QdExampleBrowser *self)
{
  self->examples = g_ptr_array_new_with_free_func (example_free);
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_list_box_set_header_func (self->list, update_header, self, NULL);
  gtk_list_box_set_filter_func (self->list, filter_row, self, NULL);
  gtk_search_entry_set_key_capture_widget (self->search_entry, GTK_WIDGET (self));
}

QdExampleBrowser *
qd_example_browser_new (GtkWindow  *parent,
                        const char *folder,
                        const char *thumbnails)
{
  QdExampleBrowser *self;

  g_return_val_if_fail (folder != NULL, NULL);

  self = g_object_new (QD_TYPE_EXAMPLE_BROWSER, "transient-for", parent, NULL);
  self->thumbnails = g_strdup (thumbnails);
  fill (self, folder);
  return self;
}

guint
qd_example_browser_get_n_examples (QdExampleBrowser *self)
{
  g_return_val_if_fail (QD_IS_EXAMPLE_BROWSER (self), 0);

  return self->examples->len;
}

const char *
qd_example_browser_get_title (QdExampleBrowser *self,
                              guint             index)
{
  g_return_val_if_fail (QD_IS_EXAMPLE_BROWSER (self), NULL);
  g_return_val_if_fail (index < self->examples->len, NULL);

  return ((Example *) g_ptr_array_index (self->examples, index))->title;
}

const char *
qd_example_browser_get_path (QdExampleBrowser *self,
                             guint             index)
{
  g_return_val_if_fail (QD_IS_EXAMPLE_BROWSER (self), NULL);
  g_return_val_if_fail (index < self->examples->len, NULL);

  return ((Example *) g_ptr_array_index (self->examples, index))->path;
}

const char *
qd_example_browser_get_group (QdExampleBrowser *self,
                              guint             index)
{
  g_return_val_if_fail (QD_IS_EXAMPLE_BROWSER (self), NULL);
  g_return_val_if_fail (index < self->examples->len, NULL);

  return group_name (((Example *) g_ptr_array_index (self->examples, index))->group);
}

/* What the list shows: the filter hides a row by making it
 * child-invisible. */
gboolean
qd_example_browser_is_shown (QdExampleBrowser *self,
                             guint             index)
{
  GtkListBoxRow *row;

  g_return_val_if_fail (QD_IS_EXAMPLE_BROWSER (self), FALSE);
  g_return_val_if_fail (index < self->examples->len, FALSE);

  row = gtk_list_box_get_row_at_index (self->list, (int) index);
  return gtk_widget_get_child_visible (GTK_WIDGET (row));
}

gboolean
qd_example_browser_has_thumbnail (QdExampleBrowser *self,
                                  guint             index)
{
  GtkListBoxRow *row;
  GtkWidget *picture;

  g_return_val_if_fail (QD_IS_EXAMPLE_BROWSER (self), FALSE);
  g_return_val_if_fail (index < self->examples->len, FALSE);

  row = gtk_list_box_get_row_at_index (self->list, (int) index);
  picture = gtk_widget_get_first_child (gtk_list_box_row_get_child (row));
  return gtk_picture_get_paintable (GTK_PICTURE (picture)) != NULL;
}

GtkEditable *
qd_example_browser_get_search_entry (QdExampleBrowser *self)
{
  g_return_val_if_fail (QD_IS_EXAMPLE_BROWSER (self), NULL);

  return GTK_EDITABLE (self->search_entry);
}

void
qd_example_browser_activate (QdExampleBrowser *self,
                             guint             index)
{
  g_autoptr(GFile) file = NULL;
  const Example *example;

  g_return_if_fail (QD_IS_EXAMPLE_BROWSER (self));
  g_return_if_fail (index < self->examples->len);

  example = g_ptr_array_index (self->examples, index);
  file = g_file_new_for_path (example->path);
  /* Keep the dialog alive through handlers that might close it. */
  g_object_ref (self);
  g_signal_emit (self, signals[EXAMPLE_ACTIVATED], 0, file);
  gtk_window_close (GTK_WINDOW (self));
  g_object_unref (self);
}

/* qd-example-browser.c: a dialog that lists the examples that come with QDevs
 *
 * Every .qdevs file of the folder is loaded once, to show its title and
 * description (a file that does not load is listed under its name with
 * the loader's message, so a broken example is visible rather than
 * silently missing). Rows are sorted by title.
 */
#include <glib/gi18n-lib.h>
#include <string.h>

#include "qdevs.h"
#include "qd-example-browser.h"

typedef struct
{
  char *path;
  char *title;
  char *description;
} Example;

struct _QdExampleBrowser
{
  GtkWindow   parent_instance;

  GtkListBox *list;
  GtkWidget  *open_button;

  GPtrArray  *examples;   /* Example*, in row order */
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
  g_free (example);
}

static int
compare_examples (gconstpointer a,
                  gconstpointer b)
{
  const Example *ea = *(const Example *const *) a;
  const Example *eb = *(const Example *const *) b;

  return g_utf8_collate (ea->title, eb->title);
}

static Example *
load_example (const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(QdDocument) document = qd_document_load (path, &error);
  Example *example = g_new0 (Example, 1);
  const char *title = NULL;

  example->path = g_strdup (path);
  if (document == NULL)
    {
      example->title = g_path_get_basename (path);
      example->description = g_strdup (error->message);
      return example;
    }
  title = qd_document_get_title (document);
  example->title = title != NULL && title[0] != '\0' ? g_strdup (title)
                                                     : g_path_get_basename (path);
  example->description = g_strdup (qd_document_get_description (document));
  return example;
}

static GtkWidget *
create_row (const Example *example)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 3);
  GtkWidget *title = gtk_label_new (example->title);
  g_autofree char *basename = g_path_get_basename (example->path);
  GtkWidget *file = gtk_label_new (basename);

  gtk_widget_set_margin_top (box, 8);
  gtk_widget_set_margin_bottom (box, 8);
  gtk_widget_set_margin_start (box, 12);
  gtk_widget_set_margin_end (box, 12);
  gtk_label_set_xalign (GTK_LABEL (title), 0.0f);
  gtk_label_set_wrap (GTK_LABEL (title), TRUE);
  gtk_widget_add_css_class (title, "heading");
  gtk_box_append (GTK_BOX (box), title);
  if (example->description != NULL && example->description[0] != '\0')
    {
      GtkWidget *description = gtk_label_new (example->description);

      gtk_label_set_xalign (GTK_LABEL (description), 0.0f);
      gtk_label_set_wrap (GTK_LABEL (description), TRUE);
      gtk_label_set_max_width_chars (GTK_LABEL (description), 60);
      /* Three lines tell what it is; the tooltip has the rest. */
      gtk_label_set_lines (GTK_LABEL (description), 3);
      gtk_label_set_ellipsize (GTK_LABEL (description), PANGO_ELLIPSIZE_END);
      gtk_widget_set_tooltip_text (description, example->description);
      gtk_box_append (GTK_BOX (box), description);
    }
  gtk_label_set_xalign (GTK_LABEL (file), 0.0f);
  gtk_widget_add_css_class (file, "dim-label");
  gtk_widget_add_css_class (file, "caption");
  gtk_box_append (GTK_BOX (box), file);
  return box;
}

static void
fill (QdExampleBrowser *self,
      const char       *folder)
{
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) error = NULL;
  const char *name;

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

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;

      if (!g_str_has_suffix (name, QD_FILE_EXTENSION))
        continue;
      path = g_build_filename (folder, name, NULL);
      g_ptr_array_add (self->examples, load_example (path));
    }
  g_ptr_array_sort (self->examples, compare_examples);

  for (guint i = 0; i < self->examples->len; i++)
    gtk_list_box_append (self->list, create_row (g_ptr_array_index (self->examples, i)));
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
}

QdExampleBrowser *
qd_example_browser_new (GtkWindow  *parent,
                        const char *folder)
{
  QdExampleBrowser *self;

  g_return_val_if_fail (folder != NULL, NULL);

  self = g_object_new (QD_TYPE_EXAMPLE_BROWSER, "transient-for", parent, NULL);
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

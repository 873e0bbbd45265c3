/* qd-messages-view.c: the list of problems found in a diagram
 *
 * A status line (nothing checked yet, no problem, or how many) above a
 * list box of rows: an icon, the block's path in bold and the message.
 * The view keeps its own copies of the problems, so a later edit of the
 * document cannot leave a row pointing at freed text.
 */
#include <glib/gi18n-lib.h>

#include "qd-messages-view.h"

struct _QdMessagesView
{
  GtkWidget   parent_instance;

  GtkWidget  *box;
  GtkLabel   *status;
  GtkListBox *list;

  GPtrArray  *problems;     /* QdProblem*, owned */
  GHashTable *block_ids;    /* char* set */
  const QdProblem *activated;  /* the row activated last, in problems */
};

enum
{
  PROBLEM_ACTIVATED,
  PROBLEMS_CHANGED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (QdMessagesView, qd_messages_view, GTK_TYPE_WIDGET)

static GtkWidget *
create_row (const QdProblem *problem)
{
  GtkWidget *row = gtk_list_box_row_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *icon = gtk_image_new_from_icon_name ("dialog-error-symbolic");
  GtkWidget *path = gtk_label_new (problem->path != NULL && problem->path[0] != '\0'
                                   ? problem->path : _("Model"));
  GtkWidget *message = gtk_label_new (problem->message);

  gtk_widget_add_css_class (icon, "error");
  gtk_widget_set_valign (icon, GTK_ALIGN_START);
  gtk_widget_add_css_class (path, "heading");
  gtk_label_set_xalign (GTK_LABEL (path), 0.0f);
  gtk_widget_set_valign (path, GTK_ALIGN_START);
  gtk_label_set_xalign (GTK_LABEL (message), 0.0f);
  gtk_label_set_wrap (GTK_LABEL (message), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (message), PANGO_WRAP_WORD_CHAR);
  gtk_widget_set_hexpand (message, TRUE);
  gtk_box_append (GTK_BOX (box), icon);
  gtk_box_append (GTK_BOX (box), path);
  gtk_box_append (GTK_BOX (box), message);
  gtk_widget_add_css_class (box, "qd-problem");
  gtk_list_box_row_set_child (GTK_LIST_BOX_ROW (row), box);
  if (problem->block_id != NULL)
    gtk_widget_set_tooltip_text (row, _("Activate to select this block in the diagram"));
  return row;
}

static void
on_row_activated (GtkListBox     *list,
                  GtkListBoxRow  *row,
                  QdMessagesView *self)
{
  qd_messages_view_activate (self, (guint) gtk_list_box_row_get_index (row));
}

static void
qd_messages_view_dispose (GObject *object)
{
  QdMessagesView *self = QD_MESSAGES_VIEW (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);

  G_OBJECT_CLASS (qd_messages_view_parent_class)->dispose (object);
}

static void
qd_messages_view_finalize (GObject *object)
{
  QdMessagesView *self = QD_MESSAGES_VIEW (object);

  g_ptr_array_unref (self->problems);
  g_hash_table_unref (self->block_ids);

  G_OBJECT_CLASS (qd_messages_view_parent_class)->finalize (object);
}

static void
qd_messages_view_class_init (QdMessagesViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = qd_messages_view_dispose;
  object_class->finalize = qd_messages_view_finalize;

  /* A row was activated: the block's id (NULL for a problem of the model
   * itself) and its path. */
  signals[PROBLEM_ACTIVATED] =
    g_signal_new ("problem-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
  /* The list was replaced (a check, a failed run, a new document): the
   * window follows it with the highlight of the blocks on the canvas. */
  signals[PROBLEMS_CHANGED] =
    g_signal_new ("problems-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "qd-messages-view");
}

static void
qd_messages_view_init (QdMessagesView *self)
{
  GtkWidget *scroller;

  self->problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  self->block_ids = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->status = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->status, 0.0f);
  gtk_widget_add_css_class (GTK_WIDGET (self->status), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (self->status), "qd-messages-status");
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->status));

  scroller = gtk_scrolled_window_new ();
  gtk_scrolled_window_set_policy (GTK_SCROLLED_WINDOW (scroller),
                                  GTK_POLICY_NEVER, GTK_POLICY_AUTOMATIC);
  gtk_widget_set_vexpand (scroller, TRUE);
  self->list = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->list, GTK_SELECTION_SINGLE);
  gtk_list_box_set_activate_on_single_click (self->list, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->list),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Problems"), -1);
  g_signal_connect (self->list, "row-activated", G_CALLBACK (on_row_activated), self);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), GTK_WIDGET (self->list));
  gtk_box_append (GTK_BOX (self->box), scroller);

  qd_messages_view_set_problems (self, NULL);
}

GtkWidget *
qd_messages_view_new (void)
{
  return g_object_new (QD_TYPE_MESSAGES_VIEW, NULL);
}

static void
set_problems (QdMessagesView *self,
              GPtrArray      *problems,
              gboolean        checked)
{
  GtkWidget *child;
  g_autofree char *status = NULL;

  self->activated = NULL;
  g_ptr_array_set_size (self->problems, 0);
  g_hash_table_remove_all (self->block_ids);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->list))))
    gtk_list_box_remove (self->list, child);

  for (guint i = 0; problems != NULL && i < problems->len; i++)
    {
      const QdProblem *problem = g_ptr_array_index (problems, i);
      QdProblem *copy = qd_problem_new (problem->code, problem->path,
                                        problem->block_id, "%s", problem->message);

      g_ptr_array_add (self->problems, copy);
      if (copy->block_id != NULL)
        g_hash_table_add (self->block_ids, g_strdup (copy->block_id));
      gtk_list_box_append (self->list, create_row (copy));
    }

  if (!checked)
    status = g_strdup (_("Press Check (F7) to look for problems before running."));
  else if (self->problems->len == 0)
    status = g_strdup (_("No problems found: the model is ready to run."));
  else
    status = g_strdup_printf (ngettext ("%u problem found; activate it to "
                                        "select the block.",
                                        "%u problems found; activate one to "
                                        "select its block.",
                                        self->problems->len),
                              self->problems->len);
  gtk_label_set_text (self->status, status);
  g_signal_emit (self, signals[PROBLEMS_CHANGED], 0);
}

guint
qd_messages_view_check (QdMessagesView *self,
                        QdDocument     *document)
{
  g_autoptr(GPtrArray) problems = NULL;

  g_return_val_if_fail (QD_IS_MESSAGES_VIEW (self), 0);
  g_return_val_if_fail (QD_IS_DOCUMENT (document), 0);

  problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  qd_document_check (document, NULL, problems);
  set_problems (self, problems, TRUE);
  return self->problems->len;
}

void
qd_messages_view_set_problems (QdMessagesView *self,
                               GPtrArray      *problems)
{
  g_return_if_fail (QD_IS_MESSAGES_VIEW (self));

  set_problems (self, problems, problems != NULL);
}

guint
qd_messages_view_get_n_problems (QdMessagesView *self)
{
  g_return_val_if_fail (QD_IS_MESSAGES_VIEW (self), 0);

  return self->problems->len;
}

const QdProblem *
qd_messages_view_get_problem (QdMessagesView *self,
                              guint           index)
{
  g_return_val_if_fail (QD_IS_MESSAGES_VIEW (self), NULL);
  g_return_val_if_fail (index < self->problems->len, NULL);

  return g_ptr_array_index (self->problems, index);
}

GHashTable *
qd_messages_view_get_block_ids (QdMessagesView *self)
{
  g_return_val_if_fail (QD_IS_MESSAGES_VIEW (self), NULL);

  return self->block_ids;
}

void
qd_messages_view_activate (QdMessagesView *self,
                           guint           index)
{
  const QdProblem *problem;

  g_return_if_fail (QD_IS_MESSAGES_VIEW (self));
  g_return_if_fail (index < self->problems->len);

  problem = g_ptr_array_index (self->problems, index);
  self->activated = problem;
  gtk_list_box_select_row (self->list, gtk_list_box_get_row_at_index (self->list, (int) index));
  g_signal_emit (self, signals[PROBLEM_ACTIVATED], 0, problem->block_id, problem->path);
}

const QdProblem *
qd_messages_view_get_activated (QdMessagesView *self)
{
  g_return_val_if_fail (QD_IS_MESSAGES_VIEW (self), NULL);

  return self->activated;
}

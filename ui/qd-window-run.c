/* qd-window-run.c: the main window's checks and runs
 *
 * Check and Compare Methods, the messages panel (the blocks it names
 * ringed on the canvas, a message activated goes to its block and
 * parameter), and what the run bar and the event view report.
 */
#include <glib/gi18n-lib.h>
#include <string.h>

#include "qd-compare-dialog.h"
#include "qd-sweep-dialog.h"
#include "qd-window-private.h"

/* Check */

void
qd_window_check_activated (GSimpleAction *action,
                           GVariant      *parameter,
                           gpointer       user_data)
{
  qd_window_check (QD_WINDOW (user_data));
}

void
qd_window_compare_methods_activated (GSimpleAction *action,
                                     GVariant      *parameter,
                                     gpointer       user_data)
{
  QdWindow *self = QD_WINDOW (user_data);
  GtkWidget *dialog;

  if (self->document == NULL)
    return;
  dialog = qd_compare_dialog_new (GTK_WINDOW (self), self->document);
  /* Its results overlay in the window's Scopes too. */
  qd_run_session_follow_comparisons (self->run_session, QD_COMPARE_DIALOG (dialog));
  gtk_window_present (GTK_WINDOW (dialog));
}

void
qd_window_sweep_activated (GSimpleAction *action,
                           GVariant      *parameter,
                           gpointer       user_data)
{
  QdWindow *self = QD_WINDOW (user_data);

  if (self->document != NULL)
    gtk_window_present (GTK_WINDOW (qd_sweep_dialog_new (GTK_WINDOW (self), self->document)));
}

/* The blocks the messages name are ringed on the canvas until the next
 * check replaces the list. */
void
qd_window_on_problems_changed (QdMessagesView *view,
                               QdWindow       *self)
{
  GHashTable *ids = qd_messages_view_get_block_ids (view);

  if (self->canvas == NULL)
    return;
  qd_canvas_set_highlight (self->canvas,
                           ids != NULL && g_hash_table_size (ids) > 0 ? ids : NULL);
}

/* The parameter of @block that @problem is about, or NULL: messages name
 * it in quotes ("parameter 'k': unknown name 'kk'"), in either style of
 * quotes, so that a translated message is recognised too. */
static char *
dup_problem_param (const QdBlock   *block,
                   const QdProblem *problem)
{
  const QdBlockType *type = qd_block_get_type_info (block);
  const char *first = NULL, *found = NULL;

  if (type == NULL || problem == NULL || problem->message == NULL ||
      g_strcmp0 (problem->block_id, block->id) != 0)
    return NULL;
  /* The parameter is named first; a name quoted later in the message is
   * what it says about the value ("unknown name 'k'"). */
  for (guint i = 0; i < type->n_params; i++)
    {
      const char *name = type->params[i].name;
      g_autofree char *plain = g_strdup_printf ("'%s'", name);
      g_autofree char *curly = g_strdup_printf ("“%s”", name);
      const char *at = strstr (problem->message, plain);
      const char *at_curly = strstr (problem->message, curly);

      if (at == NULL || (at_curly != NULL && at_curly < at))
        at = at_curly;
      if (at != NULL && (first == NULL || at < first))
        {
          first = at;
          found = name;
        }
    }
  return g_strdup (found);
}

void
qd_window_on_problem_activated (QdMessagesView *view,
                                const char     *block_id,
                                const char     *path,
                                QdWindow       *self)
{
  QdCanvasController *controller = qd_canvas_get_controller (self->canvas);
  g_autofree char *key = NULL;
  QdBlock *block = NULL;

  if (self->document != NULL && block_id != NULL)
    block = qd_document_find_block (self->document, block_id);
  if (block == NULL)
    {
      /* A problem of the model: its settings are in the inspector. */
      qd_canvas_controller_clear_selection (controller);
      qd_inspector_set_block (self->inspector, NULL);
      return;
    }
  /* Opens the subsystem that holds the block, selects it and scrolls it
   * into view. */
  qd_canvas_reveal_block (self->canvas, block);
  qd_inspector_set_block (self->inspector, block);
  /* A bad parameter: the keyboard goes to its field, to be fixed there. */
  key = dup_problem_param (block, qd_messages_view_get_activated (view));
  if (key != NULL)
    qd_inspector_focus_field (self->inspector, key);
  else if (qd_messages_view_get_activated (view) != NULL)
    qd_inspector_focus_script_line (self->inspector,
                                    qd_messages_view_get_activated (view)->message);
}

/* A row of the Transitions page: its block, revealed and selected. The
 * diagram may have changed since the run; a block that is gone is not
 * found, and nothing happens. */
/* The run bar and the event view report here; the window shows it. */
void
qd_window_on_run_bar_message (QdRunBar       *bar,
                              GtkMessageType  type,
                              const char     *text,
                              gboolean        about_edit,
                              QdWindow       *self)
{
  if (about_edit)
    qd_window_show_edit_message (self, type, text);
  else
    qd_window_show_message (self, type, text);
}

void
qd_window_on_run_bar_edit_message_hidden (QdRunBar *bar,
                                          QdWindow *self)
{
  qd_window_hide_edit_message (self);
}

void
qd_window_on_event_view_error (QdEventView *view,
                               const char  *message,
                               QdWindow    *self)
{
  qd_window_show_message (self, GTK_MESSAGE_ERROR, message);
}

void
qd_window_on_transition_activated (QdEventView *view,
                                   const char  *path,
                                   QdWindow    *self)
{
  QdBlock *block;

  if (self->document == NULL)
    return;
  block = qd_document_find_block_by_path (self->document, path);
  if (block == NULL)
    return;
  qd_canvas_reveal_block (self->canvas, block);
  qd_inspector_set_block (self->inspector, block);
}
/* Brings the Messages panel to the front. */
void
qd_window_show_messages (QdWindow *self)
{
  int page = gtk_notebook_page_num (self->bottom_notebook,
                                    GTK_WIDGET (self->messages_view));

  if (page >= 0)
    gtk_notebook_set_current_page (self->bottom_notebook, page);
}

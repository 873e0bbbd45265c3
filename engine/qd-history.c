/* qd-history.c: the edit history of a document
 *
 * Two stacks of steps (undo and redo) and the step being built by the open
 * transaction. Undo applies a step's edits backwards in reverse order; redo
 * applies them forwards in order, so each edit sees the state it was made
 * in.
 */
#include "qd-history.h"

typedef struct
{
  char      *label;
  GPtrArray *edits;   /* QdEdit*, in the order they were applied */
  guint64    serial;
} QdStep;

struct _QdHistory
{
  GPtrArray *undo;    /* QdStep*, the newest last */
  GPtrArray *redo;    /* QdStep*, the next to redo last */
  QdStep    *open;    /* the step of the open transaction */
  guint      depth;
  guint64    next_serial;
};

static void
edit_free (gpointer data)
{
  QdEdit *edit = data;

  edit->klass->free (edit);
}

static void
step_free (gpointer data)
{
  QdStep *step = data;

  if (step == NULL)
    return;
  g_ptr_array_unref (step->edits);
  g_free (step->label);
  g_free (step);
}

QdHistory *
qd_history_new (void)
{
  QdHistory *history = g_new0 (QdHistory, 1);

  history->undo = g_ptr_array_new_with_free_func (step_free);
  history->redo = g_ptr_array_new_with_free_func (step_free);
  history->next_serial = 1;

  return history;
}

void
qd_history_free (QdHistory *history)
{
  if (history == NULL)
    return;
  step_free (history->open);
  g_ptr_array_unref (history->undo);
  g_ptr_array_unref (history->redo);
  g_free (history);
}

void
qd_history_clear (QdHistory *history)
{
  g_ptr_array_set_size (history->undo, 0);
  g_ptr_array_set_size (history->redo, 0);
}

void
qd_history_begin (QdHistory  *history,
                  const char *label)
{
  if (history->depth++ == 0)
    {
      history->open = g_new0 (QdStep, 1);
      history->open->label = g_strdup (label != NULL ? label : "");
      history->open->edits = g_ptr_array_new_with_free_func (edit_free);
    }
}

gboolean
qd_history_end (QdHistory *history)
{
  QdStep *step;

  g_return_val_if_fail (history->depth > 0, FALSE);

  if (--history->depth > 0)
    return FALSE;

  step = g_steal_pointer (&history->open);
  if (step->edits->len == 0)
    {
      /* A command that failed or changed nothing leaves no step, and
       * does not throw away what could be redone. */
      step_free (step);
      return FALSE;
    }
  step->serial = history->next_serial++;
  g_ptr_array_add (history->undo, step);
  g_ptr_array_set_size (history->redo, 0);
  return TRUE;
}

guint
qd_history_get_depth (QdHistory *history)
{
  return history->depth;
}

void
qd_history_record (QdHistory *history,
                   QdEdit    *edit)
{
  g_return_if_fail (history->open != NULL);

  g_ptr_array_add (history->open->edits, edit);
}

gboolean
qd_history_can_undo (QdHistory *history)
{
  return history->undo->len > 0;
}

gboolean
qd_history_can_redo (QdHistory *history)
{
  return history->redo->len > 0;
}

const char *
qd_history_get_undo_label (QdHistory *history)
{
  QdStep *step;

  if (history->undo->len == 0)
    return NULL;
  step = g_ptr_array_index (history->undo, history->undo->len - 1);
  return step->label;
}

const char *
qd_history_get_redo_label (QdHistory *history)
{
  QdStep *step;

  if (history->redo->len == 0)
    return NULL;
  step = g_ptr_array_index (history->redo, history->redo->len - 1);
  return step->label;
}

gboolean
qd_history_undo (QdHistory *history,
                 gpointer   target)
{
  QdStep *step;

  /* Undoing in the middle of a transaction would tear it apart. */
  if (history->depth > 0 || history->undo->len == 0)
    return FALSE;

  step = g_ptr_array_steal_index (history->undo, history->undo->len - 1);
  for (guint i = step->edits->len; i > 0; i--)
    {
      QdEdit *edit = g_ptr_array_index (step->edits, i - 1);

      edit->klass->apply (edit, target, TRUE);
    }
  g_ptr_array_add (history->redo, step);
  return TRUE;
}

gboolean
qd_history_redo (QdHistory *history,
                 gpointer   target)
{
  QdStep *step;

  if (history->depth > 0 || history->redo->len == 0)
    return FALSE;

  step = g_ptr_array_steal_index (history->redo, history->redo->len - 1);
  for (guint i = 0; i < step->edits->len; i++)
    {
      QdEdit *edit = g_ptr_array_index (step->edits, i);

      edit->klass->apply (edit, target, FALSE);
    }
  g_ptr_array_add (history->undo, step);
  return TRUE;
}

guint64
qd_history_get_state (QdHistory *history)
{
  QdStep *step;

  if (history->undo->len == 0)
    return 0;
  step = g_ptr_array_index (history->undo, history->undo->len - 1);
  return step->serial;
}

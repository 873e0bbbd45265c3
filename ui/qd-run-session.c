/* qd-run-session.c: running the editor's diagram and showing the results
 *
 * The session is the glue between the document, the runner and the
 * widgets that show a run: it never touches the simulation while the
 * worker runs it, except through what the runner's thread rules allow
 * (the traces, read by the plots on their frame clock, and the progress
 * figures). Statistics are read only once the runner has let go of the
 * simulation (paused or over).
 */
#include <glib/gi18n-lib.h>
#include <string.h>

#include "qd-run-memory.h"
#include "qd-run-session.h"
#include "qd-run-session-private.h"
#include "qd-settings.h"



enum
{
  SIGNAL_PROGRESS,
  SIGNAL_FINISHED,
  SIGNAL_BREAK_REQUESTED,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE (QdRunSession, qd_run_session, G_TYPE_OBJECT)

static void
show_messages_page (QdRunSession *self)
{
  int num;

  if (self->notebook == NULL || self->messages == NULL)
    return;
  num = gtk_notebook_page_num (self->notebook, GTK_WIDGET (self->messages));
  if (num >= 0)
    gtk_notebook_set_current_page (self->notebook, num);
}

/* The value of each displayable block's trace at the run's time (its
 * last segment evaluated there), as its badge: the canvas draws it in
 * place of the block's glyph. */
static void
add_display_values (QdRunSession *self,
                    GHashTable   *badges)
{
  GHashTableIter iter;
  gpointer id, trace;
  QdRunnerProgress progress = { 0 };

  if (self->displays == NULL || self->runner == NULL)
    return;
  qd_runner_get_progress (self->runner, &progress);
  g_hash_table_iter_init (&iter, self->displays);
  while (g_hash_table_iter_next (&iter, &id, &trace))
    {
      guint token = qd_trace_read_begin (trace);
      gsize len = qd_trace_get_length (trace);

      if (len > qd_trace_get_first (trace))
        {
          const QdSignal *last = qd_trace_get (trace, len - 1);

          g_hash_table_insert (badges, g_strdup (id),
                               g_strdup_printf ("%.6g", qd_signal_eval (last, MAX (last->t, progress.time))));
        }
      qd_trace_read_end (trace, token);
    }
}

static void
update_displays (QdRunSession *self)
{
  g_autoptr(GHashTable) badges = NULL;

  if (self->canvas == NULL || self->displays == NULL
      || g_hash_table_size (self->displays) == 0)
    return;
  badges = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  add_display_values (self, badges);
  qd_canvas_set_block_badges (self->canvas, badges);
}

static void
update_stats (QdRunSession *self)
{
  QdSimulation *sim;

  if (self->runner == NULL)
    return;
  sim = qd_runner_get_simulation (self->runner);
  qd_stats_view_set_simulation (self->stats, sim);
  qd_event_view_update (self->events);
  if (self->canvas != NULL && self->document != NULL)
    {
      g_autoptr(GHashTable) badges = qd_stats_view_dup_badges (self->stats, self->document);
      g_autoptr(GHashTable) reported = qd_stats_view_dup_reported (self->stats, self->document);

      add_display_values (self, badges);
      qd_canvas_set_block_badges (self->canvas, badges);
      qd_canvas_set_block_reported (self->canvas, reported);
    }
}

/* A run-time error as a row of the messages panel, linked to the block
 * its message starts with ("/Division: at t = 0 ..."). */
static void
report_run_error (QdRunSession *self,
                  const GError *error)
{
  QdSimulation *sim = qd_runner_get_simulation (self->runner);
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  const char *path = "";
  const char *message = error->message;
  const char *block_id = NULL;
  gsize best = 0;
  guint n = qd_simulation_get_n_atomics (sim);

  for (guint i = 0; i < n; i++)
    {
      const char *p = qd_simulation_get_atomic (sim, i)->path;
      gsize len = strlen (p);

      /* The longest match wins: "/A/B" before "/A". */
      if (len > best && strncmp (error->message, p, len) == 0
          && error->message[len] == ':' && error->message[len + 1] == ' ')
        {
          best = len;
          path = p;
          message = error->message + len + 2;
        }
    }
  if (best > 0 && self->document != NULL)
    {
      QdBlock *block = qd_document_find_block_by_path (self->document, path);

      if (block != NULL)
        block_id = block->id;
    }
  g_ptr_array_add (problems, qd_problem_new (error->code, path, block_id, "%s", message));
  if (self->messages != NULL)
    qd_messages_view_set_problems (self->messages, problems);
  show_messages_page (self);
}

/* The worker sets PAUSED only once it has let go of the simulation, so
 * whoever hears "progress" in that state finds the statistics of the
 * pause already read, even before the state's notification arrives. */
static void
on_runner_progress (QdRunner     *runner,
                    QdRunSession *self)
{
  if (qd_runner_get_state (runner) == QD_RUNNER_PAUSED)
    update_stats (self);
  g_signal_emit (self, signals[SIGNAL_PROGRESS], 0);
}

static void
on_runner_state (QdRunner     *runner,
                 GParamSpec   *pspec,
                 QdRunSession *self)
{
  on_runner_progress (runner, self);
}

static void
on_runner_finished (QdRunner      *runner,
                    QdRunnerState  state,
                    const GError  *error,
                    QdRunSession  *self)
{
  update_stats (self);
  if (state == QD_RUNNER_FAILED && error != NULL)
    report_run_error (self, error);
  g_signal_emit (self, signals[SIGNAL_FINISHED], 0, state, error);
  g_signal_emit (self, signals[SIGNAL_PROGRESS], 0);
}

#define POLL_INTERVAL_MS 50

static gboolean
poll_timeout (gpointer user_data)
{
  QdRunSession *self = user_data;
  QdRunnerState state;

  if (self->runner == NULL)
    {
      self->poll_id = 0;
      return G_SOURCE_REMOVE;
    }
  state = qd_runner_get_state (self->runner);
  if (state == QD_RUNNER_RUNNING)
    update_displays (self);
  if (state == self->polled_state)
    return G_SOURCE_CONTINUE;
  self->polled_state = state;
  if (state == QD_RUNNER_RUNNING)
    return G_SOURCE_CONTINUE;
  /* Paused or over: the worker has let go of the simulation. */
  update_stats (self);
  g_signal_emit (self, signals[SIGNAL_PROGRESS], 0);
  /* Nothing changes until the next command, which polls again. */
  self->poll_id = 0;
  return G_SOURCE_REMOVE;
}

static void
start_polling (QdRunSession *self)
{
  if (self->poll_id != 0 || self->runner == NULL)
    return;
  self->polled_state = QD_RUNNER_RUNNING;
  self->poll_id = g_timeout_add (POLL_INTERVAL_MS, poll_timeout, self);
}

static void
stop_polling (QdRunSession *self)
{
  g_clear_handle_id (&self->poll_id, g_source_remove);
}

static void
drop_runner (QdRunSession *self)
{
  stop_polling (self);
  if (self->runner == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->runner, self);
  /* The last reference stops the worker and waits for it. */
  g_clear_object (&self->runner);
}

static gboolean
runner_is_over (QdRunSession *self)
{
  QdRunnerState state;

  if (self->runner == NULL)
    return TRUE;
  state = qd_runner_get_state (self->runner);
  return state == QD_RUNNER_FINISHED || state == QD_RUNNER_STOPPED
         || state == QD_RUNNER_FAILED;
}

/* Compiles the document and sets up the plots; FALSE (with the problems
 * listed) when the model cannot run. */
/* The traces of all the runs kept share one memory budget, the
 * application preference trace-memory-budget (MiB, 0: none). It is a
 * preference and not a model setting: how much memory a machine gives
 * to plots is the user's decision, not the model file's. Without the
 * schema the schema's default applies. */
static void
share_trace_budget (QdRunSession *self,
                    GPtrArray    *traces)
{
  g_autoptr(GSettings) settings = qd_settings_new_if_installed ();
  g_autoptr(GSettingsSchema) schema = NULL;
  guint mib = 512;

  /* An installed schema older than the key: its default. */
  if (settings != NULL)
    g_object_get (settings, "settings-schema", &schema, NULL);
  if (schema != NULL && g_settings_schema_has_key (schema, "trace-memory-budget"))
    mib = g_settings_get_uint (settings, "trace-memory-budget");
  qd_run_memory_set_limit (self->memory, (gsize) mib << 20);
  qd_run_memory_begin_run (self->memory, traces);
}

static void
on_run_decimated (QdRunMemory   *memory,
                  QdTraceBudget *budget,
                  QdRunSession  *self)
{
  for (guint i = 0; i < self->pages->len; i++)
    qd_plot_mark_run_decimated (((ScopePage *) g_ptr_array_index (self->pages, i))->plot,
                                budget);
}

static void
on_run_dropped (QdRunMemory   *memory,
                QdTraceBudget *budget,
                QdRunSession  *self)
{
  for (guint i = 0; i < self->pages->len; i++)
    {
      ScopePage *page = g_ptr_array_index (self->pages, i);

      if (qd_plot_drop_run (page->plot, budget))
        {
          page->n_dropped++;
          qd_run_page_update_dropped_label (page);
        }
    }
}

/* Numbers the new run and says in each plot's legend what differs
 * between the runs it shows. */
static void
note_runs (QdRunSession *self)
{
  guint number = qd_run_notes_add (self->notes, self->document);

  for (guint i = 0; i < self->pages->len; i++)
    {
      QdPlot *plot = ((ScopePage *) g_ptr_array_index (self->pages, i))->plot;

      qd_plot_set_run_info (plot, number, NULL);
      for (guint n = number + 1 - qd_run_notes_get_n (self->notes); n <= number; n++)
        {
          g_autofree char *note = qd_run_notes_describe (self->notes, n);

          qd_plot_set_run_note (plot, n, note);
        }
    }
}

static gboolean
prepare_run (QdRunSession *self)
{
  g_autoptr(GPtrArray) problems = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  QdSimulation *sim;
  GPtrArray *traces;
  guint n;

  if (self->document == NULL)
    return FALSE;

  problems = g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  sim = qd_simulation_new (self->document, NULL, problems, &error);
  if (sim == NULL)
    {
      if (problems->len == 0 && error != NULL)
        g_ptr_array_add (problems, qd_problem_new (error->code, "", NULL, "%s", error->message));
      if (self->messages != NULL)
        qd_messages_view_set_problems (self->messages, problems);
      show_messages_page (self);
      return FALSE;
    }
  /* A model that compiles has no problems left to show. */
  if (self->messages != NULL)
    qd_messages_view_set_problems (self->messages, problems);

  drop_runner (self);
  qd_stats_view_set_simulation (self->stats, NULL);
  /* Before the runner has it: the log is set before the first event. */
  qd_event_view_record (self->events, sim);
  if (self->canvas != NULL)
    {
      qd_canvas_set_block_badges (self->canvas, NULL);
      qd_canvas_set_block_reported (self->canvas, NULL);
    }

  /* One plot per Scope block, keyed by its path so that a new run of
   * the same diagram overlays the earlier ones on the same plot. */
  for (guint i = 0; i < self->pages->len; i++)
    ((ScopePage *) g_ptr_array_index (self->pages, i))->used = FALSE;
  traces = qd_simulation_get_traces (sim);
  n = qd_simulation_get_n_atomics (sim);
  g_hash_table_remove_all (self->displays);
  for (guint i = 0; i < n; i++)
    {
      const QdAtomic *atomic = qd_simulation_get_atomic (sim, i);
      gsize len = strlen (atomic->path);
      QdBlock *block;

      if (atomic->type == NULL || !(atomic->type->flags & QD_BLOCK_DISPLAY)
          || (block = qd_document_find_block_by_path (self->document, atomic->path)) == NULL)
        continue;
      for (guint k = 0; k < traces->len; k++)
        {
          QdTrace *trace = g_ptr_array_index (traces, k);
          const char *name = qd_trace_get_name (trace);

          if (strncmp (name, atomic->path, len) == 0 && name[len] == '/')
            {
              g_hash_table_insert (self->displays, g_strdup (block->id), qd_trace_ref (trace));
              break;
            }
        }
    }
  for (guint i = 0; i < n; i++)
    {
      const QdAtomic *atomic = qd_simulation_get_atomic (sim, i);
      gsize len = strlen (atomic->path);
      ScopePage *page;

      if (atomic->type == NULL || (atomic->type->flags & QD_BLOCK_PLOT) == 0)
        continue;
      page = qd_run_page_find (self, atomic->path);
      if (page == NULL)
        {
          if (self->pages->len == 0)
            qd_run_page_make_room (self);
          page = qd_run_page_new (self, atomic->path);
          g_ptr_array_add (self->pages, page);
        }
      page->used = TRUE;
      qd_plot_begin_run (page->plot);
      qd_plot_set_time_range_hint (page->plot, qd_simulation_get_start_time (sim),
                                   qd_simulation_get_final_time (sim));
      g_ptr_array_set_size (names, 0);
      for (guint k = 0; k < traces->len; k++)
        {
          QdTrace *trace = g_ptr_array_index (traces, k);
          const char *name = qd_trace_get_name (trace);

          if (strncmp (name, atomic->path, len) == 0 && name[len] == '/'
              && strchr (name + len + 1, '/') == NULL)
            {
              qd_plot_add_trace (page->plot, trace, name + len + 1, NULL);
              g_ptr_array_add (names, (gpointer) (name + len + 1));
            }
        }
      qd_run_page_layout_apply (page, names);
      /* XY needs two traces; a plot that had them may have lost one. */
      gtk_widget_set_visible (page->xy_button, qd_plot_get_n_traces (page->plot) >= 2);
      if (qd_plot_get_n_traces (page->plot) < 2)
        gtk_toggle_button_set_active (GTK_TOGGLE_BUTTON (page->xy_button), FALSE);
      else if (gtk_toggle_button_get_active (GTK_TOGGLE_BUTTON (page->xy_button)))
        qd_plot_set_xy (page->plot, 0, 1);
    }
  /* Scopes deleted since the last run take their plots with them. */
  for (guint i = self->pages->len; i > 0; i--)
    if (!((ScopePage *) g_ptr_array_index (self->pages, i - 1))->used)
      g_ptr_array_remove_index (self->pages, i - 1);
  note_runs (self);
  qd_run_page_offer_signals (self, traces);
  /* Once the plots hold the earlier runs (and no more than they show). */
  share_trace_budget (self, traces);

  self->runner = qd_runner_new (sim);
  qd_runner_set_realtime (self->runner, self->realtime, self->speed);
  g_signal_connect (self->runner, "progress", G_CALLBACK (on_runner_progress), self);
  g_signal_connect (self->runner, "notify::state", G_CALLBACK (on_runner_state), self);
  g_signal_connect (self->runner, "finished", G_CALLBACK (on_runner_finished), self);

  /* Show the first plot: that is what the user pressed Run to see. */
  if (self->pages->len > 0 && self->notebook != NULL)
    {
      ScopePage *first = g_ptr_array_index (self->pages, 0);
      int num = gtk_notebook_page_num (self->notebook, first->page);

      if (num >= 0)
        gtk_notebook_set_current_page (self->notebook, num);
    }
  return TRUE;
}

static void
remove_page (QdRunSession *self,
             GtkWidget    *page)
{
  int num;

  if (self->notebook == NULL || page == NULL)
    return;
  num = gtk_notebook_page_num (self->notebook, page);
  if (num >= 0)
    gtk_notebook_remove_page (self->notebook, num);
}

static void
qd_run_session_dispose (GObject *object)
{
  QdRunSession *self = QD_RUN_SESSION (object);

  /* The runner first: its simulation calls the event view. */
  drop_runner (self);
  if (self->pages != NULL)
    g_ptr_array_set_size (self->pages, 0);
  remove_page (self, GTK_WIDGET (self->stats));
  remove_page (self, GTK_WIDGET (self->events));
  g_clear_object (&self->stats);
  g_clear_object (&self->events);
  g_clear_weak_pointer (&self->notebook);
  g_clear_weak_pointer (&self->messages);
  g_clear_weak_pointer (&self->canvas);
  g_clear_object (&self->document);
  if (self->memory != NULL)
    g_signal_handlers_disconnect_by_data (self->memory, self);
  g_clear_object (&self->memory);
  g_clear_pointer (&self->notes, qd_run_notes_free);

  G_OBJECT_CLASS (qd_run_session_parent_class)->dispose (object);
}

static void
qd_run_session_finalize (GObject *object)
{
  QdRunSession *self = QD_RUN_SESSION (object);

  g_ptr_array_unref (self->pages);
  g_hash_table_unref (self->displays);

  G_OBJECT_CLASS (qd_run_session_parent_class)->finalize (object);
}

static void
qd_run_session_class_init (QdRunSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = qd_run_session_dispose;
  object_class->finalize = qd_run_session_finalize;

  /* The progress or the state of the current run changed, or a new run
   * replaced it: read qd_run_session_get_progress(). */
  signals[SIGNAL_PROGRESS] =
    g_signal_new ("progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
  /* The current run is over: its final state and, when it failed, the
   * error (owned by the runner). */
  signals[SIGNAL_FINISHED] =
    g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 2,
                  QD_TYPE_RUNNER_STATE, G_TYPE_POINTER);
  /* A plot or the run bar asks for a breakpoint (qd_run_session_request_break()):
   * its kind (QdBreakKind), block path (or NULL), output port and value. */
  signals[SIGNAL_BREAK_REQUESTED] =
    g_signal_new ("break-requested", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 4,
                  G_TYPE_UINT, G_TYPE_STRING, G_TYPE_UINT, G_TYPE_DOUBLE);
}

static void
qd_run_session_init (QdRunSession *self)
{
  self->pages = g_ptr_array_new_with_free_func (qd_run_page_free);
  self->displays = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                          (GDestroyNotify) qd_trace_unref);
  self->speed = 1.0;
  self->memory = qd_run_memory_new ();
  self->notes = qd_run_notes_new ();
  g_signal_connect (self->memory, "decimated", G_CALLBACK (on_run_decimated), self);
  g_signal_connect (self->memory, "dropped", G_CALLBACK (on_run_dropped), self);
}

QdRunSession *
qd_run_session_new (GtkNotebook    *notebook,
                    QdMessagesView *messages,
                    QdCanvas       *canvas)
{
  QdRunSession *self;
  GtkWidget *label;

  g_return_val_if_fail (GTK_IS_NOTEBOOK (notebook), NULL);
  g_return_val_if_fail (messages == NULL || QD_IS_MESSAGES_VIEW (messages), NULL);
  g_return_val_if_fail (canvas == NULL || QD_IS_CANVAS (canvas), NULL);

  self = g_object_new (QD_TYPE_RUN_SESSION, NULL);
  g_set_weak_pointer (&self->notebook, notebook);
  g_set_weak_pointer (&self->messages, messages);
  g_set_weak_pointer (&self->canvas, canvas);

  self->stats = QD_STATS_VIEW (g_object_ref_sink (qd_stats_view_new ()));
  label = gtk_label_new (_("Statistics"));
  gtk_notebook_append_page (notebook, GTK_WIDGET (self->stats), label);
  self->events = QD_EVENT_VIEW (g_object_ref_sink (qd_event_view_new ()));
  label = gtk_label_new (_("Transitions"));
  gtk_notebook_append_page (notebook, GTK_WIDGET (self->events), label);
  return self;
}

void
qd_run_session_set_document (QdRunSession *self,
                             QdDocument   *document)
{
  g_return_if_fail (QD_IS_RUN_SESSION (self));
  g_return_if_fail (document == NULL || QD_IS_DOCUMENT (document));

  if (self->document == document)
    return;
  drop_runner (self);
  g_set_object (&self->document, document);
  g_ptr_array_set_size (self->pages, 0);
  qd_run_memory_clear (self->memory);
  qd_run_notes_clear (self->notes);
  qd_stats_view_set_simulation (self->stats, NULL);
  qd_event_view_record (self->events, NULL);
  if (self->canvas != NULL)
    {
      qd_canvas_set_block_badges (self->canvas, NULL);
      qd_canvas_set_block_reported (self->canvas, NULL);
    }
  g_signal_emit (self, signals[SIGNAL_PROGRESS], 0);
}

QdDocument *
qd_run_session_get_document (QdRunSession *self)
{
  g_return_val_if_fail (QD_IS_RUN_SESSION (self), NULL);

  return self->document;
}

gboolean
qd_run_session_run (QdRunSession *self)
{
  g_return_val_if_fail (QD_IS_RUN_SESSION (self), FALSE);

  if (runner_is_over (self) && !prepare_run (self))
    {
      g_signal_emit (self, signals[SIGNAL_PROGRESS], 0);
      return FALSE;
    }
  qd_runner_run (self->runner);
  start_polling (self);
  on_runner_progress (self->runner, self);
  return TRUE;
}

gboolean
qd_run_session_step (QdRunSession *self,
                     guint64       n_events)
{
  g_return_val_if_fail (QD_IS_RUN_SESSION (self), FALSE);
  g_return_val_if_fail (n_events > 0, FALSE);

  if (runner_is_over (self) && !prepare_run (self))
    {
      g_signal_emit (self, signals[SIGNAL_PROGRESS], 0);
      return FALSE;
    }
  qd_runner_step (self->runner, n_events);
  start_polling (self);
  /* A short step may be over already: its pause is heard with the
   * statistics and transitions it read. */
  on_runner_progress (self->runner, self);
  return TRUE;
}

void
qd_run_session_pause (QdRunSession *self)
{
  g_return_if_fail (QD_IS_RUN_SESSION (self));

  if (self->runner != NULL)
    qd_runner_pause (self->runner);
}

void
qd_run_session_resume (QdRunSession *self)
{
  g_return_if_fail (QD_IS_RUN_SESSION (self));

  if (self->runner != NULL)
    qd_runner_resume (self->runner);
  start_polling (self);
}

void
qd_run_session_stop (QdRunSession *self)
{
  g_return_if_fail (QD_IS_RUN_SESSION (self));

  if (self->runner != NULL)
    qd_runner_stop (self->runner);
}

void
qd_run_session_set_realtime (QdRunSession *self,
                             gboolean      enabled,
                             double        speed)
{
  g_return_if_fail (QD_IS_RUN_SESSION (self));

  self->realtime = enabled;
  self->speed = CLAMP (speed, 0.1, 100.0);
  if (self->runner != NULL)
    qd_runner_set_realtime (self->runner, self->realtime, self->speed);
}

void
qd_run_session_clear_runs (QdRunSession *self)
{
  g_return_if_fail (QD_IS_RUN_SESSION (self));

  for (guint i = 0; i < self->pages->len; i++)
    qd_run_page_clear_runs (g_ptr_array_index (self->pages, i));
  /* What differs is now among the runs still to come and the one shown. */
  qd_run_notes_forget_earlier (self->notes);
}

QdRunMemory *
qd_run_session_get_run_memory (QdRunSession *self)
{
  g_return_val_if_fail (QD_IS_RUN_SESSION (self), NULL);

  return self->memory;
}

const char *
qd_run_session_get_dropped_note (QdRunSession *self,
                                 guint         index)
{
  ScopePage *page;

  g_return_val_if_fail (QD_IS_RUN_SESSION (self), NULL);
  g_return_val_if_fail (index < self->pages->len, NULL);

  page = g_ptr_array_index (self->pages, index);
  if (!gtk_widget_get_visible (GTK_WIDGET (page->dropped_label)))
    return NULL;
  return gtk_label_get_text (page->dropped_label);
}

QdRunner *
qd_run_session_get_runner (QdRunSession *self)
{
  g_return_val_if_fail (QD_IS_RUN_SESSION (self), NULL);

  return self->runner;
}

void
qd_run_session_get_progress (QdRunSession     *self,
                             QdRunnerProgress *progress)
{
  g_return_if_fail (QD_IS_RUN_SESSION (self));
  g_return_if_fail (progress != NULL);

  if (self->runner != NULL)
    qd_runner_get_progress (self->runner, progress);
  else
    memset (progress, 0, sizeof *progress);
}

guint
qd_run_session_get_n_plots (QdRunSession *self)
{
  g_return_val_if_fail (QD_IS_RUN_SESSION (self), 0);

  return self->pages->len;
}

QdPlot *
qd_run_session_get_plot (QdRunSession *self,
                         guint         index)
{
  g_return_val_if_fail (QD_IS_RUN_SESSION (self), NULL);
  g_return_val_if_fail (index < self->pages->len, NULL);

  return ((ScopePage *) g_ptr_array_index (self->pages, index))->plot;
}

QdPlot *
qd_run_session_find_plot (QdRunSession *self,
                          const char   *path)
{
  ScopePage *page;

  g_return_val_if_fail (QD_IS_RUN_SESSION (self), NULL);

  page = qd_run_page_find (self, path);
  return page != NULL ? page->plot : NULL;
}

void
qd_run_session_set_detached (QdRunSession *self,
                             guint         index,
                             gboolean      detached)
{
  ScopePage *page;

  g_return_if_fail (QD_IS_RUN_SESSION (self));
  g_return_if_fail (index < self->pages->len);

  page = g_ptr_array_index (self->pages, index);
  if (detached)
    qd_run_page_detach (page);
  else if (page->window != NULL)
    gtk_window_close (page->window);
}

gboolean
qd_run_session_get_detached (QdRunSession *self,
                             guint         index)
{
  g_return_val_if_fail (QD_IS_RUN_SESSION (self), FALSE);
  g_return_val_if_fail (index < self->pages->len, FALSE);

  return ((ScopePage *) g_ptr_array_index (self->pages, index))->window != NULL;
}

QdPlot *
qd_run_session_get_current_plot (QdRunSession *self)
{
  g_return_val_if_fail (QD_IS_RUN_SESSION (self), NULL);

  if (self->pages->len == 0)
    return NULL;
  if (self->notebook != NULL)
    {
      int num = gtk_notebook_get_current_page (self->notebook);
      GtkWidget *child = num >= 0 ? gtk_notebook_get_nth_page (self->notebook, num) : NULL;

      for (guint i = 0; child != NULL && i < self->pages->len; i++)
        {
          ScopePage *page = g_ptr_array_index (self->pages, i);

          if (page->page == child)
            return page->plot;
        }
    }
  return ((ScopePage *) g_ptr_array_index (self->pages, 0))->plot;
}

QdStatsView *
qd_run_session_get_stats_view (QdRunSession *self)
{
  g_return_val_if_fail (QD_IS_RUN_SESSION (self), NULL);

  return self->stats;
}

QdEventView *
qd_run_session_get_event_view (QdRunSession *self)
{
  g_return_val_if_fail (QD_IS_RUN_SESSION (self), NULL);

  return self->events;
}

void
qd_run_session_request_break (QdRunSession *self,
                              QdBreakKind   kind,
                              const char   *path,
                              guint         port,
                              double        value)
{
  g_return_if_fail (QD_IS_RUN_SESSION (self));

  g_signal_emit (self, signals[SIGNAL_BREAK_REQUESTED], 0, (guint) kind, path, port, value);
}

/* qd-run-bar.c: the run controls of the editor
 *
 * The static chrome comes from qd-run-bar.ui. The bar holds no run state
 * of its own: every command goes to the QdRunSession, and the controls
 * follow the session's "progress" signal at every change of state, and
 * while a run goes on read its progress five times a second on the
 * frame clock, so what they show is always what the runner reports.
 */
#include <inttypes.h>
#include <glib/gi18n-lib.h>

#include <math.h>

#include "qd-run-bar.h"

struct _QdRunBar
{
  GtkWidget        parent_instance;

  /* Template children */
  GtkWidget       *box;
  GtkSpinButton   *step_spin;
  GtkEntry        *final_entry;
  GtkToggleButton *realtime_toggle;
  GtkScale        *speed_scale;
  GtkLabel        *speed_label;
  GtkProgressBar  *progress_bar;
  GtkLabel        *state_label;
  GtkLabel        *rate_label;

  QdRunSession    *session;
  QdDocument      *document;      /* the session's, watched for its final time */
  gulong           document_changed_id;

  GtkFileChooserNative *chooser;

  /* While running, the bar shows the progress five times a second on
   * the frame clock (see progress_tick()), not at every "progress" of
   * the runner: every change of the bar costs a redraw of the window,
   * which with software rendering is processor time taken from the
   * simulation. */
  guint            tick_id;
  gint64           shown_slot;
  QdRunnerState    shown_state;

  /* The keys, on the window the bar is in (see qd_run_bar_root()). */
  GtkEventController *shortcuts;
  GtkWidget          *shortcuts_owner;
  /* The bar's own rate sample, for when the runner's is not fresh. */
  gint64           rate_wall;
  guint64          rate_events;
  double           rate;
};

G_DEFINE_FINAL_TYPE (QdRunBar, qd_run_bar, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_MESSAGE,
  SIGNAL_EDIT_MESSAGE_HIDDEN,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static double
get_speed (QdRunBar *self)
{
  /* One decimal of the exponent is fine enough and gives round figures
   * (1×, 2×, 5×, 10×) near the marks people aim for. */
  double v = round (gtk_range_get_value (GTK_RANGE (self->speed_scale)) * 10) / 10;

  return CLAMP (pow (10.0, v), 0.1, 100.0);
}

static void
update_speed_label (QdRunBar *self)
{
  double speed = get_speed (self);
  char text[32];

  /* TRANSLATORS: a real-time speed factor: "2.5×" */
  g_snprintf (text, sizeof text, _("%.*f×"), speed < 10 ? 1 : 0, speed);
  gtk_label_set_text (self->speed_label, text);
}

static const char *
state_text (QdRunnerState state)
{
  switch (state)
    {
    case QD_RUNNER_IDLE:
      return C_("run state", "Ready");
    case QD_RUNNER_RUNNING:
      return C_("run state", "Running");
    case QD_RUNNER_PAUSED:
      return C_("run state", "Paused");
    case QD_RUNNER_FINISHED:
      return C_("run state", "Finished");
    case QD_RUNNER_STOPPED:
      return C_("run state", "Stopped");
    case QD_RUNNER_FAILED:
      return C_("run state", "Failed");
    default:
      return "";
    }
}

/* "12 s", "3 min 20 s": a rough figure, which is all an estimate is. */
static char *
format_duration (double seconds)
{
  if (seconds < 1)
    return g_strdup (_("less than a second"));
  if (seconds < 60)
    return g_strdup_printf (_("%.0f s"), seconds);
  return g_strdup_printf (_("%.0f min %.0f s"), floor (seconds / 60), fmod (seconds, 60));
}

/* The model's final time into the field; not while the user is typing
 * there, unless @typing_done (the field is being left). */
static void
show_final_time (QdRunBar *self,
                 gboolean  typing_done)
{
  const QdSettings *settings;
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  if (!typing_done
      && (gtk_widget_has_focus (GTK_WIDGET (self->final_entry))
          || gtk_widget_is_focus (gtk_widget_get_first_child (GTK_WIDGET (self->final_entry)))))
    return;
  if (self->document == NULL
      || (settings = qd_document_get_settings (self->document)) == NULL)
    {
      gtk_editable_set_text (GTK_EDITABLE (self->final_entry), "");
      gtk_widget_set_sensitive (GTK_WIDGET (self->final_entry), FALSE);
      return;
    }
  g_ascii_formatd (text, sizeof text, "%g", settings->final_time);
  gtk_widget_remove_css_class (GTK_WIDGET (self->final_entry), "error");
  /* As the inspector's fields: the model's value is not a step that the
   * field's own Ctrl+Z may undo. */
  gtk_editable_set_enable_undo (GTK_EDITABLE (self->final_entry), FALSE);
  gtk_editable_set_text (GTK_EDITABLE (self->final_entry), text);
  gtk_editable_set_enable_undo (GTK_EDITABLE (self->final_entry), TRUE);
  gtk_widget_set_sensitive (GTK_WIDGET (self->final_entry), TRUE);
}

static void
update_final_entry (QdRunBar *self)
{
  show_final_time (self, FALSE);
}

static void
on_document_changed (QdDocument *document,
                     QdRunBar   *self)
{
  update_final_entry (self);
}

static void
watch_document (QdRunBar *self)
{
  QdDocument *document = self->session != NULL ? qd_run_session_get_document (self->session) : NULL;

  if (document == self->document)
    return;
  if (self->document != NULL)
    g_clear_signal_handler (&self->document_changed_id, self->document);
  g_set_object (&self->document, document);
  if (document != NULL)
    self->document_changed_id = g_signal_connect (document, "changed",
                                                  G_CALLBACK (on_document_changed), self);
  update_final_entry (self);
}

static gboolean progress_tick (GtkWidget     *widget,
                               GdkFrameClock *clock,
                               gpointer       user_data);

/* The bar changes at frame times that are multiples of this, which are
 * also the frames in which a growing live plot redraws (it redraws on
 * multiples of 100 ms, see qd-plot.c): GTK 4.8's Cairo renderer draws
 * every widget of the window (clipped to what changed) whenever
 * anything changed, so two changes in one frame cost one such drawing,
 * in two frames two. */
#define PROGRESS_INTERVAL_US 200000

static void
update (QdRunBar *self)
{
  QdRunnerProgress p = { 0 };
  gboolean has_document, has_plot;
  gboolean running, paused;
  g_autofree char *text = NULL;
  char rate[64];

  watch_document (self);
  if (self->session != NULL)
    qd_run_session_get_progress (self->session, &p);
  has_document = self->document != NULL;
  has_plot = self->session != NULL && qd_run_session_get_n_plots (self->session) > 0;
  running = p.state == QD_RUNNER_RUNNING;
  paused = p.state == QD_RUNNER_PAUSED;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "run.start", has_document && !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "run.step", has_document && !running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "run.pause", running);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "run.resume", paused);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "run.toggle-pause", running || paused);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "run.stop", running || paused);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "run.clear-runs", has_plot);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "run.export-csv", has_plot);

  gtk_label_set_text (self->state_label, has_document ? state_text (p.state) : "");
  gtk_progress_bar_set_fraction (self->progress_bar, CLAMP (p.fraction, 0.0, 1.0));

  if (!has_document || self->session == NULL || qd_run_session_get_runner (self->session) == NULL)
    text = g_strdup (has_document ? _("Press Run (F5) to simulate") : "");
  else
    {
      QdSimulation *sim = qd_runner_get_simulation (qd_run_session_get_runner (self->session));
      double final = qd_simulation_get_final_time (sim);
      double left = -1;
      double speed;

      if (running && qd_runner_get_realtime (qd_run_session_get_runner (self->session), &speed)
          && speed > 0)
        left = (final - p.time) / speed;
      else if (running && p.fraction > 0.001 && p.wall_time > 0.5)
        left = p.wall_time * (1 - p.fraction) / p.fraction;

      if (left >= 0)
        {
          g_autofree char *duration = format_duration (left);

          /* TRANSLATORS: the progress bar: simulated time, final time, time left */
          text = g_strdup_printf (_("t = %.4g of %g, %s left"), p.time, final, duration);
        }
      else
        /* TRANSLATORS: the progress bar: simulated time, final time */
        text = g_strdup_printf (_("t = %.4g of %g"), p.time, final);
    }
  gtk_progress_bar_set_text (self->progress_bar, text);

  if (running)
    {
      /* Events per second over the last half second or more of frames;
       * the runner's figure when it has one. */
      gint64 now = g_get_monotonic_time ();

      if (self->rate_wall == 0 || p.events < self->rate_events)
        {
          self->rate_wall = now;
          self->rate_events = p.events;
        }
      else if (now - self->rate_wall >= G_USEC_PER_SEC / 2)
        {
          self->rate = (double) (p.events - self->rate_events) * G_USEC_PER_SEC
                       / (double) (now - self->rate_wall);
          self->rate_wall = now;
          self->rate_events = p.events;
        }
    }
  else
    {
      self->rate_wall = 0;
      self->rate = 0;
    }
  if (running && (p.events_per_second > 0 || self->rate > 0))
    {
      double eps = p.events_per_second > 0 ? p.events_per_second : self->rate;

      if (eps >= 1e6)
        /* TRANSLATORS: simulation speed in millions of events per second */
        g_snprintf (rate, sizeof rate, _("%.1f M events/s"), eps / 1e6);
      else
        /* TRANSLATORS: simulation speed in events per second */
        g_snprintf (rate, sizeof rate, _("%.0f events/s"), eps);
    }
  else if (p.events > 0)
    /* TRANSLATORS: how many events the run executed */
    g_snprintf (rate, sizeof rate,
                ngettext ("%" PRIu64 " event", "%" PRIu64 " events", p.events),
                p.events);
  else
    rate[0] = '\0';
  gtk_label_set_text (self->rate_label, rate);

  self->shown_state = p.state;
  if (running && self->tick_id == 0)
    {
      self->shown_slot = -1;
      self->tick_id = gtk_widget_add_tick_callback (GTK_WIDGET (self), progress_tick, NULL, NULL);
    }
}

static gboolean
progress_tick (GtkWidget     *widget,
               GdkFrameClock *clock,
               gpointer       user_data)
{
  QdRunBar *self = QD_RUN_BAR (widget);
  gint64 slot = gdk_frame_clock_get_frame_time (clock) / PROGRESS_INTERVAL_US;
  QdRunnerProgress p = { 0 };

  if (self->session != NULL)
    qd_run_session_get_progress (self->session, &p);
  if (p.state != QD_RUNNER_RUNNING)
    {
      /* update() would start the ticks again while the state says so. */
      self->tick_id = 0;
      update (self);
      return G_SOURCE_REMOVE;
    }
  if (slot != self->shown_slot)
    {
      self->shown_slot = slot;
      update (self);
    }
  return G_SOURCE_CONTINUE;
}

/* The session's "progress": a change of state shows at once; the
 * figures of a run in progress wait for the timer. */
static void
on_session_progress (QdRunBar *self)
{
  QdRunnerProgress p = { 0 };

  if (self->session != NULL)
    qd_run_session_get_progress (self->session, &p);
  if (p.state == QD_RUNNER_RUNNING && self->shown_state == QD_RUNNER_RUNNING
      && self->tick_id != 0)
    return;
  update (self);
}

static void
apply_realtime (QdRunBar *self)
{
  gboolean on = gtk_toggle_button_get_active (self->realtime_toggle);

  update_speed_label (self);
  gtk_widget_set_sensitive (GTK_WIDGET (self->speed_scale), on);
  if (self->session != NULL)
    qd_run_session_set_realtime (self->session, on, get_speed (self));
}

static void
on_final_activate (GtkEntry *entry,
                   QdRunBar *self)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (entry));
  QdSettings settings;
  g_autoptr(GError) error = NULL;
  char *end = NULL;
  double final;

  if (self->document == NULL)
    return;
  final = g_ascii_strtod (text, &end);
  qd_document_init_settings (&settings);
  {
    const QdSettings *current = qd_document_get_settings (self->document);

    settings.start_time = current->start_time;
    settings.final_time = current->final_time;
    g_free (settings.method);
    settings.method = g_strdup (current->method);
    settings.dqmin = current->dqmin;
    settings.dqrel = current->dqrel;
    settings.illegitimacy_limit = current->illegitimacy_limit;
  }
  if (end == text || *end != '\0' || !isfinite (final) || final <= settings.start_time)
    {
      g_autofree char *message = NULL;

      if (end == text || *end != '\0' || !isfinite (final))
        message = g_strdup_printf (_("Final time: “%s” is not a number; type "
                                     "a time after the start time %g, such as %g"),
                                   text, settings.start_time, settings.final_time);
      else
        message = g_strdup_printf (_("Final time: %s is not after the start "
                                     "time %g; type a larger number"),
                                   text, settings.start_time);
      /* Until the next edit, which a right value here is. */
      g_signal_emit (self, signals[SIGNAL_MESSAGE], 0, GTK_MESSAGE_ERROR, message, TRUE);
      qd_settings_clear (&settings);
      /* Marked until it is right or left: leaving it shows the model's
       * final time again, which the refused text never became. */
      gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
      gtk_widget_error_bell (GTK_WIDGET (entry));
      return;
    }
  settings.final_time = final;
  /* A right value ends the mark here: the field still has the focus, so
   * update_final_entry() below leaves it alone. */
  gtk_widget_remove_css_class (GTK_WIDGET (entry), "error");
  /* The same for a refusal shown: the edit below hides it when it changes
   * the model, but a value typed again as it was changes nothing. */
  g_signal_emit (self, signals[SIGNAL_EDIT_MESSAGE_HIDDEN], 0);
  /* An edit of the model like any other: saved with it, undone by Undo. */
  if (!qd_document_set_settings (self->document, &settings, &error))
    g_signal_emit (self, signals[SIGNAL_MESSAGE], 0, GTK_MESSAGE_ERROR, error->message, FALSE);
  qd_settings_clear (&settings);
  update_final_entry (self);
}

/* Actions */

static void
start_activated (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  QdRunBar *self = QD_RUN_BAR (widget);

  if (self->session != NULL)
    qd_run_session_run (self->session);
}

static void
pause_activated (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  QdRunBar *self = QD_RUN_BAR (widget);

  if (self->session != NULL)
    qd_run_session_pause (self->session);
}

static void
resume_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  QdRunBar *self = QD_RUN_BAR (widget);

  if (self->session != NULL)
    qd_run_session_resume (self->session);
}

static void
toggle_pause_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  QdRunBar *self = QD_RUN_BAR (widget);
  QdRunnerProgress p;

  if (self->session == NULL)
    return;
  qd_run_session_get_progress (self->session, &p);
  if (p.state == QD_RUNNER_RUNNING)
    qd_run_session_pause (self->session);
  else if (p.state == QD_RUNNER_PAUSED)
    qd_run_session_resume (self->session);
}

static void
step_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  QdRunBar *self = QD_RUN_BAR (widget);

  if (self->session != NULL)
    qd_run_session_step (self->session, qd_run_bar_get_step_count (self));
}

static void
stop_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  QdRunBar *self = QD_RUN_BAR (widget);

  if (self->session != NULL)
    qd_run_session_stop (self->session);
}

static void
clear_runs_activated (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  QdRunBar *self = QD_RUN_BAR (widget);

  if (self->session != NULL)
    qd_run_session_clear_runs (self->session);
}

static void
on_export_response (GtkNativeDialog *dialog,
                    int              response,
                    QdRunBar        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
      g_autoptr(GError) error = NULL;

      if (path != NULL && !qd_run_bar_export_csv (self, path, &error))
        g_signal_emit (self, signals[SIGNAL_MESSAGE], 0, GTK_MESSAGE_ERROR,
                       error->message, FALSE);
    }
  gtk_native_dialog_destroy (dialog);
  g_clear_object (&self->chooser);
}

static void
export_csv_activated (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  QdRunBar *self = QD_RUN_BAR (widget);
  GtkRoot *root = gtk_widget_get_root (widget);
  GtkFileFilter *filter;
  QdPlot *plot;
  g_autofree char *name = NULL;

  if (self->session == NULL || (plot = qd_run_session_get_current_plot (self->session)) == NULL)
    return;
  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
      return;
    }
  self->chooser = gtk_file_chooser_native_new (_("Export Results as CSV"),
                                               GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                               GTK_FILE_CHOOSER_ACTION_SAVE,
                                               _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("CSV Files"));
  gtk_file_filter_add_suffix (filter, "csv");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  g_object_unref (filter);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), "results.csv");
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_export_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* Keys */

static const struct
{
  const char *trigger;
  const char *action;
} run_keys[] = {
  { "F5", "run.start" },
  { "F6", "run.toggle-pause" },
  { "F10", "run.step" },
  { "<Shift>F5", "run.stop" },
  { "<Control>e", "run.export-csv" },
};

static gboolean
on_run_key (GtkWidget *widget,
            GVariant  *args,
            gpointer   user_data)
{
  QdRunBar *self = g_object_get_data (G_OBJECT (widget), "qd-run-bar");
  const char *action = user_data;

  if (self == NULL)
    return FALSE;
  gtk_widget_activate_action (GTK_WIDGET (self), action, NULL);
  return TRUE;
}

/* The keys belong to the whole window, in the capture phase: they work
 * wherever the focus is (the canvas, a plot, an entry), as the Run key of
 * any IDE does, and F10 steps instead of opening the main menu. */
static void
qd_run_bar_root (GtkWidget *widget)
{
  QdRunBar *self = QD_RUN_BAR (widget);
  GtkWidget *root;

  GTK_WIDGET_CLASS (qd_run_bar_parent_class)->root (widget);

  root = GTK_WIDGET (gtk_widget_get_root (widget));
  self->shortcuts = gtk_shortcut_controller_new ();
  gtk_event_controller_set_propagation_phase (self->shortcuts, GTK_PHASE_CAPTURE);
  for (guint i = 0; i < G_N_ELEMENTS (run_keys); i++)
    gtk_shortcut_controller_add_shortcut (GTK_SHORTCUT_CONTROLLER (self->shortcuts),
                                          gtk_shortcut_new (gtk_shortcut_trigger_parse_string (run_keys[i].trigger),
                                                            gtk_callback_action_new (on_run_key,
                                                                                     (gpointer) run_keys[i].action,
                                                                                     NULL)));
  g_object_set_data (G_OBJECT (root), "qd-run-bar", self);
  gtk_widget_add_controller (root, self->shortcuts);
  self->shortcuts_owner = root;
}

static void
qd_run_bar_unroot (GtkWidget *widget)
{
  QdRunBar *self = QD_RUN_BAR (widget);

  if (self->shortcuts_owner != NULL)
    {
      if (g_object_get_data (G_OBJECT (self->shortcuts_owner), "qd-run-bar") == self)
        g_object_set_data (G_OBJECT (self->shortcuts_owner), "qd-run-bar", NULL);
      gtk_widget_remove_controller (self->shortcuts_owner, self->shortcuts);
    }
  self->shortcuts = NULL;
  self->shortcuts_owner = NULL;

  GTK_WIDGET_CLASS (qd_run_bar_parent_class)->unroot (widget);
}

static void
qd_run_bar_dispose (GObject *object)
{
  QdRunBar *self = QD_RUN_BAR (object);

  if (self->tick_id != 0)
    {
      gtk_widget_remove_tick_callback (GTK_WIDGET (self), self->tick_id);
      self->tick_id = 0;
    }
  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_clear_object (&self->session);
  if (self->document != NULL)
    g_clear_signal_handler (&self->document_changed_id, self->document);
  g_clear_object (&self->document);
  gtk_widget_dispose_template (GTK_WIDGET (self), QD_TYPE_RUN_BAR);

  G_OBJECT_CLASS (qd_run_bar_parent_class)->dispose (object);
}

static void
qd_run_bar_class_init (QdRunBarClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = qd_run_bar_dispose;
  widget_class->root = qd_run_bar_root;
  widget_class->unroot = qd_run_bar_unroot;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/qdevs/Qdevs/ui/qd-run-bar.ui");
  gtk_widget_class_bind_template_child (widget_class, QdRunBar, box);
  gtk_widget_class_bind_template_child (widget_class, QdRunBar, step_spin);
  gtk_widget_class_bind_template_child (widget_class, QdRunBar, final_entry);
  gtk_widget_class_bind_template_child (widget_class, QdRunBar, realtime_toggle);
  gtk_widget_class_bind_template_child (widget_class, QdRunBar, speed_scale);
  gtk_widget_class_bind_template_child (widget_class, QdRunBar, speed_label);
  gtk_widget_class_bind_template_child (widget_class, QdRunBar, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, QdRunBar, state_label);
  gtk_widget_class_bind_template_child (widget_class, QdRunBar, rate_label);

  gtk_widget_class_install_action (widget_class, "run.start", NULL, start_activated);
  gtk_widget_class_install_action (widget_class, "run.pause", NULL, pause_activated);
  gtk_widget_class_install_action (widget_class, "run.resume", NULL, resume_activated);
  gtk_widget_class_install_action (widget_class, "run.toggle-pause", NULL, toggle_pause_activated);
  gtk_widget_class_install_action (widget_class, "run.step", NULL, step_activated);
  gtk_widget_class_install_action (widget_class, "run.stop", NULL, stop_activated);
  gtk_widget_class_install_action (widget_class, "run.clear-runs", NULL, clear_runs_activated);
  gtk_widget_class_install_action (widget_class, "run.export-csv", NULL, export_csv_activated);

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "qd-run-bar");

  /* The bar reports to whoever holds it (the window), which shows the
   * message: "message" (GtkMessageType type, const char *text, gboolean
   * about_edit), about_edit for a refused edit of the bar's own fields,
   * shown until the next edit; "edit-message-hidden" when such an edit
   * became right, for the message to go. */
  signals[SIGNAL_MESSAGE] =
    g_signal_new ("message", G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 3, GTK_TYPE_MESSAGE_TYPE, G_TYPE_STRING,
                  G_TYPE_BOOLEAN);
  signals[SIGNAL_EDIT_MESSAGE_HIDDEN] =
    g_signal_new ("edit-message-hidden", G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 0);
}

static void
on_final_leave (GtkEventControllerFocus *controller,
                QdRunBar                *self)
{
  show_final_time (self, TRUE);
}

static void
qd_run_bar_init (QdRunBar *self)
{
  GtkEventController *focus;

  gtk_widget_init_template (GTK_WIDGET (self));
  focus = gtk_event_controller_focus_new ();
  g_signal_connect (focus, "leave", G_CALLBACK (on_final_leave), self);
  gtk_widget_add_controller (GTK_WIDGET (self->final_entry), focus);

  g_signal_connect (self->final_entry, "activate", G_CALLBACK (on_final_activate), self);
  gtk_box_insert_child_after (GTK_BOX (self->box), qd_run_bar_break_new (self),
                              GTK_WIDGET (self->final_entry));
  g_signal_connect_swapped (self->realtime_toggle, "toggled", G_CALLBACK (apply_realtime), self);
  g_signal_connect_swapped (self->speed_scale, "value-changed", G_CALLBACK (apply_realtime), self);
  apply_realtime (self);
  update (self);
}

GtkWidget *
qd_run_bar_new (void)
{
  return g_object_new (QD_TYPE_RUN_BAR, NULL);
}

void
qd_run_bar_set_session (QdRunBar     *self,
                        QdRunSession *session)
{
  g_return_if_fail (QD_IS_RUN_BAR (self));
  g_return_if_fail (session == NULL || QD_IS_RUN_SESSION (session));

  if (self->session == session)
    return;
  if (self->session != NULL)
    g_signal_handlers_disconnect_by_data (self->session, self);
  g_set_object (&self->session, session);
  if (session != NULL)
    g_signal_connect_swapped (session, "progress", G_CALLBACK (on_session_progress), self);
  apply_realtime (self);
  update (self);
}

QdRunSession *
qd_run_bar_get_session (QdRunBar *self)
{
  g_return_val_if_fail (QD_IS_RUN_BAR (self), NULL);

  return self->session;
}

void
qd_run_bar_set_step_count (QdRunBar *self,
                           guint     n_events)
{
  g_return_if_fail (QD_IS_RUN_BAR (self));

  gtk_spin_button_set_value (self->step_spin, MAX (n_events, 1));
}

guint
qd_run_bar_get_step_count (QdRunBar *self)
{
  g_return_val_if_fail (QD_IS_RUN_BAR (self), 1);

  return (guint) MAX (gtk_spin_button_get_value_as_int (self->step_spin), 1);
}

gboolean
qd_run_bar_export_csv (QdRunBar    *self,
                       const char  *path,
                       GError     **error)
{
  QdPlot *plot;

  g_return_val_if_fail (QD_IS_RUN_BAR (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  plot = self->session != NULL ? qd_run_session_get_current_plot (self->session) : NULL;
  if (plot == NULL)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("%s: there is no plot to export; add a Scope block and run "
                     "the simulation first"), path);
      return FALSE;
    }
  return qd_plot_export_csv (plot, path, 0.0, error);
}

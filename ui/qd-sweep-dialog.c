/* qd-sweep-dialog.c: Sweep… (main menu) (qd-sweep-dialog.h)
 *
 * Each checked variable becomes the text of a --vary or --dist option,
 * which the engine parses and checks (qd_sweep_add_vary(),
 * qd_sweep_check()), so the dialog and the command line accept the same
 * values and give the same errors. The job (qd-sweep-job.h) runs on its
 * threads; the dialog polls its counters on a timeout, gives the plot
 * the runs done about once a second, and fills the pages once it is
 * finished. Closing the dialog cancels the job, which goes once its last
 * worker has returned.
 */
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "qd-sweep-dialog.h"
#include "qd-export-chooser.h"
#include "qd-table.h"
#include "qd-test-geometry.h"

typedef struct
{
  QdSweepDialog  *dialog;
  char           *name;
  double          value;      /* the variable's value, when a number */
  gboolean        numeric;    /* FALSE: an expression of other variables */
  GtkCheckButton *check;
  GtkDropDown    *kind;
  GtkEntry       *values;
} VarRow;

struct _QdSweepDialog
{
  GtkWindow       parent_instance;

  QdDocument     *document;
  GArray         *vars;          /* VarRow */
  GtkSpinButton  *samples;
  GtkSpinButton  *seed;
  GtkEntry       *final_time;
  GtkSpinButton  *workers;
  GtkCheckButton *model_seeds;
  GtkButton      *run_button;
  GtkLabel       *status;
  GtkProgressBar *progress;
  GtkNotebook    *pages;
  GtkStringList  *signal_names;
  GtkDropDown    *signal;
  GtkLabel       *hover;
  QdEnsemblePlot *plot;
  QdSweepTable   *table;
  GtkListBox     *failed;
  GtkTextBuffer  *summary;
  GPtrArray      *failed_rows;   /* char*: the Failed page's text */
  GtkWidget      *export_plot;
  GtkWidget      *export_table;
  GtkNativeDialog *chooser;
  gboolean        chooser_csv;

  QdSweepJob     *job;
  gint64          started;       /* monotonic time of the start */
  gint64          plotted_at;    /* when the plot last took the runs done */
  guint64         n_plotted;     /* ... and how many there were */
  guint           progress_id;
};

G_DEFINE_FINAL_TYPE (QdSweepDialog, qd_sweep_dialog, GTK_TYPE_WINDOW)

enum { SIGNAL_FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* The kinds in the order of QdSweepKind: the drop-down's entries and
 * what the values entry expects. */
static const struct
{
  const char *label;
  const char *hint;
} kinds[] = {
  { N_("Range"), N_("from:to:count") },
  { N_("Log range"), N_("from:to:count") },
  { N_("List"), N_("v1, v2, v3") },
  { N_("Normal"), N_("mean, sd") },
  { N_("Uniform"), N_("low, high") },
  { N_("Lognormal"), N_("mu, sigma of the log") },
};

/* ---- the variables -------------------------------------------------- */

/* Values to start from for @kind around the variable's value, so that a
 * first sweep needs only a click. */
static char *
default_values (const VarRow *row,
                QdSweepKind   kind)
{
  double v = row->value;
  double a = v != 0.0 ? fabs (v) : 1.0;

  /* Values around a made-up number would mislead: the user gives them. */
  if (!row->numeric)
    return g_strdup ("");
  switch (kind)
    {
    case QD_SWEEP_KIND_RANGE:
      return g_strdup_printf ("%g:%g:5", v - 0.5 * a, v + 0.5 * a);
    case QD_SWEEP_KIND_LOG_RANGE:
      return g_strdup_printf ("%g:%g:5", a / 10.0, a * 10.0);
    case QD_SWEEP_KIND_LIST:
      return g_strdup_printf ("%g, %g, %g", v - 0.5 * a, v, v + 0.5 * a);
    case QD_SWEEP_KIND_NORMAL:
      return g_strdup_printf ("%g, %g", v, 0.1 * a);
    case QD_SWEEP_KIND_UNIFORM:
      return g_strdup_printf ("%g, %g", v - 0.1 * a, v + 0.1 * a);
    case QD_SWEEP_KIND_LOGNORMAL:
      return g_strdup_printf ("%g, %g", log (a), 0.1);
    default:
      g_return_val_if_reached (g_strdup (""));
    }
}

static void
on_kind_changed (GtkDropDown *drop_down,
                 GParamSpec  *pspec,
                 VarRow      *row)
{
  QdSweepKind kind = gtk_drop_down_get_selected (drop_down);
  g_autofree char *text = default_values (row, kind);

  gtk_editable_set_text (GTK_EDITABLE (row->values), text);
  gtk_entry_set_placeholder_text (row->values, _(kinds[kind].hint));
  /* A distribution draws one value per run: one run would show nothing
   * of it (the engine refuses it). */
  if (kind >= QD_SWEEP_KIND_NORMAL && pspec != NULL
      && gtk_spin_button_get_value_as_int (row->dialog->samples) < 2)
    gtk_spin_button_set_value (row->dialog->samples, 100);
}

/* Typing values means varying the variable. */
static void
on_values_changed (GtkEditable *editable,
                   VarRow      *row)
{
  gtk_widget_remove_css_class (GTK_WIDGET (row->values), "error");
}

static void
on_values_activate (GtkEntry *entry,
                    VarRow   *row)
{
  gtk_check_button_set_active (row->check, TRUE);
}

static GtkWidget *
build_variables (QdSweepDialog *self)
{
  GPtrArray *variables = qd_document_get_variables (self->document);
  GtkGrid *grid = GTK_GRID (gtk_grid_new ());
  g_autoptr(GtkStringList) kind_names = gtk_string_list_new (NULL);

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    gtk_string_list_append (kind_names, _(kinds[k].label));
  gtk_grid_set_row_spacing (grid, 4);
  gtk_grid_set_column_spacing (grid, 8);
  /* Rows hold pointers into the array: its size is fixed first. */
  g_array_set_size (self->vars, variables->len);
  for (guint i = 0; i < variables->len; i++)
    {
      const QdVariable *variable = g_ptr_array_index (variables, i);
      VarRow *row = &g_array_index (self->vars, VarRow, i);
      char *end = NULL;

      row->dialog = self;
      row->name = g_strdup (variable->name);
      row->value = g_ascii_strtod (variable->value, &end);
      row->numeric = end != variable->value && *end == '\0' && isfinite (row->value);
      row->check = GTK_CHECK_BUTTON (gtk_check_button_new_with_label (variable->name));
      {
        /* Where the end-to-end test finds it (qd-test-geometry.h). */
        g_autofree char *name = g_strconcat ("sweep-var:", variable->name, NULL);

        gtk_widget_set_name (GTK_WIDGET (row->check), name);
      }
      gtk_widget_set_tooltip_text (GTK_WIDGET (row->check), variable->value);
      row->kind = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (kind_names)), NULL));
      row->values = GTK_ENTRY (gtk_entry_new ());
      gtk_editable_set_width_chars (GTK_EDITABLE (row->values), 14);
      gtk_widget_set_hexpand (GTK_WIDGET (row->values), TRUE);
      on_kind_changed (row->kind, NULL, row);
      g_signal_connect (row->kind, "notify::selected", G_CALLBACK (on_kind_changed), row);
      g_signal_connect (row->values, "changed", G_CALLBACK (on_values_changed), row);
      g_signal_connect (row->values, "activate", G_CALLBACK (on_values_activate), row);
      gtk_grid_attach (grid, GTK_WIDGET (row->check), 0, (int) i, 1, 1);
      gtk_grid_attach (grid, GTK_WIDGET (row->kind), 1, (int) i, 1, 1);
      gtk_grid_attach (grid, GTK_WIDGET (row->values), 2, (int) i, 1, 1);
    }
  if (variables->len == 0)
    {
      GtkWidget *none = gtk_label_new (_("This model has no variables. Define some in the model's "
                                         "Variables (the inspector, with no block selected) and use "
                                         "them in block parameters; or run the same model many times "
                                         "with different random numbers (Samples below)."));

      gtk_label_set_wrap (GTK_LABEL (none), TRUE);
      gtk_label_set_xalign (GTK_LABEL (none), 0.0f);
      gtk_widget_add_css_class (none, "dim-label");
      gtk_grid_attach (grid, none, 0, 0, 3, 1);
    }
  return qd_table_scroller_new (GTK_WIDGET (grid));
}

/* The option text the command line would take: "m=0.05:0.2:4",
 * "k=normal(1, 0.1)". */
static char *
row_option (const VarRow *row,
            gboolean     *is_dist)
{
  QdSweepKind kind = gtk_drop_down_get_selected (row->kind);
  const char *values = gtk_editable_get_text (GTK_EDITABLE (row->values));
  static const char *const prefixes[] = { "", "log:", "", "normal(", "uniform(", "lognormal(" };

  *is_dist = kind >= QD_SWEEP_KIND_NORMAL;
  return g_strdup_printf ("%s=%s%s%s", row->name, prefixes[kind], values, *is_dist ? ")" : "");
}

gboolean
qd_sweep_dialog_set_variable (QdSweepDialog *self,
                              const char    *name,
                              QdSweepKind    kind,
                              const char    *values)
{
  g_return_val_if_fail (QD_IS_SWEEP_DIALOG (self), FALSE);
  g_return_val_if_fail (kind < G_N_ELEMENTS (kinds), FALSE);

  for (guint i = 0; i < self->vars->len; i++)
    {
      VarRow *row = &g_array_index (self->vars, VarRow, i);

      if (strcmp (row->name, name) != 0)
        continue;
      gtk_check_button_set_active (row->check, TRUE);
      gtk_drop_down_set_selected (row->kind, kind);
      gtk_editable_set_text (GTK_EDITABLE (row->values), values);
      return TRUE;
    }
  return FALSE;
}

void
qd_sweep_dialog_set_options (QdSweepDialog *self,
                             guint          samples,
                             guint64        seed,
                             double         final_time,
                             guint          workers)
{
  gtk_spin_button_set_value (self->samples, samples);
  gtk_spin_button_set_value (self->seed, (double) seed);
  if (!isnan (final_time))
    {
      char text[G_ASCII_DTOSTR_BUF_SIZE];

      gtk_editable_set_text (GTK_EDITABLE (self->final_time),
                             g_ascii_dtostr (text, sizeof text, final_time));
    }
  gtk_spin_button_set_value (self->workers, workers);
}

/* ---- results -------------------------------------------------------- */

static void
clear_failed (QdSweepDialog *self)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->failed))) != NULL)
    gtk_list_box_remove (self->failed, child);
  g_ptr_array_set_size (self->failed_rows, 0);
}

static void
fill_failed (QdSweepDialog *self)
{
  GPtrArray *results = qd_sweep_job_get_results (self->job);

  for (guint i = 0; i < results->len; i++)
    {
      const QdSweepResult *result = g_ptr_array_index (results, i);
      g_autofree char *values = NULL;
      GtkWidget *label;
      char *text;

      if (result->error == NULL)
        continue;
      values = qd_sweep_job_describe_run (self->job, result);
      /* TRANSLATORS: a failed run of a sweep: its number, the values of
       * its variables and why it failed. */
      text = values[0] != '\0'
        ? g_strdup_printf (_("Run %" PRIu64 " (%s): %s"), result->run, values, result->error)
        : g_strdup_printf (_("Run %" PRIu64 ": %s"), result->run, result->error);
      g_ptr_array_add (self->failed_rows, text);
      label = gtk_label_new (text);
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
      gtk_label_set_selectable (GTK_LABEL (label), TRUE);
      gtk_widget_set_margin_top (label, 4);
      gtk_widget_set_margin_bottom (label, 4);
      gtk_widget_set_margin_start (label, 8);
      gtk_widget_set_margin_end (label, 8);
      gtk_list_box_append (self->failed, label);
    }
}

static void
on_signal_selected (GtkDropDown   *drop_down,
                    GParamSpec    *pspec,
                    QdSweepDialog *self)
{
  guint selected = gtk_drop_down_get_selected (drop_down);
  g_autoptr(GPtrArray) done = NULL;

  if (self->job == NULL || selected >= g_list_model_get_n_items (G_LIST_MODEL (self->signal_names)))
    {
      qd_ensemble_plot_set_job (self->plot, NULL, NULL, NULL);
      return;
    }
  if (qd_sweep_job_is_running (self->job))
    {
      done = qd_sweep_job_dup_done (self->job);
      self->n_plotted = done->len;
      self->plotted_at = g_get_monotonic_time ();
    }
  qd_ensemble_plot_set_job (self->plot, self->job, done,
                            gtk_string_list_get_string (self->signal_names, selected));
}

/* While the runs go on, the plot takes those done about once a second:
 * the ensemble builds up as the plot of a single run grows. */
static void
update_live_plot (QdSweepDialog *self)
{
  g_autoptr(GPtrArray) done = NULL;

  if (g_get_monotonic_time () - self->plotted_at < G_USEC_PER_SEC
      || qd_sweep_job_get_n_done (self->job) == self->n_plotted)
    return;
  if (g_list_model_get_n_items (G_LIST_MODEL (self->signal_names)) == 0)
    {
      g_auto(GStrv) names = NULL;

      done = qd_sweep_job_dup_done (self->job);
      names = qd_sweep_job_dup_signals (done);
      gtk_string_list_splice (self->signal_names, 0, 0, (const char *const *) names);
      gtk_drop_down_set_selected (self->signal, 0);
    }
  on_signal_selected (self->signal, NULL, self);
}

gboolean
qd_sweep_dialog_select_signal (QdSweepDialog *self,
                               const char    *signal)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->signal_names));

  for (guint i = 0; i < n; i++)
    if (strcmp (gtk_string_list_get_string (self->signal_names, i), signal) == 0)
      {
        gtk_drop_down_set_selected (self->signal, i);
        return TRUE;
      }
  return FALSE;
}

/* The line over the plot: the run under the pointer, else the one
 * selected in the table, else what to do. */
static void
on_highlight_changed (QdEnsemblePlot *plot,
                      QdSweepDialog  *self)
{
  const char *text = qd_ensemble_plot_get_highlight_text (plot);
  const QdSweepResult *selected = qd_ensemble_plot_get_selected (plot);

  if (text == NULL && selected != NULL && self->job != NULL)
    {
      g_autofree char *values = qd_sweep_job_describe_run (self->job, selected);
      g_autofree char *run = g_strdup_printf (_("Run %" PRIu64 ": %s"), selected->run, values);

      gtk_label_set_text (self->hover, run);
      return;
    }
  gtk_label_set_text (self->hover, text != NULL ? text : _("Point at a run to see its values."));
}

static void
show_results (QdSweepDialog *self)
{
  const char *const *names = qd_sweep_job_get_signals (self->job);

  /* The list first (the same signals as while running: the selection
   * stays), then the plot of every run. */
  if (g_list_model_get_n_items (G_LIST_MODEL (self->signal_names)) != g_strv_length ((char **) names))
    gtk_string_list_splice (self->signal_names, 0,
                            g_list_model_get_n_items (G_LIST_MODEL (self->signal_names)), names);
  on_signal_selected (self->signal, NULL, self);
  qd_sweep_table_set_job (self->table, self->job);
  fill_failed (self);
  {
    g_autofree char *summary = qd_sweep_summary_text (qd_sweep_job_get_results (self->job));

    gtk_text_buffer_set_text (self->summary, summary, -1);
  }
  gtk_widget_set_sensitive (self->export_table, qd_sweep_job_get_results (self->job)->len > 0);
  gtk_widget_set_sensitive (self->export_plot, names[0] != NULL);
}

/* ---- running -------------------------------------------------------- */

static void
set_running (QdSweepDialog *self,
             gboolean       running)
{
  gtk_button_set_label (self->run_button, running ? _("_Cancel") : _("_Run Sweep"));
  gtk_widget_set_visible (GTK_WIDGET (self->progress), running);
}

static gboolean
on_progress (gpointer data)
{
  QdSweepDialog *self = data;
  guint64 n = qd_sweep_job_get_n_runs (self->job);
  guint64 done = qd_sweep_job_get_n_done (self->job);
  double elapsed = (g_get_monotonic_time () - self->started) * 1e-6;
  g_autofree char *text = NULL;

  /* The runs left at the pace so far: a guess, shown once there is one. */
  if (done > 0)
    text = g_strdup_printf (_("Running: %" PRIu64 " of %" PRIu64 " runs done, %" PRIu64
                              " failed, about %.0f s left…"),
                            done, n, qd_sweep_job_get_n_failed (self->job),
                            ceil (elapsed / done * (n - done)));
  else
    text = g_strdup_printf (_("Running: %" PRIu64 " of %" PRIu64 " runs done, %" PRIu64 " failed…"),
                            done, n, qd_sweep_job_get_n_failed (self->job));
  gtk_label_set_text (self->status, text);
  gtk_progress_bar_set_fraction (self->progress, n > 0 ? (double) done / (double) n : 1.0);
  update_live_plot (self);
  return G_SOURCE_CONTINUE;
}

static void
on_job_finished (QdSweepJob    *job,
                 QdSweepDialog *self)
{
  double seconds = (g_get_monotonic_time () - self->started) * 1e-6;
  guint64 n = qd_sweep_job_get_n_runs (job);
  guint64 done = qd_sweep_job_get_n_done (job);
  guint64 failed = qd_sweep_job_get_n_failed (job);
  g_autofree char *text = NULL;

  g_clear_handle_id (&self->progress_id, g_source_remove);
  set_running (self, FALSE);
  if (qd_sweep_job_was_cancelled (job))
    text = g_strdup_printf (_("Cancelled: %" PRIu64 " of %" PRIu64 " runs done, %" PRIu64 " failed."),
                            done, n, failed);
  else
    text = g_strdup_printf (_("%" PRIu64 " runs in %.2f s on %u threads, %" PRIu64 " failed."),
                            n, seconds, qd_sweep_job_get_n_workers (job), failed);
  gtk_label_set_text (self->status, text);
  show_results (self);
  if (failed > 0 && failed == done)
    gtk_notebook_set_current_page (self->pages, 2);
  g_signal_emit (self, signals[SIGNAL_FINISHED], 0);
}

/* The sweep the fields describe, or NULL with the reason in the status
 * line and the faulty entry marked. */
static QdSweep *
build_sweep (QdSweepDialog *self)
{
  QdSweep *sweep = qd_sweep_new ();

  for (guint i = 0; i < self->vars->len; i++)
    {
      VarRow *row = &g_array_index (self->vars, VarRow, i);
      g_autoptr(GError) error = NULL;
      g_autofree char *option = NULL;
      gboolean is_dist;

      if (!gtk_check_button_get_active (row->check))
        continue;
      option = row_option (row, &is_dist);
      if (is_dist ? qd_sweep_add_dist (sweep, option, &error) : qd_sweep_add_vary (sweep, option, &error))
        continue;
      gtk_widget_add_css_class (GTK_WIDGET (row->values), "error");
      gtk_label_set_text (self->status, error->message);
      qd_sweep_free (sweep);
      return NULL;
    }
  qd_sweep_set_samples (sweep, (guint64) gtk_spin_button_get_value_as_int (self->samples));
  qd_sweep_set_seed (sweep, (guint64) gtk_spin_button_get_value (self->seed));
  qd_sweep_set_model_seeds (sweep, gtk_check_button_get_active (self->model_seeds));
  return sweep;
}

static double
parse_final_time (QdSweepDialog *self)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->final_time))));
  char *end = NULL;
  double value;

  if (text[0] == '\0')
    return NAN;
  value = g_ascii_strtod (text, &end);
  /* Not a number: infinity, which the job refuses with a message. */
  return end != text && *end == '\0' ? value : INFINITY;
}

void
qd_sweep_dialog_cancel (QdSweepDialog *self)
{
  if (self->job != NULL && qd_sweep_job_is_running (self->job))
    qd_sweep_job_cancel (self->job);
}

static void
drop_job (QdSweepDialog *self)
{
  if (self->job == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->job, self);
  qd_sweep_dialog_cancel (self);
  g_clear_object (&self->job);
}

void
qd_sweep_dialog_run (QdSweepDialog *self)
{
  g_autoptr(GError) error = NULL;
  QdSweep *sweep;

  g_return_if_fail (QD_IS_SWEEP_DIALOG (self));

  if (self->job != NULL && qd_sweep_job_is_running (self->job))
    {
      qd_sweep_job_cancel (self->job);
      return;
    }
  sweep = build_sweep (self);
  if (sweep == NULL)
    {
      g_signal_emit (self, signals[SIGNAL_FINISHED], 0);
      return;
    }
  drop_job (self);
  qd_ensemble_plot_set_job (self->plot, NULL, NULL, NULL);
  qd_sweep_table_set_job (self->table, NULL);
  gtk_string_list_splice (self->signal_names, 0,
                          g_list_model_get_n_items (G_LIST_MODEL (self->signal_names)), NULL);
  self->n_plotted = 0;
  self->plotted_at = 0;
  clear_failed (self);
  gtk_text_buffer_set_text (self->summary, "", -1);
  gtk_widget_set_sensitive (self->export_table, FALSE);
  gtk_widget_set_sensitive (self->export_plot, FALSE);
  self->job = qd_sweep_job_new (self->document, sweep, parse_final_time (self), 0.0, &error);
  if (self->job == NULL)
    {
      gtk_label_set_text (self->status, error->message);
      g_signal_emit (self, signals[SIGNAL_FINISHED], 0);
      return;
    }
  g_signal_connect (self->job, "finished", G_CALLBACK (on_job_finished), self);
  self->started = g_get_monotonic_time ();
  qd_sweep_job_start (self->job, (guint) gtk_spin_button_get_value_as_int (self->workers));
  set_running (self, TRUE);
  gtk_progress_bar_set_fraction (self->progress, 0.0);
  on_progress (self);
  self->progress_id = g_timeout_add (100, on_progress, self);
}

static void
on_run_clicked (GtkButton     *button,
                QdSweepDialog *self)
{
  qd_sweep_dialog_run (self);
}

/* ---- export --------------------------------------------------------- */

gboolean
qd_sweep_dialog_export_table (QdSweepDialog *self,
                              const char    *path,
                              GError       **error)
{
  g_return_val_if_fail (self->job != NULL && !qd_sweep_job_is_running (self->job), FALSE);
  return qd_sweep_job_write_results (self->job, QD_SWEEP_WRITE_CPU_TIME, path, error);
}

gboolean
qd_sweep_dialog_export_plot (QdSweepDialog *self,
                             const char    *path,
                             GError       **error)
{
  /* What is on the screen, at the size it has there. */
  int width = gtk_widget_get_width (GTK_WIDGET (self->plot));
  int height = gtk_widget_get_height (GTK_WIDGET (self->plot));

  return qd_ensemble_plot_export (self->plot, path, width > 0 ? width : 800,
                                  height > 0 ? height : 500, error);
}

static void
on_chooser_response (GtkNativeDialog *dialog,
                     int              response,
                     QdSweepDialog   *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
      g_autoptr(GError) error = NULL;

      if (path != NULL
          && !(self->chooser_csv ? qd_sweep_dialog_export_table (self, path, &error)
                                 : qd_sweep_dialog_export_plot (self, path, &error)))
        gtk_label_set_text (self->status, error->message);
    }
  gtk_native_dialog_destroy (dialog);
  g_clear_object (&self->chooser);
}

static void
open_chooser (QdSweepDialog *self,
              gboolean       csv)
{
  if (self->chooser != NULL)
    return;
  self->chooser_csv = csv;
  self->chooser = qd_export_chooser_new (GTK_WINDOW (self),
                                         csv ? _("Export Runs as CSV") : _("Export Ensemble Plot"),
                                         csv, csv ? "sweep.csv" : "ensemble.png");
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_chooser_response), self);
  gtk_native_dialog_show (self->chooser);
}

static void
on_export_table_clicked (GtkButton     *button,
                         QdSweepDialog *self)
{
  open_chooser (self, TRUE);
}

static void
on_export_plot_clicked (GtkButton     *button,
                        QdSweepDialog *self)
{
  open_chooser (self, FALSE);
}

/* ---- the widget ----------------------------------------------------- */

static GtkSpinButton *
add_spin (GtkGrid    *grid,
          int         y,
          const char *label,
          double      min,
          double      max,
          double      value)
{
  GtkWidget *title = gtk_label_new_with_mnemonic (label);
  GtkSpinButton *spin = GTK_SPIN_BUTTON (gtk_spin_button_new_with_range (min, max, 1));

  gtk_spin_button_set_digits (spin, 0);
  gtk_spin_button_set_value (spin, value);
  gtk_label_set_xalign (GTK_LABEL (title), 0.0f);
  gtk_label_set_mnemonic_widget (GTK_LABEL (title), GTK_WIDGET (spin));
  gtk_grid_attach (grid, title, 0, y, 1, 1);
  gtk_grid_attach (grid, GTK_WIDGET (spin), 1, y, 1, 1);
  return spin;
}

static GtkWidget *
build_options (QdSweepDialog *self)
{
  GtkGrid *grid = GTK_GRID (gtk_grid_new ());
  const QdSettings *settings = qd_document_get_settings (self->document);
  GtkWidget *title = gtk_label_new_with_mnemonic (_("_Final time"));
  char text[G_ASCII_DTOSTR_BUF_SIZE];
  guint cores = g_get_num_processors ();

  gtk_grid_set_row_spacing (grid, 4);
  gtk_grid_set_column_spacing (grid, 12);
  self->samples = add_spin (grid, 0, _("_Samples per point"), 1, QD_SWEEP_JOB_MAX_RUNS, 1);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->samples),
                               _("Runs per value (or combination of values): each draws its own "
                                 "values of the distributions and its own random numbers"));
  /* Seeds beyond 2^53 would not survive a double: the spin stops there. */
  self->seed = add_spin (grid, 1, _("S_eed"), 0, 9007199254740992.0, 1);
  self->workers = add_spin (grid, 2, _("_Worker threads"), 1, MAX (64u, cores), cores);
  gtk_label_set_xalign (GTK_LABEL (title), 0.0f);
  self->final_time = GTK_ENTRY (gtk_entry_new ());
  gtk_editable_set_text (GTK_EDITABLE (self->final_time),
                         g_ascii_dtostr (text, sizeof text, settings->final_time));
  gtk_label_set_mnemonic_widget (GTK_LABEL (title), GTK_WIDGET (self->final_time));
  gtk_grid_attach (grid, title, 0, 3, 1, 1);
  gtk_grid_attach (grid, GTK_WIDGET (self->final_time), 1, 3, 1, 1);
  self->model_seeds = GTK_CHECK_BUTTON (gtk_check_button_new_with_mnemonic (_("Same _random numbers in every run")));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->model_seeds),
                               _("Keep the seeds of the model's random blocks (common random numbers), "
                                 "to compare values without sampling noise between them"));
  gtk_grid_attach (grid, GTK_WIDGET (self->model_seeds), 0, 4, 2, 1);
  return GTK_WIDGET (grid);
}

static GtkWidget *
build_left (QdSweepDialog *self)
{
  GtkWidget *left = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  GtkWidget *heading = gtk_label_new (_("Variables to vary"));

  gtk_label_set_xalign (GTK_LABEL (heading), 0.0f);
  gtk_widget_add_css_class (heading, "heading");
  gtk_box_append (GTK_BOX (left), heading);
  gtk_box_append (GTK_BOX (left), build_variables (self));
  gtk_box_append (GTK_BOX (left), build_options (self));
  self->run_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("_Run Sweep")));
  gtk_widget_set_name (GTK_WIDGET (self->run_button), "sweep-run");
  gtk_widget_add_css_class (GTK_WIDGET (self->run_button), "suggested-action");
  g_signal_connect (self->run_button, "clicked", G_CALLBACK (on_run_clicked), self);
  gtk_box_append (GTK_BOX (left), GTK_WIDGET (self->run_button));
  gtk_widget_set_margin_start (left, 12);
  gtk_widget_set_margin_top (left, 12);
  gtk_widget_set_margin_bottom (left, 12);
  gtk_widget_set_margin_end (left, 6);
  gtk_widget_set_size_request (left, 360, -1);
  return left;
}

static GtkWidget *
build_ensemble_page (QdSweepDialog *self)
{
  GtkWidget *page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *title = gtk_label_new_with_mnemonic (_("S_ignal:"));

  self->signal_names = gtk_string_list_new (NULL);
  self->signal = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (g_object_ref (self->signal_names)), NULL));
  gtk_label_set_mnemonic_widget (GTK_LABEL (title), GTK_WIDGET (self->signal));
  g_signal_connect (self->signal, "notify::selected", G_CALLBACK (on_signal_selected), self);
  self->hover = GTK_LABEL (gtk_label_new (NULL));
  gtk_label_set_xalign (self->hover, 0.0f);
  gtk_label_set_ellipsize (self->hover, PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (GTK_WIDGET (self->hover), TRUE);
  gtk_widget_add_css_class (GTK_WIDGET (self->hover), "dim-label");
  self->export_plot = gtk_button_new_with_mnemonic (_("Export _Plot…"));
  gtk_widget_set_sensitive (self->export_plot, FALSE);
  g_signal_connect (self->export_plot, "clicked", G_CALLBACK (on_export_plot_clicked), self);
  gtk_box_append (GTK_BOX (bar), title);
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->signal));
  gtk_box_append (GTK_BOX (bar), GTK_WIDGET (self->hover));
  gtk_box_append (GTK_BOX (bar), self->export_plot);
  self->plot = QD_ENSEMBLE_PLOT (qd_ensemble_plot_new ());
  gtk_widget_set_name (GTK_WIDGET (self->plot), "sweep-plot");
  g_signal_connect (self->plot, "highlight-changed", G_CALLBACK (on_highlight_changed), self);
  on_highlight_changed (self->plot, self);
  gtk_box_append (GTK_BOX (page), bar);
  gtk_box_append (GTK_BOX (page), GTK_WIDGET (self->plot));
  gtk_widget_set_margin_top (page, 6);
  return page;
}

/* A run picked in the table stands out in the plot. */
static void
on_run_selected (QdSweepTable  *table,
                 QdSweepDialog *self)
{
  qd_ensemble_plot_set_selected (self->plot, qd_sweep_table_get_selected (table));
  on_highlight_changed (self->plot, self);
}

static GtkWidget *
build_runs_page (QdSweepDialog *self)
{
  GtkWidget *page = gtk_box_new (GTK_ORIENTATION_VERTICAL, 6);
  GtkWidget *bar = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  GtkWidget *hint = gtk_label_new (_("Click a column's header to sort the runs by it."));

  gtk_label_set_xalign (GTK_LABEL (hint), 0.0f);
  gtk_widget_set_hexpand (hint, TRUE);
  gtk_widget_add_css_class (hint, "dim-label");
  self->export_table = gtk_button_new_with_mnemonic (_("Export _Table…"));
  gtk_widget_set_name (self->export_table, "sweep-export-table");
  gtk_widget_set_sensitive (self->export_table, FALSE);
  g_signal_connect (self->export_table, "clicked", G_CALLBACK (on_export_table_clicked), self);
  self->table = QD_SWEEP_TABLE (qd_sweep_table_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->table), TRUE);
  g_signal_connect (self->table, "run-selected", G_CALLBACK (on_run_selected), self);
  gtk_box_append (GTK_BOX (bar), hint);
  gtk_box_append (GTK_BOX (bar), self->export_table);
  gtk_box_append (GTK_BOX (page), bar);
  gtk_box_append (GTK_BOX (page), GTK_WIDGET (self->table));
  gtk_widget_set_margin_top (page, 6);
  return page;
}

/* What qdevs-cli sweep prints: per output, the mean, the spread, the
 * percentiles and the confidence interval of the mean. */
static GtkWidget *
build_summary_page (QdSweepDialog *self)
{
  GtkTextView *view = GTK_TEXT_VIEW (gtk_text_view_new ());

  gtk_text_view_set_editable (view, FALSE);
  gtk_text_view_set_cursor_visible (view, FALSE);
  gtk_text_view_set_monospace (view, TRUE);
  gtk_text_view_set_left_margin (view, 8);
  gtk_text_view_set_top_margin (view, 8);
  self->summary = gtk_text_view_get_buffer (view);
  return qd_table_scroller_new (GTK_WIDGET (view));
}

static GtkWidget *
build_right (QdSweepDialog *self)
{
  GtkWidget *right = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  GtkWidget *runs_tab;

  self->status = qd_table_status_new ();
  gtk_label_set_text (self->status, _("Check the variables to vary, or give a number of samples, "
                                      "then press Run Sweep."));
  gtk_label_set_wrap (self->status, TRUE);
  self->progress = GTK_PROGRESS_BAR (gtk_progress_bar_new ());
  gtk_widget_set_visible (GTK_WIDGET (self->progress), FALSE);
  self->pages = GTK_NOTEBOOK (gtk_notebook_new ());
  gtk_widget_set_vexpand (GTK_WIDGET (self->pages), TRUE);
  gtk_notebook_append_page (self->pages, build_ensemble_page (self),
                            gtk_label_new (_("Ensemble")));
  runs_tab = gtk_label_new (_("Runs"));
  gtk_widget_set_name (runs_tab, "sweep-tab:runs");
  gtk_notebook_append_page (self->pages, build_runs_page (self), runs_tab);
  self->failed = GTK_LIST_BOX (gtk_list_box_new ());
  gtk_list_box_set_selection_mode (self->failed, GTK_SELECTION_NONE);
  gtk_list_box_set_placeholder (self->failed, gtk_label_new (_("No run failed.")));
  gtk_notebook_append_page (self->pages, qd_table_scroller_new (GTK_WIDGET (self->failed)),
                            gtk_label_new (_("Failed")));
  gtk_notebook_append_page (self->pages, build_summary_page (self), gtk_label_new (_("Summary")));
  gtk_box_append (GTK_BOX (right), GTK_WIDGET (self->status));
  gtk_box_append (GTK_BOX (right), GTK_WIDGET (self->progress));
  gtk_box_append (GTK_BOX (right), GTK_WIDGET (self->pages));
  gtk_widget_set_margin_start (right, 6);
  gtk_widget_set_margin_top (right, 12);
  gtk_widget_set_margin_bottom (right, 12);
  gtk_widget_set_margin_end (right, 12);
  gtk_widget_set_hexpand (right, TRUE);
  return right;
}

/* Closing the window during a sweep: stop it; the job goes once its
 * workers have returned, and tells nobody. */
static void
qd_sweep_dialog_unrealize (GtkWidget *widget)
{
  QdSweepDialog *self = QD_SWEEP_DIALOG (widget);

  g_clear_handle_id (&self->progress_id, g_source_remove);
  if (self->job != NULL && qd_sweep_job_is_running (self->job))
    drop_job (self);
  GTK_WIDGET_CLASS (qd_sweep_dialog_parent_class)->unrealize (widget);
}

static void
var_row_clear (gpointer data)
{
  g_free (((VarRow *) data)->name);
}

static void
qd_sweep_dialog_dispose (GObject *object)
{
  QdSweepDialog *self = QD_SWEEP_DIALOG (object);

  g_clear_handle_id (&self->progress_id, g_source_remove);
  drop_job (self);
  if (self->chooser != NULL)
    {
      gtk_native_dialog_destroy (self->chooser);
      g_clear_object (&self->chooser);
    }
  G_OBJECT_CLASS (qd_sweep_dialog_parent_class)->dispose (object);
}

static void
qd_sweep_dialog_finalize (GObject *object)
{
  QdSweepDialog *self = QD_SWEEP_DIALOG (object);

  g_clear_object (&self->document);
  g_clear_object (&self->signal_names);
  g_array_unref (self->vars);
  g_ptr_array_unref (self->failed_rows);
  G_OBJECT_CLASS (qd_sweep_dialog_parent_class)->finalize (object);
}

static void
qd_sweep_dialog_class_init (QdSweepDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  GTK_WIDGET_CLASS (klass)->unrealize = qd_sweep_dialog_unrealize;
  object_class->dispose = qd_sweep_dialog_dispose;
  object_class->finalize = qd_sweep_dialog_finalize;
  signals[SIGNAL_FINISHED] =
    g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
qd_sweep_dialog_init (QdSweepDialog *self)
{
  self->vars = g_array_new (FALSE, TRUE, sizeof (VarRow));
  g_array_set_clear_func (self->vars, var_row_clear);
  self->failed_rows = g_ptr_array_new_with_free_func (g_free);
  gtk_window_set_title (GTK_WINDOW (self), _("Sweep"));
  gtk_window_set_default_size (GTK_WINDOW (self), 1150, 680);
}

GtkWidget *
qd_sweep_dialog_new (GtkWindow  *parent,
                     QdDocument *document)
{
  /* The sweep is of that window's diagram: it goes with the window
   * (and stops its runs, see unrealize). */
  QdSweepDialog *self = g_object_new (QD_TYPE_SWEEP_DIALOG, "transient-for", parent,
                                      "destroy-with-parent", TRUE, NULL);
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  g_autofree char *title = NULL;
  gsize length = 0;
  g_autofree char *data = qd_document_to_data (document, &length);

  /* A snapshot, as a run takes one: the editor may go on changing its
   * document meanwhile. */
  self->document = qd_document_load_data (data, length, qd_document_get_title (document), NULL);
  if (self->document == NULL)
    self->document = g_object_ref (document);
  /* TRANSLATORS: the window title: the sweep of the named diagram. */
  title = g_strdup_printf (_("Sweep — %s"), qd_document_get_title (self->document));
  gtk_window_set_title (GTK_WINDOW (self), title);
  gtk_paned_set_start_child (GTK_PANED (paned), build_left (self));
  gtk_paned_set_end_child (GTK_PANED (paned), build_right (self));
  gtk_paned_set_shrink_start_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_resize_start_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_position (GTK_PANED (paned), 420);
  gtk_window_set_child (GTK_WINDOW (self), paned);
  qd_test_geometry_watch (GTK_WINDOW (self));
  return GTK_WIDGET (self);
}

QdSweepJob *
qd_sweep_dialog_get_job (QdSweepDialog *self)
{
  return self->job;
}

QdSweepTable *
qd_sweep_dialog_get_table (QdSweepDialog *self)
{
  return self->table;
}

QdEnsemblePlot *
qd_sweep_dialog_get_plot (QdSweepDialog *self)
{
  return self->plot;
}

const char *
qd_sweep_dialog_get_status (QdSweepDialog *self)
{
  return gtk_label_get_text (self->status);
}

guint
qd_sweep_dialog_get_n_failed_rows (QdSweepDialog *self)
{
  return self->failed_rows->len;
}

const char *
qd_sweep_dialog_get_failed_row (QdSweepDialog *self,
                                guint          index)
{
  g_return_val_if_fail (index < self->failed_rows->len, NULL);
  return g_ptr_array_index (self->failed_rows, index);
}

char *
qd_sweep_dialog_dup_summary (QdSweepDialog *self)
{
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (self->summary, &start, &end);
  return gtk_text_buffer_get_text (self->summary, &start, &end, FALSE);
}

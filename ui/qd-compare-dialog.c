/* qd-compare-dialog.c: Compare Methods… (main menu) (qd-compare-dialog.h)
 *
 * The comparison runs in a GTask thread; the dialog polls its progress
 * on a timeout and builds the table and the plots once it is done. The
 * task holds the dialog, so closing it during a run cancels the
 * comparison and the dialog goes once the worker has stopped.
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qd-compare-dialog.h"
#include "qd-plot.h"
#include "qd-table.h"

typedef struct
{
  const char     *name;       /* "QSS2", "rk4" */
  GtkCheckButton *check;
  GtkEntry       *options;
} MethodRow;

struct _QdCompareDialog
{
  GtkWindow       parent_instance;

  QdDocument     *document;
  GArray         *methods;      /* MethodRow */
  GtkStringList  *reference_names;
  GtkDropDown    *reference;
  GtkEntry       *reference_options;
  GtkButton      *run_button;
  GtkLabel       *status;
  GtkNotebook    *results;
  GtkGrid        *table;

  QdComparison   *comparison;   /* the one running or shown */
  gboolean        running;
  gboolean        disposed;
  guint           progress_id;
  GPtrArray      *cells;        /* GPtrArray* of char*, per row */
};

G_DEFINE_FINAL_TYPE (QdCompareDialog, qd_compare_dialog, GTK_TYPE_WINDOW)

enum { SIGNAL_FINISHED, N_SIGNALS };
static guint signals[N_SIGNALS];

/* What each method is checked with at first: the usual set. */
static const struct
{
  const char *name;
  const char *options;
  gboolean    checked;
} defaults[] = {
  { "QSS2", "", TRUE },
  { "QSS3", "", TRUE },
  { "LIQSS2", "", TRUE },
  { "rk4", "h=0.01", TRUE },
  { "rkf45", "", TRUE },
  { "cvode-bdf", "", TRUE },
};

/* One colour per method, in order; the reference in grey. */
static const char *const palette[] = {
  "#1c71d8", "#e01b24", "#2ec27e", "#f5c211", "#9141ac",
  "#ff7800", "#00b5ad", "#865e3c", "#c061cb", "#3d3846",
};

static void
find_default (const char  *name,
              const char **options,
              gboolean    *checked)
{
  *options = "";
  *checked = FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (defaults); i++)
    if (strcmp (defaults[i].name, name) == 0)
      {
        *options = defaults[i].options;
        *checked = defaults[i].checked;
      }
}

static void
add_method_row (QdCompareDialog *self,
                GtkGrid         *grid,
                const char      *name,
                const char      *label)
{
  MethodRow row = { name, NULL, NULL };
  const char *options;
  gboolean checked;
  guint y = self->methods->len;

  find_default (name, &options, &checked);
  row.check = GTK_CHECK_BUTTON (gtk_check_button_new_with_label (label));
  gtk_check_button_set_active (row.check, checked);
  row.options = GTK_ENTRY (gtk_entry_new ());
  gtk_editable_set_text (GTK_EDITABLE (row.options), options);
  gtk_entry_set_placeholder_text (row.options,
                                  g_ascii_isupper (name[0]) ? _("dqrel=…,dqmin=…")
                                                            : _("rtol=…,atol=…,h=…"));
  gtk_editable_set_width_chars (GTK_EDITABLE (row.options), 16);
  gtk_grid_attach (grid, GTK_WIDGET (row.check), 0, (int) y, 1, 1);
  gtk_grid_attach (grid, GTK_WIDGET (row.options), 1, (int) y, 1, 1);
  g_array_append_val (self->methods, row);
}

static GtkWidget *
build_method_list (QdCompareDialog *self)
{
  const QdBlockType *integrator = qd_registry_lookup ("integrator");
  int index = integrator != NULL ? qd_block_type_find_param (integrator, "method") : -1;
  GtkGrid *grid = GTK_GRID (gtk_grid_new ());
  const QdClassicMethod *classic;
  guint n_classic;

  gtk_grid_set_row_spacing (grid, 4);
  gtk_grid_set_column_spacing (grid, 12);
  if (index >= 0)
    for (guint i = 0; integrator->params[index].choices[i] != NULL; i++)
      {
        const char *name = integrator->params[index].choices[i];

        add_method_row (self, grid, name, name);
      }
  classic = qd_classic_methods (&n_classic);
  for (guint i = 0; i < n_classic; i++)
    add_method_row (self, grid, classic[i].name, _(classic[i].label));
  return qd_table_scroller_new (GTK_WIDGET (grid));
}

static char *
row_spec (const char *name,
          GtkEntry   *options)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (options))));

  return text[0] != '\0' ? g_strdup_printf ("%s:%s", name, text) : g_strdup (name);
}

/* ---- results ------------------------------------------------------- */

static void
clear_results (QdCompareDialog *self)
{
  GtkWidget *child;

  while (gtk_notebook_get_n_pages (self->results) > 1)
    gtk_notebook_remove_page (self->results, -1);
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->table))) != NULL)
    gtk_grid_remove (self->table, child);
  g_ptr_array_set_size (self->cells, 0);
}

static void
put_cell (QdCompareDialog *self,
          GPtrArray       *row,
          int              x,
          int              y,
          const char      *text,
          gboolean         numeric)
{
  /* Method names and headers whole; a failure's reason may be long. */
  GtkWidget *cell = qd_table_cell_new (numeric, x == 5 ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);

  gtk_label_set_text (GTK_LABEL (cell), text);
  gtk_grid_attach (self->table, cell, x, y, 1, 1);
  if (row != NULL)
    g_ptr_array_add (row, g_strdup (text));
}

static char *
format_error (double value)
{
  return isnan (value) ? g_strdup ("—") : g_strdup_printf ("%.3e", value);
}

static void
fill_table (QdCompareDialog *self)
{
  const char *const *names = qd_comparison_get_signals (self->comparison);
  guint n_signals = g_strv_length ((char **) names);
  const char *headers[] = { N_("Method"), N_("Steps"), N_("Failed"), N_("RHS evals"), N_("CPU (s)") };
  int x = 0;

  for (guint h = 0; h < G_N_ELEMENTS (headers); h++)
    put_cell (self, NULL, x++, 0, _(headers[h]), h > 0);
  for (guint s = 0; s < n_signals; s++)
    {
      g_autofree char *max = g_strdup_printf (_("max error %s"), names[s]);
      g_autofree char *rms = g_strdup_printf (_("RMS error %s"), names[s]);

      put_cell (self, NULL, x++, 0, max, TRUE);
      put_cell (self, NULL, x++, 0, rms, TRUE);
    }
  for (guint i = 0; i < qd_comparison_get_n_runs (self->comparison); i++)
    {
      const QdCompareRun *run = qd_comparison_get_run (self->comparison, i);
      GPtrArray *row = g_ptr_array_new_with_free_func (g_free);
      char number[64];
      int y = (int) i + 1;

      g_ptr_array_add (self->cells, row);
      put_cell (self, row, 0, y, run->name, FALSE);
      g_snprintf (number, sizeof number, "%" G_GUINT64_FORMAT, run->steps);
      put_cell (self, row, 1, y, number, TRUE);
      g_snprintf (number, sizeof number, "%" G_GUINT64_FORMAT, run->failed_steps);
      put_cell (self, row, 2, y, number, TRUE);
      g_snprintf (number, sizeof number, "%" G_GUINT64_FORMAT, run->rhs_evals);
      put_cell (self, row, 3, y, number, TRUE);
      g_snprintf (number, sizeof number, "%.4f", run->cpu_seconds);
      put_cell (self, row, 4, y, number, TRUE);
      if (run->error != NULL)
        {
          g_autofree char *text = g_strdup_printf (_("failed: %s"), run->error);

          put_cell (self, row, 5, y, text, FALSE);
          continue;
        }
      for (guint s = 0; s < n_signals; s++)
        {
          const QdCompareError *e = &g_array_index (run->errors, QdCompareError, s);
          g_autofree char *max = format_error (e->max);
          g_autofree char *rms = format_error (e->rms);

          put_cell (self, row, 5 + 2 * (int) s, y, max, TRUE);
          put_cell (self, row, 6 + 2 * (int) s, y, rms, TRUE);
        }
    }
}

/* The Scope of a trace name "/Plant/Scope/x": "/Plant/Scope". */
static char *
scope_of (const char *signal)
{
  const char *slash = strrchr (signal, '/');

  return slash != NULL && slash != signal ? g_strndup (signal, slash - signal) : g_strdup (signal);
}

static void
add_run_traces (QdPlot             *plot,
                const QdCompareRun *run,
                const char         *scope,
                const char         *color_text)
{
  GdkRGBA color;

  gdk_rgba_parse (&color, color_text);
  for (guint t = 0; run->traces != NULL && t < run->traces->len; t++)
    {
      QdTrace *trace = g_ptr_array_index (run->traces, t);
      g_autofree char *owner = scope_of (qd_trace_get_name (trace));
      g_autofree char *label = NULL;

      if (strcmp (owner, scope) != 0)
        continue;
      /* TRANSLATORS: a legend entry: the signal and the method. */
      label = g_strdup_printf (_("%s (%s)"), qd_trace_get_name (trace) + strlen (scope) + 1,
                               run->name);
      qd_plot_add_trace (plot, trace, label, &color);
    }
}

/* One page per Scope: its signals under every method, overlaid. */
static void
fill_plots (QdCompareDialog *self)
{
  const char *const *names = qd_comparison_get_signals (self->comparison);
  g_autoptr(GPtrArray) scopes = g_ptr_array_new_with_free_func (g_free);

  for (guint s = 0; names[s] != NULL; s++)
    {
      char *scope = scope_of (names[s]);

      if (scopes->len == 0 || strcmp (g_ptr_array_index (scopes, scopes->len - 1), scope) != 0)
        g_ptr_array_add (scopes, scope);
      else
        g_free (scope);
    }
  for (guint k = 0; k < scopes->len; k++)
    {
      const char *scope = g_ptr_array_index (scopes, k);
      QdPlot *plot = QD_PLOT (qd_plot_new ());

      gtk_widget_set_vexpand (GTK_WIDGET (plot), TRUE);
      gtk_widget_set_hexpand (GTK_WIDGET (plot), TRUE);
      add_run_traces (plot, qd_comparison_get_reference (self->comparison), scope, "#9a9996");
      for (guint i = 0; i < qd_comparison_get_n_runs (self->comparison); i++)
        add_run_traces (plot, qd_comparison_get_run (self->comparison, i), scope,
                        palette[i % G_N_ELEMENTS (palette)]);
      gtk_notebook_append_page (self->results, GTK_WIDGET (plot), gtk_label_new (scope));
    }
}

/* ---- running ------------------------------------------------------- */

static void
set_running (QdCompareDialog *self,
             gboolean         running)
{
  self->running = running;
  gtk_button_set_label (self->run_button, running ? _("_Stop") : _("_Run Comparison"));
}

static gboolean
on_progress (gpointer data)
{
  QdCompareDialog *self = data;
  g_autofree char *text = NULL;

  text = g_strdup_printf (_("Running: %u of %u runs done (the reference first)…"),
                          qd_comparison_get_progress (self->comparison),
                          qd_comparison_get_n_runs (self->comparison) + 1);
  gtk_label_set_text (self->status, text);
  return G_SOURCE_CONTINUE;
}

static void
compare_thread (GTask        *task,
                gpointer      source,
                gpointer      task_data,
                GCancellable *cancellable)
{
  GError *error = NULL;

  if (qd_comparison_run (task_data, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
on_compare_done (GObject      *source,
                 GAsyncResult *result,
                 gpointer      data)
{
  QdCompareDialog *self = QD_COMPARE_DIALOG (source);
  g_autoptr(GError) error = NULL;

  g_clear_handle_id (&self->progress_id, g_source_remove);
  if (self->disposed)
    return;
  set_running (self, FALSE);
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    gtk_label_set_text (self->status, error->message);
  else
    {
      g_autofree char *text = g_strdup_printf (_("%u methods against %s"),
                                               qd_comparison_get_n_runs (self->comparison),
                                               qd_comparison_get_reference (self->comparison)->name);

      gtk_label_set_text (self->status, text);
      fill_table (self);
      fill_plots (self);
    }
  g_signal_emit (self, signals[SIGNAL_FINISHED], 0);
}

void
qd_compare_dialog_run (QdCompareDialog *self)
{
  g_autoptr(GPtrArray) specs = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  g_autofree char *reference = NULL;
  g_autoptr(GTask) task = NULL;
  guint selected = gtk_drop_down_get_selected (self->reference);

  if (self->running)
    {
      qd_comparison_cancel (self->comparison);
      return;
    }
  for (guint i = 0; i < self->methods->len; i++)
    {
      MethodRow *row = &g_array_index (self->methods, MethodRow, i);

      if (gtk_check_button_get_active (row->check))
        g_ptr_array_add (specs, row_spec (row->name, row->options));
    }
  g_ptr_array_add (specs, NULL);
  reference = row_spec (gtk_string_list_get_string (self->reference_names, selected),
                        self->reference_options);

  clear_results (self);
  g_clear_pointer (&self->comparison, qd_comparison_free);
  self->comparison = qd_comparison_new (self->document, (const char *const *) specs->pdata,
                                        reference, NULL, &error);
  if (self->comparison == NULL)
    {
      gtk_label_set_text (self->status, error->message);
      g_signal_emit (self, signals[SIGNAL_FINISHED], 0);
      return;
    }
  qd_comparison_set_keep_traces (self->comparison, TRUE);
  set_running (self, TRUE);
  on_progress (self);
  self->progress_id = g_timeout_add (100, on_progress, self);
  task = g_task_new (self, NULL, on_compare_done, NULL);
  g_task_set_task_data (task, self->comparison, NULL);
  g_task_run_in_thread (task, compare_thread);
}

static void
on_run_clicked (GtkButton       *button,
                QdCompareDialog *self)
{
  qd_compare_dialog_run (self);
}

/* ---- the widget ---------------------------------------------------- */

static GtkWidget *
build_reference (QdCompareDialog *self)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 8);
  const QdClassicMethod *classic;
  guint n_classic;

  self->reference_names = gtk_string_list_new (NULL);
  classic = qd_classic_methods (&n_classic);
  for (guint i = 0; i < n_classic; i++)
    gtk_string_list_append (self->reference_names, classic[i].name);
  self->reference = GTK_DROP_DOWN (gtk_drop_down_new (G_LIST_MODEL (self->reference_names), NULL));
  self->reference_options = GTK_ENTRY (gtk_entry_new ());
  gtk_editable_set_text (GTK_EDITABLE (self->reference_options), "rtol=1e-10,atol=1e-12");
  gtk_widget_set_hexpand (GTK_WIDGET (self->reference_options), TRUE);
  gtk_box_append (GTK_BOX (box), gtk_label_new_with_mnemonic (_("Re_ference:")));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->reference));
  gtk_box_append (GTK_BOX (box), GTK_WIDGET (self->reference_options));
  return box;
}

/* Closing the window (gtk_window_destroy() unrealizes it) while the
 * worker runs: the task holds the dialog, so dispose would wait for the
 * worker; stop it now, and show nothing when it returns. */
static void
qd_compare_dialog_unrealize (GtkWidget *widget)
{
  QdCompareDialog *self = QD_COMPARE_DIALOG (widget);

  self->disposed = TRUE;
  g_clear_handle_id (&self->progress_id, g_source_remove);
  if (self->running)
    qd_comparison_cancel (self->comparison);
  GTK_WIDGET_CLASS (qd_compare_dialog_parent_class)->unrealize (widget);
}

static void
qd_compare_dialog_finalize (GObject *object)
{
  QdCompareDialog *self = QD_COMPARE_DIALOG (object);

  g_clear_handle_id (&self->progress_id, g_source_remove);
  g_clear_pointer (&self->comparison, qd_comparison_free);
  g_clear_object (&self->document);
  g_array_unref (self->methods);
  g_ptr_array_unref (self->cells);
  G_OBJECT_CLASS (qd_compare_dialog_parent_class)->finalize (object);
}

static void
qd_compare_dialog_class_init (QdCompareDialogClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  GTK_WIDGET_CLASS (klass)->unrealize = qd_compare_dialog_unrealize;
  object_class->finalize = qd_compare_dialog_finalize;
  signals[SIGNAL_FINISHED] =
    g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
qd_compare_dialog_init (QdCompareDialog *self)
{
  GtkWidget *paned = gtk_paned_new (GTK_ORIENTATION_HORIZONTAL);
  GtkWidget *left = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  GtkWidget *right = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  GtkWidget *heading = gtk_label_new (_("Methods and their options"));
  GtkWidget *table_scroller;

  self->methods = g_array_new (FALSE, FALSE, sizeof (MethodRow));
  self->cells = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);

  gtk_window_set_title (GTK_WINDOW (self), _("Compare Methods"));
  gtk_window_set_default_size (GTK_WINDOW (self), 1100, 640);

  gtk_label_set_xalign (GTK_LABEL (heading), 0.0f);
  gtk_widget_add_css_class (heading, "heading");
  gtk_box_append (GTK_BOX (left), heading);
  gtk_box_append (GTK_BOX (left), build_method_list (self));
  gtk_box_append (GTK_BOX (left), build_reference (self));
  self->run_button = GTK_BUTTON (gtk_button_new_with_mnemonic (_("_Run Comparison")));
  gtk_widget_add_css_class (GTK_WIDGET (self->run_button), "suggested-action");
  g_signal_connect (self->run_button, "clicked", G_CALLBACK (on_run_clicked), self);
  gtk_box_append (GTK_BOX (left), GTK_WIDGET (self->run_button));
  gtk_widget_set_margin_start (left, 12);
  gtk_widget_set_margin_top (left, 12);
  gtk_widget_set_margin_bottom (left, 12);
  gtk_widget_set_margin_end (left, 6);
  gtk_widget_set_size_request (left, 330, -1);

  self->status = qd_table_status_new ();
  gtk_label_set_text (self->status, _("Choose the methods and press Run Comparison: the diagram runs once under each, and once under the reference."));
  gtk_label_set_wrap (self->status, TRUE);
  self->results = GTK_NOTEBOOK (gtk_notebook_new ());
  gtk_notebook_set_scrollable (self->results, TRUE);
  self->table = GTK_GRID (gtk_grid_new ());
  gtk_grid_set_column_spacing (self->table, 16);
  gtk_grid_set_row_spacing (self->table, 4);
  table_scroller = qd_table_scroller_new (GTK_WIDGET (self->table));
  gtk_widget_set_hexpand (table_scroller, TRUE);
  gtk_notebook_append_page (self->results, table_scroller, gtk_label_new (_("Table")));
  gtk_box_append (GTK_BOX (right), GTK_WIDGET (self->status));
  gtk_box_append (GTK_BOX (right), GTK_WIDGET (self->results));
  gtk_widget_set_vexpand (GTK_WIDGET (self->results), TRUE);
  gtk_widget_set_margin_start (right, 6);
  gtk_widget_set_margin_top (right, 12);
  gtk_widget_set_margin_bottom (right, 12);
  gtk_widget_set_margin_end (right, 12);

  gtk_widget_set_hexpand (right, TRUE);
  gtk_paned_set_start_child (GTK_PANED (paned), left);
  gtk_paned_set_end_child (GTK_PANED (paned), right);
  gtk_paned_set_shrink_start_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_resize_start_child (GTK_PANED (paned), FALSE);
  gtk_paned_set_position (GTK_PANED (paned), 440);
  gtk_window_set_child (GTK_WINDOW (self), paned);
}

GtkWidget *
qd_compare_dialog_new (GtkWindow  *parent,
                       QdDocument *document)
{
  QdCompareDialog *self = g_object_new (QD_TYPE_COMPARE_DIALOG,
                                        "transient-for", parent, NULL);
  g_autofree char *data = qd_document_to_data (document, NULL);

  /* A snapshot, as a run takes one: the editor may go on changing its
   * document meanwhile. */
  self->document = qd_document_load_data (data, strlen (data), qd_document_get_title (document), NULL);
  if (self->document == NULL)
    self->document = g_object_ref (document);
  return GTK_WIDGET (self);
}

gboolean
qd_compare_dialog_set_methods (QdCompareDialog   *self,
                               const char *const *specs)
{
  gboolean all = TRUE;

  for (guint i = 0; i < self->methods->len; i++)
    gtk_check_button_set_active (g_array_index (self->methods, MethodRow, i).check, FALSE);
  for (guint k = 0; specs[k] != NULL; k++)
    {
      const char *colon = strchr (specs[k], ':');
      g_autofree char *name = colon != NULL ? g_strndup (specs[k], colon - specs[k]) : g_strdup (specs[k]);
      gboolean found = FALSE;

      for (guint i = 0; i < self->methods->len && !found; i++)
        {
          MethodRow *row = &g_array_index (self->methods, MethodRow, i);

          if (g_ascii_strcasecmp (row->name, name) != 0)
            continue;
          gtk_check_button_set_active (row->check, TRUE);
          gtk_editable_set_text (GTK_EDITABLE (row->options), colon != NULL ? colon + 1 : "");
          found = TRUE;
        }
      all = all && found;
    }
  return all;
}

guint
qd_compare_dialog_get_n_rows (QdCompareDialog *self)
{
  return self->cells->len;
}

const char *
qd_compare_dialog_get_cell (QdCompareDialog *self,
                            guint            row,
                            guint            column)
{
  GPtrArray *cells;

  g_return_val_if_fail (row < self->cells->len, NULL);
  cells = g_ptr_array_index (self->cells, row);
  return column < cells->len ? g_ptr_array_index (cells, column) : NULL;
}

const char *
qd_compare_dialog_get_status (QdCompareDialog *self)
{
  return gtk_label_get_text (self->status);
}

QdComparison *
qd_compare_dialog_get_comparison (QdCompareDialog *self)
{
  g_return_val_if_fail (QD_IS_COMPARE_DIALOG (self), NULL);
  return self->running ? NULL : self->comparison;
}

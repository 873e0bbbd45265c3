/* qd-sweep-table.c: the runs of a sweep, one row each (qd-sweep-table.h)
 *
 * The columns depend on the sweep (its variables, the model's outputs),
 * so a row is not a set of properties but an array of numbers, one per
 * column, and each column sorts through a custom sorter that compares
 * its own entry of the array.
 */
#include <glib/gi18n-lib.h>
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "qd-sweep-table.h"
#include "qd-table.h"

/* ---- a row: one run ------------------------------------------------- */

#define QD_TYPE_SWEEP_ROW (qd_sweep_row_get_type ())
G_DECLARE_FINAL_TYPE (QdSweepRow, qd_sweep_row, QD, SWEEP_ROW, GObject)

struct _QdSweepRow
{
  GObject              parent_instance;

  const QdSweepResult *result;    /* borrowed from the table's job */
  double              *numbers;   /* one per column; NaN for none */
};

G_DEFINE_FINAL_TYPE (QdSweepRow, qd_sweep_row, G_TYPE_OBJECT)

static void
qd_sweep_row_finalize (GObject *object)
{
  g_free (QD_SWEEP_ROW (object)->numbers);
  G_OBJECT_CLASS (qd_sweep_row_parent_class)->finalize (object);
}

static void
qd_sweep_row_class_init (QdSweepRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = qd_sweep_row_finalize;
}

static void
qd_sweep_row_init (QdSweepRow *self)
{
}

/* ---- the table ------------------------------------------------------ */

typedef enum
{
  KIND_RUN,
  KIND_VALUE,      /* a varied variable */
  KIND_OUTPUT,     /* "/Scope/x.final", "/Queue/mean_length" */
  KIND_STEPS,
  KIND_EVENTS,
  KIND_CPU,
  KIND_ERROR,
} Kind;

typedef struct
{
  Kind  kind;
  guint index;     /* KIND_VALUE: the variable; KIND_OUTPUT: the output */
  char *title;
} Column;

struct _QdSweepTable
{
  GtkWidget         parent_instance;

  GtkWidget        *scroller;
  GtkColumnView    *column_view;
  GListStore       *store;
  GtkSortListModel *sorted;
  GtkSingleSelection *selection;
  QdSweepJob       *job;
  GArray           *columns;    /* Column */
};

G_DEFINE_FINAL_TYPE (QdSweepTable, qd_sweep_table, GTK_TYPE_WIDGET)

enum { SIGNAL_RUN_SELECTED, N_SIGNALS };
static guint signals[N_SIGNALS];

static void
column_clear (gpointer data)
{
  g_free (((Column *) data)->title);
}

static void
format_number (const Column *column,
               double        value,
               char         *text,
               gsize         size)
{
  if (isnan (value))
    g_strlcpy (text, "—", size);
  else if (column->kind == KIND_RUN || column->kind == KIND_STEPS || column->kind == KIND_EVENTS)
    g_snprintf (text, size, "%.0f", value);
  else if (column->kind == KIND_CPU)
    g_snprintf (text, size, "%.4f", value);
  else
    g_snprintf (text, size, "%.6g", value);
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  user_data)
{
  gboolean numeric = GPOINTER_TO_INT (user_data);

  gtk_list_item_set_child (item, qd_table_cell_new (numeric, PANGO_ELLIPSIZE_END));
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  QdSweepTable *self = g_object_get_data (G_OBJECT (factory), "table");
  guint c = GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (factory), "column"));
  const Column *column = &g_array_index (self->columns, Column, c);
  QdSweepRow *row = gtk_list_item_get_item (item);
  GtkWidget *label = gtk_list_item_get_child (item);
  char text[64];

  if (column->kind == KIND_ERROR)
    {
      const char *error = row->result->error != NULL ? row->result->error : "";

      gtk_label_set_text (GTK_LABEL (label), error);
      gtk_widget_set_tooltip_text (label, error[0] != '\0' ? error : NULL);
      return;
    }
  format_number (column, row->numbers[c], text, sizeof text);
  gtk_label_set_text (GTK_LABEL (label), text);
}

/* Numbers in order, runs without a value (failed ones) below every
 * number: last when the largest come first. (The column view inverts
 * the result for a descending sort and GTK 4.8 does not tell a sorter
 * which way it goes.) */
static int
compare_rows (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const QdSweepRow *ra = a, *rb = b;
  guint c = GPOINTER_TO_UINT (user_data);
  double x = ra->numbers[c], y = rb->numbers[c];

  if (isnan (x) || isnan (y))
    return isnan (y) - isnan (x);
  return (x > y) - (x < y);
}

static int
compare_errors (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  const char *x = ((const QdSweepRow *) a)->result->error;
  const char *y = ((const QdSweepRow *) b)->result->error;

  return g_strcmp0 (x != NULL ? x : "", y != NULL ? y : "");
}

static void
add_view_column (QdSweepTable *self,
                 guint         c)
{
  const Column *column = &g_array_index (self->columns, Column, c);
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  g_autoptr(GtkColumnViewColumn) view_column = NULL;
  g_autoptr(GtkSorter) sorter = NULL;

  g_object_set_data (G_OBJECT (factory), "table", self);
  g_object_set_data (G_OBJECT (factory), "column", GUINT_TO_POINTER (c));
  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell),
                    GINT_TO_POINTER (column->kind != KIND_ERROR));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), NULL);
  view_column = gtk_column_view_column_new (column->title, factory);
  if (column->kind == KIND_ERROR)
    {
      sorter = GTK_SORTER (gtk_custom_sorter_new (compare_errors, NULL, NULL));
      gtk_column_view_column_set_expand (view_column, TRUE);
    }
  else
    sorter = GTK_SORTER (gtk_custom_sorter_new (compare_rows, GUINT_TO_POINTER (c), NULL));
  gtk_column_view_column_set_sorter (view_column, sorter);
  gtk_column_view_column_set_resizable (view_column, TRUE);
  gtk_column_view_append_column (self->column_view, view_column);
}

static void
add_column (QdSweepTable *self,
            Kind          kind,
            guint         index,
            const char   *title)
{
  Column column = { kind, index, g_strdup (title) };

  g_array_append_val (self->columns, column);
}

/* The outputs of all the runs, in the order they first appear: a failed
 * run has none, and a block may report a statistic in some runs only. */
static GPtrArray *
collect_output_names (GPtrArray *results)
{
  GPtrArray *names = g_ptr_array_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint r = 0; r < results->len; r++)
    {
      const QdSweepResult *result = g_ptr_array_index (results, r);

      for (guint i = 0; i < result->output_names->len; i++)
        if (g_hash_table_add (seen, g_ptr_array_index (result->output_names, i)))
          g_ptr_array_add (names, g_ptr_array_index (result->output_names, i));
    }
  return names;
}

static QdSweepRow *
make_row (QdSweepTable        *self,
          const QdSweepResult *result,
          GPtrArray           *outputs)
{
  QdSweepRow *row = g_object_new (QD_TYPE_SWEEP_ROW, NULL);

  row->result = result;
  row->numbers = g_new (double, self->columns->len);
  for (guint c = 0; c < self->columns->len; c++)
    {
      const Column *column = &g_array_index (self->columns, Column, c);
      double value = NAN;

      switch (column->kind)
        {
        case KIND_RUN:
          value = (double) result->run;
          break;
        case KIND_VALUE:
          value = result->values[column->index];
          break;
        case KIND_OUTPUT:
          for (guint i = 0; i < result->output_names->len; i++)
            if (strcmp (g_ptr_array_index (result->output_names, i),
                        g_ptr_array_index (outputs, column->index)) == 0)
              value = g_array_index (result->outputs, double, i);
          break;
        case KIND_STEPS:
          value = (double) result->integrator_steps;
          break;
        case KIND_EVENTS:
          value = (double) result->events;
          break;
        case KIND_CPU:
          value = result->cpu_s;
          break;
        case KIND_ERROR:
        default:
          break;
        }
      row->numbers[c] = value;
    }
  return row;
}

static void
remove_columns (QdSweepTable *self)
{
  GListModel *columns = gtk_column_view_get_columns (self->column_view);

  while (g_list_model_get_n_items (columns) > 0)
    {
      g_autoptr(GtkColumnViewColumn) column = g_list_model_get_item (columns, 0);

      gtk_column_view_remove_column (self->column_view, column);
    }
  g_array_set_size (self->columns, 0);
}

void
qd_sweep_table_set_job (QdSweepTable *self,
                        QdSweepJob   *job)
{
  GPtrArray *results;
  g_autoptr(GPtrArray) outputs = NULL;
  g_autoptr(GPtrArray) rows = NULL;
  QdSweep *sweep;

  g_return_if_fail (QD_IS_SWEEP_TABLE (self));

  g_list_store_remove_all (self->store);
  remove_columns (self);
  g_set_object (&self->job, job);
  if (job == NULL)
    return;
  results = qd_sweep_job_get_results (job);
  sweep = qd_sweep_job_get_sweep (job);
  outputs = collect_output_names (results);

  /* TRANSLATORS: a column of the sweep's table: the run's number. */
  add_column (self, KIND_RUN, 0, C_("sweep column", "Run"));
  for (guint i = 0; i < qd_sweep_get_n_names (sweep); i++)
    add_column (self, KIND_VALUE, i, qd_sweep_get_name (sweep, i));
  for (guint i = 0; i < outputs->len; i++)
    add_column (self, KIND_OUTPUT, i, g_ptr_array_index (outputs, i));
  add_column (self, KIND_STEPS, 0, _("Steps"));
  add_column (self, KIND_EVENTS, 0, _("Events"));
  add_column (self, KIND_CPU, 0, _("CPU (s)"));
  add_column (self, KIND_ERROR, 0, _("Error"));
  for (guint c = 0; c < self->columns->len; c++)
    add_view_column (self, c);

  rows = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint r = 0; r < results->len; r++)
    g_ptr_array_add (rows, make_row (self, g_ptr_array_index (results, r), outputs));
  g_list_store_splice (self->store, 0, 0, rows->pdata, rows->len);
}

guint
qd_sweep_table_get_n_columns (QdSweepTable *self)
{
  return self->columns->len;
}

const char *
qd_sweep_table_get_column_title (QdSweepTable *self,
                                 guint         column)
{
  g_return_val_if_fail (column < self->columns->len, NULL);
  return g_array_index (self->columns, Column, column).title;
}

int
qd_sweep_table_find_column (QdSweepTable *self,
                            const char   *title)
{
  for (guint c = 0; c < self->columns->len; c++)
    if (strcmp (g_array_index (self->columns, Column, c).title, title) == 0)
      return (int) c;
  return -1;
}

guint
qd_sweep_table_get_n_rows (QdSweepTable *self)
{
  return g_list_model_get_n_items (G_LIST_MODEL (self->sorted));
}

double
qd_sweep_table_get_number (QdSweepTable *self,
                           guint         row,
                           guint         column)
{
  g_autoptr(QdSweepRow) item = g_list_model_get_item (G_LIST_MODEL (self->sorted), row);

  g_return_val_if_fail (item != NULL && column < self->columns->len, NAN);
  return item->numbers[column];
}

char *
qd_sweep_table_dup_cell (QdSweepTable *self,
                         guint         row,
                         guint         column)
{
  g_autoptr(QdSweepRow) item = g_list_model_get_item (G_LIST_MODEL (self->sorted), row);
  const Column *c;
  char text[64];

  g_return_val_if_fail (item != NULL && column < self->columns->len, NULL);
  c = &g_array_index (self->columns, Column, column);
  if (c->kind == KIND_ERROR)
    return g_strdup (item->result->error != NULL ? item->result->error : "");
  format_number (c, item->numbers[column], text, sizeof text);
  return g_strdup (text);
}

const QdSweepResult *
qd_sweep_table_get_selected (QdSweepTable *self)
{
  QdSweepRow *row = gtk_single_selection_get_selected_item (self->selection);

  return row != NULL ? row->result : NULL;
}

void
qd_sweep_table_select (QdSweepTable *self,
                       guint         row)
{
  gtk_single_selection_set_selected (self->selection, row == G_MAXUINT ? GTK_INVALID_LIST_POSITION : row);
}

static void
on_selected_item (GtkSingleSelection *selection,
                  GParamSpec         *pspec,
                  QdSweepTable       *self)
{
  g_signal_emit (self, signals[SIGNAL_RUN_SELECTED], 0);
}

void
qd_sweep_table_sort (QdSweepTable *self,
                     guint         column,
                     GtkSortType   order)
{
  GListModel *columns = gtk_column_view_get_columns (self->column_view);
  g_autoptr(GtkColumnViewColumn) view_column = NULL;

  g_return_if_fail (column < g_list_model_get_n_items (columns));
  view_column = g_list_model_get_item (columns, column);
  gtk_column_view_sort_by_column (self->column_view, view_column, order);
}

static void
qd_sweep_table_dispose (GObject *object)
{
  QdSweepTable *self = QD_SWEEP_TABLE (object);

  /* Emptied as it goes, the table has no run selected to tell of. */
  if (self->selection != NULL)
    g_signal_handlers_disconnect_by_data (self->selection, self);
  g_clear_object (&self->selection);
  g_clear_pointer (&self->scroller, gtk_widget_unparent);
  g_clear_object (&self->store);
  g_clear_object (&self->sorted);
  g_clear_object (&self->job);
  G_OBJECT_CLASS (qd_sweep_table_parent_class)->dispose (object);
}

static void
qd_sweep_table_finalize (GObject *object)
{
  g_array_unref (QD_SWEEP_TABLE (object)->columns);
  G_OBJECT_CLASS (qd_sweep_table_parent_class)->finalize (object);
}

static void
qd_sweep_table_class_init (QdSweepTableClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = qd_sweep_table_dispose;
  object_class->finalize = qd_sweep_table_finalize;
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "qd-sweep-table");
  signals[SIGNAL_RUN_SELECTED] =
    g_signal_new ("run-selected", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
qd_sweep_table_init (QdSweepTable *self)
{
  self->columns = g_array_new (FALSE, FALSE, sizeof (Column));
  g_array_set_clear_func (self->columns, column_clear);
  self->store = g_list_store_new (QD_TYPE_SWEEP_ROW);
  self->column_view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_column_view_set_show_column_separators (self->column_view, TRUE);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->column_view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Runs of the sweep"), -1);
  /* The column view's sorter follows the clicks on the headers. */
  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->store)),
                                          g_object_ref (gtk_column_view_get_sorter (self->column_view)));
  /* Nothing selected until the user picks a run. */
  self->selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->sorted)));
  gtk_single_selection_set_autoselect (self->selection, FALSE);
  gtk_single_selection_set_can_unselect (self->selection, TRUE);
  g_signal_connect (self->selection, "notify::selected-item", G_CALLBACK (on_selected_item), self);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (self->selection));
  self->scroller = qd_table_scroller_new (GTK_WIDGET (self->column_view));
  gtk_widget_set_parent (self->scroller, GTK_WIDGET (self));
}

GtkWidget *
qd_sweep_table_new (void)
{
  return g_object_new (QD_TYPE_SWEEP_TABLE, NULL);
}

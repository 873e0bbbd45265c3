/* qd-stats-view.c: per-block statistics of a run
 *
 * One row object per atomic block, with properties, so that the column
 * view's sorters can compare them through property expressions: text
 * columns sort by collation, the counts numerically (a second click on
 * the header puts the busiest block first). The last column holds what
 * the block itself reported (qd_atomic_set_stat()), one statistic a line.
 */
#include <inttypes.h>
#include <glib/gi18n-lib.h>

#include "qd-stats-view.h"
#include "qd-table.h"

/* A row: one atomic block. */

#define QD_TYPE_STATS_ROW (qd_stats_row_get_type ())
G_DECLARE_FINAL_TYPE (QdStatsRow, qd_stats_row, QD, STATS_ROW, GObject)

struct _QdStatsRow
{
  GObject  parent_instance;

  char    *path;
  char    *type_name;
  gboolean integrator;
  guint64  n_internal;
  guint64  n_external;
  char    *reported;     /* "mean_length = 3.86\nmax_length = 39", or "" */
};

enum
{
  ROW_PROP_0,
  ROW_PROP_PATH,
  ROW_PROP_TYPE_NAME,
  ROW_PROP_INTERNAL,
  ROW_PROP_EXTERNAL,
  ROW_PROP_REPORTED,
  ROW_N_PROPS
};

static GParamSpec *row_properties[ROW_N_PROPS];

G_DEFINE_FINAL_TYPE (QdStatsRow, qd_stats_row, G_TYPE_OBJECT)

static void
qd_stats_row_finalize (GObject *object)
{
  QdStatsRow *self = QD_STATS_ROW (object);

  g_free (self->path);
  g_free (self->type_name);
  g_free (self->reported);

  G_OBJECT_CLASS (qd_stats_row_parent_class)->finalize (object);
}

static void
qd_stats_row_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  QdStatsRow *self = QD_STATS_ROW (object);

  switch (prop_id)
    {
    case ROW_PROP_PATH:
      g_value_set_string (value, self->path);
      break;
    case ROW_PROP_TYPE_NAME:
      g_value_set_string (value, self->type_name);
      break;
    case ROW_PROP_INTERNAL:
      g_value_set_uint64 (value, self->n_internal);
      break;
    case ROW_PROP_EXTERNAL:
      g_value_set_uint64 (value, self->n_external);
      break;
    case ROW_PROP_REPORTED:
      g_value_set_string (value, self->reported);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
qd_stats_row_class_init (QdStatsRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GParamFlags flags = G_PARAM_READABLE | G_PARAM_STATIC_STRINGS;

  object_class->finalize = qd_stats_row_finalize;
  object_class->get_property = qd_stats_row_get_property;

  row_properties[ROW_PROP_PATH] =
    g_param_spec_string ("path", NULL, NULL, NULL, flags);
  row_properties[ROW_PROP_TYPE_NAME] =
    g_param_spec_string ("type-name", NULL, NULL, NULL, flags);
  row_properties[ROW_PROP_INTERNAL] =
    g_param_spec_uint64 ("internal", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  row_properties[ROW_PROP_EXTERNAL] =
    g_param_spec_uint64 ("external", NULL, NULL, 0, G_MAXUINT64, 0, flags);
  row_properties[ROW_PROP_REPORTED] =
    g_param_spec_string ("reported", NULL, NULL, NULL, flags);
  g_object_class_install_properties (object_class, ROW_N_PROPS, row_properties);
}

static void
qd_stats_row_init (QdStatsRow *self)
{
}

/* The view */

struct _QdStatsView
{
  GtkWidget          parent_instance;

  GtkWidget         *box;
  GtkLabel          *status;
  GtkColumnView     *column_view;
  GListStore        *store;
  GtkSortListModel  *sorted;
};

G_DEFINE_FINAL_TYPE (QdStatsView, qd_stats_view, GTK_TYPE_WIDGET)

typedef enum
{
  COLUMN_PATH,
  COLUMN_TYPE,
  COLUMN_INTERNAL,
  COLUMN_EXTERNAL,
  COLUMN_REPORTED,
} Column;

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  user_data)
{
  Column column = GPOINTER_TO_INT (user_data);

  gtk_list_item_set_child (item, qd_table_cell_new (column == COLUMN_INTERNAL
                                                    || column == COLUMN_EXTERNAL,
                                                    PANGO_ELLIPSIZE_MIDDLE));
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  Column column = GPOINTER_TO_INT (user_data);
  QdStatsRow *row = gtk_list_item_get_item (item);
  GtkLabel *label = GTK_LABEL (gtk_list_item_get_child (item));
  char text[32];

  switch (column)
    {
    case COLUMN_PATH:
      gtk_label_set_text (label, row->path);
      gtk_widget_set_tooltip_text (GTK_WIDGET (label), row->path);
      break;
    case COLUMN_TYPE:
      gtk_label_set_text (label, row->type_name);
      break;
    case COLUMN_INTERNAL:
      g_snprintf (text, sizeof text, "%" G_GUINT64_FORMAT, row->n_internal);
      gtk_label_set_text (label, text);
      break;
    case COLUMN_EXTERNAL:
      g_snprintf (text, sizeof text, "%" G_GUINT64_FORMAT, row->n_external);
      gtk_label_set_text (label, text);
      break;
    case COLUMN_REPORTED:
      gtk_label_set_text (label, row->reported);
      gtk_widget_set_tooltip_text (GTK_WIDGET (label),
                                   row->reported[0] != '\0' ? row->reported : NULL);
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
add_column (QdStatsView *self,
            const char  *title,
            Column       column,
            const char  *property)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkExpression *expression;
  GtkSorter *sorter;
  GtkColumnViewColumn *view_column;

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GINT_TO_POINTER (column));
  view_column = gtk_column_view_column_new (title, factory);

  expression = gtk_property_expression_new (QD_TYPE_STATS_ROW, NULL, property);
  if (column == COLUMN_INTERNAL || column == COLUMN_EXTERNAL)
    sorter = GTK_SORTER (gtk_numeric_sorter_new (expression));
  else
    {
      sorter = GTK_SORTER (gtk_string_sorter_new (expression));
      gtk_column_view_column_set_expand (view_column, TRUE);
    }
  gtk_column_view_column_set_sorter (view_column, sorter);
  gtk_column_view_column_set_resizable (view_column, TRUE);
  gtk_column_view_append_column (self->column_view, view_column);
  g_object_unref (sorter);
  g_object_unref (view_column);
}

static void
qd_stats_view_dispose (GObject *object)
{
  QdStatsView *self = QD_STATS_VIEW (object);

  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->store);

  G_OBJECT_CLASS (qd_stats_view_parent_class)->dispose (object);
}

static void
qd_stats_view_class_init (QdStatsViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = qd_stats_view_dispose;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "qd-stats-view");
}

static void
qd_stats_view_init (QdStatsView *self)
{
  GtkWidget *scroller;
  GtkSorter *sorter;

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->status = qd_table_status_new ();
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->status));

  self->store = g_list_store_new (QD_TYPE_STATS_ROW);
  self->column_view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_column_view_set_show_column_separators (self->column_view, TRUE);
  add_column (self, _("Block"), COLUMN_PATH, "path");
  add_column (self, _("Type"), COLUMN_TYPE, "type-name");
  add_column (self, _("Internal"), COLUMN_INTERNAL, "internal");
  add_column (self, _("External"), COLUMN_EXTERNAL, "external");
  /* TRANSLATORS: the column of the statistics a block computed itself
   * (a queue's mean length, a server's utilisation). */
  add_column (self, _("Reported"), COLUMN_REPORTED, "reported");
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->column_view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Block statistics"), -1);

  /* The column view's sorter follows the clicks on the headers. */
  sorter = gtk_column_view_get_sorter (self->column_view);
  self->sorted = gtk_sort_list_model_new (G_LIST_MODEL (g_object_ref (self->store)),
                                          g_object_ref (sorter));
  {
    /* Nothing selected until the user picks a row: a highlighted first
     * row would look like a finding. */
    GtkSingleSelection *selection = gtk_single_selection_new (G_LIST_MODEL (self->sorted));

    gtk_single_selection_set_autoselect (selection, FALSE);
    gtk_single_selection_set_can_unselect (selection, TRUE);
    gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (selection));
    g_object_unref (selection);
  }

  scroller = qd_table_scroller_new (GTK_WIDGET (self->column_view));
  gtk_box_append (GTK_BOX (self->box), scroller);

  qd_stats_view_set_simulation (self, NULL);
}

GtkWidget *
qd_stats_view_new (void)
{
  return g_object_new (QD_TYPE_STATS_VIEW, NULL);
}

static void
string_free (gpointer data)
{
  g_string_free (data, TRUE);
}

/* What each block reported, by path, one "name = value" a line; the
 * engine lists the statistics in block order, names in first-set order. */
static GHashTable *
dup_reported (QdSimulation *simulation)
{
  GHashTable *by_path = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                               string_free);
  GPtrArray *stats = qd_simulation_get_stats (simulation);

  for (guint k = 0; k < stats->len; k++)
    {
      const QdStat *stat = g_ptr_array_index (stats, k);
      GString *text = g_hash_table_lookup (by_path, stat->path);

      if (text == NULL)
        {
          text = g_string_new (NULL);
          g_hash_table_insert (by_path, (gpointer) stat->path, text);
        }
      else
        g_string_append_c (text, '\n');
      /* As qdevs-cli --stats prints them. */
      g_string_append_printf (text, "%s = %.10g", stat->name, stat->value);
    }
  return by_path;
}

void
qd_stats_view_set_simulation (QdStatsView  *self,
                              QdSimulation *simulation)
{
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GHashTable) reported = NULL;
  guint n;

  g_return_if_fail (QD_IS_STATS_VIEW (self));

  if (simulation == NULL)
    {
      g_list_store_remove_all (self->store);
      gtk_label_set_text (self->status,
                          _("Run the simulation to count each block’s transitions."));
      return;
    }

  n = qd_simulation_get_n_atomics (simulation);
  reported = dup_reported (simulation);
  rows = g_ptr_array_new_full (n, g_object_unref);
  for (guint i = 0; i < n; i++)
    {
      const QdAtomic *atomic = qd_simulation_get_atomic (simulation, i);
      QdStatsRow *row = g_object_new (QD_TYPE_STATS_ROW, NULL);

      row->path = g_strdup (atomic->path);
      row->type_name = g_strdup (atomic->type != NULL ? _(atomic->type->name) : "");
      row->integrator = atomic->type != NULL
                        && (atomic->type->flags & QD_BLOCK_INTEGRATOR) != 0;
      qd_simulation_get_block_stats (simulation, i, &row->n_internal, &row->n_external);
      {
        GString *text = g_hash_table_lookup (reported, atomic->path);

        row->reported = g_strdup (text != NULL ? text->str : "");
      }
      g_ptr_array_add (rows, row);
    }
  /* One splice: the sorted model and the view update once. */
  g_list_store_splice (self->store, 0, g_list_model_get_n_items (G_LIST_MODEL (self->store)),
                       rows->pdata, rows->len);
  {
    g_autofree char *status = NULL;

    /* TRANSLATORS: above the statistics table; the time is simulated time */
    QdClassicStats st;

    status = g_strdup_printf (_("Transitions of each block up to t = %g "
                                "(%" PRIu64 " events), and what "
                                "blocks report; click a column to sort."),
                              qd_simulation_get_time (simulation),
                              qd_simulation_get_events (simulation));
    /* Under a classic solver, its own figures on a second line. */
    if (qd_simulation_get_classic_stats (simulation, &st))
      {
        char *both;

        /* TRANSLATORS: the statistics of a classic ODE solver
         * (SUNDIALS), e.g. "Solver cvode-bdf: 186 steps, 0 failed, ..." */
        both = g_strdup_printf (_("%s\nSolver %s: %" PRIu64
                                  " steps, %" PRIu64 " failed, %"
                                  PRIu64 " right-hand sides, %"
                                  PRIu64 " Jacobians, %"
                                  PRIu64 " root stops (%"
                                  PRIu64 " root function evaluations), %"
                                  PRIu64 " time events."),
                                status, st.method, st.steps, st.failed_steps,
                                st.rhs_evals, st.jac_evals, st.root_stops,
                                st.root_evals, st.time_events);
        g_free (status);
        status = both;
      }
    gtk_label_set_text (self->status, status);
  }
}

const char *
qd_stats_view_get_status (QdStatsView *self)
{
  g_return_val_if_fail (QD_IS_STATS_VIEW (self), NULL);

  return gtk_label_get_text (self->status);
}

guint
qd_stats_view_get_n_rows (QdStatsView *self)
{
  g_return_val_if_fail (QD_IS_STATS_VIEW (self), 0);

  return g_list_model_get_n_items (G_LIST_MODEL (self->store));
}

void
qd_stats_view_get_row (QdStatsView  *self,
                       guint         index,
                       const char  **path,
                       const char  **type_name,
                       guint64      *n_internal,
                       guint64      *n_external)
{
  g_autoptr(QdStatsRow) row = NULL;

  g_return_if_fail (QD_IS_STATS_VIEW (self));
  g_return_if_fail (index < qd_stats_view_get_n_rows (self));

  row = g_list_model_get_item (G_LIST_MODEL (self->store), index);
  /* The store keeps the row alive after this reference goes. */
  if (path != NULL)
    *path = row->path;
  if (type_name != NULL)
    *type_name = row->type_name;
  if (n_internal != NULL)
    *n_internal = row->n_internal;
  if (n_external != NULL)
    *n_external = row->n_external;
}

const char *
qd_stats_view_get_reported (QdStatsView *self,
                            guint        index)
{
  g_autoptr(QdStatsRow) row = NULL;

  g_return_val_if_fail (QD_IS_STATS_VIEW (self), NULL);
  g_return_val_if_fail (index < qd_stats_view_get_n_rows (self), NULL);

  row = g_list_model_get_item (G_LIST_MODEL (self->store), index);
  /* The store keeps the row alive after this reference goes. */
  return row->reported;
}

GListModel *
qd_stats_view_get_sorted_model (QdStatsView *self)
{
  g_return_val_if_fail (QD_IS_STATS_VIEW (self), NULL);

  return G_LIST_MODEL (self->sorted);
}

/* What a row shows on its block: a new string, or NULL for nothing. */
typedef char *(*RowText) (QdStatsRow *row);

/* Block id -> text of each row that has one, for the blocks @document
 * still holds. */
static GHashTable *
dup_by_block (QdStatsView *self,
              QdDocument  *document,
              RowText      row_text)
{
  GHashTable *texts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  guint n = qd_stats_view_get_n_rows (self);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(QdStatsRow) row = g_list_model_get_item (G_LIST_MODEL (self->store), i);
      char *text = row_text (row);
      QdBlock *block;

      if (text == NULL)
        continue;
      /* The document may have been edited since the run: a block that
       * is gone or renamed gets nothing. */
      block = qd_document_find_block_by_path (document, row->path);
      if (block != NULL)
        g_hash_table_insert (texts, g_strdup (block->id), text);
      else
        g_free (text);
    }
  return texts;
}

static char *
badge_text (QdStatsRow *row)
{
  return row->integrator ? g_strdup_printf ("%" G_GUINT64_FORMAT, row->n_internal) : NULL;
}

static char *
reported_text (QdStatsRow *row)
{
  return row->reported[0] != '\0' ? g_strdup (row->reported) : NULL;
}

GHashTable *
qd_stats_view_dup_badges (QdStatsView *self,
                          QdDocument  *document)
{
  g_return_val_if_fail (QD_IS_STATS_VIEW (self), NULL);
  g_return_val_if_fail (QD_IS_DOCUMENT (document), NULL);

  return dup_by_block (self, document, badge_text);
}

GHashTable *
qd_stats_view_dup_reported (QdStatsView *self,
                            QdDocument  *document)
{
  g_return_val_if_fail (QD_IS_STATS_VIEW (self), NULL);
  g_return_val_if_fail (QD_IS_DOCUMENT (document), NULL);

  return dup_by_block (self, document, reported_text);
}

void
qd_stats_view_sort (QdStatsView *self,
                    guint        column,
                    GtkSortType  order)
{
  GListModel *columns;
  g_autoptr(GtkColumnViewColumn) view_column = NULL;

  g_return_if_fail (QD_IS_STATS_VIEW (self));

  columns = gtk_column_view_get_columns (self->column_view);
  g_return_if_fail (column < g_list_model_get_n_items (columns));
  view_column = g_list_model_get_item (columns, column);
  gtk_column_view_sort_by_column (self->column_view, view_column, order);
}

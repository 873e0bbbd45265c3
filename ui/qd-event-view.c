/* qd-event-view.c: the transitions of a run, one by one
 *
 * The simulation's event log (qd-event-log.h) is called on the runner's
 * worker thread. It only appends a compact record to an array, which
 * the main thread copies into its own when the run is paused or over:
 * the runner's rules (qd-runner.h) already keep the two threads from the
 * simulation at the same time, and the worker's array is touched under
 * the same rules, so it needs no lock of its own. The table's model
 * (QdEventRows) makes a row object only for the rows the column view
 * asks for, the few on screen, so that ten thousand records cost no more
 * than their copy when a run ends. The rows are in the order of the run
 * and are not sortable: the order is what the table shows.
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qd-event-view.h"
#include "qd-table.h"

typedef enum
{
  COLUMN_EVENT,
  COLUMN_TIME,
  COLUMN_BLOCK,
  COLUMN_TRANSITION,
  COLUMN_PORT,
  COLUMN_ELAPSED,
  COLUMN_TA,
  COLUMN_SEGMENT,
  N_COLUMNS
} Column;

/* One log entry as the worker records it. */
typedef struct
{
  guint64 event;
  double  t;
  double  elapsed;
  double  ta;
  double  c[QD_MAX_ORDER + 1];
  guint32 tag;    /* a discrete-event block's entity, or 0 */
  guint32 block;
  guint16 port;
  guint8  kind;   /* QdLogKind */
  gint8   order;  /* of the segment; -1 without one */
} Record;

/* A row: one transition, its cells as text. */

#define QD_TYPE_EVENT_ROW (qd_event_row_get_type ())
G_DECLARE_FINAL_TYPE (QdEventRow, qd_event_row, QD, EVENT_ROW, GObject)

struct _QdEventRow
{
  GObject  parent_instance;

  char    *cells[N_COLUMNS];
};

G_DEFINE_FINAL_TYPE (QdEventRow, qd_event_row, G_TYPE_OBJECT)

static void
qd_event_row_finalize (GObject *object)
{
  QdEventRow *self = QD_EVENT_ROW (object);

  for (guint k = 0; k < N_COLUMNS; k++)
    g_free (self->cells[k]);

  G_OBJECT_CLASS (qd_event_row_parent_class)->finalize (object);
}

static void
qd_event_row_class_init (QdEventRowClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = qd_event_row_finalize;
}

static void
qd_event_row_init (QdEventRow *self)
{
}

/* The model: the main thread's copy of the records, a row made for each
 * one asked for. */

#define QD_TYPE_EVENT_ROWS (qd_event_rows_get_type ())
G_DECLARE_FINAL_TYPE (QdEventRows, qd_event_rows, QD, EVENT_ROWS, GObject)

struct _QdEventRows
{
  GObject    parent_instance;

  GArray    *records;  /* Record */
  GPtrArray *paths;    /* per block of the run, its path */
};

static QdEventRow *row_new (QdEventRows  *rows,
                            const Record *r);

static GType
qd_event_rows_get_item_type (GListModel *model)
{
  return QD_TYPE_EVENT_ROW;
}

static guint
qd_event_rows_get_n_items (GListModel *model)
{
  return QD_EVENT_ROWS (model)->records->len;
}

static gpointer
qd_event_rows_get_item (GListModel *model,
                        guint       position)
{
  QdEventRows *self = QD_EVENT_ROWS (model);

  if (position >= self->records->len)
    return NULL;
  return row_new (self, &g_array_index (self->records, Record, position));
}

static void
qd_event_rows_list_model_init (GListModelInterface *iface)
{
  iface->get_item_type = qd_event_rows_get_item_type;
  iface->get_n_items = qd_event_rows_get_n_items;
  iface->get_item = qd_event_rows_get_item;
}

G_DEFINE_FINAL_TYPE_WITH_CODE (QdEventRows, qd_event_rows, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (G_TYPE_LIST_MODEL,
                                                      qd_event_rows_list_model_init))

static void
qd_event_rows_finalize (GObject *object)
{
  QdEventRows *self = QD_EVENT_ROWS (object);

  g_array_unref (self->records);
  g_ptr_array_unref (self->paths);

  G_OBJECT_CLASS (qd_event_rows_parent_class)->finalize (object);
}

static void
qd_event_rows_class_init (QdEventRowsClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = qd_event_rows_finalize;
}

static void
qd_event_rows_init (QdEventRows *self)
{
  self->records = g_array_new (FALSE, FALSE, sizeof (Record));
  self->paths = g_ptr_array_new_with_free_func (g_free);
}

/* The view */

struct _QdEventView
{
  GtkWidget          parent_instance;

  GtkWidget         *box;
  GtkLabel          *status;
  GtkScrolledWindow *scroller;
  GtkColumnView     *column_view;
  QdEventRows       *rows;

  GtkWidget         *export_button;
  GtkNativeDialog   *chooser;

  QdSimulation      *sim;        /* borrowed: the run being recorded */
  gboolean           selecting;  /* qd_event_view_select_row() at work */
  GArray            *records;    /* Record, appended by the worker */
  gboolean           truncated;  /* the run went past the limit */
};

G_DEFINE_FINAL_TYPE (QdEventView, qd_event_view, GTK_TYPE_WIDGET)

enum
{
  SIGNAL_BLOCK_ACTIVATED,
  SIGNAL_ROW_SELECTED,
  SIGNAL_ERROR,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

/* On the thread that runs the simulation. */
static void
on_log_entry (const QdLogEntry *entry,
              gpointer          user_data)
{
  QdEventView *self = user_data;
  Record r;

  if (self->records->len >= QD_EVENT_VIEW_LIMIT)
    {
      /* The rest of the run goes on without the log, at full speed. */
      self->truncated = TRUE;
      qd_simulation_set_event_log (self->sim, NULL, NULL);
      return;
    }
  r.event = entry->event;
  r.t = entry->t;
  r.elapsed = entry->elapsed;
  r.ta = entry->ta;
  r.block = entry->block;
  r.port = (guint16) entry->port;
  r.kind = (guint8) entry->kind;
  r.order = entry->segment != NULL ? (gint8) entry->segment->order : -1;
  for (guint k = 0; k <= QD_MAX_ORDER; k++)
    r.c[k] = entry->segment != NULL ? entry->segment->c[k] : 0.0;
  r.tag = entry->segment != NULL ? entry->segment->tag : 0;
  g_array_append_val (self->records, r);
}

static char *
format_time_advance (double ta)
{
  if (isnan (ta))
    return g_strdup ("");
  if (isinf (ta))
    return g_strdup (ta > 0 ? "∞" : "−∞");
  return g_strdup_printf ("%.6g", ta);
}

/* The segment as a polynomial in the time since it was sent, to its
 * order: "0.9999 − 1·Δt", and the entity a discrete-event block's
 * segment carries: "1 (tag 7)". */
static char *
format_segment (const Record *r)
{
  static const char *const powers[] = { "", "·Δt", "·Δt²", "·Δt³" };
  GString *text;

  if (r->order < 0)
    return g_strdup ("");
  text = g_string_new (NULL);
  /* A minus sign, not a hyphen, as between the terms. */
  g_string_append_printf (text, "%s%.6g", signbit (r->c[0]) ? "−" : "",
                          fabs (r->c[0]));
  for (int k = 1; k <= r->order && k <= QD_MAX_ORDER; k++)
    {
      double c = r->c[k];

      /* signbit: a −0 slope is written as sent. */
      g_string_append_printf (text, " %s %.6g%s", signbit (c) ? "−" : "+",
                              fabs (c), powers[k]);
    }
  if (r->tag != 0)
    /* TRANSLATORS: the entity number a discrete event carries */
    g_string_append_printf (text, _(" (tag %u)"), (guint) r->tag);
  return g_string_free (text, FALSE);
}

static QdEventRow *
row_new (QdEventRows  *rows,
         const Record *r)
{
  QdEventRow *row = g_object_new (QD_TYPE_EVENT_ROW, NULL);
  const char *kind;

  switch (r->kind)
    {
    case QD_LOG_OUTPUT:
      /* TRANSLATORS: a DEVS output event; λ is the output function */
      kind = _("output λ");
      break;
    case QD_LOG_INTERNAL:
      /* TRANSLATORS: a DEVS internal transition (δint) */
      kind = _("internal δint");
      break;
    default:
      /* TRANSLATORS: a DEVS external transition (δext) */
      kind = _("external δext");
      break;
    }
  row->cells[COLUMN_EVENT] = g_strdup_printf ("%" G_GUINT64_FORMAT, r->event);
  row->cells[COLUMN_TIME] = g_strdup_printf ("%.10g", r->t);
  row->cells[COLUMN_BLOCK] = g_strdup (g_ptr_array_index (rows->paths, r->block));
  row->cells[COLUMN_TRANSITION] = g_strdup (kind);
  row->cells[COLUMN_PORT] = r->kind == QD_LOG_INTERNAL ? g_strdup ("")
                            : g_strdup_printf ("%u", (guint) r->port + 1);
  row->cells[COLUMN_ELAPSED] = isnan (r->elapsed) ? g_strdup ("")
                               : g_strdup_printf ("%.6g", r->elapsed);
  row->cells[COLUMN_TA] = format_time_advance (r->ta);
  row->cells[COLUMN_SEGMENT] = format_segment (r);
  return row;
}

static void
update_status (QdEventView *self)
{
  guint n = self->rows->records->len;
  g_autofree char *text = NULL;

  if (self->sim == NULL || (n == 0 && !self->truncated))
    text = g_strdup (_("Run or step the simulation to follow it transition by "
                       "transition: each event’s outputs (λ), its internal "
                       "transition (δint), then the external transitions "
                       "(δext) of the blocks that receive them."));
  else if (self->truncated)
    /* TRANSLATORS: %u is the number of rows kept */
    text = g_strdup_printf (_("The first %u outputs and transitions of the "
                              "run, in the order they ran; the rest was not "
                              "kept (qdevs-cli run --events writes them "
                              "all)."), n);
  else
    text = g_strdup_printf (_("%u outputs and transitions up to t = %g, in "
                              "the order they ran; Elapsed is the time since "
                              "the block’s previous transition, ta its time "
                              "advance after this one."), n,
                            qd_simulation_get_time (self->sim));
  gtk_label_set_text (self->status, text);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->status), text);
  gtk_widget_set_sensitive (self->export_button, n > 0);
}

static void
setup_cell (GtkSignalListItemFactory *factory,
            GtkListItem              *item,
            gpointer                  user_data)
{
  Column column = GPOINTER_TO_INT (user_data);
  gboolean text = column == COLUMN_BLOCK || column == COLUMN_TRANSITION
                  || column == COLUMN_SEGMENT;

  gtk_list_item_set_child (item, qd_table_cell_new (!text, PANGO_ELLIPSIZE_END));
}

static void
bind_cell (GtkSignalListItemFactory *factory,
           GtkListItem              *item,
           gpointer                  user_data)
{
  Column column = GPOINTER_TO_INT (user_data);
  QdEventRow *row = gtk_list_item_get_item (item);
  GtkWidget *label = gtk_list_item_get_child (item);

  gtk_label_set_text (GTK_LABEL (label), row->cells[column]);
  if (column == COLUMN_BLOCK || column == COLUMN_SEGMENT)
    gtk_widget_set_tooltip_text (label, row->cells[column]);
}

static void
add_column (QdEventView *self,
            const char  *title,
            Column       column)
{
  GtkListItemFactory *factory = gtk_signal_list_item_factory_new ();
  GtkColumnViewColumn *view_column;

  g_signal_connect (factory, "setup", G_CALLBACK (setup_cell), GINT_TO_POINTER (column));
  g_signal_connect (factory, "bind", G_CALLBACK (bind_cell), GINT_TO_POINTER (column));
  view_column = gtk_column_view_column_new (title, factory);
  gtk_column_view_column_set_resizable (view_column, TRUE);
  if (column == COLUMN_BLOCK || column == COLUMN_SEGMENT)
    gtk_column_view_column_set_expand (view_column, TRUE);
  gtk_column_view_append_column (self->column_view, view_column);
  g_object_unref (view_column);
}

static void
on_chooser_response (GtkNativeDialog *dialog,
                     int              response,
                     QdEventView     *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = file != NULL ? g_file_get_path (file) : NULL;
      g_autoptr(GError) error = NULL;

      if (path != NULL && !qd_event_view_write_csv (self, path, &error))
        {
          if (g_signal_has_handler_pending (self, signals[SIGNAL_ERROR], 0, FALSE))
            g_signal_emit (self, signals[SIGNAL_ERROR], 0, error->message);
          else
            g_warning ("%s", error->message);
        }
    }
  gtk_native_dialog_destroy (dialog);
  g_clear_object (&self->chooser);
}

static void
open_chooser (QdEventView *self)
{
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (self));
  GtkFileFilter *filter;

  if (self->chooser != NULL)
    {
      gtk_native_dialog_show (self->chooser);
      return;
    }
  self->chooser = GTK_NATIVE_DIALOG (
    gtk_file_chooser_native_new (_("Export Transitions as CSV"),
                                 GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                 GTK_FILE_CHOOSER_ACTION_SAVE,
                                 _("_Export"), _("_Cancel")));
  gtk_native_dialog_set_modal (self->chooser, TRUE);
  filter = gtk_file_filter_new ();
  gtk_file_filter_set_name (filter, _("CSV Files"));
  gtk_file_filter_add_suffix (filter, "csv");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (self->chooser), filter);
  g_object_unref (filter);
  /* TRANSLATORS: the default file name of an exported event log */
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), _("transitions.csv"));
  g_signal_connect (self->chooser, "response", G_CALLBACK (on_chooser_response), self);
  gtk_native_dialog_show (self->chooser);
}

static void
on_selected (GtkSingleSelection *selection,
             GParamSpec         *pspec,
             QdEventView        *self)
{
  guint row = gtk_single_selection_get_selected (selection);

  if (!self->selecting && row != GTK_INVALID_LIST_POSITION)
    g_signal_emit (self, signals[SIGNAL_ROW_SELECTED], 0, row);
}

static void
qd_event_view_dispose (GObject *object)
{
  QdEventView *self = QD_EVENT_VIEW (object);

  /* Not told: by the caller's contract the simulation is gone. */
  self->sim = NULL;
  if (self->chooser != NULL)
    {
      gtk_native_dialog_destroy (self->chooser);
      g_clear_object (&self->chooser);
    }
  g_clear_pointer (&self->box, gtk_widget_unparent);
  g_clear_object (&self->rows);

  G_OBJECT_CLASS (qd_event_view_parent_class)->dispose (object);
}

static void
qd_event_view_finalize (GObject *object)
{
  QdEventView *self = QD_EVENT_VIEW (object);

  g_array_unref (self->records);

  G_OBJECT_CLASS (qd_event_view_parent_class)->finalize (object);
}

static void
qd_event_view_class_init (QdEventViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = qd_event_view_dispose;
  object_class->finalize = qd_event_view_finalize;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "qd-event-view");

  /* "block-activated" (const char *path): a row was activated (double
   * click, Enter); the path of its block, for the window to show it. */
  signals[SIGNAL_BLOCK_ACTIVATED] =
    g_signal_new ("block-activated", G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
  /* "row-selected" (guint row): the user selected a row (not emitted by
   * qd_event_view_select_row()). */
  signals[SIGNAL_ROW_SELECTED] =
    g_signal_new ("row-selected", G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_UINT);
  /* "error" (const char *message): saving the events failed; for the
   * window to show. */
  signals[SIGNAL_ERROR] =
    g_signal_new ("error", G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
qd_event_view_init (QdEventView *self)
{
  GtkSingleSelection *selection;

  self->records = g_array_new (FALSE, FALSE, sizeof (Record));

  self->box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 0);
  gtk_widget_set_parent (self->box, GTK_WIDGET (self));

  self->status = qd_table_status_new ();
  /* Ellipsized, the whole text in the tooltip: a wrapping label here
   * makes the notebook ask for height by width, and the window's panes
   * then gave the inspector next to nothing. */
  gtk_label_set_ellipsize (self->status, PANGO_ELLIPSIZE_END);
  gtk_widget_set_hexpand (GTK_WIDGET (self->status), TRUE);
  {
    GtkWidget *header = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);

    gtk_box_append (GTK_BOX (header), GTK_WIDGET (self->status));
    self->export_button = gtk_button_new_from_icon_name ("document-save-as-symbolic");
    gtk_widget_add_css_class (self->export_button, "flat");
    gtk_widget_set_tooltip_text (self->export_button, _("Export CSV…"));
    gtk_accessible_update_property (GTK_ACCESSIBLE (self->export_button),
                                    GTK_ACCESSIBLE_PROPERTY_LABEL, _("Export CSV…"), -1);
    gtk_widget_set_sensitive (self->export_button, FALSE);
    g_signal_connect_swapped (self->export_button, "clicked",
                              G_CALLBACK (open_chooser), self);
    gtk_box_append (GTK_BOX (header), self->export_button);
    gtk_box_append (GTK_BOX (self->box), header);
  }

  self->rows = g_object_new (QD_TYPE_EVENT_ROWS, NULL);
  self->column_view = GTK_COLUMN_VIEW (gtk_column_view_new (NULL));
  gtk_column_view_set_show_column_separators (self->column_view, TRUE);
  add_column (self, _("Event"), COLUMN_EVENT);
  add_column (self, _("Time"), COLUMN_TIME);
  add_column (self, _("Block"), COLUMN_BLOCK);
  add_column (self, _("Transition"), COLUMN_TRANSITION);
  add_column (self, _("Port"), COLUMN_PORT);
  add_column (self, _("Elapsed"), COLUMN_ELAPSED);
  add_column (self, _("ta"), COLUMN_TA);
  add_column (self, _("Segment"), COLUMN_SEGMENT);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self->column_view),
                                  GTK_ACCESSIBLE_PROPERTY_LABEL, _("Transitions of the run"), -1);
  /* Nothing selected until the user picks a row. */
  selection = gtk_single_selection_new (G_LIST_MODEL (g_object_ref (self->rows)));
  gtk_single_selection_set_autoselect (selection, FALSE);
  gtk_single_selection_set_can_unselect (selection, TRUE);
  gtk_column_view_set_model (self->column_view, GTK_SELECTION_MODEL (selection));
  g_object_unref (selection);
  g_signal_connect_swapped (self->column_view, "activate",
                            G_CALLBACK (qd_event_view_activate), self);
  g_signal_connect (selection, "notify::selected",
                    G_CALLBACK (on_selected), self);

  self->scroller = GTK_SCROLLED_WINDOW (qd_table_scroller_new (GTK_WIDGET (self->column_view)));
  gtk_box_append (GTK_BOX (self->box), GTK_WIDGET (self->scroller));

  update_status (self);
}

GtkWidget *
qd_event_view_new (void)
{
  return g_object_new (QD_TYPE_EVENT_VIEW, NULL);
}

void
qd_event_view_record (QdEventView  *self,
                      QdSimulation *simulation)
{
  g_return_if_fail (QD_IS_EVENT_VIEW (self));
  g_return_if_fail (simulation == NULL || qd_simulation_get_events (simulation) == 0);

  /* The earlier simulation is gone by now (the caller's contract). */
  self->sim = simulation;
  g_array_set_size (self->records, 0);
  self->truncated = FALSE;
  {
    guint removed = self->rows->records->len;

    g_array_set_size (self->rows->records, 0);
    g_ptr_array_set_size (self->rows->paths, 0);
    if (removed > 0)
      g_list_model_items_changed (G_LIST_MODEL (self->rows), 0, removed, 0);
  }
  if (simulation != NULL)
    {
      /* The paths now, while the simulation is certainly there: rows
       * are made later, maybe after it is gone. */
      for (guint i = 0; i < qd_simulation_get_n_atomics (simulation); i++)
        g_ptr_array_add (self->rows->paths,
                         g_strdup (qd_simulation_get_atomic (simulation, i)->path));
      qd_simulation_set_event_log (simulation, on_log_entry, self);
    }
  update_status (self);
}

/* Keeps the newest rows in sight while the user follows the run at the
 * bottom of the table: set once the new rows are laid out. */
static gboolean
scroll_to_end (GtkWidget     *widget,
               GdkFrameClock *clock,
               gpointer       user_data)
{
  GtkAdjustment *adj = gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (widget));

  gtk_adjustment_set_value (adj, gtk_adjustment_get_upper (adj)
                                 - gtk_adjustment_get_page_size (adj));
  return G_SOURCE_REMOVE;
}

void
qd_event_view_update (QdEventView *self)
{
  GtkAdjustment *adj;
  guint shown;
  gboolean at_end;

  g_return_if_fail (QD_IS_EVENT_VIEW (self));

  if (self->sim == NULL)
    return;
  shown = self->rows->records->len;
  if (shown < self->records->len)
    {
      adj = gtk_scrolled_window_get_vadjustment (self->scroller);
      at_end = gtk_adjustment_get_value (adj) + gtk_adjustment_get_page_size (adj)
               >= gtk_adjustment_get_upper (adj) - 1.0;
      g_array_append_vals (self->rows->records,
                           &g_array_index (self->records, Record, shown),
                           self->records->len - shown);
      g_list_model_items_changed (G_LIST_MODEL (self->rows), shown, 0,
                                  self->records->len - shown);
      if (at_end && shown > 0)
        gtk_widget_add_tick_callback (GTK_WIDGET (self->scroller), scroll_to_end, NULL, NULL);
    }
  update_status (self);
}

guint
qd_event_view_get_n_rows (QdEventView *self)
{
  g_return_val_if_fail (QD_IS_EVENT_VIEW (self), 0);

  return self->rows->records->len;
}

char *
qd_event_view_dup_cell (QdEventView *self,
                        guint        row,
                        guint        column)
{
  g_autoptr(QdEventRow) item = NULL;

  g_return_val_if_fail (QD_IS_EVENT_VIEW (self), NULL);
  g_return_val_if_fail (row < qd_event_view_get_n_rows (self), NULL);
  g_return_val_if_fail (column < N_COLUMNS, NULL);

  item = g_list_model_get_item (G_LIST_MODEL (self->rows), row);
  return g_strdup (item->cells[column]);
}

void
qd_event_view_activate (QdEventView *self,
                        guint        row)
{
  const Record *r;

  g_return_if_fail (QD_IS_EVENT_VIEW (self));
  g_return_if_fail (row < qd_event_view_get_n_rows (self));

  r = &g_array_index (self->rows->records, Record, row);
  g_signal_emit (self, signals[SIGNAL_BLOCK_ACTIVATED], 0,
                 g_ptr_array_index (self->rows->paths, r->block));
}

gboolean
qd_event_view_write_csv (QdEventView  *self,
                         const char   *path,
                         GError      **error)
{
  QdEventLogCsv *csv;

  g_return_val_if_fail (QD_IS_EVENT_VIEW (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  csv = qd_event_log_csv_open (path, error);
  if (csv == NULL)
    return FALSE;
  for (guint k = 0; k < self->rows->records->len; k++)
    {
      const Record *r = &g_array_index (self->rows->records, Record, k);
      QdSignal seg = { .t = r->t, .order = r->order, .tag = r->tag };
      QdLogEntry entry = { (QdLogKind) r->kind, r->event, r->t, r->block,
                           r->port, r->elapsed, r->ta, NULL };

      if (r->order >= 0)
        {
          memcpy (seg.c, r->c, sizeof seg.c);
          entry.segment = &seg;
        }
      qd_event_log_csv_append (csv, &entry, g_ptr_array_index (self->rows->paths, r->block));
    }
  return qd_event_log_csv_close (csv, error);
}

gboolean
qd_event_view_get_entry (QdEventView *self,
                         guint        row,
                         QdLogEntry  *entry,
                         QdSignal    *segment)
{
  const Record *r;

  g_return_val_if_fail (QD_IS_EVENT_VIEW (self), FALSE);
  g_return_val_if_fail (entry != NULL && segment != NULL, FALSE);

  if (row >= self->rows->records->len)
    return FALSE;
  r = &g_array_index (self->rows->records, Record, row);
  *entry = (QdLogEntry) { (QdLogKind) r->kind, r->event, r->t, r->block,
                          r->port, r->elapsed, r->ta, NULL };
  memset (segment, 0, sizeof *segment);
  if (r->order >= 0)
    {
      segment->t = r->t;
      segment->order = r->order;
      segment->tag = r->tag;
      memcpy (segment->c, r->c, sizeof segment->c);
      entry->segment = segment;
    }
  return TRUE;
}

const char *
qd_event_view_get_block_path (QdEventView *self,
                              guint        block)
{
  g_return_val_if_fail (QD_IS_EVENT_VIEW (self), NULL);

  return block < self->rows->paths->len ? g_ptr_array_index (self->rows->paths, block)
                                        : NULL;
}

void
qd_event_view_select_row (QdEventView *self,
                          guint        row)
{
  GtkSelectionModel *model;
  GtkAdjustment *adj;
  guint n;

  g_return_if_fail (QD_IS_EVENT_VIEW (self));

  model = gtk_column_view_get_model (self->column_view);
  n = self->rows->records->len;
  self->selecting = TRUE;
  if (row < n)
    gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (model), row);
  else
    gtk_single_selection_set_selected (GTK_SINGLE_SELECTION (model),
                                       GTK_INVALID_LIST_POSITION);
  self->selecting = FALSE;
  if (row >= n)
    return;
  /* GTK 4.8 has no gtk_column_view_scroll_to(): the rows are of one
   * height, so the row's place is its share of the whole. */
  adj = gtk_scrolled_window_get_vadjustment (self->scroller);
  {
    double upper = gtk_adjustment_get_upper (adj);
    double page = gtk_adjustment_get_page_size (adj);
    double row_h = upper / MAX (n, 1);
    double y = row * row_h;
    double value = gtk_adjustment_get_value (adj);

    if (y < value || y + row_h > value + page)
      gtk_adjustment_set_value (adj, CLAMP (y - page / 2, 0, MAX (upper - page, 0)));
  }
}

guint
qd_event_view_get_selected_row (QdEventView *self)
{
  g_return_val_if_fail (QD_IS_EVENT_VIEW (self), GTK_INVALID_LIST_POSITION);

  return gtk_single_selection_get_selected (GTK_SINGLE_SELECTION (gtk_column_view_get_model (self->column_view)));
}

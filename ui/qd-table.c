/* qd-table.c: what the editor's tables share (statistics, transitions) */
#include "qd-table.h"

GtkWidget *
qd_table_cell_new (gboolean           numeric,
                   PangoEllipsizeMode ellipsize)
{
  GtkWidget *label = gtk_label_new (NULL);

  if (numeric)
    {
      /* Numbers right-aligned in tabular figures read as a column. */
      gtk_label_set_xalign (GTK_LABEL (label), 1.0f);
      gtk_widget_add_css_class (label, "numeric");
    }
  else
    {
      gtk_label_set_xalign (GTK_LABEL (label), 0.0f);
      gtk_label_set_ellipsize (GTK_LABEL (label), ellipsize);
    }
  return label;
}

GtkLabel *
qd_table_status_new (void)
{
  GtkLabel *status = GTK_LABEL (gtk_label_new (NULL));

  gtk_label_set_xalign (status, 0.0f);
  gtk_widget_add_css_class (GTK_WIDGET (status), "dim-label");
  gtk_widget_add_css_class (GTK_WIDGET (status), "qd-messages-status");
  return status;
}

GtkWidget *
qd_table_scroller_new (GtkWidget *view)
{
  GtkWidget *scroller = gtk_scrolled_window_new ();

  gtk_widget_set_vexpand (scroller, TRUE);
  gtk_scrolled_window_set_child (GTK_SCROLLED_WINDOW (scroller), view);
  return scroller;
}

/* qd-run-bar-break.c: "Break at time…" on the run bar
 *
 * A button beside the final time opens a small popover: a time and Add.
 * The breakpoint goes to the run session's "break-requested", which the
 * debugger hears and adds to the diagram's breakpoints, as the Debugger
 * panel's "Break at Time" does.
 */
#include <glib/gi18n-lib.h>
#include <math.h>

#include "qd-run-bar.h"

typedef struct
{
  QdRunBar  *bar;
  GtkEntry  *entry;
  GtkLabel  *error;
  GtkWidget *button;
} BreakPopover;

gboolean
qd_run_bar_break_at (QdRunBar    *self,
                     const char  *text,
                     GError     **error)
{
  QdRunSession *session;
  char *end = NULL;
  double t;

  g_return_val_if_fail (QD_IS_RUN_BAR (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  t = g_ascii_strtod (text, &end);
  while (end != NULL && g_ascii_isspace (*end))
    end++;
  if (end == text || *end != '\0' || !isfinite (t))
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("“%s” is not a time: type a number such as 12.5"), text);
      return FALSE;
    }
  session = qd_run_bar_get_session (self);
  if (session == NULL || qd_run_session_get_document (session) == NULL)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_INVALID,
                   _("There is no diagram to set a breakpoint in: open one first"));
      return FALSE;
    }
  qd_run_session_request_break (session, QD_BREAK_TIME, NULL, 0, t);
  return TRUE;
}

static void
on_add (BreakPopover *p)
{
  g_autoptr(GError) error = NULL;

  if (qd_run_bar_break_at (p->bar, gtk_editable_get_text (GTK_EDITABLE (p->entry)), &error))
    {
      gtk_widget_set_visible (GTK_WIDGET (p->error), FALSE);
      gtk_menu_button_popdown (GTK_MENU_BUTTON (p->button));
      return;
    }
  gtk_label_set_text (p->error, error->message);
  gtk_widget_set_visible (GTK_WIDGET (p->error), TRUE);
  gtk_widget_error_bell (GTK_WIDGET (p->entry));
}

GtkWidget *
qd_run_bar_break_new (QdRunBar *bar)
{
  BreakPopover *p = g_new0 (BreakPopover, 1);
  GtkWidget *popover = gtk_popover_new ();
  GtkWidget *grid = gtk_grid_new ();
  GtkWidget *label, *add;

  p->bar = bar;
  p->button = gtk_menu_button_new ();
  gtk_widget_set_name (p->button, "break_time_button");
  /* An icon (a breakpoint's dot): the run bar must fit a small screen. */
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (p->button), "media-record-symbolic");
  gtk_widget_set_tooltip_text (p->button, _("Add a breakpoint at a time: the debugger "
                                            "stops the run there"));
  gtk_accessible_update_property (GTK_ACCESSIBLE (p->button), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  _("Break at…"), -1);
  g_object_set_data_full (G_OBJECT (p->button), "qd-break-popover", p, g_free);

  gtk_grid_set_row_spacing (GTK_GRID (grid), 6);
  gtk_grid_set_column_spacing (GTK_GRID (grid), 6);
  label = gtk_label_new_with_mnemonic (_("Break at _t ="));
  p->entry = GTK_ENTRY (gtk_entry_new ());
  gtk_label_set_mnemonic_widget (GTK_LABEL (label), GTK_WIDGET (p->entry));
  gtk_editable_set_width_chars (GTK_EDITABLE (p->entry), 8);
  gtk_entry_set_input_purpose (p->entry, GTK_INPUT_PURPOSE_NUMBER);
  gtk_entry_set_activates_default (p->entry, TRUE);
  add = gtk_button_new_with_mnemonic (_("_Add"));
  gtk_widget_add_css_class (add, "suggested-action");
  p->error = GTK_LABEL (gtk_label_new (NULL));
  gtk_widget_add_css_class (GTK_WIDGET (p->error), "error");
  gtk_label_set_wrap (p->error, TRUE);
  gtk_label_set_max_width_chars (p->error, 30);
  gtk_widget_set_visible (GTK_WIDGET (p->error), FALSE);
  g_signal_connect_swapped (p->entry, "activate", G_CALLBACK (on_add), p);
  g_signal_connect_swapped (add, "clicked", G_CALLBACK (on_add), p);
  gtk_grid_attach (GTK_GRID (grid), label, 0, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (p->entry), 1, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), add, 2, 0, 1, 1);
  gtk_grid_attach (GTK_GRID (grid), GTK_WIDGET (p->error), 0, 1, 3, 1);
  gtk_popover_set_child (GTK_POPOVER (popover), grid);
  gtk_menu_button_set_popover (GTK_MENU_BUTTON (p->button), popover);
  return p->button;
}

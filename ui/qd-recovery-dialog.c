/* qd-recovery-dialog.c: offering the diagrams a crash left unsaved */
#include <glib/gi18n-lib.h>

#include "qd-recovery-dialog.h"

/* "Title — /path/file.qdevs, 17:42" for one copy. */
static char *
dup_line (const QdRecoveryFile *file)
{
  g_autoptr(GDateTime) local = g_date_time_to_local (file->time);
  /* TRANSLATORS: when a recovery copy was written, as strftime. */
  g_autofree char *when = g_date_time_format (local, _("%Y-%m-%d %H:%M"));
  const char *title = file->title[0] != '\0' ? file->title : _("Untitled diagram");

  if (file->file != NULL)
    /* TRANSLATORS: a recoverable diagram: its title, its file, the time. */
    return g_strdup_printf (_("• %s — %s, %s"), title, file->file, when);
  /* TRANSLATORS: a recoverable diagram never saved: title and time. */
  return g_strdup_printf (_("• %s (never saved), %s"), title, when);
}

GtkWidget *
qd_recovery_dialog_new (GtkWindow *parent,
                        GPtrArray *files)
{
  g_autoptr(GString) text = g_string_new (NULL);
  GtkWidget *dialog, *button;

  g_return_val_if_fail (files != NULL && files->len > 0, NULL);

  g_string_append (text, g_dngettext (GETTEXT_PACKAGE,
                                      "QDevs did not close cleanly. This "
                                      "diagram had changes that were not "
                                      "saved:",
                                      "QDevs did not close cleanly. These "
                                      "diagrams had changes that were not "
                                      "saved:", files->len));
  for (guint i = 0; i < files->len; i++)
    {
      g_autofree char *line = dup_line (g_ptr_array_index (files, i));

      g_string_append_printf (text, "\n%s", line);
    }
  g_string_append (text, "\n\n");
  g_string_append (text, _("Recover opens them with those changes, not yet "
                           "saved; Discard deletes the changes."));

  dialog = gtk_message_dialog_new (parent,
                                   GTK_DIALOG_MODAL | GTK_DIALOG_DESTROY_WITH_PARENT,
                                   GTK_MESSAGE_QUESTION, GTK_BUTTONS_NONE,
                                   "%s", g_dngettext (GETTEXT_PACKAGE,
                                                      "Recover Unsaved Diagram?",
                                                      "Recover Unsaved Diagrams?",
                                                      files->len));
  gtk_window_set_title (GTK_WINDOW (dialog), _("Recover Unsaved Changes"));
  gtk_message_dialog_format_secondary_text (GTK_MESSAGE_DIALOG (dialog), "%s", text->str);
  gtk_dialog_add_buttons (GTK_DIALOG (dialog),
                          _("_Discard"), QD_RECOVERY_RESPONSE_DISCARD,
                          _("_Recover"), QD_RECOVERY_RESPONSE_RECOVER,
                          NULL);
  button = gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), QD_RECOVERY_RESPONSE_DISCARD);
  gtk_widget_add_css_class (button, "destructive-action");
  button = gtk_dialog_get_widget_for_response (GTK_DIALOG (dialog), QD_RECOVERY_RESPONSE_RECOVER);
  gtk_widget_add_css_class (button, "suggested-action");
  gtk_dialog_set_default_response (GTK_DIALOG (dialog), QD_RECOVERY_RESPONSE_RECOVER);
  return dialog;
}

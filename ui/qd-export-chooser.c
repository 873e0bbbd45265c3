/* qd-export-chooser.c: the save dialog of an export (qd-export-chooser.h) */
#include <glib/gi18n-lib.h>

#include "qd-export-chooser.h"

static void
add_filter (GtkFileChooser *chooser,
            const char     *name,
            const char     *suffix)
{
  GtkFileFilter *filter = gtk_file_filter_new ();

  gtk_file_filter_set_name (filter, name);
  gtk_file_filter_add_suffix (filter, suffix);
  gtk_file_chooser_add_filter (chooser, filter);
  g_object_unref (filter);
}

GtkNativeDialog *
qd_export_chooser_new (GtkWindow  *parent,
                       const char *title,
                       gboolean    csv,
                       const char *name)
{
  GtkNativeDialog *dialog = GTK_NATIVE_DIALOG (
    gtk_file_chooser_native_new (title, parent, GTK_FILE_CHOOSER_ACTION_SAVE,
                                 _("_Export"), _("_Cancel")));
  GtkFileChooser *chooser = GTK_FILE_CHOOSER (dialog);

  gtk_native_dialog_set_modal (dialog, TRUE);
  if (csv)
    add_filter (chooser, _("CSV Files"), "csv");
  else
    {
      /* The format follows the name's extension. */
      add_filter (chooser, _("PNG Images"), "png");
      add_filter (chooser, _("SVG Images"), "svg");
      add_filter (chooser, _("PDF Documents"), "pdf");
    }
  gtk_file_chooser_set_current_name (chooser, name);
  return dialog;
}

/* qd-preferences-window.c: the application's preferences
 *
 * Built in code rather than from a template: it is one group of rows,
 * and every row is the same three widgets (a title, an explanation, a
 * control bound to a key). The binding is g_settings_bind, so the window
 * holds no state of its own and the value is written as it changes.
 */
#include <glib/gi18n-lib.h>

#include "qd-preferences-window.h"

struct _QdPreferencesWindow
{
  GtkWindow      parent_instance;

  GSettings     *settings;
  GtkSpinButton *budget_spin;
};

G_DEFINE_FINAL_TYPE (QdPreferencesWindow, qd_preferences_window, GTK_TYPE_WINDOW)

static void
qd_preferences_window_dispose (GObject *object)
{
  QdPreferencesWindow *self = QD_PREFERENCES_WINDOW (object);

  g_clear_object (&self->settings);
  G_OBJECT_CLASS (qd_preferences_window_parent_class)->dispose (object);
}

static void
qd_preferences_window_class_init (QdPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = qd_preferences_window_dispose;
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0,
                                       "window.close", NULL);
}

static void
qd_preferences_window_init (QdPreferencesWindow *self)
{
  gtk_window_set_title (GTK_WINDOW (self), _("Preferences"));
  gtk_window_set_default_size (GTK_WINDOW (self), 520, -1);
  gtk_window_set_resizable (GTK_WINDOW (self), FALSE);
}

/* A row of the form: the title and its explanation on the left, the
 * control on the right. */
static GtkWidget *
make_row (const char *title,
          const char *explanation,
          GtkWidget  *control)
{
  GtkWidget *row = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 18);
  GtkWidget *texts = gtk_box_new (GTK_ORIENTATION_VERTICAL, 4);
  GtkWidget *label = gtk_label_new (title);
  GtkWidget *note = gtk_label_new (explanation);

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_widget_add_css_class (label, "heading");
  gtk_label_set_xalign (GTK_LABEL (note), 0);
  gtk_label_set_wrap (GTK_LABEL (note), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (note), 48);
  gtk_widget_add_css_class (note, "dim-label");
  gtk_box_append (GTK_BOX (texts), label);
  gtk_box_append (GTK_BOX (texts), note);
  gtk_widget_set_hexpand (texts, TRUE);
  gtk_widget_set_valign (control, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (row), texts);
  gtk_box_append (GTK_BOX (row), control);
  return row;
}

GtkWidget *
qd_preferences_window_new (GtkWindow *parent,
                           GSettings *settings)
{
  QdPreferencesWindow *self;
  GtkWidget *box, *heading;

  g_return_val_if_fail (parent == NULL || GTK_IS_WINDOW (parent), NULL);
  g_return_val_if_fail (settings == NULL || G_IS_SETTINGS (settings), NULL);

  self = g_object_new (QD_TYPE_PREFERENCES_WINDOW,
                       "transient-for", parent,
                       "destroy-with-parent", TRUE,
                       NULL);
  box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 12);
  gtk_widget_set_margin_start (box, 24);
  gtk_widget_set_margin_end (box, 24);
  gtk_widget_set_margin_top (box, 18);
  gtk_widget_set_margin_bottom (box, 24);

  heading = gtk_label_new (_("Plots"));
  gtk_label_set_xalign (GTK_LABEL (heading), 0);
  gtk_widget_add_css_class (heading, "title-4");
  gtk_box_append (GTK_BOX (box), heading);

  if (settings == NULL)
    {
      GtkWidget *note = gtk_label_new (_("Preferences cannot be changed: the "
                                         "settings schema of QDevs is not "
                                         "installed. Install QDevs (meson "
                                         "install) or set GSETTINGS_SCHEMA_DIR "
                                         "to the build's data folder."));

      gtk_label_set_wrap (GTK_LABEL (note), TRUE);
      gtk_label_set_xalign (GTK_LABEL (note), 0);
      gtk_box_append (GTK_BOX (box), note);
    }
  else
    {
      GtkWidget *spin = gtk_spin_button_new_with_range (0, 1048576, 64);

      self->settings = g_object_ref (settings);
      self->budget_spin = GTK_SPIN_BUTTON (spin);
      gtk_spin_button_set_digits (self->budget_spin, 0);
      gtk_spin_button_set_numeric (self->budget_spin, TRUE);
      gtk_widget_set_tooltip_text (spin, _("MiB; 0 for no limit"));
      g_settings_bind (settings, "trace-memory-budget",
                       self->budget_spin, "value", G_SETTINGS_BIND_DEFAULT);
      gtk_box_append (GTK_BOX (box),
                      make_row (_("Trace memory (MiB)"),
                                _("How much memory the plotted traces of all "
                                  "runs may hold, the earlier runs kept for "
                                  "comparison included. Beyond it, the oldest "
                                  "part of each trace is kept as decimated "
                                  "history (the minimum and maximum of every "
                                  "64 events), drawn as lighter bands, and a "
                                  "CSV export says where; the oldest earlier "
                                  "runs are decimated, then dropped. 0: no "
                                  "limit. Applies from the next run."),
                                spin));
    }
  gtk_window_set_child (GTK_WINDOW (self), box);
  return GTK_WIDGET (self);
}

GtkSpinButton *
qd_preferences_window_get_budget_spin (QdPreferencesWindow *self)
{
  g_return_val_if_fail (QD_IS_PREFERENCES_WINDOW (self), NULL);

  return self->budget_spin;
}

/* qd-preferences-window.h: the application's preferences
 *
 * A small window for the settings that belong to the user and the
 * machine rather than to a model file (those are in the inspector's model
 * form): today the memory that the plotted traces of one run may hold.
 * Each control is bound to its GSettings key, so a change takes effect
 * at once and is remembered.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

#define QD_TYPE_PREFERENCES_WINDOW (qd_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (QdPreferencesWindow, qd_preferences_window,
                      QD, PREFERENCES_WINDOW, GtkWindow)

/* @settings: the application's settings, or NULL when its schema is not
 * installed (the window then says so instead of showing controls). */
GtkWidget *qd_preferences_window_new                (GtkWindow *parent,
                                                     GSettings *settings);
/* The spin button of the trace memory budget (MiB), for tests; NULL
 * without settings. */
GtkSpinButton *qd_preferences_window_get_budget_spin (QdPreferencesWindow *self);

G_END_DECLS

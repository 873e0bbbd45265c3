/* qd-window-private.h: what the files of the main window share
 *
 *   qd-window.c          the window: its chrome, title, information
 *                        popover, breadcrumbs, messages, size, actions
 *                        table and set-up
 *   qd-window-palette.c  the palette of blocks and its search
 *   qd-window-actions.c  Undo and Redo, Open Subsystem, Rename and
 *                        Properties, the canvas's clicks and context menu
 *   qd-window-files.c    open, save, save as, export, recent diagrams,
 *                        unsaved changes, files dropped on the window
 *   qd-window-run.c      Check and Compare Methods, the messages panel, the
 *                        run bar's and the event view's reports
 */
#pragma once

#include "qd-autosave.h"
#include "qd-canvas.h"
#include "qd-debugger.h"
#include "qd-inspector.h"
#include "qd-messages-view.h"
#include "qd-run-bar.h"
#include "qd-run-session.h"
#include "qd-window.h"

G_BEGIN_DECLS

struct _QdWindow
{
  GtkApplicationWindow  parent_instance;

  /* Template children */
  GtkLabel    *title_label;
  GtkLabel    *subtitle_label;
  GtkListBox  *palette_list;
  GtkSearchEntry *palette_search;
  GtkStack    *main_stack;
  GtkPaned    *paned;
  GtkPaned    *inspector_paned;
  GtkPaned    *bottom_paned;
  GtkLabel    *doc_title_label;
  GtkLabel    *doc_file_label;
  GtkLabel    *doc_description_label;
  GtkGrid     *facts_grid;
  GtkRevealer *message_revealer;
  GtkWidget   *message_box;
  GtkImage    *message_icon;
  GtkLabel    *message_label;
  QdCanvas    *canvas;
  GtkBox      *breadcrumb_box;
  GtkWidget   *info_button;
  QdInspector *inspector;
  QdMessagesView *messages_view;
  GtkNotebook *bottom_notebook;
  QdRunBar    *run_bar;
  GMenu       *recent_menu;

  /* NULL when the schema cannot be found (neither installed nor in the
   * build tree): the window then simply forgets its size instead of
   * aborting. */
  GSettings   *settings;

  QdDocument  *document;
  GFile       *file;
  gulong       document_changed_id;
  /* The message shown is about one edit (a canvas refusal, an inspector
   * notice): the next change of the document, an Undo too, clears it. */
  gboolean     edit_message;

  /* Save As and Export: the chooser lives until its response. */
  GtkFileChooserNative *chooser;
  /* Close once the save started by the unsaved-changes prompt succeeds. */
  gboolean     close_after_save;
  /* The user chose Discard: close without asking again. */
  gboolean     close_confirmed;
  gulong       recent_changed_id;

  /* Runs of the diagram: plots and statistics in the bottom notebook. */
  QdRunSession *run_session;
  QdDebugger   *debugger;

  /* The copy of unsaved changes kept for after a crash. */
  QdAutosave  *autosave;

  /* The system shown when a click on the canvas began (only compared):
   * a double-click that opened a subsystem has nothing more to do. */
  QdSystem    *click_system;
};

/* qd-window.c */
char *qd_window_dup_display_title (QdWindow *self);
void qd_window_update_title (QdWindow *self);
void qd_window_update_document_page (QdWindow *self);

/* qd-window-palette.c */
void qd_window_populate_palette (QdWindow *self);
void qd_window_on_palette_row_activated (GtkListBox    *list,
                                         GtkListBoxRow *row,
                                         QdWindow      *self);
gboolean qd_window_palette_filter_func (GtkListBoxRow *row,
                                        gpointer       user_data);
void qd_window_on_palette_search_changed (QdWindow *self);
void qd_window_on_palette_search_activate (QdWindow *self);
void qd_window_on_palette_search_stop (QdWindow *self);

/* qd-window-actions.c */
void qd_window_update_undo_actions (QdWindow *self);
void qd_window_undo_activated (GSimpleAction *action,
                               GVariant      *parameter,
                               gpointer       user_data);
void qd_window_redo_activated (GSimpleAction *action,
                               GVariant      *parameter,
                               gpointer       user_data);
void qd_window_on_selection_changed (QdWindow *self);
void qd_window_update_selection_actions (QdWindow *self);
void qd_window_edit_mask_activated (GSimpleAction *action,
                                    GVariant      *parameter,
                                    gpointer       user_data);
void qd_window_open_subsystem_activated (GSimpleAction *action,
                                         GVariant      *parameter,
                                         gpointer       user_data);
void qd_window_rename_activated (GSimpleAction *action,
                                 GVariant      *parameter,
                                 gpointer       user_data);
void qd_window_properties_activated (GSimpleAction *action,
                                     GVariant      *parameter,
                                     gpointer       user_data);
void qd_window_on_canvas_click_pressed (GtkGestureClick *gesture,
                                        int              n_press,
                                        double           x,
                                        double           y,
                                        QdWindow        *self);
void qd_window_on_canvas_click_released (GtkGestureClick *gesture,
                                         int              n_press,
                                         double           x,
                                         double           y,
                                         QdWindow        *self);
void qd_window_extend_context_menu (QdWindow *self);
void qd_window_show_params_changed (GSimpleAction *action,
                                    GVariant      *state,
                                    gpointer       user_data);

/* qd-window-files.c */
void qd_window_update_file_actions (QdWindow *self);
void qd_window_save_activated (GSimpleAction *action,
                               GVariant      *parameter,
                               gpointer       user_data);
void qd_window_save_as_activated (GSimpleAction *action,
                                  GVariant      *parameter,
                                  gpointer       user_data);
void qd_window_export_activated (GSimpleAction *action,
                                 GVariant      *parameter,
                                 gpointer       user_data);
void qd_window_update_recent_menu (QdWindow *self);
void qd_window_open_recent_activated (GSimpleAction *action,
                                      GVariant      *parameter,
                                      gpointer       user_data);
gboolean qd_window_confirm_close (QdWindow *self);
gboolean qd_window_on_drop (GtkDropTarget *target,
                            const GValue  *value,
                            double         x,
                            double         y,
                            QdWindow      *self);

/* qd-window-run.c */
void qd_window_check_activated (GSimpleAction *action,
                                GVariant      *parameter,
                                gpointer       user_data);
void qd_window_compare_methods_activated (GSimpleAction *action,
                                          GVariant      *parameter,
                                          gpointer       user_data);
void qd_window_sweep_activated (GSimpleAction *action,
                                GVariant      *parameter,
                                gpointer       user_data);
void qd_window_on_problems_changed (QdMessagesView *view,
                                    QdWindow       *self);
void qd_window_on_problem_activated (QdMessagesView *view,
                                     const char     *block_id,
                                     const char     *path,
                                     QdWindow       *self);
void qd_window_on_run_bar_message (QdRunBar       *bar,
                                   GtkMessageType  type,
                                   const char     *text,
                                   gboolean        about_edit,
                                   QdWindow       *self);
void qd_window_on_run_bar_edit_message_hidden (QdRunBar *bar,
                                               QdWindow *self);
void qd_window_on_event_view_error (QdEventView *view,
                                    const char  *message,
                                    QdWindow    *self);
void qd_window_on_transition_activated (QdEventView *view,
                                        const char  *path,
                                        QdWindow    *self);
void qd_window_show_messages (QdWindow *self);

G_END_DECLS

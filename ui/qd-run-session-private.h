/* qd-run-session-private.h: what the run session (qd-run-session.c) and
 * its plot pages (qd-run-page.c) share
 */
#pragma once

#include "qd-run-memory.h"
#include "qd-run-notes.h"
#include "qd-run-session.h"

G_BEGIN_DECLS

/* The plot page of one plotting sink (QD_BLOCK_PLOT) in the notebook,
 * or in a window of its own when detached. */
typedef struct
{
  QdRunSession *session;
  char         *path;      /* the Scope block: "/Plant/Scope" */
  char         *name;      /* its name, the tab's title */
  QdPlot       *plot;      /* owned */
  GtkWidget    *page;      /* owned: the toolbar over the plot */
  GtkWidget    *xy_button; /* shown for two traces or more */
  GtkLabel     *dropped_label; /* "2 earlier runs dropped", when some were */
  guint         n_dropped;
  GtkNativeDialog *chooser;
  gboolean      chooser_csv;
  GtkWidget    *tab;       /* owned while detached */
  GtkLabel     *tab_label;
  GtkWindow    *window;    /* while detached */
  gboolean      used;      /* by the run being set up */
} ScopePage;

struct _QdRunSession
{
  GObject         parent_instance;

  GtkNotebook    *notebook;      /* weak */
  QdMessagesView *messages;      /* weak */
  QdCanvas       *canvas;        /* weak, may be NULL */
  QdStatsView    *stats;         /* owned (a page of the notebook) */
  QdEventView    *events;        /* owned (a page of the notebook) */
  QdDocument     *document;

  QdRunner       *runner;
  GPtrArray      *pages;         /* ScopePage*, in block order */
  /* The runs the plots keep share the trace memory budget. */
  QdRunMemory    *memory;
  /* The models of the runs kept, for the legends' notes. */
  QdRunNotes     *notes;

  gboolean        realtime;
  double          speed;

  /* While a run goes on, the session also polls the runner's state: the
   * runner's signals come through an idle source that a main loop busy
   * drawing live plots serves late, and the statistics and badges should
   * not wait for it. A timeout, not a tick callback, so that polling never
   * makes the window draw frames. */
  guint           poll_id;
  QdRunnerState   polled_state;

  /* The displayable blocks of the run (QD_BLOCK_DISPLAY): block id ->
   * the trace whose value the canvas shows on them. */
  GHashTable     *displays;
};

ScopePage *qd_run_page_find (QdRunSession *self,
                             const char   *path);
void qd_run_page_make_room (QdRunSession *self);
void qd_run_page_clear_runs (ScopePage *page);
void qd_run_page_detach (ScopePage *page);
void qd_run_page_free (gpointer data);
ScopePage *qd_run_page_new (QdRunSession *self,
                            const char   *path);
void qd_run_page_update_dropped_label (ScopePage *page);
/* qd-run-page-layout.c: the plot's axes from the Scope's parameters
 * @names (its signals, in input order), and the toolbar's layout menu
 * and zoom reset. */
void qd_run_page_layout_apply (ScopePage *page,
                               GPtrArray *names);
void qd_run_page_layout_add_controls (ScopePage *page,
                                      GtkWidget *bar);
/* qd-run-plots.c: every Scope's signals offered to each plot's XY, and
 * breakpoints from a plot's menu turned into the session's request. */
void qd_run_page_offer_signals (QdRunSession *self,
                                GPtrArray    *traces);

G_END_DECLS

/* qd-test-run-ui.h: a window running a diagram, for the run tests
 *
 * Shared by test-run-ui (running, pausing, stepping, errors, budgets,
 * export) and test-run-view (what a run shows: statistics, tooltips,
 * transitions, Display values, live redraws and speed).
 */
#pragma once

#include "qd-application.h"
#include "qd-run-bar.h"
#include "qd-run-session.h"
#include "qd-window.h"

G_BEGIN_DECLS

/* A window showing a document, its run bar and run session, and what
 * the session said so far. */
typedef struct
{
  QdWindow     *window;
  QdRunBar     *bar;
  QdRunSession *session;
  QdDocument   *document;
  guint         n_finished;
  QdRunnerState last_state;
  guint         n_paused;       /* "progress" heard in the PAUSED state */
  guint         n_running;      /* "progress" heard in the RUNNING state */
} QdTestRunFixture;

/* The application the windows belong to (qd_test_run_init()). */
extern QdApplication *qd_test_run_app;

/* qd_test_gtk_init() (software OpenGL) and the application; FALSE
 * without a display (the program then exits 0). */
gboolean      qd_test_run_init           (int               *argc,
                                          char            ***argv);
void          qd_test_run_finish         (void);

/* A window of its own on @document (the fixture owns it). */
void          qd_test_run_fixture_setup    (QdTestRunFixture *f,
                                            QdDocument       *document);
void          qd_test_run_fixture_teardown (QdTestRunFixture *f);

/* Iterates the main context until @done says so, failing after 60 s. */
#define qd_test_run_wait_until(done, f) qd_test_run_wait_until_at (done, f, __LINE__)
void          qd_test_run_wait_until_at  (gboolean        (*done) (gpointer f),
                                          QdTestRunFixture *f,
                                          int               line);
/* Conditions for qd_test_run_wait_until(): the run finished; paused (or
 * finished). */
gboolean      qd_test_run_is_finished    (gpointer          data);
gboolean      qd_test_run_is_paused      (gpointer          data);

/* Lets @widget's frame clock tick @n times: a plot redraws while its
 * traces grow at most once in 100 ms of that clock, so 7 frames (at most
 * 60 a second) let a pending redraw happen however slowly they come. */
void          qd_test_wait_frames        (GtkWidget        *widget,
                                          guint             n);

/* Lets the frame clock tick until @plot's view satisfies @cond (for its
 * x range), failing after 60 s: on a loaded machine a redraw can take
 * longer than any fixed wait. */
#define qd_test_wait_view(plot, cond) qd_test_wait_view_at (plot, cond, #cond, __LINE__)
void          qd_test_wait_view_at       (QdPlot           *plot,
                                          gboolean        (*cond) (double x0, double x1),
                                          const char       *what,
                                          int               line);

/* Activates the run bar's @action ("run.start", ...). */
void          qd_test_run_activate       (QdTestRunFixture *f,
                                          const char       *action);

/* A headless run of the same document. */
QdSimulation *qd_test_run_headless       (QdDocument       *document);

/* The session's run against a headless one: same traces, and the plot
 * of the Scope shows exactly those. */
void          qd_test_run_assert_equals_headless (QdTestRunFixture *f);

G_END_DECLS

/* qd-debug.h: what a debugger may ask of a paused simulation
 *
 * These queries read the event loop's schedule and the blocks' states
 * between calls of qd_simulation_step() or qd_simulation_run_until(),
 * never while the simulation runs (with a QdRunner: while it is PAUSED).
 * They cost nothing when nobody calls them: the event loop does not know
 * they exist.
 *
 * The pending events are every block's next internal transition, t + ta,
 * in the order the scheduler will take them: by time, and at equal times
 * by priority (the block's index in the flat model, lower first). The
 * first one is the next internal event that qd_simulation_step (self, 1)
 * executes.
 *
 * A block's phase and state come from its type's optional describe_phase
 * and describe_state (qd-block-type.h); a type without describe_phase
 * gets generic words ("passive", "output due now", "internal transition
 * scheduled").
 */
#pragma once

#include <glib.h>

#include "qd-version-macros.h"
#include "qd-block-type.h"
#include "qd-document.h"

G_BEGIN_DECLS

typedef struct
{
  guint  block;   /* index in the flat model: the priority */
  double time;    /* the time of its next internal transition (t + ta) */
} QdPendingEvent;

/* Every block with a next internal transition (not passive), in the order
 * the event loop will take them (QdPendingEvent). Empty before the first
 * step, after the run is finished, and under a classic solver, whose
 * Integrators have no schedule of their own. */
QD_API GArray     *qd_simulation_dup_pending     (QdSimulation *self);
/* The time of block @index's next internal transition, QD_INF when it is
 * passive. */
QD_API double      qd_simulation_get_block_next_time (QdSimulation *self,
                                                      guint         index);
/* The phase of block @index in words, untranslated (the strings are
 * marked with N_(): pass them through the gettext domain "qdevs"). */
QD_API const char *qd_simulation_get_block_phase (QdSimulation *self,
                                                  guint         index);
/* Calls @add for each state variable block @index's type describes at the
 * current time; FALSE (and no call) when its type describes none. */
QD_API gboolean    qd_simulation_describe_block_state (QdSimulation *self,
                                                       guint         index,
                                                       QdStateFunc   add,
                                                       gpointer      user_data);

/* Breakpoints. A debugger searches for the first one that a run meets by
 * running a copy of the simulation (the runs are deterministic), then
 * takes the run it shows to the same place. */
typedef enum
{
  QD_BREAK_TIME,        /* the clock reaches @value */
  QD_BREAK_INTERNAL,    /* block @block makes an internal transition */
  QD_BREAK_TRANSITION,  /* block @block makes any transition */
  QD_BREAK_CROSSING,    /* output @port of block @block crosses @value */
  QD_BREAK_ERROR,       /* a block stops the run with an error */
} QdBreakKind;

typedef struct
{
  QdBreakKind kind;
  guint       block;   /* INTERNAL, TRANSITION, CROSSING */
  guint       port;    /* CROSSING: the output port */
  double      value;   /* TIME: the time; CROSSING: the level */
} QdBreak;

typedef struct
{
  guint   index;       /* the breakpoint met, in the array given */
  guint64 events;      /* internal events executed when it is met */
  double  t;           /* where the clock stops: the time of a TIME
                          breakpoint, the exact time of a crossing inside
                          a segment (the first root of its polynomial
                          minus the level); NaN when the stop is after
                          event @events (a transition, an output that
                          jumps across the level, before a failing
                          event) */
} QdBreakHit;

/* A breakpoint as a diagram keeps it: by block path, so that it holds
 * for every run of the diagram (resolved to a QdBreak against each). */
typedef struct
{
  QdBreakKind kind;
  char       *block;   /* INTERNAL, TRANSITION, CROSSING: "/Integrator";
                          NULL for the others */
  guint       port;    /* CROSSING: the output port, from 0 */
  double      value;   /* TIME: the time; CROSSING: the level */
} QdBreakpoint;

QD_API QdBreakpoint *qd_breakpoint_new  (QdBreakKind         kind,
                                         const char         *block,
                                         guint               port,
                                         double              value);
QD_API QdBreakpoint *qd_breakpoint_copy (const QdBreakpoint *bp);
QD_API void          qd_breakpoint_free (QdBreakpoint       *bp);
/* The kind's name in files: "time", "internal", "transition",
 * "crossing", "error"; and back (FALSE for an unknown name). */
QD_API const char   *qd_break_kind_to_string   (QdBreakKind  kind);
QD_API gboolean      qd_break_kind_from_string (const char  *name,
                                                QdBreakKind *kind);

/* The breakpoints saved with @document (QdBreakpoint*, transfer none;
 * empty, never NULL). Replacing them (copied) is not an edit of the
 * model, so there is no undo step, but the document is then modified
 * (qd_document_set_unsaved()) until it is saved. The file keeps them
 * under "breakpoints" (docs/file-format.md). */
QD_API GPtrArray    *qd_document_get_breakpoints (QdDocument *document);
QD_API void          qd_document_set_breakpoints (QdDocument *document,
                                                  GPtrArray  *breakpoints);
/* The same as the loader does it: no modification mark. */
QD_API void          qd_document_load_breakpoints (QdDocument *document,
                                                   GPtrArray  *breakpoints);

/* Runs @self event by event until one of @breaks is met (TRUE, @hit
 * says where; the simulation is then exactly there: after hit->events
 * events, its clock at hit->t when that is a number) or the run ends
 * (FALSE, with @error set when it failed and no ERROR breakpoint was
 * given). At most @max_events events are executed (FALSE then, the run
 * paused where it is). A crossing counts only strictly after the time
 * the search starts, so searching again from a stop finds the next one.
 * Under a classic solver only TIME and ERROR breakpoints are met. */
QD_API gboolean    qd_simulation_run_to_break (QdSimulation   *self,
                                               const QdBreak  *breaks,
                                               guint           n_breaks,
                                               guint64         max_events,
                                               QdBreakHit     *hit,
                                               GError        **error);

G_END_DECLS

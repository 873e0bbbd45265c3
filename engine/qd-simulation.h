/* qd-simulation.h: a compiled diagram and its DEVS event loop
 *
 * qd_simulation_new() compiles a document into a flat simulation: it
 * validates everything (unknown types, bad parameters, unresolved names,
 * unconnected inputs, algebraic loops among direct-feedthrough blocks),
 * evaluates the variables and parameters, flattens the hierarchy, and builds
 * the fan-out of every output. The simulation is a snapshot: later edits of
 * the document do not touch it.
 *
 * The event loop is classic DEVS as in PowerDEVS: the imminent block's
 * output (lambda), its internal transition, then the external transition of
 * each receiver with its elapsed time. Simultaneous events go to the block
 * with the lower priority number, which is its position in the flattened
 * model (depth-first, in each system's block order); every run is therefore
 * deterministic. More than settings.illegitimacy_limit transitions without
 * time advancing stop the run with QD_ERROR_ILLEGITIMATE naming the blocks
 * involved; a block producing NaN or infinity stops it with
 * QD_ERROR_NUMERIC.
 *
 * A simulation is used from one thread, except qd_simulation_request_stop(),
 * the progress getters (time, counts) and the traces, which any thread may
 * call.
 */
#pragma once

#include <glib.h>

#include "qd-version-macros.h"
#include "qd-document.h"
#include "qd-event-log.h"
#include "qd-trace.h"

G_BEGIN_DECLS

typedef enum
{
  QD_RUN_DONE,      /* reached the requested time (or nothing is left to do) */
  QD_RUN_STEPPED,   /* executed the requested number of events */
  QD_RUN_STOPPED,   /* qd_simulation_request_stop() was called */
  QD_RUN_ERROR,     /* an error stopped the run; see @error */
} QdRunStatus;

/* Compiles @document. @overrides is a NULL-terminated list of
 * "NAME=EXPRESSION" that replace (or add) model variables, or NULL. Every
 * problem found is appended to @problems (QdProblem*, may be NULL); on any
 * problem NULL is returned and @error holds the first one. */
QD_API QdSimulation *qd_simulation_new     (QdDocument          *document,
                                            const char *const   *overrides,
                                            GPtrArray           *problems,
                                            GError             **error);
/* The same, taking the caller's reference to @document (transfer full)
 * and dropping it as soon as the model is compiled, before the blocks'
 * init: the simulation never reads the document, so a caller with no
 * further use for it (a command-line run) does not hold the document and
 * the whole flat model at once. When that was the last reference, the
 * document's memory goes back to the system. */
QD_API QdSimulation *qd_simulation_new_taking (QdDocument        *document,
                                              const char *const *overrides,
                                              GPtrArray         *problems,
                                              GError           **error);
QD_API void          qd_simulation_free    (QdSimulation        *self);

/* Validates without keeping a simulation: TRUE when there is no problem. */
QD_API gboolean      qd_document_check     (QdDocument          *document,
                                            const char *const   *overrides,
                                            GPtrArray           *problems);

/* The links of @system (a system of @document) that carry vectors:
 * QdLink* -> its width (GUINT_TO_POINTER), for the links wider than one;
 * NULL when @system has no vector block (docs/vectors.md). Free with
 * g_hash_table_unref(). */
QD_API GHashTable   *qd_vector_link_widths (QdDocument          *document,
                                            QdSystem            *system);

/* Executes every event with time < @t_stop (clamped to the final time);
 * afterwards the simulation time is @t_stop. Runs may be resumed: any
 * sequence of run_until and step calls gives the same result as one run. */
QD_API QdRunStatus   qd_simulation_run_until (QdSimulation      *self,
                                              double             t_stop,
                                              GError           **error);
/* Executes @n_events internal events (imminent blocks), or fewer if the
 * final time comes first. Under a classic solver (qd-classic.h): @n_events
 * steps of the solver, with the events up to the end of the last. */
QD_API QdRunStatus   qd_simulation_step    (QdSimulation        *self,
                                            guint64              n_events,
                                            GError             **error);
/* run_until(final time), then finish(). */
QD_API QdRunStatus   qd_simulation_run     (QdSimulation        *self,
                                            GError             **error);
/* Calls every block's exit and closes the traces at the current time.
 * Idempotent; no event runs afterwards. */
QD_API void          qd_simulation_finish  (QdSimulation        *self);
/* Any thread: the running call returns QD_RUN_STOPPED within a few
 * thousand events. */
QD_API void          qd_simulation_request_stop (QdSimulation   *self);

QD_API double        qd_simulation_get_time        (QdSimulation *self);
QD_API double        qd_simulation_get_next_time   (QdSimulation *self);
QD_API double        qd_simulation_get_start_time  (QdSimulation *self);
QD_API double        qd_simulation_get_final_time  (QdSimulation *self);
/* Internal events executed (each is one lambda + dint). */
QD_API guint64       qd_simulation_get_events      (QdSimulation *self);
/* Internal plus external transitions. */
QD_API guint64       qd_simulation_get_transitions (QdSimulation *self);
/* Internal transitions of QD_BLOCK_INTEGRATOR blocks. */
QD_API guint64       qd_simulation_get_integrator_steps (QdSimulation *self);

/* The flat model: atomic blocks in priority order. */
QD_API guint            qd_simulation_get_n_atomics (QdSimulation *self);
QD_API const QdAtomic  *qd_simulation_get_atomic    (QdSimulation *self,
                                                     guint         index);
QD_API void             qd_simulation_get_block_stats (QdSimulation *self,
                                                       guint         index,
                                                       guint64      *n_internal,
                                                       guint64      *n_external);
/* The number of states or signals block @index holds: n for a vector
 * block run natively as one block of n elements (docs/vectors.md), 1
 * for any other. */
QD_API guint            qd_simulation_get_block_width (QdSimulation *self,
                                                       guint         index);
/* Every trace the sinks created, in block order (QdTrace*, owned). */
QD_API GPtrArray       *qd_simulation_get_traces    (QdSimulation *self);
/* Whether a zero-time cascade through static blocks may run its events
 * at once, without the now queue, when nothing else is due at that time
 * (on by default). Off, every cascade takes the general path: the events,
 * their order, the counts and every value are the same to the last bit,
 * only slower. For tests and benchmarks; call it before the first run. */
QD_API void             qd_simulation_set_fused_cascades (QdSimulation *self,
                                                          gboolean      enabled);
/* Reports every transition of the run to @func (qd-event-log.h), or, with
 * @func NULL, none (the default). Set it before the first run. It may be
 * taken off (@func NULL) at any time, from @func too: the run then goes
 * on without it, at full speed within a thousand events. With a
 * log, zero-time cascades take the general path one transition at a time
 * (as qd_simulation_set_fused_cascades (self, FALSE)): the events, their
 * order, the counts and every value are those of a run without a log. */
QD_API void             qd_simulation_set_event_log (QdSimulation *self,
                                                     QdLogFunc     func,
                                                     gpointer      user_data);
/* The value of a model variable after overrides, or NaN. */
QD_API double           qd_simulation_get_variable  (QdSimulation *self,
                                                     const char   *name);

G_END_DECLS

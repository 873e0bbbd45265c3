/* qd-stats.h: statistics that blocks report at the end of a run
 *
 * A block may publish named numbers about its run (a queue's mean length,
 * a server's utilisation, a sink's minimum) with qd_atomic_set_stat(), in
 * exit or in any transition; setting the same name again replaces the
 * value, so the last one wins. The simulation keeps them in block order
 * (by priority, then in the order each name was first set), for
 * `qdevs-cli run --stats` and the editor.
 */
#pragma once

#include <glib.h>

#include "qd-version-macros.h"
#include "qd-block-type.h"

G_BEGIN_DECLS

typedef struct _QdStat QdStat;

struct _QdStat
{
  const char *path;    /* the block: "/Plant/Queue" */
  const char *name;    /* the statistic: "mean_length" */
  double      value;
};

/* Sets statistic @name of the block @self to @value. A block that is not
 * part of a simulation (assembled by hand) has nowhere to report: the call
 * does nothing then. */
QD_API void       qd_atomic_set_stat      (QdAtomic     *self,
                                           const char   *name,
                                           double        value);

/* Every statistic reported so far, in block order (QdStat*, owned by the
 * simulation, never NULL). Like the blocks, the statistics belong to the
 * thread that runs the simulation: read them there, or once the run is
 * over. */
QD_API GPtrArray *qd_simulation_get_stats (QdSimulation *self);

G_END_DECLS

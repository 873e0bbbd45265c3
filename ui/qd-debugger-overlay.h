/* qd-debugger-overlay.h: what the debugger draws over the canvas
 *
 * The block of the current transition ringed (amber for an output and an
 * internal transition, blue for an external one), the message of an
 * output travelling along its link to each receiver, and, when asked,
 * the value each link last carried at its midpoint.
 */
#pragma once

#include "qd-debugger.h"

G_BEGIN_DECLS

/* How long a message takes along its link. */
#define QD_DEBUGGER_ANIMATION_US 600000

/* The animation's progress, 0 to 1, or -1 when none runs. */
double qd_debugger_get_animation (QdDebugger *self);

/* Draws on @cr, in canvas units, over @system as @canvas shows it. */
void   qd_debugger_overlay_draw  (QdDebugger *self,
                                  QdCanvas   *canvas,
                                  cairo_t    *cr,
                                  QdSystem   *system);

G_END_DECLS

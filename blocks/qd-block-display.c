/* qd-block-display.c: Display, the value of a signal shown on its block
 *
 * A sink that records its input as one trace, "value", like a Scope of one
 * input, and declares it displayable (QD_BLOCK_DISPLAY): the editor shows
 * the value of the trace's last segment at the run's time on the block
 * while the run goes on and after it, as Simulink's Display block does. Headless runs and
 * exports see an ordinary trace.
 */
#include "qd-blocks-private.h"
#include "qd-trace.h"

typedef struct
{
  QdTrace *trace;
} Display;

static void
display_init (QdAtomic *self,
              double    t)
{
  Display *st = self->state;

  st->trace = qd_atomic_add_trace (self, "value");
}

static double
display_ta (QdAtomic *self)
{
  return QD_INF;
}

static void
display_dext (QdAtomic       *self,
              double          t,
              double          e,
              guint           port,
              const QdSignal *x)
{
  Display *st = self->state;
  QdSignal seg;

  qd_signal_advance (x, t, &seg);
  qd_trace_append (st->trace, &seg);
}

static void
display_dint (QdAtomic *self,
              double    t)
{
}

static guint64
display_lambda (QdAtomic *self,
                double    t)
{
  return 0;
}

const QdBlockType qd_block_display = {
  .id = "display",
  .category = N_("Sinks"),
  .name = N_("Display"),
  .glyph = "0.00",
  .doc = N_("Shows the value of its input on the block during a run: the "
            "input's polynomial at the simulated time, updated as the run "
            "goes on, and kept when it ends. The input is also recorded as "
            "the trace \"value\", for export."),
  .inputs = { .count = 1, .name_prefix = "u",
              .doc = N_("The signal to show.") },
  .state_size = sizeof (Display),
  .flags = QD_BLOCK_DISPLAY,
  .init = display_init,
  .ta = display_ta,
  .dint = display_dint,
  .dext = display_dext,
  .lambda = display_lambda,
};

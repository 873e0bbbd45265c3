/* qd-block-scope.c: Scope, a sink that records its inputs as traces
 *
 * One trace per input, named from the "names" parameter. Each input event
 * appends the arriving segment, as received, to its input's trace; plots
 * and exports then draw or sample the exact polynomials between events.
 * The block is otherwise passive: it never emits.
 */
#include <string.h>

#include "qd-blocks-private.h"
#include "qd-trace.h"

enum
{
  PARAM_N,
  PARAM_NAMES,
};

typedef struct
{
  QdTrace **traces;
} Scope;

static void
scope_init (QdAtomic *self,
            double    t)
{
  Scope *st = self->state;
  g_auto(GStrv) names = g_strsplit (self->params[PARAM_NAMES].text, ",", -1);
  guint n_names = g_strv_length (names);

  st->traces = qd_atomic_alloc (self, self->n_in * sizeof (QdTrace *));
  for (guint i = 0; i < self->n_in; i++)
    {
      char *name = i < n_names ? g_strstrip (names[i]) : NULL;
      char fallback[32];

      /* Empty entries get the positional name x1, x2, ... */
      if (name == NULL || *name == '\0')
        {
          g_snprintf (fallback, sizeof fallback, "x%u", i + 1);
          name = fallback;
        }
      st->traces[i] = qd_atomic_add_trace (self, name);
    }
}

static double
scope_ta (QdAtomic *self)
{
  return QD_INF;
}

static void
scope_dext (QdAtomic       *self,
            double          t,
            double          e,
            guint           port,
            const QdSignal *x)
{
  Scope *st = self->state;

  if (x->t == t)
    qd_trace_append (st->traces[port], x);
  else
    {
      QdSignal seg;

      qd_signal_advance (x, t, &seg);
      qd_trace_append (st->traces[port], &seg);
    }
}

static void
scope_dint (QdAtomic *self,
            double    t)
{
}

static guint64
scope_lambda (QdAtomic *self,
              double    t)
{
  return 0;
}

static const QdParamSpec scope_params[] = {
  { "n", N_("Inputs"), QD_PARAM_INTEGER, "1", 1, 64, NULL,
    N_("The number of signals to record."), NULL, 0 },
  { "names", N_("Signal names"), QD_PARAM_STRING, "", -QD_INF, QD_INF, NULL,
    N_("The names of the signals, separated by commas; an empty or "
       "missing name is x1, x2, ... by position."), NULL, 0 },
  { "elements", N_("Elements"), QD_PARAM_STRING, "all", -QD_INF, QD_INF, NULL,
    N_("Of an input that carries a vector, the elements to record and plot, "
       "numbered from 1: all, a range (\"1:10\") or a list (\"1, 5, 7\"), "
       "each an expression of the model variables. Element 3 of the input "
       "named v is named v[3]. A scalar input is always recorded."), NULL, 0 },
};

const QdBlockType qd_block_scope = {
  .id = "scope",
  .category = N_("Sinks"),
  .name = N_("Scope"),
  .glyph = "◫",
  .doc = N_("Records its inputs as traces that the plot shows while the "
            "simulation runs and that can be exported afterwards. Each "
            "event is kept as the exact polynomial segment it carries."),
  .inputs = { .size_param = "n", .name_prefix = "u",
              .doc = N_("The signals to record.") },
  .params = scope_params,
  .n_params = G_N_ELEMENTS (scope_params),
  .flags = QD_BLOCK_PLOT,
  .state_size = sizeof (Scope),
  .init = scope_init,
  .ta = scope_ta,
  .dint = scope_dint,
  .dext = scope_dext,
  .lambda = scope_lambda,
};

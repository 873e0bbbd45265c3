/* qd-block-scope.c: Scope, a sink that records its inputs as traces
 *
 * One trace per input, named from the "names" parameter. Each input event
 * appends the arriving segment, as received, to its input's trace; plots
 * and exports then draw or sample the exact polynomials between events.
 * The block is otherwise passive: it never emits.
 *
 * How the plot arranges the signals ("layout", "groups", "labels",
 * "time_label") is read by the plots, not by the block; the block only
 * checks that the groups name its signals, so that Check reports a
 * mistake there like any other.
 */
#include <string.h>

#include "qd-blocks-private.h"
#include "qd-block-fast-private.h"
#include "qd-trace.h"

enum
{
  PARAM_N,
  PARAM_NAMES,
  PARAM_LAYOUT,
  PARAM_GROUPS,
  PARAM_LABELS,
  PARAM_TIME_LABEL,
};

typedef struct
{
  QdTrace **traces;
} Scope;

/* The name of input @i: its entry of "names" (@names, @n_names of
 * them), else x1, x2, ... by position, written into @fallback. */
static const char *
scope_name (char  **names,
            guint   n_names,
            guint   i,
            char   *fallback,
            gsize   size)
{
  const char *name = i < n_names ? g_strstrip (names[i]) : NULL;

  if (name == NULL || *name == '\0')
    {
      g_snprintf (fallback, size, "x%u", i + 1);
      name = fallback;
    }
  return name;
}

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
      char fallback[32];

      st->traces[i] = qd_atomic_add_trace (self, scope_name (names, n_names, i,
                                                             fallback, sizeof fallback));
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

/* dext and ta in one call (QdBlockFastPaths.dext_ta): the Scope stays
 * passive, so the loop calls it once per input event instead of a
 * wrapper calling the two. */
static double
scope_dext_ta (QdAtomic       *self,
               double          t,
               double          e,
               guint           port,
               const QdSignal *x)
{
  scope_dext (self, t, e, port, x);
  return QD_INF;
}

static const QdBlockFastPaths scope_fast = {
  .dext_ta = scope_dext_ta,
};

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

/* Which input a member of "groups" means: a name of "names" (an
 * empty or missing one is x1, x2, ...), or an input number from 1;
 * -1 for neither. */
static int
scope_member_input (const char *member,
                    char      **names,
                    guint       n_inputs)
{
  guint n_names = g_strv_length (names);
  char *end = NULL;
  guint64 number;

  for (guint i = 0; i < n_inputs; i++)
    {
      char fallback[32];

      if (strcmp (scope_name (names, n_names, i, fallback, sizeof fallback), member) == 0)
        return (int) i;
    }
  number = g_ascii_strtoull (member, &end, 10);
  return end != member && *end == '\0' && number >= 1 && number <= n_inputs
         ? (int) number - 1 : -1;
}

static gboolean
scope_check (const QdBlockType  *type,
             const QdParamValue *params,
             guint               n_inputs,
             guint               n_outputs,
             GError            **error)
{
  g_auto(GStrv) names = g_strsplit (params[PARAM_NAMES].text, ",", -1);
  g_auto(GStrv) groups = g_strsplit (params[PARAM_GROUPS].text, ";", -1);
  g_autofree int *group_of = g_new (int, MAX (n_inputs, 1));

  for (guint i = 0; i < n_inputs; i++)
    group_of[i] = -1;
  for (int g = 0; groups[g] != NULL; g++)
    {
      g_auto(GStrv) members = g_strsplit (groups[g], ",", -1);

      for (guint m = 0; members[m] != NULL; m++)
        {
          const char *member = g_strstrip (members[m]);
          int input;

          if (*member == '\0')
            continue;
          input = scope_member_input (member, names, n_inputs);
          if (input < 0)
            {
              g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                           _("parameter 'groups': '%s' is neither a signal name "
                             "nor an input number from 1 to %u"), member, n_inputs);
              return FALSE;
            }
          if (group_of[input] >= 0 && group_of[input] != g)
            {
              g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                           _("parameter 'groups': '%s' is in two groups; "
                             "put each signal in one group"), member);
              return FALSE;
            }
          group_of[input] = g;
        }
    }
  return TRUE;
}

static const char *const scope_layouts[] = { "single", "subplots", "axes", NULL };

static const QdParamSpec scope_params[] = {
  { "n", N_("Inputs"), QD_PARAM_INTEGER, "1", 1, 64, NULL,
    N_("The number of signals to record."), NULL, 0 },
  { "names", N_("Signal names"), QD_PARAM_STRING, "", -QD_INF, QD_INF, NULL,
    N_("The names of the signals, separated by commas; an empty or "
       "missing name is x1, x2, ... by position."), NULL, 0 },
  { "layout", N_("Layout"), QD_PARAM_CHOICE, "single", -QD_INF, QD_INF, NULL,
    N_("How the plot shows the signals: single, all on one value axis; "
       "subplots, a plot per signal or group stacked on a shared time "
       "axis; axes, one plot area with a value axis per signal or group "
       "(up to four)."), scope_layouts, 0 },
  { "groups", N_("Groups"), QD_PARAM_STRING, "", -QD_INF, QD_INF, NULL,
    N_("Which signals share an axis: groups separated by semicolons, each "
       "a comma-separated list of signal names or input numbers from 1, "
       "as in \"v, i; 3\"; a signal in no group has an axis of its own. "
       "Empty: one axis per signal."), NULL, 0 },
  { "labels", N_("Axis labels"), QD_PARAM_STRING, "", -QD_INF, QD_INF, NULL,
    N_("Each signal's label on its value axis, by position, separated by "
       "commas, with its unit in brackets, as in \"v [V], i [A]\"; an "
       "empty label is the signal's name."), NULL, 0 },
  { "time_label", N_("Time axis label"), QD_PARAM_STRING, "", -QD_INF, QD_INF, NULL,
    N_("The label under the time axis, as in \"t [s]\"; empty: none."), NULL, 0 },
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
  .check = scope_check,
  .init = scope_init,
  .ta = scope_ta,
  .dint = scope_dint,
  .dext = scope_dext,
  .lambda = scope_lambda,
  .fast = &scope_fast,
};

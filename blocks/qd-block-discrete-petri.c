/* qd-block-discrete-petri.c: Place and Transition, timed Petri nets
 *
 * The place/transition handshake, after PowerDEVS's Petri net library:
 * places hold the tokens and announce their count; transitions watch the
 * counts of their input places and send token changes back.
 *
 *   Place.y0 (the count) → Transition.u<k>, one input per input place
 *   Transition.y0 ("fire", +1) → an input of each output place
 *   Transition.y1 ("take", −1) → an input of each input place
 *
 * A Place adds the value of every event it receives (rounded to a whole
 * number) to its tokens and then emits the new count, also when the
 * change was zero; it emits its initial tokens at the start time.
 *
 * A Transition is enabled while every input place shows a token. Enabled,
 * it waits 'delay' (a timer that a disabling cancels and an enabling
 * restarts) and fires: one event of +1 on y0 and one of −1 on y1 at the
 * same instant. It then waits until each of its input places has
 * answered with its new count before it looks at the counts again, so it
 * never fires twice on the same token.
 *
 * Two enabled transitions that share a token and fire at the same
 * instant are resolved by priority: the first fires, the place's new
 * count disables the other, provided the place comes before the
 * transitions in the priority order (as it does when the places are added
 * first). Otherwise the second takes a token that is gone, and the place
 * stops the run with an error saying so.
 *
 * Statistics: Place: tokens (at the end), mean_tokens (time average);
 * Transition: firings.
 */
#include <math.h>

#include "qd-blocks-private.h"
#include "qd-stats.h"

/* -------------------------------------------------------------------- */
/* Place */

enum
{
  PLACE_TOKENS,
  PLACE_N,
};

/* The most tokens a place holds: the top of its initial tokens' range,
 * well inside what a double counts exactly (2^53). */
#define PLACE_MAX_TOKENS 1e15

typedef struct
{
  gint64   tokens;
  gboolean changed;     /* the count has not been emitted yet */
  double   t0;
  double   tl;          /* the last change of tokens */
  double   area;        /* ∫ tokens dt from t0 to tl */
} Place;

static void
place_init (QdAtomic *self,
            double    t)
{
  Place *st = self->state;

  st->tokens = (gint64) self->params[PLACE_TOKENS].number;
  st->changed = TRUE;
  st->t0 = st->tl = t;
  st->area = 0.0;
}

static double
place_ta (QdAtomic *self)
{
  Place *st = self->state;

  return st->changed ? 0.0 : QD_INF;
}

static guint64
place_lambda (QdAtomic *self,
              double    t)
{
  Place *st = self->state;

  qd_signal_set_constant (&self->out[0], t, (double) st->tokens);
  self->out[0].tag = (guint32) MIN (st->tokens, (gint64) G_MAXUINT32);
  return 1;
}

static void
place_dint (QdAtomic *self,
            double    t)
{
  Place *st = self->state;

  st->changed = FALSE;
}

static void
place_dext (QdAtomic       *self,
            double          t,
            double          e,
            guint           port,
            const QdSignal *x)
{
  Place *st = self->state;
  double value = qd_signal_eval (x, t);
  gint64 change;

  st->area += (double) st->tokens * (t - st->tl);
  st->tl = t;
  st->changed = TRUE;
  /* The count stays within the initial tokens' range, so that the sum
   * below can neither overflow nor lose whole tokens to rounding. */
  if (!(fabs (value) <= PLACE_MAX_TOKENS)
      || st->tokens + (gint64) llround (value) > (gint64) PLACE_MAX_TOKENS)
    {
      qd_atomic_fail (self, QD_ERROR_FAILED,
                      _("an event of %g tokens at t = %g would take the "
                        "count past %g, the most a place holds; check "
                        "what feeds this place (its inputs should be "
                        "transitions' token changes, +1 or -1)"),
                      value, t, PLACE_MAX_TOKENS);
      return;
    }
  change = (gint64) llround (value);
  if (st->tokens + change < 0)
    {
      qd_atomic_fail (self, QD_ERROR_FAILED,
                      _("a transition took a token from an empty place at "
                        "t = %g: two transitions compete for its tokens; "
                        "move this place before the transitions in the "
                        "priority order so that they see its count in "
                        "time"), t);
      st->tokens = 0;
      return;
    }
  st->tokens += change;
}

static void
place_exit (QdAtomic *self,
            double    t)
{
  Place *st = self->state;

  st->area += (double) st->tokens * (t - st->tl);
  st->tl = t;
  qd_atomic_set_stat (self, "tokens", (double) st->tokens);
  qd_atomic_set_stat (self, "mean_tokens",
                      t > st->t0 ? st->area / (t - st->t0)
                                 : (double) st->tokens);
}

static const QdParamSpec place_params[] = {
  { "tokens", N_("Initial tokens"), QD_PARAM_INTEGER, "0", 0,
    PLACE_MAX_TOKENS, NULL,
    N_("The tokens in the place at the start."), NULL, 0 },
  { "n", N_("Inputs"), QD_PARAM_INTEGER, "2", 1, 64, NULL,
    N_("The number of arcs that change the tokens: one from each "
       "transition that puts tokens here (its y0) and one from each that "
       "takes them (its y1). Unconnected inputs are ignored."), NULL, 0 },
};

const QdBlockType qd_block_place = {
  .id = "place",
  .category = N_("Discrete"),
  .name = N_("Place"),
  .glyph = "◯",
  .doc = N_("A Petri net place. It holds tokens, adds the value of each "
            "event it receives (+1 from a transition's y0, −1 from a "
            "transition's y1) and emits its count at the start and after "
            "each change; connect the count to an input of every "
            "transition that takes tokens from here. Reports tokens and "
            "mean_tokens."),
  .inputs = { .size_param = "n", .name_prefix = "u",
              .doc = N_("Token changes from transitions.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The number of tokens (order 0).") },
  .params = place_params,
  .n_params = G_N_ELEMENTS (place_params),
  .flags = QD_BLOCK_OPTIONAL_INPUTS,
  .state_size = sizeof (Place),
  .init = place_init,
  .ta = place_ta,
  .dint = place_dint,
  .dext = place_dext,
  .lambda = place_lambda,
  .exit = place_exit,
};

/* -------------------------------------------------------------------- */
/* Transition */

enum
{
  TRANSITION_N,
  TRANSITION_DELAY,
};

enum
{
  TRANSITION_FIRE,
  TRANSITION_TAKE,
};

typedef enum
{
  TRANSITION_DISABLED,
  TRANSITION_TIMING,     /* enabled, the delay running */
  TRANSITION_WAITING,    /* fired, the input places not yet answered */
} TransitionPhase;

typedef struct
{
  TransitionPhase phase;
  double          sigma;
  guint64         pending;   /* bit k: input place k has not answered */
  guint64         firings;
} Transition;

static gboolean
transition_enabled (QdAtomic *self,
                    double    t)
{
  for (guint k = 0; k < self->n_in; k++)
    if (qd_signal_eval (self->in[k], t) < 0.5)
      return FALSE;
  return TRUE;
}

/* After the inputs changed at @t, @e after the last transition. */
static void
transition_update (QdAtomic *self,
                   double    t,
                   double    e)
{
  Transition *st = self->state;

  if (!transition_enabled (self, t))
    {
      st->phase = TRANSITION_DISABLED;
      st->sigma = QD_INF;
    }
  else if (st->phase == TRANSITION_TIMING)
    st->sigma = MAX (0.0, st->sigma - e);
  else
    {
      st->phase = TRANSITION_TIMING;
      st->sigma = self->params[TRANSITION_DELAY].number;
    }
}

static void
transition_init (QdAtomic *self,
                 double    t)
{
  Transition *st = self->state;

  st->phase = TRANSITION_DISABLED;
  st->sigma = QD_INF;
  st->pending = 0;
  st->firings = 0;
}

static double
transition_ta (QdAtomic *self)
{
  Transition *st = self->state;

  return st->sigma;
}

static guint64
transition_lambda (QdAtomic *self,
                   double    t)
{
  qd_signal_set_constant (&self->out[TRANSITION_FIRE], t, 1.0);
  qd_signal_set_constant (&self->out[TRANSITION_TAKE], t, -1.0);
  return (1 << TRANSITION_FIRE) | (1 << TRANSITION_TAKE);
}

static void
transition_dint (QdAtomic *self,
                 double    t)
{
  Transition *st = self->state;

  st->firings++;
  st->phase = TRANSITION_WAITING;
  st->sigma = QD_INF;
  st->pending = self->n_in >= 64 ? G_MAXUINT64
                                 : (G_GUINT64_CONSTANT (1) << self->n_in) - 1;
}

static void
transition_dext (QdAtomic       *self,
                 double          t,
                 double          e,
                 guint           port,
                 const QdSignal *x)
{
  Transition *st = self->state;

  if (st->phase == TRANSITION_WAITING)
    {
      st->pending &= ~(G_GUINT64_CONSTANT (1) << port);
      if (st->pending != 0)
        return;
      st->phase = TRANSITION_DISABLED;
    }
  transition_update (self, t, e);
}

static void
transition_exit (QdAtomic *self,
                 double    t)
{
  Transition *st = self->state;

  qd_atomic_set_stat (self, "firings", (double) st->firings);
}

static const QdParamSpec transition_params[] = {
  { "n", N_("Input places"), QD_PARAM_INTEGER, "1", 1, 64, NULL,
    N_("The number of input places, one input each for its count."),
    NULL, 0 },
  { "delay", N_("Delay"), QD_PARAM_NUMBER, "0", 0, QD_INF, "s",
    N_("How long the transition must stay enabled before it fires; 0 "
       "fires at once."), NULL, 0 },
};

const QdBlockType qd_block_transition = {
  .id = "transition",
  .category = N_("Discrete"),
  .name = N_("Transition"),
  .glyph = "▮",
  .doc = N_("A timed Petri net transition. Its inputs are the counts of its "
            "input places; once all of them hold a token and stay so for "
            "the delay, it fires: +1 on y0 (wire it to the output places) "
            "and −1 on y1 (wire it back to the input places). It fires "
            "again only after every input place has answered with its new "
            "count. Reports firings."),
  .inputs = { .size_param = "n", .name_prefix = "u",
              .doc = N_("The token counts of the input places.") },
  .outputs = { .count = 2, .name_prefix = "y",
               .doc = N_("y0 (fire): +1 for each output place; y1 (take): "
                         "−1 for each input place.") },
  .params = transition_params,
  .n_params = G_N_ELEMENTS (transition_params),
  .state_size = sizeof (Transition),
  .init = transition_init,
  .ta = transition_ta,
  .dint = transition_dint,
  .dext = transition_dext,
  .lambda = transition_lambda,
  .exit = transition_exit,
};

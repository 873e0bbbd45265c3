/* qd-test-plugin.c: a C plugin for the tests (test-plugins.c)
 *
 * Written as a plugin author would, against the public block API only.
 * Built several times: as is (the plugin "testplug"), and with one of
 * the macros below, as plugins that QDevs must refuse:
 *   QD_TEST_API_VERSION  another block API version
 *   QD_TEST_NO_ENTRY     no registration function
 *   QD_TEST_STRUCTURAL   a type with a flag only the engine's own
 *                        types may have
 */
#include <qdevs.h>

#ifndef QD_TEST_PLUGIN_NAME
# define QD_TEST_PLUGIN_NAME "testplug"
#endif
#ifndef QD_TEST_API_VERSION
# define QD_TEST_API_VERSION QD_BLOCK_API_VERSION
#endif

/* Ticker: emits 1, 2, 3, ... at times period, 2 period, ... */
typedef struct
{
  double sigma;
  double count;
} Ticker;

static const QdParamSpec ticker_params[] = {
  { "period", "Period", QD_PARAM_NUMBER, "1", 0.0, QD_INF, "s",
    "Time between two ticks.", NULL, 0 },
};

static gboolean
ticker_check (const QdBlockType  *type,
              const QdParamValue *params,
              guint               n_inputs,
              guint               n_outputs,
              GError            **error)
{
  if (params[0].number > 0.0)
    return TRUE;
  g_set_error (error, QD_ERROR, QD_ERROR_PARAM, "the period must be above 0");
  return FALSE;
}

static void
ticker_init (QdAtomic *self,
             double    t)
{
  Ticker *s = self->state;

  s->sigma = self->params[0].number;
  s->count = 0.0;
}

static double
ticker_ta (QdAtomic *self)
{
  return ((Ticker *) self->state)->sigma;
}

static void
ticker_dint (QdAtomic *self,
             double    t)
{
  Ticker *s = self->state;

  s->count += 1.0;
  s->sigma = self->params[0].number;
}

static void
ticker_dext (QdAtomic       *self,
             double          t,
             double          e,
             guint           port,
             const QdSignal *x)
{
  ((Ticker *) self->state)->sigma -= e;
}

static guint64
ticker_lambda (QdAtomic *self,
               double    t)
{
  qd_signal_set_constant (&self->out[0], t,
                          ((Ticker *) self->state)->count + 1.0);
  return 1;
}

static const QdBlockType ticker_type = {
  .id = QD_TEST_PLUGIN_NAME ":ticker",
  .category = "Test plugin",
  .name = "Ticker",
  .glyph = "T",
  .doc = "Counts ticks.",
  .inputs = { 0, NULL, NULL, NULL },
  .outputs = { 1, NULL, "y", "The number of ticks so far." },
  .params = ticker_params,
  .n_params = G_N_ELEMENTS (ticker_params),
  .state_size = sizeof (Ticker),
  .check = ticker_check,
  .init = ticker_init,
  .ta = ticker_ta,
  .dint = ticker_dint,
  .dext = ticker_dext,
  .lambda = ticker_lambda,
};

/* Scale: y = k u, with no delay. */
typedef struct
{
  double   sigma;
  QdSignal u;
} Scale;

static const QdParamSpec scale_params[] = {
  { "k", "Factor", QD_PARAM_NUMBER, "2", -QD_INF, QD_INF, NULL,
    "The factor.", NULL, 0 },
};

static void
scale_init (QdAtomic *self,
            double    t)
{
  ((Scale *) self->state)->sigma = QD_INF;
}

static double
scale_ta (QdAtomic *self)
{
  return ((Scale *) self->state)->sigma;
}

static void
scale_dint (QdAtomic *self,
            double    t)
{
  ((Scale *) self->state)->sigma = QD_INF;
}

static void
scale_dext (QdAtomic       *self,
            double          t,
            double          e,
            guint           port,
            const QdSignal *x)
{
  Scale *s = self->state;

  s->u = *x;
  s->sigma = 0.0;
}

static guint64
scale_lambda (QdAtomic *self,
              double    t)
{
  Scale *s = self->state;
  double k = self->params[0].number;

  self->out[0] = s->u;
  for (guint i = 0; i <= QD_MAX_ORDER; i++)
    self->out[0].c[i] = k * s->u.c[i];
  return 1;
}

static const QdBlockType scale_type = {
  .id = QD_TEST_PLUGIN_NAME ":scale",
  .category = "Test plugin",
  .name = "Scale",
  .glyph = "k",
  .doc = "Multiplies its input by k.",
  .inputs = { 1, NULL, "u", "The input." },
  .outputs = { 1, NULL, "y", "k times the input." },
  .params = scale_params,
  .n_params = G_N_ELEMENTS (scale_params),
#ifndef QD_TEST_STRUCTURAL
  .flags = QD_BLOCK_FEEDTHROUGH,
#else
  .flags = QD_BLOCK_FEEDTHROUGH | QD_BLOCK_STRUCTURAL,
#endif
  .state_size = sizeof (Scale),
  .init = scale_init,
  .ta = scale_ta,
  .dint = scale_dint,
  .dext = scale_dext,
  .lambda = scale_lambda,
};

static const QdBlockType *const types[] = { &ticker_type, &scale_type, NULL };

static const QdPluginInfo info = {
  .api_version = QD_TEST_API_VERSION,
  .name = QD_TEST_PLUGIN_NAME,
  .types = types,
};

#ifndef QD_TEST_NO_ENTRY
QD_PLUGIN_DEFINE (info)
#else
/* Keeps the table in use, under another name. */
G_MODULE_EXPORT const QdPluginInfo *qd_test_not_the_entry (void);
G_MODULE_EXPORT const QdPluginInfo *
qd_test_not_the_entry (void)
{
  return &info;
}
#endif

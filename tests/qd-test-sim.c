/* qd-test-sim.c: test block types and model builders of the simulation tests */
#include "qd-test-sim.h"

#include <string.h>

/* -------------------------------------------------------------------- */
/* The transition log */

GArray *qd_test_transition_log;
gboolean qd_test_log_enabled = TRUE;
guint qd_test_exit_count;

static void
log_transition (QdAtomic       *self,
                double          t,
                char            kind,
                guint           port,
                const QdSignal *x)
{
  QdTestLogEntry e = { t, self->index, g_quark_from_string (self->path),
                       kind, port, x != NULL ? qd_signal_eval (x, t) : 0 };

  if (qd_test_log_enabled)
    g_array_append_val (qd_test_transition_log, e);
}

void
qd_test_log_reset (void)
{
  g_array_set_size (qd_test_transition_log, 0);
  qd_test_exit_count = 0;
}

GArray *
qd_test_log_take (void)
{
  GArray *copy = g_array_copy (qd_test_transition_log);

  qd_test_log_reset ();
  return copy;
}

void
qd_test_assert_logs_equal (GArray *a,
                           GArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint k = 0; k < a->len; k++)
    {
      QdTestLogEntry *x = &g_array_index (a, QdTestLogEntry, k);
      QdTestLogEntry *y = &g_array_index (b, QdTestLogEntry, k);

      /* Bit-identical, not approximately equal. */
      g_assert_true (memcmp (&x->t, &y->t, sizeof (double)) == 0);
      g_assert_cmpuint (x->index, ==, y->index);
      g_assert_cmpuint (x->path, ==, y->path);
      g_assert_cmpint (x->kind, ==, y->kind);
      g_assert_cmpuint (x->port, ==, y->port);
      g_assert_true (memcmp (&x->value, &y->value, sizeof (double)) == 0);
    }
}

static void
test_exit (QdAtomic *self,
           double    t)
{
  qd_test_exit_count++;
}

/* -------------------------------------------------------------------- */
/* Test block types */

/* gen: emits value k + 1 at times[k]. */
typedef struct
{
  double t;
  guint  k;
} GenState;

static const QdParamSpec gen_params[] = {
  { "times", "Times", QD_PARAM_VECTOR, "1", -QD_INF, QD_INF, NULL, "", NULL, 0 },
  { "nan", "Emit NaN", QD_PARAM_BOOLEAN, "false", 0, 1, NULL, "", NULL, 0 },
};

static void
gen_init (QdAtomic *self, double t)
{
  GenState *s = self->state;

  s->t = t;
}

static double
gen_ta (QdAtomic *self)
{
  GenState *s = self->state;
  const QdParamValue *times = &self->params[0];

  return s->k < times->n_vector ? times->vector[s->k] - s->t : QD_INF;
}

static guint64
gen_lambda (QdAtomic *self, double t)
{
  GenState *s = self->state;

  qd_signal_set_constant (&self->out[0], t,
                          self->params[1].number != 0 ? NAN : s->k + 1.0);
  return 1;
}

static void
gen_dint (QdAtomic *self, double t)
{
  GenState *s = self->state;

  log_transition (self, t, 'i', 0, NULL);
  s->t = t;
  s->k++;
}

static const QdBlockType gen_type = {
  .id = "test-gen", .category = "Test", .name = "Gen", .doc = "",
  .outputs = { .count = 1 },
  .params = gen_params, .n_params = G_N_ELEMENTS (gen_params),
  .state_size = sizeof (GenState),
  .init = gen_init, .ta = gen_ta, .lambda = gen_lambda, .dint = gen_dint,
  .exit = test_exit,
};

/* clock: emits its event count every period; counts as an integrator. */
static const QdParamSpec clock_params[] = {
  { "period", "Period", QD_PARAM_NUMBER, "1", 0, QD_INF, "s", "", NULL, 0 },
};

static double
clock_ta (QdAtomic *self)
{
  return self->params[0].number;
}

static guint64
clock_lambda (QdAtomic *self, double t)
{
  qd_signal_set_constant (&self->out[0], t, self->out[0].c[0] + 1);
  return 1;
}

static void
clock_dint (QdAtomic *self, double t)
{
  log_transition (self, t, 'i', 0, NULL);
}

static const QdBlockType clock_type = {
  .id = "test-clock", .category = "Test", .name = "Clock", .doc = "",
  .outputs = { .count = 1 },
  .params = clock_params, .n_params = G_N_ELEMENTS (clock_params),
  .flags = QD_BLOCK_INTEGRATOR,
  .ta = clock_ta, .lambda = clock_lambda, .dint = clock_dint,
  .exit = test_exit,
};

/* pass: a static function y = u (sum: y = u0 + u1, read through in[]). */
typedef struct
{
  double sigma;
} StaticState;

static void
static_init (QdAtomic *self, double t)
{
  StaticState *s = self->state;

  s->sigma = QD_INF;
}

static double
static_ta (QdAtomic *self)
{
  StaticState *s = self->state;

  return s->sigma;
}

static void
static_dext (QdAtomic *self, double t, double e, guint port, const QdSignal *x)
{
  StaticState *s = self->state;

  log_transition (self, t, 'e', port, x);
  s->sigma = 0;
}

static guint64
static_lambda (QdAtomic *self, double t)
{
  double sum = 0;

  for (guint q = 0; q < self->n_in; q++)
    sum += qd_signal_eval (self->in[q], t);
  qd_signal_set_constant (&self->out[0], t, sum);
  return 1;
}

static void
static_dint (QdAtomic *self, double t)
{
  StaticState *s = self->state;

  log_transition (self, t, 'i', 0, NULL);
  s->sigma = QD_INF;
}

static const QdBlockType pass_type = {
  .id = "test-pass", .category = "Test", .name = "Pass", .doc = "",
  .inputs = { .count = 1 }, .outputs = { .count = 1 },
  .flags = QD_BLOCK_FEEDTHROUGH,
  .state_size = sizeof (StaticState),
  .init = static_init, .ta = static_ta, .dext = static_dext,
  .lambda = static_lambda, .dint = static_dint, .exit = test_exit,
};

static const QdBlockType sum_type = {
  .id = "test-sum", .category = "Test", .name = "Sum", .doc = "",
  .inputs = { .count = 2 }, .outputs = { .count = 1 },
  .flags = QD_BLOCK_FEEDTHROUGH,
  .state_size = sizeof (StaticState),
  .init = static_init, .ta = static_ta, .dext = static_dext,
  .lambda = static_lambda, .dint = static_dint, .exit = test_exit,
};

/* pass-logged and pass-static: y = u, with lambda logged as 'o'; the
 * same block without and with QD_BLOCK_STATIC. The static one's dext,
 * dint and ta are never called by the loop, so neither logs them. */
static guint64
logged_lambda (QdAtomic *self, double t)
{
  log_transition (self, t, 'o', 0, NULL);
  return static_lambda (self, t);
}

static void
quiet_dext (QdAtomic *self, double t, double e, guint port, const QdSignal *x)
{
  StaticState *s = self->state;

  s->sigma = 0;
}

static void
quiet_dint (QdAtomic *self, double t)
{
  StaticState *s = self->state;

  s->sigma = QD_INF;
}

static const QdBlockType pass_logged_type = {
  .id = "test-pass-logged", .category = "Test", .name = "Pass", .doc = "",
  .inputs = { .count = 1 }, .outputs = { .count = 1 },
  .flags = QD_BLOCK_FEEDTHROUGH,
  .state_size = sizeof (StaticState),
  .init = static_init, .ta = static_ta, .dext = quiet_dext,
  .lambda = logged_lambda, .dint = quiet_dint,
};

static const QdBlockType pass_static_type = {
  .id = "test-pass-static", .category = "Test", .name = "Pass", .doc = "",
  .inputs = { .count = 1 }, .outputs = { .count = 1 },
  .flags = QD_BLOCK_FEEDTHROUGH | QD_BLOCK_STATIC,
  .state_size = sizeof (StaticState),
  .init = static_init, .ta = static_ta, .dext = quiet_dext,
  .lambda = logged_lambda, .dint = quiet_dint,
};

/* const and const-static: no inputs, y = 7 once at the start time (init
 * leaves the output due); the same block without and with
 * QD_BLOCK_STATIC, lambda logged as 'o'. */
static void
const_init (QdAtomic *self, double t)
{
  StaticState *s = self->state;

  s->sigma = 0;
}

static guint64
const_lambda (QdAtomic *self, double t)
{
  log_transition (self, t, 'o', 0, NULL);
  qd_signal_set_constant (&self->out[0], t, 7.0);
  return 1;
}

static const QdBlockType const_type = {
  .id = "test-const", .category = "Test", .name = "Const", .doc = "",
  .outputs = { .count = 1 },
  .flags = QD_BLOCK_FEEDTHROUGH,
  .state_size = sizeof (StaticState),
  .init = const_init, .ta = static_ta, .dext = quiet_dext,
  .lambda = const_lambda, .dint = quiet_dint,
};

static const QdBlockType const_static_type = {
  .id = "test-const-static", .category = "Test", .name = "Const", .doc = "",
  .outputs = { .count = 1 },
  .flags = QD_BLOCK_FEEDTHROUGH | QD_BLOCK_STATIC,
  .state_size = sizeof (StaticState),
  .init = const_init, .ta = static_ta, .dext = quiet_dext,
  .lambda = const_lambda, .dint = quiet_dint,
};

/* ping: answers every event after no time, up to "limit" times (-1: for
 * ever); "start" makes it begin at the start time. Not feedthrough, so a
 * loop of pings compiles: it is an illegitimate model, not an algebraic
 * loop. */
typedef struct
{
  double sigma;
  double count;
} PingState;

static const QdParamSpec ping_params[] = {
  { "start", "Start", QD_PARAM_BOOLEAN, "false", 0, 1, NULL, "", NULL, 0 },
  { "limit", "Limit", QD_PARAM_INTEGER, "-1", -1, QD_INF, NULL, "", NULL, 0 },
};

static void
ping_init (QdAtomic *self, double t)
{
  PingState *s = self->state;

  s->sigma = self->params[0].number != 0 ? 0 : QD_INF;
}

static double
ping_ta (QdAtomic *self)
{
  PingState *s = self->state;

  return s->sigma;
}

static void
ping_dext (QdAtomic *self, double t, double e, guint port, const QdSignal *x)
{
  PingState *s = self->state;
  double limit = self->params[1].number;

  log_transition (self, t, 'e', port, x);
  s->sigma = limit < 0 || s->count < limit ? 0 : QD_INF;
}

static guint64
ping_lambda (QdAtomic *self, double t)
{
  PingState *s = self->state;

  qd_signal_set_constant (&self->out[0], t, s->count);
  return 1;
}

static void
ping_dint (QdAtomic *self, double t)
{
  PingState *s = self->state;

  log_transition (self, t, 'i', 0, NULL);
  s->count++;
  s->sigma = QD_INF;
}

static const QdBlockType ping_type = {
  .id = "test-ping", .category = "Test", .name = "Ping", .doc = "",
  .inputs = { .count = 1 }, .outputs = { .count = 1 },
  .params = ping_params, .n_params = G_N_ELEMENTS (ping_params),
  .state_size = sizeof (PingState),
  .init = ping_init, .ta = ping_ta, .dext = ping_dext,
  .lambda = ping_lambda, .dint = ping_dint, .exit = test_exit,
};

/* sink: "n" optional inputs; records input 0 in a trace "in". */
typedef struct
{
  QdTrace *trace;
} SinkState;

static const QdParamSpec sink_params[] = {
  { "n", "Inputs", QD_PARAM_INTEGER, "1", 1, 8, NULL, "", NULL, 0 },
};

static void
sink_init (QdAtomic *self, double t)
{
  SinkState *s = self->state;

  s->trace = qd_atomic_add_trace (self, "in");
}

static double
sink_ta (QdAtomic *self)
{
  return QD_INF;
}

static void
sink_dext (QdAtomic *self, double t, double e, guint port, const QdSignal *x)
{
  SinkState *s = self->state;

  log_transition (self, t, 'e', port, x);
  if (port == 0)
    qd_trace_append (s->trace, x);
}

static const QdBlockType sink_type = {
  .id = "test-sink", .category = "Test", .name = "Sink", .doc = "",
  .inputs = { .size_param = "n" },
  .params = sink_params, .n_params = G_N_ELEMENTS (sink_params),
  .flags = QD_BLOCK_OPTIONAL_INPUTS,
  .state_size = sizeof (SinkState),
  .init = sink_init, .ta = sink_ta, .dext = sink_dext, .exit = test_exit,
};

/* failer: fails at its first internal transition, at t = 1. */
static double
failer_ta (QdAtomic *self)
{
  return *(double *) self->state == 0 ? 1.0 : QD_INF;
}

static guint64
failer_lambda (QdAtomic *self, double t)
{
  return 0;
}

static void
failer_dint (QdAtomic *self, double t)
{
  *(double *) self->state = 1;
  qd_atomic_fail (self, QD_ERROR_FAILED, "cannot write '%s'; check the folder",
                  "out.csv");
}

static const QdBlockType failer_type = {
  .id = "test-failer", .category = "Test", .name = "Failer", .doc = "",
  .state_size = sizeof (double),
  .ta = failer_ta, .lambda = failer_lambda, .dint = failer_dint,
  .exit = test_exit,
};

/* params: one parameter of each kind, and a check. */
static const char *const methods[] = { "QSS1", "QSS2", "QSS3", NULL };

static const QdParamSpec params_params[] = {
  { "k", "Gain", QD_PARAM_NUMBER, "1", -QD_INF, QD_INF, NULL, "", NULL, 0 },
  { "n", "Count", QD_PARAM_INTEGER, "2", 1, 10, NULL, "", NULL, 0 },
  { "dqmin", "dqmin", QD_PARAM_NUMBER, "", 0, QD_INF, NULL, "", NULL,
    QD_PARAM_INHERIT },
  { "method", "Method", QD_PARAM_CHOICE, "", 0, 0, NULL, "", methods,
    QD_PARAM_INHERIT },
  { "flag", "Flag", QD_PARAM_BOOLEAN, "false", 0, 1, NULL, "", NULL, 0 },
  { "w", "Weights", QD_PARAM_VECTOR, "1, 2", -QD_INF, QD_INF, NULL, "", NULL, 0 },
  { "file", "File", QD_PARAM_STRING, "out.csv", 0, 0, NULL, "", NULL, 0 },
};

static gboolean
params_check (const QdBlockType  *type,
              const QdParamValue *params,
              guint               n_inputs,
              guint               n_outputs,
              GError            **error)
{
  if (params[5].n_vector != (guint) params[1].number)
    {
      g_set_error (error, QD_ERROR, QD_ERROR_PARAM,
                   "parameter 'w' must have %g elements (it has %u)",
                   params[1].number, params[5].n_vector);
      return FALSE;
    }
  return TRUE;
}

static const QdBlockType params_type = {
  .id = "test-params", .category = "Test", .name = "Params", .doc = "",
  .params = params_params, .n_params = G_N_ELEMENTS (params_params),
  .check = params_check, .ta = sink_ta, .exit = test_exit,
};

/* -------------------------------------------------------------------- */
/* Building documents without the edit commands */

void
qd_test_model_init (QdTestModel *m)
{
  m->doc = qd_document_new ();
  m->root = qd_system_new ();
  m->next_link = 0;
}

/* Installs the root; call once the model is complete. */
QdDocument *
qd_test_model_finish (QdTestModel *m)
{
  qd_document_take_root (m->doc, m->root);
  return m->doc;
}

/* The block's id is its name (unique within these tests). */
QdBlock *
qd_test_model_add_block (QdSystem   *system,
                         const char *type,
                         const char *name)
{
  QdBlock *block = qd_block_new (name, type, name);

  qd_system_append_block (system, block);
  return block;
}

void
qd_test_model_connect (QdTestModel *m,
                       QdSystem    *system,
                       const char  *src,
                       guint        src_port,
                       const char  *dst,
                       guint        dst_port)
{
  QdLink *link = NULL;

  for (guint i = 0; i < system->links->len; i++)
    {
      QdLink *l = g_ptr_array_index (system->links, i);

      if (strcmp (l->src.block, src) == 0 && l->src.port == src_port)
        link = l;
    }
  if (link == NULL)
    {
      char id[32];

      g_snprintf (id, sizeof id, "l%u", ++m->next_link);
      link = qd_link_new (id, src, src_port);
      qd_system_append_link (system, link);
    }
  qd_link_add_target (link, dst, dst_port);
}

void
qd_test_set_settings (QdDocument *doc,
                      double      final_time,
                      guint64     limit)
{
  QdSettings s = *qd_document_get_settings (doc);
  g_autoptr(GError) error = NULL;

  s.final_time = final_time;
  if (limit > 0)
    s.illegitimacy_limit = limit;
  g_assert_true (qd_document_set_settings (doc, &s, &error));
  g_assert_no_error (error);
}

QdSimulation *
qd_test_compile_ok (QdDocument        *doc,
                    const char *const *overrides)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) problems =
    g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  QdSimulation *sim = qd_simulation_new (doc, overrides, problems, &error);

  for (guint i = 0; i < problems->len; i++)
    {
      g_autofree char *text = qd_problem_to_string (g_ptr_array_index (problems, i));

      g_test_message ("problem: %s", text);
    }
  g_assert_no_error (error);
  g_assert_nonnull (sim);
  g_assert_cmpuint (problems->len, ==, 0);
  return sim;
}

/* Compiles a document that must fail; returns its problems as strings. */
GPtrArray *
qd_test_compile_problems (QdDocument        *doc,
                          const char *const *overrides)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) problems =
    g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  GPtrArray *texts = g_ptr_array_new_with_free_func (g_free);
  QdSimulation *sim = qd_simulation_new (doc, overrides, problems, &error);

  g_assert_null (sim);
  g_assert_error (error, QD_ERROR, (gint) ((QdProblem *) problems->pdata[0])->code);
  for (guint i = 0; i < problems->len; i++)
    g_ptr_array_add (texts, qd_problem_to_string (g_ptr_array_index (problems, i)));
  /* The error is the first problem. */
  g_assert_cmpstr (error->message, ==, g_ptr_array_index (texts, 0));
  /* A check finds the same. */
  {
    g_autoptr(GPtrArray) again =
      g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);

    g_assert_false (qd_document_check (doc, overrides, again));
    g_assert_cmpuint (again->len, ==, problems->len);
  }
  return texts;
}

void
qd_test_assert_has_problem (GPtrArray  *texts,
                            const char *expected)
{
  for (guint i = 0; i < texts->len; i++)
    if (strcmp (g_ptr_array_index (texts, i), expected) == 0)
      return;
  for (guint i = 0; i < texts->len; i++)
    g_test_message ("got: %s", (char *) g_ptr_array_index (texts, i));
  g_error ("missing problem: %s", expected);
}

/* Gen (1, 2, 3) -> Pass -> Sink.0 and Gen -> Sink.1; a clock of period 1
 * over [0, 10). */
QdDocument *
qd_test_small_model (void)
{
  QdTestModel m;

  qd_test_model_init (&m);
  qd_block_set_param_raw (qd_test_model_add_block (m.root, "test-gen", "Gen"), "times", "1, 2, 3");
  qd_test_model_add_block (m.root, "test-pass", "Pass");
  qd_block_set_param_raw (qd_test_model_add_block (m.root, "test-sink", "Sink"), "n", "2");
  qd_test_model_add_block (m.root, "test-clock", "Clock");
  qd_test_model_connect (&m, m.root, "Gen", 0, "Pass", 0);
  qd_test_model_connect (&m, m.root, "Pass", 0, "Sink", 0);
  qd_test_model_connect (&m, m.root, "Gen", 0, "Sink", 1);
  qd_test_model_finish (&m);
  return m.doc;
}

/* -------------------------------------------------------------------- */

void
qd_test_register_sim_blocks (void)
{
  qd_registry_register (&gen_type);
  qd_registry_register (&clock_type);
  qd_registry_register (&pass_type);
  qd_registry_register (&sum_type);
  qd_registry_register (&pass_logged_type);
  qd_registry_register (&pass_static_type);
  qd_registry_register (&const_type);
  qd_registry_register (&const_static_type);
  qd_registry_register (&ping_type);
  qd_registry_register (&sink_type);
  qd_registry_register (&failer_type);
  qd_registry_register (&params_type);
  qd_test_transition_log = g_array_new (FALSE, FALSE, sizeof (QdTestLogEntry));
}

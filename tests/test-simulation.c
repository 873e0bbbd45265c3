/* test-simulation.c: compiling documents and running the DEVS event loop
 *
 * The models use test-only block types registered here (a generator that
 * emits at given times, a clock, a pass-through static function, a
 * two-input sum, a zero-time ping, a sink), each logging its transitions,
 * so that these tests do not depend on the block library.
 */
#include <string.h>

#include "qd-test-util.h"

/* -------------------------------------------------------------------- */
/* The transition log */

typedef struct
{
  double  t;
  guint   index;
  GQuark  path;
  char    kind;    /* 'i' internal, 'e' external */
  guint   port;
  double  value;   /* external: the value received */
} LogEntry;

static GArray *transition_log;
static gboolean log_enabled = TRUE;
static guint exit_count;

static void
log_transition (QdAtomic       *self,
                double          t,
                char            kind,
                guint           port,
                const QdSignal *x)
{
  LogEntry e = { t, self->index, g_quark_from_string (self->path), kind, port,
                 x != NULL ? qd_signal_eval (x, t) : 0 };

  if (log_enabled)
    g_array_append_val (transition_log, e);
}

static void
log_reset (void)
{
  g_array_set_size (transition_log, 0);
  exit_count = 0;
}

static GArray *
log_take (void)
{
  GArray *copy = g_array_copy (transition_log);

  log_reset ();
  return copy;
}

static void
assert_logs_equal (GArray *a,
                   GArray *b)
{
  g_assert_cmpuint (a->len, ==, b->len);
  for (guint k = 0; k < a->len; k++)
    {
      LogEntry *x = &g_array_index (a, LogEntry, k);
      LogEntry *y = &g_array_index (b, LogEntry, k);

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
  exit_count++;
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

typedef struct
{
  QdDocument *doc;
  QdSystem   *root;
  guint       next_link;
} Model;

static void
model_init (Model *m)
{
  m->doc = qd_document_new ();
  m->root = qd_system_new ();
  m->next_link = 0;
}

/* Installs the root; call once the model is complete. */
static QdDocument *
model_finish (Model *m)
{
  qd_document_take_root (m->doc, m->root);
  return m->doc;
}

/* The block's id is its name (unique within these tests). */
static QdBlock *
add_block (QdSystem   *system,
           const char *type,
           const char *name)
{
  QdBlock *block = qd_block_new (name, type, name);

  qd_system_append_block (system, block);
  return block;
}

static void
connect (Model      *m,
         QdSystem   *system,
         const char *src,
         guint       src_port,
         const char *dst,
         guint       dst_port)
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

static void
set_settings (QdDocument *doc,
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

static QdSimulation *
compile_ok (QdDocument        *doc,
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
static GPtrArray *
compile_problems (QdDocument        *doc,
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

static void
assert_has_problem (GPtrArray  *texts,
                    const char *expected)
{
  for (guint i = 0; i < texts->len; i++)
    if (strcmp (g_ptr_array_index (texts, i), expected) == 0)
      return;
  for (guint i = 0; i < texts->len; i++)
    g_test_message ("got: %s", (char *) g_ptr_array_index (texts, i));
  g_error ("missing problem: %s", expected);
}

/* -------------------------------------------------------------------- */
/* Compile problems */

static void
test_compile_unknown_type (void)
{
  Model m;
  g_autoptr(GPtrArray) texts = NULL;
  g_autoptr(GPtrArray) problems =
    g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  QdProblem *p;

  model_init (&m);
  add_block (m.root, "no-such-type", "Mystery");
  model_finish (&m);

  texts = compile_problems (m.doc, NULL);
  g_assert_cmpuint (texts->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (texts, 0), ==,
                   "/Mystery: unknown block type 'no-such-type'; replace the "
                   "block, or load the library that provides this type");
  g_assert_false (qd_document_check (m.doc, NULL, problems));
  p = g_ptr_array_index (problems, 0);
  g_assert_cmpint (p->code, ==, QD_ERROR_UNKNOWN_TYPE);
  g_assert_cmpstr (p->path, ==, "/Mystery");
  g_assert_cmpstr (p->block_id, ==, "Mystery");
  g_object_unref (m.doc);
}

static void
test_compile_parameters (void)
{
  Model m;
  g_autoptr(GPtrArray) texts = NULL;
  QdBlock *b;
  g_autoptr(GError) error = NULL;

  model_init (&m);
  b = add_block (m.root, "test-params", "Unresolved");
  qd_block_set_param_raw (b, "k", "2*R2");
  b = add_block (m.root, "test-params", "Range");
  qd_block_set_param_raw (b, "dqmin", "-1");
  b = add_block (m.root, "test-params", "Whole");
  qd_block_set_param_raw (b, "n", "2.5");
  b = add_block (m.root, "test-params", "Big");
  qd_block_set_param_raw (b, "n", "11");
  b = add_block (m.root, "test-params", "Choice");
  qd_block_set_param_raw (b, "method", "QSS9");
  b = add_block (m.root, "test-params", "Bool");
  qd_block_set_param_raw (b, "flag", "yes");
  b = add_block (m.root, "test-params", "Vector");
  qd_block_set_param_raw (b, "w", "1, max(2, 3), 4*Q");
  b = add_block (m.root, "test-params", "Checked");
  qd_block_set_param_raw (b, "w", "1, 2, 3");
  b = add_block (m.root, "test-params", "Fine");
  qd_block_set_param_raw (b, "k", "R");
  g_assert_true (qd_document_set_variable (m.doc, "R", "4", &error));
  model_finish (&m);

  texts = compile_problems (m.doc, NULL);
  assert_has_problem (texts, "/Unresolved: parameter 'k': column 3: unknown name 'R2'");
  assert_has_problem (texts, "/Range: parameter 'dqmin' must be at least 0 (it is -1)");
  assert_has_problem (texts, "/Whole: parameter 'n' must be a whole number (it is 2.5)");
  assert_has_problem (texts, "/Big: parameter 'n' must be at most 10 (it is 11)");
  assert_has_problem (texts, "/Choice: parameter 'method' must be one of QSS1, "
                             "QSS2, QSS3 (it is 'QSS9')");
  assert_has_problem (texts, "/Bool: parameter 'flag' must be true or false (it is 'yes')");
  /* Columns count in the whole vector text. */
  assert_has_problem (texts, "/Vector: parameter 'w': column 17: unknown name 'Q'");
  assert_has_problem (texts, "/Checked: parameter 'w' must have 2 elements (it has 3)");
  /* Every problem, in block order; nothing about the fine block. */
  g_assert_cmpuint (texts->len, ==, 8);
  g_assert_true (g_str_has_prefix (g_ptr_array_index (texts, 0), "/Unresolved: "));
  g_assert_true (g_str_has_prefix (g_ptr_array_index (texts, 7), "/Checked: "));
  g_object_unref (m.doc);
}

/* Values: defaults, inherited settings, choices, vectors, variables. */
static void
test_compile_values (void)
{
  Model m;
  QdSimulation *sim;
  const QdAtomic *a;
  const char *const overrides[] = { "R=5", "Z = R*2", NULL };
  QdSettings s;
  QdBlock *b;
  g_autoptr(GError) error = NULL;

  model_init (&m);
  b = add_block (m.root, "test-params", "P");
  qd_block_set_param_raw (b, "k", "R + C");
  qd_block_set_param_raw (b, "w", "R, -1, max(1, 2) * 2");
  qd_block_set_param_raw (b, "n", "3");
  qd_block_set_param_raw (b, "flag", "true");
  g_assert_true (qd_document_set_variable (m.doc, "R", "1", &error));
  g_assert_true (qd_document_set_variable (m.doc, "C", "R * 10", &error));
  s = *qd_document_get_settings (m.doc);
  s.dqmin = 0.25;
  s.method = (char *) "QSS3";
  g_assert_true (qd_document_set_settings (m.doc, &s, &error));
  g_assert_no_error (error);
  model_finish (&m);

  /* Without overrides. */
  sim = compile_ok (m.doc, NULL);
  a = qd_simulation_get_atomic (sim, 0);
  g_assert_cmpfloat (a->params[0].number, ==, 11.0);
  g_assert_cmpstr (a->params[0].text, ==, "R + C");
  g_assert_cmpfloat (a->params[2].number, ==, 0.25);   /* inherited */
  g_assert_cmpfloat (a->params[3].number, ==, 2);      /* QSS3 */
  g_assert_cmpstr (a->params[3].text, ==, "QSS3");
  g_assert_cmpfloat (a->params[4].number, ==, 1);
  g_assert_cmpuint (a->params[5].n_vector, ==, 3);
  g_assert_cmpfloat (a->params[5].vector[0], ==, 1);
  g_assert_cmpfloat (a->params[5].vector[1], ==, -1);
  g_assert_cmpfloat (a->params[5].vector[2], ==, 4);
  g_assert_cmpstr (a->params[6].text, ==, "out.csv");
  g_assert_cmpfloat (qd_simulation_get_variable (sim, "C"), ==, 10);
  g_assert_true (isnan (qd_simulation_get_variable (sim, "Z")));
  g_assert_cmpstr (a->path, ==, "/P");
  qd_simulation_free (sim);

  /* An override replaces R in place (C sees it) and adds Z. */
  sim = compile_ok (m.doc, overrides);
  a = qd_simulation_get_atomic (sim, 0);
  g_assert_cmpfloat (qd_simulation_get_variable (sim, "R"), ==, 5);
  g_assert_cmpfloat (qd_simulation_get_variable (sim, "C"), ==, 50);
  g_assert_cmpfloat (qd_simulation_get_variable (sim, "Z"), ==, 10);
  g_assert_cmpfloat (a->params[0].number, ==, 55);
  g_assert_cmpfloat (a->params[5].vector[0], ==, 5);
  qd_simulation_free (sim);
  g_object_unref (m.doc);
}

static void
test_compile_variables (void)
{
  Model m;
  g_autoptr(GPtrArray) texts = NULL;
  g_autoptr(GPtrArray) texts2 = NULL;
  g_autoptr(GError) error = NULL;
  const char *const bad_overrides[] = { "nonsense", "2x=1", NULL };
  QdBlock *b;

  model_init (&m);
  g_assert_true (qd_document_set_variable (m.doc, "R", "1", &error));
  /* Uses a variable defined after it. */
  g_assert_true (qd_document_set_variable (m.doc, "C", "2*Q", &error));
  g_assert_true (qd_document_set_variable (m.doc, "Q", "3", &error));
  g_assert_true (qd_document_set_variable (m.doc, "D", "1/0", &error));
  /* Uses C, which failed: no second problem. */
  b = add_block (m.root, "test-params", "P");
  qd_block_set_param_raw (b, "k", "C + 1");
  model_finish (&m);

  texts = compile_problems (m.doc, NULL);
  g_assert_cmpuint (texts->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (texts, 0), ==,
                   "variable 'C' uses 'Q', which is defined after it; a "
                   "variable can use only those above it, so move 'Q' up");
  g_assert_cmpstr (g_ptr_array_index (texts, 1), ==,
                   "variable 'D' is not a finite number (it is inf); check "
                   "its expression");

  texts2 = compile_problems (m.doc, bad_overrides);
  assert_has_problem (texts2, "override 'nonsense': expected NAME=EXPRESSION");
  assert_has_problem (texts2, "override '2x=1': '2x' is not a valid variable name");
  g_object_unref (m.doc);

  /* One that uses itself; one whose name is nowhere. */
  {
    g_autoptr(GPtrArray) texts3 = NULL;

    model_init (&m);
    g_assert_true (qd_document_set_variable (m.doc, "S", "S + 1", &error));
    g_assert_true (qd_document_set_variable (m.doc, "U", "2*W", &error));
    model_finish (&m);
    texts3 = compile_problems (m.doc, NULL);
    assert_has_problem (texts3, "variable 'S' uses itself; give it a value "
                        "that does not");
    assert_has_problem (texts3, "variable 'U': column 3: unknown name 'W'");
    g_object_unref (m.doc);
  }
}

static void
test_compile_settings (void)
{
  Model m;
  g_autoptr(GPtrArray) texts = NULL;
  QdSettings s;
  QdProblem *p;
  g_autoptr(GPtrArray) problems =
    g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);

  model_init (&m);
  model_finish (&m);
  /* The document's commands refuse such settings; the compiler must not
   * rely on that, so the test breaks them behind the document's back. */
  s = *qd_document_get_settings (m.doc);
  ((QdSettings *) qd_document_get_settings (m.doc))->final_time = -1;
  texts = compile_problems (m.doc, NULL);
  g_assert_cmpstr (g_ptr_array_index (texts, 0), ==,
                   "the final time (-1) must be greater than the start time "
                   "(0); change the simulation settings");
  g_assert_false (qd_document_check (m.doc, NULL, problems));
  p = g_ptr_array_index (problems, 0);
  g_assert_cmpstr (p->path, ==, "");
  g_assert_null (p->block_id);
  ((QdSettings *) qd_document_get_settings (m.doc))->final_time = s.final_time;
  g_assert_true (qd_document_check (m.doc, NULL, NULL));
  g_object_unref (m.doc);
}

static void
test_compile_unconnected (void)
{
  Model m;
  g_autoptr(GPtrArray) texts = NULL;
  g_autoptr(GPtrArray) problems =
    g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);

  model_init (&m);
  add_block (m.root, "test-gen", "Gen");
  add_block (m.root, "test-sum", "Sum");
  add_block (m.root, "test-sink", "Sink");   /* optional inputs: fine */
  connect (&m, m.root, "Gen", 0, "Sum", 0);
  model_finish (&m);

  texts = compile_problems (m.doc, NULL);
  g_assert_cmpuint (texts->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (texts, 0), ==,
                   "/Sum: input 2 is not connected; connect it or delete the block");
  g_assert_false (qd_document_check (m.doc, NULL, problems));
  g_assert_cmpint (((QdProblem *) problems->pdata[0])->code, ==, QD_ERROR_UNCONNECTED);
  g_object_unref (m.doc);
}

static void
test_compile_algebraic_loop (void)
{
  Model m;
  g_autoptr(GPtrArray) texts = NULL;
  QdSystem *inner;
  QdBlock *sub;

  /* /A -> /Sub/B -> /C -> /A (through the subsystem), /D -> /D, and
   * /E -> /F -> /G outside any loop. */
  model_init (&m);
  add_block (m.root, "test-gen", "Gen");
  add_block (m.root, "test-sum", "A");
  sub = add_block (m.root, QD_TYPE_SUBSYSTEM, "Sub");
  inner = sub->inner;
  qd_block_set_param_raw (add_block (inner, QD_TYPE_INPORT, "In"), "port", "1");
  add_block (inner, "test-pass", "B");
  qd_block_set_param_raw (add_block (inner, QD_TYPE_OUTPORT, "Out"), "port", "1");
  connect (&m, inner, "In", 0, "B", 0);
  connect (&m, inner, "B", 0, "Out", 0);
  add_block (m.root, "test-pass", "C");
  add_block (m.root, "test-pass", "D");
  add_block (m.root, "test-pass", "E");
  add_block (m.root, "test-pass", "F");
  connect (&m, m.root, "Gen", 0, "A", 0);
  connect (&m, m.root, "A", 0, "Sub", 0);
  connect (&m, m.root, "Sub", 0, "C", 0);
  connect (&m, m.root, "C", 0, "A", 1);
  connect (&m, m.root, "D", 0, "D", 0);
  connect (&m, m.root, "Gen", 0, "E", 0);
  connect (&m, m.root, "E", 0, "F", 0);
  model_finish (&m);

  texts = compile_problems (m.doc, NULL);
  g_assert_cmpuint (texts->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (texts, 0), ==,
                   "algebraic loop through /A, /Sub/B, /C: break it with an "
                   "integrator or a delay");
  g_assert_cmpstr (g_ptr_array_index (texts, 1), ==,
                   "algebraic loop through /D: break it with an integrator or "
                   "a delay");
  g_object_unref (m.doc);
}

/* -------------------------------------------------------------------- */
/* Running */

static void
run_ok (QdSimulation *sim)
{
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
  g_assert_no_error (error);
}

/* Gen (1, 2, 3) -> Pass -> Sink.0 and Gen -> Sink.1; a clock of period 1
 * over [0, 10). */
static QdDocument *
small_model (void)
{
  Model m;

  model_init (&m);
  qd_block_set_param_raw (add_block (m.root, "test-gen", "Gen"), "times", "1, 2, 3");
  add_block (m.root, "test-pass", "Pass");
  qd_block_set_param_raw (add_block (m.root, "test-sink", "Sink"), "n", "2");
  add_block (m.root, "test-clock", "Clock");
  connect (&m, m.root, "Gen", 0, "Pass", 0);
  connect (&m, m.root, "Pass", 0, "Sink", 0);
  connect (&m, m.root, "Gen", 0, "Sink", 1);
  model_finish (&m);
  return m.doc;
}

/* qd_simulation_new_taking() drops the document once compiled (the
 * command line's runs, so that a large model's document and flat model
 * are not in memory at once): the document is gone before the run, which
 * is that of qd_simulation_new(); a model that does not compile reports
 * its problems and drops the document too. */
static void
test_compile_taking (void)
{
  g_autoptr(GPtrArray) problems =
    g_ptr_array_new_with_free_func ((GDestroyNotify) qd_problem_free);
  g_autoptr(GError) error = NULL;
  QdDocument *doc = small_model ();
  QdSimulation *sim;
  QdTrace *trace;
  Model m;

  g_object_add_weak_pointer (G_OBJECT (doc), (gpointer *) &doc);
  sim = qd_simulation_new_taking (doc, NULL, problems, &error);
  g_assert_no_error (error);
  g_assert_nonnull (sim);
  g_assert_null (doc);
  run_ok (sim);
  g_assert_cmpuint (qd_simulation_get_events (sim), ==, 15);
  g_assert_cmpuint (qd_simulation_get_transitions (sim), ==, 24);
  trace = g_ptr_array_index (qd_simulation_get_traces (sim), 0);
  g_assert_cmpstr (qd_trace_get_name (trace), ==, "/Sink/in");
  g_assert_cmpfloat (qd_trace_eval (trace, 2.5), ==, 2.0);
  qd_simulation_free (sim);

  model_init (&m);
  add_block (m.root, "no-such-type", "Mystery");
  model_finish (&m);
  g_object_add_weak_pointer (G_OBJECT (m.doc), (gpointer *) &m.doc);
  g_assert_null (qd_simulation_new_taking (m.doc, NULL, problems, &error));
  g_assert_null (m.doc);
  g_assert_error (error, QD_ERROR, QD_ERROR_UNKNOWN_TYPE);
  g_assert_cmpuint (problems->len, ==, 1);
  g_assert_cmpstr (((QdProblem *) g_ptr_array_index (problems, 0))->path, ==, "/Mystery");
}

static void
test_run_counts (void)
{
  QdDocument *doc = small_model ();
  QdSimulation *sim = compile_ok (doc, NULL);
  guint64 ni, ne;
  QdTrace *trace;
  double end = 0;
  const guint64 expect[4][2] = { { 3, 0 }, { 3, 3 }, { 0, 6 }, { 9, 0 } };

  log_reset ();
  g_assert_cmpuint (qd_simulation_get_n_atomics (sim), ==, 4);
  g_assert_cmpfloat (qd_simulation_get_next_time (sim), ==, 1.0);
  run_ok (sim);

  for (guint i = 0; i < 4; i++)
    {
      qd_simulation_get_block_stats (sim, i, &ni, &ne);
      g_assert_cmpuint (ni, ==, expect[i][0]);
      g_assert_cmpuint (ne, ==, expect[i][1]);
    }
  /* The clock's event at t = 10 is not run: events go up to the final
   * time, excluded. */
  g_assert_cmpuint (qd_simulation_get_events (sim), ==, 15);
  g_assert_cmpuint (qd_simulation_get_transitions (sim), ==, 24);
  g_assert_cmpuint (qd_simulation_get_integrator_steps (sim), ==, 9);
  g_assert_cmpfloat (qd_simulation_get_time (sim), ==, 10.0);

  /* The sink saw 1, 2, 3 through Pass, read via in[] at the right time. */
  g_assert_cmpuint (qd_simulation_get_traces (sim)->len, ==, 1);
  trace = g_ptr_array_index (qd_simulation_get_traces (sim), 0);
  g_assert_cmpstr (qd_trace_get_name (trace), ==, "/Sink/in");
  g_assert_cmpuint (qd_trace_get_length (trace), ==, 3);
  g_assert_cmpfloat (qd_trace_eval (trace, 2.5), ==, 2.0);
  g_assert_true (qd_trace_is_closed (trace, &end));
  g_assert_cmpfloat (end, ==, 10.0);

  /* exit once per block, however often finish is called. */
  g_assert_cmpuint (exit_count, ==, 4);
  qd_simulation_finish (sim);
  qd_simulation_free (sim);
  g_assert_cmpuint (exit_count, ==, 4);
  g_object_unref (doc);
}

/* Within one event: Gen's output goes to Pass (port 0) then Sink (port 1),
 * in receiver order; Pass's own event follows at the same time. */
static void
test_run_event_order (void)
{
  QdDocument *doc = small_model ();
  QdSimulation *sim = compile_ok (doc, NULL);
  const struct { double t; const char *path; char kind; guint port; } expect[] = {
    { 1, "/Gen", 'i', 0 }, { 1, "/Pass", 'e', 0 }, { 1, "/Sink", 'e', 1 },
    { 1, "/Pass", 'i', 0 }, { 1, "/Sink", 'e', 0 }, { 1, "/Clock", 'i', 0 },
    { 2, "/Gen", 'i', 0 },
  };

  log_reset ();
  run_ok (sim);
  for (guint k = 0; k < G_N_ELEMENTS (expect); k++)
    {
      LogEntry *e = &g_array_index (transition_log, LogEntry, k);

      g_assert_cmpfloat (e->t, ==, expect[k].t);
      g_assert_cmpstr (g_quark_to_string (e->path), ==, expect[k].path);
      g_assert_cmpint (e->kind, ==, expect[k].kind);
      g_assert_cmpuint (e->port, ==, expect[k].port);
    }
  qd_simulation_free (sim);
  g_object_unref (doc);
}

/* The same model flat and with Pass inside two nested subsystems gives the
 * same transitions. */
static void
test_run_flattening (void)
{
  Model m;
  QdSystem *outer, *inner;
  QdSimulation *sim;
  g_autoptr(GArray) flat = NULL;
  g_autoptr(GArray) nested = NULL;
  QdDocument *doc = small_model ();

  sim = compile_ok (doc, NULL);
  log_reset ();
  run_ok (sim);
  flat = log_take ();
  qd_simulation_free (sim);
  g_object_unref (doc);

  model_init (&m);
  qd_block_set_param_raw (add_block (m.root, "test-gen", "Gen"), "times", "1, 2, 3");
  outer = add_block (m.root, QD_TYPE_SUBSYSTEM, "Outer")->inner;
  add_block (outer, QD_TYPE_INPORT, "In");
  inner = add_block (outer, QD_TYPE_SUBSYSTEM, "Inner")->inner;
  add_block (outer, QD_TYPE_OUTPORT, "Out");
  add_block (inner, QD_TYPE_INPORT, "In 2");
  add_block (inner, "test-pass", "Pass");
  add_block (inner, QD_TYPE_OUTPORT, "Out 2");
  connect (&m, inner, "In 2", 0, "Pass", 0);
  connect (&m, inner, "Pass", 0, "Out 2", 0);
  connect (&m, outer, "In", 0, "Inner", 0);
  connect (&m, outer, "Inner", 0, "Out", 0);
  qd_block_set_param_raw (add_block (m.root, "test-sink", "Sink"), "n", "2");
  add_block (m.root, "test-clock", "Clock");
  connect (&m, m.root, "Gen", 0, "Outer", 0);
  connect (&m, m.root, "Outer", 0, "Sink", 0);
  connect (&m, m.root, "Gen", 0, "Sink", 1);
  model_finish (&m);

  sim = compile_ok (m.doc, NULL);
  g_assert_cmpuint (qd_simulation_get_n_atomics (sim), ==, 4);
  g_assert_cmpstr (qd_simulation_get_atomic (sim, 1)->path, ==, "/Outer/Inner/Pass");
  run_ok (sim);
  nested = log_take ();
  qd_simulation_free (sim);

  g_assert_cmpuint (flat->len, ==, 3 * 5 + 9);
  /* Same indices, kinds, ports, values; the paths differ only for Pass. */
  for (guint k = 0; k < flat->len; k++)
    {
      LogEntry *x = &g_array_index (flat, LogEntry, k);
      LogEntry *y = &g_array_index (nested, LogEntry, k);

      if (x->index == 1)
        y->path = x->path;
    }
  assert_logs_equal (flat, nested);

  /* Given up to qd_simulation_new_taking(), the document's links are
   * freed once read, in every nested system: the same run. */
  {
    g_autoptr(GArray) taken = NULL;
    g_autoptr(GError) error = NULL;

    sim = qd_simulation_new_taking (g_steal_pointer (&m.doc), NULL, NULL, &error);
    g_assert_no_error (error);
    g_assert_cmpstr (qd_simulation_get_atomic (sim, 1)->path, ==, "/Outer/Inner/Pass");
    log_reset ();
    run_ok (sim);
    taken = log_take ();
    qd_simulation_free (sim);
    g_assert_cmpuint (taken->len, ==, flat->len);
    for (guint k = 0; k < taken->len; k++)
      if (g_array_index (taken, LogEntry, k).index == 1)
        g_array_index (taken, LogEntry, k).path = g_array_index (flat, LogEntry, k).path;
    assert_logs_equal (flat, taken);
  }
}

/* Simultaneous events go by priority: swapping the block order swaps the
 * order of their transitions. */
static void
test_run_priority (void)
{
  for (guint swap = 0; swap < 2; swap++)
    {
      Model m;
      QdSimulation *sim;
      const char *first = swap ? "B" : "A", *second = swap ? "A" : "B";

      model_init (&m);
      qd_block_set_param_raw (add_block (m.root, "test-gen", first), "times", "1, 2");
      qd_block_set_param_raw (add_block (m.root, "test-gen", second), "times", "1, 2");
      model_finish (&m);
      sim = compile_ok (m.doc, NULL);
      log_reset ();
      run_ok (sim);
      g_assert_cmpuint (transition_log->len, ==, 4);
      for (guint k = 0; k < 4; k++)
        {
          LogEntry *e = &g_array_index (transition_log, LogEntry, k);

          g_assert_cmpstr (g_quark_to_string (e->path) + 1, ==,
                           k % 2 == 0 ? first : second);
          g_assert_cmpuint (e->index, ==, k % 2);
        }
      qd_simulation_free (sim);
      g_object_unref (m.doc);
    }
}

/* A now-queue block and a heap block due at the same time: the lower
 * index goes first whichever structure holds it. */
static void
test_run_priority_now_queue (void)
{
  Model m;
  QdSimulation *sim;
  const struct { const char *path; char kind; } expect[] = {
    { "/Gen", 'i' }, { "/Early", 'e' }, { "/Late", 'e' },
    { "/Tick", 'i' }, { "/Early", 'i' }, { "/Late", 'i' },
  };

  /* At t = 1, Gen (index 0) fires into Late and Early, which then wait in
   * the now queue (ta = 0); Tick (index 1) is in the time heap at t = 1
   * and must still go before them. Gen's fan-out follows the receivers'
   * order (Early, index 2, first), not the order of the connections. */
  model_init (&m);
  qd_block_set_param_raw (add_block (m.root, "test-gen", "Gen"), "times", "1");
  qd_block_set_param_raw (add_block (m.root, "test-clock", "Tick"), "period", "1");
  add_block (m.root, "test-pass", "Early");
  add_block (m.root, "test-pass", "Late");
  connect (&m, m.root, "Gen", 0, "Late", 0);
  connect (&m, m.root, "Gen", 0, "Early", 0);
  set_settings (m.doc, 1.5, 0);
  model_finish (&m);

  sim = compile_ok (m.doc, NULL);
  log_reset ();
  run_ok (sim);
  g_assert_cmpuint (transition_log->len, ==, G_N_ELEMENTS (expect));
  for (guint k = 0; k < G_N_ELEMENTS (expect); k++)
    {
      LogEntry *e = &g_array_index (transition_log, LogEntry, k);

      g_assert_cmpstr (g_quark_to_string (e->path), ==, expect[k].path);
      g_assert_cmpint (e->kind, ==, expect[k].kind);
    }
  qd_simulation_free (sim);
  g_object_unref (m.doc);
}

static QdDocument *
ping_pong_model (guint64 limit)
{
  Model m;

  model_init (&m);
  qd_block_set_param_raw (add_block (m.root, "test-gen", "Gen"), "times", "0");
  qd_block_set_param_raw (add_block (m.root, "test-ping", "Ping A"), "start", "true");
  add_block (m.root, "test-ping", "Ping B");
  connect (&m, m.root, "Ping A", 0, "Ping B", 0);
  connect (&m, m.root, "Ping B", 0, "Ping A", 0);
  set_settings (m.doc, 10, limit);
  model_finish (&m);
  return m.doc;
}

/* Gen fans out to P1 and P2; P1 drives P3; P3, P2 and Gen drive the
 * sink's ports 0, 1 and 2. Every P is of @type. */
static QdDocument *
cascade_model (const char *type,
               guint64     limit)
{
  Model m;
  QdBlock *gen;

  model_init (&m);
  gen = add_block (m.root, "test-gen", "Gen");
  qd_block_set_param_raw (gen, "times", "1, 2, 2, 3.5");
  add_block (m.root, type, "P1");
  add_block (m.root, type, "P2");
  add_block (m.root, type, "P3");
  qd_block_set_param_raw (add_block (m.root, "test-sink", "Sink"), "n", "3");
  connect (&m, m.root, "Gen", 0, "P1", 0);
  connect (&m, m.root, "Gen", 0, "P2", 0);
  connect (&m, m.root, "P1", 0, "P3", 0);
  connect (&m, m.root, "P3", 0, "Sink", 0);
  connect (&m, m.root, "P2", 0, "Sink", 1);
  connect (&m, m.root, "Gen", 0, "Sink", 2);
  model_finish (&m);
  set_settings (m.doc, 10, limit);
  return m.doc;
}

/* Static blocks (QD_BLOCK_STATIC) take the loop's cascade path: the same
 * transitions, in the same order, with the same counts and outputs as
 * the same blocks without the flag; and an illegitimate cascade is
 * reported the same way. */
static void
test_run_static_blocks (void)
{
  const char *types[] = { "test-pass-logged", "test-pass-static" };
  GArray *logs[2];
  guint64 stats[2][5][2], events[2], transitions[2];
  char *messages[2];
  const struct { double t; const char *path; char kind; guint port; } expect[] = {
    { 1, "/Gen", 'i', 0 }, { 1, "/Sink", 'e', 2 }, { 1, "/P1", 'o', 0 },
    { 1, "/P2", 'o', 0 }, { 1, "/Sink", 'e', 1 }, { 1, "/P3", 'o', 0 },
    { 1, "/Sink", 'e', 0 }, { 2, "/Gen", 'i', 0 },
  };

  for (guint k = 0; k < 2; k++)
    {
      QdDocument *doc = cascade_model (types[k], 0);
      QdSimulation *sim = compile_ok (doc, NULL);

      log_reset ();
      run_ok (sim);
      logs[k] = log_take ();
      for (guint i = 0; i < 5; i++)
        qd_simulation_get_block_stats (sim, i, &stats[k][i][0], &stats[k][i][1]);
      events[k] = qd_simulation_get_events (sim);
      transitions[k] = qd_simulation_get_transitions (sim);
      qd_simulation_free (sim);
      g_object_unref (doc);
    }

  assert_logs_equal (logs[0], logs[1]);

  /* One event at a time: the cascade stops after each. */
  {
    QdDocument *doc = cascade_model (types[1], 0);
    QdSimulation *sim = compile_ok (doc, NULL);
    g_autoptr(GArray) stepped = NULL;
    guint n_steps = 0;

    log_reset ();
    while (qd_simulation_step (sim, 1, NULL) == QD_RUN_STEPPED)
      g_assert_cmpuint (qd_simulation_get_events (sim), ==, ++n_steps);
    g_assert_cmpuint (n_steps, ==, 13);
    stepped = log_take ();
    assert_logs_equal (stepped, logs[1]);
    qd_simulation_free (sim);
    g_object_unref (doc);
  }

  for (guint k = 0; k < G_N_ELEMENTS (expect); k++)
    {
      LogEntry *e = &g_array_index (logs[1], LogEntry, k);

      g_assert_cmpfloat (e->t, ==, expect[k].t);
      g_assert_cmpstr (g_quark_to_string (e->path), ==, expect[k].path);
      g_assert_cmpint (e->kind, ==, expect[k].kind);
      g_assert_cmpuint (e->port, ==, expect[k].port);
    }
  /* Four outputs of Gen, two of them at t = 2: Gen (index 0) fires
   * again before the P's, so P1 and P2 have four external transitions
   * and three internal ones, P3 three of each; the sink 3 + 3 + 4
   * external ones. */
  g_assert_cmpuint (stats[1][0][0], ==, 4);
  for (guint i = 1; i <= 3; i++)
    {
      g_assert_cmpuint (stats[1][i][0], ==, 3);
      g_assert_cmpuint (stats[1][i][1], ==, i < 3 ? 4 : 3);
    }
  g_assert_cmpuint (stats[1][4][1], ==, 10);
  g_assert_true (memcmp (stats[0], stats[1], sizeof stats[0]) == 0);
  g_assert_cmpuint (events[1], ==, 13);
  g_assert_cmpuint (transitions[1], ==, 34);
  g_assert_cmpuint (events[0], ==, events[1]);
  g_assert_cmpuint (transitions[0], ==, transitions[1]);
  g_array_unref (logs[0]);
  g_array_unref (logs[1]);

  /* At t = 2 there are five internal transitions (Gen twice, then the
   * P's); with a limit of 4 the fifth, in the cascade, is refused at the
   * same place either way. */
  log_enabled = FALSE;
  for (guint k = 0; k < 2; k++)
    {
      QdDocument *doc = cascade_model (types[k], 4);
      QdSimulation *sim = compile_ok (doc, NULL);
      g_autoptr(GError) error = NULL;

      g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_ERROR);
      g_assert_error (error, QD_ERROR, QD_ERROR_ILLEGITIMATE);
      messages[k] = g_strdup (error->message);
      events[k] = qd_simulation_get_events (sim);
      qd_simulation_free (sim);
      g_object_unref (doc);
    }
  log_enabled = TRUE;
  g_assert_cmpstr (messages[1], ==,
                   "illegitimate model: more than 4 transitions at t = 2 "
                   "without time advancing, among /Gen, /P1, /P2; look for a "
                   "zero-time loop, or raise the limit in the simulation "
                   "settings");
  g_assert_cmpstr (messages[0], ==, messages[1]);
  g_assert_cmpuint (events[1], ==, 8);
  g_assert_cmpuint (events[0], ==, events[1]);
  g_free (messages[0]);
  g_free (messages[1]);
}

/* A static block without inputs whose init leaves its output due (a
 * function of t alone) emits once at the start time, in priority order,
 * and is then passive: as the same block without QD_BLOCK_STATIC. The
 * static blocks of the library (WSum, Gain, NLFunction, the math blocks
 * that watch no zero of an input) declare the flag. */
static void
test_run_static_start (void)
{
  const char *types[] = { "test-const", "test-const-static" };
  const char *static_ids[] = {
    "wsum", "gain", "nlfunction", "product", "sin", "cos", "exp", "square",
  };
  /* They schedule the time their input reaches zero (qd-block-math.c). */
  const char *watching_ids[] = {
    "abs", "division", "log", "sqrt", "pow", "inverse",
  };
  const struct { const char *path; char kind; guint port; } expect[] = {
    { "/Gen", 'i', 0 }, { "/Sink", 'e', 1 }, { "/C", 'o', 0 },
    { "/Sink", 'e', 0 },
  };
  GArray *logs[2];

  for (guint k = 0; k < G_N_ELEMENTS (static_ids); k++)
    g_assert_true (qd_registry_lookup (static_ids[k])->flags & QD_BLOCK_STATIC);
  for (guint k = 0; k < G_N_ELEMENTS (watching_ids); k++)
    g_assert_false (qd_registry_lookup (watching_ids[k])->flags & QD_BLOCK_STATIC);
  g_assert_false (qd_registry_lookup ("integrator")->flags & QD_BLOCK_STATIC);

  for (guint k = 0; k < 2; k++)
    {
      Model m;
      QdSimulation *sim;
      guint64 n_int, n_ext;

      model_init (&m);
      qd_block_set_param_raw (add_block (m.root, "test-gen", "Gen"), "times", "0");
      add_block (m.root, types[k], "C");
      qd_block_set_param_raw (add_block (m.root, "test-sink", "Sink"), "n", "2");
      connect (&m, m.root, "C", 0, "Sink", 0);
      connect (&m, m.root, "Gen", 0, "Sink", 1);
      set_settings (m.doc, 5, 0);
      model_finish (&m);

      sim = compile_ok (m.doc, NULL);
      log_reset ();
      run_ok (sim);
      logs[k] = log_take ();
      g_assert_cmpuint (logs[k]->len, ==, G_N_ELEMENTS (expect));
      for (guint e = 0; e < G_N_ELEMENTS (expect); e++)
        {
          LogEntry *l = &g_array_index (logs[k], LogEntry, e);

          g_assert_cmpfloat (l->t, ==, 0.0);
          g_assert_cmpstr (g_quark_to_string (l->path), ==, expect[e].path);
          g_assert_cmpint (l->kind, ==, expect[e].kind);
          g_assert_cmpuint (l->port, ==, expect[e].port);
        }
      g_assert_cmpfloat (g_array_index (logs[k], LogEntry, 3).value, ==, 7.0);
      qd_simulation_get_block_stats (sim, 1, &n_int, &n_ext);
      g_assert_cmpuint (n_int, ==, 1);
      g_assert_cmpuint (n_ext, ==, 0);
      g_assert_cmpuint (qd_simulation_get_events (sim), ==, 2);
      g_assert_cmpuint (qd_simulation_get_transitions (sim), ==, 4);
      qd_simulation_free (sim);
      g_object_unref (m.doc);
    }
  assert_logs_equal (logs[0], logs[1]);
  g_array_unref (logs[0]);
  g_array_unref (logs[1]);
}

static void
test_run_illegitimate (void)
{
  QdDocument *doc = ping_pong_model (1000);
  QdSimulation *sim = compile_ok (doc, NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GError) again = NULL;

  log_enabled = FALSE;
  g_assert_cmpint (qd_simulation_run_until (sim, 5, &error), ==, QD_RUN_ERROR);
  g_assert_error (error, QD_ERROR, QD_ERROR_ILLEGITIMATE);
  /* Gen fired at t = 0 too, but not among the last transitions. */
  g_assert_cmpstr (error->message, ==,
                   "illegitimate model: more than 1000 transitions at t = 0 "
                   "without time advancing, among /Ping A, /Ping B; look for "
                   "a zero-time loop, or raise the limit in the simulation "
                   "settings");
  g_assert_cmpuint (qd_simulation_get_events (sim), ==, 1000);
  /* The error stays. */
  g_assert_cmpint (qd_simulation_step (sim, 1, &again), ==, QD_RUN_ERROR);
  g_assert_error (again, QD_ERROR, QD_ERROR_ILLEGITIMATE);
  log_enabled = TRUE;
  qd_simulation_free (sim);
  g_object_unref (doc);
}

/* dx/dt = f(x), x(0) = @x0, under QSS2: f the block @type (a gain of -1,
 * or a square). */
static QdDocument *
feedback_model (const char *type,
                double      x0,
                double      start)
{
  Model m;
  QdSettings s;
  QdBlock *b;
  g_autofree char *x0_text = g_strdup_printf ("%g", x0);
  g_autoptr(GError) error = NULL;

  model_init (&m);
  b = add_block (m.root, "integrator", "Integrator");
  qd_block_set_param_raw (b, "x0", x0_text);
  qd_block_set_param_raw (b, "method", "QSS2");
  qd_block_set_param_raw (b, "dqmin", "1e-4");
  qd_block_set_param_raw (b, "dqrel", "0");
  b = add_block (m.root, type, "F");
  if (strcmp (type, "gain") == 0)
    qd_block_set_param_raw (b, "k", "-1");
  connect (&m, m.root, "Integrator", 0, "F", 0);
  connect (&m, m.root, "F", 0, "Integrator", 0);
  s = *qd_document_get_settings (m.doc);
  s.start_time = start;
  s.final_time = start + 100;
  s.illegitimacy_limit = 1000;
  g_assert_true (qd_document_set_settings (m.doc, &s, &error));
  g_assert_no_error (error);
  return model_finish (&m);
}

/* Time stops for a reason the illegitimacy report names. dx/dt = -x
 * started where the spacing of doubles (16 at 1e17) is far coarser than
 * the integrator's time advances (about 0.01): t + ta rounds to t, and
 * the report blames the clock, not a zero-time loop that the model does
 * not have. (Only the integrator fires: due now again after each of its
 * events, it comes before the gain it made due, by priority.) Near time
 * 0 the same model runs. And dx/dt = x², x(0) = 0.5, whose solution
 * 1/(2 - t) blows up at t = 2: the time advances shrink until they are
 * lost, and the report says the solution may grow without bound. */
static void
test_run_lost_time_advance (void)
{
  QdDocument *doc = feedback_model ("gain", 1.0, 1e17);
  QdSimulation *sim = compile_ok (doc, NULL);
  g_autoptr(GError) error = NULL;
  double t;

  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_ERROR);
  g_assert_error (error, QD_ERROR, QD_ERROR_ILLEGITIMATE);
  g_assert_true (g_str_has_prefix (error->message,
                                   "/Integrator: its time advance 0.0"));
  g_assert_nonnull (strstr (error->message,
                            "is lost in rounding at t = 1e+17, where the "
                            "clock's resolution is 16, so time cannot "
                            "advance (more than 1000 transitions at that "
                            "time, among /Integrator); start the "
                            "simulation nearer time 0"));
  g_assert_cmpfloat (qd_simulation_get_time (sim), ==, 1e17);
  g_clear_error (&error);
  qd_simulation_free (sim);
  g_object_unref (doc);

  doc = feedback_model ("gain", 1.0, 0.0);
  sim = compile_ok (doc, NULL);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_DONE);
  g_assert_no_error (error);
  g_assert_cmpuint (qd_simulation_get_integrator_steps (sim), >, 100);
  qd_simulation_free (sim);
  g_object_unref (doc);

  doc = feedback_model ("square", 0.5, 0.0);
  sim = compile_ok (doc, NULL);
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_ERROR);
  g_assert_error (error, QD_ERROR, QD_ERROR_ILLEGITIMATE);
  g_assert_true (g_str_has_prefix (error->message,
                                   "/Integrator: its time advance has "
                                   "shrunk to "));
  g_assert_nonnull (strstr (error->message,
                            "the model may have a solution that grows "
                            "without bound near this time"));
  t = qd_simulation_get_time (sim);
  g_assert_cmpfloat (fabs (t - 2.0), <, 0.01);
  qd_simulation_free (sim);
  g_object_unref (doc);
}

static void
test_run_nan (void)
{
  Model m;
  QdSimulation *sim;
  QdBlock *bad;
  g_autoptr(GError) error = NULL;

  model_init (&m);
  bad = add_block (m.root, "test-gen", "Bad");
  qd_block_set_param_raw (bad, "times", "0.5");
  qd_block_set_param_raw (bad, "nan", "true");
  add_block (m.root, "test-sink", "Sink");
  connect (&m, m.root, "Bad", 0, "Sink", 0);
  model_finish (&m);

  sim = compile_ok (m.doc, NULL);
  log_reset ();
  g_assert_cmpint (qd_simulation_run (sim, &error), ==, QD_RUN_ERROR);
  g_assert_error (error, QD_ERROR, QD_ERROR_NUMERIC);
  g_assert_cmpstr (error->message, ==,
                   "/Bad: produced NaN at t = 0.5; check the parameters and "
                   "the inputs of this block");
  /* The NaN never reached the sink. */
  g_assert_cmpuint (transition_log->len, ==, 1);
  qd_simulation_free (sim);
  g_object_unref (m.doc);
}

static void
test_run_fail (void)
{
  Model m;
  QdSimulation *sim;
  g_autoptr(GError) error = NULL;

  model_init (&m);
  add_block (m.root, "test-failer", "Writer");
  qd_block_set_param_raw (add_block (m.root, "test-gen", "Gen"), "times", "1, 2");
  model_finish (&m);

  sim = compile_ok (m.doc, NULL);
  log_reset ();
  g_assert_cmpint (qd_simulation_run_until (sim, 5, &error), ==, QD_RUN_ERROR);
  g_assert_error (error, QD_ERROR, QD_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==,
                   "/Writer: cannot write 'out.csv'; check the folder");
  /* The failing transition completed; Gen's event at the same time (lower
   * priority) did not run. */
  g_assert_cmpuint (qd_simulation_get_events (sim), ==, 1);
  g_assert_cmpfloat (qd_simulation_get_time (sim), ==, 1.0);
  qd_simulation_free (sim);
  g_object_unref (m.doc);
}

/* A richer model: generators with simultaneous events, a static chain, a
 * finite zero-time ping cascade, two clocks. */
static QdDocument *
pieces_model (void)
{
  Model m;

  model_init (&m);
  qd_block_set_param_raw (add_block (m.root, "test-gen", "G1"), "times",
                          "0, 0.1, 0.1, 0.25, 0.5, 1, 1, 1.5, 2, 2.75, 3");
  qd_block_set_param_raw (add_block (m.root, "test-gen", "G2"), "times",
                          "0.1, 0.5, 0.5, 2, 3.5");
  add_block (m.root, "test-sum", "Sum");
  add_block (m.root, "test-pass", "Pass");
  qd_block_set_param_raw (add_block (m.root, "test-ping", "P1"), "limit", "3");
  qd_block_set_param_raw (add_block (m.root, "test-ping", "P2"), "limit", "3");
  qd_block_set_param_raw (add_block (m.root, "test-sink", "Sink"), "n", "3");
  qd_block_set_param_raw (add_block (m.root, "test-clock", "C1"), "period", "0.3");
  qd_block_set_param_raw (add_block (m.root, "test-clock", "C2"), "period", "0.125");
  connect (&m, m.root, "G1", 0, "Sum", 0);
  connect (&m, m.root, "G2", 0, "Sum", 1);
  connect (&m, m.root, "Sum", 0, "Pass", 0);
  connect (&m, m.root, "Pass", 0, "Sink", 0);
  connect (&m, m.root, "G2", 0, "P1", 0);
  connect (&m, m.root, "P1", 0, "P2", 0);
  connect (&m, m.root, "P2", 0, "Sink", 1);
  connect (&m, m.root, "C2", 0, "Sink", 2);
  set_settings (m.doc, 4, 0);
  model_finish (&m);
  return m.doc;
}

static void
test_run_pieces (void)
{
  QdDocument *doc = pieces_model ();
  QdSimulation *sim;
  g_autoptr(GArray) whole = NULL;
  g_autoptr(GArray) pieces = NULL;
  g_autoptr(GError) error = NULL;
  guint64 events;

  sim = compile_ok (doc, NULL);
  log_reset ();
  run_ok (sim);
  events = qd_simulation_get_events (sim);
  whole = log_take ();
  qd_simulation_free (sim);

  sim = compile_ok (doc, NULL);
  g_assert_cmpint (qd_simulation_run_until (sim, 0.1, &error), ==, QD_RUN_DONE);
  g_assert_cmpfloat (qd_simulation_get_time (sim), ==, 0.1);
  g_assert_cmpint (qd_simulation_step (sim, 1, &error), ==, QD_RUN_STEPPED);
  g_assert_cmpint (qd_simulation_step (sim, 3, &error), ==, QD_RUN_STEPPED);
  g_assert_cmpint (qd_simulation_run_until (sim, 0.1, &error), ==, QD_RUN_DONE);
  g_assert_cmpint (qd_simulation_step (sim, 2, &error), ==, QD_RUN_STEPPED);
  g_assert_cmpint (qd_simulation_run_until (sim, 0.5, &error), ==, QD_RUN_DONE);
  for (guint k = 0; k < 7; k++)
    g_assert_cmpint (qd_simulation_step (sim, 1, &error), ==, QD_RUN_STEPPED);
  g_assert_cmpint (qd_simulation_run_until (sim, 2.0, &error), ==, QD_RUN_DONE);
  g_assert_cmpfloat (qd_simulation_get_time (sim), ==, 2.0);
  g_assert_cmpint (qd_simulation_step (sim, 10, &error), ==, QD_RUN_STEPPED);
  /* Beyond the final time: clamped. */
  g_assert_cmpint (qd_simulation_run_until (sim, 100, &error), ==, QD_RUN_DONE);
  g_assert_cmpfloat (qd_simulation_get_time (sim), ==, 4.0);
  g_assert_cmpint (qd_simulation_step (sim, 10, &error), ==, QD_RUN_DONE);
  run_ok (sim);
  g_assert_no_error (error);
  g_assert_cmpuint (qd_simulation_get_events (sim), ==, events);
  pieces = log_take ();
  qd_simulation_free (sim);

  g_assert_cmpuint (whole->len, >, 100);
  assert_logs_equal (whole, pieces);

  /* One event at a time, all the way. */
  sim = compile_ok (doc, NULL);
  while (qd_simulation_step (sim, 1, &error) == QD_RUN_STEPPED)
    ;
  g_assert_no_error (error);
  run_ok (sim);
  g_clear_pointer (&pieces, g_array_unref);
  pieces = log_take ();
  assert_logs_equal (whole, pieces);
  qd_simulation_free (sim);
  g_object_unref (doc);
}

typedef struct
{
  QdSimulation *sim;
  guint64       seen;
} StopData;

/* Waits for progress (read from this thread) and asks for a stop. */
static gpointer
stopper_thread (gpointer data)
{
  StopData *d = data;
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  while (qd_simulation_get_events (d->sim) < 100000
         && g_get_monotonic_time () < deadline)
    g_usleep (1000);
  d->seen = qd_simulation_get_events (d->sim);
  qd_simulation_request_stop (d->sim);
  return NULL;
}

static void
test_run_stop (void)
{
  Model m;
  StopData d;
  GThread *thread;
  g_autoptr(GError) error = NULL;
  guint64 at_stop;

  model_init (&m);
  qd_block_set_param_raw (add_block (m.root, "test-clock", "Fast"), "period", "1e-9");
  add_block (m.root, "test-pass", "Pass");
  add_block (m.root, "test-sink", "Sink");
  connect (&m, m.root, "Fast", 0, "Pass", 0);
  connect (&m, m.root, "Pass", 0, "Sink", 0);
  set_settings (m.doc, 1e9, 0);
  model_finish (&m);

  log_enabled = FALSE;
  d.sim = compile_ok (m.doc, NULL);
  thread = g_thread_new ("stopper", stopper_thread, &d);
  g_assert_cmpint (qd_simulation_run (d.sim, &error), ==, QD_RUN_STOPPED);
  g_assert_no_error (error);
  g_thread_join (thread);
  at_stop = qd_simulation_get_events (d.sim);
  g_assert_cmpuint (d.seen, >=, 100000);
  g_assert_cmpuint (at_stop, >=, d.seen);
  /* Within a few thousand events of the request. */
  g_assert_cmpuint (at_stop - d.seen, <, 1000000);
  g_assert_cmpfloat (qd_simulation_get_time (d.sim), <, 1e9);

  /* Stopped, not finished: it resumes. */
  g_assert_cmpint (qd_simulation_step (d.sim, 5000, &error), ==, QD_RUN_STEPPED);
  g_assert_cmpuint (qd_simulation_get_events (d.sim), ==, at_stop + 5000);
  log_enabled = TRUE;
  qd_simulation_free (d.sim);
  g_object_unref (m.doc);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

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
  transition_log = g_array_new (FALSE, FALSE, sizeof (LogEntry));

  g_test_add_func ("/compile/unknown-type", test_compile_unknown_type);
  g_test_add_func ("/compile/taking", test_compile_taking);
  g_test_add_func ("/compile/parameters", test_compile_parameters);
  g_test_add_func ("/compile/values", test_compile_values);
  g_test_add_func ("/compile/variables", test_compile_variables);
  g_test_add_func ("/compile/settings", test_compile_settings);
  g_test_add_func ("/compile/unconnected", test_compile_unconnected);
  g_test_add_func ("/compile/algebraic-loop", test_compile_algebraic_loop);
  g_test_add_func ("/run/counts", test_run_counts);
  g_test_add_func ("/run/event-order", test_run_event_order);
  g_test_add_func ("/run/flattening", test_run_flattening);
  g_test_add_func ("/run/priority", test_run_priority);
  g_test_add_func ("/run/priority-now-queue", test_run_priority_now_queue);
  g_test_add_func ("/run/static-blocks", test_run_static_blocks);
  g_test_add_func ("/run/static-start", test_run_static_start);
  g_test_add_func ("/run/illegitimate", test_run_illegitimate);
  g_test_add_func ("/run/lost-time-advance", test_run_lost_time_advance);
  g_test_add_func ("/run/nan", test_run_nan);
  g_test_add_func ("/run/fail", test_run_fail);
  g_test_add_func ("/run/pieces", test_run_pieces);
  g_test_add_func ("/run/stop", test_run_stop);

  return g_test_run ();
}

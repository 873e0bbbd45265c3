/* qd-test-sim.h: test block types and model builders of the simulation tests
 *
 * Block types registered by qd_test_register_sim_blocks() (a generator
 * that emits at given times, a clock, a pass-through static function, a
 * two-input sum, a zero-time ping, a sink, a failing block, one with
 * parameters of every kind), each logging its transitions, so that the
 * simulation tests do not depend on the block library.
 */
#pragma once

#include "qd-test-util.h"

G_BEGIN_DECLS

/* One transition of a test block. */
typedef struct
{
  double  t;
  guint   index;
  GQuark  path;
  char    kind;    /* 'i' internal, 'e' external */
  guint   port;
  double  value;   /* external: the value received */
} QdTestLogEntry;

/* The transitions logged so far, in order (QdTestLogEntry), while
 * qd_test_log_enabled; and how many blocks have run their exit. */
extern GArray   *qd_test_transition_log;
extern gboolean  qd_test_log_enabled;
extern guint     qd_test_exit_count;

/* Registers the test block types ("test-gen", "test-clock", "test-pass",
 * "test-sum", "test-pass-logged", "test-pass-static", "test-const",
 * "test-const-static", "test-ping", "test-sink", "test-failer",
 * "test-params") and creates the transition log; call once, after
 * qd_init(). */
void          qd_test_register_sim_blocks (void);

/* Empties the log and the exit count. */
void          qd_test_log_reset           (void);
/* The log so far (to free with g_array_unref), then empties it. */
GArray       *qd_test_log_take            (void);
/* Asserts that two logs are the same, times and values bit for bit. */
void          qd_test_assert_logs_equal   (GArray            *a,
                                           GArray            *b);

/* A document built without the edit commands: qd_test_model_init(), add
 * blocks and links to m.root (or to subsystems of it), then
 * qd_test_model_finish() installs the root and returns the document. */
typedef struct
{
  QdDocument *doc;
  QdSystem   *root;
  guint       next_link;
} QdTestModel;

void          qd_test_model_init          (QdTestModel       *m);
QdDocument   *qd_test_model_finish        (QdTestModel       *m);
/* Appends a block of @type to @system; its id is its @name (unique
 * within these tests). */
QdBlock      *qd_test_model_add_block     (QdSystem          *system,
                                           const char        *type,
                                           const char        *name);
/* Links output @src_port of @src to input @dst_port of @dst in @system,
 * as a new target of that output's link when it has one. */
void          qd_test_model_connect       (QdTestModel       *m,
                                           QdSystem          *system,
                                           const char        *src,
                                           guint              src_port,
                                           const char        *dst,
                                           guint              dst_port);
/* Sets the final time of @doc and, when @limit > 0, its illegitimacy
 * limit; asserts that the settings were accepted. */
void          qd_test_set_settings        (QdDocument        *doc,
                                           double             final_time,
                                           guint64            limit);

/* Compiles @doc with @overrides; asserts that it compiles without a
 * problem. */
QdSimulation *qd_test_compile_ok          (QdDocument        *doc,
                                           const char *const *overrides);
/* Compiles a document that must fail (and checks that the error is the
 * first problem and that a check finds the same); returns its problems
 * as strings. */
GPtrArray    *qd_test_compile_problems    (QdDocument        *doc,
                                           const char *const *overrides);
/* Asserts that @texts holds @expected (and logs what it holds if not). */
void          qd_test_assert_has_problem  (GPtrArray         *texts,
                                           const char        *expected);

/* Gen (1, 2, 3) -> Pass -> Sink.0 and Gen -> Sink.1; a clock of period 1
 * over [0, 10). */
QdDocument   *qd_test_small_model         (void);

G_END_DECLS

/* qd-test-util.h: helpers shared by the tests */
#pragma once

#include <glib.h>

#include "qdevs.h"
#include "qd-blocks.h"

G_BEGIN_DECLS

/* An absolute path below the source tree: qd_test_source_path ("data",
 * "examples", "exp-decay.qdevs", NULL). */
char       *qd_test_source_path   (const char *first, ...) G_GNUC_NULL_TERMINATED;

/* The first ```json block of docs/file-format.md, the complete example
 * that page promises, with its last newline. */
char       *qd_test_file_format_example (void);

/* A text dump of everything a document holds, in order: title,
 * description, settings, variables, then each system's blocks (id, type,
 * name, geometry, parameters as set) and links (id, source, targets with
 * bend points), subsystems nested. Equal dumps mean equal structure. */
char       *qd_test_dump_document (QdDocument *document);

/* A .qdevs text: constants One and Zero into a Division, into a Scope;
 * the Division fails at t = 0 (a run-time error at a block). */
extern const char qd_test_model_division[];
/* The text of a legitimate model that exceeds its own illegitimacy
 * limit: a Constant through a chain of 12 gains makes 13 internal
 * transitions at t = 0, and the file allows 10. */
char         *qd_test_illegitimate_chain (void);

/* The example @name of data/examples, loaded; asserts that it loads. */
QdDocument   *qd_test_load_example   (const char   *name);

/* The helpers below build and run documents in tests; each one asserts
 * that its step succeeded, so a test reads as the model it describes. */

/* Adds a block of @type named @name at the origin of the root system of
 * @doc; asserts that this worked and returns the block. */
QdBlock      *qd_test_add_block      (QdDocument   *doc,
                                      const char   *type,
                                      const char   *name);
/* The same at (@x, @y). */
QdBlock      *qd_test_add_block_at   (QdDocument   *doc,
                                      const char   *type,
                                      const char   *name,
                                      double        x,
                                      double        y);

/* Sets the parameter @name of @block to the text @value; asserts that the
 * value was accepted. */
void          qd_test_set_param      (QdDocument   *doc,
                                      QdBlock      *block,
                                      const char   *name,
                                      const char   *value);

/* Links output @src_port of @src to input @dst_port of @dst in the root
 * system; asserts that the link was made. */
void          qd_test_connect        (QdDocument   *doc,
                                      QdBlock      *src,
                                      guint         src_port,
                                      QdBlock      *dst,
                                      guint         dst_port);

/* Sets the final time of @doc, keeping its other settings. */
void          qd_test_set_final_time (QdDocument   *doc,
                                      double        final_time);

/* dx/dt = -x, x(0) = 1 (Integrator, Gain), into a Scope "x", over
 * [0, @final_time]. */
QdDocument   *qd_test_decay_document (double        final_time);

/* Compiles @doc into a simulation with default options; asserts that
 * compiling succeeded. */
QdSimulation *qd_test_compile        (QdDocument   *doc);

/* Runs @sim to its final time; asserts that it finished without error. */
void          qd_test_run            (QdSimulation *sim);

/* The trace named @name ("/Scope/x1") of @sim (owned by @sim); aborts
 * the test if there is no such trace. */
QdTrace      *qd_test_find_trace     (QdSimulation *sim,
                                      const char   *name);

/* The largest |q(t) − exact(t)| of @trace over [its start, @until],
 * sampling each segment at 17 points between its start and the next
 * one's. */
double        qd_test_max_error      (QdTrace      *trace,
                                      double      (*exact) (double),
                                      double        until);

/* Runs @sim like qd_test_run(), then qd_test_find_trace(). */
QdTrace      *qd_test_run_and_find   (QdSimulation *sim,
                                      const char   *name);

/* The programs of the build, spawned as a user runs them. */
typedef struct
{
  int   status;   /* exit status */
  char *out;      /* what it wrote on standard output */
  char *err;      /* ... and on standard error */
} QdCliResult;

void          qd_cli_result_clear    (QdCliResult  *r);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (QdCliResult, qd_cli_result_clear)

/* Runs @argv (argv[0] a program) with standard input from the file
 * @input (/dev/null when NULL) and the environment @envp (the test's own
 * when NULL); asserts that it exited rather than died of a signal. No
 * file the program writes may pass 128 MiB (RLIMIT_FSIZE), so that a
 * program that ignores a limit fails the test instead of filling the
 * disk. */
void          qd_test_spawn          (QdCliResult  *r,
                                      const char   *input,
                                      char        **envp,
                                      char        **argv);
/* qd_test_spawn() of $QD_BUILD_DIR/app/qdevs-cli with the arguments
 * from @first, NULL-terminated. */
void          qd_test_run_cli        (QdCliResult  *r,
                                      const char   *input,
                                      const char   *first,
                                      ...) G_GNUC_NULL_TERMINATED;
/* What a child wrote to @fd until it closed it; closes @fd. */
char         *qd_test_read_fd        (int           fd);
/* The RLIMIT_FSIZE of qd_test_spawn(), as a GSpawnChildSetupFunc. */
void          qd_test_limit_file_size (gpointer     user_data);
/* The contents of the file @path (to free); the test fails when it
 * cannot be read. */
char         *qd_test_read_text      (const char   *path);
/* Asserts that the usage error @err (standard error) ends with the hint
 * to the help of its command ("qdevs-cli run: ..." -> "Try 'qdevs-cli
 * run --help'"), or to the general help when no command is named. */
void          qd_test_assert_usage_hint (const char *err);
/* The "Trace memory:" figure of `qdevs-cli run --stats` output @out, in
 * bytes, from its unit (bytes, KiB, MiB or GiB); the test fails when the
 * line or its unit is missing. */
double        qd_test_stats_trace_bytes (const char *out);
/* Dispatches what is pending in the main context, without waiting. */
void          qd_test_flush_events   (void);
/* Removes the folder @path with what it holds (folders included). */
void          qd_test_remove_tree    (const char   *path);
/* Connects to @signal of @instance, calls @start (@instance) when not
 * NULL, and iterates the default main context until @signal is
 * emitted. */
void          qd_test_wait_for_signal (gpointer     instance,
                                       const char  *signal,
                                       void       (*start) (gpointer instance));
/* Whether the gboolean at @flag is TRUE: a condition for
 * qd_test_iterate_until() on a flag a callback sets. */
gboolean      qd_test_is_true        (gpointer      flag);
/* Iterates the default main context (blocking) until @done (@data)
 * holds: TRUE then, FALSE when @seconds passed first. */
gboolean      qd_test_iterate_until  (gboolean    (*done) (gpointer data),
                                      gpointer      data,
                                      guint         seconds);

/* A row of loops like a real diagram's (five rows of Constant, then four
 * Sum -> Gain -> Integrator loops), close enough together that routes
 * run past other blocks and along each other. */
QdDocument   *qd_test_routing_diagram (void);

G_END_DECLS

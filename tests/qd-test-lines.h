/* qd-test-lines.h: the LC line for the vector tests (test-vectors.c,
 * test-vector-native.c, test-scalar-runs.c): drawn section by section and
 * as vector blocks, run with the event log, compiled under a
 * QDEVS_VECTORS mode
 */
#pragma once

#include "qd-test-util.h"

G_BEGIN_DECLS

/* One entry of the event log, copied. */
typedef struct
{
  QdLogKind kind;
  guint64   event;
  double    t;
  guint     block;
  guint     port;
  double    elapsed;
  double    ta;
  QdSignal  segment;
} QdTestLogEntry;

/* The line's settings: QSS2 to t = 3, quanta 1e-6 and 1e-3. */
void          qd_test_line_settings    (QdDocument *doc,
                                        guint       n);
/* The model's integration method. */
void          qd_test_line_method      (QdDocument *doc,
                                        const char *method);
/* d, a unit pulse of width 1. */
QdBlock      *qd_test_line_pulse       (QdDocument *doc);
/* The x0 of state i: 0, or a spread of values when @spread. */
char         *qd_test_line_x0          (guint       i,
                                        gboolean    spread);
/* ẋ1 = d − x2, ẋi = x(i−1) − x(i+1), ẋN = x(N−1), section by section;
 * x0 = 0, or a spread of values when @spread. */
QdDocument   *qd_test_line_scalar      (guint       n,
                                        gboolean    spread);
/* The same line as four vector blocks (and the Pulse). */
QdDocument   *qd_test_line_vector      (guint       n,
                                        gboolean    spread);
/* @doc run with the event log: its QdTestLogEntry array. */
GArray       *qd_test_run_logged       (QdDocument *doc);
/* @doc compiled with its vectors expanded (QDEVS_VECTORS=expand). */
QdSimulation *qd_test_compile_expanded (QdDocument *doc);
/* @doc compiled, or run with the event log, with QDEVS_VECTORS set to
 * @mode ("expand" or "native"), which then has its value before again. */
QdSimulation *qd_test_compile_mode     (QdDocument *doc,
                                        const char *mode);
GArray       *qd_test_run_logged_mode  (QdDocument *doc,
                                        const char *mode);
/* The segments of trace @name of @sim (it must have it), in order. */
GArray       *qd_test_trace_segments   (QdSimulation *sim,
                                        const char   *name);
/* The message of @doc's compile error (it must have one). */
char         *qd_test_compile_error    (QdDocument *doc);

G_END_DECLS

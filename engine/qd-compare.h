/* qd-compare.h: one diagram under several methods, side by side
 *
 * A comparison runs a diagram once per method (a QSS method for every
 * Integrator, or a classic solver with its options; everything else in
 * the model's own settings) and once under a reference method, then
 * measures each run against the reference: its steps, right-hand-side
 * evaluations and CPU time, and for every Scope signal the largest and
 * the RMS difference from the reference's signal of the same name.
 *
 * Both signals are piecewise polynomials (the trace store's segments),
 * and the error is computed on them exactly: the time span is cut at
 * every segment start of either trace, on each piece the difference is
 * one polynomial, its largest magnitude is taken at the piece's ends and
 * the roots of its derivative, and its square is integrated in closed
 * form. The RMS error is sqrt(1/(t1 - t0) ∫ (x(t) - r(t))² dt) over
 * [t0, t1], from the later of the two traces' starts to the earlier of
 * their ends.
 */
#pragma once

#include <glib.h>

#include "qd-version-macros.h"
#include "qd-document.h"
#include "qd-trace.h"

G_BEGIN_DECLS

/* The reference when none is given: BDF with tight tolerances. */
#define QD_COMPARE_DEFAULT_REFERENCE "cvode-bdf:rtol=1e-10,atol=1e-12"

typedef struct
{
  double max;             /* the largest |x(t) - r(t)| */
  double rms;             /* sqrt of the mean of (x - r)² over time */
} QdCompareError;

typedef struct
{
  char       *path;       /* "/Plant/Integrator 2" */
  guint64     steps;      /* its internal transitions */
} QdCompareIntegrator;

typedef struct
{
  char      *spec;        /* as given: "RK4:h=0.01" */
  char      *name;        /* as run: "QSS2", "rk4:h=0.01" */
  gboolean   qss;         /* a QSS method, not a classic solver */
  gboolean   done;        /* the run took place (with or without error) */
  char      *error;       /* why the run failed, or NULL */
  guint64    steps;       /* QSS: Integrator steps; classic: accepted steps */
  guint64    failed_steps;/* classic: rejected steps */
  /* Classic: evaluations of the whole right-hand side. QSS: evaluations
   * of one component, the Integrators' external transitions (each is a
   * new derivative for one state). */
  guint64    rhs_evals;
  double     cpu_seconds; /* the run's CPU time (this thread) */
  /* QdCompareIntegrator, QSS only: each Integrator's steps. */
  GArray    *integrators;
  /* QdCompareError, one per signal of the comparison, in order; NaN
   * where the run has no such signal. */
  GArray    *errors;
  /* QdTrace*: the run's Scope traces (kept for plotting). */
  GPtrArray *traces;
} QdCompareRun;

typedef struct _QdComparison QdComparison;

/* The comparison of @methods (method specifications, see below) against
 * @reference (NULL: QD_COMPARE_DEFAULT_REFERENCE) on a copy of
 * @document, with @overrides of its variables ("NAME=EXPR", may be
 * NULL). A specification is a QSS method of the Integrator ("QSS2",
 * "LIQSS2"...) with the options dqmin and dqrel, or a classic solver
 * with the options rtol, atol, max_step and h ("rk4:h=0.01"); names are
 * case-insensitive, and the usual short names are accepted (BDF,
 * Adams, RK4, RKF45, DOPRI...). An unknown method or option fails here
 * with a message naming it. */
QD_API QdComparison *qd_comparison_new (QdDocument         *document,
                                        const char *const  *methods,
                                        const char         *reference,
                                        const char *const  *overrides,
                                        GError            **error);
QD_API void          qd_comparison_free (QdComparison      *self);

/* Whether the runs keep their traces once measured (default FALSE:
 * only the reference's are kept until the end). For a plot. */
QD_API void          qd_comparison_set_keep_traces (QdComparison *self,
                                                    gboolean      keep);

/* Runs the reference, then each method, and measures them. Returns
 * FALSE with @error when the reference fails (nothing can be measured
 * then) or the run was cancelled; a method that fails does not stop the
 * others: its run says why (QdCompareRun.error). Call once; from any
 * one thread. */
QD_API gboolean      qd_comparison_run (QdComparison  *self,
                                        GError       **error);
/* Any thread: makes the running qd_comparison_run() stop soon. */
QD_API void          qd_comparison_cancel (QdComparison *self);
/* Any thread: how many runs are finished, reference included, out of
 * qd_comparison_get_n_runs() + 1. */
QD_API guint         qd_comparison_get_progress (QdComparison *self);

QD_API guint               qd_comparison_get_n_runs  (QdComparison *self);
QD_API const QdCompareRun *qd_comparison_get_run     (QdComparison *self,
                                                      guint         index);
QD_API const QdCompareRun *qd_comparison_get_reference (QdComparison *self);
/* The signals measured: the reference run's trace names
 * ("/Scope/x"), NULL-terminated. */
QD_API const char *const  *qd_comparison_get_signals (QdComparison *self);

/* The error of @trace against @reference, exactly, as described above.
 * NaN when the two have no time in common. */
QD_API QdCompareError qd_compare_traces (QdTrace *trace,
                                         QdTrace *reference);

/* Parses one specification into @settings (a copy of the model's, which
 * it changes) and, for a QSS method, @qss_method (its canonical name,
 * to be set on every Integrator); returns the name the run goes by. */
QD_API char         *qd_compare_parse_spec (const char  *spec,
                                            QdSettings  *settings,
                                            char       **qss_method,
                                            GError     **error);

G_END_DECLS

/* qd-bench-timing.h: what `qdevs-cli bench` and qdevs-reference-lcline
 * measure alike, so that their figures are taken the same way
 *
 * Header-only (GLib and libc): the reference program depends on nothing
 * of the application's.
 */
#pragma once

#include <stdlib.h>
#include <time.h>

#include <glib.h>

/* The CPU time this process has used, in seconds. On a busy machine wall
 * time overstates the cost; CPU time shows how much of it a run really
 * used. */
static inline double
qd_bench_cpu_time (void)
{
  struct timespec ts;

  if (clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts) != 0)
    return 0.0;
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

static inline int
qd_bench_compare_double (const void *a,
                         const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* The median of @n values (the lower of the middle two when @n is even),
 * and their least in @min. Sorts @v. */
static inline double
qd_bench_median (double *v,
                 guint   n,
                 double *min)
{
  qsort (v, n, sizeof *v, qd_bench_compare_double);
  *min = v[0];
  return v[(n - 1) / 2];
}

/* The timing loop of a right-hand side alone (qdevs-cli bench): @call on
 * @x into @dx, @calls times, each result fed back into x so that no call
 * can be left out, sets @ns to the CPU ns per call. A macro, not a
 * function given the right-hand side: a call through a pointer would
 * weigh on the timings. */
#define QD_BENCH_TIME_RHS(ns, call, x, dx, n, calls)                        \
  G_STMT_START                                                              \
    {                                                                       \
      double start_ = qd_bench_cpu_time ();                                 \
      volatile double sink_ = 0.0;                                          \
                                                                            \
      for (guint64 c_ = 0; c_ < (calls); c_++)                              \
        {                                                                   \
          call;                                                             \
          (x)[c_ % (n)] += 1e-300 * (dx)[(c_ + 1) % (n)];                   \
        }                                                                   \
      sink_ = (dx)[(n) / 2];                                                \
      (void) sink_;                                                         \
      (ns) = (calls) > 0 ? (qd_bench_cpu_time () - start_) * 1e9            \
                           / (double) (calls) : 0.0;                        \
    }                                                                       \
  G_STMT_END

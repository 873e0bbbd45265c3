/* test-trace.c: trace stores: chunked storage, lock-free reading while a
 * writer appends, lookup and evaluation, and the memory budget: bounded
 * bytes, decimated history equal to the exact extremes, safe reading
 * while the writer drops, and what CSV export says about dropped data */
#include "qd-test-util.h"

#include <glib/gstdio.h>
#include <sys/mman.h>
#include <unistd.h>

/* The segment the writer puts at @index: every field derived from it, so a
 * reader can tell a torn or misplaced slot. */
static void
expected_segment (gsize     index,
                  QdSignal *seg)
{
  seg->t = (double) index;
  seg->c[0] = (double) index * 0.5;
  seg->c[1] = -(double) index;
  seg->c[2] = (double) (index % 7);
  seg->c[3] = 0;
  seg->order = 2;
  seg->tag = (guint32) (index * 2654435761u);
}

static gboolean
segment_is (const QdSignal *seg,
            gsize           index)
{
  QdSignal e;

  expected_segment (index, &e);
  return seg->t == e.t && seg->c[0] == e.c[0] && seg->c[1] == e.c[1]
         && seg->c[2] == e.c[2] && seg->c[3] == e.c[3]
         && seg->order == e.order && seg->tag == e.tag;
}

typedef struct
{
  QdTrace *trace;
  gsize    n;
} WriterData;

static gpointer
writer_thread (gpointer data)
{
  WriterData *w = data;
  QdSignal seg;

  for (gsize i = 0; i < w->n; i++)
    {
      expected_segment (i, &seg);
      qd_trace_append (w->trace, &seg);
    }
  qd_trace_close (w->trace, (double) w->n);
  return NULL;
}

/* Segments to write: 5 million, fewer under valgrind (QD_TEST_TRACE_N). */
static gsize
n_segments (void)
{
  const char *env = g_getenv ("QD_TEST_TRACE_N");

  return env != NULL ? g_ascii_strtoull (env, NULL, 10) : 5000000;
}

static void
test_trace_concurrent (void)
{
  WriterData w = { qd_trace_new ("/Scope/x"), n_segments () };
  GThread *thread = g_thread_new ("writer", writer_thread, &w);
  guint64 rounds = 0, checked = 0;
  gsize last_length = 0;
  double end_time = 0;

  /* The reader: every index below the length it read must hold exactly
   * the segment written there, and the length never goes back. Checking
   * all of them each round would be quadratic, so each round checks the
   * new ones plus a sample of old ones (which must not have moved). */
  for (;;)
    {
      gboolean closed = qd_trace_is_closed (w.trace, &end_time);
      gsize length = qd_trace_get_length (w.trace);

      g_assert_cmpuint (length, >=, last_length);
      for (gsize i = last_length; i < length; i++)
        if (!segment_is (qd_trace_get (w.trace, i), i))
          g_error ("segment %" G_GSIZE_FORMAT " is wrong", i);
      for (gsize k = 0; k < 64 && length > 0; k++)
        {
          gsize i = (gsize) g_random_int_range (0, (gint32) MIN (length, G_MAXINT32));

          g_assert_true (segment_is (qd_trace_get (w.trace, i), i));
        }
      checked += length - last_length;
      last_length = length;
      rounds++;
      if (closed)
        break;
    }
  g_thread_join (thread);

  g_assert_cmpuint (last_length, ==, w.n);
  g_assert_cmpuint (checked, ==, w.n);
  g_assert_cmpfloat (end_time, ==, (double) w.n);
  g_test_message ("%" G_GUINT64_FORMAT " reader rounds", rounds);
  qd_trace_unref (w.trace);
}

/* The chunk boundaries (1024, 1024 + 2048, ...) hold the right segments. */
static void
test_trace_chunks (void)
{
  g_autoptr(QdTrace) trace = qd_trace_new ("/S/y");
  QdSignal seg;
  const gsize n = 1024 + 2048 + 4096 + 10;

  g_assert_cmpstr (qd_trace_get_name (trace), ==, "/S/y");
  g_assert_cmpuint (qd_trace_get_length (trace), ==, 0);
  g_assert_false (qd_trace_is_closed (trace, NULL));
  for (gsize i = 0; i < n; i++)
    {
      expected_segment (i, &seg);
      qd_trace_append (trace, &seg);
    }
  g_assert_cmpuint (qd_trace_get_length (trace), ==, n);
  for (gsize i = 0; i < n; i++)
    g_assert_true (segment_is (qd_trace_get (trace, i), i));
  /* A reference keeps it alive. */
  qd_trace_unref (qd_trace_ref (trace));
}

/* Runs end at the chunk boundaries (1024, 3072, 7168, then every 4096)
 * or at the length given, never before; walking them meets every segment
 * once, at the address qd_trace_get() gives. The same after a budget
 * dropped the oldest chunks. */
static void
check_runs (QdTrace *trace,
            gsize    from,
            gsize    length)
{
  gsize i = from;

  while (i < length)
    {
      gsize n, expected_end;
      const QdSignal *run = qd_trace_get_run (trace, i, length, &n);

      if (i < 1024)
        expected_end = 1024;
      else if (i < 3072)
        expected_end = 3072;
      else
        expected_end = 3072 + ((i - 3072) / 4096 + 1) * 4096;
      g_assert_cmpuint (n, ==, MIN (expected_end, length) - i);
      for (gsize j = 0; j < n; j++)
        {
          g_assert_true (&run[j] == qd_trace_get (trace, i + j));
          g_assert_true (segment_is (&run[j], i + j));
        }
      i += n;
    }
  g_assert_cmpuint (i, ==, length);
}

static void
test_trace_runs (void)
{
  g_autoptr(QdTrace) trace = qd_trace_new ("/S/y");
  g_autoptr(QdTraceBudget) budget = qd_trace_budget_new (1 << 20);
  g_autoptr(QdTrace) dropped = qd_trace_new ("/S/z");
  const gsize n = 3072 + 3 * 4096 + 5;
  gsize first, length;
  guint pin;

  qd_trace_budget_add (budget, dropped);
  for (gsize i = 0; i < n; i++)
    {
      QdSignal seg;

      expected_segment (i, &seg);
      qd_trace_append (trace, &seg);
    }
  check_runs (trace, 0, n);
  /* From inside a chunk, and with a length read earlier. */
  check_runs (trace, 1500, n);
  check_runs (trace, 7167, 7169);
  check_runs (trace, 5, 6);

  for (gsize i = 0; i < 100000; i++)
    {
      QdSignal seg;

      expected_segment (i, &seg);
      qd_trace_append (dropped, &seg);
    }
  pin = qd_trace_read_begin (dropped);
  first = qd_trace_get_first (dropped);
  length = qd_trace_get_length (dropped);
  g_assert_cmpuint (first, >, 0);
  check_runs (dropped, first, length);
  qd_trace_read_end (dropped, pin);
}

static void
test_trace_find_eval (void)
{
  g_autoptr(QdTrace) trace = qd_trace_new ("/S/y");
  QdSignal seg;
  const double times[] = { 1.0, 2.0, 2.0, 3.5 };

  g_assert_cmpint (qd_trace_find (trace, 0, 5.0), ==, -1);
  g_assert_true (isnan (qd_trace_eval (trace, 5.0)));

  /* x = 10 + 2 (t - ti) on each, then the value starts at 10 * (k + 1). */
  for (guint k = 0; k < G_N_ELEMENTS (times); k++)
    {
      qd_signal_set_constant (&seg, times[k], 10.0 * (k + 1));
      seg.c[1] = 2.0;
      seg.order = 1;
      qd_trace_append (trace, &seg);
    }
  g_assert_cmpint (qd_trace_find (trace, 4, 0.5), ==, -1);
  g_assert_cmpint (qd_trace_find (trace, 4, 1.0), ==, 0);
  g_assert_cmpint (qd_trace_find (trace, 4, 1.9), ==, 0);
  /* Two segments at t = 2: the later one is in force. */
  g_assert_cmpint (qd_trace_find (trace, 4, 2.0), ==, 2);
  g_assert_cmpint (qd_trace_find (trace, 4, 3.0), ==, 2);
  g_assert_cmpint (qd_trace_find (trace, 4, 100.0), ==, 3);
  /* Only the first @length count. */
  g_assert_cmpint (qd_trace_find (trace, 2, 100.0), ==, 1);

  g_assert_true (isnan (qd_trace_eval (trace, 0.0)));
  g_assert_cmpfloat_with_epsilon (qd_trace_eval (trace, 1.5), 11.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (qd_trace_eval (trace, 3.0), 32.0, 1e-12);
  g_assert_cmpfloat_with_epsilon (qd_trace_eval (trace, 4.0), 41.0, 1e-12);

  qd_trace_close (trace, 4.0);
  {
    double end = 0;

    g_assert_true (qd_trace_is_closed (trace, &end));
    g_assert_cmpfloat (end, ==, 4.0);
  }
}

/* A cubic segment at t = index, [index, index + 1] until the next one,
 * whose derivative vanishes inside (at s = 1/3 when c3 is small), so the
 * extremes of a bucket are not only at event times. */
static void
wavy_segment (gsize     index,
              double    phase,
              QdSignal *seg)
{
  double i = (double) index + phase;

  seg->t = (double) index;
  seg->c[0] = sin (0.001 * i) + 0.2 * sin (0.05 * i);
  seg->c[1] = cos (0.37 * i);
  seg->c[2] = -1.5 * cos (0.37 * i);
  seg->c[3] = 0.1 * sin (i);
  seg->order = 3;
  seg->tag = (guint32) index;
}

static gboolean
wavy_is (const QdSignal *seg,
         gsize           index,
         double          phase)
{
  QdSignal e;

  wavy_segment (index, phase, &e);
  return memcmp (seg, &e, sizeof e) == 0;
}

/* The bucket recomputed from the generator: segments at integer times
 * t0 .. t1 - 1, each over [i, i + 1]. */
static void
check_bucket (const QdTraceBucket *b,
              double               phase)
{
  double lo = INFINITY, hi = -INFINITY;
  QdSignal seg;

  g_assert_cmpfloat (b->t0, <, b->t1);
  for (gsize i = (gsize) b->t0; i < (gsize) b->t1; i++)
    {
      double mn, mx;

      wavy_segment (i, phase, &seg);
      qd_signal_range (&seg, seg.t, seg.t + 1.0, &mn, &mx);
      lo = MIN (lo, mn);
      hi = MAX (hi, mx);
      if (i == (gsize) b->t0)
        g_assert_cmpfloat (b->first, ==, seg.c[0]);
    }
  /* The same operations in the same order: equal to the last bit. */
  g_assert_cmpfloat (b->min, ==, lo);
  g_assert_cmpfloat (b->max, ==, hi);
  g_assert_cmpfloat (b->last, ==, qd_signal_eval (&seg, b->t1));
}

/* Buckets follow each other without gaps from the trace's start. */
static void
check_history (QdTrace *trace,
               double   phase,
               gboolean each)
{
  gsize first, n;
  const QdTraceBucket *b;
  guint pin;

  pin = qd_trace_read_begin (trace);
  first = qd_trace_get_first (trace);
  b = qd_trace_get_history (trace, &n);
  g_assert_cmpuint (first, >, 0);
  g_assert_cmpuint (n, >, 0);
  g_assert_cmpfloat (b[0].t0, ==, 0.0);
  for (gsize j = 0; j + 1 < n; j++)
    g_assert_cmpfloat (b[j].t1, ==, b[j + 1].t0);
  /* Nothing is appended now: the history ends where exact data starts. */
  g_assert_cmpfloat (b[n - 1].t1, ==, qd_trace_get (trace, first)->t);
  for (gsize j = 0; j < n; j++)
    if (each || j == 0 || j == n - 1)
      check_bucket (&b[j], phase);
  qd_trace_read_end (trace, pin);
}

/* Three traces far beyond a 4 MiB budget: the store never holds more,
 * keeps the recent segments exact and the rest as history whose extremes
 * are the exact ones. */
static void
test_trace_budget_bounded (void)
{
  const gsize limit = 4 << 20, n = 1000000;
  g_autoptr(QdTraceBudget) budget = qd_trace_budget_new (limit);
  QdTrace *traces[3];
  g_autoptr(QdTrace) free_trace = qd_trace_new ("/S/free");
  double to[3];
  QdSignal seg;

  for (guint k = 0; k < 3; k++)
    {
      g_autofree char *name = g_strdup_printf ("/S/x%u", k + 1);

      traces[k] = qd_trace_new (name);
      qd_trace_budget_add (budget, traces[k]);
    }
  for (gsize i = 0; i < n; i++)
    for (guint k = 0; k < 3; k++)
      {
        wavy_segment (i, k * 100.0, &seg);
        qd_trace_append (traces[k], &seg);
      }
  for (gsize i = 0; i < n; i++)
    {
      wavy_segment (i, 0.0, &seg);
      qd_trace_append (free_trace, &seg);
    }

  /* The budget held: 144 MB of segments in at most 4 MiB. */
  g_test_message ("peak %" G_GSIZE_FORMAT " bytes of %" G_GSIZE_FORMAT,
                  qd_trace_budget_get_peak (budget), limit);
  g_assert_cmpuint (qd_trace_budget_get_peak (budget), <=, limit);
  g_assert_cmpuint (qd_trace_budget_get_used (budget), <=, limit);
  g_assert_cmpuint (qd_trace_budget_get_used (budget), >, limit / 2);
  g_assert_cmpuint (qd_trace_budget_get_used (budget), ==,
                    qd_trace_get_bytes (traces[0]) + qd_trace_get_bytes (traces[1])
                    + qd_trace_get_bytes (traces[2]));
  /* Without a budget, every byte stays: the segments and little else. */
  g_assert_cmpuint (qd_trace_get_bytes (free_trace), >=, n * sizeof (QdSignal));
  g_assert_cmpuint (qd_trace_get_bytes (free_trace), <=, (n + 4096) * sizeof (QdSignal) + 32768);

  for (guint k = 0; k < 3; k++)
    {
      QdTrace *t = traces[k];
      gsize first = qd_trace_get_first (t);
      double from;

      g_assert_cmpuint (qd_trace_get_length (t), ==, n);
      g_assert_true (qd_trace_get_dropped (t, &from, &to[k]));
      g_assert_cmpfloat (from, ==, 0.0);
      g_assert_cmpfloat (to[k], ==, (double) first);
      g_assert_cmpfloat (qd_trace_get_start_time (t), ==, 0.0);
      g_assert_cmpfloat (qd_trace_get_last_time (t), ==, (double) (n - 1));
      /* What is held is exact. */
      for (gsize i = first; i < n; i++)
        g_assert_true (wavy_is (qd_trace_get (t, i), i, k * 100.0));
      check_history (t, k * 100.0, TRUE);

      /* No value where exact data was dropped; the exact one after. */
      g_assert_true (isnan (qd_trace_eval (t, to[k] - 0.5)));
      wavy_segment (first, k * 100.0, &seg);
      g_assert_cmpfloat (qd_trace_eval (t, to[k] + 0.25), ==,
                         qd_signal_eval (&seg, to[k] + 0.25));
      g_assert_cmpint (qd_trace_find (t, n, to[k] - 0.5), ==, (gssize) first - 1);
      g_assert_cmpint (qd_trace_find (t, n, to[k]), ==, (gssize) first);
    }
  g_assert_false (qd_trace_get_dropped (free_trace, NULL, NULL));
  /* The oldest chunk goes first, whichever trace holds it: the traces
   * keep exact data over nearly the same window. */
  g_assert_cmpfloat (fabs (to[0] - to[1]), <=, 4096.0);
  g_assert_cmpfloat (fabs (to[0] - to[2]), <=, 4096.0);

  for (guint k = 0; k < 3; k++)
    qd_trace_unref (traces[k]);
  g_assert_cmpuint (qd_trace_budget_get_used (budget), ==, 0);
}

typedef struct
{
  QdTrace *trace;
  gsize    n;
} WavyWriter;

static gpointer
wavy_writer_thread (gpointer data)
{
  WavyWriter *w = data;
  QdSignal seg;

  for (gsize i = 0; i < w->n; i++)
    {
      wavy_segment (i, 0.0, &seg);
      qd_trace_append (w->trace, &seg);
    }
  qd_trace_close (w->trace, (double) w->n);
  return NULL;
}

/* A reader while the writer drops chunks under a 1 MiB budget: whatever
 * it is shown between begin and end stays valid and exact, and the
 * history always covers the dropped part without gaps. */
static void
test_trace_concurrent_budget (void)
{
  g_autoptr(QdTraceBudget) budget = qd_trace_budget_new (1 << 20);
  WavyWriter w = { qd_trace_new ("/Scope/x"), n_segments () };
  GThread *thread;
  gsize last_first = 0, last_length = 0, max_first = 0;
  guint64 rounds = 0;

  qd_trace_budget_add (budget, w.trace);
  thread = g_thread_new ("writer", wavy_writer_thread, &w);
  for (;;)
    {
      gboolean closed = qd_trace_is_closed (w.trace, NULL);
      const QdTraceBucket *b;
      gsize first, length, nb;
      guint pin;

      pin = qd_trace_read_begin (w.trace);
      first = qd_trace_get_first (w.trace);
      b = qd_trace_get_history (w.trace, &nb);
      length = qd_trace_get_length (w.trace);
      g_assert_cmpuint (first, >=, last_first);
      g_assert_cmpuint (length, >=, last_length);
      g_assert_true (first == 0 || first < length);
      for (gsize i = MAX (first, last_length); i < length; i++)
        if (!wavy_is (qd_trace_get (w.trace, i), i, 0.0))
          g_error ("segment %" G_GSIZE_FORMAT " is wrong", i);
      for (gsize k = 0; k < 16 && length > first; k++)
        {
          gsize i = first + (gsize) g_random_int_range (0, (gint32) MIN (length - first, G_MAXINT32));

          g_assert_true (wavy_is (qd_trace_get (w.trace, i), i, 0.0));
        }
      if (first > 0)
        {
          /* The history reaches at least to the exact data. */
          g_assert_cmpuint (nb, >, 0);
          g_assert_cmpfloat (b[0].t0, ==, 0.0);
          g_assert_cmpfloat (b[nb - 1].t1, >=, qd_trace_get (w.trace, first)->t);
          for (gsize j = 0; j + 1 < nb; j++)
            g_assert_cmpfloat (b[j].t1, ==, b[j + 1].t0);
          check_bucket (&b[nb - 1], 0.0);
        }
      qd_trace_read_end (w.trace, pin);
      last_first = first;
      last_length = length;
      max_first = MAX (max_first, first);
      rounds++;
      if (closed)
        break;
    }
  g_thread_join (thread);

  g_assert_cmpuint (last_length, ==, w.n);
  g_assert_cmpuint (max_first, >, 0);
  /* What the reader held up while the writer dropped is freed once it
   * leaves after the close, at the latest. */
  qd_trace_read_end (w.trace, qd_trace_read_begin (w.trace));
  g_assert_cmpuint (qd_trace_budget_get_used (budget), <=, 1 << 20);
  g_test_message ("%" G_GUINT64_FORMAT " reader rounds, peak %" G_GSIZE_FORMAT " bytes",
                  rounds, qd_trace_budget_get_peak (budget));
  qd_trace_unref (w.trace);
}

/* CSV of a trace that lost its oldest segments says so above the header
 * and starts its rows where exact data starts; one without a budget
 * keeps every event and no comment. */
static void
test_trace_budget_csv (void)
{
  g_autoptr(QdTraceBudget) budget = qd_trace_budget_new (512 << 10);
  g_autoptr(QdTrace) trace = qd_trace_new ("/Scope/x");
  g_autoptr(GPtrArray) traces = g_ptr_array_new ();
  g_autofree char *dir = g_dir_make_tmp ("qd-trace-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "x.csv", NULL);
  g_autofree char *text = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) lines = NULL;
  const gsize n = 40000;
  gsize first, rows = 0;
  QdSignal seg;

  qd_trace_budget_add (budget, trace);
  for (gsize i = 0; i < n; i++)
    {
      wavy_segment (i, 0.0, &seg);
      qd_trace_append (trace, &seg);
    }
  qd_trace_close (trace, (double) n);
  first = qd_trace_get_first (trace);
  g_assert_cmpuint (first, >, 0);

  g_ptr_array_add (traces, trace);
  g_assert_true (qd_traces_write_csv (traces, 0.0, (double) n, 0.0, path, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (path, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  expected = g_strdup_printf ("# /Scope/x: exact data from t = 0 to %" G_GSIZE_FORMAT
                              " was decimated to stay within the trace memory budget;"
                              " its column is empty there (raise the trace-memory-budget setting,"
                              " or run qdevs-cli with --trace-budget unlimited, to keep every event)",
                              first);
  g_assert_cmpstr (lines[0], ==, expected);
  g_assert_cmpstr (lines[1], ==, "time,/Scope/x");
  /* The first row is the first exact event, and there is one per event
   * from there, plus the end. */
  g_free (expected);
  expected = g_strdup_printf ("%" G_GSIZE_FORMAT ",", first);
  g_assert_true (g_str_has_prefix (lines[2], expected));
  for (guint k = 2; lines[k] != NULL && lines[k][0] != '\0'; k++)
    rows++;
  g_assert_cmpuint (rows, ==, n - first + 1);
  g_unlink (path);
  g_rmdir (dir);
}

/* Filling a chunk does not fault in its pages one by one: the store asks
 * the kernel for all of them when it allocates the chunk (where the
 * kernel can). A long run used to take a page fault per 4 KiB of trace,
 * some 8 % of the writer's time. With one segment written into a new
 * chunk, every page of the chunk is already there. */
static void
test_trace_prefault (void)
{
#if defined(MADV_POPULATE_WRITE)
  g_autoptr(QdTrace) trace = qd_trace_new ("x");
  /* The first segment of a full-size chunk: chunks of 1024, 2048, then
   * 4096 segments. */
  const gsize start = 1024 + 2048 + 3 * 4096, bytes = 4096 * sizeof (QdSignal);
  gsize page = (gsize) sysconf (_SC_PAGESIZE), n_pages, resident = 0;
  guintptr a, b;
  unsigned char *in_core;
  void *probe;

  probe = mmap (NULL, 16 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  g_assert_true (probe != MAP_FAILED);
  if (madvise (probe, 16 * page, MADV_POPULATE_WRITE) != 0)
    {
      munmap (probe, 16 * page);
      g_test_skip ("this kernel cannot populate pages in advance");
      return;
    }
  munmap (probe, 16 * page);

  for (gsize i = 0; i <= start; i++)
    {
      QdSignal seg;

      expected_segment (i, &seg);
      qd_trace_append (trace, &seg);
    }
  g_assert_true (segment_is (qd_trace_get (trace, start), start));
  a = ((guintptr) qd_trace_get (trace, start) + page - 1) & ~(guintptr) (page - 1);
  b = ((guintptr) qd_trace_get (trace, start) + bytes) & ~(guintptr) (page - 1);
  n_pages = (b - a) / page;
  in_core = g_malloc (n_pages);
  g_assert_cmpint (mincore ((void *) a, b - a, in_core), ==, 0);
  for (gsize i = 0; i < n_pages; i++)
    resident += in_core[i] & 1;
  g_free (in_core);
  g_assert_cmpuint (n_pages, >=, 40);
  g_assert_cmpuint (resident, ==, n_pages);
#else
  g_test_skip ("no MADV_POPULATE_WRITE");
#endif
}

/* A budget shrunk after its run (an editor making room among earlier
 * runs): the traces are decimated as their writer would have, oldest
 * first, down to their newest two chunks; what is left is exact, the
 * rest is history, and the spare chunk is given back. */
static void
test_trace_budget_shrink (void)
{
  const gsize n = 100000;
  g_autoptr(QdTraceBudget) budget = qd_trace_budget_new (64 << 20);
  QdTrace *traces[2];
  QdSignal seg;
  gsize before;

  for (guint k = 0; k < 2; k++)
    {
      g_autofree char *name = g_strdup_printf ("/S/x%u", k + 1);

      traces[k] = qd_trace_new (name);
      qd_trace_budget_add (budget, traces[k]);
      for (gsize i = 0; i < n; i++)
        {
          wavy_segment (i, k * 100.0, &seg);
          qd_trace_append (traces[k], &seg);
        }
      qd_trace_close (traces[k], (double) n);
    }
  before = qd_trace_budget_get_used (budget);
  g_assert_false (qd_trace_get_dropped (traces[0], NULL, NULL));
  g_assert_cmpuint (before, >=, 2 * n * sizeof (QdSignal));

  /* Half: the oldest data goes first, whichever trace holds it. */
  qd_trace_budget_shrink (budget, before / 2);
  g_assert_cmpuint (qd_trace_budget_get_used (budget), <=, before / 2);
  g_assert_cmpuint (qd_trace_budget_get_limit (budget), ==, before / 2);
  for (guint k = 0; k < 2; k++)
    {
      gsize first = qd_trace_get_first (traces[k]);

      g_assert_true (qd_trace_get_dropped (traces[k], NULL, NULL));
      g_assert_cmpuint (first, >, n / 4);
      for (gsize i = first; i < n; i++)
        g_assert_true (wavy_is (qd_trace_get (traces[k], i), i, k * 100.0));
      check_history (traces[k], k * 100.0, TRUE);
    }

  /* Nothing: each keeps its newest two chunks (8192 segments). */
  qd_trace_budget_shrink (budget, 0);
  for (guint k = 0; k < 2; k++)
    {
      g_assert_cmpuint (qd_trace_get_length (traces[k]) - qd_trace_get_first (traces[k]), <=, 8192);
      g_assert_cmpuint (qd_trace_get_length (traces[k]) - qd_trace_get_first (traces[k]), >, 0);
      g_assert_cmpfloat (qd_trace_get_last_time (traces[k]), ==, (double) (n - 1));
      check_history (traces[k], k * 100.0, TRUE);
    }
  g_test_message ("%" G_GSIZE_FORMAT " bytes before, %" G_GSIZE_FORMAT " after",
                  before, qd_trace_budget_get_used (budget));
  g_assert_cmpuint (qd_trace_budget_get_used (budget), <, before / 10);
  g_assert_cmpuint (qd_trace_budget_get_used (budget), ==,
                    qd_trace_get_bytes (traces[0]) + qd_trace_get_bytes (traces[1]));
  for (guint k = 0; k < 2; k++)
    qd_trace_unref (traces[k]);
  g_assert_cmpuint (qd_trace_budget_get_used (budget), ==, 0);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  g_test_add_func ("/trace/chunks", test_trace_chunks);
  g_test_add_func ("/trace/runs", test_trace_runs);
  g_test_add_func ("/trace/find-eval", test_trace_find_eval);
  g_test_add_func ("/trace/concurrent", test_trace_concurrent);
  g_test_add_func ("/trace/concurrent/budget", test_trace_concurrent_budget);
  g_test_add_func ("/trace/budget/bounded", test_trace_budget_bounded);
  g_test_add_func ("/trace/budget/csv", test_trace_budget_csv);
  g_test_add_func ("/trace/budget/shrink", test_trace_budget_shrink);
  g_test_add_func ("/trace/prefault", test_trace_prefault);

  return g_test_run ();
}

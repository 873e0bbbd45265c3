/* test-trace.c: trace stores: chunked storage, lock-free reading while a
 * writer appends, lookup and evaluation */
#include "qd-test-util.h"

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

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  g_test_add_func ("/trace/chunks", test_trace_chunks);
  g_test_add_func ("/trace/find-eval", test_trace_find_eval);
  g_test_add_func ("/trace/concurrent", test_trace_concurrent);

  return g_test_run ();
}

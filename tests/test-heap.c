/* test-heap.c: the indexed time heap against a reference on random
 * operation sequences */
#include <float.h>
#include "qd-test-util.h"
#include "qd-heap.h"

/* The reference: a plain array of times, the minimum found by a scan with
 * the same tie rule (lower id first). */
static gboolean
reference_min (const double *times,
               guint         n,
               guint        *id)
{
  gboolean found = FALSE;

  for (guint i = 0; i < n; i++)
    if (times[i] != QD_INF && (!found || times[i] < times[*id]))
      {
        *id = i;
        found = TRUE;
      }
  return found;
}

static void
run_sequence (guint32 seed,
              guint   n_ids,
              guint   n_ops,
              guint   n_distinct_times)
{
  GRand *rand = g_rand_new_with_seed (seed);
  double *times = g_new (double, n_ids);
  QdHeap heap;

  qd_heap_init (&heap, n_ids);
  for (guint i = 0; i < n_ids; i++)
    times[i] = QD_INF;

  for (guint op = 0; op < n_ops; op++)
    {
      guint id = g_rand_int_range (rand, 0, n_ids);
      guint kind = g_rand_int_range (rand, 0, 15);
      guint ref_id = 0;
      gboolean has_min;

      if (kind >= 13 && !qd_heap_is_empty (&heap))
        {
          /* The same in two halves (the large models' loop): the top's
           * hole sunk first, the next top then already in place, and the
           * hole filled at the later time, or, for a block that becomes
           * passive, with the last entry. */
          guint hole, next = G_MAXUINT;

          id = qd_heap_top_id (&heap);
          hole = qd_heap_sink_top (&heap);
          if (heap.n > 1)
            next = qd_heap_top_id (&heap);
          if (kind == 13)
            {
              times[id] += (double) g_rand_int_range (rand, 0, n_distinct_times);
              qd_heap_fill_hole (&heap, hole, id, times[id]);
            }
          else
            {
              qd_heap_drop_hole (&heap, hole, id);
              times[id] = QD_INF;
            }
          /* The top seen while the hole was open is the next event,
           * unless the block's own later time (a tie at most) comes
           * first. */
          if (next != G_MAXUINT && qd_heap_top_id (&heap) != id)
            g_assert_cmpuint (qd_heap_top_id (&heap), ==, next);
        }
      else if (kind == 10 && !qd_heap_is_empty (&heap))
        {
          /* The block that just fired goes to the same time or later. */
          id = qd_heap_top_id (&heap);
          times[id] += (double) g_rand_int_range (rand, 0, n_distinct_times);
          qd_heap_replace_top (&heap, times[id]);
        }
      else if (kind == 0 || kind == 10)
        {
          qd_heap_remove (&heap, id);
          times[id] = QD_INF;
        }
      else if (kind >= 11 && times[id] != QD_INF)
        {
          /* A receiver's small move (the inline path of qd_heap_update()):
           * by one unit either way or not at all, so that the new time
           * often equals a neighbour's and the ids must decide. */
          double t = times[id] + (double) g_rand_int_range (rand, -1, 2);

          qd_heap_update (&heap, id, t);
          times[id] = t;
        }
      else
        {
          /* Few distinct times, so that ties are frequent; some QD_INF. */
          double t = kind == 1 ? QD_INF
                               : (double) g_rand_int_range (rand, 0, n_distinct_times);

          qd_heap_update (&heap, id, t);
          times[id] = t;
        }

      g_assert_true (qd_heap_validate (&heap));
      has_min = reference_min (times, n_ids, &ref_id);
      g_assert_cmpint (has_min, ==, !qd_heap_is_empty (&heap));
      if (has_min)
        {
          g_assert_cmpuint (qd_heap_top_id (&heap), ==, ref_id);
          g_assert_cmpfloat (qd_heap_top_time (&heap), ==, times[ref_id]);
        }
      g_assert_cmpfloat (qd_heap_get_time (&heap, id), ==, times[id]);
      g_assert_cmpint (qd_heap_contains (&heap, id), ==, times[id] != QD_INF);
    }

  /* Draining gives (time, id) in increasing order. */
  {
    double last_t = -1;
    guint last_id = 0;
    gboolean first = TRUE;

    while (!qd_heap_is_empty (&heap))
      {
        double t = qd_heap_top_time (&heap);
        guint id = qd_heap_top_id (&heap);

        g_assert_cmpfloat (t, ==, times[id]);
        if (!first)
          g_assert_true (t > last_t || (t == last_t && id > last_id));
        first = FALSE;
        last_t = t;
        last_id = id;
        qd_heap_remove (&heap, id);
        times[id] = QD_INF;
        g_assert_true (qd_heap_validate (&heap));
      }
    for (guint i = 0; i < n_ids; i++)
      g_assert_true (times[i] == QD_INF);
  }

  qd_heap_clear (&heap);
  g_free (times);
  g_rand_free (rand);
}

static void
test_heap_random_small (void)
{
  for (guint32 seed = 1; seed <= 200; seed++)
    run_sequence (seed, 1 + seed % 9, 300, 4);
}

static void
test_heap_random_large (void)
{
  for (guint32 seed = 1000; seed < 1010; seed++)
    run_sequence (seed, 500, 5000, 50 + seed % 1000);
}

/* The top of a heap of one or two entries (a model of one or two
 * integrators) replaced without the general sift: it stays on top while
 * earlier than the other entry, or at the same time with the lower id,
 * and trades places with it otherwise. */
static void
test_heap_replace_top_small (void)
{
  /* Each no earlier than the top's time; the ties (5, 6) go to id 0. */
  static const double steps[] = { 4.5, 5.0, 5.0, 6.0, 6.0, 7.0, 6.5 };
  static const guint tops[] = { 1, 0, 0, 1, 0, 1, 1 };
  QdHeap heap;
  double times[2];

  qd_heap_init (&heap, 3);
  qd_heap_update (&heap, 1, 3.0);
  qd_heap_replace_top (&heap, 4.0);
  g_assert_cmpuint (heap.n, ==, 1);
  g_assert_cmpuint (qd_heap_top_id (&heap), ==, 1);
  g_assert_cmpfloat (qd_heap_top_time (&heap), ==, 4.0);
  g_assert_true (qd_heap_validate (&heap));
  qd_heap_update (&heap, 0, 5.0);
  times[0] = 5.0;
  times[1] = 4.0;
  for (guint k = 0; k < G_N_ELEMENTS (steps); k++)
    {
      guint top = qd_heap_top_id (&heap);

      times[top] = steps[k];
      qd_heap_replace_top (&heap, steps[k]);
      g_assert_true (qd_heap_validate (&heap));
      g_assert_cmpuint (heap.n, ==, 2);
      g_assert_cmpuint (qd_heap_top_id (&heap), ==, tops[k]);
      g_assert_cmpfloat (qd_heap_get_time (&heap, 0), ==, times[0]);
      g_assert_cmpfloat (qd_heap_get_time (&heap, 1), ==, times[1]);
    }
  qd_heap_clear (&heap);
}

/* Changing a key in place keeps the entry count: no re-insert. */
static void
test_heap_update_in_place (void)
{
  QdHeap heap;

  qd_heap_init (&heap, 8);
  for (guint i = 0; i < 8; i++)
    qd_heap_update (&heap, i, 10.0 + i);
  g_assert_cmpuint (heap.n, ==, 8);
  qd_heap_update (&heap, 7, 1.0);   /* decrease-key to the top */
  g_assert_cmpuint (heap.n, ==, 8);
  g_assert_cmpuint (qd_heap_top_id (&heap), ==, 7);
  qd_heap_update (&heap, 7, 100.0); /* increase-key to the bottom */
  g_assert_cmpuint (heap.n, ==, 8);
  g_assert_cmpuint (qd_heap_top_id (&heap), ==, 0);
  qd_heap_update (&heap, 3, 10.0);  /* a tie with id 0: 0 stays first */
  g_assert_cmpuint (qd_heap_top_id (&heap), ==, 0);
  qd_heap_update (&heap, 0, 10.5);
  g_assert_cmpuint (qd_heap_top_id (&heap), ==, 3);
  qd_heap_update (&heap, 3, QD_INF); /* passive: leaves the heap */
  g_assert_cmpuint (heap.n, ==, 7);
  g_assert_false (qd_heap_contains (&heap, 3));
  g_assert_true (qd_heap_validate (&heap));
  qd_heap_clear (&heap);
}

/* The inline path of qd_heap_update() compares keys only: a new time equal
 * to the parent's or a child's must still be ordered by id. Ids 0..4 at
 * distinct times form the top (id 0) and its four children. */
static void
test_heap_update_ties (void)
{
  QdHeap heap;

  qd_heap_init (&heap, 6);
  for (guint i = 0; i < 5; i++)
    qd_heap_update (&heap, i, 10.0 * (i + 1));
  g_assert_cmpuint (qd_heap_top_id (&heap), ==, 0);

  /* A child ties with the top and has the higher id: it stays below. */
  qd_heap_update (&heap, 3, 10.0);
  g_assert_true (qd_heap_validate (&heap));
  g_assert_cmpuint (qd_heap_top_id (&heap), ==, 0);

  /* The top ties with that child and has the lower id: it stays; moved
   * just past the child, the child comes first. */
  qd_heap_update (&heap, 0, 10.0);
  g_assert_cmpuint (qd_heap_top_id (&heap), ==, 0);
  qd_heap_update (&heap, 0, 10.5);
  g_assert_true (qd_heap_validate (&heap));
  g_assert_cmpuint (qd_heap_top_id (&heap), ==, 3);

  /* Now id 0 is a child of id 3: tying with its parent, the lower id
   * goes up. */
  qd_heap_update (&heap, 0, 10.0);
  g_assert_true (qd_heap_validate (&heap));
  g_assert_cmpuint (qd_heap_top_id (&heap), ==, 0);
  g_assert_cmpfloat (qd_heap_get_time (&heap, 3), ==, 10.0);

  /* -0 and +0 are one time: the lower id first, whichever was set last. */
  qd_heap_update (&heap, 5, 0.0);
  qd_heap_update (&heap, 4, -0.0);
  g_assert_true (qd_heap_validate (&heap));
  g_assert_cmpuint (qd_heap_top_id (&heap), ==, 4);
  qd_heap_update (&heap, 5, -0.0);
  qd_heap_update (&heap, 4, 0.0);
  g_assert_cmpuint (qd_heap_top_id (&heap), ==, 4);

  /* A leaf set to QD_INF leaves the heap (its "children" are the
   * sentinels, whose key is that of QD_INF). */
  qd_heap_update (&heap, 2, QD_INF);
  g_assert_false (qd_heap_contains (&heap, 2));
  g_assert_cmpuint (heap.n, ==, 5);
  g_assert_true (qd_heap_validate (&heap));

  /* The order drains as (time, id). */
  {
    const guint order[] = { 4, 5, 0, 3, 1 };

    for (guint k = 0; k < G_N_ELEMENTS (order); k++)
      {
        g_assert_cmpuint (qd_heap_top_id (&heap), ==, order[k]);
        qd_heap_remove (&heap, order[k]);
        g_assert_true (qd_heap_validate (&heap));
      }
  }
  g_assert_true (qd_heap_is_empty (&heap));
  qd_heap_clear (&heap);
}

/* The event loop's pattern on a large heap: the top goes into the future
 * (qd_heap_replace_top), two other ids move a little either way. Checked
 * against the reference every 97 steps (a full scan each step would make
 * the test quadratic). */
static void
test_heap_event_pattern (void)
{
  const guint n_ids = 3000;
  GRand *rand = g_rand_new_with_seed (42);
  double *times = g_new (double, n_ids);
  QdHeap heap;

  qd_heap_init (&heap, n_ids);
  for (guint i = 0; i < n_ids; i++)
    {
      /* Integer times in a short range: ties everywhere. */
      times[i] = (double) g_rand_int_range (rand, 0, 200);
      qd_heap_update (&heap, i, times[i]);
    }
  for (guint step = 0; step < 60000; step++)
    {
      guint top = qd_heap_top_id (&heap);

      times[top] += (double) g_rand_int_range (rand, 1, 40);
      qd_heap_replace_top (&heap, times[top]);
      for (guint k = 0; k < 2; k++)
        {
          guint id = g_rand_int_range (rand, 0, n_ids);

          times[id] += (double) g_rand_int_range (rand, -3, 4);
          qd_heap_update (&heap, id, times[id]);
        }
      if (step % 97 == 0)
        {
          guint ref_id = 0;

          g_assert_true (qd_heap_validate (&heap));
          g_assert_true (reference_min (times, n_ids, &ref_id));
          g_assert_cmpuint (qd_heap_top_id (&heap), ==, ref_id);
        }
    }
  qd_heap_clear (&heap);
  g_free (times);
  g_rand_free (rand);
}

/* Times are ordered as integers (qd_heap_key): negative, zero of either
 * sign, subnormal and huge times keep their order and come back exactly,
 * and an emptied heap reads as empty. */
static void
test_heap_key_order (void)
{
  const double times[] = {
    -1e300, -2.5, -1.0, -DBL_MIN / 4, 0.0, DBL_MIN / 4, DBL_MIN, 1e-300,
    0.5, 1.0, 1.0 + DBL_EPSILON, 3e8, 1e300, DBL_MAX,
  };
  const guint n = G_N_ELEMENTS (times);
  QdHeap heap;

  for (guint k = 1; k < n; k++)
    g_assert_cmpuint (qd_heap_key (times[k - 1]), <, qd_heap_key (times[k]));
  g_assert_cmpuint (qd_heap_key (-0.0), ==, qd_heap_key (0.0));
  for (guint k = 0; k < n; k++)
    g_assert_true (qd_heap_key_time (qd_heap_key (times[k])) == times[k]);

  /* Inserted backwards, taken out in order; -0 and +0 tie, the lower id
   * first. */
  qd_heap_init (&heap, n + 1);
  for (guint k = n; k-- > 0;)
    qd_heap_update (&heap, k, times[k]);
  qd_heap_update (&heap, n, -0.0);
  g_assert_true (qd_heap_validate (&heap));
  for (guint k = 0; k < n; k++)
    {
      g_assert_cmpfloat (qd_heap_top_time (&heap), ==, times[k]);
      g_assert_cmpuint (qd_heap_top_id (&heap), ==, k);
      g_assert_true (qd_heap_top_before (&heap, qd_heap_key (times[k]), k + 1));
      g_assert_false (qd_heap_top_before (&heap, qd_heap_key (times[k]), k));
      qd_heap_remove (&heap, k);
      g_assert_true (qd_heap_validate (&heap));
      if (times[k] == 0.0)
        {
          g_assert_cmpuint (qd_heap_top_id (&heap), ==, n);
          qd_heap_remove (&heap, n);
        }
    }
  g_assert_true (qd_heap_is_empty (&heap));
  g_assert_false (qd_heap_top_before (&heap, qd_heap_key (DBL_MAX), G_MAXUINT32));
  qd_heap_clear (&heap);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  qd_init ();

  g_test_add_func ("/heap/random-small", test_heap_random_small);
  g_test_add_func ("/heap/random-large", test_heap_random_large);
  g_test_add_func ("/heap/update-in-place", test_heap_update_in_place);
  g_test_add_func ("/heap/replace-top-small", test_heap_replace_top_small);
  g_test_add_func ("/heap/key-order", test_heap_key_order);
  g_test_add_func ("/heap/update-ties", test_heap_update_ties);
  g_test_add_func ("/heap/event-pattern", test_heap_event_pattern);

  return g_test_run ();
}

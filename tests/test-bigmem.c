/* test-bigmem.c: the large blocks of the event loop: aligned, zeroed when
 * asked, every byte usable, freed whichever way they were made */
#include <string.h>

#include "qd-test-util.h"
#include "qd-bigmem.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif

static void
check_block (gsize    n,
             gsize    element_size,
             gboolean zeroed)
{
  gsize size = n * element_size;
  guint8 *mem = zeroed ? qd_bigmem_alloc0 (n, element_size)
                       : qd_bigmem_alloc (n, element_size);

  g_assert_nonnull (mem);
  g_assert_cmpuint ((guintptr) mem % 64, ==, 0);
  if (zeroed)
    for (gsize k = 0; k < size; k++)
      g_assert_cmpuint (mem[k], ==, 0);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  /* A large block is a mapping of its own on a huge page's boundary; a
   * small one is not (it would waste most of a huge page). */
  g_assert_cmpint (qd_bigmem_is_mapped (mem), ==, size >= QD_BIGMEM_HUGE_SIZE);
  if (size >= QD_BIGMEM_HUGE_SIZE)
    g_assert_cmpuint ((guintptr) mem % QD_BIGMEM_HUGE_SIZE, ==, 0);
#endif
  /* Every byte is ours (valgrind and the sanitizers would see a write past
   * the end of a small block). */
  memset (mem, 0xa5, size);
  if (size > 0)
    g_assert_cmpuint (mem[size - 1], ==, 0xa5);
  qd_bigmem_free (mem);
}

static void
test_bigmem_sizes (void)
{
  static const gsize sizes[] = {
    0, 1, 63, 64, 1000, 4096, 1024 * 1024,
    QD_BIGMEM_HUGE_SIZE - 1, QD_BIGMEM_HUGE_SIZE, QD_BIGMEM_HUGE_SIZE + 1,
    3 * QD_BIGMEM_HUGE_SIZE + 4097,
  };

  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      check_block (sizes[k], 1, TRUE);
      check_block (sizes[k], 1, FALSE);
    }
  /* Sizes given as a count of elements. */
  check_block (100000, 64, TRUE);
  check_block (3, 16, FALSE);
  qd_bigmem_free (NULL);
}

/* Many large blocks alive at once, freed in another order than made: each
 * mapping is given back whole and only once. */
static void
test_bigmem_many (void)
{
  guint8 *blocks[8];

  for (guint k = 0; k < G_N_ELEMENTS (blocks); k++)
    {
      blocks[k] = qd_bigmem_alloc0 (QD_BIGMEM_HUGE_SIZE + k * 100000, 1);
      blocks[k][0] = (guint8) k;
      blocks[k][QD_BIGMEM_HUGE_SIZE + k * 100000 - 1] = (guint8) k;
    }
  for (guint k = 0; k < G_N_ELEMENTS (blocks); k += 2)
    qd_bigmem_free (blocks[k]);
  for (guint k = 1; k < G_N_ELEMENTS (blocks); k += 2)
    {
      g_assert_cmpuint (blocks[k][0], ==, k);
      qd_bigmem_free (blocks[k]);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/bigmem/sizes", test_bigmem_sizes);
  g_test_add_func ("/bigmem/many", test_bigmem_many);

  return g_test_run ();
}

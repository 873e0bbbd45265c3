/* qd-blocks.c: registration of the built-in block library */
#include <glib/gi18n-lib.h>

#include "qd-blocks.h"
#include "qd-blocks-private.h"
#include "qd-registry.h"
#include "qd-plugin.h"

static const QdBlockType *const builtin_blocks[] = {
  /* one line per descriptor, in the order of qd-blocks-private.h */
  &qd_block_integrator,
  &qd_block_integrator_reset,
  &qd_block_transport_delay,
  &qd_block_variable_transport_delay,
  &qd_block_state_space,
  &qd_block_transfer_function,
  &qd_block_pid,
  &qd_block_gain,
  &qd_block_wsum,
  &qd_block_product,
  &qd_block_division,
  &qd_block_sin,
  &qd_block_cos,
  &qd_block_exp,
  &qd_block_log,
  &qd_block_sqrt,
  &qd_block_abs,
  &qd_block_square,
  &qd_block_pow,
  &qd_block_power_n,
  &qd_block_inverse,
  &qd_block_nlfunction,
  &qd_block_implicit_function,
  &qd_block_constant,
  &qd_block_step,
  &qd_block_ramp,
  &qd_block_pulse,
  &qd_block_square_wave,
  &qd_block_sine,
  &qd_block_triangle,
  &qd_block_sawtooth,
  &qd_block_trapezoid,
  &qd_block_time,
  &qd_block_random,
  &qd_block_normal_random,
  &qd_block_poisson,
  &qd_block_from_csv,
  &qd_block_cross_detect,
  &qd_block_switch,
  &qd_block_comparator,
  &qd_block_sign,
  &qd_block_hysteresis,
  &qd_block_relay,
  &qd_block_saturation,
  &qd_block_quantizer,
  &qd_block_lookup_1d,
  &qd_block_sample_hold,
  &qd_block_commanded_sampler,
  &qd_block_generator,
  &qd_block_queue,
  &qd_block_server,
  &qd_block_delay,
  &qd_block_unit_delay,
  &qd_block_counter,
  &qd_block_place,
  &qd_block_transition,
  &qd_block_goto,
  &qd_block_index_shift,
  &qd_block_mux,
  &qd_block_selector,
  &qd_block_scalar_to_vector,
  &qd_block_demux,
  &qd_block_sum_elements,
  &qd_block_matrix_gain,
  &qd_block_from,
  &qd_block_scope,
  &qd_block_display,
  &qd_block_to_csv,
  &qd_block_event_counter,
  &qd_block_time_counter,
  &qd_block_statistics,
  &qd_block_terminator,
  &qd_block_lua,
  NULL
};

/* The user's Lua blocks and the C plugins; one that cannot be used is
 * left out, and says why on standard error (the programs have no other
 * place then). */
static void
load_user_library (void)
{
  g_autoptr(GPtrArray) problems = g_ptr_array_new_with_free_func (g_free);

  qd_blocks_load_library (NULL, problems);
  for (guint i = 0; i < problems->len; i++)
    g_printerr (_("%s (the block is left out of the palette)\n"),
                (char *) g_ptr_array_index (problems, i));
  g_ptr_array_set_size (problems, 0);
  qd_plugins_load (problems);
  for (guint i = 0; i < problems->len; i++)
    g_printerr (_("%s (the plugin is left out of the palette)\n"),
                (char *) g_ptr_array_index (problems, i));
}

void
qd_init (void)
{
  static gsize initialized = 0;

  if (g_once_init_enter (&initialized))
    {
      bindtextdomain (GETTEXT_PACKAGE, QD_LOCALEDIR);
      bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
      for (guint i = 0; builtin_blocks[i] != NULL; i++)
        qd_registry_register (builtin_blocks[i]);
      load_user_library ();
      g_once_init_leave (&initialized, 1);
    }
}

/* qd-blocks-private.h: the descriptors of the built-in blocks
 *
 * Each block file defines one or more constant descriptors; qd-blocks.c
 * registers them all. Add a new block's descriptor here and in qd-blocks.c.
 */
#pragma once

#include <glib/gi18n-lib.h>

#include "qd-block-type.h"
#include "qd-expr.h"
#include "qd-registry.h"

G_BEGIN_DECLS

/* Continuous */
extern const QdBlockType qd_block_integrator;
extern const QdBlockType qd_block_integrator_reset;
extern const QdBlockType qd_block_transport_delay;
extern const QdBlockType qd_block_variable_transport_delay;
extern const QdBlockType qd_block_state_space;
extern const QdBlockType qd_block_transfer_function;
extern const QdBlockType qd_block_pid;

/* Math (static functions) */
extern const QdBlockType qd_block_gain;
extern const QdBlockType qd_block_wsum;
/* The native vector forms of the Integrator and the Weighted Sum
 * (qd-block-fast-private.h): never registered. */
extern const QdBlockType qd_block_vector_integrator;
extern const QdBlockType qd_block_vector_wsum;
extern const QdBlockType qd_block_vector_gain;
gboolean qd_vector_integrator_accepts (const char *method);
extern const QdBlockType qd_block_product;
extern const QdBlockType qd_block_division;
extern const QdBlockType qd_block_sin;
extern const QdBlockType qd_block_cos;
extern const QdBlockType qd_block_exp;
extern const QdBlockType qd_block_log;
extern const QdBlockType qd_block_sqrt;
extern const QdBlockType qd_block_abs;
extern const QdBlockType qd_block_square;
extern const QdBlockType qd_block_pow;
extern const QdBlockType qd_block_power_n;
extern const QdBlockType qd_block_inverse;
extern const QdBlockType qd_block_nlfunction;
extern const QdBlockType qd_block_implicit_function;

/* Sources */
extern const QdBlockType qd_block_constant;
extern const QdBlockType qd_block_step;
extern const QdBlockType qd_block_ramp;
extern const QdBlockType qd_block_pulse;
extern const QdBlockType qd_block_square_wave;
extern const QdBlockType qd_block_sine;
extern const QdBlockType qd_block_triangle;
extern const QdBlockType qd_block_sawtooth;
extern const QdBlockType qd_block_trapezoid;
extern const QdBlockType qd_block_time;
extern const QdBlockType qd_block_random;
extern const QdBlockType qd_block_normal_random;
extern const QdBlockType qd_block_poisson;
extern const QdBlockType qd_block_from_csv;

/* Hybrid (discontinuities located exactly) */
extern const QdBlockType qd_block_cross_detect;
extern const QdBlockType qd_block_switch;
extern const QdBlockType qd_block_comparator;
extern const QdBlockType qd_block_sign;
extern const QdBlockType qd_block_hysteresis;
extern const QdBlockType qd_block_relay;
extern const QdBlockType qd_block_saturation;
extern const QdBlockType qd_block_quantizer;
extern const QdBlockType qd_block_lookup_1d;
extern const QdBlockType qd_block_sample_hold;
extern const QdBlockType qd_block_commanded_sampler;

/* Discrete (events carrying entities and tokens) */
extern const QdBlockType qd_block_generator;
extern const QdBlockType qd_block_queue;
extern const QdBlockType qd_block_server;
extern const QdBlockType qd_block_delay;
extern const QdBlockType qd_block_unit_delay;
extern const QdBlockType qd_block_counter;
extern const QdBlockType qd_block_place;
extern const QdBlockType qd_block_transition;

/* Structure (named signals) */
extern const QdBlockType qd_block_goto;
extern const QdBlockType qd_block_index_shift;
extern const QdBlockType qd_block_mux;
extern const QdBlockType qd_block_selector;
extern const QdBlockType qd_block_scalar_to_vector;
extern const QdBlockType qd_block_demux;
extern const QdBlockType qd_block_sum_elements;
extern const QdBlockType qd_block_matrix_gain;
extern const QdBlockType qd_block_from;

/* Sinks */
extern const QdBlockType qd_block_scope;
extern const QdBlockType qd_block_display;
extern const QdBlockType qd_block_to_csv;
extern const QdBlockType qd_block_event_counter;
extern const QdBlockType qd_block_time_counter;
extern const QdBlockType qd_block_statistics;
extern const QdBlockType qd_block_terminator;

/* Formulas over a block's inputs u0..u(n-1), t and the model variables
 * (qd-block-nlfunction.c), shared by the blocks that take one. */
/* The type's check of a formula parameter named 'expression': its syntax,
 * and no input beyond the block's last. */
gboolean qd_formula_check (const char  *text,
                           guint        n_inputs,
                           GError     **error);

/* Parses @text and binds it to the slots u0..u(n-1), t, then the names of
 * @extra (NULL-terminated, or NULL), then the model variables (set as
 * constants); returns NULL on failure, having stopped the run with a
 * message naming the parameter 'expression' when @fail. */
QdExpr  *qd_formula_bind  (QdAtomic          *self,
                           const char        *text,
                           const char *const *extra,
                           gboolean           fail);

/* Custom */
extern const QdBlockType qd_block_lua;

G_END_DECLS

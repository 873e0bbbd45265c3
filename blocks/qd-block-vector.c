/* qd-block-vector.c: the vector wiring blocks
 *
 * Index Shift moves the elements of a vector signal: y[i] = u[i - k].
 * It is structural (QD_BLOCK_INDEX_SHIFT): the compiler joins each
 * element of its output to the element of its input it copies, or to
 * the boundary, so it has no events of its own and costs nothing at run
 * time (engine/qd-compile-vector.c).
 */
#include "qd-blocks-private.h"

static const QdParamSpec index_shift_params[] = {
  { "shift", N_("Shift"), QD_PARAM_INTEGER, "1", -QD_INF, QD_INF, NULL,
    N_("k in y[i] = u[i − k]: 1 moves every element one place up (y[2] = "
       "u[1]), −1 one place down (y[1] = u[2])."), NULL, 0 },
  { "boundary", N_("Boundary value"), QD_PARAM_NUMBER, "0", -QD_INF, QD_INF, NULL,
    N_("The value of the elements shifted in (the first k for k > 0, the "
       "last −k for k < 0) when input 2 is not connected."), NULL, 0 },
};

const QdBlockType qd_block_index_shift = {
  .id = "index_shift",
  .category = N_("Vectors"),
  .name = N_("Index Shift"),
  .glyph = "u[i−k]",
  .doc = N_("Shifts the elements of a vector signal: y[i] = u[i − k], as "
            "long as u. The elements shifted in are input 2's signal when "
            "it is connected (the driving end of a line), else the boundary "
            "value. It is resolved into wiring when the model is compiled: "
            "it has no events and no cost while running."),
  .inputs = { .count = 2, .name_prefix = "u",
              .doc = N_("u0: the vector; u1 (optional): the signal of the "
                        "elements shifted in.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The shifted vector.") },
  .params = index_shift_params,
  .n_params = G_N_ELEMENTS (index_shift_params),
  .flags = QD_BLOCK_STRUCTURAL | QD_BLOCK_INDEX_SHIFT | QD_BLOCK_OPTIONAL_INPUTS,
};

/* qd-block-vector.c: the vector wiring blocks
 *
 * Index Shift moves the elements of a vector signal: y[i] = u[i - k];
 * Mux joins signals into a vector, Selector picks elements, Scalar to
 * Vector repeats a signal, Demux splits one. They are structural
 * (QD_BLOCK_INDEX_SHIFT and the other vector flags): the compiler joins
 * each element of its output to the element of its input it copies, or
 * to the boundary, so it has no events of its own and costs nothing at
 * run time (engine/qd-compile-vector.c).
 *
 * Sum of Elements and Matrix Gain compute, but they too are only
 * descriptors: the compiler writes them as Weighted Sums of elements
 * (engine/qd-compile-vector-sum.c), which are exact on every Taylor
 * coefficient and have the fast paths of the Weighted Sum.
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

static const QdParamSpec mux_params[] = {
  { "n", N_("Inputs"), QD_PARAM_INTEGER, "2", 1, 1024, NULL,
    N_("The number of inputs."), NULL, 0 },
};

const QdBlockType qd_block_mux = {
  .id = "mux",
  .category = N_("Vectors"),
  .name = N_("Mux"),
  .glyph = "[u0; u1]",
  .doc = N_("Joins its inputs into one vector, one after the other: a "
            "scalar input is one element, a vector input all of its "
            "elements. Resolved into wiring when the model is compiled."),
  .inputs = { .size_param = "n", .name_prefix = "u",
              .doc = N_("The signals to join, in order.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The joined vector.") },
  .params = mux_params,
  .n_params = G_N_ELEMENTS (mux_params),
  .flags = QD_BLOCK_STRUCTURAL | QD_BLOCK_VECTOR_MUX,
};

static const QdParamSpec selector_params[] = {
  { "elements", N_("Elements"), QD_PARAM_STRING, "1", -QD_INF, QD_INF, NULL,
    N_("The elements to output, numbered from 1: single elements and "
       "ranges a:b, separated by commas (\"1, 3, 5:8\"). Each may be an "
       "expression of the model variables (\"2:N\")."), NULL, 0 },
};

const QdBlockType qd_block_selector = {
  .id = "selector",
  .category = N_("Vectors"),
  .name = N_("Selector"),
  .glyph = "u[k]",
  .doc = N_("Outputs the chosen elements of a vector, in the order listed "
            "(an element may appear more than once). Demultiplexing is one "
            "Selector per part. Resolved into wiring when the model is "
            "compiled."),
  .inputs = { .count = 1, .name_prefix = "u",
              .doc = N_("The vector.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The selected elements.") },
  .params = selector_params,
  .n_params = G_N_ELEMENTS (selector_params),
  .flags = QD_BLOCK_STRUCTURAL | QD_BLOCK_VECTOR_SELECT,
};

static const QdParamSpec spread_params[] = {
  { "size", N_("Size"), QD_PARAM_INTEGER, "2", 1, QD_INF, NULL,
    N_("The number of elements of the output."), NULL, 0 },
};

const QdBlockType qd_block_scalar_to_vector = {
  .id = "scalar_to_vector",
  .category = N_("Vectors"),
  .name = N_("Scalar to Vector"),
  .glyph = "u→[u…]",
  .doc = N_("A vector of its input repeated as many times as its size: "
            "every element is the same signal, with its events. Resolved "
            "into wiring when the model is compiled."),
  .inputs = { .count = 1, .name_prefix = "u",
              .doc = N_("The scalar signal.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The vector.") },
  .params = spread_params,
  .n_params = G_N_ELEMENTS (spread_params),
  .flags = QD_BLOCK_STRUCTURAL | QD_BLOCK_VECTOR_SPREAD,
};

static const QdParamSpec demux_params[] = {
  { "n", N_("Outputs"), QD_PARAM_INTEGER, "2", 1, 1024, NULL,
    N_("The number of outputs."), NULL, 0 },
  { "widths", N_("Widths"), QD_PARAM_STRING, "", -QD_INF, QD_INF, NULL,
    N_("The width of each output, separated by commas (\"2, 3\"), each an "
       "expression of the model variables; they must add up to the "
       "input's width. Empty: the outputs share the input evenly."),
    NULL, 0 },
};

const QdBlockType qd_block_demux = {
  .id = "demux",
  .category = N_("Vectors"),
  .name = N_("Demux"),
  .glyph = "[y0; y1]",
  .doc = N_("Splits a vector into its outputs, one after the other: output "
            "1 takes the first elements, output 2 the next ones, each as "
            "many as its width (an output of width 1 is a scalar). "
            "Resolved into wiring when the model is compiled."),
  .inputs = { .count = 1, .name_prefix = "u",
              .doc = N_("The vector.") },
  .outputs = { .size_param = "n", .name_prefix = "y",
               .doc = N_("The parts, in order.") },
  .params = demux_params,
  .n_params = G_N_ELEMENTS (demux_params),
  .flags = QD_BLOCK_STRUCTURAL | QD_BLOCK_VECTOR_DEMUX,
};

static const QdParamSpec sum_elements_params[] = {
  { "signs", N_("Signs"), QD_PARAM_STRING, "", -QD_INF, QD_INF, NULL,
    N_("One sign per element, + or − (\"+-+\"); empty adds every "
       "element."), NULL, 0 },
};

const QdBlockType qd_block_sum_elements = {
  .id = "sum_elements",
  .category = N_("Vectors"),
  .name = N_("Sum of Elements"),
  .glyph = "Σu[i]",
  .doc = N_("The sum of the elements of its input, each with its sign: "
            "y = ±u[1] ± u[2] ± …, a scalar. It is compiled into a Weighted "
            "Sum of the elements, exact on every Taylor coefficient."),
  .inputs = { .count = 1, .name_prefix = "u",
              .doc = N_("The vector.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The sum.") },
  .params = sum_elements_params,
  .n_params = G_N_ELEMENTS (sum_elements_params),
  .flags = QD_BLOCK_STRUCTURAL | QD_BLOCK_VECTOR_SUM,
};

static const char *const layout_choices[] = { "dense", "triplets", NULL };

static const QdParamSpec matrix_gain_params[] = {
  { "matrix", N_("Matrix"), QD_PARAM_STRING, "[1 0; 0 1]", -QD_INF, QD_INF, NULL,
    N_("M, row by row: rows separated by semicolons, elements by commas "
       "or spaces (\"[1 0; 0 2]\"), or a list of rows (\"[[1, 0], [0, "
       "2]]\"); each element an expression of the model variables. Its "
       "columns must be as many as the input's elements. Not read when a "
       "file is given."), NULL, 0 },
  { "file", N_("File"), QD_PARAM_STRING, "", -QD_INF, QD_INF, NULL,
    N_("A CSV file holding M, read when the model is compiled (a relative "
       "path is relative to the working directory); empty to use the "
       "matrix parameter."), NULL, 0 },
  { "layout", N_("File layout"), QD_PARAM_CHOICE, "dense", -QD_INF, QD_INF, NULL,
    N_("dense: one line per row of M; triplets: one line \"i,j,value\" per "
       "nonzero element, numbered from 1 (M has as many rows as the "
       "largest i)."), layout_choices, 0 },
};

const QdBlockType qd_block_matrix_gain = {
  .id = "matrix_gain",
  .category = N_("Vectors"),
  .name = N_("Matrix Gain"),
  .glyph = "M·u",
  .doc = N_("Multiplies its input vector by a matrix: y = M·u, y as wide as "
            "M has rows. M is sparse: it is compiled into one Weighted Sum "
            "per row over the row's nonzero elements, so each output "
            "element has events only when the inputs it depends on do."),
  .inputs = { .count = 1, .name_prefix = "u",
              .doc = N_("The vector u, as wide as M has columns.") },
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The vector M·u.") },
  .params = matrix_gain_params,
  .n_params = G_N_ELEMENTS (matrix_gain_params),
  .flags = QD_BLOCK_STRUCTURAL | QD_BLOCK_VECTOR_MATRIX,
};

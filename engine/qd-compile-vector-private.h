/* qd-compile-vector-private.h: what the two files of the vector
 * expansion share (qd-compile-vector.c: widths, wiring, subsystems;
 * qd-compile-vector-sum.c: Sum of Elements, Matrix Gain and the sinks
 * that choose elements)
 */
#pragma once

#include "qd-document.h"
#include "qd-vector-matrix.h"

G_BEGIN_DECLS

/* The most elements of one vector: far beyond any model that fits in
 * memory, low enough that a typo ("1e12") is an error, not a crash. */
#define QD_VECTOR_MAX_WIDTH 100000000u

/* The fewest elements, all native blocks together, that make a model
 * run its vectors natively without QDEVS_VECTORS=native
 * (qd-compile-vector-native.c says why). */
#define QD_VECTOR_NATIVE_MIN (1u << 18)

typedef enum
{
  KIND_PLAIN,        /* an atomic block: expanded when wide */
  KIND_SHIFT,        /* the wiring blocks, resolved into links: */
  KIND_MUX,
  KIND_SELECT,
  KIND_SPREAD,
  KIND_DEMUX,
  KIND_SUM,          /* written as Weighted Sums of elements: */
  KIND_MATRIX,
  KIND_SINK,         /* a Scope or To CSV: one block, an input per element */
  KIND_SUBSYSTEM,    /* its ports as wide as what they carry */
  KIND_INPORT,
  KIND_OUTPORT,
  KIND_GOTO,         /* as wide as what it publishes */
  KIND_FROM,         /* as wide as its Goto */
  KIND_STRUCTURAL,   /* anything else that is not atomic: scalar only */
} Kind;

typedef struct
{
  guint32 src;       /* source block index + 1, or 0 */
  guint32 port;
} VDriver;

typedef struct _VSystem VSystem;

typedef struct
{
  QdBlock   *block;
  Kind       kind;
  guint      n_in;
  guint32    drivers;      /* first VDriver in VSystem.drivers */
  guint      width;        /* of every output, unless out_width */
  guint      n_out;        /* with out_width: */
  guint     *out_width;    /* a Demux's or Subsystem's, by output port */
  gboolean   fixed;        /* width set by its own parameters */
  char     **x0;           /* the x0 list, when it has several elements */
  int        shift;
  double     boundary;
  guint     *select;       /* a Selector's elements, from 0 */
  guint      n_select;     /* a sink's chosen elements (0: all) */
  guint      n_ports;      /* a sink's inputs, connected or not */
  guint      port_number;  /* an Inport's or Outport's, from 1 (0: bad) */
  double    *signs;        /* a Sum of Elements' (NULL: all +1) */
  guint      n_signs;
  QdMatrix   matrix;       /* a Matrix Gain's, entries sorted by row */
  gboolean   triplets;     /* ... read from a file of triplets */
  VSystem   *inner;        /* a Subsystem's */
  guint      peer;         /* a From's Goto: its index + 1, or 0 */
  QdBlock  **elements;     /* width of them (one for a scalar copy) */
  QdBlock   *like;         /* what its elements copy: its parameters
                              without "size" (qd_vector_copy_block) */
  QdBlock   *constant;     /* an Index Shift's nonzero boundary */
  const char *seed_param;  /* a vector of random sources: its seed
                              parameter, or NULL (find_seed()) */
  double     seed;         /* ... and its value */
} VBlock;

typedef struct
{
  GPtrArray    *problems;
  GHashTable   *zero_inputs;
  /* The model variables, evaluated in order (for "size"). */
  GPtrArray    *var_names;
  GArray       *var_values;
  guint         n_links;
  gboolean      failed;
  GString      *text;         /* element ids and names, formatted here */
} Expander;

struct _VSystem
{
  QdSystem    *system;
  VSystem     *parent;
  VBlock      *owner;      /* the Subsystem block in parent */
  VBlock      *blocks;
  guint        n;
  GArray      *drivers;    /* VDriver */
  QdSystem    *out;
  QdBlock     *zero;       /* a constant 0 in out, for ports */
  GHashTable  *links;      /* "source element/port" key -> QdLink */
  GHashTable  *first_links; /* source element -> the QdLink of its port 0 */
};


/* qd-compile-vector.c */
void       qd_vector_add_problem (Expander      *e,
                                  const QdBlock *block,
                                  const char    *format,
                                  ...) G_GNUC_PRINTF (3, 4);
gboolean   qd_vector_eval_text   (Expander      *e,
                                  const QdBlock *block,
                                  const char    *name,
                                  const char    *text,
                                  double        *value);
/* @block's "elements" ("1, 3, 5:8", from 1) from 0, *@n of them; NULL
 * after a problem. */
guint     *qd_vector_parse_elements (Expander     *e,
                                     const QdBlock *block,
                                     guint        *n);
guint      qd_vector_driver_width (VSystem      *vs,
                                   VBlock       *vb,
                                   guint         port);
/* Joins element @el of input @q of @vb to input @dst_port of @dst (or
 * notes @dst in zero_inputs when an Index Shift's zero boundary drives
 * it). */
void       qd_vector_link_element (Expander     *e,
                                   VSystem      *vs,
                                   VBlock       *vb,
                                   guint         q,
                                   guint         el,
                                   QdBlock      *dst,
                                   guint         dst_port);
void       qd_vector_connect     (Expander      *e,
                                  VSystem       *vs,
                                  QdBlock       *src,
                                  guint          src_port,
                                  QdBlock       *dst,
                                  guint          dst_port);
/* "@base[@i + 1]" in e->text (no printf: it runs for every element). */
const char *qd_vector_element_text (Expander   *e,
                                    const char *base,
                                    guint       i);
/* A copy of @vb's block for its element @i, with its parameters. */
QdBlock   *qd_vector_copy_block  (Expander      *e,
                                  VBlock        *vb,
                                  guint          i);

/* The constant block of Index Shift @shift's nonzero boundary in the
 * copy of @vs, made once. */
QdBlock   *qd_vector_boundary_constant (VSystem *vs,
                                        VBlock  *shift);
/* The block @vb as one block: its id, name and parameters without
 * "size" (a native vector block, or a scalar one). */
QdBlock   *qd_vector_copy_whole  (VBlock        *vb);

/* qd-compile-vector-native.c: whether every vector block of @vs can run
 * natively (one atomic per vector block, qd-block-fast-private.h), and
 * the copy of @vs made so into vs->out, its native blocks described in
 * @native (QdBlock* of the copy -> QdVectorNative*). */
gboolean   qd_vector_native_plan (Expander         *e,
                                  VSystem          *vs,
                                  const QdSettings *settings);
void       qd_vector_native_emit (Expander         *e,
                                  VSystem          *vs,
                                  GHashTable       *native);
/* @block's parameter texts in schema order, defaults where unset and the
 * inherited method resolved from @settings: what its type's
 * vector_accepts() reads. Free the array, not its texts. */
const char **qd_vector_native_param_texts (const QdBlock     *block,
                                           const QdBlockType *type,
                                           const QdSettings  *settings);

/* qd-compile-vector-sum.c */
void       qd_vector_classify_sum    (Expander *e,
                                      VBlock   *vb);
void       qd_vector_classify_matrix (Expander *e,
                                      VBlock   *vb);
void       qd_vector_classify_sink   (Expander *e,
                                      VBlock   *vb);
void       qd_vector_check_computed  (Expander *e,
                                      VSystem  *vs,
                                      VBlock   *vb);
/* Element @i of a Sum of Elements, Matrix Gain or sink, for the copy
 * (its inputs are joined by qd_vector_link_computed()). */
QdBlock   *qd_vector_make_computed   (Expander *e,
                                      VSystem  *vs,
                                      VBlock   *vb,
                                      guint     i);
void       qd_vector_link_computed   (Expander *e,
                                      VSystem  *vs,
                                      VBlock   *vb);

G_END_DECLS

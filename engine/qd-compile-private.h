/* qd-compile-private.h: the compiler's state, shared by its files
 *
 * qd-compile.c (the hierarchy, the flat model), qd-compile-params.c (the
 * settings, the variables, the parameters and the masks' scopes) and
 * qd-compile-loops.c (algebraic loops).
 */
#pragma once

#include "qd-simulation-private.h"

G_BEGIN_DECLS

typedef struct _Node Node;

/* What drives one input: a block and its output port. */
typedef struct
{
  guint32 src;    /* index of the source Node + 1, or 0 for nothing */
  guint32 port;
} Driver;

/* One block of the hierarchy while compiling. The Nodes are one array in
 * depth-first order, freed when compiling ends: a model of millions of
 * blocks would otherwise keep several small allocations per block (a
 * path, a drivers array, two hash entries) until then, and the memory of
 * small blocks freed late is seldom given back. A block's path is made
 * only when something needs it (a problem, the flat model's QdAtomic). */
struct _Node
{
  QdBlock           *block;
  const QdBlockType *type;     /* NULL when unknown */
  Node              *parent;   /* the subsystem holding it, NULL at the root */
  GPtrArray         *outports; /* subsystems: outport Node by port - 1 */
  int                atomic;   /* index in the flat model, or -1 */
  guint              n_in, n_out;
  guint              port_number;  /* inport/outport: the "port" value */
  guint32            drivers;  /* its first Driver in Compiler.drivers */
  guint32            n_drivers;    /* Drivers by input port: as many as the
                                      highest port a link drives, + 1 */
  guint32            n_inner;  /* Nodes after it that are inside it */
  guint8             ok;       /* type known, parameters valid */
  guint8             ports_ok; /* n_in and n_out are known (even if !ok) */
  guint8             structural;
};

typedef struct
{
  const char *id;     /* NULL when free */
  guint32     node;   /* index in Compiler.nodes */
} IdSlot;

/* A system visited, with the Node of its first block: the next block's
 * Node follows the previous one's and its n_inner. */
typedef struct
{
  QdSystem *system;
  guint32   first;
} SystemEntry;

/* An evaluated parameter text, kept so that the next block with the same
 * text (the same shared string) for the same parameter spec gets its
 * value without parsing it again: in a large generated model most blocks
 * share a few texts. Only successes are kept; a failure is evaluated for
 * each block, since its problem names the block. */
/* The key of both caches: two pointers, compared by address. */
typedef struct
{
  gconstpointer first;
  gconstpointer second;
} PairKey;

/* (the text, the parameter spec) */
typedef PairKey ParamKey;

typedef struct
{
  ParamKey      key;
  QdParamValue  value;    /* the vector is the entry's own copy */
} CachedParam;

/* A block type with a set of parameter texts (blocks that set the same
 * values share one `params` array), evaluated without a problem: the
 * next block of that type with that set takes its values, port counts
 * and check as they are, without even looking the texts up. */
/* (the block type, the shared `params` array) */
typedef PairKey SetKey;

typedef struct
{
  SetKey        key;
  guint         n_in, n_out;
  guint         port_number;
  /* The atomic blocks' shared copy of the values (qd-compile.c,
   * copy_params()), once the first of them has made it; NULL for a
   * type whose blocks cannot share theirs. */
  const QdParamValue *shared;
  QdParamValue  values[];   /* type->n_params; vectors in CachedParams */
} CachedSet;

typedef struct
{
  QdSimulation       *sim;
  const QdSettings   *settings;
  GPtrArray          *problems;   /* QdProblem*, owned */
  Node               *nodes;      /* depth-first order */
  guint               n_nodes;
  GArray             *systems;    /* SystemEntry, every system visited */
  GArray             *drivers;    /* Driver, each Node's in a run */
  /* One system's blocks by the address of their id (link endpoints
   * share the id string of their block): open addressing, the address
   * kept in the slot so that a lookup reads one slot rather than a Node
   * and its block; and by the id's text, made only when an address is
   * not found. */
  IdSlot             *id_slots;
  guint               id_mask;
  gsize               id_capacity;
  GHashTable         *id_by_text;
  guint               n_atomics;
  /* Type ids looked up, by the address of the id (blocks of one type
   * share its string): a few slots, since a model has few types. */
  const char         *type_ids[16];
  const QdBlockType  *types[16];
  GHashTable         *param_cache; /* ParamKey -> CachedParam */
  GHashTable         *set_cache;   /* SetKey -> CachedSet */
  /* The caller gave the document up: its links and atomic blocks may be
   * freed once read (qd-compile.c). */
  gboolean            drop_document;
  /* The atomic blocks' parameter sets, shared (qd-compile.c,
   * copy_params()). */
  GHashTable         *shared_params;
  gboolean           *param_ok;   /* evaluate_block(): per parameter */
  /* The vectors of the block being evaluated, until they are copied into
   * its record. */
  GPtrArray          *vectors;
  /* The chunk the next record goes into: its free space. */
  guint8             *chunk_pos;
  gsize               chunk_left;
  /* Model variables during evaluation. */
  GPtrArray          *var_names;  /* char* */
  GArray             *var_values; /* double */
  GArray             *var_ok;     /* gboolean */
  /* The settings' quanta as parameter text, formatted once rather than
   * once per integrator. */
  char               *dqmin_text;
  char               *dqrel_text;
  /* The TAG_SINK Node of each (system, tag): "first Node index/tag". */
  GHashTable         *tags;
  /* Blocks whose unconnected inputs read zero (elements of vector
   * blocks at an Index Shift's zero boundary; qd-compile-vector.c), or
   * NULL. */
  GHashTable         *zero_inputs;
  /* Native vector blocks of the copy (QdBlock* -> QdVectorNative*;
   * qd-compile-vector.h), or NULL. */
  GHashTable         *native;
  /* Masked subsystems (qd-mask.h): the names an expression of a block
   * sees, innermost mask first and the model variables last. scope_*
   * are the current block's (the variables' own arrays outside every
   * mask); scoped is TRUE inside a mask, where a text's value depends on
   * where it is, so the caches by text and by parameter set are not
   * used there. */
  GHashTable         *scopes;     /* masked subsystem Node* -> Scope* */
  GPtrArray          *scope_names;
  GArray             *scope_values;
  GArray             *scope_ok;
  guint               scope_n_mask;  /* names from masks, at the front */
  gboolean            scoped;
} Compiler;

/* The names seen inside one masked subsystem. */
typedef struct
{
  GPtrArray *names;    /* char* (borrowed from the masks and variables) */
  GArray    *values;   /* double */
  GArray    *ok;       /* gboolean */
  guint      n_mask;
} Scope;

/* More ports than a block can have. */
#define MAX_PORTS 1000000

/* Adds a problem of @node (NULL for the model's own, such as its
 * settings), its message from @format. */
void         qd_compile_add_problem      (Compiler          *c,
                                          Node              *node,
                                          QdErrorCode        code,
                                          const char        *format,
                                          ...) G_GNUC_PRINTF (4, 5);

/* qd-compile-params.c */
void         qd_compile_check_settings   (Compiler          *c);
void         qd_compile_check_classic_size (Compiler        *c);
void         qd_compile_evaluate_variables (Compiler          *c,
                                            QdDocument        *document,
                                            const char *const *overrides);
const char  *qd_compile_block_param_text (const QdBlock     *block,
                                          const char        *name);
/* The text of @block's parameter @name, or @type's default ("" when it
 * has none): qd_block_get_param_or_default() without the registry's
 * look-up (and its lock), which a million blocks would take several
 * times each. */
const char  *qd_compile_block_param_text_or_default (const QdBlock     *block,
                                                     const QdBlockType *type,
                                                     const char        *name);
/* The caches' keys (PairKey) and values (CachedParam). */
guint        qd_compile_pair_key_hash    (gconstpointer      key);
gboolean     qd_compile_pair_key_equal   (gconstpointer      a,
                                          gconstpointer      b);
void         qd_compile_cached_param_free (gpointer          data);
void         qd_compile_evaluate_block   (Compiler          *c,
                                          Node              *node,
                                          QdParamValue      *values);
void         qd_compile_enter_scope      (Compiler          *c,
                                          Node              *node);
void         qd_compile_evaluate_mask    (Compiler          *c,
                                          Node              *node);

/* qd-compile-loops.c */
void         qd_compile_find_algebraic_loops (Compiler *c,
                                              Node    **atomic_nodes);

/* qd-compile-vector-native.c (c->native: native vector blocks): the
 * input count of @node's QdAtomic, doubled for a native vector block
 * (its boundary ports); and, once every input is wired, the native
 * blocks bound to their drivers' element outputs and given their
 * vector types. */
guint        qd_compile_native_inputs    (Compiler *c,
                                          Node     *node);
void         qd_compile_native_attach    (Compiler *c,
                                          Node    **atomic_nodes);

G_END_DECLS

/* qd-compile-vector.h: vector signals, expanded into their elements
 * before compiling (private to the engine)
 */
#pragma once

#include "qd-document.h"

G_BEGIN_DECLS

/* When @document has vector signals (an Integrator with "size" above 1
 * or a list for x0, an Index Shift), a new document whose systems hold
 * one block per element of each vector block, the wiring blocks
 * resolved into links between elements; NULL when it has none, or
 * when @problems received a problem (a width mismatch, a bad size),
 * each naming the block by its path. The element inputs that an Index
 * Shift's zero boundary drives are left unconnected, and their blocks
 * go into @zero_inputs (QdBlock*): the compiler lets them read zero. */
QdDocument *qd_vector_expand (QdDocument        *document,
                              const char *const *overrides,
                              GPtrArray         *problems,
                              GHashTable        *zero_inputs,
                              GHashTable        *native);

/* One input port of a native vector block (qd-block-fast-private.h):
 * what drives it in the copy, with the Index Shift folded in. */
typedef struct
{
  QdBlock        *driver;    /* the native vector block driving it, or
                                NULL for a scalar driver */
  guint           driver_port;
  gint            shift;     /* element i reads driver element i - shift */
  gboolean        linked;    /* the expansion linked it */
  gint            element;   /* a sink's port: the one element of the
                                driver it shows; -1 otherwise */
  const QdSignal *elements;  /* the driver's element outputs, once
                                compiled */
  guint           n;
} QdVectorPort;

/* The names of a native vector's elements when it stands for a run of
 * scalar blocks of the root system (qd-compile-scalar-runs.c), so that
 * an element is named as the user drew it: element i is "@prefix" and
 * the number @first + i when the names go so ("x1", "x2", ...), or
 * @names[i]. */
typedef struct
{
  char         *prefix;
  guint64       first;
  char        **names;   /* NULL when the prefix and number say it */
  GStringChunk *chunk;   /* holds @names' texts */
} QdVectorNames;

void        qd_vector_names_free (QdVectorNames *names);

/* A native vector block: made by qd_vector_expand() when every vector
 * block of the document can run so (it then fills @native: the block
 * of the copy -> its QdVectorNative, freed with qd_vector_native_free),
 * completed by the compiler, kept by the simulation. A sink (Scope, To
 * CSV) that shows elements of a native vector has one too, of width 0:
 * each of its ports shows one element (QdVectorPort.element). */
typedef struct
{
  QdBlock      *block;       /* of the copy (while compiling) */
  guint32       atomic;      /* its index in the flat model */
  guint         width;       /* 0 for a sink */
  guint         n_in;        /* the type's own inputs */
  guint         n_out;
  QdSignal     *outputs;     /* n_out * width element outputs */
  QdVectorPort *ports;       /* the first n_in of them are the ports */
  double       *x0;          /* an x0 list's width values, or NULL */
  guint         n_ports;
  QdVectorNames *names;      /* a run of scalar blocks', or NULL */
} QdVectorNative;

void        qd_vector_native_free (gpointer data);

/* "PATH[k]" for the element of @sig (its tag, from 0) when block @i of
 * @sim is a native vector block, for an error that names the element;
 * NULL otherwise. */
char       *qd_vector_native_element_path (QdSimulation   *sim,
                                           guint           i,
                                           const QdSignal *sig);

/* When the root system of @document, which has no vector signals,
 * holds runs of scalar blocks that can run as native vector blocks
 * (qd-compile-scalar-runs.c), a new document with each run as vector
 * blocks, the rest copied; NULL otherwise. The runs' x0 lists and
 * element names go into @native, keyed by the run's vector blocks
 * there, for qd_vector_native_emit() to take; the keys also go into
 * @presets (QdBlock*), for the caller to remove what was not taken. */
typedef struct
{
  const char *sink;      /* the sink's id */
  guint       port;
  const char *vector;    /* the run's vector Integrator's id */
  guint       element;   /* from 0 */
} QdRunSinkPort;

/* ... and the ports of Scopes and To CSVs that show an element of a
 * run, left unlinked, in @sinks (QdRunSinkPort, the ids the folded
 * document's), for qd_scalar_runs_bind_sinks() to link and bind in the
 * folded document's expansion @flat. */
QdDocument *qd_scalar_runs_fold  (QdDocument        *document,
                                  GHashTable        *native,
                                  GPtrArray         *presets,
                                  GArray            *sinks);
void        qd_scalar_runs_bind_sinks (QdDocument   *flat,
                                       GHashTable   *native,
                                       GArray       *sinks);

/* Frees @flat, an expansion compiled, and gives the memory of its many
 * small blocks and links back to the system at once. */
void        qd_vector_release (QdDocument *flat);

G_END_DECLS

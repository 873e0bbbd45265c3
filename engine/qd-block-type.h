/* qd-block-type.h: the block API, the contract a block author writes against
 *
 * A block type is a constant descriptor (in the shape of GSL's
 * gsl_odeiv2_step_type): identity and documentation, ports, a parameter
 * schema, and the DEVS functions named as in the literature. The descriptor
 * is the single source for the palette, the inspector, `qdevs-cli blocks`
 * and the generated block reference.
 *
 * At compile time the engine makes one QdAtomic per block instance, with the
 * parameters evaluated, the inputs wired and the state allocated (zeroed,
 * state_size bytes, in one arena). The DEVS functions then run with no
 * allocation:
 *
 *   init    once, at the start time; may allocate with qd_atomic_alloc() and
 *           open resources (files, traces).
 *   ta      the time advance sigma of the current state (0 ≤ ta ≤ QD_INF).
 *   lambda  the output of the current state, just before dint: write the
 *           new segments into self->out[p] and return the mask of the ports
 *           that emit (bit p for port p; 0 for none).
 *   dint    the internal transition, at time t.
 *   dext    the external transition: an event @x arrived on input @port at
 *           time @t, @e after the block's last transition.
 *   exit    once, at the end of the run (flush and close files).
 *
 * Only lambda writes self->out. Receivers may read the segment driving any
 * of their inputs at any time through self->in[port]; it is the last value
 * that arrived on that port (a zero segment before the first event, or when
 * an optional input is left unconnected).
 */
#pragma once

#include <glib.h>

#include "qd-version-macros.h"
#include "qd-error.h"
#include "qd-types.h"

G_BEGIN_DECLS

typedef struct _QdBlockType   QdBlockType;
typedef struct _QdParamSpec   QdParamSpec;
typedef struct _QdPortSpec    QdPortSpec;
typedef struct _QdParamValue  QdParamValue;
typedef struct _QdAtomic      QdAtomic;
typedef struct _QdSimulation  QdSimulation;
typedef struct _QdTrace       QdTrace;
typedef struct _QdBlockFastPaths QdBlockFastPaths;

/* One state variable of a block, for display (describe_state below):
 * @name is marked with N_(); @text, when not NULL, is shown instead of
 * @value (a Server's "busy", a Queue's list of entities). */
typedef void (*QdStateFunc) (const char *name,
                             double      value,
                             const char *text,
                             gpointer    user_data);

typedef enum
{
  QD_PARAM_NUMBER,      /* an expression giving a real number */
  QD_PARAM_INTEGER,     /* an expression giving a whole number */
  QD_PARAM_BOOLEAN,     /* "true" or "false" */
  QD_PARAM_CHOICE,      /* one of QdParamSpec.choices, by name */
  QD_PARAM_STRING,      /* free text (a file name, signal names) */
  QD_PARAM_VECTOR,      /* comma-separated expressions: "1, -1, 2*k" */
  QD_PARAM_FUNCTION,    /* an expression over u0..u(n-1), t and the model
                           variables, evaluated at run time (NLFunction) */
} QdParamKind;

typedef enum
{
  QD_PARAM_FLAGS_NONE = 0,
  /* An empty value means "use the model's default" (simulation settings):
   * the integration method and the quanta. The default_value of such a
   * parameter is "" and its name matches the settings' key. */
  QD_PARAM_INHERIT    = 1 << 0,
  /* A VECTOR with one element per input port (WSum's weights): Check and
   * Run require as many elements as inputs, and when the document changes
   * the count (QdPortSpec.size_param of the inputs) the list follows in
   * the same command, cut to the first n elements or lengthened with the
   * last element of default_value, which must not be empty. */
  QD_PARAM_PER_INPUT  = 1 << 1,
  /* A FUNCTION that may also use the name y: the unknown its block
   * solves for (Implicit Function's g(u0, ..., y) = 0). */
  QD_PARAM_NAMES_Y    = 1 << 2,
  /* A STRING holding a Lua script (docs/custom-blocks.md): the editor
   * shows it in a script editor (highlighting, line numbers, a syntax
   * check as you type), and a problem of its block that says
   * "script line N: ..." opens it at that line. */
  QD_PARAM_SCRIPT     = 1 << 3,
  /* The seed of a random generator (an INTEGER from 0 to 2^32 - 1): a
   * sweep gives it a value derived from the sweep's seed and the run's
   * number (qd-sweep.h), so that every run draws its own numbers. */
  QD_PARAM_SEED       = 1 << 4,
  /* Read when the model is compiled, never by the block (an Integrator's
   * "size": a vector's elements are scalar blocks): the block's record
   * keeps no value for it, so that a million scalar blocks do not carry
   * it. Such parameters come after every parameter the block reads. */
  QD_PARAM_COMPILE_ONLY = 1 << 5,
  /* A STRING of "name = expression" items separated by semicolons whose
   * expressions its block evaluates at run time over the model variables
   * (a Lua Atomic's "values"): inside a masked subsystem the compiler
   * puts in the mask parameters they name as their values, as it does
   * for a FUNCTION. */
  QD_PARAM_ASSIGNMENTS  = 1 << 6,
} QdParamFlags;

struct _QdParamSpec
{
  const char         *name;           /* key in the file: "x0" */
  const char         *label;          /* N_("Initial state") */
  QdParamKind         kind;
  const char         *default_value;  /* text, as it would be in the file */
  double              min, max;       /* allowed range; -QD_INF/QD_INF for none */
  const char         *unit;           /* "s", "V", or NULL */
  const char         *doc;            /* N_("...") one or two sentences */
  const char *const  *choices;        /* QD_PARAM_CHOICE: NULL-terminated */
  QdParamFlags        flags;
};

struct _QdPortSpec
{
  guint        count;       /* fixed number of ports when size_param is NULL */
  const char  *size_param;  /* name of an INTEGER parameter giving the count */
  const char  *name_prefix; /* ports are named prefix0, prefix1...; "u" by default */
  const char  *doc;         /* N_("...") what the ports carry */
};

typedef enum
{
  QD_BLOCK_FLAGS_NONE = 0,
  /* The output can follow an input with no time advance (ta = 0 after
   * dext): static functions. Cycles among such blocks are algebraic loops. */
  QD_BLOCK_FEEDTHROUGH = 1 << 0,
  /* A quantized integrator: its internal transitions are the "integrator
   * steps" that statistics and benchmarks count. Under a classic ODE
   * solver (qd-classic.h) the engine advances it itself, by convention:
   * its parameter "x0" is the initial state, input 0 the derivative, and
   * an event on any other input sets the state to the event's value. */
  QD_BLOCK_INTEGRATOR  = 1 << 1,
  /* Structural: a subsystem or one of its port blocks. It has no DEVS
   * functions and disappears when the hierarchy is flattened. */
  QD_BLOCK_STRUCTURAL  = 1 << 2,
  /* An input port may be left unconnected (it then reads as zero). */
  QD_BLOCK_OPTIONAL_INPUTS = 1 << 3,
  /* A static function in the DEVS sense (with QD_BLOCK_FEEDTHROUGH): its
   * state is only "passive" or "output due now". init leaves it passive
   * (ta = QD_INF), or due now (ta = 0) when it has an output to give at
   * the start (no inputs); dext does nothing but make the output due
   * (ta = 0), dint makes it passive again, and lambda computes the
   * output from self->in alone. The event loop then keeps that phase
   * itself: the transitions still happen, in the same order, and are
   * counted, but dext and dint are not called, and ta only once after
   * init (they must still be given, for use outside the loop). A block
   * that is also QD_BLOCK_INTEGRATOR is not treated as static.
   * Zero-time cascades through such blocks are the common case of QSS
   * models; this makes each one a call of lambda. */
  QD_BLOCK_STATIC = 1 << 4,
  /* Named signals across one system (with QD_BLOCK_STRUCTURAL; Simulink's
   * Goto and From): a TAG_SINK publishes what drives its input under
   * the text of its first parameter, the tag; the output of a
   * TAG_SOURCE with the same tag in the same system is that signal. The
   * compiler joins them as it joins the links through subsystem ports:
   * they are virtual links, with no event of their own. */
  QD_BLOCK_TAG_SINK   = 1 << 5,
  QD_BLOCK_TAG_SOURCE = 1 << 6,
  /* Displayable state: the value of the block's first trace (its last
   * segment at the run's time) is shown on the block in the canvas while
   * the run goes on, in place of its glyph (Display). */
  QD_BLOCK_DISPLAY    = 1 << 7,
  /* Not a block to use: a stand-in that keeps what an importer could not
   * translate (QD_TYPE_PLACEHOLDER). The palette leaves it out, and Check
   * and Run refuse it, naming it. */
  QD_BLOCK_PLACEHOLDER = 1 << 8,
  /* A plotting sink: the editor shows its traces in a plot page of the
   * run (Scope), one page per block, updated while the run goes on.
   * When its type has the STRING or CHOICE parameters "layout"
   * (single, subplots, axes), "groups", "labels" and "time_label", the
   * plot and qdevs-cli --plot arrange its traces by them (the Scope's
   * documentation says how). */
  QD_BLOCK_PLOT       = 1 << 9,
  /* Vector wiring (with QD_BLOCK_STRUCTURAL; docs/vectors.md): the
   * output is input 0's vector shifted by the INTEGER parameter "shift"
   * k, y[i] = u[i - k]; the elements shifted in are input 1's scalar
   * signal when it is connected, else the NUMBER parameter "boundary".
   * The compiler resolves it into links between elements: no block, no
   * event of its own. */
  QD_BLOCK_INDEX_SHIFT = 1 << 10,
  /* More vector wiring, resolved the same way: a Mux's output is its
   * inputs one after the other; a Selector's the elements of input 0
   * its STRING parameter "elements" lists ("1, 3, 5:8", from 1); a
   * Scalar to Vector's input 0 repeated as many times as its INTEGER
   * parameter "size". */
  QD_BLOCK_VECTOR_MUX    = 1 << 11,
  QD_BLOCK_VECTOR_SELECT = 1 << 12,
  QD_BLOCK_VECTOR_SPREAD = 1 << 13,
  /* A Demux splits input 0's vector into its outputs, one after the
   * other: output k is as wide as the k-th entry of its STRING
   * parameter "widths", or all as wide when it is empty (the INTEGER
   * parameter "n" outputs share the input evenly). Wiring too. */
  QD_BLOCK_VECTOR_DEMUX  = 1 << 14,
  /* Computing vector blocks that the compiler expands into Weighted Sum
   * blocks (one per output element): Sum of Elements adds input 0's
   * elements, each with its sign from the STRING parameter "signs"
   * ("+-+", empty for all +); Matrix Gain outputs y = M·u, M from its
   * STRING parameter "matrix" ("[1 0; 0 2]") or, when its STRING
   * parameter "file" is not empty, a CSV file of a dense matrix or of
   * triplets i,j,value (CHOICE parameter "layout"). */
  QD_BLOCK_VECTOR_SUM    = 1 << 15,
  QD_BLOCK_VECTOR_MATRIX = 1 << 16,
} QdBlockFlags;

struct _QdParamValue
{
  double         number;    /* NUMBER, INTEGER, BOOLEAN (0 or 1), CHOICE (index) */
  const char    *text;      /* the value as written (every kind); never NULL */
  const double  *vector;    /* VECTOR: the evaluated elements */
  guint          n_vector;
};

struct _QdBlockType
{
  const char          *id;         /* stable type id in files: "integrator" */
  const char          *category;   /* N_("Continuous"), N_("Sources"), ... */
  const char          *name;       /* N_("Integrator") display name */
  const char          *glyph;      /* drawn on the block: "∫", "Σ", "K" */
  const char          *doc;        /* N_("...") documentation, a paragraph */
  QdPortSpec           inputs;
  QdPortSpec           outputs;
  const QdParamSpec   *params;
  guint                n_params;
  QdBlockFlags         flags;
  gsize                state_size;

  /* Optional: checks parameter combinations that the schema cannot express
   * (e.g. a sampling period strictly above 0, where the range allows 0).
   * @params is in schema order.
   * On failure set @error with a message that names the parameter. */
  gboolean (*check)  (const QdBlockType  *type,
                      const QdParamValue *params,
                      guint               n_inputs,
                      guint               n_outputs,
                      GError            **error);

  void     (*init)   (QdAtomic *self, double t);
  double   (*ta)     (QdAtomic *self);
  void     (*dint)   (QdAtomic *self, double t);
  void     (*dext)   (QdAtomic *self, double t, double e,
                      guint port, const QdSignal *x);
  guint64  (*lambda) (QdAtomic *self, double t);
  void     (*exit)   (QdAtomic *self, double t);

  /* Private to the built-in block library: its fused fast paths
   * (fire, dext_ta, the cascade kernels), which are not part of the
   * block API. A plugin leaves it NULL. */
  const QdBlockFastPaths *fast;

  /* Optional, for a QD_BLOCK_STATIC type: whether this instance is static
   * after all. A type whose instances mostly are, but some need a time
   * advance of their own (an NLFunction whose formula has a divisor to
   * watch for zeros), answers FALSE for those; the event loop then calls
   * all their DEVS functions. Asked once, before any block's init (the
   * parameters and the model's variables are set). */
  gboolean (*is_static) (QdAtomic *self);

  /* Optional, for a direct-feedthrough block with a discrete state (a
   * mode: a Switch, a Saturation) under a classic ODE solver
   * (qd-classic.h): writes into self->out the outputs that the current
   * mode gives for the inputs now in self->in at @t, changing nothing in
   * the state, and returns the mask of the ports written (0: the outputs
   * stay as they are). The solver's right-hand side calls it between
   * events, so that a mode changes only at the crossing the block finds
   * on the solution afterwards. Without it, the right-hand side runs the
   * block's dext (and lambda when that makes an output due) on a copy of
   * its state, which lets the mode follow the inputs inside a step. */
  guint64  (*frozen_output) (QdAtomic *self,
                             double    t);

  /* Optional: the port counts of one instance, for a type whose
   * parameters decide them in a way that size_param cannot say (the Lua
   * Atomic's script declares them in its header). @texts are the
   * parameters' texts, n_params of them in schema order, the default
   * for one not set. *@n_inputs and *@n_outputs come in as count or
   * size_param give them; the function changes those it decides.
   * Called by the document (the canvas's ports, links, pruning when a
   * parameter changes) and by Check and Run, so it must be cheap and
   * must not fail on a text it cannot read (leave the counts; Check
   * reports that text through `check`). */
  void     (*ports)   (const QdBlockType *type,
                       const char *const *texts,
                       guint             *n_inputs,
                       guint             *n_outputs);

  /* Optional, for a debugger (qd-debug.h), called only while the run is
   * paused, never by the event loop:
   *   describe_phase  the phase of the current state in a few words,
   *            marked with N_() ("waiting for ΔQ crossing"), or NULL for
   *            the engine's generic words.
   *   describe_state  calls @add for each state variable worth showing,
   *            evaluated at @t (the simulation time), changing nothing. */
  const char *(*describe_phase) (QdAtomic *self);
  void     (*describe_state) (QdAtomic   *self,
                              double      t,
                              QdStateFunc add,
                              gpointer    user_data);

  /* Optional, for the canvas: the parameters a reader wants to see on
   * the block itself (a Gain's factor, an Integrator's method). @texts
   * are the parameters' texts, n_params of them in schema order, the
   * default for one not set ("" for an inherited one left to the
   * model). Returns a new short text drawn under the block, or NULL for
   * none; when @input_labels is not NULL, may set it to a new
   * NULL-terminated array of at most @n_inputs texts drawn beside the
   * input ports (a Weighted Sum's signs). Cheap, and must not fail on
   * a text it cannot read (Check reports that). */
  char    *(*describe_params) (const QdBlockType *type,
                               const char *const *texts,
                               guint              n_inputs,
                               char            ***input_labels);
};

/* The run-time instance of a block. The engine owns it; fields are set
 * before init and constant afterwards, except what `state` points to.
 * 64 bytes, one cache line in the engine's array: a block's first reads
 * in a transition (its state, its inputs, its outputs) then never wait
 * for two lines. */
struct _QdAtomic
{
  gpointer               state;     /* state_size bytes, zeroed */
  const QdSignal *const *in;        /* n_in pointers to the driving segments */
  QdSignal              *out;       /* n_out output segments, written by lambda */
  const QdParamValue    *params;    /* evaluated, in schema order */
  const QdBlockType     *type;
  QdSimulation          *sim;
  const char            *path;      /* "/Plant/Integrator 2" */
  guint16                n_in;      /* ports: at most 64 (the port count
                                       parameters' range) */
  guint16                n_out;
  guint                  index;     /* position in the flat model = priority */
};

/* Services for the DEVS functions. */

/**
 * qd_atomic_alloc:
 * @self: the block
 * @size: bytes
 *
 * Memory for the block beyond its state_size (a buffer whose size the
 * parameters decide), zeroed, freed with the simulation. Call it from
 * init only: the DEVS functions never allocate.
 *
 * Returns: (transfer none): the memory.
 */
QD_API gpointer     qd_atomic_alloc       (QdAtomic    *self,
                                           gsize        size);
/**
 * qd_atomic_add_trace:
 * @self: the block
 * @name: the trace's name within the block ("x1")
 *
 * A trace store that the simulation exposes under "PATH/NAME", for a
 * sink to append its segments to (qd-trace.h); init only.
 *
 * Returns: (transfer none): the trace, owned by the simulation.
 */
QD_API QdTrace     *qd_atomic_add_trace   (QdAtomic    *self,
                                           const char  *name);
/**
 * qd_atomic_get_shared:
 * @self: the block
 * @key: names the resource ("lua")
 * @create: makes the resource for @self's simulation; may return %NULL
 *   (nothing is kept, and the next call tries again)
 * @destroy: frees it
 *
 * A resource the blocks of one simulation share, such as the one
 * interpreter all its script blocks run in: @create makes it at the first
 * call with @key, on the thread that runs init; the simulation frees it
 * with @destroy when it is freed, after every block's exit. Call it from
 * init on.
 *
 * Returns: (transfer none) (nullable): the resource.
 */
QD_API gpointer     qd_atomic_get_shared  (QdAtomic       *self,
                                           const char     *key,
                                           gpointer      (*create) (QdAtomic *self),
                                           GDestroyNotify  destroy);
/**
 * qd_atomic_fail:
 * @self: the block
 * @code: a #QdErrorCode (%QD_ERROR_FAILED for no better one)
 * @format: printf() format of the message
 * @...: its arguments
 *
 * Stops the run with the error "PATH: message": the current transition
 * completes first, then the run returns %QD_RUN_ERROR. Say what is wrong
 * and what to do, without the block's path (it is added).
 */
QD_API void         qd_atomic_fail        (QdAtomic    *self,
                                           QdErrorCode  code,
                                           const char  *format,
                                           ...) G_GNUC_PRINTF (3, 4);
/**
 * qd_atomic_get_start_time:
 * @self: the block
 *
 * Returns: the start time of the run.
 */
QD_API double       qd_atomic_get_start_time (QdAtomic *self);
/**
 * qd_atomic_get_final_time:
 * @self: the block
 *
 * Returns: the final time of the run.
 */
QD_API double       qd_atomic_get_final_time (QdAtomic *self);
/* The integrators (QD_BLOCK_INTEGRATOR) coupled with this one: each
 * reaches this block's input 0 from its output, and this block's output
 * reaches its input 0, through links and QD_BLOCK_FEEDTHROUGH blocks
 * only, so that a change of either output changes the other's
 * derivative in the same zero-time cascade. For methods that work on
 * pairs of states (mLIQSS); @n receives the count. The array lives as
 * long as the simulation; from init on. Built at the first call, for
 * the whole model. An integrator whose output reaches more than 64
 * others this way has none. */
QD_API QdAtomic *const *qd_atomic_get_coupled (const QdAtomic *self,
                                               guint          *n);

/**
 * qd_block_type_find_param:
 * @type: a descriptor
 * @name: a parameter's name
 *
 * Returns: the index of the parameter @name in @type's schema (the index
 *   into QdAtomic.params), or -1.
 */
QD_API int          qd_block_type_find_param (const QdBlockType *type,
                                              const char        *name);
/**
 * qd_param_spec_check_per_input:
 * @spec: a %QD_PARAM_PER_INPUT parameter
 * @n_values: its number of elements
 * @n_inputs: the block's number of inputs
 * @error: return location for an error
 *
 * For a block's check function: whether @n_values is @n_inputs;
 * otherwise @error says so, naming the parameter (not the block), in the
 * words of Check and Run.
 *
 * Returns: %TRUE when they agree.
 */
QD_API gboolean     qd_param_spec_check_per_input (const QdParamSpec *spec,
                                                   guint              n_values,
                                                   guint              n_inputs,
                                                   GError           **error);

G_END_DECLS

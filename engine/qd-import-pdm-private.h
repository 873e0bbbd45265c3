/* qd-import-pdm-private.h: what the parts of the .pdm importer share
 *
 * qd-import-pdm-parse.c reads the file into a tree of sections,
 * qd-import-pdm.c builds the document from it, qd-import-pdm-params.c
 * sets each block's parameters, and qd-import-pdm-table.c holds the
 * block mapping table and the translation of Scilab expressions.
 */
#pragma once

#include <glib.h>

#include "qd-diagram.h"

G_BEGIN_DECLS

/* The file as read (qd-import-pdm-parse.c). */
typedef struct
{
  char  *key;
  char  *value;
  guint  line;
} Field;

typedef struct _Section Section;
struct _Section
{
  char      *kind;      /* "Coupled", "Atomic"...; "" for the file itself */
  guint      line;
  GPtrArray *fields;    /* Field*, in file order */
  GPtrArray *children;  /* Section*, in file order */
};

void        qd_pdm_section_free (Section       *section);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (Section, qd_pdm_section_free)

/* The tree of @data under a nameless top section, or NULL with a
 * QD_ERROR_SYNTAX "FILE:LINE:COLUMN: message" in @error. */
Section    *qd_pdm_parse        (const char    *data,
                                 gsize          length,
                                 const char    *file,
                                 GError       **error);
/* The value of the first field @key, or NULL. */
const char *qd_pdm_get_field    (const Section *section,
                                 const char    *key);
/* The first child section of @kind, or NULL. */
Section    *qd_pdm_get_child    (const Section *section,
                                 const char    *kind);
/* The parts of "a ; b ; c", trimmed; "\;" stands for ';'. */
char      **qd_pdm_split        (const char    *value);
gboolean    qd_pdm_parse_int    (const char    *text,
                                 gint64        *value);
/* "x ; y" as two finite numbers (one number: both). */
gboolean    qd_pdm_parse_pair   (const char    *value,
                                 double        *a,
                                 double        *b);

/* How one PowerDEVS parameter (by its position) becomes QDevs text. */
typedef enum
{
  QD_PDM_END = 0,     /* end of the list */
  QD_PDM_EXPR,        /* a Scilab expression: translated */
  QD_PDM_FUNCTION,    /* an expression in u0..u9: translated */
  QD_PDM_METHOD,      /* PowerDEVS's integration method list */
  QD_PDM_COUNT,       /* a port count (%Inputs): the block's inputs */
  QD_PDM_ELEMENT,     /* one element of a vector (WSum's K[i]) */
  QD_PDM_WIDTH_END,   /* an end time: "(value) - (the previous one)" */
  QD_PDM_OVER_PREVIOUS, /* a rate: "(value)/(the previous one)" */
  QD_PDM_HALF,        /* a wave from 0 to the value: "(value)/2" as the
                       * amplitude and as the "offset" */
  QD_PDM_YESNO,       /* a Lst whose items say yes or no: true or false */
  QD_PDM_TEXT,        /* kept as written (a file name) */
  QD_PDM_IGNORED,     /* PowerDEVS itself does not use it: dropped */
  QD_PDM_DROPPED,     /* no counterpart: dropped, reported */
  /* The vector library */
  QD_PDM_INDEX,       /* an element numbered from 0: "i + 1"; without a
                       * name, the start of the range QD_PDM_RANGE_END ends */
  QD_PDM_RANGE_END,   /* the last element of a range from 0: "a:b" */
  QD_PDM_LIST,        /* a Scilab row or column vector: "a, b, c" */
  QD_PDM_MATRIX,      /* a Scilab matrix: "[a, b; c, d]" */
  QD_PDM_SIZE,        /* a vector's width, checked and remembered for
                       * the Scalar to Vector it drives; set when named */
  QD_PDM_SPREAD,      /* scalar2vec's Index: -1 broadcasts, i places the
                       * input at element i + 1 of a vector of zeros */
  QD_PDM_REPEAT,      /* a gain repeated over the row of a Matrix Gain
                       * as wide as the block's Size */
} QdPdmParamKind;

typedef struct
{
  QdPdmParamKind  kind;
  const char     *name;   /* the QDevs parameter */
} QdPdmParamMap;

#define QD_PDM_MAX_PARAMS 12

typedef struct
{
  const char   *path;     /* PowerDEVS's atomic, "qss/qss_integrator.h" */
  const char   *type;     /* QDevs type, NULL: a placeholder */
  const char   *note;     /* the report line when not exact, or NULL */
  /* Extra QDevs parameters set as written ("direction", "both"). */
  const char   *fixed[4];
  /* Input k of PowerDEVS (0-based) is QDevs input in_map[k] - 1; 0 for
   * the identity. */
  guint8        in_map[4];
  QdPdmParamMap params[QD_PDM_MAX_PARAMS];
} QdPdmBlockMap;

/* The entries for @path ("\" read as "/"), in order of preference; the
 * importer takes the first whose type is registered. NULL when PowerDEVS's
 * block is unknown. Sets @n. */
const QdPdmBlockMap *qd_pdm_lookup (const char *path,
                                    guint      *n);

/* Name lookup for %name and plain names: returns the QDevs variable for
 * a name, or NULL when the name is not known. */
typedef const char *(*QdPdmResolve) (const char *name,
                                     gboolean    percent,
                                     gpointer    user_data);

/* Translates a Scilab vector ("[1 2 3]", "[1;2]", a single value) into a
 * QDevs list "1, 2, 3", or with @matrix a Scilab matrix into QDevs's
 * matrix text "[1, 2; 3, 4]", each element as qd_pdm_translate_expr()
 * does. NULL with @why when it cannot. */
char *qd_pdm_translate_array (const char   *scilab,
                              gboolean      matrix,
                              QdPdmResolve  resolve,
                              gpointer      user_data,
                              char        **unknown,
                              char        **why);

/* Translates a Scilab expression. Returns NULL and sets @why when it
 * cannot (a Scilab function, a matrix, a string); @unknown receives the
 * first plain name that @resolve does not know (translated as is). */
char *qd_pdm_translate_expr (const char   *scilab,
                             gboolean      function,
                             QdPdmResolve  resolve,
                             gpointer      user_data,
                             char        **unknown,
                             char        **why);

/* The QDevs integration method for PowerDEVS's method name, and whether
 * it is the same method. */
const char *qd_pdm_method (const char *powerdevs,
                           gboolean   *exact);

/* The importer's state, shared by qd-import-pdm.c and
 * qd-import-pdm-params.c. */
typedef struct
{
  const Section *coupled;
  const char    *name;      /* the parameter, as %name names it */
  char          *variable;  /* the model variable it became */
} ScopeVar;

typedef struct
{
  const char *file;
  GPtrArray  *report;       /* QdProblem*, may be NULL */
  GPtrArray  *scopes;       /* const Section*: the enclosing Coupleds */
  GArray     *scope_vars;   /* ScopeVar */
  GPtrArray  *var_names;    /* char*, in order */
  GPtrArray  *var_values;   /* char* */
  GHashTable *scilab_partial; /* Scilab Command Sections not all translated */
  GHashTable *widths;       /* QdBlock* -> its PowerDEVS Size, translated */
  GPtrArray  *spreads;      /* QdPdmSpread*: scalar2vec blocks to size */
  guint       next_block;
  guint       next_link;
} Importer;

/* A parameter line: Name = Type; value; description. */
typedef struct
{
  const char *name;
  char       *type;
  char       *value;        /* for a Lst, the selected item */
} PdmParam;

/* A scalar2vec block, sized once the nets show what it drives. */
typedef struct
{
  QdBlock *block;
  char    *path;
  gint64   index;           /* PowerDEVS's, from 0; -1 broadcasts */
} QdPdmSpread;

void        qd_pdm_spread_free  (gpointer       spread);

void        qd_pdm_report       (Importer      *imp,
                                 const char    *path,
                                 const char    *block_id,
                                 const char    *format,
                                 ...) G_GNUC_PRINTF (4, 5);
const char *qd_pdm_resolve_name (const char    *name,
                                 gboolean       percent,
                                 gpointer       user_data);
/* What a parameter's Scilab text is read as. */
typedef enum
{
  QD_PDM_AS_EXPR,       /* an expression */
  QD_PDM_AS_FUNCTION,   /* an expression in u0..u9 and t */
  QD_PDM_AS_LIST,       /* a vector, or one value */
  QD_PDM_AS_MATRIX,     /* a matrix */
} QdPdmSyntax;

/* Translates @text read as @syntax, reporting against @path what is not
 * exact. Returns the QDevs text, or NULL when it cannot be translated. */
char       *qd_pdm_translate    (Importer      *imp,
                                 const char    *path,
                                 const char    *block_id,
                                 const char    *param,
                                 const char    *text,
                                 QdPdmSyntax    syntax);

/* qd-import-pdm-params.c: the parameters of the block for one Atomic. */
void        qd_pdm_set_param    (Importer      *imp,
                                 QdBlock       *block,
                                 const char    *path,
                                 const char    *name,
                                 const char    *value);
/* The entry of @maps (@n of them) that @params choose: scalar2vec's and
 * the Vector Sum's first parameter picks one of two. */
const QdPdmBlockMap *qd_pdm_choose_map (const QdPdmBlockMap *maps,
                                        guint                n,
                                        GArray              *params);
void        qd_pdm_build_params (Importer            *imp,
                                 QdBlock             *block,
                                 const char          *path,
                                 const QdPdmBlockMap *map,
                                 GArray              *params,
                                 guint                n_in);
/* Sizes the scalar2vec blocks of @system from the Size of the blocks
 * they drive, once its links are built. */
void        qd_pdm_size_spreads (Importer      *imp,
                                 QdSystem      *system);

G_END_DECLS

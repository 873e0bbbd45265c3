/* qd-import-pdm-private.h: what the parts of the .pdm importer share
 *
 * qd-import-pdm-parse.c reads the file into a tree of sections,
 * qd-import-pdm.c builds the document from it, and qd-import-pdm-table.c
 * holds the block mapping table and the translation of Scilab
 * expressions.
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

G_END_DECLS

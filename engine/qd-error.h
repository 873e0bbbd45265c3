/* qd-error.h: the error domain of libqdevs, and problem lists
 *
 * Every error a user can see starts with where it is: the file (and
 * line:column for a syntax error) or the block path ("/Plant/Integrator 2"),
 * then says what is wrong and what to do.
 */
#pragma once

#include <glib.h>

#include "qd-version-macros.h"

G_BEGIN_DECLS

#define QD_ERROR (qd_error_quark ())

typedef enum
{
  QD_ERROR_FAILED,          /* anything not listed below */
  QD_ERROR_IO,              /* a file cannot be read or written */
  QD_ERROR_SYNTAX,          /* JSON or expression syntax */
  QD_ERROR_FORMAT,          /* valid JSON, but not a .qdevs document */
  QD_ERROR_VERSION,         /* unsupported format version */
  QD_ERROR_UNKNOWN_TYPE,    /* block type not in the registry */
  QD_ERROR_PARAM,           /* unknown, ill-typed or out-of-range parameter */
  QD_ERROR_EXPR,            /* expression error (unknown name, bad call) */
  QD_ERROR_LINK,            /* link to a missing block or port, input driven twice */
  QD_ERROR_DUPLICATE,       /* duplicate id or name */
  QD_ERROR_UNCONNECTED,     /* an input that nothing drives */
  QD_ERROR_ALGEBRAIC_LOOP,  /* a cycle among direct-feedthrough blocks */
  QD_ERROR_ILLEGITIMATE,    /* too many transitions without time advancing */
  QD_ERROR_NUMERIC,         /* NaN or infinity produced by a block */
  QD_ERROR_INVALID,         /* an edit that makes no sense (bad argument) */
  QD_ERROR_STOPPED,         /* a run stopped on request */
  QD_ERROR_SCRIPT,          /* a block script's error: syntax, header, run time */
} QdErrorCode;

QD_API GQuark qd_error_quark (void);

/* One problem found by a check: where, and what. A compile collects all of
 * them rather than stopping at the first, so `qdevs-cli check` and the
 * editor's messages panel can list each. */
typedef struct _QdProblem QdProblem;

struct _QdProblem
{
  QdErrorCode code;
  char       *path;      /* block path ("/Plant/Gain 1"), or "" for the model */
  char       *block_id;  /* stable id of the block, NULL for the model */
  char       *message;   /* what is wrong and what to do, without the path */
};

QD_API QdProblem *qd_problem_new  (QdErrorCode  code,
                                   const char  *path,
                                   const char  *block_id,
                                   const char  *format,
                                   ...) G_GNUC_PRINTF (4, 5);
QD_API void       qd_problem_free (QdProblem   *problem);
/* "path: message" (or just the message for the model). */
QD_API char      *qd_problem_to_string (const QdProblem *problem);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (QdProblem, qd_problem_free)

G_END_DECLS

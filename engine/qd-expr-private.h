/* qd-expr-private.h: what the files of the expressions share
 *
 *   qd-expr.c         the expression: binding, scalar evaluation (a stack
 *                     machine on doubles), vector splitting, messages
 *   qd-expr-parse.c   the parser, from text to postfix code
 *   qd-expr-taylor.c  the Taylor program compiled from that code, and the
 *                     domains and singularities it watches
 */
#pragma once

#include "qd-expr.h"
#include "qd-taylor.h"

G_BEGIN_DECLS

typedef enum
{
  OP_CONST,
  OP_LOAD,
  OP_NEG,
  OP_ADD,
  OP_SUB,
  OP_MUL,
  OP_DIV,
  OP_POW,
  OP_POWI,   /* ^ a small whole constant, kept in value */
  OP_SQRT,
  OP_EXP,
  OP_LOG,
  OP_LOG10,
  OP_SIN,
  OP_COS,
  OP_TAN,
  OP_ASIN,
  OP_ACOS,
  OP_ATAN,
  OP_ATAN2,
  OP_SINH,
  OP_COSH,
  OP_TANH,
  OP_ABS,
  OP_SIGN,
  OP_MIN,
  OP_MAX,
  OP_FLOOR,
  OP_CEIL,
} QdOp;

typedef struct
{
  guint32 op;
  guint32 arg;     /* OP_LOAD: slot after binding */
  guint32 ident;   /* OP_LOAD: index into the identifier list */
  double  value;   /* OP_CONST: the constant; OP_POWI: the exponent */
} QdInstr;
/* Where an operand of the Taylor program is while it is compiled: an
 * input slot, a constant or a register. */
enum
{
  T_SLOT,
  T_CONST,
  T_REG,
};

typedef enum
{
  T_ADD,      /* a + b */
  T_SUB,      /* a - b */
  T_NEG,      /* -a */
  T_MUL,      /* a b, both series */
  T_SCALE,    /* k a: a series times a constant */
  T_ADDC,     /* a + k */
  T_SUBC,     /* a - k */
  T_CSUB,     /* k - a */
  T_GENERIC,  /* anything else, through the qd_taylor_* functions */
  T_WATCHED,  /* T_GENERIC with a domain to watch (QdTWatch) */
  T_END,      /* the last instruction: spares a counter */
} QdTOp;

/* An operation that can leave its domain (a division, log, sqrt, a
 * power, exp), as the Taylor program last ran it: the operand whose
 * domain matters, copied before the operation (its register may take the
 * result), and whether the result was finite. */
typedef struct
{
  QdTaylor      at;      /* the operand; 0 above the evaluation's order */
  guint8        domain;  /* QdExprDomain */
  guint8        use_b;   /* the operand is b (the divisor), not a */
  guint8        zero;    /* its zeros matter: it is not a constant, and
                            the operation is singular at 0 */
  guint8        bad;     /* the result was not finite */
  guint8        whole;   /* a power's exponent is a whole constant */
} QdTWatch;

/* An instruction of the Taylor program. The operands are pointers into
 * the expression's own slots, constants and registers, all allocated
 * before the program runs, so that an instruction finds them without
 * looking anything up. */
typedef struct
{
  guint8          op;    /* QdTOp */
  guint8          gen;   /* T_GENERIC: the QdOp */
  const QdTaylor *a;
  const QdTaylor *b;
  QdTaylor       *r;
  double          k;     /* the constant of T_SCALE, T_ADDC, T_SUBC,
                            T_CSUB; the exponent of a generic OP_POWI */
  QdTWatch       *w;     /* T_WATCHED */
} QdTInstr;
struct _QdExpr
{
  char      *text;
  QdInstr   *code;
  guint      n_code;
  char     **idents;       /* NULL-terminated */
  int       *ident_cols;   /* column of the first appearance */
  guint      n_idents;
  guint      max_depth;
  gboolean   bound;
  gboolean   literal;

  /* Slots declared constant for the Taylor program, n_slots of them (the
   * names given to qd_expr_bind). */
  guint      n_slots;
  gboolean  *slot_fixed;
  double    *slot_value;

  /* The Taylor program, compiled on first use after a change. */
  QdTaylor  *tslots;       /* n_slots input series, from qd_expr_bind */
  gboolean   tprog_ready;
  QdTInstr  *tprog;
  guint      n_tprog;
  QdTaylor  *tconst;       /* constant operands */
  QdTaylor  *tregs;        /* registers: the results of operations */
  const QdTaylor *tresult; /* where the result is */
  QdTWatch  *twatch;       /* the T_WATCHED operations, in program order */
  guint      n_twatch;
  int        torder;       /* the order of the last evaluation */
};

/* qd-expr.c */
int    qd_expr_op_arity (QdOp op);
double qd_expr_apply_scalar (QdOp   op,
                             double a,
                             double b);

G_END_DECLS

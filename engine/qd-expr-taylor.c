/* qd-expr-taylor.c: Taylor evaluation of expressions, and their domains
 *
 * Taylor evaluation runs a second, register-based program compiled from
 * the postfix code on first use: operands are read where they are (a
 * slot, a constant, a register), only the coefficients up to the order
 * asked for are computed, constant operands (literals and the slots
 * declared constant with qd_expr_set_slot_constant()) are folded or turn
 * an operation into a cheaper one, and the common operations are done
 * inline. Each inline operation gives the same bits as the qd_taylor_*
 * function it replaces (see taylor_exec()).
 *
 * The operations that can leave their domain (a division, log, sqrt, a
 * power) are watched as the program runs, which gives the domain errors
 * and the singularities a solver must step to.
 */
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "qd-error.h"
#include "qd-expr-private.h"
#include "qd-poly.h"

/* ---- Taylor program --------------------------------------------------- */

/* One operation of the postfix code on series, through the qd_taylor_*
 * functions: what the Taylor program does for the operations it does not
 * do inline, and how it folds constants. */
static void
taylor_apply (QdOp            op,
              double          value,
              QdTaylor       *r,
              const QdTaylor *a,
              const QdTaylor *b,
              int             n)
{
  switch (op)
    {
    case OP_NEG: qd_taylor_neg (r, a, n); break;
    case OP_ADD: qd_taylor_add (r, a, b, n); break;
    case OP_SUB: qd_taylor_sub (r, a, b, n); break;
    case OP_MUL: qd_taylor_mul (r, a, b, n); break;
    case OP_DIV: qd_taylor_div (r, a, b, n); break;
    case OP_POW: qd_taylor_pow (r, a, b, n); break;
    case OP_POWI: qd_taylor_pow_const (r, a, value, n); break;
    case OP_ATAN2: qd_taylor_atan2 (r, a, b, n); break;
    case OP_MIN: qd_taylor_min (r, a, b, n); break;
    case OP_MAX: qd_taylor_max (r, a, b, n); break;
    case OP_SQRT: qd_taylor_sqrt (r, a, n); break;
    case OP_EXP: qd_taylor_exp (r, a, n); break;
    case OP_LOG: qd_taylor_log (r, a, n); break;
    case OP_LOG10: qd_taylor_log10 (r, a, n); break;
    case OP_SIN: qd_taylor_sin (r, a, n); break;
    case OP_COS: qd_taylor_cos (r, a, n); break;
    case OP_TAN: qd_taylor_tan (r, a, n); break;
    case OP_ASIN: qd_taylor_asin (r, a, n); break;
    case OP_ACOS: qd_taylor_acos (r, a, n); break;
    case OP_ATAN: qd_taylor_atan (r, a, n); break;
    case OP_SINH: qd_taylor_sinh (r, a, n); break;
    case OP_COSH: qd_taylor_cosh (r, a, n); break;
    case OP_TANH: qd_taylor_tanh (r, a, n); break;
    case OP_ABS: qd_taylor_abs (r, a, n); break;
    case OP_SIGN: qd_taylor_sign (r, a, n); break;
    case OP_FLOOR: qd_taylor_floor (r, a, n); break;
    case OP_CEIL: qd_taylor_ceil (r, a, n); break;
    case OP_CONST:
    case OP_LOAD:
    default:
      g_assert_not_reached ();
    }
}

typedef struct
{
  guint8  kind;
  guint32 index;
} QdTOperand;

/* An instruction before its operands are resolved to pointers (the
 * constants move while they are appended). */
typedef struct
{
  QdTOp      op;
  QdOp       gen;
  QdTOperand a, b;
  guint32    dst;
  double     k;
  int        watch;     /* T_WATCHED: index into QdTCompiler.watches */
} QdTPending;

typedef struct
{
  GArray     *prog;     /* QdTPending */
  GArray     *consts;   /* QdTaylor */
  GArray     *watches;  /* QdTWatch */
  QdTOperand *stack;
} QdTCompiler;

/* A constant whose higher coefficients are all +0, as a literal's are:
 * only such a constant may turn an operation into T_SCALE, T_ADDC, T_SUBC
 * or T_CSUB, whose bits rest on those zeros (a -0 would change the sign
 * of a zero result), or be folded with another. */
static gboolean
is_plain_constant (const QdTaylor *c)
{
  for (int k = 1; k <= QD_MAX_ORDER; k++)
    if (c->c[k] != 0.0 || signbit (c->c[k]))
      return FALSE;
  return TRUE;
}

static QdTOperand
add_constant (QdTCompiler    *C,
              const QdTaylor *value)
{
  QdTOperand o = { T_CONST, C->consts->len };

  g_array_append_vals (C->consts, value, 1);
  return o;
}

static const QdTaylor *
constant_of (QdTCompiler *C,
             QdTOperand   o)
{
  return o.kind == T_CONST ? &g_array_index (C->consts, QdTaylor, o.index) : NULL;
}

static void
emit_t (QdTCompiler *C,
        QdTOp        op,
        guint32      dst,
        QdTOperand   a,
        QdTOperand   b,
        double       k,
        QdOp         gen)
{
  QdTPending in = { op, gen, a, b, dst, k, -1 };

  g_array_append_val (C->prog, in);
}

/* Whether the operation @op (on @a and @b, with @value for OP_POWI) can
 * leave its domain; if so, appends its QdTWatch to C->watches. Its zeros
 * matter where the function is singular at 0: a divisor, the argument
 * of log, log10 and sqrt, the base of a power other than a whole
 * constant of 0 or more. Exp only overflows. */
static gboolean
watch_operation (QdTCompiler *C,
                 QdOp         op,
                 double       value,
                 QdTOperand   a,
                 QdTOperand   b)
{
  const QdTaylor *ca = constant_of (C, a), *cb = constant_of (C, b);
  QdTWatch w = { { { 0 } }, QD_EXPR_DOMAIN_NONE, FALSE, FALSE, FALSE, FALSE };
  gboolean singular = TRUE;

  switch (op)
    {
    case OP_DIV:
      /* 1/u says what the Inverse block says. */
      w.domain = ca != NULL && is_plain_constant (ca) && ca->c[0] == 1.0
                 ? QD_EXPR_DOMAIN_INVERSE : QD_EXPR_DOMAIN_DIVISOR;
      w.use_b = TRUE;
      break;
    case OP_LOG:
    case OP_LOG10:
      w.domain = QD_EXPR_DOMAIN_LOG;
      break;
    case OP_SQRT:
      w.domain = QD_EXPR_DOMAIN_SQRT;
      break;
    case OP_POWI:
      w.domain = QD_EXPR_DOMAIN_POW;
      w.whole = TRUE;
      /* u^0 is 1, even at 0. */
      singular = value < 0.0;
      break;
    case OP_POW:
      w.domain = QD_EXPR_DOMAIN_POW;
      w.whole = cb != NULL && is_plain_constant (cb)
                && cb->c[0] == floor (cb->c[0]);
      singular = !(w.whole && cb->c[0] >= 0.0);
      break;
    case OP_EXP:
      w.domain = QD_EXPR_DOMAIN_EXP_OVERFLOW;
      singular = FALSE;
      break;
    default:
      return FALSE;
    }
  w.zero = singular && (w.use_b ? b : a).kind != T_CONST;
  g_array_append_val (C->watches, w);
  return TRUE;
}

/* Compiles the operation @ins whose operands are at stack positions @p
 * (and @p + 1 for a binary one); the result goes to register @p, and
 * register @p + 1 may serve as a temporary. */
static QdTOperand
compile_op (QdTCompiler   *C,
            const QdInstr *ins,
            guint          p)
{
  QdOp op = ins->op;
  int arity = qd_expr_op_arity (op);
  QdTOperand a = C->stack[p];
  QdTOperand b = arity == 2 ? C->stack[p + 1] : a;
  QdTOperand r = { T_REG, p }, tmp = { T_REG, p + 1 };
  const QdTaylor *ca = constant_of (C, a), *cb = constant_of (C, b);
  gboolean pa = ca != NULL && is_plain_constant (ca);
  gboolean pb = cb != NULL && is_plain_constant (cb);

  /* All operands plain constants: fold, with the same function at full
   * order. For such operands every coefficient up to n depends only on
   * the lower ones and no branch depends on n, so truncating the folded
   * series later gives what evaluating at order n would. */
  if (pa && (arity == 1 || pb))
    {
      QdTaylor v;

      taylor_apply (op, ins->value, &v, ca, cb, QD_MAX_ORDER);
      return add_constant (C, &v);
    }

  switch (op)
    {
    case OP_NEG:
      emit_t (C, T_NEG, p, a, a, 0.0, op);
      return r;
    case OP_ADD:
      if (pa || pb)
        emit_t (C, T_ADDC, p, pa ? b : a, pa ? b : a,
                pa ? ca->c[0] : cb->c[0], op);
      else
        emit_t (C, T_ADD, p, a, b, 0.0, op);
      return r;
    case OP_SUB:
      if (pb)
        emit_t (C, T_SUBC, p, a, a, cb->c[0], op);
      else if (pa)
        emit_t (C, T_CSUB, p, b, b, ca->c[0], op);
      else
        emit_t (C, T_SUB, p, a, b, 0.0, op);
      return r;
    case OP_MUL:
      if (pa || pb)
        emit_t (C, T_SCALE, p, pa ? b : a, pa ? b : a,
                pa ? ca->c[0] : cb->c[0], op);
      else
        emit_t (C, T_MUL, p, a, b, 0.0, op);
      return r;
    case OP_POWI:
      /* The products qd_taylor_pow_const's binary powering forms, with
       * its first product by the series 1 left out: a Cauchy product's
       * bits do not depend on the signs of zeros in its operands. */
      if (ins->value == 2.0)
        {
          emit_t (C, T_MUL, p, a, a, 0.0, op);
          return r;
        }
      if (ins->value == 3.0)
        {
          emit_t (C, T_MUL, p + 1, a, a, 0.0, op);
          emit_t (C, T_MUL, p, a, tmp, 0.0, op);
          return r;
        }
      if (ins->value == 4.0)
        {
          emit_t (C, T_MUL, p + 1, a, a, 0.0, op);
          emit_t (C, T_MUL, p, tmp, tmp, 0.0, op);
          return r;
        }
      break;
    default:
      break;
    }
  if (watch_operation (C, op, ins->value, a, b))
    {
      emit_t (C, T_WATCHED, p, a, b, ins->value, op);
      g_array_index (C->prog, QdTPending, C->prog->len - 1).watch =
        C->watches->len - 1;
      return r;
    }
  emit_t (C, T_GENERIC, p, a, b, ins->value, op);
  return r;
}

static const QdTaylor *
operand_pointer (QdExpr     *expr,
                 QdTOperand  o)
{
  switch (o.kind)
    {
    case T_SLOT: return &expr->tslots[o.index];
    case T_CONST: return &expr->tconst[o.index];
    default: return &expr->tregs[o.index];
    }
}

/* Turns the postfix code into the Taylor program. The operand stack holds
 * references instead of series; operations whose operands are all plain
 * constants are folded at full order. Out of line: inlined, it made every
 * evaluation save more registers. */
static G_NO_INLINE void
taylor_compile (QdExpr *expr)
{
  QdTCompiler C;
  guint sp = 0;

  C.prog = g_array_new (FALSE, FALSE, sizeof (QdTPending));
  C.consts = g_array_new (FALSE, FALSE, sizeof (QdTaylor));
  C.watches = g_array_new (FALSE, FALSE, sizeof (QdTWatch));
  C.stack = g_new0 (QdTOperand, expr->max_depth + 1);

  for (guint k = 0; k < expr->n_code; k++)
    {
      const QdInstr *ins = &expr->code[k];
      QdTaylor v;

      switch ((QdOp) ins->op)
        {
        case OP_CONST:
          qd_taylor_constant (&v, ins->value);
          C.stack[sp++] = add_constant (&C, &v);
          break;
        case OP_LOAD:
          if (expr->slot_fixed[ins->arg])
            {
              qd_taylor_constant (&v, expr->slot_value[ins->arg]);
              C.stack[sp++] = add_constant (&C, &v);
            }
          else
            C.stack[sp++] = (QdTOperand) { T_SLOT, ins->arg };
          break;
        default:
          sp -= qd_expr_op_arity (ins->op);
          C.stack[sp] = compile_op (&C, ins, sp);
          sp++;
          break;
        }
    }

  g_free (expr->tprog);
  g_free (expr->tconst);
  g_free (expr->tregs);
  g_free (expr->twatch);
  expr->n_twatch = C.watches->len;
  expr->twatch = (QdTWatch *) g_array_free (C.watches, FALSE);
  expr->tconst = (QdTaylor *) g_array_free (C.consts, FALSE);
  /* Registers 0..max_depth: the stack positions and one temporary. */
  expr->tregs = g_new0 (QdTaylor, expr->max_depth + 1);
  expr->n_tprog = C.prog->len;
  expr->tprog = g_new0 (QdTInstr, C.prog->len + 1);
  expr->tprog[C.prog->len].op = T_END;
  for (guint i = 0; i < C.prog->len; i++)
    {
      const QdTPending *pi = &g_array_index (C.prog, QdTPending, i);
      QdTInstr *in = &expr->tprog[i];

      in->op = pi->op;
      in->gen = pi->gen;
      in->a = operand_pointer (expr, pi->a);
      in->b = operand_pointer (expr, pi->b);
      in->r = &expr->tregs[pi->dst];
      in->k = pi->k;
      in->w = pi->watch >= 0 ? &expr->twatch[pi->watch] : NULL;
    }
  expr->tresult = operand_pointer (expr, C.stack[0]);
  expr->tprog_ready = TRUE;
  g_array_unref (C.prog);
  g_free (C.stack);
}

/* Runs the Taylor program at order n. The inline operations reproduce the
 * qd_taylor_* function each replaces bit for bit, for finite inputs:
 *  - T_MUL is qd_taylor_mul's Cauchy product, summed in the same order
 *    from 0.0;
 *  - T_SCALE is qd_taylor_mul by a plain constant k: its other terms are
 *    zeros, and a sum from 0.0 of zeros and one term x is x + 0.0 (the
 *    0.0 turns a -0 into +0, as the sum did);
 *  - T_ADDC, T_SUBC and T_CSUB are qd_taylor_add and qd_taylor_sub with a
 *    plain constant, whose higher coefficients are +0.
 * (An infinite or NaN coefficient below k made the zero terms NaN in the
 * full product; T_SCALE does not see them.) Only coefficients 0..n are
 * read or written, so operands need no truncation and registers no
 * clearing; the result is truncated once, on output. */
static inline G_ALWAYS_INLINE void
taylor_run (const QdExpr *expr,
            const int     n)
{
  for (const QdTInstr *in = expr->tprog;; in++)
    {
      const QdTaylor *a = in->a, *b = in->b;
      QdTaylor *r = in->r;
      double k = in->k;

      switch ((QdTOp) in->op)
        {
        case T_ADD:
          for (int j = 0; j <= n; j++)
            r->c[j] = a->c[j] + b->c[j];
          break;
        case T_SUB:
          for (int j = 0; j <= n; j++)
            r->c[j] = a->c[j] - b->c[j];
          break;
        case T_NEG:
          for (int j = 0; j <= n; j++)
            r->c[j] = -a->c[j];
          break;
        case T_SCALE:
          for (int j = 0; j <= n; j++)
            r->c[j] = k * a->c[j] + 0.0;
          break;
        case T_ADDC:
          r->c[0] = a->c[0] + k;
          for (int j = 1; j <= n; j++)
            r->c[j] = a->c[j] + 0.0;
          break;
        case T_SUBC:
          r->c[0] = a->c[0] - k;
          for (int j = 1; j <= n; j++)
            r->c[j] = a->c[j];
          break;
        case T_CSUB:
          r->c[0] = k - a->c[0];
          for (int j = 1; j <= n; j++)
            r->c[j] = 0.0 - a->c[j];
          break;
        case T_MUL:
          {
            /* Into locals first: r may be a or b. */
            double a0 = a->c[0], a1 = a->c[1], a2 = a->c[2], a3 = a->c[3];
            double b0 = b->c[0], b1 = b->c[1], b2 = b->c[2], b3 = b->c[3];

            switch (n)
              {
              case 3:
                r->c[3] = 0.0 + a0 * b3 + a1 * b2 + a2 * b1 + a3 * b0;
                G_GNUC_FALLTHROUGH;
              case 2:
                r->c[2] = 0.0 + a0 * b2 + a1 * b1 + a2 * b0;
                G_GNUC_FALLTHROUGH;
              case 1:
                r->c[1] = 0.0 + a0 * b1 + a1 * b0;
                G_GNUC_FALLTHROUGH;
              default:
                r->c[0] = 0.0 + a0 * b0;
                break;
              }
          }
          break;
        case T_GENERIC:
          taylor_apply (in->gen, k, r, a, b, n);
          break;
        case T_WATCHED:
          {
            QdTWatch *w = in->w;
            const QdTaylor *u = w->use_b ? b : a;
            gboolean finite = TRUE;

            for (int j = 0; j <= QD_MAX_ORDER; j++)
              w->at.c[j] = j <= n ? u->c[j] : 0.0;
            taylor_apply (in->gen, k, r, a, b, n);
            for (int j = 0; j <= n; j++)
              finite = finite && isfinite (r->c[j]);
            w->bad = !finite;
          }
          break;
        case T_END:
          return;
        default:
          /* Only the operations above are compiled; saying so spares
           * the switch its range check. */
          __builtin_unreachable ();
        }
    }
}

/* taylor_run with n a constant in each call, so that its loops unroll. */
static void
taylor_exec (const QdExpr *expr,
             int           n,
             QdTaylor     *out)
{
  const QdTaylor *res = expr->tresult;

  switch (n)
    {
    case 0: taylor_run (expr, 0); break;
    case 1: taylor_run (expr, 1); break;
    case 2: taylor_run (expr, 2); break;
    default: taylor_run (expr, 3); break;
    }

  for (int j = 0; j <= QD_MAX_ORDER; j++)
    out->c[j] = j <= n ? res->c[j] : 0.0;
}

void
qd_expr_eval_taylor (QdExpr         *expr,
                     const QdTaylor *slots,
                     int             order,
                     QdTaylor       *out)
{
  g_return_if_fail (expr != NULL);
  g_return_if_fail (expr->bound);

  if (G_UNLIKELY (!expr->tprog_ready))
    taylor_compile (expr);
  /* The program reads the expression's own slots; a caller that filled
   * them in place (qd_expr_get_taylor_slots) spares this copy. */
  if (slots != expr->tslots && expr->n_slots > 0)
    memcpy (expr->tslots, slots, expr->n_slots * sizeof (QdTaylor));
  expr->torder = CLAMP (order, 0, QD_MAX_ORDER);
  taylor_exec (expr, expr->torder, out);
}

/* ---- domains ----------------------------------------------------------- */

const char *
qd_expr_domain_message (QdExprDomain domain)
{
  switch (domain)
    {
    case QD_EXPR_DOMAIN_INVERSE:
      return _("1/u needs a nonzero input");
    case QD_EXPR_DOMAIN_DIVISOR:
      return _("a divisor is zero; keep it away from zero");
    case QD_EXPR_DOMAIN_LOG:
      return _("log needs a positive input; keep it above zero (add an "
               "offset or use abs)");
    case QD_EXPR_DOMAIN_SQRT:
      return _("sqrt needs an input of zero or more, and above zero while "
               "it changes (its slope is infinite at zero)");
    case QD_EXPR_DOMAIN_POW:
      return _("the power is not defined there (a negative base needs a "
               "whole exponent, a zero base a positive one)");
    case QD_EXPR_DOMAIN_POW_OVERFLOW:
      return _("the power overflows; check the input's scale");
    case QD_EXPR_DOMAIN_EXP_OVERFLOW:
      return _("the exponential overflows; check the input's scale");
    case QD_EXPR_DOMAIN_NONE:
    default:
      return "";
    }
}

static void
ensure_compiled (QdExpr *expr)
{
  if (G_UNLIKELY (!expr->tprog_ready))
    taylor_compile (expr);
}

gboolean
qd_expr_has_singularities (QdExpr *expr)
{
  g_return_val_if_fail (expr != NULL, FALSE);
  g_return_val_if_fail (expr->bound, FALSE);

  ensure_compiled (expr);
  for (guint i = 0; i < expr->n_twatch; i++)
    if (expr->twatch[i].zero)
      return TRUE;
  return FALSE;
}

QdExprDomain
qd_expr_get_domain_error (const QdExpr *expr,
                          double       *value)
{
  g_return_val_if_fail (expr != NULL, QD_EXPR_DOMAIN_NONE);

  /* The first in program order: what follows only carries its NaN or
   * infinity on. */
  for (guint i = 0; i < expr->n_twatch; i++)
    {
      const QdTWatch *w = &expr->twatch[i];

      if (w->bad)
        {
          double u = w->at.c[0];

          if (value != NULL)
            *value = u;
          /* A base inside the power's domain (positive, or any but 0
           * under a whole exponent) overflowed, as 10^400 does: what
           * the Power block says. */
          if (w->domain == QD_EXPR_DOMAIN_POW && u != 0.0
              && (u > 0.0 || w->whole))
            return QD_EXPR_DOMAIN_POW_OVERFLOW;
          return (QdExprDomain) w->domain;
        }
    }
  return QD_EXPR_DOMAIN_NONE;
}

double
qd_expr_next_singularity (const QdExpr *expr,
                          QdExprDomain *domain)
{
  double first = QD_INF;

  g_return_val_if_fail (expr != NULL, QD_INF);

  if (domain != NULL)
    *domain = QD_EXPR_DOMAIN_NONE;
  for (guint i = 0; i < expr->n_twatch; i++)
    {
      const QdTWatch *w = &expr->twatch[i];
      double s;

      if (!w->zero)
        continue;
      /* Identically zero: no crossing (and its value is the operation's
       * own business, sqrt(0) being fine). */
      if (w->at.c[0] == 0.0 && w->at.c[1] == 0.0 && w->at.c[2] == 0.0
          && w->at.c[3] == 0.0)
        continue;
      s = qd_poly_first_root (w->at.c, expr->torder);
      if (s < first)
        {
          first = s;
          if (domain != NULL)
            *domain = (QdExprDomain) w->domain;
        }
    }
  return first;
}

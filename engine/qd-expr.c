/* qd-expr.c: not written yet */

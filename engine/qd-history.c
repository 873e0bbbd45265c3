/* qd-history.c: not written yet */

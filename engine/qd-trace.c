/* qd-trace.c: not written yet */

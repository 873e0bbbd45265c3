/* qd-compile.c: not written yet */

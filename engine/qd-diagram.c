/* qd-diagram.c: not written yet */

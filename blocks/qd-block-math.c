/* qd-block-math.c: not written yet */

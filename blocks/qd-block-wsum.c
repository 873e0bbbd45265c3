/* qd-block-wsum.c: not written yet */

/* qd-block-gain.c: not written yet */

/* qd-block-constant.c: not written yet */

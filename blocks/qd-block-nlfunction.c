/* qd-block-nlfunction.c: not written yet */

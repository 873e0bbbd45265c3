/* qd-block-step.c: not written yet */

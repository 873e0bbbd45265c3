/* qd-block-integrator.c: not written yet */

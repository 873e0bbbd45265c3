/* qd-simulation.c: not written yet */

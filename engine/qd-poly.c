/* qd-poly.c: not written yet */

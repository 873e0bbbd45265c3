/* qd-taylor.c: not written yet */

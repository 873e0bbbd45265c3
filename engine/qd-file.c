/* qd-file.c: not written yet */

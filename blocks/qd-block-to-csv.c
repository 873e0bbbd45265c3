/* qd-block-to-csv.c: not written yet */

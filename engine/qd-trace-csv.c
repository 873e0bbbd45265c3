/* qd-trace-csv.c: not written yet */

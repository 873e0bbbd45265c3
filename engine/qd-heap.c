/* qd-heap.c: not written yet */

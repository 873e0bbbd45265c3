/* qd-block-scope.c: not written yet */

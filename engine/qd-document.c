/* qd-document.c: not written yet */

/* qd-document-group.c: not written yet */

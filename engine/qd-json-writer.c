/* qd-json-writer.c: not written yet */

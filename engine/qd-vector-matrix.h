/* qd-vector-matrix.h: the matrix of a Matrix Gain, from its text or a
 * CSV file (private to the engine)
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint  row;      /* from 0 */
  guint  col;      /* from 0 */
  double value;
} QdMatrixEntry;

/* A sparse matrix: its nonzero elements by row, then column. */
typedef struct
{
  guint   rows;
  guint   cols;
  GArray *entries;   /* QdMatrixEntry */
} QdMatrix;

/* The element texts of a matrix written "[1 0; 0 2]", "1, 0; 0, 2" or
 * "[[1, 0], [0, 2]]": an array of rows, each a NULL-terminated array
 * of texts, all rows as long; NULL and @error when it is not a matrix
 * (the message says what is wrong, without the parameter's name). */
GPtrArray *qd_matrix_split_text (const char  *text,
                                 GError     **error);

/* Reads @path: a dense matrix, one line per row, or with @triplets one
 * line "i,j,value" per element (from 1; M is as large as the largest i
 * and j). A first line that is not numbers is a header; empty lines and
 * lines starting with '#' are skipped. On failure @error names the file
 * and the line. Zeros are left out of @matrix's entries. */
gboolean   qd_matrix_read_csv   (const char  *path,
                                 gboolean     triplets,
                                 QdMatrix    *matrix,
                                 GError     **error);

void       qd_matrix_clear      (QdMatrix    *matrix);

/* Sorts the entries by row, then column; FALSE with *@row and *@col at
 * the first element given twice. */
gboolean   qd_matrix_sort       (QdMatrix    *matrix,
                                 guint       *row,
                                 guint       *col);

G_END_DECLS

/* qd-vector-matrix.h: the matrix of a Matrix Gain from a CSV file
 * (private to the engine; its text: qd_expr_split_matrix())
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

/* qd-file-private.h: what the files of the .qdevs reader share
 *
 *   qd-file.c        loading: the bytes (size and UTF-8 checked), the
 *                    JSON syntax with line and column, read piece by
 *                    piece, the entry points
 *   qd-file-load.c   the document built from the parsed tree, checked
 *   qd-file-write.c  saving (shares nothing declared here)
 */
#pragma once

#include <json-c/json.h>

#include "qd-file.h"

G_BEGIN_DECLS

/* Positions, sizes and bend points lie within this many canvas units of
 * the origin (docs/file-format.md). Far beyond, a block is nowhere anyone
 * could scroll to, and the canvas's arithmetic on its coordinates (grid
 * lines to draw, bounds to cover) loses all precision or runs away. */
#define QD_FILE_MAX_COORD 1e7

/* The text being read, piece by piece (qd-file.c). */
typedef struct _QdFileText QdFileText;

typedef struct
{
  QdFileText  *text;
  const char  *name;        /* the file, as shown in messages */
  GHashTable  *block_ids;   /* block id -> QdBlock* (the block's own id) */
  GHashTable  *link_ids;    /* the link ids (each link's own) */
  GPtrArray   *problems;    /* QdProblem*: a block's problems are listed
                               here and loading goes on; NULL: the first
                               one is the error */
  GError     **error;
} Loader;

/* qd-file.c */
gboolean    qd_file_fail (Loader     *loader,
                          int         code,
                          const char *where,
                          const char *format,
                          ...) G_GNUC_PRINTF (4, 5);

/* Calls @each on every element of @array in turn, a "blocks" or "links"
 * array of the file read only now, element by element, each freed after
 * @each (which must not keep it); FALSE when @each returns FALSE or the
 * text has an error (the error set). */
typedef gboolean (*QdFileEach) (Loader      *loader,
                                gsize        index,
                                json_object *element,
                                gpointer     data);

gboolean    qd_file_array_foreach (Loader      *loader,
                                   json_object *array,
                                   QdFileEach   each,
                                   gpointer     data);

/* For tests: the size up to which an element of "blocks" or "links" is
 * parsed in one piece (64 KiB; 0: every one member by member). */
void        qd_file_set_whole_element (gsize size);

/* qd-file-load.c */
QdDocument *qd_file_load_tree (Loader      *loader,
                               json_object *root_json);

G_END_DECLS

/* qd-file.h: reading and writing .qdevs files
 *
 * The format is JSON, documented in docs/file-format.md. Writing is
 * canonical (fixed key order, two-space indent, numbers in their shortest
 * exact form), so loading and saving an unchanged file gives the same bytes
 * and diagrams diff well. Saving is atomic: a temporary file is written and
 * renamed over the old one.
 *
 * Errors (QD_ERROR) start with the file name: "FILE:LINE:COLUMN: ..." for a
 * syntax error, "FILE: /Path/Block: ..." for a semantic one, and say what
 * to do. Loading never crashes, whatever the input.
 */
#pragma once

#include <glib.h>

#include "qd-version-macros.h"
#include "qd-document.h"

G_BEGIN_DECLS

#define QD_FILE_EXTENSION ".qdevs"

/* The largest diagram read, in bytes: some 200 000 blocks (a large
 * model is a few vector blocks, not millions of scalar ones). */
#define QD_FILE_MAX_SIZE (64 << 20)

/* Only a regular file of at most QD_FILE_MAX_SIZE bytes is read; a
 * folder, a device or a pipe is refused (QD_ERROR_IO). */
QD_API QdDocument *qd_document_load        (const char   *path,
                                            GError      **error);
/* Reads @fd (0: standard input) to its end, at most QD_FILE_MAX_SIZE
 * bytes; @name is used in error messages in place of a path. */
QD_API QdDocument *qd_document_load_fd     (int           fd,
                                            const char   *name,
                                            GError      **error);
/* @name is used in error messages in place of a path ("<stdin>"). */
QD_API QdDocument *qd_document_load_data   (const char   *data,
                                            gsize         length,
                                            const char   *name,
                                            GError      **error);
/* As above, but a problem of one block (an unknown parameter, a value
 * that is not valid for its parameter, such as an expression that does
 * not parse) does not stop the loading when @problems is not NULL: it is
 * appended to @problems (QdProblem*, with the block's path and id) and
 * the rest of the file is read, so that every such problem can be listed
 * and the diagram opened. An unknown parameter is kept, as text (saving
 * writes it back, qd_document_check() reports it); an invalid value is
 * left out, the parameter keeping its default. Anything else (syntax, a
 * link to nowhere, an unknown block type) is still an error. */
QD_API QdDocument *qd_document_load_full      (const char   *path,
                                               GPtrArray    *problems,
                                               GError      **error);
QD_API QdDocument *qd_document_load_fd_full   (int           fd,
                                               const char   *name,
                                               GPtrArray    *problems,
                                               GError      **error);
QD_API QdDocument *qd_document_load_data_full (const char   *data,
                                               gsize         length,
                                               const char   *name,
                                               GPtrArray    *problems,
                                               GError      **error);
/* The canonical text, NUL-terminated. */
QD_API char       *qd_document_to_data     (QdDocument   *self,
                                            gsize        *length);
/* Atomic save; marks the document saved on success. */
QD_API gboolean    qd_document_save        (QdDocument   *self,
                                            const char   *path,
                                            GError      **error);

G_END_DECLS

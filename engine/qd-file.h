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

/* A file or standard input longer than this many bytes is read only if
 * it looks like a diagram: its first byte that is not blank is '{'. The
 * rule is there to refuse at once what was given by mistake (a video, a
 * disk image, /dev/zero through standard input), not to limit models:
 * whatever the editor and qdevs-cli save opens again, however large. */
#define QD_FILE_PLAIN_SIZE (64 << 20)

/* Only a regular file is read (a folder, a device or a pipe is refused,
 * QD_ERROR_IO), and beyond QD_FILE_PLAIN_SIZE bytes only a diagram. */
QD_API QdDocument *qd_document_load        (const char   *path,
                                            GError      **error);
/* Reads @fd (0: standard input) to its end, with the same rule on the
 * size; @name is used in error messages in place of a path. */
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

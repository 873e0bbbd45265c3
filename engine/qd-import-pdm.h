/* qd-import-pdm.h: opening PowerDEVS models (.pdm)
 *
 * PowerDEVS saves a diagram as a line-oriented .pdm file and its times in
 * a .stm file beside it. The importer reads both and builds a QdDocument:
 * each PowerDEVS block becomes its QDevs counterpart with its parameters
 * translated (Scilab arithmetic into QDevs expressions, Scilab Command
 * assignments and subsystem parameters into model variables), nets joined
 * through junction points become links with branches and bends,
 * subsystems keep their ports, and the children keep their order, which
 * is the priority order of simultaneous events in both programs. A block
 * with no counterpart becomes a placeholder (QD_TYPE_PLACEHOLDER) keeping
 * its parameters.
 *
 * Every translation that is not exact is appended to @report as a
 * QdProblem naming the block by its path in the imported diagram. The
 * document returned has no file and is marked modified.
 */
#pragma once

#include "qd-version-macros.h"
#include "qd-document.h"

G_BEGIN_DECLS

/* Reads @path and, when present, the .stm file of the same name beside
 * it. Syntax errors are QD_ERROR_SYNTAX with "FILE:LINE:COLUMN: ". */
QD_API QdDocument *qd_import_pdm       (const char  *path,
                                        GPtrArray   *report,
                                        GError     **error);
/* The same from text: @name is the file name errors give, @stm the text
 * of the .stm file or NULL (the final time is then PowerDEVS's default,
 * 30). */
QD_API QdDocument *qd_import_pdm_data  (const char  *data,
                                        gsize        length,
                                        const char  *name,
                                        const char  *stm,
                                        GPtrArray   *report,
                                        GError     **error);

G_END_DECLS

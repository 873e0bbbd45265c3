/* qd-cli-private.h: what the commands of qdevs-cli share
 *
 * Each command lives in its own qd-cli-NAME.c and is called with the
 * arguments that follow its name (argv[0] is "qdevs-cli NAME"). It returns
 * the process exit status.
 */
#pragma once

#include <glib.h>
#include <glib/gi18n-lib.h>

#include "qdevs.h"
#include "qd-blocks.h"

G_BEGIN_DECLS

/* Exit statuses, documented in `qdevs-cli help` and the README. */
typedef enum
{
  QD_CLI_EXIT_OK = 0,
  QD_CLI_EXIT_MODEL = 1,    /* the file cannot be read, or the model is wrong */
  QD_CLI_EXIT_USAGE = 2,    /* unknown command or option, missing FILE */
  QD_CLI_EXIT_RUN = 3,      /* the run stopped with an error */
  /* Interrupted by SIGINT (Ctrl-C) or SIGTERM: 128 plus the signal's
   * number, 130 or 143, as a shell reports a command killed by it. */
  QD_CLI_EXIT_SIGNAL = 128,
} QdCliExit;

int  qd_cli_run     (int argc, char **argv);
int  qd_cli_check   (int argc, char **argv);
int  qd_cli_blocks  (int argc, char **argv);
int  qd_cli_bench   (int argc, char **argv);
int  qd_cli_import  (int argc, char **argv);
int  qd_cli_compare (int argc, char **argv);
int  qd_cli_sweep   (int argc, char **argv);
int  qd_cli_new_block (int argc, char **argv);

/* Prints "qdevs-cli[ COMMAND]: MESSAGE" and the hint to --help on stderr;
 * returns QD_CLI_EXIT_USAGE. */
int  qd_cli_usage_error (const char *command,
                         const char *format,
                         ...) G_GNUC_PRINTF (2, 3);

/* Parses the options of @command with @entries. Handles --help itself.
 * On an unknown option, a bad value or (when @n_files is not 0) a wrong
 * number of FILE arguments, prints a usage error and returns FALSE; the
 * remaining arguments are left in @argc/@argv. */
gboolean qd_cli_parse_options (const char    *command,
                               const char    *parameter_string,
                               const char    *summary,
                               const char    *description,
                               GOptionEntry  *entries,
                               int           *argc,
                               char        ***argv);

/* Checks that each --set argument has the form NAME=VALUE. */
gboolean qd_cli_check_overrides (const char  *command,
                                 char       **overrides);

/* Checks that each --set names a variable of @document; if not, prints
 * a usage error listing the model's variables and returns FALSE. */
gboolean qd_cli_check_override_names (const char  *command,
                                      QdDocument  *document,
                                      char       **overrides);

/* How errors name a FILE argument: "-" is standard input. */
#define QD_CLI_STDIN_NAME "<stdin>"
const char *qd_cli_file_name (const char *arg);

/* Loads the FILE argument @arg of @command, "-" being standard input,
 * and checks that each of @overrides names one of its variables. With
 * @problems, the problems of single blocks are appended to it instead of
 * stopping the load (qd_document_load_full()). Returns
 * QD_CLI_EXIT_OK with @document set, or the exit status of the error it
 * printed. */
int qd_cli_load (const char   *command,
                 const char   *arg,
                 char        **overrides,
                 GPtrArray    *problems,
                 QdDocument  **document);


/* --until @text replaces the final time of @document (shorter or
 * longer than the file's). Returns QD_CLI_EXIT_OK, or the exit status
 * of the error it printed. */
int qd_cli_apply_until (const char  *command,
                        const char  *file,
                        QdDocument  *document,
                        const char  *text);

/* Prints every problem as "FILE: /Path: message", one per line. */
void qd_cli_print_problems (const char *file,
                            GPtrArray  *problems);

G_END_DECLS

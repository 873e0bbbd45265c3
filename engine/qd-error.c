/* qd-error.c: the error domain of libqdevs, and problem lists */
#include "qd-error.h"

G_DEFINE_QUARK (qd-error-quark, qd_error)

QdProblem *
qd_problem_new (QdErrorCode  code,
                const char  *path,
                const char  *block_id,
                const char  *format,
                ...)
{
  QdProblem *problem = g_new0 (QdProblem, 1);
  va_list args;

  problem->code = code;
  problem->path = g_strdup (path ? path : "");
  problem->block_id = g_strdup (block_id);
  va_start (args, format);
  problem->message = g_strdup_vprintf (format, args);
  va_end (args);

  return problem;
}

void
qd_problem_free (QdProblem *problem)
{
  if (problem == NULL)
    return;
  g_free (problem->path);
  g_free (problem->block_id);
  g_free (problem->message);
  g_free (problem);
}

char *
qd_problem_to_string (const QdProblem *problem)
{
  if (problem->path == NULL || problem->path[0] == '\0')
    return g_strdup (problem->message);
  return g_strdup_printf ("%s: %s", problem->path, problem->message);
}

/* qd-block-to-csv.c: To CSV, a sink that writes its inputs to a file
 *
 * A header "time,NAME,..." and then rows of values with 17 significant
 * digits (enough to read every double back exactly). With period 0 there
 * is one row per distinct input event time, written once every event at
 * that time has arrived (that is, when a later event comes, or at the
 * end), so simultaneous events make one row with all their values. With a
 * period > 0 the rows fall at start, start + period, ... (computed as
 * start + k·period, so they do not drift), each input evaluated exactly
 * from its polynomial; those rows are internal events of the block, and
 * the row at the final time is written when the run ends.
 *
 * The file is opened at init and flushed and closed at exit, through stdio
 * with a large buffer: the event loop only formats numbers.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "qd-blocks-private.h"

enum
{
  PARAM_FILE,
  PARAM_N,
  PARAM_NAMES,
  PARAM_PERIOD,
};

#define BUFFER_SIZE (256 * 1024)

typedef struct
{
  FILE     *file;
  QdSignal *last;         /* period 0: the last segment of each input */
  double    pending_t;    /* period 0: the time of the row not yet written */
  gboolean  pending;
  double    period;
  double    t0;           /* period > 0: the start time */
  double    next;         /* period > 0: the next sample time */
  guint64   k;            /* period > 0: its index */
  double    tl;           /* the time of the last transition */
} ToCsv;

static void
write_row (QdAtomic              *self,
           double                 t,
           const QdSignal        *segments,
           const QdSignal *const *pointers)
{
  ToCsv *st = self->state;
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  /* g_ascii_formatd, not printf: the editor runs in the user's locale,
   * where printf may write "0,5", and a CSV file must read the same in
   * every locale. */
  fputs (g_ascii_formatd (buf, sizeof buf, "%.17g", t), st->file);
  for (guint i = 0; i < self->n_in; i++)
    {
      const QdSignal *u = segments != NULL ? &segments[i] : pointers[i];

      fputc (',', st->file);
      fputs (g_ascii_formatd (buf, sizeof buf, "%.17g", qd_signal_eval (u, t)), st->file);
    }
  fputc ('\n', st->file);
}

static void
to_csv_init (QdAtomic *self,
             double    t)
{
  ToCsv *st = self->state;
  const char *path = self->params[PARAM_FILE].text;
  g_auto(GStrv) names = g_strsplit (self->params[PARAM_NAMES].text, ",", -1);
  guint n_names = g_strv_length (names);
  char *buffer;

  st->period = self->params[PARAM_PERIOD].number;
  st->t0 = t;
  st->next = t;
  st->k = 0;
  st->tl = t;
  st->last = qd_atomic_alloc (self, self->n_in * sizeof (QdSignal));

  st->file = fopen (path, "w");
  if (st->file == NULL)
    {
      int saved_errno = errno;

      qd_atomic_fail (self, QD_ERROR_IO,
                      _("cannot write '%s': %s; check that its folder "
                        "exists and is writable"),
                      path, g_strerror (saved_errno));
      st->period = 0.0;
      return;
    }
  buffer = qd_atomic_alloc (self, BUFFER_SIZE);
  setvbuf (st->file, buffer, _IOFBF, BUFFER_SIZE);

  fputs ("time", st->file);
  for (guint i = 0; i < self->n_in; i++)
    {
      const char *name = i < n_names ? g_strstrip (names[i]) : "";

      if (*name == '\0')
        fprintf (st->file, ",x%u", i + 1);
      else
        fprintf (st->file, ",%s", name);
    }
  fputc ('\n', st->file);
}

static double
to_csv_ta (QdAtomic *self)
{
  ToCsv *st = self->state;

  if (st->file == NULL || st->period <= 0.0)
    return QD_INF;
  return st->next > st->tl ? st->next - st->tl : 0.0;
}

static guint64
to_csv_lambda (QdAtomic *self,
               double    t)
{
  return 0;
}

static void
to_csv_dint (QdAtomic *self,
             double    t)
{
  ToCsv *st = self->state;

  st->tl = t;
  if (st->file == NULL || st->period <= 0.0)
    return;
  write_row (self, st->next, NULL, self->in);
  st->k++;
  st->next = st->t0 + st->k * st->period;
}

static void
to_csv_dext (QdAtomic       *self,
             double          t,
             double          e,
             guint           port,
             const QdSignal *x)
{
  ToCsv *st = self->state;

  st->tl = t;
  if (st->file == NULL || st->period > 0.0)
    return;
  /* Every event at pending_t has arrived: its row is complete. */
  if (st->pending && t > st->pending_t)
    write_row (self, st->pending_t, st->last, NULL);
  st->last[port] = *x;
  st->pending = TRUE;
  st->pending_t = t;
}

static void
to_csv_exit (QdAtomic *self,
             double    t)
{
  ToCsv *st = self->state;
  const char *path = self->params[PARAM_FILE].text;

  if (st->file == NULL)
    return;
  if (st->period > 0.0)
    {
      while (st->next <= t)
        {
          write_row (self, st->next, NULL, self->in);
          st->k++;
          st->next = st->t0 + st->k * st->period;
        }
    }
  else if (st->pending)
    {
      write_row (self, st->pending_t, st->last, NULL);
      st->pending = FALSE;
    }

  if (ferror (st->file) | (fclose (st->file) != 0))
    {
      int saved_errno = errno;

      qd_atomic_fail (self, QD_ERROR_IO,
                      _("writing '%s' failed: %s; check the free space on "
                        "its disk"),
                      path, g_strerror (saved_errno));
    }
  st->file = NULL;
}

static const QdParamSpec to_csv_params[] = {
  { "file", N_("File"), QD_PARAM_STRING, "output.csv", -QD_INF, QD_INF, NULL,
    N_("The CSV file to write; a relative path is relative to the working "
       "directory. An existing file is replaced."), NULL, 0 },
  { "n", N_("Inputs"), QD_PARAM_INTEGER, "1", 1, 64, NULL,
    N_("The number of signals to write, one column each."), NULL, 0 },
  { "names", N_("Column names"), QD_PARAM_STRING, "", -QD_INF, QD_INF, NULL,
    N_("The column names, separated by commas; an empty or missing name "
       "is x1, x2, ... by position."), NULL, 0 },
  { "period", N_("Sampling period"), QD_PARAM_NUMBER, "0", 0, QD_INF, "s",
    N_("0 writes a row at every input event; a positive period writes "
       "rows at the start time and every period after it, sampled exactly "
       "from the input polynomials."), NULL, 0 },
  { "elements", N_("Elements"), QD_PARAM_STRING, "all", -QD_INF, QD_INF, NULL,
    N_("Of an input that carries a vector, the elements to write, "
       "numbered from 1: all, a range (\"1:10\") or a list (\"1, 5, 7\"), "
       "each an expression of the model variables. Element 3 of the input "
       "named v is named v[3]. A scalar input is always written."), NULL, 0 },
};

const QdBlockType qd_block_to_csv = {
  .id = "to_csv",
  .category = N_("Sinks"),
  .name = N_("To CSV"),
  .glyph = "⇥▤",
  .doc = N_("Writes its inputs to a CSV file with a header \"time,NAME,...\" "
            "and values with 17 significant digits: either one row per "
            "input event, or rows sampled at a fixed period."),
  .inputs = { .size_param = "n", .name_prefix = "u",
              .doc = N_("The signals to write.") },
  .params = to_csv_params,
  .n_params = G_N_ELEMENTS (to_csv_params),
  .state_size = sizeof (ToCsv),
  .init = to_csv_init,
  .ta = to_csv_ta,
  .dint = to_csv_dint,
  .dext = to_csv_dext,
  .lambda = to_csv_lambda,
  .exit = to_csv_exit,
};

/* qd-run-notes.h: what was different in each run
 *
 * The editor numbers the runs it keeps for the plots and remembers, for
 * each, the model it ran: its variables, its settings and the
 * parameters of its blocks. A run's note lists its values of what is
 * not the same in all the runs remembered ("k = 2, method = QSS3"), so
 * that a legend of three runs of a spring with k = 1, 2, 3 reads
 * "Run 1 · k = 1", "Run 2 · k = 2"... GLib and the engine only: tested
 * without a display.
 */
#pragma once

#include "qdevs.h"

G_BEGIN_DECLS

typedef struct _QdRunNotes QdRunNotes;

QdRunNotes *qd_run_notes_new      (void);
void        qd_run_notes_free     (QdRunNotes *self);
/* Remembers the model of a new run; returns its number, from 1. */
guint       qd_run_notes_add      (QdRunNotes *self,
                                   QdDocument *document);
/* Forgets every run: the numbers start at 1 again. */
void        qd_run_notes_clear    (QdRunNotes *self);
/* Forgets every run but the last (its plots' earlier runs were
 * cleared); the numbers go on. */
void        qd_run_notes_forget_earlier (QdRunNotes *self);
/* The runs remembered. */
guint       qd_run_notes_get_n    (QdRunNotes *self);
/* The note of run @number: "k = 2, Gain.k = 0.5", at most a few items
 * and then "…"; NULL when it is the same as every other run or unknown. */
char       *qd_run_notes_describe (QdRunNotes *self,
                                   guint       number);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (QdRunNotes, qd_run_notes_free)

G_END_DECLS

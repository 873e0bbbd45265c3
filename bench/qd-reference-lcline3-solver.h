/* qd-reference-lcline3-solver.h: a hand-written QSS3 solver for the LC
 * line, the floor the engine's QSS3 is measured against
 *
 * The same model as qd-reference-lcline-solver.h (`qdevs-cli bench`'s
 * lcline and lcline-random, dqrel = 1e-3, dqmin = 1e-6) under QSS3, with
 * the same calls: see that header. The cubic crossings are the engine's
 * own root finders (qd-poly.h): the arithmetic any QSS3 solver needs,
 * which this one is not meant to do differently. Not installed.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _QdRefLcline3 QdRefLcline3;

QdRefLcline3 *qd_ref_lcline3_new      (guint               n,
                                       gboolean            random_start);
void          qd_ref_lcline3_free     (QdRefLcline3       *self);
void          qd_ref_lcline3_reset    (QdRefLcline3       *self);
guint64       qd_ref_lcline3_start    (QdRefLcline3       *self);
guint64       qd_ref_lcline3_advance  (QdRefLcline3       *self,
                                       double              until);
double        qd_ref_lcline3_state_at (const QdRefLcline3 *self,
                                       guint               i,
                                       double              t);
guint64       qd_ref_lcline3_fallbacks (const QdRefLcline3 *self);
gsize         qd_ref_lcline3_bytes_per_state (void);

G_END_DECLS

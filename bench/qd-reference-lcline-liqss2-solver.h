/* qd-reference-lcline-liqss2-solver.h: a hand-written LIQSS2 solver for
 * the LC line, the floor the engine's LIQSS2 is measured against
 *
 * The same model as qd-reference-lcline-solver.h under LIQSS2, with the
 * same calls: see that header. Not installed.
 */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _QdRefLclineLiqss2 QdRefLclineLiqss2;

QdRefLclineLiqss2 *qd_ref_lcline_liqss2_new      (guint                    n,
                                                  gboolean                 random_start);
void               qd_ref_lcline_liqss2_free     (QdRefLclineLiqss2       *self);
void               qd_ref_lcline_liqss2_reset    (QdRefLclineLiqss2       *self);
guint64            qd_ref_lcline_liqss2_start    (QdRefLclineLiqss2       *self);
guint64            qd_ref_lcline_liqss2_advance  (QdRefLclineLiqss2       *self,
                                                  double                   until);
double             qd_ref_lcline_liqss2_state_at (const QdRefLclineLiqss2 *self,
                                                  guint                    i,
                                                  double                   t);
gsize              qd_ref_lcline_liqss2_bytes_per_state (void);

G_END_DECLS

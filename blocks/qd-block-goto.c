/* qd-block-goto.c: Goto and From, named signals across one system
 *
 * A Goto publishes the signal at its input under a tag; every From of the
 * same system with that tag outputs it, as if a link joined them (Simulink's
 * Goto and From, within one diagram level). Both are structural: they have
 * no DEVS functions and no events of their own; the compiler joins each
 * From's receivers to the Goto's driver (QD_BLOCK_TAG_SINK and
 * QD_BLOCK_TAG_SOURCE), so they cost nothing at run time. A From whose tag
 * no Goto of its system has, and two Gotos of one system with the same tag,
 * are problems at the block naming the parameter.
 */
#include "qd-blocks-private.h"

static const QdParamSpec tag_params[] = {
  { "tag", N_("Tag"), QD_PARAM_STRING, "A", -QD_INF, QD_INF, NULL,
    N_("The name of the signal: a From outputs what arrives at the Goto of "
       "the same system with the same tag."), NULL, 0 },
};

const QdBlockType qd_block_goto = {
  .id = "goto",
  .category = N_("Structure"),
  .name = N_("Goto"),
  .glyph = "→[ ]",
  .doc = N_("Sends its input to the From blocks of the same system that "
            "have its tag, without drawing a wire: a named signal across "
            "one level of the diagram. Each tag has one Goto per system."),
  .inputs = { .count = 1, .name_prefix = "u",
              .doc = N_("The signal to publish under the tag.") },
  .params = tag_params,
  .n_params = G_N_ELEMENTS (tag_params),
  .flags = QD_BLOCK_STRUCTURAL | QD_BLOCK_TAG_SINK,
};

const QdBlockType qd_block_from = {
  .id = "from",
  .category = N_("Structure"),
  .name = N_("From"),
  .glyph = "[ ]→",
  .doc = N_("Outputs the signal of the Goto block of the same system that "
            "has its tag, as if a wire joined them. Any number of From "
            "blocks may read one tag."),
  .outputs = { .count = 1, .name_prefix = "y",
               .doc = N_("The signal published under the tag.") },
  .params = tag_params,
  .n_params = G_N_ELEMENTS (tag_params),
  .flags = QD_BLOCK_STRUCTURAL | QD_BLOCK_TAG_SOURCE,
};

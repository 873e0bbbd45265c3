/* qd-structural.c: the structural block types of a hierarchy
 *
 * A subsystem holds a system; its inport and outport blocks are its ports,
 * numbered by their "port" parameter. They have no DEVS functions: the
 * compiler flattens them away, joining the links on each side.
 */
#include <glib/gi18n-lib.h>

#include "qd-registry.h"
#include "qd-structural.h"

static const QdParamSpec port_params[] = {
  { "port", N_("Port number"), QD_PARAM_INTEGER, "1", 1, 64, NULL,
    N_("The position of this port on the subsystem block, from 1."), NULL, 0 },
};

static const QdBlockType subsystem_type = {
  .id = QD_TYPE_SUBSYSTEM,
  .category = N_("Structure"),
  .name = N_("Subsystem"),
  .glyph = "▣",
  .doc = N_("A coupled model: a diagram of its own whose Inport and Outport "
            "blocks become the ports of this block. Double-click to open it."),
  .flags = QD_BLOCK_STRUCTURAL,
};

static const QdBlockType inport_type = {
  .id = QD_TYPE_INPORT,
  .category = N_("Structure"),
  .name = N_("Inport"),
  .glyph = "→",
  .doc = N_("An input of the enclosing subsystem: what arrives at the "
            "subsystem's input with this number leaves here."),
  .outputs = { .count = 1, .name_prefix = "y" },
  .params = port_params,
  .n_params = G_N_ELEMENTS (port_params),
  .flags = QD_BLOCK_STRUCTURAL,
};

static const QdBlockType outport_type = {
  .id = QD_TYPE_OUTPORT,
  .category = N_("Structure"),
  .name = N_("Outport"),
  .glyph = "→",
  .doc = N_("An output of the enclosing subsystem: what arrives here leaves "
            "the subsystem's output with this number."),
  .inputs = { .count = 1, .name_prefix = "u" },
  .params = port_params,
  .n_params = G_N_ELEMENTS (port_params),
  .flags = QD_BLOCK_STRUCTURAL,
};

const QdBlockType *const qd_structural_types[] = {
  &subsystem_type,
  &inport_type,
  &outport_type,
  NULL
};

/* qd-structural.c: the structural block types of a hierarchy, and the
 * placeholder
 *
 * A subsystem holds a system; its inport and outport blocks are its ports,
 * numbered by their "port" parameter. They have no DEVS functions: the
 * compiler flattens them away, joining the links on each side.
 *
 * A placeholder stands for a block of another program that QDevs cannot
 * run (an imported PowerDEVS block with no counterpart). It keeps that
 * block's type, its ports and its parameters as text, so the diagram
 * opens, saves and reopens unchanged, and its links stay drawn; Check and
 * Run refuse it with a message naming it, until the user replaces it.
 */
#include <glib/gi18n-lib.h>

#include "qd-error.h"
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

static const QdParamSpec placeholder_params[] = {
  { "original", N_("Original block"), QD_PARAM_STRING, "", -QD_INF, QD_INF,
    NULL, N_("The block this one stands for, as its program names it."),
    NULL, 0 },
  { "inputs", N_("Inputs"), QD_PARAM_INTEGER, "0", 0, 64, NULL,
    N_("The number of inputs of the original block."), NULL, 0 },
  { "outputs", N_("Outputs"), QD_PARAM_INTEGER, "0", 0, 64, NULL,
    N_("The number of outputs of the original block."), NULL, 0 },
  { "parameters", N_("Parameters"), QD_PARAM_STRING, "", -QD_INF, QD_INF,
    NULL, N_("The original block's parameters, one \"name = value\" a line."),
    NULL, 0 },
};

static gboolean
placeholder_check (const QdBlockType  *type G_GNUC_UNUSED,
                   const QdParamValue *params,
                   guint               n_inputs G_GNUC_UNUSED,
                   guint               n_outputs G_GNUC_UNUSED,
                   GError            **error)
{
  g_set_error (error, QD_ERROR, QD_ERROR_UNKNOWN_TYPE,
               _("a placeholder for %s, which has no QDevs counterpart: "
                 "replace it with blocks that do the same, or remove it"),
               params[0].text[0] != '\0' ? params[0].text : _("a missing block"));
  return FALSE;
}

static const QdBlockType placeholder_type = {
  .id = QD_TYPE_PLACEHOLDER,
  .category = N_("Structure"),
  .name = N_("Placeholder"),
  .glyph = "?",
  .doc = N_("Stands for a block of an imported model that QDevs cannot run. "
            "It keeps the original block's ports and parameters; Check and "
            "Run stop at it until it is replaced."),
  .inputs = { .size_param = "inputs", .name_prefix = "u" },
  .outputs = { .size_param = "outputs", .name_prefix = "y" },
  .params = placeholder_params,
  .n_params = G_N_ELEMENTS (placeholder_params),
  .flags = QD_BLOCK_PLACEHOLDER | QD_BLOCK_OPTIONAL_INPUTS,
  .check = placeholder_check,
};

const QdBlockType *const qd_structural_types[] = {
  &subsystem_type,
  &inport_type,
  &outport_type,
  &placeholder_type,
  NULL
};

/* qdevs.h: the single public header of libqdevs
 *
 * libqdevs is the engine of QDevs: diagrams and their edit commands, the
 * .qdevs file format, the block registry and API, expressions, compilation
 * to a flat simulation, the DEVS event loop and trace storage. It depends
 * on GLib and json-c only. A program calls qd_init() (qd-blocks.h, the
 * built-in block library) once before anything else; a plugin needs
 * nothing but this header.
 */
#pragma once

#define QD_INSIDE_QDEVS_H

#include "qd-version-macros.h"
#include "qd-types.h"
#include "qd-error.h"
#include "qd-expr.h"
#include "qd-taylor.h"
#include "qd-block-type.h"
#include "qd-registry.h"
#include "qd-plugin.h"
#include "qd-diagram.h"
#include "qd-document.h"
#include "qd-file.h"
#include "qd-import-pdm.h"
#include "qd-trace.h"
#include "qd-trace-csv.h"
#include "qd-simulation.h"
#include "qd-classic.h"
#include "qd-compare.h"
#include "qd-event-log.h"
#include "qd-debug.h"
#include "qd-notes.h"
#include "qd-mask.h"
#include "qd-event-log-csv.h"
#include "qd-stats.h"
#include "qd-runner.h"
#include "qd-sweep.h"
#include "qd-poly.h"

#undef QD_INSIDE_QDEVS_H

/* qd-structural.h: registration of the subsystem and port block types */
#pragma once

#include "qd-version-macros.h"

QD_API void qd_structural_register (void);

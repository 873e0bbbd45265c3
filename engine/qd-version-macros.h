/* qd-version-macros.h: symbol visibility for libqdevs
 *
 * libqdevs is built with hidden symbols; only declarations marked QD_API are
 * exported from the shared library (the static library the tests link sees
 * everything).
 */
#pragma once

#if defined(QD_COMPILATION) && defined(__GNUC__)
# define QD_API __attribute__((visibility ("default"))) extern
#else
# define QD_API extern
#endif

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Host stand-in for ChibiOS chprintf(): the conversions mcu-lib uses behave as in ChibiOS. */
#ifndef CHPRINTF_H
#define CHPRINTF_H

#include "hal.h"

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
__attribute__((format (printf, 2, 3)))
#endif
int chprintf (BaseSequentialStream *chp, const char *fmt, ...);
#if defined(__GNUC__)
__attribute__((format (printf, 3, 4)))
#endif
int chsnprintf (char *str, size_t size, const char *fmt, ...);

#ifdef __cplusplus
}
#endif

#endif /* CHPRINTF_H */

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Host stand-in for the ChibiOS/RT types used by mcu-lib (RT 5.1 / 18.2 layout). */
#ifndef CHTYPES_H
#define CHTYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifndef TRUE
#define TRUE 1
#endif
#ifndef FALSE
#define FALSE 0
#endif

typedef uint64_t rttime_t;
typedef uint32_t rtcnt_t;
typedef uint32_t tprio_t;
typedef uint8_t  tstate_t;
typedef uint8_t  tmode_t;
typedef uint8_t  stkalign_t;

#endif /* CHTYPES_H */

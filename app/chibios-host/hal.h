/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Host stand-in for the part of the ChibiOS HAL used by mcu-lib: sequential streams, and the
 * timed read of a channel (a stream here, whose read may be missing: nothing to read). */
#ifndef HAL_H
#define HAL_H

#include <stddef.h>
#include <stdint.h>

struct BaseSequentialStreamVMT;

typedef struct
{
  const struct BaseSequentialStreamVMT *vmt;
} BaseSequentialStream;

struct BaseSequentialStreamVMT
{
  size_t (*write) (void *ip, const uint8_t *bp, size_t n);
  /* Reads at most @n bytes, waiting up to @timeout ticks for the first; NULL: none come. */
  size_t (*readt) (void *ip, uint8_t *bp, size_t n, uint32_t timeout);
};

typedef BaseSequentialStream BaseChannel;

#define chnReadTimeout(ip, bp, n, time)                                     \
  ((ip)->vmt->readt != NULL ? (ip)->vmt->readt ((ip), (bp), (n), (time)) : (size_t) 0)

#endif /* HAL_H */

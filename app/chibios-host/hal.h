/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Host stand-in for the part of the ChibiOS HAL used by mcu-lib: sequential streams, and the
 * timed read and write of a channel (a stream here, whose read may be missing: nothing to
 * read; whose timed write may be missing: the stream takes everything at once). */
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
  /* Writes at most @n bytes, waiting up to @timeout ticks for room (TIME_IMMEDIATE: what
   * the output queue has room for now); NULL: write() takes them all. */
  size_t (*writet) (void *ip, const uint8_t *bp, size_t n, uint32_t timeout);
  /* One byte (ChibiOS's chprintf() prints with it; the stand-in's with write()). */
  int32_t (*put) (void *ip, uint8_t b);
};

typedef int32_t msg_t;

#define MSG_OK    ((msg_t) 0)
#define MSG_RESET ((msg_t) -2)

#define TIME_IMMEDIATE ((uint32_t) 0)
#define TIME_INFINITE  ((uint32_t) -1)

typedef BaseSequentialStream BaseChannel;

#define chnReadTimeout(ip, bp, n, time)                                     \
  ((ip)->vmt->readt != NULL ? (ip)->vmt->readt ((ip), (bp), (n), (time)) : (size_t) 0)

#define chnWriteTimeout(ip, bp, n, time)                                    \
  ((ip)->vmt->writet != NULL ? (ip)->vmt->writet ((ip), (bp), (n), (time))   \
                             : (ip)->vmt->write ((ip), (bp), (n)))

#endif /* HAL_H */

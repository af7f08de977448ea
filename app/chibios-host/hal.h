/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Host stand-in for the part of the ChibiOS HAL used by mcu-lib: sequential streams. */
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
};

#endif /* HAL_H */

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Kernel configuration of the simulated board: the tick frequency and the log size chosen
 * when the board starts; the rest, the library wired in as on a real board with every hook,
 * is the host builds' configuration. */
#ifndef TKS_SIMBOARD_CHCONF_H
#define TKS_SIMBOARD_CHCONF_H

extern unsigned long tks_simboard_tick_hz;
extern unsigned long tks_simboard_log_size;

#define CH_CFG_ST_FREQUENCY   tks_simboard_tick_hz

#define TIMESTAMPS_INCLUDE
#include "threads_utilities_chconf.h"

/* The board also carries the library built without the wake-up fields (dump version 1):
 * both builds must see the same thread_t, so that one gets their room. */
#if !TU_READY
#define CH_HOST_THREAD_PAD                                                  \
  uint8_t tks_pad_readied;                                                  \
  uint32_t tks_pad_ready_at;
#endif

#include "config/chconf.h"

#endif /* TKS_SIMBOARD_CHCONF_H */

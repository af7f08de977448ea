/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Kernel configuration of the simulated board: the library wired in as on a real board, with
 * the tick frequency and the log size chosen when the board starts. */
#ifndef CHCONF_H
#define CHCONF_H

extern unsigned long tks_simboard_tick_hz;
extern unsigned long tks_simboard_log_size;

#define CH_CFG_ST_FREQUENCY   tks_simboard_tick_hz
#define CH_CFG_USE_REGISTRY   TRUE
#define CH_DBG_STATISTICS     TRUE

#define TIMESTAMPS_INCLUDE
#include "threads_utilities_chconf.h"

#define CH_CFG_THREAD_EXTRA_FIELDS                                          \
  TIMESTAMPS_THREAD_EXTRA_FIELDS

#define CH_CFG_THREAD_INIT_HOOK(tp) {                                       \
  TIMESTAMPS_THREAD_INIT_HOOK                                               \
}

#define CH_CFG_THREAD_EXIT_HOOK(tp) {                                       \
  TIMESTAMPS_THREAD_EXIT_HOOK(tp)                                           \
}

#define CH_CFG_CONTEXT_SWITCH_HOOK(ntp, otp) {                              \
  TIMESTAMPS_CONTEXT_SWITCH_HOOK(ntp, otp)                                  \
}

#endif /* CHCONF_H */

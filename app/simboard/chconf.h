/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Kernel configuration of the simulated board: the library wired in as on a real board with
 * every event option (interrupt, idle and ready hooks), with the tick frequency and the log
 * size chosen when the board starts. */
#ifndef CHCONF_H
#define CHCONF_H

extern unsigned long tks_simboard_tick_hz;
extern unsigned long tks_simboard_log_size;

#define CH_CFG_ST_FREQUENCY   tks_simboard_tick_hz
#define CH_CFG_USE_REGISTRY   TRUE
#define CH_DBG_STATISTICS     TRUE

#define TIMESTAMPS_INCLUDE
#include "threads_utilities_chconf.h"

/* The board also carries the library built without the wake-up fields (dump version 1):
 * both builds must see the same thread_t, so that one gets their room. */
#if TU_READY
#define TKS_SIMBOARD_THREAD_PAD
#else
#define TKS_SIMBOARD_THREAD_PAD                                             \
  uint8_t tks_pad_readied;                                                  \
  uint32_t tks_pad_ready_at;
#endif

#define CH_CFG_THREAD_EXTRA_FIELDS                                          \
  TIMESTAMPS_THREAD_EXTRA_FIELDS                                            \
  TKS_SIMBOARD_THREAD_PAD

#define CH_CFG_THREAD_INIT_HOOK(tp) {                                       \
  TIMESTAMPS_THREAD_INIT_HOOK                                               \
}

#define CH_CFG_THREAD_EXIT_HOOK(tp) {                                       \
  TIMESTAMPS_THREAD_EXIT_HOOK(tp)                                           \
}

#define CH_CFG_CONTEXT_SWITCH_HOOK(ntp, otp) {                              \
  TIMESTAMPS_CONTEXT_SWITCH_HOOK(ntp, otp)                                  \
}

#define CH_CFG_IRQ_PROLOGUE_HOOK() {                                        \
  TIMESTAMPS_IRQ_PROLOGUE_HOOK()                                            \
}

#define CH_CFG_IRQ_EPILOGUE_HOOK() {                                        \
  TIMESTAMPS_IRQ_EPILOGUE_HOOK()                                            \
}

#define CH_CFG_IDLE_ENTER_HOOK() {                                          \
  TIMESTAMPS_IDLE_ENTER_HOOK()                                              \
}

#define CH_CFG_IDLE_LEAVE_HOOK() {                                          \
  TIMESTAMPS_IDLE_LEAVE_HOOK()                                              \
}

/* What a ChibiOS/RT 7 board writes as "#define __trace_ready(tp, msg) ...". */
#define CH_HOST_READY_HOOK(tp) TIMESTAMPS_READY_HOOK(tp)

#endif /* CHCONF_H */

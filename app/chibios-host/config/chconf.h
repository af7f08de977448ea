/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Kernel configuration of the host builds: the library wired in as a board's chconf.h wires
 * it. A program with settings of its own defines them first, then includes this file. */
#ifndef CHCONF_H
#define CHCONF_H

#ifndef CH_CFG_ST_FREQUENCY
#define CH_CFG_ST_FREQUENCY   1000
#endif
#define CH_CFG_USE_REGISTRY   TRUE
#define CH_DBG_STATISTICS     TRUE

#define TIMESTAMPS_INCLUDE
#include "threads_utilities_chconf.h"

/* A build that shares thread_t with another build of other options pads it to the same size. */
#ifndef CH_HOST_THREAD_PAD
#define CH_HOST_THREAD_PAD
#endif

#define CH_CFG_THREAD_EXTRA_FIELDS                                          \
  TIMESTAMPS_THREAD_EXTRA_FIELDS                                            \
  CH_HOST_THREAD_PAD

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

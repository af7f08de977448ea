/* SPDX-License-Identifier: GPL-3.0-or-later */
/**
 * @file    chconf.h
 * @brief   Kernel configuration of the real-kernel workload.
 * @details The demo's own chconf.h (found next on the include path) gives every option;
 *          a variant overrides options with -D in its UDEFS (the demo's file keeps a value
 *          already defined), and this file then puts the board library's hooks in place of
 *          the demo's empty ones. The library is either Tickscope's mcu-lib or the original
 *          threads_utilities_ChibiOS: both have the four thread hooks, only mcu-lib has the
 *          event hooks. With RK_NO_LIBRARY the demo's hooks stay (a firmware without any).
 */

#ifndef RK_CHCONF_H
#define RK_CHCONF_H

/* threads_uc and the "used" column of threads_stat. */
#if !defined(CH_DBG_STATISTICS)
#define CH_DBG_STATISTICS                   TRUE
#endif
#if !defined(CH_DBG_FILL_THREADS)
#define CH_DBG_FILL_THREADS                 TRUE
#endif

#include_next <chconf.h>

#if !defined(RK_NO_LIBRARY)
#define TIMESTAMPS_INCLUDE
#include "threads_utilities_chconf.h"

#undef CH_CFG_THREAD_EXTRA_FIELDS
#define CH_CFG_THREAD_EXTRA_FIELDS                                          \
  TIMESTAMPS_THREAD_EXTRA_FIELDS

#undef CH_CFG_THREAD_INIT_HOOK
#define CH_CFG_THREAD_INIT_HOOK(tp) {                                       \
  TIMESTAMPS_THREAD_INIT_HOOK                                               \
}

#undef CH_CFG_THREAD_EXIT_HOOK
#define CH_CFG_THREAD_EXIT_HOOK(tp) {                                       \
  TIMESTAMPS_THREAD_EXIT_HOOK(tp)                                           \
}

#undef CH_CFG_CONTEXT_SWITCH_HOOK
#define CH_CFG_CONTEXT_SWITCH_HOOK(ntp, otp) {                              \
  TIMESTAMPS_CONTEXT_SWITCH_HOOK(ntp, otp)                                  \
}

/* mcu-lib's event hooks: each expands to nothing when its option is off. */
#if defined(TIMESTAMPS_IRQ_PROLOGUE_HOOK)
#undef CH_CFG_IRQ_PROLOGUE_HOOK
#define CH_CFG_IRQ_PROLOGUE_HOOK() {                                        \
  TIMESTAMPS_IRQ_PROLOGUE_HOOK()                                            \
}

#undef CH_CFG_IRQ_EPILOGUE_HOOK
#define CH_CFG_IRQ_EPILOGUE_HOOK() {                                        \
  TIMESTAMPS_IRQ_EPILOGUE_HOOK()                                            \
}

#undef CH_CFG_IDLE_ENTER_HOOK
#define CH_CFG_IDLE_ENTER_HOOK() {                                          \
  TIMESTAMPS_IDLE_ENTER_HOOK()                                              \
}

#undef CH_CFG_IDLE_LEAVE_HOOK
#define CH_CFG_IDLE_LEAVE_HOOK() {                                          \
  TIMESTAMPS_IDLE_LEAVE_HOOK()                                              \
}
#endif

/* Wake-ups: the kernel's ready trace macro, ChibiOS/RT 7 and later (kernel tracing off). */
#if defined(THREADS_TIMESTAMPS_READY) && THREADS_TIMESTAMPS_READY
#define __trace_ready(tp, msg) TIMESTAMPS_READY_HOOK(tp)
#endif
#endif /* !RK_NO_LIBRARY */

/* On the simulator a halt prints its reason and ends the process, instead of spinning. */
#if defined(SIMULATOR) && !defined(_FROM_ASM_)
void rk_halted(const char *reason);
#undef CH_CFG_SYSTEM_HALT_HOOK
#define CH_CFG_SYSTEM_HALT_HOOK(reason) {                                   \
  rk_halted(reason);                                                        \
}
#endif

#endif /* RK_CHCONF_H */

/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file    threads_utilities_chconf.h
 * @brief   Threads utilities: the kernel hooks, and the options the library is built with.
 * @details Include from chconf.h, before CH_CFG_THREAD_EXTRA_FIELDS:
 * @code
 *   #define TIMESTAMPS_INCLUDE
 *   #include "threads_utilities_chconf.h"
 * @endcode
 *          then place the four macros in the matching kernel hooks (see README.md), and the
 *          event macros in theirs when the event options are on. The options come from the
 *          makefile (threads_utilities.mk) or from tuconf.h (see templates/tuconf.h).
 *
 * @addtogroup threads_utilities
 * @{
 */

#ifndef THREADS_UTILITIES_CHCONF_H
#define THREADS_UTILITIES_CHCONF_H

/* The firmware's options (a copy of templates/tuconf.h), when the compiler finds one; an
 * option given on the command line (-D, from the makefile's variables) wins over it. */
#if defined(__has_include)
#if __has_include("tuconf.h")
#include "tuconf.h"
#endif
#endif

/* Event options, each set to 1 by its makefile variable (threads_utilities.mk). They need
 * the timestamps log (ENABLE_THREADS_TIMESTAMPS). */
#if defined(ENABLE_THREADS_TIMESTAMPS) && defined(THREADS_TIMESTAMPS_CYCLES) && THREADS_TIMESTAMPS_CYCLES
#define TU_CYCLES 1
#else
#define TU_CYCLES 0
#endif
#if defined(ENABLE_THREADS_TIMESTAMPS) && defined(THREADS_TIMESTAMPS_IRQ) && THREADS_TIMESTAMPS_IRQ
#define TU_IRQ 1
#else
#define TU_IRQ 0
#endif
#if defined(ENABLE_THREADS_TIMESTAMPS) && defined(THREADS_TIMESTAMPS_SLEEP) && THREADS_TIMESTAMPS_SLEEP
#define TU_SLEEP 1
#else
#define TU_SLEEP 0
#endif
#if defined(ENABLE_THREADS_TIMESTAMPS) && defined(THREADS_TIMESTAMPS_READY) && THREADS_TIMESTAMPS_READY
#define TU_READY 1
#else
#define TU_READY 0
#endif
#if defined(ENABLE_THREADS_TIMESTAMPS) && defined(THREADS_TIMESTAMPS_USER) && THREADS_TIMESTAMPS_USER
#define TU_USER 1
#else
#define TU_USER 0
#endif
#if defined(ENABLE_THREADS_TIMESTAMPS) && defined(THREADS_TIMESTAMPS_CONDITIONS) && THREADS_TIMESTAMPS_CONDITIONS
#define TU_CONDITIONS 1
#else
#define TU_CONDITIONS 0
#endif
/* Continuous recording (threads_record, THREADS_TIMESTAMPS_RECORD): not an event option, the
 * dumps stay as they are. */
#if defined(ENABLE_THREADS_TIMESTAMPS) && defined(THREADS_TIMESTAMPS_RECORD) && THREADS_TIMESTAMPS_RECORD
#define TU_RECORD 1
#else
#define TU_RECORD 0
#endif
#define TU_EVENTS (TU_CYCLES || TU_IRQ || TU_SLEEP || TU_READY || TU_USER || TU_CONDITIONS)

/* To be added to CH_CFG_THREAD_EXTRA_FIELDS. tu_number is the thread's current number in the
 * timestamps log (1..63), 0 when it has none; tu_ready_at, with wake-ups recorded, when the
 * thread was last made ready (counter or tick), tu_readied whether it is waiting since. */
#if TU_READY
#define TIMESTAMPS_THREAD_EXTRA_FIELDS                                      \
  uint8_t log_this_thread;                                                  \
  uint8_t tu_number;                                                        \
  uint8_t tu_readied;                                                       \
  uint32_t tu_ready_at;
#else
#define TIMESTAMPS_THREAD_EXTRA_FIELDS                                      \
  uint8_t log_this_thread;                                                  \
  uint8_t tu_number;
#endif

/* To be added to CH_CFG_THREAD_INIT_HOOK(tp) */
#define TIMESTAMPS_THREAD_INIT_HOOK                                         \
  (tp)->log_this_thread = tuThreadLogSetting();                                  \
  tuThreadInitHook(tp);

/* To be added to CH_CFG_THREAD_EXIT_HOOK(tp) */
#define TIMESTAMPS_THREAD_EXIT_HOOK(tp)                                     \
  tuThreadExitHook(tp);

/* To be added to CH_CFG_CONTEXT_SWITCH_HOOK(ntp, otp) */
#define TIMESTAMPS_CONTEXT_SWITCH_HOOK(ntp, otp)                            \
  tuContextSwitchHook(ntp, otp);

/* To be added to CH_CFG_IRQ_PROLOGUE_HOOK() and CH_CFG_IRQ_EPILOGUE_HOOK(): every handler
 * written with CH_IRQ_PROLOGUE()/CH_IRQ_EPILOGUE() is recorded under its function name. */
#if TU_IRQ
#define TIMESTAMPS_IRQ_PROLOGUE_HOOK() {                                    \
  static uint8_t tu_irq_id_;                                                \
  tuIrqEnterHook(&tu_irq_id_, __func__);                                    \
}
#define TIMESTAMPS_IRQ_EPILOGUE_HOOK() tuIrqLeaveHook();
#else
#define TIMESTAMPS_IRQ_PROLOGUE_HOOK()
#define TIMESTAMPS_IRQ_EPILOGUE_HOOK()
#endif

/* To be added to CH_CFG_IDLE_ENTER_HOOK() and CH_CFG_IDLE_LEAVE_HOOK(). */
#if TU_SLEEP
#define TIMESTAMPS_IDLE_ENTER_HOOK() tuIdleEnterHook();
#define TIMESTAMPS_IDLE_LEAVE_HOOK() tuIdleLeaveHook();
#else
#define TIMESTAMPS_IDLE_ENTER_HOOK()
#define TIMESTAMPS_IDLE_LEAVE_HOOK()
#endif

/* Called when @tp is made ready. ChibiOS/RT 7 (21.11) and later: define the kernel's trace
 * macro with it, "#define __trace_ready(tp, msg) TIMESTAMPS_READY_HOOK(tp)" (kernel tracing
 * off). Earlier kernels have no such hook (see README.md). */
#if TU_READY
#define TIMESTAMPS_READY_HOOK(tp) tuThreadReadyHook(tp)
#else
#define TIMESTAMPS_READY_HOOK(tp) ((void) 0)
#endif

#ifdef TIMESTAMPS_INCLUDE

#if !defined(_FROM_ASM_)
#ifdef __cplusplus
extern "C" {
#endif
#include "chtypes.h"

uint8_t tuThreadLogSetting(void);
void tuContextSwitchHook(void *ntp, void *otp);
void tuThreadExitHook(void *otp);
void tuThreadInitHook(void *ntp);
void tuIrqEnterHook(uint8_t *id, const char *name);
void tuIrqLeaveHook(void);
void tuIdleEnterHook(void);
void tuIdleLeaveHook(void);
void tuThreadReadyHook(void *tp);
#ifdef __cplusplus
}
#endif
#endif /* _FROM_ASM_ */

#undef TIMESTAMPS_INCLUDE
#endif /* TIMESTAMPS_INCLUDE */

#endif /* THREADS_UTILITIES_CHCONF_H */

/** @} */

/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Kernel hooks of the threads utilities library. Include from chconf.h, before
 * CH_CFG_THREAD_EXTRA_FIELDS:
 *
 *   #define TIMESTAMPS_INCLUDE
 *   #include "threads_utilities_chconf.h"
 *
 * then place the four macros in the matching kernel hooks (see README.md).
 */

#ifndef THREADS_UTILITIES_CHCONF_H
#define THREADS_UTILITIES_CHCONF_H

/* To be added to CH_CFG_THREAD_EXTRA_FIELDS. tu_number is the thread's current number in the
 * timestamps log (1..63), 0 when it has none. */
#define TIMESTAMPS_THREAD_EXTRA_FIELDS                                      \
  uint8_t log_this_thread;                                                  \
  uint8_t tu_number;

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
#ifdef __cplusplus
}
#endif
#endif /* _FROM_ASM_ */

#undef TIMESTAMPS_INCLUDE
#endif /* TIMESTAMPS_INCLUDE */

#endif /* THREADS_UTILITIES_CHCONF_H */

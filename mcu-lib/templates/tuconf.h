/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file    templates/tuconf.h
 * @brief   Threads utilities configuration header.
 * @details Every option of the library with its default. Copy this file as tuconf.h into a
 *          folder of the firmware's include path (next to chconf.h and halconf.h) and change
 *          the values there; the library includes it when the compiler finds it. An option
 *          given on the compiler's command line (-D, as threads_utilities.mk passes the
 *          makefile's variables) wins over this file: each default here is guarded.
 * @note    Only #define lines belong here: the file is read from chconf.h, before the
 *          kernel's types exist. Use 0 and 1 (not TRUE and FALSE) for the switches, which
 *          are tested there.
 *
 * @addtogroup threads_utilities_conf
 * @{
 */

#ifndef TUCONF_H
#define TUCONF_H

/*===========================================================================*/
/* The log.                                                                  */
/*===========================================================================*/

/**
 * @brief   Enables the timestamps log (makefile: USE_THREADS_TIMESTAMPS = true).
 * @details Without it only threads_stat and threads_uc work; the other commands say that the
 *          log is not built in. Off unless defined: remove the comment marks of the line
 *          below to turn it on here.
 */
#if defined(__DOXYGEN__)
#define ENABLE_THREADS_TIMESTAMPS
#endif
/* #define ENABLE_THREADS_TIMESTAMPS */

/**
 * @brief   Records kept in the log (makefile: THREADS_TIMESTAMPS_LOG_SIZE).
 * @details 4 bytes of RAM each, 8 with @p THREADS_TIMESTAMPS_CYCLES.
 */
#if !defined(THREADS_TIMESTAMPS_LOG_SIZE) || defined(__DOXYGEN__)
#define THREADS_TIMESTAMPS_LOG_SIZE         3000
#endif

/**
 * @brief   Whether new threads are logged (makefile: THREADS_TIMESTAMPS_DEFAULT_LOG).
 * @details tuLogNextCreatedThreads() and tuDontLogNextCreatedThreads() change it at run time.
 */
#if !defined(THREADS_TIMESTAMPS_DEFAULT_LOG) || defined(__DOXYGEN__)
#define THREADS_TIMESTAMPS_DEFAULT_LOG      false
#endif

/**
 * @brief   Threads that get a number in the log (2 to 63; 62 with any event option).
 * @details Threads created when every number is taken are not logged, and counted. Default:
 *          the most the record allows.
 */
#if defined(__DOXYGEN__)
#define THREADS_TIMESTAMPS_MAX_THREADS      63
#endif

/**
 * @brief   Exited threads remembered while their exit record is in the log (1 to 255).
 */
#if !defined(THREADS_TIMESTAMPS_MAX_DELETED) || defined(__DOXYGEN__)
#define THREADS_TIMESTAMPS_MAX_DELETED      64
#endif

/**
 * @brief   Pauses of the log remembered (those that dropped switches; 1 to 255).
 */
#if !defined(THREADS_TIMESTAMPS_MAX_PAUSES) || defined(__DOXYGEN__)
#define THREADS_TIMESTAMPS_MAX_PAUSES       8
#endif

/**
 * @brief   Room for the name of an exited dynamic thread, with its final zero (0 to 64).
 * @details A dynamic thread's memory is reused after its exit: its name is copied then,
 *          unless it lies in constant storage. 0: such a name is not kept.
 */
#if !defined(THREADS_TIMESTAMPS_NAME_COPY) || defined(__DOXYGEN__)
#define THREADS_TIMESTAMPS_NAME_COPY        12
#endif

/**
 * @brief   Whether the string @p p lies in constant storage (its name need not be copied).
 * @details Default: on Cortex-M with GCC, the .rodata section of ChibiOS's linker scripts;
 *          elsewhere, never.
 */
#if defined(__DOXYGEN__)
#define THREADS_TIMESTAMPS_NAME_IS_CONSTANT(p) 0
#endif

/**
 * @brief   Linker section of the library's large arrays (the log, the thread tables).
 * @details Not defined: the default RAM section.
 */
#if defined(__DOXYGEN__)
#define THREADS_TIMESTAMP_CUSTOM_RAM_SECTION ".ram4"
#endif

/*===========================================================================*/
/* Events beyond the switches (any of them makes threads_dump print version 2).*/
/*===========================================================================*/

/**
 * @brief   Every entry carries the realtime counter (makefile: THREADS_TIMESTAMPS_CYCLES).
 * @note    Needs @p THREADS_TIMESTAMPS_COUNTER_HZ.
 */
#if !defined(THREADS_TIMESTAMPS_CYCLES) || defined(__DOXYGEN__)
#define THREADS_TIMESTAMPS_CYCLES           0
#endif

/**
 * @brief   The realtime counter's frequency in Hz (makefile: THREADS_TIMESTAMPS_COUNTER_HZ).
 * @details No default: set it with @p THREADS_TIMESTAMPS_CYCLES (e.g. 168000000, the cycle
 *          counter of a 168 MHz Cortex-M4).
 */
#if defined(__DOXYGEN__)
#define THREADS_TIMESTAMPS_COUNTER_HZ       168000000
#endif

/**
 * @brief   Enter and leave of interrupt handlers (makefile: THREADS_TIMESTAMPS_IRQ).
 */
#if !defined(THREADS_TIMESTAMPS_IRQ) || defined(__DOXYGEN__)
#define THREADS_TIMESTAMPS_IRQ              0
#endif

/**
 * @brief   A handler only counted, never logged, from start-up (its function name).
 * @details Default: none, but the RT-Posix simulator's serial driver on the simulator.
 *          tuIrqIgnore() adds handlers at run time.
 */
#if defined(__DOXYGEN__)
#define THREADS_TIMESTAMPS_IRQ_IGNORE       "sd_lld_interrupt_pending"
#endif

/**
 * @brief   The CPU going idle and what woke it (makefile: THREADS_TIMESTAMPS_SLEEP).
 */
#if !defined(THREADS_TIMESTAMPS_SLEEP) || defined(__DOXYGEN__)
#define THREADS_TIMESTAMPS_SLEEP            0
#endif

/**
 * @brief   Threads made ready: wake-up latency (makefile: THREADS_TIMESTAMPS_READY).
 * @note    ChibiOS/RT 7 (21.11) and later.
 */
#if !defined(THREADS_TIMESTAMPS_READY) || defined(__DOXYGEN__)
#define THREADS_TIMESTAMPS_READY            0
#endif

/**
 * @brief   Markers and states from application code (makefile: THREADS_TIMESTAMPS_USER).
 */
#if !defined(THREADS_TIMESTAMPS_USER) || defined(__DOXYGEN__)
#define THREADS_TIMESTAMPS_USER             0
#endif

/**
 * @brief   Condition triggers, threads_trigger_when (makefile: THREADS_TIMESTAMPS_CONDITIONS).
 */
#if !defined(THREADS_TIMESTAMPS_CONDITIONS) || defined(__DOXYGEN__)
#define THREADS_TIMESTAMPS_CONDITIONS       0
#endif

/**
 * @brief   Names of handlers, markers, channels and states kept (1 to 255).
 * @details With @p THREADS_TIMESTAMPS_IRQ or @p THREADS_TIMESTAMPS_USER.
 */
#if !defined(THREADS_TIMESTAMPS_MAX_NAMES) || defined(__DOXYGEN__)
#define THREADS_TIMESTAMPS_MAX_NAMES        32
#endif

/*===========================================================================*/
/* Continuous recording.                                                     */
/*===========================================================================*/

/**
 * @brief   The command threads_record (makefile: THREADS_TIMESTAMPS_RECORD).
 */
#if !defined(THREADS_TIMESTAMPS_RECORD) || defined(__DOXYGEN__)
#define THREADS_TIMESTAMPS_RECORD           0
#endif

/**
 * @brief   Milliseconds between two polls of a recording.
 */
#if !defined(THREADS_RECORD_POLL_MS) || defined(__DOXYGEN__)
#define THREADS_RECORD_POLL_MS              10U
#endif

/**
 * @brief   Milliseconds between two polls while bytes wait for the link.
 * @details A driver's output queue (16 bytes by default in ChibiOS) may hold less than a
 *          poll's worth of the link.
 */
#if !defined(THREADS_RECORD_BUSY_POLL_MS) || defined(__DOXYGEN__)
#define THREADS_RECORD_BUSY_POLL_MS         1U
#endif

/**
 * @brief   Bytes the recording buffers between the log and the link.
 */
#if !defined(THREADS_RECORD_BUFFER) || defined(__DOXYGEN__)
#define THREADS_RECORD_BUFFER               896U
#endif

/**
 * @brief   How threads_record reads the host's bytes: at most @p n within @p ms milliseconds.
 * @details Default: the shell's stream is a channel (a serial driver, serial over USB).
 */
#if !defined(THREADS_RECORD_READ) || defined(__DOXYGEN__)
#define THREADS_RECORD_READ(chp, buf, n, ms) \
  chnReadTimeout((BaseChannel *)(void *)(chp), (buf), (n), TIME_MS2I(ms))
#endif

/**
 * @brief   How the recording writes: at most @p n bytes, waiting at most @p ms milliseconds
 *          for room; the bytes taken.
 */
#if !defined(THREADS_RECORD_WRITE) || defined(__DOXYGEN__)
#define THREADS_RECORD_WRITE(chp, buf, n, ms) \
  chnWriteTimeout((BaseChannel *)(void *)(chp), (buf), (n), TIME_MS2I(ms))
#endif

/*===========================================================================*/
/* Names.                                                                    */
/*===========================================================================*/

/**
 * @brief   Defined: the names of the original threads_utilities_ChibiOS library (printUcUsage,
 *          cmd_threads_list...) are not defined as aliases.
 */
#if defined(__DOXYGEN__)
#define TU_NO_LEGACY_NAMES
#endif

#endif /* TUCONF_H */

/** @} */

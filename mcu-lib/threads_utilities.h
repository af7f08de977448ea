/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file    threads_utilities.h
 * @brief   Threads utilities: stack and CPU usage of the threads, and a log of the context switches
 *          (the "timestamps") read through the ChibiOS shell.
 *
 * @details
 * The timestamps log works like an oscilloscope: in run mode the switches are recorded
 * continuously in a circular buffer; once a trigger is set (from the shell, from code or from
 * an interrupt), recording continues until about half of the buffer holds records taken after
 * the trigger, then stops until run mode is restored.
 *
 * Cost: the context-switch hook does constant work whatever the number of threads; numbering
 * work is done when a thread exits.
 *
 * @addtogroup threads_utilities
 * @{
 */

#ifndef THREADS_UTILITIES_H
#define THREADS_UTILITIES_H

#include "ch.h"
#include "hal.h"
#include "chprintf.h"

#include "threads_utilities_chconf.h"

/* Version of the library and of the threads_dump format (see WIRE-FORMAT.md): version 1
 * when only switches are recorded, version 2 when any of the event options is on. */
#define THREADS_UTILITIES_VERSION       "1.1.0"
#if TU_EVENTS
#define THREADS_UTILITIES_DUMP_VERSION  2
#else
#define THREADS_UTILITIES_DUMP_VERSION  1
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Every name of the library starts with "tu". The names of the original
 * threads_utilities_ChibiOS library are kept as aliases at the end of this file. */

/********************                PUBLIC FUNCTIONS              ********************/

/* Prints the share of time used by each thread (ChibiOS statistics, CH_DBG_STATISTICS). */
void tuPrintUcUsage(BaseSequentialStream *out);

/* Prints the stack usage of the threads (ChibiOS registry; CH_DBG_FILL_THREADS for the
 * "used" column to be meaningful). */
void tuPrintStatThreads(BaseSequentialStream *out);

/********************          TIMESTAMPS PUBLIC FUNCTIONS         ********************/

/* Prints the live threads in creation order, then the exited threads still in the log. */
void tuPrintListThreads(BaseSequentialStream *out);

/* Prints the log, oldest record first. Recording is paused while printing. */
void tuPrintTimestamps(BaseSequentialStream *out);

/* Prints a header, the thread list and the log taken together with recording paused, so that
 * they always agree (see WIRE-FORMAT.md). */
void tuPrintDump(BaseSequentialStream *out);
/* The same, with the log in the compact encoding (dump version 3): about 20 times fewer
 * bytes, for slow links. */
void tuPrintDumpCompact(BaseSequentialStream *out);

/* Continuous recording (THREADS_TIMESTAMPS_RECORD = true; see WIRE-FORMAT.md): the log is
 * streamed in the compact encoding as it is written, until the host sends the stop byte or
 * stays silent for THREADS_RECORD_SILENCE_MS (it sends a keep-alive byte every second).
 * By default the switches are streamed, at tick resolution (as dump version 1: about one byte
 * each); with "events" (@events) every entry of the log, with its counter value (dump version
 * 2's, several times more bytes).
 * threads_record does it from the shell thread; a firmware with a shell of its own calls
 * tuRecordBegin() (the header; 0 when no recording can start), then tuRecordPoll() every
 * few milliseconds with the bytes the host sent meanwhile, until it returns 0 (the end line
 * printed). Output that blocks while the link is busy is what makes the log fill up: slots
 * overwritten before they were streamed are counted and reported in the stream. */
/** @brief   The byte that stops a recording: ETX, Ctrl+C. */
#define THREADS_RECORD_STOP_BYTE   3
/** @brief   Milliseconds without a byte from the host after which a recording ends. */
#define THREADS_RECORD_SILENCE_MS  3000U
/** @brief   Milliseconds between two polls of a recording (see templates/tuconf.h). */
#ifndef THREADS_RECORD_POLL_MS
#define THREADS_RECORD_POLL_MS     10U
#endif
/**
 * @brief   The poll's period while the recording holds bytes the link has not taken yet.
 * @details A driver's output queue (16 bytes by default in ChibiOS) may hold less than a
 *          poll's worth of the link.
 */
#ifndef THREADS_RECORD_BUSY_POLL_MS
#define THREADS_RECORD_BUSY_POLL_MS 1U
#endif
/**
 * @brief   How threads_record reads the host's bytes: at most @p n within @p ms milliseconds.
 * @details The shell's stream of a ChibiOS board is a channel (a serial driver, serial over
 *          USB).
 */
#ifndef THREADS_RECORD_READ
#define THREADS_RECORD_READ(chp, buf, n, ms) \
  chnReadTimeout((BaseChannel *)(void *)(chp), (buf), (n), TIME_MS2I(ms))
#endif
/**
 * @brief   How the recording writes: at most @p n bytes, waiting at most @p ms milliseconds
 *          for room (0: only what the output queue has room for now); the bytes taken.
 * @details While streaming, the recording prints into a buffer of its own
 *          (@p THREADS_RECORD_BUFFER bytes) and each poll moves what the channel takes without
 *          waiting, so that the shell thread does not wake for every byte the driver sends;
 *          only the end waits for the rest.
 */
#ifndef THREADS_RECORD_WRITE
#define THREADS_RECORD_WRITE(chp, buf, n, ms) \
  chnWriteTimeout((BaseChannel *)(void *)(chp), (buf), (n), TIME_MS2I(ms))
#endif
/** @brief   Bytes the recording buffers between the log and the link. */
#ifndef THREADS_RECORD_BUFFER
#define THREADS_RECORD_BUFFER      896U
#endif
int tuRecordBegin(BaseSequentialStream *out, int events);
int tuRecordPoll(BaseSequentialStream *out, const uint8_t *input, size_t n);
/* Milliseconds until the next tuRecordPoll() is due: THREADS_RECORD_BUSY_POLL_MS while bytes
 * wait for the link, else THREADS_RECORD_POLL_MS. */
uint32_t tuRecordPollMs(void);

/* The calling thread is logged / no longer logged. Best called first thing in the thread. */
void tuLogThisThread(void);
void tuDontLogThisThread(void);

/* Threads created from now on are logged / not logged. Callable before chSysInit(). */
void tuLogNextCreatedThreads(void);
void tuDontLogNextCreatedThreads(void);

/* Sets the trigger; does nothing if a trigger is already set. Returns the name of the
 * trigger in effect. The I variant is for locked contexts and interrupt handlers (between
 * chSysLockFromISR() and chSysUnlockFromISR()). */
const char *tuSetTrigger(const char *trigger_name);
const char *tuSetTriggerI(const char *trigger_name);

/* Removes the trigger, empties the log and the exited-thread history and records again.
 * Does nothing when no trigger is set. */
void tuResetTrigger(void);
void tuResetTriggerI(void);

/********************               EVENTS PUBLIC FUNCTIONS            ********************/

/* A name registered once (a marker, a state channel or a state), listed in threads_dump;
 * 0 when the name table is full (THREADS_TIMESTAMPS_MAX_NAMES), and then every call that
 * takes it does nothing. Registering the same name again returns the same id. */
typedef uint8_t tuname_t;

/* User events (THREADS_TIMESTAMPS_USER = true), from threads; the I variants from locked
 * contexts and interrupt handlers. Without the option they do nothing. */
tuname_t tuRegisterMarker(const char *name);
tuname_t tuRegisterChannel(const char *name);
tuname_t tuRegisterState(const char *name);
tuname_t tuRegisterMarkerI(const char *name);
tuname_t tuRegisterChannelI(const char *name);
tuname_t tuRegisterStateI(const char *name);

/* An instant marker with a value. */
void tuMarker(tuname_t marker, uint32_t value);
void tuMarkerI(tuname_t marker, uint32_t value);
/* A state begins on a channel (above the states already begun there: states nest), and the
 * newest state of a channel ends. */
void tuStateBegin(tuname_t channel, tuname_t state);
void tuStateBeginI(tuname_t channel, tuname_t state);
void tuStateEnd(tuname_t channel);
void tuStateEndI(tuname_t channel);

/* A marker named by a string literal, registered on its first use. */
#define TU_MARKER(name, value) do {                                         \
  static tuname_t tu_marker_id_;                                            \
  if (tu_marker_id_ == 0U)                                                  \
    tu_marker_id_ = tuRegisterMarker(name);                                 \
  tuMarker(tu_marker_id_, (value));                                         \
} while (0)

/* Condition triggers (THREADS_TIMESTAMPS_CONDITIONS = true): the trigger is set by the first
 * event that meets the condition, then the log freezes half a log later as with any trigger.
 * @limit is in microseconds for TU_WHEN_LATENCY (made ready to running), TU_WHEN_RUN (a run
 * of a thread) and TU_WHEN_IRQ (an interrupt handler, enter to leave): the condition holds
 * when the time is above it. For TU_WHEN_MARKER, @limit is the value the marker must carry,
 * or TU_ANY_VALUE. @name restricts it to one thread, interrupt handler (its function name)
 * or marker; NULL: any (a marker condition needs a name). The name is copied. Returns 0, or
 * -1 when the condition cannot be set (option off, the event kind not recorded, bad name).
 * TU_WHEN_OFF removes the condition (the trigger already set stays). */
typedef enum {
  TU_WHEN_OFF = 0,
  TU_WHEN_LATENCY,
  TU_WHEN_RUN,
  TU_WHEN_IRQ,
  TU_WHEN_MARKER
} tu_when_t;

#define TU_ANY_VALUE 0xFFFFFFFFU

int tuTriggerWhen(tu_when_t what, uint32_t limit, const char *name);

/* The interrupt handler @name (its function name, as the IRQ hooks see it) is only counted
 * from now on, not logged: the handler of the link that carries the shell, which runs for
 * every byte or packet the board sends, would otherwise fill a recording with its own output.
 * Its calls are reported ("Counted handler:" lines of threads_dump and threads_record events).
 * 0, or -1 when the name table is full or handlers are not recorded (THREADS_TIMESTAMPS_IRQ). */
int tuIrqIgnore(const char *name);

/* Appends an entry to the log as given (a record word, the counter, the payload; see
 * WIRE-FORMAT.md). Only for host programs that re-encode saved logs; never on a board. */
void tuReplayEntry(uint32_t record, uint32_t counter, uint32_t a, uint32_t b);

/* Forgets every thread and empties the log, back to the state at boot. Only for host
 * programs and tests that restart a simulated kernel; never needed on a board. */
void tuResetState(void);

/********************                SHELL FUNCTIONS               ********************/

void tuCmdThreadsList(BaseSequentialStream *chp, int argc, char *argv[]);
void tuCmdThreadsTimestampsTrigger(BaseSequentialStream *chp, int argc, char *argv[]);
void tuCmdThreadsTimestampsRun(BaseSequentialStream *chp, int argc, char *argv[]);
void tuCmdThreadsTimestamps(BaseSequentialStream *chp, int argc, char *argv[]);
void tuCmdThreadsStat(BaseSequentialStream *chp, int argc, char *argv[]);
void tuCmdThreadsUc(BaseSequentialStream *chp, int argc, char *argv[]);
void tuCmdThreadsDump(BaseSequentialStream *chp, int argc, char *argv[]);
void tuCmdThreadsTriggerWhen(BaseSequentialStream *chp, int argc, char *argv[]);
void tuCmdThreadsDumpCompact(BaseSequentialStream *chp, int argc, char *argv[]);
void tuCmdThreadsRecord(BaseSequentialStream *chp, int argc, char *argv[]);

#if TU_CONDITIONS
#define TU_CONDITIONS_SHELL_CMD                                             \
  {"threads_trigger_when", tuCmdThreadsTriggerWhen},
#else
#define TU_CONDITIONS_SHELL_CMD
#endif

#if TU_RECORD
#define TU_RECORD_SHELL_CMD                                                 \
  {"threads_record", tuCmdThreadsRecord},
#else
#define TU_RECORD_SHELL_CMD
#endif

#define THREADS_UTILITIES_SHELL_CMD                                         \
  {"threads_list", tuCmdThreadsList},                                       \
  {"threads_timestamps", tuCmdThreadsTimestamps},                           \
  {"threads_timestamps_trigger", tuCmdThreadsTimestampsTrigger},            \
  {"threads_timestamps_run", tuCmdThreadsTimestampsRun},                    \
  {"threads_stat", tuCmdThreadsStat},                                       \
  {"threads_uc", tuCmdThreadsUc},                                           \
  {"threads_dump", tuCmdThreadsDump},                                       \
  {"threads_dump_compact", tuCmdThreadsDumpCompact},                        \
  TU_CONDITIONS_SHELL_CMD                                                   \
  TU_RECORD_SHELL_CMD

#ifdef __cplusplus
}
#endif

/********************   NAMES OF threads_utilities_ChibiOS (ALIASES)   ********************/

/* Code written for the original library builds unchanged. Define TU_NO_LEGACY_NAMES before
 * including this file to keep these names free. */
#ifndef TU_NO_LEGACY_NAMES
#define printUcUsage                        tuPrintUcUsage
#define printStatThreads                    tuPrintStatThreads
#define printListThreads                    tuPrintListThreads
#define printTimestampsThread               tuPrintTimestamps
#define printDumpThreads                    tuPrintDump
#define logThisThreadTimestamps             tuLogThisThread
#define dontLogThisThreadTimestamps         tuDontLogThisThread
#define logNextCreatedThreadsTimestamps     tuLogNextCreatedThreads
#define dontLogNextCreatedThreadsTimestamps tuDontLogNextCreatedThreads
#define setTriggerTimestamps                tuSetTrigger
#define setTriggerTimestampsI               tuSetTriggerI
#define resetTriggerTimestamps              tuResetTrigger
#define resetTriggerTimestampsI             tuResetTriggerI
#define threadsUtilitiesResetState          tuResetState
#define cmd_threads_list                    tuCmdThreadsList
#define cmd_threads_timestamps              tuCmdThreadsTimestamps
#define cmd_threads_timestamps_trigger      tuCmdThreadsTimestampsTrigger
#define cmd_threads_timestamps_run          tuCmdThreadsTimestampsRun
#define cmd_threads_stat                    tuCmdThreadsStat
#define cmd_threads_uc                      tuCmdThreadsUc
#define cmd_threads_dump                    tuCmdThreadsDump
#endif

#endif /* THREADS_UTILITIES_H */

/** @} */

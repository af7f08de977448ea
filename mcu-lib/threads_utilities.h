/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Threads utilities: stack and CPU usage of the threads, and a log of the context switches
 * (the "timestamps") read through the ChibiOS shell.
 *
 * The timestamps log works like an oscilloscope: in run mode the switches are recorded
 * continuously in a circular buffer; once a trigger is set (from the shell, from code or from
 * an interrupt), recording continues until about half of the buffer holds records taken after
 * the trigger, then stops until run mode is restored.
 *
 * Cost: the context-switch hook does constant work whatever the number of threads; numbering
 * work is done when a thread exits.
 */

#ifndef THREADS_UTILITIES_H
#define THREADS_UTILITIES_H

#include "ch.h"
#include "hal.h"
#include "chprintf.h"

/* Version of the library and of the threads_dump format (see WIRE-FORMAT.md). */
#define THREADS_UTILITIES_VERSION       "1.0.0"
#define THREADS_UTILITIES_DUMP_VERSION  1

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

#define THREADS_UTILITIES_SHELL_CMD                                         \
  {"threads_list", tuCmdThreadsList},                                       \
  {"threads_timestamps", tuCmdThreadsTimestamps},                           \
  {"threads_timestamps_trigger", tuCmdThreadsTimestampsTrigger},            \
  {"threads_timestamps_run", tuCmdThreadsTimestampsRun},                    \
  {"threads_stat", tuCmdThreadsStat},                                       \
  {"threads_uc", tuCmdThreadsUc},                                           \
  {"threads_dump", tuCmdThreadsDump},

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

/* SPDX-License-Identifier: GPL-3.0-or-later */
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

/********************                PUBLIC FUNCTIONS              ********************/

/* Prints the share of time used by each thread (ChibiOS statistics, CH_DBG_STATISTICS). */
void printUcUsage(BaseSequentialStream *out);

/* Prints the stack usage of the threads (ChibiOS registry; CH_DBG_FILL_THREADS for the
 * "used" column to be meaningful). */
void printStatThreads(BaseSequentialStream *out);

/********************          TIMESTAMPS PUBLIC FUNCTIONS         ********************/

/* Prints the live threads in creation order, then the exited threads still in the log. */
void printListThreads(BaseSequentialStream *out);

/* Prints the log, oldest record first. Recording is paused while printing. */
void printTimestampsThread(BaseSequentialStream *out);

/* Prints a header, the thread list and the log taken together with recording paused, so that
 * they always agree (see WIRE-FORMAT.md). */
void printDumpThreads(BaseSequentialStream *out);

/* The calling thread is logged / no longer logged. Best called first thing in the thread. */
void logThisThreadTimestamps(void);
void dontLogThisThreadTimestamps(void);

/* Threads created from now on are logged / not logged. Callable before chSysInit(). */
void logNextCreatedThreadsTimestamps(void);
void dontLogNextCreatedThreadsTimestamps(void);

/* Sets the trigger; does nothing if a trigger is already set. Returns the name of the
 * trigger in effect. The I variant is for locked contexts and interrupt handlers (between
 * chSysLockFromISR() and chSysUnlockFromISR()). */
const char *setTriggerTimestamps(const char *trigger_name);
const char *setTriggerTimestampsI(const char *trigger_name);

/* Removes the trigger, empties the log and the exited-thread history and records again.
 * Does nothing when no trigger is set. */
void resetTriggerTimestamps(void);
void resetTriggerTimestampsI(void);

/* Forgets every thread and empties the log, back to the state at boot. Only for host
 * programs and tests that restart a simulated kernel; never needed on a board. */
void threadsUtilitiesResetState(void);

/********************                SHELL FUNCTIONS               ********************/

void cmd_threads_list(BaseSequentialStream *chp, int argc, char *argv[]);
void cmd_threads_timestamps_trigger(BaseSequentialStream *chp, int argc, char *argv[]);
void cmd_threads_timestamps_run(BaseSequentialStream *chp, int argc, char *argv[]);
void cmd_threads_timestamps(BaseSequentialStream *chp, int argc, char *argv[]);
void cmd_threads_stat(BaseSequentialStream *chp, int argc, char *argv[]);
void cmd_threads_uc(BaseSequentialStream *chp, int argc, char *argv[]);
void cmd_threads_dump(BaseSequentialStream *chp, int argc, char *argv[]);

#define THREADS_UTILITIES_SHELL_CMD                                         \
  {"threads_list", cmd_threads_list},                                       \
  {"threads_timestamps", cmd_threads_timestamps},                           \
  {"threads_timestamps_trigger", cmd_threads_timestamps_trigger},           \
  {"threads_timestamps_run", cmd_threads_timestamps_run},                   \
  {"threads_stat", cmd_threads_stat},                                       \
  {"threads_uc", cmd_threads_uc},                                           \
  {"threads_dump", cmd_threads_dump},

#endif /* THREADS_UTILITIES_H */

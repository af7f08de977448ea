/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file    tu_shell.c
 * @brief   Threads utilities: the shell commands.
 *
 * @addtogroup threads_utilities
 * @{
 */

#include "tu_internal.h"

/********************                SHELL FUNCTIONS               ********************/

/* A command that takes no argument: given some, it answers with its usage. */
static int tu_no_arguments(BaseSequentialStream *chp, int argc, const char *name) {
  if (argc > 0) {
    shellUsage(chp, name);
    return 0;
  }
  return 1;
}

/**
 * @brief   Shell command threads_list.
 *
 * @param[in] chp       the shell's stream
 * @param[in] argc      the number of arguments
 * @param[in] argv      the arguments
 *
 * @api
 */
void tuCmdThreadsList(BaseSequentialStream *chp, int argc, char *argv[]) {
  (void)argv;
  if (tu_no_arguments(chp, argc, "threads_list"))
    tuPrintListThreads(chp);
}

/**
 * @brief   Shell command threads_timestamps_trigger: sets the trigger.
 *
 * @param[in] chp       the shell's stream
 * @param[in] argc      the number of arguments
 * @param[in] argv      the arguments
 *
 * @api
 */
void tuCmdThreadsTimestampsTrigger(BaseSequentialStream *chp, int argc, char *argv[]) {
  (void)argv;
  if (!tu_no_arguments(chp, argc, "threads_timestamps_trigger"))
    return;
#ifdef ENABLE_THREADS_TIMESTAMPS
  {
    const char *name;
    uint32_t time;

    /* Name and tick read together: an interrupt may set or reset the trigger meanwhile. */
    chSysLock();
    name = tuSetTriggerI("Shell command");
    time = tu_trigger_time;
    chSysUnlock();
    chprintf(chp, "Trigger set by %s at %7d" TU_NL, TU_NONAME(name), (int)time);
  }
#else
  chprintf(chp, "%s", tu_no_timestamps_message);
#endif
}

/**
 * @brief   Shell command threads_timestamps_run: back to run mode.
 *
 * @param[in] chp       the shell's stream
 * @param[in] argc      the number of arguments
 * @param[in] argv      the arguments
 *
 * @api
 */
void tuCmdThreadsTimestampsRun(BaseSequentialStream *chp, int argc, char *argv[]) {
  (void)argv;
  if (!tu_no_arguments(chp, argc, "threads_timestamps_run"))
    return;
#ifdef ENABLE_THREADS_TIMESTAMPS
  tuResetTrigger();
  chprintf(chp, "Run mode" TU_NL);
#else
  chprintf(chp, "%s", tu_no_timestamps_message);
#endif
}

/**
 * @brief   Shell command threads_timestamps: the log's switches.
 *
 * @param[in] chp       the shell's stream
 * @param[in] argc      the number of arguments
 * @param[in] argv      the arguments
 *
 * @api
 */
void tuCmdThreadsTimestamps(BaseSequentialStream *chp, int argc, char *argv[]) {
  (void)argv;
  if (tu_no_arguments(chp, argc, "threads_timestamps"))
    tuPrintTimestamps(chp);
}

/**
 * @brief   Shell command threads_dump.
 *
 * @param[in] chp       the shell's stream
 * @param[in] argc      the number of arguments
 * @param[in] argv      the arguments
 *
 * @api
 */
void tuCmdThreadsDump(BaseSequentialStream *chp, int argc, char *argv[]) {
  (void)argv;
  if (tu_no_arguments(chp, argc, "threads_dump"))
    tuPrintDump(chp);
}

/**
 * @brief   Shell command threads_dump_compact.
 *
 * @param[in] chp       the shell's stream
 * @param[in] argc      the number of arguments
 * @param[in] argv      the arguments
 *
 * @api
 */
void tuCmdThreadsDumpCompact(BaseSequentialStream *chp, int argc, char *argv[]) {
  (void)argv;
  if (tu_no_arguments(chp, argc, "threads_dump_compact"))
    tuPrintDumpCompact(chp);
}

/**
 * @brief   Shell command threads_record [events]: streams the log until the host stops it.
 *
 * @param[in] chp       the shell's stream
 * @param[in] argc      the number of arguments
 * @param[in] argv      the arguments
 *
 * @note    Needs @p THREADS_TIMESTAMPS_RECORD.
 *
 * @api
 */
void tuCmdThreadsRecord(BaseSequentialStream *chp, int argc, char *argv[]) {
  int events = argc == 1 && strcmp(argv[0], "events") == 0;

  if (argc > 1 || (argc == 1 && events == 0)) {
    shellUsage(chp, "threads_record [events]");
    return;
  }
#if TU_RECORD
  if (tuRecordBegin(chp, events) == 0)
    return;
  for (;;) {
    uint8_t input[8];
    size_t n = THREADS_RECORD_READ(chp, input, sizeof input, tuRecordPollMs());

    if (tuRecordPoll(chp, input, n) == 0)
      break;
  }
#else
  chprintf(chp, "%s", tu_no_record_message);
#endif
}

#if TU_CONDITIONS
/* Reads a decimal number no larger than 2^32 - 2; -1 otherwise. */
static int tu_parse_number(const char *text, uint32_t *value) {
  uint64_t v = 0;

  if (*text == '\0')
    return -1;
  for (; *text != '\0'; text++) {
    if (*text < '0' || *text > '9')
      return -1;
    v = v * 10U + (uint64_t)(*text - '0');
    if (v >= TU_ANY_VALUE)
      return -1;
  }
  *value = (uint32_t)v;
  return 0;
}

static void tu_when_usage(BaseSequentialStream *chp) {
  shellUsage(
      chp, "threads_trigger_when latency|run|irq MICROSECONDS [NAME] | marker NAME [VALUE] | off");
}
#endif

#if TU_CONDITIONS
/* threads_trigger_when without arguments: the condition and the log's mode, as the dump's
 * header prints them (a host waiting for the board to freeze asks this, not for a whole
 * dump). */
static void tu_when_status(BaseSequentialStream *chp) {
  char text[sizeof tu_when_text];
  uint8_t triggered, frozen;

  chSysLock();
  memcpy(text, tu_when_text, sizeof text);
  triggered = tu_triggered;
  frozen = tu_frozen;
  chSysUnlock();
  chprintf(chp, "Condition: %s" TU_NL, text[0] != '\0' ? text : "none");
  chprintf(chp, "Mode: %s" TU_NL, triggered == 0U ? "run" : frozen != 0U ? "frozen" : "armed");
}

/* Reads the arguments of threads_trigger_when into @w, @limit and @name; -1 when they are not
 * a condition. */
static int tu_when_parse(int argc, char *argv[], unsigned *w, uint32_t *limit, const char **name) {
  unsigned i;

  for (i = 0; i < sizeof tu_when_words / sizeof tu_when_words[0]; i++) {
    if (strcmp(argv[0], tu_when_words[i]) == 0) {
      break;
    }
  }
  *w = i;
  if (i == TU_WHEN_OFF && argc == 1) {
    return 0;
  }
  if (argc != 2 && argc != 3) {
    return -1;
  }
  if (i == TU_WHEN_MARKER && (argc == 2 || tu_parse_number(argv[2], limit) == 0)) {
    *name = argv[1];
    return 0;
  }
  if (i > TU_WHEN_OFF && i < TU_WHEN_MARKER && tu_parse_number(argv[1], limit) == 0) {
    *name = argc == 3 ? argv[2] : NULL;
    return 0;
  }
  return -1;
}
#endif

/**
 * @brief   Shell command threads_trigger_when: sets, shows or removes a condition trigger.
 *
 * @param[in] chp       the shell's stream
 * @param[in] argc      the number of arguments
 * @param[in] argv      the arguments
 *
 * @note    Needs @p THREADS_TIMESTAMPS_CONDITIONS.
 *
 * @api
 */
void tuCmdThreadsTriggerWhen(BaseSequentialStream *chp, int argc, char *argv[]) {
#if TU_CONDITIONS
  uint32_t limit = TU_ANY_VALUE;
  unsigned w;
  const char *name = NULL;

  if (argc == 0) {
    tu_when_status(chp);
    return;
  }
  if (tu_when_parse(argc, argv, &w, &limit, &name) != 0) {
    tu_when_usage(chp);
    return;
  }
  if (tuTriggerWhen((tu_when_t)w, limit, name) != 0) {
    chprintf(chp, "This condition is not available on this board (or the name is too long)" TU_NL);
    return;
  }
  chprintf(chp, "Condition: %s" TU_NL, tu_when_text[0] != '\0' ? tu_when_text : "none");
#else
  (void)argc;
  (void)argv;
  chprintf(chp, "Condition triggers are disabled (THREADS_TIMESTAMPS_CONDITIONS)" TU_NL);
#endif
}

/**
 * @brief   Shell command threads_stat: the stack usage of the threads.
 *
 * @param[in] chp       the shell's stream
 * @param[in] argc      the number of arguments
 * @param[in] argv      the arguments
 *
 * @api
 */
void tuCmdThreadsStat(BaseSequentialStream *chp, int argc, char *argv[]) {
  (void)argc;
  (void)argv;
  tuPrintStatThreads(chp);
}

/**
 * @brief   Shell command threads_uc: the share of time of the threads.
 *
 * @param[in] chp       the shell's stream
 * @param[in] argc      the number of arguments
 * @param[in] argv      the arguments
 *
 * @api
 */
void tuCmdThreadsUc(BaseSequentialStream *chp, int argc, char *argv[]) {
  (void)argc;
  (void)argv;
  tuPrintUcUsage(chp);
}

/** @} */

/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file    tu_trigger.c
 * @brief   Threads utilities: the trigger, run mode, and the condition triggers.
 *
 * @addtogroup threads_utilities
 * @{
 */

#include "tu_internal.h"

#ifdef ENABLE_THREADS_TIMESTAMPS
static const char *tu_set_trigger(const char *trigger_name);
#endif

#ifdef ENABLE_THREADS_TIMESTAMPS

#if TU_CONDITIONS
/* The condition held: sets the trigger (once), remembering the time that exceeded it. */
void tu_fire(uint32_t measured) {
  /* Only while recording: an event met while the log is paused (being printed) is not in
   * the log, and a capture frozen around it would not show it. */
  if (tu_triggered != 0U || tu_active == 0U)
    return;
  tu_when_fired = 1U;
  tu_when_measured_us =
      tu_when == TU_WHEN_MARKER ? measured : (uint32_t)((uint64_t)measured * 1000000U / TU_NOW_HZ);
  memcpy(tu_fired_text, tu_when_text, sizeof tu_fired_text);
  (void)tu_set_trigger(tu_fired_text);
}

static int tu_when_names(const char *name) {
  return tu_when_name[0] == '\0' || (name != NULL && strcmp(name, tu_when_name) == 0);
}

/* A switch from @out to @in: the wait of @in since it was made ready, the run of @out. */
TU_COLD void tu_check_switch(thread_t *in, const thread_t *out) {
  uint32_t now = TU_NOW();

  if (tu_when == TU_WHEN_RUN) {
    uint32_t run = now - tu_run_since;

    tu_run_since = now;
    if (run > tu_when_limit && tu_when_names(TU_NAME(out)))
      tu_fire(run);
  }
#if TU_READY
  else if (in->tu_readied != 0U && now - in->tu_ready_at > tu_when_limit &&
           tu_when_names(TU_NAME(in)))
    tu_fire(now - in->tu_ready_at);
  /* Waiting no more (the flag is only kept up to date while a condition is set). */
  in->tu_readied = 0U;
#endif
  (void)in;
}

#if TU_IRQ
TU_COLD void tu_irq_entered(uint8_t id) {
  if (tu_irq_depth < TU_MAX_NESTING) {
    tu_irq_stack[tu_irq_depth] = id;
    tu_irq_since[tu_irq_depth] = TU_NOW();
  }
  tu_irq_depth++;
}

/* The innermost handler leaves: whether it lasted too long. */
TU_COLD void tu_check_irq(void) {
  uint8_t id;
  uint32_t length;

  if (tu_irq_depth == 0U)
    return;
  tu_irq_depth--;
  if (tu_irq_depth >= TU_MAX_NESTING)
    return;
  id = tu_irq_stack[tu_irq_depth];
  length = TU_NOW() - tu_irq_since[tu_irq_depth];
  if (length > tu_when_limit && (tu_when_name[0] == '\0' || (id != 0U && id == tu_when_id)))
    tu_fire(length);
}
#endif
#endif /* TU_CONDITIONS */

#endif /* ENABLE_THREADS_TIMESTAMPS */

/**
 * @brief   Sets the trigger, from a locked context or an interrupt handler.
 *
 * @param[in] trigger_name the trigger's name, kept by pointer
 * @return              the name of the trigger in effect (an earlier one stays).
 *
 * @details The log goes on until about half of it holds entries after the trigger, then
 *          freezes until run mode.
 *
 * @iclass
 */
const char *tuSetTriggerI(const char *trigger_name) {
#ifdef ENABLE_THREADS_TIMESTAMPS
  chDbgCheckClassI();
  return tu_set_trigger(trigger_name);
#else
  (void)trigger_name;
  return NULL;
#endif
}

#ifdef ENABLE_THREADS_TIMESTAMPS
/* tuSetTriggerI() without the class check: the IRQ hooks run outside the kernel's view of
 * the handler (before its enter check, after its leave check). */
static const char *tu_set_trigger(const char *trigger_name) {
  if (tu_triggered == 0U) {
#if TU_EVENTS
    tu_event(TU_EV_TRIGGER, 0, 0);
#endif
    tu_trigger_name = trigger_name;
    tu_triggered = 1U;
    tu_trigger_time = (uint32_t)chVTGetSystemTimeX();
    tu_trigger_seq = tu_written;
    if (tu_count <= TU_LOG_SIZE / 2U) {
      /* Triggered before the log is half full: use the whole remaining room. */
      tu_freeze_at = tu_written + (TU_LOG_SIZE - tu_count);
    } else {
      tu_freeze_at = tu_written + TU_LOG_SIZE / 2U;
    }
#if TU_RECORD
    /* While recording, the log fills from the trigger on only once the recording ends. */
    if (tu_recording != 0U)
      tu_freeze_at = tu_written + TU_FREEZE_NEVER;
#endif
    if (tu_freeze_at == tu_written)
      tu_freeze();
    else
      tu_window();
  }
  return tu_trigger_name;
}
#endif

/**
 * @brief   Sets the trigger.
 *
 * @param[in] trigger_name the trigger's name, kept by pointer
 * @return              the name of the trigger in effect (an earlier one stays).
 *
 * @api
 */
const char *tuSetTrigger(const char *trigger_name) {
#ifdef ENABLE_THREADS_TIMESTAMPS
  const char *name;

  chSysLock();
  name = tuSetTriggerI(trigger_name);
  chSysUnlock();
  return name;
#else
  (void)trigger_name;
  return NULL;
#endif
}

/**
 * @brief   Back to run mode, from a locked context: removes the trigger and empties the log.
 *
 * @note    Does nothing when no trigger is set.
 *
 * @iclass
 */
void tuResetTriggerI(void) {
#ifdef ENABLE_THREADS_TIMESTAMPS
  chDbgCheckClassI();

  if (tu_triggered != 0U) {
    tu_triggered = 0;
    tu_frozen = 0;
    tu_trigger_time = 0;
    tu_trigger_name = NULL;
    tu_freeze_at = 0;
#if TU_CONDITIONS
    tu_when_fired = 0;
#endif
    /* Old records would leave a gap and unpaired switches: start a new log. */
    tu_clear_log();
    if (tu_hold_count == 0U)
      tu_purge_held();
    tu_update_active();
  }
#endif
}

/**
 * @brief   Back to run mode: removes the trigger and empties the log.
 *
 * @note    Does nothing when no trigger is set.
 *
 * @api
 */
void tuResetTrigger(void) {
#ifdef ENABLE_THREADS_TIMESTAMPS
  chSysLock();
  tuResetTriggerI();
  chSysUnlock();
#endif
}

/********************              CONDITION TRIGGERS              ********************/

#if TU_CONDITIONS
const char *const tu_when_words[TU_WHEN_MARKER + 1] = { "off", "latency", "run", "irq", "marker" };

/* Whether the condition @what with @limit and a name of @len characters can be set here. */
static int tu_when_valid(tu_when_t what, uint32_t limit, size_t len) {
  if ((unsigned)what > (unsigned)TU_WHEN_MARKER || len >= sizeof tu_when_name) {
    return 0;
  }
  switch (what) {
    case TU_WHEN_OFF:
      return 1;
    case TU_WHEN_MARKER:
      return TU_USER && len != 0U;
    case TU_WHEN_LATENCY:
      if (!TU_READY) {
        return 0;
      }
      break;
    case TU_WHEN_IRQ:
      if (!TU_IRQ) {
        return 0;
      }
      break;
    case TU_WHEN_RUN:
    default:
      break;
  }
  /* A limit the 32-bit counter cannot measure (above 2^32 counts). */
  return (uint64_t)limit * TU_NOW_HZ <= 0xFFFFFFFFULL * 1000000U;
}

/* The condition in words, as the dump's header and threads_trigger_when print it. */
static void tu_when_describe(char *text, size_t size, tu_when_t what, uint32_t limit,
                             const char *name, size_t len) {
  if (what == TU_WHEN_OFF) {
    text[0] = '\0';
  } else if (what == TU_WHEN_MARKER) {
    if (limit == TU_ANY_VALUE) {
      chsnprintf(text, size, "marker %s", name);
    } else {
      chsnprintf(text, size, "marker %s = %lu", name, (unsigned long)limit);
    }
  } else {
    chsnprintf(text, size, "%s above %lu us%s%s", tu_when_words[what], (unsigned long)limit,
               len != 0U ? " of " : "", len != 0U ? name : "");
  }
}

/* The id of the handler or marker @name a condition of @what names, 0 when it is not
 * registered yet (it is then found at its registration). Locked. */
static uint8_t tu_when_find(tu_when_t what, const char *name, size_t len) {
  uint8_t id = 0;
#if TU_NAMES
  if (len != 0U && (what == TU_WHEN_IRQ || what == TU_WHEN_MARKER)) {
    uint8_t i, kind = (uint8_t)(what == TU_WHEN_IRQ ? TU_NAME_IRQ : TU_NAME_MARKER);

    for (i = 0; i < tu_n_names; i++) {
      if (tu_name_kinds[i] == kind && strcmp(tu_names[i], name) == 0) {
        id = (uint8_t)(i + 1U);
      }
    }
  }
#else
  (void)what;
  (void)name;
  (void)len;
#endif
  return id;
}

/* Wake-ups before now are forgotten: the flags were not kept while no condition was set. */
static void tu_when_forget_wakeups(void) {
#if TU_READY && (CH_CFG_USE_REGISTRY == TRUE)
  thread_t *tp;

  for (tp = chRegFirstThread(); tp != NULL; tp = chRegNextThread(tp)) {
    tp->tu_readied = 0U;
  }
#endif
}
#endif /* TU_CONDITIONS */

/**
 * @brief   Sets a condition trigger: the first event that meets it sets the trigger.
 *
 * @param[in] what      the condition's kind (@p TU_WHEN_OFF removes it)
 * @param[in] limit     microseconds (latency, run, irq), or the marker's value or
 *                      @p TU_ANY_VALUE
 * @param[in] name      the thread, handler or marker it is restricted to; NULL: any (copied)
 * @return              0, or -1 when the condition cannot be set here.
 *
 * @note    Needs @p THREADS_TIMESTAMPS_CONDITIONS.
 *
 * @api
 */
int tuTriggerWhen(tu_when_t what, uint32_t limit, const char *name) {
#if TU_CONDITIONS
  char text[sizeof tu_when_text];
  size_t len = name != NULL ? strlen(name) : 0U;

  if (!tu_when_valid(what, limit, len)) {
    return -1;
  }
  tu_when_describe(text, sizeof text, what, limit, name, len);

  chSysLock();
  tu_when_id = tu_when_find(what, name, len);
  tu_when = (uint8_t)what;
#if TU_IRQ
  tu_irq_depth = 0;
#endif
  tu_when_on_switch = (uint8_t)(what == TU_WHEN_LATENCY || what == TU_WHEN_RUN);
  tu_when_us = limit;
  tu_when_limit = what == TU_WHEN_MARKER
                      ? limit
                      : (uint32_t)(((uint64_t)limit * TU_NOW_HZ + 999999U) / 1000000U);
  memcpy(tu_when_name, name != NULL ? name : "", len + 1U);
  memcpy(tu_when_text, text, sizeof text);
  tu_run_since = TU_NOW();
  tu_window();
  chSysUnlock();
  tu_when_forget_wakeups();
  return 0;
#else
  (void)what;
  (void)limit;
  (void)name;
  return -1;
#endif
}

/** @} */

/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file    threads_utilities.c
 * @brief   Threads utilities: stack and CPU usage of the threads and a log of the context switches.
 *
 * @details
 * Plain C99, no allocation. The context-switch hook does constant work: every thread keeps
 * its current number in its extra fields (tu_number), so a record is built from the two
 * threads' fields without walking any list. Numbers change only when a thread exits, which
 * is rare: the threads created after it are renumbered then.
 *
 * Each record is one 32-bit word:
 *   bits 31..12  system tick (its low 20 bits, wrapping every 1,048,576 ticks; with a 16-bit
 *                system time, all of it, wrapping every 65,536 ticks: TU_TICK_BITS)
 *   bits 11..6   number of the thread switched out (1..63, 0: none or exited)
 *   bits  5..0   number of the thread switched in
 * A record whose two numbers are equal tells that this thread exited at that tick.
 *
 * With any event option on (TU_EVENTS), the log is a ring of slots: the record word above and,
 * with the counter (TU_CYCLES), the realtime counter's value. An out-thread 63 (no thread has
 * it then) marks an event, whose kind is the in-thread field; an event with a payload takes
 * continuation slots after its own, marked by kind 63 (TU_EV_MORE), that carry it. Every slot
 * says what it is, so the hooks write slots exactly as they write records without events
 * (overwriting the oldest), and a reader skips the continuation slots of an entry whose first
 * slot was overwritten. Sequence numbers (tu_written, the history's, the pauses') count slots.
 * Everything is written in the hooks under the system lock; the shell thread prints.
 *
 * Consistency rules kept by the library:
 *  - An exited thread stays in the exited-thread history exactly as long as its exit record
 *    is in the log (each history entry remembers the sequence number of its record). When
 *    the history is full, the oldest records of the log are discarded up to the oldest exit
 *    record instead, and counted.
 *  - While a list is being printed, or while the log is frozen by a trigger, an exiting
 *    thread keeps its number (it is "held"): numbers never change under a reader or after
 *    the log stopped. Held exits are written when printing ends (if the log still records)
 *    or forgotten when run mode empties the log.
 *  - A trigger stays in the log: when, before the log froze, discarding records for the
 *    history would leave fewer records before the trigger than after it, the log freezes
 *    at once instead (the exit is then held, like any exit while frozen).
 *  - At most THREADS_TIMESTAMPS_MAX_THREADS (63) threads are numbered; threads created when
 *    all numbers are taken get number 0, are not listed, and are counted.
 *
 * @addtogroup threads_utilities
 * @{
 */

#include "tu_internal.h"

/********************              INTERNAL VARIABLES              ********************/

#ifdef ENABLE_THREADS_TIMESTAMPS

const char tu_dynamic_name[] = "Exited dynamic thread";

#if TU_EVENTS
/* Payload of each kind: 0 none, 1 A, 2 A and B. */
const uint8_t tu_payload_of[TU_EV_KINDS] = { 0, 1, 0, 0, 0, 1, 2, 1, 1, 0 };
#endif

TU_SECTION uint32_t tu_log[(THREADS_TIMESTAMPS_LOG_CAPACITY) * (1U + TU_STAMP_WORDS)];
TU_SECTION tu_slot_t tu_slots[THREADS_TIMESTAMPS_MAX_THREADS];
TU_SECTION tu_deleted_t tu_deleted[THREADS_TIMESTAMPS_MAX_DELETED];
TU_SECTION tu_pause_t tu_pauses[THREADS_TIMESTAMPS_MAX_PAUSES];

/* Whether newly created threads are logged. */
uint8_t tu_log_setting = THREADS_TIMESTAMPS_DEFAULT_LOG;

/* The log: tu_count records (with events: slots) end just before tu_head; tu_written counts
 * every record written since the log was last emptied (the sequence number of the next
 * record). */
uint32_t tu_head;
uint32_t tu_count;
uint32_t tu_written;

/* The writer's fast path takes a slot while tu_head < tu_fast_end; tu_count grows by
 * tu_count_step then (1 until the log is full). tu_window() sets both (see there). */
uint32_t tu_fast_end;
uint32_t tu_count_step;

/* Recording: tu_active is the fast-path summary of (no pause and not frozen). */
uint8_t tu_active = 1U;
uint8_t tu_frozen;
uint8_t tu_pause_count;
uint8_t tu_hold_count;

/* Trigger */
uint8_t tu_triggered;
uint32_t tu_trigger_time;
uint32_t tu_trigger_seq; /* the sequence number of the first record after it */
uint32_t tu_freeze_at;   /* the log freezes when tu_written reaches it */
/* tu_freeze_at this far ahead: not before 2^31 slots (a trigger set while recording waits). */
const char *tu_trigger_name;
#if TU_RECORD
uint8_t tu_recording; /* threads_record under way: a trigger does not freeze */
#endif

/* Numbered threads and held exits; tu_frozen_slots: numbered threads when the log froze (the
 * threads after them are not in the frozen log, so they can leave without renumbering it). */
uint8_t tu_n_slots;
uint8_t tu_frozen_slots;
uint8_t tu_n_held;
uint16_t tu_exit_order;

/* Exited-thread history, oldest first */
uint8_t tu_deleted_first;
uint8_t tu_deleted_count;

/* Counters reported by threads_dump */
uint32_t tu_dropped_paused;
uint32_t tu_dropped_history;
uint32_t tu_unnumbered_live;
uint32_t tu_unnumbered_total;

/* The pauses that dropped switches, oldest first; the one under way: when it began and the
 * value of tu_dropped_paused then. */
uint8_t tu_pauses_first;
uint8_t tu_pauses_count;
uint32_t tu_pause_begin;
uint32_t tu_pause_dropped_base;

#if TU_NAMES
const char *const tu_name_kind_names[] = { "irq", "marker", "channel", "state" };
TU_SECTION const char *tu_names[THREADS_TIMESTAMPS_MAX_NAMES];
TU_SECTION uint8_t tu_name_kinds[THREADS_TIMESTAMPS_MAX_NAMES];
uint8_t tu_n_names;
uint32_t tu_names_refused;
#endif

#if TU_IRQ
/* The handlers' fast check, indexed by a handler's id variable (which only ever holds 0 or
 * an id returned by the table, so it is in bounds): entry i is the name of id i when i is a
 * handler's id of at most TU_IRQ_SHORT_MAX (its entry takes one slot). Every other id given
 * since start-up has TU_IRQ_OTHER, so that no name, not even NULL, matches a stale id after
 * tuResetState(); entry 0 stays NULL (a handler without a name is recorded as id 0). */
const char *tu_irq_fast[THREADS_TIMESTAMPS_MAX_NAMES + 1];

/* Handlers only counted, not logged (tuIrqIgnore(), THREADS_TIMESTAMPS_IRQ_IGNORE): typically
 * the one of the link that carries the shell, which runs for every byte the board sends, so a
 * recording would log its own output. Indexed by id - 1: whether it is counted only, and its
 * calls since it was named. Such a handler takes the slow path (its tu_irq_fast entry is
 * TU_IRQ_OTHER); while one is under way, tu_irq_skip has a bit per nesting level (1: counted
 * only), innermost lowest, and the writer's window is shut, so that its leave takes the slow
 * path too. The fast paths of the other handlers do not change. */
#if !defined(THREADS_TIMESTAMPS_IRQ_IGNORE) && defined(PORT_ARCHITECTURE_SIMIA32)
/* The RT-Posix simulator's serial driver: polled at every turn of the idle loop. */
#endif
uint8_t tu_irq_ignored[THREADS_TIMESTAMPS_MAX_NAMES];
uint32_t tu_irq_calls[THREADS_TIMESTAMPS_MAX_NAMES];
uint32_t tu_irq_skip;
uint8_t tu_n_ignored;
#endif

#if TU_IRQ && TU_CONDITIONS
/* The handlers under way, innermost last, and when they entered. */
uint8_t tu_irq_stack[TU_MAX_NESTING];
uint32_t tu_irq_since[TU_MAX_NESTING];
uint8_t tu_irq_depth;
#endif

#if TU_CONDITIONS
/* The condition: its kind (tu_when_t), its limit in counter units (or the marker's value),
 * the name it is restricted to ("" for any) and its id once known (handlers, markers). */
uint8_t tu_when;
uint8_t tu_when_on_switch; /* latency or run: checked at every switch */
uint32_t tu_when_limit;
uint32_t tu_when_us;
uint8_t tu_when_id;
char tu_when_name[48];
char tu_when_text[80];
char tu_fired_text[80]; /* the trigger's name: the condition when it fired */
uint32_t tu_when_measured_us;
uint8_t tu_when_fired;
uint32_t tu_run_since;
#endif

#if !TU_RECORD
const char tu_no_record_message[] =
    "Recording is not built in" TU_NL
    "Please define THREADS_TIMESTAMPS_RECORD = true in your makefile" TU_NL;
#endif

#else
const char tu_no_timestamps_message[] =
    "The thread timestamps functionality is disabled" TU_NL
    "Please define USE_THREADS_TIMESTAMPS = true in your makefile " TU_NL;
#endif /* ENABLE_THREADS_TIMESTAMPS */

/********************               PRIVATE FUNCTIONS              ********************/

#ifdef ENABLE_THREADS_TIMESTAMPS

void tu_update_active(void) {
  tu_active = (uint8_t)((tu_pause_count == 0U) && (tu_frozen == 0U));
  tu_window();
}

/* Stops the log where it is: what it holds stays as long as the trigger is set. */
void tu_freeze(void) {
  /* Any slot written from now on (continuation slots, replayed entries) freezes it again. */
  tu_freeze_at = tu_written;
  tu_frozen = 1U;
  tu_frozen_slots = tu_n_slots;
  tu_update_active();
}

void tu_deleted_pop(void) {
  tu_deleted_first = (uint8_t)((tu_deleted_first + 1U) % THREADS_TIMESTAMPS_MAX_DELETED);
  tu_deleted_count--;
}

/* The writer. A slot is appended at tu_head, overwriting the oldest one when the log is full;
 * the first slot of an entry is dropped (and counted) while the log is paused or frozen, the
 * continuation slots of an entry begun are always written.
 *
 * The fast path (tu_put_fast(), inline in the hooks) only stores the slot and counts it. It
 * is taken while tu_head < tu_fast_end, a window that tu_window() computes so that none of
 * the rare cases falls in it: the log does not record (paused, frozen), the ring wraps, the
 * oldest slot overwritten is the exit record of a thread in the history, a trigger's
 * countdown ends, a condition on interrupt handlers is set (their hooks measure then). All
 * of them are handled by the one slow path, tu_put_slow(), which recomputes the window after
 * each slot. Whatever changes the state the window depends on calls tu_window() after. */
void tu_window(void) {
  uint32_t room = 0;

  tu_count_step = tu_count < TU_LOG_SIZE ? 1U : 0U;
  if (tu_active != 0U
#if TU_IRQ && TU_CONDITIONS
      && tu_when != TU_WHEN_IRQ
#endif
#if TU_IRQ
      && tu_irq_skip == 0U
#endif
      && tu_head + 1U < TU_LOG_SIZE) {
    /* The last slot of the array: the slow path wraps the ring. */
    room = TU_LOG_SIZE - 1U - tu_head;
    if (tu_count < TU_LOG_SIZE) {
      /* Filling: nothing is overwritten until the log is full. */
      if (room > TU_LOG_SIZE - tu_count)
        room = TU_LOG_SIZE - tu_count;
    } else if (tu_deleted_count != 0U &&
               room > tu_deleted[tu_deleted_first].seq - (tu_written - tu_count)) {
      /* Up to the oldest exit record in the history. */
      room = tu_deleted[tu_deleted_first].seq - (tu_written - tu_count);
    }
    if (tu_triggered != 0U) {
      /* The slot that ends the countdown. */
      uint32_t left = tu_freeze_at - tu_written;

      if (room >= left)
        room = left != 0U ? left - 1U : 0U;
    }
  }
  tu_fast_end = tu_head + room;
}

/* Every slot outside the fast window. @starts: the slot begins an entry (dropped while the
 * log is paused or frozen). Returns whether the slot was written. */
TU_COLD int tu_put_slow(uint32_t record, uint32_t second, int starts) {
  uint32_t h = tu_head;

  if (starts != 0 && tu_active == 0U) {
    if (tu_frozen == 0U)
      tu_dropped_paused++;
    return 0;
  }
  if (tu_count >= TU_LOG_SIZE) {
    /* The oldest slot goes: forget the exited thread it was the exit record of. */
    if (tu_deleted_count != 0U && tu_deleted[tu_deleted_first].seq == tu_written - tu_count)
      tu_deleted_pop();
    tu_count = TU_LOG_SIZE;
  } else {
    tu_count++;
  }
  tu_log[h * TU_SLOT_WORDS] = record;
#if TU_CYCLES
  tu_log[h * TU_SLOT_WORDS + 1U] = second;
#else
  (void)second;
#endif
  if (++h >= TU_LOG_SIZE)
    h = 0;
  tu_head = h;
  tu_written++;

  if (tu_triggered != 0U && (int32_t)(tu_written - tu_freeze_at) >= 0)
    tu_freeze();
  else
    tu_window();
  return 1;
}
#if TU_EVENTS
/* A continuation slot carrying @a (20 bits) and @b. Without the counter, @b takes two more
 * continuation slots (16 bits each, low half first). */
void tu_put_more(uint32_t a, uint32_t b, int with_b) {
  (void)tu_put(((a & TU_MORE_A_MASK) << TU_TIME_POS) | TU_MORE_MARK, b, 0);
#if !TU_CYCLES
  if (with_b != 0) {
    (void)tu_put(((b & 0xFFFFU) << TU_TIME_POS) | TU_MORE_MARK, 0, 0);
    (void)tu_put(((b >> 16) << TU_TIME_POS) | TU_MORE_MARK, 0, 0);
  }
#else
  (void)with_b;
#endif
}

#endif /* TU_EVENTS */

#if TU_IRQ
/* Registers the handler @name, keeping its id in @id (the handler's own variable). */
TU_COLD static uint32_t tu_irq_register(uint8_t *id, const char *name) {
  *id = tu_register_name(name, TU_NAME_IRQ);
  return *id;
}

/* A handler with an id above TU_IRQ_SHORT_MAX enters: a continuation slot carries it. */
TU_COLD static void tu_irq_long(uint32_t id) {
  tu_event(TU_EV_IRQ_ENTER, id, 0);
}
#endif

#endif /* ENABLE_THREADS_TIMESTAMPS */

/********************                CHCONF FUNCTION               ********************/

/**
 * @brief   Whether a thread created now is logged (the value its log flag starts with).
 *
 * @return              1 when new threads are logged, 0 otherwise.
 *
 * @note    Called by @p TIMESTAMPS_THREAD_INIT_HOOK.
 *
 * @special
 */
uint8_t tuThreadLogSetting(void) {
#ifdef ENABLE_THREADS_TIMESTAMPS
  return tu_log_setting;
#else
  return 0U;
#endif
}

/**
 * @brief   Gives a thread being created its number in the log.
 *
 * @param[in] ntp       the thread being created (a @p thread_t)
 *
 * @note    Called by @p TIMESTAMPS_THREAD_INIT_HOOK, in the kernel's thread init hook.
 *
 * @special
 */
void tuThreadInitHook(void *ntp) {
#ifdef ENABLE_THREADS_TIMESTAMPS
  thread_t *tp = (thread_t *)ntp;

  if (tu_n_slots < THREADS_TIMESTAMPS_MAX_THREADS) {
    tu_slots[tu_n_slots].tp = tp;
    tu_n_slots++;
    tp->tu_number = tu_n_slots;
  } else {
    tp->tu_number = 0;
    tu_unnumbered_live++;
    tu_unnumbered_total++;
  }
#else
  ((thread_t *)ntp)->tu_number = 0;
#endif
}

/**
 * @brief   Records the exit of a thread and gives its number back.
 *
 * @param[in] otp       the thread that exits (a @p thread_t)
 *
 * @details
 * While numbers are held (a list being printed, a recording, a frozen log) the exit
 * is held and written later; the thread's name is kept or copied now.
 * @note    Called by @p TIMESTAMPS_THREAD_EXIT_HOOK, with the kernel locked.
 *
 * @special
 */
void tuThreadExitHook(void *otp) {
#ifdef ENABLE_THREADS_TIMESTAMPS
  thread_t *tp = (thread_t *)otp;
  uint8_t index;

  if (tp->tu_number == 0U || tp->tu_number > tu_n_slots || tu_slots[tp->tu_number - 1U].tp != tp) {
    if (tp->tu_number == 0U && tu_unnumbered_live != 0U)
      tu_unnumbered_live--;
    return;
  }

  index = (uint8_t)(tp->tu_number - 1U);

  if (tu_hold_count == 0U && tu_frozen != 0U && index >= tu_frozen_slots) {
    /* Created after the log froze: the log never names it nor the threads after it. */
    tu_remove_slot(index);
    tp->tu_number = 0;
    return;
  }

  if (tu_active != 0U && tu_exit_squeezes_trigger() != 0)
    tu_freeze();

  if (tu_hold_count != 0U || tu_active == 0U) {
    /* Held: the thread keeps its number until printing ends or run mode empties the log.
     * Its fields are copied now, since a dynamic thread's memory is released after exit. */
    tu_slot_t *slot = &tu_slots[index];

    slot->flags = tu_flags_of(tp);
    slot->name = tu_keep_name(TU_NAME(tp), &slot->flags, slot->copy);
    slot->prio = (uint8_t)TU_PRIO(tp);
    slot->exit_order = tu_exit_order++;
    slot->tp = NULL;
    tu_n_held++;
    return;
  }

  tu_exit_now(index, (uint8_t)TU_PRIO(tp), tu_flags_of(tp), TU_NAME(tp));
  /* The switch away from the exiting thread names no thread. */
  tp->tu_number = 0;
#else
  (void)otp;
#endif
}

/**
 * @brief   Records a context switch: one slot, constant work.
 *
 * @param[in] ntp       the thread switched in (a @p thread_t)
 * @param[in] otp       the thread switched out (a @p thread_t)
 *
 * @note    Called by @p TIMESTAMPS_CONTEXT_SWITCH_HOOK, with the kernel locked.
 *
 * @special
 */
void tuContextSwitchHook(void *ntp, void *otp) {
#ifdef ENABLE_THREADS_TIMESTAMPS
  const thread_t *in = (const thread_t *)ntp;
  const thread_t *out = (const thread_t *)otp;

#if TU_CONDITIONS
  if (tu_when_on_switch != 0U)
    tu_check_switch((thread_t *)ntp, out);
#endif

  if ((in->log_this_thread | out->log_this_thread) == 0U)
    return;

  if (tu_active == 0U) {
    if (tu_frozen == 0U)
      tu_dropped_paused++;
    return;
  }

  (void)tu_put((((uint32_t)chVTGetSystemTimeX() & TU_TIME_MASK) << TU_TIME_POS) |
                   ((uint32_t)out->tu_number << TU_OUT_POS) |
                   ((uint32_t)in->tu_number << TU_IN_POS),
               TU_NOW(), 1);
#else
  (void)ntp;
  (void)otp;
#endif
}

#if TU_IRQ
/* The hooks' slow paths: the handler's first entry (or first since tuResetState()), a handler
 * with a long id, a condition on handlers, and every slot outside the writer's window. */
TU_COLD static void tu_irq_enter_slow(uint8_t *id, const char *name) {
  uint32_t i = *id;

  if (i - 1U >= tu_n_names || tu_names[i - 1U] != name) {
    i = tu_irq_register(id, name);
    /* Named by tuIrqIgnore(): the handler's own string from now on (equal). */
    if (i != 0U)
      tu_names[i - 1U] = name;
  }
  if (i != 0U && tu_irq_ignored[i - 1U] != 0U) {
    tu_irq_calls[i - 1U]++;
    tu_irq_skip = (tu_irq_skip << 1) | 1U;
    tu_window();
    return;
  }
  if (tu_irq_skip != 0U)
    tu_irq_skip <<= 1;
#if TU_CONDITIONS
  /* Only kept while a condition on handlers is set. */
  if (tu_when == TU_WHEN_IRQ)
    tu_irq_entered((uint8_t)i);
#endif
  if (i <= TU_IRQ_SHORT_MAX)
    tu_event(TU_EV_IRQ_SHORT + i, 0, 0);
  else
    tu_irq_long(i);
}

TU_COLD static void tu_irq_leave_slow(void) {
  if (tu_irq_skip != 0U) {
    uint32_t counted = tu_irq_skip & 1U;

    tu_irq_skip >>= 1;
    if (tu_irq_skip == 0U)
      tu_window();
    if (counted != 0U)
      return;
  }
#if TU_CONDITIONS
  if (tu_when == TU_WHEN_IRQ)
    tu_check_irq();
#endif
  tu_event(TU_EV_IRQ_LEAVE, 0, 0);
}
#endif

/**
 * @brief   Records that an interrupt handler begins.
 *
 * @param[in,out] id    the handler's own id variable, set on its first entry
 * @param[in] name      the handler's name (its function name)
 *
 * @note    Called by @p TIMESTAMPS_IRQ_PROLOGUE_HOOK; does nothing without
 * @p THREADS_TIMESTAMPS_IRQ.
 *
 * @special
 */
void tuIrqEnterHook(uint8_t *id, const char *name) {
#if TU_IRQ
  size_t i;

  port_lock_from_isr();
  /* The handler's id, registered on its first entry (and again after tuResetState()). */
  i = *id;
  if (tu_head < tu_fast_end && tu_irq_fast[i] == name)
    tu_put_fast((((uint32_t)chVTGetSystemTimeX() & TU_TIME_MASK) << TU_TIME_POS) |
                    ((TU_EVENT_MARK << TU_OUT_POS) | TU_EV_IRQ_SHORT | (uint32_t)i),
                TU_NOW());
  else
    tu_irq_enter_slow(id, name);
  port_unlock_from_isr();
#else
  (void)id;
  (void)name;
#endif
}

/**
 * @brief   Records that the innermost interrupt handler under way ends.
 *
 * @note    Called by @p TIMESTAMPS_IRQ_EPILOGUE_HOOK; does nothing without
 * @p THREADS_TIMESTAMPS_IRQ.
 *
 * @special
 */
void tuIrqLeaveHook(void) {
#if TU_IRQ
  port_lock_from_isr();
  if (tu_head < tu_fast_end)
    tu_put_fast(tu_record_now(TU_EVENT_MARK, TU_EV_IRQ_LEAVE), TU_NOW());
  else
    tu_irq_leave_slow();
  port_unlock_from_isr();
#endif
}

/**
 * @brief   Records that the CPU goes idle.
 *
 * @note    Called by @p TIMESTAMPS_IDLE_ENTER_HOOK; does nothing without
 * @p THREADS_TIMESTAMPS_SLEEP.
 *
 * @special
 */
void tuIdleEnterHook(void) {
#if TU_SLEEP
  tu_event(TU_EV_SLEEP, 0, 0);
#endif
}

/**
 * @brief   Records that the CPU leaves idle.
 *
 * @note    Called by @p TIMESTAMPS_IDLE_LEAVE_HOOK; does nothing without
 * @p THREADS_TIMESTAMPS_SLEEP.
 *
 * @special
 */
void tuIdleLeaveHook(void) {
#if TU_SLEEP
  tu_event(TU_EV_WAKE, 0, 0);
#endif
}

/**
 * @brief   Records that a thread is made ready (its wake-up).
 *
 * @param[in] ntp       the thread made ready (a @p thread_t)
 *
 * @note    Called by @p TIMESTAMPS_READY_HOOK (ChibiOS/RT 7 and later); does nothing
 * without @p THREADS_TIMESTAMPS_READY.
 *
 * @special
 */
void tuThreadReadyHook(void *ntp) {
#if TU_READY
  thread_t *tp = (thread_t *)ntp;

  /* The running thread put back in the ready list (preempted) is not woken up. */
  if (tp->state == CH_STATE_CURRENT)
    return;
  tp->tu_ready_at = TU_NOW();
  tp->tu_readied = 1U;
  if (tp->log_this_thread == 0U)
    return;
  tu_event(TU_EV_READY, tp->tu_number, 0);
#else
  (void)ntp;
#endif
}

/**
 * @brief   Forgets every thread and empties the log, back to the state at boot.
 *
 * @note    Only for host programs and tests that restart a simulated kernel.
 *
 * @api
 */
void tuResetState(void) {
#ifdef ENABLE_THREADS_TIMESTAMPS
  uint8_t i;

  chSysLock();
  for (i = 0; i < THREADS_TIMESTAMPS_MAX_THREADS; i++)
    tu_slots[i].tp = NULL;
  tu_n_slots = 0;
  tu_frozen_slots = 0;
  tu_n_held = 0;
  tu_exit_order = 0;
  tu_triggered = 0;
  tu_frozen = 0;
  tu_pause_count = 0;
  tu_hold_count = 0;
  tu_trigger_seq = 0;
  tu_trigger_time = 0;
  tu_trigger_name = NULL;
  tu_freeze_at = 0;
  tu_unnumbered_live = 0;
  tu_unnumbered_total = 0;
  tu_log_setting = THREADS_TIMESTAMPS_DEFAULT_LOG;
#if TU_NAMES
  tu_n_names = 0;
  tu_names_refused = 0;
#endif
#if TU_IRQ
  {
    unsigned n;

    for (n = 1; n <= THREADS_TIMESTAMPS_MAX_NAMES; n++)
      tu_irq_fast[n] = TU_IRQ_OTHER;
  }
  tu_irq_skip = 0;
  tu_n_ignored = 0;
#endif
#if TU_IRQ && TU_CONDITIONS
  tu_irq_depth = 0;
#endif
#if TU_CONDITIONS
  tu_when = TU_WHEN_OFF;
  tu_when_on_switch = 0;
  tu_when_id = 0;
  tu_when_name[0] = '\0';
  tu_when_text[0] = '\0';
  tu_when_fired = 0;
#endif
  tu_clear_log();
  tu_update_active();
  chSysUnlock();
#endif
}

/**
 * @brief   Appends an entry to the log as given.
 *
 * @param[in] record    the record word
 * @param[in] counter   the realtime counter's value (with @p THREADS_TIMESTAMPS_CYCLES)
 * @param[in] a         the payload's first word, when the kind has one
 * @param[in] b         the payload's second word, when the kind has one
 *
 * @note    Only for host programs that re-encode saved logs; never on a board.
 *
 * @api
 */
void tuReplayEntry(uint32_t record, uint32_t counter, uint32_t a, uint32_t b) {
#ifdef ENABLE_THREADS_TIMESTAMPS
  chSysLock();
#if TU_EVENTS
  (void)tu_put(record, counter, 0);
  if (((record >> TU_OUT_POS) & TU_NUM_MASK) == TU_EVENT_MARK &&
      (record & TU_NUM_MASK) < TU_EV_KINDS && tu_payload_of[record & TU_NUM_MASK] != 0U)
    tu_put_more(a, b, tu_payload_of[record & TU_NUM_MASK] == 2U);
#else
  (void)a;
  (void)b;
  (void)tu_put(record, counter, 0);
#endif
  chSysUnlock();
#else
  (void)record;
  (void)counter;
  (void)a;
  (void)b;
#endif
}

/**
 * @brief   The calling thread is logged from now on.
 *
 * @api
 */
void tuLogThisThread(void) {
#ifdef ENABLE_THREADS_TIMESTAMPS
  chThdGetSelfX()->log_this_thread = 1U;
#endif
}

/**
 * @brief   The calling thread is no longer logged.
 *
 * @api
 */
void tuDontLogThisThread(void) {
#ifdef ENABLE_THREADS_TIMESTAMPS
  chThdGetSelfX()->log_this_thread = 0U;
#endif
}

/**
 * @brief   Threads created from now on are logged.
 *
 * @note    Callable before @p chSysInit().
 *
 * @api
 */
void tuLogNextCreatedThreads(void) {
#ifdef ENABLE_THREADS_TIMESTAMPS
  tu_log_setting = 1U;
#endif
}

/**
 * @brief   Threads created from now on are not logged.
 *
 * @note    Callable before @p chSysInit().
 *
 * @api
 */
void tuDontLogNextCreatedThreads(void) {
#ifdef ENABLE_THREADS_TIMESTAMPS
  tu_log_setting = 0U;
#endif
}

/** @} */

/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file    tu_history.c
 * @brief   Threads utilities: the numbered threads and the exited-thread history, the exits held
 *          while the numbers are held, the pauses of the log, and the thread list.
 *
 * @addtogroup threads_utilities
 * @{
 */

#include "tu_internal.h"

#ifdef ENABLE_THREADS_TIMESTAMPS

uint8_t tu_flags_of(const thread_t *tp) {
  uint8_t flags = 0;

  if (tp->log_this_thread != 0U)
    flags |= TU_FLAG_LOG;
  if ((tp->flags & CH_FLAG_MODE_MASK) != CH_FLAG_MODE_STATIC)
    flags |= TU_FLAG_DYNAMIC;
  return flags;
}

/* Keeps the name @name of a thread that exits with @flags, for as long as the entry whose
 * @copy buffer is given: returns the pointer to keep, or NULL with TU_FLAG_COPIED added to
 * @flags when the name is copied into @copy. A static thread's name stays where it is. */
const char *tu_keep_name(const char *name, uint8_t *flags, char *copy) {
  size_t n = 0;

  if ((*flags & TU_FLAG_DYNAMIC) == 0U || name == NULL || TU_NAME_IS_CONSTANT(name))
    return name;
  if (THREADS_TIMESTAMPS_NAME_COPY == 0)
    return tu_dynamic_name;
  while (n + 1U < (size_t)TU_NAME_ROOM && name[n] != '\0') {
    copy[n] = name[n];
    n++;
  }
  copy[n] = '\0';
  *flags |= TU_FLAG_COPIED;
  return NULL;
}

/* The name kept by tu_keep_name() in an entry of @name, @flags and @copy. */
static const char *tu_kept_name(const char *name, uint8_t flags, const char *copy) {
  return (flags & TU_FLAG_COPIED) != 0U ? copy : TU_NONAME(name);
}

/* The name the legacy replies (threads_list) give an exited thread: as the original library,
 * "Exited dynamic thread" for a dynamic one. */
static const char *tu_legacy_name(const char *name, uint8_t flags, const char *copy) {
  return (flags & TU_FLAG_DYNAMIC) != 0U ? tu_dynamic_name : tu_kept_name(name, flags, copy);
}

/* Removes slot @index (number index + 1) and renumbers the threads created after it. */
void tu_remove_slot(uint8_t index) {
  uint8_t i;

  for (i = index; i + 1U < tu_n_slots; i++) {
    tu_slots[i] = tu_slots[i + 1U];
    if (tu_slots[i].tp != NULL)
      tu_slots[i].tp->tu_number = (uint8_t)(i + 1U);
  }
  tu_n_slots--;
  tu_slots[tu_n_slots].tp = NULL;
}

/* Armed by a trigger and the history full, the next exit discards the oldest records up to
 * the oldest exit: whether that would leave fewer records before the trigger than after it. */
int tu_exit_squeezes_trigger(void) {
  uint32_t oldest, kept_from, before, after;

  if (tu_triggered == 0U || tu_frozen != 0U || tu_deleted_count < THREADS_TIMESTAMPS_MAX_DELETED)
    return 0;
#if TU_RECORD
  /* A recording does not freeze the log: its half-log countdown starts when it ends. */
  if (tu_recording != 0U)
    return 0;
#endif
  oldest = tu_written - tu_count;
  kept_from = tu_deleted[tu_deleted_first].seq + 1U;
  before = tu_trigger_seq - oldest > kept_from - oldest ? tu_trigger_seq - kept_from : 0U;
  after = tu_written - tu_trigger_seq + 1U; /* with the exit record */
  return before < after;
}

/* Writes the exit record of the thread numbered @index + 1, remembers it in the history and
 * renumbers. Only called while the log records. */
void tu_exit_now(uint8_t index, uint8_t prio, uint8_t flags, const char *name) {
  uint8_t number = (uint8_t)(index + 1U);
  tu_deleted_t *entry;

  (void)tu_put(tu_make_record((uint32_t)chVTGetSystemTimeX(), number, number), TU_NOW(), 0);

  if (tu_deleted_count >= THREADS_TIMESTAMPS_MAX_DELETED) {
    /* History full: discard the log up to and including the oldest exit record, so that
     * the log never names an exited thread the history has forgotten. */
    uint32_t oldest = tu_written - tu_count;
    uint32_t drop = tu_deleted[tu_deleted_first].seq - oldest + 1U;

    tu_count -= drop;
    tu_dropped_history += drop;
    tu_deleted_pop();
  }

  entry = &tu_deleted[(tu_deleted_first + tu_deleted_count) % THREADS_TIMESTAMPS_MAX_DELETED];
  flags = (uint8_t)(flags & ~TU_FLAG_COPIED);
  entry->name = tu_keep_name(name, &flags, entry->copy);
  entry->seq = tu_written - 1U;
  entry->prio = prio;
  entry->number = number;
  entry->flags = flags;
  tu_deleted_count++;
  tu_window();

  tu_remove_slot(index);
}

/* Writes at most @limit of the exits held while a list was printed, in the order they
 * happened, as long as the log records and nobody holds the numbers. */
static void tu_flush_held_some(uint8_t limit) {
  if (tu_frozen != 0U && tu_hold_count == 0U) {
    /* Frozen: exits of threads created after the freeze leave for good now. */
    uint8_t i = tu_n_slots;

    while (i > tu_frozen_slots) {
      i--;
      if (tu_slots[i].tp == NULL) {
        tu_remove_slot(i);
        tu_n_held--;
      }
    }
  }

  while (tu_n_held != 0U && tu_active != 0U && tu_hold_count == 0U && limit != 0U) {
    uint8_t i, best = 0;
    uint16_t best_order = 0;
    int found = 0;

    for (i = 0; i < tu_n_slots; i++) {
      if (tu_slots[i].tp == NULL && (found == 0 || tu_slots[i].exit_order < best_order)) {
        best = i;
        best_order = tu_slots[i].exit_order;
        found = 1;
      }
    }
    if (found == 0) {
      tu_n_held = 0;
      break;
    }
    if (tu_exit_squeezes_trigger() != 0) {
      /* The rest stay held, as exits do while the log is frozen. */
      tu_freeze();
      break;
    }
    tu_n_held--;
    limit--;
    tu_exit_now(best, tu_slots[best].prio, tu_slots[best].flags,
                tu_kept_name(tu_slots[best].name, tu_slots[best].flags, tu_slots[best].copy));
  }
  if (tu_n_held == 0U)
    tu_exit_order = 0;
}

#if TU_RECORD
/* Writes at most @limit of the exits held (see tu_flush_held_some()): the recording gives
 * the numbers back. */
void tu_give_back_held(uint8_t limit) {
  tu_flush_held_some(limit);
}
#endif

/* Writes every exit held (see tu_flush_held_some()). */
static void tu_flush_held(void) {
  tu_flush_held_some(UINT8_MAX);
}

/* Forgets the held exits without records (the log is being emptied) and renumbers. */
void tu_purge_held(void) {
  uint8_t i, n = 0;

  for (i = 0; i < tu_n_slots; i++) {
    if (tu_slots[i].tp != NULL) {
      tu_slots[n] = tu_slots[i];
      tu_slots[n].tp->tu_number = (uint8_t)(n + 1U);
      n++;
    }
  }
  for (i = n; i < tu_n_slots; i++)
    tu_slots[i].tp = NULL;
  tu_n_slots = n;
  tu_n_held = 0;
  tu_exit_order = 0;
}

void tu_clear_log(void) {
  tu_head = 0;
  tu_count = 0;
  tu_written = 0;
  tu_deleted_first = 0;
  tu_deleted_count = 0;
  tu_dropped_paused = 0;
  tu_dropped_history = 0;
  tu_pauses_first = 0;
  tu_pauses_count = 0;
  tu_pause_dropped_base = 0;
}

/* The pause under way ends: remembers it when it dropped switches. Before the held exits are
 * written, so that the hole lies before their records. */
static void tu_pause_ended(void) {
  uint32_t dropped = tu_dropped_paused - tu_pause_dropped_base;
  tu_pause_t *entry;

  if (dropped == 0U)
    return;
  if (tu_pauses_count >= THREADS_TIMESTAMPS_MAX_PAUSES) {
    tu_pauses_first = (uint8_t)((tu_pauses_first + 1U) % THREADS_TIMESTAMPS_MAX_PAUSES);
    tu_pauses_count--;
  }
  entry = &tu_pauses[(tu_pauses_first + tu_pauses_count) % THREADS_TIMESTAMPS_MAX_PAUSES];
  entry->seq = tu_written;
  entry->begin = tu_pause_begin;
  entry->end = (uint32_t)chVTGetSystemTimeX();
  entry->dropped = dropped;
  tu_pauses_count++;
}

/* Stops numbers from changing (and, with @pause, the log from changing) while printing. */
void tu_hold(int pause) {
  chSysLock();
  tu_hold_count++;
  if (pause != 0) {
    if (tu_pause_count == 0U) {
      tu_pause_begin = (uint32_t)chVTGetSystemTimeX();
      tu_pause_dropped_base = tu_dropped_paused;
    }
    tu_pause_count++;
  }
  tu_update_active();
  chSysUnlock();
}

TU_NOINLINE void tu_release(int pause) {
  chSysLock();
  if (tu_hold_count != 0U)
    tu_hold_count--;
  if (pause != 0 && tu_pause_count != 0U) {
    tu_pause_count--;
    if (tu_pause_count == 0U)
      tu_pause_ended();
  }
  tu_update_active();
  tu_flush_held();
  chSysUnlock();
}

/* The list line of the thread numbered @i + 1; 0 when there is none. A held exit is named as
 * the legacy replies do with @legacy, else by the name kept. */
int tu_list_line(uint8_t i, tu_line_t *line, int legacy) {
  int found = 0;

  chSysLock();
  if (i < tu_n_slots) {
    found = 1;
    if (tu_slots[i].tp != NULL) {
      const thread_t *tp = tu_slots[i].tp;

      line->name = TU_NONAME(TU_NAME(tp));
      line->prio = (int)TU_PRIO(tp);
      line->log = tp->log_this_thread != 0U;
    } else {
      const tu_slot_t *slot = &tu_slots[i];

      memcpy(line->copy, slot->copy, sizeof line->copy);
      line->name = legacy != 0 ? tu_legacy_name(slot->name, slot->flags, line->copy)
                               : tu_kept_name(slot->name, slot->flags, line->copy);
      line->prio = (int)tu_slots[i].prio;
      line->log = (tu_slots[i].flags & TU_FLAG_LOG) != 0U;
    }
  }
  chSysUnlock();
  return found;
}

void tu_print_list_line(BaseSequentialStream *out, uint8_t i, const tu_line_t *line) {
  chprintf(out, TU_LIST_FORMAT, (int)i + 1, line->prio, line->log ? "Yes" : "No", line->name);
}

/* Prints the numbered threads then, with @history, the history; the caller holds the
 * numbers. @legacy: exited dynamic threads named as the legacy replies do. Returns the number
 * of threads printed. */
uint8_t tu_print_list(BaseSequentialStream *out, int history, int legacy) {
  uint8_t i, n, first, count;
  tu_line_t line;

  for (n = 0; tu_list_line(n, &line, legacy) != 0; n++)
    tu_print_list_line(out, n, &line);

  chprintf(out, "Deleted threads: " TU_NL);
  if (history == 0)
    return n;

  /* No exit enters the history while numbers are held: these entries stay valid. */
  chSysLock();
  first = tu_deleted_first;
  count = tu_deleted_count;
  chSysUnlock();

  for (i = 0; i < count; i++) {
    const tu_deleted_t *entry = &tu_deleted[(first + i) % THREADS_TIMESTAMPS_MAX_DELETED];

    chprintf(out, TU_LIST_FORMAT, (int)entry->number, (int)entry->prio,
             (entry->flags & TU_FLAG_LOG) != 0U ? "Yes" : "No",
             legacy != 0 ? tu_legacy_name(entry->name, entry->flags, entry->copy)
                         : tu_kept_name(entry->name, entry->flags, entry->copy));
  }
  return n;
}

#endif /* ENABLE_THREADS_TIMESTAMPS */

/**
 * @brief   Prints the live threads in creation order, then the exited threads still in the log.
 *
 * @param[in] out       the stream printed to
 *
 * @details The reply of threads_list, byte for byte the original library's.
 *
 * @api
 */
void tuPrintListThreads(BaseSequentialStream *out) {
#ifdef ENABLE_THREADS_TIMESTAMPS
  tu_hold(0);
  (void)tu_print_list(out, 1, 1);
  tu_release(0);
#elif CH_CFG_USE_REGISTRY == TRUE
  thread_t *tp;
  int n = 1;

  for (tp = chRegFirstThread(); tp != NULL; tp = chRegNextThread(tp)) {
    chprintf(out, TU_LIST_FORMAT, n, (int)TU_PRIO(tp), "No", TU_NONAME(TU_NAME(tp)));
    n++;
  }
#else
  (void)out;
#endif
}

/** @} */

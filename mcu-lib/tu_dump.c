/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file    tu_dump.c
 * @brief   Threads utilities: the reader of the log, and the replies that print it (threads_dump,
 *          threads_timestamps), the thread statistics (threads_stat, threads_uc).
 *
 * @addtogroup threads_utilities
 * @{
 */

#include "tu_internal.h"

#ifdef ENABLE_THREADS_TIMESTAMPS

uint32_t tu_hash_word(uint32_t hash, uint32_t word) {
  unsigned b;

  for (b = 0; b < 4U; b++) {
    hash ^= (word >> (8U * b)) & 0xFFU;
    hash *= 16777619U;
  }
  return hash;
}

/* Payload words the checksum takes for @e: 0 none, 1 A, 2 A and B. */
uint32_t tu_entry_payload(const tu_entry_t *e) {
#if TU_EVENTS
  if (((e->record >> TU_OUT_POS) & TU_NUM_MASK) == TU_EVENT_MARK &&
      (e->record & TU_NUM_MASK) < TU_EV_KINDS)
    return tu_payload_of[e->kind];
#else
  (void)e;
#endif
  return 0;
}

uint32_t tu_read_slot(uint32_t *pos, uint32_t *left, uint32_t *second) {
  uint32_t record = tu_log[*pos * TU_SLOT_WORDS];

#if TU_CYCLES
  *second = tu_log[*pos * TU_SLOT_WORDS + 1U];
#else
  *second = 0;
#endif
  if (++*pos >= TU_LOG_SIZE)
    *pos = 0;
  (*left)--;
  return record;
}

/* Reads the next entry of the @left slots at @pos; 0 when the slot read was a continuation
 * left from an entry that was overwritten (nothing to print). */
int tu_read_entry(uint32_t *pos, uint32_t *left, tu_entry_t *e) {
  uint32_t payload = 0, unused;

  e->record = tu_read_slot(pos, left, &e->stamp);
  e->kind = 0;
  e->a = 0;
  e->b = 0;
#if TU_EVENTS
  if ((e->record & TU_MORE_MARK) == TU_MORE_MARK)
    return 0;
  e->kind =
      ((e->record >> TU_OUT_POS) & TU_NUM_MASK) == TU_EVENT_MARK ? e->record & TU_NUM_MASK : 0U;
  if (e->kind >= TU_EV_IRQ_SHORT) {
    e->a = e->kind - TU_EV_IRQ_SHORT;
    e->kind = TU_EV_IRQ_ENTER;
    return 1;
  }
  if (e->kind < TU_EV_KINDS)
    payload = tu_payload_of[e->kind];
  if (payload != 0U && *left != 0U)
    e->a = (tu_read_slot(pos, left, &e->b) >> TU_TIME_POS) & TU_MORE_A_MASK;
#if !TU_CYCLES
  if (payload == 2U && *left >= 2U) {
    e->b = (tu_read_slot(pos, left, &unused) >> TU_TIME_POS) & 0xFFFFU;
    e->b |= ((tu_read_slot(pos, left, &unused) >> TU_TIME_POS) & 0xFFFFU) << 16;
  }
#endif
#endif /* TU_EVENTS */
  (void)unused;
  (void)payload;
  return 1;
}

/* Entries that begin in the slots of @span. */
uint32_t tu_count_entries(const tu_span_t *span) {
  uint32_t pos = span->first, left = span->count, n = 0;
  tu_entry_t e;

  while (left != 0U)
    n += (uint32_t)tu_read_entry(&pos, &left, &e);
  return n;
}

#if TU_EVENTS
/* Prints the entries of the log; the caller paused the log. With @all (threads_dump), every
 * entry with its counter value, and the checksum over each entry's words (record word,
 * counter, payload A and B when the kind has them); otherwise only the switches, as
 * threads_timestamps always printed them. */
static void tu_print_records(BaseSequentialStream *out, tu_span_t *span, int all) {
  uint32_t pos = span->first, left = span->count;
  uint32_t hash = 2166136261U;
  tu_entry_t e;

  while (left != 0U) {
    uint32_t tick, payload;
    int out_number, in_number;
    char stamp[16];

    if (tu_read_entry(&pos, &left, &e) == 0)
      continue;
    tick = (e.record >> TU_TIME_POS) & TU_TIME_MASK;
    out_number = (int)((e.record >> TU_OUT_POS) & TU_NUM_MASK);
    in_number = (int)((e.record >> TU_IN_POS) & TU_NUM_MASK);
    if (all == 0) {
      if (e.kind == 0U)
        chprintf(out, "From %2d to %2d at %7d" TU_NL, out_number, in_number, (int)tick);
      continue;
    }
    payload = tu_entry_payload(&e);
    hash = tu_hash_word(hash, e.record);
#if TU_CYCLES
    hash = tu_hash_word(hash, e.stamp);
    chsnprintf(stamp, sizeof stamp, " @ %lu", (unsigned long)e.stamp);
#else
    stamp[0] = '\0';
#endif
    if (payload >= 1U)
      hash = tu_hash_word(hash, e.a);
    if (payload >= 2U)
      hash = tu_hash_word(hash, e.b);

    switch (e.kind) {
      case 0U:
        chprintf(out, "From %2d to %2d at %7d%s" TU_NL, out_number, in_number, (int)tick, stamp);
        break;
      case TU_EV_IRQ_ENTER:
        chprintf(out, "Irq enter %2d at %7d%s" TU_NL, (int)e.a, (int)tick, stamp);
        break;
      case TU_EV_IRQ_LEAVE:
        chprintf(out, "Irq leave at %7d%s" TU_NL, (int)tick, stamp);
        break;
      case TU_EV_SLEEP:
        chprintf(out, "Sleep at %7d%s" TU_NL, (int)tick, stamp);
        break;
      case TU_EV_WAKE:
        chprintf(out, "Wake at %7d%s" TU_NL, (int)tick, stamp);
        break;
      case TU_EV_READY:
        chprintf(out, "Ready %2d at %7d%s" TU_NL, (int)e.a, (int)tick, stamp);
        break;
      case TU_EV_MARKER:
        chprintf(out, "Marker %2d = %lu at %7d%s" TU_NL, (int)e.a, (unsigned long)e.b, (int)tick,
                 stamp);
        break;
      case TU_EV_BEGIN:
        chprintf(out, "State %2d begin %2d at %7d%s" TU_NL, (int)(e.a & 0xFFU),
                 (int)((e.a >> 8) & 0xFFU), (int)tick, stamp);
        break;
      case TU_EV_END:
        chprintf(out, "State %2d end at %7d%s" TU_NL, (int)e.a, (int)tick, stamp);
        break;
      default:
        chprintf(out, "Trigger at %7d%s" TU_NL, (int)tick, stamp);
        break;
    }
  }
  span->checksum = hash;
}
#else
/* Prints the records of the log; the caller paused the log. */
static void tu_print_records(BaseSequentialStream *out, tu_span_t *span, int all) {
  uint32_t i, pos;
  uint32_t hash = 2166136261U;

  (void)all;
  pos = span->first;
  for (i = 0; i < span->count; i++) {
    uint32_t record = tu_log[pos];

    chprintf(out, "From %2d to %2d at %7d" TU_NL, (int)((record >> TU_OUT_POS) & TU_NUM_MASK),
             (int)((record >> TU_IN_POS) & TU_NUM_MASK),
             (int)((record >> TU_TIME_POS) & TU_TIME_MASK));
    hash = tu_hash_word(hash, record);

    pos++;
    if (pos >= TU_LOG_SIZE)
      pos = 0;
  }
  span->checksum = hash;
}
#endif /* TU_EVENTS */

static void tu_snapshot_span(tu_span_t *span) {
  span->count = tu_count;
  span->first = (tu_head + TU_LOG_SIZE - tu_count) % TU_LOG_SIZE;
  span->checksum = 0;
}

#endif /* ENABLE_THREADS_TIMESTAMPS */

/********************                PUBLIC FUNCTIONS              ********************/

/**
 * @brief   Prints the share of time used by each thread.
 *
 * @param[in] out       the stream printed to
 *
 * @note    Needs @p CH_DBG_STATISTICS and @p CH_CFG_USE_REGISTRY.
 *
 * @api
 */
void tuPrintUcUsage(BaseSequentialStream *out) {
#if (CH_DBG_STATISTICS == TRUE) && (CH_CFG_USE_REGISTRY == TRUE)
  thread_t *tp;
  uint64_t sum = 0;
  uint64_t crit_thd, crit_isr;
  unsigned tmp1, tmp2;

  chSysLock();
  crit_thd = (uint64_t)TU_KERNEL_STATS.m_crit_thd.cumulative;
  crit_isr = (uint64_t)TU_KERNEL_STATS.m_crit_isr.cumulative;
  chSysUnlock();

  for (tp = chRegFirstThread(); tp != NULL; tp = chRegNextThread(tp))
    sum += (uint64_t)tp->stats.cumulative;
  sum += crit_thd + crit_isr;
  if (sum == 0U)
    sum = 1U;

  for (tp = chRegFirstThread(); tp != NULL; tp = chRegNextThread(tp)) {
    tmp1 = (unsigned)((uint64_t)tp->stats.cumulative * 10000U / sum);
    chprintf(out, "%25s          %u.%02u%%" TU_NL, TU_NONAME(TU_NAME(tp)), tmp1 / 100U,
             tmp1 % 100U);
  }

  tmp1 = (unsigned)(crit_thd * 10000U / sum);
  tmp2 = (unsigned)(crit_isr * 10000U / sum);

  chprintf(out, TU_NL "            critical thd:%u.%02u%%   critical isr:%u.%02u%%" TU_NL,
           tmp1 / 100U, tmp1 % 100U, tmp2 / 100U, tmp2 % 100U);
  chprintf(out, TU_NL);
#else
  chprintf(out, "Thread statistics are disabled (CH_DBG_STATISTICS)" TU_NL);
#endif
}

/**
 * @brief   Prints the stack usage of the threads.
 *
 * @param[in] out       the stream printed to
 *
 * @note    Needs @p CH_CFG_USE_REGISTRY; the "used" column needs @p CH_DBG_FILL_THREADS.
 *
 * @api
 */
void tuPrintStatThreads(BaseSequentialStream *out) {
#if CH_CFG_USE_REGISTRY == TRUE
  static const char *const states[] = { CH_STATE_NAMES };
  thread_t *tp;

  chprintf(out, TU_NL);
  chprintf(out, "     begin        end   size   used    %% prio     state         name" TU_NL);
  chprintf(out, "--------------------------------------------------------------------" TU_NL);

  tp = chRegFirstThread();
  if (tp == NULL) {
    chprintf(out, TU_NL);
    return;
  }

  /* The main thread runs on the startup stack: its size is not known here. */
  chprintf(out, "0x%08lx 0x%08lx    ???    ???  ??? %4lu %9s %12s" TU_NL,
           (unsigned long)(uintptr_t)tp->wabase, (unsigned long)(uintptr_t)tp,
           (unsigned long)TU_PRIO(tp),
           (size_t)tp->state < sizeof states / sizeof states[0] ? states[tp->state] : "?",
           TU_NONAME(TU_NAME(tp)));

  for (tp = chRegNextThread(tp); tp != NULL; tp = chRegNextThread(tp)) {
    const uint8_t *begin = (const uint8_t *)tp->wabase;
    const uint8_t *end = (const uint8_t *)tp;
    unsigned long n = 0;
    unsigned long sz = 0;

    if (begin != NULL && begin < end) {
      sz = (unsigned long)(end - begin);
      while (begin < end)
        if (*begin++ != CH_DBG_STACK_FILL_VALUE)
          n++;
    }

    chprintf(out, "0x%08lx 0x%08lx %6lu %6lu %3lu%% %4lu %9s %12s" TU_NL,
             (unsigned long)(uintptr_t)tp->wabase, (unsigned long)(uintptr_t)tp, sz, n,
             sz != 0U ? n * 100U / sz : 0UL, (unsigned long)TU_PRIO(tp),
             (size_t)tp->state < sizeof states / sizeof states[0] ? states[tp->state] : "?",
             TU_NONAME(TU_NAME(tp)));
  }

  chprintf(out, TU_NL);
#else
  chprintf(out, "The thread registry is disabled (CH_CFG_USE_REGISTRY)" TU_NL);
#endif
}

/**
 * @brief   Prints the log's switches, oldest first (the reply of threads_timestamps).
 *
 * @param[in] out       the stream printed to
 *
 * @note    The log is paused while it is printed.
 *
 * @api
 */
void tuPrintTimestamps(BaseSequentialStream *out) {
#ifdef ENABLE_THREADS_TIMESTAMPS
  tu_span_t span;
  uint8_t triggered;
  uint32_t trigger_time;

  tu_hold(1);
  chSysLock();
  tu_snapshot_span(&span);
  triggered = tu_triggered;
  trigger_time = tu_trigger_time;
  chSysUnlock();

  if (triggered != 0U)
    chprintf(out, "Triggered at %7d" TU_NL, (int)trigger_time);
  tu_print_records(out, &span, 0);

  tu_release(1);
#else
  chprintf(out, "%s", tu_no_timestamps_message);
#endif
}

#ifdef ENABLE_THREADS_TIMESTAMPS

#if TU_IRQ
/* The "Counted handler:" lines: the handlers only counted, with their calls so far. */
void tu_print_counted(BaseSequentialStream *out) {
  uint8_t i, n;
  uint32_t calls;

  chSysLock();
  n = tu_n_names;
  chSysUnlock();
  for (i = 0; i < n; i++) {
    chSysLock();
    calls = tu_irq_calls[i];
    chSysUnlock();
    if (tu_irq_ignored[i] != 0U)
      chprintf(out, "Counted handler: %s, %lu calls" TU_NL, tu_names[i], (unsigned long)calls);
  }
}
#endif

/* What a dump prints of the library's state, taken under one lock. */
typedef struct {
  uint8_t triggered;
  uint8_t frozen;
  uint8_t log_setting;
  uint8_t pauses_first;
  uint8_t pauses_count;
  uint32_t trigger_time;
  const char *trigger_name;
  uint32_t written;
  uint32_t dropped_paused;
  uint32_t dropped_history;
  uint32_t unnumbered_live;
  uint32_t unnumbered_total;
#if TU_NAMES
  uint8_t n_names;
  uint32_t names_refused;
#endif
#if TU_CONDITIONS
  char when_text[sizeof tu_when_text];
  uint8_t when_fired;
  uint32_t when_measured;
#endif
} tu_dump_t;

static void tu_dump_snapshot(tu_dump_t *d, tu_span_t *span) {
  chSysLock();
  tu_snapshot_span(span);
  d->triggered = tu_triggered;
  d->frozen = tu_frozen;
  d->trigger_time = tu_trigger_time;
  d->trigger_name = tu_trigger_name;
  d->written = tu_written;
  d->dropped_paused = tu_dropped_paused;
  d->dropped_history = tu_dropped_history;
  d->unnumbered_live = tu_unnumbered_live;
  d->unnumbered_total = tu_unnumbered_total;
  d->log_setting = tu_log_setting;
  d->pauses_first = tu_pauses_first;
  d->pauses_count = tu_pauses_count;
#if TU_NAMES
  d->n_names = tu_n_names;
  d->names_refused = tu_names_refused;
#endif
#if TU_CONDITIONS
  memcpy(d->when_text, tu_when_text, sizeof d->when_text);
  d->when_fired = tu_when_fired;
  d->when_measured = tu_when_measured_us;
#endif
  chSysUnlock();
}

/* The header's lines that describe the build: versions, clocks, sizes. */
static void tu_print_build(BaseSequentialStream *out, int compact, int events) {
  (void)events;
  chprintf(out, "Dump version: %d" TU_NL, compact != 0 ? 3 : THREADS_UTILITIES_DUMP_VERSION);
  chprintf(out, "Library version: %s" TU_NL, THREADS_UTILITIES_VERSION);
  chprintf(out, "Kernel version: %s" TU_NL, CH_KERNEL_VERSION);
  chprintf(out, "Tick frequency: %lu" TU_NL, (unsigned long)(CH_CFG_ST_FREQUENCY));
  chprintf(out, "Tick bits: %d" TU_NL, (int)TU_TICK_BITS);
#if TU_CYCLES
  if (events != 0) {
    chprintf(out, "Counter frequency: %lu" TU_NL, (unsigned long)(THREADS_TIMESTAMPS_COUNTER_HZ));
    chprintf(out, "Counter bits: %d" TU_NL, 32);
    if (compact != 0) {
      chprintf(out, "Counter coder: 4" TU_NL);
    }
  }
#endif
  chprintf(out, "Log size: %lu" TU_NL, (unsigned long)TU_LOG_SIZE);
#if TU_EVENTS
  if (events != 0) {
    chprintf(out, "Slot words: %d" TU_NL, (int)TU_SLOT_WORDS);
    chprintf(out, "Events:%s%s%s%s%s%s" TU_NL, TU_CYCLES ? " cycles" : "", TU_IRQ ? " irq" : "",
             TU_SLEEP ? " sleep" : "", TU_READY ? " ready" : "", TU_USER ? " user" : "",
             TU_CONDITIONS ? " conditions" : "");
  }
#endif
  chprintf(out, "Max threads: %d" TU_NL, THREADS_TIMESTAMPS_MAX_THREADS);
  chprintf(out, "Max deleted: %d" TU_NL, THREADS_TIMESTAMPS_MAX_DELETED);
}

/* The header's lines that describe the log's state: its mode, the trigger, the condition. */
static void tu_print_state(BaseSequentialStream *out, const tu_dump_t *d, int events) {
  (void)events;
  chprintf(out, "Default log: %s" TU_NL, d->log_setting != 0U ? "Yes" : "No");
  chprintf(out, "Mode: %s" TU_NL,
           d->triggered == 0U ? "run"
           : d->frozen != 0U  ? "frozen"
                              : "armed");
  if (d->triggered != 0U) {
    chprintf(out, "Trigger tick: %lu" TU_NL, (unsigned long)d->trigger_time);
    chprintf(out, "Trigger name: %s" TU_NL, TU_NONAME(d->trigger_name));
#if TU_CONDITIONS
    if (d->when_fired != 0U) {
      chprintf(out, "Trigger value: %lu" TU_NL, (unsigned long)d->when_measured);
    }
#endif
  }
#if TU_CONDITIONS
  chprintf(out, "Condition: %s" TU_NL, d->when_text[0] != '\0' ? d->when_text : "none");
#endif
#if TU_NAMES
  chprintf(out, "Max names: %d" TU_NL, THREADS_TIMESTAMPS_MAX_NAMES);
  chprintf(out, "Names refused: %lu" TU_NL, (unsigned long)d->names_refused);
#endif
#if TU_IRQ
  if (events != 0) {
    tu_print_counted(out);
  }
#endif
}

/* The header's counters, and the holes of the log ("Paused:" lines). */
static void tu_print_counters(BaseSequentialStream *out, const tu_dump_t *d, const tu_span_t *span,
                              int compact) {
  uint8_t i, pauses_count = d->pauses_count;

  if (compact == TU_DUMP_RECORD) {
    /* The entries follow as they are written: no count, no hole of the log. */
    chprintf(out, "Recording: stop byte %d, keep-alive %d ms" TU_NL, (int)TU_REC_STOP,
             (int)TU_REC_SILENCE_MS);
    pauses_count = 0;
  } else {
#if TU_EVENTS
    chprintf(out, "Records: %lu" TU_NL, (unsigned long)tu_count_entries(span));
    chprintf(out, "Slots: %lu" TU_NL, (unsigned long)span->count);
#else
    chprintf(out, "Records: %lu" TU_NL, (unsigned long)span->count);
#endif
  }
  chprintf(out, "Records written: %lu" TU_NL, (unsigned long)d->written);
  chprintf(out, "Dropped while paused: %lu" TU_NL, (unsigned long)d->dropped_paused);
  chprintf(out, "Dropped for history: %lu" TU_NL, (unsigned long)d->dropped_history);
  chprintf(out, "Unnumbered threads: %lu live, %lu total" TU_NL, (unsigned long)d->unnumbered_live,
           (unsigned long)d->unnumbered_total);
  /* No pause ends while this one lasts: these entries stay valid. Only the holes with
   * printed records on both sides. */
  for (i = 0; i < pauses_count; i++) {
    const tu_pause_t *p = &tu_pauses[(d->pauses_first + i) % THREADS_TIMESTAMPS_MAX_PAUSES];
    uint32_t index = p->seq - (d->written - span->count);

    if (index != 0U && index < span->count) {
      chprintf(out, "Paused: before record %lu, ticks %lu to %lu, %lu switches dropped" TU_NL,
               (unsigned long)p->seq, (unsigned long)p->begin, (unsigned long)p->end,
               (unsigned long)p->dropped);
    }
  }
}

#if TU_NAMES
/* The name table; names are only ever added: the first n_names stay as they are. */
static void tu_print_names(BaseSequentialStream *out, const tu_dump_t *d) {
  uint8_t i;

  chprintf(out, "Names:" TU_NL);
  for (i = 0; i < d->n_names; i++) {
    chprintf(out, "Name %2d : Kind = %s, Name = %s" TU_NL, (int)i + 1,
             tu_name_kind_names[tu_name_kinds[i]], TU_NONAME(tu_names[i]));
  }
}
#endif

/* The entries of the log, in text or (@compact) in the compact encoding, and the end line. */
static void tu_print_entries(BaseSequentialStream *out, const tu_dump_t *d, tu_span_t *span,
                             int compact) {
  if (compact != 0) {
    chprintf(out, "Compact:" TU_NL);
    if (d->triggered != 0U) {
      chprintf(out, "Triggered at %7d" TU_NL, (int)d->trigger_time);
    }
    (void)tu_print_compact(out, span);
    chprintf(out, "End of dump: %lu records, checksum %08lx" TU_NL,
             (unsigned long)tu_count_entries(span), (unsigned long)span->checksum);
    return;
  }
  chprintf(out, "Timestamps:" TU_NL);
  if (d->triggered != 0U) {
    chprintf(out, "Triggered at %7d" TU_NL, (int)d->trigger_time);
  }
  tu_print_records(out, span, 1);
#if TU_EVENTS
  chprintf(out, "End of dump: %lu records, checksum %08lx" TU_NL,
           (unsigned long)tu_count_entries(span), (unsigned long)span->checksum);
#else
  chprintf(out, "End of dump: %lu records, checksum %08lx" TU_NL, (unsigned long)span->count,
           (unsigned long)span->checksum);
#endif
}

/* Prints a dump of @compact kind; returns the number of threads listed. */
uint8_t tu_print_dump(BaseSequentialStream *out, int compact) {
  int events = compact != TU_DUMP_RECORD_SWITCHES; /* the event lines, with the options */
  tu_dump_t d;
  tu_span_t span;
  uint8_t listed;

  if (compact == TU_DUMP_RECORD_SWITCHES) {
    compact = TU_DUMP_RECORD;
  }
  if (compact != TU_DUMP_RECORD) {
    tu_hold(1);
  }
  tu_dump_snapshot(&d, &span);
  tu_print_build(out, compact, events);
  tu_print_state(out, &d, events);
  tu_print_counters(out, &d, &span, compact);
  chprintf(out, "Threads:" TU_NL);
  /* A recording streams no exit (the numbers are held): no history either. */
  listed = tu_print_list(out, compact != TU_DUMP_RECORD, 0);
#if TU_NAMES
  if (events != 0) {
    tu_print_names(out, &d);
  }
#endif
  if (compact == TU_DUMP_RECORD) {
    chprintf(out, "Compact:" TU_NL);
    return listed;
  }
  tu_print_entries(out, &d, &span, compact);
  tu_release(1);
  return listed;
}
#endif /* ENABLE_THREADS_TIMESTAMPS */

/**
 * @brief   Prints a dump: a header, the thread list and the log, taken together.
 *
 * @param[in] out       the stream printed to
 *
 * @details The reply of threads_dump (dump version 1, or 2 with any event option; see
 *          WIRE-FORMAT.md). The log is paused while it is printed, so the parts agree.
 *
 * @api
 */
void tuPrintDump(BaseSequentialStream *out) {
#ifdef ENABLE_THREADS_TIMESTAMPS
  (void)tu_print_dump(out, TU_DUMP_TEXT);
#else
  chprintf(out, "%s", tu_no_timestamps_message);
#endif
}

/**
 * @brief   Prints a dump with the log in the compact encoding (dump version 3).
 *
 * @param[in] out       the stream printed to
 *
 * @details The reply of threads_dump_compact: about 20 times fewer bytes, for slow links.
 *
 * @api
 */
void tuPrintDumpCompact(BaseSequentialStream *out) {
#ifdef ENABLE_THREADS_TIMESTAMPS
  (void)tu_print_dump(out, TU_DUMP_COMPACT);
#else
  chprintf(out, "%s", tu_no_timestamps_message);
#endif
}

/** @} */

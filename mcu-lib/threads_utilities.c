/* SPDX-License-Identifier: Apache-2.0 */
/*
 * Threads utilities: stack and CPU usage of the threads and a log of the context switches.
 *
 * Plain C99, no allocation. The context-switch hook does constant work: every thread keeps
 * its current number in its extra fields (tu_number), so a record is built from the two
 * threads' fields without walking any list. Numbers change only when a thread exits, which
 * is rare: the threads created after it are renumbered then.
 *
 * Each record is one 32-bit word:
 *   bits 31..12  system tick (20 bits, wraps every 1,048,576 ticks)
 *   bits 11..6   number of the thread switched out (1..63, 0: none or exited)
 *   bits  5..0   number of the thread switched in
 * A record whose two numbers are equal tells that this thread exited at that tick.
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
 */

#include <stddef.h>
#include <stdint.h>

#include "threads_utilities.h"
/* After the kernel and HAL headers, which ChibiOS's shell.h needs first. */
#include "shell.h"

/* Every line ends as the shell's own lines do ("\r\n" unless the firmware says otherwise). */
#define TU_NL SHELL_NEWLINE_STR

/********************               KERNEL DIFFERENCES             ********************/

#if defined(CH_KERNEL_MAJOR) && (CH_KERNEL_MAJOR >= 6)
/* ChibiOS/RT 6 (19.1, 20.3) and 7 (21.x): the priority lives in the queue header. */
#define TU_PRIO(tp) ((tp)->hdr.pqueue.prio)
#else
#define TU_PRIO(tp) ((tp)->prio)
#endif

#if defined(CH_KERNEL_MAJOR) && (CH_KERNEL_MAJOR >= 7)
#define TU_KERNEL_STATS (currcore->kernel_stats)
#else
#define TU_KERNEL_STATS (ch.kernel_stats)
#endif

#if CH_CFG_USE_REGISTRY == TRUE
#define TU_NAME(tp) ((tp)->name)
#else
#define TU_NAME(tp) ((const char *) NULL)
#endif

#define TU_NONAME(name) ((name) == NULL ? "NONAME" : (name))

#define TU_LIST_FORMAT "Thread number %2d : Prio = %3d, Log = %3s, Name = %s" TU_NL

/********************              INTERNAL VARIABLES              ********************/

#ifdef ENABLE_THREADS_TIMESTAMPS

/* Room of the log array. Equal to THREADS_TIMESTAMPS_LOG_SIZE on a board; a host program may
 * define a larger room and make THREADS_TIMESTAMPS_LOG_SIZE a variable no larger than it. */
#ifndef THREADS_TIMESTAMPS_LOG_CAPACITY
#define THREADS_TIMESTAMPS_LOG_CAPACITY THREADS_TIMESTAMPS_LOG_SIZE
#endif

/* Threads that get a number (the record has 6 bits per number). */
#ifndef THREADS_TIMESTAMPS_MAX_THREADS
#define THREADS_TIMESTAMPS_MAX_THREADS 63
#endif
#if (THREADS_TIMESTAMPS_MAX_THREADS < 2) || (THREADS_TIMESTAMPS_MAX_THREADS > 63)
#error "THREADS_TIMESTAMPS_MAX_THREADS must be between 2 and 63"
#endif

/* Exited threads remembered while their exit record is in the log. */
#ifndef THREADS_TIMESTAMPS_MAX_DELETED
#define THREADS_TIMESTAMPS_MAX_DELETED 64
#endif
#if (THREADS_TIMESTAMPS_MAX_DELETED < 1) || (THREADS_TIMESTAMPS_MAX_DELETED > 255)
#error "THREADS_TIMESTAMPS_MAX_DELETED must be between 1 and 255"
#endif

/* Pauses remembered (those during which switches were dropped), newest kept. */
#ifndef THREADS_TIMESTAMPS_MAX_PAUSES
#define THREADS_TIMESTAMPS_MAX_PAUSES 8
#endif
#if (THREADS_TIMESTAMPS_MAX_PAUSES < 1) || (THREADS_TIMESTAMPS_MAX_PAUSES > 255)
#error "THREADS_TIMESTAMPS_MAX_PAUSES must be between 1 and 255"
#endif

#define TU_LOG_SIZE ((uint32_t) (THREADS_TIMESTAMPS_LOG_SIZE))

#define TU_IN_POS    0
#define TU_OUT_POS   6
#define TU_TIME_POS  12
#define TU_NUM_MASK  0x3FU
#define TU_TIME_MASK 0xFFFFFU

#define TU_FLAG_LOG     0x01U
#define TU_FLAG_DYNAMIC 0x02U

/* Priorities are 0..255 in every ChibiOS/RT version. */
typedef struct
{
  thread_t   *tp;          /* NULL: exited while held */
  const char *name;        /* held exits only */
  uint16_t    exit_order;  /* held exits only */
  uint8_t     prio;        /* held exits only */
  uint8_t     flags;       /* held exits only */
} tu_slot_t;

typedef struct
{
  const char *name;
  uint32_t    seq;         /* sequence number of the exit record */
  uint8_t     prio;
  uint8_t     number;
  uint8_t     flags;
} tu_deleted_t;

/* A pause of the log during which switches were dropped: a hole in the log. */
typedef struct
{
  uint32_t seq;            /* sequence number of the first record written after it */
  uint32_t begin;          /* system time when the pause began and ended (not wrapped) */
  uint32_t end;
  uint32_t dropped;        /* switches not recorded during it */
} tu_pause_t;

static const char tu_dynamic_name[] = "Exited dynamic thread";

#ifdef THREADS_TIMESTAMP_CUSTOM_RAM_SECTION
#define TU_SECTION __attribute__((section(THREADS_TIMESTAMP_CUSTOM_RAM_SECTION)))
#else
#define TU_SECTION
#endif

TU_SECTION static uint32_t tu_log[THREADS_TIMESTAMPS_LOG_CAPACITY];
TU_SECTION static tu_slot_t tu_slots[THREADS_TIMESTAMPS_MAX_THREADS];
TU_SECTION static tu_deleted_t tu_deleted[THREADS_TIMESTAMPS_MAX_DELETED];
TU_SECTION static tu_pause_t tu_pauses[THREADS_TIMESTAMPS_MAX_PAUSES];

/* Whether newly created threads are logged. */
static uint8_t tu_log_setting = THREADS_TIMESTAMPS_DEFAULT_LOG;

/* The log: tu_count records end just before tu_head; tu_written counts every record written
 * since the log was last emptied (the sequence number of the next record). */
static uint32_t tu_head;
static uint32_t tu_count;
static uint32_t tu_written;

/* Recording: tu_active is the fast-path summary of (no pause and not frozen). */
static uint8_t tu_active = 1U;
static uint8_t tu_frozen;
static uint8_t tu_pause_count;
static uint8_t tu_hold_count;

/* Trigger */
static uint8_t tu_triggered;
static uint32_t tu_trigger_time;
static uint32_t tu_trigger_seq;      /* the sequence number of the first record after it */
static uint32_t tu_fill_remaining;
static const char *tu_trigger_name;

/* Numbered threads and held exits; tu_frozen_slots: numbered threads when the log froze (the
 * threads after them are not in the frozen log, so they can leave without renumbering it). */
static uint8_t tu_n_slots;
static uint8_t tu_frozen_slots;
static uint8_t tu_n_held;
static uint16_t tu_exit_order;

/* Exited-thread history, oldest first */
static uint8_t tu_deleted_first;
static uint8_t tu_deleted_count;

/* Counters reported by threads_dump */
static uint32_t tu_dropped_paused;
static uint32_t tu_dropped_history;
static uint32_t tu_unnumbered_live;
static uint32_t tu_unnumbered_total;

/* The pauses that dropped switches, oldest first; the one under way: when it began and the
 * value of tu_dropped_paused then. */
static uint8_t tu_pauses_first;
static uint8_t tu_pauses_count;
static uint32_t tu_pause_begin;
static uint32_t tu_pause_dropped_base;

#else
static const char no_timestamps_error_message[] =
  "The thread timestamps functionality is disabled" TU_NL
  "Please define USE_THREADS_TIMESTAMPS = true in your makefile " TU_NL;
#endif /* ENABLE_THREADS_TIMESTAMPS */

/********************               PRIVATE FUNCTIONS              ********************/

#ifdef ENABLE_THREADS_TIMESTAMPS

static void
tu_update_active (void)
{
  tu_active = (uint8_t) ((tu_pause_count == 0U) && (tu_frozen == 0U));
}

/* Stops the log where it is: what it holds stays as long as the trigger is set. */
static void
tu_freeze (void)
{
  tu_fill_remaining = 0;
  tu_frozen = 1U;
  tu_frozen_slots = tu_n_slots;
  tu_update_active ();
}

static void
tu_deleted_pop (void)
{
  tu_deleted_first = (uint8_t) ((tu_deleted_first + 1U) % THREADS_TIMESTAMPS_MAX_DELETED);
  tu_deleted_count--;
}

/* Appends one record; the oldest one is overwritten when the log is full. */
static inline void
tu_write (uint32_t record)
{
  if (tu_count >= TU_LOG_SIZE)
    {
      /* The oldest record goes: forget the exited thread it was the exit of. */
      if (tu_deleted_count != 0U
          && tu_deleted[tu_deleted_first].seq == tu_written - tu_count)
        tu_deleted_pop ();
      tu_count = TU_LOG_SIZE;
    }
  else
    {
      tu_count++;
    }

  tu_log[tu_head] = record;
  tu_head++;
  if (tu_head >= TU_LOG_SIZE)
    tu_head = 0;
  tu_written++;

  if (tu_triggered != 0U)
    {
      if (tu_fill_remaining <= 1U)
        tu_freeze ();
      else
        {
          tu_fill_remaining--;
        }
    }
}

static inline uint32_t
tu_make_record (uint32_t tick, uint32_t out_number, uint32_t in_number)
{
  return ((tick & TU_TIME_MASK) << TU_TIME_POS)
         | ((out_number & TU_NUM_MASK) << TU_OUT_POS)
         | ((in_number & TU_NUM_MASK) << TU_IN_POS);
}

static uint8_t
tu_flags_of (const thread_t *tp)
{
  uint8_t flags = 0;

  if (tp->log_this_thread != 0U)
    flags |= TU_FLAG_LOG;
  if ((tp->flags & CH_FLAG_MODE_MASK) != CH_FLAG_MODE_STATIC)
    flags |= TU_FLAG_DYNAMIC;
  return flags;
}

/* Removes slot @index (number index + 1) and renumbers the threads created after it. */
static void
tu_remove_slot (uint8_t index)
{
  uint8_t i;

  for (i = index; i + 1U < tu_n_slots; i++)
    {
      tu_slots[i] = tu_slots[i + 1U];
      if (tu_slots[i].tp != NULL)
        tu_slots[i].tp->tu_number = (uint8_t) (i + 1U);
    }
  tu_n_slots--;
  tu_slots[tu_n_slots].tp = NULL;
}

/* Armed by a trigger and the history full, the next exit discards the oldest records up to
 * the oldest exit: whether that would leave fewer records before the trigger than after it. */
static int
tu_exit_squeezes_trigger (void)
{
  uint32_t oldest, kept_from, before, after;

  if (tu_triggered == 0U || tu_frozen != 0U || tu_deleted_count < THREADS_TIMESTAMPS_MAX_DELETED)
    return 0;
  oldest = tu_written - tu_count;
  kept_from = tu_deleted[tu_deleted_first].seq + 1U;
  before = tu_trigger_seq - oldest > kept_from - oldest ? tu_trigger_seq - kept_from : 0U;
  after = tu_written - tu_trigger_seq + 1U;   /* with the exit record */
  return before < after;
}

/* Writes the exit record of the thread numbered @index + 1, remembers it in the history and
 * renumbers. Only called while the log records. */
static void
tu_exit_now (uint8_t index, uint8_t prio, uint8_t flags, const char *name)
{
  uint8_t number = (uint8_t) (index + 1U);
  tu_deleted_t *entry;

  tu_write (tu_make_record ((uint32_t) chVTGetSystemTimeX (), number, number));

  if (tu_deleted_count >= THREADS_TIMESTAMPS_MAX_DELETED)
    {
      /* History full: discard the log up to and including the oldest exit record, so that
       * the log never names an exited thread the history has forgotten. */
      uint32_t oldest = tu_written - tu_count;
      uint32_t drop = tu_deleted[tu_deleted_first].seq - oldest + 1U;

      tu_count -= drop;
      tu_dropped_history += drop;
      tu_deleted_pop ();
    }

  entry = &tu_deleted[(tu_deleted_first + tu_deleted_count) % THREADS_TIMESTAMPS_MAX_DELETED];
  entry->name = (flags & TU_FLAG_DYNAMIC) != 0U ? tu_dynamic_name : name;
  entry->seq = tu_written - 1U;
  entry->prio = prio;
  entry->number = number;
  entry->flags = flags;
  tu_deleted_count++;

  tu_remove_slot (index);
}

/* Writes the exits held while a list was printed, in the order they happened, as long as the
 * log records and nobody holds the numbers. */
static void
tu_flush_held (void)
{
  if (tu_frozen != 0U && tu_hold_count == 0U)
    {
      /* Frozen: exits of threads created after the freeze leave for good now. */
      uint8_t i = tu_n_slots;

      while (i > tu_frozen_slots)
        {
          i--;
          if (tu_slots[i].tp == NULL)
            {
              tu_remove_slot (i);
              tu_n_held--;
            }
        }
    }

  while (tu_n_held != 0U && tu_active != 0U && tu_hold_count == 0U)
    {
      uint8_t i, best = 0;
      uint16_t best_order = 0;
      int found = 0;

      for (i = 0; i < tu_n_slots; i++)
        {
          if (tu_slots[i].tp == NULL && (found == 0 || tu_slots[i].exit_order < best_order))
            {
              best = i;
              best_order = tu_slots[i].exit_order;
              found = 1;
            }
        }
      if (found == 0)
        {
          tu_n_held = 0;
          break;
        }
      if (tu_exit_squeezes_trigger () != 0)
        {
          /* The rest stay held, as exits do while the log is frozen. */
          tu_freeze ();
          break;
        }
      tu_n_held--;
      tu_exit_now (best, tu_slots[best].prio, tu_slots[best].flags, tu_slots[best].name);
    }
  if (tu_n_held == 0U)
    tu_exit_order = 0;
}

/* Forgets the held exits without records (the log is being emptied) and renumbers. */
static void
tu_purge_held (void)
{
  uint8_t i, n = 0;

  for (i = 0; i < tu_n_slots; i++)
    {
      if (tu_slots[i].tp != NULL)
        {
          tu_slots[n] = tu_slots[i];
          tu_slots[n].tp->tu_number = (uint8_t) (n + 1U);
          n++;
        }
    }
  for (i = n; i < tu_n_slots; i++)
    tu_slots[i].tp = NULL;
  tu_n_slots = n;
  tu_n_held = 0;
  tu_exit_order = 0;
}

static void
tu_clear_log (void)
{
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
static void
tu_pause_ended (void)
{
  uint32_t dropped = tu_dropped_paused - tu_pause_dropped_base;
  tu_pause_t *entry;

  if (dropped == 0U)
    return;
  if (tu_pauses_count >= THREADS_TIMESTAMPS_MAX_PAUSES)
    {
      tu_pauses_first = (uint8_t) ((tu_pauses_first + 1U) % THREADS_TIMESTAMPS_MAX_PAUSES);
      tu_pauses_count--;
    }
  entry = &tu_pauses[(tu_pauses_first + tu_pauses_count) % THREADS_TIMESTAMPS_MAX_PAUSES];
  entry->seq = tu_written;
  entry->begin = tu_pause_begin;
  entry->end = (uint32_t) chVTGetSystemTimeX ();
  entry->dropped = dropped;
  tu_pauses_count++;
}

/* Stops numbers from changing (and, with @pause, the log from changing) while printing. */
static void
tu_hold (int pause)
{
  chSysLock ();
  tu_hold_count++;
  if (pause != 0)
    {
      if (tu_pause_count == 0U)
        {
          tu_pause_begin = (uint32_t) chVTGetSystemTimeX ();
          tu_pause_dropped_base = tu_dropped_paused;
        }
      tu_pause_count++;
    }
  tu_update_active ();
  chSysUnlock ();
}

static void
tu_release (int pause)
{
  chSysLock ();
  if (tu_hold_count != 0U)
    tu_hold_count--;
  if (pause != 0 && tu_pause_count != 0U)
    {
      tu_pause_count--;
      if (tu_pause_count == 0U)
        tu_pause_ended ();
    }
  tu_update_active ();
  tu_flush_held ();
  chSysUnlock ();
}

typedef struct
{
  const char *name;
  int         number;
  int         prio;
  int         log;
} tu_line_t;

/* Prints the numbered threads then the history; the caller holds the numbers. */
static void
tu_print_list (BaseSequentialStream *out)
{
  uint8_t i, first, count;

  for (i = 0; ; i++)
    {
      tu_line_t line;

      chSysLock ();
      if (i >= tu_n_slots)
        {
          chSysUnlock ();
          break;
        }
      if (tu_slots[i].tp != NULL)
        {
          const thread_t *tp = tu_slots[i].tp;

          line.name = TU_NONAME (TU_NAME (tp));
          line.prio = (int) TU_PRIO (tp);
          line.log = tp->log_this_thread != 0U;
        }
      else
        {
          line.name = (tu_slots[i].flags & TU_FLAG_DYNAMIC) != 0U
                      ? tu_dynamic_name : TU_NONAME (tu_slots[i].name);
          line.prio = (int) tu_slots[i].prio;
          line.log = (tu_slots[i].flags & TU_FLAG_LOG) != 0U;
        }
      chSysUnlock ();

      chprintf (out, TU_LIST_FORMAT, (int) i + 1, line.prio, line.log ? "Yes" : "No", line.name);
    }

  chprintf (out, "Deleted threads: " TU_NL);

  /* No exit enters the history while numbers are held: these entries stay valid. */
  chSysLock ();
  first = tu_deleted_first;
  count = tu_deleted_count;
  chSysUnlock ();

  for (i = 0; i < count; i++)
    {
      const tu_deleted_t *entry = &tu_deleted[(first + i) % THREADS_TIMESTAMPS_MAX_DELETED];

      chprintf (out, TU_LIST_FORMAT, (int) entry->number, (int) entry->prio,
                (entry->flags & TU_FLAG_LOG) != 0U ? "Yes" : "No", TU_NONAME (entry->name));
    }
}

typedef struct
{
  uint32_t first;
  uint32_t count;
  uint32_t checksum;
} tu_span_t;

/* Prints the records of the log; the caller paused the log. */
static void
tu_print_records (BaseSequentialStream *out, tu_span_t *span)
{
  uint32_t i, pos;
  uint32_t hash = 2166136261U;

  pos = span->first;
  for (i = 0; i < span->count; i++)
    {
      uint32_t record = tu_log[pos];
      unsigned b;

      chprintf (out, "From %2d to %2d at %7d" TU_NL,
                (int) ((record >> TU_OUT_POS) & TU_NUM_MASK),
                (int) ((record >> TU_IN_POS) & TU_NUM_MASK),
                (int) ((record >> TU_TIME_POS) & TU_TIME_MASK));

      for (b = 0; b < 4U; b++)
        {
          hash ^= (record >> (8U * b)) & 0xFFU;
          hash *= 16777619U;
        }

      pos++;
      if (pos >= TU_LOG_SIZE)
        pos = 0;
    }
  span->checksum = hash;
}

static void
tu_snapshot_span (tu_span_t *span)
{
  span->count = tu_count;
  span->first = (tu_head + TU_LOG_SIZE - tu_count) % TU_LOG_SIZE;
  span->checksum = 0;
}

#endif /* ENABLE_THREADS_TIMESTAMPS */

/********************                CHCONF FUNCTION               ********************/

uint8_t
tuThreadLogSetting (void)
{
#ifdef ENABLE_THREADS_TIMESTAMPS
  return tu_log_setting;
#else
  return 0U;
#endif
}

void
tuThreadInitHook (void *ntp)
{
#ifdef ENABLE_THREADS_TIMESTAMPS
  thread_t *tp = (thread_t *) ntp;

  if (tu_n_slots < THREADS_TIMESTAMPS_MAX_THREADS)
    {
      tu_slots[tu_n_slots].tp = tp;
      tu_n_slots++;
      tp->tu_number = tu_n_slots;
    }
  else
    {
      tp->tu_number = 0;
      tu_unnumbered_live++;
      tu_unnumbered_total++;
    }
#else
  ((thread_t *) ntp)->tu_number = 0;
#endif
}

void
tuThreadExitHook (void *otp)
{
#ifdef ENABLE_THREADS_TIMESTAMPS
  thread_t *tp = (thread_t *) otp;
  uint8_t index;

  if (tp->tu_number == 0U || tp->tu_number > tu_n_slots || tu_slots[tp->tu_number - 1U].tp != tp)
    {
      if (tp->tu_number == 0U && tu_unnumbered_live != 0U)
        tu_unnumbered_live--;
      return;
    }

  index = (uint8_t) (tp->tu_number - 1U);

  if (tu_hold_count == 0U && tu_frozen != 0U && index >= tu_frozen_slots)
    {
      /* Created after the log froze: the log never names it nor the threads after it. */
      tu_remove_slot (index);
      tp->tu_number = 0;
      return;
    }

  if (tu_active != 0U && tu_exit_squeezes_trigger () != 0)
    tu_freeze ();

  if (tu_hold_count != 0U || tu_active == 0U)
    {
      /* Held: the thread keeps its number until printing ends or run mode empties the log.
       * Its fields are copied now, since a dynamic thread's memory is released after exit. */
      tu_slot_t *slot = &tu_slots[index];

      slot->name = TU_NAME (tp);
      slot->prio = (uint8_t) TU_PRIO (tp);
      slot->flags = tu_flags_of (tp);
      slot->exit_order = tu_exit_order++;
      slot->tp = NULL;
      tu_n_held++;
      return;
    }

  tu_exit_now (index, (uint8_t) TU_PRIO (tp), tu_flags_of (tp), TU_NAME (tp));
  /* The switch away from the exiting thread names no thread. */
  tp->tu_number = 0;
#else
  (void) otp;
#endif
}

void
tuContextSwitchHook (void *ntp, void *otp)
{
#ifdef ENABLE_THREADS_TIMESTAMPS
  const thread_t *in = (const thread_t *) ntp;
  const thread_t *out = (const thread_t *) otp;

  if ((in->log_this_thread | out->log_this_thread) == 0U)
    return;

  if (tu_active == 0U)
    {
      if (tu_frozen == 0U)
        tu_dropped_paused++;
      return;
    }

  tu_write ((((uint32_t) chVTGetSystemTimeX () & TU_TIME_MASK) << TU_TIME_POS)
            | ((uint32_t) out->tu_number << TU_OUT_POS)
            | ((uint32_t) in->tu_number << TU_IN_POS));
#else
  (void) ntp;
  (void) otp;
#endif
}

/********************                PUBLIC FUNCTIONS              ********************/

void
tuPrintUcUsage (BaseSequentialStream *out)
{
#if (CH_DBG_STATISTICS == TRUE) && (CH_CFG_USE_REGISTRY == TRUE)
  thread_t *tp;
  uint64_t sum = 0;
  uint64_t crit_thd, crit_isr;
  unsigned tmp1, tmp2;

  chSysLock ();
  crit_thd = (uint64_t) TU_KERNEL_STATS.m_crit_thd.cumulative;
  crit_isr = (uint64_t) TU_KERNEL_STATS.m_crit_isr.cumulative;
  chSysUnlock ();

  for (tp = chRegFirstThread (); tp != NULL; tp = chRegNextThread (tp))
    sum += (uint64_t) tp->stats.cumulative;
  sum += crit_thd + crit_isr;
  if (sum == 0U)
    sum = 1U;

  for (tp = chRegFirstThread (); tp != NULL; tp = chRegNextThread (tp))
    {
      tmp1 = (unsigned) ((uint64_t) tp->stats.cumulative * 10000U / sum);
      chprintf (out, "%25s          %u.%02u%%" TU_NL, TU_NONAME (TU_NAME (tp)),
                tmp1 / 100U, tmp1 % 100U);
    }

  tmp1 = (unsigned) (crit_thd * 10000U / sum);
  tmp2 = (unsigned) (crit_isr * 10000U / sum);

  chprintf (out, TU_NL "            critical thd:%u.%02u%%   critical isr:%u.%02u%%" TU_NL,
            tmp1 / 100U, tmp1 % 100U, tmp2 / 100U, tmp2 % 100U);
  chprintf (out, TU_NL);
#else
  chprintf (out, "Thread statistics are disabled (CH_DBG_STATISTICS)" TU_NL);
#endif
}

void
tuPrintStatThreads (BaseSequentialStream *out)
{
#if CH_CFG_USE_REGISTRY == TRUE
  static const char *const states[] = {CH_STATE_NAMES};
  thread_t *tp;

  chprintf (out, TU_NL);
  chprintf (out, "     begin        end   size   used    %% prio     state         name" TU_NL);
  chprintf (out, "--------------------------------------------------------------------" TU_NL);

  tp = chRegFirstThread ();
  if (tp == NULL)
    {
      chprintf (out, TU_NL);
      return;
    }

  /* The main thread runs on the startup stack: its size is not known here. */
  chprintf (out, "0x%08lx 0x%08lx    ???    ???  ??? %4lu %9s %12s" TU_NL,
            (unsigned long) (uintptr_t) tp->wabase, (unsigned long) (uintptr_t) tp,
            (unsigned long) TU_PRIO (tp),
            (size_t) tp->state < sizeof states / sizeof states[0] ? states[tp->state] : "?",
            TU_NONAME (TU_NAME (tp)));

  for (tp = chRegNextThread (tp); tp != NULL; tp = chRegNextThread (tp))
    {
      const uint8_t *begin = (const uint8_t *) tp->wabase;
      const uint8_t *end = (const uint8_t *) tp;
      unsigned long n = 0;
      unsigned long sz = 0;

      if (begin != NULL && begin < end)
        {
          sz = (unsigned long) (end - begin);
          while (begin < end)
            if (*begin++ != CH_DBG_STACK_FILL_VALUE)
              n++;
        }

      chprintf (out, "0x%08lx 0x%08lx %6lu %6lu %3lu%% %4lu %9s %12s" TU_NL,
                (unsigned long) (uintptr_t) tp->wabase, (unsigned long) (uintptr_t) tp,
                sz, n, sz != 0U ? n * 100U / sz : 0UL,
                (unsigned long) TU_PRIO (tp),
                (size_t) tp->state < sizeof states / sizeof states[0] ? states[tp->state] : "?",
                TU_NONAME (TU_NAME (tp)));
    }

  chprintf (out, TU_NL);
#else
  chprintf (out, "The thread registry is disabled (CH_CFG_USE_REGISTRY)" TU_NL);
#endif
}

void
tuPrintListThreads (BaseSequentialStream *out)
{
#ifdef ENABLE_THREADS_TIMESTAMPS
  tu_hold (0);
  tu_print_list (out);
  tu_release (0);
#elif CH_CFG_USE_REGISTRY == TRUE
  thread_t *tp;
  int n = 1;

  for (tp = chRegFirstThread (); tp != NULL; tp = chRegNextThread (tp))
    {
      chprintf (out, TU_LIST_FORMAT, n, (int) TU_PRIO (tp), "No", TU_NONAME (TU_NAME (tp)));
      n++;
    }
#else
  (void) out;
#endif
}

void
tuPrintTimestamps (BaseSequentialStream *out)
{
#ifdef ENABLE_THREADS_TIMESTAMPS
  tu_span_t span;
  uint8_t triggered;
  uint32_t trigger_time;

  tu_hold (1);
  chSysLock ();
  tu_snapshot_span (&span);
  triggered = tu_triggered;
  trigger_time = tu_trigger_time;
  chSysUnlock ();

  if (triggered != 0U)
    chprintf (out, "Triggered at %7d" TU_NL, (int) trigger_time);
  tu_print_records (out, &span);

  tu_release (1);
#else
  chprintf (out, "%s", no_timestamps_error_message);
#endif
}

void
tuPrintDump (BaseSequentialStream *out)
{
#ifdef ENABLE_THREADS_TIMESTAMPS
  tu_span_t span;
  uint8_t triggered, frozen, log_setting;
  uint32_t trigger_time, written, dropped_paused, dropped_history, unnumbered_live,
           unnumbered_total;
  uint8_t i, pauses_first, pauses_count;
  const char *trigger_name;

  tu_hold (1);
  chSysLock ();
  tu_snapshot_span (&span);
  triggered = tu_triggered;
  frozen = tu_frozen;
  trigger_time = tu_trigger_time;
  trigger_name = tu_trigger_name;
  written = tu_written;
  dropped_paused = tu_dropped_paused;
  dropped_history = tu_dropped_history;
  unnumbered_live = tu_unnumbered_live;
  unnumbered_total = tu_unnumbered_total;
  log_setting = tu_log_setting;
  pauses_first = tu_pauses_first;
  pauses_count = tu_pauses_count;
  chSysUnlock ();

  chprintf (out, "Dump version: %d" TU_NL, THREADS_UTILITIES_DUMP_VERSION);
  chprintf (out, "Library version: %s" TU_NL, THREADS_UTILITIES_VERSION);
  chprintf (out, "Kernel version: %s" TU_NL, CH_KERNEL_VERSION);
  chprintf (out, "Tick frequency: %lu" TU_NL, (unsigned long) (CH_CFG_ST_FREQUENCY));
  chprintf (out, "Tick bits: %d" TU_NL, 20);
  chprintf (out, "Log size: %lu" TU_NL, (unsigned long) TU_LOG_SIZE);
  chprintf (out, "Max threads: %d" TU_NL, THREADS_TIMESTAMPS_MAX_THREADS);
  chprintf (out, "Max deleted: %d" TU_NL, THREADS_TIMESTAMPS_MAX_DELETED);
  chprintf (out, "Default log: %s" TU_NL, log_setting != 0U ? "Yes" : "No");
  chprintf (out, "Mode: %s" TU_NL, triggered == 0U ? "run" : frozen != 0U ? "frozen" : "armed");
  if (triggered != 0U)
    {
      chprintf (out, "Trigger tick: %lu" TU_NL, (unsigned long) trigger_time);
      chprintf (out, "Trigger name: %s" TU_NL, TU_NONAME (trigger_name));
    }
  chprintf (out, "Records: %lu" TU_NL, (unsigned long) span.count);
  chprintf (out, "Records written: %lu" TU_NL, (unsigned long) written);
  chprintf (out, "Dropped while paused: %lu" TU_NL, (unsigned long) dropped_paused);
  chprintf (out, "Dropped for history: %lu" TU_NL, (unsigned long) dropped_history);
  chprintf (out, "Unnumbered threads: %lu live, %lu total" TU_NL,
            (unsigned long) unnumbered_live, (unsigned long) unnumbered_total);
  /* No pause ends while this one lasts: these entries stay valid. Only the holes with
   * printed records on both sides. */
  for (i = 0; i < pauses_count; i++)
    {
      const tu_pause_t *p = &tu_pauses[(pauses_first + i) % THREADS_TIMESTAMPS_MAX_PAUSES];
      uint32_t index = p->seq - (written - span.count);

      if (index != 0U && index < span.count)
        chprintf (out, "Paused: before record %lu, ticks %lu to %lu, %lu switches dropped" TU_NL,
                  (unsigned long) p->seq, (unsigned long) p->begin, (unsigned long) p->end,
                  (unsigned long) p->dropped);
    }
  chprintf (out, "Threads:" TU_NL);
  tu_print_list (out);
  chprintf (out, "Timestamps:" TU_NL);
  if (triggered != 0U)
    chprintf (out, "Triggered at %7d" TU_NL, (int) trigger_time);
  tu_print_records (out, &span);
  chprintf (out, "End of dump: %lu records, checksum %08lx" TU_NL,
            (unsigned long) span.count, (unsigned long) span.checksum);

  tu_release (1);
#else
  chprintf (out, "%s", no_timestamps_error_message);
#endif
}

const char *
tuSetTriggerI (const char *trigger_name)
{
#ifdef ENABLE_THREADS_TIMESTAMPS
  chDbgCheckClassI ();

  if (tu_triggered == 0U)
    {
      tu_trigger_name = trigger_name;
      tu_triggered = 1U;
      tu_trigger_time = (uint32_t) chVTGetSystemTimeX ();
      tu_trigger_seq = tu_written;
      if (tu_count <= TU_LOG_SIZE / 2U)
        {
          /* Triggered before the log is half full: use the whole remaining room. */
          tu_fill_remaining = TU_LOG_SIZE - tu_count;
        }
      else
        {
          tu_fill_remaining = TU_LOG_SIZE / 2U;
        }
      if (tu_fill_remaining == 0U)
        tu_freeze ();
    }
  return tu_trigger_name;
#else
  (void) trigger_name;
  return NULL;
#endif
}

const char *
tuSetTrigger (const char *trigger_name)
{
#ifdef ENABLE_THREADS_TIMESTAMPS
  const char *name;

  chSysLock ();
  name = tuSetTriggerI (trigger_name);
  chSysUnlock ();
  return name;
#else
  (void) trigger_name;
  return NULL;
#endif
}

void
tuResetTriggerI (void)
{
#ifdef ENABLE_THREADS_TIMESTAMPS
  chDbgCheckClassI ();

  if (tu_triggered != 0U)
    {
      tu_triggered = 0;
      tu_frozen = 0;
      tu_trigger_time = 0;
      tu_trigger_name = NULL;
      tu_fill_remaining = 0;
      /* Old records would leave a gap and unpaired switches: start a new log. */
      tu_clear_log ();
      if (tu_hold_count == 0U)
        tu_purge_held ();
      tu_update_active ();
    }
#endif
}

void
tuResetTrigger (void)
{
#ifdef ENABLE_THREADS_TIMESTAMPS
  chSysLock ();
  tuResetTriggerI ();
  chSysUnlock ();
#endif
}

void
tuResetState (void)
{
#ifdef ENABLE_THREADS_TIMESTAMPS
  uint8_t i;

  chSysLock ();
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
  tu_fill_remaining = 0;
  tu_unnumbered_live = 0;
  tu_unnumbered_total = 0;
  tu_log_setting = THREADS_TIMESTAMPS_DEFAULT_LOG;
  tu_clear_log ();
  tu_update_active ();
  chSysUnlock ();
#endif
}

void
tuLogThisThread (void)
{
#ifdef ENABLE_THREADS_TIMESTAMPS
  chThdGetSelfX ()->log_this_thread = 1U;
#endif
}

void
tuDontLogThisThread (void)
{
#ifdef ENABLE_THREADS_TIMESTAMPS
  chThdGetSelfX ()->log_this_thread = 0U;
#endif
}

void
tuLogNextCreatedThreads (void)
{
#ifdef ENABLE_THREADS_TIMESTAMPS
  tu_log_setting = 1U;
#endif
}

void
tuDontLogNextCreatedThreads (void)
{
#ifdef ENABLE_THREADS_TIMESTAMPS
  tu_log_setting = 0U;
#endif
}

/********************                SHELL FUNCTIONS               ********************/

void
tuCmdThreadsList (BaseSequentialStream *chp, int argc, char *argv[])
{
  (void) argv;

  if (argc > 0)
    {
      shellUsage (chp, "threads_list");
      return;
    }
  tuPrintListThreads (chp);
}

void
tuCmdThreadsTimestampsTrigger (BaseSequentialStream *chp, int argc, char *argv[])
{
  (void) argv;

  if (argc > 0)
    {
      shellUsage (chp, "threads_timestamps_trigger");
      return;
    }
#ifdef ENABLE_THREADS_TIMESTAMPS
  {
    const char *name;
    uint32_t time;

    /* Name and tick read together: an interrupt may set or reset the trigger meanwhile. */
    chSysLock ();
    name = tuSetTriggerI ("Shell command");
    time = tu_trigger_time;
    chSysUnlock ();
    chprintf (chp, "Trigger set by %s at %7d" TU_NL, TU_NONAME (name), (int) time);
  }
#else
  chprintf (chp, "%s", no_timestamps_error_message);
#endif
}

void
tuCmdThreadsTimestampsRun (BaseSequentialStream *chp, int argc, char *argv[])
{
  (void) argv;

  if (argc > 0)
    {
      shellUsage (chp, "threads_timestamps_run");
      return;
    }
#ifdef ENABLE_THREADS_TIMESTAMPS
  tuResetTrigger ();
  chprintf (chp, "Run mode" TU_NL);
#else
  chprintf (chp, "%s", no_timestamps_error_message);
#endif
}

void
tuCmdThreadsTimestamps (BaseSequentialStream *chp, int argc, char *argv[])
{
  (void) argv;

  if (argc > 0)
    {
      shellUsage (chp, "threads_timestamps");
      return;
    }
  tuPrintTimestamps (chp);
}

void
tuCmdThreadsDump (BaseSequentialStream *chp, int argc, char *argv[])
{
  (void) argv;

  if (argc > 0)
    {
      shellUsage (chp, "threads_dump");
      return;
    }
  tuPrintDump (chp);
}

void
tuCmdThreadsStat (BaseSequentialStream *chp, int argc, char *argv[])
{
  (void) argc;
  (void) argv;
  tuPrintStatThreads (chp);
}

void
tuCmdThreadsUc (BaseSequentialStream *chp, int argc, char *argv[])
{
  (void) argc;
  (void) argv;
  tuPrintUcUsage (chp);
}

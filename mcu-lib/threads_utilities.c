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
 */

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "threads_utilities.h"
/* After the kernel and HAL headers, which ChibiOS's shell.h needs first. */
#include "shell.h"

/* Every line ends as the shell's own lines do ("\r\n" unless the firmware says otherwise). */
#define TU_NL SHELL_NEWLINE_STR

/* Out of the hooks' fast path: rare work (condition checks, making room). */
/* The hooks' fast path, inline even at -Os. */
#if defined(__GNUC__)
#define TU_COLD __attribute__((cold, noinline))
#define TU_HOT  __attribute__((always_inline))
#else
#define TU_COLD
#define TU_HOT
#endif

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

/* Threads that get a number (the record has 6 bits per number; with events, number 63 marks
 * an event entry). */
#if TU_EVENTS
#define TU_MAX_THREAD_NUMBER 62
#else
#define TU_MAX_THREAD_NUMBER 63
#endif
#ifndef THREADS_TIMESTAMPS_MAX_THREADS
#define THREADS_TIMESTAMPS_MAX_THREADS TU_MAX_THREAD_NUMBER
#endif
#if (THREADS_TIMESTAMPS_MAX_THREADS < 2) || (THREADS_TIMESTAMPS_MAX_THREADS > TU_MAX_THREAD_NUMBER)
#error "THREADS_TIMESTAMPS_MAX_THREADS must be between 2 and 63 (62 with events)"
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

/* threads_record: the host's stop byte, and how long the board streams without a byte from
 * the host (its keep-alive). */
#define TU_REC_STOP       THREADS_RECORD_STOP_BYTE
#define TU_REC_SILENCE_MS THREADS_RECORD_SILENCE_MS

#define TU_IN_POS    0
#define TU_OUT_POS   6
#define TU_TIME_POS  12
#define TU_NUM_MASK  0x3FU
/* Bits of the system tick a record keeps: 20, or the 16 of a 16-bit system time (the header's
 * "Tick bits"). Ticks, steps and the ticks of the "Paused:", "Lost:" and "Heartbeat:" lines
 * wrap there. */
#if defined(CH_CFG_ST_RESOLUTION) && (CH_CFG_ST_RESOLUTION == 16)
#define TU_TICK_BITS 16U
#else
#define TU_TICK_BITS 20U
#endif
#define TU_TIME_MASK ((uint32_t) ((1UL << TU_TICK_BITS) - 1UL))

#define TU_FLAG_LOG     0x01U
#define TU_FLAG_DYNAMIC 0x02U
#define TU_FLAG_COPIED  0x04U   /* the name is the entry's copy (a dynamic thread's) */

/* An exited dynamic thread's memory, where its name may be, can be reused: its name is kept
 * as a pointer when it lies in constant storage (TU_NAME_IS_CONSTANT), else as a copy of up to
 * THREADS_TIMESTAMPS_NAME_COPY - 1 characters taken at its exit; with 0, not kept. */
#ifndef THREADS_TIMESTAMPS_NAME_COPY
#define THREADS_TIMESTAMPS_NAME_COPY 12
#endif
#if (THREADS_TIMESTAMPS_NAME_COPY < 0) || (THREADS_TIMESTAMPS_NAME_COPY > 64)
#error "THREADS_TIMESTAMPS_NAME_COPY must be between 0 and 64"
#endif
#define TU_NAME_ROOM (THREADS_TIMESTAMPS_NAME_COPY > 0 ? THREADS_TIMESTAMPS_NAME_COPY : 1)

/* Whether @p lies in constant storage. THREADS_TIMESTAMPS_NAME_IS_CONSTANT(p) may say it; on
 * Cortex-M with GCC, the .rodata section of ChibiOS's linker scripts (its bounds are weak:
 * a script without them makes every name a copy). */
#if defined(THREADS_TIMESTAMPS_NAME_IS_CONSTANT)
#define TU_NAME_IS_CONSTANT(p) THREADS_TIMESTAMPS_NAME_IS_CONSTANT (p)
#elif defined(__GNUC__) && defined(__arm__) && defined(__ARM_ARCH_PROFILE) && (__ARM_ARCH_PROFILE == 'M')
extern const char __rodata_base__[] __attribute__((weak));
extern const char __rodata_end__[] __attribute__((weak));
#define TU_NAME_IS_CONSTANT(p) ((uintptr_t) (p) >= (uintptr_t) __rodata_base__         \
                                && (uintptr_t) (p) < (uintptr_t) __rodata_end__)
#else
#define TU_NAME_IS_CONSTANT(p) 0
#endif

/* Priorities are 0..255 in every ChibiOS/RT version. */
typedef struct
{
  thread_t   *tp;          /* NULL: exited while held */
  const char *name;        /* held exits only (see tu_keep_name()) */
  uint16_t    exit_order;  /* held exits only */
  uint8_t     prio;        /* held exits only */
  uint8_t     flags;       /* held exits only */
  char        copy[TU_NAME_ROOM];   /* held exits only */
} tu_slot_t;

typedef struct
{
  const char *name;        /* see tu_keep_name() */
  uint32_t    seq;         /* sequence number of the exit record */
  uint8_t     prio;
  uint8_t     number;
  uint8_t     flags;
  char        copy[TU_NAME_ROOM];
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

/* Kinds of the event entries (record word with out-thread TU_EVENT_MARK), with events. */
#define TU_EVENT_MARK   63U
#define TU_EV_IRQ_ENTER 1U   /* payload A: name id of the handler (above 30) */
#define TU_EV_IRQ_LEAVE 2U   /* the innermost handler under way ends */
#define TU_EV_SLEEP     3U   /* the CPU goes idle */
#define TU_EV_WAKE      4U   /* the CPU leaves idle */
#define TU_EV_READY     5U   /* payload A: number of the thread made ready */
#define TU_EV_MARKER    6U   /* payload A: name id, B: value */
#define TU_EV_BEGIN     7U   /* payload A: channel id | state id << 8 */
#define TU_EV_END       8U   /* payload A: channel id */
#define TU_EV_TRIGGER   9U   /* the trigger was set here */
#define TU_EV_KINDS     10U
/* A handler with a name id up to 30 enters without a payload: kind 32 + id. */
#define TU_EV_IRQ_SHORT 32U
#define TU_IRQ_SHORT_MAX 30U
/* A continuation slot: record word A << 12 | 0xFFF, then (with the counter) B. */
#define TU_EV_MORE      63U
#define TU_MORE_MARK    0xFFFU
#define TU_MORE_A_MASK  0xFFFFFU

#if TU_EVENTS
/* Payload of each kind: 0 none, 1 A, 2 A and B. */
static const uint8_t tu_payload_of[TU_EV_KINDS] = { 0, 1, 0, 0, 0, 1, 2, 1, 1, 0 };

#define TU_STAMP_WORDS ((uint32_t) TU_CYCLES)
#else
#define TU_STAMP_WORDS 0U
#endif

/* The log is a ring of THREADS_TIMESTAMPS_LOG_SIZE slots of TU_SLOT_WORDS words. */
#define TU_SLOT_WORDS (1U + TU_STAMP_WORDS)

#if TU_CYCLES
#ifndef THREADS_TIMESTAMPS_COUNTER_HZ
#error "THREADS_TIMESTAMPS_COUNTER_HZ (the realtime counter's frequency) must be set with THREADS_TIMESTAMPS_CYCLES"
#endif
#define TU_NOW()     ((uint32_t) chSysGetRealtimeCounterX ())
#define TU_NOW_HZ    ((uint64_t) (THREADS_TIMESTAMPS_COUNTER_HZ))
#else
#define TU_NOW()     ((uint32_t) chVTGetSystemTimeX ())
#define TU_NOW_HZ    ((uint64_t) (CH_CFG_ST_FREQUENCY))
#endif

#if TU_IRQ || TU_USER
#ifndef THREADS_TIMESTAMPS_MAX_NAMES
#define THREADS_TIMESTAMPS_MAX_NAMES 32
#endif
#if (THREADS_TIMESTAMPS_MAX_NAMES < 1) || (THREADS_TIMESTAMPS_MAX_NAMES > 255)
#error "THREADS_TIMESTAMPS_MAX_NAMES must be between 1 and 255"
#endif
#define TU_NAMES 1
#else
#define TU_NAMES 0
#endif

/* Interrupt handlers that can nest, as far as the log keeps their names and times. */
#define TU_MAX_NESTING 8U

#ifdef THREADS_TIMESTAMP_CUSTOM_RAM_SECTION
#define TU_SECTION __attribute__((section(THREADS_TIMESTAMP_CUSTOM_RAM_SECTION)))
#else
#define TU_SECTION
#endif

TU_SECTION static uint32_t tu_log[(THREADS_TIMESTAMPS_LOG_CAPACITY) * (1U + TU_STAMP_WORDS)];
TU_SECTION static tu_slot_t tu_slots[THREADS_TIMESTAMPS_MAX_THREADS];
TU_SECTION static tu_deleted_t tu_deleted[THREADS_TIMESTAMPS_MAX_DELETED];
TU_SECTION static tu_pause_t tu_pauses[THREADS_TIMESTAMPS_MAX_PAUSES];

/* Whether newly created threads are logged. */
static uint8_t tu_log_setting = THREADS_TIMESTAMPS_DEFAULT_LOG;

/* The log: tu_count records (with events: slots) end just before tu_head; tu_written counts
 * every record written since the log was last emptied (the sequence number of the next
 * record). */
static uint32_t tu_head;
static uint32_t tu_count;
static uint32_t tu_written;

/* The writer's fast path takes a slot while tu_head < tu_fast_end; tu_count grows by
 * tu_count_step then (1 until the log is full). tu_window() sets both (see there). */
static uint32_t tu_fast_end;
static uint32_t tu_count_step;

/* Recording: tu_active is the fast-path summary of (no pause and not frozen). */
static uint8_t tu_active = 1U;
static uint8_t tu_frozen;
static uint8_t tu_pause_count;
static uint8_t tu_hold_count;

/* Trigger */
static uint8_t tu_triggered;
static uint32_t tu_trigger_time;
static uint32_t tu_trigger_seq;      /* the sequence number of the first record after it */
static uint32_t tu_freeze_at;        /* the log freezes when tu_written reaches it */
/* tu_freeze_at this far ahead: not before 2^31 slots (a trigger set while recording waits). */
#define TU_FREEZE_NEVER 0x7FFFFFFFU
static const char *tu_trigger_name;
#if TU_RECORD
static uint8_t tu_recording;         /* threads_record under way: a trigger does not freeze */
#endif

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

#if TU_NAMES
#define TU_NAME_IRQ     0U
#define TU_NAME_MARKER  1U
#define TU_NAME_CHANNEL 2U
#define TU_NAME_STATE   3U
static const char *const tu_name_kind_names[] = { "irq", "marker", "channel", "state" };
TU_SECTION static const char *tu_names[THREADS_TIMESTAMPS_MAX_NAMES];
TU_SECTION static uint8_t tu_name_kinds[THREADS_TIMESTAMPS_MAX_NAMES];
static uint8_t tu_n_names;
static uint32_t tu_names_refused;
#endif

#if TU_IRQ
/* The handlers' fast check, indexed by a handler's id variable (which only ever holds 0 or
 * an id returned by the table, so it is in bounds): entry i is the name of id i when i is a
 * handler's id of at most TU_IRQ_SHORT_MAX (its entry takes one slot). Every other id given
 * since start-up has TU_IRQ_OTHER, so that no name, not even NULL, matches a stale id after
 * tuResetState(); entry 0 stays NULL (a handler without a name is recorded as id 0). */
#define TU_IRQ_OTHER tu_dynamic_name
static const char *tu_irq_fast[THREADS_TIMESTAMPS_MAX_NAMES + 1];

/* Handlers only counted, not logged (tuIrqIgnore(), THREADS_TIMESTAMPS_IRQ_IGNORE): typically
 * the one of the link that carries the shell, which runs for every byte the board sends, so a
 * recording would log its own output. Indexed by id - 1: whether it is counted only, and its
 * calls since it was named. Such a handler takes the slow path (its tu_irq_fast entry is
 * TU_IRQ_OTHER); while one is under way, tu_irq_skip has a bit per nesting level (1: counted
 * only), innermost lowest, and the writer's window is shut, so that its leave takes the slow
 * path too. The fast paths of the other handlers do not change. */
#if !defined(THREADS_TIMESTAMPS_IRQ_IGNORE) && defined(PORT_ARCHITECTURE_SIMIA32)
/* The RT-Posix simulator's serial driver: polled at every turn of the idle loop. */
#define THREADS_TIMESTAMPS_IRQ_IGNORE "sd_lld_interrupt_pending"
#endif
static uint8_t tu_irq_ignored[THREADS_TIMESTAMPS_MAX_NAMES];
static uint32_t tu_irq_calls[THREADS_TIMESTAMPS_MAX_NAMES];
static uint32_t tu_irq_skip;
static uint8_t tu_n_ignored;
#endif

#if TU_IRQ && TU_CONDITIONS
/* The handlers under way, innermost last, and when they entered. */
static uint8_t tu_irq_stack[TU_MAX_NESTING];
static uint32_t tu_irq_since[TU_MAX_NESTING];
static uint8_t tu_irq_depth;
#endif

#if TU_CONDITIONS
/* The condition: its kind (tu_when_t), its limit in counter units (or the marker's value),
 * the name it is restricted to ("" for any) and its id once known (handlers, markers). */
static uint8_t tu_when;
static uint8_t tu_when_on_switch;   /* latency or run: checked at every switch */
static uint32_t tu_when_limit;
static uint32_t tu_when_us;
static uint8_t tu_when_id;
static char tu_when_name[48];
static char tu_when_text[80];
static char tu_fired_text[80];      /* the trigger's name: the condition when it fired */
static uint32_t tu_when_measured_us;
static uint8_t tu_when_fired;
static uint32_t tu_run_since;
#endif

#if !TU_RECORD
static const char no_record_error_message[] =
  "Recording is not built in" TU_NL
  "Please define THREADS_TIMESTAMPS_RECORD = true in your makefile" TU_NL;
#endif

#else
static const char no_timestamps_error_message[] =
  "The thread timestamps functionality is disabled" TU_NL
  "Please define USE_THREADS_TIMESTAMPS = true in your makefile " TU_NL;
#define no_record_error_message no_timestamps_error_message
#endif /* ENABLE_THREADS_TIMESTAMPS */

/********************               PRIVATE FUNCTIONS              ********************/

#ifdef ENABLE_THREADS_TIMESTAMPS

static const char *tu_set_trigger (const char *trigger_name);

static void tu_window (void);

static void
tu_update_active (void)
{
  tu_active = (uint8_t) ((tu_pause_count == 0U) && (tu_frozen == 0U));
  tu_window ();
}

/* Stops the log where it is: what it holds stays as long as the trigger is set. */
static void
tu_freeze (void)
{
  /* Any slot written from now on (continuation slots, replayed entries) freezes it again. */
  tu_freeze_at = tu_written;
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
static void
tu_window (void)
{
  uint32_t room = 0;

  tu_count_step = tu_count < TU_LOG_SIZE ? 1U : 0U;
  if (tu_active != 0U
#if TU_IRQ && TU_CONDITIONS
      && tu_when != TU_WHEN_IRQ
#endif
#if TU_IRQ
      && tu_irq_skip == 0U
#endif
      && tu_head + 1U < TU_LOG_SIZE)
    {
      /* The last slot of the array: the slow path wraps the ring. */
      room = TU_LOG_SIZE - 1U - tu_head;
      if (tu_count < TU_LOG_SIZE)
        {
          /* Filling: nothing is overwritten until the log is full. */
          if (room > TU_LOG_SIZE - tu_count)
            room = TU_LOG_SIZE - tu_count;
        }
      else if (tu_deleted_count != 0U
               && room > tu_deleted[tu_deleted_first].seq - (tu_written - tu_count))
        {
          /* Up to the oldest exit record in the history. */
          room = tu_deleted[tu_deleted_first].seq - (tu_written - tu_count);
        }
      if (tu_triggered != 0U)
        {
          /* The slot that ends the countdown. */
          uint32_t left = tu_freeze_at - tu_written;

          if (room >= left)
            room = left != 0U ? left - 1U : 0U;
        }
    }
  tu_fast_end = tu_head + room;
}

TU_HOT static inline void
tu_put_fast (uint32_t record, uint32_t second)
{
  uint32_t h = tu_head;

  tu_log[h * TU_SLOT_WORDS] = record;
#if TU_CYCLES
  tu_log[h * TU_SLOT_WORDS + 1U] = second;
#else
  (void) second;
#endif
  tu_head = h + 1U;
  tu_written++;
  tu_count += tu_count_step;
}

/* Every slot outside the fast window. @starts: the slot begins an entry (dropped while the
 * log is paused or frozen). Returns whether the slot was written. */
TU_COLD static int
tu_put_slow (uint32_t record, uint32_t second, int starts)
{
  uint32_t h = tu_head;

  if (starts != 0 && tu_active == 0U)
    {
      if (tu_frozen == 0U)
        tu_dropped_paused++;
      return 0;
    }
  if (tu_count >= TU_LOG_SIZE)
    {
      /* The oldest slot goes: forget the exited thread it was the exit record of. */
      if (tu_deleted_count != 0U && tu_deleted[tu_deleted_first].seq == tu_written - tu_count)
        tu_deleted_pop ();
      tu_count = TU_LOG_SIZE;
    }
  else
    {
      tu_count++;
    }
  tu_log[h * TU_SLOT_WORDS] = record;
#if TU_CYCLES
  tu_log[h * TU_SLOT_WORDS + 1U] = second;
#else
  (void) second;
#endif
  if (++h >= TU_LOG_SIZE)
    h = 0;
  tu_head = h;
  tu_written++;

  if (tu_triggered != 0U && (int32_t) (tu_written - tu_freeze_at) >= 0)
    tu_freeze ();
  else
    tu_window ();
  return 1;
}

/* Appends one slot (see tu_window()); @starts as for tu_put_slow(). */
static inline int
tu_put (uint32_t record, uint32_t second, int starts)
{
  if (tu_head >= tu_fast_end)
    return tu_put_slow (record, second, starts);
  tu_put_fast (record, second);
  return 1;
}

#if TU_EVENTS
/* A continuation slot carrying @a (20 bits) and @b. Without the counter, @b takes two more
 * continuation slots (16 bits each, low half first). */
static void
tu_put_more (uint32_t a, uint32_t b, int with_b)
{
  (void) tu_put (((a & TU_MORE_A_MASK) << TU_TIME_POS) | TU_MORE_MARK, b, 0);
#if !TU_CYCLES
  if (with_b != 0)
    {
      (void) tu_put (((b & 0xFFFFU) << TU_TIME_POS) | TU_MORE_MARK, 0, 0);
      (void) tu_put (((b >> 16) << TU_TIME_POS) | TU_MORE_MARK, 0, 0);
    }
#else
  (void) with_b;
#endif
}

static inline uint32_t
tu_record_now (uint32_t out_number, uint32_t in_number)
{
  return (((uint32_t) chVTGetSystemTimeX () & TU_TIME_MASK) << TU_TIME_POS)
         | ((out_number & TU_NUM_MASK) << TU_OUT_POS)
         | ((in_number & TU_NUM_MASK) << TU_IN_POS);
}

/* Records an event of @kind (locked) with its payload, or counts it when the log is
 * paused. */
static inline void
tu_event (uint32_t kind, uint32_t a, uint32_t b)
{
  if (tu_put (tu_record_now (TU_EVENT_MARK, kind), TU_NOW (), 1) == 0)
    return;
  if (kind < TU_EV_KINDS && tu_payload_of[kind] != 0U)
    tu_put_more (a, b, tu_payload_of[kind] == 2U);
}
#endif /* TU_EVENTS */

#if TU_NAMES
/* The id of @name of @kind, registered now if needed; 0 when the table is full. Locked. */
static tuname_t
tu_register_name (const char *name, uint8_t kind)
{
  uint8_t i;

  if (name == NULL)
    return 0;
  for (i = 0; i < tu_n_names; i++)
    if (tu_name_kinds[i] == kind && (tu_names[i] == name || strcmp (tu_names[i], name) == 0))
      return (tuname_t) (i + 1U);
  if (tu_n_names >= THREADS_TIMESTAMPS_MAX_NAMES)
    {
      tu_names_refused++;
      return 0;
    }
  tu_names[tu_n_names] = name;
  tu_name_kinds[tu_n_names] = kind;
  tu_n_names++;
#if TU_IRQ
  tu_irq_ignored[tu_n_names - 1U] = 0U;
  tu_irq_calls[tu_n_names - 1U] = 0U;
#ifdef THREADS_TIMESTAMPS_IRQ_IGNORE
  if (kind == TU_NAME_IRQ && strcmp (name, THREADS_TIMESTAMPS_IRQ_IGNORE) == 0)
    {
      tu_irq_ignored[tu_n_names - 1U] = 1U;
      tu_n_ignored++;
    }
#endif
  tu_irq_fast[tu_n_names] = kind == TU_NAME_IRQ && tu_n_names <= TU_IRQ_SHORT_MAX
                            && tu_irq_ignored[tu_n_names - 1U] == 0U ? name : TU_IRQ_OTHER;
#endif
#if TU_CONDITIONS
  /* A condition on a handler or marker named before it was registered. */
  if (tu_when_id == 0U && tu_when_name[0] != '\0' && strcmp (tu_when_name, name) == 0
      && ((tu_when == TU_WHEN_IRQ && kind == TU_NAME_IRQ)
          || (tu_when == TU_WHEN_MARKER && kind == TU_NAME_MARKER)))
    tu_when_id = tu_n_names;
#endif
  return tu_n_names;
}

#if TU_IRQ
/* Registers the handler @name, keeping its id in @id (the handler's own variable). */
TU_COLD static uint32_t
tu_irq_register (uint8_t *id, const char *name)
{
  *id = tu_register_name (name, TU_NAME_IRQ);
  return *id;
}

/* A handler with an id above TU_IRQ_SHORT_MAX enters: a continuation slot carries it. */
TU_COLD static void
tu_irq_long (uint32_t id)
{
  tu_event (TU_EV_IRQ_ENTER, id, 0);
}
#endif
#endif /* TU_NAMES */

#if TU_CONDITIONS
/* The condition held: sets the trigger (once), remembering the time that exceeded it. */
static void
tu_fire (uint32_t measured)
{
  /* Only while recording: an event met while the log is paused (being printed) is not in
   * the log, and a capture frozen around it would not show it. */
  if (tu_triggered != 0U || tu_active == 0U)
    return;
  tu_when_fired = 1U;
  tu_when_measured_us = tu_when == TU_WHEN_MARKER
                        ? measured : (uint32_t) ((uint64_t) measured * 1000000U / TU_NOW_HZ);
  memcpy (tu_fired_text, tu_when_text, sizeof tu_fired_text);
  (void) tu_set_trigger (tu_fired_text);
}

static int
tu_when_names (const char *name)
{
  return tu_when_name[0] == '\0' || (name != NULL && strcmp (name, tu_when_name) == 0);
}

/* A switch from @out to @in: the wait of @in since it was made ready, the run of @out. */
TU_COLD static void
tu_check_switch (thread_t *in, const thread_t *out)
{
  uint32_t now = TU_NOW ();

  if (tu_when == TU_WHEN_RUN)
    {
      uint32_t run = now - tu_run_since;

      tu_run_since = now;
      if (run > tu_when_limit && tu_when_names (TU_NAME (out)))
        tu_fire (run);
    }
#if TU_READY
  else if (in->tu_readied != 0U && now - in->tu_ready_at > tu_when_limit
           && tu_when_names (TU_NAME (in)))
    tu_fire (now - in->tu_ready_at);
  /* Waiting no more (the flag is only kept up to date while a condition is set). */
  in->tu_readied = 0U;
#endif
  (void) in;
}

#if TU_IRQ
TU_COLD static void
tu_irq_entered (uint8_t id)
{
  if (tu_irq_depth < TU_MAX_NESTING)
    {
      tu_irq_stack[tu_irq_depth] = id;
      tu_irq_since[tu_irq_depth] = TU_NOW ();
    }
  tu_irq_depth++;
}

/* The innermost handler leaves: whether it lasted too long. */
TU_COLD static void
tu_check_irq (void)
{
  uint8_t id;
  uint32_t length;

  if (tu_irq_depth == 0U)
    return;
  tu_irq_depth--;
  if (tu_irq_depth >= TU_MAX_NESTING)
    return;
  id = tu_irq_stack[tu_irq_depth];
  length = TU_NOW () - tu_irq_since[tu_irq_depth];
  if (length > tu_when_limit && (tu_when_name[0] == '\0' || (id != 0U && id == tu_when_id)))
    tu_fire (length);
}
#endif
#endif /* TU_CONDITIONS */


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

/* Keeps the name @name of a thread that exits with @flags, for as long as the entry whose
 * @copy buffer is given: returns the pointer to keep, or NULL with TU_FLAG_COPIED added to
 * @flags when the name is copied into @copy. A static thread's name stays where it is. */
static const char *
tu_keep_name (const char *name, uint8_t *flags, char *copy)
{
  size_t n = 0;

  if ((*flags & TU_FLAG_DYNAMIC) == 0U || name == NULL || TU_NAME_IS_CONSTANT (name))
    return name;
  if (THREADS_TIMESTAMPS_NAME_COPY == 0)
    return tu_dynamic_name;
  while (n + 1U < (size_t) TU_NAME_ROOM && name[n] != '\0')
    {
      copy[n] = name[n];
      n++;
    }
  copy[n] = '\0';
  *flags |= TU_FLAG_COPIED;
  return NULL;
}

/* The name kept by tu_keep_name() in an entry of @name, @flags and @copy. */
static const char *
tu_kept_name (const char *name, uint8_t flags, const char *copy)
{
  return (flags & TU_FLAG_COPIED) != 0U ? copy : TU_NONAME (name);
}

/* The name the legacy replies (threads_list) give an exited thread: as the original library,
 * "Exited dynamic thread" for a dynamic one. */
static const char *
tu_legacy_name (const char *name, uint8_t flags, const char *copy)
{
  return (flags & TU_FLAG_DYNAMIC) != 0U ? tu_dynamic_name : tu_kept_name (name, flags, copy);
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
#if TU_RECORD
  /* A recording does not freeze the log: its half-log countdown starts when it ends. */
  if (tu_recording != 0U)
    return 0;
#endif
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

  (void) tu_put (tu_make_record ((uint32_t) chVTGetSystemTimeX (), number, number), TU_NOW (), 0);

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
  flags = (uint8_t) (flags & ~TU_FLAG_COPIED);
  entry->name = tu_keep_name (name, &flags, entry->copy);
  entry->seq = tu_written - 1U;
  entry->prio = prio;
  entry->number = number;
  entry->flags = flags;
  tu_deleted_count++;
  tu_window ();

  tu_remove_slot (index);
}

/* Writes at most @limit of the exits held while a list was printed, in the order they
 * happened, as long as the log records and nobody holds the numbers. */
static void
tu_flush_held_some (uint8_t limit)
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

  while (tu_n_held != 0U && tu_active != 0U && tu_hold_count == 0U && limit != 0U)
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
      limit--;
      tu_exit_now (best, tu_slots[best].prio, tu_slots[best].flags,
                   tu_kept_name (tu_slots[best].name, tu_slots[best].flags, tu_slots[best].copy));
    }
  if (tu_n_held == 0U)
    tu_exit_order = 0;
}

/* Writes every exit held (see tu_flush_held_some()). */
static void
tu_flush_held (void)
{
  tu_flush_held_some (UINT8_MAX);
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
  char        copy[TU_NAME_ROOM];   /* a held exit's copied name, taken under the lock */
} tu_line_t;

/* The list line of the thread numbered @i + 1; 0 when there is none. A held exit is named as
 * the legacy replies do with @legacy, else by the name kept. */
static int
tu_list_line (uint8_t i, tu_line_t *line, int legacy)
{
  int found = 0;

  chSysLock ();
  if (i < tu_n_slots)
    {
      found = 1;
      if (tu_slots[i].tp != NULL)
        {
          const thread_t *tp = tu_slots[i].tp;

          line->name = TU_NONAME (TU_NAME (tp));
          line->prio = (int) TU_PRIO (tp);
          line->log = tp->log_this_thread != 0U;
        }
      else
        {
          const tu_slot_t *slot = &tu_slots[i];

          memcpy (line->copy, slot->copy, sizeof line->copy);
          line->name = legacy != 0 ? tu_legacy_name (slot->name, slot->flags, line->copy)
                                   : tu_kept_name (slot->name, slot->flags, line->copy);
          line->prio = (int) tu_slots[i].prio;
          line->log = (tu_slots[i].flags & TU_FLAG_LOG) != 0U;
        }
    }
  chSysUnlock ();
  return found;
}

static void
tu_print_list_line (BaseSequentialStream *out, uint8_t i, const tu_line_t *line)
{
  chprintf (out, TU_LIST_FORMAT, (int) i + 1, line->prio, line->log ? "Yes" : "No", line->name);
}

/* Prints the numbered threads then, with @history, the history; the caller holds the
 * numbers. @legacy: exited dynamic threads named as the legacy replies do. Returns the number
 * of threads printed. */
static uint8_t
tu_print_list (BaseSequentialStream *out, int history, int legacy)
{
  uint8_t i, n, first, count;
  tu_line_t line;

  for (n = 0; tu_list_line (n, &line, legacy) != 0; n++)
    tu_print_list_line (out, n, &line);

  chprintf (out, "Deleted threads: " TU_NL);
  if (history == 0)
    return n;

  /* No exit enters the history while numbers are held: these entries stay valid. */
  chSysLock ();
  first = tu_deleted_first;
  count = tu_deleted_count;
  chSysUnlock ();

  for (i = 0; i < count; i++)
    {
      const tu_deleted_t *entry = &tu_deleted[(first + i) % THREADS_TIMESTAMPS_MAX_DELETED];

      chprintf (out, TU_LIST_FORMAT, (int) entry->number, (int) entry->prio,
                (entry->flags & TU_FLAG_LOG) != 0U ? "Yes" : "No",
                legacy != 0 ? tu_legacy_name (entry->name, entry->flags, entry->copy)
                            : tu_kept_name (entry->name, entry->flags, entry->copy));
    }
  return n;
}

typedef struct
{
  uint32_t first;
  uint32_t count;
  uint32_t checksum;
} tu_span_t;

static uint32_t
tu_hash_word (uint32_t hash, uint32_t word)
{
  unsigned b;

  for (b = 0; b < 4U; b++)
    {
      hash ^= (word >> (8U * b)) & 0xFFU;
      hash *= 16777619U;
    }
  return hash;
}

typedef struct
{
  uint32_t record;
  uint32_t stamp;
  uint32_t kind;      /* 0: a switch; else TU_EV_*, a short handler entry as TU_EV_IRQ_ENTER */
  uint32_t a;
  uint32_t b;
} tu_entry_t;

/* Payload words the checksum takes for @e: 0 none, 1 A, 2 A and B. */
static uint32_t
tu_entry_payload (const tu_entry_t *e)
{
#if TU_EVENTS
  if (((e->record >> TU_OUT_POS) & TU_NUM_MASK) == TU_EVENT_MARK
      && (e->record & TU_NUM_MASK) < TU_EV_KINDS)
    return tu_payload_of[e->kind];
#else
  (void) e;
#endif
  return 0;
}

static uint32_t
tu_read_slot (uint32_t *pos, uint32_t *left, uint32_t *second)
{
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
static int
tu_read_entry (uint32_t *pos, uint32_t *left, tu_entry_t *e)
{
  uint32_t payload = 0, unused;

  e->record = tu_read_slot (pos, left, &e->stamp);
  e->kind = 0;
  e->a = 0;
  e->b = 0;
#if TU_EVENTS
  if ((e->record & TU_MORE_MARK) == TU_MORE_MARK)
    return 0;
  e->kind = ((e->record >> TU_OUT_POS) & TU_NUM_MASK) == TU_EVENT_MARK
            ? e->record & TU_NUM_MASK : 0U;
  if (e->kind >= TU_EV_IRQ_SHORT)
    {
      e->a = e->kind - TU_EV_IRQ_SHORT;
      e->kind = TU_EV_IRQ_ENTER;
      return 1;
    }
  if (e->kind < TU_EV_KINDS)
    payload = tu_payload_of[e->kind];
  if (payload != 0U && *left != 0U)
    e->a = (tu_read_slot (pos, left, &e->b) >> TU_TIME_POS) & TU_MORE_A_MASK;
#if !TU_CYCLES
  if (payload == 2U && *left >= 2U)
    {
      e->b = (tu_read_slot (pos, left, &unused) >> TU_TIME_POS) & 0xFFFFU;
      e->b |= ((tu_read_slot (pos, left, &unused) >> TU_TIME_POS) & 0xFFFFU) << 16;
    }
#endif
#endif /* TU_EVENTS */
  (void) unused;
  (void) payload;
  return 1;
}

/* Entries that begin in the slots of @span. */
static uint32_t
tu_count_entries (const tu_span_t *span)
{
  uint32_t pos = span->first, left = span->count, n = 0;
  tu_entry_t e;

  while (left != 0U)
    n += (uint32_t) tu_read_entry (&pos, &left, &e);
  return n;
}

#if TU_EVENTS
/* Prints the entries of the log; the caller paused the log. With @all (threads_dump), every
 * entry with its counter value, and the checksum over each entry's words (record word,
 * counter, payload A and B when the kind has them); otherwise only the switches, as
 * threads_timestamps always printed them. */
static void
tu_print_records (BaseSequentialStream *out, tu_span_t *span, int all)
{
  uint32_t pos = span->first, left = span->count;
  uint32_t hash = 2166136261U;
  tu_entry_t e;

  while (left != 0U)
    {
      uint32_t tick, payload;
      int out_number, in_number;
      char stamp[16];

      if (tu_read_entry (&pos, &left, &e) == 0)
        continue;
      tick = (e.record >> TU_TIME_POS) & TU_TIME_MASK;
      out_number = (int) ((e.record >> TU_OUT_POS) & TU_NUM_MASK);
      in_number = (int) ((e.record >> TU_IN_POS) & TU_NUM_MASK);
      if (all == 0)
        {
          if (e.kind == 0U)
            chprintf (out, "From %2d to %2d at %7d" TU_NL, out_number, in_number, (int) tick);
          continue;
        }
      payload = tu_entry_payload (&e);
      hash = tu_hash_word (hash, e.record);
#if TU_CYCLES
      hash = tu_hash_word (hash, e.stamp);
      chsnprintf (stamp, sizeof stamp, " @ %lu", (unsigned long) e.stamp);
#else
      stamp[0] = '\0';
#endif
      if (payload >= 1U)
        hash = tu_hash_word (hash, e.a);
      if (payload >= 2U)
        hash = tu_hash_word (hash, e.b);

      switch (e.kind)
        {
        case 0U:
          chprintf (out, "From %2d to %2d at %7d%s" TU_NL, out_number, in_number, (int) tick, stamp);
          break;
        case TU_EV_IRQ_ENTER:
          chprintf (out, "Irq enter %2d at %7d%s" TU_NL, (int) e.a, (int) tick, stamp);
          break;
        case TU_EV_IRQ_LEAVE:
          chprintf (out, "Irq leave at %7d%s" TU_NL, (int) tick, stamp);
          break;
        case TU_EV_SLEEP:
          chprintf (out, "Sleep at %7d%s" TU_NL, (int) tick, stamp);
          break;
        case TU_EV_WAKE:
          chprintf (out, "Wake at %7d%s" TU_NL, (int) tick, stamp);
          break;
        case TU_EV_READY:
          chprintf (out, "Ready %2d at %7d%s" TU_NL, (int) e.a, (int) tick, stamp);
          break;
        case TU_EV_MARKER:
          chprintf (out, "Marker %2d = %lu at %7d%s" TU_NL, (int) e.a, (unsigned long) e.b,
                    (int) tick, stamp);
          break;
        case TU_EV_BEGIN:
          chprintf (out, "State %2d begin %2d at %7d%s" TU_NL, (int) (e.a & 0xFFU),
                    (int) ((e.a >> 8) & 0xFFU), (int) tick, stamp);
          break;
        case TU_EV_END:
          chprintf (out, "State %2d end at %7d%s" TU_NL, (int) e.a, (int) tick, stamp);
          break;
        default:
          chprintf (out, "Trigger at %7d%s" TU_NL, (int) tick, stamp);
          break;
        }
    }
  span->checksum = hash;
}
#else
/* Prints the records of the log; the caller paused the log. */
static void
tu_print_records (BaseSequentialStream *out, tu_span_t *span, int all)
{
  uint32_t i, pos;
  uint32_t hash = 2166136261U;

  (void) all;
  pos = span->first;
  for (i = 0; i < span->count; i++)
    {
      uint32_t record = tu_log[pos];

      chprintf (out, "From %2d to %2d at %7d" TU_NL,
                (int) ((record >> TU_OUT_POS) & TU_NUM_MASK),
                (int) ((record >> TU_IN_POS) & TU_NUM_MASK),
                (int) ((record >> TU_TIME_POS) & TU_TIME_MASK));
      hash = tu_hash_word (hash, record);

      pos++;
      if (pos >= TU_LOG_SIZE)
        pos = 0;
    }
  span->checksum = hash;
}
#endif /* TU_EVENTS */

/********************             THE COMPACT ENCODING             ********************/

/* threads_dump_compact prints the entries of the log as lines of base64 characters (see
 * WIRE-FORMAT.md, dump version 3): each line starts from a key frame, carries a sequence number
 * and a checksum, and holds as many whole entries as fit. Everything is on the stack of the
 * shell thread; nothing runs in the hooks. */

#define TU_Z_PAYLOAD_CHARS 70U
#define TU_Z_PAYLOAD_BITS  (TU_Z_PAYLOAD_CHARS * 6U)
#define TU_Z_MAX_ENTRIES   127U
/* Counter periods in a tick, for predicting the counter from the tick. */
#define TU_Z_CYCLES_PER_TICK ((uint32_t) (TU_NOW_HZ / (uint64_t) (CH_CFG_ST_FREQUENCY)))

static const char tu_z_alphabet[] =
  "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

typedef struct
{
  uint8_t  bits[(TU_Z_PAYLOAD_BITS + 7U) / 8U];
  uint32_t n;              /* bits written */
  int      full;           /* a write did not fit */
} tu_bits_t;

/* A list of symbols kept sorted by how often they were coded on the line (the most recent
 * first among equals): a symbol is coded as its position. */
#define TU_Z_HEADS 64U     /* 0: not a switch from the running thread; r: one, to rank r */
#define TU_Z_STEPS 17U     /* tick steps 0 to 15; 16: larger */
/* With the counter (coder 2): kinds of entries, whose pairs (the previous entry's kind, the
 * entry's) each learn the order of their counter steps; and a line in TU_Z_CHAIN starts from
 * a key frame, the others go on from the state the line before them ended with. */
#define TU_Z_CLASSES 11U
#define TU_Z_PAIRS   (TU_Z_CLASSES * TU_Z_CLASSES)
#define TU_Z_UNSEEN  0xFFU
#define TU_Z_CHAIN   8U

/* What the coder remembers between entries; a line's key frame resets it (with the counter,
 * one line in TU_Z_CHAIN has one). */
typedef struct
{
  uint32_t tick;           /* 20-bit tick of the last entry */
  uint32_t counter;        /* counter of the last entry */
  uint32_t mean;           /* running mean of the counter's steps, times 8 */
  uint8_t  cur;            /* number of the thread running (the implied out-thread) */
  uint8_t  mtf[64];        /* thread numbers, most recent first */
  uint8_t  heads[TU_Z_HEADS];
  uint8_t  head_counts[TU_Z_HEADS];
  uint8_t  steps[TU_Z_STEPS];
  uint8_t  step_counts[TU_Z_STEPS];
  uint8_t  stamps;         /* the entries carry the counter (with it, unless recording
                            * switches only), coded by the counter's coder 2 */
  uint8_t  prev;           /* with stamps: the kind of the last entry */
  uint32_t anchor;         /* with stamps: where the counter stood at the start of the tick
                            * the last entry's tick began (its lowest place seen) */
  uint8_t  orders[TU_Z_PAIRS]; /* with stamps: the order learnt for each pair of kinds */
} tu_zstate_t;

static void
tu_bits_put (tu_bits_t *b, uint32_t value, uint32_t n)
{
  while (n != 0U)
    {
      n--;
      if (b->n >= TU_Z_PAYLOAD_BITS)
        {
          b->full = 1;
          return;
        }
      if (((value >> n) & 1U) != 0U)
        b->bits[b->n / 8U] |= (uint8_t) (0x80U >> (b->n % 8U));
      b->n++;
    }
}

/* Exp-Golomb code of order @k of @v. */
static void
tu_bits_eg (tu_bits_t *b, uint32_t v, uint32_t k)
{
  uint64_t w = (uint64_t) v + ((uint64_t) 1 << k);
  uint32_t len = 0;

  while ((w >> len) > 1U)
    len++;
  /* len + 1 significant bits: len - k zeros first. */
  tu_bits_put (b, 0, len - k);
  if (len >= 32U)
    {
      tu_bits_put (b, (uint32_t) (w >> 32), len - 31U);
      tu_bits_put (b, (uint32_t) w, 32U);
    }
  else
    tu_bits_put (b, (uint32_t) w, len + 1U);
}

#if TU_CYCLES
static uint32_t
tu_zigzag (int32_t v)
{
  return v >= 0 ? (uint32_t) v << 1 : (((uint32_t) -(v + 1)) << 1) | 1U;
}

static uint32_t
tu_z_order (uint32_t mean8)
{
  uint32_t k = 0, m = mean8 >> 3;

  while ((m >> k) > 1U && k < 30U)
    k++;
  return k;
}
#endif

static void
tu_zstate_reset (tu_zstate_t *z)
{
  uint32_t i, n = 1;

  z->mtf[0] = z->cur;
  for (i = 1; i < 64U; i++)
    if (i != z->cur)
      z->mtf[n++] = (uint8_t) i;
  if (z->cur != 0U)
    z->mtf[n] = 0;
  /* Heads: rank 1, rank 2, not a switch from the running thread, then ranks 3 to 63. */
  z->heads[0] = 1;
  z->heads[1] = 2;
  z->heads[2] = 0;
  for (i = 3; i < TU_Z_HEADS; i++)
    z->heads[i] = (uint8_t) i;
  for (i = 0; i < TU_Z_STEPS; i++)
    z->steps[i] = (uint8_t) i;
  memset (z->head_counts, 0, sizeof z->head_counts);
  memset (z->step_counts, 0, sizeof z->step_counts);
#if TU_CYCLES
  /* The key frame carries the mean's order only. */
  z->mean = 8U << tu_z_order (z->mean);
  z->prev = 0;
  z->anchor = z->counter;
  memset (z->orders, TU_Z_UNSEEN, sizeof z->orders);
#endif
}

/* Codes @symbol as its position in @list (kept sorted by @counts), then counts it. */
static void
tu_z_symbol (tu_bits_t *b, uint8_t *list, uint8_t *counts, uint32_t size, uint32_t symbol)
{
  uint32_t pos = 0;

  while (pos + 1U < size && list[pos] != symbol)
    pos++;
  tu_bits_eg (b, pos, 0);
  if (counts[symbol] < 255U)
    counts[symbol]++;
  while (pos > 0U && counts[list[pos - 1U]] <= counts[symbol])
    {
      list[pos] = list[pos - 1U];
      pos--;
    }
  list[pos] = (uint8_t) symbol;
}

/* The rank of @number in the move-to-front list; it then moves up to place @to (0: it heads
 * the list) if it was further down. */
static uint32_t
tu_mtf_move (tu_zstate_t *z, uint32_t number, uint32_t to)
{
  uint32_t r = 0, i;

  while (r < 63U && z->mtf[r] != number)
    r++;
  if (r > to)
    {
      for (i = r; i > to; i--)
        z->mtf[i] = z->mtf[i - 1U];
      z->mtf[to] = (uint8_t) number;
    }
  return r;
}

/* The rank of @number, which then heads the list. */
static uint32_t
tu_mtf_use (tu_zstate_t *z, uint32_t number)
{
  return tu_mtf_move (z, number, 0);
}

#if TU_CYCLES
/* Coder 2 of the counter: the first entry of a tick is coded as its place after the tick's
 * start (where the counter stood then, as the ticks predict it from the anchor: the counter
 * and the tick run from the same clock on most boards), an entry of the same tick as the
 * counter's step from the entry before, in the order learnt for that pair of kinds (a kernel
 * path between two hooks takes about the same time each time). Unseen pairs and tick starts
 * use the running mean. */
static void
tu_z_stamp (tu_bits_t *b, tu_zstate_t *z, const tu_entry_t *e, uint32_t dt, int is_switch)
{
  uint32_t kind = e->kind == 0U ? (is_switch != 0 ? 0U : 1U) : e->kind + 1U;
  uint32_t pair, off, k, top;
  int learnt = 0;

  if (kind >= TU_Z_CLASSES)
    kind = TU_Z_CLASSES - 1U;   /* (no other kind is logged) */
  pair = z->prev * TU_Z_CLASSES + kind;
  if (dt != 0U)
    {
      int32_t place;

      z->anchor += dt * TU_Z_CYCLES_PER_TICK;
      place = (int32_t) (e->stamp - z->anchor);
      off = tu_zigzag (place);
      if (place < 0)
        z->anchor = e->stamp;
    }
  else
    {
      off = tu_zigzag ((int32_t) (e->stamp - z->counter));
      learnt = z->orders[pair] != TU_Z_UNSEEN;
    }
  if (learnt != 0)
    tu_bits_eg (b, off, z->orders[pair]);
  else
    {
      tu_bits_eg (b, off, tu_z_order (z->mean));
      z->mean = z->mean - (z->mean >> 3) + (off > 0x0FFFFFFFU ? 0x0FFFFFFFU : off);
    }
  if (dt == 0U)
    {
      /* the order of this step: its significant bits less one */
      for (top = 0, k = off > 0x0FFFFFFFU ? 0x0FFFFFFFU : off; k > 1U; k >>= 1)
        top++;
      z->orders[pair] = (uint8_t) (learnt != 0 ? (z->orders[pair] + top + 1U) / 2U : top);
    }
  z->prev = (uint8_t) kind;
  z->counter = e->stamp;
}
#endif

/* Codes one entry, updating @z. */
static void
tu_z_entry (tu_bits_t *b, tu_zstate_t *z, const tu_entry_t *e)
{
  uint32_t tick = (e->record >> TU_TIME_POS) & TU_TIME_MASK;
  uint32_t out_number = (e->record >> TU_OUT_POS) & TU_NUM_MASK;
  uint32_t in_number = (e->record >> TU_IN_POS) & TU_NUM_MASK;
  uint32_t dt = (tick - z->tick) & TU_TIME_MASK;
  int is_switch = e->kind == 0U && out_number != in_number;

  /* What and who: a switch from the running thread is its in-thread's rank among the recent
   * threads; anything else is head 0 then 3 bits of kind. */
  if (is_switch && out_number == z->cur)
    tu_z_symbol (b, z->heads, z->head_counts, TU_Z_HEADS, tu_mtf_use (z, in_number));
  else
    {
      tu_z_symbol (b, z->heads, z->head_counts, TU_Z_HEADS, 0);
      if (is_switch)
        {
          tu_bits_put (b, 0U, 3);
          tu_bits_put (b, out_number, 6);
          tu_bits_eg (b, tu_mtf_use (z, in_number), 0);
        }
      else if (e->kind == 0U)
        {
          tu_bits_put (b, 1U, 3);
          tu_bits_put (b, out_number, 6);
        }
      else if (e->kind == TU_EV_IRQ_ENTER)
        {
          tu_bits_put (b, 2U, 3);
          tu_bits_eg (b, e->a, 0);
        }
      else if (e->kind == TU_EV_IRQ_LEAVE)
        tu_bits_put (b, 3U, 3);
      else if (e->kind == TU_EV_SLEEP || e->kind == TU_EV_WAKE || e->kind == TU_EV_TRIGGER)
        {
          tu_bits_put (b, 4U, 3);
          tu_bits_put (b, e->kind == TU_EV_SLEEP ? 0U : e->kind == TU_EV_WAKE ? 1U : 2U, 2);
        }
      else if (e->kind == TU_EV_READY)
        {
          tu_bits_put (b, 5U, 3);
          /* coder 2: the thread's rank; it then comes second, behind the running thread that
           * heads the list (it is likely the next switch's in-thread) */
          if (z->stamps != 0U)
            tu_bits_eg (b, tu_mtf_move (z, e->a & 63U, 1U), 0);
          else
            tu_bits_put (b, e->a, 6);
        }
      else if (e->kind == TU_EV_MARKER)
        {
          tu_bits_put (b, 6U, 3);
          tu_bits_eg (b, e->a, 0);
          tu_bits_eg (b, e->b, 4);
        }
      else
        {
          tu_bits_put (b, 7U, 3);
          tu_bits_put (b, e->kind == TU_EV_END ? 1U : 0U, 1);
          tu_bits_eg (b, e->a & 0xFFU, 0);
          if (e->kind == TU_EV_BEGIN)
            tu_bits_eg (b, (e->a >> 8) & 0xFFU, 0);
        }
    }
  if (is_switch)
    z->cur = (uint8_t) in_number;
  else if (e->kind == 0U)
    z->cur = 0;   /* an exit: the next switch is from no thread */

  /* When: the tick's step, then with the counter how far its step is from that many ticks of
   * counter (the record's place in its tick against the previous record's). */
  tu_z_symbol (b, z->steps, z->step_counts, TU_Z_STEPS, dt < TU_Z_STEPS - 1U ? dt : TU_Z_STEPS - 1U);
  if (dt >= TU_Z_STEPS - 1U)
    tu_bits_eg (b, dt - (TU_Z_STEPS - 1U), 0);
#if TU_CYCLES
  if (z->stamps != 0U)
    tu_z_stamp (b, z, e, dt, is_switch);
#endif
  z->tick = tick;
}

/* What a key frame carries of the coder's state. */
typedef struct
{
  uint32_t tick;
  uint32_t counter;
  uint32_t mean;
  uint8_t  cur;
  uint8_t  stamps;
} tu_zkey_t;

/* The key frame that starts a line: the coder's state, and the line's entry count. With
 * coder 2, a bit says whether the line has one (1) or goes on from the line before (0). */
static void
tu_z_key (tu_bits_t *b, const tu_zkey_t *z, uint32_t entries, int chained)
{
  tu_bits_put (b, entries, 7);
#if TU_CYCLES
  if (z->stamps != 0U)
    {
      tu_bits_put (b, chained != 0 ? 0U : 1U, 1);
      if (chained != 0)
        return;
    }
#else
  (void) chained;
#endif
  tu_bits_put (b, z->tick, 20);
#if TU_CYCLES
  if (z->stamps != 0U)
    {
      tu_bits_put (b, z->counter, 32);
      tu_bits_put (b, tu_z_order (z->mean), 5);
    }
#endif
  tu_bits_put (b, z->cur, 6);
}

static uint32_t
tu_fnv_char (uint32_t hash, char c)
{
  hash ^= (uint8_t) c;
  return hash * 16777619U;
}

/* Prints one line: Z, its sequence number, the payload, '*' and its checksum. */
static void
tu_z_line (BaseSequentialStream *out, uint32_t seq, const tu_bits_t *b)
{
  char line[1U + 3U + TU_Z_PAYLOAD_CHARS + 1U + 4U + 1U];
  uint32_t i, n = 0, hash = 2166136261U;

  line[n++] = 'Z';
  for (i = 0; i < 3U; i++)
    line[n++] = tu_z_alphabet[(seq >> (12U - 6U * i)) & 63U];
  for (i = 0; i < (b->n + 5U) / 6U; i++)
    {
      uint32_t v = 0, k;

      for (k = 0; k < 6U; k++)
        {
          uint32_t bit = i * 6U + k;

          v <<= 1;
          if (bit < b->n && (b->bits[bit / 8U] & (0x80U >> (bit % 8U))) != 0U)
            v |= 1U;
        }
      line[n++] = tu_z_alphabet[v];
    }
  for (i = 0; i < n; i++)
    hash = tu_fnv_char (hash, line[i]);
  hash = (hash >> 24) ^ (hash & 0xFFFFFFU);
  line[n++] = '*';
  for (i = 0; i < 4U; i++)
    line[n++] = tu_z_alphabet[(hash >> (18U - 6U * i)) & 63U];
  line[n] = '\0';
  chprintf (out, "%s" TU_NL, line);
}

/* A compact log being printed: the line being filled, the coder's state after its entries
 * and at its key frame, and the checksum of the entries so far. */
typedef struct
{
  tu_zstate_t z;
  tu_zkey_t   key;
  tu_bits_t   b;
  uint32_t    seq;        /* the number of the line being filled */
  uint32_t    entries;    /* entries on it */
  uint32_t    hash;
  uint8_t     chained;    /* the line being filled goes on from the one before */
  uint8_t     chain;      /* lines that may still go on from the one before (coder 2) */
} tu_zlog_t;

static void
tu_zlog_init (tu_zlog_t *l)
{
  memset (l, 0, sizeof *l);
  l->z.mean = 8U << 10;
  l->z.stamps = (uint8_t) TU_CYCLES;
  l->hash = 2166136261U;
}

/* Prints the line being filled, if it holds entries. */
static void
tu_zlog_flush (BaseSequentialStream *out, tu_zlog_t *l)
{
  uint32_t n = l->b.n;

  if (l->entries == 0U)
    return;
  l->b.n = 0;
  tu_z_key (&l->b, &l->key, l->entries, l->chained);
  l->b.n = n;
  tu_z_line (out, l->seq++, &l->b);
  l->entries = 0;
}

/* Starts a line: from a key frame, or with coder 2 from where the line before ended. */
static void
tu_zlog_start (tu_zlog_t *l)
{
  memset (&l->b, 0, sizeof l->b);
  l->chained = (uint8_t) (l->z.stamps != 0U && l->chain != 0U);
  if (l->chained != 0U)
    l->chain--;
  else
    {
      tu_zstate_reset (&l->z);
      l->key.tick = l->z.tick;
      l->key.counter = l->z.counter;
      l->key.mean = l->z.mean;
      l->key.cur = l->z.cur;
      l->key.stamps = l->z.stamps;
      l->chain = TU_Z_CHAIN - 1U;
    }
  tu_z_key (&l->b, &l->key, 0, l->chained);
  memset (l->b.bits, 0, sizeof l->b.bits);
}

/* Adds @e to the line being filled, printing the line first when it does not fit. */
static void
tu_zlog_add (BaseSequentialStream *out, tu_zlog_t *l, const tu_entry_t *e)
{
  tu_zstate_t before;
  uint32_t mark, payload;

  if (l->entries == 0U)
    tu_zlog_start (l);
  before = l->z;
  mark = l->b.n;
  tu_z_entry (&l->b, &l->z, e);
  if (l->b.full != 0)
    {
      /* It does not fit: the line ends before it, and it begins the next. */
      uint32_t i;

      for (i = mark; i < TU_Z_PAYLOAD_BITS; i++)
        l->b.bits[i / 8U] &= (uint8_t) ~(0x80U >> (i % 8U));
      l->b.n = mark;
      l->b.full = 0;
      l->z = before;
      tu_zlog_flush (out, l);
      tu_zlog_start (l);
      tu_z_entry (&l->b, &l->z, e);
    }
  payload = tu_entry_payload (e);
  l->hash = tu_hash_word (l->hash, e->record);
#if TU_CYCLES
  if (l->z.stamps != 0U)
    l->hash = tu_hash_word (l->hash, e->stamp);
#endif
  if (payload >= 1U)
    l->hash = tu_hash_word (l->hash, e->a);
  if (payload >= 2U)
    l->hash = tu_hash_word (l->hash, e->b);
  if (++l->entries == TU_Z_MAX_ENTRIES)
    tu_zlog_flush (out, l);
}

/* Prints the entries of @span in the compact encoding; fills its checksum (as dump version 2
 * computes it) and returns the number of lines. */
static uint32_t
tu_print_compact (BaseSequentialStream *out, tu_span_t *span)
{
  uint32_t pos = span->first, left = span->count;
  tu_zlog_t l;
  tu_entry_t e;

  tu_zlog_init (&l);
  while (left != 0U)
    if (tu_read_entry (&pos, &left, &e) != 0)
      tu_zlog_add (out, &l, &e);
  tu_zlog_flush (out, &l);
  span->checksum = l.hash;
  return l.seq;
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

      slot->flags = tu_flags_of (tp);
      slot->name = tu_keep_name (TU_NAME (tp), &slot->flags, slot->copy);
      slot->prio = (uint8_t) TU_PRIO (tp);
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

#if TU_CONDITIONS
  if (tu_when_on_switch != 0U)
    tu_check_switch ((thread_t *) ntp, out);
#endif

  if ((in->log_this_thread | out->log_this_thread) == 0U)
    return;

  if (tu_active == 0U)
    {
      if (tu_frozen == 0U)
        tu_dropped_paused++;
      return;
    }

  (void) tu_put ((((uint32_t) chVTGetSystemTimeX () & TU_TIME_MASK) << TU_TIME_POS)
                 | ((uint32_t) out->tu_number << TU_OUT_POS)
                 | ((uint32_t) in->tu_number << TU_IN_POS), TU_NOW (), 1);
#else
  (void) ntp;
  (void) otp;
#endif
}

#if TU_IRQ
/* The hooks' slow paths: the handler's first entry (or first since tuResetState()), a handler
 * with a long id, a condition on handlers, and every slot outside the writer's window. */
TU_COLD static void
tu_irq_enter_slow (uint8_t *id, const char *name)
{
  uint32_t i = *id;

  if (i - 1U >= tu_n_names || tu_names[i - 1U] != name)
    {
      i = tu_irq_register (id, name);
      /* Named by tuIrqIgnore(): the handler's own string from now on (equal). */
      if (i != 0U)
        tu_names[i - 1U] = name;
    }
  if (i != 0U && tu_irq_ignored[i - 1U] != 0U)
    {
      tu_irq_calls[i - 1U]++;
      tu_irq_skip = (tu_irq_skip << 1) | 1U;
      tu_window ();
      return;
    }
  if (tu_irq_skip != 0U)
    tu_irq_skip <<= 1;
#if TU_CONDITIONS
  /* Only kept while a condition on handlers is set. */
  if (tu_when == TU_WHEN_IRQ)
    tu_irq_entered ((uint8_t) i);
#endif
  if (i <= TU_IRQ_SHORT_MAX)
    tu_event (TU_EV_IRQ_SHORT + i, 0, 0);
  else
    tu_irq_long (i);
}

TU_COLD static void
tu_irq_leave_slow (void)
{
  if (tu_irq_skip != 0U)
    {
      uint32_t counted = tu_irq_skip & 1U;

      tu_irq_skip >>= 1;
      if (tu_irq_skip == 0U)
        tu_window ();
      if (counted != 0U)
        return;
    }
#if TU_CONDITIONS
  if (tu_when == TU_WHEN_IRQ)
    tu_check_irq ();
#endif
  tu_event (TU_EV_IRQ_LEAVE, 0, 0);
}
#endif

void
tuIrqEnterHook (uint8_t *id, const char *name)
{
#if TU_IRQ
  size_t i;

  port_lock_from_isr ();
  /* The handler's id, registered on its first entry (and again after tuResetState()). */
  i = *id;
  if (tu_head < tu_fast_end && tu_irq_fast[i] == name)
    tu_put_fast ((((uint32_t) chVTGetSystemTimeX () & TU_TIME_MASK) << TU_TIME_POS)
                 | ((TU_EVENT_MARK << TU_OUT_POS) | TU_EV_IRQ_SHORT | (uint32_t) i), TU_NOW ());
  else
    tu_irq_enter_slow (id, name);
  port_unlock_from_isr ();
#else
  (void) id;
  (void) name;
#endif
}

void
tuIrqLeaveHook (void)
{
#if TU_IRQ
  port_lock_from_isr ();
  if (tu_head < tu_fast_end)
    tu_put_fast (tu_record_now (TU_EVENT_MARK, TU_EV_IRQ_LEAVE), TU_NOW ());
  else
    tu_irq_leave_slow ();
  port_unlock_from_isr ();
#endif
}

int
tuIrqIgnore (const char *name)
{
#if TU_IRQ
  int done = -1;
  uint8_t id;

  chSysLock ();
  id = (uint8_t) tu_register_name (name, TU_NAME_IRQ);
  if (id != 0U)
    {
      if (tu_irq_ignored[id - 1U] == 0U)
        tu_n_ignored++;
      tu_irq_ignored[id - 1U] = 1U;
      tu_irq_fast[id] = TU_IRQ_OTHER;
      done = 0;
    }
  chSysUnlock ();
  return done;
#else
  (void) name;
  return -1;
#endif
}

void
tuIdleEnterHook (void)
{
#if TU_SLEEP
  tu_event (TU_EV_SLEEP, 0, 0);
#endif
}

void
tuIdleLeaveHook (void)
{
#if TU_SLEEP
  tu_event (TU_EV_WAKE, 0, 0);
#endif
}

void
tuThreadReadyHook (void *ntp)
{
#if TU_READY
  thread_t *tp = (thread_t *) ntp;

  /* The running thread put back in the ready list (preempted) is not woken up. */
  if (tp->state == CH_STATE_CURRENT)
    return;
  tp->tu_ready_at = TU_NOW ();
  tp->tu_readied = 1U;
  if (tp->log_this_thread == 0U)
    return;
  tu_event (TU_EV_READY, tp->tu_number, 0);
#else
  (void) ntp;
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
  (void) tu_print_list (out, 1, 1);
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
  tu_print_records (out, &span, 0);

  tu_release (1);
#else
  chprintf (out, "%s", no_timestamps_error_message);
#endif
}

#ifdef ENABLE_THREADS_TIMESTAMPS
/* What tu_print_dump() prints: threads_dump, threads_dump_compact, or the beginning of
 * threads_record (the header and the lists up to "Compact:"; the numbers are held by the
 * recording, which does not pause the log). */
#define TU_DUMP_TEXT    0
#define TU_DUMP_COMPACT 1
#define TU_DUMP_RECORD  2
#define TU_DUMP_RECORD_SWITCHES 3   /* threads_record of the switches only: as dump version 1 */

#if TU_IRQ
/* The "Counted handler:" lines: the handlers only counted, with their calls so far. */
static void
tu_print_counted (BaseSequentialStream *out)
{
  uint8_t i, n;
  uint32_t calls;

  chSysLock ();
  n = tu_n_names;
  chSysUnlock ();
  for (i = 0; i < n; i++)
    {
      chSysLock ();
      calls = tu_irq_calls[i];
      chSysUnlock ();
      if (tu_irq_ignored[i] != 0U)
        chprintf (out, "Counted handler: %s, %lu calls" TU_NL, tu_names[i],
                  (unsigned long) calls);
    }
}
#endif

/* Prints a dump of @compact kind; returns the number of threads listed. */
static uint8_t
tu_print_dump (BaseSequentialStream *out, int compact)
{
  uint8_t listed;
  int events = compact != TU_DUMP_RECORD_SWITCHES;   /* the event lines, with the options */
  tu_span_t span;
  uint8_t triggered, frozen, log_setting;
  uint32_t trigger_time, written, dropped_paused, dropped_history, unnumbered_live,
           unnumbered_total;
  uint8_t i, pauses_first, pauses_count;
  const char *trigger_name;
#if TU_NAMES
  uint8_t n_names;
  uint32_t names_refused;
#endif
#if TU_CONDITIONS
  char when_text[sizeof tu_when_text];
  uint8_t when_fired;
  uint32_t when_measured;
#endif

  (void) events;
  if (compact == TU_DUMP_RECORD_SWITCHES)
    compact = TU_DUMP_RECORD;
  if (compact != TU_DUMP_RECORD)
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
#if TU_NAMES
  n_names = tu_n_names;
  names_refused = tu_names_refused;
#endif
#if TU_CONDITIONS
  memcpy (when_text, tu_when_text, sizeof when_text);
  when_fired = tu_when_fired;
  when_measured = tu_when_measured_us;
#endif
  chSysUnlock ();

  chprintf (out, "Dump version: %d" TU_NL, compact != 0 ? 3 : THREADS_UTILITIES_DUMP_VERSION);
  chprintf (out, "Library version: %s" TU_NL, THREADS_UTILITIES_VERSION);
  chprintf (out, "Kernel version: %s" TU_NL, CH_KERNEL_VERSION);
  chprintf (out, "Tick frequency: %lu" TU_NL, (unsigned long) (CH_CFG_ST_FREQUENCY));
  chprintf (out, "Tick bits: %d" TU_NL, (int) TU_TICK_BITS);
#if TU_CYCLES
  if (events != 0)
    {
      chprintf (out, "Counter frequency: %lu" TU_NL, (unsigned long) (THREADS_TIMESTAMPS_COUNTER_HZ));
      chprintf (out, "Counter bits: %d" TU_NL, 32);
      if (compact != 0)
        chprintf (out, "Counter coder: 2" TU_NL);
    }
#endif
  chprintf (out, "Log size: %lu" TU_NL, (unsigned long) TU_LOG_SIZE);
#if TU_EVENTS
  if (events != 0)
    {
      chprintf (out, "Slot words: %d" TU_NL, (int) TU_SLOT_WORDS);
      chprintf (out, "Events:%s%s%s%s%s%s" TU_NL, TU_CYCLES ? " cycles" : "", TU_IRQ ? " irq" : "",
                TU_SLEEP ? " sleep" : "", TU_READY ? " ready" : "", TU_USER ? " user" : "",
                TU_CONDITIONS ? " conditions" : "");
    }
#endif
  chprintf (out, "Max threads: %d" TU_NL, THREADS_TIMESTAMPS_MAX_THREADS);
  chprintf (out, "Max deleted: %d" TU_NL, THREADS_TIMESTAMPS_MAX_DELETED);
  chprintf (out, "Default log: %s" TU_NL, log_setting != 0U ? "Yes" : "No");
  chprintf (out, "Mode: %s" TU_NL, triggered == 0U ? "run" : frozen != 0U ? "frozen" : "armed");
  if (triggered != 0U)
    {
      chprintf (out, "Trigger tick: %lu" TU_NL, (unsigned long) trigger_time);
      chprintf (out, "Trigger name: %s" TU_NL, TU_NONAME (trigger_name));
#if TU_CONDITIONS
      if (when_fired != 0U)
        chprintf (out, "Trigger value: %lu" TU_NL, (unsigned long) when_measured);
#endif
    }
#if TU_CONDITIONS
  chprintf (out, "Condition: %s" TU_NL, when_text[0] != '\0' ? when_text : "none");
#endif
#if TU_NAMES
  chprintf (out, "Max names: %d" TU_NL, THREADS_TIMESTAMPS_MAX_NAMES);
  chprintf (out, "Names refused: %lu" TU_NL, (unsigned long) names_refused);
#endif
#if TU_IRQ
  if (events != 0)
    tu_print_counted (out);
#endif
  if (compact == TU_DUMP_RECORD)
    {
      /* The entries follow as they are written: no count, no hole of the log. */
      chprintf (out, "Recording: stop byte %d, keep-alive %d ms" TU_NL, (int) TU_REC_STOP,
                (int) TU_REC_SILENCE_MS);
      pauses_count = 0;
    }
  else
    {
#if TU_EVENTS
      chprintf (out, "Records: %lu" TU_NL, (unsigned long) tu_count_entries (&span));
      chprintf (out, "Slots: %lu" TU_NL, (unsigned long) span.count);
#else
      chprintf (out, "Records: %lu" TU_NL, (unsigned long) span.count);
#endif
    }
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
  /* A recording streams no exit (the numbers are held): no history either. */
  listed = tu_print_list (out, compact != TU_DUMP_RECORD, 0);
#if TU_NAMES
  /* Names are only ever added: the first n_names stay as they are. */
  if (events != 0)
    {
      chprintf (out, "Names:" TU_NL);
      for (i = 0; i < n_names; i++)
        chprintf (out, "Name %2d : Kind = %s, Name = %s" TU_NL, (int) i + 1,
                  tu_name_kind_names[tu_name_kinds[i]], TU_NONAME (tu_names[i]));
    }
#endif
  if (compact == TU_DUMP_RECORD)
    {
      chprintf (out, "Compact:" TU_NL);
      return listed;
    }
  if (compact != 0)
    {
      chprintf (out, "Compact:" TU_NL);
      if (triggered != 0U)
        chprintf (out, "Triggered at %7d" TU_NL, (int) trigger_time);
      (void) tu_print_compact (out, &span);
      chprintf (out, "End of dump: %lu records, checksum %08lx" TU_NL,
                (unsigned long) tu_count_entries (&span), (unsigned long) span.checksum);
      tu_release (1);
      return listed;
    }
  chprintf (out, "Timestamps:" TU_NL);
  if (triggered != 0U)
    chprintf (out, "Triggered at %7d" TU_NL, (int) trigger_time);
  tu_print_records (out, &span, 1);
#if TU_EVENTS
  chprintf (out, "End of dump: %lu records, checksum %08lx" TU_NL,
            (unsigned long) tu_count_entries (&span), (unsigned long) span.checksum);
#else
  chprintf (out, "End of dump: %lu records, checksum %08lx" TU_NL,
            (unsigned long) span.count, (unsigned long) span.checksum);
#endif

  tu_release (1);
  return listed;
}
#if TU_RECORD
/********************             CONTINUOUS RECORDING             ********************/

/* threads_record (see WIRE-FORMAT.md): the header of threads_dump_compact, then the entries in
 * the compact encoding as they are written, until the host sends the stop byte or falls silent.
 * The hooks write the log as always; the shell thread reads it behind them, from its own
 * sequence number. When the log went round before the reader got there, the slots overwritten
 * are counted and a "Lost:" line tells the host where and how many. Nothing here runs in the
 * hooks: the writer's cost does not change. The numbers are held while recording (an exit is
 * written when the recording ends), so a thread keeps its number for the whole stream; threads
 * and names that appear are announced by their list lines before the entries that name them. */

#define TU_REC_LINE_MS  250U   /* a line is printed at the latest this long after its first entry */
#define TU_REC_BATCH    16U    /* entries taken from the log under one lock */
#define TU_REC_POLL     512U   /* entries at most per poll, so that input is seen often */
#define TU_REC_COUNTED_MS 1000U /* the counted handlers are reported this often */
#define TU_REC_SPARE    8U     /* fewer numbers free: the reader skips ahead to give some back */

typedef struct
{
  uint8_t   on;
  uint8_t   events;       /* every entry with its counter; else the switches at tick resolution */
  uint8_t   threads;      /* threads announced (numbers 1 to threads) */
  uint8_t   names;        /* names announced */
  uint8_t   stopping;     /* the stop byte came: the stream ends at until */
  uint32_t  seq;          /* sequence number of the next slot to read */
  uint32_t  until;        /* with stopping: the sequence number of the first slot not sent */
  uint32_t  slots;        /* slots of the entries streamed */
  uint32_t  lost;         /* slots overwritten before they were read, in all */
  uint32_t  entries;      /* entries streamed */
  uint32_t  last_tick;    /* tick of the last entry streamed */
  uint32_t  unheard;      /* ticks since the host last sent a byte */
  uint32_t  quiet;        /* ticks since the last entry streamed or heartbeat */
  systime_t polled;       /* when the last poll began */
  systime_t line_began;   /* when the line being filled got its first entry */
  systime_t counted_at;   /* when the counted handlers were last reported */
  tu_zlog_t log;
} tu_rec_t;

static tu_rec_t tu_rec;

/* The recording's output. A board's serial driver wakes a thread waiting on its full output
 * queue for every byte it sends: printing straight to the shell's channel, the shell thread
 * would switch in and out for every byte streamed, and the recording would fill the log it
 * streams. So what the recording prints goes into a buffer of its own (a stream, for
 * chprintf), and each poll hands the channel what it takes without waiting; the drain takes
 * entries from the log only while the buffer has room for what they print, the rest waits in
 * the log for the next poll. Only the end waits for the channel, to send everything. */
#define TU_REC_OUT_SIZE ((uint32_t) (THREADS_RECORD_BUFFER))
/* The longest lines a batch of entries prints: a compact line (with its newline), the line
 * "Lost:" (every number at its widest). */
#define TU_Z_LINE_MAX   ((uint32_t) (1U + 3U + TU_Z_PAYLOAD_CHARS + 1U + 4U + sizeof TU_NL - 1U))
#define TU_REC_LOST_MAX ((uint32_t) (sizeof "Lost: before record 4294967295, ticks 4294967295 to " \
                                     "4294967295, 4294967295 switches dropped" TU_NL - 1U))
/* Room kept for a batch: the line being filled, the line "Lost:", and two lines of its
 * entries (switches fill far less; entries with large values may fill more). A line beyond
 * the room (entries beyond it, many threads announced at once, long names) waits for the
 * channel. */
#define TU_REC_ROOM     (TU_REC_LOST_MAX + 3U * TU_Z_LINE_MAX)

typedef char tu_rec_out_size_check[TU_REC_OUT_SIZE >= TU_REC_ROOM + TU_Z_LINE_MAX ? 1 : -1];

typedef struct
{
  const struct BaseSequentialStreamVMT *vmt;
  BaseSequentialStream *chp;   /* the shell's channel */
  uint32_t n;                  /* bytes held */
  uint8_t  ending;             /* the stop byte came: the drain waits for room */
  uint8_t  buf[TU_REC_OUT_SIZE];
} tu_rec_out_t;

static tu_rec_out_t tu_rec_out;

/* Hands the channel what it takes of the bytes held, waiting at most @ms milliseconds for
 * room; returns the bytes taken. */
static uint32_t
tu_rec_send (uint32_t ms)
{
  size_t sent;

  if (tu_rec_out.n == 0U)
    return 0;
  sent = THREADS_RECORD_WRITE (tu_rec_out.chp, tu_rec_out.buf, tu_rec_out.n, ms);
  if (sent > tu_rec_out.n)
    sent = tu_rec_out.n;
  memmove (tu_rec_out.buf, tu_rec_out.buf + sent, tu_rec_out.n - (uint32_t) sent);
  tu_rec_out.n -= (uint32_t) sent;
  return (uint32_t) sent;
}

static size_t
tu_rec_out_write (void *ip, const uint8_t *bp, size_t n)
{
  size_t done = 0;

  (void) ip;
  while (done < n)
    {
      size_t k = n - done;

      if (tu_rec_out.n == TU_REC_OUT_SIZE && tu_rec_send (TU_REC_SILENCE_MS) == 0U)
        break;   /* the channel takes nothing any more: the host is gone */
      if (k > TU_REC_OUT_SIZE - tu_rec_out.n)
        k = TU_REC_OUT_SIZE - tu_rec_out.n;
      memcpy (tu_rec_out.buf + tu_rec_out.n, bp + done, k);
      tu_rec_out.n += (uint32_t) k;
      done += k;
    }
  return done;
}

static msg_t
tu_rec_out_put (void *ip, uint8_t b)
{
  return tu_rec_out_write (ip, &b, 1) == 1U ? MSG_OK : MSG_RESET;
}

static const struct BaseSequentialStreamVMT tu_rec_out_vmt = {
  .write = tu_rec_out_write,
  .put = tu_rec_out_put,
};

static uint32_t
tu_rec_ticks (uint32_t ms)
{
  return (uint32_t) (((uint64_t) ms * (uint64_t) (CH_CFG_ST_FREQUENCY) + 999U) / 1000U);
}

/* Threads and names that appeared since the last announcement: their list lines. */
static void
tu_rec_announce (BaseSequentialStream *out, uint8_t n_threads, uint8_t n_names)
{
  tu_line_t line;

  /* An announcement takes effect where it lies among the entries: after those of the lines
   * before it (which may renumber), so the line being filled goes out first. */
  if (tu_rec.threads < n_threads)
    tu_zlog_flush (out, &tu_rec.log);
  while (tu_rec.threads < n_threads && tu_list_line (tu_rec.threads, &line, 0) != 0)
    {
      tu_print_list_line (out, tu_rec.threads, &line);
      tu_rec.threads++;
    }
#if TU_NAMES
  for (; tu_rec.events != 0U && tu_rec.names < n_names; tu_rec.names++)
    chprintf (out, "Name %2d : Kind = %s, Name = %s" TU_NL, (int) tu_rec.names + 1,
              tu_name_kind_names[tu_name_kinds[tu_rec.names]], TU_NONAME (tu_names[tu_rec.names]));
#else
  (void) n_names;
#endif
}

/* Takes up to TU_REC_BATCH entries from the log (locked): their number; the slots overwritten
 * before they could be read are added to @lost.
 *
 * With @give_back, first gives the numbers of the threads that exited back: when the reader
 * has caught up, every thread is announced and only the recording holds the numbers, the exits
 * held meanwhile are written at the reader and taken here, under the same lock (so no hole can
 * take them), before any other announcement: the host renumbers at the same place in the
 * stream as the board, and the numbers go to the threads created next (announced as usual).
 * A batch at most. Short of numbers, the reader skips what it has not read (counted in @lost)
 * to give them back without waiting. */
static uint32_t
tu_rec_take (tu_entry_t *batch, uint32_t *slots, uint32_t *lost, uint8_t *n_threads,
             uint8_t *n_names, int give_back)
{
  uint32_t n = 0, left, keep, pos, oldest;

  chSysLock ();
  /* Short of numbers while the reader lags (a link slower than the board): waiting to catch up
   * would leave the threads created meanwhile unnumbered. The reader leaves out what the log
   * holds beyond it (counted, a hole like any other) and gives the numbers back at once. On a
   * saturated link this costs nothing: the link takes as many entries either way. */
  if (tu_n_held != 0U && tu_rec.seq != tu_written && tu_rec.stopping == 0U
      && tu_n_slots + TU_REC_SPARE > (uint32_t) THREADS_TIMESTAMPS_MAX_THREADS
      && tu_rec.threads == tu_n_slots && tu_active != 0U && tu_hold_count == 1U)
    {
      if (tu_written - tu_rec.seq < 0x80000000U)
        *lost += tu_written - tu_rec.seq;
      tu_rec.seq = tu_written;
      give_back = 1;
    }
  if (give_back != 0 && tu_n_held != 0U && tu_rec.seq == tu_written
      && tu_rec.threads == tu_n_slots && tu_active != 0U && tu_hold_count == 1U)
    {
      uint8_t before = tu_n_slots;

      tu_hold_count = 0;
      tu_flush_held_some (TU_REC_BATCH);
      tu_hold_count = 1U;
      tu_rec.threads = (uint8_t) (tu_rec.threads - (before - tu_n_slots));
    }
  /* Run mode (the log emptied meanwhile) goes on from its beginning. */
  if (tu_rec.seq - (tu_written - tu_count) > tu_count)
    {
      oldest = tu_written - tu_count;
      if (tu_written - tu_rec.seq >= 0x80000000U)
        tu_rec.until = oldest;          /* emptied: what a stop was to send is gone */
      else
        {
          /* overwritten; after the stop byte, only what came before it counts */
          if (tu_rec.stopping != 0U && oldest - tu_rec.until < 0x80000000U)
            oldest = tu_rec.until;
          *lost += oldest - tu_rec.seq;
        }
      tu_rec.seq = oldest;
    }
  left = tu_written - tu_rec.seq;
  /* After the stop byte, the entries written since are not part of the recording. */
  keep = tu_rec.stopping != 0U ? tu_written - tu_rec.until : 0U;
  if (keep > left)
    keep = left;
  pos = (tu_head + TU_LOG_SIZE - left) % TU_LOG_SIZE;
  while (n < TU_REC_BATCH && left > keep)
    {
      uint32_t before = left;

      if (tu_read_entry (&pos, &left, &batch[n]) == 0)
        *lost += before - left;   /* the rest of an entry overwritten */
      else if (tu_rec.events != 0U)
        slots[n++] = before - left;
      else if (batch[n].kind == 0U)
        slots[n++] = 1U;          /* a record of dump version 1 */
    }
  tu_rec.seq = tu_written - left;
  *n_threads = tu_n_slots;
#if TU_NAMES
  *n_names = tu_n_names;
#else
  *n_names = 0;
#endif
  chSysUnlock ();
  return n;
}

/* "Lost:": @lost slots the stream does not carry, between the last entry streamed and the
 * tick @next (of the first entry after the hole, or of now). Only between the lines. */
static void
tu_rec_lost (BaseSequentialStream *out, uint32_t lost, uint32_t next)
{
  tu_zlog_flush (out, &tu_rec.log);
  tu_rec.log.chain = 0;   /* the line after a hole starts from a key frame */
  chprintf (out, "Lost: before record %lu, ticks %lu to %lu, %lu switches dropped" TU_NL,
            (unsigned long) tu_rec.slots, (unsigned long) tu_rec.last_tick,
            (unsigned long) (tu_rec.last_tick + ((next - tu_rec.last_tick) & TU_TIME_MASK)),
            (unsigned long) lost);
  tu_rec.lost += lost;
}

/* Streams what the log holds beyond the reader, @most entries at most (after the stop byte,
 * up to the stop however many that is: at most a log). */
static void
tu_rec_drain (BaseSequentialStream *out, systime_t now, uint32_t most)
{
  uint32_t taken = 0;
  int give_back = 0;

  while (taken < most)
    {
      tu_entry_t batch[TU_REC_BATCH];
      uint32_t slots[TU_REC_BATCH];
      uint32_t i, n, lost = 0;
      uint8_t n_threads, n_names;

      /* No room for a batch: the channel takes what it can without waiting (at the end,
       * waiting), else the rest waits in the log for the next poll. */
      if (TU_REC_OUT_SIZE - tu_rec_out.n < TU_REC_ROOM
          && (tu_rec_send (tu_rec_out.ending != 0U ? TU_REC_SILENCE_MS : 0U) == 0U
              || TU_REC_OUT_SIZE - tu_rec_out.n < TU_REC_ROOM))
        break;

      n = tu_rec_take (batch, slots, &lost, &n_threads, &n_names, give_back);
      /* The hole lies between the lines: from the last entry streamed to the next one. */
      if (lost != 0U)
        tu_rec_lost (out, lost, n != 0U ? (batch[0].record >> TU_TIME_POS) & TU_TIME_MASK
                                        : (uint32_t) now & TU_TIME_MASK);
      tu_rec_announce (out, n_threads, n_names);
      for (i = 0; i < n; i++)
        {
          if (tu_rec.log.entries == 0U)
            tu_rec.line_began = now;
          tu_zlog_add (out, &tu_rec.log, &batch[i]);
          tu_rec.slots += slots[i];
          tu_rec.entries++;
          tu_rec.last_tick = (batch[i].record >> TU_TIME_POS) & TU_TIME_MASK;
        }
      if (n != 0U)
        {
          /* Quiet since the last entry was written, by the time now (not the poll's start:
           * the drain may have waited for the link, and the entries are newer than that). */
          tu_rec.quiet = ((uint32_t) chVTGetSystemTimeX () - tu_rec.last_tick) & TU_TIME_MASK;
          if (tu_rec.quiet > TU_TIME_MASK / 2U)
            tu_rec.quiet = 0;
        }
      taken += n;
      if (n == TU_REC_BATCH)
        give_back = 0;        /* more to read first */
      else if (tu_rec.stopping != 0U)
        break;                /* everything up to the stop is out */
      else if (give_back != 0 && n == 0)
        break;                /* caught up, nothing (more) to give back */
      else
        give_back = 1;        /* caught up: the next take gives the numbers back first */
    }
  if (tu_rec.log.entries != 0U
      && (uint32_t) (systime_t) (now - tu_rec.line_began) >= tu_rec_ticks (TU_REC_LINE_MS))
    tu_zlog_flush (out, &tu_rec.log);
#if TU_IRQ
  /* Between the lines, with the events: the handlers only counted, with their calls so far. */
  if (tu_rec.events != 0U && tu_n_ignored != 0U
      && (uint32_t) (systime_t) (now - tu_rec.counted_at) >= tu_rec_ticks (TU_REC_COUNTED_MS))
    {
      tu_zlog_flush (out, &tu_rec.log);
      tu_print_counted (out);
      tu_rec.counted_at = now;
    }
#endif
}

/* A quiet stretch: once nothing was streamed for a quarter of the tick's wrap, the line
 * "Heartbeat: tick T" gives the tick now, and again every quarter wrap while it lasts, so that
 * the host counts the wraps between two entries (steps modulo the wrap cannot tell a stretch
 * longer than half a wrap). Only between lines, and only when the log holds nothing more to
 * send: it follows every entry before it and precedes every entry after it, so its tick is
 * read now, after the drain (which may have waited for the link meanwhile). */
static void
tu_rec_beat (BaseSequentialStream *out)
{
  systime_t now;
  int pending;

  if (tu_rec.log.entries != 0U || tu_rec.quiet < TU_TIME_MASK / 4U + 1U)
    return;
  chSysLock ();
  now = chVTGetSystemTimeX ();
  pending = tu_rec.seq != tu_written;
  chSysUnlock ();
  if (pending != 0)
    return;
  chprintf (out, "Heartbeat: tick %lu" TU_NL, (unsigned long) ((uint32_t) now & TU_TIME_MASK));
  tu_rec.quiet = 0;
}

/* Ends the recording: the last line, the end line; the numbers are released (the exits held
 * meanwhile are written) and a trigger set meanwhile fills half a log from now. */
static void
tu_rec_end (BaseSequentialStream *out)
{
  tu_zlog_flush (out, &tu_rec.log);
#if TU_IRQ
  if (tu_rec.events != 0U)
    tu_print_counted (out);
#endif
  chprintf (out, "End of dump: %lu records, checksum %08lx" TU_NL,
            (unsigned long) tu_rec.entries, (unsigned long) tu_rec.log.hash);
  /* Everything goes out now, waiting for the channel (unless it takes nothing any more). */
  while (tu_rec_send (TU_REC_SILENCE_MS) != 0U)
    ;
  tu_rec_out.n = 0;
  chSysLock ();
  tu_rec.on = 0;
  tu_recording = 0;
  if (tu_triggered != 0U && tu_frozen == 0U)
    {
      tu_freeze_at = tu_written + TU_LOG_SIZE / 2U;
      tu_window ();
    }
  chSysUnlock ();
  tu_release (0);
}
#endif /* TU_RECORD */

#endif /* ENABLE_THREADS_TIMESTAMPS */

void
tuPrintDump (BaseSequentialStream *out)
{
#ifdef ENABLE_THREADS_TIMESTAMPS
  (void) tu_print_dump (out, TU_DUMP_TEXT);
#else
  chprintf (out, "%s", no_timestamps_error_message);
#endif
}

void
tuPrintDumpCompact (BaseSequentialStream *out)
{
#ifdef ENABLE_THREADS_TIMESTAMPS
  (void) tu_print_dump (out, TU_DUMP_COMPACT);
#else
  chprintf (out, "%s", no_timestamps_error_message);
#endif
}

int
tuRecordBegin (BaseSequentialStream *out, int events)
{
#if TU_RECORD
  uint8_t listed;

  chSysLock ();
  if (tu_rec.on != 0U)
    {
      chSysUnlock ();
      chprintf (out, "A recording is already under way" TU_NL);
      return 0;
    }
  /* A recording runs in run mode: a log frozen by a trigger starts again, empty. */
  if (tu_frozen != 0U)
    tuResetTriggerI ();
  memset (&tu_rec, 0, sizeof tu_rec);
  tu_zlog_init (&tu_rec.log);
  tu_rec.events = (uint8_t) (events != 0 && TU_EVENTS);
  tu_rec.log.z.stamps = (uint8_t) (tu_rec.events != 0U && TU_CYCLES);
  tu_rec.on = 1U;
  tu_recording = 1U;
  if (tu_triggered != 0U)
    {
      /* armed: the trigger waits for the recording's end */
      tu_freeze_at = tu_written + TU_FREEZE_NEVER;
      tu_window ();
    }
  tu_rec.seq = tu_written;
  tu_rec_out.vmt = &tu_rec_out_vmt;
  tu_rec_out.n = 0;
  tu_rec_out.ending = 0;
  tu_rec.polled = chVTGetSystemTimeX ();
  tu_rec.counted_at = tu_rec.polled;
#if TU_NAMES
  tu_rec.names = tu_n_names;
#endif
  tu_hold_count++;
  chSysUnlock ();

  listed = tu_print_dump (out, tu_rec.events != 0U ? TU_DUMP_RECORD : TU_DUMP_RECORD_SWITCHES);
  /* Threads created while the list was printed are in it; names registered meanwhile come
   * with the first entries. */
  tu_rec.threads = listed;
  return 1;
#else
  (void) events;
  chprintf (out, "%s", no_record_error_message);
  return 0;
#endif
}

int
tuRecordPoll (BaseSequentialStream *out, const uint8_t *input, size_t n)
{
#if TU_RECORD
  systime_t now = chVTGetSystemTimeX ();
  /* (polls come far more often than the system time wraps, even a 16-bit one) */
  uint32_t elapsed = (uint32_t) (systime_t) (now - tu_rec.polled);
  size_t i;

  if (tu_rec.on == 0U)
    return 0;
  /* What the recording prints goes through its buffer (see tu_rec_out_t). */
  tu_rec_out.chp = out;
  out = (BaseSequentialStream *) (void *) &tu_rec_out;
  (void) tu_rec_send (0);
  tu_rec.polled = now;
  tu_rec.unheard += elapsed;
  tu_rec.quiet += elapsed;
  for (i = 0; i < n; i++)
    {
      if (input[i] == (uint8_t) TU_REC_STOP)
        {
          /* What the log holds up to now is sent, however far behind the reader is (at most
           * a log: what the writer overwrites meanwhile is counted in "Lost:" lines); the
           * output waits for the channel from here on. */
          tu_rec_out.ending = 1U;
          chSysLock ();
          tu_rec.stopping = 1U;
          tu_rec.until = tu_written;
          chSysUnlock ();
          tu_rec_drain (out, now, 0xFFFFFFFFU);
          tu_rec_end (out);
          return 0;
        }
      tu_rec.unheard = 0;
    }
  if (tu_rec.unheard >= tu_rec_ticks (TU_REC_SILENCE_MS))
    {
      /* Nobody listens any more (the host went away, the cable was pulled): what the log
       * holds is not sent, but counted, so that a host still reading knows. */
      uint32_t unsent;

      chSysLock ();
      unsent = tu_written - tu_rec.seq;
      if (unsent >= 0x80000000U)
        unsent = tu_count;    /* the log was emptied: it holds what was written since */
      tu_rec.seq = tu_written;
      chSysUnlock ();
      if (unsent != 0U)
        tu_rec_lost (out, unsent, (uint32_t) now & TU_TIME_MASK);
      tu_rec_end (out);
      return 0;
    }
  tu_rec_drain (out, now, TU_REC_POLL);
  tu_rec_beat (out);
  (void) tu_rec_send (0);
  return 1;
#else
  (void) out;
  (void) input;
  (void) n;
  return 0;
#endif
}

uint32_t
tuRecordPollMs (void)
{
#if TU_RECORD
  /* Bytes left for the link: poll again soon, so that a small output queue is kept fed
   * without the shell thread waiting on it byte by byte. */
  if (tu_rec.on != 0U && tu_rec_out.n != 0U)
    return THREADS_RECORD_BUSY_POLL_MS;
#endif
  return THREADS_RECORD_POLL_MS;
}

const char *
tuSetTriggerI (const char *trigger_name)
{
#ifdef ENABLE_THREADS_TIMESTAMPS
  chDbgCheckClassI ();
  return tu_set_trigger (trigger_name);
#else
  (void) trigger_name;
  return NULL;
#endif
}

#ifdef ENABLE_THREADS_TIMESTAMPS
/* tuSetTriggerI() without the class check: the IRQ hooks run outside the kernel's view of
 * the handler (before its enter check, after its leave check). */
static const char *
tu_set_trigger (const char *trigger_name)
{
  if (tu_triggered == 0U)
    {
#if TU_EVENTS
      tu_event (TU_EV_TRIGGER, 0, 0);
#endif
      tu_trigger_name = trigger_name;
      tu_triggered = 1U;
      tu_trigger_time = (uint32_t) chVTGetSystemTimeX ();
      tu_trigger_seq = tu_written;
      if (tu_count <= TU_LOG_SIZE / 2U)
        {
          /* Triggered before the log is half full: use the whole remaining room. */
          tu_freeze_at = tu_written + (TU_LOG_SIZE - tu_count);
        }
      else
        {
          tu_freeze_at = tu_written + TU_LOG_SIZE / 2U;
        }
#if TU_RECORD
      /* While recording, the log fills from the trigger on only once the recording ends. */
      if (tu_recording != 0U)
        tu_freeze_at = tu_written + TU_FREEZE_NEVER;
#endif
      if (tu_freeze_at == tu_written)
        tu_freeze ();
      else
        tu_window ();
    }
  return tu_trigger_name;
}
#endif

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
      tu_freeze_at = 0;
#if TU_CONDITIONS
      tu_when_fired = 0;
#endif
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
  tu_clear_log ();
  tu_update_active ();
  chSysUnlock ();
#endif
}

void
tuReplayEntry (uint32_t record, uint32_t counter, uint32_t a, uint32_t b)
{
#ifdef ENABLE_THREADS_TIMESTAMPS
  chSysLock ();
#if TU_EVENTS
  (void) tu_put (record, counter, 0);
  if (((record >> TU_OUT_POS) & TU_NUM_MASK) == TU_EVENT_MARK && (record & TU_NUM_MASK) < TU_EV_KINDS
      && tu_payload_of[record & TU_NUM_MASK] != 0U)
    tu_put_more (a, b, tu_payload_of[record & TU_NUM_MASK] == 2U);
#else
  (void) a;
  (void) b;
  (void) tu_put (record, counter, 0);
#endif
  chSysUnlock ();
#else
  (void) record;
  (void) counter;
  (void) a;
  (void) b;
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

/********************                  USER EVENTS                 ********************/

#if TU_USER
#define TU_REGISTER(kind) {                                                 \
  tuname_t id;                                                              \
  chSysLock ();                                                             \
  id = tu_register_name (name, (kind));                                     \
  chSysUnlock ();                                                           \
  return id;                                                                \
}
#define TU_REGISTER_I(kind) {                                               \
  chDbgCheckClassI ();                                                      \
  return tu_register_name (name, (kind));                                   \
}
#else
#define TU_REGISTER(kind) { (void) name; return 0; }
#define TU_REGISTER_I(kind) TU_REGISTER(kind)
#endif

tuname_t tuRegisterMarker (const char *name) TU_REGISTER (TU_NAME_MARKER)
tuname_t tuRegisterChannel (const char *name) TU_REGISTER (TU_NAME_CHANNEL)
tuname_t tuRegisterState (const char *name) TU_REGISTER (TU_NAME_STATE)
tuname_t tuRegisterMarkerI (const char *name) TU_REGISTER_I (TU_NAME_MARKER)
tuname_t tuRegisterChannelI (const char *name) TU_REGISTER_I (TU_NAME_CHANNEL)
tuname_t tuRegisterStateI (const char *name) TU_REGISTER_I (TU_NAME_STATE)

void
tuMarkerI (tuname_t marker, uint32_t value)
{
#if TU_USER
  chDbgCheckClassI ();
  if (marker == 0U)
    return;
#if TU_CONDITIONS
  if (tu_when == TU_WHEN_MARKER && marker == tu_when_id
      && (tu_when_limit == TU_ANY_VALUE || value == tu_when_limit))
    tu_fire (value);
#endif
  tu_event (TU_EV_MARKER, marker, value);
#else
  (void) marker;
  (void) value;
#endif
}

void
tuStateBeginI (tuname_t channel, tuname_t state)
{
#if TU_USER
  chDbgCheckClassI ();
  if (channel != 0U)
    tu_event (TU_EV_BEGIN, (uint32_t) channel | ((uint32_t) state << 8), 0);
#else
  (void) channel;
  (void) state;
#endif
}

void
tuStateEndI (tuname_t channel)
{
#if TU_USER
  chDbgCheckClassI ();
  if (channel != 0U)
    tu_event (TU_EV_END, channel, 0);
#else
  (void) channel;
#endif
}

void
tuMarker (tuname_t marker, uint32_t value)
{
  chSysLock ();
  tuMarkerI (marker, value);
  chSysUnlock ();
}

void
tuStateBegin (tuname_t channel, tuname_t state)
{
  chSysLock ();
  tuStateBeginI (channel, state);
  chSysUnlock ();
}

void
tuStateEnd (tuname_t channel)
{
  chSysLock ();
  tuStateEndI (channel);
  chSysUnlock ();
}

/********************              CONDITION TRIGGERS              ********************/

#if TU_CONDITIONS
static const char *const tu_when_words[] = { "off", "latency", "run", "irq", "marker" };
#endif

int
tuTriggerWhen (tu_when_t what, uint32_t limit, const char *name)
{
#if TU_CONDITIONS
  char text[sizeof tu_when_text];
  uint8_t id = 0;
  size_t len = name != NULL ? strlen (name) : 0U;

  if ((unsigned) what > (unsigned) TU_WHEN_MARKER || len >= sizeof tu_when_name
      || (what == TU_WHEN_LATENCY && !TU_READY) || (what == TU_WHEN_IRQ && !TU_IRQ)
      || (what == TU_WHEN_MARKER && (!TU_USER || len == 0U))
      /* A limit the 32-bit counter cannot measure (above 2^32 counts). */
      || (what != TU_WHEN_OFF && what != TU_WHEN_MARKER
          && (uint64_t) limit * TU_NOW_HZ > 0xFFFFFFFFULL * 1000000U))
    return -1;

  if (what == TU_WHEN_OFF)
    text[0] = '\0';
  else if (what == TU_WHEN_MARKER)
    {
      if (limit == TU_ANY_VALUE)
        chsnprintf (text, sizeof text, "marker %s", name);
      else
        chsnprintf (text, sizeof text, "marker %s = %lu", name, (unsigned long) limit);
    }
  else
    chsnprintf (text, sizeof text, "%s above %lu us%s%s", tu_when_words[what],
                (unsigned long) limit, len != 0U ? " of " : "", len != 0U ? name : "");

  chSysLock ();
#if TU_NAMES
  if (len != 0U && (what == TU_WHEN_IRQ || what == TU_WHEN_MARKER))
    {
      uint8_t i, kind = (uint8_t) (what == TU_WHEN_IRQ ? TU_NAME_IRQ : TU_NAME_MARKER);

      for (i = 0; i < tu_n_names; i++)
        if (tu_name_kinds[i] == kind && strcmp (tu_names[i], name) == 0)
          id = (uint8_t) (i + 1U);
    }
#endif
  tu_when = (uint8_t) what;
#if TU_IRQ
  tu_irq_depth = 0;
#endif
  tu_when_on_switch = (uint8_t) (what == TU_WHEN_LATENCY || what == TU_WHEN_RUN);
  tu_when_us = limit;
  tu_when_limit = what == TU_WHEN_MARKER
                  ? limit : (uint32_t) (((uint64_t) limit * TU_NOW_HZ + 999999U) / 1000000U);
  tu_when_id = id;
  memcpy (tu_when_name, name != NULL ? name : "", len + 1U);
  memcpy (tu_when_text, text, sizeof text);
  tu_run_since = TU_NOW ();
  tu_window ();
  chSysUnlock ();
#if TU_READY && (CH_CFG_USE_REGISTRY == TRUE)
  {
    /* Wake-ups before now are forgotten: the flags were not kept while no condition was set. */
    thread_t *tp;

    for (tp = chRegFirstThread (); tp != NULL; tp = chRegNextThread (tp))
      tp->tu_readied = 0U;
  }
#endif
  return 0;
#else
  (void) what;
  (void) limit;
  (void) name;
  return -1;
#endif
}

/********************                SHELL FUNCTIONS               ********************/

/* A command that takes no argument: given some, it answers with its usage. */
static int
tu_no_arguments (BaseSequentialStream *chp, int argc, const char *name)
{
  if (argc > 0)
    {
      shellUsage (chp, name);
      return 0;
    }
  return 1;
}

void
tuCmdThreadsList (BaseSequentialStream *chp, int argc, char *argv[])
{
  (void) argv;
  if (tu_no_arguments (chp, argc, "threads_list"))
    tuPrintListThreads (chp);
}

void
tuCmdThreadsTimestampsTrigger (BaseSequentialStream *chp, int argc, char *argv[])
{
  (void) argv;
  if (!tu_no_arguments (chp, argc, "threads_timestamps_trigger"))
    return;
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
  if (!tu_no_arguments (chp, argc, "threads_timestamps_run"))
    return;
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
  if (tu_no_arguments (chp, argc, "threads_timestamps"))
    tuPrintTimestamps (chp);
}

void
tuCmdThreadsDump (BaseSequentialStream *chp, int argc, char *argv[])
{
  (void) argv;
  if (tu_no_arguments (chp, argc, "threads_dump"))
    tuPrintDump (chp);
}

void
tuCmdThreadsDumpCompact (BaseSequentialStream *chp, int argc, char *argv[])
{
  (void) argv;
  if (tu_no_arguments (chp, argc, "threads_dump_compact"))
    tuPrintDumpCompact (chp);
}

void
tuCmdThreadsRecord (BaseSequentialStream *chp, int argc, char *argv[])
{
  int events = argc == 1 && strcmp (argv[0], "events") == 0;

  if (argc > 1 || (argc == 1 && events == 0))
    {
      shellUsage (chp, "threads_record [events]");
      return;
    }
#if TU_RECORD
  if (tuRecordBegin (chp, events) == 0)
    return;
  for (;;)
    {
      uint8_t input[8];
      size_t n = THREADS_RECORD_READ (chp, input, sizeof input, tuRecordPollMs ());

      if (tuRecordPoll (chp, input, n) == 0)
        break;
    }
#else
  chprintf (chp, "%s", no_record_error_message);
#endif
}

#if TU_CONDITIONS
/* Reads a decimal number no larger than 2^32 - 2; -1 otherwise. */
static int
tu_parse_number (const char *text, uint32_t *value)
{
  uint64_t v = 0;

  if (*text == '\0')
    return -1;
  for (; *text != '\0'; text++)
    {
      if (*text < '0' || *text > '9')
        return -1;
      v = v * 10U + (uint64_t) (*text - '0');
      if (v >= TU_ANY_VALUE)
        return -1;
    }
  *value = (uint32_t) v;
  return 0;
}

static void
tu_when_usage (BaseSequentialStream *chp)
{
  shellUsage (chp, "threads_trigger_when latency|run|irq MICROSECONDS [NAME] | marker NAME [VALUE] | off");
}
#endif

void
tuCmdThreadsTriggerWhen (BaseSequentialStream *chp, int argc, char *argv[])
{
#if TU_CONDITIONS
  uint32_t limit = TU_ANY_VALUE;
  unsigned w;
  const char *name = NULL;

  if (argc == 0)
    {
      /* The condition and the log's mode, as the dump's header prints them: a host waiting
       * for the board to freeze asks this, not for a whole dump. */
      char text[sizeof tu_when_text];
      uint8_t triggered, frozen;

      chSysLock ();
      memcpy (text, tu_when_text, sizeof text);
      triggered = tu_triggered;
      frozen = tu_frozen;
      chSysUnlock ();
      chprintf (chp, "Condition: %s" TU_NL, text[0] != '\0' ? text : "none");
      chprintf (chp, "Mode: %s" TU_NL, triggered == 0U ? "run" : frozen != 0U ? "frozen" : "armed");
      return;
    }
  for (w = 0; w < sizeof tu_when_words / sizeof tu_when_words[0]; w++)
    if (strcmp (argv[0], tu_when_words[w]) == 0)
      break;
  if (w == TU_WHEN_OFF && argc == 1)
    ;
  else if (w == TU_WHEN_MARKER && (argc == 2 || argc == 3)
           && (argc == 2 || tu_parse_number (argv[2], &limit) == 0))
    name = argv[1];
  else if (w > TU_WHEN_OFF && w < TU_WHEN_MARKER && (argc == 2 || argc == 3)
           && tu_parse_number (argv[1], &limit) == 0)
    name = argc == 3 ? argv[2] : NULL;
  else
    {
      tu_when_usage (chp);
      return;
    }
  if (tuTriggerWhen ((tu_when_t) w, limit, name) != 0)
    {
      chprintf (chp, "This condition is not available on this board (or the name is too long)" TU_NL);
      return;
    }
  chprintf (chp, "Condition: %s" TU_NL, tu_when_text[0] != '\0' ? tu_when_text : "none");
#else
  (void) argc;
  (void) argv;
  chprintf (chp, "Condition triggers are disabled (THREADS_TIMESTAMPS_CONDITIONS)" TU_NL);
#endif
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

/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file    tu_internal.h
 * @brief   Threads utilities: what the files of the library share (not for users, who include
 *          threads_utilities.h): the layout of the log, the state the hooks write and the shell
 *          thread reads, and the writer's inline fast path.
 *
 * @addtogroup threads_utilities
 * @{
 */

#ifndef TU_INTERNAL_H
#define TU_INTERNAL_H

/* Several builds in one host program: each with names of its own. */
#if defined(TU_INTERNAL_PREFIX)
#include "tu_internal_names.h"
#endif

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
/* Out of line at every call: one copy of a function the optimizer would otherwise copy into
 * its callers (smaller flash; the functions so marked are not on the hooks' path). */
#if defined(__GNUC__)
#define TU_NOINLINE __attribute__((noinline))
#define TU_COLD     __attribute__((cold, noinline))
#define TU_HOT      __attribute__((always_inline))
#else
#define TU_NOINLINE
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
#define TU_NAME(tp) ((const char *)NULL)
#endif

#define TU_NONAME(name) ((name) == NULL ? "NONAME" : (name))

#define TU_LIST_FORMAT "Thread number %2d : Prio = %3d, Log = %3s, Name = %s" TU_NL

#ifdef ENABLE_THREADS_TIMESTAMPS

/**
 * @brief   The defaults of templates/tuconf.h, for a build that sets neither the makefile's
 *          variable nor tuconf.h.
 */
#ifndef THREADS_TIMESTAMPS_LOG_SIZE
#define THREADS_TIMESTAMPS_LOG_SIZE 3000
#endif
#ifndef THREADS_TIMESTAMPS_DEFAULT_LOG
#define THREADS_TIMESTAMPS_DEFAULT_LOG false
#endif

/**
 * @brief   Room of the log array. Equal to THREADS_TIMESTAMPS_LOG_SIZE on a board; a host
 *          program may define a larger room and make THREADS_TIMESTAMPS_LOG_SIZE a variable no
 *          larger than it.
 */
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

/**
 * @brief   Exited threads remembered while their exit record is in the log.
 */
#ifndef THREADS_TIMESTAMPS_MAX_DELETED
#define THREADS_TIMESTAMPS_MAX_DELETED 64
#endif
#if (THREADS_TIMESTAMPS_MAX_DELETED < 1) || (THREADS_TIMESTAMPS_MAX_DELETED > 255)
#error "THREADS_TIMESTAMPS_MAX_DELETED must be between 1 and 255"
#endif

/**
 * @brief   Pauses remembered (those during which switches were dropped), newest kept.
 */
#ifndef THREADS_TIMESTAMPS_MAX_PAUSES
#define THREADS_TIMESTAMPS_MAX_PAUSES 8
#endif
#if (THREADS_TIMESTAMPS_MAX_PAUSES < 1) || (THREADS_TIMESTAMPS_MAX_PAUSES > 255)
#error "THREADS_TIMESTAMPS_MAX_PAUSES must be between 1 and 255"
#endif

#define TU_LOG_SIZE ((uint32_t)(THREADS_TIMESTAMPS_LOG_SIZE))

/* threads_record: the host's stop byte, and how long the board streams without a byte from
 * the host (its keep-alive). */
#define TU_REC_STOP       THREADS_RECORD_STOP_BYTE
#define TU_REC_SILENCE_MS THREADS_RECORD_SILENCE_MS

#define TU_IN_POS   0
#define TU_OUT_POS  6
#define TU_TIME_POS 12
#define TU_NUM_MASK 0x3FU
/* Bits of the system tick a record keeps: 20, or the 16 of a 16-bit system time (the header's
 * "Tick bits"). Ticks, steps and the ticks of the "Paused:", "Lost:" and "Heartbeat:" lines
 * wrap there. */
#if defined(CH_CFG_ST_RESOLUTION) && (CH_CFG_ST_RESOLUTION == 16)
#define TU_TICK_BITS 16U
#else
#define TU_TICK_BITS 20U
#endif
#define TU_TIME_MASK ((uint32_t)((1UL << TU_TICK_BITS) - 1UL))

#define TU_FLAG_LOG     0x01U
#define TU_FLAG_DYNAMIC 0x02U
#define TU_FLAG_COPIED  0x04U /* the name is the entry's copy (a dynamic thread's) */

/**
 * @brief   An exited dynamic thread's memory, where its name may be, can be reused: its name is
 *          kept as a pointer when it lies in constant storage (TU_NAME_IS_CONSTANT), else as a
 *          copy of up to THREADS_TIMESTAMPS_NAME_COPY - 1 characters taken at its exit; with 0,
 *          not kept.
 */
#ifndef THREADS_TIMESTAMPS_NAME_COPY
#define THREADS_TIMESTAMPS_NAME_COPY 12
#endif
#if (THREADS_TIMESTAMPS_NAME_COPY < 0) || (THREADS_TIMESTAMPS_NAME_COPY > 64)
#error "THREADS_TIMESTAMPS_NAME_COPY must be between 0 and 64"
#endif
#define TU_NAME_ROOM (THREADS_TIMESTAMPS_NAME_COPY > 0 ? THREADS_TIMESTAMPS_NAME_COPY : 1)

/**
 * @brief   Whether @p lies in constant storage. THREADS_TIMESTAMPS_NAME_IS_CONSTANT(p) may say
 *          it; on Cortex-M with GCC, the .rodata section of ChibiOS's linker scripts (its
 *          bounds are weak: a script without them makes every name a copy).
 */
#if defined(THREADS_TIMESTAMPS_NAME_IS_CONSTANT)
#define TU_NAME_IS_CONSTANT(p) THREADS_TIMESTAMPS_NAME_IS_CONSTANT(p)
#elif defined(__GNUC__) && defined(__arm__) && defined(__ARM_ARCH_PROFILE) && \
    (__ARM_ARCH_PROFILE == 'M')
extern const char __rodata_base__[] __attribute__((weak));
extern const char __rodata_end__[] __attribute__((weak));
#define TU_NAME_IS_CONSTANT(p) \
  ((uintptr_t)(p) >= (uintptr_t)__rodata_base__ && (uintptr_t)(p) < (uintptr_t)__rodata_end__)
#else
#define TU_NAME_IS_CONSTANT(p) 0
#endif

/* Priorities are 0..255 in every ChibiOS/RT version. */
typedef struct {
  thread_t *tp;            /* NULL: exited while held */
  const char *name;        /* held exits only (see tu_keep_name()) */
  uint16_t exit_order;     /* held exits only */
  uint8_t prio;            /* held exits only */
  uint8_t flags;           /* held exits only */
  char copy[TU_NAME_ROOM]; /* held exits only */
} tu_slot_t;

typedef struct {
  const char *name; /* see tu_keep_name() */
  uint32_t seq;     /* sequence number of the exit record */
  uint8_t prio;
  uint8_t number;
  uint8_t flags;
  char copy[TU_NAME_ROOM];
} tu_deleted_t;

/* A pause of the log during which switches were dropped: a hole in the log. */
typedef struct {
  uint32_t seq;   /* sequence number of the first record written after it */
  uint32_t begin; /* system time when the pause began and ended (not wrapped) */
  uint32_t end;
  uint32_t dropped; /* switches not recorded during it */
} tu_pause_t;

extern const char tu_dynamic_name[];

/* Kinds of the event entries (record word with out-thread TU_EVENT_MARK), with events. */
#define TU_EVENT_MARK   63U
#define TU_EV_IRQ_ENTER 1U /* payload A: name id of the handler (above 30) */
#define TU_EV_IRQ_LEAVE 2U /* the innermost handler under way ends */
#define TU_EV_SLEEP     3U /* the CPU goes idle */
#define TU_EV_WAKE      4U /* the CPU leaves idle */
#define TU_EV_READY     5U /* payload A: number of the thread made ready */
#define TU_EV_MARKER    6U /* payload A: name id, B: value */
#define TU_EV_BEGIN     7U /* payload A: channel id | state id << 8 */
#define TU_EV_END       8U /* payload A: channel id */
#define TU_EV_TRIGGER   9U /* the trigger was set here */
#define TU_EV_KINDS     10U
/* A handler with a name id up to 30 enters without a payload: kind 32 + id. */
#define TU_EV_IRQ_SHORT  32U
#define TU_IRQ_SHORT_MAX 30U
/* A continuation slot: record word A << 12 | 0xFFF, then (with the counter) B. */
#define TU_EV_MORE     63U
#define TU_MORE_MARK   0xFFFU
#define TU_MORE_A_MASK 0xFFFFFU

#if TU_EVENTS
/* Payload of each kind: 0 none, 1 A, 2 A and B. */
extern const uint8_t tu_payload_of[TU_EV_KINDS];

#define TU_STAMP_WORDS ((uint32_t)TU_CYCLES)
#else
#define TU_STAMP_WORDS 0U
#endif

/* The log is a ring of THREADS_TIMESTAMPS_LOG_SIZE slots of TU_SLOT_WORDS words. */
#define TU_SLOT_WORDS (1U + TU_STAMP_WORDS)

#if TU_CYCLES
#ifndef THREADS_TIMESTAMPS_COUNTER_HZ
#error \
    "THREADS_TIMESTAMPS_COUNTER_HZ (the realtime counter's frequency) must be set with THREADS_TIMESTAMPS_CYCLES"
#endif
#define TU_NOW()  ((uint32_t)chSysGetRealtimeCounterX())
#define TU_NOW_HZ ((uint64_t)(THREADS_TIMESTAMPS_COUNTER_HZ))
#else
#define TU_NOW()  ((uint32_t)chVTGetSystemTimeX())
#define TU_NOW_HZ ((uint64_t)(CH_CFG_ST_FREQUENCY))
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

/* The state of the log (threads_utilities.c). */
extern uint32_t tu_log[(THREADS_TIMESTAMPS_LOG_CAPACITY) * (1U + TU_STAMP_WORDS)];
extern tu_slot_t tu_slots[THREADS_TIMESTAMPS_MAX_THREADS];
extern tu_deleted_t tu_deleted[THREADS_TIMESTAMPS_MAX_DELETED];
extern tu_pause_t tu_pauses[THREADS_TIMESTAMPS_MAX_PAUSES];

/* Whether newly created threads are logged. */
extern uint8_t tu_log_setting;

/* The log: tu_count records (with events: slots) end just before tu_head; tu_written counts
 * every record written since the log was last emptied (the sequence number of the next
 * record). */
extern uint32_t tu_head;
extern uint32_t tu_count;
extern uint32_t tu_written;

/* The writer's fast path takes a slot while tu_head < tu_fast_end; tu_count grows by
 * tu_count_step then (1 until the log is full). tu_window() sets both (see there). */
extern uint32_t tu_fast_end;
extern uint32_t tu_count_step;

/* Recording: tu_active is the fast-path summary of (no pause and not frozen). */
extern uint8_t tu_active;
extern uint8_t tu_frozen;
extern uint8_t tu_pause_count;
extern uint8_t tu_hold_count;

/* Trigger */
extern uint8_t tu_triggered;
extern uint32_t tu_trigger_time;
extern uint32_t tu_trigger_seq; /* the sequence number of the first record after it */
extern uint32_t tu_freeze_at;   /* the log freezes when tu_written reaches it */
/* tu_freeze_at this far ahead: not before 2^31 slots (a trigger set while recording waits). */
#define TU_FREEZE_NEVER 0x7FFFFFFFU
extern const char *tu_trigger_name;
#if TU_RECORD
extern uint8_t tu_recording; /* threads_record under way: a trigger does not freeze */
#endif

/* Numbered threads and held exits; tu_frozen_slots: numbered threads when the log froze (the
 * threads after them are not in the frozen log, so they can leave without renumbering it). */
extern uint8_t tu_n_slots;
extern uint8_t tu_frozen_slots;
extern uint8_t tu_n_held;
extern uint16_t tu_exit_order;

/* Exited-thread history, oldest first */
extern uint8_t tu_deleted_first;
extern uint8_t tu_deleted_count;

/* Counters reported by threads_dump */
extern uint32_t tu_dropped_paused;
extern uint32_t tu_dropped_history;
extern uint32_t tu_unnumbered_live;
extern uint32_t tu_unnumbered_total;

/* The pauses that dropped switches, oldest first; the one under way: when it began and the
 * value of tu_dropped_paused then. */
extern uint8_t tu_pauses_first;
extern uint8_t tu_pauses_count;
extern uint32_t tu_pause_begin;
extern uint32_t tu_pause_dropped_base;

#if TU_NAMES
#define TU_NAME_IRQ     0U
#define TU_NAME_MARKER  1U
#define TU_NAME_CHANNEL 2U
#define TU_NAME_STATE   3U
extern const char *const tu_name_kind_names[];
extern const char *tu_names[THREADS_TIMESTAMPS_MAX_NAMES];
extern uint8_t tu_name_kinds[THREADS_TIMESTAMPS_MAX_NAMES];
extern uint8_t tu_n_names;
extern uint32_t tu_names_refused;
#endif

#if TU_IRQ
/* The handlers' fast check, indexed by a handler's id variable (which only ever holds 0 or
 * an id returned by the table, so it is in bounds): entry i is the name of id i when i is a
 * handler's id of at most TU_IRQ_SHORT_MAX (its entry takes one slot). Every other id given
 * since start-up has TU_IRQ_OTHER, so that no name, not even NULL, matches a stale id after
 * tuResetState(); entry 0 stays NULL (a handler without a name is recorded as id 0). */
#define TU_IRQ_OTHER tu_dynamic_name
extern const char *tu_irq_fast[THREADS_TIMESTAMPS_MAX_NAMES + 1];

/**
 * @brief   Handlers only counted, not logged (tuIrqIgnore(), THREADS_TIMESTAMPS_IRQ_IGNORE):
 *          typically the one of the link that carries the shell, which runs for every byte the
 *          board sends, so a recording would log its own output. Indexed by id - 1: whether it
 *          is counted only, and its calls since it was named. Such a handler takes the slow
 *          path (its tu_irq_fast entry is TU_IRQ_OTHER); while one is under way, tu_irq_skip
 *          has a bit per nesting level (1: counted only), innermost lowest, and the writer's
 *          window is shut, so that its leave takes the slow path too. The fast paths of the
 *          other handlers do not change.
 */
#if !defined(THREADS_TIMESTAMPS_IRQ_IGNORE) && defined(PORT_ARCHITECTURE_SIMIA32)
/* The RT-Posix simulator's serial driver: polled at every turn of the idle loop. */
#define THREADS_TIMESTAMPS_IRQ_IGNORE "sd_lld_interrupt_pending"
#endif
extern uint8_t tu_irq_ignored[THREADS_TIMESTAMPS_MAX_NAMES];
extern uint32_t tu_irq_calls[THREADS_TIMESTAMPS_MAX_NAMES];
extern uint32_t tu_irq_skip;
extern uint8_t tu_n_ignored;
#endif

#if TU_IRQ && TU_CONDITIONS
/* The handlers under way, innermost last, and when they entered. */
extern uint8_t tu_irq_stack[TU_MAX_NESTING];
extern uint32_t tu_irq_since[TU_MAX_NESTING];
extern uint8_t tu_irq_depth;
#endif

#if TU_CONDITIONS
/* The condition: its kind (tu_when_t), its limit in counter units (or the marker's value),
 * the name it is restricted to ("" for any) and its id once known (handlers, markers). */
extern uint8_t tu_when;
extern uint8_t tu_when_on_switch; /* latency or run: checked at every switch */
extern uint32_t tu_when_limit;
extern uint32_t tu_when_us;
extern uint8_t tu_when_id;
extern char tu_when_name[48];
extern char tu_when_text[80];
extern char tu_fired_text[80]; /* the trigger's name: the condition when it fired */
extern uint32_t tu_when_measured_us;
extern uint8_t tu_when_fired;
extern uint32_t tu_run_since;
#endif

#if !TU_RECORD
extern const char tu_no_record_message[];
#endif

/* What tu_print_dump() prints: threads_dump, threads_dump_compact, or the beginning of
 * threads_record (the header and the lists up to "Compact:"; the numbers are held by the
 * recording, which does not pause the log). */
#define TU_DUMP_TEXT            0
#define TU_DUMP_COMPACT         1
#define TU_DUMP_RECORD          2
#define TU_DUMP_RECORD_SWITCHES 3 /* threads_record of the switches only: as dump version 1 */

typedef struct {
  const char *name;
  int number;
  int prio;
  int log;
  char copy[TU_NAME_ROOM]; /* a held exit's copied name, taken under the lock */
} tu_line_t;

typedef struct {
  uint32_t first;
  uint32_t count;
  uint32_t checksum;
} tu_span_t;

typedef struct {
  uint32_t record;
  uint32_t stamp;
  uint32_t kind; /* 0: a switch; else TU_EV_*, a short handler entry as TU_EV_IRQ_ENTER */
  uint32_t a;
  uint32_t b;
} tu_entry_t;

/* The compact encoding (tu_compact.c): lines "Z~" of the range coder (see WIRE-FORMAT.md). A
 * line ends after the entry that takes its coded bytes to TU_Z_SOFT_BYTES or more, or after
 * TU_Z_MAX_ENTRIES entries; an entry codes to TU_Z_ENTRY_BYTES at most, so a line's coded
 * bytes never pass TU_Z_BYTES. */
#define TU_Z_SOFT_BYTES   96U
/* With the counter (counter coder 4), longer lines: the coder learns over more entries, and a
 * key frame serves more of them. A recording's buffer smaller than three such lines and a
 * Lost: line keeps them as long as the others. */
#if !defined(THREADS_RECORD_BUFFER) || THREADS_RECORD_BUFFER >= 882
#define TU_Z_SOFT_BYTES_4 128U
#else
#define TU_Z_SOFT_BYTES_4 TU_Z_SOFT_BYTES
#endif
#define TU_Z_ENTRY_BYTES  64U
#define TU_Z_BYTES        (TU_Z_SOFT_BYTES_4 + TU_Z_ENTRY_BYTES + 8U)
#define TU_Z_HEAD_BYTES   4U /* the line's number (3 bytes) and entry count */
/* Characters between "Z~" and the checksum at most: 2 for each 13 bits. */
#define TU_Z_PAYLOAD_CHARS (2U * (((TU_Z_HEAD_BYTES + TU_Z_BYTES) * 8U + 12U) / 13U))
#define TU_Z_MAX_ENTRIES  255U
/* Counter periods in a tick, for predicting the counter from the tick. */
#define TU_Z_CYCLES_PER_TICK ((uint32_t)(TU_NOW_HZ / (uint64_t)(CH_CFG_ST_FREQUENCY)))

/* The range coder's output for the line being filled. */
typedef struct {
  uint64_t low;
  uint32_t range;
  uint32_t pending; /* bytes held back for a carry: the cache and the 0xFF after it */
  uint8_t cache;
  uint8_t started; /* the first byte (always 0) is not written */
  uint8_t fast;    /* counter coder 4: probabilities learn fast at first */
  uint32_t n;      /* bytes of the line (number, count, coded bytes) */
  uint8_t bytes[TU_Z_HEAD_BYTES + TU_Z_BYTES]; /* the line's number and count, then these */
} tu_bits_t;

/* A list of symbols kept sorted by how often they were coded on the line (the most recent
 * first among equals): a symbol is coded as its position. */
#define TU_Z_HEADS 64U /* 0: not a switch from the running thread; r: one, to rank r */
#define TU_Z_STEPS 17U /* tick steps 0 to 15; 16: larger */
/* With the counter: kinds of entries, whose pairs (the previous entry's kind, the entry's)
 * each learn the order of their counter steps. */
#define TU_Z_CLASSES 11U
#define TU_Z_PAIRS   (TU_Z_CLASSES * TU_Z_CLASSES)
#define TU_Z_UNSEEN  0xFFU
/* Steps remembered: one per in-thread (0 to 63), exits (64), each kind of event (65 + k). */
#define TU_Z_LASTS   (64U + 1U + TU_EV_KINDS)
/* The range coder's probabilities (see tu_compact.c for their places). */
#define TU_Z_PROBS   (64U + 9U * 8U + 1U + 9U + 32U)

/* What the coder remembers between entries; a line's key frame resets it. */
typedef struct {
  uint32_t tick;    /* 20-bit tick of the last entry */
  uint32_t counter; /* counter of the last entry */
  uint32_t mean;    /* running mean of the counter's steps, times 8 */
  uint8_t cur;      /* number of the thread running (the implied out-thread) */
  uint8_t mtf[64];  /* thread numbers, most recent first */
  uint8_t heads[TU_Z_HEADS];
  uint8_t head_counts[TU_Z_HEADS];
  uint8_t steps[TU_Z_STEPS];
  uint8_t step_counts[TU_Z_STEPS];
  uint8_t succ[64];            /* the in-thread of the last switch from each thread */
  uint16_t last[TU_Z_LASTS];   /* the last tick step of each in-thread, exit, event kind */
  uint8_t hit_who, hit_when;   /* the last guesses were right */
  uint8_t pk;                  /* the kind of the entry before (0 to 7), 8 a switch from cur */
  uint16_t probs[TU_Z_PROBS];
  uint8_t stamps;             /* the entries carry the counter */
  uint8_t prev;               /* with stamps: the kind of the last entry */
  uint32_t anchor;            /* with stamps: where the counter stood at the start of the tick
                            * the last entry's tick began (its lowest place seen) */
  uint8_t orders[TU_Z_PAIRS]; /* with stamps: the order learnt for each pair of kinds */
  uint8_t firsts[TU_Z_CLASSES]; /* with stamps: the order learnt for the first entry of a
                                 * tick, for each kind */
  uint32_t grain;             /* with stamps: the line's grain (its key frame says it) */
  uint32_t seen;              /* with stamps: the greatest common divisor of the line's
                               * counter steps so far, the next line's grain */
} tu_zstate_t;

/* A compact log being printed: the line being filled, the coder's state after its entries,
 * and the checksum of the entries so far. */
typedef struct {
  tu_zstate_t z;
  tu_bits_t b;
  uint32_t seq;     /* the number of the line being filled */
  uint32_t entries; /* entries on it */
  uint32_t hash;
} tu_zlog_t;

/* threads_utilities.c: the log and the hooks */
void tu_update_active(void);
void tu_freeze(void);
void tu_deleted_pop(void);
void tu_window(void);
TU_COLD int tu_put_slow(uint32_t record, uint32_t second, int starts);
#if TU_EVENTS
void tu_put_more(uint32_t a, uint32_t b, int with_b);
#endif

/* tu_events.c */
#if TU_NAMES
tuname_t tu_register_name(const char *name, uint8_t kind);
#endif

/* tu_trigger.c */
#if TU_CONDITIONS
extern const char *const tu_when_words[TU_WHEN_MARKER + 1];
void tu_fire(uint32_t measured);
TU_COLD void tu_check_switch(thread_t *in, const thread_t *out);
#if TU_IRQ
TU_COLD void tu_irq_entered(uint8_t id);
TU_COLD void tu_check_irq(void);
#endif
#endif

/* tu_history.c */
uint8_t tu_flags_of(const thread_t *tp);
const char *tu_keep_name(const char *name, uint8_t *flags, char *copy);
void tu_remove_slot(uint8_t index);
int tu_exit_squeezes_trigger(void);
void tu_exit_now(uint8_t index, uint8_t prio, uint8_t flags, const char *name);
#if TU_RECORD
void tu_give_back_held(uint8_t limit);
#endif
void tu_purge_held(void);
void tu_clear_log(void);
void tu_hold(int pause);
TU_NOINLINE void tu_release(int pause);
int tu_list_line(uint8_t i, tu_line_t *line, int legacy);
void tu_print_list_line(BaseSequentialStream *out, uint8_t i, const tu_line_t *line);
uint8_t tu_print_list(BaseSequentialStream *out, int history, int legacy);

/* tu_dump.c */
uint32_t tu_hash_word(uint32_t hash, uint32_t word);
uint32_t tu_entry_payload(const tu_entry_t *e);
uint32_t tu_read_slot(uint32_t *pos, uint32_t *left, uint32_t *second);
int tu_read_entry(uint32_t *pos, uint32_t *left, tu_entry_t *e);
uint32_t tu_count_entries(const tu_span_t *span);
#if TU_IRQ
void tu_print_counted(BaseSequentialStream *out);
#endif
uint8_t tu_print_dump(BaseSequentialStream *out, int compact);

/* tu_compact.c */
void tu_zlog_init(tu_zlog_t *l);
void tu_zlog_flush(BaseSequentialStream *out, tu_zlog_t *l);
void tu_zlog_add(BaseSequentialStream *out, tu_zlog_t *l, const tu_entry_t *e);
TU_NOINLINE uint32_t tu_print_compact(BaseSequentialStream *out, tu_span_t *span);

/* The writer's fast path (see tu_window()). */
TU_HOT static inline void tu_put_fast(uint32_t record, uint32_t second) {
  uint32_t h = tu_head;

  tu_log[h * TU_SLOT_WORDS] = record;
#if TU_CYCLES
  tu_log[h * TU_SLOT_WORDS + 1U] = second;
#else
  (void)second;
#endif
  tu_head = h + 1U;
  tu_written++;
  tu_count += tu_count_step;
}

/* Appends one slot (see tu_window()); @starts as for tu_put_slow(). */
static inline int tu_put(uint32_t record, uint32_t second, int starts) {
  if (tu_head >= tu_fast_end)
    return tu_put_slow(record, second, starts);
  tu_put_fast(record, second);
  return 1;
}

#if TU_EVENTS
static inline uint32_t tu_record_now(uint32_t out_number, uint32_t in_number) {
  return (((uint32_t)chVTGetSystemTimeX() & TU_TIME_MASK) << TU_TIME_POS) |
         ((out_number & TU_NUM_MASK) << TU_OUT_POS) | ((in_number & TU_NUM_MASK) << TU_IN_POS);
}

/* Records an event of @kind (locked) with its payload, or counts it when the log is
 * paused. */
static inline void tu_event(uint32_t kind, uint32_t a, uint32_t b) {
  if (tu_put(tu_record_now(TU_EVENT_MARK, kind), TU_NOW(), 1) == 0)
    return;
  if (kind < TU_EV_KINDS && tu_payload_of[kind] != 0U)
    tu_put_more(a, b, tu_payload_of[kind] == 2U);
}
#endif

static inline uint32_t tu_make_record(uint32_t tick, uint32_t out_number, uint32_t in_number) {
  return ((tick & TU_TIME_MASK) << TU_TIME_POS) | ((out_number & TU_NUM_MASK) << TU_OUT_POS) |
         ((in_number & TU_NUM_MASK) << TU_IN_POS);
}

#else /* !ENABLE_THREADS_TIMESTAMPS */
extern const char tu_no_timestamps_message[];
#define tu_no_record_message tu_no_timestamps_message
#endif /* ENABLE_THREADS_TIMESTAMPS */

#endif /* TU_INTERNAL_H */

/** @} */

/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file    tu_record.c
 * @brief   Threads utilities: continuous recording (threads_record).
 *
 * @addtogroup threads_utilities
 * @{
 */

#include "tu_internal.h"

#ifdef ENABLE_THREADS_TIMESTAMPS
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

#define TU_REC_LINE_MS    250U /* a line is printed at the latest this long after its first entry */
#define TU_REC_BATCH      16U  /* entries taken from the log under one lock */
#define TU_REC_POLL       512U /* entries at most per poll, so that input is seen often */
#define TU_REC_COUNTED_MS 1000U /* the counted handlers are reported this often */
#define TU_REC_SPARE      8U    /* fewer numbers free: the reader skips ahead to give some back */

typedef struct {
  uint8_t on;
  uint8_t events;       /* every entry with its counter; else the switches at tick resolution */
  uint8_t threads;      /* threads announced (numbers 1 to threads) */
  uint8_t names;        /* names announced */
  uint8_t stopping;     /* the stop byte came: the stream ends at until */
  uint32_t seq;         /* sequence number of the next slot to read */
  uint32_t until;       /* with stopping: the sequence number of the first slot not sent */
  uint32_t slots;       /* slots of the entries streamed */
  uint32_t lost;        /* slots overwritten before they were read, in all */
  uint32_t entries;     /* entries streamed */
  uint32_t last_tick;   /* tick of the last entry streamed */
  uint32_t unheard;     /* ticks since the host last sent a byte */
  uint32_t quiet;       /* ticks since the last entry streamed or heartbeat */
  systime_t polled;     /* when the last poll began */
  systime_t line_began; /* when the line being filled got its first entry */
  systime_t counted_at; /* when the counted handlers were last reported */
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
#define TU_REC_OUT_SIZE ((uint32_t)(THREADS_RECORD_BUFFER))
/* The longest lines a batch of entries prints: a compact line (with its newline), the line
 * "Lost:" (every number at its widest). */
#define TU_Z_LINE_MAX ((uint32_t)(1U + 3U + TU_Z_PAYLOAD_CHARS + 1U + 4U + sizeof TU_NL - 1U))
#define TU_REC_LOST_MAX                                                     \
  ((uint32_t)(sizeof "Lost: before record 4294967295, ticks 4294967295 to " \
                     "4294967295, 4294967295 switches dropped" TU_NL -      \
              1U))
/* Room kept for a batch: the line being filled, the line "Lost:", and a line of its entries
 * (switches fill far less; entries with large values may fill more). A line beyond the room
 * (entries beyond it, many threads announced at once, long names) waits for the channel. */
#define TU_REC_ROOM (TU_REC_LOST_MAX + 2U * TU_Z_LINE_MAX)

typedef char tu_rec_out_size_check[TU_REC_OUT_SIZE >= TU_REC_ROOM + TU_Z_LINE_MAX ? 1 : -1];

typedef struct {
  const struct BaseSequentialStreamVMT *vmt;
  BaseSequentialStream *chp; /* the shell's channel */
  uint32_t n;                /* bytes held */
  uint8_t ending;            /* the stop byte came: the drain waits for room */
  uint8_t buf[TU_REC_OUT_SIZE];
} tu_rec_out_t;

static tu_rec_out_t tu_rec_out;

/* Hands the channel what it takes of the bytes held, waiting at most @ms milliseconds for
 * room; returns the bytes taken. */
static uint32_t tu_rec_send(uint32_t ms) {
  size_t sent;

  if (tu_rec_out.n == 0U)
    return 0;
  sent = THREADS_RECORD_WRITE(tu_rec_out.chp, tu_rec_out.buf, tu_rec_out.n, ms);
  if (sent > tu_rec_out.n)
    sent = tu_rec_out.n;
  memmove(tu_rec_out.buf, tu_rec_out.buf + sent, tu_rec_out.n - (uint32_t)sent);
  tu_rec_out.n -= (uint32_t)sent;
  return (uint32_t)sent;
}

static size_t tu_rec_out_write(void *ip, const uint8_t *bp, size_t n) {
  size_t done = 0;

  (void)ip;
  while (done < n) {
    size_t k = n - done;

    if (tu_rec_out.n == TU_REC_OUT_SIZE && tu_rec_send(TU_REC_SILENCE_MS) == 0U)
      break; /* the channel takes nothing any more: the host is gone */
    if (k > TU_REC_OUT_SIZE - tu_rec_out.n)
      k = TU_REC_OUT_SIZE - tu_rec_out.n;
    memcpy(tu_rec_out.buf + tu_rec_out.n, bp + done, k);
    tu_rec_out.n += (uint32_t)k;
    done += k;
  }
  return done;
}

static msg_t tu_rec_out_put(void *ip, uint8_t b) {
  return tu_rec_out_write(ip, &b, 1) == 1U ? MSG_OK : MSG_RESET;
}

static const struct BaseSequentialStreamVMT tu_rec_out_vmt = {
  .write = tu_rec_out_write,
  .put = tu_rec_out_put,
};

static uint32_t tu_rec_ticks(uint32_t ms) {
  return (uint32_t)(((uint64_t)ms * (uint64_t)(CH_CFG_ST_FREQUENCY) + 999U) / 1000U);
}

/* Threads and names that appeared since the last announcement: their list lines. */
static void tu_rec_announce(BaseSequentialStream *out, uint8_t n_threads, uint8_t n_names) {
  tu_line_t line;

  /* An announcement takes effect where it lies among the entries: after those of the lines
   * before it (which may renumber), so the line being filled goes out first. */
  if (tu_rec.threads < n_threads)
    tu_zlog_flush(out, &tu_rec.log);
  while (tu_rec.threads < n_threads && tu_list_line(tu_rec.threads, &line, 0) != 0) {
    tu_print_list_line(out, tu_rec.threads, &line);
    tu_rec.threads++;
  }
#if TU_NAMES
  for (; tu_rec.events != 0U && tu_rec.names < n_names; tu_rec.names++)
    chprintf(out, "Name %2d : Kind = %s, Name = %s" TU_NL, (int)tu_rec.names + 1,
             tu_name_kind_names[tu_name_kinds[tu_rec.names]], TU_NONAME(tu_names[tu_rec.names]));
#else
  (void)n_names;
#endif
}

/* Whether the reader, lagging while short of numbers, leaves out what it has not read (see
 * tu_rec_take()). Locked. */
static int tu_rec_short_of_numbers(void) {
  return tu_n_held != 0U && tu_rec.seq != tu_written && tu_rec.stopping == 0U &&
         tu_n_slots + TU_REC_SPARE > (uint32_t)THREADS_TIMESTAMPS_MAX_THREADS &&
         tu_rec.threads == tu_n_slots && tu_active != 0U && tu_hold_count == 1U;
}

/* Writes up to a batch of the exits held, at the reader, when it has caught up and only the
 * recording holds the numbers (see tu_rec_take()). Locked. */
static void tu_rec_give_back(void) {
  if (tu_n_held != 0U && tu_rec.seq == tu_written && tu_rec.threads == tu_n_slots &&
      tu_active != 0U && tu_hold_count == 1U) {
    uint8_t before = tu_n_slots;

    tu_hold_count = 0;
    tu_give_back_held(TU_REC_BATCH);
    tu_hold_count = 1U;
    tu_rec.threads = (uint8_t)(tu_rec.threads - (before - tu_n_slots));
  }
}

/* The reader behind the oldest slot of the log: it goes on from there. Run mode (the log
 * emptied meanwhile) goes on from its beginning; slots overwritten are added to @lost. Locked. */
static void tu_rec_catch_up(uint32_t *lost) {
  uint32_t oldest = tu_written - tu_count;

  if (tu_rec.seq - oldest <= tu_count) {
    return;
  }
  if (tu_written - tu_rec.seq >= 0x80000000U) {
    tu_rec.until = oldest; /* emptied: what a stop was to send is gone */
  } else {
    /* overwritten; after the stop byte, only what came before it counts */
    if (tu_rec.stopping != 0U && oldest - tu_rec.until < 0x80000000U) {
      oldest = tu_rec.until;
    }
    *lost += oldest - tu_rec.seq;
  }
  tu_rec.seq = oldest;
}

/* Reads up to TU_REC_BATCH entries from the reader on (locked): their number. */
static uint32_t tu_rec_read(tu_entry_t *batch, uint32_t *slots, uint32_t *lost) {
  uint32_t n = 0, left = tu_written - tu_rec.seq, keep, pos;

  /* After the stop byte, the entries written since are not part of the recording. */
  keep = tu_rec.stopping != 0U ? tu_written - tu_rec.until : 0U;
  if (keep > left) {
    keep = left;
  }
  pos = (tu_head + TU_LOG_SIZE - left) % TU_LOG_SIZE;
  while (n < TU_REC_BATCH && left > keep) {
    uint32_t before = left;

    if (tu_read_entry(&pos, &left, &batch[n]) == 0) {
      *lost += before - left; /* the rest of an entry overwritten */
    } else if (tu_rec.events != 0U) {
      slots[n++] = before - left;
    } else if (batch[n].kind == 0U) {
      slots[n++] = 1U; /* a record of dump version 1 */
    }
  }
  tu_rec.seq = tu_written - left;
  return n;
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
static uint32_t tu_rec_take(tu_entry_t *batch, uint32_t *slots, uint32_t *lost, uint8_t *n_threads,
                            uint8_t *n_names, int give_back) {
  uint32_t n;

  chSysLock();
  /* Short of numbers while the reader lags (a link slower than the board): waiting to catch up
   * would leave the threads created meanwhile unnumbered. The reader leaves out what the log
   * holds beyond it (counted, a hole like any other) and gives the numbers back at once. On a
   * saturated link this costs nothing: the link takes as many entries either way. */
  if (tu_rec_short_of_numbers()) {
    if (tu_written - tu_rec.seq < 0x80000000U) {
      *lost += tu_written - tu_rec.seq;
    }
    tu_rec.seq = tu_written;
    give_back = 1;
  }
  if (give_back != 0) {
    tu_rec_give_back();
  }
  tu_rec_catch_up(lost);
  n = tu_rec_read(batch, slots, lost);
  *n_threads = tu_n_slots;
#if TU_NAMES
  *n_names = tu_n_names;
#else
  *n_names = 0;
#endif
  chSysUnlock();
  return n;
}

/* "Lost:": @lost slots the stream does not carry, between the last entry streamed and the
 * tick @next (of the first entry after the hole, or of now). Only between the lines. */
static void tu_rec_lost(BaseSequentialStream *out, uint32_t lost, uint32_t next) {
  tu_zlog_flush(out, &tu_rec.log);
  chprintf(out, "Lost: before record %lu, ticks %lu to %lu, %lu switches dropped" TU_NL,
           (unsigned long)tu_rec.slots, (unsigned long)tu_rec.last_tick,
           (unsigned long)(tu_rec.last_tick + ((next - tu_rec.last_tick) & TU_TIME_MASK)),
           (unsigned long)lost);
  tu_rec.lost += lost;
}

/* Streams the @n entries of @batch, of @slots slots each, taken at @now. */
static void tu_rec_stream(BaseSequentialStream *out, const tu_entry_t *batch, const uint32_t *slots,
                          uint32_t n, systime_t now) {
  uint32_t i;

  for (i = 0; i < n; i++) {
    if (tu_rec.log.entries == 0U) {
      tu_rec.line_began = now;
    }
    tu_zlog_add(out, &tu_rec.log, &batch[i]);
    tu_rec.slots += slots[i];
    tu_rec.entries++;
    tu_rec.last_tick = (batch[i].record >> TU_TIME_POS) & TU_TIME_MASK;
  }
  if (n != 0U) {
    /* Quiet since the last entry was written, by the time now (not the poll's start:
     * the drain may have waited for the link, and the entries are newer than that). */
    tu_rec.quiet = ((uint32_t)chVTGetSystemTimeX() - tu_rec.last_tick) & TU_TIME_MASK;
    if (tu_rec.quiet > TU_TIME_MASK / 2U) {
      tu_rec.quiet = 0;
    }
  }
}

/* Streams what the log holds beyond the reader, @most entries at most (after the stop byte,
 * up to the stop however many that is: at most a log). */
static void tu_rec_drain(BaseSequentialStream *out, systime_t now, uint32_t most) {
  uint32_t taken = 0;
  int give_back = 0;

  while (taken < most) {
    tu_entry_t batch[TU_REC_BATCH];
    uint32_t slots[TU_REC_BATCH];
    uint32_t n, lost = 0;
    uint8_t n_threads, n_names;

    /* No room for a batch: the channel takes what it can without waiting (at the end,
     * waiting), else the rest waits in the log for the next poll. */
    if (TU_REC_OUT_SIZE - tu_rec_out.n < TU_REC_ROOM &&
        (tu_rec_send(tu_rec_out.ending != 0U ? TU_REC_SILENCE_MS : 0U) == 0U ||
         TU_REC_OUT_SIZE - tu_rec_out.n < TU_REC_ROOM))
      break;

    n = tu_rec_take(batch, slots, &lost, &n_threads, &n_names, give_back);
    /* The hole lies between the lines: from the last entry streamed to the next one. */
    if (lost != 0U)
      tu_rec_lost(out, lost,
                  n != 0U ? (batch[0].record >> TU_TIME_POS) & TU_TIME_MASK
                          : (uint32_t)now & TU_TIME_MASK);
    tu_rec_announce(out, n_threads, n_names);
    tu_rec_stream(out, batch, slots, n, now);
    taken += n;
    if (n == TU_REC_BATCH)
      give_back = 0; /* more to read first */
    else if (tu_rec.stopping != 0U)
      break; /* everything up to the stop is out */
    else if (give_back != 0 && n == 0)
      break; /* caught up, nothing (more) to give back */
    else
      give_back = 1; /* caught up: the next take gives the numbers back first */
  }
  if (tu_rec.log.entries != 0U &&
      (uint32_t)(systime_t)(now - tu_rec.line_began) >= tu_rec_ticks(TU_REC_LINE_MS))
    tu_zlog_flush(out, &tu_rec.log);
#if TU_IRQ
  /* Between the lines, with the events: the handlers only counted, with their calls so far. */
  if (tu_rec.events != 0U && tu_n_ignored != 0U &&
      (uint32_t)(systime_t)(now - tu_rec.counted_at) >= tu_rec_ticks(TU_REC_COUNTED_MS)) {
    tu_zlog_flush(out, &tu_rec.log);
    tu_print_counted(out);
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
static void tu_rec_beat(BaseSequentialStream *out) {
  systime_t now;
  int pending;

  if (tu_rec.log.entries != 0U || tu_rec.quiet < TU_TIME_MASK / 4U + 1U)
    return;
  chSysLock();
  now = chVTGetSystemTimeX();
  pending = tu_rec.seq != tu_written;
  chSysUnlock();
  if (pending != 0)
    return;
  chprintf(out, "Heartbeat: tick %lu" TU_NL, (unsigned long)((uint32_t)now & TU_TIME_MASK));
  tu_rec.quiet = 0;
}

/* Ends the recording: the last line, the end line; the numbers are released (the exits held
 * meanwhile are written) and a trigger set meanwhile fills half a log from now. */
static void tu_rec_end(BaseSequentialStream *out) {
  tu_zlog_flush(out, &tu_rec.log);
#if TU_IRQ
  if (tu_rec.events != 0U)
    tu_print_counted(out);
#endif
  chprintf(out, "End of dump: %lu records, checksum %08lx" TU_NL, (unsigned long)tu_rec.entries,
           (unsigned long)tu_rec.log.hash);
  /* Everything goes out now, waiting for the channel (unless it takes nothing any more). */
  while (tu_rec_send(TU_REC_SILENCE_MS) != 0U)
    ;
  tu_rec_out.n = 0;
  chSysLock();
  tu_rec.on = 0;
  tu_recording = 0;
  if (tu_triggered != 0U && tu_frozen == 0U) {
    tu_freeze_at = tu_written + TU_LOG_SIZE / 2U;
    tu_window();
  }
  chSysUnlock();
  tu_release(0);
}
#endif /* TU_RECORD */

#endif /* ENABLE_THREADS_TIMESTAMPS */

/**
 * @brief   Begins a continuous recording: prints its header.
 *
 * @param[in] out       the stream printed to
 * @param[in] events    0: the switches at tick resolution; else every entry with its counter
 * @return              1 when the recording began, 0 when none can start (one is under way, or
 *                      recording is not built in).
 *
 * @details Then call tuRecordPoll() every tuRecordPollMs() milliseconds (see WIRE-FORMAT.md).
 *
 * @api
 */
int tuRecordBegin(BaseSequentialStream *out, int events) {
#if TU_RECORD
  uint8_t listed;

  chSysLock();
  if (tu_rec.on != 0U) {
    chSysUnlock();
    chprintf(out, "A recording is already under way" TU_NL);
    return 0;
  }
  /* A recording runs in run mode: a log frozen by a trigger starts again, empty. */
  if (tu_frozen != 0U)
    tuResetTriggerI();
  memset(&tu_rec, 0, sizeof tu_rec);
  tu_zlog_init(&tu_rec.log);
  tu_rec.events = (uint8_t)(events != 0 && TU_EVENTS);
  tu_rec.log.z.stamps = (uint8_t)(tu_rec.events != 0U && TU_CYCLES);
  tu_rec.on = 1U;
  tu_recording = 1U;
  if (tu_triggered != 0U) {
    /* armed: the trigger waits for the recording's end */
    tu_freeze_at = tu_written + TU_FREEZE_NEVER;
    tu_window();
  }
  tu_rec.seq = tu_written;
  tu_rec_out.vmt = &tu_rec_out_vmt;
  tu_rec_out.n = 0;
  tu_rec_out.ending = 0;
  tu_rec.polled = chVTGetSystemTimeX();
  tu_rec.counted_at = tu_rec.polled;
#if TU_NAMES
  tu_rec.names = tu_n_names;
#endif
  tu_hold_count++;
  chSysUnlock();

  listed = tu_print_dump(out, tu_rec.events != 0U ? TU_DUMP_RECORD : TU_DUMP_RECORD_SWITCHES);
  /* Threads created while the list was printed are in it; names registered meanwhile come
   * with the first entries. */
  tu_rec.threads = listed;
  return 1;
#else
  (void)events;
  chprintf(out, "%s", tu_no_record_message);
  return 0;
#endif
}

/**
 * @brief   Streams what the log holds beyond the recording's reader.
 *
 * @param[in] out       the stream printed to
 * @param[in] input     the bytes the host sent since the last poll
 * @param[in] n         their number
 * @return              1 while the recording goes on, 0 once it ended (its end line printed).
 *
 * @details The recording ends at the host's stop byte (@p THREADS_RECORD_STOP_BYTE) or after
 *          @p THREADS_RECORD_SILENCE_MS without a byte from the host.
 *
 * @api
 */
int tuRecordPoll(BaseSequentialStream *out, const uint8_t *input, size_t n) {
#if TU_RECORD
  systime_t now = chVTGetSystemTimeX();
  /* (polls come far more often than the system time wraps, even a 16-bit one) */
  uint32_t elapsed = (uint32_t)(systime_t)(now - tu_rec.polled);
  size_t i;

  if (tu_rec.on == 0U)
    return 0;
  /* What the recording prints goes through its buffer (see tu_rec_out_t). */
  tu_rec_out.chp = out;
  out = (BaseSequentialStream *)(void *)&tu_rec_out;
  (void)tu_rec_send(0);
  tu_rec.polled = now;
  tu_rec.unheard += elapsed;
  tu_rec.quiet += elapsed;
  for (i = 0; i < n; i++) {
    if (input[i] == (uint8_t)TU_REC_STOP) {
      /* What the log holds up to now is sent, however far behind the reader is (at most
       * a log: what the writer overwrites meanwhile is counted in "Lost:" lines); the
       * output waits for the channel from here on. */
      tu_rec_out.ending = 1U;
      chSysLock();
      tu_rec.stopping = 1U;
      tu_rec.until = tu_written;
      chSysUnlock();
      tu_rec_drain(out, now, 0xFFFFFFFFU);
      tu_rec_end(out);
      return 0;
    }
    tu_rec.unheard = 0;
  }
  if (tu_rec.unheard >= tu_rec_ticks(TU_REC_SILENCE_MS)) {
    /* Nobody listens any more (the host went away, the cable was pulled): what the log
     * holds is not sent, but counted, so that a host still reading knows. */
    uint32_t unsent;

    chSysLock();
    unsent = tu_written - tu_rec.seq;
    if (unsent >= 0x80000000U)
      unsent = tu_count; /* the log was emptied: it holds what was written since */
    tu_rec.seq = tu_written;
    chSysUnlock();
    if (unsent != 0U)
      tu_rec_lost(out, unsent, (uint32_t)now & TU_TIME_MASK);
    tu_rec_end(out);
    return 0;
  }
  tu_rec_drain(out, now, TU_REC_POLL);
  tu_rec_beat(out);
  (void)tu_rec_send(0);
  return 1;
#else
  (void)out;
  (void)input;
  (void)n;
  return 0;
#endif
}

/**
 * @brief   Milliseconds until the next tuRecordPoll() is due.
 *
 * @return              @p THREADS_RECORD_BUSY_POLL_MS while bytes wait for the link, else
 *                      @p THREADS_RECORD_POLL_MS.
 *
 * @api
 */
uint32_t tuRecordPollMs(void) {
#if TU_RECORD
  /* Bytes left for the link: poll again soon, so that a small output queue is kept fed
   * without the shell thread waiting on it byte by byte. */
  if (tu_rec.on != 0U && tu_rec_out.n != 0U)
    return THREADS_RECORD_BUSY_POLL_MS;
#endif
  return THREADS_RECORD_POLL_MS;
}

/** @} */

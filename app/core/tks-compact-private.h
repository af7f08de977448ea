/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <string.h>

#include "tks-capture-private.h"
#include "tks-compact.h"

G_BEGIN_DECLS

/*
 * The compact decoder's insides, shared by its two files: tks-compact.c decodes a line on its
 * own (its checksum, its key frame, its entries); tks-compact-order.c takes the decoded lines
 * in the log's order (their numbers, copies, lines late or missing, what is lost).
 */

/* The layout of a line, as mcu-lib/WIRE-FORMAT.md gives it. */
#define SEQ_CHARS      3
#define CHECK_CHARS    4
#define MAX_PAYLOAD    70
#define TIME_MASK      0xFFFFFu
#define EVENT_MARK     63u
#define IRQ_SHORT      32u

#define HEADS 64     /* 0: not a switch from the running thread; r: one, to rank r */
#define STEPS 17     /* tick steps 0 to 15; 16: larger */
/* Coder 2 (with the counter): kinds of entries, a pair's order not learnt yet */
#define CLASSES 11
#define UNSEEN  0xFF
#define SEQ_MASK 0x3FFFFu
#define SEQ_HALF 0x20000u   /* a number less than half the numbers back is an earlier line */
/* Lines "Z~": steps remembered (in-threads, exits, kinds of events), probabilities, and the
 * most characters a line may hold between "Z~" and its checksum. */
#define RC_LASTS     75
#define RC_PROBS     (64 + 9 * 8 + 1 + 9 + 32)
#define RC_MAX_CHARS 1024

typedef struct
{
  guint32 tick;
  guint32 counter;
  guint32 mean;       /* 8 times the running mean of the counter's steps */
  guint8  cur;
  guint8  mtf[64];
  guint8  heads[HEADS];
  guint8  head_counts[HEADS];
  guint8  steps[STEPS];
  guint8  step_counts[STEPS];
  /* For each count c, the first place in heads (steps) of a symbol counted c times or less */
  guint8  head_first[256];
  guint8  step_first[256];
  /* coder 2 */
  guint8  prev;                       /* the kind of the last entry */
  guint32 anchor;                     /* the counter at the start of the last entry's tick */
  guint8  orders[CLASSES * CLASSES];  /* the order learnt for each pair of kinds */
  /* lines "Z~" (the range coder) */
  guint8  succ[64];                   /* the in-thread of the last switch from each thread */
  guint16 last[RC_LASTS];             /* the last tick step of each in-thread, exit, kind */
  guint8  hit_who, hit_when;          /* the last guesses were right */
  guint8  pk;                         /* the kind of the entry before, 8: a switch from cur */
  guint16 probs[RC_PROBS];
  guint8  firsts[CLASSES];            /* the order learnt for a tick's first entry, by kind */
  guint32 grain;                      /* the counter's steps are mostly multiples of it */
} State;

struct _TksCompactDecoder
{
  guint64  tick_hz;
  guint64  counter_hz;
  guint32  cycles_per_tick;
  guint32  time_mask; /* of the record tick: 2^tick bits - 1 */
  GArray  *entries;   /* TksEntry */
  GArray  *losses;    /* guint */
  guint    n_lines;   /* lines decoded */
  guint32  next_seq;  /* the sequence number expected next */
  gboolean started;   /* a line's number has set next_seq */
  guint    n_lost;    /* lines whose records are lost */
  guint    coder;     /* of the counter: 1 or 2 */
  /* Coder 2: the state the last line decoded ended with, for the line after it. */
  State    chain;
  guint32  chain_seq;
  guint32  chain_check;
  gboolean chain_seen;
  gboolean chain_ok;
  /* The last line taken whose checksum matched: a line that comes again (a link that repeats
   * itself) is told from a new one by its number and checksum. */
  guint32  last_seq;
  guint32  last_check;
  gboolean has_last;
  /* The line just before said to be damaged, which may come again whole. */
  guint32  damaged_seq;
  gboolean has_damaged;
};

/* tks-compact-rc.c: a line "Z~" (the range coder), read on its own. */
gboolean         tks_compact_is_rc_line    (const char *line, gsize len);
void             tks_compact_rc_decode     (const TksCompactDecoder *self, const char *line,
                                            gsize len, TksCompactLine *out, TksEntry *entries);
guint            tks_compact_rc_room       (const char *line, gsize len);
/* A line "Z~" of switches without the counter, as tks_compact_line_decode() reads it, its
 * entries straight into @records as the records their lines would read (room for @room of
 * them): FALSE, with nothing done, for any other line, left to tks_compact_line_decode(). */
gboolean         tks_compact_rc_decode_records (const TksCompactDecoder *self, const char *line,
                                                gsize len, TksCompactLine *out,
                                                TksRecord *records, guint room);
/* tks-compact.c: shared with it */
void             tks_compact_state_reset   (State *z);

/* How far @seq is ahead of @ref, modulo the numbers: half of them or more, it is behind. */
static inline guint32
seq_ahead (guint32 seq, guint32 ref)
{
  return (seq - ref) & SEQ_MASK;
}

/* The symbol at place @pos of @list, which both coders keep most used first: it is counted
 * and moves up past the symbols counted no more often. @first[c] is the first place of a
 * symbol counted c times or less: the list being in order, the symbol goes to the place of
 * its new count, and only the place of its old count moves (one down). */
static inline guint
tks_compact_take_symbol (guint8 *list,
                         guint8 *counts,
                         guint8 *first,
                         guint   pos)
{
  guint symbol = list[pos];
  guint count = counts[symbol];
  guint to = 0;

  if (count < 255)
    {
      to = first[count + 1];
      first[count]++;
      counts[symbol] = (guint8) (count + 1);
    }
  for (; pos > to; pos--)
    list[pos] = list[pos - 1];
  list[pos] = (guint8) symbol;
  return symbol;
}

/* The thread at rank @r of the move-to-front list, which then moves up to place @to (0: it
 * heads the list) if it was further down. The ranks of a dozen threads are small: below 16,
 * the numbers before it move down one place in two 64-bit words. */
static inline guint
tks_compact_mtf_move (State *z,
                      guint  r,
                      guint  to)
{
  guint number;

  if (r > 63)
    r = 63;
  number = z->mtf[r];
  if (r <= to)
    return number;
  if (to == 0 && r < 16)
    {
      guint64 w0, w1, keep;

      memcpy (&w0, z->mtf, 8);
      memcpy (&w1, z->mtf + 8, 8);
      w0 = GUINT64_FROM_LE (w0);
      w1 = GUINT64_FROM_LE (w1);
      if (r < 8)
        {
          /* bytes 0 to r - 1 move up one, byte r is taken out, bytes after it stay */
          keep = G_MAXUINT64 << (8 * r) << 8;
          w0 = (w0 & keep) | ((w0 << 8) & ~keep) | number;
        }
      else
        {
          keep = G_MAXUINT64 << (8 * (r - 8)) << 8;
          w1 = (w1 & keep) | ((w1 << 8) & ~keep) | (w0 >> 56);
          w0 = (w0 << 8) | number;
        }
      w0 = GUINT64_TO_LE (w0);
      w1 = GUINT64_TO_LE (w1);
      memcpy (z->mtf, &w0, 8);
      memcpy (z->mtf + 8, &w1, 8);
      return number;
    }
  for (; r > to; r--)
    z->mtf[r] = z->mtf[r - 1];
  z->mtf[to] = (guint8) number;
  return number;
}

G_END_DECLS

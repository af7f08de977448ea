/* SPDX-License-Identifier: Apache-2.0 */
/**
 * @file    tu_compact.c
 * @brief   Threads utilities: the compact encoding of the log (dump version 3, threads_record).
 *
 * @addtogroup threads_utilities
 * @{
 */

#include "tu_internal.h"

#ifdef ENABLE_THREADS_TIMESTAMPS

/* threads_dump_compact prints the entries of the log as lines "Z~" (see WIRE-FORMAT.md, dump
 * version 3): each line starts from a key frame, carries a sequence number and a checksum, and
 * holds whole entries coded by a binary range coder whose probabilities, like the rest of the
 * coder's state, start afresh on each line. With the cycle counter (counter coder 4), lines are
 * longer and the probabilities learn fast from their first bits, the kind of an entry comes
 * before its threads, and a handler's id has probabilities of its own. Everything runs in the
 * shell thread; nothing in the hooks. */

/* The 91 characters of a line: the printable ones but space, " ' and \. */
static const char tu_z_alphabet[] =
    "!#$%&()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[]^_`abcdefghijklmnopqrstuvwxyz{|}~";

/* Places of the probabilities in tu_zstate_t.probs: whether the successor guessed is the
 * in-thread (2, by whether the last guess was right), a head's Exp-Golomb prefix (8), the
 * kind of another entry (a tree of 7 for each kind of the entry before: at 64), a rank's prefix (8), whether the tick step is the last
 * one of the same in-thread or kind (2), a step symbol's prefix (6), a large step's prefix (8),
 * the counter's prefix (11 for an entry in a new tick, 11 in the same tick), whether the
 * counter's step is a whole number of grains (1, after the kinds' trees). */
#define TU_P_WHO   0U
#define TU_P_HEAD  2U
#define TU_P_KIND  64U /* 8 for each kind of the entry before (9) */
#define TU_P_RANK  18U
#define TU_P_WHEN  26U
#define TU_P_STEP  28U
#define TU_P_BIG   34U
#define TU_P_CNT   42U
#define TU_P_CNT_N 11U
#define TU_P_GRAIN 136U
#define TU_P_CUR   137U /* 9, by the kind of the entry before */
#define TU_P_ID    146U /* 32 */
#define TU_Z_NONE  0xFFU

#define TU_RC_TOP (1UL << 24)
#ifndef TU_RC_SHIFT
#define TU_RC_SHIFT 5U
#endif

/* Built for the bench that measures where the bits go (TU_Z_COST): each coded bit's cost, in
 * bits, is added to the field being coded. Nothing on a board. */
#ifdef TU_Z_COST
#include <math.h>
enum { TU_ZF_WHO, TU_ZF_KIND, TU_ZF_PAYLOAD, TU_ZF_TICK, TU_ZF_COUNTER, TU_ZF_KEY, TU_ZF_N };
unsigned tu_z_field;
double tu_z_bits[TU_ZF_N];
#define TU_Z_FIELD(f) (tu_z_field = (f))
#define TU_Z_ADD(bits) (tu_z_bits[tu_z_field] += (bits))
#else
#define TU_Z_FIELD(f) ((void)0)
#define TU_Z_ADD(bits) ((void)0)
#endif

static void tu_rc_init(tu_bits_t *b) {
  b->low = 0;
  b->range = 0xFFFFFFFFU;
  b->pending = 1;
  b->cache = 0;
  b->started = 0;
  b->n = TU_Z_HEAD_BYTES; /* the line's number and count come first */
}

/* Moves the top byte of low out, holding 0xFF bytes back while a carry may still reach them. */
static void tu_rc_shift(tu_bits_t *b) {
  if ((uint32_t)b->low < 0xFF000000U || (b->low >> 32) != 0U) {
    uint8_t carry = (uint8_t)(b->low >> 32), v = b->cache;

    do {
      /* (the first byte is always 0: not written) */
      if (b->started != 0U && b->n < TU_Z_HEAD_BYTES + TU_Z_BYTES)
        b->bytes[b->n++] = (uint8_t)(v + carry);
      b->started = 1;
      v = 0xFF;
    } while (--b->pending != 0U);
    b->cache = (uint8_t)(b->low >> 24);
  }
  b->pending++;
  b->low = (b->low & 0x00FFFFFFU) << 8;
}

static void tu_rc_norm(tu_bits_t *b) {
  while (b->range < TU_RC_TOP) {
    b->range <<= 8;
    tu_rc_shift(b);
  }
}

/* Codes @bit with the probability (of a 0, out of 2048) at @p, which then learns it. */
static void tu_rc_bit(tu_bits_t *b, uint16_t *p, uint32_t bit) {
  uint32_t q = *p & 0x0FFFU, seen = *p >> 12;
  uint32_t bound = (b->range >> 11) * q, shift = 5;

  TU_Z_ADD(-log2((bit == 0U ? q : 2048.0 - q) / 2048.0));
  if (TU_CYCLES && b->fast != 0U) {
    /* counter coder 4: a probability learns fast from its first bits (a line is short) */
    shift = seen + 1U < TU_RC_SHIFT ? seen + 1U : TU_RC_SHIFT;
    if (seen < 15U)
      seen++;
  }
  if (bit == 0U) {
    b->range = bound;
    q += (2048U - q) >> shift;
  } else {
    b->low += bound;
    b->range -= bound;
    q -= q >> shift;
  }
  *p = (uint16_t)(q | (TU_CYCLES && b->fast != 0U ? seen << 12 : 0U));
  tu_rc_norm(b);
}

/* The @n low bits of @value (n up to 32), most significant first, each at one half. */
static void tu_rc_direct(tu_bits_t *b, uint32_t value, uint32_t n) {
  TU_Z_ADD(n);
  while (n != 0U) {
    n--;
    b->range >>= 1;
    if (((value >> n) & 1U) != 0U)
      b->low += b->range;
    tu_rc_norm(b);
  }
}

static void tu_rc_flush(tu_bits_t *b) {
  uint32_t i;

  for (i = 0; i < 5U; i++)
    tu_rc_shift(b);
}

/* Bytes the line's coded part would take if it ended now. */
static uint32_t tu_rc_size(const tu_bits_t *b) {
  return b->n - TU_Z_HEAD_BYTES + b->pending + 4U;
}

/* Exp-Golomb code of order @k of @v: its prefix bits (zeros, then a one) with the @n
 * probabilities at @p, one each, those beyond at one half; the bits below the leading one of
 * v + 2^k at one half. */
static void tu_z_eg(tu_bits_t *b, uint16_t *p, uint32_t n, uint32_t v, uint32_t k) {
  uint64_t w = (uint64_t)v + ((uint64_t)1 << k);
  uint32_t len = 0, i;

  while ((w >> len) > 1U)
    len++;
  for (i = 0; i <= len - k; i++) {
    uint32_t bit = i == len - k ? 1U : 0U;

    if (i < n)
      tu_rc_bit(b, &p[i], bit);
    else
      tu_rc_direct(b, bit, 1);
  }
  tu_rc_direct(b, (uint32_t)w, len);
}

#if TU_CYCLES
static uint32_t tu_zigzag(int32_t v) {
  return v >= 0 ? (uint32_t)v << 1 : (((uint32_t) - (v + 1)) << 1) | 1U;
}

static uint32_t tu_z_order(uint32_t mean8) {
  uint32_t k = 0, m = mean8 >> 3;

  while ((m >> k) > 1U && k < 30U)
    k++;
  return k;
}
#endif

static void tu_zstate_reset(tu_zstate_t *z) {
  uint32_t i, n = 1;

  z->mtf[0] = z->cur;
  for (i = 1; i < 64U; i++)
    if (i != z->cur)
      z->mtf[n++] = (uint8_t)i;
  if (z->cur != 0U)
    z->mtf[n] = 0;
  /* Heads: rank 1, rank 2, not a switch from the running thread, then ranks 3 to 63. */
  z->heads[0] = 1;
  z->heads[1] = 2;
  z->heads[2] = 0;
  for (i = 3; i < TU_Z_HEADS; i++)
    z->heads[i] = (uint8_t)i;
  for (i = 0; i < TU_Z_STEPS; i++)
    z->steps[i] = (uint8_t)i;
  memset(z->head_counts, 0, sizeof z->head_counts);
  memset(z->step_counts, 0, sizeof z->step_counts);
  memset(z->succ, TU_Z_NONE, sizeof z->succ);
  memset(z->last, 0xFF, sizeof z->last);
  z->hit_who = 0;
  z->hit_when = 0;
  z->pk = 8;
  for (i = 0; i < TU_Z_PROBS; i++)
    z->probs[i] = 1024U;
#if TU_CYCLES
  /* The key frame carries the mean's order only. */
  z->mean = 8U << tu_z_order(z->mean);
  z->prev = 0;
  z->anchor = z->counter;
  memset(z->orders, TU_Z_UNSEEN, sizeof z->orders);
  memset(z->firsts, TU_Z_UNSEEN, sizeof z->firsts);
  /* the grain: the counter's steps of the line before were all its multiples */
  z->grain = z->seen >= 2U && z->seen <= 0xFFFFU ? z->seen : 1U;
  z->seen = 0;
#endif
}

/* Codes @symbol as its position in @list (kept sorted by @counts), then counts it. */
static void tu_z_symbol(tu_bits_t *b, uint16_t *p, uint32_t n, uint8_t *list, uint8_t *counts,
                        uint32_t size, uint32_t symbol) {
  uint32_t pos = 0;

  while (pos + 1U < size && list[pos] != symbol)
    pos++;
  tu_z_eg(b, p, n, pos, 0);
  if (counts[symbol] < 255U)
    counts[symbol]++;
  while (pos > 0U && counts[list[pos - 1U]] <= counts[symbol]) {
    list[pos] = list[pos - 1U];
    pos--;
  }
  list[pos] = (uint8_t)symbol;
}

/* The rank of @number in the move-to-front list; it then moves up to place @to (0: it heads
 * the list) if it was further down. */
static uint32_t tu_mtf_move(tu_zstate_t *z, uint32_t number, uint32_t to) {
  uint32_t r = 0, i;

  while (r < 63U && z->mtf[r] != number)
    r++;
  if (r > to) {
    for (i = r; i > to; i--)
      z->mtf[i] = z->mtf[i - 1U];
    z->mtf[to] = (uint8_t)number;
  }
  return r;
}

/* The rank of @number, which then heads the list. */
static uint32_t tu_mtf_use(tu_zstate_t *z, uint32_t number) {
  return tu_mtf_move(z, number, 0);
}

#if TU_CYCLES
static uint32_t tu_gcd(uint32_t a, uint32_t b) {
  while (b != 0U) {
    uint32_t t = a % b;

    a = b;
    b = t;
  }
  return a;
}

/* The counter: the first entry of a tick is coded as its place after the tick's start (where
 * the counter stood then, as the ticks predict it from the anchor: the counter and the tick
 * run from the same clock on most boards), an entry of the same tick as the counter's step
 * from the entry before, in the order learnt for that pair of kinds (a kernel path between two
 * hooks takes about the same time each time). Unseen pairs and tick starts use the running
 * mean. */
static void tu_z_stamp(tu_bits_t *b, tu_zstate_t *z, const tu_entry_t *e, uint32_t dt,
                       int is_switch) {
  uint32_t kind = e->kind == 0U ? (is_switch != 0 ? 0U : 1U) : e->kind + 1U;
  uint32_t pair, off, k, top;
  int32_t v;
  uint8_t *slot;
  uint16_t *p = &z->probs[TU_P_CNT + (dt == 0U ? 0U : TU_P_CNT_N)];
  int learnt;

  if (kind >= TU_Z_CLASSES)
    kind = TU_Z_CLASSES - 1U; /* (no other kind is logged) */
  pair = z->prev * TU_Z_CLASSES + kind;
  slot = dt != 0U ? &z->firsts[kind] : &z->orders[pair];
  learnt = *slot != TU_Z_UNSEEN;
  if (dt != 0U) {
    z->anchor += dt * TU_Z_CYCLES_PER_TICK;
    v = (int32_t)(e->stamp - z->anchor);
    if (v < 0)
      z->anchor = e->stamp;
  } else
    v = (int32_t)(e->stamp - z->counter);
  if (e->stamp >= z->counter)
    z->seen = tu_gcd(z->seen, v < 0 ? (uint32_t)-(v + 1) + 1U : (uint32_t)v);
  if (z->grain > 1U) {
    /* whether the step is a whole number of grains (then coded as that number) */
    uint32_t whole = v % (int32_t)z->grain == 0 ? 0U : 1U;

    tu_rc_bit(b, &z->probs[TU_P_GRAIN], whole);
    if (whole == 0U)
      v /= (int32_t)z->grain;
  }
  off = tu_zigzag(v);
  if (learnt != 0)
    tu_z_eg(b, p, TU_P_CNT_N, off, *slot);
  else {
    tu_z_eg(b, p, TU_P_CNT_N, off, tu_z_order(z->mean));
    z->mean = z->mean - (z->mean >> 3) + (off > 0x0FFFFFFFU ? 0x0FFFFFFFU : off);
  }
  /* the order of this place or step: its significant bits less one */
  for (top = 0, k = off > 0x0FFFFFFFU ? 0x0FFFFFFFU : off; k > 1U; k >>= 1)
    top++;
  *slot = (uint8_t)(learnt != 0 ? (*slot + top + 1U) / 2U : top);
  z->prev = (uint8_t)kind;
  z->counter = e->stamp;
}
#endif

/* The kind of another entry, 3 bits through a tree of probabilities. */
static void tu_z_kind(tu_bits_t *b, tu_zstate_t *z, uint32_t kind) {
  uint32_t node = 1, i;

  for (i = 3; i-- != 0U;) {
    uint32_t bit = (kind >> i) & 1U;

    tu_rc_bit(b, &z->probs[TU_P_KIND + z->pk * 8U + node], bit);
    node = node * 2U + bit;
  }
  z->pk = (uint8_t)kind;
}

/* Codes what and who of an entry that is not a switch from the running thread: head 0, then
 * its kind and what the kind carries. */
static uint32_t tu_z_kind_of(const tu_entry_t *e, int is_switch) {
  return is_switch ? 0U
       : e->kind == 0U ? 1U
       : e->kind == TU_EV_IRQ_ENTER ? 2U
       : e->kind == TU_EV_IRQ_LEAVE ? 3U
       : e->kind == TU_EV_READY ? 5U
       : e->kind == TU_EV_MARKER ? 6U
       : e->kind == TU_EV_BEGIN || e->kind == TU_EV_END ? 7U : 4U;
}

static void tu_z_other(tu_bits_t *b, tu_zstate_t *z, const tu_entry_t *e, int is_switch,
                       uint32_t out_number, uint32_t in_number) {
  uint32_t kind = tu_z_kind_of(e, is_switch);

  TU_Z_FIELD(TU_ZF_KIND);
  if (!TU_CYCLES || z->stamps == 0U)
    tu_z_symbol(b, &z->probs[TU_P_HEAD], 8U, z->heads, z->head_counts, TU_Z_HEADS, 0);
  tu_z_kind(b, z, kind);
  TU_Z_FIELD(kind <= 1U ? TU_ZF_WHO : TU_ZF_PAYLOAD);
  if (kind <= 1U) {
    tu_rc_direct(b, out_number, 6);
    if (kind == 0U)
      tu_z_eg(b, &z->probs[TU_P_RANK], 8U, tu_mtf_use(z, in_number), 0);
  } else if (kind == 2U) {
    if (TU_CYCLES && z->stamps != 0U) {
      /* counter coder 4: ids below 32 through a tree of probabilities */
      uint32_t small = e->a < 32U ? 1U : 0U, node = 1, i;

      tu_rc_bit(b, &z->probs[TU_P_ID], small);
      if (small != 0U)
        for (i = 5; i-- != 0U;) {
          uint32_t bit = (e->a >> i) & 1U;

          tu_rc_bit(b, &z->probs[TU_P_ID + node], bit);
          node = node * 2U + bit;
        }
      else
        tu_z_eg(b, NULL, 0, e->a - 32U, 0);
    } else
      tu_z_eg(b, NULL, 0, e->a, 0);
  } else if (kind == 4U)
    tu_rc_direct(b, e->kind == TU_EV_SLEEP ? 0U : e->kind == TU_EV_WAKE ? 1U : 2U, 2);
  else if (kind == 5U)
    /* the thread's rank; it then comes second, behind the running thread that heads the
     * list (it is likely the next switch's in-thread) */
    tu_z_eg(b, &z->probs[TU_P_RANK], 8U, tu_mtf_move(z, e->a & 63U, 1U), 0);
  else if (kind == 6U) {
    tu_z_eg(b, NULL, 0, e->a, 0);
    tu_z_eg(b, NULL, 0, e->b, 4);
  } else if (kind == 7U) {
    tu_rc_direct(b, e->kind == TU_EV_END ? 1U : 0U, 1);
    tu_z_eg(b, NULL, 0, e->a & 0xFFU, 0);
    if (e->kind == TU_EV_BEGIN)
      tu_z_eg(b, NULL, 0, (e->a >> 8) & 0xFFU, 0);
  }
}

/* The tick's step @dt of an entry of in-thread, exit or kind @key. */
static void tu_z_when(tu_bits_t *b, tu_zstate_t *z, uint32_t key, uint32_t dt) {
  uint32_t hit = 0;

  if (z->last[key] != 0xFFFFU) {
    hit = dt == z->last[key] ? 1U : 0U;
    tu_rc_bit(b, &z->probs[TU_P_WHEN + z->hit_when], hit);
    z->hit_when = (uint8_t)hit;
  }
  if (hit == 0U) {
    tu_z_symbol(b, &z->probs[TU_P_STEP], 6U, z->steps, z->step_counts, TU_Z_STEPS,
                dt < TU_Z_STEPS - 1U ? dt : TU_Z_STEPS - 1U);
    if (dt >= TU_Z_STEPS - 1U)
      tu_z_eg(b, &z->probs[TU_P_BIG], 8U, dt - (TU_Z_STEPS - 1U), 0);
  }
  z->last[key] = (uint16_t)(dt < 0xFFFFU ? dt : 0xFFFFU);
}

/* Codes one entry, updating @z. */
static void tu_z_entry(tu_bits_t *b, tu_zstate_t *z, const tu_entry_t *e) {
  uint32_t tick = (e->record >> TU_TIME_POS) & TU_TIME_MASK;
  uint32_t out_number = (e->record >> TU_OUT_POS) & TU_NUM_MASK;
  uint32_t in_number = (e->record >> TU_IN_POS) & TU_NUM_MASK;
  uint32_t dt = (tick - z->tick) & TU_TIME_MASK;
  int is_switch = e->kind == 0U && out_number != in_number;
  int from_cur = is_switch && out_number == z->cur;
  uint32_t hit = 0, key;

  /* Who: first, when the running thread has a successor on the line, whether the entry is a
   * switch to it; else a switch from the running thread is its in-thread's rank among the
   * recent threads, anything else head 0 then its kind. With the counter (coder 4), a bit
   * says first whether the entry is a switch from the running thread, else its kind comes
   * without the head. */
  TU_Z_FIELD(TU_ZF_WHO);
  if (TU_CYCLES && z->stamps != 0U)
    tu_rc_bit(b, &z->probs[TU_P_CUR + z->pk], from_cur ? 1U : 0U);
  if (TU_CYCLES && z->stamps != 0U && !from_cur)
    tu_z_other(b, z, e, is_switch, out_number, in_number);
  else {
    if (z->succ[z->cur] != TU_Z_NONE) {
      hit = from_cur && in_number == z->succ[z->cur] ? 1U : 0U;
      tu_rc_bit(b, &z->probs[TU_P_WHO + z->hit_who], hit);
      z->hit_who = (uint8_t)hit;
    }
    if (hit != 0U) {
      (void)tu_mtf_use(z, in_number);
      z->pk = 8;
    } else if (from_cur) {
      tu_z_symbol(b, &z->probs[TU_P_HEAD], 8U, z->heads, z->head_counts, TU_Z_HEADS,
                  tu_mtf_use(z, in_number));
      z->pk = 8;
    } else
      tu_z_other(b, z, e, is_switch, out_number, in_number);
  }
  if (is_switch) {
    z->succ[out_number] = (uint8_t)in_number;
    z->cur = (uint8_t)in_number;
  } else if (e->kind == 0U)
    z->cur = 0; /* an exit: the next switch is from no thread */

  /* When: whether the tick's step is the last one of the same in-thread (or exit, or kind of
   * event); else the step, then with the counter how far it is from that many ticks of
   * counter. */
  key = is_switch ? in_number : e->kind == 0U ? 64U : 65U + (e->kind < TU_EV_KINDS ? e->kind : 0U);
  TU_Z_FIELD(TU_ZF_TICK);
  tu_z_when(b, z, key, dt);
#if TU_CYCLES
  if (z->stamps != 0U)
  {
    TU_Z_FIELD(TU_ZF_COUNTER);
    tu_z_stamp(b, z, e, dt, is_switch);
  }
#endif
  z->tick = tick;
}

static uint32_t tu_fnv_char(uint32_t hash, char c) {
  hash ^= (uint8_t)c;
  return hash * 16777619U;
}

/* Prints one line: "Z~", its bytes (number, entry count, coded part) two characters for
 * each 13 bits, then its checksum in four characters. */
static void tu_z_line(BaseSequentialStream *out, tu_bits_t *b, uint32_t seq, uint32_t entries) {
  char line[2U + TU_Z_PAYLOAD_CHARS + 4U + 1U];
  uint32_t i, n = 0, hash = 2166136261U, acc = 0, n_acc = 0, n_bytes = b->n;

  b->bytes[0] = (uint8_t)(seq >> 16);
  b->bytes[1] = (uint8_t)(seq >> 8);
  b->bytes[2] = (uint8_t)seq;
  b->bytes[3] = (uint8_t)entries;
  line[n++] = 'Z';
  line[n++] = '~';
  for (i = 0; i < n_bytes || n_acc != 0U; i++) {
    if (i >= n_bytes) {
      /* the last group, padded with zeros */
      acc <<= 13U - n_acc;
      n_acc = 13;
    } else {
      acc = (acc << 8) | b->bytes[i];
      n_acc += 8U;
    }
    if (n_acc >= 13U) {
      uint32_t v = (acc >> (n_acc - 13U)) & 0x1FFFU;

      n_acc -= 13U;
      line[n++] = tu_z_alphabet[v % 91U];
      line[n++] = tu_z_alphabet[v / 91U];
    }
  }
  for (i = 0; i < n; i++)
    hash = tu_fnv_char(hash, line[i]);
  hash = (hash >> 24) ^ (hash & 0xFFFFFFU);
  for (i = 0; i < 2U; i++) {
    uint32_t v = i == 0U ? hash >> 13 : hash & 0x1FFFU;

    line[n++] = tu_z_alphabet[v % 91U];
    line[n++] = tu_z_alphabet[v / 91U];
  }
  line[n] = '\0';
  chprintf(out, "%s" TU_NL, line);
}

void tu_zlog_init(tu_zlog_t *l) {
  memset(l, 0, sizeof *l);
  l->z.mean = 8U << 10;
  l->z.stamps = (uint8_t)TU_CYCLES;
  l->hash = 2166136261U;
}

/* Prints the line being filled, if it holds entries. */
void tu_zlog_flush(BaseSequentialStream *out, tu_zlog_t *l) {
  if (l->entries == 0U)
    return;
  tu_rc_flush(&l->b);
  tu_z_line(out, &l->b, l->seq, l->entries);
  l->seq = (l->seq + 1U) & 0x3FFFFU;
  l->entries = 0;
}

/* Starts a line from a key frame: the state of the coder, reset, and what it keeps of the
 * entries before the line. */
static void tu_zlog_start(tu_zlog_t *l) {
  tu_zstate_t *z = &l->z;

  tu_zstate_reset(z);
  tu_rc_init(&l->b);
  l->b.fast = z->stamps;
  TU_Z_FIELD(TU_ZF_KEY);
  tu_rc_direct(&l->b, z->tick, 20);
#if TU_CYCLES
  if (z->stamps != 0U) {
    tu_rc_direct(&l->b, z->counter, 32);
    tu_rc_direct(&l->b, tu_z_order(z->mean), 5);
    tu_z_eg(&l->b, NULL, 0, z->grain - 1U, 0);
  }
#endif
  tu_rc_direct(&l->b, z->cur, 6);
}

/* Adds @e to the line being filled; the line is printed once full. */
void tu_zlog_add(BaseSequentialStream *out, tu_zlog_t *l, const tu_entry_t *e) {
  uint32_t payload;

  if (l->entries == 0U)
    tu_zlog_start(l);
  tu_z_entry(&l->b, &l->z, e);
  payload = tu_entry_payload(e);
  l->hash = tu_hash_word(l->hash, e->record);
#if TU_CYCLES
  if (l->z.stamps != 0U)
    l->hash = tu_hash_word(l->hash, e->stamp);
#endif
  if (payload >= 1U)
    l->hash = tu_hash_word(l->hash, e->a);
  if (payload >= 2U)
    l->hash = tu_hash_word(l->hash, e->b);
  if (++l->entries == TU_Z_MAX_ENTRIES ||
      tu_rc_size(&l->b) >= (TU_CYCLES && l->z.stamps != 0U ? TU_Z_SOFT_BYTES_4 : TU_Z_SOFT_BYTES))
    tu_zlog_flush(out, l);
}

/* Prints the entries of @span in the compact encoding; fills its checksum (as dump version 2
 * computes it) and returns the number of lines. */
TU_NOINLINE uint32_t tu_print_compact(BaseSequentialStream *out, tu_span_t *span) {
  uint32_t pos = span->first, left = span->count;
  tu_zlog_t l;
  tu_entry_t e;

  tu_zlog_init(&l);
  while (left != 0U)
    if (tu_read_entry(&pos, &left, &e) != 0)
      tu_zlog_add(out, &l, &e);
  tu_zlog_flush(out, &l);
  span->checksum = l.hash;
  return l.seq;
}

#endif /* ENABLE_THREADS_TIMESTAMPS */

/** @} */

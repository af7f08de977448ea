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

/* threads_dump_compact prints the entries of the log as lines of base64 characters (see
 * WIRE-FORMAT.md, dump version 3): each line starts from a key frame, carries a sequence number
 * and a checksum, and holds as many whole entries as fit. Everything is on the stack of the
 * shell thread; nothing runs in the hooks. */

static const char tu_z_alphabet[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

static void tu_bits_put(tu_bits_t *b, uint32_t value, uint32_t n) {
  while (n != 0U) {
    n--;
    if (b->n >= TU_Z_PAYLOAD_BITS) {
      b->full = 1;
      return;
    }
    if (((value >> n) & 1U) != 0U)
      b->bits[b->n / 8U] |= (uint8_t)(0x80U >> (b->n % 8U));
    b->n++;
  }
}

/* Exp-Golomb code of order @k of @v. */
static void tu_bits_eg(tu_bits_t *b, uint32_t v, uint32_t k) {
  uint64_t w = (uint64_t)v + ((uint64_t)1 << k);
  uint32_t len = 0;

  while ((w >> len) > 1U)
    len++;
  /* len + 1 significant bits: len - k zeros first. */
  tu_bits_put(b, 0, len - k);
  if (len >= 32U) {
    tu_bits_put(b, (uint32_t)(w >> 32), len - 31U);
    tu_bits_put(b, (uint32_t)w, 32U);
  } else
    tu_bits_put(b, (uint32_t)w, len + 1U);
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
#if TU_CYCLES
  /* The key frame carries the mean's order only. */
  z->mean = 8U << tu_z_order(z->mean);
  z->prev = 0;
  z->anchor = z->counter;
  memset(z->orders, TU_Z_UNSEEN, sizeof z->orders);
#endif
}

/* Codes @symbol as its position in @list (kept sorted by @counts), then counts it. */
static void tu_z_symbol(tu_bits_t *b, uint8_t *list, uint8_t *counts, uint32_t size,
                        uint32_t symbol) {
  uint32_t pos = 0;

  while (pos + 1U < size && list[pos] != symbol)
    pos++;
  tu_bits_eg(b, pos, 0);
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
/* Coder 2 of the counter: the first entry of a tick is coded as its place after the tick's
 * start (where the counter stood then, as the ticks predict it from the anchor: the counter
 * and the tick run from the same clock on most boards), an entry of the same tick as the
 * counter's step from the entry before, in the order learnt for that pair of kinds (a kernel
 * path between two hooks takes about the same time each time). Unseen pairs and tick starts
 * use the running mean. */
static void tu_z_stamp(tu_bits_t *b, tu_zstate_t *z, const tu_entry_t *e, uint32_t dt,
                       int is_switch) {
  uint32_t kind = e->kind == 0U ? (is_switch != 0 ? 0U : 1U) : e->kind + 1U;
  uint32_t pair, off, k, top;
  int learnt = 0;

  if (kind >= TU_Z_CLASSES)
    kind = TU_Z_CLASSES - 1U; /* (no other kind is logged) */
  pair = z->prev * TU_Z_CLASSES + kind;
  if (dt != 0U) {
    int32_t place;

    z->anchor += dt * TU_Z_CYCLES_PER_TICK;
    place = (int32_t)(e->stamp - z->anchor);
    off = tu_zigzag(place);
    if (place < 0)
      z->anchor = e->stamp;
  } else {
    off = tu_zigzag((int32_t)(e->stamp - z->counter));
    learnt = z->orders[pair] != TU_Z_UNSEEN;
  }
  if (learnt != 0)
    tu_bits_eg(b, off, z->orders[pair]);
  else {
    tu_bits_eg(b, off, tu_z_order(z->mean));
    z->mean = z->mean - (z->mean >> 3) + (off > 0x0FFFFFFFU ? 0x0FFFFFFFU : off);
  }
  if (dt == 0U) {
    /* the order of this step: its significant bits less one */
    for (top = 0, k = off > 0x0FFFFFFFU ? 0x0FFFFFFFU : off; k > 1U; k >>= 1)
      top++;
    z->orders[pair] = (uint8_t)(learnt != 0 ? (z->orders[pair] + top + 1U) / 2U : top);
  }
  z->prev = (uint8_t)kind;
  z->counter = e->stamp;
}
#endif

/* Codes what and who of an entry that is not a switch from the running thread: head 0, then
 * 3 bits of kind and what the kind carries. */
static void tu_z_other(tu_bits_t *b, tu_zstate_t *z, const tu_entry_t *e, int is_switch,
                       uint32_t out_number, uint32_t in_number) {
  tu_z_symbol(b, z->heads, z->head_counts, TU_Z_HEADS, 0);
  if (is_switch) {
    tu_bits_put(b, 0U, 3);
    tu_bits_put(b, out_number, 6);
    tu_bits_eg(b, tu_mtf_use(z, in_number), 0);
  } else if (e->kind == 0U) {
    tu_bits_put(b, 1U, 3);
    tu_bits_put(b, out_number, 6);
  } else if (e->kind == TU_EV_IRQ_ENTER) {
    tu_bits_put(b, 2U, 3);
    tu_bits_eg(b, e->a, 0);
  } else if (e->kind == TU_EV_IRQ_LEAVE)
    tu_bits_put(b, 3U, 3);
  else if (e->kind == TU_EV_SLEEP || e->kind == TU_EV_WAKE || e->kind == TU_EV_TRIGGER) {
    tu_bits_put(b, 4U, 3);
    tu_bits_put(b, e->kind == TU_EV_SLEEP ? 0U : e->kind == TU_EV_WAKE ? 1U : 2U, 2);
  } else if (e->kind == TU_EV_READY) {
    tu_bits_put(b, 5U, 3);
    /* coder 2: the thread's rank; it then comes second, behind the running thread that
     * heads the list (it is likely the next switch's in-thread) */
    if (z->stamps != 0U)
      tu_bits_eg(b, tu_mtf_move(z, e->a & 63U, 1U), 0);
    else
      tu_bits_put(b, e->a, 6);
  } else if (e->kind == TU_EV_MARKER) {
    tu_bits_put(b, 6U, 3);
    tu_bits_eg(b, e->a, 0);
    tu_bits_eg(b, e->b, 4);
  } else {
    tu_bits_put(b, 7U, 3);
    tu_bits_put(b, e->kind == TU_EV_END ? 1U : 0U, 1);
    tu_bits_eg(b, e->a & 0xFFU, 0);
    if (e->kind == TU_EV_BEGIN)
      tu_bits_eg(b, (e->a >> 8) & 0xFFU, 0);
  }
}

/* Codes one entry, updating @z. */
static void tu_z_entry(tu_bits_t *b, tu_zstate_t *z, const tu_entry_t *e) {
  uint32_t tick = (e->record >> TU_TIME_POS) & TU_TIME_MASK;
  uint32_t out_number = (e->record >> TU_OUT_POS) & TU_NUM_MASK;
  uint32_t in_number = (e->record >> TU_IN_POS) & TU_NUM_MASK;
  uint32_t dt = (tick - z->tick) & TU_TIME_MASK;
  int is_switch = e->kind == 0U && out_number != in_number;

  /* What and who: a switch from the running thread is its in-thread's rank among the recent
   * threads; anything else is head 0 then 3 bits of kind. */
  if (is_switch && out_number == z->cur)
    tu_z_symbol(b, z->heads, z->head_counts, TU_Z_HEADS, tu_mtf_use(z, in_number));
  else
    tu_z_other(b, z, e, is_switch, out_number, in_number);
  if (is_switch)
    z->cur = (uint8_t)in_number;
  else if (e->kind == 0U)
    z->cur = 0; /* an exit: the next switch is from no thread */

  /* When: the tick's step, then with the counter how far its step is from that many ticks of
   * counter (the record's place in its tick against the previous record's). */
  tu_z_symbol(b, z->steps, z->step_counts, TU_Z_STEPS, dt < TU_Z_STEPS - 1U ? dt : TU_Z_STEPS - 1U);
  if (dt >= TU_Z_STEPS - 1U)
    tu_bits_eg(b, dt - (TU_Z_STEPS - 1U), 0);
#if TU_CYCLES
  if (z->stamps != 0U)
    tu_z_stamp(b, z, e, dt, is_switch);
#endif
  z->tick = tick;
}

/* The key frame that starts a line: the coder's state, and the line's entry count. With
 * coder 2, a bit says whether the line has one (1) or goes on from the line before (0). */
static void tu_z_key(tu_bits_t *b, const tu_zkey_t *z, uint32_t entries, int chained) {
  tu_bits_put(b, entries, 7);
#if TU_CYCLES
  if (z->stamps != 0U) {
    tu_bits_put(b, chained != 0 ? 0U : 1U, 1);
    if (chained != 0)
      return;
  }
#else
  (void)chained;
#endif
  tu_bits_put(b, z->tick, 20);
#if TU_CYCLES
  if (z->stamps != 0U) {
    tu_bits_put(b, z->counter, 32);
    tu_bits_put(b, tu_z_order(z->mean), 5);
  }
#endif
  tu_bits_put(b, z->cur, 6);
}

static uint32_t tu_fnv_char(uint32_t hash, char c) {
  hash ^= (uint8_t)c;
  return hash * 16777619U;
}

/* Prints one line: Z, its sequence number, the payload, '*' and its checksum. */
static void tu_z_line(BaseSequentialStream *out, uint32_t seq, const tu_bits_t *b) {
  char line[1U + 3U + TU_Z_PAYLOAD_CHARS + 1U + 4U + 1U];
  uint32_t i, n = 0, hash = 2166136261U;

  line[n++] = 'Z';
  for (i = 0; i < 3U; i++)
    line[n++] = tu_z_alphabet[(seq >> (12U - 6U * i)) & 63U];
  for (i = 0; i < (b->n + 5U) / 6U; i++) {
    uint32_t v = 0, k;

    for (k = 0; k < 6U; k++) {
      uint32_t bit = i * 6U + k;

      v <<= 1;
      if (bit < b->n && (b->bits[bit / 8U] & (0x80U >> (bit % 8U))) != 0U)
        v |= 1U;
    }
    line[n++] = tu_z_alphabet[v];
  }
  for (i = 0; i < n; i++)
    hash = tu_fnv_char(hash, line[i]);
  hash = (hash >> 24) ^ (hash & 0xFFFFFFU);
  line[n++] = '*';
  for (i = 0; i < 4U; i++)
    line[n++] = tu_z_alphabet[(hash >> (18U - 6U * i)) & 63U];
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
  uint32_t n = l->b.n;

  if (l->entries == 0U)
    return;
  l->b.n = 0;
  tu_z_key(&l->b, &l->key, l->entries, l->chained);
  l->b.n = n;
  tu_z_line(out, l->seq++, &l->b);
  l->entries = 0;
}

/* Starts a line: from a key frame, or with coder 2 from where the line before ended. */
static void tu_zlog_start(tu_zlog_t *l) {
  memset(&l->b, 0, sizeof l->b);
  l->chained = (uint8_t)(l->z.stamps != 0U && l->chain != 0U);
  if (l->chained != 0U)
    l->chain--;
  else {
    tu_zstate_reset(&l->z);
    l->key.tick = l->z.tick;
    l->key.counter = l->z.counter;
    l->key.mean = l->z.mean;
    l->key.cur = l->z.cur;
    l->key.stamps = l->z.stamps;
    l->chain = TU_Z_CHAIN - 1U;
  }
  tu_z_key(&l->b, &l->key, 0, l->chained);
  memset(l->b.bits, 0, sizeof l->b.bits);
}

/* Adds @e to the line being filled, printing the line first when it does not fit. */
void tu_zlog_add(BaseSequentialStream *out, tu_zlog_t *l, const tu_entry_t *e) {
  tu_zstate_t before;
  uint32_t mark, payload;

  if (l->entries == 0U)
    tu_zlog_start(l);
  before = l->z;
  mark = l->b.n;
  tu_z_entry(&l->b, &l->z, e);
  if (l->b.full != 0) {
    /* It does not fit: the line ends before it, and it begins the next. */
    uint32_t i;

    for (i = mark; i < TU_Z_PAYLOAD_BITS; i++)
      l->b.bits[i / 8U] &= (uint8_t) ~(0x80U >> (i % 8U));
    l->b.n = mark;
    l->b.full = 0;
    l->z = before;
    tu_zlog_flush(out, l);
    tu_zlog_start(l);
    tu_z_entry(&l->b, &l->z, e);
  }
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
  if (++l->entries == TU_Z_MAX_ENTRIES)
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

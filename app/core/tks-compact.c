/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>
#include <glib/gi18n-lib.h>

#include "tks-compact-private.h"

/* A line's payload as a string of bits, most significant first, read through a 64-bit window:
 * the bytes after the payload are zero, so a window never reads past them. */
typedef struct
{
  guint8   bytes[(MAX_PAYLOAD * 6 + 7) / 8 + 8];
  guint    n_bits;
  guint    pos;
  gboolean short_read;
} Bits;

static const guint8 payload_words[] = { 0, 1, 0, 0, 0, 1, 2, 1, 1, 0 };

guint
tks_entry_payload_words (const TksEntry *entry)
{
  guint kind = entry->record & 63u;

  if (((entry->record >> 6) & 63u) != EVENT_MARK || kind >= G_N_ELEMENTS (payload_words))
    return 0;
  return payload_words[kind];
}

guint32
tks_entry_hash (guint32 hash, const TksEntry *entry, gboolean with_counter)
{
  guint payload = tks_entry_payload_words (entry);

  hash = tks_hash_word (hash, entry->record);
  if (with_counter)
    hash = tks_hash_word (hash, entry->counter);
  if (payload >= 1)
    hash = tks_hash_word (hash, entry->a);
  if (payload >= 2)
    hash = tks_hash_word (hash, entry->b);
  return hash;
}

char *
tks_entry_format (const TksEntry *e,
                  gboolean        with_counter)
{
  guint tick = (e->record >> 12) & TIME_MASK;
  guint out = (e->record >> 6) & 63u, in = e->record & 63u;
  g_autofree char *stamp = with_counter ? g_strdup_printf (" @ %u", e->counter) : g_strdup ("");

  switch (e->kind)
    {
    case TKS_ENTRY_SWITCH:
      return g_strdup_printf ("From %2u to %2u at %7u%s", out, in, tick, stamp);
    case TKS_ENTRY_IRQ_ENTER:
      return g_strdup_printf ("Irq enter %2u at %7u%s", e->a, tick, stamp);
    case TKS_ENTRY_IRQ_LEAVE:
      return g_strdup_printf ("Irq leave at %7u%s", tick, stamp);
    case TKS_ENTRY_SLEEP:
      return g_strdup_printf ("Sleep at %7u%s", tick, stamp);
    case TKS_ENTRY_WAKE:
      return g_strdup_printf ("Wake at %7u%s", tick, stamp);
    case TKS_ENTRY_READY:
      return g_strdup_printf ("Ready %2u at %7u%s", e->a, tick, stamp);
    case TKS_ENTRY_MARKER:
      return g_strdup_printf ("Marker %2u = %u at %7u%s", e->a, e->b, tick, stamp);
    case TKS_ENTRY_BEGIN:
      return g_strdup_printf ("State %2u begin %2u at %7u%s", e->a & 0xFF, (e->a >> 8) & 0xFF,
                              tick, stamp);
    case TKS_ENTRY_END:
      return g_strdup_printf ("State %2u end at %7u%s", e->a, tick, stamp);
    default:
      return g_strdup_printf ("Trigger at %7u%s", tick, stamp);
    }
}

/* 1 + the value of each character of the alphabet (A-Z a-z 0-9 - _: 0 to 63), 0 for any
 * other byte. */
static const guint8 char_values[128] = {
   0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
   0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,
   0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0,  0, 63,  0,  0,
  53, 54, 55, 56, 57, 58, 59, 60, 61, 62,  0,  0,  0,  0,  0,  0,
   0,  1,  2,  3,  4,  5,  6,  7,  8,  9, 10, 11, 12, 13, 14, 15,
  16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26,  0,  0,  0,  0, 64,
   0, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41,
  42, 43, 44, 45, 46, 47, 48, 49, 50, 51, 52,  0,  0,  0,  0,  0,
};

static inline int
char_value (char c)
{
  guchar u = (guchar) c;

  return u < 128 ? (int) char_values[u] - 1 : -1;
}

/* The next 64 bits (at least 57 of them the payload's or the zeros after it). */
static inline guint64
bits_window (const Bits *b)
{
  guint64 w;

  memcpy (&w, b->bytes + (b->pos >> 3), sizeof w);
  return GUINT64_FROM_BE (w) << (b->pos & 7);
}

/* @n bits (1 to 32); past the payload's end, 0 and a short read. */
static inline guint32
get_bits (Bits *b, guint n)
{
  guint32 v;

  if (b->pos + n > b->n_bits)
    {
      b->short_read = TRUE;
      return 0;
    }
  v = (guint32) (bits_window (b) >> (64 - n));
  b->pos += n;
  return v;
}

/* Exp-Golomb of order @k; values past 32 bits read as damage. */
static inline guint32
get_eg (Bits *b, guint k)
{
  guint64 w = bits_window (b);
  guint zeros = w != 0 ? (guint) __builtin_clzll (w) : 64;
  guint n;

  if (zeros > 33 || b->pos + zeros + 1 > b->n_bits)
    {
      b->short_read = TRUE;
      return 0;
    }
  b->pos += zeros + 1;
  n = zeros + k;
  if (n == 0)
    return 0;
  if (n <= 32)
    w = ((guint64) 1 << n) | get_bits (b, n);
  else
    {
      w = ((guint64) 1 << (n - 32)) | get_bits (b, n - 32);
      w = (w << 32) | get_bits (b, 32);
    }
  w -= (guint64) 1 << k;
  if (w > G_MAXUINT32)
    {
      b->short_read = TRUE;
      return 0;
    }
  return (guint32) w;
}

/* Whether the bits left are only the padding of the last character: fewer than 6, all zero
 * (mcu-lib/WIRE-FORMAT.md). */
static gboolean
bits_only_padding (Bits *b)
{
  guint left = b->n_bits - b->pos;

  return left == 0 || (left < 6 && get_bits (b, left) == 0);
}

static guint
order_of (guint32 mean8)
{
  guint k = 0;
  guint32 m = mean8 >> 3;

  while ((m >> k) > 1 && k < 30)
    k++;
  return k;
}

/* As the board's coder: see tu_zstate_reset() in mcu-lib. */
static void
state_reset (State *z)
{
  /* 0 to 63, the lists' places */
  static const guint8 places[64] = {
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25,
    26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48,
    49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63
  };
  guint cur = z->cur & 63;

  /* the running thread first, then the others by number, thread 0 last */
  z->mtf[0] = (guint8) cur;
  if (cur == 0)
    memcpy (z->mtf + 1, places + 1, 63);
  else
    {
      memcpy (z->mtf + 1, places + 1, cur - 1);
      memcpy (z->mtf + cur, places + cur + 1, 63 - cur);
      z->mtf[63] = 0;
    }
  memcpy (z->heads, places, HEADS);
  z->heads[0] = 1;
  z->heads[1] = 2;
  z->heads[2] = 0;
  memcpy (z->steps, places, STEPS);
  memset (z->head_counts, 0, sizeof z->head_counts);
  memset (z->step_counts, 0, sizeof z->step_counts);
  memset (z->head_first, 0, sizeof z->head_first);
  memset (z->step_first, 0, sizeof z->step_first);
  z->prev = 0;
  z->anchor = z->counter;
  memset (z->orders, UNSEEN, sizeof z->orders);
  memset (z->firsts, UNSEEN, sizeof z->firsts);
}

/* The symbol at the position read, which is then counted and moves up its list. */
static guint
get_symbol (Bits *b, guint8 *list, guint8 *counts, guint8 *first, guint size)
{
  guint pos = get_eg (b, 0);

  if (pos >= size)
    {
      b->short_read = TRUE;
      return 0;
    }
  return tks_compact_take_symbol (list, counts, first, pos);
}

void
tks_compact_state_reset (State *z)
{
  state_reset (z);
}

/* The thread at rank @r, which then heads the list. */
static guint
mtf_take (State *z, guint r)
{
  return tks_compact_mtf_move (z, r, 0);
}

static inline guint32
unzigzag (guint32 off)
{
  return (off & 1) ? (guint32) (-(gint32) (off >> 1) - 1) : off >> 1;
}

/* Coder 2 of the counter, as the board's (tu_z_stamp() in mcu-lib): a tick's first entry by
 * its place after the tick's start, the others by their step in the order learnt for the
 * pair of kinds; @kind: 0 switch, 1 exit, else the entry's kind + 1. */
static guint32
get_stamp (const TksCompactDecoder *self, Bits *b, State *z, guint32 dt, guint kind)
{
  guint pair = z->prev * CLASSES + kind;
  gboolean learnt = dt == 0 && z->orders[pair] != UNSEEN;
  guint32 off = get_eg (b, learnt ? z->orders[pair] : order_of (z->mean));

  if (!learnt)
    z->mean = z->mean - (z->mean >> 3) + MIN (off, 0x0FFFFFFFu);
  if (dt != 0)
    {
      z->anchor += dt * self->cycles_per_tick;
      z->counter = z->anchor + unzigzag (off);
      if (off & 1)
        z->anchor = z->counter;
    }
  else
    {
      guint32 top = 0;

      z->counter += unzigzag (off);
      for (guint32 v = MIN (off, 0x0FFFFFFFu); v > 1; v >>= 1)
        top++;
      z->orders[pair] = (guint8) (learnt ? (z->orders[pair] + top + 1) / 2 : top);
    }
  z->prev = (guint8) kind;
  return z->counter;
}

static gboolean
decode_entry (const TksCompactDecoder *self, Bits *b, State *z, TksEntry *e)
{
  guint32 out = 0, in = 0, kind = 0, tick;
  gboolean is_switch = FALSE, is_exit = FALSE;
  guint head;

  memset (e, 0, sizeof *e);
  head = get_symbol (b, z->heads, z->head_counts, z->head_first, HEADS);
  if (head != 0)
    {
      is_switch = TRUE;
      out = z->cur;
      in = mtf_take (z, head);
    }
  else
    {
      switch (get_bits (b, 3))
        {
        case 0:
          is_switch = TRUE;
          out = get_bits (b, 6);
          in = mtf_take (z, get_eg (b, 0));
          break;
        case 1:
          is_exit = TRUE;
          out = in = get_bits (b, 6);
          break;
        case 2:
          kind = TKS_ENTRY_IRQ_ENTER;
          e->a = get_eg (b, 0);
          break;
        case 3:
          kind = TKS_ENTRY_IRQ_LEAVE;
          break;
        case 4:
          switch (get_bits (b, 2))
            {
            case 0: kind = TKS_ENTRY_SLEEP; break;
            case 1: kind = TKS_ENTRY_WAKE; break;
            case 2: kind = TKS_ENTRY_TRIGGER; break;
            default: return FALSE;
            }
          break;
        case 5:
          kind = TKS_ENTRY_READY;
          e->a = self->coder == 2 ? tks_compact_mtf_move (z, get_eg (b, 0), 1) : get_bits (b, 6);
          break;
        case 6:
          kind = TKS_ENTRY_MARKER;
          e->a = get_eg (b, 0);
          e->b = get_eg (b, 4);
          break;
        default:
          if (get_bits (b, 1) == 0)
            {
              kind = TKS_ENTRY_BEGIN;
              e->a = get_eg (b, 0) & 0xFF;
              e->a |= (get_eg (b, 0) & 0xFF) << 8;
            }
          else
            {
              kind = TKS_ENTRY_END;
              e->a = get_eg (b, 0) & 0xFF;
            }
          break;
        }
    }
  if (is_switch)
    z->cur = (guint8) in;
  else if (is_exit)
    z->cur = 0;

  /* When: the tick's step, then with the counter its place against the previous record's. */
  {
    guint32 dt = get_symbol (b, z->steps, z->step_counts, z->step_first, STEPS);

    if (dt == STEPS - 1)
      dt += get_eg (b, 0);
    tick = (z->tick + dt) & self->time_mask;
    if (self->counter_hz != 0 && self->coder == 2)
      e->counter = get_stamp (self, b, z, dt, is_switch ? 0 : is_exit ? 1 : kind + 1);
    else if (self->counter_hz != 0)
      {
        guint32 off = get_eg (b, order_of (z->mean));

        z->mean = z->mean - (z->mean >> 3) + MIN (off, 0x0FFFFFFFu);
        z->counter += dt * self->cycles_per_tick + unzigzag (off);
        e->counter = z->counter;
      }
  }
  z->tick = tick;

  if (is_switch || is_exit)
    e->record = (tick << 12) | (out << 6) | in;
  else if (kind == TKS_ENTRY_IRQ_ENTER && e->a < 31)
    e->record = (tick << 12) | (EVENT_MARK << 6) | (IRQ_SHORT + e->a);
  else
    e->record = (tick << 12) | (EVENT_MARK << 6) | kind;
  e->kind = kind;
  return !b->short_read;
}

TksCompactDecoder *
tks_compact_decoder_new (guint64 tick_hz, guint64 counter_hz)
{
  TksCompactDecoder *self = g_new0 (TksCompactDecoder, 1);

  self->tick_hz = tick_hz != 0 ? tick_hz : 1000;
  self->counter_hz = counter_hz;
  self->coder = 1;
  self->time_mask = TIME_MASK;
  self->cycles_per_tick = (guint32) (counter_hz / self->tick_hz);
  self->entries = g_array_new (FALSE, FALSE, sizeof (TksEntry));
  self->losses = g_array_new (FALSE, FALSE, sizeof (guint));
  return self;
}

/* "@key N", spaces after the key, whatever follows N (as a dump's reader takes it: "Tick
 * frequency: 1000 Hz" is 1000), N at most 2^32 - 1. */
static gboolean
header_number (const char *line,
               const char *key,
               guint64    *value)
{
  const char *p;
  guint64 v;

  if (!g_str_has_prefix (line, key))
    return FALSE;
  p = line + strlen (key);
  while (*p == ' ')
    p++;
  if (!g_ascii_isdigit (*p))
    return FALSE;
  v = g_ascii_strtoull (p, NULL, 10);
  if (v > G_MAXUINT32)
    return FALSE;
  *value = v;
  return TRUE;
}

gboolean
tks_compact_header_line (TksCompactHeader *header,
                         const char       *line)
{
  g_return_val_if_fail (header != NULL && line != NULL, FALSE);

  return header_number (line, "Tick frequency:", &header->tick_hz) ||
         header_number (line, "Tick bits:", &header->tick_bits) ||
         header_number (line, "Counter frequency:", &header->counter_hz) ||
         header_number (line, "Counter coder:", &header->coder);
}

TksCompactDecoder *
tks_compact_header_decoder (const TksCompactHeader *header)
{
  TksCompactDecoder *decoder;

  g_return_val_if_fail (header != NULL, NULL);

  decoder = tks_compact_decoder_new (header->tick_hz, header->counter_hz);
  tks_compact_decoder_set_coder (decoder, header->coder >= 1 && header->coder <= TKS_COMPACT_LAST_CODER
                                          ? (guint) header->coder : 1);
  if (header->tick_bits >= 8 && header->tick_bits <= 20)
    tks_compact_decoder_set_tick_bits (decoder, (guint) header->tick_bits);
  return decoder;
}

void
tks_compact_decoder_set_tick_bits (TksCompactDecoder *self,
                                   guint              bits)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (bits >= 8 && bits <= 20);

  self->time_mask = ((guint32) 1 << bits) - 1;
}

void
tks_compact_decoder_free (TksCompactDecoder *self)
{
  if (self == NULL)
    return;
  g_array_unref (self->entries);
  g_array_unref (self->losses);
  g_free (self);
}

/* The line's payload (@n characters at @chars) as bits; FALSE when a character is not one of
 * the alphabet. */
static gboolean
bits_fill (Bits *b, const char *chars, gsize n)
{
  guint32 acc = 0;
  guint n_acc = 0, n_bytes = 0;

  for (gsize i = 0; i < n; i++)
    {
      int v = char_value (chars[i]);

      if (v < 0)
        return FALSE;
      acc = (acc << 6) | (guint32) v;
      n_acc += 6;
      if (n_acc >= 8)
        {
          n_acc -= 8;
          b->bytes[n_bytes++] = (guint8) (acc >> n_acc);
        }
    }
  if (n_acc > 0)
    b->bytes[n_bytes++] = (guint8) (acc << (8 - n_acc));
  memset (b->bytes + n_bytes, 0, sizeof b->bytes - n_bytes);
  b->n_bits = (guint) n * 6;
  b->pos = 0;
  b->short_read = FALSE;
  return TRUE;
}

/* Coder 2 chains lines: each goes on from the state of the line before unless it has a key
 * frame. */
static inline gboolean
chained (const TksCompactDecoder *self)
{
  return self->coder == 2 && self->counter_hz != 0;
}

void
tks_compact_decoder_set_coder (TksCompactDecoder *self,
                               guint              coder)
{
  self->coder = coder;
  self->chain_ok = FALSE;
}

void
tks_compact_decoder_lost (TksCompactDecoder *self)
{
  self->chain_ok = FALSE;
}

gboolean
tks_compact_line_may_start (const TksCompactDecoder *self,
                            const char              *line,
                            gsize                    len)
{
  int v;

  if (!chained (self) || tks_compact_is_rc_line (line, len))
    return TRUE;
  if (len < 1 + SEQ_CHARS + 2 || line[0] != 'Z')
    return FALSE;
  /* the bit after the entry count: the payload's eighth */
  v = char_value (line[2 + SEQ_CHARS]);
  return v >= 0 && (v & 0x10) != 0;
}

guint
tks_compact_line_room (const char *line,
                       gsize       len)
{
  int a, b;

  if (tks_compact_is_rc_line (line, len))
    return tks_compact_rc_room (line, len);
  if (len < 1 + SEQ_CHARS + 2)
    return 0;
  a = char_value (line[1 + SEQ_CHARS]);
  b = char_value (line[2 + SEQ_CHARS]);
  /* The key frame's first 7 bits. */
  return a < 0 || b < 0 ? 0 : ((guint) a << 1) | ((guint) b >> 5);
}

/* The checksum of the line's characters before @star, or one that cannot match the line's
 * own (@check) when a character of that is not one of the alphabet. */
static guint32
line_hash (const char *line,
           gsize       star,
           guint32    *check)
{
  guint32 hash = TKS_HASH_START;

  *check = 0;
  for (gsize i = 0; i < star; i++)
    hash = tks_hash_byte (hash, (guint8) line[i]);
  hash = (hash >> 24) ^ (hash & 0xFFFFFFu);
  for (gsize i = 0; i < CHECK_CHARS; i++)
    {
      int v = char_value (line[star + 1 + i]);

      if (v < 0)
        v = 64;   /* never matches */
      *check = (*check << 6) | (guint32) (v & 63);
      if (v == 64)
        hash = ~*check;
    }
  return hash;
}

/* The line's layout and checksum: OK when both are right, with its number and checksum in
 * @out and its payload in @b. */
static TksCompactStatus
line_check (const char     *line,
            gsize           len,
            TksCompactLine *out,
            Bits           *b)
{
  gsize star;
  guint32 seq = 0, check, hash;

  /* Z, 3 characters of sequence number, the payload, '*', 4 characters of checksum. */
  if (len < 1 + SEQ_CHARS + 1 + CHECK_CHARS || line[0] != 'Z'
      || len > 1 + SEQ_CHARS + MAX_PAYLOAD + 1 + CHECK_CHARS)
    return TKS_COMPACT_LINE_NOT_COMPACT;
  star = len - 1 - CHECK_CHARS;
  if (line[star] != '*')
    return TKS_COMPACT_LINE_NO_CHECKSUM;
  hash = line_hash (line, star, &check);
  for (gsize i = 0; i < SEQ_CHARS; i++)
    {
      int v = char_value (line[1 + i]);

      seq = (seq << 6) | (guint32) (v < 0 ? 0 : v);
    }
  out->seq = seq;
  if (!bits_fill (b, line + 1 + SEQ_CHARS, star - 1 - SEQ_CHARS))
    hash = ~check;
  if (hash != check)
    return TKS_COMPACT_LINE_DAMAGED;
  out->check = check;
  return TKS_COMPACT_LINE_OK;
}

/* With coder 2, the line before come again (with its key frame or not) leaves the state the
 * lines go on from as it is, even after a loss (tks_compact_decoder_lost()). A line numbered as
 * the line before (with other bits) or earlier is out of order: it is not decoded, so that the
 * line after the one before still goes on from it. */
static TksCompactStatus
line_chain_order (const TksCompactDecoder *self,
                  guint32                  seq,
                  guint32                  check)
{
  if (!chained (self) || !self->chain_seen)
    return TKS_COMPACT_LINE_OK;
  if (seq == self->chain_seq && check == self->chain_check)
    return TKS_COMPACT_LINE_REPEATED;
  if (seq_ahead (seq, self->chain_seq) - 1 >= SEQ_HALF - 1)
    return TKS_COMPACT_LINE_LATE;
  return TKS_COMPACT_LINE_OK;
}

/* The state the line's entries start from: its key frame, or with coder 2 and no key frame,
 * the state the line before it ended with. FALSE when that line was not decoded. */
static gboolean
line_start_state (TksCompactDecoder *self,
                  Bits              *b,
                  guint32            seq,
                  State             *z)
{
  memset (z, 0, sizeof *z);
  if (chained (self) && get_bits (b, 1) == 0)
    {
      /* no key frame: the line goes on from the state the line before it ended with */
      if (!self->chain_ok || seq != ((self->chain_seq + 1) & SEQ_MASK))
        {
          self->chain_ok = FALSE;
          return FALSE;
        }
      *z = self->chain;
      return TRUE;
    }
  z->tick = get_bits (b, 20);
  if (z->tick > self->time_mask)
    b->short_read = TRUE;   /* a tick wider than the board's record tick: not its line */
  if (self->counter_hz != 0)
    {
      guint k;

      z->counter = get_bits (b, 32);
      k = get_bits (b, 5);
      z->mean = 8u << MIN (k, 28u);
    }
  z->cur = (guint8) get_bits (b, 6);
  state_reset (z);
  return TRUE;
}

void
tks_compact_line_decode (TksCompactDecoder *self,
                         const char        *line,
                         gsize              len,
                         TksCompactLine    *out,
                         TksEntry          *entries)
{
  State z;
  Bits b;
  guint n_entries, n = 0;

  out->seq = 0;
  out->check = 0;
  out->n_entries = 0;
  if (tks_compact_is_rc_line (line, len))
    {
      tks_compact_rc_decode (self, line, len, out, entries);
      return;
    }
  out->status = line_check (line, len, out, &b);
  if (out->status == TKS_COMPACT_LINE_OK)
    out->status = line_chain_order (self, out->seq, out->check);
  if (out->status != TKS_COMPACT_LINE_OK)
    return;

  /* The key frame, then the entries. */
  n_entries = get_bits (&b, 7);
  if (!line_start_state (self, &b, out->seq, &z))
    {
      out->status = TKS_COMPACT_LINE_UNCHAINED;
      return;
    }
  while (n < n_entries && decode_entry (self, &b, &z, &entries[n]))
    n++;
  if (b.short_read || n != n_entries || n_entries > TKS_COMPACT_MAX_ENTRIES)
    /* The checksum matched but the bits do not make whole entries: a board that encodes
     * otherwise, or a forged line. */
    out->status = TKS_COMPACT_LINE_UNDECODABLE;
  else if (!bits_only_padding (&b))
    /* More bits than the entries announced: the count is not to be believed. */
    out->status = TKS_COMPACT_LINE_OVERFULL;
  else
    {
      out->status = TKS_COMPACT_LINE_OK;
      out->n_entries = n;
    }
  if (chained (self))
    {
      self->chain = z;
      self->chain_seq = out->seq;
      self->chain_check = out->check;
      self->chain_seen = TRUE;
      self->chain_ok = out->status == TKS_COMPACT_LINE_OK;
    }
}

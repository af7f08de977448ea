/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "tks-compact-private.h"

/*
 * A compact line "Z~" (mcu-lib/WIRE-FORMAT.md, the range coder): its characters, two for each
 * 13 bits, give its number, its entry count and the bytes of a binary range coder, which
 * decodes the entries as the board's coder (tu_compact.c in mcu-lib) coded them, from a state
 * that starts afresh on the line. A line decodes on its own.
 */

#define RC_TOP (1u << 24)

/* Places of the probabilities, as the board's coder has them. */
#define P_WHO   0
#define P_HEAD  2
#define P_KIND  64
#define P_RANK  18
#define P_WHEN  26
#define P_STEP  28
#define P_BIG   34
#define P_CNT   42
#define P_CNT_N 11
#define P_GRAIN 136
#define P_CUR   137   /* counter coder 4: 9, by the kind of the entry before */
#define P_ID    146   /* counter coder 4: 32, a handler's id */
#define RC_SHIFT_MAX 5
#define NONE    0xFF

#define RC_BYTES ((RC_MAX_CHARS / 2) * 13 / 8 + 2)

/* The line's bytes (number, count, coded part) and the range decoder reading them. Small
 * enough for the loops over the entries to hold it in registers (rc_spill()). */
typedef struct
{
  guint8  *bytes;   /* RC_BYTES of them, a 0 after the last */
  guint    n;
  guint    pos;
  guint32  code;
  guint32  range;
  gboolean bad;
  gboolean fast;  /* counter coder 4: probabilities learn fast from their first bits */
} Rc;

/* The value of each character of the alphabet (the printable ones but space, " ' and \),
 * 0xFF for any other byte. */
static guint8 values[256];

static void
values_init (void)
{
  static gsize done;

  if (g_once_init_enter (&done))
    {
      int v = 0;

      memset (values, 0xFF, sizeof values);
      for (int c = 33; c < 127; c++)
        if (c != '"' && c != '\'' && c != '\\')
          values[c] = (guint8) v++;
      g_once_init_leave (&done, 1);
    }
}

static inline int
value_of (char c)
{
  guint v = values[(guchar) c];

  return v == 0xFF ? -1 : (int) v;
}

gboolean
tks_compact_is_rc_line (const char *line, gsize len)
{
  return len >= 2 && line[0] == 'Z' && line[1] == '~';
}

/* The 13 bits of the two characters at @p, or -1. */
static int
group_of (const char *p)
{
  int a = value_of (p[0]), b = value_of (p[1]);
  int v = a + 91 * b;

  return a < 0 || b < 0 || v >= 8192 ? -1 : v;
}

/* The bytes of @n_chars characters (an even number) at @chars into @r; FALSE when one is not
 * of the alphabet, with the bytes of the characters before it. */
static gboolean
bytes_fill_slow (Rc *r, const char *chars, gsize n_chars)
{
  guint32 acc = 0;
  guint n_acc = 0;

  r->n = 0;
  for (gsize i = 0; i + 1 < n_chars; i += 2)
    {
      int v = group_of (chars + i);

      if (v < 0)
        return FALSE;
      acc = (acc << 13) | (guint32) v;
      n_acc += 13;
      while (n_acc >= 8)
        {
          n_acc -= 8;
          r->bytes[r->n++] = (guint8) (acc >> n_acc);
        }
      acc &= (1u << n_acc) - 1;
    }
  r->bytes[r->n] = 0;
  return TRUE;
}

/* bytes_fill_slow() without a test per character: 32 bits at a time, and on a character out
 * of the alphabet or a pair past 13 bits, the slow way, to stop where it does. */
static gboolean
bytes_fill (Rc *r, const char *chars, gsize n_chars)
{
  const guchar *c = (const guchar *) chars;
  guint8 *bytes = r->bytes;
  guint64 acc = 0;
  guint n_acc = 0, bad = 0, n = 0;

  for (gsize i = 0; i + 1 < n_chars; i += 2)
    {
      guint a = values[c[i]], b = values[c[i + 1]];
      guint v = a + 91 * b;

      bad |= (a | b) & 0x80;
      bad |= v >> 13;
      acc = (acc << 13) | v;
      n_acc += 13;
      if (n_acc >= 32)
        {
          guint32 w = GUINT32_TO_BE ((guint32) (acc >> (n_acc - 32)));

          n_acc -= 32;
          memcpy (bytes + n, &w, 4);
          n += 4;
        }
    }
  if (bad != 0)
    {
      /* (the bytes after where it stops stay 0: a damaged line's number reads from them) */
      memset (bytes, 0, n);
      return bytes_fill_slow (r, chars, n_chars);
    }
  while (n_acc >= 8)
    {
      n_acc -= 8;
      bytes[n++] = (guint8) (acc >> n_acc);
    }
  r->n = n;
  bytes[n] = 0;
  return TRUE;
}

guint
tks_compact_rc_room (const char *line, gsize len)
{
  int g0, g1, g2;

  values_init ();
  if (len < 2 + 6)
    return 0;
  g0 = group_of (line + 2);
  g1 = group_of (line + 4);
  g2 = group_of (line + 6);
  if (g0 < 0 || g1 < 0 || g2 < 0)
    return 0;
  /* bits 24 to 31 of the groups' 39: the entry count */
  return (guint) ((((guint64) g0 << 26) | ((guint64) g1 << 13) | (guint64) g2) >> 7) & 0xFF;
}

/* The next byte of the line, 0 past its end (bytes[n] is 0). The decoder reads 4 bytes
 * ahead: how far it read tells a line whose entries end past its bytes. */
G_ALWAYS_INLINE static inline void
rc_norm (Rc *r)
{
  if (r->range < RC_TOP)
    {
      r->range <<= 8;
      r->code = (r->code << 8) | r->bytes[MIN (r->pos, r->n)];
      r->pos++;
    }
}

/* A bit with the probability (of a 0, out of 2048) at @p, which then learns it; @fast: counter
 * coder 4, where it learns fast from its first bits (the number seen in the top 4 bits). The
 * callers give @fast as a constant: each coder gets its own code, without a test per bit. */
G_ALWAYS_INLINE static inline guint
rc_bit (Rc *r, guint16 *p, gboolean fast)
{
  guint32 q = fast ? *p & 0x0FFFu : *p, seen = *p >> 12;
  guint32 bound = (r->range >> 11) * q, shift = RC_SHIFT_MAX;
  guint bit = r->code >= bound;

  if (fast)
    {
      shift = MIN (seen + 1, (guint32) RC_SHIFT_MAX);
      seen = MIN (seen + 1, 15u);
    }
  if (bit == 0)
    {
      r->range = bound;
      q += (2048u - q) >> shift;
    }
  else
    {
      r->code -= bound;
      r->range -= bound;
      q -= q >> shift;
    }
  *p = (guint16) (fast ? q | seen << 12 : q);
  rc_norm (r);
  return bit;
}

G_ALWAYS_INLINE static inline guint32
rc_direct (Rc *r, guint n)
{
  guint32 v = 0;

  while (n-- > 0)
    {
      guint32 bit;

      r->range >>= 1;
      bit = r->code >= r->range;
      r->code -= r->range & -bit;
      v = (v << 1) | bit;
      rc_norm (r);
    }
  return v;
}

/* The value of an exp-Golomb code of order @k whose @n bits below its leading one are @w; a
 * value past 32 bits reads as damage. */
G_ALWAYS_INLINE static inline guint32
rc_eg_value (Rc *r, guint64 w, guint n, guint k)
{
  w |= (guint64) 1 << n;
  w -= (guint64) 1 << k;
  if (w > G_MAXUINT32)
    {
      r->bad = TRUE;
      return 0;
    }
  return (guint32) w;
}

/* An exp-Golomb code of order @k after @zeros zeros, of more than 32 bits below its leading
 * one (only a damaged line has one). */
G_NO_INLINE static guint32
rc_eg_long (Rc *r, guint zeros, guint k)
{
  guint n = zeros + k;
  guint64 w = rc_direct (r, n - 32);

  w = (w << 32) | rc_direct (r, 32);
  return rc_eg_value (r, w, n, k);
}

/* Calls @call on a copy of @r (of the loops over the entries, which hold it in registers) and
 * takes the copy's state back: only the copy goes to memory, on the way to a function that
 * is not inlined. */
#define rc_spill(r, call) \
  G_STMT_START { Rc spilled_ = *(r); Rc *r_ = &spilled_; call; *(r) = spilled_; } G_STMT_END

/* Exp-Golomb of order @k, its prefix with the @n probabilities at @p (as the board's
 * tu_z_eg()); a value past 32 bits reads as damage. Small values of order 0 (the ranks and
 * steps) are read here, the others by rc_eg_long(). */
G_ALWAYS_INLINE static inline guint32
rc_eg_fast (Rc *r, guint16 *p, guint n, guint k, gboolean fast)
{
  guint zeros = 0;

  for (; zeros < n; zeros++)
    if (rc_bit (r, &p[zeros], fast))
      goto prefix_read;
  while (rc_direct (r, 1) == 0)
    if (++zeros > 32)
      {
        r->bad = TRUE;
        return 0;
      }
prefix_read:
  if (k == 0 && zeros <= 8)
    return ((1u << zeros) | rc_direct (r, zeros)) - 1;
  if (zeros + k <= 32)
    return rc_eg_value (r, rc_direct (r, zeros + k), zeros + k, k);
  {
    guint32 v;

    rc_spill (r, v = rc_eg_long (r_, zeros, k));
    return v;
  }
}

/* rc_eg_fast() where speed does not matter. */
G_NO_INLINE static guint32
rc_eg (Rc *r, guint16 *p, guint n, guint k)
{
  return r->fast ? rc_eg_fast (r, p, n, k, TRUE) : rc_eg_fast (r, p, n, k, FALSE);
}

/* The symbol at the position read, which is then counted and moves up its list. */
G_ALWAYS_INLINE static inline guint
rc_symbol (Rc *r, guint16 *p, guint n, guint8 *list, guint8 *counts, guint8 *first, guint size,
           gboolean fast)
{
  guint pos = rc_eg_fast (r, p, n, 0, fast);

  if (pos >= size)
    {
      r->bad = TRUE;
      return 0;
    }
  return tks_compact_take_symbol (list, counts, first, pos);
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

static inline guint32
unzigzag (guint32 off)
{
  return (off & 1) ? (guint32) (-(gint32) (off >> 1) - 1) : off >> 1;
}

/* The counter, as the board's tu_z_stamp(). */
G_ALWAYS_INLINE static inline guint32
rc_stamp (const TksCompactDecoder *self, Rc *r, State *z, guint32 dt, guint kind, gboolean fast)
{
  guint pair = z->prev * CLASSES + MIN (kind, CLASSES - 1);
  guint8 *slot = dt != 0 ? &z->firsts[MIN (kind, CLASSES - 1)] : &z->orders[pair];
  gboolean learnt = *slot != UNSEEN;
  guint16 *p = &z->probs[P_CNT + (dt == 0 ? 0 : P_CNT_N)];
  gboolean whole = z->grain > 1 && rc_bit (r, &z->probs[P_GRAIN], fast) == 0;
  guint32 off, step, top = 0;

  off = rc_eg_fast (r, p, P_CNT_N, learnt ? *slot : order_of (z->mean), fast);
  step = whole ? unzigzag (off) * z->grain : unzigzag (off);

  if (!learnt)
    z->mean = z->mean - (z->mean >> 3) + MIN (off, 0x0FFFFFFFu);
  if (dt != 0)
    {
      z->anchor += dt * self->cycles_per_tick;
      z->counter = z->anchor + step;
      if (off & 1)
        z->anchor = z->counter;
    }
  else
    z->counter += step;
  for (guint32 v = MIN (off, 0x0FFFFFFFu); v > 1; v >>= 1)
    top++;
  *slot = (guint8) (learnt ? (*slot + top + 1) / 2 : top);
  z->prev = (guint8) MIN (kind, CLASSES - 1);
  return z->counter;
}

G_ALWAYS_INLINE static inline guint
rc_kind (Rc *r, State *z, gboolean fast)
{
  guint node = 1;

  for (guint i = 0; i < 3; i++)
    node = node * 2 + rc_bit (r, &z->probs[P_KIND + z->pk * 8 + node], fast);
  z->pk = (guint8) (node - 8);
  return node - 8;
}

/* What and who of an entry that is not a switch from the running thread. */
G_ALWAYS_INLINE static inline void
rc_other (Rc *r, State *z, TksEntry *e, guint32 *out, guint32 *in, guint *kind,
          gboolean *is_switch, gboolean *is_exit, gboolean fast)
{
  switch (rc_kind (r, z, fast))
    {
    case 0:
      *is_switch = TRUE;
      *out = rc_direct (r, 6);
      *in = tks_compact_mtf_move (z, rc_eg_fast (r, &z->probs[P_RANK], 8, 0, fast), 0);
      break;
    case 1:
      *is_exit = TRUE;
      *out = *in = rc_direct (r, 6);
      break;
    case 2:
      *kind = TKS_ENTRY_IRQ_ENTER;
      if (fast && rc_bit (r, &z->probs[P_ID], fast) == 1)
        {
          guint node = 1;

          while (node < 32)
            node = node * 2 + rc_bit (r, &z->probs[P_ID + node], fast);
          e->a = node - 32;
        }
      else
        e->a = rc_eg_fast (r, NULL, 0, 0, fast) + (fast ? 32 : 0);
      break;
    case 3:
      *kind = TKS_ENTRY_IRQ_LEAVE;
      break;
    case 4:
      switch (rc_direct (r, 2))
        {
        case 0: *kind = TKS_ENTRY_SLEEP; break;
        case 1: *kind = TKS_ENTRY_WAKE; break;
        case 2: *kind = TKS_ENTRY_TRIGGER; break;
        default: r->bad = TRUE; break;
        }
      break;
    case 5:
      *kind = TKS_ENTRY_READY;
      e->a = tks_compact_mtf_move (z, rc_eg_fast (r, &z->probs[P_RANK], 8, 0, fast), 1);
      break;
    case 6:
      *kind = TKS_ENTRY_MARKER;
      e->a = rc_eg_fast (r, NULL, 0, 0, fast);
      e->b = rc_eg_fast (r, NULL, 0, 4, fast);
      break;
    default:
      if (rc_direct (r, 1) == 0)
        {
          *kind = TKS_ENTRY_BEGIN;
          e->a = rc_eg_fast (r, NULL, 0, 0, fast) & 0xFF;
          e->a |= (rc_eg_fast (r, NULL, 0, 0, fast) & 0xFF) << 8;
        }
      else
        {
          *kind = TKS_ENTRY_END;
          e->a = rc_eg_fast (r, NULL, 0, 0, fast) & 0xFF;
        }
      break;
    }
}

/* The fields of the state every entry reads and writes, held in registers over a line's
 * loop (in the state, a store to one of its lists could change them, as far as the compiler
 * knows), and the decoder's tick mask. */
typedef struct
{
  guint32 tick;
  guint32 mask;
  guint   cur;
  guint   hit_who;
  guint   hit_when;
  guint   pk;
} Hot;

static inline void
hot_load (Hot *h, const TksCompactDecoder *self, const State *z)
{
  h->tick = z->tick;
  h->mask = self->time_mask;
  h->cur = z->cur;
  h->hit_who = z->hit_who;
  h->hit_when = z->hit_when;
  h->pk = z->pk;
}

static inline void
hot_store (const Hot *h, State *z)
{
  z->tick = h->tick;
  z->cur = (guint8) h->cur;
  z->hit_who = (guint8) h->hit_who;
  z->hit_when = (guint8) h->hit_when;
  z->pk = (guint8) h->pk;
}

G_NO_INLINE static void
rc_other_fast (Rc *r, State *z, TksEntry *e, guint32 *out, guint32 *in, guint *kind,
               gboolean *is_switch, gboolean *is_exit)
{
  rc_other (r, z, e, out, in, kind, is_switch, is_exit, TRUE);
}

G_NO_INLINE static void
rc_other_plain (Rc *r, State *z, TksEntry *e, guint32 *out, guint32 *in, guint *kind,
                gboolean *is_switch, gboolean *is_exit)
{
  rc_other (r, z, e, out, in, kind, is_switch, is_exit, FALSE);
}

/* rc_other() from a loop over the entries, which holds @r, @e and the rest in registers. */
G_ALWAYS_INLINE static inline void
rc_other_spill (Rc *r, State *z, Hot *h, TksEntry *e, guint32 *out, guint32 *in, guint *kind,
                gboolean *is_switch, gboolean *is_exit, gboolean fast)
{
  TksEntry e_ = *e;
  guint32 out_ = *out, in_ = *in;
  guint kind_ = *kind;
  gboolean is_switch_ = *is_switch, is_exit_ = *is_exit;

  z->pk = (guint8) h->pk;
  if (fast)
    rc_spill (r, rc_other_fast (r_, z, &e_, &out_, &in_, &kind_, &is_switch_, &is_exit_));
  else
    rc_spill (r, rc_other_plain (r_, z, &e_, &out_, &in_, &kind_, &is_switch_, &is_exit_));
  h->pk = z->pk;
  *e = e_;
  *out = out_;
  *in = in_;
  *kind = kind_;
  *is_switch = is_switch_;
  *is_exit = is_exit_;
}

/* The rank of thread @number in the move-to-front list. */
static guint
mtf_rank (const State *z, guint number)
{
  const guint64 ones = G_GUINT64_CONSTANT (0x0101010101010101);

  /* 8 places at a time: the first byte of the word equal to @number */
  for (guint r = 0; r < 64; r += 8)
    {
      guint64 w;

      memcpy (&w, z->mtf + r, 8);
      w = GUINT64_FROM_LE (w) ^ (ones * number);
      w = (w - ones) & ~w & (ones << 7);
      if (w != 0)
        return MIN (r + (guint) __builtin_ctzll (w) / 8, 63u);
    }
  return 63;
}

/* The tick's step of an entry of in-thread, exit or kind @key. */
G_ALWAYS_INLINE static inline guint32
rc_when (Rc *r, State *z, Hot *h, guint key, gboolean fast)
{
  guint32 dt;

  if (z->last[key] != 0xFFFF)
    {
      guint hit = rc_bit (r, &z->probs[P_WHEN + h->hit_when], fast);

      h->hit_when = hit;
      if (hit)
        return z->last[key];
    }
  dt = rc_symbol (r, &z->probs[P_STEP], 6, z->steps, z->step_counts, z->step_first, STEPS,
                  fast);
  if (dt == STEPS - 1)
    {
      guint32 big;

      rc_spill (r, big = rc_eg (r_, &z->probs[P_BIG], 8, 0));
      dt += big;
    }
  z->last[key] = (guint16) MIN (dt, 0xFFFFu);
  return dt;
}

/* A switch from the running thread, to its successor or to the thread a head symbol ranks:
 * TRUE with @out and @in, FALSE for the head symbol 0 (another kind of entry). */
G_ALWAYS_INLINE static inline gboolean
rc_from_cur (Rc *r, State *z, Hot *h, guint32 *out, guint32 *in, gboolean fast)
{
  guint hit = 0, head;
  guint succ = z->succ[h->cur];

  if (succ != NONE)
    {
      hit = rc_bit (r, &z->probs[P_WHO + h->hit_who], fast);
      h->hit_who = hit;
    }
  if (hit)
    {
      *in = succ;
      tks_compact_mtf_move (z, mtf_rank (z, *in), 0);
    }
  else
    {
      head = rc_symbol (r, &z->probs[P_HEAD], 8, z->heads, z->head_counts, z->head_first,
                        HEADS, fast);
      if (head == 0)
        return FALSE;
      *in = tks_compact_mtf_move (z, head, 0);
    }
  h->pk = 8;
  *out = h->cur;
  return TRUE;
}

G_ALWAYS_INLINE static inline gboolean
rc_entry (const TksCompactDecoder *self, Rc *r, State *z, Hot *h, TksEntry *e, gboolean fast,
          gboolean counter)
{
  guint32 out = 0, in = 0, tick, dt;
  guint kind = 0;
  gboolean is_switch = FALSE, is_exit = FALSE;

  e->counter = 0;
  e->a = 0;
  e->b = 0;
  /* Who: with counter coder 4, whether the entry is a switch from the running thread (else
   * its kind follows); then the running thread's successor, or a head symbol. */
  if (fast && rc_bit (r, &z->probs[P_CUR + MIN (h->pk, 8)], TRUE) == 0)
    rc_other_spill (r, z, h, e, &out, &in, &kind, &is_switch, &is_exit, fast);
  else if (rc_from_cur (r, z, h, &out, &in, fast))
    is_switch = TRUE;
  else if (fast)
    r->bad = TRUE;   /* (a switch from the running thread was announced) */
  else
    rc_other_spill (r, z, h, e, &out, &in, &kind, &is_switch, &is_exit, fast);
  if (is_switch && out == in)
    r->bad = TRUE;   /* (the board codes no such switch) */
  if (is_switch)
    {
      z->succ[out] = (guint8) in;
      h->cur = in;
    }
  else if (is_exit)
    h->cur = 0;

  /* When: the last step of the same in-thread, exit or kind, or a step symbol. */
  dt = rc_when (r, z, h, is_switch ? in : is_exit ? 64 : 65 + (kind < 10 ? kind : 0), fast);
  tick = (h->tick + dt) & h->mask;
  if (counter)
    e->counter = rc_stamp (self, r, z, dt, is_switch ? 0 : is_exit ? 1 : kind + 1, fast);
  h->tick = tick;

  if (is_switch || is_exit)
    e->record = (tick << 12) | (out << 6) | in;
  else if (kind == TKS_ENTRY_IRQ_ENTER && e->a < 31)
    e->record = (tick << 12) | (EVENT_MARK << 6) | (IRQ_SHORT + e->a);
  else
    e->record = (tick << 12) | (EVENT_MARK << 6) | kind;
  e->kind = kind;
  return !r->bad;
}

/* The line's @n_entries entries, each coder with its own code: how many decoded whole. */
G_ALWAYS_INLINE static inline guint
rc_entries (const TksCompactDecoder *self, Rc *r, State *z, TksEntry *entries, guint n_entries,
            gboolean fast)
{
  Rc l = *r;
  Hot h;
  gboolean counter = self->counter_hz != 0;
  guint n = 0;

  hot_load (&h, self, z);
  while (n < n_entries && !l.bad && rc_entry (self, &l, z, &h, &entries[n], fast, counter))
    n++;
  hot_store (&h, z);
  *r = l;
  return n;
}

G_NO_INLINE static guint
rc_entries_fast (const TksCompactDecoder *self, Rc *r, State *z, TksEntry *entries,
                 guint n_entries)
{
  return rc_entries (self, r, z, entries, n_entries, TRUE);
}

G_NO_INLINE static guint
rc_entries_plain (const TksCompactDecoder *self, Rc *r, State *z, TksEntry *entries,
                  guint n_entries)
{
  return rc_entries (self, r, z, entries, n_entries, FALSE);
}

/* rc_entries() of a line of switches without the counter, each as the record its line
 * would read, straight into @records. */
G_NO_INLINE static guint
rc_entries_records (const TksCompactDecoder *self, Rc *r, State *z, TksRecord *records,
                    guint n_entries)
{
  Rc l = *r;
  Hot h;
  TksEntry e;
  guint n = 0;

  g_assert (self->counter_hz == 0);
  hot_load (&h, self, z);
  while (n < n_entries && !l.bad && rc_entry (self, &l, z, &h, &e, FALSE, FALSE))
    {
      records[n].tick = e.record >> 12;
      records[n].out = (guint8) ((e.record >> 6) & 0x3F);
      records[n].in = (guint8) (e.record & 0x3F);
      records[n].flags = 0;
      n++;
    }
  hot_store (&h, z);
  *r = l;
  return n;
}

/* The line's layout and checksum: OK when both are right, with its number and checksum in
 * @out and its bytes in @r. */
static TksCompactStatus
rc_line_check (const char *line, gsize len, TksCompactLine *out, Rc *r)
{
  guint32 hash = TKS_HASH_START, check;
  int c0, c1;

  /* "Z~", pairs of characters, 4 characters of checksum. A line of another length was cut
   * short or run into another on the way: damaged, its number read from its start. */
  if (len < 2 + 8 + 4 || len > 2 + RC_MAX_CHARS + 4 || (len - 2 - 4) % 2 != 0)
    {
      gsize start = MIN (len - 2, (gsize) RC_MAX_CHARS) & ~(gsize) 1;

      if (len < 2 + 8 || !bytes_fill (r, line + 2, start) || r->n < 4)
        return TKS_COMPACT_LINE_NOT_COMPACT;
      out->seq = ((guint32) r->bytes[0] << 16 | (guint32) r->bytes[1] << 8 | r->bytes[2]) & SEQ_MASK;
      return TKS_COMPACT_LINE_DAMAGED;
    }
  for (gsize i = 0; i < len - 4; i++)
    hash = tks_hash_byte (hash, (guint8) line[i]);
  hash = (hash >> 24) ^ (hash & 0xFFFFFFu);
  c0 = group_of (line + len - 4);
  c1 = group_of (line + len - 2);
  check = c0 < 0 || c1 < 0 ? ~hash : ((guint32) c0 << 13) | (guint32) c1;
  if (!bytes_fill (r, line + 2, len - 2 - 4) || r->n < 4)
    check = ~hash;
  out->seq = ((guint32) r->bytes[0] << 16 | (guint32) r->bytes[1] << 8 | r->bytes[2]) & SEQ_MASK;
  if (hash != check)
    return TKS_COMPACT_LINE_DAMAGED;
  out->check = check;
  return TKS_COMPACT_LINE_OK;
}

/* A line's entries into @entries, or with @records, without the counter, as records. */
static void
rc_decode (const TksCompactDecoder *self,
           const char              *line,
           gsize                    len,
           TksCompactLine          *out,
           TksEntry                *entries,
           TksRecord               *records)
{
  guint8 bytes[RC_BYTES];
  Rc r;
  State z;
  guint n_entries, n = 0;

  values_init ();
  r.bytes = bytes;
  r.code = 0;
  r.bad = FALSE;
  memset (r.bytes, 0, 4);   /* (the number of a line cut short reads from them) */
  out->status = rc_line_check (line, len, out, &r);
  if (out->status != TKS_COMPACT_LINE_OK)
    return;
  n_entries = r.bytes[3];

  /* The range decoder, on the bytes after the count; then the key frame. */
  r.pos = 4;
  r.range = 0xFFFFFFFFu;
  r.fast = self->coder >= 4 && self->counter_hz != 0;
  for (guint i = 0; i < 4; i++, r.pos++)
    r.code = (r.code << 8) | r.bytes[MIN (r.pos, r.n)];
  memset (&z, 0, sizeof z);
  z.tick = rc_direct (&r, 20);
  if (z.tick > self->time_mask || r.bytes[0] > (SEQ_MASK >> 16))
    r.bad = TRUE;
  if (self->counter_hz != 0)
    {
      guint k;

      z.counter = rc_direct (&r, 32);
      k = rc_direct (&r, 5);
      z.mean = 8u << MIN (k, 28u);
      z.grain = rc_eg (&r, NULL, 0, 0) + 1;
      if (z.grain > 0xFFFF)
        r.bad = TRUE;
    }
  z.cur = (guint8) rc_direct (&r, 6);
  tks_compact_state_reset (&z);
  memset (z.succ, NONE, sizeof z.succ);
  memset (z.last, 0xFF, sizeof z.last);
  for (guint i = 0; i < RC_PROBS; i++)
    z.probs[i] = 1024;
  z.pk = 8;
  if (r.bad)
    ;
  else if (records != NULL)
    n = rc_entries_records (self, &r, &z, records, n_entries);
  else
    n = r.fast ? rc_entries_fast (self, &r, &z, entries, n_entries)
               : rc_entries_plain (self, &r, &z, entries, n_entries);
  if (r.bad || n != n_entries || r.pos > r.n + 4)
    /* The checksum matched but the bytes do not make whole entries: a board that encodes
     * otherwise, or a forged line. */
    out->status = TKS_COMPACT_LINE_UNDECODABLE;
  else
    {
      out->status = TKS_COMPACT_LINE_OK;
      out->n_entries = n;
    }
}

void
tks_compact_rc_decode (const TksCompactDecoder *self,
                       const char              *line,
                       gsize                    len,
                       TksCompactLine          *out,
                       TksEntry                *entries)
{
  rc_decode (self, line, len, out, entries, NULL);
}

gboolean
tks_compact_rc_decode_records (const TksCompactDecoder *self,
                               const char              *line,
                               gsize                    len,
                               TksCompactLine          *out,
                               TksRecord               *records,
                               guint                    room)
{
  if (!tks_compact_is_rc_line (line, len) || self->counter_hz != 0 ||
      tks_compact_rc_room (line, len) > room)
    return FALSE;
  out->seq = 0;
  out->check = 0;
  out->n_entries = 0;
  rc_decode (self, line, len, out, NULL, records);
  return TRUE;
}

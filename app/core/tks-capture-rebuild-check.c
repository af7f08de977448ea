/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rebuild's step 2a: the records that break the order of time or repeat a line are
 * dropped, the tick counter's width and wraps are learnt (docs/rebuild.md). */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "tks-capture-rebuild-private.h"

static inline gboolean
records_repeat (const TksRecord *a,
                const TksRecord *b)
{
  return a->tick == b->tick && a->out == b->out && a->in == b->in && !record_is_exit (a);
}

/* The first hole of the log after record @a (rb->gaps is sorted by index). */
static guint
first_hole_after (const Rebuild *rb,
                  guint          a)
{
  guint lo = 0, hi = rb->n_gaps;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (rb->gaps[mid].index <= a)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* Whether a hole of the log lies after record @a and at or before record @b: the same switch
 * on both sides of it is no repeated line. */
static gboolean
hole_between (const Rebuild *rb,
              guint          a,
              guint          b)
{
  guint g = first_hole_after (rb, a);

  return g < rb->n_gaps && rb->gaps[g].index <= b;
}

/* How long the holes after record @a and at or before record @b lasted, in ticks. */
static gint64
holes_length (const Rebuild *rb,
              guint          a,
              guint          b)
{
  gint64 length = 0;

  for (guint g = first_hole_after (rb, a); g < rb->n_gaps && rb->gaps[g].index <= b; g++)
    length += ((gint64) rb->gaps[g].end - (gint64) rb->gaps[g].begin) & (rb->full_period - 1);
  return length;
}

/* A record kept so far by tks_rebuild_check_records(), with the wrap count its tick was read in. */
typedef struct
{
  guint32 index;
  guint32 epoch;
} KeptRecord;

/* The records kept so far, last on top, as stretches of records that follow each other in the
 * log with the same wrap count: a log that reads well is one stretch per wrap, whatever its
 * length (a damaged one at most one per two records). */
typedef struct
{
  guint32 first;
  guint32 len;
  guint32 epoch;
} KeptStretch;

typedef struct
{
  KeptStretch *stretches;
  guint        n;
  guint        room;
} KeptStack;

static inline void
kept_push (KeptStack *kept,
           guint32    index,
           guint32    epoch)
{
  KeptStretch *top = kept->n > 0 ? &kept->stretches[kept->n - 1] : NULL;

  if (top != NULL && top->first + top->len == index && top->epoch == epoch)
    {
      top->len++;
      return;
    }
  if (kept->n == kept->room)
    {
      kept->room = MAX (2 * kept->room, 64);
      kept->stretches = g_renew (KeptStretch, kept->stretches, kept->room);
    }
  kept->stretches[kept->n++] = (KeptStretch) { index, 1, epoch };
}

static inline void
kept_pop (KeptStack *kept)
{
  if (--kept->stretches[kept->n - 1].len == 0)
    kept->n--;
}

/* The record @depth below the top (0: the top), FALSE when there are not that many. */
static inline gboolean
kept_get (const KeptStack *kept,
          guint            depth,
          KeptRecord      *out)
{
  for (guint s = kept->n; s > 0; s--)
    {
      const KeptStretch *st = &kept->stretches[s - 1];

      if (depth < st->len)
        {
          out->index = st->first + st->len - 1 - depth;
          out->epoch = st->epoch;
          return TRUE;
        }
      depth -= st->len;
    }
  return FALSE;
}

/* The unwrapped time of the heartbeats before record @i (from @beat on, @at: the unwrapped
 * time of the last record kept or heartbeat, -1 when none), each less than half a wrap after
 * the one before: the time of the last. @beat moves past them. A heartbeat that lies more than
 * half a wrap after the time reached is behind it (a board that read its time before it sent
 * the entries its log still held, or a damaged line): it tells nothing and is passed over. */
static gint64
rebuild_pass_beats (Rebuild *rb,
                    guint    i,
                    guint   *beat,
                    gint64   at)
{
  const GArray *beats = rb->parsed->beats;
  gint64 period = rb->period;

  for (; *beat < beats->len && g_array_index (beats, TksParsedBeat, *beat).index <= i; (*beat)++)
    {
      gint64 t = g_array_index (beats, TksParsedBeat, *beat).tick & (period - 1);

      gint64 step = at < 0 ? 0 : ((t - at % period) % period + period) % period;

      if (at < 0)
        at = t;
      else if (step < period / 2)
        at += step;
    }
  return at;
}

/* The record tick's period. A board's record tick has the bits its header says (20 when it
 * does not say). A few wider ticks among them are garbled digits: they are skipped, rather
 * than taking the whole log for a 32-bit one, in which every later wrap of the tick would
 * look like time going backwards. A log of mostly wider ticks, of a board that does not say,
 * is read as a 32-bit one. */
static gint64
check_period (Rebuild   *rb,
              TksRecord *r,
              guint      n)
{
  guint bits = tks_parsed_tick_bits (rb->parsed);
  gint64 narrow = (gint64) 1 << bits;
  guint n_wide = 0;
  gint64 period;

  for (guint i = 0; i < n; i++)
    n_wide += (gint64) r[i].tick >= narrow;
  period = n_wide == 0 || n_wide < n - n_wide || rb->parsed->tick_bits != 0
           ? narrow : (gint64) 1 << 32;
  if (period == narrow)
    for (guint i = 0; i < n && n_wide > 0; i++)
      if ((gint64) r[i].tick >= narrow)
        {
          r[i].flags |= TKS_RECORD_DROPPED;
          tks_rebuild_warn (rb, _("line %u: warning: log line with a tick wider than the "
                                  "board's %u bits skipped"),
                            tks_parsed_record_line (rb->parsed, i), bits);
          n_wide--;
        }
  return period;
}

/* Heartbeats before record @i (from *@beat on, moved past them): it lies less than half a
 * wrap after the last of them. When that is more wraps after the last record kept (@n_top of
 * them: @prev_index, read in wrap @prev_epoch) than the rule of a smaller tick gives, the
 * wraps are noted, and *@epoch and *@u (its unwrapped tick) move on. */
static inline void
check_after_beats (Rebuild         *rb,
                   const TksRecord *r,
                   guint            i,
                   guint           *beat,
                   guint            n_top,
                   guint32          prev_index,
                   guint32          prev_epoch,
                   guint32         *epoch,
                   gint64          *u)
{
  gint64 period = rb->period;
  gint64 prev_u = (gint64) prev_epoch * period + r[prev_index].tick;
  gint64 at = rebuild_pass_beats (rb, i, beat, n_top > 0 ? prev_u : -1);
  gint64 target = at + (((gint64) r[i].tick - at % period) % period + period) % period;
  gint64 by_rule = n_top > 0 ? prev_epoch + (r[i].tick < r[prev_index].tick) : 0;

  if (n_top > 0 && target / period > by_rule)
    {
      TksJump jump = { i, (guint32) (target / period - by_rule) };

      g_array_append_val (rb->jumps, jump);
      *epoch = (guint32) (target / period);
      *u = target;
    }
}

/* Step 2a: drop records that break the order of time (garbled ticks) or repeat a line, learn
 * the tick counter's width, and count the exits among the records kept.
 *
 * Every decision depends only on the records kept before it, never on dropped ones: a record
 * found to be the odd one out after it was kept is taken back with the wrap it caused, as if
 * it had never been read. So the records kept pass these checks again unchanged, and a saved
 * capture (which holds only them) reloads the same. */
void
tks_rebuild_check_records (Rebuild *rb)
{
  GArray *records = rb->parsed->records;
  TksRecord *r = (TksRecord *) (gpointer) records->data;
  guint n = records->len;
  KeptStack kept = { NULL, 0, 0 };
  /* The last two kept (held apart, so that they stay in registers) */
  guint32 prev_index = 0, prev_epoch = 0, prev2_index = 0, prev2_epoch = 0;
  guint n_top = 0;
  guint32 epoch = 0;
  gint64 period;
  guint n_exits = 0;
  guint bits = tks_parsed_tick_bits (rb->parsed);
  guint beat = 0;

  period = check_period (rb, r, n);
  rb->period = period;
  /* The full ticks (trigger, holes) are the system time: 32 bits of it, or all of a narrower
   * one (a 16-bit system time is the record tick itself). */
  rb->full_period = bits < 20 ? period : (gint64) 1 << 32;
  /* (by index: a record gets wraps once, when it is first read) */
  rb->jumps = g_array_new (FALSE, FALSE, sizeof (TksJump));

#define KEPT_U(which) ((gint64) which##_epoch * period + r[which##_index].tick)

  for (guint i = 0; i < n; i++)
    {
      gint64 u = (gint64) epoch * period + r[i].tick;

      if (r[i].flags & TKS_RECORD_DROPPED)
        continue;
      if (n_top > 0 && records_repeat (&r[i], &r[prev_index]) && !hole_between (rb, prev_index, i))
        {
          r[i].flags |= TKS_RECORD_DROPPED;
          tks_rebuild_warn (rb, _("line %u: warning: repeated log line skipped"),
                            tks_parsed_record_line (rb->parsed, i));
          continue;
        }

      if (beat < rb->parsed->beats->len &&
          g_array_index (rb->parsed->beats, TksParsedBeat, beat).index <= i)
        check_after_beats (rb, r, i, &beat, n_top, prev_index, prev_epoch, &epoch, &u);

      if (n_top > 0 && u < KEPT_U (prev))
        {
          if (hole_between (rb, prev_index, i) &&
              u + period - KEPT_U (prev) <= holes_length (rb, prev_index, i) + period / 4)
            {
              /* Time went on through the hole, for as long as it lasted: a smaller tick after
               * it that the hole's length accounts for is a wrap, even past half a round. */
              epoch++;
              u += period;
            }
          else if (n_top > 1 && u >= KEPT_U (prev2) && u - KEPT_U (prev2) < period / 4)
            {
              KeptRecord below = { 0, 0 };

              /* The previous record was the odd one out (a garbled tick): take it back, with
               * any wrap it made, and read this one after the record before it. */
              r[prev_index].flags |= TKS_RECORD_DROPPED;
              n_exits -= record_is_exit (&r[prev_index]);
              tks_rebuild_warn (rb, _("line %u: warning: log line with a tick out of order skipped"),
                                tks_parsed_record_line (rb->parsed, prev_index));
              epoch = prev2_epoch;
              kept_pop (&kept);
              prev_index = prev2_index;
              prev_epoch = prev2_epoch;
              n_top = 1 + kept_get (&kept, 1, &below);
              prev2_index = below.index;
              prev2_epoch = below.epoch;
              i--;
              continue;
            }
          else if (KEPT_U (prev) - u > period / 2)
            {
              epoch++;
              u += period;
            }
          else
            {
              r[i].flags |= TKS_RECORD_DROPPED;
              tks_rebuild_warn (rb, _("line %u: warning: log line with a tick out of order skipped"),
                                tks_parsed_record_line (rb->parsed, i));
              continue;
            }
        }

      kept_push (&kept, i, epoch);
      prev2_index = prev_index;
      prev2_epoch = prev_epoch;
      prev_index = i;
      prev_epoch = epoch;
      n_top = MIN (n_top + 1, 2);
      n_exits += record_is_exit (&r[i]);
    }
#undef KEPT_U
  g_free (kept.stretches);

  rb->n_exits = n_exits;
}

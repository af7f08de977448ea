/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rebuild: the parsed thread lists and log records become threads, runs and marks. */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#ifdef G_OS_UNIX
#include <sys/mman.h>
#include <unistd.h>
#endif

#include "tks-capture-private.h"
#include "tks-events-private.h"

#define MAX_KEPT_WARNINGS 200

/* ------------------------------------------------------------------------------------------ */
/* Rebuild (docs/rebuild.md)                                                                   */

typedef struct
{
  const TksListEntry *entry;   /* NULL for a thread only the log names */
  gboolean            deleted; /* listed under "Deleted threads" */
  int                 deleted_order; /* position in the deleted list, or -1 */
  int                 number;
} ThreadInfo;

/* Pass 1 only counts (n_runs: INs, n_marks: OUTs); pass 2 pairs and fills. */
typedef struct
{
  guint    n_runs;
  guint    n_marks;
  gboolean open;
  gboolean seen;
  double   open_begin;
  double   first_event;
  double   exit_time;
  guint    flags;
  guint    lost_in;            /* an IN while a run was open */
  guint    lost_out;           /* an OUT with no run open, after the first event */
  guint    gaps_before;        /* holes passed at its last event */
  gboolean began_after_gap;    /* its first run began at the end of a hole */
} ThreadState;

typedef struct
{
  TksCapture  *self;
  TksParsed   *parsed;
  GPtrArray   *infos;          /* ThreadInfo*, creation order */
  GArray      *initial;        /* guint: working list when the log starts, last first (so
                                * that thread n, which the log's 8-bit numbers reach, is
                                * WORKING (w, n), near the end of the array: taking it out
                                * moves at most 255 entries, whatever the history holds) */
  ThreadState *states;         /* one per info */
  guint        n_states;       /* room in states */
  guint        n_listed;       /* infos that come from the list */
  guint        synthetic_used; /* pass 2 reuses the threads pass 1 invented, in order */
  gint64       period;
  gint64       full_period;    /* of the full ticks (trigger, holes): 2^32, or the record's */
  guint32     *jumps;          /* by record: wraps a heartbeat before it adds to those its tick
                                * tells (NULL without heartbeats) */
  gint64       base;           /* added to every unwrapped tick */
  gint64       first_tick;     /* unwrapped ticks of the first and last records on the */
  gint64       last_tick;      /* timeline, without the base; -1 when there are none */
  guint        n_ticks;        /* distinct ticks on the timeline */
  GPtrArray   *warnings;
  guint        n_warnings;
  guint        n_exits;        /* exit records on the timeline */
  gint64       last_switch;    /* the last record that is not an exit, -1 when none */
  gboolean     lone_exits;     /* exit records follow it */
  guint        pass;
  TksParsedGap *gaps;          /* the holes that lie between two records, by index */
  guint        n_gaps;
  guint        gaps_passed;    /* holes before the record being replayed */
  /* A dump version 2 (NULL otherwise): */
  double      *fractions;      /* each record's place in its tick, from its entries */
  double      *record_pos;     /* where each record was placed (NAN: dropped) */
  guint       *entry_threads;  /* by entry: the thread a Ready names, a switch switches in */
  guint        next_entry;     /* the first entry pass 2 has not passed */
} Rebuild;

static void
rebuild_warn (Rebuild    *rb,
              const char *format,
              ...) G_GNUC_PRINTF (2, 3);

static void
rebuild_warn (Rebuild    *rb,
              const char *format,
              ...)
{
  va_list args;

  rb->n_warnings++;
  if (rb->warnings->len >= MAX_KEPT_WARNINGS)
    return;
  va_start (args, format);
  g_ptr_array_add (rb->warnings, g_strdup_vprintf (format, args));
  va_end (args);
}

/* Events that cannot have happened as the log has them: one warning for each kind, with the
 * count (they are left out of the handlers' and the sleep's times). */
static void
warn_unmatched (Rebuild   *rb,
                TksEvents *events)
{
  guint n;

  if ((n = tks_events_count_unmatched (events, TKS_UNMATCHED_IRQ_LEAVE)) > 0)
    rebuild_warn (rb, g_dngettext (GETTEXT_PACKAGE,
                                   "warning: %u interrupt handler leave without its enter: "
                                   "impossible, left out of the handlers' times",
                                   "warning: %u interrupt handler leaves without their enter: "
                                   "impossible, left out of the handlers' times", n), n);
  if ((n = tks_events_count_unmatched (events, TKS_UNMATCHED_IRQ_ENTER)) > 0)
    rebuild_warn (rb, g_dngettext (GETTEXT_PACKAGE,
                                   "warning: %u interrupt handler enter without its leave "
                                   "before the next switch: left out of the handlers' times",
                                   "warning: %u interrupt handler enters without their leave "
                                   "before the next switch: left out of the handlers' times",
                                   n), n);
  if ((n = tks_events_count_unmatched (events, TKS_UNMATCHED_WAKE)) > 0)
    rebuild_warn (rb, g_dngettext (GETTEXT_PACKAGE,
                                   "warning: %u CPU wake without a sleep before it: impossible, "
                                   "left out of the sleep time",
                                   "warning: %u CPU wakes without a sleep before them: "
                                   "impossible, left out of the sleep time", n), n);
  if ((n = tks_events_count_unmatched (events, TKS_UNMATCHED_SLEEP)) > 0)
    rebuild_warn (rb, g_dngettext (GETTEXT_PACKAGE,
                                   "warning: %u CPU sleep while asleep: impossible, left out "
                                   "of the sleep time",
                                   "warning: %u CPU sleeps while asleep: impossible, left out "
                                   "of the sleep time", n), n);
}

static const char *
info_name (const ThreadInfo *info)
{
  return info->entry != NULL ? info->entry->name : "?";
}

static inline gboolean record_is_exit (const TksRecord *r);

/* Thread @n (1-based) of a working list, kept last first. */
#define WORKING(w, n) g_array_index ((w), guint, (w)->len - (n))

static void
reverse_infos (GPtrArray *infos)
{
  for (guint a = 0, b = infos->len; a + 1 < b; a++, b--)
    {
      gpointer tmp = infos->pdata[a];

      infos->pdata[a] = infos->pdata[b - 1];
      infos->pdata[b - 1] = tmp;
    }
}

/* The original library remembers the last 64 exited threads, whatever its log holds: with its
 * deleted-thread list full, the log can hold the exits of threads the list has forgotten, the
 * oldest ones. Each of those exit records tells the number the thread had: it goes back at
 * that number, before (older than) the threads the list has, unnamed, so that the threads
 * after it keep their numbers and no thread takes another's name. (With fewer than 64 listed,
 * nothing was forgotten: more exits than listed were read after the list.) */
#define ORIGINAL_MAX_DELETED 64
#define ORIGINAL_MAX_FORGOTTEN 65536

static void
rebuild_forgotten_exits (Rebuild *rb)
{
  const TksRecord *r = (const TksRecord *) (gconstpointer) rb->parsed->records->data;
  guint n = rb->parsed->records->len;
  guint forgotten, found = 0;
  g_autofree guint8 *numbers = NULL;

  if (rb->n_exits <= rb->parsed->deleted->len || rb->parsed->deleted->len < ORIGINAL_MAX_DELETED)
    return;
  forgotten = rb->n_exits - rb->parsed->deleted->len;
  /* Each becomes a lane: a file cannot make more of them than a board's log could hold. */
  forgotten = MIN (forgotten, ORIGINAL_MAX_FORGOTTEN);
  numbers = g_new (guint8, forgotten);
  for (guint i = 0; i < n && found < forgotten; i++)
    if (!(r[i].flags & TKS_RECORD_DROPPED) && record_is_exit (&r[i]))
      numbers[found++] = r[i].out;
  rebuild_warn (rb, g_dngettext (GETTEXT_PACKAGE,
                                 "warning: the log holds %u exit of a thread the deleted-thread "
                                 "list no longer has (the board remembers only the last ones): "
                                 "shown as not in the list",
                                 "warning: the log holds %u exits of threads the deleted-thread "
                                 "list no longer has (the board remembers only the last ones): "
                                 "shown as not in the list", forgotten),
                forgotten);

  for (guint f = found; f > 0; f--)
    {
      ThreadInfo *info = g_new0 (ThreadInfo, 1);

      info->deleted = TRUE;
      info->deleted_order = -1;
      info->number = numbers[f - 1];
      /* The list is still last first here (see rebuild_creation_order). */
      g_ptr_array_insert (rb->infos,
                          rb->infos->len - (MIN (info->number, rb->infos->len + 1) - 1), info);
    }
}

/* Step 1: creation order. The deleted threads go back, last deleted first, at their number.
 * The list is built last first, so that an insertion at number n moves n entries, not the
 * whole list after it: linear in a history of any length. */
static void
rebuild_creation_order (Rebuild *rb)
{
  TksParsed *parsed = rb->parsed;

  for (guint i = 0; i < parsed->live->len; i++)
    {
      const TksListEntry *entry = g_ptr_array_index (parsed->live, i);
      ThreadInfo *info = g_new0 (ThreadInfo, 1);

      info->entry = entry;
      info->deleted_order = -1;
      info->number = entry->number;
      if (entry->number != (int) i + 1)
        rebuild_warn (rb, _("line %u: warning: thread “%s” is listed as number %d at position %u"),
                      entry->line, entry->name, entry->number, i + 1);
      g_ptr_array_add (rb->infos, info);
    }
  reverse_infos (rb->infos);

  for (guint i = parsed->deleted->len; i > 0; i--)
    {
      const TksListEntry *entry = g_ptr_array_index (parsed->deleted, i - 1);
      ThreadInfo *info = g_new0 (ThreadInfo, 1);
      guint at;

      info->entry = entry;
      info->deleted = TRUE;
      info->deleted_order = i - 1;
      info->number = entry->number;
      if (entry->number < 1 || (guint) entry->number > rb->infos->len + 1)
        {
          at = CLAMP (entry->number, 1, (int) rb->infos->len + 1) - 1;
          rebuild_warn (rb, g_dngettext (GETTEXT_PACKAGE,
                                         "line %u: warning: deleted thread “%s” has number %d, "
                                         "but only %u thread was alive then",
                                         "line %u: warning: deleted thread “%s” has number %d, "
                                         "but only %u threads were alive then",
                                         rb->infos->len + 1),
                        entry->line, entry->name, entry->number, rb->infos->len + 1);
        }
      else
        at = entry->number - 1;
      g_ptr_array_insert (rb->infos, rb->infos->len - at, info);
    }
  rebuild_forgotten_exits (rb);
  reverse_infos (rb->infos);
  rb->n_listed = rb->infos->len;
}

static inline gboolean
record_is_exit (const TksRecord *r)
{
  return r->out == r->in && r->out != 0;
}

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

/* A record kept so far by rebuild_check_records(), with the wrap count its tick was read in. */
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

/* Step 2a: drop records that break the order of time (garbled ticks) or repeat a line, learn
 * the tick counter's width, and count the exits among the records kept.
 *
 * Every decision depends only on the records kept before it, never on dropped ones: a record
 * found to be the odd one out after it was kept is taken back with the wrap it caused, as if
 * it had never been read. So the records kept pass these checks again unchanged, and a saved
 * capture (which holds only them) reloads the same. */
static void
rebuild_check_records (Rebuild *rb)
{
  GArray *records = rb->parsed->records;
  TksRecord *r = (TksRecord *) (gpointer) records->data;
  guint n = records->len;
  KeptStack kept = { NULL, 0, 0 };
  /* The last two kept (held apart, so that they stay in registers) */
  guint32 prev_index = 0, prev_epoch = 0, prev2_index = 0, prev2_epoch = 0;
  guint n_top = 0;
  guint32 epoch = 0;
  guint n_wide = 0;
  gint64 period;
  guint n_exits = 0;
  guint bits = tks_parsed_tick_bits (rb->parsed);
  gint64 narrow = (gint64) 1 << bits;
  guint beat = 0;

  /* A board's record tick has the bits its header says (20 when it does not say). A few wider
   * ticks among them are garbled digits: they are skipped, rather than taking the whole log
   * for a 32-bit one, in which every later wrap of the tick would look like time going
   * backwards. A log of mostly wider ticks, of a board that does not say, is read as a 32-bit
   * one. */
  for (guint i = 0; i < n; i++)
    n_wide += (gint64) r[i].tick >= narrow;
  period = n_wide == 0 || n_wide < n - n_wide || rb->parsed->tick_bits != 0
           ? narrow : (gint64) 1 << 32;
  if (period == narrow)
    for (guint i = 0; i < n && n_wide > 0; i++)
      if ((gint64) r[i].tick >= narrow)
        {
          r[i].flags |= TKS_RECORD_DROPPED;
          rebuild_warn (rb, _("line %u: warning: log line with a tick wider than the board's %u "
                          "bits skipped"), tks_parsed_record_line (rb->parsed, i), bits);
          n_wide--;
        }
  rb->period = period;
  /* The full ticks (trigger, holes) are the system time: 32 bits of it, or all of a narrower
   * one (a 16-bit system time is the record tick itself). */
  rb->full_period = bits < 20 ? period : (gint64) 1 << 32;
  if (rb->parsed->beats->len > 0)
    rb->jumps = g_new0 (guint32, MAX (n, 1));

#define KEPT_U(which) ((gint64) which##_epoch * period + r[which##_index].tick)

  for (guint i = 0; i < n; i++)
    {
      gint64 u = (gint64) epoch * period + r[i].tick;

      if (r[i].flags & TKS_RECORD_DROPPED)
        continue;
      if (n_top > 0 && records_repeat (&r[i], &r[prev_index]) && !hole_between (rb, prev_index, i))
        {
          r[i].flags |= TKS_RECORD_DROPPED;
          rebuild_warn (rb, _("line %u: warning: repeated log line skipped"),
                        tks_parsed_record_line (rb->parsed, i));
          continue;
        }

      if (beat < rb->parsed->beats->len &&
          g_array_index (rb->parsed->beats, TksParsedBeat, beat).index <= i)
        {
          /* Heartbeats before it: it lies less than half a wrap after the last of them. */
          gint64 at = rebuild_pass_beats (rb, i, &beat, n_top > 0 ? KEPT_U (prev) : -1);
          gint64 target = at + (((gint64) r[i].tick - at % period) % period + period) % period;
          gint64 by_rule = n_top > 0 ? prev_epoch + (r[i].tick < r[prev_index].tick) : 0;

          if (n_top > 0 && target / period > by_rule)
            {
              rb->jumps[i] = (guint32) (target / period - by_rule);
              epoch = (guint32) (target / period);
              u = target;
            }
        }

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
              rebuild_warn (rb, _("line %u: warning: log line with a tick out of order skipped"),
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
              rebuild_warn (rb, _("line %u: warning: log line with a tick out of order skipped"),
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

static inline void
thread_state_init (ThreadState *st)
{
  *st = (ThreadState) { .first_event = NAN, .exit_time = NAN };
}

/* The log names thread @number, which the list does not have: invent it so that everything
 * the log says about the others stays right. */
static void
rebuild_add_unlisted (Rebuild *rb,
                      GArray  *working,
                      guint    number,
                      guint    record)
{
  if (rb->pass == 1)
    {
      guint line = tks_parsed_record_line (rb->parsed, record);

      if (working->len + 1 == number)
        rebuild_warn (rb, _("line %u: warning: the log names thread %u, which the thread list "
                        "does not have (list and log read at different moments?)"), line, number);
      else
        rebuild_warn (rb, _("line %u: warning: the log names thread %u, but the thread list has "
                        "only %u at that point: threads %u to %u are shown as not in the list"),
                      line, number, working->len, working->len + 1, number);
    }

  while (working->len < number)
    {
      guint index;

      if (rb->pass == 1)
        {
          ThreadInfo *info = g_new0 (ThreadInfo, 1);

          info->deleted_order = -1;
          info->number = working->len + 1;
          index = rb->infos->len;
          g_ptr_array_add (rb->infos, info);
          if (rb->infos->len > rb->n_states)
            {
              /* Threads that exit can be invented again, more than 255 in all. */
              rb->n_states = MAX (2 * rb->n_states, rb->infos->len);
              rb->states = g_renew (ThreadState, rb->states, rb->n_states);
            }
          thread_state_init (&rb->states[index]);
        }
      else
        index = rb->n_listed + rb->synthetic_used++;
      g_array_prepend_val (working, index);
    }
}

/* A hole in the log passed since the thread's last event: a run open then ends where the hole
 * begins (nothing is known of it after). Returns whether a hole passed. */
static inline gboolean
state_cross_gaps (Rebuild     *rb,
                  ThreadState *st,
                  TksRun      *runs)
{
  if (G_LIKELY (st->gaps_before == rb->gaps_passed))
    return FALSE;
  if (st->open)
    {
      /* (A hole among the lone exits after the log's end: the run ends with the log.) */
      double end = MIN (rb->self->gaps[st->gaps_before].begin, rb->self->log_end);

      runs[st->n_runs++] = (TksRun) { st->open_begin, MAX (end, st->open_begin) };
      st->open = FALSE;
    }
  st->gaps_before = rb->gaps_passed;
  return TRUE;
}

static inline void
state_event_logged (Rebuild     *rb,
                    ThreadState *st,
                    int          kind,      /* 0 in, 1 out, 2 exit */
                    double       pos,
                    guint        k,
                    gboolean     at_tick_zero,
                    TksRun      *runs)
{
  TksCapture *self = rb->self;

  if (state_cross_gaps (rb, st, runs) && kind != 0)
    {
      /* Switched out, not in since the hole: it ran from the hole's end (it was switched in
       * during the hole, or was running through it). An exit (held while the board printed)
       * tells nothing of that. */
      if (kind == 1)
        {
          runs[st->n_runs++] = (TksRun) { self->gaps[rb->gaps_passed - 1].end, pos };
          if (!st->seen)
            st->began_after_gap = TRUE;
        }
      return;
    }

  if (kind == 0)
    {
      if (st->open)
        st->lost_in++;
      st->open = TRUE;
      st->open_begin = pos;
      return;
    }

  if (st->open)
    {
      runs[st->n_runs] = (TksRun) { st->open_begin, pos };
      st->n_runs++;
      st->open = FALSE;
    }
  else if (!st->seen && at_tick_zero)
    {
      /* The first thread at boot runs from tick 0 without being switched in; like the
       * original, a run that would be empty lasts one slot of the tick. */
      runs[st->n_runs] = (TksRun) { 0.0, MAX (pos, 1.0 / k) };
      st->n_runs++;
      st->flags |= TKS_THREAD_ASSUMED_START;
    }
  else if (!st->seen && kind == 1 && pos > self->start)
    {
      /* Switched out before it was ever switched in: it was running when the log began.
       * (Not so for an exit: a frozen log still records lone exits.) */
      runs[st->n_runs] = (TksRun) { self->start, pos };
      st->n_runs++;
      st->flags |= TKS_THREAD_RUNNING_AT_START;
    }
  else if (st->seen && kind == 1)
    st->lost_out++;
  /* (An exit after the thread's last switch out was written later: held while the numbers
   * were, as during a recording.) */
}

static inline void
state_event (Rebuild *rb,
             guint    thread,
             int      kind,
             double   pos,
             guint    k,
             gboolean at_tick_zero)
{
  TksCapture *self = rb->self;
  ThreadState *st = &rb->states[thread];

  /* Pass 2: the threads' flags are set, and their arrays sized. */
  if (self->threads[thread].flags & TKS_THREAD_LOGGED)
    state_event_logged (rb, st, kind, pos, k, at_tick_zero,
                        (TksRun *) self->threads[thread].runs);
  else if (kind != 2)
    {
      ((TksMark *) self->threads[thread].marks)[st->n_marks] =
        (TksMark) { pos, kind == 0 ? TKS_MARK_IN : TKS_MARK_OUT, k };
      st->n_marks++;
    }

  if (kind == 2)
    {
      st->exit_time = pos;
      st->flags |= TKS_THREAD_EXITED;
    }
  if (!st->seen)
    {
      st->seen = TRUE;
      st->first_event = (st->flags & TKS_THREAD_RUNNING_AT_START) ? self->start
                        : st->began_after_gap ? self->gaps[rb->gaps_passed - 1].end : pos;
    }
}

/* An exit written after the log's last switch: the log had stopped recording switches, so
 * the thread's run (if it was the one running) ends where the log ends, not at its exit. */
static void
state_lone_exit (Rebuild *rb,
                 guint    thread,
                 double   pos)
{
  TksCapture *self = rb->self;
  ThreadState *st = &rb->states[thread];

  if (self->threads[thread].flags & TKS_THREAD_LOGGED)
    state_cross_gaps (rb, st, (TksRun *) self->threads[thread].runs);
  if (st->open)
    {
      TksRun *runs = (TksRun *) self->threads[thread].runs;

      runs[st->n_runs++] = (TksRun) { st->open_begin, self->log_end };
      st->open = FALSE;
      st->flags |= TKS_THREAD_RUNNING_AT_END;
    }
  st->exit_time = pos;
  st->flags |= TKS_THREAD_EXITED | TKS_THREAD_EXITED_AFTER_LOG_END;
  if (!st->seen)
    {
      st->seen = TRUE;
      st->first_event = pos;
    }
  self->n_exits_after_log_end++;
}

/* The input line of the record being replayed, for warnings (worked out only for them). */
#define LINE tks_parsed_record_line (rb->parsed, i)
#define NO_THREAD G_MAXUINT

/* Step 2b, one record of the log (record @i), the same in both passes: keeps the working list
 * and finds the threads the record switches out and in (NO_THREAD for none), as indices into
 * rb->infos. Pass 1 warns. Returns TRUE for an exit: @out exits. */
static gboolean
rebuild_step_any (Rebuild         *rb,
                  GArray          *working,
                  const TksRecord *rec,
                  guint            i,
                  int             *next_deleted,
                  guint           *out,
                  guint           *in)
{
  *out = NO_THREAD;
  *in = NO_THREAD;

  if (record_is_exit (rec))
    {
      ThreadInfo *info;

      if (rec->out > working->len)
        {
          if (rb->pass == 1)
            rebuild_warn (rb, g_dngettext (GETTEXT_PACKAGE,
                                           "line %u: warning: exit of thread %u, but only %u "
                                           "thread exists at that point: record skipped",
                                           "line %u: warning: exit of thread %u, but only %u "
                                           "threads exist at that point: record skipped",
                                           working->len),
                          LINE, rec->out, working->len);
          return FALSE;
        }
      *out = WORKING (working, rec->out);
      info = g_ptr_array_index (rb->infos, *out);
      if (rb->pass == 1)
        {
          if (info->entry != NULL && !info->deleted)
            rebuild_warn (rb, _("line %u: warning: thread “%s” exits here, but the thread "
                            "list shows it alive (it was read before this exit)"), LINE,
                          info_name (info));
          else if (info->deleted && info->deleted_order >= 0
                   && info->deleted_order != *next_deleted)
            rebuild_warn (rb, _("line %u: warning: thread number %u exits here as “%s”, "
                            "out of the order of the deleted-thread list"), LINE, rec->out,
                          info_name (info));
        }
      if (info->deleted)
        *next_deleted = info->deleted_order + 1;
      g_array_remove_index (working, working->len - rec->out);
      return TRUE;
    }

  if (rec->out != 0)
    {
      if (rec->out > working->len)
        rebuild_add_unlisted (rb, working, rec->out, i);
      *out = WORKING (working, rec->out);
    }
  if (rec->in == 0)
    {
      if (rb->pass == 1)
        rebuild_warn (rb, _("line %u: warning: switch to a thread without a number (the "
                        "board had more threads than it can number, or created it while "
                        "the log was being read): not drawn"), LINE);
      return FALSE;
    }
  if (rec->in > working->len)
    rebuild_add_unlisted (rb, working, rec->in, i);
  *in = WORKING (working, rec->in);
  return FALSE;
}

/* rebuild_step_any(), with the common case first: a switch between threads of the working
 * list (it leaves the list as it is). */
static inline gboolean
rebuild_step (Rebuild         *rb,
              GArray          *working,
              const TksRecord *rec,
              guint            i,
              int             *next_deleted,
              guint           *out,
              guint           *in)
{
  const guint *w = (const guint *) (gconstpointer) working->data + working->len;

  if (G_LIKELY (rec->in != 0 && rec->in != rec->out &&
                rec->in <= working->len && rec->out <= working->len))
    {
      *out = rec->out != 0 ? w[-(int) rec->out] : NO_THREAD;
      *in = w[-(int) rec->in];
      return FALSE;
    }
  return rebuild_step_any (rb, working, rec, i, next_deleted, out, in);
}

/* Deleted threads whose exit the log no longer holds were gone before it starts. */
static int
rebuild_first_deleted (Rebuild *rb)
{
  guint n_deleted = rb->parsed->deleted->len;

  return n_deleted > rb->n_exits ? (int) (n_deleted - rb->n_exits) : 0;
}

/* Pass 1: replays the log to count each thread's INs and OUTs (enough to size its arrays: a
 * run needs an IN, and one more may start the capture), invent the threads the list lacks,
 * warn, and find the span of the timeline. */
static void
rebuild_count (Rebuild *rb)
{
  const TksRecord *r = (const TksRecord *) (gconstpointer) rb->parsed->records->data;
  guint n = rb->parsed->records->len;
  g_autoptr(GArray) working = g_array_copy (rb->initial);
  int next_deleted = rebuild_first_deleted (rb);
  gint64 epoch = 0;
  gint64 prev_tick = -1;
  gint64 first_tick = -1, last_tick = -1;
  guint n_ticks = 0;

  rb->pass = 1;
  rb->last_switch = -1;
  rb->gaps_passed = 0;
  for (guint t = 0; t < rb->infos->len; t++)
    thread_state_init (&rb->states[t]);

  for (guint i = 0; i < n; i++)
    {
      const TksRecord *rec = &r[i];
      guint out, in;

      if (rec->flags & TKS_RECORD_DROPPED)
        continue;

      if ((gint64) rec->tick != prev_tick || (rb->jumps != NULL && rb->jumps[i] != 0))
        {
          if (prev_tick >= 0 && (gint64) rec->tick < prev_tick)
            epoch++;
          epoch += rb->jumps != NULL ? rb->jumps[i] : 0;
          prev_tick = rec->tick;
          n_ticks++;
          last_tick = epoch * rb->period + rec->tick;
          if (first_tick < 0)
            first_tick = last_tick;
        }

      while (rb->gaps_passed < rb->n_gaps && rb->gaps[rb->gaps_passed].index <= i)
        rb->gaps_passed++;
      if (!record_is_exit (rec))
        rb->last_switch = i;
      if (rebuild_step (rb, working, rec, i, &next_deleted, &out, &in))
        continue;
      /* (rb->states moves when a thread is invented.) */
      if (out != NO_THREAD)
        {
          ThreadState *st = &rb->states[out];

          st->n_marks++;
          /* Switched out after a hole without an IN since: one more run (from its end). */
          if (st->gaps_before != rb->gaps_passed)
            st->n_runs++;
          st->gaps_before = rb->gaps_passed;
        }
      if (in != NO_THREAD)
        {
          rb->states[in].n_runs++;
          rb->states[in].gaps_before = rb->gaps_passed;
        }
    }

  for (guint i = (guint) (rb->last_switch + 1); i < n && !rb->lone_exits; i++)
    rb->lone_exits = !(r[i].flags & TKS_RECORD_DROPPED) && record_is_exit (&r[i]);

  rb->first_tick = first_tick;
  rb->last_tick = last_tick;
  rb->n_ticks = n_ticks;
}

/* Pass 2, at the record (at @pos) after the next hole: places the hole between it and the
 * previous record (at @prev_pos, on tick @prev_raw of the board, @prev_unwrapped unwrapped).
 * The board gives the hole's ends in full ticks: the begin is put in the tick after the
 * previous record that has its low bits, the end as far after it as the board says; both stay
 * between the two records. */
static void
rebuild_place_gap (Rebuild *rb,
                   guint    n_before,
                   double   prev_pos,
                   gint64   prev_unwrapped,
                   guint32  prev_raw,
                   double   pos)
{
  const TksParsedGap *pg = &rb->gaps[rb->gaps_passed];
  TksGap *gap = &rb->self->gaps[rb->gaps_passed];
  gint64 delta = (((gint64) pg->begin - (gint64) prev_raw) % rb->period + rb->period) % rb->period;
  /* (A begin the board gives before the record before it: from that record.) */
  double begin = (double) (prev_unwrapped + (delta < rb->period / 2 ? delta : 0));
  /* (After the log's last record nothing bounds it: no longer than the tick's round.) */
  double length = (double) MIN (((gint64) pg->end - (gint64) pg->begin) & (rb->full_period - 1),
                                rb->period - 1);

  /* (Several holes between the same two records follow each other: one the board gives from
   * the same begin as the one before covers what that one does not.) */
  if (rb->gaps_passed > 0)
    prev_pos = MAX (prev_pos, rb->self->gaps[rb->gaps_passed - 1].end);
  gap->begin = CLAMP (begin, prev_pos, pos);
  gap->end = CLAMP (begin + length, gap->begin, pos);
  gap->dropped = pg->dropped;
  rb->self->saved_gaps[rb->gaps_passed] = *pg;
  rb->self->saved_gaps[rb->gaps_passed].index = n_before;
  rb->gaps_passed++;
}

/* Pass 2, at the log's first record (at @pos, on tick @raw of the board, @unwrapped
 * unwrapped): places the holes before it (up to hole @last, excluded) where the last one ends,
 * at the latest at the record. Nothing is known before the first record either (a recording's
 * first loss does not even know when it began): the log starts there, and a thread switched
 * out first ran from there. */
static void
rebuild_place_leading_gaps (Rebuild *rb,
                            guint    last,
                            double   pos,
                            gint64   unwrapped,
                            guint32  raw)
{
  double at;
  gint64 delta;

  if (last == 0)
    return;
  delta = (((gint64) raw - (gint64) rb->gaps[last - 1].end) % rb->period + rb->period) % rb->period;
  /* (An end the board gives after the record: at the record.) */
  at = MIN ((double) (unwrapped - (delta < rb->period / 2 ? delta : 0)), pos);
  for (guint g = 0; g < last; g++)
    {
      TksGap *gap = &rb->self->gaps[g];

      gap->begin = gap->end = at;
      gap->dropped = rb->gaps[g].dropped;
      rb->self->saved_gaps[g] = rb->gaps[g];
      rb->self->saved_gaps[g].index = 0;
    }
  rb->self->start = MIN (rb->self->start, at);
  rb->gaps_passed = last;
}

/* Pass 2: replays the log again, into the runs and marks. The records of a tick share it:
 * the g-th of k is at tick + g / k (worked out once for the usual k). */
#define SHARES_MAX 16

/* Pass 2, before record @record: the threads the Ready entries before it name, by the
 * numbers of that moment. */
static void
rebuild_events_upto (Rebuild *rb,
                     GArray  *working,
                     guint    record)
{
  GArray *entries;

  if (rb->entry_threads == NULL)
    return;
  entries = rb->parsed->events->entries;
  for (; rb->next_entry < entries->len; rb->next_entry++)
    {
      const TksParsedEntry *e = &g_array_index (entries, TksParsedEntry, rb->next_entry);

      if (e->kind == TKS_EVENT_SWITCH && e->record >= record)
        break;
      if (e->kind == TKS_EVENT_READY && e->a >= 1 && e->a <= working->len)
        rb->entry_threads[rb->next_entry] = WORKING (working, e->a);
    }
}

/* Pass 2, record @record switched thread @in in. */
static void
rebuild_events_switch (Rebuild *rb,
                       guint    record,
                       guint    in)
{
  GArray *entries;
  const TksParsedEntry *e;

  if (rb->entry_threads == NULL)
    return;
  entries = rb->parsed->events->entries;
  e = rb->next_entry < entries->len ? &g_array_index (entries, TksParsedEntry, rb->next_entry) : NULL;
  if (e != NULL && e->kind == TKS_EVENT_SWITCH && e->record == record)
    rb->entry_threads[rb->next_entry++] = in != NO_THREAD ? in : G_MAXUINT;
}

static void
rebuild_fill (Rebuild *rb)
{
  TksParsed *parsed = rb->parsed;
  const TksRecord *r = (const TksRecord *) (gconstpointer) parsed->records->data;
  guint n = parsed->records->len;
  g_autoptr(GArray) working = g_array_copy (rb->initial);
  int next_deleted = rebuild_first_deleted (rb);
  gint64 epoch = 0;
  gint64 prev_tick = -1;
  guint i = 0;
  double shares[SHARES_MAX + 1][SHARES_MAX];
  double prev_pos = rb->self->start;
  gint64 prev_unwrapped = (gint64) rb->self->start;
  guint32 prev_raw = 0;
  guint n_kept = 0;

  rb->pass = 2;
  rb->synthetic_used = 0;
  rb->gaps_passed = 0;
  for (guint t = 0; t < rb->infos->len; t++)
    thread_state_init (&rb->states[t]);
  for (guint k = 1; k <= SHARES_MAX; k++)
    for (guint g = 0; g < k; g++)
      shares[k][g] = (double) g / (double) k;

  while (i < n)
    {
      guint group_end, k = 0, g = 0;
      gint64 tick;

      if (r[i].flags & TKS_RECORD_DROPPED)
        {
          i++;
          continue;
        }

      /* The records sharing this tick share it evenly. */
      for (group_end = i; group_end < n; group_end++)
        {
          if (r[group_end].flags & TKS_RECORD_DROPPED)
            continue;
          if (r[group_end].tick != r[i].tick ||
              (group_end > i && rb->jumps != NULL && rb->jumps[group_end] != 0))
            break;
          k++;
        }

      if (prev_tick >= 0 && (gint64) r[i].tick < prev_tick)
        epoch++;
      epoch += rb->jumps != NULL ? rb->jumps[i] : 0;
      prev_tick = r[i].tick;
      tick = rb->base + epoch * rb->period + r[i].tick;

      rb->self->n_records += k;
      rb->self->max_per_tick = MAX (rb->self->max_per_tick, k);

      for (; i < group_end; i++)
        {
          const TksRecord *rec = &r[i];
          double pos;
          gboolean at_zero;
          guint out, in;

          rebuild_events_upto (rb, working, i);
          if (rec->flags & TKS_RECORD_DROPPED)
            continue;
          if (rb->fractions != NULL)
            pos = (double) tick + rb->fractions[i];
          else
            pos = (double) tick + (k <= SHARES_MAX ? shares[k][g] : (double) g / (double) k);
          if (rb->record_pos != NULL)
            rb->record_pos[i] = pos;
          at_zero = rec->tick == 0 && epoch == 0 && rb->base == 0;
          g++;
          if (n_kept == 0)
            {
              guint last = 0;

              while (last < rb->n_gaps && rb->gaps[last].index <= i)
                last++;
              rebuild_place_leading_gaps (rb, last, pos, tick, rec->tick);
            }
          while (rb->gaps_passed < rb->n_gaps && rb->gaps[rb->gaps_passed].index <= i)
            rebuild_place_gap (rb, n_kept, prev_pos, prev_unwrapped, prev_raw, pos);
          n_kept++;
          prev_pos = pos;
          prev_unwrapped = tick;
          prev_raw = rec->tick;

          if (rebuild_step (rb, working, rec, i, &next_deleted, &out, &in))
            {
              if ((gint64) i > rb->last_switch)
                state_lone_exit (rb, out, pos);
              else
                state_event (rb, out, 2, pos, k, at_zero);
              continue;
            }
          if ((gint64) i == rb->last_switch && rb->lone_exits)
            {
              /* Only exits may follow: the log ends with this switch's share of the tick. */
              rb->self->log_end = pos + 1.0 / k;
              rb->self->log_end_reason = TKS_LOG_END_LONE_EXITS;
            }
          if (out != NO_THREAD)
            state_event (rb, out, 1, pos, k, at_zero);
          if (in != NO_THREAD)
            state_event (rb, in, 0, pos, k, at_zero);
          rebuild_events_switch (rb, i, in);
        }
    }
  /* The holes after the last record: the log goes on through them, and ends with the last. */
  while (n_kept > 0 && rb->gaps_passed < rb->n_gaps)
    rebuild_place_gap (rb, n_kept, prev_pos, prev_unwrapped, prev_raw, INFINITY);
  rebuild_events_upto (rb, working, n);
}

static void
rebuild_initial_working_list (Rebuild *rb)
{
  TksParsed *parsed = rb->parsed;
  guint stale = 0;

  if (parsed->deleted->len > rb->n_exits)
    {
      /* Not damage: the board's history remembers more exits than the log holds. These
       * threads are flagged TKS_THREAD_EXITED_BEFORE_LOG and counted. */
      stale = parsed->deleted->len - rb->n_exits;
    }

  /* Last first (see WORKING), without the first @stale deleted threads. */
  rb->initial = g_array_sized_new (FALSE, FALSE, sizeof (guint), rb->infos->len);
  for (guint t = rb->infos->len; t > 0; t--)
    {
      ThreadInfo *info = g_ptr_array_index (rb->infos, t - 1);

      if (info->deleted_order < 0 || info->deleted_order >= (int) stale)
        g_array_append_val (rb->initial, (guint) { t - 1 });
    }
}

/* Where the trigger's tick falls on the unwrapped time line. */
static void
rebuild_place_trigger (Rebuild *rb)
{
  TksCapture *self = rb->self;
  TksParsed *parsed = rb->parsed;
  gint64 t = parsed->trigger_tick;

  if (!parsed->has_trigger)
    return;

  self->has_trigger = TRUE;
  if (rb->period < ((gint64) 1 << 32))
    {
      /* The log keeps the low bits of the tick, the trigger more (or as many, on a board
       * whose system time is as narrow: it is placed by the records around it). */
      gint64 low = t & (rb->period - 1);
      gint64 best = low, best_dist = G_MAXINT64;

      for (gint64 e = -1; e <= (gint64) ((self->end - self->start) / rb->period) + 1; e++)
        {
          gint64 cand = (gint64) self->start - ((gint64) self->start % rb->period) + e * rb->period + low;
          gint64 dist = cand < self->start ? (gint64) self->start - cand
                        : cand > self->end ? cand - (gint64) self->end : 0;

          if (dist < best_dist)
            {
              best_dist = dist;
              best = cand;
            }
        }
      t = best;
    }
  self->trigger_pos = (double) t;
}

static int
compare_lanes (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  TksCapture *self = user_data;
  const TksThread *ta = &self->threads[*(const guint *) a];
  const TksThread *tb = &self->threads[*(const guint *) b];
  gboolean ua = (ta->flags & TKS_THREAD_NOT_LISTED) != 0;
  gboolean ub = (tb->flags & TKS_THREAD_NOT_LISTED) != 0;

  if (ua != ub)
    return ua ? 1 : -1;
  if (ta->priority != tb->priority)
    return ta->priority > tb->priority ? -1 : 1;
  return ta->index < tb->index ? -1 : ta->index > tb->index ? 1 : 0;
}

/* The switches the holes of the log are missing. */
static guint64
gaps_dropped (TksCapture *self)
{
  guint64 n = 0;

  for (guint g = 0; g < self->n_gaps; g++)
    n += self->gaps[g].dropped;
  return n;
}

static gint
compare_gaps (gconstpointer a,
              gconstpointer b)
{
  const TksParsedGap *ga = a, *gb = b;

  if (ga->index != gb->index)
    return ga->index < gb->index ? -1 : 1;
  return ga->order < gb->order ? -1 : ga->order > gb->order ? 1 : 0;
}

/* The holes the input places between two of its records, by index (in the input's order
 * between the same two records). */
static void
rebuild_collect_gaps (Rebuild *rb)
{
  GArray *gaps = rb->parsed->gaps;
  guint n_records = rb->parsed->records->len;

  rb->gaps = g_new (TksParsedGap, MAX (gaps->len, 1));
  for (guint g = 0; g < gaps->len; g++)
    {
      const TksParsedGap *pg = &g_array_index (gaps, TksParsedGap, g);

      /* (Before the first record and after the last too: the log's ends lie in them.) */
      if (pg->index <= n_records && n_records > 0)
        {
          rb->gaps[rb->n_gaps] = *pg;
          rb->gaps[rb->n_gaps].order = rb->n_gaps;
          rb->n_gaps++;
        }
      else
        rebuild_warn (rb, _("warning: a hole before record %u of a log of %u records is "
                        "ignored"), pg->index, n_records);
    }
  qsort (rb->gaps, rb->n_gaps, sizeof (TksParsedGap), compare_gaps);
  rb->self->gaps = g_new0 (TksGap, MAX (rb->n_gaps, 1));
  rb->self->saved_gaps = g_new0 (TksParsedGap, MAX (rb->n_gaps, 1));
}

/* The pages of the blocks the second pass fills (runs, marks and their sums: hundreds of MB
 * for an hour's recording) are made by another thread while it runs, rather than one fault at
 * a time as it writes: the kernel makes a page present without changing what it holds, so the
 * two never disturb each other. Where the kernel cannot, the pages come as they are written. */
#define PREFAULT_MIN   (16u << 20)
#define PREFAULT_STEP  (4u << 20)

typedef struct
{
  GThread *thread;
  gint     stop;            /* atomic: the pass is over */
  guint8  *starts[3];
  gsize    lens[3];
} Prefault;

#if defined(MADV_POPULATE_WRITE)
static gpointer
prefault_run (gpointer data)
{
  Prefault *pf = data;
  gsize page = (gsize) sysconf (_SC_PAGESIZE);

  for (guint b = 0; b < G_N_ELEMENTS (pf->starts); b++)
    {
      /* (whole pages inside the block only) */
      guint8 *p = (guint8 *) (((guintptr) pf->starts[b] + page - 1) & ~(guintptr) (page - 1));
      guint8 *end = (guint8 *) (((guintptr) pf->starts[b] + pf->lens[b]) & ~(guintptr) (page - 1));

      for (; p < end && !g_atomic_int_get (&pf->stop); p += PREFAULT_STEP)
        if (madvise (p, MIN ((gsize) (end - p), PREFAULT_STEP), MADV_POPULATE_WRITE) != 0)
          return NULL;
    }
  return NULL;
}
#endif

static void
prefault_start (Prefault *pf)
{
  gsize total = pf->lens[0] + pf->lens[1] + pf->lens[2];

  pf->thread = NULL;
  g_atomic_int_set (&pf->stop, 0);
#if defined(MADV_POPULATE_WRITE)
  if (total >= PREFAULT_MIN && g_get_num_processors () > 1)
    pf->thread = g_thread_try_new ("tks-prefault", prefault_run, pf, NULL);
#else
  (void) total;
#endif
}

static void
prefault_stop (Prefault *pf)
{
  g_atomic_int_set (&pf->stop, 1);
  if (pf->thread != NULL)
    g_thread_join (pf->thread);
  pf->thread = NULL;
}

void
tks_capture_rebuild (TksCapture *self)
{
  TksParsed *parsed = self->parsed;
  Rebuild rb = { 0 };
  gsize total_runs = 0, total_marks = 0;
  Prefault prefault;

  rb.self = self;
  rb.parsed = parsed;
  rb.infos = g_ptr_array_new_with_free_func (g_free);
  rb.warnings = g_ptr_array_new_with_free_func (g_free);

  rebuild_collect_gaps (&rb);
  rebuild_check_records (&rb);
  if (parsed->events != NULL)
    parsed->events->tick_period = rb.period;
  rebuild_creation_order (&rb);
  rebuild_initial_working_list (&rb);

  /* Pass 1 counts (and invents the threads the list lacks); pass 2 fills. */
  rb.n_states = rb.infos->len + 16;
  rb.states = g_new (ThreadState, rb.n_states);
  rebuild_count (&rb);

  /* The span, and the base that puts a full trigger tick in the right 20-bit epoch. */
  if (parsed->has_trigger && rb.period < rb.full_period &&
      parsed->trigger_tick >= rb.period && rb.first_tick >= 0)
    {
      /* Move the whole log to the epoch of the trigger, so times read as the board's. */
      gint64 t = parsed->trigger_tick;
      gint64 mid = (rb.first_tick + rb.last_tick) / 2;
      gint64 e = (t - mid + rb.period / 2) / rb.period;

      rb.base = MAX (0, e * rb.period);
    }

  if (rb.first_tick >= 0)
    {
      gint64 first, last;

      self->start = (double) (rb.base + rb.first_tick);
      self->end = (double) (rb.base + rb.last_tick + 1);
      /* A dump version 2: the events before the first switch and after the last are in it. */
      if (tks_parsed_events_tick_span (parsed->events, parsed->records, parsed->beats,
                                       &first, &last))
        {
          self->start = MIN (self->start, (double) (rb.base + rb.first_tick + first));
          self->end = MAX (self->end, (double) (rb.base + rb.first_tick + last + 1));
        }
    }
  /* Pass 2 moves it back when only exits follow the last switch. */
  self->log_end = rb.last_switch >= 0 ? self->end : self->start;
  self->log_end_reason = rb.lone_exits && rb.last_switch < 0 ? TKS_LOG_END_LONE_EXITS
                         : TKS_LOG_END_CAPTURE_END;
  rebuild_place_trigger (&rb);

  self->n_threads = rb.infos->len;
  self->threads = g_new0 (TksThread, self->n_threads);
  self->names = g_new0 (char *, self->n_threads + 1);
  for (guint t = 0; t < self->n_threads; t++)
    {
      ThreadInfo *info = g_ptr_array_index (rb.infos, t);
      ThreadState *st = &rb.states[t];

      /* Room, from pass 1's counts: a logged thread's runs each need an IN, and one more run
       * may start the capture; an unlogged thread gets a mark per IN and per OUT. */
      if (info->entry == NULL || info->entry->logged)
        {
          st->n_runs += 1;
          st->n_marks = 0;
        }
      else
        {
          st->n_marks += st->n_runs;
          st->n_runs = 0;
        }
      total_runs += st->n_runs;
      total_marks += st->n_marks;
    }
  self->runs = g_new (TksRun, MAX (total_runs, 1));
  self->marks = g_new (TksMark, MAX (total_marks, 1));
  /* The runs' sums (tks-capture.c): one more than the runs, per thread. */
  self->run_time = g_new (double, total_runs + self->n_threads + 1);
  prefault.starts[0] = (guint8 *) self->runs;
  prefault.lens[0] = total_runs * sizeof (TksRun);
  prefault.starts[1] = (guint8 *) self->marks;
  prefault.lens[1] = total_marks * sizeof (TksMark);
  prefault.starts[2] = (guint8 *) self->run_time;
  prefault.lens[2] = (total_runs + self->n_threads + 1) * sizeof (double);
  prefault_start (&prefault);

  total_runs = total_marks = 0;
  for (guint t = 0; t < self->n_threads; t++)
    {
      ThreadInfo *info = g_ptr_array_index (rb.infos, t);
      TksThread *th = &self->threads[t];
      ThreadState *st = &rb.states[t];

      th->index = t;
      th->runs = self->runs + total_runs;
      th->marks = self->marks + total_marks;
      total_runs += st->n_runs;
      total_marks += st->n_marks;

      if (info->entry != NULL)
        {
          self->names[t] = g_strdup (info->entry->name);
          th->priority = info->entry->priority;
          if (info->entry->logged)
            th->flags |= TKS_THREAD_LOGGED;
        }
      else
        {
          /* Translators: the name of a thread the log names but the thread list does not have */
          self->names[t] = g_strdup_printf (_("Thread %d (not in list)"), info->number);
          th->priority = 0;
          th->flags |= TKS_THREAD_NOT_LISTED | TKS_THREAD_LOGGED;
        }
      if (info->deleted)
        th->flags |= TKS_THREAD_DELETED;
      /* (not a thread whose exit the full list forgot: that one exits inside the log) */
      if (info->deleted && info->deleted_order >= 0 &&
          info->deleted_order < rebuild_first_deleted (&rb))
        th->flags |= TKS_THREAD_EXITED_BEFORE_LOG;
      th->name = self->names[t];
      th->number = info->number;
    }

  /* Every record's place: the events' entries are placed from it, and a capture without them
   * keeps it for its list of switches (tks_capture_get_switch_record). */
  rb.record_pos = g_new (double, MAX (parsed->records->len, 1));
  for (guint i = 0; i < parsed->records->len; i++)
    rb.record_pos[i] = NAN;
  if (parsed->events != NULL)
    {
      guint n_entries = parsed->events->entries->len;

      rb.fractions = tks_parsed_events_fractions (parsed->events, parsed->records, parsed->beats,
                                                  self->tick_hz);
      rb.entry_threads = g_new (guint, MAX (n_entries, 1));
      for (guint i = 0; i < n_entries; i++)
        rb.entry_threads[i] = G_MAXUINT;
    }
  rebuild_fill (&rb);
  prefault_stop (&prefault);
  /* Holes after the last record: the log (and the capture) ends with the last of them. */
  if (rb.gaps_passed > 0 && self->gaps[rb.gaps_passed - 1].end > self->end)
    {
      if (self->log_end_reason == TKS_LOG_END_CAPTURE_END)
        self->log_end = self->gaps[rb.gaps_passed - 1].end;
      self->end = self->gaps[rb.gaps_passed - 1].end;
    }

  for (guint t = 0; t < self->n_threads; t++)
    {
      TksThread *th = &self->threads[t];
      ThreadState *st = &rb.states[t];

      if (th->flags & TKS_THREAD_LOGGED)
        state_cross_gaps (&rb, st, (TksRun *) th->runs);
      if (st->open)
        {
          /* Still running when the log was read (or when it ended): shown running to there. */
          ((TksRun *) th->runs)[st->n_runs++] = (TksRun) { st->open_begin, self->log_end };
          th->flags |= TKS_THREAD_RUNNING_AT_END;
        }
      th->n_runs = st->n_runs;
      th->n_marks = st->n_marks;
      th->flags |= st->flags;
      th->first_event = st->first_event;
      th->exit_time = st->exit_time;

      if (st->lost_in > 0 || st->lost_out > 0)
        rebuild_warn (&rb, _("warning: thread “%s”: %u switches in and %u switches out could not "
                        "be paired into runs"), th->name, st->lost_in, st->lost_out);
    }

  self->n_gaps = rb.gaps_passed;
  if (rb.n_gaps > rb.gaps_passed)
    rebuild_warn (&rb, g_dngettext (GETTEXT_PACKAGE,
                                    "warning: %u hole in a log without a record is ignored",
                                    "warning: %u holes in a log without a record are ignored",
                                    rb.n_gaps - rb.gaps_passed),
                  rb.n_gaps - rb.gaps_passed);
  self->mean_per_tick = rb.n_ticks > 0 ? (double) self->n_records / rb.n_ticks : 0.0;

  tks_capture_assign_colors (self);
  self->n_lanes = self->n_threads;
  self->lanes = g_new (guint, MAX (self->n_lanes, 1));
  for (guint t = 0; t < self->n_lanes; t++)
    self->lanes[t] = t;
  g_qsort_with_data (self->lanes, self->n_lanes, sizeof (guint), compare_lanes, self);
  self->shown_lanes = g_new (guint, MAX (self->n_lanes, 1));
  for (guint l = 0; l < self->n_lanes; l++)
    if (!(self->threads[self->lanes[l]].flags & TKS_THREAD_EXITED_BEFORE_LOG))
      self->shown_lanes[self->n_shown_lanes++] = self->lanes[l];

  if (parsed->records->len == 0)
    rebuild_warn (&rb, _("warning: the log is empty: nothing was recorded yet"));
  /* The board's drop counters count since run mode began. Only when the log still holds every
   * record written since then do the switches dropped while paused fall inside it. */
  if (parsed->counters.known && parsed->counters.dropped_paused > 0 &&
      parsed->counters.dropped_history == 0 &&
      parsed->counters.records_written == parsed->records->len &&
      parsed->counters.dropped_paused != gaps_dropped (self))
    {
      guint64 n = parsed->counters.dropped_paused;
      g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, n);

      rebuild_warn (&rb, g_dngettext (GETTEXT_PACKAGE,
                                      "warning: the board did not record %s switch while this "
                                      "log was paused for printing: runs around that moment may "
                                      "be missing or too long",
                                      "warning: the board did not record %s switches while this "
                                      "log was paused for printing: runs around those moments "
                                      "may be missing or too long", (gulong) n),
                    count);
    }

  if (parsed->events != NULL)
    {
      TksTime trigger;

      self->events = tks_events_build (self, parsed->events, rb.record_pos, rb.entry_threads);
      warn_unmatched (&rb, self->events);
      /* The trigger entry says exactly where, inside its tick, the trigger was set. */
      if (tks_events_get_trigger (self->events, &trigger))
        {
          self->has_trigger = TRUE;
          self->trigger_pos = trigger.pos;
        }
    }

  /* Warnings: the reader's first, then the rebuild's. */
  self->warnings = g_ptr_array_new_with_free_func (g_free);
  for (guint w = 0; w < parsed->warnings->len; w++)
    g_ptr_array_add (self->warnings, g_strdup (g_ptr_array_index (parsed->warnings, w)));
  for (guint w = 0; w < rb.warnings->len && self->warnings->len < MAX_KEPT_WARNINGS; w++)
    g_ptr_array_add (self->warnings, g_strdup (g_ptr_array_index (rb.warnings, w)));
  {
    guint all = parsed->n_warnings + rb.n_warnings;

    if (all > self->warnings->len)
      g_ptr_array_add (self->warnings,
                       g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                                     "warning: %u more warning not shown",
                                                     "warning: %u more warnings not shown",
                                                     all - self->warnings->len),
                                        all - self->warnings->len));
  }
  g_ptr_array_add (self->warnings, NULL);
  g_free (rb.fractions);
  g_free (rb.jumps);
  if (self->events == NULL)
    {
      g_free (self->record_pos);
      self->record_pos = g_steal_pointer (&rb.record_pos);
    }
  g_free (rb.record_pos);
  g_free (rb.entry_threads);
  g_free (rb.states);
  g_free (rb.gaps);
  g_array_unref (rb.initial);
  g_ptr_array_unref (rb.infos);
  g_ptr_array_unref (rb.warnings);
}

/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rebuild's passes over the log: pass 1 counts each thread's switches and invents the
 * threads the list lacks, pass 2 places the records and fills the runs, marks and holes
 * (docs/rebuild.md). */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "tks-capture-rebuild-private.h"

static const char *
info_name (const ThreadInfo *info)
{
  return info->entry != NULL ? info->entry->name : "?";
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
        tks_rebuild_warn (rb, _("line %u: warning: the log names thread %u, which the thread list "
                        "does not have (list and log read at different moments?)"), line, number);
      else
        tks_rebuild_warn (rb, _("line %u: warning: the log names thread %u, but the thread list has "
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

static inline void
state_event_logged (Rebuild         *rb,
                    ThreadState     *st,
                    const TksThread *th,
                    int              kind,      /* 0 in, 1 out, 2 exit */
                    double           pos,
                    guint            k,
                    gboolean         at_tick_zero)
{
  TksCapture *self = rb->self;

  if (state_cross_gaps (rb, st, th) && kind != 0)
    {
      /* Switched out, not in since the hole: it ran from the hole's end (it was switched in
       * during the hole, or was running through it). An exit (held while the board printed)
       * tells nothing of that. */
      if (kind == 1)
        {
          state_add_run (st, th, self->gaps[rb->gaps_passed - 1].end, pos);
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
      state_add_run (st, th, st->open_begin, pos);
      st->open = FALSE;
    }
  else if (!st->seen && at_tick_zero)
    {
      /* The first thread at boot runs from tick 0 without being switched in; like the
       * original, a run that would be empty lasts one slot of the tick. */
      state_add_run (st, th, 0.0, MAX (pos, 1.0 / k));
      st->flags |= TKS_THREAD_ASSUMED_START;
    }
  else if (!st->seen && kind == 1 && pos > self->start)
    {
      /* Switched out before it was ever switched in: it was running when the log began.
       * (Not so for an exit: a frozen log still records lone exits.) */
      state_add_run (st, th, self->start, pos);
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
  const TksThread *th = &self->threads[thread];

  /* Pass 2: the threads' flags are set, and their arrays sized. */
  if (th->flags & TKS_THREAD_LOGGED)
    state_event_logged (rb, st, th, kind, pos, k, at_tick_zero);
  else if (kind != 2)
    {
      ((TksMark *) th->marks)[st->n_marks] =
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
  const TksThread *th = &self->threads[thread];

  if (th->flags & TKS_THREAD_LOGGED)
    state_cross_gaps (rb, st, th);
  if (st->open)
    {
      state_add_run (st, th, st->open_begin, self->log_end);
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
            tks_rebuild_warn (rb, g_dngettext (GETTEXT_PACKAGE,
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
            tks_rebuild_warn (rb, _("line %u: warning: thread “%s” exits here, but the thread "
                            "list shows it alive (it was read before this exit)"), LINE,
                              info_name (info));
          else if (info->deleted && info->deleted_order >= 0
                   && info->deleted_order != *next_deleted)
            tks_rebuild_warn (rb, _("line %u: warning: thread number %u exits here as “%s”, "
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
        tks_rebuild_warn (rb, _("line %u: warning: switch to a thread without a number (the "
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
int
tks_rebuild_first_deleted (Rebuild *rb)
{
  guint n_deleted = rb->parsed->deleted->len;

  return n_deleted > rb->n_exits ? (int) (n_deleted - rb->n_exits) : 0;
}

/* Pass 1's walk through the ticks of the log. */
typedef struct
{
  gint64 epoch;
  gint64 prev_tick;
  gint64 first_tick;
  gint64 last_tick;
  guint  n_ticks;
  guint  jump;             /* the first of rb->jumps not passed */
} TickCount;

/* Pass 1, record @i (kept): a new tick is counted, and where it lies unwrapped. */
static inline void
count_tick (Rebuild         *rb,
            const TksRecord *rec,
            guint            i,
            TickCount       *tc)
{
  guint32 wraps = jump_at ((const TksJump *) (gconstpointer) rb->jumps->data, rb->jumps->len,
                           &tc->jump, i);

  if ((gint64) rec->tick == tc->prev_tick && wraps == 0)
    return;
  if (tc->prev_tick >= 0 && (gint64) rec->tick < tc->prev_tick)
    tc->epoch++;
  tc->epoch += wraps;
  tc->prev_tick = rec->tick;
  tc->n_ticks++;
  tc->last_tick = tc->epoch * rb->period + rec->tick;
  if (tc->first_tick < 0)
    tc->first_tick = tc->last_tick;
}

/* Pass 1: a record switched @out out and @in in (NO_THREAD: none). (rb->states moves when a
 * thread is invented.) */
static inline void
count_switch (Rebuild *rb,
              guint    out,
              guint    in)
{
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

/* Pass 1: replays the log to count each thread's INs and OUTs (enough to size its arrays: a
 * run needs an IN, and one more may start the capture), invent the threads the list lacks,
 * warn, and find the span of the timeline. */
void
tks_rebuild_count (Rebuild *rb)
{
  const TksRecord *r = (const TksRecord *) (gconstpointer) rb->parsed->records->data;
  guint n = rb->parsed->records->len;
  g_autoptr(GArray) working = g_array_copy (rb->initial);
  int next_deleted = tks_rebuild_first_deleted (rb);
  TickCount tc = { 0, -1, -1, -1, 0, 0 };

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
      count_tick (rb, rec, i, &tc);

      while (rb->gaps_passed < rb->n_gaps && rb->gaps[rb->gaps_passed].index <= i)
        rb->gaps_passed++;
      if (!record_is_exit (rec))
        rb->last_switch = i;
      if (rebuild_step (rb, working, rec, i, &next_deleted, &out, &in))
        continue;
      count_switch (rb, out, in);
    }

  for (guint i = (guint) (rb->last_switch + 1); i < n && !rb->lone_exits; i++)
    rb->lone_exits = !(r[i].flags & TKS_RECORD_DROPPED) && record_is_exit (&r[i]);

  rb->first_tick = tc.first_tick;
  rb->last_tick = tc.last_tick;
  rb->n_ticks = tc.n_ticks;
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

/* A walk through the log's ticks, a tick's records at a time (pass 2, and the records' places
 * worked out alone): the wraps passed, the last tick, the first of the jumps not passed. */
typedef struct
{
  const TksRecord *r;
  guint            n;
  const TksJump   *jumps;
  guint            n_jumps;
  gint64           base;
  gint64           period;
  gint64           epoch;
  gint64           prev_tick;
  guint            jump;
} TickWalk;

static void
tick_walk_init (TickWalk        *w,
                const TksRecord *r,
                guint            n,
                const TksJump   *jumps,
                guint            n_jumps,
                gint64           base,
                gint64           period)
{
  *w = (TickWalk) { r, n, jumps, n_jumps, base, period, 0, -1, 0 };
}

/* Pass 2's walk through the log. */
typedef struct
{
  GArray  *working;
  int      next_deleted;
  TickWalk walk;
  double   shares[SHARES_MAX + 1][SHARES_MAX];
  double   prev_pos;        /* of the last record kept */
  gint64   prev_unwrapped;
  guint32  prev_raw;
  guint    n_kept;
} Fill;

/* The records kept from @i (kept) on that share its tick: their count (@k), @group_end after
 * them; the walk passes to that tick, returned unwrapped. */
static inline gint64
tick_walk_group (TickWalk *w,
                 guint     i,
                 guint    *k,
                 guint    *group_end)
{
  const TksRecord *r = w->r;
  guint jump = w->jump, end;

  *k = 0;
  for (end = i; end < w->n; end++)
    {
      if (r[end].flags & TKS_RECORD_DROPPED)
        continue;
      if (r[end].tick != r[i].tick || (end > i && jump_at (w->jumps, w->n_jumps, &jump, end) != 0))
        break;
      (*k)++;
    }
  *group_end = end;

  if (w->prev_tick >= 0 && (gint64) r[i].tick < w->prev_tick)
    w->epoch++;
  w->epoch += jump_at (w->jumps, w->n_jumps, &w->jump, i);
  w->prev_tick = r[i].tick;
  return w->base + w->epoch * w->period + r[i].tick;
}

/* Pass 2, at record @rec (record @i, at @pos, on tick @tick unwrapped): the holes before it
 * are placed, and it becomes the last record kept. */
static inline void
fill_gaps_before (Rebuild         *rb,
                  Fill            *f,
                  const TksRecord *rec,
                  guint            i,
                  double           pos,
                  gint64           tick)
{
  if (f->n_kept == 0)
    {
      guint last = 0;

      while (last < rb->n_gaps && rb->gaps[last].index <= i)
        last++;
      rebuild_place_leading_gaps (rb, last, pos, tick, rec->tick);
    }
  while (rb->gaps_passed < rb->n_gaps && rb->gaps[rb->gaps_passed].index <= i)
    rebuild_place_gap (rb, f->n_kept, f->prev_pos, f->prev_unwrapped, f->prev_raw, pos);
  f->n_kept++;
  f->prev_pos = pos;
  f->prev_unwrapped = tick;
  f->prev_raw = rec->tick;
}

/* Pass 2, record @rec (record @i, kept), the @g-th of the @k on tick @tick unwrapped. */
static inline void
fill_record (Rebuild         *rb,
             Fill            *f,
             const TksRecord *rec,
             guint            i,
             gint64           tick,
             guint            k,
             guint            g)
{
  double pos;
  gboolean at_zero;
  guint out, in;

  if (rb->fractions != NULL)
    pos = (double) tick + rb->fractions[i];
  else
    pos = (double) tick + (k <= SHARES_MAX ? f->shares[k][g] : (double) g / (double) k);
  if (rb->record_pos != NULL)
    rb->record_pos[i] = pos;
  at_zero = rec->tick == 0 && f->walk.epoch == 0 && rb->base == 0;
  fill_gaps_before (rb, f, rec, i, pos, tick);

  if (rebuild_step (rb, f->working, rec, i, &f->next_deleted, &out, &in))
    {
      if ((gint64) i > rb->last_switch)
        state_lone_exit (rb, out, pos);
      else
        state_event (rb, out, 2, pos, k, at_zero);
      return;
    }
  if ((gint64) i == rb->last_switch && rb->lone_exits)
    {
      /* Only exits may follow: the log ends with this switch's share of the tick (within
       * the capture: a switch placed late in its tick by the cycle counter has less left). */
      rb->self->log_end = MIN (pos + 1.0 / k, rb->self->end);
      rb->self->log_end_reason = TKS_LOG_END_LONE_EXITS;
    }
  if (out != NO_THREAD)
    state_event (rb, out, 1, pos, k, at_zero);
  if (in != NO_THREAD)
    state_event (rb, in, 0, pos, k, at_zero);
  rebuild_events_switch (rb, i, in);
}

void
tks_rebuild_fill (Rebuild *rb)
{
  TksParsed *parsed = rb->parsed;
  const TksRecord *r = (const TksRecord *) (gconstpointer) parsed->records->data;
  guint n = parsed->records->len;
  g_autoptr(GArray) working = g_array_copy (rb->initial);
  Fill f;
  guint i = 0;

  f.working = working;
  f.next_deleted = tks_rebuild_first_deleted (rb);
  tick_walk_init (&f.walk, r, n, (const TksJump *) (gconstpointer) rb->jumps->data,
                  rb->jumps->len, rb->base, rb->period);
  f.prev_pos = rb->self->start;
  f.prev_unwrapped = (gint64) rb->self->start;
  f.prev_raw = 0;
  f.n_kept = 0;
  rb->pass = 2;
  rb->synthetic_used = 0;
  rb->gaps_passed = 0;
  for (guint t = 0; t < rb->infos->len; t++)
    thread_state_init (&rb->states[t]);
  for (guint k = 1; k <= SHARES_MAX; k++)
    for (guint g = 0; g < k; g++)
      f.shares[k][g] = (double) g / (double) k;

  while (i < n)
    {
      guint group_end, k, g = 0;
      gint64 tick;

      if (r[i].flags & TKS_RECORD_DROPPED)
        {
          if (rb->record_pos != NULL)
            rb->record_pos[i] = NAN;
          i++;
          continue;
        }

      /* The records sharing this tick share it evenly. */
      tick = tick_walk_group (&f.walk, i, &k, &group_end);

      rb->self->n_records += k;
      rb->self->max_per_tick = MAX (rb->self->max_per_tick, k);

      for (; i < group_end; i++)
        {
          if (rb->entry_threads != NULL)
            rebuild_events_upto (rb, working, i);
          if (r[i].flags & TKS_RECORD_DROPPED)
            {
              if (rb->record_pos != NULL)
                rb->record_pos[i] = NAN;
              continue;
            }
          fill_record (rb, &f, &r[i], i, tick, k, g++);
        }
    }
  /* The holes after the last record: the log goes on through them, and ends with the last. */
  while (f.n_kept > 0 && rb->gaps_passed < rb->n_gaps)
    rebuild_place_gap (rb, f.n_kept, f.prev_pos, f.prev_unwrapped, f.prev_raw, INFINITY);
  rebuild_events_upto (rb, working, n);
}

void
tks_rebuild_place_records (const TksRecord *r,
                           guint            n,
                           gint64           base,
                           gint64           period,
                           const TksJump   *jumps,
                           guint            n_jumps,
                           double          *pos)
{
  TickWalk walk;
  guint i = 0;

  /* (the walk of tks_rebuild_fill(), for the places alone) */
  tick_walk_init (&walk, r, n, jumps, n_jumps, base, period);
  while (i < n)
    {
      guint group_end, k, g = 0;
      double tick;

      if (r[i].flags & TKS_RECORD_DROPPED)
        {
          pos[i++] = NAN;
          continue;
        }
      tick = (double) tick_walk_group (&walk, i, &k, &group_end);
      for (; i < group_end; i++)
        pos[i] = r[i].flags & TKS_RECORD_DROPPED ? NAN : tick + (double) g++ / (double) k;
    }
}

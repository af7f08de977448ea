/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Between the rebuild's files: its state, and the steps one file hands another
 * (docs/rebuild.md). */
#pragma once

#include <math.h>

#include "tks-capture-private.h"
#include "tks-events-private.h"

G_BEGIN_DECLS

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

/* Pass 1 only counts (n_runs: INs, n_marks: OUTs); pass 2 pairs and fills. (One cache line: a
 * history of a million threads has as many.) */
typedef struct
{
  double   open_begin;
  double   first_event;
  double   exit_time;
  double   run_sum;            /* pass 2: of the runs so far */
  guint    n_runs;
  guint    n_marks;
  guint    flags;
  guint    lost_in;            /* an IN while a run was open */
  guint    lost_out;           /* an OUT with no run open, after the first event */
  guint    gaps_before;        /* holes passed at its last event */
  guint8   open;
  guint8   seen;
  guint8   began_after_gap;    /* its first run began at the end of a hole */
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
  GArray      *jumps;          /* TksJump, by index: the records to which a heartbeat before
                                * them adds wraps to those their tick tells */
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

/* The wraps a heartbeat adds at record @i, of @n_jumps @jumps by index; *@cursor (the first
 * not before the last record asked for, which callers ask for in order) moves on. */
static inline guint32
jump_at (const TksJump *jumps,
         guint          n_jumps,
         guint         *cursor,
         guint          i)
{
  while (*cursor < n_jumps && jumps[*cursor].index < i)
    (*cursor)++;
  return *cursor < n_jumps && jumps[*cursor].index == i ? jumps[*cursor].wraps : 0;
}

/* A warning of the rebuild (kept up to MAX_KEPT_WARNINGS, all counted). */
void tks_rebuild_warn (Rebuild    *rb,
                       const char *format,
                       ...) G_GNUC_PRINTF (2, 3);

/* Thread @n (1-based) of a working list, kept last first. */
#define WORKING(w, n) g_array_index ((w), guint, (w)->len - (n))

static inline gboolean
record_is_exit (const TksRecord *r)
{
  return r->out == r->in && r->out != 0;
}

static inline void
thread_state_init (ThreadState *st)
{
  *st = (ThreadState) { .first_event = NAN, .exit_time = NAN };
}

/* Pass 2: thread @th ran from @begin to @end; its running sum goes with the run. */
static inline void
state_add_run (ThreadState     *st,
               const TksThread *th,
               double           begin,
               double           end)
{
  ((double *) th->run_time)[st->n_runs] = st->run_sum;
  st->run_sum += end - begin;
  ((TksRun *) th->runs)[st->n_runs++] = (TksRun) { begin, end };
}

/* A hole in the log passed since the thread's last event: a run open then ends where the hole
 * begins (nothing is known of it after). Returns whether a hole passed. */
static inline gboolean
state_cross_gaps (Rebuild         *rb,
                  ThreadState     *st,
                  const TksThread *th)
{
  if (G_LIKELY (st->gaps_before == rb->gaps_passed))
    return FALSE;
  if (st->open)
    {
      /* (A hole among the lone exits after the log's end: the run ends with the log.) */
      double end = MIN (rb->self->gaps[st->gaps_before].begin, rb->self->log_end);

      state_add_run (st, th, st->open_begin, MAX (end, st->open_begin));
      st->open = FALSE;
    }
  st->gaps_before = rb->gaps_passed;
  return TRUE;
}

/* Step 2a (tks-capture-rebuild-check.c). */
void tks_rebuild_check_records (Rebuild *rb);

/* The passes over the log (tks-capture-rebuild-replay.c): pass 1 counts, pass 2 fills. */
int  tks_rebuild_first_deleted (Rebuild *rb);
void tks_rebuild_count         (Rebuild *rb);
void tks_rebuild_fill          (Rebuild *rb);

G_END_DECLS

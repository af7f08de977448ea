/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/*
 * Ground truth from the simulated board, and a score of a reading of the board's replies
 * against it: which runs of which threads the reading gets right, tick for tick.
 *
 * The truth is what the board's scheduler did (tks-simboard-private.h). A reading is a list
 * of runs, each on a thread the reading names (name, priority, its creation order); it comes
 * from a TksCapture or from the model of the original viewer (tks-legacy-viewer.h).
 *
 * Runs are compared at the log's resolution, the tick of their records: a run is right when
 * the reading has it on the right thread from the same tick to the same tick. The window is
 * the log's: from the tick of its first record to the tick of its last switch (lone exit
 * records at its end do not extend it). In the window's first and last ticks the log may hold
 * only part of what happened (older records overwritten, the log frozen or read in the middle
 * of a tick): the runs that lie wholly in its first tick are not compared, a run wholly in its
 * last tick may be missing, and a run cut by the window is right when the reading shows it
 * running at the start or at the end. Within a
 * tick, the order of the reading's positions must be the order in which things happened.
 *
 * Built once (tks-truth-check.c, a static library of tests/meson.build) and linked by the
 * tests and benchmarks that score a reading.
 */
#include <glib.h>

#include "tks-capture.h"
#include "tks-simboard-private.h"

G_BEGIN_DECLS

#define TRUTH_MAX_NUMBERED 63
#define TRUTH_TICK_PERIOD  ((gint64) 1 << 20)   /* the record tick's wrap: 20 bits ... */
#define TRUTH_TICK_PERIOD16 ((gint64) 1 << 16) /* ... or a 16-bit system time's */

typedef struct
{
  const char *name;
  int         priority;
  gboolean    logged;
  gboolean    dynamic;
  gboolean    numbered;   /* the board library gave it a number (at most 63 live threads) */
  gboolean    exited;
} TruthThread;

typedef struct
{
  guint    thread;
  double   begin;
  double   end;
  guint64  begin_seq;
  guint64  end_seq;
  gboolean open;        /* still running when the log was read */
  gboolean cut_begin;   /* begins, or ends, at a hole of the log (truth_cut_holes) */
  gboolean cut_end;
} TruthRun;

typedef struct
{
  GArray  *threads;     /* TruthThread, by creation order */
  GArray  *runs;        /* TruthRun of the numbered logged threads, as they end */
  guint    live_numbered;
  guint    n_exits;
  guint64  last_exit_tick;
} Truth;

Truth *   truth_new (void);

void      truth_free (Truth *truth);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Truth, truth_free)

/* A TksTruthFunc. */
void      truth_collect (const TksTruthEvent *ev, gpointer data);

/* Forgets the runs that ended before tick @tick (they are older than any log to come). */
void      truth_forget_before (Truth *truth, double tick);

typedef struct
{
  int out;
  int in;
  int tick;
} TruthRecord;

/* The lines of @text (ends "\n" or "\r\n" removed), in a NULL-terminated array: g_strsplit
 * without its strstr (see below). A last line without an end is left out when @whole_only. */
GStrv     truth_lines (const char *text, gboolean whole_only);

/* The "From %d to %d at %d" records of @text, in order. Line by line with plain loops (a
 * sanitizer's strstr and sscanf check the whole rest of the text at every call, which makes
 * g_strsplit and sscanf on long replies quadratic). */
GArray *  truth_records (const char *text);

guint     truth_count_exits (const char *text);

/* The log's window in the board's ticks: @reply is a threads_timestamps or threads_dump
 * reply read when the board was at tick @now, its ticks wrapping every @period. FALSE when the
 * log holds no switch. */
gboolean  truth_log_window (const char *reply, guint64 now, gint64 period, gint64 *first,
                           gint64 *last, guint32 *first_raw);

/* One run of a reading. Ticks are the board's. */
typedef struct
{
  guint       thread;       /* the reading's creation order */
  const char *name;
  int         priority;
  double      begin;        /* positions, for the order within a tick */
  double      end;
  gint64      begin_tick;
  gint64      end_tick;
  gboolean    open_start;   /* shown running from the start of the log */
  gboolean    open_end;     /* shown running to its end */
} ReadRun;

/* The runs of @capture; @first is the board's tick of its first record. */
GArray *  read_runs_of_capture (TksCapture *capture, gint64 first);

/* The runs the original viewer draws; @first_raw is the tick its first record prints. */
GArray *  read_runs_of_legacy (GPtrArray *threads, gint64 first, guint32 first_raw);

/* A hole of a log: the board did not record switches from tick @begin to tick @end. */
typedef struct
{
  gint64 begin;
  gint64 end;
} TruthHole;

/* The holes a threads_dump reply places in its log (its "Paused:" lines), in board ticks (the
 * line's full ticks, for boards younger than 2^32 ticks). */
GArray *  truth_holes (const char *dump);

/* Inside a hole nothing is claimed: the truth's runs (and the one going on at the read,
 * @running) without what lies in the holes' ticks. A run that lies there wholly goes, one
 * that crosses a hole ends at its first tick and goes on from its last. The order of the
 * events at the cuts is not compared. */
Truth *   truth_cut_holes (const Truth *truth, GArray *holes, TksTruthEvent *running);

/* A reading's runs without those that lie wholly in the ticks of a hole. */
void      truth_cut_read (GArray *read, GArray *holes);

typedef struct
{
  guint    truth_runs;    /* runs of the truth in the window (cut ones included) */
  guint    right;         /* on the right thread, from the same tick to the same tick */
  guint    wrong_thread;  /* the same ticks, on a thread named or ordered wrong */
  guint    wrong_named;   /* of those, on a thread the reading names (not "not in list") */
  guint    wrong_ticks;   /* the truth run is not drawn as such: missing or cut wrong */
  guint    spurious;      /* drawn where the truth has no such run */
  guint    edge_missing;  /* missing, but wholly in a tick the log holds only part of */
  guint    order_errors;  /* positions within a tick out of the order of events */
  gboolean failed;        /* the reader stopped on the input */
  gboolean names_kept;    /* set by the caller: the reading names exited dynamic threads as
                             the truth does (threads_dump); else it may call them "Exited
                             dynamic thread" (the legacy threads_list) */
  GString *errors;        /* the first few mismatches, for a test's message */
} TruthScore;

void      truth_score_clear (TruthScore *score);

/* Scores the reading @read against @truth in the window [@first, @last] (board ticks);
 * @running is the run going on when the log was read. */
void      truth_score (const Truth *truth, const TksTruthEvent *running, GArray *read,
                      gint64 first, gint64 last, TruthScore *score);

G_END_DECLS

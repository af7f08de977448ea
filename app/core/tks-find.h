/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-capture.h"
#include "tks-events.h"

G_BEGIN_DECLS

/*
 * Find: a short expression names what to look for in a capture, and the matches are the
 * moments it holds (docs/guide.md, "Find").
 *
 *   [WHAT] [NAME…] [OP VALUE[UNIT]]
 *
 * WHAT is one of run (or thread), latency (or wakeup), irq (or handler), sleep, marker,
 * state; NAME… is matched, without regard to case, inside the names (a thread's, a
 * handler's, a marker's, a channel's or state's, the handler that woke a sleep); OP is one of
 * > >= < <= = != and compares the measure of each match: a run's, handler's, sleep's or
 * state's length, a wake-up's latency (units ns, us or µs, ms, s, ticks), a marker's value (a
 * plain number). Without WHAT, the words find the runs of the threads, the handlers, markers
 * and states whose names hold them. Examples: "latency > 100us", "run > 2ms", "irq USART2",
 * "marker sample = 42", "sensor".
 */

#define TKS_FIND_ERROR (tks_find_error_quark ())
GQuark tks_find_error_quark (void);

typedef enum
{
  TKS_FIND_ERROR_SYNTAX,   /* the expression cannot be read: the message says where */
} TksFindError;

typedef enum
{
  TKS_FIND_RUN,      /* a thread's run: @thread, @index its run */
  TKS_FIND_WAKEUP,   /* a wake-up: @thread, @index into tks_events_get_wakeups() */
  TKS_FIND_HANDLER,  /* a handler's run: @track, @index its slice */
  TKS_FIND_SLEEP,    /* a sleep: @track, @index its slice */
  TKS_FIND_MARKER,   /* a marker: @track, @index its instant */
  TKS_FIND_STATE,    /* a state: @track, @index its slice */
} TksFindKind;

typedef struct
{
  double          begin;   /* ticks, on the runs' axis */
  double          end;     /* = begin for a marker; a wake-up: the switch-in */
  guint32         kind;    /* TksFindKind */
  guint32         thread;  /* RUN, WAKEUP: the thread's index; else G_MAXUINT */
  guint           index;
  const TksTrack *track;   /* HANDLER, SLEEP, MARKER, STATE */
  double          measure; /* µs (a length, a latency), or a marker's value */
} TksFindMatch;

typedef struct _TksFind TksFind;

/* NULL with an error of TKS_FIND_ERROR naming what is wrong and at which column. */
TksFind     *tks_find_parse      (const char   *expression,
                                  GError      **error);
void         tks_find_free       (TksFind      *find);
/* The expression as it was read, in words: "wake-ups of “filter” with latency > 100 µs". */
char        *tks_find_describe   (TksFind      *find);

/* The matches in @capture, sorted by begin, at most @max of them (0: no limit); @n_total
 * gets how many there are in all. @tick_hz: the ticks' rate for lengths (0: the capture's). */
GArray      *tks_find_run        (TksFind      *find,
                                  TksCapture   *capture,
                                  double        tick_hz,
                                  guint         max,
                                  guint        *n_total);
/* The match after @t (forward) or before @t (backward), wrapping around; G_MAXUINT when
 * there is none. */
guint        tks_find_next       (const GArray *matches,
                                  double        t,
                                  gboolean      forward);
/* What a match is, in words: "run of sensor, 2.345 ms". */
char        *tks_find_match_describe (TksCapture         *capture,
                                      const TksFindMatch *match);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksFind, tks_find_free)

G_END_DECLS

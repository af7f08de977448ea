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

/**
 * TKS_FIND_ERROR:
 *
 * The error domain of tks_find_parse(); its codes are #TksFindError.
 */
#define TKS_FIND_ERROR (tks_find_error_quark ())
/**
 * tks_find_error_quark:
 *
 * The quark of the %TKS_FIND_ERROR domain; use %TKS_FIND_ERROR.
 *
 * Returns: the quark
 */
GQuark tks_find_error_quark (void);

/**
 * TksFindError:
 * @TKS_FIND_ERROR_SYNTAX: the expression cannot be read: the message says where
 *
 * The codes of %TKS_FIND_ERROR.
 */
typedef enum
{
  TKS_FIND_ERROR_SYNTAX,   /* the expression cannot be read: the message says where */
} TksFindError;

/**
 * TksFindKind:
 * @TKS_FIND_RUN: a thread's run: thread, index its run
 * @TKS_FIND_WAKEUP: a wake-up: thread, index into tks_events_get_wakeups()
 * @TKS_FIND_HANDLER: a handler's run: track, index its slice
 * @TKS_FIND_SLEEP: a sleep: track, index its slice
 * @TKS_FIND_MARKER: a marker: track, index its instant
 * @TKS_FIND_STATE: a state: track, index its slice
 *
 * What a #TksFindMatch is, and which of its fields say where it is.
 */
typedef enum
{
  TKS_FIND_RUN,      /* a thread's run: @thread, @index its run */
  TKS_FIND_WAKEUP,   /* a wake-up: @thread, @index into tks_events_get_wakeups() */
  TKS_FIND_HANDLER,  /* a handler's run: @track, @index its slice */
  TKS_FIND_SLEEP,    /* a sleep: @track, @index its slice */
  TKS_FIND_MARKER,   /* a marker: @track, @index its instant */
  TKS_FIND_STATE,    /* a state: @track, @index its slice */
} TksFindKind;

/**
 * TksFindMatch:
 * @begin: where it begins (ticks, on the runs' axis)
 * @end: where it ends; = @begin for a marker; a wake-up's: its switch-in
 * @kind: a #TksFindKind
 * @thread: %TKS_FIND_RUN, %TKS_FIND_WAKEUP: the thread's index; else %G_MAXUINT
 * @index: the run, wake-up, slice or instant (see #TksFindKind)
 * @track: %TKS_FIND_HANDLER, %TKS_FIND_SLEEP, %TKS_FIND_MARKER, %TKS_FIND_STATE: its track
 * @measure: µs (a length, a latency), or a marker's value
 *
 * A moment where a find expression holds.
 */
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

/**
 * TksFind:
 *
 * A find expression, read (tks_find_parse()).
 */
typedef struct _TksFind TksFind;

/**
 * tks_find_parse:
 * @expression: a find expression, e.g. "latency > 100us"
 * @error: return location for a #GError, or %NULL
 *
 * Reads @expression. Fails with %TKS_FIND_ERROR_SYNTAX naming what is wrong and at which
 * column.
 *
 * Returns: (transfer full) (nullable): the expression read (free with tks_find_free()), or
 *   %NULL with @error set
 */
TksFind     *tks_find_parse      (const char   *expression,
                                  GError      **error);
/**
 * tks_find_free:
 * @find: (nullable): an expression
 *
 * Frees @find.
 */
void         tks_find_free       (TksFind      *find);
/**
 * tks_find_describe:
 * @find: an expression
 *
 * The expression as it was read, in words: "wake-ups of “filter” with latency > 100 µs".
 *
 * Returns: (transfer full): the text; free with g_free()
 */
char        *tks_find_describe   (TksFind      *find);

/**
 * tks_find_run:
 * @find: an expression
 * @capture: the capture to look in
 * @tick_hz: the ticks' rate for lengths, 0 for the capture's
 * @max: the most matches to return, 0 for no limit
 * @n_total: (out) (optional): how many matches there are in all
 *
 * Finds the moments of @capture where @find holds.
 *
 * Returns: (transfer full) (element-type TksFindMatch): the matches, sorted by begin, at most
 *   @max of them; free with g_array_unref()
 */
GArray      *tks_find_run        (TksFind      *find,
                                  TksCapture   *capture,
                                  double        tick_hz,
                                  guint         max,
                                  guint        *n_total);
/**
 * tks_find_next:
 * @matches: (element-type TksFindMatch): matches of tks_find_run()
 * @t: a position (ticks)
 * @forward: %TRUE for the match after @t, %FALSE for the one before it
 *
 * The match after @t (forward) or before @t (backward), wrapping around.
 *
 * Returns: its index in @matches, %G_MAXUINT when there is none
 */
guint        tks_find_next       (const GArray *matches,
                                  double        t,
                                  gboolean      forward);
/**
 * tks_find_match_describe:
 * @capture: the capture the match was found in
 * @match: a match of tks_find_run()
 *
 * What a match is, in words: "run of sensor, 2.345 ms".
 *
 * Returns: (transfer full): the text; free with g_free()
 */
char        *tks_find_match_describe (TksCapture         *capture,
                                      const TksFindMatch *match);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (TksFind, tks_find_free)

G_END_DECLS

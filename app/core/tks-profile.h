/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-capture.h"

G_BEGIN_DECLS

/*
 * A capture's figures per thread and per interrupt handler, side by side: what budgets are
 * checked against (tickscope-cli check), what two captures are compared by (diff) and what a
 * live table shows (top). Times in microseconds, from the capture's tick rate (its runs) or
 * its counter (its events).
 */

/**
 * TksSubjectKind:
 * @TKS_SUBJECT_THREAD: a thread
 * @TKS_SUBJECT_HANDLER: an interrupt handler
 *
 * What a row of a profile (or a budget) is about.
 */
typedef enum
{
  TKS_SUBJECT_THREAD,
  TKS_SUBJECT_HANDLER,
} TksSubjectKind;

/**
 * TksProfileRow:
 * @kind: a #TksSubjectKind
 * @index: a thread: its creation order; a handler: its %TKS_TRACK_IRQ track
 * @name: its name, owned by the capture
 * @measured: a logged thread, or a handler: its runs are known
 * @share: the % of the range it ran (handlers: their outermost runs)
 * @activations: runs that begin inside the range
 * @activations_per_s: @activations per second of the range
 * @max_run_us: the longest run (handlers: the longest call), NAN without runs
 * @max_run_at: where that run begins (ticks)
 * @n_latencies: wake-ups that ended in a switch-in (threads of a capture with events)
 * @p99_latency_us: the 99th percentile of the latencies (nearest rank); NAN without wake-ups
 * @max_latency_us: the longest latency
 * @max_latency_at: where the longest one was made ready (ticks)
 *
 * One thread's or handler's figures over a range, as tks_profile_compute() gives them.
 */
typedef struct
{
  guint       kind;             /* TksSubjectKind */
  guint       index;            /* thread: creation order; handler: its TKS_TRACK_IRQ track */
  const char *name;             /* owned by the capture */
  gboolean    measured;         /* a logged thread, or a handler: its runs are known */
  double      share;            /* % of the range it ran (handlers: outermost runs) */
  guint       activations;      /* runs that begin inside the range */
  double      activations_per_s;
  double      max_run_us;       /* longest run (handlers: longest call), NAN without runs */
  double      max_run_at;       /* where it begins (ticks) */
  guint       n_latencies;      /* wake-ups that ended in a switch-in (threads with events) */
  double      p99_latency_us;   /* nearest rank; NAN without wake-ups */
  double      max_latency_us;
  double      max_latency_at;   /* where the longest one was made ready (ticks) */
} TksProfileRow;

/**
 * tks_profile_compute:
 * @capture: a capture
 * @from: start of the range in ticks, NAN for the capture's start
 * @to: end of the range in ticks, NAN for the capture's end
 *
 * The figures of every thread and handler over [@from, @to]: one row per thread (creation
 * order) that was logged or is listed, then one per handler.
 *
 * Returns: (transfer full) (element-type TksProfileRow): the rows; free with g_array_unref()
 */
GArray *tks_profile_compute       (TksCapture *capture,
                                   double      from,
                                   double      to);
/**
 * tks_runs_max_window_share:
 * @runs: (array length=n_runs): runs, sorted, not overlapping
 * @n_runs: the number of @runs
 * @from: start of the range (ticks)
 * @to: end of the range (ticks)
 * @window: the window's length (ticks); the whole range when it is not longer than @window
 *   (or @window is not above 0)
 * @at: (out): the start of the busiest window (@from when the range is empty)
 *
 * The largest share of any window @window ticks long inside [@from, @to] that @runs cover.
 *
 * Returns: the share in %, NAN when the range is empty
 */
double  tks_runs_max_window_share (const TksRun *runs,
                                   guint         n_runs,
                                   double        from,
                                   double        to,
                                   double        window,
                                   double       *at);
/**
 * tks_profile_handler_runs:
 * @capture: a capture
 * @track: the handler's index among the %TKS_TRACK_IRQ tracks
 * @n_runs: (out): the number of runs returned
 *
 * A handler's outermost calls as runs: a call nested in another of the same handler is
 * part of it.
 *
 * Returns: (transfer full) (array length=n_runs) (nullable): the runs, sorted; free with
 *   g_free(); %NULL when the capture has no events
 */
TksRun *tks_profile_handler_runs  (TksCapture   *capture,
                                   guint         track,
                                   guint        *n_runs);

G_END_DECLS

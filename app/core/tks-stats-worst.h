/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-capture.h"
#include "tks-events.h"

G_BEGIN_DECLS

/*
 * The instances behind a statistic: where a thread's longest run, its worst wake-up, a
 * handler's longest run, a marker's longest interval or a thread's highest CPU share happened,
 * worst first, so that a figure of the statistics leads to its moment in the timeline.
 *
 * Each kind measures as its table does (tks-stats.h, tks-events.h), over the same range:
 * runs are clipped to it, wake-ups are counted where they were made ready, handlers where
 * they begin, markers' intervals between consecutive occurrences inside it.
 */

/**
 * TKS_WORST_WINDOWS:
 *
 * The windows a range is cut into for %TKS_WORST_SHARE, %TKS_WORST_IRQ_SHARE and
 * %TKS_WORST_SLEEP_SHARE.
 */
#define TKS_WORST_WINDOWS 100

/**
 * TksWorstKind:
 * @TKS_WORST_RUN: a thread's longest runs (key: the thread's index); measure: ticks
 * @TKS_WORST_WAKEUP: a thread's longest wake-up latencies (key: the thread's index);
 *   measure: µs
 * @TKS_WORST_HANDLER: a handler's longest runs (key: its track's index among the handlers'
 *   tracks); measure: µs
 * @TKS_WORST_MARKER: a marker's longest intervals (key: its track's index among the markers'
 *   tracks); measure: µs
 * @TKS_WORST_SHARE: the windows where a thread's share of the CPU, handlers excluded, is
 *   highest (key: the thread's index); measure: %
 * @TKS_WORST_IRQ_SHARE: the windows most spent in handlers (key unused); measure: %
 * @TKS_WORST_SLEEP_SHARE: the windows the CPU slept most (key unused); measure: %
 *
 * What tks_stats_worst() looks for. The shares are those of the %TKS_WORST_WINDOWS equal
 * windows the range is cut into.
 */
typedef enum
{
  TKS_WORST_RUN,
  TKS_WORST_WAKEUP,
  TKS_WORST_HANDLER,
  TKS_WORST_MARKER,
  TKS_WORST_SHARE,
  TKS_WORST_IRQ_SHARE,
  TKS_WORST_SLEEP_SHARE,
} TksWorstKind;

/**
 * TksWorst:
 * @begin: where the instance begins (ticks): a run's begin, a wake-up's ready, a handler's
 *   enter, the interval's first marker, a window's start
 * @end: where it ends: a run's end, a wake-up's switch-in, a handler's leave, the interval's
 *   second marker, a window's end
 * @measure: the figure the table shows for it, in the unit of #TksWorstKind
 * @thread: the thread whose run to select: the run's, the woken one's, the window's thread;
 *   %G_MAXUINT for a handler, a marker and the windows of handlers and sleep
 * @index: the run's index, the wake-up's (tks_events_get_wakeups()), the handler's slice, the
 *   interval's second instant, or the window's number
 *
 * One instance of a statistic.
 */
typedef struct
{
  double begin;
  double end;
  double measure;
  guint  thread;
  guint  index;
} TksWorst;

/**
 * tks_stats_worst:
 * @capture: a capture
 * @kind: what to look for
 * @key: the thread or the track (see #TksWorstKind)
 * @from: start of the range in ticks, NAN for the capture's start
 * @to: end of the range in ticks, NAN for the capture's end
 * @n: the most instances to return
 *
 * The @n worst instances of a statistic over [@from, @to]: the first one's measure is the
 * table's longest (highest) figure. The kinds of events give none for a capture without
 * events.
 *
 * Returns: (transfer full) (element-type TksWorst): the instances, worst first (an equal
 *   measure: the earlier first); free with g_array_unref()
 */
GArray *tks_stats_worst (TksCapture   *capture,
                         TksWorstKind  kind,
                         guint         key,
                         double        from,
                         double        to,
                         guint         n);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-events.h"

G_BEGIN_DECLS

/*
 * Periods and deadlines from the wake-ups (an events recording). A thread's activations are
 * its wake-ups: each begins when it is made ready and ends when it stops running without
 * being ready any more, i.e. its last switch-out before its next Ready (a switch-out followed
 * by a switch-in without a Ready between is a preemption, not the end). An activation whose
 * end the log does not show (the last one, or one still running) has no response time.
 *
 * Its period is detected from the intervals between successive Ready times: the median
 * interval, when at least 90 % of the intervals lie within the tolerance of it (10 % of the
 * median by default) and there are at least two intervals; else the thread is aperiodic.
 * Deadline misses count the activations whose response time (made ready to the end of the
 * activation) exceeds the deadline: the period given, else the one detected; none without
 * either.
 *
 * These are computed here, from the Ready entries, apart from other activation counts (a
 * capture without events has runs but no Ready: no activation here).
 */

/**
 * TKS_PERIODS_TOLERANCE:
 *
 * The fraction of the median interval an interval may differ from it and still count as
 * regular, unless tks_periods_stats() is given another.
 */
#define TKS_PERIODS_TOLERANCE 0.10

/**
 * TksPeriodStats:
 * @thread: index into the capture's threads
 * @activations: its wake-ups
 * @completed: those with a response time
 * @periodic: a period was detected
 * @period: the period detected (time units, the median interval); 0 when aperiodic
 * @deadline: what misses count against: the period given, else the one detected; 0: none
 * @deadline_given: @deadline is the period given
 * @interval_min: the shortest interval; the interval figures are all 0 below two activations
 * @interval_max: the longest interval
 * @interval_p99: the 99th percentile of the intervals (nearest rank)
 * @response_min: the shortest response time of the completed activations; the response
 *   figures are all 0 when none completed
 * @response_max: the longest response time
 * @response_p99: the 99th percentile of the response times (nearest rank)
 * @misses: activations whose response time exceeds @deadline
 * @worst: the wake-up (index into tks_events_get_wakeups()) with the longest response time;
 *   %G_MAXUINT when none completed
 * @worst_ready: its Ready, where to look
 * @worst_end: the end of its activation
 *
 * A thread's period and deadline figures, as tks_periods_stats() gives them. Times are in
 * the units of #TksTime's time.
 */
typedef struct
{
  guint    thread;          /* index into the capture's threads */
  guint    activations;     /* wake-ups */
  guint    completed;       /* those with a response time */
  gboolean periodic;        /* a period was detected */
  gint64   period;          /* detected (time units, the median interval); 0 when aperiodic */
  gint64   deadline;        /* what misses count against: given, else detected; 0: none */
  gboolean deadline_given;
  gint64   interval_min;    /* over every interval; all 0 below two activations */
  gint64   interval_max;
  gint64   interval_p99;    /* nearest rank */
  gint64   response_min;    /* of the completed activations; 0 when none */
  gint64   response_max;
  gint64   response_p99;
  guint    misses;          /* response > deadline */
  guint    worst;           /* the wake-up (index into tks_events_get_wakeups()) with the
                               longest response time; G_MAXUINT when none completed */
  TksTime  worst_ready;     /* its Ready, where to look */
  TksTime  worst_end;       /* the end of its activation */
} TksPeriodStats;

/**
 * tks_periods_activation_end:
 * @events: a capture's events
 * @index: a wake-up (index into tks_events_get_wakeups())
 * @end: (out): where the activation the wake-up begins ends
 *
 * The end of an activation: the thread's last switch-out before its next Ready.
 *
 * Returns: %FALSE when the log does not show its end (the last activation, or one still
 *   running)
 */
gboolean tks_periods_activation_end (TksEvents *events,
                                     guint      index,
                                     TksTime   *end);

/**
 * tks_periods_stats:
 * @events: a capture's events
 * @deadlines: (array length=n_deadlines) (nullable): per thread index, a period given (time
 *   units, 0: none), or %NULL
 * @n_deadlines: the number of @deadlines
 * @tolerance: the fraction of the median an interval may differ from it and still count as
 *   regular (<= 0: %TKS_PERIODS_TOLERANCE)
 *
 * The periods and deadline misses of every thread that was woken.
 *
 * Returns: (transfer full) (element-type TksPeriodStats): one row per thread with a wake-up,
 *   by thread index; free with g_array_unref()
 */
GArray  *tks_periods_stats          (TksEvents    *events,
                                     const gint64 *deadlines,
                                     guint         n_deadlines,
                                     double        tolerance);

G_END_DECLS

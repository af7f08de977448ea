/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-capture.h"

G_BEGIN_DECLS

/*
 * A thread's activations and the intervals between them, for a period and its jitter.
 *
 * An activation is the moment a thread begins to run because it was woken: with wake-ups
 * recorded (a capture with events: the board logs the Ready entries), the switch-in that ends
 * each of its wake-ups; without them, the beginning of each of its runs (a run that resumes
 * after a preemption then counts too: the switch log cannot tell them apart).
 */

/**
 * TksActivationIntervals:
 * @n_intervals: activations - 1 (0 below two activations)
 * @mean: the mean interval (ticks); NAN without intervals
 * @min: the shortest interval (ticks)
 * @max: the longest interval (ticks)
 * @reference: what the jitter is measured from: the period given, else the mean
 * @jitter: the largest |interval - reference| (ticks)
 * @jitter_at: the activation that ends that interval (ticks), NAN without one
 * @n_over: intervals whose |interval - reference| exceeds the tolerance given
 *
 * The intervals between a thread's activations, as tks_activation_intervals() measures them.
 */
typedef struct
{
  guint  n_intervals;   /* activations - 1 (0 below two activations) */
  double mean;          /* ticks; NAN without intervals */
  double min;
  double max;
  double reference;     /* what the jitter is measured from: the period given, else the mean */
  double jitter;        /* the largest |interval - reference| (ticks) */
  double jitter_at;     /* the activation that ends that interval (ticks), NAN without one */
  guint  n_over;        /* intervals whose |interval - reference| exceeds the tolerance given */
} TksActivationIntervals;

/**
 * tks_thread_activations:
 * @capture: a capture
 * @thread: the thread's index (creation order)
 * @from: start of the range in ticks, NAN for the capture's start
 * @to: end of the range in ticks, NAN for the capture's end
 * @from_wakeups: (out) (optional): whether the activations come from wake-ups (a capture with
 *   events) rather than from the beginnings of runs
 *
 * The activations of @thread inside [@from, @to].
 *
 * Returns: (transfer full) (element-type double): the activations' positions in ticks, sorted;
 *   free with g_array_unref()
 */
GArray *tks_thread_activations         (TksCapture *capture,
                                        guint       thread,
                                        double      from,
                                        double      to,
                                        gboolean   *from_wakeups);
/**
 * tks_activation_intervals:
 * @times: (array length=n_times): activations in ticks, sorted
 * @n_times: the number of @times
 * @period: the expected interval (ticks), NAN to measure the jitter from the mean
 * @tolerance: the jitter allowed (ticks), counted in @out's n_over; NAN: none counted
 * @out: (out caller-allocates): the intervals' figures
 *
 * Measures the intervals between consecutive @times.
 */
void    tks_activation_intervals       (const double           *times,
                                        guint                   n_times,
                                        double                  period,
                                        double                  tolerance,
                                        TksActivationIntervals *out);

G_END_DECLS

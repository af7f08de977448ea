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

/* @thread's activations (positions in ticks, sorted) inside [from, to] (NAN: the capture's
 * start or end). @from_wakeups (may be NULL) says whether they come from wake-ups. */
GArray *tks_thread_activations         (TksCapture *capture,
                                        guint       thread,
                                        double      from,
                                        double      to,
                                        gboolean   *from_wakeups);
/* The intervals between consecutive @times (sorted, ticks). @period: the expected interval
 * (ticks), NAN to measure from the mean; @tolerance: the jitter allowed (ticks), counted in
 * n_over (NAN: none counted). */
void    tks_activation_intervals       (const double           *times,
                                        guint                   n_times,
                                        double                  period,
                                        double                  tolerance,
                                        TksActivationIntervals *out);

G_END_DECLS

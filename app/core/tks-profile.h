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

typedef enum
{
  TKS_SUBJECT_THREAD,
  TKS_SUBJECT_HANDLER,
} TksSubjectKind;

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

/* One row per thread (creation order) that was logged or is listed, then one per handler,
 * over [from, to] (NAN: the capture's start or end). */
GArray *tks_profile_compute       (TksCapture *capture,
                                   double      from,
                                   double      to);
/* The largest share (%) of any window @window ticks long inside [from, to] that the runs
 * (sorted, not overlapping) cover; @at: that window's start. The whole range when it is not
 * longer than @window. */
double  tks_runs_max_window_share (const TksRun *runs,
                                   guint         n_runs,
                                   double        from,
                                   double        to,
                                   double        window,
                                   double       *at);
/* A handler's outermost calls as runs (free with g_free). */
TksRun *tks_profile_handler_runs  (TksCapture   *capture,
                                   guint         track,
                                   guint        *n_runs);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "tks-capture.h"

G_BEGIN_DECLS

/*
 * Statistics of a capture over a time range [from, to] (ticks).
 *
 * Runs are clipped to the range: a run that straddles a bound counts with the part of it that
 * lies inside. "Pieces" below are those clipped runs (only the ones with a non-zero length).
 */

/**
 * TksThreadStats:
 * @thread: creation order (index into the capture's threads)
 * @flags: the thread's #TksThreadFlags
 * @run_time: ticks spent running inside the range
 * @share: @run_time as a percentage of the range's length
 * @activations: runs that begin inside [from, to)
 * @n_pieces: runs that overlap the range
 * @min_run: shortest piece, NAN without pieces
 * @mean_run: @run_time / @n_pieces, NAN without pieces
 * @max_run: longest piece, NAN without pieces
 * @longest_wait: longest gap between two consecutive pieces, NAN below two pieces
 * @longest_wait_begin: where that gap begins, NAN when there is none
 * @n_in_marks: threads that are not logged: IN marks inside the range
 * @n_out_marks: threads that are not logged: OUT marks inside the range
 * @exits_in_range: its exit lies inside the range
 *
 * One thread's figures over a range (tks_thread_stats_compute(), tks_stats_compute()).
 */
typedef struct
{
  guint    thread;        /* creation order (index into the capture's threads) */
  guint    flags;         /* the thread's TksThreadFlags */
  double   run_time;      /* ticks spent running inside the range */
  double   share;         /* run_time as a percentage of the range's length */
  guint    activations;   /* runs that begin inside [from, to) */
  guint    n_pieces;      /* runs that overlap the range */
  double   min_run;       /* shortest piece, NAN without pieces */
  double   mean_run;      /* run_time / n_pieces, NAN without pieces */
  double   max_run;       /* longest piece, NAN without pieces */
  double   longest_wait;  /* longest gap between two consecutive pieces, NAN below two pieces */
  double   longest_wait_begin; /* where that gap begins, NAN when there is none */
  guint    n_in_marks;    /* threads that are not logged: IN marks inside the range */
  guint    n_out_marks;   /* threads that are not logged: OUT marks inside the range */
  gboolean exits_in_range; /* its exit lies inside the range */
} TksThreadStats;

/**
 * TksStatsTotals:
 * @from: the start of the range actually used (clamped to the capture)
 * @to: its end
 * @duration: @to - @from
 * @busy_time: the sum of run_time over every thread
 * @covered_share: @busy_time as a percentage of the duration
 * @n_threads: the capture's threads
 * @n_logged_threads: those whose runs are logged
 * @activations: the sum over every thread
 * @exits: exits inside the range
 * @max_switches_per_tick: of the whole capture
 * @mean_switches_per_tick: of the whole capture
 *
 * The figures of a whole capture over a range, as tks_stats_compute() gives them.
 */
typedef struct
{
  double from;                   /* the range actually used (clamped to the capture) */
  double to;
  double duration;               /* to - from */
  double busy_time;              /* sum of run_time over every thread */
  double covered_share;          /* busy_time as a percentage of the duration */
  guint  n_threads;
  guint  n_logged_threads;
  guint  activations;            /* sum over every thread */
  guint  exits;                  /* exits inside the range */
  guint  max_switches_per_tick;  /* of the whole capture */
  double mean_switches_per_tick; /* of the whole capture */
} TksStatsTotals;

GArray   *tks_stats_compute          (TksCapture     *capture,
                                      double          from,
                                      double          to,
                                      TksStatsTotals *totals,
                                      GError        **error);

void      tks_thread_stats_compute   (const TksThread *thread,
                                      double           from,
                                      double           to,
                                      TksThreadStats  *stats);

G_END_DECLS

/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "tks-error.h"
#include "tks-stats.h"

/* Is @pos inside the range? Half-open [from, to), closed when @closed_end. */
static inline gboolean
in_range (double   pos,
          double   from,
          double   to,
          gboolean closed_end)
{
  return pos >= from && (pos < to || (closed_end && pos == to));
}

static void
thread_stats_compute_full (const TksThread *thread,
                           double           from,
                           double           to,
                           gboolean         closed_end,
                           TksThreadStats  *stats)
{
  double prev_end = NAN;

  memset (stats, 0, sizeof *stats);
  stats->thread = thread->index;
  stats->flags = thread->flags;
  stats->min_run = NAN;
  stats->mean_run = NAN;
  stats->max_run = NAN;
  stats->longest_wait = NAN;
  stats->longest_wait_begin = NAN;

  if (thread->runs != NULL)
    {
      for (guint i = tks_runs_first_ending_after (thread->runs, thread->n_runs, from);
           i < thread->n_runs && thread->runs[i].begin < to;
           i++)
        {
          const TksRun *run = &thread->runs[i];
          double begin = MAX (run->begin, from);
          double end = MIN (run->end, to);
          double len = end - begin;

          if (!(len > 0))
            continue;

          if (run->begin >= from)
            stats->activations++;

          stats->n_pieces++;
          stats->run_time += len;

          if (stats->n_pieces == 1 || len < stats->min_run)
            stats->min_run = len;
          if (stats->n_pieces == 1 || len > stats->max_run)
            stats->max_run = len;

          if (!isnan (prev_end))
            {
              double wait = begin - prev_end;

              if (isnan (stats->longest_wait) || wait > stats->longest_wait)
                {
                  stats->longest_wait = wait;
                  stats->longest_wait_begin = prev_end;
                }
            }

          prev_end = end;
        }
    }

  if (stats->n_pieces > 0)
    stats->mean_run = stats->run_time / stats->n_pieces;

  if (to > from)
    stats->share = 100.0 * stats->run_time / (to - from);

  if (thread->marks != NULL)
    {
      for (guint i = tks_marks_first_at (thread->marks, 0, thread->n_marks, from);
           i < thread->n_marks && in_range (thread->marks[i].pos, from, to, closed_end);
           i++)
        {
          if (thread->marks[i].kind == TKS_MARK_IN)
            stats->n_in_marks++;
          else
            stats->n_out_marks++;
        }
    }

  if ((thread->flags & TKS_THREAD_EXITED) != 0 &&
      in_range (thread->exit_time, from, to, closed_end))
    stats->exits_in_range = TRUE;
}

/**
 * tks_thread_stats_compute:
 * @thread: a thread of a capture
 * @from: start of the range, in ticks
 * @to: end of the range, in ticks (@to >= @from)
 * @stats: (out caller-allocates): where to store the figures
 *
 * Computes the figures of one thread over [@from, @to). Marks and the exit are counted in
 * [@from, @to), runs are clipped to the range.
 */
void
tks_thread_stats_compute (const TksThread *thread,
                          double           from,
                          double           to,
                          TksThreadStats  *stats)
{
  g_return_if_fail (thread != NULL);
  g_return_if_fail (stats != NULL);

  thread_stats_compute_full (thread, from, to, FALSE, stats);
}

/**
 * tks_stats_compute:
 * @capture: a capture
 * @from: start of the range in ticks, or NAN for the start of the capture
 * @to: end of the range in ticks, or NAN for the end of the capture
 * @totals: (out caller-allocates) (optional): figures of the whole capture over the range
 * @error: return location for an error
 *
 * Computes per-thread statistics over [@from, @to], clamped to the capture and to the log's
 * end (tks_capture_get_log_end()). Marks and exits lying exactly at the end of the capture are
 * counted when the range reaches it. Threads that exited before the log began have a row (all
 * zero) but are not counted in @totals.
 *
 * Returns: (transfer full) (element-type TksThreadStats): a #GArray of #TksThreadStats in
 *   creation order, or %NULL with @error set when the range is empty or outside the capture.
 */
GArray *
tks_stats_compute (TksCapture     *capture,
                   double          from,
                   double          to,
                   TksStatsTotals *totals,
                   GError        **error)
{
  g_autoptr(GArray) result = NULL;
  TksStatsTotals t = { 0 };
  double start;
  double end;
  guint n_threads;

  g_return_val_if_fail (TKS_IS_CAPTURE (capture), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  start = tks_capture_get_start (capture);
  end = tks_capture_get_end (capture);

  if (!isfinite (start) || !isfinite (end))
    {
      g_set_error_literal (error, TKS_ERROR, TKS_ERROR_EMPTY,
                           _("The capture holds no records: there is nothing to measure"));
      return NULL;
    }

  if (isnan (from))
    from = start;
  if (isnan (to))
    to = end;

  if (!isfinite (from) || !isfinite (to) || from > to)
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_USAGE,
                   /* Translators: the range's start and end, in ticks */
                   _("The range %g to %g is empty: its end must come after its start"),
                   from, to);
      return NULL;
    }

  if (to < start || from > end)
    {
      g_set_error (error, TKS_ERROR, TKS_ERROR_USAGE,
                   /* Translators: the range's start and end, then the capture's, in ticks */
                   _("The range %g to %g lies outside the capture, which spans %g to %g"),
                   from, to, start, end);
      return NULL;
    }

  /* Nothing is known after the log's end (only exits were recorded after it). */
  from = MAX (from, start);
  to = MIN (to, tks_capture_get_log_end (capture, NULL));
  from = MIN (from, to);

  t.from = from;
  t.to = to;
  t.duration = to - from;
  t.max_switches_per_tick = tks_capture_get_max_switches_per_tick (capture);
  t.mean_switches_per_tick = tks_capture_get_mean_switches_per_tick (capture);

  n_threads = tks_capture_get_n_threads (capture);
  result = g_array_sized_new (FALSE, TRUE, sizeof (TksThreadStats), n_threads);
  g_array_set_size (result, n_threads);

  for (guint i = 0; i < n_threads; i++)
    {
      const TksThread *thread = tks_capture_get_thread (capture, i);
      TksThreadStats *stats = &g_array_index (result, TksThreadStats, i);

      thread_stats_compute_full (thread, from, to, to >= end, stats);

      /* Gone before the log began: it did not run in it. */
      if (thread->flags & TKS_THREAD_EXITED_BEFORE_LOG)
        continue;
      t.n_threads++;
      if ((thread->flags & TKS_THREAD_LOGGED) != 0)
        t.n_logged_threads++;
      t.busy_time += stats->run_time;
      t.activations += stats->activations;
      if (stats->exits_in_range)
        t.exits++;
    }

  if (t.duration > 0)
    t.covered_share = 100.0 * t.busy_time / t.duration;

  if (totals != NULL)
    *totals = t;

  return g_steal_pointer (&result);
}

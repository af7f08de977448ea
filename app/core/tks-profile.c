/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A capture's figures per thread and per handler (tks-profile.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "tks-events.h"
#include "tks-profile.h"
#include "tks-stats.h"

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y ? 1 : 0;
}

/* Ticks the runs cover in [runs[0].begin, t): @sums[i] is the time of runs[0..i). */
static double
busy_before (const TksRun *runs,
             const double *sums,
             guint         n_runs,
             double        t)
{
  guint k = tks_runs_first_ending_after (runs, n_runs, t);

  if (k >= n_runs)
    return sums[n_runs];
  return sums[k] + MAX (0, t - runs[k].begin);
}

double
tks_runs_max_window_share (const TksRun *runs,
                           guint         n_runs,
                           double        from,
                           double        to,
                           double        window,
                           double       *at)
{
  g_autofree double *sums = NULL;
  double best = -1, best_at = from;

  *at = from;
  if (!(to > from))
    return NAN;
  sums = g_new (double, n_runs + 1);
  sums[0] = 0;
  for (guint i = 0; i < n_runs; i++)
    sums[i + 1] = sums[i] + (runs[i].end - runs[i].begin);

  if (!(window > 0) || to - from <= window)
    return 100.0 * (busy_before (runs, sums, n_runs, to) - busy_before (runs, sums, n_runs, from))
           / (to - from);

  /* The busiest window begins where a run begins or ends where a run ends. */
  for (guint i = 0; i < 2 * n_runs; i++)
    {
      const TksRun *r = &runs[i / 2];
      double t0 = i % 2 == 0 ? r->begin : r->end - window;
      double busy;

      t0 = CLAMP (t0, from, to - window);
      busy = busy_before (runs, sums, n_runs, t0 + window) - busy_before (runs, sums, n_runs, t0);
      if (busy > best)
        {
          best = busy;
          best_at = t0;
        }
    }
  if (best < 0)
    best = 0;
  *at = best_at;
  return 100.0 * best / window;
}

TksRun *
tks_profile_handler_runs (TksCapture *capture,
                          guint       track,
                          guint      *n_runs)
{
  TksEvents *events = tks_capture_get_events (capture);
  const TksTrack *tracks;
  guint n_tracks = 0, n = 0;
  TksRun *runs;
  double last_end = -G_MAXDOUBLE;

  *n_runs = 0;
  if (events == NULL)
    return NULL;
  tracks = tks_events_get_tracks (events, TKS_TRACK_IRQ, &n_tracks);
  g_return_val_if_fail (track < n_tracks, NULL);
  runs = g_new (TksRun, MAX (tracks[track].n_slices, 1));
  for (guint i = 0; i < tracks[track].n_slices; i++)
    {
      const TksSlice *s = &tracks[track].slices[i];

      /* nested in a call of its own: inside the outer one already */
      if (s->begin.pos < last_end)
        continue;
      runs[n].begin = s->begin.pos;
      runs[n].end = MAX (s->end.pos, s->begin.pos);
      last_end = runs[n].end;
      n++;
    }
  *n_runs = n;
  return runs;
}

static void
thread_latencies (TksCapture    *capture,
                  TksEvents     *events,
                  double         from,
                  double         to,
                  TksProfileRow *row)
{
  guint n;
  const TksWakeup *w = tks_events_get_wakeups (events, &n);
  g_autoptr(GArray) lat = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; i < n; i++)
    {
      double us;

      if (w[i].thread != row->index || w[i].open || w[i].ready.pos < from || w[i].ready.pos > to)
        continue;
      us = tks_events_to_us (events, w[i].latency);
      g_array_append_val (lat, us);
      if (lat->len == 1 || us > row->max_latency_us)
        {
          row->max_latency_us = us;
          row->max_latency_at = w[i].ready.pos;
        }
    }
  row->n_latencies = lat->len;
  if (lat->len > 0)
    {
      guint rank;

      g_array_sort (lat, compare_doubles);
      /* nearest rank, as tks_events_latency_stats() takes it */
      rank = (guint) ceil (0.99 * lat->len);
      row->p99_latency_us = g_array_index (lat, double, MAX (rank, 1) - 1);
    }
}

GArray *
tks_profile_compute (TksCapture *capture,
                     double      from,
                     double      to)
{
  GArray *rows = g_array_new (FALSE, TRUE, sizeof (TksProfileRow));
  TksEvents *events;
  double tick_hz, us_per_tick, seconds;
  guint n_threads;

  g_return_val_if_fail (TKS_IS_CAPTURE (capture), rows);

  if (isnan (from))
    from = tks_capture_get_start (capture);
  if (isnan (to))
    to = tks_capture_get_end (capture);
  events = tks_capture_get_events (capture);
  tick_hz = tks_capture_get_tick_hz (capture);
  us_per_tick = 1e6 / tick_hz;
  seconds = (to - from) / tick_hz;

  n_threads = tks_capture_get_n_threads (capture);
  for (guint i = 0; i < n_threads; i++)
    {
      const TksThread *t = tks_capture_get_thread (capture, i);
      TksProfileRow row = { .kind = TKS_SUBJECT_THREAD, .index = i, .name = t->name };
      TksThreadStats s;

      if ((t->flags & TKS_THREAD_EXITED_BEFORE_LOG) != 0)
        continue;
      row.measured = (t->flags & TKS_THREAD_LOGGED) != 0;
      row.max_run_us = row.max_run_at = NAN;
      row.p99_latency_us = row.max_latency_us = row.max_latency_at = NAN;
      row.share = row.activations_per_s = NAN;
      if (row.measured)
        {
          tks_thread_stats_compute (t, from, to, &s);
          row.share = s.share;
          row.activations = s.activations;
          row.activations_per_s = seconds > 0 ? s.activations / seconds : NAN;
          for (guint r = tks_runs_first_ending_after (t->runs, t->n_runs, from);
               r < t->n_runs && t->runs[r].begin < to; r++)
            {
              double len = MIN (t->runs[r].end, to) - MAX (t->runs[r].begin, from);

              if (len > 0 && (isnan (row.max_run_us) || len * us_per_tick > row.max_run_us))
                {
                  row.max_run_us = len * us_per_tick;
                  row.max_run_at = MAX (t->runs[r].begin, from);
                }
            }
        }
      if (events != NULL)
        thread_latencies (capture, events, from, to, &row);
      g_array_append_val (rows, row);
    }

  if (events != NULL)
    {
      guint n_tracks;
      const TksTrack *tracks = tks_events_get_tracks (events, TKS_TRACK_IRQ, &n_tracks);

      for (guint k = 0; k < n_tracks; k++)
        {
          TksProfileRow row = { .kind = TKS_SUBJECT_HANDLER, .index = k,
                                .name = tracks[k].name, .measured = TRUE };
          guint n_runs;
          g_autofree TksRun *runs = tks_profile_handler_runs (capture, k, &n_runs);
          double busy = 0;

          row.max_run_us = row.max_run_at = NAN;
          row.p99_latency_us = row.max_latency_us = row.max_latency_at = NAN;
          for (guint i = 0; i < tracks[k].n_slices; i++)
            {
              const TksSlice *sl = &tracks[k].slices[i];
              double us = tks_events_to_us (events, sl->end.time - sl->begin.time);

              if (sl->begin.pos < from || sl->begin.pos > to)
                continue;
              row.activations++;
              if (isnan (row.max_run_us) || us > row.max_run_us)
                {
                  row.max_run_us = us;
                  row.max_run_at = sl->begin.pos;
                }
            }
          for (guint i = 0; i < n_runs; i++)
            busy += MAX (0, MIN (runs[i].end, to) - MAX (runs[i].begin, from));
          row.share = to > from ? 100.0 * busy / (to - from) : NAN;
          row.activations_per_s = seconds > 0 ? row.activations / seconds : NAN;
          g_array_append_val (rows, row);
        }
    }
  return rows;
}

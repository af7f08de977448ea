/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The instances behind a statistic, worst first (tks-stats-worst.h). */
#include "config.h"

#include <math.h>

#include "tks-stats-worst.h"

/* Keeps @w among the @n worst of @top (worst first; an equal measure after those already
 * there, so the earlier of two equal ones comes first when they come in time order). */
static void
keep (GArray         *top,
      guint           n,
      const TksWorst *w)
{
  guint i = top->len;

  if (n == 0 || isnan (w->measure))
    return;
  if (top->len == n && !(w->measure > g_array_index (top, TksWorst, n - 1).measure))
    return;
  while (i > 0 && w->measure > g_array_index (top, TksWorst, i - 1).measure)
    i--;
  if (top->len == n)
    g_array_set_size (top, n - 1);
  g_array_insert_val (top, i, *w);
}

/* NAN bounds: from the first to the last thing the capture holds, runs or events. */
static void
resolve_range (TksCapture *capture,
               double     *from,
               double     *to)
{
  TksEvents *events = tks_capture_get_events (capture);
  double first = tks_capture_get_start (capture), last = tks_capture_get_end (capture);
  guint n = 0;
  const TksEventEntry *e = events != NULL ? tks_events_get_entries (events, &n) : NULL;

  if (n > 0)
    {
      first = MIN (first, e[0].time.pos);
      last = MAX (last, e[n - 1].time.pos);
    }
  if (isnan (*from))
    *from = first;
  if (isnan (*to))
    *to = last;
}

/* A thread's runs clipped to the range, as tks_thread_stats_compute() measures them. */
static void
worst_runs (const TksThread *th,
            double           from,
            double           to,
            GArray          *top,
            guint            n)
{
  if (th->runs == NULL)
    return;
  for (guint i = tks_runs_first_ending_after (th->runs, th->n_runs, from);
       i < th->n_runs && th->runs[i].begin < to; i++)
    {
      const TksRun *r = &th->runs[i];
      TksWorst w = { r->begin, r->end, MIN (r->end, to) - MAX (r->begin, from), th->index, i };

      if (w.measure > 0)
        keep (top, n, &w);
    }
}

/* A thread's wake-ups made ready inside the range that ended in a switch-in. */
static void
worst_wakeups (TksEvents *events,
               guint      thread,
               double     from,
               double     to,
               GArray    *top,
               guint      n)
{
  guint n_wakeups;
  const TksWakeup *wk = tks_events_get_wakeups (events, &n_wakeups);

  for (guint i = 0; i < n_wakeups; i++)
    {
      TksWorst w = { wk[i].ready.pos, wk[i].run.pos, tks_events_to_us (events, wk[i].latency),
                     thread, i };

      if (wk[i].thread == thread && !wk[i].open && wk[i].ready.pos >= from
          && wk[i].ready.pos <= to)
        keep (top, n, &w);
    }
}

static void
worst_slices (TksEvents      *events,
              const TksTrack *track,
              double          from,
              double          to,
              GArray         *top,
              guint           n)
{
  for (guint i = 0; i < track->n_slices; i++)
    {
      const TksSlice *sl = &track->slices[i];
      TksWorst w = { sl->begin.pos, sl->end.pos,
                     tks_events_to_us (events, sl->end.time - sl->begin.time), G_MAXUINT, i };

      if (sl->begin.pos >= from && sl->begin.pos <= to)
        keep (top, n, &w);
    }
}

/* The intervals between a marker's consecutive occurrences inside the range. */
static void
worst_intervals (TksEvents      *events,
                 const TksTrack *track,
                 double          from,
                 double          to,
                 GArray         *top,
                 guint           n)
{
  const TksInstant *prev = NULL;

  for (guint i = 0; i < track->n_instants; i++)
    {
      const TksInstant *in = &track->instants[i];

      if (in->time.pos < from || in->time.pos > to)
        continue;
      if (prev != NULL)
        {
          TksWorst w = { prev->time.pos, in->time.pos,
                         tks_events_to_us (events, in->time.time - prev->time.time),
                         G_MAXUINT, i };

          keep (top, n, &w);
        }
      prev = in;
    }
}

/* The range cut into equal windows, each measured by the share of it the thread ran
 * (handlers excluded), handlers ran, or the CPU slept: the figures of the CPU share table. */
static void
worst_windows (TksEvents       *events,
               TksWorstKind     kind,
               const TksThread *th,
               double           from,
               double           to,
               GArray          *top,
               guint            n)
{
  double width = (to - from) / TKS_WORST_WINDOWS;

  if (!(width > 0))
    return;
  for (guint i = 0; i < TKS_WORST_WINDOWS; i++)
    {
      double a = from + i * width, b = i + 1 == TKS_WORST_WINDOWS ? to : from + (i + 1) * width;
      double t = kind == TKS_WORST_SHARE ? tks_events_thread_time_without_irqs (events, th, a, b)
                 : kind == TKS_WORST_IRQ_SHARE ? tks_events_irq_time (events, a, b)
                 : tks_events_sleep_time (events, a, b);
      TksWorst w = { a, b, 100 * t / (b - a), th != NULL ? th->index : G_MAXUINT, i };

      if (t > 0)
        keep (top, n, &w);
    }
}

static const TksTrack *
track_of (TksEvents    *events,
          TksTrackKind  kind,
          guint         key)
{
  guint n_tracks = 0;
  const TksTrack *tracks = tks_events_get_tracks (events, kind, &n_tracks);

  return key < n_tracks ? &tracks[key] : NULL;
}

GArray *
tks_stats_worst (TksCapture   *capture,
                 TksWorstKind  kind,
                 guint         key,
                 double        from,
                 double        to,
                 guint         n)
{
  GArray *top = g_array_sized_new (FALSE, FALSE, sizeof (TksWorst), MIN (n, 64));
  TksEvents *events;
  const TksThread *th;
  const TksTrack *track;

  g_return_val_if_fail (TKS_IS_CAPTURE (capture), top);

  resolve_range (capture, &from, &to);
  events = tks_capture_get_events (capture);
  th = tks_capture_get_thread (capture, key);
  switch (kind)
    {
    case TKS_WORST_RUN:
      if (th != NULL)
        worst_runs (th, from, to, top, n);
      break;
    case TKS_WORST_WAKEUP:
      if (events != NULL && th != NULL)
        worst_wakeups (events, key, from, to, top, n);
      break;
    case TKS_WORST_HANDLER:
      if (events != NULL && (track = track_of (events, TKS_TRACK_IRQ, key)) != NULL)
        worst_slices (events, track, from, to, top, n);
      break;
    case TKS_WORST_MARKER:
      if (events != NULL && (track = track_of (events, TKS_TRACK_MARKER, key)) != NULL)
        worst_intervals (events, track, from, to, top, n);
      break;
    case TKS_WORST_SHARE:
      if (events != NULL && th != NULL)
        worst_windows (events, kind, th, from, to, top, n);
      break;
    case TKS_WORST_IRQ_SHARE:
    case TKS_WORST_SLEEP_SHARE:
      if (events != NULL)
        worst_windows (events, kind, NULL, from, to, top, n);
      break;
    default:
      g_return_val_if_reached (top);
    }
  return top;
}
